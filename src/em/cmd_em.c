// SPDX-License-Identifier: GPL-2.0-only
/*
 * cmd_em.c - `gearbox em`: validate, show, diff, fmt, import and export energy models.
 */
#include <dirent.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "commands.h"
#include "em_catalog.h"
#include "em_export.h"
#include "em_import.h"
#include "em_profile.h"
#include "outfile.h"

static const char em_usage[] =
    "usage: gearbox em list\n"
    "       gearbox em validate [--strict] FILE...\n"
    "       gearbox em show FILE\n"
    "       gearbox em diff [--fail-above PCT] A B\n"
    "       gearbox em fmt FILE\n"
    "       gearbox em import --freqbench RESULTS.json --domains 0-3,4-6,7 [--names a,b,c]\n"
    "                         [--cores A55,A77,X1] [--soc NAME] [--device TEXT]\n"
    "                         [--description TEXT] [-o OUT]\n"
    "       gearbox em import --debugfs DIR [--cpu-sysfs DIR] [--soc NAME] [-o OUT]\n"
    "       gearbox em import --dt FILE.dtb|FILE.dts [--soc NAME] [-o OUT]\n"
    "       gearbox em export (--dt | --debugfs-text | --debugfs-tree DIR) FILE [-o OUT]\n"
    "\n"
    "Energy models in the gearbox-em/1 format (docs/em-profile.md).  FILE is a path or the\n"
    "name of a shipped model (sm8250: em-profiles/sm8250.json in the working directory, else\n"
    "share/gearbox/em-profiles of the installation).\n"
    "  list      the shipped models that a name finds, with the file each name loads\n"
    "  validate  check files; power that does not rise with frequency is a warning\n"
    "            (an error with --strict); exit status 2 if any file is invalid\n"
    "  show      a table per perf domain: kHz, mW, perf, cost (as the kernel computes it),\n"
    "            inefficient OPPs marked; then the domain's transition latency and idle\n"
    "            states (per CPU and cluster: name, mW, entry and exit latency, residency)\n"
    "  diff      per-OPP power and performance differences of B against A, in %;\n"
    "            per domain, the idle states and transition latency where they differ;\n"
    "            with --fail-above PCT exit status 1 when a power or performance\n"
    "            difference is larger\n"
    "  fmt       print FILE in canonical form (what gearbox itself writes)\n"
    "  import    build a model from freqbench results, the kernel's EM debugfs tree\n"
    "            (/sys/kernel/debug/energy_model; pre-6.9 kernels have no performance\n"
    "            files: it is derived from --cpu-sysfs DIR/cpuN/cpu_capacity), or a device\n"
    "            tree (.dtb, or .dts through dtc): the model the kernel would build from it\n"
    "  export    a device tree that dtc compiles (/cpus, cpu-map, opp tables with\n"
    "            opp-microwatt, capacity-dmips-mhz), the debugfs files as text, or as a\n"
    "            directory tree\n"
    "Output goes to standard output unless -o OUT is given (docs/em-profile.md, 'Output\n"
    "files'): a regular file is replaced only when everything was written; a device or FIFO\n"
    "is written in place; a symbolic link only when it leads to one.  Exit status 1 when an\n"
    "output cannot be written (the message names the path and the reason).\n";

static int usage_error(const char *fmt, const char *arg)
{
	fprintf(stderr, "gearbox em: error: ");
	fprintf(stderr, fmt, arg);
	fprintf(stderr, "\n(see 'gearbox em --help')\n");
	return GB_EXIT_USAGE;
}

static void print_warnings(const char *path, const struct em_warnings *warn)
{
	int kept = (int)(sizeof(warn->msg) / sizeof(warn->msg[0]));

	for (int i = 0; i < warn->count && i < kept; i++)
		fprintf(stderr, "gearbox em: warning: %s: %s\n", path, warn->msg[i]);
	if (warn->count > kept)
		fprintf(stderr, "gearbox em: warning: %s: %d more warnings\n", path,
			warn->count - kept);
}

/* Loads the model arg names (a path, or a shipped model's name: em_catalog.h); on failure
 * prints every error of the file, one line each. */
static int load_or_report(const char *arg, struct em_profile *prof, bool strict)
{
	struct em_warnings warn;
	struct em_errors *errs;
	struct gb_err err;
	char path[4096];

	if (em_catalog_resolve(arg, path, sizeof(path), &err)) {
		fprintf(stderr, "gearbox em: error: %s\n", err.msg);
		return -1;
	}
	errs = malloc(sizeof(*errs));
	if (em_profile_check_file(path, prof, strict, &warn, errs, &err)) {
		if (!errs || errs->count == 0) /* not a content error: unreadable, too large */
			fprintf(stderr, "gearbox em: error: %s\n", err.msg);
		for (int i = 0; errs && i < errs->count && i < EM_ERRORS_KEPT; i++)
			fprintf(stderr, "gearbox em: error: %s\n", errs->msg[i]);
		if (errs && errs->count > EM_ERRORS_KEPT)
			fprintf(stderr, "gearbox em: error: %s: %d more errors\n", path,
				errs->count - EM_ERRORS_KEPT);
		free(errs);
		return -1;
	}
	free(errs);
	print_warnings(path, &warn);
	return 0;
}

