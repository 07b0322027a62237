/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * sched_topo.h - does an energy model describe this machine?
 *
 * The scheduler indexes the model by CPU id, so the model must name the machine's CPUs: the
 * same count, and, when the machine has cpufreq, one model domain per cpufreq policy with the
 * same CPUs (a model domain is a frequency domain: CPUs that change OPP together).  Without
 * cpufreq (a VM) nothing tells domains apart, and the model's domains are mapped onto CPU ids as
 * they stand.  A mismatch is refused with what differs; --force maps anyway and says what it
 * assumed.  The sysfs CPU directory is /sys/devices/system/cpu, or $GEARBOX_SYSFS_CPU (tests).
 */
#ifndef GEARBOX_SCHED_TOPO_H
#define GEARBOX_SCHED_TOPO_H

#include <stdbool.h>

#include "em_model.h"
#include "gb_err.h"

struct sched_topo {
	unsigned nr_cpus;              /* possible CPUs: highest id + 1 */
	struct em_cpumask online;
	bool has_cpufreq;              /* at least one cpufreq policy */
	unsigned nr_policies;
	struct em_cpumask policy_cpus[EM_MAX_DOMAINS];
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
