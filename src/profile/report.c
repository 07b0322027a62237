// SPDX-License-Identifier: GPL-2.0-only
/*
 * report.c - `gearbox profile --report DIR`: what a person looks at after a profile.
 *
 *   DIR/power-perf.svg   one panel per domain: power (mW) against performance (0..1024), the
 *                        measured OPPs joined in frequency order with their 95% interval,
 *                        inefficient OPPs marked, the reference model dashed behind them
 *   DIR/comparison.txt   how long it took, what performance was counted in, per OPP the
 *                        measurement and whether the load's cycles matched the frequency,
 *                        the OPPs that did not apply or stopped at the time cap, and the
 *                        measured model against the reference (`gearbox em diff`)
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "em_export.h"
#include "report.h"

#define PANEL_W 360
#define PANEL_H 280
#define MARGIN	50

static const char *const colors[] = {"#2b83ba", "#1a9641", "#d7191c", "#fdae61", "#7b3294"};

struct axis {
	double max_perf, max_mw;
};

static double sx(const struct axis *a, u32 panel, double perf)
{
	return panel * (PANEL_W + MARGIN) + MARGIN + perf / a->max_perf * PANEL_W;
}

static double sy(const struct axis *a, double mw)
{
	return MARGIN + PANEL_H - mw / a->max_mw * PANEL_H;
}

static void panel_axes(FILE *f, const struct axis *a, u32 p, const char *title)
{
	double x0 = sx(a, p, 0), y0 = sy(a, 0);

	fprintf(f, "<text x=\"%.1f\" y=\"%d\" font-size=\"14\">%s</text>\n", x0, MARGIN - 15,
		title);
	fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"black\"/>\n", x0,
		y0, x0 + PANEL_W, y0);
	fprintf(f, "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%d\" stroke=\"black\"/>\n", x0,
		y0, x0, MARGIN);
	fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" font-size=\"11\">performance (0..1024)</text>\n",
		x0 + PANEL_W / 2 - 50, y0 + 30);
	fprintf(f,
		"<text x=\"%.1f\" y=\"%.1f\" font-size=\"11\" transform=\"rotate(-90 %.1f %.1f)\">"
		"power (mW)</text>\n",
		x0 - 35, y0 - PANEL_H / 2, x0 - 35, y0 - PANEL_H / 2);
	for (int t = 0; t <= 4; t++) {
		double mw = a->max_mw * t / 4, perf = a->max_perf * t / 4;

		fprintf(
		    f,
		    "<text x=\"%.1f\" y=\"%.1f\" font-size=\"9\" text-anchor=\"end\">%.0f</text>\n",
		    x0 - 4, sy(a, mw) + 3, mw);
		fprintf(f,
			"<text x=\"%.1f\" y=\"%.1f\" font-size=\"9\" "
			"text-anchor=\"middle\">%.0f</text>\n",
			sx(a, p, perf), y0 + 14, perf);
	}
}

static void polyline(FILE *f, const struct axis *a, u32 p, const struct em_domain *pd,
		     const char *color, const char *extra)
{
	fprintf(f, "<polyline fill=\"none\" stroke=\"%s\" %s points=\"", color, extra);
	for (u32 k = 0; k < pd->nr_opps; k++)
		fprintf(f, "%.1f,%.1f ", sx(a, p, pd->opps[k].perf),
			sy(a, pd->opps[k].power_uw / 1000.0));
	fprintf(f, "\"/>\n");
}

/* The reference domain with the same first CPU, or NULL. */
static const struct em_domain *ref_domain(const struct em_profile *ref, const struct em_domain *pd)
{
	if (!ref)
		return NULL;
	for (u32 d = 0; d < ref->model.nr_domains; d++)
		if (ref->model.domains[d].first_cpu == pd->first_cpu)
			return &ref->model.domains[d];
	return NULL;
}

