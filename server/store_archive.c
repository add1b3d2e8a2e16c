/*
 * store_archive.c: finished matches. Saving runs on the writer thread, in one
 * transaction that also drops the match's live journal, after every journal
 * batch queued before it. A failure of the database (disk full, read-only...)
 * is retried with back-off for about a second, then given up like a refused
 * record: the match's journal is kept and the next start archives it, so the
 * journal batches queued behind it never wait on it for long.
 * Reading (GET /api/matches[/{id}]) runs on the reader thread with its own
 * read-only connection and statements, never on the writer's.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "config.h"
#include "wire.h"
#include "store_int.h"
#include "util.h"

static const char *const wstmt_sql[WS_MAX] = {
	[WS_BEGIN] = "BEGIN IMMEDIATE",
	[WS_COMMIT] = "COMMIT",
	[WS_ROLLBACK] = "ROLLBACK",
	[WS_MATCH] = "INSERT INTO matches(id, game, options, commit_hex, server_seed, client_seeds, result, "
		     "server_version, started_at, ended_at) VALUES (?1,?2,?3,?4,?5,?6,?7,?8,?9,?10)",
	[WS_MATCH_SEAT] = "INSERT INTO match_seats(match_seq, seat, role, name, bot, player_id, client_seed) "
			  "VALUES (?1,?2,?3,?4,?5,?6,?7)",
	[WS_MATCH_ACTION] = "INSERT INTO match_actions(match_seq, ply, seat, action, outcome, at) "
			    "VALUES (?1,?2,?3,?4,?5,?6)",
	[WS_MATCH_EVENT] = "INSERT INTO match_events(match_seq, ply, seat, kind, at) VALUES (?1,?2,?3,?4,?5)",
	[WS_DROP] = "DELETE FROM live_rooms WHERE id = ?1",
};

static const char *const rstmt_sql[RS_MAX] = {
	[RS_GET] =
		"SELECT seq, id, game, options, started_at, ended_at, commit_hex, server_seed, client_seeds, "
		"result FROM matches WHERE id = ?1",
	[RS_SEATS] = "SELECT seat, role, name, bot FROM match_seats WHERE match_seq = ?1 ORDER BY seat",
	[RS_ACTIONS] =
		"SELECT ply, seat, action, outcome, at FROM match_actions WHERE match_seq = ?1 ORDER BY ply",
	[RS_EVENTS] = "SELECT ply, seat, kind, at FROM match_events WHERE match_seq = ?1 ORDER BY ply, rowid",
	[RS_LIST] = "SELECT seq, id, game, started_at, ended_at, result FROM matches WHERE "
		    "(?1 IS NULL OR game = ?1) AND (?2 IS NULL OR seq IN (SELECT match_seq FROM "
		    "match_seats WHERE player_id = ?2)) AND (?3 = 0 OR seq < ?3) ORDER BY seq DESC LIMIT ?4",
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

	return r ? r : prepare_all(st->rdb, rstmt_sql, st->rstmt, RS_MAX);
}

void store_archive_finalize(struct store *st)
{
	int k;

	for (k = 0; k < WS_MAX; k++) {
		(void)sqlite3_finalize(st->wstmt[k]); /* NULL is a no-op */
		st->wstmt[k] = NULL;
	}
	for (k = 0; k < RS_MAX; k++) {
		(void)sqlite3_finalize(st->rstmt[k]);
		st->rstmt[k] = NULL;
	}
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
	    OK(rc = sqlite3_bind_int64(s, 10, m->ended_at)))
		rc = store_step_done(st->db, s, "archive match");
	else
		(void)sqlite3_clear_bindings(s);
	*seq = sqlite3_last_insert_rowid(st->db);
	return rc;
}

