// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_vtime.c - src/policy/gb_vtime.h, scx_gearbox's virtual time, run natively: the charge, the
 * lag limit, the domain rebase, and CPU hogs on one CPU driven through the kernel's slice-expiry
 * sequence (tick, slice runs out, ops.dispatch() with the task still running, then ops.enqueue()
 * of that task if it lost the CPU), as bpf/gearbox.bpf.c's dispatch does it.  The VM check
 * (`gearbox check` weights) proves the same on the real kernel; this proves the arithmetic
 * without timing.
 */
#include <stdio.h>

#include "../unit/tap.h"
#include "gb_vtime.h"

#define MS	      1000000ull
#define SLICE_NS      (5 * MS) /* gb_slice_ns */
#define TICK_NS	      (4 * MS) /* HZ=250, the VM kernel's */
#define NICE10_WEIGHT 11       /* sched_weight_to_cgroup(110): 110 * 100 / 1024, rounded */
#define MAX_TASKS     4

struct sim_task {
	u32 weight;
	u64 vtime;
	u64 key;      /* deadline it was queued with */
	u64 cpu_ns;   /* CPU time received */
	u64 first_ns; /* when it first got the CPU (the first task has it from 0) */
	bool queued;
};

/*
 * One CPU at perf `perf`, n always-runnable tasks, for run_ns.  compare=false is the dispatch
 * that takes the head of the queue whenever a slice runs out (the old adapter, and scx_simple).
 */
static void run_hogs(struct sim_task *t, int n, u32 perf, u64 run_ns, bool compare)
{
	u64 clock = 0, slice = SLICE_NS, now = 0;
	int cur = 0, i;

	for (i = 1; i < n; i++) {
		t[i].key = gb_vtime_deadline(t[i].vtime, SLICE_NS, perf, t[i].weight);
		t[i].queued = true;
	}
	while (now < run_ns) {
		int head = -1;

		/* a tick: the running task is charged, its slice shrinks */
		now += TICK_NS;
		t[cur].cpu_ns += TICK_NS;
		t[cur].vtime += gb_vtime_charge(TICK_NS, perf, t[cur].weight);
		slice = slice > TICK_NS ? slice - TICK_NS : 0;
		if (slice)
			continue;
		/* ops.dispatch(cpu, prev = cur) */
		for (i = 0; i < n; i++)
			if (t[i].queued && (head < 0 || gb_vtime_before(t[i].key, t[head].key)))
				head = i;
		if (compare)
			t[cur].vtime = gb_vtime_limit_credit(t[cur].vtime, clock, SLICE_NS, perf,
							     t[cur].weight);
		if (compare && gb_vtime_keep_running(
				   gb_vtime_deadline(t[cur].vtime, SLICE_NS, perf, t[cur].weight),
				   head >= 0, head >= 0 ? t[head].key : 0)) {
			if (gb_vtime_before(clock, t[cur].vtime))
				clock = t[cur].vtime;
			slice = SLICE_NS;
			continue;
		}
		if (head < 0) {
			slice = SLICE_NS;
			continue;
		}
		/* the head runs; then ops.enqueue(prev) */
		t[head].queued = false;
		t[cur].vtime =
		    gb_vtime_limit_credit(t[cur].vtime, clock, SLICE_NS, perf, t[cur].weight);
		t[cur].key = gb_vtime_deadline(t[cur].vtime, SLICE_NS, perf, t[cur].weight);
		t[cur].queued = true;
		cur = head;
		if (!t[cur].first_ns)
			t[cur].first_ns = now;
		if (gb_vtime_before(clock, t[cur].vtime))
			clock = t[cur].vtime;
		slice = SLICE_NS;
	}
}

static double ratio(const struct sim_task *a, const struct sim_task *b)
{
	return b->cpu_ns ? (double)a->cpu_ns / (double)b->cpu_ns : 1e9;
}

