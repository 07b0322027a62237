// SPDX-License-Identifier: GPL-2.0-only
/*
 * sim_policies.c - the policies the simulator compares (docs/sim.md says how each follows the
 * kernel; the formulas are those of the kernel's fair.c and energy_model.c):
 *
 *   gearbox      src/policy/gb_policy.h, the code the BPF scheduler runs
 *   mainline     fair.c's find_energy_efficient_cpu() with max-spare-capacity candidates,
 *                util_fits_cpu(), the root domain's global over-utilized flag that turns EAS
 *                off (select_idle_capacity() then places), misfit active balance
 *   rework       Guittot's series: per-domain candidate by OPP cost with the nr_running /
 *                prev / runnable tie-break, energy compared across domains, push of stuck tasks
 *   performance  the biggest idle CPU
 */
#include "sim_internal.h"

/* ---- gearbox: the shared policy; the host keeps the misfit hold (gb_misfit_hold) ---- */

static s32 gearbox_select(struct sim *s, struct sim_task *t, bool fork, u32 *reason, s64 *delta)
{
	struct gb_task gt;
	struct gb_decision d;

	sim_fill_task(s, t, &gt);
	if (fork)
		gt.prev_cpu = GB_NO_CPU;
	gt.floor_cap = gb_misfit_hold(&gt, t->misfit_cap, t->misfit_work);
	if (!gt.floor_cap)
		t->misfit_cap = 0;
	gb_select_cpu(s->m, s->gcpu, &gt, &s->scratch, &d);
	*reason = d.reason;
	*delta = d.energy_delta;
	return d.cpu;
}

static void gearbox_tick(struct sim *s)
{
	for (u32 c = 0; c < s->m->nr_cpus; c++) {
		struct sim_task *t;
		struct gb_task gt;
		struct gb_decision d;
		s32 to;

		t = sim_fair_curr(s, c);
		if (!t)
			continue;
		sim_fill_task(s, t, &gt);
		to = gb_check_misfit(s->m, s->gcpu, &gt, c, s->now_us - t->woke_us,
				     s->opt.push_after_us, &s->scratch, &d);
		if (to >= 0 && to != (s32)c) {
			if (d.reason == GB_REASON_CAPACITY_MISFIT) {
				t->misfit_cap = sim_cpu_capacity(s, c);
				t->misfit_work = gb_task_work(&gt);
			}
			sim_migrate(s, t, (u32)to, d.reason, d.energy_delta);
			t->woke_us = s->now_us;
			sim_refresh(s);
		}
	}
}

/* The shared pull rule (gb_may_pull); the task's wait is the time since it joined src's queue
 * (the engine pulls before the tick's rotation for gearbox, so a task that waited a whole tick
 * is pulled, as scx_gearbox pulls from a queue unserved for 4 ms with its 5 ms slices). */
static bool gearbox_may_pull(struct sim *s, u32 dst, u32 src, const struct sim_task *t)
{
	u32 ds = s->m->cpu_domain[src];
	struct gb_task gt;

	sim_refresh(s);
	sim_fill_task(s, t, &gt);
	gt.floor_cap = gb_misfit_hold(&gt, t->misfit_cap, t->misfit_work);
	return gb_may_pull(s->m, s->gcpu, &gt, dst, ds, s->doms[ds].ou, s->now_us - t->queued_us,
			   s->opt.pull_after_us);
}

const struct sim_policy_ops sim_ops_gearbox = {
	.name = "gearbox",
	.select = gearbox_select,
	.tick = gearbox_tick,
	.may_pull = gearbox_may_pull,
	.pull_before_rotation = true,
	.scx = true,
	.scx_view = true,
};

/* ---- mainline ---- */

static u32 task_util_est(const struct sim_task *t)
{
	return gb_max(t->pelt.util_avg, t->pelt.util_est);
}

/* util_fits_cpu(): 1 fits, 0 does not, -1 fits util but not uclamp_min */
static int util_fits_cpu(const struct sim *s, u32 util, u32 umin, u32 umax, u32 cpu)
{
	u32 cap = sim_cpu_capacity(s, cpu);
	bool fits = gb_fits_capacity(util, cap);
	bool umax_fits = !(cap == EM_CAPACITY_SCALE && umax == EM_CAPACITY_SCALE) && umax <= cap;

	fits = fits || umax_fits;
	umin = gb_min(umin, umax);
	if (fits && util < umin && umin > cap)
		return -1;
	return fits;
}

/* Sum of util_est of the tasks enqueued on cpu (cfs_rq->avg.util_est). */
static u32 cpu_util_est_enqueued(const struct sim *s, u32 cpu)
{
	u32 sum = 0;

	for (u32 i = 0; i < s->nr_tasks; i++) {
		const struct sim_task *o = &s->tasks[i];

		if (o->cpu == (s32)cpu && (o->state == TS_RUNNING || o->state == TS_QUEUED))
			sum += o->pelt.util_est;
	}
	return sum;
}

