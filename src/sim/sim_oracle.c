// SPDX-License-Identifier: GPL-2.0-only
/*
 * sim_oracle.c - the oracle: the lowest-energy static placement of steady periodic tasks that
 * keeps every task's deadline, under the same frequency governor as the other policies.
 *
 * Each task's demand is read from the workload, not measured: the work of one period of its
 * heaviest phase (run events x the calibration perf) divided by the period (its timer events
 * and sleeps), in perf units.  A candidate placement assigns each task a domain; inside a
 * domain tasks go heaviest first to the least-loaded allowed CPU (worst fit), which gives the
 * domain its lowest OPP.  The domain then runs at the OPP the governor picks for its busiest
 * CPU (load x 1.25, efficient state), and a placement keeps deadlines when every CPU is busy at
 * most 95% of the time at that OPP: the 5% are the slack that frequency ramps (PELT, the DVFS
 * rate limit) and tick-granular time sharing need, which a static plan cannot see.  Its energy rate is the sum over CPUs of load/perf x power(OPP) (idle
 * power is the same for every placement, see sim_engine.c).  A task is only placed where its
 * uclamp_min fits the capacity (it asked for that performance).
 *
 * The bound: all D^N domain assignments are tried when D^N <= 65536 (e.g. 3 domains, 10 tasks);
 * beyond that a greedy assignment (heaviest task first to the cheapest domain) is improved by
 * single-task moves until none helps, at most 64 rounds.  The chosen CPUs are then fixed for the
 * whole run: the oracle is exact for steady periodic workloads and only an upper bound of the
 * optimum for workloads whose phases change (ramps).
 */
#include <errno.h>
#include <stdlib.h>

#include "sim_internal.h"

#define ORACLE_EXHAUSTIVE 65536u
#define ORACLE_ROUNDS 64
#define ORACLE_MAX_BUSY 0.95   /* slack for governor and tick transients */

struct oracle {
	const struct sim *s;
	u32 n;
	u64 *demand;     /* perf units x 1024 (fixed point) */
	u32 *order;      /* tasks by demand, heaviest first */
	u32 *dom;        /* assignment */
	s32 *cpu;        /* resulting CPU per task */
};

static u64 task_demand(const struct sim *s, const struct wl_task *wt, bool *periodic)
{
	u64 best = 0;

	*periodic = true;
	for (u32 p = 0; p < wt->nr_phases; p++) {
		const struct wl_phase *ph = &wt->phases[p];
		u64 work = 0, period = 0;
		bool timer = false;

		for (u32 e = 0; e < ph->nr_events; e++) {
			const struct wl_event *ev = &ph->events[e];

			if (ev->type == WL_EV_RUN || ev->type == WL_EV_RUNTIME)
				work += ev->duration_us * s->pcal;
			else if (ev->type == WL_EV_TIMER) {
				period += ev->period_us;
				timer = true;
			} else if (ev->type == WL_EV_SLEEP) {
				period += ev->duration_us;
			}
		}
		if (!timer)
			*periodic = false;
		if (period && work * 1024 / period > best)
			best = work * 1024 / period;
	}
	return best;
}

/* Energy rate (uW, scaled) of the current assignment; fills o->cpu.  Infeasible: huge. */
static double evaluate(struct oracle *o)
{
	const struct sim *s = o->s;
	const struct em_model *m = s->m;
	u64 load[EM_MAX_CPUS] = { 0 };
	u32 umax[EM_MAX_CPUS] = { 0 };
	double total = 0;

	for (u32 k = 0; k < o->n; k++) {
		u32 i = o->order[k], d = o->dom[i];
		const struct sim_task *t = &s->tasks[i];
		s32 best = -1;

		if (d + 1 < m->nr_domains &&
		    gb_min(t->uclamp_min, t->uclamp_max) > em_domain_capacity(&m->domains[d]))
			return 1e300;

		for (u32 c = 0; c < m->nr_cpus; c++)
			if (m->cpu_domain[c] == d && em_cpumask_test(&s->tasks[i].allowed, c) &&
			    (best < 0 || load[c] < load[best]))
				best = (s32)c;
		if (best < 0)
			return 1e300;
		load[best] += o->demand[i];
		umax[best] = gb_max(umax[best], t->uclamp_max);
		o->cpu[i] = best;
	}
	for (u32 d = 0; d < m->nr_domains; d++) {
		const struct em_domain *pd = &m->domains[d];
		u32 idx, perf, need = 0;

		/* the governor: util x 1.25 within the CPU's uclamp_max, busiest CPU */
		for (u32 c = 0; c < m->nr_cpus; c++)
			if (m->cpu_domain[c] == d && load[c])
				need = gb_max(need, gb_perf_request((u32)(load[c] / 1024), 0, umax[c]));
		idx = em_efficient_state(pd, gb_min(need, em_domain_capacity(pd)));
		perf = pd->opps[idx].perf;
		for (u32 c = 0; c < m->nr_cpus; c++) {
			double busy;

			if (m->cpu_domain[c] != d)
				continue;
			busy = (double)load[c] / 1024.0 / perf;
			if (busy > ORACLE_MAX_BUSY)
				total += 1e12 * busy;   /* misses deadlines: worse than any feasible */
			busy = busy > 1.0 ? 1.0 : busy;
			total += busy * pd->opps[idx].power_uw;
		}
	}
	return total;
}

