/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * gb_preempt.h - wake-up preemption: a task woken into its domain's queue while no CPU is
 * woken for it takes, at once, the CPU of the domain whose running task has the latest
 * deadline, when that deadline is later than its own by more than its own span.
 *
 * Why.  Tasks wait in one queue per domain, ordered by virtual deadline (gb_queue.h), and a
 * CPU takes from it only when its running task sleeps or its slice ends.  A task that wakes
 * with an earlier deadline than the running tasks' -- a heavier one (an echo canceller at nice
 * -16 beside nice 0 work) or one with a shorter slice than theirs (a background thread beside
 * a UI thread that asked for a 10 ms slice) -- waited for a slice to end, up to 5 ms or the
 * running task's own, where the fair class's EEVDF runs it at once (check_preempt_wakeup_fair:
 * the woken task preempts when it is eligible and its deadline is the earliest).
 *
 * Who may preempt (gb_preempt_wants, the hosts' --wake-preempt).  By default (latency) only a
 * latency-critical task: one heavier than nice 0, or with a custom slice shorter than the
 * default.  Such a task is late when it waits a slice for its turn (a video call's echo
 * canceller at nice -16, 1.2 ms of work every 10 ms, waited up to 5 ms behind the mid CPUs'
 * running tasks and missed periods, where EEVDF preempts for it).  With on, every task whose
 * deadline is early enough preempts, and the frequency request counts the running task's waits too
 * (the runnable boost, gb_preempt_curr): a task of the default weight and slice preempts one with a
 * longer custom slice, and the boost keeps that long task's domain at an OPP where it still ends
 * its frame; the boost costs energy where a small boosted task waits (bench: docs/scheduler.md,
 * "Wake-up preemption"). Off, nothing preempts.
 *
 * The rule.  At a wake-up into domain d's queue (not a re-queue at slice expiry, nor a task
 * that was preempted) for which the host wakes no idle CPU -- none of d's, and none of another
 * domain that may pull it (gb_kick_cpu) -- the candidates are d's online CPUs the task may
 * use whose running task's deadline the host noted (gb_cpu.preemptible).  The victim is the
 * one whose running task's deadline is the latest, if that is later than preempt_dl: the
 * waking task's deadline plus its own span (a slice of its at the CPU's perf, its weight:
 * gb_vtime_span).  The host kicks it with SCX_KICK_PREEMPT: the running task's slice is set to
 * 0 and its CPU reschedules; ops.dispatch then compares the running task, charged for the time
 * it ran (update_curr, gb_track_ran), with the queue's head (gb_dispatch_plan) and takes the
 * head, unless another CPU took it first; the preempted task is queued again with its
 * deadline.
 *
 * The margin.  A woken task's vtime is limited to half a span of credit
 * (gb_vtime_limit_credit), so a sleeper of any weight wakes with its deadline about half a span
 * of its own past the domain's clock (the latest vtime a task started a slice at there,
 * gb_queue_start), while a running task's deadline is its own span past the vtime it started
 * at, which is at most the clock.  Compared as queued, a sleeper would preempt a task of its
 * own weight and slice that started its slice at the clock.  Its deadline plus its own span is
 * half a span more than the deadline it would have with no credit; between tasks of the same
 * weight and slice the running task's deadline is never later than that, so they never preempt
 * each other (under EEVDF equal weights rarely preempt), while a heavier task or a shorter
 * slice has a shorter span and preempts a task that started its slice less than the difference
 * of their spans, less one and a half of its own, ago (in the domain's clock): a nice -16 task
 * nearly any nice 0 task, even one that had just woken with its own credit and started, a nice
 * 0 task with a 5 ms slice one with a 10 ms slice for the first quarter of it, a nice 0 task a
 * nice 10 task for most of its slice.
 *
 * The victim.  The latest deadline is the task furthest from its turn: the one the queue's
 * order would serve last.  A CPU kicked for a waking task is not chosen again until it starts
 * a slice (gb_preempt_kicked): two tasks waking together take two CPUs, not the same one twice.
 *
 * A task allowed on one CPU that takes the local-queue shortcut (gb_enqueue_take_local) has
 * one candidate, its CPU: it preempts the task running there under the same rule
 * (gb_preempt_local), inserted with SCX_ENQ_PREEMPT.
 *
 * Limits.  Only within the task's domain: another domain's busy CPUs take from its queue only
 * by a pull.  A task pinned to the CPU queueing it kicks nobody (gb_kick_skip) unless it takes
 * the local-queue shortcut.  The running
 * task's deadline is the one noted when its slice started (its slice's span at the perf then).
 * BPF-safe: one loop over the CPUs (GB_FOR_CPU).
 */
