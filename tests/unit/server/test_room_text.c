/*
 * test_room_text.c: a room's log texts written without a tree
 * (server/room/room_text.c: the codec's byte writer, then its keys sorted)
 * are exactly util_json_text() of the codec's trees, the bytes the journal
 * and the archive held before: every legal action of every seat to act and
 * the outcome of every action played, over random playouts of every game,
 * a third of them ended by an event. The sort itself against the tree's
 * sorted writing of JSON parsed from hand-made texts, and what it declines.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json_out.h"
#include "match_fixture.h"
#include "room/room_text.h"
#include "rules.h"
#include "tap.h"
#include "wire.h"

#define MATCHES_PER_GAME 12

static struct fixture_lcg lcg = { 7 };

/* The tree written sorted, against `fast` (then emptied); prints the first difference. */
static bool same(const char *what, json_t *tree, struct json_out *fast, int fast_err)
{
	struct json_out def = { 0 };
	bool ok = tree && json_out_value(&def, tree, JSON_OUT_SORT_KEYS) == 0 && fast_err == 0 &&
		  def.len == fast->len && memcmp(def.p, fast->p, def.len) == 0;

	if (!ok)
		printf("# %s differs:\n#   tree: %s\n#   text: %s (%d)\n", what, def.p ? def.p : "(null)",
		       fast->p ? fast->p : "(null)", fast_err);
	json_decref(tree);
	json_out_free(&def);
	fast->len = 0;
	return ok;
}

static bool actions_same(const struct rules_match *m, const struct wire_game *c, struct json_out *o, long *n)
{
	static struct rules_action legal[RULES_MAX_LEGAL];
	uint8_t seats[RULES_MAX_SEATS];
	int s, k, i, ns = rules_to_act(m, seats);

	for (s = 0; s < ns; s++) {
		k = rules_legal_actions(m, seats[s], legal, RULES_MAX_LEGAL);
		for (i = 0; i < k; i++, (*n)++)
			if (!same("action", c->action_encode(&legal[i]), o,
				  room_action_text(o, c, &legal[i])))
				return false;
	}
	return true;
}

static bool play_game(const struct rules_game *g, const struct wire_game *c, long *nact, long *nout)
{
	struct json_out o = { 0 };
	struct rules_options go;
	struct rules_match m;
	struct rules_result res;
	union rules_outcome oc;
	struct rules_action a;
	bool ok = true;
	int i, j, seat, end_at;

	memset(&go, 0, sizeof(go));
	for (i = 0; ok && i < MATCHES_PER_GAME; i++) {
		uint8_t seed[RULES_SEED_SIZE] = { (uint8_t)i, 0x3c, (uint8_t)g->seats };

		if (rules_match_start(&m, g, seed, &go) != 0)
			break;
		end_at = i % 3 == 0 ? (int)(fixture_next(&lcg) % 60) : -1;
		for (j = 0; ok && j < FIXTURE_MAX_PLIES; j++) {
			ok = actions_same(&m, c, &o, nact);
			rules_result(&m, &res);
			if (!ok || res.over)
				break;
			if (j == end_at) {
				seat = (int)(fixture_next(&lcg) % (uint32_t)g->seats);
				if (rules_seat_in_play(&m, seat))
					rules_event(&m, seat, RULES_EVENT_RESIGN, &oc);
				continue;
			}
			if (fixture_pick(&m, &lcg, &seat, &a) != 0 || rules_apply(&m, seat, &a, &oc) != 0) {
				ok = false;
				break;
			}
			(*nout)++;
			ok = same("outcome", c->outcome_encode(&m, &a, &oc), &o,
				  room_outcome_text(&o, c, &m, &a, &oc));
		}
	}
	json_out_free(&o);
	return ok;
}

static void test_every_game(void)
{
	int i;

	for (i = 0; rules_games[i]; i++) {
		const struct wire_game *c = wire_game_find(rules_games[i]->id);
		long nact = 0, nout = 0;

		REQUIRE(c != NULL);
		CHECK(play_game(rules_games[i], c, &nact, &nout));
		printf("# %s: %ld actions, %ld outcomes\n", c->id, nact, nout);
		CHECK(nout > 0);
	}
}

/* Hand-made texts: sorted as the tree parsed from them is written sorted; the sort can fail the check. */
static void test_sort(void)
{
	static const char *const texts[] = {
		"{\"b\":1,\"a\":{\"d\":[{\"f\":1,\"e\":2},[],{}],\"c\":\"x,}]\\\"{\"},\"ab\":null,\"\":true}",
		"[{\"z\":[{\"y\":1,\"x\":[{\"w\":false,\"v\":-12}]}]},\"\xc3\xa9\\n\",3,{\"aa\":1,\"a\":2}]",
		"{\"k\":\"\xc3\xa9\xe2\x82\xac\",\"j\":{\"i\":{\"h\":{\"g\":{}}}}}",
		"{}",
		"[]",
		"\"s\"",
		"17",
	};
	struct json_out o = { 0 };
	size_t i;

	for (i = 0; i < sizeof(texts) / sizeof(texts[0]); i++) {
		json_t *j = json_loads(texts[i], JSON_DECODE_ANY, NULL);

		REQUIRE(j);
		CHECK(same(texts[i], j, &o, room_text_sort(&o, texts[i], strlen(texts[i]))));
	}
	/* a planted difference is seen: the writer's order unsorted */
	json_out_bytes(&o, "{\"b\":1,\"a\":2}", 13);
	CHECK(!same("planted", json_loads("{\"b\":1,\"a\":2}", 0, NULL), &o, 0));
	/* declined, o left as it was: an escaped key, too many members, too deep, not such JSON */
	json_out_bytes(&o, "x", 1);
	CHECK_EQ(room_text_sort(&o, "{\"b\\\"\":1,\"a\":2}", 16), -EINVAL);
	CHECK_EQ(room_text_sort(&o, "{\"a\":1", 6), -EINVAL);
	CHECK_EQ(room_text_sort(&o, "{\"a\":1}}", 8), -EINVAL);
	CHECK_EQ(room_text_sort(&o, "", 0), -EINVAL);
	{
		char many[400] = "{", deep[80];
		int k;

		for (k = 0; k < 33; k++)
			snprintf(many + strlen(many), sizeof(many) - strlen(many), "%s\"k%02d\":%d",
				 k ? "," : "", 32 - k, k);
		strcat(many, "}");
		CHECK_EQ(room_text_sort(&o, many, strlen(many)), -EINVAL);
		for (k = 0; k < 34; k++)
			deep[k] = '[';
		for (; k < 68; k++)
			deep[k] = ']';
		CHECK_EQ(room_text_sort(&o, deep, 68), -EINVAL);
	}
	CHECK_EQ(o.len, 1);
	CHECK(!strcmp(o.p, "x"));
	json_out_free(&o);
}

int main(void)
{
	TEST(test_every_game);
	TEST(test_sort);
	return tap_done();
}
