/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * sim.h - the discrete-event simulator behind `gearbox sim` (docs/sim.md).
 *
 * sim_run() plays a loaded rt-app workload (workload.h) on the CPUs of an energy model under one
 * placement policy and fills a sim_result: energy per domain, late activations, wake-up latency,
 * over-utilization, frequencies, migrations.  A run is deterministic: the same inputs and seed
 * give the same result, bit for bit.  Memory does not grow with the simulated duration.
 */
#ifndef GEARBOX_SIM_H
#define GEARBOX_SIM_H

#include <math.h>
#include <stdbool.h>
#include <stdio.h>

#include "em_profile.h"
#include "gb_err.h"
#include "workload.h"

enum sim_policy_id {
	SIM_POLICY_GEARBOX,
	SIM_POLICY_MAINLINE,
	SIM_POLICY_REWORK,
	SIM_POLICY_PERFORMANCE,
	SIM_POLICY_ORACLE,
	SIM_NR_POLICIES,
};

/* Slice-aware grouping of gearbox on the sched_ext host (--group-slices). */
enum sim_group {
	SIM_GROUP_DEFAULT, /* scx_gearbox's default, GB_GROUP_DFL */
	SIM_GROUP_ON,
	SIM_GROUP_OFF,
};

/* Wake-up preemption of gearbox on the sched_ext host (--wake-preempt, gb_preempt.h): the
 * core's mode (GB_PREEMPT_OFF, _LATENCY, _ON) plus one. */
enum sim_preempt {
	SIM_PREEMPT_DEFAULT, /* scx_gearbox's default, GB_PREEMPT_DFL */
	SIM_PREEMPT_OFF,
	SIM_PREEMPT_LATENCY,
	SIM_PREEMPT_ON,
};

/* The core's mode of p (resolved: not SIM_PREEMPT_DEFAULT, sim_options_defaults), and back. */
static inline unsigned sim_preempt_mode(enum sim_preempt p)
{
	return (unsigned)p - 1;
}

static inline enum sim_preempt sim_preempt_of(unsigned mode)
{
	return (enum sim_preempt)(mode + 1);
}

/* The host gearbox runs on (docs/sim.md, "The sched_ext host"). */
enum sim_host {
	SIM_HOST_DEFAULT, /* the sched_ext host */
	SIM_HOST_FAIR,	  /* the fair class's per-CPU queues, with gearbox's placement, misfit
			   * moves at the tick and idle pulls (gb_may_pull) */
	SIM_HOST_SCX,	  /* sched_ext: scx_gearbox's callbacks on the kernel's dispatch queues */
};

struct sim_options {
	u64 duration_us;     /* 0: the workload's; without one, until every task has exited
			      * (refused when a task loops forever) */
	u64 seed;	     /* perturbs the start of each task by up to 1 ms (0: no jitter) */
	u64 tick_us;	     /* scheduler tick, default 4000 (HZ=250) */
	u64 dvfs_rate_us;    /* minimum time between two OPP requests of a domain, default 500 */
	u64 dvfs_latency_us; /* OPP transition latency for every domain; 0: the model's
			      * transition_latency_us per domain, else 1000 */
	u64 push_after_us;   /* power-misfit push after running this long unwoken, default 8000 */
	u64 pull_after_us;   /* gearbox: any idle CPU pulls a task waiting this long, default
			      * GB_PULL_AFTER_US (scx_gearbox's gb_pull_after_ns) */
	u64 sample_us;	     /* trace sample interval, default 10000 */
	FILE *trace;	     /* NULL: no trace; else NDJSON per docs/stream.md */
	bool trace_tasks;    /* sample records carry the tasks[] array */
	enum sim_host host;  /* gearbox's host */
	enum sim_group group_slices;   /* gearbox on the sched_ext host: slice-aware grouping
					* (gb_group.h) */
	enum sim_preempt wake_preempt; /* gearbox on the sched_ext host: wake-up preemption
					* (gb_preempt.h) */
};

