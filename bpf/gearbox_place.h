/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * gearbox_place.h - the policy of src/policy/gb_policy.h with its placement steps routed
 * through BPF global subprograms: include it instead of gb_policy.h.
 *
 * Why.  Inlined into one BPF program, gb_select_cpu() is more than the verifier's
 * 1M-instruction budget even for an 8-CPU model: every comparison on CPU state forks the path,
 * and the per-CPU pricing (two OPP searches each) multiplies the forks.  gb_policy.h names its
 * steps as GB_HOOK_* macros; here each becomes a global subprogram, which the verifier checks
 * once, on its own:
 *
 *   GB_HOOK_SCAN      gb_place_scan()          pass 1, gb_scan_domains()
 *   GB_HOOK_PRICE     gb_place_price_cpu(c)    gb_price() for CPU c, memoized per search
 *   GB_HOOK_OPP_FROM  gb_place_opp_from(d)     an OPP search, em_efficient_state_from(): a
 *                                              look-up in a table (inline)
 *   GB_HOOK_CONSIDER  gb_place_consider(c)     one CPU of pass 2, gb_consider()
 *   GB_HOOK_OFFER     gb_place_offer(d)        one domain of pass 3, gb_domain_offer()
 *   GB_HOOK_RANGE     gb_place_select()        gb_select_cpu_range()
 *   GB_HOOK_FORK      gb_place_fork_cpu()      gb_fork_cpu()
 *   GB_HOOK_PULL_MASK gb_disp_pull_mask()      dispatch's pulls, gb_pull_mask() (BPF only)
 *
 * and one step is mostly a table instead of a computation: GB_HOOK_CHEAPER_ELSEWHERE, the
 * wake-up shortcut's bound on the other domains' prices (gb_cheaper_elsewhere(): a loop over the
 * domains with an OPP search in each), compares with GB_PLACE_MIN_COSTS[d] when the task has no
 * misfit hold, the host having filled the table with gb_min_cost_elsewhere() of each domain of
 * the model (the loader, before load); and GB_HOOK_MIN_WAKE_COST, its bound on the other CPUs of
 * an asleep domain, reads GB_PLACE_MIN_WAKE_COSTS[d] (gb_domain_min_wake_cost(), a loop over
 * the domain's OPPs).
 *
 * And the policy's loops over the model's CPUs and domains (GB_FOR_CPU, GB_FOR_DOMAIN) become
 * open-coded iterators (bpf_for): the verifier checks a body with the index unknown until its
 * state converges, so that what it checks does not grow with the model.  A count kept across
 * such a loop starts at GB_COUNT_ZERO, a 0 the verifier cannot see.  The loops over one
 * domain's CPUs (GB_FOR_DOMAIN_CPU) walk its cpumask with a may_goto per step (GB_LOOP): no
 * kfunc call per step.
 *
 * There is no placement code here: every body is a call of the policy's own function, and
 * gb_select_cpu() and gb_check_misfit() run as they are.  A subprogram cannot take the model
 * or the task by pointer, so they live in a per-CPU map value (struct gb_place_ctx) and each
 * subprogram finds them there; the hooks ignore their pointer arguments.
 * tests/sched/test_place.c compiles this routing natively and checks that it decides exactly
 * what the directly called policy decides.
 *
 * Use.  Include this file (part 1: hooks, declarations, the policy, the context type), declare
 * the maps, define GB_PLACE_MODEL() (const struct em_model *), GB_PLACE_CPUS (const struct
 * gb_cpu *), GB_PLACE_CTX() (struct gb_place_ctx *, or NULL), GB_PLACE_MIN_COSTS (an array
 * of GB_SCX_MAX_DOMAINS u64: gb_min_cost_elsewhere() of each domain), GB_PLACE_MIN_WAKE_COSTS
 * (the same: gb_domain_min_wake_cost() of each domain), GB_PLACE_OPP_TABLE (a struct
 * gb_opp_table of the model, gearbox_abi.h: gb_opp_table_fill(), before the costs, whose
 * searches read it) and GB_SUBPROG (in BPF a global noinline function; natively static), then
 * define GB_PLACE_BODIES and include it again (part 2: the subprograms).
 */
#ifndef GEARBOX_PLACE_H
#define GEARBOX_PLACE_H

#include "gearbox_abi.h"

struct gb_cand;
struct gb_decision;

#if defined(__bpf__) || defined(__BPF__)
/* 0 that the verifier does not know (gb_types.h): nothing writes gb_count_zero */
u32 gb_count_zero;
#define GB_COUNT_ZERO (*(volatile u32 *)&gb_count_zero)

/*
 * gb_can_loop - true, unless the program has looped too long: the may_goto instruction (the
 * kernel's bpf_experimental.h can_loop, written as bytes: clang 16 has no mnemonic for it).  The
 * JIT makes it a decrement of a counter on the stack, where bpf_iter_num_next() is a kfunc call
 * per step, and bpf_for's start and end two more (calls and returns: under TCG each return is
 * a look-up of the next translated block).  The verifier checks a loop with a may_goto in it as
 * it checks an iterator's, until its state converges, but without widening the values the body
 * changes: a state converges only once each is within the range it had before.  So may_goto
 * serves the loops whose bodies carry nothing from one step to the next, which run on every
 * wake-up and context switch: the walks of one domain's CPUs (GB_FOR_DOMAIN_CPU), dispatch's
 * loops over the domain queues and the idle refresh (bpf/gearbox.bpf.c, gb_idle.bpf.h).  The
 * policy's loops over the whole model stay iterators (GB_FOR_CPU, GB_FOR_DOMAIN): their bodies
 * keep counts and candidates across steps, and with may_goto select_cpu's check grew with the
 * model until vm64 was refused.
 */
#define gb_can_loop                                                                                \
	({                                                                                         \
		__label__ l_break, l_continue;                                                     \
		bool ___ok = true;                                                                 \
		asm volatile goto(                                                                 \
		    "1:.byte 0xe5; .byte 0; .long ((%l[l_break] - 1b - 8) / 8) & 0xffff; "         \
		    ".short 0" ::                                                                  \
			:                                                                          \
		    : l_break);                                                                    \
		goto l_continue;                                                                   \
	l_break:                                                                                   \
		___ok = false;                                                                     \
	l_continue:;                                                                               \
		___ok;                                                                             \
	})
/* i from start to end - 1, as bpf_for, with the index unknown to the verifier (it starts from
 * GB_COUNT_ZERO): a state with the next index is within the one before */
#define GB_LOOP(i, start, end)                                                                     \
	for ((i) = (start) + GB_COUNT_ZERO; (i) < (end) && gb_can_loop; (i)++)
/* the policy's loops over the model (gb_types.h) as open-coded iterators: the verifier checks a
 * body until its state converges, with the index unknown, whatever the model's size */
#define GB_FOR_CPU(c, n)    bpf_for (c, 0, n)
#define GB_FOR_DOMAIN(d, n) bpf_for (d, 0, n)
#endif

/*
 * The loop over a domain's CPUs (gb_types.h) walks the first word of the domain's cpumask (the
 * object's CPUs are the first GB_SCX_MAX_CPUS) from its lowest CPU (em_domain.first_cpu) up,
 * one step per CPU id until no bit of the domain is left above it, each a may_goto (GB_LOOP):
 * its cost is the domain's span of CPU ids (its CPUs, where they are contiguous), not the
 * model's.  A step is a shift and two tests (finding the lowest bit, a de Bruijn multiply and
 * a table look-up, BPF having no ctz, cost twice as much).  Natively the same walk with a
 * plain loop, which tests/sched/test_place.c checks against the policy's own loop.
 */
/* domain d's CPUs of the object, a bit each (none for a d outside the model) */
#define GB_DOMAIN_BITS(m, d) ((d) < (m)->nr_domains ? gb_pd(m, d)->cpus.bits[0] : 0)
#if defined(__bpf__) || defined(__BPF__)
#define GB_FOR_STEPS(i, start, end) GB_LOOP (i, start, end)
#else
#define GB_FOR_STEPS(i, start, end) for ((i) = (start); (i) < (end); (i)++)
#endif
#define GB_FOR_DOMAIN_CPU(c, m, d)                                                                 \
	for (u64 ___db = GB_DOMAIN_BITS(m, d), ___dk = 0; ___db; ___db = 0)                        \
		GB_FOR_STEPS (___dk, gb_pd(m, d)->first_cpu, (m)->nr_cpus)                         \
			if (!(___db >> ___dk))                                                     \
				break;                                                             \
			else if (!((___db >> ___dk) & 1) || ((c) = (u32)___dk, 0)) {               \
			} else

/* the pointer arguments are not needed: the subprograms find everything in the context */
#define GB_PLACE_UNUSED(m, cpus, t, s) ((void)(m), (void)(cpus), (void)(t), (void)(s))
#define GB_HOOK_SCAN(m, cpus, t, s)    (GB_PLACE_UNUSED(m, cpus, t, s), gb_place_scan())
#define GB_HOOK_PRICE(m, cpus, t, s, c, out)                                                       \
	(GB_PLACE_UNUSED(m, cpus, t, s), gb_place_price(c, out))
#define GB_HOOK_CONSIDER(m, cpus, t, s, c, min_cap, max_cap)                                       \
	(GB_PLACE_UNUSED(m, cpus, t, s), gb_place_consider(c, min_cap, max_cap))
#define GB_HOOK_OFFER(m, cpus, t, s, d, min_cap, max_cap, cwin)                                    \
	(GB_PLACE_UNUSED(m, cpus, t, s), gb_place_offer(d, min_cap, max_cap, cwin))
#define GB_HOOK_RANGE(m, cpus, t, min_cap, max_cap, s, out)                                        \
	(GB_PLACE_UNUSED(m, cpus, t, s), gb_place_range(min_cap, max_cap, out))
#define GB_HOOK_FORK(m, cpus, t)	    (GB_PLACE_UNUSED(m, cpus, t, 0), gb_place_fork_cpu())
#define GB_HOOK_OPP_FROM(m, d, perf, start) ((void)(m), gb_place_opp_from(d, perf, start))
#define GB_HOOK_CHEAPER_ELSEWHERE(m, d, floor_cap, work, bound)                                    \
	((void)(m), gb_place_cheaper_elsewhere(d, floor_cap, work, bound))
#define GB_HOOK_MIN_WAKE_COST(m, d) ((void)(m), gb_place_min_wake_cost(d))
#if defined(__bpf__) || defined(__BPF__)
/* dispatch's pull question (gb_pull_mask): the subprogram, in gearbox.bpf.c, finds the queue
 * heads in dispatch's own context (gb_disp_ctx) */
#define GB_HOOK_PULL_MASK(m, cpus, in, self, pull_after_us)                                        \
	((void)(m), (void)(cpus), (void)(in), gb_disp_pull_mask(self, pull_after_us))
GB_SUBPROG u64 gb_disp_pull_mask(u32 self, u64 pull_after_us);
#endif

GB_SUBPROG int gb_place_scan(void);
GB_SUBPROG int gb_place_price_cpu(u32 c, struct gb_cand *out);
static __always_inline u32 gb_place_opp_from(u32 d, u32 perf, u32 start);
GB_SUBPROG int gb_place_consider(u32 c, u32 min_cap, u32 max_cap);
GB_SUBPROG int gb_place_offer(u32 d, u32 min_cap, u32 max_cap, struct gb_cand *cwin);
GB_SUBPROG int gb_place_select(struct gb_decision *out);
GB_SUBPROG int gb_place_fork_cpu(void);
GB_SUBPROG int gb_place_prev_cheapest(struct gb_decision *out);
GB_SUBPROG int gb_place_cheaper_held(u32 d, u32 floor_cap, u32 work, u64 bound);
static __always_inline int gb_place_price(u32 c, struct gb_cand *out);
static __always_inline bool gb_place_cheaper_elsewhere(u32 d, u32 floor_cap, u32 work, u64 bound);
static __always_inline u64 gb_place_min_wake_cost(u32 d);
static __always_inline s32 gb_place_range(u32 min_cap, u32 max_cap, struct gb_decision *out);

#include "gb_policy.h"

/* The task being placed, the policy's scratch and the search's range: in BPF a per-CPU map
 * value. */
struct gb_place_ctx {
	struct gb_task t;
	struct gb_scratch s;
	u32 min_cap;
	u32 max_cap;
	u64 priced; /* bit c: memo[c] holds CPU c's price in this search */
	struct gb_cand memo[GB_SCX_MAX_CPUS];
};

#endif /* GEARBOX_PLACE_H */

#if defined(GB_PLACE_BODIES) && !defined(GEARBOX_PLACE_BODIES_DONE)
#define GEARBOX_PLACE_BODIES_DONE

GB_SUBPROG int gb_place_scan(void)
{
	struct gb_place_ctx *x = GB_PLACE_CTX();

	if (!x)
		return -1;
	gb_scan_domains(GB_PLACE_MODEL(), GB_PLACE_CPUS, &x->t, &x->s);
	x->priced = 0; /* a new search: the pass-1 state the prices depend on changed */
	return 0;
}

/*
 * gb_place_opp_from - em_efficient_state_from(domain d, perf, start), from the table the host
 * filled before load (GB_PLACE_OPP_TABLE, gb_opp_table_fill): the lowest OPP that serves perf
 * (a perf above the capacity gets the top OPP).  start is where the caller knows the answer
 * begins (em_efficient_state_from's contract: every search of the policy starts at an OPP that
 * a perf no higher than this one needs), so it does not change the answer, only where the
 * policy's loop over the OPPs starts; here there is no loop.  Inline: a load returns one unknown
 * value, as the subprogram that held the loop did.  0 for a domain beyond the object's.
 */
static __always_inline u32 gb_place_opp_from(u32 d, u32 perf, u32 start)
{
	(void)start;
	if (d >= GB_SCX_MAX_DOMAINS)
		return 0;
	return GB_PLACE_OPP_TABLE.for_perf[d][perf < EM_CAPACITY_SCALE ? perf : EM_CAPACITY_SCALE];
}

/*
 * gb_place_price_cpu - gb_price() for CPU c into *out.  A subprogram checked once for any CPU:
 * its OPP searches are gb_place_opp_from's, so that with the CPU's domain unknown to the
 * verifier the pricing is one path, not one per OPP a search may return.
 */
GB_SUBPROG int gb_place_price_cpu(u32 c, struct gb_cand *out)
{
	struct gb_place_ctx *x = GB_PLACE_CTX();

	if (!x || !out || c >= GB_PLACE_MODEL()->nr_cpus || c >= GB_SCX_MAX_CPUS)
		return -1;
	*out = gb_price(GB_PLACE_MODEL(), GB_PLACE_CPUS, &x->t, &x->s, c);
	return 0;
}

/*
 * gb_place_price - CPU c's price, computed once per search.  gb_price() reads only the task,
 * the CPUs and pass 1's per-domain state, none of which a search changes, so the previous
 * CPU priced before pass 2 and again in it, or an over-utilized domain's spread CPU priced in
 * pass 2 and pass 3, give the same candidate twice: the second is the first's copy.
 */
static __always_inline int gb_place_price(u32 c, struct gb_cand *out)
{
	struct gb_place_ctx *x = GB_PLACE_CTX();
	u64 bit;
	int err;

	if (!x || !out || c >= GB_SCX_MAX_CPUS)
		return -1;
	bit = 1ull << c;
	if (x->priced & bit) {
		*out = x->memo[c];
		return 0;
	}
	err = gb_place_price_cpu(c, out);
	if (!err) {
		x->memo[c] = *out;
		x->priced |= bit;
	}
	return err;
}

/* gb_cheaper_elsewhere() under a misfit hold: a subprogram, off the shortcut's common path */
GB_SUBPROG int gb_place_cheaper_held(u32 d, u32 floor_cap, u32 work, u64 bound)
{
	return gb_cheaper_elsewhere(GB_PLACE_MODEL(), d, floor_cap, work, bound);
}

/* gb_cheaper_elsewhere(model, d, floor_cap, work, bound): without a hold, from the table the host
 * filled when it loaded the model (~0: no other domain). */
static __always_inline bool gb_place_cheaper_elsewhere(u32 d, u32 floor_cap, u32 work, u64 bound)
{
	u64 least = GB_PLACE_MIN_COSTS[d & (GB_SCX_MAX_DOMAINS - 1)];

	if (floor_cap)
		return gb_place_cheaper_held(d, floor_cap, work, bound) != 0;
	return least != ~0ull && least * work < bound;
}

/* gb_domain_min_wake_cost(model, d), from the table the host filled when it loaded the model */
static __always_inline u64 gb_place_min_wake_cost(u32 d)
{
	return GB_PLACE_MIN_WAKE_COSTS[d & (GB_SCX_MAX_DOMAINS - 1)];
}

/* One CPU of pass 2: a subprogram of its own so that the loop over CPUs does not multiply
 * paths. */
GB_SUBPROG int gb_place_consider(u32 c, u32 min_cap, u32 max_cap)
{
	struct gb_place_ctx *x = GB_PLACE_CTX();

	if (!x || c >= GB_SCX_MAX_CPUS)
		return -1;
	return gb_consider(GB_PLACE_MODEL(), GB_PLACE_CPUS, &x->t, &x->s, c, min_cap, max_cap);
}

/* One domain of pass 3. */
GB_SUBPROG int gb_place_offer(u32 d, u32 min_cap, u32 max_cap, struct gb_cand *cwin)
{
	struct gb_place_ctx *x = GB_PLACE_CTX();

	if (!x || !cwin || d >= GB_SCX_MAX_DOMAINS)
		return GB_NO_CPU;
	return gb_domain_offer(GB_PLACE_MODEL(), GB_PLACE_CPUS, &x->t, &x->s, d, min_cap, max_cap,
			       cwin);
}

/* gb_select_cpu_range() for the task in the context, with its min_cap/max_cap. */
GB_SUBPROG int gb_place_select(struct gb_decision *out)
{
	struct gb_place_ctx *x = GB_PLACE_CTX();

	if (!out)
		return GB_NO_CPU;
	if (!x) {
		out->cpu = GB_NO_CPU;
		out->reason = GB_REASON_NONE;
		return GB_NO_CPU;
	}
	return gb_select_cpu_range(GB_PLACE_MODEL(), GB_PLACE_CPUS, &x->t, x->min_cap, x->max_cap,
				   &x->s, out);
}

static __always_inline s32 gb_place_range(u32 min_cap, u32 max_cap, struct gb_decision *out)
{
	struct gb_place_ctx *x = GB_PLACE_CTX();

	if (x) {
		x->min_cap = min_cap;
		x->max_cap = max_cap;
	}
	return gb_place_select(out);
}

GB_SUBPROG int gb_place_fork_cpu(void)
{
	struct gb_place_ctx *x = GB_PLACE_CTX();

	if (!x)
		return GB_NO_CPU;
	return gb_fork_cpu(GB_PLACE_MODEL(), GB_PLACE_CPUS, &x->t);
}

/*
 * gb_prev_is_cheapest() for the task in the context: 1 when the search would keep the task on
 * its previous CPU (*out filled as the search fills it), 0 when the search must decide.
 */
GB_SUBPROG int gb_place_prev_cheapest(struct gb_decision *out)
{
	struct gb_place_ctx *x = GB_PLACE_CTX();

	if (!x || !out)
		return 0;
	return gb_prev_is_cheapest(GB_PLACE_MODEL(), GB_PLACE_CPUS, &x->t, out);
}

/* gb_select_cpu() for the task in the context: wake-up and fork placement. */
static __always_inline s32 gb_place_wakeup(struct gb_decision *out)
{
	struct gb_place_ctx *x = GB_PLACE_CTX();

	if (!x)
		return GB_NO_CPU;
	return gb_select_cpu(GB_PLACE_MODEL(), GB_PLACE_CPUS, &x->t, &x->s, out);
}

/*
 * Can gb_check_misfit() return a CPU for the task in the context, running on cpu for ran_us?
 * Its two entry conditions, which need neither the CPUs' state nor a search: when this is
 * false it returns GB_NO_CPU whatever the CPUs are, so the host may skip refreshing them
 * (tests/sched/test_place.c checks that on random states).
 */
static __always_inline bool gb_place_misfit_possible(u32 cpu, u64 ran_us, u64 push_after_us)
{
	const struct em_model *m = GB_PLACE_MODEL();
	struct gb_place_ctx *x = GB_PLACE_CTX();
	u32 d = m->cpu_domain[cpu & (EM_MAX_CPUS - 1)], cap;

	if (!x || d >= m->nr_domains)
		return false;
	cap = em_domain_capacity(gb_pd(m, d));
	return gb_capacity_misfit(&x->t, cap, ran_us, push_after_us) ||
	       (x->t.uclamp_max < cap && ran_us >= push_after_us);
}

/* gb_check_misfit() for the task in the context, running on cpu for ran_us. */
static __always_inline s32 gb_place_misfit(u32 cpu, u64 ran_us, u64 push_after_us,
					   struct gb_decision *out)
{
	struct gb_place_ctx *x = GB_PLACE_CTX();

	if (!x)
		return GB_NO_CPU;
	return gb_check_misfit(GB_PLACE_MODEL(), GB_PLACE_CPUS, &x->t, cpu, ran_us, push_after_us,
			       &x->s, out);
}

#endif /* GB_PLACE_BODIES */
