/*
 * super15_search.c: the `strong` level of Super 1 al 5, an alpha-beta
 * (negamax, principal variation) search with iterative deepening over the
 * rules core: moves ordered by the transposition table's move, then captures
 * (most valuable victim, least valuable attacker), two killers per ply and a
 * history table; a quiescence search on captures at the horizon; a
 * transposition table keyed by Zobrist keys (a fixed mixing function of each
 * piece's id, square, points and Super flag, the seat to move and the quiet
 * count). The evaluation counts what ends a match: the points on the board
 * (the adjudication's count, README D6), the pieces' values (what they can
 * still capture, what the opponent gains by taking them), Supers, and the
 * danger of being left with one piece.
 * The budget is in nodes (positions reached by one move, quiescence
 * included); the same position, rng and budget give the same move on every
 * platform (integer scores; the rng breaks ties among the root moves only,
 * by the order it shuffles them in). The table lives in ctx->arena when
 * there is one, else in fixed thread-local scratch; its size follows the
 * budget, so a search does not depend on which of the two it got unless
 * the budget exceeds the scratch (README "Bots").
 * Must not: allocate, read anything but the match, keep anything from one
 * call to the next (every table is reset per move).
 */
#include <errno.h>
#include <stddef.h>
#include <string.h>

#include "bots.h"

#define DEFAULT_BUDGET 30000 /* nodes per move at budget 0 (README "Bots": ~100 ms p99) */
#define MAX_PLY        64    /* main search plus quiescence */
#define MAX_DEPTH      40    /* iterative deepening stops here (a won or lost match is found earlier) */
#define QS_PLIES       8     /* captures followed beyond the horizon */
#define MOVES_MAX      704   /* a seat has at most 16 x 40 moves (super15.c); room to spare */
#define STOP_POLL      255   /* ctx->stop is asked every 256 nodes (a few hundred microseconds) */

#define WIN       1000000 /* a won match, less the plies to it */
#define WIN_BOUND (WIN - 1000)

/* The evaluation's weights, in hundredths of a point. */
#define W_VALUE     120 /* a piece's value on the board */
#define W_POINTS    100 /* a point on the board (adjudication's count) */
#define W_SUPER     250 /* a Super (moves along whole lines, sweeps) */
#define W_FEW       300 /* each piece short of four: one piece left loses */
#define W_ADVANCE   4   /* an ordinary piece per rank towards the enemy: contact, not shuffling */
#define EST_SCALE   300 /* the estimate: a lead of this much is e:1 odds */
#define TT_SCRATCH  (1u << 14)
#define TT_MIN      (1u << 8)
#define HISTORY_MAX (1 << 20)

enum tt_flag { TT_EXACT = 1, TT_LOWER, TT_UPPER };

struct tt_entry {
	uint64_t key;
	int32_t score;
	uint16_t move; /* from << 8 | to, 0: none */
	int8_t depth;
	uint8_t flag; /* enum tt_flag; 0: empty */
};

struct search {
	struct bot_ctx *ctx;
	uint32_t budget, nodes;
	bool stopped;
	struct tt_entry *tt;
	uint32_t tt_mask;
};

/* Thread-local scratch (bots.h): the positions along the line searched, move lists, ordering tables. */
static BOT_THREAD_LOCAL struct rules_match line[MAX_PLY + 1];
static BOT_THREAD_LOCAL struct rules_action legal[RULES_MAX_LEGAL];
static BOT_THREAD_LOCAL uint16_t moves[MAX_PLY][MOVES_MAX];
static BOT_THREAD_LOCAL int32_t keys[MAX_PLY][MOVES_MAX];
static BOT_THREAD_LOCAL uint16_t killers[MAX_PLY][2];
static BOT_THREAD_LOCAL int32_t history[SUPER15_SQUARES][SUPER15_SQUARES];
static BOT_THREAD_LOCAL struct tt_entry tt_scratch[TT_SCRATCH];

