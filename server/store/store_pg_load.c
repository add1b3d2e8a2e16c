/*
 * store_pg_load.c: PostgreSQL's migrations and start-up loads (store.h:
 * store_load_players/live/after; SQLite's are store_journal.c's and
 * store_after.c's, and these answer the same callbacks in the same order).
 *
 * Migrations: the files of migrations/postgres in name order, each in a
 * transaction and recorded in schema_migrations, all under one advisory lock,
 * so that nodes starting together migrate once and the others wait, then
 * find them applied.
 *
 * Loads: synchronous. Before store_start() on the writer's connection; after
 * it (a node restoring the rooms it adopted) on a connection of its own,
 * blocking the caller, never the writer's. A node (st->node set) loads only
 * its own rooms (live_rooms.node, live_after.node), a single server only
 * those of no node. Each load reads in one REPEATABLE READ snapshot: every
 * room's seats, actions and events in four queries in the rooms' order, then
 * merged here, instead of three queries a room.
 */
#include <errno.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wire.h"
#include "store/store_pg_int.h"
#include "base/util.h"

/* pg_advisory_lock's key for migrations: "QUINTETO" in ASCII. */
#define MIGRATE_LOCK   "5860560853226656847"
#define MAX_MIGRATIONS 1024

/* --- migrations ---------------------------------------------------------------- */

static int exec_simple(PGconn *c, const char *sql, const char *what)
{
	PGresult *res = PQexec(c, sql);
	ExecStatusType s = PQresultStatus(res);
	int r = s == PGRES_COMMAND_OK || s == PGRES_TUPLES_OK ? 0 : -EIO;

	if (r)
		util_log(LOG_ERROR, "store: %s: %s", what,
			 res ? PQresultErrorMessage(res) : PQerrorMessage(c));
	PQclear(res);
	return r;
}

static int apply_one(PGconn *c, const char *dir, const char *name)
{
	char path[4096 + 256], version[24], *end, *sql;
	long v = strtol(name, &end, 10);
	const char *vals[3] = { version, name, NULL };
	char now[24];
	PGresult *res;
	bool applied;

	if (end == name || *end != '_')
		return 0;
	snprintf(version, sizeof(version), "%ld", v);
	if (!(res = store_pg_query(c, "schema_migrations",
				   "SELECT 1 FROM schema_migrations WHERE version = $1", 1, vals)))
		return -EIO;
	applied = PQntuples(res) > 0;
	PQclear(res);
	if (applied)
		return 0;
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	if (!(sql = store_file_read(path))) {
		util_log(LOG_ERROR, "store: cannot read migration %s", path);
		return -EIO;
	}
	snprintf(now, sizeof(now), "%lld", (long long)util_now_ms());
	vals[2] = now;
	if (exec_simple(c, "BEGIN", "begin migration") || exec_simple(c, sql, name) ||
	    !(res = store_pg_query(
		      c, name, "INSERT INTO schema_migrations(version, name, applied_at) VALUES ($1, $2, $3)",
		      3, vals)) ||
	    (PQclear(res), exec_simple(c, "COMMIT", "commit migration"))) {
		(void)exec_simple(c, "ROLLBACK", "rollback migration");
		free(sql);
		return -EIO;
	}
	util_log(LOG_INFO, "store: applied migration postgres/%s", name);
	free(sql);
	return 0;
}

int store_pg_migrate(PGconn *c, const char *dir)
{
	char *names[MAX_MIGRATIONS];
	size_t n = 0, i;
	int r = store_migrations_list(dir, names, MAX_MIGRATIONS, &n);

	if (!r && exec_simple(c, "SELECT pg_advisory_lock(" MIGRATE_LOCK ")", "the migrations' lock"))
		r = -EIO;
	if (!r && exec_simple(c,
			      "CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, "
			      "name TEXT NOT NULL, applied_at BIGINT NOT NULL)",
			      "schema_migrations"))
		r = -EIO;
	for (i = 0; i < n; i++) {
		if (!r)
			r = apply_one(c, dir, names[i]);
		free(names[i]);
	}
	/* a session lock: ours until unlocked or the connection ends */
	(void)exec_simple(c, "SELECT pg_advisory_unlock(" MIGRATE_LOCK ")", "the migrations' lock");
	return r;
}

/* --- reading results ------------------------------------------------------------ */

/* A column's text, NULL for SQL NULL. */
static const char *val(const PGresult *res, int row, int col)
{
	return PQgetisnull(res, row, col) ? NULL : PQgetvalue(res, row, col);
}

