/* SPDX-License-Identifier: GPL-2.0-only */
/*
 * tap.h - a tiny TAP producer for unit tests.  Each test is a function; TAP_RUN(fn) runs it and
 * prints "ok N - fn" or "not ok N - fn" with the failed checks as "# " diagnostics.  Meson runs
 * the executables with protocol 'tap' and scripts/test counts the lines.
 *
 *   static void test_cost_matches_kernel_formula(void) { CHECK_EQ_U(cost, 1234); }
 *   int main(void) { TAP_RUN(test_cost_matches_kernel_formula); return tap_done(); }
 */
#ifndef GEARBOX_TAP_H
#define GEARBOX_TAP_H

#include <stdio.h>
#include <string.h>

static int tap_n, tap_failed_total, tap_case_failed;
static const char *tap_skip_reason;

#define CHECK(cond)                                                                                \
	do {                                                                                       \
		if (!(cond)) {                                                                     \
			printf("# %s:%d: check failed: %s\n", __FILE__, __LINE__, #cond);          \
			tap_case_failed = 1;                                                       \
		}                                                                                  \
	} while (0)

#define CHECK_EQ_U(a, b)                                                                           \
	do {                                                                                       \
		unsigned long long va_ = (unsigned long long)(a), vb_ = (unsigned long long)(b);   \
		if (va_ != vb_) {                                                                  \
			printf("# %s:%d: %s == %llu, expected %s == %llu\n", __FILE__, __LINE__,   \
			       #a, va_, #b, vb_);                                                  \
			tap_case_failed = 1;                                                       \
		}                                                                                  \
	} while (0)

#define CHECK_EQ_I(a, b)                                                                           \
	do {                                                                                       \
		long long va_ = (long long)(a), vb_ = (long long)(b);                              \
		if (va_ != vb_) {                                                                  \
			printf("# %s:%d: %s == %lld, expected %s == %lld\n", __FILE__, __LINE__,   \
			       #a, va_, #b, vb_);                                                  \
			tap_case_failed = 1;                                                       \
		}                                                                                  \
	} while (0)

#define CHECK_STR_CONTAINS(hay, needle)                                                            \
	do {                                                                                       \
		const char *h_ = (hay), *n_ = (needle);                                            \
		if (!h_ || !strstr(h_, n_)) {                                                      \
			printf("# %s:%d: \"%s\" does not contain \"%s\"\n", __FILE__, __LINE__,    \
			       h_ ? h_ : "(null)", n_);                                            \
			tap_case_failed = 1;                                                       \
		}                                                                                  \
	} while (0)

/* Marks the running test as skipped (call then return). */
#define TAP_SKIP(reason) (tap_skip_reason = (reason))

static inline void tap_run(const char *name, void (*fn)(void))
{
	tap_case_failed = 0;
	tap_skip_reason = NULL;
	fflush(stdout);
	fn();
	tap_n++;
	if (tap_skip_reason && !tap_case_failed) {
		printf("ok %d - %s # SKIP %s\n", tap_n, name, tap_skip_reason);
	} else if (tap_case_failed) {
		printf("not ok %d - %s\n", tap_n, name);
		tap_failed_total++;
	} else {
		printf("ok %d - %s\n", tap_n, name);
	}
	fflush(stdout);
}

#define TAP_RUN(fn) tap_run(#fn, fn)

static inline int tap_done(void)
{
	printf("1..%d\n", tap_n);
	return tap_failed_total ? 1 : 0;
}

#endif
