// SPDX-License-Identifier: GPL-2.0-only
#include "em_export.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cpulist.h"
#include "outfile.h"

static void show_idle_state(FILE *out, const char *level, const struct em_idle_state *st)
{
	fprintf(out, "    %-8s %-31s %9.3f %9u %9u %10u\n", level, st->name, st->power_uw / 1000.0,
		st->entry_latency_us, st->exit_latency_us, st->min_residency_us);
}

/* The domain's idle states (docs/em-profile.md, "idle_states") and its transition latency. */
static void show_idle(const struct em_profile *prof, u32 d, FILE *out)
{
	const struct em_idle_states *is = &prof->idle[d];

	if (prof->has_transition_latency[d])
		fprintf(out, "  transition latency: %u us\n", prof->transition_latency_us[d]);
	else
		fprintf(out, "  transition latency: not in the model (gearbox sim uses cpufreq's "
			     "default, 1000 us)\n");
	if (!is->present) {
		fprintf(out,
			"  idle states: none (gearbox sim draws idle_power_uw all the time)\n");
		return;
	}
	fprintf(out, "  idle states: static %.3f mW while any CPU is out of a cluster state\n",
		is->static_uw / 1000.0);
	fprintf(out, "    %-8s %-31s %9s %9s %9s %10s\n", "level", "name", "power mW", "entry us",
		"exit us", "residency");
	for (u32 i = 0; i < is->nr_cpu; i++)
		show_idle_state(out, "cpu", &is->cpu[i]);
	for (u32 i = 0; i < is->nr_cluster; i++)
		show_idle_state(out, "cluster", &is->cluster[i]);
}

void em_show(const struct em_profile *prof, FILE *out)
{
	const struct em_model *m = &prof->model;
	char cpus[1024];

	fprintf(out, "%s: %u perf domains, %u CPUs (source: %s%s%s)\n", prof->soc, m->nr_domains,
		m->nr_cpus, prof->prov.source, prof->prov.date[0] ? ", " : "", prof->prov.date);
	if (prof->description[0])
		fprintf(out, "%s\n", prof->description);
	for (u32 d = 0; d < m->nr_domains; d++) {
		const struct em_domain *pd = &m->domains[d];

		cpulist_format(&pd->cpus, cpus, sizeof(cpus));
		fprintf(out, "\ndomain %u: %s%s%s%s, CPUs %s, capacity %u", d, pd->name,
			prof->core[d][0] ? " (" : "", prof->core[d], prof->core[d][0] ? ")" : "",
			cpus, em_domain_capacity(pd));
		if (pd->idle_power_uw)
			fprintf(out, ", idle %.3f mW", pd->idle_power_uw / 1000.0);
		fprintf(out, "\n  %10s %11s %5s %9s  %s\n", "freq kHz", "power mW", "perf", "cost",
			"");
		for (u32 i = 0; i < pd->nr_opps; i++) {
			const struct em_opp *o = &pd->opps[i];
			const struct em_opp_meta *mt = &prof->meta[d][i];

			fprintf(out, "  %10u %11.3f %5u %9llu  %s", o->freq_khz,
				o->power_uw / 1000.0, o->perf, (unsigned long long)o->cost,
				(o->flags & EM_OPP_INEFFICIENT) ? "inefficient" : "");
			if (mt->has_spread)
				fprintf(out, "%s+-%.3f mW",
					(o->flags & EM_OPP_INEFFICIENT) ? " " : "",
					mt->power_spread_uw / 1000.0);
			/* the split: with k CPUs busy, static once and dynamic k times */
			if (mt->has_split)
				fprintf(out, "%ssplit %.3f static + %.3f dynamic mW (%u CPUs)",
					(o->flags & EM_OPP_INEFFICIENT) || mt->has_spread ? " "
											  : "",
					mt->static_uw / 1000.0, mt->dynamic_uw / 1000.0,
					mt->split_cpus);
			fputc('\n', out);
		}
		show_idle(prof, d, out);
	}
}

static void state_text(const struct em_idle_state *st, char *buf, size_t len)
{
	snprintf(buf, len, "%s %.3f mW %u/%u/%u us", st->name, st->power_uw / 1000.0,
		 st->entry_latency_us, st->exit_latency_us, st->min_residency_us);
}

