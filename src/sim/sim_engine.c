// SPDX-License-Identifier: GPL-2.0-only
/*
 * sim_engine.c - the discrete-event loop.
 *
 * State changes only at events: a task's run completes (its remaining work divided by the
 * perf of its domain's OPP), a sleep or timer expires, a woken CPU finishes leaving its idle
 * state, a domain's OPP transition completes or its DVFS rate limit expires, the tick (rotation
 * of runnable tasks, over-utilization, misfit), a trace sample.  Between two events everything is
 * constant, so time jumps to the next event and energy, PELT signals and counters are integrated
 * exactly over the gap.  Ties are broken by a fixed order (DVFS, completions by CPU id, wake-ups by
 * task id, tick), which with integer arithmetic makes a run reproducible bit for bit.
 *
 * Power (docs/em-profile.md): each running CPU draws its OPP's power_uw.  With idle_states in
 * the model, idle CPUs draw their idle state's power and the domain its static power unless its
 * cluster is down (sim_physics.c, which also holds the governor and the migration cost);
 * without, the domain draws its idle_power_uw all the time, the same for every placement.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "sim_internal.h"

/* sched_prio_to_weight[]: nice -20..19; each step is about 1.25x (10% of CPU time). */
static u32 nice_weight(s32 nice)
{
	static const u32 w[40] = {
	    88761, 71755, 56483, 46273, 36291, 29154, 23254, 18705, 14949, 11916,
	    9548,  7620,  6100,	 4904,	3906,  3121,  2501,  1991,  1586,  1277,
	    1024,  820,	  655,	 526,	423,   335,   272,   215,   172,   137,
	    110,   87,	  70,	 56,	45,    36,    29,    23,    18,	   15,
	};

	return w[(nice < -20 ? -20 : nice > 19 ? 19 : nice) + 20];
}

static void queue_push(struct sim *s, struct sim_task *t, u32 cpu)
{
	struct sim_cpu *c = &s->cpus[cpu];

	t->next = -1;
	t->state = TS_QUEUED;
	t->queued_us = s->now_us;
	if (c->tail >= 0)
		s->tasks[c->tail].next = (s32)t->id;
	else
		c->head = (s32)t->id;
	c->tail = (s32)t->id;
	c->nr_queued++;
}

/* A task preempted by an RT task goes back to the head: it was running, not waiting. */
static void queue_push_head(struct sim *s, struct sim_task *t, u32 cpu)
{
	struct sim_cpu *c = &s->cpus[cpu];

	t->state = TS_QUEUED;
	t->queued_us = s->now_us;
	t->next = c->head;
	c->head = (s32)t->id;
	if (c->tail < 0)
		c->tail = (s32)t->id;
	c->nr_queued++;
}

/* Does a run before b on one CPU?  RT before fair, higher RT priority first, then the lower
 * vruntime; equals keep their queue order (FIFO). */
static bool runs_before(const struct sim_task *a, const struct sim_task *b)
{
	if (a->rt != b->rt)
		return a->rt;
	if (a->rt)
		return a->rt_prio > b->rt_prio;
	return a->vruntime < b->vruntime;
}

/* The waiting task cpu runs next, -1 if none. */
static s32 queue_best(const struct sim *s, u32 cpu)
{
	s32 best = -1;

	for (s32 i = s->cpus[cpu].head; i >= 0; i = s->tasks[i].next)
		if (best < 0 || runs_before(&s->tasks[i], &s->tasks[best]))
			best = i;
	return best;
}

/* The CPU's min_vruntime (CFS): the lowest vruntime of its fair tasks, never going back. */
static u64 cpu_min_vruntime(struct sim *s, u32 cpu)
{
	struct sim_cpu *c = &s->cpus[cpu];
	u64 lo = ~0ull;

	if (c->curr >= 0 && !s->tasks[c->curr].rt)
		lo = s->tasks[c->curr].vruntime;
	for (s32 i = c->head; i >= 0; i = s->tasks[i].next)
		if (!s->tasks[i].rt && s->tasks[i].vruntime < lo)
			lo = s->tasks[i].vruntime;
	if (lo != ~0ull && lo > c->min_vruntime)
		c->min_vruntime = lo;
	return c->min_vruntime;
}

