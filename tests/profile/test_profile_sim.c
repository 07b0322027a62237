// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_profile_sim.c - the measurement loop against the simulated SoC: profiling recovers the
 * ground truth despite noise, spikes, leakage, quantization, wrap and a stuck OPP.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "profile.h"
#include "sim.h"
#include "stats.h"
#include "tap.h"

static struct em_profile truth, got;
static struct prof_result res;

/* The ground truth: a shipped em-profile (measured on the real phone by freqbench). */
static int load_truth(const char *soc)
{
	char path[512];
	struct gb_err err = {{0}};

	snprintf(path, sizeof(path), "%s/em-profiles/%s.json", SRCDIR, soc);
	if (em_profile_load_file(path, &truth, false, NULL, &err) < 0) {
		printf("# %s\n", err.msg);
		return -1;
	}
	return 0;
}

/* Profiles the shipped model soc in the simulator; returns 0 on success. */
static int run_sim_opts(const char *soc, const struct prof_sim_opts *so, int max_temp_mc)
{
	struct prof_platform pf;
	struct prof_topology topo;
	struct prof_opts o;
	struct prof_sim *sim;
	struct gb_err err = {{0}};
	u32 capped = 0;
	int ret;

	if (load_truth(soc) < 0)
		return -1;
	prof_opts_default(&o);
	if (max_temp_mc >= 0)
		o.max_temp_mc = max_temp_mc;
	if (prof_sim_create(&truth, so, &sim, &err) < 0) {
		printf("# %s\n", err.msg);
		return -1;
	}
	prof_sim_platform(sim, &pf, &topo);
	ret = prof_measure(&pf, &topo, &o, &res, &err);
	if (ret == 0)
		ret = prof_build_profile(&res, "sim", &got, &err);
	if (ret < 0)
		printf("# %s\n", err.msg);
	for (u32 d = 0; d < res.topo.nr_domains; d++)
		for (u32 k = 0; k < res.topo.dom[d].nr_opps; k++)
			capped += !res.opp[d][k].converged;
	printf("# %s: simulated wall time %.1f s, %u OPPs not applied, %u at the time cap, "
	       "energy counter wraps %u, %u cool-downs, %.1f-%.1f C\n",
	       soc, res.total_ns / 1e9, res.nr_not_applied, capped, prof_sim_wraps(sim),
	       res.cool_waits, res.temp_min_mc / 1000.0, res.temp_max_mc / 1000.0);
	prof_sim_destroy(sim);
	return ret;
}

static int run_sim(const char *soc, const struct prof_sim_opts *so)
{
	return run_sim_opts(soc, so, -1);
}

/* The truth OPP with the frequency of got's OPP k in domain d, or NULL. */
static const struct em_opp *truth_opp(u32 d, u32 freq_khz)
{
	const struct em_domain *pd = &truth.model.domains[d];

	for (u32 k = 0; k < pd->nr_opps; k++)
		if (pd->opps[k].freq_khz == freq_khz)
			return &pd->opps[k];
	return NULL;
}

/* Power within 2%; perf within 1% (+0.5 for rounding perf to an integer). */
static void check_accuracy(void)
{
	double worst_p = 0, worst_q = 0;

	CHECK_EQ_U(got.model.nr_domains, truth.model.nr_domains);
	for (u32 d = 0; d < got.model.nr_domains; d++) {
		const struct em_domain *pd = &got.model.domains[d];

		for (u32 k = 0; k < pd->nr_opps; k++) {
			const struct em_opp *g = &pd->opps[k], *t = truth_opp(d, g->freq_khz);
			double ep, eq;

			CHECK(t != NULL);
			if (!t)
				continue;
			ep = fabs((double)g->power_uw - t->power_uw) / t->power_uw;
			eq = fabs((double)g->perf - t->perf);
			if (ep > worst_p)
				worst_p = ep;
			if (eq / t->perf > worst_q)
				worst_q = eq / t->perf;
			if (ep > 0.02 || eq > 0.01 * t->perf + 0.5) {
				printf("# %s %u kHz: power %u uW (truth %u), perf %u (truth %u)\n",
				       pd->name, g->freq_khz, g->power_uw, t->power_uw, g->perf,
				       t->perf);
				tap_case_failed = 1;
			}
		}
	}
	printf("# worst power error %.2f%%, worst perf error %.2f%%\n", 100 * worst_p,
	       100 * worst_q);
}

