/*
 * laquet_search.c: Laquet's `strong` level, an expectimax search over the
 * dice. The two dice have 21 distinct outcomes (a double 1/36, any other
 * pair 2/36), so chance nodes enumerate them with their weights instead of
 * sampling: the rng is never used and the match's dice stream is never read
 * (a roll is set into a copy of the state by hand, with the core's own pass
 * rule). Every position is scored by a race model: each side's turns still
 * needed (pips with bearing-off wastage, or the men left two a turn,
 * whichever is more), their difference with the tempo of the side on roll
 * and any handed dice, turned into a chance to win through a normal table
 * whose spread grows with the race's length. The search plays each
 * candidate (one per distinct resulting position), scores it (1 ply), then,
 * best first, deepens candidates over the opponent's 21 rolls and its best
 * reply (2 plies: the opponent takes its handed dice first, as its own
 * 1-ply best), until the budget is spent; the move is the best deepened
 * candidate. Work is counted in positions scored (ctx->budget, ctx->spent);
 * a deepening the budget or ctx->stop cuts short is dropped whole, so a
 * given budget always gives the same move. All arithmetic that decides is
 * integer (the wasm module must choose bit for bit as the native code).
 * No tree: the scratch is thread-local (bots.h), about 20 KiB, and
 * ctx->arena is not needed. Nothing is allocated.
 */
#include <errno.h>
#include <string.h>

#include "bots.h"

#define ONE          65536 /* a chance of 1 in the fixed-point values */
#define MAX_CAND     512   /* more than the 481 actions Laquet can list */
#define DEFAULT_WORK 200000u
#define POLL_EVERY   512u /* positions scored between two polls of ctx->stop */
#define HASH_SLOTS   1024u

/* Phi(k / 16) * 65536 for k = 0..64: the standard normal distribution. */
static const uint16_t phi16[65] = {
	32768, 34401, 36028, 37642, 39237, 40807, 42347, 43852, 45316, 46735, 48104, 49422, 50684,
	51888, 53033, 54116, 55138, 56099, 56997, 57835, 58612, 59331, 59994, 60602, 61158, 61664,
	62123, 62537, 62911, 63245, 63544, 63810, 64045, 64253, 64435, 64595, 64735, 64856, 64961,
	65051, 65129, 65195, 65252, 65300, 65341, 65375, 65404, 65428, 65448, 65464, 65478, 65489,
	65498, 65506, 65512, 65517, 65521, 65524, 65527, 65529, 65530, 65531, 65533, 65533, 65534,
};

/* The search's state for one move. */
struct search {
	int seat;
	struct bot_ctx *ctx;
	uint32_t budget; /* positions to score at most */
	uint32_t spent;  /* positions scored */
	bool cut;        /* the budget or the stop callback ended the search */
};

static BOT_THREAD_LOCAL struct rules_action cand_buf[MAX_CAND];
static BOT_THREAD_LOCAL struct rules_action reply_buf[MAX_CAND];
static BOT_THREAD_LOCAL int32_t cand_value[MAX_CAND];
static BOT_THREAD_LOCAL int16_t cand_order[MAX_CAND];
static BOT_THREAD_LOCAL uint64_t seen_hash[HASH_SLOTS];

/* floor(sqrt(x)) for x >= 0, by Newton's method on integers. */
static int32_t isqrt(int32_t x)
{
	int32_t r = x, y;

	if (x < 2)
		return x;
	y = (r + 1) / 2;
	while (y < r) {
		r = y;
		y = (r + x / r) / 2;
	}
	return r;
}

/*
 * The turns side `x` still needs, in sixteenths of a turn: its pips (less
 * what handed dice give it) plus wastage in quadrant III, at seven pips a
 * turn, or its men on the board at two a turn (doubles are not doubled),
 * whichever is more, with a little of the other added.
 */
