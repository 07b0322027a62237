// SPDX-License-Identifier: GPL-2.0-only
/*
 * workload.c - reads an rt-app use-case file into task templates (see workload.h for what the
 * loaded model means, workload_resolve.c for instances and names).
 *
 * Every key of the file is looked at exactly once, in file order, and either understood or
 * rejected.  Key names are compared on their base (the part before the repeat mark that
 * relaxed_json.c adds), so "run" and its repeats are all run events while a repeated "loop"
 * is an error.  Events are recognised as rt-app does, by the event name as a prefix, with one
 * restriction: what follows the name must not be a letter ("run1", "run_a" are run events;
 * "runn" is an error where rt-app would run it).
 */
#include "workload.h"

#include <errno.h>
#include <jansson.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "relaxed_json.h"
#include "workload_parse.h"

#define WL_MAX_FILE_BYTES (64u << 20)

static int parse_common_key(struct wl_ctx *c, const char *base, const json_t *v, s64 *loop,
			    bool *has_cpus, struct em_cpumask *cpus, struct wl_uclamp *u)
{
	int ret;

	if (!strcmp(base, "loop"))
		ret = wl_get_loop(c, v, loop);
	else if (!strcmp(base, "cpus"))
		ret = wl_parse_cpus(c, v, cpus), *has_cpus = true;
	else if (!strcmp(base, "util_min") || !strcmp(base, "util_max"))
		ret = wl_parse_uclamp(c, base, v, u);
	else
		return 0;
	return ret ? ret : 1;
}

static bool is_sched_key(const char *base)
{
	return !strcmp(base, "policy") || !strcmp(base, "priority") ||
	       !strcmp(base, "dl-runtime") || !strcmp(base, "dl-period") ||
	       !strcmp(base, "dl-deadline") || !strcmp(base, "slice_us");
}

/*
 * The members of a phase, or of a task without "phases" (then task is set and the task keys
 * are handled by the caller).  Returns 1 for a key that is not a phase key or an event.
 */
static int parse_phase_member(struct wl_ctx *c, struct wl_tphase *tp, const char *key,
			      const json_t *v, const char *task_base, bool in_task)
{
	char base[WL_NAME_LEN];
	unsigned repeat;
	int idx, ret;

	wl_key_base(key, base, sizeof(base), &repeat);
	idx = wl_event_index(base);
	if (idx >= 0) {
		if (wl_event_unsupported(idx)) {
			c->event = base;
			ret = wl_fail(c, EINVAL, "not supported: %s", wl_event_unsupported(idx));
			c->event = NULL;
			return ret;
		}
		return wl_add_event(c, tp, base, repeat, idx, v, task_base);
	}
	if (repeat && (!strcmp(base, "loop") || !strcmp(base, "cpus") ||
		       !strcmp(base, "util_min") || !strcmp(base, "util_max")))
		return wl_fail(c, EINVAL, "key '%s' given twice", base);
	if (in_task)
		return 1;
	ret =
	    parse_common_key(c, base, v, &tp->p.loop, &tp->p.cpus_own, &tp->p.cpus, &tp->p.uclamp);
	if (ret)
		return ret < 0 ? ret : 0;
	if (is_sched_key(base))
		return wl_fail(c, EINVAL, "'%s' is not supported at phase level, only in the task",
			       base);
	if (!strcmp(base, "nodes_membind") || !strcmp(base, "taskgroup"))
		return wl_fail(c, EINVAL, "'%s' is not supported (%s is not modeled)", base,
			       base[0] == 'n' ? "NUMA" : "cgroup CPU control");
	return wl_fail(c, EINVAL, "unknown phase key '%s'", base);
}

static int finish_phase(struct wl_ctx *c, struct wl_tphase *tp)
{
	if (tp->nr_events == 0)
		return wl_fail(c, EINVAL, "the phase has no events");
	return 0;
}

