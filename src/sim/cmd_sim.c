// SPDX-License-Identifier: GPL-2.0-only
/*
 * cmd_sim.c - `gearbox sim`: parse the command line, load the model and the workload, run each
 * policy, report.  Bad input (unknown policy, unreadable or malformed files, a workload that
 * does not fit the model) exits 2 before anything is written.
 */
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "commands.h"
#include "em_catalog.h"
#include "gb_group.h"
#include "gb_preempt.h"
#include "outfile.h"
#include "sim.h"

static const char usage_text[] =
    "usage: gearbox sim [OPTIONS] --profile MODEL WORKLOAD.json\n"
    "\n"
    "Runs an rt-app workload on the CPUs of an energy model under one or more placement\n"
    "policies and compares energy and quality of service.\n"
    "\n"
    "  -p, --profile MODEL     em-profile file (gearbox-em/1), or the name of a shipped model\n"
    "                          ('gearbox em list' lists them)\n"
    "  -P, --policy LIST       comma-separated policies, the first is the baseline of the\n"
    "                          energy ratio (default gearbox,mainline):\n"
    "                            gearbox      the shared policy of src/policy/ (scx_gearbox)\n"
    "                            mainline     the kernel's EAS: feec, util_fits_cpu, global\n"
    "                                         over-utilization, misfit\n"
    "                            rework       Guittot's OPP-cost feec with push\n"
    "                            performance  the biggest idle CPU\n"
    "                            oracle       lowest-energy static placement of periodic\n"
    "                                         tasks that, simulated, keeps every deadline;\n"
    "                                         'infeasible' (no bound) or 'skipped' (a task\n"
    "                                         without timer) otherwise (docs/sim.md)\n"
    "  -d, --duration SEC      simulated time (default: the workload's global duration)\n"
    "  -s, --seed N            start-time jitter seed, 0 for none (default 1)\n"
    "      --seeds N           run N seeds (SEED, SEED+1, ...) and report the mean and 95%\n"
    "                          confidence interval of each figure (default 1, at most 1000)\n"
    "      --tick-us US        scheduler tick (default 4000)\n"
    "      --dvfs-rate-us US   minimum time between OPP changes of a domain (default 500)\n"
    "      --push-after-us US  power-misfit push after running unwoken this long (default 8000)\n"
    "      --pull-after-us US  gearbox: an idle CPU pulls a task waiting this long wherever it\n"
    "                          fits or not (default 4000)\n"
    "      --host HOST         gearbox's host (docs/sim.md); the other policies always run\n"
    "                          on the fair host:\n"
    "                            scx   sched_ext: scx_gearbox's queues and callbacks on the\n"
    "                                  kernel's dispatch queues, the scheduler as it runs\n"
    "                                  (default)\n"
    "                            fair  gearbox's placement, misfit check and idle pull\n"
    "                                  inside the fair class's queues: a comparison only\n"
    "      --group-slices on|off  gearbox on the scx host: slice-aware grouping, tasks with\n"
    "                          a slice longer than the default (slice_us) and the others\n"
    "                          kept on different CPUs while a domain has room (default\n"
    "                          " GB_GROUP_DFL_NAME ", as scx_gearbox)\n"
    "      --wake-preempt off|latency|on  gearbox on the scx host: a woken task whose\n"
    "                          deadline is earlier than a running task's by more than its\n"
    "                          own slice's span (a heavier task, a shorter slice) preempts\n"
    "                          it at once; latency: only tasks heavier than nice 0 or with\n"
    "                          a custom slice shorter than the default; on: every task,\n"
    "                          and the frequency request counts the running task's waits\n"
    "                          (default " GB_PREEMPT_DFL_NAME ", as scx_gearbox)\n"
    "  -j, --json              print the report as JSON (gearbox-sim/1) instead of a table\n"
    "  -t, --trace FILE        write the first policy's run as a gearbox-stream/1 NDJSON trace\n"
    "      --trace-interval MS sample interval of the trace (default 10)\n"
    "      --trace-tasks       include the tasks[] array in trace samples\n"
    "  -h, --help              this help\n"
    "\n"
    "Report: energy (J, total and per domain) and its ratio to the first policy, late\n"
    "activations (a periodic task reaching its timer after the activation time), missed\n"
    "periods (late ones, periods skipped, and those an activation still running at the end\n"
    "has overrun: a starved task counts here), wake-up latency p50/p99, % of time\n"
    "over-utilized, average frequency and busy time per domain, migrations, misfit moves.\n"
    "\n"
    "Tasks: SCHED_OTHER shares CPUs by nice weight; SCHED_FIFO/RR tasks preempt them and are\n"
    "placed by the RT class under every policy (biggest CPUs, top OPP unless util_min);\n"
    "SCHED_DEADLINE is refused (docs/sim.md).\n"
    "\n"
    "Exit status: 0 success, 1 failure while simulating or writing the trace (a file at\n"
    "--trace is replaced only when every run succeeded), 2 bad usage or bad input.\n";

