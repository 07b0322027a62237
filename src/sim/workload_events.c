// SPDX-License-Identifier: GPL-2.0-only
/*
 * workload_events.c - the values of an rt-app file: typed getters that fail with the
 * position in the file, and the events of a phase.
 */
#include <errno.h>
#include <jansson.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "relaxed_json.h"
#include "workload_parse.h"

int wl_fail(const struct wl_ctx *c, int code, const char *fmt, ...)
{
	char reason[GB_ERR_MSG_LEN], where[GB_ERR_MSG_LEN];
	size_t n = 0;
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(reason, sizeof(reason), fmt, ap);
	va_end(ap);
	where[0] = '\0';
	if (c->task)
		n += snprintf(where + n, sizeof(where) - n, ": task %s", c->task);
	if (c->phase && c->phase[0] && n < sizeof(where))
		n += snprintf(where + n, sizeof(where) - n, ", phase %s", c->phase);
	if (c->event && n < sizeof(where))
		snprintf(where + n, sizeof(where) - n, ", event %s", c->event);
	return gb_err_set(c->err, code, "%s%s: %s", c->file, where, reason);
}

/* The key without its repeat mark; *repeat is the repeat number (0 for the first). */
const char *wl_key_base(const char *key, char *buf, size_t len, unsigned *repeat)
{
	const char *mark = strchr(key, RELAXED_DUP_MARK);

	*repeat = 0;
	if (!mark) {
		snprintf(buf, len, "%s", key);
		return buf;
	}
	*repeat = (unsigned)strtoul(mark + 1, NULL, 10);
	snprintf(buf, len, "%.*s", (int)(mark - key), key);
	return buf;
}

const char *wl_json_type_name(const json_t *v)
{
	switch (json_typeof(v)) {
	case JSON_OBJECT:
		return "an object";
	case JSON_ARRAY:
		return "an array";
	case JSON_STRING:
		return "a string";
	case JSON_INTEGER:
		return "an integer";
	case JSON_REAL:
		return "a real number";
	case JSON_TRUE:
	case JSON_FALSE:
		return "a boolean";
	default:
		return "null";
	}
}

int wl_get_int(const struct wl_ctx *c, const json_t *v, const char *key, long long min,
	       long long max, long long *out)
{
	if (!json_is_integer(v))
		return wl_fail(c, EINVAL, "'%s' must be an integer, not %s", key,
			       wl_json_type_name(v));
	*out = json_integer_value(v);
	if (*out < min || *out > max)
		return wl_fail(c, EINVAL, "'%s' is %lld, must be in %lld..%lld", key, *out, min,
			       max);
	return 0;
}

int wl_get_loop(const struct wl_ctx *c, const json_t *v, s64 *out)
{
	long long x = 0;
	int ret = wl_get_int(c, v, "loop", -1, (long long)1 << 40, &x);

	if (ret)
		return ret;
	if (x == 0)
		return wl_fail(c, EINVAL, "'loop' must be -1 (forever) or >= 1, not 0");
	*out = x;
	return 0;
}

int wl_get_duration_us(const struct wl_ctx *c, const json_t *v, const char *key, u64 *out)
{
	long long x = 0;
	int ret;

	if (json_is_integer(v) && json_integer_value(v) < 0)
		return wl_fail(c, EINVAL, "'%s' is a negative duration (%lld us)", key,
			       (long long)json_integer_value(v));
	ret = wl_get_int(c, v, key, 0, (long long)WL_MAX_DURATION_US, &x);

	*out = (u64)x;
	return ret;
}

int wl_get_name(const struct wl_ctx *c, const json_t *v, const char *key, char *out)
{
	if (!json_is_string(v))
		return wl_fail(c, EINVAL, "'%s' must be a string, not %s", key,
			       wl_json_type_name(v));
	if (json_string_length(v) == 0)
		return wl_fail(c, EINVAL, "'%s' must not be empty", key);
	if (json_string_length(v) >= WL_NAME_LEN ||
	    strlen(json_string_value(v)) != json_string_length(v))
		return wl_fail(c, EINVAL, "'%s' must be a name of at most %d bytes", key,
			       WL_NAME_LEN - 1);
	memcpy(out, json_string_value(v), json_string_length(v) + 1);
	return 0;
}

int wl_parse_policy(const struct wl_ctx *c, const json_t *v, const char *key, enum wl_policy *out)
{
	static const char *const names[] = {"SCHED_OTHER", "SCHED_FIFO", "SCHED_RR",
					    "SCHED_DEADLINE"};
	unsigned i;

	if (!json_is_string(v))
		return wl_fail(c, EINVAL, "'%s' must be a string, not %s", key,
			       wl_json_type_name(v));
	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		if (!strcmp(json_string_value(v), names[i])) {
			*out = (enum wl_policy)i;
			return 0;
		}
	}
	return wl_fail(
	    c, EINVAL,
	    "'%s' is \"%s\", must be SCHED_OTHER, SCHED_FIFO, SCHED_RR or SCHED_DEADLINE", key,
	    json_string_value(v));
}