static int parse_phases(struct wl_ctx *c, struct wl_ttask *tt, const json_t *phases)
{
	const char *key;
	json_t *val;

	if (!json_is_object(phases))
		return wl_fail(c, EINVAL, "'phases' must be an object, not %s",
			       wl_json_type_name(phases));
	if (json_object_size(phases) == 0)
		return wl_fail(c, EINVAL, "'phases' is empty");
	if (json_object_size(phases) > WL_MAX_PHASES)
		return wl_fail(c, E2BIG, "more than %d phases (WL_MAX_PHASES)", WL_MAX_PHASES);
	tt->phases = calloc(json_object_size(phases), sizeof(*tt->phases));
	if (!tt->phases)
		return wl_fail(c, ENOMEM, "out of memory");
	json_object_foreach ((json_t *)phases, key, val) {
		struct wl_tphase *tp = &tt->phases[tt->nr_phases++];
		const char *pkey;
		json_t *pval;
		unsigned repeat;
		int ret;

		char base[WL_NAME_LEN];

		/* A repeated phase name is a new phase (rt-app's own spreading-tasks.json has
		 * one); it is named as workgen renames it: "heavy1" again becomes "heavy11". */
		wl_key_base(key, base, sizeof(base), &repeat);
		c->phase = base;
		if (strlen(base) > WL_NAME_LEN - 12)
			return wl_fail(c, EINVAL, "a phase name must have at most %d bytes",
				       WL_NAME_LEN - 12);
		if (snprintf(tp->p.name, sizeof(tp->p.name), repeat ? "%s%u" : "%s", base,
			     repeat) >= (int)sizeof(tp->p.name))
			return wl_fail(c, EINVAL, "phase name too long");
		c->phase = tp->p.name;
		tp->p.loop = 1;
		tp->p.uclamp.max = EM_CAPACITY_SCALE;
		if (!json_is_object(val))
			return wl_fail(c, EINVAL, "a phase must be an object, not %s",
				       wl_json_type_name(val));
		json_object_foreach (val, pkey, pval) {
			ret = parse_phase_member(c, tp, pkey, pval, tt->t.base, false);
			if (ret)
				return ret;
		}
		ret = finish_phase(c, tp);
		if (ret)
			return ret;
		c->phase = NULL;
	}
	return 0;
}

/*
 * "slice_us": a fair task's own slice, as sched_setattr() sets it (sched_attr.sched_runtime
 * for SCHED_OTHER).  The kernel clamps it to 0.1..100 ms without a word; a workload saying
 * something else is refused, so that what runs is what the file says.
 */
static int parse_slice(struct wl_ctx *c, const json_t *v, u64 *slice_us)
{
	long long x;

	if (!json_is_integer(v))
		return wl_fail(c, EINVAL, "'slice_us' must be an integer, not %s",
			       wl_json_type_name(v));
	x = json_integer_value(v);
	if (x < WL_SLICE_MIN_US || x > WL_SLICE_MAX_US)
		return wl_fail(c, EINVAL,
			       "'slice_us' is %lld, must be in %d..%d (the kernel's range for a "
			       "fair task's sched_runtime)",
			       x, WL_SLICE_MIN_US, WL_SLICE_MAX_US);
	*slice_us = (u64)x;
	return 0;
}

