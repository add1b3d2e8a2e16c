/*
 * test_store.c: the store against a real SQLite database in a temporary
 * folder, its real threads and a real libuv loop. Journal batches commit in
 * order and are called back once; a batch that SQLite rolls back (a trigger
 * that RAISEs, added and dropped through a second connection, as an operator
 * or a full disk would) is retried whole until it commits, later batches
 * waiting behind it; reads are answered while the writer is held up; migration
 * 0004 carries a resignation over; start-up loads merge actions and events by
 * ply; archived matches come back through the archive codec with their events.
 *
 * With --pg, the same contract cases run against PostgreSQL (the store of
 * store_open_pg(), on the server $QUINTETO_TEST_PG or CONNINFO names: meson's
 * `store_pg` starts one with tests/lib/with-pg.sh), each on an emptied schema;
 * the cases that are SQLite's by nature (WAL checkpoints, the log's sweep, the
 * SQLite migrations' carry-overs) are skipped there, and PostgreSQL's own
 * follow: a batch retried whole across a restart of the server, a COMMIT whose
 * answer is lost resolved through the ledger, the fence, the node's rooms.
 * Usage: test_store MIGRATIONS_DIR [--pg [CONNINFO]]
 */
#include <errno.h>
#include <libpq-fe.h>
#include <signal.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <string.h>
#include <unistd.h>

#include "store/store.h"
#include "store/store_pg_int.h"
#include "tap.h"
#include "wire.h"

static uv_loop_t loop;
static const char *migrations;
static char dbpath[512];
static const char *pg;   /* PostgreSQL's conninfo; NULL: SQLite */
static PGconn *pg_admin; /* the test's own connection ("another process") */

/*
 * A case that is SQLite's by nature, or PostgreSQL's: run on its backend only.
 * The other run names it in a comment, not as a TAP skip: the suite counts
 * what ran, and each backend runs every case that means something there.
 */
