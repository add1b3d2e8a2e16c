/*
 * laquet_search.c: Laquet's `strong` level: truncated rollouts with common
 * dice. It plays each legal action on a copy (one per distinct resulting
 * position) and orders them by the greedy level's score; the best LQ_K are
 * then played out in rounds: in a round each of them is followed by LQ_H
 * turns of greedy play by both seats with the same dice (the round's seed
 * from the bot's own stream, never the match's), so that they differ only by
 * the move, and the position reached is judged by a race model (each side's
 * turns still needed: pips with bearing-off wastage, or the men left two a
 * turn, whichever is more, with blocking; their difference with the tempo
 * of the side on roll turned into a chance to win through a normal table
 * whose spread grows with the race's length). After 8, 16, 32, ... rounds
 * the worse half is dropped; the move is the one with the best mean, and
 * that mean is the estimate. Work is counted in positions scored
 * (ctx->budget, ctx->spent); a round the budget or ctx->stop cuts short is
 * dropped whole, so a given rng and budget always give the same move. All
 * arithmetic that decides is integer (the wasm module must choose bit for
 * bit as the native code). No tree: the scratch is thread-local (bots.h),
 * about 40 KiB, and ctx->arena is not needed. Nothing is allocated.
 */
#include <errno.h>
#include <limits.h>
#include <string.h>

#include "bots.h"
#include "laquet_bots.h"

#define ONE          65536   /* a chance of 1 in the fixed-point values */
#define MAX_CAND     512     /* more than the 481 actions Laquet can list */
#define DEFAULT_WORK 100000u /* positions scored a move: about 9 ms of one core (README) */
#define POLL_EVERY   512u    /* positions scored between two polls of ctx->stop */
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
static BOT_THREAD_LOCAL int32_t cand_value[MAX_CAND];
static BOT_THREAD_LOCAL int16_t cand_order[MAX_CAND];
static BOT_THREAD_LOCAL long cand_greedy[MAX_CAND];
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

#define SHUT_COST    1  /* sixteenths of a turn per man and squared shut landing */
#define BLOCK_CREDIT 16 /* sixteenths of a turn per point held just ahead of opponent men */

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
			cost += SHUT_COST * own[r] * shut * shut;
		}
		for (int back = r - 6 > 1 ? r - 6 : 1; back < r; back++)
			near |= opp[back] != 0;
		cost -= BLOCK_CREDIT * near;
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

/* Counts one position scored; true when the budget or the stop callback ends the search. */
static bool leaf_count(struct search *sr)
{
	sr->spent++;
	if (sr->spent >= sr->budget)
		sr->cut = true;
	else if (sr->ctx->stop && sr->spent % POLL_EVERY == 0 && sr->ctx->stop(sr->ctx->stop_arg))
		sr->cut = true;
	return sr->cut;
}

/* Scores the position in `m` for s->seat (0..ONE) and counts the work. */
static int32_t leaf(struct search *sr, const struct rules_match *m)
{
	const struct laquet_state *s = &m->s.laquet;

	(void)leaf_count(sr);
	if (s->over)
		return s->winner == sr->seat ? ONE : 0;
	return race_chance(s, sr->seat);
}

