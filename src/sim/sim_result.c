// SPDX-License-Identifier: GPL-2.0-only
/*
 * sim_result.c - option defaults, the hosts' names, and the summary of a finished run
 * (struct sim_result) from the engine's counters.
 */
#include "sim_internal.h"

void sim_options_defaults(struct sim_options *opt)
{
	if (!opt->tick_us)
		opt->tick_us = 4000;
	if (!opt->dvfs_rate_us)
		opt->dvfs_rate_us = 500;
	if (!opt->push_after_us)
		opt->push_after_us = 8000;
	if (!opt->pull_after_us)
		opt->pull_after_us = GB_PULL_AFTER_US;
	if (!opt->sample_us)
		opt->sample_us = 10000;
	if (opt->host == SIM_HOST_DEFAULT)
		opt->host = SIM_HOST_SCX;
	if (opt->group_slices == SIM_GROUP_DEFAULT)
		opt->group_slices = GB_GROUP_DFL ? SIM_GROUP_ON : SIM_GROUP_OFF;
	if (opt->wake_preempt == SIM_PREEMPT_DEFAULT)
		opt->wake_preempt = sim_preempt_of(GB_PREEMPT_DFL);
}

const char *sim_host_name(enum sim_host host)
{
	return host == SIM_HOST_SCX ? "scx" : "fair";
}

/* The q quantile of a wake-up latency histogram (SIM_LAT_BUCKETS buckets), in us; 0 if empty. */
static double lat_percentile(const u64 *hist, double q)
{
	u64 total = 0, acc = 0;

	for (u32 b = 0; b < SIM_LAT_BUCKETS; b++)
		total += hist[b];
	if (!total)
		return 0;
	for (u32 b = 0; b < SIM_LAT_BUCKETS; b++) {
		acc += hist[b];
		if ((double)acc >= q * (double)total)
			return b < 2048 ? (double)b : 2048.0 + (double)(b - 2048) * 64 + 32;
	}
	return 0;
}

static bool has_timer(const struct wl_task *wt)
{
	for (u32 p = 0; p < wt->nr_phases; p++)
		if (sim_phase_has_timer(&wt->phases[p]))
			return true;
	return false;
}

void sim_collect_results(const struct sim *s, struct sim_result *res)
{
	double dur = s->end_us ? (double)s->end_us : 1.0; /* tasks that all ended at t=0 */
	double work_perf_us = 0;

	memset(res, 0, sizeof(*res));
	memcpy(res->warning, s->warning, sizeof(res->warning));
	res->policy = s->policy;
	res->host = s->scx.on ? SIM_HOST_SCX : SIM_HOST_FAIR;
	res->duration_us = s->end_us;
	res->nr_domains = s->m->nr_domains;
	for (u32 d = 0; d < s->m->nr_domains; d++) {
		struct sim_domain_result *r = &res->domains[d];
		const struct em_domain *pd = &s->m->domains[d];
		u64 busy = 0;

		memcpy(r->name, pd->name, EM_NAME_LEN);
		r->energy_j = (double)s->doms[d].energy_puj / 1e12;
		r->avg_freq_khz = (double)s->doms[d].freq_khz_us / dur;
		r->overutilized_pct = 100.0 * (double)s->doms[d].ou_us / dur;
		for (u32 c = 0; c < s->m->nr_cpus; c++)
			if (s->m->cpu_domain[c] == d)
				busy += s->cpus[c].busy_us;
		r->busy_pct = pd->nr_cpus ? 100.0 * (double)busy / (dur * pd->nr_cpus) : 0;
		res->energy_j += r->energy_j;
	}
	for (u32 i = 0; i < s->nr_tasks; i++) {
		struct sim_task_result st = s->tasks[i].st;
		const struct sim_task *t = &s->tasks[i];

		st.periodic = has_timer(t->wt);
		st.throughput_pct = 100.0 * (double)st.work_perf_us / EM_CAPACITY_SCALE / dur;
		work_perf_us += st.work_perf_us;

		/* an activation still running at the end has missed every period it overran */
		if (t->state != TS_DONE && t->deadline_us && t->deadline_us < s->end_us)
			st.missed += 1 + (s->end_us - t->deadline_us) / t->period_us;
		res->activations += st.activations;
		res->late += st.late;
		res->missed += st.missed;
		if (i < sim_nr_report_tasks(s)) {
			const u64 *hist = &s->task_lat_hist[(u64)i * SIM_LAT_BUCKETS];

			for (u32 b = 0; b < SIM_LAT_BUCKETS; b++)
				st.wakeups += hist[b];
			st.wake_lat_p50_us = lat_percentile(hist, 0.50);
			st.wake_lat_p99_us = lat_percentile(hist, 0.99);
			res->tasks[res->nr_tasks++] = st;
		}
	}
	res->work_s = work_perf_us / EM_CAPACITY_SCALE / 1e6;
	res->energy_per_work = res->work_s > 0 ? res->energy_j / res->work_s : 0;
	res->wakeups = s->wakeups;
	res->wake_lat_p50_us = lat_percentile(s->lat_hist, 0.50);
	res->wake_lat_p99_us = lat_percentile(s->lat_hist, 0.99);
	res->overutilized_pct = 100.0 * (double)s->ou_any_us / dur;
	res->migrations = s->migrations;
	res->migrations_across = s->migrations_across;
	res->misfit_moves = s->misfit_moves;
	res->misfit_moves_undone = s->misfit_moves_undone;
	res->pulls = s->scx.pulls;
	res->misfit_undone = s->scx.misfit_undone;
	res->wake_preempts = s->scx.wake_preempts;
	res->decisions = s->decisions;
}
