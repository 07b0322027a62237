/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * gb_place.h - wake-up and fork placement: gb_select_cpu(), and gb_prev_is_cheapest(), a test
 * that lets a host skip its search.
 *
 * How placement works.  For every domain we first compute, without the task, the performance
 * its busiest CPU needs (max of util x 1.25 clamped by the run queue's uclamp) and the OPP that
 * serves it, and the domain's busy time (sum of CPU utils).  A candidate CPU is then priced by
 * the OPP the domain would need with the task on that CPU:
 *
 *   E_with = (cost[opp_clamp] + wake) * work
 *          + cost[opp_util]  * busy * (1024 - w) / 1024
 *          + cost[opp_clamp] * busy * w / 1024
 *   delta  = E_with - cost[opp_base] * busy
 *
 * where opp_util is the OPP the task's utilization alone makes the domain run at (that lasts:
 * blocked utilization keeps the frequency up), opp_clamp the OPP with the task's uclamp_min as
 * well, which lasts only while the task is runnable, and w its runnable fraction.  Weighting the
 * uclamp_min boost by runnable time is what keeps a small boosted task off the big core when a
 * mid core is free (mainline prices the boost as if it lasted for the whole busy time of the
 * domain).  work is the task's util, or its uclamp_max when that is lower.  wake is 0 for a domain
 * that runs a task without this one; for a domain whose every CPU is idle it is what keeping its
 * cluster out of its cluster idle state costs per unit of work at opp_clamp (gb_wake_cost(),
 * gb_idle.h): packing onto an active domain wins until the OPP it raises there costs more.
 *
 * Candidates are all allowed online CPUs where the task's work plus the CPU's utilization, and
 * the task's uclamp_min, fit the capacity (the biggest CPUs always do), with no 20% margin:
 * a task above 80% of a CPU still goes there when it is the cheapest way to serve it; it just
 * runs longer.  Two exclusions keep misfit moves from being undone at the next wake-up: a CPU
 * the task would saturate (demand over 31/32 of its capacity, which the tick calls a capacity
 * misfit) unless uclamp_max caps it there, and, after a capacity-misfit move, CPUs no bigger
 * than the one it left while its demand stays above 15/16 of that capacity (the misfit hold,
 * gb_misfit_hold(), kept by the host).  One keeps a pull from being undone: for a while after a
 * CPU of another domain pulled the task out of its domain's queue, that domain's busy CPUs (the
 * pull hold, gb_pull_hold.h: the task would wait behind them again).
 * One exclusion holds on every CPU, the biggest too: a
 * CPU whose uclamp_max holds its OPP below what its other load and the task's work demand
 * (gb_full_at_clamp(): utilization measured at a capped OPP cannot show that it is full); with
 * no candidate left the task stays on its previous CPU.  Within a domain the cheapest CPU wins,
 * ties going to an idle CPU, then to fewer runnable tasks, then to the previous CPU, then to
 * lower utilization.  Across domains the cheapest wins, except that a domain whose OPP would not
 * rise is preferred over one that would when their deltas are within 1/16 of each other (pure
 * OPP-cost placement raised average frequencies on Pixel 6), and an idle previous CPU is kept
 * unless leaving it saves more than 1/16 (hysteresis against tasks swapping domains on OPP
 * granularity).  A domain over its tipping point is not priced CPU by CPU: it offers only its
 * CPU with the most spare capacity (spreading), the other domains stay energy-aware; to a task
 * too big for its CPUs it offers nothing unless the task's own domain is over-utilized too.
 * With slice-aware grouping (gb_group.h), a domain whose every candidate CPU is busy with a task
 * of the other slice class loses to a domain with room that has another candidate (for a
 * long-slice task one no smaller) before prices are compared.
 *
 * Cost: pass 1 over the CPUs (the domains' state without the task), pass 2 over the CPUs (each
 * priced against its own domain's winner so far, an OPP search from the domain's base OPP),
 * pass 3 over the domains: O(CPUs + domains) CPU visits per decision, never a domain x CPU
 * product.  The per-domain scratch is struct gb_scratch (in BPF a per-CPU map value: it exceeds
 * the stack).
 */
#ifndef GEARBOX_GB_PLACE_H
#define GEARBOX_GB_PLACE_H

