// SPDX-License-Identifier: GPL-2.0-only
/*
 * fuzz_dt.c - libFuzzer target for the device-tree importer on blobs (.dtb, libfdt).  Input:
 * a blob, written to a scratch file and imported; inputs without the blob's magic number are
 * skipped (they would go to dtc, a process per input).  The oracle is fuzz_common.h's.
 */
#include <stdint.h>
#include <unistd.h>

#include "em_import.h"
#include "fuzz_common.h"

static char path[256];

static void scratch_remove(void)
{
	unlink(path);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct em_profile prof;
	static const uint8_t magic[4] = {0xd0, 0x0d, 0xfe, 0xed};
	struct em_warnings warn;
	struct gb_err err;
	FILE *f;
	int rc;

	if (size < 4 || memcmp(data, magic, 4))
		return 0;
	if (!path[0]) {
		int fd;

		snprintf(path, sizeof(path), "%s/gb-fuzz-dt-XXXXXX",
			 access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp");
		fd = mkstemp(path);
		if (fd < 0)
			abort();
		close(fd);
		atexit(scratch_remove);
	}
	f = fopen(path, "wb");
	if (!f || fwrite(data, 1, size, f) != size || fclose(f))
		abort();
	rc = em_import_dt(path, &prof, &warn, &err);
	fuzz_check_imported(rc, &prof, &err);
	return 0;
}
