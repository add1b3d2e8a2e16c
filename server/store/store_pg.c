/*
 * store_pg.c: the store on PostgreSQL (store.h's store_open_pg(), and
 * docs/SCALING.md, "The store"). The loop side (batches, group commit, notes,
 * callbacks, the writer's queue) is store.c's and store_journal.c's, shared
 * with SQLite; this file is what talks to PostgreSQL: connecting, the
 * writer's transactions, the readers' connections and the identity lookup.
 *
 * The writer runs each job (a journal batch, with the archive saves queued in
 * it, or an archive save alone) as one transaction in one round trip: libpq's
 * pipeline mode sends BEGIN, the fence (cluster mode), the job's ledger row,
 * its statements and COMMIT together, then reads their answers. A job is kept
 * whole until it commits: a connection that breaks or a deadline that passes
 * drops the connection and the job is tried again on a new one, with
 * back-off; a statement refused for its own sake (a constraint) is left out
 * and the rest written at once, as on SQLite. The ledger row (store boot id,
 * the writer's transaction count) makes a retry safe when the first try's
 * COMMIT may have committed unseen: it is the transaction's first write, so a
 * retry after such a commit fails on its primary key (and one racing a commit
 * still in flight waits for it), and the job is then known to be done, never
 * applied twice. A fenced transaction (the node's lease taken over) is rolled
 * back and never retried.
 */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "wire.h"
#include "store/name_fold.h"
#include "store/store_pg_int.h"
#include "base/util.h"

_Atomic int store_pg_test_lose_commits;
_Atomic int store_pg_txn_ms = STORE_PG_TXN_MS;

/*
 * The store's defaults, before the operator's conninfo (expanded from
 * `dbname`), whose own settings win: a connection that cannot be made in 5 s
 * fails; a peer that stops answering is noticed by TCP within about 10 s;
 * PostgreSQL's notices ("already exists, skipping") stay out of the log.
 */
static const char *const conn_keys[] = { "connect_timeout",  "keepalives",
					 "keepalives_idle",  "keepalives_interval",
					 "keepalives_count", "tcp_user_timeout",
					 "application_name", "options",
					 "dbname",           NULL };

int64_t store_pg_now(void)
{
	return (int64_t)(util_mono_ns() / 1000000u);
}

/* `app`: application_name, so that pg_stat_activity tells the writer, the readers and the lookups apart. */
static void conn_values(const char *conninfo, const char *app, const char **vals)
{
	static const char *const defaults[] = {
		"5", "1", "5", "2", "3", "10000", "quinteto-server", "-c client_min_messages=warning"
	};

	memcpy(vals, defaults, sizeof(defaults));
	vals[6] = app;
	vals[8] = conninfo;
	vals[9] = NULL;
}

/* store_pg_connect() with the connection's role as its application_name. */
static PGconn *connect_as(const char *conninfo, const char *app, bool quiet)
{
	const char *vals[10];
	PGconn *c;

	conn_values(conninfo, app, vals);
	c = PQconnectdbParams(conn_keys, vals, 1);
	if (c && PQstatus(c) == CONNECTION_OK)
		return c;
	if (!quiet)
		util_log(LOG_ERROR, "store: PostgreSQL cannot be reached: %s",
			 c ? PQerrorMessage(c) : "out of memory");
	PQfinish(c); /* NULL is a no-op */
	return NULL;
}

PGconn *store_pg_connect(const char *conninfo, bool quiet)
{
	return connect_as(conninfo, "quinteto-server", quiet);
}

PGresult *store_pg_query(PGconn *c, const char *what, const char *sql, int n, const char *const *vals)
{
	PGresult *res = PQexecParams(c, sql, n, NULL, vals, NULL, NULL, 0);
	ExecStatusType s = PQresultStatus(res);

	if (s == PGRES_COMMAND_OK || s == PGRES_TUPLES_OK)
		return res;
	util_log(LOG_ERROR, "store: %s: %s", what, res ? PQresultErrorMessage(res) : PQerrorMessage(c));
	PQclear(res);
	return NULL;
}

int store_pg_errno(const PGresult *res)
{
	const char *state = res ? PQresultErrorField(res, PG_DIAG_SQLSTATE) : NULL;

	if (!state)
		return -EIO;
	if (!strcmp(state, "QF001"))
		return STORE_E_FENCED;
	if (!strcmp(state, "53100")) /* disk_full */
		return -ENOSPC;
	if (!strcmp(state, "53200")) /* out_of_memory */
		return -ENOMEM;
	if (!strcmp(state,
		    "25006")) /* read_only_sql_transaction: a standby, or default_transaction_read_only */
		return -EROFS;
	if (!strcmp(state, "40001") || !strcmp(state, "40P01") || !strcmp(state, "55P03"))
		return -EBUSY;
	if (!strcmp(state, "42501")) /* insufficient_privilege */
		return -EACCES;
	return -EIO;
}

/* --- waiting on a non-blocking connection ------------------------------------ */

/* Until a result can be taken without blocking: 0, -ETIMEDOUT at the deadline, -EIO if the connection broke.
 */
static int pg_ready(PGconn *c, int64_t deadline)
{
	for (;;) {
		int f = PQflush(c);
		struct pollfd p;
		int64_t left;

		if (f < 0 || !PQconsumeInput(c))
			return -EIO;
		if (!f && !PQisBusy(c))
			return 0;
		if ((left = deadline - store_pg_now()) <= 0)
			return -ETIMEDOUT;
		p.fd = PQsocket(c);
		p.events = (short)(POLLIN | (f ? POLLOUT : 0));
		if (poll(&p, 1, left > INT_MAX ? INT_MAX : (int)left) < 0 && errno != EINTR)
			return -EIO;
	}
}

/* The next result, NULL at the end of a query's results or with *err set (the connection is lost). */
static PGresult *pg_next(PGconn *c, int64_t deadline, int *err)
{
	*err = pg_ready(c, deadline);
	return *err ? NULL : PQgetResult(c);
}

/* Runs `sql` on a non-blocking connection: 0 (*out its last result, to clear) or -EIO / -ETIMEDOUT. */
static int pg_exec(PGconn *c, int64_t deadline, const char *sql, int n, const char *const *vals,
		   PGresult **out)
{
	PGresult *res, *last = NULL;
	int err = 0;

	*out = NULL;
	if (!PQsendQueryParams(c, sql, n, NULL, vals, NULL, NULL, 0))
		return -EIO;
	while ((res = pg_next(c, deadline, &err))) {
		PQclear(last);
		last = res;
	}
	if (err) {
		PQclear(last);
		return err;
	}
	*out = last;
	return 0;
}

