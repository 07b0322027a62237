// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_queue.c - the core's queueing decisions (src/policy/gb_queue.h, gb_hold.h, gb_track.h,
 * gb_pull_hold.h), the functions both hosts call: where a task waits (gb_enqueue_plan: a pending
 * misfit move, the offline fallback, the credit limit, the local-queue shortcut), what a CPU
 * asking for work runs (gb_dispatch_plan: the running task at slice expiry, its own domain's
 * queue, a pull), the misfit hold's and the pull hold's state, the queued demand, and the
 * tracking.  On tests/sched/vm4.json: CPUs 0-1 little (286), CPU 2 mid (876), CPU 3 big (1024).
 *
 *   test_queue TESTS_SCHED_DIR
 */
#include <stdio.h>
#include <string.h>

#include "../unit/tap.h"
#include "em_profile.h"
#include "gb_policy.h"

#define MS	 1000000ull
#define SLICE_NS (5 * MS)
#define PULL_US	 4000

static struct em_model g_m;
static struct gb_cpu g_cpus[EM_MAX_CPUS];
static u64 g_clock[EM_MAX_DOMAINS];

static void idle_machine(void)
{
	memset(g_cpus, 0, sizeof(g_cpus));
	memset(g_clock, 0, sizeof(g_clock));
	for (u32 c = 0; c < g_m.nr_cpus; c++) {
		g_cpus[c].online = 1;
		g_cpus[c].idle = 1;
		g_cpus[c].perf_cur = 1024;
	}
}

static void all_cpus(struct em_cpumask *mask)
{
	memset(mask, 0, sizeof(*mask));
	for (u32 c = 0; c < g_m.nr_cpus; c++)
		em_cpumask_set(mask, c);
}

static void nice0_task(struct gb_tstate *ts, u32 dom)
{
	gb_track_init(ts);
	ts->weight = GB_WEIGHT_DFL;
	gb_track_enable(ts, dom, g_m.nr_domains, g_clock);
}

static void enq_in(struct gb_enq_in *in, s32 cpu)
{
	memset(in, 0, sizeof(*in));
	in->task_cpu = cpu;
	in->may_kick = 1;
	all_cpus(&in->allowed);
}

static void test_enqueue_joins_the_domain_queue_of_its_cpu_with_its_deadline(void)
{
	struct gb_tstate ts;
	struct gb_enq_in in;
	struct gb_enq_out out;

	idle_machine();
	g_clock[1] = 100 * MS;
	nice0_task(&ts, 1);
	enq_in(&in, 2);
	gb_enqueue_plan(&g_m, g_cpus, g_clock, SLICE_NS, &ts, &in, &out);
	CHECK_EQ_U(out.queue, GB_QUEUE_DOMAIN);
	CHECK_EQ_I(out.cpu, 2);
	CHECK_EQ_U(out.dom, 1);
	CHECK_EQ_U(out.slice_ns, SLICE_NS);
	CHECK_EQ_U(out.deadline, 100 * MS + SLICE_NS);
	/* its own slice, from sched_setattr() */
	ts.slice_ns = 2 * MS;
	gb_enqueue_plan(&g_m, g_cpus, g_clock, SLICE_NS, &ts, &in, &out);
	CHECK_EQ_U(out.slice_ns, 2 * MS);
	CHECK_EQ_U(out.deadline, 100 * MS + 2 * MS);
	/* the deadline is a slice's work at the perf of the CPU it waits for, as it is charged */
	g_cpus[2].perf_cur = 512;
	ts.vtime = 100 * MS;
	gb_enqueue_plan(&g_m, g_cpus, g_clock, SLICE_NS, &ts, &in, &out);
	CHECK_EQ_U(out.deadline, 100 * MS + MS);
}

static void test_enqueue_limits_a_sleepers_credit_to_half_a_slice(void)
{
	struct gb_tstate ts;
	struct gb_enq_in in;
	struct gb_enq_out out;

	idle_machine();
	nice0_task(&ts, 1);
	g_clock[1] = 1000 * MS; /* the domain's clock moved on while it slept */
	enq_in(&in, 2);
	gb_enqueue_plan(&g_m, g_cpus, g_clock, SLICE_NS, &ts, &in, &out);
	CHECK_EQ_U(ts.vtime, 1000 * MS - SLICE_NS / 2);
	CHECK_EQ_U(out.deadline, 1000 * MS + SLICE_NS / 2);
}

static void test_enqueue_keeps_the_lag_when_the_task_changes_domain(void)
{
	struct gb_tstate ts;
	struct gb_enq_in in;
	struct gb_enq_out out;

	idle_machine();
	g_clock[0] = 50 * MS;
	g_clock[2] = 900 * MS;
	nice0_task(&ts, 0);
	ts.vtime = 52 * MS; /* 2 ms ahead of little's clock */
	enq_in(&in, 3);
	gb_enqueue_plan(&g_m, g_cpus, g_clock, SLICE_NS, &ts, &in, &out);
	CHECK_EQ_U(out.dom, 2);
	CHECK_EQ_U(ts.vdom, 2);
	CHECK_EQ_U(ts.vtime, 902 * MS);
}

static void test_enqueue_applies_a_pending_misfit_move_once(void)
{
	struct gb_tstate ts;
	struct gb_enq_in in;
	struct gb_enq_out out;
	struct gb_task t = {.util = 280, .util_est = 280, .uclamp_max = 1024};

	idle_machine();
	nice0_task(&ts, 0);
	gb_hold_moved(&ts.hold, &t, 3, GB_REASON_CAPACITY_MISFIT, 286);
	CHECK(gb_hold_pending(&ts.hold));
	enq_in(&in, 0);
	/* no kick from here: the move waits (nobody would wake the target) */
	in.may_kick = 0;
	gb_enqueue_plan(&g_m, g_cpus, g_clock, SLICE_NS, &ts, &in, &out);
	CHECK_EQ_I(out.cpu, 0);
	CHECK(!gb_hold_pending(&ts.hold));
	gb_hold_moved(&ts.hold, &t, 3, GB_REASON_CAPACITY_MISFIT, 286);
	in.may_kick = 1;
	/* no longer allowed on the target */
	em_cpumask_clear(&in.allowed, 3);
	gb_enqueue_plan(&g_m, g_cpus, g_clock, SLICE_NS, &ts, &in, &out);
	CHECK_EQ_I(out.cpu, 0);
	gb_hold_moved(&ts.hold, &t, 3, GB_REASON_CAPACITY_MISFIT, 286);
	all_cpus(&in.allowed);
	gb_enqueue_plan(&g_m, g_cpus, g_clock, SLICE_NS, &ts, &in, &out);
	CHECK_EQ_I(out.cpu, 3);
	CHECK_EQ_U(out.dom, 2);
	CHECK(!gb_hold_pending(&ts.hold));
	/* the hold itself stays: the floor keeps it off little while its demand is high */
	CHECK_EQ_U(ts.hold.cap, 286);
	CHECK_EQ_U(ts.hold.work, 280);
}

/*
 * SCX_ENQ_LAST: the task gave way at slice expiry and its CPU has nothing else to run.  A
 * pending misfit move is applied (the target's queue, the target woken); with none, or one it
 * can no longer make, it stays on its CPU's local queue and runs on, as without the flag the
 * kernel kept it running, but with its misfit move made (a task that never sleeps gives way
 * only there).
 */
