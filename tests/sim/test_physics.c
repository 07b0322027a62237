// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_physics.c - the simulator's physics beyond running tasks (src/sim/sim_physics.c): idle
 * and cluster states, exit latency, the OPP transition latency, the cost of a migration.  Each
 * test runs the same workload with and without the mechanism and asserts the difference it
 * makes, so that it fails when the mechanism is gone.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim.h"
#include "sim_test_run.h"
#include "tap.h"

static struct em_profile *prof;

static const struct em_idle_state wfi = {"wfi", 1000, 0, 1, 1};

/* Two identical domains "a" (CPUs 0-1) and "b" (CPUs 2-3), one OPP (perf 1024, 200 mW). */
static void twin_profile(bool idle)
{
	static const u32 p[] = {1024}, w[] = {200};
	struct em_model *m = &prof->model;

	memset(prof, 0, sizeof(*prof));
	snprintf(prof->soc, sizeof(prof->soc), "twin");
	memset(m->cpu_domain, 0xff, sizeof(m->cpu_domain));
	tm_domain(m, "a", 0, 2, p, w, 1);
	tm_domain(m, "b", 2, 2, p, w, 1);
	for (u32 d = 0; d < 2; d++) {
		struct em_idle_states *is = &prof->idle[d];

		/* without idle states the domain draws what its idle CPUs and static share draw */
		m->domains[d].idle_power_uw = 100000 + 2 * wfi.power_uw;
		if (!idle)
			continue;
		is->present = true;
		is->static_uw = 100000;
		is->nr_cpu = 1;
		is->cpu[0] = wfi;
		is->nr_cluster = 1;
		is->cluster[0] = (struct em_idle_state){"cluster-off", 0, 300, 500, 2000};
	}
}

static int run_text(const char *json, enum sim_policy_id pol, struct sim_result *res)
{
	struct sim_options opt = {0};

	return st_run_text(prof, json, pol, &opt, res);
}

/* Two small periodic tasks, on CPUs 0 and CPU1 (packed in a) or 0 and 2 (one per domain). */
static const char packed[] =
    "{\"global\":{\"duration\":1,\"calibration\":\"CPU0\"},\"tasks\":{"
    "\"x\":{\"cpus\":[0],\"loop\":-1,\"run\":1000,\"timer\":{\"ref\":\"x\",\"period\":16000}},"
    "\"y\":{\"cpus\":[1],\"loop\":-1,\"run\":1000,\"timer\":{\"ref\":\"y\",\"period\":16000}}}}";
static const char spread[] =
    "{\"global\":{\"duration\":1,\"calibration\":\"CPU0\"},\"tasks\":{"
    "\"x\":{\"cpus\":[0],\"loop\":-1,\"run\":1000,\"timer\":{\"ref\":\"x\",\"period\":16000}},"
    "\"y\":{\"cpus\":[2],\"loop\":-1,\"run\":1000,\"timer\":{\"ref\":\"y\",\"period\":16000}}}}";

static void test_packing_lets_the_other_cluster_power_down(void)
{
	struct sim_result rp, rs;

	/* without idle states, where the tasks run makes no difference to energy */
	twin_profile(false);
	CHECK_EQ_I(run_text(packed, SIM_POLICY_GEARBOX, &rp), 0);
	CHECK_EQ_I(run_text(spread, SIM_POLICY_GEARBOX, &rs), 0);
	printf("# constant idle: packed %.6f J, spread %.6f J\n", rp.energy_j, rs.energy_j);
	CHECK(rp.energy_j > 0.999 * rs.energy_j && rp.energy_j < 1.001 * rs.energy_j);
	{
		double packed_const = rp.energy_j;

		twin_profile(true);
		CHECK_EQ_I(run_text(packed, SIM_POLICY_GEARBOX, &rp), 0);
		CHECK_EQ_I(run_text(spread, SIM_POLICY_GEARBOX, &rs), 0);
		printf("# idle states: packed %.6f J (b %.6f J), spread %.6f J (b %.6f J)\n",
		       rp.energy_j, rp.domains[1].energy_j, rs.energy_j, rs.domains[1].energy_j);
		/* domain b, never woken when packed, stays down: it draws nothing at all */
		CHECK(rp.domains[1].energy_j < 1e-4);
		/* spread, b wakes every period and draws its static share while up */
		CHECK(rs.domains[1].energy_j > 0.01);
		CHECK(rp.energy_j < 0.9 * rs.energy_j);
		/* and power-down saves energy against the constant idle power */
		CHECK(rp.energy_j < 0.5 * packed_const);
	}
}

