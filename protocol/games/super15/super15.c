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
#include <stddef.h>
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
 * generators write a candidate and then count it or not (no branch on the
 * board's contents in the common case).
 */
#define PIECE_MOVES 40
#define SEAT_MOVES  (SUPER15_SIDE * PIECE_MOVES)

/* The first eight bytes of the move from..to (kind, pad, arg[0], arg[1], arg[2]) as a little-endian word. */
static inline uint64_t move_head(int from, int to)
{
	return SUPER15_ACT_MOVE | (uint64_t)from << 16 | (uint64_t)to << 32;
}

/*
 * Writes the move whose first eight bytes are `head` (move_head()), every
 * other byte zero (actions compare by their bytes). A list is ~60 of these
 * a ply, so on a little-endian machine they are two stores: the word, over
 * sixteen zero bytes from offset 6. Anywhere else, field by field.
 */
static inline void action_write(struct rules_action *a, uint64_t head)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	static const uint8_t zero[16];

	_Static_assert(sizeof(struct rules_action) == 22 && offsetof(struct rules_action, arg) == 2,
		       "action_write writes struct rules_action as bytes");
	memcpy((char *)a + 6, zero, sizeof(zero));
	memcpy(a, &head, sizeof(head));
#else
	*a = (struct rules_action){ .kind = SUPER15_ACT_MOVE,
				    .arg = { (int16_t)(head >> 16 & 0xffff),
					     (int16_t)(head >> 32 & 0xffff) } };
#endif
}

/* D3: 1..value squares over empty ones, ending empty and allowed, or on an enemy. */
static struct rules_action *ordinary_moves(const struct super15_state *s, int sq, int seat, int value,
					   struct rules_action *o)
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
			action_write(o, move_head(sq, t));
			o += empty ? !forbidden[t] : seat_of(id) != seat;
			open = empty;
		}
	}
	return o;
}

/*
 * D5: per line up to the edge or the first own piece: the farthest enemy if
 * any, else every allowed square. The empty squares before the first piece
 * are written as they are met and dropped again when an enemy follows.
 */
static struct rules_action *super_moves(const struct super15_state *s, int sq, int seat,
					struct rules_action *o)
{
	uint64_t from = move_head(sq, 0);
	int room[8];

	lines_room(sq, room);
	for (int d = 0; d < 8; d++) {
		struct rules_action *first = o;
		int t = sq, step = 1, farthest;

		for (; step <= room[d]; step++) {
			t += dir_step[d];
			if (s->board[t] != SUPER15_NONE)
				break;
			action_write(o, from | (uint64_t)t << 32);
			o += !forbidden[t];
		}
		if (step > room[d] || seat_of(s->board[t]) == seat)
			continue; /* the edge, or an own piece: no enemy on this line */
		for (farthest = t, step++; step <= room[d]; step++) {
			t += dir_step[d];
			if (s->board[t] == SUPER15_NONE)
				continue;
			if (seat_of(s->board[t]) == seat)
				break;
			farthest = t;
		}
		o = first; /* the line holds enemies: the free moves are not allowed */
		action_write(o++, from | (uint64_t)farthest << 32);
	}
	return o;
}

/* The moves of piece `id` appended at o (at most PIECE_MOVES, room for one more); returns the new end. */
static struct rules_action *piece_moves(const struct super15_state *s, int id, struct rules_action *o)
{
	const struct super15_piece *p = &s->pieces[id];

	if (p->super)
		return super_moves(s, p->square, seat_of(id), o);
	return ordinary_moves(s, p->square, seat_of(id), p->value, o);
}

/*
 * Sets of squares for the legal list: the ordinary pieces of one value move
 * together, one shift per line and step, so the work follows the number of
 * steps rather than the pieces and lines walked (the random-playout rate the
 * benchmark asks for). apply and has_move walk one piece's lines
 * (piece_moves); tests/unit/test_super15.c checks that the two agree on every
 * from/to pair of many positions, and tests/unit/test_super15_ref.c that
 * lists, outcomes and results are those, bytes and order, of the core before
 * issue 24 (the same method on sets of 80 bits, five stores a move).
 *
 * A set's bit for square (file f, rank r) is r * 9 + f, not r * 8 + f: a
 * ninth file, never on the board, sits between one rank's h and the next
 * rank's a. A step along any line is then a plain shift (E +1, N +9, NE +10,
 * NW +8, and their opposites), and what a step takes off the board lands on
 * that ninth file or beyond bit 89, where no square is empty or an enemy: the
 * masks every step is cut by anyway drop it. The order of the bits is still
 * the order of the squares (rank, then file). The sets are stored and
 * shifted as two 64-bit halves ([0] bits 0..63, [1] bits 64..89): the
 * compiler keeps those in registers where it spills a 128-bit integer.
 */
