// SPDX-License-Identifier: GPL-2.0-only
/*
 * test_em_netlink.c - the dev-energymodel netlink reader against a fake kernel that answers
 * as kernel/power/em_netlink.c (Linux 7.2) does: nlctrl resolves the family, the domain dump
 * comes in several datagrams with NLM_F_MULTI and ends with NLMSG_DONE, u64 attributes are
 * 4-byte aligned with PAD attributes where nla_put_u64_64bit puts them, perf states are
 * NLA_F_NESTED nests.  The fake also checks the requests (commands, flags, the family name,
 * the domain ids asked for).  Then the conversion into an em-profile, and the failures: no
 * family, a malformed reply, a kernel error, no reply, an artificial or abstract-scale EM.
 *
 * The real kernel is tested where it is: test_profile_cli.sh (this host, no family) and the
 * VM test (guest-em-netlink.sh, the family with no perf domain on x86).
 */
#include <errno.h>
#include <limits.h>
#include <linux/genetlink.h>
#include <linux/netlink.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "kernel_em.h"
#include "tap.h"

#define FAM_ID 0x1f
#define MAXQ   16
#define DGRAM  65536

struct fpd {
	u32 id;
	u64 flags;
	int ncpus, cpus[8];
	int nstates;
	struct emnl_state st[40];
};

static struct fake {
	bool no_family, no_reply, corrupt_table, short_u64;
	int table_errno;     /* NLMSG_ERROR for get-perf-table */
	int table_error_raw; /* the same, sent as is: a code that is no -errno */
	int per_dgram;	     /* domain messages per dump datagram */
	int npd;
	struct fpd pd[5];
	/* seen */
	int getfamily, dumps, tables, bad_requests;
	u32 table_id[8];
	/* reply datagrams */
	unsigned char *q[MAXQ];
	size_t qlen[MAXQ];
	int qh, qt;
} fk;

/* --- building replies as the kernel does --- */

struct mb {
	unsigned char *b;
	size_t len, msg;
};

static void mb_begin(struct mb *m, u16 type, u16 flags, u32 seq, u8 cmd)
{
	struct nlmsghdr nh = {.nlmsg_type = type, .nlmsg_flags = flags, .nlmsg_seq = seq};
	struct genlmsghdr gh = {.cmd = cmd, .version = 1};

	m->msg = m->len;
	memcpy(m->b + m->len, &nh, sizeof(nh));
	memcpy(m->b + m->len + NLMSG_HDRLEN, &gh, sizeof(gh));
	m->len += NLMSG_HDRLEN + GENL_HDRLEN;
}

static void mb_end(struct mb *m)
{
	u32 len = (u32)(m->len - m->msg);

	memcpy(m->b + m->msg, &len, sizeof(len));
	m->len = m->msg + NLMSG_ALIGN(len);
}

static size_t mb_attr(struct mb *m, u16 type, const void *data, u16 len)
{
	struct nlattr a = {.nla_len = (u16)(NLA_HDRLEN + len), .nla_type = type};
	size_t at = m->len;

	memcpy(m->b + m->len, &a, sizeof(a));
	if (len)
		memcpy(m->b + m->len + NLA_HDRLEN, data, len);
	m->len += NLA_ALIGN(a.nla_len);
	return at;
}

/* nla_put_u64_64bit: a PAD first when the value would not be 8-byte aligned */
static void mb_u64(struct mb *m, u16 type, u64 v, u16 pad)
{
	if (m->len % 8 == 0)
		mb_attr(m, pad, NULL, 0);
	mb_attr(m, type, &v, fk.short_u64 ? 4 : 8);
}

static void mb_u32(struct mb *m, u16 type, u32 v)
{
	mb_attr(m, type, &v, sizeof(v));
}

static size_t mb_nest(struct mb *m, u16 type)
{
	return mb_attr(m, type | NLA_F_NESTED, NULL, 0);
}

