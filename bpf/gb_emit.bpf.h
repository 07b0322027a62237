/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * gb_emit.bpf.h - the ring buffer of decisions (struct gb_event, gearbox_abi.h) the loader
 * turns into the stream's decision records.
 */
#ifndef GEARBOX_GB_EMIT_BPF_H
#define GEARBOX_GB_EMIT_BPF_H

#define GB_RB_BYTES	 (256 * 1024)
#define GB_RB_WAKE_BYTES (GB_RB_BYTES / 2)

struct {
	__uint(type, BPF_MAP_TYPE_RINGBUF);
	__uint(max_entries, GB_RB_BYTES);
} gb_events SEC(".maps");

u32 gb_stream_readers; /* set by the loader: no readers, no records */

/* A placement or misfit decision that moved p (from: its CPU before, -1 for a new task). */
static __always_inline void gb_emit(struct task_struct *p, struct gb_task_ctx *tc, s32 from,
				    const struct gb_decision *dec)
{
	struct gb_event *e;

	/* the loader would only drop it: a record costs a reservation and a copy of comm */
	if (!*(volatile u32 *)&gb_stream_readers)
		return;
	e = bpf_ringbuf_reserve(&gb_events, sizeof(*e), 0);
	if (!e) {
		gb_stat(GB_STAT_EVENTS_LOST);
		return;
	}
	e->t_ns = scx_bpf_now();
	e->pid = p->pid;
	e->from = from;
	e->to = dec->cpu;
	e->reason = dec->reason;
	e->energy_delta = dec->energy_delta;
	e->util = gb_task_util_est(&tc->s.pelt);
	e->uclamp_min = tc->s.uclamp_min;
	e->uclamp_max = tc->s.uclamp_max;
	e->opp_idx = dec->opp_idx;
	e->prev_opp_idx = dec->prev_opp_idx;
	e->pad = 0;
	bpf_probe_read_kernel_str(e->comm, sizeof(e->comm), p->comm);
	/*
	 * No wake-up per record: the loader polls the ring at every stats interval anyway, and a
	 * wake-up is an irq_work, whose pending state the ring's teardown spins on
	 * (ringbuf_map_free -> irq_work_sync): with one left pending on a CPU going offline the
	 * previous instance's teardown spun on that CPU and the hotplug never finished.  Only a
	 * ring more than half full wakes the loader, so that records are not lost.
	 */
	bpf_ringbuf_submit(e, bpf_ringbuf_query(&gb_events, BPF_RB_AVAIL_DATA) > GB_RB_WAKE_BYTES
				  ? BPF_RB_FORCE_WAKEUP
				  : BPF_RB_NO_WAKEUP);
}

#endif /* GEARBOX_GB_EMIT_BPF_H */
