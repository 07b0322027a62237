/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * gb_group.h - slice-aware grouping: at a wake-up, placement keeps the tasks that asked for a
 * long slice and the others on different CPUs while a domain has room for that.
 *
 * Why.  A task's slice (sched_setattr()'s sched_runtime, 0 for the host's default) is how long
 * it runs before a task waiting in its domain's queue may take the CPU (gb_queue.h).  A task
 * that asks for a long slice wants to be preempted rarely (a UI thread drawing a frame in one
 * piece); the others want to be served soon after they wake.  Mixed on the same CPUs, both
 * lose: a short task queued behind a long-slice task waits up to that long slice when the
 * domain's other CPUs are busy too, and when the long slice runs out with short tasks waiting,
 * their earlier deadlines preempt it.  Kept apart, the short tasks are served by the CPUs that
 * run short slices and the long-slice task finds no queue behind it.
 *
 * The rule.  A task's class is long when its own slice is longer than the host's default slice,
 * short otherwise (no slice of its own included).  A busy CPU has the class of the task running
 * there (gb_cpu.slice_long); an idle CPU has none.  Tasks wait in one queue per domain, which
 * any of its CPUs serves, so what keeps the classes apart is the domain a task joins: at a
 * wake-up with grouping on (the host sets gb_task.group to the task's class), a domain whose
 * every candidate CPU (every CPU the task may use and fits, as placement prices them) is busy
 * with the other class is mixed (gb_cand.mixed of its offer).  Across domains, an offer that is
 * not mixed, from a domain under its tipping point (it has room: priced CPU by CPU, not
 * offering a CPU to spread on) and of no smaller capacity, beats a mixed one whatever their
 * prices; otherwise prices decide as without grouping, and within a domain they always do.
 * Grouping never moves a task to a smaller CPU than its price chose: it would run slower, which
 * costs it more than the queue it avoids.  Misfit searches, pulls and the fork rule do not
 * group.
 *
 * Limits.  A domain with one idle CPU, or one CPU of the task's class, is not mixed: the first
 * of its CPUs to ask for work takes the head of its queue, a long-slice task at its slice's end
 * included.  The running task's class is what the host noted when the CPU was last given a
 * task (gb_track_curr's places).
 */
#ifndef GEARBOX_GB_GROUP_H
#define GEARBOX_GB_GROUP_H

#include "gb_types.h"

/* Whether a host groups unless told otherwise (scx_gearbox --group-slices, gearbox sim
 * --group-slices), and its name in their --help; docs/scheduler.md has the measurements. */
#define GB_GROUP_DFL	  0
#define GB_GROUP_DFL_NAME "off"

/* gb_task.group: grouping off, or on with the task's class */
#define GB_GROUP_OFF   0
#define GB_GROUP_SHORT 1
#define GB_GROUP_LONG  2

/* Is a task whose own slice is slice_ns (0: none) in the long class, with the host's default
 * slice dflt_slice_ns? */
static __always_inline bool gb_slice_long(u64 slice_ns, u64 dflt_slice_ns)
{
	return slice_ns > dflt_slice_ns;
}

/*
 * gb_group_class - gb_task.group for a wake-up: GB_GROUP_OFF when grouping is off (on false),
 * else the class of a task whose own slice is slice_ns (0: none) with the host's default slice
 * dflt_slice_ns.
 */
static __always_inline u32 gb_group_class(bool on, u64 slice_ns, u64 dflt_slice_ns)
{
	if (!on)
		return GB_GROUP_OFF;
	return gb_slice_long(slice_ns, dflt_slice_ns) ? GB_GROUP_LONG : GB_GROUP_SHORT;
}

/* Is CPU cs, for the waking task t, busy with a task of the other class (0 with grouping off)?
 * A domain's offer is mixed when this holds for its every candidate (gb_consider). */
static __always_inline u8 gb_group_mixed(const struct gb_cpu *cs, const struct gb_task *t)
{
	return t->group != GB_GROUP_OFF && cs->nr_running &&
	       (cs->slice_long != 0) != (t->group == GB_GROUP_LONG);
}

/*
 * gb_group_cmp - grouping's verdict between two domains' offers, the best so far (ca on CPU a,
 * GB_NO_CPU for none) and a new one (cb on CPU b): 1 when cb wins, -1 when ca stays, 0 when
 * grouping does not decide and prices do.  a_room, b_room: the offer's domain is under its
 * tipping point.  Capacities from model m.
 */
static __always_inline int gb_group_cmp(const struct em_model *m, s32 a, struct gb_cand ca,
					bool a_room, s32 b, struct gb_cand cb, bool b_room)
{
	u32 cap_a, cap_b;

	if (a == GB_NO_CPU || b == GB_NO_CPU || ca.mixed == cb.mixed)
		return 0;
	cap_a = em_domain_capacity(gb_pd(m, m->cpu_domain[(u32)a & (EM_MAX_CPUS - 1)]));
	cap_b = em_domain_capacity(gb_pd(m, m->cpu_domain[(u32)b & (EM_MAX_CPUS - 1)]));
	if (ca.mixed)
		return b_room && cap_b >= cap_a ? 1 : 0;
	return a_room && cap_a >= cap_b ? -1 : 0;
}

#endif /* GEARBOX_GB_GROUP_H */
