/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * workload_parse.h - internal to the workload loader: the parsed but unresolved form.
 *
 * workload.c parses each task object of the file once into a template whose events still name
 * their timers, queues and barriers; workload_resolve.c expands the templates by "instance"
 * into struct wl_task and turns the names into indices.  The split keeps the reading of keys
 * apart from the sharing rules of rt-app's resources.
 */
#ifndef GEARBOX_SIM_WORKLOAD_PARSE_H
#define GEARBOX_SIM_WORKLOAD_PARSE_H

#include "workload.h"

struct wl_tevent {
	struct wl_event ev;	      /* ev.ref not yet resolved */
	char ref[WL_NAME_LEN];	      /* TIMER, SUSPEND, RESUME, BARRIER */
	enum wl_timer_mode mode;      /* TIMER */
	char where[WL_NAME_LEN + 24]; /* the event as named in messages: "run (repeat 1)" */
};

struct wl_tphase {
	struct wl_phase p; /* p.events unused */
	u32 nr_events, cap_events;
	struct wl_tevent *events;
};

struct wl_ttask {
	struct wl_task t; /* t.name, t.instance, t.phases unused */
	u32 nr_phases;
	struct wl_tphase *phases;
};

/* Error context: "FILE: task T, phase P, event E: reason"; NULL parts are left out. */
struct wl_ctx {
	const char *file;
	const char *task;
	const char *phase;
	const char *event;
	struct gb_err *err;
	u32 total_events; /* in the templates, before instance expansion */
};

int wl_fail(const struct wl_ctx *c, int code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* workload_events.c: typed values, each failing with "'KEY' must be ..." in context. */
struct json_t;
const char *wl_key_base(const char *key, char *buf, size_t len, unsigned *repeat);
const char *wl_json_type_name(const struct json_t *v);
int wl_get_int(const struct wl_ctx *c, const struct json_t *v, const char *key, long long min,
	       long long max, long long *out);
int wl_get_loop(const struct wl_ctx *c, const struct json_t *v, s64 *out);
int wl_get_duration_us(const struct wl_ctx *c, const struct json_t *v, const char *key, u64 *out);
int wl_get_name(const struct wl_ctx *c, const struct json_t *v, const char *key, char *out);
int wl_parse_policy(const struct wl_ctx *c, const struct json_t *v, const char *key,
		    enum wl_policy *out);
int wl_parse_cpus(const struct wl_ctx *c, const struct json_t *v, struct em_cpumask *mask);
int wl_parse_uclamp(const struct wl_ctx *c, const char *key, const struct json_t *v,
		    struct wl_uclamp *u);

/* Index of the rt-app event that key base names ("run1" -> run), or -1. */
int wl_event_index(const char *base);
/* NULL when event idx is supported, else why not. */
const char *wl_event_unsupported(int idx);
/* Parses the event idx with value v and appends it to tp. */
int wl_add_event(struct wl_ctx *c, struct wl_tphase *tp, const char *base, unsigned repeat, int idx,
		 const struct json_t *v, const char *task_base);

/* Expands and resolves nr templates into w (w->global already filled). */
int wl_resolve(struct wl_ctx *c, const struct wl_ttask *tt, u32 nr, struct workload *w);

#endif
