/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * gb_perf.bpf.h - frequency: the perf a CPU runs at (for accounting), and the request of a
 * domain's perf target (gb_domain_perf_target, with the mode's floor) through cpuperf.
 */
#ifndef GEARBOX_GB_PERF_BPF_H
#define GEARBOX_GB_PERF_BPF_H

/* The perf cpu, of domain d (gb_cpu_dom), runs at now: measured when there is cpufreq, else the
 * OPP we asked for. */
static __always_inline u32 gb_perf_in(s32 cpu, u32 d)
{
	if (d >= GB_SCX_MAX_DOMAINS)
		return EM_CAPACITY_SCALE;
	if (gb_has_cpufreq)
		return em_domain_capacity(gb_pd(gb_m(), d)) * scx_bpf_cpuperf_cur(cpu) >> 10;
	return gb_doms[d].perf_target;
}

/* The perf a CPU runs at now (gb_perf_in). */
static __always_inline u32 gb_perf_now(s32 cpu)
{
	return gb_perf_in(cpu, gb_cpu_dom(cpu));
}

/* What scx_bpf_cpuperf_set() last got for each CPU, plus 1 (0: nothing since the scheduler was
 * loaded or the CPU came on- or offline): gb_cpuperf_due's record. */
u32 gb_cpuperf_last[EM_MAX_CPUS];

/*
 * The perf target of domain d (with the mode's floor), requested for cpu.  With tick (the
 * tick), also the domain's over-utilization for the loader's domain records (gb_doms, the TUI's
 * OU): nothing in the scheduler reads it there, so running, on every switch, leaves it out.
 *
 * Running, at every switch, calls scx_bpf_cpuperf_set() only for a value other than the one
 * last set on the CPU (gb_cpuperf_due): the kfunc takes the CPU's cpuperf_target and calls the
 * governor (cpufreq_update_util()) whatever the value, and a domain's target, an OPP's perf,
 * seldom changes from one switch to the next.  The tick calls it whatever the value, so that a
 * governor that let a request pass (schedutil's rate limit) is asked again at least once a tick
 * while a task runs.
 *
 * Inlined in its two callers, running and the tick: a subprogram call per switch for a body the
 * verifier checks quickly.
 */
static __always_inline int gb_request_perf(u32 d, s32 cpu, bool tick)
{
	u32 idx = 0, perf;

	/* the OPP search is gb_place_opp_from's, the walks of the domain's CPUs may_goto loops
	 * (gearbox_place.h) */
	if (d >= gb_m()->nr_domains || d >= GB_SCX_MAX_DOMAINS)
		return 0;
	perf = gb_domain_perf_target(gb_m(), gb_cpus, d, &idx);
	if (perf < gb_perf_floor[d])
		perf = gb_perf_floor[d];
	gb_doms[d].perf_target = perf;
	gb_doms[d].opp_idx = idx;
	if (tick)
		gb_doms[d].overutilized = gb_domain_overutilized(gb_m(), gb_cpus, d);
	/* schedutil adds its 1.25 headroom to the target: ask for what lands on perf */
	perf = gb_cpuperf_for_schedutil(perf);
	if (gb_cpuperf_due(&gb_cpuperf_last[(u32)cpu & (EM_MAX_CPUS - 1)], perf, tick))
		scx_bpf_cpuperf_set(cpu, perf);
	return 0;
}

#endif /* GEARBOX_GB_PERF_BPF_H */
