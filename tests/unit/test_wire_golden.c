/*
 * test_wire_golden.c: the wire codec against tests/golden/, then unit tests
 * of the server-message builders.
 *
 * argv[1] is the golden directory. Every folder under valid/ and invalid/ is
 * one case: input.json holds the exact frame bytes, expected.json the decoded
 * message as JSON (valid) or {error, id[, why]} (invalid). Each case is one
 * TAP line named "valid/<case>"; cases run in name order. Adding a case needs
 * no code.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tap.h"
#include "wire.h"

#define CASES_MAX 512

/* Reads a whole file; *len gets its size. Caller frees. NULL if unreadable. */
static char *file_read(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL;
	long n;

	if (!f)
		return NULL;
	if (fseek(f, 0, SEEK_END) == 0 && (n = ftell(f)) >= 0 && fseek(f, 0, SEEK_SET) == 0) {
		buf = malloc((size_t)n + 1);
		if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) {
			free(buf);
			buf = NULL;
		}
		if (buf) {
			buf[n] = '\0';
			*len = (size_t)n;
		}
	}
	fclose(f);
	return buf;
}

static const char *const type_names[] = {
	NULL,      "hello", "rooms",  "create", "join", "watch",   "leave",
	"add_bot", "act",   "resign", "chat",   "mute", "rematch",
};

static void set_str(json_t *o, const char *key, const char *v)
{
	if (v)
		json_object_set_new(o, key, json_string(v));
}

/* The decoded message as JSON: type and every field that is set. */
static json_t *msg_to_json(const struct wire_msg *m)
{
	json_t *o = json_object();

	json_object_set_new(o, "type", json_string(type_names[m->type]));
	if (m->id)
		json_object_set(o, "id", m->id);
	set_str(o, "name", m->name);
	set_str(o, "token", m->token);
	set_str(o, "game", m->game);
	if (m->options)
		json_object_set(o, "options", m->options);
	set_str(o, "room", m->room);
	if (m->has_seat)
		json_object_set_new(o, "seat", json_integer(m->seat));
	set_str(o, "client_seed", m->client_seed);
	set_str(o, "level", m->level);
	if (m->type == WIRE_ACT)
		json_object_set_new(o, "ply", json_integer(m->ply));
	if (m->action)
		json_object_set(o, "action", m->action);
	set_str(o, "text", m->text);
	if (m->since_map)
		json_object_set(o, "since", m->since_map);
	if (m->has_since)
		json_object_set_new(o, "since", json_integer(m->since));
	if (m->spectators)
		json_object_set_new(o, "spectators", json_boolean(m->spectators == 2));
	if (m->muted)
		json_object_set_new(o, "muted", json_boolean(m->muted == 2));
	if (m->accept)
		json_object_set_new(o, "accept", json_boolean(m->accept == 2));
	return o;
}

static void dump_diff(const json_t *want, const json_t *got)
{
	char *w = json_dumps(want, JSON_COMPACT | JSON_SORT_KEYS);
	char *g = json_dumps(got, JSON_COMPACT | JSON_SORT_KEYS);

	printf("# expected %.400s\n#      got %.400s\n", w ? w : "?", g ? g : "?");
	free(w);
	free(g);
}

/* Checks a decode result against expected.json; sets tap_failed_. */
static void golden_check(bool valid, int err, const struct wire_msg *m, const char *why, const json_t *want)
{
	json_t *got;
	const char *want_why;

	if (valid) {
		if (err != WIRE_OK) {
			printf("# decode failed: %s: %s\n", wire_error_code(err), why);
			tap_failed_ = 1;
			return;
		}
		got = msg_to_json(m);
	} else {
		got = json_pack("{s:s?, s:O?}", "error", wire_error_code(err), "id", m->id);
		want_why = json_string_value(json_object_get(want, "why"));
		if (want_why && strcmp(want_why, why) != 0) {
			printf("# why: expected \"%s\", got \"%s\"\n", want_why, why);
			tap_failed_ = 1;
		}
		if (want_why)
			json_object_set_new(got, "why", json_string(why));
	}
	if (!json_equal(want, got)) {
		dump_diff(want, got);
		tap_failed_ = 1;
	}
	json_decref(got);
}

