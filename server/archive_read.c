/*
 * archive_read.c: the archive read back (see archive_read.h). A match is read
 * into a struct wire_archive and handed to the archive codec, which writes the
 * JSON (GET /api/matches/{id}) or replays it step by step (.../replay); the
 * list and a player's record are plain queries on the indexes of migrations
 * 0001 and 0007. The list's SQL is built per filter shape, so every shape has
 * a plan that walks an index newest first and stops after one page.
 *
 * Must not: write, or trust a stored match without the codec replaying it
 * (the replay view is recomputed every time, never stored).
 */
#include "archive_read.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wire.h"

static const char *const stmt_sql[AR_MAX] = {
	[AR_GET] =
		"SELECT seq, id, game, options, started_at, ended_at, commit_hex, server_seed, client_seeds, "
		"result FROM matches WHERE id = ?1",
	[AR_SEATS] = "SELECT seat, role, name, bot FROM match_seats WHERE match_seq = ?1 ORDER BY seat",
	[AR_ACTIONS] =
		"SELECT ply, seat, action, outcome, at, stand_in FROM match_actions WHERE match_seq = ?1 "
		"ORDER BY ply",
	[AR_EVENTS] = "SELECT ply, seat, kind, at FROM match_events WHERE match_seq = ?1 ORDER BY ply, rowid",
	/* per game: matches, won, drawn, abandoned (a seat held twice in one match counts once) */
	[AR_PLAYER] =
		"SELECT m.game, count(*), sum(x.w), sum(m.winner IS NULL), sum(x.a) FROM (SELECT s.match_seq "
		"AS seq, max(s.seat = m2.winner) AS w, max(s.abandoned) AS a FROM match_seats s JOIN matches "
		"m2 ON m2.seq = s.match_seq WHERE s.name = ?1 GROUP BY s.match_seq) x JOIN matches m ON "
		"m.seq = x.seq GROUP BY m.game ORDER BY m.game",
	[AR_PLAYER_SPAN] = "SELECT min(m.started_at), max(m.ended_at) FROM match_seats s JOIN matches m ON "
			   "m.seq = s.match_seq WHERE s.name = ?1",
};

static int fail(struct archive_db *d, const char *what)
{
	snprintf(d->err, sizeof(d->err), "%s: %s", what, sqlite3_errmsg(d->db));
	return -EIO;
}

int archive_db_init(struct archive_db *d, sqlite3 *db)
{
	memset(d, 0, sizeof(*d));
	d->db = db;
	for (int k = 0; k < AR_MAX; k++)
		if (sqlite3_prepare_v3(db, stmt_sql[k], -1, SQLITE_PREPARE_PERSISTENT, &d->stmt[k], NULL) !=
		    SQLITE_OK)
			return fail(d, stmt_sql[k]);
	return 0;
}

void archive_db_finish(struct archive_db *d)
{
	for (int k = 0; k < AR_MAX; k++) {
		(void)sqlite3_finalize(d->stmt[k]); /* NULL is a no-op */
		d->stmt[k] = NULL;
	}
	for (int k = 0; k < ARCHIVE_LIST_SHAPES; k++) {
		(void)sqlite3_finalize(d->list[k]);
		d->list[k] = NULL;
	}
}

static json_t *error_new(const char *code, const char *message)
{
	return json_pack("{s:s, s:s}", "error", code, "message", message);
}

/* *out = body, or an internal error when the body could not be built. */
static int answer(struct archive_db *d, int status, json_t *body, json_t **out)
{
	if (!body) {
		if (!d->err[0])
			snprintf(d->err, sizeof(d->err), "out of memory");
		*out = error_new("internal", "the archive could not be read");
		return 500;
	}
	*out = body;
	return status;
}

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

/* --- one match ------------------------------------------------------------- */

/* What an archive read owns while the codec borrows from it. */
struct held {
	json_t *strings, *options, *result, *seeds, *seats;
	json_t **owned; /* actions' action and outcome */
	size_t nowned;
};