#include "gb_fit.h"
#include "gb_freq.h"
#include "gb_group.h"
#include "gb_idle.h"

/* Pass 1: per domain, the state without the task. */
static __always_inline void gb_scan_domains(const struct em_model *m, const struct gb_cpu *cpus,
					    const struct gb_task *t, struct gb_scratch *s)
{
	u32 c, d;

	GB_FOR_DOMAIN (d, m->nr_domains) {
		struct gb_domain_scratch *ds = &s->pd[d & (EM_MAX_DOMAINS - 1)];

		ds->base_perf = 0;
		ds->busy = 0;
		ds->overutilized = 0;
		ds->spread_cpu = GB_NO_CPU;
		ds->spread_spare = 0;
		ds->win = GB_NO_CPU;
		ds->unmixed = 0;
		ds->asleep = 1;
		ds->cwin = (struct gb_cand){0};
	}
	GB_FOR_CPU (c, m->nr_cpus) {
		const struct gb_cpu *cs;
		struct gb_domain_scratch *ds;
		u32 util, cap, spare;

		cs = gb_cpu_at(cpus, c);
		d = gb_dom_of(m, c);
		if (d >= m->nr_domains || !cs->online)
			continue;
		ds = &s->pd[d & (EM_MAX_DOMAINS - 1)];
		cap = em_domain_capacity(gb_pd(m, d));
		util = gb_util_without(cs, c, t);
		ds->base_perf =
		    gb_max(ds->base_perf, gb_perf_request(util, gb_rq_umin(cs), gb_rq_umax(cs)));
		ds->busy += util;
		if (cs->nr_running)
			ds->asleep = 0;
		if (gb_cpu_overutilized(cs, cap))
			ds->overutilized = 1;
		if (!em_cpumask_test(&t->allowed, c))
			continue;
		/* spare capacity, idle CPUs counting as having one more unit than any busy one */
		spare =
		    (cap > util ? cap - util : 0) + (cs->nr_running ? 0 : EM_CAPACITY_SCALE + 1);
		if (ds->spread_cpu == GB_NO_CPU || spare > ds->spread_spare) {
			ds->spread_cpu = (s32)c;
			ds->spread_spare = spare;
		}
	}
	GB_FOR_DOMAIN (d, m->nr_domains) {
		struct gb_domain_scratch *ds = &s->pd[d & (EM_MAX_DOMAINS - 1)];

		/* em_efficient_state(), the search from OPP 0 */
		ds->base_idx = GB_HOOK_OPP_FROM(
		    m, d, gb_min(ds->base_perf, em_domain_capacity(gb_pd(m, d))), 0);
	}
}

/* The price of putting t on CPU c (see the header comment). */
static __always_inline struct gb_cand gb_price(const struct em_model *m, const struct gb_cpu *cpus,
					       const struct gb_task *t, const struct gb_scratch *s,
					       u32 c)
{
	const struct gb_cpu *cs = gb_cpu_at(cpus, c);
	u32 d = m->cpu_domain[c & (EM_MAX_CPUS - 1)];
	const struct em_domain *pd = gb_pd(m, d);
	const struct gb_domain_scratch *ds = &s->pd[d & (EM_MAX_DOMAINS - 1)];
	u32 cap = em_domain_capacity(pd);
	u32 work = gb_task_work(t);
	u32 other = gb_util_without(cs, c, t);
	u32 util_with = gb_util_with(other, cs->nr_running, t);
	u32 umax = cs->nr_running ? gb_max(gb_rq_umax(cs), t->uclamp_max) : t->uclamp_max;
	u32 umin = gb_rq_umin(cs);
	u32 p_util = gb_min(gb_max(ds->base_perf, gb_perf_request(util_with, umin, umax)), cap);
	u32 p_clamp = gb_min(
	    gb_max(ds->base_perf, gb_perf_request(util_with, gb_max(umin, t->uclamp_min), umax)),
	    cap);
	/* both are >= base_perf, so neither OPP is below base_idx; and p_clamp >= p_util */
	u32 iu = GB_HOOK_OPP_FROM(m, d, p_util, ds->base_idx);
	u32 ic = p_clamp == p_util ? iu : GB_HOOK_OPP_FROM(m, d, p_clamp, iu);
	u64 cost0 = pd->opps[ds->base_idx & (EM_MAX_OPPS - 1)].cost;
	u64 costu = pd->opps[iu & (EM_MAX_OPPS - 1)].cost;
	u64 costc = pd->opps[ic & (EM_MAX_OPPS - 1)].cost;
	u64 wake = gb_wake_cost(pd, ic, ds->asleep);
	u64 w = gb_min(t->runnable, EM_CAPACITY_SCALE);
	u64 busy = ds->busy;
	u64 e_with = (costc + wake) * work +
		     ((costu * busy * (EM_CAPACITY_SCALE - w) + costc * busy * w) >> 10);
	struct gb_cand r;

	r.delta = (s64)e_with - (s64)(cost0 * busy);
	r.cost = costc + wake;
	r.idx = ic;
	r.raises = ic > ds->base_idx;
	/*
	 * Not a hard wall at 80%, but the clamped demand must fit the CPU at all; not below the
	 * misfit hold (floor_cap); and not a CPU the task would saturate unless its uclamp_max
	 * says it is meant to be throttled there (the tick would call it a capacity misfit and
	 * move it straight back up: ping-pong at every wake-up).
	 */
	r.ok = gb_room_for(t, other, work, cap) &&
	       !(umax < cap && gb_full_at_clamp(pd, iu, other, work, (s32)c == t->prev_cpu));
	r.mixed = 0;
	r.pad = 0;
	return r;
}

