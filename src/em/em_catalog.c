// SPDX-License-Identifier: GPL-2.0-only
/*
 * em_catalog.c - finding a model by name (em_catalog.h).
 */
#include "em_catalog.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifndef GEARBOX_EM_DIR
#define GEARBOX_EM_DIR "/usr/local/share/gearbox/em-profiles"
#endif

/* Appends dir (canonical when it exists) unless an earlier entry is the same directory. */
static void add_dir(char dirs[EM_CATALOG_MAX_DIRS][4096], int *nr, const char *dir)
{
	char real[4096];

	if (realpath(dir, real))
		dir = real;
	for (int i = 0; i < *nr; i++)
		if (!strcmp(dirs[i], dir))
			return;
	snprintf(dirs[(*nr)++], 4096, "%s", dir);
}

int em_catalog_dirs(char dirs[EM_CATALOG_MAX_DIRS][4096])
{
	const char *env = getenv("GEARBOX_EM_PROFILES");
	char exe[4096], dir[4096 + 64];
	ssize_t n;
	int nr = 0;

	if (env && *env)
		add_dir(dirs, &nr, env);
	add_dir(dirs, &nr, "em-profiles");
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n > 0) {
		char *slash;

		exe[n] = '\0';
		slash = strrchr(exe, '/');
		if (slash) {
			*slash = '\0';
			snprintf(dir, sizeof(dir), "%s/../share/gearbox/em-profiles", exe);
			add_dir(dirs, &nr, dir);
		}
	}
	add_dir(dirs, &nr, GEARBOX_EM_DIR);
	return nr;
}

/* A name, not a path: what em_catalog.h says a name is. */
static bool is_name(const char *arg)
{
	size_t len = strlen(arg);

	if (!len || arg[0] == '.' || (len >= 5 && !strcmp(arg + len - 5, ".json")))
		return false;
	return strspn(arg, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-") ==
	       len;
}

int em_catalog_resolve(const char *arg, char *path, size_t len, struct gb_err *err)
{
	char dirs[EM_CATALOG_MAX_DIRS][4096], tried[1024] = "";
	int nr;

	if (!is_name(arg) || access(arg, F_OK) == 0) {
		/* a path, or a file of that name here: what the user typed */
		snprintf(path, len, "%s", arg);
		return 0;
	}
	nr = em_catalog_dirs(dirs);
	for (int i = 0; i < nr; i++) {
		if ((size_t)snprintf(path, len, "%s/%s.json", dirs[i], arg) >= len)
			continue;
		if (access(path, F_OK) == 0)
			return 0;
		snprintf(tried + strlen(tried), sizeof(tried) - strlen(tried), "%s%s",
			 i ? ", " : "", dirs[i]);
	}
	snprintf(path, len, "%s", arg);
	return gb_err_set(err, ENOENT,
			  "%s: no such file, and no model of that name in %s "
			  "('gearbox em list' lists them)",
			  arg, tried);
}
