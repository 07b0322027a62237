// SPDX-License-Identifier: GPL-2.0-only
/*
 * cmd_profile.c - `gearbox profile`: measure an energy model on this board (linux platform)
 * or on a simulated SoC (--sim), write it, and optionally a report.
 */
#include <errno.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "commands.h"
#include "em_catalog.h"
#include "kernel_em.h"
#include "linux.h"
#include "prof_files.h"
#include "profile.h"
#include "report.h"
#include "sim.h"

#define PROG "gearbox profile"
/* The model was written, with OPPs marked out of order (docs/profiling.md, Exit status). */
#define PROF_EXIT_WARNINGS 3
/* Another profile (or --restore) holds the machine's profile lock: nothing was done. */
#define PROF_EXIT_BUSY 4

/* Set from signal handlers; the measurement loop stops at the next window and we restore. */
static volatile sig_atomic_t stop_signal;
/* The board while its cpufreq is ours, for a fatal signal's handler. */
static struct prof_linux *volatile board;

static void on_signal(int sig)
{
	stop_signal = sig;
}

/* A fault (or abort) leaves nothing to return to: restore with system calls only, then die of
 * the signal (SA_RESETHAND made its action the default again; it is delivered on return). */
static void on_fatal_signal(int sig)
{
	prof_linux_restore_now(board);
	raise(sig);
}

static void usage(FILE *out)
{
	fprintf(
	    out,
	    "usage: gearbox profile [OPTIONS]                 profile this board\n"
	    "       gearbox profile --sim MODEL.json [OPTIONS] profile a simulated SoC\n"
	    "       gearbox profile --restore [--state FILE]  undo an interrupted profile\n"
	    "       gearbox profile --show-kernel-em [--kernel-em SRC] [-o FILE]\n"
	    "                                                 the kernel's current EM\n\n"
	    "Steps every perf domain through its OPPs with a CPU-bound load on one CPU and\n"
	    "writes an em-profile: per OPP the power of the busy CPU (domain idle power at the\n"
	    "same OPP subtracted), its performance (0..1024) and the 95%% interval of both.\n\n"
	    "  -o, --output FILE      the em-profile (default: standard output)\n"
	    "      --report DIR       DIR/power-perf.svg and DIR/comparison.txt\n"
	    "      --reference FILE   compare with this em-profile (default: the kernel's EM,\n"
	    "                         see --kernel-em; with --sim, the model itself)\n"
	    "      --kernel-em SRC    where the kernel's EM is read: auto (default: the\n"
	    "                         dev-energymodel netlink family, as in Linux 7.2,\n"
	    "                         else debugfs), netlink, debugfs or none\n"
	    "      --show-kernel-em   print the kernel's EM as an em-profile (to -o) and exit\n"
	    "      --target PCT       95%% interval target, percent of the mean (default 1)\n"
	    "      --opp-cap SEC      time cap per OPP and series (default 30, and at least 12\n"
	    "                         rounds where the meter lengthens the windows)\n"
	    "      --window MS        one active or idle window (default 250)\n"
	    "      --settle MS        wait after an OPP change (default 100)\n"
	    "      --max-temp C       cool down above this temperature (default 55, 0: off)\n"
	    "      --progress FILE    the OPPs measured so far, rewritten after each (default\n"
	    "                         on a board %s; with --sim none)\n"
	    "      --resume           continue the interrupted profile whose progress is there\n"
	    "      --split-cpus K     also run the load on K CPUs of each domain (all of a\n"
	    "                         smaller one) to split each OPP's power into the domain's\n"
	    "                         static share and per-CPU dynamic power (\"split\")\n"
	    "  -q, --quiet            no progress and no summary\n"
	    "  -h, --help             this help\n\n"
	    "board (linux) options:\n"
	    "      --sysfs-cpu DIR    cpufreq sysfs root (default %s)\n"
	    "      --state FILE       saved governors and limits (default %s)\n"
	    "      --meter-cmd CMD    external meter: CMD prints one sample per line (\"512 mW\")\n"
	    "      --meter-file PATH  external meter writing samples to PATH\n"
	    "      --power SRC        auto, powercap, hwmon or fuel-gauge[:SUPPLY] (default auto)\n"
	    "      --opp-step KHZ     OPP step where the driver has no table (default 100000)\n"
	    "      --verify MODE      auto (cycles, else iterations/kHz) or cur-freq\n"
	    "      --perf-clock CLK   task (default) or wall\n"
	    "      --perf-source SRC  auto (default: instructions per second where the PMU\n"
	    "                         counts them, else the load's iterations), instructions\n"
	    "                         (refuse without the counter) or iterations\n\n"
	    "simulator options:\n"
	    "      --sim MODEL.json   ground truth em-profile of the simulated SoC\n"
	    "      --sim-seed N       noise seed (default 1)\n"
	    "      --sim-energy-counter  an energy counter instead of a 1 ms power meter\n"
	    "      --sim-gauge MS     a battery fuel gauge updating every MS ms (10-5000)\n"
	    "                         instead of a 1 ms power meter\n"
	    "      --sim-cycles       the simulated PMU counts cycles\n"
	    "      --sim-instructions the simulated PMU counts instructions\n"
	    "      --sim-static PCT   the domains' static share of the model's power, where\n"
	    "                         the model has no split (default 20)\n"
	    "      --sim-stuck D:K|none  the OPP that silently does not apply (default: the\n"
	    "                         middle OPP of the last domain)\n\n"
	    "A board is profiled (or restored) under the machine's lock %s\n"
	    "(environment: GEARBOX_PROFILE_LOCK names another file).\n"
	    "Exit status: 0 done, 1 failed (cpufreq restored), 2 bad usage or nothing to profile\n"
	    "with, 3 model written with warnings (OPPs out of order, fitted and marked),\n"
	    "4 another profile holds the lock.\n",
	    PROF_LINUX_PROGRESS, PROF_LINUX_SYSFS_CPU, PROF_LINUX_STATE, PROF_LOCK_PATH);
}

