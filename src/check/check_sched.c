// SPDX-License-Identifier: GPL-2.0-only
/*
 * check_sched.c - the scheduler under test as a child process, and the kernel's view of it.
 *
 * The kernel's word is authoritative: a scheduler counts as loaded when
 * /sys/kernel/sched_ext/state reads "enabled", whatever its process prints.  The child gets its
 * own process group so that signals meant for it (SIGINT in the exit-path check) reach all of
 * its threads and helpers, and never us.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check.h"

#define SCX_SYSFS "/sys/kernel/sched_ext"

static int read_line(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "r");

	if (!f)
		return -errno;
	if (!fgets(buf, (int)len, f))
		buf[0] = '\0';
	fclose(f);
	buf[strcspn(buf, "\n")] = '\0';
	return 0;
}

int scx_state(char *buf, size_t len)
{
	return read_line(SCX_SYSFS "/state", buf, len);
}

bool scx_enabled(void)
{
	char st[32];

	return scx_state(st, sizeof(st)) == 0 && !strcmp(st, "enabled");
}

void scx_ops_name(char *buf, size_t len)
{
	if (read_line(SCX_SYSFS "/root/ops", buf, len) < 0)
		buf[0] = '\0';
}

long scx_enable_seq(void)
{
	char buf[32];

	if (read_line(SCX_SYSFS "/enable_seq", buf, sizeof(buf)) < 0)
		return -1;
	return strtol(buf, NULL, 10);
}

double scx_wait_state(const char *want, double timeout_s)
{
	double t0 = load_now_s();
	char st[32];

	for (;;) {
		double t = load_now_s() - t0;

		if (scx_state(st, sizeof(st)) == 0 && !strcmp(st, want))
			return t;
		if (t > timeout_s)
			return -1;
		usleep(5000);
	}
}

bool sched_running(struct sched_proc *sp)
{
	if (sp->pid <= 0)
		return false;
	if (waitpid(sp->pid, &sp->wstatus, WNOHANG) == sp->pid) {
		sp->pid = 0;
		return false;
	}
	return true;
}

/* The last non-empty line the scheduler wrote (its error message, typically), or "". */
static void last_log_line(const char *path, char *buf, size_t len)
{
	char line[256];
	FILE *f = fopen(path, "r");

	buf[0] = '\0';
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = '\0';
		if (line[0])
			snprintf(buf, len, "%s", line);
	}
	fclose(f);
}

int sched_start(struct sched_proc *sp, double timeout_s, double *took_s, struct gb_err *err)
{
	double t0 = load_now_s();
	char st[32];
	pid_t pid, parent;

	if (scx_state(st, sizeof(st)) < 0)
		return gb_err_set(err, ENOTSUP, "this kernel has no sched_ext (%s/state missing)",
				  SCX_SYSFS);
	if (strcmp(st, "disabled")) {
		char ops[64];

		scx_ops_name(ops, sizeof(ops));
		return gb_err_set(err, EBUSY, "sched_ext is %s already (ops \"%s\")", st, ops);
	}
	fflush(NULL);
	parent = getpid();
	pid = fork();
	if (pid < 0)
		return gb_err_set(err, errno, "fork: %s", strerror(errno));
	if (pid == 0) {
		int fd = open(sp->log_path, O_WRONLY | O_CREAT | O_APPEND, 0644);

		setpgid(0, 0);
		/* a check killed outright must not leave its scheduler loaded */
		die_with_parent(parent);
		if (fd >= 0) {
			dup2(fd, 1);
			dup2(fd, 2);
		}
		execvp(sp->argv[0], sp->argv);
		dprintf(2, "gearbox check: cannot run %s: %s\n", sp->argv[0], strerror(errno));
		_exit(127);
	}
	setpgid(pid, pid);
	sp->pid = pid;
	sp->starts++;
	for (;;) {
		*took_s = load_now_s() - t0;
		if (scx_enabled())
			break;
		if (!sched_running(sp)) {
			char how[64], last[160];

			sched_describe_exit(sp, how, sizeof(how));
			last_log_line(sp->log_path, last, sizeof(last));
			return gb_err_set(err, ECHILD, "%s %s before sched_ext was enabled%s%s",
					  sp->argv[0], how, last[0] ? ": " : "", last);
		}
		if (*took_s > timeout_s) {
			sched_stop(sp);
			return gb_err_set(err, ETIMEDOUT, "sched_ext not enabled within %.0f s",
					  timeout_s);
		}
		if (check_interrupted()) {
			sched_stop(sp);
			return gb_err_set(err, EINTR, "interrupted by signal %d",
					  check_interrupted());
		}
		usleep(5000);
	}
	scx_ops_name(sp->ops_name, sizeof(sp->ops_name));
	return 0;
}

bool sched_signal_wait(struct sched_proc *sp, int sig, double timeout_s)
{
	double t0 = load_now_s();

	if (sp->pid <= 0)
		return true;
	kill(-sp->pid, sig);
	while (sched_running(sp)) {
		if (load_now_s() - t0 > timeout_s)
			return false;
		usleep(5000);
	}
	return true;
}

void sched_stop(struct sched_proc *sp)
{
	if (!sched_signal_wait(sp, SIGINT, 3.0) && !sched_signal_wait(sp, SIGKILL, 3.0))
		fprintf(stderr, "gearbox check: warning: scheduler pid %d does not die\n", sp->pid);
	/* Killed or not, the BPF scheduler may outlive the process (a pinned link, a bug). */
	if (!scx_enabled())
		return;
	if (scx_wait_state("disabled", 2.0) < 0 && sysrq_trigger('S') == 0)
		scx_wait_state("disabled", 5.0);
}

void sched_describe_exit(const struct sched_proc *sp, char *buf, size_t len)
{
	if (sp->pid > 0)
		snprintf(buf, len, "is still running");
	else if (WIFEXITED(sp->wstatus))
		snprintf(buf, len, "exited with status %d", WEXITSTATUS(sp->wstatus));
	else if (WIFSIGNALED(sp->wstatus))
		snprintf(buf, len, "was killed by signal %d", WTERMSIG(sp->wstatus));
	else
		snprintf(buf, len, "ended (wait status %#x)", sp->wstatus);
}

static int write_str(const char *path, const char *s)
{
	int fd = open(path, O_WRONLY), rc = 0;

	if (fd < 0)
		return -errno;
	if (write(fd, s, strlen(s)) < 0)
		rc = -errno;
	close(fd);
	return rc;
}

#define SYSRQ_PATH "/proc/sys/kernel/sysrq"

void sysrq_save(char *buf, size_t len)
{
	if (read_line(SYSRQ_PATH, buf, len) < 0)
		buf[0] = '\0';
}

void sysrq_restore(const char *saved)
{
	char now[32];

	if (saved[0] && read_line(SYSRQ_PATH, now, sizeof(now)) == 0 && strcmp(now, saved) &&
	    write_str(SYSRQ_PATH, saved) < 0)
		fprintf(stderr,
			"gearbox check: warning: cannot restore kernel.sysrq to %s (it is "
			"%s)\n",
			saved, now);
}

int sysrq_trigger(char c)
{
	char s[2] = {c, '\0'};

	/* "1" enables every sysrq function; the trigger file ignores the mask for root anyway
	 * on recent kernels, but older ones honour it. */
	write_str(SYSRQ_PATH, "1");
	return write_str("/proc/sysrq-trigger", s);
}
