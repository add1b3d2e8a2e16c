/*
 * store.c: the store's threads and queues (see store.h, store_int.h).
 *
 * The loop thread queues writer jobs (journal batches, archive saves) and
 * reads under two mutexes; the writer thread takes its jobs in order and
 * never skips one: a batch that fails is retried with back-off until it
 * commits, so every later job waits behind it and order is kept. Two reader
 * threads (lanes: lists and player records on one, whole matches and replays,
 * whose cost grows with the match, on the other, so the cheap reads never wait
 * behind the long ones) answer reads on their own read-only connections,
 * independently: a read
 * cancelled while queued leaves the queue unrun, one cancelled while running
 * has its query stopped, and closing abandons the reads still queued. Both
 * post their completions to one done list, delivered on the loop by a
 * uv_async_t in the order they were posted.
 */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "store/store_int.h"
#include "base/util.h"

#define RETRY_MAX_MS 1000

/* Runs `sql` (no results); logs and returns -EIO on failure. */
int store_exec(sqlite3 *db, const char *sql, const char *what)
{
	char *err = NULL;

	if (sqlite3_exec(db, sql, NULL, NULL, &err) != SQLITE_OK) {
		util_log(LOG_ERROR, "store: %s: %s", what, err ? err : sqlite3_errmsg(db));
		sqlite3_free(err);
		return -EIO;
	}
	return 0;
}

/* The negative errno a SQLite result code stands for. */
int store_rc_errno(int rc)
{
	switch (rc & 0xff) {
	case SQLITE_OK:
	case SQLITE_DONE:
	case SQLITE_ROW:
		return 0;
	case SQLITE_NOMEM:
		return -ENOMEM;
	case SQLITE_FULL:
		return -ENOSPC;
	case SQLITE_READONLY:
		return -EROFS;
	case SQLITE_BUSY:
	case SQLITE_LOCKED:
		return -EBUSY;
	case SQLITE_PERM:
	case SQLITE_AUTH:
		return -EACCES;
	default:
		return -EIO;
	}
}

#define TEXTS_FIRST 1024
#define TEXTS_MAX   65536

char *store_texts_add(struct store_texts **t, const char *p, size_t n)
{
	struct store_texts *b = *t;
	char *s;

	if (!b || b->cap - b->used < n + 1) {
		size_t cap = !b ? TEXTS_FIRST : b->cap < TEXTS_MAX ? b->cap * 2 : b->cap;

		if (cap < n + 1)
			cap = n + 1;
		if (!(b = malloc(sizeof(*b) + cap)))
			return NULL;
		b->next = *t;
		b->used = 0;
		b->cap = cap;
		*t = b;
	}
	s = b->data + b->used;
	memcpy(s, p, n);
	s[n] = '\0';
	b->used += n + 1;
	return s;
}

void store_texts_free(struct store_texts *t)
{
	while (t) {
		struct store_texts *next = t->next;

		free(t);
		t = next;
	}
}

void store_match_free(struct store_match *m)
{
	int i;
	size_t k;

	if (!m)
		return;
	free(m->id), free(m->game), free(m->options), free(m->commit);
	free(m->server_seed), free(m->client_seeds), free(m->result);
	for (i = 0; i < m->nseats && m->seats; i++) {
		free(m->seats[i].role), free(m->seats[i].name);
		free(m->seats[i].player_id), free(m->seats[i].client_seed);
	}
	free(m->seats);
	for (k = 0; k < m->nactions && m->actions && !m->texts; k++)
		free(m->actions[k].action), free(m->actions[k].outcome);
	store_texts_free(m->texts);
	free(m->actions);
	free(m->events);
	free(m);
}

void store_wjob_free(struct wjob *j)
{
	if (!j)
		return;
	free(j->ops);
	free(j->text);
	store_match_free(j->match);
	store_acct_free(j->acct);
	free(j);
}

void store_req_free(struct store_req *r)
{
	free(r->a), free(r->b), free(r->c), free(r->body);
	store_identity_finish(&r->who);
	free(r);
}