static int parse_task_key(struct wl_ctx *c, struct wl_ttask *tt, const char *base, const json_t *v,
			  long long *prio, bool *has_prio, bool *has_dl, bool *has_cpus)
{
	struct wl_task *t = &tt->t;
	long long x = 0;
	int ret = parse_common_key(c, base, v, &t->loop, has_cpus, &t->cpus, &t->uclamp);

	if (ret)
		return ret < 0 ? ret : 0;
	if (!strcmp(base, "instance")) {
		ret = wl_get_int(c, v, "instance", 1, WL_MAX_INSTANCES, &x);
		t->nr_instances = (u32)x;
	} else if (!strcmp(base, "delay")) {
		ret = wl_get_duration_us(c, v, "delay", &t->delay_us);
	} else if (!strcmp(base, "policy")) {
		ret = wl_parse_policy(c, v, "policy", &t->sched.policy);
	} else if (!strcmp(base, "priority")) {
		ret = wl_get_int(c, v, "priority", -20, 99, prio);
		*has_prio = true;
	} else if (!strcmp(base, "dl-runtime")) {
		ret = wl_get_duration_us(c, v, base, &t->sched.dl_runtime_us), *has_dl = true;
	} else if (!strcmp(base, "dl-period")) {
		ret = wl_get_duration_us(c, v, base, &t->sched.dl_period_us), *has_dl = true;
	} else if (!strcmp(base, "dl-deadline")) {
		ret = wl_get_duration_us(c, v, base, &t->sched.dl_deadline_us), *has_dl = true;
	} else if (!strcmp(base, "slice_us")) {
		ret = parse_slice(c, v, &t->sched.slice_us);
	} else if (!strcmp(base, "nodes_membind") || !strcmp(base, "taskgroup")) {
		ret = wl_fail(c, EINVAL, "'%s' is not supported (%s is not modeled)", base,
			      base[0] == 'n' ? "NUMA" : "cgroup CPU control");
	} else {
		ret = wl_fail(c, EINVAL, "unknown task key '%s'", base);
	}
	return ret;
}

/* Priority and deadline parameters, checked against the policy once all keys are read. */
static int finish_sched(struct wl_ctx *c, struct wl_sched *s, long long prio, bool has_prio,
			bool has_dl)
{
	if (s->policy == WL_SCHED_OTHER) {
		if (has_prio && (prio < -20 || prio > 19))
			return wl_fail(
			    c, EINVAL,
			    "'priority' %lld is not a nice value (-20..19) for SCHED_OTHER", prio);
		s->nice = has_prio ? (s32)prio : 0;
	} else if (s->policy == WL_SCHED_FIFO || s->policy == WL_SCHED_RR) {
		if (has_prio && (prio < 1 || prio > 99))
			return wl_fail(c, EINVAL,
				       "'priority' %lld is not an RT priority (1..99) for %s", prio,
				       wl_policy_name(s->policy));
		s->rt_priority = has_prio ? (u32)prio : 10;
	}
	if (s->policy != WL_SCHED_OTHER && s->slice_us)
		return wl_fail(c, EINVAL,
			       "'slice_us' needs policy SCHED_OTHER (it is a fair task's own "
			       "slice), not %s",
			       wl_policy_name(s->policy));
	if (s->policy == WL_SCHED_DEADLINE && has_prio)
		return wl_fail(c, EINVAL,
			       "'priority' has no meaning for SCHED_DEADLINE (use dl-runtime, "
			       "dl-period, dl-deadline)");
	if (s->policy != WL_SCHED_DEADLINE) {
		if (has_dl)
			return wl_fail(
			    c, EINVAL,
			    "dl-runtime, dl-period, dl-deadline need policy SCHED_DEADLINE");
		return 0;
	}
	if (s->dl_runtime_us == 0)
		return wl_fail(c, EINVAL, "SCHED_DEADLINE needs 'dl-runtime' > 0 us");
	if (s->dl_period_us == 0)
		s->dl_period_us = s->dl_runtime_us;
	if (s->dl_deadline_us == 0)
		s->dl_deadline_us = s->dl_period_us;
	if (s->dl_runtime_us > s->dl_deadline_us || s->dl_deadline_us > s->dl_period_us)
		return wl_fail(c, EINVAL,
			       "SCHED_DEADLINE needs dl-runtime <= dl-deadline <= dl-period");
	return 0;
}

static int parse_task(struct wl_ctx *c, struct wl_ttask *tt, const json_t *obj,
		      enum wl_policy default_policy)
{
	struct wl_task *t = &tt->t;
	struct wl_tphase single = {0};
	const json_t *phases = NULL;
	bool has_prio = false, has_dl = false, has_cpus = false;
	long long prio = 0;
	const char *key;
	json_t *val;
	int ret = 0;

