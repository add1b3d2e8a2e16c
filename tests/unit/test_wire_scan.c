/*
 * test_wire_scan.c: the `act` fast path (protocol/wire/msg_scan.c) against
 * the definition (wire_msg_decode() + each codec's action_decode()).
 *
 * legal_round_trip: for every legal action of every seat to act in random
 * playouts of every registered game, decode(encode(a)) == a, and the `legal`
 * list's text as the server writes it (wire_legal_out) splits into entries whose text is
 * encode(a) and whose lookup gives a back: the fast path's action from
 * matching text is the definition's.
 *
 * differential: thousands of act frames built from those legal actions, then
 * varied (reordered keys, whitespace, escapes, duplicate and unknown keys,
 * wrong types, big and odd numbers, bad UTF-8, NUL, truncations, random
 * byte mutations). Whenever the scanner takes a frame, the definition must
 * decode it with the same fields (type, room, ply, id) and the same action
 * tree, and each codec must give the same action or error from either; and
 * the plain frames a client sends must be taken by the scanner (so a scanner
 * that never says yes fails too).
 */
#include <stdlib.h>
#include <string.h>

#include "json_out.h"
#include "rules.h"
#include "tap.h"
#include "wire.h"

#define MATCHES   15 /* per game */
#define MAX_PLIES 400
#define MAX_TEXT  8192

static struct rules_action legal[RULES_MAX_LEGAL];
static struct wire_legal_entry entries[RULES_MAX_LEGAL];
static uint64_t rng = 0x2545f4914f6cdd1dull;

