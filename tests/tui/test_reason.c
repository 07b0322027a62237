// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_reason.c - the decision log's words and the numbers' units, exactly as printed.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reason.h"
#include "tap.h"

static struct top_model *m;

static void topo(void)
{
	struct stream_rec *rec = malloc(sizeof(*rec));
	/* Pixel 6-like: little 0-3 (cap 160), mid 4-5 (cap 498), big 6-7 (cap 1024). */
	const char *hello =
	    "{\"type\":\"hello\",\"format\":\"gearbox-stream/1\",\"nr_cpus\":8,\"domains\":["
	    "{\"id\":0,\"name\":\"little\",\"cpus\":[0,1,2,3],\"capacity\":160},"
	    "{\"id\":1,\"name\":\"mid\",\"cpus\":[4,5],\"capacity\":498},"
	    "{\"id\":2,\"name\":\"big\",\"cpus\":[6,7],\"capacity\":1024}]}";

	model_init(m);
	model_ingest_line(m, rec, 1, hello, strlen(hello));
	free(rec);
}

static struct stream_decision decision(const char *code, int from, int to)
{
	struct stream_decision d = {.t_us = 1251200,
				    .pid = 57,
				    .from = from,
				    .to = to,
				    .uclamp_max = 1024,
				    .from_cap = -1,
				    .to_cap = -1,
				    .from_freq_khz = -1,
				    .to_freq_khz = -1};
	strcpy(d.comm, "media");
	strcpy(d.reason_code, code);
	d.reason = stream_reason_from_code(code);
	return d;
}

static void test_capacity_misfit_quotes_util_margin_and_capacity(void)
{
	char buf[128];
	struct stream_decision d = decision("capacity_misfit", 4, 6);

	topo();
	d.util = 612;
	d.from_cap = 498;
	reason_describe(m, &d, buf, sizeof(buf));
	CHECK_STR_CONTAINS(buf, "capacity misfit: util 612 > 80% of cap 498");
	CHECK_EQ_U(strlen(buf), strlen("capacity misfit: util 612 > 80% of cap 498"));
}

static void test_capacity_misfit_takes_capacity_from_topology_when_absent(void)
{
	char buf[128];
	struct stream_decision d = decision("capacity_misfit", 1, 4);

	topo();
	d.util = 140;
	reason_describe(m, &d, buf, sizeof(buf));
	CHECK_STR_CONTAINS(buf, "capacity misfit: util 140 > 80% of cap 160");
}

static void test_capacity_misfit_claims_the_margin_only_when_the_numbers_show_it(void)
{
	char buf[128];
	struct stream_decision d = decision("capacity_misfit", 1, 4);

	topo();
	d.util = 98;
	d.from_cap = 286;
	reason_describe(m, &d, buf, sizeof(buf));
	CHECK_STR_CONTAINS(buf, "capacity misfit: util 98 of cap 286");
	CHECK(strstr(buf, ">") == NULL);
	d.util = 229; /* 229 * 1.25 = 286.25 > 286: just over */
	reason_describe(m, &d, buf, sizeof(buf));
	CHECK_STR_CONTAINS(buf, "util 229 > 80% of cap 286");
	d.util = 228;
	reason_describe(m, &d, buf, sizeof(buf));
	CHECK_STR_CONTAINS(buf, "util 228 of cap 286");
}

static void test_power_misfit_names_the_clamp_and_the_costly_domain(void)
{
	char buf[128];
	struct stream_decision d = decision("power_misfit", 7, 4);

	topo();
	d.uclamp_max = 300;
	reason_describe(m, &d, buf, sizeof(buf));
	CHECK_STR_CONTAINS(buf, "power misfit: uclamp_max 300 on big");
}

static void test_move_within_a_domain_is_worded_as_a_cheaper_cpu(void)
{
	char buf[128];
	struct stream_decision d = decision("wakeup_energy", 4, 5);

	topo();
	reason_describe(m, &d, buf, sizeof(buf));
	CHECK_STR_CONTAINS(buf, "cheaper CPU in mid");
	CHECK(!strstr(buf, "vs"));
}

static void test_cheaper_opp_compares_target_and_source_opps_in_ghz(void)
{
	char buf[128];
	struct stream_decision d = decision("wakeup_energy", 6, 4);

	topo();
	d.to_freq_khz = 1401600;
	d.from_freq_khz = 844800;
	reason_describe(m, &d, buf, sizeof(buf));
	CHECK_STR_CONTAINS(buf, "cheaper OPP: mid 1.4 GHz vs big 0.8 GHz");
	d.to_freq_khz = d.from_freq_khz = -1; /* optional fields absent: names only */
	reason_describe(m, &d, buf, sizeof(buf));
	CHECK_STR_CONTAINS(buf, "cheaper OPP: mid vs big");
}

static void test_every_known_reason_is_a_sentence_not_its_code(void)
{
	static const char *const codes[] = {
	    "wakeup_energy", "capacity_misfit", "power_misfit", "overutilized_spread",
	    "idle_pull",     "affinity",	"fork",		"balance"};
	char buf[128];

	topo();
	for (size_t i = 0; i < sizeof(codes) / sizeof(codes[0]); i++) {
		struct stream_decision d = decision(codes[i], 6, 4);
		CHECK(d.reason != REASON_UNKNOWN);
		reason_describe(m, &d, buf, sizeof(buf));
		CHECK(strcmp(buf, codes[i]) != 0);
		CHECK(strchr(buf, ':') != NULL); /* "what: the numbers that made it so" */
	}
}

