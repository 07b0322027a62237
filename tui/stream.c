// SPDX-License-Identifier: GPL-2.0-only
/*
 * stream.c - decoding `gearbox-stream/1` lines (docs/stream.md) with jansson.
 *
 * Every field access goes through a getter that knows whether the field is required and what
 * type it must have, so that "a known field of the wrong type rejects the record" is one rule
 * applied everywhere rather than a check remembered at each use.  Unknown fields and unknown
 * record types are ignored, as the format asks.  Integer fields are range-checked into the
 * C type they land in; out of range is a wrong type, not a wrap-around.
 */
#include "stream.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

static const char *const reason_codes[] = {
#define STREAM_REASON_CODE(name, code) [REASON_##name] = code,
    GB_REASON_LIST(STREAM_REASON_CODE)
#undef STREAM_REASON_CODE
};

enum stream_reason stream_reason_from_code(const char *code)
{
	for (size_t i = 0; i < sizeof(reason_codes) / sizeof(reason_codes[0]); i++)
		if (!strcmp(code, reason_codes[i]))
			return (enum stream_reason)i;
	return REASON_UNKNOWN;
}

const char *stream_reason_code(enum stream_reason r)
{
	return r < REASON_UNKNOWN ? reason_codes[r] : "unknown";
}

/* Copies a stream string, keeping printable ASCII only: the terminal must never see controls. */
static void copy_printable(char *dst, size_t size, const char *src)
{
	size_t i = 0;

	for (; src[i] && i + 1 < size; i++) {
		unsigned char c = (unsigned char)src[i];
		dst[i] = (c >= 0x20 && c < 0x7f) ? (char)c : '?';
	}
	dst[i] = '\0';
}

/* Getters: return 0 when absent-and-optional (leaving *out), 1 when read, -EINVAL on error. */
static int get_int(json_t *obj, const char *key, bool required, long long min, long long max,
		   long long *out, const char *ctx, struct gb_err *err)
{
	json_t *v = json_object_get(obj, key);

	if (!v) {
		if (required)
			return gb_err_set(err, EINVAL, "%s%s: missing", ctx, key);
		return 0;
	}
	if (!json_is_integer(v))
		return gb_err_set(err, EINVAL, "%s%s: must be an integer", ctx, key);
	long long x = json_integer_value(v);
	if (x < min || x > max)
		return gb_err_set(err, EINVAL, "%s%s: %lld out of range %lld..%lld", ctx, key, x,
				  min, max);
	*out = x;
	return 1;
}

static int get_str(json_t *obj, const char *key, bool required, char *dst, size_t size,
		   const char *ctx, struct gb_err *err)
{
	json_t *v = json_object_get(obj, key);

	if (!v) {
		if (required)
			return gb_err_set(err, EINVAL, "%s%s: missing", ctx, key);
		return 0;
	}
	if (!json_is_string(v))
		return gb_err_set(err, EINVAL, "%s%s: must be a string", ctx, key);
	copy_printable(dst, size, json_string_value(v));
	return 1;
}

static int get_bool(json_t *obj, const char *key, bool required, bool *out, const char *ctx,
		    struct gb_err *err)
{
	json_t *v = json_object_get(obj, key);

	if (!v) {
		if (required)
			return gb_err_set(err, EINVAL, "%s%s: missing", ctx, key);
		return 0;
	}
	if (!json_is_boolean(v))
		return gb_err_set(err, EINVAL, "%s%s: must be true or false", ctx, key);
	*out = json_is_true(v);
	return 1;
}

/* An array field; *n is its size, which must not exceed max. */
static int get_array(json_t *obj, const char *key, bool required, size_t max, json_t **out,
		     const char *ctx, struct gb_err *err)
{
	json_t *v = json_object_get(obj, key);

	*out = NULL;
	if (!v) {
		if (required)
			return gb_err_set(err, EINVAL, "%s%s: missing", ctx, key);
		return 0;
	}
	if (!json_is_array(v))
		return gb_err_set(err, EINVAL, "%s%s: must be an array", ctx, key);
	if (json_array_size(v) > max)
		return gb_err_set(err, EINVAL, "%s%s: more than %zu entries", ctx, key, max);
	*out = v;
	return 1;
}

#define I32_MAX	 2147483647LL
#define U32_MAX	 4294967295LL
#define UTIL_MAX 1024
/* Utilization can transiently exceed the scale in PELT; clamp at display, accept here. */
#define UTIL_LIMIT 65535

