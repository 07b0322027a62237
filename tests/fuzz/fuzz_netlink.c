// SPDX-License-Identifier: GPL-2.0-only
/*
 * fuzz_netlink.c - libFuzzer target for the dev-energymodel netlink reply parser and its
 * conversion into an em-profile.  Input: the kernel's reply datagrams, each a 2-byte
 * little-endian length and its bytes; the fake transport returns them in order, one per recv,
 * with the first message's sequence number set to the request's (the fuzzer cannot guess it),
 * then "no reply" (EAGAIN).  A successful read goes through prof_kem_from_netlink and the
 * oracle of fuzz_common.h.
 */
#include <errno.h>
#include <linux/netlink.h>
#include <stdint.h>

#include "fuzz_common.h"
#include "kernel_em.h"

struct fake_kernel {
	const uint8_t *p, *end;
	uint32_t seq;
};

static int fk_send(void *ctx, const void *msg, size_t len)
{
	struct fake_kernel *k = ctx;
	struct nlmsghdr nh;

	if (len < sizeof(nh))
		abort(); /* our requests always have a header */
	memcpy(&nh, msg, sizeof(nh));
	k->seq = nh.nlmsg_seq;
	return 0;
}

static ssize_t fk_recv(void *ctx, void *buf, size_t len)
{
	struct fake_kernel *k = ctx;
	size_t n;

	if (k->end - k->p < 2)
		return -EAGAIN;
	n = (size_t)k->p[0] | (size_t)k->p[1] << 8;
	k->p += 2;
	if (n > (size_t)(k->end - k->p))
		n = (size_t)(k->end - k->p);
	memcpy(buf, k->p, n < len ? n : len);
	if (n >= sizeof(struct nlmsghdr) && len >= sizeof(struct nlmsghdr))
		memcpy((uint8_t *)buf + offsetof(struct nlmsghdr, nlmsg_seq), &k->seq,
		       sizeof(k->seq));
	k->p += n;
	return (ssize_t)n;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct emnl_model model;
	static struct em_profile prof;
	struct fake_kernel k = {data, data + size, 0};
	struct emnl_xport x = {&k, fk_send, fk_recv};
	struct gb_err err;
	int rc;

	rc = emnl_read(&x, &model, &err);
	if (rc) {
		if (rc > 0 || !err.msg[0])
			abort();
		return 0;
	}
	/* no cpufreq policies to match against: every CPU domain is converted */
	rc = prof_kem_from_netlink(&model, "/nonexistent", &prof, NULL, &err);
	fuzz_check_imported(rc, &prof, &err);
	return 0;
}