#define TEST_SQLITE(fn, why)                                            \
	do {                                                            \
		if (pg)                                                 \
			printf("# %s: SQLite's only (%s)\n", #fn, why); \
		else                                                    \
			TEST(fn);                                       \
	} while (0)
#define TEST_PG(fn)                                                                 \
	do {                                                                        \
		if (pg)                                                             \
			TEST(fn);                                                   \
		else                                                                \
			printf("# %s: PostgreSQL's only (test_store --pg)\n", #fn); \
	} while (0)

/* The test's connection to PostgreSQL, made again after a restart. */
static PGconn *admin(void)
{
	if (pg_admin && PQstatus(pg_admin) == CONNECTION_OK) {
		PGresult *res = PQexec(pg_admin, "SELECT 1");
		bool up = PQresultStatus(res) == PGRES_TUPLES_OK;

		PQclear(res);
		if (up)
			return pg_admin;
	}
	PQfinish(pg_admin);
	pg_admin = PQconnectdb(pg);
	if (PQstatus(pg_admin) != CONNECTION_OK)
		printf("# PostgreSQL: %s", PQerrorMessage(pg_admin));
	PQclear(PQexec(pg_admin, "SET client_min_messages = warning")); /* no NOTICE of DROP ... CASCADE */
	return pg_admin;
}

/* --- harness ----------------------------------------------------------------- */

static int sql(const char *text);

static void fresh_db(void)
{
	static char dir[64];

	if (pg) { /* the first: an empty schema, the store migrates it; then emptied tables (faster) */
		static bool migrated;
		const char *empty =
			migrated ? "DROP FUNCTION IF EXISTS fail_fn() CASCADE; TRUNCATE players, "
				   "matches, match_seats, "
				   "match_actions, match_events, live_rooms, live_seats, "
				   "live_log, live_events, "
				   "live_after, node_leases, store_ledger, accounts, sessions, "
				   "ratings, rating_history RESTART IDENTITY; UPDATE rating_clock SET n = 0"
				 : "DROP SCHEMA public CASCADE; CREATE SCHEMA public";

		if (sql(empty)) {
			printf("# cannot empty the PostgreSQL database\n");
			exit(2);
		}
		migrated = true;
		return;
	}
	snprintf(dir, sizeof(dir), "/tmp/quinteto-store-XXXXXX");
	if (!mkdtemp(dir)) {
		perror("mkdtemp");
		exit(2);
	}
	snprintf(dbpath, sizeof(dbpath), "%s/q.db", dir);
}

static struct store *open_store(const char *mig)
{
	struct store *st = NULL;

	if (pg)
		return store_open_pg(&loop, pg, mig, &st) ? NULL : st;
	return store_open(&loop, dbpath, mig, &st) ? NULL : st;
}

static void close_store(struct store *st)
{
	store_close(st);
	uv_run(&loop, UV_RUN_DEFAULT); /* the async handle's close callback frees it */
}

/* Runs the loop until done(ctx) or `ms` pass; returns done(ctx). */
static bool run_until(bool (*done)(const void *ctx), const void *ctx, int ms)
{
	int i;

	for (i = 0; i < ms && !done(ctx); i++) {
		uv_run(&loop, UV_RUN_NOWAIT);
		usleep(1000);
	}
	uv_run(&loop, UV_RUN_NOWAIT);
	return done(ctx);
}

static bool never(const void *ctx)
{
	return false;
}

/* Runs SQL on a connection of its own (as another process would). 0 or the SQLite code. */
static int sql(const char *text)
{
	sqlite3 *db;
	int rc;

	if (pg) {
		PGresult *res = PQexec(admin(), text);
		ExecStatusType s = PQresultStatus(res);

		rc = s == PGRES_COMMAND_OK || s == PGRES_TUPLES_OK ? 0 : 1;
		if (rc)
			printf("# sql: %s: %s", text, PQerrorMessage(pg_admin));
		PQclear(res);
		return rc;
	}
	rc = sqlite3_open(dbpath, &db);
	if (rc == SQLITE_OK)
		rc = sqlite3_busy_timeout(db, 5000);
	if (rc == SQLITE_OK)
		rc = sqlite3_exec(db, text, NULL, NULL, NULL);
	if (rc != SQLITE_OK)
		printf("# sql: %s: %s\n", text, sqlite3_errmsg(db));
	sqlite3_close(db);
	return rc;
}

static long long sql_int(const char *text)
{
	sqlite3 *db;
	sqlite3_stmt *s = NULL;
	long long v = -1;

	if (pg) {
		PGresult *res = PQexec(admin(), text);

		if (PQresultStatus(res) == PGRES_TUPLES_OK && PQntuples(res) > 0 && !PQgetisnull(res, 0, 0))
			v = strtoll(PQgetvalue(res, 0, 0), NULL, 10);
		else if (PQresultStatus(res) != PGRES_TUPLES_OK)
			printf("# sql: %s: %s", text, PQerrorMessage(pg_admin));
		PQclear(res);
		return v;
	}
	if (sqlite3_open(dbpath, &db) == SQLITE_OK &&
	    sqlite3_prepare_v2(db, text, -1, &s, NULL) == SQLITE_OK && sqlite3_step(s) == SQLITE_ROW)
		v = sqlite3_column_int64(s, 0);
	sqlite3_finalize(s);
	sqlite3_close(db);
	return v;
}

/*
 * Makes every insert into `table` fail as the database itself can: SQLite
 * rolls the whole transaction back (as on some I/O errors), PostgreSQL raises
 * (as a full disk or a broken constraint trigger would). 0 or non-zero.
 */
static int fail_inserts(const char *table)
{
	char text[512];

	if (pg)
		snprintf(text, sizeof(text),
			 "CREATE OR REPLACE FUNCTION fail_fn() RETURNS trigger LANGUAGE plpgsql AS "
			 "$$BEGIN RAISE EXCEPTION 'disk says no'; END$$; "
			 "CREATE TRIGGER fail BEFORE INSERT ON %s FOR EACH ROW EXECUTE FUNCTION fail_fn()",
			 table);
	else
		snprintf(text, sizeof(text),
			 "CREATE TRIGGER fail BEFORE INSERT ON %s BEGIN SELECT RAISE(ROLLBACK, 'disk says "
			 "no'); END;",
			 table);
	return sql(text);
}

static int fail_inserts_end(const char *table)
{
	char text[128];

	if (!pg)
		return sql("DROP TRIGGER fail");
	snprintf(text, sizeof(text), "DROP TRIGGER fail ON %s", table);
	return sql(text);
}

struct commits {
	int n;
	uint64_t seq[32];
	int err[32];
};

static void commit_cb(void *ctx, uint64_t seq, int err)
{
	struct commits *c = ctx;

	if (c->n < 32) {
		c->seq[c->n] = seq;
		c->err[c->n] = err;
	}
	c->n++;
}

static int want_commits;

static bool commits_reached(const void *ctx)
{
	return ((const struct commits *)ctx)->n >= want_commits;
}

static bool wait_commits(struct commits *c, int n)
{
	want_commits = n;
	return run_until(commits_reached, c, 10000);
}

/* A started store on a new database, its commits counted in `c`; NULL if it cannot start. */
static struct store *fresh_started(struct commits *c)
{
	struct store *st;

	fresh_db();
	st = open_store(migrations);
	if (!st)
		return NULL;
	store_on_commit(st, commit_cb, c);
	return store_start(st) ? NULL : st;
}

/* --- journal batches ----------------------------------------------------------- */

static void test_batches_commit_in_order_once(void)
{
	struct commits c = { 0 };
	struct store *st;
	char id[16];
	int i;

	REQUIRE((st = fresh_started(&c)));
	CHECK_EQ(store_journal_flush(st), 0); /* nothing queued: no batch */
	for (i = 0; i < 10; i++) {
		snprintf(id, sizeof(id), "room%d", i);
		store_live_room(st, id, "ur", "{}", "00", NULL, i);
		if (i % 2)
			store_live_seat(st, id, 0, NULL, NULL, "random");
		CHECK_EQ(store_journal_flush(st), i + 1);
	}
	CHECK(wait_commits(&c, 10));
	run_until(never, NULL, 50); /* a second callback would show up here */
	CHECK_EQ(c.n, 10);
	for (i = 0; i < 10 && i < c.n; i++) {
		CHECK_EQ(c.seq[i], i + 1);
		CHECK_EQ(c.err[i], 0);
	}
	CHECK(!store_journal_failing(st));
	CHECK_EQ(store_queue_depth(st), 0);
	close_store(st);
	CHECK_EQ(sql_int("SELECT count(*) FROM live_rooms"), 10);
	CHECK_EQ(sql_int("SELECT count(*) FROM live_seats"), 5);
}

/* Size of a file, or -1. */
static long long file_size(const char *path)
{
	struct stat sb;

	return stat(path, &sb) ? -1 : (long long)sb.st_size;
}

/*
 * Checkpoints are the checkpointer thread's, and the WAL does not grow without
 * end while commits keep coming: 600 batches of ten rows of 3 KB each (over
 * 4,000 WAL frames, past both thresholds of store_ckpt.c).
 */
static void test_wal_checkpointed_off_the_writer(void)
{
	static char big[3001];
	struct commits c = { 0 };
	struct store *st;
	char id[16], wal[600];
	long long wal_max = 0;
	int i;

	fresh_db();
	snprintf(wal, sizeof(wal), "%s-wal", dbpath);
	memset(big, 'x', sizeof(big) - 1);
	REQUIRE((st = open_store(migrations)));
	store_on_commit(st, commit_cb, &c);
	REQUIRE(!store_start(st));
	for (i = 0; i < 6000; i++) {
		snprintf(id, sizeof(id), "room%d", i);
		store_live_room(st, id, "ur", big, "00", NULL, i);
		if (i % 10 == 9) { /* a commit of 10 rows, as a busy loop turn makes */
			int n = c.n;

			(void)store_journal_flush(st);
			REQUIRE(wait_commits(&c, n + 1));
			if (file_size(wal) > wal_max)
				wal_max = file_size(wal);
		}
	}
	printf("# checkpoints: %lu by the checkpointer, %lu by the writer; WAL at most %lld bytes\n",
	       store_checkpoints(st, false), store_checkpoints(st, true), wal_max);
	CHECK(store_checkpoints(st, false) > 0);
	CHECK(store_checkpoints(st, true) > 0);
	/* the WAL starts over past 4,000 frames of 4 KiB (and a header each) */
	CHECK(wal_max > 0 && wal_max < 4500LL * (4096 + 24));
	CHECK(!store_journal_failing(st));
	close_store(st);
	CHECK_EQ(sql_int("SELECT count(*) FROM live_rooms"), 6000);
}

/* Group commit: while a batch is in flight, turns gather into the next one. */
static void test_turns_gather_behind_a_batch_in_flight(void)
{
	struct commits c = { 0 };
	struct store *st;
	char id[16];
	int i;

	REQUIRE((st = fresh_started(&c)));
	CHECK_EQ(store_journal_turn(st), 0); /* nothing queued */
	store_live_room(st, "first", "ur", "{}", "00", NULL, 1);
	CHECK_EQ(store_journal_turn(st), 1); /* nothing in flight: out at once */
	for (i = 0; i < 5; i++) { /* five turns while batch 1 is in flight (its note is not delivered) */
		snprintf(id, sizeof(id), "room%d", i);
		store_live_room(st, id, "ur", "{}", "00", NULL, 10 + i);
		CHECK_EQ(store_journal_turn(st), 0);
		CHECK_EQ(store_journal_needed(st), 2); /* their frames wait for the open batch */
	}
	REQUIRE(wait_commits(&c, 1)); /* batch 1's note delivered: nothing in flight */
	CHECK_EQ(c.seq[0], 1);
	CHECK_EQ(store_journal_turn(st), 2); /* the five turns, one transaction */
	REQUIRE(wait_commits(&c, 2));
	CHECK_EQ(c.seq[1], 2);
	CHECK_EQ(c.err[1], 0);
	CHECK_EQ(store_journal_turn(st), 0); /* empty */
	CHECK_EQ(store_journal_needed(st), 2);
	close_store(st);
	CHECK_EQ(sql_int("SELECT count(*) FROM live_rooms"), 6);
}

static void test_failing_batch_is_retried_whole(void)
{
	struct commits c = { 0 };
	struct store *st;

	REQUIRE((st = fresh_started(&c)));
	store_live_room(st, "r1", "ur", "{}", "00", NULL, 1);
	CHECK_EQ(store_journal_flush(st), 1);
	REQUIRE(wait_commits(&c, 1));
	REQUIRE(!fail_inserts("live_log"));
	store_live_seat(st, "r1", 0, NULL, "seed", NULL);
	store_live_action(st, "r1", 0, 0, "{\"roll\":true}", "{}", 2, false);
	CHECK_EQ(store_journal_flush(st), 2);
	store_live_room(st, "r2", "ur", "{}", "00", NULL, 3);
	CHECK_EQ(store_journal_flush(st), 3);
	REQUIRE(wait_commits(&c, 2));
	CHECK_EQ(c.seq[1], 2);
	CHECK(c.err[1] < 0);
	CHECK(store_journal_failing(st));
	run_until(never, NULL, 300); /* several retries: still one failure call, batch 3 waits */
	CHECK_EQ(c.n, 2);
	CHECK_EQ(sql_int("SELECT count(*) FROM live_seats"), 0); /* nothing of batch 2 half-written */
	CHECK_EQ(sql_int("SELECT count(*) FROM live_rooms WHERE id = 'r2'"), 0);
	REQUIRE(!fail_inserts_end("live_log"));
	REQUIRE(wait_commits(&c, 4));
	CHECK_EQ(c.seq[2], 2);
	CHECK_EQ(c.err[2], 0);
	CHECK_EQ(c.seq[3], 3);
	CHECK_EQ(c.err[3], 0);
	CHECK(!store_journal_failing(st));
	close_store(st);
	CHECK_EQ(c.n, 4);
	CHECK_EQ(sql_int("SELECT count(*) FROM live_actions WHERE room_id = 'r1' AND ply = 0"), 1);
	CHECK_EQ(sql_int("SELECT count(*) FROM live_seats WHERE client_seed = 'seed'"), 1);
	CHECK_EQ(sql_int("SELECT count(*) FROM live_rooms"), 2);
}

static void test_close_gives_up_a_failing_batch(void)
{
	struct commits c = { 0 };
	struct store *st;
	uint64_t t0;

	REQUIRE((st = fresh_started(&c)));
	REQUIRE(!fail_inserts("live_rooms"));
	store_live_room(st, "r", "ur", "{}", "00", NULL, 1);
	CHECK_EQ(store_journal_flush(st), 1);
	REQUIRE(wait_commits(&c, 1));
	CHECK(c.err[0] < 0);
	run_until(never, NULL, 1500); /* the back-off has reached its cap */
	t0 = uv_hrtime();
	close_store(st); /* one last try, then the batch is logged as lost: no hang */
	CHECK((uv_hrtime() - t0) / 1000000 < 500);
	CHECK_EQ(c.n, 1); /* no err 0 for a batch that never committed */
}

static void test_refused_write_is_skipped_not_retried(void)
{
	struct commits c = { 0 };
	struct store *st;

	REQUIRE((st = fresh_started(&c)));
	store_live_room(st, "r", "ur", "{}", "00", NULL, 1);
	store_live_event(st, "r", 0, 1, RULES_EVENT_RESIGN, 5);
	store_live_event(st, "r", 0, 1, RULES_EVENT_RESIGN, 6); /* the seat is out already: UNIQUE */
	store_live_seat(st, "r", 1, NULL, NULL, "random");
	CHECK_EQ(store_journal_flush(st), 1);
	REQUIRE(wait_commits(&c, 1));
	CHECK_EQ(c.err[0], 0);
	close_store(st);
	CHECK_EQ(sql_int("SELECT count(*) FROM live_events"), 1);
	CHECK_EQ(sql_int("SELECT at FROM live_events"), 5);
	CHECK_EQ(sql_int("SELECT count(*) FROM live_seats"), 1);
}

/*
 * An action of a room the journal does not have is refused alone: the
 * actions around it in the batch (PostgreSQL writes a run of them in one
 * statement) are written, in their order.
 */
static void test_unknown_room_action_refused_alone(void)
{
	struct commits c = { 0 };
	struct store *st;
	int ply;

	REQUIRE((st = fresh_started(&c)));
	store_live_room(st, "r", "ur", "{}", "00", NULL, 1);
	CHECK_EQ(store_journal_flush(st), 1);
	for (ply = 0; ply < 10; ply++) {
		store_live_action(st, "r", ply, ply % 2, "{\"a\":\"q\\\"uote\"}", "{}", 100 + ply, ply == 3);
		if (ply == 4)
			store_live_action(st, "nope", 0, 0, "{}", "{}", 1, false);
	}
	CHECK_EQ(store_journal_flush(st), 2);
	REQUIRE(wait_commits(&c, 2));
	CHECK_EQ(c.err[1], 0);
	close_store(st);
	CHECK_EQ(sql_int("SELECT count(*) FROM live_log"), 10);
	CHECK_EQ(sql_int("SELECT count(*) FROM live_actions WHERE room_id = 'r' AND at = 100 + ply AND "
			 "action = '{\"a\":\"q\\\"uote\"}'"),
		 10);
	CHECK_EQ(sql_int("SELECT sum(stand_in) FROM live_log WHERE ply = 3"), 1);
	CHECK_EQ(
		sql_int("SELECT count(*) FROM live_log a JOIN live_log b ON a.seq < b.seq AND a.ply > b.ply"),
		0);
}

/*
 * A write that fails for a reason outside the statement (here its table is
 * gone: "no such table", SQLITE_ERROR, the transaction still open) is not a
 * refusal: skipping it would commit the batch and release frames showing a
 * resignation the journal does not have. It is retried like a full disk.
 */
static void test_write_failing_outside_itself_is_retried(void)
{
	struct commits c = { 0 };
	struct store *st;

	REQUIRE((st = fresh_started(&c)));
	store_live_room(st, "r", "ur", "{}", "00", NULL, 1);
	CHECK_EQ(store_journal_flush(st), 1);
	REQUIRE(wait_commits(&c, 1));
	REQUIRE(!sql("ALTER TABLE live_events RENAME TO live_events_away"));
	store_live_event(st, "r", 0, 1, RULES_EVENT_RESIGN, 5);
	CHECK_EQ(store_journal_flush(st), 2);
	REQUIRE(wait_commits(&c, 2));
	CHECK_EQ(c.seq[1], 2);
	CHECK(c.err[1] < 0); /* failing, not committed without the event */
	CHECK(store_journal_failing(st));
	REQUIRE(!sql("ALTER TABLE live_events_away RENAME TO live_events"));
	REQUIRE(wait_commits(&c, 3));
	CHECK_EQ(c.seq[2], 2);
	CHECK_EQ(c.err[2], 0);
	close_store(st);
	CHECK_EQ(sql_int("SELECT count(*) FROM live_events"), 1);
}

/* --- the archive ------------------------------------------------------------- */

struct reply {
	int calls, err;
	char *body;
};

static void read_cb(void *ctx, int err, char *body, size_t len)
{
	struct reply *r = ctx;

	r->calls++;
	r->err = err;
	free(r->body);
	r->body = body;
}

static struct store_match *sample_match(const char *id)
{
	static const char *roles[] = { "light", "dark" };
	struct store_match *m = calloc(1, sizeof(*m));
	int i;

	m->id = strdup(id);
	m->game = strdup("ur");
	m->options = strdup("{}");
	m->commit = strdup("6a09e667f3bcc908b2fb1366ea957d3e3adec17512775099da2f590b0667322a");
	m->server_seed = strdup("bb67ae8584caa73b3c6ef372fe94f82ba54ff53a5f1d36f1510e527fade682d1");
	m->client_seeds = strdup("[\"x\",\"\"]");
	m->result = strdup("{\"winner\":0,\"reason\":\"resign\"}");
	m->started_at = 10;
	m->ended_at = 20;
	m->nseats = 2;
	m->seats = calloc(2, sizeof(*m->seats));
	for (i = 0; i < 2; i++) {
		m->seats[i].seat = i;
		m->seats[i].role = strdup(roles[i]);
		m->seats[i].name = strdup(i ? "Bo" : "Ana");
		m->seats[i].client_seed = strdup(i ? "" : "x");
		m->seats[i].player_id = i ? NULL : strdup("p_ana");
		m->seats[i].bot = i;
	}
	m->nactions = 1;
	m->actions = calloc(1, sizeof(*m->actions));
	m->actions[0].action = strdup("{\"roll\":true}");
	m->actions[0].outcome = strdup("{\"value\":1}");
	m->actions[0].at = 15;
	m->nevents = 1;
	m->events = calloc(1, sizeof(*m->events));
	m->events[0] = (struct store_event){ .ply = 1, .seat = 1, .kind = RULES_EVENT_RESIGN, .at = 19 };
	return m;
}

static int saved;

static void saved_cb(void *ctx, int err)
{
	saved = !err ? 1 : -1;
}

static bool saved_done(const void *ctx)
{
	return saved != 0;
}

static bool reply_done(const void *ctx)
{
	return ((const struct reply *)ctx)->calls > 0;
}

static void test_archive_keeps_events_and_order(void)
{
	struct reply r = { 0 };
	struct wire_archive a;
	struct store *st;
	json_t *j;
	char why[160];

	fresh_db();
	REQUIRE((st = open_store(migrations)));
	REQUIRE(!store_start(st));
	saved = 0;
	store_live_room(st, "m1", "ur", "{}", "00", NULL, 1); /* queued before the save: written before it */
	store_match_save(st, sample_match("m1"), saved_cb, NULL);
	run_until(never, NULL, 50);
	CHECK_EQ(saved, 0); /* waits for the journal batch it follows */
	CHECK(store_journal_flush(st) > 0);
	REQUIRE(run_until(saved_done, NULL, 5000));
	CHECK_EQ(saved, 1);
	CHECK_EQ(sql_int("SELECT count(*) FROM live_rooms"), 0); /* dropped by the save, after the room */
	REQUIRE(store_match_get(st, "m1", read_cb, &r));
	REQUIRE(run_until(reply_done, &r, 5000));
	CHECK_EQ(r.err, 0);
	j = r.body ? json_loads(r.body, 0, NULL) : NULL;
	REQUIRE(j);
	CHECK_EQ(wire_archive_decode(j, &a, why, sizeof(why)), WIRE_OK);
	CHECK_EQ(a.nevents, 1);
	if (a.nevents == 1) {
		CHECK_EQ(a.events[0].ply, 1);
		CHECK_EQ(a.events[0].seat, 1);
		CHECK_EQ(a.events[0].kind, RULES_EVENT_RESIGN);
		CHECK_EQ(a.events[0].at, 19);
	}
	CHECK_EQ(a.nactions, 1);
	CHECK(!strcmp(a.client_seeds[0], "x"));
	wire_archive_finish(&a);
	json_decref(j);
	r.calls = 0;
	REQUIRE(store_match_get(st, "nope", read_cb, &r));
	REQUIRE(run_until(reply_done, &r, 5000));
	CHECK_EQ(r.err, STORE_E_NOT_FOUND);
	free(r.body);
	close_store(st);
}

/* A save's outcome in its own slot: 0 not called yet, 1 archived, else the error; `calls` counts them. */
struct save_slot {
	int calls, err;
};

static void slot_cb(void *ctx, int err)
{
	struct save_slot *s = ctx;

	s->calls++;
	s->err = err ? err : 1;
}

static bool slots_done(const void *ctx)
{
	const struct save_slot *s = ctx;

	return s[0].calls && s[1].calls;
}

/*
 * Two rated matches of the same two players archived in one batch: the
 * second starts from the figures the first left (rated_seq order), as the
 * rebuild replays them. PostgreSQL reads every match's ratings in the first
 * half of the transaction, before any is written, so it must carry them
 * forward itself.
 */
static void test_rated_matches_in_one_batch(void)
{
	static const uint8_t place[2] = { 0, 1 };
	struct save_slot s[2] = { { 0 } };
	struct rating r[2] = { RATING_INIT, RATING_INIT };
	struct commits c = { 0 };
	struct store *st;
	char q[256];
	int k;

	REQUIRE((st = fresh_started(&c)));
	for (k = 0; k < 2; k++) {
		struct store_match *m = sample_match(k ? "rm2" : "rm1");

		store_live_room(st, m->id, "ur", "{}", "00", NULL,
				1 + k); /* a journal write: the saves join its batch */
		m->seats[1].player_id = strdup("p_bo");
		m->seats[1].bot = 0;
		m->rated = true;
		memcpy(m->place, place, sizeof(place));
		m->ended_at = 20 + k;
		store_match_save(st, m, slot_cb, &s[k]);
		REQUIRE(!rating_apply(2, r, place, 20 + k, r));
	}
	CHECK_EQ(store_journal_flush(st), 1); /* one batch, one transaction */
	REQUIRE(run_until(slots_done, s, 5000));
	CHECK_EQ(s[0].err, 1);
	CHECK_EQ(s[1].err, 1);
	CHECK_EQ(sql_int("SELECT max(rated_seq) FROM matches WHERE rated = 1"), 2);
	for (k = 0; k < 2; k++) {
		snprintf(q, sizeof(q),
			 "SELECT count(*) FROM ratings WHERE player_id = '%s' AND matches = 2 AND rating = "
			 "%.17g "
			 "AND rd = %.17g AND vol = %.17g",
			 k ? "p_bo" : "p_ana", r[k].rating, r[k].rd, r[k].vol);
		CHECK_EQ(sql_int(q), 1);
	}
	CHECK_EQ(sql_int("SELECT count(*) FROM rating_history"), 4);
	close_store(st);
}

/*
 * Archive saves queued while a batch is open are written in that batch's
 * transaction, after its writes, and answered with its commit: one commit for
 * all. A save refused for its own sake (a match id archived already) is given
 * up alone, the batch's other writes and saves commit. When the batch fails
 * its saves leave it for transactions of their own right after it (as they
 * were before batches carried them: a disk too full for an archive must not
 * hold the batch), and all go in, in order, once the database recovers.
 */
static void test_archive_saves_in_the_batch(void)
{
	struct save_slot s[2] = { { 0 } }, t[2] = { { 0 } };
	struct commits c = { 0 };
	struct store *st;

	REQUIRE((st = fresh_started(&c)));
	store_live_room(st, "m1", "ur", "{}", "00", NULL, 1);
	store_live_action(st, "m1", 0, 0, "{\"roll\":true}", "{\"value\":1}", 15, false);
	store_match_save(st, sample_match("m1"), slot_cb, &s[0]);
	store_live_room(st, "m2", "ur", "{}", "00", NULL, 2);     /* after the save, in the same batch */
	store_match_save(st, sample_match("m1"), slot_cb, &s[1]); /* archived already: refused */
	CHECK_EQ(store_queue_depth(st), 0);                       /* nothing handed over before the flush */
	CHECK_EQ(store_journal_flush(st), 1);
	CHECK_EQ(store_queue_depth(st), 3);
	REQUIRE(run_until(slots_done, s, 5000));
	CHECK_EQ(c.n, 1); /* one commit for the writes and the saves */
	CHECK_EQ(c.err[0], 0);
	CHECK_EQ(s[0].calls, 1);
	CHECK_EQ(s[0].err, 1);
	CHECK_EQ(s[1].calls, 1);
	CHECK(s[1].err < 0);
	CHECK_EQ(store_queue_depth(st), 0);
	CHECK_EQ(sql_int("SELECT count(*) FROM matches WHERE id = 'm1'"), 1);
	CHECK_EQ(sql_int("SELECT count(*) FROM live_rooms"), 1); /* m1 dropped by its save, m2 kept */
	CHECK_EQ(sql_int("SELECT count(*) FROM live_rooms WHERE id = 'm2'"), 1);

	/* the batch fails (SQLite rolls it back, as on some I/O errors): its saves wait with it, then go in
	 */
	REQUIRE(!fail_inserts("live_rooms"));
	store_live_room(st, "m3", "ur", "{}", "00", NULL, 3);
	store_match_save(st, sample_match("m3"), slot_cb, &t[0]);
	store_live_seat(st, "m2", 0, NULL, "seed", NULL);
	store_match_save(st, sample_match("m4"), slot_cb, &t[1]);
	CHECK_EQ(store_journal_flush(st), 2);
	REQUIRE(wait_commits(&c, 2));
	CHECK(c.err[1] < 0);
	run_until(never, NULL, 100);
	CHECK_EQ(t[0].calls + t[1].calls, 0);
	CHECK_EQ(sql_int("SELECT count(*) FROM matches"), 1); /* nothing half-written */
	CHECK_EQ(sql_int("SELECT count(*) FROM live_seats"), 0);
	REQUIRE(!fail_inserts_end("live_rooms"));
	REQUIRE(run_until(slots_done, t, 5000));
	CHECK_EQ(c.n, 3);
	CHECK_EQ(c.err[2], 0);
	CHECK_EQ(t[0].err, 1);
	CHECK_EQ(t[1].err, 1);
	CHECK_EQ(store_queue_depth(st), 0);
	close_store(st);
	CHECK_EQ(sql_int("SELECT count(*) FROM matches"), 3);
	CHECK_EQ(sql_int("SELECT count(*) FROM live_rooms"), 1); /* m3 written, then dropped by its save */
	CHECK_EQ(sql_int("SELECT count(*) FROM live_seats WHERE client_seed = 'seed'"), 1);
}

/*
 * The open batch's arrays grow and are reused from batch to batch: many
 * writes of many sizes (past the first capacities, texts up to 64 KiB, NULLs
 * between them) come back byte for byte.
 */
static void test_batch_texts_kept_whole(void)
{
	static char big[65537];
	struct commits c = { 0 };
	struct store *st;
	char id[32];
	int b, i, n = 0;

	REQUIRE((st = fresh_started(&c)));
	for (b = 0; b < 6; b++) {
		for (i = 0; i < 300; i++, n++) {
			size_t len = (size_t)(n * 7919) % (i % 50 ? 300 : sizeof(big));

			memset(big, 'a' + n % 26, len);
			big[len] = '\0';
			snprintf(id, sizeof(id), "room%d", n);
			store_live_room(st, id, "ur", big, n % 3 ? "00" : big, n % 2 ? NULL : id, n);
		}
		CHECK_EQ(store_journal_flush(st), b + 1);
		REQUIRE(wait_commits(&c, b + 1));
		CHECK_EQ(c.err[b], 0);
	}
	close_store(st);
	CHECK_EQ(sql_int("SELECT count(*) FROM live_rooms"), n);
	CHECK_EQ(sql_int("SELECT count(*) FROM live_rooms WHERE length(options) != (created_at * 7919) % "
			 "(CASE WHEN (created_at % 300) % 50 != 0 THEN 300 ELSE 65537 END)"),
		 0);
	CHECK_EQ(sql_int(pg ? "SELECT count(*) FROM live_rooms WHERE substr(options, 1, 1) != "
			      "chr(97 + (created_at % 26)::int) AND length(options) > 0"
			    : "SELECT count(*) FROM live_rooms WHERE substr(options, 1, 1) != "
			      "char(97 + created_at % 26) AND length(options) > 0"),
		 0);
	CHECK_EQ(
		sql_int("SELECT count(*) FROM live_rooms WHERE server_seed != (CASE WHEN created_at % 3 != 0 "
			"THEN '00' ELSE options END)"),
		0);
	CHECK_EQ(sql_int("SELECT count(*) FROM live_rooms WHERE (created_at % 2 = 1 AND creator_id IS NOT "
			 "NULL) OR (created_at % 2 = 0 AND creator_id != id)"),
		 0);
}

static void test_reads_answered_while_writer_is_held(void)
{
	struct reply r[20] = { { 0 } };
	struct commits c = { 0 };
	struct store *st;
	sqlite3 *other = NULL;
	int i, answered = 0;

	REQUIRE((st = fresh_started(&c)));
	saved = 0;
	store_match_save(st, sample_match("m1"), saved_cb, NULL);
	REQUIRE(run_until(saved_done, NULL, 5000));
	/* another writer holds the database (PostgreSQL: the table): our journal batch cannot commit */
	if (pg) {
		REQUIRE(!sql("BEGIN; LOCK TABLE live_rooms IN ACCESS EXCLUSIVE MODE"));
	} else {
		REQUIRE(sqlite3_open(dbpath, &other) == SQLITE_OK);
		REQUIRE(sqlite3_exec(other, "BEGIN IMMEDIATE", NULL, NULL, NULL) == SQLITE_OK);
	}
	store_live_room(st, "r", "ur", "{}", "00", NULL, 1);
	CHECK_EQ(store_journal_flush(st), 1);
	for (i = 0; i < 20; i++)
		CHECK(i % 2 ? store_match_get(st, "m1", read_cb, &r[i]) != NULL
			    : store_match_list(st, NULL, NULL, 0, 10, read_cb, &r[i]) != NULL);
	for (i = 0; i < 20; i++) {
		CHECK(run_until(reply_done, &r[i], 3000));
		answered += r[i].calls == 1 && r[i].err == 0 && r[i].body && strstr(r[i].body, "m1");
		free(r[i].body);
	}
	CHECK_EQ(answered, 20);
	CHECK_EQ(c.n, 0); /* the batch was still waiting on the writer's lock */
	if (pg) {
		CHECK(!sql("ROLLBACK"));
	} else {
		CHECK(sqlite3_exec(other, "ROLLBACK", NULL, NULL, NULL) == SQLITE_OK);
		sqlite3_close(other);
	}
	REQUIRE(wait_commits(&c, 1));
	CHECK_EQ(c.seq[c.n - 1], 1);
	CHECK_EQ(c.err[c.n - 1], 0);
	close_store(st);
	CHECK_EQ(sql_int("SELECT count(*) FROM live_rooms"), 1);
}

static void test_cancelled_reads_are_never_called(void)
{
	struct reply r = { 0 };
	struct store *st;
	struct store_req *q[3];

	CHECK(store_match_get(NULL, "m1", read_cb, &r) == NULL); /* not queued: NULL, never called */
	fresh_db();
	REQUIRE((st = open_store(migrations)));
	q[0] = store_match_get(st, "m1", read_cb, &r); /* queued before the threads start */
	REQUIRE(!store_start(st));
	q[1] = store_match_list(st, "ur", NULL, 0, 5, read_cb, &r);
	q[2] = store_match_get(st, "m2", read_cb, &r);
	CHECK(q[0] && q[1] && q[2]);
	store_req_cancel(q[0]);
	store_req_cancel(q[1]);
	usleep(100000); /* the reader has answered q[2]; the loop has not delivered it yet */
	store_req_cancel(q[2]);
	store_req_cancel(NULL);
	run_until(never, NULL, 50);
	CHECK_EQ(r.calls, 0);
	CHECK_EQ(store_queue_depth(st), 0);
	close_store(st);
}

/* A read cancelled while queued leaves the queue unrun; closing abandons the reads still queued (503). */
static void test_queued_reads_dropped_and_abandoned(void)
{
	struct reply r[3] = { 0 };
	struct store *st;
	struct store_req *q[3];
	int i;

	fresh_db();
	REQUIRE((st = open_store(migrations)));
	for (i = 0; i < 3; i++) /* the threads are not started: all three stay queued */
		REQUIRE((q[i] = store_match_get(st, "m1", read_cb, &r[i])));
	CHECK_EQ(store_queue_depth(st), 3);
	CHECK(store_req_cancel(q[1])); /* dropped unrun, freed now (ASan sees a double free otherwise) */
	CHECK_EQ(store_queue_depth(st), 2);
	close_store(st); /* never started: the reader abandons what is queued, answered STORE_E_CLOSED */
	for (i = 0; i < 3; i += 2) {
		CHECK_EQ(r[i].calls, 1);
		CHECK_EQ(r[i].err, STORE_E_CLOSED);
		CHECK(r[i].body && strstr(r[i].body, "stopping"));
		free(r[i].body);
	}
	CHECK_EQ(r[1].calls, 0);
}

/* --- start-up loads ------------------------------------------------------------ */

struct trace {
	char text[1024];
	const char *refuse_room; /* the room whose second action is refused */
	const char *room;
	const char *count_room; /* the room whose actions are counted, not written out */
	int counted, misplaced; /* its actions; those whose ply was not the next one */
};

static void add(struct trace *t, const char *line)
{
	size_t n = strlen(t->text);

	snprintf(t->text + n, sizeof(t->text) - n, "%s|", line);
}

static int t_room(void *ctx, const char *id, const char *game, const char *options, const char *seed,
		  const char *creator_id, int64_t created_at, int64_t started_at)
{
	struct trace *t = ctx;
	char line[64];

	t->room = id;
	snprintf(line, sizeof(line), "room %s %lld", id ? id : "?", (long long)started_at);
	add(t, line);
	return 0;
}

static int t_seat(void *ctx, int seat, const char *player_id, const char *client_seed, const char *bot_level)
{
	char line[64];

	snprintf(line, sizeof(line), "seat %d%s%s", seat, bot_level ? " " : "", bot_level ? bot_level : "");
	add(ctx, line);
	return 0;
}

static int t_action(void *ctx, int ply, int seat, const char *action, const char *outcome, int64_t at,
		    bool stand_in)
{
	struct trace *t = ctx;
	char line[64];

	if (t->refuse_room && !strcmp(t->room, t->refuse_room) && ply == 1)
		return -EINVAL;
	if (t->count_room && !strcmp(t->room, t->count_room)) {
		t->misplaced += ply != t->counted++ || at != 1000 + ply;
		return 0;
	}
	snprintf(line, sizeof(line), "A%d s%d @%lld", ply, seat, (long long)at);
	add(t, line);
	return 0;
}

static int t_event(void *ctx, int ply, int seat, int kind, int64_t at)
{
	char line[64];

	snprintf(line, sizeof(line), "E%d s%d k%d @%lld", ply, seat, kind, (long long)at);
	add(ctx, line);
	return 0;
}

static void t_end(void *ctx, int err)
{
	char line[32];

	snprintf(line, sizeof(line), "end %d", err);
	add(ctx, line);
}

static const struct store_live_ops trace_ops = {
	.on_room = t_room,
	.on_seat = t_seat,
	.on_action = t_action,
	.on_event = t_event,
	.on_room_end = t_end,
};

static void test_load_live_merges_by_ply(void)
{
	struct trace t = { .refuse_room = "q" };
	struct commits c = { 0 };
	struct store *st;
	int ply;

	REQUIRE((st = fresh_started(&c)));
	store_live_room(st, "r", "ur", "{}", "00", NULL, 1);
	store_live_room(st, "q", "ur", "{}", "00", NULL, 2);
	store_live_room(st, "z", "ur", "{}", "00", NULL, 3);
	store_live_seat(st, "r", 1, NULL, NULL, "greedy");
	store_live_seat(st, "r", 0, "p", "s", NULL);
	store_live_started(st, "r", 7);
	/* events written out of order with the actions: the load puts them by ply */
	store_live_event(st, "r", 4, 1, RULES_EVENT_FORFEIT, 99);
	store_live_event(st, "r", 2, 0, RULES_EVENT_RESIGN, 50);
	for (ply = 0; ply < 4; ply++) {
		store_live_action(st, "r", ply, ply % 2, "{}", "{}", 10 + ply, false);
		store_live_action(st, "q", ply, ply % 2, "{}", "{}", 20 + ply, false);
	}
	store_live_event(st, "r", 0, 1, RULES_EVENT_RESIGN, 9);
	store_live_event(st, "q", 3, 1, RULES_EVENT_RESIGN, 30);
	CHECK_EQ(store_journal_flush(st), 1);
	REQUIRE(wait_commits(&c, 1));
	close_store(st);
	REQUIRE((st = open_store(migrations)));
	CHECK_EQ(store_load_live(st, &trace_ops, &t), 0);
	CHECK(!strcmp(t.text,
		      "room r 7|seat 0|seat 1 greedy|E0 s1 k1 @9|A0 s0 @10|A1 s1 @11|E2 s0 k1 @50|A2 s0 @12|"
		      "A3 s1 @13|E4 s1 k2 @99|end 0|"
		      "room q 0|A0 s0 @20|end -22|"
		      "room z 0|end 0|"));
	printf("# %s\n", t.text);
	close_store(st);
}

/*
 * The log's sweep: a dropped room's rows and rows of no room are deleted from
 * the log's old end, a live room's old rows are copied forward (so its plies
 * are no longer in seq order), and the load still gives each room its own
 * actions by ply, none of another room's.
 */
static void test_log_swept_live_rows_kept(void)
{
	struct trace t = { .count_room = "big" };
	struct commits c = { 0 };
	struct store *st;
	int ply;

	REQUIRE((st = fresh_started(&c)));
	store_live_room(st, "a", "ur", "{}", "00", NULL, 1);
	store_live_room(st, "gone", "ur", "{}", "00", NULL, 2);
	store_live_room(st, "big", "ur", "{}", "00", NULL, 3);
	for (ply = 0; ply < 3; ply++) {
		store_live_action(st, "a", ply, ply % 2, "{}", "{}", 10 + ply, false);
		store_live_action(st, "gone", ply, ply % 2, "{}", "{}", 20 + ply, false);
	}
	store_live_drop(st, "gone");
	CHECK_EQ(store_journal_flush(st), 1);
	REQUIRE(wait_commits(&c, 1));
	CHECK_EQ(sql_int("SELECT count(*) FROM live_log"),
		 6); /* the dropped room's rows wait for the sweep */
	CHECK_EQ(sql_int("SELECT count(*) FROM live_actions"), 3);
	/* 20,000 rows of no room, older than the batch below: past the log's 16,384 rows kept */
	REQUIRE(!sql("WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 20000) "
		     "INSERT INTO live_log(room, ply, seat, action, outcome, at) "
		     "SELECT -1, i, 0, '{}', '{}', 0 FROM n"));
	/* sweeps 2 x 10,001 + 8 rows: every row before this batch and big's first four */
	for (ply = 0; ply < 10000; ply++)
		store_live_action(st, "big", ply, ply % 2, "{}", "{}", 1000 + ply, false);
	store_live_action(st, "a", 3, 1, "{}", "{}", 13, false);
	CHECK_EQ(store_journal_flush(st), 2);
	REQUIRE(wait_commits(&c, 2));
	CHECK_EQ(c.err[1], 0);
	close_store(st);
	CHECK_EQ(sql_int("SELECT count(*) FROM live_log"), 10004);
	CHECK_EQ(sql_int("SELECT count(*) FROM live_log WHERE room NOT IN (SELECT key FROM live_rooms)"), 0);
	/* room a's first three rows were copied after its fourth, big's first four after its last */
	CHECK_EQ(sql_int("SELECT ply FROM live_log WHERE room = (SELECT key FROM live_rooms WHERE id = 'a') "
			 "ORDER BY seq LIMIT 1"),
		 3);
	CHECK_EQ(
		sql_int("SELECT ply FROM live_log WHERE room = (SELECT key FROM live_rooms WHERE id = 'big') "
			"ORDER BY seq DESC LIMIT 1"),
		3);
	REQUIRE((st = open_store(migrations)));
	CHECK_EQ(store_load_live(st, &trace_ops, &t), 0);
	CHECK(!strcmp(t.text, "room a 0|A0 s0 @10|A1 s1 @11|A2 s0 @12|A3 s1 @13|end 0|room big 0|end 0|"));
	printf("# %s\n", t.text);
	CHECK_EQ(t.counted, 10000);
	CHECK_EQ(t.misplaced, 0);
	close_store(st);
}

/* --- migration 0004 ------------------------------------------------------------ */

static int make_database(const char *const *old, size_t n_old);

/*
 * A database as a server of revision 1 left it: migrations 0001-0003 applied
 * and recorded the way the runner does (the store of today cannot open it
 * without migrating: its statements need the new tables).
 */
static int make_old_database(void)
{
	static const char *old[] = { "0001_archive.sql", "0002_live_journal.sql", "0003_live_resign.sql" };

	return make_database(old, 3);
}

/* A database with the migrations `old` (0001 onwards) applied and recorded the way the runner does. */
static int make_database(const char *const *old, size_t n_old)
{
	char path[1024], line[256];
	size_t i;
	int r = sql("CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, "
		    "applied_at INTEGER NOT NULL)");

	for (i = 0; i < n_old && !r; i++) {
		FILE *f;
		char *text;
		long n;

		snprintf(path, sizeof(path), "%s/%s", migrations, old[i]);
		if (!(f = fopen(path, "rb")))
			return -1;
		fseek(f, 0, SEEK_END);
		n = ftell(f);
		rewind(f);
		text = calloc(1, (size_t)n + 1);
		r = !text || fread(text, 1, (size_t)n, f) != (size_t)n || sql(text);
		fclose(f);
		free(text);
		snprintf(line, sizeof(line), "INSERT INTO schema_migrations VALUES (%zu, '%s', 0)", i + 1,
			 old[i]);
		r = r || sql(line);
	}
	return r;
}

static void test_migration_0004_carries_resignations(void)
{
	struct trace t = { .room = NULL };
	struct store *st;

	fresh_db();
	REQUIRE(!make_old_database());
	REQUIRE(!sql("INSERT INTO live_rooms(id, game, options, server_seed, created_at, started_at, "
		     "resigned_seat, "
		     "resign_reason, ended_at) VALUES "
		     "('a', 'ur', '{}', '00', 100, 110, 1, 3, 500), ('b', 'ur', '{}', '00', 150, NULL, NULL, "
		     "NULL, "
		     "NULL), "
		     "('c', 'ur', '{}', '00', 160, 170, 0, 2, NULL);"
		     "INSERT INTO live_seats VALUES ('a', 0, NULL, NULL), ('a', 1, NULL, 'x');"
		     "INSERT INTO live_actions VALUES ('a', 0, 0, '{}', '{}', 200), ('a', 1, 1, '{}', '{}', "
		     "300);"));
	REQUIRE((st = open_store(migrations)));
	CHECK_EQ(store_load_live(st, &trace_ops, &t), 0);
	CHECK(!strcmp(t.text, "room a 110|seat 0|seat 1|A0 s0 @200|A1 s1 @300|E2 s1 k2 @500|end 0|"
			      "room b 0|end 0|"
			      "room c 170|E0 s0 k1 @160|end 0|"));
	printf("# %s\n", t.text);
	close_store(st);
	CHECK_EQ(sql_int("SELECT count(*) FROM pragma_table_info('live_rooms') WHERE name IN "
			 "('resigned_seat', 'resign_reason', 'ended_at')"),
		 0);
	CHECK_EQ(sql_int("SELECT count(*) FROM live_seats"), 2); /* the rebuild did not cascade */
	CHECK_EQ(sql_int("SELECT count(*) FROM live_actions"), 2);
	CHECK_EQ(sql_int("SELECT count(*) FROM schema_migrations WHERE version <= 4"),
		 4); /* later ones may follow */
}

/* --- migration 0010 ------------------------------------------------------------ */

/*
 * Live matches journalled by the server before 0010 (live_actions keyed by
 * room and ply, rows written in any order) come back after it, each room with
 * its own actions by ply and its events and seats, and go on being journalled.
 */
static void test_migration_0010_carries_live_matches(void)
{
	static const char *old[] = { "0001_archive.sql",        "0002_live_journal.sql",
				     "0003_live_resign.sql",    "0004_events.sql",
				     "0005_room_creator.sql",   "0006_bot_level.sql",
				     "0007_archive_browse.sql", "0008_player_expiry.sql",
				     "0009_stand_in.sql" };
	struct trace t = { .room = NULL };
	struct commits c = { 0 };
	struct store *st;

	fresh_db();
	REQUIRE(!make_database(old, 9));
	REQUIRE(!sql(
		"INSERT INTO live_rooms(id, game, options, server_seed, created_at, started_at, creator_id) "
		"VALUES ('b', 'ur', '{}', '00', 200, 210, 'p1'), ('a', 'ur', '{}', '00', 100, 110, NULL);"
		"INSERT INTO live_seats VALUES ('a', 1, NULL, NULL, 'greedy'), ('a', 0, 'p1', 'x', NULL);"
		"INSERT INTO live_actions VALUES ('b', 1, 1, '{}', '{}', 301, 0), ('a', 1, 1, '{}', '{}', "
		"201, 1), ('b', 0, 0, '{}', '{}', 300, 0), ('a', 0, 0, '{}', '{}', 200, 0), "
		"('a', 2, 0, '{}', '{}', 202, 0);"
		"INSERT INTO live_events VALUES ('a', 2, 1, 'resign', 250);"));
	REQUIRE((st = open_store(migrations)));
	CHECK_EQ(store_load_live(st, &trace_ops, &t), 0);
	CHECK(!strcmp(t.text,
		      "room a 110|seat 0|seat 1 greedy|A0 s0 @200|A1 s1 @201|E2 s1 k1 @250|A2 s0 @202|"
		      "end 0|room b 210|A0 s0 @300|A1 s1 @301|end 0|"));
	printf("# %s\n", t.text);
	store_on_commit(st, commit_cb, &c);
	REQUIRE(!store_start(st));
	store_live_action(st, "b", 2, 0, "{}", "{}", 302, false);
	CHECK_EQ(store_journal_flush(st), 1);
	REQUIRE(wait_commits(&c, 1));
	CHECK_EQ(c.err[0], 0);
	close_store(st);
	CHECK_EQ(sql_int("SELECT count(*) FROM live_actions WHERE room_id = 'b'"), 3);
	CHECK_EQ(sql_int("SELECT stand_in FROM live_actions WHERE room_id = 'a' AND ply = 1"), 1);
	CHECK_EQ(sql_int("SELECT count(*) FROM live_seats"), 2); /* the rebuild did not cascade */
	CHECK_EQ(sql_int("SELECT count(*) FROM live_rooms WHERE creator_id = 'p1'"), 1);
}

/* --- migration 0012 ------------------------------------------------------------ */

/* The ids of the matches listed in a GET /api/matches body, newest first ("m3 m1 "). */
static void listed_ids(const char *body, char *out, size_t size)
{
	json_t *j = body ? json_loads(body, 0, NULL) : NULL, *m;
	size_t i, n = 0;

	out[0] = '\0';
	json_array_foreach(json_object_get(j, "matches"), i, m)
	{
		n += (size_t)snprintf(out + n, n < size ? size - n : 0, "%s ",
				      json_string_value(json_object_get(m, "id")));
	}
	json_decref(j);
}

/* GET /api/matches?player=<player> on `st`: the ids listed. */
static void find_player(struct store *st, const char *player, char *out, size_t size)
{
	struct archive_query q = { .player = player, .limit = 20 };
	struct reply r = { 0 };

	out[0] = '\0';
	REQUIRE(store_match_find(st, &q, read_cb, &r));
	REQUIRE(run_until(reply_done, &r, 5000));
	CHECK_EQ(r.err, 0);
	listed_ids(r.body, out, size);
	free(r.body);
}

/*
 * Names archived before 0012 get their folded keys from the migration, names
 * archived after it from the writer, and the player filter finds both
 * whatever the case and the accents of the name asked for.
 */
static void test_migration_0012_folds_names(void)
{
	static const char *old[] = { "0001_archive.sql",        "0002_live_journal.sql",
				     "0003_live_resign.sql",    "0004_events.sql",
				     "0005_room_creator.sql",   "0006_bot_level.sql",
				     "0007_archive_browse.sql", "0008_player_expiry.sql",
				     "0009_stand_in.sql",       "0010_live_log.sql",
				     "0011_room_after.sql" };
	struct store_match *m;
	struct store *st;
	char ids[256];

	fresh_db();
	REQUIRE(!make_database(old, 11));
	/* m1: Ána (precomposed) and ANA; m2: Anabel and "A" + U+0301 + "na" (decomposed); m3: Łukasz, Zoë,
	 * ÉLODIE */
	REQUIRE(!sql(
		"INSERT INTO matches(seq, id, game, options, commit_hex, server_seed, client_seeds, result, "
		"server_version, started_at, ended_at) VALUES (1, 'm1', 'ur', '{}', '', '', '[]', '{}', '0', "
		"1, 2), (2, 'm2', 'ur', '{}', '', '', '[]', '{}', '0', 3, 4), (3, 'm3', 'quinteto', '{}', "
		"'', "
		"'', '[]', '{}', '0', 5, 6);"
		"INSERT INTO match_seats(match_seq, seat, role, name, bot, player_id, client_seed) VALUES "
		"(1, 0, 'light', '\xc3\x81na', 0, NULL, ''), (1, 1, 'dark', 'ANA', 0, NULL, ''), "
		"(2, 0, 'light', 'Anabel', 0, NULL, ''), (2, 1, 'dark', 'A\xcc\x81na', 0, NULL, ''), "
		"(3, 0, 'hunter', '\xc5\x81ukasz', 0, NULL, ''), (3, 1, 'hunter', 'Zo\xc3\xab', 0, NULL, "
		"''), "
		"(3, 5, 'arranger', '\xc3\x89LODIE', 0, NULL, '');"));
	REQUIRE((st = open_store(migrations)));
	CHECK_EQ(sql_int("SELECT count(*) FROM match_seats WHERE name_key = 'ana'"), 3);
	CHECK_EQ(sql_int("SELECT count(*) FROM match_seats WHERE name_key IN ('anabel', 'lukasz', 'zoe', "
			 "'elodie')"),
		 4);
	CHECK_EQ(sql_int("SELECT count(*) FROM match_seats WHERE name = 'ANA'"), 1); /* the name is kept */
	REQUIRE(!store_start(st));
	m = sample_match("m4"); /* archived after the migration: Ana (seat 0) and Bo */
	free(m->seats[0].name);
	m->seats[0].name = strdup("\xc3\xa1NA"); /* áNA */
	saved = 0;
	store_match_save(st, m, saved_cb, NULL);
	REQUIRE(run_until(saved_done, NULL, 5000));
	CHECK_EQ(saved, 1);
	find_player(st, "ana", ids, sizeof(ids));
	CHECK(!strcmp(ids, "m4 m2 m1 "));
	printf("# ana: %s\n", ids);
	find_player(st, "\xc3\x81NA", ids, sizeof(ids)); /* ÁNA */
	CHECK(!strcmp(ids, "m4 m2 m1 "));
	find_player(st, "lukasz", ids, sizeof(ids));
	CHECK(!strcmp(ids, "m3 "));
	find_player(st, "ZOE", ids, sizeof(ids));
	CHECK(!strcmp(ids, "m3 "));
	find_player(st, "\xc3\xa9lodie", ids, sizeof(ids)); /* élodie */
	CHECK(!strcmp(ids, "m3 "));
	find_player(st, "an", ids, sizeof(ids)); /* a key, not a prefix */
	CHECK(!strcmp(ids, ""));
	close_store(st);
}

/* --- identities --------------------------------------------------------------- */

/* A load's answer (store_player_load, store_ratings_load), copied out of the callback. */
struct loaded {
	int calls, err;
	struct store_identity who;
};

static void loaded_cb(void *ctx, int err, const struct store_identity *who)
{
	struct loaded *ld = ctx;

	ld->calls++;
	ld->err = err;
	store_identity_finish(&ld->who);
	ld->who = *who;
	ld->who.ratings = NULL;
	if (who->nratings && (ld->who.ratings = malloc(who->nratings * sizeof(*who->ratings))))
		memcpy(ld->who.ratings, who->ratings, who->nratings * sizeof(*who->ratings));
}

static bool loaded_done(const void *ctx)
{
	return ((const struct loaded *)ctx)->calls > 0;
}

/* A load on the lookup thread, waited for: its err (*ld its answer), or -1000 if it did not answer. */
static int load_wait(struct store *st, bool by_id, const char *arg, struct loaded *ld)
{
	memset(ld, 0, sizeof(*ld));
	if (!(by_id ? store_ratings_load(st, arg, loaded_cb, ld)
		    : store_player_load(st, arg, loaded_cb, ld)) ||
	    !run_until(loaded_done, ld, 10000))
		return -1000;
	return ld->err;
}

/* The identity of a token hash as a hello reads it (off the loop), into id, name and handle. */
static int lookup_account(struct store *st, const char *token_hash, char *id, size_t idlen, char *name,
			  size_t namelen, char *handle, size_t handlelen)
{
	struct loaded ld;
	int err = load_wait(st, false, token_hash, &ld);

	if (!err) {
		snprintf(id, idlen, "%s", ld.who.id);
		snprintf(name, namelen, "%.63s", ld.who.name);
		snprintf(handle, handlelen, "%.63s", ld.who.handle);
	}
	store_identity_finish(&ld.who);
	return err;
}

static int lookup(struct store *st, const char *token_hash, char *id, size_t idlen, char *name,
		  size_t namelen)
{
	char handle[64];

	return lookup_account(st, token_hash, id, idlen, name, namelen, handle, sizeof(handle));
}

/* The lookup thread's read by token hash finds what a committed batch wrote, not what is only queued. */
static void test_player_lookup(void)
{
	struct commits c = { 0 };
	struct store *st;
	char id[64] = "", name[64] = "";

	REQUIRE((st = fresh_started(&c)));
	store_player_save(st, "p_ana", "hash-ana", "Ana");
	CHECK_EQ(lookup(st, "hash-ana", id, sizeof(id), name, sizeof(name)), STORE_E_NOT_FOUND);
	CHECK_EQ(store_journal_flush(st), 1);
	REQUIRE(wait_commits(&c, 1));
	CHECK_EQ(lookup(st, "hash-ana", id, sizeof(id), name, sizeof(name)), 0);
	CHECK(!strcmp(id, "p_ana"));
	CHECK(!strcmp(name, "Ana"));
	CHECK_EQ(lookup(st, "hash-nobody", id, sizeof(id), name, sizeof(name)), STORE_E_NOT_FOUND);
	close_store(st);
}

/* Another writer holds the database (PostgreSQL: a table) and a journal batch waits behind it. */
static sqlite3 *held;

static void hold_writer(struct store *st)
{
	if (pg) {
		CHECK(!sql("BEGIN; LOCK TABLE live_rooms IN ACCESS EXCLUSIVE MODE"));
	} else {
		CHECK(sqlite3_open(dbpath, &held) == SQLITE_OK);
		CHECK(sqlite3_exec(held, "BEGIN IMMEDIATE", NULL, NULL, NULL) == SQLITE_OK);
	}
	store_live_room(st, "held", "ur", "{}", "00", NULL, 1);
	CHECK(store_journal_flush(st) > 0);
}

static void release_writer(struct store *st)
{
	if (pg) {
		CHECK(!sql("ROLLBACK"));
	} else {
		CHECK(sqlite3_exec(held, "ROLLBACK", NULL, NULL, NULL) == SQLITE_OK);
		sqlite3_close(held);
		held = NULL;
	}
}

/*
 * A hello's read brings the identity and its ratings together, on the lookup
 * thread, answered while the writer is held (it never waits behind the
 * journal); by session token or by id (store_ratings_load); start-up's
 * synchronous read agrees; a cancelled load is never answered, and one
 * queued when the store closes is answered STORE_E_CLOSED.
 */
static void test_identity_with_ratings(void)
{
	struct commits c = { 0 };
	struct store *st;
	struct store_identity who;
	struct loaded ld, gone = { 0 };
	struct store_req *req;

	REQUIRE((st = fresh_started(&c)));
	REQUIRE(!sql("INSERT INTO players(id, token_hash, name, created_at, seen_at) VALUES "
		     "('p_ana', 'claimed:p_ana', 'Ana', 1, 1), ('p_bo', 'hash-bo', 'Bo', 1, 1)"));
	REQUIRE(!sql(
		"INSERT INTO accounts(player_id, handle, handle_key, pw_hash, created_at, pw_changed_at) "
		"VALUES ('p_ana', 'Ana', 'ana', 'h', 1, 1)"));
	REQUIRE(!sql("INSERT INTO sessions(id, player_id, token_hash, device, created_at, seen_at) "
		     "VALUES ('s1', 'p_ana', 'hash-s1', '', 1, 1)"));
	REQUIRE(!sql(
		"INSERT INTO ratings(player_id, game, rating, rd, vol, matches, last_at) VALUES "
		"('p_ana', 'ur', 1612.625, 95.5, 0.06, 7, 5), ('p_ana', 'laquet', 1400.25, 80, 0.06, 2, 5)"));
	hold_writer(st); /* a journal batch out and waiting: the hellos' reads go on */
	CHECK_EQ(load_wait(st, false, "hash-s1", &ld), 0);
	CHECK(!strcmp(ld.who.id, "p_ana") && !strcmp(ld.who.name, "Ana") && !strcmp(ld.who.handle, "Ana"));
	REQUIRE(ld.who.nratings == 2 && ld.who.ratings);
	CHECK(!strcmp(ld.who.ratings[0].game, "laquet") && ld.who.ratings[0].rating == 1400.25);
	CHECK(!strcmp(ld.who.ratings[1].game, "ur") && ld.who.ratings[1].rating == 1612.625);
	CHECK(ld.who.ratings[1].rd == 95.5 && ld.who.ratings[1].matches == 7);
	store_identity_finish(&ld.who);
	CHECK_EQ(load_wait(st, false, "hash-bo", &ld), 0); /* a guest: no handle, no ratings */
	CHECK(!strcmp(ld.who.id, "p_bo") && !*ld.who.handle && ld.who.nratings == 0);
	CHECK_EQ(load_wait(st, true, "p_ana", &ld), 0);
	CHECK(!strcmp(ld.who.handle, "Ana") && ld.who.nratings == 2);
	store_identity_finish(&ld.who);
	CHECK_EQ(load_wait(st, true, "p_nobody", &ld), STORE_E_NOT_FOUND);
	CHECK_EQ(load_wait(st, false, "hash-nobody", &ld), STORE_E_NOT_FOUND);
	release_writer(st);
	/* start-up's read: the same answer, on the calling thread */
	CHECK_EQ(store_player_read(st, "claimed:p_ana", &who), 0);
	CHECK(!strcmp(who.id, "p_ana") && !strcmp(who.handle, "Ana") && who.nratings == 2);
	store_identity_finish(&who);
	CHECK_EQ(store_player_read(st, "hash-nobody", &who), STORE_E_NOT_FOUND);
	/* cancelled: never called */
	memset(&ld, 0, sizeof(ld));
	REQUIRE((req = store_player_load(st, "hash-s1", loaded_cb, &ld)));
	store_req_cancel(req);
	run_until(never, NULL, 200);
	CHECK_EQ(ld.calls, 0);
	/* queued as the store closes: answered, STORE_E_CLOSED or read */
	REQUIRE(store_player_load(st, "hash-s1", loaded_cb, &gone));
	close_store(st);
	CHECK_EQ(gone.calls, 1);
	CHECK(gone.err == STORE_E_CLOSED || gone.err == 0);
	store_identity_finish(&gone.who);
}

/* --- accounts ---------------------------------------------------------------------- */

static void acct_cb(void *ctx, struct store_acct *a)
{
	*(struct store_acct **)ctx = a;
}

static bool acct_done(const void *ctx)
{
	return *(struct store_acct *const *)ctx != NULL;
}

/* Submits `a` and waits for its answer; the answer (the same request), or NULL after 10 s. */
static struct store_acct *acct_run(struct store *st, struct store_acct *a)
{
	struct store_acct *got = NULL;

	a->cb = acct_cb;
	a->ctx = &got;
	store_acct_submit(st, a);
	return run_until(acct_done, &got, 10000) ? got : NULL;
}

static struct store_acct *acct_req(enum store_acct_kind kind, const char *player, const char *key,
				   const char *pw_hash, const char *token_hash, const char *session,
				   int64_t now)
{
	struct store_acct *a = store_acct_new(kind);

	if (!a)
		return NULL;
	snprintf(a->player_id, sizeof(a->player_id), "%s", player);
	snprintf(a->name, sizeof(a->name), "Ana");
	snprintf(a->handle, sizeof(a->handle), "Aná");
	snprintf(a->key, sizeof(a->key), "%s", key);
	snprintf(a->pw_hash, sizeof(a->pw_hash), "%s", pw_hash);
	snprintf(a->token_hash, sizeof(a->token_hash), "%s", token_hash);
	snprintf(a->session_id, sizeof(a->session_id), "%s", session);
	snprintf(a->device, sizeof(a->device), "dev");
	a->now = now;
	a->max_sessions = 1;
	return a;
}

/*
 * The account jobs on the writer: a claim of a guest whose save is still queued, a handle key taken,
 * a sign-in checked against the hash it read (stale otherwise) ending the sessions past the most,
 * the lookup by a session's token, a password change, the ratings read, a deletion.
 */
/* `quinteto account reset-password`'s store call, on a connection of its own (as the command opens one). */
static int reset_password(const char *key, int *ended)
{
	sqlite3 *db = NULL;
	PGconn *c = NULL;
	int err;

	if (pg)
		c = PQconnectdb(pg);
	else if (sqlite3_open_v2(dbpath, &db, SQLITE_OPEN_READWRITE, NULL) == SQLITE_OK)
		(void)sqlite3_busy_timeout(db, 5000);
	err = store_acct_reset_password(db, c, key, "h3", 3500, ended);
	sqlite3_close(db);
	PQfinish(c);
	return err;
}

#define HEX_A "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
#define HEX_B "bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb"

/* STORE_ACCT_CHECK of two token hashes (and one not ours, which is not asked); the answer, or NULL. */
static struct store_acct *acct_check(struct store *st, const char *h1, const char *h2)
{
	struct store_acct *a = store_acct_new(STORE_ACCT_CHECK);

	if (!a || !(a->check = calloc(3, sizeof(*a->check)))) {
		store_acct_free(a);
		return NULL;
	}
	snprintf(a->check[0], sizeof(a->check[0]), "%s", h1);
	snprintf(a->check[1], sizeof(a->check[1]), "%s", "not-a-hash\"]");
	snprintf(a->check[2], sizeof(a->check[2]), "%s", h2);
	a->ncheck = 3;
	return acct_run(st, a);
}

static void test_accounts(void)
{
	struct commits c = { 0 };
	int ended = -1;
	struct store *st;
	struct store_acct *a;
	char id[64] = "", name[64] = "", handle[64] = "";

	REQUIRE((st = fresh_started(&c)));
	store_player_save(st, "p_ana", "hash-ana", "Ana"); /* queued, not flushed: the claim goes after it */
	REQUIRE((a = acct_run(st, acct_req(STORE_ACCT_CLAIM, "p_ana", "ana", "h1", "hash-ana", "s1", 1000))));
	CHECK_EQ(a->err, 0);
	CHECK_EQ(a->nsessions, 1);
	CHECK(a->nsessions == 1 && !strcmp(a->sessions[0].token_hash, "hash-ana"));
	CHECK(!strcmp(a->handle, "Aná"));
	store_acct_free(a);
	CHECK_EQ(lookup_account(st, "hash-ana", id, sizeof(id), name, sizeof(name), handle, sizeof(handle)),
		 0);
	CHECK(!strcmp(id, "p_ana") && !strcmp(handle, "Aná"));
	/* the same guest claiming again (another tab, another handle): already claimed, not taken */
	REQUIRE((a = acct_run(st, acct_req(STORE_ACCT_CLAIM, "p_ana", "zed", "h2", "hash-ana", "s3", 1000))));
	CHECK_EQ(a->err, STORE_E_CLAIMED);
	store_acct_free(a);

	store_player_save(st, "p_bob", "hash-bob", "Bob");
	REQUIRE((a = acct_run(st, acct_req(STORE_ACCT_CLAIM, "p_bob", "ana", "h9", "hash-bob", "s9", 1000))));
	CHECK_EQ(a->err, STORE_E_TAKEN);
	store_acct_free(a);
	CHECK_EQ(lookup_account(st, "hash-bob", id, sizeof(id), name, sizeof(name), handle, sizeof(handle)),
		 0);
	CHECK(!strcmp(id, "p_bob") && !*handle); /* still a guest: nothing of the claim stayed */

	REQUIRE((a = acct_run(st, acct_req(STORE_ACCT_FIND, "", "ana", "", "", "", 0))));
	CHECK_EQ(a->err, 0);
	CHECK(!strcmp(a->player_id, "p_ana") && !strcmp(a->pw_hash, "h1") && !strcmp(a->name, "Ana"));
	store_acct_free(a);
	REQUIRE((a = acct_run(st, acct_req(STORE_ACCT_FIND, "", "nobody", "", "", "", 0))));
	CHECK_EQ(a->err, STORE_E_NOT_FOUND);
	store_acct_free(a);

	REQUIRE((a = acct_run(st,
			      acct_req(STORE_ACCT_SIGN_IN, "p_ana", "ana", "stale", "hash-2", "s2", 2000))));
	CHECK_EQ(a->err, STORE_E_STALE);
	store_acct_free(a);
	REQUIRE((a = acct_run(st, acct_req(STORE_ACCT_SIGN_IN, "p_ana", "ana", "h1", "hash-2", "s2", 2000))));
	CHECK_EQ(a->err, 0);
	CHECK(a->nended == 1 && !strcmp(a->ended[0], "hash-ana")); /* one session kept: the older ends */
	CHECK(a->nsessions == 1 && !strcmp(a->sessions[0].id, "s2"));
	store_acct_free(a);
	CHECK_EQ(lookup_account(st, "hash-ana", id, sizeof(id), name, sizeof(name), handle, sizeof(handle)),
		 STORE_E_NOT_FOUND);
	CHECK_EQ(lookup_account(st, "hash-2", id, sizeof(id), name, sizeof(name), handle, sizeof(handle)), 0);
	CHECK(!strcmp(id, "p_ana"));

	REQUIRE((a = acct_run(st, acct_req(STORE_ACCT_END, "p_ana", "ana", "", "hash-2", "s-nope", 0))));
	CHECK_EQ(a->err, STORE_E_NOT_FOUND);
	store_acct_free(a);
	REQUIRE((a = acct_run(st, acct_req(STORE_ACCT_PASSWORD, "p_ana", "ana", "h2", "hash-2", "", 3000))));
	CHECK_EQ(a->err, 0);
	CHECK_EQ(a->nended, 0);
	CHECK(!strcmp(a->pw_hash, "h2"));
	store_acct_free(a);

	CHECK_EQ(sql("INSERT INTO ratings(player_id, game, rating, rd, vol, matches, last_at) "
		     "VALUES ('p_ana', 'ur', 1612.6, 95.4, 0.06, 7, 5)"),
		 0);
	REQUIRE((a = acct_run(st, acct_req(STORE_ACCT_VIEW, "p_ana", "", "", "", "", 0))));
	CHECK_EQ(a->err, 0);
	CHECK(a->nratings == 1 && !strcmp(a->ratings[0].game, "ur") && a->ratings[0].matches == 7);
	CHECK(a->nratings == 1 && a->ratings[0].rating > 1612 && a->ratings[0].rating < 1613);
	store_acct_free(a);

	/* the periodic check: which of these token hashes are no session (only our hex hashes are asked) */
	REQUIRE(!sql("INSERT INTO sessions(id, player_id, token_hash, device, created_at, seen_at) VALUES "
		     "('s3', 'p_ana', '" HEX_A "', '', 1, 1)"));
	REQUIRE((a = acct_check(st, HEX_A, HEX_B)));
	CHECK_EQ(a->err, 0);
	CHECK(a->nended == 1 && !strcmp(a->ended[0], HEX_B));
	store_acct_free(a);

	/* the command line's reset, on a connection of its own beside the running store */
	CHECK_EQ(reset_password("nobody", &ended), STORE_E_NOT_FOUND);
	CHECK_EQ(reset_password("ana", &ended), 0);
	CHECK_EQ(ended, 2);
	CHECK_EQ(lookup_account(st, "hash-2", id, sizeof(id), name, sizeof(name), handle, sizeof(handle)),
		 STORE_E_NOT_FOUND);
	REQUIRE((a = acct_run(st, acct_req(STORE_ACCT_FIND, "", "ana", "", "", "", 0))));
	CHECK(!a->err && !strcmp(a->pw_hash, "h3"));
	store_acct_free(a);
	REQUIRE((a = acct_check(st, HEX_A, HEX_B)));
	CHECK(!a->err && a->nended == 2);
	store_acct_free(a);

	/* a request of a session ended meanwhile (here by the reset) changes nothing: STORE_E_SIGNED_OUT */
	REQUIRE((a = acct_run(st, acct_req(STORE_ACCT_PASSWORD, "p_ana", "ana", "h4", "hash-2", "", 3600))));
	CHECK_EQ(a->err, STORE_E_SIGNED_OUT);
	store_acct_free(a);
	REQUIRE((a = acct_run(st, acct_req(STORE_ACCT_VIEW, "p_ana", "ana", "", "hash-2", "", 0))));
	CHECK_EQ(a->err, STORE_E_SIGNED_OUT);
	store_acct_free(a);
	REQUIRE((a = acct_run(st, acct_req(STORE_ACCT_END, "p_ana", "ana", "", "hash-2", "s3", 0))));
	CHECK_EQ(a->err, STORE_E_SIGNED_OUT);
	store_acct_free(a);
	REQUIRE((a = acct_run(st, acct_req(STORE_ACCT_DELETE, "p_ana", "ana", "", "hash-2", "", 0))));
	CHECK_EQ(a->err, STORE_E_SIGNED_OUT);
	store_acct_free(a);
	CHECK_EQ(sql_int("SELECT count(*) FROM accounts WHERE player_id = 'p_ana' AND pw_hash = 'h3'"), 1);

	/* a seat in a live room (of any node: the store is their one view) refuses the deletion whole */
	REQUIRE(!sql("INSERT INTO live_rooms (id, game, options, server_seed, created_at) "
		     "VALUES ('seated', 'ur', '{}', '00', 1)"));
	REQUIRE(!sql("INSERT INTO live_seats (room_id, seat, player_id) VALUES ('seated', 0, 'p_ana')"));
	REQUIRE((a = acct_run(st, acct_req(STORE_ACCT_DELETE, "p_ana", "", "", "", "", 0))));
	CHECK_EQ(a->err, STORE_E_TAKEN);
	store_acct_free(a);
	CHECK_EQ(sql_int("SELECT count(*) FROM accounts WHERE player_id = 'p_ana'"), 1);
	REQUIRE(!sql("DELETE FROM live_rooms WHERE id = 'seated'"));
	REQUIRE(!sql("DELETE FROM live_seats WHERE room_id = 'seated'"));
	REQUIRE((a = acct_run(st, acct_req(STORE_ACCT_DELETE, "p_ana", "", "", "", "", 0))));
	CHECK_EQ(a->err, 0);
	CHECK_EQ(a->nended, 0);
	store_acct_free(a);
	REQUIRE((a = acct_run(st, acct_req(STORE_ACCT_VIEW, "p_ana", "", "", "", "", 0))));
	CHECK_EQ(a->err, STORE_E_NOT_FOUND);
	store_acct_free(a);
	REQUIRE((a = acct_run(st, acct_req(STORE_ACCT_CLAIM, "p_bob", "ana", "h9", "hash-bob", "s9", 4000))));
	CHECK_EQ(a->err, 0); /* the handle is free again */
	store_acct_free(a);
	close_store(st);
}

/* --- PostgreSQL's own ------------------------------------------------------------ */

/* Runs deploy/cluster/lib.sh's `fn` on tests/lib/with-pg.sh's PostgreSQL (pg_stop, pg_up). 0 or not. */
static int lib_sh(const char *fn)
{
	const char *dir = getenv("QUINTETO_TEST_PG_DIR");
	char cmd[2048];

	if (!dir) {
		printf("# $QUINTETO_TEST_PG_DIR is not set (tests/lib/with-pg.sh sets it)\n");
		return -1;
	}
	snprintf(cmd, sizeof(cmd),
		 "bash -c '. \"%s/../deploy/cluster/lib.sh\" && %s \"$0\" \"$(cat \"$0/pg/port\")\"' '%s'",
		 migrations, fn, dir);
	return system(cmd);
}

/* A room's log rows go with it (a cascade: PostgreSQL has no sweep to wait for). */
static void test_pg_dropped_room_takes_its_log(void)
{
	struct commits c = { 0 };
	struct store *st;

	REQUIRE((st = fresh_started(&c)));
	store_live_room(st, "a", "ur", "{}", "00", NULL, 1);
	store_live_room(st, "gone", "ur", "{}", "00", NULL, 2);
	for (int ply = 0; ply < 3; ply++) {
		store_live_action(st, "a", ply, ply % 2, "{}", "{}", 10 + ply, false);
		store_live_action(st, "gone", ply, ply % 2, "{}", "{}", 20 + ply, false);
	}
	CHECK_EQ(store_journal_flush(st), 1);
	store_live_drop(st, "gone");
	CHECK_EQ(store_journal_flush(st), 2);
	REQUIRE(wait_commits(&c, 2));
	close_store(st);
	CHECK_EQ(sql_int("SELECT count(*) FROM live_log"), 3);
	CHECK_EQ(sql_int("SELECT count(*) FROM live_actions WHERE room_id = 'a'"), 3);
}

/*
 * PostgreSQL stopped: the batch in flight fails once (-EIO, "cannot be
 * reached"), later ones wait behind it, identity lookups answer -EIO; started
 * again, the batch commits whole, once, and the ones behind it follow. Then,
 * stopped again, closing ends (logging the batch as lost) instead of waiting.
 * The last case: it leaves PostgreSQL stopped (with-pg.sh's stop is a no-op).
 */
static void test_pg_batch_survives_a_restart(void)
{
	struct commits c = { 0 };
	struct store *st;
	char id[64], name[64];
	int i, found;

	REQUIRE((st = fresh_started(&c)));
	store_live_room(st, "r", "ur", "{}", "00", NULL, 1);
	CHECK_EQ(store_journal_flush(st), 1);
	REQUIRE(wait_commits(&c, 1));
	REQUIRE(!lib_sh("pg_stop"));
	store_live_seat(st, "r", 0, NULL, "seed", NULL);
	store_live_action(st, "r", 0, 0, "{\"roll\":true}", "{}", 2, false);
	CHECK_EQ(store_journal_flush(st), 2);
	store_live_room(st, "r2", "ur", "{}", "00", NULL, 3);
	CHECK_EQ(store_journal_flush(st), 3);
	REQUIRE(wait_commits(&c, 2));
	CHECK_EQ(c.seq[1], 2);
	CHECK_EQ(c.err[1], -EIO);
	CHECK_EQ(store_failure(st), -EIO);
	CHECK(strstr(store_failure_text(store_failure(st)), "reached") != NULL);
	CHECK_EQ(lookup(st, "hash", id, sizeof(id), name, sizeof(name)), -EIO);
	run_until(never, NULL, 300); /* retries: still one failure call, batch 3 waits */
	CHECK_EQ(c.n, 2);
	REQUIRE(!lib_sh("pg_up"));
	REQUIRE(wait_commits(&c, 4));
	CHECK_EQ(c.seq[2], 2);
	CHECK_EQ(c.err[2], 0);
	CHECK_EQ(c.seq[3], 3);
	CHECK_EQ(c.err[3], 0);
	CHECK(!store_journal_failing(st));
	/* lookups connect again (after a failed connection they pause for STORE_PG_LOOKUP_PAUSE_MS) */
	for (i = 0; i < 100 && (found = lookup(st, "hash", id, sizeof(id), name, sizeof(name))) == -EIO; i++)
		run_until(never, NULL, 50);
	CHECK_EQ(found, STORE_E_NOT_FOUND);
	/* the readers' connections broke too: each reconnects before its next read */
	for (int lane = 0; lane < 2; lane++) {
		struct reply r = { 0 };

		REQUIRE(lane ? store_match_get(st, "nope", read_cb, &r)
			     : store_match_list(st, NULL, NULL, 0, 10, read_cb, &r));
		REQUIRE(run_until(reply_done, &r, 5000));
		CHECK_EQ(r.err, lane ? STORE_E_NOT_FOUND : 0);
		free(r.body);
	}
	CHECK_EQ(sql_int("SELECT count(*) FROM live_actions WHERE room_id = 'r' AND ply = 0"), 1);
	CHECK_EQ(sql_int("SELECT count(*) FROM live_seats WHERE client_seed = 'seed'"), 1);
	CHECK_EQ(sql_int("SELECT count(*) FROM live_rooms"), 2);

	REQUIRE(!lib_sh("pg_stop"));
	store_live_room(st, "lost", "ur", "{}", "00", NULL, 4);
	CHECK_EQ(store_journal_flush(st), 4);
	REQUIRE(wait_commits(&c, 5));
	CHECK(c.err[4] < 0);
	close_store(st); /* one last try, then logged as lost: it returns */
	CHECK_EQ(c.n, 5);
}

/*
 * A COMMIT that committed but whose answer was lost (the connection closed
 * right after it) is tried again and found in the ledger: called back once,
 * committed, applied once. The same for an archive save of its own.
 */
static void test_pg_lost_commit_answer_applied_once(void)
{
	struct commits c = { 0 };
	struct store *st;

	REQUIRE((st = fresh_started(&c)));
	store_live_room(st, "r", "ur", "{}", "00", NULL, 1);
	CHECK_EQ(store_journal_flush(st), 1);
	REQUIRE(wait_commits(&c, 1));
	store_pg_test_lose_commits = 1;
	store_live_action(st, "r", 0, 0, "{}", "{}", 5, false);
	store_live_event(st, "r", 1, 1, RULES_EVENT_RESIGN, 6);
	CHECK_EQ(store_journal_flush(st), 2);
	REQUIRE(wait_commits(&c, 2));
	run_until(never, NULL, 100);
	CHECK_EQ(c.n, 2);
	CHECK_EQ(c.seq[1], 2);
	CHECK_EQ(c.err[1], 0);
	CHECK_EQ(store_pg_test_lose_commits, 0); /* the answer was lost indeed */
	CHECK_EQ(sql_int("SELECT count(*) FROM live_log"), 1);
	CHECK_EQ(sql_int("SELECT count(*) FROM live_events"), 1);

	store_pg_test_lose_commits = 1;
	saved = 0;
	store_match_save(st, sample_match("r"), saved_cb, NULL); /* no batch open: a transaction of its own */
	REQUIRE(run_until(saved_done, NULL, 5000));
	CHECK_EQ(saved, 1);
	CHECK_EQ(store_pg_test_lose_commits, 0);
	close_store(st);
	CHECK_EQ(sql_int("SELECT count(*) FROM matches"), 1);
	CHECK_EQ(sql_int("SELECT count(*) FROM match_actions"), 1);
	CHECK_EQ(sql_int("SELECT count(*) FROM live_rooms"), 0);
}

/*
 * A server that stops answering (the writer's backend frozen with SIGSTOP, as
 * a network that hangs would look) holds the writer for the transaction's
 * deadline only: the connection is dropped and the batch written on a new
 * one. When the frozen backend wakes up with the old transaction still in its
 * input, its ledger row finds the retry's committed: applied once.
 */
static void test_pg_hung_server_bounded(void)
{
	struct commits c = { 0 };
	struct store *st;
	long long pid;
	char q[128];
	int i;

	REQUIRE((st = fresh_started(&c)));
	store_live_room(st, "r", "ur", "{}", "00", NULL, 1);
	CHECK_EQ(store_journal_flush(st), 1);
	REQUIRE(wait_commits(&c, 1));
	pid = sql_int("SELECT pid FROM pg_stat_activity WHERE application_name = 'quinteto-writer'");
	REQUIRE(pid > 0);
	store_pg_txn_ms = 300;
	REQUIRE(!kill((pid_t)pid, SIGSTOP));
	store_live_action(st, "r", 0, 0, "{}", "{}", 5, false);
	CHECK_EQ(store_journal_flush(st), 2);
	CHECK(wait_commits(&c, 2));
	CHECK_EQ(c.seq[1], 2);
	CHECK_EQ(c.err[1], 0); /* a connection lost once is replaced at once, quietly */
	CHECK(!kill((pid_t)pid, SIGCONT));
	run_until(never, NULL, 300); /* the old backend runs what it had been sent, and fails */
	store_pg_txn_ms = STORE_PG_TXN_MS;
	close_store(st);
	CHECK_EQ(c.n, 2);
	CHECK_EQ(sql_int("SELECT count(*) FROM live_log"), 1);
	snprintf(q, sizeof(q), "SELECT count(*) FROM pg_stat_activity WHERE pid = %lld", pid);
	for (i = 0; i < 50 && sql_int(q) != 0; i++) /* it ends, its client gone */
		usleep(20000);
	CHECK_EQ(sql_int(q), 0);
}

/* A started store of node `node` at lease epoch `epoch` (0: no fence) on the emptied database. */
static struct store *node_started(struct commits *c, const char *node, int64_t epoch)
{
	struct store *st = open_store(migrations);

	if (!st)
		return NULL;
	snprintf(st->node, sizeof(st->node), "%s", node);
	st->epoch = epoch;
	store_on_commit(st, commit_cb, c);
	return store_start(st) ? NULL : st;
}

/*
 * The fence: a node writes while its lease row has its epoch; once another
 * node took the lease over (the epoch moved on), its batches and the archive
 * saves in them fail STORE_E_FENCED, are never retried, and write nothing.
 */
static void test_pg_fenced_writes_nothing(void)
{
	struct commits c = { 0 };
	struct store *st;

	fresh_db();
	REQUIRE((st = node_started(&c, "n1", 5)));
	REQUIRE(!sql("INSERT INTO node_leases VALUES ('n1', 5, now() + interval '1 hour', NULL)"));
	store_live_room(st, "a", "ur", "{}", "00", NULL, 1);
	CHECK_EQ(store_journal_flush(st), 1);
	REQUIRE(wait_commits(&c, 1));
	CHECK_EQ(c.err[0], 0);
	CHECK_EQ(sql_int("SELECT count(*) FROM live_rooms WHERE node = 'n1'"), 1);
	REQUIRE(!sql("UPDATE node_leases SET epoch = 6, adopted_by = 'n2'"));
	store_live_room(st, "b", "ur", "{}", "00", NULL, 2);
	store_live_action(st, "a", 0, 0, "{}", "{}", 5, false);
	saved = 0;
	store_match_save(st, sample_match("a"), saved_cb, NULL); /* in the open batch */
	CHECK_EQ(store_journal_flush(st), 2);
	REQUIRE(wait_commits(&c, 2));
	CHECK_EQ(c.seq[1], 2);
	CHECK_EQ(c.err[1], STORE_E_FENCED);
	REQUIRE(run_until(saved_done, NULL, 5000));
	CHECK_EQ(saved, -1);
	store_live_room(st, "c", "ur", "{}", "00", NULL, 3);
	CHECK_EQ(store_journal_flush(st), 3);
	REQUIRE(wait_commits(&c, 3));
	CHECK_EQ(c.err[2], STORE_E_FENCED);
	run_until(never, NULL, 300); /* never retried: no further call */
	CHECK_EQ(c.n, 3);
	close_store(st);
	CHECK_EQ(sql_int("SELECT count(*) FROM live_rooms"), 1);
	CHECK_EQ(sql_int("SELECT count(*) FROM live_log"), 0);
	CHECK_EQ(sql_int("SELECT count(*) FROM matches"), 0);
}

/* A node loads its own rooms only; a single server those of no node. */
static void test_pg_node_loads_its_own_rooms(void)
{
	struct trace t = { .room = NULL }, u = { .room = NULL };
	struct commits c = { 0 };
	struct store *st;

	fresh_db();
	REQUIRE((st = node_started(&c, "n1", 0)));
	store_live_room(st, "x", "ur", "{}", "00", NULL, 1);
	store_live_seat(st, "x", 0, "p", "s", NULL);
	store_live_action(st, "x", 0, 0, "{}", "{}", 10, false);
	CHECK_EQ(store_journal_flush(st), 1);
	REQUIRE(wait_commits(&c, 1));
	close_store(st);
	REQUIRE(!sql("INSERT INTO live_rooms(id, game, options, server_seed, created_at, node) VALUES "
		     "('y', 'ur', '{}', '00', 2, 'n2'), ('z', 'ur', '{}', '00', 3, NULL);"
		     "INSERT INTO live_seats(room_id, seat) VALUES ('y', 0), ('z', 1)"));
	REQUIRE((st = open_store(migrations)));
	snprintf(st->node, sizeof(st->node), "n1");
	CHECK_EQ(store_load_live(st, &trace_ops, &t), 0);
	CHECK(!strcmp(t.text, "room x 0|seat 0|A0 s0 @10|end 0|"));
	printf("# n1: %s\n", t.text);
	close_store(st);
	REQUIRE((st = open_store(migrations)));
	CHECK_EQ(store_load_live(st, &trace_ops, &u), 0);
	CHECK(!strcmp(u.text, "room z 0|seat 1|end 0|"));
	printf("# single: %s\n", u.text);
	close_store(st);
}

int main(int argc, char **argv)
{
	if (argc < 2 || (argc > 2 && strcmp(argv[2], "--pg")) || argc > 4) {
		fprintf(stderr, "usage: %s MIGRATIONS_DIR [--pg [CONNINFO]]\n", argv[0]);
		return 2;
	}
	migrations = argv[1];
	if (argc > 2 && !(pg = argc > 3 ? argv[3] : getenv("QUINTETO_TEST_PG"))) {
		fprintf(stderr, "%s: --pg needs a CONNINFO or $QUINTETO_TEST_PG\n", argv[0]);
		return 2;
	}
	if (uv_loop_init(&loop))
		return 2;
	TEST(test_batches_commit_in_order_once);
	TEST(test_turns_gather_behind_a_batch_in_flight);
	TEST_SQLITE(test_wal_checkpointed_off_the_writer, "WAL checkpoints are SQLite's");
	TEST(test_failing_batch_is_retried_whole);
	TEST(test_close_gives_up_a_failing_batch);
	TEST(test_refused_write_is_skipped_not_retried);
	TEST(test_unknown_room_action_refused_alone);
	TEST(test_write_failing_outside_itself_is_retried);
	TEST(test_archive_keeps_events_and_order);
	TEST(test_archive_saves_in_the_batch);
	TEST(test_rated_matches_in_one_batch);
	TEST(test_batch_texts_kept_whole);
	TEST(test_reads_answered_while_writer_is_held);
	TEST(test_cancelled_reads_are_never_called);
	TEST(test_queued_reads_dropped_and_abandoned);
	TEST(test_load_live_merges_by_ply);
	TEST(test_player_lookup);
	TEST(test_identity_with_ratings);
	TEST(test_accounts);
	TEST_SQLITE(test_log_swept_live_rows_kept, "the log's sweep is SQLite's (a cascade on PostgreSQL)");
	TEST_SQLITE(test_migration_0004_carries_resignations, "a migration of SQLite's");
	TEST_SQLITE(test_migration_0010_carries_live_matches, "a migration of SQLite's");
	TEST_SQLITE(test_migration_0012_folds_names, "a migration of SQLite's");
	TEST_PG(test_pg_dropped_room_takes_its_log);
	TEST_PG(test_pg_lost_commit_answer_applied_once);
	TEST_PG(test_pg_fenced_writes_nothing);
	TEST_PG(test_pg_node_loads_its_own_rooms);
	TEST_PG(test_pg_hung_server_bounded);
	TEST_PG(test_pg_batch_survives_a_restart); /* the last: it leaves PostgreSQL stopped */
	PQfinish(pg_admin);
	if (uv_loop_close(&loop))
		printf("# the loop closed with handles open\n");
	return tap_done();
}
