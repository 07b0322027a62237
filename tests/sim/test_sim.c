// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_sim.c - the simulator engine: energy integration against hand-computed values on a
 * one-OPP model, run-event work scaled by perf, determinism, the DVFS rate limit, and the
 * gearbox-stream/1 trace.
 */
#include <errno.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim.h"
#include "sim_test_run.h"
#include "tap.h"

static struct em_profile *prof;

static void flat_profile(void)
{
	st_flat_profile(prof);
}

static int run_text(const char *json, enum sim_policy_id pol, struct sim_options *opt,
		    struct sim_result *res)
{
	return st_run_text(prof, json, pol, opt, res);
}

static const char pinned_runtime[] =
    "{\"global\":{\"duration\":1,\"calibration\":\"CPU7\"},\"tasks\":{\"t\":{\"cpus\":[0],"
    "\"loop\":-1,\"runtime\":2000,\"sleep\":8000}}}";

static void test_energy_is_busy_time_times_opp_power(void)
{
	struct sim_options opt = {0};
	struct sim_result r;

	flat_profile();
	CHECK_EQ_I(run_text(pinned_runtime, SIM_POLICY_GEARBOX, &opt, &r), 0);
	/* 100 periods of 2 ms busy at 20 mW = 4 mJ, all on little */
	CHECK(r.domains[0].energy_j > 0.00398 && r.domains[0].energy_j < 0.00402);
	CHECK_EQ_U(r.domains[1].energy_j * 1e9, 0);
	CHECK(r.domains[0].busy_pct > 4.99 && r.domains[0].busy_pct < 5.01); /* 20% of 1 of 4 */
	/* idle power is drawn by the domain all the time */
	prof->model.domains[1].idle_power_uw = 10000;
	CHECK_EQ_I(run_text(pinned_runtime, SIM_POLICY_GEARBOX, &opt, &r), 0);
	CHECK(r.domains[1].energy_j > 0.00999 && r.domains[1].energy_j < 0.01001);
}

static void test_run_work_takes_longer_on_slower_cpu(void)
{
	/* run 1000 us of big-core work: 10240 us on a perf-100 little CPU */
	static const char wl[] =
	    "{\"global\":{\"duration\":1,\"calibration\":\"CPU7\"},\"tasks\":{\"t\":{\"cpus\":[0],"
	    "\"loop\":-1,\"run\":1000,\"sleep\":9760}}}";
	struct sim_options opt = {0};
	struct sim_result r;

	flat_profile();
	CHECK_EQ_I(run_text(wl, SIM_POLICY_GEARBOX, &opt, &r), 0);
	/* period 20 ms: 50 runs of 10.24 ms */
	CHECK(r.tasks[0].run_us[0] >= 511000 && r.tasks[0].run_us[0] <= 513000);
}

static void test_same_seed_gives_identical_run(void)
{
	static const char wl[] =
	    "{\"global\":{\"duration\":2,\"calibration\":\"CPU7\"},\"tasks\":{"
	    "\"a\":{\"instance\":5,\"loop\":-1,\"run\":3000,\"timer\":{\"ref\":\"unique\","
	    "\"period\":16000}},\"b\":{\"loop\":-1,\"run\":9000,\"sleep\":3000}}}";
	struct sim_options opt = {.seed = 7};
	struct sim_result *a = calloc(2, sizeof(*a)), *b = a + 1;
	struct em_profile *saved = prof;
	char path[4096];
	struct gb_err err;

	snprintf(path, sizeof(path), "%s/em-profiles/sm8250.json", getenv("GB_SRC") ?: ".");
	prof = calloc(1, sizeof(*prof));
	if (em_profile_load_file(path, prof, false, NULL, &err)) {
		printf("# %s\n", err.msg);
		CHECK(0);
	} else {
		CHECK_EQ_I(run_text(wl, SIM_POLICY_GEARBOX, &opt, a), 0);
		CHECK_EQ_I(run_text(wl, SIM_POLICY_GEARBOX, &opt, b), 0);
		CHECK(!memcmp(a, b, sizeof(*a)));
		CHECK(a->decisions > 100);
	}
	free(prof);
	prof = saved;
	free(a);
}