#ifndef GEARBOX_GB_PREEMPT_H
#define GEARBOX_GB_PREEMPT_H

#include "gb_queue.h"
#include "gb_types.h"
#include "gb_vtime.h"

/* Who preempts at wake-ups unless the host is told otherwise (scx_gearbox --wake-preempt,
 * gearbox sim --wake-preempt; the modes are in gb_queue.h), and its name in their --help;
 * docs/scheduler.md says why. */
#define GB_PREEMPT_DFL	    GB_PREEMPT_LATENCY
#define GB_PREEMPT_DFL_NAME "latency"

/*
 * gb_preempt_curr - after gb_track_curr noted ts's task on CPU c: unless every task may
 * preempt (mode GB_PREEMPT_ON) its runnable_avg is not counted (curr_runnable 0), and the
 * frequency request is what it is without the runnable boost (gb_cpu_freq_util).
 */
static __always_inline void gb_preempt_curr(struct gb_cpu *c, u32 mode)
{
	if (mode != GB_PREEMPT_ON)
		c->curr_runnable = 0;
}

/*
 * gb_preempt_note - ts's task starts a slice on CPU c of domain d (d >= nr_domains: a CPU
 * outside the model) at perf (0..1024, the OPP its domain runs at now): the host calls it when
 * the task starts running (ops.running) and when dispatch gives it another slice.  Notes its
 * deadline against d's clock -- its vtime moved there as a change of domain would move it, but
 * no later than the clock, plus the span of its slice (its own or dflt_slice_ns) -- and makes
 * the CPU a candidate for wake-up preemption.
 *
 * No later than the clock: a task that dispatch keeps for another slice starts it a whole span
 * past the clock (the clock is where its run started, gb_queue_start), and a task of its own
 * weight and slice waking then would preempt it, where the margin means them not to.
 */
static __always_inline void gb_preempt_note(struct gb_cpu *c, const struct gb_tstate *ts, u32 d,
					    u32 nr_domains, const u64 *dom_vtime, u64 dflt_slice_ns,
					    u32 perf)
{
	u64 vt = gb_queue_vtime_in(ts, d, nr_domains, dom_vtime),
	    clock = dom_vtime[d & (EM_MAX_DOMAINS - 1)];

	c->preemptible = d < nr_domains;
	c->curr_deadline = gb_vtime_deadline(gb_vtime_before(clock, vt) ? clock : vt,
					     gb_queue_slice(ts, dflt_slice_ns), perf, ts->weight);
}

/* CPU c was kicked for a waking task: not a candidate again until it starts a slice. */
static __always_inline void gb_preempt_kicked(struct gb_cpu *c)
{
	c->preemptible = 0;
}

/*
 * gb_preempt_cpu - the CPU to preempt for a task woken into domain d's queue (gb_enq_out.dom,
 * with gb_enq_out.preempt set) when no CPU is woken for it: among d's online CPUs in allowed
 * (the task's affinity) that are preemptible, the one whose running task's deadline is the
 * latest, if it is later than preempt_dl (gb_enq_out.preempt_dl); the first such CPU on a tie.
 *
 * Return: the CPU, or GB_NO_CPU.
 */
static __always_inline s32 gb_preempt_cpu(const struct em_model *m, const struct gb_cpu *cpus,
					  const struct em_cpumask *allowed, u32 d, u64 preempt_dl)
{
	u64 latest = preempt_dl;
	s32 victim = GB_NO_CPU;
	u32 c;

	GB_FOR_DOMAIN_CPU (c, m, d) {
		const struct gb_cpu *cs = gb_cpu_at(cpus, c);

		if (!cs->online || !cs->preemptible || !em_cpumask_test(allowed, c))
			continue;
		if (gb_vtime_before(latest, cs->curr_deadline)) {
			latest = cs->curr_deadline;
			victim = (s32)c;
		}
	}
	return victim;
}

/*
 * gb_preempt_local - does a task woken onto CPU cpu's local queue (the shortcut of
 * gb_enqueue_take_local, with gb_enq_out.preempt set) preempt the task running there?  The
 * same rule for the one CPU that may run it: the running task's deadline is later than
 * preempt_dl (gb_enq_out.preempt_dl).  The host inserts it with SCX_ENQ_PREEMPT (the head of
 * the local queue, the running task's slice set to 0) and calls gb_preempt_kicked.
 */
static __always_inline bool gb_preempt_local(const struct gb_cpu *cpus, s32 cpu, u64 preempt_dl)
{
	const struct gb_cpu *cs = gb_cpu_at(cpus, (u32)cpu);

	return cs->preemptible && gb_vtime_before(preempt_dl, cs->curr_deadline);
}

#endif /* GEARBOX_GB_PREEMPT_H */
