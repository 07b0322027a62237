/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * profile.h - the profiler: one measurement loop over a platform interface.
 *
 * How a profile is measured.  For every perf domain and every OPP, ascending:
 *
 *   1. request the OPP, wait settle_ms for the clock and the rails to follow;
 *   2. thermal guard: when the hottest sensor is above max_temp_mc, stop the load and wait
 *      (bounded) for it to cool, so that leakage does not creep into the numbers;
 *   3. alternate rounds of an *active* window (a calibrated CPU-bound load pinned to the
 *      domain's first CPU) and an *idle* window (same OPP, no load); with split_cpus, a second
 *      series with the load on that many CPUs of the domain gives the static/dynamic split.
 * Interleaving makes slow drifts (temperature-driven leakage, battery voltage, background noise)
 * hit both sides equally, so that their difference - the power of one busy CPU at this OPP, the
 * kernel's em_perf_state.power - stays unbiased;
 *   4. after each round, reject outlier samples (further than PROF_REJECT_SIGMAS robust sigmas
 *      from the median, sigma = 1.4826 * MAD) and compute the 95% confidence half-width of
 *      each mean; stop when both the power difference and the load's rate are within
 *      target_pct of their means, or at the per-OPP time cap;
 *   5. verify that the OPP really applied: cycles per second of the load (when the platform
 *      counts cycles) must match the requested frequency; otherwise the load's iterations per
 *      kHz must match the domain's median (a CPU-bound loop has constant work per cycle).
 *      An OPP that fails is reported and left out of the model.  Neighbouring OPPs within a
 *      few percent of each other are told apart: an OPP whose cycles (or rate) are closer to
 *      a neighbour's frequency than to its own ran at the neighbour's;
 *   6. consistency: along a domain, perf and power must rise with frequency.  The OPPs of a
 *      pair that does not are measured again, at most PROF_REMEASURE times; a pair still out
 *      of order is kept, the suspect OPP marked (perf: the one further from the domain's rate
 *      per kHz; power: the higher OPP) and written with a value fitted between its neighbours
 *      (the measured means in the model's "raw", docs/em-profile.md).
 *
 * Performance is the load's rate (instructions per second where the platform counts them,
 * else its iterations per second: topo.perf_src) normalised so that the fastest OPP of the
 * SoC is 1024.
 *
 * Platforms (the only part that differs between a board and the simulator) provide
 * struct prof_platform: a table of operations.  Function pointers are fine here: this is user
 * space, not the BPF-safe policy.
 */
#ifndef GEARBOX_PROFILE_H
#define GEARBOX_PROFILE_H

#include <signal.h>
#include <stdbool.h>
#include <stdio.h>

#include "em_profile.h"
#include "gb_err.h"

#define PROF_REJECT_SIGMAS 5.0
/* Energy-counter samples integrate real energy (background work included): trimming them
 * biases the mean, so only gross errors are cut. */
#define PROF_REJECT_SIGMAS_ENERGY 20.0
#define PROF_MAX_WINDOW_SAMPLES	  4096
/* Extra measurements of an OPP whose perf or power does not rise over its neighbour's. */
#define PROF_REMEASURE 2

struct prof_domain_info {
	char name[EM_NAME_LEN];
	struct em_cpumask cpus;
	u32 nr_opps;
	u32 freq_khz[EM_MAX_OPPS]; /* ascending */
};

/*
 * What "performance" is counted in.  Hardware instructions per second of the load (libperf)
 * where the PMU counts them; else the load's own iteration count, which for a fixed loop is
 * proportional to them.  One source for the whole profile: perf is normalised across domains.
 */
enum prof_perf_src {
	PROF_PERF_ITERATIONS,
	PROF_PERF_INSTRUCTIONS,
};

/* The em-profile provenance name of a source: "iterations" or "instructions". */
const char *prof_perf_src_name(enum prof_perf_src src);

struct prof_topology {
	char soc[64];
	char device[128];
	char power_source[128]; /* e.g. "hwmon ina231 power1", for provenance */
	enum prof_perf_src perf_src;
	char perf_why[160]; /* how the source was chosen, for the report */
	u32 nr_domains;
	struct prof_domain_info dom[EM_MAX_DOMAINS];
};

/* What one measurement window saw. */
struct prof_window {
	u64 duration_ns;
	u64 work;	   /* iterations of the load during the window */
	u64 cycles;	   /* CPU cycles of the load; 0 when not counted */
	u64 instructions;  /* instructions of the load; 0 when not counted */
	u64 task_clock_ns; /* time the load ran; 0 when not counted */
	u32 power_lsb_uw;  /* resolution of one sample (counter LSB / interval) */
	bool from_energy;  /* samples are energy-counter deltas: outliers are real */
	u32 nr_power;
	u32 power_uw[PROF_MAX_WINDOW_SAMPLES]; /* meter samples, or energy-counter deltas / dt */
};

struct prof_platform {
	void *ctx;
	const char *name; /* "sim", "linux" */
	int (*set_freq)(void *ctx, u32 dom, u32 freq_khz, struct gb_err *err);
	/* Starts the load on every CPU of cpus, or stops it when cpus is NULL.  Counters and
	 * the rate in prof_window are those of the load on the lowest CPU of the mask. */
	int (*set_load)(void *ctx, const struct em_cpumask *cpus, struct gb_err *err);
	/* Measures for duration_ns; the platform decides its meter's sample interval. */
	int (*window)(void *ctx, u64 duration_ns, struct prof_window *w, struct gb_err *err);
	/* Waits (settling, cooling); the simulator advances its clock instead. */
	void (*wait)(void *ctx, u64 ns);
	u64 (*now_ns)(void *ctx);
	/* Hottest temperature in millidegrees C; -ENODATA when the platform has no sensor. */
	int (*temp_mc)(void *ctx, int *mc);
};

struct prof_opts {
	double target_pct;     /* CI half-width target, percent of the mean (default 1) */
	u64 opp_cap_ns;	       /* per-OPP time cap */
	u32 min_cap_rounds;    /* where the meter lengthens the windows, the cap ends an OPP
				* only after this many rounds (0: the cap alone) */
	u64 window_ns;	       /* one active or one idle window */
	u64 settle_ns;	       /* after an OPP change */
	u64 switch_settle_ns;  /* after starting or stopping the load */
	int max_temp_mc;       /* thermal guard; 0: off */
	u64 max_cool_ns;       /* longest cool-down wait */
	double verify_tol_pct; /* OPP verification tolerance */
	u32 split_cpus;	       /* static/dynamic split: also measure with this many CPUs
				* of each domain busy (capped at its size); 0: off */
	bool quiet;
	FILE *progress;		     /* NULL: no progress output */
	bool progress_tty;	     /* a bar with ETA instead of plain lines */
	volatile sig_atomic_t *stop; /* set by a signal handler: the loop returns -EINTR */
	const char *progress_path; /* rewritten after every OPP (prof_progress_save); NULL: none */
	bool resume;		   /* continue from progress_path: its OPPs are not measured */
};

void prof_opts_default(struct prof_opts *o);

/* Did the cycles of the load match the OPP's frequency? */
enum prof_cycles_check {
	PROF_CYCLES_NOT_COUNTED,
	PROF_CYCLES_MATCH,
	PROF_CYCLES_OFF, /* beyond verify_tol_pct: the OPP did not apply */
};

/* Outcome per OPP. */
struct prof_opp_result {
	u32 freq_khz;
	double power_uw, power_ci_uw; /* active - idle */
	double active_uw, idle_uw;
	double rate, rate_ci; /* per second, in topo.perf_src units */
	double eff_khz;	      /* from cycles; 0 when not counted */
	enum prof_cycles_check cycles;
	u32 samples, rejected;
	u64 time_ns;	  /* simulated or real time spent on this OPP */
	bool converged;	  /* reached the target before the cap */
	bool not_applied; /* the frequency did not apply: left out */
	int temp_mc;	  /* at the end of the measurement; INT_MIN: unknown */
	u32 measurements; /* 1, more when re-measured (PROF_REMEASURE) */
	/* Still not above the previous applied OPP's after the re-measurements: kept, marked,
	 * and written with a fitted value (prof_build_profile). */
	bool perf_inconsistent, power_inconsistent;
	/* static/dynamic split (prof_opts.split_cpus): P(k) = static + k * dynamic */
	bool has_split;
	u32 split_cpus;			  /* k of the second measurement */
	double power_k_uw, power_k_ci_uw; /* P(k), active - idle */
	double static_uw, static_ci_uw;
	double dynamic_uw, dynamic_ci_uw;
};

struct prof_result {
	struct prof_topology topo;
	struct prof_opp_result opp[EM_MAX_DOMAINS][EM_MAX_OPPS];
	u64 total_ns;
	int temp_min_mc, temp_max_mc; /* INT_MIN when unknown */
	u32 nr_not_applied;
	u32 nr_inconsistent; /* OPPs marked perf_ or power_inconsistent */
	u32 cool_waits;
	u32 split_cpus; /* prof_opts.split_cpus */
};

/* prof_measure - runs the loop over every domain and OPP of topo. */
int prof_measure(const struct prof_platform *pf, const struct prof_topology *topo,
		 const struct prof_opts *o, struct prof_result *res, struct gb_err *err);

/*
 * The progress file (progress.c): the OPPs measured so far, for a resume.
 * prof_progress_save - writes every OPP of res measured so far (measurements > 0), with the
 * platform's name, the topology and res->total_ns, as a private file (prof_files.h).
 * prof_progress_load - into res, whose topo and split_cpus are set: -ENOENT when there is no
 * file, -EINVAL when it is not one, or belongs to another platform, topology, performance
 * source or split (the message says which).
 */
int prof_progress_save(const char *path, const char *platform, const struct prof_result *res,
		       struct gb_err *err);
int prof_progress_load(const char *path, const char *platform, struct prof_result *res,
		       struct gb_err *err);
/* prof_progress_parse - prof_progress_load's reading of the file's text buf (NUL-terminated,
 * changed in place), path for the messages: 0, or -EINVAL with the message. */
int prof_progress_parse(char *buf, const char *path, const char *platform, struct prof_result *res,
			struct gb_err *err);

/* prof_build_profile - the em-profile of a result: OPPs that did not apply are left out,
 * perf normalised to 1024, spreads and provenance filled.  source: "measured" or "sim". */
int prof_build_profile(const struct prof_result *res, const char *source, struct em_profile *out,
		       struct gb_err *err);

/* prof_energy_delta_uj - counter difference with wrap-around: energy_uj counts modulo
 * max_energy_range_uj, as RAPL and turbostat treat it. */
static inline u64 prof_energy_delta_uj(u64 prev, u64 cur, u64 max_range_uj)
{
	if (cur >= prev)
		return cur - prev;
	return max_range_uj - prev + cur;
}

#endif /* GEARBOX_PROFILE_H */
