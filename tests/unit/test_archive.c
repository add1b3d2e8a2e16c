/*
 * test_archive.c: the archive codec (protocol/wire/archive*.c). For every
 * registered game: a real match with a resignation event round-trips
 * (encode(decode(x)) == x) and verifies, and the replay reports every action
 * and event at its ply. For Ur: every kind of tampering (the event's seat,
 * ply, kind, removing it; an outcome, a ply, the commit, a client seed) fails
 * with a reason that names the ply; malformed archives fail to decode with a
 * reason and nothing to free (ASan checks that).
 *
 * Then the data-driven cases of tests/golden/archive/<case>/ (argv[1] is
 * tests/golden): archive.json and expected.json {decode: "ok"|"bad_message",
 * verify: "ok"|"mismatch", why: the start of the reason, round_trip: whether
 * encode(decode(archive)) must equal the file}.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "golden.h"
#include "match_fixture.h"
#include "tap.h"

#define RESIGN_AT 40

/* Decodes and verifies `j`; returns the verify result (or -100 - decode error). */
static int verify_json(const json_t *j, char *why, size_t whylen)
{
	struct wire_archive a;
	int err = wire_archive_decode(j, &a, why, whylen);

	if (err)
		return -100 - err;
	err = wire_archive_verify(&a, why, whylen);
	wire_archive_finish(&a);
	return err;
}

struct steps {
	int n, events, last_ply, event_ply, order_ok;
};

static void count_cb(const struct wire_archive_step *s, void *data)
{
	struct steps *st = data;

	if (st->n++ && s->ply < st->last_ply)
		st->order_ok = 0;
	st->last_ply = s->ply;
	if (s->kind) {
		st->events++;
		st->event_ply = s->ply;
		if (s->action || s->outcome)
			st->order_ok = 0;
	} else if (!s->action || !s->outcome) {
		st->order_ok = 0;
	}
}

/* Every registered game: a match with a resignation round-trips and verifies. */
static void test_round_trip_every_game(void)
{
	for (int i = 0; wire_games[i]; i++) {
		const char *id = wire_games[i]->id;
		json_t *j = fixture_archive(id, 7u + (uint32_t)i, RESIGN_AT, 0), *again;
		struct steps st = { .order_ok = 1 };
		struct rules_result res;
		struct wire_archive a;
		char why[512];

		REQUIRE(j);
		REQUIRE(json_array_size(json_object_get(j, "events")) == 1);
		REQUIRE(wire_archive_decode(j, &a, why, sizeof(why)) == WIRE_OK);
		CHECK_EQ(a.nactions, json_array_size(json_object_get(j, "actions")));
		CHECK_EQ(a.nevents, 1);
		CHECK_EQ(a.events[0].kind, RULES_EVENT_RESIGN);
		again = wire_archive_encode(&a);
		CHECK(json_equal(again, j));
		CHECK_EQ(wire_archive_replay(&a, count_cb, &st, &res, why, sizeof(why)), 0);
		if (why[0])
			printf("# %s: %s\n", id, why);
		CHECK_EQ(st.n, (int)a.nactions + 1);
		CHECK_EQ(st.events, 1);
		CHECK_EQ(st.event_ply, RESIGN_AT);
		CHECK(st.order_ok);
		CHECK(res.over);
		json_decref(again);
		wire_archive_finish(&a);
		json_decref(j);
	}
}

/* A match that ended by itself verifies too, with and without `events` (pre-r2). */
static void test_no_events(void)
{
	json_t *j = fixture_archive("ur", 3, -1, 0);
	char why[512];

	REQUIRE(j);
	CHECK(json_is_object(json_object_get(j, "result")));
	CHECK_EQ(verify_json(j, why, sizeof(why)), 0);
	json_object_del(j, "events");
	CHECK_EQ(verify_json(j, why, sizeof(why)), 0);
	json_decref(j);
}

/* Tampers with a copy of the archive; checks the failure names `ply`. */
static void expect_mismatch(const json_t *good, void (*tamper)(json_t *), const char *ply_prefix,
			    const char *what)
{
	json_t *bad = json_deep_copy(good);
	char why[1024] = "";
	int err;

	tamper(bad);
	err = verify_json(bad, why, sizeof(why));
	if (err != WIRE_E_BAD_MESSAGE || strncmp(why, ply_prefix, strlen(ply_prefix)) != 0 ||
	    !strstr(why, what)) {
		printf("# expected \"%s...%s\", got %d \"%s\"\n", ply_prefix, what, err, why);
		tap_failed_ = 1;
	} else {
		printf("# refused as expected: %.200s\n", why);
	}
	json_decref(bad);
}

