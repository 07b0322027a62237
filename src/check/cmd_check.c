// SPDX-License-Identifier: GPL-2.0-only
/*
 * cmd_check.c - `gearbox check [OPTIONS] -- SCHEDULER-COMMAND [ARGS]`.
 *
 * Runs the checks in a fixed order: attach first (nothing else makes sense without it), the
 * exit paths last (they take the scheduler down).  Between checks the scheduler must still be
 * loaded; a check after which it is not fails, and the scheduler is started again so that one
 * ejection does not hide the results of the remaining checks.
 *
 * Output: one line per check ("pass  NAME  detail", "FAIL ...", "skip ..."), then a summary;
 * --json prints one gearbox-check/1 document instead.  Exit status 0 when nothing failed, 1 on
 * any failure, 2 on bad usage.  Interrupted by a signal (check.h, Cleanup), it cleans up,
 * prints what it has, and dies of that signal.
 */
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "check.h"
#include "commands.h"

#define PROG "gearbox check"

struct check_def {
	const char *name;
	check_fn run;
};

static const struct check_def checks[] = {
    {"starvation", check_starvation},
    {"affinity", check_affinity},
    {"weights", check_weights},
    {"latency", check_latency},
    {"forkstorm", check_forkstorm},
    {"hotplug", check_hotplug},
    {"rt", check_rt},
    {"exit", check_exit_paths},
};
#define NR_CHECKS (1 + sizeof(checks) / sizeof(checks[0])) /* + attach */

/* The signal that interrupted the run (set by on_signal), 0 while none did. */
static volatile sig_atomic_t stop_signal;

static void on_signal(int sig)
{
	if (!stop_signal)
		stop_signal = sig;
}

int check_interrupted(void)
{
	return stop_signal;
}

/* Signals that would end the check with its scheduler loaded and its load running.  No
 * SA_RESTART: a sleep returns at once and the check sees the flag. */
static void install_signals(void)
{
	static const int sigs[] = {SIGINT,  SIGTERM, SIGHUP,  SIGQUIT,
				   SIGUSR1, SIGUSR2, SIGALRM, SIGPIPE};
	struct sigaction sa = {.sa_handler = on_signal};

	sigfillset(&sa.sa_mask);
	for (size_t i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		sigaction(sigs[i], &sa, NULL);
}

/* After the cleanup: die of the signal that interrupted us, as the caller expects. */
static void die_of_signal(int sig)
{
	signal(sig, SIG_DFL);
	fflush(NULL);
	raise(sig);
	_exit(128 + sig);
}

static const char *const status_word[] = {"pass", "FAIL", "skip"};
static const char *const status_json[] = {"pass", "fail", "skip"};

void check_set(struct check_result *res, enum check_status st, const char *fmt, ...)
{
	va_list ap;

	res->status = st;
	va_start(ap, fmt);
	vsnprintf(res->detail, sizeof(res->detail), fmt, ap);
	va_end(ap);
}

void check_metric(struct check_result *res, const char *name, double value)
{
	if (res->nr_metrics < CHECK_MAX_METRICS)
		res->metrics[res->nr_metrics++] = (struct check_metric){name, value};
}

static void usage(FILE *out)
{
	fprintf(
	    out,
	    "usage: gearbox check [OPTIONS] -- SCHEDULER-COMMAND [ARGS]\n\n"
	    "Starts a sched_ext scheduler and checks it: attach, starvation, affinity, weights,\n"
	    "latency, forkstorm, hotplug, rt, exit (SIGINT, SIGKILL, sysrq-S).  Needs root and a\n"
	    "kernel with sched_ext, and no other sched_ext scheduler loaded.\n\n"
	    "options:\n"
	    "  --json             print a gearbox-check/1 JSON document instead of lines\n"
	    "  --only LIST        run only these checks (comma-separated names; attach always "
	    "runs)\n"
	    "  --duration S       run time of each load phase in seconds (default 2)\n"
	    "  --attach-timeout S seconds to wait for the scheduler to be enabled (default 10)\n"
	    "  --sched-log FILE   append the scheduler's output to FILE (default: discarded)\n"
	    "  -h, --help         this help\n\n"
	    "Exit status: 0 all checks passed or skipped, 1 a check failed, 2 bad usage.\n"
	    "On SIGINT, SIGTERM or SIGHUP it stops its load and the scheduler, restores\n"
	    "kernel.sysrq, prints the results so far and dies of the signal.\n");
}

static void json_str(FILE *out, const char *s)
{
	fputc('"', out);
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\')
			fprintf(out, "\\%c", c);
		else if (c < 0x20)
			fprintf(out, "\\u%04x", c);
		else
			fputc(c, out);
	}
	fputc('"', out);
}

