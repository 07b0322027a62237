// SPDX-License-Identifier: GPL-2.0-only
/*
 * build.c - turns a measurement result into an em-profile.
 *
 * perf = rate * 1024 / (highest rate of the SoC), as the kernel scales capacity.  An OPP that
 * did not apply is left out rather than written with numbers that belong to another
 * frequency; the provenance's conditions say which ones were dropped.
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "cpulist.h"
#include "profile.h"

static void append(char *buf, size_t len, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void append(char *buf, size_t len, const char *fmt, ...)
{
	size_t used = strlen(buf);
	va_list ap;

	if (used + 1 >= len)
		return;
	va_start(ap, fmt);
	vsnprintf(buf + used, len - used, fmt, ap);
	va_end(ap);
}

static double max_rate(const struct prof_result *res)
{
	double m = 0;

	for (u32 d = 0; d < res->topo.nr_domains; d++)
		for (u32 k = 0; k < res->topo.dom[d].nr_opps; k++)
			if (!res->opp[d][k].not_applied && res->opp[d][k].rate > m)
				m = res->opp[d][k].rate;
	return m;
}

static u32 clamp_u32(double x, double lo, double hi)
{
	if (x < lo)
		x = lo;
	if (x > hi)
		x = hi;
	return (u32)llround(x);
}

static void fill_provenance(const struct prof_result *res, const char *source,
			    struct em_profile *out)
{
	struct em_provenance *p = &out->prov;
	time_t now = time(NULL);
	struct tm tm;

	snprintf(p->source, sizeof(p->source), "%s", source);
	gmtime_r(&now, &tm);
	strftime(p->date, sizeof(p->date), "%Y-%m-%dT%H:%M:%SZ", &tm);
	snprintf(p->tool, sizeof(p->tool), "gearbox profile");
	snprintf(p->tool_version, sizeof(p->tool_version), "%s", GEARBOX_VERSION);
	snprintf(p->device, sizeof(p->device), "%s", res->topo.device);
	snprintf(p->conditions, sizeof(p->conditions),
		 "power: %s; one CPU busy, domain idle "
		 "power at the same OPP subtracted",
		 res->topo.power_source);
	snprintf(p->perf_source, sizeof(p->perf_source), "%s",
		 prof_perf_src_name(res->topo.perf_src));
	p->has_duration = true;
	p->duration_ms =
	    (u32)(res->total_ns / 1000000 > UINT32_MAX ? UINT32_MAX : res->total_ns / 1000000);
	if (res->temp_min_mc != INT_MIN) {
		p->has_temp = true;
		p->temp_max_mc = res->temp_max_mc;
		append(p->conditions, sizeof(p->conditions), "; %.1f-%.1f C",
		       res->temp_min_mc / 1000.0, res->temp_max_mc / 1000.0);
	}
	if (res->split_cpus)
		append(p->conditions, sizeof(p->conditions),
		       "; static/dynamic split from 1 and "
		       "%u busy CPUs (fewer in smaller domains)",
		       res->split_cpus);
	for (u32 d = 0; d < res->topo.nr_domains; d++)
		for (u32 k = 0; k < res->topo.dom[d].nr_opps; k++) {
			const struct prof_opp_result *r = &res->opp[d][k];

			if (r->not_applied)
				append(p->conditions, sizeof(p->conditions),
				       "; %s %u kHz did not apply, left out", res->topo.dom[d].name,
				       r->freq_khz);
			else if (r->perf_inconsistent || r->power_inconsistent)
				append(p->conditions, sizeof(p->conditions),
				       "; %s %u kHz %s out of order after %u measurements, fitted "
				       "(raw: measured)",
				       res->topo.dom[d].name, r->freq_khz,
				       r->perf_inconsistent && r->power_inconsistent
					   ? "perf and power"
				       : r->perf_inconsistent ? "perf"
							      : "power",
				       r->measurements);
		}
}

/* Linear in frequency between the neighbours' values (a CPU-bound loop's perf is proportional
 * to frequency; power is smooth in it), kept strictly between them; from the one neighbour at
 * either end. */
static u32 fit_between(const struct em_opp *o, u32 n, u32 i, bool perf, u32 max)
{
	double f = o[i].freq_khz, v;
	double lo = i > 0 ? (perf ? o[i - 1].perf : o[i - 1].power_uw) : 0;
	double hi = i + 1 < n ? (perf ? o[i + 1].perf : o[i + 1].power_uw) : max + 1.0;

	if (i > 0 && i + 1 < n)
		v = lo +
		    (hi - lo) * (f - o[i - 1].freq_khz) / (o[i + 1].freq_khz - o[i - 1].freq_khz);
	else if (i > 0)
		v = lo * f / o[i - 1].freq_khz;
	else
		v = hi * f / o[i + 1].freq_khz;
	return clamp_u32(v, lo + 1, hi - 1 < 1 ? 1 : hi - 1);
}

