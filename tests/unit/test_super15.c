/*
 * test_super15.c: the Super 1 al 5 rules core against protocol/games/super15/README.md, one
 * test per rule: the board and the opening (D1, D2), ordinary moves (D3:
 * range, blocking, passing over forbidden squares, captures that end the
 * move), scoring (D4), promotion by points and by capturing a Super, the
 * Super's free move and forced line capture (D5), the end conditions (last
 * piece, adjudication after 20 or 100 quiet plies (D6), no moves),
 * resignation, every "check that must hold", and errors that leave the match
 * byte-identical; then the codec (protocol/games/super15/README.md): square names,
 * strict decoding, the view, outcomes and results. Positions are set by hand: pieces[] is written, then
 * super15_state_sync() rebuilds the rest. The legal list (computed on sets of
 * squares) is compared with apply (which walks the moving piece's lines) on
 * every from/to pair of many positions. Last, perft counts pinned in
 * tests/perft/super15.txt.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "rules.h"
#include "match_fixture.h"
#include "perft.h"
#include "tap.h"
#include "wire.h"

#ifndef SUPER15_PERFT_FILE
#define SUPER15_PERFT_FILE QUINTETO_SOURCE_WEB "/../../tests/perft/super15.txt"
#endif

static const char *perft_path = SUPER15_PERFT_FILE;

/* "e4" -> square index; "h10" works. */
static int sq(const char *name)
{
	int rank = name[1] - '0';

	if (name[2] == '0')
		rank = 10;
	return (rank - 1) * SUPER15_FILES + (name[0] - 'a');
}

static void match_new(struct rules_match *m)
{
	static const uint8_t seed[RULES_SEED_SIZE];

	REQUIRE(rules_match_start(m, &rules_game_super15, seed, NULL) == 0);
}

/* An empty board, `seat` to move, nothing quiet yet. */
static void match_empty(struct rules_match *m, int seat)
{
	match_new(m);
	for (int id = 0; id < SUPER15_PIECES; id++) {
		m->s.super15.pieces[id].square = SUPER15_NONE;
		m->s.super15.pieces[id].points = 0;
		m->s.super15.pieces[id].super = 0;
	}
	m->s.super15.turn = (uint8_t)seat;
	super15_state_sync(&m->s.super15);
}

/* Puts piece `id` (its seat by id: 0..15 Light, 16..31 Dark) on `name`. */
static void put(struct rules_match *m, int id, const char *name, int value, int points, int super)
{
	struct super15_piece *p = &m->s.super15.pieces[id];

	p->square = (uint8_t)sq(name);
	p->value = (uint8_t)value;
	p->points = (uint8_t)points;
	p->super = (uint8_t)super;
	super15_state_sync(&m->s.super15);
}

static struct rules_action mv(const char *from, const char *to)
{
	struct rules_action a;

	memset(&a, 0, sizeof(a));
	a.kind = SUPER15_ACT_MOVE;
	a.arg[0] = (int16_t)sq(from);
	a.arg[1] = (int16_t)sq(to);
	return a;
}

static bool legal_has(const struct rules_match *m, int seat, struct rules_action a)
{
	static struct rules_action l[RULES_MAX_LEGAL];
	int n = rules_legal_actions(m, seat, l, RULES_MAX_LEGAL);

	for (int i = 0; i < n; i++)
		if (rules_action_equal(&l[i], &a))
			return true;
	return false;
}

static int legal_count(const struct rules_match *m, int seat)
{
	static struct rules_action l[RULES_MAX_LEGAL];

	return rules_legal_actions(m, seat, l, RULES_MAX_LEGAL);
}

/* Legal moves of `seat` leaving square `from`. */
static int legal_from(const struct rules_match *m, int seat, const char *from)
{
	static struct rules_action l[RULES_MAX_LEGAL];
	int n = rules_legal_actions(m, seat, l, RULES_MAX_LEGAL), k = 0;

	for (int i = 0; i < n; i++)
		k += l[i].arg[0] == sq(from);
	return k;
}

static int apply(struct rules_match *m, int seat, struct rules_action a, struct super15_outcome *o)
{
	union rules_outcome u;
	int err = rules_apply(m, seat, &a, &u);

	if (o)
		*o = u.super15;
	return err;
}

static void test_start(void)
{
	static const int back[8] = { 5, 4, 3, 2, 2, 3, 4, 5 }, front[8] = { 1, 2, 3, 1, 1, 3, 2, 1 };
	const struct super15_state *s;
	struct rules_match m;
	uint8_t seats[RULES_MAX_SEATS];
	struct rules_result r;
	int per_value[2][6] = { { 0 } };

	match_new(&m);
	s = &m.s.super15;
	CHECK(rules_game_find("super15") == &rules_game_super15);
	CHECK_EQ(rules_game_super15.seats, 2);
	CHECK(!rules_game_super15.dice);
	CHECK(strcmp(rules_game_super15.roles[0], "light") == 0);
	CHECK(strcmp(rules_game_super15.roles[1], "dark") == 0);
	CHECK_EQ(rules_to_act(&m, seats), 1);
	CHECK_EQ(seats[0], 0);
	/* Ids: Light 0..7 a1..h1, 8..15 a2..h2; Dark 16..23 a10..h10, 24..31 a9..h9; Dark mirrors Light. */
	for (int f = 0; f < 8; f++) {
		CHECK_EQ(s->pieces[f].square, f);
		CHECK_EQ(s->pieces[8 + f].square, 8 + f);
		CHECK_EQ(s->pieces[16 + f].square, 72 + f);
		CHECK_EQ(s->pieces[24 + f].square, 64 + f);
		CHECK_EQ(s->pieces[f].value, back[f]);
		CHECK_EQ(s->pieces[8 + f].value, front[f]);
		CHECK_EQ(s->pieces[16 + f].value, back[f]);
		CHECK_EQ(s->pieces[24 + f].value, front[f]);
	}
	for (int id = 0; id < SUPER15_PIECES; id++) {
		CHECK_EQ(s->pieces[id].points, 0);
		CHECK_EQ(s->pieces[id].super, 0);
		CHECK_EQ(s->board[s->pieces[id].square], id);
		per_value[id >= 16][s->pieces[id].value]++;
	}
	for (int seat = 0; seat < 2; seat++) {
		CHECK_EQ(per_value[seat][1], 4);
		CHECK_EQ(per_value[seat][2], 4);
		CHECK_EQ(per_value[seat][3], 4);
		CHECK_EQ(per_value[seat][4], 2);
		CHECK_EQ(per_value[seat][5], 2);
		CHECK_EQ(s->count[seat], 16);
	}
	CHECK_EQ(s->quiet, 0);
	/* Worked out by hand in tests/perft/super15.txt: 36 moves, all by the rank-2 pieces. */
	CHECK_EQ(legal_count(&m, 0), 36);
	CHECK_EQ(legal_count(&m, 1), 0);
	CHECK_EQ(legal_from(&m, 0, "c2"), 8);
	CHECK_EQ(legal_from(&m, 0, "a1"), 0);
	rules_result(&m, &r);
	CHECK(!r.over);
	CHECK_EQ(r.winner, -1);
}

