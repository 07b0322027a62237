// SPDX-License-Identifier: GPL-2.0-only
/*
 * scx_gearbox - loader of the energy-aware sched_ext scheduler (bpf/gearbox.bpf.c).
 *
 *   scx_gearbox --profile P.json [--mode energy|balanced|performance|auto] [--socket PATH]
 *               [--socket-mode OCTAL] [--stats-interval MS] [--verbose] [--force]
 *
 * Reads and validates the energy model, checks it against this machine (sched_topo.h), refuses
 * to run beside another sched_ext scheduler or on a socket path in use, puts the model in the
 * BPF object's read-only data, loads and attaches the struct_ops through a BPF link (so the
 * scheduler dies with this process, even on SIGKILL), opens the stats socket, then serves the
 * stats stream until SIGINT/SIGTERM or until the kernel ejects the scheduler, whose reason it
 * prints.  Exit statuses: see usage().
 */
#include <errno.h>
#include <getopt.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "em_profile.h"
#include "gb_pelt.h"
#include "gb_policy.h"
#include "gearbox_abi.h"
#include "sched_power.h"
#include "sched_stream.h"
#include "sched_topo.h"

/* after the types its maps use */
#include "gearbox.skel.h"

#define PROG		      "scx_gearbox"
#define STR_(x)		      #x
#define STR(x)		      STR_(x)
#define SCX_EXIT_ERROR	      1024	   /* enum scx_exit_kind */
#define SCX_ECODE_ACT_RESTART (1ull << 48) /* enum scx_exit_code */
#define DEFAULT_SOCKET	      "/run/scx_gearbox.sock"
#define EXIT_REFUSED	      3

/* The kernel's sched_ext directory; $GEARBOX_SYSFS_SCHED_EXT instead in tests. */
static const char *scx_dir(void)
{
	const char *d = getenv("GEARBOX_SYSFS_SCHED_EXT");

	return d && *d ? d : "/sys/kernel/sched_ext";
}

struct opts {
	const char *profile;
	const char *socket;
	unsigned mode;
	bool mode_auto; /* --mode auto: follow the platform's power profile (sched_power.h) */
	unsigned socket_mode;
	unsigned interval_ms;
	bool verbose;
	bool force;
	bool group_slices;     /* --group-slices: slice-aware grouping (src/policy/gb_group.h) */
	unsigned wake_preempt; /* --wake-preempt: wake-up preemption's mode, GB_PREEMPT_* of
				* src/policy/gb_queue.h (gb_preempt.h says why) */
};

struct run {
	const struct opts *o;
	struct em_profile *prof;
	struct sched_topo topo;
	struct sched_stream stream;
	unsigned long long t0_ns;
	unsigned long long energy_uj;
	unsigned mode;	   /* the mode in force (--mode, or the power profile's) */
	char mode_why[96]; /* --mode auto: the profile it follows, "" without one */
};

static volatile sig_atomic_t stop_requested;

static void on_signal(int sig)
{
	(void)sig;
	stop_requested = 1;
}

static const char *const mode_names[] = {"energy", "balanced", "performance"};

