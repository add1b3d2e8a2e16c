/*
 * bots.c: the registry of bot strategies (see bots.h) and the `random` level
 * every game has. The legal-action buffer is static: only the loop thread
 * calls a strategy.
 */
#include "bots.h"

#include <assert.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

static struct rules_action legal_buf[RULES_MAX_LEGAL]; /* loop thread only */

/* Every strategy built in; a game's line goes before the shared ones. */
/* One line per entry, so a game adds one line (clang-format would join them). */
/* clang-format off */
const struct bot_strategy *const bot_strategies[] = {
	&bot_quinteto_greedy,
	&bot_laquet_greedy,
	&bot_super15_greedy,
	&bot_random,
	NULL,
};
/* clang-format on */

uint64_t bot_rng_next(uint64_t *s)
{
	uint64_t x = *s; /* xorshift64* */

	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	*s = x;
	return x * 2685821657736338717ull;
}

static int random_choose(const struct rules_match *m, int seat, uint64_t *rng, struct rules_action *out)
{
	int n = rules_legal_actions(m, seat, legal_buf, RULES_MAX_LEGAL);

	assert(n <= RULES_MAX_LEGAL); /* the cap is the largest count any game has */
	if (n <= 0)
		return -ENOENT;
	*out = legal_buf[bot_rng_next(rng) % (uint64_t)n];
	return 0;
}

const struct bot_strategy bot_random = { NULL, "random", random_choose };

static bool serves(const struct bot_strategy *b, const char *game_id)
{
	return !b->game || (game_id && strcmp(b->game, game_id) == 0);
}

const struct bot_strategy *bot_find(const char *game_id, const char *level)
{
	const struct bot_strategy *shared = NULL;

	if (!level)
		return NULL;
	for (int i = 0; bot_strategies[i]; i++) {
		const struct bot_strategy *b = bot_strategies[i];

		if (!serves(b, game_id) || strcmp(b->level, level))
			continue;
		if (b->game)
			return b;
		shared = b;
	}
	return shared;
}

void bot_levels(const char *game_id, char *buf, size_t size)
{
	size_t used = 0;

	if (!size)
		return;
	buf[0] = '\0';
	for (int i = 0; bot_strategies[i]; i++) {
		const struct bot_strategy *b = bot_strategies[i];
		int n;

		if (!serves(b, game_id) || bot_find(game_id, b->level) != b)
			continue; /* a level a game overrides is named once */
		n = snprintf(buf + used, size - used, "%s%s", used ? ", " : "", b->level);
		if (n < 0 || (size_t)n >= size - used)
			return;
		used += (size_t)n;
	}
}

int bot_timeout_action(const struct rules_match *m, int seat, struct rules_action *out)
{
	if (strcmp(m->game->id, "quinteto") == 0)
		return bot_quinteto_keep_chain(m, seat, out);
	return -ENOENT;
}