static void test_bad_options(void)
{
	struct rules_match m;
	struct rules_options opt = { .max_turns = 10 };
	uint8_t seed[RULES_SEED_SIZE] = { 0 };

	CHECK_EQ(rules_match_start(&m, &rules_game_super15, seed, &opt), RULES_E_BAD_OPTIONS);
	opt.max_turns = 0;
	CHECK_EQ(rules_match_start(&m, &rules_game_super15, seed, &opt), 0);
}

/* Check: a 3 blocked by any piece at distance 2 cannot reach distance 3. */
static void test_check_three_blocked(void)
{
	for (int enemy = 0; enemy < 2; enemy++) {
		struct rules_match m;

		match_empty(&m, 0);
		put(&m, 0, "a1", 1, 0, 0);
		put(&m, 16, "h10", 1, 0, 0);
		put(&m, 17, "g10", 1, 0, 0);
		put(&m, 1, "c3", 3, 0, 0);
		put(&m, enemy ? 18 : 2, "c5", 1, 0, 0);
		CHECK(legal_has(&m, 0, mv("c3", "c4")));
		CHECK_EQ(legal_has(&m, 0, mv("c3", "c5")),
			 enemy); /* an enemy is captured, an own piece not */
		CHECK(!legal_has(&m, 0, mv("c3", "c6")));
		CHECK_EQ(apply(&m, 0, mv("c3", "c6"), NULL), RULES_E_ILLEGAL);
		/* The same piece reaches distance 3 on the open lines. */
		CHECK(legal_has(&m, 0, mv("c3", "f3")));
		CHECK(legal_has(&m, 0, mv("c3", "f6")));
		CHECK(!legal_has(&m, 0, mv("c3", "g3")));
	}
}

/* Check: a piece with 6 points capturing a 5 with 0 points ends with 11 points and is Super. */
static void test_check_six_takes_five(void)
{
	struct rules_match m;
	struct super15_outcome o;
	const struct super15_piece *p;

	match_empty(&m, 0);
	put(&m, 0, "a1", 1, 0, 0);
	put(&m, 1, "b2", 2, 6, 0);
	put(&m, 16, "b4", 5, 0, 0);
	put(&m, 17, "h10", 1, 0, 0);
	put(&m, 18, "g10", 1, 0, 0);
	REQUIRE(apply(&m, 0, mv("b2", "b4"), &o) == 0);
	p = &m.s.super15.pieces[1];
	CHECK_EQ(p->points, 11);
	CHECK_EQ(p->super, 1);
	CHECK_EQ(p->square, sq("b4"));
	CHECK_EQ(m.s.super15.pieces[16].square, SUPER15_NONE);
	CHECK_EQ(o.piece, 1);
	CHECK_EQ(o.captured, 1);
	CHECK_EQ(o.captured_id[0], 16);
	CHECK_EQ(o.captured_sq[0], sq("b4"));
	CHECK_EQ(o.gained, 5);
	CHECK_EQ(o.promoted, 1);
	CHECK_EQ(m.s.super15.count[1], 2);
}

/* Check: a Super looking along enemy, empty, enemy, own captures both enemies and stops on the second. */
static void test_check_super_line(void)
{
	struct rules_match m;
	struct super15_outcome o;

	match_empty(&m, 0);
	put(&m, 0, "b2", 1, 12, 1); /* the Super */
	put(&m, 1, "b7", 1, 0, 0);  /* own, at the line's end */
	put(&m, 16, "b3", 2, 1, 0); /* enemy */
	put(&m, 17, "b5", 4, 0, 0); /* enemy, after the empty b4 */
	put(&m, 18, "h10", 1, 0, 0);
	/* Up the b file: exactly one move, to b5; not b3 (short), b4 (empty between), b6 (beyond). */
	CHECK(legal_has(&m, 0, mv("b2", "b5")));
	CHECK(!legal_has(&m, 0, mv("b2", "b3")));
	CHECK(!legal_has(&m, 0, mv("b2", "b4")));
	CHECK(!legal_has(&m, 0, mv("b2", "b6")));
	CHECK_EQ(apply(&m, 0, mv("b2", "b3"), NULL), RULES_E_ILLEGAL);
	REQUIRE(apply(&m, 0, mv("b2", "b5"), &o) == 0);
	CHECK_EQ(o.captured, 2);
	CHECK_EQ(o.captured_id[0], 16); /* nearest first */
	CHECK_EQ(o.captured_sq[0], sq("b3"));
	CHECK_EQ(o.captured_id[1], 17);
	CHECK_EQ(o.captured_sq[1], sq("b5"));
	CHECK_EQ(o.gained, 2 + 1 + 4); /* D4: each value plus its points */
	CHECK_EQ(o.promoted, 0);       /* already Super */
	CHECK_EQ(m.s.super15.pieces[0].points, 12 + 7);
	CHECK_EQ(m.s.super15.pieces[0].square, sq("b5"));
	CHECK_EQ(m.s.super15.board[sq("b2")], SUPER15_NONE);
	CHECK_EQ(m.s.super15.board[sq("b3")], SUPER15_NONE);
	CHECK_EQ(m.s.super15.board[sq("b5")], 0);
	CHECK_EQ(m.s.super15.count[1], 1);
}

/* Check: no move ends on d5 (nor on the other forbidden squares), though pieces pass over them. */
static void test_check_no_forbidden(void)
{
	static const char *const forbidden[] = { "d5", "e5", "d6", "e6" };
	static struct rules_action l[RULES_MAX_LEGAL];
	struct rules_match m;
	int n;

	match_empty(&m, 0);
	put(&m, 0, "c4", 5, 0, 0); /* next to d5 */
	put(&m, 1, "f7", 3, 0, 0); /* next to e6 */
	put(&m, 2, "d3", 2, 0, 0); /* two below d5 */
	put(&m, 3, "a6", 1, 0, 1); /* a Super along rank 6 */
	put(&m, 16, "h10", 1, 0, 0);
	put(&m, 17, "g10", 1, 0, 0);
	n = rules_legal_actions(&m, 0, l, RULES_MAX_LEGAL);
	for (int i = 0; i < n; i++)
		for (int k = 0; k < 4; k++)
			CHECK(l[i].arg[1] != sq(forbidden[k]));
	CHECK_EQ(apply(&m, 0, mv("c4", "d5"), NULL), RULES_E_ILLEGAL);
	CHECK_EQ(apply(&m, 0, mv("d3", "d5"), NULL), RULES_E_ILLEGAL);
	CHECK_EQ(apply(&m, 0, mv("a6", "d6"), NULL), RULES_E_ILLEGAL);
	/* Passing over: c4 -> e6 goes over d5 (diagonal), d3 -> d4 only (d5 ends the 2's range). */
	CHECK(legal_has(&m, 0, mv("c4", "f7")) == false); /* own piece at f7 */
	CHECK(legal_has(&m, 0, mv("c4", "c9")));
	CHECK(legal_has(&m, 0, mv("f7", "c4")) == false);
	CHECK(legal_has(&m, 0, mv("a6", "f6"))); /* the Super passes d6 and e6 */
	CHECK(legal_has(&m, 0, mv("a6", "c6")));
}