static void golden_case(const char *dir, const char *kind, const char *name)
{
	char path[1024], why[256];
	struct wire_msg m;
	json_error_t jerr;
	json_t *want;
	size_t len = 0;
	char *input;
	int err;

	tap_failed_ = 0;
	snprintf(path, sizeof(path), "%s/%s/%s/input.json", dir, kind, name);
	input = file_read(path, &len);
	snprintf(path, sizeof(path), "%s/%s/%s/expected.json", dir, kind, name);
	want = json_load_file(path, 0, &jerr);
	if (!input || !want) {
		printf("# cannot read case %s/%s\n", kind, name);
		tap_failed_ = 1;
	} else {
		err = wire_msg_decode(input, len, &m, why, sizeof(why));
		golden_check(strcmp(kind, "valid") == 0, err, &m, why, want);
		wire_msg_finish(&m);
	}
	free(input);
	json_decref(want);
	tap_count_++;
	if (tap_failed_)
		tap_failed_total_++;
	printf("%sok %d - %s/%s\n", tap_failed_ ? "not " : "", tap_count_, kind, name);
}

static int name_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Runs every case under dir/kind; returns how many. */
static int golden_run(const char *dir, const char *kind)
{
	char path[1024], *names[CASES_MAX];
	struct dirent *e;
	int n = 0, i;
	DIR *d;

	snprintf(path, sizeof(path), "%s/%s", dir, kind);
	d = opendir(path);
	if (!d)
		return 0;
	while ((e = readdir(d)) && n < CASES_MAX) {
		if (e->d_name[0] != '.')
			names[n++] = strdup(e->d_name);
	}
	closedir(d);
	qsort(names, (size_t)n, sizeof(names[0]), name_cmp);
	for (i = 0; i < n; i++) {
		golden_case(dir, kind, names[i]);
		free(names[i]);
	}
	return n;
}

/* --- Unit tests of the builders, with the Ur game. */

static const json_t *obj_get(const json_t *o, const char *key)
{
	return json_object_get(o, key);
}

static void test_error_codes(void)
{
	CHECK(wire_error_code(WIRE_OK) == NULL);
	CHECK(wire_error_code(WIRE_E_END_) == NULL);
	CHECK(wire_error_code(-1) == NULL);
	CHECK(strcmp(wire_error_code(WIRE_E_BAD_JSON), "bad_json") == 0);
	CHECK(strcmp(wire_error_code(WIRE_E_STALE_PLY), "stale_ply") == 0);
	CHECK(strcmp(wire_error_code(WIRE_E_INTERNAL), "internal") == 0);
	for (int e = WIRE_E_BAD_JSON; e > WIRE_E_END_; e--)
		CHECK(wire_error_code(e) != NULL);
}

static void test_error_echoes_id(void)
{
	json_t *id = json_string("req-7"), *e = wire_error_new(WIRE_E_STALE_PLY, "ply is 4", id);
	json_t *want = json_pack("{s:s, s:s, s:s, s:s}", "type", "error", "code", "stale_ply", "message",
				 "ply is 4", "id", "req-7");

	REQUIRE(e);
	CHECK(json_equal(e, want));
	CHECK(obj_get(e, "id") != id); /* a copy, not the request's value */
	json_decref(e);
	json_decref(want);
	json_decref(id);
}

static void test_error_without_id(void)
{
	json_t *e = wire_error_new(WIRE_E_BAD_JSON, NULL, NULL);

	REQUIRE(e);
	CHECK(obj_get(e, "id") == NULL);
	CHECK(strcmp(json_string_value(obj_get(e, "message")), "bad_json") == 0);
	json_decref(e);
	e = wire_error_new(999, "x", NULL);
	REQUIRE(e);
	CHECK(strcmp(json_string_value(obj_get(e, "code")), "internal") == 0);
	json_decref(e);
}

