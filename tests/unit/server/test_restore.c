/*
 * test_restore.c: the start-up restore through the server library, against
 * the real store: rooms journalled by one lobby (real Ur matches, played
 * through room_act) are rebuilt by a second lobby on the same database, as
 * a restart does. A room replays to the very match it was; a room whose
 * journal disagrees with the rules core (a tampered outcome) is left out of
 * memory, its seat given back to its player, and its journal kept.
 */
#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "config.h"
#include "lobby/lobby.h"
#include "room/room_int.h" /* the room's own test: it checks the restored internals */
#include "store/store.h"
#include "tap.h"
#include "base/util.h"

static uv_loop_t loop;
static struct config cfg;
static struct metrics metrics;
static char path[64];
static uint64_t committed;

static void commit_cb(void *ctx, uint64_t seq, int err)
{
	if (!err)
		committed = seq;
}

/* Flushes the open journal batch and runs the loop until it has committed. */
static bool flush_and_wait(struct store *st)
{
	uint64_t seq = store_journal_flush(st), t0 = uv_hrtime();

	while (committed < seq && uv_hrtime() - t0 < 5000000000ull)
		uv_run(&loop, UV_RUN_NOWAIT);
	return committed >= seq;
}

/* Plays `n` actions in `r`: each time the first legal action of the seat to act. */
static bool play(struct room *r, struct player *seats[2], int n)
{
	static struct rules_action legal[RULES_MAX_LEGAL];
	uint8_t to_act[RULES_MAX_SEATS];

	while (n-- > 0) {
		json_t *a;
		int err;

		if (rules_to_act(&r->match, to_act) < 1 ||
		    rules_legal_actions(&r->match, to_act[0], legal, RULES_MAX_LEGAL) < 1)
			return false;
		a = r->codec->action_encode(&legal[0]);
		err = room_act(r, seats[to_act[0]], (int64_t)r->nactions, a);
		json_decref(a);
		if (err)
			return false;
	}
	return true;
}

static struct room *ur_room(struct lobby *l, struct player *seats[2])
{
	struct wire_room_options ropt = { 0 };
	struct rules_options gopt = { 0 };
	struct room *r = NULL;
	int seat, i;

	if (lobby_room_create(l, seats[0], rules_game_find("ur"), wire_game_find("ur"), &ropt, &gopt, &r))
		return NULL;
	for (i = 0; i < 2; i++)
		if (room_join(r, seats[i], i, "seed", &seat))
			return NULL;
	return r;
}

static int sql(const char *q)
{
	sqlite3 *db;
	int rc = sqlite3_open(path, &db);

	if (rc == SQLITE_OK)
		rc = sqlite3_exec(db, q, NULL, NULL, NULL);
	sqlite3_close(db);
	return rc;
}

static int sql_int(const char *q)
{
	sqlite3 *db;
	sqlite3_stmt *s = NULL;
	int v = -1;

	if (sqlite3_open(path, &db) == SQLITE_OK && sqlite3_prepare_v2(db, q, -1, &s, NULL) == SQLITE_OK &&
	    sqlite3_step(s) == SQLITE_ROW)
		v = sqlite3_column_int(s, 0);
	sqlite3_finalize(s);
	sqlite3_close(db);
	return v;
}

/* The restored identity holding `token` (in memory: the restore loaded it). */
static struct player *by_token(struct lobby *l, const char *token)
{
	uint8_t h[RULES_SHA256_SIZE];
	char hash[65];

	rules_sha256(token, strlen(token), h);
	wire_hex_encode(h, sizeof(h), hash);
	return lobby_player_find(l, hash);
}

static void test_restart_replays_and_leaves_out_a_tampered_room(void)
{
	struct lobby *l1, *l2;
	struct store *st, *st2 = NULL;
	struct player *seats[2];
	struct room *good, *bad, *back;
	char tok[2][80], good_id[WIRE_ROOM_ID_MAX + 1], bad_id[WIRE_ROOM_ID_MAX + 1], q[256];

	REQUIRE(!store_open(&loop, path, QUINTETO_SOURCE_MIGRATIONS, &st));
	store_on_commit(st, commit_cb, NULL);
	REQUIRE(!store_start(st));
	REQUIRE(!lobby_new(&loop, st, &cfg, &metrics, NULL, &l1));
	REQUIRE(!lobby_player_hello(l1, NULL, NULL, "Ann", tok[0], sizeof(tok[0]), &seats[0]));
	REQUIRE(!lobby_player_hello(l1, NULL, NULL, "Ben", tok[1], sizeof(tok[1]), &seats[1]));
	REQUIRE(seats[0] && seats[1]);
	REQUIRE((good = ur_room(l1, seats)) && (bad = ur_room(l1, seats)));
	REQUIRE(play(good, seats, 7) && play(bad, seats, 4));
	snprintf(good_id, sizeof(good_id), "%s", good->id);
	snprintf(bad_id, sizeof(bad_id), "%s", bad->id);
	REQUIRE(flush_and_wait(st));
	snprintf(q, sizeof(q),
		 "UPDATE live_log SET outcome = '{\"tampered\":true}' WHERE ply = 1 AND room = "
		 "(SELECT key FROM live_rooms WHERE id = '%s')",
		 bad_id);
	REQUIRE(sql(q) == SQLITE_OK);

	REQUIRE(!store_open(&loop, path, QUINTETO_SOURCE_MIGRATIONS, &st2)); /* the restart: not started */
	REQUIRE(!lobby_new(&loop, st2, &cfg, &metrics, NULL, &l2));
	CHECK_EQ(lobby_restore(l2), 0);
	back = lobby_room_find(l2, good_id);
	CHECK(back != NULL);
	if (back) {
		CHECK_EQ(back->status, ROOM_PLAYING);
		CHECK_EQ(back->nactions, 7);
		CHECK_EQ(back->match.ply, 7);
		CHECK(!memcmp(&back->match, &good->match, sizeof(back->match))); /* the very same match */
		CHECK(back->seats[0].player == by_token(l2, tok[0]));
	}
	CHECK(lobby_room_find(l2, bad_id) == NULL); /* does not replay: left out */
	CHECK_EQ(lobby_rooms_count(l2), 1);
	CHECK_EQ(player_nrooms(by_token(l2, tok[1])), 1); /* no seat in a room that is not there */
	snprintf(q, sizeof(q), "SELECT count(*) FROM live_actions WHERE room_id = '%s'", bad_id);
	CHECK_EQ(sql_int(q), 4); /* its journal is kept for inspection */

	lobby_close(l1);
	lobby_close(l2);
	store_close(st);
	store_close(st2);
	uv_run(&loop, UV_RUN_DEFAULT);
	lobby_free(l1);
	lobby_free(l2);
}

int main(void)
{
	char dir[] = "/tmp/quinteto-test-restore-XXXXXX";

	if (!mkdtemp(dir))
		return 1;
	snprintf(path, sizeof(path), "%s/q.db", dir);
	config_defaults(&cfg);
	uv_loop_init(&loop);
	TEST(test_restart_replays_and_leaves_out_a_tampered_room);
	uv_loop_close(&loop);
	snprintf(path + strlen(dir), sizeof(path) - strlen(dir), "/q.db-wal");
	unlink(path);
	snprintf(path + strlen(dir), sizeof(path) - strlen(dir), "/q.db-shm");
	unlink(path);
	snprintf(path + strlen(dir), sizeof(path) - strlen(dir), "/q.db");
	unlink(path);
	rmdir(dir);
	return tap_done();
}
