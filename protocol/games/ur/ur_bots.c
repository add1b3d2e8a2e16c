/*
 * ur_bots.c: the Royal Game of Ur's levels `greedy` and `strong`
 * (protocol/games/ur/README.md, "Bots"). Both score positions with one
 * evaluation: each side's progress in eighths of a square, less the expected
 * loss of its pieces that stand where an opponent piece can hit them with the
 * next throw (a piece 1, 4 or 5 squares behind on the same cell path, thrown
 * with probabilities 3/8, 1/8, 1/8), plus a tempo for the side to throw.
 * `greedy` tries every legal action on a copy and keeps the best score, ties
 * drawn from the rng. `strong` is an expectimax over the throws: a throw is
 * a chance node over its four values (0, 1, 4, 5 with weights 3, 3, 1, 1 of
 * 8; a 4 or 5 throws again, the rosette bonus is one more decision), its
 * leaves map the evaluation to a win chance through a logistic whose scale
 * grows with the squares left to travel, and it deepens one throw at a time
 * until its budget of nodes (actions and throws tried) runs out, playing the
 * last depth it finished. The search sets its copies' throws itself (all four
 * values, weighted), so it never samples dice at all: its choice depends on
 * the position and the budget only. Integer arithmetic throughout (the same
 * choice natively and in wasm32); nothing allocated, no tables, so the
 * arena is unused; scratch on the stack (a few KiB at the deepest).
 */
#include <errno.h>
#include <string.h>

#include "bots.h"

#define UR_LEGAL_MAX  16        /* enter + 7 moves + bear off, with room to spare */
#define P_ONE         (1 << 20) /* a certain win for seat 0, in the search's fixed point */
#define STRONG_BUDGET 200000    /* nodes per move by default: see README.md, "Bots" */
#define STRONG_DEPTH  16        /* throws ahead at most */
#define POLL_NODES    1024      /* nodes between two calls of ctx->stop */

/* The logistic 65536 / (1 + e^-(i - 128) / 16), i = 0..256 (generated once; no libm here). */
static const uint16_t logistic[257] = {
	22,    23,    25,    27,    28,    30,    32,    34,    36,    39,    41,    44,    47,    50,
	53,    56,    60,    64,    68,    72,    77,    82,    87,    92,    98,    105,   111,   119,
	126,   134,   143,   152,   162,   172,   184,   195,   208,   221,   236,   251,   267,   284,
	302,   321,   342,   364,   387,   412,   439,   467,   497,   528,   562,   598,   636,   677,
	720,   766,   815,   867,   922,   980,   1042,  1109,  1179,  1253,  1333,  1417,  1506,  1601,
	1701,  1808,  1921,  2041,  2168,  2303,  2446,  2598,  2758,  2928,  3108,  3298,  3500,  3713,
	3938,  4176,  4427,  4692,  4971,  5266,  5577,  5904,  6249,  6611,  6992,  7392,  7812,  8252,
	8714,  9197,  9702,  10230, 10782, 11357, 11955, 12579, 13226, 13898, 14595, 15316, 16062, 16832,
	17625, 18442, 19282, 20143, 21025, 21928, 22849, 23788, 24743, 25712, 26695, 27689, 28693, 29705,
	30723, 31744, 32768, 33792, 34813, 35831, 36843, 37847, 38841, 39824, 40793, 41748, 42687, 43608,
	44511, 45393, 46254, 47094, 47911, 48704, 49474, 50220, 50941, 51638, 52310, 52957, 53581, 54179,
	54754, 55306, 55834, 56339, 56822, 57284, 57724, 58144, 58544, 58925, 59287, 59632, 59959, 60270,
	60565, 60844, 61109, 61360, 61598, 61823, 62036, 62238, 62428, 62608, 62778, 62938, 63090, 63233,
	63368, 63495, 63615, 63728, 63835, 63935, 64030, 64119, 64203, 64283, 64357, 64427, 64494, 64556,
	64614, 64669, 64721, 64770, 64816, 64859, 64900, 64938, 64974, 65008, 65039, 65069, 65097, 65124,
	65149, 65172, 65194, 65215, 65234, 65252, 65269, 65285, 65300, 65315, 65328, 65341, 65352, 65364,
	65374, 65384, 65393, 65402, 65410, 65417, 65425, 65431, 65438, 65444, 65449, 65454, 65459, 65464,
	65468, 65472, 65476, 65480, 65483, 65486, 65489, 65492, 65495, 65497, 65500, 65502, 65504, 65506,
	65508, 65509, 65511, 65513, 65514
};

