// SPDX-License-Identifier: GPL-2.0-only
/*
 * sim_run.c - the simulator's entry (sim.h): the policies by name, and sim_run(), which runs the
 * engine under one of them (the oracle first searches its plan, sim_oracle.c).  It stands above
 * every other part: the engine is handed a policy's table of functions and names no policy.
 */
#include "sim_internal.h"

static const struct sim_policy_ops *const policy_ops[SIM_NR_POLICIES] = {
    [SIM_POLICY_GEARBOX] = &sim_ops_gearbox, [SIM_POLICY_MAINLINE] = &sim_ops_mainline,
    [SIM_POLICY_REWORK] = &sim_ops_rework,   [SIM_POLICY_PERFORMANCE] = &sim_ops_performance,
    [SIM_POLICY_ORACLE] = &sim_ops_oracle,
};

int sim_policy_parse(const char *name)
{
	for (int i = 0; i < SIM_NR_POLICIES; i++)
		if (!strcmp(name, policy_ops[i]->name))
			return i;
	return -1;
}

const struct sim_policy_ops *sim_policy_ops_of(enum sim_policy_id id)
{
	return policy_ops[id];
}

const char *sim_policy_name(enum sim_policy_id id)
{
	return id < SIM_NR_POLICIES ? policy_ops[id]->name : "?";
}

int sim_run(const struct em_profile *prof, const struct workload *w, enum sim_policy_id policy,
	    const struct sim_options *opt, struct sim_result *res, struct gb_err *err)
{
	if (policy == SIM_POLICY_ORACLE)
		return sim_oracle_run(prof, w, opt, res, err); /* plans, then sim_run_plan() */
	return sim_run_plan(prof, w, policy_ops[policy], opt, NULL, res, err);
}