static __always_inline int gb_price_into(const struct em_model *m, const struct gb_cpu *cpus,
					 const struct gb_task *t, const struct gb_scratch *s, u32 c,
					 struct gb_cand *out)
{
	*out = gb_price(m, cpus, t, s, c);
	return 0;
}

/* Within a domain: is CPU b (candidate cb) better than the current best a? */
static __always_inline bool gb_better_in_domain(const struct gb_cpu *cpus, const struct gb_task *t,
						s32 a, struct gb_cand ca, u32 b, struct gb_cand cb)
{
	const struct gb_cpu *x, *y;

	if (a == GB_NO_CPU)
		return true;
	if (cb.delta != ca.delta)
		return cb.delta < ca.delta;
	x = gb_cpu_at(cpus, (u32)a);
	y = gb_cpu_at(cpus, b);
	if ((y->nr_running == 0) != (x->nr_running == 0))
		return y->nr_running == 0;
	if (y->nr_running != x->nr_running)
		return y->nr_running < x->nr_running;
	if ((s32)b == t->prev_cpu || a == t->prev_cpu)
		return (s32)b == t->prev_cpu;
	return y->runnable < x->runnable || (y->runnable == x->runnable && y->util < x->util);
}

/*
 * Across domains: is (b, cb) better than (a, ca)?  Lower delta, but a tie within 1/16 goes to
 * the candidate that does not raise its domain's OPP, and when both raise it (or neither) and
 * by_cost, to the one whose OPP costs less per unit of work: a delta is priced on the task's
 * recent utilization, and whatever it needs beyond that costs the OPP's cost (on gs101 a sync
 * thread priced a mid and a big CPU within 0.01%, went big and held the big domain at its
 * second OPP for half of every 100 ms).  Not for a capacity-misfit search (by_cost false):
 * that task is outgrowing its CPU, its utilization lags its demand, and the cheaper OPP is
 * usually the smaller CPU (zuma's lisa_two_big_three_small: 2 more late activations on mid).
 */
static __always_inline bool gb_better_across(s32 a, struct gb_cand ca, struct gb_cand cb,
					     bool by_cost)
{
	s64 lo, hi, margin;

	if (a == GB_NO_CPU)
		return true;
	lo = ca.delta < cb.delta ? ca.delta : cb.delta;
	hi = ca.delta < cb.delta ? cb.delta : ca.delta;
	margin = (lo < 0 ? -lo : lo) >> GB_TIE_SHIFT;
	if (hi - lo <= margin && ca.raises != cb.raises)
		return !cb.raises;
	if (by_cost && hi - lo <= margin && ca.cost != cb.cost)
		return cb.cost < ca.cost;
	return cb.delta < ca.delta;
}

