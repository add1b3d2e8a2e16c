/*
 * test_laquet.c: the Laquet rules core against protocol/games/laquet/README.md, one test per
 * rule: the setup, the shared track and blocked points, the point between
 * two dice of one man, doubles not doubled, the maximum use of the dice and
 * the larger-die rule (D2), automatic passes, the handed dice and the bonus
 * (D3), bearing off (exact, the farthest man, judged step by step), winning,
 * resigning, and refused calls that leave the match byte-identical. Every
 * "check that must hold" of the spec has its own test. Positions are set by
 * writing the state directly; rolls are forced by choosing a dice seed whose
 * next two dice are the wanted ones. Last, the codec's view, the outcome
 * JSON protocol/games/laquet/README.md shows, strict decoding, a view read
 * back by the text codec (laquet_text.c), and perft counts pinned in
 * tests/perft/laquet.txt.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "config.h"
#include "rules.h"
#include "match_fixture.h"
#include "perft.h"
#include "tap.h"
#include "text.h"
#include "wire.h"

#ifndef LAQUET_PERFT_FILE
#define LAQUET_PERFT_FILE QUINTETO_SOURCE_WEB "/../../tests/perft/laquet.txt"
#endif

static const char *perft_path = LAQUET_PERFT_FILE;

#define W 0
#define B 1

static void match_new(struct rules_match *m)
{
	static const uint8_t seed[RULES_SEED_SIZE];

	REQUIRE(rules_match_start(m, &rules_game_laquet, seed, NULL) == 0);
}

/* An empty board: every man of both seats borne off, White to roll. */
static void board_clear(struct rules_match *m)
{
	match_new(m);
	memset(m->s.laquet.men, 0, sizeof(m->s.laquet.men));
	m->s.laquet.men[W][LAQUET_OFF] = LAQUET_MEN;
	m->s.laquet.men[B][LAQUET_OFF] = LAQUET_MEN;
}

/* Moves n men of `seat` from the rail onto `route`. */
static void put(struct rules_match *m, int seat, int route, int n)
{
	m->s.laquet.men[seat][LAQUET_OFF] = (uint8_t)(m->s.laquet.men[seat][LAQUET_OFF] - n);
	m->s.laquet.men[seat][route] = (uint8_t)(m->s.laquet.men[seat][route] + n);
}

/* `seat` to play the throw d0, d1. */
static void dice_set(struct rules_match *m, int seat, int d0, int d1)
{
	m->s.laquet.turn = (uint8_t)seat;
	m->s.laquet.phase = LAQUET_PHASE_PLAN;
	m->s.laquet.dice[0] = (uint8_t)d0;
	m->s.laquet.dice[1] = (uint8_t)d1;
}

/* `seat` to decide the handed dice v[0..n). */
static void handed_set(struct rules_match *m, int seat, const uint8_t *v, int n)
{
	m->s.laquet.turn = (uint8_t)seat;
	m->s.laquet.phase = LAQUET_PHASE_BONUS;
	m->s.laquet.nhanded = (uint8_t)n;
	memcpy(m->s.laquet.handed, v, (size_t)n);
}

/* Points the dice stream at a seed whose next two dice are d0, d1. */
static void dice_force(struct rules_match *m, int d0, int d1)
{
	uint8_t seed[RULES_SEED_SIZE] = { 0 };

	for (int i = 1; i < 5000; i++) {
		struct rules_dice d;

		seed[0] = (uint8_t)i;
		seed[1] = (uint8_t)(i >> 8);
		rules_dice_init(&d, seed);
		if (rules_dice_d6(&d) == d0 && rules_dice_d6(&d) == d1) {
			rules_dice_init(&m->dice, seed);
			return;
		}
	}
	CHECK(!"no seed found");
}

static struct rules_action act(uint8_t kind, int ns, int f1, int d1, int f2, int d2)
{
	struct rules_action a;

	memset(&a, 0, sizeof(a));
	a.kind = kind;
	a.arg[0] = (int16_t)ns;
	a.arg[1] = (int16_t)f1;
	a.arg[2] = (int16_t)d1;
	a.arg[3] = (int16_t)f2;
	a.arg[4] = (int16_t)d2;
	return a;
}

static struct rules_action roll(void)
{
	return act(LAQUET_ACT_ROLL, 0, 0, 0, 0, 0);
}
static struct rules_action plan1(int f, int d)
{
	return act(LAQUET_ACT_PLAN, 1, f, d, 0, 0);
}
static struct rules_action plan2(int f1, int d1, int f2, int d2)
{
	return act(LAQUET_ACT_PLAN, 2, f1, d1, f2, d2);
}
static struct rules_action bonus(int ns, int f1, int d1, int f2, int d2)
{
	return act(LAQUET_ACT_BONUS, ns, f1, d1, f2, d2);
}

static struct rules_action legal_buf[RULES_MAX_LEGAL];

static int legal(const struct rules_match *m, int seat)
{
	int n = rules_legal_actions(m, seat, legal_buf, RULES_MAX_LEGAL);

	CHECK(n <= RULES_MAX_LEGAL);
	return n < RULES_MAX_LEGAL ? n : RULES_MAX_LEGAL;
}

static bool legal_has(const struct rules_match *m, int seat, struct rules_action a)
{
	int n = legal(m, seat);

	for (int i = 0; i < n; i++)
		if (rules_action_equal(&legal_buf[i], &a))
			return true;
	return false;
}

static int apply(struct rules_match *m, int seat, struct rules_action a, struct laquet_outcome *o)
{
	union rules_outcome u;
	int err = rules_apply(m, seat, &a, &u);

	if (o)
		*o = u.laquet;
	return err;
}

/* apply() must refuse `a` with `err` and leave the match byte-identical. */
static void refused(struct rules_match *m, int seat, struct rules_action a, int err)
{
	struct rules_match before = *m;

	CHECK_EQ(apply(m, seat, a, NULL), err);
	CHECK(memcmp(&before, m, sizeof(before)) == 0);
}

/* Every legal action applied on a copy: the routes its moves land on, as bits. */
static uint32_t landings(const struct rules_match *m, int seat)
{
	struct rules_action l[RULES_MAX_LEGAL];
	int n = rules_legal_actions(m, seat, l, RULES_MAX_LEGAL);
	uint32_t bits = 0;

	for (int i = 0; i < n; i++) {
		struct rules_match c = *m;
		union rules_outcome o;

		CHECK(rules_apply(&c, seat, &l[i], &o) == 0);
		for (int k = 0; k < o.laquet.nmoves; k++)
			bits |= 1u << o.laquet.moves[k].to;
	}
	return bits;
}

static void test_setup(void)
{
	struct rules_match m;
	const struct laquet_state *s = &m.s.laquet;
	static const uint8_t white[20] = { [1] = 2, [2] = 3, [3] = 3, [4] = 3, [5] = 3, [18] = 1 };
	static const uint8_t black[20] = { [6] = 14, [7] = 1 };

	match_new(&m);
	CHECK(memcmp(s->men[W], white, sizeof(white)) == 0);
	CHECK(memcmp(s->men[B], black, sizeof(black)) == 0);
	CHECK_EQ(s->turn, W);
	CHECK_EQ(s->phase, LAQUET_PHASE_ROLL);
	CHECK_EQ(legal(&m, W), 1);
	CHECK(rules_action_equal(&legal_buf[0], &(struct rules_action){ .kind = LAQUET_ACT_ROLL }));
	CHECK_EQ(legal(&m, B), 0);
	CHECK(strcmp(rules_game_laquet.roles[0], "white") == 0 &&
	      strcmp(rules_game_laquet.roles[1], "black") == 0);
}

