// SPDX-License-Identifier: GPL-2.0-only
/*
 * fake_board.c - brings a fake cpufreq/powercap/hwmon sysfs tree to life for the linux
 * backend test, so that the real libpowercap and libsensors code reads a board that reacts.
 *
 *   fake_board CPUFREQ_DIR POWERCAP_ZONE_DIR HWMON_DIR [METER_LOG]
 *
 * Every 1-2 ms: each policy's frequency is what its governor was told (userspace: setspeed;
 * otherwise scaling_max_freq, which min=max pinning sets), written to scaling_cur_freq.  The
 * profiler's loads ("gb-load", one per busy CPU with --split-cpus) are found in /proc - only
 * those in this process's mount namespace, the test's, so that a profile test running
 * beside it on the same machine is not measured - and each policy's related_cpus says which
 * domain the CPU a load is on belongs to.  A domain
 * with n > 0 busy CPUs draws
 *
 *   STATIC_UW(pol, f) + n * CPU_UW(pol, f)        (one busy CPU: P1(pol, f), see p1_uw)
 *
 * more: the static share once, as a cluster's leakage and shared clocks are, and the dynamic
 * power per busy CPU, which is what `--split-cpus` has to recover.  Energy is integrated into
 * energy_uj (wrapping at max_energy_range_uj) and the power is written to hwmon power1_input
 * (and appended to METER_LOG as "N mW" lines, an external meter's log).  A real CPU's speed
 * cannot be changed here, so each busy load is duty-cycled with SIGSTOP/SIGCONT in proportion
 * to f / f_max: with --perf-clock wall its rate then follows the frequency.  The period is
 * 40 ms, or FAKE_BOARD_PERIOD_MS: a long one keeps a load stopped past the profiler's switch
 * settle time, as a load starved of its CPU would be.
 *
 * With FAKE_BOARD_GAUGE=DIR (a power_supply directory), a fuel gauge too: every
 * FAKE_BOARD_GAUGE_MS (default 200) the mean power since its last update goes to DIR/current_now
 * as a negative (discharging) current at DIR/voltage_now, 0.1% up or down on alternate updates
 * as a real gauge's noise is, so that every update changes the value.
 *
 * Files are replaced by rename, so a reader never sees a half-written value.  On SIGTERM the
 * loads it stopped are continued.
 */
#include <dirent.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static volatile sig_atomic_t quit;

static void on_term(int sig)
{
	(void)sig;
	quit = 1;
}

#define MAX_POL	    8
#define MAX_CPUS    64
#define MAX_LOADS   16
#define BASE_UW	    500000.0
#define PERIOD_NS   40000000ull /* duty-cycle period: long enough for a 2 ms loop */
#define SCAN_NS	    10000000ull /* full /proc scan at most this often while no load is known */
#define STATIC_FRAC 0.4		/* the static share of P1: test_linux_fake.sh's ground truth */

/* What one busy CPU adds to its idle domain: 100 mW at 1 GHz, x2 for policy 1. */
static double p1_uw(int pol, double f_khz)
{
	double ghz = f_khz / 1e6;

	return (pol + 1) * 100000.0 * ghz * ghz;
}

static double static_uw(int pol, double f_khz)
{
	return STATIC_FRAC * p1_uw(pol, f_khz);
}

static double cpu_uw(int pol, double f_khz)
{
	return (1 - STATIC_FRAC) * p1_uw(pol, f_khz);
}

static double idle_uw(double f_khz)
{
	return 20000.0 * f_khz / 1e6;
}

static long read_long(const char *path, long dflt)
{
	FILE *f = fopen(path, "r");
	long v;

	if (!f)
		return dflt;
	if (fscanf(f, "%ld", &v) != 1)
		v = dflt;
	fclose(f);
	return v;
}

static void read_word(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "r");

	buf[0] = 0;
	if (!f)
		return;
	if (!fgets(buf, (int)len, f))
		buf[0] = 0;
	buf[strcspn(buf, "\n")] = 0;
	fclose(f);
}

static void write_atomic_signed(const char *path, long long v)
{
	char tmp[4300];
	FILE *f;

	snprintf(tmp, sizeof(tmp), "%s.new", path);
	f = fopen(tmp, "w");
	if (!f)
		return;
	fprintf(f, "%lld\n", v);
	fclose(f);
	rename(tmp, path);
}