enum {
	OPT_REPORT = 256,
	OPT_REFERENCE,
	OPT_TARGET,
	OPT_OPP_CAP,
	OPT_WINDOW,
	OPT_SETTLE,
	OPT_MAX_TEMP,
	OPT_SYSFS_CPU,
	OPT_STATE,
	OPT_METER_CMD,
	OPT_METER_FILE,
	OPT_POWER,
	OPT_OPP_STEP,
	OPT_VERIFY,
	OPT_PERF_CLOCK,
	OPT_RESTORE,
	OPT_SIM,
	OPT_SIM_SEED,
	OPT_SIM_ENERGY,
	OPT_SIM_CYCLES,
	OPT_SIM_STUCK,
	OPT_PERF_SOURCE,
	OPT_SIM_INSTRUCTIONS,
	OPT_SPLIT_CPUS,
	OPT_SIM_STATIC,
	OPT_SIM_GAUGE,
	OPT_KERNEL_EM,
	OPT_SHOW_KERNEL_EM,
	OPT_PROGRESS,
	OPT_RESUME,
};

static const struct option long_opts[] = {
    {"output", required_argument, NULL, 'o'},
    {"quiet", no_argument, NULL, 'q'},
    {"help", no_argument, NULL, 'h'},
    {"report", required_argument, NULL, OPT_REPORT},
    {"reference", required_argument, NULL, OPT_REFERENCE},
    {"target", required_argument, NULL, OPT_TARGET},
    {"opp-cap", required_argument, NULL, OPT_OPP_CAP},
    {"window", required_argument, NULL, OPT_WINDOW},
    {"settle", required_argument, NULL, OPT_SETTLE},
    {"max-temp", required_argument, NULL, OPT_MAX_TEMP},
    {"sysfs-cpu", required_argument, NULL, OPT_SYSFS_CPU},
    {"state", required_argument, NULL, OPT_STATE},
    {"meter-cmd", required_argument, NULL, OPT_METER_CMD},
    {"meter-file", required_argument, NULL, OPT_METER_FILE},
    {"power", required_argument, NULL, OPT_POWER},
    {"opp-step", required_argument, NULL, OPT_OPP_STEP},
    {"verify", required_argument, NULL, OPT_VERIFY},
    {"perf-clock", required_argument, NULL, OPT_PERF_CLOCK},
    {"restore", no_argument, NULL, OPT_RESTORE},
    {"sim", required_argument, NULL, OPT_SIM},
    {"sim-seed", required_argument, NULL, OPT_SIM_SEED},
    {"sim-energy-counter", no_argument, NULL, OPT_SIM_ENERGY},
    {"sim-cycles", no_argument, NULL, OPT_SIM_CYCLES},
    {"sim-stuck", required_argument, NULL, OPT_SIM_STUCK},
    {"perf-source", required_argument, NULL, OPT_PERF_SOURCE},
    {"sim-instructions", no_argument, NULL, OPT_SIM_INSTRUCTIONS},
    {"split-cpus", required_argument, NULL, OPT_SPLIT_CPUS},
    {"sim-static", required_argument, NULL, OPT_SIM_STATIC},
    {"sim-gauge", required_argument, NULL, OPT_SIM_GAUGE},
    {"kernel-em", required_argument, NULL, OPT_KERNEL_EM},
    {"show-kernel-em", no_argument, NULL, OPT_SHOW_KERNEL_EM},
    {"progress", required_argument, NULL, OPT_PROGRESS},
    {"resume", no_argument, NULL, OPT_RESUME},
    {NULL, 0, NULL, 0},
};

