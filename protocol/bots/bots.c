/*
 * bots.c: the registry of bot strategies (see bots.h): every game's own
 * levels (bot_games[], derived from the list of games) and the `random`
 * level every game has, and bot_choose(), the one way a strategy is called.
 */
#include "bots.h"

#include <assert.h>
#include <errno.h>
#include <string.h>

static BOT_THREAD_LOCAL struct rules_action legal_buf[RULES_MAX_LEGAL];

#define GAME_ENTRY(id) &bot_game_##id,
const struct bot_game *bot_games[RULES_MAX_GAMES + 1] = { GAME_LIST(GAME_ENTRY) NULL };
#undef GAME_ENTRY

/* The levels every game has, after its own. */
static const struct bot_strategy *const shared_levels[] = { &bot_random, NULL };

uint64_t bot_rng_next(uint64_t *s)
{
	uint64_t x = *s; /* xorshift64* */

	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	*s = x;
	return x * 2685821657736338717ull;
}

static int random_choose(const struct rules_match *m, int seat, struct bot_ctx *ctx, struct rules_action *out)
{
	int n = rules_legal_actions(m, seat, legal_buf, RULES_MAX_LEGAL);

	assert(n <= RULES_MAX_LEGAL); /* the cap is the largest count any game has */
	if (n <= 0)
		return -ENOENT;
	*out = legal_buf[bot_rng_next(&ctx->rng) % (uint64_t)n];
	return 0;
}

const struct bot_strategy bot_random = { NULL, "random", random_choose };

int bot_choose(const struct bot_strategy *b, const struct rules_match *m, int seat, struct bot_ctx *ctx,
	       struct rules_action *out)
{
	struct rules_match seen;
	uint8_t seed[RULES_SEED_SIZE];

	if (!ctx->rng)
		ctx->rng = 0x9e3779b97f4a7c15ull;
	for (int i = 0; i < RULES_SEED_SIZE; i += 8) {
		uint64_t x = bot_rng_next(&ctx->rng);

		memcpy(seed + i, &x, 8);
	}
	memcpy(&seen, m, sizeof(seen));
	rules_dice_init(&seen.dice, seed); /* the bot's own dice: the match's stream stays unseen */
	memset(out, 0, sizeof(*out));
	ctx->has_estimate = false;
	ctx->spent = 0;
	return b->choose(&seen, seat, ctx, out);
}

int bot_play(const struct bot_strategy *b, const struct rules_match *m, int seat, uint64_t *rng,
	     struct rules_action *out)
{
	struct bot_ctx ctx = { .rng = *rng };
	int err = bot_choose(b, m, seat, &ctx, out);

	*rng = ctx.rng;
	return err;
}

/* The bots of game `game_id`; NULL if none (or game_id is NULL). */
static const struct bot_game *game_bots(const char *game_id)
{
	for (int i = 0; game_id && bot_games[i]; i++)
		if (strcmp(bot_games[i]->game, game_id) == 0)
			return bot_games[i];
	return NULL;
}

/* The level `level` in the NULL-terminated `levels` (may be NULL); NULL if absent. */
static const struct bot_strategy *level_in(const struct bot_strategy *const *levels, const char *level)
{
	for (int i = 0; levels && levels[i]; i++)
		if (strcmp(levels[i]->level, level) == 0)
			return levels[i];
	return NULL;
}

/* Appends `g` to bot_games[]; see bots.h (called from main() only). */
void bot_game_register(const struct bot_game *g)
{
	int n = 0;

	assert(g && g->game && !game_bots(g->game));
	while (bot_games[n])
		n++;
	assert(n < RULES_MAX_GAMES);
	bot_games[n] = g;
}

const struct bot_strategy *bot_find(const char *game_id, const char *level)
{
	const struct bot_game *g = game_bots(game_id);
	const struct bot_strategy *b;

	if (!level)
		return NULL;
	b = g ? level_in(g->levels, level) : NULL;
	return b ? b : level_in(shared_levels, level);
}

/* Appends `level` to buf (", "-separated); 0, or -ENOSPC once buf is full (truncated). */
static int level_put(char *buf, size_t size, size_t *used, const char *level)
{
	const char *sep = *used ? ", " : "";
	size_t ns = strlen(sep), nl = strlen(level);

	if (ns + nl >= size - *used) { /* truncated, as snprintf would: what fits, NUL-terminated */
		size_t room = size - *used - 1, a = ns < room ? ns : room;

		memcpy(buf + *used, sep, a);
		memcpy(buf + *used + a, level, room - a < nl ? room - a : nl);
		buf[size - 1] = '\0';
		*used = size - 1;
		return -ENOSPC;
	}
	memcpy(buf + *used, sep, ns);
	memcpy(buf + *used + ns, level, nl);
	*used += ns + nl;
	buf[*used] = '\0';
	return 0;
}

const struct bot_strategy *bot_level_at(const char *game_id, int i)
{
	const struct bot_game *g = game_bots(game_id);

	for (int k = 0; i >= 0 && g && g->levels && g->levels[k]; k++)
		if (i-- == 0)
			return g->levels[k];
	for (const struct bot_strategy *const *s = shared_levels; i >= 0 && *s; s++) {
		if (bot_find(game_id, (*s)->level) != *s)
			continue; /* a level a game overrides is named once */
		if (i-- == 0)
			return *s;
	}
	return NULL;
}

void bot_levels(const char *game_id, char *buf, size_t size)
{
	const struct bot_strategy *b;
	size_t used = 0;

	if (!size)
		return;
	buf[0] = '\0';
	for (int i = 0; (b = bot_level_at(game_id, i)); i++)
		if (level_put(buf, size, &used, b->level))
			return;
}

int bot_timeout_action(const struct rules_match *m, int seat, struct rules_action *out)
{
	const struct bot_game *g = game_bots(m->game->id);

	return g && g->timeout_action ? g->timeout_action(m, seat, out) : -ENOENT;
}
