/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * gb_idle.bpf.h - idle state: the kernel's idle mask read as a word, the core's CPU table
 * refreshed from it (gb_fill_cpu_idle), and idle CPUs' utilization decayed to now
 * (gb_track_idle_decay), since nothing runs there to account it.
 */
#ifndef GEARBOX_GB_IDLE_BPF_H
#define GEARBOX_GB_IDLE_BPF_H

/* An idle CPU's utilization as of now_us (gb_track_idle_decay), once per GB_IDLE_DECAY_US. */
u64 gb_idle_decay_us[EM_MAX_CPUS]; /* when gb_idle_decay last ran for the CPU */

GB_SUBPROG int gb_idle_decay(u32 c, u64 now_us)
{
	u32 util;

	if (c >= EM_MAX_CPUS)
		return 0;
	util = gb_cpus[c].util;
	gb_track_idle_decay(&gb_cpu_pelt[c], &gb_cpus[c], &gb_idle_decay_us[c], now_us);
	/* the frequency request reads its util, not its runnable */
	if (gb_cpus[c].util != util)
		gb_freq_touch((s32)c, gb_cpu_dom((s32)c));
	return 0;
}

/* gb_idle_decay(), when due (gb_track_idle_decay's test, made before the call: a pipe's
 * wake-ups come every few microseconds). */
static __always_inline void gb_idle_decay_due(u32 c, u64 now_us)
{
	if (gb_track_idle_decay_due(gb_idle_decay_us[c & (EM_MAX_CPUS - 1)], now_us))
		gb_idle_decay(c, now_us);
}

/* The kernel's idle mask, as a word (see gb_mask_test). */
static __always_inline u64 gb_idle_bits(void)
{
	const struct cpumask *idle = scx_bpf_get_idle_cpumask();
	u64 bits = idle->bits[0];

	scx_bpf_put_idle_cpumask(idle);
	return bits;
}

#define GB_ALL_DOMAINS 0xffffffffu

/* CPU c's idle state from the kernel's idle mask (idle_bits), and an idle CPU's decay. */
static __always_inline void gb_refresh_cpu_idle(u32 c, u64 idle_bits, u64 now_us)
{
	struct gb_cpu *cs = &gb_cpus[c & (EM_MAX_CPUS - 1)];
	u32 umin = gb_rq_umin(cs), curr = cs->curr_util | cs->curr_runnable;

	gb_fill_cpu_idle(cs, idle_bits, c);
	/* a change of the frequency inputs: the run queue's uclamp_min (a task's, while one runs),
	 * or the running task's utilization cleared on a CPU found idle */
	if (gb_rq_umin(cs) != umin || (cs->idle && curr))
		gb_freq_touch((s32)c, gb_cpu_dom((s32)c));
	if (cs->idle)
		gb_idle_decay_due(c, now_us);
}

/*
 * Idle state from the kernel's idle mask (idle_bits): the one thing the policy must not guess.
 * For the CPUs of domain `only` (a walk of that domain's CPUs), or of every domain but `skip`
 * (GB_ALL_DOMAINS: none skipped), so that the wake-up shortcut, which reads its own domain
 * only, refreshes only that.
 */
static __always_inline void gb_refresh_idle(u64 idle_bits, u64 now_us, u32 only, u32 skip)
{
	u32 c;

	if (only != GB_ALL_DOMAINS) {
		GB_FOR_DOMAIN_CPU (c, gb_m(), only)
			gb_refresh_cpu_idle(c, idle_bits, now_us);
		return;
	}
	GB_LOOP (c, 0, gb_m()->nr_cpus) {
		if (gb_dom_of(gb_m(), c) != skip)
			gb_refresh_cpu_idle(c, idle_bits, now_us);
	}
}

#endif /* GEARBOX_GB_IDLE_BPF_H */