static void test_bad_options(void)
{
	struct rules_match m;
	static const uint8_t seed[RULES_SEED_SIZE];
	struct rules_options o = { .max_turns = 100 };

	CHECK_EQ(rules_match_start(&m, &rules_game_laquet, seed, &o), RULES_E_BAD_OPTIONS);
}

/* Check: from the opening White never lands on route 6 or 7 (Black's), whatever the dice. */
static void test_check_opening_blocked(void)
{
	for (int d0 = 1; d0 <= 6; d0++)
		for (int d1 = 1; d1 <= 6; d1++) {
			struct rules_match m;
			uint32_t to;

			match_new(&m);
			dice_set(&m, W, d0, d1);
			to = landings(&m, W);
			CHECK(!(to & (1u << 6 | 1u << 7)));
			CHECK(to != 0);
		}
}

/* Check: White's man on route 1 with 6 and 6 cannot go to 13 while 7 is Black's; it can once 7 is free. */
static void test_check_point_between(void)
{
	struct rules_match m;

	match_new(&m);
	dice_set(&m, W, 6, 6);
	CHECK(!legal_has(&m, W, plan2(1, 0, 7, 1)));
	CHECK(!legal_has(&m, W, plan2(1, 1, 7, 0)));
	refused(&m, W, plan2(1, 0, 7, 1), RULES_E_ILLEGAL);
	/* The same man, route 7 emptied (Black's man moved on to 8). */
	m.s.laquet.men[B][7] = 0;
	m.s.laquet.men[B][8] = 1;
	CHECK(legal_has(&m, W, plan2(1, 0, 7, 1)));
	CHECK(legal_has(&m, W, plan2(1, 1, 7, 0)));
	CHECK_EQ(apply(&m, W, plan2(1, 0, 7, 1), NULL), 0);
	CHECK_EQ(m.s.laquet.men[W][13], 1);
	CHECK_EQ(m.s.laquet.men[W][1], 1);
}

/* A point holding one opponent man blocks like a stack; men are never hit; own points are fine. */
static void test_blocked_single_man_no_hit(void)
{
	struct rules_match m;
	struct laquet_outcome o;

	board_clear(&m);
	put(&m, W, 3, 1);
	put(&m, W, 5, 1);
	put(&m, B, 6, 1);
	dice_set(&m, W, 3, 2);
	CHECK(!legal_has(&m, W, plan2(3, 0, 6, 1)));
	CHECK(!legal_has(&m, W, plan1(3, 0)));      /* 3 + 3 = 6 is Black's */
	CHECK(legal_has(&m, W, plan2(3, 1, 5, 0))); /* 3 -> 5 (own point) -> 8 */
	CHECK_EQ(apply(&m, W, plan2(3, 1, 5, 0), &o), 0);
	CHECK_EQ(m.s.laquet.men[B][6], 1);
	CHECK_EQ(m.s.laquet.men[W][5], 1);
	CHECK_EQ(m.s.laquet.men[W][8], 1);
	CHECK_EQ(o.nmoves, 2);
	CHECK(o.moves[0].from == 3 && o.moves[0].to == 5 && o.moves[0].die == 2);
	CHECK(o.moves[1].from == 5 && o.moves[1].to == 8 && o.moves[1].die == 3);
	CHECK_EQ(o.nhanded, 0);
	CHECK_EQ(m.s.laquet.turn, B);
	CHECK_EQ(m.s.laquet.phase, LAQUET_PHASE_ROLL);
}

/* Doubles give two steps, not four; the two die indexes are distinct actions. */
static void test_doubles_not_doubled(void)
{
	struct rules_match m;
	struct laquet_outcome o;
	int n;

	board_clear(&m);
	put(&m, W, 1, 4);
	dice_set(&m, W, 2, 2);
	n = legal(&m, W);
	for (int i = 0; i < n; i++)
		CHECK(legal_buf[i].arg[0] == 2);
	/* 1 -> 3 -> 5 with die 0 then 1, or 1 then 0; 1 -> 3 and 1 -> 3 likewise. */
	CHECK_EQ(n, 4);
	CHECK(legal_has(&m, W, plan2(1, 0, 3, 1)));
	CHECK(legal_has(&m, W, plan2(1, 1, 3, 0)));
	CHECK(legal_has(&m, W, plan2(1, 0, 1, 1)));
	CHECK(legal_has(&m, W, plan2(1, 1, 1, 0)));
	CHECK_EQ(apply(&m, W, plan2(1, 0, 3, 1), NULL), 0);
	CHECK_EQ(m.s.laquet.men[W][5], 1);
	CHECK_EQ(m.s.laquet.men[W][1], 3);
	CHECK_EQ(m.s.laquet.turn, B);
	/* Only one 2 can be played (1 -> 3, then 3 + 2 = 5 is Black's): with either die, two actions (D2 has
	 * no larger die to prefer), and the other 2 is handed over. */
	board_clear(&m);
	put(&m, W, 1, 1);
	put(&m, B, 5, 1);
	dice_set(&m, W, 2, 2);
	CHECK_EQ(legal(&m, W), 2);
	CHECK(legal_has(&m, W, plan1(1, 0)));
	CHECK(legal_has(&m, W, plan1(1, 1)));
	CHECK_EQ(apply(&m, W, plan1(1, 0), &o), 0);
	CHECK(o.nhanded == 1 && o.handed[0] == 2 && o.bonus == 1);
}

/* D2: when some plan uses both dice, a one-step plan is not legal. */
static void test_max_dice(void)
{
	struct rules_match m;
	struct laquet_outcome o;

	board_clear(&m);
	put(&m, W, 1, 1);
	put(&m, B, 6, 1); /* 1 + 5 blocked: only 1 -> 3 -> 8 uses both */
	put(&m, B, 12, 1);
	dice_set(&m, W, 5, 2);
	CHECK_EQ(legal(&m, W), 1);
	CHECK(legal_has(&m, W, plan2(1, 1, 3, 0)));
	refused(&m, W, plan1(1, 1), RULES_E_ILLEGAL);
	/* Block 8 as well: now only the 2 can be played, and the 5 is handed to Black. */
	put(&m, B, 8, 1);
	CHECK_EQ(legal(&m, W), 1);
	CHECK(legal_has(&m, W, plan1(1, 1)));
	CHECK_EQ(apply(&m, W, plan1(1, 1), &o), 0);
	CHECK_EQ(o.nhanded, 1);
	CHECK_EQ(o.handed[0], 5);
	CHECK_EQ(o.bonus, 1);
	CHECK_EQ(m.s.laquet.turn, B);
	CHECK_EQ(m.s.laquet.phase, LAQUET_PHASE_BONUS);
	CHECK_EQ(m.s.laquet.nhanded, 1);
	CHECK_EQ(m.s.laquet.handed[0], 5);
}