/* Weight of each throw value in eighths: 0 and 1 three times in eight, 4 and 5 once. */
static const uint8_t throw_weight[6] = { 3, 3, 0, 0, 1, 1 };
static const uint8_t throw_values[4] = { 0, 1, 4, 5 };

/*
 * Squares where a piece can be hit: the cells both colours travel in the
 * same direction that are not safe (M2, M3, M5, M6, M7 going up; M8, M7, M6,
 * M5, M3, M2 going down). Both colours number these cells alike, so an
 * opponent piece on ITS square sq - d hits a piece on square sq with a d.
 */
static bool square_exposed(int sq)
{
	switch (sq) {
	case 6:
	case 7:
	case 9:
	case 10:
	case 11:
	case 14:
	case 17:
	case 18:
	case 19:
	case 21:
	case 22:
		return true;
	default:
		return false;
	}
}

/* The evaluation's weights, in eighths of a square (README.md, "Bots": how they were chosen). */
struct weights {
	int entry;   /* a piece on the board over one at home: entering costs a 1 or a 5 */
	int center;  /* on the central rosette (square 8): safe, and in the opponent's way */
	int exit;    /* on the exit square 23, which only a 4 leaves */
	int off;     /* borne off, over the 24 squares travelled */
	int hit;     /* a hit piece's loss over its progress: the throws to enter it again */
	int tempo;   /* the side about to throw */
	int exposed; /* eighths of the loss counted for the side about to throw (it moves first) */
	int rosette; /* on a rosette: safe, and a landing there entered one more piece */
};

#ifdef UR_TUNE
struct weights W = { 0, 8, 32, 0, 32, 16, 4, 0 }; /* a tuning harness sets these */
#else
static const struct weights W = { 0, 8, 32, 0, 32, 16, 4, 0 };
#endif

/* What a piece on route index p is worth. */
static int piece_value(int p)
{
	return p == UR_HOME ? 0
			    : 8 * p + W.entry + (p == 8 ? W.center : 0) + (p == UR_EXIT ? W.exit : 0) +
				      (p == UR_OFF ? W.off : 0) +
				      (p == 4 || p == 8 || p == 12 || p == 16 || p == 20 ? W.rosette : 0);
}

/* Eighths of a chance that the opponent's next throw can hit a piece on square sq of `seat`. */
static int hit_chance(const struct ur_state *s, int seat, int sq)
{
	const uint8_t *opp = s->pos[seat ^ 1];
	bool at[UR_OFF + 1] = { false };
	int c = 0;

	if (!square_exposed(sq))
		return 0;
	for (int i = 0; i < UR_PIECES; i++)
		at[opp[i]] = true;
	c += sq - 1 >= 1 && at[sq - 1] ? 3 : 0;
	c += sq - 4 >= 1 && at[sq - 4] ? 1 : 0;
	c += sq - 5 >= 1 && at[sq - 5] ? 1 : 0;
	return c;
}

/* `seat`'s side of the evaluation: progress less expected losses (`half`: only half of them). */
static int side_score(const struct ur_state *s, int seat, bool half)
{
	int v = 0;

	for (int i = 0; i < UR_PIECES; i++) {
		int p = s->pos[seat][i], loss = hit_chance(s, seat, p) * (piece_value(p) + W.hit);

		v += piece_value(p) - (half ? loss * W.exposed / 64 : loss / 8);
	}
	return v;
}

/*
 * The evaluation for seat 0, in eighths of a square: seat 0's score less
 * seat 1's, plus a tempo of two squares for the side about to throw (whose
 * own exposed pieces count half: it moves before the opponent can hit).
 */
static int evaluate(const struct ur_state *s)
{
	int tempo = s->turn == 0 ? W.tempo : -W.tempo;

	return side_score(s, 0, s->turn == 0) - side_score(s, 1, s->turn == 1) + tempo;
}

/* The integer square root of x (x >= 0). */
static int isqrt(int x)
{
	int r = 0;

	while ((r + 1) * (r + 1) <= x)
		r++;
	return r;
}

/*
 * Seat 0's chance to win in 1/P_ONE: the logistic of the evaluation over a
 * scale that grows with the squares both sides still have to travel (a lead
 * means more near the end). Scale: 0.6 sqrt(left) squares, at least 2.
 */