struct args {
	const char *output, *report, *reference, *sim;
	bool restore, show_kernel_em;
	enum prof_kem_src kernel_em;
	struct prof_opts po;
	struct prof_linux_opts lo;
	struct prof_sim_opts so;
};

static int parse_num(const char *s, double lo, double hi, double *v, const char *what,
		     struct gb_err *err)
{
	char *end;

	*v = strtod(s, &end);
	if (end == s || *end || *v < lo || *v > hi)
		return gb_err_set(err, EINVAL, "%s '%s': expected a number in %g..%g", what, s, lo,
				  hi);
	return 0;
}

static int parse_stuck(const char *s, struct prof_sim_opts *so, struct gb_err *err)
{
	int d, k;

	if (!strcmp(s, "none")) {
		so->stuck_dom = PROF_SIM_NO_STUCK;
		return 0;
	}
	if (sscanf(s, "%d:%d", &d, &k) != 2 || d < 0 || k < 0)
		return gb_err_set(err, EINVAL, "--sim-stuck '%s': expected DOMAIN:OPP or none", s);
	so->stuck_dom = d;
	so->stuck_opp = k;
	return 0;
}

static int parse_opt(int c, const char *arg, struct args *a, struct gb_err *err)
{
	double v = 0;
	int ret = 0;

	switch (c) {
	case 'o':
		a->output = arg;
		break;
	case 'q':
		a->po.quiet = true;
		break;
	case OPT_REPORT:
		a->report = arg;
		break;
	case OPT_REFERENCE:
		a->reference = arg;
		break;
	case OPT_TARGET:
		ret = parse_num(arg, 0.01, 50, &v, "--target", err);
		a->po.target_pct = v;
		break;
	case OPT_OPP_CAP:
		ret = parse_num(arg, 0.1, 86400, &v, "--opp-cap", err);
		a->po.opp_cap_ns = (u64)(v * 1e9);
		a->po.min_cap_rounds = 0; /* the cap as given, whatever the meter */
		break;
	case OPT_WINDOW:
		ret = parse_num(arg, 10, 60000, &v, "--window", err);
		a->po.window_ns = (u64)(v * 1e6);
		break;
	case OPT_SETTLE:
		ret = parse_num(arg, 0, 60000, &v, "--settle", err);
		a->po.settle_ns = (u64)(v * 1e6);
		break;
	case OPT_MAX_TEMP:
		ret = parse_num(arg, 0, 150, &v, "--max-temp", err);
		a->po.max_temp_mc = (int)(v * 1000);
		break;
	case OPT_SYSFS_CPU:
		a->lo.sysfs_cpu = arg;
		break;
	case OPT_STATE:
		a->lo.state_path = arg;
		break;
	case OPT_METER_CMD:
		a->lo.meter_cmd = arg;
		break;
	case OPT_METER_FILE:
		a->lo.meter_file = arg;
		break;
	case OPT_POWER:
		if (strcmp(arg, "auto") && strcmp(arg, "powercap") && strcmp(arg, "hwmon") &&
		    strcmp(arg, "fuel-gauge") &&
		    (strncmp(arg, "fuel-gauge:", 11) || !arg[11] || strchr(arg + 11, '/')))
			return gb_err_set(err, EINVAL,
					  "--power '%s': auto, powercap, hwmon or "
					  "fuel-gauge[:SUPPLY]",
					  arg);
		a->lo.power = arg;
		break;
	case OPT_OPP_STEP:
		ret = parse_num(arg, 1000, 10000000, &v, "--opp-step", err);
		a->lo.opp_step_khz = (u32)v;
		break;
	case OPT_VERIFY:
		if (strcmp(arg, "auto") && strcmp(arg, "cur-freq"))
			return gb_err_set(err, EINVAL, "--verify '%s': auto or cur-freq", arg);
		a->lo.verify = strcmp(arg, "auto") ? PROF_VERIFY_CUR_FREQ : PROF_VERIFY_AUTO;
		break;
	case OPT_PERF_CLOCK:
		if (strcmp(arg, "task") && strcmp(arg, "wall"))
			return gb_err_set(err, EINVAL, "--perf-clock '%s': task or wall", arg);
		a->lo.perf_wall = !strcmp(arg, "wall");
		break;
	case OPT_PERF_SOURCE:
		if (!strcmp(arg, "auto"))
			a->lo.perf_want = PROF_PERF_WANT_AUTO;
		else if (!strcmp(arg, "instructions"))
			a->lo.perf_want = PROF_PERF_WANT_INSTRUCTIONS;
		else if (!strcmp(arg, "iterations"))
			a->lo.perf_want = PROF_PERF_WANT_ITERATIONS;
		else
			return gb_err_set(err, EINVAL,
					  "--perf-source '%s': auto, instructions or "
					  "iterations",
					  arg);
		break;
	case OPT_SIM_INSTRUCTIONS:
		a->so.count_instructions = true;
		break;
	case OPT_SPLIT_CPUS:
		ret = parse_num(arg, 2, EM_MAX_CPUS, &v, "--split-cpus", err);
		if (ret == 0 && v != (u32)v)
			ret = gb_err_set(err, EINVAL, "--split-cpus '%s': a whole number of CPUs",
					 arg);
		a->po.split_cpus = (u32)v;
		break;
	case OPT_SIM_STATIC:
		ret = parse_num(arg, 0, 90, &v, "--sim-static", err);
		a->so.static_pct = v;
		break;
	case OPT_RESTORE:
		a->restore = true;
		break;
	case OPT_KERNEL_EM:
		if (prof_kem_parse(arg, &a->kernel_em) < 0)
			return gb_err_set(err, EINVAL,
					  "--kernel-em '%s': auto, netlink, debugfs or "
					  "none",
					  arg);
		break;
	case OPT_SHOW_KERNEL_EM:
		a->show_kernel_em = true;
		break;
	case OPT_PROGRESS:
		a->po.progress_path = arg;
		break;
	case OPT_RESUME:
		a->po.resume = true;
		break;
	case OPT_SIM:
		a->sim = arg;
		break;
	case OPT_SIM_SEED:
		ret = parse_num(arg, 0, 1e15, &v, "--sim-seed", err);
		a->so.seed = (u64)v;
		break;
	case OPT_SIM_ENERGY:
		a->so.energy_counter = true;
		break;
	case OPT_SIM_GAUGE:
		ret = parse_num(arg, PROF_SIM_GAUGE_MIN_MS, PROF_SIM_GAUGE_MAX_MS, &v,
				"--sim-gauge", err);
		if (!ret && v != (u32)v)
			ret = gb_err_set(err, EINVAL, "--sim-gauge '%s': expected whole ms", arg);
		a->so.gauge_ms = (u32)v;
		break;
	case OPT_SIM_CYCLES:
		a->so.count_cycles = true;
		break;
	case OPT_SIM_STUCK:
		ret = parse_stuck(arg, &a->so, err);
		break;
	default:
		return gb_err_set(err, EINVAL, "see 'gearbox profile --help'");
	}
	return ret;
}

