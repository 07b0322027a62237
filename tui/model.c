// SPDX-License-Identifier: GPL-2.0-only
/*
 * model.c - applying decoded stream records to the state `gearbox top` draws.
 *
 * Checks come before copies in every apply function: a record naming a domain or CPU the
 * hello did not announce is refused as a whole, which is what lets a corrupt stream show an
 * error line while the screen keeps the last good picture.
 */
#include "model.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "cpulist.h"

void model_init(struct top_model *m)
{
	memset(m, 0, sizeof(*m));
	for (int i = 0; i < STREAM_MAX_CPUS; i++)
		m->cpu_domain[i] = -1;
}

void model_new_stream(struct top_model *m)
{
	uint64_t errors = m->nr_errors;
	char last[MODEL_ERR_LEN];

	memcpy(last, m->last_error, sizeof(last));
	uint64_t gen = m->generation;
	model_init(m);
	m->nr_errors = errors;
	memcpy(m->last_error, last, sizeof(last));
	m->generation = gen + 1;
}

void model_set_error(struct top_model *m, uint64_t line_no, const char *msg)
{
	m->nr_errors++;
	snprintf(m->last_error, sizeof(m->last_error), "line %llu: %s", (unsigned long long)line_no,
		 msg);
	m->generation++;
}

void model_refuse(struct top_model *m, const struct stream_rec *rec, uint64_t line_no,
		  const char *msg)
{
	if (rec && rec->type == STREAM_HELLO && !m->have_hello)
		snprintf(m->hello_error, sizeof(m->hello_error), "line %llu: %s",
			 (unsigned long long)line_no, msg);
	model_set_error(m, line_no, msg);
}

static int apply_hello(struct top_model *m, const struct stream_hello *h, struct gb_err *err)
{
	int cpu_domain[STREAM_MAX_CPUS];
	bool seen[STREAM_MAX_DOMAINS] = {false};

	if (m->have_hello)
		return gb_err_set(err, EINVAL, "second hello in one stream, ignored");
	m->hello_error[0] = '\0';
	for (int c = 0; c < STREAM_MAX_CPUS; c++)
		cpu_domain[c] = -1;
	for (int i = 0; i < h->nr_domains; i++) {
		const struct stream_domain_info *d = &h->domains[i];

		if (d->id >= h->nr_domains || seen[d->id])
			return gb_err_set(err, EINVAL,
					  "domains[%d].id %d: ids must be 0..%d, once each", i,
					  d->id, h->nr_domains - 1);
		seen[d->id] = true;
		for (int j = 0; j < d->nr_cpus; j++) {
			int c = d->cpus[j];
			if (c >= h->nr_cpus)
				return gb_err_set(err, EINVAL,
						  "domains[%d].cpus: CPU %d >= nr_cpus %d", i, c,
						  h->nr_cpus);
			if (cpu_domain[c] >= 0)
				return gb_err_set(err, EINVAL,
						  "domains[%d].cpus: CPU %d is in two domains", i,
						  c);
			cpu_domain[c] = d->id;
		}
	}
	m->have_hello = true;
	/* Stored by id so that every other record can index by the id it carries. */
	m->topo = *h;
	for (int i = 0; i < h->nr_domains; i++) {
		struct em_cpumask mask = {{0}};
		const struct stream_domain_info *d = &h->domains[i];

		m->topo.domains[d->id] = *d;
		for (int j = 0; j < d->nr_cpus; j++)
			em_cpumask_set(&mask, d->cpus[j]);
		cpulist_format(&mask, m->cpulist[d->id], sizeof(m->cpulist[d->id]));
	}
	memcpy(m->cpu_domain, cpu_domain, sizeof(cpu_domain));
	return 0;
}

/* A record that needs the topology, with no hello applied: say why there is none. */
static int before_hello(const struct top_model *m, const char *what, struct gb_err *err)
{
	if (m->hello_error[0])
		return gb_err_set(err, EINVAL, "%s ignored: the stream's hello was refused (%s)",
				  what, m->hello_error);
	return gb_err_set(err, EINVAL, "%s before hello", what);
}

static int task_find(struct top_model *m, int pid)
{
	for (int i = 0; i < m->nr_tasks; i++)
		if (m->tasks[i].t.pid == pid)
			return i;
	return -1;
}

