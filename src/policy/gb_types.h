/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * gb_types.h - the contract between the scheduler core (src/policy/) and its two hosts: the
 * structs a host fills (gb_cpu per CPU, gb_task for the task a decision is about, next to the
 * read-only energy model of em_model.h), the structs the core answers with (gb_decision) or works
 * in (gb_scratch), the reason codes, and the few constants every concern shares.
 *
 * Hosts: bpf/gearbox.bpf.c fills them from kernel state (CO-RE reads, the idle mask, its own
 * PELT tracking) and src/sim/ from the simulated SoC.  Every field says what it means, its unit
 * and which core entry points read it; docs/scheduler.md has the table, with how each host
 * fills the field.  BPF-safe: no libc, no floats, fixed-size types only.
 */
#ifndef GEARBOX_GB_TYPES_H
#define GEARBOX_GB_TYPES_H

#include "em_model.h"
#include "em_types.h"
#include "gb_pelt.h"
#include "gb_reason_list.h"

#define GB_UCLAMP_NONE_MAX EM_CAPACITY_SCALE
#define GB_NO_CPU	   (-1)
#define GB_TIE_SHIFT	   4  /* deltas within 1/16 are ties for the no-OPP-raise rule */
#define GB_MISFIT_SAT_NUM  31 /* capacity misfit: util above 31/32 of capacity */
#define GB_MISFIT_SAT_DEN  32
#define GB_HOLD_NUM	   15 /* misfit hold: kept up while demand > 15/16 of capacity */
#define GB_HOLD_DEN	   16
#define GB_PULL_AFTER_US   4000 /* a task waiting this long is pulled by any idle CPU */

/*
 * The loops over the model's CPUs (c from 0 to n - 1, n its nr_cpus) and domains (n its
 * nr_domains): plain for loops unless the host defines them.  The BPF scheduler makes them
 * open-coded iterators (bpf/gearbox_place.h), whose body the verifier checks until its state
 * converges, not once per CPU: so a body must not rely on knowing the index (every array index
 * masked, as gb_cpu_at and gb_pd do), and a loop's cost to the verifier does not grow with
 * the model.
 */
#ifndef GB_FOR_CPU
#define GB_FOR_CPU(c, n) for ((c) = 0; (c) < (n); (c)++)
#endif
#ifndef GB_FOR_DOMAIN
#define GB_FOR_DOMAIN(d, n) for ((d) = 0; (d) < (n); (d)++)
#endif
/*
 * The loop over the CPUs of domain d (< the model's nr_domains), lowest id first: each CPU c of
 * model m with gb_dom_of(m, c) == d.  The BPF scheduler walks the domain's cpumask instead
 * (bpf/gearbox_place.h), as many steps as the domain has CPUs.
 */
#ifndef GB_FOR_DOMAIN_CPU
#define GB_FOR_DOMAIN_CPU(c, m, d)                                                                 \
	GB_FOR_CPU (c, (m)->nr_cpus)                                                               \
		if (gb_dom_of(m, c) != (d)) {                                                      \
		} else
#endif
/*
 * 0, the start of a count kept across such a loop.  The BPF scheduler hides it from the
 * verifier (a load it cannot fold): a count it knows it follows value by value, each a state of
 * its own, and the loop never converges.
 */
#ifndef GB_COUNT_ZERO
#define GB_COUNT_ZERO 0
#endif

/* Reason codes, in docs/stream.md's order (gb_reason_list.h); gb_reason.h gives the strings. */
enum gb_reason {
	GB_REASON_NONE, /* no move: stayed on the previous CPU */
#define GB_REASON_ENUM(name, code) GB_REASON_##name,
	GB_REASON_LIST(GB_REASON_ENUM)
#undef GB_REASON_ENUM
	    GB_NR_REASONS,
};

/*
 * What the host knows about a CPU, one per CPU of the model, indexed by CPU id.  Read by every
 * entry point: placement (gb_select_cpu, gb_prev_is_cheapest), the tick (gb_check_misfit),
 * frequency (gb_domain_perf_target), over-utilization (gb_domain_overutilized) and pulls
 * (gb_may_pull).  Utilizations are on the 0..1024 scale, capacity- and frequency-invariant
 * (1024: the fastest CPU at its top OPP busy all the time), as the kernel's PELT.
 */
