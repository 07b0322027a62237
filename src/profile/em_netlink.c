// SPDX-License-Identifier: GPL-2.0-only
/*
 * em_netlink.c - reads the kernel's energy model through the dev-energymodel generic netlink
 * family (see em_netlink.h for the protocol).
 *
 * Replies are checked as they are parsed, not trusted: every attribute length is checked
 * against its message and its type's size (the kernel sends u64s 4-byte aligned, with PAD
 * attributes in between, so they are copied out, never dereferenced), and anything that does
 * not add up is -EBADMSG naming the request.
 */
#include <errno.h>
#include <linux/genetlink.h>
#include <linux/netlink.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "em_netlink.h"

#define BUF_LEN	  65536 /* a dump part is at most 32 KiB; room to spare */
#define REQ_LEN	  256
#define TIMEOUT_S 2

/* --- the socket transport --- */

static int sock_send(void *ctx, const void *msg, size_t len)
{
	struct sockaddr_nl kernel = {.nl_family = AF_NETLINK};
	int fd = (int)(long)ctx;

	if (sendto(fd, msg, len, 0, (struct sockaddr *)&kernel, sizeof(kernel)) < 0)
		return -errno;
	return 0;
}

static ssize_t sock_recv(void *ctx, void *buf, size_t len)
{
	ssize_t n;

	do
		n = recv((int)(long)ctx, buf, len, MSG_TRUNC);
	while (n < 0 && errno == EINTR);
	return n < 0 ? -errno : n;
}

int emnl_socket_open(struct emnl_xport *x, struct gb_err *err)
{
	struct sockaddr_nl local = {.nl_family = AF_NETLINK};
	struct timeval tv = {.tv_sec = TIMEOUT_S};
	int fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_GENERIC);

	if (fd < 0)
		return gb_err_set(err, errno, "netlink socket (NETLINK_GENERIC): %s",
				  strerror(errno));
	if (bind(fd, (struct sockaddr *)&local, sizeof(local)) < 0 ||
	    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv)) < 0) {
		int e = errno;

		close(fd);
		return gb_err_set(err, e, "netlink socket: %s", strerror(e));
	}
	x->ctx = (void *)(long)fd;
	x->send = sock_send;
	x->recv = sock_recv;
	return 0;
}

void emnl_socket_close(struct emnl_xport *x)
{
	if (x->send == sock_send)
		close((int)(long)x->ctx);
	x->send = NULL;
}

/* --- messages --- */

struct req {
	_Alignas(NLMSG_ALIGNTO) unsigned char buf[REQ_LEN];
	size_t len;
};

static void req_init(struct req *r, u16 type, u16 flags, u32 seq, u8 cmd, u8 version)
{
	struct nlmsghdr *nh = (struct nlmsghdr *)r->buf;
	struct genlmsghdr *gh = (struct genlmsghdr *)NLMSG_DATA(nh);

	memset(r->buf, 0, sizeof(r->buf));
	nh->nlmsg_type = type;
	nh->nlmsg_flags = NLM_F_REQUEST | flags;
	nh->nlmsg_seq = seq;
	gh->cmd = cmd;
	gh->version = version;
	r->len = NLMSG_LENGTH(GENL_HDRLEN);
	nh->nlmsg_len = (u32)r->len;
}

static void req_put(struct req *r, u16 type, const void *data, u16 len)
{
	struct nlattr *a = (struct nlattr *)(r->buf + NLMSG_ALIGN(r->len));

	/* requests are ours and small: REQ_LEN holds the largest */
	a->nla_type = type;
	a->nla_len = (u16)(NLA_HDRLEN + len);
	memcpy((unsigned char *)a + NLA_HDRLEN, data, len);
	r->len = NLMSG_ALIGN(r->len) + NLA_ALIGN(a->nla_len);
	((struct nlmsghdr *)r->buf)->nlmsg_len = (u32)r->len;
}

/* Calls cb for every attribute of [p, p + len); -EBADMSG when one does not fit. */
typedef int (*attr_cb)(u16 type, const unsigned char *data, u16 len, void *arg);

static int walk_attrs(const unsigned char *p, size_t len, attr_cb cb, void *arg)
{
	while (len >= NLA_HDRLEN) {
		struct nlattr a;
		int ret;

		memcpy(&a, p, sizeof(a));
		if (a.nla_len < NLA_HDRLEN || a.nla_len > len)
			return -EBADMSG;
		ret = cb(a.nla_type & NLA_TYPE_MASK, p + NLA_HDRLEN, a.nla_len - NLA_HDRLEN, arg);
		if (ret < 0)
			return ret;
		if ((size_t)NLA_ALIGN(a.nla_len) >= len)
			break;
		p += NLA_ALIGN(a.nla_len);
		len -= NLA_ALIGN(a.nla_len);
	}
	return 0;
}

