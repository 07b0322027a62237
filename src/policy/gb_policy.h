/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * gb_policy.h - scx_gearbox's scheduler core, written once for its two hosts: the BPF scheduler
 * (bpf/gearbox.bpf.c reads kernel state, calls the core, applies the answer) and the simulator
 * (src/sim/).  BPF-safe C: no libc, no floats, bounded loops, fixed-point arithmetic.
 *
 * The host fills plain structs -- the energy model, one gb_cpu per CPU, one gb_task for the task
 * a decision is about (the contract: gb_types.h, docs/scheduler.md) -- and calls:
 *
 *   gb_select_cpu()          wake-up and fork placement                          gb_place.h
 *   gb_prev_is_cheapest()    a test that lets a host skip gb_select_cpu()'s search
 *   gb_check_misfit()        at the tick, for the running task: capacity and power misfit
 *   gb_misfit_hold()         after a capacity-misfit move, the floor for placement and pulls
 *                                                                                gb_misfit.h
 *   gb_domain_perf_target()  the performance to run a domain at (gb_cpuperf_for_schedutil()
 *                            turns it into the cpuperf target schedutil expects)  gb_freq.h
 *   gb_domain_overutilized() the per-domain 80% tipping point                    gb_fit.h
 *   gb_may_pull()            may an idle CPU take a task waiting elsewhere       gb_pull.h
 *   gb_vtime_*()             virtual time, deadlines and the choice at slice expiry
 *                                                                                gb_vtime.h
 *   gb_enqueue_plan()        the queue, slice and deadline of a task that waits
 *   gb_dispatch_plan()       what a CPU asking for work runs: the task whose slice ran out,
 *                            its domain's queue, or a pull (gb_may_pull_queue)  gb_queue.h
 *   gb_preempt_cpu()         the CPU a task woken into a busy domain preempts, if any;
 *                            gb_preempt_note() notes a running task's deadline  gb_preempt.h
 *   gb_demand_*()            the queued demand: a domain queue's waiting tasks counted on
 *                            the domain's CPUs                                   gb_demand.h
 *   gb_hold_*()              the misfit hold's state: moved, wake, floor, target gb_hold.h
 *   gb_track_*()             per-task and per-CPU tracking: wake-up, run time, sleep, idle
 *                            decay, the gb_task a decision reads             gb_track.h
 *
 * One header per concern, each including what it builds on:
 *
 *   gb_types.h   the contract's structs, reason codes, shared constants
 *   gb_fit.h     fit and capacity, over-utilization
 *   gb_freq.h    frequency requests
 *   gb_place.h   placement (how it prices a CPU is explained there)
 *   gb_group.h   slice-aware grouping: long-slice tasks and the others on different CPUs
 *   gb_misfit.h  capacity and power misfit, the misfit hold
 *   gb_pull.h    the idle pull
 *   gb_vtime.h   queueing order and virtual time
 *   gb_pelt.h    PELT and util_est signals
 *   gb_hold.h    the misfit hold as a type
 *   gb_track.h   per-task and per-CPU tracking
 *   gb_queue.h   enqueue and dispatch (how a host calls the core: its top comment)
 *   gb_preempt.h wake-up preemption
 *   gb_demand.h  the queued demand
 */
#ifndef GEARBOX_GB_POLICY_H
#define GEARBOX_GB_POLICY_H

#include "gb_demand.h"
#include "gb_fit.h"
#include "gb_freq.h"
#include "gb_group.h"
#include "gb_hold.h"
#include "gb_misfit.h"
#include "gb_place.h"
#include "gb_preempt.h"
#include "gb_pull.h"
#include "gb_pull_hold.h"
#include "gb_queue.h"
#include "gb_track.h"
#include "gb_types.h"
#include "gb_vtime.h"

#endif /* GEARBOX_GB_POLICY_H */