/* The stuck OPP is the only one left out, so every other truth OPP must be present. */
static void check_only_stuck_left_out(u32 sd, u32 so)
{
	CHECK_EQ_U(res.nr_not_applied, 1);
	CHECK(res.opp[sd][so].not_applied);
	for (u32 d = 0; d < truth.model.nr_domains; d++)
		CHECK_EQ_U(got.model.domains[d].nr_opps,
			   truth.model.domains[d].nr_opps - (d == sd ? 1 : 0));
}

static void test_sim_gs101_recovers_power_2pct_perf_1pct_at_every_opp(void)
{
	struct prof_sim_opts so;

	prof_sim_opts_default(&so);
	so.stuck_dom = PROF_SIM_NO_STUCK;
	CHECK(run_sim("gs101", &so) == 0);
	CHECK_EQ_U(res.nr_not_applied, 0);
	check_accuracy();
}

static void test_sim_sm8250_recovers_power_2pct_perf_1pct_at_every_opp(void)
{
	struct prof_sim_opts so;

	prof_sim_opts_default(&so);
	so.stuck_dom = PROF_SIM_NO_STUCK;
	so.seed = 7;
	CHECK(run_sim("sm8250", &so) == 0);
	CHECK_EQ_U(res.nr_not_applied, 0);
	check_accuracy();
}

/* Relative distance of t's cost from the cheapest cost at a higher OPP of its truth domain. */
static double cost_margin(u32 d, const struct em_opp *t)
{
	const struct em_domain *pd = &truth.model.domains[d];
	double min = INFINITY;

	for (u32 k = 0; k < pd->nr_opps; k++)
		if (pd->opps[k].freq_khz > t->freq_khz && pd->opps[k].cost < min)
			min = (double)pd->opps[k].cost;
	return isinf(min) ? INFINITY : fabs((double)t->cost - min) / min;
}

static void test_sim_flags_the_same_inefficient_opps_as_ground_truth(void)
{
	const char *socs[] = {"gs101", "sm8250"};
	struct prof_sim_opts so;
	u32 flagged = 0;

	for (u32 i = 0; i < 2; i++) {
		prof_sim_opts_default(&so);
		so.stuck_dom = PROF_SIM_NO_STUCK;
		so.seed = 11 + i;
		CHECK(run_sim(socs[i], &so) == 0);
		for (u32 d = 0; d < got.model.nr_domains; d++) {
			const struct em_domain *pd = &got.model.domains[d];

			for (u32 k = 0; k < pd->nr_opps; k++) {
				const struct em_opp *t = truth_opp(d, pd->opps[k].freq_khz);

				/* a cost within 2% of a higher OPP's is a tie that no 1%
				 * measurement resolves (sm8250 mid 825.6 vs 940.8 MHz: 0.06%) */
				if (!t || cost_margin(d, t) < 0.02)
					continue;
				flagged += !!(t->flags & EM_OPP_INEFFICIENT);
				if ((t->flags ^ pd->opps[k].flags) & EM_OPP_INEFFICIENT) {
					printf("# %s %s %u kHz: inefficient %d, truth %d\n",
					       socs[i], pd->name, pd->opps[k].freq_khz,
					       !!(pd->opps[k].flags & EM_OPP_INEFFICIENT),
					       !!(t->flags & EM_OPP_INEFFICIENT));
					tap_case_failed = 1;
				}
			}
		}
	}
	/* gs101 little at 1803 MHz costs more per unit of work than 1704 MHz */
	CHECK(flagged >= 1);
}

static void test_sim_detects_opp_that_did_not_apply_from_iteration_rate(void)
{
	struct prof_sim_opts so;
	u32 sd, sopp;

	prof_sim_opts_default(&so);
	so.count_cycles = false;
	CHECK(run_sim("gs101", &so) == 0);
	sd = truth.model.nr_domains - 1;
	sopp = truth.model.domains[sd].nr_opps / 2;
	check_only_stuck_left_out(sd, sopp);
	CHECK_STR_CONTAINS(got.prov.conditions, "did not apply");
	check_accuracy();
}

