/*
 * test_super15_ref.c: Super 1 al 5's legal list, outcomes and results against
 * the rules core as it was before issue 24, kept here as the reference: the
 * code of protocol/games/super15/super15.c at commit 4621c5e, copied below
 * with every name prefixed ref_ (REF_ for macros) and nothing else changed:
 * its legal list on 80-bit sets of squares (bit r * 8 + f), its has_move and
 * its apply. Issue 24 rewrote the generator for speed (sets with a ninth
 * file, moves written as two stores, the Supers' lines walked once) on the
 * condition that nothing a caller sees changes: the same legal lists in the
 * same ORDER (bots and replays depend on it), the same outcomes, the same
 * results. So this test plays random matches (several hundred thousand
 * plies) and random positions (Supers, odd piece counts, blocked seats)
 * through both and requires equal bytes: the list, the count under a small
 * cap, apply's answer to legal and random actions, the outcome, the result
 * and the state after every ply. The reference keeps a struct super15_state
 * of its own, whose sets[] hold its own layout; everything after sets[]
 * (pieces, board, counts, turn, quiet, the end) must equal the core's.
 */
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "rules.h"
#include "match_fixture.h"
#include "tap.h"

/* ---- the reference: protocol/games/super15/super15.c at 4621c5e, renamed ---- */

#define REF_FILE_OF(sq) ((sq)&7)
#define REF_RANK_OF(sq) ((sq) >> 3)
#define REF_SQ(f, r)    ((r)*SUPER15_FILES + (f))

/* The eight queen lines: square offsets, N NE E SE S SW W NW. */
static const int8_t ref_dir_step[8] = { 8, 9, 1, -7, -8, -9, -1, 7 };

/* D1: d5, e5, d6, e6. */
static const bool ref_forbidden[SUPER15_SQUARES] = {
	[REF_SQ(3, 4)] = true,
	[REF_SQ(4, 4)] = true,
	[REF_SQ(3, 5)] = true,
	[REF_SQ(4, 5)] = true,
};

static int ref_min2(int a, int b)
{
	return a < b ? a : b;
}

/* How many ref_squares lie beyond `sq` along each line before the edge. */
static void ref_lines_room(int sq, int room[8])
{
	int f = REF_FILE_OF(sq), r = REF_RANK_OF(sq), n = SUPER15_RANKS - 1 - r, e = SUPER15_FILES - 1 - f;

	room[0] = n, room[1] = ref_min2(e, n), room[2] = e, room[3] = ref_min2(e, r);
	room[4] = r, room[5] = ref_min2(f, r), room[6] = f, room[7] = ref_min2(f, n);
}

static int ref_seat_of(int id)
{
	return id >= SUPER15_SIDE;
}

/*
 * Bounds of the move lists: a piece has at most 40 ref_moves (a 5 in the open:
 * 8 lines x 5), a Super at most 30 (7 + 9 + two diagonals of 7); so a seat
 * has at most 16 x 40. A list buffer holds one entry more, because the
 * generator writes every candidate and then counts it or not (no branch on
 * the board's contents in the common case).
 */
#define REF_PIECE_MOVES 40
#define REF_SEAT_MOVES  (SUPER15_SIDE * REF_PIECE_MOVES)

/* Collects the ref_moves of one piece at a time into `out` (room for the bound + 1). */
struct ref_moves {
	struct rules_action *out;
	int n;
	struct rules_action tmpl; /* kind and arg[0] (from) set, the rest zero */
};

/* Writes a move to `to` at out[n]; keeps it (n + 1) only when `keep`. */
static void ref_move_put(struct ref_moves *mv, int to, bool keep)
{
	struct rules_action *a = &mv->out[mv->n];

	*a = mv->tmpl;
	a->arg[1] = (int16_t)to;
	mv->n += keep;
}

/* D3: 1..value ref_squares over empty ones, ending empty and allowed, or on an enemy. */
static void ref_ordinary_moves(const struct super15_state *s, int sq, int seat, int value,
			       struct ref_moves *mv)
{
	int room[8];

	ref_lines_room(sq, room);
	for (int d = 0; d < 8; d++) {
		int n = ref_min2(value, room[d]), t = sq;
		bool open = true; /* every square so far was empty */

		for (int step = 1; step <= n && open; step++) {
			int id;
			bool empty;

			t += ref_dir_step[d];
			id = s->board[t];
			empty = id == SUPER15_NONE;
			ref_move_put(mv, t, empty ? !ref_forbidden[t] : ref_seat_of(id) != seat);
			open = empty;
		}
	}
}

