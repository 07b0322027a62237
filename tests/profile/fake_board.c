// SPDX-License-Identifier: GPL-2.0-only
/*
 * fake_board.c - brings a fake cpufreq/powercap/hwmon sysfs tree to life for the linux
 * backend test, so that the real libpowercap and libsensors code reads a board that reacts.
 *
 *   fake_board CPUFREQ_DIR POWERCAP_ZONE_DIR HWMON_DIR [METER_LOG]
 *
 * Every 2 ms: each policy's frequency is what its governor was told (userspace: setspeed;
 * otherwise scaling_max_freq, which min=max pinning sets), written to scaling_cur_freq.  The
 * profiler's load ("gb-load") is found in /proc; while it runs, its domain draws
 * DYN_UW(f) more.  Energy is integrated into energy_uj (wrapping at max_energy_range_uj) and
 * the power is written to hwmon power1_input (and appended to METER_LOG as "N mW" lines,
 * an external meter's log).  A real CPU's speed cannot be changed here, so
 * the load is duty-cycled with SIGSTOP/SIGCONT in proportion to f / f_max: with
 * --perf-clock wall its rate then follows the frequency.
 *
 * Files are replaced by rename, so a reader never sees a half-written value.
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

#define MAX_POL 8
#define BASE_UW 500000.0
#define PERIOD_NS 40000000ull    /* duty-cycle period: long enough for a 2 ms loop */

static double dyn_uw(int pol, double f_khz)
{
	double ghz = f_khz / 1e6;

	return (pol + 1) * 100000.0 * ghz * ghz;    /* 100 mW at 1 GHz, x2 for policy 1 */
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

/* State letter and CPU of pid if it is the load; false otherwise. */
static bool load_stat(const char *pid, char *state, int *cpu)
{
	char path[300], buf[1024], *p;
	bool found = false;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%s/stat", pid);
	f = fopen(path, "r");
	if (!f)
		return false;
	if (fgets(buf, sizeof(buf), f) && strstr(buf, "(gb-load)")) {
		p = strrchr(buf, ')') + 2;
		*state = *p;
		for (int field = 3; p && field < 39; field++) {
			p = strchr(p, ' ');
			if (p)
				p++;
		}
		*cpu = p ? atoi(p) : 0;
		found = true;
	}
	fclose(f);
	return found;
}

/* The load's pid (the last one found is tried first), state and CPU; 0 when none. */
static int find_load(char *state, int *cpu)
{
	static char last[32];
	struct dirent *de;
	int found = 0;
	DIR *d;

	if (last[0] && load_stat(last, state, cpu))
		return atoi(last);
	d = opendir("/proc");
	if (!d)
		return 0;
	while (!found && (de = readdir(d))) {
		if (de->d_name[0] < '0' || de->d_name[0] > '9')
			continue;
		if (load_stat(de->d_name, state, cpu)) {
			found = atoi(de->d_name);
			snprintf(last, sizeof(last), "%s", de->d_name);
		}
	}
	closedir(d);
	return found;
}

int main(int argc, char **argv)
{
	char pol[MAX_POL][512], path[4200], word[64];
	double energy_uj = 0, fmax = 0;
	uint64_t t_prev = now_ns(), period_start = t_prev;
	int npol = 0, stopped_pid = 0;
	long range;

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
	for (; npol < MAX_POL; npol++) {
		snprintf(pol[npol], sizeof(pol[npol]), "%s/policy%d", argv[1], npol);
		snprintf(path, sizeof(path), "%s/cpuinfo_max_freq", pol[npol]);
		if (access(path, F_OK))
			break;
		if (read_long(path, 0) > fmax)
			fmax = (double)read_long(path, 0);
	}
	snprintf(path, sizeof(path), "%s/max_energy_range_uj", argv[2]);
	range = read_long(path, 1L << 30);
	for (;;) {
		double f[MAX_POL], p_uw = BASE_UW;
		char state = 0;
		int cpu = -1, pid, busy_pol = -1;
		uint64_t t = now_ns();

		for (int i = 0; i < npol; i++) {
			snprintf(path, sizeof(path), "%s/scaling_governor", pol[i]);
			read_word(path, word, sizeof(word));
			snprintf(path, sizeof(path), "%s/%s", pol[i],
				 strcmp(word, "userspace") ? "scaling_max_freq" : "scaling_setspeed");
			f[i] = (double)read_long(path, (long)fmax);
			snprintf(path, sizeof(path), "%s/scaling_cur_freq", pol[i]);
			write_atomic(path, (unsigned long long)f[i]);
			p_uw += idle_uw(f[i]);
		}
		pid = find_load(&state, &cpu);
		/* stopped by us counts as running: the emulated CPU is only slower */
		if (pid && (state == 'R' || (state == 'T' && pid == stopped_pid)))
			busy_pol = cpu < npol ? cpu : npol - 1;   /* policy N holds CPU N here */
		if (busy_pol >= 0) {
			double duty = f[busy_pol] / fmax;
			bool run = (double)(t - period_start) < duty * PERIOD_NS;

			p_uw += dyn_uw(busy_pol, f[busy_pol]);
			if (!run && stopped_pid != pid) {
				kill(pid, SIGSTOP);
				stopped_pid = pid;
			} else if (run && stopped_pid == pid) {
				kill(pid, SIGCONT);
				stopped_pid = 0;
			}
		} else if (stopped_pid) {
			kill(stopped_pid, SIGCONT);
			stopped_pid = 0;
		}
		if (t - period_start >= PERIOD_NS)
			period_start = t;
		energy_uj += p_uw * (double)(t - t_prev) / 1e9;
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
}
