/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * ui.h - the `gearbox top` screen: ncurses set-up and teardown, the event loop, the keys.
 */
#ifndef GEARBOX_TUI_UI_H
#define GEARBOX_TUI_UI_H

#include <stdbool.h>

#include "gb_err.h"

struct top_options {
	const char *replay; /* trace file, or NULL for the socket */
	const char *socket;
	const char *record; /* --record FILE: the live stream as received, or NULL */
	double speed;	    /* replay speed factor; 0 = as fast as it reads */
	bool paused;
	double refresh_hz;
	bool color;
};

#define TOP_MIN_COLS 80
#define TOP_MIN_ROWS 24

/*
 * Runs until q or a signal.  Returns 0 on q, 128 + signal number on SIGINT/SIGTERM/SIGHUP,
 * or a negative errno with err set when the screen or the source could not be set up.  The
 * terminal is restored on every one of these paths.
 */
int ui_run(const struct top_options *o, struct gb_err *err);

#endif