enum {
	OPT_TICK = 256,
	OPT_DVFS,
	OPT_PUSH,
	OPT_PULL,
	OPT_INTERVAL,
	OPT_TRACE_TASKS,
	OPT_SEEDS,
	OPT_HOST,
	OPT_GROUP,
	OPT_PREEMPT
};

#define SIM_MAX_SEEDS 1000

static const struct option long_opts[] = {
    {"profile", required_argument, NULL, 'p'},
    {"policy", required_argument, NULL, 'P'},
    {"duration", required_argument, NULL, 'd'},
    {"seed", required_argument, NULL, 's'},
    {"seeds", required_argument, NULL, OPT_SEEDS},
    {"tick-us", required_argument, NULL, OPT_TICK},
    {"dvfs-rate-us", required_argument, NULL, OPT_DVFS},
    {"push-after-us", required_argument, NULL, OPT_PUSH},
    {"pull-after-us", required_argument, NULL, OPT_PULL},
    {"host", required_argument, NULL, OPT_HOST},
    {"group-slices", required_argument, NULL, OPT_GROUP},
    {"wake-preempt", required_argument, NULL, OPT_PREEMPT},
    {"json", no_argument, NULL, 'j'},
    {"trace", required_argument, NULL, 't'},
    {"trace-interval", required_argument, NULL, OPT_INTERVAL},
    {"trace-tasks", no_argument, NULL, OPT_TRACE_TASKS},
    {"help", no_argument, NULL, 'h'},
    {NULL, 0, NULL, 0},
};

static int bad(const char *fmt, const char *arg)
{
	fprintf(stderr, "gearbox sim: error: ");
	fprintf(stderr, fmt, arg);
	fprintf(stderr, "\n");
	return GB_EXIT_USAGE;
}

static int parse_u64(const char *s, u64 *out, u64 min)
{
	char *end;
	unsigned long long v;

	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno || end == s || *end || v < min || s[0] == '-')
		return -1;
	*out = v;
	return 0;
}