static int insert_seat(struct store *st, int64_t seq, const struct store_seat *x)
{
	sqlite3_stmt *s = st->wstmt[WS_MATCH_SEAT];
	int rc;

	if (OK(rc = sqlite3_bind_int64(s, 1, seq)) && OK(rc = sqlite3_bind_int(s, 2, x->seat)) &&
	    OK(rc = sqlite3_bind_text(s, 3, x->role, -1, SQLITE_STATIC)) &&
	    OK(rc = sqlite3_bind_text(s, 4, x->name, -1, SQLITE_STATIC)) &&
	    OK(rc = sqlite3_bind_int(s, 5, x->bot)) &&
	    OK(rc = sqlite3_bind_text(s, 6, x->player_id, -1, SQLITE_STATIC)) &&
	    OK(rc = sqlite3_bind_text(s, 7, x->client_seed ? x->client_seed : "", -1, SQLITE_STATIC)))
		return store_step_done(st->db, s, "archive seat");
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
	    OK(rc = sqlite3_bind_int64(s, 6, a->at)))
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

static int save_body(struct store *st, const struct store_match *m)
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
	if (rc == SQLITE_OK && OK(rc = sqlite3_bind_text(st->wstmt[WS_DROP], 1, m->id, -1, SQLITE_STATIC)))
		rc = store_step_done(st->db, st->wstmt[WS_DROP], "drop archived journal");
	return rc;
}

static int save_once(struct store *st, const struct store_match *m)
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

#define ARCHIVE_TRIES 8 /* 5 + 10 + ... + 640 ms of back-off */

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
static void log_record(const struct store_match *m)
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
 * of the database is retried for about a second, not until it commits as a
 * journal batch is: the journal batches behind it must not wait on it, and
 * nothing is lost by giving up, since the match's journal stays until an
 * archive commits (the next start archives it).
 */
void store_archive_run(struct store *st, struct wjob *j)
{
	unsigned delay = STORE_RETRY_FIRST_MS;
	int rc, tries = 0;

	while ((rc = save_once(st, j->match)) != SQLITE_OK && retryable(rc) && ++tries < ARCHIVE_TRIES &&
	       store_wait_retry(st, &delay))
		;
	j->err = store_rc_errno(rc);
	if (!j->err)
		return;
	util_log(LOG_ERROR,
		 "store: match %s could not be archived (%s); its journal is kept and it is "
		 "archived again at the next start",
		 j->match->id, sqlite3_errstr(rc));
	log_record(j->match);
}

void store_match_save(struct store *st, struct store_match *m, void (*done)(void *ctx, int ok), void *ctx)
{
	struct wjob *j = st && !st->closing ? calloc(1, sizeof(*j)) : NULL;

	if (!j) {
		util_log(LOG_ERROR, "store: match %s not archived now (%s); its journal is kept",
			 m ? m->id : "?", st && !st->closing ? "out of memory" : "store closed");
		store_match_free(m);
		if (done)
			done(ctx, 0);
		return;
	}
	j->kind = WJOB_MATCH;
	j->match = m;
	j->save_cb = done;
	j->ctx = ctx;
	j->done_note.type = NOTE_MATCH_DONE;
	if (st->open) { /* after the journal writes queued before it: they go with the next flush */
		if (st->after_tail)
			st->after_tail->next = j;
		else
			st->after = j;
		st->after_tail = j;
		return;
	}
	store_wjob_submit(st, j, j);
}

/* --- reading (reader thread) ------------------------------------------------ */

static json_t *load_json(const unsigned char *text)
{
	json_t *j = text ? json_loads((const char *)text, JSON_DECODE_ANY, NULL) : NULL;

	return j ? j : json_null();
}

static const char *text(sqlite3_stmt *s, int i)
{
	const char *t = (const char *)sqlite3_column_text(s, i);

	return t ? t : "";
}