static void usage(FILE *f, bool full)
{
	fprintf(f, "usage: " PROG " --profile P.json [--mode energy|balanced|performance|auto]\n"
		   "       [--socket PATH] [--socket-mode OCTAL] [--stats-interval MS]\n"
		   "       [--group-slices on|off] [--wake-preempt off|latency|on] [--verbose] "
		   "[--force]\n");
	if (!full)
		return;
	fprintf(
	    f,
	    "\n"
	    "The energy-aware sched_ext scheduler: loads until SIGINT or SIGTERM (or until the "
	    "kernel\n"
	    "ejects it) and serves its stats stream (gearbox-stream/1) on a Unix socket.\n"
	    "\n"
	    "  -p, --profile P.json    the energy model of this machine (required)\n"
	    "  -m, --mode MODE         energy (no frequency floor), balanced (floor at each "
	    "domain's\n"
	    "                          cheapest OPP) or performance (top OPP, tasks placed as if\n"
	    "                          uclamp_min were 1024), or auto: follow the platform's "
	    "power\n"
	    "                          profile (ACPI platform_profile, else cpufreq's\n"
	    "                          energy_performance_preference; checked at every sample;\n"
	    "                          energy when there is neither); default: energy\n"
	    "  -s, --socket PATH       the stats socket; default: " DEFAULT_SOCKET "\n"
	    "                          Only a stale socket there (nobody listening) is replaced;\n"
	    "                          anything else is refused and left alone.  It serves at\n"
	    "                          most " STR(
		SCHED_STREAM_MAX_CLIENTS) " readers at once; "
					  "one more gets an error line.\n"
					  "  -M, --socket-mode OCTAL the socket's permissions; "
					  "default: 0600\n"
					  "  -i, --stats-interval MS a sample every MS "
					  "milliseconds, 10 to 60000; default: 100\n"
					  "  -g, --group-slices on|off  slice-aware grouping: "
					  "at a wake-up, keep tasks with\n"
					  "                          a slice longer than the "
					  "default (sched_setattr's\n"
					  "                          sched_runtime) and the "
					  "others on different CPUs\n"
					  "                          while a domain has room; "
					  "default: " GB_GROUP_DFL_NAME "\n"
					  "  -w, --wake-preempt off|latency|on  wake-up "
					  "preemption: a woken task whose\n"
					  "                          deadline is earlier than a "
					  "running task's by more than\n"
					  "                          its own slice's span (a "
					  "heavier task, a shorter slice)\n"
					  "                          preempts it at once; latency: "
					  "only tasks heavier than\n"
					  "                          nice 0 or with a custom slice "
					  "shorter than the default;\n"
					  "                          on: every task, and the "
					  "frequency request counts the\n"
					  "                          running task's waits; "
					  "default: " GB_PREEMPT_DFL_NAME "\n"
					  "  -v, --verbose           the verifier's statistics at "
					  "load, the counters at each sample\n"
					  "  -f, --force             load a model that does not "
					  "match this machine's CPUs,\n"
					  "                          capacities, cpufreq policies "
					  "or clusters (the CPUs beyond it\n"
					  "                          share one global queue);\n"
					  "                          default: refuse\n"
					  "  -h, --help              this help\n"
					  "\n"
					  "Exit status:\n"
					  "  0  stopped by SIGINT or SIGTERM, or unregistered by "
					  "the kernel (e.g. sysrq-S)\n"
					  "  1  loading or attaching failed (no sched_ext, not "
					  "root, verifier), the socket could\n"
					  "     not be created, or the kernel ejected the "
					  "scheduler for an error\n"
					  "  2  bad usage, or a model that is invalid or does not "
					  "fit this machine\n"
					  "  3  refused: another sched_ext scheduler is loaded, or "
					  "the socket path is in use\n"
					  "     (a live socket, or something that is not a "
					  "socket); nothing of it was touched\n");
}

static int parse_uint(const char *s, unsigned base, unsigned lo, unsigned hi, unsigned *out)
{
	char *end;
	unsigned long v;

	errno = 0;
	v = strtoul(s, &end, (int)base);
	if (errno || end == s || *end || v < lo || v > hi)
		return -1;
	*out = (unsigned)v;
	return 0;
}