static void test_last_task_moves_to_its_misfit_target_or_runs_on(void)
{
	struct gb_tstate ts;
	struct gb_enq_in in;
	struct gb_enq_out out;
	struct gb_task t = {.util = 280, .util_est = 280, .uclamp_max = 1024};

	idle_machine();
	nice0_task(&ts, 0);
	enq_in(&in, 0);
	in.last = 1;
	gb_enqueue_plan(&g_m, g_cpus, g_clock, SLICE_NS, &ts, &in, &out);
	CHECK_EQ_U(out.queue, GB_QUEUE_LOCAL);
	CHECK_EQ_I(out.cpu, 0);
	CHECK_EQ_U(out.slice_ns, SLICE_NS);
	/* on the way to big: big's queue, for big's CPU */
	gb_hold_moved(&ts.hold, &t, 3, GB_REASON_CAPACITY_MISFIT, 286);
	gb_enqueue_plan(&g_m, g_cpus, g_clock, SLICE_NS, &ts, &in, &out);
	CHECK_EQ_U(out.queue, GB_QUEUE_DOMAIN);
	CHECK_EQ_I(out.cpu, 3);
	CHECK_EQ_U(out.dom, 2);
	CHECK(!gb_hold_pending(&ts.hold));
	/* a move nobody can wake the target for is dropped: it runs on */
	gb_hold_moved(&ts.hold, &t, 3, GB_REASON_CAPACITY_MISFIT, 286);
	in.may_kick = 0;
	gb_enqueue_plan(&g_m, g_cpus, g_clock, SLICE_NS, &ts, &in, &out);
	CHECK_EQ_U(out.queue, GB_QUEUE_LOCAL);
	CHECK_EQ_I(out.cpu, 0);
	CHECK(!gb_hold_pending(&ts.hold));
	/* without state too */
	gb_enqueue_plan(&g_m, g_cpus, g_clock, SLICE_NS, NULL, &in, &out);
	CHECK_EQ_U(out.queue, GB_QUEUE_LOCAL);
}

static void test_enqueue_leaves_an_offline_cpu_for_an_online_one(void)
{
	struct gb_tstate ts;
	struct gb_enq_in in;
	struct gb_enq_out out;

	idle_machine();
	nice0_task(&ts, 1);
	g_cpus[2].online = 0;
	enq_in(&in, 2);
	em_cpumask_clear(&in.allowed, 0);
	gb_enqueue_plan(&g_m, g_cpus, g_clock, SLICE_NS, &ts, &in, &out);
	CHECK_EQ_I(out.cpu, 1);
	CHECK_EQ_U(out.dom, 0);
	/* no state: the global queue, on an online CPU */
	gb_enqueue_plan(&g_m, g_cpus, g_clock, SLICE_NS, NULL, &in, &out);
	CHECK_EQ_U(out.queue, GB_QUEUE_GLOBAL);
	CHECK_EQ_I(out.cpu, 1);
}

static void test_local_shortcut_only_for_a_woken_pinned_task_within_a_slice(void)
{
	struct gb_tstate ts;
	struct gb_enq_in in;
	struct gb_enq_out out;

	idle_machine();
	g_clock[0] = 100 * MS;
	nice0_task(&ts, 0);
	enq_in(&in, 1);
	memset(&in.allowed, 0, sizeof(in.allowed));
	em_cpumask_set(&in.allowed, 1);
	in.pinned = 1;
	in.wakeup = 1;
	gb_enqueue_plan(&g_m, g_cpus, g_clock, SLICE_NS, &ts, &in, &out);
	CHECK(out.local_if_empty);
	CHECK(!gb_enqueue_take_local(&out, false));
	CHECK_EQ_U(out.queue, GB_QUEUE_DOMAIN);
	CHECK(gb_enqueue_take_local(&out, true));
	CHECK_EQ_U(out.queue, GB_QUEUE_LOCAL);
	CHECK_EQ_I(out.cpu, 1);
	/* a re-enqueue at slice expiry takes the queue */
	in.wakeup = 0;
	gb_enqueue_plan(&g_m, g_cpus, g_clock, SLICE_NS, &ts, &in, &out);
	CHECK(!out.local_if_empty);
	/* a task that ran beyond its share (deadline more than a slice past a new task's) too */
	in.wakeup = 1;
	ts.vtime = 100 * MS + SLICE_NS + 1;
	gb_enqueue_plan(&g_m, g_cpus, g_clock, SLICE_NS, &ts, &in, &out);
	CHECK(!out.local_if_empty);
	/* one allowed on several CPUs too */
	ts.vtime = 100 * MS;
	in.pinned = 0;
	gb_enqueue_plan(&g_m, g_cpus, g_clock, SLICE_NS, &ts, &in, &out);
	CHECK(!out.local_if_empty);
}

static void test_kick_wakes_an_idle_cpu_of_the_domain_but_never_the_caller(void)
{
	struct em_cpumask idle, allowed;

	idle_machine();
	all_cpus(&allowed);
	memset(&idle, 0, sizeof(idle));
	/* the chosen CPU is idle: it */
	em_cpumask_set(&idle, 1);
	CHECK_EQ_I(gb_kick_target(&g_m, &idle, &allowed, false, 1, 0, 3), 1);
	/* busy: another idle CPU of its domain the task may use */
	CHECK_EQ_I(gb_kick_target(&g_m, &idle, &allowed, false, 0, 0, 3), 1);
	em_cpumask_clear(&allowed, 1);
	CHECK_EQ_I(gb_kick_target(&g_m, &idle, &allowed, false, 0, 0, 3), 0);
	/* never another domain's idle CPU (it does not take from this queue) */
	memset(&idle, 0, sizeof(idle));
	em_cpumask_set(&idle, 3);
	CHECK_EQ_I(gb_kick_target(&g_m, &idle, &allowed, false, 0, 0, 2), 0);
	/* nobody when that is the caller, or for a task pinned to the caller */
	CHECK_EQ_I(gb_kick_target(&g_m, &idle, &allowed, false, 0, 0, 0), GB_NO_CPU);
	em_cpumask_set(&idle, 0);
	CHECK(gb_kick_skip(true, 0, 0));
	CHECK_EQ_I(gb_kick_target(&g_m, &idle, &allowed, true, 0, 0, 0), GB_NO_CPU);
	CHECK_EQ_I(gb_kick_target(&g_m, &idle, &allowed, false, 0, 0, 0), 0);
}

/*
 * With no idle CPU in the task's domain, an idle CPU of another domain is woken when it may
 * pull the task at once, as its dispatch will ask: the domain is over-utilized and the task
 * fits there.  Both little CPUs run hogs (little over-utilized) and a 200 task is queued on
 * little: mid (the first other domain) is woken, or big when mid is busy; not a CPU the task
 * may not use, nor one it would saturate, nor any when little has room.
 */
