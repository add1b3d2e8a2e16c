/*
 * db.h: the server's database as the `quinteto` command reads it: opened
 * read-only (never migrated, never written: the server owns it), with the
 * same archive queries as the HTTP API (server/store/archive_read.c, from the
 * server's store library), and the online backup. Safe while the server
 * runs: SQLite's WAL lets a reader and the backup see one consistent snapshot
 * while the server keeps writing. Errors: 0 or a negative code (cli.h), the
 * reason for a person in `why`.
 */
#ifndef QUINTETO_CLI_DB_H
#define QUINTETO_CLI_DB_H

#include <stddef.h>

#include "store/archive_read.h"

/* The server's default (quinteto-server --db). */
#define CLI_DB_DEFAULT "var/quinteto.db"

/*
 * Opens `path` read-only with the archive statements into `d`; 0, -ENOENT (no
 * file), -EIO (SQLite cannot open it) or STORE_E_NOT_QUINTETO (not a database
 * of this version), with a reason in why.
 */
int cli_db_open(const char *path, struct archive_db *d, char *why, size_t whylen);

/* Finalizes the statements and closes the connection. */
void cli_db_close(struct archive_db *d);

/*
 * Calls cb(id) for every archived match, oldest first; stops at the first
 * non-zero return and gives it back. -EIO with a reason in why when SQLite fails.
 */
int cli_db_each_id(struct archive_db *d, int (*cb)(const char *id, void *data), void *data, char *why,
		   size_t whylen);

/*
 * Copies the database at `path` to `out` (a new file) by the online backup API; 0, -ENOENT (no database),
 * -EEXIST (out exists) or -EIO, with a reason in why.
 */
int cli_db_backup(const char *path, const char *out, char *why, size_t whylen);

#endif