static void mb_nest_end(struct mb *m, size_t at)
{
	u16 len = (u16)(m->len - at);

	memcpy(m->b + at, &len, sizeof(len));
}

static void mb_error(struct mb *m, u32 seq, int error)
{
	struct nlmsghdr nh = {.nlmsg_type = NLMSG_ERROR, .nlmsg_seq = seq};
	struct nlmsgerr e = {.error = error};

	m->msg = m->len;
	nh.nlmsg_len = NLMSG_LENGTH(sizeof(e));
	memcpy(m->b + m->len, &nh, sizeof(nh));
	memcpy(m->b + m->len + NLMSG_HDRLEN, &e, sizeof(e));
	m->len += NLMSG_ALIGN(nh.nlmsg_len);
}

static void mb_done(struct mb *m, u32 seq)
{
	struct nlmsghdr nh = {.nlmsg_type = NLMSG_DONE,
			      .nlmsg_flags = NLM_F_MULTI,
			      .nlmsg_seq = seq,
			      .nlmsg_len = NLMSG_LENGTH(sizeof(int))};
	int zero = 0;

	memcpy(m->b + m->len, &nh, sizeof(nh));
	memcpy(m->b + m->len + NLMSG_HDRLEN, &zero, sizeof(zero));
	m->len += NLMSG_ALIGN(nh.nlmsg_len);
}

static struct mb *dgram(void)
{
	static struct mb m;

	fk.q[fk.qt] = calloc(1, DGRAM);
	m.b = fk.q[fk.qt];
	m.len = m.msg = 0;
	return &m;
}

static void dgram_push(struct mb *m)
{
	fk.qlen[fk.qt++] = m->len;
}

/* --- the fake kernel's side of the transport --- */

/* The first attribute of type in a request's payload, or NULL. */
static const struct nlattr *req_attr(const unsigned char *msg, u16 type)
{
	const struct nlmsghdr *nh = (const void *)msg;
	const unsigned char *p = msg + NLMSG_HDRLEN + GENL_HDRLEN, *end = msg + nh->nlmsg_len;

	while (p + NLA_HDRLEN <= end) {
		const struct nlattr *a = (const void *)p;

		if (a->nla_len < NLA_HDRLEN)
			return NULL;
		if (a->nla_type == type)
			return a;
		p += NLA_ALIGN(a->nla_len);
	}
	return NULL;
}

static void reply_table(const struct nlmsghdr *nh, u32 id)
{
	struct mb *m = dgram();
	struct fpd *pd = NULL;

	for (int i = 0; i < fk.npd; i++)
		if (fk.pd[i].id == id)
			pd = &fk.pd[i];
	if (!pd || fk.table_errno || fk.table_error_raw) {
		mb_error(m, nh->nlmsg_seq,
			 fk.table_error_raw ? fk.table_error_raw
					    : -(fk.table_errno ? fk.table_errno : EINVAL));
		dgram_push(m);
		return;
	}
	mb_begin(m, FAM_ID, 0, nh->nlmsg_seq, EMNL_CMD_GET_PERF_TABLE);
	mb_u32(m, EMNL_A_PERF_TABLE_PERF_DOMAIN_ID, pd->id);
	for (int k = 0; k < pd->nstates; k++) {
		size_t at = mb_nest(m, EMNL_A_PERF_TABLE_PERF_STATE);
		const struct emnl_state *s = &pd->st[k];

		mb_u64(m, EMNL_A_PERF_STATE_PERFORMANCE, s->performance, EMNL_A_PERF_STATE_PAD);
		mb_u64(m, EMNL_A_PERF_STATE_FREQUENCY, s->frequency_khz, EMNL_A_PERF_STATE_PAD);
		mb_u64(m, EMNL_A_PERF_STATE_POWER, s->power, EMNL_A_PERF_STATE_PAD);
		mb_u64(m, EMNL_A_PERF_STATE_COST, s->cost, EMNL_A_PERF_STATE_PAD);
		mb_u64(m, EMNL_A_PERF_STATE_FLAGS, s->flags, EMNL_A_PERF_STATE_PAD);
		mb_nest_end(m, at);
	}
	mb_end(m);
	if (fk.corrupt_table) {
		/* the last state's nest claims more than the message holds */
		u16 big = 0x4000;
		size_t at = m->msg + NLMSG_HDRLEN + GENL_HDRLEN + NLA_ALIGN(NLA_HDRLEN + 4);

		memcpy(m->b + at, &big, sizeof(big));
	}
	dgram_push(m);
}