static int parse_args(int argc, char **argv, struct opts *o, struct gb_err *err)
{
	static const struct option longopts[] = {
	    {"profile", required_argument, NULL, 'p'},
	    {"mode", required_argument, NULL, 'm'},
	    {"socket", required_argument, NULL, 's'},
	    {"socket-mode", required_argument, NULL, 'M'},
	    {"stats-interval", required_argument, NULL, 'i'},
	    {"group-slices", required_argument, NULL, 'g'},
	    {"wake-preempt", required_argument, NULL, 'w'},
	    {"verbose", no_argument, NULL, 'v'},
	    {"force", no_argument, NULL, 'f'},
	    {"help", no_argument, NULL, 'h'},
	    {0},
	};
	int c;

	*o = (struct opts){.socket = DEFAULT_SOCKET,
			   .socket_mode = 0600,
			   .interval_ms = 100,
			   .group_slices = GB_GROUP_DFL,
			   .wake_preempt = GB_PREEMPT_DFL};
	while ((c = getopt_long(argc, argv, "p:m:s:M:i:g:w:vfh", longopts, NULL)) != -1) {
		switch (c) {
		case 'p':
			o->profile = optarg;
			break;
		case 'm':
			o->mode_auto = !strcmp(optarg, "auto");
			for (o->mode = 0;
			     !o->mode_auto && o->mode < 3 && strcmp(optarg, mode_names[o->mode]);
			     o->mode++)
				;
			if (o->mode_auto)
				o->mode = GB_MODE_ENERGY;
			else if (o->mode == 3)
				return gb_err_set(
				    err, EINVAL,
				    "--mode '%s': expected energy, balanced, performance or auto",
				    optarg);
			break;
		case 's':
			o->socket = optarg;
			break;
		case 'M':
			if (parse_uint(optarg, 8, 0, 0777, &o->socket_mode))
				return gb_err_set(
				    err, EINVAL,
				    "--socket-mode '%s': expected an octal mode such as 0600",
				    optarg);
			break;
		case 'i':
			if (parse_uint(optarg, 10, 10, 60000, &o->interval_ms))
				return gb_err_set(
				    err, EINVAL,
				    "--stats-interval '%s': expected milliseconds, 10 to 60000",
				    optarg);
			break;
		case 'g':
			if (strcmp(optarg, "on") && strcmp(optarg, "off"))
				return gb_err_set(
				    err, EINVAL, "--group-slices '%s': expected on or off", optarg);
			o->group_slices = !strcmp(optarg, "on");
			break;
		case 'w':
			if (!strcmp(optarg, "off"))
				o->wake_preempt = GB_PREEMPT_OFF;
			else if (!strcmp(optarg, "latency"))
				o->wake_preempt = GB_PREEMPT_LATENCY;
			else if (!strcmp(optarg, "on"))
				o->wake_preempt = GB_PREEMPT_ON;
			else
				return gb_err_set(
				    err, EINVAL, "--wake-preempt '%s': expected off, latency or on",
				    optarg);
			break;
		case 'v':
			o->verbose = true;
			break;
		case 'f':
			o->force = true;
			break;
		case 'h':
			usage(stdout, true);
			exit(0);
		default:
			return gb_err_set(err, EINVAL, "bad usage (see --help)");
		}
	}
	if (optind < argc)
		return gb_err_set(err, EINVAL, "unexpected argument '%s'", argv[optind]);
	if (!o->profile)
		return gb_err_set(err, EINVAL, "--profile is required");
	return 0;
}

static unsigned long long mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (unsigned long long)ts.tv_sec * 1000000000ull + (unsigned long long)ts.tv_nsec;
}

static unsigned long long since_load_us(const struct run *r, unsigned long long t_ns)
{
	return t_ns > r->t0_ns ? (t_ns - r->t0_ns) / 1000 : 0;
}

/* The mode's frequency floor of a domain: nothing, its cheapest OPP, or its top. */
static unsigned perf_floor(const struct em_domain *pd, unsigned mode)
{
	unsigned i, best = 0;

	if (mode == GB_MODE_ENERGY || !pd->nr_opps)
		return 0;
	if (mode == GB_MODE_PERFORMANCE)
		return em_domain_capacity(pd);
	for (i = 1; i < pd->nr_opps; i++)
		if (pd->opps[i].cost < pd->opps[best].cost)
			best = i;
	return pd->opps[best].perf;
}

