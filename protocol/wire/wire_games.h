/*
 * wire_games.h: the per-game codecs that games.c registers. Each is a
 * constant struct wire_game defined in its own file (ur.c, ...); nothing here
 * holds state.
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

/* The Royal Game of Ur codec (protocol/games/ur/README.md). */
extern const struct wire_game wire_game_ur;

/* The Quinteto codec (protocol/games/quinteto/README.md). */
extern const struct wire_game wire_game_quinteto;

/* The Laquet codec (protocol/games/laquet/README.md). */
extern const struct wire_game wire_game_laquet;
/* The Super 1 al 5 codec (protocol/games/super15/README.md). */
extern const struct wire_game wire_game_super15;

#endif