static void test_nice_shares_a_cpu_by_weight(void)
{
	/* two hogs on CPU 0 for 2 s: nice 0 against nice 10 is 1024 : 110 (the fair class gives
	 * ~9.3); equal nice shares evenly */
	static const char diff[] =
	    "{\"global\":{\"duration\":2,\"calibration\":\"CPU7\"},\"tasks\":{"
	    "\"a\":{\"cpus\":[0],\"priority\":0,\"run\":5000000},"
	    "\"b\":{\"cpus\":[0],\"priority\":10,\"run\":5000000}}}";
	static const char same[] =
	    "{\"global\":{\"duration\":2,\"calibration\":\"CPU7\"},\"tasks\":{"
	    "\"a\":{\"cpus\":[0],\"priority\":5,\"run\":5000000},"
	    "\"b\":{\"cpus\":[0],\"priority\":5,\"run\":5000000}}}";
	struct sim_options opt = {0};
	struct sim_result r;
	double ratio;

	flat_profile();
	CHECK_EQ_I(run_text(diff, SIM_POLICY_GEARBOX, &opt, &r), 0);
	ratio = (double)st_run_total(&r, 0) / (double)(st_run_total(&r, 1) ?: 1);
	printf("# nice 0 : nice 10 = %.2f (%llu us : %llu us)\n", ratio,
	       (unsigned long long)st_run_total(&r, 0), (unsigned long long)st_run_total(&r, 1));
	CHECK(ratio > 7.5 && ratio < 11.5);
	CHECK(st_run_total(&r, 0) + st_run_total(&r, 1) > 1990000); /* the CPU never idled */
	CHECK_EQ_I(run_text(same, SIM_POLICY_GEARBOX, &opt, &r), 0);
	ratio = (double)st_run_total(&r, 0) / (double)(st_run_total(&r, 1) ?: 1);
	CHECK(ratio > 0.95 && ratio < 1.05);
}

static void test_rt_task_preempts_fair_and_runs_on_big_at_top_opp(void)
{
	/* an unpinned SCHED_FIFO task running 1 ms every 10 ms beside a fair hog on every CPU:
	 * the RT class puts it on the biggest CPU (uclamp_min 1024 by default), it preempts the
	 * hog there at once (no late activation, no wait) and the big domain runs at its top OPP */
	static const char wl[] =
	    "{\"global\":{\"duration\":1,\"calibration\":\"CPU7\"},\"tasks\":{"
	    "\"hog\":{\"instance\":8,\"run\":5000000},"
	    "\"rt\":{\"policy\":\"SCHED_FIFO\",\"priority\":50,\"loop\":-1,\"run\":1000,"
	    "\"timer\":{\"ref\":\"t\",\"period\":10000}}}}";
	struct sim_options opt = {0};
	struct sim_result r;
	u32 rt = 8;

	flat_profile();
	CHECK_EQ_I(run_text(wl, SIM_POLICY_GEARBOX, &opt, &r), 0);
	printf("# task %u is %s\n", rt, r.tasks[rt].name);
	CHECK(!strcmp(r.tasks[rt].name, "rt-0"));
	CHECK(r.tasks[rt].activations >= 99);
	CHECK_EQ_U(r.tasks[rt].late, 0);
	CHECK(r.tasks[rt].run_us[2] > 0 && r.tasks[rt].run_us[0] + r.tasks[rt].run_us[1] == 0);
	/* the hog it shares CPU 7 with ran about 90% there */
	CHECK(r.wake_lat_p99_us <= 1);
	/* same under mainline: the RT class is not the policy's */
	CHECK_EQ_I(run_text(wl, SIM_POLICY_MAINLINE, &opt, &r), 0);
	CHECK(r.tasks[rt].run_us[2] > 0 && r.tasks[rt].run_us[0] + r.tasks[rt].run_us[1] == 0);
	CHECK_EQ_U(r.tasks[rt].late, 0);
}