/* Is domain d outside a search's capacity range (see gb_select_cpu_range)? */
static __always_inline bool gb_cap_excluded(const struct em_model *m, u32 d, u32 min_cap,
					    u32 max_cap)
{
	u32 cap = em_domain_capacity(gb_pd(m, d));

	return (min_cap && cap <= min_cap) || (max_cap && cap >= max_cap);
}

/* Pass 2, one CPU: c against its domain's winner so far (s->pd[d].win).  Over-utilized and
 * excluded domains are not priced CPU by CPU. */
static __always_inline int gb_consider(const struct em_model *m, const struct gb_cpu *cpus,
				       const struct gb_task *t, struct gb_scratch *s, u32 c,
				       u32 min_cap, u32 max_cap)
{
	u32 d = m->cpu_domain[c & (EM_MAX_CPUS - 1)];
	struct gb_domain_scratch *ds;
	struct gb_cand cc = {0};

	if (d >= m->nr_domains)
		return 0;
	ds = &s->pd[d & (EM_MAX_DOMAINS - 1)];
	if (ds->overutilized || gb_cap_excluded(m, d, min_cap, max_cap))
		return 0;
	if (!gb_cpu_at(cpus, c)->online || !em_cpumask_test(&t->allowed, c))
		return 0;
	/* a capacity-misfit move goes to an idle CPU only, and so does a task back to the domain
	 * a pull took it out of, within the pull hold (gb_pull_hold.h) */
	if ((min_cap || (t->pull_held >> d & 1)) && gb_cpu_at(cpus, c)->nr_running)
		return 0;
	if (GB_HOOK_PRICE(m, cpus, t, s, c, &cc) || !cc.ok)
		return 0;
	if (!gb_group_mixed(gb_cpu_at(cpus, c), t))
		ds->unmixed = 1;
	if (gb_better_in_domain(cpus, t, ds->win, ds->cwin, c, cc)) {
		ds->win = (s32)c;
		ds->cwin = cc;
	}
	return 0;
}

/* Is the domain of the task's previous CPU over its tipping point (false for a new task)? */
static __always_inline bool gb_prev_domain_overutilized(const struct em_model *m,
							const struct gb_task *t,
							const struct gb_scratch *s)
{
	u32 d;

	if (t->prev_cpu < 0 || (u32)t->prev_cpu >= m->nr_cpus)
		return false;
	d = m->cpu_domain[(u32)t->prev_cpu & (EM_MAX_CPUS - 1)];
	return d < m->nr_domains && s->pd[d & (EM_MAX_DOMAINS - 1)].overutilized;
}

/* Pass 3, one domain: its candidate (GB_NO_CPU if none) into *cwin.  An over-utilized domain
 * offers its CPU with the most spare capacity (spreading), the others pass 2's winner. */
static __always_inline s32 gb_domain_offer(const struct em_model *m, const struct gb_cpu *cpus,
					   const struct gb_task *t, const struct gb_scratch *s,
					   u32 d, u32 min_cap, u32 max_cap, struct gb_cand *cwin)
{
	const struct gb_domain_scratch *ds = &s->pd[d & (EM_MAX_DOMAINS - 1)];
	u32 cap;
	s32 win;

	if (d >= m->nr_domains || gb_cap_excluded(m, d, min_cap, max_cap))
		return GB_NO_CPU;
	if (!ds->overutilized) {
		*cwin = ds->cwin;
		cwin->mixed = ds->win != GB_NO_CPU && !ds->unmixed;
		return ds->win;
	}
	/* spreading ignores the utilization fit (every CPU there is past its tipping point), not
	 * the clamps: a uclamp_min the domain cannot serve, or a misfit hold, keep it out; and a
	 * task too big for the domain's CPUs is spread there only to escape an over-utilized
	 * domain of its own (from one with room, the tick would move it straight back up) */
	cap = em_domain_capacity(gb_pd(m, d));
	if (cap < EM_CAPACITY_SCALE &&
	    (gb_min(t->uclamp_min, t->uclamp_max) > cap || cap <= t->floor_cap ||
	     (gb_no_room(t, 0, cap) && !gb_prev_domain_overutilized(m, t, s))))
		return GB_NO_CPU;
	win = ds->spread_cpu;
	if (win == GB_NO_CPU ||
	    ((min_cap || (t->pull_held >> d & 1)) && gb_cpu_at(cpus, (u32)win)->nr_running) ||
	    GB_HOOK_PRICE(m, cpus, t, s, (u32)win, cwin))
		return GB_NO_CPU;
	cwin->ok = 1;
	return win;
}

