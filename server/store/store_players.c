/*
 * store_players.c: identities looked up by token hash when they say hello,
 * instead of every identity loaded at start-up (an unbounded number: every
 * tokenless hello makes one). The loop thread has its own read-only
 * connection for this, so it never touches the writer's or the reader's;
 * the lookup is one indexed point read (players.token_hash is UNIQUE).
 */
#include <errno.h>
#include <stdio.h>

#include "store/store_int.h"
#include "base/util.h"

int store_players_open(struct store *st, const char *path)
{
	if (store_db_open(path, true, &st->ldb))
		return -EIO;
	if (sqlite3_prepare_v3(st->ldb, STORE_LOOKUP_SQL("?1"), -1, SQLITE_PREPARE_PERSISTENT,
			       &st->ldb_lookup, NULL) != SQLITE_OK) {
		util_log(LOG_ERROR, "store: the identity lookup: %s", sqlite3_errmsg(st->ldb));
		return -EIO;
	}
	return 0;
}

void store_players_close(struct store *st)
{
	(void)sqlite3_finalize(st->ldb_lookup);
	st->ldb_lookup = NULL;
	if (st->ldb && sqlite3_close(st->ldb) != SQLITE_OK)
		util_log(LOG_ERROR, "store: the lookup connection did not close cleanly");
	st->ldb = NULL;
}

int store_player_lookup(struct store *st, const char *token_hash, char *id, size_t idlen, char *name,
			size_t namelen)
{
	char handle[STORE_HANDLE_SIZE];

	return store_player_lookup_account(st, token_hash, id, idlen, name, namelen, handle, sizeof(handle));
}

int store_player_lookup_account(struct store *st, const char *token_hash, char *id, size_t idlen, char *name,
				size_t namelen, char *handle, size_t handlelen)
{
	sqlite3_stmt *s = st ? st->ldb_lookup : NULL;
	int rc, found = STORE_E_NOT_FOUND;

	if (st && st->pg)
		return store_pg_player_lookup(st, token_hash, id, idlen, name, namelen, handle, handlelen);
	if (!s)
		return -EIO;
	if (sqlite3_bind_text(s, 1, token_hash, -1, SQLITE_STATIC) != SQLITE_OK) {
		(void)sqlite3_reset(s);
		return -EIO;
	}
	rc = sqlite3_step(s);
	if (rc == SQLITE_ROW && sqlite3_column_text(s, 0) && sqlite3_column_text(s, 1)) {
		snprintf(id, idlen, "%s", (const char *)sqlite3_column_text(s, 0));
		snprintf(name, namelen, "%s", (const char *)sqlite3_column_text(s, 1));
		snprintf(handle, handlelen, "%s",
			 sqlite3_column_text(s, 2) ? (const char *)sqlite3_column_text(s, 2) : "");
		found = 0;
	} else if (rc != SQLITE_DONE) {
		util_log(LOG_ERROR, "store: identity lookup: %s", sqlite3_errmsg(st->ldb));
		found = -EIO;
	}
	(void)sqlite3_reset(s);
	(void)sqlite3_clear_bindings(s);
	return found;
}
