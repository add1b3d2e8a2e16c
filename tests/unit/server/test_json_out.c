/*
 * test_json_out.c: json_out.c writes exactly what jansson writes. Random
 * trees (every type; integers at the extremes; strings with quotes,
 * backslashes, every control character, '/', DEL, two- to four-byte UTF-8;
 * keys that share prefixes, so that sorting is tested on ties; nesting) are
 * encoded by both, unsorted and with JSON_SORT_KEYS, and must match byte for
 * byte. Strings built without jansson's check (bad UTF-8 of every kind) must
 * be refused by both. Then mutants of JSON texts are parsed by jansson and
 * every one that parses must encode the same. Deterministic (a fixed seed).
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "json_out.h"
#include "match_fixture.h"
#include "tap.h"

#define TREES   20000
#define MUTANTS 20000

static struct fixture_lcg lcg = { 7 };

static uint32_t rnd(uint32_t n)
{
	return fixture_next(&lcg) % n;
}

/* Pieces strings are made of: escapes, edge bytes and well-formed UTF-8. */
static const char *const pieces[] = {
	"a",
	"Z",
	"0",
	" ",
	"\"",
	"\\",
	"/",
	"\b",
	"\f",
	"\n",
	"\r",
	"\t",
	"\x01",
	"\x1f",
	"\x7f",
	"\xc3\xb1",         /* ñ */
	"\xe2\x82\xac",     /* € */
	"\xef\xbf\xbf",     /* U+FFFF */
	"\xf0\x9f\x8e\xb2", /* U+1F3B2 */
	"\xf4\x8f\xbf\xbf", /* U+10FFFF */
	"light",
	"seat",
	"ply",
	"\xc2\x80",
};

/* Byte sequences that are not well-formed UTF-8. */
static const char *const bad[] = {
	"\x80",         "\xc0\xaf",     "\xc1\xbf",         "\xe0\x80\xaf",     "\xed\xa0\x80",
	"\xed\xb0\x80", "\xed\xbf\xbf", "\xf0\x80\x80\xaf", "\xf4\x90\x80\x80", "\xf5\x80\x80\x80",
	"\xff",         "\xc3",         "\xe2\x82",         "\xf0\x9f\x8e",     "\xc3\x28",
};

static size_t make_text(char *s, size_t cap)
{
	size_t n = 0, k = rnd(8);

	while (k--) {
		const char *p = pieces[rnd(sizeof(pieces) / sizeof(pieces[0]))];
		size_t m = strlen(p);

		if (n + m >= cap)
			break;
		memcpy(s + n, p, m);
		n += m;
	}
	if (rnd(20) == 0 && n + 1 < cap) /* an embedded NUL: jansson writes \u0000 */
		s[n++] = '\0';
	s[n] = '\0';
	return n;
}

static json_int_t make_int(void)
{
	static const json_int_t edges[] = { 0,          1,         -1,        9,
					    10,         -10,       99,        100,
					    1000000007, INT64_MAX, INT64_MIN, INT64_MIN + 1,
					    INT32_MAX,  INT32_MIN };

	if (rnd(3) == 0)
		return edges[rnd(sizeof(edges) / sizeof(edges[0]))];
	return (json_int_t)((uint64_t)rnd(1u << 31) << rnd(33)) * (rnd(2) ? 1 : -1);
}

static json_t *make_tree(int depth)
{
	char s[64];
	size_t n, k;
	json_t *j;

	switch (rnd(depth > 3 ? 6 : 9)) {
	case 0:
		return json_null();
	case 1:
		return json_boolean(rnd(2));
	case 2:
	case 3:
		return json_integer(make_int());
	case 4:
		return json_real((double)make_int() / (rnd(1000) + 1));
	case 5:
		n = make_text(s, sizeof(s));
		return json_stringn(s, n);
	case 6:
	case 7:
		j = json_object();
		for (k = rnd(7); k--;) {
			n = make_text(s, sizeof(s));
			json_object_setn_new(j, s, n, make_tree(depth + 1));
		}
		return j;
	default:
		j = json_array();
		for (k = rnd(6); k--;)
			json_array_append_new(j, make_tree(depth + 1));
		return j;
	}
}

