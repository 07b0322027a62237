/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * gb_pull_hold.h - the pull hold: a task that a CPU of another domain pulled out of its domain's
 * queue is not sent back into that queue, behind that domain's busy CPUs, at its next wake-ups
 * for a while.
 *
 * Why.  A CPU of another domain takes a task from a domain's queue only when that domain left it
 * waiting: the domain is over-utilized, or the task waited GB_PULL_AFTER_US there (gb_may_pull).
 * Wake-up placement prices OPPs, not waits, and the domain the task was pulled out of is
 * usually the cheaper one, so the next wake-up sent the task straight back into the same queue,
 * behind the same busy CPUs, where it waited until the same pull took it again: two migrations
 * every period, with the task running where the pull put it all the same (six small periodic
 * tasks on four little CPUs at their lowest OPP: the one or two left waiting at each period
 * were pulled to an idle mid CPU after GB_PULL_AFTER_US and sent back to little at their next
 * wake-up).
 *
 * The rule asks at the wake-up the question that made the pull: can that domain run the task
 * now?  While the hold lasts, placement offers the task only the idle CPUs of the domain it was
 * pulled out of (gb_task.pull_held, read by gb_consider and gb_domain_offer, as a capacity-
 * misfit search offers idle CPUs only): an idle CPU there runs it at once, a busy one would
 * queue it where it was left waiting.  Every other domain is priced as ever, so the task goes
 * to the cheapest CPU that can run it, not necessarily where the pull put it.
 *
 * How long.  The first hold lasts GB_PULL_HOLD_MIN_US from the pull.  A task pulled out of the
 * same domain again without having run there in between (it went back when the hold ended, and
 * was left waiting again) gets twice the last hold, up to GB_PULL_HOLD_MAX_US; once it runs in
 * that domain (on an idle CPU there, or served by its queue) the next pull starts afresh.  So a
 * task its domain leaves waiting now and then is kept off that domain's busy CPUs for
 * GB_PULL_HOLD_MIN_US after each pull, and one it leaves waiting every time it comes back for
 * up to GB_PULL_HOLD_MAX_US at a time.  GB_PULL_HOLD_MIN_US spans several periods of a phone's
 * periodic tasks (4 to 33 ms), so a pull is not undone at the next wake-up; GB_PULL_HOLD_MAX_US
 * bounds how long a domain whose load went away is offered to the task by its idle CPUs only.
 *
 * A host stores one struct gb_pull_hold per task (inside struct gb_tstate; gb_track_init
 * initializes it) and calls
 *
 *   gb_pull_hold_running()  when the task starts running (ops.running), with the domain whose
 *                           queue it waited in (gb_demand_leave's): a task that waited in
 *                           another domain's queue was pulled
 *   gb_pull_hold_wake()     at a wake-up, for gb_task.pull_held
 */
#ifndef GEARBOX_GB_PULL_HOLD_H
#define GEARBOX_GB_PULL_HOLD_H

#include "gb_types.h"

#define GB_PULL_HOLD_MIN_US 100000  /* the first hold's length */
#define GB_PULL_HOLD_MAX_US 1000000 /* the longest, after pulls that keep coming back */

static __always_inline void gb_pull_hold_init(struct gb_pull_hold *h)
{
	h->from = EM_MAX_DOMAINS;
	h->until_ns = 0;
	h->span_us = 0;
	h->pad = 0;
}

/* Does a task that starts running in domain d, having waited in domain q's queue
 * (GB_DEMAND_NONE: none), start a pull hold: did a pull take it from another domain's queue? */
static __always_inline bool gb_pull_hold_starts(u32 q, u32 d)
{
	return q < EM_MAX_DOMAINS && q != d;
}

/*
 * gb_pull_hold_running - the task starts running on a CPU of domain d at now_ns, having waited
 * in domain q's queue (gb_demand_leave's domain; GB_DEMAND_NONE when it waited in none).  When
 * q is another domain (gb_pull_hold_starts), a pull took it from there, and a hold on that
 * domain starts (now_ns is read for nothing else):
 * GB_PULL_HOLD_MIN_US, or twice the last hold (at most GB_PULL_HOLD_MAX_US) when the last pull was
 * from the same domain and the task has not run there since.
 */
static __always_inline void gb_pull_hold_running(struct gb_pull_hold *h, u32 q, u32 d, u64 now_ns)
{
	if (!gb_pull_hold_starts(q, d)) {
		/* it runs in the domain it was last pulled out of: the next pull starts afresh */
		if (d == h->from)
			h->span_us = 0;
		return;
	}
	if (q == h->from && h->span_us)
		h->span_us =
		    h->span_us < GB_PULL_HOLD_MAX_US / 2 ? h->span_us * 2 : GB_PULL_HOLD_MAX_US;
	else
		h->span_us = GB_PULL_HOLD_MIN_US;
	h->from = q;
	h->until_ns = now_ns + (u64)h->span_us * 1000;
}

/*
 * gb_pull_hold_wake - the task wakes up at now_ns (it is in no queue): gb_task.pull_held, the
 * bit of the domain a pull took it out of while the hold lasts, else 0.
 */
static __always_inline u64 gb_pull_hold_wake(const struct gb_pull_hold *h, u64 now_ns)
{
	if (h->from >= EM_MAX_DOMAINS || now_ns >= h->until_ns)
		return 0;
	return 1ull << (h->from & (EM_MAX_DOMAINS - 1));
}

#endif /* GEARBOX_GB_PULL_HOLD_H */
