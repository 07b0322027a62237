// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_stream.c - the stream parser and the model: records apply whole or not at all, errors
 * name their line, the line splitter survives truncation and over-long lines, and the replay
 * clock applies records when (and only when) their time has come.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "model.h"
#include "source.h"
#include "tap.h"

static const char HELLO[] =
    "{\"type\":\"hello\",\"format\":\"gearbox-stream/1\",\"source\":\"sim\",\"soc\":\"sm8250\","
    "\"policy\":\"gearbox\",\"nr_cpus\":8,\"domains\":["
    "{\"id\":0,\"name\":\"little\",\"cpus\":[0,1,2,3],\"capacity\":286,\"opps\":["
    "{\"freq_khz\":300000,\"perf\":48,\"power_uw\":27362},"
    "{\"freq_khz\":1804800,\"perf\":286,\"power_uw\":115215}]},"
    "{\"id\":1,\"name\":\"mid\",\"cpus\":[4,5,6],\"capacity\":876,\"opps\":["
    "{\"freq_khz\":710400,\"perf\":257,\"power_uw\":126262},"
    "{\"freq_khz\":1382400,\"perf\":501,\"power_uw\":265451},"
    "{\"freq_khz\":2419200,\"perf\":876,\"power_uw\":710336}]},"
    "{\"id\":2,\"name\":\"big\",\"cpus\":[7],\"capacity\":1024,\"opps\":["
    "{\"freq_khz\":844800,\"perf\":306,\"power_uw\":172159},"
    "{\"freq_khz\":2841600,\"perf\":1024,\"power_uw\":985967}]}]}";

static const char SAMPLE[] =
    "{\"type\":\"sample\",\"t_us\":250000,\"energy_uj\":123456,\"domains\":["
    "{\"id\":1,\"util\":310,\"perf_target\":388,\"freq_khz\":1382400,\"power_uw\":151000,"
    "\"overutilized\":true}],"
    "\"cpus\":[{\"cpu\":4,\"util\":300,\"pid\":42,\"comm\":\"ui\"}]}";

static struct top_model *m;
static struct stream_rec *rec;

static int feed(const char *line, uint64_t no)
{
	return model_ingest_line(m, rec, no, line, strlen(line));
}

static void fresh(void)
{
	model_init(m);
	feed(HELLO, 1);
}

static void test_hello_sets_topology_and_cpu_lists(void)
{
	fresh();
	CHECK(m->have_hello);
	CHECK_EQ_I(m->topo.nr_domains, 3);
	CHECK_EQ_I(m->topo.nr_cpus, 8);
	CHECK_STR_CONTAINS(m->topo.soc, "sm8250");
	CHECK_STR_CONTAINS(m->cpulist[0], "0-3");
	CHECK_STR_CONTAINS(m->cpulist[1], "4-6");
	CHECK_EQ_I(model_cpu_domain(m, 7), 2);
	CHECK_EQ_I(model_cpu_domain(m, 8), -1);
	CHECK_EQ_U(m->nr_errors, 0);
}

static void test_sample_updates_the_domains_it_names_by_id(void)
{
	fresh();
	CHECK_EQ_I(feed(SAMPLE, 2), 0);
	CHECK(m->have_sample);
	CHECK_EQ_I(m->t_us, 250000);
	CHECK_EQ_U(m->dom[1].freq_khz, 1382400);
	CHECK_EQ_I(m->dom[1].perf_target, 388);
	CHECK(m->dom[1].overutilized);
	CHECK_EQ_U(m->dom[0].freq_khz, 0);
	CHECK_EQ_I(m->cpu[4].pid, 42);
	CHECK_STR_CONTAINS(m->cpu[4].comm, "ui");
	CHECK_EQ_U(model_total_power_uw(m), 151000);
	CHECK_EQ_I(model_opp_perf(m, 1, 1382400), 501);
	CHECK_EQ_I(model_opp_perf(m, 1, 1500000), 501); /* between OPPs: the one below */
}

