/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * em_profile.h - the em-profile file (`"format": "gearbox-em/1"`, docs/em-profile.md).
 *
 * An em_profile is the BPF-safe struct em_model (what the policy and the scheduler use) plus
 * what only people and tools need: the SoC name, where the numbers came from, and per OPP the
 * measured spread and the raw means that a monotone fit replaced.
 *
 * Loading parses with jansson, checks every field (errors carry "FILE: domain N, OPP M: reason"),
 * and derives cost, inefficiency, nr_cpus and the CPU->domain map with em_compute_costs() and
 * friends; values derived by the kernel are never read from the file.  Writing is stable: the
 * same profile always gives the same bytes, one OPP per line so that diffs read well.
 */
#ifndef GEARBOX_EM_PROFILE_H
#define GEARBOX_EM_PROFILE_H

#include <stdbool.h>
#include <stdio.h>

#include "em_model.h"
#include "gb_err.h"

#define EM_FORMAT   "gearbox-em/1"
#define EM_TEXT_LEN 256

/* Measurement details of one OPP; absent fields are 0 and has_* false. */
struct em_opp_meta {
	bool has_spread;
	u32 power_spread_uw; /* half-width of the 95% confidence interval of the mean power */
	u32 perf_spread;     /* same for perf */
	u32 samples;	     /* samples behind the mean */
	bool has_raw;	     /* the fit changed the measured means; these are the originals */
	u32 raw_power_uw;
	u32 raw_perf;
	/* Static/dynamic split (gearbox profile --split-cpus): with k CPUs of the domain busy
	 * the domain draws static_uw + k * dynamic_uw, so static_uw + dynamic_uw is power_uw. */
	bool has_split;
	u32 split_cpus; /* k of the second measurement (the first is 1 CPU) */
	u32 static_uw;	/* the domain's share, drawn once whenever any CPU is busy */
	u32 dynamic_uw; /* each busy CPU's own */
};

/*
 * Idle states of a domain (docs/em-profile.md, "idle_states"): per CPU (shallowest first) and
 * per cluster.  While any CPU of the domain is out of the cluster state the domain draws
 * static_uw; a CPU draws its OPP's power_uw while running and its state's power_uw while idle;
 * a cluster in a cluster state draws that state's power_uw instead of static_uw (its CPUs
 * draw nothing more).  Latencies and residencies are the device tree's idle-state values.
 */
#define EM_IDLE_VERSION	    1
#define EM_MAX_CPU_IDLE	    8
#define EM_MAX_CLUSTER_IDLE 4
#define EM_IDLE_MAX_US	    10000000u /* 10 s: a bound on any latency or residency */

#define EM_IDLE_NAME_LEN 32 /* device-tree idle-state-name, e.g. "little-rail-power-collapse" */

struct em_idle_state {
	char name[EM_IDLE_NAME_LEN];
	u32 power_uw;
	u32 entry_latency_us;
	u32 exit_latency_us;
	u32 min_residency_us;
};

struct em_idle_states {
	bool present;
	u32 static_uw; /* the cluster's share while any CPU is out of a cluster state */
	u32 nr_cpu, nr_cluster;
	struct em_idle_state cpu[EM_MAX_CPU_IDLE];
	struct em_idle_state cluster[EM_MAX_CLUSTER_IDLE];
};

struct em_provenance {
	char source[32]; /* measured | sim | freqbench | debugfs | dt | manual */
	char date[32];	 /* ISO 8601 */
	char tool[64];
	char tool_version[32];
	char device[128];
	char conditions[EM_TEXT_LEN];
	bool has_temp;
	int temp_max_mc;      /* highest temperature seen while measuring, millidegrees C */
	char perf_source[16]; /* "" (unknown) | instructions | iterations */
	bool has_duration;
	u32 duration_ms; /* how long the measurement took (sim: simulated time) */
};

