/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * workload.h - an rt-app workload, loaded from its JSON use-case file, as the simulator runs it.
 *
 * rt-app (Debian package rt-app, see its tutorial.txt) describes a use case as "tasks", each a
 * loop over "phases", each phase a loop over an ordered list of "events".  This module parses
 * the subset of rt-app that the simulator can model faithfully, resolves every name (timers,
 * suspend/resume queues, barriers) to an index, expands "instance" into separate tasks, and
 * rejects everything else with "FILE: task NAME[, phase P][, event E]: reason".  Nothing in a
 * file is silently ignored: keys that only steer rt-app's own logging are accepted by name
 * (docs/workloads.md lists them) and have no effect in simulation.
 *
 * The relaxed dialect.  rt-app's own files are not strict JSON: they repeat keys ("run" twice in
 * one phase; rt-app's `workgen` renames the repeats "run1", "run2" before running), have
 * trailing commas and C comments (json-c accepts both), and may write a bare "suspend" with no
 * value (workgen fills in the task's name).  relaxed_json.h turns such text into strict JSON,
 * keeping every key in order, before jansson parses it.
 *
 * Time.  Every duration in this model is in microseconds, as in rt-app, except that the global
 * "duration" is written in seconds in the file and stored here as duration_us.
 *
 * What the simulator must do with a loaded workload (rt-app's semantics, rt-app.c):
 *
 * Task lifetime.  Each wl_task is one thread.  It is created at time 0, waits delay_us, then
 * runs its phases in order, nr_phases of them, each phase `loop` times over its events; the
 * whole sequence of phases is repeated task->loop times (WL_LOOP_FOREVER: until the global
 * duration ends).  After its last loop the task exits.  The use case ends at duration_us, or,
 * when duration_us is WL_DURATION_UNBOUNDED, when every task has exited: the simulator runs
 * such a workload to its last task's exit when every loop is finite (workload_forever_task()
 * is NULL), and needs a command-line duration otherwise.
 *
 * Scheduling attributes.  At creation the task takes task->sched (policy, nice or RT priority,
 * deadline parameters, a fair task's own slice) and task->uclamp.  At the start of every iteration
 * of a phase, the task's affinity becomes phase->cpus (already resolved here: the phase's own
 * "cpus", else the task's, else all CPUs of the model when cpus_all is set).  A phase's uclamp
 * fields that are set (phase->uclamp.set) replace the task's current values at the start of the
 * phase and stay in force until another phase sets them again: rt-app applies sched attributes only
 * when a phase gives them, so they are sticky, also across the wrap-around of the task loop.
 *
 * Events, in order:
 *   WL_EV_RUN      CPU-bound work of a fixed amount: duration_us of running on the
 *                  calibration CPU at its highest OPP.  On a CPU of capacity C at an OPP with
 *                  performance P, the same work takes duration_us * Pcal / P, where Pcal is the
 *                  calibration CPU's capacity (global.calibration_cpu), or EM_CAPACITY_SCALE
 *                  when the file gives ns-per-loop instead of a CPU (no CPU to refer to).
 *                  Work is only done while the task is running.
 *   WL_EV_RUNTIME  Busy for a fixed wall-clock time, irrespective of CPU and OPP: the event ends
 *                  duration_us after it began, counting the time the task was runnable but
 *                  preempted (rt-app spins until the clock says so).
 *   WL_EV_SLEEP    Sleep duration_us from the moment the event starts.
 *   WL_EV_TIMER    Sleep until the shared timer w->timers[ref] next fires.  A timer's
 *                  reference time is set on its first use to the start of the current phase
 *                  iteration; each timer event advances it by period_us and sleeps until it,
 *                  so a periodic task keeps its period whatever its run took.  If the new
 *                  reference is already past (the run overran: a late activation), the task
 *                  does not sleep; in WL_TIMER_RELATIVE mode the reference is reset to now, in
 *                  WL_TIMER_ABSOLUTE mode it is kept (later activations may be missed too).
 *                  Every task instance using the same ref shares one timer, except refs that
 *                  begin with "unique", which are one timer per task instance (wl_timer.owner).
 *   WL_EV_SUSPEND  Block on the wait queue w->queues[ref] until a resume on that queue.
 *   WL_EV_RESUME   Wake every task currently blocked on w->queues[ref] (a condition-variable
 *                  broadcast).  A resume with nobody blocked is lost: it is not remembered.
 *   WL_EV_BARRIER  Block until every user of w->barriers[ref] has reached it; the last to
 *                  arrive wakes the others and all continue.  nr_users counts task instances
 *                  that use the barrier (rt-app counts references in the file; the two agree
 *                  unless one task uses the same barrier twice).
 *   WL_EV_YIELD    sched_yield(): the task stays runnable and goes behind the other runnable
 *                  tasks of its CPU.
 *
 * A phase whose loop is WL_LOOP_FOREVER never hands over to the next phase.
 *
 * Not supported (rejected with an error naming the key): mutexes and condition variables
 * (lock, unlock, wait, signal, broad, sync), mem, iorun, fork, NUMA (nodes_membind),
 * taskgroup, and policy/priority/deadline parameters at phase level.  Also rejected, though
 * rt-app would run them: a resume of a name no task suspends on (a typo, or a no-op), a suspend
 * on a name no task resumes (the task would block forever), a phase without events, and a
 * timer used in both modes.  docs/workloads.md lists every key and every error.
 */
#ifndef GEARBOX_SIM_WORKLOAD_H
#define GEARBOX_SIM_WORKLOAD_H

#include <stddef.h>

#include "em_model.h"
#include "gb_err.h"

/* Limits, checked with an error naming the limit. */
#define WL_MAX_TASKS	    1024  /* after instance expansion */
#define WL_MAX_INSTANCES    256	  /* "instance" of one task object */
#define WL_MAX_PHASES	    256	  /* per task */
#define WL_MAX_EVENTS	    1024  /* per phase */
#define WL_MAX_TOTAL_EVENTS 65536 /* over all phases of all expanded tasks */
#define WL_MAX_REFS	    4096  /* timers, queues, barriers: each */
#define WL_NAME_LEN	    64	  /* task, phase, event key and ref names, with the NUL */
#define WL_MAX_DURATION_US  (1000ull * 1000 * 1000 * 1000 * 100) /* 1e8 s: sums stay in u64 */

/* A fair task's custom slice: the kernel clamps sched_attr.sched_runtime to 0.1..100 ms. */
#define WL_SLICE_MIN_US 100
#define WL_SLICE_MAX_US 100000

#define WL_LOOP_FOREVER	      (-1)  /* rt-app's "loop" : -1 */
#define WL_DURATION_UNBOUNDED 0	    /* global "duration" : -1 (or absent) */
#define WL_NO_OWNER	      (~0u) /* wl_timer.owner of a shared timer */

enum wl_policy {
	WL_SCHED_OTHER,
	WL_SCHED_FIFO,
	WL_SCHED_RR,
	WL_SCHED_DEADLINE,
};

enum wl_event_type {
	WL_EV_RUN,
	WL_EV_RUNTIME,
	WL_EV_SLEEP,
	WL_EV_TIMER,
	WL_EV_SUSPEND,
	WL_EV_RESUME,
	WL_EV_BARRIER,
	WL_EV_YIELD,
};

enum wl_timer_mode {
	WL_TIMER_RELATIVE, /* rt-app's default */
	WL_TIMER_ABSOLUTE,
};

/* wl_uclamp.set */
#define WL_UCLAMP_MIN (1u << 0)
#define WL_UCLAMP_MAX (1u << 1)

/* util_min/util_max (upstream rt-app's spelling of uclamp), on the 0..1024 scale. */
struct wl_uclamp {
	u32 set; /* WL_UCLAMP_* of the fields the file gives */
	u32 min; /* 0 when not set */
	u32 max; /* EM_CAPACITY_SCALE when not set */
};

struct wl_sched {
	enum wl_policy policy;
	s32 nice;	    /* SCHED_OTHER: "priority", -20..19 (default 0); else 0 */
	u32 rt_priority;    /* SCHED_FIFO/RR: "priority", 1..99 (default 10); else 0 */
	u64 dl_runtime_us;  /* SCHED_DEADLINE only, else 0 */
	u64 dl_period_us;   /* default: dl_runtime_us */
	u64 dl_deadline_us; /* default: dl_period_us */
	u64 slice_us;	    /* SCHED_OTHER: its own slice ("slice_us", sched_attr.sched_runtime
			     * of a fair task), WL_SLICE_MIN_US..WL_SLICE_MAX_US; 0: the
			     * scheduler's default slice */
};

struct wl_event {
	enum wl_event_type type;
	u32 ref;	 /* TIMER: w->timers, SUSPEND/RESUME: w->queues, BARRIER: w->barriers */
	u64 duration_us; /* RUN, RUNTIME, SLEEP */
	u64 period_us;	 /* TIMER, > 0 */
	char key[WL_NAME_LEN]; /* the key; a repeat gets its number as workgen does: "run1" */
};

struct wl_phase {
	char name[WL_NAME_LEN];	 /* "" when the task has no "phases" object */
	s64 loop;		 /* WL_LOOP_FOREVER or >= 1 (default 1) */
	bool cpus_all;		 /* no "cpus" in phase or task: every CPU of the model */
	bool cpus_own;		 /* the phase gives its own "cpus" */
	struct em_cpumask cpus;	 /* effective affinity when !cpus_all */
	struct wl_uclamp uclamp; /* applied at phase start, sticky (see above) */
	u32 nr_events;
	struct wl_event *events;
};

struct wl_task {
	char name[WL_NAME_LEN]; /* rt-app's thread name: "BASE-INSTANCE", e.g. "thread0-0" */
	char base[WL_NAME_LEN]; /* the key under "tasks" */
	u32 instance;		/* 0 .. nr_instances-1 */
	u32 nr_instances;
	s64 loop; /* WL_LOOP_FOREVER or >= 1 (default: forever) */
	u64 delay_us;
	bool cpus_all;		/* no task-level "cpus" */
	struct em_cpumask cpus; /* task-level affinity when !cpus_all */
	struct wl_sched sched;
	struct wl_uclamp uclamp; /* task-level util_min/util_max, applied at creation */
	u32 nr_phases;
	struct wl_phase *phases;
};

struct wl_timer {
	char name[WL_NAME_LEN];	 /* the "ref" */
	enum wl_timer_mode mode; /* one mode per timer: a conflict is an error */
	u32 owner;		 /* task index for "unique..." refs, WL_NO_OWNER when shared */
};

/* A name that tasks suspend on and resume; rt-app calls it a wait resource. */
struct wl_queue {
	char name[WL_NAME_LEN];
	u32 nr_suspenders; /* task instances that suspend on it (>= 1) */
};

struct wl_barrier {
	char name[WL_NAME_LEN];
	u32 nr_users; /* task instances that use it (>= 1) */
};

struct wl_global {
	u64 duration_us;	       /* WL_DURATION_UNBOUNDED or > 0 */
	enum wl_policy default_policy; /* default SCHED_OTHER */
	s32 calibration_cpu;	       /* "CPUn" (default CPU0); -1 when ns-per-loop is given */
	u32 calibration_ns_per_loop;   /* integer "calibration"; 0 when a CPU is given */
};

struct workload {
	char name[256]; /* the file name, for messages */
	struct wl_global global;
	u32 nr_tasks;
	struct wl_task *tasks;
	u32 nr_timers;
	struct wl_timer *timers;
	u32 nr_queues;
	struct wl_queue *queues;
	u32 nr_barriers;
	struct wl_barrier *barriers;
};

/*
 * Loads an rt-app file.  On success returns 0 and fills *w (free it with workload_free()); on
 * failure returns a negative errno (-ENOENT, -EINVAL, -E2BIG for limits, -ENOMEM), leaves *w
 * empty and sets err to "PATH: task NAME[, phase P][, event E]: reason".
 */
int workload_load_file(const char *path, struct workload *w, struct gb_err *err);

/* Same, from memory; name is used in messages in place of the file name. */
int workload_load_string(const char *text, size_t len, const char *name, struct workload *w,
			 struct gb_err *err);

/* Frees what a successful load allocated; safe on a zeroed or already freed workload. */
void workload_free(struct workload *w);

/*
 * Checks that w can run on model m: every CPU in an affinity mask (task or phase) and the
 * calibration CPU exist in m.  Returns 0 or -EINVAL with "NAME: task T[, phase P]: reason".
 */
int workload_check_model(const struct workload *w, const struct em_model *m, struct gb_err *err);

/*
 * The first task that never exits (its loop, or a loop of one of its phases, is
 * WL_LOOP_FOREVER), or NULL when every task ends after a finite number of loops.  A workload
 * without a global duration whose tasks all end runs until the last one has exited.
 */
const struct wl_task *workload_forever_task(const struct workload *w);

/* "run", "timer", ...; and "SCHED_OTHER", ... */
const char *wl_event_type_name(enum wl_event_type type);
const char *wl_policy_name(enum wl_policy policy);

#endif