static void test_fifo_runs_to_completion_and_rr_rotates(void)
{
	/* two RT hogs of equal priority on CPU 0 for 1 s: FIFO, the first runs until it is done
	 * (0.6 s), then the second; RR alternates every 100 ms */
	static const char fifo[] =
	    "{\"global\":{\"duration\":1,\"calibration\":\"CPU0\"},\"tasks\":{"
	    "\"a\":{\"cpus\":[0],\"policy\":\"SCHED_FIFO\",\"loop\":1,\"run\":600000},"
	    "\"b\":{\"cpus\":[0],\"policy\":\"SCHED_FIFO\",\"delay\":1000,\"loop\":1,\"run\":"
	    "600000},"
	    "\"f\":{\"cpus\":[0],\"run\":600000}}}";
	static const char rr[] =
	    "{\"global\":{\"duration\":1,\"calibration\":\"CPU0\"},\"tasks\":{"
	    "\"a\":{\"cpus\":[0],\"policy\":\"SCHED_RR\",\"run\":600000},"
	    "\"b\":{\"cpus\":[0],\"policy\":\"SCHED_RR\",\"delay\":1000,\"run\":600000}}}";
	struct sim_options opt = {0};
	struct sim_result r;

	flat_profile();
	CHECK_EQ_I(run_text(fifo, SIM_POLICY_GEARBOX, &opt, &r), 0);
	printf("# FIFO: %s %llu us, %s %llu us, %s %llu us\n", r.tasks[0].name,
	       (unsigned long long)st_run_total(&r, 0), r.tasks[1].name,
	       (unsigned long long)st_run_total(&r, 1), r.tasks[2].name,
	       (unsigned long long)st_run_total(&r, 2));
	CHECK(st_run_total(&r, 0) >= 599000 && st_run_total(&r, 0) <= 601000);
	CHECK(st_run_total(&r, 1) >= 390000); /* b from 0.6 s on */
	CHECK(st_run_total(&r, 2) <= 11000);  /* the fair task starves behind RT */
	CHECK_EQ_I(run_text(rr, SIM_POLICY_GEARBOX, &opt, &r), 0);
	printf("# RR: a %llu us, b %llu us\n", (unsigned long long)st_run_total(&r, 0),
	       (unsigned long long)st_run_total(&r, 1));
	CHECK(st_run_total(&r, 0) >= 450000 && st_run_total(&r, 0) <= 550000);
}