/* Runs `s` (bound to match `seq`), appending row(s) to a new array; NULL on failure. */
static json_t *rows_json(sqlite3 *db, sqlite3_stmt *s, int64_t seq, json_t *(*row)(sqlite3_stmt *s))
{
	json_t *arr = json_array(), *item;
	int rc = sqlite3_bind_int64(s, 1, seq);

	while (arr && rc == SQLITE_OK && (rc = sqlite3_step(s)) == SQLITE_ROW)
		rc = (item = row(s)) && !json_array_append_new(arr, item) ? SQLITE_OK : SQLITE_NOMEM;
	(void)sqlite3_reset(s);
	if (rc != SQLITE_DONE) {
		util_log(LOG_ERROR, "store: reading the archive: %s",
			 rc == SQLITE_NOMEM ? "out of memory" : sqlite3_errmsg(db));
		json_decref(arr);
		return NULL;
	}
	return arr;
}

static json_t *seat_row(sqlite3_stmt *s)
{
	return json_pack("{s:i, s:s, s:s, s:b}", "seat", sqlite3_column_int(s, 0), "role", text(s, 1), "name",
			 text(s, 2), "bot", sqlite3_column_int(s, 3));
}

static void set_body(struct store_req *r, int status, json_t *body)
{
	r->status = status;
	r->body = body ? json_dumps(body, JSON_COMPACT) : NULL;
	r->len = r->body ? strlen(r->body) : 0;
	json_decref(body);
	if (!r->body)
		r->status = 500;
}

static void set_error(struct store_req *r, int status, const char *code, const char *message)
{
	set_body(r, status, json_pack("{s:s, s:s}", "error", code, "message", message));
}

/* What an archive read owns while wire_archive_encode() borrows from it. */
struct held {
	json_t *options, *result, *seeds, *seats; /* seats: rows as JSON, their strings borrowed */
	json_t **owned;                           /* actions' action and outcome */
	size_t nowned;
};

static void held_finish(struct held *h, struct wire_archive *a)
{
	size_t i;

	json_decref(h->options), json_decref(h->result), json_decref(h->seeds), json_decref(h->seats);
	for (i = 0; i < h->nowned; i++)
		json_decref(h->owned[i]);
	free(h->owned);
	free(a->actions);
	free(a->events);
}

/* The matches row: strings are copied into JSON values `h` holds, so the statement can be reset. */
static int head_read(sqlite3_stmt *s, struct wire_archive *a, struct held *h, json_t **strings)
{
	size_t i;

	*strings = json_pack("[s,s,s,s]", text(s, 1), text(s, 2), text(s, 6), text(s, 7));
	h->options = load_json(sqlite3_column_text(s, 3));
	h->seeds = load_json(sqlite3_column_text(s, 8));
	h->result = load_json(sqlite3_column_text(s, 9));
	if (!*strings || !json_is_array(h->seeds) || json_array_size(h->seeds) > RULES_MAX_SEATS)
		return -EIO;
	a->id = json_string_value(json_array_get(*strings, 0));
	a->game = json_string_value(json_array_get(*strings, 1));
	a->commit = json_string_value(json_array_get(*strings, 2));
	a->server_seed = json_string_value(json_array_get(*strings, 3));
	a->options = h->options;
	a->result = h->result;
	a->started_at = sqlite3_column_int64(s, 4);
	a->ended_at = sqlite3_column_int64(s, 5);
	for (i = 0; i < json_array_size(h->seeds); i++) {
		const char *seed = json_string_value(json_array_get(h->seeds, i));

		a->client_seeds[i] = seed ? seed : "";
	}
	return 0;
}

static int seats_read(struct store *st, int64_t seq, struct wire_archive *a, struct held *h)
{
	json_t *x;
	size_t i;

	h->seats = rows_json(st->rdb, st->rstmt[RS_SEATS], seq, seat_row);
	if (!h->seats || json_array_size(h->seats) > RULES_MAX_SEATS)
		return -EIO;
	json_array_foreach(h->seats, i, x)
	{
		a->seats[i].seat = (int)json_integer_value(json_object_get(x, "seat"));
		a->seats[i].role = json_string_value(json_object_get(x, "role"));
		a->seats[i].name = json_string_value(json_object_get(x, "name"));
		a->seats[i].bot = json_is_true(json_object_get(x, "bot"));
	}
	a->nseats = (int)i;
	for (i = json_array_size(h->seeds); i < (size_t)a->nseats; i++)
		a->client_seeds[i] = "";
	return 0;
}

