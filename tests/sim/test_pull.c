// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_pull.c - gearbox's idle pull in the simulator never undoes a capacity-misfit move, on
 * either host.
 *
 * bench's game_build on gs101 (four compiler jobs that each want most of a big CPU beside a
 * 60 fps game loop) over-utilizes the big and mid domains all the time, which is when idle CPUs
 * of other domains may pull; a ramping task beside it outgrows the little and then the mid
 * CPUs.  The run's decisions are read from its trace (docs/stream.md).  A capacity-misfit move
 * takes a task off a CPU it outgrew; an idle pull that takes it back to a CPU of that capacity
 * or less while it is still too big for it (its utilization alone above 31/32 of that
 * capacity: wake-up placement never puts a task on a CPU it saturates) undoes the move, and
 * the tick moves it up again: ping-pong.  With the starvation pull
 * set beyond the run, every pull asks placement's fit question (gb_may_pull), and none may undo
 * a misfit move; with the default limit the task still goes to the first idle CPU once it has
 * waited a whole tick, which is checked too (throughput is not given up).
 *
 * Usage: test_pull SOURCE_ROOT.
 */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim.h"
#include "tap.h"

static const char *root;
static struct em_profile *gs101;

/* game_build's tasks (bench/workloads/game_build.json) and lisa_ramp_up's ramp, one workload. */
static const char game_build_ramp[] =
    "{\"global\":{\"duration\":4,\"calibration\":100,\"default_policy\":\"SCHED_OTHER\"},\"tasks\":"
    "{"
    "\"game\":{\"loop\":-1,\"run\":6000,\"timer\":{\"ref\":\"vsync\",\"period\":16667}},"
    "\"gfx\":{\"loop\":-1,\"run\":4500,\"timer\":{\"ref\":\"vsync\",\"period\":16667}},"
    "\"audio\":{\"loop\":-1,\"priority\":-10,\"run\":300,"
    "\"timer\":{\"ref\":\"unique\",\"period\":5000}},"
    "\"cc\":{\"instance\":4,\"loop\":-1,\"run\":45000,"
    "\"timer\":{\"ref\":\"unique\",\"period\":50000}},"
    "\"ramp\":{\"loop\":1,\"phases\":{"
    "\"p05\":{\"loop\":50,\"run\":800,\"timer\":{\"ref\":\"ramp\",\"period\":16000}},"
    "\"p35\":{\"loop\":50,\"run\":5600,\"timer\":{\"ref\":\"ramp\",\"period\":16000}},"
    "\"p65\":{\"loop\":50,\"run\":10400,\"timer\":{\"ref\":\"ramp\",\"period\":16000}},"
    "\"p95\":{\"loop\":100,\"run\":15200,\"timer\":{\"ref\":\"ramp\",\"period\":16000}}}}}}";

struct pull_counts {
	unsigned misfit_moves; /* capacity-misfit decisions */
	unsigned undone;       /* of those, followed by an idle pull back down */
	unsigned pulls;	       /* idle pulls */
	unsigned ramp_misfit;  /* capacity-misfit moves of the ramping task */
};

/*
 * Runs the workload under gearbox on the fair host, whose idle pulls are decisions of the trace
 * (the sched_ext host's are not: its tests read its counters), and counts its decisions (false
 * on error).
 */
static bool run_counted(const char *json, u64 pull_after_us, struct pull_counts *n,
			struct sim_result *res)
{
	struct sim_options opt = {.seed = 1, .pull_after_us = pull_after_us, .host = SIM_HOST_FAIR};
	struct workload w = {0};
	struct gb_err err;
	json_t *last[SIM_MAX_REPORT_TASKS + 2] = {0};
	char line[65536];
	FILE *f = tmpfile();
	int ret;

