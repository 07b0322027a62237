/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * cpulist.h - the kernel's CPU list syntax ("0-3,6,8-9"), as in related_cpus and cpus_allowed.
 */
#ifndef GEARBOX_CPULIST_H
#define GEARBOX_CPULIST_H

#include <stddef.h>

#include "em_model.h"
#include "gb_err.h"

/* Parses s into mask (cleared first). Rejects ids >= EM_MAX_CPUS, bad syntax, empty lists. */
int cpulist_parse(const char *s, struct em_cpumask *mask, struct gb_err *err);

/* Formats mask as a CPU list into buf; returns the length that was needed. */
size_t cpulist_format(const struct em_cpumask *mask, char *buf, size_t len);

/* Number of CPUs set in mask. */
unsigned cpumask_weight(const struct em_cpumask *mask);

#endif
