/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * gearbox_abi.h - what bpf/gearbox.bpf.c and its loader (src/sched/) share: the ring-buffer
 * record, the per-domain state the loader samples, the per-CPU counters and the modes.  Plain
 * fixed-width structs with explicit padding, so that the BPF and the x86-64 layouts agree.
 */
#ifndef GEARBOX_ABI_H
#define GEARBOX_ABI_H

#include "em_model.h"

#define GB_COMM_LEN 16

/* What the BPF object is built for; the loader refuses a model beyond them.  A CPU is one bit
 * of a word (gb_mask_test, the pricing memo of bpf/gearbox_place.h); the verifier's work does
 * not grow with either (the policy's loops are iterators). */
#define GB_SCX_MAX_CPUS	   64
#define GB_SCX_MAX_DOMAINS 32

/*
 * Every answer of the policy's OPP searches (bpf/gearbox_place.h, gb_place_opp_from), which the
 * loader computes before load (gb_opp_table_fill): for_perf[d][perf] is em_efficient_state(d,
 * perf), the lowest OPP of domain d that serves perf (inefficient OPPs skipped), for every perf
 * up to the capacity scale.
 */
struct gb_opp_table {
	u8 for_perf[GB_SCX_MAX_DOMAINS][EM_CAPACITY_SCALE + 1];
};

#if !defined(__bpf__) && !defined(__BPF__)
/* gb_opp_table_fill - *ot for model m (0 for the domains beyond it). */
static inline void gb_opp_table_fill(struct gb_opp_table *ot, const struct em_model *m)
{
	u32 d, perf;

	for (d = 0; d < GB_SCX_MAX_DOMAINS; d++)
		for (perf = 0; perf <= EM_CAPACITY_SCALE; perf++)
			ot->for_perf[d][perf] =
			    d < m->nr_domains ? (u8)em_efficient_state(&m->domains[d], perf) : 0;
}
#endif

enum gb_mode {
	GB_MODE_ENERGY,	     /* the policy as written */
	GB_MODE_BALANCED,    /* the policy, frequency never below the domain's cheapest OPP */
	GB_MODE_PERFORMANCE, /* every task placed as if uclamp_min were 1024; top OPPs */
};

/* One placement that moved a task (ring buffer). */
struct gb_event {
	u64 t_ns; /* scx_bpf_now() */
	u32 pid;
	s32 from; /* -1 for a new task */
	s32 to;
	u32 reason;	  /* enum gb_reason */
	s64 energy_delta; /* cost x util, see docs/stream.md power_delta_uw */
	u32 util;
	u32 uclamp_min;
	u32 uclamp_max;
	u32 opp_idx; /* OPP of the target domain */
	u32 prev_opp_idx;
	u32 pad;
	char comm[GB_COMM_LEN];
};

/* Per domain, written by the BPF side at the tick. */
struct gb_dom_state {
	u32 perf_target; /* last cpuperf request */
	u32 opp_idx;	 /* the OPP serving it */
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

/*
 * A CPU's memo of its last walk of its domain for the frequency request (bpf/gb_perf.bpf.h,
 * gb_freq_memo_quiet and _holds in gb_fill.h): the domain's count of changes to its CPUs' inputs
 * then (gen), the changes this CPU made to its own inputs since (own), its own OPP need then
 * (gb_cpu_opp_need; GB_FREQ_OPP_UNKNOWN when the walk did not compute it) and the domain's
 * frequency floor then; valid when the walk was this CPU's, made on it, with no queued demand
 * in the domain.  Its CPU writes it at every switch: a cache
 * line of its own.  The loader does not read it.
 */
struct gb_freq_memo {
	u64 gen;
	u64 own;
	u32 opp;
	u32 floor;
	u32 valid;
	u32 pad[9];
};

/*
 * The scheduler's counters, written once: the BPF side's enum (a per-CPU array indexed by it)
 * and the loader's names (printed at detach and with --verbose, parsed by the VM tests) both
 * expand this list.  X(NAME, "name", meaning).
 */
#define GB_STATS_LIST(X)                                                                           \
	X(SELECT, "select", "select_cpu calls")                                                    \
	X(DIRECT, "direct", "direct dispatches to an idle CPU")                                    \
	X(ENQUEUE, "enqueue", "enqueues into a domain queue")                                      \
	X(FALLBACK, "fallback", "placements the policy could not make (default idle selection)")   \
	X(PULL, "pull", "dispatches that pulled from another domain")                              \
	X(MISFIT, "misfit", "misfit moves started at the tick")                                    \
	X(EVENTS_LOST, "lost", "ring buffer full")                                                 \
	X(HOTPLUG, "hotplug", "cpu_online/cpu_offline calls")                                      \
	X(CPUMASK, "cpumask", "set_cpumask calls")                                                 \
	X(KEPT, "kept", "wake-ups kept on the previous CPU without a search")                      \
	X(LOCAL, "local", "enqueues of a one-CPU task straight to its CPU's local queue")          \
	X(NOKICK, "nokick", "kicks not sent: the calling CPU was not online (gb_may_kick)")        \
	X(PREEMPT, "preempt", "CPUs kicked to preempt their task for a waking one (gb_preempt.h)")

#define GB_STAT_ENUM(name, str, what) GB_STAT_##name,
enum gb_stat {
	GB_STATS_LIST(GB_STAT_ENUM) GB_NR_STATS,
};
#undef GB_STAT_ENUM

/* a CPU's row of counters (gb_stat_rows): a power of two, at least GB_NR_STATS */
#define GB_STAT_ROW 16
_Static_assert(GB_NR_STATS <= GB_STAT_ROW, "GB_STAT_ROW holds every counter");

#endif /* GEARBOX_ABI_H */
