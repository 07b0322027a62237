// SPDX-License-Identifier: GPL-2.0-only
/*
 * em_import.c - freqbench and kernel debugfs importers (see em_import.h for the formulas).
 */
#include "em_import.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <jansson.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cpulist.h"
#include "robust.h"

void em_default_domain_name(unsigned n, unsigned i, char *buf, unsigned len)
{
	static const char *const two[] = {"little", "big"};
	static const char *const three[] = {"little", "mid", "big"};

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
			return gb_err_set(err, EINVAL, "--domains: more than %d domains",
					  EM_MAX_DOMAINS);
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

/*
 * Every power reading of a freqbench file is in mW and must lie within the model's power
 * limit (EM_MAX_POWER_UW, 64 W): a value outside is not a phone's CPU power in mW (a file in
 * other units, or a broken meter), and importing it would write a model the loader refuses.
 */
#define FB_MAX_POWER_MW (EM_MAX_POWER_UW / 1000.0)
#define FB_MAX_SCORE	1e9

static int fb_power_ok(double mw, const char *cpu, u32 khz, const char *what, struct gb_err *err)
{
	if (!isfinite(mw) || mw < -FB_MAX_POWER_MW || mw > FB_MAX_POWER_MW)
		return gb_err_set(err, ERANGE,
				  "cpu %s, %u kHz: %s %g mW is outside -%.0f..%.0f mW "
				  "(not a CPU's power in mW)",
				  cpu, khz, what, mw, FB_MAX_POWER_MW, FB_MAX_POWER_MW);
	return 0;
}

/* Power of one active OPP in mW: robust mean of the samples when there are some. */
static int fb_active_power(json_t *active, const char *cpu, u32 khz, double *power_mw,
			   struct em_opp_meta *meta, struct gb_err *err)
{
	json_t *samples = json_object_get(active, "power_samples");
	size_t n = json_is_array(samples) ? json_array_size(samples) : 0;
	struct robust_stats st;
	double *x;
	int rc;

	if (n >= 3) {
		size_t i, k = 0;
		json_t *v;

		x = calloc(n, sizeof(double));
		if (!x)
			return gb_err_set(err, ENOMEM, "out of memory");
		json_array_foreach (samples, i, v) {
			if (!json_is_number(v))
				continue;
			x[k] = json_number_value(v);
			if ((rc = fb_power_ok(x[k], cpu, khz, "a power sample", err))) {
				free(x);
				return rc;
			}
			k++;
		}
		if (k >= 3 && robust_summary(x, k, &st) == 0) {
			free(x);
			if (st.ci95 * 1000 > EM_MAX_POWER_UW)
				return gb_err_set(
				    err, ERANGE,
				    "cpu %s, %u kHz: the power samples "
				    "spread over +-%.0f mW, more than the model's %.0f mW",
				    cpu, khz, st.ci95, FB_MAX_POWER_MW);
			meta->has_spread = true;
			meta->power_spread_uw = (u32)llround(st.ci95 * 1000);
			meta->samples = st.kept < EM_MAX_SAMPLES ? (u32)st.kept : EM_MAX_SAMPLES;
			*power_mw = st.mean;
			return 0;
		}
		free(x);
	}
	*power_mw = json_number_value(json_object_get(active, "power_mean"));
	return fb_power_ok(*power_mw, cpu, khz, "active power_mean", err);
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
	int rc;

	*n = 0;
	json_object_foreach (freqs, k, v) {
		char *end;
		unsigned long f = strtoul(k, &end, 10);

		if (*end || !isdigit((unsigned char)k[0]) || f == 0 || f > EM_MAX_FREQ_KHZ)
			return gb_err_set(err, EINVAL, "cpu %s: bad frequency key \"%s\"", cpu, k);
		if (*n >= EM_MAX_OPPS)
			return gb_err_set(err, EINVAL, "cpu %s: more than %d frequencies", cpu,
					  EM_MAX_OPPS);
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
		if (!json_is_object(active) ||
		    !json_is_number(json_object_get(active, "power_mean")) ||
		    !json_is_number(json_object_get(active, "coremark_score")))
			return gb_err_set(err, EINVAL,
					  "cpu %s, %u kHz: missing active power_mean or "
					  "coremark_score",
					  cpu, keys[i]);
		memset(&pts[i], 0, sizeof(pts[i]));
		pts[i].freq_khz = keys[i];
		rc = fb_active_power(active, cpu, keys[i], &pts[i].power_mw, &pts[i].meta, err);
		if (rc)
			return rc;
		pts[i].score = json_number_value(json_object_get(active, "coremark_score"));
		if (!isfinite(pts[i].score) || pts[i].score <= 0 || pts[i].score > FB_MAX_SCORE)
			return gb_err_set(err, ERANGE,
					  "cpu %s, %u kHz: coremark_score %g is outside "
					  "0..%.0f (exclusive of 0)",
					  cpu, keys[i], pts[i].score, FB_MAX_SCORE);
		pts[i].idle_mw = 0;
		if (json_is_object(idle) && json_is_number(json_object_get(idle, "power_mean"))) {
			double idle_mw = json_number_value(json_object_get(idle, "power_mean"));

			rc = fb_power_ok(idle_mw, cpu, keys[i], "idle power_mean", err);
			if (rc)
				return rc;
			idle_mw -= baseline_mw;
			pts[i].idle_mw = idle_mw > 0 ? idle_mw : 0;
		}
	}
	return 0;
}

/* One 5 s idle reading per OPP is noisy (a spike makes it exceed the active power); a
 * clock-gated cluster's idle power barely depends on the OPP: the median of all readings
 * (those of OPPs left out below too: they are idle readings all the same). */
static double fb_idle_power(const struct fb_point *pts, u32 n)
{
	double idle[EM_MAX_OPPS];
	struct robust_stats st;

	for (u32 i = 0; i < n; i++)
		idle[i] = pts[i].idle_mw;
	return robust_summary(idle, n, &st) == 0 ? st.median : 0;
}

/*
 * Leaves out the OPPs that did not apply, with the two signs em validate --strict looks for
 * (em_profile.c): CoreMark's score scales with the frequency the CPU runs at, so an OPP whose
 * score per kHz is below EM_UNAPPLIED_RATIO of the cluster's median, or whose score rose less
 * than half as much as its frequency from the OPP kept below it, ran slower than that OPP (a
 * firmware or thermal cap).  The measurement describes another frequency; kept in the model it
 * would be a flat step.  Each left-out OPP is a warning and is named in the conditions.
 */
static void fb_drop_unapplied(struct fb_point *pts, u32 *n, const char *cpu, char *dropped,
			      size_t dropped_len, struct em_warnings *warn)
{
	double r[EM_MAX_OPPS], median;
	struct robust_stats st;
	u32 k = 0;

	for (u32 i = 0; i < *n; i++)
		r[i] = pts[i].score / pts[i].freq_khz;
	median = robust_summary(r, *n, &st) == 0 ? st.median : 0;
	for (u32 i = 0; i < *n; i++) {
		const struct fb_point *o = &pts[i], *p = k ? &pts[k - 1] : NULL;
		double perf_rise = p ? o->score / p->score - 1 : 0;
		double freq_rise = p ? (double)o->freq_khz / p->freq_khz - 1 : 0;

		if (r[i] < EM_UNAPPLIED_RATIO * median)
			em_add_warning(warn,
				       "cpu %s: %u kHz left out: its CoreMark per MHz is %.0f%% of "
				       "the cluster's median (the OPP did not apply)",
				       cpu, o->freq_khz, r[i] / median * 100);
		else if (p && perf_rise * 2 < freq_rise)
			em_add_warning(warn,
				       "cpu %s: %u kHz left out: CoreMark rose %.1f%% for %.1f%% "
				       "more frequency than %u kHz (the OPP did not apply)",
				       cpu, o->freq_khz, perf_rise * 100, freq_rise * 100,
				       p->freq_khz);
		else {
			pts[k++] = *o;
			continue;
		}
		snprintf(dropped + strlen(dropped), dropped_len - strlen(dropped),
			 "%scpu %s %u kHz", dropped[0] ? ", " : "", cpu, o->freq_khz);
	}
	*n = k;
}

static int fb_import(json_t *root, const char *path, const char *domains, const char *names,
		     struct em_profile *prof, struct em_warnings *warn, struct gb_err *err)
{
	struct fb_point(*pts)[EM_MAX_OPPS] = NULL;
	struct em_cpumask masks[EM_MAX_DOMAINS];
	u32 npts[EM_MAX_DOMAINS] = {0};
	unsigned nd = 0;
	json_t *cpus, *hk, *c;
	double baseline_mw = 0, max_score = 0, idle_mw[EM_MAX_DOMAINS] = {0};
	char dropped[EM_TEXT_LEN] = "";
	const char *cpu;
	int rc;

	em_profile_init(prof, "freqbench");
	if (warn)
		memset(warn, 0, sizeof(*warn));
	rc = parse_domain_spec(domains, masks, &nd, err);
	if (rc)
		return rc;
	cpus = json_object_get(root, "cpus");
	if (!json_is_object(cpus))
		return gb_err_set(err, EINVAL,
				  "%s: no \"cpus\" object: not a freqbench results file", path);
	hk = json_object_get(json_object_get(root, "housekeeping"), "power_mean");
	if (json_is_number(hk)) {
		baseline_mw = json_number_value(hk);
		if (!isfinite(baseline_mw) || baseline_mw < 0 || baseline_mw > FB_MAX_POWER_MW)
			return gb_err_set(err, ERANGE,
					  "%s: housekeeping power_mean %g mW is outside "
					  "0..%.0f mW (not a device's power in mW)",
					  path, baseline_mw, FB_MAX_POWER_MW);
	}
	pts = calloc(EM_MAX_DOMAINS, sizeof(*pts));
	if (!pts)
		return gb_err_set(err, ENOMEM, "out of memory");

	json_object_foreach (cpus, cpu, c) {
		char *end;
		unsigned long id = strtoul(cpu, &end, 10);
		int d = -1;

		for (unsigned i = 0; i < nd; i++)
			if (isdigit((unsigned char)cpu[0]) && !*end && id < EM_MAX_CPUS &&
			    em_cpumask_test(&masks[i], (u32)id))
				d = (int)i;
		if (d < 0) {
			rc = gb_err_set(err, EINVAL, "%s: cpu %s is in none of the --domains", path,
					cpu);
			goto out;
		}
		if (npts[d]) {
			rc = gb_err_set(err, EINVAL, "%s: two benchmarked CPUs in domain %d", path,
					d);
			goto out;
		}
		rc = fb_read_cluster(json_object_get(c, "freqs"), baseline_mw, pts[d], &npts[d],
				     cpu, err);
		if (rc) {
			gb_err_prefix(err, "%s", path);
			goto out;
		}
		idle_mw[d] = fb_idle_power(pts[d], npts[d]);
		fb_drop_unapplied(pts[d], &npts[d], cpu, dropped, sizeof(dropped), warn);
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
			rc = gb_err_set(err, EINVAL,
					"%s: domain %u (CPUs listed in --domains) has no "
					"benchmarked CPU in the file",
					path, d);
			goto out;
		}
		pd->cpus = masks[d];
		pd->nr_opps = npts[d];
		if (idle_mw[d] > FB_MAX_POWER_MW) {
			rc = gb_err_set(err, ERANGE,
					"%s: domain %u: idle power %.0f mW is above the "
					"model's %.0f mW",
					path, d, idle_mw[d], FB_MAX_POWER_MW);
			goto out;
		}
		pd->idle_power_uw = (u32)llround(idle_mw[d] * 1000);
		for (u32 i = 0; i < npts[d]; i++) {
			double p = pts[d][i].power_mw - idle_mw[d];

			/* readings are bounded by FB_MAX_POWER_MW: p * 1000 <= EM_MAX_POWER_UW */
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
			for (tok = strtok_r(buf, ",", &save); tok && k < d;
			     tok = strtok_r(NULL, ",", &save))
				k++;
			if (!tok || strlen(tok) >= EM_NAME_LEN) {
				rc = gb_err_set(err, EINVAL,
						"--names: need %u names of at most %d characters",
						nd, EM_NAME_LEN - 1);
				goto out;
			}
			snprintf(pd->name, sizeof(pd->name), "%s", tok);
		} else {
			em_default_domain_name(nd, d, pd->name, sizeof(pd->name));
		}
	}
	snprintf(
	    prof->prov.conditions, sizeof(prof->prov.conditions),
	    "freqbench: CoreMark on one CPU per cluster; power = robust mean of the samples "
	    "(outliers beyond %.0f MAD rejected) minus cluster idle at the same OPP; isotonic fit"
	    "%s%s",
	    ROBUST_K, dropped[0] ? "; left out (did not apply): " : "", dropped);
	rc = em_profile_finalize(prof, false, warn, err);
	if (rc)
		gb_err_prefix(err, "%s", path);
out:
	free(pts);
	return rc;
}

