// SPDX-License-Identifier: GPL-2.0-only
/*
 * scx_gearbox - energy-aware sched_ext scheduler: a thin adapter from sched_ext callbacks to
 * the placement and frequency policy of src/policy/ (the code the simulator runs).
 *
 * Placement.  At wake-up (select_cpu) the policy prices every allowed CPU by the OPP its domain
 * would need with the task there (gb_policy.h); an idle winner gets the task directly in its
 * local queue.  Otherwise the task joins its domain's shared queue, ordered by virtual deadline
 * (vtime + slice * 100 / weight), with no eligibility gate: a long-running latency-sensitive
 * task is not overtaken by background work that merely became eligible.  Virtual time is
 * charged for work done -- run time times the perf of the OPP the CPU ran at, times 100 /
 * weight -- so a task on a slow core at a low OPP is not penalised for being slow, and nice
 * shares the CPU as in the fair class.  Each domain has its own virtual clock; a sleeper wakes
 * with at most half a slice of credit (src/policy/gb_vtime.h).  A task woken into a queue while no
 * CPU is idle for it preempts the domain's task with the latest deadline when that is later
 * than its own by more than its own span, as EEVDF preempts at a wake-up: a heavier task or a
 * shorter slice runs at once instead of waiting for a slice to end (SCX_KICK_PREEMPT,
 * src/policy/gb_preempt.h).
 *
 * Dispatch.  A CPU takes work from its own domain's queue.  At slice expiry the kernel asks
 * before it re-enqueues the running task, so that task is compared with the head of the queue
 * and keeps the CPU for another slice while its deadline is earlier (else two hogs would just
 * alternate, whatever their weights).  A CPU pulls the head of another domain's queue when that
 * domain is over-utilized and the head fits the CPU as placement would see it (so a pull never
 * undoes a capacity-misfit move), or when the head has waited gb_pull_after_ns since it was
 * queued: never stalling a task comes before saving energy.  The ops table sets
 * SCX_OPS_ENQ_LAST: a task whose slice ran out with nothing else to run on its CPU is enqueued
 * again (SCX_ENQ_LAST) rather than kept running, so that a misfit move the tick decided is
 * applied even to a task that never sleeps; with no move to apply it stays on its CPU's local
 * queue and runs on.
 *
 * Every one of these decisions is the core's (src/policy/gb_queue.h, gb_track.h, gb_hold.h: the
 * call order is at the top of gb_queue.h): the callbacks read kernel state, fill the core's
 * structs, call it and apply the answer (a DSQ insert or move, a slice, a kick, a cpuperf
 * request, a ring-buffer record).
 *
 * Tracking.  The wake-up (select_cpu, or enqueue when the kernel did not ask), stopping and the
 * tick feed per-task and per-CPU PELT signals (gb_pelt.h); there is no runnable or quiescent
 * callback, each would be one more BPF call on every wake-up: the run time comes from the
 * kernel's own account (se.sum_exec_runtime, updated before stopping, tick and dispatch call
 * us).  running notes the CPU's task (its clamps and its utilization, which the frequency
 * request counts there whatever the CPU's own history) and requests the domain's perf target
 * (scx_bpf_cpuperf_set), so that a task that moved gets its frequency at once; select_cpu's
 * direct dispatch notes the task too, for the placements made before it runs.  The tick notes
 * and requests the same as the task's utilization grows, and checks the running task for
 * capacity or power misfit; a misfit task gets its slice cut and is re-queued on the target
 * domain, whose CPU is kicked.
 *
 * The model is read-only data filled by the loader: the verifier then knows the topology and
 * checks the policy's loops over the model's real CPUs and OPPs (see bpf/gearbox_place.h).
 *
 * Files, one per mechanism, included below in this order:
 *
 *   gearbox_place.h   the core (src/policy/gb_policy.h), placement routed through subprograms
 *   gb_fill.h         the core's structs filled from what was read of the kernel (pure: also
 *                     compiled natively, by tests/sched/test_fill.c)
 *   gb_state.bpf.h    the model, the knobs, the CPU and domain tables, counters, small helpers
 *   gb_perf.bpf.h     the perf a CPU runs at, the cpuperf request
 *   gb_task.bpf.h     per-task state, CO-RE reads of a task (uclamp as a flavor), tracking calls
 *   gb_idle.bpf.h     the idle mask, idle decay
 *   gb_kick.bpf.h     waking CPUs, and not kicking from a CPU going offline
 *   gb_dsq.bpf.h      the domain queues: counts, heads for dispatch
 *   gb_emit.bpf.h     the ring buffer of decisions
 *
 * and this file: the callbacks and the ops table.
 */
