// SPDX-License-Identifier: GPL-2.0-only
/*
 * sim_scx.c - the sched_ext host: fair tasks under gearbox run as under scx_gearbox, on the
 * kernel's dispatch queues in the kernel's call order (kernel/sched/ext.c), with the
 * scheduler's callbacks (bpf/gearbox.bpf.c) on top.  RT tasks stay in the RT class (the engine's
 * per-CPU queues) and preempt.
 *
 * The kernel's part:
 *   - DSQs: a local DSQ per CPU (FIFO; SCX_ENQ_HEAD inserts at the head), the global DSQ (FIFO)
 *     and the user DSQs scx_gearbox creates, one per domain, ordered by dsq_vtime (equal keys
 *     in insertion order).  Moving a task to another CPU's local DSQ is a migration.
 *   - wake-up: ops.select_cpu when the task may run on more than one CPU (else its only CPU);
 *     a task select_cpu inserted into SCX_DSQ_LOCAL goes to that CPU's local DSQ without
 *     ops.enqueue, any other to ops.enqueue(SCX_ENQ_WAKEUP); an idle CPU the task is queued
 *     on is rescheduled (wakeup_preempt: the idle class is below sched_ext).
 *   - schedule (balance_one, pick_task_scx, put_prev_task_scx): the running task keeps the CPU
 *     while it has slice left; else the local DSQ, else the global DSQ, else ops.dispatch
 *     (prev passed while still runnable), repeated while it moves tasks.  A prev that gives
 *     way is stopped (ops.stopping) and goes to the head of the local DSQ if it has slice left
 *     (preempted), else to ops.enqueue, with SCX_ENQ_LAST when nothing else was found
 *     (scx_gearbox sets SCX_OPS_ENQ_LAST): the CPU then runs it on if it was put in its local
 *     DSQ, and goes idle otherwise.
 *   - the tick charges the running task's slice, calls ops.tick and reschedules the CPU when
 *     the slice is 0; sched_yield() sets it to 0.
 *   - SCX_ENQ_PREEMPT on a local insert: at the head, and the sched_ext task running there
 *     has its slice set to 0 and its CPU reschedules (local_dsq_post_enq).
 *   - kicks: SCX_KICK_IDLE reschedules the CPU only when it is idle, SCX_KICK_PREEMPT sets the
 *     running task's slice to 0, a plain kick reschedules.  Reschedules asked during a
 *     callback run after it, CPU by CPU in id order, as the kernel's IPIs do after the caller.
 *   - fallbacks: a local insert for an offline CPU or one the task may not run on goes to the
 *     global DSQ, which every CPU consumes before calling ops.dispatch.
 *
 * scx_gearbox's part (the gearbox_* functions) is bpf/gearbox.bpf.c's adapter, callback by
 * callback: it fills the core's structs (src/policy: gb_types.h), calls the same functions --
 * gb_select_cpu at select_cpu, gb_enqueue_plan, gb_dispatch_plan, gb_check_misfit with the hold
 * of gb_hold.h at the tick, the gb_track_* tracking -- and applies their answers to the DSQs
 * above (the CPU an enqueue wakes is the core's gb_kick_cpu; with wake-up preemption, the CPU a
 * woken task preempts is gb_preempt_cpu's, kicked with SCX_KICK_PREEMPT), with the adapter's own
 * mechanics repeated here (the kernel's default CPU choice when placement names a CPU the task
 * may not use).
 * Per-task and per-CPU utilization are scx_gearbox's (gb_track.h), not the engine's.
 *
 * Not modelled: kicks and IPIs take no time; a CPU kicked out of an idle state that finds
 * nothing pays no exit latency; no CPU hotplug (a model's CPUs outside every domain are offline
 * throughout).  A task's own slice (the workload's slice_us) reaches scx_gearbox as the kernel
 * shows it, p->se.slice with p->se.custom_slice set (bpf/gb_fill.h).
 */
#include "sim_internal.h"

#define SIM_SCX_SLICE_DFL_NS 20000000ull /* SCX_SLICE_DFL */
#define SIM_SCX_MAX_LOOPS    32		 /* SCX_DSP_MAX_LOOPS */

#define SCX_ENQ_WAKEUP	 1u
#define SCX_ENQ_HEAD	 2u
#define SCX_ENQ_LAST	 4u
#define SCX_ENQ_PREEMPT	 8u
#define SCX_KICK_IDLE	 1u
#define SCX_KICK_PREEMPT 2u

static u64 now_ns(const struct sim *s)
{
	return s->now_us * 1000;
}

static u32 dom_of(const struct sim *s, s32 cpu)
{
	return cpu >= 0 && (u32)cpu < s->m->nr_cpus ? s->m->cpu_domain[cpu] : 0xff;
}

