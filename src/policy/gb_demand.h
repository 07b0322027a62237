/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * gb_demand.h - the queued demand: the utilization of the tasks waiting in a domain's queue.
 *
 * The kernel's fair class attaches a waiting task's util_avg to the run queue it waits on, so a
 * CPU with tasks queued reads as loaded.  scx_gearbox's tasks wait in one queue per domain, not
 * on a CPU, and without this a task waiting there would add to no CPU's utilization: a domain
 * with a long queue would look as light as its running tasks, take more wake-ups and never be
 * over-utilized.  So each host keeps, per domain, the sum of the util_avg its waiting tasks had
 * when they joined its queue, and spreads it evenly over the domain's online CPUs
 * (gb_cpu.queued_util), the CPUs that will serve it.
 *
 * Who reads it: placement and pulls (gb_util_without), over-utilization (gb_cpu_overutilized)
 * and the frequency request (gb_cpu_freq_util), as the kernel's run queue utilization counts
 * the tasks waiting on it.
 *
 * Counted once.  A task that waits in a queue after running on a CPU (its slice ended, it was
 * preempted, or it woke where it ran) is also in that CPU's own signal (gb_cpu.util), which
 * holds its past running there.  The kernel's run queue holds a waiting task once; here it
 * would be held twice, and the CPU it left would read as loaded by its full running plus its
 * share of the queue: on gs101's ui_frames a UI thread queued behind a big CPU's running task
 * made both big CPUs read their own signal plus a share of it, big was priced above little,
 * and background threads that fit mid went to little instead (more energy than mainline).  So
 * each CPU also keeps the util of the tasks that were on it when they joined a queue
 * (gb_cpu.waiting_util), and placement, pulls and the frequency request take its signal less
 * that (gb_cpu_signal): the task counts in the queue, not in the CPU it left (over-utilization
 * reads the signal whole, gb_fit.h says why).
 *
 * How a host uses it (both do the same, docs/scheduler.md "The contract"):
 *
 *   enqueue into domain d's queue   delta = gb_demand_join(ts, d, cpu): add delta to d's sum
 *   (cpu: gb_enq_in.task_cpu)       and, when cpu is a CPU of the model, to cpu's waiting_util
 *                                   (undo first a count the task still had)
 *   the task starts running,        delta = gb_demand_leave(ts, &d, &cpu): subtract it from
 *   or leaves the scheduler         d's sum and, unless cpu is GB_DEMAND_NONE, its waiting_util
 *   d's sum or online CPUs changed  gb_demand_spread(m, cpus, d, sum) (the simulator spreads
 *                                   every domain before each decision instead: the same values)
 */
#ifndef GEARBOX_GB_DEMAND_H
#define GEARBOX_GB_DEMAND_H

#include "gb_types.h"

/* gb_tstate.queued_dom of a task counted in no domain's queued demand */
#define GB_DEMAND_NONE 0xffffffffu

/*
 * gb_demand_leave - ts's task is no longer waiting (it starts running, is queued elsewhere, or
 * leaves the scheduler): the util it added to its domain's sum and to its CPU's waiting_util,
 * to subtract (0 if it was not counted), that domain in *d and that CPU in *cpu
 * (GB_DEMAND_NONE: none).
 */
static __always_inline u32 gb_demand_leave(struct gb_tstate *ts, u32 *d, u32 *cpu)
{
	u32 u = ts->queued_util;

	*d = ts->queued_dom;
	*cpu = ts->queued_cpu;
	ts->queued_util = 0;
	ts->queued_dom = GB_DEMAND_NONE;
	ts->queued_cpu = GB_DEMAND_NONE;
	return *d == GB_DEMAND_NONE ? 0 : u;
}

/*
 * gb_demand_join - ts's task, on cpu (gb_enq_in.task_cpu; negative or beyond the model: none),
 * joins domain d's queue (d < nr_domains): the util to add to d's sum and to cpu's
 * waiting_util, its util_avg now (at least 1, so that a counted task is told from one that is
 * not).  The host subtracts first what gb_demand_leave returns, for a task still counted.
 */
static __always_inline u32 gb_demand_join(struct gb_tstate *ts, u32 d, s32 cpu)
{
	u32 u = gb_max(ts->pelt.util_avg, 1);

	ts->queued_util = u;
	ts->queued_dom = d;
	ts->queued_cpu = cpu >= 0 && cpu < EM_MAX_CPUS ? (u32)cpu : GB_DEMAND_NONE;
	return u;
}

/*
 * gb_demand_spread - domain d's queued demand (sum, util 0..1024 per task) over its online CPUs:
 * each gets sum / their number in queued_util (an offline CPU of d gets 0).
 */
static __always_inline void gb_demand_spread(const struct em_model *m, struct gb_cpu *cpus, u32 d,
					     u32 sum)
{
	u32 c, n = GB_COUNT_ZERO;

	GB_FOR_DOMAIN_CPU (c, m, d) {
		if (cpus[c & (EM_MAX_CPUS - 1)].online)
			n++;
	}
	GB_FOR_DOMAIN_CPU (c, m, d) {
		struct gb_cpu *cs = &cpus[c & (EM_MAX_CPUS - 1)];

		cs->queued_util = cs->online && n ? sum / n : 0;
	}
}

#endif /* GEARBOX_GB_DEMAND_H */
