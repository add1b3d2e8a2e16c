/*
 * test_metrics.c: the histograms /metrics shows. metrics_observe() and
 * metrics_count() add one to the first bucket an observation fits and the
 * rendering sums them up; the definition is Prometheus': each `le` bucket
 * counts the observations at or under its bound. Over random observations
 * (and every bound, one under and one over), each rendered bucket must equal
 * that count made by the definition. Also the window maximum of the largest
 * turn.
 */
#include <stdlib.h>
#include <string.h>

#include "base/metrics.h"
#include "tap.h"

static const double bounds_s[METRICS_BUCKETS] = {
	0.00005, 0.0001, 0.00025, 0.0005, 0.001, 0.002, 0.005, 0.01, 0.05, 0.25, 1, 5,
};

#define N 20000

static uint64_t obs[N + 3 * METRICS_BUCKETS];

static uint32_t lcg = 7;

static uint32_t next(void)
{
	lcg = lcg * 1103515245u + 12345u;
	return lcg >> 1;
}

/* The value rendered for `line_start` (e.g. `h_bucket{le="0.001"} `), or -1. */
static long long rendered(const char *text, const char *line_start)
{
	const char *p = strstr(text, line_start);

	return p ? atoll(p + strlen(line_start)) : -1;
}

static void test_latency_buckets(void)
{
	struct metrics m = { 0 };
	struct metrics_gauges g = { 0 };
	char want[64];
	size_t len, n = 0, i;
	int b, bad = 0;
	char *text;

	for (b = 0; b < METRICS_BUCKETS; b++) { /* each bound, and either side of it */
		uint64_t ns = (uint64_t)(bounds_s[b] * 1e9 + 0.5);

		obs[n++] = ns - 1;
		obs[n++] = ns;
		obs[n++] = ns + 1;
	}
	for (i = 0; i < N; i++) /* spread over every order of magnitude, 1 ns to 17 s */
		obs[n++] = (uint64_t)next() % ((uint64_t)1 << (next() % 35));
	for (i = 0; i < n; i++)
		metrics_observe(&m.reply_write, obs[i]);
	text = metrics_render(&m, &g, &len);
	REQUIRE(text);
	for (b = 0; b < METRICS_BUCKETS; b++) {
		long long by_def = 0;

		for (i = 0; i < n; i++)
			by_def += (double)obs[i] / 1e9 <= bounds_s[b];
		snprintf(want, sizeof(want), "quinteto_reply_write_seconds_bucket{le=\"%g\"} ", bounds_s[b]);
		if (rendered(text, want) != by_def && bad++ < 5)
			printf("# %s: %lld, by the definition %lld\n", want, rendered(text, want), by_def);
	}
	CHECK(bad == 0);
	CHECK(rendered(text, "quinteto_reply_write_seconds_bucket{le=\"+Inf\"} ") == (long long)n);
	CHECK(rendered(text, "quinteto_reply_write_seconds_count ") == (long long)n);
	free(text);
}

static void test_count_buckets(void)
{
	struct metrics m = { 0 };
	struct metrics_gauges g = { 0 };
	static uint64_t counts[N];
	char want[80];
	size_t len, i;
	int b, bad = 0;
	char *text;

	for (i = 0; i < N; i++)
		counts[i] = next() % (i % 2 ? 10 : 5000);
	for (i = 0; i < N; i++)
		metrics_count(&m.turn_in, counts[i]);
	text = metrics_render(&m, &g, &len);
	REQUIRE(text);
	for (b = 0; b < METRICS_COUNT_BUCKETS; b++) {
		long long by_def = 0;

		for (i = 0; i < N; i++)
			by_def += counts[i] <= (uint64_t)1 << b;
		snprintf(want, sizeof(want), "quinteto_event_loop_turn_messages_bucket{le=\"%llu\"} ",
			 1ull << b);
		if (rendered(text, want) != by_def && bad++ < 5)
			printf("# %s: %lld, by the definition %lld\n", want, rendered(text, want), by_def);
	}
	CHECK(bad == 0);
	CHECK(rendered(text, "quinteto_event_loop_turn_messages_count ") == N);
	free(text);
}

static void test_window_max(void)
{
	struct metrics_window_max w = { 0 };
	const uint64_t s = 1000000000ull;

	metrics_window_put(&w, 7, 100 * s);
	metrics_window_put(&w, 3, 105 * s);
	CHECK(metrics_window_get(&w, 106 * s) == 7);
	metrics_window_put(&w, 2, 130 * s);
	CHECK(metrics_window_get(&w, 130 * s) == 7);
	CHECK(metrics_window_get(&w, 165 * s) == 2); /* the 100-s slot is over a minute old */
	CHECK(metrics_window_get(&w, 200 * s) == 0);
}

int main(void)
{
	TEST(test_latency_buckets);
	TEST(test_count_buckets);
	TEST(test_window_max);
	return tap_done();
}
