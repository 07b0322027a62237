// SPDX-License-Identifier: GPL-2.0-only
/*
 * checks_system.c - the scheduler and the rest of the system: fork/exit storms, CPU hotplug,
 * the RT class above it, and the three ways it can go away (SIGINT, SIGKILL, sysrq-S).
 */
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check.h"

#define STORM_FORKS_PER_WORKER 200
/* "Completes" means no stall, not a speed: a loaded host under TCG forks 10x slower than an
 * idle one.  The storm fails when no fork completes for STORM_STALL_S, or at STORM_LIMIT_S. */
#define STORM_STALL_S 10.0
#define STORM_LIMIT_S 120.0
#define RT_MIN_SHARE  0.75 /* RT throttling leaves 5% to the rest; a broken order gives ~50% */
#define EXIT_LIMIT_S  5.0
#define HOTPLUG_REENABLE_LIMIT_S                                                                   \
	20.0 /* a reload re-verifies the BPF program: seconds under TCG                            \
	      */

/* Fork/exit storm: each worker forks short-lived children that talk back through a pipe. */
static void storm_worker(struct load_shm *shm, int slot, long forks)
{
	for (long i = 0; i < forks && !shm->stop; i++) {
		int fds[2];
		char c;
		pid_t pid;

		if (pipe(fds) < 0)
			_exit(4);
		pid = fork();
		if (pid < 0)
			_exit(4);
		if (pid == 0) {
			close(fds[0]);
			if (write(fds[1], "x", 1) != 1)
				_exit(1);
			_exit(0);
		}
		close(fds[1]);
		if (read(fds[0], &c, 1) != 1)
			_exit(5);
		close(fds[0]);
		waitpid(pid, NULL, 0);
		shm->slot[slot].progress++;
	}
	/* load_spawn marks done after fn returns: a worker cut short by stop is not done. */
	if (shm->stop)
		_exit(6);
}

void check_forkstorm(struct check_ctx *ctx, struct check_result *res)
{
	int nr = 2 * ctx->nr_cpus > 16 ? 16 : 2 * ctx->nr_cpus;
	double t0 = load_now_s(), last_progress = t0, took;
	struct load_set ls;
	struct gb_err err;
	int done;
	bool stalled;
	uint64_t forks = 0;

	if (load_init(&ls, &err) < 0) {
		check_set(res, CHECK_FAIL, "%s", err.msg);
		return;
	}
	for (int i = 0; i < nr; i++) {
		if (load_spawn(&ls, storm_worker, STORM_FORKS_PER_WORKER, -1, 0) < 0) {
			check_set(res, CHECK_FAIL, "cannot start a workload process");
			goto out;
		}
	}
	do {
		uint64_t now_forks = 0;

		load_sleep(0.05);
		done = 0;
		for (int i = 0; i < nr; i++) {
			done += ls.shm->slot[i].done;
			now_forks += ls.shm->slot[i].progress;
		}
		if (now_forks != forks) {
			forks = now_forks;
			last_progress = load_now_s();
		}
	} while (done < nr && load_now_s() - last_progress < STORM_STALL_S &&
		 load_now_s() - t0 < STORM_LIMIT_S && !check_interrupted());
	took = load_now_s() - t0;
	stalled = load_now_s() - last_progress >= STORM_STALL_S;
	load_stop(&ls);
	forks = 0;
	for (int i = 0; i < nr; i++)
		forks += ls.shm->slot[i].progress;
	check_metric(res, "forks", (double)forks);
	check_metric(res, "forks_per_s", (double)forks / took);
	if (done < nr)
		check_set(res, CHECK_FAIL, "%llu of %d forks done in %.1f s: %s",
			  (unsigned long long)forks, nr * STORM_FORKS_PER_WORKER, took,
			  stalled ? "no fork completed for 10 s" : "not done in 120 s");
	else
		check_set(res, CHECK_PASS, "%llu forks+exits by %d workers in %.2f s",
			  (unsigned long long)forks, nr, took);
out:
	load_stop(&ls);
	load_free(&ls);
}

static int cpu_online_write(int cpu, int on)
{
	char path[64];
	int fd, rc = 0;

	snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/online", cpu);
	fd = open(path, O_WRONLY);
	if (fd < 0)
		return -errno;
	if (write(fd, on ? "1" : "0", 1) != 1)
		rc = -errno;
	close(fd);
	return rc;
}

/*
 * CPU hotplug while loaded.  The kernel exits a scheduler that has no cpu_online/cpu_offline
 * callbacks with an exit code asking for a restart (SCX_ECODE_ACT_RESTART); a well-behaved
 * loader reloads.  Either way, a scheduler must be enabled again afterwards and the load run.
 */