static void test_sim_detects_opp_that_did_not_apply_from_cycles(void)
{
	struct prof_sim_opts so;

	prof_sim_opts_default(&so);
	so.count_cycles = true;
	so.stuck_dom = 1;
	so.stuck_opp = 3;
	CHECK(run_sim("sm8250", &so) == 0);
	check_only_stuck_left_out(1, 3);
	CHECK(res.opp[0][0].eff_khz > 0);
	check_accuracy();
}

/* With a PMU that counts instructions they are the performance, and the cycles of every
 * OPP but the stuck one match its frequency. */
static void test_sim_instructions_per_second_are_the_perf_when_counted(void)
{
	struct prof_sim_opts so;
	u32 match = 0, total = 0;

	prof_sim_opts_default(&so);
	so.count_cycles = true;
	so.count_instructions = true;
	so.stuck_dom = 2;
	so.stuck_opp = 1;
	CHECK(run_sim("gs101", &so) == 0);
	CHECK(res.topo.perf_src == PROF_PERF_INSTRUCTIONS);
	CHECK(!strcmp(got.prov.perf_source, "instructions"));
	check_only_stuck_left_out(2, 1);
	CHECK_EQ_I(res.opp[2][1].cycles, PROF_CYCLES_OFF);
	for (u32 d = 0; d < res.topo.nr_domains; d++)
		for (u32 k = 0; k < res.topo.dom[d].nr_opps; k++, total++)
			match += res.opp[d][k].cycles == PROF_CYCLES_MATCH;
	CHECK_EQ_U(match, total - 1);
	check_accuracy();
}

/* Without instructions the load's iterations are the performance, and it says so; without
 * cycles no OPP claims a cycle check. */
static void test_sim_without_pmu_falls_back_to_iterations_and_records_it(void)
{
	struct prof_sim_opts so;

	prof_sim_opts_default(&so);
	so.stuck_dom = PROF_SIM_NO_STUCK;
	CHECK(run_sim("gs101", &so) == 0);
	CHECK(res.topo.perf_src == PROF_PERF_ITERATIONS);
	CHECK(!strcmp(got.prov.perf_source, "iterations"));
	CHECK_STR_CONTAINS(res.topo.perf_why, "iterations");
	for (u32 d = 0; d < res.topo.nr_domains; d++)
		for (u32 k = 0; k < res.topo.dom[d].nr_opps; k++)
			CHECK_EQ_I(res.opp[d][k].cycles, PROF_CYCLES_NOT_COUNTED);
	CHECK(got.prov.has_duration);
	CHECK_EQ_U(got.prov.duration_ms, (u32)(res.total_ns / 1000000));
}

/*
 * The static/dynamic split: the simulated domains draw static + k * dynamic with k CPUs busy
 * (static = PROF_SIM_DEFAULT_STATIC_PCT of the model's power).  With the load on 1 and on 4
 * CPUs (3 in sm8250's mid, 2 in gs101's mid and big; sm8250's one-CPU big has nothing to
 * split) the static share must be within SPLIT_STATIC_TOL_PCT and the dynamic power within
 * SPLIT_DYN_TOL_PCT of the OPP's power.  The static share is the small difference of two 1%
 * measurements, static = (k P(1) - P(k)) / (k - 1): its 95% half-width is
 * sqrt(k^2 ci1^2 + cik^2) / (k - 1), about 2.7% of the power for k = 2 and 1.6% for k = 4,
 * so the worst of ~40 OPPs lands near 2 half-widths.  Over seeds 1-10 the worst static error
 * was 3.9% (gs101) and 2.4% (sm8250), the worst dynamic error 3.3% and 0.9%.
 */
#define SPLIT_STATIC_TOL_PCT 5.0
#define SPLIT_DYN_TOL_PCT    4.0

/* The result of got's OPP at freq_khz in domain d. */
static const struct prof_opp_result *result_opp(u32 d, u32 freq_khz)
{
	for (u32 k = 0; k < res.topo.dom[d].nr_opps; k++)
		if (res.opp[d][k].freq_khz == freq_khz)
			return &res.opp[d][k];
	return NULL;
}

