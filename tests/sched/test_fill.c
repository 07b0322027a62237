// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_fill.c - scx_gearbox and the simulator fill the core's structs the same way (the
 * contract of src/policy/gb_types.h), and ask the core the same pull question.  The BPF
 * adapter's fill functions (bpf/gb_fill.h, compiled here natively) get the kernel-side view of
 * a random machine state -- per task what a task_struct holds (clamps, affinity, weight), the
 * task's tracked state, the idle mask, each CPU's last task -- and the simulator
 * (src/sim: sim_fill_task, sim_refresh, the gearbox policy's may_pull) the same state as its
 * tasks and CPUs; the filled gb_task and gb_cpu are compared field by field, and an idle CPU's
 * pull through the adapter's path (gb_fill_head, gb_dispatch_plan) against each of the
 * simulator's hosts: the fair host's may_pull, and the sched_ext host's ops.dispatch on its
 * DSQs (sim_scx.c, run through sim_scx_pick).
 *
 * Fields the contract lets differ are named and skipped: a CPU's util and runnable (the
 * simulator sums its tasks' signals, scx_gearbox keeps one per CPU), an idle CPU's uclamp_min
 * (ignored when idle: gb_rq_umin is compared instead), perf_cur.  curr_util, the running
 * task's utilization that the frequency request counts, is compared (0 on an idle CPU).
 *
 *   test_fill EM_PROFILES_DIR
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../unit/tap.h"
#include "em_profile.h"
#include "gb_fill.h"
#include "sim_internal.h"

#define TRIALS	 2000
#define PULL_US	 4000
#define SLICE_NS 5000000ull

static const char *models_dir;
static const char *const models[] = {"gs101", "sm8250", "msm8998"};
static struct em_profile prof;
static struct sim *g_s;
static unsigned long long rng = 0x2545f4914f6cdd1dull;

static unsigned rnd(unsigned n)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return n ? (unsigned)(rng % n) : 0;
}

static int load_model(const char *name)
{
	char path[512];
	struct gb_err err;

	snprintf(path, sizeof(path), "%s/%s.json", models_dir, name);
	if (em_profile_load_file(path, &prof, false, NULL, &err)) {
		printf("# %s\n", err.msg);
		return -1;
	}
	return 0;
}

/*
 * A random state of the simulator: one task per CPU and a few more, each running, queued or
 * sleeping, with PELT signals, clamps, affinity and a misfit hold.  CPUs without a running
 * task are idle.
 */
static void random_sim(struct sim *s, u32 nr_tasks)
{
	const struct em_model *m = &prof.model;

	memset(s, 0, sizeof(*s));
	s->prof = &prof;
	s->m = m;
	s->ops = sim_policy_ops_of(SIM_POLICY_GEARBOX);
	/* the running task's runnable is compared with the rule on and off where the state is
	 * the sched_ext host's (test_running_deadline_fill_matches_the_sched_ext_hosts); here it is
	 * the fill alone */
	s->opt.wake_preempt = SIM_PREEMPT_OFF;
	s->now_us = 1000000 + rnd(1000000);
	s->nr_tasks = nr_tasks;
	s->tasks = calloc(nr_tasks, sizeof(*s->tasks));
	for (u32 d = 0; d < m->nr_domains; d++)
		s->doms[d].opp = rnd(m->domains[d].nr_opps);
	for (u32 c = 0; c < m->nr_cpus; c++) {
		s->cpus[c].curr = -1;
		s->cpus[c].last_uclamp_max = rnd(2) ? 0 : 1 + rnd(1024);
	}
	for (u32 i = 0; i < nr_tasks; i++) {
		struct sim_task *t = &s->tasks[i];
		u32 c = rnd(m->nr_cpus);

		t->id = i;
		t->cpu = (s32)c;
		t->pelt.util_avg = rnd(1025);
		t->pelt.util_est = rnd(1025);
		t->pelt.runnable_avg = t->pelt.util_avg + rnd(1025 - t->pelt.util_avg);
		t->uclamp_min = rnd(3) ? 0 : rnd(1025);
		t->uclamp_max = rnd(3) ? 1024 : rnd(1025);
		t->weight = 1024;
		if (rnd(4)) {
			for (u32 a = 0; a < m->nr_cpus; a++)
				em_cpumask_set(&t->allowed, a);
		} else {
			em_cpumask_set(&t->allowed, c);
			em_cpumask_set(&t->allowed, rnd(m->nr_cpus));
		}
		if (!rnd(4)) {
			t->misfit_cap = em_domain_capacity(&m->domains[rnd(m->nr_domains)]);
			t->misfit_work = rnd(1025);
		}
		if (s->cpus[c].curr < 0 && rnd(3)) {
			t->state = TS_RUNNING;
			s->cpus[c].curr = (s32)i;
			s->cpus[c].last_uclamp_max = t->uclamp_max;
		} else {
			t->state = rnd(2) ? TS_QUEUED : TS_SLEEP;
			t->queued_us = s->now_us - rnd(2 * PULL_US);
		}
	}
}