void check_hotplug(struct check_ctx *ctx, struct check_result *res)
{
	int cpu = ctx->nr_cpus - 1, rc;
	struct load_set ls;
	struct gb_err err;
	uint64_t before = 0, after = 0;
	double back_s;
	long seq0 = scx_enable_seq(), seq1;

	if (ctx->nr_cpus < 2) {
		check_set(res, CHECK_SKIP, "needs 2 CPUs, %d online", ctx->nr_cpus);
		return;
	}
	if (load_init(&ls, &err) < 0) {
		check_set(res, CHECK_FAIL, "%s", err.msg);
		return;
	}
	for (int i = 0; i < ctx->nr_cpus; i++)
		if (load_spawn(&ls, load_hog, 0, -1, 0) < 0) {
			check_set(res, CHECK_FAIL, "cannot start a workload process");
			goto out;
		}
	load_sleep(0.2);
	rc = cpu_online_write(cpu, 0);
	if (rc < 0) {
		check_set(res, CHECK_SKIP, "cannot offline CPU %d: %s", cpu, strerror(-rc));
		goto out;
	}
	load_sleep(ctx->duration_s / 4);
	rc = cpu_online_write(cpu, 1);
	if (rc < 0) {
		check_set(res, CHECK_FAIL, "cannot online CPU %d again: %s", cpu, strerror(-rc));
		goto out;
	}
	back_s = scx_wait_state("enabled", HOTPLUG_REENABLE_LIMIT_S);
	for (int i = 0; i < ls.nr; i++)
		before += ls.shm->slot[i].progress;
	load_sleep(ctx->duration_s / 4);
	for (int i = 0; i < ls.nr; i++)
		after += ls.shm->slot[i].progress;
	load_stop(&ls);
	seq1 = scx_enable_seq();
	check_metric(res, "reenabled_s", back_s);
	if (back_s < 0 || !sched_running(&ctx->sched)) {
		char how[64];

		sched_describe_exit(&ctx->sched, how, sizeof(how));
		check_set(res, CHECK_FAIL,
			  "CPU %d off and on: sched_ext not enabled %.0f s later (scheduler %s)",
			  cpu, HOTPLUG_REENABLE_LIMIT_S, how);
	} else if (after == before) {
		check_set(res, CHECK_FAIL, "CPU %d off and on: the load stopped making progress",
			  cpu);
	} else {
		check_set(res, CHECK_PASS,
			  "CPU %d off and on under load; scheduler %s, enabled %.2f s after online",
			  cpu,
			  seq0 < 0	 ? "enabled"
			  : seq1 == seq0 ? "stayed loaded"
					 : "reloaded by its loader",
			  back_s);
	}
out:
	load_stop(&ls);
	load_free(&ls);
	cpu_online_write(cpu, 1);
}

/* RT above sched_ext: a SCHED_FIFO hog and a sched_ext hog share a CPU. */
static void rt_hog(struct load_shm *shm, int slot, long prio)
{
	struct sched_param sp = {.sched_priority = (int)prio};

	if (sched_setscheduler(0, SCHED_FIFO, &sp) < 0)
		_exit(7);
	load_hog(shm, slot, 0);
}

void check_rt(struct check_ctx *ctx, struct check_result *res)
{
	int cpu = ctx->nr_cpus - 1;
	struct load_set ls;
	struct gb_err err;
	double rt_ms, ext_ms, share;

	if (load_init(&ls, &err) < 0) {
		check_set(res, CHECK_FAIL, "%s", err.msg);
		return;
	}
	if (load_spawn(&ls, load_hog, 0, cpu, 0) < 0 || load_spawn(&ls, rt_hog, 50, cpu, 0) < 0) {
		check_set(res, CHECK_FAIL, "cannot start a workload process");
		goto out;
	}
	load_sleep(ctx->duration_s);
	load_stop(&ls);
	ext_ms = (double)ls.shm->slot[0].cputime_ns / 1e6;
	rt_ms = (double)ls.shm->slot[1].cputime_ns / 1e6;
	share = rt_ms + ext_ms > 0 ? rt_ms / (rt_ms + ext_ms) : 0;
	check_metric(res, "rt_cpu_ms", rt_ms);
	check_metric(res, "ext_cpu_ms", ext_ms);
	check_metric(res, "rt_share", share);
	if (rt_ms <= 0)
		check_set(res, CHECK_FAIL,
			  "the SCHED_FIFO task did not run (could it be made RT?)");
	else
		check_set(res, share >= RT_MIN_SHARE ? CHECK_PASS : CHECK_FAIL,
			  "SCHED_FIFO got %.0f ms, sched_ext hog %.0f ms on CPU %d: RT share "
			  "%.0f%% (min %.0f%%)",
			  rt_ms, ext_ms, cpu, share * 100, RT_MIN_SHARE * 100);
out:
	load_stop(&ls);
	load_free(&ls);
}

