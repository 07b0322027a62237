// SPDX-License-Identifier: GPL-2.0-only
/*
 * linux_load.c - the calibrated CPU-bound load and its counters.
 *
 * The load is a child process ("gb-load") that runs a dependent integer loop - no memory
 * traffic, so its work per cycle is the same at every frequency - and counts iterations in a
 * shared page.  The static/dynamic split runs one such child per busy CPU; they are forked
 * when first needed, and only the first (on the lowest CPU) is counted.  Parked, it sleeps in
 * FUTEX_WAIT, so the CPU really idles (no polling wakeups that would show up in the idle power).
 * It dies with the profiler (PR_SET_PDEATHSIG).
 *
 * A switch is not done when it is asked for: a load waiting for its CPU behind another task, or
 * stopped (a board that emulates a slow CPU by stopping it, a debugger), still draws power, or
 * draws none yet.  So lx_load_set() returns only once every load is where it was sent: each one
 * told to park says so in its shared page before it sleeps, and each one told to run has counted
 * an iteration since.  Without this, a window could open on the previous window's power; at a
 * low OPP that error is below the outlier rejection and biased the static/dynamic split.
 *
 * libperf counts the child: task-clock always (a software event), cycles and instructions
 * where the PMU is supported (not in most VMs).  Cycles per task-clock second is the frequency
 * the CPU really ran at; instructions per second is the performance.  An instructions counter
 * can open and still never count (a hypervisor that accepts the event, a PMU busy with other
 * events), so a short probe run checks that it does before it is trusted.
 */
#include <errno.h>
#include <linux/futex.h>
#include <linux/perf_event.h>
#include <perf/core.h>
#include <perf/evsel.h>
#include <perf/threadmap.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "linux_impl.h"

#define ITER_OPS	  4096 /* loop steps per counted iteration */
#define PROBE_NS	  (20ull * 1000000)
#define LX_MAX_LOADS	  EM_MAX_CPUS
#define SWITCH_POLL_NS	  (200ull * 1000)
#define SWITCH_TIMEOUT_NS (5ull * 1000000000)
#define SHARED_BYTES	  (sizeof(struct lx_shared) * LX_MAX_LOADS)

/* One cache line each: loads on neighbouring CPUs must not bounce a shared line, which would
 * add memory traffic (and power) that a lone load does not have. */
struct lx_shared {
	_Alignas(64) _Atomic u32 run; /* futex word: 1 run, 0 park, 2 exit */
	_Atomic u32 parked;	      /* set by the load: it has seen run == 0 and sleeps */
	_Atomic u64 iterations;
};

struct lx_load {
	pid_t pid;		   /* the counted load */
	struct lx_shared *sh;	   /* sh[0] is the counted load's, sh[i] child i's */
	pid_t extra[LX_MAX_LOADS]; /* children 1..; 0: not forked yet */
	int cpu[LX_MAX_LOADS];	   /* where child i was last pinned (-1: unpinned) */
	struct perf_thread_map *threads;
	struct perf_evsel *task_clock, *cycles, *instructions;
};

u64 lx_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (u64)ts.tv_sec * 1000000000ull + (u64)ts.tv_nsec;
}

void lx_sleep_ns(u64 ns)
{
	struct timespec ts = {(time_t)(ns / 1000000000ull), (long)(ns % 1000000000ull)};

	while (nanosleep(&ts, &ts) < 0 && errno == EINTR)
		;
}

static long futex(_Atomic u32 *addr, int op, u32 val)
{
	return syscall(SYS_futex, (u32 *)addr, op, val, NULL, NULL, 0);
}

static void __attribute__((noreturn)) load_main(struct lx_shared *sh)
{
	u64 x = 88172645463325252ull;
	bool parked = false;

	prctl(PR_SET_NAME, "gb-load");
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	for (;;) {
		u32 r = atomic_load_explicit(&sh->run, memory_order_acquire);

		if (r == 2)
			_exit(0);
		if (r == 0) {
			if (!parked)
				atomic_store_explicit(&sh->parked, 1, memory_order_release);
			parked = true;
			futex(&sh->run, FUTEX_WAIT, 0);
			continue;
		}
		if (parked)
			atomic_store_explicit(&sh->parked, 0, memory_order_release);
		parked = false;
		for (int i = 0; i < ITER_OPS; i++) { /* xorshift: one dependent chain */
			x ^= x << 13;
			x ^= x >> 7;
			x ^= x << 17;
		}
		__asm__ volatile("" : "+r"(x));
		atomic_fetch_add_explicit(&sh->iterations, 1, memory_order_relaxed);
	}
}

