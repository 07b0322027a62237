// SPDX-License-Identifier: GPL-2.0-only
/*
 * scx_fifo - the smallest useful sched_ext scheduler: one global FIFO queue.
 *
 * A waking task that finds an idle CPU (the kernel's default idle selection) goes straight to
 * that CPU's local queue; every other task joins the tail of the global queue, which the core
 * drains into whichever CPU runs dry.  No weights, no priorities, no locality beyond idle
 * selection: it is the baseline that overhead measurements and `gearbox check` results of
 * real schedulers are compared with.  It ignores nice, so it fails the weights check by design.
 */
#include "gb_scx.bpf.h"

char _license[] SEC("license") = "GPL";

__u64 nr_direct, nr_queued;
GB_SCX_EXIT_INFO;

s32 BPF_STRUCT_OPS(fifo_select_cpu, struct task_struct *p, s32 prev_cpu, u64 wake_flags)
{
	bool is_idle = false;
	s32 cpu = scx_bpf_select_cpu_dfl(p, prev_cpu, wake_flags, &is_idle);

	if (is_idle) {
		__sync_fetch_and_add(&nr_direct, 1);
		scx_bpf_dsq_insert(p, SCX_DSQ_LOCAL, SCX_SLICE_DFL, 0);
	}
	return cpu;
}

void BPF_STRUCT_OPS(fifo_enqueue, struct task_struct *p, u64 enq_flags)
{
	__sync_fetch_and_add(&nr_queued, 1);
	scx_bpf_dsq_insert(p, SCX_DSQ_GLOBAL, SCX_SLICE_DFL, enq_flags);
}

void BPF_STRUCT_OPS(fifo_exit, struct scx_exit_info *ei)
{
	gb_scx_record_exit(ei, &gb_exit_kind, &gb_exit_code, gb_exit_msg);
}

GB_SCX_OPS(fifo_ops,
	   .select_cpu = (void *)fifo_select_cpu,
	   .enqueue = (void *)fifo_enqueue,
	   .exit = (void *)fifo_exit,
	   .name = "gb_fifo");
