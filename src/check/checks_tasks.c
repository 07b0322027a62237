// SPDX-License-Identifier: GPL-2.0-only
/*
 * checks_tasks.c - what a scheduler owes ordinary tasks: progress, affinity, weights, latency.
 *
 * Each check forks its workload, runs it for ctx->duration_s, stops it and judges the shared
 * counters.  Thresholds are deliberately far from what a correct scheduler produces (the fair
 * class gives nice 0 about 9x the CPU of nice 10; the check asks for 2x), so that a pass or a
 * fail says something about the scheduler, not about noise in a loaded VM.
 */
#include <errno.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"

#define WEIGHT_MIN_RATIO     2.0  /* nice 0 vs nice 10: the fair class gives ~9.3 */
#define LATENCY_P99_LIMIT_MS 1000 /* only gross starvation fails; the value is informational */
#define LATENCY_PERIOD_US    5000

static int spawn_or_fail(struct load_set *ls, load_fn fn, long arg, int cpu, int nice,
			 struct check_result *res)
{
	int slot = load_spawn(ls, fn, arg, cpu, nice);

	if (slot < 0)
		check_set(res, CHECK_FAIL, "cannot start a workload process: %s", strerror(-slot));
	return slot;
}

/*
 * No starvation: 2 hogs per CPU, periodic and interactive tasks.  Every task must make progress
 * in the second half of the run too, not only at the start; the scheduler must stay loaded (the
 * kernel's watchdog ejects a scheduler that leaves a runnable task waiting too long).
 */
void check_starvation(struct check_ctx *ctx, struct check_result *res)
{
	uint64_t half[LOAD_MAX_TASKS];
	struct load_set ls;
	struct gb_err err;
	int n = 0, stuck = -1;
	int nr_hogs = 2 * ctx->nr_cpus > 32 ? 32 : 2 * ctx->nr_cpus;

	if (load_init(&ls, &err) < 0) {
		check_set(res, CHECK_FAIL, "%s", err.msg);
		return;
	}
	for (int i = 0; i < nr_hogs + 4; i++) {
		load_fn fn = i < nr_hogs       ? load_hog
			     : i < nr_hogs + 2 ? load_periodic
					       : load_interactive;

		if (spawn_or_fail(&ls, fn, 10000, -1, 0, res) < 0)
			goto out;
	}
	load_sleep(ctx->duration_s / 2);
	for (int i = 0; i < ls.nr; i++)
		half[i] = ls.shm->slot[i].progress;
	load_sleep(ctx->duration_s / 2);
	for (int i = 0; i < ls.nr; i++) {
		if (ls.shm->slot[i].progress == half[i] && stuck < 0)
			stuck = i;
		n += ls.shm->slot[i].progress > half[i];
	}
	load_stop(&ls);
	check_metric(res, "tasks", ls.nr);
	check_metric(res, "progressing_tasks", n);
	if (stuck >= 0)
		check_set(res, CHECK_FAIL,
			  "%d of %d tasks made no progress in %.1f s (first: %s %d)", ls.nr - n,
			  ls.nr, ctx->duration_s / 2,
			  stuck < nr_hogs	? "hog"
			  : stuck < nr_hogs + 2 ? "periodic"
						: "interactive",
			  stuck);
	else
		check_set(res, CHECK_PASS, "%d hogs, 2 periodic, 2 interactive: all progressed",
			  nr_hogs);
out:
	load_stop(&ls);
	load_free(&ls);
}

/*
 * Affinity: one spinner per CPU pinned to it, sampling sched_getcpu() against the mask of the
 * current generation.  Halfway the parent moves each to the next CPU.  During the move (gen 1)
 * either mask is allowed; once sched_setaffinity() has returned the kernel guarantees the task
 * is off the old CPU, so gen 2 allows only the new mask.
 */
