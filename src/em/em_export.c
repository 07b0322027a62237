// SPDX-License-Identifier: GPL-2.0-only
#include "em_export.h"

#include <errno.h>
#include <math.h>
#include <string.h>
#include <sys/stat.h>

#include "cpulist.h"

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
			prof->core[d][0] ? " (" : "", prof->core[d], prof->core[d][0] ? ")" : "", cpus,
			em_domain_capacity(pd));
		if (pd->idle_power_uw)
			fprintf(out, ", idle %.3f mW", pd->idle_power_uw / 1000.0);
		fprintf(out, "\n  %10s %11s %5s %9s  %s\n", "freq kHz", "power mW", "perf", "cost", "");
		for (u32 i = 0; i < pd->nr_opps; i++) {
			const struct em_opp *o = &pd->opps[i];
			const struct em_opp_meta *mt = &prof->meta[d][i];

			fprintf(out, "  %10u %11.3f %5u %9llu  %s", o->freq_khz, o->power_uw / 1000.0,
				o->perf, (unsigned long long)o->cost,
				(o->flags & EM_OPP_INEFFICIENT) ? "inefficient" : "");
			if (mt->has_spread)
				fprintf(out, "%s+-%.3f mW", (o->flags & EM_OPP_INEFFICIENT) ? " " : "",
					mt->power_spread_uw / 1000.0);
			fputc('\n', out);
		}
	}
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
		fprintf(out, "A: %s (%s)\nB: %s (%s)\n", a->soc, a->prov.source, b->soc, b->prov.source);
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
			fprintf(out, "\ndomain %s (CPUs %s)\n  %10s %11s %11s %8s %6s %6s %8s\n", pa->name,
				cpus, "freq kHz", "A mW", "B mW", "power", "A perf", "B perf", "perf");
		for (u32 i = 0; i < pa->nr_opps; i++) {
			const struct em_opp *oa = &pa->opps[i], *ob;
			double dp, df;

			while (j < pb->nr_opps && pb->opps[j].freq_khz < oa->freq_khz) {
				if (out)
					fprintf(out, "  %10u %11s %11.3f   only in B\n", pb->opps[j].freq_khz,
						"-", pb->opps[j].power_uw / 1000.0);
				sum->unmatched_opps++;
				j++;
			}
			if (j >= pb->nr_opps || pb->opps[j].freq_khz != oa->freq_khz) {
				if (out)
					fprintf(out, "  %10u %11.3f %11s   only in A\n", oa->freq_khz,
						oa->power_uw / 1000.0, "-");
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
				fprintf(out, "  %10u %11.3f %11.3f %+7.1f%% %6u %6u %+7.1f%%%s\n", oa->freq_khz,
					oa->power_uw / 1000.0, ob->power_uw / 1000.0, dp, oa->perf, ob->perf,
					df, ((oa->flags ^ ob->flags) & EM_OPP_INEFFICIENT) ?
					(oa->flags & EM_OPP_INEFFICIENT ? "  inefficient in A only" :
					 "  inefficient in B only") : "");
		}
		for (; j < pb->nr_opps; j++) {
			if (out)
				fprintf(out, "  %10u %11s %11.3f   only in B\n", pb->opps[j].freq_khz, "-",
					pb->opps[j].power_uw / 1000.0);
			sum->unmatched_opps++;
		}
	}
	for (u32 d = 0; d < b->model.nr_domains; d++)
		if (find_domain(&a->model, &b->model.domains[d].cpus) < 0) {
			cpulist_format(&b->model.domains[d].cpus, cpus, sizeof(cpus));
			if (out)
				fprintf(out, "\ndomain %s (CPUs %s): only in B\n", b->model.domains[d].name, cpus);
			sum->unmatched_domains++;
		}
	if (out)
		fprintf(out, "\n%u OPPs compared, %u unmatched, %u domains unmatched; largest difference: "
			"power %.1f%%, perf %.1f%%; %u inefficiency marks differ\n", sum->matched_opps,
			sum->unmatched_opps, sum->unmatched_domains, sum->max_power_pct, sum->max_perf_pct,
			sum->inefficiency_mismatches);
}

