// SPDX-License-Identifier: GPL-2.0-only
/*
 * fuzz_debugfs.c - libFuzzer target for the kernel debugfs EM importer.  Input: lines
 * "PATH: VALUE" as `gearbox em export --debugfs-text` prints them; each becomes a file under a
 * scratch directory (PATH under sys/ in the --cpu-sysfs tree, for cpuN/cpu_capacity), which
 * em_import_debugfs then reads.  Paths are kept inside the scratch directory (plain names, no
 * "..").  The oracle is fuzz_common.h's.
 */
#include <errno.h>
#include <ftw.h>
#include <stdint.h>
#include <sys/stat.h>
#include <unistd.h>

#include "em_import.h"
#include "fuzz_common.h"

#define MAX_FILES 64

static char root[256], em_dir[300], sys_dir[300];

static int rm_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)flag;
	if (ftw->level > 0)
		remove(path);
	return 0;
}

static void scratch_clear(void)
{
	nftw(root, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
}

static void scratch_remove(void)
{
	scratch_clear();
	rmdir(root);
}

static int scratch_init(void)
{
	const char *base = access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp";

	snprintf(root, sizeof(root), "%s/gb-fuzz-debugfs-XXXXXX", base);
	if (!mkdtemp(root))
		return -1;
	snprintf(em_dir, sizeof(em_dir), "%s/em", root);
	snprintf(sys_dir, sizeof(sys_dir), "%s/sys", root);
	atexit(scratch_remove);
	return 0;
}

/* A relative path of 1-4 plain components. */
static int path_ok(const char *p)
{
	int depth = 1;

	if (!*p || *p == '/')
		return 0;
	for (const char *c = p; *c; c++) {
		if (*c == '/') {
			if (c[1] == '/' || c[1] == '\0' || ++depth > 4)
				return 0;
		} else if (!((*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') ||
			     (*c >= '0' && *c <= '9') || *c == ':' || *c == '_' || *c == '-' ||
			     *c == '.')) {
			return 0;
		}
	}
	return !strstr(p, "..") && strcmp(p, ".") && strncmp(p, "./", 2);
}

/* Writes value to dir/rel, making the directories on the way. */
static void put_file(const char *dir, const char *rel, const char *value, size_t vlen)
{
	char full[1024];
	FILE *f;

	snprintf(full, sizeof(full), "%s/%s", dir, rel);
	mkdir(dir, 0755);
	for (char *p = full + strlen(dir) + 1; (p = strchr(p, '/')); p++) {
		*p = '\0';
		mkdir(full, 0755);
		*p = '/';
	}
	f = fopen(full, "w");
	if (!f)
		return; /* a file where a directory is wanted, or the reverse: the input's problem
			 */
	fwrite(value, 1, vlen, f);
	fputc('\n', f);
	fclose(f);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct em_profile prof;
	const char *p = (const char *)data, *end = p + size;
	struct em_warnings warn;
	struct gb_err err;
	int files = 0, rc;

	if (!root[0] && scratch_init())
		abort();
	scratch_clear();
	while (p < end && files < MAX_FILES) {
		const char *nl = memchr(p, '\n', (size_t)(end - p)), *sep;
		const char *line_end = nl ? nl : end;
		char path[200];
		size_t plen;

		sep = memchr(p, ':', (size_t)(line_end - p));
		/* "ps:500000/power: 10": the separator is the last ": " of the line */
		for (const char *s = p; s && s < line_end;) {
			const char *c = memchr(s, ':', (size_t)(line_end - s));

			if (!c)
				break;
			if (c + 1 < line_end && c[1] == ' ')
				sep = c;
			s = c + 1;
		}
		plen = sep ? (size_t)(sep - p) : 0;
		if (sep && sep + 1 < line_end && sep[1] == ' ' && plen && plen < sizeof(path)) {
			memcpy(path, p, plen);
			path[plen] = '\0';
			if (path_ok(path)) {
				const char *v = sep + 2;

				if (!strncmp(path, "sys/", 4))
					put_file(sys_dir, path + 4, v, (size_t)(line_end - v));
				else
					put_file(em_dir, path, v, (size_t)(line_end - v));
				files++;
			}
		}
		p = nl ? nl + 1 : end;
	}
	rc = em_import_debugfs(em_dir, sys_dir, &prof, &warn, &err);
	fuzz_check_imported(rc, &prof, &err);
	return 0;
}
