/*
 * bot.c: the `random` bot (see bot.h). Its legal-action buffer is static:
 * only the loop thread calls it.
 */
#include "bot.h"

#include <assert.h>
#include <errno.h>

static struct rules_action legal_buf[RULES_MAX_LEGAL]; /* loop thread only */

static uint64_t next_random(uint64_t *s)
{
	uint64_t x = *s; /* xorshift64* */

	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	*s = x;
	return x * 2685821657736338717ull;
}

int bot_choose(const struct rules_match *m, int seat, uint64_t *rng, struct rules_action *out)
{
	int n = rules_legal_actions(m, seat, legal_buf, RULES_MAX_LEGAL);

	assert(n <= RULES_MAX_LEGAL); /* the cap is the largest count any game has */
	if (n <= 0)
		return -ENOENT;
	*out = legal_buf[next_random(rng) % (uint64_t)n];
	return 0;
}
