// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_workload_errors.c - everything the loader does not support is rejected, never ignored,
 * with "FILE: task NAME[, phase P][, event E]: reason" and a negative errno.
 *
 * Each case is a small rt-app file (relaxed dialect allowed) and a piece of the message it
 * must produce.  T(...) wraps one task "t" with the given members; P(...) a phase "p" of it.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "relaxed_json.h"
#include "tap.h"
#include "workload.h"

#define T(members) "{ \"tasks\": { \"t\": { " members " } } }"
#define P(members) T("\"phases\": { \"p\": { " members " } }")

struct reject_case {
	const char *what;
	const char *text;
	int code;
	const char *msg;
};

static const struct reject_case cases[] = {
    /* Syntax */
    {"missing comma", "{\n\"tasks\": {}\n\"global\": {} }", -EINVAL,
     "x.json: line 3, column 1: expected ',' or '}'"},
    {"unterminated comment", "{ /* no end", -EINVAL, "unterminated comment"},
    {"unterminated string", "{ \"tasks", -EINVAL, "unterminated string"},
    {"unquoted key", "{ tasks: {} }", -EINVAL, "expected a key in double quotes"},
    {"text after the document", "{ \"tasks\": {} } x", -EINVAL, "unexpected text after the end"},
    {"bad literal", T("\"run\": tru"), -EINVAL,
     "x.json: line 1, column 30: invalid token near 'tru'"},
    /* the column is the file's, after repeated keys (renamed longer) and comments */
    {"bad literal after repeats", "{\"tasks\":{\"t\":{\"run\":1,\"run\":1, /* c */ \"run\": tru}}}",
     -EINVAL, "x.json: line 1, column 50: invalid token near 'tru'"},
    {"bad literal after a bare key", "{\"tasks\":{\"t\":{\n  \"suspend\", \"run\": 1.2.3}}}",
     -EINVAL, "x.json: line 2, column 24: '}' expected near '.'"},
    {"too deep", "[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]",
     -EINVAL, "nested too deeply"},
    {"empty input", "", -EINVAL, "unexpected end of input"},
    {"control character in a string", "{ \"ta\tsks\": {} }", -EINVAL,
     "line 1, column 6: control character in a string"},
    {"missing colon", "{ \"tasks\" {} }", -EINVAL, "expected ':' after a key"},
    {"unterminated array", T("\"cpus\": [1, 2"), -EINVAL, "expected ',' or ']'"},
    {"stray character", T("\"run\": @"), -EINVAL, "unexpected character, expected a value"},
    /* Top level and global */
    {"global not an object", "{ \"global\": 1, \"tasks\": {} }", -EINVAL,
     "'global' must be an object, not an integer"},
    {"tasks not an object", "{ \"tasks\": [] }", -EINVAL,
     "'tasks' must be an object, not an array"},
    {"not an object", "[1]", -EINVAL, "must hold an object"},
    {"no tasks", "{ \"global\": {} }", -EINVAL, "no \"tasks\" object"},
    {"empty tasks", "{ \"tasks\": {} }", -EINVAL, "'tasks' is empty"},
    {"unknown top-level key", "{ \"tasks\": {}, \"task\": {} }", -EINVAL,
     "unknown top-level key 'task'"},
    {"tasks twice", "{ \"tasks\": {\"a\": {\"run\": 1}}, \"tasks\": {} }", -EINVAL,
     "key 'tasks' given twice"},
    {"unknown global key", "{ \"global\": { \"durations\": 1 }, \"tasks\": {} }", -EINVAL,
     "global: unknown key 'durations'"},
    {"duration zero", "{ \"global\": { \"duration\": 0 }, \"tasks\": {} }", -EINVAL,
     "'duration' must be -1 (unbounded) or > 0 s"},
    {"duration real", "{ \"global\": { \"duration\": 1.5 }, \"tasks\": {} }", -EINVAL,
     "'duration' must be an integer, not a real number"},
    {"bad calibration", "{ \"global\": { \"calibration\": \"CPUx\" }, \"tasks\": {} }", -EINVAL,
     "'calibration' must be \"CPUn\""},
    {"bad default policy", "{ \"global\": { \"default_policy\": \"SCHED_BATCH\" }, \"tasks\": {} }",
     -EINVAL, "'default_policy' is \"SCHED_BATCH\""},
    {"inert key wrong type", "{ \"global\": { \"gnuplot\": 1 }, \"tasks\": {} }", -EINVAL,
     "'gnuplot' has the wrong type"},
    {"global key twice", "{ \"global\": { \"duration\": 1, \"duration\": 2 }, \"tasks\": {} }",
     -EINVAL, "global: key 'duration' given twice"},
    /* Task keys */
    {"task not an object", "{ \"tasks\": { \"t\": 3 } }", -EINVAL,
     "x.json: task t: a task must be an object, not an integer"},
    {"task name twice", "{ \"tasks\": { \"t\": {\"run\": 1}, \"t\": {\"run\": 1} } }", -EINVAL,
     "task t: task name given twice"},
    {"unknown task key", T("\"run\": 1, \"prio\": 3"), -EINVAL,
     "x.json: task t: unknown task key 'prio'"},
    {"misspelt event", T("\"runn\": 1"), -EINVAL, "unknown task key 'runn'"},
    {"loop twice", T("\"loop\": 1, \"run\": 1, \"loop\": 2"), -EINVAL,
     "task t: key 'loop' given twice"},
    {"loop zero", T("\"loop\": 0, \"run\": 1"), -EINVAL,
     "'loop' must be -1 (forever) or >= 1, not 0"},
    {"loop below -1", T("\"loop\": -2, \"run\": 1"), -EINVAL, "'loop' is -2"},
    {"instance zero", T("\"instance\": 0, \"run\": 1"), -EINVAL,
     "'instance' is 0, must be in 1..256"},
    {"instance over the limit", T("\"instance\": 257, \"run\": 1"), -EINVAL, "must be in 1..256"},
    {"negative delay", T("\"delay\": -1, \"run\": 1"), -EINVAL, "'delay' is a negative duration"},
    {"cpus not an array", T("\"cpus\": 3, \"run\": 1"), -EINVAL,
     "'cpus' must be an array of CPU numbers"},
    {"cpus empty", T("\"cpus\": [], \"run\": 1"), -EINVAL, "'cpus' must not be empty"},
    {"cpu too big", T("\"cpus\": [0, 256], \"run\": 1"), -EINVAL,
     "'cpus' is 256, must be in 0..255"},
    {"cpu not integer", T("\"cpus\": [\"0\"], \"run\": 1"), -EINVAL,
     "'cpus' must be an integer, not a string"},
    {"unknown policy", T("\"policy\": \"SCHED_IDLE\", \"run\": 1"), -EINVAL,
     "'policy' is \"SCHED_IDLE\""},
    {"nice out of range", T("\"priority\": 20, \"run\": 1"), -EINVAL,
     "'priority' 20 is not a nice value (-20..19) for SCHED_OTHER"},
    {"rt priority zero", T("\"policy\": \"SCHED_RR\", \"priority\": 0, \"run\": 1"), -EINVAL,
     "'priority' 0 is not an RT priority (1..99) for SCHED_RR"},
    {"deadline without runtime", T("\"policy\": \"SCHED_DEADLINE\", \"run\": 1"), -EINVAL,
     "SCHED_DEADLINE needs 'dl-runtime' > 0 us"},
    {"deadline runtime over period",
     T("\"policy\": \"SCHED_DEADLINE\", \"dl-runtime\": 10, \"dl-period\": 5, \"run\": 1"), -EINVAL,
     "dl-runtime <= dl-deadline <= dl-period"},
    {"priority with deadline policy",
     T("\"policy\": \"SCHED_DEADLINE\", \"dl-runtime\": 10, \"priority\": 5, \"run\": 1"), -EINVAL,
     "'priority' has no meaning for SCHED_DEADLINE"},
    {"nul in a string", T("\"resume\": \"a\\u0000b\""), -EINVAL,
     "x.json: line 1, column 40: \\u0000 is not allowed"},
    {"slice below the kernel's range", T("\"slice_us\": 99, \"run\": 1"), -EINVAL,
     "x.json: task t: 'slice_us' is 99, must be in 100..100000 (the kernel's range for a fair "
     "task's sched_runtime)"},
    {"slice above the kernel's range", T("\"slice_us\": 100001, \"run\": 1"), -EINVAL,
     "'slice_us' is 100001, must be in 100..100000"},
    {"slice not an integer", T("\"slice_us\": 1.5, \"run\": 1"), -EINVAL,
     "'slice_us' must be an integer, not a real"},
    {"slice of an RT task", T("\"policy\": \"SCHED_FIFO\", \"slice_us\": 1000, \"run\": 1"),
     -EINVAL,
     "'slice_us' needs policy SCHED_OTHER (it is a fair task's own slice), not SCHED_FIFO"},
    {"slice at phase level", P("\"slice_us\": 1000, \"run\": 1"), -EINVAL,
     "task t, phase p: 'slice_us' is not supported at phase level, only in the task"},
    {"dl parameter without deadline policy", T("\"dl-runtime\": 10, \"run\": 1"), -EINVAL,
     "need policy SCHED_DEADLINE"},
    {"util_max above 1024", T("\"util_max\": 1025, \"run\": 1"), -EINVAL,
     "'util_max' is 1025, must be in 0..1024"},
    {"util_min above util_max", T("\"util_max\": 100, \"util_min\": 200, \"run\": 1"), -EINVAL,
     "util_min 200 is above util_max 100"},
    {"numa", T("\"nodes_membind\": [0], \"run\": 1"), -EINVAL,
     "'nodes_membind' is not supported (NUMA is not modeled)"},
    {"taskgroup", T("\"taskgroup\": \"/a\", \"run\": 1"), -EINVAL, "'taskgroup' is not supported"},
    {"events and phases", T("\"run\": 1, \"phases\": { \"p\": { \"run\": 1 } }"), -EINVAL,
     "events at task level and 'phases' together"},
    {"task without events", T("\"loop\": 1"), -EINVAL, "x.json: task t: the phase has no events"},
    {"task name too long",
     "{ \"tasks\": { \"a123456789a123456789a123456789a123456789a123456789a123456789\": { \"run\": "
     "1 } } }",
     -EINVAL, "a task name must have 1..59 bytes"},
    {"phases twice", T("\"phases\": { \"p\": { \"run\": 1 } }, \"phases\": {}"), -EINVAL,
     "key 'phases' given twice"},
    {"instance twice", T("\"instance\": 1, \"run\": 1, \"instance\": 2"), -EINVAL,
     "key 'instance' given twice"},
    /* Phases */
    {"phase util_min twice", P("\"util_min\": 1, \"run\": 1, \"util_min\": 2"), -EINVAL,
     "task t, phase p: key 'util_min' given twice"},
    {"numa in a phase", P("\"run\": 1, \"nodes_membind\": [0]"), -EINVAL,
     "task t, phase p: 'nodes_membind' is not supported (NUMA"},
    {"phases not an object", T("\"phases\": []"), -EINVAL,
     "'phases' must be an object, not an array"},
    {"phases empty", T("\"phases\": {}"), -EINVAL, "'phases' is empty"},
    {"phase not an object", T("\"phases\": { \"p\": 1 }"), -EINVAL,
     "task t, phase p: a phase must be an object"},
    {"empty phase", P("\"loop\": 2"), -EINVAL, "x.json: task t, phase p: the phase has no events"},
    {"unknown phase key", P("\"run\": 1, \"delay\": 5"), -EINVAL,
     "task t, phase p: unknown phase key 'delay'"},
    {"priority in a phase", P("\"run\": 1, \"priority\": 5"), -EINVAL,
     "'priority' is not supported at phase level"},
    {"phase loop zero", P("\"run\": 1, \"loop\": 0"), -EINVAL,
     "task t, phase p: 'loop' must be -1 (forever) or >= 1"},
    {"phase cpus twice", P("\"cpus\": [0], \"run\": 1, \"cpus\": [1]"), -EINVAL,
     "task t, phase p: key 'cpus' given twice"},
    /* Events */
    {"unsupported lock", P("\"lock\": \"m\""), -EINVAL,
     "x.json: task t, phase p, event lock: not supported: mutexes are not modeled"},
    {"unsupported wait", T("\"wait\": { \"ref\": \"q\", \"mutex\": \"m\" }"), -EINVAL,
     "event wait: not supported: condition variables"},
    {"unsupported mem", T("\"mem\": 100"), -EINVAL, "event mem: not supported: memory-bound load"},
    {"unsupported iorun", T("\"iorun\": 100"), -EINVAL, "event iorun: not supported"},
    {"run as string", P("\"run\": \"10\""), -EINVAL,
     "x.json: task t, phase p, event run: 'run' must be an integer, not a string"},
    {"negative run", T("\"run\": -5"), -EINVAL,
     "task t, event run: 'run' is a negative duration (-5 us)"},
    {"negative sleep of a repeat", T("\"sleep\": 5, \"sleep\": -5"), -EINVAL,
     "event sleep (repeat 1): 'sleep' is a negative duration"},
    {"runtime real", T("\"runtime\": 1.0"), -EINVAL,
     "event runtime: 'runtime' must be an integer, not a real number"},
    {"bare run", T("\"run\""), -EINVAL, "event run: 'run' must be an integer, not null"},
    {"huge run", T("\"run\": 9223372036854775807"), -EINVAL,
     "'run' is 9223372036854775807, must be in 0..100000000000000"},
    {"timer not an object", T("\"timer\": 100"), -EINVAL, "event timer: a timer must be an object"},
    {"timer without period", T("\"run\": 1, \"timer\": { \"ref\": \"a\" }"), -EINVAL,
     "event timer: a timer needs a 'period' (us)"},
    {"timer without ref", T("\"timer\": { \"period\": 10 }"), -EINVAL, "a timer needs a 'ref'"},
    {"timer period zero", T("\"timer\": { \"ref\": \"a\", \"period\": 0 }"), -EINVAL,
     "a timer period must be > 0 us"},
    {"timer negative period", T("\"timer\": { \"ref\": \"a\", \"period\": -3 }"), -EINVAL,
     "'period' is a negative duration"},
    {"timer unknown key", T("\"timer\": { \"ref\": \"a\", \"period\": 1, \"phase\": 1 }"), -EINVAL,
     "unknown timer key 'phase'"},
    {"timer key twice", T("\"timer\": { \"ref\": \"a\", \"period\": 1, \"period\": 2 }"), -EINVAL,
     "event timer: repeated key in a timer"},
    {"timer bad mode", T("\"timer\": { \"ref\": \"a\", \"period\": 1, \"mode\": \"abs\" }"),
     -EINVAL, "timer 'mode' must be \"relative\" or \"absolute\""},
    {"timer ref empty", T("\"timer\": { \"ref\": \"\", \"period\": 1 }"), -EINVAL,
     "'ref' must not be empty"},
    {"timer modes conflict",
     "{ \"tasks\": { \"a\": { \"timer\": { \"ref\": \"k\", \"period\": 1 } },"
     " \"b\": { \"timer\": { \"ref\": \"k\", \"period\": 1, \"mode\": \"absolute\" } } } }",
     -EINVAL, "task b, event timer: timer 'k' is used both in relative and absolute mode"},
    {"resume of an unknown task", T("\"run\": 1, \"resume\": \"ghost\""), -EINVAL,
     "x.json: task t, event resume: resume of 'ghost', which no task suspends on"},
    {"bare resume", T("\"resume\""), -EINVAL, "'resume' needs the name it refers to"},
    {"suspend never resumed", T("\"run\": 1, \"suspend\": \"t\""), -EINVAL,
     "task t, event suspend: suspend on 't', which no task resumes"},
    {"suspend as integer", T("\"suspend\": 3"), -EINVAL,
     "'suspend' must be a string, not an integer"},
    {"barrier empty", T("\"barrier\": \"\""), -EINVAL, "'barrier' must not be empty"},
    {"yield as integer", T("\"yield\": 1"), -EINVAL, "'yield' takes a string"},
    {"ref too long",
     T("\"barrier\": \"a123456789a123456789a123456789a123456789a123456789a123456789abcd\""),
     -EINVAL, "'barrier' must be a name of at most 63 bytes"},
    /* Limits after instance expansion */
    {"too many tasks",
     "{ \"tasks\": { \"a\": { \"instance\": 256, \"run\": 1 }, \"b\": { \"instance\": 256, "
     "\"run\": 1 },"
     " \"c\": { \"instance\": 256, \"run\": 1 }, \"d\": { \"instance\": 256, \"run\": 1 }, \"e\": "
     "{ \"run\": 1 } } }",
     -E2BIG, "x.json: 1025 tasks after instance expansion, more than 1024 (WL_MAX_TASKS)"},
};

