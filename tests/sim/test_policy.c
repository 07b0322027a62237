// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_policy.c - the shared policy (src/policy/) on hand-computed cases of the "tri" model
 * (tests/sim/policy_models.h): PELT, frequency requests, placement, over-utilization, misfit.
 */
#include <string.h>

#include "gb_pelt.h"
#include "gb_policy.h"
#include "policy_models.h"
#include "tap.h"

static struct em_model M;
static struct gb_cpu C[EM_MAX_CPUS];
static struct gb_scratch S;

static void reset(void)
{
	tm_tri(&M);
	memset(C, 0, sizeof(C));
	for (u32 c = 0; c < M.nr_cpus; c++) {
		C[c].online = 1;
		C[c].idle = 1;
	}
}

static void busy(u32 cpu, u32 util)
{
	C[cpu].util = util;
	C[cpu].runnable = util;
	C[cpu].nr_running = 1;
	C[cpu].idle = 0;
	C[cpu].uclamp_max = EM_CAPACITY_SCALE;
}

static struct gb_task task(u32 util, u32 umin, u32 umax, s32 prev)
{
	struct gb_task t = {.util = util,
			    .util_est = util,
			    .runnable = util,
			    .uclamp_min = umin,
			    .uclamp_max = umax,
			    .prev_cpu = prev};

	for (u32 c = 0; c < M.nr_cpus; c++)
		em_cpumask_set(&t.allowed, c);
	return t;
}

static void test_pelt_converges_to_perf_of_running_opp(void)
{
	struct gb_pelt a = {0}, b = {0};

	for (u64 t = 1000; t <= 400000; t += 1000) {
		gb_pelt_update(&a, t, 1024, 1024);
		gb_pelt_update(&b, t, 300, 300);
	}
	CHECK(a.util_avg >= 1010 && a.util_avg <= 1024);
	CHECK(b.util_avg >= 295 && b.util_avg <= 300);
	CHECK(a.runnable_avg >= 1010);
}

static void test_pelt_halves_in_32_ms_of_sleep(void)
{
	struct gb_pelt a = {0};
	u32 before;

	for (u64 t = 1024; t <= 409600; t += 1024)
		gb_pelt_update(&a, t, 1024, 1024);
	before = a.util_avg;
	gb_pelt_update(&a, 409600 + 32 * 1024, 0, 0);
	CHECK(a.util_avg >= before / 2 - 2 && a.util_avg <= before / 2 + 2);
}

/* gb_pelt_accumulate_two gives what its two gb_pelt_accumulate calls give, in or across a
 * period, with either stretch empty. */
static void test_pelt_two_stretches_account_as_two_calls(void)
{
	struct gb_pelt one = {0}, two = {0};
	u64 seed = 12345, t = 5000;
	u32 bad = 0;

	for (u32 i = 0; i < 200000; i++) {
		u64 r, mid, now;
		u32 perf, wait_perf;
		bool a, b;

		seed = seed * 6364136223846793005ull + 1442695040888963407ull;
		r = seed >> 20;
		/* stretches of 0 to ~1.5 periods, some ending before the last update */
		mid = t + (r % 1600) - (r % 7 == 0 ? 300 : 0);
		now = mid + ((r >> 12) % 1600) * (r % 5 != 0);
		perf = (u32)((r >> 24) % 1025);
		wait_perf = r % 3 ? perf : 0;
		a = gb_pelt_accumulate(&one, mid, 0, wait_perf);
		a = gb_pelt_accumulate(&one, now, perf, perf) || a;
		b = gb_pelt_accumulate_two(&two, mid, now, wait_perf, perf);
		if (a != b || memcmp(&one, &two, sizeof(one)) != 0)
			bad++;
		t = now > t ? now : t;
	}
	CHECK(bad == 0);
}

static void test_util_est_rises_at_once_and_decays_by_a_quarter(void)
{
	struct gb_pelt a = {.util_avg = 400};

	gb_util_est_dequeue(&a);
	CHECK_EQ_U(a.util_est, 400);
	a.util_avg = 200;
	gb_util_est_dequeue(&a);
	CHECK_EQ_U(a.util_est, 350);
	CHECK_EQ_U(gb_task_util_est(&a), 350);
}

/*
 * A new task's first utilization is a guess (gb_track_fork): the first sleep leaves what remains
 * of it out of util_est's sample, which then holds what the task measured, as a task started
 * at 0 measures it (within 1/8: the guess decays by whole periods); util_avg keeps the guess
 * until it decays.  Later sleeps sample util_avg whole.
 */