void em_export_dt(const struct em_profile *prof, FILE *out)
{
	const struct em_model *m = &prof->model;
	double max_ratio = 0;
	char cpus[1024];

	/* cpu_capacity = dmips * fmax normalised to the largest: dmips_d ~ cap_d / fmax_d */
	for (u32 d = 0; d < m->nr_domains; d++) {
		const struct em_domain *pd = &m->domains[d];
		double r = (double)em_domain_capacity(pd) / pd->opps[pd->nr_opps - 1].freq_khz;

		if (r > max_ratio)
			max_ratio = r;
	}
	fprintf(out, "/* Generated by gearbox %s from the energy model \"%s\" (%s).\n"
		" * Power in opp-microwatt (uW) per OPP; capacity-dmips-mhz so that\n"
		" * topology_normalize_cpu_scale() gives the model's capacities. */\n\n",
		GEARBOX_VERSION, prof->soc, prof->prov.source);
	for (u32 d = 0; d < m->nr_domains; d++) {
		const struct em_domain *pd = &m->domains[d];

		cpulist_format(&pd->cpus, cpus, sizeof(cpus));
		fprintf(out, "/* domain %s: CPUs %s */\n%s_opp_table: opp-table-%s {\n"
			"\tcompatible = \"operating-points-v2\";\n\topp-shared;\n\n", pd->name, cpus,
			pd->name, pd->name);
		for (u32 i = 0; i < pd->nr_opps; i++) {
			const struct em_opp *o = &pd->opps[i];

			fprintf(out, "\topp-%llu {\n\t\topp-hz = /bits/ 64 <%llu>;\n",
				(unsigned long long)o->freq_khz * 1000, (unsigned long long)o->freq_khz * 1000);
			if (o->voltage_uv)
				fprintf(out, "\t\topp-microvolt = <%u>;\n", o->voltage_uv);
			fprintf(out, "\t\topp-microwatt = <%u>;\n\t};\n", o->power_uw);
		}
		fputs("};\n\n", out);
	}
	for (u32 c = 0; c < m->nr_cpus; c++) {
		int d = em_domain_of_cpu(m, c);
		const struct em_domain *pd;
		double r;

		if (d < 0)
			continue;
		pd = &m->domains[d];
		r = (double)em_domain_capacity(pd) / pd->opps[pd->nr_opps - 1].freq_khz;
		fprintf(out, "&cpu%u {\n\tcapacity-dmips-mhz = <%ld>;\n\toperating-points-v2 = <&%s_opp_table>;\n};\n",
			c, lround(r / max_ratio * 1024), pd->name);
	}
}

/* Calls emit(path, value) for every file of the v6.9+ debugfs layout. */
static void debugfs_walk(const struct em_profile *prof,
			 void (*emit)(void *ctx, const char *path, const char *value), void *ctx)
{
	const struct em_model *m = &prof->model;
	char path[256], val[1024];

	for (u32 d = 0; d < m->nr_domains; d++) {
		const struct em_domain *pd = &m->domains[d];
		u32 flags = 1u /* MICROWATTS */ |
			    ((pd->flags & EM_PD_SKIP_INEFFICIENCIES) ? 2u : 0);

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
			static const char *const files[] = { "frequency", "power", "cost", "performance",
							    "inefficient" };
			unsigned long long v[] = { o->freq_khz, o->power_uw, (unsigned long long)o->cost,
						   o->perf, (o->flags & EM_OPP_INEFFICIENT) ? 1 : 0 };

			for (int k = 0; k < 5; k++) {
				snprintf(path, sizeof(path), "cpu%u/ps:%u/%s", pd->first_cpu, o->freq_khz,
					 files[k]);
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

struct tree_ctx {
	const char *dir;
	int rc;
	struct gb_err *err;
};

static void emit_file(void *vctx, const char *path, const char *value)
{
	struct tree_ctx *ctx = vctx;
	char full[4096];
	FILE *f;

	if (ctx->rc)
		return;
	snprintf(full, sizeof(full), "%s/%s", ctx->dir, path);
	for (char *p = full + strlen(ctx->dir) + 1; (p = strchr(p, '/')); p++) {
		*p = '\0';
		if (mkdir(full, 0755) && errno != EEXIST) {
			ctx->rc = gb_err_set(ctx->err, errno, "%s: %s", full, strerror(errno));
			return;
		}
		*p = '/';
	}
	f = fopen(full, "w");
	if (!f || fprintf(f, "%s\n", value) < 0) {
		ctx->rc = gb_err_set(ctx->err, errno ? errno : EIO, "%s: %s", full, strerror(errno));
		if (f)
			fclose(f);
		return;
	}
	fclose(f);
}

int em_export_debugfs_tree(const struct em_profile *prof, const char *dir, struct gb_err *err)
{
	struct tree_ctx ctx = { dir, 0, err };

	if (mkdir(dir, 0755) && errno != EEXIST)
		return gb_err_set(err, errno, "%s: %s", dir, strerror(errno));
	debugfs_walk(prof, emit_file, &ctx);
	return ctx.rc;
}
