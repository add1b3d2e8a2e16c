/*
 * test_quinteto.c: the Quinteto rules core against protocol/games/quinteto/README.md, one
 * test per rule: the start, the arrangement, the roll-off and its re-rolls,
 * clockwise turns skipping the eliminated, plans (sum, pair, a lone enter, a
 * single step only where no plan uses both dice), steps in order, capture
 * only when every stone is the victim's (alliances), limbo, elimination and
 * the closing circle, re-arrangement, the end of phase 1, place, kills,
 * Quinteto, the duel's end, max_turns, resignations, and refused calls that
 * leave the match byte-identical. Positions are set by writing the state;
 * dice are forced by pointing the stream at a seed whose next d6 values are
 * the wanted ones. Then thousands of random playouts with the game's
 * invariants, and the perft counts of tests/perft/quinteto.txt.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "rules.h"
#include "match_fixture.h"
#include "perft.h"
#include "tap.h"
#include "wire.h"

static const char *perft_path = "tests/perft/quinteto.txt";

#define A QUINTETO_ARRANGER
#define N QUINTETO_NONE

static void match_new(struct rules_match *m)
{
	static const uint8_t seed[RULES_SEED_SIZE];

	REQUIRE(rules_match_start(m, &rules_game_quinteto, seed, NULL) == 0);
}

/* Points the dice stream at a seed whose next n d6 values are v[0..n). */
static void dice_force(struct rules_match *m, const int *v, int n)
{
	uint8_t seed[RULES_SEED_SIZE] = { 0 };

	for (int i = 1; i < 200000; i++) {
		struct rules_dice d;
		int k = 0;

		seed[0] = (uint8_t)i, seed[1] = (uint8_t)(i >> 8), seed[2] = (uint8_t)(i >> 16);
		rules_dice_init(&d, seed);
		while (k < n && rules_dice_d6(&d) == v[k])
			k++;
		if (k == n) {
			rules_dice_init(&m->dice, seed);
			return;
		}
	}
	CHECK(!"no seed found");
}

static void dice2(struct rules_match *m, int a, int b)
{
	int v[2] = { a, b };

	dice_force(m, v, 2);
}

/*
 * A phase-1 hunt position: circle 0,1,2,3,4 in slots 1..5 (each hunts the
 * next seat), the stones where the match starts them unless a test moves
 * them, `seat` to act having rolled (a, b) (not rolled when a is 0).
 */
static void hunt_position(struct rules_match *m, int seat, int a, int b)
{
	struct quinteto_state *s = &m->s.quinteto;

	match_new(m);
	for (int h = 0; h < 5; h++)
		s->circle[h] = (uint8_t)h;
	s->arranged = 1;
	s->phase = QUINTETO_PHASE_HUNT;
	s->turn = (uint8_t)seat;
	s->rolled = a > 0;
	s->dice[0] = (uint8_t)a;
	s->dice[1] = (uint8_t)b;
}

/* Removes hunter h from the game (as an elimination would). */
static void hunter_gone(struct rules_match *m, int h)
{
	struct quinteto_state *s = &m->s.quinteto;

	s->loc[3 * h] = s->loc[3 * h + 1] = s->loc[3 * h + 2] = QUINTETO_OUT;
	for (int i = 0; i < 5; i++)
		if (s->circle[i] == h)
			s->circle[i] = N;
	m->out |= (uint8_t)(1u << h);
}

/* A duel between the arranger (home `home`) and `survivor`, `seat` to act having rolled (a, b). */
static void duel_position(struct rules_match *m, int survivor, int seat, int a, int b)
{
	struct quinteto_state *s = &m->s.quinteto;

	hunt_position(m, seat, a, b);
	for (int h = 0; h < 5; h++)
		if (h != survivor)
			hunter_gone(m, h);
	s->survivor = (uint8_t)survivor;
	s->phase = QUINTETO_PHASE_DUEL;
	s->home = 12;
	s->loc[15] = s->loc[16] = 12;
}

static struct rules_action plan1(int op, int die, int stone, int n)
{
	struct rules_action a;

	memset(&a, 0, sizeof(a));
	a.kind = QUINTETO_ACT_PLAN;
	a.arg[0] = 1;
	a.arg[1] = (int16_t)op, a.arg[2] = (int16_t)die, a.arg[3] = (int16_t)stone, a.arg[4] = (int16_t)n;
	return a;
}

static struct rules_action plan2(int op, int die, int stone, int n, int op2, int die2, int stone2, int n2)
{
	struct rules_action a = plan1(op, die, stone, n);

	a.arg[0] = 2;
	a.arg[5] = (int16_t)op2, a.arg[6] = (int16_t)die2, a.arg[7] = (int16_t)stone2, a.arg[8] = (int16_t)n2;
	return a;
}

static struct rules_action simple(int kind, int arg)
{
	struct rules_action a;

	memset(&a, 0, sizeof(a));
	a.kind = (uint8_t)kind;
	a.arg[0] = (int16_t)arg;
	return a;
}

static struct rules_action arrange(int k, const int *seats)
{
	struct rules_action a = simple(QUINTETO_ACT_ARRANGE, k);

	for (int i = 0; i < k; i++)
		a.arg[1 + i] = (int16_t)seats[i];
	return a;
}

static bool legal_has(const struct rules_match *m, int seat, const struct rules_action *a)
{
	static struct rules_action l[RULES_MAX_LEGAL];
	int n = rules_legal_actions(m, seat, l, RULES_MAX_LEGAL);

	for (int i = 0; i < n; i++)
		if (rules_action_equal(&l[i], a))
			return true;
	return false;
}

static int legal_count(const struct rules_match *m, int seat)
{
	return rules_legal_actions(m, seat, NULL, 0);
}

/* An action that must be refused with `err`, leaving the match byte-identical. */
static void refused(struct rules_match *m, int seat, const struct rules_action *a, int err)
{
	struct rules_match before = *m;

	CHECK_EQ(rules_apply(m, seat, a, NULL), err);
	CHECK(memcmp(&before, m, sizeof(before)) == 0);
}

static int apply_ok(struct rules_match *m, int seat, struct rules_action a, struct quinteto_outcome *o)
{
	union rules_outcome u;
	int err = rules_apply(m, seat, &a, &u);

	if (o)
		*o = u.quinteto;
	return err;
}

/* --- Start and arrangement. */

static void test_start(void)
{
	struct rules_match m;
	const struct quinteto_state *s = &m.s.quinteto;
	uint8_t seats[RULES_MAX_SEATS];
	static const uint8_t seed[RULES_SEED_SIZE];
	struct rules_options o = { .max_turns = 9 };

	match_new(&m);
	CHECK(rules_game_find("quinteto") == &rules_game_quinteto);
	CHECK_EQ(rules_game_quinteto.seats, 6);
	CHECK(strcmp(rules_game_quinteto.roles[5], "arranger") == 0 &&
	      strcmp(rules_game_quinteto.roles[0], "hunter") == 0);
	for (int h = 0; h < 5; h++) {
		CHECK_EQ(s->loc[3 * h], 5 * h + 2); /* two stones on the home, the middle room of the side */
		CHECK_EQ(s->loc[3 * h + 1], 5 * h + 2);
		CHECK_EQ(s->loc[3 * h + 2], QUINTETO_MARKER);
		CHECK_EQ(s->circle[h], N);
		CHECK_EQ(quinteto_victim(s, h), N); /* none before the first arrangement */
	}
	for (int k = 15; k < 18; k++)
		CHECK_EQ(s->loc[k], QUINTETO_RESERVE);
	CHECK_EQ(s->phase, QUINTETO_PHASE_ARRANGE);
	CHECK_EQ(rules_to_act(&m, seats), 1);
	CHECK_EQ(seats[0], A);
	CHECK_EQ(rules_match_start(&m, &rules_game_quinteto, seed, &o), RULES_E_BAD_OPTIONS);
	o.max_turns = 100001;
	CHECK_EQ(rules_match_start(&m, &rules_game_quinteto, seed, &o), RULES_E_BAD_OPTIONS);
	o.max_turns = 10;
	CHECK_EQ(rules_match_start(&m, &rules_game_quinteto, seed, &o), 0);
}

/* Rule 1: every order of the living hunters is a distinct legal arrangement; victims go clockwise. */
static void test_arrange(void)
{
	static struct rules_action l[RULES_MAX_LEGAL];
	struct rules_match m;
	const struct quinteto_state *s = &m.s.quinteto;
	int order[5] = { 3, 0, 4, 1, 2 }, n;
	struct quinteto_outcome o;

	match_new(&m);
	n = rules_legal_actions(&m, A, l, RULES_MAX_LEGAL);
	CHECK_EQ(n, 120);
	for (int i = 0; i < n; i++)
		for (int j = 0; j < i; j++)
			CHECK(!rules_action_equal(&l[i], &l[j]));
	for (int h = 0; h < 5; h++)
		CHECK_EQ(legal_count(&m, h), 0); /* only the arranger arranges */
	REQUIRE(apply_ok(&m, A, arrange(5, order), &o) == 0);
	CHECK_EQ(o.phase, QUINTETO_PHASE_ROLLOFF);
	for (int i = 0; i < 5; i++)
		CHECK_EQ(s->circle[i], order[i]);
	CHECK_EQ(quinteto_victim(s, 3), 0);
	CHECK_EQ(quinteto_victim(s, 0), 4);
	CHECK_EQ(quinteto_victim(s, 2), 3); /* slot 5 is followed by slot 1 */
	CHECK_EQ(quinteto_victim(s, A), N); /* the arranger hunts no one in phase 1 */
}

