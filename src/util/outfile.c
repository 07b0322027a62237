// SPDX-License-Identifier: GPL-2.0-only
/*
 * outfile.c - writing an output path safely (see outfile.h for the rules by kind of path).
 *
 * The stream handed to the caller is a fopencookie() stream over our own write function, so
 * that the errno of the first failed write(2) is kept (stdio keeps only an error flag, and
 * errno has moved on by the time the caller looks).  Closing the stream does not close the
 * descriptor: gb_out_finish does that itself, after fsync, so that each step's error is seen.
 */
#include "outfile.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static ssize_t out_write(void *cookie, const char *buf, size_t n)
{
	struct gb_out *o = cookie;
	size_t done = 0;

	if (o->fd < 0) /* aborted: what is still buffered is dropped, not written */
		return (ssize_t)n;
	while (done < n) {
		ssize_t w = write(o->fd, buf + done, n - done);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			if (!o->write_errno)
				o->write_errno = w < 0 ? errno : EIO;
			return done ? (ssize_t)done : -1;
		}
		done += (size_t)w;
	}
	return (ssize_t)done;
}

/* The descriptor is closed by finish/abort, where its errors are checked. */
static int out_close_stream(void *cookie)
{
	(void)cookie;
	return 0;
}

static const char *out_name(const struct gb_out *o)
{
	return strcmp(o->path, "-") ? o->path : "standard output";
}

static int out_stream(struct gb_out *o, struct gb_err *err)
{
	static const cookie_io_functions_t io = {.write = out_write, .close = out_close_stream};

	o->f = fopencookie(o, "w", io);
	if (!o->f) {
		int e = errno;

		gb_out_abort(o);
		return gb_err_set(err, e, "%s: %s", out_name(o), strerror(e));
	}
	return 0;
}

/* A character device or FIFO (or a link to one): written where it is, never created,
 * truncated or replaced.  fstat afterwards: the path may have changed since lstat. */
static int open_in_place(struct gb_out *o, bool follow, struct gb_err *err)
{
	struct stat st;

	o->fd = open(o->path, O_WRONLY | O_NOCTTY | O_CLOEXEC | (follow ? 0 : O_NOFOLLOW));
	if (o->fd < 0)
		return gb_err_set(err, errno, "%s: %s", o->path, strerror(errno));
	if (fstat(o->fd, &st) || !(S_ISCHR(st.st_mode) || S_ISFIFO(st.st_mode))) {
		close(o->fd);
		o->fd = -1;
		return gb_err_set(err, EAGAIN, "%s: changed while it was being opened; not written",
				  o->path);
	}
	return 0;
}

/* The permission bits (and owner, where allowed) of the file the temporary will replace;
 * a new file gets 0666 less the umask, as open(O_CREAT) would give it. */
static int set_mode(struct gb_out *o, const struct stat *old, struct gb_err *err)
{
	mode_t mode;

	if (old) {
		mode = old->st_mode & 07777;
		/* only root may give a file away; for anyone else keeping the owner is a no-op or
		 * not permitted, and the file is then simply ours, as any editor would leave it */
		if (geteuid() == 0 && fchown(o->fd, old->st_uid, old->st_gid))
			return gb_err_set(err, errno, "%s: setting the owner of %s: %s", o->path,
					  o->tmp, strerror(errno));
	} else {
		mode_t mask = umask(0);

		umask(mask);
		mode = 0666 & ~mask;
	}
	if (fchmod(o->fd, mode))
		return gb_err_set(err, errno, "%s: setting the mode of %s: %s", o->path, o->tmp,
				  strerror(errno));
	return 0;
}

/* A new path or a regular file: a temporary file in the same directory (so that rename is
 * atomic), created with O_EXCL under a random name by mkostemp. */
static int open_temporary(struct gb_out *o, const struct stat *old, struct gb_err *err)
{
	const char *slash = strrchr(o->path, '/');
	const char *base = slash ? slash + 1 : o->path;
	int dir_len = slash ? (int)(slash - o->path) + 1 : 0; /* with the '/' */
	char dir[4096];
	int n;

	if (strlen(base) + sizeof(".tmp.XXXXXX") - 1 <= NAME_MAX)
		n = snprintf(o->tmp, sizeof(o->tmp), "%s.tmp.XXXXXX", o->path);
	else
		n = snprintf(o->tmp, sizeof(o->tmp), "%.*s.gearbox.tmp.XXXXXX", dir_len, o->path);
	if (n < 0 || (size_t)n >= sizeof(o->tmp)) {
		o->tmp[0] = '\0';
		return gb_err_set(err, ENAMETOOLONG, "%s: %s", o->path, strerror(ENAMETOOLONG));
	}
	o->fd = mkostemp(o->tmp, O_CLOEXEC);
	if (o->fd < 0) {
		int e = errno;

		/* the directory without its trailing '/', except for "/" itself */
		snprintf(dir, sizeof(dir), "%.*s", dir_len > 1 ? dir_len - 1 : 1,
			 dir_len ? o->path : ".");
		o->tmp[0] = '\0';
		return gb_err_set(err, e, "%s: cannot create a temporary file in %s: %s", o->path,
				  dir, strerror(e));
	}
	if (set_mode(o, old, err)) {
		gb_out_abort(o);
		return -EPERM;
	}
	return 0;
}