/* D3: a piece of value v goes 1..v squares along the eight lines on an open board. */
static void test_ordinary_range(void)
{
	/*
	 * From e4 on an empty board, per line N NE E SE S SW W NW the squares to the
	 * edge are 6 3 3 3 3 3 4 4; e5 and e6 (N) and d5 (NW) are forbidden stops.
	 * v=1: 0+1+1+1+1+1+1+0 = 6; v=2: 0+2+2+2+2+2+2+1 = 13; v=3: 1+3*6+2 = 21;
	 * v=4: 2+3*5+4+3 = 24; v=5: 3+3*5+4+3 = 25.
	 */
	static const int want[6] = { 0, 6, 13, 21, 24, 25 };

	for (int v = 1; v <= 5; v++) {
		struct rules_match m;

		match_empty(&m, 0);
		put(&m, 0, "e4", v, 0, 0);
		put(&m, 16, "a10", 1, 0, 0);
		put(&m, 17, "b10", 1, 0, 0);
		CHECK_EQ(legal_count(&m, 0), want[v]);
		CHECK_EQ(legal_has(&m, 0, mv("e4", "e7")), v >= 3);
		CHECK(!legal_has(&m, 0, mv("e4", "e5")));
		CHECK(!legal_has(&m, 0, mv("e4", "d5")));
		CHECK_EQ(legal_has(&m, 0, mv("e4", "c6")), v >= 2);
		CHECK_EQ(legal_has(&m, 0, mv("e4", "h4")), v >= 3);
		CHECK_EQ(legal_has(&m, 0, mv("e4", "e1")), v >= 3);
		CHECK_EQ(legal_has(&m, 0, mv("e4", "a8")), v >= 4);
		CHECK_EQ(legal_has(&m, 0, mv("e4", "e9")), v >= 5);
		CHECK(!legal_has(&m, 0, mv("e4", "e10")));
		CHECK(!legal_has(&m, 0, mv("e4", "f6"))); /* not on a line */
	}
}

/* D3: a capture ends the move: nothing beyond an enemy, and an own piece blocks. */
static void test_capture_ends_move(void)
{
	struct rules_match m;
	struct super15_outcome o;

	match_empty(&m, 0);
	put(&m, 0, "a1", 5, 0, 0);
	put(&m, 1, "a3", 1, 0, 0);  /* own, blocks the file */
	put(&m, 16, "c3", 1, 0, 0); /* enemy on the diagonal */
	put(&m, 17, "h10", 1, 0, 0);
	put(&m, 18, "g10", 1, 0, 0);
	CHECK(legal_has(&m, 0, mv("a1", "a2")));
	CHECK(!legal_has(&m, 0, mv("a1", "a3")));
	CHECK(!legal_has(&m, 0, mv("a1", "a4")));
	CHECK(legal_has(&m, 0, mv("a1", "b2")));
	CHECK(legal_has(&m, 0, mv("a1", "c3")));
	CHECK(!legal_has(&m, 0, mv("a1", "d4")));
	REQUIRE(apply(&m, 0, mv("a1", "c3"), &o) == 0);
	CHECK_EQ(o.captured, 1);
	CHECK_EQ(o.gained, 1);
	CHECK_EQ(m.s.super15.pieces[0].points, 1);
	CHECK_EQ(m.s.super15.quiet, 0);
	CHECK_EQ(m.s.super15.turn, 1);
}

/* D4: the gain is the captured piece's value plus its points; points accumulate. */
static void test_points_accumulate(void)
{
	struct rules_match m;
	struct super15_outcome o;

	match_empty(&m, 0);
	put(&m, 0, "c3", 2, 3, 0);
	put(&m, 1, "a1", 1, 0, 0);
	put(&m, 16, "c4", 1, 4, 0);
	put(&m, 17, "h10", 1, 0, 0);
	put(&m, 18, "g10", 1, 0, 0);
	put(&m, 19, "f10", 1, 0, 0);
	REQUIRE(apply(&m, 0, mv("c3", "c4"), &o) == 0);
	CHECK_EQ(o.gained, 5);
	CHECK_EQ(m.s.super15.pieces[0].points, 8);
	CHECK_EQ(m.s.super15.pieces[0].super, 0); /* 8 < 10 */
	CHECK_EQ(o.promoted, 0);
	/* The captured piece keeps its value and points, off the board. */
	CHECK_EQ(m.s.super15.pieces[16].points, 4);
	CHECK_EQ(m.s.super15.pieces[16].square, SUPER15_NONE);
	/* Exactly 10 makes a Super. */
	REQUIRE(apply(&m, 1, mv("h10", "h9"), NULL) == 0);
	put(&m, 20, "c5", 2, 0, 0);
	REQUIRE(apply(&m, 0, mv("c4", "c5"), &o) == 0);
	CHECK_EQ(m.s.super15.pieces[0].points, 10);
	CHECK_EQ(m.s.super15.pieces[0].super, 1);
	CHECK_EQ(o.promoted, 1);
}

/*
 * Capturing a Super makes a piece Super whatever its points. (In play a Super
 * always has 10 points or more, so the capture would also pass 10: the Super
 * here has 0 points by hand, to tell the two rules apart.)
 */
static void test_promotion_by_capturing_super(void)
{
	struct rules_match m;
	struct super15_outcome o;

	match_empty(&m, 0);
	put(&m, 0, "c3", 1, 0, 0);
	put(&m, 1, "a1", 1, 0, 0);
	put(&m, 16, "d4", 2, 0, 1);
	put(&m, 17, "d9", 1, 0, 0);
	put(&m, 18, "g10", 1, 0, 0);
	REQUIRE(apply(&m, 0, mv("c3", "d4"), &o) == 0);
	CHECK_EQ(m.s.super15.pieces[0].points, 2);
	CHECK_EQ(m.s.super15.pieces[0].super, 1);
	CHECK_EQ(o.promoted, 1);
	/* Super is permanent and moves as a Super from now on. */
	REQUIRE(apply(&m, 1, mv("g10", "g9"), NULL) == 0);
	CHECK(legal_has(&m, 0, mv("d4", "d9")));  /* up the file to the enemy, over d5 d6 */
	CHECK(!legal_has(&m, 0, mv("d4", "d8"))); /* not short of it */
	CHECK(legal_has(&m, 0, mv("d4", "h8")));  /* a free diagonal, any distance */
	CHECK(legal_has(&m, 0, mv("d4", "f6")));
	CHECK(!legal_has(&m, 0, mv("d4", "e5"))); /* forbidden */
}