/* An arrangement naming a dead hunter, repeating one or leaving one out is refused. */
static void test_arrange_refused(void)
{
	struct rules_match m;
	int dead[4] = { 0, 1, 2, 3 }, twice[4] = { 0, 1, 2, 2 }, short_[3] = { 0, 2, 3 },
	    good[4] = { 3, 2, 1, 0 };
	struct rules_action a;

	match_new(&m);
	hunter_gone(&m, 4);
	CHECK_EQ(legal_count(&m, A), 24);
	a = arrange(4, dead);
	CHECK(legal_has(&m, A, &a));
	a.arg[4] = 4; /* the dead hunter */
	refused(&m, A, &a, RULES_E_ILLEGAL);
	a = arrange(4, twice);
	refused(&m, A, &a, RULES_E_ILLEGAL);
	a = arrange(3, short_);
	refused(&m, A, &a, RULES_E_ILLEGAL);
	a = arrange(4, good);
	refused(&m, 0, &a, RULES_E_NOT_TO_ACT);
	CHECK_EQ(rules_apply(&m, A, &a, NULL), 0);
}

/* --- The roll-off. */

/* Rule 2: all five roll in any order; the highest starts. */
static void test_rolloff(void)
{
	struct rules_match m;
	int order[5] = { 0, 1, 2, 3, 4 }, v[5] = { 2, 6, 1, 3, 4 };
	uint8_t seats[RULES_MAX_SEATS];
	struct quinteto_outcome o;
	struct rules_action roll = simple(QUINTETO_ACT_ROLL, 0);

	match_new(&m);
	REQUIRE(apply_ok(&m, A, arrange(5, order), NULL) == 0);
	CHECK_EQ(rules_to_act(&m, seats), 5);
	dice_force(&m, v, 5);
	/* out of seat order: 4 first, then 0, 3, 2, 1 */
	REQUIRE(apply_ok(&m, 4, roll, &o) == 0);
	CHECK_EQ(o.dice[0], 2);
	CHECK(o.rolloff);
	CHECK_EQ(m.s.quinteto.rolloff[4], 2);
	refused(&m, 4, &roll, RULES_E_NOT_TO_ACT); /* one roll each */
	CHECK_EQ(rules_to_act(&m, seats), 4);
	REQUIRE(apply_ok(&m, 0, roll, NULL) == 0);
	REQUIRE(apply_ok(&m, 3, roll, NULL) == 0);
	REQUIRE(apply_ok(&m, 2, roll, NULL) == 0);
	CHECK_EQ(m.s.quinteto.phase, QUINTETO_PHASE_ROLLOFF);
	REQUIRE(apply_ok(&m, 1, roll, &o) == 0); /* v: 4->2, 0->6, 3->1, 2->3, 1->4 */
	CHECK_EQ(o.starts, 0);
	CHECK_EQ(o.phase, QUINTETO_PHASE_HUNT);
	CHECK_EQ(rules_to_act(&m, seats), 1);
	CHECK_EQ(seats[0], 0);
	CHECK_EQ(m.s.quinteto.rolloff[2], 3); /* the values stay visible */
}

/* Rule 2: a tied highest clears the tied seats' rolls; only they roll again. */
static void test_rolloff_tie(void)
{
	struct rules_match m;
	struct quinteto_state *s = &m.s.quinteto;
	uint8_t seats[RULES_MAX_SEATS];
	struct quinteto_outcome o;
	struct rules_action roll = simple(QUINTETO_ACT_ROLL, 0);
	int v1[1] = { 1 }, v2[3] = { 5, 2, 6 };

	hunt_position(&m, 0, 0, 0);
	s->phase = QUINTETO_PHASE_ROLLOFF;
	s->contenders = 0x1f;
	s->rolloff[0] = 6, s->rolloff[1] = 3, s->rolloff[2] = 6, s->rolloff[3] = 6;
	dice_force(&m, v1, 1);
	REQUIRE(apply_ok(&m, 4, roll, &o) == 0);
	CHECK_EQ(o.tied, 0x0d); /* seats 0, 2, 3 */
	CHECK_EQ(rules_to_act(&m, seats), 3);
	CHECK(seats[0] == 0 && seats[1] == 2 && seats[2] == 3);
	CHECK_EQ(s->rolloff[0], 0);
	CHECK_EQ(s->rolloff[1], 3); /* the others' values stay */
	CHECK_EQ(s->rolloff[4], 1);
	CHECK_EQ(legal_count(&m, 1), 0);
	dice_force(&m, v2, 3);
	REQUIRE(apply_ok(&m, 3, roll, NULL) == 0); /* 5 */
	REQUIRE(apply_ok(&m, 0, roll, NULL) == 0); /* 2: lower than seat 1's old 3, still in */
	REQUIRE(apply_ok(&m, 2, roll, &o) == 0);   /* 6 */
	CHECK_EQ(o.starts, 2);
	CHECK_EQ(s->turn, 2);
	CHECK_EQ(s->phase, QUINTETO_PHASE_HUNT);
}

/* --- Turns and plans. */

/* Rule 2/3: play passes clockwise to the next living hunter; a turn is never passed. */
static void test_turns_clockwise_skip(void)
{
	struct rules_match m;
	struct quinteto_state *s = &m.s.quinteto;
	struct rules_action sum = plan1(QUINTETO_OP_MOVE, QUINTETO_DIE_SUM, 3, 3);

	hunt_position(&m, 1, 1, 2);
	hunter_gone(&m, 2);
	s->loc[0] = 0, s->loc[3] = 3, s->loc[9] = 9, s->loc[12] = 20;
	s->loc[1] = s->loc[4] = s->loc[10] = s->loc[13] = QUINTETO_OUT;
	REQUIRE(apply_ok(&m, 1, sum, NULL) == 0);
	CHECK_EQ(s->turn, 3); /* 2 is skipped */
	CHECK_EQ(s->turns, 1);
	CHECK(!s->rolled);
	s->turn = 4;
	s->rolled = 1, s->dice[0] = 1, s->dice[1] = 2;
	sum = plan1(QUINTETO_OP_MOVE, QUINTETO_DIE_SUM, 12, 3);
	REQUIRE(apply_ok(&m, 4, sum, NULL) == 0);
	CHECK_EQ(s->turn, 0); /* 4 -> 0 wraps */
}

/* Rule 3: sums and pairs, both orders and both die assignments, and no single step. */
static void test_plans_count(void)
{
	struct rules_match m;
	struct quinteto_state *s = &m.s.quinteto;
	struct rules_action a;

	hunt_position(&m, 0, 3, 4);
	s->loc[0] = 0, s->loc[1] = 10;
	/* sums: 2 stones x 2 directions; pairs: 2 orders x 2 assignments x 2 x 2 directions */
	CHECK_EQ(legal_count(&m, 0), 4 + 16);
	a = plan1(QUINTETO_OP_MOVE, QUINTETO_DIE_SUM, 0, -7);
	CHECK(legal_has(&m, 0, &a));
	a = plan2(QUINTETO_OP_MOVE, 0, 0, 3, QUINTETO_OP_MOVE, 1, 1, -4);
	CHECK(legal_has(&m, 0, &a));
	a = plan2(QUINTETO_OP_MOVE, 1, 1, -4, QUINTETO_OP_MOVE, 0, 0, 3); /* the other order */
	CHECK(legal_has(&m, 0, &a));
	a = plan2(QUINTETO_OP_MOVE, 1, 0, 4, QUINTETO_OP_MOVE, 0, 1, 3); /* the other assignment */
	CHECK(legal_has(&m, 0, &a));
	a = plan1(QUINTETO_OP_MOVE, 0, 0, 3); /* a single step while both dice can be used */
	refused(&m, 0, &a, RULES_E_ILLEGAL);
	a = plan2(QUINTETO_OP_MOVE, 0, 0, 3, QUINTETO_OP_MOVE, 1, 0, 4); /* D6: one stone twice */
	refused(&m, 0, &a, RULES_E_ILLEGAL);
	a = plan1(QUINTETO_OP_MOVE, QUINTETO_DIE_SUM, 0, 6); /* not the sum */
	refused(&m, 0, &a, RULES_E_ILLEGAL);
	a = plan2(QUINTETO_OP_MOVE, 0, 0, 4, QUINTETO_OP_MOVE, 1, 1, 3); /* die 0 shows 3, not 4 */
	refused(&m, 0, &a, RULES_E_ILLEGAL);
	a = plan1(QUINTETO_OP_MOVE, QUINTETO_DIE_SUM, 3, 7); /* another hunter's stone */
	refused(&m, 0, &a, RULES_E_ILLEGAL);
	/* doubles: the two assignments are listed although they have the same effect */
	s->dice[0] = s->dice[1] = 2;
	CHECK_EQ(legal_count(&m, 0), 20);
	/* one stone on the ring: the sum, and pairs need two stones, so 2 */
	s->loc[1] = QUINTETO_OUT;
	CHECK_EQ(legal_count(&m, 0), 2);
}

