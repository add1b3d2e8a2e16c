/*
 * rules.h: the one interface to every game's rules core.
 *
 * A match is a fixed-size value (struct rules_match) that the caller owns.
 * It is started from a 32-byte match seed and options, then driven only by
 * rules_apply() with actions the caller picked from rules_legal_actions().
 * Chance is explicit: rolling dice is an action whose outcome is drawn from
 * the match's own dice stream (dice.c), so a match is exactly
 * seed + options + the list of (seat, action) pairs.
 *
 * Must not: do I/O, allocate, use jansson/libuv, or read clocks. Everything in
 * protocol/rules/ includes only the C standard library and its own headers.
 *
 * Invariants: every function that fails leaves the match untouched; a match
 * copied with memcpy is an independent match (no pointers into itself).
 */
#ifndef QUINTETO_RULES_H
#define QUINTETO_RULES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "game_list.h" /* generated: GAME_LIST(X) and every game's header */
#include "sha256.h"

#define RULES_MAX_SEATS 6
/*
 * Every game's legal count is at most this, so a caller with an array this
 * size gets them all (today's largest list is 640 moves).
 */
#define RULES_MAX_LEGAL   2048
#define RULES_ACTION_ARGS 10
#define RULES_SEED_SIZE   32

/*
 * The rules core's codes, negative in its band -1000..-1099
 * (docs/ARCHITECTURE.md, "Errors"); rules_strerror() names each.
 */
enum rules_error {
	RULES_OK = 0,
	RULES_E_ILLEGAL = -1000,     /* not one of the seat's legal actions */
	RULES_E_NOT_TO_ACT = -1001,  /* the seat is not in to_act */
	RULES_E_GAME_OVER = -1002,   /* the match has a result */
	RULES_E_BAD_OPTIONS = -1003, /* options out of range for this game */
	RULES_E_BAD_SEAT = -1004,    /* seat index out of range */
	RULES_E_OUT_OF_PLAY = -1005, /* the seat is already out of play (resigned, forfeited, eliminated) */
	RULES_E_END_ = -1006, /* one past the last code: for (e = RULES_E_ILLEGAL; e > RULES_E_END_; e--) */
};

/* A sentence for a person about a RULES_E_* code; "unknown rules error" for any other value. */
const char *rules_strerror(int err);

/*
 * Absent arguments. An action's args are plain values, and 0 is a real value
 * in some games (Quinteto's seat 0, stone 0), so an OPTIONAL argument that is
 * absent is written as RULES_ARG_NONE, never as 0. Slots past the arity of an
 * action's form stay 0 (they are not arguments at all), so two actions built
 * from zeroed values are still equal exactly when their bytes are.
 */
#define RULES_ARG_NONE (-1)

/*
 * What changes a match without being an action (protocol.md (r2): events).
 * An event takes one seat out of play and may end the match; it does not
 * count as a ply.
 */
enum rules_event_kind {
	RULES_EVENT_RESIGN = 1,  /* the seat gave up */
	RULES_EVENT_FORFEIT = 2, /* a clock ran out or the seat was abandoned */
};

/*
 * An action in the game's own compact form. `kind` is game-specific and never
 * 0 for a real action; slots past the form's arity are 0 and an absent
 * optional argument is RULES_ARG_NONE, so two actions are equal exactly when
 * their bytes are equal (always build them from a zeroed value).
 */
struct rules_action {
	uint8_t kind;
	uint8_t pad;
	int16_t arg[RULES_ACTION_ARGS];
};

/* Why a match ended; the wire codec maps these to each game's strings. */
enum rules_reason {
	RULES_REASON_NONE = 0,
	RULES_REASON_RACE,
	RULES_REASON_RESIGN,
	RULES_REASON_FORFEIT,
	RULES_REASON_DUEL,
	RULES_REASON_QUINTETO,
	RULES_REASON_MAX_TURNS,
	RULES_REASON_LAST_PIECE,
	RULES_REASON_NO_MOVES,
	RULES_REASON_ADJUDICATION,
};

struct rules_result {
	bool over;
	bool draw;
	int8_t winner;  /* seat, or -1 for none */
	uint8_t reason; /* enum rules_reason */
};