/* A fair task leaves cpu (sleep or migration): keep its lag, bounded to one tick either way
 * (EEVDF keeps lag across sleep and migration; the bound stands in for its limits). */
static void fair_leave(struct sim *s, struct sim_task *t, u32 cpu, bool sleep)
{
	s64 bound = (s64)(s->opt.tick_us << 10);
	s64 lag;

	if (t->rt)
		return;
	lag = (s64)t->vruntime - (s64)cpu_min_vruntime(s, cpu);
	if (lag > bound)
		lag = bound;
	if (lag < -bound)
		lag = -bound;
	/* a sleeper keeps no positive lag: it wakes no later than the CPU's floor */
	t->lag = sleep && lag > 0 ? 0 : lag;
}

/* A fair task's slice: its own (sched_attr.sched_runtime, the workload's slice_us) when it
 * set one, else sysctl_sched_base_slice. */
static u64 fair_slice_us(const struct sim_task *t)
{
	return t->wt->sched.slice_us ? t->wt->sched.slice_us : SIM_BASE_SLICE_US;
}

/* EEVDF's update_deadline(): the request of one slice of weighted time from vruntime
 * (deadline = vruntime + slice x 1024 / weight), renewed once the task has run past it. */
static u64 fair_deadline(struct sim_task *t)
{
	if (t->vruntime >= t->deadline)
		t->deadline = t->vruntime + (fair_slice_us(t) << 20) / t->weight;
	return t->deadline;
}

static void fair_join(struct sim *s, struct sim_task *t, u32 cpu)
{
	if (t->rt)
		return;
	t->vruntime = (u64)((s64)cpu_min_vruntime(s, cpu) + t->lag);
	t->deadline = 0;
	fair_deadline(t);
}

/*
 * Wake-up preemption of a fair task by a fair task (EEVDF's check_preempt_wakeup_fair): the
 * woken task runs at once when it is eligible (no positive lag: a sleeper) and its virtual
 * deadline is earlier than the running task's.  A short slice of a heavy weight (nice -10
 * audio) has an earlier deadline than a nice 0 hog's; equal weights rarely preempt.
 */
static bool fair_preempts(struct sim *s, struct sim_task *t, struct sim_task *cur, u32 cpu)
{
	if (t->rt || cur->rt)
		return false;
	return t->vruntime <= cpu_min_vruntime(s, cpu) && fair_deadline(t) < fair_deadline(cur);
}

static void queue_remove(struct sim *s, struct sim_task *t, u32 cpu)
{
	struct sim_cpu *c = &s->cpus[cpu];
	s32 prev = -1;

	for (s32 i = c->head; i >= 0; prev = i, i = s->tasks[i].next) {
		if (i != (s32)t->id)
			continue;
		if (prev >= 0)
			s->tasks[prev].next = t->next;
		else
			c->head = t->next;
		if (c->tail == i)
			c->tail = prev;
		c->nr_queued--;
		return;
	}
}

/* t joins cpu: runs at once when the CPU is idle or runs something t preempts (an RT task
 * preempts fair tasks and lower RT priorities; a fair one, see fair_preempts()), else waits. */
static void enqueue(struct sim *s, struct sim_task *t, u32 cpu)
{
	s32 cur = s->cpus[cpu].curr;

	fair_join(s, t, cpu);
	t->cpu = (s32)cpu;
	if (cur < 0) {
		sim_start_running(s, t, cpu);
	} else if (t->rt && !s->tasks[cur].rt && s->scx.on) {
		/* sched_ext runs below the RT class: its task goes back to its local DSQ */
		s->tasks[cur].st.preemptions++;
		sim_scx_preempted(s, &s->tasks[cur], cpu);
		sim_start_running(s, t, cpu);
	} else if ((t->rt && runs_before(t, &s->tasks[cur])) ||
		   fair_preempts(s, t, &s->tasks[cur], cpu)) {
		s->tasks[cur].st.preemptions++;
		queue_push_head(s, &s->tasks[cur], cpu);
		sim_start_running(s, t, cpu);
	} else {
		queue_push(s, t, cpu);
	}
}

/* pull_rt_task(): an idle CPU takes the highest waiting RT task it may run, whatever the
 * fair policy says about balancing. */