static long long num(const PGresult *res, int row, int col)
{
	return strtoll(PQgetvalue(res, row, col), NULL, 10); /* "" (NULL) is 0, as SQLite reads it */
}

/*
 * A connection for a load: the writer's before store_start(), else a new one
 * (*own set: the caller closes it). NULL when PostgreSQL cannot be reached.
 */
static PGconn *load_conn(struct store *st, bool *own)
{
	*own = st->started;
	return *own ? store_pg_connect(st->pg->conninfo, false) : st->pg->w;
}

static void load_done(PGconn *c, bool own)
{
	(void)exec_simple(c, "COMMIT", "end of a load"); /* a read-only snapshot: nothing to keep */
	if (own)
		PQfinish(c);
}

/*
 * Runs `tmpl` with its one "%s" replaced by the node filter of table alias
 * `t` (its own rooms, or those of no node for a single server), the node as
 * $1 when set.
 */
static PGresult *query_node(PGconn *c, const struct store *st, const char *what, const char *tmpl,
			    const char *t)
{
	const char *hole = strstr(tmpl, "%s"), *vals[1] = { st->node };
	char sql[1024];

	snprintf(sql, sizeof(sql), "%.*s%s.node %s%s", (int)(hole - tmpl), tmpl, t,
		 st->node[0] ? "= $1" : "IS NULL", hole + 2);
	return store_pg_query(c, what, sql, st->node[0] ? 1 : 0, vals);
}

static PGconn *load_begin(struct store *st, bool *own)
{
	PGconn *c = load_conn(st, own);

	if (c && exec_simple(c, "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY", "begin a load")) {
		if (*own)
			PQfinish(c);
		return NULL;
	}
	return c;
}

int store_pg_load_players(struct store *st, const struct store_live_ops *ops, void *ctx)
{
	bool own;
	PGconn *c = load_begin(st, &own);
	PGresult *res;
	int i, r = 0;

	if (!c)
		return -EIO;
	/* only the identities the journal's seats need; the others are looked up when they say hello */
	res = query_node(
		c, st, "load players",
		"SELECT id, token_hash, name FROM players WHERE id IN (SELECT s.player_id FROM live_seats s "
		"JOIN live_rooms r ON r.id = s.room_id WHERE s.player_id IS NOT NULL AND %s)",
		"r");
	for (i = 0; res && !r && i < PQntuples(res); i++)
		r = ops->on_player(ctx, val(res, i, 0), val(res, i, 1), val(res, i, 2));
	if (!res)
		r = -EIO;
	PQclear(res);
	load_done(c, own);
	return r;
}

/*
 * A room's actions (rows [*ai, an) of `a`, columns from `ac`: ply, seat,
 * action, outcome, at, stand_in) and events ([*ei, en) of `e`, from `ec`: ply,
 * seat, kind, at) merged by ply; an event at ply p goes before action p.
 */
struct plies {
	const PGresult *a, *e;
	int ai, an, ac, ei, en, ec;
};

static void plies_merge(struct plies *p, const struct store_live_ops *ops, void *ctx, int *err)
{
	while (!*err && (p->ai < p->an || p->ei < p->en)) {
		const PGresult *a = p->a, *e = p->e;
		int ac = p->ac, ec = p->ec;

		if (p->ei < p->en && (p->ai >= p->an || num(e, p->ei, ec) <= num(a, p->ai, ac))) {
			int kind = wire_event_kind_parse(val(e, p->ei, ec + 2));

			*err = kind ? ops->on_event(ctx, (int)num(e, p->ei, ec), (int)num(e, p->ei, ec + 1),
						    kind, num(e, p->ei, ec + 3))
				    : -EINVAL;
			p->ei++;
		} else {
			*err = ops->on_action(ctx, (int)num(a, p->ai, ac), (int)num(a, p->ai, ac + 1),
					      val(a, p->ai, ac + 2), val(a, p->ai, ac + 3),
					      num(a, p->ai, ac + 4), num(a, p->ai, ac + 5) != 0);
			p->ai++;
		}
	}
}

/* The end of the rows from `from` whose column `col` is `key` (the results are in the rooms' order). */
static int rows_of(const PGresult *res, int from, int col, const char *key)
{
	while (from < PQntuples(res) && !strcmp(PQgetvalue(res, from, col), key))
		from++;
	return from;
}

enum { L_ROOMS, L_SEATS, L_ACTIONS, L_EVENTS, L_MAX };