/* D5: a Super with no enemy on a line may stop on any empty allowed square up to its own piece or the edge.
 */
static void test_super_free_move(void)
{
	struct rules_match m;

	match_empty(&m, 0);
	put(&m, 0, "a5", 1, 10, 1);
	put(&m, 1, "a8", 1, 0, 0);
	put(&m, 16, "h10", 1, 0, 0);
	put(&m, 17, "h9", 1, 0, 0);
	/* East along rank 5: b5 c5 (d5 e5 forbidden, passed) f5 g5 h5. */
	CHECK(legal_has(&m, 0, mv("a5", "b5")));
	CHECK(legal_has(&m, 0, mv("a5", "c5")));
	CHECK(!legal_has(&m, 0, mv("a5", "d5")));
	CHECK(!legal_has(&m, 0, mv("a5", "e5")));
	CHECK(legal_has(&m, 0, mv("a5", "f5")));
	CHECK(legal_has(&m, 0, mv("a5", "h5")));
	/* North up to its own piece on a8 (excluded). */
	CHECK(legal_has(&m, 0, mv("a5", "a7")));
	CHECK(!legal_has(&m, 0, mv("a5", "a8")));
	CHECK(!legal_has(&m, 0, mv("a5", "a9")));
	/* East 5 (b5 c5 f5 g5 h5), north 2, south 4, NE b6 c7 d8 e9 f10: 5, SE b4 c3 d2 e1: 4. */
	CHECK_EQ(legal_from(&m, 0, "a5"), 5 + 2 + 4 + 5 + 4);
}

/* D5: on a line holding enemies the Super must capture all of them; across forbidden squares too. */
static void test_super_forced_capture(void)
{
	struct rules_match m;
	struct super15_outcome o;

	match_empty(&m, 0);
	put(&m, 0, "a5", 1, 10, 1);
	put(&m, 1, "a1", 1, 0, 0);
	put(&m, 16, "c5", 3, 2, 0);
	put(&m, 17, "g5", 1, 0, 0);
	put(&m, 18, "h10", 1, 0, 0);
	/* East: only g5 (the farthest enemy), passing c5 and the forbidden d5 e5. */
	CHECK(legal_has(&m, 0, mv("a5", "g5")));
	CHECK(!legal_has(&m, 0, mv("a5", "b5")));
	CHECK(!legal_has(&m, 0, mv("a5", "c5")));
	CHECK(!legal_has(&m, 0, mv("a5", "f5")));
	CHECK(!legal_has(&m, 0, mv("a5", "h5")));
	REQUIRE(apply(&m, 0, mv("a5", "g5"), &o) == 0);
	CHECK_EQ(o.captured, 2);
	CHECK_EQ(o.gained, 3 + 2 + 1);
	CHECK_EQ(m.s.super15.pieces[0].points, 16);
	/* Dark is left with one piece: it loses at once. */
	{
		struct rules_result r;

		rules_result(&m, &r);
		CHECK(r.over);
		CHECK_EQ(r.winner, 0);
		CHECK_EQ(r.reason, RULES_REASON_LAST_PIECE);
		CHECK(!r.draw);
	}
}

/* End: a seat left with one piece (or none) loses at once, whoever has more points. */
static void test_last_piece(void)
{
	struct rules_match m;
	struct rules_result r;
	uint8_t seats[RULES_MAX_SEATS];

	match_empty(&m, 1);
	put(&m, 0, "a1", 1, 0, 0);
	put(&m, 1, "b1", 1, 0, 0);
	put(&m, 16, "a3", 2, 30, 0);
	put(&m, 17, "h10", 1, 0, 0);
	REQUIRE(apply(&m, 1, mv("a3", "a1"), NULL) == 0);
	rules_result(&m, &r);
	CHECK(r.over);
	CHECK_EQ(r.winner, 1);
	CHECK_EQ(r.reason, RULES_REASON_LAST_PIECE);
	CHECK_EQ(rules_to_act(&m, seats), 0);
	CHECK_EQ(legal_count(&m, 0), 0);
	CHECK_EQ(apply(&m, 0, mv("b1", "b2"), NULL), RULES_E_GAME_OVER);
	/* Two pieces left is not the end. */
	match_empty(&m, 1);
	put(&m, 0, "a1", 1, 0, 0);
	put(&m, 1, "b1", 1, 0, 0);
	put(&m, 2, "h1", 1, 0, 0);
	put(&m, 16, "a3", 2, 0, 0);
	put(&m, 17, "h10", 1, 0, 0);
	REQUIRE(apply(&m, 1, mv("a3", "a1"), NULL) == 0);
	rules_result(&m, &r);
	CHECK(!r.over);
}

/*
 * `light` and `dark` pieces of value 1 (the first of each with p0 and p1
 * points), `quiet_before` quiet plies so far, then one more quiet ply by Light.
 */
static void adjudication_case(int light, int dark, int quiet_before, int p0, int p1, struct rules_result *r)
{
	struct rules_match m;

	memset(r, 0, sizeof(*r)); /* not over, should a REQUIRE below return early */
	match_empty(&m, 0);
	for (int i = 0; i < light; i++) {
		const char *sqs[] = { "a1", "c1", "e1", "g1" };

		put(&m, i, sqs[i], 1, i == 0 ? p0 : 0, 0);
	}
	for (int i = 0; i < dark; i++) {
		const char *sqs[] = { "a10", "c10", "e10", "g10" };

		put(&m, 16 + i, sqs[i], 1, i == 0 ? p1 : 0, 0);
	}
	m.s.super15.quiet = (uint8_t)quiet_before;
	REQUIRE(apply(&m, 0, mv("a1", "a2"), NULL) == 0);
	rules_result(&m, r);
}

/* D6: 20 quiet plies with equal counts of at most three end the match on points. */
static void test_adjudication_small(void)
{
	struct rules_result r;

	adjudication_case(3, 3, 19, 5, 2, &r);
	CHECK(r.over);
	CHECK_EQ(r.reason, RULES_REASON_ADJUDICATION);
	CHECK_EQ(r.winner, 0);
	CHECK(!r.draw);
	adjudication_case(2, 2, 19, 1, 4, &r);
	CHECK(r.over);
	CHECK_EQ(r.winner, 1);
	adjudication_case(2, 2, 19, 3, 3, &r);
	CHECK(r.over);
	CHECK(r.draw);
	CHECK_EQ(r.winner, -1);
	CHECK_EQ(r.reason, RULES_REASON_ADJUDICATION);
	/* Not yet at 19 quiet plies; not with unequal counts; not with four each. */
	adjudication_case(3, 3, 18, 5, 2, &r);
	CHECK(!r.over);
	adjudication_case(3, 2, 19, 5, 2, &r);
	CHECK(!r.over);
	adjudication_case(4, 4, 19, 5, 2, &r);
	CHECK(!r.over);
}

