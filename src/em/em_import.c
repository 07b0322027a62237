// SPDX-License-Identifier: GPL-2.0-only
/*
 * em_import.c - freqbench and kernel debugfs importers (see em_import.h for the formulas).
 */
#include "em_import.h"

#include <dirent.h>
#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cpulist.h"
#include "robust.h"

void em_default_domain_name(unsigned n, unsigned i, char *buf, unsigned len)
{
	static const char *const two[] = { "little", "big" };
	static const char *const three[] = { "little", "mid", "big" };

	if (n == 2)
		snprintf(buf, len, "%s", two[i]);
	else if (n == 3)
		snprintf(buf, len, "%s", three[i]);
	else
		snprintf(buf, len, "pd%u", i);
}

/* Splits "0-3,4-6,7" (or "0-1,4:2-3") into one CPU mask per domain. */
static int parse_domain_spec(const char *spec, struct em_cpumask *masks, unsigned *n,
			     struct gb_err *err)
{
	char buf[1024], *save = NULL, *tok;
	const char *sep = strchr(spec, ':') ? ":" : ",";

	if (snprintf(buf, sizeof(buf), "%s", spec) >= (int)sizeof(buf))
		return gb_err_set(err, EINVAL, "--domains: too long");
	*n = 0;
	for (tok = strtok_r(buf, sep, &save); tok; tok = strtok_r(NULL, sep, &save)) {
		struct gb_err sub;

		if (*n >= EM_MAX_DOMAINS)
			return gb_err_set(err, EINVAL, "--domains: more than %d domains", EM_MAX_DOMAINS);
		if (cpulist_parse(tok, &masks[*n], &sub))
			return gb_err_set(err, EINVAL, "--domains: %s", sub.msg);
		(*n)++;
	}
	if (*n == 0)
		return gb_err_set(err, EINVAL, "--domains: no domains given");
	return 0;
}

static int cmp_u32(const void *a, const void *b)
{
	u32 x = *(const u32 *)a, y = *(const u32 *)b;

	return (x > y) - (x < y);
}

/* Power of one active OPP in mW: robust mean of the samples when there are some. */
static double fb_active_power(json_t *active, struct em_opp_meta *meta)
{
	json_t *samples = json_object_get(active, "power_samples");
	size_t n = json_is_array(samples) ? json_array_size(samples) : 0;
	struct robust_stats st;
	double *x;

	if (n >= 3 && (x = calloc(n, sizeof(double)))) {
		size_t i, k = 0;
		json_t *v;

		json_array_foreach(samples, i, v)
			if (json_is_number(v))
				x[k++] = json_number_value(v);
		if (k >= 3 && robust_summary(x, k, &st) == 0) {
			free(x);
			meta->has_spread = true;
			meta->power_spread_uw = (u32)llround(st.ci95 * 1000);
			meta->samples = (u32)st.kept;
			return st.mean;
		}
		free(x);
	}
	return json_number_value(json_object_get(active, "power_mean"));
}

/* Makes out[] strictly increasing integers in 1..max close to the least-squares monotone fit
 * of raw[]: ties left by pooling (or by rounding) are broken by one unit, upwards where there is
 * room and downwards from max where there is not. */
static void fit_monotone_u32(const double *raw, u32 n, u32 max, u32 *out)
{
	double fit[EM_MAX_OPPS];

	isotonic_fit(raw, NULL, n, fit);
	for (u32 i = 0; i < n; i++) {
		double v = fit[i] < 1 ? 1 : fit[i] > max ? max : fit[i];

		out[i] = (u32)llround(v);
		if (i && out[i] <= out[i - 1])
			out[i] = out[i - 1] + 1;
	}
	for (u32 i = n; i-- > 0;) {
		u32 lim = i + 1 < n ? out[i + 1] - 1 : max;

		if (out[i] > lim)
			out[i] = lim;
	}
}

struct fb_point {
	u32 freq_khz;
	double power_mw;
	double idle_mw;
	double score;
	struct em_opp_meta meta;
};