#include "gb_scx.bpf.h"

#define GB_SUBPROG __attribute__((noinline))
#include "gearbox_place.h" /* the policy, its steps routed through subprograms */

#include "gb_fill.h"
#define GB_ENOMEM 12

char _license[] SEC("license") = "GPL";

/* in the order they use each other's state, not sorted */
/* clang-format off */
#include "gb_state.bpf.h"
#include "gb_perf.bpf.h"
#include "gb_task.bpf.h"
#include "gb_idle.bpf.h"
#include "gb_kick.bpf.h"
#include "gb_dsq.bpf.h"
#include "gb_emit.bpf.h"
/* clang-format on */

s32 BPF_STRUCT_OPS(gearbox_select_cpu, struct task_struct *p, s32 prev_cpu, u64 wake_flags)
{
	struct gb_task_ctx *tc = gb_tctx(p);
	struct gb_decision dec = {.cpu = GB_NO_CPU};
	struct gb_place_ctx *x;
	struct gb_ktask kt;
	bool is_idle = false;
	s32 cpu = GB_NO_CPU, from;

	gb_stat(GB_STAT_SELECT);
	if (tc) {
		u64 idle_bits = gb_idle_bits(), now = scx_bpf_now();
		u32 pd = gb_cpu_dom(from = (wake_flags & SCX_WAKE_FORK) ? GB_NO_CPU : prev_cpu);

		gb_read_sched(p, &kt);
		gb_wake(tc, &kt, now, prev_cpu); /* the kernel passes task_cpu(p) as prev_cpu */
		tc->woken = 1;
		gb_read_uclamp(p, tc);
		gb_hold_drop(&tc->s.hold);
		/* the shortcut reads the previous CPU's domain only: refresh that first */
		gb_refresh_idle(idle_bits, now / 1000, pd, GB_ALL_DOMAINS);
		x = gb_fill_place(tc, &kt, from);
		if (x) {
			x->t.floor_cap = gb_hold_wake(&tc->s.hold, &x->t);
			x->t.pull_held = gb_pull_hold_wake(&tc->s.pull, now);
			x->t.group = gb_group_class(gb_group_slices, tc->s.slice_ns, gb_slice_ns);
			/* the common case, an idle previous CPU nothing can beat, without the
			 * search */
			if (pd < GB_SCX_MAX_DOMAINS && gb_place_prev_cheapest(&dec) > 0) {
				gb_stat(GB_STAT_KEPT);
				cpu = dec.cpu;
			} else {
				gb_refresh_idle(idle_bits, now / 1000, GB_ALL_DOMAINS, pd);
				cpu = gb_place_wakeup(&dec);
			}
		}
	}
	/* affinity is never the policy's to get wrong: check, else the kernel's choice */
	if (cpu < 0 || !gb_mask_test(p->cpus_ptr, cpu)) {
		gb_stat(GB_STAT_FALLBACK);
		cpu = scx_bpf_select_cpu_dfl(p, prev_cpu, wake_flags, &is_idle);
		if (tc)
			gb_fork_util(tc, cpu);
		if (is_idle) {
			gb_stat(GB_STAT_DIRECT);
			scx_bpf_dsq_insert(p, SCX_DSQ_LOCAL, gb_slice_ns, 0);
			if (tc) {
				gb_track_wake_idle(&tc->s);
				gb_note_curr(p, tc, cpu, gb_cpu_dom(cpu));
			}
		}
		return cpu;
	}
	if (tc)
		gb_fork_util(tc, cpu);
	if (scx_bpf_test_and_clear_cpu_idle(cpu)) {
		gb_stat(GB_STAT_DIRECT);
		scx_bpf_dsq_insert(p, SCX_DSQ_LOCAL,
				   tc ? gb_queue_slice(&tc->s, gb_slice_ns) : gb_slice_ns, 0);
		if (tc) {
			gb_track_wake_idle(&tc->s);
			gb_note_curr(p, tc, cpu, gb_cpu_dom(cpu));
		}
	}
	if (tc && dec.reason != GB_REASON_NONE)
		gb_emit(p, tc, wake_flags & SCX_WAKE_FORK ? -1 : prev_cpu, &dec);
	return cpu;
}

