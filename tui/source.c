// SPDX-License-Identifier: GPL-2.0-only
/*
 * source.c - replay files and the live socket (see source.h for the replay clock).
 *
 * Everything is non-blocking and bounded: one pump applies at most SOURCE_PUMP_LINES lines, so
 * a huge trace at speed "max" still leaves the keyboard responsive, and a socket that has
 * nothing to say costs a poll() and nothing else.
 */
#include "source.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <sys/un.h>
#include <unistd.h>

#define SOURCE_RBUF	  (64 * 1024)
#define SOURCE_PUMP_LINES 20000

static int source_alloc(struct top_source *s, enum source_kind kind, const char *path,
			struct gb_err *err)
{
	memset(s, 0, sizeof(*s));
	s->kind = kind;
	s->path = path;
	s->fd = -1;
	s->record_fd = -1;
	s->rbuf = malloc(SOURCE_RBUF);
	s->pending = malloc(sizeof(*s->pending));
	s->scratch = malloc(sizeof(*s->scratch));
	if (!s->rbuf || !s->pending || !s->scratch) {
		source_close(s);
		return gb_err_set(err, ENOMEM, "out of memory");
	}
	return stream_lines_init(&s->lines, err);
}

int source_open_replay(struct top_source *s, const char *path, double speed, bool paused,
		       struct gb_err *err)
{
	int ret = source_alloc(s, SOURCE_REPLAY, path, err);

	if (ret)
		return ret;
	s->speed = speed;
	s->paused = paused;
	s->fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (s->fd < 0) {
		ret = -errno;
		gb_err_set(err, -ret, "%s: %s", path, strerror(-ret));
		source_close(s);
		return ret;
	}
	const char *base = strrchr(path, '/');
	s->name = base ? base + 1 : path; /* the header has no room for a temporary dir */
	snprintf(s->status, sizeof(s->status), "replay %s", s->name);
	return 0;
}

int source_open_socket(struct top_source *s, const char *path, struct gb_err *err)
{
	struct sockaddr_un sa;

	if (strlen(path) >= sizeof(sa.sun_path))
		return gb_err_set(err, ENAMETOOLONG, "%s: socket path longer than %zu bytes", path,
				  sizeof(sa.sun_path) - 1);
	int ret = source_alloc(s, SOURCE_SOCKET, path, err);
	if (ret)
		return ret;
	snprintf(s->status, sizeof(s->status), "connecting to %s", path);
	return 0;
}

int source_record(struct top_source *s, const char *path, struct gb_err *err)
{
	struct stat st;
	int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);

	s->record_created = fd >= 0;
	if (fd < 0 && errno == EEXIST) {
		if (lstat(path, &st))
			return gb_err_set(err, errno, "--record %s: %s", path, strerror(errno));
		if (!S_ISFIFO(st.st_mode) && !S_ISCHR(st.st_mode))
			return gb_err_set(err, EEXIST,
					  "--record %s: the file exists and is not replaced; "
					  "choose a new name",
					  path);
		fd = open(path, O_WRONLY | O_NOFOLLOW | O_CLOEXEC);
	}
	if (fd < 0)
		return gb_err_set(err, errno, "--record %s: %s", path, strerror(errno));
	s->record_fd = fd;
	s->record_path = path;
	return 0;
}

static void record_line(struct top_source *s, const char *line, size_t len)
{
	struct iovec iov[2] = {{(void *)line, len}, {(void *)"\n", 1}};
	size_t left = len + 1;

	if (s->record_fd < 0)
		return;
	while (left) {
		ssize_t n = writev(s->record_fd, iov, 2);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			s->record_errno = n < 0 ? errno : EIO;
			close(s->record_fd);
			s->record_fd = -1;
			return;
		}
		left -= (size_t)n;
		for (int i = 0; i < 2 && n > 0; i++) {
			size_t k = (size_t)n < iov[i].iov_len ? (size_t)n : iov[i].iov_len;
			iov[i].iov_base = (char *)iov[i].iov_base + k;
			iov[i].iov_len -= k;
			n -= (ssize_t)k;
		}
	}
	s->recorded_lines++;
}

void source_close(struct top_source *s)
{
	if (s->record_fd >= 0) {
		if (close(s->record_fd) && !s->record_errno)
			s->record_errno = errno;
		if (s->record_created && !s->recorded_lines && !s->record_errno)
			unlink(s->record_path); /* this run's own empty file */
	}
	s->record_fd = -1;
	if (s->fd >= 0)
		close(s->fd);
	s->fd = -1;
	stream_lines_free(&s->lines);
	free(s->rbuf);
	free(s->pending);
	free(s->scratch);
	s->rbuf = NULL;
	s->pending = s->scratch = NULL;
}