	if (!json_is_object(obj))
		return wl_fail(c, EINVAL, "a task must be an object, not %s",
			       wl_json_type_name(obj));
	t->nr_instances = 1;
	t->loop = WL_LOOP_FOREVER;
	t->sched.policy = default_policy;
	t->uclamp.max = EM_CAPACITY_SCALE;
	single.p.loop = 1;
	single.p.uclamp.max = EM_CAPACITY_SCALE;
	json_object_foreach ((json_t *)obj, key, val) {
		char base[WL_NAME_LEN];
		unsigned repeat;

		wl_key_base(key, base, sizeof(base), &repeat);
		if (!strcmp(base, "phases")) {
			ret = repeat ? wl_fail(c, EINVAL, "key 'phases' given twice") : 0;
			phases = val;
		} else {
			ret = parse_phase_member(c, &single, key, val, t->base, true);
			if (ret == 1 && repeat)
				ret = wl_fail(c, EINVAL, "key '%s' given twice", base);
			else if (ret == 1)
				ret = parse_task_key(c, tt, base, val, &prio, &has_prio, &has_dl,
						     &has_cpus);
		}
		if (ret)
			break;
	}
	t->cpus_all = !has_cpus;
	if (!ret)
		ret = finish_sched(c, &t->sched, prio, has_prio, has_dl);
	if (!ret && phases && single.nr_events)
		ret = wl_fail(
		    c, EINVAL,
		    "events at task level and 'phases' together: put the events in a phase");
	if (!ret && phases) {
		ret = parse_phases(c, tt, phases);
	} else if (!ret) {
		ret = finish_phase(c, &single);
		if (!ret) {
			tt->phases = malloc(sizeof(*tt->phases));
			if (!tt->phases)
				ret = wl_fail(c, ENOMEM, "out of memory");
		}
		if (!ret) {
			tt->phases[0] = single;
			tt->nr_phases = 1;
			single.events = NULL;
		}
	}
	free(single.events);
	return ret;
}

static int parse_global(struct wl_ctx *c, const json_t *g, struct wl_global *out)
{
	/* rt-app keys that steer its logging and memory only: checked for type, no effect. */
	static const struct {
		const char *key;
		json_type type;
	} inert[] = {
	    {"pi_enabled", JSON_TRUE},
	    {"lock_pages", JSON_TRUE},
	    {"logdir", JSON_STRING},
	    {"log_basename", JSON_STRING},
	    {"log_size", JSON_NULL},
	    {"ftrace", JSON_NULL},
	    {"gnuplot", JSON_TRUE},
	    {"io_device", JSON_STRING},
	    {"mem_buffer_size", JSON_INTEGER},
	    {"cumulative_slack", JSON_TRUE},
	    {"frag", JSON_INTEGER}, /* obsolete; in rt-app's own mp3 and browser files */
	};
	const char *key;
	json_t *v;

	c->task = NULL;
	if (!json_is_object(g))
		return wl_fail(c, EINVAL, "'global' must be an object, not %s",
			       wl_json_type_name(g));
	json_object_foreach ((json_t *)g, key, v) {
		long long x = 0;
		unsigned i;

		if (strchr(key, RELAXED_DUP_MARK))
			return wl_fail(c, EINVAL, "global: key '%.*s' given twice",
				       (int)(strchr(key, RELAXED_DUP_MARK) - key), key);
		if (!strcmp(key, "duration")) {
			if (wl_get_int(c, v, "duration", -1, WL_MAX_DURATION_US / 1000000, &x))
				return -EINVAL;
			if (x == 0)
				return wl_fail(
				    c, EINVAL,
				    "global: 'duration' must be -1 (unbounded) or > 0 s");
			out->duration_us = x < 0 ? WL_DURATION_UNBOUNDED : (u64)x * 1000000;
			continue;
		}
		if (!strcmp(key, "default_policy")) {
			if (wl_parse_policy(c, v, "default_policy", &out->default_policy))
				return -EINVAL;
			continue;
		}
		if (!strcmp(key, "calibration")) {
			const char *s = json_is_string(v) ? json_string_value(v) : NULL;
			char *end;

			if (json_is_integer(v)) {
				if (wl_get_int(c, v, "calibration", 1, 1000000000, &x))
					return -EINVAL;
				out->calibration_cpu = -1;
				out->calibration_ns_per_loop = (u32)x;
				continue;
			}
			if (!s || strncmp(s, "CPU", 3) || s[3] < '0' || s[3] > '9' ||
			    (x = strtol(s + 3, &end, 10)) >= EM_MAX_CPUS || *end)
				return wl_fail(c, EINVAL,
					       "global: 'calibration' must be \"CPUn\" or ns per "
					       "loop (integer)");
			out->calibration_cpu = (s32)x;
			out->calibration_ns_per_loop = 0;
			continue;
		}
		for (i = 0; i < sizeof(inert) / sizeof(inert[0]); i++)
			if (!strcmp(key, inert[i].key))
				break;
		if (i == sizeof(inert) / sizeof(inert[0]))
			return wl_fail(c, EINVAL, "global: unknown key '%s'", key);
		if ((inert[i].type == JSON_TRUE && !json_is_boolean(v)) ||
		    (inert[i].type == JSON_STRING && !json_is_string(v)) ||
		    (inert[i].type == JSON_INTEGER && !json_is_integer(v)) ||
		    (inert[i].type == JSON_NULL && !json_is_string(v) && !json_is_integer(v) &&
		     !json_is_boolean(v)))
			return wl_fail(c, EINVAL, "global: '%s' has the wrong type (%s)", key,
				       wl_json_type_name(v));
	}
	return 0;
}

