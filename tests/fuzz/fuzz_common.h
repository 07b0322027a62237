/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * fuzz_common.h - the oracle shared by the importer fuzz targets: an importer either refuses
 * its input with a message, or gives a profile that gearbox writes and `em validate` (the
 * loader, not strict) reads back.  Anything else aborts, which libFuzzer reports as a crash.
 */
#ifndef GEARBOX_FUZZ_COMMON_H
#define GEARBOX_FUZZ_COMMON_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "em_profile.h"

static void fuzz_check_imported(int rc, const struct em_profile *prof, const struct gb_err *err)
{
	static struct em_profile back;
	struct gb_err lerr;
	char *buf = NULL;
	size_t len = 0;
	FILE *f;

	if (rc) {
		if (rc > 0 || !err->msg[0])
			abort(); /* a refusal is a negative errno with a message */
		return;
	}
	f = open_memstream(&buf, &len);
	if (!f)
		abort();
	if (em_profile_write(prof, f))
		abort();
	fclose(f);
	if (em_profile_load_string(buf, len, "imported", &back, false, NULL, &lerr)) {
		fprintf(stderr, "imported model refused: %s\n%s", lerr.msg, buf);
		abort();
	}
	free(buf);
}

#endif
