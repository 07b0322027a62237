// SPDX-License-Identifier: GPL-2.0-only
/*
 * workload_resolve.c - instance expansion and rt-app's sharing rules for named resources.
 *
 * rt-app creates a resource the first time a name is used and shares it between every thread
 * that uses the same name: a timer "tick" used by two tasks is one timer, and a task object
 * with "instance": 4 is four threads with the same events, so four users of each of its
 * resources.  The exception is a timer ref that begins with "unique", which rt-app makes one
 * per thread.  Resolution therefore runs over expanded tasks, in file order, registering
 * timers, suspend queues and barriers as they are met; resumes are resolved last, since a
 * task may resume a queue that a later task suspends on.
 *
 * Names are found through a small open-addressing hash table per kind (timer names are keyed
 * by name and owning task), so loading stays linear in the size of the file.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "workload_parse.h"

#define REFTAB_SLOTS (2 * WL_MAX_REFS) /* power of two, at most half full */

struct refent {
	char name[WL_NAME_LEN];
	u32 owner;     /* WL_NO_OWNER unless a "unique" timer */
	u32 users;     /* distinct task instances */
	u32 last_user; /* task index + 1 of the last counted user */
	enum wl_timer_mode mode;
	bool resumed;			  /* queues: some task resumes it */
	const char *task, *phase, *event; /* first use, for messages */
};

struct reftab {
	struct refent *e;
	u32 n;
	u32 slot[REFTAB_SLOTS]; /* entry index + 1; 0 is empty */
};

static u32 ref_hash(const char *name, u32 owner)
{
	u32 h = 2166136261u; /* FNV-1a */

	while (*name)
		h = (h ^ (unsigned char)*name++) * 16777619u;
	h ^= owner;
	return h * 2654435761u;
}

/* The entry for (name, owner), added when add is set; NULL when absent or the table is full. */
static struct refent *ref_get(struct reftab *t, const char *name, u32 owner, bool add, bool *added)
{
	u32 i = ref_hash(name, owner) & (REFTAB_SLOTS - 1);

	*added = false;
	for (;;) {
		u32 s = t->slot[i];

		if (s == 0)
			break;
		if (t->e[s - 1].owner == owner && !strcmp(t->e[s - 1].name, name))
			return &t->e[s - 1];
		i = (i + 1) & (REFTAB_SLOTS - 1);
	}
	if (!add || t->n >= WL_MAX_REFS)
		return NULL;
	t->slot[i] = ++t->n;
	memset(&t->e[t->n - 1], 0, sizeof(t->e[0]));
	snprintf(t->e[t->n - 1].name, WL_NAME_LEN, "%s", name);
	t->e[t->n - 1].owner = owner;
	*added = true;
	return &t->e[t->n - 1];
}

struct resolver {
	struct wl_ctx *c;
	struct reftab *timers, *queues, *barriers;
};

static void set_where(struct wl_ctx *c, const struct wl_ttask *tt, const struct wl_tphase *tp,
		      const struct wl_tevent *te)
{
	c->task = tt->t.base;
	c->phase = tp ? tp->p.name : NULL;
	c->event = te ? te->where : NULL;
}

static int too_many(struct wl_ctx *c, const char *kind)
{
	return wl_fail(c, E2BIG, "more than %d %s (WL_MAX_REFS)", WL_MAX_REFS, kind);
}

/* Registers the resource that event te of task tid uses, and sets ev->ref. */
static int resolve_event(struct resolver *r, u32 tid, const struct wl_tevent *te,
			 struct wl_event *ev)
{
	struct reftab *t;
	struct refent *e;
	bool added;
	u32 owner = WL_NO_OWNER;

	switch (te->ev.type) {
	case WL_EV_TIMER:
		t = r->timers;
		if (!strncmp(te->ref, "unique", 6))
			owner = tid;
		break;
	case WL_EV_SUSPEND:
		t = r->queues;
		break;
	case WL_EV_BARRIER:
		t = r->barriers;
		break;
	default:
		return 0; /* no resource, or a resume: resolved in a later pass */
	}
	e = ref_get(t, te->ref, owner, true, &added);
	if (!e)
		return too_many(r->c, t == r->timers   ? "timers"
				      : t == r->queues ? "suspend names"
						       : "barriers");
	if (added) {
		e->mode = te->mode;
		e->task = r->c->task;
		e->phase = r->c->phase;
		e->event = r->c->event;
	} else if (t == r->timers && e->mode != te->mode) {
		return wl_fail(r->c, EINVAL,
			       "timer '%s' is used both in relative and absolute mode", te->ref);
	}
	if (e->last_user != tid + 1) {
		e->users++;
		e->last_user = tid + 1;
	}
	ev->ref = (u32)(e - t->e);
	return 0;
}