static void test_kick_wakes_another_domains_idle_cpu_that_may_pull(void)
{
	struct gb_task t = {.util = 200, .util_est = 200, .runnable = 200, .uclamp_max = 1024};
	struct em_cpumask idle;

	idle_machine();
	all_cpus(&t.allowed);
	t.prev_cpu = 0;
	for (u32 c = 0; c < 2; c++) {
		g_cpus[c].idle = 0;
		g_cpus[c].nr_running = 1;
		g_cpus[c].util = 280;
	}
	CHECK(gb_domain_overutilized(&g_m, g_cpus, 0));
	memset(&idle, 0, sizeof(idle));
	em_cpumask_set(&idle, 2);
	em_cpumask_set(&idle, 3);
	CHECK_EQ_I(gb_kick_cpu(&g_m, g_cpus, &idle, &t, false, 0, 0, 1, PULL_US), 2);
	em_cpumask_clear(&idle, 2);
	CHECK_EQ_I(gb_kick_cpu(&g_m, g_cpus, &idle, &t, false, 0, 0, 1, PULL_US), 3);
	em_cpumask_clear(&t.allowed, 3);
	CHECK_EQ_I(gb_kick_cpu(&g_m, g_cpus, &idle, &t, false, 0, 0, 1, PULL_US), 0);
	all_cpus(&t.allowed);
	/* mid alone idle, and the task would saturate it: nobody */
	em_cpumask_set(&idle, 2);
	em_cpumask_clear(&idle, 3);
	t.util = t.util_est = t.runnable = 860;
	CHECK_EQ_I(gb_kick_cpu(&g_m, g_cpus, &idle, &t, false, 0, 0, 1, PULL_US), 0);
	t.util = t.util_est = t.runnable = 200;
	/* little not over-utilized: its own CPUs serve its queue */
	g_cpus[0].util = g_cpus[1].util = 100;
	CHECK(!gb_domain_overutilized(&g_m, g_cpus, 0));
	CHECK_EQ_I(gb_kick_cpu(&g_m, g_cpus, &idle, &t, false, 0, 0, 1, PULL_US), 0);
	/* an idle CPU of its own domain comes first */
	g_cpus[0].util = g_cpus[1].util = 280;
	em_cpumask_set(&idle, 1);
	CHECK_EQ_I(gb_kick_cpu(&g_m, g_cpus, &idle, &t, false, 0, 0, 2, PULL_US), 1);
}

static void disp_in(struct gb_disp_in *in, s32 cpu)
{
	memset(in, 0, sizeof(*in));
	in->cpu = cpu;
}

/* Domain d's queue with a head of the given size, deadline and wait. */
static void head(struct gb_disp_in *in, u32 d, u32 util, u64 deadline, u64 waited_us)
{
	struct gb_dsq_head *h = &in->heads[d];

	h->queued = 1;
	h->deadline = deadline;
	h->waited_us = waited_us;
	memset(&h->t, 0, sizeof(h->t));
	h->t.util = util;
	h->t.util_est = util;
	h->t.runnable = util;
	h->t.uclamp_max = GB_UCLAMP_NONE_MAX;
	h->t.prev_cpu = GB_NO_CPU;
	for (u32 c = g_m.nr_cpus; c-- > 0;)
		if (g_m.cpu_domain[c] == d)
			h->t.prev_cpu = (s32)c; /* it waits for its domain's first CPU */
	all_cpus(&h->t.allowed);
}

/* A nice 0 task whose slice ran out on CPU 2 (domain 1, clock at 100 ms), asking for work. */
static void expiry_on_cpu2(struct gb_tstate *prev, struct gb_disp_in *in)
{
	idle_machine();
	g_clock[1] = 100 * MS;
	nice0_task(prev, 1);
	disp_in(in, 2);
	in->prev_runnable = 1;
}

static void test_slice_expiry_keeps_the_earlier_deadline_running(void)
{
	struct gb_tstate prev;
	struct gb_disp_in in;
	struct gb_disp_out out;

	expiry_on_cpu2(&prev, &in);
	/* head later than prev's deadline (100 + 5 ms at perf 1024): prev keeps the CPU */
	head(&in, 1, 100, 106 * MS, 0);
	gb_dispatch_plan(&g_m, g_cpus, g_clock, SLICE_NS, PULL_US, &in, &prev, &out);
	CHECK_EQ_U(out.act, GB_DISPATCH_KEEP_PREV);
	CHECK_EQ_U(out.slice_ns, SLICE_NS);
	/* head earlier (or equal: the waiting task goes first): take the queue */
	in.heads[1].deadline = 105 * MS;
	gb_dispatch_plan(&g_m, g_cpus, g_clock, SLICE_NS, PULL_US, &in, &prev, &out);
	CHECK_EQ_U(out.act, GB_DISPATCH_CONSUME);
	CHECK_EQ_U(out.try_mask, 1u << 1);
	CHECK_EQ_U(out.fallback, GB_DISPATCH_KEEP_PREV);
	/* nothing queued: prev goes on (after any pull) */
	in.heads[1].queued = 0;
	gb_dispatch_plan(&g_m, g_cpus, g_clock, SLICE_NS, PULL_US, &in, &prev, &out);
	CHECK_EQ_U(out.act, GB_DISPATCH_KEEP_PREV);
	CHECK_EQ_U(out.try_mask, 0);
}

/*
 * At slice expiry the running task's credit is limited against the clock its queue's head was
 * keyed against when that is earlier than now (gb_vtime_head_clock): a nice -16 task that the
 * clock left 4 ms behind keeps its CPU against a nice 0 head queued 4 ms ago; limited against
 * the clock of now, as before, the head went first.  Two nice 0 hogs keep taking turns (the
 * running one, at the clock, is behind a head keyed half a span before it).
 */
static void test_slice_expiry_limits_credit_against_the_heads_clock(void)
{
	struct gb_tstate prev;
	struct gb_disp_in in;
	struct gb_disp_out out;

	expiry_on_cpu2(&prev, &in);
	prev.weight = 3544;
	g_clock[1] = 104 * MS;
	/* queued when the clock was at 100 ms: 100 - 2.5 + 5 ms */
	head(&in, 1, 100, 102 * MS + MS / 2, 0);
	gb_dispatch_plan(&g_m, g_cpus, g_clock, SLICE_NS, PULL_US, &in, &prev, &out);
	CHECK_EQ_U(out.act, GB_DISPATCH_KEEP_PREV);
	CHECK(prev.vtime < 104 * MS - SLICE_NS / 35);
	nice0_task(&prev, 1);
	prev.vtime = 104 * MS;
	in.heads[1].deadline = 104 * MS + 4 * MS;
	gb_dispatch_plan(&g_m, g_cpus, g_clock, SLICE_NS, PULL_US, &in, &prev, &out);
	CHECK_EQ_U(out.act, GB_DISPATCH_CONSUME);
}

/*
 * Only a task heavier than the head is limited against the head's clock.  A nice 0 task with a
 * custom 1 ms slice, left behind, against a nice 0 head queued 4 ms ago: limited against the
 * clock of now, its deadline ties the head's and the head that waited goes first; limited
 * against the head's clock it would keep the CPU (its short slice's deadline 4 ms before the
 * head's), as an equal-weight task did in the sched_ext VM before the gate (sim-matches-
 * kernel's uclamp_min case: the boosted task waited in big's queue until a mid CPU pulled it).
 */
static void test_slice_expiry_of_the_heads_weight_is_limited_against_now(void)
{
	struct gb_tstate prev;
	struct gb_disp_in in;
	struct gb_disp_out out;

	expiry_on_cpu2(&prev, &in);
	prev.slice_ns = MS;
	prev.vtime = 90 * MS;
	g_clock[1] = 104 * MS;
	/* queued when the clock was at 100 ms: 100 - 2.5 + 5 ms */
	head(&in, 1, 100, 102 * MS + MS / 2, 0);
	gb_dispatch_plan(&g_m, g_cpus, g_clock, SLICE_NS, PULL_US, &in, &prev, &out);
	CHECK_EQ_U(out.act, GB_DISPATCH_CONSUME);
	CHECK_EQ_U(out.try_mask, 1u << 1);
	CHECK_EQ_U(prev.vtime, 104 * MS - SLICE_NS / 2);
}

