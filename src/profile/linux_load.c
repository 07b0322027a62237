// SPDX-License-Identifier: GPL-2.0-only
/*
 * linux_load.c - the calibrated CPU-bound load and its counters.
 *
 * The load is a child process ("gb-load") that runs a dependent integer loop - no memory
 * traffic, so its work per cycle is the same at every frequency - and counts iterations in a
 * shared page.  Parked, it sleeps in FUTEX_WAIT, so the CPU really idles (no polling wakeups
 * that would show up in the idle power).  It dies with the profiler (PR_SET_PDEATHSIG).
 *
 * libperf counts the child: task-clock always (a software event), cycles and instructions
 * where the PMU is supported (not in most VMs).  Cycles per task-clock second is the frequency
 * the CPU really ran at; instructions per second is the performance.  An instructions counter
 * can open and still never count (a hypervisor that accepts the event, a PMU busy with other
 * events), so a short probe run checks that it does before it is trusted.
 */
#include <errno.h>
#include <linux/futex.h>
#include <perf/core.h>
#include <perf/evsel.h>
#include <perf/threadmap.h>
#include <linux/perf_event.h>
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

#define ITER_OPS 4096    /* loop steps per counted iteration */
#define PROBE_NS (20ull * 1000000)

struct lx_shared {
	_Atomic u32 run;                   /* futex word: 1 run, 0 park, 2 exit */
	_Atomic u64 iterations;
};

struct lx_load {
	pid_t pid;
	struct lx_shared *sh;
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
	struct timespec ts = { (time_t)(ns / 1000000000ull), (long)(ns % 1000000000ull) };

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

	prctl(PR_SET_NAME, "gb-load");
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	for (;;) {
		u32 r = atomic_load_explicit(&sh->run, memory_order_acquire);

		if (r == 2)
			_exit(0);
		if (r == 0) {
			futex(&sh->run, FUTEX_WAIT, 0);
			continue;
		}
		for (int i = 0; i < ITER_OPS; i++) {   /* xorshift: one dependent chain */
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

/* Runs the load (unpinned) for PROBE_NS and reads what the instructions counter made of it. */
static void probe_instructions(struct lx_load *l, struct prof_perf_probe *p)
{
	struct perf_counts_values c0 = { 0 }, c1 = { 0 };
	struct gb_err ignored;

	if (!l->instructions || perf_evsel__read(l->instructions, 0, 0, &c0) < 0)
		return;
	lx_load_set(l, -2, &ignored);
	lx_sleep_ns(PROBE_NS);
	lx_load_set(l, -1, &ignored);
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
	l->sh = mmap(NULL, sizeof(*l->sh), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (l->sh == MAP_FAILED) {
		free(l);
		return gb_err_set(err, errno, "mmap: %s", strerror(errno));
	}
	l->pid = fork();
	if (l->pid < 0) {
		munmap(l->sh, sizeof(*l->sh));
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
		l->task_clock = open_counter(l->threads, PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK,
					     &ignored);
		l->cycles = open_counter(l->threads, PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES,
					 &ignored);
		l->instructions = open_counter(l->threads, PERF_TYPE_HARDWARE,
					       PERF_COUNT_HW_INSTRUCTIONS, &probe->open_err);
	}
	probe_instructions(l, probe);
	*out = l;
	return 0;
}

/* cpu -2: run unpinned (the probe) */
int lx_load_set(struct lx_load *l, int cpu, struct gb_err *err)
{
	if (cpu >= 0) {
		cpu_set_t set;

		CPU_ZERO(&set);
		CPU_SET(cpu, &set);
		if (sched_setaffinity(l->pid, sizeof(set), &set) < 0)
			return gb_err_set(err, errno, "pinning the load to CPU %d: %s", cpu,
					  strerror(errno));
	}
	atomic_store_explicit(&l->sh->run, cpu != -1 ? 1 : 0, memory_order_release);
	if (cpu != -1)
		futex(&l->sh->run, FUTEX_WAKE, 1);
	return 0;
}

static u64 read_counter(struct perf_evsel *ev)
{
	struct perf_counts_values c = { 0 };

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
	if (l->pid > 0) {
		atomic_store(&l->sh->run, 2);
		futex(&l->sh->run, FUTEX_WAKE, 1);
		kill(l->pid, SIGKILL);
		waitpid(l->pid, NULL, 0);
	}
	close_counter(l->task_clock);
	close_counter(l->cycles);
	close_counter(l->instructions);
	if (l->threads)
		perf_thread_map__put(l->threads);
	munmap(l->sh, sizeof(*l->sh));
	free(l);
}