static void test_nice0_gets_about_nine_times_the_cpu_of_nice10(void)
{
	struct sim_task t[2] = {{.weight = GB_WEIGHT_DFL}, {.weight = NICE10_WEIGHT}};
	double r;

	run_hogs(t, 2, 1024, 10000 * MS, true);
	r = ratio(&t[0], &t[1]);
	printf("# nice 0: %llu ms, nice 10: %llu ms, ratio %.2f (weights: %.2f)\n",
	       (unsigned long long)(t[0].cpu_ns / MS), (unsigned long long)(t[1].cpu_ns / MS), r,
	       100.0 / NICE10_WEIGHT);
	CHECK(r > 8.0 && r < 10.5);
}

static void test_weights_hold_at_a_low_opp(void)
{
	struct sim_task t[2] = {{.weight = GB_WEIGHT_DFL}, {.weight = NICE10_WEIGHT}};
	double r;

	run_hogs(t, 2, 300, 10000 * MS, true);
	r = ratio(&t[0], &t[1]);
	printf("# perf 300: ratio %.2f\n", r);
	CHECK(r > 8.0 && r < 10.5);
}

/* The bug this fixes: without the comparison at slice expiry the queue only ever holds the
 * other hog, and the two alternate whatever their weights. */
static void test_taking_the_head_at_every_expiry_ignores_weights(void)
{
	struct sim_task t[2] = {{.weight = GB_WEIGHT_DFL}, {.weight = NICE10_WEIGHT}};
	double r;

	run_hogs(t, 2, 1024, 10000 * MS, false);
	r = ratio(&t[0], &t[1]);
	printf("# without the comparison: ratio %.2f\n", r);
	CHECK(r > 0.9 && r < 1.1);
}

static void test_equal_weights_share_equally(void)
{
	struct sim_task t[3] = {{.weight = 100}, {.weight = 100}, {.weight = 100}};

	run_hogs(t, 3, 1024, 9000 * MS, true);
	CHECK(ratio(&t[0], &t[1]) > 0.95 && ratio(&t[0], &t[1]) < 1.05);
	CHECK(ratio(&t[1], &t[2]) > 0.95 && ratio(&t[1], &t[2]) < 1.05);
}

/*
 * A nice 10 task queued beside a nice 0 hog first runs after the same stretch of the hog's at
 * every perf: its deadline lies one span out, a slice's work at the CPU's perf, in the unit the
 * hog is charged in (at perf 1024: 45 ms of the hog's work, 6 of its 8 ms slices, since 5 ms
 * slices end at the second 4 ms tick).  A span in plain ns, a slice's work at perf 1024, lies
 * 1024 / perf times further out: at perf 100, 0.45 s of the hog's run time.
 */
static void test_a_nice10_task_first_runs_as_soon_at_any_perf(void)
{
	static const u32 perfs[] = {1024, 300, 100};

	for (unsigned i = 0; i < sizeof(perfs) / sizeof(perfs[0]); i++) {
		struct sim_task t[2] = {{.weight = GB_WEIGHT_DFL}, {.weight = NICE10_WEIGHT}};

		run_hogs(t, 2, perfs[i], 1000 * MS, true);
		printf("# perf %u: nice 10 first runs at %llu ms\n", perfs[i],
		       (unsigned long long)(t[1].first_ns / MS));
		CHECK(t[1].first_ns >= 40 * MS && t[1].first_ns <= 100 * MS);
	}
	CHECK_EQ_U(gb_vtime_span(SLICE_NS, 1024, 100), SLICE_NS);
	CHECK_EQ_U(gb_vtime_span(SLICE_NS, 512, 100), SLICE_NS / 2);
	/* perf unknown (0): a slice at 1024 */
	CHECK_EQ_U(gb_vtime_span(SLICE_NS, 0, 100), SLICE_NS);
	CHECK_EQ_U(gb_vtime_deadline(7, SLICE_NS, 512, 10), 7 + 5 * SLICE_NS);
	CHECK_EQ_U(gb_vtime_limit_credit(0, 1000 * MS, SLICE_NS, 512, 100),
		   1000 * MS - SLICE_NS / 4);
}