static int quiet_print(enum libperf_print_level level, const char *fmt, va_list ap)
{
	(void)level;
	(void)fmt;
	(void)ap;
	return 0;
}

static struct perf_evsel *open_counter(struct perf_thread_map *threads, u32 type, u64 config,
				       int *err)
{
	struct perf_event_attr attr = {
	    .type = type,
	    .config = config,
	    .size = sizeof(attr),
	    .exclude_kernel = 1,
	    .exclude_hv = 1,
	};
	struct perf_evsel *ev = perf_evsel__new(&attr);
	int ret;

	*err = -ENOMEM;
	if (!ev)
		return NULL;
	ret = perf_evsel__open(ev, NULL, threads);
	*err = ret < 0 ? ret : 0;
	if (ret < 0) {
		perf_evsel__delete(ev);
		return NULL;
	}
	return ev;
}

static void close_counter(struct perf_evsel *ev)
{
	if (!ev)
		return;
	perf_evsel__close(ev);
	perf_evsel__delete(ev);
}

static int run_child(struct lx_load *l, u32 i, bool run, int cpu, struct gb_err *err);

/* Runs the load (unpinned) for PROBE_NS and reads what the instructions counter made of it. */
static void probe_instructions(struct lx_load *l, struct prof_perf_probe *p)
{
	struct perf_counts_values c0 = {0}, c1 = {0};
	struct gb_err ignored;

	if (!l->instructions || perf_evsel__read(l->instructions, 0, 0, &c0) < 0)
		return;
	run_child(l, 0, true, -1, &ignored);
	lx_sleep_ns(PROBE_NS);
	run_child(l, 0, false, -1, &ignored);
	if (perf_evsel__read(l->instructions, 0, 0, &c1) < 0)
		return;
	p->instructions = c1.val - c0.val;
	p->time_running_ns = c1.run - c0.run;
}

