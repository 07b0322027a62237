// SPDX-License-Identifier: GPL-2.0-only
/*
 * gb-sched-probe - workloads and observers for the scx_gearbox VM tests (static, in the guest).
 *
 *   gb-sched-probe duty MS [UCLAMP_MIN UCLAMP_MAX]
 *       runs MS milliseconds of 4 ms busy / 8 ms asleep (each wake-up is a placement), with the
 *       given sched_setattr() clamps, and prints how often it was seen on each CPU: "0:N 1:N ..."
 *   gb-sched-probe spin MS     busy for MS milliseconds, same output
 *   gb-sched-probe pipes PAIRS MSGS
 *       hackbench-like: PAIRS process pairs exchange MSGS one-byte messages through pipes
 *   gb-sched-probe stream SOCKET LINES
 *       connects to the stats socket and prints its first LINES lines (5 s timeout)
 *   gb-sched-probe slicehog MS SLICE_US
 *       sets its own slice with sched_setattr() (SCHED_OTHER, sched_runtime SLICE_US), busy for
 *       MS milliseconds, and prints "cpu_us N preempted N": its CPU time and its involuntary
 *       context switches (getrusage), whose quotient is the mean stretch it ran unpreempted
 *   gb-sched-probe slicewait MS SLICE_US PERIOD_US
 *       sets its own slice, then for MS milliseconds wakes every PERIOD_US on an absolute timer
 *       and does nothing else; prints "wakeups N p50_us N p95_us N max_us N": how long after
 *       its timer's time it ran (the wait for the CPU, plus the timer's own latency)
 *   gb-sched-probe setslice TID SLICE_US
 *       gives thread TID (SCHED_OTHER) its own slice with sched_setattr(), as slicehog does to
 *       itself: for a thread another program made (rt-app's)
 *   gb-sched-probe vtime SLOW_CPU FAST_CPU MS
 *       the same work on two CPUs, under scx_gearbox: on SLOW_CPU with uclamp_max 1 (its domain
 *       at its lowest OPP unless another of its CPUs asks for more) it loops for MS ms of its own
 *       CPU time, counting loops; then unclamped on FAST_CPU it runs the same number of loops.
 *       For each it prints "cpu N loops N cpu_ns N charged N vtime N": its CPU time (the
 *       kernel's account of its run time, which scx_gearbox charges) and, read from
 *       scx_gearbox's task storage (the map gb_tasks, by pidfd), the vtime it was charged over
 *       the run and its vtime after it (weighted work ns, src/policy/gb_vtime.h)
 */
#include <errno.h>
#include <linux/bpf.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "gb_fill.h" /* struct gb_task_ctx: scx_gearbox's per-task state */

#define MAX_CPUS		  64
#define SCHED_FLAG_KEEP_ALL	  0x18
#define SCHED_FLAG_UTIL_CLAMP_MIN 0x20
#define SCHED_FLAG_UTIL_CLAMP_MAX 0x40

struct attr {
	uint32_t size, policy;
	uint64_t flags;
	int32_t nice;
	uint32_t prio;
	uint64_t runtime, deadline, period;
	uint32_t util_min, util_max;
};

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static void busy(uint64_t until_ns, unsigned long *seen)
{
	while (now_ns() < until_ns) {
		int c = sched_getcpu();

		if (c >= 0 && c < MAX_CPUS)
			seen[c]++;
	}
}

static void print_seen(const unsigned long *seen)
{
	int c, last = 0;

	for (c = 0; c < MAX_CPUS; c++)
		if (seen[c])
			last = c;
	for (c = 0; c <= last; c++)
		printf("%s%d:%lu", c ? " " : "", c, seen[c]);
	printf("\n");
}

static int duty(int argc, char **argv, int on_ms, int off_ms)
{
	unsigned long seen[MAX_CPUS] = {0};
	uint64_t end = now_ns() + strtoull(argv[2], NULL, 10) * 1000000ull;

	if (argc >= 5) {
		struct attr a = {.size = sizeof(a),
				 .flags = SCHED_FLAG_KEEP_ALL | SCHED_FLAG_UTIL_CLAMP_MIN |
					  SCHED_FLAG_UTIL_CLAMP_MAX,
				 .util_min = (uint32_t)atoi(argv[3]),
				 .util_max = (uint32_t)atoi(argv[4])};

		if (syscall(SYS_sched_setattr, 0, &a, 0)) {
			fprintf(stderr, "sched_setattr: %s\n", strerror(errno));
			return 1;
		}
	}
	usleep(20000); /* the next wake-up is placed with the clamps */
	while (now_ns() < end) {
		busy(now_ns() + (uint64_t)on_ms * 1000000ull, seen);
		if (off_ms)
			usleep((useconds_t)off_ms * 1000);
	}
	print_seen(seen);
	return 0;
}

/* sched_setattr() on thread tid (0: the caller): SCHED_OTHER with its own slice
 * (sched_runtime; the kernel keeps it as p->se.slice with p->se.custom_slice set, which
 * scx_gearbox reads). */
