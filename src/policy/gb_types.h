/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * gb_types.h - the contract between the scheduler core (src/policy/) and its two hosts: the
 * structs a host fills (gb_cpu per CPU, gb_task for the task a decision is about, next to the
 * read-only energy model of em_model.h), the structs the core answers with (gb_decision) or works
 * in (gb_scratch), the reason codes, and the few constants every concern shares.
 *
 * Hosts: bpf/gearbox.bpf.c fills them from kernel state (CO-RE reads, the idle mask, its own
 * PELT tracking) and src/sim/ from the simulated SoC.  Every field says what it means, its unit
 * and which core entry points read it; docs/scheduler.md has the table, with how each host
 * fills the field.  BPF-safe: no libc, no floats, fixed-size types only.
 */
#ifndef GEARBOX_GB_TYPES_H
#define GEARBOX_GB_TYPES_H

#include "gb_reason_list.h"
#include "em_model.h"
#include "em_types.h"

#define GB_UCLAMP_NONE_MAX    EM_CAPACITY_SCALE
#define GB_NO_CPU             (-1)
#define GB_TIE_SHIFT          4      /* deltas within 1/16 are ties for the no-OPP-raise rule */
#define GB_MISFIT_SAT_NUM     31     /* capacity misfit: util above 31/32 of capacity */
#define GB_MISFIT_SAT_DEN     32
#define GB_HOLD_NUM           15     /* misfit hold: kept up while demand > 15/16 of capacity */
#define GB_HOLD_DEN           16
#define GB_PULL_AFTER_US      4000   /* a task waiting this long is pulled by any idle CPU */

/* Loop bounds for the verifier; a host with smaller compile-time limits may lower them. */
#ifndef GB_LOOP_CPUS
#define GB_LOOP_CPUS          EM_MAX_CPUS
#endif
#ifndef GB_LOOP_DOMAINS
#define GB_LOOP_DOMAINS       EM_MAX_DOMAINS
#endif

/* Reason codes, in docs/stream.md's order (gb_reason_list.h); gb_reason.h gives the strings. */
enum gb_reason {
	GB_REASON_NONE, /* no move: stayed on the previous CPU */
#define GB_REASON_ENUM(name, code) GB_REASON_##name,
	GB_REASON_LIST(GB_REASON_ENUM)
#undef GB_REASON_ENUM
	GB_NR_REASONS,
};

/*
 * What the host knows about a CPU, one per CPU of the model, indexed by CPU id.  Read by every
 * entry point: placement (gb_select_cpu, gb_prev_is_cheapest), the tick (gb_check_misfit),
 * frequency (gb_domain_perf_target), over-utilization (gb_domain_overutilized) and pulls
 * (gb_may_pull).  Utilizations are on the 0..1024 scale, capacity- and frequency-invariant
 * (1024: the fastest CPU at its top OPP busy all the time), as the kernel's PELT.
 */
struct gb_cpu {
	u32 util;          /* PELT util_avg of the CPU, 0..1024: the tasks running or waiting
			    * there and the blocked utilization of those that slept there last
			    * (decaying while they sleep) */
	u32 runnable;      /* PELT runnable_avg of the CPU, 0..1024: as util, counting time
			    * waiting for the CPU too; the within-domain tie-break */
	u32 perf_cur;      /* perf (0..1024) of the OPP the CPU's domain runs at now */
	u32 nr_running;    /* 1 while a task runs there, 0 when idle: tasks wait in domain
			    * queues, not on a CPU.  Read by the clamps (gb_rq_umin), the
			    * utilization with a task added (gb_util_with), the fork rule and the
			    * within-domain tie-break */
	u32 uclamp_min;    /* uclamp_min (0..1024) of the task running there; ignored when idle */
	u32 uclamp_max;    /* uclamp_max (0..1024) of the task running there; when idle, that of
			    * the last task that ran (0: no task yet, read as 1024) */
	u8 idle;           /* nothing runs there (the kernel's idle mask under BPF) */
	u8 online;         /* the CPU is online; offline CPUs are never chosen nor counted */
	u16 pad;
};

/*
 * The task a decision is about: the one waking up or forked (placement), running (the tick's
 * misfit check) or waiting (a pull).  Filled by the host from its per-task tracking (PELT of
 * gb_pelt.h, uclamp as sched_setattr() set it).
 */