static void affinity_sampler(struct load_shm *shm, int slot, long arg)
{
	struct load_slot *s = &shm->slot[slot];

	(void)arg;
	while (!shm->stop) {
		int g1 = __atomic_load_n(&s->gen, __ATOMIC_ACQUIRE);
		int cpu = sched_getcpu();
		int g2 = __atomic_load_n(&s->gen, __ATOMIC_ACQUIRE);

		if (g1 != g2 || cpu < 0 || cpu >= CHECK_MAX_CPUS)
			continue;
		s->samples++;
		if (!(s->allowed[g1] & (1ull << cpu))) {
			s->violations++;
			s->bad_cpu = cpu;
		} else if (g1 == 2) {
			s->on_new_mask++;
		}
	}
}

void check_affinity(struct check_ctx *ctx, struct check_result *res)
{
	int n = ctx->nr_cpus > 8 ? 8 : ctx->nr_cpus;
	uint64_t samples = 0, violations = 0;
	struct load_set ls;
	struct gb_err err;
	int bad = -1, unmoved = -1;

	if (n < 2) {
		check_set(res, CHECK_SKIP, "needs 2 CPUs, %d online", ctx->nr_cpus);
		return;
	}
	if (load_init(&ls, &err) < 0) {
		check_set(res, CHECK_FAIL, "%s", err.msg);
		return;
	}
	for (int i = 0; i < n; i++) {
		struct load_slot *s = &ls.shm->slot[i];

		s->allowed[0] = 1ull << i;
		s->allowed[1] = s->allowed[0] | 1ull << ((i + 1) % n);
		s->allowed[2] = 1ull << ((i + 1) % n);
		if (spawn_or_fail(&ls, affinity_sampler, 0, i, 0, res) < 0)
			goto out;
	}
	/* an unpinned hog per CPU keeps the scheduler busy migrating around the pinned ones */
	for (int i = 0; i < n; i++)
		if (spawn_or_fail(&ls, load_hog, 0, -1, 0, res) < 0)
			goto out;
	load_sleep(ctx->duration_s / 2);
	for (int i = 0; i < n; i++) {
		struct load_slot *s = &ls.shm->slot[i];
		cpu_set_t set;

		CPU_ZERO(&set);
		CPU_SET((i + 1) % n, &set);
		__atomic_store_n(&s->gen, 1, __ATOMIC_RELEASE);
		if (sched_setaffinity(ls.pid[i], sizeof(set), &set) < 0) {
			check_set(res, CHECK_FAIL, "sched_setaffinity: %s", strerror(errno));
			goto out;
		}
		__atomic_store_n(&s->gen, 2, __ATOMIC_RELEASE);
	}
	load_sleep(ctx->duration_s / 2);
	load_stop(&ls);
	for (int i = 0; i < n; i++) {
		struct load_slot *s = &ls.shm->slot[i];

		samples += s->samples;
		violations += s->violations;
		if (s->violations && bad < 0)
			bad = i;
		if (!s->on_new_mask && unmoved < 0)
			unmoved = i;
	}
	check_metric(res, "samples", (double)samples);
	check_metric(res, "violations", (double)violations);
	if (bad >= 0)
		check_set(res, CHECK_FAIL,
			  "%llu of %llu samples outside the mask (task %d on CPU %d)",
			  (unsigned long long)violations, (unsigned long long)samples, bad,
			  ls.shm->slot[bad].bad_cpu);
	else if (unmoved >= 0)
		check_set(res, CHECK_FAIL, "task %d never ran on CPU %d after its mask changed",
			  unmoved, (unmoved + 1) % n);
	else
		check_set(res, CHECK_PASS,
			  "%d pinned tasks, %llu samples in mask, all moved on a mask change", n,
			  (unsigned long long)samples);
out:
	load_stop(&ls);
	load_free(&ls);
}

