// SPDX-License-Identifier: GPL-2.0-only
/*
 * kernel_em.c - the kernel's current energy model from netlink or debugfs (kernel_em.h).
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cpulist.h"
#include "em_import.h"
#include "kernel_em.h"

int prof_kem_parse(const char *s, enum prof_kem_src *src)
{
	static const char *const names[] = {"auto", "netlink", "debugfs", "none"};

	for (unsigned i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (!strcmp(s, names[i])) {
			*src = (enum prof_kem_src)i;
			return 0;
		}
	return -EINVAL;
}

/* The cpufreq policies' related_cpus under sysfs_cpu; 0 when there are none to check. */
static u32 read_policies(const char *sysfs_cpu, struct em_cpumask *pol, u32 max)
{
	char dir[4096], path[4400], buf[512];
	struct dirent *e;
	struct gb_err ignored;
	u32 n = 0;
	DIR *d;

	snprintf(dir, sizeof(dir), "%s/cpufreq", sysfs_cpu ? sysfs_cpu : "/sys/devices/system/cpu");
	d = opendir(dir);
	if (!d)
		return 0;
	while (n < max && (e = readdir(d))) {
		FILE *f;
		size_t len;

		if (strncmp(e->d_name, "policy", 6))
			continue;
		snprintf(path, sizeof(path), "%s/%s/related_cpus", dir, e->d_name);
		f = fopen(path, "r");
		if (!f)
			continue;
		len = fread(buf, 1, sizeof(buf) - 1, f);
		fclose(f);
		buf[len] = 0;
		buf[strcspn(buf, "\n")] = 0;
		if (cpulist_parse(buf, &pol[n], &ignored) == 0)
			n++;
	}
	closedir(d);
	return n;
}

static bool mask_equal(const struct em_cpumask *a, const struct em_cpumask *b)
{
	return !memcmp(a, b, sizeof(*a));
}

int prof_kem_from_netlink(const struct emnl_model *m, const char *sysfs_cpu,
			  struct em_profile *prof, u32 *skipped, struct gb_err *err)
{
	struct em_cpumask pol[EM_MAX_DOMAINS];
	u32 npol = read_policies(sysfs_cpu, pol, EM_MAX_DOMAINS), n = 0, skip = 0;
	int rc;

	em_profile_init(prof, "netlink");
	for (u32 i = 0; i < m->nr_domains; i++) {
		const struct emnl_domain *nd = &m->dom[i];
		struct em_domain *pd;
		bool policy = npol == 0;

		for (u32 p = 0; p < npol && !policy; p++)
			policy = mask_equal(&pol[p], &nd->cpus);
		if (nd->nr_cpus == 0 || nd->bad_cpus || !policy) {
			skip++;
			continue;
		}
		if (nd->flags & EMNL_PD_FLAG_ARTIFICIAL)
			return gb_err_set(err, EINVAL,
					  "perf domain %u: the kernel's EM is artificial "
					  "(flags %#llx): its power values are not physical",
					  nd->id, (unsigned long long)nd->flags);
		if (!(nd->flags & EMNL_PD_FLAG_MICROWATTS))
			return gb_err_set(err, EINVAL,
					  "perf domain %u: power values are in an "
					  "abstract scale (flags %#llx lacks MICROWATTS)",
					  nd->id, (unsigned long long)nd->flags);
		if (nd->nr_states == 0 || nd->nr_states > EM_MAX_OPPS)
			return gb_err_set(err, EINVAL,
					  "perf domain %u: %u performance states, must "
					  "be 1..%d",
					  nd->id, nd->nr_states, EM_MAX_OPPS);
		pd = &prof->model.domains[n++];
		pd->cpus = nd->cpus;
		pd->nr_opps = nd->nr_states;
		for (u32 k = 0; k < nd->nr_states; k++) {
			const struct emnl_state *s = &nd->states[k];
			struct em_opp *o = &pd->opps[k];

			/* each value against the model's range before it becomes 32 bits */
			if (s->frequency_khz < 1 || s->frequency_khz > EM_MAX_FREQ_KHZ)
				return gb_err_set(err, ERANGE,
						  "perf domain %u, state %u: frequency "
						  "%llu kHz is outside 1..%u",
						  nd->id, k, (unsigned long long)s->frequency_khz,
						  EM_MAX_FREQ_KHZ);
			if (s->power < 1 || s->power > EM_MAX_POWER_UW)
				return gb_err_set(err, ERANGE,
						  "perf domain %u, state %u: power %llu uW "
						  "is outside 1..%u",
						  nd->id, k, (unsigned long long)s->power,
						  EM_MAX_POWER_UW);
			if (s->performance < 1 || s->performance > EM_CAPACITY_SCALE)
				return gb_err_set(err, ERANGE,
						  "perf domain %u, state %u: performance "
						  "%llu is outside 1..%d",
						  nd->id, k, (unsigned long long)s->performance,
						  EM_CAPACITY_SCALE);
			o->freq_khz = (u32)s->frequency_khz;
			o->power_uw = (u32)s->power;
			o->perf = (u32)s->performance;
		}
		/* the kernel's table is ascending; a later kernel's need not be */
		for (u32 a = 1; a < pd->nr_opps; a++)
			for (u32 b = a; b > 0 && pd->opps[b - 1].freq_khz > pd->opps[b].freq_khz;
			     b--) {
				struct em_opp t = pd->opps[b];

				pd->opps[b] = pd->opps[b - 1];
				pd->opps[b - 1] = t;
			}
		/* named as debugfs names it: after the first CPU's device */
		for (u32 c = 0; c < EM_MAX_CPUS; c++)
			if (em_cpumask_test(&pd->cpus, c)) {
				snprintf(pd->name, EM_NAME_LEN, "cpu%u", c);
				break;
			}
	}
	if (skipped)
		*skipped = skip;
	if (n == 0)
		return gb_err_set(err, ENOENT, "%u perf domains, none of CPUs%s", m->nr_domains,
				  npol ? " matching a cpufreq policy" : "");
	prof->model.nr_domains = n;
	snprintf(prof->soc, sizeof(prof->soc), "kernel-em");
	snprintf(prof->prov.conditions, sizeof(prof->prov.conditions),
		 "read from the kernel through the %s generic netlink family (version %u)%s",
		 EMNL_FAMILY_NAME, m->family_version,
		 skip ? "; domains without CPUs or not matching a cpufreq policy left out" : "");
	rc = em_profile_finalize(prof, false, NULL, err);
	if (rc)
		gb_err_prefix(err, "the kernel's EM (netlink)");
	return rc;
}

