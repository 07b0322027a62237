/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * gearbox_place.h - the policy's placement (gb_select_cpu_range, gb_check_misfit of
 * src/policy/gb_policy.h) cut into pieces the BPF verifier can check.
 *
 * Why this file exists.  Inlined into one BPF program, gb_select_cpu() is more than the
 * verifier's 1M-instruction budget even for an 8-CPU model: every comparison on CPU state
 * forks the path, and the per-CPU pricing (two OPP searches each) multiplies the forks.  Here
 * the same steps are global BPF subprograms, which the verifier checks once each, on their own:
 *
 *   gb_place_scan()       gb_scan_domains()            (pass 1)
 *   gb_place_price(c)     gb_price() for CPU c
 *   gb_place_domain(d)    the in-domain winner          (pass 2, inner loop)
 *   gb_place_select()     the across-domain choice, hysteresis and the reason
 *   gb_place_wakeup()     gb_select_cpu(): the fork rule, then gb_place_select()
 *   gb_place_misfit()     gb_check_misfit()
 *
 * Only the loop structure is here; every formula and comparison is the policy's own function.
 * tests/sched/test_place.c compiles this file natively and checks that it returns exactly what
 * gb_select_cpu_range() and gb_check_misfit() return, over random CPU states and the shipped
 * models, so the simulator's results stay results about this scheduler.
 *
 * The includer defines GB_PLACE_MODEL() (const struct em_model *), GB_PLACE_CPUS (const struct
 * gb_cpu *) and GB_PLACE_CTX() (struct gb_place_ctx *, or NULL), and GB_SUBPROG (in BPF a
 * global noinline function; natively static).
 */
#ifndef GEARBOX_PLACE_H
#define GEARBOX_PLACE_H

#include "gb_policy.h"
#include "gearbox_abi.h"

/* The task being placed and the policy's scratch: in BPF a per-CPU map value. */
struct gb_place_ctx {
	struct gb_task t;
	struct gb_scratch s;
	u32 min_cap;
	u32 max_cap;
};

GB_SUBPROG int gb_place_scan(void)
{
	struct gb_place_ctx *x = GB_PLACE_CTX();

	if (!x)
		return -1;
	gb_scan_domains(GB_PLACE_MODEL(), GB_PLACE_CPUS, &x->t, &x->s);
	return 0;
}

/*
 * gb_place_price - gb_price() for CPU c into *out.  In BPF one global subprogram per CPU id: with
 * c a constant the verifier knows the CPU's domain and OPP table (the model is read-only data)
 * and checks the pricing in a few thousand instructions; with c unknown, the two OPP searches
 * multiply into more than the budget.  GB_SCX_MAX_CPUS bounds how many are generated.
 */
#if defined(__bpf__) || defined(__BPF__)
#define GB_PLACE_PRICE_FN(N)                                                              \
	GB_SUBPROG int gb_place_price_##N(struct gb_cand *out)                            \
	{                                                                                 \
		struct gb_place_ctx *x = GB_PLACE_CTX();                                  \
		if (N >= GB_PLACE_MODEL()->nr_cpus || !x || !out)                         \
			return -1;                                                        \
		*out = gb_price(GB_PLACE_MODEL(), GB_PLACE_CPUS, &x->t, &x->s, N);        \
		return 0;                                                                 \
	}
#define GB_PLACE_CASE(N) case N: return gb_place_price_##N(out);
/* 0 .. GB_SCX_MAX_CPUS - 1 */
#define GB_PLACE_EACH_CPU(F) \
	F(0) F(1) F(2) F(3) F(4) F(5) F(6) F(7) F(8) F(9) F(10) F(11) F(12) F(13) F(14) F(15) \
	F(16) F(17) F(18) F(19) F(20) F(21) F(22) F(23) F(24) F(25) F(26) F(27) F(28) F(29) F(30) F(31)
GB_PLACE_EACH_CPU(GB_PLACE_PRICE_FN)
_Static_assert(GB_SCX_MAX_CPUS == 32, "GB_PLACE_EACH_CPU lists GB_SCX_MAX_CPUS ids");

static __always_inline int gb_place_price(u32 c, struct gb_cand *out)
{
	switch (c) {
	GB_PLACE_EACH_CPU(GB_PLACE_CASE)
	}
	return -1;
}
#else
static int gb_place_price(u32 c, struct gb_cand *out)
{
	struct gb_place_ctx *x = GB_PLACE_CTX();

	if (!x || !out || c >= GB_SCX_MAX_CPUS)
		return -1;
	*out = gb_price(GB_PLACE_MODEL(), GB_PLACE_CPUS, &x->t, &x->s, c);
	return 0;
}
#endif

