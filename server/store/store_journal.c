/*
 * store_journal.c: the live journal. On the loop thread, journal writes are
 * appended to the open batch without touching the disk; store_journal_flush()
 * hands the batch to the writer thread, which writes it in one transaction
 * with statements prepared once. A batch is kept whole until it commits: on a
 * failure that leaves it undone (disk full, I/O error, read-only, busy, a
 * table gone, or SQLite rolling the transaction back by itself) the whole
 * batch is retried with back-off, and the loop hears of it once. Only a
 * statement refused for its own sake (a constraint) is logged and skipped:
 * retrying cannot change it.
 * Also the synchronous start-up loads, which merge actions and events by ply.
 */
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "store/store_int.h"
#include "base/util.h"
#include "wire.h"

static const char *const jop_sql[JOP_MAX] = {
	[JOP_PLAYER] =
		"INSERT INTO players(id, token_hash, name, created_at, seen_at) VALUES (?1, ?2, ?3, ?4, ?4) "
		"ON CONFLICT(id) DO UPDATE SET name = excluded.name, seen_at = excluded.seen_at",
	[JOP_ROOM] =
		"INSERT OR REPLACE INTO live_rooms(id, game, options, server_seed, created_at, creator_id) "
		"VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
	[JOP_SEAT] = "INSERT OR REPLACE INTO live_seats(room_id, seat, player_id, client_seed, bot_level) "
		     "VALUES (?1, ?2, ?3, ?4, ?5)",
	[JOP_SEAT_FREE] = "DELETE FROM live_seats WHERE room_id = ?1 AND seat = ?2",
	/* appended to the log; an unknown room is a NOT NULL violation, refused as the foreign key was */
	[JOP_ACTION] = "INSERT INTO live_log(room, ply, seat, action, outcome, at, stand_in) "
		       "VALUES ((SELECT key FROM live_rooms WHERE id = ?1), ?2, ?3, ?4, ?5, ?6, ?7)",
	[JOP_STARTED] = "UPDATE live_rooms SET started_at = ?2 WHERE id = ?1",
	[JOP_EVENT] = "INSERT INTO live_events(room_id, ply, seat, kind, at) VALUES (?1, ?2, ?3, ?4, ?5)",
	/* cascades to seats and events; the room's log rows become garbage for the sweep */
	[JOP_DROP] = "DELETE FROM live_rooms WHERE id = ?1",
	[JOP_PLAYERS_EXPIRE] = "DELETE FROM players WHERE seen_at < ?1 "
			       "AND NOT EXISTS (SELECT 1 FROM live_seats s WHERE s.player_id = players.id) "
			       "AND NOT EXISTS (SELECT 1 FROM live_rooms r WHERE r.creator_id = players.id) "
			       "AND NOT EXISTS (SELECT 1 FROM match_seats m WHERE m.player_id = players.id) "
			       /* an account stays until it is deleted (its row is referenced) */
			       "AND NOT EXISTS (SELECT 1 FROM accounts a WHERE a.player_id = players.id)",
	[JOP_AFTER] = "INSERT OR REPLACE INTO live_after(room_id, created_at, creator_id, bot_levels, mutes, "
		      "rematch) VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
	[JOP_AFTER_DROP] = "DELETE FROM live_after WHERE room_id = ?1",
	[JOP_ROOM_RATED] = "UPDATE live_rooms SET rated = 1 WHERE id = ?1",
	[JOP_AFTER_RATED] = "UPDATE live_after SET rated = 1 WHERE room_id = ?1",
};

/*
 * The log's sweep. A finished room's rows stay in live_log, unreachable (its
 * live_rooms row is gone), until the old end of the log is swept: each batch
 * that appends n rows, once the log holds more than log_keep rows, takes the
 * 2n + 8 oldest, copies those of rooms still live to the new end (their order
 * by seq changes, their plies do not: restore sorts by ply) and deletes them
 * all. Both are range operations on the log's two ends: a page or two each.
 * log_keep adapts to what the old end holds: mostly live rows mean the log is
 * about the size of the live rooms' journals, so it grows; almost none mean
 * the log keeps more garbage than it needs, so it shrinks.
 */
