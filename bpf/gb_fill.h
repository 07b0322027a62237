/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * gb_fill.h - how scx_gearbox fills the core's structs (the contract of src/policy/gb_types.h)
 * from what it read of the kernel: pure functions over plain values, compiled into the BPF
 * object and natively, so that tests/sched/test_fill.c can feed them the state the simulator
 * fills its structs from and compare the two field by field.
 *
 * The BPF side reads (gb_task.bpf.h, gb_dsq.bpf.h, gb_idle.bpf.h: CO-RE reads, kfuncs, the
 * idle mask) into struct gb_ktask and plain words, then calls these; nothing here touches a
 * kernel type.
 */
#ifndef GEARBOX_GB_FILL_H
#define GEARBOX_GB_FILL_H

#include "gb_queue.h"
#include "gb_track.h"
#include "gearbox_abi.h"

/* What scx_gearbox reads of a task_struct for the core. */
struct gb_ktask {
	u64 cpus_bits;	     /* p->cpus_ptr->bits[0]: the CPUs it may run on (the object
			      * supports GB_SCX_MAX_CPUS <= 64 CPUs, all in the first word) */
	u64 custom_slice;    /* p->se.custom_slice: it set its own slice (0 when the kernel
			      * has no such field) */
	u64 slice_ns;	     /* p->se.slice: that slice */
	u32 weight;	     /* p->scx.weight: 100 for nice 0 (the cgroup weight scale) */
	u32 has_uclamp;	     /* the kernel tracks clamps (task_struct has uclamp_req) */
	u32 uclamp_req_min;  /* p->uclamp_req[UCLAMP_MIN].value, 0..1024 */
	u32 uclamp_req_max;  /* p->uclamp_req[UCLAMP_MAX].value, 0..1024 */
	u32 nr_cpus_allowed; /* p->nr_cpus_allowed */
	u32 pad;
};

/*
 * Per task, in task storage (the map gb_tasks): the core's state (gb_types.h) and what the
 * adapter needs to fill it.  Here rather than beside the map so that a native program knows the
 * layout: tests/sched/gb-sched-probe reads a task's entry by pidfd (its vtime and what it was
 * charged), checking the map's value size against sizeof(struct gb_task_ctx).
 */
struct gb_task_ctx {
	struct gb_tstate s;
	u64 exec_ns;	   /* p->se.sum_exec_runtime when its run time was last accounted */
	u64 vtime_charged; /* the vtime charged for its work since it entered the scheduler
			    * (gb_vtime_charge of every stretch gb_track_ran accounted), in
			    * weighted work ns: what moved s.vtime other than the credit limit
			    * and a change of domain */
	u32 woken;	   /* select_cpu did this wake-up's accounting (gb_wake) */
	s32 qdom;	   /* the domain whose gb_dom_queued counts it, or -1 */
	u32 fresh;	   /* forked and not yet placed: its first utilization is still to come */
	u32 pad;
};

/* The clamps as sched_setattr() set them; a kernel without uclamp reads as unclamped. */
static __always_inline void gb_fill_clamps(struct gb_tstate *ts, const struct gb_ktask *kt)
{
	ts->uclamp_min = kt->has_uclamp ? kt->uclamp_req_min : 0;
	ts->uclamp_max = kt->has_uclamp ? kt->uclamp_req_max : GB_UCLAMP_NONE_MAX;
}

/* The weight, and the task's own slice when it set one (0: the core's default). */
static __always_inline void gb_fill_sched(struct gb_tstate *ts, const struct gb_ktask *kt)
{
	ts->weight = kt->weight;
	ts->slice_ns = kt->custom_slice && kt->slice_ns ? kt->slice_ns : 0;
}

/* A cpumask (affinity, the idle CPUs) from the first word of the kernel's. */
static __always_inline void gb_fill_cpumask(struct em_cpumask *mask, u64 bits)
{
	u32 w;

	for (w = 0; w < EM_CPUMASK_WORDS; w++)
		mask->bits[w] = w == 0 ? bits : 0;
}

/*
 * The gb_task a decision about the task reads (gb_track_task), on prev_cpu (GB_NO_CPU for a
 * fork), affinity from kt; in performance mode every task is placed as if its uclamp_min were
 * 1024.  floor_cap stays 0 for the caller's hold (gb_hold_wake or gb_hold_floor).
 */
static __always_inline void gb_fill_task(struct gb_task *t, const struct gb_tstate *ts,
					 const struct gb_ktask *kt, s32 prev_cpu, u32 mode)
{
	gb_fill_cpumask(&t->allowed, kt->cpus_bits);
	gb_track_task(ts, prev_cpu, &t->allowed, t);
	if (mode == GB_MODE_PERFORMANCE)
		t->uclamp_min = EM_CAPACITY_SCALE;
}

