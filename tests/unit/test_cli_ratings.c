/*
 * test_cli_ratings.c: `quinteto ratings rebuild [--check]` (argv[1] the built
 * tool, argv[2] the migrations) on a database built by the migrations the
 * server runs, holding real matches (played by the rules core, archived as
 * the server's writer archives them): four rated (three of Ur, one Quinteto
 * of six accounts), one casual, and a player whose account was deleted.
 * The rebuild must write rows for accounts only, with the figures that
 * rating_apply() gives when the same matches are applied by hand here; then
 * --check must say identical (0), and exit 1 naming the row once a stored
 * rating is off by one bit or a history row is missing; a rated match that
 * does not replay to its recorded result is exit 2, named, nothing written.
 */
#include <libpq-fe.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "archive_rows.h"
#include "match_fixture.h"
#include "rating/rating.h"
#include "store/store_int.h"
#include "tap.h"

#define T0  1700000000000LL
#define DAY 86400000LL

static const char *cli, *migrations;
static PGconn *pg; /* with --pg: the same on PostgreSQL (QUINTETO_TEST_PG), the command given --postgres */
static char dir[] = "/tmp/quinteto-ratings-XXXXXX";
static char dbpath[300];

/* Runs `quinteto --db DB ARGS`; the exit status, output (stdout and stderr) in out. */
static int run_db(const char *args, char *out, size_t outlen)
{
	char line[1024];
	size_t n = 0;
	FILE *p;
	int st;

	if (pg)
		snprintf(line, sizeof(line), "'%s' %s --postgres '%s' 2>&1", cli, args,
			 getenv("QUINTETO_TEST_PG"));
	else
		snprintf(line, sizeof(line), "'%s' --db '%s' %s 2>&1", cli, dbpath, args);
	p = popen(line, "r");
	if (!p)
		return -1;
	out[0] = '\0';
	while (n + 1 < outlen && fgets(out + n, (int)(outlen - n), p))
		n += strlen(out + n);
	while (fgets(line, sizeof(line), p))
		; /* drain */
	st = pclose(p);
	printf("# quinteto %s -> %d: %s", args, WIFEXITED(st) ? WEXITSTATUS(st) : -1, out);
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* Runs `text` on SQLite's `db`, or on PostgreSQL with --pg; 0 or non-zero (said). */
static int sql(sqlite3 *db, const char *text)
{
	PGresult *r;
	int rc;

	if (pg) {
		r = PQexec(pg, text);
		rc = PQresultStatus(r) == PGRES_COMMAND_OK || PQresultStatus(r) == PGRES_TUPLES_OK ? 0 : 1;
		if (rc)
			printf("# sql: %s: %s", text, PQresultErrorMessage(r));
		PQclear(r);
		return rc;
	}
	rc = sqlite3_exec(db, text, NULL, NULL, NULL);
	if (rc != SQLITE_OK)
		printf("# sql: %s: %s\n", text, sqlite3_errmsg(db));
	return rc;
}

/* archive_rows' exec: `text` on SQLite's `db` (ctx), or on PostgreSQL with --pg. */
static int exec_cb(void *ctx, const char *text)
{
	return sql(ctx, text);
}

/* Archives `j` as the server's writer does, seat i held by players[i], rated as rated_seq (0: casual). */
static int insert(sqlite3 *db, json_t *j, const char *const *players, int rated_seq, int64_t ended_at)
{
	const struct archive_rows o = { exec_cb, db, pg != NULL, players, rated_seq };

	json_object_set_new(j, "started_at", json_integer(ended_at - DAY));
	json_object_set_new(j, "ended_at", json_integer(ended_at));
	return archive_rows_insert(j, &o);
}

/*
 * The matches: rated 1 (Ur, a vs b, day 0), 2 (Ur, b vs c, day 1, b resigns),
 * a casual Ur (a vs c, day 2), 3 (Quinteto a..f, day 20; f's account is
 * deleted), 4 (Ur, e vs a, day 60: idle weeks for a).
 */
static json_t *ur[4], *qt;
static const char *const ab[2] = { "pa", "pb" }, *const bc[2] = { "pb", "pc" }, *const ac[2] = { "pa", "pc" },
			 *const ea[2] = { "pe", "pa" },
			 *const six[6] = { "pa", "pb", "pc", "pd", "pe", "pf" };

static int build_db(void)
{
	sqlite3 *db;
	int rc;

	snprintf(dbpath, sizeof(dbpath), "%s/q.db", dir);
	if (pg) {
		char path[1024];

		db = NULL;
		snprintf(path, sizeof(path), "%s/postgres", migrations);
		rc = store_pg_migrate(pg, path); /* the store's own runner */
	} else {
		rc = archive_rows_sqlite_open(dbpath, migrations, &db);
	}
	rc = rc ? rc : sql(db, "BEGIN"); /* one commit, not thousands of fsyncs */
	for (int k = 0; !rc && k < 6; k++) {
		char *q = sqlite3_mprintf("INSERT INTO players(id, token_hash, name, created_at) VALUES "
					  "('p%c', 'claimed:p%c', 'P%c', %lld)",
					  'a' + k, 'a' + k, 'A' + k, (long long)T0);

		rc = sql(db, q);
		sqlite3_free(q);
		/* pf's account was deleted: its players row stays, its accounts row is gone */
		q = k == 5 ? NULL
			   : sqlite3_mprintf(
				     "INSERT INTO accounts VALUES ('p%c', 'H%c', 'h%c', 'x', %lld, %lld)",
				     'a' + k, 'a' + k, 'a' + k, (long long)T0, (long long)T0);
		rc = rc || !q ? rc : sql(db, q);
		sqlite3_free(q);
	}
	for (int k = 0; k < 4; k++) {
		char id[8];

		ur[k] = fixture_archive("ur", 21 + (uint32_t)k, k == 1 ? 30 : -1, 0);
		snprintf(id, sizeof(id), "u%d", k);
		json_object_set_new(ur[k], "id", json_string(id));
	}
	qt = NULL;
	for (uint32_t salt = 1; !qt && salt < 20; salt++) {
		qt = fixture_archive("quinteto", salt, -1, 0);
		if (json_is_null(json_object_get(qt, "result"))) /* not over within the fixture's plies */
			json_decref(qt), qt = NULL;
	}
	if (!qt)
		return -1;
	json_object_set_new(qt, "id", json_string("q1"));
	rc = rc ? rc : insert(db, ur[0], ab, 1, T0);
	rc = rc ? rc : insert(db, ur[1], bc, 2, T0 + DAY);
	rc = rc ? rc : insert(db, ur[2], ac, 0, T0 + 2 * DAY);
	rc = rc ? rc : insert(db, qt, six, 3, T0 + 20 * DAY);
	rc = rc ? rc : insert(db, ur[3], ea, 4, T0 + 60 * DAY);
	rc = rc ? rc : sql(db, "COMMIT");
	rc = rc || pg ? rc : sql(db, "PRAGMA journal_mode=WAL"); /* as the server runs it */
	sqlite3_close(db);
	return rc;
}

/* Runs SQL against the test database (tampering with it as someone with write access could). */
static void db_sql(const char *text)
{
	sqlite3 *db;

	if (pg)
		CHECK_EQ(sql(NULL, text), 0);
	else if (sqlite3_open(dbpath, &db) == SQLITE_OK) {
		CHECK_EQ(sql(db, text), SQLITE_OK);
		sqlite3_close(db);
	}
}

/* One integer from the test database; -1 when there is none. */
static long long db_int(const char *text)
{
	sqlite3 *db;
	sqlite3_stmt *s = NULL;
	long long v = -1;

	if (pg) {
		PGresult *r = PQexec(pg, text);

		if (PQresultStatus(r) == PGRES_TUPLES_OK && PQntuples(r) > 0)
			v = strtoll(PQgetvalue(r, 0, 0), NULL, 10);
		PQclear(r);
		return v;
	}
	if (sqlite3_open(dbpath, &db) != SQLITE_OK)
		return -1;
	if (sqlite3_prepare_v2(db, text, -1, &s, NULL) == SQLITE_OK && sqlite3_step(s) == SQLITE_ROW)
		v = sqlite3_column_int64(s, 0);
	sqlite3_finalize(s);
	sqlite3_close(db);
	return v;
}

/* A stored rating of the test database into *r; false when there is none. */
static bool db_rating(const char *player, const char *game, struct rating *r)
{
	sqlite3 *db;
	sqlite3_stmt *s = NULL;
	bool found = false;

	if (pg) {
		const char *v[2] = { player, game };
		PGresult *x = PQexecParams(pg,
					   "SELECT rating, rd, vol, matches, last_at FROM ratings WHERE "
					   "player_id = $1 AND game = $2",
					   2, NULL, v, NULL, NULL, 0);

		if (PQresultStatus(x) == PGRES_TUPLES_OK && PQntuples(x) == 1) {
			*r = (struct rating){ strtod(PQgetvalue(x, 0, 0), NULL),
					      strtod(PQgetvalue(x, 0, 1), NULL),
					      strtod(PQgetvalue(x, 0, 2), NULL),
					      (int32_t)strtol(PQgetvalue(x, 0, 3), NULL, 10),
					      strtoll(PQgetvalue(x, 0, 4), NULL, 10) };
			found = true;
		}
		PQclear(x);
		return found;
	}
	if (sqlite3_open(dbpath, &db) != SQLITE_OK)
		return false;
	if (sqlite3_prepare_v2(
		    db,
		    "SELECT rating, rd, vol, matches, last_at FROM ratings WHERE player_id = ? AND "
		    "game = ?",
		    -1, &s, NULL) == SQLITE_OK &&
	    sqlite3_bind_text(s, 1, player, -1, SQLITE_STATIC) == SQLITE_OK &&
	    sqlite3_bind_text(s, 2, game, -1, SQLITE_STATIC) == SQLITE_OK && sqlite3_step(s) == SQLITE_ROW) {
		*r = (struct rating){ sqlite3_column_double(s, 0), sqlite3_column_double(s, 1),
				      sqlite3_column_double(s, 2), sqlite3_column_int(s, 3),
				      sqlite3_column_int64(s, 4) };
		found = true;
	}
	sqlite3_finalize(s);
	sqlite3_close(db);
	return found;
}

/* The standing of a two-seat archive from its recorded result (the default rule). */
static void ur_place(const json_t *j, uint8_t place[2])
{
	const json_t *w = json_object_get(json_object_get(j, "result"), "winner");

	place[0] = place[1] = 0;
	if (json_is_integer(w))
		place[1 - json_integer_value(w)] = 1;
}

static bool same_bits(const struct rating *a, const struct rating *b)
{
	return memcmp(&a->rating, &b->rating, 3 * sizeof(double)) == 0 && a->matches == b->matches &&
	       a->last_at == b->last_at;
}

static void test_rebuild(void)
{
	static char out[1 << 16];
	struct rating a = RATING_INIT, b = RATING_INIT, c = RATING_INIT, e = RATING_INIT, two[2], got;
	uint8_t place[2];

	CHECK_EQ(run_db("ratings rebuild", out, sizeof(out)), 0);
	CHECK(strstr(out, "rebuilt: 9 ratings and 11 history rows") ==
	      out); /* ur: pa..pc, pe; quinteto: pa..pe */
	CHECK(strstr(out, " from 4 rated matches") != NULL);
	/* rows for accounts only: pf (deleted) has none, though its match counted */
	CHECK_EQ(db_int("SELECT count(*) FROM ratings WHERE player_id = 'pf'"), 0);
	CHECK_EQ(db_int("SELECT count(*) FROM rating_history WHERE player_id = 'pf'"), 0);
	CHECK_EQ(db_int("SELECT count(*) FROM ratings WHERE game = 'quinteto'"), 5);
	CHECK_EQ(db_int("SELECT count(*) FROM rating_history"), 3 * 2 + 5);
	CHECK_EQ(db_int("SELECT count(*) FROM rating_history WHERE game = 'ur'"), 6);
	/* Ur by hand, in rated_seq order; the casual match counts for nobody */
	ur_place(ur[0], place);
	two[0] = a, two[1] = b;
	REQUIRE(rating_apply(2, two, place, T0, two) == 0);
	a = two[0], b = two[1];
	ur_place(ur[1], place);
	CHECK(place[0] == 1 && place[1] == 0); /* b resigned (seat 0): c first */
	two[0] = b, two[1] = c;
	REQUIRE(rating_apply(2, two, place, T0 + DAY, two) == 0);
	b = two[0], c = two[1];
	ur_place(ur[3], place);
	two[0] = e, two[1] = a;
	REQUIRE(rating_apply(2, two, place, T0 + 60 * DAY, two) == 0);
	e = two[0], a = two[1];
	CHECK(db_rating("pa", "ur", &got) && same_bits(&got, &a) && got.matches == 2);
	CHECK(db_rating("pb", "ur", &got) && same_bits(&got, &b));
	CHECK(db_rating("pc", "ur", &got) && same_bits(&got, &c));
	CHECK(db_rating("pe", "ur", &got) && same_bits(&got, &e));
	printf("# pa in ur: %.6f / %.6f / %.8f after %d matches\n", a.rating, a.rd, a.vol, a.matches);
	CHECK_EQ(db_int("SELECT count(*) FROM rating_history WHERE player_id = 'pa' AND game = 'ur' AND "
			"rated_seq = 4 AND match_seq = 5"),
		 1);
	/* identical */
	CHECK_EQ(run_db("ratings rebuild --check", out, sizeof(out)), 0);
	CHECK(strstr(out, "identical: 9 ratings and 11 history rows are what 4 rated matches give") == out);
}

/* Each command is a sanitized process (about 0.3 s here): the cases share runs where they can. */
static void test_check_finds_tampering(void)
{
	static char out[1 << 16];
	long long sum = db_int("SELECT sum(rating) * 1000 + count(*) FROM ratings");

	/* one bit of one double: --check names the row, a rebuild puts it right */
	db_sql("UPDATE ratings SET rd = rd * (1 + 1e-15) WHERE player_id = 'pb' AND game = 'quinteto'");
	CHECK_EQ(run_db("ratings rebuild --check", out, sizeof(out)), 1);
	CHECK(strstr(out,
		     "DIFFERENT: ratings: the first row that differs\n  stored  : player pb game quinteto") ==
	      out);
	CHECK(strstr(out, "\n  computed: player pb game quinteto") != NULL);
	CHECK_EQ(run_db("ratings rebuild", out, sizeof(out)), 0);
	/* a history row gone */
	db_sql("DELETE FROM rating_history WHERE player_id = 'pc' AND rated_seq = 3");
	CHECK_EQ(run_db("ratings rebuild --check", out, sizeof(out)), 1);
	CHECK(strstr(out, "DIFFERENT: rating_history: the first row that differs\n  stored  : no such row\n"
			  "  computed: player pc game quinteto rated_seq 3 match_seq 4 ") == out);
	/* a row for a deleted account (ratings are compared first) */
	db_sql("INSERT INTO ratings VALUES ('pf', 'quinteto', 1500, 350, 0.06, 1, 1)");
	CHECK_EQ(run_db("ratings rebuild --check", out, sizeof(out)), 1);
	CHECK(strstr(out,
		     "DIFFERENT: ratings: the first row that differs\n  stored  : player pf game quinteto") ==
	      out);
	CHECK(strstr(out, "computed: no such row") != NULL);
	CHECK_EQ(run_db("ratings rebuild", out, sizeof(out)), 0);
	/* a history row's value: both rows named */
	db_sql("UPDATE rating_history SET match_seq = 1 WHERE player_id = 'pa' AND game = 'ur' AND rated_seq "
	       "= 4");
	CHECK_EQ(run_db("ratings rebuild --check", out, sizeof(out)), 1);
	CHECK(strstr(out,
		     "DIFFERENT: rating_history: the first row that differs\n  stored  : player pa game ur "
		     "rated_seq 4 match_seq 1 ") == out);
	CHECK(strstr(out, "\n  computed: player pa game ur rated_seq 4 match_seq 5 ") != NULL);
	CHECK_EQ(run_db("ratings rebuild", out, sizeof(out)), 0);
	CHECK_EQ(db_int("SELECT count(*) FROM ratings WHERE player_id = 'pf'"), 0);
	CHECK_EQ(db_int("SELECT count(*) FROM rating_history"), 11);
	CHECK_EQ(db_int("SELECT sum(rating) * 1000 + count(*) FROM ratings"), sum);
}

/* A rated match whose record no longer replays to its result: exit 2, named; nothing written. */
static void test_unreplayable_match(void)
{
	static char out[1 << 16];
	long long before = db_int("SELECT count(*) FROM ratings");

	db_sql("UPDATE matches SET result = CASE WHEN result LIKE '%\"winner\":1%' "
	       "THEN replace(result, '\"winner\":1', '\"winner\":0') "
	       "ELSE replace(result, '\"winner\":0', '\"winner\":1') END WHERE id = 'u1'");
	db_sql("DELETE FROM ratings WHERE player_id = 'pa'");
	CHECK_EQ(run_db("ratings rebuild", out, sizeof(out)), 2);
	CHECK(strstr(out, "quinteto ratings: rated match u1 does not replay to its recorded result: ") ==
	      out);
	CHECK_EQ(db_int("SELECT count(*) FROM ratings"), before - 2); /* untouched: pa's rows still gone */
	CHECK_EQ(run_db("ratings rebuild --fast", out, sizeof(out)), 2);
	CHECK(strstr(out, "usage: quinteto [--db PATH] ratings rebuild [--check]") == out);
}

int main(int argc, char **argv)
{
	if (argc < 3) {
		printf("usage: test_cli_ratings QUINTETO MIGRATIONS\n");
		return 2;
	}
	cli = argv[1];
	migrations = argv[2];
	if (argc > 3 && strcmp(argv[3], "--pg") == 0) {
		pg = PQconnectdb(getenv("QUINTETO_TEST_PG") ? getenv("QUINTETO_TEST_PG") : "");
		if (PQstatus(pg) != CONNECTION_OK) {
			printf("Bail out! PostgreSQL: %s", PQerrorMessage(pg));
			PQfinish(pg);
			return 1;
		}
		PQclear(PQexec(pg, "SET client_min_messages = warning"));
	}
	if (!mkdtemp(dir) || build_db() != 0) {
		printf("Bail out! cannot build the test database in %s\n", dir);
		return 1;
	}
	TEST(test_rebuild);
	TEST(test_check_finds_tampering);
	TEST(test_unreplayable_match);
	for (int k = 0; k < 4; k++)
		json_decref(ur[k]);
	json_decref(qt);
	PQfinish(pg);
	{
		char cmd[400];

		snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
		if (system(cmd) != 0)
			printf("# could not remove %s\n", dir);
	}
	return tap_done();
}
