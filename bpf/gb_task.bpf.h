/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * gb_task.bpf.h - the per-task state (the core's gb_tstate in task storage) and what the
 * adapter reads of a task_struct to fill it: weight, custom slice, affinity and clamps (CO-RE,
 * into struct gb_ktask of gb_fill.h), and the tracking calls made on the kernel's events:
 * wake-up, run time accounted, the CPU's current task.
 */
#ifndef GEARBOX_GB_TASK_BPF_H
#define GEARBOX_GB_TASK_BPF_H

/* Per task: struct gb_task_ctx (gb_fill.h, where a native reader finds its layout). */
struct {
	__uint(type, BPF_MAP_TYPE_TASK_STORAGE);
	__uint(map_flags, BPF_F_NO_PREALLOC);
	__type(key, int);
	__type(value, struct gb_task_ctx);
} gb_tasks SEC(".maps");

static __always_inline struct gb_task_ctx *gb_tctx(struct task_struct *p)
{
	return bpf_task_storage_get(&gb_tasks, p, 0, 0);
}

/*
 * The CPU p is on (task_cpu(p)), read from the task: thread_info.cpu, where every architecture
 * that keeps thread_info in the task has it since 5.16, is what the kfunc scx_bpf_task_cpu()
 * returns, and a load costs a fraction of a call (enqueue, running and stopping ask at every
 * wake-up).  The kfunc where the field is not there.
 */
static __always_inline s32 gb_task_cpu(struct task_struct *p)
{
	if (bpf_core_field_exists(p->thread_info.cpu))
		return (s32)p->thread_info.cpu;
	return scx_bpf_task_cpu(p);
}

/* A forked task's first utilization, on the CPU it is first placed on (gb_track_fork), once:
 * at select_cpu's choice, or at its first enqueue when select_cpu is not asked (one CPU). */
static __always_inline void gb_fork_util(struct gb_task_ctx *tc, s32 cpu)
{
	u32 c = (u32)cpu & (EM_MAX_CPUS - 1);

	if (!tc->fresh)
		return;
	tc->fresh = 0;
	gb_track_fork(&tc->s, em_domain_capacity(gb_pd(gb_m(), gb_cpu_dom(cpu))), gb_cpus[c].util);
}

/*
 * uclamp_req as a CO-RE flavor: a kernel without CONFIG_UCLAMP_TASK (Debian's arm64 cloud
 * kernel) has neither the field nor struct uclamp_se, so the code names its own copies of
 * both; libbpf relocates them by name to the running kernel's (the ___ suffix is a flavor),
 * and bpf_core_field_exists() is false where the kernel has no clamps: the task reads as
 * unclamped.  Indices as the kernel's enum uclamp_id.
 */
struct uclamp_se___gb {
	unsigned int value : 11;
	unsigned int bucket_id : 3;
	unsigned int active : 1;
	unsigned int user_defined : 1;
} __attribute__((preserve_access_index));

struct task_struct___gb_uclamp {
	struct uclamp_se___gb uclamp_req[2];
} __attribute__((preserve_access_index));

#define GB_UCLAMP_REQ_MIN 0 /* UCLAMP_MIN */
#define GB_UCLAMP_REQ_MAX 1 /* UCLAMP_MAX */

/* uclamp as sched_setattr() set it. */
static __always_inline void gb_read_clamps(struct task_struct *p, struct gb_ktask *kt)
{
	struct task_struct___gb_uclamp *u = (void *)p;
	struct uclamp_se___gb *uc;

	kt->has_uclamp = bpf_core_field_exists(u->uclamp_req);
	kt->uclamp_req_min = 0;
	kt->uclamp_req_max = GB_UCLAMP_NONE_MAX;
	if (!kt->has_uclamp)
		return;
	uc = &u->uclamp_req[GB_UCLAMP_REQ_MIN];
	kt->uclamp_req_min = BPF_CORE_READ_BITFIELD(uc, value);
	uc = &u->uclamp_req[GB_UCLAMP_REQ_MAX];
	kt->uclamp_req_max = BPF_CORE_READ_BITFIELD(uc, value);
}

/* Weight, custom slice and affinity. */
static __always_inline void gb_read_sched(struct task_struct *p, struct gb_ktask *kt)
{
	kt->weight = p->scx.weight;
	kt->custom_slice = bpf_core_field_exists(p->se.custom_slice) ? p->se.custom_slice : 0;
	kt->slice_ns = p->se.slice;
	kt->cpus_bits = p->cpus_ptr->bits[0];
	kt->nr_cpus_allowed = p->nr_cpus_allowed;
}

/* The clamps into the task's state (at the wake-up, enqueue and the tick). */
static __always_inline void gb_read_uclamp(struct task_struct *p, struct gb_task_ctx *tc)
{
	struct gb_ktask kt;

	gb_read_clamps(p, &kt);
	gb_fill_clamps(&tc->s, &kt);
}

/* The fields of the task's state that mirror the kernel's weight and slice. */
static __always_inline void gb_fill_tstate(struct task_struct *p, struct gb_task_ctx *tc)
{
	struct gb_ktask kt;

	gb_read_sched(p, &kt);
	gb_fill_sched(&tc->s, &kt);
}

/* The policy's gb_task for the task of state tc, which the caller read into kt
 * (gb_read_sched), in the placement context. */
static __always_inline struct gb_place_ctx *gb_fill_place(struct gb_task_ctx *tc,
							  const struct gb_ktask *kt, s32 prev_cpu)
{
	struct gb_place_ctx *x = gb_place_ctx();

	if (!x)
		return NULL;
	gb_fill_task(&x->t, &tc->s, kt, prev_cpu, gb_mode);
	x->min_cap = 0;
	x->max_cap = 0;
	return x;
}

/*
 * The task of state tc, which the caller read into kt (gb_read_sched: once per callback), wakes
 * up on task_cpu, the CPU it last ran on: what runnable would do, done by select_cpu (or
 * enqueue, for the wake-ups the kernel places without asking: a task allowed on one CPU) -- a
 * callback less on every wake-up (gb_track_wake).
 */
static __always_inline void gb_wake(struct gb_task_ctx *tc, const struct gb_ktask *kt, u64 now,
				    s32 task_cpu)
{
	gb_fill_sched(&tc->s, kt);
	gb_track_wake(&tc->s, now, gb_m()->nr_domains, gb_dom_vtime, gb_slice_ns,
		      gb_cpus[(u32)task_cpu & (EM_MAX_CPUS - 1)].perf_cur);
}

/*
 * Account the time p ran on cpu since it was last accounted (by stopping, a tick or dispatch)
 * at the CPU's perf (gb_track_ran; d is cpu's domain, which the callers know), and add its
 * vtime charge to the task's total.  The kernel counted it (se.sum_exec_runtime, brought up to
 * date before each of those callbacks).  The CPU's frequency inputs change: unless touch, the
 * caller counts it (gb_freq_touch) after its other changes.
 */
static __always_inline void gb_account(struct task_struct *p, struct gb_task_ctx *tc, s32 cpu,
				       u32 d, bool touch)
{
	u32 c = (u32)cpu & (EM_MAX_CPUS - 1);
	u64 exec = p->se.sum_exec_runtime, ran_ns = exec - tc->exec_ns;

	u64 vtime = tc->s.vtime;

	tc->exec_ns = exec;
	tc->s.weight = p->scx.weight;
	gb_track_ran(&tc->s, &gb_cpu_pelt[c], &gb_cpus[c], scx_bpf_now(), ran_ns,
		     gb_perf_in(cpu, d));
	if (touch)
		gb_freq_touch(cpu, d);
	tc->vtime_charged += tc->s.vtime - vtime;
}

/*
 * p holds cpu, of domain d (running, select_cpu's direct dispatches, each tick): the CPU's
 * clamps and its task's utilization (gb_track_curr) feed the perf request (a change of its
 * inputs, gb_freq_touch) and the pricing of the CPU, its task's slice class slice-aware
 * grouping (gb_group.h); its task's pid is what the loader samples.
 */
static __always_inline void gb_note_curr(struct task_struct *p, struct gb_task_ctx *tc, s32 cpu,
					 u32 d)
{
	u32 c = (u32)cpu & (EM_MAX_CPUS - 1);

	gb_track_curr(&gb_cpus[c], &tc->s);
	gb_preempt_curr(&gb_cpus[c], gb_wake_preempt);
	gb_freq_touch(cpu, d);
	gb_cpus[c].slice_long = gb_slice_long(tc->s.slice_ns, gb_slice_ns);
	gb_curr[c].pid = p->pid;
}

#endif /* GEARBOX_GB_TASK_BPF_H */