/* splitmix64's finaliser: the Zobrist key of a number (a fixed table in closed form). */
static uint64_t mix(uint64_t x)
{
	x += 0x9e3779b97f4a7c15ull;
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
	return x ^ (x >> 31);
}

static uint64_t position_key(const struct super15_state *s)
{
	uint64_t k = mix((uint64_t)s->turn << 8 | s->quiet);

	for (int id = 0; id < SUPER15_PIECES; id++) {
		const struct super15_piece *p = &s->pieces[id];

		if (p->square != SUPER15_NONE)
			k ^= mix(0x10000u + ((uint64_t)id << 16 | (uint64_t)p->square << 8 | p->points) * 2u +
				 p->super);
	}
	return k;
}

/* One seat's worth on the board (see the weights). */
static int side_worth(const struct super15_state *s, int seat)
{
	int worth = 0, n = s->count[seat];

	for (int id = seat * SUPER15_SIDE; id < (seat + 1) * SUPER15_SIDE; id++) {
		const struct super15_piece *p = &s->pieces[id];
		int rank;

		if (p->square == SUPER15_NONE)
			continue;
		worth += W_VALUE * p->value + W_POINTS * p->points;
		if (p->super) {
			worth += W_SUPER;
			continue;
		}
		rank = p->square / SUPER15_FILES;
		worth += W_ADVANCE * (seat == 0 ? rank : SUPER15_RANKS - 1 - rank);
	}
	if (n < 4)
		worth -= W_FEW * (4 - n);
	return worth;
}

/* The position's worth to the seat to move. */
static int evaluate(const struct super15_state *s)
{
	return side_worth(s, s->turn) - side_worth(s, s->turn ^ 1);
}

/* A finished match's score for the seat that would move next, `ply` plies from the root. */
static int terminal(const struct super15_state *s, int ply)
{
	if (s->draw)
		return 0;
	return s->winner == s->turn ? WIN - ply : -(WIN - ply);
}

/* Whether the search must stop: its budget spent, or the caller's clock. */
static bool out_of_time(struct search *sr)
{
	if (sr->stopped)
		return true;
	if (sr->nodes >= sr->budget ||
	    ((sr->nodes & STOP_POLL) == 0 && sr->ctx->stop && sr->ctx->stop(sr->ctx->stop_arg)))
		sr->stopped = true;
	return sr->stopped;
}

/* Plays `mv` in line[ply] into line[ply + 1]; false if the rules refuse it (they never should). */
static bool make(struct search *sr, int ply, uint16_t mv)
{
	const struct rules_match *m = &line[ply];
	struct rules_match *next = &line[ply + 1];
	struct rules_action a;

	memset(&a, 0, sizeof(a));
	a.kind = SUPER15_ACT_MOVE;
	a.arg[0] = (int16_t)(mv >> 8);
	a.arg[1] = (int16_t)(mv & 0xff);
	memcpy(&next->s.super15, &m->s.super15, sizeof(next->s.super15));
	next->ply = m->ply;
	sr->nodes++;
	return rules_apply(next, m->s.super15.turn, &a, NULL) == RULES_OK;
}

/*
 * The moves of line[ply] into moves[ply] with their ordering keys; only the
 * captures when `captures_only`. Returns how many.
 */
static int generate(int ply, uint16_t tt_move, bool captures_only)
{
	const struct super15_state *s = &line[ply].s.super15;
	int n = rules_legal_actions(&line[ply], s->turn, legal, RULES_MAX_LEGAL), k = 0;

	for (int i = 0; i < n && i < RULES_MAX_LEGAL && k < MOVES_MAX; i++) {
		int from = legal[i].arg[0], to = legal[i].arg[1], victim = s->board[to];
		uint16_t mv = (uint16_t)(from << 8 | to);
		int32_t key;

		if (captures_only && victim == SUPER15_NONE)
			continue;
		if (mv == tt_move)
			key = 1 << 30;
		else if (victim != SUPER15_NONE)
			key = (1 << 28) + (s->pieces[victim].value + s->pieces[victim].points) * 16 -
			      s->pieces[s->board[from]].value;
		else if (mv == killers[ply][0])
			key = (1 << 27) + 1;
		else if (mv == killers[ply][1])
			key = 1 << 27;
		else
			key = history[from][to];
		moves[ply][k] = mv;
		keys[ply][k++] = key;
	}
	return k;
}

