// SPDX-License-Identifier: GPL-2.0-only
/*
 * reason.c - the decision log's wording (docs/stream.md lists the codes and their words).
 *
 * The capacity misfit sentence quotes the 80% margin because that is the rule the policy
 * applies (util * 1280 > capacity * 1024, the kernel's fits_capacity()); printing it lets a
 * reader check the decision from the numbers on the line.  Fields that are optional in the
 * stream (capacities, frequencies) fall back to the topology, then to a shorter sentence.
 */
#include "reason.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

void fmt_freq_khz(char *buf, size_t len, int64_t freq_khz)
{
	/* Round to 0.1 GHz = 100000 kHz. */
	int64_t tenths = (freq_khz + 50000) / 100000;

	snprintf(buf, len, "%" PRId64 ".%" PRId64 " GHz", tenths / 10, tenths % 10);
}

void fmt_power_uw(char *buf, size_t len, int64_t power_uw)
{
	const char *sign = power_uw < 0 ? "-" : "";
	uint64_t a = power_uw < 0 ? (uint64_t)(-(power_uw + 1)) + 1 : (uint64_t)power_uw;

	if (a >= 1000000) /* 1 W */
		snprintf(buf, len, "%s%" PRIu64 ".%02" PRIu64 " W", sign, (a + 5000) / 1000000,
			 ((a + 5000) / 10000) % 100);
	else
		snprintf(buf, len, "%s%" PRIu64 ".%" PRIu64 " mW", sign, (a + 50) / 1000,
			 ((a + 50) / 100) % 10);
}