struct em_profile {
	char soc[64];
	char description[EM_TEXT_LEN];
	struct em_provenance prov;
	struct em_model model;
	struct em_opp_meta meta[EM_MAX_DOMAINS][EM_MAX_OPPS];
	char core[EM_MAX_DOMAINS][32]; /* optional core type per domain, e.g. "Cortex-A55" */
	struct em_idle_states idle[EM_MAX_DOMAINS]; /* optional; present false when absent */
	/* cpufreq's cpuinfo.transition_latency per domain, in us; has_ false when absent */
	bool has_transition_latency[EM_MAX_DOMAINS];
	u32 transition_latency_us[EM_MAX_DOMAINS];
};

/* Bounds of the values a profile holds (docs/em-profile.md); power and perf are em_model.h's. */
#define EM_MAX_FREQ_KHZ	  100000000u /* 100 GHz */
#define EM_MAX_VOLTAGE_UV 10000000u  /* 10 V */
#define EM_MAX_SAMPLES	  1000000000u
#define EM_MIN_TEMP_MC	  (-100000)
#define EM_MAX_TEMP_MC	  200000

/* An OPP whose perf per kHz is below this share of its domain's median did not apply (the
 * CPU ran slower than asked); em validate --strict refuses it, the importers leave it out. */
#define EM_UNAPPLIED_RATIO 0.75

/* Every error of a file (`em validate` reports them all); the first one is also in err. */
#define EM_ERRORS_KEPT 32
struct em_errors {
	int count; /* every error found; the first EM_ERRORS_KEPT are kept */
	char msg[EM_ERRORS_KEPT][GB_ERR_MSG_LEN];
};

/* Warnings are physically implausible but real data (power not rising with frequency, perf
 * that stays flat while frequency rises). */
struct em_warnings {
	int count;
	char msg[8][GB_ERR_MSG_LEN];
};

/* em_add_warning - appends a warning to w (may be NULL); counts those that do not fit. */
void em_add_warning(struct em_warnings *w, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* em_profile_load_file - reads and validates FILE.  Errors are prefixed with the file name.
 * With strict, warnings become errors.  warn may be NULL. */
int em_profile_load_file(const char *path, struct em_profile *prof, bool strict,
			 struct em_warnings *warn, struct gb_err *err);

/* em_profile_check_file - em_profile_load_file that also collects every error in errs (may
 * be NULL), each prefixed with the file name. */
int em_profile_check_file(const char *path, struct em_profile *prof, bool strict,
			  struct em_warnings *warn, struct em_errors *errs, struct gb_err *err);

/* em_profile_check_string - the same from memory; name is used in messages. */
int em_profile_check_string(const char *text, size_t len, const char *name, struct em_profile *prof,
			    bool strict, struct em_warnings *warn, struct em_errors *errs,
			    struct gb_err *err);

/* em_profile_load_string - the same from memory; name is used in messages. */
int em_profile_load_string(const char *json, size_t len, const char *name, struct em_profile *prof,
			   bool strict, struct em_warnings *warn, struct gb_err *err);

/* em_profile_finalize - checks the model (every value's range, as the loader does, and the
 * relations between them) and derives cost, inefficiency, CPU maps.  Used by the loader and by
 * every importer after filling a profile: what it accepts, the loader reads back. */
int em_profile_finalize(struct em_profile *prof, bool strict, struct em_warnings *warn,
			struct gb_err *err);

/* em_profile_write - the canonical text of prof. */
int em_profile_write(const struct em_profile *prof, FILE *out);

/* em_profile_save - writes prof to path through outfile.h ("-": standard output; a regular
 * file is replaced only when the whole model was written; a device or FIFO in place). */
int em_profile_save(const struct em_profile *prof, const char *path, struct gb_err *err);

/* em_profile_init - an empty profile with today's provenance defaults for tool. */
void em_profile_init(struct em_profile *prof, const char *source);

#endif /* GEARBOX_EM_PROFILE_H */