/*
 * The start of every pull and dispatch case: a random state of the simulator, one of its tasks
 * (index *ti) made to wait, taken off its CPU if it ran there, and a random CPU *dst.
 */
static struct sim_task *random_waiting_task(const struct em_model *m, u32 *ti, u32 *dst)
{
	struct sim_task *t;

	random_sim(g_s, m->nr_cpus + 4);
	*ti = rnd(g_s->nr_tasks);
	t = &g_s->tasks[*ti];
	if (t->state == TS_RUNNING)
		g_s->cpus[t->cpu].curr = -1;
	t->state = TS_QUEUED;
	*dst = rnd(m->nr_cpus);
	return t;
}

/* What scx_gearbox keeps and reads for the simulator's task t. */
static void bpf_view_of(const struct sim_task *t, struct gb_tstate *ts, struct gb_ktask *kt)
{
	gb_track_init(ts);
	ts->pelt = t->pelt;
	ts->hold.cap = t->misfit_cap;
	ts->hold.work = t->misfit_work;
	ts->queued_ns = t->queued_us * 1000;
	memset(kt, 0, sizeof(*kt));
	kt->cpus_bits = t->allowed.bits[0];
	kt->weight = GB_WEIGHT_DFL;
	kt->has_uclamp = 1;
	kt->uclamp_req_min = t->uclamp_min;
	kt->uclamp_req_max = t->uclamp_max;
	kt->nr_cpus_allowed = (u32)__builtin_popcountll(t->allowed.bits[0]);
	gb_fill_clamps(ts, kt);
	gb_fill_sched(ts, kt);
}

static bool same_task(const struct gb_task *a, const struct gb_task *b, u32 i)
{
	bool ok = a->util == b->util && a->util_est == b->util_est && a->runnable == b->runnable &&
		  a->uclamp_min == b->uclamp_min && a->uclamp_max == b->uclamp_max &&
		  a->prev_cpu == b->prev_cpu && a->floor_cap == b->floor_cap &&
		  a->pull_held == b->pull_held &&
		  !memcmp(&a->allowed, &b->allowed, sizeof(a->allowed));

	if (!ok)
		printf("# task %u: bpf util %u/%u/%u clamps %u-%u prev %d floor %u, sim %u/%u/%u "
		       "clamps %u-%u prev %d floor %u\n",
		       i, a->util, a->util_est, a->runnable, a->uclamp_min, a->uclamp_max,
		       a->prev_cpu, a->floor_cap, b->util, b->util_est, b->runnable, b->uclamp_min,
		       b->uclamp_max, b->prev_cpu, b->floor_cap);
	return ok;
}

static void test_task_fill_matches_the_simulators(void)
{
	u32 checked = 0, bad = 0;

	for (unsigned k = 0; k < sizeof(models) / sizeof(models[0]); k++) {
		if (load_model(models[k]))
			continue;
		for (int trial = 0; trial < TRIALS / 10; trial++) {
			random_sim(g_s, prof.model.nr_cpus + 4);
			for (u32 i = 0; i < g_s->nr_tasks; i++) {
				const struct sim_task *t = &g_s->tasks[i];
				struct gb_task bt, st;
				struct gb_tstate ts;
				struct gb_ktask kt;

				/* the adapter, at a wake-up on the task's CPU */
				bpf_view_of(t, &ts, &kt);
				gb_fill_task(&bt, &ts, &kt, t->cpu, GB_MODE_ENERGY);
				bt.floor_cap = gb_hold_floor(&ts.hold, &bt);
				/* the simulator (gearbox_select, gearbox_may_pull) */
				sim_fill_task(g_s, t, &st);
				st.floor_cap = gb_misfit_hold(&st, t->misfit_cap, t->misfit_work);
				checked++;
				bad += !same_task(&bt, &st, i);
			}
			free(g_s->tasks);
		}
	}
	printf("# %u tasks compared\n", checked);
	CHECK(checked > 1000);
	CHECK_EQ_U(bad, 0);
}

