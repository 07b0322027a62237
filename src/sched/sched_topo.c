// SPDX-License-Identifier: GPL-2.0-only
/* sched_topo.c - the model against the machine; see sched_topo.h. */
#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cpulist.h"
#include "sched_topo.h"

static const char *sysfs_cpu_dir(void)
{
	const char *d = getenv("GEARBOX_SYSFS_CPU");

	return d && *d ? d : "/sys/devices/system/cpu";
}

/* Reads a cpulist file into mask; -errno with the file name in err. */
static int read_cpulist(const char *path, struct em_cpumask *mask, struct gb_err *err)
{
	char buf[4096];
	FILE *f = fopen(path, "r");
	int rc;

	if (!f)
		return gb_err_set(err, errno, "%s: %s", path, strerror(errno));
	if (!fgets(buf, sizeof(buf), f))
		buf[0] = 0;
	fclose(f);
	buf[strcspn(buf, "\n")] = 0;
	rc = cpulist_parse(buf, mask, err);
	if (rc)
		gb_err_prefix(err, "%s", path);
	return rc;
}

static unsigned mask_last(const struct em_cpumask *m)
{
	unsigned c, last = 0;

	for (c = 0; c < EM_MAX_CPUS; c++)
		if (em_cpumask_test(m, c))
			last = c + 1;
	return last;
}

static unsigned first_cpu(const struct em_cpumask *m)
{
	unsigned c;

	for (c = 0; c < EM_MAX_CPUS && !em_cpumask_test(m, c); c++)
		;
	return c;
}

/*
 * cpuN/cpu_capacity and cpuN/topology/cluster_cpus_list of every possible CPU.  A CPU without
 * the file (x86, or a CPU that is not present) keeps 0 / an empty mask; an unreadable or
 * malformed file is an error naming it.
 */
static int read_capacities(struct sched_topo *t, struct gb_err *err)
{
	char path[512], buf[64], *end;
	unsigned c;
	int rc;

	for (c = 0; c < t->nr_cpus && c < EM_MAX_CPUS; c++) {
		FILE *f;
		unsigned long v;

		snprintf(path, sizeof(path), "%s/cpu%u/cpu_capacity", sysfs_cpu_dir(), c);
		f = fopen(path, "r");
		if (!f) {
			if (errno == ENOENT)
				continue;
			return gb_err_set(err, errno, "%s: %s", path, strerror(errno));
		}
		if (!fgets(buf, sizeof(buf), f))
			buf[0] = 0;
		fclose(f);
		errno = 0;
		v = strtoul(buf, &end, 10);
		if (end == buf || (*end && *end != '\n') || errno || v == 0 ||
		    v > EM_CAPACITY_SCALE)
			return gb_err_set(err, EINVAL, "%s: not a capacity of 1..%d: '%.*s'", path,
					  EM_CAPACITY_SCALE, (int)strcspn(buf, "\n"), buf);
		t->capacity[c] = (unsigned)v;
		t->has_capacity = true;
		snprintf(path, sizeof(path), "%s/cpu%u/topology/cluster_cpus_list", sysfs_cpu_dir(),
			 c);
		rc = read_cpulist(path, &t->cluster[c], err);
		if (rc == -ENOENT)
			continue;
		if (rc)
			return rc;
	}
	/* 1024 on every CPU is the kernel's default when the firmware describes no capacities
	 * (x86, a device tree without capacity-dmips-mhz): it says nothing about the CPUs */
	for (c = 0; c < t->nr_cpus && c < EM_MAX_CPUS; c++)
		if (t->capacity[c] && t->capacity[c] != EM_CAPACITY_SCALE)
			return 0;
	if (t->has_capacity) {
		t->has_capacity = false;
		t->capacity_default = true;
		memset(t->capacity, 0, sizeof(t->capacity));
		memset(t->cluster, 0, sizeof(t->cluster));
	}
	return 0;
}

