/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * gb_track.h - the per-task and per-CPU tracking both hosts do the same way: what a wake-up,
 * a stretch of run time, a sleep and an idle CPU do to the signals placement reads (PELT and
 * util_est of gb_pelt.h, virtual time of gb_vtime.h), and how a host turns its per-task state
 * (struct gb_tstate) into the gb_task a decision reads.
 *
 * Times are the host's clock in ns (now_ns) or us (now_us, PELT's unit), as each name says.
 */
#ifndef GEARBOX_GB_TRACK_H
#define GEARBOX_GB_TRACK_H

#include "gb_demand.h"
#include "gb_hold.h"
#include "gb_pelt.h"
#include "gb_pull_hold.h"
#include "gb_vtime.h"

/*
 * An idle CPU's utilization is decayed to now at most this often (us): a PELT update is two
 * divisions, and wake-ups of a busy pipe come every few microseconds; in 64 us an idle CPU's
 * utilization falls by less than 0.2% (the divider grows by 64 of its 46718..47742).
 */
#define GB_IDLE_DECAY_US 64

/* A new task: no history, no clamps, no hold, not yet in a domain (vdom beyond any). */
static __always_inline void gb_track_init(struct gb_tstate *ts)
{
	__builtin_memset(ts, 0, sizeof(*ts));
	ts->vdom = EM_MAX_DOMAINS;
	ts->uclamp_max = GB_UCLAMP_NONE_MAX;
	ts->queued_dom = GB_DEMAND_NONE;
	ts->queued_cpu = GB_DEMAND_NONE;
	gb_hold_init(&ts->hold);
	gb_pull_hold_init(&ts->pull);
}

/*
 * gb_track_fork - a new task's first utilization, given once, when it is first placed on cpu
 * (select_cpu's choice at the fork, or its first enqueue when it has one allowed CPU): half
 * the spare capacity of that CPU, cap (its domain's capacity) less cpu_util (gb_cpu.util), as
 * the kernel's post_init_entity_util_avg() starts a fair task when its CPU is idle.  Without
 * it a new task starts at 0 and its first activations ask for the lowest OPP of the smallest
 * CPU.  util_est stays 0 until it first sleeps; runnable starts as util, as in the kernel.
 */
static __always_inline void gb_track_fork(struct gb_tstate *ts, u32 cap, u32 cpu_util)
{
	u32 init = cap > cpu_util ? (cap - cpu_util) / 2 : 0;
	u32 divider = GB_LOAD_AVG_MAX - GB_PELT_PERIOD_US + ts->pelt.period_contrib;

	ts->pelt.util_avg = ts->pelt.runnable_avg = init;
	ts->pelt.util_sum = ts->pelt.runnable_sum = (u64)init * divider;
	ts->fork_util = init;
	ts->fork_us = ts->pelt.last_us;
}

/*
 * gb_track_task - the gb_task a decision about ts's task reads: its signals, its clamps, the
 * CPU it last ran or waits on (prev_cpu, GB_NO_CPU for a fork) and its affinity.  floor_cap is
 * 0: the caller sets it from the hold (gb_hold_wake at a wake-up, gb_hold_floor for a pull).
 */
static __always_inline void gb_track_task(const struct gb_tstate *ts, s32 prev_cpu,
					  const struct em_cpumask *allowed, struct gb_task *t)
{
	t->util = ts->pelt.util_avg;
	t->util_est = ts->pelt.util_est;
	t->runnable = ts->pelt.runnable_avg;
	t->uclamp_min = ts->uclamp_min;
	t->uclamp_max = ts->uclamp_max;
	t->prev_cpu = prev_cpu;
	t->floor_cap = 0;
	t->group = 0;	  /* GB_GROUP_OFF: the host sets it for a wake-up (gb_group.h) */
	t->pull_held = 0; /* the host sets it for a wake-up (gb_pull_hold.h) */
	if (allowed != &t->allowed)
		t->allowed = *allowed;
}

/*
 * gb_track_enable - the task enters the scheduler on a CPU of domain d (>= nr_domains: none of
 * the model's): its vtime starts at that domain's clock (domain 0's without one).
 */