static bool cpu_online(const struct sim *s, s32 cpu)
{
	return dom_of(s, cpu) < s->m->nr_domains;
}

static bool allowed(const struct sim_task *t, s32 cpu)
{
	return cpu >= 0 && em_cpumask_test(&t->allowed, (u32)cpu);
}

/* p->nr_cpus_allowed */
static u32 nr_allowed(const struct sim *s, const struct sim_task *t)
{
	u32 n = 0;

	for (u32 c = 0; c < s->m->nr_cpus; c++)
		n += em_cpumask_test(&t->allowed, c);
	return n;
}

/* sched_weight_to_cgroup(): the fair class's weight (1024 at nice 0) on sched_ext's scale */
static u32 scx_weight(u32 fair_weight)
{
	u64 w = ((u64)fair_weight * 100 + 512) / 1024;

	return w < 1 ? 1 : w > 10000 ? 10000 : (u32)w;
}

/* ---- the kernel: DSQs, rescheduling, kicks ---- */

static void resched(struct sim *s, u32 cpu)
{
	s->scx.resched[cpu] = true;
}

static void schedule(struct sim *s, u32 cpu);

/* Runs the reschedules asked for, when no host call is under way. */
static void flush(struct sim *s)
{
	bool again = true;

	if (s->scx.depth)
		return;
	while (again) {
		again = false;
		for (u32 c = 0; c < s->m->nr_cpus; c++) {
			if (!s->scx.resched[c])
				continue;
			s->scx.resched[c] = false;
			schedule(s, c);
			again = true;
		}
	}
}

/* scx_bpf_kick_cpu() */
static void kick(struct sim *s, s32 cpu, u32 flags)
{
	s32 cur;

	if (!cpu_online(s, cpu))
		return;
	cur = s->cpus[cpu].curr;
	if (flags & SCX_KICK_IDLE) {
		if (cur >= 0)
			return;
		s->scx.kicks++;
	} else if ((flags & SCX_KICK_PREEMPT) && cur >= 0 && !s->tasks[cur].rt) {
		s->tasks[cur].x.slice_ns = 0;
	}
	resched(s, (u32)cpu);
}

static void dsq_leave(struct sim_task *t)
{
	t->x.dsq = SIM_DSQ_NONE;
}

/* A local DSQ of cpu: if the task may not run there (offline, affinity), the global DSQ. */
static void insert_local(struct sim *s, struct sim_task *t, u32 cpu, u64 slice_ns, u32 flags)
{
	u32 from_cap = 0;

	t->x.slice_ns = slice_ns;
	t->state = TS_QUEUED;
	t->queued_us = s->now_us;
	if (!cpu_online(s, (s32)cpu) || !allowed(t, (s32)cpu)) {
		t->x.dsq = SIM_DSQ_GLOBAL;
		t->x.seq = ++s->scx.seq_tail;
		return;
	}
	if (t->x.misfit_enq && t->cpu != (s32)cpu) {
		s->misfit_moves++;
		t->x.misfit_enq = false;
		/* up: a capacity misfit (a power misfit moves down) */
		if (t->cpu >= 0 && sim_cpu_capacity(s, cpu) > sim_cpu_capacity(s, (u32)t->cpu))
			from_cap = sim_cpu_capacity(s, (u32)t->cpu);
	}
	sim_set_task_cpu(s, t, cpu);
	if (from_cap)
		t->misfit_from_cap = from_cap;
	t->x.dsq = SIM_DSQ_LOCAL;
	t->x.local_cpu = (s32)cpu;
	t->x.seq = flags & (SCX_ENQ_HEAD | SCX_ENQ_PREEMPT) ? --s->scx.seq_head : ++s->scx.seq_tail;
	/* local_dsq_post_enq(): SCX_ENQ_PREEMPT takes the slice of the sched_ext task running
	 * there; that CPU reschedules, as does one running below sched_ext (idle), unless it is
	 * the one scheduling now (it picks from its local DSQ next) */
	if ((flags & SCX_ENQ_PREEMPT) && s->cpus[cpu].curr >= 0 &&
	    !s->tasks[s->cpus[cpu].curr].rt) {
		s->tasks[s->cpus[cpu].curr].x.slice_ns = 0;
		resched(s, cpu);
	}
	if (s->cpus[cpu].curr < 0 && (s32)cpu != s->scx.sched_cpu)
		resched(s, cpu);
}

static void insert_global(struct sim *s, struct sim_task *t, u64 slice_ns)
{
	t->x.slice_ns = slice_ns;
	t->state = TS_QUEUED;
	t->queued_us = s->now_us;
	t->x.dsq = SIM_DSQ_GLOBAL;
	t->x.seq = ++s->scx.seq_tail;
}

