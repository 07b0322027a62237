/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * outfile.h - every file gearbox writes goes through here, so that a failed or refused run
 * never damages what was at the path before it, and every error names the path and the reason.
 *
 * What the path is decides how it is written (the kind is taken with lstat when opening):
 *   "-"                    standard output, written in place
 *   a new path             a temporary file beside it (mkostemp: O_EXCL, random name
 *   a regular file           PATH.tmp.XXXXXX, or .gearbox.tmp.XXXXXX for a long name),
 *                          renamed over PATH only when everything was written, flushed,
 *                          fsync'ed and closed without error; an existing file keeps its
 *                          permission bits (and its owner, when we may set it)
 *   a character device     opened in place (no O_CREAT, no O_TRUNC): /dev/null stays a device
 *   a FIFO                 opened in place; the open waits for a reader, as a FIFO does
 *   a symbolic link        followed only when it ends at a character device or a FIFO (so
 *                          /dev/stdout and /dev/fd/N work); a link to a regular file, to
 *                          nothing or to anything else is refused: replacing the link would
 *                          surprise, and writing through it as root is how a planted link in
 *                          a shared directory damages a system file
 *   anything else          refused: a directory, a block device, a socket
 *
 * Usage: gb_out_open(), write to o->f with stdio, then gb_out_commit() (or gb_out_abort()
 * on any error of the caller).  Writers that produce several files finish each one with
 * gb_out_finish() and rename them all at the end, so that a failure in the last file leaves
 * the earlier ones untouched too.  Write errors are recorded with their errno as they happen
 * (o->f is a stdio stream over our own write function, which keeps a pointer to o: o must
 * stay where it is until gb_out_finish) and reported by finish/commit.
 */
#ifndef GEARBOX_OUTFILE_H
#define GEARBOX_OUTFILE_H

#include <stdbool.h>
#include <stdio.h>

#include "gb_err.h"

struct gb_out {
	FILE *f;	 /* write here between open and finish */
	char path[4096]; /* as given ("-" for standard output), a copy */
	char tmp[4096];	 /* the temporary file; "" when written in place */
	int fd;		 /* what f writes to; -1 once closed */
	int write_errno; /* first failed write(2), 0 if none */
	bool finished;	 /* flushed, synced and closed; only the rename is left */
};

/* gb_out_open - opens PATH for writing as described above.  Returns 0 or a negative errno
 * with err set to "PATH: reason".  On error nothing was created. */
int gb_out_open(struct gb_out *o, const char *path, struct gb_err *err);

/* gb_out_check - what gb_out_open would refuse, found before a long job rather than after
 * it: the kind of path, a temporary file that cannot be created beside it.  Creates nothing
 * that stays, and does not open a device or FIFO (a FIFO would wait for its reader). */
int gb_out_check(const char *path, struct gb_err *err);

/* gb_out_finish - flushes, fsyncs (temporary files only) and closes, checking each step.
 * On error the temporary file is removed and err names the path and the reason. */
int gb_out_finish(struct gb_out *o, struct gb_err *err);

/* gb_out_commit - gb_out_finish if not yet done, then renames the temporary file over the
 * path.  On error nothing at the path has changed. */
int gb_out_commit(struct gb_out *o, struct gb_err *err);

/* gb_out_abort - discards the output: closes it and removes the temporary file.  What was at
 * the path is untouched (written in place, a device or FIFO has seen what was written).
 * Safe to call after finish, commit, a failed open, or twice. */
void gb_out_abort(struct gb_out *o);

/* gb_out_save - open, write with fn(ctx, f) (which returns 0 or a negative errno), commit. */
int gb_out_save(const char *path, int (*fn)(void *ctx, FILE *f), void *ctx, struct gb_err *err);

#endif