void BPF_STRUCT_OPS(gearbox_enqueue, struct task_struct *p, u64 enq_flags)
{
	struct gb_task_ctx *tc = gb_tctx(p);
	s32 task_cpu = gb_task_cpu(p);
	u64 now = scx_bpf_now();
	struct gb_enq_out out;
	struct gb_enq_in in;
	struct gb_ktask kt;
	struct gb_task t;

	gb_stat(GB_STAT_ENQUEUE);
	gb_read_sched(p, &kt);
	if (tc) {
		/* the weight and slice into its state: by gb_wake at a wake-up select_cpu did not
		 * see */
		if ((enq_flags & SCX_ENQ_WAKEUP) && !tc->woken)
			gb_wake(tc, &kt, now, task_cpu);
		else
			gb_fill_sched(&tc->s, &kt);
		tc->woken = 0;
		gb_fork_util(tc, task_cpu);
		/* also re-enqueues without a wake-up: sched_setattr() dequeues and enqueues a task
		 * to change its clamps, which the kick below already reads */
		gb_read_uclamp(p, tc);
		gb_demand_off(tc);
	}
	gb_fill_enq_in(&in, &kt, task_cpu, enq_flags & SCX_ENQ_WAKEUP, enq_flags & SCX_ENQ_LAST,
		       gb_may_kick(), now);
	in.preempt = (u8)gb_wake_preempt;
	gb_enqueue_plan(gb_m(), gb_cpus, gb_dom_vtime, gb_slice_ns, tc ? &tc->s : NULL, &in, &out);
	if (out.queue == GB_QUEUE_LOCAL) {
		/* the last task, with no move to make: its CPU runs it on */
		scx_bpf_dsq_insert(p, SCX_DSQ_LOCAL, out.slice_ns, enq_flags);
		return;
	}
	if (out.queue == GB_QUEUE_GLOBAL || !tc) {
		scx_bpf_dsq_insert(p, SCX_DSQ_GLOBAL, out.slice_ns, enq_flags);
		if (in.may_kick)
			scx_bpf_kick_cpu(out.cpu, SCX_KICK_IDLE);
		return;
	}
	/* the queue's emptiness only where the shortcut asks: a DSQ lookup is a hash search */
	if (out.local_if_empty &&
	    gb_enqueue_take_local(&out,
				  gb_known_empty(out.dom) || scx_bpf_dsq_nr_queued(out.dom) == 0)) {
		/* no kick: a task put on an idle CPU's local queue makes it reschedule; a busy
		 * CPU's task is preempted by SCX_ENQ_PREEMPT (gb_preempt.h) */
		gb_stat(GB_STAT_LOCAL);
		if (gb_wake_preempt && in.may_kick && out.preempt &&
		    gb_preempt_local(gb_cpus, out.cpu, out.preempt_dl)) {
			gb_preempt_kicked(&gb_cpus[(u32)out.cpu & (EM_MAX_CPUS - 1)]);
			gb_stat(GB_STAT_PREEMPT);
			enq_flags |= SCX_ENQ_PREEMPT;
		}
		scx_bpf_dsq_insert(p, SCX_DSQ_LOCAL, out.slice_ns, enq_flags);
		return;
	}
	gb_count_queued(tc, (s32)out.dom);
	gb_demand_on(tc, out.dom, in.task_cpu);
	scx_bpf_dsq_insert_vtime(p, out.dom, out.slice_ns, out.deadline, enq_flags);
	if (in.may_kick) {
		/* the task as an idle CPU's pull will read it: the kick asks the same question */
		gb_fill_task(&t, &tc->s, &kt, in.task_cpu, gb_mode);
		t.floor_cap = gb_hold_floor(&tc->s.hold, &t);
		gb_kick_domain(&in, &t, &out);
	}
}

/* prev (state ptc) runs another slice on cpu of domain self: its deadline noted again for
 * wake-up preemption, only with it on (the knob is read-only data: off, the verifier follows
 * no path of it through dispatch). */