static void test_the_first_sleep_leaves_the_fork_guess_out_of_util_est(void)
{
	struct gb_tstate ts;
	struct gb_pelt from0 = {.last_us = 1000};
	u32 measured;

	gb_track_init(&ts);
	ts.pelt.last_us = 1000;
	gb_track_fork(&ts, 1024, 0); /* an idle CPU of capacity 1024: 512 */
	CHECK_EQ_U(ts.pelt.util_avg, 512);
	gb_pelt_update(&ts.pelt, 1000 + 2500, 1024, 1024);
	gb_pelt_update(&from0, 1000 + 2500, 1024, 1024);
	measured = from0.util_avg;
	CHECK(measured > 20 && measured < 100);
	gb_track_sleep(&ts);
	printf("# util_est %u measured %u\n", ts.pelt.util_est, measured);
	CHECK(ts.pelt.util_est + measured / 8 + 2 >= measured && ts.pelt.util_est <= measured + 2);
	CHECK(ts.pelt.util_avg > 400);
	/* the next sleep samples util_avg, which still holds most of the guess */
	gb_pelt_update(&ts.pelt, 1000 + 5000, 1024, 1024);
	gb_track_sleep(&ts);
	CHECK_EQ_U(ts.pelt.util_est, ts.pelt.util_avg);
}

static void test_perf_request_has_headroom_and_uclamp(void)
{
	CHECK_EQ_U(gb_perf_request(400, 0, 1024), 500);
	CHECK_EQ_U(gb_perf_request(400, 0, 300), 300);
	CHECK_EQ_U(gb_perf_request(100, 600, 1024), 600);
	CHECK_EQ_U(gb_perf_request(400, 600, 300), 600); /* uclamp_min wins, as in the kernel */
}

/*
 * A task waiting in the domain's queue while its CPUs are busy runs on one of them after what
 * runs there: the least loaded CPU carrying the whole queue asks the frequency, not each CPU
 * with an even share.  Little: perf 100 / 200 / 250.
 */
static void test_domain_perf_target_counts_a_queue_on_one_cpu(void)
{
	u32 idx;

	reset();
	for (u32 c = 0; c < 4; c++)
		busy(c, 50);
	CHECK_EQ_U(gb_domain_perf_target(&M, C, 0, &idx), 100); /* 50 x 1.25 = 62: OPP 0 */
	/* a task of util 100 waits: 25 on each CPU, which alone asks 75 x 1.25 = 93 (OPP 0); one
	 * CPU running 50 and then the task asks 150 x 1.25 = 187: OPP 1 */
	for (u32 c = 0; c < 4; c++)
		C[c].queued_util = 25;
	CHECK_EQ_U(gb_domain_perf_target(&M, C, 0, &idx), 200);
	CHECK_EQ_U(idx, 1);
	/* the least loaded CPU takes it: 10 + 100 = 110 asks 137 (OPP 1); the busiest, 120 + 100,
	 * would ask 275 (OPP 2); alone with its share it asks 145 x 1.25 = 181 (OPP 1) */
	for (u32 c = 0; c < 3; c++)
		busy(c, 120);
	busy(3, 10);
	CHECK_EQ_U(gb_domain_perf_target(&M, C, 0, &idx), 200);
	/* nothing waiting: the busiest CPU alone, 120 x 1.25 = 150 (OPP 1) */
	for (u32 c = 0; c < 4; c++)
		C[c].queued_util = 0;
	busy(0, 60);
	busy(1, 60);
	busy(2, 70);
	CHECK_EQ_U(gb_domain_perf_target(&M, C, 0, &idx), 100); /* 70 x 1.25 = 87: OPP 0 */
}

static void test_domain_perf_target_skips_inefficient_opp(void)
{
	u32 idx;

	reset();
	/* mid OPP 1 made inefficient: 300 mW -> 500 mW gives cost 10000 >= 8750 of OPP 2 */
	M.domains[1].opps[1].power_uw = 500000;
	em_compute_costs(&M.domains[1]);
	busy(4, 300); /* needs 375: OPP 1, which is skipped */
	CHECK_EQ_U(gb_domain_perf_target(&M, C, 1, &idx), 800);
	CHECK_EQ_U(idx, 2);
	reset();
	busy(4, 300);
	CHECK_EQ_U(gb_domain_perf_target(&M, C, 1, &idx), 500);
	C[4].uclamp_max = 250; /* clamped below OPP 0: lowest OPP */
	CHECK_EQ_U(gb_domain_perf_target(&M, C, 1, &idx), 300);
}

static void test_small_task_goes_to_cheapest_little(void)
{
	struct gb_task t;
	struct gb_decision d;

	reset();
	t = task(50, 0, 1024, -1);
	CHECK_EQ_I(gb_select_cpu(&M, C, &t, &S, &d), 0);
	CHECK_EQ_U(d.reason, GB_REASON_FORK);
	/* little delta = cost 2000 x 50 */
	CHECK_EQ_I(d.energy_delta, 100000);
}

static void test_new_task_goes_to_domain_with_most_idle_cpus(void)
{
	struct gb_task t;
	struct gb_decision d;

	reset();
	busy(0, 100);
	busy(1, 100);
	busy(2, 100); /* little: 1 idle, mid: 3 idle */
	t = task(0, 0, 1024, -1);
	CHECK_EQ_I(gb_select_cpu(&M, C, &t, &S, &d), 4);
	CHECK_EQ_U(d.reason, GB_REASON_FORK);
	busy(4, 100);
	busy(5, 100); /* 1 idle each in little and mid: the smaller */
	CHECK_EQ_I(gb_select_cpu(&M, C, &t, &S, &d), 3);
}

