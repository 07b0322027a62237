// SPDX-License-Identifier: GPL-2.0-only
/*
 * prof_files.c - the profile lock and the profiler's private files (prof_files.h).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

#include "prof_files.h"

#define PATH_LEN 4096

const char *prof_lock_path(void)
{
	const char *env = getenv(PROF_LOCK_ENV);

	return env && *env ? env : PROF_LOCK_PATH;
}

/* The directory part of path ("." when it has none). */
static void dir_of(const char *path, char *dir, size_t len)
{
	const char *slash = strrchr(path, '/');

	if (!slash)
		snprintf(dir, len, ".");
	else if (slash == path)
		snprintf(dir, len, "/");
	else
		snprintf(dir, len, "%.*s", (int)(slash - path), path);
}

/* Only root (the effective user) may write to dir: see prof_files.h. */
static int check_dir(const char *dir, struct gb_err *err)
{
	struct stat st;

	if (lstat(dir, &st) < 0)
		return gb_err_set(err, errno, "%s: %s", dir, strerror(errno));
	if (!S_ISDIR(st.st_mode))
		return gb_err_set(err, ENOTDIR, "%s: not a directory", dir);
	if (st.st_uid != geteuid() || (st.st_mode & (S_IWGRP | S_IWOTH)))
		return gb_err_set(
		    err, EPERM,
		    "%s: the directory must belong to uid %u and be "
		    "writable by nobody else (it is uid %u, mode %03o): choose a private "
		    "directory",
		    dir, (unsigned)geteuid(), (unsigned)st.st_uid, (unsigned)(st.st_mode & 0777));
	return 0;
}

int prof_private_dir(const char *path, struct gb_err *err)
{
	char dir[PATH_LEN];

	dir_of(path, dir, sizeof(dir));
	for (char *p = dir + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = 0;
		if (mkdir(dir, 0755) < 0 && errno != EEXIST)
			return gb_err_set(err, errno, "%s: cannot create it: %s", dir,
					  strerror(errno));
		*p = '/';
	}
	if (mkdir(dir, 0700) < 0 && errno != EEXIST)
		return gb_err_set(err, errno, "%s: cannot create it: %s", dir, strerror(errno));
	return check_dir(dir, err);
}

static int write_all(int fd, const char *data, size_t len)
{
	while (len) {
		ssize_t n = write(fd, data, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		data += n;
		len -= (size_t)n;
	}
	return 0;
}

int prof_private_write(const char *path, const char *data, size_t len, struct gb_err *err)
{
	char dir[PATH_LEN], tmp[PATH_LEN + 32];
	unsigned char rnd[8];
	int fd, dfd, ret;

	ret = prof_private_dir(path, err);
	if (ret < 0)
		return ret;
	if (getrandom(rnd, sizeof(rnd), 0) != (ssize_t)sizeof(rnd))
		return gb_err_set(err, EIO, "getrandom: %s", strerror(errno));
	snprintf(tmp, sizeof(tmp), "%s.%02x%02x%02x%02x%02x%02x%02x%02x", path, rnd[0], rnd[1],
		 rnd[2], rnd[3], rnd[4], rnd[5], rnd[6], rnd[7]);
	fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd < 0)
		return gb_err_set(err, errno, "%s: %s", tmp, strerror(errno));
	ret = write_all(fd, data, len);
	if (ret == 0 && fsync(fd) < 0)
		ret = -errno;
	if (close(fd) < 0 && ret == 0)
		ret = -errno;
	if (ret == 0 && rename(tmp, path) < 0)
		ret = -errno;
	if (ret < 0) {
		unlink(tmp);
		return gb_err_set(err, -ret, "%s: cannot write it: %s", path, strerror(-ret));
	}
	/* the rename itself must survive a crash too */
	dir_of(path, dir, sizeof(dir));
	dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dfd >= 0) {
		fsync(dfd);
		close(dfd);
	}
	return 0;
}

int prof_private_read(const char *path, char *buf, size_t cap, struct gb_err *err)
{
	char dir[PATH_LEN];
	struct stat st;
	ssize_t n;
	size_t got = 0;
	int fd, ret;

	fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0 && errno == ENOENT)
		return -ENOENT;
	if (fd < 0)
		return gb_err_set(err, errno, "%s: %s%s", path, strerror(errno),
				  errno == ELOOP ? " (a symlink: refused)" : "");
	if (fstat(fd, &st) < 0) {
		ret = gb_err_set(err, errno, "%s: %s", path, strerror(errno));
		goto out;
	}
	if (!S_ISREG(st.st_mode) || st.st_uid != geteuid() || (st.st_mode & (S_IWGRP | S_IWOTH))) {
		ret = gb_err_set(err, EPERM,
				 "%s: refused: not a regular file of uid %u writable by "
				 "nobody else",
				 path, (unsigned)geteuid());
		goto out;
	}
	dir_of(path, dir, sizeof(dir));
	ret = check_dir(dir, err);
	if (ret < 0)
		goto out;
	while (got + 1 < cap && (n = read(fd, buf + got, cap - 1 - got)) != 0) {
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			ret = gb_err_set(err, errno, "%s: %s", path, strerror(errno));
			goto out;
		}
		got += (size_t)n;
	}
	buf[got] = 0;
	if (got + 1 >= cap && read(fd, dir, 1) > 0)
		ret = gb_err_set(err, E2BIG, "%s: longer than %zu bytes", path, cap - 1);
out:
	close(fd);
	return ret;
}

int prof_lock_take(const char *path, int *fd, struct gb_err *err)
{
	char pid[32] = "";
	struct stat st;
	ssize_t written;
	int ret, len;

	*fd = -1;
	ret = prof_private_dir(path, err);
	if (ret < 0) {
		gb_err_prefix(err, "the profile lock %s", path);
		return ret;
	}
	*fd = open(path, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (*fd < 0)
		return gb_err_set(err, errno, "the profile lock %s: %s", path, strerror(errno));
	if (fstat(*fd, &st) < 0 || !S_ISREG(st.st_mode) || st.st_uid != geteuid()) {
		prof_lock_release(fd);
		return gb_err_set(err, EPERM, "the profile lock %s: not a regular file of uid %u",
				  path, (unsigned)geteuid());
	}
	if (flock(*fd, LOCK_EX | LOCK_NB) < 0) {
		int e = errno;
		ssize_t n = pread(*fd, pid, sizeof(pid) - 1, 0);

		pid[n > 0 ? n : 0] = 0;
		pid[strcspn(pid, "\n")] = 0;
		prof_lock_release(fd);
		if (e != EWOULDBLOCK)
			return gb_err_set(err, e, "the profile lock %s: %s", path, strerror(e));
		if (pid[0] && strspn(pid, "0123456789") == strlen(pid))
			return gb_err_set(err, EBUSY,
					  "another profile (pid %s) holds the lock %s: it "
					  "owns cpufreq until it ends",
					  pid, path);
		return gb_err_set(err, EBUSY,
				  "another profile holds the lock %s: it owns cpufreq "
				  "until it ends",
				  path);
	}
	/* the pid is only for another process's message: the lock holds without it */
	len = snprintf(pid, sizeof(pid), "%d\n", (int)getpid());
	written = ftruncate(*fd, 0) == 0 ? pwrite(*fd, pid, (size_t)len, 0) : -1;
	(void)written;
	return 0;
}

void prof_lock_release(int *fd)
{
	if (*fd >= 0)
		close(*fd);
	*fd = -1;
}