static void test_no_new_slice_on_the_way_to_a_misfit_target_or_offline(void)
{
	struct gb_tstate prev;
	struct gb_disp_in in;
	struct gb_disp_out out;
	struct gb_task t = {.util = 280, .util_est = 280, .uclamp_max = 1024};

	idle_machine();
	nice0_task(&prev, 0);
	disp_in(&in, 0);
	in.prev_runnable = 1;
	CHECK(gb_dispatch_prev_ok(&g_m, g_cpus, 0, &prev, true));
	gb_hold_moved(&prev.hold, &t, 3, GB_REASON_CAPACITY_MISFIT, 286);
	CHECK(!gb_dispatch_prev_ok(&g_m, g_cpus, 0, &prev, true));
	gb_dispatch_plan(&g_m, g_cpus, g_clock, SLICE_NS, PULL_US, &in, &prev, &out);
	CHECK_EQ_U(out.act, GB_DISPATCH_NOTHING);
	gb_hold_drop(&prev.hold);
	g_cpus[0].online = 0;
	CHECK(!gb_dispatch_prev_ok(&g_m, g_cpus, 0, &prev, true));
	gb_dispatch_plan(&g_m, g_cpus, g_clock, SLICE_NS, PULL_US, &in, &prev, &out);
	CHECK_EQ_U(out.act, GB_DISPATCH_NOTHING);
}

/* An over-utilized big domain: its CPU runs a hog. */
static void big_overutilized(void)
{
	g_cpus[3].idle = 0;
	g_cpus[3].nr_running = 1;
	g_cpus[3].util = 1000;
	g_cpus[3].uclamp_max = GB_UCLAMP_NONE_MAX;
	CHECK(gb_domain_overutilized(&g_m, g_cpus, 2));
}

/*
 * The ping-pong the fit question prevents: a task moved up as a capacity misfit (util 280 on a
 * 286 little CPU) waits in big's queue; an idle little CPU must not pull it back while big is
 * merely over-utilized, only once it has waited there for the pull delay.
 */
static void test_idle_pull_does_not_undo_a_capacity_misfit_move(void)
{
	struct gb_disp_in in;
	struct gb_disp_out out;

	idle_machine();
	big_overutilized();
	disp_in(&in, 0);
	head(&in, 2, 280, 10 * MS, 100);
	gb_dispatch_plan(&g_m, g_cpus, g_clock, SLICE_NS, PULL_US, &in, NULL, &out);
	CHECK_EQ_U(out.act, GB_DISPATCH_NOTHING);
	CHECK_EQ_U(out.try_mask, 0);
	/* a small head fits little: pulled */
	head(&in, 2, 100, 10 * MS, 100);
	gb_dispatch_plan(&g_m, g_cpus, g_clock, SLICE_NS, PULL_US, &in, NULL, &out);
	CHECK_EQ_U(out.act, GB_DISPATCH_CONSUME);
	CHECK_EQ_U(out.try_mask, 1u << 2);
	/* the hold keeps a small one off little too */
	in.heads[2].t.floor_cap = 286;
	gb_dispatch_plan(&g_m, g_cpus, g_clock, SLICE_NS, PULL_US, &in, NULL, &out);
	CHECK_EQ_U(out.try_mask, 0);
	/* waited for the pull delay: any idle CPU takes it */
	head(&in, 2, 280, 10 * MS, PULL_US);
	gb_dispatch_plan(&g_m, g_cpus, g_clock, SLICE_NS, PULL_US, &in, NULL, &out);
	CHECK_EQ_U(out.try_mask, 1u << 2);
	/* the mid CPU has room for it: pulled before the delay */
	disp_in(&in, 2);
	head(&in, 2, 280, 10 * MS, 100);
	gb_dispatch_plan(&g_m, g_cpus, g_clock, SLICE_NS, PULL_US, &in, NULL, &out);
	CHECK_EQ_U(out.try_mask, 1u << 2);
}

/*
 * The wait a pull reads is the head task's, from when it joined the queue: a task the tick has
 * just moved to big's queue has waited nothing, however long big's queue went untaken from
 * while big was idle, and the little CPU it left, idle now, does not take it back.
 */
static void test_pull_wait_counts_from_the_heads_enqueue(void)
{
	struct gb_task t = {.util = 280, .util_est = 280, .uclamp_max = 1024};
	struct gb_disp_in in;
	struct gb_disp_out out;
	struct gb_tstate ts;
	struct gb_enq_in ein;
	struct gb_enq_out eout;

	idle_machine();
	big_overutilized();
	nice0_task(&ts, 0);
	ts.pelt.util_avg = ts.pelt.util_est = 280;
	gb_hold_moved(&ts.hold, &t, 3, GB_REASON_CAPACITY_MISFIT, 286);
	enq_in(&ein, 0);
	ein.last = 1;
	ein.now_ns = 1000 * MS;
	gb_enqueue_plan(&g_m, g_cpus, g_clock, SLICE_NS, &ts, &ein, &eout);
	CHECK_EQ_U(eout.dom, 2);
	CHECK_EQ_U(ts.queued_ns, 1000 * MS);
	disp_in(&in, 0);
	head(&in, 2, 280, eout.deadline, gb_queue_waited_us(&ts, 1000 * MS + 100 * 1000));
	CHECK_EQ_U(in.heads[2].waited_us, 100);
	gb_track_task(&ts, 0, &ein.allowed, &in.heads[2].t);
	in.heads[2].t.floor_cap = gb_hold_floor(&ts.hold, &in.heads[2].t);
	gb_dispatch_plan(&g_m, g_cpus, g_clock, SLICE_NS, PULL_US, &in, NULL, &out);
	CHECK_EQ_U(out.try_mask, 0);
	/* after the pull delay in the queue, any idle CPU takes it */
	in.heads[2].waited_us = gb_queue_waited_us(&ts, 1000 * MS + PULL_US * 1000);
	gb_dispatch_plan(&g_m, g_cpus, g_clock, SLICE_NS, PULL_US, &in, NULL, &out);
	CHECK_EQ_U(out.try_mask, 1u << 2);
}

static void test_no_pull_from_a_domain_that_is_not_over_utilized(void)
{
	struct gb_disp_in in;
	struct gb_disp_out out;

	idle_machine();
	disp_in(&in, 2);
	head(&in, 2, 100, 10 * MS, 100);
	gb_dispatch_plan(&g_m, g_cpus, g_clock, SLICE_NS, PULL_US, &in, NULL, &out);
	CHECK_EQ_U(out.act, GB_DISPATCH_NOTHING);
	/* unless no CPU of it is online: nobody else would run its queue */
	g_cpus[3].online = 0;
	gb_dispatch_plan(&g_m, g_cpus, g_clock, SLICE_NS, PULL_US, &in, NULL, &out);
	CHECK_EQ_U(out.try_mask, 1u << 2);
}

static void test_own_queue_comes_before_pulls(void)
{
	struct gb_disp_in in;
	struct gb_disp_out out;

	idle_machine();
	big_overutilized();
	disp_in(&in, 2);
	head(&in, 1, 100, 10 * MS, 0);
	head(&in, 2, 100, 1 * MS, PULL_US);
	gb_dispatch_plan(&g_m, g_cpus, g_clock, SLICE_NS, PULL_US, &in, NULL, &out);
	CHECK_EQ_U(out.act, GB_DISPATCH_CONSUME);
	CHECK_EQ_U(out.try_mask, (1u << 1) | (1u << 2));
	CHECK_EQ_U(out.fallback, GB_DISPATCH_NOTHING);
}

