// SPDX-License-Identifier: GPL-2.0-only
/*
 * sim.c - the simulated SoC of sim.h.  Everything advances in STEP_NS steps.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "sim.h"

#define STEP_NS		   1000000ull /* 1 ms: the meter's sample interval */
#define BASE_UW		   350000.0   /* display off, modem idle: the rest of the device */
#define IDLE_CPU_FRAC	   0.03	      /* idle (WFI) CPU at an OPP, relative to busy power */
#define LEAK_FRAC	   0.06	      /* domain leakage at 25 C, relative to its top OPP */
#define LEAK_DOUBLING_C	   15.0
#define THERMAL_C_PER_W	   12.0
#define THERMAL_TAU_S	   15.0
#define SETTLE_NS	   (30ull * 1000000) /* clock + regulator ramp after a frequency request */
#define METER_NOISE_REL	   0.01
#define METER_NOISE_UW	   500.0
#define METER_LSB_UW	   1000.0
#define SPIKE_PROB	   0.02
#define SPIKE_UW	   380000.0
#define ENERGY_LSB_UJ	   61.0	  /* RAPL's energy unit, 2^-14 J */
#define COUNTER_READ_STEPS 10	  /* the counter is read every 10 ms: 61 uJ is 6 mW */
#define RATE_PER_PERF	   1000.0 /* load iterations per second per unit of perf */
#define RATE_JITTER_REL	   0.002
#define INSTR_PER_ITER	   12289.0 /* 4096 xorshift steps of 3 shift-xor pairs, + loop */
#define INSTR_JITTER_REL   0.001   /* the counter is exact; the load's progress is not */
#define THROTTLE_STEPS	   2
#define GAUGE_POLL_STEPS   10 /* the gauge is polled every 10 ms, as on Linux */

struct sim_domain {
	u32 cur;     /* OPP the hardware runs */
	u32 granted; /* OPP granted by the clock driver (before throttling) */
	u32 pending; /* OPP it will run after the settle time */
	u64 pending_at_ns;
};

struct prof_sim {
	struct em_profile truth;
	struct prof_sim_opts o;
	struct sim_domain dom[EM_MAX_DOMAINS];
	int stuck_dom, stuck_opp;
	struct em_cpumask busy; /* CPUs running the load */
	int counted_cpu;	/* the lowest of them, whose load is counted; -1: none */
	u32 nr_busy[EM_MAX_DOMAINS];
	u64 now_ns;
	double temp_c;
	u64 rng;
	double energy_uj; /* exact energy; the counter is its quantized image */
	u64 counter_uj;
	u32 wraps;
	bool throttled;
	double gauge_acc_uw; /* sum of the true power over the gauge's current interval */
	u32 gauge_steps;     /* steps of it so far */
	double gauge_uw;     /* what the gauge shows: its last interval's mean */
};

void prof_sim_opts_default(struct prof_sim_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->seed = 1;
	o->stuck_dom = PROF_SIM_DEFAULT_STUCK;
	o->max_energy_range_uj = 262143328850ull; /* a common RAPL package range */
	o->ambient_c = 25.0;
	o->throttle_mc = 85000;
	o->static_pct = PROF_SIM_DEFAULT_STATIC_PCT;
}

/* xorshift64*: reproducible noise without global state. */
static double uniform(struct prof_sim *s)
{
	s->rng ^= s->rng >> 12;
	s->rng ^= s->rng << 25;
	s->rng ^= s->rng >> 27;
	return (double)((s->rng * 2685821657736338717ull) >> 11) / 9007199254740992.0;
}

static double gauss(struct prof_sim *s)
{
	double u = uniform(s), v = uniform(s);

	if (u < 1e-300)
		u = 1e-300;
	return sqrt(-2 * log(u)) * cos(2 * M_PI * v);
}

static int domain_of_cpu(const struct prof_sim *s, int cpu)
{
	if (cpu < 0 || cpu >= EM_MAX_CPUS)
		return -1;
	return s->truth.model.cpu_domain[cpu] == 0xff ? -1 : s->truth.model.cpu_domain[cpu];
}

/* The domain's static share at OPP k: the model's own split, else static_pct of power. */
static double static_uw(const struct prof_sim *s, u32 d, u32 k)
{
	const struct em_opp_meta *meta = &s->truth.meta[d][k];

	if (meta->has_split)
		return meta->static_uw;
	return s->o.static_pct / 100 * s->truth.model.domains[d].opps[k].power_uw;
}