/* --- completions ---------------------------------------------------------- */

/* Any thread: queues `n` for the loop and wakes it. */
void store_note_post(struct store *st, struct note *n)
{
	n->next = NULL;
	uv_mutex_lock(&st->dlock);
	if (st->dtail)
		st->dtail->next = n;
	else
		st->dhead = n;
	st->dtail = n;
	uv_mutex_unlock(&st->dlock);
	/* only fails on a closing handle, and the store closes it after joining the threads */
	(void)uv_async_send(&st->async);
}

static void deliver_read(struct store *st, struct store_req *r)
{
	st->depth--;
	if (!r->cancelled && r->icb) {
		r->icb(r->ctx, r->err, &r->who);
	} else if (!r->cancelled && r->cb) {
		char *body = r->body;

		r->body = NULL;
		r->cb(r->ctx, r->err, body, r->len);
	}
	store_req_free(r);
}

static void deliver(struct store *st, struct note *n)
{
	struct wjob *j;

	switch (n->type) {
	case NOTE_BATCH_FAIL:
		j = CONTAINER(n, struct wjob, fail_note);
		st->failing = true;
		st->fail_err = j->fail_err;
		if (st->cb)
			st->cb(st->cb_ctx, j->seq, j->fail_err);
		break;
	case NOTE_BATCH_DONE:
		j = CONTAINER(n, struct wjob, done_note);
		st->depth--;
		st->batches_out--;
		st->failing = false;
		if (!j->err && j->seq > st->committed_seq)
			st->committed_seq = j->seq;
		if (st->cb && !j->err) /* not committed: given up at close, and already reported */
			st->cb(st->cb_ctx, j->seq, 0);
		else if (st->cb && j->err == STORE_E_FENCED && j->fail_err != STORE_E_FENCED)
			st->cb(st->cb_ctx, j->seq,
			       STORE_E_FENCED); /* it failed otherwise first, then was fenced */
		while (j->matches) {            /* its archive saves, committed (or not) with it */
			struct wjob *m = j->matches;

			j->matches = m->next;
			st->depth--;
			if (m->save_cb)
				m->save_cb(m->ctx, m->given_up ? m->err : j->err);
			store_wjob_free(m);
		}
		store_batch_recycle(st, j);
		break;
	case NOTE_MATCH_DONE:
		j = CONTAINER(n, struct wjob, done_note);
		st->depth--;
		st->failing = false; /* a save that failed was retried until now: the jobs behind it go on */
		if (j->save_cb)
			j->save_cb(j->ctx, j->err);
		store_wjob_free(j);
		break;
	case NOTE_READ_DONE:
		deliver_read(st, CONTAINER(n, struct store_req, note));
		break;
	case NOTE_ACCOUNT_DONE: {
		struct store_acct *a;

		j = CONTAINER(n, struct wjob, done_note);
		st->depth--;
		a = j->acct;
		j->acct = NULL;
		store_wjob_free(j);
		a->cb(a->ctx, a); /* it owns a from here */
		break;
	}
	}
}

static void async_cb(uv_async_t *a)
{
	struct store *st = a->data;
	struct note *n;

	uv_mutex_lock(&st->dlock);
	n = st->dhead;
	st->dhead = st->dtail = NULL;
	uv_mutex_unlock(&st->dlock);
	while (n) {
		struct note *next = n->next;

		deliver(st, n);
		n = next;
	}
}

/* --- the writer ------------------------------------------------------------ */

/* Loop thread: queues the jobs first..last (linked) and wakes the writer once. */
void store_wjob_submit(struct store *st, struct wjob *first, struct wjob *last)
{
	struct wjob *j;

	for (j = first; j; j = j->next)
		st->depth++;
	uv_mutex_lock(&st->wlock);
	if (st->wtail)
		st->wtail->next = first;
	else
		st->whead = first;
	st->wtail = last;
	uv_mutex_unlock(&st->wlock);
	/* after the unlock: a writer woken inside it would wake only to sleep again on the lock */
	uv_cond_signal(&st->wcond);
}