struct gb_cpu {
	u32 util;	   /* PELT util_avg of the CPU, 0..1024: the tasks running or waiting
			    * there and the blocked utilization of those that slept there last
			    * (decaying while they sleep) */
	u32 runnable;	   /* PELT runnable_avg of the CPU, 0..1024: as util, counting time
			    * waiting for the CPU too; the within-domain tie-break */
	u32 perf_cur;	   /* perf (0..1024) of the OPP the CPU's domain runs at now */
	u32 nr_running;	   /* 1 while a task runs there, 0 when idle: tasks wait in domain
			    * queues, not on a CPU.  Read by the clamps (gb_rq_umin), the
			    * utilization with a task added (gb_util_with), the fork rule and the
			    * within-domain tie-break */
	u32 uclamp_min;	   /* uclamp_min (0..1024) of the task running there; ignored when idle */
	u32 uclamp_max;	   /* uclamp_max (0..1024) of the task running there; when idle, that of
			    * the last task that ran (0: no task yet, read as 1024) */
	u32 curr_util;	   /* util_avg (0..1024) of the task running there, which the kernel
			    * attaches to the run queue a task joins; 0 when idle.  Noted when
			    * the task starts running and at each tick (gb_track_curr).  Every
			    * reader of a CPU's utilization takes max(util, curr_util): the
			    * frequency request, placement and pulls (gb_util_without) and
			    * over-utilization, so a task that moves to a CPU brings its
			    * utilization there at once */
	u32 curr_runnable; /* runnable_avg (0..1024) of the task running there, its waits
			    * for a CPU included; 0 when idle or unless wake-up preemption is on for
			    * every task (gb_preempt_curr).  Noted with curr_util; read by the
			    * frequency request only (gb_cpu_freq_util) */
	u8 idle;	   /* nothing runs there (the kernel's idle mask under BPF) */
	u8 online;	   /* the CPU is online; offline CPUs are never chosen nor counted */
	u8 slice_long;	   /* the task running there asked for a slice longer than the host's
			    * default (gb_slice_long); read by grouping (gb_group.h), with
			    * nr_running */
	u8 preemptible;	   /* a task runs there and curr_deadline is its deadline: set when
			    * its slice starts (gb_preempt_note: running, and dispatch giving
			    * it another slice), cleared when it stops (gb_track_stop) and
			    * when a waking task kicks the CPU (gb_preempt_kicked); read by
			    * wake-up preemption (gb_preempt_cpu) */
	u64 curr_deadline; /* the running task's virtual deadline (weighted work ns,
			    * gb_vtime.h) against its CPU's domain's clock: its vtime when
			    * its slice started plus that slice's span at the CPU's perf;
			    * valid while preemptible */
	u32 queued_util;   /* the queued demand of its domain spread over the domain's online
			    * CPUs (gb_demand.h): the util_avg, as each had it when it joined
			    * the queue, of the tasks waiting in the domain's queue, over the
			    * number of those CPUs, 0..1024 per task.  Updated by the host when
			    * a task joins or leaves the queue and when a CPU of the domain goes
			    * on- or offline; read by placement and pulls (gb_util_without),
			    * over-utilization and the frequency request (gb_cpu_freq_util, and
			    * gb_domain_perf_target's sum of the domain's shares) */
	u32 waiting_util;  /* the util_avg, as gb_demand_join counted it, of the tasks that were
			    * on this CPU when they joined a domain's queue and wait there now
			    * (gb_demand.h): util holds their past running here and queued_util
			    * holds them again; placement, pulls and the frequency request
			    * take util less this (gb_cpu_signal).  Updated by the host with
			    * the queued demand */
	u64 pad2[1];	   /* to 64 bytes: in BPF an index into the CPU table is then a shift,
			    * whose bounds the verifier keeps (a multiple of 48 it does not) */
};

/*
 * The task a decision is about: the one waking up or forked (placement), running (the tick's
 * misfit check) or waiting (a pull).  Filled by the host from its per-task tracking (PELT of
 * gb_pelt.h, uclamp as sched_setattr() set it).
 */