static u32 run_split(const char *soc, u64 seed, double *worst_static, double *worst_dyn)
{
	struct prof_sim_opts so;
	struct prof_platform pf;
	struct prof_topology topo;
	struct prof_opts o;
	struct prof_sim *sim;
	struct gb_err err = {{0}};
	double worst_ratio = 0;
	u32 n = 0;

	*worst_static = *worst_dyn = 0;
	if (load_truth(soc) < 0)
		return 0;
	prof_sim_opts_default(&so);
	so.stuck_dom = PROF_SIM_NO_STUCK;
	so.seed = seed;
	prof_opts_default(&o);
	o.split_cpus = 4;
	if (prof_sim_create(&truth, &so, &sim, &err) < 0)
		return 0;
	prof_sim_platform(sim, &pf, &topo);
	if (prof_measure(&pf, &topo, &o, &res, &err) < 0 ||
	    prof_build_profile(&res, "sim", &got, &err) < 0) {
		printf("# %s\n", err.msg);
		prof_sim_destroy(sim);
		return 0;
	}
	prof_sim_destroy(sim);
	printf("# %s: simulated wall time with the split %.1f s\n", soc, res.total_ns / 1e9);
	for (u32 d = 0; d < got.model.nr_domains; d++) {
		const struct em_domain *pd = &got.model.domains[d];

		for (u32 k = 0; k < pd->nr_opps; k++) {
			const struct em_opp_meta *m = &got.meta[d][k];
			const struct em_opp *t = truth_opp(d, pd->opps[k].freq_khz);
			const struct prof_opp_result *r = result_opp(d, pd->opps[k].freq_khz);
			double ts, es, ed, es_uw, ed_uw;

			if (!t || !r)
				continue;
			if (pd->nr_cpus < 2) {
				CHECK(!m->has_split);
				continue;
			}
			CHECK(m->has_split);
			CHECK_EQ_U(m->split_cpus, pd->nr_cpus < 4 ? pd->nr_cpus : 4);
			CHECK_EQ_U(m->static_uw + m->dynamic_uw, pd->opps[k].power_uw);
			ts = PROF_SIM_DEFAULT_STATIC_PCT / 100 * t->power_uw;
			es_uw = fabs(m->static_uw - ts);
			ed_uw = fabs(m->dynamic_uw - (t->power_uw - ts));
			es = es_uw / t->power_uw * 100;
			ed = ed_uw / t->power_uw * 100;
			if (es_uw / r->static_ci_uw > worst_ratio)
				worst_ratio = es_uw / r->static_ci_uw;
			if (ed_uw / r->dynamic_ci_uw > worst_ratio)
				worst_ratio = ed_uw / r->dynamic_ci_uw;
			if (es > *worst_static)
				*worst_static = es;
			if (ed > *worst_dyn)
				*worst_dyn = ed;
			if (es > SPLIT_STATIC_TOL_PCT || ed > SPLIT_DYN_TOL_PCT) {
				printf(
				    "# %s %s %u kHz: static %u uW +-%.0f (truth %.0f), dynamic %u "
				    "uW +-%.0f (truth %.0f)\n",
				    soc, pd->name, pd->opps[k].freq_khz, m->static_uw,
				    r->static_ci_uw, ts, m->dynamic_uw, r->dynamic_ci_uw,
				    t->power_uw - ts);
				tap_case_failed = 1;
			}
			n++;
		}
	}
	printf("# %s: %u OPPs split, worst static error %.2f%%, worst dynamic error %.2f%% of "
	       "the OPP's power; worst error / reported 95%% half-width %.2f\n",
	       soc, n, *worst_static, *worst_dyn, worst_ratio);
	return n;
}

static void test_sim_split_recovers_static_and_dynamic_power_sm8250(void)
{
	double ws, wd;

	/* little 17 OPPs on 4 CPUs, mid 18 on 3; big is one CPU */
	CHECK_EQ_U(run_split("sm8250", 3, &ws, &wd), 17 + 18);
	check_accuracy();
}

static void test_sim_split_recovers_static_and_dynamic_power_gs101(void)
{
	double ws, wd;
	u32 n = 0;

	for (u32 d = 0; d < 3 && load_truth("gs101") == 0; d++)
		n += truth.model.domains[d].nr_opps;
	CHECK_EQ_U(run_split("gs101", 5, &ws, &wd), n);
	check_accuracy();
}

static void test_sim_energy_counter_with_wraparound_stays_accurate(void)
{
	struct prof_sim_opts so;

	prof_sim_opts_default(&so);
	so.energy_counter = true;
	so.stuck_dom = PROF_SIM_NO_STUCK;
	so.max_energy_range_uj = 50000000; /* 50 J: wraps every ~minute */
	CHECK(run_sim("gs101", &so) == 0);
	CHECK(res.total_ns > 0);
	check_accuracy();
}

