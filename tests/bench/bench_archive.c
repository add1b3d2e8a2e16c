/*
 * bench_archive.c: what the archive costs. Two measurements, both on a fresh
 * database migrated by the server's own runner and written with the columns
 * the server's writer fills (actions and outcomes as the wire codec encodes
 * them, compact JSON; no view is ever stored):
 *
 *   size K   K random playouts of every game of the registry (rules_games[]),
 *            archived; prints per game the median match (actions, and bytes
 *            of its rows' values) and the database bytes per match, b-trees
 *            and indexes included (dbstat, after VACUUM).
 *   list N   N generated matches (seats from a pool of 2,000 names, every
 *            result kind; no action rows: the list never reads them), then
 *            times GET /api/matches's reads through archive_read.c (the same
 *            code as the reader thread, JSON encoding included) for a first
 *            page, a deep page and each filter; prints each query plan.
 *
 * Usage: quinteto-archive-bench DB MIGRATIONS size K | list N
 * The database must not exist. Not a test: docs/BENCHMARKS.md has the figures.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "store/store_int.h"
#include "base/util.h"
#include "wire.h"

#define MAX_PLIES 20000
#define NAMES     2000

static sqlite3 *db;
static sqlite3_stmt *ins_match, *ins_seat, *ins_action;

static int exec(const char *sql)
{
	char *err = NULL;

	if (sqlite3_exec(db, sql, NULL, NULL, &err) != SQLITE_OK) {
		fprintf(stderr, "%s: %s\n", sql, err);
		sqlite3_free(err);
		exit(1);
	}
	return 0;
}

static sqlite3_stmt *prepare(const char *sql)
{
	sqlite3_stmt *s;

	if (sqlite3_prepare_v2(db, sql, -1, &s, NULL) != SQLITE_OK) {
		fprintf(stderr, "%s: %s\n", sql, sqlite3_errmsg(db));
		exit(1);
	}
	return s;
}

static void step(sqlite3_stmt *s)
{
	if (sqlite3_step(s) != SQLITE_DONE) {
		fprintf(stderr, "insert: %s\n", sqlite3_errmsg(db));
		exit(1);
	}
	sqlite3_reset(s);
}

static void open_db(const char *path, const char *migrations)
{
	if (store_db_open(path, false, &db) || store_migrate(db, migrations)) {
		fprintf(stderr, "cannot open and migrate %s\n", path);
		exit(1);
	}
	ins_match = prepare(
		"INSERT INTO matches(id, game, options, commit_hex, server_seed, client_seeds, result, "
		"server_version, started_at, ended_at, plies) VALUES "
		"(?1,?2,'{}',?3,?4,?5,?6,'0.1.0',?7,?8,?9)");
	ins_seat = prepare(
		"INSERT INTO match_seats(match_seq, seat, role, name, bot, player_id, client_seed, name_key) "
		"VALUES (?1,?2,?3,?4,?5,?6,'',quinteto_fold(?4))");
	ins_action = prepare("INSERT INTO match_actions(match_seq, ply, seat, action, outcome, at) "
			     "VALUES (?1,?2,?3,?4,?5,?6)");
}

static uint64_t rng_state = 0x9e3779b97f4a7c15ull;

static uint32_t rnd(void)
{
	rng_state ^= rng_state << 13;
	rng_state ^= rng_state >> 7;
	rng_state ^= rng_state << 17;
	return (uint32_t)(rng_state >> 11);
}

/* The match row; returns its seq. */
static int64_t match_insert(int n, const char *game, const char *seeds, const char *result, int64_t at,
			    int plies)
{
	char id[16], hex[65];

	snprintf(id, sizeof(id), "m%09d", n);
	for (int i = 0; i < 64; i++)
		hex[i] = "0123456789abcdef"[rnd() & 15];
	hex[64] = '\0';
	sqlite3_bind_text(ins_match, 1, id, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(ins_match, 2, game, -1, SQLITE_STATIC);
	sqlite3_bind_text(ins_match, 3, hex, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(ins_match, 4, hex, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(ins_match, 5, seeds, -1, SQLITE_STATIC);
	sqlite3_bind_text(ins_match, 6, result, -1, SQLITE_STATIC);
	sqlite3_bind_int64(ins_match, 7, at);
	sqlite3_bind_int64(ins_match, 8, at + 600000);
	sqlite3_bind_int(ins_match, 9, plies);
	step(ins_match);
	return sqlite3_last_insert_rowid(db);
}

static void seat_insert(int64_t seq, int seat, const char *role, const char *name, bool bot)
{
	char pid[16];

	snprintf(pid, sizeof(pid), "p%s", name);
	sqlite3_bind_int64(ins_seat, 1, seq);
	sqlite3_bind_int(ins_seat, 2, seat);
	sqlite3_bind_text(ins_seat, 3, role, -1, SQLITE_STATIC);
	sqlite3_bind_text(ins_seat, 4, name, -1, SQLITE_TRANSIENT);
	sqlite3_bind_int(ins_seat, 5, bot);
	if (bot)
		sqlite3_bind_null(ins_seat, 6);
	else
		sqlite3_bind_text(ins_seat, 6, pid, -1, SQLITE_TRANSIENT);
	step(ins_seat);
}

/* --- size ------------------------------------------------------------------------ */

static int cmp_long(const void *a, const void *b)
{
	long x = *(const long *)a, y = *(const long *)b;

	return (x > y) - (x < y);
}

/* One random playout of `g`, archived; returns its action count, *bytes the values it stored. */
static int playout(int n, const struct rules_game *g, long *bytes)
{
	const struct wire_game *c = wire_game_find(g->id);
	static struct rules_action legal[RULES_MAX_LEGAL];
	uint8_t seed[RULES_SEED_SIZE], seats[RULES_MAX_SEATS];
	struct rules_match m;
	struct rules_result res;
	union rules_outcome o;
	char *result, seeds[64];
	int64_t seq;
	int ply;

	for (int i = 0; i < RULES_SEED_SIZE; i++)
		seed[i] = (uint8_t)rnd();
	if (rules_match_start(&m, g, seed, NULL))
		exit(1);
	seq = match_insert(n, g->id, "", "null", 1700000000000LL + n, 0); /* result and plies set below */
	for (ply = 0; ply < MAX_PLIES && rules_to_act(&m, seats) > 0; ply++) {
		int seat = seats[rnd() % (unsigned)rules_to_act(&m, seats)];
		int k = rules_legal_actions(&m, seat, legal, RULES_MAX_LEGAL);
		struct rules_action a = legal[rnd() % (unsigned)k];
		char *at, *ot;

		rules_apply(&m, seat, &a, &o);
		at = util_json_text(c->action_encode(&a));
		ot = util_json_text(c->outcome_encode(&m, &a, &o));
		sqlite3_bind_int64(ins_action, 1, seq);
		sqlite3_bind_int(ins_action, 2, ply);
		sqlite3_bind_int(ins_action, 3, seat);
		sqlite3_bind_text(ins_action, 4, at, -1, SQLITE_STATIC);
		sqlite3_bind_text(ins_action, 5, ot, -1, SQLITE_STATIC);
		sqlite3_bind_int64(ins_action, 6, 1700000000000LL + n + ply);
		step(ins_action);
		*bytes += (long)(strlen(at) + strlen(ot)) + 3 * 8; /* match_seq, ply, seat, at as integers */
		free(at);
		free(ot);
	}
	rules_result(&m, &res);
	result = util_json_text(c->result_encode(&res));
	snprintf(seeds, sizeof(seeds), "[");
	for (int i = 0; i < g->seats; i++) {
		strcat(seeds, i ? ",\"\"" : "\"\"");
		seat_insert(seq, i, g->roles[i], i ? "Random bot 2" : "Ana", i != 0);
		*bytes += 8 * 3 + (long)strlen(g->roles[i]) + (i ? 12 : 3 + 5);
	}
	strcat(seeds, "]");
	{
		char q[512];

		snprintf(q, sizeof(q),
			 "UPDATE matches SET result = '%s', client_seeds = '%s', plies = %d WHERE seq = %lld",
			 result, seeds, ply, (long long)seq);
		exec(q);
	}
	*bytes += 10 + (long)strlen(g->id) + 2 + 64 + 64 + (long)strlen(seeds) + (long)strlen(result) + 5 +
		  4 * 8;
	free(result);
	return ply;
}

static long db_bytes(const char *where)
{
	char q[1024];
	sqlite3_stmt *s;
	long n = 0;

	snprintf(q, sizeof(q), "SELECT sum(pgsize) FROM dbstat WHERE %s", where);
	s = prepare(q);
	if (sqlite3_step(s) == SQLITE_ROW)
		n = (long)sqlite3_column_int64(s, 0);
	sqlite3_finalize(s);
	return n;
}

static void bench_size(int k)
{
	static const char archive_tables[] =
		"name IN ('matches', 'match_seats', 'match_actions', 'match_events', "
		"'sqlite_autoindex_matches_1', "
		"'matches_game', 'matches_reason', 'matches_draw', 'match_seats_player', 'match_seats_name', "
		"'match_seats_key', 'sqlite_autoindex_match_events_1')";
	long *plies = calloc((size_t)k, sizeof(long)), *bytes = calloc((size_t)k, sizeof(long));

	printf("| game | matches | median actions | median bytes of values | database bytes per match |\n");
	printf("| --- | --- | --- | --- | --- |\n");
	for (const struct rules_game *const *g = rules_games; *g; g++) {
		long before, after;

		exec("DELETE FROM match_actions; DELETE FROM match_seats; DELETE FROM match_events; DELETE "
		     "FROM matches; "
		     "VACUUM");
		before = db_bytes(archive_tables);
		exec("BEGIN");
		for (int i = 0; i < k; i++) {
			bytes[i] = 0;
			plies[i] = playout(i, *g, &bytes[i]);
		}
		exec("COMMIT");
		exec("VACUUM");
		after = db_bytes(archive_tables);
		qsort(plies, (size_t)k, sizeof(long), cmp_long);
		qsort(bytes, (size_t)k, sizeof(long), cmp_long);
		printf("| %s | %d | %ld | %ld | %ld |\n", (*g)->id, k, plies[k / 2], bytes[k / 2],
		       (after - before) / k);
	}
	free(plies);
	free(bytes);
}

/* --- list ------------------------------------------------------------------------ */

static void generate(int n)
{
	static const char *const reasons[] = { "race", "race", "race", "resign", "forfeit" };
	char name[32], result[64];
	int ngames = 0;

	while (rules_games[ngames])
		ngames++;
	if (!ngames)
		return; /* a build without games has nothing to list */
	exec("BEGIN");
	for (int i = 0; i < n; i++) {
		const struct rules_game *g = rules_games[i % ngames];
		int w = rnd() % 50 == 0 ? -1 : (int)(rnd() % g->seats);
		int64_t seq;

		if (w < 0)
			snprintf(result, sizeof(result),
				 "{\"draw\":true,\"reason\":\"resign\",\"winner\":null}");
		else
			snprintf(result, sizeof(result), "{\"reason\":\"%s\",\"winner\":%d}",
				 reasons[rnd() % 5], w);
		seq = match_insert(i, g->id, "[\"\",\"\"]", result, 1700000000000LL + (int64_t)i * 1000,
				   50 + (int)(rnd() % 800));
		for (int s = 0; s < g->seats; s++) {
			bool bot = rnd() % 3 == 0;

			if (bot)
				snprintf(name, sizeof(name), "Random bot %d", s + 1);
			else
				snprintf(name, sizeof(name), "Player%04u", rnd() % NAMES);
			seat_insert(seq, s, g->roles[s], name, bot);
		}
	}
	exec("COMMIT");
	exec("ANALYZE");
}

static double now_ms(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

#define RUNS 200

/* Times archive_db_list(q) RUNS times; prints median, p99 and the page size. */
static void timed(struct archive_db *d, const char *what, const struct archive_query *q)
{
	static double ms[RUNS];
	json_t *body = NULL;
	int status = 0;
	size_t rows = 0;

	for (int r = 0; r < RUNS; r++) {
		double t0 = now_ms();

		status = archive_db_list(d, q, &body);
		ms[r] = now_ms() - t0;
		rows = json_array_size(json_object_get(body, "matches"));
		json_decref(body);
	}
	qsort(ms, RUNS, sizeof(double), cmp_double);
	printf("| %s | %d | %zu | %.3f | %.3f |\n", what, status, rows, ms[RUNS / 2], ms[RUNS * 99 / 100]);
}

static void plan(const char *sql)
{
	char q[1024];
	sqlite3_stmt *s;

	snprintf(q, sizeof(q), "EXPLAIN QUERY PLAN %s", sql);
	s = prepare(q);
	printf("    %s\n", sql);
	while (sqlite3_step(s) == SQLITE_ROW)
		printf("      %s\n", (const char *)sqlite3_column_text(s, 3));
	sqlite3_finalize(s);
}

static void bench_list(const char *path, int n)
{
	struct archive_db d;
	sqlite3 *rdb;
	double t0 = now_ms();
	int64_t deep = n / 10; /* a cursor 90% of the way down */

	generate(n);
	printf("generated %d matches in %.1f s; database %ld bytes\n\n", n, (now_ms() - t0) / 1e3,
	       db_bytes("1"));
	if (store_db_open(path, true, &rdb) || archive_db_init(&d, rdb)) {
		fprintf(stderr, "cannot open for reading\n");
		exit(1);
	}
	printf("| query (archive_read.c, JSON included) | status | rows | median ms | p99 ms |\n| --- | --- "
	       "| --- | --- | "
	       "--- |\n");
	timed(&d, "first page, limit 20", &(struct archive_query){ .limit = 20 });
	timed(&d, "first page, limit 100", &(struct archive_query){ .limit = 100 });
	timed(&d, "deep page (before = 10%), limit 20",
	      &(struct archive_query){ .before = deep, .limit = 20 });
	timed(&d, "game=ur, deep page", &(struct archive_query){ .game = "ur", .before = deep, .limit = 20 });
	timed(&d, "player=Player0042", &(struct archive_query){ .player = "Player0042", .limit = 20 });
	timed(&d, "player=Player0042, deep page",
	      &(struct archive_query){ .player = "Player0042", .before = deep, .limit = 20 });
	timed(&d, "player=Player0042&result=won",
	      &(struct archive_query){ .player = "Player0042", .result = "won", .limit = 20 });
	timed(&d, "result=draw", &(struct archive_query){ .result = "draw", .limit = 20 });
	timed(&d, "result=draw, deep page",
	      &(struct archive_query){ .result = "draw", .before = deep, .limit = 20 });
	timed(&d, "result=forfeit", &(struct archive_query){ .result = "forfeit", .limit = 20 });
	timed(&d, "player=Nobody (no match)", &(struct archive_query){ .player = "Nobody", .limit = 20 });
	printf("\nquery plans:\n");
	plan("SELECT seq FROM matches WHERE seq < 10000 ORDER BY seq DESC LIMIT 21");
	plan("SELECT m.seq FROM match_seats s JOIN matches m ON m.seq = s.match_seq WHERE s.name_key = "
	     "'player0042' AND "
	     "s.match_seq < 10000 ORDER BY s.match_seq DESC LIMIT 126");
	plan("SELECT seq FROM matches WHERE seq < 10000 AND winner IS NULL ORDER BY seq DESC LIMIT 21");
	plan("SELECT seq FROM matches WHERE seq < 10000 AND reason = 'forfeit' ORDER BY seq DESC LIMIT 21");
	archive_db_finish(&d);
	sqlite3_close(rdb);
}

int main(int argc, char **argv)
{
	int n = argc == 5 ? atoi(argv[4]) : 0;

	if (n <= 0 || (strcmp(argv[3], "size") && strcmp(argv[3], "list"))) {
		fprintf(stderr, "usage: quinteto-archive-bench DB MIGRATIONS size K | list N\n");
		return 2;
	}
	open_db(argv[1], argv[2]);
	if (!strcmp(argv[3], "size"))
		bench_size(n);
	else
		bench_list(argv[1], n);
	sqlite3_finalize(ins_match);
	sqlite3_finalize(ins_seat);
	sqlite3_finalize(ins_action);
	sqlite3_close(db);
	return 0;
}
