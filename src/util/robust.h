/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * robust.h - statistics that survive meter spikes.
 *
 * Power meters on phones and boards produce occasional spikes (a 415 mW sample among ~30 mW
 * ones in the freqbench data).  A plain mean follows them; we reject samples further than
 * ROBUST_K scaled median absolute deviations from the median (MAD x 1.4826 estimates the
 * standard deviation of normal data), then report the mean, standard deviation and the 95%
 * confidence half-width of the mean of what is left.
 */
#ifndef GEARBOX_ROBUST_H
#define GEARBOX_ROBUST_H

#include <stddef.h>

#define ROBUST_K 4.0

struct robust_stats {
	double mean; /* of the kept samples */
	double sd;   /* sample standard deviation of the kept samples */
	double ci95; /* 1.96 * sd / sqrt(kept): half-width of the mean's 95% interval */
	double median;
	size_t kept;
	size_t rejected;
};

/* robust_summary - statistics of x[0..n) (n >= 1); x is not modified. Returns 0 or -ENOMEM. */
int robust_summary(const double *x, size_t n, struct robust_stats *out);

/* isotonic_fit - the non-decreasing sequence closest to y in least squares (pool adjacent
 * violators), written to fit[0..n); w may be NULL for equal weights. */
void isotonic_fit(const double *y, const double *w, size_t n, double *fit);

#endif