static void test_small_uclamp_task_prefers_free_mid_core(void)
{
	struct gb_task t;
	struct gb_decision d;

	/* mid CPU4 runs a 200 task (perf 250, OPP 0); a 50 task with uclamp_min 450 wakes.
	 * little cannot give 450.  big: 8000 x 50 = 400000.  mid CPU5: the boost to OPP 1 lasts
	 * only the task's runnable time (w = 50/1024): 6000 x 50 +
	 * (5000 x 200 x 974 + 6000 x 200 x 50) / 1024 - 5000 x 200 = 359765. */
	reset();
	busy(4, 200);
	t = task(50, 450, 1024, 0);
	CHECK_EQ_I(gb_select_cpu(&M, C, &t, &S, &d), 5);
	CHECK_EQ_U(d.reason, GB_REASON_WAKEUP_ENERGY);
	CHECK_EQ_U(d.opp_idx, 1);
}

static void test_task_above_tipping_point_stays_on_little_when_cheapest(void)
{
	struct gb_task t;
	struct gb_decision d;

	/* 220 > 80% of 250 but fits 250: little at its top OPP, 3200 x 220, beats mid 5000 x 220 */
	reset();
	t = task(220, 0, 1024, 1);
	CHECK_EQ_I(gb_select_cpu(&M, C, &t, &S, &d), 1);
	CHECK_EQ_U(d.reason, GB_REASON_NONE);
	/* but 260 does not fit at all: mid */
	t = task(260, 0, 1024, 1);
	CHECK_EQ_I(gb_select_cpu(&M, C, &t, &S, &d), 4);
}

static void test_overutilization_is_per_domain(void)
{
	struct gb_task t;
	struct gb_decision d;

	reset();
	busy(7, 900); /* big over 819 */
	CHECK(gb_domain_overutilized(&M, C, 2));
	CHECK(!gb_domain_overutilized(&M, C, 0));
	CHECK(!gb_domain_overutilized(&M, C, 1));
	t = task(50, 0, 1024, 2); /* little stays energy-aware */
	CHECK_EQ_I(gb_select_cpu(&M, C, &t, &S, &d), 2);
	/* a uclamp_max below capacity means the util is meant to be throttled: not OU */
	C[7].uclamp_max = 500;
	CHECK(!gb_domain_overutilized(&M, C, 2));
}

static void test_overutilized_domain_spreads_to_most_spare_cpu(void)
{
	struct gb_task t;
	struct gb_decision d;

	reset();
	for (u32 c = 4; c < 7; c++)
		busy(c, 500);
	busy(4, 700); /* over 80% of 800 */
	CHECK(gb_domain_overutilized(&M, C, 1));
	/* a task that only mid or big can take (uclamp_min 300), affine to mid */
	t = task(100, 300, 1024, 4);
	memset(&t.allowed, 0, sizeof(t.allowed));
	em_cpumask_set(&t.allowed, 4);
	em_cpumask_set(&t.allowed, 5);
	C[5].util = 200;
	CHECK_EQ_I(gb_select_cpu(&M, C, &t, &S, &d), 5);
	CHECK_EQ_U(d.reason, GB_REASON_OVERUTILIZED_SPREAD);
}

static void test_spreading_does_not_take_a_task_too_big_for_the_domain(void)
{
	struct gb_task t;
	struct gb_decision d;

	/* little over-utilized (CPU 0 at 210 of 250); a task of 400 waking from mid, which has
	 * room: little's spare CPU is the cheapest, but 400 does not fit 250 and the tick would
	 * move it straight back up */
	reset();
	busy(0, 210);
	CHECK(gb_domain_overutilized(&M, C, 0));
	t = task(400, 0, 1024, 4);
	CHECK(gb_select_cpu(&M, C, &t, &S, &d) >= 4);
	/* escaping an over-utilized mid (every CPU over 640 of 800), spreading may still use
	 * little: a smaller CPU now beats waiting behind a busy one */
	for (u32 c = 4; c < 7; c++)
		busy(c, 700);
	busy(7, 900);
	t = task(400, 0, 1024, 4);
	C[4].util = 700 + 400;
	CHECK(gb_select_cpu(&M, C, &t, &S, &d) < 4);
	CHECK_EQ_U(d.reason, GB_REASON_OVERUTILIZED_SPREAD);
}

static void test_affinity_is_always_honoured(void)
{
	struct gb_task t;
	struct gb_decision d;

	reset();
	busy(7, 1000);
	t = task(50, 0, 1024, 0);
	memset(&t.allowed, 0, sizeof(t.allowed));
	em_cpumask_set(&t.allowed, 7);
	CHECK_EQ_I(gb_select_cpu(&M, C, &t, &S, &d), 7);
	CHECK_EQ_U(d.reason, GB_REASON_AFFINITY);
	C[7].online = 0; /* no allowed CPU online: no placement */
	CHECK_EQ_I(gb_select_cpu(&M, C, &t, &S, &d), GB_NO_CPU);
}