static void test_wake_latency_is_the_wait_for_a_busy_cpu(void)
{
	/* a 1 ms task every 10 ms on CPU 0: alone it never waits; beside a hog of its own weight
	 * (no wake-up preemption between equals) it waits for the hog's tick, up to 4 ms.  The
	 * fair class's queueing, so gearbox runs on the fair host (the sched_ext host's waits are
	 * test_scx.c's) */
	static const char alone[] =
	    "{\"global\":{\"duration\":1,\"calibration\":\"CPU0\"},\"tasks\":{"
	    "\"p\":{\"cpus\":[0],\"loop\":-1,\"run\":1000,\"timer\":{\"ref\":\"t\",\"period\":"
	    "10000}}}}";
	static const char hog[] =
	    "{\"global\":{\"duration\":1,\"calibration\":\"CPU0\"},\"tasks\":{"
	    "\"p\":{\"cpus\":[0],\"loop\":-1,\"run\":1000,\"timer\":{\"ref\":\"t\",\"period\":"
	    "10000}},"
	    "\"h\":{\"cpus\":[0],\"run\":5000000}}}";
	static const char hog_nice[] =
	    "{\"global\":{\"duration\":1,\"calibration\":\"CPU0\"},\"tasks\":{"
	    "\"p\":{\"cpus\":[0],\"priority\":-10,\"loop\":-1,\"run\":1000,"
	    "\"timer\":{\"ref\":\"t\",\"period\":10000}},"
	    "\"h\":{\"cpus\":[0],\"run\":5000000}}}";
	struct sim_options opt = {.host = SIM_HOST_FAIR};
	struct sim_result r;

	flat_profile();
	CHECK_EQ_I(run_text(alone, SIM_POLICY_GEARBOX, &opt, &r), 0);
	CHECK_EQ_U(r.wake_lat_p99_us, 0);
	CHECK_EQ_I(run_text(hog, SIM_POLICY_GEARBOX, &opt, &r), 0);
	printf("# beside a hog: p50 %llu us, p99 %llu us\n", (unsigned long long)r.wake_lat_p50_us,
	       (unsigned long long)r.wake_lat_p99_us);
	CHECK(r.wake_lat_p99_us > 0 && r.wake_lat_p99_us <= 4100);
	/* at nice -10 its slice's virtual deadline is earlier than the hog's: it preempts */
	CHECK_EQ_I(run_text(hog_nice, SIM_POLICY_GEARBOX, &opt, &r), 0);
	printf("# nice -10 beside a hog: p50 %llu us, p99 %llu us\n",
	       (unsigned long long)r.wake_lat_p50_us, (unsigned long long)r.wake_lat_p99_us);
	CHECK_EQ_U(r.wake_lat_p99_us, 0);
	CHECK_EQ_U(r.tasks[0].late, 0);
}

static void test_missed_periods_count_starvation_and_overruns(void)
{
	/* a 1 ms task every 10 ms on CPU 0; from 0.5 s a SCHED_FIFO hog takes CPU 0 for good: the
	 * task completes no activation after that, so it counts no late one, but it misses every
	 * period to the end of the run (about 50) */
	static const char starved[] =
	    "{\"global\":{\"duration\":1,\"calibration\":\"CPU0\"},\"tasks\":{"
	    "\"p\":{\"cpus\":[0],\"loop\":-1,\"run\":1000,\"timer\":{\"ref\":\"t\",\"period\":"
	    "10000}},"
	    "\"h\":{\"cpus\":[0],\"policy\":\"SCHED_FIFO\",\"delay\":500000,\"run\":5000000}}}";
	/* 2.5 periods of work per activation: a relative timer counts the overrun period and the
	 * whole one after it (2 per activation), an absolute one every activation once */
	static const char overrun[] =
	    "{\"global\":{\"duration\":1,\"calibration\":\"CPU0\"},\"tasks\":{"
	    "\"p\":{\"cpus\":[0],\"loop\":-1,\"run\":25000,"
	    "\"timer\":{\"ref\":\"t\",\"period\":10000,\"mode\":\"%s\"}}}}";
	/* 20 frames of 1 ms every 10 ms, then work without a timer to the end of the run: the
	 * periodic phase is over, so nothing is overrunning at the end (an app that went from its
	 * frames to a launch is not missing frames it no longer draws) */
	static const char left[] =
	    "{\"global\":{\"duration\":1,\"calibration\":\"CPU0\"},\"tasks\":{"
	    "\"p\":{\"cpus\":[0],\"loop\":1,\"phases\":{"
	    "\"frames\":{\"loop\":20,\"run\":1000,\"timer\":{\"ref\":\"t\",\"period\":10000}},"
	    "\"work\":{\"loop\":1,\"run\":5000000}}}}}";
	struct sim_options opt = {0};
	struct sim_result r;
	char wl[512];

	flat_profile();
	CHECK_EQ_I(run_text(left, SIM_POLICY_GEARBOX, &opt, &r), 0);
	printf("# periodic phase left: %llu activations, %llu late, %llu missed\n",
	       (unsigned long long)r.activations, (unsigned long long)r.late,
	       (unsigned long long)r.missed);
	CHECK_EQ_U(r.activations, 20);
	CHECK_EQ_U(r.late, 0);
	CHECK_EQ_U(r.missed, 0);
	CHECK_EQ_I(run_text(starved, SIM_POLICY_GEARBOX, &opt, &r), 0);
	printf("# starved: %llu activations, %llu late, %llu missed\n",
	       (unsigned long long)r.tasks[0].activations, (unsigned long long)r.tasks[0].late,
	       (unsigned long long)r.tasks[0].missed);
	CHECK(r.tasks[0].activations >= 49 && r.tasks[0].activations <= 51);
	CHECK(r.tasks[0].late <= 1);
	CHECK(r.tasks[0].missed >= 49 && r.tasks[0].missed <= 52);
	CHECK_EQ_U(r.missed, r.tasks[0].missed + r.tasks[1].missed);

	snprintf(wl, sizeof(wl), overrun, "relative");
	CHECK_EQ_I(run_text(wl, SIM_POLICY_GEARBOX, &opt, &r), 0);
	printf("# relative overrun: %llu activations, %llu late, %llu missed\n",
	       (unsigned long long)r.activations, (unsigned long long)r.late,
	       (unsigned long long)r.missed);
	CHECK_EQ_U(r.late, r.activations);
	/* 2 per completed activation, and the one running at the end has overrun 0-2 periods */
	CHECK(r.missed >= 2 * r.late && r.missed <= 2 * r.late + 2);
	snprintf(wl, sizeof(wl), overrun, "absolute");
	CHECK_EQ_I(run_text(wl, SIM_POLICY_GEARBOX, &opt, &r), 0);
	printf("# absolute overrun: %llu activations, %llu late, %llu missed\n",
	       (unsigned long long)r.activations, (unsigned long long)r.late,
	       (unsigned long long)r.missed);
	/* the reference stays on the 10 ms grid: by the end it is ~60 periods behind */
	CHECK(r.missed >= 95 && r.missed <= 101);
}

