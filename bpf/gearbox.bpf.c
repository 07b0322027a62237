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
 * with at most one slice of credit (src/policy/gb_vtime.h).
 *
 * Dispatch.  A CPU takes work from its own domain's queue.  At slice expiry the kernel asks
 * before it re-enqueues the running task, so that task is compared with the head of the queue
 * and keeps the CPU for another slice while its deadline is earlier (else two hogs would just
 * alternate, whatever their weights).  A CPU pulls the head of another domain's queue when that
 * domain is over-utilized and the head fits the CPU as placement would see it (so a pull never
 * undoes a capacity-misfit move), or when the queue has not been served for gb_pull_after_ns:
 * never stalling a task comes before saving energy.
 *
 * Every one of these decisions is the core's (src/policy/gb_queue.h, gb_track.h, gb_hold.h: the
 * call order is at the top of gb_queue.h): the callbacks read kernel state, fill the core's
 * structs, call it and apply the answer (a DSQ insert or move, a slice, a kick, a cpuperf
 * request, a ring-buffer record).
 *
 * Tracking.  The wake-up (select_cpu, or enqueue when the kernel did not ask), stopping and the
 * tick feed per-task and per-CPU PELT signals (gb_pelt.h); there is no running, runnable or
 * quiescent callback, each would be one more BPF call on every wake-up: the run time comes from
 * the kernel's own account (se.sum_exec_runtime, updated before stopping, tick and dispatch
 * call us), and what running would note about the CPU (its task, the task's clamps) is noted
 * where the task is given the CPU (select_cpu's direct dispatch) and at every tick.  The tick
 * requests each domain's perf target (scx_bpf_cpuperf_set) and checks the running task for
 * capacity or power misfit; a misfit task gets its slice cut and is re-queued on the target
 * domain, whose CPU is kicked.
 *
 * The model is read-only data filled by the loader: the verifier then knows the topology and
 * checks the policy's loops over the model's real CPUs and OPPs (see bpf/gearbox_place.h).
 */
#include "gb_scx.bpf.h"
#include "gb_pelt.h"

#define GB_SUBPROG __attribute__((noinline))
#include "gearbox_place.h"      /* the policy, its steps routed through subprograms */
#define GB_ENOMEM 12

char _license[] SEC("license") = "GPL";

/* Filled by the loader before load. */
const volatile struct em_model gb_model;
const volatile u32 gb_has_cpufreq;          /* perf_cur from cpuperf_cur, else our request */
const volatile u64 gb_slice_ns = 5000000;
const volatile u64 gb_push_after_us = 8000; /* power misfit: run this long without waking */
const volatile u64 gb_pull_after_ns = 4000000;

/* The mode and its per-domain frequency floor: set by the loader before load, and changed by it
 * while loaded when it follows the platform's power profile (--mode auto). */
volatile u32 gb_mode;
volatile u32 gb_perf_floor[EM_MAX_DOMAINS];

/* The policy's view of the CPUs, and what the loader samples. */
struct gb_cpu gb_cpus[EM_MAX_CPUS];
struct gb_pelt gb_cpu_pelt[EM_MAX_CPUS];
struct gb_cpu_curr gb_curr[EM_MAX_CPUS];
struct gb_dom_state gb_doms[EM_MAX_DOMAINS];
u64 gb_dom_vtime[EM_MAX_DOMAINS];          /* each domain's virtual clock, see gb_vtime.h */
/*
 * Tasks enqueued for domain d that have not run since: never fewer than its queue holds
 * (counted at enqueue, before the kernel inserts the task, and uncounted when the task stops
 * running, long after it left), so a CPU going idle skips the queues whose count is zero -- a
 * DSQ lookup is a hash-table search in the kernel, and dispatch on an idle machine made three.
 * The count may exceed the queue (a task running now, or one that left the scheduler while
 * queued): that costs a lookup, never a stranded task.  Per task, gb_task_ctx.qdom says where
 * it is counted.
 */
s64 gb_dom_queued[EM_MAX_DOMAINS];
/* Every CPU of the machine (also beyond the model): 1 from its cpu_online to its cpu_offline,
 * when it may kick (gb_may_kick).  The loader sets the CPUs online at load. */
u8 gb_cpu_up[EM_MAX_CPUS];
u32 gb_stream_readers;                      /* set by the loader: no readers, no records */
GB_SCX_EXIT_INFO;

/* The model through a pointer the compiler cannot see through: it must load, not fold. */
static __always_inline const struct em_model *gb_m(void)
{
	const struct em_model *m = (const struct em_model *)&gb_model;

	asm volatile("" : "+r"(m));
	return m;
}

/* Per task: the core's state (gb_types.h) and what the adapter needs to fill it. */
struct gb_task_ctx {
	struct gb_tstate s;
	u64 exec_ns;            /* p->se.sum_exec_runtime when its run time was last accounted */
	u32 woken;              /* select_cpu did this wake-up's accounting (gb_wake) */
	s32 qdom;               /* the domain whose gb_dom_queued counts it, or -1 */
};

struct {
	__uint(type, BPF_MAP_TYPE_TASK_STORAGE);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__type(key, int);
	__type(value, struct gb_task_ctx);
} gb_tasks SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, u32);
	__type(value, struct gb_place_ctx);
} gb_place SEC(".maps");

