/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * em_catalog.h - energy models by name: `-p sm8250` instead of a path, from any directory.
 *
 * A name (letters, digits, '.', '_', '-'; no '/', not ending in ".json") is looked up as
 * NAME.json in these directories, the first that has it wins:
 *   1. $GEARBOX_EM_PROFILES, when set
 *   2. ./em-profiles (working in a source tree)
 *   3. ../share/gearbox/em-profiles beside the running gearbox binary (an installed tree,
 *      wherever it was installed or unpacked: a DESTDIR install works as it is)
 *   4. the configured datadir (meson's prefix/datadir/gearbox/em-profiles)
 * Anything else is a path and is used as given, as is a name that is an existing file in the
 * working directory.
 */
#ifndef GEARBOX_EM_CATALOG_H
#define GEARBOX_EM_CATALOG_H

#include <stddef.h>

#include "gb_err.h"

#define EM_CATALOG_MAX_DIRS 4

/* em_catalog_resolve - the path of the model ARG names (ARG itself when it is a path), in
 * path[len].  Returns 0, or -ENOENT with err naming the directories searched. */
int em_catalog_resolve(const char *arg, char *path, size_t len, struct gb_err *err);

/* em_catalog_dirs - the directories searched, in order (those that do not exist included);
 * returns how many were written to dirs[EM_CATALOG_MAX_DIRS][4096]. */
int em_catalog_dirs(char dirs[EM_CATALOG_MAX_DIRS][4096]);

#endif
