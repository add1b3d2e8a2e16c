/*
 * store_archive.c: finished matches. Saving runs on the writer thread, in a
 * transaction that also drops the match's live journal, after every journal
 * write queued before it: the open batch's own (after its writes: one commit
 * a loop turn), or one of its own if no batch was open. A failure of the database (disk full, read-only...)
 * is retried with back-off until it commits, as a journal batch is, and the
 * loop hears of it once (the journal is failing: changes are refused); the
 * match's journal stays until the archive commits. Only a record refused
 * for its own sake (a constraint) is given up: its journal is kept and the
 * next start archives it.
 * Reading (GET /api/matches[/{id}[/replay]], /api/players/{name}) runs on the
 * reader thread with its own read-only connection and statements
 * (archive_read.c, shared with the `quinteto` command), never on the writer's.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "config.h"
#include "wire.h"
#include "store/store_int.h"
#include "store/name_fold.h"
#include "base/util.h"

static const char *const wstmt_sql[WS_MAX] = {
	[WS_BEGIN] = "BEGIN IMMEDIATE",
	[WS_COMMIT] = "COMMIT",
	[WS_ROLLBACK] = "ROLLBACK",
	[WS_MATCH] =
		"INSERT INTO matches(id, game, options, commit_hex, server_seed, client_seeds, result, "
		"server_version, started_at, ended_at, plies) VALUES (?1,?2,?3,?4,?5,?6,?7,?8,?9,?10,?11)",
	[WS_MATCH_SEAT] = "INSERT INTO match_seats(match_seq, seat, role, name, bot, player_id, client_seed, "
			  "abandoned, name_key) VALUES (?1,?2,?3,?4,?5,?6,?7,?8,?9)",
	[WS_MATCH_ACTION] = "INSERT INTO match_actions(match_seq, ply, seat, action, outcome, at, stand_in) "
			    "VALUES (?1,?2,?3,?4,?5,?6,?7)",
	[WS_MATCH_EVENT] = "INSERT INTO match_events(match_seq, ply, seat, kind, at) VALUES (?1,?2,?3,?4,?5)",
	[WS_DROP] = "DELETE FROM live_rooms WHERE id = ?1",
	/* a rated match (store.h): the seats' ratings now, on the primary key */
	[WS_RATING_GET] =
		"SELECT rating, rd, vol, matches, last_at FROM ratings WHERE player_id = ?1 AND game = ?2",
	[WS_RATING_PUT] =
		"INSERT OR REPLACE INTO ratings(player_id, game, rating, rd, vol, matches, last_at) "
		"VALUES (?1,?2,?3,?4,?5,?6,?7)",
	[WS_RATING_HISTORY] =
		"INSERT INTO rating_history(player_id, game, rated_seq, match_seq, rating, rd, vol, "
		"at) VALUES (?1,?2,?3,?4,?5,?6,?7,?8)",
	/* the next in the order ratings are applied: max() walks the partial index matches_rated */
	[WS_RATED_SEQ] = "UPDATE matches SET rated = 1, rated_seq = (SELECT coalesce(max(rated_seq), 0) + 1 "
			 "FROM matches WHERE rated_seq IS NOT NULL) WHERE seq = ?1 RETURNING rated_seq",
};

static int prepare_all(sqlite3 *db, const char *const *sql, sqlite3_stmt **out, int n)
{
	int k;

	for (k = 0; k < n; k++) {
		if (sqlite3_prepare_v3(db, sql[k], -1, SQLITE_PREPARE_PERSISTENT, &out[k], NULL) !=
		    SQLITE_OK) {
			util_log(LOG_ERROR, "store: %s: %s", sql[k], sqlite3_errmsg(db));
			return -EIO;
		}
	}
	return 0;
}

int store_archive_prepare(struct store *st)
{
	int r = prepare_all(st->db, wstmt_sql, st->wstmt, WS_MAX);

	for (int i = 0; !r && i < STORE_LANE_LOOKUP; i++) /* the archive's lanes */
		if (archive_db_init(&st->lanes[i].ar, st->lanes[i].db)) {
			util_log(LOG_ERROR, "store: %s", st->lanes[i].ar.err);
			r = -EIO;
		}
	return r;
}

