/*
 * test_bots_super15.c: the `greedy` level of Super 1 al 5 (protocol/games/super15/super15_bots.c)
 * against `random`, over seeded matches with the seats alternating: greedy
 * must win clearly (a count of matches, not a timing). Also: it is found by
 * game and level, it only ever names a legal move, it takes a free piece
 * when one is offered, and it does not step where it would be captured back
 * when a safe capture of the same gain exists, nor where a Super would sweep
 * over it.
 */
#include <string.h>

#include "bots.h"
#include "tap.h"

extern const struct bot_strategy bot_super15_greedy; /* protocol/games/super15/super15_bots.c */

#define MATCHES 60

static int sq(const char *name)
{
	int rank = name[2] == '0' ? 10 : name[1] - '0';

	return (rank - 1) * SUPER15_FILES + (name[0] - 'a');
}

/* Plays one match: `greedy_seat` plays greedy, the other random. Returns the result. */
static struct rules_result play(int i, int greedy_seat, int *illegal)
{
	const struct bot_strategy *greedy = bot_find("super15", "greedy"),
				  *random = bot_find("super15", "random");
	uint8_t seed[RULES_SEED_SIZE] = { 0 }, seats[RULES_MAX_SEATS];
	uint64_t rng = 0x9e3779b97f4a7c15ull ^ (uint64_t)(i + 1);
	struct rules_match m;
	struct rules_result r;

	memcpy(seed, &i, sizeof(i));
	rules_match_start(&m, &rules_game_super15, seed, NULL);
	while (rules_to_act(&m, seats) == 1) {
		const struct bot_strategy *b = seats[0] == greedy_seat ? greedy : random;
		struct rules_action a;

		if (bot_play(b, &m, seats[0], &rng, &a) != 0 || rules_apply(&m, seats[0], &a, NULL) != 0) {
			(*illegal)++;
			break;
		}
	}
	rules_result(&m, &r);
	return r;
}

static void test_registered(void)
{
	const struct bot_strategy *g = bot_find("super15", "greedy");
	char levels[64];

	CHECK(g == &bot_super15_greedy);
	CHECK(strcmp(g->game, "super15") == 0);
	CHECK(bot_find("ur", "no-such-level") == NULL);
	CHECK(bot_find("super15", "random") == &bot_random);
	bot_levels("super15", levels, sizeof(levels));
	CHECK(strstr(levels, "greedy") != NULL && strstr(levels, "random") != NULL);
}

static void test_greedy_beats_random(void)
{
	int wins = 0, losses = 0, draws = 0, illegal = 0;

	for (int i = 0; i < MATCHES; i++) {
		int g = i % 2;
		struct rules_result r = play(i, g, &illegal);

		REQUIRE(r.over);
		if (r.draw)
			draws++;
		else if (r.winner == g)
			wins++;
		else
			losses++;
	}
	printf("# greedy against random, %d matches: %d won, %d lost, %d drawn\n", MATCHES, wins, losses,
	       draws);
	CHECK_EQ(illegal, 0);
	CHECK(wins >= MATCHES * 8 / 10);
	CHECK(wins > 4 * (losses + draws));
}

/* A piece to set: its id (0..15 Light, 16..31 Dark), square, value, points and Super flag. */
struct placed {
	int id;
	const char *square;
	int value, points, super;
};

/* A match on an empty board with only `n` pieces set, Light to move. */
static void position(struct rules_match *m, const struct placed *p, int n)
{
	static const uint8_t seed[RULES_SEED_SIZE];
	struct super15_state *s;

	rules_match_start(m, &rules_game_super15, seed, NULL);
	s = &m->s.super15;
	for (int id = 0; id < SUPER15_PIECES; id++)
		s->pieces[id].square = SUPER15_NONE;
	for (int i = 0; i < n; i++)
		s->pieces[p[i].id] = (struct super15_piece){ (uint8_t)sq(p[i].square), (uint8_t)p[i].value,
							     (uint8_t)p[i].points, (uint8_t)p[i].super };
	super15_state_sync(s);
}

/* A free piece is taken; of two equal captures, the one that is not captured back. */
static void test_takes_and_avoids(void)
{
	static const struct placed set[] = {
		{ 0, "a1", 1, 0, 0 },   { 1, "c3", 2, 0, 0 },  /* can take b4 or d4 */
		{ 2, "h1", 1, 0, 0 },   { 16, "b4", 1, 0, 0 }, /* guarded by b5 */
		{ 17, "b5", 1, 0, 0 },  { 18, "d4", 1, 0, 0 }, /* out of every reach */
		{ 19, "h10", 1, 0, 0 },
	};
	const struct bot_strategy *g = bot_find("super15", "greedy");
	struct rules_match m;
	struct rules_action a;
	uint64_t rng = 7;

	for (int trial = 0; trial < 20; trial++) {
		position(&m, set, (int)(sizeof(set) / sizeof(set[0])));
		REQUIRE(bot_play(g, &m, 0, &rng, &a) == 0);
		CHECK_EQ(a.arg[0], sq("c3"));
		CHECK_EQ(a.arg[1], sq("d4"));
	}
}

/*
 * A recapture by a Super's sweep counts too: the Super need not stop on the
 * piece, it captures it on its way to a farther enemy. Taking d4 (2) opens
 * the d file to Dark's Super on d10, whose only move down it ends on d1 and
 * takes d4 on the way; taking b3 (1) is safe, so greedy takes b3.
 */
static void test_avoids_super_sweep(void)
{
	static const struct placed set[] = {
		{ 0, "c3", 1, 0, 0 },   { 1, "d1", 1, 0, 0 },    /* the sweep's end */
		{ 2, "h1", 1, 0, 0 },   { 16, "d10", 1, 12, 1 }, /* the Super */
		{ 17, "d4", 2, 0, 0 },                           /* closes the d file */
		{ 18, "b3", 1, 0, 0 },                           /* out of every reach */
		{ 19, "h10", 1, 0, 0 },
	};
	const struct bot_strategy *g = bot_find("super15", "greedy");
	struct rules_match m;
	struct rules_action a;
	uint64_t rng = 11;

	for (int trial = 0; trial < 20; trial++) {
		position(&m, set, (int)(sizeof(set) / sizeof(set[0])));
		REQUIRE(bot_play(g, &m, 0, &rng, &a) == 0);
		CHECK_EQ(a.arg[0], sq("c3"));
		CHECK_EQ(a.arg[1], sq("b3"));
	}
}

int main(void)
{
	TEST(test_registered);
	TEST(test_takes_and_avoids);
	TEST(test_avoids_super_sweep);
	TEST(test_greedy_beats_random);
	return tap_done();
}
