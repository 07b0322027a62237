// SPDX-License-Identifier: GPL-2.0-only
#include "cpulist.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int parse_id(const char **p, unsigned long *id, struct gb_err *err, const char *all)
{
	char *end;

	if (!isdigit((unsigned char)**p))
		return gb_err_set(err, EINVAL, "bad CPU list \"%s\": expected a CPU number", all);
	errno = 0;
	*id = strtoul(*p, &end, 10);
	if (errno || *id >= EM_MAX_CPUS)
		return gb_err_set(err, ERANGE, "bad CPU list \"%s\": CPU ids must be below %d", all,
				  EM_MAX_CPUS);
	*p = end;
	return 0;
}

int cpulist_parse(const char *s, struct em_cpumask *mask, struct gb_err *err)
{
	const char *p = s;
	int rc;

	memset(mask, 0, sizeof(*mask));
	while (*p == ' ')
		p++;
	if (!*p)
		return gb_err_set(err, EINVAL, "empty CPU list");
	for (;;) {
		unsigned long lo, hi, c;

		rc = parse_id(&p, &lo, err, s);
		if (rc)
			return rc;
		hi = lo;
		if (*p == '-') {
			p++;
			rc = parse_id(&p, &hi, err, s);
			if (rc)
				return rc;
			if (hi < lo)
				return gb_err_set(err, EINVAL,
						  "bad CPU list \"%s\": range %lu-%lu is reversed",
						  s, lo, hi);
		}
		for (c = lo; c <= hi; c++)
			em_cpumask_set(mask, (u32)c);
		while (*p == ' ' || *p == '\n')
			p++;
		if (!*p)
			return 0;
		if (*p != ',')
			return gb_err_set(err, EINVAL, "bad CPU list \"%s\": unexpected '%c'", s,
					  *p);
		p++;
	}
}

size_t cpulist_format(const struct em_cpumask *mask, char *buf, size_t len)
{
	size_t n = 0;
	int c = 0;

	if (len)
		buf[0] = '\0';
	while (c < EM_MAX_CPUS) {
		int lo, hi;

		if (!em_cpumask_test(mask, (u32)c)) {
			c++;
			continue;
		}
		lo = c;
		while (c + 1 < EM_MAX_CPUS && em_cpumask_test(mask, (u32)c + 1))
			c++;
		hi = c++;
		if (lo == hi)
			n += (size_t)snprintf(n < len ? buf + n : NULL, n < len ? len - n : 0,
					      "%s%d", n ? "," : "", lo);
		else
			n += (size_t)snprintf(n < len ? buf + n : NULL, n < len ? len - n : 0,
					      "%s%d-%d", n ? "," : "", lo, hi);
	}
	return n;
}

unsigned cpumask_weight(const struct em_cpumask *mask)
{
	unsigned w = 0;

	for (int i = 0; i < EM_CPUMASK_WORDS; i++)
		w += (unsigned)__builtin_popcountll(mask->bits[i]);
	return w;
}