int em_import_freqbench(const char *path, const char *domains, const char *names,
			struct em_profile *prof, struct em_warnings *warn, struct gb_err *err)
{
	json_error_t jerr;
	json_t *root = json_load_file(path, 0, &jerr);
	int rc;

	if (!root)
		return gb_err_set(err, EINVAL, "%s: line %d: %s", path, jerr.line, jerr.text);
	rc = fb_import(root, path, domains, names, prof, warn, err);
	json_decref(root);
	return rc;
}

int em_import_freqbench_string(const char *text, size_t len, const char *name, const char *domains,
			       const char *names, struct em_profile *prof, struct em_warnings *warn,
			       struct gb_err *err)
{
	json_error_t jerr;
	json_t *root = json_loadb(text, len, 0, &jerr);
	int rc;

	if (!root)
		return gb_err_set(err, EINVAL, "%s: line %d: %s", name, jerr.line, jerr.text);
	rc = fb_import(root, name, domains, names, prof, warn, err);
	json_decref(root);
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

/*
 * A number in one debugfs file, as the kernel prints it: decimal ("%lu") for values, so a
 * leading 0 is not octal and a sign is an error; flags are "%#lx" (hex with 0x, or 0).
 * Range errors name the file, the value and the unit, before anything is converted to 32 bits.
 */
static int read_num(const char *dir, const char *name, bool hex_ok, unsigned long long lo,
		    unsigned long long hi, const char *unit, unsigned long long *v,
		    struct gb_err *err)
{
	char buf[64];
	const char *p = buf;
	unsigned base = 10;
	int rc = read_text(dir, name, buf, sizeof(buf));