	memset(n, 0, sizeof(*n));
	if (!f || !gs101)
		return false;
	opt.trace = f;
	ret = workload_load_string(json, strlen(json), "game_build_ramp", &w, &err);
	if (!ret)
		ret = sim_run(gs101, &w, SIM_POLICY_GEARBOX, &opt, res, &err);
	workload_free(&w);
	if (ret) {
		printf("# %s\n", err.msg);
		fclose(f);
		return false;
	}
	rewind(f);
	while (fgets(line, sizeof(line), f)) {
		json_t *d = json_loads(line, 0, NULL);
		const char *reason = json_string_value(json_object_get(d, "reason"));
		json_int_t pid = json_integer_value(json_object_get(d, "pid"));
		const char *comm = json_string_value(json_object_get(d, "comm"));

		if (!reason || pid <= 0 || pid > SIM_MAX_REPORT_TASKS + 1) {
			json_decref(d);
			continue;
		}
		if (!strcmp(reason, "capacity_misfit")) {
			n->misfit_moves++;
			n->ramp_misfit += comm && !strcmp(comm, "ramp-0");
		} else if (!strcmp(reason, "idle_pull")) {
			json_t *l = last[pid];

			n->pulls++;
			json_int_t to_cap = json_integer_value(json_object_get(d, "to_cap"));
			json_int_t util = json_integer_value(json_object_get(d, "util"));

			/* back to a CPU no bigger than the one the misfit move left, while
			 * its utilization alone saturates it (above 31/32 of its capacity) */
			if (l &&
			    !strcmp(json_string_value(json_object_get(l, "reason")),
				    "capacity_misfit") &&
			    to_cap <= json_integer_value(json_object_get(l, "from_cap")) &&
			    util * 32 > to_cap * 31)
				n->undone++;
		}
		json_decref(last[pid]);
		last[pid] = d;
	}
	for (unsigned i = 0; i < sizeof(last) / sizeof(last[0]); i++)
		json_decref(last[i]);
	fclose(f);
	printf("# pull_after %llu us: %llu migrations, %u capacity-misfit moves (%u of the ramp), "
	       "%u undone by a pull, %u pulls, work %.3f s\n",
	       (unsigned long long)pull_after_us, (unsigned long long)res->migrations,
	       n->misfit_moves, n->ramp_misfit, n->undone, n->pulls, res->work_s);
	return true;
}

static void test_idle_pull_never_undoes_a_capacity_misfit_move(void)
{
	struct pull_counts n;
	struct sim_result r;

	/* no starvation pull in 4 s: every pull is the fit-checked one */
	CHECK(run_counted(game_build_ramp, 10000000, &n, &r));
	CHECK(n.misfit_moves > 0); /* the case arises: tasks outgrow their CPUs */
	CHECK(n.ramp_misfit > 0);  /* the ramp among them */
	CHECK(n.pulls > 0);	   /* and idle CPUs pull */
	CHECK_EQ_U(n.undone, 0);
}

static void test_a_starving_task_is_pulled_by_any_idle_cpu(void)
{
	struct pull_counts strict, dflt;
	struct sim_result rs, rd;

	CHECK(run_counted(game_build_ramp, 10000000, &strict, &rs));
	CHECK(run_counted(game_build_ramp, 0, &dflt, &rd));
	/* with the default limit a task that waited a whole tick goes to an idle CPU it does not
	 * fit: more pulls, and more work done on an over-loaded SoC than by waiting its turn */
	CHECK(dflt.pulls > strict.pulls);
	CHECK(rd.work_s > rs.work_s);
}

static void test_migrations_per_task_add_up_to_the_run(void)
{
	struct pull_counts n;
	struct sim_result r;
	u64 sum = 0;

	CHECK(run_counted(game_build_ramp, 0, &n, &r));
	for (u32 i = 0; i < r.nr_tasks; i++)
		sum += r.tasks[i].migrations;
	CHECK_EQ_U(sum, r.migrations);
}

/* gearbox on gs101 with game_build_ramp under opt into *r; 0, or a failed check and -1. */
static int run_game_build(const struct sim_options *opt, struct sim_result *r)
{
	struct workload w = {0};
	struct gb_err err = {0};
	int ret = -1;

	if (gs101 &&
	    !workload_load_string(game_build_ramp, sizeof(game_build_ramp) - 1, "gb", &w, &err))
		ret = sim_run(gs101, &w, SIM_POLICY_GEARBOX, opt, r, &err);
	workload_free(&w);
	if (ret)
		printf("# %s\n", gs101 ? err.msg : "no gs101 model");
	CHECK_EQ_I(ret, 0);
	return ret;
}

/*
 * The same on the sched_ext host (sim_scx.c), where the pull is scx_gearbox's dispatch taking
 * the head of another domain's queue (gb_dispatch_plan, gb_may_pull_queue), counted by the
 * host.
 */