static bool rt_pull(struct sim *s, u32 dst)
{
	struct sim_task *best = NULL;

	for (u32 c = 0; c < s->m->nr_cpus; c++) {
		if (c == dst)
			continue;
		for (s32 i = s->cpus[c].head; i >= 0; i = s->tasks[i].next) {
			struct sim_task *t = &s->tasks[i];

			if (t->rt && em_cpumask_test(&t->allowed, dst) &&
			    (!best || t->rt_prio > best->rt_prio))
				best = t;
		}
	}
	if (!best)
		return false;
	sim_migrate(s, best, dst, GB_REASON_BALANCE, 0);
	return true;
}

/* An idle CPU takes the first waiting task it may (affinity, then the policy's may_pull) from
 * the CPU with the longest queue. */
static bool idle_pull(struct sim *s, u32 dst)
{
	s32 src = -1;

	if (rt_pull(s, dst))
		return true;

	for (u32 c = 0; c < s->m->nr_cpus; c++)
		if (c != dst && s->cpus[c].nr_queued &&
		    (src < 0 || s->cpus[c].nr_queued > s->cpus[src].nr_queued))
			src = (s32)c;
	if (src < 0)
		return false;
	for (s32 i = s->cpus[src].head; i >= 0; i = s->tasks[i].next) {
		struct sim_task *t = &s->tasks[i];

		if (em_cpumask_test(&t->allowed, dst) && s->ops->may_pull(s, dst, (u32)src, t)) {
			sim_migrate(s, t, dst, GB_REASON_IDLE_PULL, 0);
			return true;
		}
	}
	return false;
}

/* cpu's running task left it: run the next waiting one, or pull, or go idle. */
static void pick_next(struct sim *s, u32 cpu)
{
	struct sim_cpu *c = &s->cpus[cpu];

	c->curr = -1;
	if (c->head >= 0) {
		struct sim_task *n = &s->tasks[queue_best(s, cpu)];

		queue_remove(s, n, cpu);
		sim_start_running(s, n, cpu);
		return;
	}
	if (s->scx.on) {
		/* the RT class first (its waiting tasks, then pull_rt_task), then sched_ext */
		if (!rt_pull(s, cpu))
			sim_scx_pick(s, cpu);
		return;
	}
	idle_pull(s, cpu);
	if (c->curr < 0)
		sim_idle_enter(s, cpu);
}

void sim_migrate(struct sim *s, struct sim_task *t, u32 cpu, u32 reason, s64 delta)
{
	s32 from = t->cpu;

	if (from == (s32)cpu)
		return;
	sim_migration_cost(s, t, from, cpu);
	if (from >= 0)
		fair_leave(s, t, (u32)from, false);
	if (t->state == TS_RUNNING) {
		t->last_ran_us = s->now_us;
		t->ran_once = 1;
		t->cpu = (s32)cpu;
		t->state = TS_QUEUED; /* off the CPU before pick_next looks at it */
		pick_next(s, (u32)from);
	} else if (t->state == TS_QUEUED) {
		queue_remove(s, t, (u32)from);
	}
	sim_count_migration(s, t, from, cpu);
	if (reason == GB_REASON_CAPACITY_MISFIT && from >= 0)
		t->misfit_from_cap = sim_cpu_capacity(s, (u32)from);
	if (reason == GB_REASON_CAPACITY_MISFIT || reason == GB_REASON_POWER_MISFIT)
		s->misfit_moves++;
	sim_trace_decision(s, t, from, (s32)cpu, reason, delta);
	enqueue(s, t, cpu);
}

/* The priority level an RT task sees on cpu (cpupri): idle 0, fair 1, RT 1 + priority. */
static u32 cpu_prio_level(const struct sim *s, u32 cpu)
{
	s32 cur = s->cpus[cpu].curr;

	if (cur < 0)
		return 0;
	return s->tasks[cur].rt ? 1 + s->tasks[cur].rt_prio : 1;
}

/* rt_task_fits_capacity(): the clamped uclamp_min fits the CPU's capacity. */
static bool rt_fits(const struct sim *s, const struct sim_task *t, u32 cpu)
{
	return gb_min(t->uclamp_min, t->uclamp_max) <= sim_cpu_capacity(s, cpu);
}