static void print_json(FILE *out, const struct check_ctx *ctx, const char *const *names,
		       const struct check_result *res, size_t n, const int count[3])
{
	struct utsname u;

	uname(&u);
	fprintf(out, "{\"format\":\"gearbox-check/1\",\"kernel\":");
	json_str(out, u.release);
	fprintf(out, ",\"cpus\":%d,\"duration_s\":%g,\"scheduler\":{\"command\":[", ctx->nr_cpus,
		ctx->duration_s);
	for (char **a = ctx->sched.argv; *a; a++) {
		fprintf(out, a == ctx->sched.argv ? "" : ",");
		json_str(out, *a);
	}
	fprintf(out, "],\"ops\":");
	json_str(out, ctx->sched.ops_name);
	fprintf(out, "},\"checks\":[");
	for (size_t i = 0; i < n; i++) {
		fprintf(out, "%s{\"name\":\"%s\",\"status\":\"%s\",\"elapsed_s\":%.3f,\"detail\":",
			i ? "," : "", names[i], status_json[res[i].status], res[i].elapsed_s);
		json_str(out, res[i].detail);
		fprintf(out, ",\"metrics\":{");
		for (int m = 0; m < res[i].nr_metrics; m++)
			fprintf(out, "%s\"%s\":%.6g", m ? "," : "", res[i].metrics[m].name,
				res[i].metrics[m].value);
		fprintf(out, "}}");
	}
	fprintf(out, "],\"summary\":{\"passed\":%d,\"failed\":%d,\"skipped\":%d}}\n",
		count[CHECK_PASS], count[CHECK_FAIL], count[CHECK_SKIP]);
}

static bool selected(const char *only, const char *name)
{
	size_t n = strlen(name);

	if (!only)
		return true;
	for (const char *p = only; (p = strstr(p, name)); p += n)
		if ((p == only || p[-1] == ',') && (p[n] == ',' || p[n] == '\0'))
			return true;
	return false;
}

static int parse_seconds(const char *s, double *out)
{
	char *end;
	double v = strtod(s, &end);

	if (end == s || *end || v <= 0 || v > 3600)
		return -1;
	*out = v;
	return 0;
}

/* Runs one check, then makes sure the scheduler is still (or again) loaded. */
static void run_one(struct check_ctx *ctx, const struct check_def *def, struct check_result *res)
{
	double t0 = load_now_s(), took;
	struct gb_err err;

	def->run(ctx, res);
	res->elapsed_s = load_now_s() - t0;
	if (check_interrupted()) {
		/* what it measured is cut short: neither a pass nor a failure of the scheduler */
		check_set(res, CHECK_SKIP, "interrupted by signal %d", check_interrupted());
		return;
	}
	if (def->run == check_exit_paths || (sched_running(&ctx->sched) && scx_enabled()))
		return;
	char how[64], detail[sizeof(res->detail)];

	sched_describe_exit(&ctx->sched, how, sizeof(how));
	if (res->status != CHECK_FAIL) {
		check_set(res, CHECK_FAIL, "the scheduler was ejected or quit (process %s)", how);
	} else {
		memcpy(detail, res->detail, sizeof(detail));
		check_set(res, CHECK_FAIL, "%.180s; then the scheduler was ejected or quit",
			  detail);
	}
	sched_stop(&ctx->sched);
	if (sched_start(&ctx->sched, ctx->attach_timeout_s, &took, &err) < 0)
		fprintf(stderr, PROG ": warning: restarting the scheduler: %s\n", err.msg);
}