static void test_cpu_fill_matches_the_simulators(void)
{
	u32 checked = 0, bad = 0;

	for (unsigned k = 0; k < sizeof(models) / sizeof(models[0]); k++) {
		if (load_model(models[k]))
			continue;
		for (int trial = 0; trial < TRIALS / 10; trial++) {
			struct gb_cpu bc[EM_MAX_CPUS];
			u64 idle_bits = 0;

			random_sim(g_s, prof.model.nr_cpus + 4);
			sim_refresh(g_s);
			/* the adapter: the idle mask, the running task noted (gb_note_curr), an
			 * idle CPU's clamps those its last task noted there */
			memset(bc, 0, sizeof(bc));
			for (u32 c = 0; c < prof.model.nr_cpus; c++)
				if (g_s->cpus[c].curr < 0)
					idle_bits |= 1ull << c;
			for (u32 c = 0; c < prof.model.nr_cpus; c++) {
				s32 cur = g_s->cpus[c].curr;
				struct gb_tstate ts;
				struct gb_ktask kt;

				bc[c].online = 1;
				bc[c].uclamp_max = g_s->cpus[c].last_uclamp_max;
				bc[c].uclamp_min = rnd(1025);
				bc[c].curr_util = rnd(1025); /* left by the CPU's last task */
				if (cur >= 0) {
					bpf_view_of(&g_s->tasks[cur], &ts, &kt);
					gb_track_curr(&bc[c], &ts);
					gb_preempt_curr(&bc[c], false);
				}
				gb_fill_cpu_idle(&bc[c], idle_bits, c);
			}
			for (u32 c = 0; c < prof.model.nr_cpus; c++) {
				const struct gb_cpu *a = &bc[c], *b = &g_s->gcpu[c];
				bool ok = a->idle == b->idle && a->online == b->online &&
					  a->nr_running == b->nr_running &&
					  a->curr_util == b->curr_util &&
					  a->curr_runnable == b->curr_runnable &&
					  gb_rq_umin(a) == gb_rq_umin(b) &&
					  gb_rq_umax(a) == gb_rq_umax(b);

				if (!ok)
					printf("# %s cpu %u: bpf idle %u nr %u umin %u umax %u "
					       "curr_util %u, sim idle %u nr %u umin %u umax %u "
					       "curr_util %u\n",
					       models[k], c, a->idle, a->nr_running, gb_rq_umin(a),
					       gb_rq_umax(a), a->curr_util, b->idle, b->nr_running,
					       gb_rq_umin(b), gb_rq_umax(b), b->curr_util);
				checked++;
				bad += !ok;
			}
			free(g_s->tasks);
		}
	}
	printf("# %u CPUs compared\n", checked);
	CHECK(checked > 1000);
	CHECK_EQ_U(bad, 0);
}

/* The pull comparisons' tally: asked, taken by the simulator, answers that differ. */
struct pull_tally {
	u32 asked, pulled, bad;
};

/* One pull asked of both hosts: CPU dst idle, the task i of model name on its CPU. */
static void tally_pull(struct pull_tally *pt, const char *name, u32 i, s32 cpu, u32 dst,
		       bool sim_pulls, bool bpf_pulls)
{
	pt->asked++;
	pt->pulled += sim_pulls;
	if (sim_pulls != bpf_pulls) {
		pt->bad++;
		printf("# %s: task %u on cpu %d to idle cpu %u: sim %d, bpf %d\n", name, i, cpu,
		       dst, sim_pulls, bpf_pulls);
	}
}

/* Enough pulls asked, both answers occurring (so the comparison shows something), none
 * differing. */
static void check_tally(const struct pull_tally *pt)
{
	printf("# %u pulls asked, %u taken\n", pt->asked, pt->pulled);
	CHECK(pt->asked > 500);
	CHECK(pt->pulled > pt->asked / 20 && pt->pulled < pt->asked - pt->asked / 20);
	CHECK_EQ_U(pt->bad, 0);
}