static int32_t leaf_chance(const struct ur_state *s)
{
	int left = 0, scale, idx, frac, x;

	for (int i = 0; i < UR_PIECES; i++)
		left += (UR_OFF - s->pos[0][i]) + (UR_OFF - s->pos[1][i]);
	scale = 6 * isqrt(left * 100) / 10; /* tenths of a square */
	if (scale < 20)
		scale = 20;
	/* position in the table, in 1/256 steps: 128 + 16 * eval / (8 * scale / 10) = 128 + 20 * eval / scale
	 */
	x = 128 * 256 + 20 * 256 * evaluate(s) / scale;
	x = x < 0 ? 0 : x >= 256 * 256 ? 256 * 256 - 1 : x;
	idx = x / 256;
	frac = x % 256;
	return (int32_t)logistic[idx] * 16 + ((int32_t)logistic[idx + 1] - logistic[idx]) * frac / 16;
}

/* Gives the copy `m` (waiting for a throw) the throw `v`, as act_roll would (ur.c): lost if unusable. */
static void throw_set(struct rules_match *m, int v)
{
	static const uint8_t dice[6][UR_DICE] = { { 1, 0, 0 }, { 1, 1, 0 }, { 0 },
						  { 0 },       { 0, 0, 0 }, { 1, 1, 1 } };
	struct ur_state *s = &m->s.ur;
	struct rules_action tmp[UR_LEGAL_MAX];

	memcpy(s->dice, dice[v], sizeof(s->dice));
	s->value = (uint8_t)v;
	s->has_throw = 1;
	s->again = v >= 4;
	s->phase = UR_PHASE_MOVE;
	m->ply++;
	if (rules_legal_actions(m, s->turn, tmp, UR_LEGAL_MAX) == 0) {
		s->phase = UR_PHASE_ROLL;
		if (!s->again)
			s->turn ^= 1;
	}
}

/* One move's search: its node count, limit and the caller's stop. */
struct search {
	uint32_t nodes, limit;
	bool (*stop)(void *arg);
	void *stop_arg;
	bool aborted; /* out of budget or stopped: the depth under way is dropped */
};

/* Counts a node; false (and aborted) once the budget is spent or the caller says stop. */
static bool search_tick(struct search *sr)
{
	if (sr->aborted)
		return false;
	sr->nodes++;
	if (sr->nodes >= sr->limit || (sr->stop && sr->nodes % POLL_NODES == 0 && sr->stop(sr->stop_arg)))
		sr->aborted = true;
	return !sr->aborted;
}

static int32_t node_value(const struct rules_match *m, int depth, struct search *sr);

/* A throw: the four values, weighted, each searched `depth - 1` throws further. */
static int32_t throw_value(const struct rules_match *m, int depth, struct search *sr)
{
	int64_t sum = 0;

	for (int i = 0; i < 4; i++) {
		struct rules_match c;
		int v = throw_values[i];

		if (!search_tick(sr))
			return 0;
		memcpy(&c, m, sizeof(c));
		throw_set(&c, v);
		sum += (int64_t)throw_weight[v] * node_value(&c, depth - 1, sr);
	}
	return (int32_t)(sum / 8);
}

/*
 * Seat 0's chance to win at `m` (1/P_ONE) with `depth` throws left to look
 * at: a decision takes the best action for the seat to act, a throw is a
 * chance node, and a position waiting for a throw with no depth left is a
 * leaf. 0 once sr is aborted (the caller drops the depth).
 */
static int32_t node_value(const struct rules_match *m, int depth, struct search *sr)
{
	const struct ur_state *s = &m->s.ur;
	struct rules_action acts[UR_LEGAL_MAX];
	int32_t best;
	int n;

	if (s->over)
		return s->winner == 0 ? P_ONE : 0;
	if (s->phase == UR_PHASE_ROLL)
		return depth == 0 ? leaf_chance(s) : throw_value(m, depth, sr);
	n = rules_legal_actions(m, s->turn, acts, UR_LEGAL_MAX);
	best = s->turn == 0 ? -1 : P_ONE + 1;
	for (int i = 0; i < n; i++) {
		struct rules_match c;
		int32_t v;

		if (!search_tick(sr))
			return 0;
		memcpy(&c, m, sizeof(c));
		if (rules_apply(&c, s->turn, &acts[i], NULL) != 0)
			continue;
		v = node_value(&c, depth, sr);
		if (s->turn == 0 ? v > best : v < best)
			best = v;
	}
	return best;
}

/* Writes seat 0's chance p (1/P_ONE) into ctx's estimate for both seats. */
static void estimate_set(struct bot_ctx *ctx, int32_t p)
{
	p = p < 0 ? 0 : p > P_ONE ? P_ONE : p;
	ctx->estimate[0] = (float)p / (float)P_ONE;
	ctx->estimate[1] = 1.0f - ctx->estimate[0];
	ctx->has_estimate = true;
}