static int expand_phase(struct resolver *r, const struct wl_ttask *tt, const struct wl_tphase *tp,
			u32 tid, struct wl_phase *ph)
{
	const struct wl_task *t = &tt->t;
	u32 k;

	*ph = tp->p;
	ph->cpus_all = false;
	if (!tp->p.cpus_own) {
		ph->cpus = t->cpus;
		ph->cpus_all = t->cpus_all;
	}
	ph->events = calloc(tp->nr_events, sizeof(*ph->events));
	if (!ph->events)
		return wl_fail(r->c, ENOMEM, "out of memory");
	ph->nr_events = tp->nr_events;
	for (k = 0; k < tp->nr_events; k++) {
		int ret;

		set_where(r->c, tt, tp, &tp->events[k]);
		ph->events[k] = tp->events[k].ev;
		ret = resolve_event(r, tid, &tp->events[k], &ph->events[k]);
		if (ret)
			return ret;
	}
	return 0;
}

static int expand_tasks(struct resolver *r, const struct wl_ttask *tt, u32 nr, struct workload *w)
{
	u64 nr_tasks = 0, nr_events = 0;
	u32 i, k, p, tid = 0;

	for (i = 0; i < nr; i++) {
		nr_tasks += tt[i].t.nr_instances;
		for (p = 0; p < tt[i].nr_phases; p++)
			nr_events += (u64)tt[i].t.nr_instances * tt[i].phases[p].nr_events;
	}
	r->c->task = r->c->phase = r->c->event = NULL;
	if (nr_tasks > WL_MAX_TASKS)
		return wl_fail(r->c, E2BIG,
			       "%llu tasks after instance expansion, more than %d (WL_MAX_TASKS)",
			       (unsigned long long)nr_tasks, WL_MAX_TASKS);
	if (nr_events > WL_MAX_TOTAL_EVENTS)
		return wl_fail(
		    r->c, E2BIG,
		    "%llu events after instance expansion, more than %d (WL_MAX_TOTAL_EVENTS)",
		    (unsigned long long)nr_events, WL_MAX_TOTAL_EVENTS);
	w->tasks = calloc(nr_tasks, sizeof(*w->tasks));
	if (!w->tasks)
		return wl_fail(r->c, ENOMEM, "out of memory");
	w->nr_tasks = (u32)nr_tasks;
	for (i = 0; i < nr; i++) {
		for (k = 0; k < tt[i].t.nr_instances; k++, tid++) {
			struct wl_task *t = &w->tasks[tid];

			*t = tt[i].t;
			t->instance = k;
			/* The base has at most WL_NAME_LEN - 5 bytes, k < WL_MAX_INSTANCES. */
			if (snprintf(t->name, sizeof(t->name), "%s-%u", t->base, k) >=
			    (int)sizeof(t->name))
				return wl_fail(r->c, EINVAL, "task name too long");
			t->nr_phases = 0;
			t->phases = calloc(tt[i].nr_phases, sizeof(*t->phases));
			if (!t->phases)
				return wl_fail(r->c, ENOMEM, "out of memory");
			for (p = 0; p < tt[i].nr_phases; p++) {
				int ret =
				    expand_phase(r, &tt[i], &tt[i].phases[p], tid, &t->phases[p]);

				t->nr_phases++;
				if (ret)
					return ret;
			}
		}
	}
	return 0;
}

/* Resumes name queues that some task suspends on; every such queue must be resumed. */
static int resolve_resumes(struct resolver *r, const struct wl_ttask *tt, u32 nr,
			   struct workload *w)
{
	u32 i, k, p, e, tid = 0;
	bool added;

	for (i = 0; i < nr; i++) {
		for (k = 0; k < tt[i].t.nr_instances; k++, tid++) {
			for (p = 0; p < tt[i].nr_phases; p++) {
				const struct wl_tphase *tp = &tt[i].phases[p];

				for (e = 0; e < tp->nr_events; e++) {
					const struct wl_tevent *te = &tp->events[e];
					struct refent *q;

					if (te->ev.type != WL_EV_RESUME)
						continue;
					set_where(r->c, &tt[i], tp, te);
					q = ref_get(r->queues, te->ref, WL_NO_OWNER, false, &added);
					if (!q)
						return wl_fail(
						    r->c, EINVAL,
						    "resume of '%s', which no task suspends on",
						    te->ref);
					q->resumed = true;
					w->tasks[tid].phases[p].events[e].ref =
					    (u32)(q - r->queues->e);
				}
			}
		}
	}
	for (i = 0; i < r->queues->n; i++) {
		const struct refent *q = &r->queues->e[i];

		if (!q->resumed) {
			r->c->task = q->task;
			r->c->phase = q->phase;
			r->c->event = q->event;
			return wl_fail(
			    r->c, EINVAL,
			    "suspend on '%s', which no task resumes: it would block forever",
			    q->name);
		}
	}
	return 0;
}

