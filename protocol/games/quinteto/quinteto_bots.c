/*
 * quinteto_bots.c: the `greedy` level of Quinteto. A hunter (and the
 * arranger in the duel) tries every legal plan on a copy of the match and
 * keeps the best by a fixed score: captures, kills and eliminations first, a
 * win above all, then shelter (its stones out of its hunter's reach: in limbo,
 * or in a room with another player's stone) and threat (its stones within
 * reach of its victim's lone stones). The arranger sets the chain that keeps
 * every hunter farthest from its victim, and places its stones on the home
 * farthest from the survivor. Ties go to the seat's random stream.
 * Must not: allocate (thread-local scratch) or look at the dice
 * stream: a choice depends on the visible position only.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "bots.h"

#define REACH 12 /* the farthest one turn can land: 6 + 6 */

static BOT_THREAD_LOCAL struct rules_action legal_buf[RULES_MAX_LEGAL];

static int ring_dist(int a, int b)
{
	int d = abs(a - b) % QUINTETO_ROOMS;

	return d < QUINTETO_ROOMS - d ? d : QUINTETO_ROOMS - d;
}

/* True if room `room` holds stones of `seat` only (a landing of its hunter there captures). */
static bool lone(const struct quinteto_state *s, int seat, int room)
{
	for (int k = 0; k < QUINTETO_STONES; k++)
		if (s->loc[k] == room && k / 3 != seat)
			return false;
	return true;
}

/* The seat that hunts `seat`, or QUINTETO_NONE. */
static int hunter_of(const struct quinteto_state *s, int seat)
{
	for (int h = 0; h < RULES_MAX_SEATS; h++)
		if (h != seat && quinteto_victim(s, h) == seat)
			return h;
	return QUINTETO_NONE;
}

/* Pairs (a stone of `from`, a lone stone of `to`) that one turn of `from` could land on. */
static int reach(const struct quinteto_state *s, int from, int to)
{
	int n = 0;

	if (from == QUINTETO_NONE || to == QUINTETO_NONE)
		return 0;
	for (int j = 0; j < 2; j++) {
		int t = s->loc[3 * to + j];

		if (t >= QUINTETO_ROOMS || !lone(s, to, t))
			continue;
		for (int i = 0; i < 2; i++) {
			int f = s->loc[3 * from + i];

			if (f < QUINTETO_ROOMS && ring_dist(f, t) <= REACH)
				n++;
			else if (f == QUINTETO_LIMBO && from < QUINTETO_HUNTERS && 5 * from + 2 == t)
				n++; /* an exit lands on its home */
		}
	}
	return n;
}

/* The position after a plan, from `seat`'s side. */
static long plan_score(const struct rules_match *after, int seat, const struct quinteto_outcome *o)
{
	const struct quinteto_state *s = &after->s.quinteto;
	struct rules_result r;
	long score = 0;

	rules_result(after, &r);
	if (r.over && !r.draw)
		return r.winner == seat ? 1000000 : -1000000;
	score += 1000 * (o->ncaptured + o->nkilled) + 3000 * o->neliminated;
	score -= 100 * reach(s, hunter_of(s, seat), seat);
	score += 10 * reach(s, seat, quinteto_victim(s, seat));
	return score;
}

/* Keeps `cand` as *best when it scores higher, or ties and wins a fair draw (reservoir of ties). */
static void keep(long score, const struct rules_action *cand, long *best, int *ties, uint64_t *rng,
		 struct rules_action *out)
{
	if (*ties > 0 && score < *best)
		return;
	if (*ties == 0 || score > *best) {
		*best = score;
		*ties = 0;
	}
	if (bot_rng_next(rng) % (uint64_t)++ * ties == 0)
		*out = *cand;
}

static void plan_pick(const struct rules_match *m, int seat, int n, uint64_t *rng, struct rules_action *out)
{
	long best = 0;
	int ties = 0;

	for (int i = 0; i < n; i++) {
		struct rules_match after;
		union rules_outcome o;

		memcpy(&after, m, sizeof(after));
		if (rules_apply(&after, seat, &legal_buf[i], &o) != 0)
			continue;
		keep(plan_score(&after, seat, &o.quinteto), &legal_buf[i], &best, &ties, rng, out);
	}
}

/* The nearest ring distance between a stone of `a` and one of `b`; REACH * 2 when either has none. */
static int seats_apart(const struct quinteto_state *s, int a, int b)
{
	int d = 2 * REACH;

	for (int i = 0; i < 2; i++)
		for (int j = 0; j < 2; j++)
			if (s->loc[3 * a + i] < QUINTETO_ROOMS && s->loc[3 * b + j] < QUINTETO_ROOMS)
				if (ring_dist(s->loc[3 * a + i], s->loc[3 * b + j]) < d)
					d = ring_dist(s->loc[3 * a + i], s->loc[3 * b + j]);
	return d;
}

