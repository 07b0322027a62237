/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * em_stream.h - the model's part of a gearbox-stream/1 `hello` (docs/stream.md): the
 * "domains" array with CPUs, capacity, OPPs and, when the model has them, idle states, static
 * power and transition latency.  One writer for both producers (scx_gearbox and gearbox sim),
 * so that their hellos cannot drift apart.
 */
#ifndef GEARBOX_EM_STREAM_H
#define GEARBOX_EM_STREAM_H

#include <stddef.h>
#include <stdio.h>

#include "em_profile.h"

/* s as a JSON string, at most max bytes of it; quotes, backslashes and bytes outside printable
 * ASCII escaped. */
void em_stream_put_str(FILE *f, const char *s, size_t max);

/* `"domains":[...]` of the hello for prof's model. */
void em_stream_put_domains(FILE *f, const struct em_profile *prof);

#endif
