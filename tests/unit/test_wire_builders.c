/*
 * test_wire_builders.c: data-driven cases of revision 2 (argv[1] is
 * tests/golden).
 *
 * options/<case>/: input.json {game, options?}; expected.json is either
 * {error, why} (the decode must fail with exactly that code and reason and
 * leave its outputs untouched) or {options, state_options}: what the decoded
 * options encode to without defaults (the summary, the archive) and with them
 * (`state.options`). The options must also pass wire_options_check_new()
 * (a new room's limits: stand-in minimum 5000 ms, the server's idle limit
 * `idle_max_ms` of input.json, else 300000) unless input.json says
 * `"stored": true` (a journalled or archived room). Each case runs against
 * the game's registered codec and nothing else: a case of a game that is not
 * registered fails, so dropping a game's registration cannot pass unseen.
 *
 * server/<case>/: input.json {builder, ...arguments}; expected.json is the
 * exact message the wire builder must produce (tests/unit/schema_golden.mjs
 * validates the same files against protocol/schema).
 *
 * actions/<case>/: input.json {game, action}; expected.json {decode, schema}:
 * `decode` is "ok" (the action decodes and encodes back to the same JSON) or
 * the error code the game's codec must give; `schema` is whether the game's
 * action.json accepts it (schema_golden.test.mjs checks that half).
 */
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "golden.h"
#include "tap.h"
#include "wire.h"

static void tap_line(const char *kind, const char *name, const char *note)
{
	tap_count_++;
	if (tap_failed_)
		tap_failed_total_++;
	printf("%sok %d - %s/%s%s\n", tap_failed_ ? "not " : "", tap_count_, kind, name, note);
}

/* Decodes as the server does for `create` (or, stored, for a journalled or archived room). */
static int options_decode(const struct wire_game *g, const json_t *in, struct wire_room_options *ro,
			  struct rules_options *o, char *why, size_t whylen)
{
	const json_t *max = json_object_get(in, "idle_max_ms");
	struct wire_room_options r = *ro;
	struct rules_options rules = *o;
	int err = wire_options_decode(g, json_object_get(in, "options"), &r, &rules, why, whylen);

	if (!err && !json_is_true(json_object_get(in, "stored")))
		err = wire_options_check_new(&r, WIRE_STAND_IN_AFTER_MIN_MS,
					     max ? (int32_t)json_integer_value(max) : 300000, why, whylen);
	if (!err) {
		*ro = r;
		*o = rules;
	}
	return err;
}

/* A failing case: the code and reason exactly, the outputs untouched. */
static void options_refused(const struct wire_game *g, const json_t *in, const json_t *want)
{
	struct wire_room_options ro = { .autoroll = true };
	struct rules_options o = { .max_turns = 77 };
	char why[256] = "";
	int err = options_decode(g, in, &ro, &o, why, sizeof(why));
	json_t *got = json_pack("{s:s?, s:s}", "error", wire_error_code(err), "why", why);
	json_t *core = json_pack("{s:O?, s:O?}", "error", json_object_get(want, "error"), "why",
				 json_object_get(want, "why")); /* other keys are notes for the schema test */

	if (!json_equal(got, core)) {
		golden_diff(core, got);
		tap_failed_ = 1;
	}
	CHECK(ro.autoroll && o.max_turns == 77);
	json_decref(got);
	json_decref(core);
}

static void options_accepted(const struct wire_game *g, const json_t *in, const json_t *want)
{
	struct wire_room_options ro;
	struct rules_options o;
	char why[256] = "";
	json_t *got;

	if (options_decode(g, in, &ro, &o, why, sizeof(why)) != WIRE_OK) {
		printf("# refused: %s\n", why);
		tap_failed_ = 1;
		return;
	}
	got = json_pack("{s:o, s:o}", "options", wire_options_encode(g, &ro, &o, false), "state_options",
			wire_options_encode(g, &ro, &o, true));
	if (!json_equal(got, want)) {
		golden_diff(want, got);
		tap_failed_ = 1;
	}
	json_decref(got);
}

