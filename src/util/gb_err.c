// SPDX-License-Identifier: GPL-2.0-only
#include "gb_err.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

int gb_err_set(struct gb_err *err, int code, const char *fmt, ...)
{
	va_list ap;

	if (err) {
		va_start(ap, fmt);
		vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
		va_end(ap);
	}
	/* A code that is no positive errno (0, negative, INT_MIN whose negation overflows) must
	 * still read as a failure to the caller. */
	return code > 0 ? -code : -EIO;
}

void gb_err_prefix(struct gb_err *err, const char *fmt, ...)
{
	char prefix[GB_ERR_MSG_LEN], old[GB_ERR_MSG_LEN];
	va_list ap;

	if (!err)
		return;
	va_start(ap, fmt);
	vsnprintf(prefix, sizeof(prefix), fmt, ap);
	va_end(ap);
	memcpy(old, err->msg, sizeof(old));
	snprintf(err->msg, sizeof(err->msg), "%s: %s", prefix, old);
}

void gb_report_error(const char *prog, const struct gb_err *err)
{
	fprintf(stderr, "%s: error: %s\n", prog, err->msg[0] ? err->msg : "unknown error");
}

void gb_warn(const char *prog, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: warning: ", prog);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}
