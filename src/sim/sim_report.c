// SPDX-License-Identifier: GPL-2.0-only
/*
 * sim_report.c - the report of `gearbox sim`: a table for people, JSON for machines
 * (`"format": "gearbox-sim/1"`, documented in docs/sim.md).  Ratios are against the first
 * policy given, taken per seed.
 *
 * Over several seeds (--seeds N) each policy's result is the mean of its per-seed results:
 * every number of the per-seed JSON objects (totals, domains, tasks) is averaged, and the
 * figures of SIM_FIGURES get a 95% confidence interval from their per-seed values
 * (sim_interval_of) and a per_seed list.  With one seed the result is that seed's, unchanged,
 * with null intervals.
 */
#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "sim.h"

/* The energy ratios' base: the first policy's energy, 0 (no ratios) when it did not run. */
static double ratio_base(const struct sim_result *res, unsigned n)
{
	return n && res[0].outcome == SIM_RAN ? res[0].energy_j : 0;
}

static const char *outcome_word(enum sim_outcome o)
{
	return o == SIM_INFEASIBLE ? "infeasible" : o == SIM_SKIPPED ? "skipped" : "ran";
}

/* Which domains model idle states; the others draw their constant idle_power_uw. */
static u32 nr_idle_domains(const struct em_profile *prof)
{
	u32 n = 0;

	for (u32 d = 0; d < prof->model.nr_domains; d++)
		n += prof->idle[d].present;
	return n;
}

static const char *idle_model_text(const struct em_profile *prof)
{
	u32 n = nr_idle_domains(prof);

	if (n == prof->model.nr_domains)
		return "idle states and cluster power-down from the model";
	if (n)
		return "idle states for some domains; the others draw a constant idle_power_uw";
	return "constant idle_power_uw per domain (the model has no idle_states)";
}

static const char *idle_model_key(const struct em_profile *prof)
{
	u32 n = nr_idle_domains(prof);

	return n == prof->model.nr_domains ? "states" : n ? "partial" : "constant";
}

/*
 * A per-task table, a column per policy that ran: the rows are the tasks for which show()
 * holds under some policy, each cell written by cell() (width colw; "-" for a task a result
 * lacks).  The results of one workload list the same tasks in the same order.
 */
static void print_task_table(FILE *out, const struct sim_result *res, unsigned n, const char *title,
			     int colw, bool (*show)(const struct sim_task_result *),
			     void (*cell)(FILE *, const struct sim_task_result *))
{
	const struct sim_result *ran = NULL;
	bool header = false;

	for (unsigned i = 0; i < n && !ran; i++)
		if (res[i].outcome == SIM_RAN)
			ran = &res[i];
	for (u32 k = 0; ran && k < ran->nr_tasks; k++) {
		bool any = false;

		for (unsigned i = 0; i < n; i++)
			if (res[i].outcome == SIM_RAN && k < res[i].nr_tasks &&
			    show(&res[i].tasks[k]))
				any = true;
		if (!any)
			continue;
		if (!header) {
			fprintf(out, "\n%s\n%-16s", title, "task");
			for (unsigned i = 0; i < n; i++)
				if (res[i].outcome == SIM_RAN)
					fprintf(out, " %*s", colw, sim_policy_name(res[i].policy));
			fputc('\n', out);
			header = true;
		}
		fprintf(out, "%-16s", ran->tasks[k].name);
		for (unsigned i = 0; i < n; i++) {
			if (res[i].outcome != SIM_RAN)
				continue;
			if (k < res[i].nr_tasks)
				cell(out, &res[i].tasks[k]);
			else
				fprintf(out, " %*s", colw, "-");
		}
		fputc('\n', out);
	}
}

/* Migrations per task: only tasks some policy moved. */
static bool task_moved(const struct sim_task_result *t)
{
	return t->migrations != 0;
}

static void cell_migrations(FILE *out, const struct sim_task_result *t)
{
	fprintf(out, " %7llu/%4llu", (unsigned long long)t->migrations,
		(unsigned long long)t->migrations_across);
}

/* Wake-up latency and late activations per task: only tasks that woke more than once (a task's
 * first start counts as a wake-up) under some policy. */
static bool task_woke(const struct sim_task_result *t)
{
	return t->wakeups > 1;
}

