/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * linux_impl.h - the parts of the linux platform (linux.h), shared between its files:
 * cpufreq control and its state file, power and temperature sources, the load.
 */
#ifndef GEARBOX_PROF_LINUX_IMPL_H
#define GEARBOX_PROF_LINUX_IMPL_H

#include <sys/types.h>

#include "linux.h"

#define LX_PATH	     512
#define LX_MAX_SAVED (EM_MAX_DOMAINS * 4)

/* --- cpufreq (linux_cpufreq.c) --- */

struct lx_policy {
	char dir[LX_PATH]; /* .../cpufreq/policyN */
	bool userspace;	   /* control through scaling_setspeed */
	u32 cpuinfo_min_khz, cpuinfo_max_khz;
};

struct lx_saved {
	char path[LX_PATH];
	char value[128];
};

struct lx_cpufreq {
	u32 nr;
	struct lx_policy pol[EM_MAX_DOMAINS];
	u32 nr_saved;
	struct lx_saved saved[LX_MAX_SAVED];
	char state_path[LX_PATH];
	bool state_written;
};

/* Fills topo's domains from the policies under sysfs_cpu/cpufreq; -ENODEV when none. */
int lx_cpufreq_discover(const char *sysfs_cpu, u32 step_khz, struct lx_cpufreq *cf,
			struct prof_topology *topo, struct gb_err *err);
/* Records the files to be written into the state file, then sets the governors. */
int lx_cpufreq_take(struct lx_cpufreq *cf, const char *state_path, struct gb_err *err);
int lx_cpufreq_set(struct lx_cpufreq *cf, u32 d, u32 freq_khz, struct gb_err *err);
int lx_cpufreq_cur_khz(const struct lx_cpufreq *cf, u32 d, u32 *khz);
/* Writes the saved values back and removes the state file. */
int lx_cpufreq_restore(struct lx_cpufreq *cf, struct gb_err *err);
/* The same with system calls only (no stdio, no allocation, no error text): for a signal
 * handler when the process is about to die.  The state file stays if a write failed. */
void lx_cpufreq_restore_now(const struct lx_cpufreq *cf);

int lx_read_str(const char *path, char *buf, size_t len);
int lx_write_str(const char *path, const char *s);

/* --- power and temperature (linux_power.c) --- */

struct lx_power;

int lx_power_open(const struct prof_linux_opts *o, struct lx_power **out, char *desc,
		  size_t desc_len, struct gb_err *err);
/* Reads power samples for duration_ns into w (power_uw, nr_power, lsb, from_energy). */
int lx_power_window(struct lx_power *p, u64 duration_ns, struct prof_window *w, struct gb_err *err);
int lx_power_temp_mc(struct lx_power *p, int *mc);
void lx_power_close(struct lx_power *p);

/* --- the load (linux_load.c) --- */

struct lx_load;

/* Forks the load and opens its counters; probe says how the instructions counter did. */
int lx_load_open(struct lx_load **out, struct prof_perf_probe *probe, struct gb_err *err);
/* Runs the load on every CPU of cpus (one child each, the lowest CPU's counted), or parks
 * all of it (blocked in the kernel, the CPUs idle) when cpus is NULL. */
int lx_load_set(struct lx_load *l, const struct em_cpumask *cpus, struct gb_err *err);
struct lx_counts {
	u64 work, task_ns, cycles, instructions; /* 0: not counted */
};

/* Counter snapshot of the load. */
void lx_load_counts(struct lx_load *l, struct lx_counts *c);
bool lx_load_has_cycles(const struct lx_load *l);
void lx_load_close(struct lx_load *l);

u64 lx_now_ns(void);
void lx_sleep_ns(u64 ns);

#endif