static void test_non_json_line_reports_its_line_number_and_keeps_state(void)
{
	fresh();
	feed(SAMPLE, 2);
	uint64_t gen = m->generation;
	CHECK(feed("this is not json", 3) < 0);
	CHECK_STR_CONTAINS(m->last_error, "line 3: not JSON");
	CHECK_EQ_U(m->nr_errors, 1);
	CHECK_EQ_U(m->dom[1].freq_khz, 1382400);
	CHECK(m->generation > gen); /* the error line itself must be redrawn */
}

static void test_wrongly_typed_field_rejects_the_whole_record(void)
{
	fresh();
	feed(SAMPLE, 2);
	/* domains[0] is fine, domains[1] has a string util: nothing of this sample may land. */
	CHECK(feed("{\"type\":\"sample\",\"t_us\":300000,\"domains\":["
		   "{\"id\":0,\"util\":100,\"freq_khz\":1804800},"
		   "{\"id\":1,\"util\":\"high\",\"freq_khz\":2419200}]}",
		   3) < 0);
	CHECK_STR_CONTAINS(m->last_error, "line 3: domains[1].util: must be an integer");
	CHECK_EQ_I(m->t_us, 250000);
	CHECK_EQ_U(m->dom[0].freq_khz, 0);
	CHECK_EQ_U(m->dom[1].freq_khz, 1382400);
}

static void test_record_naming_an_unknown_domain_or_cpu_is_refused(void)
{
	fresh();
	CHECK(feed("{\"type\":\"sample\",\"t_us\":1,\"domains\":[{\"id\":5,\"util\":1,"
		   "\"freq_khz\":1}]}",
		   2) < 0);
	CHECK_STR_CONTAINS(m->last_error, "no such domain");
	CHECK(feed("{\"type\":\"decision\",\"t_us\":1,\"pid\":1,\"from\":0,\"to\":8,"
		   "\"reason\":\"fork\"}",
		   3) < 0);
	CHECK_STR_CONTAINS(m->last_error, "line 3: CPU 8: no such CPU");
	CHECK(!m->have_sample);
	CHECK_EQ_U(m->nr_decisions, 0);
}

static void test_records_before_hello_are_errors(void)
{
	model_init(m);
	CHECK(feed(SAMPLE, 1) < 0);
	CHECK_STR_CONTAINS(m->last_error, "line 1: sample before hello");
	CHECK(!m->have_sample);
}

static void test_a_refused_hello_stays_the_reason_on_the_error_line(void)
{
	model_init(m);
	CHECK(feed("{\"type\":\"hello\",\"format\":\"gearbox-stream/1\",\"nr_cpus\":2,"
		   "\"domains\":[{\"id\":0,\"cpus\":[0,5],\"capacity\":1024}]}",
		   1) < 0);
	CHECK_STR_CONTAINS(m->last_error, "CPU 5 >= nr_cpus 2");
	CHECK(feed(SAMPLE, 2) < 0);
	/* the sample's own complaint names the hello's, not just "before hello" */
	CHECK_STR_CONTAINS(m->last_error, "line 2: sample ignored: the stream's hello was refused");
	CHECK_STR_CONTAINS(m->last_error, "line 1: domains[0].cpus: CPU 5 >= nr_cpus 2");
	/* a hello that does not even decode is remembered the same way */
	model_init(m);
	CHECK(feed("{\"type\":\"hello\",\"format\":\"gearbox-stream/1\"}", 1) < 0);
	CHECK(feed(SAMPLE, 2) < 0);
	CHECK_STR_CONTAINS(m->last_error, "hello was refused (line 1:");
	/* a good hello afterwards clears it */
	CHECK_EQ_I(feed(HELLO, 3), 0);
	CHECK_EQ_I(feed(SAMPLE, 4), 0);
	CHECK(m->hello_error[0] == '\0');
}