static void cell_latency(FILE *out, const struct sim_task_result *t)
{
	fprintf(out, " %7.0f/%7.0f/%4llu", t->wake_lat_p50_us, t->wake_lat_p99_us,
		(unsigned long long)t->late);
}

/* The line naming gearbox's host, when gearbox ran (the other policies run on the fair host). */
static void print_host_line(FILE *out, const struct sim_result *res, unsigned n)
{
	for (unsigned i = 0; i < n; i++) {
		if (res[i].policy != SIM_POLICY_GEARBOX || res[i].outcome != SIM_RAN)
			continue;
		fprintf(out, "host: gearbox on the %s\n",
			res[i].host == SIM_HOST_SCX
			    ? "sched_ext host (scx_gearbox's callbacks, --host scx)"
			    : "fair host (gearbox's placement in the fair class, --host fair)");
		return;
	}
}

static void table_one_seed(FILE *out, const struct em_profile *prof, const struct workload *w,
			   const struct sim_result *res, unsigned n)
{
	double base = ratio_base(res, n);
	const struct sim_result *ran = NULL;

	for (unsigned i = 0; i < n && !ran; i++)
		if (res[i].outcome == SIM_RAN)
			ran = &res[i];
	if (ran)
		fprintf(out, "%s on %s, %.3f s simulated\n", w->name, prof->soc,
			(double)ran->duration_us / 1e6);
	else
		fprintf(out, "%s on %s, nothing simulated\n", w->name, prof->soc);
	fprintf(out, "idle: %s\n", idle_model_text(prof));
	print_host_line(out, res, n);
	fputc('\n', out);
	ran = NULL;
	fprintf(out, "%-12s %10s %7s %6s %6s %8s %9s %9s %6s %7s %6s %7s %9s %9s\n", "policy",
		"energy_J", "ratio", "late", "missed", "activ", "lat50_us", "lat99_us", "OU_%",
		"migr", "x-dom", "misfit", "work_s", "J/work_s");
	for (unsigned i = 0; i < n; i++) {
		const struct sim_result *r = &res[i];
		char ratio[16] = "-";

		if (r->outcome != SIM_RAN) {
			fprintf(out, "%-12s %s: %s\n", sim_policy_name(r->policy),
				outcome_word(r->outcome), r->note);
			continue;
		}
		if (!ran)
			ran = r;
		if (base > 0)
			snprintf(ratio, sizeof(ratio), "%.3f", r->energy_j / base);
		fprintf(out,
			"%-12s %10.4f %7s %6llu %6llu %8llu %9.0f %9.0f %6.1f %7llu %6llu %7llu "
			"%9.4f %9.4f\n",
			sim_policy_name(r->policy), r->energy_j, ratio, (unsigned long long)r->late,
			(unsigned long long)r->missed, (unsigned long long)r->activations,
			r->wake_lat_p50_us, r->wake_lat_p99_us, r->overutilized_pct,
			(unsigned long long)r->migrations, (unsigned long long)r->migrations_across,
			(unsigned long long)r->misfit_moves, r->work_s, r->energy_per_work);
	}
	fprintf(out,
		"\nx-dom: the migrations to a CPU of another domain; work_s: work done, s at "
		"capacity 1024 (run time x OPP perf / 1024); J/work_s: energy per unit of it\n");
	for (unsigned i = 0; i < n; i++)
		if (res[i].outcome == SIM_RAN && res[i].note[0])
			fprintf(out, "%s: %s\n", sim_policy_name(res[i].policy), res[i].note);
	fprintf(out,
		"\nper domain: energy J / average frequency MHz / busy %% / over-utilized %%\n");
	fprintf(out, "%-12s", "policy");
	for (u32 d = 0; ran && d < ran->nr_domains; d++)
		fprintf(out, " %27s", ran->domains[d].name);
	fputc('\n', out);
	for (unsigned i = 0; i < n; i++) {
		if (res[i].outcome != SIM_RAN)
			continue;
		fprintf(out, "%-12s", sim_policy_name(res[i].policy));
		for (u32 d = 0; d < res[i].nr_domains; d++) {
			const struct sim_domain_result *dr = &res[i].domains[d];

			fprintf(out, " %8.4f/%6.0f/%5.1f/%5.1f", dr->energy_j,
				dr->avg_freq_khz / 1000, dr->busy_pct, dr->overutilized_pct);
		}
		fputc('\n', out);
	}
	print_task_table(out, res, n, "migrations per task: all / to another domain", 12,
			 task_moved, cell_migrations);
	print_task_table(out, res, n,
			 "wake-up latency per task: p50 us / p99 us / late activations", 20,
			 task_woke, cell_latency);
}