/* D6: 100 quiet plies end any match; a capture resets the count. */
static void test_adjudication_hundred(void)
{
	struct rules_result r;
	struct rules_match m;

	adjudication_case(4, 3, 99, 0, 1, &r);
	CHECK(r.over);
	CHECK_EQ(r.reason, RULES_REASON_ADJUDICATION);
	CHECK_EQ(r.winner, 1);
	adjudication_case(4, 3, 98, 0, 1, &r);
	CHECK(!r.over);
	/* Quiet counts plies from the start; a capture sets it back to 0. */
	match_new(&m);
	REQUIRE(apply(&m, 0, mv("a2", "a3"), NULL) == 0);
	CHECK_EQ(m.s.super15.quiet, 1);
	REQUIRE(apply(&m, 1, mv("a9", "a8"), NULL) == 0);
	CHECK_EQ(m.s.super15.quiet, 2);
	put(&m, 24, "a4", 1, 0, 0);
	REQUIRE(apply(&m, 0, mv("a3", "a4"), NULL) == 0);
	CHECK_EQ(m.s.super15.quiet, 0);
}

/*
 * D6: adjudication counts the points "on the pieces still on the board": a
 * captured piece keeps its points (the outcome and the archive show them),
 * but they no longer count for its seat.
 */
static void test_adjudication_counts_board_only(void)
{
	struct rules_match m;
	struct rules_result r;

	match_empty(&m, 0);
	put(&m, 0, "a1", 1, 3, 0);
	put(&m, 1, "c1", 1, 0, 0);
	put(&m, 16, "a10", 1, 1, 0);
	put(&m, 17, "c10", 1, 0, 0);
	put(&m, 18, "e10", 2, 40, 0); /* taken earlier: off the board with its 40 points */
	m.s.super15.pieces[18].square = SUPER15_NONE;
	put(&m, 2, "e1", 2, 5, 0); /* the same for Light, with fewer */
	m.s.super15.pieces[2].square = SUPER15_NONE;
	super15_state_sync(&m.s.super15);
	m.s.super15.quiet = 19;
	REQUIRE(apply(&m, 0, mv("a1", "a2"), NULL) == 0);
	rules_result(&m, &r);
	CHECK(r.over);
	CHECK_EQ(r.reason, RULES_REASON_ADJUDICATION);
	CHECK_EQ(r.winner, 0); /* 3 against 1 on the board; Dark's 40 were captured */
	CHECK(!r.draw);
}

/*
 * A seat with no move on its turn loses. The spec notes this cannot arise on
 * this board with pieces of value 1..5 (a seat keeps at least two pieces, and
 * some piece can always step or capture), so the position uses pieces of
 * value 0 (which never move) to reach the rule.
 */
static void test_no_moves(void)
{
	struct rules_match m;
	struct rules_result r;

	match_empty(&m, 0);
	put(&m, 0, "a1", 1, 0, 0);
	put(&m, 1, "c1", 1, 0, 0);
	put(&m, 16, "a10", 0, 0, 0);
	put(&m, 17, "h10", 0, 0, 0);
	REQUIRE(apply(&m, 0, mv("a1", "a2"), NULL) == 0);
	rules_result(&m, &r);
	CHECK(r.over);
	CHECK_EQ(r.winner, 0);
	CHECK_EQ(r.reason, RULES_REASON_NO_MOVES);
	/* A Dark piece that can move keeps the match going. */
	match_empty(&m, 0);
	put(&m, 0, "a1", 1, 0, 0);
	put(&m, 1, "c1", 1, 0, 0);
	put(&m, 16, "a10", 0, 0, 0);
	put(&m, 17, "h10", 1, 0, 0);
	REQUIRE(apply(&m, 0, mv("a1", "a2"), NULL) == 0);
	rules_result(&m, &r);
	CHECK(!r.over);
	/*
	 * Nor does a piece whose only moves pass over forbidden squares: d4 (a 3)
	 * walled in by pieces that never move, its open neighbours d5 and e5
	 * forbidden, still goes d4-d7, d4-f6 and d4-g7.
	 */
	match_empty(&m, 0);
	put(&m, 0, "a1", 1, 0, 0);
	put(&m, 1, "h1", 1, 0, 0);
	put(&m, 16, "d4", 3, 0, 0);
	{
		static const char *const walls[] = { "c3", "d3", "e3", "c4", "e4", "c5" };

		for (int i = 0; i < 6; i++)
			put(&m, 17 + i, walls[i], 0, 0, 0);
	}
	REQUIRE(apply(&m, 0, mv("a1", "a2"), NULL) == 0);
	rules_result(&m, &r);
	CHECK(!r.over);
	CHECK(legal_has(&m, 1, mv("d4", "d7")));
	CHECK(legal_has(&m, 1, mv("d4", "f6")));
	CHECK(legal_has(&m, 1, mv("d4", "g7")));
	CHECK_EQ(legal_count(&m, 1), 3);
	/* The same with f6 walled too and a Light piece on d7: the one move left is a capture over d5 d6. */
	match_empty(&m, 0);
	put(&m, 0, "a1", 1, 0, 0);
	put(&m, 1, "h1", 1, 0, 0);
	put(&m, 2, "d7", 1, 0, 0);
	put(&m, 16, "d4", 3, 0, 0);
	{
		static const char *const walls[] = { "c3", "d3", "e3", "c4", "e4", "c5", "f6" };

		for (int i = 0; i < 7; i++)
			put(&m, 17 + i, walls[i], 0, 0, 0);
	}
	REQUIRE(apply(&m, 0, mv("a1", "a2"), NULL) == 0);
	rules_result(&m, &r);
	CHECK(!r.over);
	CHECK(legal_has(&m, 1, mv("d4", "d7")));
	CHECK_EQ(legal_count(&m, 1), 1);
}

static void test_event(void)
{
	for (int seat = 0; seat < 2; seat++) {
		struct rules_match m, before;
		union rules_outcome u;
		struct rules_result r;
		int kind = seat ? RULES_EVENT_FORFEIT : RULES_EVENT_RESIGN;
		uint8_t reason = seat ? RULES_REASON_FORFEIT : RULES_REASON_RESIGN;

		match_new(&m);
		REQUIRE(apply(&m, 0, mv("b2", "b4"), NULL) == 0);
		memcpy(&before, &m, sizeof(m));
		CHECK_EQ(rules_event(&m, 2, kind, &u), RULES_E_BAD_SEAT);
		CHECK_EQ(rules_event(&m, seat, 0, &u), RULES_E_ILLEGAL);
		CHECK(memcmp(&m, &before, sizeof(m)) == 0);
		/* Either seat, to move or not. */
		REQUIRE(rules_event(&m, seat, kind, &u) == 0);
		CHECK_EQ(u.super15.captured, 0);
		CHECK_EQ(m.ply, 1);
		rules_result(&m, &r);
		CHECK(r.over);
		CHECK(!r.draw);
		CHECK_EQ(r.winner, seat ^ 1);
		CHECK_EQ(r.reason, reason);
		memcpy(&before, &m, sizeof(m));
		CHECK_EQ(rules_event(&m, seat ^ 1, kind, &u), RULES_E_GAME_OVER);
		CHECK_EQ(apply(&m, 1, mv("b9", "b7"), NULL), RULES_E_GAME_OVER);
		CHECK(memcmp(&m, &before, sizeof(m)) == 0);
	}
}