/* scx_bpf_dsq_insert_vtime() into user DSQ d */
static void insert_vtime(struct sim *s, struct sim_task *t, u32 d, u64 slice_ns, u64 vtime)
{
	t->x.slice_ns = slice_ns;
	t->state = TS_QUEUED;
	t->queued_us = s->now_us;
	t->x.dsq = (s32)d;
	t->x.dsq_vtime = vtime;
	t->x.seq = ++s->scx.seq_tail;
}

/* Does a come before b in the same DSQ? */
static bool dsq_before(const struct sim_task *a, const struct sim_task *b)
{
	if (a->x.dsq >= 0 && a->x.dsq_vtime != b->x.dsq_vtime)
		return gb_vtime_before(a->x.dsq_vtime, b->x.dsq_vtime);
	return a->x.seq < b->x.seq;
}

/* The first task of DSQ dsq (of cpu, for a local one) that may run on cpu (-1: any), or NULL. */
static struct sim_task *dsq_first(struct sim *s, s32 dsq, s32 cpu)
{
	struct sim_task *best = NULL;

	for (u32 i = 0; i < s->nr_tasks; i++) {
		struct sim_task *t = &s->tasks[i];

		if (t->x.dsq != dsq || (dsq == SIM_DSQ_LOCAL && t->x.local_cpu != cpu))
			continue;
		if (cpu >= 0 && dsq != SIM_DSQ_LOCAL && !allowed(t, cpu))
			continue;
		if (!best || dsq_before(t, best))
			best = t;
	}
	return best;
}

/* scx_bpf_dsq_nr_queued() of a user DSQ */
static u32 dsq_nr(const struct sim *s, u32 d)
{
	u32 n = 0;

	for (u32 i = 0; i < s->nr_tasks; i++)
		n += s->tasks[i].x.dsq == (s32)d;
	return n;
}

/* scx_bpf_dsq_move_to_local(dsq) on cpu (and the global DSQ's consumption): the first task
 * cpu may run moves to the tail of cpu's local DSQ. */
static bool move_to_local(struct sim *s, s32 dsq, u32 cpu)
{
	struct sim_task *t = dsq_first(s, dsq, (s32)cpu);

	if (!t)
		return false;
	dsq_leave(t);
	insert_local(s, t, cpu, t->x.slice_ns, 0);
	return true;
}

/* ---- scx_gearbox's callbacks: bpf/gearbox.bpf.c's, through the core of src/policy ---- */

/*
 * The core's per-task state, with what the kernel shows of the task now: its clamps, weight
 * and slice.  Its PELT signals are scx_gearbox's own, updated by gb_track_* at the callbacks
 * (not the engine's, which the fair host and the report use).
 */
static struct gb_tstate *tstate(struct sim_task *t)
{
	struct gb_tstate *ts = &t->x.ts;

	ts->uclamp_min = t->uclamp_min;
	ts->uclamp_max = t->uclamp_max;
	ts->weight = t->x.weight;
	ts->slice_ns = t->wt->sched.slice_us * 1000; /* p->se.slice when it set its own */
	return ts;
}

/* The task no longer waits in a domain's queue: its queued demand off that domain's sum
 * (gb_demand_leave), as scx_gearbox's gb_demand_off; the domain it waited in, GB_DEMAND_NONE
 * for none. */
static u32 demand_leave(struct sim *s, struct sim_task *t)
{
	u32 d, cpu, u = gb_demand_leave(&t->x.ts, &d, &cpu);

	if (u)
		s->scx.dom_qutil[d] -= u;
	if (u && cpu < EM_MAX_CPUS)
		s->scx.cpu_wutil[cpu] -= u;
	return d;
}

/* gb_account(): the run time since the task was last accounted, at the perf it ran at. */
static void gearbox_account(struct sim *s, struct sim_task *t, u32 cpu)
{
	u64 ran_ns = t->x.ran_ns, vtime = t->x.ts.vtime;
	u32 perf = ran_ns ? (u32)(t->x.perf_ns / ran_ns) : 0;

	gb_track_ran(tstate(t), &s->scx.cpu_pelt[cpu], &s->scx.track_cpu[cpu], now_ns(s), ran_ns,
		     perf);
	t->st.vtime_charged_ns += t->x.ts.vtime - vtime;
	t->x.ran_ns = 0;
	t->x.perf_ns = 0;
}

