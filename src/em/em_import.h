/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * em_import.h - energy models from other people's formats.
 *
 * freqbench (github.com/kdrag0n/freqbench results JSON): per cluster and frequency, CoreMark
 * score and power while one CPU runs it, and the cluster's idle power at that frequency.
 *   perf     = coremark_score / max score over the SoC * 1024
 *   power_uw = robust mean of the active samples - the cluster's idle power
 * (both baseline-relative; where the file has a housekeeping baseline, the idle readings are
 * whole-device and the baseline is taken off them first).  The cluster's idle power is the
 * median of its per-OPP idle readings: each is one noisy 5 s mean, and a clock-gated cluster's
 * idle power hardly depends on the OPP.  Real data is not monotone; the
 * importer fits a monotone model by isotonic regression and keeps the raw means beside it.
 *
 * debugfs (/sys/kernel/debug/energy_model): the kernel's own EM in the three layouts it has had:
 *   v5.0-5.10   pdN/{cpus}, cs:<kHz>/{frequency,power,cost}            power in mW
 *   v5.11-6.8   <dev>/{cpus,units|flags}, ps:<kHz>/{frequency,power,cost[,inefficient]}
 *               power in mW ("units" says milliWatts) or uW (flags bit 0, MICROWATTS)
 *   v6.9+       <dev>/{cpus,flags[,id]}, ps:<kHz>/{...,performance}     power in uW
 * Before v6.9 there is no performance file: performance is derived as the kernel does
 * (em_init_performance: cpu_capacity * freq / fmax) from cpuN/cpu_capacity in cpu_sysfs.
 *
 * device tree (a .dtb read with libfdt, or a .dts compiled by dtc): the model the kernel would
 * build from the same tree.  Logical CPUs are the CPU nodes of /cpus in tree order; a perf
 * domain is the CPUs sharing an operating-points-v2 table marked opp-shared, or, without
 * opp-shared, sharing the table and a cluster of /cpus/cpu-map.  Per OPP opp-hz, opp-microvolt
 * (the target of a triplet) and opp-microwatt; without opp-microwatt on every OPP, power is
 * estimated from the CPU's dynamic-power-coefficient as the kernel does (drivers/opp/of.c):
 *   power_uw = DPC * mV^2 * MHz / 10^6
 * and the provenance says so.  Performance: capacity from capacity-dmips-mhz * fmax[MHz]
 * normalised to 1024 (topology_normalize_cpu_scale), then capacity * f / fmax per OPP.
 */
#ifndef GEARBOX_EM_IMPORT_H
#define GEARBOX_EM_IMPORT_H

#include "em_profile.h"

/* domains: one CPU list per domain, domains separated by commas ("0-3,4-6,7") or by ':'
 * when a domain itself needs commas ("0-1,4:2-3"). names: comma-separated, or NULL for
 * little/mid/big-style defaults. */
int em_import_freqbench(const char *path, const char *domains, const char *names,
			struct em_profile *prof, struct em_warnings *warn, struct gb_err *err);

/* The same from memory; name is used in messages. */
int em_import_freqbench_string(const char *text, size_t len, const char *name, const char *domains,
			       const char *names, struct em_profile *prof, struct em_warnings *warn,
			       struct gb_err *err);

/* cpu_sysfs: directory with cpuN/cpu_capacity, needed only for pre-6.9 layouts (may be NULL). */
int em_import_debugfs(const char *dir, const char *cpu_sysfs, struct em_profile *prof,
		      struct em_warnings *warn, struct gb_err *err);

/* path: a .dtb, or a .dts (anything without the FDT magic number) compiled with dtc. */
int em_import_dt(const char *path, struct em_profile *prof, struct em_warnings *warn,
		 struct gb_err *err);

/* Default names for n domains: little/big, little/mid/big, else pd0..pdN. */
void em_default_domain_name(unsigned n, unsigned i, char *buf, unsigned len);

#endif
