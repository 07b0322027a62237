/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * gb_idle.h - what waking a sleeping cluster costs, in placement's units (gb_place.h).
 *
 * A domain none of whose online CPUs runs a task (the task being placed left out) may have its
 * cluster in a cluster idle state.  A task placed there keeps the cluster out of that state
 * while it runs, and the domain draws em_domain.wake_power_uw more than asleep: its static
 * power less the cluster state's (em_model.h; 0 for a cluster without idle states, which draws
 * the same awake or not).  An active domain's cluster is up anyway, so a task placed there
 * adds only its OPP's power.  Placement prices energy as cost x util, where cost is
 * power_uw x 10 / perf (em_compute_costs): running util's worth of work at an OPP of perf
 * `perf` keeps the CPU busy util / perf of the time.  The cluster's extra draw over that busy
 * time is, per unit of work,
 *
 *   wake_cost = wake_power_uw x 10 / perf[opp]
 *
 * added to the OPP's cost for the task's own work only: a sleeping domain has no other busy
 * time.  So a task is packed onto an active domain while what it raises there costs less than
 * waking the other one, and spread to the sleeping one once packing would raise the active
 * domain's OPP past that point; and a task that alone kept its domain awake is priced there as
 * waking it, so it stays where another domain is up anyway when that costs no more.
 *
 * Left out, because placement does not know how long the domain would sleep: the cluster stays
 * up after the task until the idle governor picks the cluster state again, and leaving that
 * state costs its break-even energy (src/sim/sim_physics.c).  The term is the least a wake-up
 * costs.  Integers only, no loop: BPF-safe.
 */
#ifndef GEARBOX_GB_IDLE_H
#define GEARBOX_GB_IDLE_H

#include "gb_types.h"

/*
 * gb_wake_cost - what keeping domain pd's cluster awake costs per unit of the task's work when
 * the domain runs at OPP idx: wake_power_uw x 10 / perf, in em_opp.cost's unit (em_opp.wake_cost,
 * computed with the model).  A product, not a branch: in BPF a branch here would double the
 * verifier's paths through every pricing.
 * @pd: the domain
 * @idx: the OPP it would run at with the task
 * @asleep: 1 when none of its CPUs runs a task (the task left out), else 0
 *
 * Return: the cost to add to the OPP's cost for the task's work.
 */
static __always_inline u64 gb_wake_cost(const struct em_domain *pd, u32 idx, u32 asleep)
{
	return (u64)pd->opps[idx & (EM_MAX_OPPS - 1)].wake_cost * asleep;
}

/* 1 when nr_running (CPUs' nr_running or-ed together) is 0, else 0; without a branch */
static __always_inline u32 gb_none_running(u32 nr_running)
{
	return 1 - (u32)(((u64)nr_running + 0xffffffffull) >> 32);
}

#endif /* GEARBOX_GB_IDLE_H */