static void summary(const struct args *a, const struct prof_result *res, bool sim)
{
	u32 n = 0;

	if (a->po.quiet)
		return;
	for (u32 d = 0; d < res->topo.nr_domains; d++)
		n += res->topo.dom[d].nr_opps;
	fprintf(stderr, "profile: %u OPPs of %u domains in %.1f s%s\n", n, res->topo.nr_domains,
		res->total_ns / 1e9, sim ? " of simulated time" : "");
	if (sim)
		fprintf(stderr, "profile: simulated wall time %.1f s\n", res->total_ns / 1e9);
	fprintf(stderr, "profile: performance from %s\n", res->topo.perf_why);
	for (u32 d = 0; d < res->topo.nr_domains; d++)
		for (u32 k = 0; k < res->topo.dom[d].nr_opps; k++)
			if (res->opp[d][k].not_applied)
				fprintf(stderr,
					"profile: warning: %s %u kHz did not apply (the "
					"load ran at another frequency); left out of the model\n",
					res->topo.dom[d].name, res->opp[d][k].freq_khz);
			else if (res->opp[d][k].perf_inconsistent ||
				 res->opp[d][k].power_inconsistent)
				fprintf(stderr,
					"profile: warning: %s %u kHz: %s not above the "
					"previous OPP's after %u measurements; kept with a "
					"fitted value, the measured one in \"raw\"\n",
					res->topo.dom[d].name, res->opp[d][k].freq_khz,
					res->opp[d][k].perf_inconsistent ? "perf" : "power",
					res->opp[d][k].measurements);
}