/* Brings the best-keyed of moves[ply][i..n) to i (the first found among equals) and returns it. */
static uint16_t pick(int ply, int i, int n)
{
	int best = i;

	for (int j = i + 1; j < n; j++)
		if (keys[ply][j] > keys[ply][best])
			best = j;
	if (best != i) {
		uint16_t mv = moves[ply][best];
		int32_t key = keys[ply][best];

		moves[ply][best] = moves[ply][i], keys[ply][best] = keys[ply][i];
		moves[ply][i] = mv, keys[ply][i] = key;
	}
	return moves[ply][i];
}

/* Captures only, from the stand-pat evaluation (the side to move may decline every capture). */
static int quiesce(struct search *sr, int ply, int qply, int alpha, int beta)
{
	const struct super15_state *s = &line[ply].s.super15;
	int best, n;

	if (s->over)
		return terminal(s, ply);
	best = evaluate(s);
	if (best >= beta || qply >= QS_PLIES || ply >= MAX_PLY - 1)
		return best;
	if (best > alpha)
		alpha = best;
	n = generate(ply, 0, true);
	for (int i = 0; i < n; i++) {
		uint16_t mv = pick(ply, i, n);
		int score;

		if (out_of_time(sr) || !make(sr, ply, mv))
			return best;
		score = -quiesce(sr, ply + 1, qply + 1, -beta, -alpha);
		if (score > best) {
			best = score;
			if (score > alpha)
				alpha = score;
			if (score >= beta)
				break;
		}
	}
	return best;
}

/* A won or lost score is stored relative to the position, read back relative to the root. */
static int score_to_tt(int score, int ply)
{
	return score > WIN_BOUND ? score + ply : score < -WIN_BOUND ? score - ply : score;
}

static int score_from_tt(int score, int ply)
{
	return score > WIN_BOUND ? score - ply : score < -WIN_BOUND ? score + ply : score;
}

static void tt_store(struct search *sr, uint64_t key, int ply, int depth, int score, int flag, uint16_t mv)
{
	struct tt_entry *e = &sr->tt[key & sr->tt_mask];

	if (e->flag && e->key != key && e->depth > depth)
		return; /* keep the deeper result of another position */
	e->key = key;
	e->score = score_to_tt(score, ply);
	e->move = mv;
	e->depth = (int8_t)depth;
	e->flag = (uint8_t)flag;
}

/* A quiet move that cut off: a killer at its ply, and history for its squares. */
static void reward(int ply, uint16_t mv, int depth)
{
	int32_t *h = &history[mv >> 8][mv & 0xff];

	if (killers[ply][0] != mv) {
		killers[ply][1] = killers[ply][0];
		killers[ply][0] = mv;
	}
	*h += depth * depth;
	if (*h > HISTORY_MAX)
		for (int i = 0; i < SUPER15_SQUARES; i++)
			for (int j = 0; j < SUPER15_SQUARES; j++)
				history[i][j] /= 2;
}

