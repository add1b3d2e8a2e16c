/*
 * test_state_out.c: the `state` frame written without a tree (server/
 * state_out.c) is byte for byte json_dumps(wire_state_new(w), JSON_COMPACT),
 * the definition. Random playouts of every game, and at every ply random
 * room parts: seat names that need escaping or are missing, bots, connected
 * and stand-in flags, clocks running or stopped, spectators, a missing
 * commit, every rematch status with accepted seats and a new room or none,
 * revealed seeds once over (some seats without one), and random options from
 * each game's own table. The offset of `legal` must point at its "[]".
 */
#include <stdlib.h>
#include <string.h>

#include "match_fixture.h"
#include "rules.h"
#include "room/state_out.h"
#include "tap.h"
#include "wire.h"

#define MATCHES_PER_GAME 8

static struct fixture_lcg lcg = { 7 };

static uint32_t rnd(uint32_t n)
{
	return n ? fixture_next(&lcg) % n : 0;
}

static const char *const names[] = { "Ana", "B\"o\\b/", "Zoë ☃", "tab\there\x01", "", NULL };
static const char *const statuses[] = { NULL, "offered", "declined", "expired", "accepted" };

/* Random values for every option of the game's table; false if the rules refuse them. */
static void random_options(const struct wire_game *c, struct wire_room_options *ro, struct rules_options *go)
{
	const struct wire_option *opt;

	memset(ro, 0, sizeof(*ro));
	memset(go, 0, sizeof(*go));
	for (opt = c->options; opt && opt->key; opt++) {
		char *base = opt->room ? (char *)ro : (char *)go;

		if (rnd(3) == 0)
			continue; /* the default */
		if (opt->type == WIRE_OPT_BOOL)
			*(bool *)(base + opt->offset) = rnd(2);
		else
			*(int32_t *)(base + opt->offset) =
				opt->min + (int32_t)rnd((uint32_t)(opt->max - opt->min) + 1);
	}
}

static void random_room(struct wire_room *w, const struct rules_game *g)
{
	static const char *const levels[] = { NULL, "random", "greedy", "strong" }; /* (r3) NULL: no bot */
	int i;

	for (i = 0; i < g->seats; i++) {
		struct wire_seat *s = &w->seats[i];

		s->name = names[rnd(6)];
		s->bot = levels[rnd(4)];
		s->connected = rnd(2);
		s->stand_in = rnd(2);
		s->has_clock = rnd(2);
		s->clock_ms = rnd(4) ? (int64_t)rnd(600000) : -(int64_t)rnd(1000);
		s->clock_since = rnd(2) ? 1700000000000LL + rnd(100000) : 0;
		/* issue 26: an account's seat, its rating and provisional flag */
		s->handle = rnd(3) ? NULL : names[rnd(6)];
		s->rating = 1200 + (int32_t)rnd(900);
		s->provisional = rnd(2);
	}
	w->rated = rnd(2);
	w->spectators = (int)rnd(5);
	w->commit = rnd(8) ? "00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff" : NULL;
	w->rematch_status = statuses[rnd(5)];
	w->rematch_by = (int)rnd(g->seats);
	w->rematch_accepted = rnd(1u << g->seats);
	w->rematch_expires_at = 1700000000000LL + rnd(1000);
	w->rematch_room = rnd(2) ? "r-next\"1" : NULL;
}

/* The frame of `w` both ways; false on a difference. */
static bool same_frame(const struct wire_room *w)
{
	struct json_out opts = { 0 }, o = { 0 };
	json_t *st = wire_state_new(w);
	char *want = st ? json_dumps(st, JSON_COMPACT) : NULL;
	size_t at = 0;
	int r = state_out_options(&opts, w);
	bool ok;

	r = r || state_out(&o, w, opts.p, opts.len, &at);
	ok = want && !r && o.len == strlen(want) && memcmp(o.p, want, o.len) == 0 && at + 2 <= o.len &&
	     memcmp(o.p + at, "[]", 2) == 0 && at >= 8 && memcmp(o.p + at - 8, "\"legal\":", 8) == 0;
	if (!ok)
		printf("# want %s\n#  got %.*s (at %zu)\n", want ? want : "(null)", (int)o.len,
		       o.p ? o.p : "", at);
	free(want);
	json_decref(st);
	json_out_free(&opts);
	json_out_free(&o);
	return ok;
}

static int play_game(const struct rules_game *g, const struct wire_game *codec)
{
	struct wire_room_options ro;
	struct rules_options go;
	struct rules_match m;
	struct wire_room w;
	int states = 0, i, j;

	for (i = 0; i < MATCHES_PER_GAME; i++) {
		uint8_t seed[RULES_SEED_SIZE] = { (uint8_t)i, 0x5a, (uint8_t)g->seats };
		static const char *const cs[RULES_MAX_SEATS] = { "c\"s", NULL, "", "x", NULL, "y" };
		struct rules_result res;

		random_options(codec, &ro, &go);
		if (rules_match_start(&m, g, seed, &go) != 0) {
			memset(&go, 0, sizeof(go));
			if (rules_match_start(&m, g, seed, &go) != 0)
				return -1;
		}
		memset(&w, 0, sizeof(w));
		w.id = i % 2 ? "r1" : "room-\"é\"";
		w.game = g;
		w.codec = codec;
		w.match = &m;
		w.room_options = &ro;
		w.rules_options = i % 3 ? &go : NULL;
		for (j = 0; j < 2000; j++) {
			rules_result(&m, &res);
			w.status = res.over ? "finished" : j == 0 && i % 4 == 0 ? "waiting" : "playing";
			random_room(&w, g);
			w.server_seed = res.over ? "5eed" : NULL;
			memcpy(w.client_seeds, cs, sizeof(cs));
			if (!same_frame(&w))
				return -1;
			states++;
			if (res.over)
				break;
			if (fixture_pick(&m, &lcg, &w.last_seat, &w.last_action) != 0)
				return -1;
			w.has_last = true;
			if (rules_apply(&m, w.last_seat, &w.last_action, &w.last_outcome) != 0)
				return -1;
		}
	}
	return states;
}

static void test_every_game(void)
{
	int i;

	for (i = 0; rules_games[i]; i++) {
		const struct wire_game *codec = wire_game_find(rules_games[i]->id);
		int states;

		REQUIRE(codec);
		states = play_game(rules_games[i], codec);
		printf("# %s: %d states\n", rules_games[i]->id, states);
		CHECK(states > MATCHES_PER_GAME * 5);
	}
}

int main(void)
{
	TEST(test_every_game);
	return tap_done();
}
