/*
 * wire_games.h: the per-game codecs that games.c registers. Each is a
 * constant struct wire_game defined in its own file (ur.c, ...); nothing here
 * holds state.
 */
#ifndef QUINTETO_WIRE_GAMES_H
#define QUINTETO_WIRE_GAMES_H

#include "wire.h"

/* The Royal Game of Ur codec (protocol/games-ur.md). */
extern const struct wire_game wire_game_ur;

#endif
