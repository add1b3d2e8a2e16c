/*
 * test_bots_ur.c: the Royal Game of Ur's levels (protocol/games/ur/ur_bots.c)
 * through the registry. `greedy` and `strong` are found for ur; both only
 * ever name legal actions; `strong` fills an estimate in [0,1] for each seat
 * that sums to 1, reports the work it did within its budget, and still names
 * a legal action when the caller's stop says stop at once. Over seeded
 * matches with the seats alternating (counts of wins, never a timing):
 * greedy beats random, and strong at a small fixed budget beats greedy.
 */
#include <string.h>

#include "bots.h"
#include "tap.h"

extern const struct bot_strategy bot_ur_greedy, bot_ur_strong; /* protocol/games/ur/ur_bots.c */

#define GREEDY_MATCHES 200  /* greedy against random, seats alternating */
#define STRONG_MATCHES 300  /* strong against greedy, seats alternating */
#define STRONG_BUDGET  3000 /* strong's nodes per move in these matches: a small search */

/* Whether `a` is one of `seat`'s legal actions in `m`. */
static bool legal(const struct rules_match *m, int seat, const struct rules_action *a)
{
	struct rules_action all[RULES_MAX_LEGAL];
	int n = rules_legal_actions(m, seat, all, RULES_MAX_LEGAL);

	for (int i = 0; i < n; i++)
		if (rules_action_equal(&all[i], a))
			return true;
	return false;
}

/* Counts what went wrong in one of strong's answers (legal action, estimate, spent). */
static int strong_faults(const struct rules_match *m, int seat, const struct bot_ctx *ctx,
			 const struct rules_action *a)
{
	float sum = ctx->estimate[0] + ctx->estimate[1];
	int f = 0;

	f += !legal(m, seat, a);
	f += !ctx->has_estimate;
	f += ctx->estimate[0] < 0.0f || ctx->estimate[0] > 1.0f || ctx->estimate[1] < 0.0f ||
	     ctx->estimate[1] > 1.0f;
	f += sum < 0.999f || sum > 1.001f;
	f += ctx->spent > ctx->budget + 16; /* the root's own actions may pass the limit by their count */
	return f;
}

/*
 * Plays match i: strat[s] plays seat s (strong with `budget`). Returns the
 * winner, -1 if the match did not end; *faults counts illegal answers and
 * bad estimates.
 */
static int play(const struct bot_strategy *strat[2], int i, uint32_t budget, int *faults)
{
	uint8_t seed[RULES_SEED_SIZE] = { 0 }, who[RULES_MAX_SEATS];
	uint64_t rng[2] = { 0x9e3779b97f4a7c15ull + (uint64_t)i, 0x2545f4914f6cdd1dull + (uint64_t)i };
	struct rules_match m;
	struct rules_result r;

	memcpy(seed, &i, sizeof(i));
	seed[31] = 0x72;
	if (rules_match_start(&m, &rules_game_ur, seed, NULL) != 0)
		return -1;
	for (int ply = 0; ply < 20000 && rules_to_act(&m, who) > 0; ply++) {
		int s = who[0];
		struct bot_ctx ctx = { .rng = rng[s], .budget = budget };
		struct rules_action a;

		if (bot_choose(strat[s], &m, s, &ctx, &a) != 0) {
			(*faults)++;
			return -1;
		}
		rng[s] = ctx.rng;
		if (strat[s] == &bot_ur_strong)
			*faults += strong_faults(&m, s, &ctx, &a);
		else
			*faults += !legal(&m, s, &a);
		if (rules_apply(&m, s, &a, NULL) != 0) {
			(*faults)++;
			return -1;
		}
	}
	rules_result(&m, &r);
	return r.over ? r.winner : -1;
}