static bool same_state(const struct em_idle_state *x, const struct em_idle_state *y)
{
	return !strcmp(x->name, y->name) && x->power_uw == y->power_uw &&
	       x->entry_latency_us == y->entry_latency_us &&
	       x->exit_latency_us == y->exit_latency_us &&
	       x->min_residency_us == y->min_residency_us;
}

/* One level (CPU or cluster) of two domains' idle states, state by state; true if any differs. */
static bool diff_states(const char *level, const struct em_idle_state *sa, u32 na,
			const struct em_idle_state *sb, u32 nb, FILE *out)
{
	char ta[96], tb[96];
	bool differ = false;

	for (u32 i = 0; i < na || i < nb; i++) {
		if (i < na && i < nb && same_state(&sa[i], &sb[i]))
			continue;
		differ = true;
		if (!out)
			continue;
		if (i < na)
			state_text(&sa[i], ta, sizeof(ta));
		if (i < nb)
			state_text(&sb[i], tb, sizeof(tb));
		fprintf(out, "  idle %s[%u]: A %s, B %s\n", level, i, i < na ? ta : "-",
			i < nb ? tb : "-");
	}
	return differ;
}

/* Transition latency and idle states of two matched domains: the differences, and whether any. */
static bool diff_idle(const struct em_profile *a, u32 da, const struct em_profile *b, u32 db,
		      FILE *out)
{
	const struct em_idle_states *ia = &a->idle[da], *ib = &b->idle[db];
	bool ha = a->has_transition_latency[da], hb = b->has_transition_latency[db];
	bool differ = false;
	char la[32], lb[32];

	if (ha != hb || (ha && a->transition_latency_us[da] != b->transition_latency_us[db])) {
		differ = true;
		snprintf(la, sizeof(la), "%u us", a->transition_latency_us[da]);
		snprintf(lb, sizeof(lb), "%u us", b->transition_latency_us[db]);
		if (out)
			fprintf(out, "  transition latency: A %s, B %s\n",
				ha ? la : "not in the model", hb ? lb : "not in the model");
	}
	if (ia->present != ib->present) {
		if (out)
			fprintf(out, "  idle states: only in %s\n", ia->present ? "A" : "B");
		return true;
	}
	if (!ia->present)
		return differ;
	if (ia->static_uw != ib->static_uw) {
		differ = true;
		if (out)
			fprintf(out, "  idle static: A %.3f mW, B %.3f mW\n",
				ia->static_uw / 1000.0, ib->static_uw / 1000.0);
	}
	differ |= diff_states("cpu", ia->cpu, ia->nr_cpu, ib->cpu, ib->nr_cpu, out);
	differ |=
	    diff_states("cluster", ia->cluster, ia->nr_cluster, ib->cluster, ib->nr_cluster, out);
	return differ;
}

static int find_domain(const struct em_model *m, const struct em_cpumask *cpus)
{
	for (u32 d = 0; d < m->nr_domains; d++)
		if (!memcmp(&m->domains[d].cpus, cpus, sizeof(*cpus)))
			return (int)d;
	return -1;
}

static double pct(double a, double b)
{
	return a ? (b / a - 1) * 100 : 0;
}

void em_diff(const struct em_profile *a, const struct em_profile *b, FILE *out,
	     struct em_diff_summary *sum)
{
	char cpus[1024];

