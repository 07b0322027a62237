/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * gb_group.h - slice-aware grouping: at a wake-up, placement keeps the tasks that asked for a
 * long slice and the others on different CPUs while a domain has room for that; at slice
 * expiry, a long-slice task keeps its CPU for a while against short tasks that another CPU of
 * its domain serves.
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
 * offering a CPU to spread on), beats a mixed one whatever their prices: for a short-class
 * task whatever its capacity, for a long-class task only when it is no smaller.  Otherwise
 * prices decide as without grouping, and within a domain they always do.  The asymmetry: a
 * short task behind a long slice waits for that slice to end, longer than the default slice by
 * definition, and on the smaller CPU it fits (placement's fit test) it finishes sooner (on
 * sm7250ab's ui_frames, background threads of 0.5 ms of work every 4 ms joined the one big
 * CPU's queue behind the UI thread's 10 ms slice, waited until the starvation pull took them
 * to a little CPU, and missed their period); a long-slice task asked to run long pieces of work,
 * each of which a smaller CPU stretches, while behind short tasks it waits at most a default
 * slice.  Misfit searches, pulls and the fork rule do not group.
 *
 * At slice expiry (gb_group_keep).  The domain's queue is served by whichever of its CPUs asks
 * first, so placement alone leaves a long-slice task preempted at its slice's end by short
 * tasks queued behind it whenever their deadlines are earlier, though another CPU of the domain
 * runs short tasks and would take them at its own (short) slice's end.  A long-slice task is
 * nearly always behind at its slice's end: it has just run a whole long slice, and a woken short
 * task's deadline is about half a span past the domain's clock (its credit limited to half a
 * slice).  With grouping
 * on, a long-slice task whose slice ran out keeps its CPU against a short-class head of its
 * domain's queue while another online CPU of the domain runs a short-class task or is idle, and
 * its vtime is less than one default slice (the head's own span: a default slice's work at this
 * CPU's perf, nice 0) past the head's deadline: the head waits for the short CPU's slice
 * instead.  Each slice it keeps moves its vtime a whole slice on, so against the same head it
 * keeps one more slice at most.
 *
 * Limits.  A domain with one idle CPU, or one CPU of the task's class, is not mixed: the first
 * of its CPUs to ask for work takes the head of its queue.  At slice expiry only the running
 * task is preferred, not a long-slice task further down the queue.  The running task's class
 * is what the host noted when the CPU was last given a task (gb_track_curr's places), and an
 * idle CPU is as the host last saw it.
 */
#ifndef GEARBOX_GB_GROUP_H
#define GEARBOX_GB_GROUP_H

#include "gb_types.h"
#include "gb_vtime.h"

/* Whether a host groups unless told otherwise (scx_gearbox --group-slices, gearbox sim
 * --group-slices), and its name in their --help; docs/scheduler.md has the measurements. */
#define GB_GROUP_DFL	  1
#define GB_GROUP_DFL_NAME "on"

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
 * gb_group_cmp - grouping's verdict, for a waking task of class group (gb_task.group), between
 * two domains' offers, the best so far (ca on CPU a, GB_NO_CPU for none) and a new one (cb on
 * CPU b): 1 when cb wins, -1 when ca stays, 0 when grouping does not decide and prices do.
 * a_room, b_room: the offer's domain is under its tipping point.  Capacities from model m: for
 * a long-class task the offer that is not mixed wins only when it is no smaller.
 */
static __always_inline int gb_group_cmp(const struct em_model *m, u32 group, s32 a,
					struct gb_cand ca, bool a_room, s32 b, struct gb_cand cb,
					bool b_room)
{
	bool any_cap = group == GB_GROUP_SHORT;
	u32 cap_a, cap_b;

	if (a == GB_NO_CPU || b == GB_NO_CPU || ca.mixed == cb.mixed)
		return 0;
	cap_a = em_domain_capacity(gb_pd(m, m->cpu_domain[(u32)a & (EM_MAX_CPUS - 1)]));
	cap_b = em_domain_capacity(gb_pd(m, m->cpu_domain[(u32)b & (EM_MAX_CPUS - 1)]));
	if (ca.mixed)
		return b_room && (any_cap || cap_b >= cap_a) ? 1 : 0;
	return a_room && (any_cap || cap_a >= cap_b) ? -1 : 0;
}

/*
 * gb_group_served - does another online CPU of domain d than cpu serve the short class: busy
 * with a short-class task, or idle?  The host asks before gb_dispatch_plan, when grouping is on
 * (gb_disp_in.group_served): in BPF the scan then runs before dispatch's paths fork, and not at
 * all with grouping off.
 */
static __always_inline bool gb_group_served(const struct em_model *m, const struct gb_cpu *cpus,
					    s32 cpu, u32 d)
{
	u32 c;

	GB_FOR_CPU (c, m->nr_cpus) {
		const struct gb_cpu *cs = gb_cpu_at(cpus, c);

		if ((s32)c == cpu || gb_dom_of(m, c) != d || !cs->online)
			continue;
		if (!cs->nr_running || !cs->slice_long)
			return true;
	}
	return false;
}

/*
 * gb_group_keep - at slice expiry, does the task whose slice ran out keep its CPU for
 * grouping's sake against the head of its domain's queue, whose deadline head_dl is earlier
 * than its own?  Only with grouping on and another CPU of the domain serving the short class
 * (served: gb_group_served), which takes the head at its own slice's end, for a long-slice task
 * (its own slice prev_slice_ns longer than dflt_slice_ns) whose vtime prev_vtime is less than
 * window (a default slice's span at the CPU's perf) past head_dl, against a short-class head
 * (head_long 0).
 *
 * The conditions are combined without branches (x >> 63 of a difference is "x < 0"): in BPF
 * each branch is a path the verifier follows through the rest of dispatch, its pulls included.
 *
 * Return: true when the task keeps the CPU.
 */
static __always_inline bool gb_group_keep(u32 served, u64 prev_slice_ns, u64 dflt_slice_ns,
					  u32 head_long, u64 prev_vtime, u64 head_dl, u64 window)
{
	u64 want = (u64)(served & 1) & ((dflt_slice_ns - prev_slice_ns) >> 63) & ~(u64)head_long &
		   ((prev_vtime - (head_dl + window)) >> 63);

	return (want & 1) != 0;
}

#endif /* GEARBOX_GB_GROUP_H */