static int get_u64(const unsigned char *data, u16 len, u64 *v)
{
	if (len != sizeof(*v))
		return -EBADMSG;
	memcpy(v, data, sizeof(*v));
	return 0;
}

static int get_u32(const unsigned char *data, u16 len, u32 *v)
{
	if (len != sizeof(*v))
		return -EBADMSG;
	memcpy(v, data, sizeof(*v));
	return 0;
}

/*
 * The positive errno of a negative error code from a reply or the transport.  The kernel
 * sends -errno in -MAX_ERRNO..-1; anything else (INT_MIN among them, whose negation
 * overflows) is no errno, and the reply is malformed.
 */
#define EMNL_MAX_ERRNO 4095

static int errno_of(long long e)
{
	return e < 0 && e >= -EMNL_MAX_ERRNO ? (int)-e : EBADMSG;
}

/* The error of an NLMSG_ERROR or NLMSG_DONE reply (e < 0). */
static int reply_error(struct gb_err *err, const char *what, int e)
{
	if (e < -EMNL_MAX_ERRNO)
		return gb_err_set(err, EBADMSG, "%s: the reply's error code %d is no errno", what,
				  e);
	return gb_err_set(err, -e, "%s: %s", what, strerror(-e));
}

/* A reply message: its genetlink command and attributes. */
typedef int (*msg_cb)(u8 cmd, const unsigned char *attrs, size_t len, void *arg);

/*
 * Sends the request and feeds every reply message of its sequence number to cb, until the
 * reply is complete: NLMSG_DONE for a dump, the first message for a do.  An NLMSG_ERROR
 * returns its error (negative) with err naming what.
 */
static int transact(struct emnl_xport *x, struct req *r, bool dump, msg_cb cb, void *arg,
		    const char *what, struct gb_err *err)
{
	const struct nlmsghdr *req_nh = (const struct nlmsghdr *)r->buf;
	u32 seq = req_nh->nlmsg_seq;
	unsigned char *buf = malloc(BUF_LEN);
	int ret;

	if (!buf)
		return gb_err_set(err, ENOMEM, "out of memory");
	ret = x->send(x->ctx, r->buf, r->len);
	if (ret < 0) {
		free(buf);
		return gb_err_set(err, errno_of(ret), "%s: sending the request: %s", what,
				  strerror(errno_of(ret)));
	}
	for (;;) {
		ssize_t n = x->recv(x->ctx, buf, BUF_LEN);
		size_t left;
		const unsigned char *p = buf;

		if (n == -EAGAIN || n == -EWOULDBLOCK) {
			ret = gb_err_set(err, ETIMEDOUT, "%s: no reply from the kernel within %d s",
					 what, TIMEOUT_S);
			break;
		}
		if (n < 0) {
			ret = gb_err_set(err, errno_of(n), "%s: %s", what, strerror(errno_of(n)));
			break;
		}
		if (n == 0) {
			ret = gb_err_set(err, EBADMSG, "%s: the reply ended early", what);
			break;
		}
		if (n > BUF_LEN) {
			ret =
			    gb_err_set(err, EMSGSIZE, "%s: a %zd-byte reply does not fit %d bytes",
				       what, n, BUF_LEN);
			break;
		}
		left = (size_t)n;
		ret = 1; /* 1: more to read */
		while (ret == 1 && left >= sizeof(struct nlmsghdr)) {
			struct nlmsghdr nh;
			const unsigned char *payload = p + NLMSG_HDRLEN;
			size_t plen;

			memcpy(&nh, p, sizeof(nh));
			if (nh.nlmsg_len < NLMSG_HDRLEN || nh.nlmsg_len > left) {
				ret = gb_err_set(err, EBADMSG,
						 "%s: a reply message of %u bytes in a "
						 "%zu-byte datagram",
						 what, nh.nlmsg_len, left);
				break;
			}
			plen = nh.nlmsg_len - NLMSG_HDRLEN;
			if (nh.nlmsg_seq != seq) {
				/* not ours (nothing else is asked on this socket): skip */
			} else if (nh.nlmsg_type == NLMSG_ERROR) {
				int e;

				if (plen < sizeof(e)) {
					ret = gb_err_set(err, EBADMSG, "%s: short error message",
							 what);
					break;
				}
				memcpy(&e, payload, sizeof(e));
				if (e < 0)
					ret = reply_error(err, what, e);
				else
					ret = dump ? 1
						   : gb_err_set(err, EBADMSG,
								"%s: an ack but no reply", what);
			} else if (nh.nlmsg_type == NLMSG_DONE) {
				int e = 0;

				if (plen >= sizeof(e))
					memcpy(&e, payload, sizeof(e));
				ret = e < 0 ? reply_error(err, what, e) : 0;
			} else if (nh.nlmsg_type == NLMSG_OVERRUN) {
				ret = gb_err_set(err, ENOBUFS, "%s: the reply overran", what);
			} else if (nh.nlmsg_type >= NLMSG_MIN_TYPE) {
				struct genlmsghdr gh;

				if (plen < GENL_HDRLEN) {
					ret = gb_err_set(err, EBADMSG,
							 "%s: a reply without its generic "
							 "netlink header",
							 what);
					break;
				}
				memcpy(&gh, payload, sizeof(gh));
				ret = cb(gh.cmd, payload + GENL_HDRLEN, plen - GENL_HDRLEN, arg);
				if (ret == -EBADMSG) {
					gb_err_set(
					    err, EBADMSG,
					    "%s: malformed reply (an attribute "
					    "does not fit its message or its type, or one that "
					    "must be there is missing)",
					    what);
					break;
				} else if (ret == -E2BIG) {
					gb_err_set(err, E2BIG, "%s: more than %d perf domains",
						   what, EMNL_MAX_DOMAINS);
					break;
				} else if (ret < 0) {
					gb_err_set(err, errno_of(ret), "%s: %s", what,
						   strerror(errno_of(ret)));
					break;
				}
				ret = dump ? 1 : 0;
			}
			if (NLMSG_ALIGN(nh.nlmsg_len) >= left)
				break;
			p += NLMSG_ALIGN(nh.nlmsg_len);
			left -= NLMSG_ALIGN(nh.nlmsg_len);
		}
		if (ret <= 0)
			break;
	}
	free(buf);
	return ret;
}