	if (rc)
		return gb_err_set(err, -rc, "%s/%s: %s", dir, name, strerror(-rc));
	if (hex_ok && (!strncmp(buf, "0x", 2) || !strncmp(buf, "0X", 2))) {
		base = 16;
		p += 2;
	}
	if (!*p)
		return gb_err_set(err, EINVAL, "%s/%s: empty", dir, name);
	*v = 0;
	for (; *p; p++) {
		unsigned d;

		if (*p >= '0' && *p <= '9')
			d = (unsigned)(*p - '0');
		else if (base == 16 && isxdigit((unsigned char)*p))
			d = (unsigned)(tolower((unsigned char)*p) - 'a' + 10);
		else
			return gb_err_set(err, EINVAL, "%s/%s: \"%s\" is not a %s number", dir,
					  name, buf, base == 16 ? "hexadecimal" : "decimal");
		if (*v > (ULLONG_MAX - d) / base)
			return gb_err_set(err, ERANGE, "%s/%s: \"%s\" is too large", dir, name,
					  buf);
		*v = *v * base + d;
	}
	if (*v < lo || *v > hi)
		return gb_err_set(err, ERANGE, "%s/%s: %llu%s%s is outside %llu..%llu%s%s", dir,
				  name, *v, unit[0] ? " " : "", unit, lo, hi, unit[0] ? " " : "",
				  unit);
	return 0;
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
	if (read_text(pdir, "flags", buf, sizeof(buf)) == 0) {
		rc = read_num(pdir, "flags", true, 0, ULLONG_MAX, "", &flags, err);
		if (rc)
			return rc;
		if (flags & (1u << 2))
			return gb_err_set(err, EINVAL,
					  "%s: the kernel's EM is artificial (flags %#llx): "
					  "its power values are not physical",
					  pdir, flags);
		if (!(flags & 1u))
			return gb_err_set(err, EINVAL,
					  "%s: power values are in an abstract scale "
					  "(flags %#llx lacks MICROWATTS)",
					  pdir, flags);
	} else if (read_text(pdir, "units", buf, sizeof(buf)) == 0) {
		if (strcmp(buf, "milliWatts"))
			return gb_err_set(err, EINVAL,
					  "%s/units: \"%s\": only milliWatts can be imported", pdir,
					  buf);
		mw = true;
	} else {
		mw = true; /* v5.0-5.10: power in mW, no units file */
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
		if ((rc = read_num(sdir, "frequency", false, 1, EM_MAX_FREQ_KHZ, "kHz", &f, err)) ||
		    (rc = read_num(sdir, "power", false, 1,
				   mw ? EM_MAX_POWER_UW / 1000 : EM_MAX_POWER_UW, mw ? "mW" : "uW",
				   &p, err)))
			break;
		o = &pd->opps[pd->nr_opps++];
		memset(o, 0, sizeof(*o));
		o->freq_khz = (u32)f;
		o->power_uw = (u32)(mw ? p * 1000 : p);
		if (read_text(sdir, "performance", buf, sizeof(buf)) == 0) {
			rc = read_num(sdir, "performance", false, 1, EM_CAPACITY_SCALE, "", &perf,
				      err);
			if (rc)
				break;
			o->perf = (u32)perf;
		} else {
			*have_perf = false;
		}
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
		snprintf(cdir, sizeof(cdir), "%s/cpu%u",
			 cpu_sysfs ? cpu_sysfs : "/sys/devices/system/cpu", cpu);
		if (read_text(cdir, "cpu_capacity", buf, sizeof(buf)))
			return gb_err_set(err, EINVAL,
					  "%s: this kernel's EM has no performance values and "
					  "%s/cpu_capacity is unreadable (give --cpu-sysfs DIR)",
					  pdir, cdir);
		rc = read_num(cdir, "cpu_capacity", false, 1, EM_CAPACITY_SCALE, "", &cap, err);
		if (rc)
			return rc;
		for (u32 i = 0; i < pd->nr_opps; i++)
			pd->opps[i].perf = (u32)(cap * pd->opps[i].freq_khz / fmax);
	}
	return 0;
}

int em_import_debugfs(const char *dir, const char *cpu_sysfs, struct em_profile *prof,
		      struct em_warnings *warn, struct gb_err *err)
{
	char *names[EM_MAX_DOMAINS + 1];
	unsigned n = 0;
	struct dirent *e;
	DIR *d;
	int rc = 0;

