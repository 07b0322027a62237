// SPDX-License-Identifier: GPL-2.0-only
/*
 * sim_state.c - the simulator's state (struct sim, sim_internal.h) as every part reads it: a
 * CPU's capacity and current perf, the policy's view of the CPUs (struct gb_cpu) and of a task
 * (struct gb_task), the tasks' PELT signals brought to a time, the first CPU a task may run on;
 * and the two changes both hosts make, a task starting to run on a CPU and a task changing CPU.
 *
 * The parts of the simulator call each other in one direction (tests/sim/test_sim_layers.sh
 * fails on a circle): the engine calls the program, the hosts (its own fair class, sim_scx.c),
 * the trace writer and this module; the policies call the engine; this module calls only the
 * physics (sim_physics.c: idle exit, the cost of a move), which calls no other part.
 */
#include "sim_internal.h"

u32 sim_cpu_capacity(const struct sim *s, u32 cpu)
{
	return em_domain_capacity(&s->m->domains[s->m->cpu_domain[cpu]]);
}

u32 sim_cpu_perf(const struct sim *s, u32 cpu)
{
	const struct em_domain *pd = &s->m->domains[s->m->cpu_domain[cpu]];

	return pd->opps[s->doms[s->m->cpu_domain[cpu]].opp].perf;
}

/* The CPUs as scx_gearbox fills them on the sched_ext host (sim_refresh's last step):
 * utilization from its own per-CPU signals, those of an idle CPU decayed to now
 * (gb_track_idle_decay), the running task's slice class (gb_note_curr), and the running task's
 * utilization and deadline as its callbacks noted them (gb_track_curr at select_cpu's direct
 * dispatch, running and the tick; gb_preempt_note at running and when dispatch keeps it;
 * gb_track_stop at stopping, gb_preempt_kicked at a preempting kick), each domain's queued
 * demand over its online CPUs (gb_demand_spread), and each CPU's waiting util (the tasks that
 * were on it when they joined a queue, gb_demand.h). */
static void scx_refresh(struct sim *s)
{
	for (u32 c = 0; c < s->m->nr_cpus; c++) {
		struct gb_cpu *g = &s->gcpu[c];
		s32 cur = s->cpus[c].curr;

		if (!g->online)
			continue;
		g->slice_long =
		    cur >= 0 &&
		    gb_slice_long((u64)s->tasks[cur].wt->sched.slice_us * 1000, SIM_SCX_SLICE_NS);
		g->util = s->scx.track_cpu[c].util;
		g->waiting_util = s->scx.cpu_wutil[c];
		g->runnable = s->scx.track_cpu[c].runnable;
		g->curr_util = s->scx.idle[c] ? 0 : s->scx.track_cpu[c].curr_util;
		g->curr_runnable = s->scx.idle[c] ? 0 : s->scx.track_cpu[c].curr_runnable;
		gb_preempt_curr(g, sim_preempt_mode(s->opt.wake_preempt));
		g->preemptible = s->scx.track_cpu[c].preemptible;
		g->curr_deadline = s->scx.track_cpu[c].curr_deadline;
		if (s->scx.idle[c]) {
			s->scx.decay_us[c] = 0;
			gb_track_idle_decay(&s->scx.cpu_pelt[c], g, &s->scx.decay_us[c], s->now_us);
		}
	}
	for (u32 d = 0; d < s->m->nr_domains; d++)
		gb_demand_spread(s->m, s->gcpu, d, s->scx.dom_qutil[d]);
}

void sim_refresh(struct sim *s)
{
	for (u32 c = 0; c < s->m->nr_cpus; c++) {
		struct gb_cpu *g = &s->gcpu[c];

		memset(g, 0, sizeof(*g));
		g->online = s->m->cpu_domain[c] != 0xff;
		/* the sched_ext host: the kernel's idle mask (a CPU a wake-up claimed is busy) */
		g->idle = s->scx.on ? s->scx.idle[c] : s->cpus[c].curr < 0;
		if (g->online)
			g->perf_cur = sim_cpu_perf(s, c);
	}
	for (u32 i = 0; i < s->nr_tasks; i++) {
		const struct sim_task *t = &s->tasks[i];
		struct gb_cpu *g;

		if (t->cpu < 0 || t->state == TS_DONE)
			continue;
		g = &s->gcpu[t->cpu];
		g->util += t->pelt.util_avg;
		g->runnable += t->pelt.runnable_avg;
		if (t->state == TS_RUNNING || t->state == TS_QUEUED) {
			g->nr_running++;
			g->uclamp_min = gb_max(g->uclamp_min, t->uclamp_min);
			g->uclamp_max = gb_max(g->uclamp_max, t->uclamp_max);
		}
	}
	for (u32 c = 0; c < s->m->nr_cpus; c++) {
		struct gb_cpu *g = &s->gcpu[c];
		s32 cur = s->cpus[c].curr;

		if (s->ops->scx_view) {
			/* the contract as scx_gearbox fills it (gb_types.h): busy or idle, the
			 * running task's clamps and utilization; tasks wait in queues, not on a
			 * CPU */
			g->nr_running = cur >= 0;
			g->uclamp_min = cur >= 0 ? s->tasks[cur].uclamp_min : 0;
			g->uclamp_max = cur >= 0 ? s->tasks[cur].uclamp_max : 0;
			g->curr_util = cur >= 0 ? s->tasks[cur].pelt.util_avg : 0;
		}
		if (!g->nr_running)
			g->uclamp_max = s->cpus[c].last_uclamp_max;
	}
	if (s->scx.on)
		scx_refresh(s);
}

