/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * gb_freq.h - frequency: the performance a CPU's load asks for (schedutil's 1.25 headroom within
 * the run queue's uclamp), the OPP a domain should run at for its busiest CPU, and the cpuperf
 * target that makes schedutil pick that OPP.
 */
#ifndef GEARBOX_GB_FREQ_H
#define GEARBOX_GB_FREQ_H

#include "gb_fit.h"

/* sugov_effective_cpu_perf(): util x 1.25, limited by uclamp_max, raised to uclamp_min. */
static __always_inline u32 gb_perf_request(u32 util, u32 uclamp_min, u32 uclamp_max)
{
	u32 perf = util + (util >> 2);

	if (perf > uclamp_max)
		perf = uclamp_max;
	return perf > uclamp_min ? perf : uclamp_min;
}

/*
 * gb_cpu_freq_util - the utilization (0..1024) CPU c asks a frequency for: its own util, and at
 * least the util_avg of the task running there (curr_util), which the kernel attaches to the
 * run queue a task joins.  Without it a task that moved to a CPU of another domain would run at
 * the OPP of that CPU's idle history until the CPU's own signal caught up with it.
 *
 * Plus the CPU's share of its domain's queued demand (queued_util, gb_demand.h): the kernel
 * attaches a waiting task's utilization to the run queue it waits on, and schedutil counts it
 * there.  Without it a domain whose CPUs were all busy, at a low OPP, with tasks waiting in its
 * queue stayed at that OPP: on gs101's video_call mid ran at 696-799 MHz with both CPUs busy
 * and the decoder waiting, and the decoder was late up to 10 times per run (mainline never).
 *
 * With wake-up preemption on for every task (--wake-preempt on, gb_preempt.h), at least that task's
 * runnable_avg too (curr_runnable), its waits for a CPU included, as schedutil's runnable boosting
 * (cpu_util_cfs_boost(): max of a run queue's util_avg and runnable_avg) raises a CPU whose
 * tasks wait for it.  Tasks wait in domain queues here, not on a CPU, so a CPU's own signal
 * never counts a wait, and a task's util_avg grows only while it runs, at most to the perf it
 * runs at: without it a domain whose short tasks preempt a long one again and again could
 * settle at an OPP where its CPUs are just under 80% busy, while the long task needs more
 * than that OPP gives it and is late at every frame.
 */
static __always_inline u32 gb_cpu_freq_util(const struct gb_cpu *c)
{
	return gb_max(gb_cpu_signal(c), gb_max(c->curr_util, c->curr_runnable)) + c->queued_util;
}

/*
 * gb_queue_perf_request - what domain d's least loaded online CPU asks carrying the domain's
 * whole queued demand (queued, the sum of its CPUs' queued_util): its own load (gb_cpu_freq_util
 * less its share of the queue) plus queued, within its run queue's uclamp.
 */
static __always_inline u32 gb_queue_perf_request(const struct em_model *m,
						 const struct gb_cpu *cpus, u32 d, u32 queued)
{
	/* lo, the least own load (a max of signals each at most 1024), starts above any */
	u32 c, lo = EM_CAPACITY_SCALE + 1, lo_umin = 0, lo_umax = EM_CAPACITY_SCALE;

	GB_FOR_DOMAIN_CPU (c, m, d) {
		const struct gb_cpu *cs = gb_cpu_at(cpus, c);
		u32 own;

		if (!cs->online)
			continue;
		own = gb_cpu_freq_util(cs) - cs->queued_util;
		if (own < lo) {
			lo = own;
			lo_umin = gb_rq_umin(cs);
			lo_umax = gb_rq_umax(cs);
		}
	}
	return gb_perf_request(lo + queued, lo_umin, lo_umax);
}

/*
 * gb_cpu_perf_need - what CPU cs asks for on its own: its frequency utilization
 * (gb_cpu_freq_util) x 1.25 within its run queue's uclamp (gb_perf_request).
 */