static __always_inline void gb_track_enable(struct gb_tstate *ts, u32 d, u32 nr_domains,
					    const u64 *dom_vtime)
{
	ts->vdom = d < nr_domains ? d : 0;
	ts->vtime = dom_vtime[ts->vdom & (EM_MAX_DOMAINS - 1)];
}

/*
 * gb_track_wake - the task wakes up at now_ns (what the kernel's runnable would note): its
 * utilization decays over the sleep, the tick's ran-without-waking clock restarts, and its
 * credit is limited to half a slice (slice_ns, the host's default, at perf: the perf_cur of the
 * CPU it last ran on) against its domain's clock, so that a sleeper cannot bank credit by
 * sleeping (also when it goes straight to an idle CPU and is never queued).
 */
static __always_inline void gb_track_wake(struct gb_tstate *ts, u64 now_ns, u32 nr_domains,
					  const u64 *dom_vtime, u64 slice_ns, u32 perf)
{
	gb_pelt_update(&ts->pelt, now_ns / 1000, 0, 0);
	ts->awake_ns = now_ns;
	ts->wake_idle = 0;
	if (ts->vdom < nr_domains)
		ts->vtime =
		    gb_vtime_limit_credit(ts->vtime, dom_vtime[ts->vdom & (EM_MAX_DOMAINS - 1)],
					  slice_ns, perf, ts->weight);
}

/*
 * gb_track_wake_idle - the wake-up put the task straight on an idle CPU (the host claimed it and
 * inserted the task into its local queue).  Until it runs, the task waits for that CPU to leave
 * its idle state, not for another task: the kernel enqueues such a task on its CPU once the CPU
 * has left the state (a remote wake-up of an idle CPU goes through its wake list, a timer's
 * interrupt comes after the exit), so the fair class's runnable_avg does not count the wait.
 * The first run's accounting (gb_track_ran) counts it as sleep, not as runnable: otherwise a
 * frequency request that reads runnable_avg (cpu_util_cfs_boost) takes the exit latency of a
 * deep idle state (1 ms and more on some SoCs) for contention at every wake-up.
 */
static __always_inline void gb_track_wake_idle(struct gb_tstate *ts)
{
	ts->wake_idle = 1;
}

/* How long (us) the task has run without waking up, as of now_ns: the tick's misfit clock. */
static __always_inline u64 gb_track_ran_us(const struct gb_tstate *ts, u64 now_ns)
{
	return (now_ns - ts->awake_ns) / 1000;
}

/*
 * gb_track_ran - the task ran ran_ns up to now_ns on the CPU whose state is c and cpu_pelt, at
 * perf (0..1024, the OPP its domain ran at): the task's PELT (since its last update until
 * now_ns - ran_ns it waited for a CPU: runnable, not running, so its utilization does not grow
 * for the wait; not runnable either after gb_track_wake_idle), the CPU's (idle, or running
 * someone else, until now_ns - ran_ns), the CPU's utilization as placement reads it, and the
 * task's vtime charge for the work done (gb_vtime_charge), also counted in the run under way
 * (run_vtime, until gb_queue_start ends it).
 */
static __always_inline void gb_track_ran(struct gb_tstate *ts, struct gb_pelt *cpu_pelt,
					 struct gb_cpu *c, u64 now_ns, u64 ran_ns, u32 perf)
{
	u64 charge, start_us, now_us = now_ns / 1000;
	bool task, cpu;

	if (ran_ns > now_ns)
		ran_ns = now_ns;
	start_us = (now_ns - ran_ns) / 1000;
	/* each signal's averages once, after both stretches: the first one's would be replaced;
	 * the wait for an idle CPU's exit is not runnable (gb_track_wake_idle) */
	task = gb_pelt_accumulate_two(&ts->pelt, start_us, now_us, ts->wake_idle ? 0 : perf, perf);
	ts->wake_idle = 0;
	if (task)
		gb_pelt_averages(&ts->pelt);
	cpu = gb_pelt_accumulate_two(cpu_pelt, start_us, now_us, 0, perf);
	if (cpu)
		gb_pelt_averages(cpu_pelt);
	c->util = cpu_pelt->util_avg;
	c->runnable = cpu_pelt->runnable_avg;
	c->perf_cur = perf;
	charge = gb_vtime_charge(ran_ns, perf, ts->weight);
	ts->vtime += charge;
	ts->run_vtime += charge;
}