static void test_deadline_tasks_are_refused(void)
{
	static const char wl[] =
	    "{\"global\":{\"duration\":1},\"tasks\":{\"d\":{\"policy\":\"SCHED_DEADLINE\","
	    "\"dl-runtime\":1000,\"dl-period\":10000,\"run\":100}}}";
	struct sim_options opt = {0};
	struct sim_result r;
	struct workload w = {0};
	struct gb_err err;

	flat_profile();
	CHECK_EQ_I(workload_load_string(wl, strlen(wl), "dl.json", &w, &err), 0);
	CHECK_EQ_I(sim_run(prof, &w, SIM_POLICY_GEARBOX, &opt, &r, &err), -EINVAL);
	CHECK_STR_CONTAINS(err.msg, "dl.json: task d: 'policy' SCHED_DEADLINE is not simulated");
	workload_free(&w);
}

/* Reads the trace: checks the record sequence and returns the number of samples. */
static int check_trace(FILE *f, u64 *first_change_gap_us)
{
	char line[1 << 16];
	int n = 0, samples = 0, ends = 0;
	long long last_freq = -1, last_change = -1;

	*first_change_gap_us = ~0ull;
	rewind(f);
	while (fgets(line, sizeof(line), f)) {
		json_error_t e;
		json_t *o = json_loads(line, 0, &e);
		const char *type = json_string_value(json_object_get(o, "type"));

		CHECK(o && type);
		if (!o || !type) {
			json_decref(o);
			return -1;
		}
		if (n++ == 0) {
			CHECK(!strcmp(type, "hello"));
			CHECK(!strcmp(json_string_value(json_object_get(o, "format")),
				      "gearbox-stream/1"));
			CHECK_EQ_I(json_array_size(json_object_get(o, "domains")), 3);
		} else if (!strcmp(type, "sample")) {
			json_t *d0 = json_array_get(json_object_get(o, "domains"), 2);
			long long fq = json_integer_value(json_object_get(d0, "freq_khz"));
			long long t = json_integer_value(json_object_get(o, "t_us"));

			CHECK_EQ_I(json_array_size(json_object_get(o, "cpus")), 8);
			if (last_freq >= 0 && fq != last_freq) {
				if (last_change >= 0 &&
				    (u64)(t - last_change) < *first_change_gap_us)
					*first_change_gap_us = (u64)(t - last_change);
				last_change = t;
			}
			last_freq = fq;
			samples++;
		} else if (!strcmp(type, "decision")) {
			const char *reason = json_string_value(json_object_get(o, "reason"));

			CHECK(reason &&
			      strstr("wakeup_energy capacity_misfit power_misfit "
				     "overutilized_spread idle_pull affinity fork balance",
				     reason));
			CHECK(json_is_integer(json_object_get(o, "power_delta_uw")));
		} else if (!strcmp(type, "end")) {
			ends++;
		} else {
			CHECK(0);
		}
		json_decref(o);
	}
	CHECK_EQ_I(ends, 1);
	return samples;
}

