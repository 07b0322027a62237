/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * sim_internal.h - the simulator's state and the entries its files offer each other.  Not
 * exported.  Each file calls only those below it (tests/sim/test_sim_layers.sh fails on a
 * circle):
 *
 *   sim_report.c    the report of runs, tables and JSON (with sim_stats.c), from sim.h
 *   sim_run.c       the entry (sim.h): the policies by name, sim_run()
 *   sim_oracle.c    the oracle: plans static placements, runs each through the engine
 *   sim_policies.c  gearbox's placement and the reference policies: the engine calls them
 *                   through the struct sim_policy_ops it is handed, they move tasks with
 *                   sim_migrate()
 *   sim_engine.c    the event loop, the fair class's queues and the RT class
 *   sim_scx.c       the sched_ext host, entered by the engine for fair tasks
 *   sim_trace.c     the --trace stream
 *   sim_result.c    option defaults, a finished run's summary
 *   sim_program.c   a task's rt-app program
 *   sim_state.c     the state as every part reads it, the changes both hosts make
 *   sim_physics.c   idle states, the governor, energy, the cost of a move
 */
#ifndef GEARBOX_SIM_INTERNAL_H
#define GEARBOX_SIM_INTERNAL_H

#include <string.h>

#include "gb_pelt.h"
#include "gb_policy.h"
#include "sim.h"
#include "sim_scx.h"

#define SIM_LAT_BUCKETS	      6144 /* 1 us up to 2 ms, then 64 us buckets up to ~264 ms */
#define SIM_IDLE_HIST	      8	   /* idle periods kept per CPU (menu's INTERVALS) */
#define SIM_DVFS_LATENCY_US   1000 /* cpufreq's CPUFREQ_DEFAULT_TRANSITION_LATENCY_NS, in us */
#define SIM_MIGRATION_COST_US 500  /* sysctl_sched_migration_cost: how long a cache stays hot */

enum sim_task_state {
	TS_DELAY,   /* waiting for its start delay */
	TS_SLEEP,   /* sleeping until wake_at */
	TS_BLOCKED, /* suspend or barrier */
	TS_QUEUED,  /* runnable, waiting on its CPU */
	TS_RUNNING,
	TS_DONE,
};

struct sim_task {
	const struct wl_task *wt;
	u32 id;
	enum sim_task_state state;
	s32 cpu;  /* CPU it runs or waits on, or last ran on; -1 before first */
	s32 next; /* next in its CPU's queue */
	struct gb_pelt pelt;
	/* the capacity of the CPU its last capacity-misfit move took it off, until a migration
	 * undoes that move (sim_count_migration); 0: none */
	u32 misfit_from_cap;
	u32 uclamp_min, uclamp_max;
	struct em_cpumask allowed;
	/* program counter */
	u32 phase, ev;
	s64 phase_iter, task_iter;
	u64 iter_start_us;
	u64 work_left;	       /* RUN: perf x us still to do */
	u64 run_end_us;	       /* RUNTIME: end of the event; 0 for RUN */
	u64 wake_at_us;	       /* SLEEP / DELAY */
	u64 runnable_since_us; /* for wake-up latency; 0 when not measuring */
	u64 woke_us;	       /* last wake-up, for power-misfit push */
	u64 stint_us;	       /* start of the current time on the CPU */
	u64 queued_us;	       /* when it last joined its CPU's queue (TS_QUEUED) */
	u64 deadline_us;       /* current activation's end: its reference + period; 0 before one */
	u64 period_us;	       /* of the timer that set deadline_us */
	u32 misfit_cap;	       /* gearbox: capacity it was last moved off as a misfit, 0 none */
	u32 misfit_work;       /* gearbox: its demand (gb_task_work) at that move */
	/* scheduling class: fair (SCHED_OTHER, by nice) or RT (SCHED_FIFO/RR, by priority) */
	u32 weight;	/* fair: the load weight of its nice value, 1024 at nice 0 */
	u64 vruntime;	/* fair: run time x 1024 / weight, in 1/1024 us */
	s64 lag;	/* fair: vruntime - its CPU's min_vruntime when it left it */
	u64 deadline;	/* fair: virtual deadline of its slice (EEVDF), same unit */
	u32 rt_prio;	/* RT: 1..99, higher runs first; 0 for a fair task */
	u8 rt;		/* SCHED_FIFO or SCHED_RR: placed by the RT class */
	u8 rr;		/* SCHED_RR: rotated among equals every SIM_RR_SLICE_US */
	s32 oracle_cpu; /* the oracle's placement, -1 if none */
	u8 block_kind;	/* TS_BLOCKED on: 1 a suspend queue, 2 a barrier */
	u8 yield_pending;
	u8 iter_started; /* the current phase iteration's attributes are applied */
	u32 block_ref;
	/* migration cost (sim_physics.c) */
	u64 slow_us;	 /* running time left at half speed (cache refill after a move) */
	u64 last_ran_us; /* when it last left a CPU */
	u8 ran_once;
	struct sim_scx_task x; /* gearbox: its state on the sched_ext host (sim_scx.c) */
	struct sim_task_result st;
};

