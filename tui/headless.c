// SPDX-License-Identifier: GPL-2.0-only
/*
 * headless.c - `gearbox top --headless`: read a stream without a screen, until it ends, and
 * print what it held.  For a board reached without a terminal (adb shell, ssh -T, a script):
 * with --record it keeps the session for a later --replay, and the summary says at once
 * whether the scheduler was seen deciding anything.
 *
 * The stream ends when the scheduler closes the socket (no reconnection: a second scheduler is
 * a second recording), when a replay reaches its end (read as fast as it can be), or on
 * SIGINT, SIGTERM or SIGHUP.
 */
#include "headless.h"

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cpulist.h"
#include "reason.h"
#include "source.h"

static volatile sig_atomic_t stop_signal;

static void on_stop(int sig)
{
	stop_signal = sig;
}

static int64_t mono_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

static bool stream_over(const struct top_source *s)
{
	if (s->kind == SOURCE_REPLAY)
		return s->eof;
	return s->nr_connects > 0 && !s->connected;
}

static void print_summary(FILE *f, const struct top_model *m, const struct top_source *s)
{
	const struct stream_hello *h = &m->topo;

	if (!m->have_hello) {
		fprintf(f, "no stream: %s\n", m->last_error[0] ? m->last_error : s->status);
	} else {
		fprintf(f, "stream: %s, policy %s, source %s, %d CPUs, %d domains\n",
			h->soc[0] ? h->soc : "?", h->policy[0] ? h->policy : "?",
			h->source[0] ? h->source : "?", h->nr_cpus, h->nr_domains);
		for (int i = 0; i < h->nr_domains; i++) {
			char idle[256];

			fprintf(f,
				"  domain %-8s cpus %-8s capacity %4d  last OPP %u kHz, %.1f mW\n",
				h->domains[i].name, m->cpulist[i], h->domains[i].capacity,
				m->dom[i].freq_khz, m->dom[i].power_uw / 1000.0);
			fmt_domain_idle(idle, sizeof(idle), &h->domains[i]);
			if (idle[0])
				fprintf(f, "    idle: %s\n", idle);
		}
	}
	fprintf(f, "samples %llu, decisions %llu, trace time %.3f s, energy %.3f J\n",
		(unsigned long long)m->nr_samples, (unsigned long long)m->nr_decisions,
		m->t_us / 1e6, m->energy_uj / 1e6);
	for (int r = 0; r <= REASON_UNKNOWN; r++)
		if (m->reason_count[r])
			fprintf(f, "  %-20s %llu\n", stream_reason_code((enum stream_reason)r),
				(unsigned long long)m->reason_count[r]);
	if (m->nr_errors)
		fprintf(f, "stream errors %llu, the last: %s\n", (unsigned long long)m->nr_errors,
			m->last_error);
	if (s->record_path)
		fprintf(f, "recorded %llu lines to %s%s%s\n", (unsigned long long)s->recorded_lines,
			s->record_path, s->record_errno ? ", stopped by an error: " : "",
			s->record_errno ? strerror(s->record_errno) : "");
}

int headless_run(const struct top_options *o, struct gb_err *err)
{
	static const int sigs[] = {SIGINT, SIGTERM, SIGHUP};
	struct sigaction sa = {0}, old[3];
	struct top_source src;
	struct top_model *m = malloc(sizeof(*m));
	int ret;

	if (!m)
		return gb_err_set(err, ENOMEM, "out of memory");
	model_init(m);
	if (o->replay)
		ret = source_open_replay(&src, o->replay, SOURCE_SPEED_MAX, false, err);
	else
		ret = source_open_socket(&src, o->socket, err);
	if (ret) {
		free(m);
		return ret;
	}
	if (o->record && (ret = source_record(&src, o->record, err))) {
		source_close(&src);
		free(m);
		return ret;
	}
	stop_signal = 0;
	sigemptyset(&sa.sa_mask);
	sa.sa_handler = on_stop;
	for (int i = 0; i < 3; i++)
		sigaction(sigs[i], &sa, &old[i]);
	while (!stop_signal && !stream_over(&src)) {
		int64_t now = mono_us();

		source_pump(&src, m, now);
		if (stream_over(&src))
			break;
		struct pollfd p = {.fd = source_poll_fd(&src), .events = POLLIN};
		int64_t wait = source_wait_us(&src, now);
		int ms = wait < 0 ? 1000 : (int)((wait + 999) / 1000);
		if (p.fd >= 0 || ms > 0)
			poll(&p, p.fd >= 0 ? 1 : 0, ms > 1000 ? 1000 : ms);
	}
	for (int i = 0; i < 3; i++)
		sigaction(sigs[i], &old[i], NULL);
	source_close(&src); /* closes the recording first, so the summary's count is final */
	print_summary(stdout, m, &src);
	ret = stop_signal ? 128 + stop_signal : m->have_hello ? 0 : 1;
	free(m);
	return ret;
}
