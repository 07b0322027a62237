// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_em.c - the energy-model library: kernel-equivalent math on hand-computed cases, the
 * loader's derivations, stable writing, the limits, and the importers.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cpulist.h"
#include "em_export.h"
#include "em_import.h"
#include "em_model.h"
#include "em_profile.h"
#include "robust.h"
#include "tap.h"

static struct em_profile prof, prof2;

static void set_opp(struct em_domain *pd, u32 i, u32 khz, u32 power_uw, u32 perf)
{
	pd->opps[i].freq_khz = khz;
	pd->opps[i].power_uw = power_uw;
	pd->opps[i].perf = perf;
}

/* (perf, power) = (100, 100 mW), (200, 150 mW), (300, 300 mW):
 * costs 100000*10/100 = 10000, 150000*10/200 = 7500, 300000*10/300 = 10000. */
static void three_opp_domain(struct em_domain *pd)
{
	memset(pd, 0, sizeof(*pd));
	pd->nr_opps = 3;
	set_opp(pd, 0, 500000, 100000, 100);
	set_opp(pd, 1, 1000000, 150000, 200);
	set_opp(pd, 2, 1500000, 300000, 300);
}

static void test_cost_is_power_times_10_over_perf(void)
{
	struct em_domain pd;

	three_opp_domain(&pd);
	CHECK_EQ_I(em_compute_costs(&pd), 0);
	CHECK_EQ_U(pd.opps[0].cost, 10000);
	CHECK_EQ_U(pd.opps[1].cost, 7500);
	CHECK_EQ_U(pd.opps[2].cost, 10000);
}

static void test_opp_dominated_by_a_higher_one_is_inefficient(void)
{
	struct em_domain pd;

	three_opp_domain(&pd);
	em_compute_costs(&pd);
	CHECK(pd.opps[0].flags & EM_OPP_INEFFICIENT); /* 10000 >= 7500 of OPP 1 */
	CHECK(!(pd.opps[1].flags & EM_OPP_INEFFICIENT));
	CHECK(!(pd.opps[2].flags & EM_OPP_INEFFICIENT)); /* the top one never is */
	CHECK(pd.flags & EM_PD_SKIP_INEFFICIENCIES);
}

static void test_equal_cost_lower_opp_is_inefficient(void)
{
	struct em_domain pd;

	memset(&pd, 0, sizeof(pd));
	pd.nr_opps = 2;
	set_opp(&pd, 0, 1000, 1000, 100); /* cost 100 */
	set_opp(&pd, 1, 2000, 2000, 200); /* cost 100: same energy per work, more speed */
	em_compute_costs(&pd);
	CHECK(pd.opps[0].flags & EM_OPP_INEFFICIENT);
}

static void test_monotone_cost_has_no_inefficiency(void)
{
	struct em_domain pd;

	memset(&pd, 0, sizeof(pd));
	pd.nr_opps = 3;
	set_opp(&pd, 0, 1000, 1000, 100);
	set_opp(&pd, 1, 2000, 3000, 200);
	set_opp(&pd, 2, 3000, 6000, 300);
	em_compute_costs(&pd);
	for (int i = 0; i < 3; i++)
		CHECK(!(pd.opps[i].flags & EM_OPP_INEFFICIENT));
	CHECK(!(pd.flags & EM_PD_SKIP_INEFFICIENCIES));
	CHECK_EQ_U(em_efficient_state(&pd, 1), 0);
}

static void test_efficient_state_skips_inefficient_and_saturates(void)
{
	struct em_domain pd;

	three_opp_domain(&pd);
	em_compute_costs(&pd);
	CHECK_EQ_U(em_efficient_state(&pd, 50), 1);  /* OPP 0 fits but is inefficient */
	CHECK_EQ_U(em_efficient_state(&pd, 200), 1); /* perf >= util, exactly */
	CHECK_EQ_U(em_efficient_state(&pd, 201), 2);
	CHECK_EQ_U(em_efficient_state(&pd, 5000), 2); /* nothing fits: the highest */
	/* from a start OPP the search agrees wherever the answer is at or above the start */
	for (u32 start = 0; start < 3; start++)
		for (u32 util = 0; util <= 400; util += 25)
			if (em_efficient_state(&pd, util) >= start)
				CHECK_EQ_U(em_efficient_state_from(&pd, util, start),
					   em_efficient_state(&pd, util));
	CHECK_EQ_U(em_efficient_state_from(&pd, 50, 2), 2); /* never below the start */
}

static void test_domain_energy_is_cost_of_state_times_sum_util(void)
{
	struct em_domain pd;

	three_opp_domain(&pd);
	em_compute_costs(&pd);
	/* max util 150 -> OPP 1 (cost 7500); busy 400 -> 3,000,000 */
	CHECK_EQ_U(em_domain_energy(&pd, 150, 400, 1024), 3000000);
	/* max util 250 -> OPP 2 (cost 10000) */
	CHECK_EQ_U(em_domain_energy(&pd, 250, 400, 1024), 4000000);
	/* capped by the allowed capacity (thermal pressure): 250 -> 200 -> OPP 1 */
	CHECK_EQ_U(em_domain_energy(&pd, 250, 400, 200), 3000000);
	CHECK_EQ_U(em_domain_energy(&pd, 250, 0, 1024), 0);
}

static void test_cpulist_round_trip_and_errors(void)
{
	struct em_cpumask m;
	struct gb_err err;
	char buf[64];

	CHECK_EQ_I(cpulist_parse("0-3,6,8-9", &m, &err), 0);
	CHECK_EQ_U(cpumask_weight(&m), 7);
	cpulist_format(&m, buf, sizeof(buf));
	CHECK(!strcmp(buf, "0-3,6,8-9"));
	CHECK_EQ_I(cpulist_parse("255", &m, &err), 0);
	CHECK(em_cpumask_test(&m, 255));
	CHECK(cpulist_parse("3-1", &m, &err) < 0);
	CHECK_STR_CONTAINS(err.msg, "reversed");
	CHECK(cpulist_parse("256", &m, &err) < 0);
	CHECK_STR_CONTAINS(err.msg, "below 256");
	CHECK(cpulist_parse("1,x", &m, &err) < 0);
	CHECK(cpulist_parse("", &m, &err) < 0);
}

static void test_robust_mean_ignores_spikes(void)
{
	double x[40];
	struct robust_stats st;

	for (int i = 0; i < 40; i++)
		x[i] = 30.0 + (i % 5) * 0.1; /* 30.0 .. 30.4, mean 30.2 */
	x[7] = 415;			     /* the freqbench spike */
	x[23] = 410;
	CHECK_EQ_I(robust_summary(x, 40, &st), 0);
	CHECK_EQ_U(st.rejected, 2);
	CHECK(st.mean > 30.15 && st.mean < 30.25);
	CHECK(st.ci95 > 0 && st.ci95 < 0.1);
}

static void test_isotonic_fit_pools_violators(void)
{
	double y[] = {1, 3, 2, 4}, fit[4];

	isotonic_fit(y, NULL, 4, fit);
	CHECK(fit[0] == 1 && fit[1] == 2.5 && fit[2] == 2.5 && fit[3] == 4);
}