static int fake_send(void *ctx, const void *msg, size_t len)
{
	const struct nlmsghdr *nh = msg;
	const struct genlmsghdr *gh = (const void *)((const unsigned char *)msg + NLMSG_HDRLEN);
	struct mb *m;

	(void)ctx;
	if (len < NLMSG_LENGTH(GENL_HDRLEN) || nh->nlmsg_len != len ||
	    !(nh->nlmsg_flags & NLM_F_REQUEST)) {
		fk.bad_requests++;
		return 0;
	}
	if (fk.no_reply)
		return 0;
	if (nh->nlmsg_type == GENL_ID_CTRL && gh->cmd == CTRL_CMD_GETFAMILY) {
		const struct nlattr *a = req_attr(msg, CTRL_ATTR_FAMILY_NAME);
		u16 id = FAM_ID;

		fk.getfamily++;
		if (!a || strcmp((const char *)a + NLA_HDRLEN, "dev-energymodel"))
			fk.bad_requests++;
		m = dgram();
		if (fk.no_family) {
			mb_error(m, nh->nlmsg_seq, -ENOENT);
		} else {
			mb_begin(m, GENL_ID_CTRL, 0, nh->nlmsg_seq, CTRL_CMD_NEWFAMILY);
			mb_attr(m, CTRL_ATTR_FAMILY_NAME, "dev-energymodel", 16);
			mb_attr(m, CTRL_ATTR_FAMILY_ID, &id, sizeof(id));
			mb_u32(m, CTRL_ATTR_VERSION, 1);
			mb_end(m);
		}
		dgram_push(m);
	} else if (nh->nlmsg_type == FAM_ID && gh->cmd == EMNL_CMD_GET_PERF_DOMAINS) {
		if ((nh->nlmsg_flags & NLM_F_DUMP) != NLM_F_DUMP)
			fk.bad_requests++;
		fk.dumps++;
		m = dgram();
		for (int i = 0; i < fk.npd; i++) {
			if (i && i % fk.per_dgram == 0) {
				dgram_push(m);
				m = dgram();
			}
			mb_begin(m, FAM_ID, NLM_F_MULTI, nh->nlmsg_seq, EMNL_CMD_GET_PERF_DOMAINS);
			mb_u32(m, EMNL_A_PERF_DOMAIN_PERF_DOMAIN_ID, fk.pd[i].id);
			mb_u64(m, EMNL_A_PERF_DOMAIN_FLAGS, fk.pd[i].flags, EMNL_A_PERF_DOMAIN_PAD);
			for (int c = 0; c < fk.pd[i].ncpus; c++)
				mb_u64(m, EMNL_A_PERF_DOMAIN_CPUS, (u64)fk.pd[i].cpus[c],
				       EMNL_A_PERF_DOMAIN_PAD);
			mb_end(m);
		}
		mb_done(m, nh->nlmsg_seq);
		dgram_push(m);
	} else if (nh->nlmsg_type == FAM_ID && gh->cmd == EMNL_CMD_GET_PERF_TABLE) {
		const struct nlattr *a = req_attr(msg, EMNL_A_PERF_TABLE_PERF_DOMAIN_ID);
		u32 id = ~0u;

		if (!a || a->nla_len != NLA_HDRLEN + 4 || (nh->nlmsg_flags & NLM_F_DUMP))
			fk.bad_requests++;
		else
			memcpy(&id, (const unsigned char *)a + NLA_HDRLEN, 4);
		if (fk.tables < 8)
			fk.table_id[fk.tables] = id;
		fk.tables++;
		reply_table(nh, id);
	} else {
		fk.bad_requests++;
	}
	return 0;
}

