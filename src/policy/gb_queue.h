/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * gb_queue.h - queueing: where a task that is not placed straight on an idle CPU waits, with
 * which slice and deadline (gb_enqueue_plan), and what a CPU asking for work runs
 * (gb_dispatch_plan): the task whose slice ran out, the head of its own domain's queue, or the
 * head of another domain's queue (a pull, asked with gb_may_pull_queue: the fit question
 * placement asks, so that a pull never undoes a capacity-misfit move).  Virtual time and
 * deadlines are gb_vtime.h's; the per-task state is struct gb_tstate (gb_types.h).
 *
 * How a host runs the scheduler (the sched_ext call order; bpf/gearbox.bpf.c is one host).
 * The host keeps per task a struct gb_tstate, per CPU a struct gb_cpu and a struct gb_pelt, per
 * domain a virtual clock (u64 dom_vtime[], the latest vtime a task started running at there)
 * and one queue per domain ordered by deadline.  It fills ts->weight, ts->slice_ns and the clamps
 * from the task before the calls below, and the gb_cpu table as gb_types.h says (gb_track_idle,
 * gb_track_curr, gb_track_idle_decay for idle CPUs).
 *
 *   new task         gb_track_init, then gb_track_enable when it enters on a CPU
 *   wake-up          gb_track_wake; gb_track_task + gb_hold_wake (floor_cap) +
 *                    gb_pull_hold_wake (pull_held), then placement
 *                    (gb_select_cpu; gb_prev_is_cheapest may skip its search); an idle chosen
 *                    CPU runs it at once (slice gb_queue_slice), gb_track_curr
 *   enqueue          gb_enqueue_plan (in.last for the kernel's SCX_ENQ_LAST: the host runs
 *                    with SCX_OPS_ENQ_LAST); if out.local_if_empty and the domain's queue is
 *                    empty, gb_enqueue_take_local; insert where out.queue says (out.deadline,
 *                    out.slice_ns) and wake gb_kick_cpu's CPU if it is idle (a domain queue;
 *                    a local queue needs no kick), else, with out.preempt, preempt
 *                    gb_preempt_cpu's CPU (gb_preempt_kicked, SCX_KICK_PREEMPT: gb_preempt.h)
 *   dispatch         gb_dispatch_prev_ok (then gb_track_ran for the previous task if it holds),
 *                    fill the queue heads (a head's wait: gb_queue_waited_us),
 *                    gb_dispatch_plan; apply: KEEP_PREV is gb_queue_start, a new slice and
 *                    gb_preempt_note; CONSUME takes the head of the first queue of try_mask
 *                    that has one, else the fallback
 *   running          gb_track_curr, gb_pull_hold_running, gb_preempt_note, the frequency request
 *                    (gb_domain_perf_target)
 *   stopping         gb_track_ran, then gb_queue_start (the domain's clock reaches the vtime
 *                    the run started at), gb_track_stop, gb_track_sleep if it is no longer
 *                    runnable
 *   tick             gb_track_ran, gb_track_curr, the frequency request (gb_domain_perf_target);
 *                    unless gb_hold_pending: gb_check_misfit, and on a target gb_hold_moved
 *                    and the slice cut to 0 (it is queued again: enqueue applies the move)
 *   affinity change  gb_hold_drop
 *
 * BPF-safe: loops over the model (GB_FOR_CPU, GB_FOR_DOMAIN), no libc.
 */
#ifndef GEARBOX_GB_QUEUE_H
#define GEARBOX_GB_QUEUE_H

#include "gb_group.h"
#include "gb_hold.h"
#include "gb_pull.h"
#include "gb_pull_hold.h"
#include "gb_vtime.h"

/* The task's slice: its own (a sched_setattr() runtime) when it set one, else dflt_slice_ns. */
static __always_inline u64 gb_queue_slice(const struct gb_tstate *ts, u64 dflt_slice_ns)
{
	return ts->slice_ns ? ts->slice_ns : dflt_slice_ns;
}

/* ts's vtime against domain d's clock (d < nr_domains), keeping its lag: d's clock itself for
 * a task that was never in a domain. */
static __always_inline u64 gb_queue_vtime_in(const struct gb_tstate *ts, u32 d, u32 nr_domains,
					     const u64 *dom_vtime)
{
	if (ts->vdom == d)
		return ts->vtime;
	if (ts->vdom < nr_domains)
		return gb_vtime_rebase(ts->vtime, dom_vtime[ts->vdom & (EM_MAX_DOMAINS - 1)],
				       dom_vtime[d & (EM_MAX_DOMAINS - 1)]);
	return dom_vtime[d & (EM_MAX_DOMAINS - 1)];
}

/* Count ts's vtime against domain d's clock from now on (d < nr_domains), keeping its lag. */
static __always_inline void gb_queue_move(struct gb_tstate *ts, u32 d, u32 nr_domains,
					  const u64 *dom_vtime)
{
	if (ts->vdom == d)
		return;
	ts->vtime = gb_queue_vtime_in(ts, d, nr_domains, dom_vtime);
	ts->vdom = d;
}

/*
 * gb_queue_start - ts's task ran in domain d, in a run that ends now (stopping, after its last
 * charge) or goes on for another slice (dispatch keeps it): the domain's clock is the latest
 * vtime a run started at there, vtime less what the run was charged (run_vtime), and the next
 * run counts from here.  Not the vtime it ends at: that is a whole slice past the start, more
 * for a low weight, and a clock pushed that far would take from every task queued behind it
 * the credit the limit leaves it (gb_vtime_limit_credit).
 */
static __always_inline void gb_queue_start(struct gb_tstate *ts, u32 d, u32 nr_domains,
					   u64 *dom_vtime)
{
	u64 *now = &dom_vtime[d & (EM_MAX_DOMAINS - 1)];
	u64 start;

	gb_queue_move(ts, d, nr_domains, dom_vtime);
	start = ts->vtime - ts->run_vtime;
	ts->run_vtime = 0;
	if (gb_vtime_before(*now, start))
		*now = start;
}

/*
 * gb_enqueue_cpu - the CPU whose queue a task on cpu joins: cpu when it is online and the task
 * may run there, else the first online CPU it may run on (cpu if none).  A task whose CPU went
 * offline (the kernel moves tasks off a dying CPU without select_cpu) must not wait in the
 * queue of a domain with no online CPU: nobody would be woken for it.
 */
static __always_inline s32 gb_enqueue_cpu(const struct em_model *m, const struct gb_cpu *cpus,
					  const struct em_cpumask *allowed, s32 cpu)
{
	u32 c;

	if (cpu >= 0 && (u32)cpu < m->nr_cpus && gb_cpu_at(cpus, (u32)cpu)->online &&
	    em_cpumask_test(allowed, (u32)cpu))
		return cpu;
	GB_FOR_CPU (c, m->nr_cpus) {
		if (gb_cpu_at(cpus, c)->online && em_cpumask_test(allowed, c))
			return (s32)c;
	}
	return cpu;
}

/*
 * Wake-up preemption's modes (the hosts' --wake-preempt; gb_preempt.h says what preempting
 * means): off; latency, for latency-critical tasks only -- heavier than nice 0, or with a custom
 * slice shorter than the default (sched_setattr's sched_runtime) -- the default; on, for every
 * task, with the runnable boost of the frequency request (gb_preempt_curr).
 */
#define GB_PREEMPT_OFF	   0
#define GB_PREEMPT_LATENCY 1
#define GB_PREEMPT_ON	   2

/* Does mode let ts's task preempt at a wake-up? */
static __always_inline bool gb_preempt_wants(const struct gb_tstate *ts, u64 dflt_slice_ns,
					     u32 mode)
{
	if (mode == GB_PREEMPT_ON)
		return true;
	return mode == GB_PREEMPT_LATENCY &&
	       (ts->weight > GB_WEIGHT_DFL || (ts->slice_ns && ts->slice_ns < dflt_slice_ns));
}

/*
 * gb_enqueue_plan - where ts's task (NULL: one the host keeps no state for) waits, as the host
 * described it in *in: the CPU of a pending misfit move (gb_hold_target), else the CPU it is on,
 * moved to an online allowed CPU (gb_enqueue_cpu); that CPU's domain's queue, with the task's
 * slice (gb_queue_slice) and its virtual deadline, after its vtime is moved to that domain's
 * clock and its credit limited to half a slice (dflt_slice_ns at that CPU's perf, gb_vtime.h);
 * the time it joins (ts->queued_ns) starts its wait.  No domain (a CPU outside the model, or
 * no state): the host's global queue with dflt_slice_ns.  The pending move is consumed.
 *
 * The last task (in->last): it gave way at slice expiry and its CPU has nothing else to run.
 * That happens only when dispatch refused it another slice there, which, but for a CPU going
 * offline or outside the model, is a pending misfit move: it joins the target's queue and the
 * target is woken, while its CPU goes idle.  With no move to apply (none pending, or one it can
 * no longer make) it stays on its CPU's local queue, which runs it on (the kernel's own choice
 * without SCX_OPS_ENQ_LAST): any queue would leave it waiting for a CPU that was just idle.
 *
 * The local-queue shortcut (out->local_if_empty): a woken task allowed on its CPU only may skip
 * the domain's queue for that CPU's local one.  Only the domain's CPUs take from its queue and
 * only that CPU may run the task, so the queue would hand it there anyway, at the price of a
 * dispatch (a pipe between two tasks pinned to one CPU paid one per switch).  But the local
 * queue runs before the domain's queue and without the deadline comparison at slice expiry, so
 * only where that changes little: nothing waits in the domain's queue (the host checks, then
 * calls gb_enqueue_take_local), and the deadline is at most one slice past that of a nice 0
 * task starting now (the domain's clock is the latest vtime a task started at there), so the
 * task has the CPU at the running task's slice expiry, or one slice later, as the queue would
 * give it.  A task that ran beyond its weight's share, and every re-enqueue at slice expiry,
 * take the queue.
 */
static __always_inline void gb_enqueue_plan(const struct em_model *m, const struct gb_cpu *cpus,
					    u64 *dom_vtime, u64 dflt_slice_ns, struct gb_tstate *ts,
					    const struct gb_enq_in *in, struct gb_enq_out *out)
{
	s32 cpu = in->task_cpu, to = GB_NO_CPU;
	u32 d, perf;

	if (ts) {
		to = gb_hold_target(&ts->hold, &in->allowed, in->may_kick);
		if (to >= 0)
			cpu = to;
	}
	if (!in->last || to >= 0)
		cpu = gb_enqueue_cpu(m, cpus, &in->allowed, cpu);
	d = cpu >= 0 && (u32)cpu < m->nr_cpus ? m->cpu_domain[(u32)cpu & (EM_MAX_CPUS - 1)] : 0xff;
	out->cpu = cpu;
	out->dom = d;
	out->local_if_empty = 0;
	out->slice_ns = dflt_slice_ns;
	out->deadline = 0;
	out->preempt = 0;
	out->preempt_dl = 0;
	if (in->last && to < 0) {
		out->queue = GB_QUEUE_LOCAL;
		if (ts) {
			gb_hold_drop(&ts->hold);
			out->slice_ns = gb_queue_slice(ts, dflt_slice_ns);
		}
		return;
	}
	if (!ts || d >= m->nr_domains) {
		out->queue = GB_QUEUE_GLOBAL;
		return;
	}
	out->queue = GB_QUEUE_DOMAIN;
	gb_hold_drop(&ts->hold);
	out->slice_ns = gb_queue_slice(ts, dflt_slice_ns);
	perf = gb_cpu_at(cpus, (u32)cpu)->perf_cur;
	gb_queue_move(ts, d, m->nr_domains, dom_vtime);
	ts->vtime = gb_vtime_limit_credit(ts->vtime, dom_vtime[d & (EM_MAX_DOMAINS - 1)],
					  dflt_slice_ns, perf, ts->weight);
	ts->queued_ns = in->now_ns;
	out->deadline = gb_vtime_deadline(ts->vtime, out->slice_ns, perf, ts->weight);
	/* wake-up preemption's margin: the deadline plus its span (gb_preempt.h) */
	out->preempt = in->wakeup && gb_preempt_wants(ts, dflt_slice_ns, in->preempt);
	out->preempt_dl = out->deadline + (out->deadline - ts->vtime);
	out->local_if_empty =
	    in->wakeup && in->pinned && cpu == in->task_cpu && gb_cpu_at(cpus, (u32)cpu)->online &&
	    em_cpumask_test(&in->allowed, (u32)cpu) &&
	    !gb_vtime_before(dom_vtime[d & (EM_MAX_DOMAINS - 1)] +
				 2 * gb_vtime_span(dflt_slice_ns, perf, GB_WEIGHT_DFL),
			     out->deadline);
}

/* How long (us) ts's task has waited in its domain's queue as of now_ns: a pull's wait. */
static __always_inline u64 gb_queue_waited_us(const struct gb_tstate *ts, u64 now_ns)
{
	return (now_ns - ts->queued_ns) / 1000;
}

/* The host found out->dom's queue empty (dom_empty): take the local-queue shortcut if it holds. */
static __always_inline bool gb_enqueue_take_local(struct gb_enq_out *out, bool dom_empty)
{
	if (out->queue != GB_QUEUE_DOMAIN || !out->local_if_empty || !dom_empty)
		return false;
	out->queue = GB_QUEUE_LOCAL;
	return true;
}

/*
 * gb_kick_skip - no CPU needs waking for a task pinned to self, the CPU queueing it: the wake-up
 * reschedules self if it is idle (the kernel's wakeup_preempt), else self dispatches before it
 * runs anything else.  A host tests this before it reads the idle CPUs.
 */
static __always_inline bool gb_kick_skip(bool pinned, s32 cpu, s32 self)
{
	return pinned && cpu == self;
}

/*
 * gb_kick_target - the CPU to wake for a task queued on domain d for cpu (gb_enq_out.cpu and
 * .dom), as the host's idle CPUs (idle) and the task's affinity (allowed) stand, or GB_NO_CPU:
 * cpu when it is idle, else the first other idle CPU of d the task may use (only d's CPUs take
 * from d's queue, and an idle CPU takes nothing until woken: waking cpu alone left the task
 * waiting while cpu ran something else, with the domain's other CPUs idle).  Nobody is woken
 * when that CPU is self, the CPU queueing the task (busy, or about to dispatch: a wake-up
 * there costs a self-IPI for nothing), or for gb_kick_skip.  A busy cpu with no idle CPU
 * beside it is returned: the host's wake of an idle CPU does nothing to it.
 */
static __always_inline s32 gb_kick_target(const struct em_model *m, const struct em_cpumask *idle,
					  const struct em_cpumask *allowed, bool pinned, s32 cpu,
					  u32 d, s32 self)
{
	u32 c;

	if (gb_kick_skip(pinned, cpu, self))
		return GB_NO_CPU;
	if (cpu >= 0 && em_cpumask_test(idle, (u32)cpu))
		return cpu;
	GB_FOR_DOMAIN_CPU (c, m, d) {
		if ((s32)c != cpu && em_cpumask_test(idle, c) && em_cpumask_test(allowed, c)) {
			cpu = (s32)c;
			break;
		}
	}
	return cpu == self ? GB_NO_CPU : cpu;
}

/* The first CPU of domain d that is idle and that t may use, or GB_NO_CPU. */
static __always_inline s32 gb_domain_idle_cpu(const struct em_model *m,
					      const struct em_cpumask *idle,
					      const struct em_cpumask *allowed, u32 d)
{
	u32 c;

	GB_FOR_DOMAIN_CPU (c, m, d) {
		if (em_cpumask_test(idle, c) && em_cpumask_test(allowed, c))
			return (s32)c;
	}
	return GB_NO_CPU;
}

/*
 * gb_kick_cpu - the CPU to wake for t, queued on domain d for cpu (gb_enq_out.cpu and .dom),
 * or GB_NO_CPU.  t is the task as a pull reads it (gb_track_task on the CPU it is on, floor_cap
 * from gb_hold_floor), its allowed the task's affinity; idle the host's idle CPUs, self the CPU
 * queueing it, pinned as gb_enq_in.pinned.
 *
 * An idle CPU of d first (gb_kick_target).  With none, an idle CPU of another domain that may
 * pull t at once, as its dispatch will ask (gb_may_pull with no wait: d is over-utilized and t
 * fits there as placement would see it): an idle CPU runs dispatch only when woken, so without
 * this a queue of an over-utilized domain was served by its own busy CPUs alone while another
 * domain idled (game_build on gs101: little 99% busy, big 18%).  Domains in order, each
 * offering its first idle CPU t may use.  Else what gb_kick_target named (a busy CPU, which the
 * host's wake of an idle CPU leaves alone).
 */
static __always_inline s32 gb_kick_cpu(const struct em_model *m, const struct gb_cpu *cpus,
				       const struct em_cpumask *idle, const struct gb_task *t,
				       bool pinned, s32 cpu, u32 d, s32 self, u64 pull_after_us)
{
	s32 to = gb_kick_target(m, idle, &t->allowed, pinned, cpu, d, self), c;
	bool ou;
	u32 o;

	if ((to >= 0 && em_cpumask_test(idle, (u32)to)) || gb_kick_skip(pinned, cpu, self))
		return to;
	ou = gb_domain_overutilized(m, cpus, d);
	if (!ou && pull_after_us)
		return to;
	GB_FOR_DOMAIN (o, m->nr_domains) {
		if (o == d)
			continue;
		c = gb_domain_idle_cpu(m, idle, &t->allowed, o);
		if (c >= 0 && c != self && gb_may_pull(m, cpus, t, (u32)c, d, ou, 0, pull_after_us))
			return c;
	}
	return to;
}

/*
 * gb_dispatch_prev_ok - may the task that ran on cpu (state ts, NULL if none or unknown), whose
 * slice ran out, run another slice there?  prev_runnable: it is still runnable and allowed on
 * cpu.  Not on its way to a misfit target, not outside the model, and never on a CPU going
 * offline: a task whose slice is refilled there never leaves it, and the hotplug waits for the
 * CPU to empty for ever.  A host accounts its run time (gb_track_ran) before gb_dispatch_plan
 * when this holds.
 */
static __always_inline bool gb_dispatch_prev_ok(const struct em_model *m, const struct gb_cpu *cpus,
						s32 cpu, const struct gb_tstate *ts,
						bool prev_runnable)
{
	if (!ts || !prev_runnable || cpu < 0 || (u32)cpu >= m->nr_cpus)
		return false;
	if (m->cpu_domain[(u32)cpu & (EM_MAX_CPUS - 1)] >= m->nr_domains)
		return false;
	return gb_cpu_at(cpus, (u32)cpu)->online && !gb_hold_pending(&ts->hold);
}

/*
 * gb_pull_mask - the other domains whose queue head CPU in->cpu (of domain self) may take, a
 * bit per domain: those with a head that gb_may_pull_queue allows.  One step of its own
 * (GB_HOOK_PULL_MASK): in BPF a global subprogram, so that the verifier checks the questions
 * once, and not once for every combination of their answers through the rest of dispatch.
 */
static __always_inline u64 gb_pull_mask(const struct em_model *m, const struct gb_cpu *cpus,
					const struct gb_disp_in *in, u32 self, u64 pull_after_us)
{
	u64 mask = 0;
	u32 d;

	GB_FOR_DOMAIN (d, m->nr_domains) {
		const struct gb_dsq_head *h;

		h = &in->heads[d & (EM_MAX_DOMAINS - 1)];
		if (d == self || !h->queued)
			continue;
		if (gb_may_pull_queue(m, cpus, &h->t, (u32)in->cpu, d, h->waited_us, pull_after_us))
			mask |= 1ull << d;
	}
	return mask;
}

/*
 * gb_dispatch_plan - what CPU in->cpu runs next.  prev is the state of the task whose slice ran
 * out there (NULL if none; read only when gb_dispatch_prev_ok holds).
 *
 * At slice expiry the kernel asks before it re-enqueues the running task, so that task is
 * compared with the head of its domain's queue and keeps the CPU for another slice while its
 * deadline is earlier (else two hogs would just alternate, whatever their weights), or while
 * slice-aware grouping keeps it there (gb_group_keep, with in->group_served); before the comparison
 * its credit is limited as at enqueue.  Otherwise the CPU takes the head of its own
 * domain's queue, else pulls the head of another domain's queue that gb_may_pull_queue allows
 * (the fit question of placement, or a head that has waited pull_after_us, or a domain with no
 * online CPU); with nothing to take, the previous task goes on with a new slice.
 */
static __always_inline void gb_dispatch_plan(const struct em_model *m, const struct gb_cpu *cpus,
					     u64 *dom_vtime, u64 dflt_slice_ns, u64 pull_after_us,
					     const struct gb_disp_in *in, struct gb_tstate *prev,
					     struct gb_disp_out *out)
{
	u32 self = 0xff, nr = m->nr_domains;
	bool prev_ok = gb_dispatch_prev_ok(m, cpus, in->cpu, prev, in->prev_runnable);
	bool keep = false;

	out->act = GB_DISPATCH_NOTHING;
	out->fallback = GB_DISPATCH_NOTHING;
	out->try_mask = 0;
	out->slice_ns = 0;
	if (in->cpu >= 0 && (u32)in->cpu < m->nr_cpus)
		self = m->cpu_domain[(u32)in->cpu & (EM_MAX_CPUS - 1)];
	if (prev_ok && prev) {
		const struct gb_dsq_head *h = &in->heads[self & (EM_MAX_DOMAINS - 1)];
		u32 perf = gb_cpu_at(cpus, (u32)in->cpu)->perf_cur;
		u64 clock;

		out->slice_ns = gb_queue_slice(prev, dflt_slice_ns);
		/* no holding the CPU on credit from a clock that moved on (see gb_vtime.h) */
		gb_queue_move(prev, self, nr, dom_vtime);
		clock = dom_vtime[self & (EM_MAX_DOMAINS - 1)];
		/* a heavier task's credit against the clock its head was keyed against: with
		 * its shorter span, other CPUs' starts moved the clock past its credit (equal
		 * weights are limited alike, and the head that waited goes first) */
		if (h->queued && gb_weight_or_dfl(prev->weight) > gb_weight_or_dfl(h->weight))
			clock = gb_vtime_head_clock(h->deadline, clock,
						    h->slice_ns ? h->slice_ns : dflt_slice_ns, perf,
						    h->weight);
		prev->vtime =
		    gb_vtime_limit_credit(prev->vtime, clock, dflt_slice_ns, perf, prev->weight);
		keep = gb_vtime_keep_running(
			   gb_vtime_deadline(prev->vtime, out->slice_ns, perf, prev->weight),
			   h->queued, h->deadline) ||
		       gb_group_keep(in->group_served, prev->slice_ns, dflt_slice_ns, h->slice_long,
				     prev->vtime, h->deadline,
				     gb_vtime_span(dflt_slice_ns, perf, GB_WEIGHT_DFL));
		out->fallback = GB_DISPATCH_KEEP_PREV;
		if (keep && h->queued) {
			/* the queue waits behind it: another slice */
			out->act = GB_DISPATCH_KEEP_PREV;
			return;
		}
	}
	if (!keep && self < nr && in->heads[self & (EM_MAX_DOMAINS - 1)].queued)
		out->try_mask |= 1ull << self;
	out->try_mask |= GB_HOOK_PULL_MASK(m, cpus, in, self, pull_after_us);
	out->act = out->try_mask ? GB_DISPATCH_CONSUME : out->fallback;
}

#endif /* GEARBOX_GB_QUEUE_H */
