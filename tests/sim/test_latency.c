// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_latency.c - latency in the simulator: a task's own slice (the workload's slice_us) in
 * both hosts, what the report measures per task (wake-up latency, late frames), and the
 * sched_ext host's frequency-invariant virtual time and slice-aware grouping, on the one-OPP
 * "tri" model (little CPUs 0-3 at perf 100, mid 4-6 at 500, big 7 at 1024).
 *
 * Each slice case runs the same workload with and without slice_us and asserts the
 * difference, so it fails when the slice is ignored.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim.h"
#include "sim_test_run.h"
#include "tap.h"

static struct em_profile *prof;

/* The result of the task named name (rt-app names a thread NAME-INSTANCE: "p-0") */
static const struct sim_task_result *task_of(const struct sim_result *r, const char *name)
{
	for (u32 i = 0; i < r->nr_tasks; i++)
		if (!strcmp(r->tasks[i].name, name))
			return &r->tasks[i];
	return NULL;
}

/* Runs json under pol on host into *r; returns task name's result, NULL on failure. */
static const struct sim_task_result *run_task(const char *json, enum sim_policy_id pol,
					      enum sim_host host, const char *name,
					      struct sim_result *r)
{
	struct sim_options opt = {.host = host};

	return st_run_text(prof, json, pol, &opt, r) ? NULL : task_of(r, name);
}

/* Runs json under pol with *opt and returns task name's p99 wake-up latency, -1 on failure. */
static double p99_opt(const char *json, enum sim_policy_id pol, struct sim_options *opt,
		      const char *name)
{
	struct sim_result *r = calloc(1, sizeof(*r));
	const struct sim_task_result *t;
	double p99 = -1;

	if (r && !st_run_text(prof, json, pol, opt, r) && (t = task_of(r, name)) && t->wakeups > 50)
		p99 = t->wake_lat_p99_us;
	free(r);
	return p99;
}

/* Runs json under pol on host and returns task name's p99 wake-up latency, -1 on failure. */
static double p99_of(const char *json, enum sim_policy_id pol, enum sim_host host, const char *name)
{
	struct sim_options opt = {.host = host};

	return p99_opt(json, pol, &opt, name);
}

/* gearbox on the sched_ext host, wake-up preemption in mode mode: name's p99. */
static double p99_mode(const char *json, enum sim_preempt mode, const char *name)
{
	struct sim_options opt = {.host = SIM_HOST_SCX, .wake_preempt = mode};

	return p99_opt(json, SIM_POLICY_GEARBOX, &opt, name);
}

/* gearbox on the sched_ext host, wake-up preemption on (on true) or off: name's p99. */
static double p99_preempt(const char *json, bool on, const char *name)
{
	return p99_mode(json, on ? SIM_PREEMPT_ON : SIM_PREEMPT_OFF, name);
}

/*
 * A periodic task beside a CPU hog on one CPU: its own 0.1 ms slice makes its virtual
 * deadline nearer than the hog's (vruntime + slice x 1024 / weight), so at each wake-up it
 * preempts the hog at once.  With the default 3 ms slice its deadline is mostly later than
 * the hog's and it waits for the tick, as equal weights do.
 */
static void test_short_slice_preempts_at_wakeup_in_the_fair_host(void)
{
#define SHORT_WL(slice)                                                                            \
	"{\"global\":{\"duration\":1,\"calibration\":\"CPU0\"},\"tasks\":{"                        \
	"\"p\":{\"cpus\":[0],\"loop\":-1," slice "\"run\":200,\"timer\":{\"ref\":\"t\","           \
	"\"period\":10000}},"                                                                      \
	"\"h\":{\"cpus\":[0],\"run\":5000000}}}"
	static const char with[] = SHORT_WL("\"slice_us\":100,"), without[] = SHORT_WL("");
	double p99 = p99_of(with, SIM_POLICY_MAINLINE, SIM_HOST_FAIR, "p-0"),
	       p99_dfl = p99_of(without, SIM_POLICY_MAINLINE, SIM_HOST_FAIR, "p-0");

	printf("# p's p99 wake-up latency: slice 0.1 ms %.0f us, default slice %.0f us\n", p99,
	       p99_dfl);
	CHECK(p99 >= 0 && p99 <= 10);
	CHECK(p99_dfl > 1000);
#undef SHORT_WL
}