static const char small_json[] =
    "{ \"format\": \"gearbox-em/1\", \"soc\": \"t\", \"provenance\": { \"source\": \"manual\" },\n"
    "  \"domains\": [\n"
    "    { \"name\": \"big\", \"cpus\": \"2-3\", \"opps\": [\n"
    "      { \"freq_khz\": 1000000, \"power_uw\": 200000, \"perf\": 512 },\n"
    "      { \"freq_khz\": 2000000, \"power_uw\": 800000, \"perf\": 1024 } ] },\n"
    "    { \"name\": \"little\", \"cpus\": [0, 1], \"idle_power_uw\": 5000, \"opps\": [\n"
    "      { \"freq_khz\": 500000, \"power_uw\": 20000, \"perf\": 100, \"voltage_uv\": 600000 },\n"
    "      { \"freq_khz\": 1000000, \"power_uw\": 50000, \"perf\": 200,\n"
    "        \"spread\": { \"power_uw\": 300, \"samples\": 40 } } ] } ] }\n";

static void test_loader_orders_domains_by_capacity_and_maps_cpus(void)
{
	struct gb_err err;

	CHECK_EQ_I(em_profile_load_string(small_json, sizeof(small_json) - 1, "t.json", &prof,
					  false, NULL, &err),
		   0);
	CHECK_EQ_U(prof.model.nr_domains, 2);
	CHECK(!strcmp(prof.model.domains[0].name, "little"));
	CHECK(!strcmp(prof.model.domains[1].name, "big"));
	CHECK_EQ_U(prof.model.nr_cpus, 4);
	CHECK_EQ_I(em_domain_of_cpu(&prof.model, 0), 0);
	CHECK_EQ_I(em_domain_of_cpu(&prof.model, 3), 1);
	CHECK_EQ_I(em_domain_of_cpu(&prof.model, 4), -1);
	CHECK_EQ_U(prof.model.domains[0].nr_cpus, 2);
	CHECK_EQ_U(prof.model.domains[1].first_cpu, 2);
	CHECK_EQ_U(prof.model.domains[0].idle_power_uw, 5000);
	CHECK_EQ_U(prof.model.domains[0].opps[0].voltage_uv, 600000);
	CHECK(prof.meta[0][1].has_spread);
	CHECK_EQ_U(prof.meta[0][1].samples, 40);
	/* cost is derived: 20000 * 10 / 100 */
	CHECK_EQ_U(prof.model.domains[0].opps[0].cost, 2000);
}

static char *write_to_string(const struct em_profile *p, size_t *len)
{
	char *buf = NULL;
	FILE *f = open_memstream(&buf, len);

	em_profile_write(p, f);
	fclose(f);
	return buf;
}

static void test_writing_is_stable_across_a_round_trip(void)
{
	struct gb_err err;
	size_t l1, l2;
	char *a, *b;

	CHECK_EQ_I(em_profile_load_string(small_json, sizeof(small_json) - 1, "t", &prof, false,
					  NULL, &err),
		   0);
	a = write_to_string(&prof, &l1);
	CHECK_EQ_I(em_profile_load_string(a, l1, "a", &prof2, false, NULL, &err), 0);
	b = write_to_string(&prof2, &l2);
	CHECK_EQ_U(l1, l2);
	CHECK(l1 == l2 && !memcmp(a, b, l1));
	CHECK_STR_CONTAINS(a, "{ \"freq_khz\": 500000, \"power_uw\": 20000, \"perf\": 100, "
			      "\"voltage_uv\": 600000 },\n");
	free(a);
	free(b);
}

/* A generated profile: nd domains of nc CPUs and no OPPs each, perf rising across domains. */
static char *generate(int nd, int no, int nc, int first_cpu_of_last)
{
	size_t cap = 4u << 20, n = 0;
	char *s = malloc(cap);

	n += (size_t)snprintf(s + n, cap - n,
			      "{\"format\":\"gearbox-em/1\",\"soc\":\"gen\","
			      "\"provenance\":{\"source\":\"manual\"},\"domains\":[");
	for (int d = 0; d < nd; d++) {
		int cpu0 = d == nd - 1 && first_cpu_of_last >= 0 ? first_cpu_of_last : d * nc;

		n += (size_t)snprintf(s + n, cap - n, "%s{\"cpus\":\"%d-%d\",\"opps\":[",
				      d ? "," : "", cpu0, cpu0 + nc - 1);
		for (int i = 0; i < no; i++)
			n += (size_t)snprintf(
			    s + n, cap - n, "%s{\"freq_khz\":%d,\"power_uw\":%d,\"perf\":%d}",
			    i ? "," : "", 100000 * (i + 1), 1000 * (i + 1) * (d + 1),
			    (d * no + i + 1) * 1024 / (nd * no) > 0
				? (d * no + i + 1) * 1024 / (nd * no)
				: 1);
		n += (size_t)snprintf(s + n, cap - n, "]}");
	}
	snprintf(s + n, cap - n, "]}");
	return s;
}

static void test_profile_at_the_limits_loads(void)
{
	/* 64 domains x 32 OPPs x 4 CPUs = 256 CPUs; perf 1..1024 strictly rising per domain */
	char *s = generate(EM_MAX_DOMAINS, 16, EM_MAX_CPUS / EM_MAX_DOMAINS, -1);
	struct gb_err err;
	int rc = em_profile_load_string(s, strlen(s), "gen", &prof, false, NULL, &err);

	if (rc)
		printf("# %s\n", err.msg);
	CHECK_EQ_I(rc, 0);
	CHECK_EQ_U(prof.model.nr_domains, EM_MAX_DOMAINS);
	CHECK_EQ_U(prof.model.nr_cpus, EM_MAX_CPUS);
	CHECK_EQ_I(em_domain_of_cpu(&prof.model, 255), 63);
	free(s);
	/* 32 OPPs per domain on 32 domains (the perf scale has only 1024 steps to share) */
	s = generate(32, EM_MAX_OPPS, 8, -1);
	rc = em_profile_load_string(s, strlen(s), "gen32", &prof, false, NULL, &err);
	if (rc)
		printf("# %s\n", err.msg);
	CHECK_EQ_I(rc, 0);
	CHECK_EQ_U(prof.model.domains[0].nr_opps, EM_MAX_OPPS);
	free(s);
}

static void test_profile_over_the_limits_is_rejected(void)
{
	struct gb_err err;
	char *s;

	s = generate(EM_MAX_DOMAINS + 1, 2, 1, -1);
	CHECK(em_profile_load_string(s, strlen(s), "g", &prof, false, NULL, &err) < 0);
	CHECK_STR_CONTAINS(err.msg, "65 perf domains, at most 64");
	free(s);
	s = generate(2, EM_MAX_OPPS + 1, 1, -1);
	CHECK(em_profile_load_string(s, strlen(s), "g", &prof, false, NULL, &err) < 0);
	CHECK_STR_CONTAINS(err.msg, "domain 0: 33 OPPs, at most 32");
	free(s);
	s = generate(2, 2, 2, 255); /* last domain would be CPUs 255-256 */
	CHECK(em_profile_load_string(s, strlen(s), "g", &prof, false, NULL, &err) < 0);
	CHECK_STR_CONTAINS(err.msg, "domain 1: cpus:");
	free(s);
}

