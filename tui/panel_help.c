// SPDX-License-Identifier: GPL-2.0-only
/*
 * panel_help.c - the '?' overlay: every key, in a box over the current view.
 */
#include "draw.h"

static const char *const help_lines[] = {
    "gearbox top - keys",
    "",
    "  q, F10        quit",
    "  p             pause / resume (replay: the clock; live: the screen)",
    "  space         step to the next sample (replay; pauses)",
    "  + / -         replay: speed x2 / /2   live: refresh rate up / down",
    "  ] / [         refresh rate up / down",
    "  tab, 1 2 3    next view / Domains, Decisions, Tasks",
    "  /, F3, F4     filter decisions (task, pid, reason) and tasks",
    "  esc           clear the filter",
    "  < > F6        tasks: sort by the previous / next column",
    "  U M D N  I    tasks: sort by util, migrations, domain, name; I reverses",
    "  up down pgup pgdn home   scroll the view",
    "  ?, h, F1      this help (any key closes it)",
    "",
    "Reasons: capacity misfit, power misfit, cheaper OPP, over-utilized,",
    "idle pull, affinity, new task, load balance (docs/tui.md).",
};

void panel_help_draw(const struct top_view *v, struct area a)
{
	int n = (int)(sizeof(help_lines) / sizeof(help_lines[0]));
	int w = 74 < a.w ? 74 : a.w, h = n + 2 < a.h ? n + 2 : a.h;
	int x = a.x + (a.w - w) / 2, y = a.y + (a.h - h) / 2;

	for (int i = 0; i < h; i++)
		draw_fill(y + i, x, w, A_NORMAL);
	attrset(draw_attr(v, C_HEAD));
	mvhline(y, x, ACS_HLINE, w);
	mvhline(y + h - 1, x, ACS_HLINE, w);
	mvvline(y, x, ACS_VLINE, h);
	mvvline(y, x + w - 1, ACS_VLINE, h);
	mvaddch(y, x, ACS_ULCORNER);
	mvaddch(y, x + w - 1, ACS_URCORNER);
	mvaddch(y + h - 1, x, ACS_LLCORNER);
	mvaddch(y + h - 1, x + w - 1, ACS_LRCORNER);
	attrset(A_NORMAL);
	for (int i = 0; i < n && i < h - 2; i++)
		draw_text(y + 1 + i, x + 2, w - 4, i ? A_NORMAL : draw_attr(v, C_HEAD), "%s",
			  help_lines[i]);
}