/* D5: per line up to the edge or the first own piece: the farthest enemy if any, else every allowed square.
 */
static void ref_super_moves(const struct super15_state *s, int sq, int seat, struct ref_moves *mv)
{
	int room[8];

	ref_lines_room(sq, room);
	for (int d = 0; d < 8; d++) {
		int t = sq, farthest = -1, first = mv->n;

		for (int step = 1; step <= room[d]; step++) {
			int id;

			t += ref_dir_step[d];
			id = s->board[t];
			if (id == SUPER15_NONE) {
				ref_move_put(mv, t, !ref_forbidden[t] && farthest < 0);
				continue;
			}
			if (ref_seat_of(id) == seat)
				break;
			farthest = t;
		}
		if (farthest >= 0) {
			mv->n = first; /* the line holds enemies: the free ref_moves are not allowed */
			ref_move_put(mv, farthest, true);
		}
	}
}

/* The ref_moves of piece `id` appended to mv (at most REF_PIECE_MOVES). */
static void ref_piece_moves(const struct super15_state *s, int id, struct ref_moves *mv)
{
	const struct super15_piece *p = &s->pieces[id];

	memset(&mv->tmpl, 0, sizeof(mv->tmpl));
	mv->tmpl.kind = SUPER15_ACT_MOVE;
	mv->tmpl.arg[0] = p->square;
	if (p->super)
		ref_super_moves(s, p->square, ref_seat_of(id), mv);
	else
		ref_ordinary_moves(s, p->square, ref_seat_of(id), p->value, mv);
}

/*
 * Sets of ref_squares, bit `sq` for square sq (80 bits), for the legal list: the
 * ordinary pieces of one value move together, one shift per line and step,
 * so the work follows the number of ref_moves rather than the pieces and lines
 * walked (the random-playout rate the benchmark asks for). apply and
 * ref_has_move walk one piece's lines (ref_piece_moves); tests/unit/test_super15.c
 * checks that the two agree on every from/to pair of many positions.
 */
__extension__ typedef unsigned __int128 ref_squares;

#define REF_SQUARES_LOW(x)  ((ref_squares)(x))
#define REF_SQUARES_HIGH(x) ((ref_squares)(x) << 64)
#define REF_ON_BOARD        (REF_SQUARES_HIGH(0xffffu) | REF_SQUARES_LOW(0xffffffffffffffffu))
#define REF_FILE_A          (REF_SQUARES_HIGH(0x0101u) | REF_SQUARES_LOW(0x0101010101010101u))
#define REF_FILE_H          (REF_FILE_A << 7)
#define REF_FORBIDDEN                                                                                       \
	((ref_squares)1 << REF_SQ(3, 4) | (ref_squares)1 << REF_SQ(4, 4) | (ref_squares)1 << REF_SQ(3, 5) | \
	 (ref_squares)1 << REF_SQ(4, 5))

/* The set `b` moved one square along line `d` (ref_dir_step order), what leaves the board dropped. */
static inline ref_squares ref_squares_shift(ref_squares b, int d)
{
	switch (d) {
	case 0:
		return (b << 8) & REF_ON_BOARD;
	case 1:
		return (b << 9) & REF_ON_BOARD & ~REF_FILE_A;
	case 2:
		return (b << 1) & REF_ON_BOARD & ~REF_FILE_A;
	case 3:
		return (b >> 7) & ~REF_FILE_A;
	case 4:
		return b >> 8;
	case 5:
		return (b >> 9) & ~REF_FILE_H;
	case 6:
		return (b >> 1) & ~REF_FILE_H;
	default:
		return (b << 7) & REF_ON_BOARD & ~REF_FILE_H;
	}
}

/* Appends a move from `to` - `back` to every square of `to`. */
static inline int ref_squares_push(ref_squares to, int back, struct rules_action *out, int n)
{
	for (uint64_t b = (uint64_t)to; b; b &= b - 1) {
		int sq = __builtin_ctzll(b);

		memset(&out[n], 0, sizeof(out[n]));
		out[n].kind = SUPER15_ACT_MOVE;
		out[n].arg[0] = (int16_t)(sq - back);
		out[n].arg[1] = (int16_t)sq;
		n++;
	}
	for (uint64_t b = (uint64_t)(to >> 64); b; b &= b - 1) {
		int sq = 64 + __builtin_ctzll(b);

		memset(&out[n], 0, sizeof(out[n]));
		out[n].kind = SUPER15_ACT_MOVE;
		out[n].arg[0] = (int16_t)(sq - back);
		out[n].arg[1] = (int16_t)sq;
		n++;
	}
	return n;
}