/* Both encoders agree on `j` under `flags`: same bytes, or both refuse. */
static bool agree(const json_t *j, size_t flags)
{
	struct json_out o = { 0 };
	char *want = json_dumps(j, JSON_COMPACT | JSON_ENCODE_ANY | flags);
	int err = json_out_value(&o, j, flags & JSON_SORT_KEYS ? JSON_OUT_SORT_KEYS : 0);
	bool ok;

	if (!want)
		ok = err != 0;
	else
		ok = !err && o.len == strlen(want) && memcmp(o.p, want, o.len) == 0 && o.p[o.len] == '\0';
	if (!ok)
		printf("# want %s\n#  got %.*s (%d)\n", want ? want : "(refused)", (int)o.len, o.p ? o.p : "",
		       err);
	free(want);
	json_out_free(&o);
	return ok;
}

static void random_trees(void)
{
	int i, bad_n = 0;

	for (i = 0; i < TREES; i++) {
		json_t *j = make_tree(0);

		if (!agree(j, 0) || !agree(j, JSON_SORT_KEYS))
			bad_n++;
		json_decref(j);
	}
	printf("# %d random trees, %d differ\n", TREES, bad_n);
	CHECK_EQ(bad_n, 0);
}

static void bad_utf8(void)
{
	size_t i;
	int bad_n = 0;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		char s[32];
		json_t *a;

		snprintf(s, sizeof(s), "ok%sok", bad[i]);
		a = json_pack("[s,o]", "x", json_stringn_nocheck(s, strlen(s)));
		if (!agree(a, 0))
			bad_n++;
		json_decref(a);
	}
	CHECK_EQ(bad_n, 0);
}

static void refusals(void)
{
	struct json_out o = { 0 };

	CHECK(json_out_value(&o, NULL, 0) == -EINVAL && o.len == 0);
	json_out_free(&o);
}

static const char *const seeds[] = {
	"{\"type\":\"state\",\"room\":\"r1\",\"ply\":12,\"seats\":[{\"seat\":0,\"name\":\"Ana \\\"A\\\"\"}]}",
	"[1,-2,3.5,1e300,-0.0,true,false,null,\"\\u0000\\u001f\\/\",{\"b\":1,\"a\":2,\"ab\":3,\"\":0}]",
	"{\"\\u00f1\":\"\\ud83c\\udfb2\",\"x\":[[[]],{}],\"n\":-9223372036854775808}",
};

/* Mutants of JSON texts: whatever jansson parses, both encode alike. */
static void mutants(void)
{
	int i, parsed = 0, bad_n = 0;

	for (i = 0; i < MUTANTS; i++) {
		const char *seed = seeds[rnd(sizeof(seeds) / sizeof(seeds[0]))];
		char text[512];
		size_t n = strlen(seed), k;
		json_t *j;

		memcpy(text, seed, n);
		for (k = rnd(4); k--;) {
			size_t at = rnd((uint32_t)n);

			switch (rnd(3)) {
			case 0:
				text[at] = (char)rnd(256);
				break;
			case 1:
				n = at + 1;
				break;
			default:
				if (n + 1 < sizeof(text)) {
					memmove(text + at + 1, text + at, n - at);
					text[at] = "{}[],:\"\\0-e.u"[rnd(13)];
					n++;
				}
			}
		}
		j = json_loadb(text, n, JSON_DECODE_ANY | JSON_ALLOW_NUL, NULL);
		if (!j)
			continue;
		parsed++;
		if (!agree(j, 0) || !agree(j, JSON_SORT_KEYS))
			bad_n++;
		json_decref(j);
	}
	printf("# %d of %d mutants parse, %d differ\n", parsed, MUTANTS, bad_n);
	CHECK(parsed > MUTANTS / 10);
	CHECK_EQ(bad_n, 0);
}

int main(void)
{
	TEST(random_trees);
	TEST(bad_utf8);
	TEST(refusals);
	TEST(mutants);
	return tap_done();
}
