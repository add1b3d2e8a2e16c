/*
 * test_ur.c: the Royal Game of Ur rules core against protocol/games/ur/README.md, one test
 * per rule: every "check that must hold", the throw table, lost throws, the
 * extra throw, the rosette bonus, capture by cell and direction on every
 * square pair, safe cells, bearing off, winning, resigning, and errors that
 * leave the match byte-identical. Positions are set by writing the state
 * directly; throws are forced by choosing a dice seed whose next three bytes
 * give the wanted value. Last, perft counts pinned in tests/perft/ur.txt.
 */
#include <string.h>

#include "config.h"
#include "rules.h"
#include "perft.h"
#include "tap.h"

#ifndef UR_PERFT_FILE
#define UR_PERFT_FILE QUINTETO_SOURCE_WEB "/../../tests/perft/ur.txt"
#endif

static const char *perft_path = UR_PERFT_FILE;

static void match_new(struct rules_match *m)
{
	static const uint8_t seed[RULES_SEED_SIZE];

	REQUIRE(rules_match_start(m, &rules_game_ur, seed, NULL) == 0);
}

/* Sets seat's seven pieces (any order; stored sorted). */
static void pieces_set(struct rules_match *m, int seat, const uint8_t p[UR_PIECES])
{
	uint8_t *dst = m->s.ur.pos[seat];

	memcpy(dst, p, UR_PIECES);
	for (int i = 1; i < UR_PIECES; i++)
		for (int j = i; j > 0 && dst[j - 1] > dst[j]; j--) {
			uint8_t t = dst[j];

			dst[j] = dst[j - 1];
			dst[j - 1] = t;
		}
}

/* Puts `seat` to act in the move phase with throw `v`. */
static void throw_set(struct rules_match *m, int seat, int v)
{
	m->s.ur.turn = (uint8_t)seat;
	m->s.ur.phase = UR_PHASE_MOVE;
	m->s.ur.value = (uint8_t)v;
	m->s.ur.has_throw = 1;
	m->s.ur.again = v >= 4;
}

/* Points the dice stream at a seed whose next throw has value `v`. */
static void dice_force(struct rules_match *m, int v)
{
	static const int values[4] = { 4, 0, 1, 5 };
	uint8_t seed[RULES_SEED_SIZE] = { 0 };

	for (int i = 1; i < 1000; i++) {
		struct rules_dice d;
		int marked = 0;

		seed[0] = (uint8_t)i;
		rules_dice_init(&d, seed);
		for (int k = 0; k < 3; k++)
			marked += rules_dice_tetra(&d);
		if (values[marked] == v) {
			rules_dice_init(&m->dice, seed);
			return;
		}
	}
	CHECK(!"no seed found");
}

static struct rules_action act(uint8_t kind, int arg)
{
	struct rules_action a;

	memset(&a, 0, sizeof(a));
	a.kind = kind;
	a.arg[0] = (int16_t)arg;
	return a;
}

static bool legal_has(const struct rules_match *m, int seat, struct rules_action a)
{
	struct rules_action l[RULES_MAX_LEGAL];
	int n = rules_legal_actions(m, seat, l, RULES_MAX_LEGAL);

	for (int i = 0; i < n; i++)
		if (rules_action_equal(&l[i], &a))
			return true;
	return false;
}

static int legal_count(const struct rules_match *m, int seat)
{
	struct rules_action l[RULES_MAX_LEGAL];

	return rules_legal_actions(m, seat, l, RULES_MAX_LEGAL);
}

static int apply(struct rules_match *m, int seat, struct rules_action a, struct ur_outcome *o)
{
	union rules_outcome u;
	int err = rules_apply(m, seat, &a, &u);

	if (o)
		*o = u.ur;
	return err;
}

static int pieces_count_at(const uint8_t p[UR_PIECES], int sq)
{
	int n = 0;

	for (int i = 0; i < UR_PIECES; i++)
		n += p[i] == sq;
	return n;
}

static const uint8_t all_home[UR_PIECES] = { 0, 0, 0, 0, 0, 0, 0 };

