/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * policy_models.h - small energy models built in C, with round numbers so that the expected
 * placements in test_policy.c can be computed by hand (cost = power_uw * 10 / perf).
 *
 *   "tri": little CPUs 0-3, mid CPUs 4-6, big CPU 7
 *     little  perf 100 / 200 / 250 at 20 / 50 / 80 mW       cost 2000 / 2500 / 3200
 *     mid     perf 300 / 500 / 800 at 150 / 300 / 700 mW    cost 5000 / 6000 / 8750
 *     big     perf 300 / 500 / 700 / 1024 at 200 / 400 / 700 / 1500 mW
 *                                                           cost 6666 / 8000 / 10000 / 14648
 */
#ifndef GEARBOX_TEST_POLICY_MODELS_H
#define GEARBOX_TEST_POLICY_MODELS_H

#include <string.h>

#include "em_model.h"

static inline void tm_domain(struct em_model *m, const char *name, u32 first, u32 n,
			     const u32 *perf, const u32 *power_mw, u32 nr_opps)
{
	struct em_domain *pd = &m->domains[m->nr_domains++];

	strncpy(pd->name, name, EM_NAME_LEN - 1);
	pd->nr_opps = nr_opps;
	for (u32 i = 0; i < nr_opps; i++) {
		pd->opps[i].perf = perf[i];
		pd->opps[i].power_uw = power_mw[i] * 1000;
		pd->opps[i].freq_khz = perf[i] * 3000;
	}
	for (u32 c = first; c < first + n; c++) {
		em_cpumask_set(&pd->cpus, c);
		m->cpu_domain[c] = (u8)(m->nr_domains - 1);
	}
	pd->nr_cpus = n;
	pd->first_cpu = first;
	pd->idle_power_uw = 0;
	em_compute_costs(pd);
	if (first + n > m->nr_cpus)
		m->nr_cpus = first + n;
}

static inline void tm_tri(struct em_model *m)
{
	static const u32 lp[] = {100, 200, 250}, lw[] = {20, 50, 80};
	static const u32 mp[] = {300, 500, 800}, mw[] = {150, 300, 700};
	static const u32 bp[] = {300, 500, 700, 1024}, bw[] = {200, 400, 700, 1500};

	memset(m, 0, sizeof(*m));
	memset(m->cpu_domain, 0xff, sizeof(m->cpu_domain));
	tm_domain(m, "little", 0, 4, lp, lw, 3);
	tm_domain(m, "mid", 4, 3, mp, mw, 3);
	tm_domain(m, "big", 7, 1, bp, bw, 4);
}

#endif
