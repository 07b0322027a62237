// SPDX-License-Identifier: GPL-2.0-only
/*
 * fuzz_meter.c - libFuzzer target for an external meter's line (prof_meter_sample_uw): the
 * input, cut at its first NUL, is one line; a sample must be a finite power of 0 to 4e9 uW.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "meter_sample.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char line[256];
	size_t n = size < sizeof(line) - 1 ? size : sizeof(line) - 1;
	double uw;

	memcpy(line, data, n);
	line[n] = 0;
	if (prof_meter_sample_uw(line, &uw) && (!isfinite(uw) || uw < 0 || uw > 4e9))
		abort();
	return 0;
}
