/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * gb_vtime.h - scx_gearbox's virtual time: what a task is charged for running, the virtual
 * deadline that orders a domain's queue, the lag limit, and the choice at slice expiry between
 * the running task and the head of its domain's queue.
 *
 * Units.  Virtual time is in "weighted work nanoseconds": a nice 0 task (p->scx.weight 100)
 * running 1 ns on a CPU at perf 1024 (the fastest CPU at its top OPP) is charged 1; at perf 512
 * it is charged 1/2 (it did half the work: Guittot's DVFS point, a task on a slow core at a low
 * OPP is not penalised for being slow), and a task of weight w is charged 100 / w times as much
 * (as scx_simple does), so that CPU time is shared in the ratio of the weights: nice 0 against
 * nice 10 is 100 : 11, about 9 (the fair class: 1024 / 110).
 *
 *   charge   = ran_ns * perf / 1024 * 100 / weight
 *   span     = slice_ns * perf / 1024 * 100 / weight  (what a slice at the CPU's perf charges)
 *   deadline = vtime + span                            (the key of the domain's queue)
 *
 * The span is a slice's work at the perf of the CPU the task waits for or runs on, as the
 * charge is: a slice in plain ns would be the work of a slice at perf 1024, so on a slow CPU
 * every deadline would lie 1024 / perf slices of run time out, and a nice 10 task beside a
 * nice 0 hog on a CPU at perf 100 would first run after 90 of the hog's slices instead of 9.
 *
 * Each domain has its own clock (the vtime of the last task that started running there): the
 * domains' queues are served independently, so one global clock would be pushed by the
 * busiest domain and make every task of a quieter one look like a sleeper.  A task keeps its
 * lag (vtime - clock) when it changes domain.  Its credit is limited to half a slice of its own
 * deadline span (a lag below -span / 2 is raised to that) whenever it is queued or woken, and
 * when its slice runs out and it is compared with the queue: a sleeper cannot bank unbounded
 * credit by sleeping, and a task that ran while the clock was pushed ahead (a task
 * started on an idle CPU moves the clock to its own vtime, which for a low weight can be far ahead)
 * cannot hold the CPU with the credit that leaves it -- seen as a hog keeping a CPU for a minute in
 * the VM, the RCU kthread queued behind it.  Half a span: with a whole one every periodic nice 0
 * task woke with its deadline at the clock, where a nice -16 task woken a little later could
 * not preempt it once it had started (gb_preempt.h): video_call's echo canceller waited 2-4 ms
 * on sm7250ab's mid CPU behind the UI and render threads of the same vsync and was late where
 * mainline's was not.  With none, slice-aware grouping (gb_group_keep, whose window is a span
 * past a head's deadline) kept a long-slice task's CPU against short tasks that were then late
 * (sim-latency's grouping case: 51 late periods against 2).  Not when it starts running: a task
 * that waited in the queue is legitimately behind the clock (a nice 10 task by up to 10 slices,
 * its deadline is that far out), and limiting its lag then would charge it for waiting.
 *
 * Slice expiry.  The kernel asks ops.dispatch() for work *before* it re-enqueues the task whose
 * slice ran out.  Taking the head of the queue then would make two CPU hogs alternate whatever
 * their weights (the queue holds only the other one): the running task must be compared with
 * the head, and keep the CPU (a new slice) while its deadline is earlier.
 *
 * Pure functions on integers, BPF-safe; tests/sched/test_vtime.c runs them natively through
 * the kernel's slice-expiry sequence.
 */
#ifndef GEARBOX_GB_VTIME_H
#define GEARBOX_GB_VTIME_H

#include "em_types.h"

#define GB_WEIGHT_DFL 100 /* p->scx.weight of a nice 0 task (the cgroup weight scale) */
#define GB_PERF_SHIFT 10  /* perf is 0..1024 */

static __always_inline u32 gb_weight_or_dfl(u32 weight)
{
	return weight ? weight : GB_WEIGHT_DFL;
}

/* x * 100 / weight, without the division for the default weight (most tasks, every wake-up). */
static __always_inline u64 gb_per_weight(u64 x, u32 weight)
{
	weight = gb_weight_or_dfl(weight);
	return weight == GB_WEIGHT_DFL ? x : x * GB_WEIGHT_DFL / weight;
}

/* Virtual time for ran_ns of running at perf (0..1024) with the given weight. */
static __always_inline u64 gb_vtime_charge(u64 ran_ns, u32 perf, u32 weight)
{
	return gb_per_weight(ran_ns * perf >> GB_PERF_SHIFT, weight);
}

/*
 * The deadline span of a slice of slice_ns at perf (0..1024; 0, unknown, reads as 1024): the
 * virtual time a slice of running there charges (gb_vtime_charge).
 */
static __always_inline u64 gb_vtime_span(u64 slice_ns, u32 perf, u32 weight)
{
	return gb_vtime_charge(slice_ns, perf ? perf : 1u << GB_PERF_SHIFT, weight);
}

/* The queue key of a task at vtime with a slice of slice_ns at perf. */
static __always_inline u64 gb_vtime_deadline(u64 vtime, u64 slice_ns, u32 perf, u32 weight)
{
	return vtime + gb_vtime_span(slice_ns, perf, weight);
}

/*
 * The vtime of a task that was at vtime against a clock at from_now, moved to a clock at
 * to_now: its lag is kept (not below 0).  Wrap-safe: vtimes are compared by signed difference.
 */
static __always_inline u64 gb_vtime_rebase(u64 vtime, u64 from_now, u64 to_now)
{
	s64 lag = (s64)(vtime - from_now);

	if (lag < 0 && (u64)-lag > to_now)
		return 0;
	return to_now + (u64)lag;
}

/* The vtime of a task queued, woken or at slice expiry, against a clock at now: at most half a
 * deadline span (a slice of slice_ns at perf) as credit (in weighted time, as the deadline: a
 * nice 10 task that waited its turn is that far behind). */
static __always_inline u64 gb_vtime_limit_credit(u64 vtime, u64 now, u64 slice_ns, u32 perf,
						 u32 weight)
{
	u64 lag_ns = gb_vtime_span(slice_ns, perf, weight) >> 1;

	if ((s64)(vtime - now) < -(s64)lag_ns)
		return now - lag_ns;
	return vtime;
}

/*
 * gb_vtime_head_clock - the clock a queue's head was keyed against, as far as its deadline
 * tells: a task queued with the clock at c has a vtime of at least c - span / 2
 * (gb_vtime_limit_credit), so c is at most its deadline less half its span.  Slice expiry limits
 * the credit of a running task heavier than the head against the earlier of that and the clock
 * of now (gb_dispatch_plan): nice 0 tasks
 * starting on the domain's other CPUs move the clock to their own vtimes, and a heavy task
 * whose credit was limited against the moved clock lost its place to a head keyed against the
 * clock of before (video_call on gs101: the nice -16 echo canceller, its vtime held to 32 us
 * behind a clock that had moved 1.1 ms on, went behind the camera thread and waited 4 ms).  A
 * hog left far behind a clock that a low-weight task pushed ahead still yields at its next
 * expiry: limited against the head's clock, its deadline is no earlier than that of a head of
 * its weight (and a tie goes to the head).
 */
static __always_inline u64 gb_vtime_head_clock(u64 deadline, u64 now, u64 slice_ns, u32 perf,
					       u32 weight)
{
	u64 span = gb_vtime_span(slice_ns, perf, weight);
	u64 c = deadline - (span >> 1);

	return (s64)(c - now) < 0 ? c : now;
}

/* a is earlier than b (wrap-safe) */
static __always_inline bool gb_vtime_before(u64 a, u64 b)
{
	return (s64)(a - b) < 0;
}

/*
 * At slice expiry: does the running task (deadline prev_dl) keep the CPU for another slice,
 * rather than the head of the queue (deadline head_dl, if have_head)?  Only when it is
 * strictly earlier: on a tie the waiting task goes first.
 */
static __always_inline bool gb_vtime_keep_running(u64 prev_dl, bool have_head, u64 head_dl)
{
	return !have_head || gb_vtime_before(prev_dl, head_dl);
}

#endif /* GEARBOX_GB_VTIME_H */