int cmd_check(int argc, char **argv)
{
	static const struct option longopts[] = {
	    {"json", no_argument, NULL, 'j'},
	    {"only", required_argument, NULL, 'o'},
	    {"duration", required_argument, NULL, 'd'},
	    {"attach-timeout", required_argument, NULL, 't'},
	    {"sched-log", required_argument, NULL, 'l'},
	    {"help", no_argument, NULL, 'h'},
	    {NULL, 0, NULL, 0},
	};
	struct check_ctx ctx = {.duration_s = 2.0, .attach_timeout_s = 10.0};
	struct check_result res[NR_CHECKS] = {0};
	const char *names[NR_CHECKS], *only = NULL;
	char sysrq[32];
	int count[3] = {0}, c, json = 0;
	size_t n = 0;
	struct gb_err err;
	double took;

	ctx.sched.log_path = "/dev/null";
	optind = 1;
	while ((c = getopt_long(argc, argv, "+h", longopts, NULL)) != -1) {
		switch (c) {
		case 'j':
			json = 1;
			break;
		case 'o':
			only = optarg;
			break;
		case 'l':
			ctx.sched.log_path = optarg;
			break;
		case 'd':
		case 't':
			if (parse_seconds(optarg,
					  c == 'd' ? &ctx.duration_s : &ctx.attach_timeout_s) < 0) {
				fprintf(stderr,
					PROG ": error: --%s: '%s' is not a number of seconds "
					     "in (0, 3600]\n",
					c == 'd' ? "duration" : "attach-timeout", optarg);
				return GB_EXIT_USAGE;
			}
			break;
		case 'h':
			usage(stdout);
			return GB_EXIT_OK;
		default:
			usage(stderr);
			return GB_EXIT_USAGE;
		}
	}
	if (optind >= argc) {
		fprintf(stderr, PROG
			": error: no scheduler command (usage: gearbox check -- CMD [ARGS])\n");
		return GB_EXIT_USAGE;
	}
	if (only) {
		/* every name in --only must exist: a typo must not look like a pass */
		char *dup = strdup(only), *save = NULL;

		if (!dup) {
			fprintf(stderr, PROG ": error: out of memory\n");
			return GB_EXIT_FAIL;
		}
		for (char *t = strtok_r(dup, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
			bool known = !strcmp(t, "attach");

			for (size_t i = 0; i < NR_CHECKS - 1; i++)
				known |= !strcmp(t, checks[i].name);
			if (!known) {
				fprintf(stderr, PROG ": error: --only: unknown check '%s'\n", t);
				free(dup);
				return GB_EXIT_USAGE;
			}
		}
		free(dup);
	}
	ctx.sched.argv = argv + optind;
	ctx.nr_cpus = (int)sysconf(_SC_NPROCESSORS_ONLN);
	if (ctx.nr_cpus > CHECK_MAX_CPUS)
		ctx.nr_cpus = CHECK_MAX_CPUS;

	install_signals();
	sysrq_save(sysrq, sizeof(sysrq));
	names[n] = "attach";
	if (sched_start(&ctx.sched, ctx.attach_timeout_s, &took, &err) < 0) {
		check_set(&res[n], check_interrupted() ? CHECK_SKIP : CHECK_FAIL, "%s", err.msg);
	} else if (!ctx.sched.ops_name[0]) {
		check_set(&res[n], CHECK_FAIL, "enabled, but root/ops reports no name");
	} else {
		check_set(&res[n], CHECK_PASS, "enabled in %.2f s, ops \"%s\"", took,
			  ctx.sched.ops_name);
		check_metric(&res[n], "enable_s", took);
	}
	res[n].elapsed_s = took;
	if (!json)
		printf("%s  %-10s %s\n", status_word[res[n].status], names[n], res[n].detail);
	n++;
	for (size_t i = 0; i < NR_CHECKS - 1; i++, n++) {
		names[n] = checks[i].name;
		if (check_interrupted())
			check_set(&res[n], CHECK_SKIP, "interrupted by signal %d",
				  check_interrupted());
		else if (res[0].status != CHECK_PASS)
			check_set(&res[n], CHECK_SKIP, "the scheduler did not attach");
		else if (!selected(only, checks[i].name))
			check_set(&res[n], CHECK_SKIP, "not selected (--only)");
		else if (!scx_enabled())
			check_set(&res[n], CHECK_FAIL, "the scheduler could not be restarted");
		else
			run_one(&ctx, &checks[i], &res[n]);
		if (!json) {
			printf("%s  %-10s %s\n", status_word[res[n].status], names[n],
			       res[n].detail);
			fflush(stdout); /* a line per check as it ends: a hung guest shows how far
					   it got */
		}
	}
	sched_stop(&ctx.sched);
	sysrq_restore(sysrq);
	for (size_t i = 0; i < n; i++)
		count[res[i].status]++;
	if (json) {
		print_json(stdout, &ctx, names, res, n, count);
	} else {
		printf(
		    "gearbox check: %d passed, %d failed, %d skipped (scheduler \"%s\", %d CPUs)\n",
		    count[CHECK_PASS], count[CHECK_FAIL], count[CHECK_SKIP],
		    ctx.sched.ops_name[0] ? ctx.sched.ops_name : ctx.sched.argv[0], ctx.nr_cpus);
	}
	if (check_interrupted()) {
		fprintf(stderr,
			PROG ": interrupted by signal %d: load stopped, scheduler stopped, "
			     "kernel.sysrq as it was\n",
			check_interrupted());
		die_of_signal(check_interrupted());
	}
	return count[CHECK_FAIL] ? GB_EXIT_FAIL : GB_EXIT_OK;
}