/* A non-blocking connection made within the deadline (PQconnectPoll), or NULL. */
static PGconn *connect_nb(const char *conninfo, const char *app, int64_t deadline)
{
	const char *vals[10];
	PostgresPollingStatusType s = PGRES_POLLING_WRITING;
	PGconn *c;

	conn_values(conninfo, app, vals);
	c = PQconnectStartParams(conn_keys, vals, 1);
	if (!c || PQstatus(c) == CONNECTION_BAD)
		goto err;
	while (s != PGRES_POLLING_OK) {
		struct pollfd p = { .fd = PQsocket(c),
				    .events = s == PGRES_POLLING_READING ? POLLIN : POLLOUT };
		int64_t left = deadline - store_pg_now();

		if (s == PGRES_POLLING_FAILED || left <= 0)
			goto err;
		if (poll(&p, 1, (int)left) < 0 && errno != EINTR)
			goto err;
		s = PQconnectPoll(c);
	}
	if (PQsetnonblocking(c, 1) == 0)
		return c;
err:
	PQfinish(c);
	return NULL;
}

/*
 * Whether an idle connection is still worth a query. Nothing is due on an
 * idle connection of ours (none LISTENs), so anything readable is a server
 * saying goodbye (a shutdown's FATAL, then EOF) or EOF itself: the connection
 * is taken as gone, before a query is lost on it.
 */
static bool idle_alive(PGconn *c)
{
	struct pollfd p = { .fd = c ? PQsocket(c) : -1, .events = POLLIN };

	if (!c || PQstatus(c) != CONNECTION_OK || p.fd < 0)
		return false;
	return poll(&p, 1, 0) == 0;
}

/* --- the writer's statements ------------------------------------------------- */

/* The journal's statements (JOP_*, store_journal.c's, in PostgreSQL's words), then the writer's own. */
enum {
	PS_ROOM_CLEAR = JOP_MAX,
	PS_ACTIONS,
	PS_MATCH,
	PS_SEAT,
	PS_ACTION,
	PS_EVENT,
	PS_DROP,
	PS_FENCE,
	PS_LEDGER,
	PS_RATING_CLOCK,
	PS_RATED_SEQ,
	PS_RATINGS_GET,
	PS_RATING_PUT,
	PS_RATING_HISTORY,
	PS_MAX
};

/* The most actions one PS_ACTIONS statement appends. */
#define ACTIONS_GROUP 512

#define SEQ_OF  "(SELECT seq FROM matches WHERE id = $1)"
#define SEQ_OF4 "(SELECT seq FROM matches WHERE id = $4)"

static const char *const ps_sql[PS_MAX] = {
	[JOP_PLAYER] =
		"INSERT INTO players(id, token_hash, name, created_at, seen_at) VALUES ($1, $2, $3, $4, $4) "
		"ON CONFLICT (id) DO UPDATE SET name = excluded.name, seen_at = excluded.seen_at",
	/* SQLite's INSERT OR REPLACE: PS_ROOM_CLEAR first (its seats, events and log go by the cascade) */
	[JOP_ROOM] = "INSERT INTO live_rooms(id, game, options, server_seed, created_at, creator_id, node) "
		     "VALUES ($1, $2, $3, $4, $5, $6, $7)",
	[JOP_SEAT] = "INSERT INTO live_seats(room_id, seat, player_id, client_seed, bot_level) "
		     "VALUES ($1, $2, $3, $4, $5) ON CONFLICT (room_id, seat) DO UPDATE SET "
		     "player_id = excluded.player_id, client_seed = excluded.client_seed, "
		     "bot_level = excluded.bot_level",
	[JOP_SEAT_FREE] = "DELETE FROM live_seats WHERE room_id = $1 AND seat = $2",
	/* an unknown room is a NOT NULL violation: refused, as on SQLite */
	[JOP_ACTION] = "INSERT INTO live_log(room, ply, seat, action, outcome, at, stand_in) "
		       "VALUES ((SELECT key FROM live_rooms WHERE id = $1), $2, $3, $4, $5, $6, $7)",
	[JOP_STARTED] = "UPDATE live_rooms SET started_at = $2 WHERE id = $1",
	[JOP_EVENT] = "INSERT INTO live_events(room_id, ply, seat, kind, at) VALUES ($1, $2, $3, $4, $5)",
	[JOP_DROP] = "DELETE FROM live_rooms WHERE id = $1",
	[JOP_PLAYERS_EXPIRE] = "DELETE FROM players WHERE seen_at < $1 "
			       "AND NOT EXISTS (SELECT 1 FROM live_seats s WHERE s.player_id = players.id) "
			       "AND NOT EXISTS (SELECT 1 FROM live_rooms r WHERE r.creator_id = players.id) "
			       "AND NOT EXISTS (SELECT 1 FROM match_seats m WHERE m.player_id = players.id) "
			       /* an account stays until it is deleted (its row is referenced) */
			       "AND NOT EXISTS (SELECT 1 FROM accounts a WHERE a.player_id = players.id)",
	[JOP_AFTER] =
		"INSERT INTO live_after(room_id, created_at, creator_id, bot_levels, mutes, rematch, node) "
		"VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (room_id) DO UPDATE SET "
		"created_at = excluded.created_at, creator_id = excluded.creator_id, "
		"bot_levels = excluded.bot_levels, mutes = excluded.mutes, rematch = excluded.rematch, "
		"node = excluded.node",
	[JOP_AFTER_DROP] = "DELETE FROM live_after WHERE room_id = $1",
	[JOP_ROOM_RATED] = "UPDATE live_rooms SET rated = 1 WHERE id = $1",
	[JOP_AFTER_RATED] = "UPDATE live_after SET rated = 1 WHERE room_id = $1",
	[JOP_SESSION_SEEN] = "UPDATE sessions SET seen_at = $2 WHERE token_hash = $1",
	[PS_ROOM_CLEAR] = "DELETE FROM live_rooms WHERE id = $1",
	/*
	 * A run of JOP_ACTIONs in one statement (arrays, one element an action):
	 * PostgreSQL's cost is mostly per statement. Appended in their order; an
	 * unknown room refuses the whole run, which is then written one by one.
	 */
	[PS_ACTIONS] =
		"INSERT INTO live_log(room, ply, seat, action, outcome, at, stand_in) "
		"SELECT (SELECT key FROM live_rooms WHERE id = a.room), a.ply, a.seat, a.action, a.outcome, "
		"a.at, a.stand_in FROM unnest($1::text[], $2::int[], $3::int[], $4::text[], $5::text[], "
		"$6::bigint[], $7::int[]) WITH ORDINALITY AS a(room, ply, seat, action, outcome, at, "
		"stand_in, n) ORDER BY a.n",
	[PS_MATCH] = "INSERT INTO matches(id, game, options, commit_hex, server_seed, client_seeds, result, "
		     "server_version, started_at, ended_at, plies) "
		     "VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)",
	/* the match's seq by its id: the pipeline sends everything before the first answer comes */
	[PS_SEAT] = "INSERT INTO match_seats(match_seq, seat, role, name, bot, player_id, client_seed, "
		    "abandoned, "
		    "name_key) VALUES (" SEQ_OF ", $2, $3, $4, $5, $6, $7, $8, $9)",
	[PS_ACTION] = "INSERT INTO match_actions(match_seq, ply, seat, action, outcome, at, stand_in) "
		      "VALUES (" SEQ_OF ", $2, $3, $4, $5, $6, $7)",
	[PS_EVENT] = "INSERT INTO match_events(match_seq, ply, seat, kind, at) VALUES (" SEQ_OF
		     ", $2, $3, $4, $5)",
	[PS_DROP] = "DELETE FROM live_rooms WHERE id = $1",
	/* raises QF001 unless the node's lease row, held FOR SHARE, still has this epoch (0001_schema.sql) */
	[PS_FENCE] = "SELECT quinteto_fence($1, $2)",
	/* the transaction's first write; the boot's older rows go with it (only the last can be in doubt) */
	[PS_LEDGER] = "WITH gone AS (DELETE FROM store_ledger WHERE boot = $1 AND seq < $2) "
		      "INSERT INTO store_ledger(boot, seq) VALUES ($1, $2)",
	/*
	 * A rated match (store.h; 0003_accounts.sql): the clock's row first, so
	 * that transactions applying rated matches, on any node, run one at a
	 * time, each reading the ratings the previous one wrote.
	 */
	[PS_RATING_CLOCK] = "UPDATE rating_clock SET n = n + 1 WHERE one = 1 RETURNING n",
	[PS_RATED_SEQ] = "UPDATE matches SET rated = 1, rated_seq = (SELECT coalesce(max(rated_seq), 0) + 1 "
			 "FROM matches WHERE rated_seq IS NOT NULL) WHERE id = $1 RETURNING rated_seq",
	[PS_RATINGS_GET] = "SELECT player_id, rating, rd, vol, matches, last_at FROM ratings WHERE game = $1 "
			   "AND player_id = ANY ($2::text[])",
	[PS_RATING_PUT] = "INSERT INTO ratings(player_id, game, rating, rd, vol, matches, last_at) "
			  "VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (player_id, game) DO UPDATE SET "
			  "rating = excluded.rating, rd = excluded.rd, vol = excluded.vol, "
			  "matches = excluded.matches, last_at = excluded.last_at",
	[PS_RATING_HISTORY] = "INSERT INTO rating_history(player_id, game, rated_seq, match_seq, rating, rd, "
			      "vol, at) VALUES ($1, $2, $3, " SEQ_OF4 ", $5, $6, $7, $8)",
};