static int32_t turns16(const struct laquet_state *s, int x, int handed_pips)
{
	const uint8_t *men = s->men[x];
	int32_t pips = 0, left = 0, waste = 0, a, b;

	for (int r = 1; r <= LAQUET_POINTS; r++) {
		pips += men[r] * (LAQUET_OFF - r);
		left += men[r];
	}
	if (!left)
		return 0;
	/* Men piled deep near the rail waste pips in the bear-off (Keith's count, moved to routes 13..18). */
	waste += 2 * (men[18] > 1 ? men[18] - 1 : 0) + (men[17] > 1 ? men[17] - 1 : 0) +
		 (men[16] > 3 ? men[16] - 3 : 0);
	pips += waste - handed_pips;
	if (pips < 1)
		pips = 1;
	a = pips * 16 / 7;
	b = left * 8;
	return a > b ? a + b / 8 : b + a / 8;
}

/* Tunable weights, in sixteenths of a turn (LQ_W* overrides for tuning runs). */
#ifndef LQ_WB
#define LQ_WB 4
#endif
#ifndef LQ_WM
#define LQ_WM 1
#endif

/*
 * What side `x`'s men cost it in lost turns through blocking: for each man
 * outside quadrant III, the landings of the six ahead the opponent holds
 * (squared: a man with few landings left is often stuck), minus the points
 * x holds just ahead of opponent men (each one a landing the opponent loses).
 */
static int32_t block_cost(const struct laquet_state *s, int x)
{
	const uint8_t *own = s->men[x], *opp = s->men[x ^ 1];
	int32_t cost = 0;

	for (int r = 1; r <= LAQUET_POINTS; r++) {
		int shut = 0, near = 0;

		if (!own[r])
			continue;
		if (r < LAQUET_HOME_LO) {
			for (int d = 1; d <= 6 && r + d <= LAQUET_POINTS; d++)
				shut += opp[r + d] != 0;
			cost += LQ_WM * own[r] * shut * shut;
		}
		for (int back = r - 6 > 1 ? r - 6 : 1; back < r; back++)
			near |= opp[back] != 0;
		cost -= LQ_WB * near * 16 / 4;
	}
	return cost;
}

/* The chance (0..ONE) that `seat` wins the position in `s`, which is not over. */
static int32_t race_chance(const struct laquet_state *s, int seat)
{
	int hp[2] = { 0, 0 };
	int32_t t[2], d, sigma, k, p;

	if (s->phase == LAQUET_PHASE_BONUS)
		for (int i = 0; i < s->nhanded; i++)
			hp[s->turn] += s->handed[i];
	if (s->phase == LAQUET_PHASE_PLAN)
		hp[s->turn] += s->dice[0] + s->dice[1];
	for (int x = 0; x < 2; x++) {
		t[x] = turns16(s, x, hp[x]);
		t[x] += t[x] ? block_cost(s, x) : 0;
		t[x] = t[x] < 0 ? 0 : t[x];
	}
	/* The side on roll wins a tie of whole turns: half a turn of tempo. */
	d = t[seat ^ 1] - t[seat] + (s->turn == seat ? 8 : -8);
	sigma = 14 * isqrt(t[0] + t[1]) / 10 + 4;
	k = (d < 0 ? -d : d) * 16 / sigma;
	p = k >= 64 ? ONE - 2 : phi16[k];
	return d < 0 ? ONE - p : p;
}

/* Scores the position in `m` for s->seat (0..ONE) and counts the work. */
static int32_t leaf(struct search *sr, const struct rules_match *m)
{
	const struct laquet_state *s = &m->s.laquet;

	sr->spent++;
	if (sr->spent >= sr->budget)
		sr->cut = true;
	else if (sr->ctx->stop && sr->spent % POLL_EVERY == 0 && sr->ctx->stop(sr->ctx->stop_arg))
		sr->cut = true;
	if (s->over)
		return s->winner == sr->seat ? ONE : 0;
	return race_chance(s, sr->seat);
}

/*
 * Sets the roll d1, d2 for the seat on roll in `m` (phase ROLL) as the core
 * would after {"roll":true}: phase PLAN when some step plays, else the pass
 * (both dice handed over, a bonus if the other seat can play one).
 */