/*
 * The RT class's placement, the same under every policy (sched_ext schedules fair tasks only;
 * RT tasks stay with the RT class): select_task_rq_rt() keeps the previous CPU when the task
 * can preempt what runs there and fits its capacity; else cpupri_find_fitness(): among allowed
 * CPUs running something of lower priority, the lowest priority level that has a CPU whose
 * capacity fits uclamp_min (RT tasks default to uclamp_min 1024: the biggest CPUs), else the
 * lowest level ignoring capacity; the previous CPU when it is in that set, else the first.
 * With nothing to preempt anywhere it stays where it was.
 */
static s32 rt_select(struct sim *s, struct sim_task *t)
{
	u32 level = 1 + t->rt_prio, best_fit = ~0u, best_any = ~0u;
	s32 fit = -1, any = -1, prev = t->cpu;

	if (prev >= 0 && em_cpumask_test(&t->allowed, (u32)prev) &&
	    s->m->cpu_domain[prev] != 0xff && cpu_prio_level(s, (u32)prev) < level &&
	    rt_fits(s, t, (u32)prev))
		return prev;
	for (u32 c = 0; c < s->m->nr_cpus; c++) {
		u32 l;

		if (!em_cpumask_test(&t->allowed, c) || s->m->cpu_domain[c] == 0xff)
			continue;
		l = cpu_prio_level(s, c);
		if (l >= level)
			continue;
		if (rt_fits(s, t, c) && (l < best_fit || (l == best_fit && (s32)c == prev))) {
			best_fit = l;
			fit = (s32)c;
		}
		if (l < best_any || (l == best_any && (s32)c == prev)) {
			best_any = l;
			any = (s32)c;
		}
	}
	if (fit >= 0)
		return fit;
	if (any >= 0)
		return any;
	return prev >= 0 && em_cpumask_test(&t->allowed, (u32)prev) ? prev
								    : sim_first_allowed(s, t);
}

/* post_init_entity_util_avg(): a new task starts with half of its CPU's spare capacity. */
static void post_init_util(struct sim *s, struct sim_task *t, u32 cpu)
{
	u32 cap = sim_cpu_capacity(s, cpu), util = s->gcpu[cpu].util;
	u32 init = cap > util ? (cap - util) / 2 : 0;
	u32 divider = GB_LOAD_AVG_MAX - GB_PELT_PERIOD_US + t->pelt.period_contrib;

	t->pelt.util_avg = t->pelt.runnable_avg = init;
	t->pelt.util_sum = t->pelt.runnable_sum = (u64)init * divider;
}

/* The task needs a CPU after sleeping, blocking or being created: the policy places it. */
static void place(struct sim *s, struct sim_task *t)
{
	bool fork = t->cpu < 0;
	u32 reason = GB_REASON_NONE;
	s64 delta = 0;
	s32 cpu, prev_curr;

	if (s->scx.on && !t->rt) {
		/* the sched_ext host: select_cpu (which logs its decision), then the wake-up */
		cpu = sim_scx_select(s, t, fork);
		if (fork)
			t->cpu = cpu;
		else
			sim_set_task_cpu(s, t, (u32)cpu);
		if (fork)
			post_init_util(s, t, (u32)cpu);
		t->runnable_since_us = s->now_us;
		t->woke_us = s->now_us;
		s->wakeups++;
		sim_scx_enqueue_woken(s, t, (u32)cpu);
		return;
	}
	sim_refresh(s);
	if (t->rt) {
		cpu = rt_select(s, t);
		reason = GB_REASON_BALANCE;
	} else {
		cpu = s->ops->select(s, t, fork, &reason, &delta);
		s->decisions++;
	}
	if (cpu < 0 || !em_cpumask_test(&t->allowed, (u32)cpu))
		cpu = sim_first_allowed(s, t); /* a policy bug must not break affinity */
	if (fork || cpu != t->cpu) {
		if (!fork) {
			sim_count_migration(s, t, t->cpu, (u32)cpu);
			sim_migration_cost(s, t, t->cpu, (u32)cpu);
		}
		sim_trace_decision(s, t, t->cpu, cpu, fork ? GB_REASON_FORK : reason, delta);
	}
	if (fork)
		post_init_util(s, t, (u32)cpu);
	t->runnable_since_us = s->now_us;
	t->woke_us = s->now_us;
	s->wakeups++;
	prev_curr = s->cpus[cpu].curr;
	enqueue(s, t, (u32)cpu);
	if (s->ops->enqueued)
		s->ops->enqueued(s, t, (u32)cpu, fork,
				 prev_curr >= 0 && s->cpus[cpu].curr != prev_curr ? prev_curr : -1);
}