/* Rule 3/5: entering needs a 6 and may be a lone step dropping the other die; limbo is safe. */
static void test_enter(void)
{
	struct rules_match m;
	struct quinteto_state *s = &m.s.quinteto;
	struct rules_action a;

	hunt_position(&m, 0, 6, 2);
	s->loc[0] = 0, s->loc[1] = QUINTETO_OUT;
	/* sums 2, lone enter 1 (die 0 only: die 1 shows 2) */
	CHECK_EQ(legal_count(&m, 0), 3);
	a = plan1(QUINTETO_OP_ENTER, 0, 0, 0);
	CHECK(legal_has(&m, 0, &a));
	a = plan1(QUINTETO_OP_ENTER, 1, 0, 0);
	refused(&m, 0, &a, RULES_E_ILLEGAL);
	a = plan1(QUINTETO_OP_ENTER, 0, 0, 0);
	REQUIRE(apply_ok(&m, 0, a, NULL) == 0);
	CHECK_EQ(s->loc[0], QUINTETO_LIMBO);
	/* hunter 4 (who hunts 0) lands where 0's stone stood: nothing to capture there now */
	s->turn = 4, s->rolled = 1, s->dice[0] = 1, s->dice[1] = 2;
	s->loc[12] = 22, s->loc[13] = QUINTETO_OUT;
	a = plan1(QUINTETO_OP_MOVE, QUINTETO_DIE_SUM, 12, 3);
	REQUIRE(apply_ok(&m, 4, a, NULL) == 0);
	CHECK_EQ(s->loc[0], QUINTETO_LIMBO);
	/* with two ring stones and a 6: enter in a pair, or lone */
	hunt_position(&m, 0, 6, 1);
	s->loc[0] = 0, s->loc[1] = 5;
	a = plan2(QUINTETO_OP_ENTER, 0, 0, 0, QUINTETO_OP_MOVE, 1, 1, 1);
	CHECK(legal_has(&m, 0, &a));
	a = plan1(QUINTETO_OP_ENTER, 0, 1, 0);
	CHECK(legal_has(&m, 0, &a));
	/* sums 4; pairs: die 0 first: (3 steps of a) x (2 of b) x 2 stones = 12, die 1 first: 12; lone enters
	 * 2 */
	CHECK_EQ(legal_count(&m, 0), 4 + 24 + 2);
}

/* Rule 3/5: with no plan using both dice a single step with either die; exit counts as landing. */
static void test_exit_single_step(void)
{
	struct rules_match m;
	struct quinteto_state *s = &m.s.quinteto;
	struct rules_action a;
	struct quinteto_outcome o;

	hunt_position(&m, 0, 2, 5);
	s->loc[0] = QUINTETO_LIMBO, s->loc[1] = QUINTETO_OUT;
	CHECK_EQ(legal_count(&m, 0), 2);         /* exit with die 0 or die 1 */
	s->loc[3] = 2, s->loc[4] = QUINTETO_OUT; /* hunter 1 (0's victim) alone on 0's home */
	a = plan1(QUINTETO_OP_EXIT, 1, 0, 0);
	REQUIRE(apply_ok(&m, 0, a, &o) == 0);
	CHECK_EQ(s->loc[0], 2);
	CHECK_EQ(o.ncaptured, 1);
	CHECK_EQ(o.captured[0], 3);
	CHECK_EQ(o.neliminated, 1);
	/* both in limbo: two exits use both dice, so no single exit */
	hunt_position(&m, 0, 2, 5);
	s->loc[0] = s->loc[1] = QUINTETO_LIMBO;
	CHECK_EQ(legal_count(&m, 0), 4);
	a = plan1(QUINTETO_OP_EXIT, 0, 0, 0);
	refused(&m, 0, &a, RULES_E_ILLEGAL);
}

/* Rule 4: a landing captures every stone there when all are the victim's (one or two). */
static void test_capture(void)
{
	struct rules_match m;
	struct quinteto_state *s = &m.s.quinteto;
	struct quinteto_outcome o;

	hunt_position(&m, 0, 1, 2);
	s->loc[0] = 0, s->loc[1] = 20;
	s->loc[3] = s->loc[4] = 3; /* both of 1's stones */
	s->loc[6] = 10;
	REQUIRE(apply_ok(&m, 0, plan1(QUINTETO_OP_MOVE, QUINTETO_DIE_SUM, 0, 3), &o) == 0);
	CHECK_EQ(o.ncaptured, 2);
	CHECK(s->loc[3] == QUINTETO_OUT && s->loc[4] == QUINTETO_OUT);
	/* not the victim's: nothing */
	hunt_position(&m, 0, 1, 2);
	s->loc[0] = 0, s->loc[1] = 20, s->loc[6] = 3; /* hunter 2's stone (0 hunts 1) */
	REQUIRE(apply_ok(&m, 0, plan1(QUINTETO_OP_MOVE, QUINTETO_DIE_SUM, 0, 3), &o) == 0);
	CHECK_EQ(o.ncaptured, 0);
	CHECK_EQ(s->loc[6], 3);
	CHECK_EQ(s->loc[0], 3); /* rooms hold any number of stones */
	/* counter-clockwise wraps: 1 - 3 = 23 */
	hunt_position(&m, 0, 1, 2);
	s->loc[0] = 1, s->loc[1] = 20, s->loc[3] = 23, s->loc[4] = 10;
	REQUIRE(apply_ok(&m, 0, plan1(QUINTETO_OP_MOVE, QUINTETO_DIE_SUM, 0, -3), &o) == 0);
	CHECK_EQ(o.ncaptured, 1);
	CHECK_EQ(s->loc[3], QUINTETO_OUT);
	CHECK_EQ(s->loc[4], 10); /* passing over anything: only the landing room matters */
}

/* Rule 4 (D7): an alliance shields the victim, the hunter's own stone included. */
static void test_alliance(void)
{
	struct rules_match m;
	struct quinteto_state *s = &m.s.quinteto;
	struct quinteto_outcome o;

	hunt_position(&m, 0, 1, 2);
	s->loc[0] = 0, s->loc[1] = 20;
	s->loc[3] = 3, s->loc[9] = 3; /* 1's stone beside 3's */
	REQUIRE(apply_ok(&m, 0, plan1(QUINTETO_OP_MOVE, QUINTETO_DIE_SUM, 0, 3), &o) == 0);
	CHECK_EQ(o.ncaptured, 0);
	CHECK_EQ(s->loc[3], 3);
	/* the hunter's own stone there first shields the victim from its next landing */
	hunt_position(&m, 0, 1, 2);
	s->loc[0] = 0, s->loc[1] = 3, s->loc[3] = 3, s->loc[4] = 11;
	REQUIRE(apply_ok(&m, 0, plan1(QUINTETO_OP_MOVE, QUINTETO_DIE_SUM, 0, 3), &o) == 0);
	CHECK_EQ(o.ncaptured, 0);
	CHECK_EQ(s->loc[3], 3);
}

/* Rules 3 and 6: steps apply in order; an elimination lands at once, the second step hunts the new victim. */
static void test_steps_in_order_elimination(void)
{
	struct rules_match m;
	struct quinteto_state *s = &m.s.quinteto;
	struct quinteto_outcome o;
	struct rules_action a = plan2(QUINTETO_OP_MOVE, 0, 0, 1, QUINTETO_OP_MOVE, 1, 1, 2);

	hunt_position(&m, 0, 1, 2);
	s->loc[0] = 0, s->loc[1] = 10;
	s->loc[3] = 1, s->loc[4] = QUINTETO_OUT; /* 1's last stone */
	s->loc[6] = 12, s->loc[7] = 20;          /* 2's stones: 1's victim */
	s->rolloff[1] = 4;
	REQUIRE(apply_ok(&m, 0, a, &o) == 0);
	CHECK_EQ(s->rolloff[1], 4); /* the roll-off's values stay visible after it */
	CHECK_EQ(o.ncaptured, 2);
	CHECK(o.captured[0] == 3 && o.captured[1] == 6);
	CHECK_EQ(o.neliminated, 1);
	CHECK_EQ(o.eliminated[0], 1);
	CHECK(m.out & 2);                          /* out of play */
	CHECK_EQ(s->circle[1], N);                 /* the marker left: the circle closed */
	CHECK_EQ(s->loc[5], QUINTETO_OUT);         /* and so did the marker stone */
	CHECK_EQ(quinteto_victim(s, 0), 2);        /* 0 now hunts 1's victim */
	CHECK_EQ(o.phase, QUINTETO_PHASE_ARRANGE); /* four live: the arranger re-arranges (D8) */
	CHECK_EQ(s->turn, 2);                      /* then the next living hunter after 0 */
	/* the other order: the step onto 2's stone first captures nothing (2 is not yet the victim) */
	hunt_position(&m, 0, 1, 2);
	s->loc[0] = 0, s->loc[1] = 10;
	s->loc[3] = 1, s->loc[4] = QUINTETO_OUT;
	s->loc[6] = 12, s->loc[7] = 20;
	a = plan2(QUINTETO_OP_MOVE, 1, 1, 2, QUINTETO_OP_MOVE, 0, 0, 1);
	REQUIRE(apply_ok(&m, 0, a, &o) == 0);
	CHECK_EQ(o.ncaptured, 1);
	CHECK_EQ(s->loc[6], 12);
}