void store_archive_finalize(struct store *st)
{
	int k;

	for (k = 0; k < WS_MAX; k++) {
		(void)sqlite3_finalize(st->wstmt[k]); /* NULL is a no-op */
		st->wstmt[k] = NULL;
	}
	for (k = 0; k < STORE_LANE_LOOKUP; k++)
		archive_db_finish(&st->lanes[k].ar);
}

/* --- saving (writer thread) ------------------------------------------------ */

#define OK(call) ((call) == SQLITE_OK)

static int insert_match(struct store *st, const struct store_match *m, int64_t *seq)
{
	sqlite3_stmt *s = st->wstmt[WS_MATCH];
	const char *t[] = { m->id,          m->game,         m->options, m->commit,
			    m->server_seed, m->client_seeds, m->result,  QUINTETO_VERSION };
	int i, rc = SQLITE_OK;

	for (i = 0; i < 8 && rc == SQLITE_OK; i++)
		rc = sqlite3_bind_text(s, i + 1, t[i], -1, SQLITE_STATIC);
	if (rc == SQLITE_OK && OK(rc = sqlite3_bind_int64(s, 9, m->started_at)) &&
	    OK(rc = sqlite3_bind_int64(s, 10, m->ended_at)) &&
	    OK(rc = sqlite3_bind_int64(s, 11, (sqlite3_int64)m->nactions)))
		rc = store_step_done(st->db, s, "archive match");
	else
		(void)sqlite3_clear_bindings(s);
	*seq = sqlite3_last_insert_rowid(st->db);
	return rc;
}

/* A seat of an archived match, with the key its name is found by (name_fold.h). */
static int insert_seat(struct store *st, int64_t seq, const struct store_seat *x)
{
	sqlite3_stmt *s = st->wstmt[WS_MATCH_SEAT];
	size_t len = strlen(x->name);
	char *key = malloc(len + 1);
	int rc;

	if (!key)
		return SQLITE_NOMEM;
	name_fold(x->name, len, key);
	if (OK(rc = sqlite3_bind_text(s, 9, key, -1, SQLITE_TRANSIENT)) &&
	    OK(rc = sqlite3_bind_int64(s, 1, seq)) && OK(rc = sqlite3_bind_int(s, 2, x->seat)) &&
	    OK(rc = sqlite3_bind_text(s, 3, x->role, -1, SQLITE_STATIC)) &&
	    OK(rc = sqlite3_bind_text(s, 4, x->name, -1, SQLITE_STATIC)) &&
	    OK(rc = sqlite3_bind_int(s, 5, x->bot)) &&
	    OK(rc = sqlite3_bind_text(s, 6, x->player_id, -1, SQLITE_STATIC)) &&
	    OK(rc = sqlite3_bind_text(s, 7, x->client_seed ? x->client_seed : "", -1, SQLITE_STATIC)) &&
	    OK(rc = sqlite3_bind_int(s, 8, x->abandoned))) {
		free(key);
		return store_step_done(st->db, s, "archive seat");
	}
	free(key);
	(void)sqlite3_clear_bindings(s);
	return rc;
}

static int insert_action(struct store *st, int64_t seq, const struct store_action *a)
{
	sqlite3_stmt *s = st->wstmt[WS_MATCH_ACTION];
	int rc;

	if (OK(rc = sqlite3_bind_int64(s, 1, seq)) && OK(rc = sqlite3_bind_int(s, 2, a->ply)) &&
	    OK(rc = sqlite3_bind_int(s, 3, a->seat)) &&
	    OK(rc = sqlite3_bind_text(s, 4, a->action, -1, SQLITE_STATIC)) &&
	    OK(rc = sqlite3_bind_text(s, 5, a->outcome, -1, SQLITE_STATIC)) &&
	    OK(rc = sqlite3_bind_int64(s, 6, a->at)) && OK(rc = sqlite3_bind_int(s, 7, a->stand_in)))
		return store_step_done(st->db, s, "archive action");
	(void)sqlite3_clear_bindings(s);
	return rc;
}

static int insert_event(struct store *st, int64_t seq, const struct store_event *e)
{
	sqlite3_stmt *s = st->wstmt[WS_MATCH_EVENT];
	const char *kind = wire_event_kind_name(e->kind);
	int rc;

	if (!kind)
		return SQLITE_MISMATCH; /* our bug: refuse the record rather than archive a lie */
	if (OK(rc = sqlite3_bind_int64(s, 1, seq)) && OK(rc = sqlite3_bind_int(s, 2, e->ply)) &&
	    OK(rc = sqlite3_bind_int(s, 3, e->seat)) &&
	    OK(rc = sqlite3_bind_text(s, 4, kind, -1, SQLITE_STATIC)) &&
	    OK(rc = sqlite3_bind_int64(s, 5, e->at)))
		return store_step_done(st->db, s, "archive event");
	(void)sqlite3_clear_bindings(s);
	return rc;
}