static struct em_profile *alloc_profile(void)
{
	struct em_profile *p = calloc(1, sizeof(*p));

	if (!p)
		fprintf(stderr, "gearbox em: error: out of memory\n");
	return p;
}

static int em_validate(int argc, char **argv)
{
	static const struct option opts[] = {
	    {"strict", no_argument, NULL, 's'}, {"help", no_argument, NULL, 'h'}, {0}};
	struct em_profile *prof;
	bool strict = false;
	int c, bad = 0;

	while ((c = getopt_long(argc, argv, "sh", opts, NULL)) != -1) {
		if (c == 's')
			strict = true;
		else if (c == 'h')
			return fputs(em_usage, stdout), GB_EXIT_OK;
		else
			return GB_EXIT_USAGE;
	}
	if (optind >= argc)
		return usage_error("%svalidate needs at least one FILE", "");
	prof = alloc_profile();
	if (!prof)
		return GB_EXIT_FAIL;
	for (int i = optind; i < argc; i++) {
		if (load_or_report(argv[i], prof, strict)) {
			bad++;
			continue;
		}
		printf("%s: ok: %s, %u perf domains, %u CPUs\n", argv[i], prof->soc,
		       prof->model.nr_domains, prof->model.nr_cpus);
	}
	free(prof);
	return bad ? GB_EXIT_USAGE : GB_EXIT_OK;
}

static int em_import(int argc, char **argv)
{
	static const struct option opts[] = {{"freqbench", required_argument, NULL, 'f'},
					     {"debugfs", required_argument, NULL, 'd'},
					     {"dt", required_argument, NULL, 't'},
					     {"domains", required_argument, NULL, 'D'},
					     {"names", required_argument, NULL, 'n'},
					     {"soc", required_argument, NULL, 's'},
					     {"device", required_argument, NULL, 'v'},
					     {"cpu-sysfs", required_argument, NULL, 'c'},
					     {"output", required_argument, NULL, 'o'},
					     {"cores", required_argument, NULL, 'C'},
					     {"description", required_argument, NULL, 'e'},
					     {"help", no_argument, NULL, 'h'},
					     {0}};
	const char *fb = NULL, *dbg = NULL, *dt = NULL, *domains = NULL, *names = NULL, *soc = NULL;
	const char *device = NULL, *cpu_sysfs = NULL, *out = "-", *cores = NULL, *desc = NULL;
	struct em_profile *prof;
	struct em_warnings warn;
	struct gb_err err;
	int c, rc;

	while ((c = getopt_long(argc, argv, "o:h", opts, NULL)) != -1) {
		switch (c) {
		case 'f':
			fb = optarg;
			break;
		case 'd':
			dbg = optarg;
			break;
		case 't':
			dt = optarg;
			break;
		case 'D':
			domains = optarg;
			break;
		case 'n':
			names = optarg;
			break;
		case 's':
			soc = optarg;
			break;
		case 'v':
			device = optarg;
			break;
		case 'c':
			cpu_sysfs = optarg;
			break;
		case 'o':
			out = optarg;
			break;
		case 'C':
			cores = optarg;
			break;
		case 'e':
			desc = optarg;
			break;
		case 'h':
			fputs(em_usage, stdout);
			return GB_EXIT_OK;
		default:
			return GB_EXIT_USAGE;
		}
	}
	if (!!fb + !!dbg + !!dt != 1)
		return usage_error(
		    "%simport needs exactly one of --freqbench FILE, --debugfs DIR or "
		    "--dt FILE",
		    "");
	if (fb && !domains)
		return usage_error("%s--freqbench needs --domains (CPU lists, e.g. 0-3,4-6,7)", "");
	if (optind < argc)
		return usage_error("unexpected argument '%s'", argv[optind]);
	prof = alloc_profile();
	if (!prof)
		return GB_EXIT_FAIL;
	rc = fb	   ? em_import_freqbench(fb, domains, names, prof, &warn, &err)
	     : dbg ? em_import_debugfs(dbg, cpu_sysfs, prof, &warn, &err)
		   : em_import_dt(dt, prof, &warn, &err);
	if (rc) {
		fprintf(stderr, "gearbox em: error: %s\n", err.msg);
		free(prof);
		return GB_EXIT_USAGE;
	}
	print_warnings(fb ? fb : dbg ? dbg : dt, &warn);
	if (soc)
		snprintf(prof->soc, sizeof(prof->soc), "%s", soc);
	else if (fb) {
		const char *base = strrchr(fb, '/') ? strrchr(fb, '/') + 1 : fb;

		snprintf(prof->soc, sizeof(prof->soc), "%.*s", (int)strcspn(base, "."), base);
	}
	if (device)
		snprintf(prof->prov.device, sizeof(prof->prov.device), "%s", device);
	if (desc)
		snprintf(prof->description, sizeof(prof->description), "%s", desc);
	if (cores) {
		char buf[1024], *save = NULL, *tok = NULL;
		u32 d = 0;

		snprintf(buf, sizeof(buf), "%s", cores);
		for (tok = strtok_r(buf, ",", &save); tok && d < prof->model.nr_domains;
		     tok = strtok_r(NULL, ",", &save))
			snprintf(prof->core[d++], sizeof(prof->core[0]), "%s", tok);
		if (d != prof->model.nr_domains || tok) {
			fprintf(stderr,
				"gearbox em: error: --cores: need one core name per domain (%u)\n",
				prof->model.nr_domains);
			free(prof);
			return GB_EXIT_USAGE;
		}
	}
	snprintf(prof->prov.tool, sizeof(prof->prov.tool), "gearbox em import");
	rc = em_profile_save(prof, out, &err);
	if (rc)
		fprintf(stderr, "gearbox em: error: %s\n", err.msg);
	free(prof);
	return rc ? GB_EXIT_FAIL : GB_EXIT_OK;
}

