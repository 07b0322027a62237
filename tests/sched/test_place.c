// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_place.c - the scheduler's build of the policy, with its steps routed through
 * bpf/gearbox_place.h's subprograms and per-CPU context, makes exactly the decisions of the
 * policy called directly (place_ref.c): gb_select_cpu(), gb_select_cpu_range() and
 * gb_check_misfit(), over random CPU and task states (misfit holds included) on every shipped
 * model that the BPF object accepts.  This is what lets simulator results stand for the
 * scheduler.
 *
 * It also pins down the policy facts that the VM placement tests (guest-sched.sh) rely on, on
 * their model tests/sched/vm4.json.
 *
 *   test_place EM_PROFILES_DIR TESTS_SCHED_DIR
 */
#include <stdio.h>
#include <string.h>

#include "../unit/tap.h"
#include "em_profile.h"

#define GB_SUBPROG static
#include "gearbox_place.h"
#include "place_ref.h"

static struct em_model g_model;
static struct gb_cpu g_cpus[EM_MAX_CPUS];
static struct gb_place_ctx g_ctx;
static u64 g_min_costs[GB_SCX_MAX_DOMAINS];	 /* as the loader fills gb_min_cost_else */
static u64 g_min_wake_costs[GB_SCX_MAX_DOMAINS]; /* gb_min_wake_cost */
static struct gb_opp_table g_opps;		 /* and gb_opps */

#define GB_PLACE_MODEL()	((const struct em_model *)&g_model)
#define GB_PLACE_CPUS		((const struct gb_cpu *)g_cpus)
#define GB_PLACE_CTX()		(&g_ctx)
#define GB_PLACE_MIN_COSTS	g_min_costs
#define GB_PLACE_MIN_WAKE_COSTS g_min_wake_costs
#define GB_PLACE_OPP_TABLE	g_opps
#define GB_PLACE_BODIES
#include "gearbox_place.h"

#define TRIALS 3000

static const char *models_dir, *sched_dir;
static struct em_profile prof;
static unsigned long long rng = 0x9e3779b97f4a7c15ull;

static unsigned rnd(unsigned n)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return n ? (unsigned)(rng % n) : 0;
}

static int load_model_from(const char *dir, const char *name)
{
	char path[512];
	struct gb_err err;
	u32 d;

	snprintf(path, sizeof(path), "%s/%s.json", dir, name);
	if (em_profile_load_file(path, &prof, false, NULL, &err)) {
		printf("# %s\n", err.msg);
		return -1;
	}
	g_model = prof.model;
	/* the OPP searches read g_opps: filled before the costs' searches */
	gb_opp_table_fill(&g_opps, &g_model);
	for (d = 0; d < GB_SCX_MAX_DOMAINS; d++)
		g_min_costs[d] =
		    d < g_model.nr_domains ? gb_min_cost_elsewhere(&g_model, d) : ~0ull;
	for (d = 0; d < GB_SCX_MAX_DOMAINS; d++)
		g_min_wake_costs[d] =
		    d < g_model.nr_domains ? gb_domain_min_wake_cost(&g_model, d) : ~0ull;
	return 0;
}

static int load_model(const char *name)
{
	return load_model_from(models_dir, name);
}

