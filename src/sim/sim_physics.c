// SPDX-License-Identifier: GPL-2.0-only
/*
 * sim_physics.c - what the SoC does around the tasks: idle states, cluster power-down, the
 * cpufreq governor with its rate limit and transition latency, and the cost of a migration.
 *
 * Idle (models with idle_states, docs/em-profile.md).  A CPU that goes idle picks a state the
 * way cpuidle's menu governor does: the predicted idle time is the time to the next timer armed
 * on that CPU (a task sleeping there), shortened to the CPU's typical idle interval when its
 * last SIM_IDLE_HIST idle periods agree (stddev within a sixth of their mean, menu's
 * get_typical_interval()); the deepest state whose min_residency_us fits is entered.  When the
 * last CPU of a domain goes idle, the cluster takes the deepest cluster state whose
 * min_residency_us fits the shortest prediction among its CPUs.  A state's power applies once
 * its entry latency has passed (before that the CPU draws its shallowest state's).  A wake-up
 * pays the exit latency: the woken task runs exit_latency_us later (plus what is left of the
 * entry), and a cluster state's exit latency when the cluster was down (the larger of the two:
 * the device tree's cluster latencies cover the whole path).  The domain draws static_uw while
 * any CPU is out of the cluster state, and the cluster state's power while it is in it.
 *
 * Entering and leaving a state costs energy.  The idle-states device-tree binding defines
 * min-residency-us as the residency (entry included) from which the state is the more
 * energy-efficient choice: there its entry, residency and exit cost what staying in the
 * shallowest state would.  The CPU draws the shallowest state's power (WFI, p0) during the entry
 * and exit latencies, the state's own (pk) in between, and at each exit pays the energy that
 * makes the break-even hold: (p0 - pk) x (min_residency - entry), since over an idle period of
 * R us and the exit X that follows it the deeper state then costs p0 x (entry + X) +
 * pk x (R - entry) + (p0 - pk) x (min_residency - entry), which equals WFI's p0 x (R + X) at
 * R = min_residency.  A cluster state likewise, with static_uw as the shallow power.  A woken CPU
 * does not draw its OPP's power until its exit is over: the firmware's power-up runs in place of
 * the task, and what it costs is in the break-even energy.
 *
 * Busy power.  A running CPU draws its OPP's power_uw, one busy CPU including the domain's
 * share that does not scale with the number of busy CPUs.  Where the domain has idle states and
 * the OPP a measured split (gearbox profile --split-cpus), the domain instead draws the split's
 * static_uw once while any of its CPUs runs, and each running CPU its dynamic_uw: k CPUs busy
 * cost static + k x dynamic above the idle draw, as measured, not k x power_uw.
 *
 * Frequency: schedutil (kernel/sched/cpufreq_schedutil.c, 6.8+).  For a fair task's CPU the
 * utilization is cpu_util_cfs_boost(): max(util_avg, runnable_avg) of the CPU, and at least the
 * util_est of its enqueued tasks; under sched_ext (the gearbox policy, scx_switched_all()) it is
 * the scheduler's cpuperf target, gb_cpuperf_for_schedutil(gb_domain_perf_target()), what
 * scx_gearbox passes to scx_bpf_cpuperf_set().  Either goes through
 * effective_cpu_util() and sugov_effective_cpu_perf(): x1.25 headroom, then the run queue's
 * uclamp (max of min, min of max); the domain takes its busiest CPU and the first efficient OPP
 * at or above it.  A new request is made at most once per --dvfs-rate-us (sugov's rate_limit_us)
 * and takes effect transition_latency_us later (the model's per-domain value, else
 * SIM_DVFS_LATENCY_US); a request made while a transition is under way replaces its target.
 *
 * Migration: a task moved to another domain while cache-hot (running, waiting, or run within
 * the last SIM_MIGRATION_COST_US) refills its caches: it does half its usual work per us for its
 * next SIM_MIGRATION_COST_US of running.
 */
#include "sim_internal.h"

/* Only a task's own timer wakes a CPU on its own in this model; no idle period is longer. */
#define SIM_IDLE_FOREVER_US (~0ull >> 2)

bool sim_has_idle_states(const struct sim *s, u32 d)
{
	return s->prof->idle[d].present;
}

/* The time to the next timer armed on cpu: a task sleeping that last ran there. */
static u64 next_timer_us(const struct sim *s, u32 cpu)
{
	u64 next = SIM_IDLE_FOREVER_US;

	for (u32 i = 0; i < s->nr_tasks; i++) {
		const struct sim_task *t = &s->tasks[i];

		if (t->cpu == (s32)cpu && t->state == TS_SLEEP && t->wake_at_us > s->now_us &&
		    t->wake_at_us - s->now_us < next)
			next = t->wake_at_us - s->now_us;
	}
	return next;
}

