/*
 * test_games_registry.c: every C consumer has every game of the one list
 * (protocol/games/meson.build). The rules registry is the reference: the
 * codecs, the bots and the command line's text boards each have exactly one
 * entry per game, in the same order, found by the game's id; a registry that
 * dropped or added a game fails here. tests/unit/check_games.sh checks the
 * folders against the list.
 */
#include <string.h>

#include "../../clients/cli/render.h"
#include "bots.h"
#include "tap.h"
#include "text.h"
#include "wire.h"

static int count_rules(void)
{
	int n = 0;

	while (rules_games[n])
		n++;
	return n;
}

static void test_list_is_the_registry(void)
{
	static const char *const listed[] = {
#define GAME_NAME(id) #id,
		GAME_LIST(GAME_NAME)
#undef GAME_NAME
	};
	int n = count_rules();

	CHECK_EQ(n, (int)(sizeof(listed) / sizeof(listed[0])));
	for (int i = 0; i < n; i++) {
		CHECK(strcmp(rules_games[i]->id, listed[i]) == 0);
		CHECK(rules_game_find(listed[i]) == rules_games[i]);
	}
}

static void test_every_consumer_has_every_game(void)
{
	int n = count_rules(), i;

	for (i = 0; i < n; i++) {
		const char *id = rules_games[i]->id;

		REQUIRE(wire_games[i] && bot_games[i] && cli_renders[i]);
		CHECK(strcmp(wire_games[i]->id, id) == 0);
		CHECK(strcmp(bot_games[i]->game, id) == 0);
		CHECK(strcmp(cli_renders[i]->game, id) == 0);
		CHECK(wire_game_find(id) == wire_games[i]);
		CHECK(text_game_find(id) && strcmp(text_game_find(id)->id, id) == 0);
		CHECK(bot_find(id, BOT_LEVEL_DEFAULT) != NULL);
		for (int k = 0; bot_games[i]->levels && bot_games[i]->levels[k]; k++)
			CHECK(strcmp(bot_games[i]->levels[k]->game, id) == 0);
	}
	CHECK(wire_games[i] == NULL);
	CHECK(bot_games[i] == NULL);
	CHECK(cli_renders[i] == NULL);
}

int main(void)
{
	TEST(test_list_is_the_registry);
	TEST(test_every_consumer_has_every_game);
	return tap_done();
}
