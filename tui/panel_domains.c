// SPDX-License-Identifier: GPL-2.0-only
/*
 * panel_domains.c - one block per perf domain.
 *
 * Full form, when every block fits: a title row (name, CPUs, current OPP in kHz and its perf,
 * requested perf, estimated power, over-utilized flag), a row with the model's idle costs when
 * the hello carried them (static power, each CPU and cluster idle state's power and exit
 * latency), and one bar per CPU with the running task.  Blocks are packed into as many columns as
 * the width allows (one per 80 columns), so a wide terminal shows more domains rather than longer
 * bars.
 *
 * Compact form, when they do not (a 64-domain, 256-CPU machine): one row per domain with a
 * one-cell level glyph per CPU, again in columns, scrolled with the arrow keys.
 */
#include <stdio.h>
#include <string.h>

#include "draw.h"
#include "reason.h"

#define FULL_COL_W    80
#define COMPACT_FIXED 60 /* compact row without the per-CPU cells */

static int block_rows(const struct top_model *m, int d)
{
	return 1 + m->topo.domains[d].has_idle + m->topo.domains[d].nr_cpus;
}

/* Columns used by a greedy in-order packing of the blocks into columns of height h. */
static int columns_needed(const struct top_model *m, int h)
{
	int cols = 1, used = 0;

	for (int d = 0; d < m->topo.nr_domains; d++) {
		int r = block_rows(m, d);
		if (r > h)
			return 1 << 20;
		if (used + r > h) {
			cols++;
			used = 0;
		}
		used += r;
	}
	return cols;
}

static int full_cols(int w)
{
	int c = w / FULL_COL_W;
	return c < 1 ? 1 : c;
}

static int full_rows(const struct top_model *m, int w)
{
	int total = 0, cols = full_cols(w);

	for (int d = 0; d < m->topo.nr_domains; d++)
		total += block_rows(m, d);
	for (int h = 1; h <= total; h++)
		if (columns_needed(m, h) <= cols)
			return h;
	return total;
}

static int compact_cols(const struct top_model *m, int w)
{
	int widest = 0;

	for (int d = 0; d < m->topo.nr_domains; d++)
		if (m->topo.domains[d].nr_cpus > widest)
			widest = m->topo.domains[d].nr_cpus;
	int cols = w / (COMPACT_FIXED + widest + 2);
	return cols < 1 ? 1 : cols;
}

int panel_domains_rows(const struct top_model *m, int w, int max_h)
{
	if (!m->have_hello)
		return 2;
	int full = full_rows(m, w);
	if (full <= max_h)
		return full;
	int cols = compact_cols(m, w);
	int compact = 1 + (m->topo.nr_domains + cols - 1) / cols; /* + the column titles */
	return compact < max_h ? compact : max_h;
}

static void domain_title(const struct top_view *v, const struct top_model *m, int d, int y, int x,
			 int w)
{
	const struct stream_domain_info *di = &m->topo.domains[d];
	const struct stream_domain_sample *ds = &m->dom[d];
	char pw[24];
	int n;

	fmt_power_uw(pw, sizeof(pw), ds->power_uw);
	draw_fill(y, x, w - 1, draw_attr(v, C_HEAD) | A_UNDERLINE);
	n = draw_text(y, x, w - 1, draw_attr(v, C_HEAD) | A_UNDERLINE,
		      "%-7s cpus %-7s OPP %u kHz perf %d  req %d  %s", di->name, m->cpulist[d],
		      ds->freq_khz, model_opp_perf(m, d, ds->freq_khz), ds->perf_target, pw);
	if (ds->overutilized)
		draw_text(y, x + n, w - 1 - n, draw_attr(v, C_FLAG) | A_UNDERLINE, "  OVERUTIL");
}

static void cpu_row(const struct top_view *v, const struct top_model *m, int d, int cpu, int y,
		    int x, int w)
{
	const struct stream_cpu_sample *c = &m->cpu[cpu];
	int cap = m->topo.domains[d].capacity;
	char label[16];
	int comm_w = w >= 60 ? 18 : 10;

	snprintf(label, sizeof(label), "%d", c->util);
	draw_text(y, x, w, A_NORMAL, "  cpu%-3d", cpu);
	draw_bar(v, y, x + 8, w - 8 - comm_w, c->util, cap > 0 ? cap : 1024, label);
	if (c->pid)
		draw_text(y, x + w - comm_w + 1, comm_w - 2, A_NORMAL, "%s", c->comm);
	else
		draw_text(y, x + w - comm_w + 1, comm_w - 2, draw_attr(v, C_DIM), "-");
}