/* A random but plausible machine state: some CPUs idle, some busy, clamps here and there. */
static void random_state(struct gb_task *t)
{
	const struct em_model *m = &g_model;
	unsigned c;

	memset(g_cpus, 0, sizeof(g_cpus));
	for (c = 0; c < m->nr_cpus; c++) {
		struct gb_cpu *cs = &g_cpus[c];
		unsigned cap = em_domain_capacity(&m->domains[m->cpu_domain[c]]);

		cs->online = rnd(10) != 0;
		cs->nr_running = rnd(3) ? rnd(3) : 0;
		cs->idle = cs->nr_running == 0;
		cs->util = rnd(4) ? rnd(cap + 1) : 0;
		cs->runnable = cs->util + rnd(200);
		cs->perf_cur = rnd(cap + 1);
		cs->uclamp_min = rnd(4) ? 0 : rnd(1025);
		cs->uclamp_max = rnd(4) ? GB_UCLAMP_NONE_MAX : rnd(1025);
		cs->slice_long = rnd(3) == 0;
		cs->curr_util = cs->nr_running && rnd(2) ? rnd(cap + 1) : 0;
	}
	memset(t, 0, sizeof(*t));
	t->util = rnd(1025);
	t->util_est = rnd(2) ? t->util : rnd(1025);
	t->runnable = rnd(1025);
	t->uclamp_min = rnd(3) ? 0 : rnd(1025);
	t->uclamp_max = rnd(3) ? GB_UCLAMP_NONE_MAX : rnd(1025);
	t->prev_cpu = rnd(5) ? (s32)rnd(m->nr_cpus) : GB_NO_CPU;
	/* a misfit hold now and then, at a real domain's capacity */
	t->floor_cap = rnd(4) ? 0 : em_domain_capacity(&m->domains[rnd(m->nr_domains)]);
	/* slice-aware grouping at half the wake-ups, in either class */
	t->group = rnd(2) ? GB_GROUP_OFF : rnd(2) ? GB_GROUP_SHORT : GB_GROUP_LONG;
	for (c = 0; c < m->nr_cpus; c++)
		if (rnd(4) || !rnd(2))
			em_cpumask_set(&t->allowed, c);
	/* a pull hold now and then, on a real domain */
	t->pull_held = rnd(4) ? 0 : 1ull << rnd(m->nr_domains);
}

static int same(const struct gb_decision *a, const struct gb_decision *b)
{
	return a->cpu == b->cpu && a->reason == b->reason && a->energy_delta == b->energy_delta &&
	       (a->cpu == GB_NO_CPU ||
		(a->opp_idx == b->opp_idx && a->prev_opp_idx == b->prev_opp_idx));
}

static void report(const char *what, const struct gb_decision *want, const struct gb_decision *got)
{
	printf("# %s: policy cpu %d reason %u delta %lld opp %u/%u, driver cpu %d reason %u delta "
	       "%lld opp %u/%u\n",
	       what, want->cpu, want->reason, (long long)want->energy_delta, want->opp_idx,
	       want->prev_opp_idx, got->cpu, got->reason, (long long)got->energy_delta,
	       got->opp_idx, got->prev_opp_idx);
}

/* Decisions of the routed build that differ from the policy's on model dir/name; *upper counts
 * those that chose a CPU of the upper half of GB_SCX_MAX_CPUS (NULL: not counted). */
static unsigned mismatches_in(const char *dir, const char *name, unsigned *upper)
{
	unsigned i, bad = 0, moved = 0;

	if (load_model_from(dir, name))
		return 1;
	for (i = 0; i < TRIALS; i++) {
		struct gb_decision want = {0}, got = {0};
		struct gb_task t;
		unsigned min_cap = 0, max_cap = 0, k = rnd(4);
		unsigned cap = em_domain_capacity(&g_model.domains[rnd(g_model.nr_domains)]);

		random_state(&t);
		if (k == 1)
			min_cap = cap;
		else if (k == 2)
			max_cap = cap;
		g_ctx.t = t;
		if (k == 3) {
			/* a wake-up or, without history, a fork: gb_select_cpu() */
			if (rnd(2)) {
				t.prev_cpu = GB_NO_CPU;
				t.util = t.util_est = 0;
				g_ctx.t = t;
			}
			ref_select_cpu(&g_model, g_cpus, &t, &want);
			gb_place_wakeup(&got);
		} else {
			ref_select_cpu_range(&g_model, g_cpus, &t, min_cap, max_cap, &want);
			g_ctx.min_cap = min_cap;
			g_ctx.max_cap = max_cap;
			gb_place_select(&got);
		}
		moved += want.cpu != t.prev_cpu;
		if (upper && want.cpu >= GB_SCX_MAX_CPUS / 2)
			(*upper)++;
		if (!same(&want, &got) && bad++ < 3)
			report(name, &want, &got);
	}
	printf("# %s: %u trials, %u moved the task, %u mismatches\n", name, TRIALS, moved, bad);
	return bad + (moved == 0); /* a test that never moves a task proves little */
}