static void test_unknown_fields_and_record_types_are_ignored(void)
{
	fresh();
	CHECK_EQ_I(feed("{\"type\":\"sample\",\"t_us\":5,\"new_field\":[1,2],\"domains\":[]}", 2),
		   0);
	CHECK_EQ_I(feed("{\"type\":\"histogram\",\"bins\":[1,2,3]}", 3), 0);
	CHECK_EQ_U(m->nr_errors, 0);
	CHECK_EQ_I(m->t_us, 5);
}

static void test_other_major_format_versions_are_refused(void)
{
	char buf[sizeof(HELLO) + 8];
	char *p;

	model_init(m);
	strcpy(buf, HELLO);
	p = strstr(buf, "stream/1");
	p[7] = '2';
	CHECK(feed(buf, 1) < 0);
	CHECK_STR_CONTAINS(m->last_error, "is not gearbox-stream/1");
	CHECK(!m->have_hello);
	/* A minor version of the same major is fine. */
	snprintf(buf, sizeof(buf), "%.*s1.3%s", (int)(p + 7 - buf), HELLO, HELLO + (p + 8 - buf));
	CHECK_EQ_I(feed(buf, 2), 0);
	CHECK(m->have_hello);
}

static void test_second_hello_keeps_the_first_topology(void)
{
	fresh();
	CHECK(feed("{\"type\":\"hello\",\"format\":\"gearbox-stream/1\",\"nr_cpus\":1,"
		   "\"domains\":[{\"id\":0,\"cpus\":[0],\"capacity\":1024}]}",
		   2) < 0);
	CHECK_STR_CONTAINS(m->last_error, "second hello");
	CHECK_EQ_I(m->topo.nr_domains, 3);
}

static void test_control_characters_in_comm_never_reach_the_screen(void)
{
	fresh();
	CHECK_EQ_I(feed("{\"type\":\"decision\",\"t_us\":1,\"pid\":9,\"comm\":\"ev\\u001b[2Jil\","
			"\"from\":0,\"to\":1,\"reason\":\"fork\"}",
			2),
		   0);
	const struct stream_decision *d = model_decision(m, 0);
	CHECK(d != NULL);
	if (d)
		CHECK_STR_CONTAINS(d->comm, "ev?[2Jil");
}

static void test_decision_log_keeps_the_newest_when_full(void)
{
	char line[256];

	fresh();
	for (int i = 0; i < MODEL_LOG_LEN + 10; i++) {
		snprintf(line, sizeof(line),
			 "{\"type\":\"decision\",\"t_us\":%d,\"pid\":%d,"
			 "\"from\":0,\"to\":4,\"reason\":\"capacity_misfit\",\"util\":300}",
			 i, i);
		feed(line, (uint64_t)i + 2);
	}
	CHECK_EQ_U(m->nr_decisions, MODEL_LOG_LEN + 10);
	CHECK_EQ_I(model_decision(m, 0)->pid, MODEL_LOG_LEN + 9);
	CHECK_EQ_I(model_decision(m, MODEL_LOG_LEN - 1)->pid, 10);
	CHECK(model_decision(m, MODEL_LOG_LEN) == NULL);
	CHECK_EQ_U(m->reason_count[REASON_CAPACITY_MISFIT], MODEL_LOG_LEN + 10);
}

static void test_decision_without_opps_takes_them_from_the_latest_sample(void)
{
	fresh();
	feed(SAMPLE, 2); /* mid at 1382400 kHz, little not sampled (0) */
	CHECK_EQ_I(feed("{\"type\":\"decision\",\"t_us\":9,\"pid\":1,\"from\":5,\"to\":0,"
			"\"reason\":\"wakeup_energy\"}",
			3),
		   0);
	CHECK_EQ_I(model_decision(m, 0)->from_freq_khz, 1382400);
	CHECK_EQ_I(model_decision(m, 0)->to_freq_khz, -1); /* never sampled: still unknown */
	CHECK_EQ_I(feed("{\"type\":\"decision\",\"t_us\":9,\"pid\":1,\"from\":5,\"to\":0,"
			"\"reason\":\"wakeup_energy\",\"from_freq_khz\":2000}",
			4),
		   0);
	CHECK_EQ_I(model_decision(m, 0)->from_freq_khz, 2000); /* the record wins */
}