static void test_strict_turns_falling_power_into_an_error(void)
{
	static const char j[] =
	    "{\"format\":\"gearbox-em/1\",\"soc\":\"t\",\"provenance\":{\"source\":\"manual\"},"
	    "\"domains\":[{\"cpus\":\"0\",\"opps\":[{\"freq_khz\":1,\"power_uw\":10,\"perf\":10},"
	    "{\"freq_khz\":2,\"power_uw\":9,\"perf\":20}]}]}";
	struct em_warnings w;
	struct gb_err err;

	CHECK_EQ_I(em_profile_load_string(j, sizeof(j) - 1, "w.json", &prof, false, &w, &err), 0);
	CHECK(w.count >= 1);
	CHECK_STR_CONTAINS(w.msg[0], "domain 0, OPP 1: power 9 uW does not rise");
	CHECK(em_profile_load_string(j, sizeof(j) - 1, "w.json", &prof, true, &w, &err) < 0);
	CHECK_STR_CONTAINS(err.msg, "w.json: domain 0, OPP 1: power 9 uW does not rise");
}

/* The optional fields of gearbox profile: a static/dynamic split per OPP, the performance
 * source and the duration in the provenance.  They round-trip; files without them load. */
static const char split_json[] =
    "{\"format\":\"gearbox-em/1\",\"soc\":\"t\",\"provenance\":{\"source\":\"sim\","
    "\"conditions\":\"c\",\"perf_source\":\"instructions\",\"duration_ms\":160250,"
    "\"temp_max_mc\":40000},"
    "\"domains\":[{\"cpus\":\"0-3\",\"opps\":["
    "{\"freq_khz\":500000,\"power_uw\":20000,\"perf\":100,"
    "\"split\":{\"static_uw\":4000,\"dynamic_uw\":16000,\"cpus\":4}},"
    "{\"freq_khz\":1000000,\"power_uw\":50000,\"perf\":200}]}]}";

static int load_edited(const char *from, const char *to, struct gb_err *err)
{
	char buf[sizeof(split_json) + 64];
	const char *at = strstr(split_json, from);

	if (!at)
		return 1;
	snprintf(buf, sizeof(buf), "%.*s%s%s", (int)(at - split_json), split_json, to,
		 at + strlen(from));
	return em_profile_load_string(buf, strlen(buf), "s.json", &prof2, false, NULL, err);
}

static void test_split_perf_source_and_duration_round_trip(void)
{
	struct gb_err err;
	size_t l1, l2;
	char *a, *b;

	CHECK_EQ_I(em_profile_load_string(split_json, sizeof(split_json) - 1, "s.json", &prof,
					  false, NULL, &err),
		   0);
	CHECK(prof.meta[0][0].has_split);
	CHECK_EQ_U(prof.meta[0][0].static_uw, 4000);
	CHECK_EQ_U(prof.meta[0][0].dynamic_uw, 16000);
	CHECK_EQ_U(prof.meta[0][0].split_cpus, 4);
	CHECK(!prof.meta[0][1].has_split);
	CHECK(!strcmp(prof.prov.perf_source, "instructions"));
	CHECK(prof.prov.has_duration);
	CHECK_EQ_U(prof.prov.duration_ms, 160250);
	a = write_to_string(&prof, &l1);
	CHECK_STR_CONTAINS(a, "\"split\": { \"static_uw\": 4000, \"dynamic_uw\": 16000, "
			      "\"cpus\": 4 } },\n");
	CHECK_STR_CONTAINS(a, "\"conditions\": \"c\",\n    \"perf_source\": \"instructions\",\n"
			      "    \"duration_ms\": 160250,\n    \"temp_max_mc\": 40000\n  },");
	CHECK_EQ_I(em_profile_load_string(a, l1, "a", &prof2, false, NULL, &err), 0);
	b = write_to_string(&prof2, &l2);
	CHECK(l1 == l2 && !memcmp(a, b, l1));
	free(a);
	free(b);
}

static void test_split_fields_are_validated_with_file_opp_and_reason(void)
{
	struct gb_err err;

	CHECK(load_edited("\"static_uw\":4000", "\"static_uw\":5000", &err) < 0);
	CHECK_STR_CONTAINS(err.msg, "s.json: domain 0, OPP 0: split: static_uw + dynamic_uw is "
				    "21000 uW, must equal power_uw 20000");
	CHECK(load_edited("\"cpus\":4}", "\"cpus\":5}", &err) < 0);
	CHECK_STR_CONTAINS(err.msg, "s.json: domain 0, OPP 0: split: measured on 5 CPUs, the "
				    "domain has 4");
	CHECK(load_edited("\"cpus\":4}", "\"cpus\":1}", &err) < 0);
	CHECK_STR_CONTAINS(err.msg, "domain 0, OPP 0: \"cpus\" is 1, must be in 2..256");
	CHECK(load_edited(",\"cpus\":4}", "}", &err) < 0);
	CHECK_STR_CONTAINS(err.msg, "domain 0, OPP 0: missing field \"cpus\"");
	CHECK(load_edited("\"dynamic_uw\":16000", "\"dynamic_uw\":16000.5", &err) < 0);
	CHECK_STR_CONTAINS(err.msg, "\"dynamic_uw\" must be an integer");
	CHECK(load_edited("\"cpus\":4}", "\"cpus\":4,\"total_uw\":1}", &err) < 0);
	CHECK_STR_CONTAINS(err.msg, "unknown field \"total_uw\" in split");
	CHECK(load_edited("\"perf_source\":\"instructions\"", "\"perf_source\":\"cycles\"", &err) <
	      0);
	CHECK_STR_CONTAINS(err.msg, "s.json: \"perf_source\" is \"cycles\", must be");
	CHECK(load_edited("\"duration_ms\":160250", "\"duration_ms\":-1", &err) < 0);
	CHECK_STR_CONTAINS(err.msg, "s.json: \"duration_ms\" is -1, must be in 0..");
}

/* em validate reports every error of a file, not only the first: each with its place */
static void test_every_error_of_a_file_is_reported(void)
{
	static const char j[] =
	    "{\"format\":\"gearbox-em/1\",\"soc\":\"t\",\"provenance\":{\"source\":\"m\",\"x\":1},"
	    "\"domains\":["
	    "{\"cpus\":\"0-1\",\"opps\":[{\"freq_khz\":500000,\"power_uw\":0,\"perf\":100},"
	    "{\"freq_khz\":600000,\"power_uw\":50000,\"perf\":2000,\"volt\":3}]},"
	    "{\"cpus\":\"2\",\"opps\":[{\"freq_khz\":500000,\"power_uw\":10,\"perf\":300},"
	    "{\"freq_khz\":400000,\"power_uw\":20,\"perf\":400}]},"
	    "{\"cpus\":\"2-3\",\"opps\":[{\"freq_khz\":500000,\"power_uw\":10,\"perf\":500}]}]}";
	struct em_errors *errs = calloc(1, sizeof(*errs));
	struct gb_err err;

	CHECK(em_profile_check_string(j, sizeof(j) - 1, "e.json", &prof, false, NULL, errs, &err) <
	      0);
	CHECK_EQ_I(errs->count, 6);
	CHECK_STR_CONTAINS(errs->msg[0], "e.json: unknown field \"x\" in provenance");
	CHECK_STR_CONTAINS(errs->msg[1], "e.json: domain 0, OPP 0: \"power_uw\" is 0, must be in");
	CHECK_STR_CONTAINS(errs->msg[2], "e.json: domain 0, OPP 1: unknown field \"volt\" in OPP");
	CHECK_STR_CONTAINS(errs->msg[3], "e.json: domain 0, OPP 1: \"perf\" is 2000, must be in");
	CHECK_STR_CONTAINS(errs->msg[4], "e.json: domain 1, OPP 1: frequency 400000 kHz does not "
					 "increase");
	CHECK_STR_CONTAINS(errs->msg[5], "e.json: domain 2: CPU 2 is already in domain 1");
	/* the first error is the one err holds, as for every other caller */
	CHECK(!strcmp(err.msg, errs->msg[0]));
	free(errs);
}

