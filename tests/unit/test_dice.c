/*
 * test_dice.c: SHA-256 against the FIPS 180-4 vectors, and the dice stream
 * and match seed of protocol.md against values computed independently with
 * `printf ... | sha256sum` (the commands are next to each vector), so a change
 * in how dice are drawn cannot pass unnoticed.
 */
#include <string.h>

#include "rules.h"
#include "tap.h"

static void hex_decode(const char *hex, uint8_t *out, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		unsigned v;

		sscanf(hex + 2 * i, "%2x", &v);
		out[i] = (uint8_t)v;
	}
}

static int digest_is(const uint8_t d[RULES_SHA256_SIZE], const char *hex)
{
	uint8_t want[RULES_SHA256_SIZE];

	hex_decode(hex, want, sizeof(want));
	return memcmp(d, want, sizeof(want)) == 0;
}

/* The seed 00 01 02 ... 1f used by the stream vectors. */
static void seed_counting(uint8_t seed[RULES_SEED_SIZE])
{
	for (int i = 0; i < RULES_SEED_SIZE; i++)
		seed[i] = (uint8_t)i;
}

static void test_sha256_short(void)
{
	uint8_t d[RULES_SHA256_SIZE];
	const char *m448 = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";

	rules_sha256("", 0, d);
	CHECK(digest_is(d, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"));
	rules_sha256("abc", 3, d);
	CHECK(digest_is(d, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"));
	rules_sha256(m448, strlen(m448), d);
	CHECK(digest_is(d, "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"));
}

static void test_sha256_million(void)
{
	struct rules_sha256 c;
	uint8_t d[RULES_SHA256_SIZE], chunk[1000];

	/* Odd-sized pieces cross the block boundary at every offset. */
	memset(chunk, 'a', sizeof(chunk));
	rules_sha256_init(&c);
	for (size_t done = 0, step = 1; done < 1000000; done += step, step = step % 997 + 1) {
		if (step > 1000000 - done)
			step = 1000000 - done;
		rules_sha256_update(&c, chunk, step);
	}
	rules_sha256_final(&c, d);
	CHECK(digest_is(d, "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0"));
}

static void test_sha256_lengths(void)
{
	uint8_t d1[RULES_SHA256_SIZE], d2[RULES_SHA256_SIZE], buf[200];
	struct rules_sha256 c;

	/* Incremental one byte at a time equals one-shot, across the padding edges. */
	for (size_t i = 0; i < sizeof(buf); i++)
		buf[i] = (uint8_t)(i * 7 + 3);
	for (size_t n = 0; n <= sizeof(buf); n++) {
		rules_sha256(buf, n, d1);
		rules_sha256_init(&c);
		for (size_t i = 0; i < n; i++)
			rules_sha256_update(&c, buf + i, 1);
		rules_sha256_final(&c, d2);
		CHECK(memcmp(d1, d2, sizeof(d1)) == 0);
	}
	/* printf 'a%.0s' {1..64} | sha256sum: exactly one block of input. */
	memset(buf, 'a', 64);
	rules_sha256(buf, 64, d1);
	CHECK(digest_is(d1, "ffe054fe7ae0cb6dc65c3af9b61d5209f439851db43d0ba5997337df154668eb"));
}

static void test_stream_blocks(void)
{
	/* printf "<seed>\x00\x00\x00\x00\x00\x00\x00\x0K" | sha256sum, K = 0, 1, 2 */
	static const char *const blocks[] = {
		"a9d6e500293a88bd38cbe213d07ab71f8cb2258552072a01bdf1c40be527f4d0",
		"6061c4386d7a1788ba52e2e8b2ee6fe6137644ec75a70bf7042cfd67a1e57bd3",
		"7365a07b4571dc929c3629031f2b3b815637f619ae346d4a72c408ddbd3980e3",
	};
	uint8_t seed[RULES_SEED_SIZE], want[RULES_SHA256_SIZE];
	struct rules_dice d;

	seed_counting(seed);
	rules_dice_init(&d, seed);
	CHECK_EQ(d.used, 0);
	for (int k = 0; k < 3; k++) {
		hex_decode(blocks[k], want, sizeof(want));
		for (int i = 0; i < RULES_SHA256_SIZE; i++)
			CHECK_EQ(rules_dice_byte(&d), want[i]);
	}
	CHECK_EQ(d.used, 96);
	CHECK_EQ(d.block, 3);
}

static void test_stream_tetra(void)
{
	/* Block 0 starts a9 d6 e5 00 29 3a 88 bd: odd, even, odd, even, odd, even, even, odd. */
	static const bool want[] = { true, false, true, false, true, false, false, true };
	uint8_t seed[RULES_SEED_SIZE];
	struct rules_dice d;

	seed_counting(seed);
	rules_dice_init(&d, seed);
	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++)
		CHECK_EQ(rules_dice_tetra(&d), want[i]);
	CHECK_EQ(d.used, 8);
}

static void test_stream_d6(void)
{
	uint8_t seed[RULES_SEED_SIZE];
	struct rules_dice d;

	seed_counting(seed);
	rules_dice_init(&d, seed);
	/* a9=169 -> 169%6+1 = 2; d6=214 -> 5; e5=229 -> 2; 00 -> 1 */
	CHECK_EQ(rules_dice_d6(&d), 2);
	CHECK_EQ(rules_dice_d6(&d), 5);
	CHECK_EQ(rules_dice_d6(&d), 2);
	CHECK_EQ(rules_dice_d6(&d), 1);
	/* Stream byte 58 (block 1, byte 26) is fd = 253: skipped, then 67 = 103 -> 2. */
	while (d.used < 58)
		rules_dice_byte(&d);
	CHECK_EQ(rules_dice_d6(&d), 2);
	CHECK_EQ(d.used, 60);
}

static void test_stream_d6_range(void)
{
	uint8_t seed[RULES_SEED_SIZE] = { 7 };
	struct rules_dice d;
	int counts[7] = { 0 };

	rules_dice_init(&d, seed);
	for (int i = 0; i < 6000; i++) {
		int v = rules_dice_d6(&d);

		REQUIRE(v >= 1 && v <= 6);
		counts[v]++;
	}
	for (int v = 1; v <= 6; v++)
		CHECK(counts[v] > 850 && counts[v] < 1150);
	CHECK(d.used >= 6000);
}

static void test_match_seed(void)
{
	uint8_t server[RULES_SEED_SIZE], out[RULES_SEED_SIZE];
	const char *alice_none[] = { "alice", NULL };
	const char *alice_empty[] = { "alice", "" };
	const char *alice_bob[] = { "alice", "bob" };

	seed_counting(server);
	/* printf "<seed>" | sha256sum */
	rules_match_seed(server, NULL, 0, out);
	CHECK(digest_is(out, "630dcd2966c4336691125448bbb25b4ff412a49c732db2c8abc1b8581bd710dd"));
	/* printf "<seed>alice\x00\x00" | sha256sum: a NULL seed is "" */
	rules_match_seed(server, alice_none, 2, out);
	CHECK(digest_is(out, "bf5374ebee1b31b8cb10f4c647b917b0f42b00dcfe3af53b44d7aca1d7473180"));
	rules_match_seed(server, alice_empty, 2, out);
	CHECK(digest_is(out, "bf5374ebee1b31b8cb10f4c647b917b0f42b00dcfe3af53b44d7aca1d7473180"));
	/* printf "<seed>alice\x00bob\x00" | sha256sum */
	rules_match_seed(server, alice_bob, 2, out);
	CHECK(digest_is(out, "8ad541568d11e06bed31f5631cf246477720a4069683a6b9cac8dbd2fb1add76"));
}

static void test_match_seed_separators(void)
{
	uint8_t server[RULES_SEED_SIZE] = { 1 }, a[RULES_SEED_SIZE], b[RULES_SEED_SIZE];
	const char *ab_c[] = { "ab", "c" };
	const char *a_bc[] = { "a", "bc" };
	const char *none2[] = { NULL, NULL };

	/* The zero bytes keep seat boundaries apart. */
	rules_match_seed(server, ab_c, 2, a);
	rules_match_seed(server, a_bc, 2, b);
	CHECK(memcmp(a, b, sizeof(a)) != 0);
	/* Two silent seats differ from none at all (two zero bytes are hashed). */
	rules_match_seed(server, none2, 2, a);
	rules_match_seed(server, NULL, 0, b);
	CHECK(memcmp(a, b, sizeof(a)) != 0);
}

int main(void)
{
	TEST(test_sha256_short);
	TEST(test_sha256_million);
	TEST(test_sha256_lengths);
	TEST(test_stream_blocks);
	TEST(test_stream_tetra);
	TEST(test_stream_d6);
	TEST(test_stream_d6_range);
	TEST(test_match_seed);
	TEST(test_match_seed_separators);
	return tap_done();
}