/* menu's get_typical_interval(), reduced: the mean of the last idle periods when they agree. */
static u64 typical_interval_us(const struct sim_cpu *c)
{
	u64 sum = 0, var = 0, avg;

	if (c->idle_hist_n < SIM_IDLE_HIST)
		return SIM_IDLE_FOREVER_US;
	for (u32 i = 0; i < SIM_IDLE_HIST; i++)
		sum += c->idle_hist_us[i];
	avg = sum / SIM_IDLE_HIST;
	for (u32 i = 0; i < SIM_IDLE_HIST; i++) {
		s64 d = (s64)c->idle_hist_us[i] - (s64)avg;

		var += (u64)(d * d);
	}
	var /= SIM_IDLE_HIST;
	/* menu: a stddev within 1/6 of the mean, or at most 20 us, makes the mean typical */
	if (var * 36 <= avg * avg || var <= 400)
		return avg;
	return SIM_IDLE_FOREVER_US;
}

static u64 predicted_idle_us(const struct sim *s, u32 cpu)
{
	u64 timer = next_timer_us(s, cpu), typical = typical_interval_us(&s->cpus[cpu]);

	return timer < typical ? timer : typical;
}

/* The last CPU of domain d went idle: the deepest cluster state the shortest prediction allows. */
static void cluster_enter(struct sim *s, u32 d)
{
	const struct em_idle_states *is = &s->prof->idle[d];
	const struct em_domain *pd = &s->m->domains[d];
	u64 pred = SIM_IDLE_FOREVER_US;
	s32 k = -1;

	for (u32 c = pd->first_cpu; c < s->m->nr_cpus; c++) {
		if (s->m->cpu_domain[c] != d)
			continue;
		if (!s->cpus[c].in_idle)
			return;
		if (predicted_idle_us(s, c) < pred)
			pred = predicted_idle_us(s, c);
	}
	for (u32 i = 0; i < is->nr_cluster; i++)
		if (is->cluster[i].min_residency_us <= pred)
			k = (s32)i;
	s->doms[d].cluster_state = k;
	s->doms[d].cluster_since_us = s->now_us;
}

void sim_idle_enter(struct sim *s, u32 cpu)
{
	struct sim_cpu *c = &s->cpus[cpu];
	u32 d = s->m->cpu_domain[cpu];
	const struct em_idle_states *is;
	u64 pred;

	c->in_idle = true;
	c->idle_since_us = s->now_us;
	c->idle_state = 0;
	if (d == 0xff || !sim_has_idle_states(s, d))
		return;
	is = &s->prof->idle[d];
	pred = predicted_idle_us(s, cpu);
	for (u32 i = 1; i < is->nr_cpu; i++)
		if (is->cpu[i].min_residency_us <= pred)
			c->idle_state = i;
	cluster_enter(s, d);
}

/* How much of an entry latency is still to run at now, for a state entered at since_us. */
static u64 entry_left_us(u64 since_us, u32 entry_us, u64 now_us)
{
	return since_us + entry_us > now_us ? since_us + entry_us - now_us : 0;
}

/* The energy a state's entry and exit cost beyond its shallow power (p0 during the latencies),
 * in pJ: what makes the state break even with p0 at its min_residency_us (header comment). */
static u64 transition_energy_puj(const struct em_idle_state *st, u32 shallow_uw)
{
	u64 span_us;

	if (st->power_uw >= shallow_uw || st->min_residency_us <= st->entry_latency_us)
		return 0;
	span_us = st->min_residency_us - st->entry_latency_us;
	return (u64)(shallow_uw - st->power_uw) * span_us;
}

u64 sim_idle_exit(struct sim *s, u32 cpu)
{
	struct sim_cpu *c = &s->cpus[cpu];
	u32 d = s->m->cpu_domain[cpu];
	struct sim_domain *sd;
	const struct em_idle_states *is;
	const struct em_idle_state *st;
	u64 lat;

	if (!c->in_idle)
		return 0;
	c->in_idle = false;
	c->idle_hist_us[c->idle_hist_i] = (u32)gb_min(s->now_us - c->idle_since_us, 0xffffffffull);
	c->idle_hist_i = (c->idle_hist_i + 1) % SIM_IDLE_HIST;
	if (c->idle_hist_n < SIM_IDLE_HIST)
		c->idle_hist_n++;
	if (d == 0xff || !sim_has_idle_states(s, d))
		return 0;
	sd = &s->doms[d];
	is = &s->prof->idle[d];
	st = &is->cpu[c->idle_state];
	lat =
	    st->exit_latency_us + entry_left_us(c->idle_since_us, st->entry_latency_us, s->now_us);
	sd->energy_puj += transition_energy_puj(st, is->cpu[0].power_uw);
	if (sd->cluster_state >= 0) {
		const struct em_idle_state *cl = &is->cluster[sd->cluster_state];
		u64 cl_lat = cl->exit_latency_us +
			     entry_left_us(sd->cluster_since_us, cl->entry_latency_us, s->now_us);

		if (cl_lat > lat)
			lat = cl_lat;
		sd->energy_puj += transition_energy_puj(cl, is->static_uw);
		sd->cluster_state = -1;
	}
	return lat;
}