static void draw_full(const struct top_view *v, const struct top_model *m, struct area a)
{
	int cols = full_cols(a.w), cw = a.w / cols, col = 0, row = 0;

	for (int d = 0; d < m->topo.nr_domains; d++) {
		int r = block_rows(m, d);
		if (row + r > a.h) {
			col++;
			row = 0;
		}
		if (col >= cols)
			return;
		int x = a.x + col * cw, y = a.y + row;
		domain_title(v, m, d, y, x, cw);
		if (m->topo.domains[d].has_idle) {
			char idle[256];

			fmt_domain_idle(idle, sizeof(idle), &m->topo.domains[d]);
			draw_text(++y, x, cw - 1, draw_attr(v, C_DIM), "  idle: %s", idle);
		}
		for (int j = 0; j < m->topo.domains[d].nr_cpus; j++)
			cpu_row(v, m, d, m->topo.domains[d].cpus[j], y + 1 + j, x, cw - 1);
		row += r;
	}
}

static void compact_row(const struct top_view *v, const struct top_model *m, int d, int y, int x,
			int w)
{
	const struct stream_domain_info *di = &m->topo.domains[d];
	const struct stream_domain_sample *ds = &m->dom[d];
	char pw[24];
	int n;

	fmt_power_uw(pw, sizeof(pw), ds->power_uw);
	n = draw_text(y, x, w, A_NORMAL, "%-7s %-8s %7u kHz %4d %4d %9s ", di->name, m->cpulist[d],
		      ds->freq_khz, model_opp_perf(m, d, ds->freq_khz), ds->perf_target, pw);
	n += draw_text(y, x + n, w - n, draw_attr(v, C_FLAG), "%s", ds->overutilized ? "OU" : "  ");
	n += draw_text(y, x + n, w - n, A_NORMAL, " |");
	for (int j = 0; j < di->nr_cpus && n < w - 1; j++, n++)
		draw_level(v, y, x + n, m->cpu[di->cpus[j]].util, di->capacity);
	if (n < w)
		draw_text(y, x + n, w - n, A_NORMAL, "|");
}

static void draw_compact(const struct top_view *v, const struct top_model *m, struct area a,
			 int scroll)
{
	int cols = compact_cols(m, a.w), cw = a.w / cols;
	for (int c = 0; c < cols; c++)
		draw_text(a.y, a.x + c * cw, cw - 1, draw_attr(v, C_HEAD) | A_UNDERLINE,
			  "%-7s %-8s %11s %4s %4s %9s OU  util/CPU", "DOMAIN", "CPUS", "OPP",
			  "PERF", "REQ", "POWER");
	a.y++;
	a.h--;
	if (a.h <= 0)
		return;
	int per_col = a.h, shown = per_col * cols;
	int nd = m->topo.nr_domains;
	bool more = scroll + shown < nd;

	if (more && shown > 1)
		shown--; /* the last cell says how many are below */
	for (int i = 0; i < shown && scroll + i < nd; i++) {
		int col = i / per_col, row = i % per_col;
		compact_row(v, m, scroll + i, a.y + row, a.x + col * cw, cw - 1);
	}
	if (more) {
		int i = shown, col = i / per_col, row = i % per_col;
		draw_text(a.y + row, a.x + col * cw, cw - 1, draw_attr(v, C_DIM),
			  "... %d more domains (up/down scrolls)", nd - scroll - shown);
	}
}

void panel_domains_draw(const struct top_view *v, const struct top_model *m, struct area a,
			int scroll)
{
	if (a.h <= 0)
		return;
	if (!m->have_hello) {
		/* The whole status, which the header may have had to clip: it says what is wrong.
		 */
		draw_text(a.y, a.x, a.w, draw_attr(v, C_DIM), "%s", v->src->status);
		draw_text(a.y + 1, a.x, a.w, draw_attr(v, C_DIM),
			  "waiting for the stream's hello...");
		return;
	}
	if (full_rows(m, a.w) <= a.h)
		draw_full(v, m, a);
	else
		draw_compact(v, m, a, scroll);
}
