// SPDX-License-Identifier: GPL-2.0-only
/*
 * linux_power.c - power and temperature on a real board.
 *
 * Sources, in the order auto picks them:
 *   meter     --meter-cmd CMD (its stdout) or --meter-file PATH (followed like tail -f): one
 *             sample per line, a number with an optional unit (uW, mW, W; plain: uW)
 *   powercap  every top-level zone of the first control type under /sys/class/powercap
 *             (intel-rapl:0, dtpm:0 ...), energy_uj summed, each wrapping at its own
 *             max_energy_range_uj.  libpowercap 0.6 has no enumeration: the directory is read
 *             and zones probed with powercap_sysfs_zone_exists().
 *   hwmon     libsensors: an energy channel (J) if any chip has one, else a power channel (W)
 *   fuel-gauge  a battery under /sys/class/power_supply: power_now (uW), else
 *             current_now (uA) x voltage_now (uV), magnitudes (some drivers report a
 *             discharging current as negative).  Only while status is Discharging: on a
 *             charger the gauge measures the charge current, not the device's power.  Its
 *             update interval is detected at open and every window covers several updates.
 * Temperatures: every libsensors temperature input; the hottest one counts.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <poll.h>
#include <powercap/powercap-sysfs.h>
#include <sensors/error.h>
#include <sensors/sensors.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "linux_impl.h"
#include "meter_sample.h"

#define SAMPLE_NS	  (10ull * 1000000)
#define MAX_ZONES	  8
#define MAX_TEMPS	  32
#define RAPL_LSB_UJ	  61.0
#define FG_DIR		  "/sys/class/power_supply"
#define FG_POLL_NS	  (5ull * 1000000)
#define FG_CHANGES	  5 /* value changes seen to time FG_CHANGES - 1 updates */
#define FG_WAIT_NS	  (3ull * 1000000000) /* longest wait for one change at open */
#define FG_WINDOW_UPDATES 5		      /* a window's update intervals: 2 dropped, 3 kept */

enum lx_kind { PW_METER, PW_POWERCAP, PW_HWMON_ENERGY, PW_HWMON_POWER, PW_FUEL_GAUGE };

struct lx_chan {
	const sensors_chip_name *chip;
	int nr;
};

struct lx_power {
	enum lx_kind kind;
	/* meter */
	int fd;
	pid_t pid;
	bool is_cmd;
	char what[LX_PATH];
	char line[256];
	size_t line_len;
	bool line_long; /* the line under way did not fit line[]: not a sample */
	u64 meter_samples;
	/* powercap */
	char control[64];
	u32 zone[MAX_ZONES];
	u32 nr_zones;
	u64 range_uj[MAX_ZONES];
	/* hwmon */
	bool sensors_up;
	struct lx_chan chan;
	struct lx_chan temp[MAX_TEMPS];
	u32 nr_temps;
	/* fuel gauge */
	char fg_name[128];
	bool fg_power_now;  /* power_now; else current_now x voltage_now */
	u64 fg_interval_ns; /* detected update interval */
};

