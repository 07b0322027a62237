// SPDX-License-Identifier: GPL-2.0-only
/*
 * panel_status.c - the bottom two rows: the stream's last error (or the filter being typed),
 * then the key bar.  The error row is sticky and counts the errors so far, so a truncated trace
 * keeps saying so while the screen keeps its last good picture.
 */
#include <stdio.h>
#include <string.h>

#include "draw.h"

static const char *const keys[][2] = {
    {"?", "Help"},   {"p", "Pause"},  {"spc", "Step"}, {"+-", "Speed"},
    {"tab", "View"}, {"/", "Filter"}, {"q", "Quit"},
};

void panel_status_draw(const struct top_view *v, const struct top_model *m, struct area a)
{
	int y = a.y;

	if (a.h >= 2) {
		if (v->editing) {
			draw_text(y, a.x, a.w, draw_attr(v, C_HEAD),
				  " filter: %s_  (enter: apply, esc: clear)", v->edit);
		} else if (m->last_error[0]) {
			draw_fill(y, a.x, a.w, draw_attr(v, C_ERROR));
			draw_text(y, a.x, a.w, draw_attr(v, C_ERROR), " stream error (%llu): %s",
				  (unsigned long long)m->nr_errors, m->last_error);
		} else if (v->src && v->src->record_errno) {
			draw_fill(y, a.x, a.w, draw_attr(v, C_ERROR));
			draw_text(y, a.x, a.w, draw_attr(v, C_ERROR),
				  " recording stopped after %llu lines: %s: %s",
				  (unsigned long long)v->src->recorded_lines, v->src->record_path,
				  strerror(v->src->record_errno));
		} else {
			int used = draw_text(y, a.x, a.w, draw_attr(v, C_DIM),
					     " %llu records, refresh %g Hz%s",
					     (unsigned long long)m->nr_records, v->refresh_hz,
					     v->filter[0] ? "  (filtered)" : "");
			if (v->src && v->src->record_fd >= 0)
				draw_text(y, a.x + used, a.w - used, draw_attr(v, C_DIM),
					  ", recording %llu lines to %s",
					  (unsigned long long)v->src->recorded_lines,
					  v->src->record_path);
		}
		y++;
	}
	int x = a.x;
	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]) && x < a.x + a.w; i++) {
		x += draw_text(y, x, a.x + a.w - x, A_BOLD, "%s", keys[i][0]);
		x += draw_text(y, x, a.x + a.w - x, draw_attr(v, C_KEY), "%-7s", keys[i][1]);
		x += draw_text(y, x, a.x + a.w - x, A_NORMAL, " ");
	}
}
