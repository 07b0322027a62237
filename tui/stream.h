/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * stream.h - the `gearbox-stream/1` parser (docs/stream.md): bytes in, typed records out.
 *
 * Two layers, both free of drawing and of I/O:
 *  - struct stream_lines splits a byte stream into lines.  It never buffers more than the
 *    format's 1 MiB line limit; an over-long line is skipped up to its newline and reported, a
 *    last line without a newline is reported as truncated when the caller signals end of stream.
 *  - stream_decode() turns one line into a struct stream_rec and checks every known field's
 *    type.  On error it fills err with "reason" (the caller adds "line N: ") and the record is
 *    to be dropped; nothing is half-applied because the model only sees whole records.
 * Strings from the stream are reduced to printable ASCII ('?' for anything else) so that a
 * hostile comm cannot send escape sequences to the terminal.
 */
#ifndef GEARBOX_TUI_STREAM_H
#define GEARBOX_TUI_STREAM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../src/policy/gb_reason_list.h"
#include "gb_err.h"

#define STREAM_FORMAT		"gearbox-stream/1"
#define STREAM_MAX_LINE		(1u << 20) /* bytes, without the newline */
#define STREAM_MAX_DOMAINS	64
#define STREAM_MAX_CPUS		256
#define STREAM_MAX_OPPS		32
#define STREAM_MAX_TASKS	64
#define STREAM_COMM_LEN		16 /* the kernel's TASK_COMM_LEN, NUL included */
#define STREAM_NAME_LEN		32
#define STREAM_MAX_CPU_IDLE	8 /* the em-profile's limits (em_profile.h) */
#define STREAM_MAX_CLUSTER_IDLE 4

enum stream_type { STREAM_HELLO, STREAM_SAMPLE, STREAM_DECISION, STREAM_END, STREAM_OTHER };

/* The reason codes this reader knows: the list the writers expand (gb_reason_list.h). */
enum stream_reason {
#define STREAM_REASON_ENUM(name, code) REASON_##name,
	GB_REASON_LIST(STREAM_REASON_ENUM)
#undef STREAM_REASON_ENUM
	    REASON_UNKNOWN, /* a code this reader does not know: shown verbatim */
};

struct stream_opp {
	uint32_t freq_khz;
	uint32_t perf;
	uint32_t power_uw;
};

struct stream_idle_state {
	char name[STREAM_NAME_LEN];
	uint32_t power_uw;
	uint32_t entry_latency_us;
	uint32_t exit_latency_us;
	uint32_t min_residency_us;
};

struct stream_domain_info {
	int id;
	char name[STREAM_NAME_LEN];
	int capacity;
	int nr_cpus;
	uint16_t cpus[STREAM_MAX_CPUS];
	int nr_opps;
	struct stream_opp opps[STREAM_MAX_OPPS];
	int64_t transition_latency_us; /* -1 when the model has none */
	bool has_idle;		       /* static_uw and the idle states below are the model's */
	uint32_t static_uw;
	int nr_cpu_idle, nr_cluster_idle;
	struct stream_idle_state cpu_idle[STREAM_MAX_CPU_IDLE];
	struct stream_idle_state cluster_idle[STREAM_MAX_CLUSTER_IDLE];
};

struct stream_hello {
	char source[STREAM_NAME_LEN];
	char soc[STREAM_NAME_LEN];
	char policy[STREAM_NAME_LEN];
	int nr_cpus;
	int nr_domains;
	struct stream_domain_info domains[STREAM_MAX_DOMAINS];
};

struct stream_domain_sample {
	int id;
	int util;
	int perf_target;
	uint32_t freq_khz;
	uint32_t power_uw;
	bool overutilized;
};

struct stream_cpu_sample {
	int cpu;
	int util;
	int pid;
	char comm[STREAM_COMM_LEN];
};

struct stream_task {
	int pid;
	char comm[STREAM_COMM_LEN];
	int util;
	int uclamp_min;
	int uclamp_max;
	int cpu;
	int migrations;
};

struct stream_sample {
	int64_t t_us;
	uint64_t energy_uj;
	int nr_domains;
	struct stream_domain_sample domains[STREAM_MAX_DOMAINS];
	int nr_cpus;
	struct stream_cpu_sample cpus[STREAM_MAX_CPUS];
	bool has_tasks;
	int nr_tasks;
	struct stream_task tasks[STREAM_MAX_TASKS];
};

struct stream_decision {
	int64_t t_us;
	int pid;
	char comm[STREAM_COMM_LEN];
	int from; /* -1: new task */
	int to;
	enum stream_reason reason;
	char reason_code[STREAM_NAME_LEN];
	int64_t power_delta_uw;
	int util;
	int uclamp_min;
	int uclamp_max;
	int from_cap; /* -1 when absent */
	int to_cap;
	int64_t from_freq_khz; /* -1 when absent */
	int64_t to_freq_khz;
};

struct stream_end {
	int64_t t_us;
	uint64_t energy_uj;
};

struct stream_rec {
	enum stream_type type;
	union {
		struct stream_hello hello;
		struct stream_sample sample;
		struct stream_decision decision;
		struct stream_end end;
	};
};

/* Decodes one line (no newline) into rec.  Returns 0, or -EINVAL with err set. */
int stream_decode(const char *line, size_t len, struct stream_rec *rec, struct gb_err *err);

/* The record's time, or -1 for records without one (hello, unknown types). */
int64_t stream_rec_time_us(const struct stream_rec *rec);

enum stream_reason stream_reason_from_code(const char *code);
const char *stream_reason_code(enum stream_reason r);

/* Line splitter. */
struct stream_lines {
	char *buf;	  /* STREAM_MAX_LINE + 1 bytes */
	size_t len;	  /* bytes of the current partial line */
	bool skipping;	  /* inside an over-long line: drop bytes up to the next newline */
	uint64_t line_no; /* number of the line most recently returned or reported */
};

int stream_lines_init(struct stream_lines *sl, struct gb_err *err);
void stream_lines_free(struct stream_lines *sl);
void stream_lines_reset(struct stream_lines *sl);

/*
 * Feeds up to n bytes of data and returns how many it consumed; stops after the first complete
 * line, which it returns in *line / *line_len (pointing into sl->buf, valid until the next call)
 * with 1, or returns 0 with *line NULL when it needs more bytes.  An over-long line is reported
 * by returning -E2BIG once, with err set, and then skipped.
 */
int stream_lines_feed(struct stream_lines *sl, const char *data, size_t n, size_t *consumed,
		      const char **line, size_t *line_len, struct gb_err *err);

/* At end of stream: -EPIPE with err set when a partial line is left, else 0. */
int stream_lines_finish(struct stream_lines *sl, struct gb_err *err);

#endif