/* Every refused call leaves the match byte-identical. */
static void test_errors_untouched(void)
{
	struct rules_match m, before;
	struct rules_action a;

	match_new(&m);
	memcpy(&before, &m, sizeof(m));
	CHECK_EQ(apply(&m, 1, mv("b9", "b7"), NULL), RULES_E_NOT_TO_ACT);
	CHECK_EQ(apply(&m, 2, mv("b2", "b4"), NULL), RULES_E_BAD_SEAT);
	CHECK_EQ(apply(&m, -1, mv("b2", "b4"), NULL), RULES_E_BAD_SEAT);
	CHECK_EQ(apply(&m, 0, mv("b2", "b5"), NULL), RULES_E_ILLEGAL); /* beyond a 2's range */
	CHECK_EQ(apply(&m, 0, mv("b2", "c4"), NULL), RULES_E_ILLEGAL); /* not on a line */
	CHECK_EQ(apply(&m, 0, mv("b2", "b2"), NULL), RULES_E_ILLEGAL); /* not a move */
	CHECK_EQ(apply(&m, 0, mv("b2", "c2"), NULL), RULES_E_ILLEGAL); /* onto its own piece */
	CHECK_EQ(apply(&m, 0, mv("a1", "a3"), NULL), RULES_E_ILLEGAL); /* blocked */
	CHECK_EQ(apply(&m, 0, mv("b4", "b5"), NULL), RULES_E_ILLEGAL); /* empty square */
	CHECK_EQ(apply(&m, 0, mv("b9", "b7"), NULL), RULES_E_ILLEGAL); /* the other seat's piece */
	a = mv("b2", "b4");
	a.kind = 2;
	CHECK_EQ(apply(&m, 0, a, NULL), RULES_E_ILLEGAL);
	a = mv("b2", "b4");
	a.arg[2] = 1;
	CHECK_EQ(apply(&m, 0, a, NULL), RULES_E_ILLEGAL);
	a = mv("b2", "b4");
	a.pad = 1;
	CHECK_EQ(apply(&m, 0, a, NULL), RULES_E_ILLEGAL);
	a = mv("b2", "b4");
	a.arg[0] = -1;
	CHECK_EQ(apply(&m, 0, a, NULL), RULES_E_ILLEGAL);
	a.arg[0] = 80;
	CHECK_EQ(apply(&m, 0, a, NULL), RULES_E_ILLEGAL);
	a.arg[0] = RULES_ARG_NONE;
	CHECK_EQ(apply(&m, 0, a, NULL), RULES_E_ILLEGAL);
	a = mv("b2", "b4");
	a.arg[1] = 80 + 9; /* would be b11 */
	CHECK_EQ(apply(&m, 0, a, NULL), RULES_E_ILLEGAL);
	CHECK(memcmp(&m, &before, sizeof(m)) == 0);
	CHECK_EQ(apply(&m, 0, mv("b2", "b4"), NULL), 0);
	CHECK_EQ(m.ply, 1);
	CHECK_EQ(m.s.super15.turn, 1);
}

/* The legal list is what rules_legal_actions promises: distinct, capped, the true count. */
static void test_legal_distinct_and_cap(void)
{
	static struct rules_action l[RULES_MAX_LEGAL];
	struct rules_action small[3];
	struct rules_match m;
	int n;

	match_new(&m);
	n = rules_legal_actions(&m, 0, l, RULES_MAX_LEGAL);
	CHECK_EQ(n, 36);
	for (int i = 0; i < n; i++)
		for (int j = 0; j < i; j++)
			CHECK(!rules_action_equal(&l[i], &l[j]));
	memset(small, 0xab, sizeof(small));
	CHECK_EQ(rules_legal_actions(&m, 0, small, 2), 36);
	CHECK(rules_action_equal(&small[0], &l[0]));
	CHECK(rules_action_equal(&small[1], &l[1]));
	CHECK_EQ(small[2].kind, 0xab); /* untouched */
	CHECK_EQ(rules_legal_actions(&m, 0, NULL, 0), 36);
	CHECK_EQ(rules_legal_actions(&m, 0, small, -1), 36);
	CHECK_EQ(rules_legal_actions(&m, 1, l, RULES_MAX_LEGAL), 0);
	CHECK_EQ(rules_legal_actions(&m, 2, l, RULES_MAX_LEGAL), 0);
}

/*
 * The legal list and apply agree on every from/to pair: along 40 random
 * matches, at every 9th ply, each of the 80 x 80 pairs applies on a copy
 * exactly when it is in the list. The board stays consistent all along.
 */
static void test_legal_matches_apply(void)
{
	static struct rules_action l[RULES_MAX_LEGAL];
	struct fixture_lcg x = { 7 };
	long checked = 0, supers = 0;

	for (int game = 0; game < 40; game++) {
		struct rules_match m;

		match_new(&m);
		for (int ply = 0; ply < 600; ply++) {
			uint8_t seats[RULES_MAX_SEATS];
			int n, seat;

			if (rules_to_act(&m, seats) != 1)
				break;
			seat = seats[0];
			n = rules_legal_actions(&m, seat, l, RULES_MAX_LEGAL);
			REQUIRE(n > 0 && n <= RULES_MAX_LEGAL);
			if (ply % 9 == 0) {
				int accepted = 0;

				for (int from = 0; from < SUPER15_SQUARES; from++)
					for (int to = 0; to < SUPER15_SQUARES; to++) {
						struct rules_match before = m;
						struct rules_action a;
						bool in = false;
						int err;

						memset(&a, 0, sizeof(a));
						a.kind = SUPER15_ACT_MOVE;
						a.arg[0] = (int16_t)from;
						a.arg[1] = (int16_t)to;
						for (int i = 0; i < n && !in; i++)
							in = rules_action_equal(&l[i], &a);
						err = rules_apply(&m, seat, &a, NULL);
						CHECK_EQ(err == 0, in);
						accepted += err == 0;
						if (err == 0)
							m = before;
						else
							CHECK(memcmp(&m, &before, sizeof(m)) == 0);
					}
				CHECK_EQ(accepted, n);
				checked++;
			}
			for (int id = 0; id < SUPER15_PIECES; id++)
				supers += m.s.super15.pieces[id].super &&
					  m.s.super15.pieces[id].square != SUPER15_NONE;
			REQUIRE(rules_apply(&m, seat, &l[fixture_next(&x) % (uint32_t)n], NULL) == 0);
		}
	}
	printf("# %ld positions checked pair by pair, %ld Super-plies\n", checked, supers);
	CHECK(checked > 800);
	CHECK(supers > 1000); /* the Super's lines were exercised too */
}