static __always_inline void gb_keep_prev(struct task_struct *prev, struct gb_task_ctx *ptc, s32 cpu,
					 u32 self, u64 slice_ns)
{
	gb_queue_start(&ptc->s, self, gb_m()->nr_domains, gb_dom_vtime);
	scx_bpf_task_set_slice(prev, slice_ns);
	if (gb_wake_preempt)
		gb_preempt_note(&gb_cpus[(u32)cpu & (EM_MAX_CPUS - 1)], &ptc->s, self,
				gb_m()->nr_domains, gb_dom_vtime, gb_slice_ns, gb_perf_now(cpu));
}

/*
 * Take the first task cpu may run from domain d's queue, d not cpu's own: a pull.  The stream
 * records it as an idle_pull decision of the task taken: the head, peeked before the move, when
 * the move put it on cpu (the move takes the first task cpu may run, and another CPU may have
 * taken the head in between).  Without the record a task that only ever reached a domain by a
 * pull, then stayed there (placement keeps an idle previous CPU within the hysteresis), shows
 * no decision at all.
 */
static __always_inline bool gb_pull(s32 cpu, u32 d)
{
	struct gb_decision dec = {.cpu = cpu, .reason = GB_REASON_IDLE_PULL};
	struct task_struct *head = NULL;
	struct gb_task_ctx *tc;
	s32 from = GB_NO_CPU;

	if (*(volatile u32 *)&gb_stream_readers) {
		head = scx_bpf_dsq_peek(d);
		if (head)
			from = scx_bpf_task_cpu(head);
	}
	if (!scx_bpf_dsq_move_to_local(d))
		return false;
	gb_stat(GB_STAT_PULL);
	if (head && from != cpu && scx_bpf_task_cpu(head) == cpu) {
		tc = gb_tctx(head);
		if (tc)
			gb_emit(head, tc, from, &dec);
	}
	return true;
}

/*
 * gb_pull_mask() over the queue heads dispatch has just read into its context: which other
 * domains' heads the CPU may pull.  A subprogram (GB_HOOK_PULL_MASK): inlined, each domain's
 * answer forked the path through the rest of dispatch, and the verifier followed every
 * combination of them.  gb_pull_mask() asks only about another domain's head that is queued,
 * and its loop over the domains is an iterator, a kfunc call per step: most dispatches read no
 * such head, and a may_goto walk over the heads answers them.
 */
GB_SUBPROG u64 gb_disp_pull_mask(u32 self, u64 pull_after_us)
{
	struct gb_disp_in *in = gb_disp_ctx();
	u32 d, nr = gb_m()->nr_domains;
	bool queued = false;

	if (!in)
		return 0;
	GB_LOOP (d, 0, nr) {
		u32 i = d;

		/* a masked index computed here, as in gb_read_pull_heads */
		asm volatile("" : "+r"(i));
		if (d != self && in->heads[i & (EM_MAX_DOMAINS - 1)].queued) {
			queued = true;
			break;
		}
	}
	if (!queued)
		return 0;
	return gb_pull_mask(gb_m(), gb_cpus, in, self, pull_after_us);
}

/*
 * The heads of the domain queues other than self's into dispatch's context (self's is left as
 * it is), as a pull reads them (gb_read_head), or marked empty without a look (read: false).
 */
static __always_inline void gb_read_pull_heads(struct gb_disp_in *in, s32 cpu, u32 self, u32 nr,
					       u64 *now, bool read)
{
	u32 d;

	GB_LOOP (d, 0, nr) {
		struct gb_dsq_head *h;
		u32 i = d;

		if (d == self)
			continue;
		/* the head's address from a masked index, computed here (the empty asm keeps clang
		 * from turning it into a pointer of its own, whose bounds the verifier loses) */
		asm volatile("" : "+r"(i));
		h = &in->heads[i & (EM_MAX_DOMAINS - 1)];
		if (!read) {
			h->queued = 0;
			continue;
		}
		gb_read_head(h, d, now, true);
		/* a pull asks whether the head fits this CPU: its utilization as of now */
		if (h->queued)
			gb_idle_decay_due((u32)cpu, *now / 1000);
	}
}

