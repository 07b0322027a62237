// SPDX-License-Identifier: GPL-2.0-only
/*
 * measure.c - the measurement loop of profile.h, identical for every platform.
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "profile.h"
#include "stats.h"

#define MIN_ROUNDS 4
#define MAX_ROUNDS 1024
/* Energy counters quantize (RAPL: 61 uJ); a floor keeps the MAD test from rejecting one LSB. */
#define SIGMA_FLOOR_REL	   0.002
#define COOL_STEP_NS	   1000000000ull
#define COOL_HYSTERESIS_MC 2000

void prof_opts_default(struct prof_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->target_pct = 1.0;
	o->opp_cap_ns = 30ull * 1000000000;
	/* a fuel gauge updating every second makes every window five seconds long: the default
	 * cap alone would end an OPP after two or three rounds, too few for its interval to
	 * mean anything */
	o->min_cap_rounds = 12;
	o->window_ns = 250ull * 1000000;
	o->settle_ns = 100ull * 1000000;
	o->switch_settle_ns = 20ull * 1000000;
	o->max_temp_mc = 55000;
	o->max_cool_ns = 120ull * 1000000000;
	o->verify_tol_pct = 3.0;
}

struct loop {
	const struct prof_platform *pf;
	const struct prof_opts *o;
	struct prof_result *res;
	struct prof_window *w;
	struct prof_samples active, idle, rate;
	double *scratch;
	double lsb_uw;
	bool from_energy;
	bool slow_meter; /* the platform lengthened a window to its meter's update interval */
	/* where each round's active and idle window starts in active / idle */
	size_t a_start[MAX_ROUNDS + 1], i_start[MAX_ROUNDS + 1];
	u32 rounds;
	size_t scratch_cap;
	u32 opps_done, opps_total;
	u32 opps_measured; /* by this run (not restored by a resume): for the ETA */
	u64 start_ns;
	u64 prior_ns; /* time the interrupted runs before a resume took */
};

static void note_temp(struct loop *l, int *out_mc)
{
	int mc;

	if (!l->pf->temp_mc || l->pf->temp_mc(l->pf->ctx, &mc) < 0)
		return;
	if (l->res->temp_min_mc == INT_MIN || mc < l->res->temp_min_mc)
		l->res->temp_min_mc = mc;
	if (l->res->temp_max_mc == INT_MIN || mc > l->res->temp_max_mc)
		l->res->temp_max_mc = mc;
	if (out_mc)
		*out_mc = mc;
}

/* Thermal guard: leakage grows with temperature, and a hot SoC throttles (an OPP that then
 * does not apply).  Stop the load and wait, bounded, until it is below the limit again. */
static int thermal_guard(struct loop *l, struct gb_err *err)
{
	const struct prof_platform *pf = l->pf;
	u64 waited = 0;
	int mc, ret;

	if (!l->o->max_temp_mc || !pf->temp_mc || pf->temp_mc(pf->ctx, &mc) < 0 ||
	    mc <= l->o->max_temp_mc)
		return 0;
	ret = pf->set_load(pf->ctx, NULL, err);
	if (ret < 0)
		return ret;
	l->res->cool_waits++;
	while (mc > l->o->max_temp_mc - COOL_HYSTERESIS_MC && waited < l->o->max_cool_ns) {
		pf->wait(pf->ctx, COOL_STEP_NS);
		waited += COOL_STEP_NS;
		if (pf->temp_mc(pf->ctx, &mc) < 0)
			break;
	}
	return 0;
}

static int ensure_scratch(struct loop *l, size_t n)
{
	if (n <= l->scratch_cap)
		return 0;
	free(l->scratch);
	l->scratch_cap = n * 2;
	l->scratch = malloc(l->scratch_cap * sizeof(double));
	return l->scratch ? 0 : -ENOMEM;
}