static unsigned current;

/* One TAP line per case, named "rejects: WHAT". */
static void rejects_case(void)
{
	const struct reject_case *rc = &cases[current];
	struct workload w;
	struct gb_err err = {{0}};
	int ret = workload_load_string(rc->text, strlen(rc->text), "x.json", &w, &err);

	CHECK_EQ_I(ret, rc->code);
	CHECK_STR_CONTAINS(err.msg, rc->msg);
	if (ret == 0)
		workload_free(&w);
	else
		CHECK(w.tasks == NULL && w.nr_tasks == 0);
}

static void test_the_error_names_file_task_phase_and_event_in_order(void)
{
	static const char text[] =
	    "{ \"tasks\": { \"ok\": { \"run\": 1 }, \"video\": { \"phases\": {"
	    " \"decode\": { \"run\": 1, \"sleep\": -1 } } } } }";
	struct workload w;
	struct gb_err err;

	CHECK_EQ_I(workload_load_string(text, sizeof(text) - 1, "uc/video.json", &w, &err),
		   -EINVAL);
	CHECK_STR_CONTAINS(err.msg, "uc/video.json: task video, phase decode, event sleep: 'sleep' "
				    "is a negative duration (-1 us)");
}

static char *many_events(unsigned n)
{
	char *s = malloc(64 + (size_t)n * 12);
	size_t len;
	unsigned i;

	if (!s)
		abort();
	len = (size_t)sprintf(s, "{ \"tasks\": { \"t\": { ");
	for (i = 0; i < n; i++)
		len += (size_t)sprintf(s + len, "%s\"run\": 1", i ? ", " : "");
	sprintf(s + len, " } } }");
	return s;
}

