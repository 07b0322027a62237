// SPDX-License-Identifier: GPL-2.0-only
/* fuzz_em.c - libFuzzer target for the em-profile loader: any bytes must either load into a
 * profile that passes the derived-value invariants, or be rejected with a message. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "em_profile.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct em_profile prof;
	struct em_warnings warn;
	struct gb_err err;

	if (em_profile_load_string((const char *)data, size, "fuzz", &prof, false, &warn, &err)) {
		if (!err.msg[0] || strncmp(err.msg, "fuzz: ", 6))
			abort(); /* every rejection says what and where */
		return 0;
	}
	for (u32 d = 0; d < prof.model.nr_domains; d++) {
		const struct em_domain *pd = &prof.model.domains[d];

		if (pd->nr_opps == 0 || pd->nr_opps > EM_MAX_OPPS || pd->nr_cpus == 0)
			abort();
		for (u32 i = 1; i < pd->nr_opps; i++)
			if (pd->opps[i].freq_khz <= pd->opps[i - 1].freq_khz ||
			    pd->opps[i].perf <= pd->opps[i - 1].perf)
				abort();
		if (d && em_domain_capacity(pd) < em_domain_capacity(pd - 1))
			abort();
	}
	{
		char *buf = NULL;
		size_t len = 0;
		FILE *f = open_memstream(&buf, &len);

		em_profile_write(&prof, f);
		fclose(f);
		free(buf);
	}
	return 0;
}