void BPF_STRUCT_OPS(gearbox_dispatch, s32 cpu, struct task_struct *prev)
{
	u32 self = gb_cpu_dom(cpu), d, nr = gb_m()->nr_domains;
	struct gb_task_ctx *ptc = NULL;
	struct gb_disp_out out;
	struct gb_disp_in *in;
	bool prev_runnable, own = false;
	u64 now = 0; /* read with the first head a pull reads (gb_read_head) */

	prev_runnable = prev && (prev->scx.flags & SCX_TASK_QUEUED) &&
			bpf_cpumask_test_cpu(cpu, prev->cpus_ptr);
	if (prev_runnable)
		ptc = gb_tctx(prev);
	if (ptc) {
		gb_fill_tstate(prev, ptc);
		if (gb_dispatch_prev_ok(gb_m(), gb_cpus, cpu, &ptc->s, true))
			gb_account(prev, ptc, cpu, self, true);
	}
	in = gb_disp_ctx();
	if (!in)
		return;
	in->cpu = cpu;
	in->prev_runnable = prev_runnable;
	/*
	 * Before the heads are read: in BPF the scan is checked once, and not at all when off.
	 * Only for a runnable prev with a slice longer than the default: gb_group_keep reads the
	 * verdict for no other task, and the scan (a loop over the model's CPUs) ran on every
	 * dispatch.
	 */
	in->group_served = gb_group_slices && ptc && gb_slice_long(ptc->s.slice_ns, gb_slice_ns) &&
			   gb_group_served(gb_m(), gb_cpus, cpu, self);
	/*
	 * Its own domain's head first: with one queued, the CPU keeps its task or takes that head,
	 * and the other heads, each a look-up and a fill, matter only if the take fails (another
	 * CPU took the head meanwhile): they are read then, for the pulls.
	 */
	if (self < nr) {
		gb_read_head(&in->heads[self & (EM_MAX_DOMAINS - 1)], self, &now, false);
		own = in->heads[self & (EM_MAX_DOMAINS - 1)].queued;
	}
	gb_read_pull_heads(in, cpu, self, nr, &now, !own);
	gb_dispatch_plan(gb_m(), gb_cpus, gb_dom_vtime, gb_slice_ns, gb_pull_after_ns / 1000, in,
			 ptc ? &ptc->s : NULL, &out);
	if (out.act == GB_DISPATCH_KEEP_PREV && ptc) {
		/* the queue waits behind it: another slice, and the clock moves on */
		gb_keep_prev(prev, ptc, cpu, self, out.slice_ns);
		return;
	}
	if (out.act == GB_DISPATCH_CONSUME) {
		if (self < nr && (out.try_mask >> self & 1) && scx_bpf_dsq_move_to_local(self))
			return;
		if (own) {
			/* the take failed: the pulls gb_dispatch_plan would have asked for */
			gb_read_pull_heads(in, cpu, self, nr, &now, true);
			out.try_mask = gb_disp_pull_mask(self, gb_pull_after_ns / 1000);
		}
		GB_LOOP (d, 0, nr) {
			if (d == self || !(out.try_mask >> d & 1))
				continue;
			if (gb_pull(cpu, d))
				return;
		}
	}
	/* nothing else to run here: prev goes on, with our slice rather than the kernel's */
	if (out.fallback == GB_DISPATCH_KEEP_PREV && ptc)
		gb_keep_prev(prev, ptc, cpu, self, out.slice_ns);
}

/*
 * p starts running on its CPU: the CPU is its (its clamps, its utilization: gb_note_curr), and
 * the CPU's domain asks at once for the frequency that counts p there.  A task that moved here
 * from another domain brings its utilization with it; waiting for the tick would leave it up to
 * a tick at the OPP of this CPU's idle history.
 */
void BPF_STRUCT_OPS(gearbox_running, struct task_struct *p)
{
	struct gb_task_ctx *tc = gb_tctx(p);
	s32 cpu = gb_task_cpu(p);
	u32 waited_in, dom = gb_cpu_dom(cpu);
	u64 now = 0;

	if (!tc)
		return;
	waited_in = gb_demand_off(tc);
	gb_note_curr(p, tc, cpu, dom);
	/* the clock only where a pull hold starts (gb_pull_hold_running reads it for nothing else)
	 */
	if (gb_pull_hold_starts(waited_in, dom))
		now = scx_bpf_now();
	gb_pull_hold_running(&tc->s.pull, waited_in, dom, now);
	gb_preempt_note(&gb_cpus[(u32)cpu & (EM_MAX_CPUS - 1)], &tc->s, dom, gb_m()->nr_domains,
			gb_dom_vtime, gb_slice_ns, gb_perf_in(cpu, dom));
	gb_request_perf(dom, cpu, false);
}

