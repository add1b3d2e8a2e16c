/*
 * laquet_bots.c: Laquet's `greedy` level. It tries every legal action on a
 * copy of the match and keeps the one whose position scores best for its
 * seat right after it: a win first, then men borne off, then the race (the
 * pips still to travel), then blocking (points it holds just ahead of the
 * opponent's men, which men may never land on) and not handing the
 * opponent a die it can use. Ties go to the first best. No look-ahead, no
 * chance: the rng is not used. The legal buffer is thread-local (bots.h);
 * nothing is allocated.
 */
#include <errno.h>
#include <string.h>

#include "bots.h"

static BOT_THREAD_LOCAL struct rules_action legal_buf[RULES_MAX_LEGAL];

/* Pips `seat` still has to travel: 19 - route per man on the board. */
static int pips(const struct laquet_state *s, int seat)
{
	int n = 0;

	for (int r = 1; r <= LAQUET_POINTS; r++)
		n += s->men[seat][r] * (LAQUET_OFF - r);
	return n;
}

/* Points `seat` holds within six ahead of some opponent man: each one a landing the opponent loses. */
static int blocks(const struct laquet_state *s, int seat)
{
	int n = 0;

	for (int r = 1; r <= LAQUET_POINTS; r++) {
		if (!s->men[seat][r])
			continue;
		for (int back = r - 6 > 1 ? r - 6 : 1; back < r; back++) {
			if (s->men[seat ^ 1][back]) {
				n++;
				break;
			}
		}
	}
	return n;
}

/* The score of the position after an action, for `seat`; higher is better. */
static long score(const struct rules_match *m, int seat, const union rules_outcome *o)
{
	const struct laquet_state *s = &m->s.laquet;
	struct rules_result r;

	rules_result(m, &r);
	if (r.over)
		return r.winner == seat ? 1000000L : -1000000L;
	return 1000L * s->men[seat][LAQUET_OFF] - 10L * pips(s, seat) + 6L * blocks(s, seat) -
	       40L * o->laquet.bonus;
}

static int greedy_choose(const struct rules_match *m, int seat, struct bot_ctx *ctx, struct rules_action *out)
{
	int n = rules_legal_actions(m, seat, legal_buf, RULES_MAX_LEGAL), best = 0;
	long best_score = 0;

	(void)ctx;
	if (n <= 0)
		return -ENOENT;
	for (int i = 0; i < n && n > 1; i++) {
		struct rules_match copy;
		union rules_outcome o;
		long v;

		memcpy(&copy, m, sizeof(copy));
		if (rules_apply(&copy, seat, &legal_buf[i], &o) != 0)
			continue;
		v = score(&copy, seat, &o);
		if (i == 0 || v > best_score) {
			best = i;
			best_score = v;
		}
	}
	*out = legal_buf[best];
	return 0;
}

/* Laquet's greedy level. */
const struct bot_strategy bot_laquet_greedy = { "laquet", "greedy", greedy_choose };

extern const struct bot_strategy bot_laquet_strong; /* laquet_search.c */

static const struct bot_strategy *const levels[] = { &bot_laquet_greedy, &bot_laquet_strong, NULL };

/* Laquet's bots (bots.h): `greedy` and `strong`; a seat out of time forfeits. */
const struct bot_game bot_game_laquet = { .game = "laquet", .levels = levels };