	memset(sum, 0, sizeof(*sum));
	if (out)
		fprintf(out, "A: %s (%s)\nB: %s (%s)\n", a->soc, a->prov.source, b->soc,
			b->prov.source);
	for (u32 d = 0; d < a->model.nr_domains; d++) {
		const struct em_domain *pa = &a->model.domains[d];
		int bd = find_domain(&b->model, &pa->cpus);
		const struct em_domain *pb;
		u32 j = 0;

		cpulist_format(&pa->cpus, cpus, sizeof(cpus));
		if (bd < 0) {
			if (out)
				fprintf(out, "\ndomain %s (CPUs %s): only in A\n", pa->name, cpus);
			sum->unmatched_domains++;
			continue;
		}
		pb = &b->model.domains[bd];
		if (out)
			fprintf(out, "\ndomain %s (CPUs %s)\n  %10s %11s %11s %8s %6s %6s %8s\n",
				pa->name, cpus, "freq kHz", "A mW", "B mW", "power", "A perf",
				"B perf", "perf");
		for (u32 i = 0; i < pa->nr_opps; i++) {
			const struct em_opp *oa = &pa->opps[i], *ob;
			double dp, df;

			while (j < pb->nr_opps && pb->opps[j].freq_khz < oa->freq_khz) {
				if (out)
					fprintf(out, "  %10u %11s %11.3f   only in B\n",
						pb->opps[j].freq_khz, "-",
						pb->opps[j].power_uw / 1000.0);
				sum->unmatched_opps++;
				j++;
			}
			if (j >= pb->nr_opps || pb->opps[j].freq_khz != oa->freq_khz) {
				if (out)
					fprintf(out, "  %10u %11.3f %11s   only in A\n",
						oa->freq_khz, oa->power_uw / 1000.0, "-");
				sum->unmatched_opps++;
				continue;
			}
			ob = &pb->opps[j++];
			dp = pct(oa->power_uw, ob->power_uw);
			df = pct(oa->perf, ob->perf);
			sum->matched_opps++;
			if (fabs(dp) > sum->max_power_pct)
				sum->max_power_pct = fabs(dp);
			if (fabs(df) > sum->max_perf_pct)
				sum->max_perf_pct = fabs(df);
			if ((oa->flags ^ ob->flags) & EM_OPP_INEFFICIENT)
				sum->inefficiency_mismatches++;
			if (out)
				fprintf(out, "  %10u %11.3f %11.3f %+7.1f%% %6u %6u %+7.1f%%%s\n",
					oa->freq_khz, oa->power_uw / 1000.0, ob->power_uw / 1000.0,
					dp, oa->perf, ob->perf, df,
					((oa->flags ^ ob->flags) & EM_OPP_INEFFICIENT)
					    ? (oa->flags & EM_OPP_INEFFICIENT
						   ? "  inefficient in A only"
						   : "  inefficient in B only")
					    : "");
		}
		for (; j < pb->nr_opps; j++) {
			if (out)
				fprintf(out, "  %10u %11s %11.3f   only in B\n",
					pb->opps[j].freq_khz, "-", pb->opps[j].power_uw / 1000.0);
			sum->unmatched_opps++;
		}
		if (diff_idle(a, d, b, (u32)bd, out))
			sum->idle_mismatches++;
	}
	for (u32 d = 0; d < b->model.nr_domains; d++)
		if (find_domain(&a->model, &b->model.domains[d].cpus) < 0) {
			cpulist_format(&b->model.domains[d].cpus, cpus, sizeof(cpus));
			if (out)
				fprintf(out, "\ndomain %s (CPUs %s): only in B\n",
					b->model.domains[d].name, cpus);
			sum->unmatched_domains++;
		}
	if (out)
		fprintf(
		    out,
		    "\n%u OPPs compared, %u unmatched, %u domains unmatched; largest difference: "
		    "power %.1f%%, perf %.1f%%; %u inefficiency marks differ; idle states or "
		    "transition latency differ in %u domains\n",
		    sum->matched_opps, sum->unmatched_opps, sum->unmatched_domains,
		    sum->max_power_pct, sum->max_perf_pct, sum->inefficiency_mismatches,
		    sum->idle_mismatches);
}

/* A device-tree name from a domain name: letters, digits and '-' kept, anything else '-'. */
static void dt_name(const char *in, char *out, size_t len)
{
	size_t n = 0;

	for (; *in && n + 1 < len; in++)
		out[n++] = ((*in >= 'a' && *in <= 'z') || (*in >= 'A' && *in <= 'Z') ||
			    (*in >= '0' && *in <= '9'))
			       ? *in
			       : '-';
	out[n] = '\0';
}

/* The domain's table name: "opp-table-NAME" when NAME is usable and unique (the importer takes
 * the name back from it), else "opp-table-pdN". */