static void write_svg(FILE *f, const struct em_profile *prof, const struct em_profile *ref)
{
	const struct em_model *m = &prof->model;

	fprintf(f,
		"<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%u\" height=\"%d\" "
		"font-family=\"sans-serif\">\n",
		m->nr_domains * (PANEL_W + MARGIN) + MARGIN, PANEL_H + 2 * MARGIN + 30);
	fprintf(f, "<title>%s: power vs performance per perf domain</title>\n", prof->soc);
	for (u32 d = 0; d < m->nr_domains; d++) {
		const struct em_domain *pd = &m->domains[d], *rd = ref_domain(ref, pd);
		const char *color = colors[d % 5];
		struct axis a = {1, 1};
		char title[96];

		for (u32 k = 0; k < pd->nr_opps; k++) {
			double mw =
			    (pd->opps[k].power_uw + prof->meta[d][k].power_spread_uw) / 1000.0;

			if (pd->opps[k].perf > a.max_perf)
				a.max_perf = pd->opps[k].perf;
			if (mw > a.max_mw)
				a.max_mw = mw;
		}
		for (u32 k = 0; rd && k < rd->nr_opps; k++)
			if (rd->opps[k].power_uw / 1000.0 > a.max_mw)
				a.max_mw = rd->opps[k].power_uw / 1000.0;
		a.max_perf *= 1.05;
		a.max_mw *= 1.05;
		snprintf(title, sizeof(title), "%s (%u OPPs)", pd->name, pd->nr_opps);
		panel_axes(f, &a, d, title);
		if (rd)
			polyline(f, &a, d, rd, "#999999", "stroke-dasharray=\"4 3\"");
		polyline(f, &a, d, pd, color, "stroke-width=\"1.5\"");
		for (u32 k = 0; k < pd->nr_opps; k++) {
			const struct em_opp *o = &pd->opps[k];
			double x = sx(&a, d, o->perf), y = sy(&a, o->power_uw / 1000.0);
			double ci = prof->meta[d][k].power_spread_uw / 1000.0 / a.max_mw * PANEL_H;

			fprintf(f,
				"<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" "
				"stroke=\"%s\"/>\n",
				x, y - ci, x, y + ci, color);
			if (o->flags & EM_OPP_INEFFICIENT)
				fprintf(
				    f,
				    "<circle class=\"inefficient\" cx=\"%.1f\" cy=\"%.1f\" r=\"5\" "
				    "fill=\"none\" stroke=\"red\" stroke-width=\"2\"><title>%u "
				    "kHz: "
				    "inefficient</title></circle>\n",
				    x, y, o->freq_khz);
			else
				fprintf(
				    f,
				    "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3\" fill=\"%s\"><title>%u "
				    "kHz</title></circle>\n",
				    x, y, color, o->freq_khz);
		}
	}
	fprintf(f,
		"<text x=\"%d\" y=\"%d\" font-size=\"11\">solid: measured (bars: 95%% interval); "
		"red rings: inefficient OPPs; dashed grey: reference model</text>\n",
		MARGIN, PANEL_H + 2 * MARGIN + 20);
	fprintf(f, "</svg>\n");
}

/* Per OPP: power, rate, and the cycle check (the frequency the load really ran at). */
static void write_opp_table(FILE *f, const struct prof_result *res)
{
	const char *unit = res->topo.perf_src == PROF_PERF_INSTRUCTIONS ? "instr/s" : "it/s";

	if (res->split_cpus)
		fprintf(f, "split: with k CPUs busy the domain draws static + k x dynamic; "
			   "static and dynamic in mW with their 95%% half-width\n");
	fprintf(f, "%-8s %9s %10s %7s %12s  %-*s", "domain", "kHz", "power mW", "+-%", unit,
		res->split_cpus ? 24 : 0, "cycles");
	if (res->split_cpus)
		fprintf(f, " %2s %16s %16s", "k", "static mW", "dynamic mW");
	fputc('\n', f);
	for (u32 d = 0; d < res->topo.nr_domains; d++)
		for (u32 k = 0; k < res->topo.dom[d].nr_opps; k++) {
			const struct prof_opp_result *r = &res->opp[d][k];
			char cyc[64];

			if (r->cycles == PROF_CYCLES_NOT_COUNTED)
				snprintf(cyc, sizeof(cyc), "not counted%s",
					 r->not_applied ? "; iteration rate off: not applied" : "");
			else
				snprintf(cyc, sizeof(cyc), "%.1f MHz: %s", r->eff_khz / 1000,
					 r->cycles == PROF_CYCLES_MATCH ? "match"
									: "OFF, not applied");
			/* cycles padded only where split columns follow: no trailing blanks */
			fprintf(f, "%-8s %9u %10.2f %7.2f %12.5g  %-*s", res->topo.dom[d].name,
				r->freq_khz, r->power_uw / 1000,
				r->power_uw > 0 ? 100 * r->power_ci_uw / r->power_uw : 0, r->rate,
				res->split_cpus ? 24 : 0, cyc);
			if (r->has_split)
				fprintf(f, " %2u %8.2f +-%5.2f %8.2f +-%5.2f", r->split_cpus,
					r->static_uw / 1000, r->static_ci_uw / 1000,
					r->dynamic_uw / 1000, r->dynamic_ci_uw / 1000);
			fputc('\n', f);
		}
	fputc('\n', f);
}