static const char *const log_sql[LOG_MAX] = {
	/* two subqueries: SQLite reads min() and max() of a rowid from the B-tree's ends, not by a scan */
	[LOG_ENDS] = "SELECT (SELECT min(seq) FROM live_log), (SELECT max(seq) FROM live_log)",
	[LOG_COPY] =
		"INSERT INTO live_log(room, ply, seat, action, outcome, at, stand_in) "
		"SELECT room, ply, seat, action, outcome, at, stand_in FROM live_log l "
		"WHERE seq >= ?1 AND seq < ?2 AND EXISTS (SELECT 1 FROM live_rooms r WHERE r.key = l.room) "
		"ORDER BY seq",
	[LOG_CUT] = "DELETE FROM live_log WHERE seq >= ?1 AND seq < ?2",
};

/* Rows the log keeps at least before its old end is swept (about 1.5 MB). */
#define LOG_KEEP_MIN 16384
/* The oldest rows swept with a batch that appends n: 2n + LOG_SWEEP_EXTRA, so the sweep catches up. */
#define LOG_SWEEP_EXTRA 8

int store_journal_prepare(struct store *st)
{
	int k;

	for (k = 0; k < JOP_MAX; k++) {
		if (sqlite3_prepare_v3(st->db, jop_sql[k], -1, SQLITE_PREPARE_PERSISTENT, &st->jstmt[k],
				       NULL) != SQLITE_OK) {
			util_log(LOG_ERROR, "store: %s: %s", jop_sql[k], sqlite3_errmsg(st->db));
			return -EIO;
		}
	}
	for (k = 0; k < LOG_MAX; k++) {
		if (sqlite3_prepare_v3(st->db, log_sql[k], -1, SQLITE_PREPARE_PERSISTENT, &st->lstmt[k],
				       NULL) != SQLITE_OK) {
			util_log(LOG_ERROR, "store: %s: %s", log_sql[k], sqlite3_errmsg(st->db));
			return -EIO;
		}
	}
	st->log_keep = LOG_KEEP_MIN;
	return 0;
}

void store_journal_finalize(struct store *st)
{
	int k;

	for (k = 0; k < JOP_MAX; k++) {
		(void)sqlite3_finalize(st->jstmt[k]); /* NULL is a no-op; errors were reported by the step */
		st->jstmt[k] = NULL;
	}
	for (k = 0; k < LOG_MAX; k++) {
		(void)sqlite3_finalize(st->lstmt[k]);
		st->lstmt[k] = NULL;
	}
}

/* --- the loop side: filling the open batch --------------------------------- */

/*
 * Capacity past which a batch's arrays are freed rather than kept as the
 * spare: a burst (a start-up restore, a flood of rooms) does not pin its
 * memory for the process's life. The steady state is well under both.
 */
#define SPARE_OPS_MAX  4096
#define SPARE_TEXT_MAX (1u << 20)

struct wjob *store_batch_new(struct store *st)
{
	struct wjob *b = st->spare;

	if (b)
		st->spare = NULL;
	else if (!(b = calloc(1, sizeof(*b))))
		return NULL;
	b->kind = WJOB_BATCH;
	b->fail_note.type = NOTE_BATCH_FAIL;
	b->done_note.type = NOTE_BATCH_DONE;
	return b;
}

void store_batch_recycle(struct store *st, struct wjob *b)
{
	if (st->spare || b->ops_cap > SPARE_OPS_MAX || b->text_cap > SPARE_TEXT_MAX) {
		store_wjob_free(b);
		return;
	}
	/* the arrays stay; everything else as calloc left it */
	*b = (struct wjob){ .ops = b->ops, .ops_cap = b->ops_cap, .text = b->text, .text_cap = b->text_cap };
	st->spare = b;
}

/* Grows *p (of *cap elements of `size`) to hold `need`, doubling. 0 or -ENOMEM (*p unchanged). */
static int grow(void **p, size_t *cap, size_t need, size_t size, size_t first)
{
	size_t n = *cap ? *cap : first;
	void *q;

	if (need <= *cap)
		return 0;
	while (n < need)
		n *= 2;
	if (!(q = realloc(*p, n * size)))
		return -ENOMEM;
	*p = q;
	*cap = n;
	return 0;
}

