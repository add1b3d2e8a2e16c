/*
 * test_bots_laquet.c: Laquet's bot levels through the registry. `greedy` is
 * found for laquet (and not for ur), always names a legal action, and beats
 * `random` clearly: a count of wins over many seeded matches, each pairing
 * played with greedy on either seat. No timing.
 */
#include <string.h>

#include "bots.h"
#include "tap.h"

extern const struct bot_strategy bot_laquet_greedy; /* protocol/games/laquet/laquet_bots.c */

#define MATCHES 400 /* per seat of greedy */

/* Plays one match of strat[0] (seat 0) against strat[1]; returns the winner. */
static int play(const struct bot_strategy *strat[2], int i)
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

		if (bot_play(strat[who[0]], &m, who[0], &rng, &a) != 0 ||
		    rules_apply(&m, who[0], &a, NULL) != 0)
			return -1;
	}
	rules_result(&m, &r);
	return r.over ? r.winner : -1;
}

static void test_registry(void)
{
	CHECK(bot_find("laquet", "greedy") == &bot_laquet_greedy);
	CHECK(bot_find("laquet", "random") == &bot_random);
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

int main(void)
{
	TEST(test_registry);
	TEST(test_greedy_beats_random);
	return tap_done();
}
