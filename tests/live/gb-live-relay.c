// SPDX-License-Identifier: GPL-2.0-only
/*
 * gb-live-relay - copies scx_gearbox's stats stream from its Unix socket to standard output,
 * byte for byte, until the scheduler closes it.  In the live VM test and `scripts/demo --live`
 * its output is a serial port that qemu serves as a Unix socket on the host, where
 * `gearbox top --connect` reads it as it would read a local scheduler's socket.
 *
 *   gb-live-relay SOCKET [WAIT_S]    connects within WAIT_S seconds (default 60)
 *
 * Exit status: 0 after the stream ended, 1 when it could not connect or write.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

static int connect_within(const char *path, int wait_s)
{
	struct sockaddr_un sa = {.sun_family = AF_UNIX};

	if (strlen(path) >= sizeof(sa.sun_path)) {
		fprintf(stderr, "gb-live-relay: %s: path too long\n", path);
		return -1;
	}
	memcpy(sa.sun_path, path, strlen(path) + 1);
	for (int tries = 0; tries <= wait_s * 10; tries++) {
		int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);

		if (fd < 0)
			break;
		if (!connect(fd, (struct sockaddr *)&sa, sizeof(sa)))
			return fd;
		close(fd);
		usleep(100000);
	}
	fprintf(stderr, "gb-live-relay: connect %s: %s\n", path, strerror(errno));
	return -1;
}

int main(int argc, char **argv)
{
	char buf[16384];
	int fd;

	if (argc < 2 || argc > 3) {
		fprintf(stderr, "usage: gb-live-relay SOCKET [WAIT_S]\n");
		return 2;
	}
	fd = connect_within(argv[1], argc == 3 ? atoi(argv[2]) : 60);
	if (fd < 0)
		return 1;
	for (;;) {
		ssize_t n = read(fd, buf, sizeof(buf));
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return n < 0;
		for (ssize_t off = 0; off < n;) {
			ssize_t w = write(STDOUT_FILENO, buf + off, (size_t)(n - off));
			if (w < 0 && errno == EINTR)
				continue;
			if (w <= 0) {
				fprintf(stderr, "gb-live-relay: write: %s\n", strerror(errno));
				return 1;
			}
			off += w;
		}
	}
}