/*
 * The progress file: a run that does not resume starts over an interrupted run's progress (and
 * says so first, while there is time to stop it); one that fails keeps its own, and says so.
 */
static void progress_note(const struct prof_opts *po)
{
	struct stat st;

	if (po->progress_path && !po->resume && !po->quiet && lstat(po->progress_path, &st) == 0)
		fprintf(stderr,
			"profile: %s holds the progress of an interrupted profile: this one "
			"starts afresh and replaces it (--resume continues it instead)\n",
			po->progress_path);
}

static void progress_kept(const struct prof_opts *po, struct gb_err *err)
{
	char first[GB_ERR_MSG_LEN];
	struct stat st;

	if (!po->progress_path || lstat(po->progress_path, &st) < 0)
		return;
	snprintf(first, sizeof(first), "%s", err->msg);
	gb_err_set(err, EINTR, "%.300s; the OPPs measured so far are in %s: --resume continues",
		   first, po->progress_path);
}

/* The status of a profile whose model and report were written (ret: their writing). */
static int written_status(int ret, const struct prof_opts *po, const struct prof_result *res)
{
	if (ret < 0)
		return GB_EXIT_FAIL;
	if (po->progress_path)
		unlink(po->progress_path);
	return res->nr_inconsistent ? PROF_EXIT_WARNINGS : GB_EXIT_OK;
}

/* A model by path or by a shipped model's name (em_catalog.h). */
static int load_model(const char *arg, struct em_profile *prof, struct gb_err *err)
{
	char path[4096];
	int ret = em_catalog_resolve(arg, path, sizeof(path), err);

	return ret ? ret : em_profile_load_file(path, prof, false, NULL, err);
}

