// SPDX-License-Identifier: GPL-2.0-only
/*
 * progress.c - the progress file of a profile (profile.h): every measured OPP, rewritten after
 * each one, so that `gearbox profile --resume` continues an interrupted run where it stopped.
 *
 * Format (text, one record a line, fields separated by single spaces; names without spaces):
 *   gearbox-profile-progress/1
 *   run PLATFORM PERF_SOURCE SPLIT_CPUS NR_DOMAINS ELAPSED_NS TEMP_MIN_MC TEMP_MAX_MC COOL_WAITS
 *   dom D NAME NR_OPPS FREQ_KHZ...
 *   opp D K <the measured fields of struct prof_opp_result, in the order of opp_fields>
 * A resume must find the same platform, performance source, split and domains (names and
 * frequencies); the options that only decide how long an OPP is measured may differ.  The file
 * is a private file of prof_files.h: written under an unpredictable temporary name and
 * renamed, read back only from root.
 */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "prof_files.h"
#include "profile.h"

#define MAGIC	 "gearbox-profile-progress/1"
#define LINE_LEN 1024
#define FILE_CAP (64 + (EM_MAX_DOMAINS * (EM_MAX_OPPS + 1) + 1) * LINE_LEN)

static int opp_line(char *buf, size_t len, u32 d, u32 k, const struct prof_opp_result *r)
{
	return snprintf(buf, len,
			"opp %u %u %u %.17g %.17g %.17g %.17g %.17g %.17g %.17g %d %u %u %" PRIu64
			" %d %d %d %u %d %d %d %u %.17g %.17g %.17g %.17g %.17g %.17g\n",
			d, k, r->freq_khz, r->power_uw, r->power_ci_uw, r->active_uw, r->idle_uw,
			r->rate, r->rate_ci, r->eff_khz, (int)r->cycles, r->samples, r->rejected,
			(uint64_t)r->time_ns, r->converged, r->not_applied, r->temp_mc,
			r->measurements, r->perf_inconsistent, r->power_inconsistent, r->has_split,
			r->split_cpus, r->power_k_uw, r->power_k_ci_uw, r->static_uw,
			r->static_ci_uw, r->dynamic_uw, r->dynamic_ci_uw);
}

int prof_progress_save(const char *path, const char *platform, const struct prof_result *res,
		       struct gb_err *err)
{
	const struct prof_topology *t = &res->topo;
	char *buf = malloc(FILE_CAP);
	size_t n = 0;
	int ret;

	if (!buf)
		return gb_err_set(err, ENOMEM, "out of memory");
	n += (size_t)snprintf(buf + n, FILE_CAP - n, "%s\nrun %s %s %u %u %" PRIu64 " %d %d %u\n",
			      MAGIC, platform, prof_perf_src_name(t->perf_src), res->split_cpus,
			      t->nr_domains, (uint64_t)res->total_ns, res->temp_min_mc,
			      res->temp_max_mc, res->cool_waits);
	for (u32 d = 0; d < t->nr_domains; d++) {
		n += (size_t)snprintf(buf + n, FILE_CAP - n, "dom %u %s %u", d, t->dom[d].name,
				      t->dom[d].nr_opps);
		for (u32 k = 0; k < t->dom[d].nr_opps; k++)
			n += (size_t)snprintf(buf + n, FILE_CAP - n, " %u", t->dom[d].freq_khz[k]);
		n += (size_t)snprintf(buf + n, FILE_CAP - n, "\n");
	}
	for (u32 d = 0; d < t->nr_domains; d++)
		for (u32 k = 0; k < t->dom[d].nr_opps; k++)
			if (res->opp[d][k].measurements)
				n += (size_t)opp_line(buf + n, FILE_CAP - n, d, k, &res->opp[d][k]);
	ret = prof_private_write(path, buf, n, err);
	free(buf);
	if (ret < 0)
		gb_err_prefix(err, "the progress file");
	return ret;
}

static int parse_opp(char *line, struct prof_result *res, const char *path, u32 lineno,
		     struct gb_err *err)
{
	struct prof_opp_result r = {0};
	unsigned d, k;
	int cycles, conv, na, pi, wi, split;
	uint64_t time_ns;