/* One window with the load on cpus (NULL: off); power samples go to dst. */
static int one_window(struct loop *l, const struct em_cpumask *cpus, struct prof_samples *dst,
		      double *rate, double *eff_khz, struct gb_err *err)
{
	const struct prof_platform *pf = l->pf;
	struct prof_window *w = l->w;
	int ret;

	if (l->o->stop && *l->o->stop)
		return gb_err_set(err, EINTR, "interrupted");
	ret = pf->set_load(pf->ctx, cpus, err);
	if (ret < 0)
		return ret;
	pf->wait(pf->ctx, l->o->switch_settle_ns);
	memset(w, 0, offsetof(struct prof_window, power_uw));
	ret = pf->window(pf->ctx, l->o->window_ns, w, err);
	if (ret < 0)
		return ret;
	l->from_energy = w->from_energy;
	if (w->duration_ns > l->o->window_ns + l->o->window_ns / 2)
		l->slow_meter = true;
	if (w->power_lsb_uw > l->lsb_uw)
		l->lsb_uw = w->power_lsb_uw;
	for (u32 i = 0; i < w->nr_power; i++) {
		ret = prof_samples_push(dst, w->power_uw[i]);
		if (ret < 0)
			return gb_err_set(err, ENOMEM, "out of memory");
	}
	if (rate) {
		/* Rate while running: task-clock excludes time another task had the CPU. */
		u64 run_ns = w->task_clock_ns ? w->task_clock_ns : w->duration_ns;
		u64 done =
		    l->res->topo.perf_src == PROF_PERF_INSTRUCTIONS ? w->instructions : w->work;

		*rate = run_ns ? (double)done * 1e9 / (double)run_ns : 0;
		*eff_khz = w->cycles && run_ns ? (double)w->cycles * 1e6 / (double)run_ns : 0;
	}
	return 0;
}

static void progress(struct loop *l, const struct prof_domain_info *di, u32 freq_khz,
		     const struct prof_opp_result *r, bool again)
{
	const struct prof_opts *o = l->o;
	u64 elapsed = l->pf->now_ns(l->pf->ctx) - l->start_ns;
	int eta_s =
	    l->opps_measured
		? (int)((double)elapsed / l->opps_measured * (l->opps_total - l->opps_done) / 1e9)
		: 0;

	if (o->quiet || !o->progress)
		return;
	if (o->progress_tty) {
		int width = 30, fill = (int)(width * l->opps_done / l->opps_total);

		fprintf(o->progress, "\r[%.*s%*s] %u/%u %-6s %7u kHz  ETA %3dm%02ds ", fill,
			"##############################", width - fill, "", l->opps_done,
			l->opps_total, di->name, freq_khz, eta_s / 60, eta_s % 60);
		if (l->opps_done == l->opps_total)
			fputc('\n', o->progress);
	} else {
		char cyc[48] = "", split[64] = "";

		if (r->cycles != PROF_CYCLES_NOT_COUNTED)
			snprintf(cyc, sizeof(cyc), ", cycles %.1f MHz %s", r->eff_khz / 1000,
				 r->cycles == PROF_CYCLES_MATCH ? "match" : "OFF");
		if (r->has_split)
			snprintf(split, sizeof(split), ", static %.1f + %u x %.1f mW",
				 r->static_uw / 1000, r->split_cpus, r->dynamic_uw / 1000);
		fprintf(
		    o->progress,
		    "profile: %u/%u (ETA %dm%02ds) %s %u kHz%s: %.1f mW +-%.2f%%, %.4g %s/s%s%s, "
		    "%u samples%s%s\n",
		    l->opps_done, l->opps_total, eta_s / 60, eta_s % 60, di->name, freq_khz,
		    again ? " again (out of order)" : "", r->power_uw / 1000,
		    r->power_uw > 0 ? 100 * r->power_ci_uw / r->power_uw : 0, r->rate,
		    l->res->topo.perf_src == PROF_PERF_INSTRUCTIONS ? "instr" : "it", cyc, split,
		    r->samples, r->converged ? "" : " (time cap)",
		    r->not_applied ? " NOT APPLIED" : "");
	}
	fflush(o->progress);
}