struct gb_task {
	u32 util;	/* util_avg, 0..1024, decayed to now */
	u32 util_est;	/* util_est: its util_avg when it last went to sleep (gb_pelt.h) */
	u32 runnable;	/* runnable_avg, 0..1024: the share of time it wants a CPU; weights
			 * the uclamp_min boost in the price */
	u32 uclamp_min; /* requested uclamp_min, 0..1024 (0: none) */
	u32 uclamp_max; /* requested uclamp_max, 0..1024 (1024: none) */
	s32 prev_cpu;	/* the CPU it last ran or waits on; GB_NO_CPU for a new task */
	u32 floor_cap;	/* no CPU of capacity <= floor_cap (0: none): the misfit hold, from
			 * gb_misfit_hold() with what the host kept at its last capacity-misfit
			 * move; read by placement and pulls */
	u32 group;	/* slice-aware grouping (gb_group.h): GB_GROUP_OFF, or its slice
			 * class when the host groups at this wake-up (gb_group_class); read
			 * by placement */
	u64 pull_held;	/* the pull hold (gb_pull_hold.h): bit d set while a pull took it out
			 * of domain d's queue not long ago, and placement offers it only
			 * d's idle CPUs; from gb_pull_hold_wake at a wake-up, 0 otherwise
			 * (gb_track_task) */
	struct em_cpumask allowed; /* CPUs it may run on (affinity) */
};

/*
 * The misfit hold of one task (gb_hold.h): its last misfit move as the core needs to remember
 * it.  Kept by the host inside gb_tstate, changed only through gb_hold.h.
 */
struct gb_hold {
	s32 to;	  /* CPU the tick's misfit check sent the task to, GB_NO_CPU when no
		   * move is pending; read at enqueue (gb_enqueue_plan: the queue it
		   * joins) and at slice expiry (gb_dispatch_plan: no new slice here) */
	u32 cap;  /* capacity (0..1024) of the CPU it last left as a capacity misfit, 0
		   * when no hold: no CPU of capacity <= cap while the hold lasts; read at
		   * every wake-up and pull (gb_hold_wake, gb_hold_floor) */
	u32 work; /* its demand (gb_task_work, 0..1024) at that move; read with cap */
	u32 pad;
};

/*
 * The pull hold of one task (gb_pull_hold.h): the domain whose queue it last joined, and the
 * last pull that took it out of one.  Kept by the host inside gb_tstate, changed only through
 * gb_pull_hold.h and gb_enqueue_plan.
 */
struct gb_pull_hold {
	u32 from;     /* domain a pull last took it out of, EM_MAX_DOMAINS for none;
		       * read at wake-up (gb_pull_hold_wake) */
	u64 until_ns; /* host time (ns) the hold on from ends */
	u32 span_us;  /* the hold's length (us): GB_PULL_HOLD_MIN_US, doubled up to
		       * GB_PULL_HOLD_MAX_US for a pull from the same domain that the task
		       * has not run in since the last; 0 once it ran there */
	u32 pad;
};

/*
 * What the core keeps per task across calls (gb_track.h, gb_queue.h): the host stores one per
 * task (BPF task storage, the simulator's task), fills the few fields that mirror kernel state
 * before the calls that read them, and otherwise leaves it to the core.
 */
