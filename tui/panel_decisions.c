// SPDX-License-Identifier: GPL-2.0-only
/*
 * panel_decisions.c - the decision log, newest first: time, task, from -> to, power delta and
 * the reason in words.  The reason goes last because it is the one column whose length
 * varies; a narrow terminal clips it rather than pushing the numbers around.
 */
#include <stdio.h>
#include <string.h>

#include "draw.h"
#include "reason.h"

/* From 120 columns on, the move names the domains too; below, the reason does that. */
#define WIDE 120

static int move_w(const struct top_model *m, int w)
{
	int longest = 1;

	if (w < WIDE)
		return 10;
	for (int i = 0; i < m->topo.nr_domains; i++) {
		int n = (int)strlen(m->topo.domains[i].name);
		longest = n > longest ? n : longest;
	}
	return 2 * longest + 18;
}

static void decision_row(const struct top_view *v, const struct top_model *m,
			 const struct stream_decision *d, int y, int x, int w)
{
	char t[24], task[40], move[64], delta[24], why[128];
	int n = 0;

	fmt_time_us(t, sizeof(t), d->t_us);
	snprintf(task, sizeof(task), "%s/%d", d->comm, d->pid);
	if (w >= WIDE)
		reason_move(m, d, move, sizeof(move));
	else if (d->from < 0)
		snprintf(move, sizeof(move), "new->cpu%d", d->to);
	else
		snprintf(move, sizeof(move), "cpu%d->cpu%d", d->from, d->to);
	fmt_power_uw(delta, sizeof(delta), d->power_delta_uw);
	reason_describe(m, d, why, sizeof(why));

	int tw = w < 100 ? 12 : 14;
	n += draw_text(y, x + n, w - n, A_NORMAL, "%8s %-*.*s %-*s ", t, tw, tw, task, move_w(m, w),
		       move);
	enum top_color dc = d->power_delta_uw < 0   ? C_SAVE
			    : d->power_delta_uw > 0 ? C_COST
						    : C_NORMAL;
	n += draw_text(y, x + n, w - n, draw_attr(v, dc), "%9s", delta);
	draw_text(y, x + n, w - n, A_NORMAL, "  %s", why);
}

int panel_decisions_draw(const struct top_view *v, const struct top_model *m, struct area a,
			 int scroll, bool full)
{
	uint64_t held = m->nr_decisions < MODEL_LOG_LEN ? m->nr_decisions : MODEL_LOG_LEN;
	int rows = a.h - (full ? 2 : 1), shown = 0, matching = 0;

	if (a.h <= 0)
		return 0;
	for (uint64_t i = 0; i < held; i++) {
		const struct stream_decision *d = model_decision(m, i);
		if (!reason_matches(m, d, v->filter))
			continue;
		if (matching++ < scroll || shown >= rows)
			continue;
		decision_row(v, m, d, a.y + (full ? 2 : 1) + shown, a.x, a.w);
		shown++;
	}

	char title[160];
	if (v->filter[0])
		snprintf(title, sizeof(title),
			 " Decisions, newest first  filter \"%s\": %d of %llu", v->filter, matching,
			 (unsigned long long)held);
	else
		snprintf(title, sizeof(title), " Decisions, newest first  %llu",
			 (unsigned long long)held);
	draw_fill(a.y, a.x, a.w, draw_attr(v, C_TITLE));
	draw_text(a.y, a.x, a.w, draw_attr(v, C_TITLE), "%s%s", title,
		  m->nr_decisions > held ? " (older ones dropped)" : "");
	if (full && a.h > 1)
		draw_text(a.y + 1, a.x, a.w, draw_attr(v, C_HEAD), "%8s %-*s %-*s %9s  %s", "TIME",
			  a.w < 100 ? 12 : 14, "TASK", move_w(m, a.w), "FROM->TO", "POWER",
			  "REASON");
	if (!matching && rows > 0)
		draw_text(a.y + (full ? 2 : 1), a.x, a.w, draw_attr(v, C_DIM), "%s",
			  v->filter[0] ? "  (no decision matches the filter)"
				       : "  (no decisions yet)");
	return matching;
}