/* A chain that keeps hunters apart: the arrangement with the largest hunter-to-victim distances. */
static void arrange_pick(const struct rules_match *m, int n, uint64_t *rng, struct rules_action *out)
{
	const struct quinteto_state *s = &m->s.quinteto;
	long best = 0;
	int ties = 0;

	for (int i = 0; i < n; i++) {
		const struct rules_action *a = &legal_buf[i];
		int k = a->arg[0], sum = 0, worst = 2 * REACH;

		for (int j = 0; j < k; j++) {
			int d = seats_apart(s, a->arg[1 + j], a->arg[1 + (j + 1) % k]);

			sum += d;
			worst = d < worst ? d : worst;
		}
		keep(100L * worst + sum, a, &best, &ties, rng, out);
	}
}

/* The duel's home farthest from the survivor's stones (its limbo stones come back on its home). */
static void place_pick(const struct rules_match *m, int n, uint64_t *rng, struct rules_action *out)
{
	const struct quinteto_state *s = &m->s.quinteto;
	int sv = s->survivor;
	long best = 0;
	int ties = 0;

	for (int i = 0; i < n; i++) {
		int home = 5 * legal_buf[i].arg[0] + 2, d = 2 * REACH;

		for (int j = 0; j < 2; j++) {
			int at = s->loc[3 * sv + j] == QUINTETO_LIMBO ? 5 * sv + 2 : s->loc[3 * sv + j];

			if (at < QUINTETO_ROOMS && ring_dist(at, home) < d)
				d = ring_dist(at, home);
		}
		keep(d, &legal_buf[i], &best, &ties, rng, out);
	}
}

static int greedy_choose(const struct rules_match *m, int seat, struct bot_ctx *ctx, struct rules_action *out)
{
	uint64_t *rng = &ctx->rng;
	int n = rules_legal_actions(m, seat, legal_buf, RULES_MAX_LEGAL);

	if (n <= 0 || n > RULES_MAX_LEGAL)
		return -ENOENT;
	*out = legal_buf[0];
	if (n == 1)
		return 0;
	switch (legal_buf[0].kind) {
	case QUINTETO_ACT_ARRANGE:
		arrange_pick(m, n, rng, out);
		break;
	case QUINTETO_ACT_PLACE:
		place_pick(m, n, rng, out);
		break;
	case QUINTETO_ACT_PLAN:
		plan_pick(m, seat, n, rng, out);
		break;
	}
	return 0;
}

/* Quinteto's `greedy` level (bots.h). */
const struct bot_strategy bot_quinteto_greedy = { "quinteto", "greedy", greedy_choose };

/*
 * protocol.md (Clocks): the arrangement the server plays for an arranger
 * whose clock ran out while it must arrange: the current chain kept (the
 * living hunters in circle order), or the living hunters in seat order
 * before the first arrangement. -ENOENT when the arranger is not to arrange.
 */
static int keep_chain(const struct rules_match *m, int seat, struct rules_action *out)
{
	const struct quinteto_state *s = &m->s.quinteto;
	int n = rules_legal_actions(m, seat, legal_buf, RULES_MAX_LEGAL), i, k = 0;
	uint8_t living = 0;

	if (n <= 0 || legal_buf[0].kind != QUINTETO_ACT_ARRANGE)
		return -ENOENT;
	for (i = 1; i <= legal_buf[0].arg[0]; i++) /* every arrangement names exactly the living hunters */
		living |= (uint8_t)(1u << legal_buf[0].arg[i]);
	memset(out, 0, sizeof(*out));
	out->kind = QUINTETO_ACT_ARRANGE;
	for (i = 0; s->arranged && i < QUINTETO_HUNTERS; i++)
		if (s->circle[i] < QUINTETO_HUNTERS && (living >> s->circle[i] & 1)) {
			out->arg[++k] = s->circle[i];
			living &= (uint8_t) ~(1u << s->circle[i]);
		}
	for (i = 0; i < QUINTETO_HUNTERS; i++) /* seat order: the first time, or anyone not on the circle */
		if (living >> i & 1)
			out->arg[++k] = (int16_t)i;
	out->arg[0] = (int16_t)k;
	for (i = 0; i < n; i++)
		if (rules_action_equal(&legal_buf[i], out))
			return 0;
	*out = legal_buf[0]; /* cannot happen: every order of the living hunters is legal */
	return 0;
}

static const struct bot_strategy *const levels[] = { &bot_quinteto_greedy, NULL };

/* Quinteto's bots (bots.h): `greedy`, and the arranger out of time keeps its chain. */
const struct bot_game bot_game_quinteto = { .game = "quinteto",
					    .levels = levels,
					    .timeout_action = keep_chain };