static void test_cluster_powers_down_after_its_last_task_leaves(void)
{
	/* x runs 1 ms every 2 ms on CPU 0 (idle gaps shorter than domain a's cluster residency),
	 * then moves for good to CPU 2: CPU 0 last chose its shallow state expecting x back; the
	 * timer that wakes x elsewhere wakes CPU 0 too, which then lets cluster a power down */
	static const char leaving[] =
	    "{\"global\":{\"duration\":1,\"calibration\":\"CPU0\"},\"tasks\":{\"x\":{\"loop\":1,"
	    "\"phases\":{\"p\":{\"loop\":5,\"cpus\":[0],\"run\":1000,"
	    "\"timer\":{\"ref\":\"x\",\"period\":2000}},"
	    "\"q\":{\"loop\":100,\"cpus\":[2],\"run\":1000,"
	    "\"timer\":{\"ref\":\"x\",\"period\":16000}}}}}}";
	struct sim_result r;

	twin_profile(true);
	CHECK_EQ_I(run_text(leaving, SIM_POLICY_GEARBOX, &r), 0);
	printf("# a %.6f J, b %.6f J, x on a %llu us, on b %llu us\n", r.domains[0].energy_j,
	       r.domains[1].energy_j, (unsigned long long)r.tasks[0].run_us[0],
	       (unsigned long long)r.tasks[0].run_us[1]);
	CHECK(r.tasks[0].run_us[0] >= 5000 && r.tasks[0].run_us[1] > 50000);
	/* a draws x's 5 ms at 200 mW and its static 100 mW for the first 10 ms or so, not for
	 * the whole second (0.1 J) */
	CHECK(r.domains[0].energy_j < 0.005);
}

/* A model of one CPU, soc, with nr OPPs of perf p and power w (mW), and no idle states. */
static void single_cpu(const char *soc, const u32 *p, const u32 *w, u32 nr)
{
	struct em_model *m = &prof->model;

	memset(prof, 0, sizeof(*prof));
	snprintf(prof->soc, sizeof(prof->soc), "%s", soc);
	memset(m->cpu_domain, 0xff, sizeof(m->cpu_domain));
	tm_domain(m, "only", 0, 1, p, w, nr);
}

/* One CPU with a deep state of the given latencies (or none). */
static void one_cpu_profile(bool idle, u32 entry_us, u32 exit_us, u32 residency_us)
{
	static const u32 p[] = {1024}, w[] = {200};
	struct em_idle_states *is = &prof->idle[0];

	single_cpu("one", p, w, 1);
	if (!idle)
		return;
	is->present = true;
	is->static_uw = 10000;
	is->nr_cpu = 2;
	is->cpu[0] = wfi;
	is->cpu[1] = (struct em_idle_state){"deep", 0, entry_us, exit_us, residency_us};
}