static void test_error_integer_id(void)
{
	json_t *id = json_integer(42), *e = wire_error_new(WIRE_E_BAD_MESSAGE, "m", id);

	REQUIRE(e);
	CHECK(json_integer_value(obj_get(e, "id")) == 42);
	json_decref(e);
	json_decref(id);
}

static void test_replies(void)
{
	const struct wire_seat_ref seats[] = { { "r1", 1, "dark" }, { "r2", 0, "light" } };
	json_t *id = json_integer(1), *got, *want;

	got = wire_welcome_new("p1", "Ana", "tok", seats, 2, id);
	want = json_pack("{s:s, s:s, s:s, s:s, s:[ss], s:[{s:s, s:i, s:s}, {s:s, s:i, s:s}], s:i}", "type",
			 "welcome", "player", "p1", "name", "Ana", "token", "tok", "rooms", "r1", "r2",
			 "seats", "room", "r1", "seat", 1, "role", "dark", "room", "r2", "seat", 0, "role",
			 "light", "id", 1);
	CHECK(json_equal(got, want));
	json_decref(got);
	json_decref(want);
	got = wire_welcome_new("p1", "Ana", "tok", NULL, 0, NULL);
	want = json_pack("{s:s, s:s, s:s, s:s, s:[], s:[]}", "type", "welcome", "player", "p1", "name", "Ana",
			 "token", "tok", "rooms", "seats");
	CHECK(json_equal(got, want));
	json_decref(got);
	json_decref(want);
	got = wire_resigned_new("r1", 1, id);
	want = json_pack("{s:s, s:s, s:i, s:i}", "type", "resigned", "room", "r1", "seat", 1, "id", 1);
	CHECK(json_equal(got, want));
	json_decref(got);
	json_decref(want);
	got = wire_resigned_new("r1", 0, NULL);
	CHECK(got && !obj_get(got, "id") && json_integer_value(obj_get(got, "seat")) == 0);
	json_decref(got);
	got = wire_joined_new("r1", 1, "dark", NULL);
	want = json_pack("{s:s, s:s, s:i, s:s}", "type", "joined", "room", "r1", "seat", 1, "role", "dark");
	CHECK(json_equal(got, want));
	json_decref(got);
	json_decref(want);
	got = wire_bot_added_new("r1", 0, "strong", id);
	want = json_pack("{s:s, s:s, s:i, s:s, s:i}", "type", "bot_added", "room", "r1", "seat", 0, "level",
			 "strong", "id", 1);
	CHECK(json_equal(got, want));
	json_decref(got);
	json_decref(want);
	got = wire_rooms_new(json_array(), NULL);
	want = json_pack("{s:s, s:[]}", "type", "rooms", "rooms");
	CHECK(json_equal(got, want));
	json_decref(got);
	json_decref(want);
	json_decref(id);
}

static void test_simple_room_replies(void)
{
	json_t *w = wire_watching_new("r1", NULL), *l = wire_left_new("r1", NULL);
	json_t *c = wire_created_new(json_pack("{s:s}", "id", "r1"), NULL);

	REQUIRE(w && l && c);
	CHECK(strcmp(json_string_value(obj_get(w, "type")), "watching") == 0);
	CHECK(strcmp(json_string_value(obj_get(l, "type")), "left") == 0);
	CHECK(strcmp(json_string_value(obj_get(obj_get(c, "room"), "id")), "r1") == 0);
	CHECK(wire_created_new(NULL, NULL) == NULL);
	json_decref(w);
	json_decref(l);
	json_decref(c);
}

static void test_chat(void)
{
	json_t *c = wire_chat_new("r1", -1, "Ana", "hi", 1700000000000LL);
	json_t *want = json_pack("{s:s, s:s, s:n, s:s, s:s, s:I}", "type", "chat", "room", "r1", "seat",
				 "name", "Ana", "text", "hi", "at", (json_int_t)1700000000000LL);

	CHECK(json_equal(c, want));
	json_decref(c);
	json_decref(want);
	c = wire_chat_new("r1", 1, "Bo", "gg", 5);
	CHECK(json_integer_value(obj_get(c, "seat")) == 1);
	json_decref(c);
}