static void held_finish(struct held *h, struct wire_archive *a)
{
	json_decref(h->strings), json_decref(h->options), json_decref(h->result);
	json_decref(h->seeds), json_decref(h->seats);
	for (size_t i = 0; i < h->nowned; i++)
		json_decref(h->owned[i]);
	free(h->owned);
	free(a->actions);
	free(a->events);
}

/* Runs `s` (bound to match `seq`), appending row(s) to a new array; NULL on failure. */
static json_t *rows_json(struct archive_db *d, sqlite3_stmt *s, int64_t seq, json_t *(*row)(sqlite3_stmt *s))
{
	json_t *arr = json_array(), *item;
	int rc = sqlite3_bind_int64(s, 1, seq);

	while (arr && rc == SQLITE_OK && (rc = sqlite3_step(s)) == SQLITE_ROW)
		rc = (item = row(s)) && !json_array_append_new(arr, item) ? SQLITE_OK : SQLITE_NOMEM;
	if (rc != SQLITE_DONE) {
		if (rc != SQLITE_NOMEM)
			fail(d, "reading the archive");
		json_decref(arr);
		arr = NULL;
	}
	(void)sqlite3_reset(s);
	return arr;
}

static json_t *seat_row(sqlite3_stmt *s)
{
	return json_pack("{s:i, s:s, s:s, s:b}", "seat", sqlite3_column_int(s, 0), "role", text(s, 1), "name",
			 text(s, 2), "bot", sqlite3_column_int(s, 3));
}

