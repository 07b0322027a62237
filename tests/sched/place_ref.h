/* SPDX-License-Identifier: GPL-2.0-only */
/* place_ref.h - the directly called policy (place_ref.c), for test_place.c. */
#ifndef GEARBOX_PLACE_REF_H
#define GEARBOX_PLACE_REF_H

#include "gb_types.h"

s32 ref_select_cpu(const struct em_model *m, const struct gb_cpu *cpus, const struct gb_task *t,
		   struct gb_decision *out);
s32 ref_select_cpu_range(const struct em_model *m, const struct gb_cpu *cpus,
			 const struct gb_task *t, u32 min_cap, u32 max_cap,
			 struct gb_decision *out);
s32 ref_check_misfit(const struct em_model *m, const struct gb_cpu *cpus, const struct gb_task *t,
		     u32 cpu, u64 ran_us, u64 push_after_us, struct gb_decision *out);

#endif