static void write_comparison(FILE *f, const struct em_profile *prof, const struct em_profile *ref,
			     const char *ref_name, const struct prof_result *res)
{
	struct em_diff_summary sum;

	fprintf(f, "gearbox profile report: %s\n", prof->soc);
	fprintf(f, "profile time: %.1f s%s\n", res->total_ns / 1e9,
		strcmp(prof->prov.source, "sim") ? ""
						 : " (simulated wall time: what the same "
						   "profile takes on the board)");
	fprintf(f, "performance: %s\n\n", res->topo.perf_why);
	write_opp_table(f, res);
	for (u32 d = 0; d < res->topo.nr_domains; d++)
		for (u32 k = 0; k < res->topo.dom[d].nr_opps; k++) {
			const struct prof_opp_result *r = &res->opp[d][k];

			if (r->not_applied)
				fprintf(f, "not applied: %s %u kHz (measured %s), left out\n",
					res->topo.dom[d].name, r->freq_khz,
					r->eff_khz > 0 ? "cycles off" : "iteration rate off");
			else if (r->perf_inconsistent || r->power_inconsistent)
				fprintf(f,
					"out of order: %s %u kHz, %s not above the previous "
					"OPP's after %u measurements; fitted in the model, the "
					"measured values in its \"raw\"\n",
					res->topo.dom[d].name, r->freq_khz,
					r->perf_inconsistent && r->power_inconsistent
					    ? "perf and power"
					: r->perf_inconsistent ? "perf"
							       : "power",
					r->measurements);
			else if (!r->converged)
				fprintf(f, "time cap: %s %u kHz stopped at +-%.1f%%\n",
					res->topo.dom[d].name, r->freq_khz,
					100 * r->power_ci_uw / (r->power_uw > 0 ? r->power_uw : 1));
		}
	if (ref) {
		fprintf(f, "\nmeasured (B) against %s (A):\n", ref_name);
		em_diff(ref, prof, f, &sum);
		fprintf(f,
			"\n%u OPPs matched, largest power difference %.1f%%, largest perf "
			"difference %.1f%%, %u inefficiency mismatches\n",
			sum.matched_opps, sum.max_power_pct, sum.max_perf_pct,
			sum.inefficiency_mismatches);
	} else {
		fprintf(f, "\n%s\n", ref_name ? ref_name : "no reference model");
	}
}

/* Opens DIR/NAME (as outfile.h writes any output), for the caller to fill and finish. */
static int open_in(struct gb_out *o, const char *dir, const char *name, struct gb_err *err)
{
	char path[4096];

	if (snprintf(path, sizeof(path), "%s/%s", dir, name) >= (int)sizeof(path))
		return gb_err_set(err, ENAMETOOLONG, "%s/%s: %s", dir, name,
				  strerror(ENAMETOOLONG));
	return gb_out_open(o, path, err);
}

int prof_report_write(const char *dir, const struct em_profile *prof, const struct em_profile *ref,
		      const char *ref_name, const struct prof_result *res,
		      struct prof_report_out *out, struct gb_err *err)
{
	int ret;

	memset(out, 0, sizeof(*out));
	out->svg.fd = out->txt.fd = -1;
	if (mkdir(dir, 0755) == 0)
		snprintf(out->made_dir, sizeof(out->made_dir), "%s", dir);
	else if (errno != EEXIST)
		return gb_err_set(err, errno, "%s: %s", dir, strerror(errno));
	ret = open_in(&out->svg, dir, "power-perf.svg", err);
	if (ret == 0) {
		write_svg(out->svg.f, prof, ref);
		ret = gb_out_finish(&out->svg, err);
	}
	if (ret == 0)
		ret = open_in(&out->txt, dir, "comparison.txt", err);
	if (ret == 0) {
		write_comparison(out->txt.f, prof, ref, ref_name, res);
		ret = gb_out_finish(&out->txt, err);
	}
	if (ret)
		prof_report_abort(out);
	return ret;
}

int prof_report_check(const char *dir, struct gb_err *err)
{
	char path[4096];
	struct stat st;
	int ret;

	if (stat(dir, &st))
		return errno == ENOENT ? gb_out_check(dir, err) /* can DIR be made there? */
				       : gb_err_set(err, errno, "%s: %s", dir, strerror(errno));
	if (!S_ISDIR(st.st_mode))
		return gb_err_set(err, ENOTDIR, "%s: %s", dir, strerror(ENOTDIR));
	snprintf(path, sizeof(path), "%s/power-perf.svg", dir);
	ret = gb_out_check(path, err);
	if (ret == 0) {
		snprintf(path, sizeof(path), "%s/comparison.txt", dir);
		ret = gb_out_check(path, err);
	}
	return ret;
}

int prof_report_commit(struct prof_report_out *out, struct gb_err *err)
{
	int ret = gb_out_commit(&out->svg, err);

	if (ret == 0)
		ret = gb_out_commit(&out->txt, err);
	if (ret)
		prof_report_abort(out);
	return ret;
}

void prof_report_abort(struct prof_report_out *out)
{
	gb_out_abort(&out->svg);
	gb_out_abort(&out->txt);
	if (out->made_dir[0])
		rmdir(out->made_dir); /* fails, as it should, once anything is in it */
	out->made_dir[0] = '\0';
}
