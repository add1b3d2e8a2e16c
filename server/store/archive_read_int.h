/*
 * archive_read_int.h: the seam between the archive's answers (archive_read.c:
 * rows to JSON, the replay's verification and its cache, written once) and
 * the two places its rows come from: SQLite (archive_read.c) and PostgreSQL
 * (archive_read_pg.c). A read is a query (a fixed statement of enum
 * archive_stmt, or one of the list's shapes: AR_LIST + shape) with up to
 * AR_ARGS arguments, opened, stepped a row at a time and closed; a row's
 * columns are read as text or as integers. The SQL is SQLite's (?N
 * parameters); PostgreSQL's module translates it, and has its own words where
 * the dialects differ.
 *
 * Must not: write, or know about JSON. The rows of one open query stay valid
 * until the next step or the close. Queries of different kinds may be open at
 * once (SQLite keeps one statement a kind; PostgreSQL's rows are fetched
 * before the first step), never two of the same kind.
 */
#ifndef QUINTETO_ARCHIVE_READ_INT_H
#define QUINTETO_ARCHIVE_READ_INT_H

#include <stdbool.h>
#include <stdint.h>

#include "store/archive_read.h"

#define AR_ARGS          5      /* ?1 .. ?5 */
#define AR_LIST          AR_MAX /* the list's shape n is query AR_LIST + n */
#define AR_ACTIONS_CHUNK 256    /* PostgreSQL reads a match's actions this many rows at a time */

/* ?N's value: text (borrowed until the close), else the number; unused ones are not bound. */
struct ar_arg {
	bool used;
	const char *text; /* NULL: num */
	int64_t num;
};

/* One open query's rows. */
struct ar_rows {
	int q;                           /* the query */
	struct ar_arg args[AR_ARGS + 1]; /* [1..AR_ARGS] */
	sqlite3_stmt *s;                 /* SQLite: the statement, stepped (borrowed from the archive_db) */
	PGresult *res;                   /* PostgreSQL: the rows fetched (owned) */
	int row, nrows;                  /* PostgreSQL: the current row of res, -1 before the first */
};

/* The SQL of query `q` (SQLite's words) into `sql` (n bytes); 0, or -EINVAL for no such query. */
int ar_sql(int q, char *sql, size_t n);

/* PostgreSQL (archive_read_pg.c), as archive_read.c's rows_* for SQLite. */
int ar_pg_check(struct archive_db *d);
int ar_pg_open(struct archive_db *d, struct ar_rows *r);
int ar_pg_next(struct archive_db *d, struct ar_rows *r);
const char *ar_pg_text(const struct ar_rows *r, int col);
void ar_pg_close(struct ar_rows *r);
/* A statement that returns no rows (BEGIN, COMMIT) on the connection: 0 or -EIO (d->err). */
int ar_pg_exec(struct archive_db *d, const char *sql);

#endif