static void fill_before_load(struct run *r, struct gearbox *skel)
{
	const struct em_model *m = &r->prof->model;
	unsigned c, d;

	memcpy((void *)&skel->rodata->gb_model, m, sizeof(*m));
	skel->bss->gb_mode = r->mode;
	skel->rodata->gb_has_cpufreq = r->topo.has_cpufreq;
	skel->rodata->gb_group_slices = r->o->group_slices;
	skel->rodata->gb_wake_preempt = r->o->wake_preempt;
	gb_opp_table_fill((struct gb_opp_table *)&skel->rodata->gb_opps, m);
	for (d = 0; d < m->nr_domains; d++) {
		skel->rodata->gb_min_cost_else[d] = gb_min_cost_elsewhere(m, d);
		skel->rodata->gb_min_wake_cost[d] = gb_domain_min_wake_cost(m, d);
		skel->bss->gb_perf_floor[d] = perf_floor(&m->domains[d], r->mode);
		/* the kernel starts every CPU at SCX_CPUPERF_ONE */
		skel->bss->gb_doms[d].perf_target = em_domain_capacity(&m->domains[d]);
		skel->bss->gb_doms[d].opp_idx = m->domains[d].nr_opps - 1;
	}
	/* every CPU of the machine, also those beyond a --force'd model (gb_may_kick) */
	for (c = 0; c < r->topo.nr_cpus && c < EM_MAX_CPUS; c++)
		skel->bss->gb_cpu_up[c] = em_cpumask_test(&r->topo.online, c);
	for (c = 0; c < m->nr_cpus && c < EM_MAX_CPUS; c++) {
		struct gb_cpu *cs = &skel->bss->gb_cpus[c];
		int dom = em_domain_of_cpu(m, c);

		cs->online = em_cpumask_test(&r->topo.online, c) && c < r->topo.nr_cpus;
		cs->idle = cs->online;
		cs->uclamp_max = GB_UCLAMP_NONE_MAX;
		cs->perf_cur = dom >= 0 ? em_domain_capacity(&m->domains[dom]) : EM_CAPACITY_SCALE;
	}
}

static int on_event(void *ctx, void *data, size_t size)
{
	struct run *r = ctx;
	const struct gb_event *e = data;
	size_t len;
	char *line;

	if (size < sizeof(*e))
		return 0;
	line = sched_fmt_decision(&r->prof->model, e, since_load_us(r, e->t_ns), &len);
	if (line) {
		sched_stream_send(&r->stream, line, len);
		free(line);
	}
	return 0;
}

/* Task pid's comm from /proc ("" when it has gone); the BPF side records only the pid. */
static void read_comm(unsigned pid, char comm[GB_COMM_LEN])
{
	char path[40];
	FILE *f;

	comm[0] = 0;
	snprintf(path, sizeof(path), "/proc/%u/comm", pid);
	f = fopen(path, "r");
	if (!f)
		return;
	if (!fgets(comm, GB_COMM_LEN, f))
		comm[0] = 0;
	comm[strcspn(comm, "\n")] = 0;
	fclose(f);
}

static void send_sample(struct run *r, struct gearbox *skel)
{
	static struct gb_cpu_curr curr[EM_MAX_CPUS];
	unsigned c,
	    nr = r->prof->model.nr_cpus < EM_MAX_CPUS ? r->prof->model.nr_cpus : EM_MAX_CPUS;
	struct sched_sample_src src = {
	    .model = &r->prof->model,
	    .cpus = skel->bss->gb_cpus,
	    .curr = curr,
	    .doms = skel->bss->gb_doms,
	    .nr_cpus = r->prof->model.nr_cpus,
	};
	size_t len;
	char *line;

	for (c = 0; c < nr; c++) {
		curr[c].pid = skel->bss->gb_curr[c].pid;
		if (curr[c].pid && sched_stream_readers(&r->stream))
			read_comm(curr[c].pid, curr[c].comm);
		else
			curr[c].comm[0] = 0;
	}
	line = sched_fmt_sample(&src, since_load_us(r, mono_ns()), &r->energy_uj,
				r->o->interval_ms * 1000ull, &len);

	if (line) {
		sched_stream_send(&r->stream, line, len);
		free(line);
	}
}