static json_t *event0(json_t *j)
{
	return json_array_get(json_object_get(j, "events"), 0);
}

static void event_other_seat(json_t *j)
{
	json_object_set_new(event0(j), "seat", json_integer(1));
}

static void event_earlier(json_t *j)
{
	json_object_set_new(event0(j), "ply", json_integer(RESIGN_AT - 1));
}

static void event_later(json_t *j)
{
	json_object_set_new(event0(j), "ply", json_integer(RESIGN_AT + 5));
}

static void event_removed(json_t *j)
{
	json_array_clear(json_object_get(j, "events"));
}

static void event_forfeit(json_t *j)
{
	json_object_set_new(event0(j), "kind", json_string("forfeit"));
}

static void event_twice(json_t *j)
{
	json_array_append(json_object_get(j, "events"), event0(j));
}

static void outcome_flipped(json_t *j)
{
	json_t *rec = json_array_get(json_object_get(j, "actions"), 0); /* ply 0 is Light's roll */
	json_t *dice = json_object_get(json_object_get(rec, "outcome"), "dice");

	json_array_set_new(dice, 0, json_boolean(!json_is_true(json_array_get(dice, 0))));
}

static void action_ply(json_t *j)
{
	json_object_set_new(json_array_get(json_object_get(j, "actions"), 3), "ply", json_integer(4));
}

static void commit_changed(json_t *j)
{
	json_object_set_new(j, "commit",
			    json_string("00000000000000000000000000000000"
					"00000000000000000000000000000000"));
}

static void seed_changed(json_t *j)
{
	json_array_set_new(json_object_get(j, "client_seeds"), 0, json_string("unlucky"));
}

/* The acceptance of issue 5: tampering with the resignation event fails, naming the ply. */
static void test_tampering(void)
{
	json_t *good = fixture_archive("ur", 11, RESIGN_AT, 0);
	char why[512], at[32], later[32];

	REQUIRE(good);
	REQUIRE(json_array_size(json_object_get(good, "actions")) == RESIGN_AT);
	CHECK_EQ(verify_json(good, why, sizeof(why)), 0);
	snprintf(at, sizeof(at), "ply %d:", RESIGN_AT);
	snprintf(later, sizeof(later), "ply %d:", RESIGN_AT - 1);
	expect_mismatch(good, event_other_seat, at, "result");
	expect_mismatch(good, event_earlier, later, "already over");
	expect_mismatch(good, event_later, at, "after the last action");
	expect_mismatch(good, event_removed, at, "result");
	expect_mismatch(good, event_forfeit, at, "result");
	expect_mismatch(good, event_twice, at, "already over");
	expect_mismatch(good, outcome_flipped, "ply 0:", "outcome");
	expect_mismatch(good, action_ply, "ply 3:", "records ply 4");
	expect_mismatch(good, commit_changed, "ply 0:", "commit");
	expect_mismatch(good, seed_changed, "ply ", "");
	json_decref(good);
}

/* Malformed archives: WIRE_E_BAD_MESSAGE with a reason; nothing left allocated. */
static void test_decode_errors(void)
{
	static const struct {
		const char *key;
		const char *json; /* the value `key` is set to; NULL: removed */
		const char *why;
	} cases[] = {
		{ "game", "\"chess\"", "game" },
		{ "game", NULL, "game" },
		{ "id", "\"\"", "id" },
		{ "options", "{\"max_turns\":50}", "max_turns" },
		{ "options", "{\"autoroll\":1}", "autoroll" },
		{ "started_at", "-1", "started_at" },
		{ "seats", "[]", "seats" },
		{ "commit", "\"xyz\"", "commit" },
		{ "client_seeds", "[\"a\"]", "client_seeds" },
		{ "actions", "{}", "actions" },
		{ "actions", "[{\"ply\":0,\"seat\":2,\"action\":{},\"outcome\":{},\"at\":1}]", "actions[0]" },
		{ "events", "{}", "events" },
		{ "events", "[{\"ply\":0,\"seat\":0,\"kind\":\"quit\",\"at\":1}]", "events[0]" },
		{ "events", "[{\"ply\":-1,\"seat\":0,\"kind\":\"resign\",\"at\":1}]", "events[0]" },
		{ "events", "[{\"ply\":0,\"seat\":6,\"kind\":\"resign\",\"at\":1}]", "events[0]" },
		{ "result", "3", "result" },
	};
	json_t *good = fixture_archive("ur", 5, 10, 1);
	struct wire_archive a;
	char why[512];

	REQUIRE(good);
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		json_t *bad = json_deep_copy(good);

		if (cases[i].json)
			json_object_set_new(bad, cases[i].key,
					    json_loads(cases[i].json, JSON_DECODE_ANY, NULL));
		else
			json_object_del(bad, cases[i].key);
		why[0] = '\0';
		CHECK_EQ(wire_archive_decode(bad, &a, why, sizeof(why)), WIRE_E_BAD_MESSAGE);
		CHECK(a.actions == NULL && a.events == NULL);
		if (!strstr(why, cases[i].why))
			printf("# case %zu (%s): why \"%s\"\n", i, cases[i].key, why);
		CHECK(strstr(why, cases[i].why) != NULL);
		json_decref(bad);
	}
	CHECK_EQ(wire_archive_decode(json_array_get(good, 0), &a, why, sizeof(why)), WIRE_E_BAD_MESSAGE);
	wire_archive_finish(NULL);
	json_decref(good);
}

