// SPDX-License-Identifier: GPL-2.0-only
/*
 * em_profile.c - loading, checking and writing em-profile files (docs/em-profile.md).
 *
 * Loading is two passes.  The first walks the JSON with jansson and checks each field's
 * presence, type and range, as "domain N, OPP M: reason".  The second (check_model, also run
 * by em_profile_finalize for the importers) checks the range of every value a profile can
 * hold and the relations between fields (increasing frequency and performance, CPUs in one
 * domain only), derives what the kernel derives, and orders the domains by capacity.  Both
 * passes go on after an error, so that `em validate` reports every error of a file; a domain
 * with an error in the first pass is left out of the second (its relations would only repeat
 * the error).  Unknown fields are errors: a misspelt "power_mw" must not silently become "no
 * power".
 */
#include "em_profile.h"

#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cpulist.h"
#include "outfile.h"

#define EM_FILE_MAX (64u << 20) /* bytes: no real model comes near it */

/* Where errors go: the first into err, every one into all (when given). */
struct diag {
	struct gb_err *err;
	struct em_errors *all;
	int count;
};

/* Where a field is, for messages: "domain 2, OPP 5". */
struct loc {
	struct diag *dg;
	int domain;
	int opp;
};

static int loc_err(const struct loc *l, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static int loc_err(const struct loc *l, const char *fmt, ...)
{
	char what[GB_ERR_MSG_LEN], msg[GB_ERR_MSG_LEN];
	struct diag *dg = l->dg;
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	if (l->domain >= 0 && l->opp >= 0)
		snprintf(msg, sizeof(msg), "domain %d, OPP %d: %s", l->domain, l->opp, what);
	else if (l->domain >= 0)
		snprintf(msg, sizeof(msg), "domain %d: %s", l->domain, what);
	else
		snprintf(msg, sizeof(msg), "%s", what);
	if (dg->count == 0)
		gb_err_set(dg->err, EINVAL, "%s", msg);
	if (dg->all) {
		if (dg->all->count < EM_ERRORS_KEPT)
			memcpy(dg->all->msg[dg->all->count], msg, sizeof(msg));
		dg->all->count++;
	}
	dg->count++;
	return -EINVAL;
}

/* Every unknown key is an error. */
static int check_keys(json_t *obj, const char *const *known, const struct loc *l, const char *where)
{
	const char *key;
	json_t *v;
	int rc = 0;

	json_object_foreach (obj, key, v) {
		int ok = 0;

		for (const char *const *k = known; *k; k++)
			ok |= !strcmp(key, *k);
		if (!ok)
			rc = loc_err(l, "unknown field \"%s\" in %s", key, where);
	}
	return rc;
}

/* An integer field in [lo, hi]; absent is an error when required, else leaves *out alone. */
static int get_uint(json_t *obj, const char *name, bool required, long long lo, long long hi,
		    u32 *out, const struct loc *l)
{
	json_t *v = json_object_get(obj, name);
	long long x;

	if (!v) {
		if (required)
			return loc_err(l, "missing field \"%s\"", name);
		return 0;
	}
	if (json_is_real(v))
		return loc_err(l, "\"%s\" must be an integer, not %g", name, json_real_value(v));
	if (!json_is_integer(v))
		return loc_err(l, "\"%s\" must be an integer", name);
	x = json_integer_value(v);
	if (x < lo || x > hi)
		return loc_err(l, "\"%s\" is %lld, must be in %lld..%lld", name, x, lo, hi);
	*out = (u32)x;
	return 0;
}

static int get_str(json_t *obj, const char *name, bool required, char *out, size_t len,
		   const struct loc *l)
{
	json_t *v = json_object_get(obj, name);

	if (!v) {
		if (required)
			return loc_err(l, "missing field \"%s\"", name);
		return 0;
	}
	if (!json_is_string(v))
		return loc_err(l, "\"%s\" must be a string", name);
	if (strlen(json_string_value(v)) >= len)
		return loc_err(l, "\"%s\" is longer than %zu characters", name, len - 1);
	strcpy(out, json_string_value(v));
	return 0;
}

static int parse_cpus(json_t *v, struct em_cpumask *mask, const struct loc *l)
{
	size_t i;
	json_t *c;
	int rc = 0;

	if (!v)
		return loc_err(l, "missing field \"cpus\"");
	if (json_is_string(v)) {
		struct gb_err sub;

		if (cpulist_parse(json_string_value(v), mask, &sub)) {
			memset(mask, 0, sizeof(*mask)); /* claims no CPU in the second pass */
			return loc_err(l, "cpus: %s", sub.msg);
		}
		return 0;
	}
	if (!json_is_array(v) || json_array_size(v) == 0)
		return loc_err(l,
			       "\"cpus\" must be a CPU list string (\"0-3\") or a non-empty array");
	memset(mask, 0, sizeof(*mask));
	json_array_foreach (v, i, c) {
		if (!json_is_integer(c) || json_integer_value(c) < 0 ||
		    json_integer_value(c) >= EM_MAX_CPUS)
			rc = loc_err(l, "cpus[%zu] must be a CPU id in 0..%d", i, EM_MAX_CPUS - 1);
		else if (em_cpumask_test(mask, (u32)json_integer_value(c)))
			rc = loc_err(l, "cpus: CPU %lld listed twice", json_integer_value(c));
		else
			em_cpumask_set(mask, (u32)json_integer_value(c));
	}
	return rc;
}

/* An optional object field: NULL when absent, an error when not an object. */
static json_t *get_obj(json_t *o, const char *name, const struct loc *l, int *rc)
{
	json_t *s = json_object_get(o, name);

	if (s && !json_is_object(s)) {
		*rc = loc_err(l, "\"%s\" must be an object", name);
		return NULL;
	}
	return s;
}

/* rc |= ... keeps the first pass going after an error: every error is a negative -EINVAL. */
static int parse_opp(json_t *o, struct em_opp *opp, struct em_opp_meta *meta, const struct loc *l)
{
	static const char *const keys[] = {"freq_khz", "power_uw", "perf",  "voltage_uv",
					   "spread",   "raw",	   "split", NULL};
	static const char *const spread_keys[] = {"power_uw", "perf", "samples", NULL};
	static const char *const raw_keys[] = {"power_uw", "perf", NULL};
	static const char *const split_keys[] = {"static_uw", "dynamic_uw", "cpus", NULL};
	json_t *s;
	int rc = 0;

	if (!json_is_object(o))
		return loc_err(l, "an OPP must be an object");
	rc |= check_keys(o, keys, l, "OPP");
	rc |= get_uint(o, "freq_khz", true, 1, EM_MAX_FREQ_KHZ, &opp->freq_khz, l);
	rc |= get_uint(o, "power_uw", true, 1, EM_MAX_POWER_UW, &opp->power_uw, l);
	rc |= get_uint(o, "perf", true, 1, EM_CAPACITY_SCALE, &opp->perf, l);
	rc |= get_uint(o, "voltage_uv", false, 1, EM_MAX_VOLTAGE_UV, &opp->voltage_uv, l);
	if ((s = get_obj(o, "spread", l, &rc))) {
		meta->has_spread = true;
		rc |= check_keys(s, spread_keys, l, "spread");
		rc |= get_uint(s, "power_uw", true, 0, EM_MAX_POWER_UW, &meta->power_spread_uw, l);
		rc |= get_uint(s, "perf", false, 0, EM_CAPACITY_SCALE, &meta->perf_spread, l);
		rc |= get_uint(s, "samples", false, 0, EM_MAX_SAMPLES, &meta->samples, l);
	}
	if ((s = get_obj(o, "raw", l, &rc))) {
		meta->has_raw = true;
		rc |= check_keys(s, raw_keys, l, "raw");
		rc |= get_uint(s, "power_uw", true, 0, EM_MAX_POWER_UW, &meta->raw_power_uw, l);
		rc |= get_uint(s, "perf", false, 0, EM_CAPACITY_SCALE, &meta->raw_perf, l);
	}
	if ((s = get_obj(o, "split", l, &rc))) {
		meta->has_split = true;
		rc |= check_keys(s, split_keys, l, "split");
		rc |= get_uint(s, "static_uw", true, 0, EM_MAX_POWER_UW, &meta->static_uw, l);
		rc |= get_uint(s, "dynamic_uw", true, 1, EM_MAX_POWER_UW, &meta->dynamic_uw, l);
		rc |= get_uint(s, "cpus", true, 2, EM_MAX_CPUS, &meta->split_cpus, l);
	}
	return rc ? -EINVAL : 0;
}

/* One idle state of idle_states.cpu[] or .cluster[]: every field required. */
static int parse_idle_state(json_t *o, struct em_idle_state *st, const char *where,
			    const struct loc *l)
{
	static const char *const keys[] = {
	    "name", "power_uw", "entry_latency_us", "exit_latency_us", "min_residency_us", NULL};
	struct gb_err sub;
	struct diag sub_dg = {&sub, NULL, 0};
	const struct loc none = {&sub_dg, -1, -1};

	if (!json_is_object(o))
		return loc_err(l, "idle_states: %s must be an object", where);
	/* the field's own message (the first), placed after the domain and the state */
	if (check_keys(o, keys, &none, "an idle state") ||
	    get_str(o, "name", true, st->name, sizeof(st->name), &none) ||
	    get_uint(o, "power_uw", true, 0, EM_MAX_POWER_UW, &st->power_uw, &none) ||
	    get_uint(o, "entry_latency_us", true, 0, EM_IDLE_MAX_US, &st->entry_latency_us,
		     &none) ||
	    get_uint(o, "exit_latency_us", true, 0, EM_IDLE_MAX_US, &st->exit_latency_us, &none) ||
	    get_uint(o, "min_residency_us", true, 0, EM_IDLE_MAX_US, &st->min_residency_us, &none))
		return loc_err(l, "idle_states: %s: %s", where, sub.msg);
	if (!st->name[0])
		return loc_err(l, "idle_states: %s: \"name\" is empty", where);
	if (st->exit_latency_us > st->min_residency_us)
		return loc_err(l,
			       "idle_states: %s: exit_latency_us %u is above min_residency_us "
			       "%u (a state is not worth entering for less than its exit)",
			       where, st->exit_latency_us, st->min_residency_us);
	return 0;
}

/* A list of states, shallowest first: power never rises, residency never falls. */
static int parse_idle_list(json_t *a, const char *what, struct em_idle_state *out, u32 max, u32 *n,
			   u32 power_cap, const struct loc *l)
{
	char where[32];
	size_t i;
	json_t *o;
	int rc;

	if (!json_is_array(a))
		return loc_err(l, "idle_states: \"%s\" must be an array", what);
	if (json_array_size(a) > max)
		return loc_err(l, "idle_states: %zu %s states, at most %u are supported",
			       json_array_size(a), what, max);
	json_array_foreach (a, i, o) {
		struct em_idle_state *st = &out[i];

		snprintf(where, sizeof(where), "%s[%zu]", what, i);
		rc = parse_idle_state(o, st, where, l);
		if (rc)
			return rc;
		if (st->power_uw > power_cap)
			return loc_err(l,
				       "idle_states: %s: power_uw %u is above static_uw %u (a "
				       "cluster state saves power)",
				       where, st->power_uw, power_cap);
		if (i && st->power_uw > out[i - 1].power_uw)
			return loc_err(l,
				       "idle_states: %s: power_uw %u is above the shallower "
				       "state's %u (deeper states draw less)",
				       where, st->power_uw, out[i - 1].power_uw);
		if (i && st->min_residency_us < out[i - 1].min_residency_us)
			return loc_err(l,
				       "idle_states: %s: min_residency_us %u is below the "
				       "shallower state's %u (states are listed shallowest first)",
				       where, st->min_residency_us, out[i - 1].min_residency_us);
	}
	*n = (u32)json_array_size(a);
	return 0;
}

static int parse_idle_states(json_t *v, struct em_idle_states *is, const struct loc *l)
{
	static const char *const keys[] = {"version", "static_uw", "cpu", "cluster", NULL};
	u32 version = 0;
	json_t *a;
	int rc;

	if (!json_is_object(v))
		return loc_err(l, "\"idle_states\" must be an object");
	if ((rc = check_keys(v, keys, l, "idle_states")) ||
	    (rc = get_uint(v, "version", true, 0, UINT32_MAX, &version, l)))
		return rc;
	if (version != EM_IDLE_VERSION)
		return loc_err(l, "idle_states: version %u is not supported (this is %d)", version,
			       EM_IDLE_VERSION);
	if ((rc = get_uint(v, "static_uw", true, 0, EM_MAX_POWER_UW, &is->static_uw, l)))
		return rc;
	a = json_object_get(v, "cpu");
	if (!a)
		return loc_err(l, "idle_states: missing field \"cpu\"");
	rc = parse_idle_list(a, "cpu", is->cpu, EM_MAX_CPU_IDLE, &is->nr_cpu, EM_MAX_POWER_UW, l);
	if (rc)
		return rc;
	if (!is->nr_cpu)
		return loc_err(l, "idle_states: \"cpu\" is empty (list at least WFI)");
	a = json_object_get(v, "cluster");
	if (a) {
		rc = parse_idle_list(a, "cluster", is->cluster, EM_MAX_CLUSTER_IDLE,
				     &is->nr_cluster, is->static_uw, l);
		if (rc)
			return rc;
	}
	is->present = true;
	return 0;
}

static int parse_domain(json_t *d, struct em_profile *prof, int di, struct diag *dg)
{
	static const char *const keys[] = {
	    "name",	   "core", "cpus", "idle_power_uw", "transition_latency_us",
	    "idle_states", "opps", NULL};
	struct em_domain *pd = &prof->model.domains[di];
	struct loc l = {dg, di, -1};
	json_t *opps, *o;
	size_t i;
	int rc = 0;

	if (!json_is_object(d))
		return loc_err(&l, "a domain must be an object");
	snprintf(pd->name, sizeof(pd->name), "pd%d", di);
	rc |= check_keys(d, keys, &l, "domain");
	rc |= get_str(d, "name", false, pd->name, sizeof(pd->name), &l);
	rc |= get_str(d, "core", false, prof->core[di], sizeof(prof->core[di]), &l);
	rc |= parse_cpus(json_object_get(d, "cpus"), &pd->cpus, &l);
	rc |= get_uint(d, "idle_power_uw", false, 0, EM_MAX_POWER_UW, &pd->idle_power_uw, &l);
	if (json_object_get(d, "transition_latency_us")) {
		if (get_uint(d, "transition_latency_us", false, 0, EM_IDLE_MAX_US,
			     &prof->transition_latency_us[di], &l))
			rc = -EINVAL;
		else
			prof->has_transition_latency[di] = true;
	}
	if (json_object_get(d, "idle_states"))
		rc |= parse_idle_states(json_object_get(d, "idle_states"), &prof->idle[di], &l);
	opps = json_object_get(d, "opps");
	if (!opps)
		return loc_err(&l, "missing field \"opps\"");
	if (!json_is_array(opps) || json_array_size(opps) == 0)
		return loc_err(&l, "\"opps\" must be a non-empty array");
	if (json_array_size(opps) > EM_MAX_OPPS)
		return loc_err(&l, "%zu OPPs, at most %d are supported", json_array_size(opps),
			       EM_MAX_OPPS);
	pd->nr_opps = (u32)json_array_size(opps);
	json_array_foreach (opps, i, o) {
		l.opp = (int)i;
		rc |= parse_opp(o, &pd->opps[i], &prof->meta[di][i], &l);
	}
	return rc ? -EINVAL : 0;
}

static int parse_provenance(json_t *p, struct em_provenance *prov, struct diag *dg)
{
	static const char *const keys[] = {
	    "source",	  "date",	 "tool",	"tool_version", "device",
	    "conditions", "perf_source", "duration_ms", "temp_max_mc",	NULL};
	struct loc l = {dg, -1, -1};
	json_t *t;
	int rc = 0;

	if (!p)
		return loc_err(&l, "missing field \"provenance\"");
	if (!json_is_object(p))
		return loc_err(&l, "\"provenance\" must be an object");
	rc |= check_keys(p, keys, &l, "provenance");
	rc |= get_str(p, "source", true, prov->source, sizeof(prov->source), &l);
	rc |= get_str(p, "date", false, prov->date, sizeof(prov->date), &l);
	rc |= get_str(p, "tool", false, prov->tool, sizeof(prov->tool), &l);
	rc |= get_str(p, "tool_version", false, prov->tool_version, sizeof(prov->tool_version), &l);
	rc |= get_str(p, "device", false, prov->device, sizeof(prov->device), &l);
	rc |= get_str(p, "conditions", false, prov->conditions, sizeof(prov->conditions), &l);
	rc |= get_str(p, "perf_source", false, prov->perf_source, sizeof(prov->perf_source), &l);
	if (prov->perf_source[0] && strcmp(prov->perf_source, "instructions") &&
	    strcmp(prov->perf_source, "iterations"))
		rc = loc_err(&l,
			     "\"perf_source\" is \"%s\", must be \"instructions\" or "
			     "\"iterations\"",
			     prov->perf_source);
	if (json_object_get(p, "duration_ms")) {
		if (get_uint(p, "duration_ms", false, 0, UINT32_MAX, &prov->duration_ms, &l))
			rc = -EINVAL;
		else
			prov->has_duration = true;
	}
	t = json_object_get(p, "temp_max_mc");
	if (t) {
		if (!json_is_integer(t) || json_integer_value(t) < EM_MIN_TEMP_MC ||
		    json_integer_value(t) > EM_MAX_TEMP_MC) {
			rc = loc_err(&l, "\"temp_max_mc\" must be an integer in %d..%d",
				     EM_MIN_TEMP_MC, EM_MAX_TEMP_MC);
		} else {
			prov->has_temp = true;
			prov->temp_max_mc = (int)json_integer_value(t);
		}
	}
	return rc ? -EINVAL : 0;
}

/* bad[d]: domain d had an error here, and the second pass leaves it out. */
static int parse_root(json_t *root, struct em_profile *prof, bool *bad, struct diag *dg)
{
	static const char *const keys[] = {"format",	 "soc",	    "description",
					   "provenance", "domains", NULL};
	struct loc l = {dg, -1, -1};
	json_t *fmt, *doms, *d;
	size_t i;
	int rc = 0;

	if (!json_is_object(root))
		return loc_err(&l, "the top level must be an object");
	fmt = json_object_get(root, "format");
	if (!fmt)
		return loc_err(&l, "missing field \"format\" (expected \"%s\")", EM_FORMAT);
	if (!json_is_string(fmt))
		return loc_err(&l, "\"format\" must be a string");
	if (strcmp(json_string_value(fmt), EM_FORMAT)) {
		if (!strncmp(json_string_value(fmt), "gearbox-em/", 11))
			return loc_err(&l, "format \"%s\" is not supported (this is %s)",
				       json_string_value(fmt), EM_FORMAT);
		return loc_err(&l, "format is \"%s\", not \"%s\"", json_string_value(fmt),
			       EM_FORMAT);
	}
	rc |= check_keys(root, keys, &l, "the top level");
	rc |= get_str(root, "soc", true, prof->soc, sizeof(prof->soc), &l);
	rc |= get_str(root, "description", false, prof->description, sizeof(prof->description), &l);
	rc |= parse_provenance(json_object_get(root, "provenance"), &prof->prov, dg);
	doms = json_object_get(root, "domains");
	if (!doms)
		return loc_err(&l, "missing field \"domains\"");
	if (!json_is_array(doms) || json_array_size(doms) == 0)
		return loc_err(&l, "\"domains\" must be a non-empty array");
	if (json_array_size(doms) > EM_MAX_DOMAINS)
		return loc_err(&l, "%zu perf domains, at most %d are supported",
			       json_array_size(doms), EM_MAX_DOMAINS);
	prof->model.nr_domains = (u32)json_array_size(doms);
	json_array_foreach (doms, i, d) {
		bad[i] = parse_domain(d, prof, (int)i, dg) < 0;
		rc |= bad[i] ? -EINVAL : 0;
	}
	return rc ? -EINVAL : 0;
}

void em_add_warning(struct em_warnings *w, const char *fmt, ...)
{
	va_list ap;

	if (!w)
		return;
	if (w->count < (int)(sizeof(w->msg) / sizeof(w->msg[0]))) {
		va_start(ap, fmt);
		vsnprintf(w->msg[w->count], sizeof(w->msg[0]), fmt, ap);
		va_end(ap);
	}
	w->count++;
}

/* A range check of a value already in the profile (set by the loader or by an importer). */
static int check_range(const struct loc *l, const char *name, long long v, long long lo,
		       long long hi)
{
	if (v < lo || v > hi)
		return loc_err(l, "\"%s\" is %lld, must be in %lld..%lld", name, v, lo, hi);
	return 0;
}

/* The ranges the loader enforces on every value, so that an importer cannot write a profile
 * that the loader refuses. */
static int check_values(const struct em_profile *prof, u32 d, struct diag *dg)
{
	const struct em_domain *pd = &prof->model.domains[d];
	struct loc l = {dg, (int)d, -1};
	int rc = 0;

	rc |= check_range(&l, "idle_power_uw", pd->idle_power_uw, 0, EM_MAX_POWER_UW);
	if (pd->nr_opps == 0 || pd->nr_opps > EM_MAX_OPPS)
		return loc_err(&l, "%u OPPs, must be 1..%d", pd->nr_opps, EM_MAX_OPPS);
	if (cpumask_weight(&pd->cpus) == 0)
		rc = loc_err(&l, "no CPUs");
	for (u32 i = 0; i < pd->nr_opps; i++) {
		const struct em_opp *o = &pd->opps[i];
		const struct em_opp_meta *m = &prof->meta[d][i];

		l.opp = (int)i;
		rc |= check_range(&l, "freq_khz", o->freq_khz, 1, EM_MAX_FREQ_KHZ);
		rc |= check_range(&l, "power_uw", o->power_uw, 1, EM_MAX_POWER_UW);
		rc |= check_range(&l, "perf", o->perf, 1, EM_CAPACITY_SCALE);
		if (o->voltage_uv)
			rc |= check_range(&l, "voltage_uv", o->voltage_uv, 1, EM_MAX_VOLTAGE_UV);
		if (m->has_spread) {
			rc |= check_range(&l, "spread.power_uw", m->power_spread_uw, 0,
					  EM_MAX_POWER_UW);
			rc |= check_range(&l, "spread.perf", m->perf_spread, 0, EM_CAPACITY_SCALE);
			rc |= check_range(&l, "spread.samples", m->samples, 0, EM_MAX_SAMPLES);
		}
		if (m->has_raw) {
			rc |= check_range(&l, "raw.power_uw", m->raw_power_uw, 0, EM_MAX_POWER_UW);
			rc |= check_range(&l, "raw.perf", m->raw_perf, 0, EM_CAPACITY_SCALE);
		}
		if (m->has_split) {
			rc |= check_range(&l, "split.static_uw", m->static_uw, 0, EM_MAX_POWER_UW);
			rc |=
			    check_range(&l, "split.dynamic_uw", m->dynamic_uw, 1, EM_MAX_POWER_UW);
			rc |= check_range(&l, "split.cpus", m->split_cpus, 2, EM_MAX_CPUS);
		}
	}
	return rc ? -EINVAL : 0;
}

/*
 * OPPs that did not apply: CPU-bound work scales with frequency, so an OPP whose performance
 * does not follow its frequency most likely ran slower than asked (a firmware or thermal
 * cap).  Two signs, each with one unit of perf allowed for rounding:
 *   - perf rose less than half as much as frequency from the OPP below (relative rises);
 *   - perf per kHz below EM_UNAPPLIED_RATIO (em_profile.h) of the domain's median.
 */
static bool perf_flat(const struct em_opp *p, const struct em_opp *o)
{
	return ((u64)o->perf + 1 - p->perf) * p->freq_khz * 2 <
	       ((u64)o->freq_khz - p->freq_khz) * p->perf;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* The median of perf per kHz over the domain's OPPs. */
static double median_perf_per_khz(const struct em_domain *pd)
{
	double r[EM_MAX_OPPS];
	u32 n = pd->nr_opps;

	for (u32 i = 0; i < n; i++)
		r[i] = (double)pd->opps[i].perf / pd->opps[i].freq_khz;
	qsort(r, n, sizeof(r[0]), cmp_double);
	return n % 2 ? r[n / 2] : (r[n / 2 - 1] + r[n / 2]) / 2;
}

/* An OPP that did not apply: a warning, an error when strict. */
static int unapplied(const struct loc *l, bool strict, struct em_warnings *warn, const char *what)
{
	if (strict)
		return loc_err(l, "%s", what);
	em_add_warning(warn, "domain %d, OPP %d: %s", l->domain, l->opp, what);
	return 0;
}

/* Relations within one domain: increasing frequency and perf; power that falls and OPPs that
 * did not apply are warnings (errors when strict). */
static int check_domain(const struct em_domain *pd, int di, bool strict, struct em_warnings *warn,
			struct diag *dg)
{
	char what[GB_ERR_MSG_LEN];
	struct loc l = {dg, di, -1};
	double median;
	int rc = 0;

	for (u32 i = 1; i < pd->nr_opps; i++) {
		const struct em_opp *o = &pd->opps[i], *p = &pd->opps[i - 1];

		l.opp = (int)i;
		if (o->freq_khz <= p->freq_khz) {
			rc = loc_err(&l, "frequency %u kHz does not increase (previous OPP %u kHz)",
				     o->freq_khz, p->freq_khz);
			continue;
		}
		if (o->perf <= p->perf) {
			rc = loc_err(&l,
				     "perf %u does not increase with frequency (previous OPP %u)",
				     o->perf, p->perf);
			continue;
		}
		if (o->power_uw <= p->power_uw) {
			if (strict)
				rc = loc_err(&l,
					     "power %u uW does not rise with frequency "
					     "(previous OPP %u uW)",
					     o->power_uw, p->power_uw);
			else
				em_add_warning(
				    warn,
				    "domain %d, OPP %u: power %u uW does not rise with "
				    "frequency (previous OPP %u uW): implausible, but real "
				    "measurements contain it",
				    di, i, o->power_uw, p->power_uw);
		}
		if (perf_flat(p, o)) {
			snprintf(
			    what, sizeof(what),
			    "perf %u at %u kHz rises %.1f%% for %.1f%% more "
			    "frequency (previous OPP %u at %u kHz): the OPP most likely did not "
			    "apply",
			    o->perf, o->freq_khz, (o->perf - p->perf) * 100.0 / p->perf,
			    (o->freq_khz - p->freq_khz) * 100.0 / p->freq_khz, p->perf,
			    p->freq_khz);
			rc |= unapplied(&l, strict, warn, what);
		}
	}
	if (rc)
		return rc;
	median = median_perf_per_khz(pd);
	for (u32 i = 0; i < pd->nr_opps; i++) {
		const struct em_opp *o = &pd->opps[i];

		l.opp = (int)i;
		if ((o->perf + 1.0) / o->freq_khz >= EM_UNAPPLIED_RATIO * median)
			continue;
		snprintf(what, sizeof(what),
			 "perf %u at %u kHz is %.0f%% of the domain's median "
			 "perf per MHz: the OPP most likely did not apply",
			 o->perf, o->freq_khz, (double)o->perf / o->freq_khz / median * 100);
		rc |= unapplied(&l, strict, warn, what);
	}
	return rc;
}

/* A split must add up to the OPP's power (the kernel's per-CPU power includes the static
 * share: it is what one busy CPU costs) and cannot come from more CPUs than the domain has. */
static int check_split(const struct em_domain *pd, const struct em_opp_meta *meta, int di,
		       struct diag *dg)
{
	int rc = 0;

	for (u32 i = 0; i < pd->nr_opps; i++) {
		const struct em_opp_meta *m = &meta[i];
		struct loc l = {dg, di, (int)i};

		if (!m->has_split)
			continue;
		if ((u64)m->static_uw + m->dynamic_uw != pd->opps[i].power_uw)
			rc = loc_err(&l,
				     "split: static_uw + dynamic_uw is %llu uW, must equal "
				     "power_uw %u (one busy CPU draws the static share too)",
				     (unsigned long long)m->static_uw + m->dynamic_uw,
				     pd->opps[i].power_uw);
		if (m->split_cpus > cpumask_weight(&pd->cpus))
			rc = loc_err(&l, "split: measured on %u CPUs, the domain has %u",
				     m->split_cpus, cpumask_weight(&pd->cpus));
	}
	return rc;
}

/* Sorts domains by capacity (then first CPU), moving their metadata along. Insertion sort:
 * at most 64 domains, and it is stable. */
static void sort_domains(struct em_profile *prof)
{
	struct em_model *m = &prof->model;
	struct em_domain tmp_pd;
	struct em_opp_meta tmp_meta[EM_MAX_OPPS];
	char tmp_core[32];
	struct em_idle_states tmp_idle;
	bool tmp_has;
	u32 tmp_lat;

	for (u32 i = 1; i < m->nr_domains; i++) {
		u32 j = i;

		while (j > 0) {
			struct em_domain *a = &m->domains[j - 1], *b = &m->domains[j];
			u32 ca = em_domain_capacity(a), cb = em_domain_capacity(b);

			if (ca < cb || (ca == cb && a->first_cpu <= b->first_cpu))
				break;
			tmp_pd = *a;
			*a = *b;
			*b = tmp_pd;
			memcpy(tmp_meta, prof->meta[j - 1], sizeof(tmp_meta));
			memcpy(prof->meta[j - 1], prof->meta[j], sizeof(tmp_meta));
			memcpy(prof->meta[j], tmp_meta, sizeof(tmp_meta));
			memcpy(tmp_core, prof->core[j - 1], sizeof(tmp_core));
			memcpy(prof->core[j - 1], prof->core[j], sizeof(tmp_core));
			memcpy(prof->core[j], tmp_core, sizeof(tmp_core));
			tmp_idle = prof->idle[j - 1];
			prof->idle[j - 1] = prof->idle[j];
			prof->idle[j] = tmp_idle;
			tmp_has = prof->has_transition_latency[j - 1];
			prof->has_transition_latency[j - 1] = prof->has_transition_latency[j];
			prof->has_transition_latency[j] = tmp_has;
			tmp_lat = prof->transition_latency_us[j - 1];
			prof->transition_latency_us[j - 1] = prof->transition_latency_us[j];
			prof->transition_latency_us[j] = tmp_lat;
			j--;
		}
	}
}

/*
 * The second pass: ranges and relations of every domain not in bad (NULL: none), then, when
 * nothing was wrong, the derived values.  Returns -EINVAL when dg holds an error from either
 * pass.
 */
/* em_domain.wake_power_uw of a domain with idle states is: its static power, drawn while any CPU
 * is out of the cluster state, less what the deepest cluster state draws (a deeper state draws
 * no more: parse_idle_states() checks the order). */
static u32 wake_power_uw(const struct em_idle_states *is)
{
	const struct em_idle_state *deepest;

	if (!is->present || is->nr_cluster == 0)
		return 0;
	deepest = &is->cluster[is->nr_cluster - 1];
	return is->static_uw > deepest->power_uw ? is->static_uw - deepest->power_uw : 0;
}

static int check_model(struct em_profile *prof, const bool *bad, bool strict,
		       struct em_warnings *warn, struct diag *dg)
{
	struct em_model *m = &prof->model;
	struct loc l = {dg, -1, -1};
	int owner[EM_MAX_CPUS];
	u32 max_cap = 0;

	if (m->nr_domains == 0 || m->nr_domains > EM_MAX_DOMAINS)
		return loc_err(&l, "%u perf domains, must be 1..%d", m->nr_domains, EM_MAX_DOMAINS);
	if (prof->prov.has_temp)
		check_range(&l, "temp_max_mc", prof->prov.temp_max_mc, EM_MIN_TEMP_MC,
			    EM_MAX_TEMP_MC);
	if (prof->prov.perf_source[0] && strcmp(prof->prov.perf_source, "instructions") &&
	    strcmp(prof->prov.perf_source, "iterations"))
		loc_err(&l, "\"perf_source\" is \"%s\", must be \"instructions\" or \"iterations\"",
			prof->prov.perf_source);
	for (int c = 0; c < EM_MAX_CPUS; c++)
		owner[c] = -1;
	for (u32 d = 0; d < m->nr_domains; d++) {
		struct em_domain *pd = &m->domains[d];

		/* a domain with an error still owns its CPUs: an overlap is an error too */
		if (!(bad && bad[d]) && check_values(prof, d, dg) == 0)
			check_domain(pd, (int)d, strict, warn, dg);
		pd->first_cpu = EM_MAX_CPUS;
		for (int c = EM_MAX_CPUS - 1; c >= 0; c--) {
			if (!em_cpumask_test(&pd->cpus, (u32)c))
				continue;
			if (owner[c] >= 0) {
				l.domain = (int)d;
				loc_err(&l, "CPU %d is already in domain %d", c, owner[c]);
				continue;
			}
			owner[c] = (int)d;
			pd->first_cpu = (u32)c;
		}
		pd->nr_cpus = cpumask_weight(&pd->cpus);
		if (!(bad && bad[d]) && pd->nr_opps <= EM_MAX_OPPS)
			check_split(pd, prof->meta[d], (int)d, dg);
	}
	if (dg->count)
		return -EINVAL;
	for (u32 d = 0; d < m->nr_domains; d++) {
		struct em_domain *pd = &m->domains[d];

		if (em_compute_costs(pd)) {
			l.domain = (int)d;
			return loc_err(&l, "an OPP has perf 0");
		}
		pd->wake_power_uw = wake_power_uw(&prof->idle[d]);
		em_compute_wake_costs(pd);
		if (em_domain_capacity(pd) > max_cap)
			max_cap = em_domain_capacity(pd);
	}
	if (max_cap != EM_CAPACITY_SCALE)
		em_add_warning(
		    warn,
		    "the fastest domain's top perf is %u, not %d: capacities are usually "
		    "normalised so that the fastest CPU is %d",
		    max_cap, EM_CAPACITY_SCALE, EM_CAPACITY_SCALE);
	sort_domains(prof);
	memset(m->cpu_domain, 0xff, sizeof(m->cpu_domain));
	m->nr_cpus = 0;
	for (u32 d = 0; d < m->nr_domains; d++)
		for (u32 c = 0; c < EM_MAX_CPUS; c++)
			if (em_cpumask_test(&m->domains[d].cpus, c)) {
				m->cpu_domain[c] = (u8)d;
				if (c + 1 > m->nr_cpus)
					m->nr_cpus = c + 1;
			}
	return 0;
}

int em_profile_finalize(struct em_profile *prof, bool strict, struct em_warnings *warn,
			struct gb_err *err)
{
	struct diag dg = {err, NULL, 0};

	return check_model(prof, NULL, strict, warn, &dg);
}

/* Prefixes every collected message with the file's name, as err is. */
static void prefix_all(struct em_errors *errs, const char *name)
{
	char old[GB_ERR_MSG_LEN];

	for (int i = 0; errs && i < errs->count && i < EM_ERRORS_KEPT; i++) {
		memcpy(old, errs->msg[i], sizeof(old));
		snprintf(errs->msg[i], sizeof(errs->msg[i]), "%s: %s", name, old);
	}
}

int em_profile_check_string(const char *text, size_t len, const char *name, struct em_profile *prof,
			    bool strict, struct em_warnings *warn, struct em_errors *errs,
			    struct gb_err *err)
{
	struct diag dg = {err, errs, 0};
	bool bad[EM_MAX_DOMAINS] = {false};
	struct loc l = {&dg, -1, -1};
	json_error_t jerr;
	json_t *root;
	int rc;

	memset(prof, 0, sizeof(*prof));
	if (warn)
		memset(warn, 0, sizeof(*warn));
	if (errs)
		memset(errs, 0, sizeof(*errs));
	root = json_loadb(text, len, JSON_REJECT_DUPLICATES, &jerr);
	if (!root) {
		rc = loc_err(&l, "line %d, column %d: %s", jerr.line, jerr.column, jerr.text);
	} else {
		rc = parse_root(root, prof, bad, &dg);
		json_decref(root);
		/* after an error at the top level there are no domains to check */
		if (prof->model.nr_domains)
			rc = check_model(prof, bad, strict, warn, &dg);
	}
	if (rc) {
		gb_err_prefix(err, "%s", name);
		prefix_all(errs, name);
	}
	return rc;
}

int em_profile_load_string(const char *text, size_t len, const char *name, struct em_profile *prof,
			   bool strict, struct em_warnings *warn, struct gb_err *err)
{
	return em_profile_check_string(text, len, name, prof, strict, warn, NULL, err);
}

int em_profile_check_file(const char *path, struct em_profile *prof, bool strict,
			  struct em_warnings *warn, struct em_errors *errs, struct gb_err *err)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL;
	size_t len = 0, cap = 0;
	int rc;

	if (errs)
		memset(errs, 0, sizeof(*errs));
	if (!f)
		return gb_err_set(err, errno, "%s: %s", path, strerror(errno));
	/* read at most one byte beyond the limit: a file of EM_FILE_MAX bytes loads, one byte
	 * more is refused, whatever it is (a pipe or /proc file has no size to stat) */
	for (;;) {
		size_t n;

		if (len == cap) {
			char *nb;

			if (cap > EM_FILE_MAX) {
				free(buf);
				fclose(f);
				return gb_err_set(err, EFBIG, "%s: larger than 64 MiB", path);
			}
			cap = cap ? cap * 2 : 65536;
			if (cap > EM_FILE_MAX + 1)
				cap = EM_FILE_MAX + 1;
			nb = realloc(buf, cap);
			if (!nb) {
				free(buf);
				fclose(f);
				return gb_err_set(err, ENOMEM, "%s: out of memory", path);
			}
			buf = nb;
		}
		n = fread(buf + len, 1, cap - len, f);
		len += n;
		if (n == 0)
			break;
	}
	if (ferror(f)) {
		free(buf);
		fclose(f);
		return gb_err_set(err, EIO, "%s: read error", path);
	}
	fclose(f);
	rc = em_profile_check_string(buf, len, path, prof, strict, warn, errs, err);
	free(buf);
	return rc;
}

int em_profile_load_file(const char *path, struct em_profile *prof, bool strict,
			 struct em_warnings *warn, struct gb_err *err)
{
	return em_profile_check_file(path, prof, strict, warn, NULL, err);
}

/* --- writing --- */

static void put_str(FILE *out, const char *s)
{
	json_t *j = json_string(s);
	char *enc = j ? json_dumps(j, JSON_ENCODE_ANY) : NULL;

	fputs(enc ? enc : "\"\"", out);
	free(enc);
	json_decref(j);
}

/* "key": "val" after indent, then ",\n" with comma; without it nothing follows, and the
 * caller writes the separator before the next field (optional fields need no look-ahead). */
static void put_field(FILE *out, const char *indent, const char *key, const char *val, bool comma)
{
	fprintf(out, "%s\"%s\": ", indent, key);
	put_str(out, val);
	if (comma)
		fputs(",\n", out);
}

static void write_opp(FILE *out, const struct em_opp *o, const struct em_opp_meta *m, bool last)
{
	fprintf(out, "        { \"freq_khz\": %u, \"power_uw\": %u, \"perf\": %u", o->freq_khz,
		o->power_uw, o->perf);
	if (o->voltage_uv)
		fprintf(out, ", \"voltage_uv\": %u", o->voltage_uv);
	if (m->has_spread) {
		fprintf(out, ", \"spread\": { \"power_uw\": %u", m->power_spread_uw);
		if (m->perf_spread)
			fprintf(out, ", \"perf\": %u", m->perf_spread);
		if (m->samples)
			fprintf(out, ", \"samples\": %u", m->samples);
		fputs(" }", out);
	}
	if (m->has_raw) {
		fprintf(out, ", \"raw\": { \"power_uw\": %u", m->raw_power_uw);
		if (m->raw_perf)
			fprintf(out, ", \"perf\": %u", m->raw_perf);
		fputs(" }", out);
	}
	if (m->has_split)
		fprintf(out, ", \"split\": { \"static_uw\": %u, \"dynamic_uw\": %u, \"cpus\": %u }",
			m->static_uw, m->dynamic_uw, m->split_cpus);
	fputs(last ? " }\n" : " },\n", out);
}

static void write_idle_list(FILE *out, const char *what, const struct em_idle_state *st, u32 n,
			    bool last)
{
	fprintf(out, "        \"%s\": [\n", what);
	for (u32 i = 0; i < n; i++) {
		fputs("          { \"name\": ", out);
		put_str(out, st[i].name);
		fprintf(out,
			", \"power_uw\": %u, \"entry_latency_us\": %u, \"exit_latency_us\": %u, "
			"\"min_residency_us\": %u }%s\n",
			st[i].power_uw, st[i].entry_latency_us, st[i].exit_latency_us,
			st[i].min_residency_us, i + 1 == n ? "" : ",");
	}
	fputs(last ? "        ]\n" : "        ],\n", out);
}

static void write_idle_states(FILE *out, const struct em_idle_states *is)
{
	fputs("      \"idle_states\": {\n", out);
	fprintf(out, "        \"version\": %d,\n", EM_IDLE_VERSION);
	fprintf(out, "        \"static_uw\": %u,\n", is->static_uw);
	write_idle_list(out, "cpu", is->cpu, is->nr_cpu, !is->nr_cluster);
	if (is->nr_cluster)
		write_idle_list(out, "cluster", is->cluster, is->nr_cluster, true);
	fputs("      },\n", out);
}

int em_profile_write(const struct em_profile *prof, FILE *out)
{
	const struct em_provenance *p = &prof->prov;
	const struct em_model *m = &prof->model;
	char cpus[1024];

	fputs("{\n", out);
	put_field(out, "  ", "format", EM_FORMAT, true);
	put_field(out, "  ", "soc", prof->soc, true);
	if (prof->description[0])
		put_field(out, "  ", "description", prof->description, true);
	fputs("  \"provenance\": {\n", out);
	put_field(out, "    ", "source", p->source, false);
	if (p->date[0])
		put_field(out, ",\n    ", "date", p->date, false);
	if (p->tool[0])
		put_field(out, ",\n    ", "tool", p->tool, false);
	if (p->tool_version[0])
		put_field(out, ",\n    ", "tool_version", p->tool_version, false);
	if (p->device[0])
		put_field(out, ",\n    ", "device", p->device, false);
	if (p->conditions[0])
		put_field(out, ",\n    ", "conditions", p->conditions, false);
	if (p->perf_source[0])
		put_field(out, ",\n    ", "perf_source", p->perf_source, false);
	if (p->has_duration)
		fprintf(out, ",\n    \"duration_ms\": %u", p->duration_ms);
	if (p->has_temp)
		fprintf(out, ",\n    \"temp_max_mc\": %d", p->temp_max_mc);
	fputs("\n", out);
	fputs("  },\n  \"domains\": [\n", out);
	for (u32 d = 0; d < m->nr_domains; d++) {
		const struct em_domain *pd = &m->domains[d];

		fputs("    {\n", out);
		put_field(out, "      ", "name", pd->name, true);
		if (prof->core[d][0])
			put_field(out, "      ", "core", prof->core[d], true);
		cpulist_format(&pd->cpus, cpus, sizeof(cpus));
		put_field(out, "      ", "cpus", cpus, true);
		if (pd->idle_power_uw)
			fprintf(out, "      \"idle_power_uw\": %u,\n", pd->idle_power_uw);
		if (prof->has_transition_latency[d])
			fprintf(out, "      \"transition_latency_us\": %u,\n",
				prof->transition_latency_us[d]);
		if (prof->idle[d].present)
			write_idle_states(out, &prof->idle[d]);
		fputs("      \"opps\": [\n", out);
		for (u32 i = 0; i < pd->nr_opps; i++)
			write_opp(out, &pd->opps[i], &prof->meta[d][i], i + 1 == pd->nr_opps);
		fputs(d + 1 == m->nr_domains ? "      ]\n    }\n" : "      ]\n    },\n", out);
	}
	fputs("  ]\n}\n", out);
	return ferror(out) ? -EIO : 0;
}

static int write_cb(void *ctx, FILE *f)
{
	return em_profile_write(ctx, f);
}

int em_profile_save(const struct em_profile *prof, const char *path, struct gb_err *err)
{
	return gb_out_save(path, write_cb, (void *)prof, err);
}

void em_profile_init(struct em_profile *prof, const char *source)
{
	const char *sde = getenv("SOURCE_DATE_EPOCH"); /* reproducible builds convention */
	time_t now = sde && *sde ? (time_t)strtoll(sde, NULL, 10) : time(NULL);
	struct tm tm;

	memset(prof, 0, sizeof(*prof));
	snprintf(prof->prov.source, sizeof(prof->prov.source), "%s", source);
	gmtime_r(&now, &tm);
	strftime(prof->prov.date, sizeof(prof->prov.date), "%Y-%m-%d", &tm);
	snprintf(prof->prov.tool, sizeof(prof->prov.tool), "gearbox");
	snprintf(prof->prov.tool_version, sizeof(prof->prov.tool_version), "%s", GEARBOX_VERSION);
}