static void test_event_limit_per_phase_is_enforced_and_named(void)
{
	char *ok = many_events(WL_MAX_EVENTS), *over = many_events(WL_MAX_EVENTS + 1);
	struct workload w;
	struct gb_err err;

	CHECK_EQ_I(workload_load_string(ok, strlen(ok), "x.json", &w, &err), 0);
	CHECK_EQ_U(w.nr_tasks ? w.tasks[0].phases[0].nr_events : 0, WL_MAX_EVENTS);
	CHECK(w.nr_tasks && !strcmp(w.tasks[0].phases[0].events[WL_MAX_EVENTS - 1].key, "run1023"));
	workload_free(&w);
	CHECK_EQ_I(workload_load_string(over, strlen(over), "x.json", &w, &err), -E2BIG);
	CHECK_STR_CONTAINS(err.msg, "task t: more than 1024 events in one phase (WL_MAX_EVENTS)");
	free(ok);
	free(over);
}

static void test_total_event_limit_counts_instances(void)
{
	/* 256 instances x 257 events > WL_MAX_TOTAL_EVENTS, though each phase is small. */
	char *s = many_events(257);
	char *t = malloc(strlen(s) + 32);
	struct workload w;
	struct gb_err err;

	if (!t)
		abort();
	sprintf(t, "{ \"tasks\": { \"t\": { \"instance\": 256, %s",
		s + strlen("{ \"tasks\": { \"t\": { "));
	CHECK_EQ_I(workload_load_string(t, strlen(t), "x.json", &w, &err), -E2BIG);
	CHECK_STR_CONTAINS(
	    err.msg, "events after instance expansion, more than 65536 (WL_MAX_TOTAL_EVENTS)");
	free(s);
	free(t);
}