/* dispatch's view of the domain queues (gb_dispatch_plan): too big for the stack */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, u32);
	__type(value, struct gb_disp_in);
} gb_disp SEC(".maps");

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, GB_NR_STATS);
	__type(key, u32);
	__type(value, u64);
} gb_stats SEC(".maps");

#define GB_RB_BYTES      (256 * 1024)
#define GB_RB_WAKE_BYTES (GB_RB_BYTES / 2)

struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, GB_RB_BYTES);
} gb_events SEC(".maps");

static __always_inline struct gb_place_ctx *gb_place_ctx(void)
{
	u32 k = 0;

	return bpf_map_lookup_elem(&gb_place, &k);
}

#define GB_PLACE_MODEL() gb_m()
#define GB_PLACE_CPUS gb_cpus
#define GB_PLACE_CTX() gb_place_ctx()
#define GB_PLACE_BODIES
#include "gearbox_place.h"

static __always_inline void gb_stat(u32 idx)
{
	u64 *v = bpf_map_lookup_elem(&gb_stats, &idx);

	if (v)
		(*v)++;
}

static __always_inline u64 gb_now_us(void)
{
	return scx_bpf_now() / 1000;
}

static __always_inline u32 gb_cpu_dom(s32 cpu)
{
	if (cpu < 0 || cpu >= GB_SCX_MAX_CPUS)
		return 0xff;
	return gb_m()->cpu_domain[cpu & (EM_MAX_CPUS - 1)];
}

/*
 * cpu in a cpumask, read from the mask's first word: every CPU the object supports is there,
 * and a load costs a fraction of a kfunc call (bpf_cpumask_test_cpu; a wake-up made five).
 */
_Static_assert(GB_SCX_MAX_CPUS <= 64, "gb_mask_test reads one word of a cpumask");
static __always_inline bool gb_bit(u64 word, s32 cpu)
{
	return cpu >= 0 && cpu < GB_SCX_MAX_CPUS && ((word >> cpu) & 1);
}

static __always_inline bool gb_mask_test(const struct cpumask *mask, s32 cpu)
{
	return gb_bit(mask->bits[0], cpu);
}

static __always_inline struct gb_task_ctx *gb_tctx(struct task_struct *p)
{
	return bpf_task_storage_get(&gb_tasks, p, 0, 0);
}

/* uclamp as sched_setattr() set it (CO-RE: the field is absent without CONFIG_UCLAMP_TASK). */
static __always_inline void gb_read_uclamp(struct task_struct *p, struct gb_task_ctx *tc)
{
	struct uclamp_se *uc;

	tc->s.uclamp_min = 0;
	tc->s.uclamp_max = GB_UCLAMP_NONE_MAX;
	if (!bpf_core_field_exists(p->uclamp_req))
		return;
	uc = &p->uclamp_req[UCLAMP_MIN];
	tc->s.uclamp_min = BPF_CORE_READ_BITFIELD(uc, value);
	uc = &p->uclamp_req[UCLAMP_MAX];
	tc->s.uclamp_max = BPF_CORE_READ_BITFIELD(uc, value);
}

/*
 * The fields of the core's task state that mirror the kernel's: the weight, and the slice the
 * task set with sched_setattr() (0: none, the core gives it gb_slice_ns).
 */