#define SIM_MAX_REPORT_TASKS 64

struct sim_task_result {
	char name[WL_NAME_LEN];
	u64 run_us[EM_MAX_DOMAINS]; /* time running, per domain */
	u64 activations;	    /* timer events reached */
	u64 late;		    /* timer events reached after their activation time */
	u64 missed;		    /* periods that ended without their activation done (below) */
	u64 migrations;		    /* moves to another CPU */
	u64 migrations_across;	    /* of them, to a CPU of another domain */
	/* wake-ups that ran (a new task's first start counts), and their wait from the wake-up
	 * to running on a CPU that left its idle state: the median and the 99th percentile */
	u64 wakeups;
	double wake_lat_p50_us;
	double wake_lat_p99_us;
	/* the sched_ext host: the virtual time scx_gearbox charged it (gb_vtime.h, weighted work
	 * ns: run time x perf / 1024 x 100 / weight); 0 on the fair host */
	u64 vtime_charged_ns;
	/* times it was stopped while still runnable for another task to run: a wake-up's
	 * preemption, the tick's rotation, the end of its slice with another task taking the CPU,
	 * an RT task (not a sched_yield()) */
	u64 preemptions;
	/* work done: running time x the perf of its CPU's OPP at the time (0..1024), so that
	 * work_perf_us / 1024 is in us at capacity 1024 (a CPU of capacity 1024 at its top OPP) */
	u64 work_perf_us;
	bool periodic;	       /* has a timer event (else throughput_pct is its figure) */
	double throughput_pct; /* work done per us of the run, % of capacity 1024 */
};

struct sim_domain_result {
	char name[EM_NAME_LEN];
	double energy_j;
	double avg_freq_khz;	 /* time-weighted over the run */
	double overutilized_pct; /* time the domain was over its tipping point */
	double busy_pct;	 /* CPU-time busy / (CPUs x duration) */
};

/* What became of a policy's run.  Only SIM_RAN has figures. */
enum sim_outcome {
	SIM_RAN,
	SIM_INFEASIBLE, /* oracle: no plan it tried keeps every deadline: no bound */
	SIM_SKIPPED,	/* oracle: the workload has a non-periodic task */
};

struct sim_result {
	enum sim_policy_id policy;
	enum sim_host host; /* where the policy's fair tasks ran: SIM_HOST_SCX for gearbox on the
			     * sched_ext host, SIM_HOST_FAIR for every other run */
	enum sim_outcome outcome;
	char note[256]; /* why infeasible or skipped; the oracle's plan when it ran */
	u64 duration_us;
	u32 nr_domains;
	struct sim_domain_result domains[EM_MAX_DOMAINS];
	double energy_j;
	u64 activations;
	u64 late;
	/*
	 * Missed periods: a late activation counts 1, plus (relative timers) each whole period that
	 * passed before the task got to its timer, plus, at the end of the run, the periods an
	 * unfinished activation has already overrun.  A task starved on a crowded CPU completes few
	 * activations and so counts few late ones; it counts every period it missed here.
	 */
	u64 missed;
	u64 wakeups;
	double wake_lat_p50_us;
	double wake_lat_p99_us;
	double
	    overutilized_pct; /* time any domain was over-utilized (mainline: rd->overutilized) */
	u64 migrations;
	u64 migrations_across;	/* of them, to a CPU of another domain (the others cost nothing:
				 * sim_migration_cost) */
	double work_s;		/* work done by every task, s at capacity 1024 */
	double energy_per_work; /* energy_j / work_s: J per second of capacity-1024 work */
	u64 misfit_moves;	/* capacity or power misfit migrations */
	/* migrations that took a task back to a CPU no bigger than the one a capacity-misfit move
	 * took it off, while its demand still saturates that CPU (once per move; every policy) */
	u64 misfit_moves_undone;
	/* gearbox on the sched_ext host: tasks a CPU took from another domain's queue, and those
	 * of them taken to a CPU no bigger than the one a capacity-misfit move took them off while
	 * their demand still saturates it (a pull undoing the move) */
	u64 pulls, misfit_undone;
	u64 wake_preempts; /* the same host: CPUs a waking task preempted (SCX_KICK_PREEMPT) */
	u64 decisions;	   /* placement decisions taken */
	u32 nr_tasks;	   /* in tasks[], at most SIM_MAX_REPORT_TASKS */
	struct sim_task_result tasks[SIM_MAX_REPORT_TASKS];
	/* the first thing the run had to decide that the workload did not say, "" if none
	 * (a task whose loop takes no time, stopped); the command prints it as a warning */
	char warning[256];
};