int gb_out_open(struct gb_out *o, const char *path, struct gb_err *err)
{
	struct stat st, target;
	int ret;

	memset(o, 0, sizeof(*o));
	o->fd = -1;
	if (!path || !*path)
		return gb_err_set(err, EINVAL, "empty output path");
	if (snprintf(o->path, sizeof(o->path), "%s", path) >= (int)sizeof(o->path))
		return gb_err_set(err, ENAMETOOLONG, "%.64s...: %s", path, strerror(ENAMETOOLONG));
	if (!strcmp(path, "-")) {
		if (fflush(stdout)) /* what was printed before comes first */
			return gb_err_set(err, errno, "standard output: %s", strerror(errno));
		o->fd = STDOUT_FILENO;
		return out_stream(o, err);
	}
	if (lstat(path, &st)) {
		if (errno != ENOENT)
			return gb_err_set(err, errno, "%s: %s", path, strerror(errno));
		ret = open_temporary(o, NULL, err);
	} else if (S_ISREG(st.st_mode)) {
		ret = open_temporary(o, &st, err);
	} else if (S_ISCHR(st.st_mode) || S_ISFIFO(st.st_mode)) {
		ret = open_in_place(o, false, err);
	} else if (S_ISLNK(st.st_mode)) {
		if (stat(path, &target) == 0 &&
		    (S_ISCHR(target.st_mode) || S_ISFIFO(target.st_mode)))
			ret = open_in_place(o, true, err);
		else
			return gb_err_set(err, ELOOP,
					  "%s: is a symbolic link%s; not written (give the "
					  "file it points to, or - for standard output)",
					  path, errno == ENOENT ? " to nothing" : "");
	} else if (S_ISDIR(st.st_mode)) {
		return gb_err_set(err, EISDIR, "%s: %s", path, strerror(EISDIR));
	} else {
		return gb_err_set(err, EINVAL, "%s: is a %s; not written", path,
				  S_ISBLK(st.st_mode) ? "block device" : "socket");
	}
	return ret ? ret : out_stream(o, err);
}

/* A character device or FIFO, or a link to one: what gb_out_open writes in place. */
static bool in_place_kind(const char *path)
{
	struct stat st;

	if (lstat(path, &st) || (S_ISLNK(st.st_mode) && stat(path, &st)))
		return false;
	return S_ISCHR(st.st_mode) || S_ISFIFO(st.st_mode);
}

int gb_out_check(const char *path, struct gb_err *err)
{
	struct gb_out o;
	int ret;

	if (path && (!strcmp(path, "-") || in_place_kind(path)))
		return 0;
	ret = gb_out_open(&o, path, err);
	if (ret == 0)
		gb_out_abort(&o);
	return ret;
}

int gb_out_finish(struct gb_out *o, struct gb_err *err)
{
	int e = 0;

	if (o->finished)
		return 0;
	if (!o->f)
		return gb_err_set(err, EBADF, "%s: not open", out_name(o));
	if (fflush(o->f) || ferror(o->f))
		e = o->write_errno ? o->write_errno : EIO;
	fclose(o->f); /* the cookie's close cannot fail; the descriptor is ours */
	o->f = NULL;
	if (!e && o->write_errno)
		e = o->write_errno;
	/* fsync a temporary file: renamed over a model that was fine, it must not turn out
	 * empty after a crash.  Devices and FIFOs have nothing to sync. */
	if (!e && o->tmp[0] && fsync(o->fd))
		e = errno;
	if (o->fd != STDOUT_FILENO && close(o->fd) && !e)
		e = errno;
	o->fd = -1;
	if (e) {
		gb_out_abort(o);
		return gb_err_set(err, e, "%s: %s", out_name(o), strerror(e));
	}
	o->finished = true;
	return 0;
}

int gb_out_commit(struct gb_out *o, struct gb_err *err)
{
	int ret = gb_out_finish(o, err);

	if (ret)
		return ret;
	if (o->tmp[0] && rename(o->tmp, o->path)) {
		int e = errno;

		gb_out_abort(o);
		return gb_err_set(err, e, "%s: %s", o->path, strerror(e));
	}
	o->tmp[0] = '\0';
	return 0;
}

void gb_out_abort(struct gb_out *o)
{
	if (o->f) {
		int fd = o->fd;

		o->fd = -1; /* out_write drops what fclose flushes */
		fclose(o->f);
		o->f = NULL;
		o->fd = fd;
	}
	if (o->fd >= 0 && o->fd != STDOUT_FILENO)
		close(o->fd);
	o->fd = -1;
	if (o->tmp[0])
		unlink(o->tmp);
	o->tmp[0] = '\0';
	o->finished = false;
}

int gb_out_save(const char *path, int (*fn)(void *ctx, FILE *f), void *ctx, struct gb_err *err)
{
	struct gb_out o;
	int ret = gb_out_open(&o, path, err);

	if (ret)
		return ret;
	ret = fn(ctx, o.f);
	if (ret) {
		/* a writer that failed on a stream error returns -EIO; the write's own errno says
		 * more (No space left on device) */
		int e = o.write_errno ? o.write_errno : -ret;

		gb_out_abort(&o);
		return gb_err_set(err, e, "%s: %s", out_name(&o), strerror(e));
	}
	return gb_out_commit(&o, err);
}