static __always_inline void gb_fill_tstate(struct task_struct *p, struct gb_task_ctx *tc)
{
	tc->s.weight = p->scx.weight;
	tc->s.slice_ns = 0;
	if (bpf_core_field_exists(p->se.custom_slice) && p->se.custom_slice && p->se.slice)
		tc->s.slice_ns = p->se.slice;
}

/* p's affinity as the core reads it (one word: see gb_mask_test). */
static __always_inline void gb_fill_allowed(struct task_struct *p, struct em_cpumask *allowed)
{
	const struct cpumask *mask = p->cpus_ptr;
	u32 w;

	for (w = 0; w < EM_CPUMASK_WORDS; w++)
		allowed->bits[w] = w * 64 < GB_SCX_MAX_CPUS ? mask->bits[w] : 0;
}

/* The perf a CPU runs at now: measured when there is cpufreq, else the OPP we asked for. */
static __always_inline u32 gb_perf_now(s32 cpu)
{
	u32 d = gb_cpu_dom(cpu);

	if (d >= GB_SCX_MAX_DOMAINS)
		return EM_CAPACITY_SCALE;
	if (gb_has_cpufreq)
		return em_domain_capacity(gb_pd(gb_m(), d)) * scx_bpf_cpuperf_cur(cpu) >> 10;
	return gb_doms[d].perf_target;
}

static __always_inline void gb_emit(struct task_struct *p, struct gb_task_ctx *tc, s32 from,
				    const struct gb_decision *dec)
{
	struct gb_event *e;

	/* the loader would only drop it: a record costs a reservation and a copy of comm */
	if (!*(volatile u32 *)&gb_stream_readers)
		return;
	e = bpf_ringbuf_reserve(&gb_events, sizeof(*e), 0);
	if (!e) {
		gb_stat(GB_STAT_EVENTS_LOST);
		return;
	}
	e->t_ns = scx_bpf_now();
	e->pid = p->pid;
	e->from = from;
	e->to = dec->cpu;
	e->reason = dec->reason;
	e->energy_delta = dec->energy_delta;
	e->util = gb_task_util_est(&tc->s.pelt);
	e->uclamp_min = tc->s.uclamp_min;
	e->uclamp_max = tc->s.uclamp_max;
	e->opp_idx = dec->opp_idx;
	e->prev_opp_idx = dec->prev_opp_idx;
	e->pad = 0;
	bpf_probe_read_kernel_str(e->comm, sizeof(e->comm), p->comm);
	/*
	 * No wake-up per record: the loader polls the ring at every stats interval anyway, and a
	 * wake-up is an irq_work, whose pending state the ring's teardown spins on
	 * (ringbuf_map_free -> irq_work_sync): with one left pending on a CPU going offline the
	 * previous instance's teardown spun on that CPU and the hotplug never finished.  Only a
	 * ring more than half full wakes the loader, so that records are not lost.
	 */
	bpf_ringbuf_submit(e, bpf_ringbuf_query(&gb_events, BPF_RB_AVAIL_DATA) > GB_RB_WAKE_BYTES ?
				      BPF_RB_FORCE_WAKEUP : BPF_RB_NO_WAKEUP);
}

/* The policy's gb_task for p, in the placement context. */
static __always_inline struct gb_place_ctx *gb_fill_task(struct task_struct *p,
							 struct gb_task_ctx *tc, s32 prev_cpu)
{
	struct gb_place_ctx *x = gb_place_ctx();

	if (!x)
		return NULL;
	gb_fill_allowed(p, &x->t.allowed);
	gb_track_task(&tc->s, prev_cpu, &x->t.allowed, &x->t);
	if (gb_mode == GB_MODE_PERFORMANCE)
		x->t.uclamp_min = EM_CAPACITY_SCALE;
	x->min_cap = 0;
	x->max_cap = 0;
	return x;
}

/* An idle CPU's utilization as of now_us (gb_track_idle_decay), once per GB_IDLE_DECAY_US. */
u64 gb_idle_decay_us[EM_MAX_CPUS];          /* when gb_idle_decay last ran for the CPU */

GB_SUBPROG int gb_idle_decay(u32 c, u64 now_us)
{
	if (c >= EM_MAX_CPUS)
		return 0;
	gb_track_idle_decay(&gb_cpu_pelt[c], &gb_cpus[c], &gb_idle_decay_us[c], now_us);
	return 0;
}

