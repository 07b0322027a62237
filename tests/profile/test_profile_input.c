// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_profile_input.c - what the profiler reads besides the board: an external meter's lines
 * (prof_meter_sample_uw) and the progress file of an interrupted run (prof_progress_parse).
 * Each is refused as a whole or read as a whole; the fuzz suite runs both on arbitrary bytes.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "meter_sample.h"
#include "profile.h"
#include "tap.h"

/* Is line a sample of want uW (want < 0: no sample)? */
static bool sample_is(const char *line, double want)
{
	double uw = -2;
	bool ok = prof_meter_sample_uw(line, &uw);

	if (want < 0)
		return !ok;
	return ok && uw > want - 1e-6 && uw < want + 1e-6;
}

static void test_a_meter_line_is_a_power_or_no_sample(void)
{
	CHECK(sample_is("512.3 mW", 512300));
	CHECK(sample_is("0.51 W", 510000));
	CHECK(sample_is("30000", 30000));
	CHECK(sample_is("power: 12.5\tmW", 12500));
	CHECK(sample_is("", -1));
	CHECK(sample_is("mW", -1));
	CHECK(sample_is("-3 mW", -1));
	/* strtod reads these as not-a-number and infinity: not a power a meter measured */
	CHECK(sample_is("-nan mW", -1));
	CHECK(sample_is("-inf W", -1));
	CHECK(sample_is("1e999 W", -1));
	CHECK(sample_is("5000 W", -1)); /* beyond 4e9 uW, a sample's u32 */
}

static struct prof_result res;

/* A topology of two domains measured by iterations (perf_src 0): little (300000, 600000 kHz) and
 * big (500000, 900000, 1200000). */
static void topo(void)
{
	memset(&res, 0, sizeof(res));
	res.topo.nr_domains = 2;
	snprintf(res.topo.dom[0].name, sizeof(res.topo.dom[0].name), "little");
	res.topo.dom[0].nr_opps = 2;
	res.topo.dom[0].freq_khz[0] = 300000;
	res.topo.dom[0].freq_khz[1] = 600000;
	snprintf(res.topo.dom[1].name, sizeof(res.topo.dom[1].name), "big");
	res.topo.dom[1].nr_opps = 3;
	res.topo.dom[1].freq_khz[0] = 500000;
	res.topo.dom[1].freq_khz[1] = 900000;
	res.topo.dom[1].freq_khz[2] = 1200000;
	res.split_cpus = 0;
}

#define HEAD                                                                                       \
	"gearbox-profile-progress/1\n"                                                             \
	"run sim iterations 0 2 5000000000 -2147483648 -2147483648 0\n"                            \
	"dom 0 little 2 300000 600000\n"                                                           \
	"dom 1 big 3 500000 900000 1200000\n"
#define OPP_1_2                                                                                    \
	"opp 1 2 1200000 812345.5 900 800000 12000 1000 2 1200000 0 40 1 250000000 1 0 0 1 0 0 0 " \
	"0 0 0 0 0 0 0\n"

/* prof_progress_parse on a copy of text: its return, with the message in *err. */
static int parse(const char *text, struct gb_err *err)
{
	static char buf[4096];

	snprintf(buf, sizeof(buf), "%s", text);
	memset(err, 0, sizeof(*err));
	return prof_progress_parse(buf, "progress", "sim", &res, err);
}

static void test_a_progress_file_of_this_profile_is_read_back(void)
{
	struct gb_err err;

	topo();
	CHECK_EQ_I(parse(HEAD OPP_1_2, &err), 0);
	CHECK_EQ_U(res.opp[1][2].measurements, 1);
	CHECK_EQ_U(res.opp[1][2].freq_khz, 1200000);
	CHECK(res.opp[1][2].power_uw > 812345 && res.opp[1][2].power_uw < 812346);
	CHECK_EQ_U(res.opp[0][0].measurements, 0);
	CHECK_EQ_U(res.total_ns, 5000000000ull);
}

static void test_a_progress_file_of_another_profile_or_none_is_refused(void)
{
	static const char *const bad[] = {
	    "",
	    "gearbox-profile-progress/2\n",
	    HEAD "opp 2 0 300000 1 1 1 1 1 1 1 0 1 0 1 1 0 0 1 0 0 0 0 0 0 0 0 0 0\n",
	    HEAD "opp 1 2 1100000 1 1 1 1 1 1 1 0 1 0 1 1 0 0 1 0 0 0 0 0 0 0 0 0 0\n",
	    HEAD "opp 1 2 1200000 1 1 1 1 1 1 1 0 1 0 1 1 0 0 0 0 0 0 0 0 0 0 0 0 0\n",
	    HEAD "opp 1 2 1200000 1 1 1 1 1 1 1 99 1 0 1 1 0 0 1 0 0 0 0 0 0 0 0 0 0\n",
	    HEAD "opp 1 2 1200000 1 1\n",
	    HEAD "something else\n",
	    "gearbox-profile-progress/1\nrun linux iterations 0 2 0 0 0 0\n",
	    "gearbox-profile-progress/1\nrun sim instructions 0 2 0 0 0 0\n",
	    "gearbox-profile-progress/1\nrun sim iterations 0 3 0 0 0 0\n",
	    "gearbox-profile-progress/1\ndom 0 mid 2 300000 600000\n",
	    "gearbox-profile-progress/1\ndom 1 big 3 500000 900000\n",
	    "gearbox-profile-progress/1\ndom 1 big 3 500000 900000 1300000\n",
	    "gearbox-profile-progress/1\ndom 7 big 3 500000 900000 1200000\n",
	};
	struct gb_err err;

	for (unsigned i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		topo();
		if (parse(bad[i], &err) != -EINVAL || !strstr(err.msg, "progress")) {
			printf("# case %u: %s\n", i, err.msg);
			CHECK(0);
		}
	}
}

int main(void)
{
	TAP_RUN(test_a_meter_line_is_a_power_or_no_sample);
	TAP_RUN(test_a_progress_file_of_this_profile_is_read_back);
	TAP_RUN(test_a_progress_file_of_another_profile_or_none_is_refused);
	return tap_done();
}
