// SPDX-License-Identifier: GPL-2.0-only
/*
 * scx_fifo - the smallest useful sched_ext scheduler: one global FIFO queue.
 *
 * A waking task that finds an idle CPU (the kernel's default idle selection) goes straight to
 * that CPU's local queue; every other task joins the tail of the global queue, which the core
 * drains into whichever CPU runs dry.  No weights, no priorities, no locality beyond idle
 * selection: it is the baseline that overhead measurements and `gearbox check` results of
 * real schedulers are compared with.  It ignores nice, so it fails the weights check by design.
 *
 * park_every = N (scx_fifo --park-every N) breaks it on purpose, to prove that `gearbox check`
 * catches starvation: every Nth workload process of gearbox check (comm "gearbox-check", not
 * the checker itself) is queued on a DSQ that nobody consumes.  The kernel's watchdog ejects
 * the scheduler after timeout_ms, which the loader lowers to 3 s in that mode.
 *
 * kick_on_enqueue (scx_fifo --kick) is the smallest scheduler that meets a kernel bug of CPU
 * hotplug (docs/scheduler.md, "CPU hotplug"): every enqueue kicks the task's CPU, and it has
 * (empty) cpu_online/cpu_offline callbacks, so that the kernel keeps it loaded across hotplug.
 * A kick from a CPU going offline, after its last irq_work flush, stays queued when the CPU is
 * back (tests/vm/guest-kick-repro.sh finds it).
 */
#include "gb_scx.bpf.h"

char _license[] SEC("license") = "GPL";

#define PARK_DSQ 1

const volatile __u32 park_every;
const volatile __s32 spare_tgid; /* the checker: parking it would stop the check itself */
const volatile bool kick_on_enqueue;

__u64 nr_direct, nr_queued, nr_parked;
GB_SCX_EXIT_INFO;

static bool should_park(struct task_struct *p)
{
	char comm[16];

	if (!park_every || p->tgid == spare_tgid || (__u32)p->pid % park_every)
		return false;
	bpf_probe_read_kernel_str(comm, sizeof(comm), p->comm);
	return bpf_strncmp(comm, sizeof(comm), "gearbox-check") == 0;
}

s32 BPF_STRUCT_OPS(fifo_select_cpu, struct task_struct *p, s32 prev_cpu, u64 wake_flags)
{
	bool is_idle = false;
	s32 cpu = scx_bpf_select_cpu_dfl(p, prev_cpu, wake_flags, &is_idle);

	if (is_idle && !should_park(p)) {
		__sync_fetch_and_add(&nr_direct, 1);
		scx_bpf_dsq_insert(p, SCX_DSQ_LOCAL, SCX_SLICE_DFL, 0);
	}
	return cpu;
}

void BPF_STRUCT_OPS(fifo_enqueue, struct task_struct *p, u64 enq_flags)
{
	if (should_park(p)) {
		__sync_fetch_and_add(&nr_parked, 1);
		scx_bpf_dsq_insert(p, PARK_DSQ, SCX_SLICE_DFL, enq_flags);
		return;
	}
	__sync_fetch_and_add(&nr_queued, 1);
	scx_bpf_dsq_insert(p, SCX_DSQ_GLOBAL, SCX_SLICE_DFL, enq_flags);
	if (kick_on_enqueue)
		scx_bpf_kick_cpu(scx_bpf_task_cpu(p), SCX_KICK_IDLE);
}

void BPF_STRUCT_OPS(fifo_cpu_online, s32 cpu)
{
}

void BPF_STRUCT_OPS(fifo_cpu_offline, s32 cpu)
{
}

s32 BPF_STRUCT_OPS_SLEEPABLE(fifo_init)
{
	return park_every ? scx_bpf_create_dsq(PARK_DSQ, -1) : 0;
}

void BPF_STRUCT_OPS(fifo_exit, struct scx_exit_info *ei)
{
	gb_scx_record_exit(ei, &gb_exit_kind, &gb_exit_code, gb_exit_msg);
}

GB_SCX_OPS(fifo_ops, .select_cpu = (void *)fifo_select_cpu, .enqueue = (void *)fifo_enqueue,
	   .init = (void *)fifo_init, .exit = (void *)fifo_exit, .name = "gb_fifo");

/* --kick: the same, kept loaded across CPU hotplug */
GB_SCX_OPS(fifo_kick_ops, .select_cpu = (void *)fifo_select_cpu, .enqueue = (void *)fifo_enqueue,
	   .cpu_online = (void *)fifo_cpu_online, .cpu_offline = (void *)fifo_cpu_offline,
	   .init = (void *)fifo_init, .exit = (void *)fifo_exit, .name = "gb_fifo_kick");