static int apply_sample(struct top_model *m, const struct stream_sample *s, struct gb_err *err)
{
	if (!m->have_hello)
		return before_hello(m, "sample", err);
	for (int i = 0; i < s->nr_domains; i++)
		if (s->domains[i].id >= m->topo.nr_domains)
			return gb_err_set(err, EINVAL, "domains[%d].id %d: no such domain", i,
					  s->domains[i].id);
	for (int i = 0; i < s->nr_cpus; i++)
		if (s->cpus[i].cpu >= m->topo.nr_cpus)
			return gb_err_set(err, EINVAL, "cpus[%d].cpu %d: no such CPU", i,
					  s->cpus[i].cpu);

	m->have_sample = true;
	m->nr_samples++;
	m->t_us = s->t_us;
	m->energy_uj = s->energy_uj;
	for (int i = 0; i < s->nr_domains; i++)
		m->dom[s->domains[i].id] = s->domains[i];
	for (int i = 0; i < s->nr_cpus; i++)
		m->cpu[s->cpus[i].cpu] = s->cpus[i];

	if (s->has_tasks) {
		m->tasks_from_sample = true;
		m->nr_tasks = s->nr_tasks;
		for (int i = 0; i < s->nr_tasks; i++)
			m->tasks[i] = (struct model_task){.t = s->tasks[i], .running = false};
	}
	for (int i = 0; i < m->nr_tasks; i++)
		m->tasks[i].running = false;
	for (int c = 0; c < m->topo.nr_cpus; c++) {
		int k = m->cpu[c].pid ? task_find(m, m->cpu[c].pid) : -1;
		if (k >= 0) {
			m->tasks[k].running = true;
			if (!m->tasks_from_sample)
				m->tasks[k].t.cpu = c;
		}
	}
	return 0;
}

/* Without tasks[] in samples the task table is what the decisions told us. */
static void task_note_decision(struct top_model *m, const struct stream_decision *d)
{
	int k = task_find(m, d->pid);

	if (k < 0) {
		if (m->nr_tasks == MODEL_MAX_TASKS)
			return;
		k = m->nr_tasks++;
		m->tasks[k] = (struct model_task){.t = {.pid = d->pid}};
	}
	struct stream_task *t = &m->tasks[k].t;
	memcpy(t->comm, d->comm, sizeof(t->comm));
	t->util = d->util;
	t->uclamp_min = d->uclamp_min;
	t->uclamp_max = d->uclamp_max;
	t->cpu = d->to;
	if (d->from >= 0 && d->from != d->to)
		t->migrations++;
}

static int apply_decision(struct top_model *m, const struct stream_decision *d, struct gb_err *err)
{
	if (!m->have_hello)
		return before_hello(m, "decision", err);
	if (d->from >= m->topo.nr_cpus || d->to >= m->topo.nr_cpus)
		return gb_err_set(err, EINVAL, "CPU %d: no such CPU",
				  d->from >= m->topo.nr_cpus ? d->from : d->to);
	struct stream_decision *slot = &m->log[m->nr_decisions % MODEL_LOG_LEN];
	*slot = *d;
	/*
	 * Without the optional OPP fields, the domains' OPPs of the latest sample are the best
	 * statement of what source and target run at; taken now, so old lines do not change.
	 */
	if (m->have_sample) {
		int fd = model_cpu_domain(m, d->from), td = model_cpu_domain(m, d->to);
		if (slot->from_freq_khz < 0 && fd >= 0 && m->dom[fd].freq_khz)
			slot->from_freq_khz = m->dom[fd].freq_khz;
		if (slot->to_freq_khz < 0 && td >= 0 && m->dom[td].freq_khz)
			slot->to_freq_khz = m->dom[td].freq_khz;
	}
	m->nr_decisions++;
	m->reason_count[d->reason]++;
	if (!m->tasks_from_sample)
		task_note_decision(m, d);
	return 0;
}

int model_apply(struct top_model *m, const struct stream_rec *rec, struct gb_err *err)
{
	int ret = 0;

	switch (rec->type) {
	case STREAM_HELLO:
		ret = apply_hello(m, &rec->hello, err);
		break;
	case STREAM_SAMPLE:
		ret = apply_sample(m, &rec->sample, err);
		break;
	case STREAM_DECISION:
		ret = apply_decision(m, &rec->decision, err);
		break;
	case STREAM_END:
		m->ended = true;
		m->end = rec->end;
		if (rec->end.energy_uj)
			m->energy_uj = rec->end.energy_uj;
		break;
	case STREAM_OTHER:
		break;
	}
	if (!ret) {
		m->nr_records++;
		m->generation++;
	}
	return ret;
}

