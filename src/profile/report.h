/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * report.h - `gearbox profile --report DIR`: an SVG of power against performance per domain
 * (inefficient OPPs marked, reference model dashed) and a text comparison with the reference
 * (the kernel's EM from netlink or debugfs, the simulator's ground truth, or --reference FILE).
 */
#ifndef GEARBOX_PROF_REPORT_H
#define GEARBOX_PROF_REPORT_H

#include "profile.h"

/* ref may be NULL; ref_name says what it is ("the kernel's EM (debugfs)", "ground truth"), or
 * with ref NULL why there is none (a line of the comparison). */
int prof_report_write(const char *dir, const struct em_profile *prof,
		      const struct em_profile *ref, const char *ref_name,
		      const struct prof_result *res, struct gb_err *err);

#endif
