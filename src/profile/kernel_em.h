/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * kernel_em.h - the kernel's current energy model, which `gearbox profile --report` compares
 * the measured model with.  Two ways to read it, both giving the em-profile that
 * em_import_debugfs() gives:
 *
 *   netlink   the dev-energymodel generic netlink family (Linux 7.2+, em_netlink.h): a uapi
 *             with typed values, no debugfs mount needed;
 *   debugfs   /sys/kernel/debug/energy_model (em_import.h): not an ABI (three layouts so
 *             far), and needs debugfs mounted.
 *
 * auto tries netlink first and falls back to debugfs when the family is absent or lists no
 * CPU perf domain.  Both read the same table in the kernel (em_perf_state: performance,
 * frequency, power, cost, flags), so where both exist they agree.
 */
#ifndef GEARBOX_PROF_KERNEL_EM_H
#define GEARBOX_PROF_KERNEL_EM_H

#include <stddef.h>

#include "em_netlink.h"
#include "em_profile.h"

enum prof_kem_src {
	PROF_KEM_AUTO,
	PROF_KEM_NETLINK,
	PROF_KEM_DEBUGFS,
	PROF_KEM_NONE,
};

/* "auto" | "netlink" | "debugfs" | "none"; -EINVAL otherwise. */
int prof_kem_parse(const char *s, enum prof_kem_src *src);

/*
 * prof_kem_from_netlink - m as an em-profile.  Domains without CPUs are devices (GPU,
 * DSP through devfreq) and are left out; so is a domain whose CPUs are not exactly one
 * cpufreq policy's related_cpus under sysfs_cpu (when policies are there to check against):
 * 7.2's em_netlink.c sends a device domain's "CPUs" from past the end of its allocation.
 * skipped (may be NULL) counts what was left out.  -ENOENT when no CPU domain is left;
 * -EINVAL for an artificial EM or power in an abstract scale (as em_import_debugfs).
 */
int prof_kem_from_netlink(const struct emnl_model *m, const char *sysfs_cpu,
			  struct em_profile *prof, u32 *skipped, struct gb_err *err);

/*
 * prof_kernel_em - reads the kernel's EM from src.  On success name (e.g. "the kernel's EM
 * (netlink dev-energymodel)") says where it came from.  On failure err says why for each
 * source tried ("netlink: ...; debugfs: ..."); -ENOENT when there is no kernel EM.
 */
int prof_kernel_em(enum prof_kem_src src, const char *debugfs_dir, const char *sysfs_cpu,
		   struct em_profile *prof, char *name, size_t name_len, struct gb_err *err);

#endif