/* The sets a line search needs: where a move may end, and what it may pass over. */
struct ref_line_sets {
	ref_squares stop;  /* empty and allowed, or an enemy */
	ref_squares empty; /* empty, ref_forbidden ref_squares included */
};

/* The pieces of `g` (one value v) along line `d` (a constant once inlined), 1..v ref_squares. */
static inline int ref_line_moves(ref_squares g, int v, int d, const struct ref_line_sets *ls,
				 struct rules_action *out, int n)
{
	for (int k = 1; k <= v && g; k++) {
		g = ref_squares_shift(g, d);
		n = ref_squares_push(g & ls->stop, k * ref_dir_step[d], out, n);
		g &= ls->empty;
	}
	return n;
}

static ref_squares ref_group_get(const struct super15_state *s, int seat, int group)
{
	return (ref_squares)s->sets[seat][group][1] << 64 | s->sets[seat][group][0];
}

/* The group of a piece in sets[]: 0 for a Super, else its value. */
static int ref_group_of(const struct super15_piece *p)
{
	return p->super ? 0 : p->value;
}

/* Adds (on) or removes square `sq` to seat's `group`. */
static void ref_group_put(struct super15_state *s, int seat, int group, int sq, bool on)
{
	uint64_t bit = (uint64_t)1 << (sq & 63);
	uint64_t *half = &s->sets[seat][group][sq >> 6];

	*half = on ? *half | bit : *half & ~bit;
}

/* The sets of `seat`'s position; group[v] as in sets[] (0: the Supers). */
static void ref_line_sets_init(const struct super15_state *s, int seat, struct ref_line_sets *ls,
			       ref_squares group[6])
{
	ref_squares own = 0, enemy = 0;

	for (int v = 0; v < 6; v++) {
		group[v] = ref_group_get(s, seat, v);
		own |= group[v];
		enemy |= ref_group_get(s, seat ^ 1, v);
	}
	ls->empty = REF_ON_BOARD & ~(own | enemy);
	ls->stop = (ls->empty & ~REF_FORBIDDEN) | enemy;
}

/* D3 for every ordinary piece of `seat` at once: pieces of value v go 1..v ref_squares along each line. */
static int ref_ordinary_legal(const struct ref_line_sets *ls, const ref_squares group[6],
			      struct rules_action *out)
{
	int n = 0;

	for (int v = 1; v <= 5; v++) {
		ref_squares g = group[v];

		if (!g)
			continue;
		n = ref_line_moves(g, v, 0, ls, out, n);
		n = ref_line_moves(g, v, 1, ls, out, n);
		n = ref_line_moves(g, v, 2, ls, out, n);
		n = ref_line_moves(g, v, 3, ls, out, n);
		n = ref_line_moves(g, v, 4, ls, out, n);
		n = ref_line_moves(g, v, 5, ls, out, n);
		n = ref_line_moves(g, v, 6, ls, out, n);
		n = ref_line_moves(g, v, 7, ls, out, n);
	}
	return n;
}

/* Every legal move of `seat` into out[] (room for REF_SEAT_MOVES + 1): the ordinary pieces', then each
 * Super's.
 */
static int ref_state_legal(const struct super15_state *s, int seat, struct rules_action *out)
{
	struct ref_moves mv = { .out = out };

	struct ref_line_sets ls;
	ref_squares group[6];

	if (s->over || seat != s->turn)
		return 0;
	ref_line_sets_init(s, seat, &ls, group);
	mv.n = ref_ordinary_legal(&ls, group, out);
	for (int id = seat * SUPER15_SIDE; id < (seat + 1) * SUPER15_SIDE; id++)
		if (s->pieces[id].square != SUPER15_NONE && s->pieces[id].super)
			ref_piece_moves(s, id, &mv);
	return mv.n;
}

/*
 * Whether `seat` has a move at all. Almost always some ordinary piece can step
 * to a neighbouring square (an empty allowed one, or an enemy); only when none
 * can are the pieces' lines walked one by one.
 */
