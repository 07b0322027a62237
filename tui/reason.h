/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * reason.h - decisions and quantities in words, as `gearbox top` prints them:
 *   capacity misfit: util 612 > 80% of cap 498
 *   power misfit: uclamp_max 300 on big
 *   cheaper OPP: mid 1.4 GHz vs big 0.8 GHz
 * Kept apart from drawing so the unit tests check the exact wording.
 */
#ifndef GEARBOX_TUI_REASON_H
#define GEARBOX_TUI_REASON_H

#include <stdbool.h>
#include <stddef.h>

#include "model.h"

/* "1.4 GHz" (always GHz, one decimal: the precision at which OPPs differ on the screen). */
void fmt_freq_khz(char *buf, size_t len, int64_t freq_khz);
/* "152.0 mW", "-81.0 mW", "1.25 W" from 1 W on. */
void fmt_power_uw(char *buf, size_t len, int64_t power_uw);
/* "12.35 J", "1.2 kJ". */
void fmt_energy_uj(char *buf, size_t len, uint64_t energy_uj);
/* "12.250s" */
void fmt_time_us(char *buf, size_t len, int64_t t_us);

/*
 * The model's idle costs of a domain, or "" when the hello carried none:
 *   static 40.0 mW; cpu wfi 5.0 mW/1us, pc 0.0 mW/80us; cluster off 0.0 mW/1200us
 * (each state: its power and its exit latency).
 */
void fmt_domain_idle(char *buf, size_t len, const struct stream_domain_info *d);

/* The reason of d in words, using the topology for domain names and capacities. */
void reason_describe(const struct top_model *m, const struct stream_decision *d, char *buf,
		     size_t len);

/* "cpu7 big->cpu4 mid", "new->cpu2 little" */
void reason_move(const struct top_model *m, const struct stream_decision *d, char *buf, size_t len);

/*
 * Whether d passes the log filter: an empty filter passes everything; otherwise the filter,
 * case-insensitively, is part of the task's comm, its pid, the reason code or the reason words.
 */
bool reason_matches(const struct top_model *m, const struct stream_decision *d, const char *filter);

#endif