/* Grows *arr (of `size`-byte items) to hold n + 1; 0 or -ENOMEM. */
static int grow(void **arr, size_t *cap, size_t n, size_t size)
{
	void *p;

	if (n < *cap)
		return 0;
	p = realloc(*arr, (*cap ? *cap * 2 : 16) * size);
	if (!p)
		return -ENOMEM;
	*arr = p;
	*cap = *cap ? *cap * 2 : 16;
	return 0;
}

static int actions_read(struct store *st, int64_t seq, struct wire_archive *a, struct held *h)
{
	sqlite3_stmt *s = st->rstmt[RS_ACTIONS];
	size_t cap = 0, ocap = 0;
	int rc = sqlite3_bind_int64(s, 1, seq);

	while (rc == SQLITE_OK && (rc = sqlite3_step(s)) == SQLITE_ROW) {
		struct wire_archive_action *x;

		if (grow((void **)&a->actions, &cap, a->nactions, sizeof(*a->actions)) ||
		    grow((void **)&h->owned, &ocap, h->nowned + 1, sizeof(*h->owned))) {
			rc = SQLITE_NOMEM;
			break;
		}
		x = &a->actions[a->nactions++];
		x->ply = sqlite3_column_int(s, 0);
		x->seat = sqlite3_column_int(s, 1);
		x->at = sqlite3_column_int64(s, 4);
		h->owned[h->nowned++] = x->action = load_json(sqlite3_column_text(s, 2));
		h->owned[h->nowned++] = x->outcome = load_json(sqlite3_column_text(s, 3));
		rc = SQLITE_OK;
	}
	(void)sqlite3_reset(s);
	return rc == SQLITE_DONE ? 0 : -EIO;
}

static int events_read(struct store *st, int64_t seq, struct wire_archive *a)
{
	sqlite3_stmt *s = st->rstmt[RS_EVENTS];
	size_t cap = 0;
	int rc = sqlite3_bind_int64(s, 1, seq);

	while (rc == SQLITE_OK && (rc = sqlite3_step(s)) == SQLITE_ROW) {
		struct wire_archive_event *x;

		if (grow((void **)&a->events, &cap, a->nevents, sizeof(*a->events))) {
			rc = SQLITE_NOMEM;
			break;
		}
		x = &a->events[a->nevents++];
		x->ply = sqlite3_column_int(s, 0);
		x->seat = sqlite3_column_int(s, 1);
		x->kind = wire_event_kind_parse((const char *)sqlite3_column_text(s, 2));
		x->at = sqlite3_column_int64(s, 3);
		rc = SQLITE_OK;
	}
	(void)sqlite3_reset(s);
	return rc == SQLITE_DONE ? 0 : -EIO;
}

/* The rest of match `seq` once its row is read; the archive as JSON, NULL on failure. */
static json_t *archive_json(struct store *st, int64_t seq, struct wire_archive *a, struct held *h)
{
	if (seats_read(st, seq, a, h) || actions_read(st, seq, a, h) || events_read(st, seq, a))
		return NULL;
	return wire_archive_encode(a); /* NULL too for an event kind it does not know */
}

static void read_get(struct store *st, struct store_req *r)
{
	sqlite3_stmt *s = st->rstmt[RS_GET];
	struct wire_archive a;
	struct held h;
	json_t *strings = NULL, *m = NULL;
	int64_t seq = 0;
	int rc = sqlite3_bind_text(s, 1, r->a, -1, SQLITE_STATIC), bad = 0;

	memset(&a, 0, sizeof(a));
	memset(&h, 0, sizeof(h));
	if (rc == SQLITE_OK && (rc = sqlite3_step(s)) == SQLITE_ROW) {
		seq = sqlite3_column_int64(s, 0);
		bad = head_read(s, &a, &h, &strings);
	}
	(void)sqlite3_reset(s);
	(void)sqlite3_clear_bindings(s);
	if (rc == SQLITE_ROW && !bad)
		m = archive_json(st, seq, &a, &h);
	held_finish(&h, &a);
	json_decref(strings);
	if (rc == SQLITE_DONE) {
		set_error(r, 404, "not_found", "no archived match has this id");
		return;
	}
	if (!m) {
		util_log(LOG_ERROR, "store: match %s: the archive could not be read", r->a);
		set_error(r, 500, "internal", "the archive could not be read");
		return;
	}
	set_body(r, 200, m);
}