static int fb_read_cluster(json_t *freqs, double baseline_mw, struct fb_point *pts, u32 *n,
			   const char *cpu, struct gb_err *err)
{
	u32 keys[EM_MAX_OPPS];
	const char *k;
	json_t *v;

	*n = 0;
	json_object_foreach(freqs, k, v) {
		char *end;
		unsigned long f = strtoul(k, &end, 10);

		if (*end || f == 0 || f > 100000000)
			return gb_err_set(err, EINVAL, "cpu %s: bad frequency key \"%s\"", cpu, k);
		if (*n >= EM_MAX_OPPS)
			return gb_err_set(err, EINVAL, "cpu %s: more than %d frequencies", cpu, EM_MAX_OPPS);
		keys[(*n)++] = (u32)f;
	}
	qsort(keys, *n, sizeof(keys[0]), cmp_u32);
	for (u32 i = 0; i < *n; i++) {
		char key[16];
		json_t *f, *active, *idle;

		snprintf(key, sizeof(key), "%u", keys[i]);
		f = json_object_get(freqs, key);
		active = json_object_get(f, "active");
		idle = json_object_get(f, "idle");
		if (!json_is_object(active) || !json_is_number(json_object_get(active, "power_mean")) ||
		    !json_is_number(json_object_get(active, "coremark_score")))
			return gb_err_set(err, EINVAL, "cpu %s, %u kHz: missing active power_mean or "
					  "coremark_score", cpu, keys[i]);
		memset(&pts[i], 0, sizeof(pts[i]));
		pts[i].freq_khz = keys[i];
		pts[i].power_mw = fb_active_power(active, &pts[i].meta);
		pts[i].score = json_number_value(json_object_get(active, "coremark_score"));
		pts[i].idle_mw = 0;
		if (json_is_object(idle) && json_is_number(json_object_get(idle, "power_mean"))) {
			double idle_mw = json_number_value(json_object_get(idle, "power_mean")) - baseline_mw;

			pts[i].idle_mw = idle_mw > 0 ? idle_mw : 0;
		}
	}
	return 0;
}

int em_import_freqbench(const char *path, const char *domains, const char *names,
			struct em_profile *prof, struct gb_err *err)
{
	struct fb_point (*pts)[EM_MAX_OPPS] = NULL;
	struct em_cpumask masks[EM_MAX_DOMAINS];
	u32 npts[EM_MAX_DOMAINS] = { 0 };
	unsigned nd = 0;
	json_error_t jerr;
	json_t *root, *cpus, *hk, *c;
	double baseline_mw = 0, max_score = 0;
	const char *cpu;
	int rc;

	em_profile_init(prof, "freqbench");
	rc = parse_domain_spec(domains, masks, &nd, err);
	if (rc)
		return rc;
	root = json_load_file(path, 0, &jerr);
	if (!root)
		return gb_err_set(err, EINVAL, "%s: line %d: %s", path, jerr.line, jerr.text);
	pts = calloc(EM_MAX_DOMAINS, sizeof(*pts));
	if (!pts) {
		json_decref(root);
		return gb_err_set(err, ENOMEM, "out of memory");
	}
	cpus = json_object_get(root, "cpus");
	if (!json_is_object(cpus)) {
		json_decref(root);
		free(pts);
		return gb_err_set(err, EINVAL, "%s: no \"cpus\" object: not a freqbench results file", path);
	}
	hk = json_object_get(json_object_get(root, "housekeeping"), "power_mean");
	if (json_is_number(hk))
		baseline_mw = json_number_value(hk);