/* Weights: a nice 0 and a nice 10 hog pinned to the same CPU. */
void check_weights(struct check_ctx *ctx, struct check_result *res)
{
	int cpu = ctx->nr_cpus - 1;
	struct load_set ls;
	struct gb_err err;
	double t0_ms, t10_ms, ratio;

	if (load_init(&ls, &err) < 0) {
		check_set(res, CHECK_FAIL, "%s", err.msg);
		return;
	}
	if (spawn_or_fail(&ls, load_hog, 0, cpu, 0, res) < 0 ||
	    spawn_or_fail(&ls, load_hog, 0, cpu, 10, res) < 0)
		goto out;
	load_sleep(ctx->duration_s);
	load_stop(&ls);
	t0_ms = (double)ls.shm->slot[0].cputime_ns / 1e6;
	t10_ms = (double)ls.shm->slot[1].cputime_ns / 1e6;
	ratio = t10_ms > 0 ? t0_ms / t10_ms : 1e9;
	check_metric(res, "nice0_cpu_ms", t0_ms);
	check_metric(res, "nice10_cpu_ms", t10_ms);
	check_metric(res, "ratio", ratio);
	if (t0_ms <= 0)
		check_set(res, CHECK_FAIL, "the nice 0 hog got no CPU time");
	else if (ratio < WEIGHT_MIN_RATIO)
		check_set(res, CHECK_FAIL,
			  "nice 0 got %.0f ms, nice 10 %.0f ms on CPU %d: ratio %.2f < %.1f "
			  "(fair class: ~9.3)",
			  t0_ms, t10_ms, cpu, ratio, WEIGHT_MIN_RATIO);
	else
		check_set(res, CHECK_PASS,
			  "nice 0 got %.0f ms, nice 10 %.0f ms on CPU %d: ratio %.2f", t0_ms,
			  t10_ms, cpu, ratio);
out:
	load_stop(&ls);
	load_free(&ls);
}

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return (x > y) - (x < y);
}

/* Wakeup latency of a periodic SCHED_OTHER task beside 2 hogs per CPU. */
void check_latency(struct check_ctx *ctx, struct check_result *res)
{
	int nr_hogs = 2 * ctx->nr_cpus > 32 ? 32 : 2 * ctx->nr_cpus;
	uint32_t *lat = NULL;
	struct load_set ls;
	struct gb_err err;
	uint32_t n;
	double p50_ms, p99_ms, max_ms;

	if (load_init(&ls, &err) < 0) {
		check_set(res, CHECK_FAIL, "%s", err.msg);
		return;
	}
	for (int i = 0; i < nr_hogs; i++)
		if (spawn_or_fail(&ls, load_hog, 0, -1, 0, res) < 0)
			goto out;
	if (spawn_or_fail(&ls, load_periodic, LATENCY_PERIOD_US, -1, 0, res) < 0)
		goto out;
	load_sleep(ctx->duration_s);
	load_stop(&ls);
	n = ls.shm->nr_lat < LOAD_MAX_SAMPLES ? ls.shm->nr_lat : LOAD_MAX_SAMPLES;
	if (n < 5) {
		check_set(res, CHECK_FAIL, "the periodic task woke only %u times in %.1f s", n,
			  ctx->duration_s);
		goto out;
	}
	lat = malloc(n * sizeof(lat[0]));
	if (!lat) {
		check_set(res, CHECK_FAIL, "out of memory");
		goto out;
	}
	memcpy(lat, (const void *)ls.shm->lat_us, n * sizeof(lat[0]));
	qsort(lat, n, sizeof(lat[0]), cmp_u32);
	p50_ms = lat[n / 2] / 1000.0;
	p99_ms = lat[(n * 99) / 100] / 1000.0;
	max_ms = lat[n - 1] / 1000.0;
	check_metric(res, "wakeups", n);
	check_metric(res, "p50_ms", p50_ms);
	check_metric(res, "p99_ms", p99_ms);
	check_metric(res, "max_ms", max_ms);
	check_set(
	    res, p99_ms > LATENCY_P99_LIMIT_MS ? CHECK_FAIL : CHECK_PASS,
	    "%u wakeups beside %d hogs: p50 %.2f ms, p99 %.2f ms, max %.2f ms (limit p99 %d ms)", n,
	    nr_hogs, p50_ms, p99_ms, max_ms, LATENCY_P99_LIMIT_MS);
out:
	free(lat);
	load_stop(&ls);
	load_free(&ls);
}
