// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_perf_select.c - how the linux backend picks its performance source from what opening
 * and probing the hardware instructions counter gave: instructions only when the counter
 * opened, was scheduled and counted; otherwise the load's iterations, with the reason.  The
 * machine the tests run on may have no PMU at all, so the supported branch is proven here.
 */
#include <errno.h>
#include <string.h>

#include "linux.h"
#include "tap.h"

static enum prof_perf_src src;
static char why[160];
static struct gb_err err;

static int pick(enum prof_perf_want want, int open_err, u64 instr, u64 running_ns)
{
	struct prof_perf_probe p = {
	    .open_err = open_err, .instructions = instr, .time_running_ns = running_ns};

	memset(why, 0, sizeof(why));
	src = PROF_PERF_INSTRUCTIONS + 1;
	return prof_perf_select(want, &p, &src, why, sizeof(why), &err);
}

static void test_counting_instructions_counter_is_the_performance_source(void)
{
	CHECK_EQ_I(pick(PROF_PERF_WANT_AUTO, 0, 61000000, 20000000), 0);
	CHECK_EQ_I(src, PROF_PERF_INSTRUCTIONS);
	CHECK_STR_CONTAINS(why, "PERF_COUNT_HW_INSTRUCTIONS");
	CHECK(!strcmp(prof_perf_src_name(src), "instructions"));
	CHECK_EQ_I(pick(PROF_PERF_WANT_INSTRUCTIONS, 0, 1, 1), 0);
	CHECK_EQ_I(src, PROF_PERF_INSTRUCTIONS);
}

static void test_unsupported_counter_falls_back_to_iterations_naming_the_error(void)
{
	/* what a VM without a virtual PMU answers to PERF_TYPE_HARDWARE */
	CHECK_EQ_I(pick(PROF_PERF_WANT_AUTO, -ENOENT, 0, 0), 0);
	CHECK_EQ_I(src, PROF_PERF_ITERATIONS);
	CHECK_STR_CONTAINS(why, "load iterations per second: no hardware instructions "
				"counter (perf_event_open: No such file or directory)");
	CHECK(!strcmp(prof_perf_src_name(src), "iterations"));
	CHECK_EQ_I(pick(PROF_PERF_WANT_AUTO, -EOPNOTSUPP, 0, 0), 0);
	CHECK_EQ_I(src, PROF_PERF_ITERATIONS);
}

static void test_counter_that_opens_but_does_not_count_is_not_trusted(void)
{
	CHECK_EQ_I(pick(PROF_PERF_WANT_AUTO, 0, 0, 0), 0);
	CHECK_EQ_I(src, PROF_PERF_ITERATIONS);
	CHECK_STR_CONTAINS(why, "never scheduled on the PMU");
	CHECK_EQ_I(pick(PROF_PERF_WANT_AUTO, 0, 0, 20000000), 0);
	CHECK_EQ_I(src, PROF_PERF_ITERATIONS);
	CHECK_STR_CONTAINS(why, "counted nothing");
}

static void test_demanded_instructions_without_counter_is_a_usage_error(void)
{
	CHECK_EQ_I(pick(PROF_PERF_WANT_INSTRUCTIONS, -ENOENT, 0, 0), -ENODEV);
	CHECK_STR_CONTAINS(err.msg, "--perf-source instructions: no hardware instructions counter");
	CHECK_STR_CONTAINS(err.msg, "--perf-source auto");
}

static void test_iterations_on_request_even_with_a_counter(void)
{
	CHECK_EQ_I(pick(PROF_PERF_WANT_ITERATIONS, 0, 61000000, 20000000), 0);
	CHECK_EQ_I(src, PROF_PERF_ITERATIONS);
	CHECK_STR_CONTAINS(why, "--perf-source iterations");
}

int main(void)
{
	TAP_RUN(test_counting_instructions_counter_is_the_performance_source);
	TAP_RUN(test_unsupported_counter_falls_back_to_iterations_naming_the_error);
	TAP_RUN(test_counter_that_opens_but_does_not_count_is_not_trusted);
	TAP_RUN(test_demanded_instructions_without_counter_is_a_usage_error);
	TAP_RUN(test_iterations_on_request_even_with_a_counter);
	return tap_done();
}
