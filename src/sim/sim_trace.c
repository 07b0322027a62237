// SPDX-License-Identifier: GPL-2.0-only
/*
 * sim_trace.c - `gearbox sim --trace FILE`: the gearbox-stream/1 NDJSON of docs/stream.md
 * (hello, sample every --trace-interval, decision per move, end).  pid is the task index + 1,
 * so that pid 0 keeps meaning "idle".
 */
#include "em_stream.h"
#include "gb_reason.h"
#include "sim_internal.h"

static void put_str(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\')
			fprintf(f, "\\%c", c);
		else if (c < 0x20)
			fprintf(f, "\\u%04x", c);
		else
			fputc(c, f);
	}
	fputc('"', f);
}

void sim_trace_hello(struct sim *s)
{
	FILE *f = s->opt.trace;

	fprintf(f,
		"{\"type\":\"hello\",\"format\":\"gearbox-stream/1\",\"source\":\"sim\",\"soc\":");
	put_str(f, s->prof->soc);
	fprintf(f, ",\"policy\":\"%s\",\"host\":\"%s\",\"nr_cpus\":%u,", s->ops->name,
		sim_host_name(s->scx.on ? SIM_HOST_SCX : SIM_HOST_FAIR), s->m->nr_cpus);
	em_stream_put_domains(f, s->prof);
	fprintf(f, "}\n");
}

/* Energy so far, plus dt_us more in the current state (nothing changes between events). */
static u64 energy_uj(const struct sim *s, u64 dt_us)
{
	u64 e = 0;

	for (u32 d = 0; d < s->m->nr_domains; d++)
		e += s->doms[d].energy_puj + sim_domain_energy_puj(s, d, dt_us);
	return e / 1000000;
}

static void sample(struct sim *s, u64 t_us)
{
	FILE *f = s->opt.trace;
	u32 order[SIM_MAX_REPORT_TASKS], n = 0;

	sim_refresh(s);
	fprintf(f, "{\"type\":\"sample\",\"t_us\":%llu,\"energy_uj\":%llu,\"domains\":[",
		(unsigned long long)t_us, (unsigned long long)energy_uj(s, t_us - s->now_us));
	for (u32 d = 0; d < s->m->nr_domains; d++) {
		const struct em_domain *pd = &s->m->domains[d];
		u32 util = 0, idx, perf;

		perf = gb_domain_perf_target(s->m, s->gcpu, d, &idx);
		for (u32 c = 0; c < s->m->nr_cpus; c++)
			if (s->m->cpu_domain[c] == d)
				util = gb_max(util, s->gcpu[c].util);
		fprintf(f,
			"%s{\"id\":%u,\"util\":%u,\"perf_target\":%u,\"freq_khz\":%u,"
			"\"power_uw\":%llu,\"overutilized\":%s}",
			d ? "," : "", d, util, perf, pd->opps[s->doms[d].opp].freq_khz,
			(unsigned long long)sim_domain_power_uw(s, d),
			s->doms[d].ou ? "true" : "false");
	}
	fprintf(f, "],\"cpus\":[");
	for (u32 c = 0; c < s->m->nr_cpus; c++) {
		s32 cur = s->cpus[c].curr;

		fprintf(f, "%s{\"cpu\":%u,\"util\":%u,\"pid\":%d,\"comm\":", c ? "," : "", c,
			s->gcpu[c].util, cur >= 0 ? cur + 1 : 0);
		put_str(f, cur >= 0 ? s->tasks[cur].wt->name : "");
		fputc('}', f);
	}
	fputc(']', f);
	if (s->opt.trace_tasks) {
		/* at most 64 tasks, highest util first */
		for (u32 i = 0; i < s->nr_tasks; i++) {
			const struct sim_task *t = &s->tasks[i];
			u32 k;

			if (t->state == TS_DONE)
				continue;
			if (n == SIM_MAX_REPORT_TASKS) {
				if (t->pelt.util_avg <= s->tasks[order[n - 1]].pelt.util_avg)
					continue;
				n--;
			}
			for (k = n;
			     k > 0 && s->tasks[order[k - 1]].pelt.util_avg < t->pelt.util_avg; k--)
				order[k] = order[k - 1];
			order[k] = i;
			n++;
		}
		fprintf(f, ",\"tasks\":[");
		for (u32 k = 0; k < n; k++) {
			const struct sim_task *t = &s->tasks[order[k]];

			fprintf(f, "%s{\"pid\":%u,\"comm\":", k ? "," : "", t->id + 1);
			put_str(f, t->wt->name);
			fprintf(f,
				",\"util\":%u,\"uclamp_min\":%u,\"uclamp_max\":%u,\"cpu\":%d,"
				"\"migrations\":%llu}",
				t->pelt.util_avg, t->uclamp_min, t->uclamp_max, t->cpu,
				(unsigned long long)t->st.migrations);
		}
		fputc(']', f);
	}
	fprintf(f, "}\n");
}

/*
 * The state between two events is constant except for the PELT signals, so a sample at t
 * between now and the next event is the current state with the signals brought to t -- on a
 * copy: the tasks' PELT state is put back afterwards, bit for bit, and the run continues as if
 * there had been no sample (with the samples as events, frequencies were re-evaluated at them
 * and a traced run used a different energy than an untraced one).
 */
void sim_trace_samples_until(struct sim *s, u64 at, bool at_done)
{
	while (s->next_sample_us < at || (at_done && s->next_sample_us == at)) {
		u64 t_us = s->next_sample_us;

		if (t_us > s->now_us) {
			for (u32 i = 0; i < s->nr_tasks; i++)
				s->pelt_save[i] = s->tasks[i].pelt;
			sim_pelt_advance(s, t_us);
			sample(s, t_us);
			for (u32 i = 0; i < s->nr_tasks; i++)
				s->tasks[i].pelt = s->pelt_save[i];
			sim_refresh(s);
		} else {
			sample(s, t_us);
		}
		s->next_sample_us += s->opt.sample_us;
	}
}

void sim_trace_decision(struct sim *s, const struct sim_task *t, s32 from, s32 to, u32 reason,
			s64 delta)
{
	FILE *f = s->opt.trace;

	if (!f)
		return;
	fprintf(f, "{\"type\":\"decision\",\"t_us\":%llu,\"pid\":%u,\"comm\":",
		(unsigned long long)s->now_us, t->id + 1);
	put_str(f, t->wt->name);
	fprintf(f,
		",\"from\":%d,\"to\":%d,\"reason\":\"%s\",\"power_delta_uw\":%lld,\"util\":%u,"
		"\"uclamp_min\":%u,\"uclamp_max\":%u,\"to_cap\":%u",
		from, to, gb_reason_name(reason), (long long)(delta / 10), t->pelt.util_avg,
		t->uclamp_min, t->uclamp_max, sim_cpu_capacity(s, (u32)to));
	if (from >= 0)
		fprintf(f, ",\"from_cap\":%u", sim_cpu_capacity(s, (u32)from));
	fprintf(f, "}\n");
}

void sim_trace_end(struct sim *s)
{
	fprintf(s->opt.trace, "{\"type\":\"end\",\"t_us\":%llu,\"energy_uj\":%llu}\n",
		(unsigned long long)s->now_us, (unsigned long long)energy_uj(s, 0));
}
