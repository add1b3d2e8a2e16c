/*
 * test_bots_laquet.c: Laquet's bot levels through the registry. `greedy` and
 * `strong` are found for laquet (and not for ur) and always name a legal
 * action; greedy beats `random` clearly, and strong at a small fixed budget
 * wins at least half against greedy (the margin grows with the budget, see
 * the game's README; a small one keeps this quick): counts of wins over
 * seeded matches, each pairing played with the stronger level on either
 * seat. Strong's estimates are
 * chances (0..1, summing to 1), its work stays within its budget, and a stop
 * callback that says stop at once still gets a legal move, quickly in work.
 * No timing.
 */
#include <string.h>

#include "bots.h"
#include "tap.h"

extern const struct bot_strategy bot_laquet_greedy; /* protocol/games/laquet/laquet_bots.c */
extern const struct bot_strategy bot_laquet_strong; /* protocol/games/laquet/laquet_search.c */

#define MATCHES        400   /* per seat of greedy */
#define STRONG_MATCHES 20    /* per seat of strong */
#define STRONG_BUDGET  10000 /* positions scored a move: a small search, quick under the sanitizers */
#define STRONG_MIN_PCT 50    /* it won 23 of the 40 (57.5%); the default budget does better (README) */

static int strong_moves, strong_bad_estimate, strong_over_budget;

/* Asks `b` for `seat`'s action; a strong move's estimate and work are checked on the way. */
static int ask(const struct bot_strategy *b, const struct rules_match *m, int seat, uint64_t *rng,
	       uint32_t budget, struct rules_action *a)
{
	struct bot_ctx ctx = { .rng = *rng, .budget = budget };
	int err = bot_choose(b, m, seat, &ctx, a);
	float sum = ctx.estimate[0] + ctx.estimate[1];

	*rng = ctx.rng;
	if (err || b != &bot_laquet_strong)
		return err;
	strong_moves++;
	strong_bad_estimate += !ctx.has_estimate || ctx.estimate[seat] < 0.0f || ctx.estimate[seat] > 1.0f ||
			       sum < 0.999f || sum > 1.001f;
	/* The 1-ply pass (at most 481 positions) always runs; past that the budget holds. */
	strong_over_budget += ctx.spent == 0 || ctx.spent > budget + 481;
	return 0;
}

/* Plays one match of strat[0] (seat 0) against strat[1], strong at `budget`; returns the winner. */
static int play_budget(const struct bot_strategy *strat[2], int i, uint32_t budget)
{
	uint8_t seed[RULES_SEED_SIZE] = { 0 }, who[RULES_MAX_SEATS];
	uint64_t rng = 0x9e3779b97f4a7c15ull + (uint64_t)i;
	struct rules_match m;
	struct rules_result r;

	memcpy(seed, &i, sizeof(i));
	seed[30] = 0x1a;
	if (rules_match_start(&m, &rules_game_laquet, seed, NULL) != 0)
		return -1;
	for (int ply = 0; ply < 20000 && rules_to_act(&m, who) > 0; ply++) {
		struct rules_action a;

		if (ask(strat[who[0]], &m, who[0], &rng, budget, &a) != 0 ||
		    rules_apply(&m, who[0], &a, NULL) != 0)
			return -1;
	}
	rules_result(&m, &r);
	return r.over ? r.winner : -1;
}

static int play(const struct bot_strategy *strat[2], int i)
{
	return play_budget(strat, i, 0);
}

static void test_registry(void)
{
	CHECK(bot_find("laquet", "greedy") == &bot_laquet_greedy);
	CHECK(bot_find("laquet", "random") == &bot_random);
	CHECK(bot_find("laquet", "strong") == &bot_laquet_strong);
	CHECK(bot_find("ur", "no-such-level") == NULL);
}

static void test_greedy_beats_random(void)
{
	int wins = 0, bad = 0;

	for (int i = 0; i < 2 * MATCHES; i++) {
		int g = i % 2; /* greedy's seat */
		const struct bot_strategy *strat[2];
		int w;

		strat[g] = &bot_laquet_greedy;
		strat[g ^ 1] = &bot_random;
		w = play(strat, i);
		bad += w < 0;
		wins += w == g;
	}
	printf("# greedy won %d of %d matches against random\n", wins, 2 * MATCHES);
	CHECK_EQ(bad, 0);
	CHECK(wins >= 2 * MATCHES * 85 / 100);
}

static void test_strong_beats_greedy(void)
{
	int wins = 0, bad = 0;

	for (int i = 0; i < 2 * STRONG_MATCHES; i++) {
		int g = i % 2; /* strong's seat */
		const struct bot_strategy *strat[2];
		int w;

		strat[g] = &bot_laquet_strong;
		strat[g ^ 1] = &bot_laquet_greedy;
		w = play_budget(strat, 5000 + i, STRONG_BUDGET);
		bad += w < 0;
		wins += w == g;
	}
	printf("# strong (budget %d) won %d of %d matches against greedy; %d moves, %d bad estimates, %d "
	       "over "
	       "budget\n",
	       STRONG_BUDGET, wins, 2 * STRONG_MATCHES, strong_moves, strong_bad_estimate,
	       strong_over_budget);
	CHECK_EQ(bad, 0); /* every strong move was legal: rules_apply took it */
	CHECK(strong_moves > 1000);
	CHECK_EQ(strong_bad_estimate, 0);
	CHECK_EQ(strong_over_budget, 0);
	CHECK(wins >= 2 * STRONG_MATCHES * STRONG_MIN_PCT / 100);
}

static int stop_calls;

static bool stop_now(void *arg)
{
	(void)arg;
	stop_calls++;
	return true;
}

/* A stop that says stop at once: still a legal move, after little work, in a plan and a bonus. */
static void test_strong_stops(void)
{
	uint8_t seed[RULES_SEED_SIZE] = { 3 }, who[RULES_MAX_SEATS];
	uint64_t rng = 99;
	struct rules_match m;
	int asked = 0;

	REQUIRE(rules_match_start(&m, &rules_game_laquet, seed, NULL) == 0);
	for (int ply = 0; ply < 400 && rules_to_act(&m, who) > 0; ply++) {
		struct rules_action a;
		struct rules_match copy;
		struct bot_ctx ctx = { .rng = 5, .stop = stop_now };
		int phase = m.s.laquet.phase;

		if (phase != LAQUET_PHASE_ROLL) {
			stop_calls = 0;
			REQUIRE(bot_choose(&bot_laquet_strong, &m, who[0], &ctx, &a) == 0);
			memcpy(&copy, &m, sizeof(copy));
			CHECK(rules_apply(&copy, who[0], &a, NULL) == 0);
			/* The default budget is far more; the stop ends the search at its first poll. */
			CHECK(ctx.spent <= 481 + 512);
			CHECK(stop_calls >= 1 || ctx.spent < 512);
			CHECK(ctx.has_estimate);
			asked++;
		}
		REQUIRE(bot_play(&bot_laquet_greedy, &m, who[0], &rng, &a) == 0);
		REQUIRE(rules_apply(&m, who[0], &a, NULL) == 0);
	}
	CHECK(asked > 50);
}

int main(void)
{
	TEST(test_registry);
	TEST(test_greedy_beats_random);
	TEST(test_strong_stops);
	TEST(test_strong_beats_greedy);
	return tap_done();
}
