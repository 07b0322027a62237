// SPDX-License-Identifier: GPL-2.0-only
/*
 * policy_speed.c - placement decisions per second of the native build of src/policy/.
 *
 * For each size (CPUs x perf domains) a model is generated (em_profile_finalize derives costs
 * and the CPU map exactly as for a shipped model), then a fixed set of pseudo-random machine
 * states (per-CPU util, runnable, idle, uclamp) and tasks is placed with gb_select_cpu() in a
 * loop until the process has used --cpu-ms of CPU time.  CPU time, not wall time, is the
 * denominator because the machine is shared: another process taking the core does not make
 * our decisions look slower.  States rotate through a table that fits in cache for small
 * models, so that the figure is the policy's cost and not the generator's.
 *
 * Output: one JSON document (gearbox-bench-policy/1) on stdout; bench/run prints the table
 * and the ratios.  Nothing here asserts on time.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "em_profile.h"
#include "gb_err.h"
#include "gb_policy.h"

#ifdef __OPTIMIZE__
#define BUILD_OPTIMIZED "true"
#else
#define BUILD_OPTIMIZED "false"
#endif
#ifdef __SANITIZE_ADDRESS__
#define BUILD_SANITIZED "true"
#else
#define BUILD_SANITIZED "false"
#endif

#define NR_STATES   64
#define NR_OPPS	    16
#define CHECK_EVERY 1024

struct state {
	struct gb_cpu cpus[EM_MAX_CPUS];
	struct gb_task task;
};

/* xorshift64*: deterministic, so every run prices the same states. */
static u64 rnd(u64 *s)
{
	*s ^= *s >> 12;
	*s ^= *s << 25;
	*s ^= *s >> 27;
	return *s * 2685821657736338717ull;
}

static u32 rnd_below(u64 *s, u32 n)
{
	return n ? (u32)(rnd(s) % n) : 0;
}

/*
 * A model of nr_cpus CPUs in nr_domains contiguous domains; domain d's capacity is
 * 1024 * (d + 1) / nr_domains, 16 OPPs each with power growing as perf^3 (a V^2 f curve),
 * scaled so that a bigger domain costs more per unit of work at the same perf.
 */
static int make_model(struct em_profile *prof, u32 nr_cpus, u32 nr_domains, struct gb_err *err)
{
	u32 cpu = 0;

	em_profile_init(prof, "manual");
	snprintf(prof->soc, sizeof(prof->soc), "gen-%ucpu-%upd", nr_cpus, nr_domains);
	prof->model.nr_domains = nr_domains;
	for (u32 d = 0; d < nr_domains; d++) {
		struct em_domain *pd = &prof->model.domains[d];
		u32 n = nr_cpus / nr_domains + (d < nr_cpus % nr_domains);
		u32 cap = (u32)((u64)EM_CAPACITY_SCALE * (d + 1) / nr_domains);

		snprintf(pd->name, sizeof(pd->name), "pd%u", d);
		pd->nr_opps = NR_OPPS;
		pd->idle_power_uw = 1000 + 100 * d;
		for (u32 i = 0; i < n; i++)
			em_cpumask_set(&pd->cpus, cpu++);
		for (u32 k = 0; k < NR_OPPS; k++) {
			struct em_opp *o = &pd->opps[k];
			u64 perf = (u64)cap * (k + 1) / NR_OPPS;
			u64 scale = 1000 + 50 * (u64)d; /* bigger cores: more power at equal perf */

			o->freq_khz = 300000 + k * 100000;
			o->perf = perf ? (u32)perf : 1;
			o->power_uw = (u32)(20000 + perf * 200 + k +
					    perf * perf * perf * scale / (1024ull * 1024));
		}
	}
	return em_profile_finalize(prof, false, NULL, err);
}

static void make_states(const struct em_model *m, struct state *st, u64 seed)
{
	for (u32 i = 0; i < NR_STATES; i++) {
		struct state *s = &st[i];

		memset(s, 0, sizeof(*s));
		for (u32 c = 0; c < m->nr_cpus; c++) {
			struct gb_cpu *cs = &s->cpus[c];
			u32 cap = em_domain_capacity(&m->domains[m->cpu_domain[c]]);

			cs->online = 1;
			cs->idle = rnd_below(&seed, 10) < 4;
			cs->nr_running = cs->idle ? 0 : 1 + rnd_below(&seed, 3);
			cs->util = rnd_below(&seed, cap + 1) / (cs->idle ? 4 : 1);
			cs->runnable = cs->util + rnd_below(&seed, 64);
			cs->uclamp_min = rnd_below(&seed, 8) ? 0 : rnd_below(&seed, 512);
			cs->uclamp_max =
			    rnd_below(&seed, 8) ? EM_CAPACITY_SCALE : 256 + rnd_below(&seed, 768);
			cs->perf_cur = cap;
		}
		s->task.util = rnd_below(&seed, 600);
		s->task.util_est = s->task.util;
		s->task.runnable = rnd_below(&seed, EM_CAPACITY_SCALE + 1);
		s->task.uclamp_min = rnd_below(&seed, 8) ? 0 : rnd_below(&seed, 600);
		s->task.uclamp_max =
		    rnd_below(&seed, 8) ? EM_CAPACITY_SCALE : 200 + rnd_below(&seed, 824);
		if (s->task.uclamp_min > s->task.uclamp_max)
			s->task.uclamp_min = s->task.uclamp_max;
		s->task.prev_cpu = (s32)rnd_below(&seed, m->nr_cpus);
		for (u32 c = 0; c < m->nr_cpus; c++)
			em_cpumask_set(&s->task.allowed, c);
	}
}