/* Seat i's rating in the match's game before it (RATING_INIT when it has none yet). */
static int rating_get(struct store *st, const struct store_match *m, int i, struct rating *out)
{
	sqlite3_stmt *s = st->wstmt[WS_RATING_GET];
	int rc;

	*out = RATING_INIT;
	if (!OK(rc = sqlite3_bind_text(s, 1, m->seats[i].player_id, -1, SQLITE_STATIC)) ||
	    !OK(rc = sqlite3_bind_text(s, 2, m->game, -1, SQLITE_STATIC)))
		goto done;
	rc = sqlite3_step(s);
	if (rc == SQLITE_ROW) {
		out->rating = sqlite3_column_double(s, 0);
		out->rd = sqlite3_column_double(s, 1);
		out->vol = sqlite3_column_double(s, 2);
		out->matches = sqlite3_column_int(s, 3);
		out->last_at = sqlite3_column_int64(s, 4);
		rc = SQLITE_OK;
	} else if (rc == SQLITE_DONE) {
		rc = SQLITE_OK;
	}
done:
	(void)sqlite3_reset(s);
	(void)sqlite3_clear_bindings(s);
	return rc;
}

/* Seat i's rating after the match: its row of `ratings` and of `rating_history`. */
static int rating_put(struct store *st, const struct store_match *m, int64_t seq, int i)
{
	const struct rating *x = &m->after[i];
	sqlite3_stmt *s = st->wstmt[WS_RATING_PUT], *h = st->wstmt[WS_RATING_HISTORY];
	int rc;

	if (OK(rc = sqlite3_bind_text(s, 1, m->seats[i].player_id, -1, SQLITE_STATIC)) &&
	    OK(rc = sqlite3_bind_text(s, 2, m->game, -1, SQLITE_STATIC)) &&
	    OK(rc = sqlite3_bind_double(s, 3, x->rating)) && OK(rc = sqlite3_bind_double(s, 4, x->rd)) &&
	    OK(rc = sqlite3_bind_double(s, 5, x->vol)) && OK(rc = sqlite3_bind_int(s, 6, x->matches)) &&
	    OK(rc = sqlite3_bind_int64(s, 7, x->last_at)))
		rc = store_step_done(st->db, s, "rating");
	else
		(void)sqlite3_clear_bindings(s);
	if (rc != SQLITE_OK)
		return rc;
	if (OK(rc = sqlite3_bind_text(h, 1, m->seats[i].player_id, -1, SQLITE_STATIC)) &&
	    OK(rc = sqlite3_bind_text(h, 2, m->game, -1, SQLITE_STATIC)) &&
	    OK(rc = sqlite3_bind_int64(h, 3, m->rated_seq)) && OK(rc = sqlite3_bind_int64(h, 4, seq)) &&
	    OK(rc = sqlite3_bind_double(h, 5, x->rating)) && OK(rc = sqlite3_bind_double(h, 6, x->rd)) &&
	    OK(rc = sqlite3_bind_double(h, 7, x->vol)) && OK(rc = sqlite3_bind_int64(h, 8, m->ended_at)))
		return store_step_done(st->db, h, "rating history");
	(void)sqlite3_clear_bindings(h);
	return rc;
}

/*
 * A rated match (store.h), in the transaction that archives it, as match row
 * `seq`: numbered, its seats' ratings read, applied and written. The figures
 * land in m->after for the done callback (the job's, read after the commit).
 */
