// SPDX-License-Identifier: GPL-2.0-only
/*
 * sim_oracle.c - the oracle: the lowest-energy static placement of periodic tasks that, run in
 * the simulator under the same governor as the other policies, keeps every deadline.
 *
 * Planning.  Each task's demand is read from the workload, not measured: the work of one
 * period of its heaviest phase (run events x the calibration perf) divided by the period (its
 * timer events and sleeps), in perf units.  A plan assigns each task a domain; inside a domain
 * tasks go heaviest first to the least-loaded allowed CPU (worst fit), which gives the domain
 * its lowest OPP.  The domain then runs at the OPP the governor picks for its busiest CPU (load
 * x 1.25 within uclamp_max, efficient state); the plan's estimated energy rate is the sum over
 * CPUs of load/perf x power(OPP).  A task is only placed where its uclamp_min fits the capacity
 * (it asked for that performance).  The search: all D^N domain assignments when
 * D^N <= ORACLE_EXHAUSTIVE (3 domains: up to 10 tasks); beyond, a greedy assignment (heaviest
 * first to the cheapest domain) improved by single-task moves until none helps, at most
 * ORACLE_ROUNDS rounds.
 *
 * Feasibility is judged the way the report judges every policy: a plan is feasible when its
 * run has no late activation and no missed period.  A static estimate cannot tell that (the
 * governor's ramps, the DVFS rate limit and tick-granular sharing make a CPU busy 90% on paper
 * late in practice, and one at 97% may be fine), so the oracle plans a ladder of candidates,
 * the cheapest plan that leaves each CPU's estimated load at most ORACLE_HEADROOM[k] of what
 * its OPP delivers, for k = 0 (100%) down to 50%, runs each distinct one for the whole
 * workload, and keeps the lowest-energy run among the feasible ones.  When no placement fits
 * within 100% anywhere, or no candidate runs without a late activation or missed period, the
 * result is SIM_INFEASIBLE: the oracle gives no bound.  A workload with a task that has no
 * timer in some phase has no periodic demand to plan: SIM_SKIPPED.
 *
 * The plan is fixed for the whole run: the oracle is the best static placement it found, an
 * upper bound of the optimum when phases change (ramps: the heaviest phase decides).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "sim_internal.h"

#define ORACLE_EXHAUSTIVE 65536u
#define ORACLE_ROUNDS	  64
#define ORACLE_OVERLOAD	  1e12 /* per unit of busy beyond the limit: worse than any plan within */

/* The most of its OPP's performance a CPU's planned load may take, per candidate. */
static const double oracle_headroom[] = {1.00, 0.95, 0.90, 0.85, 0.80, 0.70, 0.60, 0.50};
#define ORACLE_NR_CANDIDATES (sizeof(oracle_headroom) / sizeof(oracle_headroom[0]))

struct oracle_task {
	u64 demand; /* perf units x 1024 (fixed point) */
	u32 uclamp_min, uclamp_max;
	struct em_cpumask allowed; /* the affinity of its first phase */
};

struct oracle {
	const struct em_model *m;
	u32 n;
	struct oracle_task *t;
	u32 *order;	 /* tasks by demand, heaviest first */
	u32 *dom;	 /* assignment */
	s32 *cpu;	 /* resulting CPU per task */
	double limit;	 /* the candidate's busy limit */
	double max_busy; /* of the last evaluation */
	double best_e;	 /* estimate of the plan search() found */
};

/* The demand of wt (perf x 1024 per us), or false when a phase has no timer. */
static bool task_demand(const struct wl_task *wt, u32 pcal, u64 *demand, const char **phase)
{
	u64 best = 0;

	for (u32 p = 0; p < wt->nr_phases; p++) {
		const struct wl_phase *ph = &wt->phases[p];
		u64 work = 0, period = 0;
		bool timer = false;

		for (u32 e = 0; e < ph->nr_events; e++) {
			const struct wl_event *ev = &ph->events[e];

			if (ev->type == WL_EV_RUN || ev->type == WL_EV_RUNTIME)
				work += ev->duration_us * pcal;
			else if (ev->type == WL_EV_TIMER) {
				period += ev->period_us;
				timer = true;
			} else if (ev->type == WL_EV_SLEEP) {
				period += ev->duration_us;
			}
		}
		if (!timer) {
			*phase = ph->name;
			return false;
		}
		if (period && work * 1024 / period > best)
			best = work * 1024 / period;
	}
	*demand = best;
	return true;
}