/*
 * A long slice is run out before the tick rotates its task: EEVDF reschedules the running task
 * only once its request is used up.  A periodic task and a hog on one CPU, both with their own
 * 20 ms slice: the woken task's deadline is no earlier than the hog's, so it waits until the
 * hog has run its 20 ms; with the default 3 ms slices the tick (4 ms) rotates them.
 */
static void test_long_slice_is_run_out_before_the_tick_rotates_it(void)
{
#define RUN_OUT_WL(slice)                                                                          \
	"{\"global\":{\"duration\":2,\"calibration\":\"CPU0\"},\"tasks\":{"                        \
	"\"p\":{\"cpus\":[0],\"loop\":-1," slice "\"run\":200,\"timer\":{\"ref\":\"t\","           \
	"\"period\":10000}},"                                                                      \
	"\"h\":{\"cpus\":[0]," slice "\"run\":5000000}}}"
	static const char with[] = RUN_OUT_WL("\"slice_us\":20000,"), without[] = RUN_OUT_WL("");
	double p99 = p99_of(with, SIM_POLICY_MAINLINE, SIM_HOST_FAIR, "p-0"),
	       p99_dfl = p99_of(without, SIM_POLICY_MAINLINE, SIM_HOST_FAIR, "p-0");

	printf("# p's p99 wake-up latency: 20 ms slices %.0f us, default slices %.0f us\n", p99,
	       p99_dfl);
	CHECK(p99 > 8000);
	CHECK(p99_dfl >= 0 && p99_dfl <= 4000);
#undef RUN_OUT_WL
}

/*
 * The same periodic task beside a hog on the sched_ext host: with --wake-preempt off scx_gearbox
 * does not preempt at wake-up, so the task waits for the hog's slice to run out.  With
 * the hog's own 20 ms slice (its p->se.slice, which scx_gearbox gives it) the wait reaches past the
 * default 5 ms slice's two ticks; with the default it stays within them.
 */
static void test_wakeup_waits_behind_a_long_slice_in_the_scx_host(void)
{
#define LONG_WL(slice)                                                                             \
	"{\"global\":{\"duration\":2,\"calibration\":\"CPU0\"},\"tasks\":{"                        \
	"\"p\":{\"cpus\":[0],\"loop\":-1,\"run\":1000,\"timer\":{\"ref\":\"t\",\"period\":"        \
	"10000}},"                                                                                 \
	"\"h\":{\"cpus\":[0]," slice "\"run\":5000000}}}"
	static const char with[] = LONG_WL("\"slice_us\":20000,"), without[] = LONG_WL("");
	double p99 = p99_preempt(with, false, "p-0"), p99_dfl = p99_preempt(without, false, "p-0");

	printf(
	    "# p's p99 wake-up latency beside the hog: its slice 20 ms %.0f us, default %.0f us\n",
	    p99, p99_dfl);
	CHECK(p99 > 12000);
	CHECK(p99_dfl >= 0 && p99_dfl <= 8100);
#undef LONG_WL
}

/*
 * With wake-up preemption on (gb_preempt.h), the same periodic task beside the hog preempts
 * it when the hog's deadline is later than its own by more than its own span: with the hog's
 * own 20 ms slice, the task's default slice makes its deadline that much earlier and it runs
 * at once (through the local-queue shortcut of a task allowed on one CPU: SCX_ENQ_PREEMPT);
 * with the hog at the default slice too (equal weights and slices) it waits for the hog's
 * slice to run out, as it does with preemption off.
 */
static void test_wakeup_preempts_a_long_slice_with_wake_preempt_on(void)
{
#define PRE_WL(slice)                                                                              \
	"{\"global\":{\"duration\":2,\"calibration\":\"CPU0\"},\"tasks\":{"                        \
	"\"p\":{\"cpus\":[0],\"loop\":-1,\"run\":1000,\"timer\":{\"ref\":\"t\",\"period\":"        \
	"10000}},"                                                                                 \
	"\"h\":{\"cpus\":[0]," slice "\"run\":5000000}}}"
	static const char with[] = PRE_WL("\"slice_us\":20000,"), without[] = PRE_WL("");
	double p99 = p99_preempt(with, true, "p-0"), p99_off = p99_preempt(with, false, "p-0"),
	       p99_dfl = p99_preempt(without, true, "p-0");

	printf("# p's p99 wake-up latency beside the hog with its 20 ms slice: %.0f us, %.0f us "
	       "with preemption off; beside a default-slice hog %.0f us\n",
	       p99, p99_off, p99_dfl);
	CHECK(p99 >= 0 && p99 <= 100);
	CHECK(p99_off > 12000);
	CHECK(p99_dfl > 2000 && p99_dfl <= 8100);
#undef PRE_WL
}