/* SIM_HOST_FAIR -> "fair", SIM_HOST_SCX -> "scx" (the --host names). */
const char *sim_host_name(enum sim_host host);

/* "gearbox" -> SIM_POLICY_GEARBOX ...; -1 when unknown. */
int sim_policy_parse(const char *name);
const char *sim_policy_name(enum sim_policy_id id);

/* Fills defaults into opt (all zero fields). */
void sim_options_defaults(struct sim_options *opt);

/*
 * Runs w on prof's model under policy.  Returns 0, or a negative errno with err set:
 * -EINVAL when the workload cannot run on the model.  The oracle returns 0 with
 * res->outcome SIM_SKIPPED (a non-periodic task) or SIM_INFEASIBLE (no plan kept every
 * deadline) and res->note saying why.
 */
int sim_run(const struct em_profile *prof, const struct workload *w, enum sim_policy_id policy,
	    const struct sim_options *opt, struct sim_result *res, struct gb_err *err);

/*
 * The figures summarised over seeds, each with its mean and 95% confidence interval: its
 * JSON name and its value in a result r (base: the first policy's energy in the same seed,
 * 0 when it did not run).  Ratios are taken per seed, then summarised.
 */
#define SIM_FIGURES(X)                                                                             \
	X(SIM_FIG_ENERGY, "energy_j", r->energy_j)                                                 \
	X(SIM_FIG_RATIO, "energy_ratio", base > 0 ? r->energy_j / base : NAN)                      \
	X(SIM_FIG_LATE, "late_activations", (double)r->late)                                       \
	X(SIM_FIG_MISSED, "missed_periods", (double)r->missed)                                     \
	X(SIM_FIG_MIGRATIONS, "migrations", (double)r->migrations)                                 \
	X(SIM_FIG_MIGRATIONS_ACROSS, "migrations_across_domains", (double)r->migrations_across)    \
	X(SIM_FIG_WORK, "work_s", r->work_s)                                                       \
	X(SIM_FIG_EPW, "energy_j_per_work_s", r->energy_per_work)

enum sim_figure {
#define X(id, name, expr) id,
	SIM_FIGURES(X)
#undef X
	    SIM_NR_FIGURES
};

/* A mean and its 95% confidence interval; lo and hi are NaN with fewer than 2 values. */
struct sim_interval {
	double mean, lo, hi;
};

/* Student's t(0.975, df); NaN for df 0. */
double sim_t975(u32 df);
/* Mean and 95% confidence interval (Student t, n - 1 degrees of freedom) of x[0..n). */
struct sim_interval sim_interval_of(const double *x, u32 n);

/*
 * The report of one or more seeds of the same policies: add each seed's results (one per
 * policy, in the order given) in seed order, then print.  One seed: the table and JSON of that
 * run; several: means, intervals and per-seed figures (docs/sim.md).
 */
struct sim_report;
struct sim_report *sim_report_new(const struct em_profile *prof, const struct workload *w,
				  unsigned n, u64 first_seed, u32 nr_seeds);
/* Adds the next seed's n results; -1 when out of memory or past nr_seeds. */
int sim_report_add(struct sim_report *r, const struct sim_result *res);
void sim_report_table(FILE *out, const struct sim_report *r);
void sim_report_json(FILE *out, const struct sim_report *r);
void sim_report_free(struct sim_report *r);

#endif /* GEARBOX_SIM_H */
