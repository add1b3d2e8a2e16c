/*
 * super15.c: Super 1 al 5 (protocol/games/super15/README.md). A turn is one move of one
 * piece along one of the eight queen lines: an ordinary piece of value v goes
 * 1..v squares over empty squares (forbidden ones count as empty to pass over)
 * and stops on an empty, allowed square or on the first enemy it meets,
 * capturing it; a Super looks along the line up to the edge or its first own
 * piece and, if enemies lie there, captures all of them and stops on the
 * farthest, else moves to any empty allowed square of the line. After every
 * ply: a seat left with one piece loses, then the adjudication of D6, then a
 * seat with no move on its turn loses.
 * The legal list of the ordinary pieces is computed on sets of squares, all
 * pieces of one value at once (random playouts are the benchmark's measure);
 * apply walks only the line the move names and accepts exactly the moves of
 * the legal list (the unit test compares the two on every from/to pair).
 * Invariants: pieces[] is the position; board[], count[] and sets[] agree
 * with it (super15_state_sync), no two pieces share a square and forbidden
 * squares stay empty; points only grow and Super is permanent. apply changes
 * nothing before the action is found legal. Pure: no I/O, no allocation.
 */
#include <string.h>

#include "rules.h"

#define FILE_OF(sq) ((sq)&7)
#define RANK_OF(sq) ((sq) >> 3)
#define SQ(f, r)    ((r)*SUPER15_FILES + (f))

static const char *const super15_roles[] = { "light", "dark" };

/* The eight queen lines: square offsets, N NE E SE S SW W NW. */
static const int8_t dir_step[8] = { 8, 9, 1, -7, -8, -9, -1, 7 };

/* D2: values of files a..h on a seat's back rank and on the rank before it. */
static const uint8_t back_values[SUPER15_FILES] = { 5, 4, 3, 2, 2, 3, 4, 5 };
static const uint8_t front_values[SUPER15_FILES] = { 1, 2, 3, 1, 1, 3, 2, 1 };

/* D1: d5, e5, d6, e6. */
static const bool forbidden[SUPER15_SQUARES] = {
	[SQ(3, 4)] = true,
	[SQ(4, 4)] = true,
	[SQ(3, 5)] = true,
	[SQ(4, 5)] = true,
};

static int min2(int a, int b)
{
	return a < b ? a : b;
}

/* How many squares lie beyond `sq` along each line before the edge. */
static void lines_room(int sq, int room[8])
{
	int f = FILE_OF(sq), r = RANK_OF(sq), n = SUPER15_RANKS - 1 - r, e = SUPER15_FILES - 1 - f;

	room[0] = n, room[1] = min2(e, n), room[2] = e, room[3] = min2(e, r);
	room[4] = r, room[5] = min2(f, r), room[6] = f, room[7] = min2(f, n);
}

static int seat_of(int id)
{
	return id >= SUPER15_SIDE;
}

/*
 * Bounds of the move lists: a piece has at most 40 moves (a 5 in the open:
 * 8 lines x 5), a Super at most 30 (7 + 9 + two diagonals of 7); so a seat
 * has at most 16 x 40. A list buffer holds one entry more, because the
 * generator writes every candidate and then counts it or not (no branch on
 * the board's contents in the common case).
 */
#define PIECE_MOVES 40
#define SEAT_MOVES  (SUPER15_SIDE * PIECE_MOVES)

/* Collects the moves of one piece at a time into `out` (room for the bound + 1). */
struct moves {
	struct rules_action *out;
	int n;
	struct rules_action tmpl; /* kind and arg[0] (from) set, the rest zero */
};

/* Writes a move to `to` at out[n]; keeps it (n + 1) only when `keep`. */
static void move_put(struct moves *mv, int to, bool keep)
{
	struct rules_action *a = &mv->out[mv->n];

	*a = mv->tmpl;
	a->arg[1] = (int16_t)to;
	mv->n += keep;
}