/*
 * The CI of the power difference comes from the spread of the per-round differences, not from
 * the samples: rounds are the independent unit, while samples inside a window share drift,
 * meter filtering and heavy-tailed bursts that a per-sample CI would hide.
 */
static double round_diff_ci(const struct loop *l, double med_a, double med_i, double sigma,
			    double reject)
{
	double d[MAX_ROUNDS], mean = 0, sq = 0;
	u32 n = 0;

	for (u32 r = 0; r < l->rounds; r++) {
		double a = prof_trimmed_mean_range(&l->active, l->a_start[r], l->a_start[r + 1],
						   med_a, sigma, reject);
		double i = prof_trimmed_mean_range(&l->idle, l->i_start[r], l->i_start[r + 1],
						   med_i, sigma, reject);

		if (isnan(a) || isnan(i))
			continue;
		d[n] = a - i;
		mean += d[n++];
	}
	if (n < 2)
		return INFINITY;
	mean /= n;
	for (u32 r = 0; r < n; r++)
		sq += (d[r] - mean) * (d[r] - mean);
	return prof_t95(n) * sqrt(sq / (n - 1)) / sqrt((double)n);
}

/* Active and idle power, trimmed with one sigma (the larger) so that the difference stays
 * unbiased when the spikes are real; returns the CI of the difference. */
static double power_stats(struct loop *l, struct prof_stat *sa, struct prof_stat *si)
{
	double reject = l->from_energy ? PROF_REJECT_SIGMAS_ENERGY : PROF_REJECT_SIGMAS;
	double med_a, sig_a, med_i, sig_i, sigma;

	prof_robust_sigma(&l->active, SIGMA_FLOOR_REL, l->lsb_uw, l->scratch, &med_a, &sig_a);
	prof_robust_sigma(&l->idle, SIGMA_FLOOR_REL, l->lsb_uw, l->scratch, &med_i, &sig_i);
	sigma = sig_a > sig_i ? sig_a : sig_i;
	prof_trimmed_stat(&l->active, med_a, sigma, reject, sa);
	prof_trimmed_stat(&l->idle, med_i, sigma, reject, si);
	return round_diff_ci(l, med_a, med_i, sigma, reject);
}

/* One series of rounds at the current OPP with the load on cpus, until the power difference
 * (and, with want_rate, the load's rate) is within the target, or the time cap. */
struct phase {
	double power_uw, power_ci_uw, active_uw, idle_uw, rate, rate_ci, eff_khz;
	u32 samples, rejected;
	bool converged;
};

static int measure_phase(struct loop *l, const struct em_cpumask *cpus, bool want_rate,
			 struct phase *ph, struct gb_err *err)
{
	const struct prof_platform *pf = l->pf;
	double target = l->o->target_pct / 100, eff_sum = 0;
	struct prof_stat sa, si, sr = {0};
	u32 eff_n = 0, rounds = 0;
	u64 t0 = pf->now_ns(pf->ctx);
	int ret;