static bool ref_has_move(const struct super15_state *s, int seat)
{
	struct rules_action l[REF_PIECE_MOVES + 1];
	struct ref_line_sets ls;
	ref_squares group[6], ordinary = 0;

	ref_line_sets_init(s, seat, &ls, group);
	for (int v = 1; v < 6; v++)
		ordinary |= group[v];
	for (int d = 0; d < 8; d++)
		if (ref_squares_shift(ordinary, d) & ls.stop)
			return true;
	for (int id = seat * SUPER15_SIDE; id < (seat + 1) * SUPER15_SIDE; id++) {
		struct ref_moves mv = { .out = l };

		if (s->pieces[id].square == SUPER15_NONE)
			continue;
		ref_piece_moves(s, id, &mv);
		if (mv.n > 0)
			return true;
	}
	return false;
}

/* Takes piece `victim` off the board for `id`, scoring D4 and noting a captured Super. */
static void ref_capture(struct super15_state *s, int victim, int sq, struct super15_outcome *o,
			bool *took_super)
{
	struct super15_piece *v = &s->pieces[victim];

	o->captured_id[o->captured] = (uint8_t)victim;
	o->captured_sq[o->captured++] = (uint8_t)sq;
	o->gained = (uint8_t)(o->gained + v->value + v->points);
	*took_super = *took_super || v->super;
	ref_group_put(s, ref_seat_of(victim), ref_group_of(v), sq, false);
	v->square = SUPER15_NONE;
	s->board[sq] = SUPER15_NONE;
	s->count[ref_seat_of(victim)]--;
}

/* Moves piece `id` from..to along its line, capturing every enemy passed (only a Super passes any). */
static void ref_piece_move(struct super15_state *s, int id, int from, int to, struct super15_outcome *o)
{
	struct super15_piece *p = &s->pieces[id];
	int df = REF_FILE_OF(to) - REF_FILE_OF(from), dr = REF_RANK_OF(to) - REF_RANK_OF(from);
	int step = ((dr > 0) - (dr < 0)) * SUPER15_FILES + (df > 0) - (df < 0);
	bool took_super = false;

	o->piece = (uint8_t)id;
	ref_group_put(s, ref_seat_of(id), ref_group_of(p), from, false);
	for (int t = from + step;; t += step) {
		if (s->board[t] != SUPER15_NONE)
			ref_capture(s, s->board[t], t, o, &took_super);
		if (t == to)
			break;
	}
	s->board[from] = SUPER15_NONE;
	s->board[to] = (uint8_t)id;
	p->square = (uint8_t)to;
	p->points = (uint8_t)(p->points + o->gained);
	if (!p->super && (p->points >= SUPER15_SUPER_POINTS || took_super)) {
		p->super = 1;
		o->promoted = 1;
	}
	ref_group_put(s, ref_seat_of(id), ref_group_of(p), to, true);
}

static int ref_points_on_board(const struct super15_state *s, int seat)
{
	int total = 0;

	for (int id = seat * SUPER15_SIDE; id < (seat + 1) * SUPER15_SIDE; id++)
		if (s->pieces[id].square != SUPER15_NONE)
			total += s->pieces[id].points;
	return total;
}

static void ref_match_end(struct super15_state *s, int winner, int reason)
{
	s->over = 1;
	s->winner = (int8_t)winner;
	s->draw = winner < 0;
	s->reason = (uint8_t)reason;
}

/* After `seat`'s ply, in the spec's order: last piece, adjudication (D6), no ref_moves. */
static void ref_ply_end(struct super15_state *s, int seat, bool captured)
{
	int other = seat ^ 1;

	s->quiet = captured ? 0 : (uint8_t)(s->quiet + 1);
	s->turn = (uint8_t)other;
	if (s->count[other] <= 1) {
		ref_match_end(s, seat, RULES_REASON_LAST_PIECE);
		return;
	}
	if ((s->quiet >= SUPER15_QUIET_SMALL && s->count[0] == s->count[1] && s->count[0] <= SUPER15_SMALL) ||
	    s->quiet >= SUPER15_QUIET_MAX) {
		int p0 = ref_points_on_board(s, 0), p1 = ref_points_on_board(s, 1);

		ref_match_end(s, p0 == p1 ? -1 : p0 > p1 ? 0 : 1, RULES_REASON_ADJUDICATION);
		return;
	}
	if (!ref_has_move(s, other))
		ref_match_end(s, seat, RULES_REASON_NO_MOVES);
}