#define SIM_RR_SLICE_US	  100000 /* sched_rr_timeslice_ms */
#define SIM_BASE_SLICE_US 3000	 /* sysctl_sched_base_slice: 0.75 ms x (1 + ilog2(8 CPUs)) */

struct sim_cpu {
	s32 curr;	  /* running task, -1 idle */
	u64 min_vruntime; /* monotonic floor of its fair tasks' vruntime */
	s32 head, tail;	  /* queue of waiting tasks */
	u32 nr_queued;
	u32 last_uclamp_max; /* uclamp_max of the last task that ran, kept while idle */
	u64 busy_us;
	/* idle (sim_physics.c) */
	bool in_idle;	/* in an idle state: a task placed here pays its exit latency */
	u32 idle_state; /* index in the domain's idle_states.cpu[] */
	u64 idle_since_us;
	u64 ready_us; /* the running task makes progress from here (exit latency) */
	u32 idle_hist_us[SIM_IDLE_HIST]; /* the last idle periods, for the menu-like choice */
	u32 idle_hist_i, idle_hist_n;
};

struct sim_domain {
	u32 opp;	     /* index the domain runs at */
	u32 target;	     /* index the governor wants */
	bool requested;	     /* a request was made (last_request_us is valid) */
	u64 last_request_us; /* the rate limit runs from here */
	bool pending;	     /* a transition to pending_opp is under way */
	u32 pending_opp;
	u64 pending_at_us; /* when it takes effect */
	s32 cluster_state; /* index in idle_states.cluster[], -1 when up */
	u64 cluster_since_us;
	u64 energy_puj;	 /* pJ: uW x us */
	u64 freq_khz_us; /* integral of frequency over time */
	u64 ou_us;
	bool ou;
};

struct sim;

struct sim_policy_ops {
	const char *name;
	enum sim_policy_id id;
	/* where t goes at wake-up (fork: first placement); returns a CPU in t->allowed */
	s32 (*select)(struct sim *s, struct sim_task *t, bool fork, u32 *reason, s64 *delta);
	/* at each tick, after the engine's own work: misfit and push moves */
	void (*tick)(struct sim *s);
	/* after a wake-up's enqueue of t on cpu (fork: its first); preempted is the task that was
	 * running there and now waits, else -1 */
	void (*enqueued)(struct sim *s, struct sim_task *t, u32 cpu, bool fork, s32 preempted);
	/* the policy keeps rd_overutilized itself, as fair.c does (set at enqueue and tick, set or
	 * cleared by the root domain's load balance); else the engine sets it at every tick to
	 * whether any domain is over-utilized.  The report's over-utilized time is then the flag's
	 */
	bool root_overutilized;
	/* may an idle CPU dst pull t, waiting on src? */
	bool (*may_pull)(struct sim *s, u32 dst, u32 src, const struct sim_task *t);
	/* idle CPUs pull at the tick before the running tasks rotate, so that a task that waited
	 * the whole tick can be pulled rather than rotated in */
	bool pull_before_rotation;
	/* with sim_options.host SIM_HOST_SCX, fair tasks run on the sched_ext host (sim_scx.c)
	 * with scx_gearbox's callbacks rather than on the fair class's queues: select, tick and
	 * may_pull are then not called */
	bool scx;
	/* the policy sees the CPUs as scx_gearbox fills them (gb_types.h): nr_running 1 while a
	 * task runs and 0 when idle, the running task's clamps; else as the kernel's run queue
	 * (running and waiting tasks, their highest clamps) */
	bool scx_view;
	/* prepare (oracle search); may fail with err */
	int (*prepare)(struct sim *s, struct gb_err *err);
};

