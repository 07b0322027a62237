// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_panels.c - every panel drawn into every size from 1x1 to 300x100 (curses writing to
 * /dev/null), with a small and a 64-domain model, long names, a full decision log and a
 * filter: under ASan/UBSan this proves the layout arithmetic never writes outside its
 * rectangle's buffers or divides by zero, whatever the terminal size.  What the panels show
 * is checked by the tmux test; this one checks that they cannot crash.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "draw.h"
#include "tap.h"

static struct top_model *m;
static struct stream_rec *rec;
static bool have_term;

static void feed(const char *line)
{
	model_ingest_line(m, rec, 1, line, strlen(line));
}

/* nd domains of per CPUs each, names at the 31-character limit, one sample, many decisions. */
static void build(int nd, int per)
{
	static char buf[1 << 18];
	int n = 0;

	model_init(m);
	n += snprintf(buf + n, sizeof(buf) - n,
		      "{\"type\":\"hello\",\"format\":\"gearbox-stream/1\",\"soc\":\"%s\","
		      "\"policy\":\"gearbox\",\"nr_cpus\":%d,\"domains\":[",
		      "a-very-long-soc-name-for-tests", nd * per);
	for (int d = 0; d < nd; d++) {
		n += snprintf(
		    buf + n, sizeof(buf) - n,
		    "%s{\"id\":%d,\"name\":\"domain-with-a-long-name-%06d\",\"capacity\":%d,"
		    "\"cpus\":[",
		    d ? "," : "", d, d, 100 + d * 10);
		for (int c = 0; c < per; c++)
			n += snprintf(buf + n, sizeof(buf) - n, "%s%d", c ? "," : "", d * per + c);
		n += snprintf(
		    buf + n, sizeof(buf) - n,
		    "],\"opps\":[{\"freq_khz\":1000000,\"perf\":%d,\"power_uw\":99999999}]}",
		    100 + d * 10);
	}
	n += snprintf(buf + n, sizeof(buf) - n, "]}");
	feed(buf);

	n = snprintf(buf, sizeof(buf),
		     "{\"type\":\"sample\",\"t_us\":999999999999,\"energy_uj\":"
		     "99999999999999,\"domains\":[");
	for (int d = 0; d < nd; d++)
		n += snprintf(buf + n, sizeof(buf) - n,
			      "%s{\"id\":%d,\"util\":65535,\"perf_target\":65535,\"freq_khz\":"
			      "4294967295,\"power_uw\":4294967295,\"overutilized\":true}",
			      d ? "," : "", d);
	n += snprintf(buf + n, sizeof(buf) - n, "],\"cpus\":[");
	for (int c = 0; c < nd * per; c++)
		n += snprintf(buf + n, sizeof(buf) - n,
			      "%s{\"cpu\":%d,\"util\":%d,\"pid\":2147483647,"
			      "\"comm\":\"fifteen-chars-x\"}",
			      c ? "," : "", c, c * 97 % 2000);
	n += snprintf(buf + n, sizeof(buf) - n, "],\"tasks\":[");
	for (int t = 0; t < 64; t++)
		n += snprintf(buf + n, sizeof(buf) - n,
			      "%s{\"pid\":%d,\"comm\":\"task-%d\",\"util\":%d,\"cpu\":%d,"
			      "\"migrations\":2147483647}",
			      t ? "," : "", t + 1, t, t * 31 % 1500, t % (nd * per));
	n += snprintf(buf + n, sizeof(buf) - n, "]}");
	feed(buf);

	for (int i = 0; i < MODEL_LOG_LEN + 5; i++) {
		static const char *const reasons[] = {"capacity_misfit", "power_misfit",
						      "wakeup_energy", "a_reason_from_the_future"};
		snprintf(
		    buf, sizeof(buf),
		    "{\"type\":\"decision\",\"t_us\":%d,\"pid\":%d,\"comm\":\"fifteen-chars-x\","
		    "\"from\":%d,\"to\":%d,\"reason\":\"%s\",\"power_delta_uw\":%d,"
		    "\"util\":1024,\"from_freq_khz\":4294967295}",
		    i, i, i % 2 ? -1 : 0, nd * per - 1, reasons[i % 4], i % 2 ? -2147483 : 2147483);
		feed(buf);
	}
	feed("this line is not JSON and sets the error row");
}

static void draw_everything(struct top_view *v, int rows, int cols)
{
	struct area all = {0, 0, rows, cols};
	struct area body = {2, 0, rows - 4, cols};

	resizeterm(rows, cols);
	erase();
	for (int view = 0; view < VIEW_COUNT; view++) {
		v->view = (enum top_view_id)view;
		panel_header_draw(v, m, (struct area){0, 0, rows < 2 ? rows : 2, cols});
		panel_domains_draw(v, m, body, 3);
		panel_domains_draw(v, m, all, 1000);
		panel_decisions_draw(v, m, body, 7, true);
		panel_decisions_draw(v, m, all, 0, false);
		panel_tasks_draw(v, m, body, 2);
		panel_help_draw(v, body);
		panel_help_draw(v, all);
		panel_status_draw(v, m, (struct area){rows - 2, 0, 2, cols});
		(void)panel_domains_rows(m, cols, rows - 9);
	}
	refresh();
}

static void sweep(struct top_view *v)
{
	/* rows, cols: below, at and above the 80x24 minimum, and the degenerate ones. */
	static const int sizes[][2] = {
	    {1, 1},   {2, 50},	{3, 10},  {5, 100},  {6, 80},	{9, 120},
	    {23, 80}, {24, 79}, {24, 80}, {30, 100}, {40, 200}, {100, 300},
	};

	for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++)
		draw_everything(v, sizes[i][0], sizes[i][1]);
	for (int c = 60; c <= 260; c += 13)
		draw_everything(v, 24 + c % 17, c);
}

static void test_panels_draw_at_every_size_without_faults(void)
{
	struct top_source src = {.kind = SOURCE_REPLAY, .speed = 1, .name = "x"};
	struct top_view v = {.refresh_hz = 4, .src = &src};

	if (!have_term) {
		TAP_SKIP("curses cannot open an xterm-256color screen on /dev/null");
		return;
	}

	snprintf(src.status, sizeof(src.status), "%s", "replay a-file-with-a-long-name.ndjson");
	for (int pass = 0; pass < 4; pass++) {
		v.utf8 = pass & 1;
		v.color = pass & 2;
		snprintf(v.filter, sizeof(v.filter), "%s", pass == 3 ? "misfit" : "");
		build(3, 4);
		sweep(&v);
		build(64, 4);
		sweep(&v);
		build(1, 256);
		sweep(&v);
	}
	model_init(m); /* nothing received yet */
	sweep(&v);
	CHECK(m->nr_records == 0);
}

int main(void)
{
	FILE *out = fopen("/dev/null", "w"), *in = fopen("/dev/null", "r");

	m = malloc(sizeof(*m));
	rec = malloc(sizeof(*rec));
	have_term = out && in && newterm("xterm-256color", out, in);
	if (have_term)
		draw_init_colors(true);
	TAP_RUN(test_panels_draw_at_every_size_without_faults);
	if (have_term)
		endwin();
	free(m);
	free(rec);
	return tap_done();
}