static ssize_t fake_recv(void *ctx, void *buf, size_t len)
{
	size_t n;

	(void)ctx;
	if (fk.qh == fk.qt)
		return -EAGAIN; /* what SO_RCVTIMEO gives */
	n = fk.qlen[fk.qh];
	memcpy(buf, fk.q[fk.qh], n < len ? n : len);
	free(fk.q[fk.qh++]);
	return (ssize_t)n;
}

static struct emnl_xport xp = {.send = fake_send, .recv = fake_recv};

/* --- a board: little 0-3 (3 OPPs), big 4-7 (4 OPPs), a GPU (devfreq: no CPUs) --- */

static void add_pd(u32 id, u64 flags, int first, int ncpus, int nstates, u32 f0, u32 df, u32 p0,
		   u32 perf_top)
{
	struct fpd *pd = &fk.pd[fk.npd++];

	pd->id = id;
	pd->flags = flags;
	pd->ncpus = ncpus;
	for (int c = 0; c < ncpus; c++)
		pd->cpus[c] = first + c;
	pd->nstates = nstates;
	for (int k = 0; k < nstates; k++) {
		struct emnl_state *s = &pd->st[k];

		s->frequency_khz = f0 + (u64)k * df;
		s->power = (u64)p0 * (k + 1) * (k + 1);
		s->performance = perf_top * s->frequency_khz / (f0 + (u64)(nstates - 1) * df);
		s->cost = s->power * 10 / s->performance; /* 7.2's em_compute_costs() */
	}
}

static void board(void)
{
	while (fk.qh < fk.qt)
		free(fk.q[fk.qh++]);
	memset(&fk, 0, sizeof(fk));
	fk.per_dgram = 1;
	add_pd(0, EMNL_PD_FLAG_MICROWATTS, 0, 4, 3, 600000, 600000, 30000, 400);
	add_pd(1, EMNL_PD_FLAG_MICROWATTS | EMNL_PD_FLAG_SKIP_INEFFICIENCIES, 4, 4, 4, 800000,
	       600000, 150000, 1024);
	add_pd(2, EMNL_PD_FLAG_MICROWATTS, 0, 0, 2, 200000, 200000, 500000, 1024); /* GPU */
}

static struct emnl_model *model;
static struct em_profile *prof;
static struct gb_err err;
static char sysfs[64];

/* sysfs/cpufreq/policyN/related_cpus for each list */
static void make_sysfs(const char *const *lists, int n)
{
	char path[256];

	snprintf(sysfs, sizeof(sysfs), "/tmp/gb-emnl-XXXXXX");
	if (!mkdtemp(sysfs))
		return;
	snprintf(path, sizeof(path), "%s/cpufreq", sysfs);
	mkdir(path, 0755);
	for (int i = 0; i < n; i++) {
		FILE *f;

		snprintf(path, sizeof(path), "%s/cpufreq/policy%d", sysfs, i * 4);
		mkdir(path, 0755);
		snprintf(path, sizeof(path), "%s/cpufreq/policy%d/related_cpus", sysfs, i * 4);
		f = fopen(path, "w");
		if (f) {
			fprintf(f, "%s\n", lists[i]);
			fclose(f);
		}
	}
}

static void rm_sysfs(void)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf %s", sysfs);
	if (system(cmd) != 0)
		printf("# could not remove %s\n", sysfs);
}