static void ttasks_free(struct wl_ttask *tt, u32 n)
{
	u32 i, k;

	for (i = 0; tt && i < n; i++) {
		for (k = 0; k < tt[i].nr_phases; k++)
			free(tt[i].phases[k].events);
		free(tt[i].phases);
	}
	free(tt);
}

static int parse_tasks(struct wl_ctx *c, const json_t *tasks, struct workload *w)
{
	struct wl_ttask *tt;
	const char *key;
	json_t *v;
	u32 n = 0;
	int ret = 0;

	if (!json_is_object(tasks))
		return wl_fail(c, EINVAL, "'tasks' must be an object, not %s",
			       wl_json_type_name(tasks));
	if (json_object_size(tasks) == 0)
		return wl_fail(c, EINVAL, "'tasks' is empty");
	if (json_object_size(tasks) > WL_MAX_TASKS)
		return wl_fail(c, E2BIG, "more than %d tasks (WL_MAX_TASKS)", WL_MAX_TASKS);
	tt = calloc(json_object_size(tasks), sizeof(*tt));
	if (!tt)
		return wl_fail(c, ENOMEM, "out of memory");
	json_object_foreach ((json_t *)tasks, key, v) {
		struct wl_ttask *t = &tt[n++];
		unsigned repeat;

		wl_key_base(key, t->t.base, sizeof(t->t.base), &repeat);
		c->task = t->t.base;
		c->phase = c->event = NULL;
		if (repeat)
			ret = wl_fail(c, EINVAL, "task name given twice");
		else if (strlen(key) == 0 || strlen(key) > WL_NAME_LEN - 5)
			ret = wl_fail(c, EINVAL, "a task name must have 1..%d bytes",
				      WL_NAME_LEN - 5);
		else
			ret = parse_task(c, t, v, w->global.default_policy);
		if (ret)
			break;
	}
	c->phase = c->event = NULL;
	if (!ret)
		ret = wl_resolve(c, tt, n, w);
	ttasks_free(tt, n);
	return ret;
}