void store_wjob_push_front(struct store *st, struct wjob *first, struct wjob *last)
{
	uv_mutex_lock(&st->wlock);
	last->next = st->whead;
	st->whead = first;
	if (!st->wtail)
		st->wtail = last;
	uv_mutex_unlock(&st->wlock);
}

/*
 * Writer thread: sleeps `*delay_ms` (doubling it for next time) unless the
 * store is closing. Returns false when it is: the caller makes a last try.
 */
bool store_wait_retry(struct store *st, unsigned *delay_ms)
{
	uint64_t deadline = uv_hrtime() + (uint64_t)*delay_ms * 1000000u, now;
	bool quit;

	uv_mutex_lock(&st->wlock);
	/* new jobs signal the same condition: sleep the whole delay anyway */
	while (!st->wquit && (now = uv_hrtime()) < deadline)
		(void)uv_cond_timedwait(&st->wcond, &st->wlock, deadline - now); /* 0 or UV_ETIMEDOUT */
	quit = st->wquit;
	uv_mutex_unlock(&st->wlock);
	*delay_ms = *delay_ms * 2 > RETRY_MAX_MS ? RETRY_MAX_MS : *delay_ms * 2;
	return !quit;
}

bool store_writer_quitting(struct store *st)
{
	bool quit;

	uv_mutex_lock(&st->wlock);
	quit = st->wquit;
	uv_mutex_unlock(&st->wlock);
	return quit;
}

/*
 * Writer thread: the next job, NULL once the store closes and the queue is
 * empty. A job queued while the last one ran is taken without sleeping. (A
 * bounded spin before sleeping, up to 50 us for the next batch, was measured
 * in quinteto-journal-bench and did not pay on this shared 2-core machine:
 * the spinning writer took the core the loop needed to make that batch, the
 * writer's CPU per action doubled and flush -> commit p50 tripled; BENCHMARKS,
 * issue 24.)
 */
static struct wjob *writer_next(struct store *st)
{
	struct wjob *j;

	uv_mutex_lock(&st->wlock);
	while (!st->whead && !st->wquit)
		uv_cond_wait(&st->wcond, &st->wlock);
	j = st->whead;
	if (j && !(st->whead = j->next))
		st->wtail = NULL;
	uv_mutex_unlock(&st->wlock);
	return j;
}

static void writer_thread(void *arg)
{
	struct store *st = arg;
	struct wjob *j;

	(void)pthread_setname_np(pthread_self(), "q-journal"); /* for top, perf and the load generator */
	while ((j = writer_next(st))) {
		j->next = NULL;
		if (j->kind == WJOB_ACCOUNT)
			store_acct_run(st, j);
		else if (st->pg)
			store_pg_run(st, j);
		else if (j->kind == WJOB_BATCH)
			store_journal_run(st, j);
		else
			store_archive_run(st, j);
		store_note_post(st, &j->done_note); /* j is the loop's from here */
	}
}

/* --- the readers ----------------------------------------------------------- */

/*
 * Reader threads: SQLite calls this every READ_PROGRESS_OPS virtual-machine
 * steps of a read; non-zero stops the query (SQLITE_INTERRUPT). A cancelled
 * read or a closing store needs no answer: its query ends within
 * microseconds instead of running on; so does a lookup past its deadline
 * (store_lookup_run). A flag of the lane's read itself, not
 * sqlite3_interrupt(), which could stop the next read if the cancel came late.
 */
#define READ_PROGRESS_OPS 1000

static int read_progress_cb(void *arg)
{
	struct store_lane *ln = arg;

	return ln->stop || (ln->deadline_at && store_lookup_now() >= ln->deadline_at);
}

/* Reader thread, its lock held, closing: every queued read goes back unrun, answered STORE_E_CLOSED. */
static void abandon_queued(struct store_lane *ln)
{
	static const char stopping[] =
		"{\"error\":\"stopping\",\"code\":\"stopping\",\"message\":\"the server is stopping\"}";
	struct store_req *r;

	while ((r = ln->head)) {
		ln->head = r->next;
		r->err = STORE_E_CLOSED;
		r->body = strdup(stopping); /* NULL: the caller answers 500 */
		r->len = r->body ? sizeof(stopping) - 1 : 0;
		store_note_post(ln->st, &r->note);
	}
	ln->tail = NULL;
}