static void test_reads_every_domain_and_table_as_the_kernel_sends_them(void)
{
	board();
	CHECK_EQ_I(emnl_read(&xp, model, &err), 0);
	CHECK_EQ_I(fk.bad_requests, 0);
	CHECK_EQ_I(fk.getfamily, 1);
	CHECK_EQ_I(fk.dumps, 1);
	CHECK_EQ_I(fk.tables, 3);
	CHECK_EQ_U(fk.table_id[0], 0);
	CHECK_EQ_U(fk.table_id[2], 2);
	CHECK_EQ_U(model->family_id, FAM_ID);
	CHECK_EQ_U(model->family_version, 1);
	CHECK_EQ_U(model->nr_domains, 3);
	CHECK_EQ_U(model->dom[1].id, 1);
	CHECK_EQ_U(model->dom[1].flags, 3);
	CHECK_EQ_U(model->dom[1].nr_cpus, 4);
	CHECK(em_cpumask_test(&model->dom[1].cpus, 4) && em_cpumask_test(&model->dom[1].cpus, 7));
	CHECK(!em_cpumask_test(&model->dom[1].cpus, 3));
	CHECK_EQ_U(model->dom[2].nr_cpus, 0);
	CHECK_EQ_U(model->dom[1].nr_states, 4);
	CHECK_EQ_U(model->dom[1].states[3].frequency_khz, 2600000);
	CHECK_EQ_U(model->dom[1].states[3].power, 150000 * 16);
	CHECK_EQ_U(model->dom[1].states[3].performance, 1024);
	CHECK_EQ_U(model->dom[1].states[0].cost, fk.pd[1].st[0].cost);
}

static void test_dump_in_one_datagram_reads_the_same(void)
{
	board();
	fk.per_dgram = 8;
	CHECK_EQ_I(emnl_read(&xp, model, &err), 0);
	CHECK_EQ_U(model->nr_domains, 3);
	CHECK_EQ_U(model->dom[0].nr_states, 3);
	CHECK_EQ_U(model->dom[0].states[2].power, 30000 * 9);
}

static void test_converts_to_the_em_profile_the_debugfs_importer_gives(void)
{
	static const char *const pol[] = {"0-3", "4-7"};
	u32 skipped = 99;

	board();
	CHECK_EQ_I(emnl_read(&xp, model, &err), 0);
	make_sysfs(pol, 2);
	CHECK_EQ_I(prof_kem_from_netlink(model, sysfs, prof, &skipped, &err), 0);
	rm_sysfs();
	CHECK_EQ_U(skipped, 1); /* the GPU */
	CHECK_EQ_U(prof->model.nr_domains, 2);
	CHECK(!strcmp(prof->model.domains[0].name, "cpu0"));
	CHECK(!strcmp(prof->model.domains[1].name, "cpu4"));
	CHECK_EQ_U(prof->model.domains[1].nr_opps, 4);
	CHECK_EQ_U(prof->model.domains[1].opps[3].power_uw, 2400000);
	CHECK_EQ_U(prof->model.domains[1].opps[3].perf, 1024);
	CHECK_EQ_U(prof->model.domains[0].opps[0].freq_khz, 600000);
	CHECK_EQ_U(prof->model.domains[0].opps[2].perf, 400);
	CHECK_EQ_U(prof->model.cpu_domain[5], 1);
	/* finalized: gearbox derives the cost the kernel sent */
	CHECK_EQ_U(prof->model.domains[1].opps[0].cost, fk.pd[1].st[0].cost);
	CHECK_EQ_U(prof->model.domains[0].opps[2].cost, fk.pd[0].st[2].cost);
	CHECK(!strcmp(prof->prov.source, "netlink"));
	CHECK_STR_CONTAINS(prof->prov.conditions, "dev-energymodel generic netlink family");
}

static void test_domain_not_matching_a_cpufreq_policy_is_left_out(void)
{
	/* 7.2 sends a device domain's "CPUs" from past its allocation: garbage must not pass */
	static const char *const pol[] = {"0-3", "4-7"};
	u32 skipped = 0;

	board();
	fk.pd[2].ncpus = 2; /* the GPU with CPUs 0-1 */
	CHECK_EQ_I(emnl_read(&xp, model, &err), 0);
	make_sysfs(pol, 2);
	CHECK_EQ_I(prof_kem_from_netlink(model, sysfs, prof, &skipped, &err), 0);
	rm_sysfs();
	CHECK_EQ_U(skipped, 1);
	CHECK_EQ_U(prof->model.nr_domains, 2);
	/* without policies to check against, only CPU-less domains go */
	board();
	CHECK_EQ_I(emnl_read(&xp, model, &err), 0);
	make_sysfs(NULL, 0);
	CHECK_EQ_I(prof_kem_from_netlink(model, sysfs, prof, &skipped, &err), 0);
	rm_sysfs();
	CHECK_EQ_U(prof->model.nr_domains, 2);
}