	json_object_foreach(cpus, cpu, c) {
		char *end;
		unsigned long id = strtoul(cpu, &end, 10);
		int d = -1;

		for (unsigned i = 0; i < nd; i++)
			if (!*end && id < EM_MAX_CPUS && em_cpumask_test(&masks[i], (u32)id))
				d = (int)i;
		if (d < 0) {
			rc = gb_err_set(err, EINVAL, "%s: cpu %s is in none of the --domains", path, cpu);
			goto out;
		}
		if (npts[d]) {
			rc = gb_err_set(err, EINVAL, "%s: two benchmarked CPUs in domain %d", path, d);
			goto out;
		}
		rc = fb_read_cluster(json_object_get(c, "freqs"), baseline_mw, pts[d], &npts[d], cpu, err);
		if (rc) {
			gb_err_prefix(err, "%s", path);
			goto out;
		}
		for (u32 i = 0; i < npts[d]; i++)
			if (pts[d][i].score > max_score)
				max_score = pts[d][i].score;
	}
	if (max_score <= 0) {
		rc = gb_err_set(err, EINVAL, "%s: no CoreMark scores", path);
		goto out;
	}

	prof->model.nr_domains = nd;
	for (unsigned d = 0; d < nd; d++) {
		struct em_domain *pd = &prof->model.domains[d];
		double raw_power[EM_MAX_OPPS], raw_perf[EM_MAX_OPPS];
		u32 power[EM_MAX_OPPS], perf[EM_MAX_OPPS];

		if (!npts[d]) {
			rc = gb_err_set(err, EINVAL, "%s: domain %u (CPUs listed in --domains) has no "
					"benchmarked CPU in the file", path, d);
			goto out;
		}
		double idle[EM_MAX_OPPS], idle_mw;
		struct robust_stats ist;

		pd->cpus = masks[d];
		pd->nr_opps = npts[d];
		/* One 5 s idle reading per OPP is noisy (a spike makes it exceed the active power);
		 * a clock-gated cluster's idle power barely depends on the OPP: take the median. */
		for (u32 i = 0; i < npts[d]; i++)
			idle[i] = pts[d][i].idle_mw;
		idle_mw = robust_summary(idle, npts[d], &ist) == 0 ? ist.median : 0;
		pd->idle_power_uw = (u32)llround(idle_mw * 1000);
		for (u32 i = 0; i < npts[d]; i++) {
			double p = pts[d][i].power_mw - idle_mw;

			raw_power[i] = (p > 0.001 ? p : 0.001) * 1000;
			raw_perf[i] = pts[d][i].score / max_score * EM_CAPACITY_SCALE;
			if (raw_perf[i] < 1)
				raw_perf[i] = 1;
		}
		fit_monotone_u32(raw_power, npts[d], EM_MAX_POWER_UW, power);
		fit_monotone_u32(raw_perf, npts[d], EM_CAPACITY_SCALE, perf);
		for (u32 i = 0; i < npts[d]; i++) {
			struct em_opp *o = &pd->opps[i];
			struct em_opp_meta *m = &prof->meta[d][i];
			u32 rp = (u32)llround(raw_power[i]), rf = (u32)llround(raw_perf[i]);

			o->freq_khz = pts[d][i].freq_khz;
			o->power_uw = power[i];
			o->perf = perf[i];
			*m = pts[d][i].meta;
			if (rp != o->power_uw || rf != o->perf) {
				m->has_raw = true;
				m->raw_power_uw = rp;
				m->raw_perf = rf;
			}
		}
		if (names) {
			char buf[256], *save = NULL, *tok;
			unsigned k = 0;

			snprintf(buf, sizeof(buf), "%s", names);
			for (tok = strtok_r(buf, ",", &save); tok && k < d; tok = strtok_r(NULL, ",", &save))
				k++;
			if (!tok || strlen(tok) >= EM_NAME_LEN) {
				rc = gb_err_set(err, EINVAL, "--names: need %u names of at most %d characters",
						nd, EM_NAME_LEN - 1);
				goto out;
			}
			snprintf(pd->name, sizeof(pd->name), "%s", tok);
		} else {
			em_default_domain_name(nd, d, pd->name, sizeof(pd->name));
		}
	}
	snprintf(prof->prov.conditions, sizeof(prof->prov.conditions),
		 "freqbench: CoreMark on one CPU per cluster; power = robust mean of the samples "
		 "(outliers beyond %.0f MAD rejected) minus cluster idle at the same OPP; isotonic fit",
		 ROBUST_K);
	rc = em_profile_finalize(prof, false, NULL, err);
	if (rc)
		gb_err_prefix(err, "%s", path);
out:
	json_decref(root);
	free(pts);
	return rc;
}