/* Rule 6: after the re-arrangement the next living hunter clockwise plays; no new roll-off. */
static void test_rearrange(void)
{
	struct rules_match m;
	struct quinteto_state *s = &m.s.quinteto;
	int order[4] = { 3, 2, 1, 0 }, with_dead[4] = { 4, 2, 1, 0 };
	uint8_t seats[RULES_MAX_SEATS];

	hunt_position(&m, 3, 1, 2);
	s->loc[9] = 0, s->loc[10] = 20;
	s->loc[12] = 1, s->loc[13] = QUINTETO_OUT; /* 4's last stone; 3 hunts 4 */
	REQUIRE(apply_ok(&m, 3, plan2(QUINTETO_OP_MOVE, 0, 9, 1, QUINTETO_OP_MOVE, 1, 10, 2), NULL) == 0);
	CHECK_EQ(s->phase, QUINTETO_PHASE_ARRANGE);
	CHECK_EQ(legal_count(&m, A), 24);
	CHECK_EQ(rules_to_act(&m, seats), 1);
	CHECK_EQ(seats[0], A);
	refused(&m, A, &(struct rules_action){ 0 }, RULES_E_ILLEGAL);
	{
		struct rules_action a = arrange(4, with_dead);

		refused(&m, A, &a, RULES_E_ILLEGAL);
	}
	REQUIRE(apply_ok(&m, A, arrange(4, order), NULL) == 0);
	CHECK_EQ(s->phase, QUINTETO_PHASE_HUNT);
	CHECK_EQ(s->turn, 0); /* after 3: 4 is gone, so 0 */
	CHECK_EQ(quinteto_victim(s, 3), 2);
	CHECK_EQ(quinteto_victim(s, 0), 3); /* slot 4 is followed by slot 1 */
	CHECK(!s->rolled);                  /* no new roll-off: 0 rolls for its turn */
}

/* Rule 6: with two hunters left no re-arrangement; each hunts the other. */
static void test_two_left(void)
{
	struct rules_match m;
	struct quinteto_state *s = &m.s.quinteto;

	hunt_position(&m, 0, 1, 2);
	hunter_gone(&m, 3);
	hunter_gone(&m, 4);
	s->loc[0] = 0, s->loc[1] = 20;
	s->loc[3] = 3, s->loc[4] = QUINTETO_OUT; /* 1's last stone */
	s->loc[6] = 12, s->loc[7] = QUINTETO_OUT;
	REQUIRE(apply_ok(&m, 0, plan1(QUINTETO_OP_MOVE, QUINTETO_DIE_SUM, 0, 3), NULL) == 0);
	CHECK_EQ(s->phase, QUINTETO_PHASE_HUNT);
	CHECK_EQ(s->turn, 2);
	CHECK_EQ(quinteto_victim(s, 0), 2);
	CHECK_EQ(quinteto_victim(s, 2), 0);
}

/* Rule 7 and phase 2, 1: one hunter left ends phase 1; the arranger places on an empty home. */
static void test_phase1_end_place(void)
{
	static struct rules_action l[RULES_MAX_LEGAL];
	struct rules_match m;
	struct quinteto_state *s = &m.s.quinteto;
	struct quinteto_outcome o;
	uint8_t seats[RULES_MAX_SEATS];
	int n;

	hunt_position(&m, 0, 1, 2);
	for (int h = 2; h < 5; h++)
		hunter_gone(&m, h);
	s->loc[0] = 0, s->loc[1] = 7; /* one stone on side 1's home */
	s->loc[3] = 3, s->loc[4] = QUINTETO_OUT;
	REQUIRE(apply_ok(&m, 0, plan1(QUINTETO_OP_MOVE, QUINTETO_DIE_SUM, 0, 3), &o) == 0);
	CHECK_EQ(o.phase, QUINTETO_PHASE_PLACE);
	CHECK_EQ(s->survivor, 0);
	CHECK_EQ(rules_to_act(&m, seats), 1);
	CHECK_EQ(seats[0], A);
	n = rules_legal_actions(&m, A, l, RULES_MAX_LEGAL);
	CHECK_EQ(n, 4); /* homes 2, 12, 17, 22: room 7 holds a stone */
	refused(&m, A, &(struct rules_action){ .kind = QUINTETO_ACT_PLACE, .arg = { 1 } }, RULES_E_ILLEGAL);
	CHECK_EQ(quinteto_victim(s, A), 0); /* from place on, they hunt each other */
	CHECK_EQ(quinteto_victim(s, 0), A);
	/* a stone in limbo does not make a home taken */
	s->loc[1] = QUINTETO_LIMBO;
	CHECK_EQ(legal_count(&m, A), 5);
	REQUIRE(apply_ok(&m, A, simple(QUINTETO_ACT_PLACE, 2), &o) == 0);
	CHECK_EQ(o.phase, QUINTETO_PHASE_DUEL);
	CHECK(s->loc[15] == 12 && s->loc[16] == 12 && s->loc[17] == QUINTETO_RESERVE);
	CHECK_EQ(s->loc[2], QUINTETO_MARKER); /* the survivor's marker stays */
	CHECK_EQ(rules_to_act(&m, seats), 1);
	CHECK_EQ(seats[0], A); /* the arranger rolls first */
}

/* Phase 2, 3: a 5 may kill any opponent ring stone (not in limbo); never in phase 1. */
static void test_kill(void)
{
	struct rules_match m;
	struct quinteto_state *s = &m.s.quinteto;
	struct quinteto_outcome o;
	struct rules_action a = plan2(QUINTETO_OP_KILL, 0, 0, 0, QUINTETO_OP_MOVE, 1, 15, 2);

	duel_position(&m, 0, A, 5, 2);
	s->loc[0] = 20, s->loc[1] = QUINTETO_LIMBO;
	CHECK(legal_has(&m, A, &a));
	a.arg[3] = 1; /* the stone in limbo */
	refused(&m, A, &a, RULES_E_ILLEGAL);
	a.arg[3] = 2; /* the marker */
	refused(&m, A, &a, RULES_E_ILLEGAL);
	a.arg[3] = 16; /* one's own */
	refused(&m, A, &a, RULES_E_ILLEGAL);
	a = plan2(QUINTETO_OP_KILL, 1, 0, 0, QUINTETO_OP_MOVE, 0, 15, 5); /* die 1 shows 2 */
	refused(&m, A, &a, RULES_E_ILLEGAL);
	a = plan2(QUINTETO_OP_KILL, 0, 0, 0, QUINTETO_OP_MOVE, 1, 15, 2);
	REQUIRE(apply_ok(&m, A, a, &o) == 0);
	CHECK_EQ(o.nkilled, 1);
	CHECK_EQ(o.killed[0], 0);
	CHECK_EQ(s->loc[0], QUINTETO_OUT);
	CHECK(!s->over); /* the stone in limbo still plays */
	CHECK_EQ(s->turn, 0);
	/* phase 1: no kill */
	hunt_position(&m, 0, 5, 2);
	s->loc[0] = 0, s->loc[1] = 10, s->loc[3] = 20;
	a = plan2(QUINTETO_OP_KILL, 0, 3, 0, QUINTETO_OP_MOVE, 1, 0, 2);
	refused(&m, 0, &a, RULES_E_ILLEGAL);
}

/* Phase 2, 3: 5 and 5 wins at once in the duel, whatever the position; not in phase 1. */
static void test_quinteto_roll(void)
{
	struct rules_match m;
	struct quinteto_state *s = &m.s.quinteto;
	struct quinteto_outcome o;
	struct rules_result r;

	duel_position(&m, 3, 3, 0, 0);
	s->loc[9] = 0, s->loc[10] = QUINTETO_OUT;
	dice2(&m, 5, 5);
	REQUIRE(apply_ok(&m, 3, simple(QUINTETO_ACT_ROLL, 0), &o) == 0);
	CHECK(o.quinteto && o.over);
	rules_result(&m, &r);
	CHECK(r.over && !r.draw && r.winner == 3 && r.reason == RULES_REASON_QUINTETO);
	CHECK(s->rolled && s->dice[0] == 5 && s->dice[1] == 5); /* the view keeps [5,5] */
	CHECK_EQ(s->turns, 0); /* a roll with no plan: not a completed turn */
	hunt_position(&m, 0, 0, 0);
	s->loc[0] = 0;
	dice2(&m, 5, 5);
	REQUIRE(apply_ok(&m, 0, simple(QUINTETO_ACT_ROLL, 0), &o) == 0);
	CHECK(!o.quinteto && !s->over);
	CHECK(s->rolled);
}

