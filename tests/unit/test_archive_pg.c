/*
 * test_archive_pg.c: the archive reads (archive_read.h) answer the same bytes
 * from PostgreSQL as from SQLite. The same archived matches (random playouts
 * of every game, match_fixture.h, some with a resignation, seats under names
 * that fold alike, stand-in actions and abandoned seats) are written row for
 * row into a SQLite file migrated by the store (migrations/) and into a
 * real PostgreSQL (migrations/postgres/, in a schema of its own), and
 * every read is made on both and compared byte for byte with its status: every
 * match, every list shape paged to its end, replay pages (first, middle, last,
 * past the end, from the cache), players, unknowns, a bad request, and a match
 * tampered with in both (STORE_E_UNVERIFIED, the same reason).
 * Usage: QUINTETO_TEST_PG=CONNINFO test_archive_pg MIGRATIONS_DIR (tests/lib/with-pg.sh sets it).
 */
#include <errno.h>
#include <libpq-fe.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "match_fixture.h"
#include "store/archive_read.h"
#include "store/name_fold.h"
#include "store/store_int.h"
#include "tap.h"

#define MATCHES 16

static const char *migrations;
static char dir[] = "/tmp/quinteto-archive-pg.XXXXXX", dbpath[512];
static sqlite3 *lite;
static PGconn *pg;
static struct archive_db dl, dp; /* the reads on SQLite, on PostgreSQL */
static int64_t compared;         /* reads compared, for the log */
static size_t longest;           /* the most plies of a match written */

static const char *const names[] = { "Ana", "Ána", "ANA", "Bob", "Zoë", "zoe", "Ζωή", "Ζωη" };

/* --- writing the same rows into both ---------------------------------------- */

/* Runs `sql` (?N parameters, all text) on both databases; 0 or -1 with the reason printed. */
static int put(const char *sql, int n, const char *const *vals)
{
	sqlite3_stmt *s = NULL;
	char *pgsql = strdup(sql), *p;
	PGresult *res;
	int rc = sqlite3_prepare_v2(lite, sql, -1, &s, NULL);

	for (int i = 0; rc == SQLITE_OK && i < n; i++)
		rc = sqlite3_bind_text(s, i + 1, vals[i], -1, SQLITE_STATIC);
	if (rc == SQLITE_OK && sqlite3_step(s) != SQLITE_DONE)
		rc = SQLITE_ERROR;
	if (rc != SQLITE_OK)
		printf("# sqlite: %.200s: %s\n", sql, sqlite3_errmsg(lite));
	sqlite3_finalize(s);
	for (p = pgsql; p && *p; p++)
		if (*p == '?')
			*p = '$';
	res = pgsql ? PQexecParams(pg, pgsql, n, NULL, vals, NULL, NULL, 0) : NULL;
	if (PQresultStatus(res) != PGRES_COMMAND_OK) {
		printf("# postgres: %.200s: %s", sql, PQresultErrorMessage(res));
		rc = SQLITE_ERROR;
	}
	PQclear(res);
	free(pgsql);
	return rc == SQLITE_OK ? 0 : -1;
}

static const char *num(char *buf, long long v)
{
	snprintf(buf, 24, "%lld", v);
	return buf;
}

static int put_seats(const char *seq, const json_t *seats, uint32_t salt)
{
	char b[3][24], key[64];
	const json_t *x;
	size_t i;
	int rc = 0;

	json_array_foreach(seats, i, x)
	{
		const char *name = json_is_true(json_object_get(x, "bot")) && salt % 3
					   ? "Random bot"
					   : names[(salt + i) % 8];

		name_fold(name, strlen(name), key);
		rc = rc ? rc
			: put("INSERT INTO match_seats(match_seq, seat, role, name, bot, player_id, "
			      "client_seed, "
			      "abandoned, name_key) VALUES (?1, ?2, ?3, ?4, ?5, NULL, '', ?6, ?7)",
			      7,
			      (const char *[]){ seq, num(b[0], (long long)i),
						json_string_value(json_object_get(x, "role")), name,
						num(b[1], strcmp(name, "Random bot") == 0),
						num(b[2], (salt + i) % 5 == 0), key });
	}
	return rc;
}

