/*
 * archive_read.c: the archive read back (see archive_read.h). A match's head,
 * seats and events are read into a struct wire_archive, its actions a row at a
 * time (never all held): the archive codec writes the JSON (GET
 * /api/matches/{id}) member by member, and replays it (.../replay) a page at a
 * time from snapshots of the rules state (wire_replay_*); the list and a
 * player's record are plain queries on the indexes of migrations 0001, 0007
 * and 0012 (the list finds a player by the folded name: name_fold.h). The
 * list's SQL is built per filter shape, so every shape has a plan that walks
 * an index newest first and stops after one page.
 *
 * The rows come through one seam (archive_read_int.h: rows_open, rows_next,
 * col_text, col_int, rows_close): SQLite's statements here, PostgreSQL's
 * queries in archive_read_pg.c. Everything else (the JSON, the replay's
 * verification and its cache) is written once, so both answer the same bytes.
 *
 * Must not: write, or trust a stored match without the codec replaying it
 * (the replay view is recomputed every time, never stored).
 */
#include "store/archive_read.h"

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wire.h"
#include "store/archive_read_int.h"
#include "store/name_fold.h"

static const char *const stmt_sql[AR_MAX] = {
	[AR_GET] =
		"SELECT seq, id, game, options, started_at, ended_at, commit_hex, server_seed, client_seeds, "
		"result, rated FROM matches WHERE id = ?1",
	[AR_SEATS] = "SELECT seat, role, name, bot FROM match_seats WHERE match_seq = ?1 ORDER BY seat",
	/* [AR_PAGE_SEATS]: PostgreSQL's alone (archive_read_pg.c; list_seats() says why) */
	[AR_ACTIONS] =
		"SELECT ply, seat, action, outcome, at, stand_in FROM match_actions WHERE match_seq = ?1 "
		"AND ply >= ?2 ORDER BY ply",
	[AR_EVENTS] = "SELECT ply, seat, kind, at FROM match_events WHERE match_seq = ?1 ORDER BY ply, rowid",
	/* per game: matches, won, drawn, abandoned (a seat held twice in one match counts once) */
	[AR_PLAYER] =
		"SELECT m.game, count(*), sum(x.w), sum(m.winner IS NULL), sum(x.a) FROM (SELECT s.match_seq "
		"AS seq, max(s.seat = m2.winner) AS w, max(s.abandoned) AS a FROM match_seats s JOIN matches "
		"m2 ON m2.seq = s.match_seq WHERE s.name = ?1 GROUP BY s.match_seq) x JOIN matches m ON "
		"m.seq = x.seq GROUP BY m.game ORDER BY m.game",
	[AR_PLAYER_SPAN] = "SELECT min(m.started_at), max(m.ended_at) FROM match_seats s JOIN matches m ON "
			   "m.seq = s.match_seq WHERE s.name = ?1",
	/* the newest column the reads need (migration 0012): an older database fails archive_db_init() */
	[AR_SCHEMA] = "SELECT name_key FROM match_seats LIMIT 0",
	/* issue 26, each on an index: accounts.handle_key (UNIQUE), match_seats_player, the primary keys of
	   ratings and rating_history, ratings_board */
	[AR_ACCOUNT] = "SELECT a.player_id, a.handle, a.created_at, p.name FROM accounts a JOIN players p ON "
		       "p.id = a.player_id WHERE a.handle_key = ?1",
	[AR_ACCOUNT_GAMES] =
		"SELECT m.game, count(*), sum(x.w), sum(m.winner IS NULL), sum(x.a) FROM (SELECT s.match_seq "
		"AS seq, max(s.seat = m2.winner) AS w, max(s.abandoned) AS a FROM match_seats s JOIN matches "
		"m2 ON m2.seq = s.match_seq WHERE s.player_id = ?1 GROUP BY s.match_seq) x JOIN matches m ON "
		"m.seq = x.seq GROUP BY m.game ORDER BY m.game",
	[AR_ACCOUNT_SPAN] = "SELECT min(m.started_at), max(m.ended_at) FROM match_seats s JOIN matches m ON "
			    "m.seq = s.match_seq WHERE s.player_id = ?1",
	[AR_RATINGS] =
		"SELECT game, rating, rd, vol, matches FROM ratings WHERE player_id = ?1 ORDER BY game",
	/* every rated game's last 200 at once: for each ratings row (CROSS JOIN: SQLite keeps this order) the
	   subquery finds the game's 200th newest rated_seq, from which its range is walked on the primary
	   key, never its whole history (PostgreSQL's plan does the same) */
	[AR_HISTORY] =
		"SELECT h.game, h.at, h.rating, h.rd, m.id FROM ratings r CROSS JOIN rating_history h JOIN "
		"matches m ON m.seq = h.match_seq WHERE r.player_id = ?1 AND h.player_id = r.player_id AND "
		"h.game = r.game AND h.rated_seq >= coalesce((SELECT x.rated_seq FROM rating_history x WHERE "
		"x.player_id = r.player_id AND x.game = r.game ORDER BY x.rated_seq DESC LIMIT 1 OFFSET "
		"199), 0) ORDER BY h.game, h.rated_seq",
	[AR_RECENT] =
		"SELECT m.id, m.game, m.ended_at, s.seat, s.role, m.winner, m.rated FROM match_seats s "
		"JOIN matches m ON m.seq = s.match_seq WHERE s.player_id = ?1 ORDER BY s.match_seq DESC, "
		"s.seat LIMIT 20",
	/* ?2: 0 the established ratings, 1 the provisional ones (listed after) */
	[AR_BOARD] = "SELECT a.handle, p.name, r.rating, r.rd, r.matches FROM ratings r JOIN accounts a ON "
		     "a.player_id = r.player_id JOIN players p ON p.id = r.player_id WHERE r.game = ?1 AND "
		     "r.matches > 0 AND (r.rd > 110) = ?2 ORDER BY r.rating DESC, a.handle_key LIMIT ?3",
};

static void replay_free(struct archive_replay *c);
static sqlite3_stmt *list_stmt(struct archive_db *d, int shape);

static int fail(struct archive_db *d, const char *what)
{
	snprintf(d->err, sizeof(d->err), "%s: %s", what, sqlite3_errmsg(d->db));
	return -EIO;
}

int archive_db_init_pg(struct archive_db *d, PGconn *pg)
{
	memset(d, 0, sizeof(*d));
	d->pg = pg;
	return ar_pg_check(d);
}