const char *wl_policy_name(enum wl_policy policy)
{
	switch (policy) {
	case WL_SCHED_OTHER:
		return "SCHED_OTHER";
	case WL_SCHED_FIFO:
		return "SCHED_FIFO";
	case WL_SCHED_RR:
		return "SCHED_RR";
	case WL_SCHED_DEADLINE:
		return "SCHED_DEADLINE";
	}
	return "?";
}

int wl_parse_cpus(const struct wl_ctx *c, const json_t *v, struct em_cpumask *mask)
{
	size_t i;
	json_t *e;

	if (!json_is_array(v))
		return wl_fail(c, EINVAL, "'cpus' must be an array of CPU numbers, not %s",
			       wl_json_type_name(v));
	if (json_array_size(v) == 0)
		return wl_fail(c, EINVAL, "'cpus' must not be empty");
	memset(mask, 0, sizeof(*mask));
	json_array_foreach (v, i, e) {
		long long cpu = 0;

		if (wl_get_int(c, e, "cpus", 0, EM_MAX_CPUS - 1, &cpu))
			return -EINVAL;
		em_cpumask_set(mask, (u32)cpu);
	}
	return 0;
}

int wl_parse_uclamp(const struct wl_ctx *c, const char *key, const json_t *v, struct wl_uclamp *u)
{
	long long x = 0;

	if (wl_get_int(c, v, key, 0, EM_CAPACITY_SCALE, &x))
		return -EINVAL;
	if (!strcmp(key, "util_min")) {
		u->min = (u32)x;
		u->set |= WL_UCLAMP_MIN;
	} else {
		u->max = (u32)x;
		u->set |= WL_UCLAMP_MAX;
	}
	if ((u->set & WL_UCLAMP_MIN) && (u->set & WL_UCLAMP_MAX) && u->min > u->max)
		return wl_fail(c, EINVAL, "util_min %u is above util_max %u", u->min, u->max);
	return 0;
}

/* rt-app's event names; `supported` false: known to rt-app, not modeled here. */
static const struct {
	const char *name;
	enum wl_event_type type;
	bool supported;
	const char *why;
} event_names[] = {
    {"runtime", WL_EV_RUNTIME, true, NULL},
    {"run", WL_EV_RUN, true, NULL},
    {"sleep", WL_EV_SLEEP, true, NULL},
    {"timer", WL_EV_TIMER, true, NULL},
    {"suspend", WL_EV_SUSPEND, true, NULL},
    {"resume", WL_EV_RESUME, true, NULL},
    {"barrier", WL_EV_BARRIER, true, NULL},
    {"yield", WL_EV_YIELD, true, NULL},
    {"lock", 0, false, "mutexes are not modeled"},
    {"unlock", 0, false, "mutexes are not modeled"},
    {"wait", 0, false, "condition variables are not modeled"},
    {"signal", 0, false, "condition variables are not modeled"},
    {"broad", 0, false, "condition variables are not modeled"},
    {"sync", 0, false, "condition variables are not modeled"},
    {"mem", 0, false, "memory-bound load is not modeled"},
    {"iorun", 0, false, "IO-bound load is not modeled"},
    {"fork", 0, false, "task creation at run time is not modeled"},
};

/* Index into event_names of the event key base, or -1 when it names no event. */
int wl_event_index(const char *base)
{
	unsigned i;

	for (i = 0; i < sizeof(event_names) / sizeof(event_names[0]); i++) {
		size_t n = strlen(event_names[i].name);
		char next = base[n];

		if (!strncmp(base, event_names[i].name, n) &&
		    !((next >= 'a' && next <= 'z') || (next >= 'A' && next <= 'Z')))
			return (int)i;
	}
	return -1;
}

const char *wl_event_unsupported(int idx)
{
	return event_names[idx].supported ? NULL : event_names[idx].why;
}

const char *wl_event_type_name(enum wl_event_type type)
{
	unsigned i;

	for (i = 0; i < sizeof(event_names) / sizeof(event_names[0]); i++)
		if (event_names[i].supported && event_names[i].type == type)
			return event_names[i].name;
	return "?";
}