/* Writes the model and the report; the reference is optional. */
static int write_outputs(const struct args *a, struct em_profile *prof,
			 const struct em_profile *ref, const char *ref_name,
			 const struct prof_result *res, struct gb_err *err)
{
	struct em_warnings warn = {0};
	struct prof_report_out report;
	struct gb_out model;
	int ret = em_profile_finalize(prof, false, &warn, err);

	if (ret < 0) {
		gb_err_prefix(err, "the measured model is not valid");
		return ret;
	}
	for (int i = 0; i < warn.count && i < 8 && !a->po.quiet; i++)
		gb_warn(PROG, "%s", warn.msg[i]);
	/* everything is written before anything is put in place: a report that cannot be
	 * written leaves the model that was at -o as it was */
	ret = gb_out_open(&model, a->output ? a->output : "-", err);
	if (ret < 0)
		return ret;
	em_profile_write(prof, model.f);
	ret = gb_out_finish(&model, err);
	if (ret == 0 && a->report)
		ret = prof_report_write(a->report, prof, ref, ref_name, res, &report, err);
	if (ret < 0) {
		gb_out_abort(&model);
		return ret;
	}
	ret = gb_out_commit(&model, err);
	if (ret < 0) {
		if (a->report)
			prof_report_abort(&report);
		return ret;
	}
	return a->report ? prof_report_commit(&report, err) : 0;
}

/* What would refuse the outputs, found before measuring rather than after. */
static int check_outputs(const struct args *a, struct gb_err *err)
{
	int ret = gb_out_check(a->output ? a->output : "-", err);

	if (ret == 0 && a->report)
		ret = prof_report_check(a->report, err);
	return ret;
}

static int run_sim(const struct args *a, struct em_profile *truth, struct prof_result *res,
		   struct em_profile *prof, struct gb_err *err)
{
	struct prof_platform pf;
	struct prof_topology topo;
	struct prof_sim *sim;
	int ret;

	ret = load_model(a->sim, truth, err);
	if (ret < 0)
		return GB_EXIT_USAGE;
	ret = prof_sim_create(truth, &a->so, &sim, err);
	if (ret < 0)
		return GB_EXIT_USAGE;
	prof_sim_platform(sim, &pf, &topo);
	progress_note(&a->po);
	ret = prof_measure(&pf, &topo, &a->po, res, err);
	prof_sim_destroy(sim);
	if (ret < 0 && stop_signal)
		gb_err_set(err, EINTR, "interrupted by signal %d", (int)stop_signal);
	if (ret == -ENOENT || (ret == -EINVAL && a->po.resume))
		return GB_EXIT_USAGE; /* nothing to resume, or not this profile */
	if (ret < 0)
		progress_kept(&a->po, err);
	if (ret == 0)
		ret = prof_build_profile(res, "sim", prof, err);
	if (ret < 0)
		return GB_EXIT_FAIL;
	summary(a, res, true);
	if (a->reference) {
		if (load_model(a->reference, truth, err) < 0)
			return GB_EXIT_USAGE;
	}
	return written_status(
	    write_outputs(a, prof, truth,
			  a->reference ? a->reference : "the simulated model (ground truth)", res,
			  err),
	    &a->po, res);
}

/*
 * Every signal whose default action ends the process is caught.  Those that come from outside
 * (a terminal, kill, timers, resource limits, a closed pipe, the real-time ones) stop the loop at
 * its next window; run_linux then restores as after any error.  Faults cannot be returned from
 * into the loop: their handler restores on the spot and the process dies of them.
 */