static void dt_table_name(const struct em_model *m, u32 d, char *out, size_t len)
{
	char name[EM_NAME_LEN], other[EM_NAME_LEN];
	bool ok;

	dt_name(m->domains[d].name, name, sizeof(name));
	ok = name[0] && name[0] != '-' && strncmp(name, "cpu", 3) && strncmp(name, "pd", 2);
	for (const char *p = name; ok && *p; p++)
		ok = !(*p >= '0' && *p <= '9') || p != name;
	for (u32 e = 0; ok && e < m->nr_domains; e++) {
		dt_name(m->domains[e].name, other, sizeof(other));
		ok = e == d || strcmp(name, other);
	}
	if (ok)
		snprintf(out, len, "opp-table-%s", name);
	else
		snprintf(out, len, "opp-table-pd%u", d);
}

/* Writes s inside a C comment: no "*" "/" that would end it early. */
static void dt_comment_text(FILE *out, const char *s)
{
	for (; *s; s++) {
		if (s[0] == '*' && s[1] == '/')
			fputs("* ", out);
		else if (*s == '\n')
			fputs("\n * ", out);
		else
			fputc(*s, out);
	}
}

/*
 * capacity-dmips-mhz per domain such that the kernel's topology_normalize_cpu_scale(),
 *   capacity = dmips * fmax[MHz] * 1024 / max over CPUs (dmips * fmax[MHz]),
 * gives the model's capacity back exactly: 1024 for the fastest domain, and for the others
 * the smallest dmips whose product lands in [capacity, capacity + 1) of it.
 */
static u32 dt_dmips(const struct em_model *m, u32 d)
{
	u32 top = 0;
	u64 top_mhz, mhz;
	const struct em_domain *pd = &m->domains[d];

	for (u32 e = 1; e < m->nr_domains; e++)
		if (em_domain_capacity(&m->domains[e]) > em_domain_capacity(&m->domains[top]))
			top = e;
	top_mhz = m->domains[top].opps[m->domains[top].nr_opps - 1].freq_khz / 1000;
	mhz = pd->opps[pd->nr_opps - 1].freq_khz / 1000;
	if (d == top || !mhz || !top_mhz)
		return 1024;
	/* ceil(cap * 1024 * top_mhz / (mhz * 1024)) */
	return (u32)(((u64)em_domain_capacity(pd) * top_mhz + mhz - 1) / mhz);
}