static int em_export(int argc, char **argv)
{
	static const struct option opts[] = {{"dt", no_argument, NULL, 't'},
					     {"debugfs-text", no_argument, NULL, 'x'},
					     {"debugfs-tree", required_argument, NULL, 'r'},
					     {"output", required_argument, NULL, 'o'},
					     {"help", no_argument, NULL, 'h'},
					     {0}};
	const char *tree = NULL, *out = "-";
	struct em_profile *prof;
	struct gb_out of;
	struct gb_err err;
	int c, kind = 0, rc = 0;

	while ((c = getopt_long(argc, argv, "o:h", opts, NULL)) != -1) {
		switch (c) {
		case 't':
		case 'x':
			kind = c;
			break;
		case 'r':
			kind = c;
			tree = optarg;
			break;
		case 'o':
			out = optarg;
			break;
		case 'h':
			fputs(em_usage, stdout);
			return GB_EXIT_OK;
		default:
			return GB_EXIT_USAGE;
		}
	}
	if (!kind)
		return usage_error("%sexport needs --dt, --debugfs-text or --debugfs-tree DIR", "");
	if (optind + 1 != argc)
		return usage_error("%sexport needs exactly one FILE", "");
	prof = alloc_profile();
	if (!prof)
		return GB_EXIT_FAIL;
	if (load_or_report(argv[optind], prof, false)) {
		free(prof);
		return GB_EXIT_USAGE;
	}
	if (kind == 'r') {
		rc = em_export_debugfs_tree(prof, tree, &err);
	} else {
		rc = gb_out_open(&of, out, &err);
		if (!rc) {
			if (kind == 't')
				em_export_dt(prof, of.f);
			else
				em_export_debugfs_text(prof, of.f);
			rc = gb_out_commit(&of, &err);
		}
	}
	if (rc)
		fprintf(stderr, "gearbox em: error: %s\n", err.msg);
	free(prof);
	return rc ? GB_EXIT_FAIL : GB_EXIT_OK;
}

static int em_diff_cmd(int argc, char **argv)
{
	static const struct option opts[] = {
	    {"fail-above", required_argument, NULL, 'f'}, {"help", no_argument, NULL, 'h'}, {0}};
	struct em_profile *a, *b;
	struct em_diff_summary sum;
	double limit = -1;
	char *end;
	int c, rc = GB_EXIT_OK;

	while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		if (c == 'f') {
			limit = strtod(optarg, &end);
			if (*end || limit < 0)
				return usage_error("--fail-above: '%s' is not a percentage",
						   optarg);
		} else if (c == 'h') {
			return fputs(em_usage, stdout), GB_EXIT_OK;
		} else {
			return GB_EXIT_USAGE;
		}
	}
	if (optind + 2 != argc)
		return usage_error("%sdiff needs two files, A and B", "");
	a = alloc_profile();
	b = alloc_profile();
	if (!a || !b || load_or_report(argv[optind], a, false) ||
	    load_or_report(argv[optind + 1], b, false)) {
		free(a);
		free(b);
		return a && b ? GB_EXIT_USAGE : GB_EXIT_FAIL;
	}
	em_diff(a, b, stdout, &sum);
	if (limit >= 0 && (sum.max_power_pct > limit || sum.max_perf_pct > limit))
		rc = GB_EXIT_FAIL;
	free(a);
	free(b);
	return rc;
}