/* The match's actions in one statement (a round trip, not one a ply), then its events. */
static int put_plies(const char *seq, const json_t *j, uint32_t salt)
{
	const json_t *acts = json_object_get(j, "actions"), *x;
	size_t n = json_array_size(acts), i, len = 0;
	char(*b)[24] = calloc(4 * n + 4, sizeof(*b)), **texts = calloc(2 * n + 1, sizeof(char *)),
	*sql = malloc(128 + 80 * n);
	const char **vals = calloc(7 * n + 1, sizeof(char *));
	int rc = !b || !texts || !sql || !vals ? -1 : 0;

	if (!rc)
		len = (size_t)sprintf(sql,
				      "INSERT INTO match_actions(match_seq, ply, seat, action, outcome, at, "
				      "stand_in) VALUES ");
	json_array_foreach(acts, i, x)
	{
		if (rc)
			break;
		texts[2 * i] = json_dumps(json_object_get(x, "action"), JSON_COMPACT);
		texts[2 * i + 1] = json_dumps(json_object_get(x, "outcome"), JSON_COMPACT);
		len += (size_t)sprintf(sql + len, "%s(?%zu, ?%zu, ?%zu, ?%zu, ?%zu, ?%zu, ?%zu)",
				       i ? ", " : "", 7 * i + 1, 7 * i + 2, 7 * i + 3, 7 * i + 4, 7 * i + 5,
				       7 * i + 6, 7 * i + 7);
		vals[7 * i] = seq;
		vals[7 * i + 1] = num(b[4 * i], json_integer_value(json_object_get(x, "ply")));
		vals[7 * i + 2] = num(b[4 * i + 1], json_integer_value(json_object_get(x, "seat")));
		vals[7 * i + 3] = texts[2 * i];
		vals[7 * i + 4] = texts[2 * i + 1];
		vals[7 * i + 5] = num(b[4 * i + 2], json_integer_value(json_object_get(x, "at")));
		vals[7 * i + 6] = num(b[4 * i + 3], (salt + i) % 7 == 0);
	}
	rc = rc || !n ? rc : put(sql, (int)(7 * n), vals);
	for (i = 0; texts && i < 2 * n; i++)
		free(texts[i]);
	free(b), free(texts), free(sql), free(vals);
	json_array_foreach(json_object_get(j, "events"), i, x)
	{
		char e[3][24];

		rc = rc ? rc
			: put("INSERT INTO match_events(match_seq, ply, seat, kind, at) VALUES (?1, ?2, ?3, "
			      "?4, ?5)",
			      5,
			      (const char *[]){ seq, num(e[0], json_integer_value(json_object_get(x, "ply"))),
						num(e[1], json_integer_value(json_object_get(x, "seat"))),
						json_string_value(json_object_get(x, "kind")),
						num(e[2], json_integer_value(json_object_get(x, "at"))) });
	}
	return rc;
}

/* Archives fixture match `k` as match seq 3k + 5 (the cursor is a seq, not a count) in both. */
static int put_match(int k, const char *id)
{
	static const char *const games[] = { "ur", "quinteto", "laquet", "super15" };
	uint32_t salt = 101 + (uint32_t)k * 7;
	json_t *j = fixture_archive(games[k % 4], salt, k % 3 == 1 ? 4 + k : -1, k % 2);
	char b[4][24], *opt, *seeds, *res;
	int rc;

	if (!j)
		return -1;
	opt = json_dumps(json_object_get(j, "options"), JSON_COMPACT);
	seeds = json_dumps(json_object_get(j, "client_seeds"), JSON_COMPACT);
	res = json_dumps(json_object_get(j, "result"), JSON_COMPACT | JSON_ENCODE_ANY);
	if (json_array_size(json_object_get(j, "actions")) > longest)
		longest = json_array_size(json_object_get(j, "actions"));
	num(b[0], 3LL * k + 5);
	rc = put("INSERT INTO matches(seq, id, game, options, commit_hex, server_seed, client_seeds, result, "
		 "server_version, started_at, ended_at, plies) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, "
		 "'test', "
		 "?9, ?10, ?11)",
		 11,
		 (const char *[]){
			 b[0], id, games[k % 4], opt, json_string_value(json_object_get(j, "commit")),
			 json_string_value(json_object_get(j, "server_seed")), seeds, res,
			 num(b[1], 1700000000000LL + k * 1000LL), num(b[2], 1700000000500LL + k * 1000LL),
			 num(b[3], (long long)json_array_size(json_object_get(j, "actions"))) });
	rc = rc ? rc : put_seats(b[0], json_object_get(j, "seats"), salt);
	rc = rc ? rc : put_plies(b[0], j, salt);
	free(opt), free(seeds), free(res);
	json_decref(j);
	return rc;
}

