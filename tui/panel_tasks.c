// SPDX-License-Identifier: GPL-2.0-only
/*
 * panel_tasks.c - the task view: pid, comm, util (with a bar when there is room), uclamp range,
 * CPU, domain, migrations, sorted by the view's key (util by default; '<' '>' and the letter
 * keys of ui.c change it).  The '/' filter applies to comm and pid.
 */
#include <stdio.h>
#include <string.h>

#include "draw.h"

static bool task_matches(const struct stream_task *t, const char *filter)
{
	char pid[16];

	if (!filter[0])
		return true;
	snprintf(pid, sizeof(pid), "%d", t->pid);
	return strcasestr(t->comm, filter) || !strcmp(pid, filter);
}

int panel_tasks_draw(const struct top_view *v, const struct top_model *m, struct area a, int scroll)
{
	int order[MODEL_MAX_TASKS];
	int n = model_tasks_sorted(m, v->sort, v->sort_reverse, order, MODEL_MAX_TASKS);
	int shown = 0, matching = 0;
	int bar_w = a.w - 72;

	if (a.h <= 0)
		return 0;
	draw_fill(a.y, a.x, a.w, draw_attr(v, C_TITLE));
	draw_text(a.y, a.x, a.w, draw_attr(v, C_TITLE), " Tasks by %s%s  %d%s%s%s",
		  model_sort_name(v->sort), v->sort_reverse ? " (reversed)" : "", n,
		  m->tasks_from_sample ? "" : " (from decisions: the stream has no tasks[])",
		  v->filter[0] ? "  filter: " : "", v->filter);
	if (a.h < 2)
		return 0;
	draw_text(a.y + 1, a.x, a.w, draw_attr(v, C_HEAD), "%7s %-16s %5s %-11s %4s %-8s %5s  %s",
		  "PID", "COMM", "UTIL", "UCLAMP", "CPU", "DOMAIN", "MIGR",
		  bar_w >= 10 ? "UTIL/1024" : "");
	for (int i = 0; i < n; i++) {
		const struct model_task *mt = &m->tasks[order[i]];
		const struct stream_task *t = &mt->t;
		char uc[24], cpu[8];

		if (!task_matches(t, v->filter))
			continue;
		if (matching++ < scroll || shown >= a.h - 2)
			continue;
		snprintf(uc, sizeof(uc), "%d-%d", t->uclamp_min, t->uclamp_max);
		if (t->cpu >= 0)
			snprintf(cpu, sizeof(cpu), "%d", t->cpu);
		else
			snprintf(cpu, sizeof(cpu), "-");
		int y = a.y + 2 + shown++;
		draw_text(y, a.x, a.w, mt->running ? A_BOLD : A_NORMAL,
			  "%7d %-16s %5d %-11s %4s %-8s %5d", t->pid, t->comm, t->util, uc, cpu,
			  model_domain_name(m, model_cpu_domain(m, t->cpu)), t->migrations);
		if (bar_w >= 10) {
			char label[8];
			snprintf(label, sizeof(label), "%d", t->util);
			draw_bar(v, y, a.x + 70, bar_w, t->util, 1024, label);
		}
	}
	if (!matching)
		draw_text(a.y + 2, a.x, a.w, draw_attr(v, C_DIM), "  (no tasks%s)",
			  v->filter[0] ? " match the filter" : " yet");
	return matching;
}