/* Every live room of this node, in the rooms' order; the other three in that order too. */
static const char *const live_sql[L_MAX] = {
	[L_ROOMS] = "SELECT id, game, options, server_seed, created_at, started_at, creator_id, key, rated "
		    "FROM live_rooms r WHERE %s ORDER BY created_at, id COLLATE \"C\"",
	[L_SEATS] = "SELECT s.room_id, s.seat, s.player_id, s.client_seed, s.bot_level FROM live_seats s "
		    "JOIN live_rooms r ON r.id = s.room_id WHERE %s ORDER BY r.created_at, r.id COLLATE "
		    "\"C\", s.seat",
	[L_ACTIONS] = "SELECT l.room, l.ply, l.seat, l.action, l.outcome, l.at, l.stand_in FROM live_log l "
		      "JOIN live_rooms r ON r.key = l.room WHERE %s "
		      "ORDER BY r.created_at, r.id COLLATE \"C\", l.ply, l.seq",
	[L_EVENTS] = "SELECT e.room_id, e.ply, e.seat, e.kind, e.at FROM live_events e "
		     "JOIN live_rooms r ON r.id = e.room_id WHERE %s "
		     "ORDER BY r.created_at, r.id COLLATE \"C\", e.ply, e.rowid",
};

/* Room `i` of q[L_ROOMS] through ops, its rows from the cursors (*cur: seats, actions, events). */
static void live_room(PGresult **q, int i, int *cur, const struct store_live_ops *ops, void *ctx)
{
	const char *id = val(q[L_ROOMS], i, 0), *key = val(q[L_ROOMS], i, 7);
	int se = rows_of(q[L_SEATS], cur[0], 0, id), err;
	struct plies p = { q[L_ACTIONS],
			   q[L_EVENTS],
			   cur[1],
			   rows_of(q[L_ACTIONS], cur[1], 0, key),
			   1,
			   cur[2],
			   rows_of(q[L_EVENTS], cur[2], 0, id),
			   1 };
	const PGresult *s = q[L_SEATS];

	err = ops->on_room(ctx, id, val(q[L_ROOMS], i, 1), val(q[L_ROOMS], i, 2), val(q[L_ROOMS], i, 3),
			   val(q[L_ROOMS], i, 6), num(q[L_ROOMS], i, 4), num(q[L_ROOMS], i, 5));
	if (!err && num(q[L_ROOMS], i, 8) && ops->on_rated)
		ops->on_rated(ctx);
	for (int k = cur[0]; !err && k < se; k++)
		err = ops->on_seat(ctx, (int)num(s, k, 1), val(s, k, 2), val(s, k, 3), val(s, k, 4));
	plies_merge(&p, ops, ctx, &err);
	cur[0] = se, cur[1] = p.an, cur[2] = p.en; /* what a refused room left unread is passed */
	ops->on_room_end(ctx, err);
}

int store_pg_load_live(struct store *st, const struct store_live_ops *ops, void *ctx)
{
	PGresult *q[L_MAX] = { NULL };
	int k, i, cur[3] = { 0, 0, 0 }, r = 0;
	bool own;
	PGconn *c = load_begin(st, &own);

	if (!c)
		return -EIO;
	for (k = 0; k < L_MAX && !r; k++)
		if (!(q[k] = query_node(c, st, "load live rooms", live_sql[k], "r")))
			r = -EIO;
	for (i = 0; !r && i < PQntuples(q[L_ROOMS]); i++)
		live_room(q, i, cur, ops, ctx);
	for (k = 0; k < L_MAX; k++)
		PQclear(q[k]);
	load_done(c, own);
	return r;
}

/* --- live_after ------------------------------------------------------------------ */

enum { A_PLAYERS, A_ROWS, A_MAX };

static const char *const after_sql[A_MAX] = {
	[A_PLAYERS] =
		"SELECT id, token_hash, name FROM players WHERE id IN (SELECT ms.player_id FROM live_after f "
		"JOIN matches m ON m.id = f.room_id JOIN match_seats ms ON ms.match_seq = m.seq "
		"WHERE ms.player_id IS NOT NULL AND %s "
		"AND NOT EXISTS (SELECT 1 FROM live_rooms r WHERE r.id = f.room_id))",
	[A_ROWS] = "SELECT f.room_id, f.created_at, f.creator_id, f.bot_levels, f.mutes, f.rematch, m.seq, "
		   "m.game, m.options, m.server_seed, m.started_at, m.ended_at, f.rated + m.rated "
		   "FROM live_after f LEFT JOIN matches m ON m.id = f.room_id "
		   "AND NOT EXISTS (SELECT 1 FROM live_rooms r WHERE r.id = f.room_id) "
		   "WHERE %s ORDER BY f.created_at, f.room_id COLLATE \"C\"",
};

