/*
 * test_buf.c: the frames a room sends are exactly jansson's encoding. A seat's
 * frame is the spectators' frame with its `legal` spliced in (room.c through
 * buf_from_json_mark() and buf_splice()); over random Ur playouts, at every
 * ply, both must equal json_dumps(JSON_COMPACT) of the same tree byte for
 * byte, with seat names that need escaping, finished rooms (revealed seeds,
 * a result) and the last action. Also: member names that need escaping, and a
 * splice range outside the frame is refused. The pool of freed buffers:
 * its size class of every size against the definition (the smallest class
 * that holds it, found by a walk), and random runs of frames made and freed
 * in any order, each checked intact until its last reference goes, with the
 * pool never over its cap, even after a flood freed at once.
 */
#include <libwebsockets.h>
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
		w.seats[0] =
			(struct wire_seat){ names[i % 5], NULL, i % 2, false, false, 0, 0, NULL, 0, false };
		w.seats[1] = (struct wire_seat){
			names[(i + 1) % 5], NULL, true, false, false, 0, 0, NULL, 0, false
		};
		w.seats[1].bot = i % 3 == 0 ? "strong" : NULL; /* (r3) a bot's level */
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

/* The definition: the first class, in order, whose allocation holds n; -1 if none. */
static int class_by_walk(size_t n)
{
	int c;

	for (c = 0; c < BUF_POOL_CLASSES; c++)
		if (buf_pool_class_size(c) >= n)
			return c;
	return -1;
}

static void test_pool_classes(void)
{
	size_t n, bad = 0;
	int c;

	for (c = 1; c < BUF_POOL_CLASSES; c++)
		CHECK(buf_pool_class_size(c) > buf_pool_class_size(c - 1));
	CHECK(buf_pool_class_size(0) == 256 && buf_pool_class_size(BUF_POOL_CLASSES - 1) == 65536);
	for (n = 0; n <= 70000; n++) {
		c = buf_pool_class(n);
		if (c != class_by_walk(n) || (c >= 0 && n > 256 && buf_pool_class_size(c) * 8 > n * 9)) {
			if (bad++ < 5)
				printf("# size %zu: class %d, by walk %d\n", n, c, class_by_walk(n));
		}
	}
	CHECK(bad == 0);
}

/* The payload of frame number `id`: bytes that depend on both, so a reuse while alive shows. */
static void fill(unsigned char *p, size_t len, unsigned id)
{
	size_t i;

	for (i = 0; i < len; i++)
		p[i] = (unsigned char)(id * 31u + i * 7u);
}

static bool intact(const struct buf *b, unsigned id)
{
	size_t i;

	if (b->data != (const unsigned char *)(b + 1) + LWS_PRE || b->data[b->len] != '\0')
		return false;
	for (i = 0; i < b->len; i++)
		if (b->data[i] != (unsigned char)(id * 31u + i * 7u))
			return false;
	return true;
}

#define LIVE 64

static void test_pool_random(void)
{
	static unsigned char src[100000];
	struct buf *live[LIVE] = { 0 };
	unsigned ids[LIVE] = { 0 }, id = 0;
	long before = buf_live;
	int step, i, bad = 0, over = 0;

	for (step = 0; step < 4000; step++) {
		int k = (int)(fixture_next(&lcg) % LIVE);
		uint32_t r = fixture_next(&lcg);

		if (live[k]) { /* drop one reference: of two, or the last */
			if (!intact(live[k], ids[k]))
				bad++;
			if (live[k]->refs == 1 || r % 3 == 0) { /* every reference goes */
				while (live[k]->refs > 1)
					buf_unref(live[k]);
				buf_unref(live[k]);
				live[k] = NULL;
			} else {
				buf_unref(live[k]);
			}
		} else {
			/* mostly frame sizes, sometimes tiny, sometimes past the largest class */
			size_t len = r % 10 == 0 ? r % 16 : r % 20 == 1 ? 65536 + r % 30000 : r % 6000;

			fill(src, len, ++id);
			live[k] = buf_from_bytes(src, len);
			REQUIRE(live[k]);
			ids[k] = id;
			if (r % 2)
				buf_ref(live[k]);
		}
		if (buf_pool_bytes > BUF_POOL_MAX_BYTES)
			over++;
	}
	for (i = 0; i < LIVE; i++)
		if (live[i]) {
			if (!intact(live[i], ids[i]))
				bad++;
			while (live[i]->refs > 1)
				buf_unref(live[i]);
			buf_unref(live[i]);
		}
	CHECK(bad == 0);
	CHECK(over == 0);
	CHECK(buf_live == before);
	CHECK(buf_pool_count > 0); /* the pool was used */
}

static void test_pool_flood(void)
{
	static struct buf *b[5000];
	static char text[2000];
	int i;

	for (i = 0; i < 5000; i++)
		REQUIRE((b[i] = buf_from_bytes(text, sizeof(text))));
	for (i = 0; i < 5000; i++)
		buf_unref(b[i]);
	printf("# after 5,000 frames of 2,000 bytes freed: %zu bytes in %ld buffers pooled\n", buf_pool_bytes,
	       buf_pool_count);
	CHECK(buf_pool_bytes <= BUF_POOL_MAX_BYTES);
	CHECK(buf_pool_bytes > BUF_POOL_MAX_BYTES / 2); /* it keeps what fits, not nothing */
	buf_pool_trim();
	CHECK(buf_pool_bytes == 0 && buf_pool_count == 0);
}

int main(void)
{
	TEST(test_ur_playouts);
	TEST(test_keys_and_ranges);
	TEST(test_pool_classes);
	TEST(test_pool_random);
	TEST(test_pool_flood);
	buf_pool_trim();
	return tap_done() || buf_live != 0;
}