/* Negamax with alpha-beta (fail-soft, principal variation): the score of line[ply] for the seat to move. */
static int negamax(struct search *sr, int ply, int depth, int alpha, int beta)
{
	const struct super15_state *s = &line[ply].s.super15;
	int alpha0 = alpha, best = -WIN - 1, n;
	uint64_t key;
	struct tt_entry *e;
	uint16_t tt_move = 0, best_move = 0;

	if (s->over)
		return terminal(s, ply);
	if (depth <= 0 || ply >= MAX_PLY - QS_PLIES - 1)
		return quiesce(sr, ply, 0, alpha, beta);
	key = position_key(s);
	e = &sr->tt[key & sr->tt_mask];
	if (e->flag && e->key == key) {
		int score = score_from_tt(e->score, ply);

		tt_move = e->move;
		if (e->depth >= depth && (e->flag == TT_EXACT || (e->flag == TT_LOWER && score >= beta) ||
					  (e->flag == TT_UPPER && score <= alpha)))
			return score;
	}
	n = generate(ply, tt_move, false);
	for (int i = 0; i < n; i++) {
		uint16_t mv = pick(ply, i, n);
		int score;

		if (out_of_time(sr) || !make(sr, ply, mv))
			return best > -WIN - 1 ? best : evaluate(s);
		if (i == 0) {
			score = -negamax(sr, ply + 1, depth - 1, -beta, -alpha);
		} else {
			score = -negamax(sr, ply + 1, depth - 1, -alpha - 1, -alpha);
			if (score > alpha && score < beta && !sr->stopped)
				score = -negamax(sr, ply + 1, depth - 1, -beta, -alpha);
		}
		if (sr->stopped)
			return best > -WIN - 1 ? best : score;
		if (score > best) {
			best = score, best_move = mv;
			if (score > alpha)
				alpha = score;
			if (score >= beta) {
				if (s->board[mv & 0xff] == SUPER15_NONE)
					reward(ply, mv, depth);
				break;
			}
		}
	}
	if (n == 0)
		return evaluate(s); /* cannot happen: the rules end a match whose seat has no move */
	tt_store(sr, key, ply, depth, best,
		 best <= alpha0 ? TT_UPPER
		 : best >= beta ? TT_LOWER
				: TT_EXACT,
		 best_move);
	return best;
}

/* The table for this move: in the arena if it has room, else the scratch; sized to the budget. */
static void tt_init(struct search *sr)
{
	uint32_t want = TT_MIN, cap = TT_SCRATCH;
	struct tt_entry *base = tt_scratch;

	if (sr->ctx->arena && sr->ctx->arena_size >= sizeof(struct tt_entry) * 2) {
		uintptr_t p = (uintptr_t)sr->ctx->arena, aligned = (p + 15) & ~(uintptr_t)15;
		size_t room = (sr->ctx->arena_size - (aligned - p)) / sizeof(struct tt_entry);

		if (room >= TT_SCRATCH) {
			base = (struct tt_entry *)aligned;
			for (cap = TT_SCRATCH; (size_t)cap * 2 <= room && cap < (1u << 30); cap *= 2)
				;
		}
	}
	while (want < cap && want < sr->budget)
		want *= 2;
	sr->tt = base;
	sr->tt_mask = want - 1;
	memset(base, 0, sizeof(*base) * want);
}

/* e^x for the estimate, without libm: x = k ln 2 + r, a Taylor series for e^r, then k doublings. */
static float exp_approx(float x)
{
	const float ln2 = 0.69314718f;
	float r, term = 1.0f, sum = 1.0f;
	int k;

	if (x > 60.0f)
		x = 60.0f;
	if (x < -60.0f)
		x = -60.0f;
	k = (int)(x / ln2 + (x < 0 ? -0.5f : 0.5f));
	r = x - (float)k * ln2;
	for (int i = 1; i <= 8; i++) {
		term = term * r / (float)i;
		sum += term;
	}
	for (; k > 0; k--)
		sum *= 2.0f;
	for (; k < 0; k++)
		sum *= 0.5f;
	return sum;
}

/* Each seat's chance from the root's score for `seat`: a logistic of the evaluation, a found end exactly. */
static void estimate(struct bot_ctx *ctx, int seat, int score)
{
	float p;

	if (score > WIN_BOUND)
		p = 1.0f;
	else if (score < -WIN_BOUND)
		p = 0.0f;
	else
		p = 1.0f / (1.0f + exp_approx(-(float)score / (float)EST_SCALE));
	ctx->estimate[seat] = p;
	ctx->estimate[seat ^ 1] = 1.0f - p;
	ctx->has_estimate = true;
}