/* D2: if no plan uses both dice, the larger must be used when it can be, else the smaller. */
static void test_larger_die(void)
{
	struct rules_match m;
	struct laquet_outcome o;

	board_clear(&m);
	put(&m, W, 1, 1);
	put(&m, B, 8, 1); /* 1 -> 3 and 1 -> 6 are open, 3 + 5 = 6 + 2 = 8 is not */
	put(&m, B, 12, 1);
	dice_set(&m, W, 2, 5);
	CHECK_EQ(legal(&m, W), 1);
	CHECK(legal_has(&m, W, plan1(1, 1)));
	refused(&m, W, plan1(1, 0), RULES_E_ILLEGAL);
	CHECK_EQ(apply(&m, W, plan1(1, 1), &o), 0);
	CHECK_EQ(m.s.laquet.men[W][6], 1);
	CHECK_EQ(o.nhanded, 1);
	CHECK_EQ(o.handed[0], 2);
	/* The larger die cannot be played (6 blocked too): the smaller one is the plan. */
	board_clear(&m);
	put(&m, W, 1, 1);
	put(&m, B, 6, 1);
	put(&m, B, 8, 1);
	dice_set(&m, W, 2, 5);
	CHECK_EQ(legal(&m, W), 1);
	CHECK(legal_has(&m, W, plan1(1, 0)));
}

/* Nothing to play: the roll passes by itself and both dice are handed to the opponent. */
static void test_pass_hands_both(void)
{
	struct rules_match m;
	struct laquet_outcome o;

	board_clear(&m);
	put(&m, W, 1, 1);
	put(&m, B, 3, 1);
	put(&m, B, 5, 1);
	put(&m, B, 12, 1);
	dice_force(&m, 2, 4);
	CHECK_EQ(apply(&m, W, roll(), &o), 0);
	CHECK_EQ(o.passed, 1);
	CHECK(o.dice[0] == 2 && o.dice[1] == 4);
	CHECK(o.nhanded == 2 && o.handed[0] == 2 && o.handed[1] == 4);
	CHECK_EQ(o.bonus, 1);
	CHECK_EQ(m.s.laquet.turn, B);
	CHECK_EQ(m.s.laquet.phase, LAQUET_PHASE_BONUS);
	CHECK(m.s.laquet.dice[0] == 0 && m.s.laquet.dice[1] == 0);
	CHECK(m.s.laquet.nhanded == 2 && m.s.laquet.handed[0] == 2 && m.s.laquet.handed[1] == 4);
	CHECK_EQ(m.ply, 1);
	/* A roll that can be played: phase plan with the dice. */
	board_clear(&m);
	put(&m, W, 1, 1);
	put(&m, B, 12, 1);
	dice_force(&m, 2, 4);
	CHECK_EQ(apply(&m, W, roll(), &o), 0);
	CHECK(o.passed == 0 && o.nhanded == 0 && o.bonus == 0);
	CHECK_EQ(m.s.laquet.phase, LAQUET_PHASE_PLAN);
	CHECK(m.s.laquet.dice[0] == 2 && m.s.laquet.dice[1] == 4);
}

/* D3: the bonus is any subset of the handed dice in any order, or none; then the seat rolls. */
static void test_bonus_choices(void)
{
	static const uint8_t h[2] = { 1, 3 };
	struct rules_match m;
	struct laquet_outcome o;
	int n;

	board_clear(&m);
	put(&m, B, 10, 2);
	put(&m, W, 14, 1);
	handed_set(&m, B, h, 2);
	/* [] ; 10+1, 10+3 ; 10 -> 11 -> 14 is White's, 10 -> 11 & 10 -> 13, 10 -> 13 -> 14 no,
	 * 10 -> 13 & 10 -> 11. */
	n = legal(&m, B);
	CHECK_EQ(n, 5);
	CHECK(legal_has(&m, B, bonus(0, 0, 0, 0, 0)));
	CHECK(legal_has(&m, B, bonus(1, 10, 0, 0, 0)));
	CHECK(legal_has(&m, B, bonus(1, 10, 1, 0, 0)));
	CHECK(legal_has(&m, B, bonus(2, 10, 0, 10, 1)));
	CHECK(legal_has(&m, B, bonus(2, 10, 1, 10, 0)));
	CHECK(!legal_has(&m, B, bonus(2, 10, 0, 11, 1)));
	refused(&m, B, bonus(2, 10, 0, 10, 0), RULES_E_ILLEGAL); /* the same die twice */
	refused(&m, B, roll(), RULES_E_ILLEGAL);                 /* the bonus comes first */
	/* Declining is allowed even though both dice could be played. */
	CHECK_EQ(apply(&m, B, bonus(0, 0, 0, 0, 0), &o), 0);
	CHECK_EQ(o.nmoves, 0);
	CHECK_EQ(m.s.laquet.turn, B);
	CHECK_EQ(m.s.laquet.phase, LAQUET_PHASE_ROLL);
	CHECK_EQ(m.s.laquet.nhanded, 0);
	/* One die of two played, the other lost; the turn stays to roll. */
	handed_set(&m, B, h, 2);
	CHECK_EQ(apply(&m, B, bonus(1, 10, 1, 0, 0), &o), 0);
	CHECK(o.nmoves == 1 && o.moves[0].to == 13 && o.nhanded == 0);
	CHECK_EQ(m.s.laquet.phase, LAQUET_PHASE_ROLL);
	CHECK_EQ(m.s.laquet.turn, B);
	CHECK_EQ(legal(&m, B), 1);
}

/*
 * D3: dice the opponent cannot play are lost, no bonus is offered. Here a
 * roll of 5 and 6 blocks both sides: White (11, 12) lands only on Black's
 * 16, 17, 18; Black's 6 reaches White's 11 and 12, and its men on 16..18
 * cannot bear off while the man on 6 is out of quadrant III.
 */
static void test_pass_no_bonus(void)
{
	struct rules_match m;
	struct laquet_outcome o;

	board_clear(&m);
	put(&m, W, 11, 1);
	put(&m, W, 12, 1);
	put(&m, B, 6, 1);
	put(&m, B, 16, 1);
	put(&m, B, 17, 1);
	put(&m, B, 18, 1);
	dice_force(&m, 5, 6);
	CHECK_EQ(apply(&m, W, roll(), &o), 0);
	CHECK(o.passed == 1 && o.bonus == 0);
	CHECK(o.nhanded == 2 && o.handed[0] == 5 && o.handed[1] == 6);
	CHECK_EQ(m.s.laquet.turn, B);
	CHECK_EQ(m.s.laquet.phase, LAQUET_PHASE_ROLL);
	CHECK_EQ(m.s.laquet.nhanded, 0);
	CHECK_EQ(legal(&m, B), 1);
	CHECK(legal_has(&m, B, roll()));
}

/*
 * D3 after a one-step plan: White's 8 with 6 and 4 cannot use both (14 + 4
 * and 12 + 6 are Black's 18), so it plays the 6 (the larger die) and hands
 * the 4 over; Black's 10 + 4 is now White's 14 and its men on 15 and 18
 * cannot bear off (10 is out of III): the 4 is lost and Black rolls.
 */