static void test_start(void)
{
	struct rules_match m;
	uint8_t seats[RULES_MAX_SEATS];
	struct rules_result r;

	match_new(&m);
	CHECK(rules_game_find("ur") == &rules_game_ur);
	CHECK(rules_game_find("nope") == NULL);
	CHECK_EQ(rules_game_ur.seats, 2);
	CHECK(strcmp(rules_game_ur.roles[0], "light") == 0);
	CHECK(strcmp(rules_game_ur.roles[1], "dark") == 0);
	CHECK_EQ(rules_to_act(&m, seats), 1);
	CHECK_EQ(seats[0], 0);
	CHECK(memcmp(m.s.ur.pos[0], all_home, UR_PIECES) == 0);
	CHECK(memcmp(m.s.ur.pos[1], all_home, UR_PIECES) == 0);
	CHECK_EQ(legal_count(&m, 0), 1);
	CHECK(legal_has(&m, 0, act(UR_ACT_ROLL, 0)));
	CHECK_EQ(legal_count(&m, 1), 0);
	CHECK_EQ(m.s.ur.has_throw, 0);
	rules_result(&m, &r);
	CHECK(!r.over);
	CHECK_EQ(r.winner, -1);
}

static void test_bad_options(void)
{
	struct rules_match m;
	struct rules_options opt = { .max_turns = 10 };
	uint8_t seed[RULES_SEED_SIZE] = { 0 };

	CHECK_EQ(rules_match_start(&m, &rules_game_ur, seed, &opt), RULES_E_BAD_OPTIONS);
	opt.max_turns = 0;
	CHECK_EQ(rules_match_start(&m, &rules_game_ur, seed, &opt), 0);
}

static void test_throw_values(void)
{
	static const int want_marked[6] = { 1, 2, -1, -1, 0, 3 }; /* by value */
	static const int vals[] = { 0, 1, 4, 5 };

	for (size_t i = 0; i < sizeof(vals) / sizeof(vals[0]); i++) {
		struct rules_match m;
		struct ur_outcome o;
		int v = vals[i];

		match_new(&m);
		dice_force(&m, v);
		REQUIRE(apply(&m, 0, act(UR_ACT_ROLL, 0), &o) == 0);
		CHECK_EQ(o.kind, UR_ACT_ROLL);
		CHECK_EQ(o.value, v);
		CHECK_EQ(o.dice[0] + o.dice[1] + o.dice[2], want_marked[v]);
		CHECK(memcmp(o.dice, m.s.ur.dice, 3) == 0);
		CHECK_EQ(m.s.ur.value, v);
		CHECK_EQ(m.s.ur.has_throw, 1);
		CHECK_EQ(o.again, v >= 4);
		CHECK_EQ(m.s.ur.again, v >= 4);
		CHECK_EQ(m.ply, 1);
	}
}

/* protocol/games/ur/README.md check 1: Light on 10 (M6 up) and Dark on 18 (M6 down) share the cell. */
static void test_check_shared_cell(void)
{
	struct rules_match m;
	struct ur_outcome o;
	const uint8_t light[UR_PIECES] = { 9, 0, 0, 0, 0, 0, 0 };
	const uint8_t dark[UR_PIECES] = { 18, 0, 0, 0, 0, 0, 0 };

	match_new(&m);
	pieces_set(&m, 0, light);
	pieces_set(&m, 1, dark);
	throw_set(&m, 0, 1);
	REQUIRE(apply(&m, 0, act(UR_ACT_MOVE, 9), &o) == 0);
	CHECK_EQ(o.captured, 0);
	CHECK_EQ(m.s.ur.pos[0][6], 10);
	CHECK_EQ(m.s.ur.pos[1][6], 18);
	/* And the other way round: Dark lands on 18 next to Light on 10. */
	m.s.ur.pos[1][6] = 17;
	throw_set(&m, 1, 1);
	REQUIRE(apply(&m, 1, act(UR_ACT_MOVE, 17), &o) == 0);
	CHECK_EQ(o.captured, 0);
	CHECK_EQ(m.s.ur.pos[0][6], 10);
	CHECK_EQ(m.s.ur.pos[1][6], 18);
}

/* Check 2: Light to 21 (M3 down) takes Dark's 21 (down), not Dark's 7 (M3 up). */
static void test_check_direction_capture(void)
{
	struct rules_match m;
	struct ur_outcome o;
	const uint8_t light[UR_PIECES] = { 20, 0, 0, 0, 0, 0, 0 };
	const uint8_t dark[UR_PIECES] = { 21, 21, 7, 0, 0, 0, 0 };
	const uint8_t dark_after[UR_PIECES] = { 0, 0, 0, 0, 0, 0, 7 };

	match_new(&m);
	pieces_set(&m, 0, light);
	pieces_set(&m, 1, dark);
	throw_set(&m, 0, 1);
	REQUIRE(apply(&m, 0, act(UR_ACT_MOVE, 20), &o) == 0);
	CHECK_EQ(o.captured, 2);
	CHECK_EQ(o.captured_from[0], 21);
	CHECK_EQ(o.captured_from[1], 21);
	CHECK(memcmp(m.s.ur.pos[1], dark_after, UR_PIECES) == 0);
	CHECK_EQ(m.s.ur.pos[0][6], 21);
}