/* The matches row: strings are copied into JSON values `h` holds, so the statement can be reset. */
static int head_read(sqlite3_stmt *s, struct wire_archive *a, struct held *h)
{
	size_t i;

	h->strings = json_pack("[s,s,s,s]", text(s, 1), text(s, 2), text(s, 6), text(s, 7));
	h->options = load_json(sqlite3_column_text(s, 3));
	h->seeds = load_json(sqlite3_column_text(s, 8));
	h->result = load_json(sqlite3_column_text(s, 9));
	if (!h->strings || !json_is_array(h->seeds) || json_array_size(h->seeds) > RULES_MAX_SEATS)
		return -EIO;
	a->id = json_string_value(json_array_get(h->strings, 0));
	a->game = json_string_value(json_array_get(h->strings, 1));
	a->commit = json_string_value(json_array_get(h->strings, 2));
	a->server_seed = json_string_value(json_array_get(h->strings, 3));
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

static int seats_read(struct archive_db *d, int64_t seq, struct wire_archive *a, struct held *h)
{
	json_t *x;
	size_t i;

	h->seats = rows_json(d, d->stmt[AR_SEATS], seq, seat_row);
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

static int actions_read(struct archive_db *d, int64_t seq, struct wire_archive *a, struct held *h)
{
	sqlite3_stmt *s = d->stmt[AR_ACTIONS];
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
		x->stand_in = sqlite3_column_int(s, 5) != 0;
		h->owned[h->nowned++] = x->action = load_json(sqlite3_column_text(s, 2));
		h->owned[h->nowned++] = x->outcome = load_json(sqlite3_column_text(s, 3));
		rc = SQLITE_OK;
	}
	if (rc != SQLITE_DONE && rc != SQLITE_NOMEM)
		fail(d, "reading actions");
	(void)sqlite3_reset(s);
	return rc == SQLITE_DONE ? 0 : -EIO;
}

static int events_read(struct archive_db *d, int64_t seq, struct wire_archive *a)
{
	sqlite3_stmt *s = d->stmt[AR_EVENTS];
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
	if (rc != SQLITE_DONE && rc != SQLITE_NOMEM)
		fail(d, "reading events");
	(void)sqlite3_reset(s);
	return rc == SQLITE_DONE ? 0 : -EIO;
}

/* Reads match `id` into `a` (borrowing from `h`); 200, 404, or 500. */
static int match_read(struct archive_db *d, const char *id, struct wire_archive *a, struct held *h)
{
	sqlite3_stmt *s = d->stmt[AR_GET];
	int64_t seq = 0;
	int rc = sqlite3_bind_text(s, 1, id, -1, SQLITE_STATIC), bad = 0;

	memset(a, 0, sizeof(*a));
	memset(h, 0, sizeof(*h));
	d->err[0] = '\0';
	if (rc == SQLITE_OK && (rc = sqlite3_step(s)) == SQLITE_ROW) {
		seq = sqlite3_column_int64(s, 0);
		bad = head_read(s, a, h);
	} else if (rc != SQLITE_DONE)
		fail(d, "reading a match");
	(void)sqlite3_reset(s);
	(void)sqlite3_clear_bindings(s);
	if (rc == SQLITE_DONE)
		return 404;
	if (rc != SQLITE_ROW || bad || seats_read(d, seq, a, h) || actions_read(d, seq, a, h) ||
	    events_read(d, seq, a))
		return 500;
	return 200;
}

static int not_found(json_t **out)
{
	*out = error_new("not_found", "no archived match has this id");
	return 404;
}

int archive_db_get(struct archive_db *d, const char *id, json_t **out)
{
	struct wire_archive a;
	struct held h;
	int status = match_read(d, id, &a, &h);
	json_t *m = status == 200 ? wire_archive_encode(&a) : NULL; /* NULL too for an unknown event kind */

	held_finish(&h, &a);
	if (status == 404)
		return not_found(out);
	return answer(d, 200, m, out);
}

int archive_db_replay(struct archive_db *d, const char *id, json_t **out)
{
	struct wire_archive a;
	struct held h;
	char why[512] = "";
	int status = match_read(d, id, &a, &h);
	json_t *steps = status == 200 ? wire_archive_steps_new(&a, why, sizeof(why)) : NULL, *body = NULL;

	if (steps)
		body = json_pack("{s:s, s:s, s:O, s:o, s:O, s:o}", "id", a.id, "game", a.game, "options",
				 a.options, "seats", json_deep_copy(h.seats), "result", a.result, "steps",
				 steps);
	else if (why[0])
		snprintf(d->err, sizeof(d->err), "match %s does not verify: %s", id, why);
	held_finish(&h, &a);
	if (status == 404)
		return not_found(out);
	return answer(d, 200, body, out);
}

/* --- the list ---------------------------------------------------------------- */

/* The `result` filters: none, a draw, a reason, and (with a player) won or lost. */
enum result_kind { R_ANY, R_DRAW, R_REASON, R_WON, R_LOST, R_KINDS };

static const char *const result_sql[2][R_KINDS] = {
	{ "", " AND winner IS NULL", " AND reason = ?5", "", "" },
	{ "", " AND m.winner IS NULL", " AND m.reason = ?5", " AND m.winner = s.seat",
	  " AND m.winner IS NOT NULL AND m.winner <> s.seat" },
};

bool archive_result_valid(const char *result)
{
	size_t n = strlen(result);

	if (!n || n > 24)
		return false;
	for (; *result; result++)
		if (!((*result >= 'a' && *result <= 'z') || *result == '_'))
			return false;
	return true;
}

static enum result_kind result_kind(const char *r)
{
	if (!r)
		return R_ANY;
	if (!strcmp(r, "draw"))
		return R_DRAW;
	if (!strcmp(r, "won"))
		return R_WON;
	if (!strcmp(r, "lost"))
		return R_LOST;
	return R_REASON;
}

/*
 * The statement for one filter shape. Without a player it walks matches (or
 * an index of game, reason or draws) down from the cursor; with one it walks
 * match_seats_name down and joins each match. ?1 game, ?2 player, ?3 the
 * cursor, ?4 rows, ?5 reason.
 */
static sqlite3_stmt *list_stmt(struct archive_db *d, bool game, bool player, enum result_kind rk)
{
	int shape = (int)game + 2 * (int)player + 4 * (int)rk;
	char sql[1024];

	if (d->list[shape])
		return d->list[shape];
	if (player)
		snprintf(sql, sizeof(sql),
			 "SELECT m.seq, m.id, m.game, m.started_at, m.ended_at, m.result, m.plies FROM "
			 "match_seats s JOIN matches m ON m.seq = s.match_seq WHERE s.name = ?2 AND "
			 "s.match_seq < ?3%s%s ORDER BY s.match_seq DESC LIMIT ?4",
			 game ? " AND m.game = ?1" : "", result_sql[1][rk]);
	else
		snprintf(sql, sizeof(sql),
			 "SELECT seq, id, game, started_at, ended_at, result, plies FROM matches WHERE "
			 "seq < ?3%s%s ORDER BY seq DESC LIMIT ?4",
			 game ? " AND game = ?1" : "", result_sql[0][rk]);
	if (sqlite3_prepare_v3(d->db, sql, -1, SQLITE_PREPARE_PERSISTENT, &d->list[shape], NULL) !=
	    SQLITE_OK) {
		fail(d, "preparing the list");
		return NULL;
	}
	return d->list[shape];
}

/* Binds what the shape uses (a parameter its SQL lacks answers SQLITE_RANGE, harmlessly). */
static int list_bind(sqlite3_stmt *s, const struct archive_query *q)
{
	int rc = SQLITE_OK, limit = q->limit < 1 || q->limit > ARCHIVE_LIMIT_MAX ? 20 : q->limit;

	(void)sqlite3_bind_int64(s, 3, q->before > 0 ? q->before : INT64_MAX);
	/* one row past the page says there is a next; with a player, a name may hold several seats of a match
	 */
	(void)sqlite3_bind_int(s, 4, (limit + 1) * (q->player ? RULES_MAX_SEATS : 1));
	if (q->game)
		rc = sqlite3_bind_text(s, 1, q->game, -1, SQLITE_STATIC);
	if (rc == SQLITE_OK && q->player)
		rc = sqlite3_bind_text(s, 2, q->player, -1, SQLITE_STATIC);
	if (rc == SQLITE_OK && result_kind(q->result) == R_REASON)
		rc = sqlite3_bind_text(s, 5, q->result, -1, SQLITE_STATIC);
	return rc;
}

static json_t *list_row(struct archive_db *d, sqlite3_stmt *s)
{
	json_t *seats = rows_json(d, d->stmt[AR_SEATS], sqlite3_column_int64(s, 0), seat_row);

	if (!seats)
		return NULL;
	return json_pack("{s:s, s:s, s:I, s:I, s:I, s:o, s:o}", "id", text(s, 1), "game", text(s, 2),
			 "started_at", (json_int_t)sqlite3_column_int64(s, 3), "ended_at",
			 (json_int_t)sqlite3_column_int64(s, 4), "plies",
			 (json_int_t)sqlite3_column_int64(s, 6), "seats", seats, "result",
			 load_json(sqlite3_column_text(s, 5)));
}

/* Steps the list into `list` until a page is full; *next the cursor of a following page, or null. */
static int list_fill(struct archive_db *d, sqlite3_stmt *s, int limit, json_t *list, json_t **next)
{
	int n = 0, rc;
	int64_t seq, prev = 0;
	char cursor[32] = "";
	json_t *item;

	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		seq = sqlite3_column_int64(s, 0);
		if (seq == prev)
			continue; /* the player's second seat in the same match */
		prev = seq;
		if (++n > limit) { /* one match more than asked: there is a next page */
			*next = json_string(cursor);
			return *next ? 0 : -ENOMEM;
		}
		snprintf(cursor, sizeof(cursor), "%lld", (long long)seq);
		if (!(item = list_row(d, s)) || json_array_append_new(list, item))
			return -ENOMEM;
	}
	if (rc != SQLITE_DONE)
		return fail(d, "reading the list");
	*next = json_null();
	return 0;
}

