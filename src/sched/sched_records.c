// SPDX-License-Identifier: GPL-2.0-only
/*
 * sched_records.c - the hello, sample and decision lines of docs/stream.md, from the model and
 * the BPF side's state.  Power is the energy model's estimate: a domain at OPP i with CPU
 * utilizations summing to U draws power_uw[i] * U / perf[i] (the kernel's em_cpu_energy).
 */
#include "gb_reason.h"
#include <stdio.h>
#include <stdlib.h>

#include "em_stream.h"
#include "sched_stream.h"

static char *finish(FILE *f, char **buf)
{
	fputc('\n', f);
	if (fclose(f)) {
		free(*buf);
		return NULL;
	}
	return *buf;
}

char *sched_fmt_hello(const struct em_profile *prof, const char *mode, size_t *len)
{
	char *buf = NULL;
	FILE *f = open_memstream(&buf, len);

	if (!f)
		return NULL;
	fprintf(f, "{\"type\":\"hello\",\"format\":\"gearbox-stream/"
		   "1\",\"source\":\"scx_gearbox\",\"soc\":");
	em_stream_put_str(f, prof->soc, sizeof(prof->soc));
	fprintf(f, ",\"policy\":\"%s\",\"nr_cpus\":%u,", mode, prof->model.nr_cpus);
	em_stream_put_domains(f, prof);
	fprintf(f, "}");
	return finish(f, &buf);
}

char *sched_fmt_sample(const struct sched_sample_src *src, unsigned long long t_us,
		       unsigned long long *energy_uj, unsigned long long interval_us, size_t *len)
{
	const struct em_model *m = src->model;
	unsigned long long power_total_uw = 0;
	char *buf = NULL;
	FILE *f = open_memstream(&buf, len);
	unsigned d, c;

	if (!f)
		return NULL;
	fprintf(f, "{\"type\":\"sample\",\"t_us\":%llu,\"domains\":[", t_us);
	for (d = 0; d < m->nr_domains; d++) {
		const struct em_domain *pd = &m->domains[d];
		const struct gb_dom_state *ds = &src->doms[d];
		unsigned idx = ds->opp_idx < pd->nr_opps ? ds->opp_idx : pd->nr_opps - 1;
		unsigned max_util = 0, sum_util = 0;
		unsigned long long power_uw;

		for (c = 0; c < src->nr_cpus; c++)
			if (m->cpu_domain[c] == d && src->cpus[c].online) {
				unsigned u = src->cpus[c].util;

				max_util = u > max_util ? u : max_util;
				sum_util += u;
			}
		power_uw =
		    (unsigned long long)pd->opps[idx].power_uw * sum_util / pd->opps[idx].perf;
		power_total_uw += power_uw;
		fprintf(f,
			"%s{\"id\":%u,\"util\":%u,\"perf_target\":%u,\"freq_khz\":%u,\"power_uw\":%"
			"llu,\"overutilized\":%s}",
			d ? "," : "", d, max_util, ds->perf_target, pd->opps[idx].freq_khz,
			power_uw, ds->overutilized ? "true" : "false");
	}
	*energy_uj += power_total_uw * interval_us / 1000000;
	fprintf(f, "],\"energy_uj\":%llu,\"cpus\":[", *energy_uj);
	for (c = 0; c < src->nr_cpus; c++) {
		const struct gb_cpu_curr *cc = &src->curr[c];

		fprintf(f, "%s{\"cpu\":%u,\"util\":%u,\"pid\":%u,\"comm\":", c ? "," : "", c,
			src->cpus[c].util, cc->pid);
		em_stream_put_str(f, cc->pid ? cc->comm : "", GB_COMM_LEN);
		fprintf(f, "}");
	}
	fprintf(f, "]}");
	return finish(f, &buf);
}

/* The OPP frequency and capacity of cpu's domain, or 0 when cpu is not in the model. */
static void cpu_opp(const struct em_model *m, int cpu, unsigned opp, unsigned *cap,
		    unsigned *freq_khz)
{
	const struct em_domain *pd;
	int d = cpu >= 0 ? em_domain_of_cpu(m, (unsigned)cpu) : -1;

	*cap = *freq_khz = 0;
	if (d < 0 || (unsigned)d >= m->nr_domains)
		return;
	pd = &m->domains[d];
	*cap = em_domain_capacity(pd);
	*freq_khz = pd->opps[opp < pd->nr_opps ? opp : pd->nr_opps - 1].freq_khz;
}

char *sched_fmt_decision(const struct em_model *m, const struct gb_event *e,
			 unsigned long long t_us, size_t *len)
{
	unsigned from_cap, from_khz, to_cap, to_khz;
	char *buf = NULL;
	FILE *f = open_memstream(&buf, len);

	if (!f)
		return NULL;
	cpu_opp(m, e->from, e->prev_opp_idx, &from_cap, &from_khz);
	cpu_opp(m, e->to, e->opp_idx, &to_cap, &to_khz);
	fprintf(f, "{\"type\":\"decision\",\"t_us\":%llu,\"pid\":%u,\"comm\":", t_us, e->pid);
	em_stream_put_str(f, e->comm, GB_COMM_LEN);
	fprintf(f,
		",\"from\":%d,\"to\":%d,\"reason\":\"%s\",\"power_delta_uw\":%lld,\"util\":%u,"
		"\"uclamp_min\":%u,\"uclamp_max\":%u",
		e->from, e->to, gb_reason_name(e->reason), (long long)(e->energy_delta / 10),
		e->util, e->uclamp_min, e->uclamp_max);
	if (to_cap)
		fprintf(f, ",\"to_cap\":%u,\"to_freq_khz\":%u", to_cap, to_khz);
	if (from_cap)
		fprintf(f, ",\"from_cap\":%u,\"from_freq_khz\":%u", from_cap, from_khz);
	fprintf(f, "}");
	return finish(f, &buf);
}
