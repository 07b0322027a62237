// SPDX-License-Identifier: GPL-2.0-only
/*
 * linux_cpufreq.c - perf domains and frequency control through cpufreq sysfs, and the state
 * file that makes every change undoable, even after SIGKILL.
 *
 * State file format (text, one line each):
 *   gearbox-profile-state/1
 *   <path>\t<original value>
 * Lines are in restore order: each policy's governor first, then its limits.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cpulist.h"
#include "em_import.h"
#include "linux_impl.h"
#include "prof_files.h"

#define STATE_MAGIC "gearbox-profile-state/1"

int lx_read_str(const char *path, char *buf, size_t len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return -errno;
	n = read(fd, buf, len - 1);
	close(fd);
	if (n < 0)
		return -errno;
	buf[n] = 0;
	while (n > 0 && (buf[n - 1] == '\n' || buf[n - 1] == ' '))
		buf[--n] = 0;
	return 0;
}

/* One write of "s\n", as `echo s > path` does: sysfs takes a value per write. */
int lx_write_str(const char *path, const char *s)
{
	int fd = open(path, O_WRONLY | O_TRUNC | O_NOFOLLOW | O_CLOEXEC);
	char buf[256];
	ssize_t n;
	int e, len;

	if (fd < 0)
		return -errno;
	len = snprintf(buf, sizeof(buf), "%s\n", s);
	n = write(fd, buf, (size_t)len);
	e = n < 0 ? errno : 0;
	if (close(fd) < 0 && !e)
		e = errno;
	return -e;
}

static int read_u32(const char *dir, const char *file, u32 *v)
{
	char path[LX_PATH + 64], buf[64];
	int ret;

	snprintf(path, sizeof(path), "%s/%s", dir, file);
	ret = lx_read_str(path, buf, sizeof(buf));
	if (ret < 0)
		return ret;
	*v = (u32)strtoul(buf, NULL, 10);
	return 0;
}

static int cmp_u32(const void *a, const void *b)
{
	u32 x = *(const u32 *)a, y = *(const u32 *)b;

	return (x > y) - (x < y);
}

static int cmp_int(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;

	return (x > y) - (x < y);
}

/* Ascending, unique; more than EM_MAX_OPPS are thinned evenly, keeping both ends. */
static u32 normalize_freqs(u32 *f, u32 n)
{
	u32 out = 0;

	qsort(f, n, sizeof(*f), cmp_u32);
	for (u32 i = 0; i < n; i++)
		if (f[i] && (out == 0 || f[i] != f[out - 1]))
			f[out++] = f[i];
	if (out > EM_MAX_OPPS) {
		u32 tmp[EM_MAX_OPPS];

		for (u32 i = 0; i < EM_MAX_OPPS; i++)
			tmp[i] = f[(u64)i * (out - 1) / (EM_MAX_OPPS - 1)];
		memcpy(f, tmp, sizeof(tmp));
		out = EM_MAX_OPPS;
	}
	return out;
}

static int policy_opps(const struct lx_policy *p, u32 step_khz, struct prof_domain_info *di)
{
	char path[LX_PATH + 64], buf[4096], *s, *end;
	u32 f[256], n = 0;

	snprintf(path, sizeof(path), "%s/scaling_available_frequencies", p->dir);
	if (lx_read_str(path, buf, sizeof(buf)) == 0) {
		for (s = buf; n < 256; s = end) {
			unsigned long v = strtoul(s, &end, 10);

			if (end == s)
				break;
			f[n++] = (u32)v;
		}
	}
	if (n == 0 && p->cpuinfo_max_khz > p->cpuinfo_min_khz) {
		/* no table (intel_pstate, some CPPC): a stepped range */
		for (u32 k = p->cpuinfo_min_khz; k < p->cpuinfo_max_khz && n < 255; k += step_khz)
			f[n++] = k;
		f[n++] = p->cpuinfo_max_khz;
	}
	di->nr_opps = normalize_freqs(f, n);
	memcpy(di->freq_khz, f, di->nr_opps * sizeof(u32));
	return di->nr_opps ? 0 : -ENODATA;
}

static int policy_index(const char *name)
{
	char *end;
	long v;

	if (strncmp(name, "policy", 6))
		return -1;
	v = strtol(name + 6, &end, 10);
	return *end || end == name + 6 || v < 0 || v > 4096 ? -1 : (int)v;
}

int lx_cpufreq_discover(const char *sysfs_cpu, u32 step_khz, struct lx_cpufreq *cf,
			struct prof_topology *topo, struct gb_err *err)
{
	char dir[LX_PATH], path[LX_PATH + 64], buf[1024];
	int idx[EM_MAX_DOMAINS], n = 0;
	struct dirent *de;
	DIR *dp;