/* 1: a line; 0: end of stream; -EAGAIN: nothing now; other negative: read error. */
static int next_line(struct top_source *s, struct top_model *m, const char **line, size_t *len)
{
	struct gb_err err = {""};

	for (;;) {
		if (s->roff < s->rlen) {
			size_t used;
			int r = stream_lines_feed(&s->lines, s->rbuf + s->roff, s->rlen - s->roff,
						  &used, line, len, &err);
			s->roff += used;
			if (r < 0)
				model_set_error(m, s->lines.line_no, err.msg);
			else if (r == 1)
				return 1;
			continue;
		}
		ssize_t n = read(s->fd, s->rbuf, SOURCE_RBUF);
		if (n > 0) {
			s->rlen = (size_t)n;
			s->roff = 0;
			s->would_block = false;
			continue;
		}
		if (n == 0) {
			if (stream_lines_finish(&s->lines, &err))
				model_set_error(m, s->lines.line_no, err.msg);
			return 0;
		}
		if (errno == EINTR)
			continue;
		if (errno == EAGAIN || errno == EWOULDBLOCK) {
			s->would_block = true;
			return -EAGAIN;
		}
		return -errno;
	}
}

int64_t source_clock_us(const struct top_source *s, int64_t now_us)
{
	if (!s->clock_started)
		return 0;
	if (s->paused || s->speed == SOURCE_SPEED_MAX)
		return s->clock_us;
	return s->anchor_trace_us + (int64_t)((double)(now_us - s->anchor_wall_us) * s->speed);
}

static void replay_apply_pending(struct top_source *s, struct top_model *m)
{
	struct gb_err err = {""};

	if (model_apply(m, s->pending, &err))
		model_refuse(m, s->pending, s->lines.line_no, err.msg);
	s->have_pending = false;
}

/* Decodes lines until one with a time is pending; false at end of input or would-block. */
static bool replay_fill(struct top_source *s, struct top_model *m, int64_t now_us)
{
	struct gb_err err = {""};
	const char *line;
	size_t len;

	while (!s->have_pending) {
		int r = next_line(s, m, &line, &len);
		if (r == -EAGAIN)
			return false;
		if (r <= 0) {
			if (r < 0) {
				snprintf(err.msg, sizeof(err.msg), "read: %s", strerror(-r));
				model_set_error(m, s->lines.line_no, err.msg);
			}
			s->eof = true;
			s->step = false;
			snprintf(s->status, sizeof(s->status), "replay %s (end)", s->name);
			return false;
		}
		if (!len)
			continue;
		if (stream_decode(line, len, s->pending, &err)) {
			model_refuse(m, s->pending, s->lines.line_no, err.msg);
			continue;
		}
		int64_t t = stream_rec_time_us(s->pending);
		s->have_pending = true;
		if (s->pending->type == STREAM_HELLO && m->have_hello)
			model_new_stream(m); /* a recorded reconnection: the new scheduler's view */
		if (t < 0) {
			replay_apply_pending(s, m); /* hello: not timed */
			continue;
		}
		if (!s->clock_started) {
			s->clock_started = true;
			s->clock_us = s->anchor_trace_us = t;
			s->anchor_wall_us = now_us;
		}
	}
	return true;
}

static void replay_pump(struct top_source *s, struct top_model *m, int64_t now_us)
{
	for (int budget = SOURCE_PUMP_LINES; budget > 0 && !s->eof; budget--) {
		if (!replay_fill(s, m, now_us))
			return;
		int64_t t = stream_rec_time_us(s->pending);
		bool is_sample = s->pending->type == STREAM_SAMPLE;

		if (s->step) {
			replay_apply_pending(s, m);
			if (t > s->clock_us)
				s->clock_us = t;
			if (is_sample) {
				s->step = false;
				return;
			}
			continue;
		}
		if (s->speed == SOURCE_SPEED_MAX && !s->paused) {
			replay_apply_pending(s, m);
			if (t > s->clock_us)
				s->clock_us = t;
			continue;
		}
		int64_t clock = source_clock_us(s, now_us);
		if (!s->paused)
			s->clock_us = clock;
		if (t > clock)
			return;
		replay_apply_pending(s, m);
	}
}