/*
 * A fuel gauge that shows each 100 ms (1 s) interval's mean: the windows are lengthened to five
 * updates and the stale readings dropped.  With a few readings per window, the OPPs of least
 * power do not reach the 1% target within the per-OPP cap; the profile must then say so: an
 * OPP that converged is within 2% (perf 1%), and every OPP's error is within 3x the 95%
 * half-width the profile reports for it (its uncertainty is honest).
 */
static void run_gauge(const char *soc, u32 ms)
{
	struct prof_sim_opts so;
	u32 n = 0, conv = 0;
	double worst_conv = 0, worst_rel = 0;

	prof_sim_opts_default(&so);
	so.gauge_ms = ms;
	so.stuck_dom = PROF_SIM_NO_STUCK;
	CHECK(run_sim(soc, &so) == 0);
	CHECK_EQ_U(res.nr_not_applied, 0);
	CHECK_STR_CONTAINS(got.prov.conditions, "fuel gauge");
	for (u32 d = 0; d < res.topo.nr_domains; d++) {
		for (u32 k = 0; k < res.topo.dom[d].nr_opps; k++) {
			const struct prof_opp_result *r = &res.opp[d][k];
			const struct em_opp *t = truth_opp(d, r->freq_khz);
			double err;

			CHECK(t != NULL);
			if (!t || r->not_applied)
				continue;
			n++;
			err = fabs(r->power_uw - t->power_uw);
			if (r->converged) {
				conv++;
				if (err / t->power_uw > worst_conv)
					worst_conv = err / t->power_uw;
				CHECK(err <= 0.02 * t->power_uw);
			}
			if (r->power_ci_uw > 0 && err / r->power_ci_uw > worst_rel)
				worst_rel = err / r->power_ci_uw;
			CHECK(err <= 3 * r->power_ci_uw + 0.005 * t->power_uw);
		}
	}
	CHECK(conv > 0);
	printf("# %s, %u ms gauge: %u of %u OPPs converged (worst error %.2f%%); worst error / "
	       "reported 95%% half-width %.2f\n",
	       soc, ms, conv, n, 100 * worst_conv, worst_rel);
}

static void test_sim_fuel_gauge_100ms_stays_accurate(void)
{
	run_gauge("gs101", 100);
}

static void test_sim_fuel_gauge_1s_stays_accurate(void)
{
	run_gauge("sm8250", 1000);
}

static void test_sim_records_temperatures_in_provenance(void)
{
	struct prof_sim_opts so;

	prof_sim_opts_default(&so);
	CHECK(run_sim("sm8250", &so) == 0);
	CHECK(got.prov.has_temp);
	CHECK(got.prov.temp_max_mc > 25000);
	CHECK(got.prov.temp_max_mc <= 60000);
	CHECK_STR_CONTAINS(got.prov.source, "sim");
}

static void test_sim_throttling_without_thermal_guard_is_detected_as_not_applied(void)
{
	struct prof_sim_opts so;
	u32 big;

	prof_sim_opts_default(&so);
	so.stuck_dom = PROF_SIM_NO_STUCK;
	so.throttle_mc = 31000;
	CHECK(run_sim_opts("sm8250", &so, 0) == 0);
	big = res.topo.nr_domains - 1;

	CHECK(res.nr_not_applied >= 1);
	CHECK_EQ_U(res.cool_waits, 0);
	/* the hottest OPP is the one the SoC throttled */
	CHECK(res.opp[big][res.topo.dom[big].nr_opps - 1].not_applied);
}

static void test_sim_thermal_guard_cools_down_so_that_nothing_throttles(void)
{
	struct prof_sim_opts so;

	prof_sim_opts_default(&so);
	so.stuck_dom = PROF_SIM_NO_STUCK;
	so.throttle_mc = 33000;
	CHECK(run_sim_opts("sm8250", &so, 31000) == 0);
	CHECK(res.cool_waits >= 1);
	CHECK_EQ_U(res.nr_not_applied, 0);
	CHECK(res.temp_max_mc < 33000);
	check_accuracy();
}