void BPF_STRUCT_OPS(gearbox_stopping, struct task_struct *p, bool runnable)
{
	struct gb_task_ctx *tc = gb_tctx(p);
	s32 cpu = gb_task_cpu(p);
	u32 dom;

	if (!tc)
		return;
	dom = gb_cpu_dom(cpu);
	/* the run is over: its wake-up too (see gb_wake), and it left its domain's queue when it
	 * started (counted until now: more than the queue holds, which is safe, see
	 * gb_dom_queued); after the run's last charge its domain's clock reaches the vtime the
	 * run started at, and the CPU no longer counts its utilization for the frequency */
	tc->woken = 0;
	gb_count_queued(tc, -1);
	/* before the accounting, which counts the change of the CPU's inputs (gb_freq_touch) */
	gb_track_stop(&gb_cpus[(u32)cpu & (EM_MAX_CPUS - 1)]);
	gb_account(p, tc, cpu, dom, true);
	if (dom < gb_m()->nr_domains)
		gb_queue_start(&tc->s, dom, gb_m()->nr_domains, gb_dom_vtime);
	gb_curr[(u32)cpu & (EM_MAX_CPUS - 1)].pid = 0;
	/* it goes to sleep (what quiescent would say, a callback later): util_est's sample.  Also
	 * when a running task is dequeued to be changed (sched_setattr), which is rare. */
	if (!runnable)
		gb_track_sleep(&tc->s);
}

void BPF_STRUCT_OPS(gearbox_tick, struct task_struct *p)
{
	struct gb_task_ctx *tc = gb_tctx(p);
	s32 cpu = gb_task_cpu(p), to;
	struct gb_decision dec = {.cpu = GB_NO_CPU};
	struct gb_place_ctx *x;
	struct gb_ktask kt;
	u64 ran_us;

	if (!tc)
		return;
	/* the domain looked up where it is used: kept across the misfit search's subprograms,
	 * it took the stack of the calls beyond the verifier's 512 bytes */
	gb_account(p, tc, cpu, gb_cpu_dom(cpu), false); /* gb_note_curr counts both changes */
	gb_read_uclamp(p, tc);
	gb_note_curr(p, tc, cpu, gb_cpu_dom(cpu));
	gb_request_perf(gb_cpu_dom(cpu), cpu, true);
	if (gb_hold_pending(&tc->s.hold))
		return;
	ran_us = gb_track_ran_us(&tc->s, scx_bpf_now());
	gb_read_sched(p, &kt);
	x = gb_fill_place(tc, &kt, cpu);
	/* most ticks end here, before the idle scan: the task is neither kind of misfit */
	if (!x || !gb_place_misfit_possible((u32)cpu, ran_us, gb_push_after_us))
		return;
	gb_refresh_idle(gb_idle_bits(), gb_now_us(), GB_ALL_DOMAINS, GB_ALL_DOMAINS);
	to = gb_place_misfit((u32)cpu, ran_us, gb_push_after_us, &dec);
	if (to < 0 || to == cpu || !gb_mask_test(p->cpus_ptr, to))
		return;
	gb_hold_moved(&tc->s.hold, &x->t, to, dec.reason,
		      em_domain_capacity(gb_pd(gb_m(), gb_cpu_dom(cpu))));
	scx_bpf_task_set_slice(p, 0);
	gb_stat(GB_STAT_MISFIT);
	gb_emit(p, tc, cpu, &dec);
}

void BPF_STRUCT_OPS(gearbox_set_cpumask, struct task_struct *p, const struct cpumask *mask)
{
	struct gb_task_ctx *tc = gb_tctx(p);

	gb_stat(GB_STAT_CPUMASK);
	if (tc)
		gb_hold_drop(&tc->s.hold);
}

void BPF_STRUCT_OPS(gearbox_enable, struct task_struct *p)
{
	struct gb_task_ctx *tc = gb_tctx(p);
	u32 d = gb_cpu_dom(gb_task_cpu(p));

	if (!tc)
		return;
	gb_track_enable(&tc->s, d, gb_m()->nr_domains, gb_dom_vtime);
	/* its run time counts from now (it may be running: stopping accounts from here) */
	tc->exec_ns = p->se.sum_exec_runtime;
}