/* Check 3: pieces on 23 and a 4 leave together; a piece on 20 may not move with 4. */
static void test_check_bear_off_together(void)
{
	struct rules_match m;
	struct ur_outcome o;
	const uint8_t light[UR_PIECES] = { 23, 23, 23, 20, 0, 0, 0 };
	const uint8_t after[UR_PIECES] = { 0, 0, 0, 20, 24, 24, 24 };

	match_new(&m);
	pieces_set(&m, 0, light);
	throw_set(&m, 0, 4);
	CHECK(!legal_has(&m, 0, act(UR_ACT_MOVE, 20)));
	CHECK(!legal_has(&m, 0, act(UR_ACT_MOVE, 23)));
	CHECK_EQ(legal_count(&m, 0), 1);
	REQUIRE(apply(&m, 0, act(UR_ACT_MOVE, 20), NULL) == RULES_E_ILLEGAL);
	REQUIRE(apply(&m, 0, act(UR_ACT_BEAR_OFF, 0), &o) == 0);
	CHECK_EQ(o.borne_off, 3);
	CHECK_EQ(o.won, 0);
	CHECK(memcmp(m.s.ur.pos[0], after, UR_PIECES) == 0);
	/* A 4: Light throws again. */
	CHECK_EQ(m.s.ur.turn, 0);
	CHECK_EQ(m.s.ur.phase, UR_PHASE_ROLL);
}

/* Check 4: entering on 5 lands on M1, where nobody is captured. */
static void test_check_enter_five_safe(void)
{
	struct rules_match m;
	struct ur_outcome o;
	const uint8_t light[UR_PIECES] = { 5, 0, 0, 0, 0, 0, 0 };
	const uint8_t dark[UR_PIECES] = { 4, 0, 0, 0, 0, 0, 0 };

	match_new(&m);
	pieces_set(&m, 0, light);
	pieces_set(&m, 1, dark);
	throw_set(&m, 1, 5);
	REQUIRE(apply(&m, 1, act(UR_ACT_ENTER, 5), &o) == 0);
	CHECK_EQ(o.captured, 0);
	CHECK_EQ(m.s.ur.pos[0][6], 5);
	CHECK_EQ(m.s.ur.pos[1][6], 5);
	/* Moving onto M1 (4 -> 5) takes nobody either. */
	throw_set(&m, 1, 1);
	REQUIRE(apply(&m, 1, act(UR_ACT_MOVE, 4), &o) == 0);
	CHECK_EQ(o.captured, 0);
	CHECK_EQ(m.s.ur.pos[0][6], 5);
	CHECK_EQ(pieces_count_at(m.s.ur.pos[1], 5), 2);
}

/* Squares where a landing captures an opponent on the same square (by hand from D1). */
static bool capture_square(int s)
{
	static const int squares[] = { 6, 7, 9, 10, 11, 14, 17, 18, 19, 21, 22 };

	for (size_t i = 0; i < sizeof(squares) / sizeof(squares[0]); i++)
		if (squares[i] == s)
			return true;
	return false;
}

/* Every landing square against every opponent square, for both colours. */
static void test_capture_all_pairs(void)
{
	for (int seat = 0; seat < 2; seat++)
		for (int s = 2; s <= UR_EXIT; s++)
			for (int t = 1; t <= UR_EXIT; t++) {
				struct rules_match m;
				struct ur_outcome o;
				uint8_t mine[UR_PIECES] = { (uint8_t)(s - 1) };
				uint8_t theirs[UR_PIECES] = { (uint8_t)t };
				bool want = t == s && capture_square(s);

				match_new(&m);
				pieces_set(&m, seat, mine);
				pieces_set(&m, seat ^ 1, theirs);
				throw_set(&m, seat, 1);
				REQUIRE(apply(&m, seat, act(UR_ACT_MOVE, s - 1), &o) == 0);
				CHECK_EQ(o.captured, want);
				CHECK_EQ(m.s.ur.pos[seat ^ 1][6], want ? 0 : t);
				if (o.captured != want)
					printf("# seat %d lands on %d, opponent on %d\n", seat, s, t);
			}
}