int model_ingest_line(struct top_model *m, struct stream_rec *scratch, uint64_t line_no,
		      const char *line, size_t len)
{
	struct gb_err err = {""};
	int ret;

	if (!len)
		return 0; /* blank lines carry nothing; not worth an error */
	ret = stream_decode(line, len, scratch, &err);
	if (!ret)
		ret = model_apply(m, scratch, &err);
	if (ret)
		model_refuse(m, scratch, line_no, err.msg);
	return ret;
}

const struct stream_decision *model_decision(const struct top_model *m, uint64_t i)
{
	if (i >= m->nr_decisions || i >= MODEL_LOG_LEN)
		return NULL;
	return &m->log[(m->nr_decisions - 1 - i) % MODEL_LOG_LEN];
}

int model_cpu_domain(const struct top_model *m, int cpu)
{
	if (cpu < 0 || cpu >= STREAM_MAX_CPUS)
		return -1;
	return m->cpu_domain[cpu];
}

const char *model_domain_name(const struct top_model *m, int domain)
{
	if (domain < 0 || domain >= m->topo.nr_domains)
		return "?";
	return m->topo.domains[domain].name;
}

int model_opp_perf(const struct top_model *m, int d, uint32_t freq_khz)
{
	const struct stream_domain_info *di;
	int perf = -1;

	if (d < 0 || d >= m->topo.nr_domains)
		return -1;
	di = &m->topo.domains[d];
	for (int i = 0; i < di->nr_opps; i++)
		if (di->opps[i].freq_khz <= freq_khz)
			perf = (int)di->opps[i].perf;
	return perf;
}

uint64_t model_total_power_uw(const struct top_model *m)
{
	uint64_t sum = 0;

	for (int i = 0; i < m->topo.nr_domains; i++)
		sum += m->dom[i].power_uw;
	return sum;
}

const char *model_sort_name(enum model_sort key)
{
	static const char *const names[SORT_COUNT] = {"UTIL", "MIGR", "DOMAIN", "COMM", "PID"};

	return key < SORT_COUNT ? names[key] : "?";
}

/* <0 when a sorts before b under key (before the reversal), >0 after, 0 only for one task. */
static int task_cmp(const struct top_model *m, enum model_sort key, const struct stream_task *a,
		    const struct stream_task *b)
{
	int c = 0;

	switch (key) {
	case SORT_UTIL:
		c = (b->util > a->util) - (b->util < a->util);
		break;
	case SORT_MIGRATIONS:
		c = (b->migrations > a->migrations) - (b->migrations < a->migrations);
		break;
	case SORT_DOMAIN: {
		/* tasks on no CPU (-1) sort last */
		unsigned da = (unsigned)model_cpu_domain(m, a->cpu);
		unsigned db = (unsigned)model_cpu_domain(m, b->cpu);
		c = (da > db) - (da < db);
		break;
	}
	case SORT_NAME:
		c = strcmp(a->comm, b->comm);
		break;
	case SORT_PID:
	case SORT_COUNT:
		break;
	}
	return c ? c : (a->pid > b->pid) - (a->pid < b->pid);
}

/* Insertion sort: at most MODEL_MAX_TASKS entries, and no context-less qsort callback. */
int model_tasks_sorted(const struct top_model *m, enum model_sort key, bool reverse, int *order,
		       int max)
{
	int n = m->nr_tasks < max ? m->nr_tasks : max;

	for (int i = 0; i < n; i++) {
		const struct stream_task *t = &m->tasks[i].t;
		int j = i;

		while (j > 0) {
			int c = task_cmp(m, key, &m->tasks[order[j - 1]].t, t);
			if (reverse ? c > 0 : c < 0)
				break;
			order[j] = order[j - 1];
			j--;
		}
		order[j] = i;
	}
	return n;
}

int model_tasks_by_util(const struct top_model *m, int *order, int max)
{
	return model_tasks_sorted(m, SORT_UTIL, false, order, max);
}