static __always_inline u32 gb_cpu_perf_need(const struct gb_cpu *cs)
{
	return gb_perf_request(gb_cpu_freq_util(cs), gb_rq_umin(cs), gb_rq_umax(cs));
}

/*
 * gb_cpu_opp_need - the OPP of domain d that CPU cs, one of d's, asks for on its own: the
 * efficient OPP serving gb_cpu_perf_need (at most the domain's capacity); the lowest one for
 * an offline CPU, which asks for nothing.  The OPP search is monotonic, so without queued
 * demand gb_domain_perf_target's OPP is the highest of its online CPUs' OPP needs: a host that
 * knows that no other CPU's inputs changed since it last computed the target, and that this
 * CPU's OPP need is the same, knows the target is the same (scx_gearbox's running,
 * bpf/gb_perf.bpf.h).
 */
static __always_inline u32 gb_cpu_opp_need(const struct em_model *m, const struct gb_cpu *cs, u32 d)
{
	const struct em_domain *pd = gb_pd(m, d);
	u32 need = cs->online ? gb_cpu_perf_need(cs) : 0;

	return GB_HOOK_OPP_FROM(m, d, gb_min(need, em_domain_capacity(pd)), 0);
}

/*
 * gb_domain_perf_target - the perf to request for domain d: its busiest CPU's need
 * (gb_cpu_freq_util x 1.25 within the rq's uclamp), raised to the OPP that serves it,
 * inefficient OPPs skipped.  *opp_idx receives the OPP.  This is what scx_bpf_cpuperf_set()
 * gets, and what the simulator runs at.
 *
 * With tasks waiting in the domain's queue, also the need of its least loaded CPU carrying the
 * whole queued demand: the waiting tasks run on whichever CPU frees first, after what it runs
 * now, as the kernel attaches a waiting task's utilization to the one run queue it waits on.
 * Each CPU's even share of the queue (queued_util, in gb_cpu_freq_util) asks too little: on
 * rk3399's ui_frames the sixth background thread (0.5 ms every 4 ms) waited behind another on
 * one of four busy little CPUs, which ran at the OPP of one thread and a quarter, and both
 * missed their periods by up to 0.35 ms, at 7.4 late activations per run against mainline's 2.0.
 */
static __always_inline u32 gb_domain_perf_target(const struct em_model *m,
						 const struct gb_cpu *cpus, u32 d, u32 *opp_idx)
{
	const struct em_domain *pd = gb_pd(m, d);
	u32 need = 0, c, i, queued = 0;

	GB_FOR_DOMAIN_CPU (c, m, d) {
		const struct gb_cpu *cs = gb_cpu_at(cpus, c);

		if (!cs->online)
			continue;
		need = gb_max(need, gb_cpu_perf_need(cs));
		queued += cs->queued_util;
	}
	/* the queue's term walks the CPUs again, only with tasks waiting (rare at a switch) */
	if (queued)
		need = gb_max(need, gb_queue_perf_request(m, cpus, d, queued));
	/* em_efficient_state() */
	i = GB_HOOK_OPP_FROM(m, d, gb_min(need, em_domain_capacity(pd)), 0);
	*opp_idx = i;
	return pd->opps[i & (EM_MAX_OPPS - 1)].perf;
}

/*
 * gb_cpuperf_for_schedutil - what to pass to scx_bpf_cpuperf_set() for a domain to run at an
 * OPP of performance perf.  schedutil treats the cpuperf target as utilization and adds its own
 * 1.25 headroom (sugov_effective_cpu_perf(): v = r + r/4, then the lowest OPP with perf >= v),
 * so a target equal to the OPP's perf would land one or more OPPs higher.  r = 4/5 of perf gives
 * v in [perf - 1, perf]: the OPP itself (or, where the OPP below is within 1 of it, that one).
 */
static __always_inline u32 gb_cpuperf_for_schedutil(u32 perf)
{
	return perf * 4 / 5;
}

#endif /* GEARBOX_GB_FREQ_H */