static void test_unknown_reason_code_is_shown_verbatim(void)
{
	char buf[128];
	struct stream_decision d = decision("thermal_pressure", 6, 4);

	topo();
	CHECK_EQ_I(d.reason, REASON_UNKNOWN);
	reason_describe(m, &d, buf, sizeof(buf));
	CHECK_STR_CONTAINS(buf, "thermal_pressure");
}

static void test_move_names_cpus_and_domains(void)
{
	char buf[64];
	struct stream_decision d = decision("power_misfit", 7, 4);

	topo();
	reason_move(m, &d, buf, sizeof(buf));
	CHECK_STR_CONTAINS(buf, "cpu7 big->cpu4 mid");
	d.from = -1;
	reason_move(m, &d, buf, sizeof(buf));
	CHECK_STR_CONTAINS(buf, "new->cpu4 mid");
}

static void test_units_are_rounded_and_signed(void)
{
	char buf[32];

	fmt_power_uw(buf, sizeof(buf), -81000);
	CHECK_STR_CONTAINS(buf, "-81.0 mW");
	fmt_power_uw(buf, sizeof(buf), 152049);
	CHECK_STR_CONTAINS(buf, "152.0 mW");
	fmt_power_uw(buf, sizeof(buf), 1022000);
	CHECK_STR_CONTAINS(buf, "1.02 W");
	fmt_power_uw(buf, sizeof(buf), 0);
	CHECK_STR_CONTAINS(buf, "0.0 mW");
	fmt_freq_khz(buf, sizeof(buf), 2841600);
	CHECK_STR_CONTAINS(buf, "2.8 GHz");
	fmt_freq_khz(buf, sizeof(buf), 1958400);
	CHECK_STR_CONTAINS(buf, "2.0 GHz");
	fmt_energy_uj(buf, sizeof(buf), 1500000);
	CHECK_STR_CONTAINS(buf, "1.50 J");
	fmt_energy_uj(buf, sizeof(buf), 12345000000ull);
	CHECK_STR_CONTAINS(buf, "12.3 kJ");
	fmt_time_us(buf, sizeof(buf), 1251200);
	CHECK_STR_CONTAINS(buf, "1.251s");
}

static void test_filter_matches_task_pid_code_and_words(void)
{
	struct stream_decision d = decision("power_misfit", 7, 4);

	topo();
	d.uclamp_max = 300;
	CHECK(reason_matches(m, &d, ""));
	CHECK(reason_matches(m, &d, "MEDIA"));
	CHECK(reason_matches(m, &d, "57"));
	CHECK(!reason_matches(m, &d, "5")); /* a pid matches whole, not as a prefix */
	CHECK(reason_matches(m, &d, "power_misfit"));
	CHECK(reason_matches(m, &d, "power misfit"));
	CHECK(reason_matches(m, &d, "uclamp_max 300"));
	CHECK(!reason_matches(m, &d, "capacity"));
	CHECK(!reason_matches(m, &d, "ui"));
}

static void test_idle_costs_read_as_power_and_exit_latency(void)
{
	struct stream_domain_info d = {
	    .has_idle = true, .static_uw = 40000, .nr_cpu_idle = 2, .nr_cluster_idle = 1};
	char buf[160], small[24];

	strcpy(d.cpu_idle[0].name, "wfi");
	d.cpu_idle[0].power_uw = 5000;
	d.cpu_idle[0].exit_latency_us = 1;
	strcpy(d.cpu_idle[1].name, "pc");
	d.cpu_idle[1].exit_latency_us = 80;
	strcpy(d.cluster_idle[0].name, "off");
	d.cluster_idle[0].power_uw = 20;
	d.cluster_idle[0].exit_latency_us = 1200;
	fmt_domain_idle(buf, sizeof(buf), &d);
	CHECK_STR_CONTAINS(
	    buf, "static 40.0 mW; cpu wfi 5.0 mW/1us, pc 0.0 mW/80us; cluster off 0.0 mW/1200us");
	/* cut at the buffer, still terminated */
	fmt_domain_idle(small, sizeof(small), &d);
	CHECK(strlen(small) == sizeof(small) - 1);
	CHECK_STR_CONTAINS(small, "static 40.0 mW; cpu");
	d.has_idle = false;
	fmt_domain_idle(buf, sizeof(buf), &d);
	CHECK(buf[0] == '\0');
}

int main(void)
{
	m = malloc(sizeof(*m));
	TAP_RUN(test_capacity_misfit_quotes_util_margin_and_capacity);
	TAP_RUN(test_capacity_misfit_takes_capacity_from_topology_when_absent);
	TAP_RUN(test_capacity_misfit_claims_the_margin_only_when_the_numbers_show_it);
	TAP_RUN(test_power_misfit_names_the_clamp_and_the_costly_domain);
	TAP_RUN(test_cheaper_opp_compares_target_and_source_opps_in_ghz);
	TAP_RUN(test_move_within_a_domain_is_worded_as_a_cheaper_cpu);
	TAP_RUN(test_every_known_reason_is_a_sentence_not_its_code);
	TAP_RUN(test_unknown_reason_code_is_shown_verbatim);
	TAP_RUN(test_move_names_cpus_and_domains);
	TAP_RUN(test_units_are_rounded_and_signed);
	TAP_RUN(test_filter_matches_task_pid_code_and_words);
	TAP_RUN(test_idle_costs_read_as_power_and_exit_latency);
	free(m);
	return tap_done();
}