static void test_ref_limit_is_enforced_and_named(void)
{
	/* 5 phases of 900 barriers each: 4500 distinct names, more than WL_MAX_REFS. */
	char *s = malloc(5 * 900 * 24 + 256);
	struct workload w;
	struct gb_err err;
	size_t len;
	unsigned p, e;

	if (!s)
		abort();
	len = (size_t)sprintf(s, "{ \"tasks\": { \"t\": { \"phases\": {");
	for (p = 0; p < 5; p++) {
		len += (size_t)sprintf(s + len, "%s \"p%u\": {", p ? "," : "", p);
		for (e = 0; e < 900; e++)
			len += (size_t)sprintf(s + len, "%s\"barrier\": \"b%u\"", e ? ", " : "",
					       p * 900 + e);
		len += (size_t)sprintf(s + len, "}");
	}
	sprintf(s + len, "} } } }");
	CHECK_EQ_I(workload_load_string(s, strlen(s), "x.json", &w, &err), -E2BIG);
	CHECK_STR_CONTAINS(err.msg, "x.json: task t, phase p4, event barrier (repeat 496): more "
				    "than 4096 barriers (WL_MAX_REFS)");
	free(s);
}

static void test_distinct_names_resolve_to_distinct_refs(void)
{
	/* 4000 names: many share hash slots, each must still find its own entry. */
	char *s = malloc(5 * 800 * 24 + 256);
	struct workload w;
	struct gb_err err;
	size_t len;
	unsigned p, e, bad = 0;

	if (!s)
		abort();
	len = (size_t)sprintf(s, "{ \"tasks\": { \"t\": { \"phases\": {");
	for (p = 0; p < 5; p++) {
		len += (size_t)sprintf(s + len, "%s \"p%u\": {", p ? "," : "", p);
		for (e = 0; e < 800; e++)
			len += (size_t)sprintf(s + len, "%s\"barrier\": \"b%u\"", e ? ", " : "",
					       (p * 800 + e) % 4000);
		len += (size_t)sprintf(s + len, "}");
	}
	sprintf(s + len, "} } } }");
	CHECK_EQ_I(workload_load_string(s, strlen(s), "x.json", &w, &err), 0);
	CHECK_EQ_U(w.nr_barriers, 4000);
	for (p = 0; p < w.tasks[0].nr_phases; p++)
		for (e = 0; e < w.tasks[0].phases[p].nr_events; e++) {
			char want[16];

			snprintf(want, sizeof(want), "b%u", p * 800 + e);
			bad +=
			    strcmp(w.barriers[w.tasks[0].phases[p].events[e].ref].name, want) != 0;
		}
	CHECK_EQ_U(bad, 0);
	workload_free(&w);
	free(s);
}