#define PLAYOUTS 3000

/*
 * Thousands of random matches (seeded, so the figures are the same on every
 * run): every match ends (a bound far above the longest), the board agrees
 * with the pieces after every ply, no piece is ever on two squares nor two on
 * one, and the points of every piece only grow. Prints how long matches are
 * and how they end: protocol/games/super15/README.md quotes these lines.
 */
static void test_random_playouts(void)
{
	static struct rules_action l[RULES_MAX_LEGAL];
	long reasons[RULES_REASON_ADJUDICATION + 1] = { 0 }, wins[3] = { 0 }, plies = 0;
	int shortest = 1 << 30, longest = 0, by_100[12] = { 0 };
	struct fixture_lcg x = { 2026 };

	for (int game = 0; game < PLAYOUTS; game++) {
		uint8_t seed[RULES_SEED_SIZE] = { 0 }, seats[RULES_MAX_SEATS];
		struct rules_match m;
		struct rules_result r;

		memcpy(seed, &game, sizeof(game));
		REQUIRE(rules_match_start(&m, &rules_game_super15, seed, NULL) == 0);
		while (rules_to_act(&m, seats) == 1 && m.ply < 5000) {
			struct super15_state before = m.s.super15, copy;
			int n = rules_legal_actions(&m, seats[0], l, RULES_MAX_LEGAL);

			REQUIRE(n > 0 && n <= RULES_MAX_LEGAL);
			REQUIRE(rules_apply(&m, seats[0], &l[fixture_next(&x) % (uint32_t)n], NULL) == 0);
			copy = m.s.super15;
			super15_state_sync(&copy);
			REQUIRE(memcmp(&copy, &m.s.super15, sizeof(copy)) == 0);
			for (int id = 0; id < SUPER15_PIECES; id++)
				REQUIRE(m.s.super15.pieces[id].points >= before.pieces[id].points);
		}
		rules_result(&m, &r);
		REQUIRE(r.over);
		reasons[r.reason]++;
		wins[r.draw ? 2 : r.winner]++;
		plies += m.ply;
		shortest = m.ply < (uint32_t)shortest ? (int)m.ply : shortest;
		longest = m.ply > (uint32_t)longest ? (int)m.ply : longest;
		by_100[m.ply / 100 < 11 ? m.ply / 100 : 11]++;
	}
	printf("# random play: %d matches, %.1f plies on average, shortest %d, longest %d\n", PLAYOUTS,
	       (double)plies / PLAYOUTS, shortest, longest);
	printf("# plies 0-99 %d, 100-199 %d, 200-299 %d, 300-399 %d, 400-499 %d, 500-599 %d, 600+ %d\n",
	       by_100[0], by_100[1], by_100[2], by_100[3], by_100[4], by_100[5],
	       by_100[6] + by_100[7] + by_100[8] + by_100[9] + by_100[10] + by_100[11]);
	printf("# ends: last_piece %ld, adjudication %ld, no_moves %ld; light %ld, dark %ld, draws %ld\n",
	       reasons[RULES_REASON_LAST_PIECE], reasons[RULES_REASON_ADJUDICATION],
	       reasons[RULES_REASON_NO_MOVES], wins[0], wins[1], wins[2]);
	CHECK_EQ(reasons[RULES_REASON_LAST_PIECE] + reasons[RULES_REASON_ADJUDICATION] +
			 reasons[RULES_REASON_NO_MOVES],
		 PLAYOUTS);
	CHECK(longest < 5000);
}

/* Compact JSON text of `j` (taken), for comparisons; the caller frees it. */
static char *text_of(json_t *j)
{
	char *s = j ? json_dumps(j, JSON_COMPACT | JSON_SORT_KEYS) : NULL;

	json_decref(j);
	return s;
}

static bool json_is(json_t *got_take, const char *want)
{
	json_t *w = json_loads(want, JSON_DECODE_ANY, NULL);
	bool eq = got_take && w && json_equal(got_take, w);

	if (!eq) {
		char *g = text_of(json_incref(got_take)), *x = text_of(json_incref(w));

		printf("# got  %s\n# want %s\n", g ? g : "NULL", x ? x : "NULL");
		free(g);
		free(x);
	}
	json_decref(got_take);
	json_decref(w);
	return eq;
}

/* Every square's name round-trips; each move of the opening encodes as {"from","to"}. */
static void test_codec_actions(void)
{
	const struct wire_game *c = wire_game_find("super15");
	struct rules_action a, b;

	REQUIRE(c != NULL);
	CHECK(c->options && c->options[0].key == NULL); /* no options */
	for (int from = 0; from < SUPER15_SQUARES; from++) {
		int to = SUPER15_SQUARES - 1 - from;
		json_t *j;

		memset(&a, 0, sizeof(a));
		a.kind = SUPER15_ACT_MOVE;
		a.arg[0] = (int16_t)from;
		a.arg[1] = (int16_t)to;
		j = c->action_encode(&a);
		REQUIRE(j != NULL);
		CHECK_EQ(c->action_decode(j, &b), 0);
		CHECK(rules_action_equal(&a, &b));
		json_decref(j);
	}
	CHECK(json_is(c->action_encode(&(struct rules_action){ .kind = 1, .arg = { 0, 79 } }),
		      "{\"from\":\"a1\",\"to\":\"h10\"}"));
	CHECK(json_is(c->action_encode(&(struct rules_action){ .kind = 1, .arg = { 9, 63 } }),
		      "{\"from\":\"b2\",\"to\":\"h8\"}"));
	CHECK(c->action_encode(&(struct rules_action){ .kind = 2 }) == NULL);
	CHECK(c->action_encode(&(struct rules_action){ .kind = 1, .arg = { 80, 0 } }) == NULL);
}

/* Anything but exactly {"from":square,"to":square} is illegal_action. */
static void test_codec_decode_strict(void)
{
	static const char *const bad[] = {
		"{}",
		"[]",
		"null",
		"{\"from\":\"a2\"}",
		"{\"to\":\"a3\"}",
		"{\"from\":\"a2\",\"to\":\"a3\",\"x\":1}",
		"{\"from\":\"a2\",\"too\":\"a3\"}",
		"{\"from\":\"i2\",\"to\":\"a3\"}",
		"{\"from\":\"a0\",\"to\":\"a3\"}",
		"{\"from\":\"a11\",\"to\":\"a3\"}",
		"{\"from\":\"a100\",\"to\":\"a3\"}", /* not a1 with a tail */
		"{\"from\":\"a2\",\"to\":\"h109\"}",
		"{\"from\":\"a02\",\"to\":\"a3\"}",
		"{\"from\":\"A2\",\"to\":\"a3\"}",
		"{\"from\":\"a2 \",\"to\":\"a3\"}",
		"{\"from\":\"a\",\"to\":\"a3\"}",
		"{\"from\":\"\",\"to\":\"a3\"}",
		"{\"from\":\"a1\\u0000\",\"to\":\"a3\"}",
		"{\"from\":8,\"to\":16}",
		"{\"from\":\"a2\",\"to\":null}",
		"{\"from\":[\"a2\"],\"to\":\"a3\"}",
		"{\"roll\":true}",
	};
	const struct wire_game *c = wire_game_find("super15");
	struct rules_action a;

	REQUIRE(c != NULL);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		json_t *j = json_loads(bad[i], JSON_DECODE_ANY | JSON_ALLOW_NUL, NULL);

		if (c->action_decode(j, &a) != WIRE_E_ILLEGAL_ACTION)
			printf("# accepted %s\n", bad[i]);
		CHECK_EQ(c->action_decode(j, &a), WIRE_E_ILLEGAL_ACTION);
		json_decref(j);
	}
}