/*
 * An idle CPU dst and a task t waiting for CPU src of another domain, at the head of that
 * domain's queue: does the adapter's dispatch pull it (gb_fill_head, gb_dispatch_plan) when
 * the simulator's gearbox does (its may_pull)?  Same CPU table (the simulator's, after its
 * refresh); t's wait counted from when it was queued on both sides.
 */
static void test_pull_decisions_match_the_simulators(void)
{
	struct pull_tally pt = {0};

	for (unsigned k = 0; k < sizeof(models) / sizeof(models[0]); k++) {
		if (load_model(models[k]))
			continue;
		for (int trial = 0; trial < TRIALS; trial++) {
			const struct em_model *m = &prof.model;
			struct gb_disp_in *in = calloc(1, sizeof(*in));
			struct gb_disp_out out;
			struct sim_task *t;
			u64 clock[EM_MAX_DOMAINS] = {0};
			u32 dst, src_d, i;
			bool sim_pulls, bpf_pulls;
			struct gb_tstate ts;
			struct gb_ktask kt;

			t = random_waiting_task(m, &i, &dst);
			g_s->opt.pull_after_us = PULL_US;
			src_d = m->cpu_domain[t->cpu];
			if (m->cpu_domain[dst] == src_d || g_s->cpus[dst].curr >= 0 ||
			    !em_cpumask_test(&t->allowed, dst)) {
				free(in);
				free(g_s->tasks);
				continue;
			}
			/* the simulator's refresh and over-utilization, then its answer */
			sim_refresh(g_s);
			for (u32 d = 0; d < m->nr_domains; d++)
				g_s->doms[d].ou = gb_domain_overutilized(m, g_s->gcpu, d);
			sim_pulls = g_s->ops->may_pull(g_s, dst, (u32)t->cpu, t);
			/* the adapter's, on the same CPU table */
			bpf_view_of(t, &ts, &kt);
			in->cpu = (s32)dst;
			gb_fill_head(&in->heads[src_d], &ts, &kt, t->cpu, 0, g_s->now_us * 1000,
				     GB_MODE_ENERGY);
			gb_dispatch_plan(m, g_s->gcpu, clock, SLICE_NS, PULL_US, in, NULL, &out);
			bpf_pulls = out.act == GB_DISPATCH_CONSUME && (out.try_mask >> src_d & 1);
			tally_pull(&pt, models[k], i, t->cpu, dst, sim_pulls, bpf_pulls);
			free(in);
			free(g_s->tasks);
		}
	}
	check_tally(&pt);
}

/*
 * The simulator's state as the sched_ext host keeps it (sim_scx.c): the kernel's idle mask is
 * the CPUs without a running task, every task is out of the DSQs, and scx_gearbox's own
 * signals -- each task's (its tracked state: PELT, misfit hold, queued time) and each CPU's
 * (the busy CPUs' as gb_track_ran left them, the idle CPUs' decayed from cpu_pelt) -- are
 * random too.
 */
static void random_scx(struct sim *s)
{
	static const struct wl_task wt; /* default sched attributes: no slice_us */
	const struct em_model *m = s->m;

	sim_scx_init(s);
	for (u32 c = 0; c < m->nr_cpus; c++) {
		struct gb_pelt *pe = &s->scx.cpu_pelt[c];
		u32 cap = sim_cpu_capacity(s, c);

		s->scx.idle[c] = s->cpus[c].curr < 0;
		s->scx.track_cpu[c].util = rnd(cap + 1);
		s->scx.track_cpu[c].runnable = s->scx.track_cpu[c].util + rnd(cap + 1);
		pe->last_us = s->now_us - rnd(20000);
		pe->util_avg = rnd(cap + 1);
		pe->runnable_avg = pe->util_avg;
		pe->util_sum = pe->runnable_sum =
		    (u64)pe->util_avg * (GB_LOAD_AVG_MAX - GB_PELT_PERIOD_US);
	}
	for (u32 i = 0; i < s->nr_tasks; i++) {
		struct sim_task *t = &s->tasks[i];

		t->wt = &wt;
		t->x.ts.pelt = t->pelt;
		t->x.ts.hold.cap = t->misfit_cap;
		t->x.ts.hold.work = t->misfit_work;
		t->x.ts.queued_ns = t->queued_us * 1000;
	}
}