/* GET_INT(obj, "key", required, min, max, lvalue): assigns only when present. */
#define GET_INT(obj, key, req, min, max, dst)                                                      \
	do {                                                                                       \
		long long v_ = 0;                                                                  \
		int r_ = get_int(obj, key, req, min, max, &v_, ctx, err);                          \
		if (r_ < 0)                                                                        \
			return r_;                                                                 \
		if (r_)                                                                            \
			(dst) = v_;                                                                \
	} while (0)

static int decode_opp(json_t *o, struct stream_opp *opp, const char *ctx, struct gb_err *err)
{
	if (!json_is_object(o))
		return gb_err_set(err, EINVAL, "%smust be an object", ctx);
	GET_INT(o, "freq_khz", true, 0, U32_MAX, opp->freq_khz);
	GET_INT(o, "perf", true, 0, UTIL_LIMIT, opp->perf);
	GET_INT(o, "power_uw", true, 0, U32_MAX, opp->power_uw);
	return 0;
}

static int decode_idle_list(json_t *obj, const char *key, size_t max, struct stream_idle_state *st,
			    int *n, const char *list_ctx, struct gb_err *err)
{
	json_t *a;
	int ret;

	*n = 0;
	if ((ret = get_array(obj, key, false, max, &a, list_ctx, err)) <= 0)
		return ret;
	*n = (int)json_array_size(a);
	for (int i = 0; i < *n; i++) {
		json_t *o = json_array_get(a, i);
		struct stream_idle_state *x = &st[i];
		char ctx[96];

		snprintf(ctx, sizeof(ctx), "%s%s[%d].", list_ctx, key, i);
		if (!json_is_object(o))
			return gb_err_set(err, EINVAL, "%smust be an object", ctx);
		memset(x, 0, sizeof(*x));
		if ((ret = get_str(o, "name", true, x->name, sizeof(x->name), ctx, err)) < 0)
			return ret;
		GET_INT(o, "power_uw", true, 0, U32_MAX, x->power_uw);
		GET_INT(o, "entry_latency_us", false, 0, U32_MAX, x->entry_latency_us);
		GET_INT(o, "exit_latency_us", false, 0, U32_MAX, x->exit_latency_us);
		GET_INT(o, "min_residency_us", false, 0, U32_MAX, x->min_residency_us);
	}
	return 0;
}

/* The optional idle part of a hello domain: static_uw and idle_states {cpu, cluster}. */
static int decode_domain_idle(json_t *o, struct stream_domain_info *d, const char *ctx,
			      struct gb_err *err)
{
	json_t *idle = json_object_get(o, "idle_states");
	char ictx[64];
	int ret;

	d->transition_latency_us = -1;
	GET_INT(o, "transition_latency_us", false, 0, U32_MAX, d->transition_latency_us);
	d->has_idle = false;
	d->static_uw = 0;
	d->nr_cpu_idle = d->nr_cluster_idle = 0;
	GET_INT(o, "static_uw", false, 0, U32_MAX, d->static_uw);
	if (!idle)
		return 0;
	if (!json_is_object(idle))
		return gb_err_set(err, EINVAL, "%sidle_states: must be an object", ctx);
	snprintf(ictx, sizeof(ictx), "%sidle_states.", ctx);
	if ((ret = decode_idle_list(idle, "cpu", STREAM_MAX_CPU_IDLE, d->cpu_idle, &d->nr_cpu_idle,
				    ictx, err)) < 0 ||
	    (ret = decode_idle_list(idle, "cluster", STREAM_MAX_CLUSTER_IDLE, d->cluster_idle,
				    &d->nr_cluster_idle, ictx, err)) < 0)
		return ret;
	d->has_idle = true;
	return 0;
}

static int decode_domain_info(json_t *o, int idx, struct stream_domain_info *d, struct gb_err *err)
{
	char ctx[48];
	json_t *a;
	int ret;

	snprintf(ctx, sizeof(ctx), "domains[%d].", idx);
	if (!json_is_object(o))
		return gb_err_set(err, EINVAL, "domains[%d]: must be an object", idx);
	GET_INT(o, "id", true, 0, STREAM_MAX_DOMAINS - 1, d->id);
	snprintf(d->name, sizeof(d->name), "pd%d", d->id);
	if ((ret = get_str(o, "name", false, d->name, sizeof(d->name), ctx, err)) < 0)
		return ret;
	d->capacity = 0;
	GET_INT(o, "capacity", true, 0, UTIL_LIMIT, d->capacity);
	if ((ret = get_array(o, "cpus", true, STREAM_MAX_CPUS, &a, ctx, err)) < 0)
		return ret;
	d->nr_cpus = (int)json_array_size(a);
	for (int i = 0; i < d->nr_cpus; i++) {
		json_t *c = json_array_get(a, i);
		if (!json_is_integer(c) || json_integer_value(c) < 0 ||
		    json_integer_value(c) >= STREAM_MAX_CPUS)
			return gb_err_set(err, EINVAL, "%scpus[%d]: must be a CPU id 0..%d", ctx, i,
					  STREAM_MAX_CPUS - 1);
		d->cpus[i] = (uint16_t)json_integer_value(c);
	}
	d->nr_opps = 0;
	if ((ret = get_array(o, "opps", false, STREAM_MAX_OPPS, &a, ctx, err)) < 0)
		return ret;
	if (a) {
		d->nr_opps = (int)json_array_size(a);
		for (int i = 0; i < d->nr_opps; i++) {
			char octx[64];
			snprintf(octx, sizeof(octx), "%sopps[%d].", ctx, i);
			if ((ret = decode_opp(json_array_get(a, i), &d->opps[i], octx, err)) < 0)
				return ret;
		}
	}
	return decode_domain_idle(o, d, ctx, err);
}