static unsigned mismatches_on(const char *name)
{
	return mismatches_in(models_dir, name, NULL);
}

static void test_wakeup_and_range_selection_match_the_policy_on_shipped_models(void)
{
	CHECK_EQ_U(mismatches_on("sm8250"), 0);
	CHECK_EQ_U(mismatches_on("gs101"), 0);
	CHECK_EQ_U(mismatches_on("zuma"), 0);
	CHECK_EQ_U(mismatches_on("sm7250ab"), 0);
}

/*
 * The OPP searches of the routed build (gb_place_opp_from, a look-up in the loader's table)
 * answer what em_efficient_state_from() answers, for every domain, perf (beyond the capacity
 * too) and start that its contract allows (an OPP the perf needs at least), on every shipped
 * model and the largest VM model: inefficient OPPs skipped (sm8250, msm8998, vm4's little
 * domain) or none to skip.
 */
static void test_opp_tables_answer_every_opp_search(void)
{
	static const char *const models[] = {"sm8250", "gs101",	  "zuma", "sm7250ab",
					     "sm8150", "msm8998", "vm4",  "vm64"};
	unsigned k, d, perf, start, bad = 0, searches = 0;

	for (k = 0; k < sizeof(models) / sizeof(models[0]); k++) {
		const char *dir = strncmp(models[k], "vm", 2) ? models_dir : sched_dir;

		if (load_model_from(dir, models[k])) {
			CHECK(0);
			continue;
		}
		for (d = 0; d < g_model.nr_domains; d++)
			for (perf = 0; perf <= EM_CAPACITY_SCALE + 100; perf++)
				for (start = 0;
				     start <= em_efficient_state(&g_model.domains[d], perf);
				     start++) {
					u32 want = em_efficient_state_from(&g_model.domains[d],
									   perf, start);

					searches++;
					if (gb_place_opp_from(d, perf, start) != want && bad++ < 3)
						printf("# %s domain %u perf %u start %u: %u, not "
						       "%u\n",
						       models[k], d, perf, start,
						       gb_place_opp_from(d, perf, start), want);
				}
	}
	printf("# %u searches, %u differ\n", searches, bad);
	CHECK_EQ_U(bad, 0);
}

/*
 * Without queued demand, the frequency request's OPP (gb_domain_perf_target, through the routed
 * OPP search) is the highest of the domain's online CPUs' own OPP needs (gb_cpu_opp_need): what
 * lets scx_gearbox's running skip the walk of its domain when no other CPU's inputs changed and
 * its own OPP need is the same (bpf/gb_perf.bpf.h).  Random CPU states (waiting tasks' util,
 * running tasks' runnable and clamps included) on every shipped model and vm4.
 */