static void ps_name(int k, char *out, size_t size)
{
	snprintf(out, size, "quinteto_w%d", k);
}

/* What the attempt in flight sent, in order: its answers come back in that order. */
enum sent_tag { S_BEGIN, S_FENCE, S_LEDGER, S_OP, S_MATCH, S_COMMIT, S_RATING_CLOCK, S_RATED_SEQ, S_RATINGS };
struct sent {
	enum sent_tag tag;
	size_t op;        /* S_OP: the batch's statement (the first of a run of actions) */
	size_t count;     /* S_OP: the statements it wrote (a run of actions: more than one) */
	struct wjob *job; /* S_MATCH: the archive save */
};

struct attempt {
	struct store *st;
	struct wjob *j;
	size_t n;   /* sent so far */
	bool ok;    /* every send succeeded */
	bool rated; /* the job archives a rated match: two round trips (send_rated_writes) */
};

static void drop_writer(struct store_pg *pg)
{
	PQfinish(pg->w);
	pg->w = NULL;
	pg->w_ready = false;
}

/* The writer's connection, prepared and non-blocking; false when PostgreSQL cannot be reached. */
static bool writer_connect(struct store *st)
{
	struct store_pg *pg = st->pg;
	PGresult *res;
	char name[32];
	int k;

	if (pg->w && pg->w_ready && !idle_alive(pg->w))
		drop_writer(pg); /* it went away while idle: no statement was in flight */
	if (!pg->w) {
		if (pg->gone || !(pg->w = connect_as(pg->conninfo, "quinteto-writer", pg->w_said))) {
			if (!pg->w_said)
				util_log(LOG_ERROR,
					 "store: the writer cannot reach PostgreSQL; it keeps trying");
			pg->w_said = true;
			pg->gone = store_writer_quitting(st); /* closing: the last tries go without it */
			return false;
		}
	}
	if (pg->w_ready)
		return true;
	/* a session whose client vanished mid-transaction must not hold its locks (and ledger row) for long
	 */
	if (!(res = store_pg_query(pg->w, "writer session", "SET idle_in_transaction_session_timeout = '15s'",
				   0, NULL)))
		goto err;
	PQclear(res);
	for (k = 0; k < PS_MAX; k++) {
		ps_name(k, name, sizeof(name));
		res = PQprepare(pg->w, name, ps_sql[k], 0, NULL);
		if (PQresultStatus(res) != PGRES_COMMAND_OK) {
			util_log(LOG_ERROR, "store: %s: %s", ps_sql[k], PQerrorMessage(pg->w));
			PQclear(res);
			goto err;
		}
		PQclear(res);
	}
	if (PQsetnonblocking(pg->w, 1))
		goto err;
	pg->w_ready = true;
	if (pg->w_said)
		util_log(LOG_INFO, "store: the writer reaches PostgreSQL again");
	pg->w_said = false;
	return true;
err:
	drop_writer(pg);
	return false;
}

/* Sends one statement (k < 0: `sql` without parameters) and records what it was. */
static void send_one(struct attempt *a, enum sent_tag tag, size_t op, struct wjob *job, int k,
		     const char *sql, int n, const char *const *vals)
{
	struct store_pg *pg = a->st->pg;
	struct sent *s;
	char name[32];

	if (!a->ok)
		return;
	if (a->n == pg->sent_cap) {
		size_t cap = pg->sent_cap ? pg->sent_cap * 2 : 256;
		void *p = realloc(pg->sent, cap * sizeof(*s));

		if (!p) {
			a->ok = false;
			return;
		}
		pg->sent = p;
		pg->sent_cap = cap;
	}
	if (k >= 0) {
		ps_name(k, name, sizeof(name));
		a->ok = PQsendQueryPrepared(pg->w, name, n, vals, NULL, NULL, 0) == 1;
	} else {
		a->ok = PQsendQueryParams(pg->w, sql, 0, NULL, NULL, NULL, NULL, 0) == 1;
	}
	s = (struct sent *)pg->sent + a->n++;
	s->tag = tag;
	s->op = op;
	s->count = 1;
	s->job = job;
}