static void test_wake_from_deep_state_is_late_by_its_exit_latency(void)
{
	/* 8 ms of work every 12.5 ms, and 8.5 ms every 10 ms */
	static const char wl13[] =
	    "{\"global\":{\"duration\":1,\"calibration\":\"CPU0\"},\"tasks\":{\"t\":{"
	    "\"loop\":-1,\"run\":8000,\"timer\":{\"ref\":\"t\",\"period\":12500}}}}";
	static const char wl10[] =
	    "{\"global\":{\"duration\":1,\"calibration\":\"CPU0\"},\"tasks\":{\"t\":{"
	    "\"loop\":-1,\"run\":8500,\"timer\":{\"ref\":\"t\",\"period\":10000}}}}";
	struct sim_result r;

	one_cpu_profile(false, 0, 0, 0);
	CHECK_EQ_I(run_text(wl13, SIM_POLICY_GEARBOX, &r), 0);
	CHECK_EQ_U(r.late, 0);
	CHECK(r.wake_lat_p50_us < 1);
	CHECK_EQ_I(run_text(wl10, SIM_POLICY_GEARBOX, &r), 0);
	CHECK_EQ_U(r.late, 0);
	/* the idle gaps (2.5 ms once the exit is paid) are predicted by the task's timer: the
	 * deep state (residency and exit 2 ms) is entered, and every wake-up waits for its exit */
	one_cpu_profile(true, 100, 2000, 2000);
	CHECK_EQ_I(run_text(wl13, SIM_POLICY_GEARBOX, &r), 0);
	printf("# exit 2 ms: late %llu of %llu, wake-up p50 %.0f us\n", (unsigned long long)r.late,
	       (unsigned long long)r.activations, r.wake_lat_p50_us);
	CHECK(r.wake_lat_p50_us >= 2000 && r.wake_lat_p50_us <= 2001);
	CHECK_EQ_U(r.late, 0); /* 8 + 2 ms fit in 12.5 */
	/* a 1.5 ms gap enters a state whose entry takes 2 ms: the wake-up waits for the rest of
	 * the entry and the exit, 1.7 ms, and the 8.5 ms run no longer fits the period; the late
	 * activation runs on at once and leaves a longer gap, so every other one is late */
	one_cpu_profile(true, 2000, 1200, 1200);
	CHECK_EQ_I(run_text(wl10, SIM_POLICY_GEARBOX, &r), 0);
	printf("# entry 2 ms, exit 1.2 ms: late %llu of %llu, wake-up p50 %.0f us\n",
	       (unsigned long long)r.late, (unsigned long long)r.activations, r.wake_lat_p50_us);
	CHECK(r.wake_lat_p50_us >= 1700 && r.wake_lat_p50_us <= 1701);
	CHECK(2 * r.late + 2 >= r.activations && r.activations > 90);
}

/* One CPU of five OPPs (perf 64 to 1024) with a deep state of exit latency exit_us, entered
 * when the CPU expects to stay idle 3 ms. */
static void ladder_profile(u32 exit_us)
{
	static const u32 p[] = {64, 128, 256, 512, 1024}, w[] = {10, 25, 60, 150, 400};
	struct em_idle_states *is = &prof->idle[0];

	single_cpu("ladder", p, w, 5);
	is->present = true;
	is->static_uw = 1000;
	is->nr_cpu = 2;
	is->cpu[0] = wfi;
	is->cpu[1] = (struct em_idle_state){"deep", 0, 50, exit_us, 3000};
}

/*
 * A task woken onto an idle CPU is enqueued there once the CPU has left its idle state (the
 * wake list; a timer's interrupt comes after the exit): the exit is neither run nor runnable
 * time, so mainline's runnable boost (schedutil's cpu_util_cfs_boost) does not read it as
 * contention.  One task, 0.2 ms of work every 12 ms, alone on a CPU of five OPPs, under
 * mainline: with an exit of 3 ms its average frequency was 28% above the one with an exit of
 * 50 us while the exit counted as runnable time (322 against 252 MHz), 7% with it not counted
 * (269 MHz: gearbox, whose request reads no runnable_avg, shows 5%).  Bound: 15%.
 */
static void test_an_idle_exit_is_not_runnable_time(void)
{
	static const char wl[] =
	    "{\"global\":{\"duration\":2,\"calibration\":\"CPU0\"},\"tasks\":{\"t\":{"
	    "\"loop\":-1,\"run\":200,\"timer\":{\"ref\":\"t\",\"period\":12000}}}}";
	struct sim_result rs, rl;

	ladder_profile(50);
	CHECK_EQ_I(run_text(wl, SIM_POLICY_MAINLINE, &rs), 0);
	ladder_profile(3000);
	CHECK_EQ_I(run_text(wl, SIM_POLICY_MAINLINE, &rl), 0);
	printf("# exit 50 us: %.0f kHz, late %llu; exit 3 ms: %.0f kHz, late %llu\n",
	       rs.domains[0].avg_freq_khz, (unsigned long long)rs.late, rl.domains[0].avg_freq_khz,
	       (unsigned long long)rl.late);
	CHECK(rl.domains[0].avg_freq_khz <= 1.15 * rs.domains[0].avg_freq_khz);
	CHECK_EQ_U(rl.late, 0);
}