static int from_netlink(const char *sysfs_cpu, struct em_profile *prof, struct gb_err *err)
{
	struct emnl_model *m = malloc(sizeof(*m));
	struct emnl_xport x;
	int ret;

	if (!m)
		return gb_err_set(err, ENOMEM, "out of memory");
	ret = emnl_socket_open(&x, err);
	if (ret == 0) {
		ret = emnl_read(&x, m, err);
		emnl_socket_close(&x);
	}
	if (ret == 0)
		ret = prof_kem_from_netlink(m, sysfs_cpu, prof, NULL, err);
	free(m);
	return ret;
}

static int from_debugfs(const char *dir, const char *sysfs_cpu, struct em_profile *prof,
			struct gb_err *err)
{
	struct stat st;

	if (stat(dir, &st) < 0 || !S_ISDIR(st.st_mode))
		return gb_err_set(err, ENOENT,
				  "no %s (needs CONFIG_ENERGY_MODEL and debugfs "
				  "mounted)",
				  dir);
	return em_import_debugfs(dir, sysfs_cpu, prof, NULL, err);
}

int prof_kernel_em(enum prof_kem_src src, const char *debugfs_dir, const char *sysfs_cpu,
		   struct em_profile *prof, char *name, size_t name_len, struct gb_err *err)
{
	struct gb_err nl_err = {{0}};
	int ret;

	if (src == PROF_KEM_NONE)
		return gb_err_set(err, ENOENT, "not read (--kernel-em none)");
	if (src == PROF_KEM_AUTO || src == PROF_KEM_NETLINK) {
		ret = from_netlink(sysfs_cpu, prof, &nl_err);
		if (ret == 0) {
			snprintf(name, name_len, "the kernel's EM (netlink %s)", EMNL_FAMILY_NAME);
			return 0;
		}
		if (src == PROF_KEM_NETLINK) {
			*err = nl_err;
			gb_err_prefix(err, "netlink");
			return ret;
		}
	}
	ret = from_debugfs(debugfs_dir, sysfs_cpu, prof, err);
	if (ret == 0) {
		snprintf(name, name_len, "the kernel's EM (debugfs)");
		return 0;
	}
	if (src == PROF_KEM_AUTO) {
		char dbg[GB_ERR_MSG_LEN];

		snprintf(dbg, sizeof(dbg), "%s", err->msg);
		gb_err_set(err, -ret, "netlink: %.240s; debugfs: %.240s", nl_err.msg, dbg);
	} else {
		gb_err_prefix(err, "debugfs");
	}
	return ret;
}