/*
 * With wake-up preemption on, a heavier task preempts at a wake-up: an echo canceller at nice
 * -16 (1.2 ms every 10 ms) beside three nice 0 hogs on the three mid CPUs, all with the
 * default slice.  Its span is a thirty-fifth of a hog's, so its deadline is earlier by more
 * than its span whenever a hog started its slice less than a slice ago: it runs at once, where
 * with preemption off, or at nice 0, it waits for a hog's slice.
 */
static void test_a_heavier_task_preempts_with_wake_preempt_on(void)
{
#define NICE_WL(prio)                                                                              \
	"{\"global\":{\"duration\":2,\"calibration\":\"CPU4\"},\"tasks\":{"                        \
	"\"aec\":{\"cpus\":[4,5,6],\"loop\":-1," prio "\"run\":1200,\"timer\":{\"ref\":\"t\","     \
	"\"period\":10000}},"                                                                      \
	"\"h\":{\"instance\":3,\"cpus\":[4,5,6],\"run\":5000000}}}"
	static const char heavy[] = NICE_WL("\"priority\":-16,"), nice0[] = NICE_WL("");
	double p99 = p99_preempt(heavy, true, "aec-0"),
	       p99_off = p99_preempt(heavy, false, "aec-0"),
	       p99_0 = p99_preempt(nice0, true, "aec-0");

	printf("# aec's p99 wake-up latency beside three hogs: nice -16 %.0f us (%.0f us with "
	       "preemption off), nice 0 %.0f us\n",
	       p99, p99_off, p99_0);
	CHECK(p99 >= 0 && p99 <= 100);
	CHECK(p99_off > 1000);
	CHECK(p99_0 > 1000);
#undef NICE_WL
}

/*
 * The default mode, latency (gb_preempt_wants): only a latency-critical task preempts.  Beside
 * a hog with its own 20 ms slice, a nice 0 periodic task with the default slice waits for the
 * hog's slice as with preemption off (with on it preempts: the test above); at nice -16, or
 * with a custom 1 ms slice, it preempts at once.
 */
static void test_latency_mode_preempts_for_latency_critical_tasks_only(void)
{
#define LAT_WL(attr)                                                                               \
	"{\"global\":{\"duration\":2,\"calibration\":\"CPU0\"},\"tasks\":{"                        \
	"\"p\":{\"cpus\":[0],\"loop\":-1," attr "\"run\":1000,\"timer\":{\"ref\":\"t\","           \
	"\"period\":10000}},"                                                                      \
	"\"h\":{\"cpus\":[0],\"slice_us\":20000,\"run\":5000000}}}"
	static const char plain[] = LAT_WL(""), heavy[] = LAT_WL("\"priority\":-16,"),
			  short_slice[] = LAT_WL("\"slice_us\":1000,");
	double p99_plain = p99_mode(plain, SIM_PREEMPT_LATENCY, "p-0"),
	       p99_heavy = p99_mode(heavy, SIM_PREEMPT_LATENCY, "p-0"),
	       p99_short = p99_mode(short_slice, SIM_PREEMPT_LATENCY, "p-0"),
	       p99_dfl = p99_mode(heavy, SIM_PREEMPT_DEFAULT, "p-0");

	printf("# p's p99 wake-up latency beside a 20 ms-slice hog, latency mode: nice 0 %.0f us, "
	       "nice -16 %.0f us (%.0f us by default), a 1 ms slice %.0f us\n",
	       p99_plain, p99_heavy, p99_dfl, p99_short);
	CHECK(p99_plain > 12000);
	CHECK(p99_heavy >= 0 && p99_heavy <= 100);
	CHECK(p99_dfl >= 0 && p99_dfl <= 100);
	CHECK(p99_short >= 0 && p99_short <= 100);
#undef LAT_WL
}

/*
 * A frame that cannot finish in its period is counted late, one per activation: 20 ms of
 * work every 16.7 ms on CPU 0; the frame that fits (5 ms) never is.
 */
