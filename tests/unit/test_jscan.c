/*
 * test_jscan.c: the load generator's state scanner (tests/bench/jscan.c)
 * against jansson. On state frames shaped like the server's (nested objects
 * with their own "ply" and "room" keys, escaped strings, empty and non-empty
 * `legal`), every field the scanner returns must equal jansson's reading; every
 * proper prefix of a frame must be refused; and on random corruptions the
 * scanner must never read outside its buffer (ASan watches an exact-size copy)
 * and, whenever both accept, must agree with jansson.
 */
#include "../bench/jscan.h"
#include "tap.h"

#include <jansson.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static const char *const frames[] = {
	"{\"type\":\"state\",\"room\":\"r7Kq2\",\"game\":\"ur\",\"status\":\"playing\",\"ply\":12,"
	"\"seats\":[{\"seat\":0,\"role\":\"light\",\"name\":\"a \\\"quoted\\\" \\\\ name\",\"bot\":false,"
	"\"connected\":true},{\"seat\":1,\"role\":\"dark\",\"name\":\"b\",\"bot\":false,\"connected\":true}],"
	"\"to_act\":[0],\"view\":{\"board\":[0,1,-1,0],\"ply\":99,\"room\":\"decoy\",\"dice\":[1,0,1,1],"
	"\"nested\":{\"legal\":[{\"x\":1}]}},\"legal\":[{\"move\":3},{\"move\":7,\"to\":[1,2]},{\"pass\":"
	"true}],"
	"\"last\":{\"seat\":1,\"action\":{\"roll\":true},\"outcome\":{\"roll\":2}},\"result\":null,"
	"\"commit\":\"9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08\","
	"\"options\":{\"autoroll\":true}}",
	"{\"type\":\"state\",\"room\":\"x\",\"status\":\"waiting\",\"ply\":0,\"legal\":[],\"last\":null,"
	"\"score\":-1.5e3}",
	" { \"legal\" : [ {\"roll\":true} ] , \"ply\" : 40 , \"status\" : \"finished\" , \"type\" : "
	"\"state\" ,"
	" \"room\" : \"r\" , \"result\" : {\"winner\":1,\"draw\":false} } \n",
	"{\"type\":\"welcome\",\"player\":\"p1\",\"name\":\"\\u00e9\",\"token\":\"t\",\"rooms\":[],\"seats\":"
	"[]}",
	"{}",
};

/* Copies `s` (n bytes) into a buffer of exactly n bytes, so ASan sees any read past it. */
static char *exact(const char *s, size_t n)
{
	char *p = malloc(n ? n : 1);

	if (p)
		memcpy(p, s, n);
	return p;
}

static bool span_is(struct jscan_span sp, json_t *j)
{
	if (!json_is_string(j))
		return sp.n == 0;
	return sp.n == json_string_length(j) && !memcmp(sp.p, json_string_value(j), sp.n);
}

/* The scan's fields equal jansson's reading of the same bytes. */
static bool agrees(const struct jscan_state *st, json_t *j)
{
	json_t *legal = json_object_get(j, "legal"), *ply = json_object_get(j, "ply");
	json_t *seat = json_object_get(json_object_get(j, "last"), "seat");
	int i;

	if (!span_is(st->type, json_object_get(j, "type")) ||
	    !span_is(st->room, json_object_get(j, "room")) ||
	    !span_is(st->status, json_object_get(j, "status")))
		return false;
	if (st->ply != (json_is_integer(ply) ? json_integer_value(ply) : -1))
		return false;
	if (st->last_seat != (json_is_integer(seat) ? json_integer_value(seat) : -1))
		return false;
	if (st->has_legal != json_is_array(legal) || (size_t)st->nlegal != json_array_size(legal))
		return false;
	for (i = 0; i < st->nlegal; i++) {
		json_t *e = json_loadb(st->legal[i].p, st->legal[i].n, JSON_DECODE_ANY, NULL);
		bool same = e && json_equal(e, json_array_get(legal, (size_t)i));

		json_decref(e);
		if (!same)
			return false;
	}
	return true;
}

static void frames_agree_with_jansson(void)
{
	static struct jscan_state st;
	size_t k;

	for (k = 0; k < sizeof(frames) / sizeof(frames[0]); k++) {
		size_t n = strlen(frames[k]);
		char *buf = exact(frames[k], n);
		json_t *j = json_loadb(frames[k], n, 0, NULL);

		if (!buf || !j) {
			free(buf);
			json_decref(j);
		}
		REQUIRE(buf && j);
		CHECK_EQ(jscan_state(buf, n, &st), 0);
		CHECK(agrees(&st, j));
		if (tap_failed_)
			printf("# frame %zu\n", k);
		json_decref(j);
		free(buf);
	}
	/* the decoys inside `view` were not taken for the top-level fields */
	CHECK(!jscan_state(frames[0], strlen(frames[0]), &st) && st.ply == 12 && st.nlegal == 3 &&
	      st.last_seat == 1);
}

static void prefixes_are_refused(void)
{
	static struct jscan_state st;
	size_t k, n;

	for (k = 0; k < sizeof(frames) / sizeof(frames[0]); k++) {
		size_t len = strlen(frames[k]);

		while (len && strchr(" \n", frames[k][len - 1]))
			len--; /* trailing blanks are not part of the object */
		for (n = 0; n < len; n++) {
			char *buf = exact(frames[k], n);

			REQUIRE(buf);
			CHECK(jscan_state(buf, n, &st) != 0);
			free(buf);
			if (tap_failed_) {
				printf("# frame %zu accepted at prefix %zu\n", k, n);
				return;
			}
		}
	}
}

static void too_many_legal_is_refused(void)
{
	static struct jscan_state st;
	char *buf = malloc(16 * (JSCAN_MAX_LEGAL + 2) + 64);
	size_t n;
	int i;

	REQUIRE(buf);
	n = (size_t)sprintf(buf, "{\"type\":\"state\",\"legal\":[");
	for (i = 0; i <= JSCAN_MAX_LEGAL; i++)
		n += (size_t)sprintf(buf + n, "%s{\"m\":%d}", i ? "," : "", i);
	n += (size_t)sprintf(buf + n, "]}");
	CHECK(jscan_state(buf, n, &st) != 0);
	free(buf);
}

static void corruptions_stay_in_bounds(void)
{
	static struct jscan_state st;
	static const char alphabet[] = "{}[]\",:\\ 0123456789abnrtlsuefx";
	uint64_t x = 0x243f6a8885a308d3ull;
	size_t base = strlen(frames[0]);
	int round, agreed = 0;

	for (round = 0; round < 20000; round++) {
		char *buf = exact(frames[0], base);
		int flips, f;
		json_t *j;

		REQUIRE(buf);
		x ^= x << 13, x ^= x >> 7, x ^= x << 17;
		flips = 1 + (int)(x % 3);
		for (f = 0; f < flips; f++) {
			x ^= x << 13, x ^= x >> 7, x ^= x << 17;
			buf[(x >> 8) % base] = alphabet[x % (sizeof(alphabet) - 1)];
		}
		j = json_loadb(buf, base, 0, NULL);
		if (!jscan_state(buf, base, &st) && json_is_object(j)) {
			CHECK(agrees(&st, j));
			agreed++;
		}
		json_decref(j);
		free(buf);
		if (tap_failed_)
			return;
	}
	CHECK(agreed > 100); /* the comparison did run on many accepted corruptions */
}

int main(void)
{
	TEST(frames_agree_with_jansson);
	TEST(prefixes_are_refused);
	TEST(too_many_legal_is_refused);
	TEST(corruptions_stay_in_bounds);
	return tap_done();
}