/* The true power of the whole device right now, in uW. */
static double true_power_uw(const struct prof_sim *s)
{
	const struct em_model *m = &s->truth.model;
	double p = BASE_UW;

	for (u32 d = 0; d < m->nr_domains; d++) {
		const struct em_domain *pd = &m->domains[d];
		const struct em_opp *o = &pd->opps[s->dom[d].cur];
		double top = pd->opps[pd->nr_opps - 1].power_uw;
		double fscale = (double)o->freq_khz / pd->opps[pd->nr_opps - 1].freq_khz;
		double idle_cpu =
		    pd->idle_power_uw ? pd->idle_power_uw : IDLE_CPU_FRAC * o->power_uw;

		p += pd->nr_cpus * idle_cpu;
		p += LEAK_FRAC * top * fscale * exp2((s->temp_c - 25.0) / LEAK_DOUBLING_C);
		/* power_uw is one busy CPU including the static share: k CPUs draw the share
		 * once and the rest k times */
		if (s->nr_busy[d]) {
			double st = static_uw(s, d, s->dom[d].cur);

			p += st + s->nr_busy[d] * (o->power_uw - st);
		}
	}
	return p;
}

static void step(struct prof_sim *s, double p_uw)
{
	double dt_s = STEP_NS / 1e9;
	double target_c = s->o.ambient_c + THERMAL_C_PER_W * (p_uw - BASE_UW) / 1e6;

	s->temp_c += (target_c - s->temp_c) * dt_s / THERMAL_TAU_S;
	s->now_ns += STEP_NS;
	/* Thermal throttling caps every domain THROTTLE_STEPS below its top, with hysteresis. */
	if (s->o.throttle_mc && s->temp_c * 1000 > s->o.throttle_mc)
		s->throttled = true;
	else if (s->temp_c * 1000 < s->o.throttle_mc - 2000)
		s->throttled = false;
	for (u32 d = 0; d < s->truth.model.nr_domains; d++) {
		struct sim_domain *sd = &s->dom[d];
		u32 n = s->truth.model.domains[d].nr_opps;
		u32 cap = n > THROTTLE_STEPS ? n - 1 - THROTTLE_STEPS : 0;

		if (sd->granted != sd->pending && s->now_ns >= sd->pending_at_ns)
			sd->granted = sd->pending;
		sd->cur = s->throttled && sd->granted > cap ? cap : sd->granted;
	}
}

static int sim_set_freq(void *ctx, u32 d, u32 freq_khz, struct gb_err *err)
{
	struct prof_sim *s = ctx;
	const struct em_domain *pd;

	if (d >= s->truth.model.nr_domains)
		return gb_err_set(err, EINVAL, "sim: no domain %u", d);
	pd = &s->truth.model.domains[d];
	for (u32 k = 0; k < pd->nr_opps; k++) {
		if (pd->opps[k].freq_khz != freq_khz)
			continue;
		/* The firmware accepts the request and keeps the old clock. */
		if ((int)d == s->stuck_dom && (int)k == s->stuck_opp)
			return 0;
		s->dom[d].pending = k;
		s->dom[d].pending_at_ns = s->now_ns + SETTLE_NS;
		return 0;
	}
	return gb_err_set(err, EINVAL, "sim: %s has no OPP at %u kHz", pd->name, freq_khz);
}

static int sim_set_load(void *ctx, const struct em_cpumask *cpus, struct gb_err *err)
{
	struct prof_sim *s = ctx;

	memset(&s->busy, 0, sizeof(s->busy));
	memset(s->nr_busy, 0, sizeof(s->nr_busy));
	s->counted_cpu = -1;
	for (int c = 0; cpus && c < EM_MAX_CPUS; c++) {
		if (!em_cpumask_test(cpus, (u32)c))
			continue;
		if (domain_of_cpu(s, c) < 0)
			return gb_err_set(err, EINVAL, "sim: no CPU %d", c);
		em_cpumask_set(&s->busy, (u32)c);
		s->nr_busy[domain_of_cpu(s, c)]++;
		if (s->counted_cpu < 0)
			s->counted_cpu = c;
	}
	return 0;
}

