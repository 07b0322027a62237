/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * em_export.h - showing, comparing and exporting energy models.
 *
 *   em_show          a table per domain: kHz, mW, perf, cost, inefficient mark; then its
 *                    transition latency and idle states (per CPU and cluster: name, power,
 *                    entry and exit latency, residency)
 *   em_diff          per-OPP power and performance differences of B against A, in %; per
 *                    domain, the idle states and transition latency where they differ
 *   em_export_dt     a device-tree snippet: operating-points-v2 tables with opp-microwatt,
 *                    and capacity-dmips-mhz chosen so that the kernel's
 *                    topology_normalize_cpu_scale() gives back the model's capacities
 *   em_export_debugfs_text / _tree   what /sys/kernel/debug/energy_model would hold (v6.9+ layout)
 */
#ifndef GEARBOX_EM_EXPORT_H
#define GEARBOX_EM_EXPORT_H

#include <stdio.h>

#include "em_profile.h"

void em_show(const struct em_profile *prof, FILE *out);

struct em_diff_summary {
	unsigned matched_opps;	 /* OPPs present in both, matched by domain CPUs and frequency */
	unsigned unmatched_opps; /* present in only one of the two */
	unsigned unmatched_domains;
	double max_power_pct; /* largest |power B / power A - 1| x 100 */
	double max_perf_pct;
	unsigned inefficiency_mismatches;
	unsigned
	    idle_mismatches; /* matched domains whose idle states or transition latency differ */
};

/* Writes the comparison (when out is not NULL) and fills sum. */
void em_diff(const struct em_profile *a, const struct em_profile *b, FILE *out,
	     struct em_diff_summary *sum);

void em_export_dt(const struct em_profile *prof, FILE *out);
void em_export_debugfs_text(const struct em_profile *prof, FILE *out);
int em_export_debugfs_tree(const struct em_profile *prof, const char *dir, struct gb_err *err);

#endif