/*
 * The same question on the sched_ext host, which the simulator runs gearbox on: task t waits
 * alone in its domain's DSQ and idle CPU dst of another domain schedules (sim_scx_pick: its
 * local and the global DSQ are empty, so scx_gearbox's dispatch runs on the host's CPU table).
 * Does dst take t exactly when the adapter's dispatch, from the kernel's view of t
 * (gb_fill_head) and the same CPU table, consumes t's domain queue?
 */
static void test_pull_decisions_match_the_sched_ext_hosts(void)
{
	struct pull_tally pt = {0};

	for (unsigned k = 0; k < sizeof(models) / sizeof(models[0]); k++) {
		if (load_model(models[k]))
			continue;
		for (int trial = 0; trial < TRIALS; trial++) {
			const struct em_model *m = &prof.model;
			struct gb_disp_in *in = calloc(1, sizeof(*in));
			struct gb_cpu cpus[EM_MAX_CPUS];
			struct gb_disp_out out;
			struct sim_task *t;
			u64 clock[EM_MAX_DOMAINS] = {0};
			u32 dst, src_d, i;
			bool sim_pulls, bpf_pulls;
			struct gb_tstate ts;
			struct gb_ktask kt;

			t = random_waiting_task(m, &i, &dst);
			g_s->opt.pull_after_us = PULL_US;
			src_d = m->cpu_domain[t->cpu];
			if (m->cpu_domain[dst] == src_d || g_s->cpus[dst].curr >= 0 ||
			    !em_cpumask_test(&t->allowed, dst)) {
				free(in);
				free(g_s->tasks);
				continue;
			}
			random_scx(g_s);
			t->x.dsq = (s32)src_d;
			t->x.dsq_vtime = rnd(1u << 30);
			/* the adapter, on the CPU table the host's dispatch will read */
			sim_refresh(g_s);
			memcpy(cpus, g_s->gcpu, sizeof(cpus));
			bpf_view_of(t, &ts, &kt);
			in->cpu = (s32)dst;
			gb_fill_head(&in->heads[src_d], &ts, &kt, t->cpu, t->x.dsq_vtime,
				     g_s->now_us * 1000, GB_MODE_ENERGY);
			gb_dispatch_plan(m, cpus, clock, SLICE_NS, PULL_US, in, NULL, &out);
			bpf_pulls = out.act == GB_DISPATCH_CONSUME && (out.try_mask >> src_d & 1);
			/* the host: dst schedules */
			sim_scx_pick(g_s, dst);
			sim_pulls = t->cpu == (s32)dst && t->state == TS_RUNNING;
			tally_pull(&pt, models[k], i, t->cpu, dst, sim_pulls, bpf_pulls);
			free(in);
			free(g_s->tasks);
		}
	}
	check_tally(&pt);
}

/*
 * The running task's deadline (gb_cpu.preemptible, curr_deadline) and its signals (curr_util,
 * curr_runnable) as the sched_ext host notes them when an idle CPU dst of domain d takes a task
 * t from d's DSQ and runs it (sim_scx_pick: ops.dispatch, then ops.running), against the
 * adapter's ops.running (gb_note_curr's gb_track_curr and gb_preempt_curr, with wake-up
 * preemption on or off, then gb_preempt_note) from the kernel's view of t -- its weight and own
 * slice through gb_fill_sched -- with the same domain clocks and perf.  t's vtime, its domain,
 * weight and slice are random; a kept task's vtime past the clock included.
 */