	if (sscanf(line,
		   "opp %u %u %u %lg %lg %lg %lg %lg %lg %lg %d %u %u %" SCNu64
		   " %d %d %d %u %d %d %d %u %lg %lg %lg %lg %lg %lg",
		   &d, &k, &r.freq_khz, &r.power_uw, &r.power_ci_uw, &r.active_uw, &r.idle_uw,
		   &r.rate, &r.rate_ci, &r.eff_khz, &cycles, &r.samples, &r.rejected, &time_ns,
		   &conv, &na, &r.temp_mc, &r.measurements, &pi, &wi, &split, &r.split_cpus,
		   &r.power_k_uw, &r.power_k_ci_uw, &r.static_uw, &r.static_ci_uw, &r.dynamic_uw,
		   &r.dynamic_ci_uw) != 28)
		return gb_err_set(err, EINVAL, "%s: line %u: not an OPP record", path, lineno);
	if (d >= res->topo.nr_domains || k >= res->topo.dom[d].nr_opps ||
	    r.freq_khz != res->topo.dom[d].freq_khz[k] || r.measurements == 0 || cycles < 0 ||
	    cycles > PROF_CYCLES_OFF)
		return gb_err_set(err, EINVAL,
				  "%s: line %u: OPP %u:%u does not belong to this "
				  "profile",
				  path, lineno, d, k);
	r.cycles = (enum prof_cycles_check)cycles;
	r.time_ns = time_ns;
	r.converged = conv;
	r.not_applied = na;
	r.perf_inconsistent = pi;
	r.power_inconsistent = wi;
	r.has_split = split;
	res->opp[d][k] = r;
	return 0;
}

/* The run and domain records must describe this profile. */
static int check_header(char *line, u32 lineno, const char *platform, struct prof_result *res,
			const char *path, struct gb_err *err)
{
	const struct prof_topology *t = &res->topo;
	const char *perf_src = prof_perf_src_name(t->perf_src);
	char plat[32], src[32], name[EM_NAME_LEN], *p;
	unsigned split, nr, d, nk;
	uint64_t elapsed;
	int n;

	if (!strncmp(line, "run ", 4)) {
		if (sscanf(line, "run %31s %31s %u %u %" SCNu64 " %d %d %u", plat, src, &split, &nr,
			   &elapsed, &res->temp_min_mc, &res->temp_max_mc, &res->cool_waits) != 8)
			return gb_err_set(err, EINVAL, "%s: line %u: not a run record", path,
					  lineno);
		if (strcmp(plat, platform) || strcmp(src, perf_src) || split != res->split_cpus ||
		    nr != t->nr_domains)
			return gb_err_set(
			    err, EINVAL,
			    "%s: a profile of another kind (%s, %s, split "
			    "%u, %u domains; this one: %s, %s, split %u, %u domains): "
			    "not resumed",
			    path, plat, src, split, nr, platform, perf_src, res->split_cpus,
			    t->nr_domains);
		res->total_ns = elapsed;
		return 0;
	}
	_Static_assert(EM_NAME_LEN == 16, "the domain name's scanf width below");
	if (sscanf(line, "dom %u %15s %u%n", &d, name, &nk, &n) != 3 || d >= t->nr_domains)
		return gb_err_set(err, EINVAL, "%s: line %u: not a domain record", path, lineno);
	if (strcmp(name, t->dom[d].name) || nk != t->dom[d].nr_opps)
		return gb_err_set(err, EINVAL,
				  "%s: domain %u is %s with %u OPPs, here %s with %u: "
				  "not resumed",
				  path, d, name, nk, t->dom[d].name, t->dom[d].nr_opps);
	p = line + n;
	for (u32 k = 0; k < nk; k++) {
		char *end;
		unsigned long f = strtoul(p, &end, 10);

		if (end == p || f != t->dom[d].freq_khz[k])
			return gb_err_set(err, EINVAL,
					  "%s: domain %s: other OPPs than this board's: "
					  "not resumed",
					  path, name);
		p = end;
	}
	return 0;
}

int prof_progress_parse(char *buf, const char *path, const char *platform, struct prof_result *res,
			struct gb_err *err)
{
	char *save = NULL, *line = strtok_r(buf, "\n", &save);
	u32 lineno = 1;
	int ret = 0;

	if (!line || strcmp(line, MAGIC))
		ret = gb_err_set(err, EINVAL, "%s: not a gearbox profile progress file", path);
	while (ret == 0 && (line = strtok_r(NULL, "\n", &save))) {
		lineno++;
		if (!strncmp(line, "opp ", 4))
			ret = parse_opp(line, res, path, lineno, err);
		else
			ret = check_header(line, lineno, platform, res, path, err);
	}
	return ret;
}

int prof_progress_load(const char *path, const char *platform, struct prof_result *res,
		       struct gb_err *err)
{
	char *buf = malloc(FILE_CAP);
	int ret;

	if (!buf)
		return gb_err_set(err, ENOMEM, "out of memory");
	ret = prof_private_read(path, buf, FILE_CAP, err);
	if (ret == -ENOENT)
		gb_err_set(err, ENOENT, "nothing to resume: %s does not exist", path);
	if (ret == 0)
		ret = prof_progress_parse(buf, path, platform, res, err);
	free(buf);
	return ret;
}