static void test_tasks_without_tasks_array_come_from_decisions(void)
{
	int order[8];

	fresh();
	feed("{\"type\":\"decision\",\"t_us\":1,\"pid\":70,\"comm\":\"game\",\"from\":-1,\"to\":0,"
	     "\"reason\":\"fork\",\"util\":50}",
	     2);
	feed("{\"type\":\"decision\",\"t_us\":2,\"pid\":70,\"comm\":\"game\",\"from\":0,\"to\":4,"
	     "\"reason\":\"capacity_misfit\",\"util\":240}",
	     3);
	feed("{\"type\":\"decision\",\"t_us\":3,\"pid\":57,\"comm\":\"media\",\"from\":7,\"to\":4,"
	     "\"reason\":\"power_misfit\",\"util\":290,\"uclamp_max\":300}",
	     4);
	CHECK_EQ_I(m->nr_tasks, 2);
	CHECK(!m->tasks_from_sample);
	CHECK_EQ_I(model_tasks_by_util(m, order, 8), 2);
	CHECK_EQ_I(m->tasks[order[0]].t.pid, 57); /* util 290 before 240 */
	CHECK_EQ_I(m->tasks[order[0]].t.uclamp_max, 300);
	CHECK_EQ_I(m->tasks[order[1]].t.migrations, 1); /* the fork is not a migration */
	CHECK_EQ_I(m->tasks[order[1]].t.cpu, 4);
}

static void test_tasks_array_replaces_the_task_table(void)
{
	fresh();
	CHECK_EQ_I(feed("{\"type\":\"sample\",\"t_us\":1,\"domains\":[],\"tasks\":["
			"{\"pid\":1,\"comm\":\"a\",\"util\":10,\"cpu\":2,\"migrations\":4},"
			"{\"pid\":2,\"comm\":\"b\",\"util\":900,\"uclamp_min\":512}]}",
			2),
		   0);
	CHECK(m->tasks_from_sample);
	CHECK_EQ_I(m->nr_tasks, 2);
	CHECK_EQ_I(m->tasks[0].t.migrations, 4);
	CHECK_EQ_I(m->tasks[1].t.uclamp_min, 512);
	CHECK_EQ_I(m->tasks[1].t.uclamp_max, 1024); /* default when absent */
	CHECK_EQ_I(m->tasks[1].t.cpu, -1);
}

static void test_task_view_sorts_by_each_key_and_reverses(void)
{
	int order[8];

	fresh();
	CHECK_EQ_I(feed("{\"type\":\"sample\",\"t_us\":1,\"domains\":[],\"tasks\":["
			"{\"pid\":5,\"comm\":\"zed\",\"util\":10,\"cpu\":7,\"migrations\":1},"
			"{\"pid\":3,\"comm\":\"alpha\",\"util\":900,\"cpu\":4,"
			"\"migrations\":9},"
			"{\"pid\":9,\"comm\":\"mid\",\"util\":300,\"cpu\":0,\"migrations\":9},"
			"{\"pid\":4,\"comm\":\"idle\",\"util\":300}]}",
			2),
		   0);
	CHECK_EQ_I(model_tasks_sorted(m, SORT_UTIL, false, order, 8), 4);
	/* util high first, ties by pid */
	CHECK_EQ_I(m->tasks[order[0]].t.pid, 3);
	CHECK_EQ_I(m->tasks[order[1]].t.pid, 4);
	CHECK_EQ_I(m->tasks[order[2]].t.pid, 9);
	CHECK_EQ_I(m->tasks[order[3]].t.pid, 5);
	model_tasks_sorted(m, SORT_MIGRATIONS, false, order, 8);
	CHECK_EQ_I(m->tasks[order[0]].t.pid, 3);
	CHECK_EQ_I(m->tasks[order[1]].t.pid, 9);
	CHECK_EQ_I(m->tasks[order[3]].t.pid, 4);
	/* domain ascending (little 0, mid 1, big 2), a task on no CPU last */
	model_tasks_sorted(m, SORT_DOMAIN, false, order, 8);
	CHECK_EQ_I(m->tasks[order[0]].t.pid, 9);
	CHECK_EQ_I(m->tasks[order[1]].t.pid, 3);
	CHECK_EQ_I(m->tasks[order[2]].t.pid, 5);
	CHECK_EQ_I(m->tasks[order[3]].t.pid, 4);
	model_tasks_sorted(m, SORT_NAME, false, order, 8);
	CHECK_STR_CONTAINS(m->tasks[order[0]].t.comm, "alpha");
	CHECK_STR_CONTAINS(m->tasks[order[3]].t.comm, "zed");
	model_tasks_sorted(m, SORT_PID, true, order, 8);
	CHECK_EQ_I(m->tasks[order[0]].t.pid, 9);
	CHECK_EQ_I(m->tasks[order[3]].t.pid, 3);
	CHECK(!strcmp(model_sort_name(SORT_MIGRATIONS), "MIGR"));
}

