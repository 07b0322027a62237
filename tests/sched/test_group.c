// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_group.c - slice-aware grouping (src/policy/gb_group.h) in wake-up placement, the core
 * both hosts call: a waking task leaves a domain whose every CPU it may use is busy with the
 * other slice class for a domain with room (for a long-slice task, no smaller), and is placed
 * by price alone when grouping is off, when a CPU of the domain is idle or of its class, or
 * when no domain has room; and at slice expiry (gb_dispatch_plan with gb_group_keep), a
 * long-slice task keeps its CPU against a short head of its domain's queue due less than a
 * default slice before its vtime while another CPU of the domain serves the short class.  On
 * tests/sched/vm4.json: CPUs 0-1 little (286), CPU 2 mid (876), CPU 3 big (1024).
 *
 *   test_group TESTS_SCHED_DIR
 */
#include <stdio.h>
#include <string.h>

#include "../unit/tap.h"
#include "em_profile.h"
#include "gb_policy.h"
#include "gb_queue.h"

#define MS	 1000000ull
#define SLICE_NS (5 * MS)

static struct em_model g_m;
static struct gb_cpu g_cpus[EM_MAX_CPUS];
static struct gb_scratch g_s;
static u64 g_clock[EM_MAX_DOMAINS];

static void idle_machine(void)
{
	memset(g_cpus, 0, sizeof(g_cpus));
	for (u32 c = 0; c < g_m.nr_cpus; c++) {
		g_cpus[c].online = 1;
		g_cpus[c].idle = 1;
		g_cpus[c].perf_cur = 1024;
		g_cpus[c].uclamp_max = GB_UCLAMP_NONE_MAX;
	}
}

/* CPU c runs a task of util util, with a long slice or not. */
static void busy(u32 c, u32 util, bool slice_long)
{
	g_cpus[c].idle = 0;
	g_cpus[c].nr_running = 1;
	g_cpus[c].util = util;
	g_cpus[c].runnable = util;
	g_cpus[c].slice_long = slice_long;
}

/* A small task last on CPU prev, in slice class group (GB_GROUP_OFF: grouping off). */
static struct gb_task small_task(s32 prev, u32 group)
{
	struct gb_task t = {.util = 60, .util_est = 60, .runnable = 60, .uclamp_max = 1024};

	for (u32 c = 0; c < g_m.nr_cpus; c++)
		em_cpumask_set(&t.allowed, c);
	t.prev_cpu = prev;
	t.group = group;
	return t;
}

static s32 place(const struct gb_task *t)
{
	struct gb_decision d;

	return gb_select_cpu(&g_m, g_cpus, t, &g_s, &d);
}

static void test_class_is_long_only_above_the_default_slice(void)
{
	CHECK(!gb_slice_long(0, SLICE_NS));
	CHECK(!gb_slice_long(SLICE_NS, SLICE_NS));
	CHECK(!gb_slice_long(MS, SLICE_NS));
	CHECK(gb_slice_long(SLICE_NS + 1, SLICE_NS));
	CHECK_EQ_U(gb_group_class(false, 10 * MS, SLICE_NS), GB_GROUP_OFF);
	CHECK_EQ_U(gb_group_class(true, 10 * MS, SLICE_NS), GB_GROUP_LONG);
	CHECK_EQ_U(gb_group_class(true, 0, SLICE_NS), GB_GROUP_SHORT);
	CHECK_EQ_U(gb_group_class(true, MS, SLICE_NS), GB_GROUP_SHORT);
}

/*
 * Both little CPUs run long-slice tasks; mid and big are idle.  By price the short task joins
 * the little domain's queue (a little CPU is far cheaper than waking mid); grouped, it goes to
 * mid, the cheapest CPU not busy with a long slice.
 */
static void test_short_task_leaves_a_domain_whose_cpus_all_run_long_slices(void)
{
	struct gb_task t;
	s32 cpu;

	idle_machine();
	busy(0, 80, true);
	busy(1, 80, true);
	t = small_task(0, GB_GROUP_OFF);
	cpu = place(&t);
	CHECK(cpu == 0 || cpu == 1);
	t.group = GB_GROUP_SHORT;
	CHECK_EQ_I(place(&t), 2);
	/* a little CPU running a short slice is of its class: the little domain keeps it */
	busy(1, 80, false);
	cpu = place(&t);
	CHECK(cpu == 0 || cpu == 1);
	/* and so does an idle little CPU, of no class */
	idle_machine();
	busy(0, 80, true);
	cpu = place(&t);
	CHECK(cpu == 0 || cpu == 1);
}