static void test_domain_target_is_the_highest_opp_need_of_its_cpus(void)
{
	static const char *const models[] = {"sm8250", "gs101",	  "zuma", "sm7250ab",
					     "sm8150", "msm8998", "vm4"};
	unsigned k, trial, d, c, checked = 0, bad = 0;
	struct gb_task t;

	for (k = 0; k < sizeof(models) / sizeof(models[0]); k++) {
		const char *dir = strncmp(models[k], "vm", 2) ? models_dir : sched_dir;

		if (load_model_from(dir, models[k])) {
			CHECK(0);
			continue;
		}
		for (trial = 0; trial < TRIALS; trial++) {
			random_state(&t);
			for (c = 0; c < g_model.nr_cpus; c++) {
				struct gb_cpu *cs = &g_cpus[c];

				cs->waiting_util = rnd(3) ? 0 : rnd(cs->util + 1);
				cs->curr_runnable = rnd(3) ? 0 : rnd(EM_CAPACITY_SCALE + 1);
			}
			for (d = 0; d < g_model.nr_domains; d++) {
				u32 idx, hi = 0, online = 0;

				gb_domain_perf_target(&g_model, g_cpus, d, &idx);
				for (c = 0; c < g_model.nr_cpus; c++) {
					if (g_model.cpu_domain[c] != d || !g_cpus[c].online)
						continue;
					online++;
					hi = gb_max(hi, gb_cpu_opp_need(&g_model, &g_cpus[c], d));
				}
				if (!online)
					continue;
				checked++;
				if (hi != idx && bad++ < 3)
					printf(
					    "# %s domain %u: OPP %u, the CPUs' highest need %u\n",
					    models[k], d, idx, hi);
			}
		}
	}
	printf("# %u domain states, %u differ\n", checked, bad);
	CHECK(checked > 10000);
	CHECK_EQ_U(bad, 0);
}

/* gb_place_misfit() against gb_check_misfit() on the loaded model: the mismatches, and in
 * *moves how many trials moved the task. */
static unsigned misfit_mismatches(unsigned *moves)
{
	unsigned i, bad = 0;

	*moves = 0;
	for (i = 0; i < TRIALS; i++) {
		struct gb_decision want = {0}, got = {0};
		struct gb_task t;
		unsigned cpu;
		u64 ran_us = rnd(20000);
		s32 a, b;

		random_state(&t);
		cpu = rnd(g_model.nr_cpus);
		t.prev_cpu = (s32)cpu;
		em_cpumask_set(&t.allowed, cpu);
		a = ref_check_misfit(&g_model, g_cpus, &t, cpu, ran_us, 8000, &want);
		g_ctx.t = t;
		b = gb_place_misfit(cpu, ran_us, 8000, &got);
		*moves += a != GB_NO_CPU;
		if ((a != b || (a != GB_NO_CPU && !same(&want, &got))) && bad++ < 3)
			report("misfit", &want, &got);
	}
	printf("# misfit: %u trials, %u moves, %u mismatches\n", TRIALS, *moves, bad);
	return bad;
}

static void test_misfit_matches_gb_check_misfit(void)
{
	unsigned moves;

	CHECK(load_model("sm8250") == 0);
	CHECK_EQ_U(misfit_mismatches(&moves), 0);
	CHECK(moves > 0);
}

/* The tick skips the idle scan and the search when gb_place_misfit_possible() says no: it must
 * never say no where gb_check_misfit() would move the task, and must say no often enough to
 * be worth having. */
static void test_misfit_gate_never_hides_a_misfit_move(void)
{
	unsigned i, hidden = 0, gated = 0, moves = 0;

	CHECK(load_model("sm8250") == 0);
	for (i = 0; i < TRIALS; i++) {
		struct gb_decision want = {0};
		struct gb_task t;
		unsigned cpu;
		u64 ran_us = rnd(20000);
		s32 a;

		random_state(&t);
		cpu = rnd(g_model.nr_cpus);
		t.prev_cpu = (s32)cpu;
		em_cpumask_set(&t.allowed, cpu);
		a = ref_check_misfit(&g_model, g_cpus, &t, cpu, ran_us, 8000, &want);
		g_ctx.t = t;
		moves += a != GB_NO_CPU;
		if (!gb_place_misfit_possible(cpu, ran_us, 8000)) {
			gated++;
			hidden += a != GB_NO_CPU;
		}
	}
	printf("# misfit gate: %u trials, %u gated, %u moves, %u moves gated\n", TRIALS, gated,
	       moves, hidden);
	CHECK_EQ_U(hidden, 0);
	CHECK(gated > 0 && moves > 0);
}

