/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * gb_reason.h - the stream's reason codes (docs/stream.md) for the policy's enum gb_reason.
 * User space only (the simulator's trace and scx_gearbox's socket both write them); the BPF
 * side passes the enum value.  A decision that kept the task where it was is a wake-up
 * placement, so GB_REASON_NONE reads "wakeup_energy".
 */
#ifndef GEARBOX_GB_REASON_H
#define GEARBOX_GB_REASON_H

#include "gb_policy.h"

static inline const char *gb_reason_name(unsigned reason)
{
	static const char *const names[GB_NR_REASONS] = {[GB_REASON_NONE] = "wakeup_energy",
#define GB_REASON_NAME(name, code) [GB_REASON_##name] = code,
							 GB_REASON_LIST(GB_REASON_NAME)
#undef GB_REASON_NAME
	};

	return reason < GB_NR_REASONS ? names[reason] : "balance";
}

#endif
