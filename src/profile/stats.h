/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * stats.h - robust sample statistics for the measurement loop.
 *
 * Meters spike (a 415 mW sample among ~30 mW ones in the freqbench raw data), so the mean is
 * taken over the samples within PROF_REJECT_SIGMAS robust sigmas of the median, with
 * sigma = 1.4826 * MAD (the MAD of a normal distribution times 1.4826 is its sigma).  Quantized
 * counters can make the MAD zero; sigma is therefore floored at floor_rel * |median| and at
 * floor_abs (one quantum) so that a reading one quantum away is never thrown out.
 */
#ifndef GEARBOX_PROF_STATS_H
#define GEARBOX_PROF_STATS_H

#include <stddef.h>

/* A growable sample buffer. */
struct prof_samples {
	double *v;
	size_t n, cap;
};

struct prof_stat {
	double mean;
	double sd;
	double ci95; /* half-width of the 95% confidence interval of the mean */
	double median;
	size_t n; /* samples kept */
	size_t rejected;
};

int prof_samples_push(struct prof_samples *s, double x);
void prof_samples_clear(struct prof_samples *s);
void prof_samples_free(struct prof_samples *s);

/* prof_robust_sigma - the median and the robust sigma (floored) of the samples.
 * scratch must hold s->n doubles. */
void prof_robust_sigma(const struct prof_samples *s, double floor_rel, double floor_abs,
		       double *scratch, double *median, double *sigma);

/* prof_trimmed_stat - mean, sd and CI of the samples within reject_sigmas * sigma of median.
 * Two sample sets whose difference matters (active and idle power) are trimmed with the same
 * sigma: real spikes (background work counted by an energy counter) are then cut the same way
 * on both sides and cancel in the difference. */
void prof_trimmed_stat(const struct prof_samples *s, double median, double sigma,
		       double reject_sigmas, struct prof_stat *out);

/* prof_trimmed_mean_range - the trimmed mean of samples [from, to); NAN when none is kept. */
double prof_trimmed_mean_range(const struct prof_samples *s, size_t from, size_t to, double median,
			       double sigma, double reject_sigmas);

/* prof_t95 - the two-sided 95% quantile of Student's t for a mean of n values. */
double prof_t95(size_t n);

/* prof_robust_stat - both of the above with the set's own sigma. */
void prof_robust_stat(const struct prof_samples *s, double reject_sigmas, double floor_rel,
		      double floor_abs, double *scratch, struct prof_stat *out);

#endif
