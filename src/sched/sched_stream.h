/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * sched_stream.h - scx_gearbox's live stats stream (docs/stream.md, gearbox-stream/1).
 *
 * The server: a Unix stream socket (mode 0600 by default) accepting up to
 * SCHED_STREAM_MAX_CLIENTS readers; one more gets an `error` line and is disconnected.  Each
 * new reader gets the hello line, then every record broadcast.  Writes never block: a reader
 * whose socket buffer cannot take a whole record is disconnected (it sees EOF and may
 * reconnect), so a slow reader costs the scheduler nothing.
 *
 * The path: nothing but a stale socket (one nobody listens on, tested by connecting) is ever
 * removed; a live socket, a file, a directory or a symbolic link there is refused and left
 * alone.  The socket is created with its mode (no window with wider permissions).
 *
 * The records: hello, sample and decision lines formatted from the model, the BPF side's state
 * and its ring-buffer events.
 */
#ifndef GEARBOX_SCHED_STREAM_H
#define GEARBOX_SCHED_STREAM_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "em_profile.h"
#include "gb_err.h"
#include "gb_policy.h"
#include "gearbox_abi.h"

#define SCHED_STREAM_MAX_CLIENTS 16

struct sched_stream {
	int listen_fd;
	int fds[SCHED_STREAM_MAX_CLIENTS];
	unsigned long dropped; /* readers disconnected for not keeping up */
	unsigned long refused; /* readers turned away: SCHED_STREAM_MAX_CLIENTS reached */
	char *hello;	       /* the hello line, newline included */
	size_t hello_len;
	char path[108];
};

/*
 * May the stream be opened at path?  0 when nothing is there or a stale socket is (*stale: it
 * will be replaced), else a negative errno with the reason in err: -EADDRINUSE a live socket,
 * -EEXIST anything that is not a socket, -ENAMETOOLONG a path too long.  Changes nothing.
 */
int sched_stream_check(const char *path, bool *stale, struct gb_err *err);
/* Checks as above, removes a stale socket, creates and listens with the given mode; 0 or a
 * negative errno (as above, or from the socket calls). */
int sched_stream_open(struct sched_stream *s, const char *path, mode_t mode, struct gb_err *err);
/* Accepts pending readers (call when listen_fd is readable) and sends them the hello. */
void sched_stream_accept(struct sched_stream *s);
/* Sends one record (a line ending in '\n') to every reader. */
void sched_stream_send(struct sched_stream *s, const char *line, size_t len);
unsigned sched_stream_readers(const struct sched_stream *s);
void sched_stream_close(struct sched_stream *s);

/* What a sample is made of: pointers into the BPF skeleton's data. */
struct sched_sample_src {
	const struct em_model *model;
	const struct gb_cpu *cpus;
	const struct gb_cpu_curr *curr;
	const struct gb_dom_state *doms;
	unsigned nr_cpus; /* CPUs to list: the model's */
};

/* Record formatting; each returns a malloc'ed line (caller frees) or NULL. */
char *sched_fmt_hello(const struct em_profile *prof, const char *mode, size_t *len);
char *sched_fmt_sample(const struct sched_sample_src *src, unsigned long long t_us,
		       unsigned long long *energy_uj, unsigned long long interval_us, size_t *len);
char *sched_fmt_decision(const struct em_model *model, const struct gb_event *e,
			 unsigned long long t_us, size_t *len);

#endif /* GEARBOX_SCHED_STREAM_H */
