/*
 * tap.h: a tiny TAP producer for the C tests. Each TEST() is one counted test
 * case: "ok N - name" or "not ok N - name", then the plan at the end. CHECK()
 * records a failure with file:line and goes on; REQUIRE() also returns from
 * the test. tests/summary.mjs counts these lines for the suite's total.
 */
#ifndef QUINTETO_TAP_H
#define QUINTETO_TAP_H

#include <stdio.h>
#include <stdlib.h>

static int tap_count_;
static int tap_failed_total_;
static int tap_failed_;

#define CHECK(cond)                                                                       \
	do {                                                                              \
		if (!(cond)) {                                                            \
			printf("# %s:%d: check failed: %s\n", __FILE__, __LINE__, #cond); \
			tap_failed_ = 1;                                                  \
		}                                                                         \
	} while (0)

#define CHECK_EQ(a, b)                                                                                     \
	do {                                                                                               \
		long long a_ = (long long)(a), b_ = (long long)(b);                                        \
		if (a_ != b_) {                                                                            \
			printf("# %s:%d: %s == %s failed: %lld != %lld\n", __FILE__, __LINE__, #a, #b, a_, \
			       b_);                                                                        \
			tap_failed_ = 1;                                                                   \
		}                                                                                          \
	} while (0)

#define REQUIRE(cond)                                                                           \
	do {                                                                                    \
		if (!(cond)) {                                                                  \
			printf("# %s:%d: requirement failed: %s\n", __FILE__, __LINE__, #cond); \
			tap_failed_ = 1;                                                        \
			return;                                                                 \
		}                                                                               \
	} while (0)

/* Runs fn as one test case named name. */
#define TEST(fn)                                                                      \
	do {                                                                          \
		tap_failed_ = 0;                                                      \
		fn();                                                                 \
		tap_count_++;                                                         \
		if (tap_failed_)                                                      \
			tap_failed_total_++;                                          \
		printf("%sok %d - %s\n", tap_failed_ ? "not " : "", tap_count_, #fn); \
		fflush(stdout);                                                       \
	} while (0)

/* Prints the plan; returns the process exit status. */
static inline int tap_done(void)
{
	printf("1..%d\n", tap_count_);
	return tap_failed_total_ ? 1 : 0;
}

#endif
