// SPDX-License-Identifier: GPL-2.0-only
#include "stats.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

int prof_samples_push(struct prof_samples *s, double x)
{
	if (s->n == s->cap) {
		size_t cap = s->cap ? s->cap * 2 : 1024;
		double *v = realloc(s->v, cap * sizeof(*v));

		if (!v)
			return -ENOMEM;
		s->v = v;
		s->cap = cap;
	}
	s->v[s->n++] = x;
	return 0;
}

void prof_samples_clear(struct prof_samples *s)
{
	s->n = 0;
}

void prof_samples_free(struct prof_samples *s)
{
	free(s->v);
	memset(s, 0, sizeof(*s));
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static double sorted_median(const double *v, size_t n)
{
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/*
 * 1.96 is the normal quantile; with the few samples of the perf windows (one per window) the
 * Student t quantile is larger, so small n is widened to stay honest.
 */
double prof_t95(size_t n)
{
	static const double t[] = {0,	 0,    12.71, 4.30, 3.18, 2.78, 2.57,
				   2.45, 2.36, 2.31,  2.26, 2.23, 2.20, 2.18,
				   2.16, 2.14, 2.13,  2.12, 2.11, 2.10, 2.09};

	if (n < sizeof(t) / sizeof(t[0]))
		return t[n];
	return n < 60 ? 2.0 + 1.5 / (double)n : 1.96;
}

void prof_robust_sigma(const struct prof_samples *s, double floor_rel, double floor_abs,
		       double *scratch, double *median, double *sigma_out)
{
	double med, mad, sigma;
	size_t i, n = s->n;

	*median = *sigma_out = 0;
	if (n == 0)
		return;
	memcpy(scratch, s->v, n * sizeof(double));
	qsort(scratch, n, sizeof(double), cmp_double);
	med = sorted_median(scratch, n);
	for (i = 0; i < n; i++)
		scratch[i] = fabs(s->v[i] - med);
	qsort(scratch, n, sizeof(double), cmp_double);
	mad = sorted_median(scratch, n);
	sigma = 1.4826 * mad;
	if (sigma < floor_rel * fabs(med))
		sigma = floor_rel * fabs(med);
	if (sigma < floor_abs)
		sigma = floor_abs;
	*median = med;
	*sigma_out = sigma;
}

void prof_trimmed_stat(const struct prof_samples *s, double med, double sigma, double reject_sigmas,
		       struct prof_stat *out)
{
	double sum = 0, sq = 0;
	size_t i, n = s->n, kept = 0;

	memset(out, 0, sizeof(*out));
	if (n == 0)
		return;
	for (i = 0; i < n; i++) {
		double x = s->v[i];

		if (sigma > 0 && fabs(x - med) > reject_sigmas * sigma)
			continue;
		sum += x;
		kept++;
	}
	out->median = med;
	out->n = kept;
	out->rejected = n - kept;
	out->mean = kept ? sum / (double)kept : 0;
	for (i = 0; i < n; i++) {
		double x = s->v[i];

		if (sigma > 0 && fabs(x - med) > reject_sigmas * sigma)
			continue;
		sq += (x - out->mean) * (x - out->mean);
	}
	out->sd = kept > 1 ? sqrt(sq / (double)(kept - 1)) : 0;
	out->ci95 = kept > 1 ? prof_t95(kept) * out->sd / sqrt((double)kept) : INFINITY;
}

void prof_robust_stat(const struct prof_samples *s, double reject_sigmas, double floor_rel,
		      double floor_abs, double *scratch, struct prof_stat *out)
{
	double med, sigma;

	prof_robust_sigma(s, floor_rel, floor_abs, scratch, &med, &sigma);
	prof_trimmed_stat(s, med, sigma, reject_sigmas, out);
}

double prof_trimmed_mean_range(const struct prof_samples *s, size_t from, size_t to, double median,
			       double sigma, double reject_sigmas)
{
	double sum = 0;
	size_t kept = 0;

	for (size_t i = from; i < to && i < s->n; i++) {
		if (sigma > 0 && fabs(s->v[i] - median) > reject_sigmas * sigma)
			continue;
		sum += s->v[i];
		kept++;
	}
	return kept ? sum / (double)kept : NAN;
}