static void test_hold_is_released_at_a_wake_up_once_demand_falls(void)
{
	struct gb_hold h;
	struct gb_task t = {.util = 280, .util_est = 280, .uclamp_max = 1024};

	gb_hold_init(&h);
	CHECK_EQ_U(gb_hold_wake(&h, &t), 0);
	gb_hold_moved(&h, &t, 3, GB_REASON_CAPACITY_MISFIT, 286);
	CHECK_EQ_U(gb_hold_floor(&h, &t), 286);
	CHECK_EQ_U(gb_hold_wake(&h, &t), 286);
	CHECK(!gb_hold_pending(&h));
	t.util = t.util_est = 200; /* under 15/16 of 286 and not above its demand then */
	CHECK_EQ_U(gb_hold_floor(&h, &t), 0);
	CHECK_EQ_U(h.cap, 286); /* a pull's question does not release it */
	CHECK_EQ_U(gb_hold_wake(&h, &t), 0);
	CHECK_EQ_U(h.cap, 0);
	t.util = t.util_est = 280;
	CHECK_EQ_U(gb_hold_wake(&h, &t), 0);
	/* a power-misfit move starts no hold */
	gb_hold_moved(&h, &t, 0, GB_REASON_POWER_MISFIT, 876);
	CHECK(gb_hold_pending(&h));
	CHECK_EQ_U(h.cap, 0);
}

/* ts's task joined domain d's queue and now starts running: the domain it waited in, as the
 * hosts' running callbacks pass it to gb_pull_hold_running (gb_demand_join, gb_demand_leave). */
static u32 queued_in(struct gb_tstate *ts, u32 d)
{
	u32 q, c;

	gb_demand_join(ts, d, GB_NO_CPU);
	gb_demand_leave(ts, &q, &c);
	return q;
}

/*
 * The pull hold's state (gb_pull_hold.h): a task queued on little (domain 0) and run on mid
 * (domain 1) was pulled, and little's busy CPUs are held from it for GB_PULL_HOLD_MIN_US; a
 * task queued and run in one domain, or placed straight on an idle CPU of another domain at its
 * wake-up, was not pulled.
 */
static void test_a_pull_starts_a_hold_on_the_domain_it_left(void)
{
	const u64 t0 = 1000 * MS, min_ns = GB_PULL_HOLD_MIN_US * 1000ull;
	struct gb_tstate ts;
	struct gb_enq_in in;
	struct gb_enq_out out;

	idle_machine();
	nice0_task(&ts, 0);
	CHECK_EQ_U(gb_pull_hold_wake(&ts.pull, t0), 0);
	/* queued on little, run on little: no pull */
	enq_in(&in, 0);
	gb_enqueue_plan(&g_m, g_cpus, g_clock, SLICE_NS, &ts, &in, &out);
	CHECK_EQ_U(out.dom, 0);
	gb_pull_hold_running(&ts.pull, queued_in(&ts, out.dom), 0, t0);
	CHECK_EQ_U(gb_pull_hold_wake(&ts.pull, t0 + MS), 0);
	/* woken onto an idle mid CPU by placement: no queue, no pull */
	gb_pull_hold_running(&ts.pull, GB_DEMAND_NONE, 1, t0 + MS);
	CHECK_EQ_U(gb_pull_hold_wake(&ts.pull, t0 + 2 * MS), 0);
	/* queued on little, taken by mid: held for GB_PULL_HOLD_MIN_US from the pull */
	gb_enqueue_plan(&g_m, g_cpus, g_clock, SLICE_NS, &ts, &in, &out);
	gb_pull_hold_running(&ts.pull, queued_in(&ts, out.dom), 1, t0 + 3 * MS);
	CHECK_EQ_U(gb_pull_hold_wake(&ts.pull, t0 + 4 * MS), 1ull << 0);
	CHECK_EQ_U(gb_pull_hold_wake(&ts.pull, t0 + 3 * MS + min_ns - 1), 1ull << 0);
	CHECK_EQ_U(gb_pull_hold_wake(&ts.pull, t0 + 3 * MS + min_ns), 0);
	/* a task the tracking filled for a pull or the tick carries no hold */
	{
		struct gb_task t;

		gb_track_task(&ts, 2, &in.allowed, &t);
		CHECK_EQ_U(t.pull_held, 0);
	}
}

/*
 * A task pulled out of little again without having run there since (it went back when the hold
 * ended and was left waiting again) is held twice as long each time, up to
 * GB_PULL_HOLD_MAX_US; once it runs on little the next pull starts from GB_PULL_HOLD_MIN_US.
 */
static void test_pulls_that_keep_coming_back_double_the_hold(void)
{
	u64 now = 1000 * MS, span = GB_PULL_HOLD_MIN_US * 1000ull;
	struct gb_tstate ts;
	struct gb_enq_in in;
	struct gb_enq_out out;

	idle_machine();
	nice0_task(&ts, 0);
	enq_in(&in, 0);
	for (int i = 0; i < 8; i++) {
		gb_enqueue_plan(&g_m, g_cpus, g_clock, SLICE_NS, &ts, &in, &out);
		gb_pull_hold_running(&ts.pull, queued_in(&ts, out.dom), 2, now);
		CHECK_EQ_U(gb_pull_hold_wake(&ts.pull, now + span - 1), 1ull << 0);
		CHECK_EQ_U(gb_pull_hold_wake(&ts.pull, now + span), 0);
		now += span + MS;
		span = span * 2 < GB_PULL_HOLD_MAX_US * 1000ull ? span * 2
								: GB_PULL_HOLD_MAX_US * 1000ull;
	}
	CHECK_EQ_U(span, GB_PULL_HOLD_MAX_US * 1000ull);
	/* served on little (queued and run there), then pulled: the first hold again */
	gb_enqueue_plan(&g_m, g_cpus, g_clock, SLICE_NS, &ts, &in, &out);
	gb_pull_hold_running(&ts.pull, queued_in(&ts, out.dom), 0, now);
	gb_enqueue_plan(&g_m, g_cpus, g_clock, SLICE_NS, &ts, &in, &out);
	gb_pull_hold_running(&ts.pull, queued_in(&ts, out.dom), 2, now + MS);
	CHECK_EQ_U(gb_pull_hold_wake(&ts.pull, now + MS + GB_PULL_HOLD_MIN_US * 1000ull), 0);
	/* a pull from another domain starts its own first hold */
	in.task_cpu = 2;
	gb_enqueue_plan(&g_m, g_cpus, g_clock, SLICE_NS, &ts, &in, &out);
	CHECK_EQ_U(out.dom, 1);
	gb_pull_hold_running(&ts.pull, queued_in(&ts, out.dom), 0, now + 2 * MS);
	CHECK_EQ_U(gb_pull_hold_wake(&ts.pull, now + 3 * MS), 1ull << 1);
	CHECK_EQ_U(gb_pull_hold_wake(&ts.pull, now + 2 * MS + GB_PULL_HOLD_MIN_US * 1000ull), 0);
}