/* cpu_util(cpu, p, dst, boost) */
static u32 cpu_util(const struct sim *s, u32 cpu, const struct sim_task *p, s32 dst, bool boost,
		    const u32 *est)
{
	const struct gb_cpu *g = &s->gcpu[cpu];
	u32 util = boost ? gb_max(g->util, g->runnable) : g->util;
	u32 runnable = est[cpu];
	u32 pu = p->pelt.util_avg;

	if (p->cpu == (s32)cpu && dst != (s32)cpu)
		util = util > pu ? util - pu : 0;
	else if (p->cpu != (s32)cpu && dst == (s32)cpu)
		util += pu;
	if (dst == (s32)cpu)
		runnable += task_util_est(p);
	util = gb_max(util, runnable);
	return gb_min(util, sim_cpu_capacity(s, cpu));
}

/* The uclamp pair a CPU applies with p on it (feec's util_min/util_max). */
static void rq_clamps(const struct sim *s, u32 cpu, const struct sim_task *p, u32 *umin, u32 *umax)
{
	const struct gb_cpu *g = &s->gcpu[cpu];

	*umin = p->uclamp_min;
	*umax = p->uclamp_max;
	if (g->nr_running) {
		*umin = gb_max(*umin, g->uclamp_min);
		*umax = gb_max(*umax, g->uclamp_max);
	}
}

/* compute_energy(eenv, pd, p, dst): the domain's energy with p on dst (dst -1: without p) */
static u64 compute_energy(const struct sim *s, u32 d, const struct sim_task *p, s32 dst,
			  const u32 *est)
{
	const struct em_domain *pd = &s->m->domains[d];
	u32 cap = em_domain_capacity(pd), max_util = 0, busy = 0;

	for (u32 c = 0; c < s->m->nr_cpus; c++) {
		const struct gb_cpu *g = &s->gcpu[c];
		u32 umin = gb_rq_umin(g), umax = gb_rq_umax(g), util;

		if (s->m->cpu_domain[c] != d)
			continue;
		busy += cpu_util(s, c, p, -1, false, est);
		util = cpu_util(s, c, p, dst, true, est);
		if ((s32)c == dst) {
			umin = gb_max(umin, p->uclamp_min);
			umax = g->nr_running ? gb_max(umax, p->uclamp_max) : p->uclamp_max;
		}
		max_util = gb_max(max_util, gb_perf_request(util, umin, umax));
	}
	busy = gb_min(busy, cap * pd->nr_cpus);
	if (dst >= 0)
		busy = gb_min(busy + task_util_est(p), cap * pd->nr_cpus);
	return em_domain_energy(pd, gb_min(max_util, cap), busy, cap);
}

/* select_idle_capacity() from prev: the first idle CPU that fits, else the best-fitting one. */
static s32 select_idle_capacity(const struct sim *s, const struct sim_task *t)
{
	u32 n = s->m->nr_cpus, util = task_util_est(t), best_cap = 0;
	s32 target = t->cpu >= 0 ? t->cpu : 0, best = -1;
	int best_fits = 0;

	if (s->gcpu[target].idle && em_cpumask_test(&t->allowed, (u32)target) &&
	    util_fits_cpu(s, util, t->uclamp_min, t->uclamp_max, (u32)target) > 0)
		return target;
	for (u32 k = 0; k < n; k++) {
		u32 c = ((u32)target + k) % n, cap = sim_cpu_capacity(s, c);
		int fits;

		if (!s->gcpu[c].idle || !em_cpumask_test(&t->allowed, c))
			continue;
		fits = util_fits_cpu(s, util, t->uclamp_min, t->uclamp_max, c);
		if (fits > 0)
			return (s32)c;
		if (fits < best_fits || (fits == best_fits && cap > best_cap)) {
			best_cap = cap;
			best = (s32)c;
			best_fits = fits;
		}
	}
	return best >= 0 ? best : target;
}