static json_t *result_json(const struct sim_result *r, double base)
{
	json_t *o = json_object(), *doms, *tasks;

	json_object_set_new(o, "policy", json_string(sim_policy_name(r->policy)));
	if (r->outcome == SIM_SKIPPED) {
		json_object_set_new(o, "skipped", json_string(r->note));
		return o;
	}
	if (r->policy == SIM_POLICY_ORACLE) {
		json_object_set_new(o, "feasible", json_boolean(r->outcome == SIM_RAN));
		json_object_set_new(o, "note", json_string(r->note));
	}
	if (r->outcome != SIM_RAN)
		return o;
	json_object_set_new(o, "host", json_string(sim_host_name(r->host)));
	doms = json_array();
	tasks = json_array();
	json_object_set_new(o, "duration_us", json_integer((json_int_t)r->duration_us));
	json_object_set_new(o, "energy_j", json_real(r->energy_j));
	json_object_set_new(o, "energy_ratio",
			    base > 0 ? json_real(r->energy_j / base) : json_null());
	json_object_set_new(o, "activations", json_integer((json_int_t)r->activations));
	json_object_set_new(o, "late_activations", json_integer((json_int_t)r->late));
	json_object_set_new(o, "missed_periods", json_integer((json_int_t)r->missed));
	json_object_set_new(o, "wakeups", json_integer((json_int_t)r->wakeups));
	json_object_set_new(o, "wake_latency_p50_us", json_real(r->wake_lat_p50_us));
	json_object_set_new(o, "wake_latency_p99_us", json_real(r->wake_lat_p99_us));
	json_object_set_new(o, "overutilized_pct", json_real(r->overutilized_pct));
	json_object_set_new(o, "migrations", json_integer((json_int_t)r->migrations));
	json_object_set_new(o, "migrations_across_domains",
			    json_integer((json_int_t)r->migrations_across));
	json_object_set_new(o, "work_s", json_real(r->work_s));
	json_object_set_new(o, "energy_j_per_work_s", json_real(r->energy_per_work));
	json_object_set_new(o, "misfit_moves", json_integer((json_int_t)r->misfit_moves));
	json_object_set_new(o, "misfit_moves_undone",
			    json_integer((json_int_t)r->misfit_moves_undone));
	json_object_set_new(o, "decisions", json_integer((json_int_t)r->decisions));
	if (r->host == SIM_HOST_SCX) {
		json_object_set_new(o, "pulls", json_integer((json_int_t)r->pulls));
		json_object_set_new(o, "pulls_undoing_misfit",
				    json_integer((json_int_t)r->misfit_undone));
		json_object_set_new(o, "wake_preempts", json_integer((json_int_t)r->wake_preempts));
	}
	for (u32 d = 0; d < r->nr_domains; d++) {
		const struct sim_domain_result *dr = &r->domains[d];
		json_t *jd = json_object();

		json_object_set_new(jd, "name", json_string(dr->name));
		json_object_set_new(jd, "energy_j", json_real(dr->energy_j));
		json_object_set_new(jd, "avg_freq_khz", json_real(dr->avg_freq_khz));
		json_object_set_new(jd, "busy_pct", json_real(dr->busy_pct));
		json_object_set_new(jd, "overutilized_pct", json_real(dr->overutilized_pct));
		json_array_append_new(doms, jd);
	}
	json_object_set_new(o, "domains", doms);
	for (u32 i = 0; i < r->nr_tasks; i++) {
		const struct sim_task_result *t = &r->tasks[i];
		json_t *jt = json_object(), *run = json_object();

		json_object_set_new(jt, "name", json_string(t->name));
		for (u32 d = 0; d < r->nr_domains; d++)
			json_object_set_new(run, r->domains[d].name,
					    json_integer((json_int_t)t->run_us[d]));
		json_object_set_new(jt, "run_us", run);
		json_object_set_new(jt, "activations", json_integer((json_int_t)t->activations));
		json_object_set_new(jt, "late_activations", json_integer((json_int_t)t->late));
		json_object_set_new(jt, "missed_periods", json_integer((json_int_t)t->missed));
		json_object_set_new(jt, "migrations", json_integer((json_int_t)t->migrations));
		json_object_set_new(jt, "migrations_across_domains",
				    json_integer((json_int_t)t->migrations_across));
		json_object_set_new(jt, "wakeups", json_integer((json_int_t)t->wakeups));
		json_object_set_new(jt, "preemptions", json_integer((json_int_t)t->preemptions));
		json_object_set_new(jt, "wake_latency_p50_us", json_real(t->wake_lat_p50_us));
		json_object_set_new(jt, "wake_latency_p99_us", json_real(t->wake_lat_p99_us));
		json_object_set_new(jt, "work_us",
				    json_real((double)t->work_perf_us / EM_CAPACITY_SCALE));
		json_object_set_new(jt, "periodic", json_boolean(t->periodic));
		if (!t->periodic)
			json_object_set_new(jt, "throughput_pct", json_real(t->throughput_pct));
		json_array_append_new(tasks, jt);
	}
	json_object_set_new(o, "tasks", tasks);
	return o;
}