static void test_no_family_fails_naming_the_family_and_the_kernel(void)
{
	struct utsname u;

	board();
	fk.no_family = true;
	CHECK_EQ_I(emnl_read(&xp, model, &err), -ENOENT);
	CHECK_EQ_I(fk.dumps, 0);
	CHECK_STR_CONTAINS(err.msg, "the kernel has no \"dev-energymodel\" generic netlink family");
	CHECK_STR_CONTAINS(err.msg, "CONFIG_ENERGY_MODEL");
	if (uname(&u) == 0)
		CHECK_STR_CONTAINS(err.msg, u.release);
}

static void test_no_perf_domain_reads_zero_and_converts_to_enoent(void)
{
	board();
	fk.npd = 0;
	CHECK_EQ_I(emnl_read(&xp, model, &err), 0);
	CHECK_EQ_U(model->nr_domains, 0);
	CHECK_EQ_I(fk.tables, 0);
	CHECK_EQ_I(prof_kem_from_netlink(model, NULL, prof, NULL, &err), -ENOENT);
	CHECK_STR_CONTAINS(err.msg, "0 perf domains");
}

static void test_artificial_or_abstract_scale_em_is_refused(void)
{
	static const char *const pol[] = {"0-3", "4-7"};

	make_sysfs(pol, 2);
	board();
	fk.pd[1].flags |= EMNL_PD_FLAG_ARTIFICIAL;
	CHECK_EQ_I(emnl_read(&xp, model, &err), 0);
	CHECK_EQ_I(prof_kem_from_netlink(model, sysfs, prof, NULL, &err), -EINVAL);
	CHECK_STR_CONTAINS(err.msg, "perf domain 1: the kernel's EM is artificial");
	board();
	fk.pd[0].flags = 0;
	CHECK_EQ_I(emnl_read(&xp, model, &err), 0);
	CHECK_EQ_I(prof_kem_from_netlink(model, sysfs, prof, NULL, &err), -EINVAL);
	CHECK_STR_CONTAINS(err.msg, "lacks MICROWATTS");
	rm_sysfs();
}

static void test_more_states_than_a_model_holds_are_counted_and_refused(void)
{
	board();
	fk.npd = 1;
	fk.pd[0].ncpus = 4;
	fk.pd[0].nstates = 40;
	for (int k = 0; k < 40; k++) {
		fk.pd[0].st[k].frequency_khz = 100000 + 50000 * (u64)k;
		fk.pd[0].st[k].power = 1000 + 1000 * (u64)k;
		fk.pd[0].st[k].performance = 10 + 20 * (u64)k;
	}
	CHECK_EQ_I(emnl_read(&xp, model, &err), 0);
	CHECK_EQ_U(model->dom[0].nr_states, 40);
	CHECK_EQ_I(prof_kem_from_netlink(model, NULL, prof, NULL, &err), -EINVAL);
	CHECK_STR_CONTAINS(err.msg, "40 performance states");
}

static void test_malformed_reply_is_ebadmsg_naming_the_request(void)
{
	board();
	fk.corrupt_table = true;
	CHECK_EQ_I(emnl_read(&xp, model, &err), -EBADMSG);
	CHECK_STR_CONTAINS(err.msg, "get-perf-table of domain 0: malformed reply");
	board();
	fk.short_u64 = true; /* a u64 attribute of 4 bytes */
	CHECK_EQ_I(emnl_read(&xp, model, &err), -EBADMSG);
	CHECK_STR_CONTAINS(err.msg, "get-perf-domains (dump): malformed reply");
}