static void after_prog_offcpu(struct sim *s, struct sim_task *t, enum sim_prog r)
{
	switch (r) {
	case PROG_CPU:
		t->yield_pending = 0;
		place(s, t);
		break;
	case PROG_SLEEP:
		t->state = TS_SLEEP;
		break;
	case PROG_BLOCK:
		t->state = TS_BLOCKED;
		break;
	case PROG_DONE:
		t->state = TS_DONE;
		break;
	case PROG_WAKE: /* never: prog_run() does the wake-ups and goes on */
		break;
	}
}

static void wake(struct sim *s, struct sim_task *t);

/* Runs t's program to what it needs next, waking the tasks its events release on the way. */
static enum sim_prog prog_run(struct sim *s, struct sim_task *t)
{
	struct sim_prog_run run = {0};
	enum sim_prog r;

	while ((r = sim_prog_step(s, t, &run)) == PROG_WAKE) {
		/* every task blocked on (kind, ref), in task order so that runs are reproducible */
		for (u32 i = 0; i < s->nr_tasks; i++) {
			struct sim_task *o = &s->tasks[i];

			if (o->state == TS_BLOCKED && o->block_kind == run.wake_kind &&
			    o->block_ref == run.wake_ref) {
				o->ev++;
				wake(s, o);
			}
		}
	}
	return r;
}

/* A sleeping or blocked task whose event completed continues its program (may need a CPU). */
static void wake(struct sim *s, struct sim_task *t)
{
	after_prog_offcpu(s, t, prog_run(s, t));
}

/* The running task on cpu finished its event: continue its program. */
static void complete(struct sim *s, u32 cpu)
{
	struct sim_task *t = &s->tasks[s->cpus[cpu].curr];
	enum sim_prog r;

	t->ev++;
	r = prog_run(s, t);
	if (r == PROG_CPU && s->scx.on && !t->rt) {
		if (!em_cpumask_test(&t->allowed, cpu))
			sim_scx_affinity(s, t, cpu);
		else if (t->yield_pending)
			sim_scx_yield(s, t, cpu);
		t->yield_pending = 0;
		return;
	}
	if (r == PROG_CPU) {
		if (!em_cpumask_test(&t->allowed, cpu)) {
			u32 reason;
			s64 delta;
			s32 to;

			sim_refresh(s);
			reason = GB_REASON_AFFINITY;
			delta = 0;
			to = t->rt ? rt_select(s, t) : s->ops->select(s, t, false, &reason, &delta);
			if (to < 0 || !em_cpumask_test(&t->allowed, (u32)to))
				to = sim_first_allowed(s, t);
			sim_migrate(s, t, (u32)to, GB_REASON_AFFINITY, delta);
		} else if (t->yield_pending && s->cpus[cpu].nr_queued) {
			t->yield_pending = 0;
			pick_next(s, cpu);
			queue_push(s, t, cpu);
		}
		t->yield_pending = 0;
		return;
	}
	gb_util_est_dequeue(&t->pelt);
	if (s->scx.on && !t->rt)
		sim_scx_sleep(s, t, cpu);
	else
		fair_leave(s, t, cpu, true);
	t->last_ran_us = s->now_us;
	t->ran_once = 1;
	t->state = TS_SLEEP; /* off the CPU before the next one is picked */
	pick_next(s, cpu);
	after_prog_offcpu(s, t, r);
}