/* The long-slice task, symmetrically, is kept off a domain whose CPUs run short slices. */
static void test_long_task_leaves_a_domain_whose_cpus_all_run_short_slices(void)
{
	struct gb_task t;
	s32 cpu;

	idle_machine();
	busy(0, 80, false);
	busy(1, 80, false);
	t = small_task(0, GB_GROUP_OFF);
	cpu = place(&t);
	CHECK(cpu == 0 || cpu == 1);
	t.group = GB_GROUP_LONG;
	CHECK_EQ_I(place(&t), 2);
	t.group = GB_GROUP_SHORT;
	cpu = place(&t);
	CHECK(cpu == 0 || cpu == 1);
}

/*
 * A domain over its tipping point has no room: its CPU to spread on does not win over a mixed
 * candidate by class, and prices decide as without grouping.
 */
static void test_no_grouping_into_a_domain_without_room(void)
{
	struct gb_task off, on;
	s32 cpu;

	idle_machine();
	busy(0, 80, true);
	busy(1, 80, true);
	/* mid and big busy past their tipping points with short slices */
	busy(2, 860, false);
	busy(3, 1000, false);
	off = small_task(0, GB_GROUP_OFF);
	on = small_task(0, GB_GROUP_SHORT);
	CHECK(gb_domain_overutilized(&g_m, g_cpus, 1) && gb_domain_overutilized(&g_m, g_cpus, 2));
	cpu = place(&off);
	CHECK(cpu == 0 || cpu == 1);
	CHECK_EQ_I(place(&on), cpu);
}

/*
 * Across domains, a long-slice task never trades capacity for class: a domain whose CPUs all
 * run short slices loses to one with room that is at least as big, and a smaller one leaves the
 * choice to prices (it would run slower: that costs it more than the default slice it waits).
 * A short task leaves a domain whose CPUs all run long slices for any domain with room: it
 * fits there (placement's fit test), and behind a long slice it would wait longer than a
 * default slice.  Within a domain both candidates have its capacity.
 */
static void test_only_a_short_task_goes_to_a_smaller_domain(void)
{
	struct gb_cand mixed = {.delta = 100, .mixed = 1}, clear = {.delta = 900, .mixed = 0};
	const u32 lg = GB_GROUP_LONG, sh = GB_GROUP_SHORT;

	/* the mixed one so far (mid, CPU 2) against a clear one */
	CHECK_EQ_I(gb_group_cmp(&g_m, lg, 2, mixed, true, 3, clear, true), 1);	/* big */
	CHECK_EQ_I(gb_group_cmp(&g_m, lg, 2, mixed, true, 0, clear, true), 0);	/* little */
	CHECK_EQ_I(gb_group_cmp(&g_m, sh, 2, mixed, true, 0, clear, true), 1);	/* little */
	CHECK_EQ_I(gb_group_cmp(&g_m, lg, 2, mixed, true, 3, clear, false), 0); /* no room */
	CHECK_EQ_I(gb_group_cmp(&g_m, sh, 2, mixed, true, 0, clear, false), 0);
	/* the clear one so far against a mixed one */
	CHECK_EQ_I(gb_group_cmp(&g_m, lg, 3, clear, true, 2, mixed, true), -1);
	CHECK_EQ_I(gb_group_cmp(&g_m, lg, 0, clear, true, 2, mixed, true), 0);
	CHECK_EQ_I(gb_group_cmp(&g_m, sh, 0, clear, true, 2, mixed, true), -1);
	/* alike: prices decide */
	CHECK_EQ_I(gb_group_cmp(&g_m, sh, 2, mixed, true, 3, mixed, true), 0);
	CHECK_EQ_I(gb_group_cmp(&g_m, sh, GB_NO_CPU, clear, true, 3, mixed, true), 0);
}

/*
 * The case that asked for it (sm7250ab's ui_frames): big and mid run long-slice tasks, the
 * little CPUs short ones at an OPP a small task would raise.  By price a small short task last
 * on big joins big's queue (its OPP already high enough) and waits for the long slice to end;
 * grouped, it goes to a little CPU.  A long-slice task in the mirror case (big and mid busy
 * with short slices, the little CPUs with long ones) stays with its price.
 */
static void test_short_task_not_queued_behind_long_slices_on_bigger_cpus(void)
{
	struct gb_task t;
	s32 cpu;

	idle_machine();
	busy(0, 180, false);
	busy(1, 180, false);
	busy(2, 400, true);
	busy(3, 400, true);
	t = small_task(3, GB_GROUP_OFF);
	t.util = t.util_est = t.runnable = 20;
	CHECK_EQ_I(place(&t), 3);
	t.group = GB_GROUP_SHORT;
	cpu = place(&t);
	CHECK(cpu == 0 || cpu == 1);
	for (u32 c = 0; c < 4; c++)
		g_cpus[c].slice_long = !g_cpus[c].slice_long;
	t.group = GB_GROUP_LONG;
	CHECK_EQ_I(place(&t), 3);
}