/* D3: 1..value squares over empty ones, ending empty and allowed, or on an enemy. */
static void ordinary_moves(const struct super15_state *s, int sq, int seat, int value, struct moves *mv)
{
	int room[8];

	lines_room(sq, room);
	for (int d = 0; d < 8; d++) {
		int n = min2(value, room[d]), t = sq;
		bool open = true; /* every square so far was empty */

		for (int step = 1; step <= n && open; step++) {
			int id;
			bool empty;

			t += dir_step[d];
			id = s->board[t];
			empty = id == SUPER15_NONE;
			move_put(mv, t, empty ? !forbidden[t] : seat_of(id) != seat);
			open = empty;
		}
	}
}

/* D5: per line up to the edge or the first own piece: the farthest enemy if any, else every allowed square.
 */
static void super_moves(const struct super15_state *s, int sq, int seat, struct moves *mv)
{
	int room[8];

	lines_room(sq, room);
	for (int d = 0; d < 8; d++) {
		int t = sq, farthest = -1, first = mv->n;

		for (int step = 1; step <= room[d]; step++) {
			int id;

			t += dir_step[d];
			id = s->board[t];
			if (id == SUPER15_NONE) {
				move_put(mv, t, !forbidden[t] && farthest < 0);
				continue;
			}
			if (seat_of(id) == seat)
				break;
			farthest = t;
		}
		if (farthest >= 0) {
			mv->n = first; /* the line holds enemies: the free moves are not allowed */
			move_put(mv, farthest, true);
		}
	}
}

/* The moves of piece `id` appended to mv (at most PIECE_MOVES). */
static void piece_moves(const struct super15_state *s, int id, struct moves *mv)
{
	const struct super15_piece *p = &s->pieces[id];

	memset(&mv->tmpl, 0, sizeof(mv->tmpl));
	mv->tmpl.kind = SUPER15_ACT_MOVE;
	mv->tmpl.arg[0] = p->square;
	if (p->super)
		super_moves(s, p->square, seat_of(id), mv);
	else
		ordinary_moves(s, p->square, seat_of(id), p->value, mv);
}

/*
 * Sets of squares, bit `sq` for square sq (80 bits), for the legal list: the
 * ordinary pieces of one value move together, one shift per line and step,
 * so the work follows the number of moves rather than the pieces and lines
 * walked (the random-playout rate the benchmark asks for). apply and
 * has_move walk one piece's lines (piece_moves); tests/unit/test_super15.c
 * checks that the two agree on every from/to pair of many positions.
 */
__extension__ typedef unsigned __int128 squares;

#define SQUARES_LOW(x)  ((squares)(x))
#define SQUARES_HIGH(x) ((squares)(x) << 64)
#define ON_BOARD        (SQUARES_HIGH(0xffffu) | SQUARES_LOW(0xffffffffffffffffu))
#define FILE_A          (SQUARES_HIGH(0x0101u) | SQUARES_LOW(0x0101010101010101u))
#define FILE_H          (FILE_A << 7)
#define FORBIDDEN \
	((squares)1 << SQ(3, 4) | (squares)1 << SQ(4, 4) | (squares)1 << SQ(3, 5) | (squares)1 << SQ(4, 5))

/* The set `b` moved one square along line `d` (dir_step order), what leaves the board dropped. */
static inline squares squares_shift(squares b, int d)
{
	switch (d) {
	case 0:
		return (b << 8) & ON_BOARD;
	case 1:
		return (b << 9) & ON_BOARD & ~FILE_A;
	case 2:
		return (b << 1) & ON_BOARD & ~FILE_A;
	case 3:
		return (b >> 7) & ~FILE_A;
	case 4:
		return b >> 8;
	case 5:
		return (b >> 9) & ~FILE_H;
	case 6:
		return (b >> 1) & ~FILE_H;
	default:
		return (b << 7) & ON_BOARD & ~FILE_H;
	}
}

/* Appends a move from `to` - `back` to every square of `to`. */
static inline int squares_push(squares to, int back, struct rules_action *out, int n)
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
struct line_sets {
	squares stop;  /* empty and allowed, or an enemy */
	squares empty; /* empty, forbidden squares included */
};

/* The pieces of `g` (one value v) along line `d` (a constant once inlined), 1..v squares. */
static inline int line_moves(squares g, int v, int d, const struct line_sets *ls, struct rules_action *out,
			     int n)
{
	for (int k = 1; k <= v && g; k++) {
		g = squares_shift(g, d);
		n = squares_push(g & ls->stop, k * dir_step[d], out, n);
		g &= ls->empty;
	}
	return n;
}