static void test_median_mad_rejects_meter_spikes(void)
{
	struct prof_samples s = {0};
	struct prof_stat st;
	double scratch[1000];

	/* the freqbench sm8250 pattern: ~30 mW with a ~415 mW sample every tenth */
	for (int i = 0; i < 1000; i++)
		prof_samples_push(&s, i % 10 == 3 ? 415000 : 30000 + (i % 7 - 3) * 1000);
	prof_robust_stat(&s, PROF_REJECT_SIGMAS, 0.002, 0, scratch, &st);
	CHECK_EQ_U(st.rejected, 100);
	CHECK(fabs(st.mean - 30000) < 200);
	prof_samples_free(&s);
}

static void test_energy_delta_handles_wraparound(void)
{
	CHECK_EQ_U(prof_energy_delta_uj(100, 350, 1000), 250);
	CHECK_EQ_U(prof_energy_delta_uj(900, 50, 1000), 150);
}

/*
 * A board where one OPP's load runs 15% slow during some of its measurements (a burst of other
 * work on its CPU): the simulated platform, with the load's work at that OPP cut.  sm8250's
 * little 787.2 MHz is 13.9% above 691.2 MHz, so the cut puts its rate below its neighbour's.
 * Cycles are counted, so the frequency check passes: only the order is wrong.
 */
struct slow_opp {
	struct prof_platform sim;
	u32 dom, freq_khz;
	u32 measured;	/* times the OPP was requested: once per measurement */
	u32 slow_until; /* the measurements that run slow: 1..slow_until */
	bool at_opp;
};

static int slow_set_freq(void *ctx, u32 d, u32 freq_khz, struct gb_err *err)
{
	struct slow_opp *s = ctx;

	s->at_opp = d == s->dom && freq_khz == s->freq_khz;
	s->measured += s->at_opp;
	return s->sim.set_freq(s->sim.ctx, d, freq_khz, err);
}

static int slow_set_load(void *ctx, const struct em_cpumask *cpus, struct gb_err *err)
{
	struct slow_opp *s = ctx;

	return s->sim.set_load(s->sim.ctx, cpus, err);
}

static int slow_window(void *ctx, u64 ns, struct prof_window *w, struct gb_err *err)
{
	struct slow_opp *s = ctx;
	int ret = s->sim.window(s->sim.ctx, ns, w, err);

	if (ret == 0 && s->at_opp && s->measured <= s->slow_until)
		w->work = w->work * 85 / 100;
	return ret;
}

static void slow_wait(void *ctx, u64 ns)
{
	struct slow_opp *s = ctx;

	s->sim.wait(s->sim.ctx, ns);
}

static u64 slow_now(void *ctx)
{
	struct slow_opp *s = ctx;

	return s->sim.now_ns(s->sim.ctx);
}

static int slow_temp(void *ctx, int *mc)
{
	struct slow_opp *s = ctx;

	return s->sim.temp_mc(s->sim.ctx, mc);
}

/* Profiles sm8250 with little 787.2 MHz slow for its first slow_until measurements. */
static int run_slow_opp(u32 slow_until, struct slow_opp *s)
{
	struct prof_platform pf = {.ctx = s,
				   .name = "sim",
				   .set_freq = slow_set_freq,
				   .set_load = slow_set_load,
				   .window = slow_window,
				   .wait = slow_wait,
				   .now_ns = slow_now,
				   .temp_mc = slow_temp};
	struct prof_topology topo;
	struct prof_sim_opts so;
	struct prof_opts o;
	struct prof_sim *sim;
	struct gb_err err = {{0}};
	int ret;

	if (load_truth("sm8250") < 0)
		return -1;
	prof_sim_opts_default(&so);
	so.stuck_dom = PROF_SIM_NO_STUCK;
	so.count_cycles = true;
	prof_opts_default(&o);
	if (prof_sim_create(&truth, &so, &sim, &err) < 0)
		return -1;
	memset(s, 0, sizeof(*s));
	prof_sim_platform(sim, &s->sim, &topo);
	s->dom = 0;
	s->freq_khz = 787200;
	s->slow_until = slow_until;
	ret = prof_measure(&pf, &topo, &o, &res, &err);
	if (ret == 0)
		ret = prof_build_profile(&res, "sim", &got, &err);
	if (ret < 0)
		printf("# %s\n", err.msg);
	prof_sim_destroy(sim);
	return ret;
}

