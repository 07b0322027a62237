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
 */
#include <errno.h>
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
	fprintf(stderr,
		"usage: gb-sched-probe duty|spin MS [UMIN UMAX] | pipes PAIRS MSGS | "
		"stream SOCK LINES | slicehog MS SLICE_US | slicewait MS SLICE_US PERIOD_US | "
		"setslice TID SLICE_US\n");
	return 2;
}