#define I64(buf, v) (snprintf((buf), sizeof(buf), "%" PRId64, (int64_t)(v)), (const char *)(buf))

/* Whether the batch's statement k is an action that may go in a run with its neighbours. */
static bool groupable(const struct wjob *b, size_t k)
{
	return k < b->nops && b->ops[k].kind == JOP_ACTION && !b->ops[k].skip && !b->ops[k].solo;
}

/* Appends `v` to the arrays' buffer as an element of an array literal ("...", escaped). */
static bool arr_put(struct store_pg *pg, size_t *len, const char *v, bool text)
{
	size_t need = *len + 2 * strlen(v) + 4;

	if (need > pg->arr_cap) {
		size_t cap = pg->arr_cap ? pg->arr_cap : 65536;
		char *p;

		while (cap < need)
			cap *= 2;
		if (!(p = realloc(pg->arr, cap)))
			return false;
		pg->arr = p;
		pg->arr_cap = cap;
	}
	if (text)
		pg->arr[(*len)++] = '"';
	for (; *v; v++) {
		if (text && (*v == '"' || *v == '\\'))
			pg->arr[(*len)++] = '\\';
		pg->arr[(*len)++] = *v;
	}
	if (text)
		pg->arr[(*len)++] = '"';
	return true;
}

/* Sends the run of actions [k, end) as one PS_ACTIONS: seven array literals, one a column. */
static void send_actions(struct attempt *a, size_t k, size_t end)
{
	const struct wjob *b = a->j;
	struct store_pg *pg = a->st->pg;
	size_t off[7], len = 0, i;
	const char *vals[7];
	char num[24];
	int c;

	for (c = 0; c < 7 && a->ok; c++) {
		off[c] = len;
		a->ok = arr_put(pg, &len, "{", false);
		for (i = k; i < end && a->ok; i++) {
			const struct param *p = &b->ops[i].p[c];
			const char *v = p->is_int ? I64(num, p->i) : p->is_null ? "NULL" : b->text + p->off;

			a->ok = (i == k || arr_put(pg, &len, ",", false)) &&
				arr_put(pg, &len, v, !p->is_int && !p->is_null);
		}
		a->ok = a->ok && arr_put(pg, &len, "}", false);
		if (a->ok)
			pg->arr[len++] = '\0'; /* arr_put left room for it */
	}
	for (c = 0; c < 7 && a->ok; c++)
		vals[c] = pg->arr + off[c];
	send_one(a, S_OP, k, NULL, PS_ACTIONS, NULL, 7, vals);
	if (a->ok)
		((struct sent *)pg->sent)[a->n - 1].count = end - k;
}

/* The batch's statement k, with the node as the last parameter of a room and of a room's after row. */
static void send_op(struct attempt *a, size_t k)
{
	const struct wjob *b = a->j;
	const struct jop *o = &b->ops[k];
	const char *vals[JOP_PARAMS + 1];
	char ints[JOP_PARAMS][24];
	int i, n = o->np;

	for (i = 0; i < o->np; i++) {
		const struct param *p = &o->p[i];

		vals[i] = p->is_int ? I64(ints[i], p->i) : p->is_null ? NULL : b->text + p->off;
	}
	if (o->kind == JOP_ROOM || o->kind == JOP_AFTER)
		vals[n++] = a->st->node[0] ? a->st->node : NULL;
	if (o->kind == JOP_ROOM)
		send_one(a, S_OP, k, NULL, PS_ROOM_CLEAR, NULL, 1, vals);
	send_one(a, S_OP, k, NULL, (int)o->kind, NULL, n, vals);
}

static void send_seat(struct attempt *a, struct wjob *j, const struct store_seat *x)
{
	size_t len = strlen(x->name);
	char *key = malloc(len + 1), ib[3][24];
	const char *v[9];

	if (!key) {
		a->ok = false;
		return;
	}
	name_fold(x->name, len, key);
	v[0] = j->match->id, v[1] = I64(ib[0], x->seat), v[2] = x->role, v[3] = x->name;
	v[4] = I64(ib[1], x->bot), v[5] = x->player_id, v[6] = x->client_seed ? x->client_seed : "";
	v[7] = I64(ib[2], x->abandoned), v[8] = key;
	send_one(a, S_MATCH, 0, j, PS_SEAT, NULL, 9, v);
	free(key);
}

/*
 * A rated match's reads, in the transaction after its rows: its number and
 * its seats' ratings now (read_answers() keeps them in the record: rated_seq,
 * and `after` as the ratings before, RATING_INIT for a seat without a row).
 */
static void send_rated_reads(struct attempt *a, struct wjob *j)
{
	struct store_match *m = j->match;
	struct store_pg *pg = a->st->pg;
	size_t len = 0;
	const char *v[2];
	int i;

	m->rated_seq = 0; /* known again once this try reads it */
	for (i = 0; i < RATING_MAX_SEATS; i++)
		m->after[i] = RATING_INIT;
	v[0] = m->id;
	send_one(a, S_RATED_SEQ, 0, j, PS_RATED_SEQ, NULL, 1, v);
	a->ok = a->ok && arr_put(pg, &len, "{", false);
	for (i = 0; i < m->nseats && a->ok; i++)
		a->ok = (!i || arr_put(pg, &len, ",", false)) &&
			arr_put(pg, &len, m->seats[i].player_id ? m->seats[i].player_id : "", true);
	a->ok = a->ok && arr_put(pg, &len, "}", false);
	if (!a->ok)
		return;
	pg->arr[len] = '\0';
	v[0] = m->game, v[1] = pg->arr;
	send_one(a, S_RATINGS, 0, j, PS_RATINGS_GET, NULL, 2, v);
}

/* A rated match's answers: its number, then its seats' rows of `ratings` into m->after. */
static void rated_read(const struct sent *s, const PGresult *res)
{
	struct store_match *m = s->job->match;

	if (s->tag == S_RATED_SEQ) {
		m->rated_seq = PQntuples(res) == 1 ? strtoll(PQgetvalue(res, 0, 0), NULL, 10) : 0;
		return;
	}
	for (int k = 0; k < PQntuples(res); k++)
		for (int i = 0; i < m->nseats; i++)
			if (m->seats[i].player_id && !strcmp(m->seats[i].player_id, PQgetvalue(res, k, 0)))
				m->after[i] = (struct rating){ strtod(PQgetvalue(res, k, 1), NULL),
							       strtod(PQgetvalue(res, k, 2), NULL),
							       strtod(PQgetvalue(res, k, 3), NULL),
							       (int32_t)atol(PQgetvalue(res, k, 4)),
							       strtoll(PQgetvalue(res, k, 5), NULL, 10) };
}