/* Copies `v` into b's text arena as parameter `p`. 0 or -ENOMEM. */
static int text_put(struct wjob *b, struct param *p, const char *v)
{
	size_t len = strlen(v);

	if (len >= INT_MAX || grow((void **)&b->text, &b->text_cap, b->text_len + len + 1, 1, 4096))
		return -ENOMEM;
	memcpy(b->text + b->text_len, v, len + 1);
	p->off = b->text_len;
	p->len = len;
	b->text_len += len + 1;
	return 0;
}

/*
 * Queues statement `kind` with params described by `fmt` ('s' text or NULL,
 * 'i' int64) into the open batch (creating it): a slot of its statement array
 * and its texts copied into its arena, no allocation of its own.
 */
static void op_queue(struct store *st, enum jop_kind kind, const char *fmt, ...)
{
	struct wjob *b;
	struct jop *o;
	size_t text_len;
	va_list ap;
	int i;

	if (!st || st->closing) { /* only after shutdown began, when rooms close */
		util_log(LOG_WARN, "store: closed, a late journal write is dropped");
		return;
	}
	if (!st->open && !(st->open = store_batch_new(st)))
		goto err_nomem;
	b = st->open;
	if (grow((void **)&b->ops, &b->ops_cap, b->nops + 1, sizeof(*b->ops), 64))
		goto err_nomem;
	o = &b->ops[b->nops];
	o->kind = kind;
	o->np = 0;
	o->skip = o->solo = false;
	text_len = b->text_len;
	va_start(ap, fmt);
	for (i = 0; i < JOP_PARAMS && fmt[i]; i++, o->np++) {
		struct param *p = &o->p[i];
		const char *v;

		p->is_null = false;
		if ((p->is_int = fmt[i] == 'i')) {
			p->i = va_arg(ap, int64_t);
			continue;
		}
		v = va_arg(ap, const char *);
		if (!(p->is_null = !v) && text_put(b, p, v)) {
			va_end(ap);
			b->text_len = text_len; /* nothing of it stays */
			goto err_nomem;
		}
	}
	va_end(ap);
	b->nops++;
	b->nactions += kind == JOP_ACTION;
	return;
err_nomem:
	util_log(LOG_ERROR, "store: out of memory: a journal write is lost");
	if (st->open && !st->open->nops && !st->open->matches) { /* no empty batch goes out */
		store_batch_recycle(st, st->open);
		st->open = NULL;
	}
}

void store_player_save(struct store *st, const char *id, const char *token_hash, const char *name)
{
	op_queue(st, JOP_PLAYER, "sssi", id, token_hash, name, util_now_ms());
}

void store_players_expire(struct store *st, int64_t before)
{
	op_queue(st, JOP_PLAYERS_EXPIRE, "i", before);
}

void store_live_room(struct store *st, const char *id, const char *game, const char *options,
		     const char *server_seed, const char *creator_id, int64_t created_at)
{
	op_queue(st, JOP_ROOM, "ssssis", id, game, options, server_seed, created_at, creator_id);
}

void store_live_seat(struct store *st, const char *room, int seat, const char *player_id,
		     const char *client_seed, const char *bot_level)
{
	op_queue(st, JOP_SEAT, "sisss", room, (int64_t)seat, player_id, client_seed, bot_level);
}

void store_live_seat_free(struct store *st, const char *room, int seat)
{
	op_queue(st, JOP_SEAT_FREE, "si", room, (int64_t)seat);
}

void store_live_action(struct store *st, const char *room, int ply, int seat, const char *action,
		       const char *outcome, int64_t at, bool stand_in)
{
	op_queue(st, JOP_ACTION, "siissii", room, (int64_t)ply, (int64_t)seat, action, outcome, at,
		 (int64_t)stand_in);
}

void store_live_started(struct store *st, const char *room, int64_t started_at)
{
	op_queue(st, JOP_STARTED, "si", room, started_at);
}

void store_live_event(struct store *st, const char *room, int ply, int seat, int kind, int64_t at)
{
	const char *name = wire_event_kind_name(kind);

	if (!name) { /* our own bug, not input: keep the journal clean */
		util_log(LOG_ERROR, "store: room %s: event kind %d unknown, not journalled", room, kind);
		return;
	}
	op_queue(st, JOP_EVENT, "siisi", room, (int64_t)ply, (int64_t)seat, name, at);
}

