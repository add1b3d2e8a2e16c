/*
 * test_cli.c: the `quinteto` command (argv[1] is the built tool; argv[2] the
 * migrations) on archives of a real Ur match in which Light resigns at ply 40,
 * as files and in a database built by the migrations the server runs.
 * verify must pass an intact record with the event replayed at its ply, and
 * exit 1 with a message naming the ply for each tampering (an action, an
 * outcome, the event's seat, ply or presence, the server seed, the result),
 * from a file or from the database; 2 for what is no archive or no match.
 * matches, export, verify --all, show and backup are checked on the database.
 */
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "archive_rows.h"
#include "match_fixture.h"
#include "tap.h"

static const char *cli, *migrations;
static char dir[] = "/tmp/quinteto-cli-XXXXXX";
static char dbpath[300];

/* Runs `quinteto ARGS` on `j` written to a file; returns the exit status, output in out. */
static int run(const char *cmd, const json_t *j, char *out, size_t outlen)
{
	char path[256], line[1024];
	size_t n = 0;
	FILE *p;
	int st;

	snprintf(path, sizeof(path), "%s/archive.json", dir);
	if (json_dump_file(j, path, JSON_COMPACT) != 0)
		return -1;
	snprintf(line, sizeof(line), "'%s' %s --file '%s' 2>&1", cli, cmd, path);
	p = popen(line, "r");
	if (!p)
		return -1;
	out[0] = '\0';
	while (n + 1 < outlen && fgets(out + n, (int)(outlen - n), p))
		n += strlen(out + n);
	while (fgets(line, sizeof(line), p))
		; /* drain */
	st = pclose(p);
	unlink(path);
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static json_t *archive(void)
{
	return fixture_archive("ur", 11, 40, 0);
}

static void test_verify_resigned(void)
{
	static char out[1 << 16];
	json_t *j = archive();

	REQUIRE(j);
	CHECK_EQ(run("verify", j, out, sizeof(out)), 0);
	CHECK(strstr(out, "verified: ur match fixture1, 40 actions, 1 events, "
			  "result {\"reason\":\"resign\",\"winner\":1}") == out);
	printf("# %s", out);
	CHECK_EQ(run("replay", j, out, sizeof(out)), 0);
	CHECK(strstr(out, "ply   40  seat 0 light    Ana              event resign\n") != NULL);
	CHECK(strstr(out, "ply   39  seat ") != NULL);
	CHECK(strstr(out, "ply   39  seat ") < strstr(out, "event resign"));
	json_decref(j);
}

/* Tampers with a copy; the tool must exit 1 naming `ply`. */
static void expect_mismatch(const char *what, const char *key, json_t *value, const char *ply)
{
	static char out[1 << 16];
	json_t *j = archive(), *ev;

	if (!j)
		return;
	ev = json_array_get(json_object_get(j, "events"), 0);
	if (key)
		json_object_set_new(ev, key, value);
	else
		json_array_clear(json_object_get(j, "events"));
	CHECK_EQ(run("verify", j, out, sizeof(out)), 1);
	CHECK(strstr(out, "MISMATCH: ur match fixture1: ") == out);
	CHECK(strstr(out, ply) != NULL);
	printf("# %s: %s", what, out);
	json_decref(j);
}

static void test_tampered_event(void)
{
	expect_mismatch("seat", "seat", json_integer(1), ": ply 40: result");
	expect_mismatch("ply", "ply", json_integer(12), ": ply 12: seat ");
	expect_mismatch("removed", NULL, NULL, ": ply 40: result");
}

/* The ply of the first roll at or after `from` in archive `j`; -1 if none. */
static int first_roll(const json_t *j, int from)
{
	json_t *x;
	size_t i;

	json_array_foreach(json_object_get(j, "actions"), i, x)
	{
		if ((int)i >= from && json_object_get(json_object_get(x, "action"), "roll"))
			return (int)i;
	}
	return -1;
}

/* One change to a field of the record, from a file; verify must exit 1 naming `ply`. */
static void expect_tampered(const char *what, json_t *j, const char *ply)
{
	static char out[1 << 16];

	CHECK_EQ(run("verify", j, out, sizeof(out)), 1);
	CHECK(strstr(out, "MISMATCH: ur match fixture1: ") == out);
	CHECK(strstr(out, ply) != NULL);
	printf("# %s: %s", what, out);
	json_decref(j);
}

static void test_tampered_record(void)
{
	json_t *j = archive(), *x;
	char want[64];
	int roll = first_roll(j, 20);
	const char *seed;
	char bad[65];

	REQUIRE(j && roll > 0);
	/* an action: the first move of the match replaced by a skip */
	x = json_object_get(json_array_get(json_object_get(j, "actions"), 1), "action");
	json_object_clear(x);
	json_object_set_new(x, "skip", json_true());
	expect_tampered("action", j, ": ply 1: seat ");
	/* an outcome: a throw's value */
	j = archive();
	json_object_set_new(
		json_object_get(json_array_get(json_object_get(j, "actions"), (size_t)roll), "outcome"),
		"value", json_integer(5));
	snprintf(want, sizeof(want), ": ply %d: outcome: ", roll);
	expect_tampered("outcome", j, want);
	/* the server seed: no longer the commit's */
	j = archive();
	seed = json_string_value(json_object_get(j, "server_seed"));
	snprintf(bad, sizeof(bad), "%s", seed);
	bad[0] = bad[0] == '0' ? '1' : '0';
	json_object_set_new(j, "server_seed", json_string(bad));
	expect_tampered("server_seed", j, ": ply 0: commit: ");
	/* a client seed: every roll changes */
	j = archive();
	json_array_set_new(json_object_get(j, "client_seeds"), 0, json_string("unlucky"));
	expect_tampered("client_seed", j, ": ply 0: outcome: ");
	/* the result */
	j = archive();
	json_object_set_new(json_object_get(j, "result"), "winner", json_integer(0));
	expect_tampered("result", j, ": ply 40: result: ");
}

static void test_not_an_archive(void)
{
	static char out[4096];
	json_t *j = json_pack("{s:s}", "hello", "world");

	CHECK_EQ(run("verify", j, out, sizeof(out)), 2);
	CHECK(strstr(out, "not a valid archive") != NULL);
	json_decref(j);
	j = archive();
	REQUIRE(j);
	json_object_set_new(json_array_get(json_object_get(j, "events"), 0), "kind", json_string("quit"));
	CHECK_EQ(run("verify", j, out, sizeof(out)), 2);
	CHECK(strstr(out, "events[0]") != NULL);
	json_decref(j);
}

/* --- the database ------------------------------------------------------------ */

/* Runs `quinteto --db DB ARGS`; the exit status, output (stdout and stderr) in out. */
static int run_db(const char *args, char *out, size_t outlen)
{
	char line[1024];
	size_t n = 0;
	FILE *p;
	int st;

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
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static int sql(sqlite3 *db, const char *text)
{
	return sqlite3_exec(db, text, NULL, NULL, NULL);
}

/* A database with three archives: m1 (Ana resigns at 40), m2 (played out), m3 (Ana resigns at 10). */
static json_t *db_archive[3];

static int build_db(void)
{
	static const char *const ids[] = { "m1", "m2", "m3" };
	static const int resign[] = { 40, -1, 10 };
	struct archive_rows rows = { archive_rows_sqlite_exec, NULL, false, NULL, 0 };
	sqlite3 *db;
	int rc = 0;

	snprintf(dbpath, sizeof(dbpath), "%s/q.db", dir);
	if (archive_rows_sqlite_open(dbpath, migrations, &db) != 0)
		return -1;
	rows.ctx = db; /* the archives' names, no player ids, casual */
	for (int k = 0; !rc && k < 3; k++) {
		db_archive[k] = fixture_archive("ur", 11 + (uint32_t)k, resign[k], 0);
		json_object_set_new(db_archive[k], "id", json_string(ids[k]));
		/* matches rows first, then children: last_insert_rowid must be the match's seq */
		rc = archive_rows_insert(db_archive[k], &rows);
	}
	sqlite3_close(db);
	return rc;
}

/* Runs SQL against the test database (tampering with it as someone with write access could). */
static void db_sql(const char *text)
{
	sqlite3 *db;

	if (sqlite3_open(dbpath, &db) == SQLITE_OK) {
		CHECK_EQ(sql(db, text), SQLITE_OK);
		sqlite3_close(db);
	}
}

static void test_db_matches_export(void)
{
	static char out[1 << 17];
	json_t *j;

	CHECK_EQ(run_db("matches", out, sizeof(out)), 0);
	printf("# %s", out);
	CHECK(strstr(out, "m3 ") == out); /* newest first */
	CHECK(strstr(out, "m2 ") != NULL && strstr(out, "m1 ") > strstr(out, "m2 "));
	CHECK(strstr(out, "Ana, Bot") != NULL);
	CHECK_EQ(run_db("matches --limit 1", out, sizeof(out)), 0);
	CHECK(strstr(out, "m3 ") == out && strstr(out, "more: --before 3\n") != NULL && !strstr(out, "m2 "));
	CHECK_EQ(run_db("matches --limit 1 --before 3", out, sizeof(out)), 0);
	CHECK(strstr(out, "m2 ") == out);
	CHECK_EQ(run_db("matches --player Nobody", out, sizeof(out)), 0);
	CHECK_EQ(out[0], '\0');
	CHECK_EQ(run_db("matches --player Ana --result resign", out, sizeof(out)), 0);
	CHECK(strstr(out, "m3 ") == out && strstr(out, "m1 ") && !strstr(out, "m2 "));
	CHECK_EQ(run_db("matches --player \xc3\xa1NA --result resign", out, sizeof(out)),
		 0); /* áNA: folded */
	CHECK(strstr(out, "m3 ") == out && strstr(out, "m1 ") && !strstr(out, "m2 "));
	CHECK_EQ(run_db("matches --limit 0", out, sizeof(out)), 2);
	CHECK_EQ(run_db("matches --result won", out, sizeof(out)), 2); /* needs --player */
	CHECK(strstr(out, "need a player") != NULL);

	CHECK_EQ(run_db("export m1", out, sizeof(out)), 0);
	j = json_loads(out, 0, NULL);
	CHECK(j && json_equal(j, db_archive[0])); /* exactly what went in */
	json_decref(j);
	CHECK_EQ(run_db("export nosuch", out, sizeof(out)), 2);
	CHECK(strstr(out, "no archived match has this id") != NULL);
}

static void test_db_verify(void)
{
	static char out[1 << 16];

	CHECK_EQ(run_db("verify m1 m2", out, sizeof(out)), 0);
	CHECK(strstr(out, "verified: ur match m1, 40 actions, 1 events") == out);
	CHECK(strstr(out, "verified: ur match m2, ") != NULL);
	CHECK_EQ(run_db("verify --all", out, sizeof(out)), 0);
	CHECK(strstr(out, "verified 3 of 3 matches") == out);
	CHECK_EQ(run_db("verify nosuch", out, sizeof(out)), 2);
	/* an outcome and an action changed in the database */
	char q[300], want[64];
	int roll = first_roll(db_archive[1], 6);

	REQUIRE(roll > 0);
	snprintf(q, sizeof(q),
		 "UPDATE match_actions SET outcome = json_set(outcome, '$.value', 9) WHERE match_seq = 2 AND "
		 "ply = %d",
		 roll);
	db_sql(q);
	db_sql("UPDATE match_actions SET action = '{\"skip\":true}' WHERE match_seq = 3 AND ply = 3");
	CHECK_EQ(run_db("verify m2", out, sizeof(out)), 1);
	printf("# %s", out);
	snprintf(want, sizeof(want), "MISMATCH: ur match m2: ply %d: outcome: ", roll);
	CHECK(strstr(out, want) == out);
	CHECK_EQ(run_db("verify m3", out, sizeof(out)), 1);
	CHECK(strstr(out, "MISMATCH: ur match m3: ply 3: ") == out);
	printf("# %s", out);
	CHECK_EQ(run_db("verify --all", out, sizeof(out)), 1);
	printf("# %s", out);
	CHECK(strstr(out, "verified 1 of 3 matches") != NULL && strstr(out, "2 do not verify") != NULL);
}

static void test_db_show_backup(void)
{
	static char out[1 << 16];
	char args[400];

	CHECK_EQ(run_db("show m1 --ply 10", out, sizeof(out)), 0);
	CHECK(strstr(out, "ur match m1, ply 10 of 40\n") == out);
	CHECK(strstr(out, "\nlight Ana ") != NULL && strstr(out, "\ndark  Bot ") != NULL);
	CHECK(strstr(out, "last: seat ") != NULL && strstr(out, "to act: seat ") != NULL);
	CHECK_EQ(run_db("show m1", out, sizeof(out)), 0); /* the end: after the resignation */
	CHECK(strstr(out, "ply 40 of 40\nevent: seat 0 light (Ana) resign\n") != NULL);
	CHECK(strstr(out, "to act: nobody") != NULL);
	CHECK_EQ(run_db("show m1 --ply 0", out, sizeof(out)), 0);
	CHECK(strstr(out, "home 7 | . . . ") != NULL && strstr(out, "throw: none yet") != NULL);
	CHECK_EQ(run_db("show m1 --ply 41", out, sizeof(out)), 2);
	CHECK_EQ(run_db("show m1 --ply x", out, sizeof(out)), 2);

	snprintf(args, sizeof(args), "backup '%s/copy.db'", dir);
	CHECK_EQ(run_db(args, out, sizeof(out)), 0);
	CHECK_EQ(run_db(args, out, sizeof(out)), 2); /* never overwrites */
	snprintf(args, sizeof(args), "'%s' --db '%s/copy.db' matches", cli, dir);
	{
		static char copy[1 << 16];
		char line[600];
		FILE *p;
		size_t n = 0;

		snprintf(line, sizeof(line), "%s 2>&1", args);
		p = popen(line, "r");
		REQUIRE(p);
		while (n + 1 < sizeof(copy) && fgets(copy + n, (int)(sizeof(copy) - n), p))
			n += strlen(copy + n);
		CHECK_EQ(pclose(p), 0);
		CHECK_EQ(run_db("matches", out, sizeof(out)), 0);
		CHECK(strcmp(copy, out) == 0);
	}
	snprintf(args, sizeof(args), "%s/copy.db", dir);
	unlink(args);
}

/* A database a server older than migration 0012 left (no folded names) is refused by name, not misread. */
static void test_db_older_than_the_tool(void)
{
	static char out[4096];

	db_sql("DROP INDEX match_seats_key; ALTER TABLE match_seats DROP COLUMN name_key");
	CHECK(run_db("matches --player Ana", out, sizeof(out)) != 0);
	printf("# %s", out);
	CHECK(strstr(out, "start the server once to migrate it") != NULL);
}

int main(int argc, char **argv)
{
	if (argc < 3 || !mkdtemp(dir)) {
		printf("Bail out! usage: test_cli QUINTETO MIGRATIONS (and a writable /tmp)\n");
		return 1;
	}
	cli = argv[1];
	migrations = argv[2];
	TEST(test_verify_resigned);
	TEST(test_tampered_event);
	TEST(test_tampered_record);
	TEST(test_not_an_archive);
	if (build_db() != 0) {
		printf("Bail out! cannot build the test database\n");
		return 1;
	}
	TEST(test_db_matches_export);
	TEST(test_db_verify);
	TEST(test_db_show_backup);
	TEST(test_db_older_than_the_tool); /* last: it takes migration 0012 back */
	for (int k = 0; k < 3; k++)
		json_decref(db_archive[k]);
	unlink(dbpath);
	rmdir(dir);
	return tap_done();
}