/* One step of the in-domain search: CPU c against the winner so far (win, *cw); returns the
 * new winner.  A subprogram of its own so that the loop over CPUs does not multiply paths. */
GB_SUBPROG int gb_place_consider(u32 c, s32 win, struct gb_cand *cw)
{
	const struct gb_cpu *cpus = GB_PLACE_CPUS;
	struct gb_place_ctx *x = GB_PLACE_CTX();
	struct gb_cand cc = { 0 };

	if (!x || !cw || c >= EM_MAX_CPUS)
		return win;
	if (!gb_cpu_at(cpus, c)->online || !em_cpumask_test(&x->t.allowed, c))
		return win;
	if (gb_place_price(c, &cc) || !cc.ok)
		return win;
	if (!gb_better_in_domain(cpus, &x->t, win, *cw, c, cc))
		return win;
	*cw = cc;
	return (s32)c;
}

/* The winner of domain d (GB_NO_CPU if none) into *cwin; the inner loop of pass 2. */
GB_SUBPROG int gb_place_domain(u32 d, struct gb_cand *cwin)
{
	const struct em_model *m = GB_PLACE_MODEL();
	struct gb_place_ctx *x = GB_PLACE_CTX();
	const struct gb_domain_scratch *ds;
	struct gb_cand cc = { 0 };
	s32 win = GB_NO_CPU;
	u32 c;

	if (!x || !cwin)
		return GB_NO_CPU;
	ds = &x->s.pd[d & (EM_MAX_DOMAINS - 1)];
	if (ds->overutilized) {
		win = ds->spread_cpu;
		if (win == GB_NO_CPU || gb_place_price((u32)win, &cc))
			return GB_NO_CPU;
		cc.ok = 1;
		*cwin = cc;
		return win;
	}
	for (c = 0; c < EM_MAX_CPUS; c++) {
		if (c >= m->nr_cpus)
			break;
		if (m->cpu_domain[c] == d)
			win = gb_place_consider(c, win, &cc);
	}
	*cwin = cc;
	return win;
}

/* gb_select_cpu_range() for the task in the context, with its min_cap/max_cap. */
GB_SUBPROG int gb_place_select(struct gb_decision *out)
{
	const struct em_model *m = GB_PLACE_MODEL();
	const struct gb_cpu *cpus = GB_PLACE_CPUS;
	struct gb_place_ctx *x = GB_PLACE_CTX();
	struct gb_cand cbest = { 0 }, cprev = { 0 }, cwin = { 0 };
	bool best_spread = false, have_prev = false;
	s32 best = GB_NO_CPU, prev, win;
	u32 c, d, cap, min_cap, max_cap;

	if (!out)
		return GB_NO_CPU;
	out->cpu = GB_NO_CPU;
	out->reason = GB_REASON_NONE;
	if (!x || gb_place_scan())
		return GB_NO_CPU;
	prev = x->t.prev_cpu;
	min_cap = x->min_cap;
	max_cap = x->max_cap;
	if (prev >= 0 && (u32)prev < m->nr_cpus && em_cpumask_test(&x->t.allowed, (u32)prev) &&
	    gb_cpu_at(cpus, (u32)prev)->online && !gb_place_price((u32)prev, &cprev))
		have_prev = true;
	for (d = 0; d < EM_MAX_DOMAINS; d++) {
		if (d >= m->nr_domains)
			break;
		cap = em_domain_capacity(gb_pd(m, d));
		if ((min_cap && cap <= min_cap) || (max_cap && cap >= max_cap))
			continue;
		win = gb_place_domain(d, &cwin);
		if (win == GB_NO_CPU)
			continue;
		if (gb_better_across(best, cbest, cwin)) {
			best = win;
			cbest = cwin;
			best_spread = x->s.pd[d & (EM_MAX_DOMAINS - 1)].overutilized;
		}
	}
	if (best == GB_NO_CPU && !min_cap && !max_cap) {
		if (have_prev) {
			best = prev;
			cbest = cprev;
		} else {
			for (c = 0; c < EM_MAX_CPUS; c++) {
				if (c >= m->nr_cpus)
					break;
				if (em_cpumask_test(&x->t.allowed, c) && gb_cpu_at(cpus, c)->online) {
					best = (s32)c;
					if (gb_place_price(c, &cbest))
						cbest = (struct gb_cand){ 0 };
					break;
				}
			}
		}
	}
	/* hysteresis: keep an idle previous CPU unless leaving it saves more than 1/16 */
	if (have_prev && best != prev && best != GB_NO_CPU && cprev.ok && !min_cap && !max_cap &&
	    gb_cpu_at(cpus, (u32)prev)->nr_running == 0 &&
	    !x->s.pd[m->cpu_domain[(u32)prev & (EM_MAX_CPUS - 1)] & (EM_MAX_DOMAINS - 1)].overutilized &&
	    cprev.delta - cbest.delta <= ((cprev.delta < 0 ? -cprev.delta : cprev.delta) >> GB_TIE_SHIFT)) {
		best = prev;
		cbest = cprev;
	}
	out->cpu = best;
	out->opp_idx = cbest.idx;
	out->prev_opp_idx = have_prev ? cprev.idx : 0;
	out->energy_delta = have_prev ? cbest.delta - cprev.delta : cbest.delta;
	if (best == GB_NO_CPU || best == prev)
		out->reason = GB_REASON_NONE;
	else if (prev < 0)
		out->reason = GB_REASON_FORK;
	else if (!have_prev)
		out->reason = GB_REASON_AFFINITY;
	else if (best_spread)
		out->reason = GB_REASON_OVERUTILIZED_SPREAD;
	else
		out->reason = GB_REASON_WAKEUP_ENERGY;
	return best;
}