static void test_power_misfit_pushes_capped_task_down_after_running_long(void)
{
	struct gb_task t;
	struct gb_decision d;

	/* a 600 task capped at 300 running on big: mid serves 300 at 5000 vs big at 6666 */
	reset();
	busy(7, 600);
	C[7].uclamp_max = 300;
	t = task(600, 0, 300, 7);
	CHECK_EQ_I(gb_check_misfit(&M, C, &t, 7, 4000, 8000, &S, &d), GB_NO_CPU);
	CHECK_EQ_I(gb_check_misfit(&M, C, &t, 7, 9000, 8000, &S, &d), 4);
	CHECK_EQ_U(d.reason, GB_REASON_POWER_MISFIT);
	CHECK(d.energy_delta < 0);
	/* and at wake-up it is placed down too */
	CHECK_EQ_I(gb_select_cpu(&M, C, &t, &S, &d), 4);
}

static void test_capacity_misfit_moves_saturating_task_up(void)
{
	struct gb_task t;
	struct gb_decision d;

	reset();
	busy(1, 245);
	t = task(245, 0, 1024, 1); /* 245 > 31/32 of 250 */
	CHECK_EQ_I(gb_check_misfit(&M, C, &t, 1, 0, 8000, &S, &d), 4);
	CHECK_EQ_U(d.reason, GB_REASON_CAPACITY_MISFIT);
	/* over 80% but sleeping every period: it fits, stays */
	t = task(220, 0, 1024, 1);
	CHECK_EQ_I(gb_check_misfit(&M, C, &t, 1, 15000, 8000, &S, &d), GB_NO_CPU);
	/* over 80% and running 16 ms without sleeping, grown past the util it last slept with:
	 * it wants more than the CPU gives */
	t.util_est = 200;
	CHECK_EQ_I(gb_check_misfit(&M, C, &t, 1, 16000, 8000, &S, &d), 4);
}

static void test_long_activation_that_completed_before_is_not_a_capacity_misfit(void)
{
	struct gb_task t;
	struct gb_decision d;

	/*
	 * A decoder alone on little (250): util 210 (84%, over the tipping point), running 20 ms
	 * since it woke, but util_est 220 says its last activation peaked higher and it still went
	 * to sleep: this one is no bigger, the little CPU serves it to the end.  It stays (the
	 * 16 ms rule moved it up at every frame and wake-up placement brought it back).
	 */
	reset();
	busy(1, 210);
	t = task(210, 0, 1024, 1);
	t.util_est = 220;
	CHECK(gb_capacity_misfit(&t, 250, 20000, 8000)); /* the task-only test still says so */
	CHECK_EQ_I(gb_check_misfit(&M, C, &t, 1, 20000, 8000, &S, &d), GB_NO_CPU);
	/* grown past util_est: this activation is bigger than the last, it goes up */
	t.util = 225;
	C[1].util = C[1].runnable = 225;
	CHECK_EQ_I(gb_check_misfit(&M, C, &t, 1, 20000, 8000, &S, &d), 4);
	CHECK_EQ_U(d.reason, GB_REASON_CAPACITY_MISFIT);
	/* it has been waiting for the CPU (runnable 240 > util 210): the util is held down by
	 * sharing, not a smaller demand */
	t = task(210, 0, 1024, 1);
	t.util_est = 220;
	t.runnable = 240;
	C[1].util = 210;
	C[1].runnable = 240;
	CHECK_EQ_I(gb_check_misfit(&M, C, &t, 1, 20000, 8000, &S, &d), 4);
	/* or another task is runnable on its CPU */
	t.runnable = 210;
	C[1].nr_running = 2;
	CHECK_EQ_I(gb_check_misfit(&M, C, &t, 1, 20000, 8000, &S, &d), 4);
	/* saturating (util_est 245 > 31/32 of 250) is a misfit whatever its history */
	C[1].nr_running = 1;
	t.util_est = 245;
	t.util = 240;
	CHECK_EQ_I(gb_check_misfit(&M, C, &t, 1, 0, 8000, &S, &d), 4);
}

static void test_capacity_misfit_waits_for_an_idle_bigger_cpu(void)
{
	struct gb_task t;
	struct gb_decision d;

	/* a saturating task on little while every mid and big CPU is busy: moving it would only
	 * queue it behind another task (and an idle little CPU would pull it back): it stays
	 * until a bigger CPU is idle, then goes there */
	reset();
	busy(1, 245);
	for (u32 c = 4; c < 8; c++)
		busy(c, 300);
	t = task(245, 0, 1024, 1);
	CHECK_EQ_I(gb_check_misfit(&M, C, &t, 1, 0, 8000, &S, &d), GB_NO_CPU);
	C[5].nr_running = 0;
	C[5].idle = 1;
	C[5].util = 0;
	CHECK_EQ_I(gb_check_misfit(&M, C, &t, 1, 0, 8000, &S, &d), 5);
	CHECK_EQ_U(d.reason, GB_REASON_CAPACITY_MISFIT);
}

