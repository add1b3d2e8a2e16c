/*
 * bots.h: the registry of bot strategies. A strategy is a pure function of
 * the match: it reads the rules core (and may memcpy the match to try
 * actions) and names one legal action; the room plays it through the same
 * path as a human's, so the choice is recorded as an action and replays never
 * need the bot again. Strategies run on the loop thread only, may keep static
 * scratch buffers, and never allocate per move.
 *
 * A game adds its levels in its own file (bots/<game>.c) and one line in
 * bot_strategies[] (bots.c); `random` serves every game.
 */
#ifndef QUINTETO_BOTS_H
#define QUINTETO_BOTS_H

#include <stdint.h>

#include "rules.h"

#define BOT_LEVEL_DEFAULT "random"

struct bot_strategy {
	const char *game;  /* a rules game id; NULL: every game */
	const char *level; /* the wire's add_bot `level` ("random", "greedy", ...) */
	/*
	 * Picks one of `seat`'s legal actions into `out`, drawing any chance it
	 * needs from the xorshift state `*rng` (non-zero). 0, or -ENOENT when the
	 * seat has none.
	 */
	int (*choose)(const struct rules_match *m, int seat, uint64_t *rng, struct rules_action *out);
};

/* Every strategy built in, NULL-terminated. */
extern const struct bot_strategy *const bot_strategies[];

extern const struct bot_strategy bot_random;
extern const struct bot_strategy bot_quinteto_greedy; /* bots/quinteto.c */
extern const struct bot_strategy bot_laquet_greedy;   /* bots/laquet.c */
extern const struct bot_strategy bot_super15_greedy;  /* bots/super15.c */

/* The strategy `level` for game `game_id` (a game's own before a shared one); NULL if none. */
const struct bot_strategy *bot_find(const char *game_id, const char *level);

/*
 * Writes the levels game `game_id` offers, comma-separated, into buf (always
 * NUL-terminated, truncated to size). For error messages and documents.
 */
void bot_levels(const char *game_id, char *buf, size_t size);

/*
 * What the server plays for `seat` when its clock runs out, instead of a
 * forfeit (protocol.md, Clocks): Quinteto's arranger arranges keeping its
 * chain. 0 with the action in *out, or -ENOENT: the seat forfeits.
 */
int bot_timeout_action(const struct rules_match *m, int seat, struct rules_action *out);
int bot_quinteto_keep_chain(const struct rules_match *m, int seat,
			    struct rules_action *out); /* bots/quinteto.c */

/* The next value of the xorshift64* generator at *s (non-zero). */
uint64_t bot_rng_next(uint64_t *s);

#endif