static void options_case(const char *path, const char *name)
{
	json_t *in = golden_load(path, "input.json"), *want = golden_load(path, "expected.json");
	const struct wire_game *g = wire_game_find(json_string_value(json_object_get(in, "game")));

	tap_failed_ = 0;
	if (!in || !want || !g) {
		printf("# case needs input.json {game, options?} of a registered game and expected.json\n");
		tap_failed_ = 1;
	} else if (json_object_get(want, "error")) {
		options_refused(g, in, want);
	} else {
		options_accepted(g, in, want);
	}
	tap_line("options", name, "");
	json_decref(in);
	json_decref(want);
}

/* (r3) welcome.mutes from [{room, seats:[...], spectators}]; 0, or -1 past 16 entries or on failure. */
static int add_mutes(json_t *welcome, const json_t *mutes)
{
	struct wire_mutes m[16];
	const json_t *x;
	size_t i, k;

	json_array_foreach(mutes, i, x)
	{
		if (i >= 16)
			return -1;
		m[i] = (struct wire_mutes){ json_string_value(json_object_get(x, "room")), 0,
					    json_is_true(json_object_get(x, "spectators")) };
		for (k = 0; k < json_array_size(json_object_get(x, "seats")); k++)
			m[i].seats_mask |=
				1u << json_integer_value(json_array_get(json_object_get(x, "seats"), k));
	}
	return wire_welcome_add_mutes(welcome, m, json_array_size(mutes)) ? -1 : 0;
}

/* welcome: {player, name, token, seats:[{room, seat, role}], mutes:[{room, seats, spectators}], id?}. */
static json_t *build_welcome(const json_t *in)
{
	struct wire_seat_ref refs[16];
	const json_t *seats = json_object_get(in, "seats"), *s;
	json_t *w;
	size_t i;

	json_array_foreach(seats, i, s)
	{
		if (i >= 16)
			return NULL;
		refs[i] = (struct wire_seat_ref){ json_string_value(json_object_get(s, "room")),
						  (int)json_integer_value(json_object_get(s, "seat")),
						  json_string_value(json_object_get(s, "role")) };
	}
	w = wire_welcome_new(json_string_value(json_object_get(in, "player")),
			     json_string_value(json_object_get(in, "name")),
			     json_string_value(json_object_get(in, "token")), refs, json_array_size(seats),
			     json_object_get(in, "id"));
	if (w && add_mutes(w, json_object_get(in, "mutes"))) {
		json_decref(w);
		return NULL;
	}
	return w;
}

/* state: a waiting or playing room of `game` (zero seed) with `options` and seat 0 "Ana". */
static json_t *build_state(const json_t *in)
{
	static const uint8_t seed[RULES_SEED_SIZE];
	struct wire_room_options ro;
	struct rules_options o;
	struct rules_match m;
	struct wire_room r;

	memset(&r, 0, sizeof(r));
	r.game = rules_game_find(json_string_value(json_object_get(in, "game")));
	r.codec = wire_game_find(json_string_value(json_object_get(in, "game")));
	if (!r.game || !r.codec ||
	    wire_options_decode(r.codec, json_object_get(in, "options"), &ro, &o, NULL, 0) ||
	    rules_match_start(&m, r.game, seed, &o))
		return NULL;
	r.id = "r1";
	r.status = json_string_value(json_object_get(in, "status"));
	r.match = &m;
	r.seats[0].name = "Ana";
	r.seats[0].connected = true;
	r.room_options = &ro;
	r.rules_options = &o;
	r.commit = "00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff";
	r.created_at = 1700000000000LL;
	if (json_is_true(json_object_get(in, "summary")))
		return wire_created_new(wire_room_summary_new(&r), json_object_get(in, "id"));
	return wire_state_new(&r);
}

/* The enum wire_error of a wire code; 0 if none. */
static int error_of(const char *code)
{
	for (int e = WIRE_E_BAD_JSON; code && e > WIRE_E_END_; e--)
		if (strcmp(wire_error_code(e), code) == 0)
			return e;
	return 0;
}