static void test_handed_lost(void)
{
	struct rules_match m;
	struct laquet_outcome o;

	board_clear(&m);
	put(&m, W, 8, 1);
	put(&m, B, 10, 1);
	put(&m, B, 15, 2);
	put(&m, B, 18, 1);
	dice_set(&m, W, 6, 4);
	CHECK_EQ(legal(&m, W), 1);
	CHECK(legal_has(&m, W, plan1(8, 0)));
	CHECK_EQ(apply(&m, W, plan1(8, 0), &o), 0);
	CHECK(o.nhanded == 1 && o.handed[0] == 4 && o.bonus == 0);
	CHECK_EQ(m.s.laquet.turn, B);
	CHECK_EQ(m.s.laquet.phase, LAQUET_PHASE_ROLL);
	CHECK_EQ(m.s.laquet.nhanded, 0);
	/* With White's man elsewhere (13), Black's 10 + 4 = 14 is open: the bonus is offered. */
	board_clear(&m);
	put(&m, W, 8, 1);
	put(&m, B, 10, 1);
	put(&m, B, 15, 2);
	put(&m, B, 18, 1);
	dice_set(&m, W, 6, 4);
	m.s.laquet.men[B][18] = 0;
	m.s.laquet.men[B][17] = 1; /* 14 + 4 = 18 is open now: both dice, nothing handed */
	CHECK(legal_has(&m, W, plan2(8, 0, 14, 1)));
	CHECK(!legal_has(&m, W, plan1(8, 0)));
}

/* Bearing off: only with every man on 13..18; exact from 19 - d. */
static void test_bear_off_exact(void)
{
	struct rules_match m;
	struct laquet_outcome o;

	board_clear(&m);
	put(&m, W, 12, 1);
	put(&m, W, 16, 1);
	put(&m, W, 18, 1);
	put(&m, B, 13, 1);
	put(&m, B, 14, 1);
	put(&m, B, 15, 1);
	put(&m, B, 17, 1);
	dice_set(&m, W, 1, 3);
	/* 12 + 1, 12 + 3 and 16 + 1 land on Black; 16 + 3 and 18 + 1 would bear off, but 12 is outside III.
	 */
	CHECK_EQ(legal(&m, W), 0);
	board_clear(&m);
	put(&m, W, 16, 1);
	put(&m, W, 18, 2);
	put(&m, B, 1, 1);
	dice_set(&m, W, 1, 3);
	CHECK(legal_has(&m, W, plan2(16, 1, 18, 0))); /* 16 + 3 off, 18 + 1 off */
	CHECK(legal_has(&m, W, plan2(18, 0, 16, 1)));
	CHECK(legal_has(&m, W, plan2(16, 0, 17, 1)));  /* 16 -> 17, 17 + 3 = 20: the farthest (17) */
	CHECK(!legal_has(&m, W, plan2(18, 1, 16, 0))); /* 18 + 3: not the farthest man */
	CHECK_EQ(apply(&m, W, plan2(16, 1, 18, 0), &o), 0);
	CHECK_EQ(o.borne_off, 2);
	CHECK(o.moves[0].to == LAQUET_OFF && o.moves[1].to == LAQUET_OFF);
	CHECK_EQ(m.s.laquet.men[W][LAQUET_OFF], 14);
	CHECK_EQ(m.s.laquet.men[W][18], 1);
}

/* Bearing off needs every man in III: a man on 12 forbids it. */
static void test_bear_off_needs_all_home(void)
{
	struct rules_match m;

	board_clear(&m);
	put(&m, W, 12, 1);
	put(&m, W, 18, 1);
	put(&m, B, 13, 1);
	put(&m, B, 1, 1);
	dice_set(&m, W, 1, 1);
	/* 18 + 1 off is refused while 12 is out; 12 + 1 = 13 is Black's: nothing to play. */
	CHECK_EQ(legal(&m, W), 0);
	m.s.laquet.men[B][13] = 0;
	m.s.laquet.men[B][14] = 1;
	/* Now 12 -> 13, after which 18 + 1 bears off (judged step by step). */
	CHECK(legal_has(&m, W, plan2(12, 0, 18, 1)));
	CHECK(!legal_has(&m, W, plan2(18, 0, 12, 1)));
}

/* Check: with a 6 and the farthest man on 16, that man is borne off. */
static void test_check_farthest_with_six(void)
{
	struct rules_match m;
	struct laquet_outcome o;

	board_clear(&m);
	put(&m, W, 16, 2);
	put(&m, W, 17, 3);
	put(&m, B, 2, 1);
	dice_set(&m, W, 6, 6);
	CHECK(legal_has(&m, W, plan2(16, 0, 16, 1)));
	CHECK(!legal_has(&m, W, plan2(17, 0, 16, 1))); /* 17 is not the farthest */
	CHECK_EQ(apply(&m, W, plan2(16, 0, 16, 1), &o), 0);
	CHECK_EQ(o.borne_off, 2);
	CHECK_EQ(m.s.laquet.men[W][16], 0);
	CHECK_EQ(m.s.laquet.men[W][LAQUET_OFF], 12);
	/* A single man on 16 and others on 17: one 6 removes the 16, the next the 17 (now farthest). */
	board_clear(&m);
	put(&m, W, 16, 1);
	put(&m, W, 17, 2);
	put(&m, B, 2, 1);
	dice_set(&m, W, 6, 5);
	CHECK(legal_has(&m, W, plan2(16, 0, 17, 1)));
	CHECK(legal_has(&m, W, plan2(16, 1, 17, 0)));
	CHECK(!legal_has(&m, W, plan2(17, 0, 16, 1)));
}

/* Judged step by step: the first step brings the last man into III, the second bears off; "farthest" after
 * step 1. */
static void test_bear_off_step_by_step(void)
{
	struct rules_match m;

	board_clear(&m);
	put(&m, W, 12, 1);
	put(&m, W, 17, 4);
	put(&m, B, 1, 1);
	dice_set(&m, W, 2, 6);
	/* 12 + 2 = 14 (now in III, the farthest), 14 + 6 = 20: borne off as the farthest man. */
	CHECK(legal_has(&m, W, plan2(12, 0, 14, 1)));
	/* 12 + 6 = 18, then 17 + 2 = 19 exact. */
	CHECK(legal_has(&m, W, plan2(12, 1, 17, 0)));
	/* 17 + 6 off with 12 still out: no. */
	CHECK(!legal_has(&m, W, plan2(17, 1, 12, 0)));
	CHECK(!legal_has(&m, W, plan2(12, 0, 17, 1))); /* after 12 -> 14, 17 is not the farthest */
}

/* Men inside III move forward normally; borne-off men block nothing. */
static void test_home_moves_and_off_blocks_nothing(void)
{
	struct rules_match m;

	board_clear(&m);
	put(&m, W, 13, 2);
	put(&m, B, 12, 1); /* Black has 14 men off: the rail is no point */
	dice_set(&m, W, 2, 6);
	CHECK(legal_has(&m, W, plan2(13, 0, 13, 1)));  /* 13 -> 15, then 13 + 6 = 19: off */
	CHECK(legal_has(&m, W, plan2(13, 1, 13, 0)));  /* 13 + 6 off, then 13 -> 15 */
	CHECK(!legal_has(&m, W, plan2(13, 0, 15, 1))); /* 15 + 6 = 21, but 13 is the farthest */
	CHECK_EQ(legal(&m, W), 2);
}

/* The fifteenth man off wins the race; then nobody acts. */
static void test_win(void)
{
	struct rules_match m;
	struct laquet_outcome o;
	struct rules_result r;
	uint8_t seats[RULES_MAX_SEATS];

	board_clear(&m);
	put(&m, W, 18, 1);
	put(&m, W, 17, 1);
	put(&m, B, 1, 5);
	dice_set(&m, W, 1, 2);
	CHECK_EQ(apply(&m, W, plan2(18, 0, 17, 1), &o), 0);
	CHECK_EQ(o.won, 1);
	CHECK_EQ(o.borne_off, 2);
	rules_result(&m, &r);
	CHECK(r.over && r.winner == W && r.reason == RULES_REASON_RACE && !r.draw);
	CHECK_EQ(rules_to_act(&m, seats), 0);
	refused(&m, B, roll(), RULES_E_GAME_OVER);
	/* A win inside the bonus. */
	board_clear(&m);
	put(&m, B, 18, 1);
	put(&m, W, 1, 5);
	handed_set(&m, B, (const uint8_t[]){ 4 }, 1);
	CHECK(legal_has(&m, B, bonus(1, 18, 0, 0, 0)));
	CHECK_EQ(apply(&m, B, bonus(1, 18, 0, 0, 0), &o), 0);
	CHECK_EQ(o.won, 1);
	rules_result(&m, &r);
	CHECK(r.over && r.winner == B && r.reason == RULES_REASON_RACE);
}