/* n tasks "t0".."t<n-1>" of one run event each */
static char *many_tasks(unsigned n)
{
	char *s = malloc(32 + (size_t)n * 32);
	size_t len;
	unsigned i;

	if (!s)
		abort();
	len = (size_t)sprintf(s, "{ \"tasks\": { ");
	for (i = 0; i < n; i++)
		len += (size_t)sprintf(s + len, "%s\"t%u\": {\"run\": 1}", i ? ", " : "", i);
	sprintf(s + len, " } }");
	return s;
}

static void test_ten_thousand_tasks_are_refused_as_tasks_with_the_limit(void)
{
	char *s = many_tasks(10000);
	struct workload w;
	struct gb_err err;

	CHECK_EQ_I(workload_load_string(s, strlen(s), "x.json", &w, &err), -E2BIG);
	CHECK_STR_CONTAINS(err.msg, "x.json: more than 1024 tasks (WL_MAX_TASKS)");
	free(s);
}

static void test_an_object_of_many_repeated_and_distinct_keys_is_rewritten(void)
{
	/* 200000 distinct keys, then 50000 repeats of one: every key kept, repeats numbered in
	 * order (the parser's key set is a hash table; this is its correctness, not its speed) */
	unsigned n = 200000, reps = 50000, i;
	char *s = malloc(32 + (size_t)(n + reps) * 24), *out = NULL;
	size_t len = 0, out_len = 0;
	struct gb_err err;

	if (!s)
		abort();
	len = (size_t)sprintf(s, "{");
	for (i = 0; i < n; i++)
		len += (size_t)sprintf(s + len, "%s\"k%u\": %u", i ? ", " : "", i, i);
	for (i = 0; i < reps; i++)
		len += (size_t)sprintf(s + len, ", \"k7\": 1");
	sprintf(s + len, "}");
	CHECK_EQ_I(relaxed_json_to_strict(s, strlen(s), &out, &out_len, NULL, &err), 0);
	CHECK(out && strstr(out, "\"k199999\": 199999"));
	CHECK(out && strstr(out, "\"k7\\u001f1\": 1"));
	CHECK(out && strstr(out, "\"k7\\u001f50000\": 1}"));
	CHECK(out && !strstr(out, "\"k7\\u001f50001\""));
	free(out);
	free(s);
}

