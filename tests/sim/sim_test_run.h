/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * sim_test_run.h - what the simulator's tests share: the "flat" model (tri with one OPP per
 * domain: power is constant, so energy is busy time x power), running a workload given as
 * JSON text, and a task's run time over every domain.
 */
#ifndef GEARBOX_TEST_SIM_TEST_RUN_H
#define GEARBOX_TEST_SIM_TEST_RUN_H

#include <stdio.h>
#include <string.h>

#include "em_profile.h"
#include "policy_models.h"
#include "sim.h"
#include "workload.h"

static inline void st_flat_profile(struct em_profile *prof)
{
	static const u32 lp[] = {100}, lw[] = {20}, mp[] = {500}, mw[] = {300};
	static const u32 bp[] = {1024}, bw[] = {1500};
	struct em_model *m = &prof->model;

	memset(prof, 0, sizeof(*prof));
	snprintf(prof->soc, sizeof(prof->soc), "flat");
	memset(m->cpu_domain, 0xff, sizeof(m->cpu_domain));
	tm_domain(m, "little", 0, 4, lp, lw, 1);
	tm_domain(m, "mid", 4, 3, mp, mw, 1);
	tm_domain(m, "big", 7, 1, bp, bw, 1);
}

/* Runs the workload json on prof; prints the error as a TAP comment. */
static inline int st_run_text(const struct em_profile *prof, const char *json,
			      enum sim_policy_id pol, struct sim_options *opt,
			      struct sim_result *res)
{
	struct workload w = {0};
	struct gb_err err;
	int ret = workload_load_string(json, strlen(json), "test", &w, &err);

	if (!ret)
		ret = sim_run(prof, &w, pol, opt, res, &err);
	if (ret)
		printf("# %s\n", err.msg);
	workload_free(&w);
	return ret;
}

static inline u64 st_run_total(const struct sim_result *r, u32 task)
{
	u64 us = 0;

	for (u32 d = 0; d < EM_MAX_DOMAINS; d++)
		us += r->tasks[task].run_us[d];
	return us;
}

#endif