static void test_resign_forfeit(void)
{
	const struct wire_game *g = wire_game_find("laquet");
	struct rules_match m;
	struct rules_result r;
	json_t *v;

	match_new(&m);
	CHECK_EQ(rules_event(&m, B, RULES_EVENT_RESIGN, NULL), 0);
	rules_result(&m, &r);
	CHECK(r.over && r.winner == W && r.reason == RULES_REASON_RESIGN);
	CHECK_EQ(m.ply, 0);
	CHECK_EQ(rules_event(&m, W, RULES_EVENT_RESIGN, NULL), RULES_E_GAME_OVER);
	match_new(&m);
	dice_set(&m, W, 3, 4);
	CHECK_EQ(rules_event(&m, W, RULES_EVENT_FORFEIT, NULL), 0);
	rules_result(&m, &r);
	CHECK(r.over && r.winner == B && r.reason == RULES_REASON_FORFEIT);
	/* Resigning while handed dice wait: the match is over, the view hands nothing any more. */
	REQUIRE(g != NULL);
	match_new(&m);
	handed_set(&m, B, (const uint8_t[]){ 3, 1 }, 2);
	CHECK_EQ(rules_event(&m, B, RULES_EVENT_RESIGN, NULL), 0);
	v = g->view(&m);
	REQUIRE(v != NULL);
	CHECK(json_is_array(json_object_get(v, "handed")) &&
	      json_array_size(json_object_get(v, "handed")) == 0);
	CHECK(json_is_null(json_object_get(v, "dice")));
	json_decref(v);
	CHECK_EQ(legal(&m, B), 0);
}

/* Refused calls: wrong seat, wrong kind for the phase, malformed bytes; the match untouched. */
static void test_errors_untouched(void)
{
	struct rules_match m;
	struct rules_action a;

	match_new(&m);
	refused(&m, B, roll(), RULES_E_NOT_TO_ACT);
	refused(&m, 2, roll(), RULES_E_BAD_SEAT);
	refused(&m, W, plan1(5, 0), RULES_E_ILLEGAL);
	refused(&m, W, bonus(0, 0, 0, 0, 0), RULES_E_ILLEGAL);
	a = roll();
	a.arg[9] = 1;
	refused(&m, W, a, RULES_E_ILLEGAL);
	a = roll();
	a.pad = 1;
	refused(&m, W, a, RULES_E_ILLEGAL);
	dice_set(&m, W, 3, 1);
	refused(&m, W, roll(), RULES_E_ILLEGAL);
	refused(&m, W, plan2(5, 0, 5, 0), RULES_E_ILLEGAL);
	refused(&m, W, plan2(5, 0, 5, 2), RULES_E_ILLEGAL);
	refused(&m, W, plan2(0, 0, 5, 1), RULES_E_ILLEGAL);
	refused(&m, W, plan2(19, 0, 5, 1), RULES_E_ILLEGAL);
	refused(&m, W, act(LAQUET_ACT_PLAN, 3, 5, 0, 5, 1), RULES_E_ILLEGAL);
	refused(&m, W, act(LAQUET_ACT_PLAN, -1, 5, 0, 5, 1), RULES_E_ILLEGAL);
	refused(&m, W, act(LAQUET_ACT_PLAN, 0, 0, 0, 0, 0), RULES_E_ILLEGAL);
	a = plan2(5, 0, 8, 1);
	CHECK(legal_has(&m, W, a)); /* 5 -> 8 -> 9 */
	a.arg[5] = 7;
	refused(&m, W, a, RULES_E_ILLEGAL);
	refused(&m, W, act(9, 0, 0, 0, 0, 0), RULES_E_ILLEGAL);
	refused(&m, W, act(0, 0, 0, 0, 0, 0), RULES_E_ILLEGAL);
	/* An event for a seat out of range, an unknown kind. */
	CHECK_EQ(rules_event(&m, 5, RULES_EVENT_RESIGN, NULL), RULES_E_BAD_SEAT);
	CHECK_EQ(rules_event(&m, W, 9, NULL), RULES_E_ILLEGAL);
}

/* Bearing off needs every man in III: a man on any of routes 1..12 forbids it, as a first step. */
static void test_bear_off_any_low_man_forbids(void)
{
	for (int r = 1; r <= 12; r++) {
		struct rules_match m;
		int n;

		board_clear(&m);
		put(&m, W, r, 1);
		put(&m, W, 18, 1);
		put(&m, B, 15, 1);
		dice_set(&m, W, 1, 2);
		/* 18 + 1 is exact and 18 + 2 passes the rail, but r is outside III. */
		CHECK(!legal_has(&m, W, plan2(18, 0, r, 1)));
		CHECK(!legal_has(&m, W, plan2(18, 1, r, 0)));
		n = legal(&m, W);
		CHECK(n > 0);
		for (int i = 0; i < n; i++)
			CHECK(legal_buf[i].arg[1] != 18);
		/* The same in a bonus: no duty there, and still no bearing off. */
		handed_set(&m, W, (const uint8_t[]){ 1, 2 }, 2);
		m.s.laquet.dice[0] = m.s.laquet.dice[1] = 0;
		n = legal(&m, W);
		for (int i = 0; i < n; i++)
			CHECK(legal_buf[i].arg[0] == 0 || legal_buf[i].arg[1] != 18);
	}
}

/*
 * D3: the bonus is offered when at least one handed die can be played, the
 * second as well as the first; handed dice keep their die order. White (1,
 * 12, 13) passes 6 and 5: 1 -> 6, 7, 12 -> 17, 18 and 13 -> 18 are Black's,
 * 13 + 6 cannot bear off. Black (6, 7, 17, 18) cannot play the 6 (6 -> 12, 7
 * -> 13 are White's, no bearing off with 6 and 7 out of III) but can play the
 * 5 (6 -> 11).
 */
static void test_bonus_second_die_only(void)
{
	const struct wire_game *g = wire_game_find("laquet");
	struct rules_match m;
	struct laquet_outcome o;
	json_t *v, *want;

	REQUIRE(g != NULL);
	board_clear(&m);
	put(&m, W, 1, 1);
	put(&m, W, 12, 1);
	put(&m, W, 13, 1);
	put(&m, B, 6, 1);
	put(&m, B, 7, 1);
	put(&m, B, 17, 1);
	put(&m, B, 18, 1);
	dice_force(&m, 6, 5);
	CHECK_EQ(apply(&m, W, roll(), &o), 0);
	CHECK(o.passed == 1 && o.bonus == 1);
	CHECK(o.nhanded == 2 && o.handed[0] == 6 && o.handed[1] == 5);
	CHECK_EQ(m.s.laquet.turn, B);
	CHECK_EQ(m.s.laquet.phase, LAQUET_PHASE_BONUS);
	CHECK(m.s.laquet.nhanded == 2 && m.s.laquet.handed[0] == 6 && m.s.laquet.handed[1] == 5);
	v = g->view(&m);
	want = json_pack("[ii]", 6, 5);
	CHECK(v && json_equal(json_object_get(v, "handed"), want));
	json_decref(want);
	json_decref(v);
	/* [], 6 -> 11 with die 1, and then 11 -> 17 with die 0; the 6 has no first step. */
	CHECK_EQ(legal(&m, B), 3);
	CHECK(legal_has(&m, B, bonus(0, 0, 0, 0, 0)));
	CHECK(legal_has(&m, B, bonus(1, 6, 1, 0, 0)));
	CHECK(legal_has(&m, B, bonus(2, 6, 1, 11, 0)));
	refused(&m, B, bonus(1, 6, 0, 0, 0), RULES_E_ILLEGAL);
}