static void reader_thread(void *arg)
{
	struct store_lane *ln = arg;

	(void)pthread_setname_np(pthread_self(), ln->name);
	for (;;) {
		struct store_req *r;

		uv_mutex_lock(&ln->lock);
		while (!ln->head && !ln->quit)
			uv_cond_wait(&ln->cond, &ln->lock);
		if (ln->quit) { /* shutdown abandons the backlog: nobody waits for these answers */
			abandon_queued(ln);
			uv_mutex_unlock(&ln->lock);
			break;
		}
		r = ln->head;
		if (!(ln->head = r->next))
			ln->tail = NULL;
		ln->cur = r;
		ln->stop = false;
		uv_mutex_unlock(&ln->lock);
		if (RJOB_LOOKUP(r->kind))
			store_lookup_run(ln, r);
		else
			store_read_run(ln, r);
		uv_mutex_lock(&ln->lock);
		ln->cur = NULL;
		uv_mutex_unlock(&ln->lock);
		store_note_post(ln->st, &r->note);
	}
}

/* Loop thread: queues a read on its reader. 0 or STORE_E_CLOSED. */
int store_read_submit(struct store *st, struct store_req *r)
{
	struct store_lane *ln;

	if (!st || st->closing)
		return STORE_E_CLOSED;
	ln = &st->lanes[RJOB_LOOKUP(r->kind)                            ? STORE_LANE_LOOKUP
			: r->kind == RJOB_GET || r->kind == RJOB_REPLAY ? STORE_LANE_HEAVY
									: STORE_LANE_LIGHT];
	r->next = NULL;
	r->st = st;
	r->lane = ln;
	r->queued_ms = store_lookup_now();
	r->note.type = NOTE_READ_DONE;
	st->depth++;
	uv_mutex_lock(&ln->lock);
	if (ln->tail)
		ln->tail->next = r;
	else
		ln->head = r;
	ln->tail = r;
	uv_cond_signal(&ln->cond);
	uv_mutex_unlock(&ln->lock);
	return 0;
}

/* Its lock held: takes r out of the lane's queue; false if it is not there (running or done). */
static bool unqueue(struct store_lane *ln, struct store_req *r)
{
	struct store_req **pp, *prev = NULL;

	for (pp = &ln->head; *pp; prev = *pp, pp = &(*pp)->next) {
		if (*pp != r)
			continue;
		*pp = r->next;
		if (ln->tail == r)
			ln->tail = prev;
		return true;
	}
	return false;
}

bool store_req_cancel(struct store_req *req)
{
	struct store_lane *ln;
	bool queued, running;

	if (!req)
		return false;
	req->cancelled = true; /* if it was answered already, freed when the answer is delivered */
	ln = req->lane;
	uv_mutex_lock(&ln->lock);
	queued = unqueue(ln, req);
	running = !queued && ln->cur == req;
	if (running)
		ln->stop = true;
	uv_mutex_unlock(&ln->lock);
	if (queued) { /* never run: the loop owns it again */
		req->st->depth--;
		store_req_free(req);
	}
	return queued || running;
}

/* --- life cycle ------------------------------------------------------------ */

static void finalize_all(struct store *st)
{
	store_journal_finalize(st);
	store_archive_finalize(st);
}

int store_sync_init(struct store *st)
{
	int r, k;

	if ((r = uv_mutex_init(&st->wlock)))
		return r;
	if ((r = uv_mutex_init(&st->dlock)))
		goto err_wlock;
	if ((r = uv_cond_init(&st->wcond)))
		goto err_dlock;
	for (k = 0; k < STORE_LANES; k++) {
		if ((r = uv_mutex_init(&st->lanes[k].lock)))
			goto err_lanes;
		if ((r = uv_cond_init(&st->lanes[k].cond))) {
			uv_mutex_destroy(&st->lanes[k].lock);
			goto err_lanes;
		}
	}
	if ((r = uv_async_init(st->loop, &st->async, async_cb)))
		goto err_lanes;
	st->async.data = st;
	return 0;
err_lanes:
	while (k-- > 0) {
		uv_cond_destroy(&st->lanes[k].cond);
		uv_mutex_destroy(&st->lanes[k].lock);
	}
	uv_cond_destroy(&st->wcond);
err_dlock:
	uv_mutex_destroy(&st->dlock);
err_wlock:
	uv_mutex_destroy(&st->wlock);
	return r;
}