/* A flat step (perf rising far less than frequency) and an OPP far below its domain's perf per
 * MHz did not apply: warnings, errors with strict */
static void test_strict_refuses_opps_that_did_not_apply(void)
{
	static const char flat[] =
	    "{\"format\":\"gearbox-em/1\",\"soc\":\"t\",\"provenance\":{\"source\":\"manual\"},"
	    "\"domains\":[{\"cpus\":\"0\",\"opps\":["
	    "{\"freq_khz\":1000000,\"power_uw\":10,\"perf\":500},"
	    "{\"freq_khz\":1500000,\"power_uw\":20,\"perf\":750},"
	    "{\"freq_khz\":1600000,\"power_uw\":30,\"perf\":751},"
	    "{\"freq_khz\":2000000,\"power_uw\":40,\"perf\":1000}]}]}";
	static const char slow[] =
	    "{\"format\":\"gearbox-em/1\",\"soc\":\"t\",\"provenance\":{\"source\":\"manual\"},"
	    "\"domains\":[{\"cpus\":\"0\",\"opps\":["
	    "{\"freq_khz\":700000,\"power_uw\":10,\"perf\":128},"
	    "{\"freq_khz\":1000000,\"power_uw\":20,\"perf\":512},"
	    "{\"freq_khz\":2000000,\"power_uw\":30,\"perf\":1024}]}]}";
	struct em_warnings w;
	struct gb_err err;

	CHECK_EQ_I(em_profile_load_string(flat, sizeof(flat) - 1, "f.json", &prof, false, &w, &err),
		   0);
	CHECK_EQ_I(w.count, 2); /* the flat step, and the top perf that is not 1024 */
	CHECK_STR_CONTAINS(w.msg[0],
			   "domain 0, OPP 2: perf 751 at 1600000 kHz rises 0.1% for "
			   "6.7% more frequency (previous OPP 750 at 1500000 kHz): the OPP most "
			   "likely did not apply");
	CHECK(em_profile_load_string(flat, sizeof(flat) - 1, "f.json", &prof, true, &w, &err) < 0);
	CHECK_STR_CONTAINS(err.msg, "f.json: domain 0, OPP 2: perf 751 at 1600000 kHz rises");
	CHECK(em_profile_load_string(slow, sizeof(slow) - 1, "s.json", &prof, true, &w, &err) < 0);
	CHECK_STR_CONTAINS(err.msg, "s.json: domain 0, OPP 0: perf 128 at 700000 kHz is 36% of the "
				    "domain's median perf per MHz");
}

/* What an importer fills in is checked against the loader's ranges: a value the loader would
 * refuse (1 kW idle power, a raw power above 64 W) is an error naming the field */
static void test_finalize_refuses_values_the_loader_refuses(void)
{
	struct em_domain *pd = &prof.model.domains[0];
	struct gb_err err;

	memset(&prof, 0, sizeof(prof));
	prof.model.nr_domains = 1;
	em_cpumask_set(&pd->cpus, 0);
	pd->nr_opps = 2;
	set_opp(pd, 0, 500000, 10000, 500);
	set_opp(pd, 1, 1000000, 20000, 1024);
	CHECK_EQ_I(em_profile_finalize(&prof, false, NULL, &err), 0);
	pd->idle_power_uw = 1000000000;
	CHECK(em_profile_finalize(&prof, false, NULL, &err) < 0);
	CHECK_STR_CONTAINS(err.msg, "domain 0: \"idle_power_uw\" is 1000000000, must be in "
				    "0..64000000");
	pd->idle_power_uw = 0;
	prof.meta[0][1].has_raw = true;
	prof.meta[0][1].raw_power_uw = 4000000000u;
	CHECK(em_profile_finalize(&prof, false, NULL, &err) < 0);
	CHECK_STR_CONTAINS(err.msg, "domain 0, OPP 1: \"raw.power_uw\" is 4000000000");
	prof.meta[0][1].has_raw = false;
	pd->opps[1].voltage_uv = 20000000;
	CHECK(em_profile_finalize(&prof, false, NULL, &err) < 0);
	CHECK_STR_CONTAINS(err.msg, "domain 0, OPP 1: \"voltage_uv\" is 20000000");
}

/* gb_err_set returns a failure for every code: negating INT_MIN overflowed (UBSan), and 0 read
 * as success */
static void test_error_codes_that_are_no_errno_still_fail(void)
{
	struct gb_err err;

	CHECK_EQ_I(gb_err_set(&err, INT_MIN, "x"), -EIO);
	CHECK_EQ_I(gb_err_set(&err, 0, "x"), -EIO);
	CHECK_EQ_I(gb_err_set(&err, -3, "x"), -EIO);
	CHECK_EQ_I(gb_err_set(&err, ENOENT, "y %d", 1), -ENOENT);
	CHECK(!strcmp(err.msg, "y 1"));
}

/* Idle states and the transition latency: they round-trip, and a bad value is refused with
 * the domain, the state and the reason. */
static const char idle_json[] =
    "{\"format\":\"gearbox-em/1\",\"soc\":\"t\",\"provenance\":{\"source\":\"manual\"},"
    "\"domains\":[{\"cpus\":\"4-7\",\"opps\":[{\"freq_khz\":1000000,\"power_uw\":90000,"
    "\"perf\":1024}]},{\"cpus\":\"0-3\",\"transition_latency_us\":80,\"idle_states\":{"
    "\"version\":1,\"static_uw\":6000,\"cpu\":["
    "{\"name\":\"wfi\",\"power_uw\":700,\"entry_latency_us\":0,\"exit_latency_us\":1,"
    "\"min_residency_us\":1},"
    "{\"name\":\"little-retention\",\"power_uw\":500,\"entry_latency_us\":81,"
    "\"exit_latency_us\":86,\"min_residency_us\":504}],"
    "\"cluster\":[{\"name\":\"little-power-collapse\",\"power_uw\":0,"
    "\"entry_latency_us\":814,\"exit_latency_us\":4562,\"min_residency_us\":9183}]},"
    "\"opps\":[{\"freq_khz\":500000,\"power_uw\":20000,\"perf\":300}]}]}";

static int load_idle_edited(const char *from, const char *to, struct gb_err *err)
{
	char buf[sizeof(idle_json) + 64];
	const char *at = strstr(idle_json, from);

	if (!at)
		return 1;
	snprintf(buf, sizeof(buf), "%.*s%s%s", (int)(at - idle_json), idle_json, to,
		 at + strlen(from));
	return em_profile_load_string(buf, strlen(buf), "i.json", &prof2, false, NULL, err);
}