/*
 * gb_select_cpu_range - where task t should run when it wakes up (or is forked: prev_cpu
 * GB_NO_CPU).  Only CPUs in t->allowed that are online are considered.  max_cap, when not 0,
 * excludes CPUs whose capacity is >= max_cap (a power-misfit search: strictly smaller CPUs);
 * min_cap excludes CPUs whose capacity is <= min_cap (a capacity-misfit search), and then
 * busy CPUs too: a misfit moved to wait behind another task runs later than where it is, and
 * an idle CPU pulls it straight back (on an overloaded SoC every tick became two migrations;
 * the kernel's misfit balance also targets idle CPUs).  Fills *out; returns out->cpu.  Pass 1
 * and every CPU of pass 2 go through the GB_HOOK_* steps.
 */
static __always_inline s32 gb_select_cpu_range(const struct em_model *m, const struct gb_cpu *cpus,
					       const struct gb_task *t, u32 min_cap, u32 max_cap,
					       struct gb_scratch *s, struct gb_decision *out)
{
	s32 best = GB_NO_CPU, prev = t->prev_cpu;
	struct gb_cand cbest = {0}, cprev = {0};
	bool best_spread = false, have_prev = false;
	u32 c, d;

	out->cpu = GB_NO_CPU;
	out->reason = GB_REASON_NONE;
	out->opp_idx = 0;
	out->prev_opp_idx = 0;
	out->energy_delta = 0;
	if (GB_HOOK_SCAN(m, cpus, t, s))
		return GB_NO_CPU;
	if (prev >= 0 && (u32)prev < m->nr_cpus && em_cpumask_test(&t->allowed, (u32)prev) &&
	    gb_cpu_at(cpus, (u32)prev)->online && !GB_HOOK_PRICE(m, cpus, t, s, (u32)prev, &cprev))
		have_prev = true;
	/* pass 2: the winner of every domain, in one pass over the CPUs */
	GB_FOR_CPU (c, m->nr_cpus)
		GB_HOOK_CONSIDER(m, cpus, t, s, c, min_cap, max_cap);
	/* pass 3: across domains */
	GB_FOR_DOMAIN (d, m->nr_domains) {
		struct gb_cand cwin = {0};
		bool spread;
		s32 win;
		int g;

		win = GB_HOOK_OFFER(m, cpus, t, s, d, min_cap, max_cap, &cwin);
		if (win == GB_NO_CPU)
			continue;
		spread = s->pd[d & (EM_MAX_DOMAINS - 1)].overutilized;
		g = gb_group_cmp(m, t->group, best, cbest, !best_spread, win, cwin, !spread);
		if (g > 0 || (!g && gb_better_across(best, cbest, cwin, !min_cap))) {
			best = win;
			cbest = cwin;
			best_spread = spread;
		}
	}
	if (best == GB_NO_CPU && !min_cap && !max_cap) {
		/* nothing fits: the previous CPU, else the first allowed online CPU (affinity wins)
		 */
		if (have_prev) {
			best = prev;
			cbest = cprev;
		} else {
			GB_FOR_CPU (c, m->nr_cpus) {
				if (em_cpumask_test(&t->allowed, c) && gb_cpu_at(cpus, c)->online) {
					best = (s32)c;
					if (GB_HOOK_PRICE(m, cpus, t, s, c, &cbest))
						cbest = (struct gb_cand){0};
					break;
				}
			}
		}
	}
	/* hysteresis: a saving within 1/16 does not pay for leaving an idle previous CPU (two
	 * similar tasks would otherwise swap domains at every wake-up on OPP granularity) */
	if (have_prev && best != prev && best != GB_NO_CPU && cprev.ok && !min_cap && !max_cap &&
	    gb_cpu_at(cpus, (u32)prev)->nr_running == 0 &&
	    !s->pd[m->cpu_domain[(u32)prev & (EM_MAX_CPUS - 1)] & (EM_MAX_DOMAINS - 1)]
		 .overutilized &&
	    cprev.delta - cbest.delta <=
		((cprev.delta < 0 ? -cprev.delta : cprev.delta) >> GB_TIE_SHIFT)) {
		best = prev;
		cbest = cprev;
	}
	out->cpu = best;
	out->opp_idx = cbest.idx;
	out->prev_opp_idx = have_prev ? cprev.idx : 0;
	out->energy_delta = have_prev ? cbest.delta - cprev.delta : cbest.delta;
	if (best == GB_NO_CPU || best == prev)
		out->reason = GB_REASON_NONE;
	else if (prev < 0)
		out->reason = GB_REASON_FORK;
	else if (!have_prev)
		out->reason = GB_REASON_AFFINITY;
	else if (best_spread)
		out->reason = GB_REASON_OVERUTILIZED_SPREAD;
	else
		out->reason = GB_REASON_WAKEUP_ENERGY;
	return best;
}