static int meter_open(struct lx_power *p, const struct prof_linux_opts *o, struct gb_err *err)
{
	int fds[2];

	p->kind = PW_METER;
	if (o->meter_file) {
		snprintf(p->what, sizeof(p->what), "%s", o->meter_file);
		p->fd = open(o->meter_file, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
		if (p->fd < 0)
			return gb_err_set(err, ENODEV, "--meter-file %s: %s", o->meter_file,
					  strerror(errno));
		return 0;
	}
	snprintf(p->what, sizeof(p->what), "%s", o->meter_cmd);
	p->is_cmd = true;
	if (pipe2(fds, O_CLOEXEC) < 0)
		return gb_err_set(err, errno, "pipe: %s", strerror(errno));
	p->pid = fork();
	if (p->pid < 0)
		return gb_err_set(err, errno, "fork: %s", strerror(errno));
	if (p->pid == 0) {
		setpgid(0, 0); /* so that closing kills the whole pipeline */
		dup2(fds[1], 1);
		execl("/bin/sh", "sh", "-c", o->meter_cmd, (char *)NULL);
		_exit(127);
	}
	close(fds[1]);
	p->fd = fds[0];
	fcntl(p->fd, F_SETFL, O_NONBLOCK);
	return 0;
}

static int meter_dead(struct lx_power *p, struct gb_err *err)
{
	int status = 0;

	if (!p->is_cmd)
		return gb_err_set(err, EPIPE,
				  "meter file %s: the writer closed it after %llu "
				  "samples",
				  p->what, (unsigned long long)p->meter_samples);
	if (p->pid > 0 && waitpid(p->pid, &status, 0) == p->pid)
		p->pid = 0;
	return gb_err_set(err, EPIPE,
			  "meter command '%s' exited (%s %d) after %llu samples: "
			  "check the meter's connection and run the command alone to see why",
			  p->what, WIFSIGNALED(status) ? "signal" : "status",
			  WIFSIGNALED(status) ? WTERMSIG(status) : WEXITSTATUS(status),
			  (unsigned long long)p->meter_samples);
}

/* Reads whatever the meter wrote, appending complete lines as samples. */
static int meter_drain(struct lx_power *p, struct prof_window *w, bool *eof)
{
	char buf[1024];
	ssize_t n;

	*eof = false;
	while ((n = read(p->fd, buf, sizeof(buf))) > 0) {
		for (ssize_t i = 0; i < n; i++) {
			double uw;

			if (buf[i] != '\n') {
				if (p->line_len < sizeof(p->line) - 1)
					p->line[p->line_len++] = buf[i];
				else
					p->line_long = true;
				continue;
			}
			p->line[p->line_len] = 0;
			p->line_len = 0;
			/* a line longer than the buffer was cut: its number may be too */
			if (p->line_long) {
				p->line_long = false;
				continue;
			}
			if (!prof_meter_sample_uw(p->line, &uw) ||
			    w->nr_power >= PROF_MAX_WINDOW_SAMPLES)
				continue;
			w->power_uw[w->nr_power++] = (u32)uw;
			p->meter_samples++;
		}
	}
	if (n == 0)
		*eof = true;
	return n < 0 && errno != EAGAIN ? -errno : 0;
}

static int meter_window(struct lx_power *p, u64 duration_ns, struct prof_window *w,
			struct gb_err *err)
{
	u64 end = lx_now_ns() + duration_ns;
	bool eof;

	/* samples that arrived before the window belong to the previous state */
	meter_drain(p, w, &eof);
	w->nr_power = 0;
	for (u64 now = lx_now_ns(); now < end; now = lx_now_ns()) {
		struct pollfd pfd = {.fd = p->fd, .events = POLLIN};
		int ms = (int)((end - now) / 1000000) + 1;

		if (p->is_cmd)
			poll(&pfd, 1, ms);
		else
			lx_sleep_ns(SAMPLE_NS);
		meter_drain(p, w, &eof);
		if (eof && p->is_cmd)
			return meter_dead(p, err);
	}
	if (w->nr_power == 0)
		return gb_err_set(err, EIO, "meter %s gave no sample in %llu ms", p->what,
				  (unsigned long long)(duration_ns / 1000000));
	return 0;
}

static bool powercap_probe(struct lx_power *p)
{
	struct dirent *de;
	DIR *d = opendir("/sys/class/powercap");

	if (!d)
		return false;
	while ((de = readdir(d)) && p->nr_zones < MAX_ZONES) {
		char name[64], *colon, *end;
		u64 v;
		u32 z;

		snprintf(name, sizeof(name), "%s", de->d_name);
		colon = strchr(name, ':');
		if (!colon || strchr(colon + 1, ':'))
			continue; /* a control type, or a sub-zone: top-level zones only */
		*colon = 0;
		z = (u32)strtoul(colon + 1, &end, 10);
		if (*end || (p->nr_zones && strcmp(name, p->control)))
			continue;
		if (powercap_sysfs_zone_exists(name, &z, 1) ||
		    powercap_sysfs_zone_get_energy_uj(name, &z, 1, &v))
			continue;
		snprintf(p->control, sizeof(p->control), "%s", name);
		if (powercap_sysfs_zone_get_max_energy_range_uj(name, &z, 1,
								&p->range_uj[p->nr_zones]))
			p->range_uj[p->nr_zones] = 1ull << 32;
		p->zone[p->nr_zones++] = z;
	}
	closedir(d);
	return p->nr_zones > 0;
}

static int powercap_read(struct lx_power *p, u64 *uj)
{
	for (u32 i = 0; i < p->nr_zones; i++)
		if (powercap_sysfs_zone_get_energy_uj(p->control, &p->zone[i], 1, &uj[i]))
			return -EIO;
	return 0;
}

static void sensors_probe(struct lx_power *p)
{
	const sensors_chip_name *chip;
	int c = 0;
	bool have_energy = false, have_power = false;
	FILE *cfg = fopen("/dev/null", "r");

	if (sensors_init(cfg) != 0) {
		if (cfg)
			fclose(cfg);
		return;
	}
	if (cfg)
		fclose(cfg);
	p->sensors_up = true;
	while ((chip = sensors_get_detected_chips(NULL, &c))) {
		const sensors_feature *f;
		int fn = 0;

		while ((f = sensors_get_features(chip, &fn))) {
			const sensors_subfeature *sf = NULL;

			if (f->type == SENSORS_FEATURE_TEMP && p->nr_temps < MAX_TEMPS) {
				sf = sensors_get_subfeature(chip, f, SENSORS_SUBFEATURE_TEMP_INPUT);
				if (sf)
					p->temp[p->nr_temps++] = (struct lx_chan){chip, sf->number};
			} else if (f->type == SENSORS_FEATURE_ENERGY && !have_energy) {
				sf = sensors_get_subfeature(chip, f,
							    SENSORS_SUBFEATURE_ENERGY_INPUT);
				if (sf) {
					p->chan = (struct lx_chan){chip, sf->number};
					have_energy = true;
				}
			} else if (f->type == SENSORS_FEATURE_POWER && !have_energy &&
				   !have_power) {
				sf =
				    sensors_get_subfeature(chip, f, SENSORS_SUBFEATURE_POWER_INPUT);
				if (!sf)
					sf = sensors_get_subfeature(
					    chip, f, SENSORS_SUBFEATURE_POWER_AVERAGE);
				if (sf) {
					p->chan = (struct lx_chan){chip, sf->number};
					have_power = true;
				}
			}
		}
	}
	if (have_energy)
		p->kind = PW_HWMON_ENERGY;
	else if (have_power)
		p->kind = PW_HWMON_POWER;
}

static void describe_hwmon(const struct lx_power *p, char *desc, size_t len)
{
	char name[128];

	if (sensors_snprintf_chip_name(name, sizeof(name), p->chan.chip) < 0)
		snprintf(name, sizeof(name), "?");
	snprintf(desc, len, "hwmon %s %s (libsensors)", name,
		 p->kind == PW_HWMON_ENERGY ? "energy" : "power");
}

/* One number from FG_DIR/name/file. */
static int fg_read_num(const char *name, const char *file, long long *v)
{
	char path[LX_PATH + 160], buf[64], *end;

	snprintf(path, sizeof(path), FG_DIR "/%s/%s", name, file);
	if (lx_read_str(path, buf, sizeof(buf)) < 0)
		return -EIO;
	errno = 0;
	*v = strtoll(buf, &end, 10);
	return end == buf || errno ? -EIO : 0;
}

/* The supply's power in uW, from power_now or current_now x voltage_now, as magnitudes. */
static int fg_read_uw(const struct lx_power *p, double *uw)
{
	long long a, b;

	if (p->fg_power_now) {
		if (fg_read_num(p->fg_name, "power_now", &a) < 0)
			return -EIO;
		*uw = fabs((double)a);
		return 0;
	}
	if (fg_read_num(p->fg_name, "current_now", &a) < 0 ||
	    fg_read_num(p->fg_name, "voltage_now", &b) < 0)
		return -EIO;
	*uw = fabs((double)a) * fabs((double)b) / 1e6; /* uA x uV = pW */
	return 0;
}

/* 0 when the supply runs the device (status Discharging); else the reason in err. */
static int fg_check_status(const struct lx_power *p, struct gb_err *err)
{
	char path[LX_PATH], st[64];

	snprintf(path, sizeof(path), FG_DIR "/%s/status", p->fg_name);
	if (lx_read_str(path, st, sizeof(st)) < 0)
		return gb_err_set(err, ENODEV,
				  "fuel gauge %s: %s unreadable: its status must be "
				  "Discharging",
				  p->fg_name, path);
	st[strcspn(st, "\n")] = 0;
	if (strcmp(st, "Discharging"))
		return gb_err_set(err, ENODEV,
				  "fuel gauge %s: status is '%s', not Discharging: "
				  "on a charger it measures the charge current, not the device's "
				  "power; unplug the charger and run on battery",
				  p->fg_name, st);
	return 0;
}

/* Whether NAME reads as a fuel gauge (power_now, or current_now and voltage_now). */
static bool fg_usable(struct lx_power *p, const char *name)
{
	long long v;

	if (strlen(name) >= sizeof(p->fg_name))
		return false;
	snprintf(p->fg_name, sizeof(p->fg_name), "%s", name);
	p->fg_power_now = fg_read_num(name, "power_now", &v) == 0;
	if (p->fg_power_now)
		return true;
	return fg_read_num(name, "current_now", &v) == 0 &&
	       fg_read_num(name, "voltage_now", &v) == 0;
}

/* Finds the supply: NAME, or the first usable one (a discharging one first); false if none. */
static bool fg_probe(struct lx_power *p, const char *name)
{
	char first[128] = "";
	struct dirent *de;
	DIR *d;

	if (name)
		return fg_usable(p, name);
	d = opendir(FG_DIR);
	if (!d)
		return false;
	while ((de = readdir(d))) {
		struct gb_err e;

		if (de->d_name[0] == '.' || !fg_usable(p, de->d_name))
			continue;
		if (fg_check_status(p, &e) == 0) {
			closedir(d);
			return true;
		}
		if (!first[0])
			snprintf(first, sizeof(first), "%s", de->d_name);
	}
	closedir(d);
	/* only charging ones: the caller's status check says why it cannot be used */
	return first[0] && fg_usable(p, first);
}

/*
 * Times the gauge's updates: polls every FG_POLL_NS until the value changes FG_CHANGES times
 * and takes the median of the FG_CHANGES - 1 intervals between changes (a change missed
 * because two updates read the same doubles one interval; the median ignores it).
 */
static int fg_detect_interval(struct lx_power *p, struct gb_err *err)
{
	u64 at[FG_CHANGES], iv[FG_CHANGES - 1];
	double last, v;
	u32 n = 0;

	if (fg_read_uw(p, &last) < 0)
		return gb_err_set(err, EIO, "fuel gauge %s: unreadable", p->fg_name);
	for (u64 t0 = lx_now_ns(); n < FG_CHANGES;) {
		lx_sleep_ns(FG_POLL_NS);
		if (fg_read_uw(p, &v) < 0)
			return gb_err_set(err, EIO, "fuel gauge %s: unreadable", p->fg_name);
		if (v != last) {
			at[n++] = t0 = lx_now_ns();
			last = v;
		} else if (lx_now_ns() - t0 > FG_WAIT_NS) {
			return gb_err_set(err, EIO,
					  "fuel gauge %s: the reading did not change in "
					  "%llu s (%u of %u changes seen): the gauge does not "
					  "update, or the load is too steady to tell when",
					  p->fg_name, FG_WAIT_NS / 1000000000, n, (u32)FG_CHANGES);
		}
	}
	for (u32 i = 0; i + 1 < FG_CHANGES; i++)
		iv[i] = at[i + 1] - at[i];
	for (u32 i = 1; i < FG_CHANGES - 1; i++) /* insertion sort of four */
		for (u32 j = i; j > 0 && iv[j - 1] > iv[j]; j--) {
			u64 t = iv[j];

			iv[j] = iv[j - 1];
			iv[j - 1] = t;
		}
	p->fg_interval_ns = iv[(FG_CHANGES - 1) / 2];
	return 0;
}

static int fg_open(struct lx_power *p, char *desc, size_t desc_len, struct gb_err *err)
{
	int ret;

	p->kind = PW_FUEL_GAUGE;
	ret = fg_check_status(p, err);
	if (ret == 0)
		ret = fg_detect_interval(p, err);
	if (ret < 0)
		return ret;
	snprintf(desc, desc_len,
		 "fuel gauge %s %s, updates every %llu ms, windows of at least "
		 "%llu ms",
		 p->fg_name, p->fg_power_now ? "power_now" : "current_now x voltage_now",
		 (unsigned long long)(p->fg_interval_ns / 1000000),
		 (unsigned long long)(FG_WINDOW_UPDATES * p->fg_interval_ns / 1000000));
	return 0;
}

/*
 * Samples the gauge every SAMPLE_NS for at least FG_WINDOW_UPDATES update intervals.  A gauge
 * reading is its average over the interval that ended at its update, so the samples before
 * the window's second update are dropped: the reading showing at the start, and the first
 * update's, average time before the window (partly the previous state).
 */
static int fg_window(struct lx_power *p, u64 duration_ns, struct prof_window *w, struct gb_err *err)
{
	u64 min_ns = FG_WINDOW_UPDATES * p->fg_interval_ns, end;
	double last, v;
	u32 changes = 0, from[2] = {0, 0}, keep;

	if (fg_check_status(p, err) < 0)
		return -ENODEV;
	if (fg_read_uw(p, &last) < 0)
		return gb_err_set(err, EIO, "fuel gauge %s: unreadable", p->fg_name);
	w->from_energy = false;
	end = lx_now_ns() + (duration_ns > min_ns ? duration_ns : min_ns);
	while (lx_now_ns() < end && w->nr_power < PROF_MAX_WINDOW_SAMPLES) {
		lx_sleep_ns(SAMPLE_NS);
		if (fg_read_uw(p, &v) < 0)
			return gb_err_set(err, EIO, "fuel gauge %s: unreadable", p->fg_name);
		if (v != last && changes < 2)
			from[changes++] = w->nr_power;
		last = v;
		w->power_uw[w->nr_power++] = (u32)(v > 4e9 ? 4e9 : v);
	}
	/* fewer changes: the power held steady (a repeated reading), so less is stale */
	keep = changes ? from[changes - 1] : 0;
	if (keep >= w->nr_power) /* a gauge that stalled: better stale samples than none */
		keep = 0;
	memmove(w->power_uw, w->power_uw + keep, (w->nr_power - keep) * sizeof(w->power_uw[0]));
	w->nr_power -= keep;
	return 0;
}

int lx_power_open(const struct prof_linux_opts *o, struct lx_power **out, char *desc,
		  size_t desc_len, struct gb_err *err)
{
	struct lx_power *p = calloc(1, sizeof(*p));
	const char *want = o->power ? o->power : "auto";
	bool any = !strcmp(want, "auto");
	bool fg_want = !strncmp(want, "fuel-gauge", 10);
	const char *fg_name = fg_want && want[10] == ':' ? want + 11 : NULL;
	int ret;

	if (!p)
		return gb_err_set(err, ENOMEM, "out of memory");
	p->fd = -1;
	p->kind = (enum lx_kind) - 1;
	sensors_probe(p); /* for temperatures even when another source measures power */
	if (o->meter_cmd || o->meter_file) {
		ret = meter_open(p, o, err);
		if (ret < 0)
			goto fail;
		snprintf(desc, desc_len, "external meter %s", p->what);
	} else if ((any || !strcmp(want, "powercap")) && powercap_probe(p)) {
		p->kind = PW_POWERCAP;
		snprintf(desc, desc_len, "powercap %s, %u zone(s) (libpowercap)", p->control,
			 p->nr_zones);
	} else if ((any || !strcmp(want, "hwmon")) &&
		   (p->kind == PW_HWMON_ENERGY || p->kind == PW_HWMON_POWER)) {
		describe_hwmon(p, desc, desc_len);
	} else if ((any || fg_want) && fg_probe(p, fg_name)) {
		ret = fg_open(p, desc, desc_len, err);
		if (ret < 0)
			goto fail;
	} else if (fg_want) {
		ret = gb_err_set(err, ENODEV,
				 "--power %s: no %s%s under " FG_DIR " with power_now, "
				 "or current_now and voltage_now",
				 want, fg_name ? "supply " : "supply", fg_name ? fg_name : "");
		goto fail;
	} else {
		ret = gb_err_set(err, ENODEV,
				 "no power source: no powercap zone with energy_uj in "
				 "/sys/class/powercap, no hwmon power or energy channel "
				 "(libsensors), no fuel gauge under " FG_DIR
				 "; wire an external meter and pass --meter-cmd CMD "
				 "or --meter-file PATH (see docs/profiling.md)");
		goto fail;
	}
	*out = p;
	return 0;
fail:
	lx_power_close(p);
	return ret;
}

static int hwmon_value(struct lx_power *p, double *v)
{
	return sensors_get_value(p->chan.chip, p->chan.nr, v) ? -EIO : 0;
}

int lx_power_window(struct lx_power *p, u64 duration_ns, struct prof_window *w, struct gb_err *err)
{
	u64 prev[MAX_ZONES], cur[MAX_ZONES], t_prev, t;
	double e_prev = 0, e;

	if (p->kind == PW_METER)
		return meter_window(p, duration_ns, w, err);
	if (p->kind == PW_FUEL_GAUGE)
		return fg_window(p, duration_ns, w, err);
	w->from_energy = p->kind != PW_HWMON_POWER;
	if (p->kind == PW_POWERCAP && powercap_read(p, prev) < 0)
		return gb_err_set(err, EIO, "powercap %s: energy_uj unreadable", p->control);
	if (p->kind == PW_HWMON_ENERGY && hwmon_value(p, &e_prev) < 0)
		return gb_err_set(err, EIO, "hwmon energy channel unreadable");
	t_prev = lx_now_ns();
	for (u64 n = 0; n < duration_ns / SAMPLE_NS && w->nr_power < PROF_MAX_WINDOW_SAMPLES; n++) {
		double uw = 0;

		lx_sleep_ns(SAMPLE_NS);
		t = lx_now_ns();
		if (p->kind == PW_POWERCAP) {
			u64 uj = 0;

			if (powercap_read(p, cur) < 0)
				return gb_err_set(err, EIO, "powercap %s: energy_uj unreadable",
						  p->control);
			for (u32 i = 0; i < p->nr_zones; i++)
				uj += prof_energy_delta_uj(prev[i], cur[i], p->range_uj[i]);
			memcpy(prev, cur, sizeof(prev));
			uw = (double)uj * 1e9 / (double)(t - t_prev);
			w->power_lsb_uw = (u32)(RAPL_LSB_UJ * 1e9 / SAMPLE_NS);
		} else if (p->kind == PW_HWMON_ENERGY) {
			if (hwmon_value(p, &e) < 0)
				return gb_err_set(err, EIO, "hwmon energy channel unreadable");
			uw = (e - e_prev) * 1e6 * 1e9 / (double)(t - t_prev);
			e_prev = e;
		} else {
			if (hwmon_value(p, &e) < 0)
				return gb_err_set(err, EIO, "hwmon power channel unreadable");
			uw = e * 1e6;
		}
		t_prev = t;
		w->power_uw[w->nr_power++] = (u32)(uw < 0 ? 0 : uw > 4e9 ? 4e9 : uw);
	}
	return 0;
}

int lx_power_temp_mc(struct lx_power *p, int *mc)
{
	double best = -1000, v;

	for (u32 i = 0; i < p->nr_temps; i++)
		if (!sensors_get_value(p->temp[i].chip, p->temp[i].nr, &v) && v > best)
			best = v;
	if (best <= -1000)
		return -ENODATA;
	*mc = (int)lround(best * 1000);
	return 0;
}

void lx_power_close(struct lx_power *p)
{
	if (!p)
		return;
	if (p->fd >= 0)
		close(p->fd);
	if (p->is_cmd && p->pid > 0) {
		kill(-p->pid, SIGTERM);
		waitpid(p->pid, NULL, 0);
	}
	if (p->sensors_up)
		sensors_cleanup();
	free(p);
}
