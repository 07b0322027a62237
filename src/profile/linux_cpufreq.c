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
	int fd = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC);
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
		return gb_err_set(err, ENODEV, "no cpufreq policy in %s: the kernel needs "
				  "CONFIG_CPU_FREQ and a cpufreq driver for this SoC (cpufreq-dt, "
				  "scmi-cpufreq, qcom-cpufreq-hw, ...); a VM usually has none", dir);
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
			return gb_err_set(err, ENODEV, "%s: no scaling_available_frequencies and no "
					  "cpuinfo_min/max_freq range", p->dir);
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

static int mkdirs(const char *path)
{
	char tmp[LX_PATH];

	snprintf(tmp, sizeof(tmp), "%s", path);
	for (char *p = tmp + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = 0;
		if (mkdir(tmp, 0755) < 0 && errno != EEXIST)
			return -errno;
		*p = '/';
	}
	return 0;
}

static int write_state(const struct lx_cpufreq *cf, struct gb_err *err)
{
	char tmp[LX_PATH + 8];
	FILE *f;
	int ok;

	if (mkdirs(cf->state_path) < 0)
		return gb_err_set(err, errno, "%s: cannot create its directory: %s", cf->state_path,
				  strerror(errno));
	snprintf(tmp, sizeof(tmp), "%s.tmp", cf->state_path);
	f = fopen(tmp, "w");
	if (!f)
		return gb_err_set(err, errno, "%s: %s", tmp, strerror(errno));
	fprintf(f, "%s\n", STATE_MAGIC);
	for (u32 i = 0; i < cf->nr_saved; i++)
		fprintf(f, "%s\t%s\n", cf->saved[i].path, cf->saved[i].value);
	ok = fflush(f) == 0 && fsync(fileno(f)) == 0;
	if (fclose(f) != 0 || !ok || rename(tmp, cf->state_path) < 0) {
		unlink(tmp);
		return gb_err_set(err, EIO, "%s: cannot write the state file", cf->state_path);
	}
	return 0;
}

int lx_cpufreq_take(struct lx_cpufreq *cf, const char *state_path, struct gb_err *err)
{
	char path[LX_PATH + 64];
	int ret;

	if (access(state_path, F_OK) == 0)
		return gb_err_set(err, EEXIST, "%s exists: a previous profile did not finish; run "
				  "'gearbox profile --restore' first", state_path);
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
			return gb_err_set(err, -ret, "%s: cannot select the userspace governor: %s; "
					  "run as root, and check that nothing (a vendor daemon, a "
					  "read-only mount) locks the governor", path, strerror(-ret));
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

	return n > 9 && !strcmp(path + n - 9, "_max_freq") ? true :
	       n > 9 && !strcmp(path + n - 9, "_min_freq");
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

int prof_linux_restore(const char *state_path, struct gb_err *err)
{
	struct lx_cpufreq *cf = calloc(1, sizeof(*cf));
	char line[LX_PATH + 160];
	FILE *f;
	int ret = 0;

	if (!cf)
		return gb_err_set(err, ENOMEM, "out of memory");
	f = fopen(state_path, "r");
	if (!f) {
		ret = gb_err_set(err, errno, "%s: %s", state_path, strerror(errno));
		free(cf);
		return ret;
	}
	if (!fgets(line, sizeof(line), f) || strncmp(line, STATE_MAGIC, strlen(STATE_MAGIC))) {
		ret = gb_err_set(err, EINVAL, "%s: not a gearbox profile state file", state_path);
		goto out;
	}
	while (fgets(line, sizeof(line), f) && cf->nr_saved < LX_MAX_SAVED) {
		struct lx_saved *s = &cf->saved[cf->nr_saved];
		char *tab = strchr(line, '\t'), *nl = strchr(line, '\n');

		if (!tab)
			continue;
		if (nl)
			*nl = 0;
		*tab = 0;
		snprintf(s->path, sizeof(s->path), "%s", line);
		snprintf(s->value, sizeof(s->value), "%s", tab + 1);
		cf->nr_saved++;
	}
	snprintf(cf->state_path, sizeof(cf->state_path), "%s", state_path);
	cf->state_written = true;
	ret = lx_cpufreq_restore(cf, err);
out:
	fclose(f);
	free(cf);
	return ret;
}