/*
 * Placement within the pull hold: a task of util 60 that a pull took out of little (both little
 * CPUs busy with a small task, little the cheapest domain) to mid CPU 2 is offered little's
 * idle CPUs only.  Without the hold it goes back to little, behind a running task, as it did
 * every period before the hold (it would wait in little's queue until the pull took it again);
 * with it, it stays on idle mid CPU 2.  Once a little CPU is idle it goes there, hold or not.
 */
static void test_placement_offers_a_pulled_task_only_idle_cpus_of_the_domain_it_left(void)
{
	struct gb_task t = {.util = 60, .util_est = 60, .runnable = 60, .uclamp_max = 1024};
	struct gb_tstate run;
	struct gb_scratch s;
	struct gb_decision d;
	s32 cpu;

	idle_machine();
	nice0_task(&run, 0);
	run.pelt.util_avg = 30;
	for (u32 c = 0; c < 2; c++) {
		g_cpus[c].util = 30;
		g_cpus[c].perf_cur = 110;
		gb_track_idle(&g_cpus[c], false);
		gb_track_curr(&g_cpus[c], &run);
	}
	all_cpus(&t.allowed);
	t.prev_cpu = 2;
	cpu = gb_select_cpu(&g_m, g_cpus, &t, &s, &d);
	CHECK(cpu == 0 || cpu == 1);
	CHECK_EQ_U(d.reason, GB_REASON_WAKEUP_ENERGY);
	t.pull_held = 1ull << 0;
	CHECK_EQ_I(gb_select_cpu(&g_m, g_cpus, &t, &s, &d), 2);
	/* the shortcut agrees: nothing is cheaper than the idle previous CPU it may use */
	if (gb_prev_is_cheapest(&g_m, g_cpus, &t, &d))
		CHECK_EQ_I(d.cpu, 2);
	/* a hold on another domain changes nothing */
	t.pull_held = 1ull << 2;
	cpu = gb_select_cpu(&g_m, g_cpus, &t, &s, &d);
	CHECK(cpu == 0 || cpu == 1);
	/* an idle little CPU can run it at once: the hold does not keep it off */
	t.pull_held = 1ull << 0;
	gb_track_stop(&g_cpus[1]);
	gb_track_idle(&g_cpus[1], true);
	CHECK_EQ_I(gb_select_cpu(&g_m, g_cpus, &t, &s, &d), 1);
}

static void test_run_time_charges_pelt_and_vtime_at_the_cpus_perf(void)
{
	struct gb_tstate ts;
	struct gb_pelt cpu_pelt = {0};
	struct gb_cpu c = {0};

	idle_machine();
	nice0_task(&ts, 0);
	ts.vtime = 0;
	gb_track_ran(&ts, &cpu_pelt, &c, 64 * MS, 32 * MS, 512);
	CHECK_EQ_U(ts.vtime, 16 * MS);
	CHECK_EQ_U(c.perf_cur, 512);
	CHECK_EQ_U(c.util, cpu_pelt.util_avg);
	/* the task waited 32 ms since its last update (0) and ran the last 32 ms, as the CPU: the
	 * wait counts in its runnable signal, not in its utilization (the kernel's PELT accrues
	 * util only while the entity runs) */
	CHECK(cpu_pelt.util_avg > 0);
	CHECK_EQ_U(ts.pelt.util_avg, cpu_pelt.util_avg);
	CHECK(ts.pelt.runnable_avg > ts.pelt.util_avg);
	ts.weight = 200;
	ts.vtime = 0;
	gb_track_ran(&ts, &cpu_pelt, &c, 65 * MS, MS, 1024);
	CHECK_EQ_U(ts.vtime, MS / 2);
}

/*
 * A wake-up that put the task straight on an idle CPU (gb_track_wake_idle): its wait until it
 * runs is the CPU's idle exit, which the kernel's runnable signal never sees (the task is
 * enqueued after the exit), so its first run's accounting counts the wait as sleep; a later
 * wait for a CPU counts as runnable again.
 */
static void test_a_wait_for_an_idle_cpus_exit_is_not_runnable(void)
{
	struct gb_tstate ts, tq;
	struct gb_pelt cpu_pelt = {0};
	struct gb_cpu c = {0};

	idle_machine();
	nice0_task(&ts, 0);
	tq = ts;
	gb_track_wake(&ts, 10 * MS, g_m.nr_domains, g_clock, SLICE_NS, 512);
	gb_track_wake(&tq, 10 * MS, g_m.nr_domains, g_clock, SLICE_NS, 512);
	gb_track_wake_idle(&ts);
	/* both wait 2 ms (the exit; the queue) and run 1 ms */
	gb_track_ran(&ts, &cpu_pelt, &c, 13 * MS, MS, 512);
	gb_track_ran(&tq, &cpu_pelt, &c, 13 * MS, MS, 512);
	CHECK_EQ_U(ts.pelt.util_avg, tq.pelt.util_avg);
	CHECK_EQ_U(ts.pelt.runnable_avg, ts.pelt.util_avg);
	CHECK(tq.pelt.runnable_avg > tq.pelt.util_avg);
	/* the flag is spent: a wait before its next stretch of run time is runnable */
	CHECK_EQ_U(ts.wake_idle, 0);
	gb_track_ran(&ts, &cpu_pelt, &c, 20 * MS, MS, 512);
	CHECK(ts.pelt.runnable_avg > ts.pelt.util_avg);
	/* and a wake-up clears it when no run came between */
	gb_track_wake_idle(&tq);
	gb_track_wake(&tq, 30 * MS, g_m.nr_domains, g_clock, SLICE_NS, 512);
	CHECK_EQ_U(tq.wake_idle, 0);
}

/*
 * The frequency request counts the tasks waiting in the domain's queue (gb_cpu_freq_util, with
 * the queued demand of gb_demand.h), as schedutil counts the tasks waiting on a run queue: big
 * CPU 3 runs a task of util 400 (400 x 1.25 = 500: OPP 508); two tasks of util 120 join big's
 * queue, and big asks for (400 + 240) x 1.25 = 800 (OPP 891); once they run (counted off), 508
 * again.
 */
static void test_perf_target_counts_the_tasks_waiting_in_the_domains_queue(void)
{
	struct gb_tstate run, q[2];
	u32 idx, sum = 0, dom, c;

	idle_machine();
	nice0_task(&run, 2);
	run.pelt.util_avg = 400;
	gb_track_idle(&g_cpus[3], false);
	gb_track_curr(&g_cpus[3], &run);
	CHECK_EQ_U(gb_domain_perf_target(&g_m, g_cpus, 2, &idx), 508);
	for (u32 i = 0; i < 2; i++) {
		nice0_task(&q[i], 2);
		q[i].pelt.util_avg = 120;
		sum += gb_demand_join(&q[i], 2, GB_NO_CPU);
	}
	gb_demand_spread(&g_m, g_cpus, 2, sum);
	CHECK_EQ_U(g_cpus[3].queued_util, 240);
	CHECK_EQ_U(gb_domain_perf_target(&g_m, g_cpus, 2, &idx), 891);
	for (u32 i = 0; i < 2; i++)
		sum -= gb_demand_leave(&q[i], &dom, &c);
	gb_demand_spread(&g_m, g_cpus, 2, sum);
	CHECK_EQ_U(gb_domain_perf_target(&g_m, g_cpus, 2, &idx), 508);
}