static void advance(struct sim *s, u64 to_us)
{
	u64 dt = to_us - s->now_us;
	bool any_ou = false;

	for (u32 c = 0; c < s->m->nr_cpus; c++) {
		u32 d = s->m->cpu_domain[c];
		const struct em_domain *pd;
		struct sim_cpu *sc = &s->cpus[c];

		if (d == 0xff)
			continue;
		pd = &s->m->domains[d];
		if (sc->curr >= 0) {
			struct sim_task *t = &s->tasks[sc->curr];
			u64 perf = pd->opps[s->doms[d].opp].perf, w;

			sc->busy_us += dt;
			/* a CPU still leaving its idle state is powered but runs nothing yet
			 * (ready_us is an event, so the gap is all one or the other) */
			if (sc->ready_us > s->now_us)
				continue;
			/* work done: a task refilling its caches after a move does less */
			w = sim_work_done(t, perf, dt);
			t->st.run_us[d] += dt;
			t->st.work_perf_us += w;
			if (!t->rt)
				t->vruntime += (dt << 20) / t->weight;
			if (s->scx.on && !t->rt) {
				t->x.ran_ns += dt * 1000;
				t->x.perf_ns += dt * 1000 * perf;
			}
			if (!t->run_end_us)
				t->work_left -= t->work_left < w ? t->work_left : w;
		}
	}
	for (u32 d = 0; d < s->m->nr_domains; d++) {
		s->doms[d].energy_puj += sim_domain_energy_puj(s, d, dt);
		s->doms[d].freq_khz_us += (u64)s->m->domains[d].opps[s->doms[d].opp].freq_khz * dt;
		if (s->doms[d].ou) {
			s->doms[d].ou_us += dt;
			any_ou = true;
		}
	}
	if (s->ops->root_overutilized ? s->rd_overutilized : any_ou)
		s->ou_any_us += dt;
	sim_pelt_advance(s, to_us);
	s->now_us = to_us;
}

static u64 next_event(const struct sim *s, u64 next_tick)
{
	u64 next = s->end_us < next_tick ? s->end_us : next_tick;

	/* trace samples are not events: an event changes what the policy sees and when the
	 * frequency is re-evaluated, so a sample must not be one (sim_trace_samples_until) */
	for (u32 i = 0; i < s->nr_tasks; i++) {
		const struct sim_task *t = &s->tasks[i];

		if ((t->state == TS_SLEEP || t->state == TS_DELAY) && t->wake_at_us < next)
			next = t->wake_at_us;
	}
	for (u32 c = 0; c < s->m->nr_cpus; c++) {
		const struct sim_task *t;
		u64 at;

		if (s->cpus[c].curr < 0)
			continue;
		t = &s->tasks[s->cpus[c].curr];
		if (s->cpus[c].ready_us > s->now_us)
			at = s->cpus[c].ready_us;
		else if (t->run_end_us)
			at = t->run_end_us > s->now_us ? t->run_end_us : s->now_us;
		else
			at = s->now_us + sim_time_to_finish_us(t, sim_cpu_perf(s, c));
		if (at < next)
			next = at;
	}
	return sim_dvfs_next_event(s, next);
}

/*
 * At the tick, does cpu's running task give way?  A fair task that has run a full tick and its
 * slice (EEVDF reschedules only once the request is used up: a task with a long custom slice
 * runs it out) gives way to a waiting fair task of lower vruntime (so CPU time goes by weight:
 * nice 0 against nice 10 runs about 9 ticks to 1); SCHED_RR gives way to an equal priority
 * after its slice;
 * SCHED_FIFO runs until it blocks.  RT tasks are not throttled (no rt_runtime limit).
 */
static bool should_rotate(struct sim *s, u32 cpu)
{
	const struct sim_task *cur = &s->tasks[s->cpus[cpu].curr];
	s32 n = queue_best(s, cpu);
	u64 ran = s->now_us - cur->stint_us;

	if (n < 0)
		return false;
	if (cur->rt)
		return cur->rr && ran >= SIM_RR_SLICE_US && s->tasks[n].rt &&
		       s->tasks[n].rt_prio == cur->rt_prio;
	return ran >= s->opt.tick_us && ran >= fair_slice_us(cur) && runs_before(&s->tasks[n], cur);
}

