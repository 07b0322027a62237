// SPDX-License-Identifier: GPL-2.0-only
#include "robust.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static double median_sorted(const double *s, size_t n)
{
	return n % 2 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
}

int robust_summary(const double *x, size_t n, struct robust_stats *out)
{
	double *s, mad, lim, sum = 0, ss = 0;
	size_t kept = 0;

	memset(out, 0, sizeof(*out));
	if (n == 0)
		return -EINVAL;
	s = malloc(n * sizeof(*s));
	if (!s)
		return -ENOMEM;
	memcpy(s, x, n * sizeof(*s));
	qsort(s, n, sizeof(*s), cmp_double);
	out->median = median_sorted(s, n);
	for (size_t i = 0; i < n; i++)
		s[i] = fabs(x[i] - out->median);
	qsort(s, n, sizeof(*s), cmp_double);
	mad = median_sorted(s, n) * 1.4826;
	free(s);
	/* With MAD 0 (quantized meters), keep exactly the samples at the median and a hair around.
	 */
	lim = mad > 0 ? ROBUST_K * mad : 1e-9 * fabs(out->median) + 1e-12;
	for (size_t i = 0; i < n; i++) {
		if (fabs(x[i] - out->median) > lim)
			continue;
		sum += x[i];
		kept++;
	}
	out->kept = kept;
	out->rejected = n - kept;
	out->mean = sum / (double)kept;
	for (size_t i = 0; i < n; i++)
		if (fabs(x[i] - out->median) <= lim)
			ss += (x[i] - out->mean) * (x[i] - out->mean);
	out->sd = kept > 1 ? sqrt(ss / (double)(kept - 1)) : 0;
	out->ci95 = kept > 1 ? 1.96 * out->sd / sqrt((double)kept) : 0;
	return 0;
}

void isotonic_fit(const double *y, const double *w, size_t n, double *fit)
{
	/* blocks of pooled values: value, weight, length; a stack of at most n blocks */
	double *val = malloc(n * sizeof(double)), *wt = malloc(n * sizeof(double));
	size_t *len = malloc(n * sizeof(size_t)), top = 0;

	if (!val || !wt || !len) {
		/* out of memory: fall back to the input, which the caller validates anyway */
		memcpy(fit, y, n * sizeof(double));
		free(val);
		free(wt);
		free(len);
		return;
	}
	for (size_t i = 0; i < n; i++) {
		val[top] = y[i];
		wt[top] = w ? w[i] : 1.0;
		len[top] = 1;
		top++;
		while (top > 1 && val[top - 2] > val[top - 1]) {
			double W = wt[top - 2] + wt[top - 1];

			val[top - 2] =
			    (val[top - 2] * wt[top - 2] + val[top - 1] * wt[top - 1]) / W;
			wt[top - 2] = W;
			len[top - 2] += len[top - 1];
			top--;
		}
	}
	for (size_t b = 0, i = 0; b < top; b++)
		for (size_t k = 0; k < len[b]; k++)
			fit[i++] = val[b];
	free(val);
	free(wt);
	free(len);
}