	snprintf(dir, sizeof(dir), "%s/cpufreq", sysfs_cpu);
	dp = opendir(dir);
	if (dp) {
		while ((de = readdir(dp)) && n < EM_MAX_DOMAINS) {
			int i = policy_index(de->d_name);

			if (i >= 0)
				idx[n++] = i;
		}
		closedir(dp);
	}
	if (n == 0)
		return gb_err_set(err, ENODEV,
				  "no cpufreq policy in %s: the kernel needs "
				  "CONFIG_CPU_FREQ and a cpufreq driver for this SoC (cpufreq-dt, "
				  "scmi-cpufreq, qcom-cpufreq-hw, ...); a VM usually has none",
				  dir);
	qsort(idx, n, sizeof(int), cmp_int);
	cf->nr = 0;
	for (int i = 0; i < n; i++) {
		struct lx_policy *p = &cf->pol[cf->nr];
		struct prof_domain_info *di = &topo->dom[cf->nr];
		struct gb_err perr;

		snprintf(p->dir, sizeof(p->dir), "%s/policy%d", dir, idx[i]);
		snprintf(path, sizeof(path), "%s/related_cpus", p->dir);
		if (lx_read_str(path, buf, sizeof(buf)) < 0 ||
		    cpulist_parse(buf, &di->cpus, &perr) < 0)
			return gb_err_set(err, ENODEV, "%s: unreadable or bad CPU list", path);
		read_u32(p->dir, "cpuinfo_min_freq", &p->cpuinfo_min_khz);
		read_u32(p->dir, "cpuinfo_max_freq", &p->cpuinfo_max_khz);
		if (policy_opps(p, step_khz, di) < 0)
			return gb_err_set(err, ENODEV,
					  "%s: no scaling_available_frequencies and no "
					  "cpuinfo_min/max_freq range",
					  p->dir);
		snprintf(path, sizeof(path), "%s/scaling_available_governors", p->dir);
		p->userspace = lx_read_str(path, buf, sizeof(buf)) == 0 && strstr(buf, "userspace");
		snprintf(path, sizeof(path), "%s/scaling_setspeed", p->dir);
		p->userspace = p->userspace && access(path, F_OK) == 0;
		cf->nr++;
	}
	topo->nr_domains = cf->nr;
	for (u32 d = 0; d < cf->nr; d++)
		em_default_domain_name(cf->nr, d, topo->dom[d].name, EM_NAME_LEN);
	return 0;
}

static int save_file(struct lx_cpufreq *cf, const char *dir, const char *file, struct gb_err *err)
{
	struct lx_saved *s = &cf->saved[cf->nr_saved];
	int ret;

	if (cf->nr_saved >= LX_MAX_SAVED)
		return gb_err_set(err, E2BIG, "too many files to save");
	snprintf(s->path, sizeof(s->path), "%s/%s", dir, file);
	ret = lx_read_str(s->path, s->value, sizeof(s->value));

	if (ret < 0)
		return gb_err_set(err, -ret, "%s: %s", s->path, strerror(-ret));
	cf->nr_saved++;
	return 0;
}

static int write_state(const struct lx_cpufreq *cf, struct gb_err *err)
{
	size_t cap = 64 + (size_t)cf->nr_saved * (LX_PATH + 130), len;
	char *buf = malloc(cap);
	int ret;

	if (!buf)
		return gb_err_set(err, ENOMEM, "out of memory");
	len = (size_t)snprintf(buf, cap, "%s\n", STATE_MAGIC);
	for (u32 i = 0; i < cf->nr_saved; i++)
		len += (size_t)snprintf(buf + len, cap - len, "%s\t%s\n", cf->saved[i].path,
					cf->saved[i].value);
	ret = prof_private_write(cf->state_path, buf, len, err);
	free(buf);
	if (ret < 0)
		gb_err_prefix(err, "the state file");
	return ret;
}

int lx_cpufreq_take(struct lx_cpufreq *cf, const char *state_path, struct gb_err *err)
{
	char path[LX_PATH + 64];
	struct stat st;
	int ret;

	/* the caller holds the profile lock: nothing can create the file between this check and
	 * the rename that writes it */
	if (lstat(state_path, &st) == 0)
		return gb_err_set(err, EEXIST,
				  "%s exists: a previous profile did not finish; run "
				  "'gearbox profile --restore' first",
				  state_path);
	snprintf(cf->state_path, sizeof(cf->state_path), "%s", state_path);
	cf->nr_saved = 0;
	for (u32 d = 0; d < cf->nr; d++) {
		const char *dir = cf->pol[d].dir;

		if ((ret = save_file(cf, dir, "scaling_governor", err)) < 0 ||
		    (ret = save_file(cf, dir, "scaling_max_freq", err)) < 0 ||
		    (ret = save_file(cf, dir, "scaling_min_freq", err)) < 0)
			return ret;
	}
	ret = write_state(cf, err);
	if (ret < 0)
		return ret;
	cf->state_written = true;
	for (u32 d = 0; d < cf->nr; d++) {
		if (!cf->pol[d].userspace)
			continue;
		snprintf(path, sizeof(path), "%s/scaling_governor", cf->pol[d].dir);
		ret = lx_write_str(path, "userspace");
		if (ret < 0)
			return gb_err_set(err, -ret,
					  "%s: cannot select the userspace governor: %s; "
					  "run as root, and check that nothing (a vendor daemon, a "
					  "read-only mount) locks the governor",
					  path, strerror(-ret));
	}
	return 0;
}