/* PostgreSQL's migrations by the store's own runner, into a schema of this run's own. */
static int pg_migrate(void)
{
	char path[1024], sql[128];
	PGresult *res;

	snprintf(sql, sizeof(sql), "CREATE SCHEMA archive_pg_%d; SET search_path TO archive_pg_%d",
		 (int)getpid(), (int)getpid());
	res = PQexec(pg, sql);
	if (PQresultStatus(res) != PGRES_COMMAND_OK)
		printf("# %s", PQresultErrorMessage(res));
	PQclear(res);
	snprintf(path, sizeof(path), "%s/postgres", migrations);
	return store_pg_migrate(pg, path);
}

/* --- reading from both ------------------------------------------------------ */

/* archive_db_get or _replay on both: the same status and bytes; returns the SQLite answer's status. */
static int same_out(const char *what, int rl, struct json_out *ol, int rp, struct json_out *op)
{
	compared++;
	CHECK_EQ(rl, rp);
	CHECK(ol->p && op->p);
	if (ol->p && op->p && (ol->len != op->len || memcmp(ol->p, op->p, ol->len))) {
		size_t at = 0;

		while (at < ol->len && at < op->len && ol->p[at] == op->p[at])
			at++;
		at = at > 40 ? at - 40 : 0;
		printf("# %s differs from byte %zu:\n# sqlite   %.200s\n# postgres %.200s\n", what, at,
		       ol->p + at, op->p + at);
		tap_failed_ = 1;
	}
	if (rl == STORE_E_UNVERIFIED && strcmp(dl.err, dp.err)) {
		printf("# %s: the reasons differ:\n# sqlite   %s\n# postgres %s\n", what, dl.err, dp.err);
		tap_failed_ = 1;
	}
	json_out_free(ol), json_out_free(op);
	return rl;
}

static int get_both(const char *id)
{
	struct json_out ol = { 0 }, op = { 0 };
	int rl = archive_db_get(&dl, id, &ol), rp = archive_db_get(&dp, id, &op);

	return same_out(id, rl, &ol, rp, &op);
}

/* A page of the replay from both; *total (if not NULL) the match's steps from the SQLite answer. */
static int replay_both(const char *id, size_t from, size_t limit, size_t *total)
{
	struct json_out ol = { 0 }, op = { 0 };
	int rl = archive_db_replay(&dl, id, from, limit, &ol),
	    rp = archive_db_replay(&dp, id, from, limit, &op);
	json_t *j = total && ol.p ? json_loadb(ol.p, ol.len, 0, NULL) : NULL;
	char what[96];

	if (total)
		*total = (size_t)json_integer_value(json_object_get(j, "total"));
	json_decref(j);
	snprintf(what, sizeof(what), "replay %s from %zu limit %zu", id, from, limit);
	return same_out(what, rl, &ol, rp, &op);
}

/* Two bodies (list, player) as their compact bytes; returns the status, *body the SQLite one's (owned). */
static int same_json(const char *what, int rl, json_t *bl, int rp, json_t *bp, json_t **body)
{
	char *sl = bl ? json_dumps(bl, JSON_COMPACT) : NULL, *sp = bp ? json_dumps(bp, JSON_COMPACT) : NULL;

	compared++;
	CHECK_EQ(rl, rp);
	if (!sl || !sp || strcmp(sl, sp)) {
		printf("# %s differs:\n# sqlite   %.300s\n# postgres %.300s\n", what, sl ? sl : "(none)",
		       sp ? sp : "(none)");
		tap_failed_ = 1;
	}
	free(sl), free(sp);
	json_decref(bp);
	*body = bl;
	return rl;
}