static int save_rated(struct store *st, struct store_match *m, int64_t seq)
{
	sqlite3_stmt *s = st->wstmt[WS_RATED_SEQ];
	struct rating before[RATING_MAX_SEATS];
	int i, rc;

	if (m->nseats < 2 || m->nseats > RATING_MAX_SEATS)
		return SQLITE_MISMATCH; /* our bug: refuse the record rather than rate it wrongly */
	for (i = 0; i < m->nseats; i++)
		if (!m->seats[i].player_id)
			return SQLITE_MISMATCH; /* a bot or a guest in a rated match: our bug */
	if (!OK(rc = sqlite3_bind_int64(s, 1, seq)))
		return rc;
	rc = sqlite3_step(s);
	m->rated_seq = rc == SQLITE_ROW ? sqlite3_column_int64(s, 0) : 0;
	if (rc == SQLITE_ROW)
		rc = sqlite3_step(s);
	(void)sqlite3_reset(s);
	(void)sqlite3_clear_bindings(s);
	if (rc != SQLITE_DONE)
		return rc == SQLITE_ROW ? SQLITE_MISMATCH : rc;
	for (i = 0; i < m->nseats; i++)
		if ((rc = rating_get(st, m, i, &before[i])) != SQLITE_OK)
			return rc;
	if (rating_apply(m->nseats, before, m->place, m->ended_at, m->after))
		return SQLITE_MISMATCH;
	for (i = 0, rc = SQLITE_OK; i < m->nseats && rc == SQLITE_OK; i++)
		rc = rating_put(st, m, seq, i);
	return rc;
}

static int save_body(struct store *st, struct store_match *m)
{
	int64_t seq = 0;
	int i, rc = insert_match(st, m, &seq);
	size_t k;

	for (i = 0; rc == SQLITE_OK && i < m->nseats; i++)
		rc = insert_seat(st, seq, &m->seats[i]);
	for (k = 0; rc == SQLITE_OK && k < m->nactions; k++)
		rc = insert_action(st, seq, &m->actions[k]);
	for (k = 0; rc == SQLITE_OK && k < m->nevents; k++)
		rc = insert_event(st, seq, &m->events[k]);
	if (rc == SQLITE_OK && m->rated)
		rc = save_rated(st, m, seq);
	if (rc == SQLITE_OK && OK(rc = sqlite3_bind_text(st->wstmt[WS_DROP], 1, m->id, -1, SQLITE_STATIC)))
		rc = store_step_done(st->db, st->wstmt[WS_DROP], "drop archived journal");
	return rc;
}

static int save_once(struct store *st, struct store_match *m)
{
	int rc = store_step_done(st->db, st->wstmt[WS_BEGIN], "begin match");

	if (rc == SQLITE_OK)
		rc = save_body(st, m);
	if (rc == SQLITE_OK)
		rc = store_step_done(st->db, st->wstmt[WS_COMMIT], "commit match");
	if (rc != SQLITE_OK && !sqlite3_get_autocommit(st->db))
		(void)store_step_done(st->db, st->wstmt[WS_ROLLBACK], "rollback match");
	return rc;
}

static bool retryable(int rc)
{
	switch (rc & 0xff) {
	case SQLITE_FULL:
	case SQLITE_IOERR:
	case SQLITE_READONLY:
	case SQLITE_BUSY:
	case SQLITE_LOCKED:
	case SQLITE_NOMEM:
	case SQLITE_CANTOPEN:
	case SQLITE_PROTOCOL:
	case SQLITE_INTERRUPT:
		return true;
	default:
		return false;
	}
}

/* Logs the record's identity and seeds as one JSON line, so an operator can find it and re-derive it. */
void store_archive_log_record(const struct store_match *m)
{
	json_t *j = json_pack("{s:s?, s:s?, s:s?, s:s?, s:I}", "id", m->id, "game", m->game, "server_seed",
			      m->server_seed, "client_seeds", m->client_seeds, "actions",
			      (json_int_t)m->nactions);
	char *text = j ? json_dumps(j, JSON_COMPACT) : NULL;

	fprintf(stderr, "quinteto-server unarchived-match: %s\n", text ? text : "(out of memory)");
	free(text);
	json_decref(j);
}

/*
 * Writer thread: archives j->match; j->err 0 or a negative errno. A failure
 * of the database is retried until it commits or the store closes (then it
 * is tried once more): the journal batches behind it wait, as they would
 * behind a failing batch, since they would fail too. The first failure is
 * posted to the loop (the journal is failing until this job is done).
 */