/* The readers' read-only connections, after the migrations (they see every table). */
static int lanes_open(struct store *st, const char *path)
{
	static const char *const names[STORE_LANES] = { "q-reader", "q-replay", "q-lookup" };
	int k, r;

	for (k = 0; k < STORE_LANES; k++) {
		struct store_lane *ln = &st->lanes[k];

		ln->st = st;
		ln->name = names[k];
		if ((r = store_db_open(path, true, &ln->db)))
			return r;
		sqlite3_progress_handler(ln->db, READ_PROGRESS_OPS, read_progress_cb, ln);
		if (k == STORE_LANE_LOOKUP) /* for the busy timeout: no wait past the read's deadline */
			sqlite3_busy_handler(ln->db, store_lookup_busy_cb, ln);
	}
	return 0;
}

/* Closes what lanes_open() opened; 0, or -EIO if a connection did not close cleanly. */
static int lanes_close(struct store *st)
{
	int k, r = 0;

	for (k = 0; k < STORE_LANES; k++)
		if (sqlite3_close(st->lanes[k].db) != SQLITE_OK) /* NULL: a no-op */
			r = -EIO;
	return r;
}

int store_open(uv_loop_t *loop, const char *path, const char *migrations_dir, struct store **out)
{
	struct store *st = calloc(1, sizeof(*st));
	int r;

	if (!st)
		return -ENOMEM;
	st->loop = loop;
	store_lookup_init(st);
	r = store_db_open(path, false, &st->db);
	if (r)
		goto err_free;
	r = store_migrate(st->db, migrations_dir);
	if (!r)
		r = lanes_open(st, path);
	if (!r)
		r = store_players_open(st, path);
	if (r)
		goto err_db;
	r = store_ckpt_open(st, path);
	if (r)
		goto err_db;
	r = store_journal_prepare(st);
	if (!r)
		r = store_archive_prepare(st);
	if (!r)
		r = store_sync_init(st);
	if (r)
		goto err_stmts;
	*out = st;
	return 0;
err_stmts:
	finalize_all(st);
	store_ckpt_close(st);
err_db:
	store_players_close(st);
	(void)lanes_close(st);
	sqlite3_close(st->db);
err_free:
	free(st);
	return r;
}

/* Tells a reader to stop: it abandons its queue and stops the read it runs. */
static void lane_quit(struct store_lane *ln)
{
	uv_mutex_lock(&ln->lock);
	ln->quit = true;
	ln->stop = true; /* the read running now stops too */
	uv_cond_signal(&ln->cond);
	uv_mutex_unlock(&ln->lock);
}

int store_start(struct store *st)
{
	int k, r = uv_thread_create(&st->writer, writer_thread, st);

	if (r) {
		util_log(LOG_ERROR, "store: cannot start its writer thread: %s", uv_strerror(r));
		return r;
	}
	for (k = 0; k < STORE_LANES; k++)
		if ((r = uv_thread_create(&st->lanes[k].thread, reader_thread, &st->lanes[k])))
			break;
	if (r) {
		util_log(LOG_ERROR, "store: cannot start its reader threads: %s", uv_strerror(r));
		uv_mutex_lock(&st->wlock);
		st->wquit = true;
		uv_cond_signal(&st->wcond);
		uv_mutex_unlock(&st->wlock);
		(void)uv_thread_join(&st->writer);
		while (k-- > 0) {
			lane_quit(&st->lanes[k]);
			(void)uv_thread_join(&st->lanes[k].thread);
		}
		return r;
	}
	r = st->pg ? 0 : store_ckpt_start(st); /* PostgreSQL checkpoints by itself */
	if (r)                                 /* SQLite's automatic checkpoints stay: slower, not wrong */
		util_log(LOG_WARN, "store: cannot start its checkpoint thread: %s", uv_strerror(r));
	st->started = true;
	return 0;
}