/* p leaves sched_ext (another class, or exit): no longer counted as queued anywhere, nor in a
 * domain's queued demand. */
void BPF_STRUCT_OPS(gearbox_disable, struct task_struct *p)
{
	struct gb_task_ctx *tc = gb_tctx(p);

	if (tc) {
		gb_count_queued(tc, -1);
		gb_demand_off(tc);
	}
}

s32 BPF_STRUCT_OPS(gearbox_init_task, struct task_struct *p, struct scx_init_task_args *args)
{
	struct gb_task_ctx *tc;

	tc = bpf_task_storage_get(&gb_tasks, p, 0, BPF_LOCAL_STORAGE_GET_F_CREATE);
	if (!tc)
		return -GB_ENOMEM;
	gb_track_init(&tc->s);
	tc->qdom = -1;
	tc->fresh = args->fork;
	return 0;
}

static __always_inline void gb_set_online(s32 cpu, u8 online)
{
	u32 c = (u32)cpu & (EM_MAX_CPUS - 1);

	gb_stat(GB_STAT_HOTPLUG);
	gb_cpu_up[c] = online;
	gb_cpus[c].online = online;
	gb_cpus[c].idle = online;
	gb_cpus[c].nr_running = 0;
	gb_cpus[c].uclamp_min = 0;
	gb_cpuperf_last[c] = 0; /* the next request is set whatever its value */
	/* its domain's queued demand over the CPUs online now (which counts the change of their
	 * frequency inputs, gb_freq_touch) */
	gb_demand_apply(gb_cpu_dom(cpu));
}

void BPF_STRUCT_OPS(gearbox_cpu_online, s32 cpu)
{
	gb_set_online(cpu, 1);
}

/*
 * A CPU going offline may leave its domain with none online, and tasks in that domain's queue
 * that nobody dispatches: idle CPUs only run dispatch when kicked, and on an idle machine
 * nothing kicks them (rcu_preempt sat in such a queue for minutes, so the hotplug check and
 * every RCU wait hung).  Every online CPU gets an idle kick; its dispatch pulls from a
 * domain without online CPUs at once (gb_may_pull_queue), one task per dispatch, and each CPU that
 * goes idle again dispatches again, until the queue is empty.
 */
void BPF_STRUCT_OPS(gearbox_cpu_offline, s32 cpu)
{
	u32 c;

	gb_set_online(cpu, 0);
	bpf_for (c, 0, gb_m()->nr_cpus) {
		if ((s32)c != cpu && gb_cpus[c & (EM_MAX_CPUS - 1)].online)
			scx_bpf_kick_cpu(c, SCX_KICK_IDLE);
	}
}

s32 BPF_STRUCT_OPS_SLEEPABLE(gearbox_init)
{
	u32 d, nr = gb_m()->nr_domains;
	s32 err;

	for (d = 0; d < GB_SCX_MAX_DOMAINS; d++) {
		if (d >= nr)
			break;
		err = scx_bpf_create_dsq(d, -1);
		if (err)
			return err;
	}
	return 0;
}

void BPF_STRUCT_OPS(gearbox_exit, struct scx_exit_info *ei)
{
	gb_scx_record_exit(ei, &gb_exit_kind, &gb_exit_code, gb_exit_msg);
}

GB_SCX_OPS(gearbox_ops, .select_cpu = (void *)gearbox_select_cpu,
	   .enqueue = (void *)gearbox_enqueue, .dispatch = (void *)gearbox_dispatch,
	   .running = (void *)gearbox_running, .stopping = (void *)gearbox_stopping,
	   .tick = (void *)gearbox_tick, .set_cpumask = (void *)gearbox_set_cpumask,
	   .enable = (void *)gearbox_enable, .disable = (void *)gearbox_disable,
	   .init_task = (void *)gearbox_init_task, .cpu_online = (void *)gearbox_cpu_online,
	   .cpu_offline = (void *)gearbox_cpu_offline, .init = (void *)gearbox_init,
	   .exit = (void *)gearbox_exit, .flags = SCX_OPS_ENQ_LAST, .name = "gearbox");
