/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * gb_hold.h - the misfit hold as a type: what the core keeps per task about its last misfit
 * move, with the functions that update and read it.  No host keeps hold bookkeeping of its own:
 * a host stores one struct gb_hold per task (inside struct gb_tstate) and calls
 *
 *   gb_hold_init()     when the task is created
 *   gb_hold_moved()    when the tick's misfit check (gb_check_misfit) names a target: the move
 *                      is pending until the task is queued again, and a capacity-misfit move
 *                      records the capacity it leaves and its demand then
 *   gb_hold_wake()     at a wake-up: drops a pending move, and returns the floor for placement
 *                      (gb_task.floor_cap), releasing the hold for good once the demand fell
 *   gb_hold_floor()    the same floor without releasing (a pull asks about a queued task)
 *   gb_hold_target()   at enqueue: the pending target, if the task may still go there
 *   gb_hold_drop()     the pending move is done or void (queued, affinity changed)
 *
 * gb_misfit_hold() (gb_misfit.h) is the rule; this is its state.
 */
#ifndef GEARBOX_GB_HOLD_H
#define GEARBOX_GB_HOLD_H

#include "gb_misfit.h"

static __always_inline void gb_hold_init(struct gb_hold *h)
{
	h->to = GB_NO_CPU;
	h->cap = 0;
	h->work = 0;
	h->pad = 0;
}

/*
 * gb_hold_moved - the tick moves task t (as filled for gb_check_misfit) off a CPU of capacity
 * from_cap to CPU to for reason (enum gb_reason).  A capacity misfit starts the hold.
 */
static __always_inline void gb_hold_moved(struct gb_hold *h, const struct gb_task *t, s32 to,
					  u32 reason, u32 from_cap)
{
	h->to = to;
	if (reason == GB_REASON_CAPACITY_MISFIT) {
		h->cap = from_cap;
		h->work = gb_task_work(t);
	}
}

/* Is a misfit move pending (decided at a tick, not yet applied at an enqueue)? */
static __always_inline bool gb_hold_pending(const struct gb_hold *h)
{
	return h->to >= 0;
}

static __always_inline void gb_hold_drop(struct gb_hold *h)
{
	h->to = GB_NO_CPU;
}

/* The floor_cap for t (filled with floor_cap 0) as the hold stands, without changing it. */
static __always_inline u32 gb_hold_floor(const struct gb_hold *h, const struct gb_task *t)
{
	return gb_misfit_hold(t, h->cap, h->work);
}

/*
 * gb_hold_wake - t wakes up: a pending move is void (placement decides afresh), and the floor
 * for its placement is returned; a hold whose demand fell below its band is released for good.
 */
static __always_inline u32 gb_hold_wake(struct gb_hold *h, const struct gb_task *t)
{
	u32 floor = gb_hold_floor(h, t);

	h->to = GB_NO_CPU;
	if (!floor)
		h->cap = 0;
	return floor;
}

/*
 * gb_hold_target - the CPU a pending misfit move sends the task to at its enqueue, or
 * GB_NO_CPU: none pending, the task may no longer run there (allowed), or the host cannot wake
 * that CPU from here (may_kick false: nobody would kick the target).
 */
static __always_inline s32 gb_hold_target(const struct gb_hold *h, const struct em_cpumask *allowed,
					  bool may_kick)
{
	if (h->to < 0 || !may_kick || !em_cpumask_test(allowed, (u32)h->to))
		return GB_NO_CPU;
	return h->to;
}

#endif /* GEARBOX_GB_HOLD_H */