/* Phase 2, 4: removing all of the opponent's stones (ring and limbo) wins. */
static void test_duel_win(void)
{
	struct rules_match m;
	struct quinteto_state *s = &m.s.quinteto;
	struct rules_result r;

	duel_position(&m, 1, 1, 3, 1);
	s->loc[3] = 8, s->loc[4] = QUINTETO_OUT;
	s->loc[16] = QUINTETO_LIMBO; /* 15 on 12 alone, 16 in limbo */
	REQUIRE(apply_ok(&m, 1, plan1(QUINTETO_OP_MOVE, QUINTETO_DIE_SUM, 3, 4), NULL) == 0);
	CHECK_EQ(s->loc[15], QUINTETO_OUT);
	CHECK(!s->over); /* 16 in limbo is still the arranger's */
	CHECK_EQ(s->turn, A);
	s->rolled = 1, s->dice[0] = 1, s->dice[1] = 2;
	s->turn = 1;
	s->loc[16] = 12; /* say it came back; 1 lands on it */
	s->loc[3] = 9;
	REQUIRE(apply_ok(&m, 1, plan1(QUINTETO_OP_MOVE, QUINTETO_DIE_SUM, 3, 3), NULL) == 0);
	rules_result(&m, &r);
	CHECK(r.over && r.winner == 1 && r.reason == RULES_REASON_DUEL);
	/* the arranger's exit lands on its own home */
	duel_position(&m, 1, A, 2, 3);
	s->loc[15] = QUINTETO_LIMBO, s->loc[16] = QUINTETO_OUT;
	s->loc[3] = 12, s->loc[4] = QUINTETO_OUT;
	REQUIRE(apply_ok(&m, A, plan1(QUINTETO_OP_EXIT, 0, 15, 0), NULL) == 0);
	rules_result(&m, &r);
	CHECK(r.over && r.winner == A && r.reason == RULES_REASON_DUEL);
}

/* Limits: max_turns counts completed turns; reached without a winner, a draw. */
static void test_max_turns(void)
{
	struct rules_match m;
	struct quinteto_state *s = &m.s.quinteto;
	struct rules_options opt = { .max_turns = 10 };
	static const uint8_t seed[RULES_SEED_SIZE];
	struct rules_result r;

	hunt_position(&m, 0, 1, 2);
	REQUIRE(rules_match_start(&m, &rules_game_quinteto, seed, &opt) == 0);
	for (int h = 0; h < 5; h++)
		s->circle[h] = (uint8_t)h;
	s->arranged = 1, s->phase = QUINTETO_PHASE_HUNT, s->rolled = 1, s->dice[0] = 1, s->dice[1] = 2;
	s->turns = 8;
	REQUIRE(apply_ok(&m, 0, plan1(QUINTETO_OP_MOVE, QUINTETO_DIE_SUM, 0, 3), NULL) == 0);
	rules_result(&m, &r);
	CHECK(!r.over);
	CHECK_EQ(s->turns, 9);
	s->rolled = 1, s->dice[0] = 1, s->dice[1] = 2;
	REQUIRE(apply_ok(&m, 1, plan1(QUINTETO_OP_MOVE, QUINTETO_DIE_SUM, 3, 3), NULL) == 0);
	rules_result(&m, &r);
	CHECK(r.over && r.draw && r.winner == -1 && r.reason == RULES_REASON_MAX_TURNS);
	CHECK_EQ(rules_to_act(&m, (uint8_t[RULES_MAX_SEATS]){ 0 }), 0);
	/* the default is 2000 */
	hunt_position(&m, 0, 1, 2);
	s->turns = 1998;
	REQUIRE(apply_ok(&m, 0, plan1(QUINTETO_OP_MOVE, QUINTETO_DIE_SUM, 0, 3), NULL) == 0);
	CHECK(!s->over);
	s->rolled = 1, s->dice[0] = 1, s->dice[1] = 2;
	REQUIRE(apply_ok(&m, 1, plan1(QUINTETO_OP_MOVE, QUINTETO_DIE_SUM, 3, 3), NULL) == 0);
	CHECK(s->over && s->reason == RULES_REASON_MAX_TURNS);
}

/* protocol.md resign: a hunter is eliminated at once; its own turn passes clockwise. */
static void test_resign_hunter(void)
{
	struct rules_match m;
	struct quinteto_state *s = &m.s.quinteto;
	union rules_outcome u;
	uint32_t ply;

	hunt_position(&m, 1, 3, 4);
	ply = m.ply;
	REQUIRE(rules_event(&m, 3, RULES_EVENT_RESIGN, &u) == 0);
	CHECK_EQ(u.quinteto.neliminated, 1);
	CHECK(s->loc[9] == QUINTETO_OUT && s->loc[10] == QUINTETO_OUT && s->loc[11] == QUINTETO_OUT);
	CHECK_EQ(s->circle[3], N);
	CHECK_EQ(quinteto_victim(s, 2), 4);
	CHECK_EQ(m.ply, ply);
	CHECK_EQ(s->turn, 1); /* 1's turn goes on */
	CHECK_EQ(rules_event(&m, 3, RULES_EVENT_RESIGN, NULL), RULES_E_OUT_OF_PLAY);
	REQUIRE(apply_ok(&m, 1, plan1(QUINTETO_OP_MOVE, QUINTETO_DIE_SUM, 3, 7), NULL) == 0);
	CHECK_EQ(s->phase, QUINTETO_PHASE_ARRANGE); /* that turn saw an elimination, four live */
	CHECK_EQ(s->turn, 2);
	/* the hunter on turn resigns: its roll is dropped, the next hunter plays */
	hunt_position(&m, 1, 3, 4);
	hunter_gone(&m, 3);
	hunter_gone(&m, 4);
	REQUIRE(rules_event(&m, 1, RULES_EVENT_FORFEIT, NULL) == 0);
	CHECK_EQ(s->phase, QUINTETO_PHASE_HUNT); /* two left: nothing to arrange */
	CHECK_EQ(s->turn, 2);
	CHECK(!s->rolled);
	/* one left: phase 1 ends at once */
	REQUIRE(rules_event(&m, 2, RULES_EVENT_RESIGN, NULL) == 0);
	CHECK_EQ(s->phase, QUINTETO_PHASE_PLACE);
	CHECK_EQ(s->survivor, 0);
}

/* A hunter resigning in the roll-off leaves it; the last contender starts. */
static void test_resign_rolloff(void)
{
	struct rules_match m;
	struct quinteto_state *s = &m.s.quinteto;

	hunt_position(&m, 0, 0, 0);
	s->phase = QUINTETO_PHASE_ROLLOFF;
	s->contenders = 0x03; /* 0 and 1 tied, re-rolling */
	s->rolloff[2] = 4, s->rolloff[3] = 2, s->rolloff[4] = 1;
	REQUIRE(rules_event(&m, 1, RULES_EVENT_RESIGN, NULL) == 0);
	CHECK_EQ(s->phase, QUINTETO_PHASE_HUNT);
	CHECK_EQ(s->turn, 0);
	CHECK(!s->eliminated); /* no turn was played: no re-arrangement */
}

/* protocol.md resign: the arranger in phase 1 ends the match drawn; in the duel the survivor wins. */
static void test_resign_arranger(void)
{
	struct rules_match m;
	struct rules_result r;

	hunt_position(&m, 1, 3, 4);
	REQUIRE(rules_event(&m, A, RULES_EVENT_RESIGN, NULL) == 0);
	rules_result(&m, &r);
	CHECK(r.over && r.draw && r.winner == -1 && r.reason == RULES_REASON_RESIGN);
	duel_position(&m, 2, 2, 3, 4);
	m.s.quinteto.loc[6] = 0;
	REQUIRE(rules_event(&m, A, RULES_EVENT_FORFEIT, NULL) == 0);
	rules_result(&m, &r);
	CHECK(r.over && !r.draw && r.winner == 2 && r.reason == RULES_REASON_FORFEIT);
	duel_position(&m, 2, A, 3, 4);
	m.s.quinteto.loc[6] = 0;
	REQUIRE(rules_event(&m, 2, RULES_EVENT_RESIGN, NULL) == 0);
	rules_result(&m, &r);
	CHECK(r.over && r.winner == A);
	CHECK_EQ(rules_event(&m, A, RULES_EVENT_RESIGN, NULL), RULES_E_GAME_OVER);
}

/* Rule 6: the re-arrangement follows the turn that eliminated; the next turn without one does not re-arrange.
 */
static void test_rearrange_once(void)
{
	struct rules_match m;
	struct quinteto_state *s = &m.s.quinteto;
	int order[4] = { 3, 2, 1, 0 };

	hunt_position(&m, 3, 1, 2);
	s->loc[9] = 0, s->loc[10] = 20;
	s->loc[12] = 1, s->loc[13] = QUINTETO_OUT; /* 4's last stone; 3 hunts 4 */
	REQUIRE(apply_ok(&m, 3, plan2(QUINTETO_OP_MOVE, 0, 9, 1, QUINTETO_OP_MOVE, 1, 10, 2), NULL) == 0);
	REQUIRE(s->phase == QUINTETO_PHASE_ARRANGE);
	REQUIRE(apply_ok(&m, A, arrange(4, order), NULL) == 0);
	REQUIRE(s->turn == 0);
	s->rolled = 1, s->dice[0] = 1, s->dice[1] = 2;
	REQUIRE(apply_ok(&m, 0, plan1(QUINTETO_OP_MOVE, QUINTETO_DIE_SUM, 0, 3), NULL) ==
		0);                              /* 2 -> 5: empty */
	CHECK_EQ(s->phase, QUINTETO_PHASE_HUNT); /* nobody was eliminated in this turn */
	CHECK_EQ(s->turn, 1);
}

/*
 * protocol.md resign, in `arrange`: before the first arrangement the resigner
 * is neither arranged nor in the roll-off; during a re-arrangement the hunter
 * due to play next is replaced by the next living one, two left hunt on with
 * nothing to arrange, and nothing is re-arranged again after the next turn.
 */
