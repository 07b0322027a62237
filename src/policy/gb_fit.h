/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * gb_fit.h - fit and capacity: does a task's demand fit a CPU, is a CPU or a domain over its
 * tipping point, what a CPU's utilization is with or without the task.  The questions
 * placement (gb_place.h), the tick's misfit check (gb_misfit.h) and the idle pull (gb_pull.h)
 * all ask, written once so that they ask them the same way.
 */
#ifndef GEARBOX_GB_FIT_H
#define GEARBOX_GB_FIT_H

#include "gb_types.h"

/* fits_capacity(): the kernel's 80% tipping point. */
static __always_inline bool gb_fits_capacity(u32 util, u32 cap)
{
	return (u64)util * 1280 < (u64)cap * 1024;
}

static __always_inline u32 gb_task_work(const struct gb_task *t)
{
	u32 u = gb_max(t->util, t->util_est);

	return gb_min(u, t->uclamp_max);
}

/* A clamped demand that saturates a CPU of capacity cap (31/32): util no longer measures it,
 * so it is a capacity misfit there (gb_capacity_misfit) and wake-up placement must not put it
 * there either, or the tick moves it straight back. */
static __always_inline bool gb_saturates(u32 work, u32 cap)
{
	return (u64)work * GB_MISFIT_SAT_DEN > (u64)cap * GB_MISFIT_SAT_NUM;
}

/* t's work does not fit a CPU of capacity cap beside other load: over the capacity, or, not
 * capped below it, saturating it (the tick would call that a capacity misfit). */
static __always_inline bool gb_no_room(const struct gb_task *t, u32 other, u32 cap)
{
	u32 work = gb_task_work(t);

	return other + work > cap || (t->uclamp_max > cap && gb_saturates(work, cap));
}

/*
 * A CPU whose uclamp_max holds its OPP (index idx) below what its other load plus the task's
 * work demand has no room for the task, however small its utilization looks: utilization is
 * measured at that OPP, so a CPU busy all the time there shows about the OPP's perf and no more
 * (OSPM 2024: capped busy time makes more tasks look free).  Only a clamp can hold the OPP there,
 * so callers ask only under a uclamp_max below the capacity (unclamped, the OPP serves 1.25 x
 * the CPU's util, which on an idle CPU may be less than other + work: gb_util_with).  The
 * task's previous CPU is full above 31/32 of that perf, any other above 15/16: without the gap,
 * a task joining a CPU at the limit pushed the one already there out at its next wake-up, round
 * after round.  A task that saturates the clamped OPP on its own is not kept out: being
 * throttled is what its uclamp_max asks for.
 */
static __always_inline bool gb_full_at_clamp(const struct em_domain *pd, u32 idx, u32 other,
					     u32 work, bool prev)
{
	u32 perf = pd->opps[idx & (EM_MAX_OPPS - 1)].perf;
	u64 demand = (u64)other + work;

	if (perf >= em_domain_capacity(pd) || gb_saturates(work, perf))
		return false;
	if (prev)
		return gb_saturates((u32)demand, perf);
	return demand * GB_HOLD_DEN > (u64)perf * GB_HOLD_NUM;
}

/*
 * gb_room_for - the capacity question placement asks of every candidate CPU (gb_price's ok, less
 * the clamped-OPP test, which needs the domain's OPP with the task): t's work (gb_task_work,
 * passed in) fits a CPU of capacity cap beside other, its uclamp_min (within its uclamp_max)
 * fits, the CPU is above the misfit hold (t->floor_cap), and t would not saturate it unless its
 * uclamp_max caps it there.  The biggest CPUs always have room.  An idle pull asks the same
 * (gb_pull_fits), so that a pull never puts a task where the tick calls it a capacity misfit
 * or the hold keeps it away.  Inline, with work passed in: in BPF this is verified once per
 * CPU subprogram, and a call that recomputed the work doubled scx_gearbox's load time.
 */
static __always_inline bool gb_room_for(const struct gb_task *t, u32 other, u32 work, u32 cap)
{
	return cap >= EM_CAPACITY_SCALE ||
	       (other + work <= cap && gb_min(t->uclamp_min, t->uclamp_max) <= cap &&
		cap > t->floor_cap && (t->uclamp_max <= cap || !gb_saturates(work, cap)));
}

