/*
 * bots.h: the registry of bot strategies. A strategy is a pure function of
 * what a person in its seat sees: it reads the rules core (and may memcpy the
 * match to try actions) and names one legal action; the room plays it through
 * the same path as a human's, so the choice is recorded as an action and
 * replays never need the bot again.
 *
 * Fairness: callers never hand a strategy the match itself but go through
 * bot_choose(), which gives it a copy whose dice stream is the bot's own
 * (seeded from the bot's random stream): a search that rolls dice samples
 * them from its own stream and cannot learn the match's seed or its dice to
 * come. No game keeps hidden information in its state (every field is in the
 * view), so the copy is exactly what the seat's player sees.
 *
 * Strategies may run on any thread (the server's bot workers, a test's
 * threads): scratch buffers are thread-local or on the stack, search memory is
 * the caller's (struct bot_ctx's arena), and nothing is allocated per move.
 *
 * A game's levels and hooks are its struct bot_game, `bot_game_<id>` in its
 * folder (protocol/games/<id>/<id>_bots.c); bot_games[] is derived from the
 * one list of games (protocol/games/meson.build). `random` serves every game.
 * Pure C over the rules interface: no I/O, no allocation, no clock (a caller
 * that wants a time limit gives a stop callback), no server.
 */
#ifndef QUINTETO_BOTS_H
#define QUINTETO_BOTS_H

#include <stdint.h>

#include "rules.h"

#define BOT_LEVEL_DEFAULT "random"

/*
 * The search memory a caller gives one thinking bot (struct bot_ctx.arena):
 * the server's bot workers and the arena each hold one per thread.
 */
#define BOT_ARENA_SIZE ((size_t)16 << 20)

/* Thread-local scratch (a strategy's legal-action buffers). */
#define BOT_THREAD_LOCAL _Thread_local

/*
 * What a strategy gets besides the position, and what it gives back. The
 * caller zeroes it, then sets rng and whatever else it wants; a strategy that
 * does not search ignores all but rng.
 */
struct bot_ctx {
	uint64_t rng; /* the bot's own xorshift64* state (non-zero), advanced by the strategy */
	/*
	 * The most work per move, in the strategy's own units (playouts,
	 * simulations, nodes); 0: the level's default. The only limit a
	 * reproducible run (arena, tests) uses: the same position, rng and
	 * budget give the same move.
	 */
	uint32_t budget;
	/*
	 * Polled now and then during a search (the caller's clock: the server's
	 * per-move time limit); true stops it, and it plays the best move found
	 * so far. NULL: never.
	 */
	bool (*stop)(void *arg);
	void *stop_arg;
	/*
	 * Memory a search may use (the caller's, for the whole move; never
	 * freed by the strategy): its tree or tables. A search that runs out
	 * stops growing and plays what it has. NULL/0: the strategy uses only
	 * its fixed scratch.
	 */
	void *arena;
	size_t arena_size;
	/* Out: each seat's chance to win as the strategy sees it (0..1), if it estimates (has_estimate). */
	bool has_estimate;
	float estimate[RULES_MAX_SEATS];
	uint32_t spent; /* out: the work done, in budget units */
};

struct bot_strategy {
	const char *game;  /* a rules game id; NULL: every game */
	const char *level; /* the wire's add_bot `level` ("random", "greedy", ...) */
	/*
	 * Picks one of `seat`'s legal actions into `out`, drawing any chance it
	 * needs from ctx->rng. 0, or -ENOENT when the seat has none. `m` is
	 * bot_choose()'s copy (its dice are the bot's own): call through
	 * bot_choose(), never directly.
	 */
	int (*choose)(const struct rules_match *m, int seat, struct bot_ctx *ctx, struct rules_action *out);
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
	/*
	 * For `quinteto arena`: a milestone a seat may reach short of winning
	 * (Quinteto: a hunter that survives phase 1), read from the finished
	 * match; NULL when the game has none.
	 */
	const char *milestone_name;
	bool (*milestone)(const struct rules_match *m, int seat);
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

/* The i-th level (from 0) game `game_id` offers, in bot_levels()'s order; NULL past the last. */
const struct bot_strategy *bot_level_at(const char *game_id, int i);

/*
 * What the server plays for `seat` when its clock runs out, instead of a
 * forfeit (protocol.md, Clocks): the game's timeout_action hook (a seat that
 * must move keeps its plan, say). 0 with the action in *out, or
 * -ENOENT: the seat forfeits (the game has no hook, or it has no move now).
 */
int bot_timeout_action(const struct rules_match *m, int seat, struct rules_action *out);

/*
 * What `b` plays for `seat` in match `m`: the strategy is given a copy of
 * the match whose dice stream is seeded from ctx->rng (see Fairness above),
 * so nothing it does depends on the match's seed or dice to come. 0 with the
 * action (one of the seat's legal actions) in *out, or -ENOENT.
 */
int bot_choose(const struct bot_strategy *b, const struct rules_match *m, int seat, struct bot_ctx *ctx,
	       struct rules_action *out);

/* bot_choose() with only a random stream (*rng, advanced) and the level's default budget. */
int bot_play(const struct bot_strategy *b, const struct rules_match *m, int seat, uint64_t *rng,
	     struct rules_action *out);

/* The next value of the xorshift64* generator at *s (non-zero). */
uint64_t bot_rng_next(uint64_t *s);

#endif
