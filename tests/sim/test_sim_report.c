// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_sim_report.c - what a run of the simulator reports about its workload as a whole: a
 * workload whose tasks all end runs until the last one exits (rt-app's own finite files), a
 * loop that takes no time is stopped with a warning, and work done (run time x OPP perf)
 * shows a task put on a slower CPU or starved.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim.h"
#include "tap.h"

static struct em_profile *sm8250;
static struct gb_err err;

static const char *src_root(void)
{
	return getenv("GB_SRC") ? getenv("GB_SRC") : ".";
}

static int load_fixture(const char *name, struct workload *w)
{
	char path[4096];

	snprintf(path, sizeof(path), "%s/tests/sim/workloads/%s", src_root(), name);
	return workload_load_file(path, w, &err);
}

static int run_text(const char *json, enum sim_policy_id pol, const struct sim_options *opt,
		    struct sim_result *res)
{
	struct workload w = {0};
	int ret = workload_load_string(json, strlen(json), "test.json", &w, &err);

	if (!ret)
		ret = sim_run(sm8250, &w, pol, opt, res, &err);
	workload_free(&w);
	return ret;
}

static struct sim_result *res;

/* rt-app's tutorial example3: 12 threads, 10 periods of 30 ms light then 10 heavy, loop 1 */
static void test_finite_rtapp_file_runs_until_its_last_task_exits(void)
{
	struct sim_options opt = {.seed = 1};
	struct workload w;

	CHECK_EQ_I(load_fixture("rtapp-example3.json", &w), 0);
	CHECK_EQ_U(w.global.duration_us, WL_DURATION_UNBOUNDED);
	CHECK_EQ_I(sim_run(sm8250, &w, SIM_POLICY_GEARBOX, &opt, res, &err), 0);
	printf("# example3: %llu us, %llu activations, %llu late\n",
	       (unsigned long long)res->duration_us, (unsigned long long)res->activations,
	       (unsigned long long)res->late);
	/* each thread ends at its 20th period, 600 ms after its start (jitter < 1 ms); an
	 * overrun of the heavy phase (27 ms of CPU7's work per 30 ms) would end it later */
	CHECK(res->duration_us >= 600000 && res->duration_us < 601000 + 30000 * res->late);
	CHECK_EQ_U(res->activations, 12 * 20);
	/* --duration still caps it */
	opt.duration_us = 300000;
	CHECK_EQ_I(sim_run(sm8250, &w, SIM_POLICY_GEARBOX, &opt, res, &err), 0);
	CHECK_EQ_U(res->duration_us, 300000);
	CHECK(res->activations < 12 * 11);
	workload_free(&w);
}

/* cpufreq_governor_efficiency: calibration.json (2 ms run, 2 ms sleep, once) and dvfs.json
 * (SCHED_FIFO on CPU 1, 10 loops of a 1.2 s timer and 900 ms of work at capacity 1024) */
static void test_rtapp_calibration_and_dvfs_files_run_to_their_end(void)
{
	struct sim_options opt = {.seed = 1};
	struct workload w;
	u64 run_us = 0;

	CHECK_EQ_I(load_fixture("rtapp-calibration.json", &w), 0);
	CHECK_EQ_I(sim_run(sm8250, &w, SIM_POLICY_MAINLINE, &opt, res, &err), 0);
	printf("# calibration: %llu us\n", (unsigned long long)res->duration_us);
	/* the run (on big, faster than CPU0), then 2 ms of sleep, after a start under 1 ms */
	CHECK(res->duration_us > 2000 && res->duration_us < 5000);
	workload_free(&w);

	CHECK_EQ_I(load_fixture("rtapp-dvfs.json", &w), 0);
	CHECK_EQ_I(sim_run(sm8250, &w, SIM_POLICY_GEARBOX, &opt, res, &err), 0);
	for (u32 d = 0; d < res->nr_domains; d++)
		run_us += res->tasks[0].run_us[d];
	printf("# dvfs: %llu us, %llu us running\n", (unsigned long long)res->duration_us,
	       (unsigned long long)run_us);
	CHECK_EQ_U(res->activations, 10);
	/* 10 x 900 ms of capacity-1024 work on a little CPU takes longer than 10 x 900 ms;
	 * the run ends when that work is done */
	CHECK(run_us > 10 * 900000ull);
	CHECK(res->duration_us >= run_us && res->duration_us < run_us + 10 * 1200000ull + 1000);
	workload_free(&w);
}

static void test_workload_that_loops_forever_needs_a_duration(void)
{
	static const char wl[] = "{\"tasks\":{\"ok\":{\"loop\":2,\"run\":100,\"sleep\":100},"
				 "\"spin\":{\"phases\":{\"a\":{\"loop\":-1,\"run\":100}}}}}";
	struct sim_options opt = {0};

	CHECK_EQ_I(run_text(wl, SIM_POLICY_GEARBOX, &opt, res), -EINVAL);
	CHECK_STR_CONTAINS(err.msg, "test.json: task spin-0 loops forever (loop -1) and the "
				    "workload has no global duration: give --duration");
	opt.duration_us = 10000;
	CHECK_EQ_I(run_text(wl, SIM_POLICY_GEARBOX, &opt, res), 0);
}

static void test_tasks_left_waiting_for_each_other_are_an_error(void)
{
	/* b waits at the barrier a third time, a has exited after two */
	static const char wl[] = "{\"tasks\":{\"a\":{\"loop\":2,\"run\":100,\"barrier\":\"x\"},"
				 "\"b\":{\"loop\":3,\"run\":100,\"barrier\":\"x\"}}}";
	struct sim_options opt = {0};

	CHECK_EQ_I(run_text(wl, SIM_POLICY_GEARBOX, &opt, res), -EINVAL);
	CHECK_STR_CONTAINS(err.msg, "every task left waits (task b-0 on barrier 'x') and none can "
				    "wake it");
}

static void test_a_loop_that_takes_no_time_is_stopped_with_a_warning(void)
{
	static const char wl[] =
	    "{\"global\":{\"duration\":1},\"tasks\":{\"work\":{\"run\":100,\"sleep\":900},"
	    "\"busy\":{\"run\":0,\"yield\":\"\"}}}";
	static const char fine[] =
	    "{\"global\":{\"duration\":1},\"tasks\":{\"work\":{\"run\":100,\"sleep\":900}}}";
	struct sim_options opt = {0};

	CHECK_EQ_I(run_text(wl, SIM_POLICY_GEARBOX, &opt, res), 0);
	CHECK_STR_CONTAINS(res->warning,
			   "test.json: task busy-0: 1048576 events in a row at t=0 us "
			   "took no time");
	CHECK(res->activations == 0 &&
	      res->tasks[0].run_us[0] + res->tasks[0].run_us[1] + res->tasks[0].run_us[2] >
		  0); /* the other task still ran */
	CHECK_EQ_I(run_text(fine, SIM_POLICY_GEARBOX, &opt, res), 0);
	CHECK(res->warning[0] == '\0');
}

static double task_work_us(const struct sim_result *r, u32 i)
{
	return (double)r->tasks[i].work_perf_us / EM_CAPACITY_SCALE;
}

/* A build-like hog for 2 s: on a little CPU it does less work than on the big one, and the
 * report says so (work per task, throughput, the total, energy per unit of work). */
static void test_a_task_on_a_little_cpu_shows_less_work_done(void)
{
	static const char little[] =
	    "{\"global\":{\"duration\":2},\"tasks\":{\"build\":{\"cpus\":[0],\"run\":100000000}}}";
	static const char big[] =
	    "{\"global\":{\"duration\":2},\"tasks\":{\"build\":{\"cpus\":[7],\"run\":100000000}}}";
	const struct em_domain *ld = &sm8250->model.domains[sm8250->model.cpu_domain[0]];
	const struct em_domain *bd = &sm8250->model.domains[sm8250->model.cpu_domain[7]];
	struct sim_options opt = {0};
	double wl, wb, epw_l;

	CHECK_EQ_I(run_text(little, SIM_POLICY_GEARBOX, &opt, res), 0);
	wl = task_work_us(res, 0);
	epw_l = res->energy_per_work;
	CHECK(!res->tasks[0].periodic);
	/* busy the whole run at the top OPP (after the governor's ramp): work = time x perf */
	CHECK(wl <= 2e6 * ld->opps[ld->nr_opps - 1].perf / 1024 + 1);
	CHECK(wl > 0.9 * 2e6 * ld->opps[ld->nr_opps - 1].perf / 1024);
	CHECK(res->tasks[0].throughput_pct > 0 &&
	      res->tasks[0].throughput_pct * 2e6 / 100 > wl - 1 &&
	      res->tasks[0].throughput_pct * 2e6 / 100 < wl + 1);
	CHECK(res->work_s * 1e6 > wl - 1 && res->work_s * 1e6 < wl + 1);
	CHECK(epw_l > 0 && epw_l * res->work_s > res->energy_j * 0.999 &&
	      epw_l * res->work_s < res->energy_j * 1.001);
	CHECK_EQ_I(run_text(big, SIM_POLICY_GEARBOX, &opt, res), 0);
	wb = task_work_us(res, 0);
	printf("# work on little %.0f us, on big %.0f us (at capacity 1024)\n", wl, wb);
	CHECK(wb > 0.9 * 2e6 * bd->opps[bd->nr_opps - 1].perf / 1024);
	CHECK(wl < wb);
}

/* An RT hog on the CPU a fair task is pinned to starves it: its work done is about nil, while
 * its run time alone (it never runs either) says nothing of the work it did not do.  The
 * policy comparison: a capped hog pushed down to a little CPU by gearbox (power misfit) does
 * less work in the same time than under performance, and energy per work shows both. */
static void test_a_starved_task_shows_less_work_done(void)
{
	static const char starve[] =
	    "{\"global\":{\"duration\":1},\"tasks\":{"
	    "\"rt\":{\"policy\":\"SCHED_FIFO\",\"cpus\":[7],\"run\":100000000},"
	    "\"build\":{\"cpus\":[7],\"delay\":10000,\"run\":100000000}}}";
	static const char capped[] =
	    "{\"global\":{\"duration\":2},\"tasks\":{\"build\":{\"util_max\":300,"
	    "\"run\":100000000}}}";
	struct sim_options opt = {0};
	struct sim_result *perf = calloc(1, sizeof(*perf));

	CHECK_EQ_I(run_text(starve, SIM_POLICY_GEARBOX, &opt, res), 0);
	CHECK(task_work_us(res, 1) < 1.0);
	CHECK(task_work_us(res, 0) > 0.9e6);
	CHECK_EQ_I(run_text(capped, SIM_POLICY_GEARBOX, &opt, res), 0);
	CHECK_EQ_I(run_text(capped, SIM_POLICY_PERFORMANCE, &opt, perf), 0);
	printf("# capped hog: gearbox %.3f s of work, %.4f J/work_s; performance %.3f s, %.4f "
	       "J/work_s\n",
	       res->work_s, res->energy_per_work, perf->work_s, perf->energy_per_work);
	CHECK(res->work_s < perf->work_s);
	CHECK(res->energy_per_work > 0 && perf->energy_per_work > 0);
	free(perf);
}

/*
 * Migrations are counted whole and across domains apart, under both hosts: three tasks allowed
 * on two little CPUs only take turns on them (moves within the domain, none across); a task
 * allowed on a little and the big CPU that grows, then shrinks, moves only across.
 */
static void test_migrations_across_domains_are_counted_apart(void)
{
	static const char within[] =
	    "{\"global\":{\"duration\":1},\"tasks\":{\"bg\":{\"instance\":3,\"cpus\":[0,1],"
	    "\"loop\":-1,\"run\":2000,\"timer\":{\"ref\":\"unique\",\"period\":4000}}}}";
	static const char across[] =
	    "{\"global\":{\"duration\":3},\"tasks\":{\"ramp\":{\"cpus\":[0,7],\"loop\":-1,"
	    "\"phases\":{\"small\":{\"loop\":60,\"run\":500,\"timer\":{\"ref\":\"t\","
	    "\"period\":16000}},\"big\":{\"loop\":60,\"run\":20000,\"timer\":{\"ref\":\"t\","
	    "\"period\":16000}}}}}}";
	static const enum sim_policy_id pols[] = {SIM_POLICY_GEARBOX, SIM_POLICY_MAINLINE};
	struct sim_options opt = {.seed = 1};

	for (unsigned i = 0; i < 2; i++) {
		CHECK_EQ_I(run_text(within, pols[i], &opt, res), 0);
		printf("# %s, within little: %llu migrations, %llu across\n",
		       sim_policy_name(pols[i]), (unsigned long long)res->migrations,
		       (unsigned long long)res->migrations_across);
		CHECK(res->migrations > 0);
		CHECK_EQ_U(res->migrations_across, 0);
		CHECK_EQ_U(res->tasks[0].migrations_across + res->tasks[1].migrations_across +
			       res->tasks[2].migrations_across,
			   0);
		CHECK_EQ_I(run_text(across, pols[i], &opt, res), 0);
		printf("# %s, little and big: %llu migrations, %llu across\n",
		       sim_policy_name(pols[i]), (unsigned long long)res->migrations,
		       (unsigned long long)res->migrations_across);
		CHECK(res->migrations_across >= 2);
		CHECK_EQ_U(res->migrations_across, res->migrations);
		CHECK_EQ_U(res->tasks[0].migrations_across, res->migrations_across);
	}
}

/* No placement fits: one periodic task needing 1.5 big CPUs.  Fits on paper but not in the
 * run: 99% of the big CPU (the governor's ramp makes the first activations late). */
static void test_oracle_reports_infeasible_and_gives_no_bound(void)
{
	static const char over[] =
	    "{\"global\":{\"duration\":1,\"calibration\":\"CPU7\"},\"tasks\":{\"t\":{"
	    "\"run\":15000,\"timer\":{\"ref\":\"a\",\"period\":10000}}}}";
	static const char tight[] =
	    "{\"global\":{\"duration\":1,\"calibration\":\"CPU7\"},\"tasks\":{\"t\":{"
	    "\"run\":9900,\"timer\":{\"ref\":\"a\",\"period\":10000}}}}";
	struct sim_options opt = {.seed = 1};

	CHECK_EQ_I(run_text(over, SIM_POLICY_ORACLE, &opt, res), 0);
	CHECK_EQ_I(res->outcome, SIM_INFEASIBLE);
	CHECK_STR_CONTAINS(res->note, "no placement keeps every CPU's planned load within");
	CHECK(res->energy_j == 0 && res->activations == 0); /* no figures, no bound */
	CHECK_EQ_I(run_text(tight, SIM_POLICY_ORACLE, &opt, res), 0);
	CHECK_EQ_I(res->outcome, SIM_INFEASIBLE);
	CHECK_STR_CONTAINS(res->note, "kept every deadline");
	/* the same plan, as mainline runs it, is late: the QoS counts decided */
	CHECK_EQ_I(run_text(tight, SIM_POLICY_MAINLINE, &opt, res), 0);
	CHECK(res->late > 0);
}

/* Where the oracle gives a bound, its run has no late activation and no missed period. */
static void test_feasible_oracle_keeps_every_deadline(void)
{
	static const char *const names[] = {"q3_more_room", "lisa_three_small"};
	struct sim_options opt = {.seed = 1};

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		char path[4096];
		struct workload w;

		snprintf(path, sizeof(path), "%s/tests/scenarios/workloads/%s.json", src_root(),
			 names[i]);
		CHECK_EQ_I(workload_load_file(path, &w, &err), 0);
		CHECK_EQ_I(sim_run(sm8250, &w, SIM_POLICY_ORACLE, &opt, res, &err), 0);
		printf("# %s: %s; %.4f J\n", names[i], res->note, res->energy_j);
		CHECK_EQ_I(res->outcome, SIM_RAN);
		CHECK(res->activations > 0 && res->late == 0 && res->missed == 0);
		CHECK(res->energy_j > 0);
		CHECK_STR_CONTAINS(res->note, "kept every deadline");
		workload_free(&w);
	}
}