/* Encode refuses what could not be read back. */
static void test_encode_unknown_kind(void)
{
	json_t *good = fixture_archive("ur", 5, 10, 1), *j;
	struct wire_archive a;
	char why[256];

	REQUIRE(good);
	REQUIRE(wire_archive_decode(good, &a, why, sizeof(why)) == 0);
	a.events[0].kind = 9;
	j = wire_archive_encode(&a);
	CHECK(j == NULL);
	json_decref(j);
	wire_archive_finish(&a);
	json_decref(good);
	CHECK(wire_event_kind_name(0) == NULL && wire_event_kind_name(3) == NULL);
	CHECK(strcmp(wire_event_kind_name(RULES_EVENT_FORFEIT), "forfeit") == 0);
	CHECK_EQ(wire_event_kind_parse("resign"), RULES_EVENT_RESIGN);
	CHECK_EQ(wire_event_kind_parse("Resign"), 0);
	CHECK_EQ(wire_event_kind_parse(NULL), 0);
}

/* Checks the reason against the expected start of it. */
static void why_check(const json_t *want, const char *why)
{
	const char *w = json_string_value(json_object_get(want, "why"));

	if (w && strncmp(why, w, strlen(w)) != 0) {
		printf("# why: expected \"%s...\", got \"%s\"\n", w, why);
		tap_failed_ = 1;
	}
}

static void golden_verify(const json_t *j, const struct wire_archive *a, const json_t *want)
{
	const char *verify = json_string_value(json_object_get(want, "verify"));
	char why[1024] = "";
	json_t *again;
	int err;

	err = wire_archive_verify(a, why, sizeof(why));
	if (strcmp(verify ? verify : "", err ? "mismatch" : "ok") != 0) {
		printf("# verify: expected %s, got %d \"%s\"\n", verify ? verify : "?", err, why);
		tap_failed_ = 1;
	}
	why_check(want, why);
	again = wire_archive_encode(a);
	if (json_is_true(json_object_get(want, "round_trip")) && !json_equal(again, j)) {
		printf("# encode(decode(archive)) differs from archive.json\n");
		tap_failed_ = 1;
	}
	CHECK(again != NULL);
	json_decref(again);
}

static void golden_case(const char *path, const char *name)
{
	json_t *j = golden_load(path, "archive.json"), *want = golden_load(path, "expected.json");
	const char *decode = json_string_value(json_object_get(want, "decode"));
	struct wire_archive a;
	char why[1024] = "";
	int err;

	tap_failed_ = 0;
	if (!j || !decode) {
		tap_failed_ = 1;
	} else {
		err = wire_archive_decode(j, &a, why, sizeof(why));
		if (strcmp(decode, err ? wire_error_code(err) : "ok") != 0) {
			printf("# decode: expected %s, got %d \"%s\"\n", decode, err, why);
			tap_failed_ = 1;
		} else if (err) {
			why_check(want, why);
		} else {
			golden_verify(j, &a, want);
		}
		if (!err)
			wire_archive_finish(&a);
	}
	tap_count_++;
	if (tap_failed_)
		tap_failed_total_++;
	printf("%sok %d - archive/%s\n", tap_failed_ ? "not " : "", tap_count_, name);
	json_decref(j);
	json_decref(want);
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? golden_each(argv[1], "archive", golden_case) : 0;

	if (n < 10) {
		printf("not ok %d - golden archive cases found (%d)\n", ++tap_count_, n);
		tap_failed_total_++;
	}
	TEST(test_round_trip_every_game);
	TEST(test_no_events);
	TEST(test_tampering);
	TEST(test_decode_errors);
	TEST(test_encode_unknown_kind);
	return tap_done();
}