static void tick(struct sim *s)
{
	bool ou = false;

	if (s->ops->pull_before_rotation && !s->scx.on)
		for (u32 c = 0; c < s->m->nr_cpus; c++)
			if (s->cpus[c].curr < 0 && s->m->cpu_domain[c] != 0xff)
				idle_pull(s, c);
	for (u32 c = 0; c < s->m->nr_cpus; c++) {
		struct sim_cpu *sc = &s->cpus[c];

		if (sc->curr >= 0 && sc->nr_queued && should_rotate(s, c)) {
			struct sim_task *t = &s->tasks[sc->curr];

			pick_next(s, c);
			t->st.preemptions++;
			queue_push(s, t, c);
		}
	}
	sim_refresh(s);
	for (u32 d = 0; d < s->m->nr_domains; d++)
		ou |= gb_domain_overutilized(s->m, s->gcpu, d);
	if (!s->ops->root_overutilized)
		s->rd_overutilized = ou;
	if (s->scx.on)
		sim_scx_tick(s);
	else if (s->ops->tick)
		s->ops->tick(s);
	/* sched_ext's idle CPUs take work at dispatch, not here: only the RT class pulls */
	for (u32 c = 0; c < s->m->nr_cpus; c++)
		if (s->cpus[c].curr < 0 && s->m->cpu_domain[c] != 0xff)
			s->scx.on ? (void)rt_pull(s, c) : (void)idle_pull(s, c);
}

static int sim_init(struct sim *s, const struct em_profile *prof, const struct workload *w,
		    const struct sim_policy_ops *ops, const struct sim_options *opt,
		    struct gb_err *err)
{
	s->prof = prof;
	s->m = &prof->model;
	s->w = w;
	s->opt = *opt;
	sim_options_defaults(&s->opt);
	s->policy = ops->id;
	s->ops = ops;
	s->end_us = opt->duration_us ? opt->duration_us : w->global.duration_us;
	if (!s->end_us) {
		const struct wl_task *forever = workload_forever_task(w);

		if (forever)
			return gb_err_set(err, EINVAL,
					  "%s: task %s loops forever (loop -1) and the "
					  "workload has no global duration: give --duration",
					  w->name, forever->name);
		s->until_done = true; /* until the last task exits (sim_prog_finished) */
		s->end_us = WL_MAX_DURATION_US;
	}
	s->pcal = w->global.calibration_cpu >= 0
		      ? sim_cpu_capacity(s, (u32)w->global.calibration_cpu)
		      : EM_CAPACITY_SCALE;
	for (u32 i = 0; i < w->nr_tasks; i++)
		if (w->tasks[i].sched.policy == WL_SCHED_DEADLINE)
			return gb_err_set(
			    err, EINVAL,
			    "%s: task %s: 'policy' SCHED_DEADLINE is not "
			    "simulated (SCHED_OTHER, SCHED_FIFO and SCHED_RR are; docs/sim.md)",
			    w->name, w->tasks[i].base);
	s->nr_tasks = w->nr_tasks;
	s->tasks = calloc(w->nr_tasks ? w->nr_tasks : 1, sizeof(*s->tasks));
	s->timer_next_us = calloc(w->nr_timers + 1, sizeof(u64));
	s->barrier_arrived = calloc(w->nr_barriers + 1, sizeof(u32));
	if (opt->trace)
		s->pelt_save = calloc(w->nr_tasks ? w->nr_tasks : 1, sizeof(*s->pelt_save));
	s->task_lat_hist = calloc((u64)sim_nr_report_tasks(s) * SIM_LAT_BUCKETS + 1, sizeof(u64));
	if (!s->tasks || !s->timer_next_us || !s->barrier_arrived || !s->task_lat_hist ||
	    (opt->trace && !s->pelt_save))
		return gb_err_set(err, ENOMEM, "out of memory");
	for (u32 c = 0; c < EM_MAX_CPUS; c++) {
		s->cpus[c].curr = s->cpus[c].head = s->cpus[c].tail = -1;
	}
	for (u32 d = 0; d < EM_MAX_DOMAINS; d++)
		s->doms[d].cluster_state = -1;
	for (u32 i = 0; i < w->nr_tasks; i++) {
		struct sim_task *t = &s->tasks[i];
		u64 jitter = 0;

		t->wt = &w->tasks[i];
		t->id = i;
		t->cpu = t->next = t->oracle_cpu = -1;
		t->state = TS_DELAY;
		t->rt = t->wt->sched.policy == WL_SCHED_FIFO || t->wt->sched.policy == WL_SCHED_RR;
		t->rr = t->wt->sched.policy == WL_SCHED_RR;
		t->rt_prio = t->rt ? t->wt->sched.rt_priority : 0;
		t->weight = nice_weight(t->wt->sched.nice);
		/* RT tasks run at the top OPP unless clamped:
		 * sysctl_sched_util_clamp_min_rt_default */
		t->uclamp_min = (t->wt->uclamp.set & WL_UCLAMP_MIN) || !t->rt ? t->wt->uclamp.min
									      : EM_CAPACITY_SCALE;
		t->uclamp_max =
		    t->wt->uclamp.set & WL_UCLAMP_MAX ? t->wt->uclamp.max : EM_CAPACITY_SCALE;
		if (opt->seed) {
			u64 x = (opt->seed + i + 1) * 0x9e3779b97f4a7c15ull;

			x ^= x >> 31;
			jitter = (x * 0xbf58476d1ce4e5b9ull >> 40) % 1000;
		}
		t->wake_at_us = t->wt->delay_us + jitter;
		snprintf(t->st.name, sizeof(t->st.name), "%s", t->wt->name);
	}
	s->next_sample_us = 0;
	if (s->ops->scx && s->opt.host == SIM_HOST_SCX)
		sim_scx_init(s);
	if (s->ops->prepare)
		return s->ops->prepare(s, err);
	return 0;
}