static void roll_set(struct rules_match *m, int d1, int d2)
{
	struct laquet_state *s = &m->s.laquet;

	s->phase = LAQUET_PHASE_PLAN;
	s->dice[0] = (uint8_t)d1;
	s->dice[1] = (uint8_t)d2;
	if (rules_legal_actions(m, s->turn, NULL, 0) > 0)
		return;
	s->dice[0] = s->dice[1] = 0;
	s->turn ^= 1;
	s->phase = LAQUET_PHASE_BONUS;
	s->handed[0] = (uint8_t)d1;
	s->handed[1] = (uint8_t)d2;
	s->nhanded = 2;
	if (rules_legal_actions(m, s->turn, NULL, 0) > 1)
		return; /* more than the empty bonus */
	s->phase = LAQUET_PHASE_ROLL;
	s->handed[0] = s->handed[1] = 0;
	s->nhanded = 0;
}

/* With doubles, a plan whose first step uses die 1 repeats one that uses die 0. */
static bool twin_action(const struct laquet_state *s, const struct rules_action *a)
{
	if (a->kind == LAQUET_ACT_PLAN)
		return s->dice[0] == s->dice[1] && a->arg[2] == 1;
	return a->kind == LAQUET_ACT_BONUS && s->nhanded == 2 && s->handed[0] == s->handed[1] &&
	       a->arg[0] >= 1 && a->arg[2] == 1;
}

/*
 * The seat to act in `m` (phase PLAN or BONUS) plays its 1-ply best: the
 * action whose position scores best for it. `m` becomes that position;
 * returns its score for s->seat. `buf` holds the legal list.
 */
static int32_t best_reply(struct search *sr, struct rules_match *m, struct rules_action *buf)
{
	int mover = m->s.laquet.turn;
	int n = rules_legal_actions(m, mover, buf, MAX_CAND);
	int32_t best = -1;
	struct rules_match best_m, copy;

	if (n > MAX_CAND)
		n = MAX_CAND;
	memcpy(&best_m, m, sizeof(best_m));
	for (int i = 0; i < n && !sr->cut; i++) {
		int32_t v;

		if (twin_action(&m->s.laquet, &buf[i]))
			continue;
		memcpy(&copy, m, sizeof(copy));
		if (rules_apply(&copy, mover, &buf[i], NULL) != 0)
			continue;
		v = leaf(sr, &copy);
		if (mover != sr->seat)
			v = ONE - v;
		if (v > best) {
			best = v;
			memcpy(&best_m, &copy, sizeof(best_m));
		}
	}
	memcpy(m, &best_m, sizeof(best_m));
	return mover == sr->seat ? best : ONE - best;
}

/*
 * The value for s->seat of the position in `m` after an action of the root:
 * a handed-dice bonus is taken (1-ply best), then the seat on roll's 21
 * throws are each answered by its 1-ply best plan.
 */
static int32_t chance_value(struct search *sr, const struct rules_match *m)
{
	struct rules_match base, r;
	int32_t sum = 0;

	if (m->s.laquet.over)
		return m->s.laquet.winner == sr->seat ? ONE : 0;
	memcpy(&base, m, sizeof(base));
	if (base.s.laquet.phase == LAQUET_PHASE_BONUS)
		best_reply(sr, &base, reply_buf);
	if (base.s.laquet.over)
		return base.s.laquet.winner == sr->seat ? ONE : 0;
	for (int d1 = 1; d1 <= 6 && !sr->cut; d1++) {
		for (int d2 = d1; d2 <= 6 && !sr->cut; d2++) {
			int w = d1 == d2 ? 1 : 2;

			memcpy(&r, &base, sizeof(r));
			roll_set(&r, d1, d2);
			if (r.s.laquet.phase == LAQUET_PHASE_PLAN)
				sum += w * best_reply(sr, &r, reply_buf);
			else
				sum += w * leaf(sr, &r);
		}
	}
	return sum / 36;
}

/* A 64-bit FNV-1a hash of the position (the state's bytes). */
static uint64_t state_hash(const struct laquet_state *s)
{
	const uint8_t *p = (const uint8_t *)s;
	uint64_t h = 0xcbf29ce484222325ull;

	for (size_t i = 0; i < sizeof(*s); i++)
		h = (h ^ p[i]) * 0x100000001b3ull;
	return h ? h : 1;
}

