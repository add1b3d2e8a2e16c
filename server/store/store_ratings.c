/*
 * store_ratings.c: an account's ratings, read when its identity is loaded
 * (issue 26: the seats of its rooms show them). One indexed read on the
 * loop's own lookup connection, as the identity lookup (store_players.c) is:
 * the rows of `ratings` whose primary key starts with the player's id, one
 * per game it has played rated (a guest has none).
 */
#include <errno.h>
#include <stdio.h>

#include "store/store_int.h"
#include "base/util.h"

int store_ratings_lookup(struct store *st, const char *player_id, store_rating_cb cb, void *ctx)
{
	sqlite3_stmt *s = NULL;
	int rc, r = 0;

	if (st && st->pg)
		return store_pg_ratings_lookup(st, player_id, cb, ctx);
	if (!st || !st->ldb)
		return -EIO;
	if (sqlite3_prepare_v2(
		    st->ldb,
		    "SELECT game, rating, rd, vol, matches, last_at FROM ratings WHERE player_id = ?1", -1,
		    &s, NULL) != SQLITE_OK ||
	    sqlite3_bind_text(s, 1, player_id, -1, SQLITE_STATIC) != SQLITE_OK) {
		util_log(LOG_ERROR, "store: ratings lookup: %s", sqlite3_errmsg(st->ldb));
		(void)sqlite3_finalize(s);
		return -EIO;
	}
	while (!r && (rc = sqlite3_step(s)) == SQLITE_ROW) {
		struct rating x = { sqlite3_column_double(s, 1), sqlite3_column_double(s, 2),
				    sqlite3_column_double(s, 3), sqlite3_column_int(s, 4),
				    sqlite3_column_int64(s, 5) };
		const char *game = (const char *)sqlite3_column_text(s, 0);

		if (game)
			r = cb(ctx, game, &x);
	}
	if (!r && rc != SQLITE_DONE) {
		util_log(LOG_ERROR, "store: ratings lookup: %s", sqlite3_errmsg(st->ldb));
		r = -EIO;
	}
	(void)sqlite3_finalize(s);
	return r;
}