int archive_db_init(struct archive_db *d, sqlite3 *db)
{
	memset(d, 0, sizeof(*d));
	d->db = db;
	for (int k = 0; k < AR_MAX; k++)
		if (stmt_sql[k] && sqlite3_prepare_v3(db, stmt_sql[k], -1, SQLITE_PREPARE_PERSISTENT,
						      &d->stmt[k], NULL) != SQLITE_OK)
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
	for (int k = 0; k < ARCHIVE_REPLAY_CACHE; k++) {
		replay_free(d->replays[k]);
		d->replays[k] = NULL;
	}
}

/* --- rows: the one place that asks which database answers ------------------ */

static void arg_num(struct ar_rows *r, int i, int64_t v)
{
	r->args[i] = (struct ar_arg){ .used = true, .num = v };
}

static void arg_text(struct ar_rows *r, int i, const char *t)
{
	r->args[i] = (struct ar_arg){ .used = true, .text = t };
}

static void rows_close(struct archive_db *d, struct ar_rows *r)
{
	if (d->pg) {
		ar_pg_close(r);
		return;
	}
	if (r->s) {
		(void)sqlite3_reset(r->s);
		(void)sqlite3_clear_bindings(r->s);
		r->s = NULL;
	}
}

/* Runs query r->q with r->args; 0, or -EIO (d->err says why; nothing left open). */
static int rows_open(struct archive_db *d, struct ar_rows *r)
{
	int rc = SQLITE_OK, err;

	if (d->pg)
		return ar_pg_open(d, r);
	r->s = r->q < AR_MAX ? d->stmt[r->q] : list_stmt(d, r->q - AR_LIST);
	if (!r->s)
		return -EIO;
	for (int i = 1; rc == SQLITE_OK && i <= AR_ARGS; i++)
		if (r->args[i].used)
			rc = r->args[i].text
				     ? sqlite3_bind_text(r->s, i, r->args[i].text, -1, SQLITE_TRANSIENT)
				     : sqlite3_bind_int64(r->s, i, r->args[i].num);
	if (rc == SQLITE_OK)
		return 0;
	err = fail(d, "binding a query");
	rows_close(d, r);
	return err;
}

/* The next row: 1, 0 after the last, or -EIO (d->err). */
static int rows_next(struct archive_db *d, struct ar_rows *r)
{
	int rc;

	if (d->pg)
		return ar_pg_next(d, r);
	rc = sqlite3_step(r->s);
	if (rc == SQLITE_ROW)
		return 1;
	return rc == SQLITE_DONE ? 0 : fail(d, "reading the archive");
}

/* Column `i` of the row as text, NULL for NULL. */
static const char *col_text(const struct ar_rows *r, int i)
{
	return r->res ? ar_pg_text(r, i) : (const char *)sqlite3_column_text(r->s, i);
}

static int64_t col_int(const struct ar_rows *r, int i)
{
	const char *t;

	if (!r->res)
		return sqlite3_column_int64(r->s, i);
	t = ar_pg_text(r, i);
	return t ? strtoll(t, NULL, 10) : 0;
}

static double col_double(const struct ar_rows *r, int i)
{
	const char *t;

	if (!r->res)
		return sqlite3_column_double(r->s, i);
	t = ar_pg_text(r, i);
	return t ? strtod(t, NULL) : 0;
}

static const char *text(const struct ar_rows *r, int i)
{
	const char *t = col_text(r, i);

	return t ? t : "";
}

static json_t *error_new(const char *code, const char *message)
{
	return json_pack("{s:s, s:s, s:s}", "error", code, "code", code, "message", message);
}

/*
 * *out = body (0), or an internal error when the body could not be built:
 * -EIO when the database failed (d->err says how), else -ENOMEM.
 */
static int answer(struct archive_db *d, json_t *body, json_t **out)
{
	int err = d->err[0] ? -EIO : -ENOMEM;

	if (!body) {
		if (!d->err[0])
			snprintf(d->err, sizeof(d->err), "out of memory");
		*out = error_new("internal", "the archive could not be read");
		return err;
	}
	*out = body;
	return 0;
}

static json_t *load_json(const char *text)
{
	json_t *j = text ? json_loads(text, JSON_DECODE_ANY, NULL) : NULL;

	return j ? j : json_null();
}

/* --- one match ------------------------------------------------------------- */

/*
 * What an archive read owns while the codec borrows from it. The actions are
 * never all held: they are read a row at a time (actions_next), so a read
 * costs memory for its answer, not for the match.
 */
struct held {
	json_t *strings, *options, *result, *seeds, *seats;
};

static void held_finish(struct held *h, struct wire_archive *a)
{
	json_decref(h->strings), json_decref(h->options), json_decref(h->result);
	json_decref(h->seeds), json_decref(h->seats);
	free(a->events);
}

/* Runs query `q` for match `seq`, appending row(s) to a new array; NULL on failure. */
static json_t *rows_json(struct archive_db *d, int q, int64_t seq, json_t *(*row)(const struct ar_rows *r))
{
	struct ar_rows r = { .q = q };
	json_t *arr = json_array(), *item;
	int rc;

	arg_num(&r, 1, seq);
	rc = arr ? rows_open(d, &r) : -ENOMEM;
	while (!rc && (rc = rows_next(d, &r)) == 1)
		rc = (item = row(&r)) && !json_array_append_new(arr, item) ? 0 : -ENOMEM;
	rows_close(d, &r);
	if (rc) {
		json_decref(arr);
		return NULL;
	}
	return arr;
}

static json_t *seat_row(const struct ar_rows *r)
{
	return json_pack("{s:i, s:s, s:s, s:b}", "seat", (int)col_int(r, 0), "role", text(r, 1), "name",
			 text(r, 2), "bot", (int)col_int(r, 3));
}

