/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * gb_pelt.h - utilization tracking shared by the simulator and the BPF scheduler.
 *
 * The kernel's PELT (kernel/sched/pelt.c), reduced to what placement needs.  Time is split in
 * periods of 1024 us; a signal's sum decays by y per period with y^32 = 1/2, so a task that
 * stops running loses half its utilization in 32 ms.  While a task runs, each microsecond adds
 * perf_cur (the performance, 0..1024, of the OPP its CPU's domain runs at): the signal is
 * frequency- and capacity-invariant, a task that runs all the time on a CPU of capacity 300 at
 * its top OPP converges to util 300.  The averages are
 *
 *   util_avg     = util_sum     / (LOAD_AVG_MAX - 1024 + period_contrib)   0..1024
 *   runnable_avg = runnable_sum / (same)                                   0..1024 per task
 *
 * where runnable counts time running *or waiting* (scaled the same way), so runnable_avg -
 * util_avg is the task's share of contention.  util_est keeps the utilization of the last
 * activations (the kernel's util_est.ewma with UTIL_EST_FASTUP): it rises at once and decays by
 * 1/4 of the gap at each dequeue, so a periodic task that slept long keeps its size.
 *
 * BPF-safe: integers only, no loops except bounded ones, 64-bit products kept below 2^64.
 */
#ifndef GEARBOX_GB_PELT_H
#define GEARBOX_GB_PELT_H

#include "em_types.h"

#define GB_PELT_PERIOD_US 1024
#define GB_PELT_HALFLIFE  32	/* periods */
#define GB_LOAD_AVG_MAX	  47742 /* the kernel's LOAD_AVG_MAX: 1024 * sum y^n, truncated */

struct gb_pelt {
	u64 last_us; /* time of the last update */
	u64 util_sum;
	u64 runnable_sum;
	u32 period_contrib; /* us of the current, incomplete period already accounted */
	u32 util_avg;
	u32 runnable_avg;
	u32 util_est; /* ewma of util_avg at dequeue, see gb_util_est_dequeue() */
};

/* y^n * 2^32 for n = 0..31 (the kernel's runnable_avg_yN_inv, rounded). */
static const u32 gb_pelt_yn_inv[GB_PELT_HALFLIFE] = {
    0xffffffff, 0xfa83b2db, 0xf5257d15, 0xefe4b99b, 0xeac0c6e7, 0xe5b906e7, 0xe0ccdeec, 0xdbfbb797,
    0xd744fcca, 0xd2a81d91, 0xce248c15, 0xc9b9bd86, 0xc5672a11, 0xc12c4cca, 0xbd08a39f, 0xb8fbaf47,
    0xb504f333, 0xb123f581, 0xad583eea, 0xa9a15ab4, 0xa5fed6a9, 0xa2704303, 0x9ef53260, 0x9b8d39b9,
    0x9837f051, 0x94f4efa8, 0x91c3d373, 0x8ea4398b, 0x8b95c1e3, 0x88980e80, 0x85aac367, 0x82cd8698,
};

/* val * y^n (decay_load): halve per 32 periods, then the table for the rest. */
static __always_inline u64 gb_pelt_decay(u64 val, u64 n)
{
	u32 inv;

	if (n > GB_PELT_HALFLIFE * 63)
		return 0;
	val >>= n / GB_PELT_HALFLIFE;
	inv = gb_pelt_yn_inv[(n % GB_PELT_HALFLIFE) & (GB_PELT_HALFLIFE - 1)];
	/* (val * inv) >> 32 without overflowing 64 bits */
	return (val >> 32) * inv + (((val & 0xffffffffull) * inv) >> 32);
}

/*
 * gb_pelt_accumulate - accounts the time since the last update, during which the entity ran at
 * run_perf (0 when it did not run) and was runnable with weight runnable_perf (0 when asleep;
 * for a CPU, perf times the number of runnable tasks): the sums and the current period, not the
 * averages (gb_pelt_averages).  Like accumulate_sum(): the part of the first period that
 * completes (d1), the full periods between (d2, a closed form), the start of the current period
 * (d3).  Return: true when there was time to account (now_us after the last update).
 */
static __always_inline bool gb_pelt_accumulate(struct gb_pelt *sa, u64 now_us, u32 run_perf,
					       u32 runnable_perf)
{
	u64 delta, periods, contrib;

	if (now_us <= sa->last_us)
		return false;
	delta = now_us - sa->last_us;
	sa->last_us = now_us;
	contrib = delta;
	delta += sa->period_contrib;
	periods = delta / GB_PELT_PERIOD_US;
	if (periods) {
		u64 d1 = GB_PELT_PERIOD_US - sa->period_contrib;

		sa->util_sum = gb_pelt_decay(sa->util_sum, periods);
		sa->runnable_sum = gb_pelt_decay(sa->runnable_sum, periods);
		delta %= GB_PELT_PERIOD_US;
		contrib = gb_pelt_decay(d1, periods) + GB_LOAD_AVG_MAX -
			  gb_pelt_decay(GB_LOAD_AVG_MAX, periods) - GB_PELT_PERIOD_US + delta;
	}
	sa->period_contrib = (u32)delta;
	sa->util_sum += contrib * run_perf;
	sa->runnable_sum += contrib * runnable_perf;
	return true;
}

/*
 * gb_pelt_accumulate_two - gb_pelt_accumulate over two stretches in a row: until mid_us the
 * entity did not run and was runnable with weight wait_perf (0 when it was not runnable), then
 * until now_us it ran at perf, runnable with perf (mid_us <= now_us).  The same sums, period and
 * return as the two calls: within the current period the two stretches' contributions add up
 * (the products are exact), so they are accounted in one step there, which is most runs; a run
 * that completes a period takes the two calls.
 */
static __always_inline bool gb_pelt_accumulate_two(struct gb_pelt *sa, u64 mid_us, u64 now_us,
						   u32 wait_perf, u32 perf)
{
	u64 last = sa->last_us, delta, ran;

	if (now_us <= last)
		return false;
	delta = now_us - last;
	if (delta + sa->period_contrib >= GB_PELT_PERIOD_US) {
		bool first = gb_pelt_accumulate(sa, mid_us, 0, wait_perf);

		return gb_pelt_accumulate(sa, now_us, perf, perf) || first;
	}
	ran = mid_us > last ? now_us - mid_us : delta;
	sa->last_us = now_us;
	sa->period_contrib += (u32)delta;
	sa->util_sum += ran * perf;
	sa->runnable_sum += (delta - ran) * wait_perf + ran * perf;
	return true;
}

/* The averages of the sums as they stand (___update_load_avg()). */
static __always_inline void gb_pelt_averages(struct gb_pelt *sa)
{
	u32 divider = GB_LOAD_AVG_MAX - GB_PELT_PERIOD_US + sa->period_contrib;

	sa->util_avg = (u32)(sa->util_sum / divider);
	sa->runnable_avg = (u32)(sa->runnable_sum / divider);
}

/* gb_pelt_update - gb_pelt_accumulate, then the averages when it accounted time. */
static __always_inline void gb_pelt_update(struct gb_pelt *sa, u64 now_us, u32 run_perf,
					   u32 runnable_perf)
{
	if (gb_pelt_accumulate(sa, now_us, run_perf, runnable_perf))
		gb_pelt_averages(sa);
}

/* util_est's sample at a dequeue: it follows sample up at once, down by 1/4 of the gap. */
static __always_inline void gb_util_est_sample(struct gb_pelt *sa, u32 sample)
{
	if (sample >= sa->util_est)
		sa->util_est = sample;
	else
		sa->util_est -= (sa->util_est - sample) >> 2;
}

/* At dequeue (the task goes to sleep): util_est samples util_avg. */
static __always_inline void gb_util_est_dequeue(struct gb_pelt *sa)
{
	gb_util_est_sample(sa, sa->util_avg);
}

/* The utilization placement should plan for: max(util_avg, util_est). */
static __always_inline u32 gb_task_util_est(const struct gb_pelt *sa)
{
	return sa->util_avg > sa->util_est ? sa->util_avg : sa->util_est;
}

#endif /* GEARBOX_GB_PELT_H */