/* The root's moves in the order the rng shuffles them, then by their keys (stable): ties go by the rng. */
static int root_moves(struct search *sr, uint16_t *root)
{
	int n = generate(0, 0, false);

	for (int i = n - 1; i > 0; i--) {
		int j = (int)(bot_rng_next(&sr->ctx->rng) % (uint64_t)(i + 1));
		uint16_t mv = moves[0][i];
		int32_t key = keys[0][i];

		moves[0][i] = moves[0][j], keys[0][i] = keys[0][j];
		moves[0][j] = mv, keys[0][j] = key;
	}
	for (int i = 1; i < n; i++) /* insertion sort: stable */
		for (int j = i; j > 0 && keys[0][j] > keys[0][j - 1]; j--) {
			uint16_t mv = moves[0][j];
			int32_t key = keys[0][j];

			moves[0][j] = moves[0][j - 1], keys[0][j] = keys[0][j - 1];
			moves[0][j - 1] = mv, keys[0][j - 1] = key;
		}
	memcpy(root, moves[0], (size_t)n * sizeof(*root));
	return n;
}

/* One iteration at the root: the best move's index into root[] and its score; false if stopped first. */
static bool root_search(struct search *sr, const uint16_t *root, int n, int depth, int *best_i,
			int *best_score)
{
	int alpha = -WIN - 1, beta = WIN + 1;
	bool any = false;

	for (int i = 0; i < n; i++) {
		int score;

		if (out_of_time(sr) || !make(sr, 0, root[i]))
			break;
		if (i == 0) {
			score = -negamax(sr, 1, depth - 1, -beta, -alpha);
		} else {
			score = -negamax(sr, 1, depth - 1, -alpha - 1, -alpha);
			if (score > alpha && !sr->stopped)
				score = -negamax(sr, 1, depth - 1, -beta, -alpha);
		}
		if (sr->stopped)
			break;
		if (!any || score > alpha) {
			alpha = score, *best_i = i, *best_score = score;
			any = true;
		}
	}
	return any;
}

static int strong_choose(const struct rules_match *m, int seat, struct bot_ctx *ctx, struct rules_action *out)
{
	static BOT_THREAD_LOCAL uint16_t root[MOVES_MAX];
	struct search sr = { .ctx = ctx, .budget = ctx->budget ? ctx->budget : DEFAULT_BUDGET };
	int n, best_score = 0;
	bool scored = false;

	if (m->s.super15.over || m->s.super15.turn != seat)
		return -ENOENT;
	memcpy(&line[0], m, sizeof(line[0]));
	for (int i = 1; i <= MAX_PLY; i++)
		memcpy(&line[i], m, offsetof(struct rules_match, s));
	memset(killers, 0, sizeof(killers));
	memset(history, 0, sizeof(history));
	tt_init(&sr);
	if ((n = root_moves(&sr, root)) <= 0)
		return -ENOENT;
	for (int depth = 1; depth <= MAX_DEPTH && !sr.stopped; depth++) {
		int i = 0, score = 0;

		if (!root_search(&sr, root, n, depth, &i, &score))
			break;
		best_score = score, scored = true;
		if (i > 0) { /* the best first, the others in their order */
			uint16_t mv = root[i];

			memmove(root + 1, root, (size_t)i * sizeof(*root));
			root[0] = mv;
		}
		if (best_score > WIN_BOUND || best_score < -WIN_BOUND)
			break; /* a forced end: deeper search cannot change it */
	}
	memset(out, 0, sizeof(*out));
	out->kind = SUPER15_ACT_MOVE;
	out->arg[0] = (int16_t)(root[0] >> 8);
	out->arg[1] = (int16_t)(root[0] & 0xff);
	if (scored)
		estimate(ctx, seat, best_score);
	else
		estimate(ctx, seat, evaluate(&m->s.super15));
	ctx->spent = sr.nodes;
	return 0;
}

/* Super 1 al 5's strong level. */
const struct bot_strategy bot_super15_strong = { "super15", "strong", strong_choose };