/* What CPU 0 does at the slice expiry of a task with its own slice of slice_ns (vtime 100 ms,
 * deadline 100 ms + its slice at perf 1024), the little queue's head at head_dl, of the long
 * class or not, with grouping on or off. */
static u32 expiry(u64 slice_ns, u64 head_dl, bool head_long, bool group)
{
	struct gb_tstate prev;
	struct gb_disp_out out;
	struct gb_disp_in in;

	memset(g_clock, 0, sizeof(g_clock));
	g_clock[0] = 100 * MS;
	gb_track_init(&prev);
	prev.weight = GB_WEIGHT_DFL;
	prev.slice_ns = slice_ns;
	gb_track_enable(&prev, 0, g_m.nr_domains, g_clock);
	memset(&in, 0, sizeof(in));
	in.cpu = 0;
	in.prev_runnable = 1;
	in.group_served = group && gb_group_served(&g_m, g_cpus, 0, 0);
	in.heads[0].queued = 1;
	in.heads[0].deadline = head_dl;
	in.heads[0].slice_long = head_long;
	gb_dispatch_plan(&g_m, g_cpus, g_clock, SLICE_NS, 4000, &in, &prev, &out);
	return out.act;
}

/*
 * Little CPU 0 runs a task with a 10 ms slice (deadline 110 ms), little CPU 1 a short-slice
 * task.  At the 10 ms slice's end a short task heads the little queue with an earlier deadline:
 * without grouping it takes CPU 0; grouped, the long-slice task keeps CPU 0 and the short task
 * waits for CPU 1's slice, as long as the long task's vtime (100 ms) is less than one default
 * slice (5 ms at perf 1024) past the head's deadline, CPU 1 serves the short class (or is
 * idle), and the head is short.
 */
static void test_long_slice_task_keeps_its_cpu_while_another_serves_the_short_queue(void)
{
	idle_machine();
	busy(0, 200, true);
	busy(1, 100, false);
	CHECK_EQ_U(expiry(10 * MS, 107 * MS, false, false), GB_DISPATCH_CONSUME);
	CHECK_EQ_U(expiry(10 * MS, 107 * MS, false, true), GB_DISPATCH_KEEP_PREV);
	/* 1 ms behind the long task's vtime: kept; 6 ms: beyond the window */
	CHECK_EQ_U(expiry(10 * MS, 99 * MS, false, true), GB_DISPATCH_KEEP_PREV);
	CHECK_EQ_U(expiry(10 * MS, 94 * MS, false, true), GB_DISPATCH_CONSUME);
	/* a long-slice head, or a short task at its slice's end: the deadline alone */
	CHECK_EQ_U(expiry(10 * MS, 107 * MS, true, true), GB_DISPATCH_CONSUME);
	CHECK_EQ_U(expiry(0, 104 * MS, false, true), GB_DISPATCH_CONSUME);
	/* CPU 1 idle: it takes the head */
	idle_machine();
	busy(0, 200, true);
	CHECK_EQ_U(expiry(10 * MS, 107 * MS, false, true), GB_DISPATCH_KEEP_PREV);
	/* CPU 1 runs a long slice too, or is offline: nobody else serves the short task */
	busy(1, 100, true);
	CHECK_EQ_U(expiry(10 * MS, 107 * MS, false, true), GB_DISPATCH_CONSUME);
	idle_machine();
	busy(0, 200, true);
	g_cpus[1].online = 0;
	CHECK_EQ_U(expiry(10 * MS, 107 * MS, false, true), GB_DISPATCH_CONSUME);
}

int main(int argc, char **argv)
{
	struct em_profile prof;
	struct gb_err err;
	char path[512];

	if (argc != 2) {
		fprintf(stderr, "usage: test_group TESTS_SCHED_DIR\n");
		return 2;
	}
	snprintf(path, sizeof(path), "%s/vm4.json", argv[1]);
	if (em_profile_load_file(path, &prof, false, NULL, &err)) {
		fprintf(stderr, "test_group: %s\n", err.msg);
		return 1;
	}
	g_m = prof.model;
	TAP_RUN(test_class_is_long_only_above_the_default_slice);
	TAP_RUN(test_short_task_leaves_a_domain_whose_cpus_all_run_long_slices);
	TAP_RUN(test_long_task_leaves_a_domain_whose_cpus_all_run_short_slices);
	TAP_RUN(test_no_grouping_into_a_domain_without_room);
	TAP_RUN(test_only_a_short_task_goes_to_a_smaller_domain);
	TAP_RUN(test_short_task_not_queued_behind_long_slices_on_bigger_cpus);
	TAP_RUN(test_long_slice_task_keeps_its_cpu_while_another_serves_the_short_queue);
	return tap_done();
}