static void install_signals(void)
{
	static const int stop_sigs[] = {
	    SIGINT,    SIGTERM,	  SIGHUP,  SIGQUIT, SIGUSR1, SIGUSR2, SIGALRM,
	    SIGPIPE,   SIGVTALRM, SIGPROF, SIGXCPU, SIGXFSZ, SIGIO,
#ifdef SIGPWR
	    SIGPWR,
#endif
#ifdef SIGSTKFLT
	    SIGSTKFLT,
#endif
	};
	static const int fatal_sigs[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGTRAP, SIGABRT, SIGSYS};
	struct sigaction sa = {.sa_handler = on_signal, .sa_flags = SA_RESTART};
	struct sigaction fa = {.sa_handler = on_fatal_signal, .sa_flags = SA_RESETHAND};

	sigfillset(&sa.sa_mask);
	sigfillset(&fa.sa_mask);
	for (unsigned i = 0; i < sizeof(stop_sigs) / sizeof(stop_sigs[0]); i++)
		sigaction(stop_sigs[i], &sa, NULL);
	for (int sig = SIGRTMIN; sig <= SIGRTMAX; sig++)
		sigaction(sig, &sa, NULL);
	for (unsigned i = 0; i < sizeof(fatal_sigs) / sizeof(fatal_sigs[0]); i++)
		sigaction(fatal_sigs[i], &fa, NULL);
}

/* --show-kernel-em: the kernel's EM as an em-profile; exit 2 when there is none. */
static int show_kernel_em(const struct args *a, struct em_profile *prof, struct gb_err *err)
{
	char name[96];
	int ret = prof_kernel_em(a->kernel_em, PROF_LINUX_DEBUGFS_EM, a->lo.sysfs_cpu, prof, name,
				 sizeof(name), err);

	if (ret < 0) {
		gb_err_prefix(err, "no kernel EM");
		return GB_EXIT_USAGE;
	}
	if (!a->po.quiet)
		fprintf(stderr, "profile: %s: %u perf domains\n", name, prof->model.nr_domains);
	return em_profile_save(prof, a->output ? a->output : "-", err) < 0 ? GB_EXIT_FAIL
									   : GB_EXIT_OK;
}

/* --restore: what a state file recorded, after a crash or SIGKILL. */
static int restore(const struct args *a, struct gb_err *err)
{
	int ret = prof_linux_restore(a->lo.state_path, a->lo.sysfs_cpu, err);

	if (ret == -ENOENT) {
		if (!a->po.quiet)
			fprintf(stderr, "profile: nothing to restore (%s does not exist)\n",
				a->lo.state_path);
		return GB_EXIT_OK;
	}
	if (ret < 0)
		return ret == -EPERM || ret == -EINVAL || ret == -E2BIG || ret == -ELOOP
			   ? GB_EXIT_USAGE
			   : GB_EXIT_FAIL;
	if (!a->po.quiet)
		fprintf(stderr, "profile: governors and limits restored from %s\n",
			a->lo.state_path);
	return GB_EXIT_OK;
}

static int run_linux(const struct args *a, struct em_profile *ref, struct prof_result *res,
		     struct em_profile *prof, struct gb_err *err)
{
	struct prof_platform pf;
	struct prof_topology topo;
	struct prof_linux *lx;
	struct prof_opts po = a->po;
	struct gb_err rerr;
	const char *ref_name = NULL;
	char kem_name[96], no_ref[GB_ERR_MSG_LEN + 64];
	int ret, rret;

	if (!po.progress_path)
		po.progress_path = PROF_LINUX_PROGRESS;

