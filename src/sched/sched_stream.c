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

#define STR_(x) #x
#define STR(x)	STR_(x)

static int fill_addr(struct sockaddr_un *sa, const char *path, struct gb_err *err)
{
	if (strlen(path) >= sizeof(sa->sun_path))
		return gb_err_set(err, ENAMETOOLONG, "--socket %s: path too long for a Unix socket",
				  path);
	memcpy(sa->sun_path, path, strlen(path) + 1);
	return 0;
}

/*
 * Is there a process listening on the socket at sa?  Connecting tells: a stale socket (its
 * server gone) refuses with ECONNREFUSED.  Without blocking: a server whose backlog is full
 * (EAGAIN) is alive too.
 */
static int probe_live(const struct sockaddr_un *sa, const char *path, struct gb_err *err)
{
	int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0), rc;

	if (fd < 0)
		return gb_err_set(err, errno, "socket: %s", strerror(errno));
	rc = connect(fd, (const struct sockaddr *)sa, sizeof(*sa));
	if (rc == 0 || errno != ECONNREFUSED) {
		int e = rc == 0 || errno == EAGAIN ? EADDRINUSE : errno;

		close(fd);
		if (e == EADDRINUSE)
			return gb_err_set(err, e,
					  "--socket %s: a running process serves this socket "
					  "(another scx_gearbox?); stop it or choose another path",
					  path);
		return gb_err_set(err, e, "--socket %s: cannot tell whether it is in use: %s", path,
				  strerror(e));
	}
	close(fd);
	return 0;
}

int sched_stream_check(const char *path, bool *stale, struct gb_err *err)
{
	struct sockaddr_un sa = {.sun_family = AF_UNIX};
	struct stat st;
	int rc;

	*stale = false;
	if ((rc = fill_addr(&sa, path, err)))
		return rc;
	if (lstat(path, &st)) {
		if (errno == ENOENT)
			return 0;
		return gb_err_set(err, errno, "--socket %s: %s", path, strerror(errno));
	}
	if (!S_ISSOCK(st.st_mode))
		return gb_err_set(err, EEXIST,
				  "--socket %s: exists and is not a socket (%s); "
				  "it is left alone: remove it or choose another path",
				  path,
				  S_ISLNK(st.st_mode)	? "a symbolic link"
				  : S_ISDIR(st.st_mode) ? "a directory"
				  : S_ISREG(st.st_mode) ? "a regular file"
							: "a special file");
	if ((rc = probe_live(&sa, path, err)))
		return rc;
	*stale = true;
	return 0;
}

int sched_stream_open(struct sched_stream *s, const char *path, mode_t mode, struct gb_err *err)
{
	struct sockaddr_un sa = {.sun_family = AF_UNIX};
	mode_t old_umask;
	bool stale;
	int fd, i, rc;

	for (i = 0; i < SCHED_STREAM_MAX_CLIENTS; i++)
		s->fds[i] = -1;
	s->listen_fd = -1;
	s->dropped = 0;
	s->refused = 0;
	if ((rc = fill_addr(&sa, path, err)) || (rc = sched_stream_check(path, &stale, err)))
		return rc;
	snprintf(s->path, sizeof(s->path), "%s", path);
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return gb_err_set(err, errno, "socket: %s", strerror(errno));
	if (stale && unlink(path) && errno != ENOENT) {
		int e = errno;

		close(fd);
		return gb_err_set(err, e, "--socket %s: removing the stale socket: %s", path,
				  strerror(e));
	}
	/* the mode from the start: bind creates the file with 0777 & ~umask (no chmod after,
	 * which would leave a window and follow a symbolic link put in its place) */
	old_umask = umask(~mode & 0777);
	rc = bind(fd, (struct sockaddr *)&sa, sizeof(sa));
	umask(old_umask);
	if (rc || listen(fd, 8)) {
		int e = errno;

		close(fd);
		if (e == EADDRINUSE)
			return gb_err_set(err, e,
					  "--socket %s: created by another process meanwhile; "
					  "it is left alone",
					  path);
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
			/* one line saying why, rather than an EOF the reader cannot tell from a
			 * scheduler that went away */
			static const char full[] = "{\"type\":\"error\",\"message\":\"too many "
						   "readers: scx_gearbox serves at most " STR(
						       SCHED_STREAM_MAX_CLIENTS) " at once\"}\n";

			if (send(fd, full, sizeof(full) - 1, MSG_DONTWAIT | MSG_NOSIGNAL) < 0)
				s->dropped++;
			close(fd);
			s->refused++;
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