/*
 * select_cpu skips the search when gb_place_prev_cheapest() says the previous CPU wins: on
 * random states (biased towards small tasks and idle previous CPUs, where it fires) it must
 * say so only where the search keeps the task there, with the same decision, and say so
 * often enough to matter.
 */
/* every CPU of cpu's domain idle */
static void asleep_domain_of(s32 cpu)
{
	unsigned c, d = g_model.cpu_domain[cpu];

	for (c = 0; c < g_model.nr_cpus; c++)
		if (g_model.cpu_domain[c] == d) {
			g_cpus[c].nr_running = 0;
			g_cpus[c].idle = 1;
			g_cpus[c].curr_util = 0;
		}
}

static unsigned prev_cheapest_mismatches(const char *dir, const char *name, unsigned *fired)
{
	unsigned i, bad = 0;

	*fired = 0;
	if (load_model_from(dir, name))
		return 1;
	for (i = 0; i < TRIALS; i++) {
		struct gb_decision want = {0}, got = {0};
		struct gb_task t;

		random_state(&t);
		if (rnd(2)) {
			t.util = t.util_est = rnd(200);
			t.uclamp_min = 0;
			if (rnd(2))
				t.floor_cap = 0;
			if (t.prev_cpu >= 0)
				g_cpus[t.prev_cpu].nr_running = 0;
			/* half of those in an asleep domain, which a wake cost prices */
			if (t.prev_cpu >= 0 && rnd(2))
				asleep_domain_of(t.prev_cpu);
		}
		g_ctx.t = t;
		if (!gb_place_prev_cheapest(&got))
			continue;
		(*fired)++;
		gb_select_cpu(&g_model, g_cpus, &t, &g_ctx.s, &want);
		if (!same(&want, &got) && bad++ < 3)
			report(name, &want, &got);
	}
	printf("# prev-cheapest %s: %u trials, %u kept without a search, %u mismatches\n", name,
	       TRIALS, *fired, bad);
	return bad;
}

static void test_prev_cheapest_only_where_the_search_keeps_the_task(void)
{
	const char *models[] = {"sm8250", "gs101", "sm8150", "vm4", "msm8998"};
	unsigned k, fired, total = 0;

	for (k = 0; k < sizeof(models) / sizeof(models[0]); k++) {
		const char *dir = strcmp(models[k], "vm4") ? models_dir : sched_dir;

		CHECK_EQ_U(prev_cheapest_mismatches(dir, models[k], &fired), 0);
		CHECK(fired > 0);
		total += fired;
	}
	CHECK(total > TRIALS / 10);
}

/*
 * msm8998's domains carry a wake cost (gb_idle.h): in an asleep domain a task pays its OPP's cost
 * plus the wake cost, wake_power / perf, which falls as the OPP rises, so on big a higher OPP
 * costs less per unit of work (OPP 3, perf 208: 2394 + 1129, against OPP 1, perf 144: 2298 +
 * 1631).  Every CPU idle, a task of util 100 under a misfit hold from little (only big is left
 * to it) last ran on big's CPU 4 with nothing else there, and CPU 5 has 50 of blocked
 * utilization: on CPU 4 the task needs OPP 1, on CPU 5 OPP 3, which prices below CPU 4 by more
 * than the hysteresis' 1/16, so the search moves it.  The shortcut must leave that to the
 * search; and on little, whose wake cost never makes a higher OPP cheaper than its first
 * efficient one, it still keeps such a task where it was.
 */
static int msm8998_asleep_state(struct gb_task *t, s32 prev, u32 floor_cap, u32 util5)
{
	unsigned c;

	if (load_model("msm8998"))
		return -1;
	memset(g_cpus, 0, sizeof(g_cpus));
	memset(t, 0, sizeof(*t));
	for (c = 0; c < g_model.nr_cpus; c++) {
		g_cpus[c].online = 1;
		g_cpus[c].idle = 1;
		em_cpumask_set(&t->allowed, c);
	}
	t->util = t->util_est = 100;
	t->runnable = 300;
	t->uclamp_max = GB_UCLAMP_NONE_MAX;
	t->prev_cpu = prev;
	t->floor_cap = floor_cap;
	g_cpus[prev].util = g_cpus[prev].runnable = t->util;
	g_cpus[5].util = g_cpus[5].runnable = util5;
	g_ctx.t = *t;
	return 0;
}