/* D4: the five rosettes and M1 protect pieces of both directions. */
static void test_safe_cells(void)
{
	/* Landing squares on a safe cell, and the opponent square sharing it. */
	static const int pairs[][2] = {
		{ 4, 0 },   /* L1: Light's only */
		{ 8, 8 },   /* M4 up */
		{ 20, 20 }, /* M4 down */
		{ 12, 16 }, /* K7 */
		{ 16, 12 }, /* L7 */
		{ 5, 5 },   /* M1 up */
		{ 23, 23 }, /* M1 down */
	};

	for (int seat = 0; seat < 2; seat++)
		for (size_t i = 0; i < sizeof(pairs) / sizeof(pairs[0]); i++) {
			struct rules_match m;
			struct ur_outcome o;
			int s = pairs[i][0], t = pairs[i][1];
			uint8_t mine[UR_PIECES] = { (uint8_t)(s - 1), 24, 24, 24, 24, 24, 24 };
			uint8_t theirs[UR_PIECES] = { (uint8_t)t, (uint8_t)t };

			match_new(&m);
			pieces_set(&m, seat, mine);
			pieces_set(&m, seat ^ 1, theirs);
			throw_set(&m, seat, 1);
			REQUIRE(apply(&m, seat, act(UR_ACT_MOVE, s - 1), &o) == 0);
			CHECK_EQ(o.captured, 0);
			CHECK_EQ(pieces_count_at(m.s.ur.pos[seat ^ 1], t), t ? 2 : 7);
		}
}

/* An unsafe cell shared by both directions: only the same-direction piece goes. */
static void test_capture_on_turn_square(void)
{
	struct rules_match m;
	struct ur_outcome o;
	const uint8_t light[UR_PIECES] = { 13, 24, 24, 24, 24, 24, 24 };
	const uint8_t dark[UR_PIECES] = { 14, 13, 15, 0, 0, 0, 0 };

	match_new(&m);
	pieces_set(&m, 0, light);
	pieces_set(&m, 1, dark);
	throw_set(&m, 0, 1);
	REQUIRE(apply(&m, 0, act(UR_ACT_MOVE, 13), &o) == 0);
	CHECK_EQ(o.captured, 1);
	CHECK_EQ(o.captured_from[0], 14);
	CHECK_EQ(pieces_count_at(m.s.ur.pos[1], 0), 5);
	CHECK_EQ(pieces_count_at(m.s.ur.pos[1], 13), 1);
	CHECK_EQ(pieces_count_at(m.s.ur.pos[1], 15), 1);
}

/* A thrown 0 is always lost; the turn passes at once. */
static void test_lost_zero(void)
{
	struct rules_match m;
	struct ur_outcome o;

	match_new(&m);
	dice_force(&m, 0);
	REQUIRE(apply(&m, 0, act(UR_ACT_ROLL, 0), &o) == 0);
	CHECK_EQ(o.lost, 1);
	CHECK_EQ(o.again, 0);
	CHECK_EQ(m.s.ur.turn, 1);
	CHECK_EQ(m.s.ur.phase, UR_PHASE_ROLL);
	CHECK(legal_has(&m, 1, act(UR_ACT_ROLL, 0)));
	CHECK_EQ(legal_count(&m, 0), 0);
	/* The throw stays in the state (and the view) until the next one. */
	CHECK_EQ(m.s.ur.has_throw, 1);
	CHECK_EQ(m.s.ur.value, 0);
}

/* A 1 with nothing to do is lost and passes; used, it passes too. */
static void test_lost_one(void)
{
	struct rules_match m;
	struct ur_outcome o;
	const uint8_t light[UR_PIECES] = { 23, 23, 24, 24, 24, 24, 24 };

	match_new(&m);
	pieces_set(&m, 0, light);
	dice_force(&m, 1);
	REQUIRE(apply(&m, 0, act(UR_ACT_ROLL, 0), &o) == 0);
	CHECK_EQ(o.value, 1);
	CHECK_EQ(o.lost, 1);
	CHECK_EQ(o.again, 0);
	CHECK_EQ(m.s.ur.turn, 1);
	CHECK_EQ(m.s.ur.phase, UR_PHASE_ROLL);
}

/* A lost 4 or 5 still earns the extra throw. */
static void test_lost_four_five_again(void)
{
	const uint8_t light[UR_PIECES] = { 19, 20, 21, 22, 24, 24, 24 };

	for (int v = 4; v <= 5; v++) {
		struct rules_match m;
		struct ur_outcome o;

		match_new(&m);
		pieces_set(&m, 0, light);
		if (v == 4)
			m.s.ur.pos[0][0] = 20; /* 19 + 4 = 23 would be legal */
		dice_force(&m, v);
		REQUIRE(apply(&m, 0, act(UR_ACT_ROLL, 0), &o) == 0);
		CHECK_EQ(o.value, v);
		CHECK_EQ(o.lost, 1);
		CHECK_EQ(o.again, 1);
		CHECK_EQ(m.s.ur.turn, 0);
		CHECK_EQ(m.s.ur.phase, UR_PHASE_ROLL);
		CHECK(legal_has(&m, 0, act(UR_ACT_ROLL, 0)));
	}
}

