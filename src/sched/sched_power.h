/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * sched_power.h - the platform's power profile, for `scx_gearbox --mode auto`.
 *
 * Two sources, the first present wins:
 *   1. the ACPI platform profile, /sys/firmware/acpi/platform_profile (what
 *      power-profiles-daemon sets on laptops that have one): low-power, cool, quiet -> energy;
 *      balanced -> balanced; balanced-performance, performance -> performance;
 *   2. the cpufreq energy/performance preference of the first policy,
 *      /sys/devices/system/cpu/cpufreq/policyN/energy_performance_preference (intel_pstate,
 *      amd-pstate, and what power-profiles-daemon sets where there is no platform profile):
 *      power, balance_power -> energy; default, balance_performance -> balanced;
 *      performance -> performance.
 * Arm phones and boards usually have neither; auto then stays at energy and says so.
 * $GEARBOX_SYSFS replaces /sys (tests).
 */
#ifndef GEARBOX_SCHED_POWER_H
#define GEARBOX_SCHED_POWER_H

#include <stddef.h>

/* The mode (enum gb_mode) a profile name maps to; -1 for a name it does not know. */
int sched_mode_of_profile(const char *name);

/*
 * Reads the power profile.  Returns the mode and writes "SOURCE VALUE" into what (for the log:
 * "platform_profile balanced", "energy_performance_preference power"); -1 with what empty when
 * no source exists, -1 with what naming the source when its value is not one we know.
 */
int sched_power_profile(char *what, size_t len);

#endif