static void integrate_energy(struct prof_sim *s, double p_uw);
static void gauge_step(struct prof_sim *s, double p_uw);

static void sim_wait(void *ctx, u64 ns)
{
	struct prof_sim *s = ctx;

	for (u64 t = 0; t < ns; t += STEP_NS) {
		double p = true_power_uw(s);

		if (s->o.energy_counter)
			integrate_energy(s, p);
		if (s->o.gauge_ms)
			gauge_step(s, p);
		step(s, p);
	}
}

static double meter_sample(struct prof_sim *s, double p_uw)
{
	double x = p_uw + gauss(s) * (METER_NOISE_REL * p_uw + METER_NOISE_UW);

	if (uniform(s) < SPIKE_PROB)
		x += SPIKE_UW * (0.9 + 0.2 * uniform(s));
	x = round(x / METER_LSB_UW) * METER_LSB_UW;
	return x < 0 ? 0 : x;
}

/* The fuel gauge's accumulation, every step: at each update it shows the interval's mean,
 * with the meter's noise and quantization. */
static void gauge_step(struct prof_sim *s, double p_uw)
{
	s->gauge_acc_uw += p_uw;
	if (++s->gauge_steps < s->o.gauge_ms)
		return;
	s->gauge_uw = meter_sample(s, s->gauge_acc_uw / s->gauge_steps);
	s->gauge_acc_uw = 0;
	s->gauge_steps = 0;
}

/* Energy is integrated exactly every step.  A counter covers the CPU rails only (RAPL,
 * DTPM), so the device's background spikes reach it rarely, but then as real energy. */
static void integrate_energy(struct prof_sim *s, double p_uw)
{
	double spike = uniform(s) < SPIKE_PROB / 100 ? SPIKE_UW : 0;

	p_uw -= BASE_UW;
	s->energy_uj += (p_uw + spike + gauss(s) * METER_NOISE_REL * p_uw) * (STEP_NS / 1e9);
}

/* The counter as read: the exact energy in LSB steps, wrapping; returns the mean power
 * since the previous read. */
static double counter_sample(struct prof_sim *s)
{
	u64 prev = s->counter_uj, cur;

	cur = (u64)(floor(s->energy_uj / ENERGY_LSB_UJ) * ENERGY_LSB_UJ);
	cur %= s->o.max_energy_range_uj;
	if (cur < prev)
		s->wraps++;
	s->counter_uj = cur;
	return (double)prof_energy_delta_uj(prev, cur, s->o.max_energy_range_uj) * 1e9 /
	       (STEP_NS * COUNTER_READ_STEPS);
}

/* What the load did in one step on the counted CPU's domain (busy >= 0). */
static void count_work(struct prof_sim *s, int busy, double *work, double *cycles)
{
	const struct em_opp *o = &s->truth.model.domains[busy].opps[s->dom[busy].cur];

	*work += o->perf * RATE_PER_PERF * (STEP_NS / 1e9);
	*cycles += o->freq_khz * 1e3 * (STEP_NS / 1e9);
}

/*
 * A window read from the fuel gauge: polled every GAUGE_POLL_STEPS for at least
 * PROF_SIM_GAUGE_UPDATES updates; the readings before the second update are dropped (the one
 * showing at the start, and the first update's, average time before the window).
 */
static void gauge_window(struct prof_sim *s, u64 duration_ns, int busy, struct prof_window *w,
			 double *work, double *cycles)
{
	u64 min_ns = (u64)PROF_SIM_GAUGE_UPDATES * s->o.gauge_ms * STEP_NS;
	u64 end = duration_ns > min_ns ? duration_ns : min_ns;
	double last = s->gauge_uw;
	u32 changes = 0, from[2] = {0, 0}, keep;

	for (u64 t = 0, i = 1; t < end && w->nr_power < PROF_MAX_WINDOW_SAMPLES;
	     t += STEP_NS, i++) {
		double p = true_power_uw(s);

		if (busy >= 0)
			count_work(s, busy, work, cycles);
		gauge_step(s, p);
		step(s, p);
		w->duration_ns += STEP_NS;
		if (i % GAUGE_POLL_STEPS)
			continue;
		if (s->gauge_uw != last && changes < 2)
			from[changes++] = w->nr_power;
		last = s->gauge_uw;
		w->power_uw[w->nr_power++] = (u32)s->gauge_uw;
	}
	keep = changes ? from[changes - 1] : 0;
	if (keep >= w->nr_power)
		keep = 0;
	memmove(w->power_uw, w->power_uw + keep, (w->nr_power - keep) * sizeof(w->power_uw[0]));
	w->nr_power -= keep;
	w->from_energy = false;
	w->power_lsb_uw = (u32)METER_LSB_UW;
}