/* A usable throw is not lost: the move phase offers its actions. */
static void test_roll_then_move(void)
{
	struct rules_match m;
	struct ur_outcome o;

	match_new(&m);
	dice_force(&m, 5);
	REQUIRE(apply(&m, 0, act(UR_ACT_ROLL, 0), &o) == 0);
	CHECK_EQ(o.lost, 0);
	CHECK_EQ(m.s.ur.phase, UR_PHASE_MOVE);
	CHECK_EQ(legal_count(&m, 0), 1);
	CHECK(legal_has(&m, 0, act(UR_ACT_ENTER, 5)));
	CHECK(!legal_has(&m, 0, act(UR_ACT_ENTER, 1)));
	CHECK(!legal_has(&m, 0, act(UR_ACT_ROLL, 0)));
}

/* Used 4 and 5 keep the turn; a used 1 passes it. */
static void test_extra_throw(void)
{
	static const int vals[] = { 1, 4, 5 };

	for (size_t i = 0; i < 3; i++) {
		struct rules_match m;
		int v = vals[i];
		const uint8_t light[UR_PIECES] = { 6, 0, 0, 0, 0, 0, 0 };

		match_new(&m);
		pieces_set(&m, 0, light);
		throw_set(&m, 0, v);
		REQUIRE(apply(&m, 0, act(UR_ACT_MOVE, 6), NULL) == 0);
		CHECK_EQ(m.s.ur.turn, v >= 4 ? 0 : 1);
		CHECK_EQ(m.s.ur.phase, UR_PHASE_ROLL);
	}
}

/* The entry and move rules of D2. */
static void test_legal_moves(void)
{
	struct rules_match m;
	const uint8_t light[UR_PIECES] = { 0, 0, 18, 18, 19, 22, 23 };

	match_new(&m);
	pieces_set(&m, 0, light);
	throw_set(&m, 0, 5);
	CHECK(legal_has(&m, 0, act(UR_ACT_ENTER, 5)));
	CHECK(legal_has(&m, 0, act(UR_ACT_MOVE, 18)));
	CHECK(!legal_has(&m, 0, act(UR_ACT_MOVE, 19)));
	CHECK(!legal_has(&m, 0, act(UR_ACT_BEAR_OFF, 0)));
	CHECK_EQ(legal_count(&m, 0), 2); /* 18 once though two pieces stand there */
	throw_set(&m, 0, 4);
	CHECK(!legal_has(&m, 0, act(UR_ACT_ENTER, 4)));
	CHECK(legal_has(&m, 0, act(UR_ACT_MOVE, 19)));
	CHECK(legal_has(&m, 0, act(UR_ACT_MOVE, 18)));
	CHECK(!legal_has(&m, 0, act(UR_ACT_MOVE, 22)));
	CHECK(legal_has(&m, 0, act(UR_ACT_BEAR_OFF, 0)));
	CHECK_EQ(legal_count(&m, 0), 3);
	throw_set(&m, 0, 1);
	CHECK(legal_has(&m, 0, act(UR_ACT_ENTER, 1)));
	CHECK(legal_has(&m, 0, act(UR_ACT_MOVE, 22)));
	CHECK(!legal_has(&m, 0, act(UR_ACT_MOVE, 23)));
	CHECK(!legal_has(&m, 0, act(UR_ACT_BEAR_OFF, 0)));
	CHECK_EQ(legal_count(&m, 0), 4); /* enter, 18, 19, 22; nothing from 23 */
}

/* D3: bearing off needs a 4 exactly. */
static void test_bear_off_only_four(void)
{
	static const int vals[] = { 1, 5 };
	const uint8_t light[UR_PIECES] = { 23, 23, 24, 24, 24, 24, 24 };

	for (size_t i = 0; i < 2; i++) {
		struct rules_match m;

		match_new(&m);
		pieces_set(&m, 0, light);
		throw_set(&m, 0, vals[i]);
		CHECK_EQ(legal_count(&m, 0), 0);
		CHECK_EQ(apply(&m, 0, act(UR_ACT_BEAR_OFF, 0), NULL), RULES_E_ILLEGAL);
	}
}