static json_t *list_row(struct store *st, sqlite3_stmt *s)
{
	json_t *seats = rows_json(st->rdb, st->rstmt[RS_SEATS], sqlite3_column_int64(s, 0), seat_row);

	if (!seats)
		return NULL;
	return json_pack("{s:s, s:s, s:I, s:I, s:o, s:o}", "id", text(s, 1), "game", text(s, 2), "started_at",
			 (json_int_t)sqlite3_column_int64(s, 3), "ended_at",
			 (json_int_t)sqlite3_column_int64(s, 4), "seats", seats, "result",
			 load_json(sqlite3_column_text(s, 5)));
}

static int list_bind(sqlite3_stmt *s, const struct store_req *r)
{
	int rc;

	if (OK(rc = r->a ? sqlite3_bind_text(s, 1, r->a, -1, SQLITE_STATIC) : sqlite3_bind_null(s, 1)) &&
	    OK(rc = r->b ? sqlite3_bind_text(s, 2, r->b, -1, SQLITE_STATIC) : sqlite3_bind_null(s, 2)) &&
	    OK(rc = sqlite3_bind_int64(s, 3, r->before)))
		rc = sqlite3_bind_int(s, 4, r->limit + 1);
	return rc;
}

static void read_list(struct store *st, struct store_req *r)
{
	sqlite3_stmt *s = st->rstmt[RS_LIST];
	json_t *list = json_array(), *item, *next = json_null();
	int n = 0, rc = list ? list_bind(s, r) : SQLITE_NOMEM;
	char cursor[32] = "";

	while (rc == SQLITE_OK && (rc = sqlite3_step(s)) == SQLITE_ROW) {
		if (++n > r->limit) { /* one row more than asked: there is a next page */
			json_decref(next);
			next = json_string(cursor);
			rc = SQLITE_DONE;
			break;
		}
		snprintf(cursor, sizeof(cursor), "%lld", (long long)sqlite3_column_int64(s, 0));
		rc = (item = list_row(st, s)) && !json_array_append_new(list, item) ? SQLITE_OK
										    : SQLITE_NOMEM;
	}
	(void)sqlite3_reset(s);
	(void)sqlite3_clear_bindings(s);
	if (rc != SQLITE_DONE || !next) {
		json_decref(list), json_decref(next);
		set_error(r, 500, "internal", "the archive could not be read");
		return;
	}
	set_body(r, 200, json_pack("{s:o, s:o}", "matches", list, "next", next));
}

struct store_req *store_match_get(struct store *st, const char *id, store_read_cb cb, void *ctx)
{
	struct store_req *r = calloc(1, sizeof(*r));

	if (!r || !(r->a = strdup(id)))
		goto err;
	r->kind = RJOB_GET;
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

struct store_req *store_match_list(struct store *st, const char *game, const char *player, int64_t before,
				   int limit, store_read_cb cb, void *ctx)
{
	struct store_req *r = calloc(1, sizeof(*r));

	if (!r || (game && !(r->a = strdup(game))) || (player && !(r->b = strdup(player))))
		goto err;
	r->kind = RJOB_LIST;
	r->before = before;
	r->limit = limit;
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

/* Reader thread: answers r (status and body). */
void store_read_run(struct store *st, struct store_req *r)
{
	if (r->kind == RJOB_GET)
		read_get(st, r);
	else
		read_list(st, r);
}