static void test_running_deadline_fill_matches_the_sched_ext_hosts(void)
{
	static struct wl_task wts[3];
	u32 checked = 0, bad = 0;

	wts[1].sched.slice_us = 1000;
	wts[2].sched.slice_us = 20000;
	for (unsigned k = 0; k < sizeof(models) / sizeof(models[0]); k++) {
		if (load_model(models[k]))
			continue;
		for (int trial = 0; trial < TRIALS; trial++) {
			const struct em_model *m = &prof.model;
			struct gb_cpu bc;
			struct sim_task *t;
			struct gb_tstate ts;
			struct gb_ktask kt;
			u32 dst, d, i, mode;

			t = random_waiting_task(m, &i, &dst);
			d = m->cpu_domain[dst];
			if (g_s->cpus[dst].curr >= 0 || !em_cpumask_test(&t->allowed, dst)) {
				free(g_s->tasks);
				continue;
			}
			random_scx(g_s);
			for (u32 o = 0; o < m->nr_domains; o++)
				g_s->scx.dom_vtime[o] = (u64)rnd(1u << 30) << 4;
			t->wt = &wts[rnd(3)];
			t->x.weight = 1 + rnd(10000);
			t->x.ts.vdom = rnd(m->nr_domains + 1);
			t->x.ts.vtime = (u64)rnd(1u << 30) << 4;
			t->x.dsq = (s32)d;
			t->x.dsq_vtime = rnd(1u << 30);
			/* the adapter: the kernel's view of t when it starts running on dst */
			bpf_view_of(t, &ts, &kt);
			ts.vdom = t->x.ts.vdom;
			ts.vtime = t->x.ts.vtime;
			kt.weight = t->x.weight;
			kt.custom_slice = t->wt->sched.slice_us != 0;
			kt.slice_ns = t->wt->sched.slice_us * 1000;
			gb_fill_sched(&ts, &kt);
			memset(&bc, 0, sizeof(bc));
			mode = rnd(3); /* GB_PREEMPT_OFF, _LATENCY or _ON */
			g_s->opt.wake_preempt = sim_preempt_of(mode);
			gb_track_curr(&bc, &ts);
			gb_preempt_curr(&bc, mode);
			gb_preempt_note(&bc, &ts, d, m->nr_domains, g_s->scx.dom_vtime, SLICE_NS,
					sim_cpu_perf(g_s, dst));
			/* the host: dst schedules and runs t */
			sim_scx_pick(g_s, dst);
			if (g_s->cpus[dst].curr != (s32)i) {
				free(g_s->tasks);
				continue;
			}
			sim_refresh(g_s);
			checked++;
			if (bc.preemptible != g_s->gcpu[dst].preemptible ||
			    bc.curr_deadline != g_s->gcpu[dst].curr_deadline ||
			    bc.curr_util != g_s->gcpu[dst].curr_util ||
			    bc.curr_runnable != g_s->gcpu[dst].curr_runnable) {
				bad++;
				printf("# %s: task %u on cpu %u: bpf %u/%llu/%u/%u, sim "
				       "%u/%llu/%u/%u\n",
				       models[k], i, dst, bc.preemptible,
				       (unsigned long long)bc.curr_deadline, bc.curr_util,
				       bc.curr_runnable, g_s->gcpu[dst].preemptible,
				       (unsigned long long)g_s->gcpu[dst].curr_deadline,
				       g_s->gcpu[dst].curr_util, g_s->gcpu[dst].curr_runnable);
			}
			free(g_s->tasks);
		}
	}
	printf("# %u running tasks compared\n", checked);
	CHECK(checked > 500);
	CHECK_EQ_U(bad, 0);
}

/* The adapter's enqueue input from the kernel's view equals the contract's from the task. */
static void test_enqueue_fill_matches_the_tasks_state(void)
{
	u32 bad = 0, n = 0;

	if (load_model("gs101"))
		return;
	for (int trial = 0; trial < TRIALS / 10; trial++) {
		random_sim(g_s, prof.model.nr_cpus + 4);
		for (u32 i = 0; i < g_s->nr_tasks; i++) {
			const struct sim_task *t = &g_s->tasks[i];
			struct gb_enq_in in;
			struct gb_tstate ts;
			struct gb_ktask kt;

			bpf_view_of(t, &ts, &kt);
			gb_fill_enq_in(&in, &kt, t->cpu, true, false, true, g_s->now_us * 1000);
			n++;
			bad += in.task_cpu != t->cpu || !in.wakeup || in.last || !in.may_kick ||
			       in.now_ns != g_s->now_us * 1000 ||
			       in.pinned != (__builtin_popcountll(t->allowed.bits[0]) == 1) ||
			       memcmp(&in.allowed, &t->allowed, sizeof(in.allowed));
			/* and the state a queued task is charged and ordered with */
			bad += ts.weight != GB_WEIGHT_DFL || ts.slice_ns != 0 ||
			       ts.uclamp_min != t->uclamp_min || ts.uclamp_max != t->uclamp_max;
		}
		free(g_s->tasks);
	}
	CHECK(n > 100);
	CHECK_EQ_U(bad, 0);
}