/* One CPU whose shallowest state draws 20 mW, with (deep) or without a 0 uW state of entry
 * 200 us, exit 300 us and residency 4 ms. */
static void break_even_profile(bool deep)
{
	struct em_idle_states *is = &prof->idle[0];

	one_cpu_profile(true, 200, 300, 4000);
	is->cpu[0].power_uw = 20000;
	if (!deep)
		is->nr_cpu = 1;
}

static void test_deep_state_breaks_even_at_its_min_residency(void)
{
	/* 1 ms of work every 5.3 ms: with the deep state's 300 us exit before each run, the CPU
	 * is idle 4 ms (the residency) between runs; every 9.3 ms: 8 ms idle */
	static const char at_residency[] =
	    "{\"global\":{\"duration\":1,\"calibration\":\"CPU0\"},\"tasks\":{\"t\":{"
	    "\"loop\":-1,\"run\":1000,\"timer\":{\"ref\":\"t\",\"period\":5300}}}}";
	static const char twice[] =
	    "{\"global\":{\"duration\":1,\"calibration\":\"CPU0\"},\"tasks\":{\"t\":{"
	    "\"loop\":-1,\"run\":1000,\"timer\":{\"ref\":\"t\",\"period\":9300}}}}";
	struct sim_result rw, rd;
	double saved_j, expect_j;

	/* at its residency the deep state costs what WFI does: the exit latency is not drawn at
	 * the OPP's 200 mW (60 uJ a wake-up), nor is the wake-up free */
	break_even_profile(false);
	CHECK_EQ_I(run_text(at_residency, SIM_POLICY_GEARBOX, &rw), 0);
	break_even_profile(true);
	CHECK_EQ_I(run_text(at_residency, SIM_POLICY_GEARBOX, &rd), 0);
	printf("# idle 4 ms: wfi only %.6f J, deep %.6f J, wake-up p50 %.0f us, late %llu\n",
	       rw.energy_j, rd.energy_j, rd.wake_lat_p50_us, (unsigned long long)rd.late);
	CHECK(rd.wake_lat_p50_us >= 300 && rd.wake_lat_p50_us <= 301);
	CHECK_EQ_U(rd.late, 0);
	/* 188 wake-ups; a difference of 2 uJ each is within 1% */
	CHECK(rd.energy_j > rw.energy_j - 0.0004 && rd.energy_j < rw.energy_j + 0.0004);
	/* idle twice its residency, the deep state saves 20 mW over the 4 ms beyond it, per wake */
	break_even_profile(false);
	CHECK_EQ_I(run_text(twice, SIM_POLICY_GEARBOX, &rw), 0);
	break_even_profile(true);
	CHECK_EQ_I(run_text(twice, SIM_POLICY_GEARBOX, &rd), 0);
	saved_j = rw.energy_j - rd.energy_j;
	expect_j = (double)rd.activations * 20000e-6 * 4000e-6;
	printf("# idle 8 ms: wfi only %.6f J, deep %.6f J, saved %.6f J for %llu activations\n",
	       rw.energy_j, rd.energy_j, saved_j, (unsigned long long)rd.activations);
	CHECK(saved_j > 0.97 * expect_j && saved_j < 1.03 * expect_j);
}

/* One domain of two CPUs, one OPP of 200 mW; with idle states (10 mW static, WFI) or without;
 * with or without a measured split of that OPP into 120 mW static and 80 mW per busy CPU. */
