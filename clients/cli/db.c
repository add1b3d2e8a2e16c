/*
 * db.c: the database for the `quinteto` command (see db.h).
 *
 * Must not: write to the server's database or migrate it. A database older
 * than the tool (a migration its reads need missing: 0007, 0012) is reported
 * as such, not guessed at.
 */
#include "db.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#define BUSY_MS     5000
#define BACKUP_PAGE 256 /* pages copied per step: the server's writers wait at most one step */

int cli_db_open(const char *path, struct archive_db *d, char *why, size_t whylen)
{
	sqlite3 *db = NULL;
	int rc;

	memset(d, 0, sizeof(*d));
	if (access(path, R_OK) != 0) {
		snprintf(why, whylen, "%s: no database there (see --db)", path);
		return -ENOENT;
	}
	rc = sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, NULL);
	if (rc == SQLITE_OK)
		rc = sqlite3_busy_timeout(db, BUSY_MS);
	if (rc != SQLITE_OK) {
		snprintf(why, whylen, "%s: %s", path, db ? sqlite3_errmsg(db) : sqlite3_errstr(rc));
		sqlite3_close(db);
		return -EIO;
	}
	if (archive_db_init(d, db)) {
		snprintf(why, whylen,
			 "%s: not a Quinteto database of this version (%s); start the server once "
			 "to migrate it",
			 path, d->err);
		cli_db_close(d);
		return STORE_E_NOT_QUINTETO;
	}
	return 0;
}

void cli_db_close(struct archive_db *d)
{
	sqlite3 *db = d->db;

	archive_db_finish(d);
	sqlite3_close(db);
	d->db = NULL;
}

int cli_db_each_id(struct archive_db *d, int (*cb)(const char *id, void *data), void *data, char *why,
		   size_t whylen)
{
	sqlite3_stmt *s = NULL;
	int rc = sqlite3_prepare_v2(d->db, "SELECT id FROM matches ORDER BY seq", -1, &s, NULL), r = 0;

	while (rc == SQLITE_OK && (rc = sqlite3_step(s)) == SQLITE_ROW) {
		r = cb((const char *)sqlite3_column_text(s, 0), data);
		if (r)
			break;
		rc = SQLITE_OK;
	}
	if (!r && rc != SQLITE_DONE) {
		snprintf(why, whylen, "listing the archive: %s", sqlite3_errmsg(d->db));
		r = -EIO;
	}
	sqlite3_finalize(s);
	return r;
}

int cli_db_backup(const char *path, const char *out, char *why, size_t whylen)
{
	sqlite3 *src = NULL, *dst = NULL;
	sqlite3_backup *b = NULL;
	int rc;

	if (access(path, R_OK) != 0) {
		snprintf(why, whylen, "%s: no database there (see --db)", path);
		return -ENOENT;
	}
	if (access(out, F_OK) == 0) {
		snprintf(why, whylen, "%s: already exists (a backup never overwrites)", out);
		return -EEXIST;
	}
	rc = sqlite3_open_v2(path, &src, SQLITE_OPEN_READONLY, NULL);
	if (rc == SQLITE_OK)
		rc = sqlite3_busy_timeout(src, BUSY_MS);
	if (rc == SQLITE_OK)
		rc = sqlite3_open_v2(out, &dst, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, NULL);
	if (rc == SQLITE_OK && !(b = sqlite3_backup_init(dst, "main", src, "main")))
		rc = sqlite3_errcode(dst);
	while (b && ((rc = sqlite3_backup_step(b, BACKUP_PAGE)) == SQLITE_OK || rc == SQLITE_BUSY ||
		     rc == SQLITE_LOCKED))
		if (rc != SQLITE_OK)
			sqlite3_sleep(20); /* the server holds a lock for a moment: try again */
	if (b && sqlite3_backup_finish(b) != SQLITE_OK && rc == SQLITE_DONE)
		rc = sqlite3_errcode(dst);
	if (rc != SQLITE_DONE && rc != SQLITE_OK)
		snprintf(why, whylen, "backup to %s: %s", out, sqlite3_errstr(rc));
	sqlite3_close(src);
	sqlite3_close(dst);
	if (rc == SQLITE_DONE)
		return 0;
	unlink(out);
	return -EIO;
}