static void test_text_valid(void)
{
	CHECK(wire_text_valid("a", 1));
	CHECK(!wire_text_valid("ab", 1));
	CHECK(!wire_text_valid("", 5));
	CHECK(!wire_text_valid(NULL, 5));
	CHECK(wire_text_valid("\xc3\xb1\xc3\xb1", 2));  /* two characters, four bytes */
	CHECK(wire_text_valid("\xf0\x9f\x8e\xb2", 1));  /* U+1F3B2 */
	CHECK(!wire_text_valid("\xc0\xaf", 5));         /* overlong */
	CHECK(!wire_text_valid("\xed\xa0\x80", 5));     /* surrogate */
	CHECK(!wire_text_valid("\xf4\x90\x80\x80", 5)); /* > U+10FFFF */
	CHECK(!wire_text_valid("\xe2\x82", 5));         /* truncated */
	CHECK(!wire_text_valid("a\x7f", 5));
	CHECK(!wire_text_valid("a\xc2\x85", 5)); /* U+0085 (C1) */
	CHECK(wire_text_valid("a\xc2\xa0", 5));  /* U+00A0 is printable */
	CHECK(!wire_text_valid("a\tb", 5));
}

static void test_options(void)
{
	const struct wire_game *g = wire_game_find("ur");
	struct wire_room_options ro = { .autoroll = true };
	struct rules_options o = { .max_turns = 9 };
	char why[128];
	json_t *opt, *enc;

	REQUIRE(g);
	CHECK(wire_game_find("chess") == NULL);
	CHECK(wire_game_find(NULL) == NULL);
	CHECK(wire_options_decode(g, NULL, &ro, &o, why, sizeof(why)) == 0);
	CHECK(!ro.autoroll && o.max_turns == 0);
	opt = json_pack("{s:b}", "autoroll", 1);
	CHECK(wire_options_decode(g, opt, &ro, &o, why, sizeof(why)) == 0);
	CHECK(ro.autoroll);
	enc = wire_options_encode(g, &ro, &o, false);
	CHECK(json_equal(enc, opt));
	json_decref(enc);
	enc = wire_options_encode(g, &ro, &o, true);
	CHECK(json_is_true(obj_get(enc, "autoroll")) && json_object_size(enc) == 5); /* + every game's four */
	json_decref(enc);
	json_decref(opt);
	opt = json_pack("{s:i}", "autoroll", 1);
	CHECK(wire_options_decode(g, opt, &ro, &o, why, sizeof(why)) == WIRE_E_BAD_OPTIONS);
	CHECK(ro.autoroll); /* untouched on failure */
	json_decref(opt);
	opt = json_pack("{s:b, s:i}", "autoroll", 0, "speed", 3);
	CHECK(wire_options_decode(g, opt, &ro, &o, why, sizeof(why)) == WIRE_E_BAD_OPTIONS);
	CHECK(strstr(why, "speed") != NULL);
	json_decref(opt);
	opt = json_array();
	CHECK(wire_options_decode(g, opt, &ro, &o, why, sizeof(why)) == WIRE_E_BAD_OPTIONS);
	json_decref(opt);
	enc = wire_options_encode(g, NULL, NULL, false);
	CHECK(json_is_object(enc) && json_object_size(enc) == 0);
	json_decref(enc);
	enc = wire_options_encode(g, NULL, NULL, true);
	CHECK(json_is_false(obj_get(enc, "autoroll")) && json_object_size(enc) == 5);
	CHECK(json_is_null(obj_get(enc, "clock")) && json_is_null(obj_get(enc, "stand_in_level")));
	CHECK(json_is_null(obj_get(enc, "idle_after_ms"))); /* the server's limit: the room fills it in */
	CHECK(json_integer_value(obj_get(enc, "stand_in_after_ms")) == WIRE_STAND_IN_AFTER_DEFAULT_MS);
	json_decref(enc);
	/* Quinteto's key is not Ur's: refused, outputs untouched. */
	opt = json_pack("{s:i}", "max_turns", 50);
	o.max_turns = 7;
	CHECK(wire_options_decode(g, opt, &ro, &o, why, sizeof(why)) == WIRE_E_BAD_OPTIONS);
	CHECK(o.max_turns == 7);
	CHECK(strstr(why, "max_turns") != NULL);
	json_decref(opt);
}