/* The kernel's idle mask, as a word (see gb_mask_test). */
static __always_inline u64 gb_idle_bits(void)
{
	const struct cpumask *idle = scx_bpf_get_idle_cpumask();
	u64 bits = idle->bits[0];

	scx_bpf_put_idle_cpumask(idle);
	return bits;
}

#define GB_ALL_DOMAINS 0xffffffffu

/*
 * Idle state from the kernel's idle mask (idle_bits): the one thing the policy must not guess.
 * For the CPUs of domain `only`, or of every domain but `skip` (GB_ALL_DOMAINS: none skipped),
 * so that the wake-up shortcut, which reads its own domain only, refreshes only that.
 */
static __always_inline void gb_refresh_idle(u64 idle_bits, u64 now_us, u32 only, u32 skip)
{
	u32 c, nr = gb_m()->nr_cpus;

	for (c = 0; c < GB_SCX_MAX_CPUS; c++) {
		struct gb_cpu *cs = &gb_cpus[c];
		u32 d;

		if (c >= nr)
			break;
		d = gb_m()->cpu_domain[c];
		if ((only != GB_ALL_DOMAINS && d != only) || d == skip)
			continue;
		gb_track_idle(cs, gb_bit(idle_bits, (s32)c));
		if (cs->idle)
			gb_idle_decay(c, now_us);
	}
}

/*
 * What running would note, at the places p is known to hold cpu: select_cpu's direct dispatches
 * and each tick.  The CPU's clamps (those of its current task) feed the tick's perf request
 * and the pricing of the CPU; its task's pid is what the loader samples.
 */
static __always_inline void gb_note_curr(struct task_struct *p, struct gb_task_ctx *tc, s32 cpu)
{
	u32 c = (u32)cpu & (EM_MAX_CPUS - 1);

	gb_track_curr(&gb_cpus[c], &tc->s);
	gb_curr[c].pid = p->pid;
}

/*
 * p wakes up: what runnable would do, done by select_cpu (or enqueue, for the wake-ups the kernel
 * places without asking: a task allowed on one CPU) -- a callback less on every wake-up.  Its
 * utilization decays over the sleep, the tick's "ran without waking" clock restarts, and a
 * sleeper wakes with at most one slice of credit (also when it goes straight to an idle CPU
 * and never reaches enqueue).
 */
static __always_inline void gb_wake(struct task_struct *p, struct gb_task_ctx *tc, u64 now)
{
	gb_fill_tstate(p, tc);
	gb_track_wake(&tc->s, now, gb_m()->nr_domains, gb_dom_vtime, gb_slice_ns);
}