/* Rebuilds board[], count[] and sets[] from pieces[] (super15.h). */
static void ref_state_sync(struct super15_state *s)
{
	memset(s->board, SUPER15_NONE, sizeof(s->board));
	memset(s->sets, 0, sizeof(s->sets));
	s->count[0] = s->count[1] = 0;
	for (int id = 0; id < SUPER15_PIECES; id++) {
		const struct super15_piece *p = &s->pieces[id];

		if (p->square == SUPER15_NONE)
			continue;
		s->board[p->square] = (uint8_t)id;
		s->count[ref_seat_of(id)]++;
		ref_group_put(s, ref_seat_of(id), ref_group_of(p), p->square, true);
	}
}

/*
 * Whether `a` is one of `seat`'s legal ref_moves, byte for byte (any other kind,
 * padding or argument is refused). It walks the one line the move names,
 * with the rules of ref_piece_moves (D3, D5); the unit test checks that this
 * accepts exactly the legal list, on every from/to pair of many positions.
 */
static bool ref_move_legal(const struct super15_state *s, int seat, const struct rules_action *a)
{
	int from = a->arg[0], to = a->arg[1], df, dr, dist, step, d, room[8];
	struct rules_action canon;
	const struct super15_piece *p;

	if (from < 0 || from >= SUPER15_SQUARES || to < 0 || to >= SUPER15_SQUARES || to == from)
		return false;
	memset(&canon, 0, sizeof(canon));
	canon.kind = SUPER15_ACT_MOVE;
	canon.arg[0] = (int16_t)from;
	canon.arg[1] = (int16_t)to;
	if (!rules_action_equal(&canon, a) || s->board[from] == SUPER15_NONE ||
	    ref_seat_of(s->board[from]) != seat)
		return false;
	df = REF_FILE_OF(to) - REF_FILE_OF(from), dr = REF_RANK_OF(to) - REF_RANK_OF(from);
	if (df != 0 && dr != 0 && df != dr && df != -dr)
		return false; /* not on one of the eight lines */
	dist = df > 0 ? df : -df;
	dist = dist > (dr > 0 ? dr : -dr) ? dist : (dr > 0 ? dr : -dr);
	step = ((dr > 0) - (dr < 0)) * SUPER15_FILES + (df > 0) - (df < 0);
	p = &s->pieces[s->board[from]];
	if (!p->super) {
		for (int t = from + step; t != to; t += step)
			if (s->board[t] != SUPER15_NONE)
				return false;
		return dist <= p->value && (s->board[to] == SUPER15_NONE ? !ref_forbidden[to]
									 : ref_seat_of(s->board[to]) != seat);
	}
	for (d = 0; ref_dir_step[d] != step; d++)
		;
	ref_lines_room(from, room);
	{
		int farthest = -1, t = from;
		bool reached = false;

		for (int k = 1; k <= room[d]; k++) {
			t += step;
			if (s->board[t] != SUPER15_NONE && ref_seat_of(s->board[t]) == seat)
				break;
			if (s->board[t] != SUPER15_NONE)
				farthest = t;
			reached = reached || t == to;
		}
		return farthest >= 0 ? to == farthest : reached && !ref_forbidden[to];
	}
}

/* The reference's apply (super15_apply at 4621c5e, after the shared checks of rules_apply). */
static int ref_apply(struct super15_state *s, int seat, const struct rules_action *a,
		     struct super15_outcome *o)
{
	memset(o, 0, sizeof(*o));
	if (s->over || seat != s->turn || !ref_move_legal(s, seat, a))
		return RULES_E_ILLEGAL;
	ref_piece_move(s, s->board[a->arg[0]], a->arg[0], a->arg[1], o);
	ref_ply_end(s, seat, o->captured > 0);
	return RULES_OK;
}

/* ---- the comparisons ---- */

#define PLAYOUTS  1200 /* ~440,000 plies */
#define POSITIONS 5000 /* random positions, every legal move of each applied */