/* A waiting Ur room from a fixed seed, seat 0 taken by "Ana". */
static void room_setup(struct wire_room *r, struct rules_match *m, struct wire_room_options *ro)
{
	uint8_t seed[RULES_SEED_SIZE] = { 1, 2, 3 };

	memset(r, 0, sizeof(*r));
	memset(ro, 0, sizeof(*ro));
	r->game = rules_game_find("ur");
	r->codec = wire_game_find("ur");
	if (!r->game || rules_match_start(m, r->game, seed, NULL) != 0)
		r->game = NULL;
	r->id = "r1";
	r->status = "waiting";
	r->match = m;
	r->seats[0].name = "Ana";
	r->seats[0].connected = true;
	r->room_options = ro;
	r->commit = "00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff";
	r->created_at = 1700000000000LL;
}

static void test_state_waiting(void)
{
	struct wire_room_options ro;
	struct rules_match m;
	struct wire_room r;
	const json_t *seats;
	json_t *s;

	room_setup(&r, &m, &ro);
	REQUIRE(r.game && r.codec);
	s = wire_state_new(&r);
	REQUIRE(s);
	CHECK(strcmp(json_string_value(obj_get(s, "type")), "state") == 0);
	CHECK(strcmp(json_string_value(obj_get(s, "game")), "ur") == 0);
	CHECK(json_integer_value(obj_get(s, "ply")) == 0);
	seats = obj_get(s, "seats");
	CHECK(json_array_size(seats) == 2);
	CHECK(strcmp(json_string_value(obj_get(json_array_get(seats, 0), "role")), "light") == 0);
	CHECK(json_is_null(obj_get(json_array_get(seats, 1), "name")));
	CHECK(json_is_true(obj_get(json_array_get(seats, 0), "connected")));
	CHECK(json_array_size(obj_get(s, "to_act")) == 0); /* waiting: nobody acts */
	CHECK(json_array_size(obj_get(s, "legal")) == 0);
	CHECK(json_is_null(obj_get(s, "last")));
	CHECK(json_is_null(obj_get(s, "result")));
	CHECK(json_is_object(obj_get(s, "view")));
	CHECK(obj_get(s, "server_seed") == NULL);
	CHECK(obj_get(s, "client_seeds") == NULL);
	CHECK(json_is_false(obj_get(obj_get(s, "options"), "autoroll"))); /* defaults filled in */
	CHECK(json_integer_value(obj_get(s, "spectators")) == 0);
	CHECK(json_is_null(obj_get(s, "rematch")));
	CHECK(json_object_size(s) == 15);
	json_decref(s);
}

static void test_state_playing_and_legal(void)
{
	struct rules_action legal[RULES_MAX_LEGAL];
	struct wire_room_options ro;
	union rules_outcome out;
	struct rules_match m;
	struct wire_room r;
	json_t *s, *l, *want;
	int n;

	room_setup(&r, &m, &ro);
	REQUIRE(r.game && r.codec);
	r.status = "playing";
	n = rules_legal_actions(&m, 0, legal, RULES_MAX_LEGAL);
	REQUIRE(n == 1);
	l = wire_legal_new(r.codec, legal, n);
	want = json_pack("[{s:b}]", "roll", 1);
	CHECK(json_equal(l, want));
	json_decref(l);
	json_decref(want);
	REQUIRE(rules_apply(&m, 0, &legal[0], &out) == 0);
	r.has_last = true;
	r.last_seat = 0;
	r.last_action = legal[0];
	r.last_outcome = out;
	s = wire_state_new(&r);
	REQUIRE(s);
	CHECK(json_integer_value(obj_get(s, "ply")) == 1);
	CHECK(json_array_size(obj_get(s, "to_act")) == 1);
	CHECK(json_integer_value(obj_get(obj_get(s, "last"), "seat")) == 0);
	CHECK(json_is_object(obj_get(obj_get(s, "last"), "outcome")));
	CHECK(json_is_true(obj_get(obj_get(obj_get(s, "last"), "action"), "roll")));
	json_decref(s);
}

