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

/*
 * The perf target of domain d (with the mode's floor), requested for cpu.  With note_ou (the
 * tick), also the domain's over-utilization for the loader's domain records (gb_doms, the TUI's
 * OU): nothing in the scheduler reads it there, so running, on every switch, leaves it out.
 * Inlined in its two callers, running and the tick: a subprogram call per switch for a body the
 * verifier checks quickly.
 */
static __always_inline int gb_request_perf(u32 d, s32 cpu, bool note_ou)
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
	if (note_ou)
		gb_doms[d].overutilized = gb_domain_overutilized(gb_m(), gb_cpus, d);
	/* schedutil adds its 1.25 headroom to the target: ask for what lands on perf */
	scx_bpf_cpuperf_set(cpu, gb_cpuperf_for_schedutil(perf));
	return 0;
}

#endif /* GEARBOX_GB_PERF_BPF_H */
