/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * sim_scx.h - the simulator's sched_ext host (sim_scx.c): the kernel's dispatch queues and call
 * order, with scx_gearbox's callbacks run on them.  State only; the functions are in
 * sim_internal.h.  Not exported.
 */
#ifndef GEARBOX_SIM_SCX_H
#define GEARBOX_SIM_SCX_H

#include <stdbool.h>

#include "gb_policy.h"
#include "gb_preempt.h"
#include "gb_queue.h"
#include "gb_track.h"

/* Where a task waits (sim_scx_task.dsq): none, the global DSQ, a CPU's local DSQ, or a user
 * DSQ (its id, >= 0: scx_gearbox creates one per domain, id = the domain's index). */
#define SIM_DSQ_NONE   (-1)
#define SIM_DSQ_GLOBAL (-2)
#define SIM_DSQ_LOCAL  (-3)

#define SIM_SCX_SLICE_NS 5000000ull /* scx_gearbox's gb_slice_ns */

/* What the kernel keeps per task (p->scx) and scx_gearbox per task (its gb_task_ctx). */
struct sim_scx_task {
	s32 dsq;	 /* SIM_DSQ_*, or the user DSQ it is in */
	s32 local_cpu;	 /* SIM_DSQ_LOCAL: whose */
	s64 seq;	 /* order of insertion: FIFO in local and global DSQs, and between
			  * equal keys of a user DSQ; SCX_ENQ_HEAD inserts get decreasing ones */
	u64 dsq_vtime;	 /* p->scx.dsq_vtime: its key in a user DSQ */
	u64 slice_ns;	 /* p->scx.slice */
	u64 slice_at_us; /* when its slice was last charged while it ran */
	bool ddsp;	 /* select_cpu inserted it into SCX_DSQ_LOCAL (direct dispatch) */
	bool misfit_enq; /* its last enqueue went to a misfit target: the next CPU change
			  * is a misfit move */
	u32 weight;	 /* p->scx.weight: 100 at nice 0 (sched_weight_to_cgroup) */
	u64 ran_ns;	 /* run time since scx_gearbox last accounted it */
	u64 perf_ns;	 /* the same, times the perf (0..1024) it ran at */
	/* scx_gearbox's task context: the core's state (gb_types.h), and whether select_cpu did
	 * this wake-up's accounting */
	struct gb_tstate ts;
	bool woken;
	bool fresh; /* not yet placed: its first utilization is still to be given (ops.init_task
		     * with args->fork under BPF) */
};

/* The host: the kernel's per-CPU state that sched_ext keeps, and scx_gearbox's globals. */
struct sim_scx {
	bool on;		       /* fair tasks run on this host */
	s64 seq_tail, seq_head;	       /* the next insertion orders (see sim_scx_task.seq) */
	u32 depth;		       /* > 0 inside a host call: reschedules are deferred */
	s32 sched_cpu;		       /* the CPU in schedule(), -1 if none */
	bool resched[EM_MAX_CPUS];     /* resched_curr() is pending on the CPU */
	bool idle[EM_MAX_CPUS];	       /* the kernel's idle mask (scx_bpf_get_idle_cpumask) */
	u64 dom_vtime[EM_MAX_DOMAINS]; /* scx_gearbox's gb_dom_vtime */
	u32 dom_qutil[EM_MAX_DOMAINS]; /* scx_gearbox's gb_dom_qutil: each domain's queued
					* demand (gb_demand.h) */
	u32 cpu_wutil[EM_MAX_CPUS];    /* scx_gearbox's gb_cpu.waiting_util: per CPU, the util
					* of the tasks that were on it when they joined a
					* domain's queue (gb_demand.h) */
	struct gb_pelt cpu_pelt[EM_MAX_CPUS]; /* scx_gearbox's per-CPU signals (gb_track_ran) */
	struct gb_cpu track_cpu[EM_MAX_CPUS]; /* each CPU as gb_track_ran, gb_track_curr
					       * and gb_track_stop leave it: its utilization
					       * and its running task's are copied into the
					       * policy's view (sim_refresh) */
	u64 decay_us[EM_MAX_CPUS];	      /* gb_track_idle_decay's last time per CPU */
	struct gb_disp_in disp_in;	      /* ops.dispatch's input, filled per call */
	u64 dispatches, keeps, kicks; /* ops.dispatch calls, prev kept, kicks that woke a CPU */
	u64 pulls;		      /* tasks dispatch took from another domain's DSQ */
	u64 misfit_undone;	      /* of those, pulls that undid a capacity-misfit move */
	u64 wake_preempts; /* CPUs kicked with SCX_KICK_PREEMPT for a waking task (gb_preempt.h) */
};

#endif /* GEARBOX_SIM_SCX_H */
