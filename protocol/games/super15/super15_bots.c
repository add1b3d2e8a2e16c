/*
 * super15_bots.c: the `greedy` level of Super 1 al 5. It looks one ply
 * ahead and one reply further: each legal move is tried on a copy of the
 * match; a move scores the points it gains (a won match scores above any
 * gain), less what the moved piece is worth (its value plus its points) when
 * the opponent can capture it at once, by landing on it or by a Super's
 * sweep along a line through it. The best score wins; ties are broken by
 * the rng, so two greedy bots do not replay the same match.
 * Must not: allocate (the buffers are thread-local, bots.h), or read anything
 * but the match.
 */
#include <errno.h>
#include <string.h>

#include "bots.h"

#define WIN_SCORE 1000 /* above any gain: every piece's value and points together are < 200 */

static BOT_THREAD_LOCAL struct rules_action mine[RULES_MAX_LEGAL];
static BOT_THREAD_LOCAL struct rules_action replies[RULES_MAX_LEGAL];

/* Whether square `sq` lies on the line from `from` (excluded) to `to` (included). */
static bool on_path(int from, int to, int sq)
{
	int df = to % SUPER15_FILES - from % SUPER15_FILES, dr = to / SUPER15_FILES - from / SUPER15_FILES;
	int sf = (df > 0) - (df < 0), sr = (dr > 0) - (dr < 0);
	int f = from % SUPER15_FILES, r = from / SUPER15_FILES;

	do {
		f += sf, r += sr;
		if (r * SUPER15_FILES + f == sq)
			return true;
	} while (r * SUPER15_FILES + f != to);
	return false;
}

/*
 * Whether the opponent, to move in `m`, can capture the piece on `sq` at once:
 * an ordinary capture ends on it, a Super's sweep passes over it.
 */
static bool capturable(const struct rules_match *m, int opponent, int sq)
{
	int n = rules_legal_actions(m, opponent, replies, RULES_MAX_LEGAL);

	for (int i = 0; i < n && i < RULES_MAX_LEGAL; i++) {
		int from = replies[i].arg[0], to = replies[i].arg[1];

		if (to == sq ||
		    (m->s.super15.pieces[m->s.super15.board[from]].super && on_path(from, to, sq)))
			return true;
	}
	return false;
}

/* The score of playing `a` (see the file comment). */
static int move_score(const struct rules_match *m, int seat, const struct rules_action *a)
{
	struct rules_match next;
	union rules_outcome o;
	struct rules_result r;
	const struct super15_piece *p;

	memcpy(&next, m, sizeof(next));
	if (rules_apply(&next, seat, a, &o) != 0)
		return -WIN_SCORE;
	rules_result(&next, &r);
	if (r.over)
		return r.winner == seat ? WIN_SCORE : r.draw ? 0 : -WIN_SCORE;
	p = &next.s.super15.pieces[o.super15.piece];
	if (capturable(&next, seat ^ 1, p->square))
		return o.super15.gained - (p->value + p->points);
	return o.super15.gained;
}

static int greedy_choose(const struct rules_match *m, int seat, struct bot_ctx *ctx, struct rules_action *out)
{
	uint64_t *rng = &ctx->rng;
	int n = rules_legal_actions(m, seat, mine, RULES_MAX_LEGAL), best = 0, ties = 0;
	int best_score = -2 * WIN_SCORE;

	if (n <= 0 || n > RULES_MAX_LEGAL)
		return -ENOENT;
	for (int i = 0; i < n; i++) {
		int s = move_score(m, seat, &mine[i]);

		if (s > best_score) {
			best_score = s, best = i, ties = 1;
		} else if (s == best_score && bot_rng_next(rng) % (uint64_t)++ties == 0) {
			best = i; /* each of the tied moves is kept with equal chance */
		}
	}
	*out = mine[best];
	return 0;
}

/* Super 1 al 5's greedy level. */
const struct bot_strategy bot_super15_greedy = { "super15", "greedy", greedy_choose };

extern const struct bot_strategy bot_super15_strong; /* super15_search.c */

static const struct bot_strategy *const levels[] = { &bot_super15_greedy, &bot_super15_strong, NULL };

/* Super 1 al 5's bots (bots.h): `greedy` and `strong`; a seat out of time forfeits. */
const struct bot_game bot_game_super15 = { .game = "super15", .levels = levels };
