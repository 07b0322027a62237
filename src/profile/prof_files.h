/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * prof_files.h - the profiler's own files on a board: the per-machine lock, and the private
 * files (cpufreq state, progress) that it writes as root and trusts when it reads them back.
 *
 * The lock.  One fixed file per machine (PROF_LOCK_PATH, in a directory created 0700; the
 * environment variable GEARBOX_PROFILE_LOCK names another one, for tests), locked with flock
 * for as long as the profiler touches cpufreq.  Two profiles, or a profile and --restore,
 * can never run at once, whatever their --state; the lock dies with its process, so a crash
 * or SIGKILL never leaves it held.  The holder writes its pid into the file, for the message
 * of the one that finds it taken.
 *
 * Private files.  Their directory must belong to root (the effective user) and be writable by
 * no one else: anyone who can write there could swap the file for a symlink, or plant one that
 * --restore would then trust.  Missing directories are created (the last one 0700).  A file is
 * written to a temporary of an unpredictable name, opened O_CREAT | O_EXCL | O_NOFOLLOW (never
 * an existing file, never through a symlink), fsync'ed, then renamed over the target, so that a
 * reader sees the old or the new content, never a part.  It is read back only if it is a regular
 * file owned by root and writable by no one else, opened O_NOFOLLOW.
 */
#ifndef GEARBOX_PROF_FILES_H
#define GEARBOX_PROF_FILES_H

#include <stddef.h>

#include "gb_err.h"

#define PROF_LOCK_PATH "/run/gearbox/profile.lock"
#define PROF_LOCK_ENV  "GEARBOX_PROFILE_LOCK"

/* The lock file in use: $GEARBOX_PROFILE_LOCK when set and not empty, else PROF_LOCK_PATH. */
const char *prof_lock_path(void);

/* prof_lock_take - takes the machine's profile lock without waiting; *fd holds it until
 * prof_lock_release() or exit.  -EBUSY when another process holds it: the message names that
 * process's pid when it wrote one.  Other errors: the lock file cannot be made or opened. */
int prof_lock_take(const char *path, int *fd, struct gb_err *err);
void prof_lock_release(int *fd);

/* prof_private_dir - makes sure the directory of path exists (creating what is missing, the
 * last level 0700) and that only root can write to it.  -EPERM with the reason otherwise. */
int prof_private_dir(const char *path, struct gb_err *err);

/* prof_private_write - replaces path with data (len bytes) as described above. */
int prof_private_write(const char *path, const char *data, size_t len, struct gb_err *err);

/* prof_private_read - reads at most cap - 1 bytes of path into buf, NUL-terminated, after the
 * checks above.  -ENOENT when it does not exist (nothing else is said); -E2BIG when longer. */
int prof_private_read(const char *path, char *buf, size_t cap, struct gb_err *err);

#endif
