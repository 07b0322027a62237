/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * gb_err.h - errors returned up the stack and reported once at the top, with context.
 *
 * A function that can fail takes a `struct gb_err *` and returns a negative errno-style value;
 * it fills the message with what went wrong, most specific context first as git does:
 *   "em-profiles/x.json: domain 2, OPP 5: power must increase with frequency"
 * Only main() prints it.
 */
#ifndef GEARBOX_GB_ERR_H
#define GEARBOX_GB_ERR_H

#include <stdarg.h>

#define GB_ERR_MSG_LEN 512

struct gb_err {
	char msg[GB_ERR_MSG_LEN];
};

/* Sets the message (printf-style) and returns -code (code is a positive errno value; any
 * other code returns -EIO, so that an error never reads as success). */
int gb_err_set(struct gb_err *err, int code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Prepends "prefix: " to the message already set, e.g. the file name. */
void gb_err_prefix(struct gb_err *err, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Prints "PROG: error: MSG" (or "PROG: warning: ..." variants) to stderr. */
void gb_report_error(const char *prog, const struct gb_err *err);
void gb_warn(const char *prog, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#endif
