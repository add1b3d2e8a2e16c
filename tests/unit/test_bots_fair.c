/*
 * test_bots_fair.c: no bot reads the match's dice (bots.h, Fairness). Over
 * random matches of every game, at every step every level of the game is
 * asked for the seat to act twice, with the same random stream and budget:
 * once in the match as it is, once in a copy whose dice stream comes from
 * another seed (the same position, other dice to come). The two choices must
 * be the same action. A strategy that looked at the stream (say, rolled
 * ahead on the match to see what comes) would answer differently at some
 * roll. Each answer must also be one of the seat's legal actions.
 */
#include <errno.h>
#include <string.h>

#include "bots.h"
#include "tap.h"

#define MATCHES 6
#define BUDGET  48 /* a small search: the same in both, and quick */

static struct rules_action legal[RULES_MAX_LEGAL];

static bool is_legal(const struct rules_match *m, int seat, const struct rules_action *a)
{
	int n = rules_legal_actions(m, seat, legal, RULES_MAX_LEGAL);

	for (int i = 0; i < n; i++)
		if (rules_action_equal(&legal[i], a))
			return true;
	return false;
}

static void check_game(const struct rules_game *g)
{
	int asked = 0, differ = 0, illegal = 0;

	for (int i = 0; i < MATCHES; i++) {
		uint8_t seed[RULES_SEED_SIZE] = { 0 }, other[RULES_SEED_SIZE] = { 0 }, who[RULES_MAX_SEATS];
		uint64_t walk = 0x2545f4914f6cdd1dull + (uint64_t)i;
		struct rules_match m;

		seed[0] = (uint8_t)i;
		seed[31] = 0x5a;
		other[0] = (uint8_t)i;
		other[31] = 0xa5;
		if (rules_match_start(&m, g, seed, NULL) != 0)
			continue;
		for (int ply = 0; ply < 600 && rules_to_act(&m, who) > 0; ply++) {
			struct rules_match twin;
			struct rules_action a;
			int n;

			memcpy(&twin, &m, sizeof(twin));
			rules_dice_init(&twin.dice, other);
			const struct bot_strategy *b;

			for (int l = 0; (b = bot_level_at(g->id, l)); l++) {
				struct rules_action x, y;
				struct bot_ctx c1 = { .rng = 7 + (uint64_t)ply, .budget = BUDGET };
				struct bot_ctx c2 = { .rng = 7 + (uint64_t)ply, .budget = BUDGET };
				if (bot_choose(b, &m, who[0], &c1, &x) != 0 ||
				    bot_choose(b, &twin, who[0], &c2, &y) != 0) {
					illegal++;
					continue;
				}
				asked++;
				differ += !rules_action_equal(&x, &y);
				illegal += !is_legal(&m, who[0], &x);
			}
			n = rules_legal_actions(&m, who[0], legal, RULES_MAX_LEGAL);
			if (n <= 0)
				break;
			a = legal[bot_rng_next(&walk) % (uint64_t)n];
			if (rules_apply(&m, who[0], &a, NULL) != 0)
				break;
		}
	}
	printf("# %s: %d choices, %d changed with the dice to come, %d not legal\n", g->id, asked, differ,
	       illegal);
	CHECK(asked > 100);
	CHECK(differ == 0);
	CHECK(illegal == 0);
}

/* A cheat: picks by the next byte of the dice stream it is given. */
static int peek_choose(const struct rules_match *m, int seat, struct bot_ctx *ctx, struct rules_action *out)
{
	struct rules_dice d = m->dice;
	int n = rules_legal_actions(m, seat, legal, RULES_MAX_LEGAL);

	(void)ctx;
	if (n <= 0)
		return -ENOENT;
	*out = legal[rules_dice_byte(&d) % n];
	return 0;
}

static const struct bot_strategy peek = { NULL, "peek", peek_choose };

/* The check above would see a bot that reads the dice: called directly, the cheat's answers follow the
 * match's stream; through bot_choose() they follow the bot's own. */
static void peek_is_blind(void)
{
	int direct = 0, wrapped = 0;

	for (int i = 0; i < 64; i++) {
		uint8_t s1[RULES_SEED_SIZE] = { (uint8_t)i, 1 }, s2[RULES_SEED_SIZE] = { (uint8_t)i, 2 };
		struct rules_match a, b;
		struct rules_action x, y;
		struct bot_ctx c1 = { .rng = 99 }, c2 = { .rng = 99 };

		REQUIRE(rules_match_start(&a, &rules_game_super15, s1, NULL) == 0);
		REQUIRE(rules_match_start(&b, &rules_game_super15, s2, NULL) == 0);
		memset(&x, 0, sizeof(x));
		memset(&y, 0, sizeof(y));
		REQUIRE(peek_choose(&a, 0, &c1, &x) == 0 && peek_choose(&b, 0, &c2, &y) == 0);
		direct += !rules_action_equal(&x, &y);
		REQUIRE(bot_choose(&peek, &a, 0, &c1, &x) == 0 && bot_choose(&peek, &b, 0, &c2, &y) == 0);
		wrapped += !rules_action_equal(&x, &y);
	}
	printf("# the cheat, 64 positions: %d differ when called directly, %d through bot_choose()\n", direct,
	       wrapped);
	CHECK(direct > 32);
	CHECK(wrapped == 0);
}

#define FAIR_TEST(id)                         \
	static void fair_##id(void)           \
	{                                     \
		check_game(&rules_game_##id); \
	}
GAME_LIST(FAIR_TEST)
#undef FAIR_TEST

int main(void)
{
#define RUN(id) TEST(fair_##id);
	GAME_LIST(RUN)
#undef RUN
	TEST(peek_is_blind);
	return tap_done();
}