/* The timer's interrupt wakes the CPU it was armed on, which leaves its state (paying the exit's
 * energy) even when the woken task goes elsewhere, and chooses again as menu does at every idle
 * entry: a CPU that chose a shallow state for a wake-up that never came to it does not stay in
 * it (nor its cluster up) for good.  The time it takes is not modelled. */
void sim_idle_timer_fired(struct sim *s, u32 cpu)
{
	if (s->cpus[cpu].curr >= 0 || !s->cpus[cpu].in_idle)
		return;
	sim_idle_exit(s, cpu);
	sim_idle_enter(s, cpu);
}

/* Energy of an idle state over [now, now + dt): the shallowest state's power until the entry
 * completes, the state's own after. */
static u64 state_energy_puj(const struct em_idle_state *st, u32 entry_power_uw, u64 since_us,
			    u64 now_us, u64 dt)
{
	u64 before = gb_min(entry_left_us(since_us, st->entry_latency_us, now_us), dt);

	return (u64)entry_power_uw * before + (u64)st->power_uw * (dt - before);
}

/* The measured static/dynamic split of domain d's current OPP where the simulator uses it (the
 * domain has idle states and the OPP a split), else NULL. */
static const struct em_opp_meta *split_of(const struct sim *s, u32 d)
{
	const struct em_opp_meta *mt = &s->prof->meta[d][s->doms[d].opp];

	return sim_has_idle_states(s, d) && mt->has_split ? mt : NULL;
}

/* What one CPU of domain d running at its current OPP draws on its own: the split's dynamic
 * share where split_of() gives one (its static share is drawn once for the domain), else the
 * OPP's power_uw. */
static u32 busy_power_uw(const struct sim *s, u32 d)
{
	const struct em_opp_meta *mt = split_of(s, d);

	return mt ? mt->dynamic_uw : s->m->domains[d].opps[s->doms[d].opp].power_uw;
}

u64 sim_domain_energy_puj(const struct sim *s, u32 d, u64 dt)
{
	const struct em_domain *pd = &s->m->domains[d];
	const struct sim_domain *sd = &s->doms[d];
	const struct em_idle_states *is = &s->prof->idle[d];
	u64 e = 0;
	bool down = false, busy = false;

	if (!sim_has_idle_states(s, d))
		e = (u64)pd->idle_power_uw * dt;
	else if (sd->cluster_state >= 0) {
		const struct em_idle_state *cl = &is->cluster[sd->cluster_state];

		e = state_energy_puj(cl, is->static_uw, sd->cluster_since_us, s->now_us, dt);
		down = !entry_left_us(sd->cluster_since_us, cl->entry_latency_us, s->now_us);
	} else {
		e = (u64)is->static_uw * dt;
	}
	for (u32 c = pd->first_cpu; c < s->m->nr_cpus; c++) {
		const struct sim_cpu *sc = &s->cpus[c];

		if (s->m->cpu_domain[c] != d)
			continue;
		if (sc->curr >= 0 && sc->ready_us > s->now_us) {
			e += (u64)is->cpu[0].power_uw * dt; /* still leaving its idle state */
		} else if (sc->curr >= 0) {
			e += (u64)busy_power_uw(s, d) * dt;
			busy = true;
		} else if (sim_has_idle_states(s, d) && !down) {
			e += state_energy_puj(&is->cpu[sc->idle_state], is->cpu[0].power_uw,
					      sc->idle_since_us, s->now_us, dt);
		}
	}
	if (busy && split_of(s, d))
		e += (u64)split_of(s, d)->static_uw * dt;
	return e;
}

/* The domain's power now, for the trace's energy estimate between samples. */
u64 sim_domain_power_uw(const struct sim *s, u32 d)
{
	return sim_domain_energy_puj(s, d, 1);
}

/* cpufreq's transition latency of domain d: the model's, else cpufreq's default. */
static u64 transition_latency_us(const struct sim *s, u32 d)
{
	if (s->opt.dvfs_latency_us)
		return s->opt.dvfs_latency_us;
	if (s->prof->has_transition_latency[d])
		return s->prof->transition_latency_us[d];
	return SIM_DVFS_LATENCY_US;
}