struct sim {
	const struct em_profile *prof;
	const struct em_model *m;
	const struct workload *w;
	struct sim_options opt;
	const struct sim_policy_ops *ops;
	enum sim_policy_id policy;
	u64 now_us, end_us;
	bool until_done;   /* no duration: the run ends when every task has exited */
	const s32 *plan;   /* oracle: the CPU of each task (sim_run_plan), else NULL */
	char warning[256]; /* the first warning (sim_result.warning) */
	u32 pcal;	   /* perf of the calibration CPU at its top OPP */
	u32 nr_tasks;
	struct sim_task *tasks;
	struct sim_cpu cpus[EM_MAX_CPUS];
	struct sim_domain doms[EM_MAX_DOMAINS];
	struct gb_cpu gcpu[EM_MAX_CPUS]; /* policy view, refreshed by sim_refresh() */
	struct gb_scratch scratch;
	u64 *timer_next_us; /* per timer: next activation, 0 = unset */
	u32 *barrier_arrived;
	bool rd_overutilized; /* the root domain's flag (mainline, rework) */
	u64 rd_balance_us;    /* last load balance at the root domain (mainline, rework) */
	u64 ou_any_us;
	u64 lat_hist[SIM_LAT_BUCKETS];
	u64 *task_lat_hist; /* the same per reported task (the first SIM_MAX_REPORT_TASKS) */
	u64 wakeups, decisions, migrations, migrations_across, misfit_moves;
	u64 misfit_moves_undone; /* sim_count_migration */
	u64 next_sample_us;
	struct gb_pelt *pelt_save; /* --trace: the tasks' PELT state kept across a sample */
	struct sim_scx scx;	   /* the sched_ext host, when ops->scx */
};

/* what a task needs after sim_prog_step() */
enum sim_prog {
	PROG_CPU,
	PROG_SLEEP,
	PROG_BLOCK,
	PROG_DONE,
	PROG_WAKE, /* the tasks blocked on (wake_kind, wake_ref) wake first, then the task goes on
		    */
};

/* One task's program at one instant, across the sim_prog_step() calls that its wake-ups of
 * other tasks split it into. */
struct sim_prog_run {
	u32 steps;    /* events gone through (bounded by the loop guard) */
	u8 wake_kind; /* PROG_WAKE: the block_kind and block_ref of the tasks to wake */
	u32 wake_ref;
};

/* Runs t's program from the event it is at (the program's module, sim_program.c, calls no other
 * part of the simulator: the engine does the wake-ups PROG_WAKE asks for, then calls again with
 * the same run). */
enum sim_prog sim_prog_step(struct sim *s, struct sim_task *t, struct sim_prog_run *run);
/* An until-done run: 1 when every task has exited, 0 while one can still go on, -EINVAL
 * (err set) when the tasks left all wait for each other (rt-app would never end). */
int sim_prog_finished(const struct sim *s, struct gb_err *err);
/* Has the phase a timer event (periodic work)? */
bool sim_phase_has_timer(const struct wl_phase *ph);

/* the policies' tables by id (sim_run.c) */
const struct sim_policy_ops *sim_policy_ops_of(enum sim_policy_id id);

/* One run under the policy of ops; under the oracle, plan gives each task's CPU (NULL for the
 * other policies). */
int sim_run_plan(const struct em_profile *prof, const struct workload *w,
		 const struct sim_policy_ops *ops, const struct sim_options *opt, const s32 *plan,
		 struct sim_result *res, struct gb_err *err);
/* The oracle (sim_oracle.c): plans static placements, runs them, keeps the best feasible. */
int sim_oracle_run(const struct em_profile *prof, const struct workload *w,
		   const struct sim_options *opt, struct sim_result *res, struct gb_err *err);

/* The task running on cpu if it is a fair task, the only kind the policies may move. */
static inline struct sim_task *sim_fair_curr(struct sim *s, u32 cpu)
{
	s32 cur = s->cpus[cpu].curr;

	return cur >= 0 && !s->tasks[cur].rt ? &s->tasks[cur] : NULL;
}
void sim_collect_results(const struct sim *s, struct sim_result *res);
/* the number of reported tasks of s, whose wake-up latencies are kept each (task_lat_hist) */
static inline u32 sim_nr_report_tasks(const struct sim *s)
{
	return s->nr_tasks < SIM_MAX_REPORT_TASKS ? s->nr_tasks : SIM_MAX_REPORT_TASKS;
}

/* the state (sim_state.c): what every part reads of it, and the changes both hosts make; calls
 * only the physics */