int lx_load_open(struct lx_load **out, struct prof_perf_probe *probe, struct gb_err *err)
{
	int ignored;

	struct lx_load *l = calloc(1, sizeof(*l));

	if (!l)
		return gb_err_set(err, ENOMEM, "out of memory");
	l->sh = mmap(NULL, SHARED_BYTES, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (l->sh == MAP_FAILED) {
		free(l);
		return gb_err_set(err, errno, "mmap: %s", strerror(errno));
	}
	l->pid = fork();
	if (l->pid < 0) {
		munmap(l->sh, SHARED_BYTES);
		free(l);
		return gb_err_set(err, errno, "fork: %s", strerror(errno));
	}
	if (l->pid == 0)
		load_main(l->sh);
	libperf_init(quiet_print);
	memset(probe, 0, sizeof(*probe));
	probe->open_err = -ENOMEM;
	l->threads = perf_thread_map__new_dummy();
	if (l->threads) {
		perf_thread_map__set_pid(l->threads, 0, l->pid);
		l->task_clock = open_counter(l->threads, PERF_TYPE_SOFTWARE,
					     PERF_COUNT_SW_TASK_CLOCK, &ignored);
		l->cycles = open_counter(l->threads, PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES,
					 &ignored);
		l->instructions = open_counter(l->threads, PERF_TYPE_HARDWARE,
					       PERF_COUNT_HW_INSTRUCTIONS, &probe->open_err);
	}
	probe_instructions(l, probe);
	*out = l;
	return 0;
}

/* Child i runs (pinned to cpu, or unpinned when cpu < 0) or parks. */
static int run_child(struct lx_load *l, u32 i, bool run, int cpu, struct gb_err *err)
{
	pid_t pid = i ? l->extra[i] : l->pid;
	struct lx_shared *sh = &l->sh[i];

	if (run)
		l->cpu[i] = cpu;
	if (run && cpu >= 0) {
		cpu_set_t set;

		CPU_ZERO(&set);
		CPU_SET(cpu, &set);
		if (sched_setaffinity(pid, sizeof(set), &set) < 0)
			return gb_err_set(err, errno, "pinning the load to CPU %d: %s", cpu,
					  strerror(errno));
	}
	atomic_store_explicit(&sh->run, run ? 1 : 0, memory_order_release);
	if (run)
		futex(&sh->run, FUTEX_WAKE, 1);
	return 0;
}

static int fork_child(struct lx_load *l, u32 i, struct gb_err *err)
{
	pid_t pid = fork();

	if (pid < 0)
		return gb_err_set(err, errno, "fork: %s", strerror(errno));
	if (pid == 0)
		load_main(&l->sh[i]);
	l->extra[i] = pid;
	return 0;
}

/* Child i is where it was sent: parked, or running since its count was from. */
static bool child_settled(const struct lx_load *l, u32 i, bool run, u64 from)
{
	if (run)
		return atomic_load_explicit(&l->sh[i].iterations, memory_order_relaxed) != from;
	return atomic_load_explicit(&l->sh[i].parked, memory_order_acquire) == 1;
}

int lx_load_set(struct lx_load *l, const struct em_cpumask *cpus, struct gb_err *err)
{
	u64 from[LX_MAX_LOADS], t0 = lx_now_ns();
	u32 n = 0;
	int ret;

	for (u32 c = 0; cpus && c < EM_MAX_CPUS && n < LX_MAX_LOADS; c++) {
		if (!em_cpumask_test(cpus, c))
			continue;
		if (n && !l->extra[n] && (ret = fork_child(l, n, err)) < 0)
			return ret;
		from[n] = atomic_load_explicit(&l->sh[n].iterations, memory_order_relaxed);
		ret = run_child(l, n++, true, (int)c, err);
		if (ret < 0)
			return ret;
	}
	for (u32 i = n; i < LX_MAX_LOADS; i++)
		if (i == 0 || l->extra[i])
			run_child(l, i, false, -1, err);
	for (u32 i = 0; i < LX_MAX_LOADS; i++) {
		bool run = i < n;

		if (!run && i && !l->extra[i])
			continue;
		while (!child_settled(l, i, run, run ? from[i] : 0)) {
			char where[32] = "";

			if (lx_now_ns() - t0 <= SWITCH_TIMEOUT_NS) {
				lx_sleep_ns(SWITCH_POLL_NS);
				continue;
			}
			if (l->cpu[i] >= 0)
				snprintf(where, sizeof(where), " on CPU %d", l->cpu[i]);
			return gb_err_set(err, ETIMEDOUT,
					  "the load%s did not %s within %llu s: is "
					  "it stopped (SIGSTOP, a debugger), or its CPU taken by a "
					  "real-time task?",
					  where, run ? "start" : "park",
					  SWITCH_TIMEOUT_NS / 1000000000ull);
		}
	}
	return 0;
}

static u64 read_counter(struct perf_evsel *ev)
{
	struct perf_counts_values c = {0};

	if (!ev || perf_evsel__read(ev, 0, 0, &c) < 0)
		return 0;
	return c.val;
}

void lx_load_counts(struct lx_load *l, struct lx_counts *c)
{
	c->work = atomic_load_explicit(&l->sh->iterations, memory_order_relaxed);
	c->task_ns = read_counter(l->task_clock);
	c->cycles = read_counter(l->cycles);
	c->instructions = read_counter(l->instructions);
}

bool lx_load_has_cycles(const struct lx_load *l)
{
	return l->cycles != NULL;
}

void lx_load_close(struct lx_load *l)
{
	if (!l)
		return;
	for (u32 i = 0; i < LX_MAX_LOADS; i++) {
		pid_t pid = i ? l->extra[i] : l->pid;

		if (pid <= 0)
			continue;
		atomic_store(&l->sh[i].run, 2);
		futex(&l->sh[i].run, FUTEX_WAKE, 1);
		kill(pid, SIGKILL);
		waitpid(pid, NULL, 0);
	}
	close_counter(l->task_clock);
	close_counter(l->cycles);
	close_counter(l->instructions);
	if (l->threads)
		perf_thread_map__put(l->threads);
	munmap(l->sh, SHARED_BYTES);
	free(l);
}