/* The value of figure f in r (base: the same seed's energy of the first policy, 0 if none). */
static double figure_of(const struct sim_result *r, double base, enum sim_figure f)
{
	switch (f) {
#define X(id, name, expr)                                                                          \
	case id:                                                                                   \
		return (expr);
		SIM_FIGURES(X)
#undef X
	default:
		return NAN;
	}
}

static const char *const figure_names[] = {
#define X(id, name, expr) [id] = name,
    SIM_FIGURES(X)
#undef X
};

struct sim_report {
	const struct em_profile *prof;
	const struct workload *w;
	unsigned n; /* policies */
	u64 first_seed;
	u32 nr_seeds, added;
	struct sim_result *first; /* the first seed's results, n of them */
	json_t **acc;		  /* per policy: sum of its per-seed objects (seeds it ran) */
	json_t **not_ran;	  /* per policy: its object of the first seed it did not run */
	u32 *nr_not_ran;
	double *fig; /* [policy][seed][SIM_NR_FIGURES] */
};

struct sim_report *sim_report_new(const struct em_profile *prof, const struct workload *w,
				  unsigned n, u64 first_seed, u32 nr_seeds)
{
	struct sim_report *r = calloc(1, sizeof(*r));

	if (!r)
		return NULL;
	r->prof = prof;
	r->w = w;
	r->n = n;
	r->first_seed = first_seed;
	r->nr_seeds = nr_seeds;
	r->first = calloc(n, sizeof(*r->first));
	r->acc = calloc(n, sizeof(*r->acc));
	r->not_ran = calloc(n, sizeof(*r->not_ran));
	r->nr_not_ran = calloc(n, sizeof(*r->nr_not_ran));
	r->fig = calloc((size_t)n * nr_seeds * SIM_NR_FIGURES, sizeof(double));
	if (!r->first || !r->acc || !r->not_ran || !r->nr_not_ran || !r->fig) {
		sim_report_free(r);
		return NULL;
	}
	return r;
}

void sim_report_free(struct sim_report *r)
{
	if (!r)
		return;
	for (unsigned i = 0; r->acc && i < r->n; i++)
		json_decref(r->acc[i]);
	for (unsigned i = 0; r->not_ran && i < r->n; i++)
		json_decref(r->not_ran[i]);
	free(r->first);
	free(r->acc);
	free(r->not_ran);
	free(r->nr_not_ran);
	free(r->fig);
	free(r);
}

/* acc += x, number by number, for two values of the same shape; other values keep acc's. */
static json_t *json_sum(json_t *acc, const json_t *x)
{
	if (json_is_number(acc) && json_is_number(x))
		return json_real(json_number_value(acc) + json_number_value(x));
	if (json_is_object(acc) && json_is_object(x)) {
		const char *key;
		json_t *v;

		json_object_foreach (acc, key, v) {
			const json_t *xv = json_object_get(x, key);

			if (xv)
				json_object_set_new(acc, key, json_sum(v, xv));
		}
	} else if (json_is_array(acc) && json_is_array(x)) {
		for (size_t i = 0; i < json_array_size(acc) && i < json_array_size(x); i++)
			json_array_set_new(acc, i,
					   json_sum(json_array_get(acc, i), json_array_get(x, i)));
	}
	return json_incref(acc);
}