__extension__ typedef unsigned __int128 squares;

#define PAD(sq)   ((sq) + ((sq) >> 3)) /* a square's bit: r * 9 + f = sq + r */
#define PADDED    90                   /* bits 0..89; bit r * 9 + 8 is off the board */
#define BIT(sq)   ((squares)1 << PAD(sq))
#define NINTH     ((squares)0x2010080u << 64 | 0x4020100804020100u) /* bits r * 9 + 8, r = 0..9 */
#define ON_BOARD  ((((squares)1 << PADDED) - 1) & ~NINTH)
#define FORBIDDEN (BIT(SQ(3, 4)) | BIT(SQ(4, 4)) | BIT(SQ(3, 5)) | BIT(SQ(4, 5)))

/* move_head(sq, sq) for the square sq of bit p: the move from sq - back to sq is this minus back << 16. */
#define HEAD(sq) (SUPER15_ACT_MOVE | (uint64_t)(sq) << 16 | (uint64_t)(sq) << 32)
#define RANK_HEADS(r)                                                                                     \
	HEAD((r)*8), HEAD((r)*8 + 1), HEAD((r)*8 + 2), HEAD((r)*8 + 3), HEAD((r)*8 + 4), HEAD((r)*8 + 5), \
		HEAD((r)*8 + 6), HEAD((r)*8 + 7), 0
static const uint64_t bit_head[PADDED] = {
	RANK_HEADS(0), RANK_HEADS(1), RANK_HEADS(2), RANK_HEADS(3), RANK_HEADS(4),
	RANK_HEADS(5), RANK_HEADS(6), RANK_HEADS(7), RANK_HEADS(8), RANK_HEADS(9),
};
#undef RANK_HEADS
#undef HEAD

/* The set lo, hi moved one square along line `d` (a constant once inlined); the caller masks the rest. */
static inline void halves_shift(uint64_t *lo, uint64_t *hi, int d)
{
	switch (d) {
	case 0: /* N: +9 */
		*hi = *hi << 9 | *lo >> 55, *lo <<= 9;
		break;
	case 1: /* NE: +10 */
		*hi = *hi << 10 | *lo >> 54, *lo <<= 10;
		break;
	case 2: /* E: +1 */
		*hi = *hi << 1 | *lo >> 63, *lo <<= 1;
		break;
	case 3: /* SE: -8 */
		*lo = *lo >> 8 | *hi << 56, *hi >>= 8;
		break;
	case 4: /* S: -9 */
		*lo = *lo >> 9 | *hi << 55, *hi >>= 9;
		break;
	case 5: /* SW: -10 */
		*lo = *lo >> 10 | *hi << 54, *hi >>= 10;
		break;
	case 6: /* W: -1 */
		*lo = *lo >> 1 | *hi << 63, *hi >>= 1;
		break;
	default: /* NW: +8 */
		*hi = *hi << 8 | *lo >> 56, *lo <<= 8;
		break;
	}
}

/*
 * Appends a move from sq - back to each square sq of `b` (bit i of b is bit
 * offset + i of a set), in order. from = sq - back is a square, 0..79, so
 * subtracting back << 16 from the head never borrows out of arg[0]'s bytes.
 */
static inline struct rules_action *bits_push(uint64_t b, int offset, int back, struct rules_action *o)
{
	uint64_t minus = (uint64_t)(int64_t)back << 16;

	for (; b; b &= b - 1)
		action_write(o++, bit_head[offset + __builtin_ctzll(b)] - minus);
	return o;
}

/* The sets a line search needs (halves as in sets[]). */
struct line_sets {
	uint64_t stop[2];  /* empty and allowed, or an enemy */
	uint64_t empty[2]; /* empty, forbidden squares included */
};