void sim_fill_task(const struct sim *s, const struct sim_task *t, struct gb_task *gt)
{
	(void)s;
	gt->util = t->pelt.util_avg;
	gt->util_est = t->pelt.util_est;
	gt->runnable = t->pelt.runnable_avg;
	gt->uclamp_min = t->uclamp_min;
	gt->uclamp_max = t->uclamp_max;
	gt->prev_cpu = t->cpu;
	gt->floor_cap = 0;
	gt->group = GB_GROUP_OFF;
	gt->pull_held = 0;
	gt->allowed = t->allowed;
}

/* Every task's PELT signals brought to to_us (running, waiting or sleeping since now). */
void sim_pelt_advance(struct sim *s, u64 to_us)
{
	for (u32 i = 0; i < s->nr_tasks; i++) {
		struct sim_task *t = &s->tasks[i];
		u32 perf = t->cpu >= 0 ? sim_cpu_perf(s, (u32)t->cpu) : 0;

		/* on a CPU still leaving its idle state it is not yet enqueued: the kernel enqueues
		 * a task woken onto an idle CPU once that CPU has left the state (its wake list, or
		 * the timer's interrupt after the exit), so the wait is neither run nor runnable */
		if (t->state == TS_RUNNING && s->cpus[t->cpu].ready_us <= s->now_us)
			gb_pelt_update(&t->pelt, to_us, perf, perf);
		else if (t->state == TS_RUNNING)
			gb_pelt_update(&t->pelt, to_us, 0, 0);
		else if (t->state == TS_QUEUED)
			gb_pelt_update(&t->pelt, to_us, 0, perf);
		else
			gb_pelt_update(&t->pelt, to_us, 0, 0);
	}
}

/* The first CPU of the model in t's affinity (the loader checked that there is one). */
s32 sim_first_allowed(const struct sim *s, const struct sim_task *t)
{
	for (u32 c = 0; c < s->m->nr_cpus; c++)
		if (em_cpumask_test(&t->allowed, c) && s->m->cpu_domain[c] != 0xff)
			return (s32)c;
	return s->m->domains[0].first_cpu;
}

/* t waited lat_us from its wake-up to running: the run's histogram and its own. */
static void lat_record(struct sim *s, const struct sim_task *t, u64 lat_us)
{
	u64 b = lat_us < 2048 ? lat_us : 2048 + (lat_us - 2048) / 64;

	if (b >= SIM_LAT_BUCKETS)
		b = SIM_LAT_BUCKETS - 1;
	s->lat_hist[b]++;
	if (t->id < sim_nr_report_tasks(s))
		s->task_lat_hist[(u64)t->id * SIM_LAT_BUCKETS + b]++;
}

/* t runs on cpu; an idle CPU first leaves its idle state (ready_us: when t makes progress). */
void sim_start_running(struct sim *s, struct sim_task *t, u32 cpu)
{
	struct sim_cpu *c = &s->cpus[cpu];

	if (c->in_idle)
		c->ready_us = s->now_us + sim_idle_exit(s, cpu);
	c->curr = (s32)t->id;
	s->scx.idle[cpu] = false;
	t->state = TS_RUNNING;
	t->stint_us = s->now_us;
	c->last_uclamp_max = t->uclamp_max;
	if (t->runnable_since_us) {
		u64 at = c->ready_us > s->now_us ? c->ready_us : s->now_us;

		lat_record(s, t, at - t->runnable_since_us);
		t->runnable_since_us = 0;
	}
}

/* t moves from CPU from (-1: it had none) to CPU to: a migration, and one across domains when
 * it had a CPU in another domain. */
void sim_count_migration(struct sim *s, struct sim_task *t, s32 from, u32 to)
{
	u32 from_cap = t->misfit_from_cap;

	t->st.migrations++;
	s->migrations++;
	/* a move back to a CPU no bigger than the one a capacity-misfit move took t off, while
	 * its demand (the simulator's PELT, whatever the policy reads) still saturates that CPU,
	 * undoes the move; counted once per move, every policy alike */
	if (from_cap && from >= 0 && sim_cpu_capacity(s, to) <= from_cap) {
		if (gb_saturates(gb_max(t->pelt.util_avg, t->pelt.util_est), from_cap))
			s->misfit_moves_undone++;
		t->misfit_from_cap = 0;
	}
	if (from >= 0 && s->m->cpu_domain[from] != s->m->cpu_domain[to]) {
		t->st.migrations_across++;
		s->migrations_across++;
	}
}

/* t's CPU becomes cpu (set_task_cpu): a migration when it had one and it differs. */
void sim_set_task_cpu(struct sim *s, struct sim_task *t, u32 cpu)
{
	if (t->cpu >= 0 && t->cpu != (s32)cpu) {
		sim_count_migration(s, t, t->cpu, cpu);
		sim_migration_cost(s, t, t->cpu, cpu);
	}
	t->cpu = (s32)cpu;
}