/* Feeds s through the splitter in chunks of n bytes; returns lines seen, copies the last. */
static int split(struct stream_lines *sl, const char *s, size_t total, size_t n, char *last,
		 int *errors)
{
	struct gb_err err;
	int lines = 0;
	size_t off = 0;

	while (off < total) {
		size_t chunk = total - off < n ? total - off : n, used;
		const char *line;
		size_t len;
		int r = stream_lines_feed(sl, s + off, chunk, &used, &line, &len, &err);
		off += used;
		if (r < 0)
			(*errors)++;
		if (r == 1) {
			lines++;
			memcpy(last, line, len + 1);
		}
	}
	return lines;
}

static void test_lines_split_across_reads_are_reassembled(void)
{
	struct stream_lines sl;
	struct gb_err err;
	char last[64];
	int errors = 0;
	const char *s = "{\"a\":1}\n{\"bb\":22}\n{\"ccc\":333}\n";

	CHECK_EQ_I(stream_lines_init(&sl, &err), 0);
	CHECK_EQ_I(split(&sl, s, strlen(s), 3, last, &errors), 3);
	CHECK_STR_CONTAINS(last, "{\"ccc\":333}");
	CHECK_EQ_U(sl.line_no, 3);
	CHECK_EQ_I(stream_lines_finish(&sl, &err), 0);
	CHECK_EQ_I(errors, 0);
	stream_lines_free(&sl);
}

static void test_last_line_without_newline_is_reported_truncated(void)
{
	struct stream_lines sl;
	struct gb_err err;
	char last[64];
	int errors = 0;
	const char *s = "{\"a\":1}\n{\"type\":\"sam";

	stream_lines_init(&sl, &err);
	CHECK_EQ_I(split(&sl, s, strlen(s), 64, last, &errors), 1);
	CHECK(stream_lines_finish(&sl, &err) < 0);
	CHECK_STR_CONTAINS(err.msg, "truncated");
	CHECK_EQ_U(sl.line_no, 2);
	stream_lines_free(&sl);
}

static void test_over_long_line_is_skipped_and_the_next_one_read(void)
{
	struct stream_lines sl;
	struct gb_err err;
	char last[64];
	int errors = 0;
	size_t big = STREAM_MAX_LINE + 100;
	char *s = malloc(big + 16);

	memset(s, 'x', big);
	memcpy(s + big, "\n{\"ok\":1}\n", 11);
	stream_lines_init(&sl, &err);
	CHECK_EQ_I(split(&sl, s, big + 10, 4096, last, &errors), 1);
	CHECK_EQ_I(errors, 1);
	CHECK_STR_CONTAINS(last, "{\"ok\":1}");
	CHECK_EQ_U(sl.line_no, 2);
	stream_lines_free(&sl);
	free(s);
}