static int em_one_file(int argc, char **argv, bool show)
{
	struct em_profile *prof;

	if (argc == 2 && (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")))
		return fputs(em_usage, stdout), GB_EXIT_OK;
	if (argc != 2)
		return usage_error("%s needs exactly one FILE", argv[0]);
	prof = alloc_profile();
	if (!prof)
		return GB_EXIT_FAIL;
	if (load_or_report(argv[1], prof, false)) {
		free(prof);
		return GB_EXIT_USAGE;
	}
	if (show)
		em_show(prof, stdout);
	else
		em_profile_write(prof, stdout);
	free(prof);
	return GB_EXIT_OK;
}

/* *.json, not hidden: the files em list considers. */
static int is_model_file(const struct dirent *e)
{
	size_t n = strlen(e->d_name);

	return e->d_name[0] != '.' && n > 5 && !strcmp(e->d_name + n - 5, ".json");
}

/* Whether dirs[0..d) has NAME.json: then that one is what the name loads. */
static bool shadowed(char dirs[][4096], int d, const char *file)
{
	char path[8192];

	for (int e = 0; e < d; e++) {
		snprintf(path, sizeof(path), "%s/%s", dirs[e], file);
		if (access(path, F_OK) == 0)
			return true;
	}
	return false;
}

/* `em list`: every model a name finds, directory by directory in search order. */
static int em_list(int argc, char **argv)
{
	char dirs[EM_CATALOG_MAX_DIRS][4096], path[8192], looked[2048] = "";
	struct em_profile *prof;
	int nr_dirs, listed = 0, bad = 0;

	if (argc == 2 && (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")))
		return fputs(em_usage, stdout), GB_EXIT_OK;
	if (argc != 1)
		return usage_error("%slist takes no arguments", "");
	prof = alloc_profile();
	if (!prof)
		return GB_EXIT_FAIL;
	nr_dirs = em_catalog_dirs(dirs);
	for (int d = 0; d < nr_dirs; d++) {
		struct dirent **ents;
		int n = scandir(dirs[d], &ents, is_model_file, alphasort);

		snprintf(looked + strlen(looked), sizeof(looked) - strlen(looked), "%s%s",
			 d ? ", " : "", dirs[d]);
		for (int i = 0; i < n; i++) {
			const char *file = ents[i]->d_name;
			struct gb_err err;

			snprintf(path, sizeof(path), "%s/%s", dirs[d], file);
			if (shadowed(dirs, d, file)) {
				/* the name loads the earlier directory's model */
			} else if (em_profile_load_file(path, prof, false, NULL, &err)) {
				fprintf(stderr, "gearbox em: error: %s\n", err.msg);
				bad++;
			} else {
				if (!listed++)
					printf("%-12s %-12s %4s %7s  %-10s %s\n", "name", "soc",
					       "CPUs", "domains", "source", "file");
				printf("%-12.*s %-12s %4u %7u  %-10s %s\n", (int)strlen(file) - 5,
				       file, prof->soc, prof->model.nr_cpus, prof->model.nr_domains,
				       prof->prov.source, path);
			}
			free(ents[i]);
		}
		if (n >= 0)
			free(ents);
	}
	free(prof);
	if (!listed && !bad) {
		fprintf(stderr, "gearbox em: error: no models in %s\n", looked);
		return GB_EXIT_FAIL;
	}
	return bad ? GB_EXIT_FAIL : GB_EXIT_OK;
}

int cmd_em(int argc, char **argv)
{
	if (argc < 2) {
		fputs(em_usage, stderr);
		return GB_EXIT_USAGE;
	}
	if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")) {
		fputs(em_usage, stdout);
		return GB_EXIT_OK;
	}
	if (!strcmp(argv[1], "list"))
		return em_list(argc - 1, argv + 1);
	if (!strcmp(argv[1], "validate"))
		return em_validate(argc - 1, argv + 1);
	if (!strcmp(argv[1], "show"))
		return em_one_file(argc - 1, argv + 1, true);
	if (!strcmp(argv[1], "fmt"))
		return em_one_file(argc - 1, argv + 1, false);
	if (!strcmp(argv[1], "diff"))
		return em_diff_cmd(argc - 1, argv + 1);
	if (!strcmp(argv[1], "import"))
		return em_import(argc - 1, argv + 1);
	if (!strcmp(argv[1], "export"))
		return em_export(argc - 1, argv + 1);
	return usage_error("unknown em command '%s'", argv[1]);
}