int sched_topo_read(struct sched_topo *t, struct gb_err *err)
{
	char path[512];
	struct em_cpumask possible = {0};
	struct dirent *de;
	DIR *dir;
	int rc;

	memset(t, 0, sizeof(*t));
	snprintf(path, sizeof(path), "%s/possible", sysfs_cpu_dir());
	rc = read_cpulist(path, &possible, err);
	if (rc)
		return rc;
	t->nr_cpus = mask_last(&possible);
	snprintf(path, sizeof(path), "%s/online", sysfs_cpu_dir());
	if (read_cpulist(path, &t->online, err))
		t->online = possible;
	rc = read_capacities(t, err);
	if (rc)
		return rc;
	snprintf(path, sizeof(path), "%s/cpufreq", sysfs_cpu_dir());
	dir = opendir(path);
	if (!dir)
		return 0;
	while ((de = readdir(dir)) && t->nr_policies < EM_MAX_DOMAINS) {
		char file[800];

		if (strncmp(de->d_name, "policy", 6))
			continue;
		snprintf(file, sizeof(file), "%s/%s/related_cpus", path, de->d_name);
		if (read_cpulist(file, &t->policy_cpus[t->nr_policies], err)) {
			closedir(dir);
			return -EIO;
		}
		t->nr_policies++;
	}
	closedir(dir);
	/* readdir order is arbitrary: list policies by their first CPU */
	for (unsigned i = 1; i < t->nr_policies; i++)
		for (unsigned j = i;
		     j > 0 && first_cpu(&t->policy_cpus[j]) < first_cpu(&t->policy_cpus[j - 1]);
		     j--) {
			struct em_cpumask tmp = t->policy_cpus[j];

			t->policy_cpus[j] = t->policy_cpus[j - 1];
			t->policy_cpus[j - 1] = tmp;
		}
	t->has_cpufreq = t->nr_policies > 0;
	return 0;
}

static bool mask_eq(const struct em_cpumask *a, const struct em_cpumask *b)
{
	return !memcmp(a, b, sizeof(*a));
}

/* The first model domain that is not exactly one cpufreq policy, or -1. */
static int first_unmatched_domain(const struct em_model *m, const struct sched_topo *t)
{
	unsigned d, p;

	for (d = 0; d < m->nr_domains; d++) {
		bool found = false;

		for (p = 0; p < t->nr_policies; p++)
			found |= mask_eq(&m->domains[d].cpus, &t->policy_cpus[p]);
		if (!found)
			return (int)d;
	}
	return m->nr_domains == t->nr_policies ? -1 : (int)m->nr_domains;
}