/*
 * Searches the root's actions one throw deeper each round until the budget
 * runs out or the caller stops it; the last finished round names the action
 * (round 0, the evaluation right after each action, always finishes). Seat
 * `seat`'s best index, with seat 0's chance under it in *value.
 */
static int root_search(const struct rules_match *m, int seat, const struct rules_action *acts, int n,
		       struct search *sr, int32_t *value)
{
	uint32_t limit = sr->limit;
	bool (*stop)(void *arg) = sr->stop;
	int best = 0;

	for (int depth = 0; depth <= STRONG_DEPTH; depth++) {
		int round_best = -1;
		int32_t round_value = 0;
		uint32_t before = sr->nodes;

		sr->limit = depth == 0 ? UINT32_MAX : limit; /* round 0 is a few nodes and always finishes */
		sr->stop = depth == 0 ? NULL : stop;

		for (int i = 0; i < n && !sr->aborted; i++) {
			struct rules_match c;
			int32_t v;

			memcpy(&c, m, sizeof(c));
			if (rules_apply(&c, seat, &acts[i], NULL) != 0)
				continue;
			sr->nodes++;
			v = node_value(&c, depth, sr);
			if (!sr->aborted &&
			    (round_best < 0 || (seat == 0 ? v >= round_value : v <= round_value))) {
				round_best = i;
				round_value = v;
			}
		}
		if (sr->aborted || round_best < 0)
			break;
		best = round_best;
		*value = round_value;
		if (sr->nodes ==
		    before + (uint32_t)n) /* nothing below the root's actions: deeper changes nothing */
			break;
	}
	return best;
}

static int strong_choose(const struct rules_match *m, int seat, struct bot_ctx *ctx, struct rules_action *out)
{
	struct rules_action acts[UR_LEGAL_MAX];
	struct search sr = { .limit = ctx->budget ? ctx->budget : STRONG_BUDGET,
			     .stop = ctx->stop,
			     .stop_arg = ctx->stop_arg };
	int n = rules_legal_actions(m, seat, acts, UR_LEGAL_MAX), best = 0;
	int32_t value = leaf_chance(&m->s.ur);

	if (n <= 0)
		return -ENOENT;
	if (n > 1) {
		best = root_search(m, seat, acts, n, &sr, &value);
	} else { /* nothing to choose: the estimate only, looking one throw ahead at most */
		struct search quick = { .limit = sr.limit < 64 ? sr.limit : 64 };
		int32_t v = node_value(m, m->s.ur.phase == UR_PHASE_ROLL, &quick);

		value = quick.aborted ? value : v;
		sr.nodes = quick.nodes;
	}
	*out = acts[best];
	estimate_set(ctx, value);
	ctx->spent = sr.nodes;
	return 0;
}

static int greedy_choose(const struct rules_match *m, int seat, struct bot_ctx *ctx, struct rules_action *out)
{
	struct rules_action acts[UR_LEGAL_MAX];
	int n = rules_legal_actions(m, seat, acts, UR_LEGAL_MAX), best[UR_LEGAL_MAX], nbest = 0;
	int best_score = 0;

	if (n <= 0)
		return -ENOENT;
	for (int i = 0; i < n; i++) {
		struct rules_match c;
		int v;

		memcpy(&c, m, sizeof(c));
		if (rules_apply(&c, seat, &acts[i], NULL) != 0)
			continue;
		v = c.s.ur.over ? (c.s.ur.winner == seat ? 1 << 20 : -(1 << 20))
				: (seat == 0 ? evaluate(&c.s.ur) : -evaluate(&c.s.ur));
		if (nbest == 0 || v > best_score) {
			nbest = 0;
			best_score = v;
		}
		if (v == best_score)
			best[nbest++] = i;
	}
	if (nbest == 0)
		return -ENOENT;
	*out = acts[best[nbest > 1 ? bot_rng_next(&ctx->rng) % (uint64_t)nbest : 0]];
	return 0;
}

/* Ur's greedy level: the best position one action ahead by the evaluation, ties at random. */
const struct bot_strategy bot_ur_greedy = { "ur", "greedy", greedy_choose };

/* Ur's strong level: expectimax over the throws within a budget of nodes. */
const struct bot_strategy bot_ur_strong = { "ur", "strong", strong_choose };

static const struct bot_strategy *const levels[] = { &bot_ur_greedy, &bot_ur_strong, NULL };

/* Ur's bots (bots.h): `greedy` and `strong`; a seat out of time forfeits. */
const struct bot_game bot_game_ur = { .game = "ur", .levels = levels };