static void test_idle_states_round_trip_and_follow_their_domain(void)
{
	struct gb_err err;
	size_t l1, l2;
	char *a, *b;

	CHECK_EQ_I(em_profile_load_string(idle_json, sizeof(idle_json) - 1, "i.json", &prof, false,
					  NULL, &err),
		   0);
	/* the little domain is sorted first, its idle states and latency with it */
	CHECK(prof.idle[0].present && !prof.idle[1].present);
	CHECK(prof.has_transition_latency[0] && !prof.has_transition_latency[1]);
	CHECK_EQ_U(prof.transition_latency_us[0], 80);
	CHECK_EQ_U(prof.idle[0].static_uw, 6000);
	CHECK_EQ_U(prof.idle[0].nr_cpu, 2);
	CHECK_EQ_U(prof.idle[0].cpu[1].exit_latency_us, 86);
	CHECK(!strcmp(prof.idle[0].cpu[1].name, "little-retention"));
	CHECK_EQ_U(prof.idle[0].nr_cluster, 1);
	CHECK_EQ_U(prof.idle[0].cluster[0].min_residency_us, 9183);
	a = write_to_string(&prof, &l1);
	CHECK_STR_CONTAINS(a, "\"transition_latency_us\": 80,\n      \"idle_states\": {\n"
			      "        \"version\": 1,\n        \"static_uw\": 6000,\n");
	CHECK_EQ_I(em_profile_load_string(a, l1, "a", &prof2, false, NULL, &err), 0);
	b = write_to_string(&prof2, &l2);
	CHECK(l1 == l2 && !memcmp(a, b, l1));
	free(a);
	free(b);
}

static void test_idle_states_are_validated_with_domain_state_and_reason(void)
{
	struct gb_err err;

	CHECK(load_idle_edited("\"version\":1", "\"version\":2", &err) < 0);
	CHECK_STR_CONTAINS(err.msg, "i.json: domain 1: idle_states: version 2 is not supported");
	CHECK(load_idle_edited("\"power_uw\":500", "\"power_uw\":800", &err) < 0);
	CHECK_STR_CONTAINS(err.msg, "domain 1: idle_states: cpu[1]: power_uw 800 is above the "
				    "shallower state's 700");
	CHECK(load_idle_edited("\"exit_latency_us\":86", "\"exit_latency_us\":600", &err) < 0);
	CHECK_STR_CONTAINS(err.msg, "domain 1: idle_states: cpu[1]: exit_latency_us 600 is above "
				    "min_residency_us 504");
	CHECK(load_idle_edited("\"min_residency_us\":504", "\"min_residency_us\":0", &err) < 0);
	CHECK_STR_CONTAINS(err.msg, "exit_latency_us 86 is above min_residency_us 0");
	CHECK(load_idle_edited("\"power_uw\":0,", "\"power_uw\":7000,", &err) < 0);
	CHECK_STR_CONTAINS(err.msg, "domain 1: idle_states: cluster[0]: power_uw 7000 is above "
				    "static_uw 6000");
	CHECK(load_idle_edited("\"entry_latency_us\":814", "\"entry_latency_us\":-3", &err) < 0);
	CHECK_STR_CONTAINS(err.msg, "domain 1: idle_states: cluster[0]: \"entry_latency_us\" is "
				    "-3, must be in 0..10000000");
	CHECK(load_idle_edited("\"static_uw\":6000,", "", &err) < 0);
	CHECK_STR_CONTAINS(err.msg, "domain 1: missing field \"static_uw\"");
	CHECK(load_idle_edited("\"name\":\"wfi\",", "\"label\":\"wfi\",", &err) < 0);
	CHECK_STR_CONTAINS(err.msg, "domain 1: idle_states: cpu[0]: unknown field \"label\"");
	CHECK(load_idle_edited("\"transition_latency_us\":80", "\"transition_latency_us\":8.5",
			       &err) < 0);
	CHECK_STR_CONTAINS(err.msg, "domain 1: \"transition_latency_us\" must be an integer");
}

static void test_debugfs_export_imports_back_identically(void)
{
	char dir[] = "/tmp/gearbox-test-dbgXXXXXX";
	struct em_diff_summary sum;
	struct gb_err err;

	CHECK(mkdtemp(dir) != NULL);
	CHECK_EQ_I(em_profile_load_file(SRCDIR "/em-profiles/gs101.json", &prof, false, NULL, &err),
		   0);
	CHECK_EQ_I(em_export_debugfs_tree(&prof, dir, &err), 0);
	CHECK_EQ_I(em_import_debugfs(dir, NULL, &prof2, NULL, &err), 0);
	em_diff(&prof, &prof2, NULL, &sum);
	CHECK_EQ_U(sum.unmatched_domains, 0);
	CHECK_EQ_U(sum.unmatched_opps, 0);
	CHECK(sum.max_power_pct == 0 && sum.max_perf_pct == 0);
	CHECK_EQ_U(sum.inefficiency_mismatches, 0);
	CHECK_EQ_U(sum.matched_opps, 11 + 14 + 18);
	{
		char cmd[128];

		snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
		CHECK_EQ_I(system(cmd), 0);
	}
}

static void put(const char *dir, const char *rel, const char *val)
{
	char p[512], cmd[600];
	FILE *f;

	snprintf(cmd, sizeof(cmd), "mkdir -p \"$(dirname %s/%s)\"", dir, rel);
	if (system(cmd))
		return;
	snprintf(p, sizeof(p), "%s/%s", dir, rel);
	f = fopen(p, "w");
	if (f) {
		fprintf(f, "%s\n", val);
		fclose(f);
	}
}

static void test_old_debugfs_layout_in_mw_uses_cpu_capacity(void)
{
	char dir[] = "/tmp/gearbox-test-olddbgXXXXXX";
	char em[600], cpu[600], cmd[700];
	struct gb_err err;
	int rc;

	CHECK(mkdtemp(dir) != NULL);
	snprintf(em, sizeof(em), "%s/em", dir);
	snprintf(cpu, sizeof(cpu), "%s/cpu", dir);
	/* v5.0 layout: pdN, cs:<kHz>, power in mW, no performance */
	put(em, "pd0/cpus", "0-3");
	put(em, "pd0/cs:500000/frequency", "500000");
	put(em, "pd0/cs:500000/power", "10");
	put(em, "pd0/cs:1000000/frequency", "1000000");
	put(em, "pd0/cs:1000000/power", "30");
	put(em, "pd4/cpus", "4-5");
	put(em, "pd4/cs:2000000/frequency", "2000000");
	put(em, "pd4/cs:2000000/power", "500");
	put(cpu, "cpu0/cpu_capacity", "400");
	put(cpu, "cpu4/cpu_capacity", "1024");
	rc = em_import_debugfs(em, cpu, &prof, NULL, &err);
	if (rc)
		printf("# %s\n", err.msg);
	CHECK_EQ_I(rc, 0);
	CHECK_EQ_U(prof.model.domains[0].opps[0].power_uw, 10000);
	CHECK_EQ_U(prof.model.domains[0].opps[0].perf, 200); /* 400 * 500000 / 1000000 */
	CHECK_EQ_U(prof.model.domains[0].opps[1].perf, 400);
	CHECK_EQ_U(prof.model.domains[1].opps[0].perf, 1024);
	/* without cpu_capacity the import must fail and say what to give */
	CHECK(em_import_debugfs(em, "/nonexistent", &prof, NULL, &err) < 0);
	CHECK_STR_CONTAINS(err.msg, "--cpu-sysfs");
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	CHECK_EQ_I(system(cmd), 0);
}