static void test_power_misfit_never_goes_below_uclamp_max(void)
{
	struct gb_task t;
	struct gb_decision d;

	/*
	 * A task that never sleeps, capped at 240 on mid (cap 800): little (cap 250) serves 240
	 * cheapest and the cap still holds there, so the push goes to little.  Capped at 300 it
	 * would not be capped on little: running without sleeping it grows to saturate the CPU
	 * (from the 200 it shows now), the tick calls that a capacity misfit and moves it back
	 * up, ping-pong.  So the push finds nothing below mid.
	 */
	reset();
	busy(4, 200);
	C[4].uclamp_max = 240;
	t = task(200, 0, 240, 4);
	CHECK(gb_check_misfit(&M, C, &t, 4, 9000, 8000, &S, &d) < 4);
	CHECK_EQ_U(d.reason, GB_REASON_POWER_MISFIT);
	C[4].uclamp_max = 300;
	t = task(200, 0, 300, 4);
	CHECK_EQ_I(gb_check_misfit(&M, C, &t, 4, 9000, 8000, &S, &d), GB_NO_CPU);
}

static void test_wakeup_skips_cpus_the_task_would_saturate(void)
{
	struct gb_task t;
	struct gb_decision d;
	s32 cpu;

	/* util_est 245 of a little's 250: 31/32 saturation, a capacity misfit at the next tick;
	 * util 100 after sleeping made it look cheap on little */
	reset();
	t = task(100, 0, 1024, 0);
	t.util_est = 245;
	cpu = gb_select_cpu(&M, C, &t, &S, &d);
	CHECK(cpu >= 4);
	CHECK(!gb_capacity_misfit(&t, em_domain_capacity(&M.domains[M.cpu_domain[cpu]]), 0, 8000));
	/* capped at 200 it is meant to be throttled on little, which stays allowed */
	t.uclamp_max = 200;
	CHECK(gb_select_cpu(&M, C, &t, &S, &d) < 4);
}

/* Capped tasks: utilization measured at an OPP uclamp_max holds down cannot exceed that OPP's
 * perf, so a CPU busy all the time there looks like it has room (OSPM 2024, q3_more_room). */
static void test_wakeup_skips_cpus_full_at_their_clamp(void)
{
	struct gb_task t;
	struct gb_decision d;
	s32 cpu;

	/* every little CPU capped at 100 (little's lowest OPP, perf 100) and busy there: util 98,
	 * far below little's 250; the task (50, capped at 100) shares CPU 0 */
	reset();
	for (u32 c = 0; c < 4; c++) {
		busy(c, 98);
		C[c].uclamp_max = 100;
	}
	t = task(50, 0, 100, 0);
	cpu = gb_select_cpu(&M, C, &t, &S, &d);
	CHECK(cpu >= 4);
	/* joining a CPU needs its other load plus the work within 15/16 of the clamped perf, the
	 * previous CPU keeps the task up to 31/32 (93.75 < 44 + 50 <= 96.875) */
	C[1].util = 44 + 50;
	t = task(50, 0, 100, 1);
	CHECK_EQ_I(gb_select_cpu(&M, C, &t, &S, &d), 1);
	C[1].util = 44;
	t = task(50, 0, 100, 4);
	CHECK(gb_select_cpu(&M, C, &t, &S, &d) >= 4);
	/* the wake-up shortcut agrees: an idle previous CPU whose blocked load fills its clamp
	 * is not kept (the search finds an idle little CPU instead) */
	reset();
	C[0].util = 48 + 50;
	C[0].uclamp_max = 100;
	t = task(50, 0, 100, 0);
	CHECK(!gb_prev_is_cheapest(&M, C, &t, &d));
	cpu = gb_select_cpu(&M, C, &t, &S, &d);
	CHECK(cpu >= 1 && cpu < 4);
	C[0].util = 20 + 50;
	CHECK(gb_prev_is_cheapest(&M, C, &t, &d));
	/* a task that saturates the clamped OPP on its own is throttled wherever it runs: the
	 * cheapest CPU stays allowed */
	reset();
	t = task(98, 0, 100, 0);
	CHECK(gb_select_cpu(&M, C, &t, &S, &d) < 4);
}

static void test_blocked_util_of_an_idle_cpu_is_not_added_to_util_est(void)
{
	struct gb_task t;
	struct gb_cand idle_blocked, idle_empty, busy_cpu;

	/* the task last ran long (util_est 150, util 40).  On an idle little CPU whose sleeping
	 * task left 60 of blocked util, the kernel's cpu_util() is max(60 + 40, 150) = 150: perf
	 * 187, little's 200 OPP, as on an empty CPU; 60 + 150 = 210 would need 262, the 250 OPP.
	 * On a CPU running a task of util 60, that task's util_est adds: 250 */
	reset();
	C[0].util = 60;
	busy(2, 60);
	t = task(40, 0, 1024, 3);
	t.util_est = 150;
	gb_scan_domains(&M, C, &t, &S);
	idle_blocked = gb_price(&M, C, &t, &S, 0);
	idle_empty = gb_price(&M, C, &t, &S, 1);
	busy_cpu = gb_price(&M, C, &t, &S, 2);
	CHECK_EQ_U(idle_blocked.idx, 1);
	CHECK_EQ_U(idle_empty.idx, 1);
	CHECK_EQ_U(busy_cpu.idx, 2);
	CHECK(idle_blocked.ok && idle_empty.ok && busy_cpu.ok);
}

