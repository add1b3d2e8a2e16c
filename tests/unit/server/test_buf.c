/*
 * test_buf.c: the frames a room sends are exactly jansson's encoding. A seat's
 * frame is the spectators' frame with its `legal` spliced in (room.c through
 * buf_from_json_mark() and buf_splice()); over random Ur playouts, at every
 * ply, both must equal json_dumps(JSON_COMPACT) of the same tree byte for
 * byte, with seat names that need escaping, finished rooms (revealed seeds,
 * a result) and the last action. Also: member names that need escaping, and a
 * splice range outside the frame is refused.
 */
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "rules.h"
#include "match_fixture.h"
#include "tap.h"
#include "wire.h"

#define MATCHES 100

static struct fixture_lcg lcg = { 42 };

/* True if the buffer's payload equals jansson's compact dump of `j`. */
static bool same_as_jansson(const struct buf *b, const json_t *j)
{
	char *want = json_dumps(j, JSON_COMPACT);
	bool ok = want && b && b->len == strlen(want) && memcmp(b->data, want, b->len) == 0 &&
		  b->data[b->len] == '\0';

	if (!ok)
		printf("# want %s\n#  got %.*s\n", want ? want : "(null)", b ? (int)b->len : 0,
		       b ? (const char *)b->data : "");
	free(want);
	return ok;
}

/* Checks the spectators' frame and every seat's spliced frame of one state; false on a mismatch. */
static bool check_state(const struct wire_room *w, const struct wire_game *codec)
{
	static struct rules_action legal[RULES_MAX_LEGAL];
	uint8_t to_act[RULES_MAX_SEATS];
	json_t *st = wire_state_new(w);
	size_t at;
	struct buf *all = buf_from_json_mark(st, "legal", &at);
	bool ok = all && same_as_jansson(all, st) && memcmp(all->data + at, "[]", 2) == 0;
	int n = rules_to_act(w->match, to_act);

	for (int i = 0; ok && i < n; i++) {
		int k = rules_legal_actions(w->match, to_act[i], legal, RULES_MAX_LEGAL);
		json_t *l = wire_legal_new(codec, legal, k);
		struct buf *seat = buf_splice(all, at, 2, l);

		json_object_set(st, "legal", l); /* replaces the value in place: the key keeps its position */
		ok = same_as_jansson(seat, st);
		json_object_set_new(st, "legal", json_array());
		buf_unref(seat);
		json_decref(l);
	}
	buf_unref(all);
	json_decref(st);
	return ok;
}

static const char *const names[] = { "Ana", "B\"o\\b/", "Zoë ☃", "tab\there", NULL };

static void test_ur_playouts(void)
{
	const struct rules_game *g = rules_game_find("ur");
	const struct wire_game *codec = wire_game_find("ur");
	struct rules_match m;
	struct wire_room w;
	int states = 0;

	REQUIRE(g && codec);
	for (int i = 0; i < MATCHES; i++) {
		uint8_t seed[RULES_SEED_SIZE] = { (uint8_t)i, (uint8_t)(i >> 8), 0x5a };
		struct rules_result res;

		REQUIRE(rules_match_start(&m, g, seed, NULL) == 0);
		memset(&w, 0, sizeof(w));
		w.id = "r1";
		w.game = g;
		w.codec = codec;
		w.match = &m;
		w.commit = "00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff";
		w.seats[0] = (struct wire_seat){ names[i % 5], false, i % 2, false, false, 0, 0 };
		w.seats[1] = (struct wire_seat){ names[(i + 1) % 5], i % 3 == 0, true, false, false, 0, 0 };
		for (;;) {
			rules_result(&m, &res);
			w.status = res.over ? "finished" : "playing";
			w.server_seed = res.over ? w.commit : NULL;
			w.client_seeds[0] = res.over ? "c\"s" : NULL;
			REQUIRE(check_state(&w, codec));
			states++;
			if (res.over)
				break;
			REQUIRE(fixture_pick(&m, &lcg, &w.last_seat, &w.last_action) == 0);
			w.has_last = true;
			REQUIRE(rules_apply(&m, w.last_seat, &w.last_action, &w.last_outcome) == 0);
		}
	}
	printf("# %d states compared\n", states);
	CHECK(states > MATCHES * 20); /* Ur matches are hundreds of plies long */
}

static void test_keys_and_ranges(void)
{
	json_t *o = json_pack("{s:i, s:[], s:s, s:n}", "a/b", 1, "x", "q\"u\\o\"te", "te\"xt", "é");
	size_t at;
	struct buf *b = buf_from_json_mark(o, "x", &at);
	json_t *ins = json_pack("[i,s]", 7, "/");

	REQUIRE(b);
	CHECK(same_as_jansson(b, o));
	CHECK(memcmp(b->data + at, "[]", 2) == 0);
	CHECK(!buf_splice(b, b->len, 1, ins)); /* past the end */
	CHECK(!buf_splice(b, b->len + 1, 0, ins));
	struct buf *s = buf_splice(b, at, 2, ins);
	json_object_set(o, "x", ins);
	CHECK(same_as_jansson(s, o));
	buf_unref(s);
	buf_unref(b);
	CHECK(!buf_from_json_mark(ins, "x", &at)); /* not an object */
	b = buf_from_json_mark(o, "none", &at);
	CHECK(b && at == SIZE_MAX);
	buf_unref(b);
	json_decref(ins);
	json_decref(o);
}

int main(void)
{
	TEST(test_ur_playouts);
	TEST(test_keys_and_ranges);
	return tap_done() || buf_live != 0;
}
