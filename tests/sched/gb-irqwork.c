// SPDX-License-Identifier: GPL-2.0-only
/*
 * gb-irqwork - irq_work left queued on a CPU (static, in the guest of the CPU hotplug test).
 *
 *   gb-irqwork SAMPLES INTERVAL_MS
 *
 * Takes SAMPLES snapshots of every CPU's raised irq_work queue (gb_irqwork.bpf.c), INTERVAL_MS
 * apart.  An irq_work runs within microseconds of being queued (a self-interrupt), so one that
 * is in every snapshot is stuck: the CPU queued it where it could not run (for example after
 * its last flush before going offline) and it stays queued after the CPU is back, with every
 * irq_work queued on that CPU after it.  Prints one line per CPU with stuck entries,
 * "cpuN: FUNC FUNC ...", and exits 1 if there is one, 0 if none, 2 on an error.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

typedef uint32_t u32;
typedef uint64_t u64;
#include "gb_irqwork.skel.h"

#define CPUS	64
#define ENTRIES 8

/* The kernel text symbol at addr, from /proc/kallsyms; "?" when not found. */
static void symbol(u64 addr, char *name, size_t len)
{
	FILE *f = fopen("/proc/kallsyms", "r");
	char line[256], sym[128], type;
	unsigned long long a;

	snprintf(name, len, "?%llx", (unsigned long long)addr);
	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "%llx %c %127s", &a, &type, sym) == 3 && a == addr) {
			snprintf(name, len, "%s", sym);
			break;
		}
	if (f)
		fclose(f);
}

static int snapshot(struct gb_irqwork *skel, u64 node[CPUS][ENTRIES], u64 func[CPUS][ENTRIES])
{
	LIBBPF_OPTS(bpf_test_run_opts, opts);

	if (bpf_prog_test_run_opts(bpf_program__fd(skel->progs.gb_iw_snapshot), &opts))
		return -1;
	memcpy(node, skel->bss->gb_iw_node, sizeof(skel->bss->gb_iw_node));
	memcpy(func, skel->bss->gb_iw_func, sizeof(skel->bss->gb_iw_func));
	return 0;
}

int main(int argc, char **argv)
{
	static u64 first[CPUS][ENTRIES], ffunc[CPUS][ENTRIES], node[CPUS][ENTRIES],
	    func[CPUS][ENTRIES];
	static int seen[CPUS][ENTRIES];
	int samples = argc > 1 ? atoi(argv[1]) : 0, ms = argc > 2 ? atoi(argv[2]) : 0;
	int ncpu = libbpf_num_possible_cpus(), i, c, k, j, stuck = 0;
	struct gb_irqwork *skel;

	if (argc != 3 || samples < 2 || ms < 1) {
		fprintf(stderr, "usage: gb-irqwork SAMPLES(>=2) INTERVAL_MS\n");
		return 2;
	}
	skel = gb_irqwork__open();
	if (!skel)
		return 2;
	skel->bss->gb_iw_nr_cpus = (u32)(ncpu > 0 && ncpu < CPUS ? ncpu : CPUS);
	if (gb_irqwork__load(skel) || snapshot(skel, first, ffunc)) {
		fprintf(stderr, "gb-irqwork: loading or running the snapshot failed\n");
		gb_irqwork__destroy(skel);
		return 2;
	}
	for (c = 0; c < CPUS; c++)
		for (k = 0; k < ENTRIES; k++)
			seen[c][k] = first[c][k] != 0;
	for (i = 1; i < samples; i++) {
		usleep((useconds_t)ms * 1000);
		if (snapshot(skel, node, func)) {
			gb_irqwork__destroy(skel);
			return 2;
		}
		for (c = 0; c < CPUS; c++)
			for (k = 0; k < ENTRIES; k++) {
				int found = 0;

				for (j = 0; j < ENTRIES && node[c][j]; j++)
					found |= node[c][j] == first[c][k];
				seen[c][k] &= found;
			}
	}
	for (c = 0; c < CPUS; c++) {
		char name[128];
		int any = 0;

		for (k = 0; k < ENTRIES; k++) {
			if (!seen[c][k])
				continue;
			symbol(ffunc[c][k], name, sizeof(name));
			if (!any)
				printf("cpu%d:", c);
			printf(" %s", name);
			any = 1;
		}
		if (any) {
			printf("\n");
			stuck = 1;
		}
	}
	gb_irqwork__destroy(skel);
	return stuck;
}