void store_archive_run(struct store *st, struct wjob *j)
{
	unsigned delay = 0;
	bool last = false;
	int rc;

	while ((rc = save_once(st, j->match)) != SQLITE_OK && retryable(rc) && !last) {
		if (!delay) {
			util_log(LOG_ERROR, "store: match %s cannot be archived now (%s); retrying",
				 j->match->id, sqlite3_errstr(rc));
			j->fail_err = store_rc_errno(rc) ? store_rc_errno(rc) : -EIO;
			j->fail_note.type = NOTE_BATCH_FAIL;
			store_note_post(st, &j->fail_note);
			delay = STORE_RETRY_FIRST_MS;
		}
		last = !store_wait_retry(st, &delay);
	}
	j->err = store_rc_errno(rc);
	if (!j->err) {
		if (delay)
			util_log(LOG_INFO, "store: match %s archived after its retries", j->match->id);
		return;
	}
	util_log(LOG_ERROR,
		 "store: match %s could not be archived (%s); its journal is kept and it is "
		 "archived again at the next start",
		 j->match->id, sqlite3_errstr(rc));
	store_archive_log_record(j->match);
}

int store_archive_batch(struct store *st, struct wjob *b, bool *redo)
{
	struct wjob *j;

	for (j = b->matches; j; j = j->next) {
		int rc;

		if (j->given_up || (rc = save_body(st, j->match)) == SQLITE_OK)
			continue;
		if (retryable(rc)) /* the database's state: the whole batch is retried */
			return rc;
		j->given_up = true;
		j->err = store_rc_errno(rc);
		util_log(LOG_ERROR,
			 "store: match %s could not be archived (%s); its journal is kept and it is "
			 "archived again at the next start",
			 j->match->id, sqlite3_errstr(rc));
		store_archive_log_record(j->match);
		*redo = true;
		return rc;
	}
	return SQLITE_OK;
}

bool store_archive_unbatch(struct store *st, struct wjob *b)
{
	struct wjob **pp = &b->matches, *first = NULL, **tail = &first, *j;

	while ((j = *pp)) {
		if (j->given_up) { /* answered with the batch */
			pp = &j->next;
			continue;
		}
		*pp = j->next;
		j->next = NULL;
		*tail = j;
		tail = &j->next;
		b->nmatches--;
	}
	b->matches_tail = NULL;
	for (j = b->matches; j; j = j->next)
		b->matches_tail = j;
	if (!first)
		return false;
	store_wjob_push_front(st, first, CONTAINER(tail, struct wjob, next));
	return true;
}

void store_archive_lost(struct wjob *b)
{
	struct wjob *j;

	for (j = b->matches; j; j = j->next) {
		if (j->given_up)
			continue;
		util_log(LOG_ERROR,
			 "store: match %s could not be archived (closing); its journal is kept and it is "
			 "archived again at the next start",
			 j->match->id);
		store_archive_log_record(j->match);
	}
}

void store_match_save(struct store *st, struct store_match *m, void (*done)(void *ctx, int err), void *ctx)
{
	struct wjob *j = st && !st->closing ? calloc(1, sizeof(*j)) : NULL;

	if (!j) {
		util_log(LOG_ERROR, "store: match %s not archived now (%s); its journal is kept",
			 m ? m->id : "?", st && !st->closing ? "out of memory" : "store closed");
		store_match_free(m);
		if (done)
			done(ctx, st && !st->closing ? -ENOMEM : STORE_E_CLOSED);
		return;
	}
	j->kind = WJOB_MATCH;
	j->match = m;
	j->save_cb = done;
	j->ctx = ctx;
	j->done_note.type = NOTE_MATCH_DONE;
	if (st->open) { /* in the open batch's transaction, after its writes: one commit for both */
		struct wjob *b = st->open;

		if (b->matches_tail)
			b->matches_tail->next = j;
		else
			b->matches = j;
		b->matches_tail = j;
		b->nmatches++;
		return;
	}
	store_wjob_submit(st, j, j);
}

/* --- reading (reader thread) ------------------------------------------------ */

/* Queues a read; `q` gives the kind's strings (a: id, game or name; b: player; c: result) and page. */
static struct store_req *read_new(struct store *st, enum rjob_kind kind, const struct archive_query *q,
				  const char *a, store_read_cb cb, void *ctx)
{
	struct store_req *r = calloc(1, sizeof(*r));

	if (!r || (a && !(r->a = strdup(a))) || (q->player && !(r->b = strdup(q->player))) ||
	    (q->result && !(r->c = strdup(q->result))))
		goto err;
	r->kind = kind;
	r->before = q->before;
	r->limit = q->limit;
	r->cb = cb;
	r->ctx = ctx;
	if (store_read_submit(st, r))
		goto err;
	return r;
err:
	if (r)
		store_req_free(r);
	return NULL;
}