static void
test_prev_cheapest_leaves_an_asleep_domain_whose_higher_opp_is_cheaper_to_the_search(void)
{
	struct gb_decision want = {0}, got = {0};
	struct gb_task t;

	if (msm8998_asleep_state(&t, 4, em_domain_capacity(&g_model.domains[0]), 50)) {
		CHECK(0);
		return;
	}
	CHECK_EQ_U(g_model.domains[0].nr_cpus, 4);
	gb_select_cpu(&g_model, g_cpus, &t, &g_ctx.s, &want);
	CHECK(want.cpu == 5);
	CHECK(!gb_place_prev_cheapest(&got));
	CHECK(!gb_prev_is_cheapest(&g_model, g_cpus, &t, &got));
	/* little, asleep too: kept without a search, where the search keeps it */
	CHECK(msm8998_asleep_state(&t, 1, 0, 0) == 0);
	gb_select_cpu(&g_model, g_cpus, &t, &g_ctx.s, &want);
	CHECK(want.cpu == 1);
	CHECK(gb_place_prev_cheapest(&got));
	CHECK(same(&want, &got));
}

/* A CPU priced twice in one search gets the same candidate (the memo), and a new search
 * prices again. */
static void test_price_memo_is_per_search(void)
{
	struct gb_task t;
	struct gb_decision d;
	struct gb_cand a, b, direct;
	unsigned i, c;

	CHECK(load_model("sm8250") == 0);
	for (i = 0; i < 200; i++) {
		random_state(&t);
		g_ctx.t = t;
		g_ctx.min_cap = g_ctx.max_cap = 0;
		gb_place_select(&d); /* a search: scan, then prices */
		c = rnd(g_model.nr_cpus);
		CHECK(gb_place_price(c, &a) == 0);
		CHECK(gb_place_price(c, &b) == 0);
		direct = gb_price(&g_model, g_cpus, &g_ctx.t, &g_ctx.s, c);
		CHECK(a.delta == direct.delta && a.idx == direct.idx && a.ok == direct.ok &&
		      a.raises == direct.raises);
		CHECK(memcmp(&a, &b, sizeof(a)) == 0);
	}
	/* after a scan nothing is remembered */
	CHECK(gb_place_scan() == 0);
	CHECK_EQ_U(g_ctx.priced, 0);
}

static void test_price_refuses_cpus_beyond_the_generated_subprograms(void)
{
	struct gb_cand c;

	CHECK(gb_place_price(GB_SCX_MAX_CPUS, &c) < 0);
	CHECK(gb_place_price(0, &c) == 0);
}

/*
 * The largest model the BPF object is built for, GB_SCX_MAX_CPUS CPUs in GB_SCX_MAX_DOMAINS
 * domains (tests/sched/vm64.json: 64 CPUs, 32 domains of 2): the routed build decides what the
 * policy decides, at wake-up, in a range search and at the tick, and the CPUs of the upper half
 * are chosen (each has a pricing subprogram and a bit in the price memo); every CPU's price is
 * the policy's, and the second ask in a search is the memo's copy.
 */