/* Whether job j (a batch or an archive save) archives a rated match not given up. */
static bool job_rated(const struct wjob *j)
{
	for (const struct wjob *m = j->kind == WJOB_BATCH ? j->matches : j; m;
	     m = j->kind == WJOB_BATCH ? m->next : NULL)
		if (!m->given_up && m->match->rated)
			return true;
	return false;
}

/* A double as text that reads back as the same double. */
#define DBL(buf, v) (snprintf((buf), sizeof(buf), "%.17g", (double)(v)), (const char *)(buf))

static void give_up(struct wjob *m, const char *why);

/*
 * A player's rating in a game as the rated matches of job j before `upto`
 * left it (their `after`, already applied), into *r; false when none of them
 * had the player in that game (then what the first half read stands). The
 * first half read every match's ratings before any was written, so a player
 * in two rated matches of one batch must take the first one's figures into
 * the second here, in rated_seq order (the list's), as SQLite, which applies
 * one match after another, and the rebuild do.
 */
static bool rated_carried(const struct wjob *j, const struct wjob *upto, const char *game, const char *player,
			  struct rating *r)
{
	bool found = false;

	for (const struct wjob *m = j->kind == WJOB_BATCH ? j->matches : j; m && m != upto;
	     m = j->kind == WJOB_BATCH ? m->next : NULL) {
		const struct store_match *x = m->match;

		if (m->given_up || !x->rated || strcmp(x->game, game))
			continue;
		for (int i = 0; i < x->nseats; i++)
			if (x->seats[i].player_id && !strcmp(x->seats[i].player_id, player))
				*r = x->after[i], found = true;
	}
	return found;
}

/*
 * The ratings of the job's rated matches, applied (rating.h) to those the
 * first half of the transaction read, or to what an earlier rated match of
 * the same job made of them. False when one cannot be rated (our bug: a seat
 * without its identity): it is given up, and the transaction, which holds its
 * rows already, is rolled back and tried again without it.
 */
static bool rated_apply(struct wjob *j)
{
	bool ok = true;

	for (struct wjob *m = j->kind == WJOB_BATCH ? j->matches : j; m;
	     m = j->kind == WJOB_BATCH ? m->next : NULL) {
		struct store_match *x = m->match;
		int i;

		if (m->given_up || !x->rated)
			continue;
		for (i = 0; i < x->nseats; i++)
			if (x->seats[i].player_id)
				rated_carried(j, m, x->game, x->seats[i].player_id, &x->after[i]);
		for (i = 0; i < x->nseats && x->seats[i].player_id; i++)
			;
		if (!x->rated_seq || i < x->nseats || x->nseats < 2 || x->nseats > RATING_MAX_SEATS ||
		    rating_apply(x->nseats, x->after, x->place, x->ended_at, x->after)) {
			give_up(m, "a rated match that cannot be rated");
			ok = false;
		}
	}
	return ok;
}

/* The second half of a transaction with rated matches: their ratings and history written, then COMMIT. */
static void send_rated_writes(struct attempt *a)
{
	struct wjob *j = a->j, *m;
	char ib[4][24], db[3][32];
	const char *v[8];

	for (m = j->kind == WJOB_BATCH ? j->matches : j; m; m = j->kind == WJOB_BATCH ? m->next : NULL) {
		struct store_match *x = m->match;

		if (m->given_up || !x->rated)
			continue;
		for (int i = 0; i < x->nseats && a->ok; i++) {
			const struct rating *r = &x->after[i];

			v[0] = x->seats[i].player_id, v[1] = x->game, v[2] = DBL(db[0], r->rating);
			v[3] = DBL(db[1], r->rd), v[4] = DBL(db[2], r->vol), v[5] = I64(ib[0], r->matches);
			v[6] = I64(ib[1], r->last_at);
			send_one(a, S_MATCH, 0, m, PS_RATING_PUT, NULL, 7, v);
			v[2] = I64(ib[2], x->rated_seq), v[3] = x->id, v[4] = DBL(db[0], r->rating);
			v[5] = DBL(db[1], r->rd), v[6] = DBL(db[2], r->vol), v[7] = I64(ib[3], x->ended_at);
			send_one(a, S_MATCH, 0, m, PS_RATING_HISTORY, NULL, 8, v);
		}
	}
	send_one(a, S_COMMIT, 0, NULL, -1, "COMMIT", 0, NULL);
	if (a->ok)
		a->ok = PQpipelineSync(a->st->pg->w) == 1;
}

/* An archive save's statements; false if it is refused before it is sent (an event kind unknown: our bug). */
static bool send_match(struct attempt *a, struct wjob *j)
{
	const struct store_match *m = j->match;
	const char *v[11];
	char ib[4][24];
	size_t k;
	int i;

	for (k = 0; k < m->nevents; k++)
		if (!wire_event_kind_name(m->events[k].kind))
			return false;
	v[0] = m->id, v[1] = m->game, v[2] = m->options, v[3] = m->commit, v[4] = m->server_seed;
	v[5] = m->client_seeds, v[6] = m->result, v[7] = QUINTETO_VERSION;
	v[8] = I64(ib[0], m->started_at), v[9] = I64(ib[1], m->ended_at), v[10] = I64(ib[2], m->nactions);
	send_one(a, S_MATCH, 0, j, PS_MATCH, NULL, 11, v);
	for (i = 0; i < m->nseats; i++)
		send_seat(a, j, &m->seats[i]);
	for (k = 0; k < m->nactions && a->ok; k++) {
		const struct store_action *x = &m->actions[k];

		v[1] = I64(ib[0], x->ply), v[2] = I64(ib[1], x->seat), v[3] = x->action, v[4] = x->outcome;
		v[5] = I64(ib[2], x->at), v[6] = I64(ib[3], x->stand_in);
		send_one(a, S_MATCH, 0, j, PS_ACTION, NULL, 7, v);
	}
	for (k = 0; k < m->nevents && a->ok; k++) {
		const struct store_event *e = &m->events[k];

		v[1] = I64(ib[0], e->ply), v[2] = I64(ib[1], e->seat), v[3] = wire_event_kind_name(e->kind);
		v[4] = I64(ib[2], e->at);
		send_one(a, S_MATCH, 0, j, PS_EVENT, NULL, 5, v);
	}
	send_one(a, S_MATCH, 0, j, PS_DROP, NULL, 1, v);
	if (m->rated)
		send_rated_reads(a, j);
	return true;
}