struct store_req *store_match_get(struct store *st, const char *id, store_read_cb cb, void *ctx)
{
	struct archive_query none = { 0 };

	return read_new(st, RJOB_GET, &none, id, cb, ctx);
}

struct store_req *store_match_replay(struct store *st, const char *id, size_t from, size_t limit,
				     store_read_cb cb, void *ctx)
{
	/* the request's page fields carry the replay's page: before = from, limit = limit */
	struct archive_query page = { .before = (int64_t)from, .limit = (int)limit };

	return from > INT64_MAX || limit > ARCHIVE_STEPS_MAX ? NULL
							     : read_new(st, RJOB_REPLAY, &page, id, cb, ctx);
}

struct store_req *store_player_get(struct store *st, const char *name, store_read_cb cb, void *ctx)
{
	struct archive_query none = { 0 };

	return read_new(st, RJOB_PLAYER, &none, name, cb, ctx);
}

struct store_req *store_leaderboard(struct store *st, const char *game, int limit, store_read_cb cb,
				    void *ctx)
{
	struct archive_query page = { .limit = limit };

	return limit < 1 || limit > ARCHIVE_BOARD_MAX ? NULL
						      : read_new(st, RJOB_LEADERBOARD, &page, game, cb, ctx);
}

struct store_req *store_match_find(struct store *st, const struct archive_query *q, store_read_cb cb,
				   void *ctx)
{
	return read_new(st, RJOB_LIST, q, q->game, cb, ctx);
}

struct store_req *store_match_list(struct store *st, const char *game, const char *player, int64_t before,
				   int limit, store_read_cb cb, void *ctx)
{
	struct archive_query q = { .game = game, .player = player, .before = before, .limit = limit };

	return store_match_find(st, &q, cb, ctx);
}

/* Reader thread: one try at r; its outcome, its body in *out or *body. */
static int read_once(struct store_lane *ln, struct store_req *r, struct json_out *out, json_t **body)
{
	struct archive_query q = { r->a, r->b, r->c, r->before, r->limit };

	switch (r->kind) {
	case RJOB_GET: /* the archive and its replay are written as bytes, a row at a time */
		return archive_db_get(&ln->ar, r->a, out);
	case RJOB_REPLAY:
		return archive_db_replay(&ln->ar, r->a, (size_t)r->before, (size_t)r->limit, out);
	case RJOB_PLAYER:
		return archive_db_player(&ln->ar, r->a, body);
	case RJOB_LEADERBOARD:
		return archive_db_leaderboard(&ln->ar, r->a, r->limit, body);
	default:
		return archive_db_list(&ln->ar, &q, body);
	}
}

/*
 * Reader thread: answers r (its outcome and body). On PostgreSQL, a read
 * whose connection broke under it (a server restarted since the last read)
 * is tried once more on a new one.
 */
void store_read_run(struct store_lane *ln, struct store_req *r)
{
	struct json_out out = { 0 };
	json_t *body = NULL;
	int err, tries = 0;

	do {
		free(out.p);
		json_decref(body);
		out = (struct json_out){ 0 };
		body = NULL;
		if (ln->st->pg && store_pg_lane_ready(ln)) { /* PostgreSQL away: answered as a failing read */
			static const char away[] =
				"{\"error\":\"internal\",\"code\":\"internal\",\"message\":"
				"\"the archive could not be read\"}";

			util_log(LOG_ERROR, "store: reading the archive: PostgreSQL cannot be reached");
			r->err = -EIO;
			r->body = strdup(away);
			r->len = r->body ? sizeof(away) - 1 : 0;
			return;
		}
		err = read_once(ln, r, &out, &body);
	} while (ln->st->pg && err && !tries++ && PQstatus(ln->pg) != CONNECTION_OK);
	if (err && err != STORE_E_NOT_FOUND && err != STORE_E_BAD_REQUEST) /* the archive failed */
		util_log(LOG_ERROR, "store: reading the archive: %s", ln->ar.err);
	r->err = err;
	r->body = body ? json_dumps(body, JSON_COMPACT) : out.p;
	r->len = body ? (r->body ? strlen(r->body) : 0) : out.len;
	json_decref(body);
	if (!r->body && !r->err)
		r->err = -ENOMEM;
}