	if (a->reference) {
		if (load_model(a->reference, ref, err) < 0)
			return GB_EXIT_USAGE;
		ref_name = a->reference;
	} else if (prof_kernel_em(a->kernel_em, PROF_LINUX_DEBUGFS_EM, a->lo.sysfs_cpu, ref,
				  kem_name, sizeof(kem_name), &rerr) == 0) {
		ref_name = kem_name;
	} else {
		/* not an error: the report says why there is nothing to compare with */
		snprintf(no_ref, sizeof(no_ref),
			 "no reference model: no --reference, and no "
			 "kernel EM (%s)",
			 rerr.msg);
	}
	ret = prof_linux_open(&a->lo, &lx, err);
	if (ret < 0)
		return ret == -ENODEV || ret == -EEXIST || ret == -EACCES || ret == -EROFS ||
			       ret == -EPERM
			   ? GB_EXIT_USAGE
			   : GB_EXIT_FAIL;
	board = lx;
	prof_linux_platform(lx, &pf, &topo);
	progress_note(&po);
	ret = prof_measure(&pf, &topo, &po, res, err);
	board = NULL;
	rret = prof_linux_close(lx, &rerr);
	/* a signal also makes a load switch or a meter read fail: say what really happened */
	if (ret < 0 && stop_signal)
		gb_err_set(err, EINTR, "interrupted by signal %d%s", (int)stop_signal,
			   rret < 0 ? "" : "; governors and limits restored");
	if (rret < 0) {
		if (ret < 0)
			gb_report_error(PROG, err);
		*err = rerr;
		gb_err_prefix(err, "restoring cpufreq state (run 'gearbox profile --restore')");
		return GB_EXIT_FAIL;
	}
	if (ret == -ENOENT || (ret == -EINVAL && po.resume))
		return GB_EXIT_USAGE; /* nothing to resume, or not this profile */
	if (ret < 0) {
		progress_kept(&po, err);
		return GB_EXIT_FAIL;
	}
	ret = prof_build_profile(res, "measured", prof, err);
	if (ret < 0)
		return GB_EXIT_FAIL;
	summary(a, res, false);
	return written_status(
	    write_outputs(a, prof, ref_name ? ref : NULL, ref_name ? ref_name : no_ref, res, err),
	    &po, res);
}

/* The board is profiled (or restored) only under the machine's profile lock. */
static int locked(const struct args *a, struct em_profile *ref, struct prof_result *res,
		  struct em_profile *prof, struct gb_err *err)
{
	int fd, status, ret = prof_lock_take(prof_lock_path(), &fd, err);

	if (ret == -EBUSY)
		return PROF_EXIT_BUSY;
	if (ret < 0)
		return GB_EXIT_USAGE;
	if (a->restore)
		status = restore(a, err);
	else
		status = run_linux(a, ref, res, prof, err);
	prof_lock_release(&fd);
	return status;
}

int cmd_profile(int argc, char **argv)
{
	struct args a = {0};
	struct gb_err err = {{0}};
	struct em_profile *ref = calloc(1, sizeof(*ref)), *prof = calloc(1, sizeof(*prof));
	struct prof_result *res = calloc(1, sizeof(*res));
	int c, status = GB_EXIT_OK;

	prof_opts_default(&a.po);
	prof_linux_opts_default(&a.lo);
	prof_sim_opts_default(&a.so);
	if (!ref || !prof || !res) {
		fprintf(stderr, "%s: error: out of memory\n", PROG);
		status = GB_EXIT_FAIL;
		goto out;
	}
	optind = 1;
	while ((c = getopt_long(argc, argv, "o:qh", long_opts, NULL)) != -1) {
		if (c == 'h') {
			usage(stdout);
			goto out;
		}
		if (parse_opt(c, optarg, &a, &err) < 0) {
			status = GB_EXIT_USAGE;
			goto out;
		}
	}
	if (optind < argc) {
		status = GB_EXIT_USAGE;
		gb_err_set(&err, EINVAL, "unexpected argument '%s' (see --help)", argv[optind]);
		goto out;
	}
	a.po.progress = a.po.quiet ? NULL : stderr;
	a.po.progress_tty = isatty(STDERR_FILENO);
	install_signals();
	a.po.stop = &stop_signal;
	if (a.po.resume && a.sim && !a.po.progress_path) {
		status = GB_EXIT_USAGE;
		gb_err_set(&err, EINVAL,
			   "--resume with --sim needs --progress FILE (a simulated "
			   "profile saves its progress only there)");
		goto out;
	}
	if (a.show_kernel_em)
		status = show_kernel_em(&a, ref, &err);
	else if (!a.restore && check_outputs(&a, &err) < 0)
		status = GB_EXIT_FAIL;
	else if (a.sim && !a.restore)
		status = run_sim(&a, ref, res, prof, &err);
	else
		status = locked(&a, ref, res, prof, &err);
out:
	if (status != GB_EXIT_OK && status != PROF_EXIT_WARNINGS)
		gb_report_error(PROG, &err);
	free(ref);
	free(prof);
	free(res);
	return status;
}