static void test_routed_policy_matches_at_the_largest_size(void)
{
	unsigned upper = 0, moves, c;
	struct gb_decision d;
	struct gb_task t;

	CHECK_EQ_U(mismatches_in(sched_dir, "vm64", &upper), 0);
	CHECK_EQ_U(g_model.nr_cpus, GB_SCX_MAX_CPUS);
	CHECK_EQ_U(g_model.nr_domains, GB_SCX_MAX_DOMAINS);
	printf("# vm64: %u decisions on CPUs %u-%u\n", upper, GB_SCX_MAX_CPUS / 2,
	       GB_SCX_MAX_CPUS - 1);
	CHECK(upper > TRIALS / 20);
	CHECK_EQ_U(misfit_mismatches(&moves), 0);
	CHECK(moves > 0);
	random_state(&t);
	g_ctx.t = t;
	g_ctx.min_cap = g_ctx.max_cap = 0;
	gb_place_select(&d);
	for (c = 0; c < g_model.nr_cpus; c++) {
		struct gb_cand a, b, direct = gb_price(&g_model, g_cpus, &g_ctx.t, &g_ctx.s, c);

		CHECK(gb_place_price(c, &a) == 0);
		CHECK(gb_place_price(c, &b) == 0);
		CHECK(memcmp(&a, &direct, sizeof(a)) == 0 && memcmp(&b, &direct, sizeof(b)) == 0);
	}
	CHECK(g_ctx.priced == ~0ull);
}

/*
 * Dispatch at the largest size: an idle CPU of the first domain pulls the head of the last of
 * GB_SCX_MAX_DOMAINS domains' queues, whose head has waited longer than the pull bound
 * (the loop over domain queues is bounded by GB_SCX_MAX_DOMAINS in the BPF build).
 */
static void test_dispatch_reaches_the_last_domain_at_the_largest_size(void)
{
	static struct gb_disp_in in;
	struct gb_disp_out out;
	u64 clock[EM_MAX_DOMAINS] = {0};
	u32 last, c;

	if (load_model_from(sched_dir, "vm64")) {
		CHECK(0);
		return;
	}
	last = g_model.nr_domains - 1;
	CHECK_EQ_U(last, GB_SCX_MAX_DOMAINS - 1);
	memset(g_cpus, 0, sizeof(g_cpus));
	memset(&in, 0, sizeof(in));
	for (c = 0; c < g_model.nr_cpus; c++) {
		g_cpus[c].online = 1;
		g_cpus[c].idle = c != g_model.domains[last].first_cpu;
		g_cpus[c].uclamp_max = GB_UCLAMP_NONE_MAX;
		em_cpumask_set(&in.heads[last].t.allowed, c);
	}
	in.cpu = 0;
	in.heads[last].queued = 1;
	in.heads[last].waited_us = 10000;
	in.heads[last].t.util = in.heads[last].t.util_est = 50;
	in.heads[last].t.uclamp_max = GB_UCLAMP_NONE_MAX;
	in.heads[last].t.prev_cpu = (s32)g_model.domains[last].first_cpu;
	gb_dispatch_plan(&g_model, g_cpus, clock, 5000000, 4000, &in, NULL, &out);
	CHECK_EQ_U(out.act, GB_DISPATCH_CONSUME);
	CHECK(out.try_mask == 1ull << last);
}

/* Every CPU online and idle, with b2 and b3 of utilization left on CPUs 2 and 3; a task of
 * util u (runnable 3u: 4 ms busy in 12) with uclamp_min umin, last on prev.  Where does it go? */
static s32 vm4_place(u32 u, u32 umin, s32 prev, u32 b2, u32 b3)
{
	struct gb_decision dec = {0};
	struct gb_task t = {0};
	unsigned c;

	memset(g_cpus, 0, sizeof(g_cpus));
	for (c = 0; c < g_model.nr_cpus; c++) {
		g_cpus[c].online = 1;
		g_cpus[c].idle = 1;
		em_cpumask_set(&t.allowed, c);
	}
	g_cpus[2].util = g_cpus[2].runnable = b2;
	g_cpus[3].util = g_cpus[3].runnable = b3;
	t.util = t.util_est = u;
	t.runnable = 3 * u > 1024 ? 1024 : 3 * u;
	t.uclamp_min = umin;
	t.uclamp_max = GB_UCLAMP_NONE_MAX;
	t.prev_cpu = prev;
	if (prev >= 0)
		g_cpus[prev].util += u;
	return ref_select_cpu(&g_model, g_cpus, &t, &dec);
}

