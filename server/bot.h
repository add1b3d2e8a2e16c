/*
 * bot.h: the `random` bot's choice. Pure: it reads the match and its own
 * generator and names an action; the room plays it through the same path as
 * a human. The generator is the bot's own, not the dice stream: the choice
 * is recorded as an action, so replays never need it.
 */
#ifndef QUINTETO_BOT_H
#define QUINTETO_BOT_H

#include <stdint.h>

#include "rules.h"

/*
 * Picks one of `seat`'s legal actions uniformly with the xorshift state
 * `*rng` (non-zero), into `out`. 0, or -ENOENT when the seat has none.
 */
int bot_choose(const struct rules_match *m, int seat, uint64_t *rng, struct rules_action *out);

#endif