/* The matches row: strings are copied into JSON values `h` holds, so the query can be closed. */
static int head_read(const struct ar_rows *r, struct wire_archive *a, struct held *h)
{
	size_t i;

	h->strings = json_pack("[s,s,s,s]", text(r, 1), text(r, 2), text(r, 6), text(r, 7));
	h->options = load_json(col_text(r, 3));
	h->seeds = load_json(col_text(r, 8));
	h->result = load_json(col_text(r, 9));
	if (!h->strings || !json_is_array(h->seeds) || json_array_size(h->seeds) > RULES_MAX_SEATS)
		return -EIO;
	a->id = json_string_value(json_array_get(h->strings, 0));
	a->game = json_string_value(json_array_get(h->strings, 1));
	a->commit = json_string_value(json_array_get(h->strings, 2));
	a->server_seed = json_string_value(json_array_get(h->strings, 3));
	a->options = h->options;
	a->result = h->result;
	a->started_at = col_int(r, 4);
	a->ended_at = col_int(r, 5);
	a->rated = col_int(r, 10) != 0;
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

	h->seats = rows_json(d, AR_SEATS, seq, seat_row);
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

/* Starts reading match `seq`'s actions from ply `from` on into `r` (actions_next, then rows_close). */
static int actions_open(struct archive_db *d, struct ar_rows *r, int64_t seq, int64_t from)
{
	*r = (struct ar_rows){ .q = AR_ACTIONS };
	arg_num(r, 1, seq);
	arg_num(r, 2, from);
	return rows_open(d, r);
}

/* The next action into *x, its action and outcome new references: 1, 0 after the last, or -EIO. */
static int actions_next(struct archive_db *d, struct ar_rows *r, struct wire_archive_action *x)
{
	int rc = rows_next(d, r);

	if (rc <= 0)
		return rc;
	x->ply = (int)col_int(r, 0);
	x->seat = (int)col_int(r, 1);
	x->at = col_int(r, 4);
	x->stand_in = col_int(r, 5) != 0;
	x->action = load_json(col_text(r, 2));
	x->outcome = load_json(col_text(r, 3));
	return 1;
}

/* The match's events (a few: a seat resigning or forfeiting), all held. */
static int events_read(struct archive_db *d, int64_t seq, struct wire_archive *a)
{
	struct ar_rows r = { .q = AR_EVENTS };
	size_t cap = 0;
	int rc;

	arg_num(&r, 1, seq);
	rc = rows_open(d, &r);
	while (!rc && (rc = rows_next(d, &r)) == 1) {
		struct wire_archive_event *x;

		if (grow((void **)&a->events, &cap, a->nevents, sizeof(*a->events))) {
			rc = -ENOMEM;
			break;
		}
		x = &a->events[a->nevents++];
		x->ply = (int)col_int(&r, 0);
		x->seat = (int)col_int(&r, 1);
		x->kind = wire_event_kind_parse(col_text(&r, 2));
		x->at = col_int(&r, 3);
		rc = 0;
	}
	rows_close(d, &r);
	return rc ? -EIO : 0;
}

/*
 * Reads match `id`'s head, seats and events into `a` (borrowing from `h`), *seq its row; 0, STORE_E_NOT_FOUND
 * or -EIO.
 */
static int match_read(struct archive_db *d, const char *id, struct wire_archive *a, struct held *h,
		      int64_t *seq)
{
	struct ar_rows r = { .q = AR_GET };
	int rc, bad = 0;

	memset(a, 0, sizeof(*a));
	memset(h, 0, sizeof(*h));
	d->err[0] = '\0';
	*seq = 0;
	arg_text(&r, 1, id);
	rc = rows_open(d, &r);
	if (!rc && (rc = rows_next(d, &r)) == 1) {
		*seq = col_int(&r, 0);
		bad = head_read(&r, a, h);
	}
	rows_close(d, &r);
	if (!rc)
		return STORE_E_NOT_FOUND;
	if (rc < 0 || bad || seats_read(d, *seq, a, h) || events_read(d, *seq, a))
		return -EIO;
	return 0;
}

/*
 * *out = the error body {error, code, message} of failure `err`; returns err,
 * or -ENOMEM (out->p NULL) when even that cannot be written.
 */
static int error_out(struct archive_db *d, int err, const char *code, const char *message,
		     struct json_out *out)
{
	json_t *e = error_new(code, message);

	if (err == -ENOMEM && !d->err[0])
		snprintf(d->err, sizeof(d->err), "out of memory");
	out->len = 0;
	if (!e || json_out_value(out, e, 0)) {
		json_decref(e);
		json_out_free(out);
		return -ENOMEM;
	}
	json_decref(e);
	return err;
}

/* The error body of a failed read of a match: not found, or internal (err kept). */
static int failure_out(struct archive_db *d, int err, struct json_out *out)
{
	if (err == STORE_E_NOT_FOUND)
		return error_out(d, err, "not_found", "no archived match has this id", out);
	return error_out(d, err, "internal", "the archive could not be read", out);
}

/* The `actions` array, a row at a time. */
static int actions_write(struct archive_db *d, int64_t seq, struct json_out *out)
{
	struct wire_archive_action x;
	struct ar_rows rows;
	json_t *rec;
	int n = 0, r = actions_open(d, &rows, seq, 0);

	if (!r)
		r = json_out_bytes(out, "[", 1) ? -ENOMEM : 0;
	while (!r && (r = actions_next(d, &rows, &x)) > 0) {
		rec = wire_archive_action_new(&x);
		r = !rec || (n++ && json_out_bytes(out, ",", 1)) || json_out_value(out, rec, 0) ? -ENOMEM : 0;
		json_decref(rec);
		json_decref(x.action), json_decref(x.outcome);
	}
	rows_close(d, &rows);
	return r || json_out_bytes(out, "]", 1) ? -EIO : 0;
}

/*
 * The archive as wire_archive_encode() writes it, member by member in its
 * order, `actions` streamed from the database instead of the encoder's
 * (empty) array: the answer's bytes are the only thing that grows.
 */
int archive_db_get(struct archive_db *d, const char *id, struct json_out *out)
{
	struct wire_archive a;
	struct held h;
	int64_t seq;
	int status = match_read(d, id, &a, &h, &seq), err = -ENOMEM;
	json_t *m = !status ? wire_archive_encode(&a) : NULL, *v; /* NULL for an unknown event kind */
	const char *key;
	bool first = true;

	out->len = 0;
	if (m && !json_out_bytes(out, "{", 1)) {
		err = 0;
		json_object_foreach(m, key, v)
		{
			if (err || (!first && json_out_bytes(out, ",", 1)) ||
			    json_out_string(out, key, strlen(key)) || json_out_bytes(out, ":", 1)) {
				err = -ENOMEM;
				break;
			}
			first = false;
			err = !strcmp(key, "actions") ? actions_write(d, seq, out)
						      : json_out_value(out, v, 0);
		}
		if (!err)
			err = json_out_bytes(out, "}", 1);
	}
	json_decref(m);
	held_finish(&h, &a);
	if (!status && err)
		status = err == -ENOMEM ? -ENOMEM : -EIO;
	return !status ? 0 : failure_out(d, status, out);
}

/* --- the replay, a page at a time -------------------------------------------- */

/*
 * A page of GET /api/matches/{id}/replay costs the steps it shows plus at most
 * SNAP_EVERY actions applied silently (no view, no JSON but the action's):
 * the replay restarts from the snapshot of the rules state nearest below the
 * page. The snapshots are taken by a full verification pass (every action,
 * event and the result, as wire_archive_verify()), the only part that costs
 * the whole match; it runs when the match is not in the cache (the
 * ARCHIVE_REPLAY_CACHE long matches asked for last; a match of one page is
 * not kept, its pass costs no more than the page). Steps a page shows are
 * recomputed and their outcomes compared again every time. A match is known
 * by its row (seq, AUTOINCREMENT: never reused), and archived rows are never
 * rewritten; a page that no longer verifies drops the match from the cache.
 * A snapshot is a few hundred bytes: the longest match (200,008 plies) keeps
 * about 800 of them.
 */
#define SNAP_EVERY 256

/* The state after step `step`. */
struct snap {
	size_t step, event;       /* the step; the next event to apply */
	struct rules_match match; /* actions applied: match.ply */
	char *last;               /* the step's `last` as compact JSON, NULL for null */
};

/* One match's snapshots, one every SNAP_EVERY steps, [0] the start. */
struct archive_replay {
	int64_t seq;
	uint64_t used; /* the archive_db's tick when last asked for */
	size_t total, plies;
	struct snap *snaps;
	size_t nsnaps, cap;
};

static void replay_free(struct archive_replay *c)
{
	if (!c)
		return;
	for (size_t i = 0; i < c->nsnaps; i++)
		free(c->snaps[i].last);
	free(c->snaps);
	free(c);
}

/* A walk through the replay: the full pass, or a page. */
struct walk {
	struct archive_db *d;
	const struct wire_archive *a; /* head and events, no actions */
	int64_t seq;                  /* the match's row */
	struct wire_replay w;
	size_t step, event; /* the step reached (w.match is the state after it); the next event */
	int lseat;          /* the latest action, when laction is not NULL */
	json_t *laction, *loutcome;
	struct ar_rows acts;      /* the actions, read a row at a time (walk_run) */
	struct archive_replay *c; /* full pass: snapshots go here */
	struct json_out *out;     /* page: steps [from, to) are written here */
	size_t from, to;
};

static json_t *last_new(struct walk *k)
{
	return k->laction ? wire_archive_last_new(k->lseat, k->laction, k->loutcome) : NULL;
}

static void last_set(struct walk *k, int seat, json_t *action_take, json_t *outcome_take)
{
	json_decref(k->laction), json_decref(k->loutcome);
	k->lseat = seat;
	k->laction = action_take;
	k->loutcome = outcome_take;
}

static int snap_take(struct walk *k)
{
	struct archive_replay *c = k->c;
	struct snap *x;
	json_t *last;

	if (grow((void **)&c->snaps, &c->cap, c->nsnaps, sizeof(*c->snaps)))
		return -ENOMEM;
	x = &c->snaps[c->nsnaps];
	x->step = k->step;
	x->event = k->event;
	x->match = k->w.match;
	last = last_new(k);
	x->last = last ? json_dumps(last, JSON_COMPACT) : NULL;
	json_decref(last);
	if (k->laction && !x->last)
		return -ENOMEM;
	c->nsnaps++;
	return 0;
}

static void snap_restore(struct walk *k, const struct snap *x)
{
	json_t *last = x->last ? json_loads(x->last, 0, NULL) : NULL;

	k->step = x->step;
	k->event = x->event;
	k->w.match = x->match;
	last_set(k, (int)json_integer_value(json_object_get(last, "seat")),
		 json_incref(json_object_get(last, "action")), json_incref(json_object_get(last, "outcome")));
	json_decref(last);
}

/* After every step: a snapshot (full pass) or the step's JSON (page). Takes `event`. */
static int step_done(struct walk *k, json_t *event)
{
	json_t *step, *last;
	int r;

	if (k->c) {
		json_decref(event);
		return k->step % SNAP_EVERY ? 0 : snap_take(k);
	}
	if (k->step < k->from || k->step >= k->to) {
		json_decref(event);
		return 0;
	}
	last = last_new(k);
	step = wire_archive_step_new(&k->w.match, event, last);
	r = !step || (k->step > k->from && json_out_bytes(k->out, ",", 1)) || json_out_value(k->out, step, 0);
	json_decref(step);
	json_decref(last);
	return r ? -ENOMEM : 0;
}

/* One step: the next event if it is due at this ply, else the next action; *end after the last. */
static int walk_step(struct walk *k, bool *end)
{
	const struct wire_archive_event *e = k->event < k->a->nevents ? &k->a->events[k->event] : NULL;
	struct wire_archive_action x;
	json_t *got = NULL;
	int r;

	if (e && e->ply <= (int)k->w.match.ply) {
		if ((r = wire_replay_event(&k->w, e, k->event++)))
			return r;
		k->step++;
		return step_done(k, wire_archive_event_new(e->seat, e->kind));
	}
	if ((r = actions_next(k->d, &k->acts, &x)) <= 0) {
		*end = true;
		return r;
	}
	r = wire_replay_action(&k->w, &x, k->w.match.ply, &got);
	json_decref(x.outcome);
	if (r) {
		json_decref(x.action);
		return r;
	}
	last_set(k, x.seat, x.action, got);
	k->step++;
	return step_done(k, NULL);
}

/* Steps until step `until` is reached or the match ends; *end then. */
static int walk_run(struct walk *k, size_t until, bool *end)
{
	int r = actions_open(k->d, &k->acts, k->seq, k->w.match.ply);

	while (!r && !*end && k->step < until)
		r = walk_step(k, end);
	rows_close(k->d, &k->acts);
	return r;
}

/* The full pass over the match: verifies it whole and fills c's snapshots and sizes. */
static int full_pass(struct walk *k, struct archive_replay *c, char *why, size_t whylen)
{
	struct rules_result res;
	bool end = false;
	int r = wire_replay_start(&k->w, k->a, why, whylen);

	k->c = c;
	if (!r)
		r = step_done(k, NULL); /* the start: snapshot 0 */
	if (!r)
		r = walk_run(k, SIZE_MAX, &end);
	if (!r && k->event < k->a->nevents) {
		snprintf(why, whylen, "ply %u: events[%zu] records ply %d, after the last action",
			 (unsigned)k->w.match.ply, k->event, k->a->events[k->event].ply);
		r = WIRE_E_BAD_MESSAGE;
	}
	if (!r)
		r = wire_replay_result(&k->w, k->a->result, &res);
	c->total = k->step + 1;
	c->plies = k->w.match.ply;
	last_set(k, 0, NULL, NULL);
	k->c = NULL;
	return r;
}

/* The cached snapshots of match `seq`, or NULL. */
static struct archive_replay *cache_find(struct archive_db *d, int64_t seq)
{
	for (int i = 0; i < ARCHIVE_REPLAY_CACHE; i++)
		if (d->replays[i] && d->replays[i]->seq == seq) {
			d->replays[i]->used = ++d->tick;
			return d->replays[i];
		}
	return NULL;
}

/* Keeps `c` (taken) in place of the least recently asked for; a short match is not worth a place. */
static void cache_put(struct archive_db *d, struct archive_replay *c)
{
	int k = 0;

	if (c->total <= ARCHIVE_STEPS_MAX) {
		replay_free(c);
		return;
	}
	for (int i = 0; i < ARCHIVE_REPLAY_CACHE; i++) {
		if (!d->replays[i]) { /* a free place */
			k = i;
			break;
		}
		if (d->replays[i]->used < d->replays[k]->used)
			k = i;
	}
	replay_free(d->replays[k]);
	c->used = ++d->tick;
	d->replays[k] = c;
}

/* The head of a page (the match, its sizes, the page's place) and "steps":[ ; 0 or -ENOMEM. */
static int page_head(struct walk *k, const struct held *h, const struct archive_replay *c, size_t limit)
{
	size_t next = k->from + limit;
	json_t *head =
		json_pack("{s:s, s:s, s:O, s:O, s:O, s:I, s:I, s:I, s:o}", "id", k->a->id, "game", k->a->game,
			  "options", h->options, "seats", h->seats, "result", h->result, "plies",
			  (json_int_t)c->plies, "total", (json_int_t)c->total, "from", (json_int_t)k->from,
			  "next", next < c->total ? json_integer((json_int_t)next) : json_null());
	int r = !head || json_out_value(k->out, head, 0);

	json_decref(head);
	if (r)
		return -ENOMEM;
	k->out->len--; /* the closing brace: the steps follow */
	return json_out_bytes(k->out, ",\"steps\":[", 10) ? -ENOMEM : 0;
}

/* Steps [from, from + limit) of a verified match, from the nearest snapshot below them. */
static int page_write(struct walk *k, const struct held *h, const struct archive_replay *c, size_t limit,
		      char *why, size_t whylen)
{
	size_t i = k->from ? (k->from - 1) / SNAP_EVERY : 0;
	bool end = false;
	int r;

	k->to = k->from + limit < c->total ? k->from + limit : c->total;
	if ((r = page_head(k, h, c, limit)) || (r = wire_replay_start(&k->w, k->a, why, whylen)))
		return r;
	snap_restore(k, &c->snaps[i < c->nsnaps ? i : c->nsnaps - 1]);
	if (k->step == k->from)
		r = step_done(k, NULL); /* the start */
	if (!r)
		r = walk_run(k, k->to - 1, &end);
	last_set(k, 0, NULL, NULL);
	if (!r && k->step != k->to - 1) {
		snprintf(why, whylen, "ply %u: the match ends before its step %zu", (unsigned)k->w.match.ply,
			 k->to - 1);
		r = WIRE_E_BAD_MESSAGE;
	}
	return r || json_out_bytes(k->out, "]}", 2) ? (r ? r : -ENOMEM) : 0;
}

/* Forgets match `c` (its record changed under the cache: a page did not verify). */
static void cache_drop(struct archive_db *d, struct archive_replay *c)
{
	for (int i = 0; i < ARCHIVE_REPLAY_CACHE; i++)
		if (d->replays[i] == c)
			d->replays[i] = NULL;
	replay_free(c);
}

int archive_db_replay(struct archive_db *d, const char *id, size_t from, size_t limit, struct json_out *out)
{
	struct wire_archive a;
	struct held h;
	struct walk k = { .d = d, .a = &a, .out = out, .from = from };
	struct archive_replay *c = NULL, *fresh = NULL;
	char why[512] = "", past[96] = "";
	int status = match_read(d, id, &a, &h, &k.seq), r = 0;

	out->len = 0;
	if (limit < 1 || limit > ARCHIVE_STEPS_MAX)
		limit = ARCHIVE_STEPS_MAX;
	if (!status && !(c = cache_find(d, k.seq))) {
		c = fresh = calloc(1, sizeof(*c));
		r = !c ? -ENOMEM : full_pass(&k, c, why, sizeof(why));
	}
	if (!status && !r && from >= c->total)
		snprintf(past, sizeof(past), "from must be a step of the match, below its total %zu",
			 c->total);
	else if (!status && !r && (r = page_write(&k, &h, c, limit, why, sizeof(why))) && !fresh)
		cache_drop(d, c);
	if (fresh && !r) {
		fresh->seq = k.seq;
		cache_put(d, fresh);
	} else
		replay_free(fresh);
	held_finish(&h, &a);
	if (past[0])
		return error_out(d, STORE_E_BAD_REQUEST, "bad_request", past, out);
	if (!status && r) {
		if (why[0])
			snprintf(d->err, sizeof(d->err), "match %s does not verify: %s", id, why);
		status = why[0] ? STORE_E_UNVERIFIED : r == -ENOMEM ? -ENOMEM : -EIO;
	}
	return !status ? 0 : failure_out(d, status, out);
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
 * The SQL of one filter shape. Without a player it walks matches (or an
 * index of game, reason or draws) down from the cursor; with one it walks
 * match_seats_key down (the name folded: name_fold.h, migration 0012) and
 * joins each match. ?1 game, ?2 player (folded), ?3 the cursor, ?4 rows, ?5
 * reason.
 */
static void list_sql(int shape, char *sql, size_t n)
{
	bool game = shape & 1, player = shape & 2;
	enum result_kind rk = (enum result_kind)(shape / 4);

	if (player)
		snprintf(sql, n,
			 "SELECT m.seq, m.id, m.game, m.started_at, m.ended_at, m.result, m.plies FROM "
			 "match_seats s JOIN matches m ON m.seq = s.match_seq WHERE s.name_key = ?2 AND "
			 "s.match_seq < ?3%s%s ORDER BY s.match_seq DESC LIMIT ?4",
			 game ? " AND m.game = ?1" : "", result_sql[1][rk]);
	else
		snprintf(sql, n,
			 "SELECT seq, id, game, started_at, ended_at, result, plies FROM matches WHERE "
			 "seq < ?3%s%s ORDER BY seq DESC LIMIT ?4",
			 game ? " AND game = ?1" : "", result_sql[0][rk]);
}

int ar_sql(int q, char *sql, size_t n)
{
	if (q >= 0 && q < AR_MAX && stmt_sql[q])
		snprintf(sql, n, "%s", stmt_sql[q]);
	else if (q >= AR_LIST && q < AR_LIST + ARCHIVE_LIST_SHAPES)
		list_sql(q - AR_LIST, sql, n);
	else
		return -EINVAL;
	return 0;
}

/* SQLite's statement of one shape, prepared on first use; NULL (d->err) on failure. */
static sqlite3_stmt *list_stmt(struct archive_db *d, int shape)
{
	char sql[1024];

	if (d->list[shape])
		return d->list[shape];
	list_sql(shape, sql, sizeof(sql));
	if (sqlite3_prepare_v3(d->db, sql, -1, SQLITE_PREPARE_PERSISTENT, &d->list[shape], NULL) !=
	    SQLITE_OK) {
		fail(d, "preparing the list");
		return NULL;
	}
	return d->list[shape];
}

/* The shape of `q` and what it binds (`key`: the player's folded name, owned by the caller). */
static void list_args(struct ar_rows *r, const struct archive_query *q, enum result_kind rk, int limit,
		      const char *key)
{
	r->q = AR_LIST + (int)(q->game != NULL) + 2 * (int)(q->player != NULL) + 4 * (int)rk;
	arg_num(r, 3, q->before > 0 ? q->before : INT64_MAX);
	/* one row past the page says there is a next; with a player, a name may hold several seats of a match
	 */
	arg_num(r, 4, (int64_t)(limit + 1) * (q->player ? RULES_MAX_SEATS : 1));
	if (q->game)
		arg_text(r, 1, q->game);
	if (key)
		arg_text(r, 2, key);
	if (rk == R_REASON)
		arg_text(r, 5, q->result);
}

/* A listed match, its seats an empty array that list_seats() fills. */
static json_t *list_row(const struct ar_rows *r)
{
	return json_pack("{s:s, s:s, s:I, s:I, s:I, s:o, s:o}", "id", text(r, 1), "game", text(r, 2),
			 "started_at", (json_int_t)col_int(r, 3), "ended_at", (json_int_t)col_int(r, 4),
			 "plies", (json_int_t)col_int(r, 6), "seats", json_array(), "result",
			 load_json(col_text(r, 5)));
}

/* A list's page: its matches, their seqs (newest first) and those as a JSON array for AR_PAGE_SEATS. */
struct page {
	json_t *list;
	int64_t seqs[ARCHIVE_LIMIT_MAX];
	int n;
	char json[ARCHIVE_LIMIT_MAX * 21 + 3];
	size_t len;
};

/* Steps the list into the page until it is full; *next the cursor of a following page, or null. */
static int list_fill(struct archive_db *d, struct ar_rows *r, int limit, struct page *pg, json_t **next)
{
	int rc;
	int64_t seq, prev = 0;
	char cursor[32] = "";
	json_t *item;

	pg->len = (size_t)snprintf(pg->json, sizeof(pg->json), "[");
	while ((rc = rows_next(d, r)) == 1) {
		seq = col_int(r, 0);
		if (seq == prev)
			continue; /* the player's second seat in the same match */
		prev = seq;
		if (pg->n == limit) { /* one match more than asked: there is a next page */
			*next = json_string(cursor);
			return *next ? 0 : -ENOMEM;
		}
		snprintf(cursor, sizeof(cursor), "%lld", (long long)seq);
		pg->len += (size_t)snprintf(pg->json + pg->len, sizeof(pg->json) - pg->len, "%s%lld",
					    pg->n ? "," : "", (long long)seq);
		pg->seqs[pg->n++] = seq;
		if (!(item = list_row(r)) || json_array_append_new(pg->list, item))
			return -ENOMEM;
	}
	if (rc)
		return rc;
	*next = json_null();
	return 0;
}

/* SQLite: each match's seats by their primary key, in-process. */
static int list_seats_each(struct archive_db *d, struct page *pg)
{
	json_t *seats;

	for (int i = 0; i < pg->n; i++) {
		seats = rows_json(d, AR_SEATS, pg->seqs[i], seat_row);
		if (!seats ||
		    json_array_extend(json_object_get(json_array_get(pg->list, (size_t)i), "seats"), seats)) {
			json_decref(seats);
			return -EIO;
		}
		json_decref(seats);
	}
	return 0;
}

/*
 * The seats of the page's matches, each into its match's "seats". On
 * PostgreSQL a query is a round trip, so the page's are one query (a page of
 * 20 took 21 round trips without it); on SQLite a lookup a match costs less
 * than the JSON of the page's seqs would (measured at 100,000 matches: a page
 * of 20 in 0.09 to 0.13 ms so, 0.18 with the one query), so it keeps them.
 */
static int list_seats(struct archive_db *d, struct page *pg)
{
	struct ar_rows r = { .q = AR_PAGE_SEATS };
	json_t *seat;
	int i = pg->n - 1, rc;

	if (!d->pg)
		return list_seats_each(d, pg);
	snprintf(pg->json + pg->len, sizeof(pg->json) - pg->len, "]");
	arg_text(&r, 1, pg->json);
	rc = pg->n ? rows_open(d, &r) : 0;
	while (pg->n && !rc && (rc = rows_next(d, &r)) == 1) {
		int64_t seq = col_int(&r, 4);

		while (i >= 0 && pg->seqs[i] != seq) /* the page is newest first, its seats oldest first */
			i--;
		if (i < 0)
			break; /* not a match of the page: cannot be (= ANY), and never misfiled */
		rc = (seat = seat_row(&r)) &&
				     !json_array_append_new(
					     json_object_get(json_array_get(pg->list, (size_t)i), "seats"),
					     seat)
			     ? 0
			     : -ENOMEM;
	}
	rows_close(d, &r);
	return rc < 0 ? rc : 0;
}

int archive_db_list(struct archive_db *d, const struct archive_query *q, json_t **out)
{
	enum result_kind rk = result_kind(q->result);
	int limit = q->limit < 1 || q->limit > ARCHIVE_LIMIT_MAX ? 20 : q->limit;
	struct ar_rows r = { 0 };
	struct page *pg = calloc(1, sizeof(*pg));
	json_t *list, *next = NULL;
	char *key = NULL;
	int err;

	d->err[0] = '\0';
	if ((rk == R_WON || rk == R_LOST) && !q->player) {
		free(pg);
		*out = error_new("bad_request", "result=won and result=lost need a player");
		return *out ? STORE_E_BAD_REQUEST : -ENOMEM;
	}
	if (q->player && (key = malloc(strlen(q->player) + 1)))
		name_fold(q->player, strlen(q->player), key);
	list = json_array();
	err = !pg || !list || (q->player && !key) ? -ENOMEM : 0;
	if (!err) {
		pg->list = list;
		list_args(&r, q, rk, limit, key);
		err = rows_open(d, &r);
	}
	if (!err)
		err = list_fill(d, &r, limit, pg, &next);
	rows_close(d, &r);
	if (!err)
		err = list_seats(d, pg);
	free(key);
	free(pg);
	if (err) {
		json_decref(next);
		json_decref(list);
		return answer(d, NULL, out);
	}
	return answer(d, json_pack("{s:o, s:o}", "matches", list, "next", next), out);
}

/* --- a player ---------------------------------------------------------------- */

/* By name (AR_PLAYER) or, for an account, by identity (AR_ACCOUNT_GAMES: `name` is its player id). */
static int player_games(struct archive_db *d, int q, const char *name, json_t *games, json_int_t *total,
			json_int_t *abandoned)
{
	struct ar_rows r = { .q = q };
	int rc;

	arg_text(&r, 1, name);
	rc = rows_open(d, &r);
	while (!rc && (rc = rows_next(d, &r)) == 1) {
		json_int_t n = col_int(&r, 1), won = col_int(&r, 2), drawn = col_int(&r, 3),
			   gone = col_int(&r, 4);

		*total += n;
		*abandoned += gone;
		rc = json_object_set_new(games, text(&r, 0),
					 json_pack("{s:I, s:I, s:I, s:I, s:I}", "matches", n, "won", won,
						   "lost", n - won - drawn, "drawn", drawn, "abandoned",
						   gone))
			     ? -ENOMEM
			     : 0;
	}
	rows_close(d, &r);
	return rc ? -EIO : 0;
}

/* --- accounts and ratings (issue 26) ------------------------------------------- */

#define PROVISIONAL_RD 110.0 /* rating.h's RATING_PROVISIONAL_RD: the reads link no rating code */

/* {rating, rd, provisional} rounded as the `account` message shows them, plus `vol` and `matches`. */
static json_t *rating_new(double rating, double rd, double vol, json_int_t matches)
{
	json_t *o = json_pack("{s:I, s:I, s:f, s:b, s:I}", "rating", (json_int_t)lround(rating), "rd",
			      (json_int_t)lround(rd), "vol", vol, "provisional", rd > PROVISIONAL_RD,
			      "matches", matches);

	return o;
}

/*
 * The last 200 rated matches of `player` in each game it has a rating in, in
 * one query: {<game>: [{at, rating, rd, match}] oldest first}; NULL on failure.
 */
static json_t *histories_new(struct archive_db *d, const char *player)
{
	struct ar_rows r = { .q = AR_HISTORY };
	json_t *all = json_object(), *list;
	int rc;

	arg_text(&r, 1, player);
	rc = all ? rows_open(d, &r) : -ENOMEM;
	while (!rc && (rc = rows_next(d, &r)) == 1) {
		if (!(list = json_object_get(all, text(&r, 0))) &&
		    json_object_set_new(all, text(&r, 0), list = json_array()))
			list = NULL;
		rc = !list || json_array_append_new(
				      list,
				      json_pack("{s:I, s:I, s:I, s:s}", "at", (json_int_t)col_int(&r, 1),
						"rating", (json_int_t)lround(col_double(&r, 2)), "rd",
						(json_int_t)lround(col_double(&r, 3)), "match", text(&r, 4)))
			     ? -ENOMEM
			     : 0;
	}
	rows_close(d, &r);
	if (rc) {
		json_decref(all);
		return NULL;
	}
	return all;
}

/* {<game>: {rating, rd, vol, provisional, matches, history}} of identity `player`: two queries in all. */
static json_t *ratings_new(struct archive_db *d, const char *player)
{
	struct ar_rows r = { .q = AR_RATINGS };
	json_t *hists = histories_new(d, player), *all = json_object(), *one, *hist;
	int rc;

	arg_text(&r, 1, player);
	rc = hists && all ? rows_open(d, &r) : -ENOMEM;
	while (!rc && (rc = rows_next(d, &r)) == 1) {
		one = rating_new(col_double(&r, 1), col_double(&r, 2), col_double(&r, 3), col_int(&r, 4));
		hist = json_object_get(hists, text(&r, 0)); /* none: a rating with no history row */
		hist = one ? (hist ? json_incref(hist) : json_array()) : NULL;
		rc = !hist || json_object_set_new(one, "history", hist) ||
				     json_object_set_new(all, text(&r, 0), one)
			     ? -ENOMEM
			     : 0;
		if (rc && !hist)
			json_decref(one);
	}
	rows_close(d, &r);
	json_decref(hists);
	if (rc) {
		json_decref(all);
		return NULL;
	}
	return all;
}

/* The identity's 20 newest archived seats: [{id, game, ended_at, seat, role, result, rated}]. */
static json_t *recent_new(struct archive_db *d, const char *player)
{
	struct ar_rows r = { .q = AR_RECENT };
	json_t *list = json_array();
	int rc;

	arg_text(&r, 1, player);
	rc = list ? rows_open(d, &r) : -ENOMEM;
	while (!rc && (rc = rows_next(d, &r)) == 1) {
		const char *result = !col_text(&r, 5)                   ? "drawn"
				     : col_int(&r, 5) == col_int(&r, 3) ? "won"
									: "lost";

		rc = json_array_append_new(list, json_pack("{s:s, s:s, s:I, s:I, s:s, s:s, s:b}", "id",
							   text(&r, 0), "game", text(&r, 1), "ended_at",
							   (json_int_t)col_int(&r, 2), "seat",
							   (json_int_t)col_int(&r, 3), "role", text(&r, 4),
							   "result", result, "rated", col_int(&r, 6) != 0))
			     ? -ENOMEM
			     : 0;
	}
	rows_close(d, &r);
	if (rc) {
		json_decref(list);
		return NULL;
	}
	return list;
}

/* The account answer for identity `player` (its handle, created_at, name): *out, NULL when it failed. */
static json_t *account_new(struct archive_db *d, const char *player, const char *handle, int64_t created_at,
			   const char *name, json_t *games)
{
	struct ar_rows r = { .q = AR_ACCOUNT_SPAN };
	json_int_t total = 0, abandoned = 0;
	json_t *ratings, *recent, *first = NULL, *last = NULL;

	if (player_games(d, AR_ACCOUNT_GAMES, player, games, &total, &abandoned))
		return NULL;
	arg_text(&r, 1, player);
	if (!rows_open(d, &r) && rows_next(d, &r) == 1) { /* an account that played nothing: null, null */
		first = col_text(&r, 0) ? json_integer(col_int(&r, 0)) : json_null();
		last = col_text(&r, 1) ? json_integer(col_int(&r, 1)) : json_null();
	}
	rows_close(d, &r);
	ratings = first && last ? ratings_new(d, player) : NULL;
	recent = ratings ? recent_new(d, player) : NULL;
	if (!recent) {
		json_decref(first), json_decref(last), json_decref(ratings);
		return NULL;
	}
	json_incref(games);
	return json_pack("{s:s, s:b, s:I, s:o, s:o, s:s, s:I, s:I, s:o, s:o, s:o}", "handle", handle,
			 "account", true, "created_at", (json_int_t)created_at, "ratings", ratings, "recent",
			 recent, "name", name, "matches", total, "abandoned", abandoned, "first_at", first,
			 "last_at", last, "games", games);
}

/*
 * GET /api/players/{x}: x an account's handle (compared by key, store.h handle_check())?
 * 1 with *out its answer (NULL when it could not be built: d->err or memory),
 * 0 when it is none (the name's record answers), -EIO.
 */
static int account_find(struct archive_db *d, const char *name, json_t *games, json_t **out)
{
	struct ar_rows r = { .q = AR_ACCOUNT };
	char key[HANDLE_SIZE], player[64], handle[HANDLE_SIZE], shown[WIRE_NAME_MAX * 4 + 1];
	int64_t created_at;
	int rc;

	*out = NULL;
	if (strlen(name) >= HANDLE_SIZE || handle_check(name, key))
		return 0; /* cannot be a handle */
	arg_text(&r, 1, key);
	rc = rows_open(d, &r);
	if (!rc)
		rc = rows_next(d, &r);
	if (rc == 1) {
		snprintf(player, sizeof(player), "%s", text(&r, 0));
		snprintf(handle, sizeof(handle), "%s", text(&r, 1));
		created_at = col_int(&r, 2);
		snprintf(shown, sizeof(shown), "%s", text(&r, 3));
	}
	rows_close(d, &r);
	if (rc != 1)
		return rc < 0 ? -EIO : 0;
	*out = account_new(d, player, handle, created_at, shown, games);
	json_decref(games);
	return 1;
}

int archive_db_leaderboard(struct archive_db *d, const char *game, int limit, json_t **out)
{
	json_t *list = json_array();
	int rc = list ? 0 : -ENOMEM, n = 0;

	d->err[0] = '\0';
	for (int provisional = 0; provisional < 2 && !rc && n < limit; provisional++) {
		struct ar_rows r = { .q = AR_BOARD };

		arg_text(&r, 1, game);
		arg_num(&r, 2, provisional);
		arg_num(&r, 3, limit - n);
		rc = rows_open(d, &r);
		while (!rc && (rc = rows_next(d, &r)) == 1) {
			double rd = col_double(&r, 3);

			rc = json_array_append_new(list,
						   json_pack("{s:i, s:s, s:s, s:I, s:I, s:b, s:I}", "rank",
							     ++n, "handle", text(&r, 0), "name", text(&r, 1),
							     "rating", (json_int_t)lround(col_double(&r, 2)),
							     "rd", (json_int_t)lround(rd), "provisional",
							     rd > PROVISIONAL_RD, "matches",
							     (json_int_t)col_int(&r, 4)))
				     ? -ENOMEM
				     : 0;
		}
		rows_close(d, &r);
	}
	if (rc) {
		json_decref(list);
		return answer(d, NULL, out);
	}
	return answer(d, json_pack("{s:s, s:o}", "game", game, "players", list), out);
}

/*
 * The queries until snapshot_end() read one snapshot: a rated match committed
 * between two of them is in both or in neither (an account page's ratings
 * and their histories). SQLite: a deferred transaction, whose first read
 * takes the snapshot; PostgreSQL: REPEATABLE READ, READ ONLY. A caller's own
 * transaction (the command line's) is one already: *began false. 0 or -EIO
 * (d->err).
 */
static int snapshot_begin(struct archive_db *d, bool *began)
{
	*began = d->pg ? PQtransactionStatus(d->pg) == PQTRANS_IDLE : sqlite3_get_autocommit(d->db) != 0;
	if (!*began)
		return 0;
	if (d->pg)
		return ar_pg_exec(d, "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY");
	if (sqlite3_exec(d->db, "BEGIN", NULL, NULL, NULL) != SQLITE_OK) {
		snprintf(d->err, sizeof(d->err), "reading a player: %s", sqlite3_errmsg(d->db));
		return -EIO;
	}
	return 0;
}

/* Ends snapshot_begin()'s transaction (it wrote nothing: nothing to lose if this fails). */
static void snapshot_end(struct archive_db *d)
{
	if (d->pg)
		(void)ar_pg_exec(d, "COMMIT");
	else
		(void)sqlite3_exec(d->db, "COMMIT", NULL, NULL, NULL);
}

/* archive_db_player() within its snapshot. */
static int player_read(struct archive_db *d, const char *name, json_t **out)
{
	struct ar_rows r = { .q = AR_PLAYER_SPAN };
	json_t *games = json_object(), *body = NULL;
	json_int_t total = 0, abandoned = 0;

	if (!games) {
		json_decref(games);
		return answer(d, NULL, out);
	}
	switch (account_find(d, name, games, out)) {
	case 1: /* the account's answer */
		return *out ? 0 : answer(d, NULL, out);
	case 0: /* not an account's handle: the name's record */
		break;
	default:
		json_decref(games);
		return answer(d, NULL, out);
	}
	if (player_games(d, AR_PLAYER, name, games, &total, &abandoned)) {
		json_decref(games);
		return answer(d, NULL, out);
	}
	if (!total) {
		json_decref(games);
		*out = error_new("not_found", "no archived match has a player of this name");
		return *out ? STORE_E_NOT_FOUND : -ENOMEM;
	}
	arg_text(&r, 1, name);
	if (!rows_open(d, &r) && rows_next(d, &r) == 1)
		body = json_pack("{s:s, s:I, s:I, s:I, s:I, s:o}", "name", name, "matches", total,
				 "abandoned", abandoned, "first_at", (json_int_t)col_int(&r, 0), "last_at",
				 (json_int_t)col_int(&r, 1), "games", games);
	else {
		if (!d->err[0])
			snprintf(d->err, sizeof(d->err), "reading a player: no span");
		json_decref(games);
	}
	rows_close(d, &r);
	return answer(d, body, out);
}

int archive_db_player(struct archive_db *d, const char *name, json_t **out)
{
	bool began;
	int rc;

	d->err[0] = '\0';
	if (snapshot_begin(d, &began))
		return answer(d, NULL, out);
	rc = player_read(d, name, out);
	if (began)
		snapshot_end(d);
	return rc;
}