static int set_slice(long tid, const char *slice_us)
{
	struct attr a = {.size = sizeof(a), .runtime = strtoull(slice_us, NULL, 10) * 1000ull};

	if (syscall(SYS_sched_setattr, tid, &a, 0)) {
		fprintf(stderr, "sched_setattr(%ld, runtime %s us): %s\n", tid, slice_us,
			strerror(errno));
		return 1;
	}
	return 0;
}

static int slicehog(char **argv)
{
	unsigned long seen[MAX_CPUS] = {0};
	struct rusage ru;

	if (set_slice(0, argv[3]))
		return 1;
	busy(now_ns() + strtoull(argv[2], NULL, 10) * 1000000ull, seen);
	getrusage(RUSAGE_SELF, &ru);
	printf("cpu_us %llu preempted %ld\n",
	       (unsigned long long)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1000000ull +
		   (unsigned long long)(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec),
	       ru.ru_nivcsw);
	return 0;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static int slicewait(char **argv)
{
	uint64_t period_ns = strtoull(argv[4], NULL, 10) * 1000ull, end, at;
	size_t n = 0, cap;
	uint64_t *wait_ns;
	struct timespec ts;

	if (set_slice(0, argv[3]) || !period_ns)
		return 1;
	end = now_ns() + strtoull(argv[2], NULL, 10) * 1000000ull;
	cap = (size_t)((end - now_ns()) / period_ns) + 2;
	wait_ns = calloc(cap, sizeof(*wait_ns));
	if (!wait_ns)
		return 1;
	for (at = now_ns() + period_ns; at < end && n < cap; at += period_ns) {
		ts.tv_sec = (time_t)(at / 1000000000ull);
		ts.tv_nsec = (long)(at % 1000000000ull);
		while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
			;
		wait_ns[n++] = now_ns() - at;
		if (now_ns() > at + period_ns) /* overran: the next timer from now */
			at = now_ns() - now_ns() % period_ns;
	}
	if (!n)
		return 1;
	qsort(wait_ns, n, sizeof(*wait_ns), cmp_u64);
	printf("wakeups %zu p50_us %llu p95_us %llu max_us %llu\n", n,
	       (unsigned long long)wait_ns[n / 2] / 1000,
	       (unsigned long long)wait_ns[n * 95 / 100] / 1000,
	       (unsigned long long)wait_ns[n - 1] / 1000);
	free(wait_ns);
	return 0;
}

static int bpf_call(int cmd, union bpf_attr *a)
{
	return (int)syscall(SYS_bpf, cmd, a, sizeof(*a));
}

/* An fd of scx_gearbox's task storage map (named gb_tasks, holding struct gb_task_ctx), or -1
 * with the reason on stderr. */
static int gb_tasks_fd(void)
{
	union bpf_attr a;
	__u32 id = 0;

	for (;;) {
		struct bpf_map_info info;
		int fd;

		memset(&a, 0, sizeof(a));
		a.start_id = id;
		if (bpf_call(BPF_MAP_GET_NEXT_ID, &a)) {
			fprintf(stderr, "no BPF map gb_tasks: is scx_gearbox loaded? (%s)\n",
				strerror(errno));
			return -1;
		}
		id = a.next_id;
		memset(&a, 0, sizeof(a));
		a.map_id = id;
		fd = bpf_call(BPF_MAP_GET_FD_BY_ID, &a);
		if (fd < 0)
			continue;
		memset(&info, 0, sizeof(info));
		memset(&a, 0, sizeof(a));
		a.info.bpf_fd = (__u32)fd;
		a.info.info_len = sizeof(info);
		a.info.info = (__u64)(uintptr_t)&info;
		if (!bpf_call(BPF_OBJ_GET_INFO_BY_FD, &a) &&
		    info.type == BPF_MAP_TYPE_TASK_STORAGE && !strcmp(info.name, "gb_tasks")) {
			if (info.value_size == sizeof(struct gb_task_ctx))
				return fd;
			fprintf(stderr, "gb_tasks holds %u-byte values, this probe reads %zu\n",
				info.value_size, sizeof(struct gb_task_ctx));
		}
		close(fd);
	}
}

/* scx_gearbox's state of the task whose pidfd is pidfd, from map fd. */
static int read_tctx(int fd, int pidfd, struct gb_task_ctx *tc)
{
	union bpf_attr a;

	memset(&a, 0, sizeof(a));
	a.map_fd = (__u32)fd;
	a.key = (__u64)(uintptr_t)&pidfd;
	a.value = (__u64)(uintptr_t)tc;
	if (bpf_call(BPF_MAP_LOOKUP_ELEM, &a)) {
		fprintf(stderr, "gb_tasks has no entry for this task: %s\n", strerror(errno));
		return -1;
	}
	return 0;
}

static uint64_t cpu_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/*
 * On cpu with uclamp_max umax, loop until ms of CPU time (ms > 0) or *loops loops (ms 0), and
 * print what it cost (see vtime in the header).  The sleeps before each read of the task's
 * state let scx_gearbox account the run so far (its stopping callback).
 */
static int vtime_run(int fd, int pidfd, int cpu, uint32_t umax, uint64_t ms, uint64_t *loops)
{
	struct attr a = {.size = sizeof(a),
			 .flags = SCHED_FLAG_KEEP_ALL | SCHED_FLAG_UTIL_CLAMP_MAX,
			 .util_max = umax};
	struct gb_task_ctx before, after;
	volatile uint64_t n = 0;
	uint64_t t0, t1, end;
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set) || syscall(SYS_sched_setattr, 0, &a, 0)) {
		fprintf(stderr, "CPU %d, uclamp_max %u: %s\n", cpu, umax, strerror(errno));
		return 1;
	}
	usleep(20000);
	if (read_tctx(fd, pidfd, &before))
		return 1;
	t0 = cpu_ns();
	end = t0 + ms * 1000000ull;
	if (ms) {
		while (cpu_ns() < end)
			for (int k = 0; k < 1000; k++)
				n++;
		*loops = n;
	} else {
		while (n < *loops)
			for (int k = 0; k < 1000; k++)
				n++;
	}
	t1 = cpu_ns();
	usleep(2000);
	if (read_tctx(fd, pidfd, &after))
		return 1;
	printf("cpu %d loops %llu cpu_ns %llu charged %llu vtime %llu\n", cpu,
	       (unsigned long long)n, (unsigned long long)(t1 - t0),
	       (unsigned long long)(after.vtime_charged - before.vtime_charged),
	       (unsigned long long)after.s.vtime);
	return 0;
}

