/*
 * test_hist.c: the load generator's latency histogram (tests/bench/hist.c).
 * Checks the bucket layout against its definition (every value falls in a
 * bucket whose range holds it, buckets tile the range without gaps), the
 * promised error bound of a percentile, and percentiles of a known set
 * against an exact sort.
 */
#include "../bench/hist.h"
#include "tap.h"

#include <stdlib.h>
#include <string.h>

static uint64_t rng_state = 0x9e3779b97f4a7c15ull;

static uint64_t rng(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return rng_state;
}

/* Each bucket starts right after the previous one ends, up to UINT64_MAX. */
static void buckets_tile_the_range(void)
{
	unsigned i;

	CHECK_EQ(hist_bucket_high(0), 0);
	for (i = 1; i < HIST_BUCKETS; i++) {
		uint64_t lo = hist_bucket_high(i - 1) + 1;

		CHECK_EQ(hist_index(lo), i);
		CHECK(hist_index(hist_bucket_high(i)) == i);
		CHECK(hist_bucket_high(i) >= lo);
		if (tap_failed_)
			return;
	}
	CHECK(hist_bucket_high(HIST_BUCKETS - 1) == UINT64_MAX);
	CHECK_EQ(hist_index(UINT64_MAX), HIST_BUCKETS - 1);
}

/* A value's bucket holds it and its high end is within 1/HIST_HALF above it. */
static void error_is_bounded(void)
{
	int k;

	for (k = 0; k < 200000; k++) {
		uint64_t v = rng() >> (rng() % 64);
		uint64_t hi = hist_bucket_high(hist_index(v));

		CHECK(hi >= v);
		CHECK((double)(hi - v) <= (double)v / HIST_HALF + 1.0);
		if (tap_failed_) {
			printf("# v=%llu hi=%llu\n", (unsigned long long)v, (unsigned long long)hi);
			return;
		}
	}
	for (k = 0; k < (int)HIST_SUB; k++)
		CHECK_EQ(hist_bucket_high(hist_index((uint64_t)k)), k);
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* Percentiles of 100,000 latency-like values against the exact order statistics. */
static void percentiles_match_a_sort(void)
{
	enum { N = 100000 };
	static const double ps[] = { 0, 50, 90, 99, 99.9, 100 };
	uint64_t *v = malloc(N * sizeof(*v));
	struct hist *h = malloc(sizeof(*h));
	size_t i;

	if (!v || !h) {
		free(v);
		free(h);
	}
	REQUIRE(v && h);
	hist_init(h);
	for (i = 0; i < N; i++) {
		v[i] = 20000 + rng() % 3000000 + (i % 1000 == 0 ? rng() % 100000000 : 0);
		hist_record(h, v[i]);
	}
	qsort(v, N, sizeof(*v), cmp_u64);
	CHECK_EQ(h->count, N);
	CHECK_EQ(h->min, v[0]);
	CHECK_EQ(h->max, v[N - 1]);
	for (i = 0; i < sizeof(ps) / sizeof(ps[0]); i++) {
		size_t rank = ps[i] == 0 ? 0 : (size_t)((ps[i] / 100.0) * N + 0.999999) - 1;
		uint64_t exact = v[rank], got = hist_percentile(h, ps[i]);

		CHECK(got >= exact);
		CHECK((double)(got - exact) <= (double)exact / HIST_HALF + 1.0);
	}
	free(v);
	free(h);
}

/* Empty, merged and single-value histograms. */
static void empty_and_merge(void)
{
	struct hist *a = malloc(sizeof(*a)), *b = malloc(sizeof(*b));

	if (!a || !b) {
		free(a);
		free(b);
	}
	REQUIRE(a && b);
	hist_init(a);
	hist_init(b);
	CHECK_EQ(hist_percentile(a, 50), 0);
	hist_record(a, 1000);
	hist_record(b, 5);
	hist_record(b, 1u << 30);
	hist_merge(a, b);
	CHECK_EQ(a->count, 3);
	CHECK_EQ(a->min, 5);
	CHECK_EQ(a->max, 1u << 30);
	CHECK_EQ(hist_percentile(a, 1), 5);
	CHECK(hist_percentile(a, 50) >= 1000 && hist_percentile(a, 50) <= 1000 + 1000 / HIST_HALF);
	CHECK_EQ(hist_percentile(a, 100), 1u << 30);
	free(a);
	free(b);
}

int main(void)
{
	TEST(buckets_tile_the_range);
	TEST(error_is_bounded);
	TEST(percentiles_match_a_sort);
	TEST(empty_and_merge);
	return tap_done();
}
