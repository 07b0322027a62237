// SPDX-License-Identifier: GPL-2.0-only
/*
 * gb-em-netlink-probe.c - the profiler's dev-energymodel netlink reader (src/profile/
 * em_netlink.c) on its own, linked static for the VM guest (tests/vm/guest-em-netlink.sh).
 *
 *   gb-em-netlink-probe            resolve the family, dump the perf domains and their tables
 *   gb-em-netlink-probe table ID   get-perf-table of domain ID only (the kernel's error path)
 *
 * Prints "family dev-energymodel id N version V", "perf domains: N", then per domain
 * "pd ID flags 0xF cpus C,C,... states N" and its states.  Exit 0, 1 on an error (the
 * message on stderr), 2 when the kernel has no such family.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "em_netlink.h"

static struct emnl_model m;

int main(int argc, char **argv)
{
	struct emnl_xport x;
	struct gb_err err;
	int ret;

	if (emnl_socket_open(&x, &err) < 0) {
		fprintf(stderr, "gb-em-netlink-probe: %s\n", err.msg);
		return 1;
	}
	if (argc == 3 && !strcmp(argv[1], "table")) {
		struct emnl_domain d = {.id = (u32)strtoul(argv[2], NULL, 0)};

		ret = emnl_resolve(&x, &m.family_id, &m.family_version, &err);
		if (ret == 0)
			ret = emnl_read_table(&x, m.family_id, &d, &err);
		if (ret == 0)
			printf("pd %u states %u\n", d.id, d.nr_states);
	} else {
		ret = emnl_read(&x, &m, &err);
	}
	emnl_socket_close(&x);
	if (ret < 0) {
		fprintf(stderr, "gb-em-netlink-probe: %s\n", err.msg);
		return ret == -ENOENT ? 2 : 1;
	}
	if (argc == 3)
		return 0;
	printf("family %s id %u version %u\n", EMNL_FAMILY_NAME, m.family_id, m.family_version);
	printf("perf domains: %u\n", m.nr_domains);
	for (u32 i = 0; i < m.nr_domains; i++) {
		const struct emnl_domain *d = &m.dom[i];
		const char *sep = "";

		printf("pd %u flags %#llx cpus ", d->id, (unsigned long long)d->flags);
		for (u32 c = 0; c < EM_MAX_CPUS; c++)
			if (em_cpumask_test(&d->cpus, c)) {
				printf("%s%u", sep, c);
				sep = ",";
			}
		printf("%s states %u\n", *sep ? "" : "none", d->nr_states);
		for (u32 k = 0; k < d->nr_states && k < EMNL_MAX_STATES; k++)
			printf("  state %u: %llu kHz perf %llu power %llu cost %llu flags %#llx\n",
			       k, (unsigned long long)d->states[k].frequency_khz,
			       (unsigned long long)d->states[k].performance,
			       (unsigned long long)d->states[k].power,
			       (unsigned long long)d->states[k].cost,
			       (unsigned long long)d->states[k].flags);
	}
	return 0;
}