/* The rq clamps a CPU applies to its frequency (no clamp from an idle CPU's uclamp_min). */
static __always_inline u32 gb_rq_umin(const struct gb_cpu *c)
{
	return c->nr_running ? c->uclamp_min : 0;
}

static __always_inline u32 gb_rq_umax(const struct gb_cpu *c)
{
	return c->uclamp_max ? c->uclamp_max : GB_UCLAMP_NONE_MAX;
}

/*
 * A CPU's own signal as placement, pulls and the frequency request take it: util less the util of
 * the tasks that were on it when they joined a domain's queue (waiting_util), which the queued
 * demand counts instead (gb_demand.h, "Counted once").  The two are different averages (the CPU's
 * decays while the task waits): never below 0.
 */
static __always_inline u32 gb_cpu_signal(const struct gb_cpu *c)
{
	return c->util > c->waiting_util ? c->util - c->waiting_util : 0;
}

/*
 * cpu_overutilized(): util (with the running task's, curr_util, and its share of the tasks
 * waiting in its domain's queue, queued_util) over the tipping point, unless a uclamp_max below
 * the CPU's capacity says the tasks are meant to be throttled (util_fits_cpu's uclamp_max_fits).
 * The signal whole, a task that waits after running here counted in it as well as in the queue
 * (not gb_cpu_signal): a CPU whose task waits is one that could not serve it, and being
 * over-utilized is what lets another domain's idle CPU take it (gb_kick_cpu, gb_may_pull).
 * Counted once here too, two ramping tasks sharing sm7250ab's one mid CPU (lisa_wake_migration)
 * read as over-utilized about 20 ms later, and were late 28 times per run against 10 (mainline
 * 16).
 */
static __always_inline bool gb_cpu_overutilized(const struct gb_cpu *c, u32 cap)
{
	u32 umax = gb_rq_umax(c);

	if (gb_fits_capacity(gb_max(c->util, c->curr_util) + c->queued_util, cap))
		return false;
	return !(umax < EM_CAPACITY_SCALE && umax <= cap);
}

/*
 * A CPU's utilization as placement and pulls read it: its own signal, at least the util_avg of
 * the task running there (curr_util: the kernel attaches a task's utilization to the run queue
 * it joins, so a CPU that has just started a task is not read as its idle history), plus its
 * share of the tasks waiting in its domain's queue (queued_util, gb_demand.h: the kernel counts
 * a waiting task on its run queue), without the task's blocked contribution when the task last
 * ran there.
 */
static __always_inline u32 gb_util_without(const struct gb_cpu *c, u32 cpu, const struct gb_task *t)
{
	u32 u = gb_max(gb_cpu_signal(c), c->curr_util) + c->queued_util;

	if ((s32)cpu != t->prev_cpu)
		return u;
	return u > t->util ? u - t->util : 0;
}

/*
 * The utilization a CPU shows with t woken there, other being its util without t: the kernel's
 * cpu_util(cpu, p, dst) is max(util_avg sum + p's util_avg, util_est of the enqueued tasks +
 * p's util_est).  On an idle CPU nothing is enqueued, so other (the blocked util of sleeping
 * tasks) is not added to t's util_est; on a busy one other stands in for the enqueued util_est.
 */
static __always_inline u32 gb_util_with(u32 other, u32 nr_running, const struct gb_task *t)
{
	if (nr_running)
		return other + gb_max(t->util, t->util_est);
	return gb_max(other + t->util, t->util_est);
}

/* gb_domain_overutilized - any online CPU of domain d over its tipping point. */
static __always_inline bool gb_domain_overutilized(const struct em_model *m,
						   const struct gb_cpu *cpus, u32 d)
{
	u32 cap = em_domain_capacity(gb_pd(m, d));
	u32 c;

	GB_FOR_DOMAIN_CPU (c, m, d) {
		const struct gb_cpu *cs = gb_cpu_at(cpus, c);

		if (!cs->online)
			continue;
		if (gb_cpu_overutilized(cs, cap))
			return true;
	}
	return false;
}

#endif /* GEARBOX_GB_FIT_H */
