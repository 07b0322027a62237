/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * draw.h - the drawing interface every panel shares (htop's Meter/Panel idea, in C): a panel
 * is a function that draws the model into a rectangle of stdscr and nothing else.  Panels
 * read the model and the view state and never change either; ui.c owns both.
 *
 * Colour is an addition, never the only carrier of meaning: every coloured element also has a
 * text form (a flag word, a sign, a bar length), so the screen reads the same in monochrome.
 */
#ifndef GEARBOX_TUI_DRAW_H
#define GEARBOX_TUI_DRAW_H

#include <curses.h>
#include <stdbool.h>
#include <stdint.h>

#include "model.h"
#include "source.h"

enum top_view_id { VIEW_DOMAINS, VIEW_DECISIONS, VIEW_TASKS, VIEW_COUNT };

#define TOP_FILTER_LEN 48

struct top_view {
	enum top_view_id view;
	bool help;
	bool editing; /* typing a filter after '/' */
	char filter[TOP_FILTER_LEN];
	char edit[TOP_FILTER_LEN];
	int scroll[VIEW_COUNT]; /* first row shown, per view */
	bool color;
	bool utf8;
	double refresh_hz;
	bool frozen;	      /* live source paused: screen not updated */
	enum model_sort sort; /* the task view's order */
	bool sort_reverse;
	const struct top_source *src;
	int64_t now_us;
};

struct area {
	int y, x, h, w;
};

enum top_color {
	C_NORMAL,
	C_TITLE,
	C_HEAD,
	C_BAR_LOW,
	C_BAR_MID,
	C_BAR_HIGH,
	C_ERROR,
	C_FLAG,
	C_KEY,
	C_DIM,
	C_SAVE,
	C_COST,
	C_NR
};

/* Sets up colour pairs when the terminal has them (and NO_COLOR is not set). */
bool draw_init_colors(bool want);

/* The attribute for an element: its colour when colours are on, else the monochrome form. */
attr_t draw_attr(const struct top_view *v, enum top_color c);

/* Prints at (y, x), clipped to w columns; returns the columns used. */
int draw_text(int y, int x, int w, attr_t attr, const char *fmt, ...)
    __attribute__((format(printf, 5, 6)));

/* Blank-fills w columns at (y, x) with attr (for title bars). */
void draw_fill(int y, int x, int w, attr_t attr);

/* htop-style bar "[|||||      612]": value out of max, label inside at the right end. */
void draw_bar(const struct top_view *v, int y, int x, int w, int value, int max, const char *label);

/* One-cell level glyph for value/max (compact bars): " ._-=+*#@" or Unicode eighths. */
void draw_level(const struct top_view *v, int y, int x, int value, int max);

/* The panels. */
void panel_header_draw(const struct top_view *v, const struct top_model *m, struct area a);
/* Rows the domains panel wants at width w given at most max_h (full form if it fits). */
int panel_domains_rows(const struct top_model *m, int w, int max_h);
void panel_domains_draw(const struct top_view *v, const struct top_model *m, struct area a,
			int scroll);
int panel_decisions_draw(const struct top_view *v, const struct top_model *m, struct area a,
			 int scroll, bool full);
int panel_tasks_draw(const struct top_view *v, const struct top_model *m, struct area a,
		     int scroll);
void panel_help_draw(const struct top_view *v, struct area a);
void panel_status_draw(const struct top_view *v, const struct top_model *m, struct area a);

#endif