/* Estimated energy rate (uW) of the current assignment; fills o->cpu and o->max_busy.  Over
 * the limit: ORACLE_OVERLOAD per unit of busy; a uclamp_min that does not fit: HUGE. */
static double evaluate(struct oracle *o)
{
	const struct em_model *m = o->m;
	u64 load[EM_MAX_CPUS] = {0};
	u32 umax[EM_MAX_CPUS] = {0};
	double total = 0;

	o->max_busy = 0;
	for (u32 k = 0; k < o->n; k++) {
		u32 i = o->order[k], d = o->dom[i];
		const struct oracle_task *t = &o->t[i];
		s32 best = -1;

		if (d + 1 < m->nr_domains &&
		    gb_min(t->uclamp_min, t->uclamp_max) > em_domain_capacity(&m->domains[d]))
			return 1e300;
		for (u32 c = 0; c < m->nr_cpus; c++)
			if (m->cpu_domain[c] == d && em_cpumask_test(&t->allowed, c) &&
			    (best < 0 || load[c] < load[best]))
				best = (s32)c;
		if (best < 0)
			return 1e300;
		load[best] += t->demand;
		umax[best] = gb_max(umax[best], t->uclamp_max);
		o->cpu[i] = best;
	}
	for (u32 d = 0; d < m->nr_domains; d++) {
		const struct em_domain *pd = &m->domains[d];
		u32 idx, perf, need = 0;

		/* the governor: util x 1.25 within the CPU's uclamp_max, busiest CPU */
		for (u32 c = 0; c < m->nr_cpus; c++)
			if (m->cpu_domain[c] == d && load[c])
				need = gb_max(need,
					      gb_perf_request((u32)(load[c] / 1024), 0, umax[c]));
		idx = em_efficient_state(pd, gb_min(need, em_domain_capacity(pd)));
		perf = pd->opps[idx].perf;
		for (u32 c = 0; c < m->nr_cpus; c++) {
			double busy;

			if (m->cpu_domain[c] != d)
				continue;
			busy = (double)load[c] / 1024.0 / perf;
			if (busy > o->max_busy)
				o->max_busy = busy;
			if (busy > o->limit)
				total += ORACLE_OVERLOAD * busy;
			total += (busy > 1.0 ? 1.0 : busy) * pd->opps[idx].power_uw;
		}
	}
	return total;
}

/* The cheapest assignment within o->limit (or the least overloaded); leaves it in o->dom and
 * o->cpu.  Returns false when memory runs out. */
static bool search(struct oracle *o)
{
	u32 D = o->m->nr_domains, n = o->n;
	u32 *best = calloc(n + 1, sizeof(u32));
	double best_e = 1e308, e;
	u64 combos = 1;

	if (!best)
		return false;
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
	o->best_e = evaluate(o);
	free(best);
	return true;
}

/* The tasks as the engine starts them (sim_init): uclamp, RT's default uclamp_min, the first
 * phase's affinity.  Returns 1 when a task is not periodic (note set), 0, or -ENOMEM. */