/* An archive save refused for its own sake: left out, answered err, its record logged. */
static void give_up(struct wjob *m, const char *why)
{
	m->given_up = true;
	m->err = -EIO;
	util_log(
		LOG_ERROR,
		"store: match %s could not be archived (%s); its journal is kept and it is archived again at "
		"the next start",
		m->match->id, why);
	store_archive_log_record(m->match);
}

/* Sends the whole transaction of job j. */
static void send_all(struct attempt *a)
{
	struct store *st = a->st;
	struct wjob *j = a->j, *m;
	const char *v[2];
	char ib[24];
	size_t k;

	send_one(a, S_BEGIN, 0, NULL, -1, "BEGIN", 0, NULL);
	if (st->epoch) {
		v[0] = st->node, v[1] = I64(ib, st->epoch);
		send_one(a, S_FENCE, 0, NULL, PS_FENCE, NULL, 2, v);
	}
	v[0] = st->pg->boot, v[1] = I64(ib, j->txn);
	send_one(a, S_LEDGER, 0, NULL, PS_LEDGER, NULL, 2, v);
	if (a->rated)
		send_one(a, S_RATING_CLOCK, 0, NULL, PS_RATING_CLOCK, NULL, 0, NULL);
	for (k = 0; j->kind == WJOB_BATCH && k < j->nops; k++) {
		size_t end = k;

		while (groupable(j, end) && end - k < ACTIONS_GROUP)
			end++;
		if (end - k > 1) {
			send_actions(a, k, end);
			k = end - 1;
		} else if (!j->ops[k].skip) {
			send_op(a, k);
		}
	}
	for (m = j->kind == WJOB_BATCH ? j->matches : j; m; m = j->kind == WJOB_BATCH ? m->next : NULL)
		if (!m->given_up && !send_match(a, m))
			give_up(m, "an event of an unknown kind");
	if (!a->rated) /* else the second half commits (send_rated_writes) */
		send_one(a, S_COMMIT, 0, NULL, -1, "COMMIT", 0, NULL);
	if (a->ok)
		a->ok = PQpipelineSync(st->pg->w) == 1;
}

enum tx {
	TX_OK,      /* committed now */
	TX_BEFORE,  /* committed by an earlier try whose answer was lost (its ledger row is there) */
	TX_REFUSED, /* a statement refused for its own sake is marked: try again at once without it */
	TX_FENCED,  /* the node's lease was taken over: never again */
	TX_FAILED,  /* the database refused the transaction (*err says why); the connection is fine */
	TX_BROKEN,  /* the connection broke or the deadline passed: dropped; the outcome may be unknown */
};

/* A refusal of the row itself (data exception, integrity constraint): retrying cannot change it. */
static bool refused(const char *state)
{
	return state && (!strncmp(state, "22", 2) || !strncmp(state, "23", 2));
}

/* What the first failed answer means; marks a refused statement. */
static enum tx judge(struct attempt *a, const struct sent *s, const PGresult *res, int *err)
{
	const char *state = PQresultErrorField(res, PG_DIAG_SQLSTATE);

	*err = store_pg_errno(res);
	if (s->tag == S_LEDGER && state && !strcmp(state, "23505"))
		return TX_BEFORE;
	if (*err == STORE_E_FENCED) {
		util_log(LOG_ERROR, "store: %s", PQresultErrorMessage(res));
		return TX_FENCED;
	}
	if (s->tag == S_OP && s->count > 1 && refused(state)) { /* which one: each alone, at once */
		for (size_t k = s->op; k < s->op + s->count; k++)
			a->j->ops[k].solo = true;
		return TX_REFUSED;
	}
	if (s->tag == S_OP && refused(state)) {
		a->j->ops[s->op].skip = true;
		util_log(LOG_ERROR, "store: batch %llu: a journal write is refused and skipped: %s",
			 (unsigned long long)a->j->seq, PQresultErrorMessage(res));
		return TX_REFUSED;
	}
	if (s->tag == S_MATCH && refused(state)) {
		give_up(s->job, PQresultErrorField(res, PG_DIAG_MESSAGE_PRIMARY));
		return TX_REFUSED;
	}
	util_log(LOG_ERROR, "store: PostgreSQL refuses a transaction: %s", PQresultErrorMessage(res));
	return TX_FAILED;
}

/* Reads the answers of everything sent, then the pipeline's end; *err: why it failed. */
static enum tx read_answers(struct attempt *a, int64_t deadline, int *err)
{
	PGconn *c = a->st->pg->w;
	enum tx tx = TX_OK;
	PGresult *res;
	size_t i;
	int lost = 0;

	for (i = 0; i < a->n; i++) {
		if (!(res = pg_next(c, deadline, &lost)))
			goto broken;
		if (PQresultStatus(res) == PGRES_FATAL_ERROR && tx == TX_OK)
			tx = judge(a, (struct sent *)a->st->pg->sent + i, res, err);
		else if (PQresultStatus(res) == PGRES_TUPLES_OK &&
			 (((struct sent *)a->st->pg->sent)[i].tag == S_RATED_SEQ ||
			  ((struct sent *)a->st->pg->sent)[i].tag == S_RATINGS))
			rated_read((struct sent *)a->st->pg->sent + i, res);
		PQclear(res);
		if ((res = pg_next(c, deadline, &lost)) || lost) { /* one result a statement, then NULL */
			PQclear(res);
			goto broken;
		}
	}
	res = pg_next(c, deadline, &lost);
	if (!res || PQresultStatus(res) != PGRES_PIPELINE_SYNC) {
		PQclear(res);
		goto broken;
	}
	PQclear(res);
	if (PQexitPipelineMode(c) == 1)
		return tx;
broken:
	*err = lost ? lost : -EIO; /* -ETIMEDOUT: no answer by the deadline */
	return TX_BROKEN;
}

/* One try at job j's transaction. */
static enum tx attempt(struct store *st, struct wjob *j, int *err)
{
	struct store_pg *pg = st->pg;
	struct attempt a = { st, j, 0, true, job_rated(j) };
	int64_t deadline = store_pg_now() + store_pg_txn_ms;
	PGresult *res = NULL;
	enum tx tx;

