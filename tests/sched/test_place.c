// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_place.c - the scheduler's build of the policy, with its steps routed through
 * bpf/gearbox_place.h's subprograms and per-CPU context, makes exactly the decisions of the
 * policy called directly (place_ref.c): gb_select_cpu(), gb_select_cpu_range() and
 * gb_check_misfit(), over random CPU and task states (misfit holds included) on every shipped
 * model that the BPF object accepts.  This is what lets simulator results stand for the
 * scheduler.
 *
 *   test_place EM_PROFILES_DIR
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

#define GB_PLACE_MODEL() ((const struct em_model *)&g_model)
#define GB_PLACE_CPUS ((const struct gb_cpu *)g_cpus)
#define GB_PLACE_CTX() (&g_ctx)
#define GB_PLACE_BODIES
#include "gearbox_place.h"

#define TRIALS 3000

static const char *models_dir;
static struct em_profile prof;
static unsigned long long rng = 0x9e3779b97f4a7c15ull;

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
	g_model = prof.model;
	return 0;
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
	for (c = 0; c < m->nr_cpus; c++)
		if (rnd(4) || !rnd(2))
			em_cpumask_set(&t->allowed, c);
}

static int same(const struct gb_decision *a, const struct gb_decision *b)
{
	return a->cpu == b->cpu && a->reason == b->reason && a->energy_delta == b->energy_delta &&
	       (a->cpu == GB_NO_CPU || (a->opp_idx == b->opp_idx && a->prev_opp_idx == b->prev_opp_idx));
}

static void report(const char *what, const struct gb_decision *want, const struct gb_decision *got)
{
	printf("# %s: policy cpu %d reason %u delta %lld opp %u/%u, driver cpu %d reason %u delta %lld opp %u/%u\n",
	       what, want->cpu, want->reason, (long long)want->energy_delta, want->opp_idx,
	       want->prev_opp_idx, got->cpu, got->reason, (long long)got->energy_delta, got->opp_idx,
	       got->prev_opp_idx);
}

static unsigned mismatches_on(const char *name)
{
	unsigned i, bad = 0, moved = 0;

	if (load_model(name))
		return 1;
	for (i = 0; i < TRIALS; i++) {
		struct gb_decision want = { 0 }, got = { 0 };
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
		if (!same(&want, &got) && bad++ < 3)
			report(name, &want, &got);
	}
	printf("# %s: %u trials, %u moved the task, %u mismatches\n", name, TRIALS, moved, bad);
	return bad + (moved == 0);   /* a test that never moves a task proves little */
}

static void test_wakeup_and_range_selection_match_the_policy_on_shipped_models(void)
{
	CHECK_EQ_U(mismatches_on("sm8250"), 0);
	CHECK_EQ_U(mismatches_on("gs101"), 0);
	CHECK_EQ_U(mismatches_on("zuma"), 0);
	CHECK_EQ_U(mismatches_on("sm7250ab"), 0);
}

static void test_misfit_matches_gb_check_misfit(void)
{
	unsigned i, bad = 0, moves = 0;

	CHECK(load_model("sm8250") == 0);
	for (i = 0; i < TRIALS; i++) {
		struct gb_decision want = { 0 }, got = { 0 };
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
		moves += a != GB_NO_CPU;
		if ((a != b || (a != GB_NO_CPU && !same(&want, &got))) && bad++ < 3)
			report("misfit", &want, &got);
	}
	printf("# misfit: %u trials, %u moves, %u mismatches\n", TRIALS, moves, bad);
	CHECK_EQ_U(bad, 0);
	CHECK(moves > 0);
}

static void test_price_refuses_cpus_beyond_the_generated_subprograms(void)
{
	struct gb_cand c;

	CHECK(gb_place_price(GB_SCX_MAX_CPUS, &c) < 0);
	CHECK(gb_place_price(0, &c) == 0);
}

int main(int argc, char **argv)
{
	models_dir = argc > 1 ? argv[1] : "em-profiles";
	TAP_RUN(test_wakeup_and_range_selection_match_the_policy_on_shipped_models);
	TAP_RUN(test_misfit_matches_gb_check_misfit);
	TAP_RUN(test_price_refuses_cpus_beyond_the_generated_subprograms);
	return tap_done();
}
