// SPDX-License-Identifier: GPL-2.0-only
/*
 * em_stream.c - the hello's "domains" array from an em_profile (em_stream.h).
 */
#include "em_stream.h"

void em_stream_put_str(FILE *f, const char *s, size_t max)
{
	fputc('"', f);
	for (size_t i = 0; i < max && s[i]; i++) {
		unsigned char c = (unsigned char)s[i];

		if (c == '"' || c == '\\')
			fprintf(f, "\\%c", c);
		else if (c < 0x20 || c >= 0x7f)
			fprintf(f, "\\u%04x", c);
		else
			fputc(c, f);
	}
	fputc('"', f);
}

static void put_idle_list(FILE *f, const char *key, const struct em_idle_state *st, u32 n)
{
	fprintf(f, "\"%s\":[", key);
	for (u32 i = 0; i < n; i++) {
		fprintf(f, "%s{\"name\":", i ? "," : "");
		em_stream_put_str(f, st[i].name, sizeof(st[i].name));
		fprintf(f,
			",\"power_uw\":%u,\"entry_latency_us\":%u,\"exit_latency_us\":%u,"
			"\"min_residency_us\":%u}",
			st[i].power_uw, st[i].entry_latency_us, st[i].exit_latency_us,
			st[i].min_residency_us);
	}
	fputc(']', f);
}

void em_stream_put_domains(FILE *f, const struct em_profile *prof)
{
	const struct em_model *m = &prof->model;

	fprintf(f, "\"domains\":[");
	for (u32 d = 0; d < m->nr_domains; d++) {
		const struct em_domain *pd = &m->domains[d];
		const struct em_idle_states *idle = &prof->idle[d];
		bool first = true;

		fprintf(f, "%s{\"id\":%u,\"name\":", d ? "," : "", d);
		em_stream_put_str(f, pd->name, sizeof(pd->name));
		fprintf(f, ",\"cpus\":[");
		for (u32 c = 0; c < m->nr_cpus; c++)
			if (m->cpu_domain[c] == d) {
				fprintf(f, "%s%u", first ? "" : ",", c);
				first = false;
			}
		fprintf(f, "],\"capacity\":%u,\"opps\":[", em_domain_capacity(pd));
		for (u32 i = 0; i < pd->nr_opps; i++)
			fprintf(f, "%s{\"freq_khz\":%u,\"perf\":%u,\"power_uw\":%u}", i ? "," : "",
				pd->opps[i].freq_khz, pd->opps[i].perf, pd->opps[i].power_uw);
		fputc(']', f);
		if (prof->has_transition_latency[d])
			fprintf(f, ",\"transition_latency_us\":%u", prof->transition_latency_us[d]);
		if (idle->present) {
			fprintf(f, ",\"static_uw\":%u,\"idle_states\":{", idle->static_uw);
			put_idle_list(f, "cpu", idle->cpu, idle->nr_cpu);
			fputc(',', f);
			put_idle_list(f, "cluster", idle->cluster, idle->nr_cluster);
			fputc('}', f);
		}
		fputc('}', f);
	}
	fputc(']', f);
}
