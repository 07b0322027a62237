// SPDX-License-Identifier: GPL-2.0-only
/*
 * fuzz_stream.c - libFuzzer target: arbitrary bytes through the line splitter, the decoder and
 * the model, then everything the panels would ask of the model.  Crashes, sanitizer reports
 * and leaks are the findings; the model's invariants are checked with __builtin_trap().
 * The first input byte picks the read chunk size, so the splitter sees lines cut anywhere.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "model.h"
#include "reason.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check_model(const struct top_model *m)
{
	char buf[160];
	int order[MODEL_MAX_TASKS];

	if (m->topo.nr_domains > STREAM_MAX_DOMAINS || m->nr_tasks > MODEL_MAX_TASKS)
		__builtin_trap();
	for (uint64_t i = 0; i < 8; i++) {
		const struct stream_decision *d = model_decision(m, i);
		if (!d)
			break;
		reason_describe(m, d, buf, sizeof(buf));
		reason_move(m, d, buf, sizeof(buf));
		reason_matches(m, d, "mi");
	}
	int n = model_tasks_by_util(m, order, MODEL_MAX_TASKS);
	for (int i = 1; i < n; i++)
		if (m->tasks[order[i - 1]].t.util < m->tasks[order[i]].t.util)
			__builtin_trap();
	for (int d = 0; d < m->topo.nr_domains; d++)
		model_opp_perf(m, d, m->dom[d].freq_khz);
	(void)model_total_power_uw(m);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct top_model *m;
	static struct stream_rec *rec;
	static struct stream_lines sl;
	struct gb_err err;

	if (!m) {
		m = malloc(sizeof(*m));
		rec = malloc(sizeof(*rec));
		if (!m || !rec || stream_lines_init(&sl, &err))
			abort();
	}
	if (!size)
		return 0;
	size_t chunk = (size_t)data[0] % 64 + 1, off = 1;
	model_init(m);
	stream_lines_reset(&sl);
	while (off < size) {
		size_t n = size - off < chunk ? size - off : chunk, used;
		const char *line;
		size_t len;
		int r =
		    stream_lines_feed(&sl, (const char *)data + off, n, &used, &line, &len, &err);
		off += used;
		if (r < 0)
			model_set_error(m, sl.line_no, err.msg);
		else if (r == 1)
			model_ingest_line(m, rec, sl.line_no, line, len);
	}
	if (stream_lines_finish(&sl, &err))
		model_set_error(m, sl.line_no, err.msg);
	check_model(m);
	return 0;
}