/* Every page of the list `q` on both (from its first, following `next`); returns the matches listed. */
static size_t list_all(struct archive_query q)
{
	char what[160], cursor[32];
	size_t n = 0;

	for (int page = 0; page < 100; page++) {
		json_t *bl = NULL, *bp = NULL, *body, *next;
		int rl = archive_db_list(&dl, &q, &bl), rp = archive_db_list(&dp, &q, &bp);

		snprintf(what, sizeof(what), "list game=%s player=%s result=%s before=%lld limit=%d",
			 q.game ? q.game : "-", q.player ? q.player : "-", q.result ? q.result : "-",
			 (long long)q.before, q.limit);
		if (same_json(what, rl, bl, rp, bp, &body)) {
			json_decref(body);
			return n;
		}
		n += json_array_size(json_object_get(body, "matches"));
		next = json_object_get(body, "next");
		if (!json_is_string(next)) {
			json_decref(body);
			return n;
		}
		snprintf(cursor, sizeof(cursor), "%s", json_string_value(next));
		q.before = strtoll(cursor, NULL, 10);
		json_decref(body);
	}
	CHECK(!"a list pages on without end");
	return n;
}

static void test_get(void)
{
	char id[16];

	for (int k = 0; k < MATCHES; k++) {
		snprintf(id, sizeof(id), "m%02d", k);
		CHECK_EQ(get_both(id), 0);
	}
	CHECK_EQ(get_both("nothing"), STORE_E_NOT_FOUND);
	CHECK_EQ(get_both(""), STORE_E_NOT_FOUND);
}

/* The reasons the archived results hold, from SQLite's generated column. */
static int reasons(char out[][32], int max)
{
	sqlite3_stmt *s;
	int n = 0;

	if (sqlite3_prepare_v2(lite,
			       "SELECT DISTINCT reason FROM matches WHERE reason IS NOT NULL ORDER BY 1", -1,
			       &s, NULL) != SQLITE_OK)
		return 0;
	while (n < max && sqlite3_step(s) == SQLITE_ROW)
		snprintf(out[n++], 32, "%s", (const char *)sqlite3_column_text(s, 0));
	sqlite3_finalize(s);
	return n;
}

/* Every shape (game x player x result), paged 5 at a time, and the first page at the default size. */
static void test_list_shapes(void)
{
	static const char *const games[] = { NULL, "ur", "quinteto", "laquet", "super15" };
	static const char *const players[] = { NULL, "ana", "ZOE", "ζωη", "Bob", "nobody" };
	const char *results[16] = { NULL, "draw", "won", "lost", "no_such_reason" };
	char found[8][32];
	int nresults = 5, nr = reasons(found, 8);
	size_t all, listed = 0;

	CHECK(nr >= 2); /* the fixtures' results have reasons to filter by */
	for (int i = 0; i < nr; i++)
		results[nresults++] = found[i];
	all = list_all((struct archive_query){ .limit = 5 });
	CHECK_EQ(all, MATCHES + 1);
	for (size_t g = 0; g < sizeof(games) / sizeof(*games); g++)
		for (size_t p = 0; p < sizeof(players) / sizeof(*players); p++)
			for (int r = 0; r < nresults; r++) {
				struct archive_query q = { games[g], players[p], results[r], 0, 5 };

				listed += list_all(q);
				if (g == 0 && r < 2)
					list_all((struct archive_query){ games[g], players[p], results[r], 0,
									 0 });
			}
	printf("# %zu matches listed on each side over every shape\n", listed);
	CHECK(listed > 4 * all); /* the filters find matches, not only empty pages */
}

static void test_list_cursors(void)
{
	json_t *bl = NULL, *bp = NULL, *body;
	int rl, rp;

	/* a cursor between two seqs, past the first, below the last, and the default limit's edge */
	list_all((struct archive_query){ .before = 3 * 8 + 4, .limit = 3 });
	list_all((struct archive_query){ .before = 1, .limit = 3 });
	list_all((struct archive_query){ .before = INT64_MAX, .limit = 100 });
	list_all((struct archive_query){ .player = "ana", .before = 3 * 10 + 5, .limit = 2 });
	rl = archive_db_list(&dl, &(struct archive_query){ .result = "won" }, &bl);
	rp = archive_db_list(&dp, &(struct archive_query){ .result = "won" }, &bp);
	CHECK_EQ(same_json("won without a player", rl, bl, rp, bp, &body), STORE_E_BAD_REQUEST);
	json_decref(body);
}

