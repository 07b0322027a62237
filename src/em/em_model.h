/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * em_model.h - the energy model as the kernel sees it, in BPF-safe C.
 *
 * This header is compiled three ways: natively into the gearbox tools, natively into the
 * simulator, and into the BPF scheduler.  It therefore uses no libc, no floats, no pointers to
 * functions, and only loops bounded by compile-time constants.
 *
 * Units, everywhere:
 *   freq_khz   kHz
 *   power_uw   microwatts (the kernel's EM_PERF_DOMAIN_MICROWATTS convention)
 *   perf       performance on the capacity scale, 0..1024, 1024 being the fastest CPU of the
 *              SoC at its highest OPP (the kernel's em_perf_state.performance)
 *   util       utilization on the same 0..1024 scale
 *   cost       the kernel's em_perf_state.cost: power_uw * 10 / perf, i.e. "energy per unit of
 *              work" scaled by 10 for resolution (kernel/power/energy_model.c, em_compute_costs)
 *
 * Derived values (cost, the inefficient flag) are always recomputed from frequency, power and
 * performance by em_compute_costs(); they are never trusted from a file.
 */
#ifndef GEARBOX_EM_MODEL_H
#define GEARBOX_EM_MODEL_H

#include "em_types.h"

#define EM_MAX_DOMAINS	  64 /* Intel hybrid exposes one perf domain per CPU */
#define EM_MAX_OPPS	  32
#define EM_MAX_CPUS	  256
#define EM_CPUMASK_WORDS  (EM_MAX_CPUS / 64)
#define EM_NAME_LEN	  16
#define EM_CAPACITY_SCALE 1024
#define EM_MAX_POWER_UW	  64000000u /* the kernel's EM_MAX_POWER */

/* em_opp.flags */
#define EM_OPP_INEFFICIENT (1u << 0) /* EM_PERF_STATE_INEFFICIENT */

/* em_domain.flags */
#define EM_PD_SKIP_INEFFICIENCIES (1u << 0) /* EM_PERF_DOMAIN_SKIP_INEFFICIENCIES */

struct em_opp {
	u32 freq_khz;
	u32 power_uw;
	u32 perf;
	u32 voltage_uv; /* 0: not known */
	u64 cost;	/* derived, see em_compute_costs() */
	u32 flags;	/* derived: EM_OPP_* */
	u32 wake_cost;	/* derived: the domain's wake_power_uw * 10 / perf, in cost's unit (see
			 * em_compute_wake_costs()) */
};

struct em_cpumask {
	u64 bits[EM_CPUMASK_WORDS];
};

struct em_domain {
	char name[EM_NAME_LEN]; /* "little", "mid", "big", or "pd0" ... */
	u32 nr_opps;
	u32 nr_cpus;	   /* derived: popcount of cpus */
	u32 idle_power_uw; /* whole domain, all CPUs idle (WFI) at the lowest OPP; 0: unknown */
	u32 flags;	   /* EM_PD_* */
	u32 first_cpu;	   /* derived: lowest CPU id in cpus */
	u32 wake_power_uw; /* derived: what the domain draws with its cluster awake and every CPU
			    * idle beyond what it draws with the cluster asleep (the profile's
			    * idle_states: static_uw minus the deepest cluster state's power_uw);
			    * 0 when the cluster has no idle state.  Priced by gb_idle.h */
	struct em_cpumask cpus;
	struct em_opp opps[EM_MAX_OPPS]; /* ascending frequency */
};

struct em_model {
	u32 nr_domains;
	u32 nr_cpus;				  /* derived: highest CPU id + 1 */
	struct em_domain domains[EM_MAX_DOMAINS]; /* ascending capacity */
	u8 cpu_domain[EM_MAX_CPUS]; /* derived: domain index of each CPU, 0xff if none */
};

static __always_inline bool em_cpumask_test(const struct em_cpumask *m, u32 cpu)
{
	if (cpu >= EM_MAX_CPUS)
		return false;
	return (m->bits[(cpu / 64) & (EM_CPUMASK_WORDS - 1)] >> (cpu % 64)) & 1;
}

static __always_inline void em_cpumask_set(struct em_cpumask *m, u32 cpu)
{
	if (cpu < EM_MAX_CPUS)
		m->bits[(cpu / 64) & (EM_CPUMASK_WORDS - 1)] |= 1ull << (cpu % 64);
}

static __always_inline void em_cpumask_clear(struct em_cpumask *m, u32 cpu)
{
	if (cpu < EM_MAX_CPUS)
		m->bits[(cpu / 64) & (EM_CPUMASK_WORDS - 1)] &= ~(1ull << (cpu % 64));
}

/*
 * em_compute_wake_costs - each OPP's wake_cost from the domain's wake_power_uw:
 *
 *   wake_cost[i] = wake_power_uw * 10 / perf[i]
 *
 * what keeping the domain's cluster up costs per unit of work run at that OPP, in cost's unit
 * (src/policy/gb_idle.h).  Call it after setting wake_power_uw; an OPP with perf 0 gets 0.
 */
static __always_inline void em_compute_wake_costs(struct em_domain *pd)
{
	u32 k;

	for (k = 0; k < EM_MAX_OPPS; k++) {
		struct em_opp *ps;

		if (k >= pd->nr_opps)
			break;
		ps = &pd->opps[k];
		ps->wake_cost = ps->perf ? (u32)((u64)pd->wake_power_uw * 10 / ps->perf) : 0;
	}
}

/* The domain's capacity: the performance of its highest OPP (arch_scale_cpu_capacity). */
static __always_inline u32 em_domain_capacity(const struct em_domain *pd)
{
	u32 n = pd->nr_opps;

	if (n == 0 || n > EM_MAX_OPPS)
		return 0;
	return pd->opps[(n - 1) & (EM_MAX_OPPS - 1)].perf;
}

/*
 * em_compute_costs - cost per OPP and the inefficient flags, as the kernel computes them.
 *
 *   cost[i] = power_uw[i] * 10 / perf[i]
 *
 * Walking from the highest OPP down, an OPP whose cost is >= the lowest cost seen at a higher
 * OPP is inefficient: a higher frequency does the same work for less energy.  As in the kernel,
 * a domain that has any inefficient OPP is marked EM_PD_SKIP_INEFFICIENCIES so that
 * em_efficient_state() steps over them.  Returns 0, or -1 when an OPP has perf 0.
 */
static __always_inline int em_compute_costs(struct em_domain *pd)
{
	u64 prev_cost = ~0ull;
	u32 n = pd->nr_opps;
	u32 k;

	if (n > EM_MAX_OPPS)
		return -1;
	pd->flags &= ~EM_PD_SKIP_INEFFICIENCIES;
	for (k = 0; k < EM_MAX_OPPS; k++) {
		struct em_opp *ps;

		if (k >= n)
			break;
		ps = &pd->opps[(n - 1 - k) & (EM_MAX_OPPS - 1)];
		if (ps->perf == 0)
			return -1;
		ps->cost = (u64)ps->power_uw * 10 / ps->perf;
		if (ps->cost >= prev_cost) {
			ps->flags |= EM_OPP_INEFFICIENT;
			pd->flags |= EM_PD_SKIP_INEFFICIENCIES;
		} else {
			ps->flags &= ~EM_OPP_INEFFICIENT;
			prev_cost = ps->cost;
		}
	}
	return 0;
}

/*
 * em_efficient_state - index of the OPP the domain runs at to serve max_util
 * (em_pd_get_efficient_state): the lowest OPP whose perf is >= max_util, skipping inefficient
 * OPPs when the domain is flagged to, and the highest OPP when none is enough.
 * em_efficient_state_from is the same search for a max_util known to need at least OPP start:
 * it starts there (placement prices from a domain's OPP without the task).
 */
static __always_inline u32 em_efficient_state_from(const struct em_domain *pd, u32 max_util,
						   u32 start)
{
	u32 n = pd->nr_opps;
	u32 i;

	if (n == 0 || n > EM_MAX_OPPS)
		return 0;
	for (i = 0; i < EM_MAX_OPPS; i++) {
		const struct em_opp *ps;
		u32 k = start + i;

		if (k >= n)
			break;
		ps = &pd->opps[k & (EM_MAX_OPPS - 1)];
		if (ps->perf < max_util)
			continue;
		if ((pd->flags & EM_PD_SKIP_INEFFICIENCIES) && (ps->flags & EM_OPP_INEFFICIENT))
			continue;
		return k;
	}
	return n - 1;
}

static __always_inline u32 em_efficient_state(const struct em_domain *pd, u32 max_util)
{
	return em_efficient_state_from(pd, max_util, 0);
}

/*
 * em_domain_energy - the kernel's em_cpu_energy(): the energy estimate of a domain whose
 * busiest CPU needs max_util and whose CPUs' utilizations add up to sum_util.
 *
 *   energy = cost[efficient_state(min(max_util, allowed_cap))] * sum_util
 *
 * The unit is cost x util: proportional to energy over a fixed window, comparable between
 * domains and placements, which is all that placement needs.
 */
static __always_inline u64 em_domain_energy(const struct em_domain *pd, u32 max_util, u32 sum_util,
					    u32 allowed_cap)
{
	u32 i;

	if (max_util > allowed_cap)
		max_util = allowed_cap;
	i = em_efficient_state(pd, max_util);
	return pd->opps[i & (EM_MAX_OPPS - 1)].cost * sum_util;
}

/* em_domain_of_cpu - domain index of cpu, or -1. */
static __always_inline int em_domain_of_cpu(const struct em_model *m, u32 cpu)
{
	u8 d;

	if (cpu >= EM_MAX_CPUS)
		return -1;
	d = m->cpu_domain[cpu];
	return d == 0xff ? -1 : d;
}

#endif /* GEARBOX_EM_MODEL_H */