	memset(ph, 0, sizeof(*ph));
	prof_samples_clear(&l->active);
	prof_samples_clear(&l->idle);
	prof_samples_clear(&l->rate);
	l->rounds = 0;
	for (;;) {
		double rate, eff;

		l->a_start[l->rounds] = l->active.n;
		l->i_start[l->rounds] = l->idle.n;
		/* ABBA order: a linear drift (the SoC warming up) hits both sides alike */
		if (rounds % 2) {
			ret = one_window(l, NULL, &l->idle, NULL, NULL, err);
			if (ret < 0)
				return ret;
		}
		ret = one_window(l, cpus, &l->active, &rate, &eff, err);
		if (ret < 0)
			return ret;
		if (prof_samples_push(&l->rate, rate) < 0)
			return gb_err_set(err, ENOMEM, "out of memory");
		if (eff > 0) {
			eff_sum += eff;
			eff_n++;
		}
		if (rounds % 2 == 0) {
			ret = one_window(l, NULL, &l->idle, NULL, NULL, err);
			if (ret < 0)
				return ret;
		}
		rounds++;
		l->rounds = rounds;
		l->a_start[rounds] = l->active.n;
		l->i_start[rounds] = l->idle.n;
		if (ensure_scratch(l, l->active.n > l->idle.n ? l->active.n : l->idle.n) < 0)
			return gb_err_set(err, ENOMEM, "out of memory");
		ph->power_ci_uw = power_stats(l, &sa, &si);
		prof_robust_stat(&l->rate, PROF_REJECT_SIGMAS, 0.0005, 0, l->scratch, &sr);
		ph->power_uw = sa.mean - si.mean;
		ph->rate = sr.mean;
		ph->rate_ci = sr.ci95;
		if (rounds >= MIN_ROUNDS && rounds % 2 == 0 && ph->power_uw > 0 &&
		    ph->power_ci_uw <= target * ph->power_uw &&
		    (!want_rate || ph->rate_ci <= target * ph->rate)) {
			ph->converged = true;
			break;
		}
		if ((pf->now_ns(pf->ctx) - t0 >= l->o->opp_cap_ns &&
		     (!l->slow_meter || rounds >= l->o->min_cap_rounds)) ||
		    rounds >= MAX_ROUNDS)
			break;
		ret = thermal_guard(l, err);
		if (ret < 0)
			return ret;
	}
	ph->active_uw = sa.mean;
	ph->idle_uw = si.mean;
	ph->samples = (u32)(sa.n + si.n);
	ph->rejected = (u32)(sa.rejected + si.rejected);
	ph->eff_khz = eff_n ? eff_sum / eff_n : 0;
	return 0;
}

/* The first n CPUs of m. */
static u32 first_cpus(const struct em_cpumask *m, u32 n, struct em_cpumask *out)
{
	u32 got = 0;

	memset(out, 0, sizeof(*out));
	for (u32 c = 0; c < EM_MAX_CPUS && got < n; c++)
		if (em_cpumask_test(m, c)) {
			em_cpumask_set(out, c);
			got++;
		}
	return got;
}

/*
 * The static/dynamic split (Eggemann's method).  With k CPUs of the domain busy the domain
 * draws P(k) = P_static + k * P_dyn above its idle power; from P(1) and P(K):
 *
 *   P_dyn    = (P(K) - P(1)) / (K - 1)
 *   P_static = P(1) - P_dyn = (K * P(1) - P(K)) / (K - 1)
 *
 * and, the two measurements being independent, their 95% half-widths
 *
 *   ci_dyn    = sqrt(ci1^2 + ciK^2) / (K - 1)
 *   ci_static = sqrt(K^2 ci1^2 + ciK^2) / (K - 1)
 *
 * The static share is a small difference of large numbers: its interval, relative to itself,
 * is several times the target.
 */
static void split_power(struct prof_opp_result *r, const struct phase *pk, u32 k)
{
	double km1 = (double)(k - 1);

	r->has_split = true;
	r->split_cpus = k;
	r->power_k_uw = pk->power_uw;
	r->power_k_ci_uw = pk->power_ci_uw;
	r->dynamic_uw = (pk->power_uw - r->power_uw) / km1;
	r->static_uw = r->power_uw - r->dynamic_uw;
	r->dynamic_ci_uw =
	    sqrt(r->power_ci_uw * r->power_ci_uw + pk->power_ci_uw * pk->power_ci_uw) / km1;
	r->static_ci_uw =
	    sqrt(k * k * r->power_ci_uw * r->power_ci_uw + pk->power_ci_uw * pk->power_ci_uw) / km1;
}

/*
 * Did the load run at OPP k's frequency?  Its cycles per second must be within verify_tol_pct
 * of it, and closer to it than to either neighbour's: two OPPs a few percent apart (2363 and
 * 2400 MHz) are both within the tolerance of each other, and one that stayed at its
 * neighbour's clock would otherwise pass.
 */
static enum prof_cycles_check cycles_check(const struct loop *l, u32 d, u32 k)
{
	const struct prof_domain_info *di = &l->res->topo.dom[d];
	double eff = l->res->opp[d][k].eff_khz, f = di->freq_khz[k], off = fabs(eff - f);