void store_live_drop(struct store *st, const char *room)
{
	op_queue(st, JOP_DROP, "s", room);
}

void store_live_after(struct store *st, const char *room, int64_t created_at, const char *creator_id,
		      const char *bot_levels, const char *mutes, const char *rematch)
{
	op_queue(st, JOP_AFTER, "sissss", room, created_at, creator_id, bot_levels, mutes, rematch);
}

void store_live_after_drop(struct store *st, const char *room)
{
	op_queue(st, JOP_AFTER_DROP, "s", room);
}

void store_live_rated(struct store *st, const char *room)
{
	op_queue(st, JOP_ROOM_RATED, "s", room);
}

void store_live_after_rated(struct store *st, const char *room)
{
	op_queue(st, JOP_AFTER_RATED, "s", room);
}

uint64_t store_journal_flush(struct store *st)
{
	struct wjob *b;

	if (!st || !st->open)
		return 0;
	b = st->open;
	st->open = NULL;
	b->seq = ++st->last_seq;
	st->depth += b->nmatches; /* the batch itself is counted by the submit */
	store_wjob_submit(st, b, b);
	st->batches_out++;
	return b->seq;
}

uint64_t store_journal_turn(struct store *st)
{
	if (!st || st->batches_out)
		return 0; /* the commit in flight wakes the loop; the next turn sends what gathered */
	return store_journal_flush(st);
}

void store_on_commit(struct store *st, store_commit_cb cb, void *ctx)
{
	st->cb = cb;
	st->cb_ctx = ctx;
}

bool store_journal_failing(const struct store *st)
{
	return st && st->failing;
}

uint64_t store_journal_committed(const struct store *st)
{
	return st ? st->committed_seq : 0;
}

uint64_t store_journal_needed(const struct store *st)
{
	return !st ? 0 : st->open ? st->last_seq + 1 : st->last_seq;
}

/* --- the writer side -------------------------------------------------------- */

static int bind_op(sqlite3_stmt *s, const struct wjob *b, const struct jop *o)
{
	int i, rc = SQLITE_OK;

	for (i = 0; i < o->np && rc == SQLITE_OK; i++) {
		const struct param *p = &o->p[i];

		if (p->is_int)
			rc = sqlite3_bind_int64(s, i + 1, p->i);
		else if (p->is_null)
			rc = sqlite3_bind_null(s, i + 1);
		else /* its length is known: SQLite need not measure it */
			rc = sqlite3_bind_text(s, i + 1, b->text + p->off, (int)p->len, SQLITE_STATIC);
	}
	return rc;
}

/*
 * Steps a statement that returns no rows, then resets it and clears its
 * bindings (the bound strings belong to the caller). The SQLite result code.
 */
int store_step_done(sqlite3 *db, sqlite3_stmt *s, const char *what)
{
	int rc = sqlite3_step(s);

	if (rc != SQLITE_DONE && what)
		util_log(LOG_ERROR, "store: %s: %s", what, sqlite3_errmsg(db));
	(void)sqlite3_reset(s); /* repeats the step's error, already handled */
	(void)sqlite3_clear_bindings(s);
	return rc == SQLITE_DONE ? SQLITE_OK : rc;
}

/*
 * A write refused for its own sake: a constraint (or a value SQLite will not
 * store) with the transaction still open. Retrying cannot change it, so it
 * is skipped. Anything else (a full disk, I/O, a lock, a table gone, a
 * corrupt file, SQLite rolling the transaction back) is the database's state:
 * skipping it would commit the batch without the write and release frames
 * showing it, so the whole batch is retried.
 */
static bool refused(sqlite3 *db, int rc)
{
	switch (rc & 0xff) {
	case SQLITE_CONSTRAINT:
	case SQLITE_TOOBIG:
	case SQLITE_MISMATCH:
		return !sqlite3_get_autocommit(db);
	default:
		return false;
	}
}

/* Runs a sweep statement on the seq range [lo, cut); the rows it changed, or -EIO (*rc says why). */
static int64_t log_range(struct store *st, enum log_stmt k, int64_t lo, int64_t cut, int *rc)
{
	sqlite3_stmt *s = st->lstmt[k];

	if ((*rc = sqlite3_bind_int64(s, 1, lo)) == SQLITE_OK &&
	    (*rc = sqlite3_bind_int64(s, 2, cut)) == SQLITE_OK &&
	    (*rc = store_step_done(st->db, s, log_sql[k])) == SQLITE_OK)
		return sqlite3_changes64(st->db);
	(void)sqlite3_clear_bindings(s);
	return -EIO;
}