static void print_stats(struct gearbox *skel, const struct run *r)
{
#define GB_STAT_NAME(name, str, what) str,
	static const char *const names[GB_NR_STATS] = {GB_STATS_LIST(GB_STAT_NAME)};
#undef GB_STAT_NAME
	unsigned k, c;

	fprintf(stderr, PROG ":");
	for (k = 0; k < GB_NR_STATS; k++) {
		unsigned long long sum = 0;

		for (c = 0; c < EM_MAX_CPUS; c++)
			sum += skel->bss->gb_stat_rows[c][k];
		fprintf(stderr, " %s %llu", names[k], sum);
	}
	fprintf(stderr, " readers %u dropped %lu refused %lu\n", sched_stream_readers(&r->stream),
		r->stream.dropped, r->stream.refused);
}

/* --verbose: the verifier's statistics line of every program (its cost is the model's size). */
#define VLOG_LEN 4096
static char vlog[32][VLOG_LEN];

static void verifier_stats_on(struct gearbox *skel)
{
	struct bpf_program *p;
	int i = 0;

	bpf_object__for_each_program(p, skel->obj)
	{
		if (i >= 32)
			break;
		bpf_program__set_log_level(p, 4);
		bpf_program__set_log_buf(p, vlog[i++], VLOG_LEN);
	}
}

static void verifier_stats_print(struct gearbox *skel)
{
	struct bpf_program *p;
	int i = 0;

	bpf_object__for_each_program(p, skel->obj)
	{
		const char *l;

		if (i >= 32)
			break;
		l = strstr(vlog[i++], "processed ");
		if (l)
			fprintf(stderr, PROG ": verifier: %s: %.*s\n", bpf_program__name(p),
				(int)strcspn(l, "\n"), l);
	}
}

/*
 * Loads, attaches, opens the socket (the first time) and serves until a signal or an exit,
 * whose kind and code it returns.  0, or -1 on failure (-EXIT_REFUSED: the socket path).
 */
/* --mode auto: the power profile's mode; energy (and why) when there is none to follow. */
static unsigned auto_mode(char *why, size_t len)
{
	int m = sched_power_profile(why, len);

	if (m >= 0)
		return (unsigned)m;
	if (!why[0])
		snprintf(why, len, "no platform_profile or energy_performance_preference");
	else
		strncat(why, " (not a profile this scheduler knows)", len - strlen(why) - 1);
	return GB_MODE_ENERGY;
}

/* --mode auto at every sample: a new profile switches the mode in place (the BPF side reads
 * gb_mode and gb_perf_floor at each decision). */
static void follow_power_profile(struct run *r, struct gearbox *skel)
{
	const struct em_model *m = &r->prof->model;
	char why[sizeof(r->mode_why)];
	unsigned mode = auto_mode(why, sizeof(why));

	if (mode == r->mode && !strcmp(why, r->mode_why))
		return;
	if (mode != r->mode) {
		for (unsigned d = 0; d < m->nr_domains; d++)
			skel->bss->gb_perf_floor[d] = perf_floor(&m->domains[d], mode);
		__atomic_store_n(&skel->bss->gb_mode, mode, __ATOMIC_RELEASE);
		fprintf(stderr, PROG ": mode %s -> %s (%s)\n", mode_names[r->mode],
			mode_names[mode], why);
	}
	r->mode = mode;
	snprintf(r->mode_why, sizeof(r->mode_why), "%s", why);
}