/* True if a position with hash `h` was seen before in this move (and records it). */
static bool seen_before(uint64_t h)
{
	for (uint32_t i = (uint32_t)h % HASH_SLOTS;; i = (i + 1) % HASH_SLOTS) {
		if (seen_hash[i] == h)
			return true;
		if (!seen_hash[i]) {
			seen_hash[i] = h;
			return false;
		}
	}
}

/*
 * Scores each legal action of the seat at 1 ply, one per distinct resulting
 * position (the others get value -1), and sorts cand_order best first.
 * Returns the number of legal actions.
 */
static int candidates(struct search *sr, const struct rules_match *m)
{
	int n = rules_legal_actions(m, sr->seat, cand_buf, MAX_CAND);

	if (n > MAX_CAND)
		n = MAX_CAND;
	memset(seen_hash, 0, sizeof(seen_hash));
	for (int i = 0; i < n; i++) {
		struct rules_match copy;

		cand_value[i] = -1;
		cand_order[i] = (int16_t)i;
		memcpy(&copy, m, sizeof(copy));
		if (rules_apply(&copy, sr->seat, &cand_buf[i], NULL) != 0 ||
		    seen_before(state_hash(&copy.s.laquet)))
			continue;
		cand_value[i] = leaf(sr, &copy);
	}
	/* Insertion sort, stable: the best first, ties in legal order. */
	for (int i = 1; i < n; i++) {
		int16_t x = cand_order[i];
		int j = i;

		for (; j > 0 && cand_value[cand_order[j - 1]] < cand_value[x]; j--)
			cand_order[j] = cand_order[j - 1];
		cand_order[j] = x;
	}
	return n;
}

/*
 * Deepens the candidates best first while the budget lasts; returns the
 * index of the action to play and its value in *value.
 */
static int deepen(struct search *sr, const struct rules_match *m, int n, int32_t *value)
{
	int best = cand_order[0];
	int32_t best_v = -1;

	sr->cut = sr->spent >= sr->budget;
	for (int k = 0; k < n && !sr->cut; k++) {
		int i = cand_order[k];
		struct rules_match copy;
		int32_t v;

		if (cand_value[i] < 0)
			break; /* a repeated position: the rest are too */
		memcpy(&copy, m, sizeof(copy));
		if (rules_apply(&copy, sr->seat, &cand_buf[i], NULL) != 0)
			continue;
		v = chance_value(sr, &copy);
		if (sr->cut)
			break; /* cut short: not comparable, dropped */
		if (v > best_v) {
			best_v = v;
			best = i;
		}
	}
	*value = best_v >= 0 ? best_v : cand_value[best];
	return best;
}

static int strong_choose(const struct rules_match *m, int seat, struct bot_ctx *ctx, struct rules_action *out)
{
	struct search sr = { .seat = seat, .ctx = ctx, .budget = ctx->budget ? ctx->budget : DEFAULT_WORK };
	int32_t v;
	int n;

	if (!rules_seat_to_act(m, seat))
		return -ENOENT;
	if (m->s.laquet.phase == LAQUET_PHASE_ROLL) {
		/* Nothing to choose: the estimate is the throw to come, if the budget allows. */
		rules_legal_actions(m, seat, out, 1);
		v = leaf(&sr, m);
		sr.cut = sr.spent >= sr.budget;
		if (!sr.cut) {
			int32_t w = chance_value(&sr, m);

			if (!sr.cut)
				v = w;
		}
	} else {
		n = candidates(&sr, m);
		if (n <= 0)
			return -ENOENT;
		*out = cand_buf[deepen(&sr, m, n, &v)];
	}
	ctx->has_estimate = true;
	ctx->estimate[seat] = (float)v / ONE;
	ctx->estimate[seat ^ 1] = 1.0f - ctx->estimate[seat];
	ctx->spent = sr.spent;
	return 0;
}

/* Laquet's strong level. */
const struct bot_strategy bot_laquet_strong = { "laquet", "strong", strong_choose };
