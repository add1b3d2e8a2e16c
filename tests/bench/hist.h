/*
 * hist.h: an HDR-style log-linear histogram of durations in nanoseconds, for
 * the load generator's latency figures. Values below 2^HIST_SUB_BITS are
 * counted exactly; above, each power of two is split into
 * 2^(HIST_SUB_BITS - 1) equal buckets, so a reported percentile is at most
 * 1/2^(HIST_SUB_BITS - 1) (0.8%) above the true value and never below it.
 * Recording is a few shifts and one increment: no allocation, no locking (one
 * thread). The exact minimum and maximum are kept beside the buckets.
 */
#ifndef QUINTETO_HIST_H
#define QUINTETO_HIST_H

#include <stdint.h>

#define HIST_SUB_BITS 8
#define HIST_SUB      (1u << HIST_SUB_BITS) /* exact values below this */
#define HIST_HALF     (HIST_SUB / 2)        /* buckets per power of two above it */
#define HIST_BUCKETS  (HIST_SUB + (64 - HIST_SUB_BITS) * HIST_HALF)

struct hist {
	uint64_t count;
	uint64_t min, max; /* exact; min is UINT64_MAX while empty */
	uint64_t sum;      /* for the mean */
	uint64_t n[HIST_BUCKETS];
};

/* Empties `h` (caller-owned memory). */
void hist_init(struct hist *h);

/* Counts one value. */
void hist_record(struct hist *h, uint64_t v);

/* The bucket index of `v`, and the highest value that bucket holds (exposed for the unit test). */
unsigned hist_index(uint64_t v);
uint64_t hist_bucket_high(unsigned idx);

/*
 * The value at percentile p (0..100): the highest value of the bucket where
 * the cumulative count reaches ceil(p% of count), capped at the exact max;
 * p = 100 is the exact max. 0 when empty.
 */
uint64_t hist_percentile(const struct hist *h, double p);

/* Adds the counts of `src` into `dst`. */
void hist_merge(struct hist *dst, const struct hist *src);

#endif