/*
 * The OPP schedutil picks for domain d (after sim_refresh()).  util_est[c] is the util_est sum
 * of the tasks enqueued on c.  See the header comment for the formula.
 */
static u32 governor_opp(struct sim *s, u32 d, const u32 *util_est)
{
	const struct em_domain *pd = &s->m->domains[d];
	u32 cap = em_domain_capacity(pd), perf = 0, target = 0, idx;

	if (s->policy == SIM_POLICY_GEARBOX)
		target = gb_cpuperf_for_schedutil(gb_domain_perf_target(s->m, s->gcpu, d, &idx));
	for (u32 c = pd->first_cpu; c < s->m->nr_cpus; c++) {
		const struct gb_cpu *g = &s->gcpu[c];
		u32 util, actual, lo, hi;

		if (s->m->cpu_domain[c] != d || !g->online)
			continue;
		if (s->policy == SIM_POLICY_GEARBOX)
			util = target;
		else
			util = gb_max(gb_max(g->util, g->runnable), util_est[c]);
		util = gb_min(util, cap);
		actual = util + (util >> 2);
		lo = gb_rq_umin(g);
		hi = gb_rq_umax(g);
		if (actual < hi)
			hi = actual;
		perf = gb_max(perf, gb_max(lo, hi));
	}
	return em_efficient_state(pd, gb_min(perf, cap));
}

void sim_dvfs_update(struct sim *s)
{
	u32 util_est[EM_MAX_CPUS];

	memset(util_est, 0, sizeof(util_est[0]) * s->m->nr_cpus);
	for (u32 i = 0; i < s->nr_tasks; i++) {
		const struct sim_task *t = &s->tasks[i];

		if (t->cpu >= 0 && (t->state == TS_RUNNING || t->state == TS_QUEUED))
			util_est[t->cpu] += t->pelt.util_est;
	}
	for (u32 d = 0; d < s->m->nr_domains; d++) {
		struct sim_domain *sd = &s->doms[d];
		u32 asked;

		sd->target = governor_opp(s, d, util_est);
		sd->ou = gb_domain_overutilized(s->m, s->gcpu, d);
		if (sd->pending && s->now_us >= sd->pending_at_us) {
			sd->opp = sd->pending_opp;
			sd->pending = false;
		}
		asked = sd->pending ? sd->pending_opp : sd->opp;
		if (sd->target == asked ||
		    (sd->requested && s->now_us < sd->last_request_us + s->opt.dvfs_rate_us))
			continue;
		sd->requested = true;
		sd->last_request_us = s->now_us;
		sd->pending_opp = sd->target;
		if (!sd->pending) {
			sd->pending_at_us = s->now_us + transition_latency_us(s, d);
			sd->pending = true;
		}
		if (sd->pending_at_us <= s->now_us) {
			sd->opp = sd->pending_opp;
			sd->pending = false;
		}
	}
}

u64 sim_dvfs_next_event(const struct sim *s, u64 next)
{
	for (u32 d = 0; d < s->m->nr_domains; d++) {
		const struct sim_domain *sd = &s->doms[d];
		u32 asked = sd->pending ? sd->pending_opp : sd->opp;
		u64 at;

		if (sd->pending && sd->pending_at_us < next)
			next = sd->pending_at_us > s->now_us ? sd->pending_at_us : s->now_us;
		if (sd->target != asked) {
			at = sd->last_request_us + s->opt.dvfs_rate_us;
			if (at < next)
				next = at > s->now_us ? at : s->now_us;
		}
	}
	return next;
}

void sim_migration_cost(struct sim *s, struct sim_task *t, s32 from, u32 to)
{
	bool hot;

	if (from < 0 || s->m->cpu_domain[from] == s->m->cpu_domain[to])
		return;
	hot = t->state == TS_RUNNING || t->state == TS_QUEUED ||
	      (t->ran_once && s->now_us - t->last_ran_us < SIM_MIGRATION_COST_US);
	if (!hot)
		return;
	t->slow_us = SIM_MIGRATION_COST_US;
}

u64 sim_work_done(struct sim_task *t, u64 perf, u64 dt)
{
	u64 slow = gb_min(dt, t->slow_us);

	t->slow_us -= slow;
	return perf * (dt - slow) + perf * slow / 2;
}

u64 sim_time_to_finish_us(const struct sim_task *t, u64 perf)
{
	u64 slow_work = perf * t->slow_us / 2;

	if (t->work_left <= slow_work)
		return (2 * t->work_left + perf - 1) / perf;
	return t->slow_us + (t->work_left - slow_work + perf - 1) / perf;
}