static int run_once(struct run *r, unsigned long long *kind, unsigned long long *code)
{
	struct ring_buffer *rb = NULL;
	struct bpf_link *link = NULL;
	struct gearbox *skel;
	unsigned long long next_ns;
	int rc = 0;

	skel = gearbox__open();
	if (!skel) {
		fprintf(stderr, PROG ": error: opening the BPF object: %s\n", strerror(errno));
		return -1;
	}
	fill_before_load(r, skel);
	if (r->o->verbose)
		verifier_stats_on(skel);
	if (gearbox__load(skel)) {
		int e = errno;

		if (e == E2BIG)
			fprintf(
			    stderr, PROG
			    ": error: loading the BPF program: the BPF verifier found a program "
			    "too complex for its budget (1M instructions per program; the "
			    "verifier log is above; docs/scheduler.md, \"How the policy fits "
			    "the BPF verifier\")\n");
		else
			fprintf(stderr,
				PROG ": error: loading the BPF program: %s (is this a sched_ext "
				     "kernel? run with root; the verifier log is above)\n",
				strerror(e));
		rc = -1;
		goto out;
	}
	if (r->o->verbose)
		verifier_stats_print(skel);
	link = bpf_map__attach_struct_ops(skel->maps.gearbox_ops);
	if (!link) {
		fprintf(stderr,
			PROG ": error: attaching: %s (another sched_ext scheduler loaded?)\n",
			strerror(errno));
		rc = -1;
		goto out;
	}
	/* the socket only now: a run that cannot attach leaves the path as it found it */
	if (r->stream.listen_fd < 0) {
		struct gb_err err = {0};
		int e = sched_stream_open(&r->stream, r->o->socket, r->o->socket_mode, &err);

		if (e) {
			gb_report_error(PROG, &err);
			rc = e == -EADDRINUSE || e == -EEXIST ? -EXIT_REFUSED : -1;
			goto out;
		}
	}
	r->t0_ns = mono_ns();
	rb = ring_buffer__new(bpf_map__fd(skel->maps.gb_events), on_event, r, NULL);
	fprintf(stderr, PROG ": attached, mode %s%s%s%s, model %s, stats on %s\n",
		mode_names[r->mode], r->o->mode_auto ? " (auto: " : "",
		r->o->mode_auto ? r->mode_why : "", r->o->mode_auto ? ")" : "", r->prof->soc,
		r->o->socket);
	next_ns = mono_ns() + r->o->interval_ms * 1000000ull;
	while (!stop_requested && !__atomic_load_n(&skel->bss->gb_exit_kind, __ATOMIC_ACQUIRE)) {
		struct pollfd pf[2] = {
		    {.fd = r->stream.listen_fd, .events = POLLIN},
		    {.fd = rb ? ring_buffer__epoll_fd(rb) : -1, .events = POLLIN}};
		unsigned long long now = mono_ns();
		int wait_ms = now >= next_ns ? 0 : (int)((next_ns - now) / 1000000) + 1;

		if (poll(pf, 2, wait_ms) > 0 && (pf[0].revents & POLLIN))
			sched_stream_accept(&r->stream);
		if (rb)
			ring_buffer__consume(rb);
		/* decision records only while someone reads them */
		skel->bss->gb_stream_readers = sched_stream_readers(&r->stream);
		if (mono_ns() >= next_ns) {
			next_ns += r->o->interval_ms * 1000000ull;
			send_sample(r, skel);
			if (r->o->mode_auto)
				follow_power_profile(r, skel);
			if (r->o->verbose)
				print_stats(skel, r);
		}
	}
	bpf_link__destroy(link);
	link = NULL;
	print_stats(skel, r); /* the counters of the whole run, once */
	*kind = skel->bss->gb_exit_kind;
	*code = skel->bss->gb_exit_code;
	if (*kind)
		fprintf(stderr,
			PROG ": the kernel %s the scheduler (exit kind %llu, code %#llx): %s\n",
			*kind >= SCX_EXIT_ERROR ? "ejected" : "unloaded", *kind, *code,
			skel->bss->gb_exit_msg);
out:
	ring_buffer__free(rb);
	bpf_link__destroy(link);
	gearbox__destroy(skel);
	return rc;
}