struct gb_task {
	u32 util;          /* util_avg, 0..1024, decayed to now */
	u32 util_est;      /* util_est: its util_avg when it last went to sleep (gb_pelt.h) */
	u32 runnable;      /* runnable_avg, 0..1024: the share of time it wants a CPU; weights
			    * the uclamp_min boost in the price */
	u32 uclamp_min;    /* requested uclamp_min, 0..1024 (0: none) */
	u32 uclamp_max;    /* requested uclamp_max, 0..1024 (1024: none) */
	s32 prev_cpu;      /* the CPU it last ran or waits on; GB_NO_CPU for a new task */
	u32 floor_cap;     /* no CPU of capacity <= floor_cap (0: none): the misfit hold, from
			    * gb_misfit_hold() with what the host kept at its last capacity-misfit
			    * move; read by placement and pulls */
	struct em_cpumask allowed;  /* CPUs it may run on (affinity) */
};

/* A priced candidate CPU. */
struct gb_cand {
	s64 delta;         /* energy with the task there minus without (cost x util) */
	u64 cost;          /* cost of that OPP: energy per unit of work there */
	u32 idx;           /* OPP its domain would run at */
	u8 raises;         /* above the domain's OPP without the task */
	u8 ok;             /* the task fits there at all */
	u16 pad;
};

struct gb_domain_scratch {
	u32 base_perf;     /* perf the busiest CPU needs without the task */
	u32 base_idx;      /* the OPP serving base_perf */
	u32 busy;          /* sum of CPU utils without the task */
	u32 overutilized;
	s32 spread_cpu;    /* allowed CPU with the most spare capacity, for an OU domain */
	u32 spread_spare;
	s32 win;           /* pass 2: the domain's cheapest CPU so far, GB_NO_CPU if none */
	u32 pad;
	struct gb_cand cwin;
};

struct gb_scratch {
	struct gb_domain_scratch pd[EM_MAX_DOMAINS];
};

struct gb_decision {
	s32 cpu;           /* chosen CPU, GB_NO_CPU when no allowed CPU is online */
	u32 reason;        /* enum gb_reason */
	s64 energy_delta;  /* cost x util: chosen minus previous CPU (negative saves) */
	u32 opp_idx;       /* OPP the chosen domain would run at */
	u32 prev_opp_idx;  /* OPP of the previous CPU's domain with the task (0 if none) */
};


/*
 * Hooks.  Placement is a few steps -- pass 1 (gb_scan_domains), pricing one CPU (gb_price), one
 * CPU of pass 2 (gb_consider), one domain of pass 3 (gb_domain_offer), a whole search
 * (gb_select_cpu_range) and the fork rule (gb_fork_cpu) -- and the host may route each through a
 * function of its own: the BPF scheduler makes them global subprograms, which the verifier checks
 * once each instead of once per path through the caller (bpf/gearbox_place.h).  The step's code is
 * the same either way.  A hook returns 0 on success (GB_HOOK_RANGE and GB_HOOK_FORK: the CPU, or
 * GB_NO_CPU).
 */
#ifndef GB_HOOK_SCAN
#define GB_HOOK_SCAN(m, cpus, t, s) (gb_scan_domains(m, cpus, t, s), 0)
#endif
#ifndef GB_HOOK_PRICE
#define GB_HOOK_PRICE(m, cpus, t, s, c, out) gb_price_into(m, cpus, t, s, c, out)
#endif
#ifndef GB_HOOK_CONSIDER
#define GB_HOOK_CONSIDER(m, cpus, t, s, c, min_cap, max_cap) \
	gb_consider(m, cpus, t, s, c, min_cap, max_cap)
#endif
#ifndef GB_HOOK_OFFER
#define GB_HOOK_OFFER(m, cpus, t, s, d, min_cap, max_cap, cwin) \
	gb_domain_offer(m, cpus, t, s, d, min_cap, max_cap, cwin)
#endif
#ifndef GB_HOOK_RANGE
#define GB_HOOK_RANGE(m, cpus, t, min_cap, max_cap, s, out) \
	gb_select_cpu_range(m, cpus, t, min_cap, max_cap, s, out)
#endif
#ifndef GB_HOOK_FORK
#define GB_HOOK_FORK(m, cpus, t) gb_fork_cpu(m, cpus, t)
#endif

static __always_inline u32 gb_min(u32 a, u32 b) { return a < b ? a : b; }
static __always_inline u32 gb_max(u32 a, u32 b) { return a > b ? a : b; }

static __always_inline const struct em_domain *gb_pd(const struct em_model *m, u32 d)
{
	return &m->domains[d & (EM_MAX_DOMAINS - 1)];
}

static __always_inline const struct gb_cpu *gb_cpu_at(const struct gb_cpu *cpus, u32 c)
{
	return &cpus[c & (EM_MAX_CPUS - 1)];
}

#endif /* GEARBOX_GB_TYPES_H */