static json_t *build(const json_t *in)
{
	const char *b = json_string_value(json_object_get(in, "builder"));
	const json_t *id = json_object_get(in, "id");

	if (!b)
		return NULL;
	if (strcmp(b, "welcome") == 0)
		return build_welcome(in);
	if (strcmp(b, "resigned") == 0)
		return wire_resigned_new(json_string_value(json_object_get(in, "room")),
					 (int)json_integer_value(json_object_get(in, "seat")), id);
	if (strcmp(b, "state") == 0)
		return build_state(in);
	if (strcmp(b, "muted") == 0) {
		const json_t *seats = json_object_get(in, "seats"), *v;
		unsigned mask = 0;
		size_t i;

		json_array_foreach(seats, i, v) mask |= 1u << json_integer_value(v);
		return wire_muted_new(json_string_value(json_object_get(in, "room")), mask,
				      json_is_true(json_object_get(in, "spectators")), id);
	}
	if (strcmp(b, "rematch") == 0)
		return wire_rematch_new(json_string_value(json_object_get(in, "room")),
					json_string_value(json_object_get(in, "new_room")),
					(int)json_integer_value(json_object_get(in, "seat")),
					json_string_value(json_object_get(in, "role")));
	if (strcmp(b, "error") == 0)
		return wire_error_new(error_of(json_string_value(json_object_get(in, "code"))),
				      json_string_value(json_object_get(in, "message")), id);
	return NULL;
}

static void server_case(const char *path, const char *name)
{
	json_t *in = golden_load(path, "input.json"), *want = golden_load(path, "expected.json");
	json_t *got = in ? build(in) : NULL;

	tap_failed_ = 0;
	if (!want || !got || !json_equal(got, want)) {
		golden_diff(want, got);
		tap_failed_ = 1;
	}
	tap_line("server", name, "");
	json_decref(got);
	json_decref(in);
	json_decref(want);
}

static void action_case(const char *path, const char *name)
{
	json_t *in = golden_load(path, "input.json"), *want = golden_load(path, "expected.json");
	const struct wire_game *g = wire_game_find(json_string_value(json_object_get(in, "game")));
	const char *decode = json_string_value(json_object_get(want, "decode"));
	json_t *action = json_object_get(in, "action"), *back = NULL;
	struct rules_action a;
	int err = -1;

	tap_failed_ = 0;
	if (g && decode)
		err = g->action_decode(action, &a);
	if (!g || !decode ||
	    (strcmp(decode, "ok") == 0
		     ? err != WIRE_OK
		     : strcmp(wire_error_code(err) ? wire_error_code(err) : "", decode) != 0)) {
		printf("# decode: expected %s, got %s\n", decode ? decode : "?",
		       err == WIRE_OK ? "ok" : wire_error_code(err));
		tap_failed_ = 1;
	} else if (err == WIRE_OK && (!(back = g->action_encode(&a)) || !json_equal(back, action))) {
		golden_diff(action, back);
		tap_failed_ = 1;
	}
	tap_line("actions", name, "");
	json_decref(back);
	json_decref(in);
	json_decref(want);
}

/* Both registries name the same games: a game is one line in each, never only one. */
static void test_registries_agree(void)
{
	int n = 0;

	for (int i = 0; rules_games[i]; i++, n++) {
		const struct wire_game *c = wire_game_find(rules_games[i]->id);

		CHECK(c != NULL);
		CHECK(c && c->options && c->view && c->action_encode && c->action_decode &&
		      c->outcome_encode && c->result_encode);
		CHECK(rules_games[i]->event != NULL && rules_games[i]->legal != NULL);
	}
	for (int i = 0; wire_games[i]; i++, n--)
		CHECK(rules_game_find(wire_games[i]->id) != NULL);
	CHECK_EQ(n, 0);
}

int main(int argc, char **argv)
{
	const char *dir = argc > 1 ? argv[1] : "tests/golden";
	int nopt = golden_each(dir, "options", options_case);
	int nsrv = golden_each(dir, "server", server_case);

	golden_each(dir, "actions", action_case);

	if (nopt < 10 || nsrv < 4) {
		printf("not ok %d - golden cases found in %s (%d options, %d server)\n", ++tap_count_, dir,
		       nopt, nsrv);
		tap_failed_total_++;
	}
	TEST(test_registries_agree);
	return tap_done();
}