static squares group_get(const struct super15_state *s, int seat, int group)
{
	return (squares)s->sets[seat][group][1] << 64 | s->sets[seat][group][0];
}

/* The group of a piece in sets[]: 0 for a Super, else its value. */
static int group_of(const struct super15_piece *p)
{
	return p->super ? 0 : p->value;
}

/* Adds (on) or removes square `sq` to seat's `group`. */
static void group_put(struct super15_state *s, int seat, int group, int sq, bool on)
{
	uint64_t bit = (uint64_t)1 << (sq & 63);
	uint64_t *half = &s->sets[seat][group][sq >> 6];

	*half = on ? *half | bit : *half & ~bit;
}

/* The sets of `seat`'s position; group[v] as in sets[] (0: the Supers). */
static void line_sets_init(const struct super15_state *s, int seat, struct line_sets *ls, squares group[6])
{
	squares own = 0, enemy = 0;

	for (int v = 0; v < 6; v++) {
		group[v] = group_get(s, seat, v);
		own |= group[v];
		enemy |= group_get(s, seat ^ 1, v);
	}
	ls->empty = ON_BOARD & ~(own | enemy);
	ls->stop = (ls->empty & ~FORBIDDEN) | enemy;
}

/* D3 for every ordinary piece of `seat` at once: pieces of value v go 1..v squares along each line. */
static int ordinary_legal(const struct line_sets *ls, const squares group[6], struct rules_action *out)
{
	int n = 0;

	for (int v = 1; v <= 5; v++) {
		squares g = group[v];

		if (!g)
			continue;
		n = line_moves(g, v, 0, ls, out, n);
		n = line_moves(g, v, 1, ls, out, n);
		n = line_moves(g, v, 2, ls, out, n);
		n = line_moves(g, v, 3, ls, out, n);
		n = line_moves(g, v, 4, ls, out, n);
		n = line_moves(g, v, 5, ls, out, n);
		n = line_moves(g, v, 6, ls, out, n);
		n = line_moves(g, v, 7, ls, out, n);
	}
	return n;
}

/* Every legal move of `seat` into out[] (room for SEAT_MOVES + 1): the ordinary pieces', then each Super's.
 */
static int state_legal(const struct super15_state *s, int seat, struct rules_action *out)
{
	struct moves mv = { .out = out };

	struct line_sets ls;
	squares group[6];

	if (s->over || seat != s->turn)
		return 0;
	line_sets_init(s, seat, &ls, group);
	mv.n = ordinary_legal(&ls, group, out);
	for (int id = seat * SUPER15_SIDE; id < (seat + 1) * SUPER15_SIDE; id++)
		if (s->pieces[id].square != SUPER15_NONE && s->pieces[id].super)
			piece_moves(s, id, &mv);
	return mv.n;
}

/*
 * Whether `seat` has a move at all. Almost always some ordinary piece can step
 * to a neighbouring square (an empty allowed one, or an enemy); only when none
 * can are the pieces' lines walked one by one.
 */
static bool has_move(const struct super15_state *s, int seat)
{
	struct rules_action l[PIECE_MOVES + 1];
	struct line_sets ls;
	squares group[6], ordinary = 0;

	line_sets_init(s, seat, &ls, group);
	for (int v = 1; v < 6; v++)
		ordinary |= group[v];
	for (int d = 0; d < 8; d++)
		if (squares_shift(ordinary, d) & ls.stop)
			return true;
	for (int id = seat * SUPER15_SIDE; id < (seat + 1) * SUPER15_SIDE; id++) {
		struct moves mv = { .out = l };

		if (s->pieces[id].square == SUPER15_NONE)
			continue;
		piece_moves(s, id, &mv);
		if (mv.n > 0)
			return true;
	}
	return false;
}

/* Takes piece `victim` off the board for `id`, scoring D4 and noting a captured Super. */
static void capture(struct super15_state *s, int victim, int sq, struct super15_outcome *o, bool *took_super)
{
	struct super15_piece *v = &s->pieces[victim];

	o->captured_id[o->captured] = (uint8_t)victim;
	o->captured_sq[o->captured++] = (uint8_t)sq;
	o->gained = (uint8_t)(o->gained + v->value + v->points);
	*took_super = *took_super || v->super;
	group_put(s, seat_of(victim), group_of(v), sq, false);
	v->square = SUPER15_NONE;
	s->board[sq] = SUPER15_NONE;
	s->count[seat_of(victim)]--;
}

