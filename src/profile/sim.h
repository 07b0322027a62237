/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * sim.h - the simulated SoC behind `gearbox profile --sim MODEL.json`.
 *
 * The ground truth is an em-profile: one busy CPU of a domain at OPP k draws exactly
 * opps[k].power_uw more than the idle domain at that OPP, and the load runs at a rate
 * proportional to opps[k].perf.  Around that truth the simulator adds what a real board does
 * to a measurement:
 *   - the rest of the device draws a base power, and every powered domain leaks, more when
 *     hot (doubling every LEAK_DOUBLING_C): subtracting the idle power at the same OPP is what
 *     removes both;
 *   - a first-order thermal model (the SoC heats with its power, cools to ambient);
 *   - a sampled meter (1 ms, hwmon-like) with proportional and absolute noise, quantized to
 *     1 mW, and spikes like the 415 mW samples among ~30 mW in the freqbench raw data; or an
 *     energy counter (powercap-like) quantized to 61 uJ that wraps at max_energy_range_uj;
 *     or a battery fuel gauge that shows, every gauge_ms, the mean power of the interval
 *     that just ended (phones update every 100 ms to 1 s), read as the Linux platform reads
 *     one: polled every 10 ms, windows at least PROF_SIM_GAUGE_UPDATES updates long, the
 *     readings before the window's second update dropped;
 *   - a frequency change takes effect only after a settle time;
 *   - one OPP silently does not apply: the domain stays at its previous frequency;
 *   - optionally thermal throttling above throttle_mc, what the thermal guard prevents;
 *   - a static share per domain: the model's power_uw is one busy CPU *including* the
 *     domain's static share (what freqbench and the kernel's EM measure), so with k CPUs
 *     busy the domain draws static + k * (power_uw - static).  static is the model's own
 *     "split" where it has one, else static_pct of power_uw at every OPP.  A constant share
 *     is a simplification (leakage falls relative to dynamic power as voltage rises); it
 *     only needs to be known for the split's test to have a ground truth.
 * Time is simulated: wait() and window() advance a clock, so a profile that would take
 * minutes on a board runs in well under a second.
 */
#ifndef GEARBOX_PROF_SIM_H
#define GEARBOX_PROF_SIM_H

#include "profile.h"

#define PROF_SIM_NO_STUCK	    (-2)
#define PROF_SIM_DEFAULT_STUCK	    (-1)
#define PROF_SIM_DEFAULT_STATIC_PCT 20.0
#define PROF_SIM_GAUGE_MIN_MS	    10
#define PROF_SIM_GAUGE_MAX_MS	    5000
#define PROF_SIM_GAUGE_UPDATES	    5

struct prof_sim_opts {
	u64 seed;
	bool energy_counter;	 /* powercap-like counter instead of a sampled meter */
	u32 gauge_ms;		 /* a fuel gauge updating every gauge_ms instead (0: off) */
	bool count_cycles;	 /* a PMU that counts cycles (most Arm boards) */
	bool count_instructions; /* ... and instructions: perf from instructions per second */
	int stuck_dom;		 /* PROF_SIM_DEFAULT_STUCK: the middle OPP of the last domain */
	int stuck_opp;
	u64 max_energy_range_uj;
	double ambient_c;
	int throttle_mc;   /* above this the SoC throttles (0: never) */
	double static_pct; /* the domains' static share of power_uw, percent */
};

void prof_sim_opts_default(struct prof_sim_opts *o);

struct prof_sim;

int prof_sim_create(const struct em_profile *truth, const struct prof_sim_opts *o,
		    struct prof_sim **out, struct gb_err *err);
/* Fills the platform table and the topology the simulated board shows. */
void prof_sim_platform(struct prof_sim *s, struct prof_platform *pf, struct prof_topology *topo);
/* The OPP that does not apply; false when none. */
bool prof_sim_stuck(const struct prof_sim *s, u32 *dom, u32 *opp);
/* How many times the energy counter wrapped. */
u32 prof_sim_wraps(const struct prof_sim *s);
void prof_sim_destroy(struct prof_sim *s);

#endif
