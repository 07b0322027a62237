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
 */
#include <errno.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
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
	fprintf(stderr, "usage: gb-sched-probe duty|spin MS [UMIN UMAX] | pipes PAIRS MSGS | "
			"stream SOCK LINES\n");
	return 2;
}
