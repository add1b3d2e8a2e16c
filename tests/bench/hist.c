/*
 * hist.c: the log-linear histogram of hist.h. Index of v >= HIST_SUB: with m
 * the position of v's highest set bit (m >= HIST_SUB_BITS), the group of m
 * starts at HIST_SUB + (m - HIST_SUB_BITS) * HIST_HALF and v's bucket inside it
 * is the HIST_SUB_BITS - 1 bits below the top one. Bucket bounds therefore
 * grow by powers of two, each power split evenly: the relative width of a
 * bucket stays under 1/HIST_HALF.
 */
#include "hist.h"

#include <math.h>
#include <string.h>

void hist_init(struct hist *h)
{
	memset(h, 0, sizeof(*h));
	h->min = UINT64_MAX;
}

unsigned hist_index(uint64_t v)
{
	unsigned m, shift;

	if (v < HIST_SUB)
		return (unsigned)v;
	m = 63u - (unsigned)__builtin_clzll(v);
	shift = m - (HIST_SUB_BITS - 1);
	return HIST_SUB + (m - HIST_SUB_BITS) * HIST_HALF + (unsigned)((v >> shift) - HIST_HALF);
}

uint64_t hist_bucket_high(unsigned idx)
{
	unsigned group, sub, shift;

	if (idx < HIST_SUB)
		return idx;
	group = (idx - HIST_SUB) / HIST_HALF; /* m - HIST_SUB_BITS */
	sub = (idx - HIST_SUB) % HIST_HALF;
	shift = group + 1; /* m - (HIST_SUB_BITS - 1) */
	if (group == 64 - HIST_SUB_BITS - 1 && sub == HIST_HALF - 1)
		return UINT64_MAX; /* the last bucket ends at the top of the range */
	return (((uint64_t)(HIST_HALF + sub + 1)) << shift) - 1;
}

void hist_record(struct hist *h, uint64_t v)
{
	h->n[hist_index(v)]++;
	h->count++;
	h->sum += v;
	if (v < h->min)
		h->min = v;
	if (v > h->max)
		h->max = v;
}

uint64_t hist_percentile(const struct hist *h, double p)
{
	uint64_t want, seen = 0;
	unsigned i;

	if (!h->count)
		return 0;
	if (p >= 100.0)
		return h->max;
	want = (uint64_t)ceil(p / 100.0 * (double)h->count);
	if (want < 1)
		want = 1;
	for (i = 0; i < HIST_BUCKETS; i++) {
		seen += h->n[i];
		if (seen >= want) {
			uint64_t hi = hist_bucket_high(i);

			return hi < h->max ? hi : h->max;
		}
	}
	return h->max;
}

void hist_merge(struct hist *dst, const struct hist *src)
{
	unsigned i;

	for (i = 0; i < HIST_BUCKETS; i++)
		dst->n[i] += src->n[i];
	dst->count += src->count;
	dst->sum += src->sum;
	if (src->min < dst->min)
		dst->min = src->min;
	if (src->max > dst->max)
		dst->max = src->max;
}