static void test_a_frame_that_cannot_finish_is_counted_late(void)
{
	static const char json[] =
	    "{\"global\":{\"duration\":1,\"calibration\":\"CPU0\"},\"tasks\":{"
	    "\"over\":{\"cpus\":[0],\"loop\":-1,\"run\":20000,\"timer\":{\"ref\":\"a\",\"period\":"
	    "16667}},"
	    "\"fits\":{\"cpus\":[1],\"loop\":-1,\"run\":5000,\"timer\":{\"ref\":\"b\",\"period\":"
	    "16667}}}}";
	struct sim_options opt = {.host = SIM_HOST_SCX};
	struct sim_result *r = calloc(1, sizeof(*r));
	const struct sim_task_result *over, *fits;

	CHECK(r != NULL);
	if (!r)
		return;
	CHECK_EQ_I(st_run_text(prof, json, SIM_POLICY_GEARBOX, &opt, r), 0);
	over = task_of(r, "over-0");
	fits = task_of(r, "fits-0");
	CHECK(over && fits);
	if (over && fits) {
		printf("# over: %llu late of %llu; fits: %llu late of %llu\n",
		       (unsigned long long)over->late, (unsigned long long)over->activations,
		       (unsigned long long)fits->late, (unsigned long long)fits->activations);
		CHECK(over->activations >= 40 && over->late == over->activations);
		CHECK(fits->activations >= 55 && fits->late == 0);
	}
	free(r);
}

/*
 * Frequency-invariant virtual time on the sched_ext host: the same work (20 ms at capacity
 * 1024) done alone on a little CPU (perf 100: a small core at a low OPP, 205 ms of running)
 * and on the big CPU (perf 1024, 20 ms) is charged the same virtual time by scx_gearbox
 * (run time x perf / 1024), so a task served slowly is not pushed behind the others for it.
 * Charged by run time, the little CPU's task would owe ten times as much.
 */
static void test_slow_cpu_charges_no_more_vtime_for_the_same_work(void)
{
	static const char json[] = "{\"global\":{\"calibration\":\"CPU7\"},\"tasks\":{"
				   "\"l\":{\"cpus\":[0],\"loop\":1,\"run\":20000},"
				   "\"b\":{\"cpus\":[7],\"loop\":1,\"run\":20000}}}";
	struct sim_options opt = {.host = SIM_HOST_SCX};
	struct sim_result *r = calloc(1, sizeof(*r));
	const struct sim_task_result *l, *b;

	CHECK(r != NULL);
	if (!r)
		return;
	CHECK_EQ_I(st_run_text(prof, json, SIM_POLICY_GEARBOX, &opt, r), 0);
	l = task_of(r, "l-0");
	b = task_of(r, "b-0");
	CHECK(l && b);
	if (l && b) {
		printf(
		    "# little: ran %llu us, charged %llu ns; big: ran %llu us, charged %llu ns\n",
		    (unsigned long long)st_run_total(r, (u32)(l - r->tasks)),
		    (unsigned long long)l->vtime_charged_ns,
		    (unsigned long long)st_run_total(r, (u32)(b - r->tasks)),
		    (unsigned long long)b->vtime_charged_ns);
		CHECK(st_run_total(r, (u32)(l - r->tasks)) >
		      8 * st_run_total(r, (u32)(b - r->tasks)));
		CHECK(b->vtime_charged_ns >= 19000000);
		CHECK(l->vtime_charged_ns * 100 <= b->vtime_charged_ns * 101);
	}
	free(r);
}

/*
 * Preemptions are counted where a running task gives way while runnable.  On the fair class a
 * periodic task with a 0.1 ms slice preempts the hog at each of its wake-ups (about 100 in
 * 1 s); on the sched_ext host with --wake-preempt off nothing preempts at a wake-up, and the hog
 * with its own 20 ms slice gives way only at the ends of its slices where the periodic task
 * waits (at most one in 20 ms).  The periodic task runs 0.2 ms and sleeps: it is never preempted.
 */
