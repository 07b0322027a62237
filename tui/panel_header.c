// SPDX-License-Identifier: GPL-2.0-only
/*
 * panel_header.c - the two header rows: what is being watched (SoC, policy, source, trace
 * time, replay speed) and the totals (power now, energy so far), plus the view tabs.
 */
#include <stdio.h>
#include <string.h>

#include "draw.h"
#include "reason.h"

static const char *const view_names[VIEW_COUNT] = {"Domains", "Decisions", "Tasks"};

static void speed_words(const struct top_view *v, char *buf, size_t len)
{
	const struct top_source *s = v->src;

	if (s->kind != SOURCE_REPLAY) {
		snprintf(buf, len, "%s", v->frozen ? "FROZEN" : "");
		return;
	}
	if (s->eof)
		snprintf(buf, len, "END");
	else if (s->paused)
		snprintf(buf, len, "PAUSED");
	else if (s->speed == SOURCE_SPEED_MAX)
		snprintf(buf, len, "speed max");
	else
		snprintf(buf, len, "speed x%g", s->speed);
}

void panel_header_draw(const struct top_view *v, const struct top_model *m, struct area a)
{
	char t[24], sp[24], pw[24], en[24];
	int x;

	const struct stream_hello *h = &m->topo;
	/* At the end of a replay the clock stops at the last record: nothing happens after it. */
	int64_t clock = v->src->kind == SOURCE_REPLAY && !v->src->eof
			    ? source_clock_us(v->src, v->now_us)
			    : m->t_us;
	if (clock < m->t_us)
		clock = m->t_us;
	fmt_time_us(t, sizeof(t), clock);
	speed_words(v, sp, sizeof(sp));
	/* The clock and replay state are what changes: they keep the right edge, the rest clips. */
	char right[64];
	snprintf(right, sizeof(right), " t %s %s ", t, sp);
	int rw = (int)strlen(right);
	attr_t ta = draw_attr(v, C_TITLE);
	draw_fill(a.y, a.x, a.w, ta);
	if (m->have_hello)
		draw_text(a.y, a.x, a.w - rw, ta, " gearbox top | %s | policy %s | %s", h->soc,
			  h->policy, v->src->status);
	else
		draw_text(a.y, a.x, a.w - rw, ta, " gearbox top | %s", v->src->status);
	draw_text(a.y, a.x + a.w - rw, rw, ta | A_BOLD, "%s", right);
	if (a.h < 2)
		return;

	fmt_power_uw(pw, sizeof(pw), (int64_t)model_total_power_uw(m));
	fmt_energy_uj(en, sizeof(en), m->energy_uj);
	x = a.x;
	x += draw_text(a.y + 1, x, a.w, draw_attr(v, C_HEAD), " power %s  energy %s", pw, en);
	x += draw_text(a.y + 1, x, a.x + a.w - x, A_NORMAL, "  %d domains %d CPUs  decisions %llu",
		       h->nr_domains, h->nr_cpus, (unsigned long long)m->nr_decisions);
	/* The tabs go at the right edge when they fit, so the totals never move. */
	int tabs_w = 0;
	for (int i = 0; i < VIEW_COUNT; i++)
		tabs_w += (int)strlen(view_names[i]) + 3;
	int tx = a.x + a.w - tabs_w;
	if (tx < x + 2)
		return;
	for (int i = 0; i < VIEW_COUNT; i++) {
		bool cur = (int)v->view == i;
		tx += draw_text(a.y + 1, tx, a.x + a.w - tx, cur ? draw_attr(v, C_KEY) : A_NORMAL,
				cur ? "[%s]" : " %s ", view_names[i]);
		tx += draw_text(a.y + 1, tx, a.x + a.w - tx, A_NORMAL, " ");
	}
}