static int oracle_tasks(struct oracle *o, const struct workload *w, u32 pcal, char *note,
			size_t note_len)
{
	for (u32 i = 0; i < o->n; i++) {
		const struct wl_task *wt = &w->tasks[i];
		const struct wl_phase *ph = &wt->phases[0];
		struct oracle_task *t = &o->t[i];
		bool rt = wt->sched.policy == WL_SCHED_FIFO || wt->sched.policy == WL_SCHED_RR;
		const char *phase = "";

		if (!task_demand(wt, pcal, &t->demand, &phase)) {
			snprintf(note, note_len,
				 "task %s has no timer in %s%s%s: the oracle plans "
				 "periodic tasks only",
				 wt->name, phase[0] ? "phase '" : "its loop", phase,
				 phase[0] ? "'" : "");
			return 1;
		}
		t->uclamp_min =
		    (wt->uclamp.set & WL_UCLAMP_MIN) || !rt ? wt->uclamp.min : EM_CAPACITY_SCALE;
		t->uclamp_max = wt->uclamp.set & WL_UCLAMP_MAX ? wt->uclamp.max : EM_CAPACITY_SCALE;
		if (ph->uclamp.set & WL_UCLAMP_MIN)
			t->uclamp_min = ph->uclamp.min;
		if (ph->uclamp.set & WL_UCLAMP_MAX)
			t->uclamp_max = ph->uclamp.max;
		if (ph->cpus_all) {
			for (u32 c = 0; c < o->m->nr_cpus; c++)
				if (o->m->cpu_domain[c] != 0xff)
					em_cpumask_set(&t->allowed, c);
		} else {
			t->allowed = ph->cpus;
		}
		o->order[i] = i;
	}
	for (u32 a = 1; a < o->n; a++) /* insertion sort: stable */
		for (u32 b = a; b > 0 && o->t[o->order[b]].demand > o->t[o->order[b - 1]].demand;
		     b--) {
			u32 x = o->order[b];

			o->order[b] = o->order[b - 1];
			o->order[b - 1] = x;
		}
	return 0;
}

