/*
 * archive_rows.h: the C tests' one way to put an archived match (its JSON, as
 * match_fixture.h builds it) into the database as SQL rows, in the tables and
 * columns the server's writer fills (matches, match_seats, match_actions,
 * match_events), on SQLite or PostgreSQL; and to build a SQLite file with the
 * migrations the server runs. It writes what it is given and checks nothing:
 * the tests that use it (cli_verify, cli_ratings) tamper with the rows after.
 */
#ifndef QUINTETO_TEST_ARCHIVE_ROWS_H
#define QUINTETO_TEST_ARCHIVE_ROWS_H

#include <jansson.h>
#include <sqlite3.h>
#include <stdbool.h>

/* How to write one match's rows. */
struct archive_rows {
	int (*exec)(void *ctx, const char *sql); /* runs one statement; 0 when it worked */
	void *ctx;                               /* exec's own */
	bool postgres;                           /* the SQL's dialect: PostgreSQL's, else SQLite's */
	const char *const *players;              /* seat i's name and player id; NULL: the archive's names */
	int rated_seq;                           /* > 0: a rated match with this seq; 0: casual */
};

/*
 * Inserts the rows of archive `j` (borrowed) through o->exec: the matches row
 * first, then its children pointing at it. On SQLite the database must have
 * been through archive_rows_sqlite_open(). Returns 0, or the first non-zero of exec.
 */
int archive_rows_insert(const json_t *j, const struct archive_rows *o);

/*
 * Opens (creates) the SQLite file `path` into *db with the functions the rows
 * and the migrations need (last_insert_rowid_seq, quinteto_fold), and applies
 * every migration of the folder `migrations` in name order, as the server's
 * runner does. Returns 0 with *db open, or -1 (said on stdout, *db closed).
 */
int archive_rows_sqlite_open(const char *path, const char *migrations, sqlite3 **db);

/* An exec for archive_rows on a SQLite connection (ctx is the sqlite3 *): 0 or SQLite's error, said. */
int archive_rows_sqlite_exec(void *ctx, const char *sql);

#endif
