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
 * The request at a switch without the walk of the domain's CPUs, when it cannot differ from the
 * CPU's last one.  Without queued demand a domain's target is the highest OPP its CPUs' needs
 * ask for alone (gb_cpu_opp_need, src/policy/gb_freq.h): the same as at this CPU's last walk if
 * its own OPP need is the same and no other CPU's inputs changed since.  gb_freq_gen counts, per
 * domain, the changes of its CPUs' inputs (the gb_cpu fields gb_domain_perf_target reads: util,
 * waiting_util, curr_util, curr_runnable, queued_util, nr_running, the clamps, online), each
 * counted after it is made (gb_freq_touch); a CPU's memo (struct gb_freq_memo of
 * gearbox_abi.h, read by gb_fill.h's gb_freq_memo_quiet and _holds) keeps the count at its last
 * walk and the changes it made to its own inputs since, on itself (one made from another CPU
 * counts as another CPU's: a walk).  A change made while another CPU walks is counted after that
 * walk read its count, so the next request walks again.  The tick walks whatever the memo says:
 * what a race between the two leaves stale lasts at most until then.
 */
u64 gb_freq_gen[EM_MAX_DOMAINS];
struct gb_freq_memo gb_freq_memos[EM_MAX_CPUS] __attribute__((aligned(64)));

/* cpu's frequency inputs (of domain d, GB_SCX_MAX_DOMAINS or more: none; cpu < 0: several of
 * d's) have just changed. */
static __always_inline void gb_freq_touch(s32 cpu, u32 d)
{
	if (d < GB_SCX_MAX_DOMAINS)
		__sync_fetch_and_add(&gb_freq_gen[d], 1);
	/* its own changes, counted where it makes them */
	if (cpu >= 0 && (s32)bpf_get_smp_processor_id() == cpu)
		gb_freq_memos[(u32)cpu & (EM_MAX_CPUS - 1)].own++;
}

/*
 * The perf target of domain d (with the mode's floor), requested for cpu.  With tick (the
 * tick), also the domain's over-utilization for the loader's domain records (gb_doms, the TUI's
 * OU): nothing in the scheduler reads it there, so running, on every switch, leaves it out.
 *
 * Running, at every switch, asks nothing when the target cannot differ from the CPU's last
 * request (the memo above, without queued demand in the domain: the queue's term is not a
 * CPU's own), and otherwise calls scx_bpf_cpuperf_set() only for a value other than the one
 * last set on the CPU (gb_cpuperf_due): the kfunc takes the CPU's cpuperf_target and calls the
 * governor (cpufreq_update_util()) whatever the value, and a domain's target, an OPP's perf,
 * seldom changes from one switch to the next.  The tick walks and calls it whatever the memo
 * and the value say, so that a governor that let a request pass (schedutil's rate limit) is
 * asked again at least once a tick while a task runs; the next switch walks again.
 *
 * Inlined in its two callers, running and the tick: a subprogram call per switch for a body the
 * verifier checks quickly.
 */
static __always_inline int gb_request_perf(u32 d, s32 cpu, bool tick)
{
	u32 c = (u32)cpu & (EM_MAX_CPUS - 1), idx = 0, perf, opp, floor, queued;
	struct gb_freq_memo *fm = &gb_freq_memos[c];
	u64 gen;

	/* the OPP search is gb_place_opp_from's, the walks of the domain's CPUs may_goto loops
	 * (gearbox_place.h) */
	if (d >= gb_m()->nr_domains || d >= GB_SCX_MAX_DOMAINS)
		return 0;
	floor = gb_perf_floor[d];
	if (tick) {
		/* what the tick sets, from the task noted now, is not the memo's: the next switch
		 * walks (no memo here: the stack of the misfit search's calls after it leaves the
		 * tick no room for one) */
		fm->valid = 0;
	} else {
		/* the count before any input is read */
		gen = *(volatile u64 *)&gb_freq_gen[d];
		queued = *(volatile u32 *)&gb_dom_qutil[d];
		opp = GB_FREQ_OPP_UNKNOWN;
		/* this CPU's own need only then: in a busy domain another CPU's change comes
		 * between most switches */
		if (!queued && gb_freq_memo_quiet(fm, gen, floor)) {
			opp = gb_cpu_opp_need(gb_m(), &gb_cpus[c], d);
			if (gb_freq_memo_holds(fm, opp))
				return 0;
		}
		gb_freq_memo_set(fm, gen, opp, floor,
				 !queued && (s32)bpf_get_smp_processor_id() == cpu);
	}
	perf = gb_domain_perf_target(gb_m(), gb_cpus, d, &idx);
	if (perf < floor)
		perf = floor;
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