/* REQUIRE for the helpers below, which answer -1 (or false) instead of returning from a test. */
#define AGREE(cond, fail)                                                                               \
	do {                                                                                            \
		if (!(cond)) {                                                                          \
			printf("# %s:%d: differs from the reference: %s\n", __FILE__, __LINE__, #cond); \
			return fail;                                                                    \
		}                                                                                       \
	} while (0)

/* What both must agree on: the state after sets[] (sets[] differ by layout). */
static bool same_state(const struct super15_state *a, const struct super15_state *b)
{
	size_t at = offsetof(struct super15_state, pieces);

	return memcmp((const char *)a + at, (const char *)b + at, sizeof(*a) - at) == 0;
}

/*
 * The core's list of `seat` in `m` against the reference's for `ref`
 * (the same position): count and bytes; and, under a random cap, the count
 * and the prefix. Returns the count, or -1 where they differ.
 */
static int same_legal(const struct rules_match *m, const struct super15_state *ref, int seat,
		      struct fixture_lcg *x)
{
	static struct rules_action got[RULES_MAX_LEGAL], want[REF_SEAT_MOVES + 1], capped[REF_SEAT_MOVES + 1];
	int n = rules_legal_actions(m, seat, got, RULES_MAX_LEGAL), cap;
	int want_n = rules_seat_to_act(m, seat) ? ref_state_legal(ref, seat, want) : 0;

	AGREE(n == want_n, -1);
	AGREE(n == 0 || memcmp(got, want, (size_t)n * sizeof(got[0])) == 0, -1);
	cap = (int)(fixture_next(x) % (uint32_t)(n + 2));
	memset(capped, 0xa5, sizeof(capped));
	AGREE(rules_legal_actions(m, seat, capped, cap) == n, -1);
	AGREE(cap == 0 || memcmp(capped, want, (size_t)(cap < n ? cap : n) * sizeof(capped[0])) == 0, -1);
	return n;
}

/*
 * Applies `a` for `seat` in both: false unless they give the same answer,
 * outcome, state and result; the answer in *err.
 */
static bool same_apply(struct rules_match *m, struct super15_state *ref, int seat,
		       const struct rules_action *a, int *err)
{
	union rules_outcome got;
	struct super15_outcome want;
	struct rules_result r;
	int want_err;

	*err = rules_apply(m, seat, a, &got);
	want_err = ref_apply(ref, seat, a, &want);
	AGREE(*err == want_err, false);
	AGREE(*err || memcmp(&got.super15, &want, sizeof(want)) == 0, false);
	AGREE(same_state(&m->s.super15, ref), false);
	rules_result(m, &r);
	AGREE(r.over == ref->over && (!r.over || (r.winner == ref->winner && r.draw == ref->draw &&
						  r.reason == ref->reason)),
	      false);
	return true;
}

/* Random matches from the start, the move drawn from the list; counts plies, Supers to move and endings. */
static void test_playouts_match_reference(void)
{
	static struct rules_action l[RULES_MAX_LEGAL];
	long plies = 0, super_plies = 0, reasons[RULES_REASON_ADJUDICATION + 1] = { 0 };
	struct fixture_lcg x = { 24 };

	for (int game = 0; game < PLAYOUTS; game++) {
		uint8_t seed[RULES_SEED_SIZE] = { 0 }, seats[RULES_MAX_SEATS];
		struct super15_state ref;
		struct rules_match m;
		struct rules_result r;

		memcpy(seed, &game, sizeof(game));
		REQUIRE(rules_match_start(&m, &rules_game_super15, seed, NULL) == 0);
		ref = m.s.super15;
		ref_state_sync(&ref);
		while (rules_to_act(&m, seats) == 1) {
			int seat = seats[0], n = same_legal(&m, &ref, seat, &x), err;
			bool supers = false;

			REQUIRE(same_legal(&m, &ref, seat ^ 1, &x) == 0);
			for (int id = seat * SUPER15_SIDE; id < (seat + 1) * SUPER15_SIDE; id++)
				supers = supers ||
					 (ref.pieces[id].super && ref.pieces[id].square != SUPER15_NONE);
			super_plies += supers;
			REQUIRE(n > 0);
			rules_legal_actions(&m, seat, l, RULES_MAX_LEGAL);
			REQUIRE(same_apply(&m, &ref, seat, &l[fixture_next(&x) % (uint32_t)n], &err) &&
				err == 0);
			plies++;
		}
		rules_result(&m, &r);
		reasons[r.reason]++;
	}
	printf("# %d random matches, %ld plies (%ld with a Super to move) equal to the reference; ends: "
	       "last_piece %ld, adjudication %ld, no_moves %ld\n",
	       PLAYOUTS, plies, super_plies, reasons[RULES_REASON_LAST_PIECE],
	       reasons[RULES_REASON_ADJUDICATION], reasons[RULES_REASON_NO_MOVES]);
	CHECK(plies > 300000);
}

/*
 * Random positions: each piece on the board or not, on a random allowed
 * square, with random points and often Super, and in every other position
 * a random value 0..5 (a 0 that is not Super never moves: the hand-made
 * walls of test_super15.c, so that seats run out of moves); a random seat to
 * move and quiet count. Both seats' lists are compared, then every legal
 * move and a few random from/to pairs are applied to copies and compared.
 */
static void test_positions_match_reference(void)
{
	static struct rules_action l[RULES_MAX_LEGAL];
	long moves = 0, ends[RULES_REASON_ADJUDICATION + 1] = { 0 };
	struct fixture_lcg x = { 2424 };

	for (int i = 0; i < POSITIONS; i++) {
		uint8_t seed[RULES_SEED_SIZE] = { 0 };
		struct super15_state *s, ref;
		struct rules_match m;
		uint32_t density = 10 + fixture_next(&x) % 90; /* percent of the pieces on the board */
		bool values = i % 2;                           /* random values, walls among them */
		int n;

		REQUIRE(rules_match_start(&m, &rules_game_super15, seed, NULL) == 0);
		s = &m.s.super15;
		memset(s->board, SUPER15_NONE, sizeof(s->board)); /* squares taken so far, by this loop */
		for (int id = 0; id < SUPER15_PIECES; id++) {
			struct super15_piece *p = &s->pieces[id];
			int sq;

			p->points = (uint8_t)(fixture_next(&x) % 3 ? 0 : fixture_next(&x) % 30);
			p->super = (uint8_t)(fixture_next(&x) % 3 == 0);
			if (values)
				p->value = (uint8_t)(fixture_next(&x) % 6);
			p->square = SUPER15_NONE;
			if (fixture_next(&x) % 100 >= density)
				continue;
			do
				sq = (int)(fixture_next(&x) % SUPER15_SQUARES);
			while (s->board[sq] != SUPER15_NONE || ref_forbidden[sq]);
			p->square = (uint8_t)sq;
			s->board[sq] = (uint8_t)id;
		}
		s->turn = (uint8_t)(fixture_next(&x) % 2);
		s->quiet = (uint8_t)(fixture_next(&x) % 100);
		super15_state_sync(s);
		ref = *s;
		ref_state_sync(&ref);
		REQUIRE(same_state(s, &ref));
		n = same_legal(&m, &ref, s->turn, &x);
		REQUIRE(n >= 0);
		REQUIRE(same_legal(&m, &ref, s->turn ^ 1, &x) == 0);
		REQUIRE(rules_legal_actions(&m, s->turn, l, RULES_MAX_LEGAL) == n);
		for (int k = 0; k < n + 8; k++) {
			struct rules_match next = m;
			struct super15_state next_ref = ref;
			struct rules_action junk = { .kind = SUPER15_ACT_MOVE };
			const struct rules_action *a = &l[k];
			int err;

			if (k >= n) { /* a random from/to pair: legal or not, both must answer alike */
				junk.arg[0] = (int16_t)(fixture_next(&x) % SUPER15_SQUARES);
				junk.arg[1] = (int16_t)(fixture_next(&x) % SUPER15_SQUARES);
				a = &junk;
			}
			REQUIRE(same_apply(&next, &next_ref, next.s.super15.turn, a, &err));
			if (err == 0) {
				moves++;
				ends[next_ref.over ? next_ref.reason : 0]++;
				REQUIRE(next_ref.over ||
					same_legal(&next, &next_ref, next_ref.turn, &x) >= 0);
			}
		}
	}
	printf("# %d random positions, %ld moves applied equal to the reference; ends: last_piece %ld, "
	       "adjudication %ld, no_moves %ld\n",
	       POSITIONS, moves, ends[RULES_REASON_LAST_PIECE], ends[RULES_REASON_ADJUDICATION],
	       ends[RULES_REASON_NO_MOVES]);
	CHECK(moves > 100000);
	CHECK(ends[RULES_REASON_NO_MOVES] > 0);
}

int main(void)
{
	TEST(test_playouts_match_reference);
	TEST(test_positions_match_reference);
	return tap_done();
}