/* The wake-up's accounting, after sim_refresh (the perf of the task's CPU is read). */
static void gearbox_wake(struct sim *s, struct sim_task *t)
{
	u32 perf = t->cpu >= 0 ? s->gcpu[t->cpu].perf_cur : 0;

	gb_track_wake(tstate(t), now_ns(s), s->m->nr_domains, s->scx.dom_vtime, SIM_SCX_SLICE_NS,
		      perf);
}

/* scx_bpf_select_cpu_dfl(), reduced: the previous CPU if idle, else the first idle allowed
 * CPU, else the previous one; is_idle says whether it was idle (and claims it). */
static s32 select_cpu_dfl(struct sim *s, const struct sim_task *t, s32 prev, bool *is_idle)
{
	*is_idle = false;
	if (allowed(t, prev) && cpu_online(s, prev) && s->scx.idle[prev]) {
		s->scx.idle[prev] = false;
		*is_idle = true;
		return prev;
	}
	for (u32 c = 0; c < s->m->nr_cpus; c++) {
		if (allowed(t, (s32)c) && cpu_online(s, (s32)c) && s->scx.idle[c]) {
			s->scx.idle[c] = false;
			*is_idle = true;
			return (s32)c;
		}
	}
	return allowed(t, prev) ? prev : sim_first_allowed(s, t);
}

/* ops.select_cpu */
/* A new task's first utilization, on the CPU it is first placed on (gb_track_fork), once. */
static void gearbox_fork_util(struct sim *s, struct sim_task *t, u32 cpu)
{
	if (!t->x.fresh)
		return;
	t->x.fresh = false;
	gb_track_fork(tstate(t), sim_cpu_capacity(s, cpu), s->gcpu[cpu].util);
}

static s32 gearbox_select_cpu(struct sim *s, struct sim_task *t, s32 prev_cpu, bool fork)
{
	struct gb_decision dec = {.cpu = GB_NO_CPU, .reason = GB_REASON_NONE};
	struct gb_tstate *ts = tstate(t);
	struct gb_task gt;
	bool is_idle;
	s32 cpu;

	sim_refresh(s);
	gearbox_wake(s, t);
	t->x.woken = true;
	gb_track_task(ts, fork ? GB_NO_CPU : prev_cpu, &t->allowed, &gt);
	gt.floor_cap = gb_hold_wake(&ts->hold, &gt);
	gt.pull_held = gb_pull_hold_wake(&ts->pull, now_ns(s));
	gt.group =
	    gb_group_class(s->opt.group_slices == SIM_GROUP_ON, ts->slice_ns, SIM_SCX_SLICE_NS);
	cpu = gb_select_cpu(s->m, s->gcpu, &gt, &s->scratch, &dec);
	s->decisions++;
	if (cpu < 0 || !allowed(t, cpu)) {
		cpu = select_cpu_dfl(s, t, prev_cpu, &is_idle);
		gearbox_fork_util(s, t, (u32)cpu);
		if (is_idle) {
			t->x.ddsp = true;
			t->x.slice_ns = SIM_SCX_SLICE_NS;
			gb_track_wake_idle(ts);
			gb_track_curr(&s->scx.track_cpu[cpu], ts);
		}
		return cpu;
	}
	gearbox_fork_util(s, t, (u32)cpu);
	/* scx_bpf_test_and_clear_cpu_idle() */
	if (s->scx.idle[cpu]) {
		s->scx.idle[cpu] = false;
		t->x.ddsp = true;
		t->x.slice_ns = gb_queue_slice(ts, SIM_SCX_SLICE_NS);
		gb_track_wake_idle(ts);
		gb_track_curr(&s->scx.track_cpu[cpu], ts);
	}
	if (dec.reason != GB_REASON_NONE)
		sim_trace_decision(s, t, fork ? -1 : prev_cpu, cpu, dec.reason, dec.energy_delta);
	return cpu;
}

/*
 * gb_kick_domain(): wake the CPU gb_kick_cpu names for t, queued as out says; when it is not
 * idle, a wake-up preempts gb_preempt_cpu's CPU, if any (gb_preempt.h).
 */
static void gearbox_kick_domain(struct sim *s, struct sim_task *t, const struct gb_enq_in *in,
				const struct gb_enq_out *out, s32 self)
{
	struct em_cpumask idle = {0};
	struct gb_task gt;
	s32 to;

	if (gb_kick_skip(in->pinned, out->cpu, self))
		return;
	for (u32 c = 0; c < s->m->nr_cpus; c++)
		if (s->scx.idle[c])
			em_cpumask_set(&idle, c);
	gb_track_task(&t->x.ts, in->task_cpu, &in->allowed, &gt);
	gt.floor_cap = gb_hold_floor(&t->x.ts.hold, &gt);
	to = gb_kick_cpu(s->m, s->gcpu, &idle, &gt, in->pinned, out->cpu, out->dom, self,
			 s->opt.pull_after_us);
	if (to >= 0)
		kick(s, to, SCX_KICK_IDLE);
	if ((to >= 0 && em_cpumask_test(&idle, (u32)to)) || !out->preempt)
		return;
	to = gb_preempt_cpu(s->m, s->gcpu, &in->allowed, out->dom, out->preempt_dl);
	if (to < 0)
		return;
	gb_preempt_kicked(&s->scx.track_cpu[to]);
	gb_preempt_kicked(&s->gcpu[to]);
	s->scx.wake_preempts++;
	kick(s, to, SCX_KICK_PREEMPT);
}