/*
 * A task of util 400 starts running on big CPU 3, idle for long before: the kernel attaches the
 * task's utilization to the run queue it joins, so big's frequency request counts the task
 * (400 x 1.25 = 500: OPP 508) at once, not CPU 3's idle history (OPP 306).  The CPU's own util,
 * which placement and pulls read, stays its own; when the task stops, big asks for that again.
 */
static void test_perf_target_counts_a_task_that_just_moved_to_an_idle_cpu(void)
{
	struct gb_tstate ts;
	struct gb_pelt cpu_pelt = {0};
	u32 idx, own;

	idle_machine();
	nice0_task(&ts, 0);
	gb_pelt_update(&ts.pelt, 300 * MS / 1000, 400, 400); /* a history of util 400 */
	gb_util_est_dequeue(&ts.pelt);
	CHECK(ts.pelt.util_avg >= 390 && ts.pelt.util_avg <= 400);
	gb_pelt_update(&cpu_pelt, 100 * MS / 1000, 1024, 1024); /* CPU 3 ran 100 ms long ago */
	gb_pelt_update(&cpu_pelt, 300 * MS / 1000, 0, 0);
	g_cpus[3].util = own = cpu_pelt.util_avg;
	CHECK(own < 50);
	CHECK_EQ_U(gb_domain_perf_target(&g_m, g_cpus, 2, &idx), 306);

	gb_track_idle(&g_cpus[3], false);
	gb_track_curr(&g_cpus[3], &ts);
	CHECK_EQ_U(g_cpus[3].curr_util, ts.pelt.util_avg);
	CHECK_EQ_U(gb_domain_perf_target(&g_m, g_cpus, 2, &idx), 508);
	CHECK_EQ_U(idx, 1);
	/* a first stretch of run time at the low OPP: the CPU's own signal barely moves */
	gb_track_ran(&ts, &cpu_pelt, &g_cpus[3], 301 * MS, MS, 306);
	CHECK_EQ_U(g_cpus[3].util, cpu_pelt.util_avg);
	CHECK(g_cpus[3].util < 100);
	CHECK_EQ_U(gb_domain_perf_target(&g_m, g_cpus, 2, &idx), 508);
	/* the task stops: big asks for its own history again */
	gb_track_stop(&g_cpus[3]);
	CHECK_EQ_U(gb_domain_perf_target(&g_m, g_cpus, 2, &idx), 306);
	/* an idle CPU counts no task */
	gb_track_curr(&g_cpus[3], &ts);
	gb_track_idle(&g_cpus[3], true);
	CHECK_EQ_U(g_cpus[3].curr_util, 0);
}

/*
 * Placement and over-utilization count the task running on a CPU as the kernel counts a task
 * attached to its run queue: little CPU 0 (286) was idle for long and has just started a task of
 * util 150, so its own signal is still near 0.  A task of util 200 that last ran on big would
 * make 350 there: no room on little (CPU 1 is offline), so it goes to mid CPU 2.  With a running
 * task of util 250 little reads as over-utilized.  Without curr_util both would see CPU 0's idle
 * history: the task would share a CPU it does not fit, and the domain would look light.
 */
static void test_placement_counts_the_task_running_on_a_cpu(void)
{
	struct gb_tstate run;
	struct gb_task t = {.util = 200, .util_est = 200, .runnable = 200, .uclamp_max = 1024};
	struct gb_scratch s;
	struct gb_decision d;

	idle_machine();
	g_cpus[1].online = 0;
	nice0_task(&run, 0);
	run.pelt.util_avg = 150;
	g_cpus[0].util = 10;
	gb_track_idle(&g_cpus[0], false);
	gb_track_curr(&g_cpus[0], &run);
	all_cpus(&t.allowed);
	t.prev_cpu = 3; /* it last ran on big */
	CHECK(!gb_domain_overutilized(&g_m, g_cpus, 0));
	CHECK_EQ_I(gb_select_cpu(&g_m, g_cpus, &t, &s, &d), 2);
	/* the same with the running task's utilization in the CPU's own signal */
	g_cpus[0].util = 150;
	g_cpus[0].curr_util = 0;
	CHECK_EQ_I(gb_select_cpu(&g_m, g_cpus, &t, &s, &d), 2);
	/* once it stops, the room is there again */
	g_cpus[0].util = 10;
	gb_track_stop(&g_cpus[0]);
	CHECK_EQ_I(gb_select_cpu(&g_m, g_cpus, &t, &s, &d), 0);
	/* a running task of util 250 (x 1.25 > 286) makes little over-utilized */
	run.pelt.util_avg = 250;
	gb_track_curr(&g_cpus[0], &run);
	CHECK(gb_domain_overutilized(&g_m, g_cpus, 0));
}

/*
 * The queued demand (gb_demand.h): tasks waiting in little's queue count on little's online
 * CPUs, split evenly, as the kernel counts a waiting task on its run queue.  Three tasks of util
 * 140 wait for little (CPUs 0-1, 286): 210 on each, and a task of util 100 that last ran on big
 * no longer has room there (310 > 286): it goes to mid CPU 2, where with the queue empty it went
 * to little CPU 0.  A fourth makes little over-utilized (280 x 1.25 > 286).  With CPU 1 offline
 * CPU 0 carries the whole queue.  A task counts once, and not after it started running.
 * Without the queued demand placement sees an idle little domain in every case.
 */
static void test_placement_counts_the_tasks_waiting_in_a_domains_queue(void)
{
	struct gb_tstate q[4];
	struct gb_task t = {.util = 100, .util_est = 100, .runnable = 100, .uclamp_max = 1024};
	struct gb_scratch s;
	struct gb_decision d;
	u32 sum = 0, dom, c;

	idle_machine();
	all_cpus(&t.allowed);
	t.prev_cpu = 3;
	CHECK_EQ_I(gb_select_cpu(&g_m, g_cpus, &t, &s, &d), 0);
	for (u32 i = 0; i < 4; i++) {
		nice0_task(&q[i], 0);
		q[i].pelt.util_avg = 140;
	}
	for (u32 i = 0; i < 3; i++)
		sum += gb_demand_join(&q[i], 0, GB_NO_CPU);
	CHECK_EQ_U(sum, 420);
	gb_demand_spread(&g_m, g_cpus, 0, sum);
	CHECK_EQ_U(g_cpus[0].queued_util, 210);
	CHECK_EQ_U(g_cpus[1].queued_util, 210);
	CHECK_EQ_U(g_cpus[2].queued_util, 0);
	CHECK_EQ_I(gb_select_cpu(&g_m, g_cpus, &t, &s, &d), 2);
	CHECK(!gb_domain_overutilized(&g_m, g_cpus, 0));
	sum += gb_demand_join(&q[3], 0, GB_NO_CPU);
	gb_demand_spread(&g_m, g_cpus, 0, sum);
	CHECK(gb_domain_overutilized(&g_m, g_cpus, 0));
	/* CPU 1 goes offline: CPU 0 serves the whole queue */
	g_cpus[1].online = 0;
	gb_demand_spread(&g_m, g_cpus, 0, sum);
	CHECK_EQ_U(g_cpus[0].queued_util, 560);
	CHECK_EQ_U(g_cpus[1].queued_util, 0);
	g_cpus[1].online = 1;
	/* each starts running: counted off once */
	for (u32 i = 0; i < 4; i++) {
		sum -= gb_demand_leave(&q[i], &dom, &c);
		CHECK_EQ_U(dom, 0);
		CHECK_EQ_U(gb_demand_leave(&q[i], &dom, &c), 0);
		CHECK_EQ_U(dom, GB_DEMAND_NONE);
	}
	CHECK_EQ_U(sum, 0);
	gb_demand_spread(&g_m, g_cpus, 0, sum);
	CHECK_EQ_I(gb_select_cpu(&g_m, g_cpus, &t, &s, &d), 0);
	/* a task with no utilization yet still counts as waiting */
	q[0].pelt.util_avg = 0;
	CHECK_EQ_U(gb_demand_join(&q[0], 1, GB_NO_CPU), 1);
	CHECK_EQ_U(gb_demand_leave(&q[0], &dom, &c), 1);
	CHECK_EQ_U(dom, 1);
}

