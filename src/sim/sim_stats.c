// SPDX-License-Identifier: GPL-2.0-only
/*
 * sim_stats.c - the mean and 95% confidence interval of a figure over the seeds of
 * `gearbox sim --seeds N` (Student's t with N - 1 degrees of freedom: the seeds' start-time
 * jitter gives N independent runs of the same workload, and N is small).
 */
#include <math.h>

#include "sim.h"

/* t(0.975, df) for df = 1..30 (two-sided 95%) */
static const double t975[30] = {
    12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
    2.201,  2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086,
    2.080,  2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042,
};

double sim_t975(u32 df)
{
	const double z = 1.959964;
	double d = df;

	if (df == 0)
		return NAN;
	if (df <= 30)
		return t975[df - 1];
	/* Cornish-Fisher expansion of t around the normal quantile (error < 1e-4 from df 30) */
	return z + (z * z * z + z) / (4 * d) +
	       (5 * pow(z, 5) + 16 * z * z * z + 3 * z) / (96 * d * d);
}

struct sim_interval sim_interval_of(const double *x, u32 n)
{
	struct sim_interval iv = {NAN, NAN, NAN};
	double sum = 0, ss = 0, hw;

	if (!n)
		return iv;
	for (u32 i = 0; i < n; i++)
		sum += x[i];
	iv.mean = sum / n;
	if (n < 2)
		return iv;
	for (u32 i = 0; i < n; i++)
		ss += (x[i] - iv.mean) * (x[i] - iv.mean);
	hw = sim_t975(n - 1) * sqrt(ss / (n - 1)) / sqrt((double)n);
	iv.lo = iv.mean - hw;
	iv.hi = iv.mean + hw;
	return iv;
}