/*
 * The fork rule: a new task has no history, so there is nothing to price.  Like the kernel's
 * fork balancing (sched_balance_find_dst_cpu) it goes to the domain with the most idle allowed
 * CPUs, the smaller domain on a tie, its first idle CPU.  GB_NO_CPU when none is idle.
 */
static __always_inline s32 gb_fork_cpu(const struct em_model *m, const struct gb_cpu *cpus,
				       const struct gb_task *t)
{
	u32 c, d, best_idle = GB_COUNT_ZERO;
	s32 best = GB_NO_CPU;

	GB_FOR_DOMAIN (d, m->nr_domains) {
		u32 idle = GB_COUNT_ZERO;
		s32 first = GB_NO_CPU;

		GB_FOR_DOMAIN_CPU (c, m, d) {
			const struct gb_cpu *cs = gb_cpu_at(cpus, c);

			if (!cs->online || cs->nr_running || !em_cpumask_test(&t->allowed, c))
				continue;
			if (first == GB_NO_CPU)
				first = (s32)c;
			idle++;
		}
		if (idle > best_idle) {
			best_idle = idle;
			best = first;
		}
	}
	return best;
}

/*
 * gb_select_cpu - wake-up and fork placement.  A new task goes by the fork rule (gb_fork_cpu);
 * without any idle CPU it is priced as it is (util 0); wake-up placement and misfit take over
 * once it has run.
 */
static __always_inline s32 gb_select_cpu(const struct em_model *m, const struct gb_cpu *cpus,
					 const struct gb_task *t, struct gb_scratch *s,
					 struct gb_decision *out)
{
	s32 best;

	if (t->prev_cpu >= 0 || t->util || t->util_est)
		return GB_HOOK_RANGE(m, cpus, t, 0, 0, s, out);
	best = GB_HOOK_FORK(m, cpus, t);
	GB_HOOK_RANGE(m, cpus, t, 0, 0, s, out);
	if (best != GB_NO_CPU && best != out->cpu) {
		out->cpu = best;
		out->opp_idx = 0;
		out->energy_delta = 0;
	}
	out->reason = GB_REASON_FORK;
	return out->cpu;
}

/*
 * The cost of the cheapest OPP domain pd runs at: its lowest efficient one.  em_compute_costs()
 * marks every OPP that costs as much as a higher one inefficient, so along the OPPs a domain
 * can run at, cost rises with the OPP; gb_prev_is_cheapest() rests on that.
 */
static __always_inline u64 gb_domain_min_cost(const struct em_model *m, u32 d)
{
	/* em_efficient_state(pd, 0) */
	return gb_pd(m, d)->opps[GB_HOOK_OPP_FROM(m, d, 0, 0) & (EM_MAX_OPPS - 1)].cost;
}

/* Can a task with misfit hold floor_cap go to domain e (gb_room_for: a capacity above the hold,
 * or the biggest)? */
static __always_inline bool gb_above_hold(const struct em_model *m, u32 e, u32 floor_cap)
{
	u32 cap = em_domain_capacity(gb_pd(m, e));

	return cap >= EM_CAPACITY_SCALE || cap > floor_cap;
}

/*
 * gb_cheaper_elsewhere - can a CPU of a domain other than d that a task with misfit hold floor_cap
 * may go to be priced below bound for the task's work?  Every such price is at least the cost of
 * the domain's cheapest OPP (gb_domain_min_cost) x work.  Without a hold, that is
 * gb_min_cost_elsewhere(m, d) x work < bound.
 */