/* D5: landing on a rosette with a piece at 0 offers enter 1 or skip. */
static void test_bonus_rosettes(void)
{
	for (int to = 2; to <= UR_EXIT; to++) {
		struct rules_match m;
		struct ur_outcome o;
		uint8_t light[UR_PIECES] = { (uint8_t)(to - 1) };
		bool rosette = to == 4 || to == 8 || to == 12 || to == 16 || to == 20;

		match_new(&m);
		pieces_set(&m, 0, light);
		throw_set(&m, 0, 1);
		REQUIRE(apply(&m, 0, act(UR_ACT_MOVE, to - 1), &o) == 0);
		CHECK_EQ(o.bonus, rosette);
		CHECK_EQ(m.s.ur.phase, rosette ? UR_PHASE_BONUS : UR_PHASE_ROLL);
		if (!rosette)
			continue;
		CHECK_EQ(m.s.ur.turn, 0);
		CHECK_EQ(legal_count(&m, 0), 2);
		CHECK(legal_has(&m, 0, act(UR_ACT_ENTER, 1)));
		CHECK(legal_has(&m, 0, act(UR_ACT_SKIP, 0)));
		CHECK(!legal_has(&m, 0, act(UR_ACT_ROLL, 0)));
	}
}

/* The bonus entry lands on 1 (no rosette): no chain; the turn then ends. */
static void test_bonus_enter_no_chain(void)
{
	struct rules_match m;
	struct ur_outcome o;
	const uint8_t light[UR_PIECES] = { 3, 0, 0, 0, 0, 0, 0 };

	match_new(&m);
	pieces_set(&m, 0, light);
	throw_set(&m, 0, 1);
	REQUIRE(apply(&m, 0, act(UR_ACT_MOVE, 3), &o) == 0);
	REQUIRE(m.s.ur.phase == UR_PHASE_BONUS);
	REQUIRE(apply(&m, 0, act(UR_ACT_ENTER, 1), &o) == 0);
	CHECK_EQ(o.kind, UR_ACT_ENTER);
	CHECK_EQ(o.bonus, 0);
	CHECK_EQ(pieces_count_at(m.s.ur.pos[0], 1), 1);
	CHECK_EQ(pieces_count_at(m.s.ur.pos[0], 4), 1);
	CHECK_EQ(m.s.ur.phase, UR_PHASE_ROLL);
	CHECK_EQ(m.s.ur.turn, 1);
}

/* Skipping the bonus; after a 4 the extra throw still follows. */
static void test_bonus_skip(void)
{
	struct rules_match m;
	struct ur_outcome o;
	const uint8_t light[UR_PIECES] = { 4, 0, 0, 0, 0, 0, 0 };

	match_new(&m);
	pieces_set(&m, 0, light);
	throw_set(&m, 0, 4);
	REQUIRE(apply(&m, 0, act(UR_ACT_MOVE, 4), &o) == 0); /* 4 -> 8, M4 */
	CHECK_EQ(o.bonus, 1);
	CHECK_EQ(apply(&m, 0, act(UR_ACT_MOVE, 8), NULL), RULES_E_ILLEGAL);
	REQUIRE(apply(&m, 0, act(UR_ACT_SKIP, 0), &o) == 0);
	CHECK_EQ(o.kind, UR_ACT_SKIP);
	CHECK_EQ(pieces_count_at(m.s.ur.pos[0], 0), 6);
	CHECK_EQ(m.s.ur.phase, UR_PHASE_ROLL);
	CHECK_EQ(m.s.ur.turn, 0);
	CHECK_EQ(apply(&m, 0, act(UR_ACT_SKIP, 0), NULL), RULES_E_ILLEGAL);
}

/* No piece at 0: a rosette landing offers nothing. */
static void test_bonus_needs_home_piece(void)
{
	struct rules_match m;
	struct ur_outcome o;
	const uint8_t light[UR_PIECES] = { 7, 24, 24, 24, 24, 24, 24 };

	match_new(&m);
	pieces_set(&m, 0, light);
	throw_set(&m, 0, 1);
	REQUIRE(apply(&m, 0, act(UR_ACT_MOVE, 7), &o) == 0);
	CHECK_EQ(o.bonus, 0);
	CHECK_EQ(m.s.ur.phase, UR_PHASE_ROLL);
	CHECK_EQ(m.s.ur.turn, 1);
}