/* debugfs values are decimal and checked before they become 32-bit: 4294968 mW is not 704 uW,
 * 0100 is not octal, and a bad frequency is named as the frequency */
static void test_debugfs_values_are_decimal_bounded_and_named(void)
{
	char dir[] = "/tmp/gearbox-test-dbgvalXXXXXX";
	char em[600], cmd[700];
	struct gb_err err;
	int rc;

	CHECK(mkdtemp(dir) != NULL);
	snprintf(em, sizeof(em), "%s/em", dir);
	put(em, "cpu0/cpus", "0-3");
	put(em, "cpu0/units", "milliWatts");
	put(em, "cpu0/ps:500000/frequency", "500000");
	put(em, "cpu0/ps:500000/power", "0100");
	put(em, "cpu0/ps:500000/performance", "512");
	put(em, "cpu0/ps:1000000/frequency", "1000000");
	put(em, "cpu0/ps:1000000/power", "4294968");
	put(em, "cpu0/ps:1000000/performance", "1024");
	rc = em_import_debugfs(em, NULL, &prof, NULL, &err);
	CHECK_EQ_I(rc, -ERANGE);
	CHECK_STR_CONTAINS(err.msg, "cpu0/ps:1000000/power: 4294968 mW is outside 1..64000 mW");
	put(em, "cpu0/ps:1000000/power", "300");
	rc = em_import_debugfs(em, NULL, &prof, NULL, &err);
	if (rc)
		printf("# %s\n", err.msg);
	CHECK_EQ_I(rc, 0);
	CHECK_EQ_U(prof.model.domains[0].opps[0].power_uw, 100000); /* decimal 100 mW */
	put(em, "cpu0/ps:1000000/frequency", "-1");
	CHECK(em_import_debugfs(em, NULL, &prof, NULL, &err) < 0);
	CHECK_STR_CONTAINS(err.msg, "cpu0/ps:1000000/frequency: \"-1\" is not a decimal number");
	put(em, "cpu0/ps:1000000/frequency", "18446744073709551617");
	CHECK(em_import_debugfs(em, NULL, &prof, NULL, &err) < 0);
	CHECK_STR_CONTAINS(err.msg, "ps:1000000/frequency: \"18446744073709551617\" is too large");
	put(em, "cpu0/ps:1000000/frequency", "1000000");
	put(em, "cpu0/ps:1000000/performance", "2048");
	CHECK(em_import_debugfs(em, NULL, &prof, NULL, &err) < 0);
	CHECK_STR_CONTAINS(err.msg, "ps:1000000/performance: 2048 is outside 1..1024");
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	CHECK_EQ_I(system(cmd), 0);
}

static void test_freqbench_import_rejects_spikes_and_fits_monotone(void)
{
	struct gb_err err;
	int rc = em_import_freqbench(SRCDIR "/tests/unit/fixtures/freqbench-small.json", "0-1,2",
				     NULL, &prof, NULL, &err);

	if (rc)
		printf("# %s\n", err.msg);
	CHECK_EQ_I(rc, 0);
	CHECK_EQ_U(prof.model.nr_domains, 2);
	CHECK(!strcmp(prof.model.domains[0].name, "little"));
	/* OPP 0: samples ~30.2 mW with a 415 mW spike, cluster idle (median) 10 mW -> ~20.2 mW */
	CHECK(prof.model.domains[0].opps[0].power_uw > 20000 &&
	      prof.model.domains[0].opps[0].power_uw < 20400);
	CHECK_EQ_U(prof.meta[0][0].samples, 39);
	/* OPPs 1 and 2 measured 50 and 45 mW: pooled to ~47.5 by the fit, still rising, raw kept
	 * (OPP 2's idle reading of 400 mW above baseline is a spike the median ignores) */
	CHECK(prof.model.domains[0].opps[2].power_uw > prof.model.domains[0].opps[1].power_uw);
	CHECK(prof.model.domains[0].opps[1].power_uw > 47000 &&
	      prof.model.domains[0].opps[1].power_uw < 48000);
	CHECK(prof.meta[0][2].has_raw);
	CHECK(prof.meta[0][2].raw_power_uw > 44500 && prof.meta[0][2].raw_power_uw < 45500);
	CHECK(!prof.meta[0][0].has_raw);
	/* perf = score / max score * 1024 */
	CHECK_EQ_U(prof.model.domains[1].opps[1].perf, 1024);
	CHECK_EQ_U(prof.model.domains[0].opps[0].perf, 256);
}

/* The fixture with one edit (text from -> to) imported from memory. */
static int import_fb_edited(const char *from, const char *to, struct em_warnings *w,
			    struct gb_err *err)
{
	FILE *f = fopen(SRCDIR "/tests/unit/fixtures/freqbench-small.json", "r");
	static char in[8192], out[8300];
	size_t n = f ? fread(in, 1, sizeof(in) - 1, f) : 0;
	char *at;

	if (f)
		fclose(f);
	in[n] = '\0';
	at = strstr(in, from);
	if (!at)
		return printf("# \"%s\" not in the fixture\n", from), 1;
	snprintf(out, sizeof(out), "%.*s%s%s", (int)(at - in), in, to, at + strlen(from));
	return em_import_freqbench_string(out, strlen(out), "fb.json", "0-1,2", NULL, &prof, w,
					  err);
}

/* freqbench values outside what a phone's CPU draws in mW are refused with the reason, not
 * written into a model that em validate refuses */
static void test_freqbench_values_out_of_range_are_refused(void)
{
	struct gb_err err;

	/* an idle reading of 1 kW (the housekeeping baseline is 1 W) */
	CHECK_EQ_I(import_fb_edited("1400.0", "1000000.0", NULL, &err), -ERANGE);
	CHECK_STR_CONTAINS(err.msg, "fb.json: cpu 1, 700000 kHz: idle power_mean 1e+06 mW is "
				    "outside -64000..64000 mW");
	CHECK_EQ_I(import_fb_edited("60.2,", "6e9,", NULL, &err), -ERANGE);
	CHECK_STR_CONTAINS(err.msg, "cpu 1, 600000 kHz: a power sample 6e+09 mW is outside");
	CHECK_EQ_I(import_fb_edited("\"power_mean\": 1000.0", "\"power_mean\": -5", NULL, &err),
		   -ERANGE);
	CHECK_STR_CONTAINS(err.msg, "housekeeping power_mean -5 mW is outside 0..64000 mW");
	CHECK_EQ_I(
	    import_fb_edited("\"coremark_score\": 3000,", "\"coremark_score\": -3,", NULL, &err),
	    -ERANGE);
	CHECK_STR_CONTAINS(err.msg, "cpu 1, 600000 kHz: coremark_score -3 is outside");
	CHECK(import_fb_edited("\"600000\": {", "\"-600000\": {", NULL, &err) < 0);
	CHECK_STR_CONTAINS(err.msg, "cpu 1: bad frequency key \"-600000\"");
}