/* Writer thread, inside the batch's transaction: sweeps the log's old end for a batch that appended n rows.
 */
static int log_sweep(struct store *st, size_t n)
{
	sqlite3_stmt *s = st->lstmt[LOG_ENDS];
	int64_t lo, hi, cut, copied, swept;
	int rc = sqlite3_step(s);

	st->log_copied = st->log_swept = 0;
	if (rc != SQLITE_ROW) {
		(void)sqlite3_reset(s);
		return rc == SQLITE_DONE ? SQLITE_ERROR : rc;
	}
	lo = sqlite3_column_int64(s, 0);
	hi = sqlite3_column_int64(s, 1);
	rc = sqlite3_column_type(s, 0) == SQLITE_NULL; /* an empty log */
	(void)sqlite3_reset(s);
	if (rc || !n || hi - lo + 1 <= st->log_keep)
		return SQLITE_OK;
	/* at most up to the newest row: the copies take seqs above it, so the cut never reaches them */
	cut = lo + 2 * (int64_t)n + LOG_SWEEP_EXTRA;
	if (cut > hi + 1)
		cut = hi + 1;
	if ((copied = log_range(st, LOG_COPY, lo, cut, &rc)) < 0 ||
	    (swept = log_range(st, LOG_CUT, lo, cut, &rc)) < 0)
		return rc;
	st->log_copied = copied;
	st->log_swept = swept;
	return SQLITE_OK;
}

/* Writer thread, once a batch committed: adapts log_keep to what its sweep found at the old end. */
static void log_adapt(struct store *st)
{
	if (!st->log_swept)
		return;
	if (st->log_copied * 8 >
	    st->log_swept) /* over 1/8 live: the log is too short to hold the live rooms */
		st->log_keep += st->log_keep / 8;
	else if (st->log_copied * 32 < st->log_swept && st->log_keep > LOG_KEEP_MIN)
		st->log_keep -= st->log_keep / 32;
}

/*
 * One attempt at the whole batch in one transaction: its statements, then its
 * archive saves, then the log's sweep. SQLITE_OK or the failing code; *redo:
 * an archive save was given up, write the batch again at once without it.
 */
static int batch_once(struct store *st, struct wjob *b, bool *redo)
{
	size_t k;
	int rc = store_step_done(st->db, st->wstmt[WS_BEGIN], "begin batch");

	for (k = 0; k < b->nops && rc == SQLITE_OK; k++) {
		const struct jop *o = &b->ops[k];
		sqlite3_stmt *s = st->jstmt[o->kind];

		rc = bind_op(s, b, o);
		if (rc == SQLITE_OK)
			rc = store_step_done(st->db, s, jop_sql[o->kind]);
		else
			(void)sqlite3_clear_bindings(s);
		if (rc != SQLITE_OK && refused(st->db, rc)) {
			util_log(LOG_ERROR, "store: batch %llu: a journal write is refused and skipped",
				 (unsigned long long)b->seq);
			rc = SQLITE_OK;
		}
	}
	if (rc == SQLITE_OK && b->matches)
		rc = store_archive_batch(st, b, redo);
	if (rc == SQLITE_OK)
		rc = log_sweep(st, b->nactions);
	if (rc == SQLITE_OK)
		rc = store_step_done(st->db, st->wstmt[WS_COMMIT], "commit batch");
	if (rc != SQLITE_OK && !sqlite3_get_autocommit(st->db))
		(void)store_step_done(st->db, st->wstmt[WS_ROLLBACK], "rollback batch");
	return rc;
}

