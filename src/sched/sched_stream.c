// SPDX-License-Identifier: GPL-2.0-only
/* sched_stream.c - the stats socket; see sched_stream.h. */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include "sched_stream.h"

int sched_stream_open(struct sched_stream *s, const char *path, mode_t mode, struct gb_err *err)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	int fd, i;

	for (i = 0; i < SCHED_STREAM_MAX_CLIENTS; i++)
		s->fds[i] = -1;
	s->listen_fd = -1;
	s->dropped = 0;
	if (strlen(path) >= sizeof(sa.sun_path))
		return gb_err_set(err, ENAMETOOLONG, "--socket %s: path too long for a Unix socket", path);
	snprintf(s->path, sizeof(s->path), "%s", path);
	memcpy(sa.sun_path, path, strlen(path) + 1);
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return gb_err_set(err, errno, "socket: %s", strerror(errno));
	unlink(path);           /* a stale socket of an earlier run */
	if (bind(fd, (struct sockaddr *)&sa, sizeof(sa)) || chmod(path, mode) || listen(fd, 8)) {
		int e = errno;

		close(fd);
		return gb_err_set(err, e, "--socket %s: %s", path, strerror(e));
	}
	s->listen_fd = fd;
	return 0;
}

static void drop(struct sched_stream *s, int i)
{
	close(s->fds[i]);
	s->fds[i] = -1;
	s->dropped++;
}

/* A whole record or nothing: a reader that cannot take it is disconnected. */
static void send_one(struct sched_stream *s, int i, const char *line, size_t len)
{
	ssize_t n = send(s->fds[i], line, len, MSG_DONTWAIT | MSG_NOSIGNAL);

	if (n != (ssize_t)len)
		drop(s, i);
}

void sched_stream_accept(struct sched_stream *s)
{
	int fd, i;

	while ((fd = accept4(s->listen_fd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC)) >= 0) {
		for (i = 0; i < SCHED_STREAM_MAX_CLIENTS && s->fds[i] >= 0; i++)
			;
		if (i == SCHED_STREAM_MAX_CLIENTS) {
			close(fd);
			continue;
		}
		s->fds[i] = fd;
		if (s->hello)
			send_one(s, i, s->hello, s->hello_len);
	}
}

void sched_stream_send(struct sched_stream *s, const char *line, size_t len)
{
	int i;

	for (i = 0; i < SCHED_STREAM_MAX_CLIENTS; i++)
		if (s->fds[i] >= 0)
			send_one(s, i, line, len);
}

unsigned sched_stream_readers(const struct sched_stream *s)
{
	unsigned n = 0;
	int i;

	for (i = 0; i < SCHED_STREAM_MAX_CLIENTS; i++)
		n += s->fds[i] >= 0;
	return n;
}

void sched_stream_close(struct sched_stream *s)
{
	int i;

	for (i = 0; i < SCHED_STREAM_MAX_CLIENTS; i++)
		if (s->fds[i] >= 0)
			close(s->fds[i]);
	if (s->listen_fd >= 0) {
		close(s->listen_fd);
		unlink(s->path);
	}
	s->listen_fd = -1;
	free(s->hello);
	s->hello = NULL;
}
