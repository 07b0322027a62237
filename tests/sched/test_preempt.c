// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_preempt.c - wake-up preemption (src/policy/gb_preempt.h), the functions both hosts
 * call: the running task's deadline noted when its slice starts (gb_preempt_note), the margin a
 * woken task's deadline must beat it by (gb_enqueue_plan's preempt_dl: its deadline plus its
 * own span), the victim (gb_preempt_cpu: the latest deadline of the domain, among CPUs not
 * already kicked, in the task's affinity), the local-queue shortcut's one candidate
 * (gb_preempt_local), and the frequency request counting the running task's wait
 * (gb_cpu_freq_util).  On tests/sched/vm4.json: CPUs 0-1 little (286), CPU 2 mid (876), CPU 3
 * big (1024).
 *
 *   test_preempt TESTS_SCHED_DIR
 */
#include <stdio.h>
#include <string.h>

#include "../unit/tap.h"
#include "em_profile.h"
#include "gb_policy.h"

#define MS	  1000000ull
#define SLICE_NS  (5 * MS)
#define LITTLE	  0
#define PERF_LIT  286
#define NICE_M16  3544 /* p->scx.weight at nice -16 (36291 x 100 / 1024) */
#define NICE_P10  11   /* at nice 10 (110 x 100 / 1024, rounded) */
#define CLOCK_NOW (1000 * MS)

static struct em_model g_m;
static struct gb_cpu g_cpus[EM_MAX_CPUS];
static u64 g_clock[EM_MAX_DOMAINS];

/* Every CPU online and idle, little at perf 286, the others at their top; clocks at CLOCK_NOW. */
static void idle_machine(void)
{
	memset(g_cpus, 0, sizeof(g_cpus));
	for (u32 d = 0; d < EM_MAX_DOMAINS; d++)
		g_clock[d] = CLOCK_NOW;
	for (u32 c = 0; c < g_m.nr_cpus; c++) {
		g_cpus[c].online = 1;
		g_cpus[c].idle = 1;
		g_cpus[c].perf_cur = g_m.cpu_domain[c] == LITTLE ? PERF_LIT : 1024;
	}
}

static void all_cpus(struct em_cpumask *mask)
{
	memset(mask, 0, sizeof(*mask));
	for (u32 c = 0; c < g_m.nr_cpus; c++)
		em_cpumask_set(mask, c);
}

/* A task of weight w (and its own slice slice_ns, 0: the default) at vtime on little's clock. */
static void task_at(struct gb_tstate *ts, u32 w, u64 slice_ns, u64 vtime)
{
	gb_track_init(ts);
	ts->weight = w;
	ts->slice_ns = slice_ns;
	ts->vdom = LITTLE;
	ts->vtime = vtime;
}

/* ts's task starts a slice on little CPU c, as ops.running notes it. */
static void runs_on(u32 c, const struct gb_tstate *ts)
{
	gb_track_curr(&g_cpus[c], ts);
	gb_preempt_note(&g_cpus[c], ts, LITTLE, g_m.nr_domains, g_clock, SLICE_NS, PERF_LIT);
}

/* ts's task wakes up and is queued on little (CPU 0): gb_enqueue_plan's answer. */
static void wakes(struct gb_tstate *ts, struct gb_enq_out *out)
{
	struct gb_enq_in in = {.task_cpu = 0,
			       .wakeup = 1,
			       .may_kick = 1,
			       .preempt = GB_PREEMPT_ON,
			       .now_ns = CLOCK_NOW};

	all_cpus(&in.allowed);
	gb_enqueue_plan(&g_m, g_cpus, g_clock, SLICE_NS, ts, &in, out);
}

/* The CPU a task woken as out says preempts on little, for a task allowed everywhere. */
static s32 victim(const struct gb_enq_out *out)
{
	struct em_cpumask allowed;

	all_cpus(&allowed);
	CHECK(out->preempt);
	CHECK_EQ_U(out->queue, GB_QUEUE_DOMAIN);
	return gb_preempt_cpu(&g_m, g_cpus, &allowed, out->dom, out->preempt_dl);
}

/*
 * Two nice 0 tasks run on little's two CPUs, one started at the clock, the other half a slice
 * behind it (it had waited).  A nice -16 task that slept wakes: its deadline is earlier than
 * both by more than its own span, and it preempts the one whose deadline is the latest (CPU 0,
 * started at the clock).  At nice 0 it preempts neither: they started no later than the clock,
 * so their deadlines are at most one span past it, its own deadline plus its span.
 */
static void test_a_heavier_task_preempts_the_latest_deadline(void)
{
	u64 span = gb_vtime_span(SLICE_NS, PERF_LIT, GB_WEIGHT_DFL);
	struct gb_tstate a, b, w;
	struct gb_enq_out out;

	idle_machine();
	task_at(&a, GB_WEIGHT_DFL, 0, CLOCK_NOW);
	task_at(&b, GB_WEIGHT_DFL, 0, CLOCK_NOW - span / 2);
	runs_on(0, &a);
	runs_on(1, &b);
	CHECK(g_cpus[0].preemptible && g_cpus[1].preemptible);
	CHECK(g_cpus[0].curr_deadline == CLOCK_NOW + span);
	task_at(&w, NICE_M16, 0, 0); /* a sleeper: its credit is limited at the enqueue */
	wakes(&w, &out);
	CHECK(out.preempt_dl == out.deadline + gb_vtime_span(SLICE_NS, PERF_LIT, NICE_M16));
	CHECK_EQ_I(victim(&out), 0);
	task_at(&w, GB_WEIGHT_DFL, 0, 0);
	wakes(&w, &out);
	CHECK_EQ_I(victim(&out), GB_NO_CPU);
}

/*
 * Equal weights and slices never preempt, also against a task dispatch kept for another slice:
 * its vtime is then a whole span past the clock (the clock is where its run started), and its
 * deadline is noted as if it started at the clock.
 */
/*
 * A nice 0 task that slept, woke with its credit (gb_track_wake) and started its slice is
 * preempted by a nice -16 task waking just after: with a whole span of credit the nice 0
 * sleeper's deadline was the clock itself, no later than the nice -16 task's deadline plus its
 * span, and video_call's echo canceller (nice -16) waited behind the UI and render threads of
 * the same vsync and was late where mainline's was not.
 */
static void test_a_heavier_task_preempts_a_sleeper_that_just_started(void)
{
	struct gb_tstate a, w;
	struct gb_enq_out out;

	idle_machine();
	task_at(&a, GB_WEIGHT_DFL, 0, 0);
	gb_track_wake(&a, CLOCK_NOW, g_m.nr_domains, g_clock, SLICE_NS, PERF_LIT);
	runs_on(0, &a);
	task_at(&w, NICE_M16, 0, 0);
	gb_track_wake(&w, CLOCK_NOW, g_m.nr_domains, g_clock, SLICE_NS, PERF_LIT);
	wakes(&w, &out);
	CHECK_EQ_I(victim(&out), 0);
}

static void test_equal_weights_and_slices_never_preempt(void)
{
	u64 span = gb_vtime_span(SLICE_NS, PERF_LIT, GB_WEIGHT_DFL);
	struct gb_tstate a, b, w;
	struct gb_enq_out out;

	idle_machine();
	task_at(&a, GB_WEIGHT_DFL, 0, CLOCK_NOW + span); /* kept: one slice on */
	task_at(&b, GB_WEIGHT_DFL, 0, CLOCK_NOW + 3 * span);
	runs_on(0, &a);
	runs_on(1, &b);
	CHECK(g_cpus[0].curr_deadline == CLOCK_NOW + span);
	CHECK(g_cpus[1].curr_deadline == CLOCK_NOW + span);
	task_at(&w, GB_WEIGHT_DFL, 0, 0);
	wakes(&w, &out);
	CHECK_EQ_I(victim(&out), GB_NO_CPU);
	/* a nice 10 task running there is preempted by the same nice 0 sleeper */
	task_at(&b, NICE_P10, 0, CLOCK_NOW);
	runs_on(1, &b);
	CHECK_EQ_I(victim(&out), 1);
}

/*
 * A task with the default 5 ms slice preempts one that asked for 10 ms (a UI thread's frame)
 * while that one started its slice less than half a default span before the clock, and not
 * once the domain's clock has moved a whole span past its start: the shorter slice's deadline
 * plus its span is earlier by the difference of their spans, less half a span (its credit is
 * half a span), less the time since.
 */
static void test_a_shorter_slice_preempts_early_in_a_long_one(void)
{
	u64 span = gb_vtime_span(SLICE_NS, PERF_LIT, GB_WEIGHT_DFL);
	struct gb_tstate ui, w;
	struct gb_enq_out out;

	idle_machine();
	task_at(&ui, GB_WEIGHT_DFL, 2 * SLICE_NS, CLOCK_NOW);
	runs_on(0, &ui);
	g_cpus[1].online = 0;
	task_at(&w, GB_WEIGHT_DFL, 0, 0);
	wakes(&w, &out);
	CHECK_EQ_I(victim(&out), 0);
	/* the clock a span on: the long slice's deadline is no later than the margin */
	g_clock[LITTLE] += span;
	wakes(&w, &out);
	CHECK_EQ_I(victim(&out), GB_NO_CPU);
}

/*
 * Only a CPU that runs a task whose deadline was noted, of the task's domain, online, in its
 * affinity, and not already kicked for another waking task: a stopped task (gb_track_stop) or
 * a CPU kicked once (gb_preempt_kicked) is no candidate until a slice starts there again.
 */
static void test_only_a_busy_allowed_cpu_of_the_domain_not_yet_kicked(void)
{
	struct gb_tstate a, b, w;
	struct em_cpumask allowed;
	struct gb_enq_out out;

	idle_machine();
	task_at(&a, NICE_P10, 0, CLOCK_NOW);
	task_at(&b, NICE_P10, 0, CLOCK_NOW);
	runs_on(0, &a);
	runs_on(1, &b);
	task_at(&w, NICE_M16, 0, 0);
	wakes(&w, &out);
	all_cpus(&allowed);
	/* equal deadlines: the first */
	CHECK_EQ_I(gb_preempt_cpu(&g_m, g_cpus, &allowed, LITTLE, out.preempt_dl), 0);
	gb_preempt_kicked(&g_cpus[0]);
	CHECK_EQ_I(gb_preempt_cpu(&g_m, g_cpus, &allowed, LITTLE, out.preempt_dl), 1);
	em_cpumask_clear(&allowed, 1);
	CHECK_EQ_I(gb_preempt_cpu(&g_m, g_cpus, &allowed, LITTLE, out.preempt_dl), GB_NO_CPU);
	all_cpus(&allowed);
	gb_track_stop(&g_cpus[1]);
	CHECK_EQ_I(gb_preempt_cpu(&g_m, g_cpus, &allowed, LITTLE, out.preempt_dl), GB_NO_CPU);
	runs_on(0, &a);
	g_cpus[0].online = 0;
	CHECK_EQ_I(gb_preempt_cpu(&g_m, g_cpus, &allowed, LITTLE, out.preempt_dl), GB_NO_CPU);
	/* never another domain's CPU: mid runs a nice 10 task, little is asked */
	g_cpus[0].online = 1;
	gb_track_stop(&g_cpus[0]);
	gb_track_curr(&g_cpus[2], &a);
	gb_preempt_note(&g_cpus[2], &a, 1, g_m.nr_domains, g_clock, SLICE_NS, 876);
	CHECK_EQ_I(gb_preempt_cpu(&g_m, g_cpus, &allowed, LITTLE, out.preempt_dl), GB_NO_CPU);
	CHECK_EQ_I(gb_preempt_cpu(&g_m, g_cpus, &allowed, 1, out.preempt_dl), 2);
}

/*
 * Only at a wake-up, and with the host's wake-up preemption on: a task queued again at slice
 * expiry, or preempted, preempts nobody, nor any task with the rule off.
 */
static void test_only_a_wake_up_with_the_rule_on_preempts(void)
{
	struct gb_enq_in in = {
	    .task_cpu = 0, .may_kick = 1, .preempt = GB_PREEMPT_ON, .now_ns = CLOCK_NOW};
	struct gb_tstate w;
	struct gb_enq_out out;

	idle_machine();
	all_cpus(&in.allowed);
	task_at(&w, NICE_M16, 0, CLOCK_NOW);
	gb_enqueue_plan(&g_m, g_cpus, g_clock, SLICE_NS, &w, &in, &out);
	CHECK_EQ_U(out.queue, GB_QUEUE_DOMAIN);
	CHECK(!out.preempt);
	in.wakeup = 1;
	gb_enqueue_plan(&g_m, g_cpus, g_clock, SLICE_NS, &w, &in, &out);
	CHECK(out.preempt);
	in.preempt = GB_PREEMPT_OFF;
	gb_enqueue_plan(&g_m, g_cpus, g_clock, SLICE_NS, &w, &in, &out);
	CHECK(!out.preempt);
}

/*
 * The default mode, latency (gb_preempt_wants): a task heavier than nice 0, or with a custom
 * slice shorter than the default, may preempt; a nice 0 task with the default slice or a
 * longer one of its own may not (with on it may).
 */
static void test_latency_mode_lets_latency_critical_tasks_preempt(void)
{
	static const struct {
		u32 weight;
		u64 slice_ns;
		bool latency, on;
	} cases[] = {
	    {NICE_M16, 0, true, true},
	    {GB_WEIGHT_DFL, 0, false, true},
	    {GB_WEIGHT_DFL, MS, true, true},
	    {GB_WEIGHT_DFL, 10 * MS, false, true},
	    {NICE_P10, 0, false, true},
	    {NICE_M16, 10 * MS, true, true},
	    {GB_WEIGHT_DFL, SLICE_NS, false, true},
	};

	CHECK_EQ_U(GB_PREEMPT_DFL, GB_PREEMPT_LATENCY);
	for (u32 i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct gb_enq_in in = {.task_cpu = 0,
				       .wakeup = 1,
				       .may_kick = 1,
				       .preempt = GB_PREEMPT_LATENCY,
				       .now_ns = CLOCK_NOW};
		struct gb_tstate w;
		struct gb_enq_out out;

		idle_machine();
		all_cpus(&in.allowed);
		task_at(&w, cases[i].weight, cases[i].slice_ns, CLOCK_NOW);
		gb_enqueue_plan(&g_m, g_cpus, g_clock, SLICE_NS, &w, &in, &out);
		CHECK_EQ_U(out.preempt, cases[i].latency);
		in.preempt = GB_PREEMPT_ON;
		task_at(&w, cases[i].weight, cases[i].slice_ns, CLOCK_NOW);
		gb_enqueue_plan(&g_m, g_cpus, g_clock, SLICE_NS, &w, &in, &out);
		CHECK_EQ_U(out.preempt, cases[i].on);
		in.preempt = GB_PREEMPT_OFF;
		task_at(&w, cases[i].weight, cases[i].slice_ns, CLOCK_NOW);
		gb_enqueue_plan(&g_m, g_cpus, g_clock, SLICE_NS, &w, &in, &out);
		CHECK(!out.preempt);
	}
}

/* A pinned task's local-queue shortcut has its own CPU as the one candidate, same rule. */
static void test_the_local_shortcut_preempts_its_cpu_by_the_same_rule(void)
{
	struct gb_tstate hog, w;
	struct gb_enq_out out;

	idle_machine();
	task_at(&hog, GB_WEIGHT_DFL, 4 * SLICE_NS, CLOCK_NOW);
	runs_on(0, &hog);
	task_at(&w, GB_WEIGHT_DFL, 0, 0);
	wakes(&w, &out);
	CHECK(gb_preempt_local(g_cpus, 0, out.preempt_dl));
	CHECK(!gb_preempt_local(g_cpus, 1, out.preempt_dl)); /* nothing runs there */
	task_at(&hog, GB_WEIGHT_DFL, 0, CLOCK_NOW);
	runs_on(0, &hog);
	CHECK(!gb_preempt_local(g_cpus, 0, out.preempt_dl));
}

/*
 * With wake-up preemption on for every task, the frequency request counts the running task's
 * runnable_avg, its waits for a CPU included: a task that ran half the time and waited the other
 * half at perf 286 asks for more than its util_avg alone asks for, as schedutil's runnable
 * boosting raises a contended run queue.  With the rule off, or for latency-critical tasks only
 * (the default), the host does not count it (gb_preempt_curr).
 */
static void test_frequency_counts_the_wait_of_the_running_task(void)
{
	struct gb_tstate t;
	u32 idx, alone, waited;

	idle_machine();
	task_at(&t, GB_WEIGHT_DFL, 0, CLOCK_NOW);
	t.pelt.util_avg = 140;
	t.pelt.runnable_avg = 140;
	g_cpus[0].util = 140;
	runs_on(0, &t);
	alone = gb_domain_perf_target(&g_m, g_cpus, LITTLE, &idx);
	t.pelt.runnable_avg = 280;
	runs_on(0, &t);
	CHECK_EQ_U(gb_cpu_freq_util(&g_cpus[0]), 280);
	waited = gb_domain_perf_target(&g_m, g_cpus, LITTLE, &idx);
	printf("# little's perf target: %u without the wait, %u with it\n", alone, waited);
	CHECK(waited > alone);
	gb_preempt_curr(&g_cpus[0], GB_PREEMPT_ON);
	CHECK_EQ_U(gb_domain_perf_target(&g_m, g_cpus, LITTLE, &idx), waited);
	gb_preempt_curr(&g_cpus[0], GB_PREEMPT_LATENCY);
	CHECK_EQ_U(gb_domain_perf_target(&g_m, g_cpus, LITTLE, &idx), alone);
	runs_on(0, &t);
	gb_preempt_curr(&g_cpus[0], GB_PREEMPT_OFF);
	CHECK_EQ_U(gb_domain_perf_target(&g_m, g_cpus, LITTLE, &idx), alone);
	runs_on(0, &t);
	/* gone with the task */
	gb_track_stop(&g_cpus[0]);
	CHECK_EQ_U(gb_cpu_freq_util(&g_cpus[0]), 140);
}

int main(int argc, char **argv)
{
	struct em_profile prof;
	struct gb_err err;
	char path[512];

	if (argc != 2) {
		fprintf(stderr, "usage: test_preempt TESTS_SCHED_DIR\n");
		return 2;
	}
	snprintf(path, sizeof(path), "%s/vm4.json", argv[1]);
	if (em_profile_load_file(path, &prof, false, NULL, &err)) {
		fprintf(stderr, "test_preempt: %s\n", err.msg);
		return 1;
	}
	g_m = prof.model;
	TAP_RUN(test_a_heavier_task_preempts_the_latest_deadline);
	TAP_RUN(test_a_heavier_task_preempts_a_sleeper_that_just_started);
	TAP_RUN(test_equal_weights_and_slices_never_preempt);
	TAP_RUN(test_a_shorter_slice_preempts_early_in_a_long_one);
	TAP_RUN(test_only_a_busy_allowed_cpu_of_the_domain_not_yet_kicked);
	TAP_RUN(test_only_a_wake_up_with_the_rule_on_preempts);
	TAP_RUN(test_latency_mode_lets_latency_critical_tasks_preempt);
	TAP_RUN(test_the_local_shortcut_preempts_its_cpu_by_the_same_rule);
	TAP_RUN(test_frequency_counts_the_wait_of_the_running_task);
	return tap_done();
}
