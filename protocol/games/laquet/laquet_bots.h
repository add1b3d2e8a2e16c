/*
 * laquet_bots.h: what Laquet's bot levels share inside this folder: the
 * greedy level's score of a position, which the strong level's rollouts
 * play by.
 */
#ifndef QUINTETO_LAQUET_BOTS_H
#define QUINTETO_LAQUET_BOTS_H

#include "rules.h"

/*
 * The greedy score of the position in `m` right after an action whose
 * outcome is `o`, for `seat`; higher is better (laquet_bots.c). Pure.
 */
long laquet_greedy_score(const struct rules_match *m, int seat, const union rules_outcome *o);

#endif