/*
 * An OPP the measurement marked out of order (its perf or power not above the previous OPP's
 * after the re-measurements) keeps its place in the model with a fitted value, and its
 * measured means in "raw": the model stays valid (perf must rise) and says what was measured.
 */
static void fit_marked(struct em_domain *pd, struct em_opp_meta *meta,
		       const struct prof_opp_result *const *src)
{
	for (u32 i = 0; i < pd->nr_opps; i++) {
		struct em_opp *o = &pd->opps[i];

		if (!src[i]->perf_inconsistent && !src[i]->power_inconsistent)
			continue;
		meta[i].has_raw = true;
		meta[i].raw_power_uw = o->power_uw;
		meta[i].raw_perf = o->perf;
		if (src[i]->perf_inconsistent)
			o->perf = fit_between(pd->opps, pd->nr_opps, i, true, EM_CAPACITY_SCALE);
		if (src[i]->power_inconsistent)
			o->power_uw = fit_between(pd->opps, pd->nr_opps, i, false, EM_MAX_POWER_UW);
		if (meta[i].has_split) {
			meta[i].dynamic_uw =
			    meta[i].dynamic_uw < o->power_uw ? meta[i].dynamic_uw : o->power_uw;
			meta[i].static_uw = o->power_uw - meta[i].dynamic_uw;
		}
	}
}

int prof_build_profile(const struct prof_result *res, const char *source, struct em_profile *out,
		       struct gb_err *err)
{
	double top = max_rate(res);
	struct em_model *m = &out->model;

	memset(out, 0, sizeof(*out));
	if (top <= 0)
		return gb_err_set(err, EIO, "the load made no progress at any OPP");
	snprintf(out->soc, sizeof(out->soc), "%s", res->topo.soc);
	snprintf(out->description, sizeof(out->description), "measured by gearbox profile");
	fill_provenance(res, source, out);
	m->nr_domains = res->topo.nr_domains;
	memset(m->cpu_domain, 0xff, sizeof(m->cpu_domain));
	for (u32 d = 0; d < res->topo.nr_domains; d++) {
		const struct prof_domain_info *di = &res->topo.dom[d];
		const struct prof_opp_result *src[EM_MAX_OPPS];
		struct em_domain *pd = &m->domains[d];
		u32 n = 0;

		memcpy(pd->name, di->name, sizeof(pd->name));
		pd->cpus = di->cpus;
		pd->nr_cpus = cpumask_weight(&di->cpus);
		pd->first_cpu = EM_MAX_CPUS;
		for (u32 c = 0; c < EM_MAX_CPUS; c++) {
			if (!em_cpumask_test(&di->cpus, c))
				continue;
			if (pd->first_cpu == EM_MAX_CPUS)
				pd->first_cpu = c;
			m->cpu_domain[c] = (u8)d;
			if (c + 1 > m->nr_cpus)
				m->nr_cpus = c + 1;
		}
		for (u32 k = 0; k < di->nr_opps; k++) {
			const struct prof_opp_result *r = &res->opp[d][k];
			struct em_opp_meta *meta = &out->meta[d][n];
			struct em_opp *o = &pd->opps[n];

			if (r->not_applied)
				continue;
			o->freq_khz = r->freq_khz;
			o->power_uw = clamp_u32(r->power_uw, 1, EM_MAX_POWER_UW);
			o->perf =
			    clamp_u32(r->rate * EM_CAPACITY_SCALE / top, 1, EM_CAPACITY_SCALE);
			meta->has_spread = true;
			meta->power_spread_uw = clamp_u32(r->power_ci_uw, 0, EM_MAX_POWER_UW);
			meta->perf_spread =
			    clamp_u32(r->rate_ci * EM_CAPACITY_SCALE / top, 0, EM_CAPACITY_SCALE);
			meta->samples = r->samples;
			if (r->has_split) {
				/* static + dynamic = power_uw exactly; noise can push the
				 * measured static share below 0: it is then 0 */
				meta->has_split = true;
				meta->split_cpus = r->split_cpus;
				meta->dynamic_uw = clamp_u32(r->dynamic_uw, 1, o->power_uw);
				meta->static_uw = o->power_uw - meta->dynamic_uw;
			}
			src[n++] = r;
		}
		pd->nr_opps = n;
		if (n == 0)
			return gb_err_set(err, EIO, "%s: no OPP applied", di->name);
		fit_marked(pd, out->meta[d], src);
		if (em_compute_costs(pd) < 0)
			return gb_err_set(err, EIO, "%s: an OPP measured zero performance",
					  di->name);
	}
	return 0;
}