static void split_profile(bool idle, bool split)
{
	static const u32 p[] = {1024}, w[] = {200};
	struct em_model *m = &prof->model;
	struct em_idle_states *is = &prof->idle[0];

	memset(prof, 0, sizeof(*prof));
	snprintf(prof->soc, sizeof(prof->soc), "split");
	memset(m->cpu_domain, 0xff, sizeof(m->cpu_domain));
	tm_domain(m, "a", 0, 2, p, w, 1);
	m->domains[0].idle_power_uw = 12000;
	if (idle) {
		is->present = true;
		is->static_uw = 10000;
		is->nr_cpu = 1;
		is->cpu[0] = wfi;
	}
	if (split)
		prof->meta[0][0] = (struct em_opp_meta){
		    .has_split = true, .split_cpus = 2, .static_uw = 120000, .dynamic_uw = 80000};
}

static void test_measured_split_charges_the_static_share_once(void)
{
	/* x alone, and x with y running at the same time on the domain's other CPU */
	static const char alone[] =
	    "{\"global\":{\"duration\":1,\"calibration\":\"CPU0\"},\"tasks\":{"
	    "\"x\":{\"cpus\":[0],\"loop\":-1,\"run\":4000,\"timer\":{\"ref\":\"x\",\"period\":"
	    "16000}}}}";
	static const char both[] =
	    "{\"global\":{\"duration\":1,\"calibration\":\"CPU0\"},\"tasks\":{"
	    "\"x\":{\"cpus\":[0],\"loop\":-1,\"run\":4000,\"timer\":{\"ref\":\"x\",\"period\":"
	    "16000}},"
	    "\"y\":{\"cpus\":[1],\"loop\":-1,\"run\":4000,\"timer\":{\"ref\":\"y\",\"period\":"
	    "16000}}}}";
	struct sim_result rs, rn;
	double saved_j, overlap_j;

	/* one busy CPU draws static + dynamic = power_uw: the split changes nothing */
	split_profile(true, false);
	CHECK_EQ_I(run_text(alone, SIM_POLICY_GEARBOX, &rn), 0);
	split_profile(true, true);
	CHECK_EQ_I(run_text(alone, SIM_POLICY_GEARBOX, &rs), 0);
	printf("# alone: power_uw %.6f J, split %.6f J\n", rn.energy_j, rs.energy_j);
	CHECK(rs.energy_j > 0.999 * rn.energy_j && rs.energy_j < 1.001 * rn.energy_j);
	/* two busy CPUs draw the static share once: 280 mW, not 400 */
	split_profile(true, false);
	CHECK_EQ_I(run_text(both, SIM_POLICY_GEARBOX, &rn), 0);
	split_profile(true, true);
	CHECK_EQ_I(run_text(both, SIM_POLICY_GEARBOX, &rs), 0);
	saved_j = rn.energy_j - rs.energy_j;
	overlap_j = (double)st_run_total(&rs, 1) * 120000e-12;
	printf("# both: power_uw %.6f J, split %.6f J, saved %.6f J, y ran %llu us\n", rn.energy_j,
	       rs.energy_j, saved_j, (unsigned long long)st_run_total(&rs, 1));
	CHECK(st_run_total(&rs, 1) > 200000);
	CHECK(saved_j > 0.98 * overlap_j && saved_j < 1.02 * overlap_j);
	/* without idle states the model is the kernel's (power_uw per busy CPU): no split */
	split_profile(false, false);
	CHECK_EQ_I(run_text(both, SIM_POLICY_GEARBOX, &rn), 0);
	split_profile(false, true);
	CHECK_EQ_I(run_text(both, SIM_POLICY_GEARBOX, &rs), 0);
	CHECK(rs.energy_j > 0.999 * rn.energy_j && rs.energy_j < 1.001 * rn.energy_j);
}

