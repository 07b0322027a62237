/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * gb_misfit.h - misfit: at the tick, a running task that outgrew its CPU (capacity misfit) or
 * sits on a CPU more expensive than its uclamp_max needs (power misfit) is moved
 * (gb_check_misfit, through placement's search); after a capacity-misfit move the misfit hold
 * keeps wake-up placement and pulls from putting it straight back (gb_misfit_hold).
 */
#ifndef GEARBOX_GB_MISFIT_H
#define GEARBOX_GB_MISFIT_H

#include "gb_place.h"

/*
 * gb_capacity_misfit - is t, running on a CPU of capacity cap for ran_us since it last woke,
 * a capacity misfit?  Not when its uclamp_max is at most the capacity (util_fits_cpu's
 * uclamp_max_fits: the clamp says it is meant to be throttled there), and only by its clamped
 * demand: above 31/32 of the capacity (it saturates the CPU, so util no longer measures
 * demand), or over the 80% tipping point after running 2 x push_after_us without sleeping (a
 * periodic task that fits, however tightly, sleeps every period).  Task state only, so a host
 * may test it before refreshing the CPUs; gb_check_misfit() further spares a task that only
 * repeats an activation it completed (gb_repeats_last_activation).
 */
static __always_inline bool gb_capacity_misfit(const struct gb_task *t, u32 cap, u64 ran_us,
					       u64 push_after_us)
{
	u32 work = gb_task_work(t);

	if (cap >= EM_CAPACITY_SCALE || t->uclamp_max <= cap)
		return false;
	return gb_saturates(work, cap) ||
	       (!gb_fits_capacity(work, cap) && ran_us >= 2 * push_after_us);
}

/*
 * gb_repeats_last_activation - is t, running alone on cpu (capacity cap), doing no more than in
 * its last activation, which it completed?  util_est is the utilization t had when it last
 * went to sleep: while util_avg has not climbed past it, this activation is no bigger than
 * one the CPU already served to the end, however long it runs (a 30 fps decoder runs 25 of
 * every 33 ms on a little core and meets every frame; pushing it up at 16 ms made it ping-pong
 * between little and mid at every frame).  Not a task that has been waiting for the CPU
 * (runnable_avg above util_avg by more than 1/32, or another task runnable there): its
 * utilization is held down by the sharing, not by a smaller demand.  gb_check_misfit() skips
 * the 80%-after-2 x push_after_us capacity misfit for such a task; saturation still counts.
 */
static __always_inline bool gb_repeats_last_activation(const struct gb_cpu *cpus,
						       const struct gb_task *t, u32 cpu, u32 cap)
{
	return gb_cpu_at(cpus, cpu)->nr_running <= 1 && t->util <= t->util_est &&
	       t->runnable <= t->util + (t->util >> 5) && !gb_saturates(gb_task_work(t), cap);
}

/*
 * gb_power_misfit_min_cap - the min_cap of a power-misfit search: CPUs of capacity below the
 * task's uclamp_max are excluded, since there the clamp no longer caps it and it would be a
 * capacity misfit again (a util_max 300 task pushed from a mid core to a 286 little one went
 * straight back up: ping-pong every few ms).
 */
static __always_inline u32 gb_power_misfit_min_cap(const struct gb_task *t)
{
	return t->uclamp_max ? t->uclamp_max - 1 : 0;
}

/*
 * gb_misfit_hold - the floor_cap for a task's wake-up placement after a capacity-misfit move
 * off a CPU of capacity from_cap (0: no move to honour).  Without it a long runner moved up is
 * put straight back at its next wake-up (its util decays while it sleeps, so at wake-up it
 * looks small enough for the CPU it has just left) and every period becomes two migrations.
 * The task stays off CPUs of capacity <= from_cap while its demand (gb_task_work: util_est is
 * the util of its last runs) is above 15/16 of from_cap -- the band between 15/16 and
 * gb_capacity_misfit's 31/32 saturation is the hysteresis -- or more than 1/16 above
 * from_work, its demand at the move: a task moved for running 16 ms over 80% may be under 15/16
 * already while its util, lagging a growing demand, still rises (lisa_ramp_up on msm8998: moved
 * at 393 of 490, put back on little at its next wake-up at 443, a misfit again 18 ms later).
 * Without the 1/16 a steady task was held too, and gave up savings (docs/sim.md).  Returns
 * from_cap to keep holding, 0 to release for good: the host stores from_cap and from_work per
 * task at a capacity-misfit move and passes this as gb_task.floor_cap at each wake-up.
 */
static __always_inline u32 gb_misfit_hold(const struct gb_task *t, u32 from_cap, u32 from_work)
{
	u32 work = gb_task_work(t);

	if (from_cap && ((u64)work * GB_HOLD_DEN > (u64)from_cap * GB_HOLD_NUM ||
			 (u64)work * GB_HOLD_DEN > (u64)from_work * (GB_HOLD_DEN + 1)))
		return from_cap;
	return 0;
}

/*
 * gb_check_misfit - at the tick, for task t running on cpu (t->prev_cpu == cpu) and running
 * for ran_us since it last woke up:
 *  - capacity misfit (gb_capacity_misfit, unless it saturates nothing and only repeats an
 *    activation it completed: gb_repeats_last_activation): move to the cheapest idle bigger
 *    CPU;
 *  - power misfit: uclamp_max is below the CPU's capacity and the task has run push_after_us
 *    without waking (so wake-up placement never got to move it down): move to the cheapest
 *    smaller CPU that still has a capacity of at least uclamp_max, if that costs less than
 *    staying.
 * Returns the target CPU with out filled, or GB_NO_CPU.
 */
static __always_inline s32 gb_check_misfit(const struct em_model *m, const struct gb_cpu *cpus,
					   const struct gb_task *t, u32 cpu, u64 ran_us,
					   u64 push_after_us, struct gb_scratch *s,
					   struct gb_decision *out)
{
	u32 d = m->cpu_domain[cpu & (EM_MAX_CPUS - 1)];
	u32 cap;
	s32 to;

	out->cpu = GB_NO_CPU;
	out->reason = GB_REASON_NONE;
	if (d >= m->nr_domains)
		return GB_NO_CPU;
	cap = em_domain_capacity(gb_pd(m, d));
	if (gb_capacity_misfit(t, cap, ran_us, push_after_us) &&
	    !gb_repeats_last_activation(cpus, t, cpu, cap)) {
		to = GB_HOOK_RANGE(m, cpus, t, cap, 0, s, out);
		if (to != GB_NO_CPU) {
			out->reason = GB_REASON_CAPACITY_MISFIT;
			return to;
		}
		return GB_NO_CPU;
	}
	if (t->uclamp_max < cap && ran_us >= push_after_us) {
		to = GB_HOOK_RANGE(m, cpus, t, gb_power_misfit_min_cap(t), cap, s, out);
		if (to != GB_NO_CPU && out->energy_delta < 0) {
			out->reason = GB_REASON_POWER_MISFIT;
			return to;
		}
	}
	return GB_NO_CPU;
}

#endif /* GEARBOX_GB_MISFIT_H */
