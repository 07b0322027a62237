/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * report.h - `gearbox profile --report DIR`: an SVG of power against performance per domain
 * (inefficient OPPs marked, reference model dashed) and a text comparison with the reference
 * (the kernel's EM from netlink or debugfs, the simulator's ground truth, or --reference FILE).
 */
#ifndef GEARBOX_PROF_REPORT_H
#define GEARBOX_PROF_REPORT_H

#include "outfile.h"
#include "profile.h"

/* The two files of a report, written and finished but not yet in place (outfile.h), so that
 * the caller can put the model and the report in place together, or neither. */
struct prof_report_out {
	struct gb_out svg, txt;
	char made_dir[4096]; /* DIR when this report created it: removed again on abort */
};

/* prof_report_write - writes DIR/power-perf.svg and DIR/comparison.txt to their temporary
 * files (DIR is created if missing).  ref may be NULL; ref_name says what it is ("the
 * kernel's EM (debugfs)", "ground truth"), or with ref NULL why there is none (a line of the
 * comparison).  On error nothing is left behind.  out must stay where it is until this
 * returns (the open streams point at it). */
int prof_report_write(const char *dir, const struct em_profile *prof, const struct em_profile *ref,
		      const char *ref_name, const struct prof_result *res,
		      struct prof_report_out *out, struct gb_err *err);

/* prof_report_check - what prof_report_write would refuse, found before the measurement
 * (outfile.h: gb_out_check): DIR not a directory, a file in it that cannot be replaced. */
int prof_report_check(const char *dir, struct gb_err *err);

/* prof_report_commit - renames both files into place; on error aborts. */
int prof_report_commit(struct prof_report_out *out, struct gb_err *err);

/* prof_report_abort - removes the temporary files and a DIR this report created. */
void prof_report_abort(struct prof_report_out *out);

#endif