/* ops.enqueue; self is the CPU running the callback, -1 for a wake-up from elsewhere. */
static void gearbox_enqueue(struct sim *s, struct sim_task *t, u32 enq_flags, s32 self)
{
	struct gb_enq_in in = {.task_cpu = t->cpu, .may_kick = 1, .now_ns = now_ns(s)};
	struct gb_tstate *ts;
	struct gb_enq_out out;
	s32 to;
	u32 u;

	sim_refresh(s);
	if ((enq_flags & SCX_ENQ_WAKEUP) && !t->x.woken)
		gearbox_wake(s, t);
	t->x.woken = false;
	if (t->cpu >= 0) /* a new task select_cpu was not asked about (one allowed CPU) */
		gearbox_fork_util(s, t, (u32)t->cpu);
	ts = tstate(t);
	in.wakeup = !!(enq_flags & SCX_ENQ_WAKEUP);
	in.last = !!(enq_flags & SCX_ENQ_LAST);
	in.preempt = (u8)sim_preempt_mode(s->opt.wake_preempt);
	in.pinned = nr_allowed(s, t) == 1;
	in.allowed = t->allowed;
	demand_leave(s, t);
	to = gb_hold_target(&ts->hold, &in.allowed, in.may_kick);
	t->x.misfit_enq = to >= 0 && to != t->cpu;
	gb_enqueue_plan(s->m, s->gcpu, s->scx.dom_vtime, SIM_SCX_SLICE_NS, ts, &in, &out);
	if (out.queue == GB_QUEUE_LOCAL) {
		insert_local(s, t, (u32)out.cpu, out.slice_ns, 0);
		return;
	}
	if (out.queue == GB_QUEUE_GLOBAL) {
		insert_global(s, t, out.slice_ns);
		kick(s, out.cpu, SCX_KICK_IDLE);
		return;
	}
	if (out.local_if_empty && gb_enqueue_take_local(&out, dsq_nr(s, out.dom) == 0)) {
		u32 flags = 0;

		if (out.preempt && gb_preempt_local(s->gcpu, out.cpu, out.preempt_dl)) {
			gb_preempt_kicked(&s->scx.track_cpu[out.cpu]);
			gb_preempt_kicked(&s->gcpu[out.cpu]);
			s->scx.wake_preempts++;
			flags = SCX_ENQ_PREEMPT;
		}
		insert_local(s, t, (u32)t->cpu, out.slice_ns, flags);
		return;
	}
	u = gb_demand_join(ts, out.dom, in.task_cpu);
	s->scx.dom_qutil[out.dom] += u;
	if (ts->queued_cpu < EM_MAX_CPUS)
		s->scx.cpu_wutil[ts->queued_cpu] += u;
	insert_vtime(s, t, out.dom, out.slice_ns, out.deadline);
	gearbox_kick_domain(s, t, &in, &out, self);
}

/* A pull from domain d's queue to cpu, counted (one that undoes a capacity-misfit move too) and
 * traced as an idle_pull decision, as scx_gearbox's gb_pull records it. */
static bool pull(struct sim *s, u32 d, u32 cpu)
{
	struct sim_task *t = dsq_first(s, (s32)d, (s32)cpu);
	u32 cap = sim_cpu_capacity(s, cpu), work;
	struct gb_task gt;
	s32 from;

	if (!t)
		return false;
	from = t->cpu;
	gb_track_task(tstate(t), t->cpu, &t->allowed, &gt);
	work = gb_task_work(&gt);
	s->scx.pulls++;
	if (t->x.ts.hold.cap && cap <= t->x.ts.hold.cap && gb_saturates(work, cap))
		s->scx.misfit_undone++;
	move_to_local(s, (s32)d, cpu);
	if (from != (s32)cpu)
		sim_trace_decision(s, t, from, (s32)cpu, GB_REASON_IDLE_PULL, 0);
	return true;
}

/* The task running on cpu goes on for another slice (gb_keep_prev), its deadline noted unless
 * wake-up preemption is off. */
