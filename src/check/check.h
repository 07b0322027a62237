/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * check.h - `gearbox check`: does a sched_ext scheduler meet basic quality standards?
 *
 * cmd_check starts the scheduler command given after `--`, waits for
 * /sys/kernel/sched_ext/state to read "enabled" and runs a fixed list of checks against it, each
 * bounded in time.  A check forks workload processes (all SCHED_OTHER, hence scheduled by the
 * BPF scheduler), lets them run, and judges what they recorded in shared memory: progress
 * counters, CPU samples, CPU time, wakeup lateness.  After each check the scheduler must still be
 * loaded; if it was ejected the check fails and the scheduler is started again for the next one.
 *
 * Cleanup.  Everything the check starts or changes is undone on every way out: the scheduler is
 * stopped (SIGINT, then SIGKILL, then sysrq-S), the load is stopped (each load set is a process
 * group that is SIGKILLed), kernel.sysrq gets its value back, an offlined CPU comes back.
 * SIGINT, SIGTERM and SIGHUP (and the other signals that would end it: QUIT, USR1, USR2, ALRM,
 * PIPE) only set a flag: the running check stops at its next wait, the remaining ones are
 * skipped, the cleanup runs, the results so far are printed, and the process dies of the
 * signal.  SIGKILL cannot be caught: the load and the scheduler are children with
 * PR_SET_PDEATHSIG (SIGKILL), so they die with the check.
 *
 * Modules: check_sched.c (the scheduler process and the sched_ext sysfs state), check_load.c
 * (workload processes and their shared counters), checks_tasks.c (starvation, affinity, weights,
 * latency), checks_system.c (fork storm, hotplug, RT, exit paths), cmd_check.c (options, output).
 */
#ifndef GEARBOX_CHECK_H
#define GEARBOX_CHECK_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "gb_err.h"

#define CHECK_MAX_CPUS	  64
#define CHECK_MAX_METRICS 6

enum check_status { CHECK_PASS, CHECK_FAIL, CHECK_SKIP };

struct check_metric {
	const char *name; /* with its unit: "p99_ms", "ratio" */
	double value;
};

struct check_result {
	enum check_status status;
	char detail[256];
	double elapsed_s;
	int nr_metrics;
	struct check_metric metrics[CHECK_MAX_METRICS];
};

/* The scheduler under test: a child process in its own process group. */
struct sched_proc {
	char **argv;
	const char *log_path; /* its stdout+stderr go there (appended) */
	pid_t pid;	      /* 0 when not running */
	int wstatus;	      /* valid once reaped */
	char ops_name[64];
	int starts;
};

struct check_ctx {
	struct sched_proc sched;
	int nr_cpus;	   /* online CPUs when the run started */
	double duration_s; /* run time of each load phase */
	double attach_timeout_s;
};

/* Every check: fills res (status, detail, metrics); the scheduler is enabled on entry. */
typedef void (*check_fn)(struct check_ctx *ctx, struct check_result *res);

void check_starvation(struct check_ctx *ctx, struct check_result *res);
void check_affinity(struct check_ctx *ctx, struct check_result *res);
void check_weights(struct check_ctx *ctx, struct check_result *res);
void check_latency(struct check_ctx *ctx, struct check_result *res);
void check_forkstorm(struct check_ctx *ctx, struct check_result *res);
void check_hotplug(struct check_ctx *ctx, struct check_result *res);
void check_rt(struct check_ctx *ctx, struct check_result *res);
void check_exit_paths(struct check_ctx *ctx, struct check_result *res);

/* The signal that interrupted the run, or 0.  Waits end early when it is set. */
int check_interrupted(void);

/* Result helpers (printf-style detail). */
void check_set(struct check_result *res, enum check_status st, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
void check_metric(struct check_result *res, const char *name, double value);

/* --- check_sched.c --- */

/* Reads /sys/kernel/sched_ext/state ("enabled", "disabled", ...); -ENOENT without sched_ext. */
int scx_state(char *buf, size_t len);
bool scx_enabled(void);
/* The name in /sys/kernel/sched_ext/root/ops, or "" when none. */
void scx_ops_name(char *buf, size_t len);
/* /sys/kernel/sched_ext/enable_seq (bumped on every enable), -1 when absent. */
long scx_enable_seq(void);
/* Polls until the state reads want (or timeout); returns the seconds it took, < 0 on timeout. */
double scx_wait_state(const char *want, double timeout_s);

/* Starts the scheduler and waits until it is enabled; *took_s = seconds it took. */
int sched_start(struct sched_proc *sp, double timeout_s, double *took_s, struct gb_err *err);
/* True while the process runs (reaps it when it has exited). */
bool sched_running(struct sched_proc *sp);
/* Sends sig and waits up to timeout_s for the process to exit; false on timeout. */
bool sched_signal_wait(struct sched_proc *sp, int sig, double timeout_s);
/* Stops the scheduler by any means (SIGINT, SIGKILL, sysrq-S) and reaps it. */
void sched_stop(struct sched_proc *sp);
/* "exited 0", "killed by signal 9", ... */
void sched_describe_exit(const struct sched_proc *sp, char *buf, size_t len);
/* Writes one character to /proc/sysrq-trigger (enabling sysrq first); 0 or -errno. */
int sysrq_trigger(char c);
/* kernel.sysrq as it is (for sysrq_restore); "" when it cannot be read. */
void sysrq_save(char *buf, size_t len);
/* Writes the saved value back if kernel.sysrq has another one now. */
void sysrq_restore(const char *saved);
/* In a child about to run something for the check: it dies with the check (SIGKILL when the
 * parent, parent_pid, is gone, checked once more after the request closes the race). */
void die_with_parent(pid_t parent_pid);

/* --- check_load.c --- */

#define LOAD_MAX_TASKS	 64
#define LOAD_MAX_SAMPLES 4096

/* Shared between the parent and the workload processes (MAP_SHARED). */
struct load_slot {
	volatile uint64_t progress;
	volatile uint64_t cputime_ns;
	volatile uint64_t samples, violations, on_new_mask;
	volatile int bad_cpu;
	volatile uint64_t allowed[3]; /* affinity check: per generation, a CPU bitmask */
	volatile int gen;
	volatile int done;
};

struct load_shm {
	volatile int stop;
	struct load_slot slot[LOAD_MAX_TASKS];
	volatile uint32_t nr_lat;
	volatile uint32_t lat_us[LOAD_MAX_SAMPLES];
};

struct load_set {
	struct load_shm *shm;
	pid_t pid[LOAD_MAX_TASKS];
	int nr;
	pid_t pgid; /* the process group of all of them (the first one's pid), 0 before */
};

/* What a workload process runs; it returns when shm->stop is set. */
typedef void (*load_fn)(struct load_shm *shm, int slot, long arg);

int load_init(struct load_set *ls, struct gb_err *err);
/* Forks a process running fn(shm, slot, arg); cpu >= 0 pins it first; its nice value is set
 * to nice whatever the caller's is.  Returns the slot or -errno. */
int load_spawn(struct load_set *ls, load_fn fn, long arg, int cpu, int nice);
/* Sets stop, waits up to 2 s, SIGKILLs the process group (stragglers and anything they
 * forked), reaps all; the shm stays readable. */
void load_stop(struct load_set *ls);
void load_free(struct load_set *ls);
/* Sleeps for s seconds (restarting on signals), less when the run is interrupted. */
void load_sleep(double s);
double load_now_s(void);

void load_hog(struct load_shm *shm, int slot, long arg);
void load_periodic(struct load_shm *shm, int slot, long period_us);
void load_interactive(struct load_shm *shm, int slot, long arg);

#endif