static int parse_policies(char *list, enum sim_policy_id *ids, unsigned *n)
{
	char *save = NULL;

	*n = 0;
	for (char *tok = strtok_r(list, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		int id = sim_policy_parse(tok);

		if (id < 0)
			return bad("unknown policy '%s' (known: gearbox, mainline, rework, "
				   "performance, oracle)",
				   tok);
		if (*n == SIM_NR_POLICIES * 2)
			return bad("too many policies in '%s'", tok);
		ids[(*n)++] = (enum sim_policy_id)id;
	}
	if (!*n)
		return bad("%s", "--policy needs at least one policy");
	return 0;
}

static int load_profile(const char *arg, struct em_profile *prof, struct gb_err *err)
{
	char path[4096];
	int ret = em_catalog_resolve(arg, path, sizeof(path), err);

	return ret ? ret : em_profile_load_file(path, prof, false, NULL, err);
}

int cmd_sim(int argc, char **argv)
{
	struct sim_options opt = {.seed = 1};
	enum sim_policy_id ids[SIM_NR_POLICIES * 2];
	char default_policies[] = "gearbox,mainline";
	char *policies = default_policies, *trace_path = NULL;
	const char *profile = NULL;
	struct em_profile *prof = NULL;
	struct workload w = {0};
	struct sim_result *res = NULL;
	struct sim_report *rep = NULL;
	u64 nr_seeds = 1;
	struct gb_err err = {{0}};
	struct gb_out trace = {.fd = -1};
	unsigned n = 0;
	bool json = false;
	int c, ret = GB_EXIT_USAGE;
	u64 ms;

	optind = 1;
	while ((c = getopt_long(argc, argv, "p:P:d:s:jt:h", long_opts, NULL)) != -1) {
		switch (c) {
		case 'p':
			profile = optarg;
			break;
		case 'P':
			policies = optarg;
			break;
		case 'd': {
			char *end;
			double sec = strtod(optarg, &end);

			if (end == optarg || *end || !(sec > 0) || sec > 1e6)
				return bad("--duration '%s': seconds > 0 expected", optarg);
			opt.duration_us = (u64)(sec * 1e6 + 0.5);
			break;
		}
		case 's':
			if (parse_u64(optarg, &opt.seed, 0))
				return bad("--seed '%s': a non-negative integer expected", optarg);
			break;
		case OPT_SEEDS:
			if (parse_u64(optarg, &nr_seeds, 1) || nr_seeds > SIM_MAX_SEEDS)
				return bad("--seeds '%s': an integer in 1..1000 expected", optarg);
			break;
		case OPT_TICK:
			if (parse_u64(optarg, &opt.tick_us, 100))
				return bad("--tick-us '%s': an integer >= 100 expected", optarg);
			break;
		case OPT_DVFS:
			if (parse_u64(optarg, &opt.dvfs_rate_us, 1))
				return bad("--dvfs-rate-us '%s': an integer >= 1 expected", optarg);
			break;
		case OPT_PUSH:
			if (parse_u64(optarg, &opt.push_after_us, 1))
				return bad("--push-after-us '%s': an integer >= 1 expected",
					   optarg);
			break;
		case OPT_PULL:
			if (parse_u64(optarg, &opt.pull_after_us, 1))
				return bad("--pull-after-us '%s': an integer >= 1 expected",
					   optarg);
			break;
		case OPT_HOST:
			if (!strcmp(optarg, "fair"))
				opt.host = SIM_HOST_FAIR;
			else if (!strcmp(optarg, "scx"))
				opt.host = SIM_HOST_SCX;
			else
				return bad("--host '%s': fair or scx expected", optarg);
			break;
		case OPT_GROUP:
			if (!strcmp(optarg, "on"))
				opt.group_slices = SIM_GROUP_ON;
			else if (!strcmp(optarg, "off"))
				opt.group_slices = SIM_GROUP_OFF;
			else
				return bad("--group-slices '%s': on or off expected", optarg);
			break;
		case OPT_PREEMPT:
			if (!strcmp(optarg, "on"))
				opt.wake_preempt = SIM_PREEMPT_ON;
			else if (!strcmp(optarg, "latency"))
				opt.wake_preempt = SIM_PREEMPT_LATENCY;
			else if (!strcmp(optarg, "off"))
				opt.wake_preempt = SIM_PREEMPT_OFF;
			else
				return bad("--wake-preempt '%s': off, latency or on expected",
					   optarg);
			break;
		case 'j':
			json = true;
			break;
		case 't':
			trace_path = optarg;
			break;
		case OPT_INTERVAL:
			if (parse_u64(optarg, &ms, 1))
				return bad("--trace-interval '%s': milliseconds >= 1 expected",
					   optarg);
			opt.sample_us = ms * 1000;
			break;
		case OPT_TRACE_TASKS:
			opt.trace_tasks = true;
			break;
		case 'h':
			fputs(usage_text, stdout);
			return GB_EXIT_OK;
		default:
			fputs(usage_text, stderr);
			return GB_EXIT_USAGE;
		}
	}
	if (!profile)
		return bad("%s", "--profile MODEL is required (see 'gearbox sim --help')");
	if (optind != argc - 1)
		return bad("%s", "exactly one WORKLOAD.json expected (see 'gearbox sim --help')");
	if (parse_policies(policies, ids, &n))
		return GB_EXIT_USAGE;
	prof = calloc(1, sizeof(*prof));
	res = calloc(n, sizeof(*res));
	if (!prof || !res) {
		fprintf(stderr, "gearbox sim: error: out of memory\n");
		ret = GB_EXIT_FAIL;
		goto out;
	}
	if (load_profile(profile, prof, &err) || workload_load_file(argv[optind], &w, &err) ||
	    workload_check_model(&w, &prof->model, &err)) {
		gb_report_error("gearbox sim", &err);
		goto out;
	}
	rep = sim_report_new(prof, &w, n, opt.seed, (u32)nr_seeds);
	if (!rep) {
		fprintf(stderr, "gearbox sim: error: out of memory\n");
		ret = GB_EXIT_FAIL;
		goto out;
	}
	/* the trace goes through outfile.h: to a temporary file put in place only when every
	 * run succeeded, so a refused or failed run leaves what was at the path untouched */
	if (trace_path && gb_out_open(&trace, trace_path, &err)) {
		gb_report_error("gearbox sim", &err);
		ret = GB_EXIT_FAIL;
		goto out;
	}
	/* seed by seed, each policy in turn; the trace is the first policy's run of the first */
	for (u64 step = 0; step < nr_seeds * n; step++) {
		struct sim_options o = opt;
		unsigned i = (unsigned)(step % n);
		int r;

		o.seed = opt.seed + step / n;
		if (step == 0 && trace_path)
			o.trace = trace.f;
		r = sim_run(prof, &w, ids[i], &o, &res[i], &err);
		if (!r && step < n && res[i].warning[0] &&
		    (!i || strcmp(res[i].warning, res[i - 1].warning)))
			fprintf(stderr, "gearbox sim: warning: %s\n", res[i].warning);
		if (!r && step == 0 && trace_path && res[0].outcome != SIM_RAN)
			r = gb_err_set(&err, EINVAL,
				       "--trace: the first policy, %s, has no run to "
				       "trace (%s: %s); put a policy that runs first",
				       sim_policy_name(ids[0]),
				       res[0].outcome == SIM_SKIPPED ? "skipped" : "infeasible",
				       res[0].note);
		if (r) {
			gb_report_error("gearbox sim", &err);
			ret =
			    r == -ENOMEM || r == -ELOOP || r == -EIO ? GB_EXIT_FAIL : GB_EXIT_USAGE;
			goto out;
		}
		if (o.trace && gb_out_finish(&trace, &err)) {
			gb_report_error("gearbox sim", &err);
			ret = GB_EXIT_FAIL;
			goto out;
		}
		if (i == n - 1 && sim_report_add(rep, res)) {
			fprintf(stderr, "gearbox sim: error: out of memory\n");
			ret = GB_EXIT_FAIL;
			goto out;
		}
	}
	if (trace_path && gb_out_commit(&trace, &err)) {
		gb_report_error("gearbox sim", &err);
		ret = GB_EXIT_FAIL;
		goto out;
	}
	if (json)
		sim_report_json(stdout, rep);
	else
		sim_report_table(stdout, rep);
	ret = GB_EXIT_OK;
out:
	if (trace_path)
		gb_out_abort(&trace);
	sim_report_free(rep);
	workload_free(&w);
	free(prof);
	free(res);
	return ret;
}