static void write_atomic(const char *path, unsigned long long v)
{
	char tmp[4300];
	FILE *f;

	snprintf(tmp, sizeof(tmp), "%s.new", path);
	f = fopen(tmp, "w");
	if (!f)
		return;
	fprintf(f, "%llu\n", v);
	fclose(f);
	rename(tmp, path);
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* "0-1,3" into cpu_pol[] = pol. */
static void map_cpus(const char *list, int pol, int *cpu_pol)
{
	const char *p = list;

	while (*p) {
		char *end;
		long a = strtol(p, &end, 10), b = a;

		if (end == p)
			break;
		if (*end == '-')
			b = strtol(end + 1, &end, 10);
		for (long c = a; c <= b && c < MAX_CPUS; c++)
			if (c >= 0)
				cpu_pol[c] = pol;
		p = *end == ',' ? end + 1 : end;
		if (*end != ',')
			break;
	}
}

struct load {
	int pid;
	char state; /* /proc/PID/stat state letter */
	int cpu;    /* the CPU it last ran on (pinned: its CPU) */
	int ppid;
	bool stopped; /* SIGSTOPped by us (counts as running: the CPU is only slower) */
};

/* Fills l from /proc/PID/stat if PID is a load; false otherwise. */
static bool load_stat(int pid, struct load *l)
{
	char path[64], buf[1024], *p;
	bool found = false;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/stat", pid);
	f = fopen(path, "r");
	if (!f)
		return false;
	if (fgets(buf, sizeof(buf), f) && strstr(buf, "(gb-load)")) {
		p = strrchr(buf, ')') + 2;
		l->pid = pid;
		l->state = *p;
		l->ppid = atoi(p + 2);
		for (int field = 3; p && field < 39; field++) {
			p = strchr(p, ' ');
			if (p)
				p++;
		}
		l->cpu = p ? atoi(p) : 0;
		found = true;
	}
	fclose(f);
	return found;
}

static struct load *find_pid(struct load *loads, int n, int pid)
{
	for (int i = 0; i < n; i++)
		if (loads[i].pid == pid)
			return &loads[i];
	return NULL;
}

static bool same_mnt_ns(int pid)
{
	static char mine[64];
	char path[64], ns[64];
	ssize_t n;

	if (!mine[0] && readlink("/proc/self/ns/mnt", mine, sizeof(mine) - 1) < 0)
		return true; /* cannot tell: take it */
	snprintf(path, sizeof(path), "/proc/%d/ns/mnt", pid);
	n = readlink(path, ns, sizeof(ns) - 1);
	if (n < 0)
		return false;
	ns[n] = 0;
	return !strcmp(ns, mine);
}

/* Adds pid to loads if it is a load of this mount namespace and not known yet. */
static void track(struct load *loads, int *n, int pid)
{
	struct load fresh = {0};

	if (*n >= MAX_LOADS || find_pid(loads, *n, pid) || !load_stat(pid, &fresh) ||
	    !same_mnt_ns(pid))
		return;
	loads[(*n)++] = fresh;
}

/*
 * Refreshes the loads: a known load is re-read (and dropped when gone; never while it still
 * exists, or one we stopped would stay stopped).  New loads are the profiler's children,
 * forked when first needed (a --split-cpus series adds some mid-profile), so the cheap way
 * to find them is the profiler's children list; /proc is scanned only while none is known.
 */
static void find_loads(struct load *loads, int *n, uint64_t t, uint64_t *last_scan)
{
	char path[96];
	FILE *f = NULL;
	int ppid;

	for (int i = 0; i < *n;) {
		struct load fresh;

		if (load_stat(loads[i].pid, &fresh)) {
			loads[i].state = fresh.state;
			loads[i].cpu = fresh.cpu;
			loads[i].ppid = fresh.ppid;
			i++;
		} else {
			loads[i] = loads[--(*n)];
		}
	}
	ppid = *n ? loads[0].ppid : 0;
	if (ppid > 1) {
		snprintf(path, sizeof(path), "/proc/%d/task/%d/children", ppid, ppid);
		f = fopen(path, "r");
	}
	if (f) {
		int pid;

		while (fscanf(f, "%d", &pid) == 1)
			track(loads, n, pid);
		fclose(f);
	} else if (!*n && t - *last_scan >= SCAN_NS) {
		DIR *d = opendir("/proc");
		struct dirent *de;

		*last_scan = t;
		while (d && (de = readdir(d)))
			if (de->d_name[0] >= '1' && de->d_name[0] <= '9')
				track(loads, n, atoi(de->d_name));
		if (d)
			closedir(d);
	}
}

int main(int argc, char **argv)
{
	char pol[MAX_POL][512], path[4200], word[256];
	int cpu_pol[MAX_CPUS];
	struct load loads[MAX_LOADS];
	double energy_uj = 0, fmax = 0;
	uint64_t t_prev = now_ns(), period_start = t_prev, last_scan = 0, period = PERIOD_NS;
	int npol = 0, nloads = 0;
	long range;
	const char *gauge = getenv("FAKE_BOARD_GAUGE");
	uint64_t gauge_period = 200000000ull, gauge_last = t_prev;
	double gauge_uj = 0, gauge_volt_uv = 3800000;
	int gauge_flip = 1;
	FILE *meter = NULL;

	if (argc != 4 && argc != 5) {
		fprintf(stderr, "usage: fake_board CPUFREQ_DIR POWERCAP_ZONE_DIR HWMON_DIR "
				"[METER_LOG]\n");
		return 2;
	}
	if (argc == 5) {
		meter = fopen(argv[4], "a");
		if (!meter)
			return 1;
		setvbuf(meter, NULL, _IOLBF, 0);
	}
	if (getenv("FAKE_BOARD_PERIOD_MS"))
		period = strtoull(getenv("FAKE_BOARD_PERIOD_MS"), NULL, 10) * 1000000ull;
	if (!period)
		period = PERIOD_NS;
	if (getenv("FAKE_BOARD_GAUGE_MS"))
		gauge_period = strtoull(getenv("FAKE_BOARD_GAUGE_MS"), NULL, 10) * 1000000ull;
	if (gauge) {
		snprintf(path, sizeof(path), "%s/voltage_now", gauge);
		gauge_volt_uv = (double)read_long(path, 3800000);
	}
	signal(SIGTERM, on_term);
	signal(SIGINT, on_term);
	for (int c = 0; c < MAX_CPUS; c++)
		cpu_pol[c] = -1;
	for (; npol < MAX_POL; npol++) {
		snprintf(pol[npol], sizeof(pol[npol]), "%s/policy%d", argv[1], npol);
		snprintf(path, sizeof(path), "%s/cpuinfo_max_freq", pol[npol]);
		if (access(path, F_OK))
			break;
		if (read_long(path, 0) > fmax)
			fmax = (double)read_long(path, 0);
		snprintf(path, sizeof(path), "%s/related_cpus", pol[npol]);
		read_word(path, word, sizeof(word));
		map_cpus(word, npol, cpu_pol);
	}
	snprintf(path, sizeof(path), "%s/max_energy_range_uj", argv[2]);
	range = read_long(path, 1L << 30);
	while (!quit) {
		double f[MAX_POL], p_uw = BASE_UW;
		int busy[MAX_POL] = {0};
		uint64_t t = now_ns();
		bool run_phase;

		for (int i = 0; i < npol; i++) {
			snprintf(path, sizeof(path), "%s/scaling_governor", pol[i]);
			read_word(path, word, sizeof(word));
			snprintf(path, sizeof(path), "%s/%s", pol[i],
				 strcmp(word, "userspace") ? "scaling_max_freq"
							   : "scaling_setspeed");
			f[i] = (double)read_long(path, (long)fmax);
			snprintf(path, sizeof(path), "%s/scaling_cur_freq", pol[i]);
			write_atomic(path, (unsigned long long)f[i]);
			p_uw += idle_uw(f[i]);
		}
		if (t - period_start >= period)
			period_start = t;
		find_loads(loads, &nloads, t, &last_scan);
		for (int i = 0; i < nloads; i++) {
			struct load *l = &loads[i];
			int d = l->cpu >= 0 && l->cpu < MAX_CPUS ? cpu_pol[l->cpu] : -1;

			if (d < 0)
				d = npol - 1;
			/* stopped by us counts as running: the emulated CPU is only slower */
			if (l->state == 'R' || (l->state == 'T' && l->stopped)) {
				busy[d]++;
				run_phase =
				    (double)(t - period_start) < f[d] / fmax * (double)period;
			} else {
				run_phase = true; /* parked: leave it to the profiler */
			}
			if (!run_phase && !l->stopped) {
				kill(l->pid, SIGSTOP);
				l->stopped = true;
			} else if (run_phase && l->stopped) {
				kill(l->pid, SIGCONT);
				l->stopped = false;
			}
		}
		for (int i = 0; i < npol; i++)
			if (busy[i])
				p_uw += static_uw(i, f[i]) + busy[i] * cpu_uw(i, f[i]);
		energy_uj += p_uw * (double)(t - t_prev) / 1e9;
		gauge_uj += p_uw * (double)(t - t_prev) / 1e9;
		if (gauge && gauge_period && t - gauge_last >= gauge_period) {
			double mean_uw = gauge_uj * 1e9 / (double)(t - gauge_last);

			mean_uw *= 1 + 0.001 * gauge_flip;
			gauge_flip = -gauge_flip;
			snprintf(path, sizeof(path), "%s/current_now", gauge);
			write_atomic_signed(path, -(long long)(mean_uw * 1e6 / gauge_volt_uv));
			gauge_uj = 0;
			gauge_last = t;
		}
		while (energy_uj >= (double)range)
			energy_uj -= (double)range;
		t_prev = t;
		snprintf(path, sizeof(path), "%s/energy_uj", argv[2]);
		write_atomic(path, (unsigned long long)energy_uj);
		snprintf(path, sizeof(path), "%s/power1_input", argv[3]);
		write_atomic(path, (unsigned long long)p_uw);
		if (meter)
			fprintf(meter, "%.3f mW\n", p_uw / 1000);
		usleep(1000);
	}
	for (int i = 0; i < nloads; i++)
		if (loads[i].stopped)
			kill(loads[i].pid, SIGCONT);
	return 0;
}
