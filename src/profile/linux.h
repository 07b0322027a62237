/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * linux.h - the profiler on a real board.
 *
 *   domains     cpufreq policies (policyN/related_cpus); OPPs from
 *               scaling_available_frequencies, else cpuinfo_min..max in opp_step_khz steps
 *   frequency   the userspace governor + scaling_setspeed when offered, else pinning
 *               scaling_min_freq = scaling_max_freq
 *   power       the first present of: an external meter (--meter-cmd / --meter-file, one
 *               sample per line, "123.4 mW" or plain microwatts), powercap zones through
 *               libpowercap (energy_uj, wrap at max_energy_range_uj), hwmon energy or power
 *               channels through libsensors, a fuel gauge under /sys/class/power_supply
 *               (discharging only; windows lengthened to its detected update interval)
 *   perf        a CPU-bound load in a child pinned to the CPU, counted with libperf
 *               (instructions and cycles where the PMU is supported; task-clock always) and
 *               by its own iteration counter in shared memory; instructions per second is the
 *               performance where counted (checked by a short probe run), else iterations
 *   temperature hwmon temperature channels through libsensors (thermal guard, provenance)
 *
 * Restoring.  Before the first write, every file that will be written is recorded with its
 * value in a state file (fsync'ed, a private file of prof_files.h).  prof_linux_close() writes them
 * back and removes the file; `gearbox profile --restore` does the same from the file after a crash
 * or SIGKILL.
 */
#ifndef GEARBOX_PROF_LINUX_H
#define GEARBOX_PROF_LINUX_H

#include "profile.h"

#define PROF_LINUX_SYSFS_CPU  "/sys/devices/system/cpu"
#define PROF_LINUX_STATE      "/var/lib/gearbox/profile-state"
#define PROF_LINUX_PROGRESS   "/var/lib/gearbox/profile-progress"
#define PROF_LINUX_DEBUGFS_EM "/sys/kernel/debug/energy_model"

enum prof_verify {
	PROF_VERIFY_AUTO,     /* cycles when counted, else the load's iterations per kHz */
	PROF_VERIFY_CUR_FREQ, /* trust scaling_cur_freq (boards whose load rate is not CPU-bound) */
};

enum prof_perf_want {
	PROF_PERF_WANT_AUTO,	     /* instructions where the PMU counts them, else iterations */
	PROF_PERF_WANT_INSTRUCTIONS, /* refuse to start without an instructions counter */
	PROF_PERF_WANT_ITERATIONS,
};

/* What opening and briefly running the instructions counter on the load gave. */
struct prof_perf_probe {
	int open_err;	     /* 0, or the -errno of perf_event_open */
	u64 instructions;    /* counted during the probe run */
	u64 time_running_ns; /* time the counter was on the PMU during it */
};

/* prof_perf_select - the performance source from a probe: instructions when wanted (or auto)
 * and the counter opened, was scheduled and counted; else iterations.  why says which and
 * why, for the report.  -ENODEV when instructions were demanded but cannot be counted. */
int prof_perf_select(enum prof_perf_want want, const struct prof_perf_probe *probe,
		     enum prof_perf_src *src, char *why, size_t why_len, struct gb_err *err);

struct prof_linux_opts {
	const char *sysfs_cpu;	/* PROF_LINUX_SYSFS_CPU */
	const char *state_path; /* PROF_LINUX_STATE */
	const char *meter_cmd;	/* NULL: none */
	const char *meter_file;
	const char *power; /* NULL: auto; "powercap", "hwmon", "fuel-gauge[:SUPPLY]" */
	u32 opp_step_khz;  /* for drivers without a frequency table; default 100000 */
	enum prof_verify verify;
	/* Rate per wall-clock second instead of per task-clock second: for rigs where the
	 * "frequency" is emulated by stopping the load (the fake-sysfs test). */
	bool perf_wall;
	enum prof_perf_want perf_want;
};

void prof_linux_opts_default(struct prof_linux_opts *o);

struct prof_linux;

/* prof_linux_open - discovers domains and the power source, records the state and takes
 * control of frequency.  Nothing is written before discovery succeeded; on error everything
 * written is restored.  Errors: -ENODEV (nothing to profile with: bad input), others. */
int prof_linux_open(const struct prof_linux_opts *o, struct prof_linux **out, struct gb_err *err);
void prof_linux_platform(struct prof_linux *lx, struct prof_platform *pf,
			 struct prof_topology *topo);
/* prof_linux_restore_now - restores governors and limits with system calls only: for a signal
 * handler of a fatal signal (SIGSEGV, SIGABRT, ...) before the process dies of it. */
void prof_linux_restore_now(const struct prof_linux *lx);
/* prof_linux_close - restores governors and limits, stops the load, frees; NULL is fine. */
int prof_linux_close(struct prof_linux *lx, struct gb_err *err);

/* prof_linux_restore - writes back what a state file recorded, then removes it.  Only
 * sysfs_cpu/cpufreq/policyN/{scaling_governor,scaling_min_freq,scaling_max_freq,
 * scaling_setspeed} are written, with governor names or kHz values: a file naming anything else
 * is refused (-EPERM) before anything is written.  -ENOENT when there is no state file (nothing
 * to restore).  The caller holds the profile lock (prof_files.h). */
int prof_linux_restore(const char *state_path, const char *sysfs_cpu, struct gb_err *err);

#endif