static void test_misfit_hold_keeps_a_moved_task_up_until_it_shrinks(void)
{
	struct gb_task t;
	struct gb_decision d;

	/* moved off little (250) as a capacity misfit at demand 245 (saturating): while its
	 * demand is above 15/16 of 250 (234) the hold keeps it off little, even though little is
	 * cheaper at wake-up */
	reset();
	t = task(236, 0, 1024, 4);
	t.floor_cap = gb_misfit_hold(&t, 250, 245);
	CHECK_EQ_U(t.floor_cap, 250);
	CHECK(gb_select_cpu(&M, C, &t, &S, &d) >= 4);
	t.floor_cap = 0;
	CHECK(gb_select_cpu(&M, C, &t, &S, &d) < 4);
	/* once it has shrunk below 15/16 the hold is released for good */
	t = task(200, 0, 1024, 4);
	CHECK_EQ_U(gb_misfit_hold(&t, 250, 245), 0);
	CHECK_EQ_U(gb_misfit_hold(&t, 0, 0), 0);
	/* moved at demand 205, below 15/16 (over 80% and running 16 ms without sleeping): it is
	 * held while its demand is more than 1/16 above that (217.8: its util still lags a
	 * growing demand), released once it is not (a steady task) */
	t = task(220, 0, 1024, 4);
	CHECK_EQ_U(gb_misfit_hold(&t, 250, 205), 250);
	t = task(218, 0, 1024, 4);
	CHECK_EQ_U(gb_misfit_hold(&t, 250, 205), 250);
	t = task(217, 0, 1024, 4);
	CHECK_EQ_U(gb_misfit_hold(&t, 250, 205), 0);
	t = task(205, 0, 1024, 4);
	CHECK_EQ_U(gb_misfit_hold(&t, 250, 205), 0);
}

static void test_idle_cpu_wins_tie_within_domain(void)
{
	struct gb_task t;
	struct gb_decision d;

	reset();
	busy(0, 10);
	busy(1, 10);
	busy(2, 10);
	t = task(30, 0, 1024, 0); /* same OPP everywhere in little: the idle CPU3 */
	CHECK_EQ_I(gb_select_cpu(&M, C, &t, &S, &d), 3);
}

static void test_tie_across_domains_avoids_raising_opp(void)
{
	struct gb_cand raise = {.delta = 1000, .raises = 1}, flat = {.delta = 1050, .raises = 0};
	struct gb_cand dear = {.delta = 2000, .raises = 0};

	CHECK(gb_better_across(0, raise, flat, true));
	CHECK(!gb_better_across(0, flat, raise, true));
	CHECK(!gb_better_across(0, raise, dear, true));
	/* both raise (or neither), within 1/16: the cheaper OPP, unless by delta only (a
	 * capacity-misfit search) */
	{
		struct gb_cand dear_opp = {.delta = 1000, .cost = 900, .raises = 1};
		struct gb_cand cheap_opp = {.delta = 1040, .cost = 700, .raises = 1};

		CHECK(gb_better_across(0, dear_opp, cheap_opp, true));
		CHECK(!gb_better_across(0, cheap_opp, dear_opp, true));
		CHECK(!gb_better_across(0, dear_opp, cheap_opp, false));
		cheap_opp.delta = 1100; /* beyond 1/16: the delta decides */
		CHECK(!gb_better_across(0, dear_opp, cheap_opp, true));
	}
}

/* Little's cluster costs wake_uw to keep up (em_domain.wake_power_uw), its OPPs' wake costs
 * computed from it as a model's load does. */
static void little_wake_power(u32 wake_uw)
{
	M.domains[0].wake_power_uw = wake_uw;
	em_compute_wake_costs(&M.domains[0]);
}