/* every number of v divided by n */
static json_t *json_scale(json_t *v, double n)
{
	if (json_is_number(v))
		return json_real(json_number_value(v) / n);
	if (json_is_object(v)) {
		const char *key;
		json_t *x;

		json_object_foreach (v, key, x)
			json_object_set_new(v, key, json_scale(x, n));
	} else if (json_is_array(v)) {
		for (size_t i = 0; i < json_array_size(v); i++)
			json_array_set_new(v, i, json_scale(json_array_get(v, i), n));
	}
	return json_incref(v);
}

int sim_report_add(struct sim_report *r, const struct sim_result *res)
{
	double base = ratio_base(res, r->n);
	u32 k = r->added;

	if (k >= r->nr_seeds)
		return -1;
	if (k == 0)
		memcpy(r->first, res, r->n * sizeof(*res));
	for (unsigned i = 0; i < r->n; i++) {
		json_t *o = result_json(&res[i], base);
		double *fig = &r->fig[((size_t)i * r->nr_seeds + k) * SIM_NR_FIGURES];

		if (!o)
			return -1;
		for (int f = 0; f < SIM_NR_FIGURES; f++)
			fig[f] = res[i].outcome == SIM_RAN ? figure_of(&res[i], base, f) : NAN;
		if (res[i].outcome != SIM_RAN) {
			if (!r->nr_not_ran[i]++)
				r->not_ran[i] = json_incref(o);
		} else if (!r->acc[i]) {
			r->acc[i] = json_incref(o);
		} else {
			json_decref(json_sum(r->acc[i], o));
		}
		json_decref(o);
	}
	r->added++;
	return 0;
}

static json_t *interval_json(struct sim_interval iv)
{
	return isnan(iv.lo) || isnan(iv.hi) ? json_null() : json_pack("[f, f]", iv.lo, iv.hi);
}

/* The interval of figure f of policy i over the seeds; NaN when a seed has none. */
static struct sim_interval figure_interval(const struct sim_report *r, unsigned i,
					   enum sim_figure f)
{
	double *x = malloc(r->added * sizeof(double) + 1);
	struct sim_interval iv = {NAN, NAN, NAN};
	bool all = true;

	if (!x)
		return iv;
	for (u32 k = 0; k < r->added; k++) {
		x[k] = r->fig[((size_t)i * r->nr_seeds + k) * SIM_NR_FIGURES + f];
		all &= !isnan(x[k]);
	}
	if (all)
		iv = sim_interval_of(x, r->added);
	free(x);
	return iv;
}

/* Policy i's result over the seeds (a new reference). */
static json_t *summary_json(const struct sim_report *r, unsigned i)
{
	json_t *o, *per_seed;

	if (r->nr_not_ran[i]) {
		o = json_deep_copy(r->not_ran[i]);
		if (r->added > 1) {
			json_t *note =
			    json_object_get(o, json_object_get(o, "skipped") ? "skipped" : "note");
			char buf[512];

			snprintf(buf, sizeof(buf), "%s (in %u of %u seeds)",
				 json_string_value(note), r->nr_not_ran[i], r->added);
			json_object_set_new(o, json_object_get(o, "skipped") ? "skipped" : "note",
					    json_string(buf));
		}
		return o;
	}
	o = json_deep_copy(r->acc[i]);
	if (r->added > 1) {
		const char *key;
		json_t *v;

		json_object_foreach (o, key, v)
			json_object_set_new(o, key, json_scale(v, r->added));
	}
	for (int f = 0; f < SIM_NR_FIGURES; f++) {
		char key[64];

		snprintf(key, sizeof(key), "%s_ci95", figure_names[f]);
		json_object_set_new(o, key, interval_json(figure_interval(r, i, f)));
	}
	if (r->added < 2)
		return o;
	per_seed = json_array();
	for (u32 k = 0; k < r->added; k++) {
		json_t *s = json_object();
		const double *fig = &r->fig[((size_t)i * r->nr_seeds + k) * SIM_NR_FIGURES];

		json_object_set_new(s, "seed", json_integer((json_int_t)(r->first_seed + k)));
		for (int f = 0; f < SIM_NR_FIGURES; f++)
			json_object_set_new(s, figure_names[f],
					    isnan(fig[f]) ? json_null() : json_real(fig[f]));
		json_array_append_new(per_seed, s);
	}
	json_object_set_new(o, "per_seed", per_seed);
	return o;
}