static void search(struct oracle *o)
{
	const struct em_model *m = o->s->m;
	u32 D = m->nr_domains, n = o->n;
	u32 *best = calloc(n, sizeof(u32));
	double best_e = 1e308, e;
	u64 combos = 1;

	for (u32 i = 0; i < n && combos <= ORACLE_EXHAUSTIVE; i++)
		combos *= D;
	if (combos <= ORACLE_EXHAUSTIVE) {
		for (u64 k = 0; k < combos; k++) {
			u64 x = k;

			for (u32 i = 0; i < n; i++, x /= D)
				o->dom[i] = (u32)(x % D);
			e = evaluate(o);
			if (e < best_e) {
				best_e = e;
				memcpy(best, o->dom, n * sizeof(u32));
			}
		}
	} else {
		/* greedy, heaviest first, each task to the domain that keeps energy lowest */
		for (u32 i = 0; i < n; i++)
			o->dom[i] = D - 1;
		for (u32 k = 0; k < n; k++) {
			u32 i = o->order[k], bd = D - 1;
			double be = 1e308;

			for (u32 d = 0; d < D; d++) {
				o->dom[i] = d;
				e = evaluate(o);
				if (e < be) {
					be = e;
					bd = d;
				}
			}
			o->dom[i] = bd;
		}
		best_e = evaluate(o);
		for (u32 r = 0; r < ORACLE_ROUNDS; r++) {
			bool moved = false;

			for (u32 i = 0; i < n; i++) {
				u32 keep = o->dom[i];

				for (u32 d = 0; d < D; d++) {
					o->dom[i] = d;
					e = evaluate(o);
					if (e < best_e) {
						best_e = e;
						keep = d;
						moved = true;
					}
				}
				o->dom[i] = keep;
			}
			if (!moved)
				break;
		}
		memcpy(best, o->dom, n * sizeof(u32));
	}
	memcpy(o->dom, best, n * sizeof(u32));
	evaluate(o);
	free(best);
}

static int oracle_prepare(struct sim *s, struct gb_err *err)
{
	struct oracle o = { .s = s, .n = s->nr_tasks };
	int ret = 0;

	o.demand = calloc(o.n + 1, sizeof(u64));
	o.order = calloc(o.n + 1, sizeof(u32));
	o.dom = calloc(o.n + 1, sizeof(u32));
	o.cpu = calloc(o.n + 1, sizeof(s32));
	if (!o.demand || !o.order || !o.dom || !o.cpu) {
		ret = gb_err_set(err, ENOMEM, "out of memory");
		goto out;
	}
	for (u32 i = 0; i < o.n; i++) {
		struct sim_task *t = &s->tasks[i];
		const struct wl_phase *ph = &t->wt->phases[0];
		bool periodic;

		o.demand[i] = task_demand(s, t->wt, &periodic);
		if (!periodic) {
			ret = gb_err_set(err, EINVAL,
					 "%s: task %s: the oracle needs periodic tasks (a timer in "
					 "every phase)", s->w->name, t->wt->name);
			goto out;
		}
		/* the affinity the task will have: that of its first phase */
		if (ph->cpus_all) {
			for (u32 c = 0; c < s->m->nr_cpus; c++)
				em_cpumask_set(&t->allowed, c);
		} else {
			t->allowed = ph->cpus;
		}
		o.order[i] = i;
	}
	for (u32 a = 1; a < o.n; a++)        /* insertion sort: stable, small n */
		for (u32 b = a; b > 0 && o.demand[o.order[b]] > o.demand[o.order[b - 1]]; b--) {
			u32 x = o.order[b];

			o.order[b] = o.order[b - 1];
			o.order[b - 1] = x;
		}
	search(&o);
	for (u32 i = 0; i < o.n; i++)
		s->tasks[i].oracle_cpu = o.cpu[i];
out:
	free(o.demand);
	free(o.order);
	free(o.dom);
	free(o.cpu);
	return ret;
}

static s32 oracle_select(struct sim *s, struct sim_task *t, bool fork, u32 *reason, s64 *delta)
{
	*reason = fork ? GB_REASON_FORK : GB_REASON_BALANCE;
	*delta = 0;
	if (t->oracle_cpu >= 0 && em_cpumask_test(&t->allowed, (u32)t->oracle_cpu))
		return t->oracle_cpu;
	return sim_ops_gearbox.select(s, t, fork, reason, delta);
}

static bool oracle_may_pull(struct sim *s, u32 dst, u32 src)
{
	(void)s;
	(void)dst;
	(void)src;
	return false;
}

const struct sim_policy_ops sim_ops_oracle = {
	.name = "oracle",
	.select = oracle_select,
	.may_pull = oracle_may_pull,
	.prepare = oracle_prepare,
};