/* Writer thread: writes batch `b` until it commits or the store closes. */
void store_journal_run(struct store *st, struct wjob *b)
{
	unsigned delay = 0;
	bool last = false;

	for (;;) {
		bool redo = false;
		int rc = batch_once(st, b, &redo);

		if (rc == SQLITE_OK) {
			b->err = 0;
			log_adapt(st);
			return;
		}
		if (redo) /* an archive save refused for its own sake is out: the rest goes now */
			continue;
		if (store_archive_unbatch(st, b)) /* the batch alone may fit where it and its saves did not */
			continue;
		if (!delay) { /* the first failure of this batch: tell the loop once */
			b->fail_err = store_rc_errno(rc) ? store_rc_errno(rc) : -EIO;
			store_note_post(st, &b->fail_note);
			delay = STORE_RETRY_FIRST_MS;
		}
		if (last)
			break;
		last = !store_wait_retry(st, &delay);
	}
	b->err = b->fail_err;
	util_log(LOG_ERROR, "store: closing with journal batch %llu (%zu writes) unwritten: %s",
		 (unsigned long long)b->seq, b->nops, sqlite3_errmsg(st->db));
	store_archive_lost(b);
}

/* --- start-up loads ---------------------------------------------------------- */

static const char *col(sqlite3_stmt *s, int i)
{
	return (const char *)sqlite3_column_text(s, i);
}

static int prepare(sqlite3 *db, const char *sql, sqlite3_stmt **s)
{
	if (sqlite3_prepare_v2(db, sql, -1, s, NULL) == SQLITE_OK)
		return 0;
	util_log(LOG_ERROR, "store: %s: %s", sql, sqlite3_errmsg(db));
	return -EIO;
}

int store_load_players(struct store *st, const struct store_live_ops *ops, void *ctx)
{
	sqlite3_stmt *s;
	int r, rc;

	if (st->pg)
		return store_pg_load_players(st, ops, ctx);
	/* only the identities the journal's seats need; the others are looked up when they say hello */
	if ((r = prepare(st->db,
			 "SELECT id, token_hash, name FROM players WHERE id IN "
			 "(SELECT player_id FROM live_seats WHERE player_id IS NOT NULL)",
			 &s)))
		return r;
	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		if (!col(s, 0) || !col(s, 1) || !col(s, 2)) {
			rc = SQLITE_NOMEM; /* the columns are NOT NULL: only an allocation failed */
			break;
		}
		if ((r = ops->on_player(ctx, col(s, 0), col(s, 1), col(s, 2))))
			break;
	}
	if (!r && rc != SQLITE_DONE)
		r = store_rc_errno(rc) ? store_rc_errno(rc) : -EIO;
	(void)sqlite3_finalize(s);
	return r;
}

/*
 * The statements of the replay: seats and events bound to one room's id; the
 * actions of every live room in one pass, in the rooms' order and by ply
 * within a room, the room's key in column 0 (`keyed`), or one room's actions
 * only (store_plies_load()); arc: the last step's result, its row the next.
 */
struct live_stmts {
	sqlite3_stmt *seats, *actions, *events;
	int arc;
	bool keyed;
};

static int live_seats_read(struct live_stmts *q, const struct store_live_ops *ops, void *ctx, int *err)
{
	int rc;

	while (!*err && (rc = sqlite3_step(q->seats)) == SQLITE_ROW)
		*err = ops->on_seat(ctx, sqlite3_column_int(q->seats, 0), col(q->seats, 1), col(q->seats, 2),
				    col(q->seats, 3));
	return *err || rc == SQLITE_DONE ? 0 : -EIO;
}

/* Whether the actions' next row is room `key`'s. */
static bool action_of(const struct live_stmts *q, int64_t key)
{
	return q->arc == SQLITE_ROW && (!q->keyed || sqlite3_column_int64(q->actions, 0) == key);
}

/* Actions and events by ply; an event at ply p goes before action p. */
static int live_plies_read(struct live_stmts *q, int64_t key, const struct store_live_ops *ops, void *ctx,
			   int *err)
{
	int erc = sqlite3_step(q->events), c = q->keyed; /* c: the actions' ply column */

	while (!*err && (action_of(q, key) || erc == SQLITE_ROW)) {
		if (erc == SQLITE_ROW && (!action_of(q, key) || sqlite3_column_int(q->events, 0) <=
									sqlite3_column_int(q->actions, c))) {
			int kind = wire_event_kind_parse(col(q->events, 2));

			*err = kind ? ops->on_event(ctx, sqlite3_column_int(q->events, 0),
						    sqlite3_column_int(q->events, 1), kind,
						    sqlite3_column_int64(q->events, 3))
				    : -EINVAL;
			erc = sqlite3_step(q->events);
		} else {
			sqlite3_stmt *a = q->actions;

			*err = ops->on_action(ctx, sqlite3_column_int(a, c), sqlite3_column_int(a, c + 1),
					      col(a, c + 2), col(a, c + 3), sqlite3_column_int64(a, c + 4),
					      sqlite3_column_int(a, c + 5) != 0);
			q->arc = sqlite3_step(a);
		}
	}
	if (*err)
		return 0;
	return (q->arc == SQLITE_ROW || q->arc == SQLITE_DONE) && erc == SQLITE_DONE ? 0 : -EIO;
}

