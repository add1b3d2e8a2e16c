/*
 * bots.h: the registry of bot strategies. A strategy is a pure function of
 * the match: it reads the rules core (and may memcpy the match to try
 * actions) and names one legal action; the room plays it through the same
 * path as a human's, so the choice is recorded as an action and replays never
 * need the bot again. Strategies run on the loop thread only, may keep static
 * scratch buffers, and never allocate per move.
 *
 * A game's levels and hooks are its struct bot_game, `bot_game_<id>` in its
 * folder (protocol/games/<id>/<id>_bots.c); bot_games[] is derived from the
 * one list of games (protocol/games/meson.build). `random` serves every game.
 * Pure C over the rules interface: no I/O, no allocation, no server.
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

/* A game's own bot levels and hooks. */
struct bot_game {
	const char *game;                         /* the rules game id */
	const struct bot_strategy *const *levels; /* its own levels, NULL-terminated (may be just NULL) */
	/*
	 * What the server plays for `seat` when its clock runs out, instead of
	 * a forfeit (protocol.md, Clocks); NULL when the game has no such move.
	 * 0 with the action in *out, or -ENOENT: the seat forfeits.
	 */
	int (*timeout_action)(const struct rules_match *m, int seat, struct rules_action *out);
};

/* Each game's bots, `bot_game_<id>`, one per entry of the list of games. */
#define BOT_GAME_DECLARE(id) extern const struct bot_game bot_game_##id;
GAME_LIST(BOT_GAME_DECLARE)
#undef BOT_GAME_DECLARE

/* Every game's bots, in the order of rules_games[] (the same list, then the registered ones),
 * NULL-terminated. */
extern const struct bot_game *bot_games[RULES_MAX_GAMES + 1];

/*
 * Adds game bots `g` (borrowed, static) after the built-in ones, for a game a
 * program registers with rules_game_register(); from main() only. An id
 * already taken or a full registry is the caller's bug: an assertion.
 */
void bot_game_register(const struct bot_game *g);

/* The levels every game has (after a game's own, which may override one). */
extern const struct bot_strategy bot_random;

/* The strategy `level` for game `game_id` (a game's own before a shared one); NULL if none. */
const struct bot_strategy *bot_find(const char *game_id, const char *level);

/*
 * Writes the levels game `game_id` offers, comma-separated, into buf (always
 * NUL-terminated, truncated to size). For error messages and documents.
 */
void bot_levels(const char *game_id, char *buf, size_t size);

/*
 * What the server plays for `seat` when its clock runs out, instead of a
 * forfeit (protocol.md, Clocks): the game's timeout_action hook (a seat that
 * must move keeps its plan, say). 0 with the action in *out, or
 * -ENOENT: the seat forfeits (the game has no hook, or it has no move now).
 */
int bot_timeout_action(const struct rules_match *m, int seat, struct rules_action *out);

/* The next value of the xorshift64* generator at *s (non-zero). */
uint64_t bot_rng_next(uint64_t *s);

#endif