static uint64_t next(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

static void seed_of(int i, uint8_t seed[RULES_SEED_SIZE])
{
	memset(seed, 0, RULES_SEED_SIZE);
	memcpy(seed, &i, sizeof(i));
	seed[31] = 0x3c;
}

/* The compact text of j in out (NUL-terminated); its length, 0 on failure. */
static size_t text_of(json_t *j, char *out, size_t cap)
{
	size_t n = j ? json_dumpb(j, out, cap - 1, JSON_COMPACT) : 0;

	json_decref(j);
	if (n >= cap - 1)
		return 0;
	out[n] = '\0';
	return n;
}

/* Calls fn for every state of MATCHES random playouts of every game, with the seat to act's legal list. */
static void playouts(void (*fn)(const struct wire_game *codec, const struct rules_action *a, int n))
{
	for (int g = 0; rules_games[g]; g++) {
		const struct wire_game *codec = wire_game_find(rules_games[g]->id);

		for (int i = 0; codec && i < MATCHES; i++) {
			struct rules_match m;
			uint8_t seed[RULES_SEED_SIZE];

			seed_of(i, seed);
			if (rules_match_start(&m, rules_games[g], seed, NULL))
				continue;
			for (int ply = 0; ply < MAX_PLIES; ply++) {
				uint8_t to_act[RULES_MAX_SEATS];
				int k = rules_to_act(&m, to_act), seat, n;

				if (k <= 0)
					break;
				seat = to_act[next() % (uint64_t)k];
				n = rules_legal_actions(&m, seat, legal, RULES_MAX_LEGAL);
				if (n <= 0 || n > RULES_MAX_LEGAL)
					break;
				fn(codec, legal, n);
				if (rules_apply(&m, seat, &legal[next() % (uint64_t)n], NULL))
					break;
			}
		}
	}
}

static long round_trips;

static void round_trip_list(const struct wire_game *codec, const struct rules_action *a, int n)
{
	static struct json_out out; /* the list as the server writes it into a seat's frame */
	static char one[MAX_TEXT];
	const char *list;
	size_t len;

	out.len = 0;
	CHECK(wire_legal_out(&out, codec, a, n) == 0);
	list = out.p;
	len = out.len;
	if (!len || wire_legal_split(list, len, a, n, entries) != 0) {
		CHECK(!"the legal list splits into its actions");
		return;
	}
	for (int i = 0; i < n; i++) {
		struct rules_action back;
		size_t k = text_of(codec->action_encode(&a[i]), one, sizeof(one));
		json_t *j = json_loadb(one, k, JSON_REJECT_DUPLICATES, NULL);
		int at = wire_legal_find(entries, n, list, one, k);

		memset(&back, 0, sizeof(back));
		CHECK(j && codec->action_decode(j, &back) == WIRE_OK && rules_action_equal(&back, &a[i]));
		CHECK(entries[i].len == k && memcmp(list + entries[i].off, one, k) == 0);
		CHECK(at >= 0 && rules_action_equal(&entries[at].a, &a[i]));
		json_decref(j);
		round_trips++;
	}
}

static void legal_round_trip(void)
{
	round_trips = 0;
	playouts(round_trip_list);
	printf("# %ld legal actions round-tripped\n", round_trips);
	CHECK(round_trips > 10000);
}

/* --- the differential ------------------------------------------------------- */

static long taken, refused, plain_missed;

/* The same action (or the same error) from the two trees, for every codec. */
static void same_action(const json_t *slow, const json_t *fast)
{
	for (int g = 0; wire_games[g]; g++) {
		struct rules_action a, b;
		int ea, eb;

		memset(&a, 0, sizeof(a));
		memset(&b, 0, sizeof(b));
		ea = wire_games[g]->action_decode(slow, &a);
		eb = wire_games[g]->action_decode(fast, &b);
		CHECK_EQ(ea, eb);
		CHECK(ea || rules_action_equal(&a, &b));
	}
}

/* One frame through both paths; `plain` frames must be taken by the scanner. */
static void compare(const char *buf, size_t len, bool plain)
{
	struct wire_msg fast, slow;
	char why[160];
	int err = wire_msg_decode(buf, len, &slow, why, sizeof(why));

	if (!wire_msg_scan_act(buf, len, &fast)) {
		refused++;
		if (plain) {
			plain_missed++;
			printf("# a plain frame was not taken: %.*s\n", (int)len, buf);
		}
		CHECK(fast.type == 0 && !fast.action_raw);
	} else {
		json_t *action = json_loadb(fast.action_raw, fast.action_len, JSON_REJECT_DUPLICATES, NULL);
		const json_t *id = wire_msg_id(&fast);

		taken++;
		CHECK_EQ(err, WIRE_OK);
		if (err)
			printf("# taken but the definition says %d (%s): %.*s\n", err, why, (int)len, buf);
		CHECK_EQ(fast.type, WIRE_ACT);
		CHECK_EQ(slow.type, WIRE_ACT);
		CHECK(slow.room && strcmp(fast.room, slow.room) == 0);
		CHECK_EQ(fast.ply, slow.ply);
		CHECK((!id && !slow.id) || (id && slow.id && json_equal(id, slow.id)));
		CHECK(action && slow.action && json_equal(action, slow.action));
		if (action && slow.action)
			same_action(slow.action, action);
		json_decref(action);
	}
	wire_msg_finish(&fast);
	wire_msg_finish(&slow);
}

static const char *const spaces[] = { "", "", "", " ", "\n", "\t", "\r\n  " };

static const char *space(void)
{
	return spaces[next() % (sizeof(spaces) / sizeof(spaces[0]))];
}

/* A member's value: the usual one or, now and then, one of the odd ones. */
static const char *pick(const char *usual, const char *const *odd, size_t nodd)
{
	return next() % 3 ? usual : odd[next() % nodd];
}

static const char *const odd_type[] = { "\"hello\"", "\"ac\\u0074\"", "\"act \"",  "\"ACT\"",       "3",
					"null",      "\"\"",          "[\"act\"]", "\"act\\u0000\"" };
static const char *const odd_room[] = { "\"\"",
					"\"abcdefghijklmnopqrstuvwxyz0123456\"",
					"\"abcdefghijklmnopqrstuvwxyz012345\"",
					"\"r\\\"1\"",
					"\"r\xc3\xa9\"",
					"\"r\xff\"",
					"7",
					"\"r\x01\"",
					"\"r\x7f\"" };
static const char *const odd_ply[] = { "-1",
				       "1.0",
				       "1e2",
				       "01",
				       "99999999999999999999",
				       "\"3\"",
				       "null",
				       "-0",
				       "true",
				       "123456789012345",
				       "1234567890123456" };
static const char *const odd_id[] = { "null",
				      "1.5",
				      "-7",
				      "\"\"",
				      "\"a-string-of-sixty-five-bytes-xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx\"",
				      "\"a-string-of-sixty-four-bytes-xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx\"",
				      "{}",
				      "[1]",
				      "\"\\n\"",
				      "9223372036854775807",
				      "-0",
				      "0" };
static const char *const odd_action[] = {
	"[]",
	"{}",
	"null",
	"{\"roll\":true,\"roll\":true}",
	"{\"r\\u006fll\":true}",
	"{\"roll\" : true , \"x\":[1,{\"y\":[2]}]}",
	"{\"a\":{\"b\":{\"c\":{\"d\":1}}}}",
	"{\"a\":[[[[1]]]]}",
	"{\"move\":1.0}",
	"{\"move\":-3}",
	"{\"from\":\"a1\",\"to\":\"b2\"}",
	"{\"plan\":[{\"from\":1,\"to\":2,\"die\":0}]}",
	"{\"x\":\"\xc3\"}",
	"{\"roll\":tru}",
	"{\"roll\":true,}",
	"{\"a\":1,\"b\":2,\"c\":3,\"d\":4,\"e\":5,\"f\":6,\"g\":7,\"h\":8,\"i\":9,\"j\":10,"
	"\"k\":11,\"l\":12,\"m\":13,\"n\":14,\"o\":15,\"p\":16,\"q\":17}"
};

#define ODD(a) a, sizeof(a) / sizeof(a[0])

/* An act frame for action text `action`: the members in a random order, odd values now and then. */
static size_t frame(char *out, size_t cap, const char *action, bool *plain)
{
	char ply[24], id[24];
	const char *key[7], *val[7];
	int n = 0, order[7];
	size_t len = 0;

	snprintf(ply, sizeof(ply), "%d", (int)(next() % 500));
	snprintf(id, sizeof(id), next() % 2 ? "%u" : "\"c%u\"", (unsigned)(next() % 100000));
	*plain = next() % 4 == 0;
	key[0] = "type";
	val[0] = *plain ? "\"act\"" : pick("\"act\"", ODD(odd_type));
	key[1] = "room";
	val[1] = *plain ? "\"r0001\"" : pick("\"r0001\"", ODD(odd_room));
	key[2] = "ply";
	val[2] = *plain ? ply : pick(ply, ODD(odd_ply));
	key[3] = "action";
	val[3] = *plain ? action : pick(action, ODD(odd_action));
	n = 4;
	if (*plain || next() % 4) {
		key[n] = "id";
		val[n++] = *plain ? id : pick(id, ODD(odd_id));
	}
	if (!*plain && next() % 8 == 0) { /* a duplicate */
		key[n] = key[next() % (uint64_t)n];
		val[n] = val[next() % (uint64_t)n];
		n++;
	}
	if (!*plain && next() % 8 == 0) { /* unknown: ignored by the definition */
		key[n] = next() % 2 ? "extra" : "Type";
		val[n++] = "1";
	}
	if (!*plain && next() % 10 == 0)
		n = (int)(next() % (uint64_t)n); /* a required member missing */
	for (int i = 0; i < n; i++)
		order[i] = i;
	for (int i = n - 1; i > 0 && !*plain; i--) {
		int j = (int)(next() % (uint64_t)(i + 1)), t = order[i];

		order[i] = order[j];
		order[j] = t;
	}
	len += (size_t)snprintf(out + len, cap - len, "%s{", *plain ? "" : space());
	for (int i = 0; i < n && len < cap; i++)
		len += (size_t)snprintf(out + len, cap - len, "%s%s\"%s\"%s:%s%s%s", i ? "," : "",
					*plain ? "" : space(), key[order[i]], *plain ? "" : space(),
					*plain ? "" : space(), val[order[i]], *plain ? "" : space());
	if (len < cap)
		len += (size_t)snprintf(out + len, cap - len, "}%s", *plain ? "" : space());
	return len < cap ? len : 0;
}

/* Bit flips, truncations, inserted syntax and odd bytes (tests/fuzz/fuzz_wire.c's mutations). */
static size_t mutate(char *buf, size_t len, size_t cap)
{
	static const char tokens[] = "{}[]\":,\\0e-.+ \x80\xff\xc3\x01";
	int rounds = 1 + (int)(next() % 3);

	for (int k = 0; k < rounds && len; k++) {
		size_t pos = next() % len;

		switch (next() % 4) {
		case 0:
			buf[pos] = (char)(buf[pos] ^ (1 << (next() % 8)));
			break;
		case 1:
			len = pos;
			break;
		case 2:
			buf[pos] = tokens[next() % (sizeof(tokens) - 1)];
			break;
		case 3:
			if (len + 1 < cap) {
				memmove(buf + pos + 1, buf + pos, len - pos);
				buf[pos] = next() % 8 ? tokens[next() % (sizeof(tokens) - 1)] : '\0';
				len++;
			}
			break;
		}
	}
	return len;
}

static void frames_of(const struct wire_game *codec, const struct rules_action *a, int n)
{
	char action[MAX_TEXT], buf[MAX_TEXT + 512];
	size_t alen;
	bool plain;

	if (next() % 4)
		return; /* a quarter of the states is plenty */
	alen = text_of(codec->action_encode(&a[next() % (uint64_t)n]), action, sizeof(action));
	if (!alen)
		return;
	for (int k = 0; k < 4; k++) {
		size_t len = frame(buf, sizeof(buf), action, &plain);

		if (!len)
			continue;
		compare(buf, len, plain);
		len = mutate(buf, len, sizeof(buf));
		compare(buf, len, false);
	}
}

static void differential(void)
{
	taken = refused = plain_missed = 0;
	playouts(frames_of);
	printf("# %ld frames taken by the scanner, %ld left to the definition\n", taken, refused);
	CHECK(taken > 2000 && refused > 2000);
	CHECK_EQ(plain_missed, 0);
}

/* Hand-picked frames at the edges of what the scanner takes. */
static void edges(void)
{
	static const char *const cases[] = {
		"{\"type\":\"act\",\"room\":\"r\",\"ply\":0,\"action\":{\"roll\":true}}",
		"{\"type\":\"act\",\"room\":\"r\",\"ply\":0,\"action\":{\"roll\":true}}\0",
		"{\"type\":\"act\",\"room\":\"r\",\"ply\":0,\"action\":{\"roll\":true}}x",
		"{\"type\":\"act\",\"room\":\"r\",\"ply\":0,\"action\":{\"roll\":true}}}",
		"{\"type\":\"act\",\"room\":\"r\",\"ply\":0,\"action\":{\"roll\":true}",
		"\xef\xbb\xbf{\"type\":\"act\",\"room\":\"r\",\"ply\":0,\"action\":{\"roll\":true}}",
		"{\"type\":\"act\",\"room\":\"r\",\"ply\":0,\"action\":{\"roll\":true},\"id\":-0}",
		"{\"type\":\"act\",\"room\":\"r\",\"ply\":00,\"action\":{\"roll\":true}}",
		"{\"type\":\"act\",\"room\":\"r\",\"ply\":0,\"action\":{\"roll\":true,\"\":1}}",
		"{\"type\":\"act\",\"room\":\"r\",\"ply\":0,\"action\":{\"a\":[1,2,]}}",
		"{\"type\":\"act\",\"room\":\"r\",\"ply\":0,\"action\":{\"a\":[,]}}",
		"{\"type\":\"act\",\"room\":\"r\",\"ply\":0,\"action\":{\"a\":-}}",
		"{\"type\":\"act\",\"room\":\"r\",\"ply\":0,\"action\":{\"a\":nul}}",
		"{\"type\":\"act\",\"room\":\"r\",\"ply\":0,\"action\":{\"a\" \"b\"}}",
		"{\"type\":\"act\",\"room\":\"r\",\"ply\":0 ,\"action\":{\"a\":{}}}",
		"{\"type\":\"act\",\"room\":\"r\",\"ply\":0\f,\"action\":{\"a\":{}}}",
		"{\"type\":\"act\",\"room\":\"r\",\"ply\":0,\"action\":{\"a\":\"\\ud800\"}}",
		"[{\"type\":\"act\",\"room\":\"r\",\"ply\":0,\"action\":{}}]",
		"",
		" ",
	};
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		compare(cases[i], i == 1 ? strlen(cases[i]) + 1 : strlen(cases[i]), i == 0);
}

int main(void)
{
	TEST(legal_round_trip);
	TEST(edges);
	TEST(differential);
	return tap_done();
}
