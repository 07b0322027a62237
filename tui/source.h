/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * source.h - where `gearbox top` gets its stream: a replayed trace file or the scheduler's
 * Unix socket.  The source owns the file descriptor, the line splitter and, for replays, the
 * replay clock; it feeds whole records into the model and never draws.
 *
 * Replay clock: trace time = anchor_trace_us + (now - anchor_wall_us) * speed while playing,
 * frozen while paused.  A record is applied once the clock has reached its t_us, so a trace
 * plays at its own pace (speed 1), scaled, or as fast as it can be read (speed "max").  A step
 * (space) applies records up to and including the next sample.
 *
 * Socket: connect without blocking; when the scheduler is not there or goes away, retry every
 * SOURCE_RETRY_US and say so in status[], which the UI shows.
 */
#ifndef GEARBOX_TUI_SOURCE_H
#define GEARBOX_TUI_SOURCE_H

#include "model.h"

#define SOURCE_DEFAULT_SOCKET "/run/scx_gearbox.sock"
#define SOURCE_RETRY_US	      1000000
#define SOURCE_SPEED_MAX      0.0 /* speed value that means "as fast as it reads" */

enum source_kind { SOURCE_REPLAY, SOURCE_SOCKET };

struct top_source {
	enum source_kind kind;
	const char *path;
	const char *name; /* replay: the file name without its directory */
	int fd;
	struct stream_lines lines;
	char *rbuf; /* read buffer */
	size_t rlen, roff;
	bool eof;	  /* replay: the whole file has been applied */
	bool would_block; /* the last read had nothing: poll fd before reading again */

	/* replay */
	struct stream_rec *pending; /* next timed record, decoded, not yet due */
	bool have_pending;
	double speed; /* SOURCE_SPEED_MAX or > 0 */
	bool paused;
	bool clock_started;
	int64_t clock_us; /* trace time the replay has reached */
	int64_t anchor_trace_us, anchor_wall_us;
	bool step; /* apply up to the next sample, then stay paused */

	/* socket */
	bool connected;
	unsigned nr_connects;
	unsigned nr_attempts;
	int64_t next_retry_us;
	char status[160]; /* what the source is doing, for the status line */
	struct stream_rec *scratch;

	/* --record: every line received from the socket, as received (-1: not recording) */
	int record_fd;
	const char *record_path;
	bool record_created; /* the file is this run's own: removed again if nothing was written */
	uint64_t recorded_lines;
	int record_errno; /* the write that stopped the recording failed with this, 0: none */
};

int source_open_replay(struct top_source *s, const char *path, double speed, bool paused,
		       struct gb_err *err);
int source_open_socket(struct top_source *s, const char *path, struct gb_err *err);
void source_close(struct top_source *s);

/*
 * Records every line the socket delivers into path, as it arrives, so that `--replay path`
 * shows the session again.  A new path is created (0644, never through a symlink); an
 * existing FIFO or character device is written in place; an existing file of any other kind
 * is refused (-EEXIST), never replaced.  A write error stops the recording and says so in the
 * status line; reading goes on.
 */
int source_record(struct top_source *s, const char *path, struct gb_err *err);

/* Reads and applies what is due at now_us (CLOCK_MONOTONIC us), at most a bounded amount. */
void source_pump(struct top_source *s, struct top_model *m, int64_t now_us);

/* The fd to poll for input, or -1 when nothing is to be read from it now. */
int source_poll_fd(const struct top_source *s);

/* Microseconds until the source wants to be pumped again without input, -1: not before input. */
int64_t source_wait_us(const struct top_source *s, int64_t now_us);

/* Replay controls (no-ops on a socket). */
void source_set_paused(struct top_source *s, bool paused, int64_t now_us);
void source_step(struct top_source *s, int64_t now_us);
void source_set_speed(struct top_source *s, double speed, int64_t now_us);
int64_t source_clock_us(const struct top_source *s, int64_t now_us);

#endif