int archive_db_list(struct archive_db *d, const struct archive_query *q, json_t **out)
{
	enum result_kind rk = result_kind(q->result);
	int limit = q->limit < 1 || q->limit > ARCHIVE_LIMIT_MAX ? 20 : q->limit;
	sqlite3_stmt *s;
	json_t *list, *next = NULL;
	int err;

	d->err[0] = '\0';
	if ((rk == R_WON || rk == R_LOST) && !q->player) {
		*out = error_new("bad_request", "result=won and result=lost need a player");
		return 400;
	}
	s = list_stmt(d, q->game != NULL, q->player != NULL, rk);
	if (!s)
		return answer(d, 500, NULL, out);
	list = json_array();
	err = !list ? -ENOMEM : list_bind(s, q) != SQLITE_OK ? fail(d, "binding the list") : 0;
	if (!err)
		err = list_fill(d, s, limit, list, &next);
	(void)sqlite3_reset(s);
	(void)sqlite3_clear_bindings(s);
	if (err) {
		json_decref(list);
		return answer(d, 500, NULL, out);
	}
	return answer(d, 200, json_pack("{s:o, s:o}", "matches", list, "next", next), out);
}

/* --- a player ---------------------------------------------------------------- */

static int player_games(struct archive_db *d, const char *name, json_t *games, json_int_t *total,
			json_int_t *abandoned)
{
	sqlite3_stmt *s = d->stmt[AR_PLAYER];
	int rc = sqlite3_bind_text(s, 1, name, -1, SQLITE_STATIC);

	while (rc == SQLITE_OK && (rc = sqlite3_step(s)) == SQLITE_ROW) {
		json_int_t n = sqlite3_column_int64(s, 1), won = sqlite3_column_int64(s, 2),
			   drawn = sqlite3_column_int64(s, 3), gone = sqlite3_column_int64(s, 4);

		*total += n;
		*abandoned += gone;
		rc = json_object_set_new(games, text(s, 0),
					 json_pack("{s:I, s:I, s:I, s:I, s:I}", "matches", n, "won", won,
						   "lost", n - won - drawn, "drawn", drawn, "abandoned",
						   gone))
			     ? SQLITE_NOMEM
			     : SQLITE_OK;
	}
	if (rc != SQLITE_DONE && rc != SQLITE_NOMEM)
		fail(d, "reading a player");
	(void)sqlite3_reset(s);
	(void)sqlite3_clear_bindings(s);
	return rc == SQLITE_DONE ? 0 : -EIO;
}

int archive_db_player(struct archive_db *d, const char *name, json_t **out)
{
	sqlite3_stmt *s = d->stmt[AR_PLAYER_SPAN];
	json_t *games = json_object(), *body = NULL;
	json_int_t total = 0, abandoned = 0;

	d->err[0] = '\0';
	if (!games || player_games(d, name, games, &total, &abandoned)) {
		json_decref(games);
		return answer(d, 500, NULL, out);
	}
	if (!total) {
		json_decref(games);
		*out = error_new("not_found", "no archived match has a player of this name");
		return 404;
	}
	if (sqlite3_bind_text(s, 1, name, -1, SQLITE_STATIC) == SQLITE_OK && sqlite3_step(s) == SQLITE_ROW)
		body = json_pack("{s:s, s:I, s:I, s:I, s:I, s:o}", "name", name, "matches", total,
				 "abandoned", abandoned, "first_at", (json_int_t)sqlite3_column_int64(s, 0),
				 "last_at", (json_int_t)sqlite3_column_int64(s, 1), "games", games);
	else {
		fail(d, "reading a player");
		json_decref(games);
	}
	(void)sqlite3_reset(s);
	(void)sqlite3_clear_bindings(s);
	return answer(d, 200, body, out);
}