static void test_preemptions_are_counted_per_task(void)
{
	static const char json[] =
	    "{\"global\":{\"duration\":1,\"calibration\":\"CPU0\"},\"tasks\":{"
	    "\"p\":{\"cpus\":[0],\"loop\":-1,\"slice_us\":100,\"run\":200,\"timer\":{\"ref\":"
	    "\"t\",\"period\":10000}},"
	    "\"h\":{\"cpus\":[0],\"slice_us\":20000,\"run\":5000000}}}";
	struct sim_options opt = {.host = SIM_HOST_SCX};
	struct sim_result *r = calloc(1, sizeof(*r));
	const struct sim_task_result *h, *p;

	CHECK(r != NULL);
	if (!r)
		return;
	h = run_task(json, SIM_POLICY_MAINLINE, SIM_HOST_FAIR, "h-0", r);
	p = task_of(r, "p-0");
	CHECK(h && p);
	if (h && p) {
		printf("# fair class: hog preempted %llu times, p %llu (%llu wake-ups)\n",
		       (unsigned long long)h->preemptions, (unsigned long long)p->preemptions,
		       (unsigned long long)p->wakeups);
		CHECK(h->preemptions >= 90 && h->preemptions <= p->wakeups && p->preemptions == 0);
	}
	opt.wake_preempt = SIM_PREEMPT_OFF;
	h = st_run_text(prof, json, SIM_POLICY_GEARBOX, &opt, r) ? NULL : task_of(r, "h-0");
	p = task_of(r, "p-0");
	CHECK(h && p);
	if (h && p) {
		printf("# sched_ext host: hog preempted %llu times, p %llu\n",
		       (unsigned long long)h->preemptions, (unsigned long long)p->preemptions);
		CHECK(h->preemptions >= 30 && h->preemptions <= 51 && p->preemptions == 0);
	}
	/* with wake-up preemption on, at each wake-up as on the fair class (gb_preempt.h) */
	opt.wake_preempt = SIM_PREEMPT_ON;
	h = st_run_text(prof, json, SIM_POLICY_GEARBOX, &opt, r) ? NULL : task_of(r, "h-0");
	p = task_of(r, "p-0");
	CHECK(h && p);
	if (h && p) {
		printf(
		    "# sched_ext host, wake-up preemption on: hog preempted %llu times, p %llu\n",
		    (unsigned long long)h->preemptions, (unsigned long long)p->preemptions);
		CHECK(h->preemptions >= 90 && h->preemptions <= p->wakeups && p->preemptions == 0);
	}
	free(r);
}

/*
 * Slice-aware grouping on the sched_ext host (gb_group.h): three long-slice tasks (20 ms
 * slices, 6 ms of each 10 ms) on the mid CPUs and a short task allowed on mid and big.  By
 * price the short task goes to mid (a third of big's cost per unit of work) and, when the three
 * mid CPUs are busy, waits in mid's queue until one of the long tasks sleeps; grouped, it goes
 * to the idle big CPU instead: no domain with room keeps it waiting behind a long slice.  Both
 * without wake-up preemption, which would let the short task preempt a long one instead.
 */
static void test_grouping_keeps_a_short_task_from_waiting_behind_long_slices(void)
{
	static const char json[] =
	    "{\"global\":{\"duration\":2,\"calibration\":\"CPU4\"},\"tasks\":{"
	    "\"l\":{\"instance\":3,\"cpus\":[4,5,6],\"loop\":-1,\"slice_us\":20000,"
	    "\"run\":6000,\"timer\":{\"ref\":\"unique\",\"period\":10000}},"
	    "\"p\":{\"cpus\":[4,5,6,7],\"loop\":-1,\"run\":300,\"timer\":{\"ref\":"
	    "\"unique\",\"period\":4000}}}}";
	struct sim_options off = {
	    .host = SIM_HOST_SCX, .group_slices = SIM_GROUP_OFF, .wake_preempt = SIM_PREEMPT_OFF};
	struct sim_options on = {
	    .host = SIM_HOST_SCX, .group_slices = SIM_GROUP_ON, .wake_preempt = SIM_PREEMPT_OFF};
	struct sim_result *r = calloc(1, sizeof(*r));
	const struct sim_task_result *p;
	double p99_off = -1, p99_on = -1;
	u64 big_off = 0, big_on = 0;

	CHECK(r != NULL);
	if (!r)
		return;
	if (!st_run_text(prof, json, SIM_POLICY_GEARBOX, &off, r) && (p = task_of(r, "p-0"))) {
		p99_off = p->wake_lat_p99_us;
		big_off = p->run_us[2];
	}
	if (!st_run_text(prof, json, SIM_POLICY_GEARBOX, &on, r) && (p = task_of(r, "p-0"))) {
		p99_on = p->wake_lat_p99_us;
		big_on = p->run_us[2];
	}
	printf("# short task: p99 wake-up latency %.0f us, %llu us on big without grouping; "
	       "%.0f us, %llu us on big with it\n",
	       p99_off, (unsigned long long)big_off, p99_on, (unsigned long long)big_on);
	CHECK(p99_off > 2000);
	CHECK(p99_on >= 0 && p99_on <= 500);
	CHECK(big_on > big_off);
	free(r);
}