/* What waking little's cluster costs (gb_idle.h): wake_power_uw x 10 / perf per unit of work. */
static void test_waking_a_sleeping_cluster_costs_its_wake_power(void)
{
	struct gb_task t;
	struct gb_decision d;

	/* Every little CPU idle, mid CPU4 running a 100 task (mid at OPP 0, perf 300).  A 50 task
	 * last ran on little CPU0.  mid CPU5: 5000 x 50 = 250000.  little at OPP 0 (perf 100):
	 * 2000 x 50 = 100000 with its cluster up, and with 40 mW to keep it up
	 * (2000 + 40000 x 10 / 100) x 50 = 300000: the task goes to the active mid domain, and the
	 * previous-CPU shortcut must not claim CPU0. */
	reset();
	little_wake_power(40000);
	busy(4, 100);
	t = task(50, 0, 1024, 0);
	CHECK_EQ_I(gb_select_cpu(&M, C, &t, &S, &d), 5);
	CHECK_EQ_U(d.reason, GB_REASON_WAKEUP_ENERGY);
	CHECK(!gb_prev_is_cheapest(&M, C, &t, &d));
	/* 20 mW: (2000 + 2000) x 50 = 200000, still below mid's 250000: little */
	little_wake_power(20000);
	CHECK_EQ_I(gb_select_cpu(&M, C, &t, &S, &d), 0);
	CHECK_EQ_U(d.reason, GB_REASON_NONE);
}

static void test_an_active_cluster_pays_no_wake_cost(void)
{
	struct gb_task t;
	struct gb_decision d;

	/* as above with 40 mW, but little CPU1 runs a 10 task: little's cluster is up anyway,
	 * 2000 x 50 = 100000 against mid's 250000 */
	reset();
	little_wake_power(40000);
	busy(4, 100);
	busy(1, 10);
	t = task(50, 0, 1024, 0);
	CHECK_EQ_I(gb_select_cpu(&M, C, &t, &S, &d), 0);
	CHECK(gb_prev_is_cheapest(&M, C, &t, &d));
	CHECK_EQ_I(d.cpu, 0);
}

/* A task that raises its idle previous CPU's OPP stays there without a search when no other
 * CPU of the domain is less loaded and the domain is awake: little's other CPUs run 100 each
 * (base OPP 1, perf 200), a 170 task on idle CPU0 needs OPP 2 (250), (3 x 170 + 1 x 300) = 810
 * against mid's 5 x 170 = 850 at best.  With an idle CPU3 less loaded than CPU0 the shortcut
 * leaves it to the search (which keeps it: CPU3 would need the same OPP). */
static void test_prev_cpu_shortcut_takes_a_raise_its_domain_pays(void)
{
	struct gb_task t;
	struct gb_decision d = {0}, s = {0};

	reset();
	busy(1, 100);
	busy(2, 100);
	busy(3, 100);
	t = task(170, 0, 1024, 0);
	CHECK(gb_prev_is_cheapest(&M, C, &t, &d));
	CHECK_EQ_I(d.cpu, 0);
	CHECK_EQ_U(d.opp_idx, 2);
	CHECK_EQ_I(gb_select_cpu(&M, C, &t, &S, &s), 0);
	CHECK_EQ_U(s.opp_idx, 2);
	C[0].util = 190;
	C[3] = C[4];
	CHECK(!gb_prev_is_cheapest(&M, C, &t, &d));
	CHECK_EQ_I(gb_select_cpu(&M, C, &t, &S, &s), 0);
}

/* A misfit hold keeps the task off CPUs no bigger than the one it left, and so takes their
 * domains out of the shortcut's comparison: held above mid, a task on the idle big CPU stays
 * there without a search, where little would have been cheaper; held at its previous CPU's
 * capacity, it is left to the search, which moves it up. */
static void test_prev_cpu_shortcut_holds_above_a_misfit_hold(void)
{
	struct gb_task t;
	struct gb_decision d = {0};

	reset();
	t = task(50, 0, 1024, 7);
	CHECK(!gb_prev_is_cheapest(&M, C, &t, &d));
	CHECK(gb_select_cpu(&M, C, &t, &S, &d) < 4);
	t.floor_cap = em_domain_capacity(&M.domains[1]);
	CHECK(gb_prev_is_cheapest(&M, C, &t, &d));
	CHECK_EQ_I(d.cpu, 7);
	CHECK_EQ_I(gb_select_cpu(&M, C, &t, &S, &d), 7);
	t = task(50, 0, 1024, 0);
	CHECK(gb_prev_is_cheapest(&M, C, &t, &d));
	t.floor_cap = em_domain_capacity(&M.domains[0]);
	CHECK(!gb_prev_is_cheapest(&M, C, &t, &d));
	CHECK(gb_select_cpu(&M, C, &t, &S, &d) >= 4);
}

static void test_packing_stops_where_the_opp_it_raises_costs_more_than_a_wake_up(void)
{
	struct gb_task t;
	struct gb_decision d;

	/* Every mid CPU runs a 230 task (perf 287.5: OPP 0) and little sleeps (40 mW).  A 50 task
	 * last ran on big CPU7 (6666 x 50 = 333300).  On mid it raises the domain to OPP 1:
	 * 6000 x 50 + (6000 - 5000) x 690 = 990000; waking little costs
	 * (2000 + 40000 x 10 / 100) x 50 = 300000, so little it is, and the decision's energy
	 * delta against big counts the wake-up. */
	reset();
	little_wake_power(40000);
	busy(4, 230);
	busy(5, 230);
	busy(6, 230);
	t = task(50, 0, 1024, 7);
	CHECK(gb_select_cpu(&M, C, &t, &S, &d) < 4);
	CHECK_EQ_U(d.reason, GB_REASON_WAKEUP_ENERGY);
	CHECK_EQ_I(d.energy_delta, 300000 - 333300);
}