/* Appends one assumption to assumed, "; "-separated. */
static void add_assumed(char *assumed, size_t len, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void add_assumed(char *assumed, size_t len, const char *fmt, ...)
{
	size_t n = strlen(assumed);
	va_list ap;

	if (n && n + 2 < len) {
		memcpy(assumed + n, "; ", 3);
		n += 2;
	}
	va_start(ap, fmt);
	vsnprintf(assumed + n, len - n, fmt, ap);
	va_end(ap);
}

static bool capacity_close(unsigned model_cap, unsigned machine_cap)
{
	unsigned tol = machine_cap * SCHED_TOPO_CAP_TOLERANCE_PCT / 100;
	unsigned diff = model_cap > machine_cap ? model_cap - machine_cap : machine_cap - model_cap;

	if (tol < SCHED_TOPO_CAP_TOLERANCE_MIN)
		tol = SCHED_TOPO_CAP_TOLERANCE_MIN;
	return diff <= tol;
}

/* Every CPU's cpu_capacity against its model domain's capacity (sched_topo.h). */
static int check_capacities(const struct em_model *m, const struct sched_topo *t, bool force,
			    char *assumed, size_t assumed_len, struct gb_err *err)
{
	unsigned c, bad = 0, first = 0, want = 0;

	for (c = 0; c < t->nr_cpus && c < EM_MAX_CPUS; c++) {
		unsigned d = m->cpu_domain[c], cap;

		if (!t->capacity[c] || d >= m->nr_domains)
			continue;
		cap = em_domain_capacity(&m->domains[d]);
		if (capacity_close(cap, t->capacity[c]))
			continue;
		if (!bad++) {
			first = c;
			want = cap;
		}
	}
	if (!bad)
		return 0;
	if (!force)
		return gb_err_set(err, EINVAL,
				  "CPU %u: the model's capacity is %u (domain %s), this machine's "
				  "cpu_capacity is %u, more than %d%% and %d apart; %u CPU(s) "
				  "differ (use --force to use the model's capacities anyway)",
				  first, want, m->domains[m->cpu_domain[first]].name,
				  t->capacity[first], SCHED_TOPO_CAP_TOLERANCE_PCT,
				  SCHED_TOPO_CAP_TOLERANCE_MIN, bad);
	add_assumed(assumed, assumed_len,
		    "CPU %u's capacity is %u in the model (domain %s) and %u on this machine (%u "
		    "CPU(s) differ): the model's capacities are used",
		    first, want, m->domains[m->cpu_domain[first]].name, t->capacity[first], bad);
	return 0;
}

/* Without cpufreq: every model domain inside one cluster (sched_topo.h). */
static int check_clusters(const struct em_model *m, const struct sched_topo *t, bool force,
			  char *assumed, size_t assumed_len, struct gb_err *err)
{
	char have[256];
	unsigned d, c;

	for (d = 0; d < m->nr_domains; d++) {
		const struct em_domain *pd = &m->domains[d];
		unsigned f = first_cpu(&pd->cpus);

		if (f >= EM_MAX_CPUS || !cpumask_weight(&t->cluster[f]))
			continue;
		for (c = f + 1; c < t->nr_cpus && c < EM_MAX_CPUS; c++) {
			if (!em_cpumask_test(&pd->cpus, c) || em_cpumask_test(&t->cluster[f], c))
				continue;
			cpulist_format(&t->cluster[f], have, sizeof(have));
			if (!force)
				return gb_err_set(err, EINVAL,
						  "CPU %u: the model puts it in domain %s with CPU "
						  "%u, this machine's cluster of CPU %u is %s (a "
						  "frequency domain never spans clusters; use "
						  "--force to use the model's grouping anyway)",
						  c, pd->name, f, f, have);
			add_assumed(assumed, assumed_len,
				    "CPU %u is in model domain %s with CPU %u, outside that CPU's "
				    "cluster %s: the model's grouping is used",
				    c, pd->name, f, have);
			return 0;
		}
	}
	return 0;
}

int sched_topo_check(const struct em_model *m, const struct sched_topo *t, bool force,
		     unsigned max_cpus, unsigned max_domains, char *assumed, size_t assumed_len,
		     struct gb_err *err)
{
	char want[256], have[256];
	int d, rc;

	assumed[0] = 0;
	if (m->nr_cpus > max_cpus || m->nr_domains > max_domains)
		return gb_err_set(err, EINVAL,
				  "the model has %u CPUs in %u domains; scx_gearbox is built for "
				  "at most %u CPUs and %u domains",
				  m->nr_cpus, m->nr_domains, max_cpus, max_domains);
	if (m->nr_cpus != t->nr_cpus) {
		if (!force)
			return gb_err_set(err, EINVAL,
					  "the model has %u CPUs, this machine has %u (use --force "
					  "to map the model's domains onto CPU ids anyway)",
					  m->nr_cpus, t->nr_cpus);
		snprintf(assumed, assumed_len,
			 "the model has %u CPUs, this machine %u: model CPU ids are taken as "
			 "machine CPU ids, %s",
			 m->nr_cpus, t->nr_cpus,
			 m->nr_cpus < t->nr_cpus
			     ? "CPUs beyond the model get no energy-aware placement"
			     : "model CPUs beyond the machine are never used");
		return 0;
	}
	rc = check_capacities(m, t, force, assumed, assumed_len, err);
	if (rc)
		return rc;
	if (t->capacity_default && em_domain_capacity(&m->domains[0]) < EM_CAPACITY_SCALE)
		add_assumed(assumed, assumed_len,
			    "every CPU's cpu_capacity is %d, the kernel's default when the "
			    "firmware describes no capacities: the model's capacities are used",
			    EM_CAPACITY_SCALE);
	if (!t->has_cpufreq) {
		if (t->has_capacity)
			return check_clusters(m, t, force, assumed, assumed_len, err);
		add_assumed(assumed, assumed_len,
			    "no cpufreq on this machine: the model's %u domains are mapped onto "
			    "CPU ids as they stand",
			    m->nr_domains);
		return 0;
	}
	d = first_unmatched_domain(m, t);
	if (d < 0)
		return 0;
	if ((unsigned)d < m->nr_domains)
		cpulist_format(&m->domains[d].cpus, want, sizeof(want));
	else
		snprintf(want, sizeof(want), "(%u domains)", m->nr_domains);
	have[0] = 0;
	for (unsigned p = 0; p < t->nr_policies; p++) {
		size_t n = strlen(have);

		snprintf(have + n, sizeof(have) - n, "%s[", p ? " " : "");
		n = strlen(have);
		cpulist_format(&t->policy_cpus[p], have + n, sizeof(have) - n);
		n = strlen(have);
		snprintf(have + n, sizeof(have) - n, "]");
	}
	if (!force)
		return gb_err_set(err, EINVAL,
				  "model domain %d CPUs %s match no cpufreq policy of this machine "
				  "(policies: %s; use --force to use the model's grouping anyway)",
				  d, want, have);
	add_assumed(assumed, assumed_len,
		    "the model's frequency domains differ from the cpufreq policies (%s): the "
		    "model's grouping is used",
		    have);
	return 0;
}