/* --- nlctrl: the family id --- */

struct family {
	u16 id;
	u32 version;
	bool have_id;
};

static int family_attr(u16 type, const unsigned char *data, u16 len, void *arg)
{
	struct family *f = arg;

	if (type == CTRL_ATTR_FAMILY_ID) {
		if (len != sizeof(f->id))
			return -EBADMSG;
		memcpy(&f->id, data, sizeof(f->id));
		f->have_id = true;
	} else if (type == CTRL_ATTR_VERSION) {
		return get_u32(data, len, &f->version);
	}
	return 0;
}

static int family_msg(u8 cmd, const unsigned char *attrs, size_t len, void *arg)
{
	(void)cmd;
	return walk_attrs(attrs, len, family_attr, arg);
}

static int resolve_family(struct emnl_xport *x, u32 seq, struct family *f, struct gb_err *err)
{
	struct req r;
	int ret;

	req_init(&r, GENL_ID_CTRL, 0, seq, CTRL_CMD_GETFAMILY, 2);
	req_put(&r, CTRL_ATTR_FAMILY_NAME, EMNL_FAMILY_NAME, sizeof(EMNL_FAMILY_NAME));
	memset(f, 0, sizeof(*f));
	ret = transact(x, &r, false, family_msg, f, "nlctrl CTRL_CMD_GETFAMILY " EMNL_FAMILY_NAME,
		       err);
	if (ret == -ENOENT) {
		struct utsname u;

		if (uname(&u) < 0)
			snprintf(u.release, sizeof(u.release), "unknown");
		return gb_err_set(err, ENOENT,
				  "the kernel has no \"%s\" generic netlink family "
				  "(Linux 7.2 has it, with CONFIG_ENERGY_MODEL; this kernel is %s)",
				  EMNL_FAMILY_NAME, u.release);
	}
	if (ret == 0 && !f->have_id)
		ret = gb_err_set(err, EBADMSG, "nlctrl: the reply for %s has no family id",
				 EMNL_FAMILY_NAME);
	return ret;
}

/* --- perf domains and tables --- */

struct dom_ctx {
	struct emnl_model *m;
	struct emnl_domain *d;
	bool have_id;
};

static int domain_attr(u16 type, const unsigned char *data, u16 len, void *arg)
{
	struct dom_ctx *c = arg;
	u64 cpu;
	int ret;

	switch (type) {
	case EMNL_A_PERF_DOMAIN_PERF_DOMAIN_ID:
		c->have_id = true;
		return get_u32(data, len, &c->d->id);
	case EMNL_A_PERF_DOMAIN_FLAGS:
		return get_u64(data, len, &c->d->flags);
	case EMNL_A_PERF_DOMAIN_CPUS:
		ret = get_u64(data, len, &cpu);
		if (ret < 0)
			return ret;
		if (cpu >= EM_MAX_CPUS) {
			c->d->bad_cpus++;
		} else if (!em_cpumask_test(&c->d->cpus, (u32)cpu)) {
			em_cpumask_set(&c->d->cpus, (u32)cpu);
			c->d->nr_cpus++;
		}
		return 0;
	default:
		return 0; /* PAD, and attributes a later kernel may add */
	}
}