struct gb_tstate {
	struct gb_pelt pelt; /* PELT and util_est of the task (gb_pelt.h), updated by
			      * gb_track_wake, gb_track_ran, gb_track_sleep */
	u64 vtime;	     /* virtual time in weighted work ns (gb_vtime.h), against the
			      * clock of domain vdom; read and written by gb_enqueue_plan,
			      * gb_dispatch_plan, gb_track_ran, gb_queue_start */
	u64 awake_ns;	     /* host time (ns) of its last wake-up; the tick's ran-without-
			      * waking clock (gb_track_ran_us) */
	u64 slice_ns;	     /* the task's own slice in ns (a sched_setattr() runtime), 0 for
			      * the host's default; filled by the host before gb_enqueue_plan and
			      * gb_dispatch_plan */
	u64 run_vtime;	     /* virtual time charged in the run under way (gb_track_ran): the
			      * vtime the run started at is vtime - run_vtime (gb_queue_start) */
	u64 queued_ns;	     /* host time (ns) it last joined a domain's queue (gb_enqueue_plan);
			      * a pull counts its wait from it (gb_queue_waited_us) */
	u32 vdom;	     /* the domain whose clock vtime counts against; >= nr_domains
			      * before the task was first placed in one */
	u32 weight;	     /* scheduling weight, 100 for nice 0 (p->scx.weight, 1..10000);
			      * filled by the host before any call that charges or queues */
	u32 uclamp_min;	     /* requested uclamp_min, 0..1024; filled by the host when it reads
			      * the task's clamps (wake-up, enqueue, tick) */
	u32 uclamp_max;	     /* requested uclamp_max, 0..1024 (1024: none); as uclamp_min */
	struct gb_hold hold; /* the misfit hold (gb_hold.h) */
	u32 queued_util;     /* what it added to its domain's queued demand when it joined the
			      * queue (gb_demand_join), 0 when not counted */
	u32 queued_dom;	     /* that domain, GB_DEMAND_NONE when not counted (gb_demand.h) */
	struct gb_pull_hold pull; /* the pull hold (gb_pull_hold.h) */
	u64 fork_us;		  /* pelt.last_us when gb_track_fork gave the first utilization */
	u32 fork_util;		  /* that first utilization, until the first sleep discounts it from
				   * util_est's first sample (gb_track_sleep); 0 after */
	u32 queued_cpu;		  /* the CPU it was on when it joined a domain's queue
				   * (gb_enq_in.task_cpu), whose waiting_util counts it;
				   * GB_DEMAND_NONE for none (gb_demand.h) */
	u32 wake_idle;		  /* 1 from a wake-up that put it straight on an idle CPU
				   * (gb_track_wake_idle) until its first run is accounted
				   * (gb_track_ran): the wait before that run is not runnable time */
};

/* Where gb_enqueue_plan puts a task. */
enum gb_queue_kind {
	GB_QUEUE_GLOBAL, /* the host's fallback queue: no domain of the model can take it */
	GB_QUEUE_DOMAIN, /* the queue of domain gb_enq_out.dom, ordered by deadline */
	GB_QUEUE_LOCAL,	 /* the local queue of CPU gb_enq_out.cpu, ahead of any domain queue */
};

/* What the host knows when a task is queued (gb_enqueue_plan). */
struct gb_enq_in {
	s32 task_cpu; /* the CPU the task is on: where it last ran, or where the kernel put
		       * it (a wake-up without select_cpu, a CPU that went offline) */
	u8 wakeup;    /* queued by a wake-up, not at slice expiry or a re-queue of a task
		       * that stays runnable (SCX_ENQ_WAKEUP) */
	u8 pinned;    /* allowed on one CPU only (p->nr_cpus_allowed == 1) */
	u8 may_kick;  /* the host can wake another CPU from here (bpf: gb_may_kick); a
		       * pending misfit move is applied only then */
	u8 last;      /* the task gave way at slice expiry and nothing else is runnable
		       * on task_cpu, which goes idle unless the task stays in its local
		       * queue (SCX_ENQ_LAST) */
	u8 preempt;   /* wake-up preemption's mode (the host's --wake-preempt): GB_PREEMPT_OFF,
		       * _LATENCY or _ON (gb_queue.h, gb_preempt.h) */
	u8 pad[3];
	struct em_cpumask allowed; /* CPUs the task may run on (affinity) */
	u64 now_ns;		   /* the host's clock (ns): when the task joins a queue */
};

/* gb_enqueue_plan's answer. */
struct gb_enq_out {
	s32 cpu;	    /* the CPU it is queued for: the local queue's CPU, or the CPU whose
			     * domain queue it joins and which is woken for it */
	u32 dom;	    /* cpu's domain (GB_QUEUE_DOMAIN and GB_QUEUE_LOCAL) */
	u32 queue;	    /* enum gb_queue_kind */
	u32 local_if_empty; /* the local-queue shortcut holds but for the domain queue being
			     * empty, which the host checks (gb_enqueue_take_local) */
	u64 slice_ns;	    /* the slice to give it */
	u64 deadline;	    /* its key in a domain queue (weighted work ns) */
	u32 preempt;	    /* a wake-up into a domain queue of a task in->preempt's mode lets
			     * preempt (gb_preempt_wants): it may preempt
			     * a task of dom (gb_preempt_cpu) when no CPU is woken for it */
	u32 pad;
	u64 preempt_dl; /* with preempt: a running task of dom whose deadline is later
			 * than this is preempted for it (deadline plus its own span,
			 * gb_preempt.h) */
};