static void test_oracle_skips_a_workload_with_a_non_periodic_task(void)
{
	static const char wl[] =
	    "{\"global\":{\"duration\":1},\"tasks\":{\"p\":{\"run\":100,\"timer\":{\"ref\":\"a\","
	    "\"period\":1000}},\"build\":{\"phases\":{\"one\":{\"run\":100,\"timer\":{\"ref\":"
	    "\"b\",\"period\":1000}},\"two\":{\"run\":1000,\"sleep\":10}}}}}";
	struct sim_options opt = {.seed = 1};

	CHECK_EQ_I(run_text(wl, SIM_POLICY_ORACLE, &opt, res), 0);
	CHECK_EQ_I(res->outcome, SIM_SKIPPED);
	CHECK_STR_CONTAINS(res->note, "task build-0 has no timer in phase 'two': the oracle plans "
				      "periodic tasks only");
}

/* The interval of a sample computed by hand: 1..5 has mean 3, s = sqrt(2.5), t(0.975, 4) =
 * 2.776, half-width 2.776 x 1.5811 / sqrt(5) = 1.9630. */
static void test_interval_is_student_t_on_a_known_sample(void)
{
	static const double x[] = {1, 2, 3, 4, 5};
	struct sim_interval iv = sim_interval_of(x, 5);

	CHECK(iv.mean > 2.99999 && iv.mean < 3.00001);
	CHECK(iv.lo > 1.0369 && iv.lo < 1.0371 && iv.hi > 4.9629 && iv.hi < 4.9631);
	iv = sim_interval_of(x, 1); /* one value: no interval */
	CHECK(iv.mean == 1 && isnan(iv.lo) && isnan(iv.hi));
	CHECK(sim_t975(1) > 12.70 && sim_t975(1) < 12.71);
	CHECK(sim_t975(40) > 2.020 && sim_t975(40) < 2.022); /* tables: 2.021 */
	CHECK(sim_t975(1000) > 1.961 && sim_t975(1000) < 1.963);
}