/* After the scheduler went away, an ordinary task must run again (fair class). */
static bool fair_task_runs(void)
{
	double t0 = load_now_s();
	pid_t pid = fork();
	int st;

	if (pid == 0) {
		volatile uint64_t x = 0;

		while (load_now_s() - t0 < 0.05)
			x++;
		_exit(0);
	}
	if (pid < 0)
		return false;
	while (waitpid(pid, &st, WNOHANG) == 0) {
		if (load_now_s() - t0 > EXIT_LIMIT_S) {
			kill(pid, SIGKILL);
			waitpid(pid, NULL, 0);
			return false;
		}
		usleep(5000);
	}
	return WIFEXITED(st) && WEXITSTATUS(st) == 0;
}

/* One exit path; appends "NAME ok 0.05 s" or the failure to buf; true when it passed. */
static bool exit_path(struct check_ctx *ctx, const char *name, char *buf, size_t len)
{
	struct sched_proc *sp = &ctx->sched;
	size_t used = strlen(buf);
	struct gb_err err;
	double took = -1, start_s;
	bool ok = false;

	if (!sched_running(sp) || !scx_enabled()) {
		sched_stop(sp);
		if (sched_start(sp, ctx->attach_timeout_s, &start_s, &err) < 0) {
			snprintf(buf + used, len - used, "%s: restart failed: %s; ", name, err.msg);
			return false;
		}
	}
	if (!strcmp(name, "SIGINT")) {
		double t0 = load_now_s();
		bool exited = sched_signal_wait(sp, SIGINT, EXIT_LIMIT_S);

		/* a loader without a SIGINT handler dies of it: that unloads too, so the exit
		 * status is reported, not judged */
		ok = exited && scx_wait_state("disabled", 1.0) >= 0;
		took = load_now_s() - t0;
		if (!ok) {
			char how[64];

			sched_describe_exit(sp, how, sizeof(how));
			snprintf(buf + used, len - used, "SIGINT: scheduler %s, state %s; ", how,
				 scx_enabled() ? "still enabled" : "disabled");
			sched_stop(sp);
			return false;
		}
	} else if (!strcmp(name, "SIGKILL")) {
		double t0 = load_now_s();

		kill(-sp->pid, SIGKILL);
		ok = scx_wait_state("disabled", EXIT_LIMIT_S) >= 0;
		took = load_now_s() - t0;
		sched_stop(sp);
		if (!ok) {
			snprintf(buf + used, len - used, "SIGKILL: still enabled after %.0f s; ",
				 EXIT_LIMIT_S);
			return false;
		}
	} else {
		double t0 = load_now_s();
		int rc = sysrq_trigger('S');

		if (rc < 0) {
			snprintf(buf + used, len - used, "sysrq-S: unavailable (%s); ",
				 strerror(-rc));
			sched_stop(sp);
			return true;
		}
		ok = scx_wait_state("disabled", EXIT_LIMIT_S) >= 0;
		took = load_now_s() - t0;
		sched_stop(sp);
		if (!ok) {
			snprintf(buf + used, len - used, "sysrq-S: still enabled after %.0f s; ",
				 EXIT_LIMIT_S);
			return false;
		}
	}
	if (!fair_task_runs()) {
		snprintf(buf + used, len - used, "%s: no task runs afterwards; ", name);
		return false;
	}
	snprintf(buf + used, len - used, "%s %.2f s, ", name, took);
	return true;
}

void check_exit_paths(struct check_ctx *ctx, struct check_result *res)
{
	static const char *const paths[] = {"SIGINT", "SIGKILL", "sysrq-S"};
	char buf[sizeof(res->detail)] = "";
	bool ok = true;

	for (size_t i = 0; i < sizeof(paths) / sizeof(paths[0]) && !check_interrupted(); i++)
		ok &= exit_path(ctx, paths[i], buf, sizeof(buf));
	buf[strlen(buf) > 2 ? strlen(buf) - 2 : 0] = '\0';
	check_set(res, ok ? CHECK_PASS : CHECK_FAIL, "%s", buf);
}