/* The view lists the pieces on the board by id with their square, value, points and flag, and quiet. */
static void test_codec_view_outcome_result(void)
{
	const struct wire_game *c = wire_game_find("super15");
	struct rules_match m;
	union rules_outcome u;
	struct rules_result r;
	json_t *v;

	REQUIRE(c != NULL);
	match_empty(&m, 0);
	put(&m, 0, "a5", 1, 10, 1);
	put(&m, 1, "a1", 1, 0, 0);
	put(&m, 16, "c5", 3, 2, 0);
	put(&m, 17, "g5", 1, 0, 0);
	put(&m, 31, "h10", 5, 0, 0);
	m.s.super15.quiet = 7;
	CHECK(json_is(
		c->view(&m),
		"{\"quiet\":7,\"pieces\":["
		"{\"id\":0,\"seat\":0,\"square\":\"a5\",\"value\":1,\"points\":10,\"super\":true},"
		"{\"id\":1,\"seat\":0,\"square\":\"a1\",\"value\":1,\"points\":0,\"super\":false},"
		"{\"id\":16,\"seat\":1,\"square\":\"c5\",\"value\":3,\"points\":2,\"super\":false},"
		"{\"id\":17,\"seat\":1,\"square\":\"g5\",\"value\":1,\"points\":0,\"super\":false},"
		"{\"id\":31,\"seat\":1,\"square\":\"h10\",\"value\":5,\"points\":0,\"super\":false}]}"));
	REQUIRE(rules_apply(&m, 0, &(struct rules_action){ .kind = 1, .arg = { sq("a5"), sq("g5") } }, &u) ==
		0);
	CHECK(json_is(
		c->outcome_encode(&m, &(struct rules_action){ .kind = 1, .arg = { sq("a5"), sq("g5") } }, &u),
		"{\"piece\":0,\"gained\":6,\"promoted\":false,\"captured\":["
		"{\"id\":16,\"square\":\"c5\",\"value\":3,\"points\":2,\"super\":false},"
		"{\"id\":17,\"square\":\"g5\",\"value\":1,\"points\":0,\"super\":false}]}"));
	v = c->view(&m); /* captured pieces are not listed */
	CHECK_EQ(json_array_size(json_object_get(v, "pieces")), 3);
	CHECK_EQ(json_integer_value(json_object_get(v, "quiet")), 0);
	json_decref(v);
	rules_result(&m, &r);
	CHECK(json_is(c->result_encode(&r), "{\"winner\":0,\"draw\":false,\"reason\":\"last_piece\"}"));
	r = (struct rules_result){
		.over = true, .draw = true, .winner = -1, .reason = RULES_REASON_ADJUDICATION
	};
	CHECK(json_is(c->result_encode(&r), "{\"winner\":null,\"draw\":true,\"reason\":\"adjudication\"}"));
	r = (struct rules_result){ .over = true, .winner = 1, .reason = RULES_REASON_ADJUDICATION };
	CHECK(json_is(c->result_encode(&r), "{\"winner\":1,\"draw\":false,\"reason\":\"adjudication\"}"));
	r = (struct rules_result){ .over = true, .winner = 0, .reason = RULES_REASON_NO_MOVES };
	CHECK(json_is(c->result_encode(&r), "{\"winner\":0,\"draw\":false,\"reason\":\"no_moves\"}"));
	r = (struct rules_result){ .over = true, .winner = 1, .reason = RULES_REASON_RESIGN };
	CHECK(json_is(c->result_encode(&r), "{\"winner\":1,\"draw\":false,\"reason\":\"resign\"}"));
	r = (struct rules_result){ .over = true, .winner = 0, .reason = RULES_REASON_FORFEIT };
	CHECK(json_is(c->result_encode(&r), "{\"winner\":0,\"draw\":false,\"reason\":\"forfeit\"}"));
	r = (struct rules_result){ .over = false, .winner = -1 };
	CHECK(json_is(c->result_encode(&r), "null"));
	r = (struct rules_result){ .over = true, .winner = 0, .reason = RULES_REASON_RACE };
	CHECK(c->result_encode(&r) == NULL); /* a reason Super 1 al 5 never gives */
}

/* tests/perft/super15.txt: lines "<depth> <count>" from the opening (the zero seed), '#' comments. */
static int opening_line(const char *line, const struct rules_game *game, struct perft_case *c)
{
	static const uint8_t seed[RULES_SEED_SIZE];

	if (sscanf(line, "%d %llu", &c->depth, &c->want) != 2)
		return 0;
	return rules_match_start(&c->m, game, seed, NULL) < 0 ? -EINVAL : 1;
}

static void test_perft(void)
{
	int mismatches, cases = perft_file_run(perft_path, &rules_game_super15, opening_line, PERFT_BULK,
					       &mismatches);

	REQUIRE(cases >= 0);
	CHECK(mismatches == 0);
	CHECK(cases >= 3);
}

int main(int argc, char **argv)
{
	if (argc > 1)
		perft_path = argv[1];
	TEST(test_start);
	TEST(test_bad_options);
	TEST(test_check_three_blocked);
	TEST(test_check_six_takes_five);
	TEST(test_check_super_line);
	TEST(test_check_no_forbidden);
	TEST(test_ordinary_range);
	TEST(test_capture_ends_move);
	TEST(test_points_accumulate);
	TEST(test_promotion_by_capturing_super);
	TEST(test_super_free_move);
	TEST(test_super_forced_capture);
	TEST(test_last_piece);
	TEST(test_adjudication_small);
	TEST(test_adjudication_hundred);
	TEST(test_adjudication_counts_board_only);
	TEST(test_no_moves);
	TEST(test_event);
	TEST(test_errors_untouched);
	TEST(test_legal_distinct_and_cap);
	TEST(test_legal_matches_apply);
	TEST(test_random_playouts);
	TEST(test_perft);
	TEST(test_codec_actions);
	TEST(test_codec_decode_strict);
	TEST(test_codec_view_outcome_result);
	return tap_done();
}
