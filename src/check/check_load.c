// SPDX-License-Identifier: GPL-2.0-only
/*
 * check_load.c - workload processes for the checks, and what they record.
 *
 * Workloads are processes, not threads: a process can be pinned, reniced and killed on its
 * own, and a scheduler bug that wedges one cannot take the checker with it.  They report through
 * one MAP_SHARED page set (struct load_shm) and stop when the parent sets shm->stop; anything
 * still alive two seconds later is SIGKILLed, so no check can hang on its load.
 */
#include <errno.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "check.h"

double load_now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

void load_sleep(double s)
{
	struct timespec ts = {(time_t)s, (long)((s - (double)(time_t)s) * 1e9)};

	while (nanosleep(&ts, &ts) < 0 && errno == EINTR && !check_interrupted())
		;
}

static uint64_t cputime_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

int load_init(struct load_set *ls, struct gb_err *err)
{
	memset(ls, 0, sizeof(*ls));
	ls->shm =
	    mmap(NULL, sizeof(*ls->shm), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (ls->shm == MAP_FAILED) {
		ls->shm = NULL;
		return gb_err_set(err, errno, "mmap: %s", strerror(errno));
	}
	memset((void *)ls->shm, 0, sizeof(*ls->shm));
	return 0;
}

void die_with_parent(pid_t parent_pid)
{
	if (prctl(PR_SET_PDEATHSIG, SIGKILL) < 0 || getppid() != parent_pid)
		_exit(126);
}

int load_spawn(struct load_set *ls, load_fn fn, long arg, int cpu, int nice)
{
	int slot = ls->nr;
	pid_t pid, parent = getpid();

	if (slot >= LOAD_MAX_TASKS)
		return -ENOSPC;
	fflush(NULL);
	pid = fork();
	if (pid < 0)
		return -errno;
	if (pid == 0) {
		/* its own group, not the check's: a Ctrl-C is for the check, which stops it */
		setpgid(0, ls->pgid);
		die_with_parent(parent);
		if (cpu >= 0) {
			cpu_set_t set;

			CPU_ZERO(&set);
			CPU_SET(cpu, &set);
			if (sched_setaffinity(0, sizeof(set), &set) < 0)
				_exit(3);
		}
		/* always: a workload must not inherit the check's own nice value (run under
		 * `nice -n 10`, weights compared a nice 10 hog with another nice 10 one) */
		if (setpriority(PRIO_PROCESS, 0, nice) < 0)
			_exit(3);
		fn(ls->shm, slot, arg);
		ls->shm->slot[slot].cputime_ns = cputime_ns();
		ls->shm->slot[slot].done = 1;
		_exit(0);
	}
	/* both sides set the group, so it is set whichever runs first */
	setpgid(pid, ls->pgid ? ls->pgid : pid);
	if (!ls->pgid)
		ls->pgid = pid;
	ls->pid[slot] = pid;
	ls->nr++;
	return slot;
}

void load_stop(struct load_set *ls)
{
	double t0 = load_now_s();
	int left;

	ls->shm->stop = 1;
	do {
		left = 0;
		for (int i = 0; i < ls->nr; i++) {
			if (ls->pid[i] > 0 && waitpid(ls->pid[i], NULL, WNOHANG) == ls->pid[i])
				ls->pid[i] = 0;
			left += ls->pid[i] > 0;
		}
		if (left)
			usleep(2000);
	} while (left && load_now_s() - t0 < 2.0);
	if (left && ls->pgid > 0)
		kill(-ls->pgid, SIGKILL);
	for (int i = 0; i < ls->nr; i++) {
		if (ls->pid[i] > 0) {
			kill(ls->pid[i], SIGKILL);
			waitpid(ls->pid[i], NULL, 0);
			ls->pid[i] = 0;
		}
	}
}

void load_free(struct load_set *ls)
{
	if (ls->shm)
		munmap((void *)ls->shm, sizeof(*ls->shm));
	ls->shm = NULL;
}

/* A CPU hog: spins, counting, and publishes its CPU time now and then. */
void load_hog(struct load_shm *shm, int slot, long arg)
{
	volatile uint64_t x = 0;

	(void)arg;
	while (!shm->stop) {
		for (int i = 0; i < 20000; i++)
			x += (uint64_t)i;
		shm->slot[slot].progress++;
		shm->slot[slot].cputime_ns = cputime_ns();
	}
}

/* Wakes every period_us; records how late each wakeup was (the latency check reads it). */
void load_periodic(struct load_shm *shm, int slot, long period_us)
{
	struct timespec next;

	clock_gettime(CLOCK_MONOTONIC, &next);
	while (!shm->stop) {
		struct timespec now;
		int64_t late_ns;

		next.tv_nsec += period_us * 1000;
		while (next.tv_nsec >= 1000000000) {
			next.tv_nsec -= 1000000000;
			next.tv_sec++;
		}
		while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &next, NULL) == EINTR)
			;
		clock_gettime(CLOCK_MONOTONIC, &now);
		late_ns =
		    (int64_t)(now.tv_sec - next.tv_sec) * 1000000000 + (now.tv_nsec - next.tv_nsec);
		if (late_ns < 0)
			late_ns = 0;
		uint32_t n = __atomic_fetch_add(&shm->nr_lat, 1, __ATOMIC_RELAXED);

		if (n < LOAD_MAX_SAMPLES)
			shm->lat_us[n] = (uint32_t)(late_ns / 1000);
		shm->slot[slot].progress++;
		/* A late wakeup must not be followed by a burst of catch-up wakeups. */
		if (late_ns > period_us * 1000)
			next = now;
	}
}

/* Interactive: short bursts between short sleeps, like an editor or a shell. */
void load_interactive(struct load_shm *shm, int slot, long arg)
{
	volatile uint64_t x = 0;

	(void)arg;
	while (!shm->stop) {
		for (int i = 0; i < 2000; i++)
			x += (uint64_t)i;
		shm->slot[slot].progress++;
		usleep(2000);
	}
}