/* One domain's queue as dispatch sees it. */
struct gb_dsq_head {
	u8 queued;     /* the queue holds a task, its head described below */
	u8 slice_long; /* the head's slice (the one it was queued with) is longer than the
			* host's default: its grouping class (gb_group.h); read for the CPU's
			* own domain at slice expiry */
	u8 pad[2];
	u32 weight;	  /* the head's scheduling weight (p->scx.weight, 0 read as 100) */
	u64 deadline;	  /* the head's key (gb_enq_out.deadline when it was queued) */
	u64 slice_ns;	  /* the slice it was queued with (0: the host's default); with weight,
			   * its span at slice expiry, which tells the clock its deadline was
			   * keyed against (gb_vtime_head_clock), the one the running task's
			   * credit is limited against; read for the CPU's own domain */
	u64 waited_us;	  /* us the head task has waited since it joined the queue
			   * (gb_queue_waited_us); read for pulls from another domain */
	struct gb_task t; /* the head task as a wake-up fills it (gb_track_task), floor_cap
			   * from its hold (gb_hold_floor), prev_cpu the CPU it last ran on;
			   * read for pulls from another domain (the fit question) */
};

/* What the host knows when a CPU asks for work (gb_dispatch_plan). */
struct gb_disp_in {
	s32 cpu;	  /* the CPU asking for work */
	u8 prev_runnable; /* the task that ran on cpu is still runnable (its slice ran out,
			   * SCX_TASK_QUEUED) and may run on cpu (affinity) */
	u8 group_served;  /* slice-aware grouping is on and another online CPU of cpu's domain
			   * serves the short class (gb_group_served): a long-slice task may
			   * keep cpu at slice expiry (gb_group_keep), the only reader, so a
			   * host may leave it 0 unless the runnable task that ran has a
			   * slice longer than the default */
	u8 pad[2];
	struct gb_dsq_head
	    heads[EM_MAX_DOMAINS]; /* per domain of the model, by index: the
				    * CPU's own domain is read for the slice-expiry comparison and
				    * to consume, the others for pulls */
};

enum gb_dispatch_act {
	GB_DISPATCH_NOTHING,   /* nothing to run: the CPU goes idle */
	GB_DISPATCH_KEEP_PREV, /* the previous task runs another slice (gb_queue_start) */
	GB_DISPATCH_CONSUME,   /* take the head of the first queue of try_mask that has one */
};

/* gb_dispatch_plan's answer. */
struct gb_disp_out {
	u32 act;      /* enum gb_dispatch_act, to do now */
	u32 fallback; /* after CONSUME finds every queue of try_mask empty: KEEP_PREV or
		       * NOTHING */
	u64 try_mask; /* bit d: take from domain d's queue; the CPU's own domain first,
		       * then the others in ascending order (each of those is a pull) */
	u64 slice_ns; /* the previous task's new slice (KEEP_PREV, also as fallback) */
};

/* A priced candidate CPU. */
struct gb_cand {
	s64 delta; /* energy with the task there minus without (cost x util) */
	u64 cost;  /* cost of that OPP: energy per unit of work there */
	u32 idx;   /* OPP its domain would run at */
	u8 raises; /* above the domain's OPP without the task */
	u8 ok;	   /* the task fits there at all */
	u8 mixed;  /* a domain's offer whose every candidate CPU is busy with a task of the
		    * other slice class (gb_group.h) */
	u8 pad;
};

struct gb_domain_scratch {
	u32 base_perf; /* perf the busiest CPU needs without the task */
	u32 base_idx;  /* the OPP serving base_perf */
	u32 busy;      /* sum of CPU utils without the task */
	u32 overutilized;
	s32 spread_cpu; /* allowed CPU with the most spare capacity, for an OU domain */
	u32 spread_spare;
	s32 win;     /* pass 2: the domain's cheapest CPU so far, GB_NO_CPU if none */
	u32 unmixed; /* pass 2: a candidate not busy with the other slice class (gb_group.h) */
	u32 asleep;  /* no online CPU runs a task (the task left out): placing the task there
		      * wakes the cluster (gb_idle.h) */
	u32 pad;
	struct gb_cand cwin;
};

