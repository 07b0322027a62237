/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * gb_state.bpf.h - scx_gearbox's global state: the model and the knobs the loader sets, the
 * core's per-CPU and per-domain tables, the counters, and the small helpers every mechanism
 * uses (the model through gb_m(), a CPU's domain, a CPU's bit in a mask).  Included once, by
 * gearbox.bpf.c, after the policy (gearbox_place.h).
 */
#ifndef GEARBOX_GB_STATE_BPF_H
#define GEARBOX_GB_STATE_BPF_H

/* Filled by the loader before load. */
const volatile struct em_model gb_model;
const volatile u32 gb_has_cpufreq; /* perf_cur from cpuperf_cur, else our request */
const volatile u64 gb_slice_ns = 5000000;
const volatile u64 gb_push_after_us = 8000; /* power misfit: run this long without waking */
const volatile u64 gb_pull_after_ns = 4000000;
const volatile u32 gb_group_slices; /* slice-aware grouping at wake-ups (gb_group.h) */
const volatile u32 gb_wake_preempt; /* wake-up preemption's mode, GB_PREEMPT_* (gb_queue.h) */
/* gb_min_cost_elsewhere() of each domain: the wake-up shortcut's bound (gearbox_place.h) */
const volatile u64 gb_min_cost_else[GB_SCX_MAX_DOMAINS];
/* gb_domain_min_wake_cost() of each domain: the shortcut's bound in an asleep domain */
const volatile u64 gb_min_wake_cost[GB_SCX_MAX_DOMAINS];
/* every answer of the OPP searches (gearbox_place.h's gb_place_opp_from, gearbox_abi.h) */
const volatile struct gb_opp_table gb_opps;

/* The mode and its per-domain frequency floor: set by the loader before load, and changed by it
 * while loaded when it follows the platform's power profile (--mode auto). */
volatile u32 gb_mode;
volatile u32 gb_perf_floor[EM_MAX_DOMAINS];

/* The policy's view of the CPUs, and what the loader samples. */
struct gb_cpu gb_cpus[EM_MAX_CPUS];
struct gb_pelt gb_cpu_pelt[EM_MAX_CPUS];
struct gb_cpu_curr gb_curr[EM_MAX_CPUS];
struct gb_dom_state gb_doms[EM_MAX_DOMAINS];
u64 gb_dom_vtime[EM_MAX_DOMAINS]; /* each domain's virtual clock, see gb_vtime.h */
/*
 * Each domain's queued demand (gb_demand.h): the sum of the util_avg its waiting tasks had when
 * they joined its queue, added at enqueue (gb_demand_on) and taken off when the task starts
 * running, is queued again or leaves sched_ext (gb_demand_off).  Spread over the domain's
 * online CPUs' gb_cpu.queued_util at each change and at hotplug (gb_demand_apply).
 */
u32 gb_dom_qutil[EM_MAX_DOMAINS];
GB_SCX_EXIT_INFO;

/* The model through a pointer the compiler cannot see through: it must load, not fold. */
static __always_inline const struct em_model *gb_m(void)
{
	const struct em_model *m = (const struct em_model *)&gb_model;

	asm volatile("" : "+r"(m));
	return m;
}

/*
 * The counters (GB_STATS_LIST), a row per CPU (GB_STAT_ROW of them, each row two cache lines of
 * its own), summed by the loader: a CPU adds to its own row without a map look-up, which cost
 * a dozen instructions per count.  CPUs beyond EM_MAX_CPUS share rows, where two counts at once
 * may lose one (they are counters for a reader, not state).
 */
u64 gb_stat_rows[EM_MAX_CPUS][GB_STAT_ROW] __attribute__((aligned(64)));

static __always_inline void gb_stat(u32 idx)
{
	gb_stat_rows[bpf_get_smp_processor_id() & (EM_MAX_CPUS - 1)][idx & (GB_STAT_ROW - 1)]++;
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

/* The placement's context (gearbox_place.h): the task being placed and the search's scratch. */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, u32);
	__type(value, struct gb_place_ctx);
} gb_place SEC(".maps");

static __always_inline struct gb_place_ctx *gb_place_ctx(void)
{
	u32 k = 0;

	return bpf_map_lookup_elem(&gb_place, &k);
}

#define GB_PLACE_MODEL()	gb_m()
#define GB_PLACE_CPUS		gb_cpus
#define GB_PLACE_CTX()		gb_place_ctx()
#define GB_PLACE_MIN_COSTS	gb_min_cost_else
#define GB_PLACE_MIN_WAKE_COSTS gb_min_wake_cost
#define GB_PLACE_OPP_TABLE	gb_opps
#define GB_PLACE_BODIES
#include "gearbox_place.h"

#endif /* GEARBOX_GB_STATE_BPF_H */
