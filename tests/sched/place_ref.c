// SPDX-License-Identifier: GPL-2.0-only
/*
 * place_ref.c - the policy called directly, with none of bpf/gearbox_place.h's routing: the
 * reference test_place.c compares the routed scheduler build against.  A translation unit of
 * its own because the hooks are chosen when gb_policy.h is included.
 */
#include "place_ref.h"
#include "gb_policy.h"

s32 ref_select_cpu(const struct em_model *m, const struct gb_cpu *cpus, const struct gb_task *t,
		   struct gb_decision *out)
{
	static struct gb_scratch s;

	return gb_select_cpu(m, cpus, t, &s, out);
}

s32 ref_select_cpu_range(const struct em_model *m, const struct gb_cpu *cpus,
			 const struct gb_task *t, u32 min_cap, u32 max_cap, struct gb_decision *out)
{
	static struct gb_scratch s;

	return gb_select_cpu_range(m, cpus, t, min_cap, max_cap, &s, out);
}

s32 ref_check_misfit(const struct em_model *m, const struct gb_cpu *cpus, const struct gb_task *t,
		     u32 cpu, u64 ran_us, u64 push_after_us, struct gb_decision *out)
{
	static struct gb_scratch s;

	return gb_check_misfit(m, cpus, t, cpu, ran_us, push_after_us, &s, out);
}