/* A kernel without CONFIG_UCLAMP_TASK: every task reads as unclamped. */
static void test_kernel_without_uclamp_reads_unclamped(void)
{
	struct gb_ktask kt = {.has_uclamp = 0, .uclamp_req_min = 700, .uclamp_req_max = 100};
	struct gb_tstate ts;

	gb_track_init(&ts);
	gb_fill_clamps(&ts, &kt);
	CHECK_EQ_U(ts.uclamp_min, 0);
	CHECK_EQ_U(ts.uclamp_max, GB_UCLAMP_NONE_MAX);
	kt.has_uclamp = 1;
	gb_fill_clamps(&ts, &kt);
	CHECK_EQ_U(ts.uclamp_min, 700);
	CHECK_EQ_U(ts.uclamp_max, 100);
	/* the custom slice only when the task set one */
	kt.slice_ns = 3000000;
	gb_fill_sched(&ts, &kt);
	CHECK_EQ_U(ts.slice_ns, 0);
	kt.custom_slice = 1;
	gb_fill_sched(&ts, &kt);
	CHECK_EQ_U(ts.slice_ns, 3000000);
}

/*
 * The cpuperf request at a switch: the kfunc only for a value the CPU was not last set to (a
 * target of 0 included, after a reset), at every tick whatever the value.
 */
static void test_cpuperf_set_only_for_a_new_value_but_at_every_tick(void)
{
	u32 last = 0;

	CHECK(gb_cpuperf_due(&last, 400, false));
	CHECK(!gb_cpuperf_due(&last, 400, false));
	CHECK(gb_cpuperf_due(&last, 400, true));
	CHECK(!gb_cpuperf_due(&last, 400, false));
	CHECK(gb_cpuperf_due(&last, 500, false));
	CHECK(gb_cpuperf_due(&last, 400, false));
	last = 0; /* the CPU came online */
	CHECK(gb_cpuperf_due(&last, 0, false));
	CHECK(!gb_cpuperf_due(&last, 0, false));
}

/*
 * The memo of a CPU's last walk of its domain for the frequency request holds while the domain's
 * count of changes moved by the CPU's own changes only, with the same floor and the same OPP
 * need of its own; never for a walk that was not its own (valid 0), nor for a walk that did not
 * compute the CPU's own need.
 */
static void test_frequency_memo_holds_until_another_cpu_changes(void)
{
	struct gb_freq_memo fm = {0};

	CHECK(!gb_freq_memo_quiet(&fm, 0, 0));
	gb_freq_memo_set(&fm, 10, 2, 0, true);
	CHECK(gb_freq_memo_quiet(&fm, 10, 0) && gb_freq_memo_holds(&fm, 2));
	fm.own += 2; /* its stopping and its running */
	CHECK(gb_freq_memo_quiet(&fm, 12, 0));
	CHECK(!gb_freq_memo_quiet(&fm, 13, 0)); /* and one of another CPU */
	CHECK(!gb_freq_memo_holds(&fm, 3));
	CHECK(!gb_freq_memo_quiet(&fm, 12, 171));
	gb_freq_memo_set(&fm, 13, 3, 0, false);
	CHECK(!gb_freq_memo_quiet(&fm, 13, 0));
	gb_freq_memo_set(&fm, 13, GB_FREQ_OPP_UNKNOWN, 0, true);
	CHECK(gb_freq_memo_quiet(&fm, 13, 0));
	CHECK(!gb_freq_memo_holds(&fm, GB_FREQ_OPP_UNKNOWN));
}

int main(int argc, char **argv)
{
	if (argc != 2) {
		fprintf(stderr, "usage: test_fill EM_PROFILES_DIR\n");
		return 2;
	}
	models_dir = argv[1];
	g_s = calloc(1, sizeof(*g_s));
	TAP_RUN(test_task_fill_matches_the_simulators);
	TAP_RUN(test_cpu_fill_matches_the_simulators);
	TAP_RUN(test_pull_decisions_match_the_simulators);
	TAP_RUN(test_pull_decisions_match_the_sched_ext_hosts);
	TAP_RUN(test_running_deadline_fill_matches_the_sched_ext_hosts);
	TAP_RUN(test_enqueue_fill_matches_the_tasks_state);
	TAP_RUN(test_kernel_without_uclamp_reads_unclamped);
	TAP_RUN(test_cpuperf_set_only_for_a_new_value_but_at_every_tick);
	TAP_RUN(test_frequency_memo_holds_until_another_cpu_changes);
	free(g_s);
	return tap_done();
}