/* Game options; 0 in a field means "the game's default". */
struct rules_options {
	int32_t max_turns; /* games with a turn limit; 0: the game's own */
};

/*
 * The dice stream of protocol.md: block k = SHA-256(match_seed || k as 8 bytes
 * big-endian), consumed one byte at a time.
 */
struct rules_dice {
	uint8_t seed[RULES_SEED_SIZE];
	uint64_t block; /* index of the next block to generate */
	uint8_t buf[RULES_SHA256_SIZE];
	uint8_t pos;   /* next byte in buf; RULES_SHA256_SIZE = exhausted */
	uint64_t used; /* bytes consumed so far, for tests and replays */
};

/* Each game's state and outcome: a member `<id>` of type struct <id>_state / <id>_outcome per game. */
#define RULES_STATE_MEMBER(id) struct id##_state id;
union rules_state {
	GAME_LIST(RULES_STATE_MEMBER)
	uint64_t align_;
};
#undef RULES_STATE_MEMBER

/* What one accepted action did (dice drawn, captures, passes...). */
#define RULES_OUTCOME_MEMBER(id) struct id##_outcome id;
union rules_outcome {
	GAME_LIST(RULES_OUTCOME_MEMBER)
	uint64_t align_;
};
#undef RULES_OUTCOME_MEMBER

struct rules_match {
	const struct rules_game *game;
	struct rules_dice dice;
	struct rules_options options;
	uint32_t ply; /* actions accepted so far (events do not count) */
	uint8_t out;  /* bit per seat out of play: set by rules_event(), or by a game
		       * for its own eliminations (a player captured or eliminated) */
	union rules_state s;
};

/*
 * A game's rules. Functions are only called through the rules_* wrappers
 * below, which check the common preconditions (seat range, game over, seat
 * to act, seat in play) first. `apply` and `event` must leave the match
 * untouched when they return non-zero; `outcome` is zeroed by the wrapper
 * before the call. `legal` returns the TRUE number of legal actions and
 * writes the first min(count, cap) of them (cap may be 0). `event` is called
 * with the seat's bit already set in m->out and decides whether the match
 * ends (and who wins).
 */
struct rules_game {
	const char *id;           /* the folder's name, protocol/games/<id>/ */
	const char *name;         /* display name */
	uint8_t seats;            /* number of seats */
	const char *const *roles; /* role per seat */
	bool dice;                /* the game uses the dice stream */
	int (*start)(struct rules_match *m);
	int (*to_act)(const struct rules_match *m, uint8_t out[RULES_MAX_SEATS]);
	int (*legal)(const struct rules_match *m, int seat, struct rules_action *out, int cap);
	int (*apply)(struct rules_match *m, int seat, const struct rules_action *a,
		     union rules_outcome *outcome);
	int (*event)(struct rules_match *m, int seat, int kind, union rules_outcome *outcome);
	void (*result)(const struct rules_match *m, struct rules_result *out);
	/* optional (NULL: the default of rules_standing()); called only for a finished match */
	void (*standing)(const struct rules_match *m, uint8_t place[RULES_MAX_SEATS]);
};

/* Each game's rules, `rules_game_<id>` in protocol/games/<id>/<id>.c. */
#define RULES_GAME_DECLARE(id) extern const struct rules_game rules_game_##id;
GAME_LIST(RULES_GAME_DECLARE)
#undef RULES_GAME_DECLARE

/* The most games a program has: the list's, then those it registers (rules_game_register()). */
#define RULES_MAX_GAMES 16

/*
 * The registry, NULL-terminated: every game built in (protocol/games/
 * meson.build's list, in its order), then any a program registered at
 * start-up. Read it; only rules_game_register() writes it.
 */
extern const struct rules_game *rules_games[RULES_MAX_GAMES + 1];

/*
 * Adds game `g` (borrowed; it must outlive the program) after the built-in
 * ones: how a program links a game that is not in the list (the throwaway
 * game of tests/games/, which walks docs/ADDING-A-GAME.md without rebuilding
 * the server). Call from main() before anything reads the registry. The
 * game's state and outcome must fit union rules_state / rules_outcome (it
 * copies them in and out with memcpy). An id already taken or a full
 * registry is the calling program's own bug: an assertion.
 */
