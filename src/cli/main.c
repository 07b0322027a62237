// SPDX-License-Identifier: GPL-2.0-only
/*
 * main.c - the `gearbox` entry point: dispatches to the subcommands that this build has.
 * Which ones exist is decided by meson (GB_HAVE_CMD_*), so `gearbox --help` lists exactly what
 * works.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "commands.h"

struct subcommand {
	const char *name;
	int (*run)(int argc, char **argv);
	const char *summary;
};

static const struct subcommand subcommands[] = {
    {"em", cmd_em, "validate, show, compare, import and export energy models"},
#ifdef GB_HAVE_CMD_PROFILE
    {"profile", cmd_profile, "measure per-OPP power and capacity and write an energy model"},
#endif
#ifdef GB_HAVE_CMD_SIM
    {"sim", cmd_sim, "run workloads on a modeled SoC under gearbox and reference policies"},
#endif
#ifdef GB_HAVE_CMD_TOP
    {"top", cmd_top, "live view of domains, OPPs and placement decisions"},
#endif
#ifdef GB_HAVE_CMD_CHECK
    {"check", cmd_check, "conformance checks for a sched_ext scheduler"},
#endif
};

static void usage(FILE *out)
{
	fprintf(out, "usage: gearbox COMMAND [ARGS]\n\n"
		     "Energy-aware scheduling toolkit for heterogeneous CPUs.\n\ncommands:\n");
	for (size_t i = 0; i < sizeof(subcommands) / sizeof(subcommands[0]); i++)
		fprintf(out, "  %-9s %s\n", subcommands[i].name, subcommands[i].summary);
	fprintf(out, "\n'gearbox COMMAND --help' describes each command. Options:\n"
		     "  -h, --help     this help\n  -V, --version  print the version\n");
}

/* What a command printed to standard output (a report, `em show`, `check --json`) is only
 * out once the stream is flushed and closed: a full disk or a closed pipe there is a failure
 * (exit 1) with the reason, not a silent success. */
static int close_stdout(int status)
{
	errno = 0;
	if (fclose(stdout) == 0)
		return status;
	fprintf(stderr, "gearbox: error: standard output: %s\n",
		errno ? strerror(errno) : "write error");
	return status == GB_EXIT_OK ? GB_EXIT_FAIL : status;
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		usage(stderr);
		return GB_EXIT_USAGE;
	}
	if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help") || !strcmp(argv[1], "help")) {
		usage(stdout);
		return close_stdout(GB_EXIT_OK);
	}
	if (!strcmp(argv[1], "-V") || !strcmp(argv[1], "--version")) {
		printf("gearbox %s\n", GEARBOX_VERSION);
		return close_stdout(GB_EXIT_OK);
	}
	for (size_t i = 0; i < sizeof(subcommands) / sizeof(subcommands[0]); i++)
		if (!strcmp(argv[1], subcommands[i].name))
			return close_stdout(subcommands[i].run(argc - 1, argv + 1));
	fprintf(stderr, "gearbox: error: unknown command '%s' (see 'gearbox --help')\n", argv[1]);
	return GB_EXIT_USAGE;
}
