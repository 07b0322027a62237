/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * meter_sample.h - one line of an external meter's output (`gearbox profile --meter-cmd`,
 * `--meter-file`) as a power sample.
 */
#ifndef GEARBOX_METER_SAMPLE_H
#define GEARBOX_METER_SAMPLE_H

#include <stdbool.h>

/*
 * prof_meter_sample_uw - the power a meter's line gives, in microwatts, into *uw.  The line's
 * first number (text before it is skipped: "power: 512.3 mW"), followed by an optional unit:
 * "mW", "W", or none for microwatts.  No sample (false) for a line without a number, a negative
 * or non-finite value ("-nan", "1e999 W"), or more than 4e9 uW: what a meter prints that is not
 * a power it measured.
 */
bool prof_meter_sample_uw(const char *line, double *uw);

#endif /* GEARBOX_METER_SAMPLE_H */
