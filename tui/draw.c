// SPDX-License-Identifier: GPL-2.0-only
/*
 * draw.c - colours, clipped text and bars shared by the panels.
 */
#include "draw.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

bool draw_init_colors(bool want)
{
	if (!want || getenv("NO_COLOR") || !has_colors())
		return false;
	if (start_color() == ERR)
		return false;
	use_default_colors();
	init_pair(C_TITLE, COLOR_BLACK, COLOR_CYAN);
	init_pair(C_HEAD, COLOR_CYAN, -1);
	init_pair(C_BAR_LOW, COLOR_GREEN, -1);
	init_pair(C_BAR_MID, COLOR_YELLOW, -1);
	init_pair(C_BAR_HIGH, COLOR_RED, -1);
	init_pair(C_ERROR, COLOR_WHITE, COLOR_RED);
	init_pair(C_FLAG, COLOR_RED, -1);
	init_pair(C_KEY, COLOR_BLACK, COLOR_CYAN);
	init_pair(C_DIM, COLOR_BLUE, -1);
	init_pair(C_SAVE, COLOR_GREEN, -1);
	init_pair(C_COST, COLOR_RED, -1);
	return true;
}

attr_t draw_attr(const struct top_view *v, enum top_color c)
{
	static const attr_t mono[C_NR] = {
	    [C_TITLE] = A_REVERSE, [C_HEAD] = A_BOLD,	[C_ERROR] = A_REVERSE | A_BOLD,
	    [C_FLAG] = A_BOLD,	   [C_KEY] = A_REVERSE, [C_BAR_HIGH] = A_BOLD,
	};

	if (c == C_NORMAL)
		return A_NORMAL;
	if (!v->color)
		return mono[c];
	attr_t a = COLOR_PAIR(c);
	if (c == C_HEAD || c == C_FLAG || c == C_ERROR)
		a |= A_BOLD;
	return a;
}

int draw_text(int y, int x, int w, attr_t attr, const char *fmt, ...)
{
	char buf[512];
	va_list ap;

	if (w <= 0)
		return 0;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	int n = (int)strlen(buf);
	if (n > w)
		n = w;
	attrset(attr);
	mvaddnstr(y, x, buf, n);
	attrset(A_NORMAL);
	return n;
}

void draw_fill(int y, int x, int w, attr_t attr)
{
	attrset(attr);
	mvhline(y, x, ' ', w);
	attrset(A_NORMAL);
}

static enum top_color level_color(int value, int max)
{
	if (value * 100 >= max * 80)
		return C_BAR_HIGH;
	if (value * 100 >= max * 50)
		return C_BAR_MID;
	return C_BAR_LOW;
}

void draw_bar(const struct top_view *v, int y, int x, int w, int value, int max, const char *label)
{
	int inner = w - 2, lab = (int)strlen(label);

	if (inner < 1)
		return;
	if (max <= 0)
		max = 1;
	if (value > max)
		value = max;
	int fill = (int)(((long)value * inner + max / 2) / max);
	if (value > 0 && fill == 0)
		fill = 1; /* a busy CPU never looks idle */
	mvaddch(y, x, '[');
	attr_t a = draw_attr(v, level_color(value, max));
	for (int i = 0; i < inner; i++) {
		int li = i - (inner - lab);
		char ch = li >= 0 ? label[li] : (i < fill ? '|' : ' ');
		attrset(li >= 0 ? A_NORMAL : a);
		mvaddch(y, x + 1 + i, (chtype)(unsigned char)ch);
	}
	attrset(A_NORMAL);
	mvaddch(y, x + w - 1, ']');
}

void draw_level(const struct top_view *v, int y, int x, int value, int max)
{
	static const char ascii[] = " ._-=+*#@";
	static const char *const blocks[] = {" ",      "\u2581", "\u2582", "\u2583", "\u2584",
					     "\u2585", "\u2586", "\u2587", "\u2588"};
	if (max <= 0)
		max = 1;
	if (value > max)
		value = max;
	int lvl = (int)(((long)value * 8 + max - 1) / max); /* 1..8 for any util > 0 */
	attrset(draw_attr(v, level_color(value, max)));
	if (v->utf8)
		mvaddstr(y, x, blocks[lvl]);
	else
		mvaddch(y, x, (chtype)ascii[lvl]);
	attrset(A_NORMAL);
}
