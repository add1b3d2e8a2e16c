/*
 * test_wire_writers.c: a game's parts of a frame written to bytes
 * (protocol/wire/game_out.c: wire_view_out(), wire_legal_out() ..., through
 * the game's text codec where its wire codec names one) are exactly what its
 * tree functions give, written compact (json_out_value(), itself held equal
 * to json_dumps() by test_json_out). Random playouts of every game: at every
 * ply the view and the legal list of every seat to act, the outcome of the
 * action played, and the result at the end; a third of the matches end early
 * by a resignation or a forfeit, so that those results are written too.
 * (text_codecs checks the text codecs themselves; this checks them as the
 * server uses them, through the growing buffer.)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json_out.h"
#include "match_fixture.h"
#include "rules.h"
#include "tap.h"
#include "wire.h"

#define MATCHES_PER_GAME 16

static struct fixture_lcg lcg = { 11 };

/* The tree written compact into `def`, the writer into `fast`; prints the first difference. */
static bool same(const char *what, json_t *tree, struct json_out *fast, int fast_err)
{
	struct json_out def = { 0 };
	bool ok;

	ok = tree && json_out_value(&def, tree, 0) == 0 && fast_err == 0 && def.len == fast->len &&
	     memcmp(def.p, fast->p, def.len) == 0;
	if (!ok)
		printf("# %s differs:\n#   tree:   %s\n#   writer: %s (%d)\n", what, def.p ? def.p : "(null)",
		       fast->p ? fast->p : "(null)", fast_err);
	json_decref(tree);
	json_out_free(&def);
	fast->len = 0;
	return ok;
}

struct counts {
	long views, actions, outcomes, results;
};

/* Every legal action of every seat to act, one at a time and as the legal list. */
static bool legal_same(const struct rules_match *m, const struct wire_game *c, struct json_out *o,
		       struct counts *n)
{
	static struct rules_action legal[RULES_MAX_LEGAL];
	uint8_t seats[RULES_MAX_SEATS];
	int s, k, ns = rules_to_act(m, seats);

	for (s = 0; s < ns; s++) {
		k = rules_legal_actions(m, seats[s], legal, RULES_MAX_LEGAL);
		n->actions += k; /* each written by action_out into the list */
		if (!same("legal", wire_legal_new(c, legal, k), o, wire_legal_out(o, c, legal, k)))
			return false;
	}
	return true;
}

static bool result_same(const struct rules_match *m, const struct wire_game *c, struct json_out *o,
			struct counts *n)
{
	struct rules_result res;

	rules_result(m, &res);
	if (!res.over)
		return true;
	n->results++;
	return same("result", c->result_encode(&res), o, wire_result_out(o, c, &res));
}

static bool play_game(const struct rules_game *g, const struct wire_game *c, struct counts *n)
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
		uint8_t seed[RULES_SEED_SIZE] = { (uint8_t)i, 0xa5, (uint8_t)g->seats };

		if (rules_match_start(&m, g, seed, &go) != 0)
			break;
		/* a third of the matches end early by an event, a resignation or a forfeit */
		end_at = i % 3 == 0 ? (int)(fixture_next(&lcg) % 60) : -1;
		for (j = 0; ok && j < FIXTURE_MAX_PLIES; j++) {
			n->views++;
			ok = same("view", c->view(&m), &o, wire_view_out(&o, c, &m)) &&
			     legal_same(&m, c, &o, n);
			rules_result(&m, &res);
			if (!ok || res.over)
				break;
			if (j == end_at) {
				seat = (int)(fixture_next(&lcg) % (uint32_t)g->seats);
				if (rules_seat_in_play(&m, seat))
					rules_event(&m, seat,
						    i % 2 ? RULES_EVENT_RESIGN : RULES_EVENT_FORFEIT, &oc);
				continue;
			}
			if (fixture_pick(&m, &lcg, &seat, &a) != 0 || rules_apply(&m, seat, &a, &oc) != 0) {
				ok = false;
				break;
			}
			n->outcomes++;
			ok = same("outcome", c->outcome_encode(&m, &a, &oc), &o,
				  wire_outcome_out(&o, c, &m, &a, &oc));
		}
		ok = ok && result_same(&m, c, &o, n);
	}
	json_out_free(&o);
	return ok;
}

static void test_every_game(void)
{
	int i;

	for (i = 0; rules_games[i]; i++) {
		const struct wire_game *c = wire_game_find(rules_games[i]->id);
		struct counts n = { 0 };

		REQUIRE(c != NULL);
		CHECK(play_game(rules_games[i], c, &n));
		printf("# %s (%s): %ld views, %ld actions, %ld outcomes, %ld results\n", c->id,
		       c->text ? "text codec" : "trees", n.views, n.actions, n.outcomes, n.results);
		CHECK(c->text != NULL); /* every built-in game has one */
		CHECK(n.results == MATCHES_PER_GAME);
	}
}

/* The comparison itself can fail: a writer one byte off is caught. */
static void test_difference_caught(void)
{
	struct json_out o = { 0 };

	json_out_bytes(&o, "{\"a\":1 }", 8);
	CHECK(!same("planted", json_pack("{s:i}", "a", 1), &o, 0));
	json_out_bytes(&o, "{\"a\":1}", 7);
	CHECK(same("planted", json_pack("{s:i}", "a", 1), &o, 0));
	json_out_free(&o);
}

int main(void)
{
	TEST(test_every_game);
	TEST(test_difference_caught);
	return tap_done();
}