static void test_kernel_error_and_no_reply_fail_cleanly(void)
{
	board();
	fk.table_errno = EINVAL; /* a domain removed between the dump and the table */
	CHECK_EQ_I(emnl_read(&xp, model, &err), -EINVAL);
	CHECK_STR_CONTAINS(err.msg, "get-perf-table of domain 0: Invalid argument");
	board();
	fk.no_reply = true;
	CHECK_EQ_I(emnl_read(&xp, model, &err), -ETIMEDOUT);
	CHECK_STR_CONTAINS(err.msg, "no reply from the kernel");
}

/* Every value of a state is checked against the model's range before it is stored, and the
 * message names the perf domain, the state and the field (4294967297 kHz is not 1 kHz) */
static void test_state_values_out_of_range_are_named(void)
{
	static const struct {
		int field;
		u64 v;
		const char *msg;
	} cases[] = {
	    {0, 4294967297ull, "perf domain 1, state 2: frequency 4294967297 kHz is outside"},
	    {0, 0, "perf domain 1, state 2: frequency 0 kHz is outside"},
	    {1, 70000000, "perf domain 1, state 2: power 70000000 uW is outside 1..64000000"},
	    {2, 2000, "perf domain 1, state 2: performance 2000 is outside 1..1024"},
	};

	for (unsigned i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct emnl_state *st;

		board();
		st = &fk.pd[1].st[2];
		if (cases[i].field == 0)
			st->frequency_khz = cases[i].v;
		else if (cases[i].field == 1)
			st->power = cases[i].v;
		else
			st->performance = cases[i].v;
		CHECK_EQ_I(emnl_read(&xp, model, &err), 0);
		CHECK_EQ_I(prof_kem_from_netlink(model, "/nonexistent", prof, NULL, &err), -ERANGE);
		CHECK_STR_CONTAINS(err.msg, cases[i].msg);
	}
}

/* INT_MIN cannot be negated: before the check, UBSan reported the overflow here */
static void test_error_code_that_is_no_errno_is_a_malformed_reply(void)
{
	board();
	fk.table_error_raw = INT_MIN;
	CHECK_EQ_I(emnl_read(&xp, model, &err), -EBADMSG);
	CHECK_STR_CONTAINS(err.msg, "get-perf-table of domain 0: the reply's error code "
				    "-2147483648 is no errno");
	board();
	fk.table_error_raw = -5000;
	CHECK_EQ_I(emnl_read(&xp, model, &err), -EBADMSG);
	CHECK_STR_CONTAINS(err.msg, "error code -5000 is no errno");
}

int main(void)
{
	model = calloc(1, sizeof(*model));
	prof = calloc(1, sizeof(*prof));
	if (!model || !prof)
		return 1;
	TAP_RUN(test_reads_every_domain_and_table_as_the_kernel_sends_them);
	TAP_RUN(test_dump_in_one_datagram_reads_the_same);
	TAP_RUN(test_converts_to_the_em_profile_the_debugfs_importer_gives);
	TAP_RUN(test_domain_not_matching_a_cpufreq_policy_is_left_out);
	TAP_RUN(test_no_family_fails_naming_the_family_and_the_kernel);
	TAP_RUN(test_no_perf_domain_reads_zero_and_converts_to_enoent);
	TAP_RUN(test_artificial_or_abstract_scale_em_is_refused);
	TAP_RUN(test_more_states_than_a_model_holds_are_counted_and_refused);
	TAP_RUN(test_malformed_reply_is_ebadmsg_naming_the_request);
	TAP_RUN(test_kernel_error_and_no_reply_fail_cleanly);
	TAP_RUN(test_error_code_that_is_no_errno_is_a_malformed_reply);
	TAP_RUN(test_state_values_out_of_range_are_named);
	board();
	free(model);
	free(prof);
	return tap_done();
}