/*
 * Slice-aware grouping at slice expiry (gb_group_keep): a task with a 10 ms slice that runs
 * 12 ms of every 30 ms, beside three short tasks (2 ms every 5 ms), all on mid CPUs 4 and 5.
 * At the end of its 10 ms slice short tasks wait in mid's queue with earlier deadlines: without
 * grouping one of them takes its CPU at about every other frame; grouped, it keeps the CPU
 * while CPU 5 runs the short tasks, which take no more late periods for it.
 */
static void test_grouping_keeps_a_long_slice_running_at_its_slices_end(void)
{
	static const char json[] =
	    "{\"global\":{\"duration\":3,\"calibration\":\"CPU4\"},\"tasks\":{"
	    "\"u\":{\"cpus\":[4,5],\"loop\":-1,\"slice_us\":10000,\"run\":12000,"
	    "\"timer\":{\"ref\":\"u\",\"period\":30000}},"
	    "\"b\":{\"instance\":3,\"cpus\":[4,5],\"loop\":-1,\"run\":2000,\"timer\":{"
	    "\"ref\":\"unique\",\"period\":5000}}}}";
	struct sim_options off = {.host = SIM_HOST_SCX, .group_slices = SIM_GROUP_OFF};
	struct sim_options on = {.host = SIM_HOST_SCX, .group_slices = SIM_GROUP_ON};
	struct sim_result *r = calloc(1, sizeof(*r));
	u64 pre[2] = {0, 0}, wakeups[2] = {0, 0}, late[2] = {0, 0};
	struct sim_options *opt[2] = {&off, &on};

	CHECK(r != NULL);
	if (!r)
		return;
	for (u32 k = 0; k < 2; k++) {
		const struct sim_task_result *u;

		if (st_run_text(prof, json, SIM_POLICY_GEARBOX, opt[k], r) ||
		    !(u = task_of(r, "u-0")))
			continue;
		pre[k] = u->preemptions;
		wakeups[k] = u->wakeups;
		for (u32 i = 0; i < r->nr_tasks; i++)
			if (r->tasks[i].name[0] == 'b')
				late[k] += r->tasks[i].late;
	}
	printf("# long task: preempted %llu times in %llu wake-ups without grouping, %llu in %llu "
	       "with it; short tasks' late periods %llu and %llu\n",
	       (unsigned long long)pre[0], (unsigned long long)wakeups[0],
	       (unsigned long long)pre[1], (unsigned long long)wakeups[1],
	       (unsigned long long)late[0], (unsigned long long)late[1]);
	CHECK(wakeups[0] >= 90 && wakeups[1] >= 90);
	CHECK(pre[0] >= 30);
	CHECK(pre[1] * 4 <= pre[0]);
	CHECK(late[1] <= late[0] + late[0] / 4 + 2);
	free(r);
}

int main(void)
{
	prof = calloc(1, sizeof(*prof));
	if (!prof)
		return 1;
	st_flat_profile(prof);
	TAP_RUN(test_short_slice_preempts_at_wakeup_in_the_fair_host);
	TAP_RUN(test_long_slice_is_run_out_before_the_tick_rotates_it);
	TAP_RUN(test_wakeup_waits_behind_a_long_slice_in_the_scx_host);
	TAP_RUN(test_wakeup_preempts_a_long_slice_with_wake_preempt_on);
	TAP_RUN(test_a_heavier_task_preempts_with_wake_preempt_on);
	TAP_RUN(test_latency_mode_preempts_for_latency_critical_tasks_only);
	TAP_RUN(test_a_frame_that_cannot_finish_is_counted_late);
	TAP_RUN(test_slow_cpu_charges_no_more_vtime_for_the_same_work);
	TAP_RUN(test_preemptions_are_counted_per_task);
	TAP_RUN(test_grouping_keeps_a_short_task_from_waiting_behind_long_slices);
	TAP_RUN(test_grouping_keeps_a_long_slice_running_at_its_slices_end);
	free(prof);
	return tap_done();
}