/*
 * A backslash before a control character is refused as the character alone is: repeated keys
 * are made unique by a suffix, and a key holding an escaped NUL ended at the NUL as a string,
 * so its suffixed form never differed from the first and the search for a free suffix never
 * ended (found by fuzz_workload as a timeout).
 */
static void test_an_escaped_control_character_is_refused(void)
{
	static const char text[] = "{ \"a\\\0\": 1, \"a\\\0\": 2 }";
	struct workload w = {0};
	struct gb_err err = {0};

	CHECK_EQ_I(workload_load_string(text, sizeof(text) - 1, "x.json", &w, &err), -EINVAL);
	CHECK_STR_CONTAINS(err.msg, "x.json: line 1, column 6: control character in a string");
	workload_free(&w);
}

int main(void)
{
	char name[160];

	for (current = 0; current < sizeof(cases) / sizeof(cases[0]); current++) {
		snprintf(name, sizeof(name), "rejects: %s", cases[current].what);
		tap_run(name, rejects_case);
	}
	TAP_RUN(test_the_error_names_file_task_phase_and_event_in_order);
	TAP_RUN(test_event_limit_per_phase_is_enforced_and_named);
	TAP_RUN(test_total_event_limit_counts_instances);
	TAP_RUN(test_ref_limit_is_enforced_and_named);
	TAP_RUN(test_distinct_names_resolve_to_distinct_refs);
	TAP_RUN(test_ten_thousand_tasks_are_refused_as_tasks_with_the_limit);
	TAP_RUN(test_an_object_of_many_repeated_and_distinct_keys_is_rewritten);
	TAP_RUN(test_an_escaped_control_character_is_refused);
	return tap_done();
}