/* With doubles, a plan whose first step uses die 1 repeats one that uses die 0. */
static bool twin_action(const struct laquet_state *s, const struct rules_action *a)
{
	if (a->kind == LAQUET_ACT_PLAN)
		return s->dice[0] == s->dice[1] && a->arg[2] == 1;
	return a->kind == LAQUET_ACT_BONUS && s->nhanded == 2 && s->handed[0] == s->handed[1] &&
	       a->arg[0] >= 1 && a->arg[2] == 1;
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
 * Plays each legal action of the seat on a copy, one per distinct resulting
 * position (the others get value -1 and go last), scores it by greedy's
 * score (the order) and the race model (the estimate when no round is
 * played), and sorts cand_order by greedy's score, best first. Returns the
 * number of legal actions.
 */
static int candidates(struct search *sr, const struct rules_match *m)
{
	int n = rules_legal_actions(m, sr->seat, cand_buf, MAX_CAND);

	if (n > MAX_CAND)
		n = MAX_CAND;
	memset(seen_hash, 0, sizeof(seen_hash));
	for (int i = 0; i < n; i++) {
		struct rules_match copy;
		union rules_outcome o;

		cand_value[i] = -1;
		cand_order[i] = (int16_t)i;
		cand_greedy[i] = LONG_MIN;
		memcpy(&copy, m, sizeof(copy));
		if (rules_apply(&copy, sr->seat, &cand_buf[i], &o) != 0 ||
		    seen_before(state_hash(&copy.s.laquet)))
			continue;
		cand_value[i] = leaf(sr, &copy);
		cand_greedy[i] = laquet_greedy_score(&copy, sr->seat, &o);
	}
	/* Insertion sort, stable: the best first, ties in legal order. */
	for (int i = 1; i < n; i++) {
		int16_t x = cand_order[i];
		int j = i;

		for (; j > 0 && cand_greedy[cand_order[j - 1]] < cand_greedy[x]; j--)
			cand_order[j] = cand_order[j - 1];
		cand_order[j] = x;
	}
	return n;
}

#define LQ_K       8  /* candidates rolled out at first */
#define LQ_H       10 /* turns a rollout plays before the race model judges */
#define ONE_ROUNDS 8  /* rounds for a lone candidate (a roll, a forced plan): the estimate */
static BOT_THREAD_LOCAL struct rules_action roll_buf[MAX_CAND];
static BOT_THREAD_LOCAL int16_t slot_cand[LQ_K];  /* the candidates still rolled out */
static BOT_THREAD_LOCAL uint64_t slot_wins[LQ_K]; /* their values so far, summed (ONE a win) */

/*
 * Plays the match in `m` on, both seats by the greedy score, with m's dice,
 * for LQ_H turns or to its end; returns the value for s->seat then (ONE
 * for a win, else the race model's chance), or -1 when the budget or the
 * stop callback cut it short.
 */
static int32_t rollout(struct search *sr, struct rules_match *m)
{
	struct laquet_state *s = &m->s.laquet;
	int turns = 0;

	for (int ply = 0; ply < 4000 && !s->over; ply++) {
		int who = s->turn, n, best = 0;
		long best_v = LONG_MIN;

		if (s->phase == LAQUET_PHASE_ROLL && turns++ >= LQ_H)
			return leaf(sr, m);
		n = rules_legal_actions(m, who, roll_buf, MAX_CAND);
		if (n > MAX_CAND)
			n = MAX_CAND;
		for (int i = 0; i < n && n > 1; i++) {
			struct rules_match copy;
			union rules_outcome o;
			long v;

			if (twin_action(s, &roll_buf[i]))
				continue;
			memcpy(&copy, m, sizeof(copy));
			if (rules_apply(&copy, who, &roll_buf[i], &o) != 0)
				continue;
			v = copy.s.laquet.over ? LONG_MAX : laquet_greedy_score(&copy, who, &o);
			(void)leaf_count(sr);
			if (v > best_v) {
				best_v = v;
				best = i;
			}
		}
		if (sr->cut || rules_apply(m, who, &roll_buf[best], NULL) != 0)
			return -1;
	}
	return s->over ? (s->winner == sr->seat ? ONE : 0) : -1;
}

/* Fills `seed` from the bot's own stream: a round's dice. */
static void round_seed(struct search *sr, uint8_t seed[RULES_SEED_SIZE])
{
	for (int i = 0; i < RULES_SEED_SIZE; i += 8) {
		uint64_t x = bot_rng_next(&sr->ctx->rng);

		memcpy(seed + i, &x, 8);
	}
}

/* Sorts slots 0..k-1 by wins, most first (stable: ties keep the greedy order). */
static void slots_sort(int k)
{
	for (int i = 1; i < k; i++) {
		int16_t x = slot_cand[i];
		uint64_t w = slot_wins[i];
		int j = i;

		for (; j > 0 && slot_wins[j - 1] < w; j--) {
			slot_cand[j] = slot_cand[j - 1];
			slot_wins[j] = slot_wins[j - 1];
		}
		slot_cand[j] = x;
		slot_wins[j] = w;
	}
}

/*
 * Rollouts: rounds in which each candidate still in the race (at first the
 * LQ_K best in greedy order) is played out once with the same dice, the
 * round's own seed from the bot's stream, so that they differ only by the
 * move. After 8, 16, 32, ... rounds the half with fewer wins is dropped.
 * Runs until the budget is spent (a single candidate: ONE_ROUNDS rounds, for
 * the estimate); only whole rounds count. Returns the index of the action
 * with most wins, its chance in *value.
 */
static int roll_out(struct search *sr, const struct rules_match *m, int n, int32_t *value)
{
	int k = 0;
	uint32_t rounds = 0;

	while (k < n && k < LQ_K && cand_value[cand_order[k]] >= 0) {
		slot_cand[k] = cand_order[k];
		slot_wins[k] = 0;
		k++;
	}
	sr->cut = sr->spent >= sr->budget;
	while (!sr->cut && (k > 1 || rounds < ONE_ROUNDS)) {
		uint8_t seed[RULES_SEED_SIZE];
		int32_t won[LQ_K];

		round_seed(sr, seed);
		for (int j = 0; j < k && !sr->cut; j++) {
			struct rules_match copy;

			memcpy(&copy, m, sizeof(copy));
			rules_dice_init(&copy.dice, seed);
			if (rules_apply(&copy, sr->seat, &cand_buf[slot_cand[j]], NULL) != 0) {
				/* Cannot happen (each was applied before): greedy's choice. */
				*value = cand_value[cand_order[0]];
				return cand_order[0];
			}
			won[j] = rollout(sr, &copy);
		}
		if (sr->cut)
			break;
		for (int j = 0; j < k; j++)
			slot_wins[j] += won[j];
		rounds++;
		if (k > 2 && rounds >= 8 && !(rounds & (rounds - 1))) {
			slots_sort(k);
			k = (k + 1) / 2;
		}
	}
	if (!rounds) {
		*value = cand_value[cand_order[0]];
		return cand_order[0];
	}
	slots_sort(k);
	/* Half a win and half a loss more: a few rounds never say 0 or 1. */
	*value = (int32_t)((slot_wins[0] + ONE / 2) / ((uint64_t)rounds + 1));
	return slot_cand[0];
}

static int strong_choose(const struct rules_match *m, int seat, struct bot_ctx *ctx, struct rules_action *out)
{
	struct search sr = { .seat = seat, .ctx = ctx, .budget = ctx->budget ? ctx->budget : DEFAULT_WORK };
	int32_t v = ONE / 2;
	int n;

	if (!rules_seat_to_act(m, seat))
		return -ENOENT;
	n = candidates(&sr, m);
	if (n <= 0)
		return -ENOENT;
	*out = cand_buf[roll_out(&sr, m, n, &v)];
	ctx->has_estimate = true;
	ctx->estimate[seat] = (float)v / ONE;
	ctx->estimate[seat ^ 1] = 1.0f - ctx->estimate[seat];
	ctx->spent = sr.spent;
	return 0;
}

/* Laquet's strong level. */
const struct bot_strategy bot_laquet_strong = { "laquet", "strong", strong_choose };