static int write_khz(const char *dir, const char *file, u32 khz)
{
	char path[LX_PATH + 64], v[16];

	snprintf(path, sizeof(path), "%s/%s", dir, file);
	snprintf(v, sizeof(v), "%u", khz);
	return lx_write_str(path, v);
}

int lx_cpufreq_set(struct lx_cpufreq *cf, u32 d, u32 freq_khz, struct gb_err *err)
{
	const struct lx_policy *p = &cf->pol[d];
	u32 cur_min = 0;
	int ret;

	if (p->userspace) {
		ret = write_khz(p->dir, "scaling_setspeed", freq_khz);
	} else {
		/* pin min = max; the order keeps min <= max at every step */
		read_u32(p->dir, "scaling_min_freq", &cur_min);
		if (freq_khz >= cur_min) {
			ret = write_khz(p->dir, "scaling_max_freq", freq_khz);
			if (ret == 0)
				ret = write_khz(p->dir, "scaling_min_freq", freq_khz);
		} else {
			ret = write_khz(p->dir, "scaling_min_freq", freq_khz);
			if (ret == 0)
				ret = write_khz(p->dir, "scaling_max_freq", freq_khz);
		}
	}
	if (ret < 0)
		return gb_err_set(err, -ret, "%s: cannot set %u kHz: %s", p->dir, freq_khz,
				  strerror(-ret));
	return 0;
}

int lx_cpufreq_cur_khz(const struct lx_cpufreq *cf, u32 d, u32 *khz)
{
	return read_u32(cf->pol[d].dir, "scaling_cur_freq", khz);
}

static bool is_limit(const char *path)
{
	size_t n = strlen(path);

	return n > 9 && !strcmp(path + n - 9, "_max_freq")
		   ? true
		   : n > 9 && !strcmp(path + n - 9, "_min_freq");
}

int lx_cpufreq_restore(struct lx_cpufreq *cf, struct gb_err *err)
{
	int first = 0;

	/* Limits are written twice: the first pass may be refused while the other limit is
	 * still pinned on the wrong side, the second one then succeeds. */
	for (int pass = 0; pass < 2; pass++) {
		first = 0;
		for (u32 i = 0; i < cf->nr_saved; i++) {
			const struct lx_saved *s = &cf->saved[i];
			char cur[128];
			int ret;

			if (pass && !is_limit(s->path))
				continue;
			if (lx_read_str(s->path, cur, sizeof(cur)) == 0 && !strcmp(cur, s->value))
				continue;
			ret = lx_write_str(s->path, s->value);
			if (ret < 0 && !first) {
				first = ret;
				gb_err_set(err, -ret, "restoring %s to '%s': %s", s->path, s->value,
					   strerror(-ret));
			}
		}
		if (!first)
			break;
	}
	if (first)
		return first;
	if (cf->state_written && unlink(cf->state_path) < 0 && errno != ENOENT)
		return gb_err_set(err, errno, "%s: %s", cf->state_path, strerror(errno));
	cf->state_written = false;
	return 0;
}

/* Writes s, then a newline, with nothing but system calls. */
static bool write_raw(const char *path, const char *s)
{
	char buf[sizeof(((struct lx_saved *)0)->value) + 1];
	size_t n = strlen(s);
	int fd = open(path, O_WRONLY | O_TRUNC | O_NOFOLLOW | O_CLOEXEC);
	bool ok;

	if (fd < 0)
		return false;
	memcpy(buf, s, n);
	buf[n] = '\n';
	ok = write(fd, buf, n + 1) == (ssize_t)(n + 1);
	return close(fd) == 0 && ok;
}

void lx_cpufreq_restore_now(const struct lx_cpufreq *cf)
{
	bool all = false;

	/* as lx_cpufreq_restore: a limit refused on the first pass is taken on the second */
	for (int pass = 0; pass < 2 && !all; pass++) {
		all = true;
		for (u32 i = 0; i < cf->nr_saved; i++)
			if (!pass || is_limit(cf->saved[i].path))
				all &= write_raw(cf->saved[i].path, cf->saved[i].value);
	}
	if (all && cf->state_written)
		unlink(cf->state_path);
}