/* find_energy_efficient_cpu() as in tip's fair.c; -1 when it declines. */
static s32 feec(struct sim *s, const struct sim_task *t, bool opp_cost, s64 *delta_out)
{
	u32 est[EM_MAX_CPUS];
	u64 best_delta = ~0ull, prev_delta = ~0ull;
	int best_fits = -1, prev_fits = -1;
	u32 best_cap = 0, prev_cap = 0;
	s32 prev = t->cpu, target = prev, best_cpu = -1;

	for (u32 c = 0; c < s->m->nr_cpus; c++)
		est[c] = cpu_util_est_enqueued(s, c);
	for (u32 d = 0; d < s->m->nr_domains; d++) {
		u32 cap = em_domain_capacity(&s->m->domains[d]);
		long max_spare = -1, prev_spare = -1;
		s32 cand = -1;
		int max_fits = -1, fits;
		u64 cand_cost = ~0ull, base, e;

		for (u32 c = 0; c < s->m->nr_cpus; c++) {
			u32 util, umin, umax;

			if (s->m->cpu_domain[c] != d || !em_cpumask_test(&t->allowed, c))
				continue;
			util = cpu_util(s, c, t, (s32)c, false, est);
			rq_clamps(s, c, t, &umin, &umax);
			fits = util_fits_cpu(s, util, umin, umax, c);
			if (!fits)
				continue;
			if ((s32)c == prev) {
				prev_spare = (long)cap - (long)gb_min(util, cap);
				prev_fits = fits;
				continue;
			}
			if (opp_cost) {
				/* rework: the OPP cost this CPU would need, ties by load */
				u32 idx = em_efficient_state(&s->m->domains[d],
							     gb_min(gb_perf_request(util, umin, umax), cap));
				u64 cost = s->m->domains[d].opps[idx].cost;
				bool better = cand < 0 || fits > max_fits ||
					      (fits == max_fits && cost < cand_cost);

				if (!better && fits == max_fits && cost == cand_cost) {
					const struct gb_cpu *a = &s->gcpu[cand], *b = &s->gcpu[c];

					better = b->nr_running < a->nr_running ||
						 (b->nr_running == a->nr_running &&
						  b->runnable < a->runnable);
				}
				if (better) {
					cand = (s32)c;
					cand_cost = cost;
					max_fits = fits;
					max_spare = (long)cap - (long)gb_min(util, cap) + 1;
				}
			} else if (fits > max_fits ||
				   (fits == max_fits && (long)cap - (long)gb_min(util, cap) > max_spare)) {
				max_spare = (long)cap - (long)gb_min(util, cap);
				max_fits = fits;
				cand = (s32)c;
			}
		}
		if (cand < 0 && prev_spare < 0)
			continue;
		base = compute_energy(s, d, t, -1, est);
		if (prev_spare > -1) {
			e = compute_energy(s, d, t, prev, est);
			prev_delta = e > base ? e - base : 0;
			prev_cap = cap;
		}
		if (cand >= 0 && (opp_cost || max_spare > prev_spare)) {
			if (max_fits < best_fits)
				continue;
			if (max_fits < 0 && cap <= best_cap)
				continue;
			e = compute_energy(s, d, t, cand, est);
			e = e > base ? e - base : 0;
			if (max_fits > 0 && best_fits > 0 && e >= best_delta)
				continue;
			best_delta = e;
			best_cpu = cand;
			best_fits = max_fits;
			best_cap = cap;
		}
	}
	if (best_cpu >= 0 &&
	    (best_fits > prev_fits || (best_fits > 0 && best_delta < prev_delta) ||
	     (best_fits < 0 && best_cap > prev_cap))) {
		target = best_cpu;
		*delta_out = prev_delta != ~0ull ? (s64)best_delta - (s64)prev_delta : (s64)best_delta;
	}
	if (target < 0 || !em_cpumask_test(&t->allowed, (u32)target))
		return best_cpu;
	return target;
}

/* sched_balance_find_dst_cpu() for a fork, simplified: an idle fitting CPU of the group with
 * the most idle CPUs. */
static s32 fork_idlest(const struct sim *s, const struct sim_task *t)
{
	s32 best = -1;
	u32 best_idle = 0;

	for (u32 d = 0; d < s->m->nr_domains; d++) {
		u32 idle = 0;
		s32 first = -1;

		for (u32 c = 0; c < s->m->nr_cpus; c++) {
			if (s->m->cpu_domain[c] != d || !em_cpumask_test(&t->allowed, c) ||
			    !s->gcpu[c].idle)
				continue;
			if (util_fits_cpu(s, task_util_est(t), t->uclamp_min, t->uclamp_max, c) <= 0)
				continue;
			idle++;
			if (first < 0)
				first = (s32)c;
		}
		if (idle > best_idle) {
			best_idle = idle;
			best = first;
		}
	}
	return best >= 0 ? best : select_idle_capacity(s, t);
}

static s32 fair_select(struct sim *s, struct sim_task *t, bool fork, u32 *reason, s64 *delta,
		       bool opp_cost)
{
	s32 cpu = -1;

	*delta = 0;
	*reason = GB_REASON_WAKEUP_ENERGY;
	if (fork)
		return fork_idlest(s, t);
	if (!s->rd_overutilized && (task_util_est(t) || t->uclamp_min))
		cpu = feec(s, t, opp_cost, delta);
	if (cpu < 0) {
		cpu = select_idle_capacity(s, t);
		*reason = s->rd_overutilized ? GB_REASON_OVERUTILIZED_SPREAD : GB_REASON_BALANCE;
	}
	if (t->cpu >= 0 && !em_cpumask_test(&t->allowed, (u32)t->cpu))
		*reason = GB_REASON_AFFINITY;
	return cpu;
}

