// SPDX-License-Identifier: GPL-2.0-only
/*
 * fuzz_progress.c - libFuzzer target for the progress file of an interrupted profile
 * (prof_progress_parse), read against a fixed topology of two domains.  It is refused with a
 * message, or every OPP it gave belongs to the topology, at the topology's frequency.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "profile.h"

/* measure.c's name of the topology's performance source below (PROF_PERF_ITERATIONS), without
 * linking the measurement loop */
const char *prof_perf_src_name(enum prof_perf_src src)
{
	(void)src;
	return "iterations";
}

static struct prof_result res;

static void topo(void)
{
	static const u32 little[] = {300000, 600000}, big[] = {500000, 900000, 1200000};

	memset(&res, 0, sizeof(res));
	res.topo.nr_domains = 2;
	strcpy(res.topo.dom[0].name, "little");
	res.topo.dom[0].nr_opps = 2;
	memcpy(res.topo.dom[0].freq_khz, little, sizeof(little));
	strcpy(res.topo.dom[1].name, "big");
	res.topo.dom[1].nr_opps = 3;
	memcpy(res.topo.dom[1].freq_khz, big, sizeof(big));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *buf = malloc(size + 1);
	struct gb_err err = {{0}};
	int rc;

	if (!buf)
		return 0;
	memcpy(buf, data, size);
	buf[size] = 0;
	topo();
	rc = prof_progress_parse(buf, "progress", "sim", &res, &err);
	free(buf);
	if (rc && (rc != -EINVAL || !err.msg[0]))
		abort(); /* a refusal is -EINVAL with a message */
	for (u32 d = 0; d < EM_MAX_DOMAINS; d++)
		for (u32 k = 0; k < EM_MAX_OPPS; k++) {
			const struct prof_opp_result *r = &res.opp[d][k];

			if (!r->measurements)
				continue;
			if (d >= res.topo.nr_domains || k >= res.topo.dom[d].nr_opps ||
			    r->freq_khz != res.topo.dom[d].freq_khz[k])
				abort();
		}
	return 0;
}