static int domain_msg(u8 cmd, const unsigned char *attrs, size_t len, void *arg)
{
	struct dom_ctx *c = arg;
	int ret;

	if (cmd != EMNL_CMD_GET_PERF_DOMAINS)
		return 0;
	if (c->m->nr_domains >= EMNL_MAX_DOMAINS)
		return -E2BIG;
	c->d = &c->m->dom[c->m->nr_domains];
	memset(c->d, 0, sizeof(*c->d));
	c->have_id = false;
	ret = walk_attrs(attrs, len, domain_attr, c);
	if (ret < 0)
		return ret;
	if (!c->have_id)
		return -EBADMSG;
	c->m->nr_domains++;
	return 0;
}

struct table_ctx {
	struct emnl_domain *d;
	struct emnl_state *s;
	bool have_id, have_freq;
	u32 id;
	int inner;
};

static int state_attr(u16 type, const unsigned char *data, u16 len, void *arg)
{
	struct table_ctx *c = arg;

	switch (type) {
	case EMNL_A_PERF_STATE_PERFORMANCE:
		return get_u64(data, len, &c->s->performance);
	case EMNL_A_PERF_STATE_FREQUENCY:
		c->have_freq = true;
		return get_u64(data, len, &c->s->frequency_khz);
	case EMNL_A_PERF_STATE_POWER:
		return get_u64(data, len, &c->s->power);
	case EMNL_A_PERF_STATE_COST:
		return get_u64(data, len, &c->s->cost);
	case EMNL_A_PERF_STATE_FLAGS:
		return get_u64(data, len, &c->s->flags);
	default:
		return 0;
	}
}

static int table_attr(u16 type, const unsigned char *data, u16 len, void *arg)
{
	struct table_ctx *c = arg;
	struct emnl_state scratch;
	int ret;

	if (type == EMNL_A_PERF_TABLE_PERF_DOMAIN_ID) {
		c->have_id = true;
		return get_u32(data, len, &c->id);
	}
	if (type != EMNL_A_PERF_TABLE_PERF_STATE)
		return 0;
	/* states past EMNL_MAX_STATES are parsed (checked) and counted, not kept */
	c->s = c->d->nr_states < EMNL_MAX_STATES ? &c->d->states[c->d->nr_states] : &scratch;
	memset(c->s, 0, sizeof(*c->s));
	c->have_freq = false;
	ret = walk_attrs(data, len, state_attr, c);
	if (ret < 0)
		return ret;
	if (!c->have_freq)
		return -EBADMSG;
	c->d->nr_states++;
	return 0;
}

static int table_msg(u8 cmd, const unsigned char *attrs, size_t len, void *arg)
{
	struct table_ctx *c = arg;
	int ret;

	if (cmd != EMNL_CMD_GET_PERF_TABLE)
		return 0;
	c->d->nr_states = 0;
	ret = walk_attrs(attrs, len, table_attr, c);
	if (ret < 0)
		return ret;
	/* the table must be the one asked for */
	return c->have_id && c->id == c->d->id ? 0 : -EBADMSG;
}

int emnl_resolve(struct emnl_xport *x, u16 *family_id, u32 *version, struct gb_err *err)
{
	struct family fam;
	int ret = resolve_family(x, 1, &fam, err);

	if (ret < 0)
		return ret;
	*family_id = fam.id;
	*version = fam.version;
	return 0;
}

int emnl_read_table(struct emnl_xport *x, u16 family_id, struct emnl_domain *d, struct gb_err *err)
{
	struct table_ctx tc = {.d = d};
	char what[96];
	struct req r;

	req_init(&r, family_id, 0, 3 + d->id, EMNL_CMD_GET_PERF_TABLE, EMNL_FAMILY_VERSION);
	req_put(&r, EMNL_A_PERF_TABLE_PERF_DOMAIN_ID, &d->id, sizeof(u32));
	snprintf(what, sizeof(what), EMNL_FAMILY_NAME " get-perf-table of domain %u", d->id);
	return transact(x, &r, false, table_msg, &tc, what, err);
}

int emnl_read(struct emnl_xport *x, struct emnl_model *m, struct gb_err *err)
{
	struct dom_ctx dc = {.m = m};
	struct req r;
	int ret;

	memset(m, 0, sizeof(*m));
	ret = emnl_resolve(x, &m->family_id, &m->family_version, err);
	if (ret < 0)
		return ret;
	req_init(&r, m->family_id, NLM_F_DUMP, 2, EMNL_CMD_GET_PERF_DOMAINS, EMNL_FAMILY_VERSION);
	ret = transact(x, &r, true, domain_msg, &dc, EMNL_FAMILY_NAME " get-perf-domains (dump)",
		       err);
	for (u32 i = 0; ret == 0 && i < m->nr_domains; i++)
		ret = emnl_read_table(x, m->family_id, &m->dom[i], err);
	return ret;
}