/* Moves piece `id` from..to along its line, capturing every enemy passed (only a Super passes any). */
static void piece_move(struct super15_state *s, int id, int from, int to, struct super15_outcome *o)
{
	struct super15_piece *p = &s->pieces[id];
	int df = FILE_OF(to) - FILE_OF(from), dr = RANK_OF(to) - RANK_OF(from);
	int step = ((dr > 0) - (dr < 0)) * SUPER15_FILES + (df > 0) - (df < 0);
	bool took_super = false;

	o->piece = (uint8_t)id;
	group_put(s, seat_of(id), group_of(p), from, false);
	for (int t = from + step;; t += step) {
		if (s->board[t] != SUPER15_NONE)
			capture(s, s->board[t], t, o, &took_super);
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
	group_put(s, seat_of(id), group_of(p), to, true);
}

/* See super15.h. */
const char *super15_square_name(int sq, char buf[4])
{
	int rank = sq / SUPER15_FILES + 1;

	buf[0] = (char)('a' + sq % SUPER15_FILES);
	if (rank == 10) {
		buf[1] = '1', buf[2] = '0', buf[3] = '\0';
	} else {
		buf[1] = (char)('0' + rank), buf[2] = '\0';
	}
	return buf;
}

int super15_points_on_board(const struct super15_state *s, int seat)
{
	int total = 0;

	for (int id = seat * SUPER15_SIDE; id < (seat + 1) * SUPER15_SIDE; id++)
		if (s->pieces[id].square != SUPER15_NONE)
			total += s->pieces[id].points;
	return total;
}

void super15_match_end(struct super15_state *s, int winner, int reason)
{
	s->over = 1;
	s->winner = (int8_t)winner;
	s->draw = winner < 0;
	s->reason = (uint8_t)reason;
}

/* After `seat`'s ply, in the spec's order: last piece, adjudication (D6), no moves. */
static void ply_end(struct super15_state *s, int seat, bool captured)
{
	int other = seat ^ 1;

	s->quiet = captured ? 0 : (uint8_t)(s->quiet + 1);
	s->turn = (uint8_t)other;
	if (s->count[other] <= 1) {
		super15_match_end(s, seat, RULES_REASON_LAST_PIECE);
		return;
	}
	if ((s->quiet >= SUPER15_QUIET_SMALL && s->count[0] == s->count[1] && s->count[0] <= SUPER15_SMALL) ||
	    s->quiet >= SUPER15_QUIET_MAX) {
		int p0 = super15_points_on_board(s, 0), p1 = super15_points_on_board(s, 1);

		super15_match_end(s, p0 == p1 ? -1 : p0 > p1 ? 0 : 1, RULES_REASON_ADJUDICATION);
		return;
	}
	if (!has_move(s, other))
		super15_match_end(s, seat, RULES_REASON_NO_MOVES);
}

/* Rebuilds board[], count[] and sets[] from pieces[] (super15.h). */
void super15_state_sync(struct super15_state *s)
{
	memset(s->board, SUPER15_NONE, sizeof(s->board));
	memset(s->sets, 0, sizeof(s->sets));
	s->count[0] = s->count[1] = 0;
	for (int id = 0; id < SUPER15_PIECES; id++) {
		const struct super15_piece *p = &s->pieces[id];

		if (p->square == SUPER15_NONE)
			continue;
		s->board[p->square] = (uint8_t)id;
		s->count[seat_of(id)]++;
		group_put(s, seat_of(id), group_of(p), p->square, true);
	}
}

static int super15_start(struct rules_match *m)
{
	struct super15_state *s = &m->s.super15;

	if (m->options.max_turns != 0)
		return RULES_E_BAD_OPTIONS;
	memset(s, 0, sizeof(*s));
	for (int f = 0; f < SUPER15_FILES; f++) {
		/* Light 0..7 on rank 1, 8..15 on rank 2; Dark 16..23 on rank 10, 24..31 on rank 9. */
		const int ids[4] = { f, 8 + f, 16 + f, 24 + f };
		const int sqs[4] = { SQ(f, 0), SQ(f, 1), SQ(f, 9), SQ(f, 8) };

		for (int k = 0; k < 4; k++) {
			s->pieces[ids[k]].square = (uint8_t)sqs[k];
			s->pieces[ids[k]].value = k % 2 ? front_values[f] : back_values[f];
		}
	}
	super15_state_sync(s);
	s->winner = -1;
	return RULES_OK;
}

static int super15_to_act(const struct rules_match *m, uint8_t out[RULES_MAX_SEATS])
{
	if (m->s.super15.over)
		return 0;
	out[0] = m->s.super15.turn;
	return 1;
}

/*
 * The true count; the first `cap` are written (rules.h). A caller's array
 * with room for every move is written directly, a smaller one through a copy.
 */
static int super15_legal(const struct rules_match *m, int seat, struct rules_action *out, int cap)
{
	struct rules_action all[SEAT_MOVES + 1];
	int n;

	if (cap > SEAT_MOVES)
		return state_legal(&m->s.super15, seat, out);
	n = state_legal(&m->s.super15, seat, all);
	if (n > 0 && cap > 0)
		memcpy(out, all, (size_t)(n < cap ? n : cap) * sizeof(all[0]));
	return n;
}

/*
 * Whether `a` is one of `seat`'s legal moves, byte for byte (any other kind,
 * padding or argument is refused). It walks the one line the move names,
 * with the rules of piece_moves (D3, D5); the unit test checks that this
 * accepts exactly the legal list, on every from/to pair of many positions.
 */
static bool move_legal(const struct super15_state *s, int seat, const struct rules_action *a)
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
	    seat_of(s->board[from]) != seat)
		return false;
	df = FILE_OF(to) - FILE_OF(from), dr = RANK_OF(to) - RANK_OF(from);
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
		return dist <= p->value &&
		       (s->board[to] == SUPER15_NONE ? !forbidden[to] : seat_of(s->board[to]) != seat);
	}
	for (d = 0; dir_step[d] != step; d++)
		;
	lines_room(from, room);
	{
		int farthest = -1, t = from;
		bool reached = false;

		for (int k = 1; k <= room[d]; k++) {
			t += step;
			if (s->board[t] != SUPER15_NONE && seat_of(s->board[t]) == seat)
				break;
			if (s->board[t] != SUPER15_NONE)
				farthest = t;
			reached = reached || t == to;
		}
		return farthest >= 0 ? to == farthest : reached && !forbidden[to];
	}
}

