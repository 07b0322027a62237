// SPDX-License-Identifier: GPL-2.0-only
/*
 * meter_sample.c - one line of an external meter's output as a power sample (meter_sample.h).
 */
#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "meter_sample.h"

#define METER_MAX_UW 4e9 /* 4 kW: a sample is kept as a u32 of microwatts */

bool prof_meter_sample_uw(const char *line, double *uw)
{
	const char *s = line;
	char *end;
	double v;

	while (*s && !isdigit((unsigned char)*s) && *s != '.' && *s != '-')
		s++;
	v = strtod(s, &end);
	if (end == s)
		return false;
	while (*end == ' ' || *end == '\t')
		end++;
	if (!strncmp(end, "mW", 2))
		v *= 1e3;
	else if (*end == 'W')
		v *= 1e6;
	if (!isfinite(v) || v < 0 || v > METER_MAX_UW)
		return false;
	*uw = v;
	return true;
}
