/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * gb_reason_list.h - the stats stream's reason codes (docs/stream.md), written once: the policy's
 * enum gb_reason (BPF and simulator), the stream writers' strings (gb_reason.h) and the TUI's
 * reader (tui/stream.h) all expand this list.  X(NAME, "code"), in the stream's order.  No
 * includes: it is read by the BPF object too.
 */
#ifndef GEARBOX_GB_REASON_LIST_H
#define GEARBOX_GB_REASON_LIST_H

#define GB_REASON_LIST(X)                                                                          \
	X(WAKEUP_ENERGY, "wakeup_energy")                                                          \
	X(CAPACITY_MISFIT, "capacity_misfit")                                                      \
	X(POWER_MISFIT, "power_misfit")                                                            \
	X(OVERUTILIZED_SPREAD, "overutilized_spread")                                              \
	X(IDLE_PULL, "idle_pull")                                                                  \
	X(AFFINITY, "affinity")                                                                    \
	X(FORK, "fork")                                                                            \
	X(BALANCE, "balance")

#endif