/* A CPU as the kernel's idle mask (idle_bits, one bit per CPU) shows it. */
static __always_inline void gb_fill_cpu_idle(struct gb_cpu *c, u64 idle_bits, u32 cpu)
{
	gb_track_idle(c, cpu < 64 && ((idle_bits >> cpu) & 1));
}

/* What the host knows at an enqueue at now_ns: p on task_cpu, the enqueue's flags (wakeup:
 * SCX_ENQ_WAKEUP, last: SCX_ENQ_LAST), may it kick. */
static __always_inline void gb_fill_enq_in(struct gb_enq_in *in, const struct gb_ktask *kt,
					   s32 task_cpu, bool wakeup, bool last, bool may_kick,
					   u64 now_ns)
{
	in->task_cpu = task_cpu;
	in->wakeup = wakeup;
	in->pinned = kt->nr_cpus_allowed == 1;
	in->may_kick = may_kick;
	in->last = last;
	in->preempt = 0; /* the adapter sets its knob (gb_wake_preempt) */
	in->now_ns = now_ns;
	gb_fill_cpumask(&in->allowed, kt->cpus_bits);
}

/*
 * Domain queue head h for gb_dispatch_plan: the head task's state ts (NULL: the adapter keeps
 * none, read as a task of no size that has waited for ever), the CPU it last ran on, its key,
 * and its wait as of now_ns (gb_queue_waited_us).
 */
static __always_inline void gb_fill_head(struct gb_dsq_head *h, const struct gb_tstate *ts,
					 const struct gb_ktask *kt, s32 task_cpu, u64 deadline,
					 u64 now_ns, u32 mode)
{
	h->queued = 1;
	h->deadline = deadline;
	h->waited_us = ts ? gb_queue_waited_us(ts, now_ns) : ~0ull;
	if (!ts) {
		gb_fill_cpumask(&h->t.allowed, kt->cpus_bits);
		h->t.util = 0;
		h->t.util_est = 0;
		h->t.runnable = 0;
		h->t.uclamp_min = 0;
		h->t.uclamp_max = GB_UCLAMP_NONE_MAX;
		h->t.prev_cpu = task_cpu;
		h->t.floor_cap = 0;
		h->t.group = GB_GROUP_OFF;
		h->t.pull_held = 0;
		return;
	}
	gb_fill_task(&h->t, ts, kt, task_cpu, mode);
	h->t.floor_cap = gb_hold_floor(&ts->hold, &h->t);
}

/*
 * gb_cpuperf_due - is a call of scx_bpf_cpuperf_set() with target due for a CPU, *last being
 * what the CPU was last set to plus 1 (0: nothing yet since it came on- or offline)?  Only for
 * a new value, unless always; *last then becomes target's.  Not a fill, but the adapter's own
 * rule for the kfunc (gb_request_perf), kept here to be tested natively.
 */
static __always_inline bool gb_cpuperf_due(u32 *last, u32 target, bool always)
{
	if (!always && *last == target + 1)
		return false;
	*last = target + 1;
	return true;
}

/* A memo's OPP need when the walk did not compute it: equal to none */
#define GB_FREQ_OPP_UNKNOWN 0xffffffffu

/* Since the memo's walk no other CPU's inputs changed (the domain's count moved by this CPU's
 * own changes only) and the floor is the same: the target then still holds if this CPU's own
 * OPP need is the memo's (gb_freq_memo_holds). */
static __always_inline bool gb_freq_memo_quiet(const struct gb_freq_memo *fm, u64 gen, u32 floor)
{
	return fm->valid && gen - fm->gen == fm->own && floor == fm->floor;
}

/* ... and this CPU's own OPP need, opp, is the memo's. */
static __always_inline bool gb_freq_memo_holds(const struct gb_freq_memo *fm, u32 opp)
{
	return opp != GB_FREQ_OPP_UNKNOWN && opp == fm->opp;
}

/* A walk made with the domain's count at gen (read before any input), the CPU's own OPP need
 * opp (GB_FREQ_OPP_UNKNOWN: not computed) and the floor. */
static __always_inline void gb_freq_memo_set(struct gb_freq_memo *fm, u64 gen, u32 opp, u32 floor,
					     bool valid)
{
	fm->gen = gen;
	fm->own = 0;
	fm->opp = opp;
	fm->floor = floor;
	fm->valid = valid;
}

#endif /* GEARBOX_GB_FILL_H */
