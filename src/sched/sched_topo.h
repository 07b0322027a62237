/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * sched_topo.h - does an energy model describe this machine?
 *
 * The scheduler indexes the model by CPU id, so the model must name the machine's CPUs:
 *  - the same count;
 *  - where the kernel reports CPU capacities (cpuN/cpu_capacity: arm64 and the other arches
 *    whose topology comes from the device tree or ACPI PPTT; 1024 on every CPU is the kernel's
 *    default when the firmware describes none, as on x86, and is not checked), every CPU's
 *    capacity within SCHED_TOPO_CAP_TOLERANCE of its model domain's capacity (the performance
 *    of the domain's highest OPP, on the same 0..1024 scale);
 *  - when the machine has cpufreq, one model domain per cpufreq policy with the same CPUs (a
 *    model domain is a frequency domain: CPUs that change OPP together);
 *  - without cpufreq but with capacities, every model domain inside one cluster
 *    (cpuN/topology/cluster_cpus_list: the device tree's cpu-map clusters).  A cluster may hold
 *    several domains (DynamIQ puts all CPUs in one), a domain never spans clusters.  On x86 a
 *    "cluster" is the CPUs sharing an L2, which says nothing of frequency domains, so clusters
 *    are only read together with capacities.
 * Without cpufreq and capacities (an x86 VM) nothing tells domains apart, and the model's
 * domains are mapped onto CPU ids as they stand.  A mismatch is refused naming the CPU, the
 * model's value and the machine's; --force maps anyway and says what it assumed.  The sysfs CPU
 * directory is /sys/devices/system/cpu, or $GEARBOX_SYSFS_CPU (tests).
 */
#ifndef GEARBOX_SCHED_TOPO_H
#define GEARBOX_SCHED_TOPO_H

#include <stdbool.h>

#include "em_model.h"
#include "gb_err.h"

/*
 * How far a CPU's cpu_capacity may be from its model domain's capacity: 12% of the machine's
 * value, and never less than 16 (of 1024).  The kernel's capacity is the device tree's
 * capacity-dmips-mhz (a Dhrystone figure per core type) scaled by the CPU's highest frequency,
 * the model's is what the profiler measured with its own workload: the same CPUs, but not the
 * same benchmark, so a board's two figures agree only roughly.  A model of another SoC, or of
 * another cluster, differs by far more.
 */
#define SCHED_TOPO_CAP_TOLERANCE_PCT 12
#define SCHED_TOPO_CAP_TOLERANCE_MIN 16

struct sched_topo {
	unsigned nr_cpus; /* possible CPUs: highest id + 1 */
	struct em_cpumask online;
	bool has_cpufreq; /* at least one cpufreq policy */
	unsigned nr_policies;
	struct em_cpumask policy_cpus[EM_MAX_DOMAINS];
	bool has_capacity;		/* cpuN/cpu_capacity exists for some CPU, not all 1024 */
	bool capacity_default;		/* every CPU reports 1024: no information, not checked */
	unsigned capacity[EM_MAX_CPUS]; /* 0: not reported for this CPU */
	struct em_cpumask cluster[EM_MAX_CPUS]; /* empty: not reported for this CPU */
};

/* sched_topo_read - the machine's CPUs and cpufreq policies. */
int sched_topo_read(struct sched_topo *t, struct gb_err *err);

/*
 * sched_topo_check - 0 when model fits t.  Otherwise -EINVAL with the difference in err; with
 * force, 0 and the assumption in *assumed (empty when nothing had to be assumed).  Models
 * beyond the limits the BPF object was built for (max_cpus, max_domains) are refused even
 * with force.
 */
int sched_topo_check(const struct em_model *model, const struct sched_topo *t, bool force,
		     unsigned max_cpus, unsigned max_domains, char *assumed, size_t assumed_len,
		     struct gb_err *err);

#endif /* GEARBOX_SCHED_TOPO_H */