s32 BPF_STRUCT_OPS(gearbox_select_cpu, struct task_struct *p, s32 prev_cpu, u64 wake_flags)
{
	struct gb_task_ctx *tc = gb_tctx(p);
	struct gb_decision dec = { .cpu = GB_NO_CPU };
	struct gb_place_ctx *x;
	bool is_idle = false;
	s32 cpu = GB_NO_CPU, from;

	gb_stat(GB_STAT_SELECT);
	if (tc) {
		u64 idle_bits = gb_idle_bits(), now = scx_bpf_now();
		u32 pd = gb_cpu_dom(from = (wake_flags & SCX_WAKE_FORK) ? GB_NO_CPU : prev_cpu);

		gb_wake(p, tc, now);
		tc->woken = 1;
		gb_read_uclamp(p, tc);
		gb_hold_drop(&tc->s.hold);
		/* the shortcut reads the previous CPU's domain only: refresh that first */
		gb_refresh_idle(idle_bits, now / 1000, pd, GB_ALL_DOMAINS);
		x = gb_fill_task(p, tc, from);
		if (x) {
			x->t.floor_cap = gb_hold_wake(&tc->s.hold, &x->t);
			/* the common case, an idle previous CPU nothing can beat, without the search */
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
		if (is_idle) {
			gb_stat(GB_STAT_DIRECT);
			scx_bpf_dsq_insert(p, SCX_DSQ_LOCAL, gb_slice_ns, 0);
			if (tc)
				gb_note_curr(p, tc, cpu);
		}
		return cpu;
	}
	if (scx_bpf_test_and_clear_cpu_idle(cpu)) {
		gb_stat(GB_STAT_DIRECT);
		scx_bpf_dsq_insert(p, SCX_DSQ_LOCAL, tc ? gb_queue_slice(&tc->s, gb_slice_ns) : gb_slice_ns,
				   0);
		if (tc)
			gb_note_curr(p, tc, cpu);
	}
	if (tc && dec.reason != GB_REASON_NONE)
		gb_emit(p, tc, wake_flags & SCX_WAKE_FORK ? -1 : prev_cpu, &dec);
	return cpu;
}

/*
 * May this CPU kick another?  scx_bpf_kick_cpu() queues an irq_work on the calling CPU, and
 * enqueue still runs on a CPU going offline after its last irq_work flush (smpcfd_dying_cpu).
 * An irq_work queued then never runs and stays on the CPU's list, pending: when the CPU is back
 * its kicks are dropped, and every later irq_work queued there (an RCU or SRCU wake-up,
 * sched_ext's disable, a ring buffer's wake-up) finds the list not empty, raises no interrupt
 * and waits until the CPU's next offline -- the hotplug wedge of docs/scheduler.md.  So no
 * kick from a CPU from its cpu_offline to its cpu_online (counter `nokick`); a task queued
 * then has the kernel's own resched of its run queue's CPU (wakeup_preempt: an idle CPU
 * runs dispatch), so it is queued in that CPU's domain.
 */
static __always_inline bool gb_may_kick(void)
{
	s32 self = bpf_get_smp_processor_id();

	if (self >= 0 && self < GB_SCX_MAX_CPUS && gb_cpu_up[(u32)self & (EM_MAX_CPUS - 1)])
		return true;
	gb_stat(GB_STAT_NOKICK);
	return false;
}

/*
 * p was queued on domain d for cpu: wake cpu if it is idle, else another idle CPU of d that p
 * may use.  Only d's CPUs take from d's queue at once, and an idle CPU takes nothing until it
 * is woken: kicking cpu alone left the task waiting while cpu ran something else -- for a long
 * time when that was an RT task, or cpu was going offline -- with its domain's other CPUs idle.
 */
static __always_inline void gb_kick_domain(struct task_struct *p, s32 cpu, u32 d)
{
	s32 self = bpf_get_smp_processor_id();
	const struct cpumask *idle;
	u64 idle_bits;
	u32 c, nr = gb_m()->nr_cpus;

	/* a task pinned to the CPU running this: the wake-up reschedules it if it is idle (the
	 * kernel's wakeup_preempt), else it dispatches before it runs anything else */
	if (p->nr_cpus_allowed == 1 && cpu == self)
		return;
	idle = scx_bpf_get_idle_cpumask();
	idle_bits = idle->bits[0];
	scx_bpf_put_idle_cpumask(idle);
	if (!gb_bit(idle_bits, cpu)) {
		for (c = 0; c < GB_SCX_MAX_CPUS; c++) {
			if (c >= nr)
				break;
			if (gb_cpu_dom(c) == d && c != (u32)cpu && gb_bit(idle_bits, (s32)c) &&
			    gb_mask_test(p->cpus_ptr, (s32)c)) {
				cpu = c;
				break;
			}
		}
		if (cpu == self)
			return;
	}
	scx_bpf_kick_cpu(cpu, SCX_KICK_IDLE);
}

/* Is domain d's queue surely empty (see gb_dom_queued)? */
static __always_inline bool gb_known_empty(u32 d)
{
	return *(volatile s64 *)&gb_dom_queued[d & (EM_MAX_DOMAINS - 1)] <= 0;
}

/* Count tc as queued for domain d (d < 0: as not queued), see gb_dom_queued. */
static __always_inline void gb_count_queued(struct gb_task_ctx *tc, s32 d)
{
	if (tc->qdom == d)
		return;
	if (tc->qdom >= 0)
		__sync_fetch_and_add(&gb_dom_queued[tc->qdom & (EM_MAX_DOMAINS - 1)], -1);
	if (d >= 0)
		__sync_fetch_and_add(&gb_dom_queued[d & (EM_MAX_DOMAINS - 1)], 1);
	tc->qdom = d;
}

void BPF_STRUCT_OPS(gearbox_enqueue, struct task_struct *p, u64 enq_flags)
{
	struct gb_task_ctx *tc = gb_tctx(p);
	struct gb_enq_in in = {};
	struct gb_enq_out out;

	gb_stat(GB_STAT_ENQUEUE);
	if (tc) {
		if ((enq_flags & SCX_ENQ_WAKEUP) && !tc->woken)
			gb_wake(p, tc, scx_bpf_now());
		tc->woken = 0;
		/* also re-enqueues without a wake-up: sched_setattr() dequeues and enqueues a task
		 * to change its clamps, and there is no running callback to read them at */
		gb_read_uclamp(p, tc);
		gb_fill_tstate(p, tc);
	}
	in.task_cpu = scx_bpf_task_cpu(p);
	in.wakeup = !!(enq_flags & SCX_ENQ_WAKEUP);
	in.pinned = p->nr_cpus_allowed == 1;
	in.may_kick = gb_may_kick();
	gb_fill_allowed(p, &in.allowed);
	gb_enqueue_plan(gb_m(), gb_cpus, gb_dom_vtime, gb_slice_ns, tc ? &tc->s : NULL, &in, &out);
	if (out.queue == GB_QUEUE_GLOBAL || !tc) {
		scx_bpf_dsq_insert(p, SCX_DSQ_GLOBAL, out.slice_ns, enq_flags);
		if (in.may_kick)
			scx_bpf_kick_cpu(out.cpu, SCX_KICK_IDLE);
		return;
	}
	/* the queue's emptiness only where the shortcut asks: a DSQ lookup is a hash search */
	if (out.local_if_empty &&
	    gb_enqueue_take_local(&out, gb_known_empty(out.dom) ||
					    scx_bpf_dsq_nr_queued(out.dom) == 0)) {
		/* no kick: a task put on an idle CPU's local queue makes it reschedule */
		gb_stat(GB_STAT_LOCAL);
		scx_bpf_dsq_insert(p, SCX_DSQ_LOCAL, out.slice_ns, enq_flags);
		return;
	}
	gb_count_queued(tc, (s32)out.dom);
	scx_bpf_dsq_insert_vtime(p, out.dom, out.slice_ns, out.deadline, enq_flags);
	if (in.may_kick)
		gb_kick_domain(p, out.cpu, out.dom);
}

/*
 * Account the time p ran on cpu since it was last accounted (by stopping, a tick or dispatch)
 * at the CPU's perf (gb_track_ran).  The kernel counted it (se.sum_exec_runtime, brought up to
 * date before each of those callbacks).
 */
static __always_inline void gb_account(struct task_struct *p, struct gb_task_ctx *tc, s32 cpu)
{
	u32 c = (u32)cpu & (EM_MAX_CPUS - 1);
	u64 exec = p->se.sum_exec_runtime, ran_ns = exec - tc->exec_ns;

	tc->exec_ns = exec;
	tc->s.weight = p->scx.weight;
	gb_track_ran(&tc->s, &gb_cpu_pelt[c], &gb_cpus[c], scx_bpf_now(), ran_ns, gb_perf_now(cpu));
}

/*
 * Domain d's queue for gb_dispatch_plan: its head (the task dispatch would take), that task as
 * placement reads it, and how long the queue has gone unserved.  Queues surely empty (see
 * gb_dom_queued) are not looked up.
 */
static __always_inline void gb_fill_head(struct gb_dsq_head *h, u32 d, u64 now)
{
	struct task_struct *head;
	struct gb_task_ctx *htc;

	h->queued = 0;
	if (gb_known_empty(d))
		return;
	head = scx_bpf_dsq_peek(d);
	if (!head)
		return;
	h->queued = 1;
	h->deadline = head->scx.dsq_vtime;
	h->unserved_us = (now - gb_doms[d & (EM_MAX_DOMAINS - 1)].last_consume_ns) / 1000;
	gb_fill_allowed(head, &h->t.allowed);
	htc = gb_tctx(head);
	if (!htc) {
		/* no state (init_task made it, so never): a task of no size, no clamps */
		h->t.util = 0;
		h->t.util_est = 0;
		h->t.runnable = 0;
		h->t.uclamp_min = 0;
		h->t.uclamp_max = GB_UCLAMP_NONE_MAX;
		h->t.prev_cpu = GB_NO_CPU;
		h->t.floor_cap = 0;
		return;
	}
	gb_track_task(&htc->s, scx_bpf_task_cpu(head), &h->t.allowed, &h->t);
	if (gb_mode == GB_MODE_PERFORMANCE)
		h->t.uclamp_min = EM_CAPACITY_SCALE;
	h->t.floor_cap = gb_hold_floor(&htc->s.hold, &h->t);
}

static __always_inline struct gb_disp_in *gb_disp_ctx(void)
{
	u32 k = 0;

	return bpf_map_lookup_elem(&gb_disp, &k);
}

/* prev (state ptc) runs another slice on cpu of domain self. */
static __always_inline void gb_keep_prev(struct task_struct *prev, struct gb_task_ctx *ptc,
					 u32 self, u64 slice_ns)
{
	gb_queue_start(&ptc->s, self, gb_m()->nr_domains, gb_dom_vtime);
	scx_bpf_task_set_slice(prev, slice_ns);
}

void BPF_STRUCT_OPS(gearbox_dispatch, s32 cpu, struct task_struct *prev)
{
	u32 self = gb_cpu_dom(cpu), d, nr = gb_m()->nr_domains;
	struct gb_task_ctx *ptc = NULL;
	struct gb_disp_out out;
	struct gb_disp_in *in;
	bool prev_runnable;
	u64 now = scx_bpf_now();

	prev_runnable = prev && (prev->scx.flags & SCX_TASK_QUEUED) &&
			bpf_cpumask_test_cpu(cpu, prev->cpus_ptr);
	if (prev_runnable)
		ptc = gb_tctx(prev);
	if (ptc) {
		gb_fill_tstate(prev, ptc);
		if (gb_dispatch_prev_ok(gb_m(), gb_cpus, cpu, &ptc->s, true))
			gb_account(prev, ptc, cpu);
	}
	in = gb_disp_ctx();
	if (!in)
		return;
	in->cpu = cpu;
	in->prev_runnable = prev_runnable;
	for (d = 0; d < GB_SCX_MAX_DOMAINS; d++) {
		if (d >= nr)
			break;
		gb_fill_head(&in->heads[d], d, now);
		/* a pull asks whether the head fits this CPU: its utilization as of now */
		if (d != self && in->heads[d].queued)
			gb_idle_decay((u32)cpu, now / 1000);
	}
	gb_dispatch_plan(gb_m(), gb_cpus, gb_dom_vtime, gb_slice_ns, gb_pull_after_ns / 1000, in,
			 ptc ? &ptc->s : NULL, &out);
	if (out.act == GB_DISPATCH_KEEP_PREV && ptc) {
		/* the queue waits behind it: another slice, and the clock moves on */
		gb_keep_prev(prev, ptc, self, out.slice_ns);
		return;
	}
	if (out.act == GB_DISPATCH_CONSUME) {
		if (self < nr && (out.try_mask >> self & 1) && scx_bpf_dsq_move_to_local(self)) {
			gb_doms[self & (EM_MAX_DOMAINS - 1)].last_consume_ns = now;
			return;
		}
		for (d = 0; d < GB_SCX_MAX_DOMAINS; d++) {
			if (d >= nr)
				break;
			if (d == self || !(out.try_mask >> d & 1))
				continue;
			if (scx_bpf_dsq_move_to_local(d)) {
				gb_doms[d].last_consume_ns = now;
				gb_stat(GB_STAT_PULL);
				return;
			}
		}
	}
	/* nothing else to run here: prev goes on, with our slice rather than the kernel's */
	if (out.fallback == GB_DISPATCH_KEEP_PREV && ptc)
		gb_keep_prev(prev, ptc, self, out.slice_ns);
}

void BPF_STRUCT_OPS(gearbox_stopping, struct task_struct *p, bool runnable)
{
	struct gb_task_ctx *tc = gb_tctx(p);
	s32 cpu = scx_bpf_task_cpu(p);

	if (!tc)
		return;
	/* what running did at the start of this run: the wake-up is over (see gb_wake), the task
	 * left its domain's queue (counted until now: more than the queue holds, which is safe,
	 * see gb_dom_queued), and its domain's clock reaches its vtime */
	tc->woken = 0;
	gb_count_queued(tc, -1);
	if (gb_cpu_dom(cpu) < gb_m()->nr_domains)
		gb_queue_start(&tc->s, gb_cpu_dom(cpu), gb_m()->nr_domains, gb_dom_vtime);
	gb_account(p, tc, cpu);
	gb_curr[(u32)cpu & (EM_MAX_CPUS - 1)].pid = 0;
	/* it goes to sleep (what quiescent would say, a callback later): util_est's sample.  Also
	 * when a running task is dequeued to be changed (sched_setattr), which is rare. */
	if (!runnable)
		gb_track_sleep(&tc->s);
}

/* The perf target of domain d (with the mode's floor), requested for cpu. */
GB_SUBPROG int gb_request_perf(u32 d, s32 cpu)
{
	u32 idx = 0, perf, k, nr = gb_m()->nr_domains;

	/* with d a constant the verifier knows the domain's OPPs (read-only data); with d
	 * unknown the OPP search forks beyond its budget.  So: find the constant equal to d
	 * (the empty asm keeps clang from turning the search back into d). */
	for (k = 0; k < GB_SCX_MAX_DOMAINS; k++) {
		asm volatile("" : "+r"(k));
		if (k >= nr || k >= GB_SCX_MAX_DOMAINS)
			return 0;
		if (k == d)
			break;
	}
	if (k >= GB_SCX_MAX_DOMAINS)
		return 0;
	d = k;
	perf = gb_domain_perf_target(gb_m(), gb_cpus, d, &idx);
	if (perf < gb_perf_floor[d])
		perf = gb_perf_floor[d];
	gb_doms[d].perf_target = perf;
	gb_doms[d].opp_idx = idx;
	gb_doms[d].overutilized = gb_domain_overutilized(gb_m(), gb_cpus, d);
	/* schedutil adds its 1.25 headroom to the target: ask for what lands on perf */
	scx_bpf_cpuperf_set(cpu, gb_cpuperf_for_schedutil(perf));
	return 0;
}

void BPF_STRUCT_OPS(gearbox_tick, struct task_struct *p)
{
	struct gb_task_ctx *tc = gb_tctx(p);
	s32 cpu = scx_bpf_task_cpu(p), to;
	struct gb_decision dec = { .cpu = GB_NO_CPU };
	struct gb_place_ctx *x;
	u64 ran_us;

	if (!tc)
		return;
	gb_account(p, tc, cpu);
	gb_read_uclamp(p, tc);
	gb_note_curr(p, tc, cpu);
	gb_request_perf(gb_cpu_dom(cpu), cpu);
	if (gb_hold_pending(&tc->s.hold))
		return;
	ran_us = gb_track_ran_us(&tc->s, scx_bpf_now());
	x = gb_fill_task(p, tc, cpu);
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
	u32 d = gb_cpu_dom(scx_bpf_task_cpu(p));

	if (!tc)
		return;
	gb_track_enable(&tc->s, d, gb_m()->nr_domains, gb_dom_vtime);
	/* its run time counts from now (it may be running: stopping accounts from here) */
	tc->exec_ns = p->se.sum_exec_runtime;
}

/* p leaves sched_ext (another class, or exit): no longer counted as queued anywhere. */
void BPF_STRUCT_OPS(gearbox_disable, struct task_struct *p)
{
	struct gb_task_ctx *tc = gb_tctx(p);

	if (tc)
		gb_count_queued(tc, -1);
}

s32 BPF_STRUCT_OPS(gearbox_init_task, struct task_struct *p, struct scx_init_task_args *args)
{
	struct gb_task_ctx *tc;

	tc = bpf_task_storage_get(&gb_tasks, p, 0, BPF_LOCAL_STORAGE_GET_F_CREATE);
	if (!tc)
		return -GB_ENOMEM;
	gb_track_init(&tc->s);
	tc->qdom = -1;
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
	u32 c, nr = gb_m()->nr_cpus;

	gb_set_online(cpu, 0);
	for (c = 0; c < GB_SCX_MAX_CPUS; c++) {
		if (c >= nr)
			break;
		if ((s32)c != cpu && gb_cpus[c].online)
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

GB_SCX_OPS(gearbox_ops,
	   .select_cpu = (void *)gearbox_select_cpu,
	   .enqueue = (void *)gearbox_enqueue,
	   .dispatch = (void *)gearbox_dispatch,
	   .stopping = (void *)gearbox_stopping,
	   .tick = (void *)gearbox_tick,
	   .set_cpumask = (void *)gearbox_set_cpumask,
	   .enable = (void *)gearbox_enable,
	   .disable = (void *)gearbox_disable,
	   .init_task = (void *)gearbox_init_task,
	   .cpu_online = (void *)gearbox_cpu_online,
	   .cpu_offline = (void *)gearbox_cpu_offline,
	   .init = (void *)gearbox_init,
	   .exit = (void *)gearbox_exit,
	   .name = "gearbox");
