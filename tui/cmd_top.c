// SPDX-License-Identifier: GPL-2.0-only
/*
 * cmd_top.c - `gearbox top`: options, help, and the hand-over to the UI.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands.h"
#include "headless.h"
#include "source.h"
#include "ui.h"

static void usage(FILE *out)
{
	fprintf(
	    out,
	    "usage: gearbox top [--replay TRACE.ndjson [--speed X|max] [--paused]]\n"
	    "                   [--headless]\n"
	    "                   [--socket PATH [--record FILE]] [--refresh HZ] [--no-color]\n"
	    "\n"
	    "Live view of perf domains, OPPs, power and the scheduler's placement decisions,\n"
	    "from a gearbox-stream/1 trace (gearbox sim --trace) or scx_gearbox's socket.\n"
	    "\n"
	    "  --replay FILE   replay a trace at its own pace (times its t_us)\n"
	    "  --speed X       replay speed factor (default 1; 'max' = as fast as it reads)\n"
	    "  --paused        start a replay paused (space steps one sample)\n"
	    "  --socket PATH   connect to scx_gearbox (default %s); waits and\n"
	    "                  reconnects when the scheduler is not running or restarts\n"
	    "  --connect PATH  the same as --socket\n"
	    "  --headless      no screen: read until the stream ends (the scheduler closes\n"
	    "                  it, the replay's end, or SIGINT/SIGTERM), then print a summary\n"
	    "                  (domains, samples, decisions by reason); exit 0, or 1 when no\n"
	    "                  hello was seen\n"
	    "  --record FILE   live: also write every line received to FILE (a new file, or\n"
	    "                  a FIFO or device written in place; an existing file is never\n"
	    "                  replaced); --replay FILE shows the session again\n"
	    "  --refresh HZ    screen refresh rate, 0.5..32 (default 4)\n"
	    "  --no-color      monochrome even where the terminal has colours (or set NO_COLOR)\n"
	    "  -h, --help      this help\n"
	    "\n"
	    "keys: q quit, p pause, space step, +/- speed (replay) or refresh (live), [ ] "
	    "refresh,\n"
	    "      tab/1/2/3 views (Domains, Decisions, Tasks), / filter, esc clear, ? help,\n"
	    "      < > F6 U M D N I: sort the tasks (util, migrations, domain, name; reverse).\n"
	    "The terminal must be at least 80x24.  See docs/tui.md.\n",
	    SOURCE_DEFAULT_SOCKET);
}

static int parse_double(const char *s, double lo, double hi, double *out)
{
	char *end;

	errno = 0;
	double v = strtod(s, &end);
	if (errno || end == s || *end || !(v >= lo && v <= hi))
		return -EINVAL;
	*out = v;
	return 0;
}

int cmd_top(int argc, char **argv)
{
	static const struct option longopts[] = {
	    {"replay", required_argument, NULL, 'r'},
	    {"socket", required_argument, NULL, 's'},
	    {"connect", required_argument, NULL, 's'},
	    {"record", required_argument, NULL, 'w'},
	    {"headless", no_argument, NULL, 'H'},
	    {"speed", required_argument, NULL, 'S'},
	    {"paused", no_argument, NULL, 'P'},
	    {"refresh", required_argument, NULL, 'R'},
	    {"no-color", no_argument, NULL, 'C'},
	    {"help", no_argument, NULL, 'h'},
	    {NULL, 0, NULL, 0},
	};
	struct top_options o = {
	    .socket = SOURCE_DEFAULT_SOCKET, .speed = 1, .refresh_hz = 4, .color = true};
	struct gb_err err = {""};
	bool headless = false;
	int c;

	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
		switch (c) {
		case 'r':
			o.replay = optarg;
			break;
		case 's':
			o.socket = optarg;
			break;
		case 'w':
			o.record = optarg;
			break;
		case 'H':
			headless = true;
			break;
		case 'S':
			if (!strcmp(optarg, "max"))
				o.speed = SOURCE_SPEED_MAX;
			else if (parse_double(optarg, 1.0 / 64, 1024, &o.speed)) {
				fprintf(stderr,
					"gearbox top: error: --speed %s: expected a factor "
					"0.015625..1024 or 'max'\n",
					optarg);
				return GB_EXIT_USAGE;
			}
			break;
		case 'P':
			o.paused = true;
			break;
		case 'R':
			if (parse_double(optarg, 0.5, 32, &o.refresh_hz)) {
				fprintf(stderr,
					"gearbox top: error: --refresh %s: expected 0.5..32 Hz\n",
					optarg);
				return GB_EXIT_USAGE;
			}
			break;
		case 'C':
			o.color = false;
			break;
		case 'h':
			usage(stdout);
			return GB_EXIT_OK;
		default:
			fprintf(stderr, "gearbox top: error: unknown or incomplete option '%s'\n",
				argv[optind - 1]);
			usage(stderr);
			return GB_EXIT_USAGE;
		}
	}
	if (optind < argc) {
		fprintf(stderr, "gearbox top: error: unexpected argument '%s'\n", argv[optind]);
		return GB_EXIT_USAGE;
	}
	if (o.record && o.replay) {
		fprintf(stderr, "gearbox top: error: --record records a live stream; a --replay "
				"file is already a recording\n");
		return GB_EXIT_USAGE;
	}
	int ret = headless ? headless_run(&o, &err) : ui_run(&o, &err);
	if (ret < 0) {
		gb_report_error("gearbox top", &err);
		return ret == -ENOMEM ? GB_EXIT_FAIL : GB_EXIT_USAGE;
	}
	return ret;
}