static void test_scx_pull_never_undoes_a_capacity_misfit_move(void)
{
	struct sim_options opt = {.seed = 1, .pull_after_us = 10000000, .host = SIM_HOST_SCX};
	struct sim_result r;

	if (run_game_build(&opt, &r))
		return;
	printf("# scx: %llu migrations, %llu misfit moves, %llu pulls, %llu undone\n",
	       (unsigned long long)r.migrations, (unsigned long long)r.misfit_moves,
	       (unsigned long long)r.pulls, (unsigned long long)r.misfit_undone);
	CHECK(r.misfit_moves > 0);
	CHECK(r.pulls > 0);
	CHECK_EQ_U(r.misfit_undone, 0);
}

/*
 * On the sched_ext host an idle CPU runs dispatch only when something wakes it.  With mid and
 * big over-utilized by the compile tasks and the game, their queues fill while little idles:
 * an enqueue on an over-utilized domain with no idle CPU of its own wakes an idle CPU of
 * another domain where the task fits (gb_kick_cpu), whose dispatch pulls it.  Waking only the
 * queue's own domain leaves little 4.4% busy and 415 activations late (19.2% and 376 with the
 * kick; new tasks start with half their CPU's spare capacity, so fewer of the compile tasks
 * fit little than when they started at 0, when the kick gave 32.9% against 6.7%).  Bound: 12%,
 * between the two.
 */
static void test_scx_wakes_an_idle_cpu_of_another_domain_that_may_pull(void)
{
	struct sim_options opt = {.seed = 1, .host = SIM_HOST_SCX};
	struct sim_result r;

	if (run_game_build(&opt, &r))
		return;
	printf("# scx: little %.1f%% busy, mid %.1f%%, big %.1f%%; %llu pulls, %llu late\n",
	       r.domains[0].busy_pct, r.domains[1].busy_pct, r.domains[2].busy_pct,
	       (unsigned long long)r.pulls, (unsigned long long)r.late);
	CHECK(r.domains[0].busy_pct > 12);
}

/*
 * A pull from another domain's queue is a decision in the trace (idle_pull, from the CPU it
 * waited for to the CPU that took it), as scx_gearbox records it: without the record, a task
 * that reached a domain only by a pull and stayed there showed no decision at all.  Every record
 * is one of the host's counted pulls (some pulls leave no record: a task queued on a misfit
 * target's domain and taken by the CPU it still is on).
 */
static void test_scx_pull_is_traced_as_an_idle_pull(void)
{
	struct sim_options opt = {.seed = 1, .host = SIM_HOST_SCX};
	unsigned traced = 0, moved = 0;
	struct sim_result r;
	char line[65536];

	opt.trace = tmpfile();
	if (!opt.trace || run_game_build(&opt, &r)) {
		CHECK(opt.trace != NULL);
		if (opt.trace)
			fclose(opt.trace);
		return;
	}
	rewind(opt.trace);
	while (fgets(line, sizeof(line), opt.trace)) {
		json_t *d = json_loads(line, 0, NULL);
		const char *reason = json_string_value(json_object_get(d, "reason"));

		if (reason && !strcmp(reason, "idle_pull")) {
			traced++;
			moved += json_integer_value(json_object_get(d, "from")) !=
				 json_integer_value(json_object_get(d, "to"));
		}
		json_decref(d);
	}
	fclose(opt.trace);
	printf("# scx: %u idle_pull decisions traced, %llu pulls counted\n", traced,
	       (unsigned long long)r.pulls);
	CHECK(traced > 0);
	CHECK(traced <= r.pulls);
	CHECK_EQ_U(moved, traced);
}

int main(int argc, char **argv)
{
	char path[4096];
	struct gb_err err;

	if (argc != 2) {
		fprintf(stderr, "usage: test_pull SOURCE_ROOT\n");
		return 2;
	}
	root = argv[1];
	snprintf(path, sizeof(path), "%s/em-profiles/gs101.json", root);
	gs101 = calloc(1, sizeof(*gs101));
	if (gs101 && em_profile_load_file(path, gs101, false, NULL, &err)) {
		printf("# %s\n", err.msg);
		free(gs101);
		gs101 = NULL;
	}
	TAP_RUN(test_idle_pull_never_undoes_a_capacity_misfit_move);
	TAP_RUN(test_a_starving_task_is_pulled_by_any_idle_cpu);
	TAP_RUN(test_migrations_per_task_add_up_to_the_run);
	TAP_RUN(test_scx_pull_never_undoes_a_capacity_misfit_move);
	TAP_RUN(test_scx_wakes_an_idle_cpu_of_another_domain_that_may_pull);
	TAP_RUN(test_scx_pull_is_traced_as_an_idle_pull);
	free(gs101);
	return tap_done();
}
