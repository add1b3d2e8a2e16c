/*
 * store_after.c: the start-up load of what seated players set beside the
 * match (live_after, migration 0011: mutes and the rematch offer). A room
 * still in the live journal was restored by store_load_live() already; a
 * finished room whose match is archived is rebuilt from the archive (its
 * seats, actions and events, merged by ply as the journal's are), with the
 * creator, creation time and bot levels the row keeps because the archive
 * does not. Synchronous, before store_start(), on the writer's connection.
 * The rows are written by store_journal.c's batches (JOP_AFTER).
 */
#include <errno.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include "store/store_int.h"
#include "base/util.h"

enum { Q_PLAYERS, Q_ROWS, Q_SEATS, Q_ACTIONS, Q_EVENTS, Q_MAX };

static const char *const after_sql[Q_MAX] = {
	[Q_PLAYERS] =
		"SELECT id, token_hash, name FROM players WHERE id IN (SELECT ms.player_id FROM live_after f "
		"JOIN matches m ON m.id = f.room_id JOIN match_seats ms ON ms.match_seq = m.seq "
		"WHERE ms.player_id IS NOT NULL "
		"AND NOT EXISTS (SELECT 1 FROM live_rooms r WHERE r.id = f.room_id))",
	[Q_ROWS] = "SELECT f.room_id, f.created_at, f.creator_id, f.bot_levels, f.mutes, f.rematch, m.seq, "
		   "m.game, m.options, m.server_seed, m.started_at, m.ended_at, f.rated + m.rated "
		   "FROM live_after f "
		   "LEFT JOIN matches m ON m.id = f.room_id "
		   "AND NOT EXISTS (SELECT 1 FROM live_rooms r WHERE r.id = f.room_id) "
		   "ORDER BY f.created_at, f.room_id",
	[Q_SEATS] = "SELECT seat, player_id, client_seed, bot FROM match_seats WHERE match_seq = ?1 ORDER BY "
		    "seat",
	[Q_ACTIONS] =
		"SELECT ply, seat, action, outcome, at, stand_in FROM match_actions WHERE match_seq = ?1 "
		"ORDER BY ply",
	[Q_EVENTS] = "SELECT ply, seat, kind, at FROM match_events WHERE match_seq = ?1 ORDER BY ply, rowid",
};

static const char *col(sqlite3_stmt *s, int i)
{
	return (const char *)sqlite3_column_text(s, i);
}

static int load_players(sqlite3_stmt *s, const struct store_after_ops *ops, void *ctx)
{
	int rc, r = 0;

	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		if (!col(s, 0) || !col(s, 1) || !col(s, 2))
			return -ENOMEM; /* NOT NULL columns: only an allocation failed */
		if ((r = ops->live.on_player(ctx, col(s, 0), col(s, 1), col(s, 2))))
			return r;
	}
	return rc == SQLITE_DONE ? 0 : -EIO;
}

/* The archived seats of match `seq`, each with its bot level from the row's `levels` (a JSON array). */
static int load_seats(sqlite3_stmt *s, const json_t *levels, const struct store_after_ops *ops, void *ctx,
		      int *err)
{
	int rc;

	while (!*err && (rc = sqlite3_step(s)) == SQLITE_ROW) {
		int seat = sqlite3_column_int(s, 0);
		const char *player = sqlite3_column_int(s, 3) ? NULL : col(s, 1);
		const char *seed = col(s, 2) && *col(s, 2) ? col(s, 2) : NULL; /* '': none was sent */
		const char *level = json_string_value(json_array_get(levels, (size_t)seat));

		if (!sqlite3_column_int(s, 3) && !player) {
			*err = -EINVAL; /* a person's seat without its identity */
			break;
		}
		*err = ops->live.on_seat(ctx, seat, player, seed, player ? NULL : level);
	}
	return *err || rc == SQLITE_DONE ? 0 : -EIO;
}

/* Rebuilds the archived room of row `row` through ops->live, then ops->on_after ends it. */
static int load_archived(sqlite3_stmt **q, sqlite3_stmt *row, const struct store_after_ops *ops, void *ctx)
{
	sqlite3_int64 seq = sqlite3_column_int64(row, 6);
	json_t *levels = json_loads(col(row, 3) ? col(row, 3) : "[]", 0, NULL);
	int err, r = -EIO;

	err = ops->live.on_room(ctx, col(row, 0), col(row, 7), col(row, 8), col(row, 9), col(row, 2),
				sqlite3_column_int64(row, 1), sqlite3_column_int64(row, 10));
	if (!err && sqlite3_column_int(row, 12) && ops->live.on_rated)
		ops->live.on_rated(ctx);
	if (sqlite3_bind_int64(q[Q_SEATS], 1, seq) == SQLITE_OK &&
	    sqlite3_bind_int64(q[Q_ACTIONS], 1, seq) == SQLITE_OK &&
	    sqlite3_bind_int64(q[Q_EVENTS], 1, seq) == SQLITE_OK)
		r = load_seats(q[Q_SEATS], levels, ops, ctx, &err) ||
				    store_plies_load(q[Q_ACTIONS], q[Q_EVENTS], &ops->live, ctx, &err)
			    ? -EIO
			    : 0;
	json_decref(levels);
	(void)sqlite3_reset(q[Q_SEATS]), (void)sqlite3_reset(q[Q_ACTIONS]), (void)sqlite3_reset(q[Q_EVENTS]);
	(void)ops->on_after(ctx, col(row, 0), true, sqlite3_column_int64(row, 11), col(row, 4), col(row, 5),
			    r ? r : err);
	return r ? r : 0;
}

int store_load_after(struct store *st, const struct store_after_ops *ops, void *ctx)
{
	sqlite3_stmt *q[Q_MAX] = { NULL };
	int k, r = 0, rc = SQLITE_DONE;

	if (st->pg)
		return store_pg_load_after(st, ops, ctx);
	for (k = 0; k < Q_MAX && !r; k++)
		if (sqlite3_prepare_v2(st->db, after_sql[k], -1, &q[k], NULL) != SQLITE_OK) {
			util_log(LOG_ERROR, "store: %s: %s", after_sql[k], sqlite3_errmsg(st->db));
			r = -EIO;
		}
	if (!r)
		r = load_players(q[Q_PLAYERS], ops, ctx);
	while (!r && (rc = sqlite3_step(q[Q_ROWS])) == SQLITE_ROW) {
		if (!col(q[Q_ROWS], 0) || !col(q[Q_ROWS], 4)) {
			r = -ENOMEM; /* NOT NULL columns */
			break;
		}
		if (sqlite3_column_type(q[Q_ROWS], 6) != SQLITE_NULL)
			r = load_archived(q, q[Q_ROWS], ops, ctx);
		else
			(void)ops->on_after(ctx, col(q[Q_ROWS], 0), false, 0, col(q[Q_ROWS], 4),
					    col(q[Q_ROWS], 5), 0);
	}
	if (!r && rc != SQLITE_DONE)
		r = -EIO;
	for (k = 0; k < Q_MAX; k++)
		(void)sqlite3_finalize(q[k]); /* NULL is a no-op; errors were handled at the step */
	return r;
}