static int copy_tables(struct resolver *r, struct workload *w)
{
	u32 i;

	w->timers = calloc(r->timers->n + 1, sizeof(*w->timers));
	w->queues = calloc(r->queues->n + 1, sizeof(*w->queues));
	w->barriers = calloc(r->barriers->n + 1, sizeof(*w->barriers));
	if (!w->timers || !w->queues || !w->barriers)
		return wl_fail(r->c, ENOMEM, "out of memory");
	for (i = 0; i < r->timers->n; i++) {
		memcpy(w->timers[i].name, r->timers->e[i].name, WL_NAME_LEN);
		w->timers[i].mode = r->timers->e[i].mode;
		w->timers[i].owner = r->timers->e[i].owner;
	}
	for (i = 0; i < r->queues->n; i++) {
		memcpy(w->queues[i].name, r->queues->e[i].name, WL_NAME_LEN);
		w->queues[i].nr_suspenders = r->queues->e[i].users;
	}
	for (i = 0; i < r->barriers->n; i++) {
		memcpy(w->barriers[i].name, r->barriers->e[i].name, WL_NAME_LEN);
		w->barriers[i].nr_users = r->barriers->e[i].users;
	}
	w->nr_timers = r->timers->n;
	w->nr_queues = r->queues->n;
	w->nr_barriers = r->barriers->n;
	return 0;
}

static struct reftab *reftab_new(void)
{
	struct reftab *t = calloc(1, sizeof(*t));

	if (t)
		t->e = calloc(WL_MAX_REFS, sizeof(*t->e));
	if (t && !t->e) {
		free(t);
		t = NULL;
	}
	return t;
}

static void reftab_free(struct reftab *t)
{
	if (t)
		free(t->e);
	free(t);
}

int wl_resolve(struct wl_ctx *c, const struct wl_ttask *tt, u32 nr, struct workload *w)
{
	struct resolver r = {
	    .c = c, .timers = reftab_new(), .queues = reftab_new(), .barriers = reftab_new()};
	int ret;

	if (!r.timers || !r.queues || !r.barriers)
		ret = wl_fail(c, ENOMEM, "out of memory");
	else
		ret = expand_tasks(&r, tt, nr, w);
	if (!ret)
		ret = resolve_resumes(&r, tt, nr, w);
	if (!ret)
		ret = copy_tables(&r, w);
	reftab_free(r.timers);
	reftab_free(r.queues);
	reftab_free(r.barriers);
	c->task = c->phase = c->event = NULL;
	return ret;
}

void workload_free(struct workload *w)
{
	u32 i, p;

	for (i = 0; w->tasks && i < w->nr_tasks; i++) {
		for (p = 0; w->tasks[i].phases && p < w->tasks[i].nr_phases; p++)
			free(w->tasks[i].phases[p].events);
		free(w->tasks[i].phases);
	}
	free(w->tasks);
	free(w->timers);
	free(w->queues);
	free(w->barriers);
	memset(w, 0, sizeof(*w));
}

/* The first CPU of mask that the model does not have, or -1. */
static int cpu_outside(const struct em_cpumask *mask, const struct em_cpumask *model)
{
	u32 cpu;

	for (cpu = 0; cpu < EM_MAX_CPUS; cpu++)
		if (em_cpumask_test(mask, cpu) && !em_cpumask_test(model, cpu))
			return (int)cpu;
	return -1;
}

int workload_check_model(const struct workload *w, const struct em_model *m, struct gb_err *err)
{
	struct wl_ctx c = {.file = w->name, .err = err};
	struct em_cpumask all = {0};
	u32 d, i, p, k;
	int cpu;

	for (d = 0; d < m->nr_domains && d < EM_MAX_DOMAINS; d++)
		for (k = 0; k < EM_CPUMASK_WORDS; k++)
			all.bits[k] |= m->domains[d].cpus.bits[k];
	if (w->global.calibration_cpu >= 0 &&
	    !em_cpumask_test(&all, (u32)w->global.calibration_cpu))
		return wl_fail(&c, EINVAL, "global: calibration CPU%d is not in the model",
			       w->global.calibration_cpu);
	for (i = 0; i < w->nr_tasks; i++) {
		const struct wl_task *t = &w->tasks[i];

		c.task = t->base;
		c.phase = NULL;
		cpu = t->cpus_all ? -1 : cpu_outside(&t->cpus, &all);
		if (cpu >= 0)
			return wl_fail(
			    &c, EINVAL,
			    "'cpus' has CPU %d, which the model does not have (it has %u CPUs)",
			    cpu, m->nr_cpus);
		for (p = 0; p < t->nr_phases; p++) {
			const struct wl_phase *ph = &t->phases[p];

			c.phase = ph->name;
			cpu = ph->cpus_own ? cpu_outside(&ph->cpus, &all) : -1;
			if (cpu >= 0)
				return wl_fail(&c, EINVAL,
					       "'cpus' has CPU %d, which the model does not have "
					       "(it has %u CPUs)",
					       cpu, m->nr_cpus);
		}
	}
	return 0;
}
