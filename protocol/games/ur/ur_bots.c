/*
 * ur_bots.c: the Royal Game of Ur's bots. Ur has no level of its own: the
 * `random` level every game has (bots.c) serves it, and a seat whose clock
 * runs out forfeits. A level of its own would be a struct bot_strategy here,
 * listed in `levels`.
 */
#include "bots.h"

/* Ur's bots (bots.h): none of its own. */
const struct bot_game bot_game_ur = { .game = "ur", .levels = NULL };
