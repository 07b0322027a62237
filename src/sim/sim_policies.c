// SPDX-License-Identifier: GPL-2.0-only
/*
 * sim_policies.c - the policies the simulator compares (docs/sim.md says how each follows the
 * kernel; the formulas are those of the kernel's fair.c and energy_model.c):
 *
 *   gearbox      src/policy/gb_policy.h, the code the BPF scheduler runs
 *   mainline     fair.c's find_energy_efficient_cpu() with max-spare-capacity candidates,
 *                util_fits_cpu(), the root domain's over-utilized flag that turns EAS off
 *                (set at enqueue and tick, cleared by the root balance; select_idle_capacity()
 *                then places), misfit active balance
 *   rework       Guittot's series: per-domain candidate by OPP cost with the nr_running /
 *                prev / runnable tie-break, domains compared by the OPP-cost estimate, push
 *                of preempted and stuck tasks
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
    .id = SIM_POLICY_GEARBOX,
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

/* feec's per-CPU fit: p's util on cpu with p there, the rq's clamps, and util_fits_cpu() */
static int task_fits_cpu_eas(const struct sim *s, u32 cpu, const struct sim_task *p, const u32 *est,
			     u32 *util, u32 *umin, u32 *umax)
{
	*util = cpu_util(s, cpu, p, (s32)cpu, false, est);
	rq_clamps(s, cpu, p, umin, umax);
	return util_fits_cpu(s, *util, *umin, *umax, cpu);
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
static s32 feec(struct sim *s, const struct sim_task *t, s64 *delta_out)
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
		u64 base, e;

		for (u32 c = 0; c < s->m->nr_cpus; c++) {
			u32 util, umin, umax;

			if (s->m->cpu_domain[c] != d || !em_cpumask_test(&t->allowed, c))
				continue;
			fits = task_fits_cpu_eas(s, c, t, est, &util, &umin, &umax);
			if (!fits)
				continue;
			if ((s32)c == prev) {
				prev_spare = (long)cap - (long)gb_min(util, cap);
				prev_fits = fits;
				continue;
			}
			if (fits > max_fits ||
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
		if (cand >= 0 && max_spare > prev_spare) {
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
	if (best_cpu >= 0 && (best_fits > prev_fits || (best_fits > 0 && best_delta < prev_delta) ||
			      (best_fits < 0 && best_cap > prev_cap))) {
		target = best_cpu;
		*delta_out =
		    prev_delta != ~0ull ? (s64)best_delta - (s64)prev_delta : (s64)best_delta;
	}
	if (target < 0 || !em_cpumask_test(&t->allowed, (u32)target))
		return best_cpu;
	return target;
}

/*
 * find_energy_efficient_cpu() as the rework series has it ("Rework feec() to use cost instead
 * of spare capacity").  In each domain the candidate is the CPU where the task fits (best
 * util_fits_cpu() first) whose own OPP with the task costs least: find_cpu_max_util(), the
 * boosted cpu_util() (max of util and runnable) with the task, through
 * sugov_effective_cpu_perf() with the run queue's clamps and the task's, capped at the CPU's
 * capacity; ties go to fewer running tasks, then the previous CPU, then a runnable_avg lower by
 * more than the domain's imbalance_pct (117).  Across domains, best fits first, the lowest
 *     task_busy_time x cost(candidate's OPP)
 *         + pd_busy_time x max(0, cost(candidate's OPP) - cost(the domain's OPP without the task))
 * wins outright: no max-spare-capacity candidate and no separate evaluation of the previous
 * CPU.  -1 when no CPU fits at all.
 */
#define SIM_IMBALANCE_PCT 117

/* cpu's running and waiting tasks, and its runnable_avg, without t (a pushed task is still on
 * its CPU when the choice is made) */
static u32 nr_running_without(const struct sim *s, u32 cpu, const struct sim_task *t)
{
	u32 nr = s->gcpu[cpu].nr_running;

	return t->cpu == (s32)cpu && nr && (t->state == TS_RUNNING || t->state == TS_QUEUED)
		   ? nr - 1
		   : nr;
}

static u32 runnable_without(const struct sim *s, u32 cpu, const struct sim_task *t)
{
	u32 r = s->gcpu[cpu].runnable, tr = t->pelt.runnable_avg;

	if (t->cpu != (s32)cpu)
		return r;
	return r > tr ? r - tr : 0;
}

static s32 rework_feec(struct sim *s, const struct sim_task *t, s64 *delta_out)
{
	u32 est[EM_MAX_CPUS], task_busy = task_util_est(t);
	u64 best_e = ~0ull;
	int best_fits = -2;
	s32 best_cpu = -1;

	for (u32 c = 0; c < s->m->nr_cpus; c++)
		est[c] = cpu_util_est_enqueued(s, c);
	for (u32 d = 0; d < s->m->nr_domains; d++) {
		const struct em_domain *pd = &s->m->domains[d];
		u32 cap = em_domain_capacity(pd), pd_busy = 0, base_perf = 0;
		u64 cand_cost = 0, base_cost, e;
		s32 cand = -1;
		int cand_fits = -2;

		for (u32 c = 0; c < s->m->nr_cpus; c++) {
			const struct gb_cpu *g = &s->gcpu[c];
			u32 util, umin, umax, perf;
			u64 cost;
			bool better;
			int fits;

			if (s->m->cpu_domain[c] != d)
				continue;
			pd_busy += cpu_util(s, c, t, -1, false, est);
			base_perf =
			    gb_max(base_perf, gb_perf_request(cpu_util(s, c, t, -1, true, est),
							      gb_rq_umin(g), gb_rq_umax(g)));
			if (!em_cpumask_test(&t->allowed, c))
				continue;
			fits = task_fits_cpu_eas(s, c, t, est, &util, &umin, &umax);
			if (!fits)
				continue;
			perf = gb_perf_request(cpu_util(s, c, t, (s32)c, true, est), umin, umax);
			cost = pd->opps[em_efficient_state(pd, gb_min(perf, cap))].cost;
			better =
			    cand < 0 || fits > cand_fits || (fits == cand_fits && cost < cand_cost);
			if (!better && fits == cand_fits && cost == cand_cost) {
				u32 nr_c = nr_running_without(s, c, t);
				u32 nr_a = nr_running_without(s, (u32)cand, t);

				if (nr_c != nr_a) {
					better = nr_c < nr_a;
				} else if (cand != t->cpu) {
					better =
					    (s32)c == t->cpu ||
					    (u64)runnable_without(s, c, t) * SIM_IMBALANCE_PCT <
						(u64)runnable_without(s, (u32)cand, t) * 100;
				}
			}
			if (better) {
				cand = (s32)c;
				cand_cost = cost;
				cand_fits = fits;
			}
		}
		if (cand < 0 || cand_fits < best_fits)
			continue;
		pd_busy = gb_min(pd_busy, cap * pd->nr_cpus);
		base_cost = pd->opps[em_efficient_state(pd, gb_min(base_perf, cap))].cost;
		e = (u64)task_busy * cand_cost +
		    (cand_cost > base_cost ? (u64)pd_busy * (cand_cost - base_cost) : 0);
		if (cand_fits == best_fits && e >= best_e)
			continue;
		best_e = e;
		best_cpu = cand;
		best_fits = cand_fits;
	}
	*delta_out = best_cpu >= 0 ? (s64)best_e : 0;
	return best_cpu;
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
			if (util_fits_cpu(s, task_util_est(t), t->uclamp_min, t->uclamp_max, c) <=
			    0)
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
		cpu = opp_cost ? rework_feec(s, t, delta) : feec(s, t, delta);
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

/*
 * The root domain's over-utilized flag as fair.c keeps it.  cpu_overutilized(): cpu_util_cfs()
 * (util_avg, blocked included, at least the util_est of the enqueued tasks) does not fit the
 * CPU within its run queue's uclamp_max (uclamp_min ignored).  The flag is set when a CPU is
 * over-utilized at the enqueue of a woken task (check_update_overutilized_status() in
 * enqueue_task_fair(), not for a new task) or at the tick of a CPU running a fair task
 * (task_tick_fair()); only a load balance at the root domain (update_sd_lb_stats() without a
 * parent domain) sets it to whether any CPU is over-utilized, clearing it.  That balance runs
 * every sd_weight ms (the top domain's min_interval: one per CPU), x busy_factor 16 when no CPU
 * is idle to run it, at the tick.
 */
#define SIM_BUSY_FACTOR 16

static bool fair_cpu_overutilized(const struct sim *s, u32 cpu)
{
	const struct gb_cpu *g = &s->gcpu[cpu];
	u32 util = gb_min(gb_max(g->util, cpu_util_est_enqueued(s, cpu)), sim_cpu_capacity(s, cpu));

	return !util_fits_cpu(s, util, 0, gb_rq_umax(g), cpu);
}

static void fair_overutilized_tick(struct sim *s)
{
	u64 interval = (u64)s->m->nr_cpus * 1000 * SIM_BUSY_FACTOR;
	bool ou = false;

	for (u32 c = 0; c < s->m->nr_cpus; c++) {
		if (s->m->cpu_domain[c] == 0xff)
			continue;
		if (s->cpus[c].curr < 0)
			interval = (u64)s->m->nr_cpus * 1000;
		if (fair_cpu_overutilized(s, c)) {
			ou = true;
			if (sim_fair_curr(s, c))
				s->rd_overutilized = true;
		}
	}
	if (s->now_us >= s->rd_balance_us + interval) {
		s->rd_balance_us = s->now_us;
		s->rd_overutilized = ou;
	}
}

static void fair_check_overutilized(struct sim *s, const struct sim_task *t, u32 cpu, bool fork)
{
	if (t->rt || fork || s->rd_overutilized)
		return;
	sim_refresh(s);
	if (fair_cpu_overutilized(s, cpu))
		s->rd_overutilized = true;
}

static void mainline_enqueued(struct sim *s, struct sim_task *t, u32 cpu, bool fork, s32 preempted)
{
	(void)preempted;
	fair_check_overutilized(s, t, cpu, fork);
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

static void mainline_tick(struct sim *s)
{
	fair_overutilized_tick(s);
	misfit_balance(s);
}

const struct sim_policy_ops sim_ops_mainline = {
    .name = "mainline",
    .id = SIM_POLICY_MAINLINE,
    .select = mainline_select,
    .tick = mainline_tick,
    .enqueued = mainline_enqueued,
    .root_overutilized = true,
    .may_pull = fair_may_pull,
};

/* ---- rework ---- */

static s32 rework_select(struct sim *s, struct sim_task *t, bool fork, u32 *reason, s64 *delta)
{
	return fair_select(s, t, fork, reason, delta, true);
}

/*
 * The series' push (v8, "Add push task mechanism"): a fair task that can run elsewhere and is
 * put back while still runnable (put_prev_task(): preempted at a wake-up) is pushable, and
 * the balance callback that follows re-runs the wake-up selection for it and moves it when
 * that picks another CPU; at the tick a task running alone and stuck on its CPU
 * (task_stuck_on_cpu(): max(util_est, runnable) > min(capacity, uclamp_max)) is rescheduled so
 * that the same push happens.  Not while over-utilized (the load balancer's job then).
 */
static u32 nr_allowed(const struct sim *s, const struct sim_task *t)
{
	u32 n = 0;

	for (u32 c = 0; c < s->m->nr_cpus; c++)
		n += s->m->cpu_domain[c] != 0xff && em_cpumask_test(&t->allowed, c);
	return n;
}

static void rework_push(struct sim *s, struct sim_task *t, u32 cpu)
{
	s64 delta = 0;
	s32 to;

	if (s->rd_overutilized || nr_allowed(s, t) < 2)
		return;
	sim_refresh(s);
	to = rework_feec(s, t, &delta);
	if (to >= 0 && to != (s32)cpu) {
		sim_migrate(s, t, (u32)to, GB_REASON_POWER_MISFIT, delta);
		sim_refresh(s);
	}
}

static bool task_stuck_on_cpu(const struct sim *s, const struct sim_task *t, u32 cpu)
{
	return gb_max(t->pelt.util_est, t->pelt.runnable_avg) >
	       gb_min(sim_cpu_capacity(s, cpu), t->uclamp_max);
}

static void rework_tick(struct sim *s)
{
	struct sim_task *stuck[EM_MAX_CPUS];
	u32 on[EM_MAX_CPUS], n = 0;

	fair_overutilized_tick(s);
	misfit_balance(s);
	/* the tasks stuck at this tick, each pushed once */
	for (u32 c = 0; c < s->m->nr_cpus; c++) {
		struct sim_task *t = sim_fair_curr(s, c);

		if (t && !s->cpus[c].nr_queued && task_stuck_on_cpu(s, t, c)) {
			stuck[n] = t;
			on[n++] = c;
		}
	}
	for (u32 i = 0; i < n; i++)
		if (stuck[i]->cpu == (s32)on[i])
			rework_push(s, stuck[i], on[i]);
}

static void rework_enqueued(struct sim *s, struct sim_task *t, u32 cpu, bool fork, s32 preempted)
{
	fair_check_overutilized(s, t, cpu, fork);
	if (preempted >= 0 && !s->tasks[preempted].rt)
		rework_push(s, &s->tasks[preempted], cpu);
}

const struct sim_policy_ops sim_ops_rework = {
    .name = "rework",
    .id = SIM_POLICY_REWORK,
    .select = rework_select,
    .tick = rework_tick,
    .enqueued = rework_enqueued,
    .root_overutilized = true,
    .may_pull = fair_may_pull,
};

/* ---- performance ---- */

static s32 performance_select(struct sim *s, struct sim_task *t, bool fork, u32 *reason, s64 *delta)
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
    .id = SIM_POLICY_PERFORMANCE,
    .select = performance_select,
    .may_pull = performance_may_pull,
};