/* Only a legal move gets applied; nothing changes before that. */
static int super15_apply(struct rules_match *m, int seat, const struct rules_action *a,
			 union rules_outcome *outcome)
{
	struct super15_state *s = &m->s.super15;

	if (s->over || seat != s->turn || !move_legal(s, seat, a))
		return RULES_E_ILLEGAL;
	piece_move(s, s->board[a->arg[0]], a->arg[0], a->arg[1], &outcome->super15);
	ply_end(s, seat, outcome->super15.captured > 0);
	return RULES_OK;
}

/* Two seats: whoever resigns or forfeits, the other seat wins. */
static int super15_event(struct rules_match *m, int seat, int kind, union rules_outcome *outcome)
{
	(void)outcome; /* zeroed by rules_event */
	super15_match_end(&m->s.super15, seat ^ 1,
			  kind == RULES_EVENT_FORFEIT ? RULES_REASON_FORFEIT : RULES_REASON_RESIGN);
	return RULES_OK;
}

static void super15_result(const struct rules_match *m, struct rules_result *out)
{
	const struct super15_state *s = &m->s.super15;

	out->over = s->over;
	out->draw = s->over && s->draw;
	out->winner = s->over ? s->winner : -1;
	out->reason = s->over ? s->reason : RULES_REASON_NONE;
}

/* The Super 1 al 5 rules for the registry. */
const struct rules_game rules_game_super15 = {
	.id = "super15",
	.name = "Super 1 al 5",
	.seats = 2,
	.roles = super15_roles,
	.dice = false,
	.start = super15_start,
	.to_act = super15_to_act,
	.legal = super15_legal,
	.apply = super15_apply,
	.event = super15_event,
	.result = super15_result,
};