void em_export_dt(const struct em_profile *prof, FILE *out)
{
	const struct em_model *m = &prof->model;
	char cpus[1024], tname[EM_NAME_LEN + 16], soc[64];
	bool volts = false;

	for (u32 d = 0; d < m->nr_domains; d++)
		for (u32 i = 0; i < m->domains[d].nr_opps; i++)
			volts |= m->domains[d].opps[i].voltage_uv != 0;
	fprintf(out, "/*\n * Generated by gearbox %s from the energy model \"", GEARBOX_VERSION);
	dt_comment_text(out, prof->soc);
	fputs("\" (source: ", out);
	dt_comment_text(out, prof->prov.source);
	fputs(").\n", out);
	if (prof->prov.conditions[0]) {
		fputs(" * Conditions: ", out);
		dt_comment_text(out, prof->prov.conditions);
		fputs("\n", out);
	}
	fprintf(
	    out,
	    " *\n"
	    " * Every OPP of the model is here, each with opp-microwatt (uW)%s.\n"
	    " * A standalone tree that dtc compiles: /cpus with one node per logical CPU (reg is\n"
	    " * the CPU number here, a board's is its MPIDR), a cpu-map with one cluster per perf\n"
	    " * domain, and one operating-points-v2 table per domain. capacity-dmips-mhz is\n"
	    " * chosen so that the kernel's topology_normalize_cpu_scale() gives the model's\n"
	    " * capacities back; the kernel then derives each OPP's performance as\n"
	    " * capacity * f / fmax, so the model's measured perf is not carried over. For a\n"
	    " * board, copy the tables and the CPU properties into its device tree.\n"
	    " */\n\n/dts-v1/;\n\n/ {\n",
	    volts ? "\n * and opp-microvolt where the model has a voltage" : "");
	dt_name(prof->soc, soc, sizeof(soc));
	fprintf(out,
		"\tcompatible = \"gearbox,%s\";\n\n\tcpus {\n\t\t#address-cells = <1>;\n"
		"\t\t#size-cells = <0>;\n",
		soc[0] ? soc : "model");
	for (u32 c = 0; c < m->nr_cpus; c++) {
		int d = em_domain_of_cpu(m, c);

		fprintf(out,
			"\n\t\tcpu%u: cpu@%u {\n\t\t\tdevice_type = \"cpu\";\n\t\t\treg = <%u>;\n",
			c, c, c);
		if (d < 0) {
			fputs("\t\t\t/* in no perf domain of the model: no OPP table */\n\t\t};\n",
			      out);
			continue;
		}
		fprintf(out,
			"\t\t\tcapacity-dmips-mhz = <%u>;\n\t\t\toperating-points-v2 = "
			"<&pd%d_opp_table>;\n\t\t};\n",
			dt_dmips(m, (u32)d), d);
	}
	fputs("\n\t\tcpu-map {\n", out);
	for (u32 d = 0; d < m->nr_domains; d++) {
		u32 core = 0;

		fprintf(out, "\t\t\tcluster%u {\n", d);
		for (u32 c = 0; c < m->nr_cpus; c++)
			if (em_domain_of_cpu(m, c) == (int)d)
				fprintf(out,
					"\t\t\t\tcore%u {\n\t\t\t\t\tcpu = <&cpu%u>;\n\t\t\t\t};\n",
					core++, c);
		fputs("\t\t\t};\n", out);
	}
	fputs("\t\t};\n\t};\n", out);
	for (u32 d = 0; d < m->nr_domains; d++) {
		const struct em_domain *pd = &m->domains[d];

		cpulist_format(&pd->cpus, cpus, sizeof(cpus));
		dt_table_name(m, d, tname, sizeof(tname));
		fputs("\n\t/* domain ", out);
		dt_comment_text(out, pd->name);
		fprintf(out,
			": CPUs %s, capacity %u */\n\tpd%u_opp_table: %s {\n"
			"\t\tcompatible = \"operating-points-v2\";\n\t\topp-shared;\n",
			cpus, em_domain_capacity(pd), d, tname);
		for (u32 i = 0; i < pd->nr_opps; i++) {
			const struct em_opp *o = &pd->opps[i];

			fprintf(out, "\n\t\topp-%llu {\n\t\t\topp-hz = /bits/ 64 <%llu>;\n",
				(unsigned long long)o->freq_khz * 1000,
				(unsigned long long)o->freq_khz * 1000);
			if (o->voltage_uv)
				fprintf(out, "\t\t\topp-microvolt = <%u>;\n", o->voltage_uv);
			fprintf(out, "\t\t\topp-microwatt = <%u>;\n\t\t};\n", o->power_uw);
		}
		fputs("\t};\n", out);
	}
	fputs("};\n", out);
}

/* Calls emit(path, value) for every file of the v6.9+ debugfs layout. */
static void debugfs_walk(const struct em_profile *prof,
			 void (*emit)(void *ctx, const char *path, const char *value), void *ctx)
{
	const struct em_model *m = &prof->model;
	char path[256], val[1024];

	for (u32 d = 0; d < m->nr_domains; d++) {
		const struct em_domain *pd = &m->domains[d];
		u32 flags =
		    1u /* MICROWATTS */ | ((pd->flags & EM_PD_SKIP_INEFFICIENCIES) ? 2u : 0);

		snprintf(path, sizeof(path), "cpu%u/cpus", pd->first_cpu);
		cpulist_format(&pd->cpus, val, sizeof(val));
		emit(ctx, path, val);
		snprintf(path, sizeof(path), "cpu%u/flags", pd->first_cpu);
		snprintf(val, sizeof(val), "%#x", flags);
		emit(ctx, path, val);
		snprintf(path, sizeof(path), "cpu%u/id", pd->first_cpu);
		snprintf(val, sizeof(val), "%u", d);
		emit(ctx, path, val);
		for (u32 i = 0; i < pd->nr_opps; i++) {
			const struct em_opp *o = &pd->opps[i];
			static const char *const files[] = {"frequency", "power", "cost",
							    "performance", "inefficient"};
			unsigned long long v[] = {o->freq_khz, o->power_uw,
						  (unsigned long long)o->cost, o->perf,
						  (o->flags & EM_OPP_INEFFICIENT) ? 1 : 0};

			for (int k = 0; k < 5; k++) {
				snprintf(path, sizeof(path), "cpu%u/ps:%u/%s", pd->first_cpu,
					 o->freq_khz, files[k]);
				snprintf(val, sizeof(val), "%llu", v[k]);
				emit(ctx, path, val);
			}
		}
	}
}