/* A trace: hello, samples at 0, 100 ms, 200 ms, and a decision at 150 ms. */
static const char *write_trace(char *path)
{
	strcpy(path, "/tmp/gb-tui-test-XXXXXX");
	int fd = mkstemp(path);
	FILE *f = fdopen(fd, "w");
	fprintf(f, "%s\n", HELLO);
	for (int i = 0; i < 3; i++) {
		if (i == 2)
			fprintf(
			    f,
			    "{\"type\":\"decision\",\"t_us\":150000,\"pid\":3,\"from\":0,\"to\":7,"
			    "\"reason\":\"capacity_misfit\",\"util\":280}\n");
		fprintf(f,
			"{\"type\":\"sample\",\"t_us\":%d,\"domains\":[{\"id\":0,\"util\":1,"
			"\"freq_khz\":%d}]}\n",
			i * 100000, 300000 + i);
	}
	fclose(f);
	return path;
}

static void test_replay_applies_records_when_the_clock_reaches_them(void)
{
	struct top_source s;
	struct gb_err err;
	char path[64];

	model_init(m);
	CHECK_EQ_I(source_open_replay(&s, write_trace(path), 1.0, false, &err), 0);
	source_pump(&s, m, 1000000); /* wall time 1 s: the trace starts here */
	CHECK(m->have_hello);
	CHECK_EQ_U(m->dom[0].freq_khz, 300000);
	source_pump(&s, m, 1000000 + 99000); /* 99 ms later: sample 1 not due yet */
	CHECK_EQ_U(m->dom[0].freq_khz, 300000);
	CHECK(source_wait_us(&s, 1000000 + 99000) > 0);
	source_pump(&s, m, 1000000 + 160000); /* sample 1 and the decision */
	CHECK_EQ_U(m->dom[0].freq_khz, 300001);
	CHECK_EQ_U(m->nr_decisions, 1);
	source_set_speed(&s, 2.0, 1000000 + 160000);
	source_pump(&s, m, 1000000 + 180000); /* 20 ms at x2 = 200 ms of trace */
	CHECK_EQ_U(m->dom[0].freq_khz, 300002);
	source_pump(&s, m, 1000000 + 190000);
	CHECK(s.eof);
	CHECK_EQ_U(m->nr_errors, 0);
	source_close(&s);
	unlink(path);
}

static void test_paused_replay_moves_only_by_steps_of_one_sample(void)
{
	struct top_source s;
	struct gb_err err;
	char path[64];

	model_init(m);
	CHECK_EQ_I(source_open_replay(&s, write_trace(path), 1.0, true, &err), 0);
	source_pump(&s, m, 0);
	CHECK_EQ_U(m->dom[0].freq_khz, 300000); /* the first instant is shown */
	source_pump(&s, m, 60000000);		/* a minute later, still paused */
	CHECK_EQ_U(m->dom[0].freq_khz, 300000);
	CHECK_EQ_I(source_wait_us(&s, 60000000), -1); /* and asleep: no polling */
	source_step(&s, 60000000);
	source_pump(&s, m, 60000000);
	CHECK_EQ_U(m->dom[0].freq_khz, 300001);
	CHECK_EQ_U(m->nr_decisions, 0);
	source_step(&s, 60000000);
	source_pump(&s, m, 60000000); /* the decision comes with the step */
	CHECK_EQ_U(m->dom[0].freq_khz, 300002);
	CHECK_EQ_U(m->nr_decisions, 1);
	CHECK_EQ_I(source_clock_us(&s, 99000000), 200000);
	source_close(&s);
	unlink(path);
}

static const char HELLO_IDLE[] =
    "{\"type\":\"hello\",\"format\":\"gearbox-stream/1\",\"nr_cpus\":2,\"domains\":["
    "{\"id\":0,\"name\":\"little\",\"cpus\":[0,1],\"capacity\":500,\"opps\":["
    "{\"freq_khz\":300000,\"perf\":500,\"power_uw\":90000}],\"transition_latency_us\":80,"
    "\"static_uw\":12000,\"idle_states\":{\"cpu\":[{\"name\":\"wfi\",\"power_uw\":4000,"
    "\"entry_latency_us\":1,\"exit_latency_us\":1,\"min_residency_us\":1},{\"name\":\"pc\","
    "\"power_uw\":0,\"exit_latency_us\":80}],\"cluster\":[{\"name\":\"off\",\"power_uw\":100,"
    "\"exit_latency_us\":1200,\"min_residency_us\":3000}]}}]}";