static int sim_window(void *ctx, u64 duration_ns, struct prof_window *w, struct gb_err *err)
{
	struct prof_sim *s = ctx;
	int busy = domain_of_cpu(s, s->counted_cpu);
	double work = 0, cycles = 0;

	(void)err;
	if (s->o.gauge_ms) {
		gauge_window(s, duration_ns, busy, w, &work, &cycles);
		goto counted;
	}
	/* a counter read at the start of the window; the sample before it spans the switch */
	if (s->o.energy_counter)
		counter_sample(s);
	for (u64 t = 0, i = 1; t < duration_ns; t += STEP_NS, i++) {
		double p = true_power_uw(s);

		if (busy >= 0)
			count_work(s, busy, &work, &cycles);
		step(s, p);
		if (s->o.energy_counter)
			integrate_energy(s, p);
		if (w->nr_power >= PROF_MAX_WINDOW_SAMPLES)
			continue;
		if (!s->o.energy_counter)
			w->power_uw[w->nr_power++] = (u32)meter_sample(s, p);
		else if (i % COUNTER_READ_STEPS == 0)
			w->power_uw[w->nr_power++] = (u32)counter_sample(s);
		w->duration_ns += STEP_NS;
	}
	w->from_energy = s->o.energy_counter;
	w->power_lsb_uw =
	    (u32)(s->o.energy_counter ? ENERGY_LSB_UJ * 1e9 / (STEP_NS * COUNTER_READ_STEPS)
				      : METER_LSB_UW);
counted:
	if (busy >= 0) {
		w->work = (u64)llround(work * (1 + RATE_JITTER_REL * gauss(s)));
		w->task_clock_ns = w->duration_ns;
		w->cycles = s->o.count_cycles ? (u64)llround(cycles) : 0;
		w->instructions =
		    s->o.count_instructions
			? (u64)llround(work * INSTR_PER_ITER * (1 + INSTR_JITTER_REL * gauss(s)))
			: 0;
	}
	return 0;
}

static u64 sim_now_ns(void *ctx)
{
	return ((struct prof_sim *)ctx)->now_ns;
}

static int sim_temp_mc(void *ctx, int *mc)
{
	*mc = (int)lround(((struct prof_sim *)ctx)->temp_c * 1000);
	return 0;
}

int prof_sim_create(const struct em_profile *truth, const struct prof_sim_opts *o,
		    struct prof_sim **out, struct gb_err *err)
{
	const struct em_model *m = &truth->model;
	struct prof_sim *s;