static void test_replay_pages(void)
{
	char id[16];
	size_t total, paged = 0;

	for (int k = 0; k < MATCHES; k++) {
		snprintf(id, sizeof(id), "m%02d", k);
		REQUIRE(replay_both(id, 0, 0, &total) == 0);
		CHECK(total > 0);
		CHECK_EQ(replay_both(id, total / 2, 7, NULL), 0);
		CHECK_EQ(replay_both(id, total, 0, NULL), STORE_E_BAD_REQUEST);
		if (k < 4) {
			CHECK_EQ(replay_both(id, total - 1, 0, NULL), 0);
			CHECK_EQ(replay_both(id, (size_t)1 << 40, 3, NULL), STORE_E_BAD_REQUEST);
		}
		if (total > 2 * ARCHIVE_STEPS_MAX && paged < 4) /* a long match: every page, from the cache */
			for (size_t from = 1; from < total; from += ARCHIVE_STEPS_MAX - 1, paged++)
				CHECK_EQ(replay_both(id, from, ARCHIVE_STEPS_MAX, NULL), 0);
	}
	printf("# the longest match has %zu plies; %zu pages of long matches compared\n", longest, paged);
	CHECK(longest > 600); /* PostgreSQL reads actions in chunks of 256: several are crossed */
	CHECK(paged > 0);
	CHECK_EQ(replay_both("nothing", 0, 0, NULL), STORE_E_NOT_FOUND);
}

static void test_players(void)
{
	static const char *const more[] = { "Random bot", "ana", "nobody", "" };
	json_t *bl, *bp, *body;

	for (size_t i = 0; i < sizeof(names) / sizeof(*names) + sizeof(more) / sizeof(*more); i++) {
		const char *name = i < 8 ? names[i] : more[i - 8];
		int rl = archive_db_player(&dl, name, &bl), rp = archive_db_player(&dp, name, &bp);

		CHECK_EQ(same_json(name, rl, bl, rp, bp, &body), i < 9 ? 0 : STORE_E_NOT_FOUND);
		json_decref(body);
	}
}

/* SQLite's statements run, counted (sqlite3_trace_v2). */
static int stmts_cb(unsigned type, void *ctx, void *p, void *x)
{
	(void)type, (void)p, (void)x;
	++*(int *)ctx;
	return 0;
}

/* How many statements an account page costs on SQLite. */
static int page_stmts(const char *handle)
{
	int n = 0;
	json_t *body = NULL;

	sqlite3_trace_v2(lite, SQLITE_TRACE_STMT, stmts_cb, &n);
	CHECK_EQ(archive_db_player(&dl, handle, &body), 0);
	sqlite3_trace_v2(lite, 0, NULL, NULL);
	json_decref(body);
	return n;
}

/*
 * Issue 26's reads: accounts (one with matches under two names, one that
 * never played, a tie on the board broken by handle key), rated matches with
 * their history, the same rows in both; the account pages, name records of
 * names that are no handle's, every leaderboard shape and a rated match's
 * archive compared byte for byte.
 */