/* An OPP whose score stays flat while the frequency rises did not apply: left out, with a
 * warning, and named in the provenance */
static void test_freqbench_opp_that_did_not_apply_is_left_out(void)
{
	struct em_warnings w;
	struct gb_err err;
	int rc =
	    import_fb_edited("\"coremark_score\": 3500,", "\"coremark_score\": 3010,", &w, &err);

	if (rc)
		printf("# %s\n", err.msg);
	CHECK_EQ_I(rc, 0);
	CHECK_EQ_U(prof.model.domains[0].nr_opps, 2);
	CHECK_EQ_U(prof.model.domains[0].opps[1].freq_khz, 600000);
	CHECK_EQ_I(w.count, 1);
	CHECK_STR_CONTAINS(w.msg[0],
			   "cpu 1: 700000 kHz left out: CoreMark rose 0.3% for 16.7% more "
			   "frequency than 600000 kHz (the OPP did not apply)");
	CHECK_STR_CONTAINS(prof.prov.conditions, "left out (did not apply): cpu 1 700000 kHz");
	/* a score per MHz at half the cluster's: the same */
	rc = import_fb_edited("\"coremark_score\": 2500,", "\"coremark_score\": 1250,", &w, &err);
	CHECK_EQ_I(rc, 0);
	CHECK_EQ_U(prof.model.domains[0].opps[0].freq_khz, 600000);
	CHECK_STR_CONTAINS(w.msg[0], "cpu 1: 500000 kHz left out: its CoreMark per MHz is 50% of "
				     "the cluster's median");
}

/* Runs a shell command; its exit status. */
static int sh(const char *fmt, const char *a, const char *b)
{
	char cmd[2048];

	snprintf(cmd, sizeof(cmd), fmt, a, b);
	return system(cmd);
}

/* em export --dt of a model: dtc compiles it (as .dts) and the import of the .dtb and of the
 * .dts give every OPP back with its power and voltage, and the capacities; the perf of each OPP
 * is the kernel's capacity * f / fmax */
static void check_dt_round_trip(const char *model, bool linear)
{
	char dir[] = "/tmp/gearbox-test-dtXXXXXX", dts[600], dtb[600];
	struct em_diff_summary sum;
	struct gb_err err;
	FILE *f;

	CHECK(mkdtemp(dir) != NULL);
	snprintf(dts, sizeof(dts), "%s/m.dts", dir);
	snprintf(dtb, sizeof(dtb), "%s/m.dtb", dir);
	CHECK_EQ_I(em_profile_load_file(model, &prof, false, NULL, &err), 0);
	f = fopen(dts, "w");
	CHECK(f != NULL);
	if (!f)
		return;
	em_export_dt(&prof, f);
	fclose(f);
	CHECK_EQ_I(sh("dtc -q -I dts -O dtb -o %s %s", dtb, dts), 0);
	for (int k = 0; k < 2; k++) {
		int rc = em_import_dt(k ? dts : dtb, &prof2, NULL, &err);

		if (rc)
			printf("# %s\n", err.msg);
		CHECK_EQ_I(rc, 0);
		em_diff(&prof, &prof2, NULL, &sum);
		CHECK_EQ_U(sum.unmatched_domains, 0);
		CHECK_EQ_U(sum.unmatched_opps, 0);
		CHECK(sum.max_power_pct == 0);
		CHECK(!strcmp(prof2.soc, prof.soc));
		CHECK(!strcmp(prof2.prov.source, "dt"));
		for (u32 d = 0; d < prof.model.nr_domains; d++) {
			const struct em_domain *a = &prof.model.domains[d],
					       *b = &prof2.model.domains[d];
			u32 fmax = a->opps[a->nr_opps - 1].freq_khz;

			CHECK(!strcmp(a->name, b->name));
			CHECK_EQ_U(em_domain_capacity(b), em_domain_capacity(a));
			for (u32 i = 0; i < a->nr_opps && i < b->nr_opps; i++) {
				CHECK_EQ_U(b->opps[i].voltage_uv, a->opps[i].voltage_uv);
				CHECK_EQ_U(b->opps[i].perf,
					   (u64)em_domain_capacity(a) * a->opps[i].freq_khz / fmax);
			}
		}
		if (linear)
			CHECK(sum.max_perf_pct == 0);
	}
	CHECK_EQ_I(sh("rm -rf %s%s", dir, ""), 0);
}

static void test_dt_export_compiles_and_imports_back(void)
{
	char dir[] = "/tmp/gearbox-test-dtlinXXXXXX", path[600];
	struct gb_err err;
	FILE *f;

	/* measured models: perf becomes the kernel's linear derivation */
	check_dt_round_trip(SRCDIR "/em-profiles/sm8250.json", false);
	check_dt_round_trip(SRCDIR "/em-profiles/gs101.json", false);
	/* a model the kernel would build (with voltages): the same model back */
	CHECK_EQ_I(em_import_dt(SRCDIR "/tests/unit/fixtures/rk3399-cpus.dts", &prof, NULL, &err),
		   0);
	CHECK(mkdtemp(dir) != NULL);
	snprintf(path, sizeof(path), "%s/rk3399.json", dir);
	f = fopen(path, "w");
	CHECK(f != NULL);
	if (!f)
		return;
	em_profile_write(&prof, f);
	fclose(f);
	check_dt_round_trip(path, true);
	CHECK_EQ_I(sh("rm -rf %s%s", dir, ""), 0);
}

/* A real board's device tree (Linux's rk3399, reduced): the model the kernel builds from it,
 * power estimated from dynamic-power-coefficient and said so */
static void test_dt_import_of_rk3399_from_the_kernel_source(void)
{
	struct em_warnings w;
	struct gb_err err;
	const struct em_domain *l = &prof.model.domains[0], *b = &prof.model.domains[1];
	int rc = em_import_dt(SRCDIR "/tests/unit/fixtures/rk3399-cpus.dts", &prof, &w, &err);
	char cpus[64];

	if (rc)
		printf("# %s\n", err.msg);
	CHECK_EQ_I(rc, 0);
	CHECK_EQ_U(prof.model.nr_domains, 2); /* the GPU's table belongs to no CPU */
	cpulist_format(&l->cpus, cpus, sizeof(cpus));
	CHECK(!strcmp(cpus, "0-3"));
	cpulist_format(&b->cpus, cpus, sizeof(cpus));
	CHECK(!strcmp(cpus, "4-5"));
	CHECK(!strcmp(prof.soc, "rk3399"));
	CHECK(!strcmp(prof.core[0], "cortex-a53"));
	CHECK_EQ_U(l->nr_opps, 7);
	CHECK_EQ_U(b->nr_opps, 9);
	/* 485 * 1512 MHz against 1024 * 2016 MHz: capacity 363 */
	CHECK_EQ_U(em_domain_capacity(l), 363);
	CHECK_EQ_U(l->opps[0].perf, 363 * 408000 / 1512000);
	/* DPC 100, 800 mV, 408 MHz: 100 * 800^2 * 408 / 10^6 uW */
	CHECK_EQ_U(l->opps[0].power_uw, 26112);
	CHECK_EQ_U(l->opps[0].voltage_uv, 800000);
	/* DPC 436, 1250 mV, 2016 MHz */
	CHECK_EQ_U(b->opps[8].power_uw, 1373400);
	CHECK_EQ_U(b->opps[8].perf, 1024);
	CHECK_STR_CONTAINS(prof.prov.conditions, "power ESTIMATED from dynamic-power-coefficient");
	CHECK_EQ_I(w.count, 0);
}