void rules_game_register(const struct rules_game *g);

/* Finds a game by id; NULL if unknown. */
const struct rules_game *rules_game_find(const char *id);

/*
 * match_seed = SHA-256(server_seed || cs0 || 0x00 || ... || csN || 0x00).
 * client_seeds[i] may be NULL, meaning "" (only the zero byte).
 */
void rules_match_seed(const uint8_t server_seed[RULES_SEED_SIZE], const char *const *client_seeds, int n,
		      uint8_t out[RULES_SEED_SIZE]);

/* Dice stream. */
void rules_dice_init(struct rules_dice *d, const uint8_t seed[RULES_SEED_SIZE]);
uint8_t rules_dice_byte(struct rules_dice *d);
int rules_dice_d6(struct rules_dice *d);     /* 1..6; skips bytes >= 252 */
bool rules_dice_tetra(struct rules_dice *d); /* true = marked (byte & 1) */

/*
 * Starts match `m` of game `g` from `seed` and `opt` (NULL: defaults).
 * Returns 0 or RULES_E_BAD_OPTIONS. `m` is fully overwritten.
 */
int rules_match_start(struct rules_match *m, const struct rules_game *g, const uint8_t seed[RULES_SEED_SIZE],
		      const struct rules_options *opt);

/* Seats to act now, written to `out`; returns how many (0 when over). */
int rules_to_act(const struct rules_match *m, uint8_t out[RULES_MAX_SEATS]);

/* True if `seat` is among the seats to act. */
bool rules_seat_to_act(const struct rules_match *m, int seat);

/*
 * Returns the TRUE number n of legal actions of `seat` (0 if the seat is not
 * to act) and writes the first min(n, cap) of them into out[] (`out` may be
 * NULL when cap is 0). Every distinct legal action appears once. A caller
 * that needs all of them checks n <= cap; nothing is truncated silently.
 */
int rules_legal_actions(const struct rules_match *m, int seat, struct rules_action *out, int cap);

/*
 * Applies `a` for `seat`. Returns 0 (ply incremented, `outcome` filled) or
 * RULES_E_BAD_SEAT / RULES_E_GAME_OVER / RULES_E_NOT_TO_ACT / RULES_E_ILLEGAL
 * with the match untouched. `outcome` may be NULL.
 */
int rules_apply(struct rules_match *m, int seat, const struct rules_action *a, union rules_outcome *outcome);

/*
 * An event (`kind`: enum rules_event_kind) for `seat`: takes the seat out of
 * play (its bit in m->out) and lets the game decide whether the match ends
 * (in a two-seat game, the other seat wins). Not an action: ply is unchanged. Returns 0, or
 * RULES_E_BAD_SEAT, RULES_E_GAME_OVER (the match is over), RULES_E_OUT_OF_PLAY
 * (the seat already is), RULES_E_ILLEGAL (an unknown kind) with the match
 * untouched. `outcome` (may be NULL) is zeroed, then filled by the game.
 */
int rules_event(struct rules_match *m, int seat, int kind, union rules_outcome *outcome);

/* True if `seat` is a seat of the game and not out of play (see m->out). */
bool rules_seat_in_play(const struct rules_match *m, int seat);

/* Reads the result (over=false while playing). */
void rules_result(const struct rules_match *m, struct rules_result *out);

/*
 * The standing of a finished match (issue 26, the ratings): place[seat] for
 * every seat of the game, 0 first; seats with equal places drew with each
 * other. Two-seat games: the winner 0 and the other 1, or both 0 on a draw.
 * Quinteto: the winner, then the duel's loser, then the hunters in the reverse
 * order of their elimination (a resignation or forfeit is an elimination then);
 * on a draw all still in play tie first; an arranger leaving in phase 1 is
 * last (docs/RATINGS.md, "Standing per game"). A game without its own
 * `standing` gets the two-seat rule (the winner first, everyone else tied
 * behind; all tied on a draw). A match not over: every place 0.
 */
void rules_standing(const struct rules_match *m, uint8_t place[RULES_MAX_SEATS]);

/* Byte equality of two actions built from zeroed values. */
bool rules_action_equal(const struct rules_action *a, const struct rules_action *b);

#endif