static int load_json(struct wl_ctx *c, const json_t *root, struct workload *w)
{
	const json_t *tasks = NULL, *global = NULL;
	const char *key;
	json_t *v;
	int ret;

	if (!json_is_object(root))
		return wl_fail(c, EINVAL, "the file must hold an object with \"tasks\"");
	json_object_foreach ((json_t *)root, key, v) {
		char base[WL_NAME_LEN];
		unsigned repeat;

		wl_key_base(key, base, sizeof(base), &repeat);
		if (repeat)
			return wl_fail(c, EINVAL, "key '%s' given twice", base);
		if (!strcmp(key, "tasks"))
			tasks = v;
		else if (!strcmp(key, "global"))
			global = v;
		else if (strcmp(key, "resources")) /* rt-app ignores it: resources are implicit */
			return wl_fail(c, EINVAL,
				       "unknown top-level key '%s' (tasks, global, resources)",
				       base);
	}
	w->global.calibration_cpu = 0;
	if (global) {
		ret = parse_global(c, global, &w->global);
		if (ret)
			return ret;
	}
	if (!tasks)
		return wl_fail(c, EINVAL, "no \"tasks\" object");
	return parse_tasks(c, tasks, w);
}

int workload_load_string(const char *text, size_t len, const char *name, struct workload *w,
			 struct gb_err *err)
{
	struct wl_ctx c = {.file = name, .err = err};
	struct relaxed_json_map map = {0};
	json_error_t jerr;
	json_t *root;
	char *strict;
	size_t strict_len, line, col;
	int ret;

	memset(w, 0, sizeof(*w));
	snprintf(w->name, sizeof(w->name), "%s", name);
	ret = relaxed_json_to_strict(text, len, &strict, &strict_len, &map, err);
	if (ret) {
		gb_err_prefix(err, "%s", name);
		return ret;
	}
	root = json_loadb(strict, strict_len, JSON_REJECT_DUPLICATES, &jerr);
	free(strict);
	if (!root) {
		/* jansson's position is the byte after the offending token, in the strict text;
		 * the column is that of its last byte in the file */
		size_t pos = relaxed_json_source_pos(&map, (size_t)jerr.position);

		relaxed_json_map_free(&map);
		relaxed_json_line_col(text, len, pos ? pos - 1 : 0, &line, &col);
		return gb_err_set(err, EINVAL, "%s: line %zu, column %zu: %s", name, line, col,
				  jerr.text);
	}
	relaxed_json_map_free(&map);
	ret = load_json(&c, root, w);
	json_decref(root);
	if (ret)
		workload_free(w);
	return ret;
}

const struct wl_task *workload_forever_task(const struct workload *w)
{
	for (u32 i = 0; i < w->nr_tasks; i++) {
		const struct wl_task *t = &w->tasks[i];

		if (t->loop == WL_LOOP_FOREVER)
			return t;
		for (u32 p = 0; p < t->nr_phases; p++)
			if (t->phases[p].loop == WL_LOOP_FOREVER)
				return t;
	}
	return NULL;
}

int workload_load_file(const char *path, struct workload *w, struct gb_err *err)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL;
	size_t len = 0, cap = 0, n;
	int ret;

	memset(w, 0, sizeof(*w));
	if (!f)
		return gb_err_set(err, errno, "%s: %s", path, strerror(errno));
	do {
		if (len == cap) {
			char *nb;

			cap = cap ? cap * 2 : 65536;
			nb = cap <= WL_MAX_FILE_BYTES ? realloc(buf, cap) : NULL;
			if (!nb) {
				free(buf);
				fclose(f);
				return gb_err_set(
				    err, cap > WL_MAX_FILE_BYTES ? E2BIG : ENOMEM, "%s: %s", path,
				    cap > WL_MAX_FILE_BYTES ? "file too large" : "out of memory");
			}
			buf = nb;
		}
		n = fread(buf + len, 1, cap - len, f);
		len += n;
	} while (n > 0);
	if (ferror(f)) {
		ret = gb_err_set(err, EIO, "%s: read error", path);
		fclose(f);
		free(buf);
		return ret;
	}
	fclose(f);
	ret = workload_load_string(buf, len, path, w, err);
	free(buf);
	return ret;
}