static void test_ratings(void)
{
	static const char *const setup_sql[] = {
		"INSERT INTO players(id, token_hash, name, created_at, seen_at) VALUES "
		"('pana', 'h1', 'Ana', 1690000000000, 1690000000000), "
		"('pbob', 'h2', 'Bob', 1690000000001, 1690000000001), "
		"('pcy', 'h3', 'Cy', 1690000000002, 1690000000002)",
		"INSERT INTO accounts(player_id, handle, handle_key, pw_hash, created_at, pw_changed_at) "
		"VALUES "
		"('pana', 'Ana_R', 'ana_r', 'x', 1690000000100, 1690000000100), "
		"('pbob', 'B0b', 'bob', 'x', 1690000000101, 1690000000101), "
		"('pcy', 'Cy-1', 'cy_l', 'x', 1690000000102, 1690000000102)",
		"UPDATE match_seats SET player_id = 'pana' WHERE match_seq IN (5, 17) AND seat = 0",
		"UPDATE match_seats SET player_id = 'pbob' WHERE match_seq IN (5, 17) AND seat = 1",
		"UPDATE match_seats SET player_id = 'pana' WHERE match_seq = 8 AND seat = 3",
		"UPDATE matches SET rated = 1, rated_seq = 1 WHERE seq = 5",
		"UPDATE matches SET rated = 1, rated_seq = 2 WHERE seq = 17",
		"INSERT INTO ratings(player_id, game, rating, rd, vol, matches, last_at) VALUES "
		"('pana', 'ur', 1562.1234567891234, 201.49999, 0.059999912345678, 2, 1700000012500), "
		"('pbob', 'ur', 1437.8765432108766, 201.5, 0.06000001, 2, 1700000012500), "
		"('pcy', 'ur', 1562.1234567891234, 300.25, 0.06, 1, 1700000012500), "
		"('pana', 'quinteto', 1610.5, 100.0, 0.0599, 7, 1700000003500), "
		"('pbob', 'laquet', 1730.25, 60.5, 0.058, 230, 1700000000230)",
		"INSERT INTO rating_history(player_id, game, rated_seq, match_seq, rating, rd, vol, at) "
		"VALUES "
		"('pana', 'ur', 1, 5, 1662.3, 290.2, 0.06, 1700000000500), "
		"('pana', 'ur', 2, 17, 1562.1234567891234, 201.49999, 0.059999912345678, 1700000012500), "
		"('pbob', 'ur', 1, 5, 1337.7, 290.2, 0.06, 1700000000500), "
		"('pbob', 'ur', 2, 17, 1437.8765432108766, 201.5, 0.06000001, 1700000012500)",
		/* more rated matches in one game than the page shows (its last 200), beside another game */
		"INSERT INTO rating_history(player_id, game, rated_seq, match_seq, rating, rd, vol, at) "
		"WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 230) "
		"SELECT 'pbob', 'laquet', i, 5, 1500 + i, 300 - i, 0.06, 1700000000000 + i FROM n",
	};
	static const char *const asked[] = { "Ana_R", "ana_r", "ANA_R", "Aná_R",      "B0B", "bob", "Cy-1",
					     "cy_l",  "CY_1",  "Ana",   "Random bot", "ANA", "Zoë" };
	static const char *const games[] = { "ur", "quinteto", "laquet" };
	static const int limits[] = { 1, 2, 3, 200 };
	json_t *bl, *bp, *body;
	char what[64];

	for (size_t i = 0; i < sizeof(setup_sql) / sizeof(*setup_sql); i++)
		CHECK_EQ(put(setup_sql[i], 0, NULL), 0);
	for (size_t i = 0; i < sizeof(asked) / sizeof(*asked); i++) {
		int rl = archive_db_player(&dl, asked[i], &bl), rp = archive_db_player(&dp, asked[i], &bp);

		CHECK_EQ(same_json(asked[i], rl, bl, rp, bp, &body), 0);
		/* the first nine are handles of accounts (by key), the others names */
		CHECK(json_is_true(json_object_get(body, "account")) == (i < 9));
		if (!strcmp(asked[i], "bob")) { /* laquet's newest 200 of 230, oldest first; ur's 2 beside */
			json_t *r = json_object_get(body, "ratings"),
			       *h = json_object_get(json_object_get(r, "laquet"), "history");

			CHECK_EQ(json_array_size(h), 200);
			CHECK_EQ(json_integer_value(json_object_get(json_array_get(h, 0), "at")),
				 1700000000031);
			CHECK_EQ(json_integer_value(json_object_get(json_array_get(h, 199), "at")),
				 1700000000230);
			CHECK_EQ(json_array_size(json_object_get(json_object_get(r, "ur"), "history")), 2);
		}
		json_decref(body);
	}
	for (size_t g = 0; g < 3; g++)
		for (size_t k = 0; k < 4; k++) {
			int rl = archive_db_leaderboard(&dl, games[g], limits[k], &bl),
			    rp = archive_db_leaderboard(&dp, games[g], limits[k], &bp);

			snprintf(what, sizeof(what), "leaderboard %s %d", games[g], limits[k]);
			CHECK_EQ(same_json(what, rl, bl, rp, bp, &body), 0);
			if (g == 0 && k == 3) /* the tie: equal ratings by handle key */
				CHECK_EQ(strcmp(json_string_value(json_object_get(
							json_array_get(json_object_get(body, "players"), 1),
							"handle")),
						"Cy-1"),
					 0);
			json_decref(body);
		}
	CHECK_EQ(get_both("m00"), 0); /* a rated match's archive: rated: true, the same bytes */
	/* the histories in one query, not one per game: Ana (2 games) and Bob (2) cost what Cy (1) does */
	CHECK_EQ(page_stmts("Ana_R"), page_stmts("Cy-1"));
	CHECK_EQ(page_stmts("B0b"), page_stmts("Cy-1"));
}