static int decode_hello(json_t *root, struct stream_hello *h, struct gb_err *err)
{
	const char *ctx = "";
	char format[STREAM_NAME_LEN];
	json_t *a;
	int ret;

	if ((ret = get_str(root, "format", true, format, sizeof(format), ctx, err)) < 0)
		return ret;
	/* Same major version only: "gearbox-stream/1" or "gearbox-stream/1.N". */
	size_t fl = strlen(STREAM_FORMAT);
	if (strncmp(format, STREAM_FORMAT, fl) || (format[fl] && format[fl] != '.'))
		return gb_err_set(err, EINVAL, "format \"%s\" is not %s", format, STREAM_FORMAT);
	strcpy(h->source, "?");
	strcpy(h->soc, "?");
	strcpy(h->policy, "?");
	if ((ret = get_str(root, "source", false, h->source, sizeof(h->source), ctx, err)) < 0 ||
	    (ret = get_str(root, "soc", false, h->soc, sizeof(h->soc), ctx, err)) < 0 ||
	    (ret = get_str(root, "policy", false, h->policy, sizeof(h->policy), ctx, err)) < 0)
		return ret;
	GET_INT(root, "nr_cpus", true, 1, STREAM_MAX_CPUS, h->nr_cpus);
	if ((ret = get_array(root, "domains", true, STREAM_MAX_DOMAINS, &a, ctx, err)) < 0)
		return ret;
	h->nr_domains = (int)json_array_size(a);
	if (!h->nr_domains)
		return gb_err_set(err, EINVAL, "domains: empty");
	for (int i = 0; i < h->nr_domains; i++)
		if ((ret = decode_domain_info(json_array_get(a, i), i, &h->domains[i], err)) < 0)
			return ret;
	return 0;
}

static int decode_sample_domains(json_t *a, struct stream_sample *s, struct gb_err *err)
{
	s->nr_domains = (int)json_array_size(a);
	for (int i = 0; i < s->nr_domains; i++) {
		struct stream_domain_sample *d = &s->domains[i];
		json_t *o = json_array_get(a, i);
		char ctx[48];
		int ret;

		snprintf(ctx, sizeof(ctx), "domains[%d].", i);
		if (!json_is_object(o))
			return gb_err_set(err, EINVAL, "domains[%d]: must be an object", i);
		memset(d, 0, sizeof(*d));
		GET_INT(o, "id", true, 0, STREAM_MAX_DOMAINS - 1, d->id);
		GET_INT(o, "util", true, 0, UTIL_LIMIT, d->util);
		GET_INT(o, "perf_target", false, 0, UTIL_LIMIT, d->perf_target);
		GET_INT(o, "freq_khz", true, 0, U32_MAX, d->freq_khz);
		GET_INT(o, "power_uw", false, 0, U32_MAX, d->power_uw);
		if ((ret = get_bool(o, "overutilized", false, &d->overutilized, ctx, err)) < 0)
			return ret;
	}
	return 0;
}

static int decode_sample_cpus(json_t *a, struct stream_sample *s, struct gb_err *err)
{
	s->nr_cpus = (int)json_array_size(a);
	for (int i = 0; i < s->nr_cpus; i++) {
		struct stream_cpu_sample *c = &s->cpus[i];
		json_t *o = json_array_get(a, i);
		char ctx[48];
		int ret;

		snprintf(ctx, sizeof(ctx), "cpus[%d].", i);
		if (!json_is_object(o))
			return gb_err_set(err, EINVAL, "cpus[%d]: must be an object", i);
		memset(c, 0, sizeof(*c));
		GET_INT(o, "cpu", true, 0, STREAM_MAX_CPUS - 1, c->cpu);
		GET_INT(o, "util", true, 0, UTIL_LIMIT, c->util);
		GET_INT(o, "pid", false, 0, I32_MAX, c->pid);
		if ((ret = get_str(o, "comm", false, c->comm, sizeof(c->comm), ctx, err)) < 0)
			return ret;
	}
	return 0;
}