static void gearbox_keep_prev(struct sim *s, struct sim_task *prev, u32 cpu, u32 self, u64 slice_ns)
{
	gb_queue_start(&prev->x.ts, self, s->m->nr_domains, s->scx.dom_vtime);
	prev->x.slice_ns = slice_ns;
	if (s->opt.wake_preempt != SIM_PREEMPT_OFF)
		gb_preempt_note(&s->scx.track_cpu[cpu], &prev->x.ts, self, s->m->nr_domains,
				s->scx.dom_vtime, SIM_SCX_SLICE_NS, sim_cpu_perf(s, cpu));
}

/* ops.dispatch; prev is cpu's task if still runnable, else NULL. */
static void gearbox_dispatch(struct sim *s, u32 cpu, struct sim_task *prev)
{
	struct gb_disp_in *in = &s->scx.disp_in;
	u32 self = dom_of(s, (s32)cpu), nr = s->m->nr_domains;
	struct gb_tstate *pts = NULL;
	struct gb_disp_out out;
	u64 now = now_ns(s);

	s->scx.dispatches++;
	sim_refresh(s);
	in->cpu = (s32)cpu;
	in->prev_runnable = prev && allowed(prev, (s32)cpu);
	in->group_served =
	    s->opt.group_slices == SIM_GROUP_ON && gb_group_served(s->m, s->gcpu, (s32)cpu, self);
	if (in->prev_runnable) {
		pts = tstate(prev);
		if (gb_dispatch_prev_ok(s->m, s->gcpu, (s32)cpu, pts, true))
			gearbox_account(s, prev, cpu);
	}
	for (u32 d = 0; d < nr; d++) {
		struct gb_dsq_head *h = &in->heads[d];
		struct sim_task *head = dsq_first(s, (s32)d, -1);

		h->queued = head != NULL;
		if (!head)
			continue;
		h->deadline = head->x.dsq_vtime;
		h->slice_long = gb_slice_long(head->x.slice_ns, SIM_SCX_SLICE_NS);
		h->slice_ns = head->x.slice_ns;
		h->weight = head->x.weight;
		h->waited_us = gb_queue_waited_us(&head->x.ts, now);
		gb_track_task(tstate(head), head->cpu, &head->allowed, &h->t);
		h->t.floor_cap = gb_hold_floor(&head->x.ts.hold, &h->t);
	}
	gb_dispatch_plan(s->m, s->gcpu, s->scx.dom_vtime, SIM_SCX_SLICE_NS, s->opt.pull_after_us,
			 in, pts, &out);
	if (out.act == GB_DISPATCH_KEEP_PREV && pts) {
		gearbox_keep_prev(s, prev, cpu, self, out.slice_ns);
		return;
	}
	if (out.act == GB_DISPATCH_CONSUME) {
		if (self < nr && (out.try_mask >> self & 1) && move_to_local(s, (s32)self, cpu))
			return;
		for (u32 d = 0; d < nr; d++) {
			if (d == self || !(out.try_mask >> d & 1))
				continue;
			if (pull(s, d, cpu))
				return;
		}
	}
	if (out.fallback == GB_DISPATCH_KEEP_PREV && pts)
		gearbox_keep_prev(s, prev, cpu, self, out.slice_ns);
}

/* ops.running: the CPU's task and its deadline noted, and its domain's frequency asked for at
 * once (the engine's governor reads the CPU table at every event: sim_dvfs_update). */
static void gearbox_running(struct sim *s, struct sim_task *t, u32 cpu)
{
	struct gb_tstate *ts = tstate(t);

	u32 waited_in = demand_leave(s, t);

	gb_track_curr(&s->scx.track_cpu[cpu], ts);
	gb_pull_hold_running(&ts->pull, waited_in, dom_of(s, (s32)cpu), now_ns(s));
	gb_preempt_note(&s->scx.track_cpu[cpu], ts, dom_of(s, (s32)cpu), s->m->nr_domains,
			s->scx.dom_vtime, SIM_SCX_SLICE_NS, sim_cpu_perf(s, cpu));
}

/* ops.stopping */
static void gearbox_stopping(struct sim *s, struct sim_task *t, u32 cpu)
{
	t->x.woken = false;
	gearbox_account(s, t, cpu);
	if (dom_of(s, (s32)cpu) < s->m->nr_domains)
		gb_queue_start(tstate(t), dom_of(s, (s32)cpu), s->m->nr_domains, s->scx.dom_vtime);
	gb_track_stop(&s->scx.track_cpu[cpu]);
}