static void emit_text(void *ctx, const char *path, const char *value)
{
	fprintf((FILE *)ctx, "%s: %s\n", path, value);
}

void em_export_debugfs_text(const struct em_profile *prof, FILE *out)
{
	debugfs_walk(prof, emit_text, out);
}

/* The tree is written in two passes so that a failure anywhere (a full file system, a file
 * of the tree that cannot be replaced) changes nothing: every file is written to its temporary
 * and finished first, then all are renamed into place.  Directories this export created are
 * removed again on failure. */
struct tree_ctx {
	const char *dir;
	struct gb_out *outs; /* finished, waiting for their rename */
	size_t nr_outs, cap_outs;
	char **made; /* directories created, in creation order */
	size_t nr_made, cap_made;
	int rc;
	struct gb_err *err;
};

static int grow(void **arr, size_t *cap, size_t n, size_t size)
{
	void *p;

	if (n < *cap)
		return 0;
	p = realloc(*arr, (*cap ? *cap * 2 : 16) * size);
	if (!p)
		return -ENOMEM;
	*arr = p;
	*cap = *cap ? *cap * 2 : 16;
	return 0;
}

static int make_dir(struct tree_ctx *ctx, const char *path)
{
	if (mkdir(path, 0755) == 0) {
		if (grow((void **)&ctx->made, &ctx->cap_made, ctx->nr_made, sizeof(char *)) ||
		    !(ctx->made[ctx->nr_made] = strdup(path))) {
			rmdir(path);
			return gb_err_set(ctx->err, ENOMEM, "out of memory");
		}
		ctx->nr_made++;
		return 0;
	}
	if (errno != EEXIST)
		return gb_err_set(ctx->err, errno, "%s: %s", path, strerror(errno));
	return 0;
}

static void emit_file(void *vctx, const char *path, const char *value)
{
	struct tree_ctx *ctx = vctx;
	struct gb_out out;
	char full[4096];

	if (ctx->rc)
		return;
	if (snprintf(full, sizeof(full), "%s/%s", ctx->dir, path) >= (int)sizeof(full)) {
		ctx->rc = gb_err_set(ctx->err, ENAMETOOLONG, "%s/%s: %s", ctx->dir, path,
				     strerror(ENAMETOOLONG));
		return;
	}
	for (char *p = full + strlen(ctx->dir) + 1; (p = strchr(p, '/')); p++) {
		*p = '\0';
		ctx->rc = make_dir(ctx, full);
		*p = '/';
		if (ctx->rc)
			return;
	}
	if (grow((void **)&ctx->outs, &ctx->cap_outs, ctx->nr_outs, sizeof(*ctx->outs))) {
		ctx->rc = gb_err_set(ctx->err, ENOMEM, "out of memory");
		return;
	}
	ctx->rc = gb_out_open(&out, full, ctx->err);
	if (ctx->rc)
		return;
	fprintf(out.f, "%s\n", value);
	ctx->rc = gb_out_finish(&out, ctx->err);
	if (!ctx->rc)
		ctx->outs[ctx->nr_outs++] = out; /* closed: the stream no longer points at out */
}

int em_export_debugfs_tree(const struct em_profile *prof, const char *dir, struct gb_err *err)
{
	struct tree_ctx ctx = {.dir = dir, .err = err};
	size_t i = 0;

	ctx.rc = make_dir(&ctx, dir);
	if (!ctx.rc)
		debugfs_walk(prof, emit_file, &ctx);
	for (; !ctx.rc && i < ctx.nr_outs; i++)
		ctx.rc = gb_out_commit(&ctx.outs[i], err);
	for (; i < ctx.nr_outs; i++)
		gb_out_abort(&ctx.outs[i]);
	while (ctx.nr_made--) {
		if (ctx.rc)
			rmdir(ctx.made[ctx.nr_made]);
		free(ctx.made[ctx.nr_made]);
	}
	free(ctx.made);
	free(ctx.outs);
	return ctx.rc;
}