static void test_frequency_change_takes_the_transition_latency(void)
{
	/* one run of 20 ms of work at perf 1024, from t=0, the domain starting at its OPP of perf
	 * 512: the governor asks for the top OPP at once; until the transition completes the task
	 * runs at half speed, so it needs latency / 2 more time */
	static const char wl[] =
	    "{\"global\":{\"duration\":1,\"calibration\":\"CPU0\"},\"tasks\":{\"t\":{"
	    "\"loop\":1,\"run\":20000,\"sleep\":900000}}}";
	static const u32 p[] = {512, 1024}, w[] = {100, 300};
	struct sim_result r;

	memset(prof, 0, sizeof(*prof));
	memset(prof->model.cpu_domain, 0xff, sizeof(prof->model.cpu_domain));
	tm_domain(&prof->model, "only", 0, 1, p, w, 2);
	prof->has_transition_latency[0] = true;
	prof->transition_latency_us[0] = 0;
	CHECK_EQ_I(run_text(wl, SIM_POLICY_MAINLINE, &r), 0);
	printf("# instant: %llu us\n", (unsigned long long)st_run_total(&r, 0));
	CHECK_EQ_U(st_run_total(&r, 0), 20000);
	prof->transition_latency_us[0] = 3000;
	CHECK_EQ_I(run_text(wl, SIM_POLICY_MAINLINE, &r), 0);
	printf("# 3 ms transition: %llu us\n", (unsigned long long)st_run_total(&r, 0));
	CHECK_EQ_U(st_run_total(&r, 0), 21500);
	/* the scheduler's cpuperf requests go through the same transition */
	CHECK_EQ_I(run_text(wl, SIM_POLICY_GEARBOX, &r), 0);
	CHECK_EQ_U(st_run_total(&r, 0), 21500);
}

static void test_migrated_task_does_more_work_time(void)
{
	/* 1 ms of work every 1.4 ms, alternating between domains a and b (identical), against the
	 * same on CPU 0 only: each move of the cache-hot task costs 500 us at half speed */
	static const char moving[] =
	    "{\"global\":{\"duration\":1,\"calibration\":\"CPU0\"},\"tasks\":{\"t\":{\"loop\":-1,"
	    "\"phases\":{\"p\":{\"cpus\":[0],\"run\":1000,\"timer\":{\"ref\":\"t\",\"period\":1400}"
	    "},"
	    "\"q\":{\"cpus\":[2],\"run\":1000,\"timer\":{\"ref\":\"t\",\"period\":1400}}}}}}";
	static const char staying[] =
	    "{\"global\":{\"duration\":1,\"calibration\":\"CPU0\"},\"tasks\":{\"t\":{\"loop\":-1,"
	    "\"phases\":{\"p\":{\"cpus\":[0],\"run\":1000,\"timer\":{\"ref\":\"t\",\"period\":1400}"
	    "},"
	    "\"q\":{\"cpus\":[0],\"run\":1000,\"timer\":{\"ref\":\"t\",\"period\":1400}}}}}}";
	struct sim_result rm, rs;

	twin_profile(false);
	CHECK_EQ_I(run_text(moving, SIM_POLICY_GEARBOX, &rm), 0);
	CHECK_EQ_I(run_text(staying, SIM_POLICY_GEARBOX, &rs), 0);
	printf("# moving: %llu us run, %llu migrations, %.6f J; staying: %llu us, %.6f J\n",
	       (unsigned long long)st_run_total(&rm, 0), (unsigned long long)rm.migrations,
	       rm.energy_j, (unsigned long long)st_run_total(&rs, 0), rs.energy_j);
	CHECK(rm.migrations > 600);
	CHECK_EQ_U(rs.migrations, 0);
	CHECK_EQ_U(rm.activations, rs.activations);
	/* 1.25 ms of run time per activation against 1 ms */
	CHECK(st_run_total(&rm, 0) * 100 >= st_run_total(&rs, 0) * 124);
	CHECK(st_run_total(&rm, 0) * 100 <= st_run_total(&rs, 0) * 126);
	CHECK(rm.energy_j > 1.1 * rs.energy_j);
}

int main(void)
{
	prof = calloc(1, sizeof(*prof));
	TAP_RUN(test_packing_lets_the_other_cluster_power_down);
	TAP_RUN(test_cluster_powers_down_after_its_last_task_leaves);
	TAP_RUN(test_wake_from_deep_state_is_late_by_its_exit_latency);
	TAP_RUN(test_an_idle_exit_is_not_runnable_time);
	TAP_RUN(test_deep_state_breaks_even_at_its_min_residency);
	TAP_RUN(test_measured_split_charges_the_static_share_once);
	TAP_RUN(test_frequency_change_takes_the_transition_latency);
	TAP_RUN(test_migrated_task_does_more_work_time);
	free(prof);
	return tap_done();
}