static __always_inline bool gb_cheaper_elsewhere(const struct em_model *m, u32 d, u32 floor_cap,
						 u32 work, u64 bound)
{
	u32 e;

	GB_FOR_DOMAIN (e, m->nr_domains) {
		if (e != d && gb_above_hold(m, e, floor_cap) &&
		    gb_domain_min_cost(m, e) * work < bound)
			return true;
	}
	return false;
}

/*
 * gb_min_cost_elsewhere - the least cost per unit of work of any domain but d at its cheapest OPP
 * (gb_domain_min_cost), ~0 when there is no other: a constant of the model, which a host may
 * compute once per domain for GB_HOOK_CHEAPER_ELSEWHERE (bpf/gearbox_place.h).
 */
static __always_inline u64 gb_min_cost_elsewhere(const struct em_model *m, u32 d)
{
	u64 least = ~0ull;
	u32 e;

	for (e = 0; e < m->nr_domains && e < EM_MAX_DOMAINS; e++) {
		u64 cost = gb_domain_min_cost(m, e);

		if (e != d && cost < least)
			least = cost;
	}
	return least;
}

#ifndef GB_HOOK_CHEAPER_ELSEWHERE
#define GB_HOOK_CHEAPER_ELSEWHERE(m, d, floor_cap, work, bound)                                    \
	gb_cheaper_elsewhere(m, d, floor_cap, work, bound)
#endif

/*
 * gb_domain_min_wake_cost - the least cost per unit of work of any OPP of domain d with its wake
 * cost (gb_wake_cost): what a CPU of d costs the task's work at the least while the domain is
 * asleep.  The wake cost falls as the OPP rises, so this may be a higher OPP's (msm8998's big
 * domain: 2394 + 1129 at perf 208 against 2298 + 1631 at perf 144); an OPP that is inefficient
 * costs no less than a higher one, so taking every OPP gives the efficient ones' least.  A
 * constant of the model, which a host may compute once per domain for GB_HOOK_MIN_WAKE_COST
 * (bpf/gearbox_place.h).
 */
static __always_inline u64 gb_domain_min_wake_cost(const struct em_model *m, u32 d)
{
	const struct em_domain *pd = gb_pd(m, d);
	u64 least = ~0ull;
	u32 i;

	for (i = 0; i < pd->nr_opps && i < EM_MAX_OPPS; i++) {
		u64 cost = (u64)pd->opps[i].cost + pd->opps[i].wake_cost;

		if (cost < least)
			least = cost;
	}
	return least;
}

#ifndef GB_HOOK_MIN_WAKE_COST
#define GB_HOOK_MIN_WAKE_COST(m, d) gb_domain_min_wake_cost(m, d)
#endif

/*
 * gb_prev_is_cheapest - a sufficient condition for gb_select_cpu() to keep t on its previous CPU,
 * cheap enough for a host to test before the search.  The previous CPU must be online, allowed
 * and idle, in a domain not over its tipping point and above t's misfit hold, t must have no
 * uclamp_min, and fit there (gb_price's ok).  Its price is then gb_price()'s for an idle CPU,
 * computed here from the domain's state without the task; the search keeps t there unless
 * another candidate is cheaper by more than the hysteresis' 1/16 of that price, and:
 *  - a CPU of another domain (one the hold leaves t) costs at least that domain's cheapest OPP
 *    x work (cost rises with the OPP along the OPPs a domain runs at, gb_domain_min_cost; the
 *    wake cost and the OPP the task raises only add), so none is cheaper by more when
 *    gb_cheaper_elsewhere() says no;
 *  - another online CPU of its domain needs an OPP no lower than the previous CPU's: where t
 *    fits without raising the domain's OPP, always; where it raises it, when every such CPU has
 *    at least the previous CPU's load without the task (a busy CPU's clamps only add).  Where
 *    the domain is awake, that OPP's cost is then no less.  Where it is asleep, a higher OPP
 *    may cost less with its wake cost, which falls as the OPP rises: such a CPU costs at least
 *    the domain's least OPP-and-wake cost (gb_domain_min_wake_cost) x work, plus the rise of
 *    the OPP over the domain's busy time, and none is cheaper by more when that is no less
 *    than the bound.
 * Fills *out as gb_select_cpu() would (tests/sched/test_place.c checks it on random states);
 * false means nothing, the search decides.
 */
