/*
 * archive_read_pg.c: the archive's rows from PostgreSQL (archive_read_int.h),
 * for archive_db_init_pg(): archive_read.c writes the answers, verifies the
 * replays and keeps their cache for both databases, so the bytes are the
 * same. The SQL is archive_read.c's (SQLite's) with ?N written $N, and, where
 * the dialects differ, words of this file's own (pg_sql); the schema is
 * migrations/postgres/0001_schema.sql, whose columns, generated `winner` and
 * `reason`, and indexes are SQLite's, so every query has an index to walk
 * (docs/SCALING.md has the plans EXPLAIN showed).
 *
 * Every query is one PQexecParams (text in, text out): the unnamed statement
 * is planned with its arguments, so a list's filter (a reason, a player) is
 * planned for its own rows, and nothing is left named on the borrowed
 * connection. A query's rows are fetched whole, which a list's page (and its
 * seats: one query, list_seats()), a match's seats and events and a player's
 * record are small enough for; a match's actions
 * (up to 200,008) are fetched AR_ACTIONS_CHUNK at a time, each chunk from the
 * ply after the last (on the primary key), so a read holds one chunk, never
 * the match, and no cursor or transaction stays open between chunks
 * (archived rows are never rewritten).
 *
 * Must not: write, or block on anything but its own connection (the reader
 * thread's, blocking by contract).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store/archive_read_int.h"

#define PG_TEXT_OID 25 /* pg_type.h: text */
#define PG_INT8_OID 20 /* pg_type.h: bigint */

/*
 * PostgreSQL's words where SQLite's do not carry over: a comparison is not a
 * number (SQLite's 0/1), so it is cast before max() and sum(); the games are
 * ordered by their bytes, as SQLite's BINARY collation does, whatever the
 * database's locale, since the order is the answer's.
 */
static const char player_sql[] =
	"SELECT m.game, count(*), sum(x.w), sum((m.winner IS NULL)::int), sum(x.a) FROM (SELECT s.match_seq "
	"AS seq, max((s.seat = m2.winner)::int) AS w, max(s.abandoned) AS a FROM match_seats s JOIN matches "
	"m2 ON m2.seq = s.match_seq WHERE s.name = $1 GROUP BY s.match_seq) x JOIN matches m ON "
	"m.seq = x.seq GROUP BY m.game ORDER BY m.game COLLATE \"C\"";

/*
 * A list page's seats in one query, oldest first (archive_read.c's
 * list_seats(): SQLite has no such query, it looks each match's up): the
 * page's seqs come as a JSON array, unnested for = ANY on the primary key.
 */
static const char page_seats_sql[] =
	"SELECT seat, role, name, bot, match_seq FROM match_seats WHERE match_seq = ANY (ARRAY(SELECT "
	"jsonb_array_elements_text($1::jsonb)::bigint)) ORDER BY match_seq, seat";

/* Issue 26's reads where the words differ: the same casts, and orders by bytes ("C"). */
static const char account_games_sql[] =
	"SELECT m.game, count(*), sum(x.w), sum((m.winner IS NULL)::int), sum(x.a) FROM (SELECT s.match_seq "
	"AS seq, max((s.seat = m2.winner)::int) AS w, max(s.abandoned) AS a FROM match_seats s JOIN matches "
	"m2 ON m2.seq = s.match_seq WHERE s.player_id = $1 GROUP BY s.match_seq) x JOIN matches m ON "
	"m.seq = x.seq GROUP BY m.game ORDER BY m.game COLLATE \"C\"";
static const char ratings_sql[] =
	"SELECT game, rating, rd, vol, matches FROM ratings WHERE player_id = $1 ORDER BY game COLLATE \"C\"";
static const char board_sql[] =
	"SELECT a.handle, p.name, r.rating, r.rd, r.matches FROM ratings r JOIN accounts a ON "
	"a.player_id = r.player_id JOIN players p ON p.id = r.player_id WHERE r.game = $1 AND "
	"r.matches > 0 AND (r.rd > 110)::int = $2 ORDER BY r.rating DESC, a.handle_key COLLATE \"C\" "
	"LIMIT $3";

/* Query q's SQL for PostgreSQL into sql (n bytes); 0 or -EINVAL. */
static int pg_sql(int q, char *sql, size_t n)
{
	char *p;

	if (q == AR_PLAYER || q == AR_PAGE_SEATS) {
		snprintf(sql, n, "%s", q == AR_PLAYER ? player_sql : page_seats_sql);
		return 0;
	}
	if (q == AR_ACCOUNT_GAMES || q == AR_RATINGS || q == AR_BOARD) {
		snprintf(sql, n, "%s",
			 q == AR_ACCOUNT_GAMES ? account_games_sql
			 : q == AR_RATINGS     ? ratings_sql
					       : board_sql);
		return 0;
	}
	if (ar_sql(q, sql, n))
		return -EINVAL;
	for (p = sql; *p; p++)
		if (*p == '?') /* SQLite's ?N is PostgreSQL's $N; no SQL here has a '?' of its own */
			*p = '$';
	if (q == AR_ACTIONS) /* ORDER BY ply: the next chunk starts after this one's last ply */
		snprintf(p, n - (size_t)(p - sql), " LIMIT %d", AR_ACTIONS_CHUNK);
	return 0;
}