static int parse_timer(const struct wl_ctx *c, const json_t *v, struct wl_tevent *te)
{
	const char *key;
	json_t *val;
	bool has_ref = false, has_period = false;

	if (!json_is_object(v))
		return wl_fail(c, EINVAL,
			       "a timer must be an object {\"ref\": NAME, \"period\": US}, not %s",
			       wl_json_type_name(v));
	json_object_foreach ((json_t *)v, key, val) {
		int ret;

		if (strchr(key, RELAXED_DUP_MARK))
			return wl_fail(c, EINVAL, "repeated key in a timer");
		if (!strcmp(key, "ref")) {
			ret = wl_get_name(c, val, "ref", te->ref);
			has_ref = true;
		} else if (!strcmp(key, "period")) {
			ret = wl_get_duration_us(c, val, "period", &te->ev.period_us);
			if (!ret && te->ev.period_us == 0)
				ret = wl_fail(c, EINVAL, "a timer period must be > 0 us");
			has_period = true;
		} else if (!strcmp(key, "mode")) {
			const char *m = json_is_string(val) ? json_string_value(val) : "";

			if (!strcmp(m, "relative"))
				te->mode = WL_TIMER_RELATIVE;
			else if (!strcmp(m, "absolute"))
				te->mode = WL_TIMER_ABSOLUTE;
			else
				return wl_fail(c, EINVAL,
					       "timer 'mode' must be \"relative\" or \"absolute\"");
			ret = 0;
		} else {
			return wl_fail(c, EINVAL, "unknown timer key '%s' (ref, period, mode)",
				       key);
		}
		if (ret)
			return ret;
	}
	if (!has_ref)
		return wl_fail(c, EINVAL, "a timer needs a 'ref'");
	if (!has_period)
		return wl_fail(c, EINVAL, "a timer needs a 'period' (us)");
	return 0;
}

/* Parses one event into te; names stay names until wl_resolve(). */
static int parse_event(const struct wl_ctx *c, int idx, const json_t *v, const char *task_base,
		       struct wl_tevent *te)
{
	enum wl_event_type type = event_names[idx].type;
	const char *name = event_names[idx].name;

	te->ev.type = type;
	switch (type) {
	case WL_EV_RUN:
	case WL_EV_RUNTIME:
	case WL_EV_SLEEP:
		return wl_get_duration_us(c, v, name, &te->ev.duration_us);
	case WL_EV_TIMER:
		return parse_timer(c, v, te);
	case WL_EV_SUSPEND:
		/* Bare or empty: workgen fills in the task's own name. */
		if (json_is_null(v) || (json_is_string(v) && json_string_length(v) == 0)) {
			snprintf(te->ref, sizeof(te->ref), "%s", task_base);
			return 0;
		}
		return wl_get_name(c, v, name, te->ref);
	case WL_EV_RESUME:
	case WL_EV_BARRIER:
		if (json_is_null(v))
			return wl_fail(c, EINVAL, "'%s' needs the name it refers to", name);
		return wl_get_name(c, v, name, te->ref);
	case WL_EV_YIELD:
		if (!json_is_null(v) && !json_is_string(v))
			return wl_fail(c, EINVAL, "'yield' takes a string (may be empty), not %s",
				       wl_json_type_name(v));
		return 0;
	}
	return wl_fail(c, EINVAL, "internal: unhandled event");
}

int wl_add_event(struct wl_ctx *c, struct wl_tphase *tp, const char *base, unsigned repeat, int idx,
		 const json_t *v, const char *task_base)
{
	struct wl_tevent *te;
	int ret;

	if (tp->nr_events >= WL_MAX_EVENTS)
		return wl_fail(c, E2BIG, "more than %d events in one phase (WL_MAX_EVENTS)",
			       WL_MAX_EVENTS);
	if (c->total_events >= WL_MAX_TOTAL_EVENTS)
		return wl_fail(c, E2BIG, "more than %d events in all (WL_MAX_TOTAL_EVENTS)",
			       WL_MAX_TOTAL_EVENTS);
	if (tp->nr_events == tp->cap_events) {
		u32 cap = tp->cap_events ? tp->cap_events * 2 : 8;
		struct wl_tevent *ne = realloc(tp->events, cap * sizeof(*ne));

		if (!ne)
			return wl_fail(c, ENOMEM, "out of memory");
		tp->events = ne;
		tp->cap_events = cap;
	}
	te = &tp->events[tp->nr_events];
	memset(te, 0, sizeof(*te));
	if (repeat) {
		snprintf(te->where, sizeof(te->where), "%s (repeat %u)", base, repeat);
		snprintf(te->ev.key, sizeof(te->ev.key), "%.40s%u", base, repeat);
	} else {
		snprintf(te->where, sizeof(te->where), "%s", base);
		snprintf(te->ev.key, sizeof(te->ev.key), "%s", base);
	}
	c->event = te->where;
	ret = parse_event(c, idx, v, task_base, te);
	c->event = NULL;
	if (ret)
		return ret;
	tp->nr_events++;
	c->total_events++;
	return 0;
}

/* Keys both a task and a phase may have; 1 when handled, 0 when not such a key, or <0. */
