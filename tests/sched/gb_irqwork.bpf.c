// SPDX-License-Identifier: GPL-2.0-only
/*
 * gb_irqwork.bpf.c - a snapshot of every CPU's queue of raised irq_work (the kernel's per-CPU
 * raised_list), for the CPU hotplug test: which entries are queued, by address and function.
 * Run on demand through BPF_PROG_TEST_RUN (a syscall program); see gb-irqwork.c.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>

#define GB_IW_CPUS    64
#define GB_IW_ENTRIES 8

char _license[] SEC("license") = "GPL";

extern const struct llist_head raised_list __ksym;

u32 gb_iw_nr_cpus;			   /* set by the loader */
u64 gb_iw_node[GB_IW_CPUS][GB_IW_ENTRIES]; /* the queued irq_work's address, 0 after the last */
u64 gb_iw_func[GB_IW_CPUS][GB_IW_ENTRIES]; /* and its function */

SEC("syscall")
int gb_iw_snapshot(void *ctx)
{
	u32 c, k;

	for (c = 0; c < GB_IW_CPUS && c < gb_iw_nr_cpus; c++) {
		const struct llist_head *h = bpf_per_cpu_ptr(&raised_list, c);
		struct llist_node *n = NULL;

		for (k = 0; k < GB_IW_ENTRIES; k++)
			gb_iw_node[c][k] = gb_iw_func[c][k] = 0;
		if (!h)
			continue;
		bpf_probe_read_kernel(&n, sizeof(n), &h->first);
		/* the node is the first member of struct irq_work (node.llist) */
		for (k = 0; k < GB_IW_ENTRIES && n; k++) {
			struct irq_work *w = (struct irq_work *)n;

			gb_iw_node[c][k] = (u64)n;
			bpf_probe_read_kernel(&gb_iw_func[c][k], sizeof(u64), &w->func);
			bpf_probe_read_kernel(&n, sizeof(n), &n->next);
		}
	}
	return 0;
}
