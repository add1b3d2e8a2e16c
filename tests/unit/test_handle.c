/*
 * test_handle.c: handle.c's rules and keys (PROTOCOL.md "Accounts and
 * ratings"): the accepted spellings fold to one key, and every class of
 * look-alike or invisible character is refused.
 */
#include <string.h>

#include "store/store.h"
#include "tap.h"

static int ok(const char *h, const char *want_key)
{
	char key[HANDLE_SIZE];
	const char *why = handle_check(h, key);

	if (why) {
		printf("# %s refused: %s\n", h, why);
		return 0;
	}
	if (strcmp(key, want_key)) {
		printf("# %s keyed %s, not %s\n", h, key, want_key);
		return 0;
	}
	return 1;
}

static int refused(const char *h)
{
	char key[HANDLE_SIZE];

	return handle_check(h, key) != NULL;
}

static void keys_fold(void)
{
	CHECK(ok("Ana", "ana"));
	CHECK(ok("ANA", "ana"));
	CHECK(ok("Aná", "ana"));
	CHECK(ok("b0b", "bob"));
	CHECK(ok("a1ice", "alice"));
	CHECK(ok("ana-maria", "ana_maria"));
	CHECK(ok("Aná_R", "ana_r"));
	CHECK(ok("Ñandú", "nandu"));
	CHECK(ok("Çöğüş", "cogus"));
	CHECK(ok("Søren", "soren"));
	CHECK(ok("abc", "abc"));
	CHECK(ok("a2345678901234567890", "a23456789ol23456789o")); /* 20 */
	CHECK(ok("ááááááááááááááááááá", "aaaaaaaaaaaaaaaaaaa"));   /* 19 of 2 bytes */
}

static void look_alikes_refused(void)
{
	CHECK(refused("\xd0\xb0na")); /* Cyrillic a */
	CHECK(refused("b\xce\xbf"
		      "b"));              /* Greek omicron */
	CHECK(refused("\xce\x86na"));     /* Greek Alpha with tonos: folds to alpha, not ASCII */
	CHECK(refused("\xef\xbc\xa1na")); /* fullwidth A */
	CHECK(refused("\xc3\xa6on"));     /* ligature ae: two letters */
	CHECK(refused("stra\xc3\x9f"
		      "e")); /* sharp s: ss */
}

static void invisible_refused(void)
{
	CHECK(refused("an\xe2\x80\x8b"
		      "a")); /* zero-width space */
	CHECK(refused("an\xe2\x80\x8d"
		      "a")); /* zero-width joiner */
	CHECK(refused("\xef\xbb\xbf"
		      "ana"));         /* BOM */
	CHECK(refused("ana\xcc\x81")); /* combining acute */
	CHECK(refused("an a"));        /* space */
	CHECK(refused("an\xc2\xa0"
		      "a")); /* no-break space */
	CHECK(refused("ana\t"));
	CHECK(refused("ana!"));
	CHECK(refused("ana.b"));
	CHECK(refused("an@a"));
}

static void lengths_and_first(void)
{
	CHECK(refused(""));
	CHECK(refused("ab"));
	CHECK(refused("\xc3\xa1"
		      "b"));                     /* 2 characters, 3 bytes */
	CHECK(refused("a23456789012345678901")); /* 21 */
	CHECK(refused("1abc"));
	CHECK(refused("_abc"));
	CHECK(refused("-abc"));
	CHECK(ok("\xc3\x81"
		 "bc",
		 "abc")); /* an accented letter is a letter */
}

static void bad_utf8_refused(void)
{
	CHECK(refused("ab\xc3"));         /* cut short */
	CHECK(refused("ab\xc0\xa1"));     /* overlong */
	CHECK(refused("ab\xed\xa0\x80")); /* surrogate */
	CHECK(refused("ab\xff"
		      "c"));
	CHECK(refused(NULL));
}

int main(void)
{
	TEST(keys_fold);
	TEST(look_alikes_refused);
	TEST(invisible_refused);
	TEST(lengths_and_first);
	TEST(bad_utf8_refused);
	return tap_done();
}