/* ops.tick: the misfit check; a misfit gets its slice cut and is re-queued at its target. */
static void gearbox_tick(struct sim *s, struct sim_task *t, u32 cpu)
{
	struct gb_decision dec = {.cpu = GB_NO_CPU, .reason = GB_REASON_NONE};
	struct gb_tstate *ts;
	struct gb_task gt;
	s32 to;

	gearbox_account(s, t, cpu);
	ts = tstate(t);
	gb_track_curr(&s->scx.track_cpu[cpu], ts);
	if (gb_hold_pending(&ts->hold))
		return;
	sim_refresh(s);
	gb_track_task(ts, (s32)cpu, &t->allowed, &gt);
	to = gb_check_misfit(s->m, s->gcpu, &gt, cpu, gb_track_ran_us(ts, now_ns(s)),
			     s->opt.push_after_us, &s->scratch, &dec);
	if (to < 0 || to == (s32)cpu || !allowed(t, to))
		return;
	gb_hold_moved(&ts->hold, &gt, to, dec.reason, sim_cpu_capacity(s, cpu));
	t->x.slice_ns = 0;
	sim_trace_decision(s, t, (s32)cpu, to, dec.reason, dec.energy_delta);
}

/* ---- the kernel's scheduling path ---- */

/* update_curr_scx(): the running task's slice is charged for the time it ran. */
static void charge_slice(struct sim *s, struct sim_task *t)
{
	u64 ran = (s->now_us - t->x.slice_at_us) * 1000;

	t->x.slice_ns -= ran < t->x.slice_ns ? ran : t->x.slice_ns;
	t->x.slice_at_us = s->now_us;
}

static void run(struct sim *s, struct sim_task *t, u32 cpu)
{
	dsq_leave(t);
	if (!t->x.slice_ns)
		t->x.slice_ns = SIM_SCX_SLICE_DFL_NS;
	t->x.slice_at_us = s->now_us;
	s->scx.idle[cpu] = false;
	sim_start_running(s, t, cpu);
	gearbox_running(s, t, cpu);
}

/* put_prev_task_scx() for a runnable prev that gives way (enq_flags SCX_ENQ_LAST when the
 * CPU goes idle after it) */
static void put_prev(struct sim *s, struct sim_task *prev, u32 cpu, u32 enq_flags)
{
	gearbox_stopping(s, prev, cpu);
	prev->last_ran_us = s->now_us;
	prev->ran_once = 1;
	if (prev->x.slice_ns) {
		insert_local(s, prev, cpu, prev->x.slice_ns, SCX_ENQ_HEAD);
		return;
	}
	prev->state = TS_QUEUED;
	gearbox_enqueue(s, prev, enq_flags, (s32)cpu);
}

/*
 * __schedule() on cpu: prev is the fair task running there, still runnable, or NULL (the CPU
 * is idle, or its task left).  balance_one() then pick_task_scx().
 */
static void schedule(struct sim *s, u32 cpu)
{
	s32 cur = s->cpus[cpu].curr;
	struct sim_task *prev = NULL, *next;
	bool keep = false;

	if (cur >= 0 && s->tasks[cur].rt)
		return; /* the RT class runs first; it has its own queues */
	s->scx.depth++;
	s->scx.sched_cpu = (s32)cpu;
	if (cur >= 0) {
		prev = &s->tasks[cur];
		charge_slice(s, prev);
		if (prev->x.slice_ns) {
			s->scx.sched_cpu = -1;
			s->scx.depth--;
			return; /* SCX_RQ_BAL_KEEP: it has slice left */
		}
	}
	next = dsq_first(s, SIM_DSQ_LOCAL, (s32)cpu);
	if (!next && cpu_online(s, (s32)cpu) && move_to_local(s, SIM_DSQ_GLOBAL, cpu))
		next = dsq_first(s, SIM_DSQ_LOCAL, (s32)cpu);
	for (u32 loop = 0; !next && cpu_online(s, (s32)cpu) && loop < SIM_SCX_MAX_LOOPS; loop++) {
		s64 before = s->scx.seq_tail;

		gearbox_dispatch(s, cpu, prev);
		if (prev && prev->x.slice_ns) {
			keep = true;
			break;
		}
		next = dsq_first(s, SIM_DSQ_LOCAL, (s32)cpu);
		if (!next && move_to_local(s, SIM_DSQ_GLOBAL, cpu))
			next = dsq_first(s, SIM_DSQ_LOCAL, (s32)cpu);
		if (s->scx.seq_tail == before)
			break; /* dispatch moved nothing */
	}
	if (keep) {
		s->scx.keeps++;
		if (!prev->x.slice_ns)
			prev->x.slice_ns = SIM_SCX_SLICE_DFL_NS;
		s->scx.sched_cpu = -1;
		s->scx.depth--;
		return;
	}
	if (prev) {
		if (next && !prev->yield_pending)
			prev->st.preemptions++;
		s->cpus[cpu].curr = -1;
		put_prev(s, prev, cpu, next ? 0 : SCX_ENQ_LAST);
		/* SCX_ENQ_LAST into the local DSQ: the CPU runs it on rather than going idle */
		if (!next)
			next = dsq_first(s, SIM_DSQ_LOCAL, (s32)cpu);
	}
	if (next) {
		run(s, next, cpu);
	} else {
		s->scx.idle[cpu] = true;
		if (!s->cpus[cpu].in_idle && cpu_online(s, (s32)cpu))
			sim_idle_enter(s, cpu);
	}
	s->scx.sched_cpu = -1;
	s->scx.depth--;
}