static int decode_sample_tasks(json_t *a, struct stream_sample *s, struct gb_err *err)
{
	s->nr_tasks = (int)json_array_size(a);
	for (int i = 0; i < s->nr_tasks; i++) {
		struct stream_task *t = &s->tasks[i];
		json_t *o = json_array_get(a, i);
		char ctx[48];
		int ret;

		snprintf(ctx, sizeof(ctx), "tasks[%d].", i);
		if (!json_is_object(o))
			return gb_err_set(err, EINVAL, "tasks[%d]: must be an object", i);
		memset(t, 0, sizeof(*t));
		t->uclamp_max = UTIL_MAX;
		t->cpu = -1;
		GET_INT(o, "pid", true, 0, I32_MAX, t->pid);
		if ((ret = get_str(o, "comm", false, t->comm, sizeof(t->comm), ctx, err)) < 0)
			return ret;
		GET_INT(o, "util", true, 0, UTIL_LIMIT, t->util);
		GET_INT(o, "uclamp_min", false, 0, UTIL_MAX, t->uclamp_min);
		GET_INT(o, "uclamp_max", false, 0, UTIL_MAX, t->uclamp_max);
		GET_INT(o, "cpu", false, -1, STREAM_MAX_CPUS - 1, t->cpu);
		GET_INT(o, "migrations", false, 0, I32_MAX, t->migrations);
	}
	return 0;
}

static int decode_sample(json_t *root, struct stream_sample *s, struct gb_err *err)
{
	const char *ctx = "";
	json_t *a;
	int ret;

	s->energy_uj = 0;
	GET_INT(root, "t_us", true, 0, INT64_MAX, s->t_us);
	GET_INT(root, "energy_uj", false, 0, INT64_MAX, s->energy_uj);
	if ((ret = get_array(root, "domains", true, STREAM_MAX_DOMAINS, &a, ctx, err)) < 0 ||
	    (ret = decode_sample_domains(a, s, err)) < 0)
		return ret;
	s->nr_cpus = 0;
	if ((ret = get_array(root, "cpus", false, STREAM_MAX_CPUS, &a, ctx, err)) < 0)
		return ret;
	if (a && (ret = decode_sample_cpus(a, s, err)) < 0)
		return ret;
	s->nr_tasks = 0;
	if ((ret = get_array(root, "tasks", false, STREAM_MAX_TASKS, &a, ctx, err)) < 0)
		return ret;
	s->has_tasks = a != NULL;
	if (a && (ret = decode_sample_tasks(a, s, err)) < 0)
		return ret;
	return 0;
}

static int decode_decision(json_t *root, struct stream_decision *d, struct gb_err *err)
{
	const char *ctx = "";
	int ret;

	memset(d, 0, sizeof(*d));
	d->uclamp_max = UTIL_MAX;
	d->from_cap = d->to_cap = -1;
	d->from_freq_khz = d->to_freq_khz = -1;
	GET_INT(root, "t_us", true, 0, INT64_MAX, d->t_us);
	GET_INT(root, "pid", true, 0, I32_MAX, d->pid);
	if ((ret = get_str(root, "comm", false, d->comm, sizeof(d->comm), ctx, err)) < 0)
		return ret;
	GET_INT(root, "from", true, -1, STREAM_MAX_CPUS - 1, d->from);
	GET_INT(root, "to", true, 0, STREAM_MAX_CPUS - 1, d->to);
	if ((ret = get_str(root, "reason", true, d->reason_code, sizeof(d->reason_code), ctx,
			   err)) < 0)
		return ret;
	d->reason = stream_reason_from_code(d->reason_code);
	GET_INT(root, "power_delta_uw", false, -I32_MAX * 1000, I32_MAX * 1000, d->power_delta_uw);
	GET_INT(root, "util", false, 0, UTIL_LIMIT, d->util);
	GET_INT(root, "uclamp_min", false, 0, UTIL_MAX, d->uclamp_min);
	GET_INT(root, "uclamp_max", false, 0, UTIL_MAX, d->uclamp_max);
	GET_INT(root, "from_cap", false, 0, UTIL_LIMIT, d->from_cap);
	GET_INT(root, "to_cap", false, 0, UTIL_LIMIT, d->to_cap);
	GET_INT(root, "from_freq_khz", false, 0, U32_MAX, d->from_freq_khz);
	GET_INT(root, "to_freq_khz", false, 0, U32_MAX, d->to_freq_khz);
	return 0;
}