	*err = -EIO;
	if (!writer_connect(st))
		return TX_BROKEN;
	if (!PQenterPipelineMode(pg->w))
		goto broken;
	send_all(&a);
	if (!a.ok)
		goto broken;
	tx = read_answers(&a, deadline, err);
	if (tx == TX_OK && a.rated && !rated_apply(j))
		tx = TX_REFUSED; /* rolled back below */
	else if (tx == TX_OK &&
		 a.rated) { /* the first half read the ratings: the second writes them, commits */
		a.n = 0;
		if (!PQenterPipelineMode(pg->w))
			goto broken;
		send_rated_writes(&a);
		if (!a.ok)
			goto broken;
		tx = read_answers(&a, deadline, err);
	}
	if (tx == TX_BROKEN)
		goto broken;
	if (tx == TX_OK && store_pg_test_lose_commits > 0 && store_pg_test_lose_commits-- > 0)
		goto broken;                              /* the test's lost answer: this COMMIT did commit */
	if (PQtransactionStatus(pg->w) != PQTRANS_IDLE) { /* a failed transaction: roll it back */
		if (pg_exec(pg->w, deadline, "ROLLBACK", 0, NULL, &res) ||
		    PQresultStatus(res) != PGRES_COMMAND_OK)
			drop_writer(pg);
		PQclear(res);
	}
	return tx;
broken:
	if (pg->w && PQstatus(pg->w) == CONNECTION_OK && *err == -ETIMEDOUT)
		util_log(LOG_ERROR, "store: PostgreSQL did not answer within %d ms; reconnecting",
			 (int)store_pg_txn_ms);
	else
		util_log(LOG_ERROR, "store: the connection to PostgreSQL broke: %s",
			 pg->w ? PQerrorMessage(pg->w) : "not connected");
	drop_writer(pg);
	*err = -EIO;
	return TX_BROKEN;
}

/* Job j could not be written before the store closed. */
static void lost(struct wjob *j)
{
	j->err = j->fail_err ? j->fail_err : -EIO;
	if (j->kind == WJOB_MATCH) {
		give_up(j, "closing while PostgreSQL fails");
		j->err = j->fail_err ? j->fail_err : -EIO;
		return;
	}
	util_log(LOG_ERROR, "store: closing with journal batch %llu (%zu writes) unwritten: PostgreSQL fails",
		 (unsigned long long)j->seq, j->nops);
	store_archive_lost(j);
}

void store_pg_run(struct store *st, struct wjob *j)
{
	unsigned delay = 0;
	bool last = false, again = false;
	int err;

	if (!j->txn)
		j->txn = ++st->pg->txn;
	for (;;) {
		enum tx tx = attempt(st, j, &err);

		if (tx == TX_BROKEN && !delay &&
		    !again) { /* a connection lost once: a new one at once, quietly */
			again = true;
			continue;
		}
		if (tx == TX_OK || tx == TX_BEFORE) {
			if (tx == TX_BEFORE)
				util_log(LOG_INFO,
					 "store: transaction %llu had committed before its answer was lost",
					 (unsigned long long)j->txn);
			j->err = j->kind == WJOB_MATCH && j->given_up ? j->err : 0;
			return;
		}
		if (tx == TX_REFUSED && !(j->kind == WJOB_MATCH && j->given_up))
			continue;
		if (tx == TX_REFUSED)
			return; /* an archive save alone, refused: j->err is set */
		if (!delay) {   /* the first failure of this job: tell the loop once */
			j->fail_err = tx == TX_FENCED ? STORE_E_FENCED : err;
			j->fail_note.type = NOTE_BATCH_FAIL;
			store_note_post(st, &j->fail_note);
			delay = STORE_RETRY_FIRST_MS;
		}
		if (tx ==
		    TX_FENCED) { /* never retried; store.c tells the loop if its first failure was another */
			if (j->kind == WJOB_MATCH)
				give_up(j, "this node was fenced");
			j->err = STORE_E_FENCED;
			return;
		}
		if (last)
			break;
		last = !store_wait_retry(st, &delay);
	}
	lost(j);
}

/* --- readers, the lookup, opening and closing --------------------------------- */

int store_pg_lane_ready(struct store_lane *ln)
{
	struct store_pg *pg = ln->st->pg;

	if (ln->pg && !idle_alive(ln->pg)) {
		if (ln->ar_ready)
			archive_db_finish(&ln->ar);
		ln->ar_ready = false;
		PQfinish(ln->pg);
		ln->pg = NULL;
	}
	if (!ln->pg && !(ln->pg = connect_as(pg->conninfo, "quinteto-reader", true)))
		return -EIO;
	if (!ln->ar_ready) {
		if (archive_db_init_pg(&ln->ar, ln->pg)) {
			if (!pg->lanes_said) /* a benign race between the two lanes: at worst said twice */
				util_log(LOG_ERROR, "store: the archive reads on PostgreSQL: %s", ln->ar.err);
			pg->lanes_said = true;
			archive_db_finish(&ln->ar);
			return -EIO;
		}
		ln->ar_ready = true;
	}
	return 0;
}

/*
 * One query on a lookup connection (*conn: the loop thread's `l` at start-up,
 * or the lookup lane's), connecting as needed, within `deadline` (mono ms);
 * after a connection that failed, none is tried before *retry_at. `n`
 * parameters. 0 and *res, or -EIO.
 */
static int lookup_exec(struct store *st, PGconn **conn, const char *app, int64_t *retry_at, int64_t deadline,
		       const char *sql, int n, const char *const *args, PGresult **res)
{
	struct store_pg *pg = st->pg;
	int64_t now = store_pg_now();
	int r;

	*res = NULL;
	if (*conn && !idle_alive(*conn)) {
		PQfinish(*conn);
		*conn = NULL;
	}
	if (!*conn) {
		if (now < *retry_at)
			return -EIO;
		if (!(*conn = connect_nb(pg->conninfo, app, deadline))) {
			*retry_at = store_pg_now() + STORE_PG_LOOKUP_PAUSE_MS;
			util_log(LOG_WARN, "store: identity read: PostgreSQL cannot be reached");
			return -EIO;
		}
	}
	r = pg_exec(*conn, deadline, sql, n, args, res);
	if (r || PQresultStatus(*res) != PGRES_TUPLES_OK) {
		util_log(LOG_ERROR, "store: identity read: %s",
			 r == -ETIMEDOUT ? "no answer in time" : PQerrorMessage(*conn));
		PQclear(*res);
		*res = NULL;
		if (r) { /* a query may still be in flight on it */
			PQfinish(*conn);
			*conn = NULL;
		}
		return -EIO;
	}
	return 0;
}