/* The seventh piece off wins; then nothing is to act or legal. */
static void test_win(void)
{
	struct rules_match m, before;
	struct ur_outcome o;
	struct rules_result r;
	uint8_t seats[RULES_MAX_SEATS];
	const uint8_t dark[UR_PIECES] = { 23, 23, 24, 24, 24, 24, 24 };

	match_new(&m);
	pieces_set(&m, 1, dark);
	throw_set(&m, 1, 4);
	REQUIRE(apply(&m, 1, act(UR_ACT_BEAR_OFF, 0), &o) == 0);
	CHECK_EQ(o.borne_off, 2);
	CHECK_EQ(o.won, 1);
	rules_result(&m, &r);
	CHECK(r.over);
	CHECK(!r.draw);
	CHECK_EQ(r.winner, 1);
	CHECK_EQ(r.reason, RULES_REASON_RACE);
	CHECK_EQ(rules_to_act(&m, seats), 0);
	CHECK_EQ(legal_count(&m, 0), 0);
	CHECK_EQ(legal_count(&m, 1), 0);
	memcpy(&before, &m, sizeof(m));
	CHECK_EQ(apply(&m, 1, act(UR_ACT_ROLL, 0), NULL), RULES_E_GAME_OVER);
	CHECK_EQ(apply(&m, 0, act(UR_ACT_ROLL, 0), NULL), RULES_E_GAME_OVER);
	CHECK_EQ(rules_event(&m, 0, RULES_EVENT_RESIGN, NULL), RULES_E_GAME_OVER);
	CHECK(memcmp(&m, &before, sizeof(m)) == 0);
}

/* An event takes the seat out of play and the other seat wins; ply unchanged. */
static void test_event(void)
{
	for (int seat = 0; seat < 2; seat++) {
		struct rules_match m, before;
		union rules_outcome u;
		struct rules_result r;
		int kind = seat ? RULES_EVENT_FORFEIT : RULES_EVENT_RESIGN;
		uint8_t reason = seat ? RULES_REASON_FORFEIT : RULES_REASON_RESIGN;

		match_new(&m);
		REQUIRE(apply(&m, 0, act(UR_ACT_ROLL, 0), NULL) == 0);
		memcpy(&before, &m, sizeof(m));
		CHECK_EQ(rules_event(&m, 2, kind, &u), RULES_E_BAD_SEAT);
		CHECK_EQ(rules_event(&m, -1, kind, &u), RULES_E_BAD_SEAT);
		CHECK_EQ(rules_event(&m, seat, 0, &u), RULES_E_ILLEGAL);
		CHECK_EQ(rules_event(&m, seat, 3, &u), RULES_E_ILLEGAL);
		CHECK(memcmp(&m, &before, sizeof(m)) == 0);
		CHECK(rules_seat_in_play(&m, 0) && rules_seat_in_play(&m, 1));
		CHECK(!rules_seat_in_play(&m, 2) && !rules_seat_in_play(&m, -1));
		/* Either seat may resign, to act or not. */
		REQUIRE(rules_event(&m, seat, kind, &u) == 0);
		CHECK_EQ(u.ur.kind, 0);
		CHECK_EQ(m.ply, 1);
		CHECK_EQ(m.out, 1u << seat);
		CHECK(!rules_seat_in_play(&m, seat));
		CHECK(rules_seat_in_play(&m, seat ^ 1));
		rules_result(&m, &r);
		CHECK(r.over);
		CHECK_EQ(r.winner, seat ^ 1);
		CHECK_EQ(r.reason, reason);
		memcpy(&before, &m, sizeof(m));
		CHECK_EQ(rules_event(&m, seat ^ 1, kind, &u), RULES_E_GAME_OVER);
		CHECK_EQ(rules_event(&m, seat, kind, &u), RULES_E_GAME_OVER);
		CHECK(memcmp(&m, &before, sizeof(m)) == 0);
	}
}

/* A seat already out while the match goes on (a game's own elimination). */
static void test_event_out_of_play(void)
{
	struct rules_match m, before;

	match_new(&m);
	m.out = 1u << 1;
	memcpy(&before, &m, sizeof(m));
	CHECK_EQ(rules_event(&m, 1, RULES_EVENT_RESIGN, NULL), RULES_E_OUT_OF_PLAY);
	CHECK(memcmp(&m, &before, sizeof(m)) == 0);
	CHECK_EQ(rules_event(&m, 0, RULES_EVENT_RESIGN, NULL), 0);
}