static void test_resign_arrange(void)
{
	struct rules_match m;
	struct quinteto_state *s = &m.s.quinteto;
	uint8_t seats[RULES_MAX_SEATS];
	int four[4] = { 0, 1, 2, 3 }, three[3] = { 0, 4, 3 };

	match_new(&m);
	REQUIRE(rules_event(&m, 4, RULES_EVENT_RESIGN, NULL) == 0);
	CHECK_EQ(s->phase, QUINTETO_PHASE_ARRANGE);
	CHECK_EQ(legal_count(&m, A), 24);
	REQUIRE(apply_ok(&m, A, arrange(4, four), NULL) == 0);
	CHECK_EQ(rules_to_act(&m, seats), 4); /* the resigner does not roll off */
	CHECK(!(s->contenders & (1u << 4)));
	/* a re-arrangement after 0 eliminated 1: 2 was due next and resigns; 3 plays after the arrangement */
	hunt_position(&m, 0, 1, 2);
	s->loc[0] = 0, s->loc[1] = 20;
	s->loc[3] = 3, s->loc[4] = QUINTETO_OUT; /* 1's last stone */
	REQUIRE(apply_ok(&m, 0, plan1(QUINTETO_OP_MOVE, QUINTETO_DIE_SUM, 0, 3), NULL) == 0);
	REQUIRE(s->phase == QUINTETO_PHASE_ARRANGE && s->turn == 2);
	REQUIRE(rules_event(&m, 2, RULES_EVENT_RESIGN, NULL) == 0);
	CHECK_EQ(s->phase, QUINTETO_PHASE_ARRANGE); /* three live */
	CHECK_EQ(legal_count(&m, A), 6);
	CHECK_EQ(s->turn, 3);
	REQUIRE(apply_ok(&m, A, arrange(3, three), NULL) == 0);
	CHECK_EQ(s->phase, QUINTETO_PHASE_HUNT);
	CHECK_EQ(s->turn, 3);
	s->rolled = 1, s->dice[0] = 1, s->dice[1] = 2;
	REQUIRE(apply_ok(&m, 3, plan1(QUINTETO_OP_MOVE, QUINTETO_DIE_SUM, 9, -3), NULL) ==
		0);                              /* 17 -> 14: empty */
	CHECK_EQ(s->phase, QUINTETO_PHASE_HUNT); /* no elimination in that turn: no re-arrangement */
	CHECK_EQ(s->turn, 4);
	/* the same with two left after the resignation: the hunt goes on, they hunt each other */
	hunt_position(&m, 0, 1, 2);
	hunter_gone(&m, 4);
	s->loc[0] = 0, s->loc[1] = 20;
	s->loc[3] = 3, s->loc[4] = QUINTETO_OUT;
	REQUIRE(apply_ok(&m, 0, plan1(QUINTETO_OP_MOVE, QUINTETO_DIE_SUM, 0, 3), NULL) == 0);
	REQUIRE(s->phase == QUINTETO_PHASE_ARRANGE && s->turn == 2);
	REQUIRE(rules_event(&m, 2, RULES_EVENT_RESIGN, NULL) == 0);
	CHECK_EQ(s->phase, QUINTETO_PHASE_HUNT);
	CHECK_EQ(s->turn, 3);
	CHECK_EQ(quinteto_victim(s, 0), 3);
	CHECK_EQ(quinteto_victim(s, 3), 0);
	CHECK_EQ(rules_to_act(&m, seats), 1);
	CHECK_EQ(seats[0], 3);
}

/* Rule 6 (D8): three hunters left after an elimination is still "three or more": the arranger re-arranges. */
static void test_rearrange_three(void)
{
	struct rules_match m;
	struct quinteto_state *s = &m.s.quinteto;
	uint8_t seats[RULES_MAX_SEATS];

	hunt_position(&m, 0, 1, 2);
	hunter_gone(&m, 4);
	s->loc[0] = 0, s->loc[1] = 20;
	s->loc[3] = 3, s->loc[4] = QUINTETO_OUT; /* 1's last stone */
	REQUIRE(apply_ok(&m, 0, plan1(QUINTETO_OP_MOVE, QUINTETO_DIE_SUM, 0, 3), NULL) == 0);
	CHECK_EQ(s->phase, QUINTETO_PHASE_ARRANGE);
	CHECK_EQ(legal_count(&m, A), 6); /* 3! orders of 0, 2, 3 */
	CHECK_EQ(rules_to_act(&m, seats), 1);
	CHECK_EQ(seats[0], A);
	CHECK_EQ(s->turn, 2);
}

/* Rule 3/5: no 6, no enter (a 5 does not do, in the hunt or in the duel). */
static void test_enter_needs_six(void)
{
	struct rules_match m;
	struct quinteto_state *s = &m.s.quinteto;
	struct rules_action a;

	hunt_position(&m, 0, 5, 4);
	s->loc[0] = 0, s->loc[1] = 10;
	a = plan1(QUINTETO_OP_ENTER, 0, 0, 0);
	refused(&m, 0, &a, RULES_E_ILLEGAL);
	a = plan2(QUINTETO_OP_ENTER, 0, 0, 0, QUINTETO_OP_MOVE, 1, 1, 4);
	refused(&m, 0, &a, RULES_E_ILLEGAL);
	CHECK_EQ(legal_count(&m, 0), 4 + 16); /* sums and pairs of moves only */
	duel_position(&m, 0, A, 5, 4);
	s->loc[0] = 0, s->loc[1] = 20;
	a = plan2(QUINTETO_OP_ENTER, 0, 15, 0, QUINTETO_OP_MOVE, 1, 16, 4);
	refused(&m, A, &a, RULES_E_ILLEGAL);
}

/* protocol.md resign: one hunter left ends phase 1 at once, its pending roll dropped; a roll-off leaver's
 * value goes. */
static void test_resign_last_rival(void)
{
	struct rules_match m;
	struct quinteto_state *s = &m.s.quinteto;
	uint8_t seats[RULES_MAX_SEATS];

	hunt_position(&m, 0, 3, 4); /* 0 has rolled and not yet played */
	for (int h = 2; h < 5; h++)
		hunter_gone(&m, h);
	REQUIRE(rules_event(&m, 1, RULES_EVENT_RESIGN, NULL) == 0);
	CHECK_EQ(s->phase, QUINTETO_PHASE_PLACE);
	CHECK_EQ(s->survivor, 0);
	CHECK(!s->rolled); /* the view's dice are null */
	CHECK_EQ(rules_to_act(&m, seats), 1);
	CHECK_EQ(seats[0], A);
	/* the first roll-off: 2 rolled a 6 and leaves; it no longer shows, the others still roll */
	hunt_position(&m, 0, 0, 0);
	s->phase = QUINTETO_PHASE_ROLLOFF;
	s->contenders = 0x1f;
	s->rolloff[2] = 6, s->rolloff[3] = 2;
	REQUIRE(rules_event(&m, 2, RULES_EVENT_RESIGN, NULL) == 0);
	CHECK_EQ(s->phase, QUINTETO_PHASE_ROLLOFF);
	CHECK_EQ(s->rolloff[2], 0);
	CHECK_EQ(s->rolloff[3], 2);
	CHECK_EQ(rules_to_act(&m, seats), 3); /* 0, 1 and 4 */
}

/* Refused calls: every error leaves the match byte-identical. */
static void test_errors_untouched(void)
{
	struct rules_match m;
	struct rules_action a = plan1(QUINTETO_OP_MOVE, QUINTETO_DIE_SUM, 0, 7), junk;

	hunt_position(&m, 0, 3, 4);
	m.s.quinteto.loc[0] = 0, m.s.quinteto.loc[1] = 5;
	refused(&m, 1, &a, RULES_E_NOT_TO_ACT);
	refused(&m, A, &a, RULES_E_NOT_TO_ACT);
	refused(&m, 6, &a, RULES_E_BAD_SEAT);
	refused(&m, -1, &a, RULES_E_BAD_SEAT);
	memset(&junk, 0, sizeof(junk));
	refused(&m, 0, &junk, RULES_E_ILLEGAL);
	junk.kind = 99;
	refused(&m, 0, &junk, RULES_E_ILLEGAL);
	junk = simple(QUINTETO_ACT_ROLL, 0); /* already rolled */
	refused(&m, 0, &junk, RULES_E_ILLEGAL);
	junk = a;
	junk.arg[9] = 1; /* a stray byte past the form */
	refused(&m, 0, &junk, RULES_E_ILLEGAL);
	CHECK_EQ(rules_apply(&m, 0, &a, NULL), 0);
	m.s.quinteto.over = 1, m.s.quinteto.phase = QUINTETO_PHASE_OVER;
	refused(&m, 0, &a, RULES_E_GAME_OVER);
}

/* --- Random playouts with the game's invariants. */