	if (eff <= 0)
		return PROF_CYCLES_NOT_COUNTED;
	if (off > l->o->verify_tol_pct / 100 * f)
		return PROF_CYCLES_OFF;
	if ((k > 0 && fabs(eff - di->freq_khz[k - 1]) < off) ||
	    (k + 1 < di->nr_opps && fabs(eff - di->freq_khz[k + 1]) < off))
		return PROF_CYCLES_OFF;
	return PROF_CYCLES_MATCH;
}

static int measure_opp(struct loop *l, u32 d, u32 k, struct gb_err *err)
{
	const struct prof_platform *pf = l->pf;
	const struct prof_domain_info *di = &l->res->topo.dom[d];
	struct prof_opp_result *r = &l->res->opp[d][k];
	struct em_cpumask one, many;
	struct phase ph;
	u32 nk = l->o->split_cpus ? first_cpus(&di->cpus, l->o->split_cpus, &many) : 0;
	u64 t0;
	int ret;

	first_cpus(&di->cpus, 1, &one);
	r->freq_khz = di->freq_khz[k];
	r->temp_mc = INT_MIN;
	ret = thermal_guard(l, err);
	if (ret < 0)
		return ret;
	t0 = pf->now_ns(pf->ctx);
	ret = pf->set_freq(pf->ctx, d, r->freq_khz, err);
	if (ret < 0)
		return ret;
	pf->wait(pf->ctx, l->o->settle_ns);
	ret = measure_phase(l, &one, true, &ph, err);
	if (ret < 0)
		return ret;
	r->power_uw = ph.power_uw;
	r->power_ci_uw = ph.power_ci_uw;
	r->active_uw = ph.active_uw;
	r->idle_uw = ph.idle_uw;
	r->rate = ph.rate;
	r->rate_ci = ph.rate_ci;
	r->samples = ph.samples;
	r->rejected = ph.rejected;
	r->converged = ph.converged;
	r->eff_khz = ph.eff_khz;
	r->measurements++;
	r->perf_inconsistent = r->power_inconsistent = false;
	r->cycles = cycles_check(l, d, k);
	r->not_applied = r->cycles == PROF_CYCLES_OFF;
	/* a domain of one CPU has nothing to split; an OPP that did not apply is left out */
	if (nk >= 2 && !r->not_applied) {
		ret = measure_phase(l, &many, false, &ph, err);
		if (ret < 0)
			return ret;
		split_power(r, &ph, nk);
		r->samples += ph.samples;
		r->rejected += ph.rejected;
		r->converged = r->converged && ph.converged;
	}
	r->time_ns = pf->now_ns(pf->ctx) - t0;
	note_temp(l, &r->temp_mc);
	return 0;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* The domain's median iterations (or instructions) per kHz over its OPPs; 0 when n < 3. */
static double median_rate_per_khz(const struct loop *l, u32 d)
{
	const struct prof_domain_info *di = &l->res->topo.dom[d];
	double sorted[EM_MAX_OPPS];
	u32 n = di->nr_opps;

	if (n < 3)
		return 0;
	for (u32 k = 0; k < n; k++)
		sorted[k] = l->res->opp[d][k].rate / di->freq_khz[k];
	qsort(sorted, n, sizeof(double), cmp_double);
	return n % 2 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
}

/*
 * Without a cycle counter: a CPU-bound loop does a fixed amount of work per cycle, so its
 * iterations per kHz are the same at every OPP of a domain.  An OPP far from the domain's
 * median ran at some other frequency; so did one whose rate is nearer to what a neighbour's
 * frequency gives than to its own, by more than its own 95% interval (a neighbour a few percent
 * away is within the tolerance).
 */
static void verify_by_rate(struct loop *l, u32 d)
{
	const struct prof_domain_info *di = &l->res->topo.dom[d];
	double med = median_rate_per_khz(l, d);
	u32 n = di->nr_opps;

	if (med <= 0)
		return;
	for (u32 k = 0; k < n; k++)
		if (l->res->opp[d][k].eff_khz > 0)
			return; /* cycles already verified this domain */
	for (u32 k = 0; k < n; k++) {
		struct prof_opp_result *r = &l->res->opp[d][k];
		double off = fabs(r->rate - med * di->freq_khz[k]);
		bool nearer = (k > 0 && fabs(r->rate - med * di->freq_khz[k - 1]) < off) ||
			      (k + 1 < n && fabs(r->rate - med * di->freq_khz[k + 1]) < off);

		if (off > l->o->verify_tol_pct / 100 * med * di->freq_khz[k] ||
		    (nearer && off > r->rate_ci))
			r->not_applied = true;
	}
}

/* The previous OPP of d before k that applied, or -1. */
static int prev_applied(const struct prof_result *res, u32 d, u32 k)
{
	while (k-- > 0)
		if (!res->opp[d][k].not_applied)
			return (int)k;
	return -1;
}

/* Marks in redo[] both OPPs of every applied pair whose perf (rate) or power does not rise;
 * returns how many are marked. */
static u32 find_not_rising(const struct loop *l, u32 d, bool *redo)
{
	const struct prof_domain_info *di = &l->res->topo.dom[d];
	u32 n = 0;

	memset(redo, 0, sizeof(bool) * EM_MAX_OPPS);
	for (u32 k = 0; k < di->nr_opps; k++) {
		const struct prof_opp_result *r = &l->res->opp[d][k];
		int j = prev_applied(l->res, d, k);

		if (r->not_applied)
			continue;
		if (r->power_uw <= 0 && !redo[k])
			redo[k] = true, n++;
		if (j < 0 ||
		    (r->rate > l->res->opp[d][j].rate && r->power_uw > l->res->opp[d][j].power_uw))
			continue;
		n += !redo[k] + !redo[j];
		redo[k] = redo[j] = true;
	}
	return n;
}

/* After the re-measurements: the suspect OPP of each pair still out of order is marked. */
static void mark_not_rising(struct loop *l, u32 d)
{
	const struct prof_domain_info *di = &l->res->topo.dom[d];
	double med = median_rate_per_khz(l, d);

	for (u32 k = 0; k < di->nr_opps; k++) {
		struct prof_opp_result *r = &l->res->opp[d][k];
		int j = prev_applied(l->res, d, k);
		struct prof_opp_result *p = j >= 0 ? &l->res->opp[d][j] : NULL;

		if (r->not_applied || !p)
			continue;
		if (r->rate <= p->rate) {
			/* the one further from the domain's rate per kHz; the higher one when the
			 * domain is too small to have a median */
			double dk = med > 0 ? fabs(r->rate / r->freq_khz - med) : 1;
			double dj = med > 0 ? fabs(p->rate / p->freq_khz - med) : 0;

			if (dj > dk)
				p->perf_inconsistent = true;
			else
				r->perf_inconsistent = true;
		}
		if (r->power_uw <= p->power_uw)
			r->power_inconsistent = true;
	}
}

/* Rewrites the progress file (prof_opts.progress_path) with every OPP measured so far. */
static int save_progress(struct loop *l, struct gb_err *err)
{
	if (!l->o->progress_path)
		return 0;
	l->res->total_ns = l->prior_ns + l->pf->now_ns(l->pf->ctx) - l->start_ns;
	return prof_progress_save(l->o->progress_path, l->pf->name, l->res, err);
}

/* A domain's OPPs are all measured: verify them, measure again (bounded) the OPPs of pairs that
 * do not rise, and mark what is still out of order. */
static int settle_domain(struct loop *l, u32 d, struct gb_err *err)
{
	const struct prof_domain_info *di = &l->res->topo.dom[d];
	bool redo[EM_MAX_OPPS];
	int ret;

	for (u32 round = 0;; round++) {
		verify_by_rate(l, d);
		if (!find_not_rising(l, d, redo) || round == PROF_REMEASURE)
			break;
		for (u32 k = 0; k < di->nr_opps; k++) {
			if (!redo[k])
				continue;
			ret = measure_opp(l, d, k, err);
			if (ret < 0) {
				gb_err_prefix(err, "%s, %u kHz", di->name, di->freq_khz[k]);
				return ret;
			}
			progress(l, di, di->freq_khz[k], &l->res->opp[d][k], true);
			ret = save_progress(l, err);
			if (ret < 0)
				return ret;
		}
		/* the rate check starts afresh on the new measurements */
		for (u32 k = 0; k < di->nr_opps; k++)
			l->res->opp[d][k].not_applied = l->res->opp[d][k].cycles == PROF_CYCLES_OFF;
	}
	mark_not_rising(l, d);
	return 0;
}

const char *prof_perf_src_name(enum prof_perf_src src)
{
	return src == PROF_PERF_INSTRUCTIONS ? "instructions" : "iterations";
}

int prof_measure(const struct prof_platform *pf, const struct prof_topology *topo,
		 const struct prof_opts *o, struct prof_result *res, struct gb_err *err)
{
	struct loop l = {.pf = pf, .o = o, .res = res};
	int ret = 0;

	memset(res, 0, sizeof(*res));
	res->topo = *topo;
	res->temp_min_mc = res->temp_max_mc = INT_MIN;
	res->split_cpus = o->split_cpus;
	if (topo->nr_domains == 0)
		return gb_err_set(err, ENODEV, "no perf domain to profile");
	for (u32 d = 0; d < topo->nr_domains; d++)
		l.opps_total += topo->dom[d].nr_opps;
	l.w = malloc(sizeof(*l.w));
	if (!l.w)
		return gb_err_set(err, ENOMEM, "out of memory");
	if (o->resume) {
		ret = prof_progress_load(o->progress_path, pf->name, res, err);
		if (ret < 0) {
			free(l.w);
			return ret;
		}
		l.prior_ns = res->total_ns;
		for (u32 d = 0; d < topo->nr_domains; d++)
			for (u32 k = 0; k < topo->dom[d].nr_opps; k++)
				l.opps_done += res->opp[d][k].measurements > 0;
		if (o->progress && !o->quiet)
			fprintf(o->progress,
				"profile: resuming %s: %u of %u OPPs measured before\n",
				o->progress_path, l.opps_done, l.opps_total);
	}
	l.start_ns = pf->now_ns(pf->ctx);
	note_temp(&l, NULL);
	for (u32 d = 0; d < topo->nr_domains && ret == 0; d++) {
		for (u32 k = 0; k < topo->dom[d].nr_opps; k++) {
			if (res->opp[d][k].measurements)
				continue; /* measured before the resume */
			ret = measure_opp(&l, d, k, err);
			if (ret == 0)
				ret = save_progress(&l, err);
			if (ret < 0) {
				gb_err_prefix(err, "%s, %u kHz", topo->dom[d].name,
					      topo->dom[d].freq_khz[k]);
				break;
			}
			l.opps_done++;
			l.opps_measured++;
			progress(&l, &topo->dom[d], topo->dom[d].freq_khz[k], &res->opp[d][k],
				 false);
		}
		if (ret == 0)
			ret = settle_domain(&l, d, err);
	}
	if (ret == 0) {
		ret = pf->set_load(pf->ctx, NULL, err);
	} else {
		struct gb_err ignored;

		pf->set_load(pf->ctx, NULL, &ignored); /* the first error is the one to report */
	}
	res->total_ns = l.prior_ns + pf->now_ns(pf->ctx) - l.start_ns;
	for (u32 d = 0; d < topo->nr_domains; d++)
		for (u32 k = 0; k < topo->dom[d].nr_opps; k++) {
			res->nr_not_applied += res->opp[d][k].not_applied;
			res->nr_inconsistent +=
			    res->opp[d][k].perf_inconsistent || res->opp[d][k].power_inconsistent;
		}
	prof_samples_free(&l.active);
	prof_samples_free(&l.idle);
	prof_samples_free(&l.rate);
	free(l.scratch);
	free(l.w);
	return ret;
}