/* The archived seats of the row's match, each with its bot level from `levels` (a JSON array). */
static void after_seats(const PGresult *s, const json_t *levels, const struct store_after_ops *ops, void *ctx,
			int *err)
{
	for (int k = 0; !*err && k < PQntuples(s); k++) {
		int seat = (int)num(s, k, 0);
		bool bot = num(s, k, 3) != 0;
		const char *player = bot ? NULL : val(s, k, 1);
		const char *seed =
			val(s, k, 2) && *val(s, k, 2) ? val(s, k, 2) : NULL; /* '': none was sent */
		const char *level = json_string_value(json_array_get(levels, (size_t)seat));

		if (!bot && !player) {
			*err = -EINVAL; /* a person's seat without its identity */
			break;
		}
		*err = ops->live.on_seat(ctx, seat, player, seed, player ? NULL : level);
	}
}

/* Rebuilds the archived room of row i through ops->live, then ops->on_after ends it. 0 or -EIO. */
static int after_archived(PGconn *c, const PGresult *rows, int i, const struct store_after_ops *ops,
			  void *ctx)
{
	const char *seq[1] = { val(rows, i, 6) };
	json_t *levels = json_loads(val(rows, i, 3) ? val(rows, i, 3) : "[]", 0, NULL);
	PGresult *s, *a, *e;
	int err, r = 0;

	err = ops->live.on_room(ctx, val(rows, i, 0), val(rows, i, 7), val(rows, i, 8), val(rows, i, 9),
				val(rows, i, 2), num(rows, i, 1), num(rows, i, 10));
	if (!err && num(rows, i, 12) && ops->live.on_rated)
		ops->live.on_rated(ctx);
	s = store_pg_query(c, "load after",
			   "SELECT seat, player_id, client_seed, bot FROM match_seats "
			   "WHERE match_seq = $1 ORDER BY seat",
			   1, seq);
	a = store_pg_query(c, "load after",
			   "SELECT ply, seat, action, outcome, at, stand_in FROM match_actions "
			   "WHERE match_seq = $1 ORDER BY ply",
			   1, seq);
	e = store_pg_query(c, "load after",
			   "SELECT ply, seat, kind, at FROM match_events "
			   "WHERE match_seq = $1 ORDER BY ply, rowid",
			   1, seq);
	if (s && a && e) {
		struct plies p = { a, e, 0, PQntuples(a), 0, 0, PQntuples(e), 0 };

		after_seats(s, levels, ops, ctx, &err);
		plies_merge(&p, &ops->live, ctx, &err);
	} else {
		r = -EIO;
	}
	PQclear(s), PQclear(a), PQclear(e);
	json_decref(levels);
	(void)ops->on_after(ctx, val(rows, i, 0), true, num(rows, i, 11), val(rows, i, 4), val(rows, i, 5),
			    r ? r : err);
	return r;
}

int store_pg_load_after(struct store *st, const struct store_after_ops *ops, void *ctx)
{
	PGresult *q[A_MAX] = { NULL };
	int k, i, r = 0;
	bool own;
	PGconn *c = load_begin(st, &own);

	if (!c)
		return -EIO;
	for (k = 0; k < A_MAX && !r; k++)
		if (!(q[k] = query_node(c, st, "load after", after_sql[k], "f")))
			r = -EIO;
	for (i = 0; !r && i < PQntuples(q[A_PLAYERS]); i++)
		r = ops->live.on_player(ctx, val(q[A_PLAYERS], i, 0), val(q[A_PLAYERS], i, 1),
					val(q[A_PLAYERS], i, 2));
	for (i = 0; !r && i < PQntuples(q[A_ROWS]); i++) {
		const PGresult *rows = q[A_ROWS];

		if (!PQgetisnull(rows, i, 6))
			r = after_archived(c, rows, i, ops, ctx);
		else
			(void)ops->on_after(ctx, val(rows, i, 0), false, 0, val(rows, i, 4), val(rows, i, 5),
					    0);
	}
	for (k = 0; k < A_MAX; k++)
		PQclear(q[k]);
	load_done(c, own);
	return r;
}