/*
 * Bearing off the last man: with 1 and 3 from 18 no plan uses both dice, so
 * the larger die (D2) bears it off alone and nothing is handed over. With 6
 * and 1 from 13 a plan uses both (13 -> 14, then 14 + 6 as the farthest
 * man), so the 6 alone (13 + 6 exact) is not a plan: as many dice as
 * possible, also for the winning plan.
 */
static void test_last_man(void)
{
	struct rules_match m;
	struct laquet_outcome o;
	struct rules_result r;

	board_clear(&m);
	put(&m, W, 18, 1);
	put(&m, B, 1, 3);
	dice_set(&m, W, 1, 3);
	CHECK_EQ(legal(&m, W), 1);
	CHECK(legal_has(&m, W, plan1(18, 1)));
	refused(&m, W, plan1(18, 0), RULES_E_ILLEGAL);
	CHECK_EQ(apply(&m, W, plan1(18, 1), &o), 0);
	CHECK(o.won == 1 && o.borne_off == 1 && o.nmoves == 1);
	CHECK(o.nhanded == 0 && o.bonus == 0); /* a win hands nothing over */
	rules_result(&m, &r);
	CHECK(r.over && r.winner == W && r.reason == RULES_REASON_RACE);
	board_clear(&m);
	put(&m, W, 13, 1);
	put(&m, B, 1, 3);
	dice_set(&m, W, 6, 1);
	CHECK_EQ(legal(&m, W), 1);
	CHECK(legal_has(&m, W, plan2(13, 1, 14, 0)));
	refused(&m, W, plan1(13, 0), RULES_E_ILLEGAL);
}

/* After a win inside a bonus the view shows no dice and no handed dice; nobody has a legal action. */
static void test_win_in_bonus_view(void)
{
	const struct wire_game *g = wire_game_find("laquet");
	struct rules_match m;
	struct laquet_outcome o;
	json_t *v;

	REQUIRE(g != NULL);
	board_clear(&m);
	put(&m, B, 17, 1);
	put(&m, W, 1, 5);
	handed_set(&m, B, (const uint8_t[]){ 2, 4 }, 2);
	CHECK_EQ(apply(&m, B, bonus(1, 17, 0, 0, 0), &o), 0);
	CHECK_EQ(o.won, 1);
	CHECK(o.nhanded == 0 && o.bonus == 0);
	v = g->view(&m);
	REQUIRE(v != NULL);
	CHECK(json_is_null(json_object_get(v, "dice")));
	CHECK(json_is_array(json_object_get(v, "handed")) &&
	      json_array_size(json_object_get(v, "handed")) == 0);
	CHECK(json_integer_value(json_object_get(json_object_get(v, "off"), "black")) == 15);
	json_decref(v);
	CHECK_EQ(legal(&m, W), 0);
	CHECK_EQ(legal(&m, B), 0);
}

/* The view's `off` per colour, and a point of each colour, in a position that tells them apart. */
static void test_view_off_and_points(void)
{
	const struct wire_game *g = wire_game_find("laquet");
	struct rules_match m;
	json_t *v, *p;

	REQUIRE(g != NULL);
	board_clear(&m);
	put(&m, W, 13, 2);
	put(&m, B, 4, 5);
	v = g->view(&m);
	REQUIRE(v != NULL);
	CHECK_EQ(json_integer_value(json_object_get(json_object_get(v, "off"), "white")), 13);
	CHECK_EQ(json_integer_value(json_object_get(json_object_get(v, "off"), "black")), 10);
	p = json_object_get(v, "points");
	CHECK_EQ(json_integer_value(json_object_get(json_array_get(p, 12), "white")), 2);
	CHECK_EQ(json_integer_value(json_object_get(json_array_get(p, 12), "black")), 0);
	CHECK_EQ(json_integer_value(json_object_get(json_array_get(p, 3), "black")), 5);
	CHECK_EQ(json_integer_value(json_object_get(json_array_get(p, 3), "white")), 0);
	json_decref(v);
}

/* The outcome JSON exactly as protocol/games/laquet/README.md shows it: a pass with no bonus, a pass with
 * one, a one-step plan. */
static void test_outcome_json(void)
{
	const struct wire_game *g = wire_game_find("laquet");
	struct rules_match m;
	union rules_outcome u;
	struct rules_action a;
	json_t *j, *want;

	REQUIRE(g != NULL);
	/* test_pass_no_bonus's position. */
	board_clear(&m);
	put(&m, W, 11, 1);
	put(&m, W, 12, 1);
	put(&m, B, 6, 1);
	put(&m, B, 16, 1);
	put(&m, B, 17, 1);
	put(&m, B, 18, 1);
	dice_force(&m, 5, 6);
	a = roll();
	CHECK_EQ(rules_apply(&m, W, &a, &u), 0);
	j = g->outcome_encode(&m, &a, &u);
	want = json_loads("{\"dice\":[5,6],\"passed\":true,\"handed\":[5,6],\"bonus\":false}", 0, NULL);
	CHECK(j && want && json_equal(j, want));
	json_decref(j);
	json_decref(want);
	/* test_pass_hands_both's position: Black can play the 2 (3 -> 5). */
	board_clear(&m);
	put(&m, W, 1, 1);
	put(&m, B, 3, 1);
	put(&m, B, 5, 1);
	put(&m, B, 12, 1);
	dice_force(&m, 4, 2);
	CHECK_EQ(rules_apply(&m, W, &a, &u), 0);
	j = g->outcome_encode(&m, &a, &u);
	want = json_loads("{\"dice\":[4,2],\"passed\":true,\"handed\":[4,2],\"bonus\":true}", 0, NULL);
	CHECK(j && want && json_equal(j, want));
	json_decref(j);
	json_decref(want);
	/* A roll that can be played. */
	board_clear(&m);
	put(&m, W, 1, 1);
	put(&m, B, 12, 1);
	dice_force(&m, 2, 4);
	CHECK_EQ(rules_apply(&m, W, &a, &u), 0);
	j = g->outcome_encode(&m, &a, &u);
	want = json_loads("{\"dice\":[2,4],\"passed\":false,\"handed\":[],\"bonus\":false}", 0, NULL);
	CHECK(j && want && json_equal(j, want));
	json_decref(j);
	json_decref(want);
	/* test_handed_lost's one-step plan: 8 -> 14 with the 6, the 4 handed over and lost. */
	board_clear(&m);
	put(&m, W, 8, 1);
	put(&m, B, 10, 1);
	put(&m, B, 15, 2);
	put(&m, B, 18, 1);
	dice_set(&m, W, 6, 4);
	a = plan1(8, 0);
	CHECK_EQ(rules_apply(&m, W, &a, &u), 0);
	j = g->outcome_encode(&m, &a, &u);
	want = json_loads("{\"moves\":[{\"from\":8,\"to\":14,\"die\":6}],\"borne_off\":0,\"handed\":[4],"
			  "\"bonus\":false,\"won\":false}",
			  0, NULL);
	CHECK(j && want && json_equal(j, want));
	json_decref(j);
	json_decref(want);
}

