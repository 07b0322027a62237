/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * gb_kick.bpf.h - waking CPUs: whether this CPU may kick at all (gb_may_kick, the CPU hotplug
 * workaround of docs/scheduler.md), which CPU to wake for a task queued on a domain, and which
 * to preempt for it (wake-up preemption, src/policy/gb_preempt.h).
 */
#ifndef GEARBOX_GB_KICK_BPF_H
#define GEARBOX_GB_KICK_BPF_H

/* Every CPU of the machine (also beyond the model): 1 from its cpu_online to its cpu_offline,
 * when it may kick (gb_may_kick).  The loader sets the CPUs online at load. */
u8 gb_cpu_up[EM_MAX_CPUS];

/*
 * May this CPU kick another?  scx_bpf_kick_cpu() queues an irq_work on the calling CPU, and
 * enqueue still runs on a CPU going offline after its last irq_work flush (smpcfd_dying_cpu).
 * An irq_work queued then never runs and stays on the CPU's list, pending: when the CPU is back
 * its kicks are dropped, and every later irq_work queued there (an RCU or SRCU wake-up,
 * sched_ext's disable, a ring buffer's wake-up) finds the list not empty, raises no interrupt
 * and waits until the CPU's next offline -- the hotplug wedge of docs/scheduler.md.  So no
 * kick from a CPU from its cpu_offline to its cpu_online (counter `nokick`); a task queued
 * then has the kernel's own resched of its run queue's CPU (wakeup_preempt: an idle CPU
 * runs dispatch), so it is queued in that CPU's domain.
 */
static __always_inline bool gb_may_kick(void)
{
	s32 self = bpf_get_smp_processor_id();

	if (self >= 0 && self < GB_SCX_MAX_CPUS && gb_cpu_up[(u32)self & (EM_MAX_CPUS - 1)])
		return true;
	gb_stat(GB_STAT_NOKICK);
	return false;
}

/*
 * The CPU a task woken into domain d's queue preempts (gb_preempt_cpu, for a task allowed on
 * allowed_bits with the threshold preempt_dl), no longer a candidate once chosen
 * (gb_preempt_kicked); GB_NO_CPU if none.  A subprogram: the verifier checks its CPU loop
 * once, not once per path through enqueue.
 */
GB_SUBPROG int gb_preempt_pick(u32 d, u64 allowed_bits, u64 preempt_dl)
{
	struct em_cpumask allowed;
	s32 c;

	gb_fill_cpumask(&allowed, allowed_bits);
	c = gb_preempt_cpu(gb_m(), gb_cpus, &allowed, d, preempt_dl);
	if (c >= 0)
		gb_preempt_kicked(&gb_cpus[(u32)c & (EM_MAX_CPUS - 1)]);
	return c;
}

/*
 * A task (t, as a pull reads it) was queued as out says (in: the enqueue's input): wake the
 * CPU gb_kick_cpu names; when that is not an idle CPU, unless wake-up preemption is off, a wake-up
 * preempts the task of the CPU gb_preempt_cpu names, if any (SCX_KICK_PREEMPT: gb_preempt.h).
 * A subprogram, checked once: inlined, the search over the other domains' idle CPUs with the
 * pull question for each was followed on every path through enqueue.
 */
GB_SUBPROG int gb_kick_domain(const struct gb_enq_in *in, const struct gb_task *t,
			      const struct gb_enq_out *out)
{
	s32 self = bpf_get_smp_processor_id(), to, cpu;
	struct em_cpumask idle;
	u32 d;

	if (!in || !t || !out)
		return 0;
	cpu = out->cpu;
	d = out->dom;
	/* cpu bounded here, where the verifier sees it: the masks are read by its word */
	if (cpu >= GB_SCX_MAX_CPUS || d >= GB_SCX_MAX_DOMAINS ||
	    gb_kick_skip(in->pinned, cpu, self))
		return 0;
	gb_fill_cpumask(&idle, gb_idle_bits());
	to = gb_kick_cpu(gb_m(), gb_cpus, &idle, t, in->pinned, cpu, d, self,
			 gb_pull_after_ns / 1000);
	if (to >= 0)
		scx_bpf_kick_cpu(to, SCX_KICK_IDLE);
	if (!gb_wake_preempt || (to >= 0 && em_cpumask_test(&idle, (u32)to)) || !out->preempt)
		return 0;
	to = gb_preempt_pick(d, t->allowed.bits[0], out->preempt_dl);
	if (to < 0)
		return 0;
	gb_stat(GB_STAT_PREEMPT);
	scx_bpf_kick_cpu(to, SCX_KICK_PREEMPT);
	return 0;
}

#endif /* GEARBOX_GB_KICK_BPF_H */