void sim_report_json(FILE *out, const struct sim_report *r)
{
	json_t *root = json_object(), *arr = json_array(), *seeds = json_array();
	double dur = 0;

	for (unsigned i = 0; i < r->n; i++) {
		json_t *o = summary_json(r, i);

		if (!dur && json_object_get(o, "duration_us"))
			dur = json_number_value(json_object_get(o, "duration_us"));
		json_array_append_new(arr, o);
	}
	for (u32 k = 0; k < r->added; k++)
		json_array_append_new(seeds, json_integer((json_int_t)(r->first_seed + k)));
	json_object_set_new(root, "format", json_string("gearbox-sim/1"));
	json_object_set_new(root, "soc", json_string(r->prof->soc));
	json_object_set_new(root, "workload", json_string(r->w->name));
	json_object_set_new(root, "idle_model", json_string(idle_model_key(r->prof)));
	json_object_set_new(root, "duration_us", json_integer((json_int_t)llround(dur)));
	json_object_set_new(root, "seeds", seeds);
	json_object_set_new(root, "results", arr);
	json_dumpf(root, out, JSON_INDENT(1) | JSON_REAL_PRECISION(9));
	fputc('\n', out);
	json_decref(root);
}

static void print_interval(FILE *out, struct sim_interval iv, int width, int prec)
{
	if (isnan(iv.mean))
		fprintf(out, " %*s %*s", width, "-", width, "");
	else if (isnan(iv.lo))
		fprintf(out, " %*.*f %*s", width, prec, iv.mean, width, "");
	else
		fprintf(out, " %*.*f +-%-*.*f", width, prec, iv.mean, width - 2, prec,
			(iv.hi - iv.lo) / 2);
}

void sim_report_table(FILE *out, const struct sim_report *r)
{
	static const struct {
		enum sim_figure f;
		const char *title;
		int prec;
	} cols[] = {
	    {SIM_FIG_ENERGY, "energy_J", 4}, {SIM_FIG_RATIO, "ratio", 3},
	    {SIM_FIG_LATE, "late", 1},	     {SIM_FIG_MISSED, "missed", 1},
	    {SIM_FIG_MIGRATIONS, "migr", 1}, {SIM_FIG_MIGRATIONS_ACROSS, "x-dom", 1},
	    {SIM_FIG_WORK, "work_s", 4},     {SIM_FIG_EPW, "J/work_s", 4},
	};
	double dur = 0;

	if (r->added < 2) {
		table_one_seed(out, r->prof, r->w, r->first, r->n);
		return;
	}
	for (unsigned i = 0; i < r->n && !dur; i++)
		if (!r->nr_not_ran[i])
			dur =
			    json_number_value(json_object_get(r->acc[i], "duration_us")) / r->added;
	fprintf(out,
		"%s on %s, %.3f s simulated (mean), %u seeds (%llu to %llu): mean and "
		"half-width of the 95%% confidence interval (Student t)\n",
		r->w->name, r->prof->soc, dur / 1e6, r->added, (unsigned long long)r->first_seed,
		(unsigned long long)(r->first_seed + r->added - 1));
	fprintf(out, "idle: %s\n", idle_model_text(r->prof));
	print_host_line(out, r->first, r->n);
	fputc('\n', out);
	fprintf(out, "%-12s", "policy");
	for (size_t c = 0; c < sizeof(cols) / sizeof(cols[0]); c++)
		fprintf(out, " %9s %9s", cols[c].title, "");
	fputc('\n', out);
	for (unsigned i = 0; i < r->n; i++) {
		if (r->nr_not_ran[i]) {
			json_t *o = summary_json(r, i);
			const json_t *why = json_object_get(o, "skipped");

			fprintf(out, "%-12s %s: %s\n", sim_policy_name(r->first[i].policy),
				why ? "skipped" : "infeasible",
				json_string_value(why ? why : json_object_get(o, "note")));
			json_decref(o);
			continue;
		}
		fprintf(out, "%-12s", sim_policy_name(r->first[i].policy));
		for (size_t c = 0; c < sizeof(cols) / sizeof(cols[0]); c++)
			print_interval(out, figure_interval(r, i, cols[c].f), 9, cols[c].prec);
		fputc('\n', out);
	}
	fprintf(
	    out,
	    "\nratio: energy over the first policy's, per seed; x-dom: the migrations to a CPU of "
	    "another domain; work_s: work done, s at capacity 1024; J/work_s: energy per unit of "
	    "it; per domain and per task: --json\n");
}