static double cpu_seconds(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static double wall_seconds(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

struct result {
	u64 decisions;
	double cpu_s;
	double wall_s;
	s64 checksum; /* keeps the compiler from dropping the decisions */
};

static void measure(const struct em_model *m, const struct state *st, double cpu_budget_s,
		    struct result *r)
{
	static struct gb_scratch scratch;
	double c0 = cpu_seconds(), w0 = wall_seconds();
	u64 n = 0;

	r->checksum = 0;
	for (;;) {
		for (u32 i = 0; i < CHECK_EVERY; i++) {
			const struct state *s = &st[(n + i) % NR_STATES];
			struct gb_decision d;

			gb_select_cpu(m, s->cpus, &s->task, &scratch, &d);
			r->checksum += d.cpu + d.energy_delta;
		}
		n += CHECK_EVERY;
		if (cpu_seconds() - c0 >= cpu_budget_s)
			break;
	}
	r->decisions = n;
	r->cpu_s = cpu_seconds() - c0;
	r->wall_s = wall_seconds() - w0;
}

static void print_machine(FILE *out)
{
	char line[512], model[256] = "unknown";
	FILE *f = fopen("/proc/cpuinfo", "r");

	while (f && fgets(line, sizeof(line), f)) {
		char *colon = strchr(line, ':');

		if (!strncmp(line, "model name", 10) && colon) {
			snprintf(model, sizeof(model), "%s", colon + 2);
			model[strcspn(model, "\n\"\\")] = 0;
			break;
		}
	}
	if (f)
		fclose(f);
	fprintf(out, "  \"machine\": { \"cpu_model\": \"%s\", \"online_cpus\": %ld },\n", model,
		sysconf(_SC_NPROCESSORS_ONLN));
}

static int usage(const char *prog)
{
	fprintf(stderr,
		"usage: %s [--cpu-ms MS] [CPUS:DOMAINS ...]\n"
		"  default sizes 8:3 8:8 64:3 64:16 64:64 256:3 256:16 256:64, 300 ms CPU each\n",
		prog);
	return 2;
}

int main(int argc, char **argv)
{
	static const u32 default_sizes[][2] = {
	    {8, 3}, {8, 8}, {64, 3}, {64, 16}, {64, 64}, {256, 3}, {256, 16}, {256, 64},
	};
	u32 sizes[32][2];
	unsigned nr_sizes = 0;
	double budget_s = 0.3;
	struct em_profile *prof = calloc(1, sizeof(*prof));
	struct state *st = calloc(NR_STATES, sizeof(*st));
	struct gb_err err = {{0}};

	if (!prof || !st) {
		fprintf(stderr, "policy_speed: error: out of memory\n");
		return 1;
	}
	for (int i = 1; i < argc; i++) {
		unsigned c, d;
		char tail;

		if (!strcmp(argv[i], "--cpu-ms") && i + 1 < argc) {
			char *end;
			long ms = strtol(argv[++i], &end, 10);

			if (*end || ms < 1 || ms > 60000)
				return usage(argv[0]);
			budget_s = (double)ms / 1000.0;
		} else if (sscanf(argv[i], "%u:%u%c", &c, &d, &tail) == 2 && c >= 1 &&
			   c <= EM_MAX_CPUS && d >= 1 && d <= EM_MAX_DOMAINS && d <= c &&
			   nr_sizes < 32) {
			sizes[nr_sizes][0] = c;
			sizes[nr_sizes++][1] = d;
		} else {
			return usage(argv[0]);
		}
	}
	if (!nr_sizes) {
		nr_sizes = sizeof(default_sizes) / sizeof(default_sizes[0]);
		memcpy(sizes, default_sizes, sizeof(default_sizes));
	}
	printf("{\n  \"format\": \"gearbox-bench-policy/1\",\n");
	print_machine(stdout);
	printf("  \"build\": { \"compiler\": \"%s\", \"optimized\": %s, \"sanitized\": %s },\n",
	       __VERSION__, BUILD_OPTIMIZED, BUILD_SANITIZED);
	printf("  \"cpu_ms_per_size\": %.0f,\n  \"results\": [\n", budget_s * 1000);
	for (unsigned i = 0; i < nr_sizes; i++) {
		struct result r;

		if (make_model(prof, sizes[i][0], sizes[i][1], &err)) {
			fprintf(stderr, "policy_speed: error: %u CPUs, %u domains: %s\n",
				sizes[i][0], sizes[i][1], err.msg);
			return 1;
		}
		make_states(&prof->model, st,
			    0x9e3779b97f4a7c15ull ^ (sizes[i][0] * 131 + sizes[i][1]));
		measure(&prof->model, st, budget_s, &r);
		printf(
		    "    { \"cpus\": %u, \"domains\": %u, \"decisions\": %llu, \"cpu_s\": %.6f, "
		    "\"wall_s\": %.6f, \"decisions_per_cpu_s\": %.0f, \"ns_per_decision\": %.2f, "
		    "\"checksum\": %lld }%s\n",
		    sizes[i][0], sizes[i][1], (unsigned long long)r.decisions, r.cpu_s, r.wall_s,
		    (double)r.decisions / r.cpu_s, r.cpu_s * 1e9 / (double)r.decisions,
		    (long long)r.checksum, i + 1 < nr_sizes ? "," : "");
		fflush(stdout);
	}
	printf("  ]\n}\n");
	free(st);
	free(prof);
	return 0;
}