static s32 mainline_select(struct sim *s, struct sim_task *t, bool fork, u32 *reason, s64 *delta)
{
	return fair_select(s, t, fork, reason, delta, false);
}

/* Misfit (update_misfit_status + active balance): a running task that does not fit its CPU
 * goes to an idle CPU of higher capacity, the smallest such. */
static void misfit_balance(struct sim *s)
{
	for (u32 c = 0; c < s->m->nr_cpus; c++) {
		struct sim_task *t;
		u32 cap = sim_cpu_capacity(s, c), best_cap = ~0u;
		s32 to = -1;

		t = sim_fair_curr(s, c);
		if (!t || cap >= EM_CAPACITY_SCALE)
			continue;
		if (util_fits_cpu(s, task_util_est(t), t->uclamp_min, t->uclamp_max, c) > 0)
			continue;
		for (u32 o = 0; o < s->m->nr_cpus; o++) {
			u32 oc = sim_cpu_capacity(s, o);

			if (s->gcpu[o].idle && oc > cap && oc < best_cap &&
			    em_cpumask_test(&t->allowed, o)) {
				best_cap = oc;
				to = (s32)o;
			}
		}
		if (to >= 0) {
			sim_migrate(s, t, (u32)to, GB_REASON_CAPACITY_MISFIT, 0);
			sim_refresh(s);
		}
	}
}

/* EAS without over-utilization leaves balancing to wake-up placement (out_balanced). */
static bool fair_may_pull(struct sim *s, u32 dst, u32 src, const struct sim_task *t)
{
	(void)dst;
	(void)src;
	(void)t;
	return s->rd_overutilized;
}

const struct sim_policy_ops sim_ops_mainline = {
	.name = "mainline",
	.select = mainline_select,
	.tick = misfit_balance,
	.may_pull = fair_may_pull,
};

/* ---- rework ---- */

static s32 rework_select(struct sim *s, struct sim_task *t, bool fork, u32 *reason, s64 *delta)
{
	return fair_select(s, t, fork, reason, delta, true);
}

/* task_stuck_on_cpu(): max(util_est, runnable) > min(capacity, uclamp_max) with the task alone
 * on its CPU: feec again, and push when it picks another CPU. */
static void rework_tick(struct sim *s)
{
	misfit_balance(s);
	if (s->rd_overutilized)
		return;
	for (u32 c = 0; c < s->m->nr_cpus; c++) {
		struct sim_task *t;
		s64 delta = 0;
		s32 to;

		t = sim_fair_curr(s, c);
		if (!t || s->cpus[c].nr_queued)
			continue;
		if (gb_max(t->pelt.util_est, t->pelt.runnable_avg) <=
		    gb_min(sim_cpu_capacity(s, c), t->uclamp_max))
			continue;
		to = feec(s, t, true, &delta);
		if (to >= 0 && to != (s32)c) {
			sim_migrate(s, t, (u32)to, GB_REASON_POWER_MISFIT, delta);
			sim_refresh(s);
		}
	}
}

const struct sim_policy_ops sim_ops_rework = {
	.name = "rework",
	.select = rework_select,
	.tick = rework_tick,
	.may_pull = fair_may_pull,
};

/* ---- performance ---- */

static s32 performance_select(struct sim *s, struct sim_task *t, bool fork, u32 *reason,
			      s64 *delta)
{
	s32 best = -1;
	u64 best_key = 0;

	(void)fork;
	*reason = GB_REASON_BALANCE;
	*delta = 0;
	for (u32 c = 0; c < s->m->nr_cpus; c++) {
		const struct gb_cpu *g = &s->gcpu[c];
		u64 key;

		if (!em_cpumask_test(&t->allowed, c))
			continue;
		/* idle first, then capacity, then fewer tasks, then the previous CPU */
		key = ((u64)(g->nr_running == 0) << 40) | ((u64)sim_cpu_capacity(s, c) << 24) |
		      ((u64)(0xffff - gb_min(g->nr_running, 0xffff)) << 8) | ((s32)c == t->cpu);
		if (best < 0 || key > best_key) {
			best = (s32)c;
			best_key = key;
		}
	}
	return best;
}

static bool performance_may_pull(struct sim *s, u32 dst, u32 src, const struct sim_task *t)
{
	(void)s;
	(void)dst;
	(void)src;
	(void)t;
	return true;
}

const struct sim_policy_ops sim_ops_performance = {
	.name = "performance",
	.select = performance_select,
	.may_pull = performance_may_pull,
};
