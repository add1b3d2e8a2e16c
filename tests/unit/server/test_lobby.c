/*
 * test_lobby.c: a hello's read answered late (lobby_player_loaded), through
 * the server library against the real store: what the read found is taken
 * as a read now would find it. A guest read before another tab's claim
 * committed resumes the account (its token is the first session now, not a
 * new guest); an account read before its deletion gets no handle back.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/conf.h"
#include "base/metrics.h"
#include "config.h"
#include "lobby/lobby.h"
#include "player/player.h"
#include "rules.h"
#include "store/store.h"
#include "tap.h"
#include "wire.h"

static uv_loop_t loop;
static struct config cfg;
static struct metrics metrics;
static char path[64];

static void hash_of(const char *token, char hash[65])
{
	uint8_t h[RULES_SHA256_SIZE];

	rules_sha256(token, strlen(token), h);
	wire_hex_encode(h, sizeof(h), hash);
}

static void test_a_late_read_answers_as_a_read_now(void)
{
	struct store *st;
	struct lobby *l;
	struct player *p, *q, *again;
	struct store_identity who = { 0 };
	char tok[2][80], hash[2][65];

	REQUIRE(!store_open(&loop, path, QUINTETO_SOURCE_MIGRATIONS, &st));
	REQUIRE(!store_start(st));
	REQUIRE(!lobby_new(&loop, st, &cfg, &metrics, NULL, &l));

	/* a guest read as a guest, claimed here before the read's answer */
	REQUIRE(!lobby_player_hello(l, NULL, NULL, "Ann", tok[0], sizeof(tok[0]), &p));
	hash_of(tok[0], hash[0]);
	snprintf(who.id, sizeof(who.id), "%s", player_id(p));
	snprintf(who.name, sizeof(who.name), "Ann");
	player_set_handle(p, "ann");
	lobby_player_claimed(l, p);
	CHECK(lobby_player_find(l, hash[0]) == NULL); /* keyed claimed:<id> now: the hello read */
	CHECK(lobby_player_loaded(l, hash[0], &who) == p);
	CHECK(player_handle(p) && !strcmp(player_handle(p), "ann"));

	/* an account read with its handle, deleted here (handle cleared, mark kept) before the answer */
	REQUIRE(!lobby_player_hello(l, NULL, NULL, "Ben", tok[1], sizeof(tok[1]), &q));
	hash_of(tok[1], hash[1]);
	player_set_handle(q, "ben");
	lobby_player_claimed(l, q);
	player_set_deleting(q, true);
	player_set_handle(q, NULL);
	snprintf(who.id, sizeof(who.id), "%s", player_id(q));
	snprintf(who.name, sizeof(who.name), "Ben");
	snprintf(who.handle, sizeof(who.handle), "ben");
	CHECK(lobby_player_loaded(l, hash[1], &who) == NULL); /* a new guest: the token is nobody's */
	CHECK(player_handle(q) == NULL);
	again = lobby_player_account(l, player_id(q), "Ben", "ben", NULL, 0); /* a stale sign-in's answer */
	CHECK(again == q);
	CHECK(player_handle(q) == NULL);

	lobby_close(l);
	store_close(st);
	uv_run(&loop, UV_RUN_DEFAULT);
	lobby_free(l);
}

int main(void)
{
	char dir[] = "/tmp/quinteto-test-lobby-XXXXXX";
	const char *files[] = { "/q.db-wal", "/q.db-shm", "/q.db" };

	if (!mkdtemp(dir))
		return 1;
	snprintf(path, sizeof(path), "%s/q.db", dir);
	config_defaults(&cfg);
	uv_loop_init(&loop);
	TEST(test_a_late_read_answers_as_a_read_now);
	uv_loop_close(&loop);
	for (size_t i = 0; i < 3; i++) {
		snprintf(path, sizeof(path), "%s%s", dir, files[i]);
		unlink(path);
	}
	rmdir(dir);
	return tap_done();
}
