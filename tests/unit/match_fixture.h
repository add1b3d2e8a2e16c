/*
 * match_fixture.h: the one way the C tests play a match at random and build
 * the archive JSON of a real match of any registered game (the archive codec
 * and command-line tests). The one LCG of the tests (fixture_next) picks the
 * acting seat and its action among the legal ones (fixture_pick), for the
 * rules, codec and server tests that play random matches; the seeds are fixed; an
 * optional resignation event is applied through the rules core at a chosen
 * ply, exactly as the server would journal it. Everything recorded (outcomes,
 * result) comes from the rules core and the game's codec, so a correct
 * verifier must accept the archive as built.
 */
#ifndef QUINTETO_TEST_MATCH_FIXTURE_H
#define QUINTETO_TEST_MATCH_FIXTURE_H

#include <errno.h>
#include <string.h>

#include "wire.h"

#define FIXTURE_MAX_PLIES 3000

struct fixture_lcg {
	uint64_t x;
};

static inline uint32_t fixture_next(struct fixture_lcg *g)
{
	g->x = g->x * 6364136223846793005ULL + 1442695040888963407ULL;
	return (uint32_t)(g->x >> 33);
}

/*
 * A random seat to act (*seat) and a random legal action of it (*a): the LCG
 * draws the seat, then the action. Returns 0, or -ENOENT if no seat can act.
 */
static inline int fixture_pick(const struct rules_match *m, struct fixture_lcg *g, int *seat,
			       struct rules_action *a)
{
	static struct rules_action legal[RULES_MAX_LEGAL];
	uint8_t seats[RULES_MAX_SEATS];
	int n = rules_to_act(m, seats), k;

	if (n <= 0)
		return -ENOENT;
	*seat = seats[fixture_next(g) % (uint32_t)n];
	k = rules_legal_actions(m, *seat, legal, RULES_MAX_LEGAL);
	if (k <= 0 || k > RULES_MAX_LEGAL)
		return -ENOENT;
	*a = legal[fixture_next(g) % (uint32_t)k];
	return 0;
}

/* One step: a seat to act plays a random legal action, appended to `actions`; -1 if none can. */
static inline int fixture_step(struct rules_match *m, struct fixture_lcg *g, const struct wire_game *c,
			       json_t *actions)
{
	struct rules_action a;
	union rules_outcome out;
	uint32_t ply = m->ply;
	int seat;

	if (fixture_pick(m, g, &seat, &a) != 0 || rules_apply(m, seat, &a, &out) != 0)
		return -1;
	return json_array_append_new(actions, json_pack("{s:i, s:i, s:o, s:o, s:I}", "ply", (int)ply, "seat",
							seat, "action", c->action_encode(&a), "outcome",
							c->outcome_encode(m, &a, &out), "at",
							(json_int_t)(1700000000000LL + ply)));
}

/*
 * The archive of a match of game `id` (seed `salt`): played until it ends, or
 * until ply `resign_at` where seat `resign_seat` resigns (resign_at < 0: no
 * resignation), then played on while it is not over. NULL on failure.
 */
static inline json_t *fixture_archive(const char *id, uint32_t salt, int resign_at, int resign_seat)
{
	const struct rules_game *g = rules_game_find(id);
	const struct wire_game *c = wire_game_find(id);
	uint8_t server_seed[RULES_SEED_SIZE], seed[RULES_SEED_SIZE], digest[RULES_SHA256_SIZE];
	const char *cs[RULES_MAX_SEATS] = { "lucky", "", "x", "y", "z", "w" };
	char ss_hex[2 * RULES_SEED_SIZE + 1], commit[2 * RULES_SHA256_SIZE + 1];
	struct fixture_lcg lcg = { salt };
	struct rules_match m;
	struct rules_result res;
	json_t *actions = json_array(), *events = json_array(), *seats = json_array(), *seeds = json_array();

	if (!g || !c)
		return NULL;
	for (int i = 0; i < RULES_SEED_SIZE; i++)
		server_seed[i] = (uint8_t)(salt * 31 + (uint32_t)i * 7);
	rules_sha256(server_seed, sizeof(server_seed), digest);
	wire_hex_encode(server_seed, sizeof(server_seed), ss_hex);
	wire_hex_encode(digest, sizeof(digest), commit);
	rules_match_seed(server_seed, cs, g->seats, seed);
	if (rules_match_start(&m, g, seed, NULL) != 0)
		return NULL;
	for (int i = 0; i < g->seats; i++) {
		json_array_append_new(seats, json_pack("{s:i, s:s, s:s, s:b}", "seat", i, "role", g->roles[i],
						       "name", i ? "Bot" : "Ana", "bot", i != 0));
		json_array_append_new(seeds, json_string(cs[i]));
	}
	for (int ply = 0; ply < FIXTURE_MAX_PLIES; ply++) {
		if (ply == resign_at && rules_event(&m, resign_seat, RULES_EVENT_RESIGN, NULL) == 0)
			json_array_append_new(events, json_pack("{s:i, s:i, s:s, s:I}", "ply", ply, "seat",
								resign_seat, "kind", "resign", "at",
								(json_int_t)(1700000000000LL + ply)));
		if (fixture_step(&m, &lcg, c, actions) != 0)
			break;
	}
	rules_result(&m, &res);
	return json_pack("{s:s, s:s, s:{}, s:I, s:I, s:o, s:s, s:s, s:o, s:o, s:o, s:o}", "id", "fixture1",
			 "game", id, "options", "started_at", (json_int_t)1700000000000LL, "ended_at",
			 (json_int_t)1700000999999LL, "seats", seats, "commit", commit, "server_seed", ss_hex,
			 "client_seeds", seeds, "actions", actions, "events", events, "result",
			 res.over ? c->result_encode(&res) : json_null());
}

#endif