static void test_charge_is_work_done_over_weight(void)
{
	CHECK_EQ_U(gb_vtime_charge(MS, 1024, 100), MS);
	/* half the speed, half the work */
	CHECK_EQ_U(gb_vtime_charge(MS, 512, 100), MS / 2);
	CHECK_EQ_U(gb_vtime_charge(MS, 1024, 200), MS / 2);
	CHECK_EQ_U(gb_vtime_charge(MS, 1024, NICE10_WEIGHT), MS * 100 / NICE10_WEIGHT);
	/* a weight of 0 (never set) is nice 0 */
	CHECK_EQ_U(gb_vtime_charge(MS, 1024, 0), MS);
	CHECK_EQ_U(gb_vtime_deadline(7, SLICE_NS, 1024, 100), 7 + SLICE_NS);
	CHECK_EQ_U(gb_vtime_deadline(7, SLICE_NS, 1024, 10), 7 + 10 * SLICE_NS);
}

static void test_a_sleeper_wakes_with_at_most_half_a_slice_of_credit(void)
{
	u64 now = 1000 * MS;

	/* slept for a second: half a slice of credit, not a thousand slices */
	CHECK_EQ_U(gb_vtime_limit_credit(0, now, SLICE_NS, 1024, 100), now - SLICE_NS / 2);
	/* a little behind, or ahead: kept */
	CHECK_EQ_U(gb_vtime_limit_credit(now - MS, now, SLICE_NS, 1024, 100), now - MS);
	CHECK_EQ_U(gb_vtime_limit_credit(now + 30 * MS, now, SLICE_NS, 1024, 100), now + 30 * MS);
	/* a clock younger than the limit */
	CHECK_EQ_U(gb_vtime_limit_credit(0, 2 * MS, SLICE_NS, 1024, 100), 0);
	/* weight 10: half a slice of its deadline span, 5 slices of virtual time */
	CHECK_EQ_U(gb_vtime_limit_credit(0, now, SLICE_NS, 1024, 10), now - 5 * SLICE_NS);
}

/* A sleeper that wakes beside a hog gets its half slice of credit, and then the hog's turn. */
static void test_a_woken_task_runs_before_the_hog_but_not_for_long(void)
{
	u64 clock = 1000 * MS, hog = clock, sleeper = 0;

	sleeper = gb_vtime_limit_credit(sleeper, clock, SLICE_NS, 1024, 100);
	CHECK(gb_vtime_before(gb_vtime_deadline(sleeper, SLICE_NS, 1024, 100),
			      gb_vtime_deadline(hog, SLICE_NS, 1024, 100) + 1));
	/* after two slices of its own it is behind the hog again */
	sleeper += gb_vtime_charge(2 * SLICE_NS, 1024, 100);
	CHECK(!gb_vtime_keep_running(gb_vtime_deadline(sleeper, SLICE_NS, 1024, 100), true,
				     gb_vtime_deadline(hog, SLICE_NS, 1024, 100)));
}

/* A hog that ran while the clock was pushed far ahead (a low-weight task started on an idle
 * CPU sets the clock to its own vtime) does not keep the CPU on that credit: at slice expiry it
 * is limited to one slice, and a task woken meanwhile goes first. */
static void test_a_hog_far_behind_the_clock_yields_at_its_next_expiry(void)
{
	u64 clock = 60000 * MS, hog = 1000 * MS, woken = 0;

	hog = gb_vtime_limit_credit(hog, clock, SLICE_NS, 1024, 100);
	woken = gb_vtime_limit_credit(woken, clock, SLICE_NS, 1024, 100);
	CHECK(!gb_vtime_keep_running(gb_vtime_deadline(hog, SLICE_NS, 1024, 100), true,
				     gb_vtime_deadline(woken, SLICE_NS, 1024, 100)));
}