/* The first line of dir/name into buf ("" when unreadable). */
static void read_line(const char *dir, const char *name, char *buf, size_t len)
{
	char path[512];
	FILE *f;

	buf[0] = 0;
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "r");
	if (!f)
		return;
	if (!fgets(buf, (int)len, f))
		buf[0] = 0;
	buf[strcspn(buf, "\n")] = 0;
	fclose(f);
}

/*
 * Before anything is loaded: is sched_ext free, and is the socket path ours to use?  0, or the
 * exit status with err set: EXIT_REFUSED when another scheduler or process holds what we need
 * (nothing of it is touched), 1 when the kernel has no sched_ext.  Attaching settles a race
 * with a scheduler loaded meanwhile; the socket is checked again when it is opened.
 */
static int refuse_if_busy(const struct opts *o, struct gb_err *err)
{
	char state[64], ops[128];
	bool stale;
	int rc;

	read_line(scx_dir(), "state", state, sizeof(state));
	if (!state[0]) {
		gb_err_set(err, ENOENT, "this kernel has no sched_ext (%s/state is missing)",
			   scx_dir());
		return 1;
	}
	if (strcmp(state, "disabled")) {
		read_line(scx_dir(), "root/ops", ops, sizeof(ops));
		gb_err_set(err, EBUSY,
			   "another sched_ext scheduler is loaded (%s, state %s); stop it first",
			   ops[0] ? ops : "name unknown", state);
		return EXIT_REFUSED;
	}
	rc = sched_stream_check(o->socket, &stale, err);
	if (rc)
		return rc == -ENAMETOOLONG		    ? 2
		       : rc == -EADDRINUSE || rc == -EEXIST ? EXIT_REFUSED
							    : 1;
	return 0;
}

static int libbpf_print(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	if (level == LIBBPF_DEBUG)
		return 0;
	return vfprintf(stderr, fmt, ap);
}

int main(int argc, char **argv)
{
	static struct em_profile prof;
	struct run r = {.prof = &prof};
	unsigned long long kind = 0, code = 0;
	char assumed[512];
	struct gb_err err = {0};
	struct opts o;
	int st, i;

	if (parse_args(argc, argv, &o, &err)) {
		gb_report_error(PROG, &err);
		usage(stderr, false);
		return 2;
	}
	r.o = &o;
	if (em_profile_load_file(o.profile, &prof, false, NULL, &err) ||
	    sched_topo_read(&r.topo, &err)) {
		gb_report_error(PROG, &err);
		return 2;
	}
	if (sched_topo_check(&prof.model, &r.topo, o.force, GB_SCX_MAX_CPUS, GB_SCX_MAX_DOMAINS,
			     assumed, sizeof(assumed), &err)) {
		gb_err_prefix(&err, "%s", o.profile);
		gb_report_error(PROG, &err);
		return 2;
	}
	if (assumed[0])
		fprintf(stderr, PROG ": %s%s\n", o.force ? "--force: " : "", assumed);
	st = refuse_if_busy(&o, &err);
	if (st) {
		gb_report_error(PROG, &err);
		return st;
	}
	r.stream.listen_fd = -1;
	for (i = 0; i < SCHED_STREAM_MAX_CLIENTS; i++)
		r.stream.fds[i] = -1;
	r.mode = o.mode_auto ? auto_mode(r.mode_why, sizeof(r.mode_why)) : o.mode;
	r.stream.hello =
	    sched_fmt_hello(&prof, o.mode_auto ? "auto" : mode_names[r.mode], &r.stream.hello_len);
	libbpf_set_print(libbpf_print);
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	signal(SIGPIPE, SIG_IGN);
	do {
		kind = code = 0;
		int rc = run_once(&r, &kind, &code);

		if (rc < 0) {
			sched_stream_close(&r.stream);
			return rc == -EXIT_REFUSED ? EXIT_REFUSED : 1;
		}
	} while (!stop_requested && (code & SCX_ECODE_ACT_RESTART));
	sched_stream_close(&r.stream);
	fprintf(stderr, PROG ": detached\n");
	return kind >= SCX_EXIT_ERROR ? 1 : 0;
}
