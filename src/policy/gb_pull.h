/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * gb_pull.h - the idle pull: may a CPU with nothing to run take a task that waits for another
 * CPU or domain (gb_may_pull), asking the fit question placement asks?  Both hosts ask it:
 * scx_gearbox's dispatch about the head of another domain's queue (gb_may_pull_queue, through
 * gb_dispatch_plan), the simulator's fair host about a task queued on another CPU.
 */
#ifndef GEARBOX_GB_PULL_H
#define GEARBOX_GB_PULL_H

#include "gb_fit.h"

/*
 * gb_pull_fits - does t, waiting for another CPU, fit idle CPU dst as wake-up placement would
 * see it (gb_room_for, with the misfit hold in t->floor_cap as at a wake-up)?  t->prev_cpu is
 * the CPU it waits on.
 */
static __always_inline bool gb_pull_fits(const struct em_model *m, const struct gb_cpu *cpus,
					 const struct gb_task *t, u32 dst)
{
	u32 d = m->cpu_domain[dst & (EM_MAX_CPUS - 1)];

	if (dst >= m->nr_cpus || d >= m->nr_domains)
		return false;
	return gb_room_for(t, gb_util_without(gb_cpu_at(cpus, dst), dst, t), gb_task_work(t),
			   em_domain_capacity(gb_pd(m, d)));
}

/*
 * gb_may_pull - may idle CPU dst take t, which waits for a CPU of domain src_d and has waited
 * waited_us?  Within a domain, always.  From another domain: when t has waited pull_after_us,
 * wherever it goes (never stalling a task comes before saving energy: an idle CPU is capacity
 * lost); before that, only when src_d is over-utilized (src_overutilized) and t fits dst as
 * placement would see it (gb_pull_fits).  The fit keeps a pull from undoing a capacity-misfit
 * move: without it, a task moved up for saturating a little CPU was pulled back by an idle
 * little CPU as soon as a short task preempted it, and moved up again at the next tick, every
 * few milliseconds.
 */
static __always_inline bool gb_may_pull(const struct em_model *m, const struct gb_cpu *cpus,
					const struct gb_task *t, u32 dst, u32 src_d,
					bool src_overutilized, u64 waited_us, u64 pull_after_us)
{
	if (m->cpu_domain[dst & (EM_MAX_CPUS - 1)] == src_d || waited_us >= pull_after_us)
		return true;
	return src_overutilized && gb_pull_fits(m, cpus, t, dst);
}

/* Has domain d an online CPU? */
static __always_inline bool gb_domain_online(const struct em_model *m, const struct gb_cpu *cpus,
					     u32 d)
{
	u32 c;

	GB_FOR_DOMAIN_CPU (c, m, d) {
		if (gb_cpu_at(cpus, c)->online)
			return true;
	}
	return false;
}

/*
 * gb_may_pull_queue - may idle CPU dst take t, the head of domain src_d's queue, which has
 * waited there waited_us?  A domain with no online CPU is served by the others at once
 * (nobody else would run its queue: a CPU going offline may leave tasks there); otherwise
 * gb_may_pull, with src_d's over-utilization as the cluster reads it now
 * (gb_domain_overutilized).  The wait is the head task's own, from when it joined the queue:
 * the time since a CPU last took from the queue would be long for the queue of a domain that
 * was idle, so a task that a capacity-misfit move had just queued there would be taken back at
 * once by the CPU it left, fit or not.
 */
static __always_inline bool gb_may_pull_queue(const struct em_model *m, const struct gb_cpu *cpus,
					      const struct gb_task *t, u32 dst, u32 src_d,
					      u64 waited_us, u64 pull_after_us)
{
	if (!gb_domain_online(m, cpus, src_d))
		return true;
	return gb_may_pull(m, cpus, t, dst, src_d, gb_domain_overutilized(m, cpus, src_d),
			   waited_us, pull_after_us);
}

#endif /* GEARBOX_GB_PULL_H */