u32 sim_cpu_capacity(const struct sim *s, u32 cpu);
/* the perf of cpu's domain at its current OPP */
u32 sim_cpu_perf(const struct sim *s, u32 cpu);
/* the policy's view of the CPUs (s->gcpu) from the tasks and the host */
void sim_refresh(struct sim *s);
/* every task's PELT signals brought to to_us (running, waiting or sleeping since now) */
void sim_pelt_advance(struct sim *s, u64 to_us);
void sim_fill_task(const struct sim *s, const struct sim_task *t, struct gb_task *gt);
/* the first CPU of the model in t's affinity */
s32 sim_first_allowed(const struct sim *s, const struct sim_task *t);
/* the two changes both hosts make (the fair class's queues in sim_engine.c, sched_ext's in
 * sim_scx.c): t starts running on cpu (an idle CPU first leaves its idle state, the wake-up
 * latency is recorded); t's CPU becomes cpu (set_task_cpu: a migration when it had one and it
 * differs) */
void sim_start_running(struct sim *s, struct sim_task *t, u32 cpu);
void sim_set_task_cpu(struct sim *s, struct sim_task *t, u32 cpu);
void sim_count_migration(struct sim *s, struct sim_task *t, s32 from, u32 to);

/* engine services for the policies */
/* moves a running or queued task to cpu (migration, counted), logging a decision */
void sim_migrate(struct sim *s, struct sim_task *t, u32 cpu, u32 reason, s64 delta);
void sim_trace_decision(struct sim *s, const struct sim_task *t, s32 from, s32 to, u32 reason,
			s64 delta);

extern const struct sim_policy_ops sim_ops_gearbox, sim_ops_mainline, sim_ops_rework,
    sim_ops_performance, sim_ops_oracle;

/* the sched_ext host (sim_scx.c), entered by the engine for fair tasks when ops->scx */
void sim_scx_init(struct sim *s);
/* a fair task wakes up (or is new): select_cpu, then the engine places it on the returned CPU
 * (its migration, a new task's util) and calls sim_scx_enqueue_woken() */
s32 sim_scx_select(struct sim *s, struct sim_task *t, bool fork);
void sim_scx_enqueue_woken(struct sim *s, struct sim_task *t, u32 cpu);
/* cpu has nothing running (its task slept, left or was never there): balance and pick */
void sim_scx_pick(struct sim *s, u32 cpu);
/* cpu's running fair task t is preempted by an RT task: back to the head of its local DSQ */
void sim_scx_preempted(struct sim *s, struct sim_task *t, u32 cpu);
/* cpu's running fair task t goes to sleep (before the engine picks the next task) */
void sim_scx_sleep(struct sim *s, struct sim_task *t, u32 cpu);
/* cpu's running fair task t yields (sched_yield: its slice ends now) */
void sim_scx_yield(struct sim *s, struct sim_task *t, u32 cpu);
/* cpu's running fair task t may no longer run there: the kernel moves it to another CPU */
void sim_scx_affinity(struct sim *s, struct sim_task *t, u32 cpu);
/* the tick, on every CPU */
void sim_scx_tick(struct sim *s);

/* physics (sim_physics.c) */
bool sim_has_idle_states(const struct sim *s, u32 d);
/* cpu goes idle: picks its idle state (and its cluster's, when it is the last one up) */
void sim_idle_enter(struct sim *s, u32 cpu);
/* a task is placed on idle cpu: leaves the idle state, returns the exit latency in us */
u64 sim_idle_exit(struct sim *s, u32 cpu);
/* a timer armed on cpu fired (its task woke): an idle cpu wakes, then chooses its state again */
void sim_idle_timer_fired(struct sim *s, u32 cpu);
/* energy of domain d over [now, now + dt), in pJ; its power now, in uW */
u64 sim_domain_energy_puj(const struct sim *s, u32 d, u64 dt);
u64 sim_domain_power_uw(const struct sim *s, u32 d);
/* the governor: each domain's target, requests and OPP, from the policy view (s->gcpu, which
 * the caller refreshes first: sim_refresh) */
void sim_dvfs_update(struct sim *s);
/* the next DVFS event before next: a transition ending, a rate limit expiring */
u64 sim_dvfs_next_event(const struct sim *s, u64 next);
/* t moves from a CPU to to: a cache-hot task moved across domains runs slower for a while */
void sim_migration_cost(struct sim *s, struct sim_task *t, s32 from, u32 to);
/* work t does running dt us at perf (its migration slowdown used up first); the time it needs
 * to finish its work_left at perf */
u64 sim_work_done(struct sim_task *t, u64 perf, u64 dt);
u64 sim_time_to_finish_us(const struct sim_task *t, u64 perf);

/* trace records (sim_trace.c) */
void sim_trace_hello(struct sim *s);
/* samples due before at (inclusive when at_done: the event at at has been processed), each
 * showing the state at its own time without changing the run */
void sim_trace_samples_until(struct sim *s, u64 at, bool at_done);
void sim_trace_end(struct sim *s);

#endif /* GEARBOX_SIM_INTERNAL_H */
