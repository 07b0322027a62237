/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * model.h - what `gearbox top` knows: the topology from `hello`, the latest `sample`, a ring of
 * recent decisions, the task table and the last stream error.  No drawing and no I/O here, so
 * that the unit tests and the fuzzer exercise exactly what the screen shows.
 *
 * A record is applied whole or not at all: model_apply() checks it against the topology first
 * (domain ids, CPU ids) and only then copies it in.  A bad line leaves the model as it was and
 * sets last_error to "line N: reason", which the UI shows on its error line.
 */
#ifndef GEARBOX_TUI_MODEL_H
#define GEARBOX_TUI_MODEL_H

#include "stream.h"

#define MODEL_LOG_LEN	4096 /* decisions kept for the log view */
#define MODEL_MAX_TASKS 256  /* derived task table when samples carry no tasks[] */
#define MODEL_ERR_LEN	200

struct model_task {
	struct stream_task t;
	bool running; /* seen on a CPU in the latest sample */
};

struct top_model {
	bool have_hello;
	struct stream_hello topo;
	int cpu_domain[STREAM_MAX_CPUS];      /* domain index, -1 if none */
	char cpulist[STREAM_MAX_DOMAINS][48]; /* "0-3", formatted once at hello */

	bool have_sample;
	int64_t t_us;
	uint64_t energy_uj;
	uint64_t nr_samples;
	struct stream_domain_sample dom[STREAM_MAX_DOMAINS]; /* indexed by domain id */
	struct stream_cpu_sample cpu[STREAM_MAX_CPUS];	     /* indexed by CPU id */

	/* Tasks: from the sample's tasks[] when present, else derived from decisions. */
	bool tasks_from_sample;
	int nr_tasks;
	struct model_task tasks[MODEL_MAX_TASKS];

	uint64_t nr_decisions; /* ever applied; ring holds the last LOG_LEN */
	struct stream_decision log[MODEL_LOG_LEN];
	uint64_t reason_count[REASON_UNKNOWN + 1];

	bool ended;
	struct stream_end end;

	uint64_t nr_records;
	uint64_t nr_errors;
	char last_error[MODEL_ERR_LEN]; /* "" when the stream has been clean */
	/* Why this stream's hello was refused ("" when none was): every record after it is
	 * refused for that reason, so the error line keeps showing it. */
	char hello_error[MODEL_ERR_LEN];
	uint64_t generation; /* bumped on every change, for redraws */
};

void model_init(struct top_model *m);

/* Forgets everything of the previous connection except the error count (a new hello follows). */
void model_new_stream(struct top_model *m);

/* Checks rec against the topology and applies it.  -EINVAL with err set, model untouched. */
int model_apply(struct top_model *m, const struct stream_rec *rec, struct gb_err *err);

/* Records "line N: msg" as the current stream error. */
void model_set_error(struct top_model *m, uint64_t line_no, const char *msg);

/*
 * model_set_error() for a record that was refused; rec (may be NULL) is what was decoded of it.
 * A refused hello is remembered, so the records after it say why they cannot be shown.
 */
void model_refuse(struct top_model *m, const struct stream_rec *rec, uint64_t line_no,
		  const char *msg);

/* Decodes and applies one line, recording any error; scratch holds the decoded record. */
int model_ingest_line(struct top_model *m, struct stream_rec *scratch, uint64_t line_no,
		      const char *line, size_t len);

/* The i-th most recent decision (0 = newest), NULL past what the ring holds. */
const struct stream_decision *model_decision(const struct top_model *m, uint64_t i);

/* Domain of a CPU, or -1 (unknown CPU, or no hello yet). */
int model_cpu_domain(const struct top_model *m, int cpu);
const char *model_domain_name(const struct top_model *m, int domain);

/* The OPP perf at freq_khz in domain d (the highest OPP not above it), or -1. */
int model_opp_perf(const struct top_model *m, int d, uint32_t freq_khz);

/* Sum of the domains' power in the latest sample, uW. */
uint64_t model_total_power_uw(const struct top_model *m);

/* What the task view sorts by; util, migrations: highest first; domain, name, pid: ascending. */
enum model_sort { SORT_UTIL, SORT_MIGRATIONS, SORT_DOMAIN, SORT_NAME, SORT_PID, SORT_COUNT };

/* The sort key's column title in the task view ("UTIL", "MIGR", ...). */
const char *model_sort_name(enum model_sort key);

/*
 * Fills order[] with task indices sorted by key (ties: pid ascending), reversed when reverse
 * is set; returns the count.
 */
int model_tasks_sorted(const struct top_model *m, enum model_sort key, bool reverse, int *order,
		       int max);

/* Fills order[] with task indices sorted by util, highest first; returns the count. */
int model_tasks_by_util(const struct top_model *m, int *order, int max);

#endif