int stream_decode(const char *line, size_t len, struct stream_rec *rec, struct gb_err *err)
{
	json_error_t jerr;
	char type[STREAM_NAME_LEN];
	int ret;

	rec->type = STREAM_OTHER; /* until the type is known: callers look at it on failure */
	json_t *root = json_loadb(line, len, 0, &jerr);
	if (!root)
		return gb_err_set(err, EINVAL, "not JSON: %s (column %d)", jerr.text, jerr.column);
	if (!json_is_object(root)) {
		ret = gb_err_set(err, EINVAL, "not a JSON object");
		goto out;
	}
	if ((ret = get_str(root, "type", true, type, sizeof(type), "", err)) < 0)
		goto out;
	if (!strcmp(type, "hello")) {
		rec->type = STREAM_HELLO;
		ret = decode_hello(root, &rec->hello, err);
	} else if (!strcmp(type, "sample")) {
		rec->type = STREAM_SAMPLE;
		ret = decode_sample(root, &rec->sample, err);
	} else if (!strcmp(type, "decision")) {
		rec->type = STREAM_DECISION;
		ret = decode_decision(root, &rec->decision, err);
	} else if (!strcmp(type, "end")) {
		const char *ctx = "";
		rec->type = STREAM_END;
		rec->end.t_us = 0;
		rec->end.energy_uj = 0;
		ret = 0;
		long long v = 0;
		if ((ret = get_int(root, "t_us", true, 0, INT64_MAX, &v, ctx, err)) < 0)
			goto out;
		rec->end.t_us = v;
		if ((ret = get_int(root, "energy_uj", false, 0, INT64_MAX, &v, ctx, err)) < 0)
			goto out;
		if (ret)
			rec->end.energy_uj = (uint64_t)v;
		ret = 0;
	} else {
		rec->type = STREAM_OTHER; /* future record types are ignored, not errors */
		ret = 0;
	}
	if (ret > 0)
		ret = 0;
out:
	json_decref(root);
	return ret;
}

int64_t stream_rec_time_us(const struct stream_rec *rec)
{
	switch (rec->type) {
	case STREAM_SAMPLE:
		return rec->sample.t_us;
	case STREAM_DECISION:
		return rec->decision.t_us;
	case STREAM_END:
		return rec->end.t_us;
	default:
		return -1;
	}
}

int stream_lines_init(struct stream_lines *sl, struct gb_err *err)
{
	memset(sl, 0, sizeof(*sl));
	sl->buf = malloc(STREAM_MAX_LINE + 1);
	if (!sl->buf)
		return gb_err_set(err, ENOMEM, "out of memory for the line buffer");
	return 0;
}

void stream_lines_free(struct stream_lines *sl)
{
	free(sl->buf);
	sl->buf = NULL;
}

void stream_lines_reset(struct stream_lines *sl)
{
	sl->len = 0;
	sl->skipping = false;
	sl->line_no = 0;
}

int stream_lines_feed(struct stream_lines *sl, const char *data, size_t n, size_t *consumed,
		      const char **line, size_t *line_len, struct gb_err *err)
{
	const char *nl = memchr(data, '\n', n);
	size_t take = nl ? (size_t)(nl - data) : n;

	*line = NULL;
	*line_len = 0;
	*consumed = nl ? take + 1 : n;
	if (sl->skipping) {
		if (nl) {
			sl->skipping = false;
			sl->len = 0;
		}
		return 0;
	}
	if (sl->len + take > STREAM_MAX_LINE) {
		sl->line_no++;
		sl->len = 0;
		sl->skipping = !nl;
		return gb_err_set(err, E2BIG, "line longer than %u bytes, skipped",
				  STREAM_MAX_LINE);
	}
	memcpy(sl->buf + sl->len, data, take);
	sl->len += take;
	if (!nl)
		return 0;
	sl->line_no++;
	sl->buf[sl->len] = '\0';
	*line = sl->buf;
	*line_len = sl->len;
	sl->len = 0;
	return 1;
}

int stream_lines_finish(struct stream_lines *sl, struct gb_err *err)
{
	bool partial = sl->len > 0 || sl->skipping;

	sl->len = 0;
	sl->skipping = false;
	if (!partial)
		return 0;
	sl->line_no++;
	return gb_err_set(err, EPIPE, "truncated record (no newline at end of stream)");
}