static void test_idle_pull_asks_the_placement_fit_question(void)
{
	struct gb_task t;

	/* a task of demand 400 waits on the big CPU 7 (tri: little 250, mid 800, big 1024) */
	reset();
	busy(7, 900);
	t = task(400, 0, 1024, 7);
	/* big is over-utilized: an idle mid CPU may take it, an idle little one may not (it would
	 * saturate it, and the tick would move it straight back up) */
	CHECK(gb_may_pull(&M, C, &t, 4, 2, true, 0, GB_PULL_AFTER_US));
	CHECK(!gb_may_pull(&M, C, &t, 0, 2, true, 0, GB_PULL_AFTER_US));
	/* not over-utilized: no pull across domains before it starves */
	CHECK(!gb_may_pull(&M, C, &t, 4, 2, false, 0, GB_PULL_AFTER_US));
	/* a task of demand 200 fits little */
	t = task(200, 0, 1024, 7);
	CHECK(gb_may_pull(&M, C, &t, 0, 2, true, 0, GB_PULL_AFTER_US));
	/* under a misfit hold off mid (800), mid is refused as at a wake-up, big is not */
	t = task(400, 0, 1024, 6);
	t.floor_cap = 800;
	CHECK(!gb_may_pull(&M, C, &t, 4, 2, true, 0, GB_PULL_AFTER_US));
	/* within its domain, always (same capacity: nothing is undone) */
	CHECK(gb_may_pull(&M, C, &t, 5, 1, false, 0, GB_PULL_AFTER_US));
	/* having waited the starvation limit, any idle CPU takes it */
	t = task(400, 0, 1024, 7);
	CHECK(gb_may_pull(&M, C, &t, 0, 2, false, GB_PULL_AFTER_US, GB_PULL_AFTER_US));
	CHECK(!gb_may_pull(&M, C, &t, 0, 2, true, GB_PULL_AFTER_US - 1, GB_PULL_AFTER_US));
}

int main(void)
{
	TAP_RUN(test_pelt_converges_to_perf_of_running_opp);
	TAP_RUN(test_pelt_halves_in_32_ms_of_sleep);
	TAP_RUN(test_pelt_two_stretches_account_as_two_calls);
	TAP_RUN(test_util_est_rises_at_once_and_decays_by_a_quarter);
	TAP_RUN(test_the_first_sleep_leaves_the_fork_guess_out_of_util_est);
	TAP_RUN(test_perf_request_has_headroom_and_uclamp);
	TAP_RUN(test_domain_perf_target_skips_inefficient_opp);
	TAP_RUN(test_domain_perf_target_counts_a_queue_on_one_cpu);
	TAP_RUN(test_small_task_goes_to_cheapest_little);
	TAP_RUN(test_new_task_goes_to_domain_with_most_idle_cpus);
	TAP_RUN(test_small_uclamp_task_prefers_free_mid_core);
	TAP_RUN(test_task_above_tipping_point_stays_on_little_when_cheapest);
	TAP_RUN(test_overutilization_is_per_domain);
	TAP_RUN(test_overutilized_domain_spreads_to_most_spare_cpu);
	TAP_RUN(test_spreading_does_not_take_a_task_too_big_for_the_domain);
	TAP_RUN(test_affinity_is_always_honoured);
	TAP_RUN(test_power_misfit_pushes_capped_task_down_after_running_long);
	TAP_RUN(test_capacity_misfit_moves_saturating_task_up);
	TAP_RUN(test_capacity_misfit_waits_for_an_idle_bigger_cpu);
	TAP_RUN(test_long_activation_that_completed_before_is_not_a_capacity_misfit);
	TAP_RUN(test_power_misfit_never_goes_below_uclamp_max);
	TAP_RUN(test_wakeup_skips_cpus_the_task_would_saturate);
	TAP_RUN(test_wakeup_skips_cpus_full_at_their_clamp);
	TAP_RUN(test_blocked_util_of_an_idle_cpu_is_not_added_to_util_est);
	TAP_RUN(test_misfit_hold_keeps_a_moved_task_up_until_it_shrinks);
	TAP_RUN(test_idle_cpu_wins_tie_within_domain);
	TAP_RUN(test_tie_across_domains_avoids_raising_opp);
	TAP_RUN(test_waking_a_sleeping_cluster_costs_its_wake_power);
	TAP_RUN(test_an_active_cluster_pays_no_wake_cost);
	TAP_RUN(test_prev_cpu_shortcut_holds_above_a_misfit_hold);
	TAP_RUN(test_prev_cpu_shortcut_takes_a_raise_its_domain_pays);
	TAP_RUN(test_packing_stops_where_the_opp_it_raises_costs_more_than_a_wake_up);
	TAP_RUN(test_idle_pull_asks_the_placement_fit_question);
	return tap_done();
}