static void test_trace_is_a_gearbox_stream_with_rate_limited_dvfs(void)
{
	static const char wl[] =
	    "{\"global\":{\"duration\":1,\"calibration\":\"CPU7\"},\"tasks\":{\"t\":{\"cpus\":[7],"
	    "\"loop\":-1,\"run\":3000,\"sleep\":40000}}}";
	static const u32 bp[] = {300, 600, 1024}, bw[] = {200, 500, 1500};
	struct sim_options opt = {.sample_us = 1000, .dvfs_rate_us = 20000};
	struct sim_result r;
	u64 gap;
	FILE *f = tmpfile();

	flat_profile();
	/* a big domain with three OPPs, so that frequency moves */
	prof->model.nr_domains = 2;
	tm_domain(&prof->model, "big", 7, 1, bp, bw, 3);
	opt.trace = f;
	CHECK_EQ_I(run_text(wl, SIM_POLICY_GEARBOX, &opt, &r), 0);
	CHECK_EQ_I(check_trace(f, &gap), 1001); /* t = 0, 1, ... 1000 ms */
	CHECK(gap != ~0ull && gap >= 20000);	/* never two OPP changes within 20 ms */
	fclose(f);
}

/*
 * gearbox sees a CPU as scx_gearbox fills it (gb_types.h): the clamps of the task running there,
 * not of those waiting (tasks wait in domain queues under sched_ext).  A boosted task
 * (uclamp_min 1024, nice 10: its wake-up does not preempt) waiting behind a hog capped at 300
 * on one CPU does not raise the CPU's perf target above the hog's cap; the kernel's run-queue
 * view, which mainline keeps, counts the waiting task's boost.
 */
static void test_gearbox_sees_only_the_running_tasks_clamps(void)
{
	static const char wl[] =
	    "{\"global\":{\"duration\":1,\"calibration\":\"CPU7\"},\"tasks\":{"
	    "\"hog\":{\"cpus\":[7],\"util_max\":300,\"loop\":-1,\"run\":1000000},"
	    "\"boost\":{\"cpus\":[7],\"util_min\":1024,\"priority\":10,\"loop\":-1,\"run\":1000,"
	    "\"sleep\":9000}}}";
	static const u32 bp[] = {300, 600, 1024}, bw[] = {200, 500, 1500};
	struct sim_options opt = {.sample_us = 100};
	struct sim_result r;
	char line[1 << 16];
	int boosted_behind_hog = 0, hog_samples = 0;
	FILE *f = tmpfile();

	flat_profile();
	prof->model.nr_domains = 2;
	tm_domain(&prof->model, "big", 7, 1, bp, bw, 3);
	opt.trace = f;
	CHECK_EQ_I(run_text(wl, SIM_POLICY_GEARBOX, &opt, &r), 0);
	rewind(f);
	while (fgets(line, sizeof(line), f)) {
		json_t *o = json_loads(line, 0, NULL);
		json_t *big = json_array_get(json_object_get(o, "domains"), 2);
		json_t *cpu7 = json_array_get(json_object_get(o, "cpus"), 7);
		const char *comm = json_string_value(json_object_get(cpu7, "comm"));

		if (big && comm && !strcmp(comm, "hog-0")) {
			hog_samples++;
			if (json_integer_value(json_object_get(big, "perf_target")) == 1024)
				boosted_behind_hog++;
		}
		json_decref(o);
	}
	fclose(f);
	printf("# %d samples with the hog running, %d of them at perf 1024\n", hog_samples,
	       boosted_behind_hog);
	CHECK(hog_samples > 0);
	CHECK_EQ_I(boosted_behind_hog, 0);
}