/* The index of freq_khz among the OPPs of domain 0 of got, or -1. */
static int got_opp(u32 freq_khz)
{
	for (u32 k = 0; k < got.model.domains[0].nr_opps; k++)
		if (got.model.domains[0].opps[k].freq_khz == freq_khz)
			return (int)k;
	return -1;
}

static void test_opp_out_of_order_once_is_measured_again_and_not_marked(void)
{
	struct slow_opp s;

	CHECK(run_slow_opp(1, &s) == 0);
	/* both OPPs of the pair again, once: the second measurement is in order */
	CHECK_EQ_U(res.opp[0][5].measurements, 2);
	CHECK_EQ_U(res.opp[0][4].measurements, 2);
	CHECK_EQ_U(res.opp[0][3].measurements, 1);
	CHECK_EQ_U(res.nr_inconsistent, 0);
	CHECK(got_opp(787200) >= 0 && !got.meta[0][got_opp(787200)].has_raw);
	check_accuracy();
}

static void test_opp_out_of_order_every_time_is_kept_fitted_and_marked(void)
{
	struct em_warnings warn = {0};
	struct gb_err err = {{0}};
	struct slow_opp s;
	int k;

	CHECK(run_slow_opp(100, &s) == 0);
	CHECK_EQ_U(res.opp[0][5].measurements, 1 + PROF_REMEASURE);
	/* the slow one is the suspect: its rate per kHz is the one off the domain's */
	CHECK(res.opp[0][5].perf_inconsistent);
	CHECK(!res.opp[0][4].perf_inconsistent);
	CHECK_EQ_U(res.nr_inconsistent, 1);
	k = got_opp(787200);
	CHECK(k > 0);
	if (k <= 0)
		return;
	/* kept, with perf fitted between its neighbours and the measured perf in raw */
	CHECK(got.meta[0][k].has_raw);
	CHECK(got.meta[0][k].raw_perf <= got.model.domains[0].opps[k - 1].perf);
	CHECK(got.model.domains[0].opps[k].perf > got.model.domains[0].opps[k - 1].perf);
	CHECK(got.model.domains[0].opps[k].perf < got.model.domains[0].opps[k + 1].perf);
	CHECK(fabs((double)got.model.domains[0].opps[k].perf - truth_opp(0, 787200)->perf) <=
	      0.02 * truth_opp(0, 787200)->perf + 1);
	CHECK(em_profile_finalize(&got, true, &warn, &err) == 0);
	CHECK(strstr(got.prov.conditions,
		     "little 787200 kHz perf out of order after 3 measurements"));
}

int main(void)
{
	TAP_RUN(test_median_mad_rejects_meter_spikes);
	TAP_RUN(test_energy_delta_handles_wraparound);
	TAP_RUN(test_sim_gs101_recovers_power_2pct_perf_1pct_at_every_opp);
	TAP_RUN(test_sim_sm8250_recovers_power_2pct_perf_1pct_at_every_opp);
	TAP_RUN(test_sim_flags_the_same_inefficient_opps_as_ground_truth);
	TAP_RUN(test_sim_detects_opp_that_did_not_apply_from_iteration_rate);
	TAP_RUN(test_sim_detects_opp_that_did_not_apply_from_cycles);
	TAP_RUN(test_sim_instructions_per_second_are_the_perf_when_counted);
	TAP_RUN(test_sim_without_pmu_falls_back_to_iterations_and_records_it);
	TAP_RUN(test_sim_split_recovers_static_and_dynamic_power_sm8250);
	TAP_RUN(test_sim_split_recovers_static_and_dynamic_power_gs101);
	TAP_RUN(test_sim_energy_counter_with_wraparound_stays_accurate);
	TAP_RUN(test_sim_fuel_gauge_100ms_stays_accurate);
	TAP_RUN(test_sim_fuel_gauge_1s_stays_accurate);
	TAP_RUN(test_sim_records_temperatures_in_provenance);
	TAP_RUN(test_sim_throttling_without_thermal_guard_is_detected_as_not_applied);
	TAP_RUN(test_sim_thermal_guard_cools_down_so_that_nothing_throttles);
	TAP_RUN(test_opp_out_of_order_once_is_measured_again_and_not_marked);
	TAP_RUN(test_opp_out_of_order_every_time_is_kept_fitted_and_marked);
	return tap_done();
}