/* What cannot give a model is refused with the file and the reason */
static void test_dt_import_refusals_name_the_file_and_reason(void)
{
	static const char head[] =
	    "/dts-v1/;\n/ { cpus { #address-cells = <1>; #size-cells = <0>;\n"
	    "c0: cpu@0 { device_type = \"cpu\"; reg = <0>; operating-points-v2 = <&t>; %s }; };\n"
	    "t: opp-table-x { compatible = \"operating-points-v2\"; opp-shared;\n"
	    "o1 { opp-hz = /bits/ 64 <500000000>; %s };\n"
	    "o2 { opp-hz = /bits/ 64 <1000000000>; opp-microvolt = <900000>; }; }; };\n";
	char dir[] = "/tmp/gearbox-test-dtbadXXXXXX", path[600];
	struct gb_err err;
	FILE *f;

	CHECK(mkdtemp(dir) != NULL);
	snprintf(path, sizeof(path), "%s/t.dts", dir);
	/* no opp-microwatt, and no dynamic-power-coefficient */
	f = fopen(path, "w");
	fprintf(f, head, "", "opp-microvolt = <800000>;");
	fclose(f);
	CHECK(em_import_dt(path, &prof, NULL, &err) < 0);
	CHECK_STR_CONTAINS(err.msg, "t.dts: opp-table-x: no power: neither opp-microwatt");
	/* opp-microwatt on one OPP of two */
	f = fopen(path, "w");
	fprintf(f, head, "", "opp-microwatt = <1000>;");
	fclose(f);
	CHECK(em_import_dt(path, &prof, NULL, &err) < 0);
	CHECK_STR_CONTAINS(err.msg, "opp-table-x: opp-microwatt on some OPPs only");
	/* an estimate above 64 W */
	f = fopen(path, "w");
	fprintf(f, head, "dynamic-power-coefficient = <4000000>;", "opp-microvolt = <800000>;");
	fclose(f);
	CHECK_EQ_I(em_import_dt(path, &prof, NULL, &err), -ERANGE);
	CHECK_STR_CONTAINS(err.msg,
			   "opp-table-x: 500000000 Hz: power 1280000000 uW (estimated from "
			   "dynamic-power-coefficient) is outside 1..64000000");
	/* not device tree source */
	f = fopen(path, "w");
	fputs("/dts-v1/;\n/ { cpus {\n", f);
	fclose(f);
	CHECK(em_import_dt(path, &prof, NULL, &err) < 0);
	CHECK_STR_CONTAINS(err.msg, "t.dts: dtc could not compile it");
	/* the magic number of a blob, then garbage */
	f = fopen(path, "w");
	fputs("\xd0\x0d\xfe\xed garbage", f);
	fclose(f);
	CHECK(em_import_dt(path, &prof, NULL, &err) < 0);
	CHECK_STR_CONTAINS(err.msg, "t.dts: not a valid device tree blob");
	/* a well-formed blob of version 7 (nodes named by full path): refused before libfdt's
	 * check, which crashed on its root node's name */
	CHECK_EQ_I(sh("dtc -I dts -O dtb -o %s/v7.dtb %s/tests/unit/fixtures/rk3399-cpus.dts", dir,
		      SRCDIR),
		   0);
	snprintf(path, sizeof(path), "%s/v7.dtb", dir);
	f = fopen(path, "r+b");
	/* version 7, last compatible version 0 */
	CHECK(f && fseek(f, 20, SEEK_SET) == 0 && fwrite("\0\0\0\x07\0\0\0\0", 1, 8, f) == 8);
	if (f)
		fclose(f);
	CHECK(em_import_dt(path, &prof, NULL, &err) < 0);
	CHECK_STR_CONTAINS(err.msg, "v7.dtb: device tree blob version 7: only versions 16 and 17");
	CHECK_EQ_I(sh("rm -rf %s%s", dir, ""), 0);
}

static void test_shipped_gs101_little_top_opp_costs_more_than_the_one_below(void)
{
	struct gb_err err;
	const struct em_domain *pd;

	CHECK_EQ_I(em_profile_load_file(SRCDIR "/em-profiles/gs101.json", &prof, true, NULL, &err),
		   0);
	pd = &prof.model.domains[0];
	CHECK_EQ_U(pd->opps[pd->nr_opps - 1].freq_khz, 1803000);
	/* the freqbench quirk: 1803 MHz costs far more per unit of work than 1704 MHz */
	CHECK(pd->opps[pd->nr_opps - 1].cost * 100 > pd->opps[pd->nr_opps - 2].cost * 115);
}

int main(void)
{
	TAP_RUN(test_cost_is_power_times_10_over_perf);
	TAP_RUN(test_opp_dominated_by_a_higher_one_is_inefficient);
	TAP_RUN(test_equal_cost_lower_opp_is_inefficient);
	TAP_RUN(test_monotone_cost_has_no_inefficiency);
	TAP_RUN(test_efficient_state_skips_inefficient_and_saturates);
	TAP_RUN(test_domain_energy_is_cost_of_state_times_sum_util);
	TAP_RUN(test_cpulist_round_trip_and_errors);
	TAP_RUN(test_robust_mean_ignores_spikes);
	TAP_RUN(test_isotonic_fit_pools_violators);
	TAP_RUN(test_loader_orders_domains_by_capacity_and_maps_cpus);
	TAP_RUN(test_writing_is_stable_across_a_round_trip);
	TAP_RUN(test_profile_at_the_limits_loads);
	TAP_RUN(test_profile_over_the_limits_is_rejected);
	TAP_RUN(test_strict_turns_falling_power_into_an_error);
	TAP_RUN(test_split_perf_source_and_duration_round_trip);
	TAP_RUN(test_split_fields_are_validated_with_file_opp_and_reason);
	TAP_RUN(test_every_error_of_a_file_is_reported);
	TAP_RUN(test_strict_refuses_opps_that_did_not_apply);
	TAP_RUN(test_finalize_refuses_values_the_loader_refuses);
	TAP_RUN(test_error_codes_that_are_no_errno_still_fail);
	TAP_RUN(test_idle_states_round_trip_and_follow_their_domain);
	TAP_RUN(test_idle_states_are_validated_with_domain_state_and_reason);
	TAP_RUN(test_debugfs_export_imports_back_identically);
	TAP_RUN(test_old_debugfs_layout_in_mw_uses_cpu_capacity);
	TAP_RUN(test_debugfs_values_are_decimal_bounded_and_named);
	TAP_RUN(test_freqbench_import_rejects_spikes_and_fits_monotone);
	TAP_RUN(test_freqbench_values_out_of_range_are_refused);
	TAP_RUN(test_freqbench_opp_that_did_not_apply_is_left_out);
	TAP_RUN(test_shipped_gs101_little_top_opp_costs_more_than_the_one_below);
	TAP_RUN(test_dt_export_compiles_and_imports_back);
	TAP_RUN(test_dt_import_of_rk3399_from_the_kernel_source);
	TAP_RUN(test_dt_import_refusals_name_the_file_and_reason);
	return tap_done();
}
