// SPDX-License-Identifier: GPL-2.0-only
/*
 * sim_report.c - the report of `gearbox sim`: a table for people, JSON for machines
 * (`"format": "gearbox-sim/1"`, documented in docs/sim.md).  Ratios are against the first
 * policy given.
 */
#include <jansson.h>

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

void sim_report_table(FILE *out, const struct em_profile *prof, const struct workload *w,
		      const struct sim_result *res, unsigned n)
{
	double base = ratio_base(res, n);
	const struct sim_result *ran = NULL;

	for (unsigned i = 0; i < n && !ran; i++)
		if (res[i].outcome == SIM_RAN)
			ran = &res[i];
	fprintf(out, "%s on %s, %.3f s simulated\n\n", w->name, prof->soc,
		ran ? (double)ran->duration_us / 1e6 : 0.0);
	ran = NULL;
	fprintf(out, "%-12s %10s %7s %6s %6s %8s %9s %9s %6s %7s %7s %9s %9s\n", "policy",
		"energy_J", "ratio", "late", "missed", "activ", "lat50_us", "lat99_us", "OU_%", "migr",
		"misfit", "work_s", "J/work_s");
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
		fprintf(out, "%-12s %10.4f %7s %6llu %6llu %8llu %9.0f %9.0f %6.1f %7llu %7llu "
			"%9.4f %9.4f\n",
			sim_policy_name(r->policy), r->energy_j, ratio,
			(unsigned long long)r->late, (unsigned long long)r->missed,
			(unsigned long long)r->activations,
			r->wake_lat_p50_us, r->wake_lat_p99_us, r->overutilized_pct,
			(unsigned long long)r->migrations, (unsigned long long)r->misfit_moves,
			r->work_s, r->energy_per_work);
	}
	fprintf(out, "\nwork_s: work done, s at capacity 1024 (run time x OPP perf / 1024); "
		"J/work_s: energy per unit of it\n");
	for (unsigned i = 0; i < n; i++)
		if (res[i].outcome == SIM_RAN && res[i].note[0])
			fprintf(out, "%s: %s\n", sim_policy_name(res[i].policy), res[i].note);
	fprintf(out, "\nper domain: energy J / average frequency MHz / busy %% / over-utilized %%\n");
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

			fprintf(out, " %8.4f/%6.0f/%5.1f/%5.1f", dr->energy_j, dr->avg_freq_khz / 1000,
				dr->busy_pct, dr->overutilized_pct);
		}
		fputc('\n', out);
	}
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
	doms = json_array();
	tasks = json_array();
	json_object_set_new(o, "energy_j", json_real(r->energy_j));
	json_object_set_new(o, "energy_ratio", base > 0 ? json_real(r->energy_j / base) : json_null());
	json_object_set_new(o, "activations", json_integer((json_int_t)r->activations));
	json_object_set_new(o, "late_activations", json_integer((json_int_t)r->late));
	json_object_set_new(o, "missed_periods", json_integer((json_int_t)r->missed));
	json_object_set_new(o, "wakeups", json_integer((json_int_t)r->wakeups));
	json_object_set_new(o, "wake_latency_p50_us", json_real(r->wake_lat_p50_us));
	json_object_set_new(o, "wake_latency_p99_us", json_real(r->wake_lat_p99_us));
	json_object_set_new(o, "overutilized_pct", json_real(r->overutilized_pct));
	json_object_set_new(o, "migrations", json_integer((json_int_t)r->migrations));
	json_object_set_new(o, "work_s", json_real(r->work_s));
	json_object_set_new(o, "energy_j_per_work_s", json_real(r->energy_per_work));
	json_object_set_new(o, "misfit_moves", json_integer((json_int_t)r->misfit_moves));
	json_object_set_new(o, "decisions", json_integer((json_int_t)r->decisions));
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

void sim_report_json(FILE *out, const struct em_profile *prof, const struct workload *w,
		     const struct sim_result *res, unsigned n)
{
	json_t *root = json_object(), *arr = json_array();
	double base = ratio_base(res, n);
	const struct sim_result *ran = NULL;

	for (unsigned i = 0; i < n && !ran; i++)
		if (res[i].outcome == SIM_RAN)
			ran = &res[i];
	json_object_set_new(root, "format", json_string("gearbox-sim/1"));
	json_object_set_new(root, "soc", json_string(prof->soc));
	json_object_set_new(root, "workload", json_string(w->name));
	json_object_set_new(root, "duration_us",
			    json_integer(ran ? (json_int_t)ran->duration_us : 0));
	for (unsigned i = 0; i < n; i++)
		json_array_append_new(arr, result_json(&res[i], base));
	json_object_set_new(root, "results", arr);
	json_dumpf(root, out, JSON_INDENT(1) | JSON_REAL_PRECISION(9));
	fputc('\n', out);
	json_decref(root);
}