static void socket_disconnect(struct top_source *s, int64_t now_us, const char *why)
{
	close(s->fd);
	s->fd = -1;
	s->connected = false;
	s->would_block = false;
	s->rlen = s->roff = 0;
	s->next_retry_us = now_us + SOURCE_RETRY_US;
	snprintf(s->status, sizeof(s->status), "scx_gearbox %s; reconnecting to %s", why, s->path);
}

static void socket_try_connect(struct top_source *s, struct top_model *m, int64_t now_us)
{
	struct sockaddr_un sa = {.sun_family = AF_UNIX};
	int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);

	s->nr_attempts++;
	s->next_retry_us = now_us + SOURCE_RETRY_US;
	m->generation++; /* the status line changes with every attempt */
	memcpy(sa.sun_path, s->path, strlen(s->path) + 1);
	if (fd < 0 || connect(fd, (struct sockaddr *)&sa, sizeof(sa))) {
		int e = errno;
		if (fd >= 0)
			close(fd);
		snprintf(s->status, sizeof(s->status), "%s scx_gearbox on %s (attempt %u: %s)",
			 s->nr_connects ? "scheduler gone, waiting for" : "waiting for", s->path,
			 s->nr_attempts, strerror(e));
		return;
	}
	s->fd = fd;
	s->connected = true;
	s->nr_connects++;
	s->nr_attempts = 0;
	stream_lines_reset(&s->lines);
	model_new_stream(m);
	if (s->nr_connects > 1)
		snprintf(s->status, sizeof(s->status), "live, reconnected (connection %u) %s",
			 s->nr_connects, s->path);
	else
		snprintf(s->status, sizeof(s->status), "live %s", s->path);
}

static void socket_pump(struct top_source *s, struct top_model *m, int64_t now_us)
{
	const char *line;
	size_t len;

	if (!s->connected) {
		if (now_us < s->next_retry_us)
			return;
		socket_try_connect(s, m, now_us);
		if (!s->connected)
			return;
	}
	for (int budget = SOURCE_PUMP_LINES; budget > 0; budget--) {
		int r = next_line(s, m, &line, &len);
		if (r == -EAGAIN)
			return;
		if (r <= 0) {
			socket_disconnect(s, now_us, r ? "connection failed" : "closed the stream");
			m->generation++;
			return;
		}
		record_line(s, line, len);
		model_ingest_line(m, s->scratch, s->lines.line_no, line, len);
	}
}

void source_pump(struct top_source *s, struct top_model *m, int64_t now_us)
{
	if (s->kind == SOURCE_REPLAY)
		replay_pump(s, m, now_us);
	else
		socket_pump(s, m, now_us);
}

int source_poll_fd(const struct top_source *s)
{
	if (s->fd < 0 || s->eof)
		return -1;
	if (s->kind == SOURCE_SOCKET)
		return s->connected ? s->fd : -1;
	return s->would_block ? s->fd : -1;
}

int64_t source_wait_us(const struct top_source *s, int64_t now_us)
{
	if (s->kind == SOURCE_SOCKET) {
		if (s->connected)
			return -1;
		return s->next_retry_us > now_us ? s->next_retry_us - now_us : 0;
	}
	if (s->eof || s->would_block)
		return -1;
	if (s->step)
		return 0;
	if (s->paused)
		return s->have_pending ? -1 : 0;
	if (!s->have_pending || s->speed == SOURCE_SPEED_MAX)
		return 0;
	int64_t ahead = stream_rec_time_us(s->pending) - source_clock_us(s, now_us);
	if (ahead <= 0)
		return 0;
	return (int64_t)((double)ahead / s->speed) + 1;
}

void source_set_paused(struct top_source *s, bool paused, int64_t now_us)
{
	if (s->kind != SOURCE_REPLAY || paused == s->paused)
		return;
	if (paused) {
		s->clock_us = source_clock_us(s, now_us);
	} else {
		s->anchor_trace_us = s->clock_us;
		s->anchor_wall_us = now_us;
	}
	s->paused = paused;
}

void source_step(struct top_source *s, int64_t now_us)
{
	if (s->kind != SOURCE_REPLAY || s->eof)
		return;
	source_set_paused(s, true, now_us);
	s->step = true;
}

void source_set_speed(struct top_source *s, double speed, int64_t now_us)
{
	if (s->kind != SOURCE_REPLAY)
		return;
	s->clock_us = source_clock_us(s, now_us);
	s->anchor_trace_us = s->clock_us;
	s->anchor_wall_us = now_us;
	s->speed = speed;
}
