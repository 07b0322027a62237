/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * gearbox_abi.h - what bpf/gearbox.bpf.c and its loader (src/sched/) share: the ring-buffer
 * record, the per-domain state the loader samples, the per-CPU counters and the modes.  Plain
 * fixed-width structs with explicit padding, so that the BPF and the x86-64 layouts agree.
 */
#ifndef GEARBOX_ABI_H
#define GEARBOX_ABI_H

#include "em_types.h"

#define GB_COMM_LEN 16

/* What the BPF object is built for; the loader refuses a model beyond them.  The verifier's
 * budget is the real bound: see bpf/gearbox_place.h (gb_place_price_0 .. _31). */
#define GB_SCX_MAX_CPUS    32
#define GB_SCX_MAX_DOMAINS 16

enum gb_mode {
	GB_MODE_ENERGY,        /* the policy as written */
	GB_MODE_BALANCED,      /* the policy, frequency never below the domain's cheapest OPP */
	GB_MODE_PERFORMANCE,   /* every task placed as if uclamp_min were 1024; top OPPs */
};

/* One placement that moved a task (ring buffer). */
struct gb_event {
	u64 t_ns;              /* scx_bpf_now() */
	u32 pid;
	s32 from;              /* -1 for a new task */
	s32 to;
	u32 reason;            /* enum gb_reason */
	s64 energy_delta;      /* cost x util, see docs/stream.md power_delta_uw */
	u32 util;
	u32 uclamp_min;
	u32 uclamp_max;
	u32 opp_idx;           /* OPP of the target domain */
	u32 prev_opp_idx;
	u32 pad;
	char comm[GB_COMM_LEN];
};

/* Per domain, written by the BPF side at the tick. */
struct gb_dom_state {
	u64 last_consume_ns;   /* last time a CPU of the domain took work from its queue */
	u32 perf_target;       /* last cpuperf request */
	u32 opp_idx;           /* the OPP serving it */
	u32 overutilized;
	u32 pad;
};

/* Per CPU, for the stream's cpus[]: the running task.  The BPF side writes only pid (a copy
 * of comm at every switch cost more than the rest of ops.running); the loader fills comm from
 * /proc when it samples. */
struct gb_cpu_curr {
	u32 pid;
	u32 pad;
	char comm[GB_COMM_LEN];
};

enum gb_stat {
	GB_STAT_SELECT,        /* select_cpu calls */
	GB_STAT_DIRECT,        /* direct dispatches to an idle CPU */
	GB_STAT_ENQUEUE,       /* enqueues into a domain queue */
	GB_STAT_FALLBACK,      /* placements the policy could not make (default idle selection) */
	GB_STAT_PULL,          /* dispatches that pulled from another domain */
	GB_STAT_MISFIT,        /* misfit moves started at the tick */
	GB_STAT_EVENTS_LOST,   /* ring buffer full */
	GB_STAT_HOTPLUG,       /* cpu_online/cpu_offline calls */
	GB_STAT_CPUMASK,       /* set_cpumask calls */
	GB_STAT_KEPT,          /* wake-ups kept on the previous CPU without a search */
	GB_STAT_LOCAL,         /* enqueues of a one-CPU task straight to its CPU's local queue */
	GB_STAT_NOKICK,        /* kicks not sent: the calling CPU was not online (gb_may_kick) */
	GB_NR_STATS,
};

#endif /* GEARBOX_ABI_H */
