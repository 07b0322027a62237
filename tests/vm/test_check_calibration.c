// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_check_calibration.c - the checks of `gearbox check` measured against the fair class.
 *
 * The VM suite shows that the checks fail for broken or policy-less schedulers; this shows the
 * other side, on the host: with the kernel's own fair class (a scheduler that gets these things
 * right), the task-level checks pass.  A check that failed here would be a broken measurement,
 * not a finding.  The checks run without a scheduler process: they only need their workloads.
 */
#include <errno.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "check.h"
#include "tap.h"

static struct check_ctx host_ctx(void)
{
	struct check_ctx ctx = {.duration_s = 1.0, .attach_timeout_s = 1.0};

	ctx.nr_cpus = (int)sysconf(_SC_NPROCESSORS_ONLN);
	if (ctx.nr_cpus > CHECK_MAX_CPUS)
		ctx.nr_cpus = CHECK_MAX_CPUS;
	return ctx;
}

static void expect_pass(check_fn fn)
{
	struct check_ctx ctx = host_ctx();
	struct check_result res;

	memset(&res, 0, sizeof(res));
	fn(&ctx, &res);
	printf("# %s\n", res.detail);
	CHECK_EQ_I(res.status, CHECK_PASS);
}

static void test_fair_class_passes_starvation(void)
{
	expect_pass(check_starvation);
}

static void test_fair_class_keeps_pinned_tasks_in_their_mask_across_a_change(void)
{
	if (sysconf(_SC_NPROCESSORS_ONLN) < 2) {
		TAP_SKIP("needs 2 CPUs");
		return;
	}
	expect_pass(check_affinity);
}

static void test_fair_class_gives_nice_0_more_than_twice_nice_10(void)
{
	expect_pass(check_weights);
}

/* A check run under nice gives its workloads their own nice values, not its own: the nice 0
 * hog at 10 beside the nice 10 one measured a ratio of 1.0 and failed the fair class. */
static void test_weights_do_not_inherit_the_checks_nice_value(void)
{
	int before;

	if (geteuid() != 0) {
		TAP_SKIP("needs root to lower the nice value again");
		return;
	}
	errno = 0;
	before = getpriority(PRIO_PROCESS, 0);
	CHECK(errno == 0);
	CHECK(setpriority(PRIO_PROCESS, 0, 10) == 0);
	expect_pass(check_weights);
	CHECK(setpriority(PRIO_PROCESS, 0, before) == 0);
}

static void test_fair_class_completes_the_fork_storm(void)
{
	expect_pass(check_forkstorm);
}

static void test_metrics_carry_their_units_in_their_names(void)
{
	struct check_ctx ctx = host_ctx();
	struct check_result res;

	memset(&res, 0, sizeof(res));
	check_weights(&ctx, &res);
	CHECK_EQ_I(res.nr_metrics, 3);
	CHECK_STR_CONTAINS(res.metrics[0].name, "_ms");
	CHECK_STR_CONTAINS(res.metrics[1].name, "_ms");
	CHECK(res.metrics[0].value > 0);
}

int main(void)
{
	TAP_RUN(test_fair_class_passes_starvation);
	TAP_RUN(test_fair_class_keeps_pinned_tasks_in_their_mask_across_a_change);
	TAP_RUN(test_fair_class_gives_nice_0_more_than_twice_nice_10);
	TAP_RUN(test_weights_do_not_inherit_the_checks_nice_value);
	TAP_RUN(test_fair_class_completes_the_fork_storm);
	TAP_RUN(test_metrics_carry_their_units_in_their_names);
	return tap_done();
}
