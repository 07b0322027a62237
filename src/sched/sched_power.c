// SPDX-License-Identifier: GPL-2.0-only
/*
 * sched_power.c - the platform's power profile as a scheduler mode (sched_power.h).
 */
#include "sched_power.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gearbox_abi.h"

static const struct {
	const char *name;
	int mode;
} profiles[] = {
    /* ACPI platform_profile choices (Documentation/userspace-api/sysfs-platform_profile.rst) */
    {"low-power", GB_MODE_ENERGY},
    {"cool", GB_MODE_ENERGY},
    {"quiet", GB_MODE_ENERGY},
    {"balanced", GB_MODE_BALANCED},
    {"balanced-performance", GB_MODE_PERFORMANCE},
    {"performance", GB_MODE_PERFORMANCE},
    /* cpufreq energy_performance_preference values */
    {"power", GB_MODE_ENERGY},
    {"balance_power", GB_MODE_ENERGY},
    {"default", GB_MODE_BALANCED},
    {"balance_performance", GB_MODE_BALANCED},
};

int sched_mode_of_profile(const char *name)
{
	for (size_t i = 0; i < sizeof(profiles) / sizeof(profiles[0]); i++)
		if (!strcmp(name, profiles[i].name))
			return profiles[i].mode;
	return -1;
}

static const char *sysfs_root(void)
{
	const char *r = getenv("GEARBOX_SYSFS");

	return r && *r ? r : "/sys";
}

/* The first line of path into buf without its newline; 0, or -1 when unreadable. */
static int read_first_line(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "r");
	int rc = -1;

	if (!f)
		return -1;
	if (fgets(buf, (int)len, f)) {
		buf[strcspn(buf, "\n")] = 0;
		rc = 0;
	}
	fclose(f);
	return rc;
}

/* The energy_performance_preference of the lowest-numbered cpufreq policy that has one. */
static int read_epp(char *val, size_t len)
{
	char dir[512], path[600], v[64];
	struct dirent *e;
	long best = -1;
	DIR *d;

	snprintf(dir, sizeof(dir), "%s/devices/system/cpu/cpufreq", sysfs_root());
	d = opendir(dir);
	if (!d)
		return -1;
	while ((e = readdir(d))) {
		char *end;
		long n;

		if (strncmp(e->d_name, "policy", 6))
			continue;
		n = strtol(e->d_name + 6, &end, 10);
		if (*end || end == e->d_name + 6 || (best >= 0 && n >= best))
			continue;
		snprintf(path, sizeof(path), "%s/%s/energy_performance_preference", dir, e->d_name);
		if (!read_first_line(path, v, sizeof(v))) {
			best = n;
			snprintf(val, len, "%s", v);
		}
	}
	closedir(d);
	return best < 0 ? -1 : 0;
}

int sched_power_profile(char *what, size_t len)
{
	char path[512], val[64];

	snprintf(path, sizeof(path), "%s/firmware/acpi/platform_profile", sysfs_root());
	if (!read_first_line(path, val, sizeof(val))) {
		snprintf(what, len, "platform_profile %s", val);
		return sched_mode_of_profile(val);
	}
	if (!read_epp(val, sizeof(val))) {
		snprintf(what, len, "energy_performance_preference %s", val);
		return sched_mode_of_profile(val);
	}
	if (len)
		what[0] = 0;
	return -1;
}