static void test_hello_carries_the_models_idle_states(void)
{
	const struct stream_domain_info *d;

	model_init(m);
	CHECK_EQ_I(feed(HELLO_IDLE, 1), 0);
	CHECK(m->have_hello);
	d = &m->topo.domains[0];
	CHECK(d->has_idle);
	CHECK_EQ_I(d->static_uw, 12000);
	CHECK_EQ_I(d->transition_latency_us, 80);
	CHECK_EQ_I(d->nr_cpu_idle, 2);
	CHECK_EQ_I(d->nr_cluster_idle, 1);
	CHECK_STR_CONTAINS(d->cpu_idle[1].name, "pc");
	CHECK_EQ_I(d->cpu_idle[1].exit_latency_us, 80);
	CHECK_EQ_I(d->cluster_idle[0].min_residency_us, 3000);
	/* a model without idle data says so */
	fresh();
	CHECK(!m->topo.domains[0].has_idle);
	CHECK_EQ_I(m->topo.domains[0].transition_latency_us, -1);
}

static void test_a_malformed_idle_state_refuses_the_hello(void)
{
	char bad[sizeof(HELLO_IDLE) + 8];
	const char *at = strstr(HELLO_IDLE, "\"power_uw\":4000");

	snprintf(bad, sizeof(bad), "%.*s\"power_uw\":\"4\"%s", (int)(at - HELLO_IDLE), HELLO_IDLE,
		 at + strlen("\"power_uw\":4000"));
	model_init(m);
	CHECK(feed(bad, 1) < 0);
	CHECK(!m->have_hello);
	CHECK_STR_CONTAINS(m->last_error,
			   "domains[0].idle_states.cpu[0].power_uw: must be an integer");
}

int main(void)
{
	m = malloc(sizeof(*m));
	rec = malloc(sizeof(*rec));
	TAP_RUN(test_hello_sets_topology_and_cpu_lists);
	TAP_RUN(test_sample_updates_the_domains_it_names_by_id);
	TAP_RUN(test_non_json_line_reports_its_line_number_and_keeps_state);
	TAP_RUN(test_wrongly_typed_field_rejects_the_whole_record);
	TAP_RUN(test_record_naming_an_unknown_domain_or_cpu_is_refused);
	TAP_RUN(test_records_before_hello_are_errors);
	TAP_RUN(test_a_refused_hello_stays_the_reason_on_the_error_line);
	TAP_RUN(test_unknown_fields_and_record_types_are_ignored);
	TAP_RUN(test_other_major_format_versions_are_refused);
	TAP_RUN(test_second_hello_keeps_the_first_topology);
	TAP_RUN(test_control_characters_in_comm_never_reach_the_screen);
	TAP_RUN(test_decision_log_keeps_the_newest_when_full);
	TAP_RUN(test_decision_without_opps_takes_them_from_the_latest_sample);
	TAP_RUN(test_tasks_without_tasks_array_come_from_decisions);
	TAP_RUN(test_tasks_array_replaces_the_task_table);
	TAP_RUN(test_task_view_sorts_by_each_key_and_reverses);
	TAP_RUN(test_lines_split_across_reads_are_reassembled);
	TAP_RUN(test_last_line_without_newline_is_reported_truncated);
	TAP_RUN(test_over_long_line_is_skipped_and_the_next_one_read);
	TAP_RUN(test_replay_applies_records_when_the_clock_reaches_them);
	TAP_RUN(test_paused_replay_moves_only_by_steps_of_one_sample);
	TAP_RUN(test_hello_carries_the_models_idle_states);
	TAP_RUN(test_a_malformed_idle_state_refuses_the_hello);
	free(m);
	free(rec);
	return tap_done();
}