static void test_state_finished_reveals(void)
{
	struct wire_room_options ro;
	struct rules_match m;
	struct wire_room r;
	const json_t *cs;
	json_t *s;

	room_setup(&r, &m, &ro);
	REQUIRE(r.game && r.codec);
	REQUIRE(rules_event(&m, 1, RULES_EVENT_RESIGN, NULL) == 0);
	r.status = "finished";
	r.server_seed = "ff00ff00ff00ff00ff00ff00ff00ff00ff00ff00ff00ff00ff00ff00ff00ff00";
	r.client_seeds[0] = "lucky";
	s = wire_state_new(&r);
	REQUIRE(s);
	CHECK(strcmp(json_string_value(obj_get(s, "server_seed")), r.server_seed) == 0);
	cs = obj_get(s, "client_seeds");
	CHECK(json_array_size(cs) == 2);
	CHECK(strcmp(json_string_value(json_array_get(cs, 0)), "lucky") == 0);
	CHECK(strcmp(json_string_value(json_array_get(cs, 1)), "") == 0);
	CHECK(json_integer_value(obj_get(obj_get(s, "result"), "winner")) == 0);
	CHECK(json_array_size(obj_get(s, "to_act")) == 0);
	json_decref(s);
}

static void test_room_summary(void)
{
	struct wire_room_options ro;
	struct rules_match m;
	struct wire_room r;
	json_t *s, *want;
	const char *level;

	room_setup(&r, &m, &ro);
	REQUIRE(r.game && r.codec);
	ro.autoroll = true;
	r.watchers = 3;
	r.seats[1].name = "bot";
	r.seats[1].bot = "random";
	s = wire_room_summary_new(&r);
	want = json_pack("{s:s, s:s, s:s, s:[{s:i, s:s, s:s, s:b}, {s:i, s:s, s:s, s:b}], s:i,"
			 " s:{s:b}, s:i, s:I}",
			 "id", "r1", "game", "ur", "status", "waiting", "seats", "seat", 0, "role", "light",
			 "name", "Ana", "bot", 0, "seat", 1, "role", "dark", "name", "bot", "bot", 1,
			 "watchers", 3, "options", "autoroll", 1, "ply", 0, "created_at",
			 (json_int_t)1700000000000LL);
	CHECK(json_equal(s, want));
	if (!json_equal(s, want))
		dump_diff(want, s);
	json_decref(s);
	json_decref(want);
	/* (r3) the summary keeps true/false; the room's state names the bot's level */
	s = wire_state_new(&r);
	REQUIRE(s);
	CHECK(json_is_false(json_object_get(json_array_get(json_object_get(s, "seats"), 0), "bot")));
	level = json_string_value(json_object_get(json_array_get(json_object_get(s, "seats"), 1), "bot"));
	CHECK(level && !strcmp(level, "random"));
	json_decref(s);
}

static void units_run(void)
{
	TEST(test_error_codes);
	TEST(test_error_echoes_id);
	TEST(test_error_without_id);
	TEST(test_error_integer_id);
	TEST(test_replies);
	TEST(test_simple_room_replies);
	TEST(test_chat);
	TEST(test_text_valid);
	TEST(test_options);
	TEST(test_state_waiting);
	TEST(test_state_playing_and_legal);
	TEST(test_state_finished_reveals);
	TEST(test_room_summary);
}

int main(int argc, char **argv)
{
	const char *dir = argc > 1 ? argv[1] : "tests/golden";
	int nvalid = golden_run(dir, "valid");
	int ninvalid = golden_run(dir, "invalid");

	if (nvalid < 20 || ninvalid < 20) {
		printf("not ok %d - golden cases found in %s (%d valid, %d invalid)\n", ++tap_count_, dir,
		       nvalid, ninvalid);
		tap_failed_total_++;
	}
	units_run();
	return tap_done();
}