	if (m->nr_domains == 0)
		return gb_err_set(err, EINVAL, "sim: the model has no domain");
	for (u32 d = 0; d < m->nr_domains; d++)
		if (m->domains[d].nr_opps == 0 || m->domains[d].nr_cpus == 0)
			return gb_err_set(err, EINVAL, "sim: domain %u has no OPP or no CPU", d);
	if (o->gauge_ms &&
	    (o->gauge_ms < PROF_SIM_GAUGE_MIN_MS || o->gauge_ms > PROF_SIM_GAUGE_MAX_MS))
		return gb_err_set(err, EINVAL, "--sim-gauge %u: expected %u to %u ms", o->gauge_ms,
				  PROF_SIM_GAUGE_MIN_MS, PROF_SIM_GAUGE_MAX_MS);
	if (o->gauge_ms && o->energy_counter)
		return gb_err_set(err, EINVAL,
				  "--sim-gauge and --sim-energy-counter: the board has one meter");
	s = calloc(1, sizeof(*s));
	if (!s)
		return gb_err_set(err, ENOMEM, "out of memory");
	s->truth = *truth;
	s->o = *o;
	if (!s->o.max_energy_range_uj)
		s->o.max_energy_range_uj = 262143328850ull;
	s->rng = o->seed * 0x9e3779b97f4a7c15ull + 1;
	s->counted_cpu = -1;
	s->temp_c = o->ambient_c;
	s->stuck_dom = o->stuck_dom;
	s->stuck_opp = o->stuck_opp;
	if (o->stuck_dom == PROF_SIM_DEFAULT_STUCK) {
		s->stuck_dom = (int)m->nr_domains - 1;
		s->stuck_opp = (int)m->domains[m->nr_domains - 1].nr_opps / 2;
	} else if (s->stuck_dom >= 0 && (u32)s->stuck_dom >= m->nr_domains) {
		free(s);
		return gb_err_set(err, EINVAL, "--sim-stuck %d:%d: the model has %u domains (0-%u)",
				  o->stuck_dom, o->stuck_opp, m->nr_domains, m->nr_domains - 1);
	} else if (s->stuck_dom >= 0 &&
		   (s->stuck_opp < 0 || (u32)s->stuck_opp >= m->domains[s->stuck_dom].nr_opps)) {
		u32 nr = m->domains[s->stuck_dom].nr_opps;

		free(s);
		return gb_err_set(err, EINVAL, "--sim-stuck %d:%d: domain %d has %u OPPs (0-%u)",
				  o->stuck_dom, o->stuck_opp, o->stuck_dom, nr, nr - 1);
	}
	/* Boot state: every domain at its top OPP, as after a performance-governor boot. */
	for (u32 d = 0; d < m->nr_domains; d++)
		s->dom[d].cur = s->dom[d].granted = s->dom[d].pending = m->domains[d].nr_opps - 1;
	*out = s;
	return 0;
}

void prof_sim_platform(struct prof_sim *s, struct prof_platform *pf, struct prof_topology *topo)
{
	const struct em_model *m = &s->truth.model;

	memset(pf, 0, sizeof(*pf));
	pf->ctx = s;
	pf->name = "sim";
	pf->set_freq = sim_set_freq;
	pf->set_load = sim_set_load;
	pf->window = sim_window;
	pf->wait = sim_wait;
	pf->now_ns = sim_now_ns;
	pf->temp_mc = sim_temp_mc;
	memset(topo, 0, sizeof(*topo));
	snprintf(topo->soc, sizeof(topo->soc), "%s", s->truth.soc);
	snprintf(topo->device, sizeof(topo->device), "simulated %s", s->truth.soc);
	if (s->o.gauge_ms)
		snprintf(topo->power_source, sizeof(topo->power_source),
			 "simulated fuel gauge (updates every %u ms, windows of at least %u ms)",
			 s->o.gauge_ms, PROF_SIM_GAUGE_UPDATES * s->o.gauge_ms);
	else
		snprintf(topo->power_source, sizeof(topo->power_source), "%s",
			 s->o.energy_counter ? "simulated energy counter (61 uJ LSB)"
					     : "simulated 1 ms power meter");
	topo->perf_src = s->o.count_instructions ? PROF_PERF_INSTRUCTIONS : PROF_PERF_ITERATIONS;
	snprintf(topo->perf_why, sizeof(topo->perf_why), "%s",
		 s->o.count_instructions
		     ? "instructions per second (simulated PMU, --sim-instructions)"
		     : "load iterations per second (the simulated PMU counts "
		       "no instructions; --sim-instructions adds them)");
	topo->nr_domains = m->nr_domains;
	for (u32 d = 0; d < m->nr_domains; d++) {
		const struct em_domain *pd = &m->domains[d];

		memcpy(topo->dom[d].name, pd->name, sizeof(pd->name));
		topo->dom[d].cpus = pd->cpus;
		topo->dom[d].nr_opps = pd->nr_opps;
		for (u32 k = 0; k < pd->nr_opps; k++)
			topo->dom[d].freq_khz[k] = pd->opps[k].freq_khz;
	}
}

bool prof_sim_stuck(const struct prof_sim *s, u32 *dom, u32 *opp)
{
	if (s->stuck_dom < 0)
		return false;
	*dom = (u32)s->stuck_dom;
	*opp = (u32)s->stuck_opp;
	return true;
}

u32 prof_sim_wraps(const struct prof_sim *s)
{
	return s->wraps;
}

void prof_sim_destroy(struct prof_sim *s)
{
	free(s);
}