/* The files a state file may name: cpufreq policy attributes, nothing else. */
static const char *const restorable[] = {
    "scaling_governor",
    "scaling_min_freq",
    "scaling_max_freq",
    "scaling_setspeed",
};

/*
 * A saved entry is restored only if its path is SYSFS_CPU/cpufreq/policyN/ATTR with ATTR one of
 * restorable[], and its value a governor name or a frequency in kHz: a state file that names
 * anything else (edited, planted, corrupted) is refused as a whole.  NULL when valid, else why.
 */
static const char *bad_entry(const char *sysfs_cpu, const struct lx_saved *s)
{
	char prefix[LX_PATH];
	const char *p, *attr;
	size_t n;

	n = (size_t)snprintf(prefix, sizeof(prefix), "%s/cpufreq/policy", sysfs_cpu);
	if (strncmp(s->path, prefix, n))
		return "not under the cpufreq policy directories";
	p = s->path + n;
	n = strspn(p, "0123456789");
	if (n == 0 || n > 4 || p[n] != '/')
		return "not under the cpufreq policy directories";
	attr = p + n + 1;
	for (size_t i = 0; i < sizeof(restorable) / sizeof(restorable[0]); i++) {
		if (strcmp(attr, restorable[i]))
			continue;
		if (i == 0) {
			n = strspn(s->value, "abcdefghijklmnopqrstuvwxyz0123456789_-");
			return n && n < 32 && !s->value[n] ? NULL : "not a governor name";
		}
		n = strspn(s->value, "0123456789");
		return n && n <= 10 && !s->value[n] ? NULL : "not a frequency in kHz";
	}
	return "not a cpufreq attribute the profiler changes (scaling_governor, "
	       "scaling_min_freq, scaling_max_freq, scaling_setspeed)";
}

/* Parses a state file's text into cf->saved; every line is checked before anything is
 * written. */
static int parse_state(const char *state_path, const char *sysfs_cpu, char *text,
		       struct lx_cpufreq *cf, struct gb_err *err)
{
	char *save = NULL, *line = strtok_r(text, "\n", &save);
	u32 lineno = 1;

	if (!line || strcmp(line, STATE_MAGIC))
		return gb_err_set(err, EINVAL,
				  "%s: not a gearbox profile state file (line 1 is not "
				  "\"%s\")",
				  state_path, STATE_MAGIC);
	while ((line = strtok_r(NULL, "\n", &save))) {
		struct lx_saved *s = &cf->saved[cf->nr_saved];
		char *tab = strchr(line, '\t');
		const char *why;

		lineno++;
		if (cf->nr_saved >= LX_MAX_SAVED)
			return gb_err_set(err, E2BIG, "%s: line %u: more than %d entries",
					  state_path, lineno, LX_MAX_SAVED);
		if (!tab || (size_t)(tab - line) >= sizeof(s->path) ||
		    strlen(tab + 1) >= sizeof(s->value))
			return gb_err_set(err, EINVAL, "%s: line %u: expected PATH<tab>VALUE",
					  state_path, lineno);
		*tab = 0;
		snprintf(s->path, sizeof(s->path), "%s", line);
		snprintf(s->value, sizeof(s->value), "%s", tab + 1);
		why = bad_entry(sysfs_cpu, s);
		if (why)
			return gb_err_set(err, EPERM,
					  "%s: line %u: '%.200s' = '%.40s': %s; refused, "
					  "nothing restored",
					  state_path, lineno, s->path, s->value, why);
		cf->nr_saved++;
	}
	return 0;
}

int prof_linux_restore(const char *state_path, const char *sysfs_cpu, struct gb_err *err)
{
	size_t cap = 64 + LX_MAX_SAVED * (LX_PATH + 130);
	struct lx_cpufreq *cf = calloc(1, sizeof(*cf));
	char *text = malloc(cap);
	int ret;

	if (!cf || !text) {
		free(cf);
		free(text);
		return gb_err_set(err, ENOMEM, "out of memory");
	}
	ret = prof_private_read(state_path, text, cap, err);
	if (ret == -ENOENT)
		gb_err_set(err, ENOENT, "%s: %s", state_path, strerror(ENOENT));
	if (ret == 0)
		ret = parse_state(state_path, sysfs_cpu, text, cf, err);
	if (ret == 0) {
		snprintf(cf->state_path, sizeof(cf->state_path), "%s", state_path);
		cf->state_written = true;
		ret = lx_cpufreq_restore(cf, err);
	}
	free(text);
	free(cf);
	return ret;
}