/* 18 stones somewhere valid; each living hunter has its marker on the circle; the circle holds the living. */
static bool invariants(const struct rules_match *m)
{
	const struct quinteto_state *s = &m->s.quinteto;
	int living = 0, on_circle = 0;

	for (int k = 0; k < QUINTETO_STONES; k++)
		if (s->loc[k] > QUINTETO_OUT)
			return false;
	for (int h = 0; h < 5; h++) {
		bool alive = s->loc[3 * h] <= QUINTETO_LIMBO || s->loc[3 * h + 1] <= QUINTETO_LIMBO;

		living += alive;
		if (alive == !!(m->out & (1u << h)) && h != s->survivor)
			return false;
		if (s->loc[3 * h + 2] != ((alive || h == s->survivor) ? QUINTETO_MARKER : QUINTETO_OUT))
			return false;
		on_circle += s->circle[h] != N;
	}
	if (s->arranged && s->survivor == N && on_circle != living)
		return false;
	if (s->survivor == N && living >= 2 && s->arranged)
		for (int h = 0; h < 5; h++) {
			bool alive = s->loc[3 * h] <= QUINTETO_LIMBO || s->loc[3 * h + 1] <= QUINTETO_LIMBO;
			uint8_t v = quinteto_victim(s, h);

			if (alive &&
			    (v == N || v == h ||
			     !(s->loc[3 * v] <= QUINTETO_LIMBO || s->loc[3 * v + 1] <= QUINTETO_LIMBO)))
				return false;
		}
	return s->loc[17] == QUINTETO_RESERVE && (s->over == (s->phase == QUINTETO_PHASE_OVER));
}

static void test_playouts(void)
{
	int reasons[16] = { 0 }, matches = 3000;
	struct fixture_lcg x = { 7 };
	long plies = 0;

	for (int i = 0; i < matches; i++) {
		uint8_t seed[RULES_SEED_SIZE] = { (uint8_t)i, (uint8_t)(i >> 8), 0x51 },
			seats[RULES_MAX_SEATS];
		struct rules_match m;
		struct rules_result r;

		REQUIRE(rules_match_start(&m, &rules_game_quinteto, seed, NULL) == 0);
		while (rules_to_act(&m, seats) > 0) {
			struct rules_action a;
			int seat;

			REQUIRE(fixture_pick(&m, &x, &seat, &a) == 0);
			REQUIRE(rules_apply(&m, seat, &a, NULL) == 0);
			plies++;
			if (!invariants(&m)) {
				printf("# match %d ply %u: invariants broken\n", i, m.ply);
				CHECK(0);
				return;
			}
			REQUIRE(m.ply < 20000);
		}
		rules_result(&m, &r);
		REQUIRE(r.over);
		reasons[r.reason]++;
	}
	printf("# %d matches, %ld plies: duel %d, quinteto %d, max_turns %d\n", matches, plies,
	       reasons[RULES_REASON_DUEL], reasons[RULES_REASON_QUINTETO], reasons[RULES_REASON_MAX_TURNS]);
	CHECK(reasons[RULES_REASON_DUEL] > 0 && reasons[RULES_REASON_QUINTETO] > 0);
}

/* --- Perft. */

/* The named positions of tests/perft/quinteto.txt. */
static bool perft_position(const char *name, struct rules_match *m)
{
	struct quinteto_state *s = &m->s.quinteto;

	if (strcmp(name, "hunt-34") == 0) {
		hunt_position(m, 0, 3, 4);
		for (int h = 0; h < 5; h++)
			s->loc[3 * h] = s->loc[3 * h + 1] = (uint8_t)(5 * h + 2);
		return true;
	}
	if (strcmp(name, "hunt-66") == 0) {
		hunt_position(m, 0, 6, 6);
		for (int h = 0; h < 5; h++)
			s->loc[3 * h] = s->loc[3 * h + 1] = (uint8_t)(5 * h + 2);
		return true;
	}
	if (strcmp(name, "limbo-25") == 0) {
		hunt_position(m, 0, 2, 5);
		for (int h = 1; h < 5; h++)
			s->loc[3 * h] = s->loc[3 * h + 1] = (uint8_t)(5 * h + 2);
		s->loc[0] = QUINTETO_LIMBO, s->loc[1] = QUINTETO_OUT;
		return true;
	}
	if (strcmp(name, "duel-56") == 0) {
		duel_position(m, 0, A, 5, 6);
		s->loc[0] = 0, s->loc[1] = 20;
		return true;
	}
	return false;
}

/* tests/perft/quinteto.txt: "<seed hex> <depth> <count>" from the start, or "position <name> <depth>
 * <count>". */
static int quinteto_line(const char *line, const struct rules_game *game, struct perft_case *c)
{
	char name[32];

	if (sscanf(line, "position %31s %d %llu", name, &c->depth, &c->want) != 3)
		return perft_seed_line(line, game, c);
	return perft_position(name, &c->m) ? 1 : -EINVAL;
}

static void test_perft(void)
{
	int mismatches,
		cases = perft_file_run(perft_path, &rules_game_quinteto, quinteto_line, 0, &mismatches);

	REQUIRE(cases >= 0);
	CHECK(mismatches == 0);
	CHECK(cases > 0);
}

/* --- On the wire: the codec's view, outcome and legal list as protocol/games/quinteto/README.md has them. */

/* True if `got` (consumed) equals the JSON text `want`; prints both when not. */
static bool json_is(json_t *got, const char *want)
{
	json_t *w = json_loads(want, JSON_DECODE_ANY, NULL);
	bool eq = got && w && json_equal(got, w);

	if (!eq) {
		char *g = got ? json_dumps(got, JSON_COMPACT) : NULL;

		printf("# got  %s\n# want %s\n", g ? g : "(null)", want);
		free(g);
	}
	json_decref(got);
	json_decref(w);
	return eq;
}

static const struct wire_game *codec(void)
{
	return wire_game_find("quinteto");
}

/* The view: every key, every stone's place, victims from the circle, dice only while a plan is due. */
static void test_wire_view(void)
{
	struct rules_match m;
	struct quinteto_state *s = &m.s.quinteto;
	int v[2] = { 5, 5 };

	REQUIRE(codec());
	match_new(&m);
	CHECK(json_is(
		codec()->view(&m),
		"{\"phase\":\"arrange\",\"dice\":null,\"circle\":[null,null,null,null,null],\"stones\":["
		"{\"seat\":0,\"where\":\"room\",\"room\":2},{\"seat\":0,\"where\":\"room\",\"room\":2},"
		"{\"seat\":0,\"where\":\"marker\"},{\"seat\":1,\"where\":\"room\",\"room\":7},"
		"{\"seat\":1,\"where\":\"room\",\"room\":7},{\"seat\":1,\"where\":\"marker\"},"
		"{\"seat\":2,\"where\":\"room\",\"room\":12},{\"seat\":2,\"where\":\"room\",\"room\":12},"
		"{\"seat\":2,\"where\":\"marker\"},{\"seat\":3,\"where\":\"room\",\"room\":17},"
		"{\"seat\":3,\"where\":\"room\",\"room\":17},{\"seat\":3,\"where\":\"marker\"},"
		"{\"seat\":4,\"where\":\"room\",\"room\":22},{\"seat\":4,\"where\":\"room\",\"room\":22},"
		"{\"seat\":4,\"where\":\"marker\"},{\"seat\":5,\"where\":\"reserve\"},"
		"{\"seat\":5,\"where\":\"reserve\"},{\"seat\":5,\"where\":\"reserve\"}],"
		"\"victim\":[null,null,null,null,null,null],\"rolloff\":[null,null,null,null,null],"
		"\"turns\":0}"));
	/* the hunt: 3 eliminated (its slot empty, 2 hunts 4), 0 in limbo, hunter 1 has rolled 6 and 3 */
	hunt_position(&m, 1, 6, 3);
	hunter_gone(&m, 3);
	s->loc[0] = QUINTETO_LIMBO, s->loc[4] = 20;
	s->rolloff[0] = 6, s->rolloff[1] = 2, s->rolloff[2] = 3, s->rolloff[3] = 5, s->rolloff[4] = 1;
	s->turns = 7;
	CHECK(json_is(
		codec()->view(&m),
		"{\"phase\":\"hunt\",\"dice\":[6,3],\"circle\":[0,1,2,null,4],\"stones\":["
		"{\"seat\":0,\"where\":\"limbo\"},{\"seat\":0,\"where\":\"room\",\"room\":2},"
		"{\"seat\":0,\"where\":\"marker\"},{\"seat\":1,\"where\":\"room\",\"room\":7},"
		"{\"seat\":1,\"where\":\"room\",\"room\":20},{\"seat\":1,\"where\":\"marker\"},"
		"{\"seat\":2,\"where\":\"room\",\"room\":12},{\"seat\":2,\"where\":\"room\",\"room\":12},"
		"{\"seat\":2,\"where\":\"marker\"},{\"seat\":3,\"where\":\"out\"},"
		"{\"seat\":3,\"where\":\"out\"},{\"seat\":3,\"where\":\"out\"},"
		"{\"seat\":4,\"where\":\"room\",\"room\":22},{\"seat\":4,\"where\":\"room\",\"room\":22},"
		"{\"seat\":4,\"where\":\"marker\"},{\"seat\":5,\"where\":\"reserve\"},"
		"{\"seat\":5,\"where\":\"reserve\"},{\"seat\":5,\"where\":\"reserve\"}],"
		"\"victim\":[1,2,4,null,0,null],\"rolloff\":[6,2,3,5,1],\"turns\":7}"));
	/* the plan played: dice null again, one more turn */
	REQUIRE(apply_ok(&m, 1, plan1(QUINTETO_OP_MOVE, QUINTETO_DIE_SUM, 3, 9), NULL) == 0);
	{
		json_t *j = codec()->view(&m);

		CHECK(json_is_null(json_object_get(j, "dice")));
		CHECK_EQ(json_integer_value(json_object_get(j, "turns")), 8);
		json_decref(j);
	}
	/* the duel: the arranger and the survivor hunt each other; a Quinteto keeps [5,5] in the final view
	 */
	duel_position(&m, 0, A, 0, 0);
	s->loc[1] = QUINTETO_LIMBO;
	{
		json_t *j = codec()->view(&m);

		CHECK(json_is(json_incref(json_object_get(j, "victim")), "[5,null,null,null,null,0]"));
		CHECK(json_is(json_incref(json_object_get(j, "circle")), "[0,null,null,null,null]"));
		CHECK(json_is(json_incref(json_object_get(j, "stones")),
			      "[{\"seat\":0,\"where\":\"room\",\"room\":2},{\"seat\":0,\"where\":\"limbo\"},"
			      "{\"seat\":0,\"where\":\"marker\"},{\"seat\":1,\"where\":\"out\"},"
			      "{\"seat\":1,\"where\":\"out\"},{\"seat\":1,\"where\":\"out\"},{\"seat\":2,"
			      "\"where\":\"out\"},"
			      "{\"seat\":2,\"where\":\"out\"},{\"seat\":2,\"where\":\"out\"},{\"seat\":3,"
			      "\"where\":\"out\"},"
			      "{\"seat\":3,\"where\":\"out\"},{\"seat\":3,\"where\":\"out\"},{\"seat\":4,"
			      "\"where\":\"out\"},"
			      "{\"seat\":4,\"where\":\"out\"},{\"seat\":4,\"where\":\"out\"},"
			      "{\"seat\":5,\"where\":\"room\",\"room\":12},{\"seat\":5,\"where\":\"room\","
			      "\"room\":12},"
			      "{\"seat\":5,\"where\":\"reserve\"}]"));
		CHECK(json_is(json_incref(json_object_get(j, "phase")), "\"duel\""));
		CHECK(json_is_null(json_object_get(j, "dice")));
		json_decref(j);
	}
	dice_force(&m, v, 2);
	REQUIRE(apply_ok(&m, A, simple(QUINTETO_ACT_ROLL, 0), NULL) == 0);
	{
		json_t *j = codec()->view(&m);

		CHECK(json_is(json_incref(json_object_get(j, "dice")), "[5,5]"));
		CHECK(json_is(json_incref(json_object_get(j, "phase")), "\"over\""));
		json_decref(j);
	}
}