/* The rated match commit_cb commits in SQLite, on a connection of its own, and its undoing. */
static const char rated_sql[] =
	"INSERT INTO rating_history(player_id, game, rated_seq, match_seq, rating, rd, vol, at) VALUES "
	"('pcy', 'ur', 3, 8, 1600.5, 250.5, 0.06, 1700000020000); "
	"UPDATE ratings SET rating = 1600.5, rd = 250.5, matches = 2 WHERE player_id = 'pcy' AND game = 'ur'";
static const char unrated_sql[] =
	"DELETE FROM rating_history WHERE player_id = 'pcy' AND rated_seq = 3; UPDATE ratings SET rating = "
	"1562.1234567891234, rd = 300.25, matches = 1 WHERE player_id = 'pcy' AND game = 'ur'";

/* SQLITE_TRACE_STMT on the reads' connection: as its ratings query starts, another commits a rated match. */
static int commit_cb(unsigned type, void *ctx, void *p, void *x)
{
	sqlite3 **other = ctx;
	const char *sql = sqlite3_sql(p);

	(void)type, (void)x;
	if (*other && sql && strstr(sql, "FROM ratings WHERE player_id")) {
		CHECK_EQ(sqlite3_exec(*other, rated_sql, NULL, NULL, NULL), SQLITE_OK);
		sqlite3_close(*other);
		*other = NULL; /* once */
	}
	return 0;
}

/*
 * An account page is one snapshot: a rated match committed between its
 * history query and its ratings query (another connection's, at the moment
 * the ratings query starts) is in neither, not in the ratings alone; read
 * again, it is in both.
 */
static void test_page_snapshot(void)
{
	json_t *before, *during, *after, *r;
	sqlite3 *other = NULL;

	CHECK_EQ(archive_db_player(&dl, "Cy-1", &before), 0);
	CHECK_EQ(store_db_open(dbpath, false, &other), 0);
	sqlite3_trace_v2(lite, SQLITE_TRACE_STMT, commit_cb, &other);
	CHECK_EQ(archive_db_player(&dl, "Cy-1", &during), 0);
	sqlite3_trace_v2(lite, 0, NULL, NULL);
	CHECK(!other); /* the match was committed during the read */
	CHECK(json_equal(before, during));
	CHECK_EQ(archive_db_player(&dl, "Cy-1", &after), 0);
	r = json_object_get(json_object_get(after, "ratings"), "ur");
	CHECK_EQ(json_integer_value(json_object_get(r, "matches")), 2);
	CHECK_EQ(json_array_size(json_object_get(r, "history")), 1);
	CHECK_EQ(sqlite3_exec(lite, unrated_sql, NULL, NULL, NULL), SQLITE_OK); /* as PostgreSQL's again */
	json_decref(before), json_decref(during), json_decref(after);
}

/* A match's record changed in both (as someone with write access could): neither serves it. */
static void test_tampered(void)
{
	size_t total;

	/* read first, so the long match's snapshots are cached on both: the page must catch it anyway */
	REQUIRE(replay_both("long", 0, 0, &total) == 0);
	REQUIRE(total > ARCHIVE_STEPS_MAX);
	REQUIRE(put("UPDATE match_actions SET outcome = '{\"tampered\":true}' WHERE match_seq = ?1 AND ply = "
		    "8",
		    1, (const char *[]){ "1001" }) == 0);
	CHECK_EQ(replay_both("long", 0, 20, NULL), STORE_E_UNVERIFIED);
	CHECK_EQ(replay_both("long", 0, 20, NULL),
		 STORE_E_UNVERIFIED); /* dropped from the cache, verified whole */
	CHECK(strstr(dp.err, "does not verify") != NULL);
	CHECK_EQ(get_both("long"), 0); /* the record itself is still shown as stored */
}

