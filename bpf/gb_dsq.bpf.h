/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * gb_dsq.bpf.h - the domain queues as dispatch and enqueue see them: one DSQ per model domain
 * (created in ops.init, ordered by virtual deadline), a count per domain that lets a CPU skip
 * queues surely empty, and each queue's head read for gb_dispatch_plan (gb_fill_head).
 */
#ifndef GEARBOX_GB_DSQ_BPF_H
#define GEARBOX_GB_DSQ_BPF_H

/*
 * Tasks enqueued for domain d that have not run since: never fewer than its queue holds
 * (counted at enqueue, before the kernel inserts the task, and uncounted when the task stops
 * running, long after it left), so a CPU going idle skips the queues whose count is zero -- a
 * DSQ lookup is a hash-table search in the kernel, and dispatch on an idle machine made three.
 * The count may exceed the queue (a task running now, or one that left the scheduler while
 * queued): that costs a lookup, never a stranded task.  Per task, gb_task_ctx.qdom says where
 * it is counted.
 */
s64 gb_dom_queued[EM_MAX_DOMAINS];

/* Is domain d's queue surely empty (see gb_dom_queued)? */
static __always_inline bool gb_known_empty(u32 d)
{
	return *(volatile s64 *)&gb_dom_queued[d & (EM_MAX_DOMAINS - 1)] <= 0;
}

/* Count tc as queued for domain d (d < 0: as not queued), see gb_dom_queued. */
static __always_inline void gb_count_queued(struct gb_task_ctx *tc, s32 d)
{
	if (tc->qdom == d)
		return;
	if (tc->qdom >= 0)
		__sync_fetch_and_add(&gb_dom_queued[tc->qdom & (EM_MAX_DOMAINS - 1)], -1);
	if (d >= 0)
		__sync_fetch_and_add(&gb_dom_queued[d & (EM_MAX_DOMAINS - 1)], 1);
	tc->qdom = d;
}

/*
 * Domain d's queued demand spread over its online CPUs, read fresh: two CPUs changing one
 * domain's sum at once may write their spreads in either order, and the next change writes the
 * right one.  A subprogram, checked once, not on every path of its callers.
 */
GB_SUBPROG int gb_demand_apply(u32 d)
{
	if (d >= GB_SCX_MAX_DOMAINS)
		return 0;
	gb_demand_spread(gb_m(), gb_cpus, d, *(volatile u32 *)&gb_dom_qutil[d]);
	gb_freq_touch(-1, d);
	return 0;
}

/* tc's task no longer waits in a domain's queue (gb_demand_leave): off the domain's sum and
 * the waiting_util of the CPU it was on; the domain it waited in, GB_DEMAND_NONE for none. */
static __always_inline u32 gb_demand_off(struct gb_task_ctx *tc)
{
	u32 d, c, u = gb_demand_leave(&tc->s, &d, &c);

	if (!u || d >= GB_SCX_MAX_DOMAINS)
		return d;
	if (c < EM_MAX_CPUS) {
		__sync_fetch_and_add(&gb_cpus[c].waiting_util, -u);
		gb_freq_touch((s32)c, gb_cpu_dom((s32)c));
	}
	__sync_fetch_and_add(&gb_dom_qutil[d], -u);
	gb_demand_apply(d);
	return d;
}

/* tc's task, on task_cpu, joins domain d's queue (gb_demand_join); gb_demand_off first. */
static __always_inline void gb_demand_on(struct gb_task_ctx *tc, u32 d, s32 task_cpu)
{
	u32 u, c;

	if (d >= GB_SCX_MAX_DOMAINS)
		return;
	u = gb_demand_join(&tc->s, d, task_cpu);
	c = tc->s.queued_cpu;
	if (c < EM_MAX_CPUS) {
		__sync_fetch_and_add(&gb_cpus[c].waiting_util, u);
		gb_freq_touch((s32)c, gb_cpu_dom((s32)c));
	}
	__sync_fetch_and_add(&gb_dom_qutil[d], u);
	gb_demand_apply(d);
}

/* dispatch's view of the domain queues (gb_dispatch_plan): too big for the stack */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, u32);
	__type(value, struct gb_disp_in);
} gb_disp SEC(".maps");

static __always_inline struct gb_disp_in *gb_disp_ctx(void)
{
	u32 k = 0;

	return bpf_map_lookup_elem(&gb_disp, &k);
}

/*
 * Domain d's queue for gb_dispatch_plan: its head (the task dispatch would take) and, for a pull
 * (pull: another domain's queue), the head task as placement reads it and how long it has waited
 * as of *now (gb_fill_head), the clock read here at the first head a pull reads (0: not yet;
 * dispatch's callers mostly find every queue empty and need no clock).  Queues surely empty
 * (gb_known_empty) are not looked up.
 */
static __always_inline void gb_read_head(struct gb_dsq_head *h, u32 d, u64 *now, bool pull)
{
	struct task_struct *head;
	struct gb_task_ctx *htc;
	struct gb_ktask kt;

	h->queued = 0;
	if (gb_known_empty(d))
		return;
	head = scx_bpf_dsq_peek(d);
	if (!head)
		return;
	h->weight = head->scx.weight;
	h->slice_ns = head->scx.slice;
	if (!pull) {
		/* its own queue: only the head's key and its grouping class (the slice it was
		 * queued with, gb_slice_long) are compared; the class without a branch, each of
		 * which the verifier follows through the rest of dispatch */
		h->queued = 1;
		h->deadline = head->scx.dsq_vtime;
		h->slice_long = (u8)((gb_slice_ns - head->scx.slice) >> 63);
		return;
	}
	if (!*now)
		*now = scx_bpf_now();
	gb_read_sched(head, &kt);
	htc = gb_tctx(head);
	gb_fill_head(h, htc ? &htc->s : NULL, &kt, scx_bpf_task_cpu(head), head->scx.dsq_vtime,
		     *now, gb_mode);
}

#endif /* GEARBOX_GB_DSQ_BPF_H */