/*
 * apply accepts exactly the legal list, over every action of the game's
 * shape (kinds 0..4, 0..3 steps, routes 0..19, dice 0..2), in positions of
 * every phase reached by random play.
 */
static void test_apply_matches_legal(void)
{
	struct rules_match m;
	struct fixture_lcg x = { 7 };
	int positions = 0;

	match_new(&m);
	for (int ply = 0; ply < 400 && positions < 40; ply++) {
		uint8_t seats[RULES_MAX_SEATS];
		int n, accepted = 0;

		if (rules_to_act(&m, seats) == 0)
			break;
		n = legal(&m, seats[0]);
		if (ply % 9 == 0 || m.s.laquet.phase == LAQUET_PHASE_BONUS) {
			positions++;
			for (int kind = 0; kind <= 4; kind++)
				for (int ns = 0; ns <= 3; ns++)
					for (int f1 = 0; f1 <= 19; f1++)
						for (int d1 = 0; d1 <= 2; d1++)
							for (int f2 = 0; f2 <= (ns >= 2 ? 19 : 0); f2++)
								for (int d2 = 0; d2 <= (ns >= 2 ? 2 : 0);
								     d2++) {
									struct rules_match c = m;
									struct rules_action a =
										act((uint8_t)kind, ns,
										    ns ? f1 : 0, ns ? d1 : 0,
										    f2, d2);

									if (!ns && (f1 || d1))
										continue;
									accepted +=
										rules_apply(&c, seats[0], &a,
											    NULL) == 0;
								}
			CHECK_EQ(accepted, n);
		}
		REQUIRE(rules_apply(&m, seats[0], &legal_buf[fixture_next(&x) % (uint32_t)n], NULL) == 0);
	}
	CHECK(positions >= 20);
}

/* The wire view of the opening, and of a bonus. */
static void test_view(void)
{
	const struct wire_game *g = wire_game_find("laquet");
	struct rules_match m;
	json_t *v, *want;

	REQUIRE(g != NULL);
	match_new(&m);
	v = g->view(&m);
	want = json_loads("{\"dice\":null,\"points\":[{\"white\":2,\"black\":0},{\"white\":3,\"black\":0},"
			  "{\"white\":3,\"black\":0},{\"white\":3,\"black\":0},{\"white\":3,\"black\":0},"
			  "{\"white\":0,\"black\":14},{\"white\":0,\"black\":1},{\"white\":0,\"black\":0},"
			  "{\"white\":0,\"black\":0},{\"white\":0,\"black\":0},{\"white\":0,\"black\":0},"
			  "{\"white\":0,\"black\":0},{\"white\":0,\"black\":0},{\"white\":0,\"black\":0},"
			  "{\"white\":0,\"black\":0},{\"white\":0,\"black\":0},{\"white\":0,\"black\":0},"
			  "{\"white\":1,\"black\":0}],\"off\":{\"white\":0,\"black\":0},\"handed\":[]}",
			  0, NULL);
	CHECK(v && want && json_equal(v, want));
	json_decref(v);
	json_decref(want);
	dice_set(&m, W, 4, 2);
	v = g->view(&m);
	want = json_pack("[ii]", 4, 2);
	CHECK(json_equal(json_object_get(v, "dice"), want));
	json_decref(want);
	json_decref(v);
	handed_set(&m, B, (const uint8_t[]){ 5, 3 }, 2);
	m.s.laquet.dice[0] = m.s.laquet.dice[1] = 0;
	v = g->view(&m);
	CHECK(json_is_null(json_object_get(v, "dice")));
	CHECK_EQ(json_array_size(json_object_get(v, "handed")), 2);
	CHECK_EQ(json_integer_value(json_array_get(json_object_get(v, "handed"), 0)), 5);
	json_decref(v);
}

/* Every legal action encodes and decodes back to the same bytes. */
static void test_codec_round_trip(void)
{
	const struct wire_game *g = wire_game_find("laquet");
	struct rules_match m;
	struct fixture_lcg x = { 3 };
	int checked = 0;

	REQUIRE(g != NULL);
	match_new(&m);
	for (int ply = 0; ply < 300; ply++) {
		uint8_t seats[RULES_MAX_SEATS];
		int n;

		if (rules_to_act(&m, seats) == 0)
			break;
		n = legal(&m, seats[0]);
		for (int i = 0; i < n; i++) {
			json_t *j = g->action_encode(&legal_buf[i]);
			struct rules_action back;

			CHECK(j && g->action_decode(j, &back) == WIRE_OK &&
			      rules_action_equal(&back, &legal_buf[i]));
			json_decref(j);
			checked++;
		}
		REQUIRE(rules_apply(&m, seats[0], &legal_buf[fixture_next(&x) % (uint32_t)n], NULL) == 0);
	}
	CHECK(checked > 100);
}

/* "r:n,r:n,..." (routes 1..18, 19 = off) or "-" into seat's men; the rest of the fifteen are off. */
static bool men_parse(struct rules_match *m, int seat, const char *spec)
{
	memset(m->s.laquet.men[seat], 0, sizeof(m->s.laquet.men[seat]));
	m->s.laquet.men[seat][LAQUET_OFF] = LAQUET_MEN;
	while (*spec && *spec != '-') {
		int r, n, used;

		if (sscanf(spec, "%d:%d%n", &r, &n, &used) != 2 || r < 1 || r > LAQUET_POINTS ||
		    n > m->s.laquet.men[seat][LAQUET_OFF])
			return false;
		put(m, seat, r, n);
		spec += used;
		spec += *spec == ',';
	}
	return true;
}

/*
 * A hand-set perft line: "pos <seed hex> <white> <black> <seat to act> <what> <depth> <count>",
 * <what> = "roll" (the seat rolls), "d1,d2" (it plays that roll) or "h:v1[,v2]" (it decides those
 * handed dice).
 */
static bool position_parse(const char *line, struct rules_match *m, int *depth, unsigned long long *want)
{
	char hex[65], white[128], black[128], what[32];
	uint8_t seed[RULES_SEED_SIZE];
	int seat, a = 0, b = 0;

	if (sscanf(line, "pos %64s %127s %127s %d %31s %d %llu", hex, white, black, &seat, what, depth,
		   want) != 7)
		return false;
	perft_seed_parse(hex, seed);
	if (rules_match_start(m, &rules_game_laquet, seed, NULL) != 0 || !men_parse(m, W, white) ||
	    !men_parse(m, B, black))
		return false;
	m->s.laquet.turn = (uint8_t)seat;
	if (strncmp(what, "h:", 2) == 0) {
		int n = sscanf(what + 2, "%d,%d", &a, &b);
		uint8_t v[2] = { (uint8_t)a, (uint8_t)b };

		handed_set(m, seat, v, n);
	} else if (sscanf(what, "%d,%d", &a, &b) == 2) {
		dice_set(m, seat, a, b);
	}
	return true;
}