/* PostgreSQL failing answers -EIO with the reason, as SQLite does: a schema without the archive, a lost
 * server. */
static void test_pg_failures(void)
{
	PGconn *c = PQconnectdb(getenv("QUINTETO_TEST_PG"));
	struct archive_db d;
	struct json_out o = { 0 };
	char sql[96];

	REQUIRE(PQstatus(c) == CONNECTION_OK);
	PQclear(PQexec(c,
		       "SET search_path TO pg_catalog")); /* no archive here: refused at init, not misread */
	CHECK_EQ(archive_db_init_pg(&d, c), -EIO);
	CHECK(strstr(d.err, "does not exist") != NULL);
	archive_db_finish(&d);
	PQclear(PQexec(c, "SET client_encoding TO 'LATIN1'")); /* it would convert the names' bytes */
	CHECK_EQ(archive_db_init_pg(&d, c), -EIO);
	CHECK(strstr(d.err, "client_encoding") != NULL);
	archive_db_finish(&d);
	PQclear(PQexec(c, "SET client_encoding TO 'UTF8'"));
	snprintf(sql, sizeof(sql), "SET search_path TO archive_pg_%d", (int)getpid());
	PQclear(PQexec(c, sql));
	REQUIRE(archive_db_init_pg(&d, c) == 0);
	snprintf(sql, sizeof(sql), "SELECT pg_terminate_backend(%d)", PQbackendPID(c));
	PQclear(PQexec(pg, sql)); /* the server drops the reader's connection, as a restart would */
	CHECK_EQ(archive_db_get(&d, "m00", &o), -EIO);
	CHECK(d.err[0] != '\0');
	CHECK(o.p && strstr(o.p, "\"code\":\"internal\"") != NULL);
	json_out_free(&o);
	archive_db_finish(&d);
	PQfinish(c);
}

static int setup(void)
{
	const char *conninfo = getenv("QUINTETO_TEST_PG");
	int rc = 0;

	if (!conninfo || !mkdtemp(dir)) {
		printf("# QUINTETO_TEST_PG is not set: run me through tests/lib/with-pg.sh\n");
		return -1;
	}
	snprintf(dbpath, sizeof(dbpath), "%s/q.db", dir);
	pg = PQconnectdb(conninfo);
	if (PQstatus(pg) != CONNECTION_OK) {
		printf("# %s", PQerrorMessage(pg));
		return -1;
	}
	if (store_db_open(dbpath, false, &lite) || store_migrate(lite, migrations) || pg_migrate())
		return -1;
	PQclear(PQexec(pg, "BEGIN"));
	sqlite3_exec(lite, "BEGIN", NULL, NULL, NULL);
	for (int k = 0; !rc && k < MATCHES; k++) {
		char id[16];

		snprintf(id, sizeof(id), "m%02d", k);
		rc = put_match(k, id);
	}
	/* a long Ur match at seq 1001, for the tampering */
	rc = rc ? rc : put_match(332, "long");
	PQclear(PQexec(pg, "COMMIT"));
	sqlite3_exec(lite, "COMMIT", NULL, NULL, NULL);
	if (rc || archive_db_init(&dl, lite) || archive_db_init_pg(&dp, pg)) {
		printf("# set-up: %s / %s\n", dl.err, dp.err);
		return -1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	int rc;

	if (argc != 2)
		return 2;
	migrations = argv[1];
	if (setup()) {
		printf("Bail out! the two archives could not be written\n");
		return 1;
	}
	TEST(test_get);
	TEST(test_list_shapes);
	TEST(test_list_cursors);
	TEST(test_replay_pages);
	TEST(test_players);
	TEST(test_ratings);
	TEST(test_page_snapshot);
	TEST(test_tampered);
	TEST(test_pg_failures);
	printf("# %lld reads compared byte for byte\n", (long long)compared);
	archive_db_finish(&dl);
	archive_db_finish(&dp);
	sqlite3_close(lite);
	PQfinish(pg);
	unlink(dbpath);
	snprintf(dbpath, sizeof(dbpath), "%s/q.db-wal", dir);
	unlink(dbpath);
	snprintf(dbpath, sizeof(dbpath), "%s/q.db-shm", dir);
	unlink(dbpath);
	rmdir(dir);
	rc = tap_done();
	return rc;
}