/* Wins of `a` against `b` over `matches` seeded matches, a on seat i % 2. */
static int wins_of(const struct bot_strategy *a, const struct bot_strategy *b, int matches, uint32_t budget,
		   int *faults)
{
	int wins = 0;

	for (int i = 0; i < matches; i++) {
		const struct bot_strategy *strat[2];

		strat[i % 2] = a;
		strat[(i % 2) ^ 1] = b;
		wins += play(strat, i, budget, faults) == i % 2;
	}
	return wins;
}

static void test_registry(void)
{
	char levels[64];

	CHECK(bot_find("ur", "greedy") == &bot_ur_greedy);
	CHECK(bot_find("ur", "strong") == &bot_ur_strong);
	CHECK(bot_find("ur", "random") == &bot_random);
	CHECK(bot_find("ur", "no-such-level") == NULL);
	bot_levels("ur", levels, sizeof(levels));
	CHECK(strcmp(levels, "greedy, strong, random") == 0);
}

static void test_greedy_beats_random(void)
{
	int faults = 0, wins = wins_of(&bot_ur_greedy, &bot_random, GREEDY_MATCHES, 0, &faults);

	printf("# greedy won %d of %d matches against random\n", wins, GREEDY_MATCHES);
	CHECK_EQ(faults, 0);
	CHECK(wins >= GREEDY_MATCHES * 85 / 100);
}

static void test_strong_beats_greedy(void)
{
	int faults = 0,
	    wins = wins_of(&bot_ur_strong, &bot_ur_greedy, STRONG_MATCHES, STRONG_BUDGET, &faults);

	printf("# strong (budget %d) won %d of %d matches against greedy\n", STRONG_BUDGET, wins,
	       STRONG_MATCHES);
	CHECK_EQ(faults, 0);
	CHECK(wins >= STRONG_MATCHES * 40 / 100);
}

/* Strong against random with a tiny budget (the rules_wasm test's 64) and the default: legal, estimates. */
static void test_strong_legal_estimates(void)
{
	const struct bot_strategy *strat[2] = { &bot_ur_strong, &bot_random };
	int faults = 0;

	for (int i = 0; i < 8; i++) {
		strat[i % 2] = &bot_ur_strong;
		strat[(i % 2) ^ 1] = &bot_random;
		CHECK(play(strat, i, i < 4 ? 64 : 20000, &faults) >= 0);
	}
	CHECK_EQ(faults, 0);
}

static bool stop_now(void *arg)
{
	(*(int *)arg)++;
	return true;
}

/* A stop that says stop at once: strong still names a legal action with an estimate, and asked the stop. */
static void test_strong_stop(void)
{
	uint8_t seed[RULES_SEED_SIZE] = { 7 }, who[RULES_MAX_SEATS];
	uint64_t rng = 11;
	struct rules_match m;
	int asked = 0, decisions = 0;

	REQUIRE(rules_match_start(&m, &rules_game_ur, seed, NULL) == 0);
	for (int ply = 0; ply < 20000 && rules_to_act(&m, who) > 0; ply++) {
		struct bot_ctx ctx = { .rng = rng, .budget = 1000000, .stop = stop_now, .stop_arg = &asked };
		struct rules_action a, all[RULES_MAX_LEGAL];
		int n = rules_legal_actions(&m, who[0], all, RULES_MAX_LEGAL);

		REQUIRE(bot_choose(&bot_ur_strong, &m, who[0], &ctx, &a) == 0);
		rng = ctx.rng;
		CHECK_EQ(strong_faults(&m, who[0], &ctx, &a), 0);
		CHECK(n < 2 || ctx.spent < 100000); /* it stopped long before its budget */
		decisions += n > 1;
		REQUIRE(rules_apply(&m, who[0], &a, NULL) == 0);
	}
	printf("# %d decisions, the stop asked %d times\n", decisions, asked);
	CHECK(asked > 0);
}

int main(void)
{
	TEST(test_registry);
	TEST(test_greedy_beats_random);
	TEST(test_strong_legal_estimates);
	TEST(test_strong_stop);
	TEST(test_strong_beats_greedy);
	return tap_done();
}