struct gb_scratch {
	struct gb_domain_scratch pd[EM_MAX_DOMAINS];
};

struct gb_decision {
	s32 cpu;	  /* chosen CPU, GB_NO_CPU when no allowed CPU is online */
	u32 reason;	  /* enum gb_reason */
	s64 energy_delta; /* cost x util: chosen minus previous CPU (negative saves) */
	u32 opp_idx;	  /* OPP the chosen domain would run at */
	u32 prev_opp_idx; /* OPP of the previous CPU's domain with the task (0 if none) */
};

/*
 * Hooks.  Placement is a few steps -- pass 1 (gb_scan_domains), pricing one CPU (gb_price) and its
 * OPP searches (em_efficient_state_from), one CPU of pass 2 (gb_consider), one domain of pass 3
 * (gb_domain_offer), a whole search (gb_select_cpu_range) and the fork rule (gb_fork_cpu) --, and
 * dispatch's pull question over the domain queues (gb_pull_mask); the host may route each
 * through a function of its own: the BPF scheduler makes them global
 * subprograms, which the verifier checks once each instead of once per path through the caller
 * (bpf/gearbox_place.h).  The step's code is the same either way.  A hook returns 0 on success
 * (GB_HOOK_RANGE and GB_HOOK_FORK: the CPU, or GB_NO_CPU).
 */
#ifndef GB_HOOK_SCAN
#define GB_HOOK_SCAN(m, cpus, t, s) (gb_scan_domains(m, cpus, t, s), 0)
#endif
#ifndef GB_HOOK_PRICE
#define GB_HOOK_PRICE(m, cpus, t, s, c, out) gb_price_into(m, cpus, t, s, c, out)
#endif
/* em_efficient_state_from() in domain d: the OPP searches of pricing (GB_HOOK_PRICE) */
#ifndef GB_HOOK_OPP_FROM
#define GB_HOOK_OPP_FROM(m, d, perf, start) em_efficient_state_from(gb_pd(m, d), perf, start)
#endif
#ifndef GB_HOOK_CONSIDER
#define GB_HOOK_CONSIDER(m, cpus, t, s, c, min_cap, max_cap)                                       \
	gb_consider(m, cpus, t, s, c, min_cap, max_cap)
#endif
#ifndef GB_HOOK_OFFER
#define GB_HOOK_OFFER(m, cpus, t, s, d, min_cap, max_cap, cwin)                                    \
	gb_domain_offer(m, cpus, t, s, d, min_cap, max_cap, cwin)
#endif
#ifndef GB_HOOK_RANGE
#define GB_HOOK_RANGE(m, cpus, t, min_cap, max_cap, s, out)                                        \
	gb_select_cpu_range(m, cpus, t, min_cap, max_cap, s, out)
#endif
#ifndef GB_HOOK_FORK
#define GB_HOOK_FORK(m, cpus, t) gb_fork_cpu(m, cpus, t)
#endif
/* Dispatch's pulls (gb_dispatch_plan): which other domains' queue heads CPU cpu may take, a
 * bit per domain (gb_pull_mask). */
#ifndef GB_HOOK_PULL_MASK
#define GB_HOOK_PULL_MASK(m, cpus, in, self, pull_after_us)                                        \
	gb_pull_mask(m, cpus, in, self, pull_after_us)
#endif

static __always_inline u32 gb_min(u32 a, u32 b)
{
	return a < b ? a : b;
}
static __always_inline u32 gb_max(u32 a, u32 b)
{
	return a > b ? a : b;
}

static __always_inline const struct em_domain *gb_pd(const struct em_model *m, u32 d)
{
	return &m->domains[d & (EM_MAX_DOMAINS - 1)];
}

static __always_inline const struct gb_cpu *gb_cpu_at(const struct gb_cpu *cpus, u32 c)
{
	return &cpus[c & (EM_MAX_CPUS - 1)];
}

/* CPU c's domain in model m (0xff: none) */
static __always_inline u32 gb_dom_of(const struct em_model *m, u32 c)
{
	return m->cpu_domain[c & (EM_MAX_CPUS - 1)];
}

#endif /* GEARBOX_GB_TYPES_H */
