// SPDX-License-Identifier: GPL-2.0-only
/*
 * sim_program.c - runs a task's rt-app program: phases, loops and events, with rt-app's
 * semantics as workload.h states them.  sim_prog_step() starts the event the task is at and
 * returns what the task needs next: a CPU (run, runtime), time (sleep, timer), another task
 * (suspend, barrier), or nothing more (done).  Events that complete at once (a timer already
 * past, yield) are consumed in the same call.  A resume and the last arrival at a barrier wake
 * other tasks: the call returns PROG_WAKE, the engine wakes them (in task order, each woken
 * task's program run to what it needs next) and calls again to continue the waker.
 */
#include <errno.h>
#include <stdio.h>

#include "sim_internal.h"

/* Events one task may go through at one instant: a loop of events that all take no time
 * would otherwise never hand back. */
#define SIM_PROG_MAX_STEPS (1u << 20)

bool sim_phase_has_timer(const struct wl_phase *ph)
{
	for (u32 e = 0; e < ph->nr_events; e++)
		if (ph->events[e].type == WL_EV_TIMER)
			return true;
	return false;
}

/* Applies the attributes of a phase iteration's start; false when the task is finished. */
static bool prog_normalize(struct sim *s, struct sim_task *t)
{
	const struct wl_task *wt = t->wt;
	u32 empty = 0;

	for (;;) {
		const struct wl_phase *ph = &wt->phases[t->phase];

		if (t->ev == 0 && !t->iter_started) {
			t->iter_started = 1;
			t->iter_start_us = s->now_us;
			if (ph->cpus_all) {
				memset(&t->allowed, 0, sizeof(t->allowed));
				for (u32 c = 0; c < s->m->nr_cpus; c++)
					if (s->m->cpu_domain[c] != 0xff)
						em_cpumask_set(&t->allowed, c);
			} else {
				t->allowed = ph->cpus;
			}
			if (t->phase_iter == 0 && (ph->uclamp.set & WL_UCLAMP_MIN))
				t->uclamp_min = ph->uclamp.min;
			if (t->phase_iter == 0 && (ph->uclamp.set & WL_UCLAMP_MAX))
				t->uclamp_max = ph->uclamp.max;
		}
		if (t->ev < ph->nr_events)
			return true;
		if (++empty > 4096) /* phases without events looping forever */
			return false;
		t->ev = 0;
		t->iter_started = 0;
		t->phase_iter++;
		if (ph->loop != WL_LOOP_FOREVER && t->phase_iter >= ph->loop) {
			t->phase_iter = 0;
			if (++t->phase >= wt->nr_phases) {
				t->phase = 0;
				t->task_iter++;
				if (wt->loop != WL_LOOP_FOREVER && t->task_iter >= wt->loop)
					return false;
			}
			/* a phase without a timer next: the activation the last timer started
			 * is not run, the task left its periodic work (nothing overruns at the
			 * end, sim_result.c) */
			if (!sim_phase_has_timer(&wt->phases[t->phase]))
				t->deadline_us = 0;
		}
	}
}

enum sim_prog sim_prog_step(struct sim *s, struct sim_task *t, struct sim_prog_run *run)
{
	for (; run->steps < SIM_PROG_MAX_STEPS; run->steps++) {
		const struct wl_event *e;
		u64 *next;

		if (!prog_normalize(s, t))
			return PROG_DONE;
		e = &t->wt->phases[t->phase].events[t->ev];
		switch (e->type) {
		case WL_EV_RUN:
			t->work_left = e->duration_us * s->pcal;
			t->run_end_us = 0;
			if (t->work_left)
				return PROG_CPU;
			break;
		case WL_EV_RUNTIME:
			t->work_left = 0;
			t->run_end_us = s->now_us + e->duration_us;
			if (e->duration_us)
				return PROG_CPU;
			break;
		case WL_EV_SLEEP:
			if (e->duration_us) {
				t->wake_at_us = s->now_us + e->duration_us;
				return PROG_SLEEP;
			}
			break;
		case WL_EV_TIMER:
			next = &s->timer_next_us[e->ref];
			if (!*next)
				*next = t->iter_start_us;
			*next += e->period_us;
			t->st.activations++;
			if (*next < s->now_us) {
				t->st.late++;
				t->st.missed++;
				if (s->w->timers[e->ref].mode == WL_TIMER_RELATIVE) {
					t->st.missed += (s->now_us - *next) / e->period_us;
					*next = s->now_us;
				}
			}
			/* the next activation starts at *next (or now, when late) and ends a period
			 * on */
			t->deadline_us = *next + e->period_us;
			t->period_us = e->period_us;
			if (*next > s->now_us) {
				t->wake_at_us = *next;
				return PROG_SLEEP;
			}
			break;
		case WL_EV_SUSPEND:
			t->block_kind = 1;
			t->block_ref = e->ref;
			return PROG_BLOCK;
		case WL_EV_RESUME:
			t->ev++;
			run->steps++;
			run->wake_kind = 1;
			run->wake_ref = e->ref;
			return PROG_WAKE;
		case WL_EV_BARRIER:
			if (++s->barrier_arrived[e->ref] < s->w->barriers[e->ref].nr_users) {
				t->block_kind = 2;
				t->block_ref = e->ref;
				return PROG_BLOCK;
			}
			s->barrier_arrived[e->ref] = 0;
			t->ev++;
			run->steps++;
			run->wake_kind = 2;
			run->wake_ref = e->ref;
			return PROG_WAKE;
		case WL_EV_YIELD:
			t->yield_pending = 1;
			break;
		}
		t->ev++;
	}
	if (!s->warning[0])
		snprintf(s->warning, sizeof(s->warning),
			 "%s: task %s: %u events in a row at t=%llu us "
			 "took no time (its loop has no run, runtime, sleep or timer of non-zero "
			 "length): the task was stopped there",
			 s->w->name, t->wt->name, SIM_PROG_MAX_STEPS,
			 (unsigned long long)s->now_us);
	return PROG_DONE;
}

int sim_prog_finished(const struct sim *s, struct gb_err *err)
{
	const struct sim_task *waiting = NULL;

	for (u32 i = 0; i < s->nr_tasks; i++) {
		const struct sim_task *t = &s->tasks[i];

		if (t->state == TS_BLOCKED && !waiting)
			waiting = t;
		else if (t->state != TS_DONE && t->state != TS_BLOCKED)
			return 0;
	}
	if (!waiting)
		return 1;
	return gb_err_set(err, EINVAL,
			  "%s: at t=%llu us every task left waits (task %s on %s '%s') "
			  "and none can wake it: the workload never ends",
			  s->w->name, (unsigned long long)s->now_us, waiting->wt->name,
			  waiting->block_kind == 1 ? "suspend" : "barrier",
			  waiting->block_kind == 1 ? s->w->queues[waiting->block_ref].name
						   : s->w->barriers[waiting->block_ref].name);
}