static int vtime(char **argv)
{
	int fd = gb_tasks_fd(), pidfd = (int)syscall(SYS_pidfd_open, getpid(), 0), rc;
	uint64_t loops = 0;

	if (fd < 0)
		return 1;
	if (pidfd < 0) {
		fprintf(stderr, "pidfd_open: %s\n", strerror(errno));
		return 1;
	}
	rc = vtime_run(fd, pidfd, atoi(argv[2]), 1, strtoull(argv[4], NULL, 10), &loops) ||
	     vtime_run(fd, pidfd, atoi(argv[3]), 1024, 0, &loops);
	close(pidfd);
	close(fd);
	return rc;
}

static int pipes(int pairs, int msgs)
{
	int i;

	for (i = 0; i < pairs; i++) {
		int ab[2], ba[2];

		if (pipe(ab) || pipe(ba))
			return 1;
		for (int side = 0; side < 2; side++) {
			if (fork() == 0) {
				int rd = side ? ab[0] : ba[0], wr = side ? ba[1] : ab[1];
				char b = 0;

				for (int k = 0; k < msgs; k++) {
					if (side == 0 && write(wr, &b, 1) != 1)
						_exit(1);
					if (read(rd, &b, 1) != 1)
						_exit(1);
					if (side == 1 && write(wr, &b, 1) != 1)
						_exit(1);
				}
				_exit(0);
			}
		}
		close(ab[0]), close(ab[1]), close(ba[0]), close(ba[1]);
	}
	int st, bad = 0;

	while (wait(&st) > 0)
		bad |= !WIFEXITED(st) || WEXITSTATUS(st);
	return bad;
}

static int stream(const char *path, int lines)
{
	struct sockaddr_un sa = {.sun_family = AF_UNIX};
	int fd = socket(AF_UNIX, SOCK_STREAM, 0), n = 0;
	FILE *f;
	char *line = NULL;
	size_t cap = 0;

	snprintf(sa.sun_path, sizeof(sa.sun_path), "%s", path);
	alarm(5);
	if (fd < 0 || connect(fd, (struct sockaddr *)&sa, sizeof(sa))) {
		fprintf(stderr, "connect %s: %s\n", path, strerror(errno));
		return 1;
	}
	f = fdopen(fd, "r");
	while (n < lines && getline(&line, &cap, f) > 0) {
		fputs(line, stdout);
		n++;
	}
	return n == lines ? 0 : 1;
}

int main(int argc, char **argv)
{
	if (argc >= 3 && !strcmp(argv[1], "duty"))
		return duty(argc, argv, 4, 8);
	if (argc >= 3 && !strcmp(argv[1], "spin"))
		return duty(argc, argv, 1000, 0);
	if (argc == 4 && !strcmp(argv[1], "pipes"))
		return pipes(atoi(argv[2]), atoi(argv[3]));
	if (argc == 4 && !strcmp(argv[1], "stream"))
		return stream(argv[2], atoi(argv[3]));
	if (argc == 4 && !strcmp(argv[1], "slicehog"))
		return slicehog(argv);
	if (argc == 5 && !strcmp(argv[1], "slicewait"))
		return slicewait(argv);
	if (argc == 4 && !strcmp(argv[1], "setslice"))
		return set_slice(strtol(argv[2], NULL, 10), argv[3]);
	if (argc == 5 && !strcmp(argv[1], "vtime"))
		return vtime(argv);
	fprintf(stderr,
		"usage: gb-sched-probe duty|spin MS [UMIN UMAX] | pipes PAIRS MSGS | "
		"stream SOCK LINES | slicehog MS SLICE_US | slicewait MS SLICE_US PERIOD_US | "
		"setslice TID SLICE_US | vtime SLOW_CPU FAST_CPU MS\n");
	return 2;
}