/*
 * A nice -16 task (weight 3544) that ran while nice 0 tasks started on the domain's other CPUs,
 * each moving the clock to its own vtime: limited against the clock of now, its credit is half
 * its own span (a few us), and a nice 0 head keyed against the clock of 4 ms ago goes first.
 * The head's deadline tells that clock (at most deadline - span / 2), and limited against it
 * the heavier task keeps its CPU.  A head keyed against a clock later than now (positive lag)
 * tells nothing earlier: the clock of now.
 */
static void test_the_head_tells_the_clock_it_was_keyed_against(void)
{
	u64 old = 100 * MS, clock = old + 4 * MS, heavy = old, head, c;

	head = gb_vtime_deadline(gb_vtime_limit_credit(0, old, SLICE_NS, 1024, 100), SLICE_NS, 1024,
				 100);
	CHECK(!gb_vtime_keep_running(
	    gb_vtime_deadline(gb_vtime_limit_credit(heavy, clock, SLICE_NS, 1024, 3544), SLICE_NS,
			      1024, 3544),
	    true, head));
	c = gb_vtime_head_clock(head, clock, SLICE_NS, 1024, 100);
	CHECK_EQ_U(c, old);
	CHECK(gb_vtime_keep_running(
	    gb_vtime_deadline(gb_vtime_limit_credit(heavy, c, SLICE_NS, 1024, 3544), SLICE_NS, 1024,
			      3544),
	    true, head));
	CHECK_EQ_U(gb_vtime_head_clock(clock + 9 * MS, clock, SLICE_NS, 1024, 100), clock);
}

static void test_lag_is_kept_when_the_domain_changes(void)
{
	/* 3 ms ahead of a clock at 100 ms, moved to a clock at 7 ms: 3 ms ahead of that */
	CHECK_EQ_U(gb_vtime_rebase(103 * MS, 100 * MS, 7 * MS), 10 * MS);
	/* 2 ms behind, moved to a clock at 50 ms: 2 ms behind that */
	CHECK_EQ_U(gb_vtime_rebase(98 * MS, 100 * MS, 50 * MS), 48 * MS);
	/* 2 ms behind, moved to a fresh domain (clock 0): not below 0 */
	CHECK_EQ_U(gb_vtime_rebase(98 * MS, 100 * MS, 0), 0);
}

static void test_vtime_order_is_wrap_safe(void)
{
	CHECK(gb_vtime_before(~0ull - 5, 3));
	CHECK(!gb_vtime_before(3, ~0ull - 5));
	CHECK(!gb_vtime_before(4, 4));
	/* on a tie the queue goes first; with an empty queue the running task stays */
	CHECK(!gb_vtime_keep_running(10, true, 10));
	CHECK(gb_vtime_keep_running(9, true, 10));
	CHECK(gb_vtime_keep_running(11, false, 0));
}

int main(void)
{
	TAP_RUN(test_nice0_gets_about_nine_times_the_cpu_of_nice10);
	TAP_RUN(test_weights_hold_at_a_low_opp);
	TAP_RUN(test_a_nice10_task_first_runs_as_soon_at_any_perf);
	TAP_RUN(test_taking_the_head_at_every_expiry_ignores_weights);
	TAP_RUN(test_equal_weights_share_equally);
	TAP_RUN(test_charge_is_work_done_over_weight);
	TAP_RUN(test_a_sleeper_wakes_with_at_most_half_a_slice_of_credit);
	TAP_RUN(test_a_woken_task_runs_before_the_hog_but_not_for_long);
	TAP_RUN(test_a_hog_far_behind_the_clock_yields_at_its_next_expiry);
	TAP_RUN(test_the_head_tells_the_clock_it_was_keyed_against);
	TAP_RUN(test_lag_is_kept_when_the_domain_changes);
	TAP_RUN(test_vtime_order_is_wrap_safe);
	return tap_done();
}