static void test_rework_pushes_a_preempted_stuck_task_at_once(void)
{
	/* a hog capped at util 300 (stuck on any mid CPU, capacity 500) starts on CPU 4, then
	 * may run on CPUs 4-5; an RT task pinned to CPU 4 runs 5 ms of every 10 ms there, capped
	 * too, so that no CPU is over-utilized and nothing is pulled.  The rework's push takes the
	 * preempted hog to CPU 5 when the RT task preempts it (put_prev_task), so it keeps
	 * running; without it the hog waits behind the RT task half of the time */
	static const char wl[] =
	    "{\"global\":{\"duration\":1,\"calibration\":\"CPU7\"},\"tasks\":{"
	    "\"hog\":{\"util_max\":300,\"loop\":1,\"phases\":{"
	    "\"start\":{\"cpus\":[4],\"run\":10000},"
	    "\"free\":{\"cpus\":[4,5],\"run\":5000000}}},"
	    "\"rt\":{\"policy\":\"SCHED_FIFO\",\"priority\":50,\"util_min\":0,\"util_max\":300,"
	    "\"cpus\":[4],"
	    "\"delay\":20000,\"loop\":-1,\"run\":2500,\"timer\":{\"ref\":\"t\",\"period\":10000}}}"
	    "}";
	struct sim_options opt = {0};
	struct sim_result r;
	u64 hog_us;

	flat_profile();
	CHECK_EQ_I(run_text(wl, SIM_POLICY_REWORK, &opt, &r), 0);
	hog_us = st_run_total(&r, 0);
	printf("# rework: hog ran %llu us (CPU 4-5), %llu migrations; rt ran %llu us\n",
	       (unsigned long long)hog_us, (unsigned long long)r.tasks[0].migrations,
	       (unsigned long long)st_run_total(&r, 1));
	CHECK(st_run_total(&r, 1) > 450000);
	CHECK(hog_us > 990000);
	CHECK(r.tasks[0].migrations <= 2);
	/* mainline has no push: the hog shares CPU 4 with the RT task */
	CHECK_EQ_I(run_text(wl, SIM_POLICY_MAINLINE, &opt, &r), 0);
	printf("# mainline: hog ran %llu us\n", (unsigned long long)st_run_total(&r, 0));
	CHECK(st_run_total(&r, 0) < 800000);
}

