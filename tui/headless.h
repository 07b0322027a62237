/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * headless.h - `gearbox top --headless`: the stream without a screen, then a summary.
 */
#ifndef GEARBOX_TUI_HEADLESS_H
#define GEARBOX_TUI_HEADLESS_H

#include "gb_err.h"
#include "ui.h"

/*
 * Reads o's source until it ends (the socket closed after a connection, a replay's end) or a
 * signal, recording to o->record if set, then prints a summary on stdout: the topology, the
 * samples and decisions by reason, stream errors, lines recorded.  Returns 0 when a hello was
 * seen, 1 when none was, 128 + signal when stopped by SIGINT/SIGTERM/SIGHUP, or a negative
 * errno with err set when the source or the recording could not be opened.
 */
int headless_run(const struct top_options *o, struct gb_err *err);

#endif