static void async_closed_cb(uv_handle_t *h)
{
	struct store *st = h->data;

	uv_mutex_destroy(&st->wlock);
	uv_mutex_destroy(&st->dlock);
	uv_cond_destroy(&st->wcond);
	for (int k = 0; k < STORE_LANES; k++) {
		uv_mutex_destroy(&st->lanes[k].lock);
		uv_cond_destroy(&st->lanes[k].cond);
	}
	free(st);
}

static void stop_threads(struct store *st)
{
	int k;

	uv_mutex_lock(&st->wlock);
	st->wquit = true;
	uv_cond_signal(&st->wcond);
	uv_mutex_unlock(&st->wlock);
	for (k = 0; k < STORE_LANES; k++)
		lane_quit(&st->lanes[k]);
	if (st->started) {
		int err = uv_thread_join(&st->writer);

		for (k = 0; k < STORE_LANES; k++)
			err |= uv_thread_join(&st->lanes[k].thread);
		if (err)
			util_log(LOG_ERROR, "store: cannot join its threads");
	} else { /* never started: run what was queued here, as the threads would */
		writer_thread(st);
		for (k = 0; k < STORE_LANES; k++)
			reader_thread(&st->lanes[k]);
	}
}

void store_close(struct store *st)
{
	if (!st)
		return;
	store_lease_close(st); /* no renewal or adoption while the store closes */
	(void)store_journal_flush(st);
	st->closing = true;
	stop_threads(st);
	async_cb(&st->async); /* deliver what finished */
	store_wjob_free(st->spare);
	st->spare = NULL;
	finalize_all(st);
	if (st->pg) {
		store_pg_close(st);
	} else {
		store_ckpt_close(st);
		store_players_close(st);
		if (lanes_close(st) || sqlite3_close(st->db) != SQLITE_OK)
			util_log(LOG_ERROR, "store: the database did not close cleanly");
	}
	uv_close((uv_handle_t *)&st->async, async_closed_cb);
}

int store_failure(const struct store *st)
{
	return st && st->failing ? st->fail_err : 0;
}

const char *store_strerror(int code)
{
	switch (code) {
	case STORE_E_CLOSED:
		return "the store is closed";
	case STORE_E_NOT_FOUND:
		return "not found";
	case STORE_E_BAD_REQUEST:
		return "the read cannot be answered as asked";
	case STORE_E_UNVERIFIED:
		return "the archived match does not verify";
	case STORE_E_NOT_QUINTETO:
		return "not a Quinteto database of this version";
	case STORE_E_FENCED:
		return "this node's lease was taken over by another node";
	case STORE_E_TAKEN:
		return "another account has this handle";
	case STORE_E_STALE:
		return "the account changed meanwhile";
	case STORE_E_CLAIMED:
		return "this identity is an account already";
	case STORE_E_SIGNED_OUT:
		return "the session was ended meanwhile";
	default:
		return code < 0 && code > -1000 ? strerror(-code) : "unknown error";
	}
}

const char *store_failure_text(int err)
{
	switch (err) {
	case 0:
		return "none";
	case -ENOSPC:
		return "the disk is full";
	case -EROFS:
		return "the database is read-only";
	case -EBUSY:
		return "the database is locked by another process";
	case -EACCES:
		return "the database may not be written (permissions)";
	case -ENOMEM:
		return "out of memory";
	case STORE_E_FENCED:
		return "this node's lease was taken over by another node";
	default: /* SQLite's I/O error, or PostgreSQL away (down, restarting, the network broken) */
		return "the database cannot be written or reached (I/O error or no connection)";
	}
}

size_t store_queue_depth(const struct store *st)
{
	return st ? st->depth : 0;
}