/* last.outcome: the same keys for every action; what a roll, a tie, a capture, a kill and a Quinteto did. */
static void test_wire_outcome(void)
{
	struct rules_match m;
	struct quinteto_state *s = &m.s.quinteto;
	union rules_outcome u;
	struct rules_action a;
	int one[1] = { 1 }, two[2] = { 5, 5 }, order[5] = { 0, 1, 2, 3, 4 };

	REQUIRE(codec());
	/* the first arrangement starts the roll-off */
	match_new(&m);
	a = arrange(5, order);
	REQUIRE(rules_apply(&m, A, &a, &u) == 0);
	CHECK(json_is(
		codec()->outcome_encode(&m, &a, &u),
		"{\"dice\":null,\"rolloff\":null,\"tied\":[],\"starts\":null,\"captured\":[],\"killed\":[],"
		"\"eliminated\":[],\"phase\":\"rolloff\",\"quinteto\":false,\"over\":false}"));
	/* a roll-off roll that leaves 0, 2 and 3 tied */
	hunt_position(&m, 0, 0, 0);
	s->phase = QUINTETO_PHASE_ROLLOFF;
	s->contenders = 0x1f;
	s->rolloff[0] = 6, s->rolloff[1] = 3, s->rolloff[2] = 6, s->rolloff[3] = 6;
	dice_force(&m, one, 1);
	a = simple(QUINTETO_ACT_ROLL, 0);
	REQUIRE(rules_apply(&m, 4, &a, &u) == 0);
	CHECK(json_is(
		codec()->outcome_encode(&m, &a, &u),
		"{\"dice\":null,\"rolloff\":1,\"tied\":[0,2,3],\"starts\":null,\"captured\":[],\"killed\":[],"
		"\"eliminated\":[],\"phase\":null,\"quinteto\":false,\"over\":false}"));
	/* a plan whose first step eliminates 1 and whose second captures on 1's victim 2 */
	hunt_position(&m, 0, 1, 2);
	s->loc[0] = 0, s->loc[1] = 10;
	s->loc[3] = 1, s->loc[4] = QUINTETO_OUT;
	s->loc[6] = 12, s->loc[7] = 20;
	a = plan2(QUINTETO_OP_MOVE, 0, 0, 1, QUINTETO_OP_MOVE, 1, 1, 2);
	REQUIRE(rules_apply(&m, 0, &a, &u) == 0);
	CHECK(json_is(codec()->outcome_encode(&m, &a, &u),
		      "{\"dice\":null,\"rolloff\":null,\"tied\":[],\"starts\":null,\"captured\":[3,6],"
		      "\"killed\":[],"
		      "\"eliminated\":[1],\"phase\":\"arrange\",\"quinteto\":false,\"over\":false}"));
	/* a kill then a move that wins the duel */
	duel_position(&m, 0, A, 5, 2);
	s->loc[0] = 20, s->loc[1] = 14;
	a = plan2(QUINTETO_OP_KILL, 0, 0, 0, QUINTETO_OP_MOVE, 1, 15, 2);
	REQUIRE(rules_apply(&m, A, &a, &u) == 0);
	CHECK(json_is(
		codec()->outcome_encode(&m, &a, &u),
		"{\"dice\":null,\"rolloff\":null,\"tied\":[],\"starts\":null,\"captured\":[1],\"killed\":[0],"
		"\"eliminated\":[],\"phase\":\"over\",\"quinteto\":false,\"over\":true}"));
	/* a Quinteto */
	duel_position(&m, 0, 0, 0, 0);
	dice_force(&m, two, 2);
	a = simple(QUINTETO_ACT_ROLL, 0);
	REQUIRE(rules_apply(&m, 0, &a, &u) == 0);
	CHECK(json_is(
		codec()->outcome_encode(&m, &a, &u),
		"{\"dice\":[5,5],\"rolloff\":null,\"tied\":[],\"starts\":null,\"captured\":[],\"killed\":[],"
		"\"eliminated\":[],\"phase\":\"over\",\"quinteto\":true,\"over\":true}"));
	{
		struct rules_result r;

		rules_result(&m, &r);
		CHECK(json_is(codec()->result_encode(&r),
			      "{\"winner\":0,\"draw\":false,\"reason\":\"quinteto\"}"));
	}
}

/* Every legal action encodes to one of the spec's forms and decodes back to the very same action. */
static void test_wire_legal_roundtrip(void)
{
	static struct rules_action l[RULES_MAX_LEGAL];
	static const char *const positions[] = { "hunt-34", "hunt-66", "limbo-25", "duel-56" };
	struct rules_match m;
	int total = 0;

	REQUIRE(codec());
	for (int p = -1; p < 4; p++) {
		uint8_t seats[RULES_MAX_SEATS];
		int n;

		if (p < 0)
			match_new(&m);
		else
			REQUIRE(perft_position(positions[p], &m));
		REQUIRE(rules_to_act(&m, seats) == 1);
		n = rules_legal_actions(&m, seats[0], l, RULES_MAX_LEGAL);
		for (int i = 0; i < n; i++) {
			json_t *j = codec()->action_encode(&l[i]);
			struct rules_action back;

			CHECK(j != NULL);
			CHECK_EQ(codec()->action_decode(j, &back), 0);
			CHECK(rules_action_equal(&back, &l[i]));
			json_decref(j);
			total++;
		}
	}
	CHECK_EQ(total, 120 + 20 + 44 + 2 + 54);
}

int main(int argc, char **argv)
{
	if (argc > 1)
		perft_path = argv[1];
	TEST(test_start);
	TEST(test_arrange);
	TEST(test_arrange_refused);
	TEST(test_rolloff);
	TEST(test_rolloff_tie);
	TEST(test_turns_clockwise_skip);
	TEST(test_plans_count);
	TEST(test_enter);
	TEST(test_exit_single_step);
	TEST(test_capture);
	TEST(test_alliance);
	TEST(test_steps_in_order_elimination);
	TEST(test_rearrange);
	TEST(test_two_left);
	TEST(test_phase1_end_place);
	TEST(test_kill);
	TEST(test_quinteto_roll);
	TEST(test_duel_win);
	TEST(test_max_turns);
	TEST(test_resign_hunter);
	TEST(test_resign_rolloff);
	TEST(test_resign_arranger);
	TEST(test_rearrange_once);
	TEST(test_rearrange_three);
	TEST(test_resign_arrange);
	TEST(test_resign_last_rival);
	TEST(test_enter_needs_six);
	TEST(test_errors_untouched);
	TEST(test_playouts);
	TEST(test_perft);
	TEST(test_wire_view);
	TEST(test_wire_outcome);
	TEST(test_wire_legal_roundtrip);
	return tap_done();
}