/*
 * The task stops running and goes to sleep (the kernel's dequeue): util_est's sample.  At the
 * first sleep the sample leaves out what remains of the first utilization (gb_track_fork):
 * that was a guess, and util_est is meant to remember what the task measured.  The kernel
 * samples it whole: a housekeeping thread that runs 2.5 ms a second, forked onto an idle big
 * CPU of rk3399 (first utilization 512), kept a util_est above the little CPUs' capacity
 * (519, 401, 313, ... at its wake-ups, the ewma falling by a quarter a second) and woke the
 * big cluster every second for the 4 s of bench's idle_screen.  util_avg still carries the
 * guess until it decays, so a task waking soon after its first sleep is placed as before.
 */
static __always_inline void gb_track_sleep(struct gb_tstate *ts)
{
	u32 util = ts->pelt.util_avg, guess;

	if (!ts->fork_util) {
		gb_util_est_dequeue(&ts->pelt);
		return;
	}
	guess =
	    (u32)gb_pelt_decay(ts->fork_util, (ts->pelt.last_us - ts->fork_us) / GB_PELT_PERIOD_US);
	ts->fork_util = 0;
	gb_util_est_sample(&ts->pelt, util > guess ? util - guess : 0);
}

/*
 * ts's task holds CPU c (it starts running there, or runs on at a tick): the CPU is busy, its
 * clamps are the task's, and the frequency request counts the task's utilization there
 * (curr_util) whatever the CPU's own history.
 */
static __always_inline void gb_track_curr(struct gb_cpu *c, const struct gb_tstate *ts)
{
	c->idle = 0;
	c->nr_running = 1;
	c->curr_util = ts->pelt.util_avg;
	c->curr_runnable = ts->pelt.runnable_avg;
	c->uclamp_min = ts->uclamp_min;
	c->uclamp_max = ts->uclamp_max;
}

/* The task running on CPU c stops (it sleeps, gives way or is preempted): no task's
 * utilization is counted there until the next one starts (gb_track_curr), and no running
 * task's deadline is there for a waking task to preempt (gb_preempt_note). */
static __always_inline void gb_track_stop(struct gb_cpu *c)
{
	c->curr_util = 0;
	c->curr_runnable = 0;
	c->preemptible = 0;
}

/* CPU c is idle or busy as the host's idle state says: 1 running while busy, none idle (and
 * no running task's utilization). */
static __always_inline void gb_track_idle(struct gb_cpu *c, bool idle)
{
	c->idle = idle;
	c->nr_running = idle ? 0 : 1;
	if (idle) {
		c->curr_util = 0;
		c->curr_runnable = 0;
	}
}

/* Is an idle CPU's decay due, last run at decay_us (at most every GB_IDLE_DECAY_US)? */
static __always_inline bool gb_track_idle_decay_due(u64 decay_us, u64 now_us)
{
	return now_us - decay_us >= GB_IDLE_DECAY_US;
}

/*
 * gb_track_idle_decay - idle CPU c's utilization as of now_us.  Nothing runs there to account
 * it, so without this placement would see what its last task left, frozen for as long as the
 * CPU stays idle, where the kernel's CPU utilization decays.  Computed on a copy of the CPU's
 * signal (cpu_pelt is not changed: the CPU may be waking up right now), at most every
 * GB_IDLE_DECAY_US (*decay_us: when it last ran for this CPU).
 */
static __always_inline void gb_track_idle_decay(const struct gb_pelt *cpu_pelt, struct gb_cpu *c,
						u64 *decay_us, u64 now_us)
{
	struct gb_pelt pe;

	if (!gb_track_idle_decay_due(*decay_us, now_us))
		return;
	*decay_us = now_us;
	pe = *cpu_pelt;
	gb_pelt_update(&pe, now_us, 0, 0);
	c->util = pe.util_avg;
	c->runnable = pe.runnable_avg;
}

#endif /* GEARBOX_GB_TRACK_H */