/* Every refused call leaves the match byte-identical. */
static void test_errors_untouched(void)
{
	struct rules_match m, before;
	const struct rules_action bad[] = {
		act(0, 0),
		act(99, 0),
		act(UR_ACT_ROLL, 1),
		act(UR_ACT_MOVE, 3),
		act(UR_ACT_ENTER, 1),
		act(UR_ACT_ENTER, 3),
		act(UR_ACT_SKIP, 0),
		act(UR_ACT_BEAR_OFF, 0),
	};
	struct rules_action roll2 = act(UR_ACT_ROLL, 0);

	match_new(&m);
	dice_force(&m, 5);
	memcpy(&before, &m, sizeof(m));
	roll2.pad = 1;
	CHECK_EQ(apply(&m, 1, act(UR_ACT_ROLL, 0), NULL), RULES_E_NOT_TO_ACT);
	CHECK_EQ(apply(&m, 2, act(UR_ACT_ROLL, 0), NULL), RULES_E_BAD_SEAT);
	CHECK_EQ(apply(&m, -1, act(UR_ACT_ROLL, 0), NULL), RULES_E_BAD_SEAT);
	CHECK_EQ(apply(&m, 0, roll2, NULL), RULES_E_ILLEGAL);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		CHECK_EQ(apply(&m, 0, bad[i], NULL), RULES_E_ILLEGAL);
	CHECK(memcmp(&m, &before, sizeof(m)) == 0);
	/* In the move phase (throw 5, all at home): only enter 5. */
	REQUIRE(apply(&m, 0, act(UR_ACT_ROLL, 0), NULL) == 0);
	memcpy(&before, &m, sizeof(m));
	CHECK_EQ(apply(&m, 0, act(UR_ACT_ROLL, 0), NULL), RULES_E_ILLEGAL);
	CHECK_EQ(apply(&m, 0, act(UR_ACT_ENTER, 1), NULL), RULES_E_ILLEGAL);
	CHECK_EQ(apply(&m, 0, act(UR_ACT_MOVE, 0), NULL), RULES_E_ILLEGAL);
	CHECK_EQ(apply(&m, 1, act(UR_ACT_ENTER, 5), NULL), RULES_E_NOT_TO_ACT);
	CHECK(memcmp(&m, &before, sizeof(m)) == 0);
	CHECK_EQ(apply(&m, 0, act(UR_ACT_ENTER, 5), NULL), 0);
	CHECK_EQ(m.ply, 2);
}

/* The legal list is what rules_legal_actions promises: distinct, capped. */
static void test_legal_distinct_and_cap(void)
{
	struct rules_match m;
	struct rules_action l[RULES_MAX_LEGAL], small[3];
	const uint8_t light[UR_PIECES] = { 0, 3, 3, 7, 7, 19, 23 };
	int n;

	match_new(&m);
	pieces_set(&m, 0, light);
	throw_set(&m, 0, 4);
	n = rules_legal_actions(&m, 0, l, RULES_MAX_LEGAL);
	CHECK_EQ(n, 4); /* 3, 7, 19, bear off */
	for (int i = 0; i < n; i++)
		for (int j = i + 1; j < n; j++)
			CHECK(!rules_action_equal(&l[i], &l[j]));
	/* Past cap: the true count comes back and only the first `cap` are written. */
	memset(small, 0xab, sizeof(small));
	CHECK_EQ(rules_legal_actions(&m, 0, small, 2), 4);
	CHECK(rules_action_equal(&small[0], &l[0]));
	CHECK(rules_action_equal(&small[1], &l[1]));
	CHECK_EQ(small[2].kind, 0xab); /* untouched */
	CHECK_EQ(rules_legal_actions(&m, 0, NULL, 0), 4);
	CHECK_EQ(rules_legal_actions(&m, 0, small, -1), 4);
	CHECK_EQ(small[2].kind, 0xab);
	CHECK_EQ(rules_legal_actions(&m, 5, l, RULES_MAX_LEGAL), 0);
	CHECK_EQ(rules_legal_actions(&m, 1, l, RULES_MAX_LEGAL), 0); /* not to act */
}

/* tests/perft/ur.txt: lines "<seed hex> <depth> <count>", '#' comments. */
static void test_perft(void)
{
	int mismatches, cases = perft_file_run(perft_path, &rules_game_ur, NULL, 0, &mismatches);

	REQUIRE(cases >= 0);
	CHECK(mismatches == 0);
	CHECK(cases > 0);
}

int main(int argc, char **argv)
{
	if (argc > 1)
		perft_path = argv[1];
	TEST(test_start);
	TEST(test_bad_options);
	TEST(test_throw_values);
	TEST(test_check_shared_cell);
	TEST(test_check_direction_capture);
	TEST(test_check_bear_off_together);
	TEST(test_check_enter_five_safe);
	TEST(test_capture_all_pairs);
	TEST(test_safe_cells);
	TEST(test_capture_on_turn_square);
	TEST(test_lost_zero);
	TEST(test_lost_one);
	TEST(test_lost_four_five_again);
	TEST(test_roll_then_move);
	TEST(test_extra_throw);
	TEST(test_legal_moves);
	TEST(test_bear_off_only_four);
	TEST(test_bonus_rosettes);
	TEST(test_bonus_enter_no_chain);
	TEST(test_bonus_skip);
	TEST(test_bonus_needs_home_piece);
	TEST(test_win);
	TEST(test_event);
	TEST(test_event_out_of_play);
	TEST(test_errors_untouched);
	TEST(test_legal_distinct_and_cap);
	TEST(test_perft);
	return tap_done();
}