static int pg_fail(struct archive_db *d, const char *what, const PGresult *res)
{
	const char *why = res ? PQresultErrorMessage(res) : PQerrorMessage(d->pg);
	size_t n;

	snprintf(d->err, sizeof(d->err), "%s: %s", what, why && why[0] ? why : "no answer");
	n = strlen(d->err);
	while (n && (d->err[n - 1] == '\n' || d->err[n - 1] == ' '))
		d->err[--n] = '\0';
	return -EIO;
}

int ar_pg_check(struct archive_db *d)
{
	/* the list's arguments (archive_read.c): game, player, cursor, rows, reason */
	static const Oid list_types[AR_ARGS] = { PG_TEXT_OID, PG_TEXT_OID, PG_INT8_OID, PG_INT8_OID,
						 PG_TEXT_OID };
	const char *enc = PQparameterStatus(d->pg, "client_encoding");
	char sql[1024];
	PGresult *res;

	/* the archive's text is UTF-8, answered as stored: a connection that converts it would change the
	 * bytes */
	if (!enc || (strcmp(enc, "UTF8") && strcmp(enc, "SQL_ASCII"))) {
		snprintf(d->err, sizeof(d->err),
			 "the connection's client_encoding is %s: the archive is read as UTF-8 (set "
			 "client_encoding=UTF8)",
			 enc ? enc : "unknown");
		return -EIO;
	}
	/* every query is parsed now, as SQLite's are prepared: a schema older than the reads fails here */
	for (int q = 0; q < AR_LIST + ARCHIVE_LIST_SHAPES; q++) {
		if (pg_sql(q, sql, sizeof(sql)))
			continue;
		res = q < AR_LIST ? PQprepare(d->pg, "", sql, 0, NULL)
				  : PQprepare(d->pg, "", sql, AR_ARGS, list_types);
		if (PQresultStatus(res) != PGRES_COMMAND_OK) {
			int err = pg_fail(d, sql, res);

			PQclear(res);
			return err;
		}
		PQclear(res);
	}
	return 0;
}

int ar_pg_open(struct archive_db *d, struct ar_rows *r)
{
	const char *vals[AR_ARGS];
	char nums[AR_ARGS][24], sql[1024];
	Oid types[AR_ARGS];
	int n = 0;

	if (pg_sql(r->q, sql, sizeof(sql))) {
		snprintf(d->err, sizeof(d->err), "no archive query %d", r->q);
		return -EIO;
	}
	for (int i = 1; i <= AR_ARGS; i++) {
		const struct ar_arg *a = &r->args[i];

		/* a shape's unused arguments are sent as typed NULLs: PostgreSQL needs every $N's type */
		types[i - 1] = a->used && !a->text ? PG_INT8_OID : PG_TEXT_OID;
		vals[i - 1] = a->text;
		if (a->used && !a->text) {
			snprintf(nums[i - 1], sizeof(nums[i - 1]), "%lld", (long long)a->num);
			vals[i - 1] = nums[i - 1];
		}
		if (a->used)
			n = i;
	}
	r->res = PQexecParams(d->pg, sql, n, types, vals, NULL, NULL, 0);
	if (PQresultStatus(r->res) != PGRES_TUPLES_OK) {
		int err = pg_fail(d, "reading the archive", r->res);

		ar_pg_close(r);
		return err;
	}
	r->row = -1;
	r->nrows = PQntuples(r->res);
	return 0;
}

int ar_pg_next(struct archive_db *d, struct ar_rows *r)
{
	int rc;

	if (!r->res)
		return -EIO;
	if (r->row + 1 < r->nrows) {
		r->row++;
		return 1;
	}
	if (r->q != AR_ACTIONS || r->nrows < AR_ACTIONS_CHUNK)
		return 0;
	/* a full chunk: the next one starts at the ply after its last */
	r->args[2].num = strtoll(PQgetvalue(r->res, r->nrows - 1, 0), NULL, 10) + 1;
	ar_pg_close(r);
	if ((rc = ar_pg_open(d, r)))
		return rc;
	return r->nrows ? ar_pg_next(d, r) : 0;
}

const char *ar_pg_text(const struct ar_rows *r, int col)
{
	return PQgetisnull(r->res, r->row, col) ? NULL : PQgetvalue(r->res, r->row, col);
}

int ar_pg_exec(struct archive_db *d, const char *sql)
{
	PGresult *res = PQexec(d->pg, sql);
	int err = PQresultStatus(res) == PGRES_COMMAND_OK ? 0 : pg_fail(d, sql, res);

	PQclear(res);
	return err;
}

void ar_pg_close(struct ar_rows *r)
{
	PQclear(r->res); /* NULL is a no-op */
	r->res = NULL;
	r->row = r->nrows = 0;
}