/* --- debugfs --- */

static int read_text(const char *dir, const char *name, char *buf, size_t len)
{
	char path[4096];
	FILE *f;
	size_t n;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	f = fopen(path, "r");
	if (!f)
		return -errno;
	n = fread(buf, 1, len - 1, f);
	fclose(f);
	buf[n] = '\0';
	while (n && (buf[n - 1] == '\n' || buf[n - 1] == ' '))
		buf[--n] = '\0';
	return 0;
}

static int read_ulong(const char *dir, const char *name, unsigned long long *v)
{
	char buf[64], *end;
	int rc = read_text(dir, name, buf, sizeof(buf));

	if (rc)
		return rc;
	*v = strtoull(buf, &end, 0);
	return (end == buf || *end) ? -EINVAL : 0;
}

static int cmp_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int dbg_read_domain(const char *pdir, const char *cpu_sysfs, struct em_domain *pd,
			   bool *have_perf, struct gb_err *err)
{
	char buf[256];
	struct gb_err sub;
	struct dirent *e;
	DIR *dir;
	bool mw = false;
	unsigned long long flags;
	int rc;

	if (read_text(pdir, "cpus", buf, sizeof(buf)))
		return gb_err_set(err, EINVAL, "%s: no cpus file", pdir);
	if (cpulist_parse(buf, &pd->cpus, &sub))
		return gb_err_set(err, EINVAL, "%s/cpus: %s", pdir, sub.msg);
	if (read_ulong(pdir, "flags", &flags) == 0) {
		if (flags & (1u << 2))
			return gb_err_set(err, EINVAL, "%s: the kernel's EM is artificial (flags %#llx): "
					  "its power values are not physical", pdir, flags);
		mw = !(flags & 1u);
		if (mw)
			return gb_err_set(err, EINVAL, "%s: power values are in an abstract scale "
					  "(flags %#llx lacks MICROWATTS)", pdir, flags);
	} else if (read_text(pdir, "units", buf, sizeof(buf)) == 0) {
		if (strcmp(buf, "milliWatts"))
			return gb_err_set(err, EINVAL, "%s/units: \"%s\": only milliWatts can be imported",
					  pdir, buf);
		mw = true;
	} else {
		mw = true;   /* v5.0-5.10: power in mW, no units file */
	}

	dir = opendir(pdir);
	if (!dir)
		return gb_err_set(err, errno, "%s: %s", pdir, strerror(errno));
	pd->nr_opps = 0;
	*have_perf = true;
	rc = 0;
	while ((e = readdir(dir))) {
		char sdir[4096];
		unsigned long long f, p, perf;
		struct em_opp *o;

		if (strncmp(e->d_name, "ps:", 3) && strncmp(e->d_name, "cs:", 3))
			continue;
		if (pd->nr_opps >= EM_MAX_OPPS) {
			rc = gb_err_set(err, EINVAL, "%s: more than %d OPPs", pdir, EM_MAX_OPPS);
			break;
		}
		snprintf(sdir, sizeof(sdir), "%s/%s", pdir, e->d_name);
		if (read_ulong(sdir, "frequency", &f) || read_ulong(sdir, "power", &p)) {
			rc = gb_err_set(err, EINVAL, "%s: unreadable frequency or power", sdir);
			break;
		}
		o = &pd->opps[pd->nr_opps++];
		memset(o, 0, sizeof(*o));
		o->freq_khz = (u32)f;
		o->power_uw = (u32)(mw ? p * 1000 : p);
		if (read_ulong(sdir, "performance", &perf) == 0)
			o->perf = (u32)perf;
		else
			*have_perf = false;
	}
	closedir(dir);
	if (rc)
		return rc;
	if (pd->nr_opps == 0)
		return gb_err_set(err, EINVAL, "%s: no ps:* or cs:* OPP directories", pdir);
	/* readdir order is arbitrary: sort by frequency */
	for (u32 i = 1; i < pd->nr_opps; i++)
		for (u32 j = i; j > 0 && pd->opps[j - 1].freq_khz > pd->opps[j].freq_khz; j--) {
			struct em_opp t = pd->opps[j];

			pd->opps[j] = pd->opps[j - 1];
			pd->opps[j - 1] = t;
		}
	if (!*have_perf) {
		unsigned long long cap;
		char cdir[4096];
		u32 fmax = pd->opps[pd->nr_opps - 1].freq_khz;
		u32 cpu = 0;

		while (cpu < EM_MAX_CPUS && !em_cpumask_test(&pd->cpus, cpu))
			cpu++;
		snprintf(cdir, sizeof(cdir), "%s/cpu%u", cpu_sysfs ? cpu_sysfs : "/sys/devices/system/cpu",
			 cpu);
		if (read_ulong(cdir, "cpu_capacity", &cap) || cap == 0 || cap > EM_CAPACITY_SCALE)
			return gb_err_set(err, EINVAL, "%s: this kernel's EM has no performance values and "
					  "%s/cpu_capacity is unreadable (give --cpu-sysfs DIR)", pdir, cdir);
		for (u32 i = 0; i < pd->nr_opps; i++)
			pd->opps[i].perf = (u32)(cap * pd->opps[i].freq_khz / fmax);
	}
	return 0;
}