int store_plies_load(sqlite3_stmt *actions, sqlite3_stmt *events, const struct store_live_ops *ops, void *ctx,
		     int *err)
{
	struct live_stmts q = { NULL, actions, events, sqlite3_step(actions), false };

	if (q.arc != SQLITE_ROW && q.arc != SQLITE_DONE)
		return -EIO;
	return live_plies_read(&q, 0, ops, ctx, err);
}

static int live_room_read(struct live_stmts *q, sqlite3_stmt *room, const struct store_live_ops *ops,
			  void *ctx)
{
	const char *id = col(room, 0);
	int64_t key = sqlite3_column_int64(room, 7);
	int err, r = -EIO;

	err = ops->on_room(ctx, id, col(room, 1), col(room, 2), col(room, 3), col(room, 6),
			   sqlite3_column_int64(room, 4), sqlite3_column_int64(room, 5));
	if (!err && sqlite3_column_int(room, 8) && ops->on_rated)
		ops->on_rated(ctx);
	if (sqlite3_bind_text(q->seats, 1, id, -1, SQLITE_STATIC) == SQLITE_OK &&
	    sqlite3_bind_text(q->events, 1, id, -1, SQLITE_STATIC) == SQLITE_OK)
		r = live_seats_read(q, ops, ctx, &err) || live_plies_read(q, key, ops, ctx, &err) ? -EIO : 0;
	(void)sqlite3_reset(q->seats), (void)sqlite3_reset(q->events);
	while (action_of(q, key)) /* what a refused room left unread */
		q->arc = sqlite3_step(q->actions);
	ops->on_room_end(ctx, r ? r : err);
	return r;
}

int store_load_live(struct store *st, const struct store_live_ops *ops, void *ctx)
{
	struct live_stmts q = { NULL, NULL, NULL, SQLITE_DONE, true };
	sqlite3_stmt *rooms = NULL;
	int r, rc = SQLITE_DONE;

	if (st->pg)
		return store_pg_load_live(st, ops, ctx);
	r = prepare(st->db,
		    "SELECT id, game, options, server_seed, created_at, started_at, creator_id, key, rated "
		    "FROM live_rooms ORDER BY created_at, id",
		    &rooms);
	if (!r)
		r = prepare(
			st->db,
			"SELECT seat, player_id, client_seed, bot_level FROM live_seats WHERE room_id = ?1 "
			"ORDER BY seat",
			&q.seats);
	/* rows of rooms no longer live (garbage not swept yet) are left out by the join */
	if (!r)
		r = prepare(
			st->db,
			"SELECT l.room, l.ply, l.seat, l.action, l.outcome, l.at, l.stand_in FROM live_log l "
			"JOIN live_rooms r ON r.key = l.room ORDER BY r.created_at, r.id, l.ply, l.seq",
			&q.actions);
	if (!r)
		r = prepare(st->db,
			    "SELECT ply, seat, kind, at FROM live_events WHERE room_id = ?1 "
			    "ORDER BY ply, rowid",
			    &q.events);
	if (!r && (q.arc = sqlite3_step(q.actions)) != SQLITE_ROW && q.arc != SQLITE_DONE)
		r = -EIO;
	while (!r && (rc = sqlite3_step(rooms)) == SQLITE_ROW)
		r = live_room_read(&q, rooms, ops, ctx);
	if (!r && rc != SQLITE_DONE)
		r = -EIO;
	(void)sqlite3_finalize(q.events); /* NULL is a no-op; errors were handled at the step */
	(void)sqlite3_finalize(q.actions);
	(void)sqlite3_finalize(q.seats);
	(void)sqlite3_finalize(rooms);
	return r;
}