/* tests/perft/laquet.txt: lines "<seed hex> <depth> <count>" or "pos ..." (above), '#' comments. */
static int laquet_line(const char *line, const struct rules_game *game, struct perft_case *c)
{
	if (strncmp(line, "pos ", 4) != 0)
		return perft_seed_line(line, game, c);
	return position_parse(line, &c->m, &c->depth, &c->want) ? 1 : -EINVAL;
}

/*
 * view_read (laquet_text.c) on the view of `src` (NULL: the opening) edited
 * by hand: `edits` pairs of (text, replacement), each applied once. 0 or -1
 * as view_read answers, into *m; -2 when an edit's text is not in the view,
 * -3 when the edited view does not fit or is not JSON.
 */
static int read_edited(struct rules_match *m, const struct rules_match *src, const char *const *edits,
		       int nedits, const uint8_t *to_act, int nto_act)
{
	static char text[4096];
	static struct jr_tok tok[512];
	char tmp[4096];
	struct rules_match opening;
	struct jw w;
	int n;

	match_new(&opening);
	jw_init(&w, text, sizeof(text));
	text_game_laquet.view(&w, src ? src : &opening);
	if (w.full)
		return -3;
	for (int i = 0; i < 2 * nedits; i += 2) {
		char *at = strstr(text, edits[i]);

		if (!at)
			return -2;
		snprintf(tmp, sizeof(tmp), "%.*s%s%s", (int)(at - text), text, edits[i + 1],
			 at + strlen(edits[i]));
		memcpy(text, tmp, sizeof(text));
	}
	n = jr_parse(text, strlen(text), tok, 512);
	if (n <= 0)
		return -3;
	match_new(m);
	return text_game_laquet.view_read(m, text, tok, 0, -1, to_act, nto_act);
}

/* A view read back: the phase from `dice` and `handed`, the turn from to_act; views the game never writes
 * refused. */
static void test_view_read(void)
{
	static const struct {
		const char *why;
		const char *edits[4];
		int nedits;
	} bad[] = {
		{ "a white man missing", { "{\"white\":2,", "{\"white\":1," }, 1 },
		{ "both colours on route 1",
		  { "{\"white\":2,\"black\":0}", "{\"white\":2,\"black\":1}", "\"black\":14",
		    "\"black\":13" },
		  2 },
		{ "dice and handed dice at once",
		  { "\"dice\":null", "\"dice\":[3,5]", "\"handed\":[]", "\"handed\":[4]" },
		  2 },
		{ "a die of 7", { "\"dice\":null", "\"dice\":[3,7]" }, 1 },
		{ "one die thrown", { "\"dice\":null", "\"dice\":[3]" }, 1 },
		{ "three dice handed", { "\"handed\":[]", "\"handed\":[1,2,3]" }, 1 },
		{ "a real for an integer", { "{\"white\":2,", "{\"white\":2.0," }, 1 },
		{ "a key more", { "\"handed\":[]", "\"handed\":[],\"x\":1" }, 1 },
	};
	const uint8_t white[] = { W }, black[] = { B }, both[] = { W, B }, third[] = { 2 };
	struct rules_match m, opening, race;
	const char *plan[] = { "\"dice\":null", "\"dice\":[3,5]" },
		   *bonus[] = { "\"handed\":[]", "\"handed\":[4,6]" };

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		int rc = read_edited(&m, NULL, bad[i].edits, bad[i].nedits, white, 1);

		if (rc != -1)
			printf("# %s: view_read answered %d\n", bad[i].why, rc);
		CHECK_EQ(rc, -1);
	}
	/* The opening comes back byte for byte. */
	match_new(&opening);
	CHECK_EQ(read_edited(&m, NULL, NULL, 0, white, 1), 0);
	CHECK(memcmp(&m.s.laquet, &opening.s.laquet, sizeof(opening.s.laquet)) == 0);
	CHECK_EQ(read_edited(&m, NULL, NULL, 0, both, 2), -1);
	CHECK_EQ(read_edited(&m, NULL, NULL, 0, third, 1), -1);
	/* A throw to play, handed dice to decide, from the view; the turn from to_act. */
	CHECK_EQ(read_edited(&m, NULL, plan, 1, black, 1), 0);
	CHECK(m.s.laquet.phase == LAQUET_PHASE_PLAN && m.s.laquet.turn == B && m.s.laquet.dice[0] == 3 &&
	      m.s.laquet.dice[1] == 5 && m.s.laquet.nhanded == 0);
	CHECK_EQ(read_edited(&m, NULL, bonus, 1, white, 1), 0);
	CHECK(m.s.laquet.phase == LAQUET_PHASE_BONUS && m.s.laquet.turn == W && m.s.laquet.nhanded == 2 &&
	      m.s.laquet.handed[0] == 4 && m.s.laquet.handed[1] == 6 && m.s.laquet.dice[0] == 0);
	/* Nobody to act: no dice shown; a resignation's loser guessed (White, more pips), marked out. */
	CHECK_EQ(read_edited(&m, NULL, plan, 1, NULL, 0), -1);
	CHECK_EQ(read_edited(&m, NULL, NULL, 0, NULL, 0), 0);
	CHECK(m.s.laquet.over && m.s.laquet.winner == B && m.s.laquet.reason == RULES_REASON_RESIGN &&
	      m.out == 1);
	/* Fifteen men off: White won the race; there is never a seat to act then. */
	board_clear(&race);
	put(&race, B, 17, 1);
	CHECK_EQ(read_edited(&m, &race, NULL, 0, black, 1), -1);
	CHECK_EQ(read_edited(&m, &race, NULL, 0, NULL, 0), 0);
	CHECK(m.s.laquet.over && m.s.laquet.winner == W && m.s.laquet.reason == RULES_REASON_RACE &&
	      m.out == 0);
	CHECK(m.s.laquet.men[B][17] == 1 && m.s.laquet.men[B][LAQUET_OFF] == 14);
}

static void test_perft(void)
{
	int mismatches, cases = perft_file_run(perft_path, &rules_game_laquet, laquet_line, 0, &mismatches);

	REQUIRE(cases >= 0);
	CHECK(mismatches == 0);
	CHECK(cases > 0);
}

int main(int argc, char **argv)
{
	if (argc > 1)
		perft_path = argv[1];
	TEST(test_setup);
	TEST(test_bad_options);
	TEST(test_check_opening_blocked);
	TEST(test_check_point_between);
	TEST(test_check_farthest_with_six);
	TEST(test_blocked_single_man_no_hit);
	TEST(test_doubles_not_doubled);
	TEST(test_max_dice);
	TEST(test_larger_die);
	TEST(test_pass_hands_both);
	TEST(test_bonus_choices);
	TEST(test_pass_no_bonus);
	TEST(test_handed_lost);
	TEST(test_bear_off_exact);
	TEST(test_bear_off_needs_all_home);
	TEST(test_bear_off_step_by_step);
	TEST(test_home_moves_and_off_blocks_nothing);
	TEST(test_win);
	TEST(test_resign_forfeit);
	TEST(test_errors_untouched);
	TEST(test_bear_off_any_low_man_forbids);
	TEST(test_bonus_second_die_only);
	TEST(test_last_man);
	TEST(test_win_in_bonus_view);
	TEST(test_view_off_and_points);
	TEST(test_outcome_json);
	TEST(test_apply_matches_legal);
	TEST(test_view);
	TEST(test_codec_round_trip);
	TEST(test_view_read);
	TEST(test_perft);
	return tap_done();
}