/*
 * The premise of vm-sched's uclamp_min test: on vm4.json a small task with uclamp_min 600 goes
 * to the mid CPU 2 from wherever it was.  Little (286) cannot serve 600; mid's OPP for it (perf
 * 605, cost 5919) is more than 1/16 cheaper than big's (717, 6759), so the hysteresis for an
 * idle previous CPU does not keep it on big either.  And why the test flapped with uclamp_min
 * 700: on this model big's OPP for 700 (717, 6759) is *cheaper* than mid's (745, 6822), so the
 * policy rightly chooses big; the task went to mid only when CPU 3 still showed utilization
 * from an earlier test (the adapter froze an idle CPU's utilization, bpf/gearbox.bpf.c
 * gb_idle_decay), and the hysteresis (the two within 1/16) then kept it wherever it started.
 * A small stale utilization no longer decides it: within 1/16 the cheaper OPP wins.
 *
 * From a little CPU too, whatever its util: a task whose own utilization puts its little CPU
 * over the tipping point makes that domain over-utilized, and an over-utilized domain offers
 * its spread CPU without the utilization fit -- but not to a uclamp_min it cannot serve
 * (gb_domain_offer; before that rule the task went back to little).
 */
static void test_vm4_uclamp_min_600_task_goes_to_mid_but_700_is_cheaper_on_big(void)
{
	static const u32 utils[] = {1, 5, 20, 50, 100, 200, 250, 300};
	unsigned i;
	s32 prev;

	if (load_model_from(sched_dir, "vm4")) {
		CHECK(0);
		return;
	}
	for (i = 0; i < sizeof(utils) / sizeof(utils[0]); i++)
		for (prev = 0; prev < 4; prev++) {
			s32 c = vm4_place(utils[i], 600, prev, 0, 0);

			if (c != 2)
				printf("# uclamp_min 600, util %u, prev %d: CPU %d\n", utils[i],
				       prev, c);
			CHECK(c == 2);
		}
	for (i = 0; i < sizeof(utils) / sizeof(utils[0]) && utils[i] <= 200; i++) {
		/* from a little CPU (the task is forked there: most idle CPUs) */
		CHECK(vm4_place(utils[i], 700, 0, 0, 0) == 3);
		/* with 40 of stale utilization on CPU 3 the two are within 1/16 and the tie goes
		 * to big's cheaper OPP (by delta alone, before that tie-break, a small one went
		 * to mid) */
		if (utils[i] <= 20)
			CHECK(vm4_place(utils[i], 700, 0, 0, 40) == 3);
	}
}

int main(int argc, char **argv)
{
	models_dir = argc > 1 ? argv[1] : "em-profiles";
	sched_dir = argc > 2 ? argv[2] : "tests/sched";
	TAP_RUN(test_wakeup_and_range_selection_match_the_policy_on_shipped_models);
	TAP_RUN(test_opp_tables_answer_every_opp_search);
	TAP_RUN(test_domain_target_is_the_highest_opp_need_of_its_cpus);
	TAP_RUN(test_misfit_matches_gb_check_misfit);
	TAP_RUN(test_misfit_gate_never_hides_a_misfit_move);
	TAP_RUN(test_prev_cheapest_only_where_the_search_keeps_the_task);
	TAP_RUN(
	    test_prev_cheapest_leaves_an_asleep_domain_whose_higher_opp_is_cheaper_to_the_search);
	TAP_RUN(test_price_memo_is_per_search);
	TAP_RUN(test_price_refuses_cpus_beyond_the_generated_subprograms);
	TAP_RUN(test_routed_policy_matches_at_the_largest_size);
	TAP_RUN(test_dispatch_reaches_the_last_domain_at_the_largest_size);
	TAP_RUN(test_vm4_uclamp_min_600_task_goes_to_mid_but_700_is_cheaper_on_big);
	return tap_done();
}