/* ---- the engine's entries ---- */

void sim_scx_init(struct sim *s)
{
	s->scx.on = true;
	s->scx.sched_cpu = -1;
	for (u32 c = 0; c < s->m->nr_cpus; c++)
		s->scx.idle[c] = cpu_online(s, (s32)c);
	for (u32 i = 0; i < s->nr_tasks; i++) {
		struct sim_task *t = &s->tasks[i];

		t->x.dsq = SIM_DSQ_NONE;
		t->x.weight = scx_weight(t->weight);
		gb_track_init(&t->x.ts);
		t->x.fresh = true;
	}
}

s32 sim_scx_select(struct sim *s, struct sim_task *t, bool fork)
{
	s32 prev = t->cpu >= 0 ? t->cpu : sim_first_allowed(s, t);

	if (fork) /* ops.enable */
		gb_track_enable(&t->x.ts, dom_of(s, prev), s->m->nr_domains, s->scx.dom_vtime);
	t->x.ddsp = false;
	/* select_task_rq(): the class is asked only when the task may run on several CPUs */
	if (nr_allowed(s, t) <= 1)
		return allowed(t, t->cpu) ? t->cpu : sim_first_allowed(s, t);
	return gearbox_select_cpu(s, t, prev, fork);
}

void sim_scx_enqueue_woken(struct sim *s, struct sim_task *t, u32 cpu)
{
	s->scx.depth++;
	if (t->x.ddsp) {
		t->x.ddsp = false;
		insert_local(s, t, cpu, t->x.slice_ns, 0);
	} else {
		gearbox_enqueue(s, t, SCX_ENQ_WAKEUP, -1);
	}
	/* wakeup_preempt(): the task's CPU, if idle, reschedules */
	if (s->cpus[cpu].curr < 0 && cpu_online(s, (s32)cpu))
		resched(s, cpu);
	s->scx.depth--;
	flush(s);
}

void sim_scx_pick(struct sim *s, u32 cpu)
{
	schedule(s, cpu);
	flush(s);
}

void sim_scx_preempted(struct sim *s, struct sim_task *t, u32 cpu)
{
	s->scx.depth++;
	charge_slice(s, t);
	put_prev(s, t, cpu, 0);
	s->scx.depth--;
}

void sim_scx_sleep(struct sim *s, struct sim_task *t, u32 cpu)
{
	charge_slice(s, t);
	gearbox_stopping(s, t, cpu);
	gb_track_sleep(&t->x.ts);
}

void sim_scx_yield(struct sim *s, struct sim_task *t, u32 cpu)
{
	t->x.slice_ns = 0;
	resched(s, cpu);
	flush(s);
}

void sim_scx_affinity(struct sim *s, struct sim_task *t, u32 cpu)
{
	s32 to = sim_first_allowed(s, t);

	s->scx.depth++;
	charge_slice(s, t);
	gearbox_stopping(s, t, cpu);
	gb_hold_drop(&t->x.ts.hold); /* ops.set_cpumask */
	t->last_ran_us = s->now_us;
	t->ran_once = 1;
	s->cpus[cpu].curr = -1;
	t->state = TS_QUEUED;
	sim_set_task_cpu(s, t, (u32)to);
	gearbox_enqueue(s, t, 0, (s32)cpu);
	if (s->cpus[to].curr < 0)
		resched(s, (u32)to);
	resched(s, cpu);
	s->scx.depth--;
	flush(s);
}

void sim_scx_tick(struct sim *s)
{
	for (u32 c = 0; c < s->m->nr_cpus; c++) {
		s32 cur = s->cpus[c].curr;
		struct sim_task *t;

		if (cur < 0 || s->tasks[cur].rt)
			continue;
		t = &s->tasks[cur];
		s->scx.depth++;
		charge_slice(s, t);
		gearbox_tick(s, t, c);
		if (!t->x.slice_ns)
			resched(s, c);
		s->scx.depth--;
		flush(s);
	}
}
