/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * em_netlink.h - the kernel's energy model through the "dev-energymodel" generic netlink
 * family (Linux 7.2+: Documentation/netlink/specs/dev-energymodel.yaml,
 * include/uapi/linux/dev_energymodel.h, kernel/power/em_netlink.c).
 *
 *   1. nlctrl CTRL_CMD_GETFAMILY "dev-energymodel" gives the family id (ENOENT: the kernel has
 *      no such family - older than 7.2, or built without CONFIG_ENERGY_MODEL);
 *   2. GET_PERF_DOMAINS as a dump: per domain its id, flags (MICROWATTS, SKIP_INEFFICIENCIES,
 *      ARTIFICIAL) and its CPUs (one u64 attribute per CPU);
 *   3. GET_PERF_TABLE (a "do" request: the spec has no dump for it) per domain id: the states,
 *      each performance (capacity scale), frequency (kHz), power (uW with MICROWATTS), cost
 *      and flags (INEFFICIENT).
 *
 * Plain AF_NETLINK: three requests do not justify a library.  The socket is behind a small
 * transport (emnl_xport) so that a test can play the kernel.  This layer knows nothing of
 * em-profiles (kernel_em.h converts), so that a static guest probe can link it alone.
 */
#ifndef GEARBOX_PROF_EM_NETLINK_H
#define GEARBOX_PROF_EM_NETLINK_H

#include <stddef.h>
#include <sys/types.h>

#include "em_model.h"
#include "gb_err.h"

#define EMNL_FAMILY_NAME    "dev-energymodel"
#define EMNL_FAMILY_VERSION 1

/* From include/uapi/linux/dev_energymodel.h (7.2): Debian bookworm's headers predate it. */
enum {
	EMNL_PD_FLAG_MICROWATTS = 1,
	EMNL_PD_FLAG_SKIP_INEFFICIENCIES = 2,
	EMNL_PD_FLAG_ARTIFICIAL = 4,
};
enum { EMNL_PS_FLAG_INEFFICIENT = 1 };
enum {
	EMNL_A_PERF_DOMAIN_PAD = 1,
	EMNL_A_PERF_DOMAIN_PERF_DOMAIN_ID, /* u32 */
	EMNL_A_PERF_DOMAIN_FLAGS,	   /* u64 */
	EMNL_A_PERF_DOMAIN_CPUS,	   /* u64, multi-attr */
};
enum {
	EMNL_A_PERF_TABLE_PERF_DOMAIN_ID = 1, /* u32 */
	EMNL_A_PERF_TABLE_PERF_STATE,	      /* nest, multi-attr */
};
enum {
	EMNL_A_PERF_STATE_PAD = 1,
	EMNL_A_PERF_STATE_PERFORMANCE, /* all u64 */
	EMNL_A_PERF_STATE_FREQUENCY,
	EMNL_A_PERF_STATE_POWER,
	EMNL_A_PERF_STATE_COST,
	EMNL_A_PERF_STATE_FLAGS,
};
enum {
	EMNL_CMD_GET_PERF_DOMAINS = 1,
	EMNL_CMD_GET_PERF_TABLE,
	EMNL_CMD_PERF_DOMAIN_CREATED,
	EMNL_CMD_PERF_DOMAIN_UPDATED,
	EMNL_CMD_PERF_DOMAIN_DELETED,
};

#define EMNL_MAX_DOMAINS 64
#define EMNL_MAX_STATES	 64 /* kept per domain; nr_states counts them all */

struct emnl_state {
	u64 performance, frequency_khz, power, cost, flags;
};

struct emnl_domain {
	u32 id;
	u64 flags;
	struct em_cpumask cpus;
	u32 nr_cpus;
	u32 bad_cpus; /* CPU ids >= EM_MAX_CPUS, not kept */
	u32 nr_states;
	struct emnl_state states[EMNL_MAX_STATES];
};

struct emnl_model {
	u16 family_id;
	u32 family_version;
	u32 nr_domains;
	struct emnl_domain dom[EMNL_MAX_DOMAINS];
};

/* One request out, its reply datagrams back.  recv returns the datagram's full length
 * (MSG_TRUNC semantics: more than len means it did not fit), 0..., or -errno. */
struct emnl_xport {
	void *ctx;
	int (*send)(void *ctx, const void *msg, size_t len);
	ssize_t (*recv)(void *ctx, void *buf, size_t len);
};

/* A NETLINK_GENERIC socket (receive timeout 2 s, so that no reply cannot hang us). */
int emnl_socket_open(struct emnl_xport *x, struct gb_err *err);
void emnl_socket_close(struct emnl_xport *x);

/* emnl_resolve - the family's id and version from nlctrl; -ENOENT (with the message below)
 * when the kernel has no such family. */
int emnl_resolve(struct emnl_xport *x, u16 *family_id, u32 *version, struct gb_err *err);

/* emnl_read_table - get-perf-table of the domain d->id into d's states.  The kernel answers
 * -EINVAL for an id it does not have. */
int emnl_read_table(struct emnl_xport *x, u16 family_id, struct emnl_domain *d, struct gb_err *err);

/* emnl_read - resolves the family and reads every perf domain and its table into m.
 * -ENOENT: no such family (the message says so and names the kernel); 0 domains is success
 * (x86 without an EM registers none).  Malformed replies: -EBADMSG. */
int emnl_read(struct emnl_xport *x, struct emnl_model *m, struct gb_err *err);

#endif