int main(void)
{
	char path[4096];

	sm8250 = calloc(1, sizeof(*sm8250));
	res = calloc(1, sizeof(*res));
	snprintf(path, sizeof(path), "%s/em-profiles/sm8250.json", src_root());
	if (!sm8250 || !res || em_profile_load_file(path, sm8250, false, NULL, &err)) {
		printf("Bail out! %s\n", err.msg);
		return 1;
	}
	TAP_RUN(test_finite_rtapp_file_runs_until_its_last_task_exits);
	TAP_RUN(test_rtapp_calibration_and_dvfs_files_run_to_their_end);
	TAP_RUN(test_workload_that_loops_forever_needs_a_duration);
	TAP_RUN(test_tasks_left_waiting_for_each_other_are_an_error);
	TAP_RUN(test_a_loop_that_takes_no_time_is_stopped_with_a_warning);
	TAP_RUN(test_a_task_on_a_little_cpu_shows_less_work_done);
	TAP_RUN(test_a_starved_task_shows_less_work_done);
	TAP_RUN(test_migrations_across_domains_are_counted_apart);
	TAP_RUN(test_oracle_reports_infeasible_and_gives_no_bound);
	TAP_RUN(test_feasible_oracle_keeps_every_deadline);
	TAP_RUN(test_oracle_skips_a_workload_with_a_non_periodic_task);
	TAP_RUN(test_interval_is_student_t_on_a_known_sample);
	free(sm8250);
	free(res);
	return tap_done();
}