static void test_rework_charges_the_task_at_its_own_cpus_opp(void)
{
	/* "tri": h, pinned to mid CPU 4 and capped at 700, keeps the mid domain at its top OPP
	 * (cost 8750); s (util about 200: too big for little) wakes every 16 ms.  Mainline prices
	 * mid at the domain's OPP (200 x 8750) against big's lowest OPP (200 x 6666) and picks big;
	 * the rework series charges s at the OPP of its own CPU, mid CPU 5 (perf 300, cost 5000),
	 * and picks mid */
	static const char wl[] =
	    "{\"global\":{\"duration\":1,\"calibration\":\"CPU7\"},\"tasks\":{"
	    "\"h\":{\"cpus\":[4],\"util_max\":700,\"run\":5000000},"
	    "\"s\":{\"loop\":-1,\"run\":3200,\"timer\":{\"ref\":\"s\",\"period\":16000}}}}";
	struct sim_options opt = {0};
	struct sim_result r;

	memset(prof, 0, sizeof(*prof));
	snprintf(prof->soc, sizeof(prof->soc), "tri");
	tm_tri(&prof->model);
	CHECK_EQ_I(run_text(wl, SIM_POLICY_MAINLINE, &opt, &r), 0);
	printf("# mainline: s on little %llu, mid %llu, big %llu us; OU %.1f%%\n",
	       (unsigned long long)r.tasks[1].run_us[0], (unsigned long long)r.tasks[1].run_us[1],
	       (unsigned long long)r.tasks[1].run_us[2], r.overutilized_pct);
	CHECK(r.overutilized_pct < 1);
	/* after its first activations on little (a new task's util is small) */
	CHECK(r.tasks[1].run_us[2] > 0.8 * st_run_total(&r, 1) && r.tasks[1].run_us[1] == 0);
	CHECK_EQ_I(run_text(wl, SIM_POLICY_REWORK, &opt, &r), 0);
	printf("# rework: s on little %llu, mid %llu, big %llu us\n",
	       (unsigned long long)r.tasks[1].run_us[0], (unsigned long long)r.tasks[1].run_us[1],
	       (unsigned long long)r.tasks[1].run_us[2]);
	CHECK(r.tasks[1].run_us[1] > 200000 && r.tasks[1].run_us[2] == 0);
}

/* The root domain's over-utilized flag (mainline, rework) is set at a tick or enqueue that
 * finds a CPU over-utilized, and cleared only by a load balance at the root domain, every
 * 8 ms here (one per CPU): it outlasts the CPU's over-utilization. */
static void test_overutilized_flag_waits_for_the_root_balance(void)
{
	/* a task on little CPU 0 (capacity 100) busy 80 ms then idle 20 ms: its util crosses 80
	 * late in each burst and decays below it a few ms into the sleep */
	static const char wl[] =
	    "{\"global\":{\"duration\":1,\"calibration\":\"CPU0\"},\"tasks\":{"
	    "\"t\":{\"cpus\":[0],\"loop\":-1,\"run\":80000,\"timer\":{\"ref\":\"t\","
	    "\"period\":100000}}}}";
	struct sim_options opt = {0};
	struct sim_result r;

	flat_profile();
	CHECK_EQ_I(run_text(wl, SIM_POLICY_MAINLINE, &opt, &r), 0);
	printf("# flag set %.1f%% of the time, little over-utilized %.1f%%\n", r.overutilized_pct,
	       r.domains[0].overutilized_pct);
	CHECK(r.domains[0].overutilized_pct > 5);
	CHECK(r.overutilized_pct > r.domains[0].overutilized_pct + 1);
}

int main(void)
{
	prof = calloc(1, sizeof(*prof));
	TAP_RUN(test_energy_is_busy_time_times_opp_power);
	TAP_RUN(test_run_work_takes_longer_on_slower_cpu);
	TAP_RUN(test_same_seed_gives_identical_run);
	TAP_RUN(test_nice_shares_a_cpu_by_weight);
	TAP_RUN(test_rt_task_preempts_fair_and_runs_on_big_at_top_opp);
	TAP_RUN(test_fifo_runs_to_completion_and_rr_rotates);
	TAP_RUN(test_wake_latency_is_the_wait_for_a_busy_cpu);
	TAP_RUN(test_missed_periods_count_starvation_and_overruns);
	TAP_RUN(test_deadline_tasks_are_refused);
	TAP_RUN(test_trace_is_a_gearbox_stream_with_rate_limited_dvfs);
	TAP_RUN(test_gearbox_sees_only_the_running_tasks_clamps);
	TAP_RUN(test_rework_pushes_a_preempted_stuck_task_at_once);
	TAP_RUN(test_overutilized_flag_waits_for_the_root_balance);
	TAP_RUN(test_rework_charges_the_task_at_its_own_cpus_opp);
	free(prof);
	return tap_done();
}