int em_import_debugfs(const char *dir, const char *cpu_sysfs, struct em_profile *prof,
		      struct gb_err *err)
{
	char *names[EM_MAX_DOMAINS + 1];
	unsigned n = 0;
	struct dirent *e;
	DIR *d;
	int rc = 0;

	em_profile_init(prof, "debugfs");
	d = opendir(dir);
	if (!d)
		return gb_err_set(err, errno, "%s: %s", dir, strerror(errno));
	while ((e = readdir(d))) {
		char sub[4096], buf[8];

		if (e->d_name[0] == '.')
			continue;
		snprintf(sub, sizeof(sub), "%s/%s", dir, e->d_name);
		if (read_text(sub, "cpus", buf, sizeof(buf)))
			continue;   /* not a CPU perf domain (devfreq devices have no cpus file) */
		if (n >= EM_MAX_DOMAINS) {
			rc = gb_err_set(err, EINVAL, "%s: more than %d perf domains", dir, EM_MAX_DOMAINS);
			break;
		}
		names[n++] = strdup(e->d_name);
	}
	closedir(d);
	if (!rc && n == 0)
		rc = gb_err_set(err, ENOENT, "%s: no CPU perf domains (is debugfs mounted and "
				"CONFIG_ENERGY_MODEL set?)", dir);
	qsort(names, n, sizeof(names[0]), cmp_name);
	for (unsigned i = 0; !rc && i < n; i++) {
		char pdir[4096];
		bool have_perf;

		snprintf(pdir, sizeof(pdir), "%s/%s", dir, names[i]);
		rc = dbg_read_domain(pdir, cpu_sysfs, &prof->model.domains[i], &have_perf, err);
		snprintf(prof->model.domains[i].name, EM_NAME_LEN, "%.*s", EM_NAME_LEN - 1, names[i]);
	}
	for (unsigned i = 0; i < n; i++)
		free(names[i]);
	if (rc)
		return rc;
	prof->model.nr_domains = n;
	snprintf(prof->soc, sizeof(prof->soc), "kernel-em");
	snprintf(prof->prov.conditions, sizeof(prof->prov.conditions), "imported from %s", dir);
	rc = em_profile_finalize(prof, false, NULL, err);
	if (rc)
		gb_err_prefix(err, "%s", dir);
	return rc;
}