/*
 * A task waiting in a queue counts once: in its domain's queued demand, not also in the signal
 * of the CPU it was on (gb_demand.h, "Counted once").  Big CPU 3 runs a task of util 200 and
 * its own signal (600) holds that task's past running and that of a task of util 400 that was
 * preempted there and now waits in big's queue.  The frequency request and placement read 600
 * (the signal less the waiting task, plus its share of the queue), not 1000; over-utilization
 * reads the signal whole.  When the waiting task runs, it counts nowhere as waiting.
 */
static void test_a_waiting_task_counts_once_not_also_in_the_cpu_it_left(void)
{
	struct gb_tstate run, wait;
	struct gb_task t = {.util = 100, .util_est = 100, .runnable = 100, .uclamp_max = 1024};
	u32 u, dom, c;

	idle_machine();
	nice0_task(&run, 2);
	run.pelt.util_avg = 200;
	gb_track_idle(&g_cpus[3], false);
	gb_track_curr(&g_cpus[3], &run);
	g_cpus[3].util = 600;
	nice0_task(&wait, 2);
	wait.pelt.util_avg = 400;
	u = gb_demand_join(&wait, 2, 3);
	CHECK_EQ_U(u, 400);
	CHECK_EQ_U(wait.queued_cpu, 3);
	g_cpus[3].waiting_util += u;
	gb_demand_spread(&g_m, g_cpus, 2, u);
	CHECK_EQ_U(g_cpus[3].queued_util, 400);
	CHECK_EQ_U(gb_cpu_signal(&g_cpus[3]), 200);
	CHECK_EQ_U(gb_cpu_freq_util(&g_cpus[3]), 600);
	all_cpus(&t.allowed);
	t.prev_cpu = 0;
	CHECK_EQ_U(gb_util_without(&g_cpus[3], 3, &t), 600);
	CHECK(gb_cpu_overutilized(&g_cpus[3], 1024));
	/* it starts running: off the queue and off CPU 3's waiting util */
	CHECK_EQ_U(gb_demand_leave(&wait, &dom, &c), 400);
	CHECK_EQ_U(dom, 2);
	CHECK_EQ_U(c, 3);
	g_cpus[3].waiting_util -= 400;
	gb_demand_spread(&g_m, g_cpus, 2, 0);
	CHECK_EQ_U(gb_cpu_freq_util(&g_cpus[3]), 600);
	CHECK(!gb_cpu_overutilized(&g_cpus[3], 1024));
	/* a task on no CPU of the model counts in no CPU's waiting util */
	gb_demand_join(&wait, 2, GB_NO_CPU);
	CHECK_EQ_U(wait.queued_cpu, GB_DEMAND_NONE);
	CHECK_EQ_U(gb_demand_leave(&wait, &dom, &c), 400);
	CHECK_EQ_U(c, GB_DEMAND_NONE);
}

static void test_idle_decay_is_on_a_copy_and_rate_limited(void)
{
	struct gb_pelt pe = {0};
	struct gb_cpu c = {0};
	u64 last = 0;
	u32 before;

	gb_pelt_update(&pe, 100000, 1024, 1024);
	c.util = pe.util_avg;
	before = pe.util_avg;
	gb_track_idle_decay(&pe, &c, &last, 200000);
	CHECK(c.util < before / 2);
	CHECK_EQ_U(pe.util_avg, before);
	CHECK_EQ_U(last, 200000);
	c.util = before;
	gb_track_idle_decay(&pe, &c, &last, 200000 + GB_IDLE_DECAY_US - 1);
	CHECK_EQ_U(c.util, before);
}

int main(int argc, char **argv)
{
	struct em_profile prof;
	struct gb_err err;
	char path[512];

	if (argc != 2) {
		fprintf(stderr, "usage: test_queue TESTS_SCHED_DIR\n");
		return 2;
	}
	snprintf(path, sizeof(path), "%s/vm4.json", argv[1]);
	if (em_profile_load_file(path, &prof, false, NULL, &err)) {
		fprintf(stderr, "test_queue: %s\n", err.msg);
		return 1;
	}
	g_m = prof.model;
	TAP_RUN(test_enqueue_joins_the_domain_queue_of_its_cpu_with_its_deadline);
	TAP_RUN(test_enqueue_limits_a_sleepers_credit_to_half_a_slice);
	TAP_RUN(test_enqueue_keeps_the_lag_when_the_task_changes_domain);
	TAP_RUN(test_enqueue_applies_a_pending_misfit_move_once);
	TAP_RUN(test_last_task_moves_to_its_misfit_target_or_runs_on);
	TAP_RUN(test_enqueue_leaves_an_offline_cpu_for_an_online_one);
	TAP_RUN(test_local_shortcut_only_for_a_woken_pinned_task_within_a_slice);
	TAP_RUN(test_kick_wakes_an_idle_cpu_of_the_domain_but_never_the_caller);
	TAP_RUN(test_kick_wakes_another_domains_idle_cpu_that_may_pull);
	TAP_RUN(test_slice_expiry_keeps_the_earlier_deadline_running);
	TAP_RUN(test_slice_expiry_limits_credit_against_the_heads_clock);
	TAP_RUN(test_slice_expiry_of_the_heads_weight_is_limited_against_now);
	TAP_RUN(test_no_new_slice_on_the_way_to_a_misfit_target_or_offline);
	TAP_RUN(test_idle_pull_does_not_undo_a_capacity_misfit_move);
	TAP_RUN(test_pull_wait_counts_from_the_heads_enqueue);
	TAP_RUN(test_no_pull_from_a_domain_that_is_not_over_utilized);
	TAP_RUN(test_own_queue_comes_before_pulls);
	TAP_RUN(test_hold_is_released_at_a_wake_up_once_demand_falls);
	TAP_RUN(test_a_pull_starts_a_hold_on_the_domain_it_left);
	TAP_RUN(test_pulls_that_keep_coming_back_double_the_hold);
	TAP_RUN(test_placement_offers_a_pulled_task_only_idle_cpus_of_the_domain_it_left);
	TAP_RUN(test_run_time_charges_pelt_and_vtime_at_the_cpus_perf);
	TAP_RUN(test_a_wait_for_an_idle_cpus_exit_is_not_runnable);
	TAP_RUN(test_perf_target_counts_a_task_that_just_moved_to_an_idle_cpu);
	TAP_RUN(test_perf_target_counts_the_tasks_waiting_in_the_domains_queue);
	TAP_RUN(test_placement_counts_the_task_running_on_a_cpu);
	TAP_RUN(test_placement_counts_the_tasks_waiting_in_a_domains_queue);
	TAP_RUN(test_a_waiting_task_counts_once_not_also_in_the_cpu_it_left);
	TAP_RUN(test_idle_decay_is_on_a_copy_and_rate_limited);
	return tap_done();
}