static __always_inline bool gb_prev_is_cheapest(const struct em_model *m, const struct gb_cpu *cpus,
						const struct gb_task *t, struct gb_decision *out)
{
	const struct em_domain *pd;
	const struct gb_cpu *ps;
	s32 prev = t->prev_cpu;
	u32 d, c, cap, base_perf = 0, base_idx, idx, perf, work, util, least = ~0u;
	u32 running = 0, overutilized = 0;
	u64 busy = 0, cost0, cost, wake, w, e_with;
	s64 delta;

	if (prev < 0 || (u32)prev >= m->nr_cpus || t->uclamp_min ||
	    !em_cpumask_test(&t->allowed, (u32)prev))
		return false;
	ps = gb_cpu_at(cpus, (u32)prev);
	d = m->cpu_domain[(u32)prev & (EM_MAX_CPUS - 1)];
	if (!ps->online || ps->nr_running || d >= m->nr_domains)
		return false;
	pd = gb_pd(m, d);
	cap = em_domain_capacity(pd);
	if (!gb_above_hold(m, d, t->floor_cap))
		return false;
	/* the domain's perf and busy time without the task, as gb_scan_domains() computes them,
	 * its over-utilization (gb_domain_overutilized), and the least load of its other CPUs */
	GB_FOR_DOMAIN_CPU (c, m, d) {
		const struct gb_cpu *cs = gb_cpu_at(cpus, c);
		u32 other;

		if (!cs->online)
			continue;
		other = gb_util_without(cs, c, t);
		base_perf =
		    gb_max(base_perf, gb_perf_request(other, gb_rq_umin(cs), gb_rq_umax(cs)));
		busy += other;
		running |= cs->nr_running;
		overutilized |= gb_cpu_overutilized(cs, cap);
		if ((s32)c != prev)
			least = gb_min(least, other);
	}
	if (overutilized)
		return false;
	base_idx = GB_HOOK_OPP_FROM(m, d, gb_min(base_perf, cap), 0) & (EM_MAX_OPPS - 1);
	work = gb_task_work(t);
	util = gb_util_without(ps, (u32)prev, t);
	/* gb_price() for an idle CPU: the run queue's clamps are the task's own */
	perf = gb_min(
	    gb_max(base_perf, gb_perf_request(gb_util_with(util, 0, t), 0, t->uclamp_max)), cap);
	idx = base_idx;
	if (perf > pd->opps[base_idx].perf) {
		if (least < util)
			return false;
		idx = GB_HOOK_OPP_FROM(m, d, perf, base_idx) & (EM_MAX_OPPS - 1);
	}
	if (cap < EM_CAPACITY_SCALE && gb_no_room(t, util, cap))
		return false;
	if (t->uclamp_max < cap && gb_full_at_clamp(pd, idx, util, work, true))
		return false;
	/* the previous CPU's price, as gb_price() computes it (the same OPP with and without the
	 * boost, no uclamp_min) */
	cost0 = pd->opps[base_idx].cost;
	cost = pd->opps[idx].cost;
	wake = gb_wake_cost(pd, idx, gb_none_running(running));
	w = gb_min(t->runnable, EM_CAPACITY_SCALE);
	e_with = (cost + wake) * work +
		 ((cost * busy * (EM_CAPACITY_SCALE - w) + cost * busy * w) >> 10);
	delta = (s64)e_with - (s64)(cost0 * busy);
	delta -= (delta < 0 ? -delta : delta) >> GB_TIE_SHIFT;
	/* an asleep domain's other CPUs, at least its least OPP-and-wake cost (see above) */
	if (wake && least != ~0u &&
	    (s64)(GB_HOOK_MIN_WAKE_COST(m, d) * work + (cost - cost0) * busy) < delta)
		return false;
	if (GB_HOOK_CHEAPER_ELSEWHERE(m, d, t->floor_cap, work, delta > 0 ? (u64)delta : 0))
		return false;
	out->cpu = prev;
	out->reason = GB_REASON_NONE;
	out->opp_idx = idx;
	out->prev_opp_idx = idx;
	out->energy_delta = 0;
	return true;
}

#endif /* GEARBOX_GB_PLACE_H */