int sim_run_plan(const struct em_profile *prof, const struct workload *w,
		 const struct sim_policy_ops *ops, const struct sim_options *opt, const s32 *plan,
		 struct sim_result *res, struct gb_err *err)
{
	struct sim *s = calloc(1, sizeof(*s));
	u64 next_tick, same = 0, last = ~0ull;
	int ret;

	if (!s)
		return gb_err_set(err, ENOMEM, "out of memory");
	s->plan = plan;
	ret = workload_check_model(w, &prof->model, err);
	if (!ret)
		ret = sim_init(s, prof, w, ops, opt, err);
	if (ret)
		goto out;
	next_tick = s->opt.tick_us;
	/* every CPU starts idle, in the state its (lack of) timers predicts */
	for (u32 c = 0; c < s->m->nr_cpus; c++)
		if (s->m->cpu_domain[c] != 0xff)
			sim_idle_enter(s, c);
	if (s->opt.trace)
		sim_trace_hello(s);
	sim_refresh(s);
	sim_dvfs_update(s);
	while (s->now_us < s->end_us) {
		u64 at = next_event(s, next_tick);

		if (at == last && ++same > 100000) {
			ret = gb_err_set(err, ELOOP, "%s: no progress at t=%llu us", w->name,
					 (unsigned long long)at);
			goto out;
		} else if (at != last) {
			same = 0;
			last = at;
		}
		if (s->opt.trace)
			sim_trace_samples_until(s, at, false);
		advance(s, at);
		sim_refresh(s);
		sim_dvfs_update(s);
		for (u32 c = 0; c < s->m->nr_cpus; c++) {
			s32 cur = s->cpus[c].curr;

			if (cur >= 0 && (s->tasks[cur].run_end_us ? s->tasks[cur].run_end_us <= at
								  : !s->tasks[cur].work_left))
				complete(s, c);
		}
		for (u32 i = 0; i < s->nr_tasks; i++) {
			struct sim_task *t = &s->tasks[i];

			if (t->state == TS_DELAY && t->wake_at_us <= at) {
				wake(s, t);
			} else if (t->state == TS_SLEEP && t->wake_at_us <= at) {
				s32 armed = t->cpu;

				t->ev++;
				wake(s, t);
				if (armed >= 0)
					sim_idle_timer_fired(s, (u32)armed);
			}
		}
		if (at >= next_tick) {
			tick(s);
			next_tick += s->opt.tick_us;
		}
		sim_refresh(s);
		sim_dvfs_update(s);
		if (s->opt.trace)
			sim_trace_samples_until(s, at, true);
		if (s->until_done && (ret = sim_prog_finished(s, err)) != 0) {
			if (ret < 0)
				goto out;
			s->end_us = s->now_us;
			ret = 0;
		}
	}
	if (s->opt.trace)
		sim_trace_end(s);
	sim_collect_results(s, res);
out:
	free(s->tasks);
	free(s->pelt_save);
	free(s->task_lat_hist);
	free(s->timer_next_us);
	free(s->barrier_arrived);
	free(s);
	return ret;
}