int sim_oracle_run(const struct em_profile *prof, const struct workload *w,
		   const struct sim_options *opt, struct sim_result *res, struct gb_err *err)
{
	const struct em_model *m = &prof->model;
	struct oracle o = {.m = m, .n = w->nr_tasks};
	s32 *plans = NULL;
	struct sim_result *run = NULL, *kept = NULL;
	struct sim_options quiet = *opt;
	u32 nr_plans = 0, tried = 0, best = ~0u, pcal;
	u64 least_late = ~0ull, least_missed = ~0ull;
	double best_e = 0;
	int ret = workload_check_model(w, m, err);

	if (ret)
		return ret;
	memset(res, 0, sizeof(*res));
	res->policy = SIM_POLICY_ORACLE;
	pcal = w->global.calibration_cpu >= 0
		   ? em_domain_capacity(&m->domains[m->cpu_domain[w->global.calibration_cpu]])
		   : EM_CAPACITY_SCALE;
	o.t = calloc(o.n + 1, sizeof(*o.t));
	o.order = calloc(o.n + 1, sizeof(u32));
	o.dom = calloc(o.n + 1, sizeof(u32));
	o.cpu = calloc(o.n + 1, sizeof(s32));
	plans = calloc(ORACLE_NR_CANDIDATES * (o.n + 1), sizeof(s32));
	run = calloc(1, sizeof(*run));
	kept = calloc(1, sizeof(*kept));
	if (!o.t || !o.order || !o.dom || !o.cpu || !plans || !run || !kept) {
		ret = gb_err_set(err, ENOMEM, "out of memory");
		goto out;
	}
	ret = oracle_tasks(&o, w, pcal, res->note, sizeof(res->note));
	if (ret) {
		if (ret > 0) {
			res->outcome = SIM_SKIPPED;
			ret = 0;
		} else {
			ret = gb_err_set(err, ENOMEM, "out of memory");
		}
		goto out;
	}
	/* the candidates, most loaded first; a limit no placement meets ends the ladder */
	for (u32 k = 0; k < ORACLE_NR_CANDIDATES; k++) {
		s32 *plan = &plans[nr_plans * (o.n + 1)];
		bool dup = false;

		o.limit = oracle_headroom[k];
		if (!search(&o)) {
			ret = gb_err_set(err, ENOMEM, "out of memory");
			goto out;
		}
		if (o.max_busy > o.limit || o.best_e >= 1e300)
			break;
		memcpy(plan, o.cpu, o.n * sizeof(s32));
		plan[o.n] = (s32)(oracle_headroom[k] * 100 + 0.5); /* its limit, in % */
		for (u32 p = 0; p < nr_plans && !dup; p++)
			dup = !memcmp(&plans[p * (o.n + 1)], plan, o.n * sizeof(s32));
		if (!dup)
			nr_plans++;
	}
	if (!nr_plans) {
		res->outcome = SIM_INFEASIBLE;
		snprintf(res->note, sizeof(res->note),
			 "no placement keeps every CPU's planned load "
			 "within what its OPP delivers: no plan can keep every deadline");
		goto out;
	}
	/* run every candidate (without the trace), keep the cheapest that keeps every deadline */
	quiet.trace = NULL;
	for (u32 p = 0; p < nr_plans; p++) {
		ret =
		    sim_run_plan(prof, w, &sim_ops_oracle, &quiet, &plans[p * (o.n + 1)], run, err);
		if (ret)
			goto out;
		tried++;
		if (run->late + run->missed < least_late + least_missed) {
			least_late = run->late;
			least_missed = run->missed;
		}
		if (run->late || run->missed)
			continue;
		if (best == ~0u || run->energy_j < best_e) {
			struct sim_result *x = kept;

			best = p;
			best_e = run->energy_j;
			kept = run;
			run = x;
		}
	}
	if (best == ~0u) {
		int hi = plans[o.n], lo = plans[(nr_plans - 1) * (o.n + 1) + o.n];
		char range[32];

		snprintf(range, sizeof(range), lo == hi ? "%d%%" : "%d%% down to %d%%", hi, lo);
		res->outcome = SIM_INFEASIBLE;
		snprintf(res->note, sizeof(res->note),
			 "none of the %u distinct plans run (the "
			 "cheapest with each CPU's planned load within %s of its OPP) kept every "
			 "deadline; the best had %llu late activations, %llu missed periods",
			 tried, range, (unsigned long long)least_late,
			 (unsigned long long)least_missed);
		goto out;
	}
	/* the chosen plan's run is the result; run once more when a trace is asked for */
	if (opt->trace)
		ret =
		    sim_run_plan(prof, w, &sim_ops_oracle, opt, &plans[best * (o.n + 1)], res, err);
	else
		memcpy(res, kept, sizeof(*res));
	if (!ret)
		snprintf(res->note, sizeof(res->note),
			 "the plan with each CPU's planned load "
			 "within %d%% of its OPP, the cheapest of %u distinct plans run that kept "
			 "every deadline",
			 plans[best * (o.n + 1) + o.n], tried);
out:
	free(o.t);
	free(o.order);
	free(o.dom);
	free(o.cpu);
	free(plans);
	free(run);
	free(kept);
	return ret;
}

static int oracle_prepare(struct sim *s, struct gb_err *err)
{
	(void)err;
	for (u32 i = 0; i < s->nr_tasks; i++)
		s->tasks[i].oracle_cpu = s->plan ? s->plan[i] : -1;
	return 0;
}

static s32 oracle_select(struct sim *s, struct sim_task *t, bool fork, u32 *reason, s64 *delta)
{
	*reason = fork ? GB_REASON_FORK : GB_REASON_BALANCE;
	*delta = 0;
	if (t->oracle_cpu >= 0 && em_cpumask_test(&t->allowed, (u32)t->oracle_cpu))
		return t->oracle_cpu;
	return sim_ops_gearbox.select(s, t, fork, reason, delta);
}

static bool oracle_may_pull(struct sim *s, u32 dst, u32 src, const struct sim_task *t)
{
	(void)s;
	(void)dst;
	(void)src;
	(void)t;
	return false;
}

const struct sim_policy_ops sim_ops_oracle = {
    .name = "oracle",
    .id = SIM_POLICY_ORACLE,
    .select = oracle_select,
    .may_pull = oracle_may_pull,
    .prepare = oracle_prepare,
};