/* The rows of STORE_IDENTITY_SQL or STORE_RATINGS_SQL into *who: 0, STORE_E_NOT_FOUND or -ENOMEM. */
static int identity_rows(const PGresult *res, struct store_identity *who)
{
	int i, r = 0;

	for (i = 0; !r && i < PQntuples(res); i++)
		r = store_identity_add(
			who, PQgetvalue(res, i, 0), PQgetvalue(res, i, 1), PQgetvalue(res, i, 2),
			PQgetisnull(res, i, 3) ? NULL : PQgetvalue(res, i, 3),
			strtod(PQgetvalue(res, i, 4), NULL), strtod(PQgetvalue(res, i, 5), NULL),
			strtoll(PQgetvalue(res, i, 6), NULL, 10));
	return r ? r : who->id[0] ? 0 : STORE_E_NOT_FOUND;
}

/* STORE_HELD_SQL for `player_id` on the lookup lane's connection into who->held: 0, -ENOMEM or -EIO. */
static int held_read(struct store_lane *ln, const char *player_id, int64_t deadline,
		     struct store_identity *who)
{
	const char *args[2] = { player_id, ln->st->node };
	PGresult *res;
	int i, r = lookup_exec(ln->st, &ln->pg, "quinteto-hello", &ln->pg_retry_at, deadline, STORE_HELD_SQL,
			       2, args, &res);

	for (i = 0; !r && i < PQntuples(res); i++)
		r = store_held_add(&who->held, PQgetvalue(res, i, 0), PQgetvalue(res, i, 1),
				   PQgetvalue(res, i, 2), PQgetvalue(res, i, 3));
	PQclear(res);
	if (r)
		store_held_clear(&who->held);
	who->held.read = !r;
	return r;
}

int store_pg_identity(struct store_lane *ln, enum rjob_kind kind, const char *arg, struct store_identity *who)
{
	/* for the whole read, from when it was queued (store_lookup_run): its wait is in it */
	int64_t deadline = ln->deadline_at;
	bool cluster = ln->st->node[0] != '\0';
	PGresult *res;
	int r;

	if (kind == RJOB_HELD)
		return cluster ? held_read(ln, arg, deadline, who) : 0;
	r = lookup_exec(ln->st, &ln->pg, "quinteto-hello", &ln->pg_retry_at, deadline,
			kind == RJOB_RATINGS ? STORE_RATINGS_SQL("$1") : STORE_IDENTITY_SQL("$1"), 1, &arg,
			&res);
	if (!r)
		r = identity_rows(res, who);
	PQclear(res);
	if (!r && kind == RJOB_IDENTITY && cluster) /* failing, the welcome goes without them */
		(void)held_read(ln, who->id, deadline, who);
	return r;
}

int store_pg_player_read(struct store *st, const char *token_hash, struct store_identity *who)
{
	PGresult *res;
	int r = lookup_exec(st, &st->pg->l, "quinteto-lookup", &st->pg->l_retry_at,
			    store_pg_now() + STORE_PG_LOOKUP_MS, STORE_IDENTITY_SQL("$1"), 1, &token_hash,
			    &res);

	if (!r)
		r = identity_rows(res, who);
	PQclear(res);
	return r;
}

PGconn *store_pg_conn(struct store *st)
{
	return st && st->pg ? st->pg->w : NULL;
}

static void pg_free(struct store_pg *pg)
{
	if (!pg)
		return;
	PQfinish(pg->w);
	PQfinish(pg->l);
	PQfinish(pg->acct);
	free(pg->sent);
	free(pg->arr);
	free(pg->conninfo);
	free(pg);
}

void store_pg_close(struct store *st)
{
	for (int k = 0; k < STORE_LANES; k++) {
		PQfinish(st->lanes[k].pg); /* their archive statements were finished by finalize_all() */
		st->lanes[k].pg = NULL;
	}
	pg_free(st->pg);
	st->pg = NULL;
}

/* A random boot id: this store's rows in the ledger. */
static int boot_id(char *out)
{
	unsigned char b[16];
	int r = util_random(b, sizeof(b));

	for (size_t i = 0; !r && i < sizeof(b); i++)
		snprintf(out + 2 * i, 3, "%02x", b[i]);
	return r;
}

/* Migrations, the ledger's old rows, the readers' and the lookup's connections. */
static int open_rest(struct store *st, const char *migrations_dir)
{
	struct store_pg *pg = st->pg;
	char dir[4096];
	PGresult *res;
	int k;

	snprintf(dir, sizeof(dir), "%s/postgres", migrations_dir);
	if (store_pg_migrate(pg->w, dir))
		return -EIO;
	/* other boots' rows: no retry of theirs can still be in doubt a day later */
	if (!(res = store_pg_query(pg->w, "the ledger",
				   "DELETE FROM store_ledger WHERE committed_at < now() - interval '1 day'",
				   0, NULL)))
		return -EIO;
	PQclear(res);
	st->lanes[STORE_LANE_LOOKUP].st = st; /* connects at its first read (lookup_exec) */
	st->lanes[STORE_LANE_LOOKUP].name = "q-lookup";
	for (k = 0; k < STORE_LANE_LOOKUP; k++) {
		st->lanes[k].st = st;
		st->lanes[k].name = k == STORE_LANE_LIGHT ? "q-reader" : "q-replay";
		if (!(st->lanes[k].pg = connect_as(pg->conninfo, "quinteto-reader", false)))
			return -EIO;
		(void)store_pg_lane_ready(
			&st->lanes[k]); /* reads answer -EIO until the archive reads are set up */
	}
	if (!(pg->l = connect_nb(pg->conninfo, "quinteto-lookup", store_pg_now() + STORE_PG_LOOKUP_MS)))
		util_log(LOG_WARN, "store: identity lookup: no connection yet (tried again on use)");
	return 0;
}

int store_open_pg(uv_loop_t *loop, const char *conninfo, const char *migrations_dir, struct store **out)
{
	struct store *st = calloc(1, sizeof(*st));
	int r = -ENOMEM;

	*out = NULL;
	if (!st || !(st->pg = calloc(1, sizeof(*st->pg))) || !(st->pg->conninfo = strdup(conninfo)))
		goto err;
	st->loop = loop;
	store_lookup_init(st);
	if ((r = boot_id(st->pg->boot)))
		goto err;
	r = -EIO;
	if (!(st->pg->w = connect_as(conninfo, "quinteto-writer", false)) || open_rest(st, migrations_dir))
		goto err;
	if ((r = store_sync_init(st)))
		goto err;
	*out = st;
	return 0;
err:
	if (st) {
		for (int k = 0; k < STORE_LANES; k++) {
			if (st->lanes[k].ar_ready)
				archive_db_finish(&st->lanes[k].ar);
			PQfinish(st->lanes[k].pg);
		}
		pg_free(st->pg);
	}
	free(st);
	return r;
}