/* Appends to buf at *pos, never past len; *pos stops growing once buf is full. */
static void append(char *buf, size_t len, size_t *pos, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static void append(char *buf, size_t len, size_t *pos, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (*pos >= len)
		return;
	va_start(ap, fmt);
	n = vsnprintf(buf + *pos, len - *pos, fmt, ap);
	va_end(ap);
	if (n > 0)
		*pos = *pos + (size_t)n < len ? *pos + (size_t)n : len;
}

static void append_states(char *buf, size_t len, size_t *pos, const char *level,
			  const struct stream_idle_state *st, int n)
{
	char pw[24];

	if (!n)
		return;
	append(buf, len, pos, "; %s ", level);
	for (int i = 0; i < n; i++) {
		fmt_power_uw(pw, sizeof(pw), st[i].power_uw);
		append(buf, len, pos, "%s%s %s/%uus", i ? ", " : "", st[i].name, pw,
		       st[i].exit_latency_us);
	}
}

void fmt_domain_idle(char *buf, size_t len, const struct stream_domain_info *d)
{
	size_t pos = 0;
	char pw[24];

	if (!len)
		return;
	buf[0] = '\0';
	if (!d->has_idle)
		return;
	fmt_power_uw(pw, sizeof(pw), d->static_uw);
	append(buf, len, &pos, "static %s", pw);
	append_states(buf, len, &pos, "cpu", d->cpu_idle, d->nr_cpu_idle);
	append_states(buf, len, &pos, "cluster", d->cluster_idle, d->nr_cluster_idle);
}

void fmt_energy_uj(char *buf, size_t len, uint64_t energy_uj)
{
	if (energy_uj >= 10000000000ull) /* 10 kJ */
		snprintf(buf, len, "%" PRIu64 ".%" PRIu64 " kJ",
			 (energy_uj + 50000000) / 1000000000,
			 ((energy_uj + 50000000) / 100000000) % 10);
	else
		snprintf(buf, len, "%" PRIu64 ".%02" PRIu64 " J", (energy_uj + 5000) / 1000000,
			 ((energy_uj + 5000) / 10000) % 100);
}

void fmt_time_us(char *buf, size_t len, int64_t t_us)
{
	if (t_us < 0)
		t_us = 0;
	snprintf(buf, len, "%" PRId64 ".%03" PRId64 "s", t_us / 1000000, (t_us / 1000) % 1000);
}

static const char *cpu_domain_name(const struct top_model *m, int cpu)
{
	return model_domain_name(m, model_cpu_domain(m, cpu));
}

static int cpu_capacity(const struct top_model *m, int cpu)
{
	int d = model_cpu_domain(m, cpu);

	return d < 0 ? -1 : m->topo.domains[d].capacity;
}

void reason_move(const struct top_model *m, const struct stream_decision *d, char *buf, size_t len)
{
	if (d->from < 0)
		snprintf(buf, len, "new->cpu%d %s", d->to, cpu_domain_name(m, d->to));
	else
		snprintf(buf, len, "cpu%d %s->cpu%d %s", d->from, cpu_domain_name(m, d->from),
			 d->to, cpu_domain_name(m, d->to));
}

/* "mid 1.4 GHz", or "mid" when the frequency is not in the record. */
static void domain_at(const struct top_model *m, int cpu, int64_t freq_khz, char *buf, size_t len)
{
	char f[24];

	if (freq_khz < 0) {
		snprintf(buf, len, "%s", cpu_domain_name(m, cpu));
		return;
	}
	fmt_freq_khz(f, sizeof(f), freq_khz);
	snprintf(buf, len, "%s %s", cpu_domain_name(m, cpu), f);
}

void reason_describe(const struct top_model *m, const struct stream_decision *d, char *buf,
		     size_t len)
{
	char a[48], b[48];
	int cap;

	switch (d->reason) {
	case REASON_CAPACITY_MISFIT:
		cap = d->from_cap >= 0 ? d->from_cap : cpu_capacity(m, d->from);
		/* Claim the 80% margin only when the numbers show it (util * 1280 > cap * 1024). */
		if (cap >= 0 && (long)d->util * 1280 > (long)cap * 1024)
			snprintf(buf, len, "capacity misfit: util %d > 80%% of cap %d", d->util,
				 cap);
		else if (cap >= 0)
			snprintf(buf, len, "capacity misfit: util %d of cap %d", d->util, cap);
		else
			snprintf(buf, len, "capacity misfit: util %d", d->util);
		break;
	case REASON_POWER_MISFIT:
		snprintf(buf, len, "power misfit: uclamp_max %d on %s", d->uclamp_max,
			 d->from >= 0 ? cpu_domain_name(m, d->from) : "?");
		break;
	case REASON_WAKEUP_ENERGY:
		domain_at(m, d->to, d->to_freq_khz, a, sizeof(a));
		if (d->from < 0) {
			snprintf(buf, len, "cheapest OPP: %s", a);
			break;
		}
		if (!strcmp(cpu_domain_name(m, d->from), cpu_domain_name(m, d->to))) {
			/* same domain, same OPP: the choice was between its CPUs */
			snprintf(buf, len, "cheaper CPU in %s", cpu_domain_name(m, d->to));
			break;
		}
		domain_at(m, d->from, d->from_freq_khz, b, sizeof(b));
		snprintf(buf, len, "cheaper OPP: %s vs %s", a, b);
		break;
	case REASON_OVERUTILIZED_SPREAD:
		snprintf(buf, len, "over-utilized: %s over 80%%, spread to %s",
			 d->from >= 0 ? cpu_domain_name(m, d->from) : "?",
			 cpu_domain_name(m, d->to));
		break;
	case REASON_IDLE_PULL:
		snprintf(buf, len, "idle pull: idle cpu%d (%s) took it", d->to,
			 cpu_domain_name(m, d->to));
		break;
	case REASON_AFFINITY:
		snprintf(buf, len, "affinity: allowed CPUs forced %s", cpu_domain_name(m, d->to));
		break;
	case REASON_FORK:
		snprintf(buf, len, "new task: first placement on %s", cpu_domain_name(m, d->to));
		break;
	case REASON_BALANCE:
		snprintf(buf, len, "load balance: util %d", d->util);
		break;
	case REASON_UNKNOWN:
		snprintf(buf, len, "%s", d->reason_code);
		break;
	}
}

bool reason_matches(const struct top_model *m, const struct stream_decision *d, const char *filter)
{
	char words[128], pid[16];

	if (!filter || !*filter)
		return true;
	snprintf(pid, sizeof(pid), "%d", d->pid);
	if (strcasestr(d->comm, filter) || !strcmp(pid, filter) ||
	    strcasestr(d->reason_code, filter))
		return true;
	reason_describe(m, d, words, sizeof(words));
	return strcasestr(words, filter) != NULL;
}