/* The fork rule of gb_select_cpu(): a task with no history goes to the domain with the most
 * idle allowed CPUs (the smaller on a tie), its first idle CPU.  GB_NO_CPU when none is idle. */
GB_SUBPROG int gb_place_fork_cpu(void)
{
	const struct em_model *m = GB_PLACE_MODEL();
	const struct gb_cpu *cpus = GB_PLACE_CPUS;
	struct gb_place_ctx *x = GB_PLACE_CTX();
	u32 c, d, best_idle = 0;
	s32 best = GB_NO_CPU;

	if (!x)
		return GB_NO_CPU;
	for (d = 0; d < GB_SCX_MAX_DOMAINS; d++) {
		u32 idle = 0;
		s32 first = GB_NO_CPU;

		if (d >= m->nr_domains)
			break;
		for (c = 0; c < GB_SCX_MAX_CPUS; c++) {
			const struct gb_cpu *cs;

			if (c >= m->nr_cpus)
				break;
			cs = gb_cpu_at(cpus, c);
			if (m->cpu_domain[c] != d || !cs->online || cs->nr_running ||
			    !em_cpumask_test(&x->t.allowed, c))
				continue;
			if (first == GB_NO_CPU)
				first = (s32)c;
			idle++;
		}
		if (idle > best_idle) {
			best_idle = idle;
			best = first;
		}
	}
	return best;
}

/* gb_select_cpu() for the task in the context: wake-up and fork placement. */
static __always_inline s32 gb_place_wakeup(struct gb_decision *out)
{
	struct gb_place_ctx *x = GB_PLACE_CTX();
	s32 best;

	if (!x)
		return GB_NO_CPU;
	x->min_cap = 0;
	x->max_cap = 0;
	if (x->t.prev_cpu >= 0 || x->t.util || x->t.util_est)
		return gb_place_select(out);
	best = gb_place_fork_cpu();
	gb_place_select(out);
	if (best != GB_NO_CPU && best != out->cpu) {
		out->cpu = best;
		out->opp_idx = 0;
		out->energy_delta = 0;
	}
	out->reason = GB_REASON_FORK;
	return out->cpu;
}

/* gb_check_misfit() for the task in the context, running on cpu for ran_us. */
static __always_inline s32 gb_place_misfit(u32 cpu, u64 ran_us, u64 push_after_us,
					   struct gb_decision *out)
{
	const struct em_model *m = GB_PLACE_MODEL();
	struct gb_place_ctx *x = GB_PLACE_CTX();
	u32 d = m->cpu_domain[cpu & (EM_MAX_CPUS - 1)];
	u32 cap, util;
	s32 to;

	if (!x || d >= m->nr_domains)
		return GB_NO_CPU;
	util = gb_max(x->t.util, x->t.util_est);
	cap = em_domain_capacity(gb_pd(m, d));
	if (cap < EM_CAPACITY_SCALE && x->t.uclamp_max > cap &&
	    ((u64)util * GB_MISFIT_SAT_DEN > (u64)cap * GB_MISFIT_SAT_NUM ||
	     (!gb_fits_capacity(util, cap) && ran_us >= 2 * push_after_us))) {
		x->min_cap = cap;
		x->max_cap = 0;
		to = gb_place_select(out);
		if (to != GB_NO_CPU) {
			out->reason = GB_REASON_CAPACITY_MISFIT;
			return to;
		}
		return GB_NO_CPU;
	}
	if (x->t.uclamp_max < cap && ran_us >= push_after_us) {
		x->min_cap = 0;
		x->max_cap = cap;
		to = gb_place_select(out);
		if (to != GB_NO_CPU && out->energy_delta < 0) {
			out->reason = GB_REASON_POWER_MISFIT;
			return to;
		}
	}
	return GB_NO_CPU;
}

#endif /* GEARBOX_PLACE_H */