/* The pieces of group `g` (lo, hi; one value v) along line `d` (a constant once inlined), 1..v squares. */
static inline struct rules_action *line_moves(uint64_t lo, uint64_t hi, int v, int d,
					      const struct line_sets *ls, struct rules_action *o)
{
	for (int k = 1; k <= v; k++) {
		halves_shift(&lo, &hi, d);
		o = bits_push(lo & ls->stop[0], 0, k * dir_step[d], o);
		o = bits_push(hi & ls->stop[1], 64, k * dir_step[d], o);
		lo &= ls->empty[0], hi &= ls->empty[1];
		if (!(lo | hi))
			break;
	}
	return o;
}

/* The group of a piece in sets[]: 0 for a Super, else its value. */
static int group_of(const struct super15_piece *p)
{
	return p->super ? 0 : p->value;
}

/* Adds (on) or removes square `sq` to seat's `group`. */
static void group_put(struct super15_state *s, int seat, int group, int sq, bool on)
{
	int bit = PAD(sq);
	uint64_t mask = (uint64_t)1 << (bit & 63);
	uint64_t *half = &s->sets[seat][group][bit >> 6];

	*half = on ? *half | mask : *half & ~mask;
}

/* The sets of `seat`'s position. */
static void line_sets_init(const struct super15_state *s, int seat, struct line_sets *ls)
{
	squares own = 0, enemy = 0, empty, stop;

	for (int v = 0; v < 6; v++) {
		own |= (squares)s->sets[seat][v][1] << 64 | s->sets[seat][v][0];
		enemy |= (squares)s->sets[seat ^ 1][v][1] << 64 | s->sets[seat ^ 1][v][0];
	}
	empty = ON_BOARD & ~(own | enemy);
	stop = (empty & ~FORBIDDEN) | enemy;
	ls->empty[0] = (uint64_t)empty, ls->empty[1] = (uint64_t)(empty >> 64);
	ls->stop[0] = (uint64_t)stop, ls->stop[1] = (uint64_t)(stop >> 64);
}

/* D3 for every ordinary piece of `seat` at once: pieces of value v go 1..v squares along each line. */
static struct rules_action *ordinary_legal(const uint64_t group[6][2], const struct line_sets *ls,
					   struct rules_action *o)
{
	for (int v = 1; v <= 5; v++) {
		uint64_t lo = group[v][0], hi = group[v][1];

		if (!(lo | hi))
			continue;
		o = line_moves(lo, hi, v, 0, ls, o);
		o = line_moves(lo, hi, v, 1, ls, o);
		o = line_moves(lo, hi, v, 2, ls, o);
		o = line_moves(lo, hi, v, 3, ls, o);
		o = line_moves(lo, hi, v, 4, ls, o);
		o = line_moves(lo, hi, v, 5, ls, o);
		o = line_moves(lo, hi, v, 6, ls, o);
		o = line_moves(lo, hi, v, 7, ls, o);
	}
	return o;
}

/* Every legal move of `seat` into out[] (room for SEAT_MOVES + 1): the ordinary pieces', then each Super's.
 */
static int state_legal(const struct super15_state *s, int seat, struct rules_action *out)
{
	struct rules_action *o;
	struct line_sets ls;

	if (s->over || seat != s->turn)
		return 0;
	line_sets_init(s, seat, &ls);
	o = ordinary_legal(s->sets[seat], &ls, out);
	if (s->sets[seat][0][0] | s->sets[seat][0][1]) /* the Supers, in the order of their ids */
		for (int id = seat * SUPER15_SIDE; id < (seat + 1) * SUPER15_SIDE; id++)
			if (s->pieces[id].square != SUPER15_NONE && s->pieces[id].super)
				o = super_moves(s, s->pieces[id].square, seat, o);
	return (int)(o - out);
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
	uint64_t lo = 0, hi = 0;

	line_sets_init(s, seat, &ls);
	for (int v = 1; v < 6; v++)
		lo |= s->sets[seat][v][0], hi |= s->sets[seat][v][1];
	for (int d = 0; d < 8; d++) {
		uint64_t tlo = lo, thi = hi;

		halves_shift(&tlo, &thi, d);
		if ((tlo & ls.stop[0]) | (thi & ls.stop[1]))
			return true;
	}
	for (int id = seat * SUPER15_SIDE; id < (seat + 1) * SUPER15_SIDE; id++)
		if (s->pieces[id].square != SUPER15_NONE && piece_moves(s, id, l) > l)
			return true;
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
