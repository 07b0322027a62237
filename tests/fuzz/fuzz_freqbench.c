// SPDX-License-Identifier: GPL-2.0-only
/* fuzz_freqbench.c - libFuzzer target for the freqbench importer.  Input: the --domains
 * spec on the first line, then the results JSON.  The oracle is fuzz_common.h's. */
#include <stdint.h>

#include "em_import.h"
#include "fuzz_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct em_profile prof;
	const char *nl = memchr(data, '\n', size);
	struct em_warnings warn;
	struct gb_err err;
	char spec[64];
	size_t n;
	int rc;

	if (!nl || (size_t)(nl - (const char *)data) >= sizeof(spec))
		return 0;
	n = (size_t)(nl - (const char *)data);
	memcpy(spec, data, n);
	spec[n] = '\0';
	if (memchr(spec, '\0', n))
		return 0;
	rc = em_import_freqbench_string(nl + 1, size - n - 1, "fuzz", spec, NULL, &prof, &warn,
					&err);
	fuzz_check_imported(rc, &prof, &err);
	return 0;
}