	em_profile_init(prof, "debugfs");
	if (warn)
		memset(warn, 0, sizeof(*warn));
	d = opendir(dir);
	if (!d)
		return gb_err_set(err, errno, "%s: %s", dir, strerror(errno));
	while ((e = readdir(d))) {
		char sub[4096], buf[8];

		if (e->d_name[0] == '.')
			continue;
		snprintf(sub, sizeof(sub), "%s/%s", dir, e->d_name);
		if (read_text(sub, "cpus", buf, sizeof(buf)))
			continue; /* not a CPU perf domain (devfreq devices have no cpus file) */
		if (n >= EM_MAX_DOMAINS) {
			rc = gb_err_set(err, EINVAL, "%s: more than %d perf domains", dir,
					EM_MAX_DOMAINS);
			break;
		}
		names[n] = strdup(e->d_name);
		if (!names[n]) {
			rc = gb_err_set(err, ENOMEM, "out of memory");
			break;
		}
		n++;
	}
	closedir(d);
	if (!rc && n == 0)
		rc = gb_err_set(err, ENOENT,
				"%s: no CPU perf domains (is debugfs mounted and "
				"CONFIG_ENERGY_MODEL set?)",
				dir);
	qsort(names, n, sizeof(names[0]), cmp_name);
	for (unsigned i = 0; !rc && i < n; i++) {
		char pdir[4096];
		bool have_perf;

		snprintf(pdir, sizeof(pdir), "%s/%s", dir, names[i]);
		rc = dbg_read_domain(pdir, cpu_sysfs, &prof->model.domains[i], &have_perf, err);
		snprintf(prof->model.domains[i].name, EM_NAME_LEN, "%.*s", EM_NAME_LEN - 1,
			 names[i]);
	}
	for (unsigned i = 0; i < n; i++)
		free(names[i]);
	if (rc)
		return rc;
	prof->model.nr_domains = n;
	snprintf(prof->soc, sizeof(prof->soc), "kernel-em");
	snprintf(prof->prov.conditions, sizeof(prof->prov.conditions), "imported from %s", dir);
	rc = em_profile_finalize(prof, false, warn, err);
	if (rc)
		gb_err_prefix(err, "%s", dir);
	return rc;
}
