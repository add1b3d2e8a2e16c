/*
 * wire_games.h: what the per-game codecs share, and the codecs that games.c
 * registers. Each codec is a constant struct wire_game `wire_game_<id>`
 * defined in its game's folder (protocol/games/<id>/<id>_wire.c); nothing
 * here holds state.
 */
#ifndef QUINTETO_WIRE_GAMES_H
#define QUINTETO_WIRE_GAMES_H

#include "wire.h"

/*
 * Internal to protocol/wire: writes the formatted reason into why[0..whylen)
 * (when why is not NULL) and returns err, so a check reads
 * `return wire_fail(WIRE_E_BAD_MESSAGE, why, whylen, "...", ...)`.
 */
int wire_fail(int err, char *why, size_t whylen, const char *fmt, ...) __attribute__((format(printf, 4, 5)));

/*
 * A game's `result`: null while playing; {winner, reason}, or with_draw
 * {winner: seat|null, draw, reason} (winner null in a draw). reasons[] is
 * indexed by enum rules_reason (nreasons entries), NULL where the game never
 * gives that reason: then NULL, as on allocation failure. New reference.
 */
json_t *wire_result_pack(const struct rules_result *r, const char *const *reasons, size_t nreasons,
			 bool with_draw);

#define WIRE_COUNT(a) (sizeof(a) / sizeof((a)[0]))

/*
 * Option rows more than one game has, for a game's `options` table (struct
 * wire_option; the options every game has, clock and stand-in, are not rows:
 * games.c reads them for all). End a table with WIRE_OPTIONS_END.
 */
#define WIRE_OPTION_AUTOROLL                                            \
	{                                                               \
		.key = "autoroll", .type = WIRE_OPT_BOOL, .room = true, \
		.offset = offsetof(struct wire_room_options, autoroll)  \
	}
/* `max_turns` in lo..hi, `def` when absent (stored in rules_options). */
#define WIRE_OPTION_MAX_TURNS(lo, hi, default_)                                                \
	{                                                                                      \
		.key = "max_turns", .type = WIRE_OPT_INT, .room = false,                       \
		.offset = offsetof(struct rules_options, max_turns), .min = (lo), .max = (hi), \
		.def = (default_)                                                              \
	}
#define WIRE_OPTIONS_END    \
	{                   \
		.key = NULL \
	}

/* Each game's codec, one per entry of protocol/games/meson.build's list. */
#define WIRE_GAME_DECLARE(id) extern const struct wire_game wire_game_##id;
GAME_LIST(WIRE_GAME_DECLARE)
#undef WIRE_GAME_DECLARE

#endif
