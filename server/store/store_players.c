/*
 * store_players.c: identities read by token hash when they say hello, with
 * their ratings, instead of every identity loaded at start-up (an unbounded
 * number: every tokenless hello makes one). A hello's read runs on the
 * store's lookup thread (lane STORE_LANE_LOOKUP: its own read-only
 * connection, its own queue) and is answered on the loop, so the loop never
 * waits on the database for it; the identity and its ratings come from one
 * statement (one snapshot). Start-up reads the identities of the journal's
 * seats synchronously, before the loop serves, on the loop thread's own
 * read-only connection (`ldb`), which nothing else touches. In cluster mode
 * the same read also finds the seats the identity holds on other nodes (a
 * second statement: the welcome's `elsewhere`), and store_held_load() reads
 * only those for an identity already in memory.
 *
 * Must not: run a read on the loop thread once the loop serves (but a
 * cluster's adoption, whose whole load is synchronous: lobby_restore.c).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "store/store_int.h"
#include "base/util.h"

int store_players_open(struct store *st, const char *path)
{
	return store_db_open(path, true, &st->ldb) ? -EIO : 0;
}

void store_players_close(struct store *st)
{
	if (st->ldb && sqlite3_close(st->ldb) != SQLITE_OK)
		util_log(LOG_ERROR, "store: the lookup connection did not close cleanly");
	st->ldb = NULL;
}

void store_held_clear(struct store_held_list *l)
{
	free(l->rows);
	*l = (struct store_held_list){ 0 };
}

int store_held_add(struct store_held_list *l, const char *room, const char *seat, const char *game,
		   const char *node)
{
	struct store_held *grown, *h;
	char *end;
	long n;

	if (!room || !seat || !game || !node || l->n >= STORE_HELD_MAX)
		return -EIO;
	n = strtol(seat, &end, 10);
	if (*end || n < 0 || n > 255)
		return -EIO;
	grown = realloc(l->rows, (l->n + 1) * sizeof(*grown));
	if (!grown)
		return -ENOMEM;
	l->rows = grown;
	h = &grown[l->n++];
	snprintf(h->room, sizeof(h->room), "%s", room);
	snprintf(h->game, sizeof(h->game), "%s", game);
	snprintf(h->node, sizeof(h->node), "%s", node);
	h->seat = (int)n;
	return 0;
}

void store_identity_finish(struct store_identity *who)
{
	if (!who)
		return;
	free(who->ratings);
	who->ratings = NULL;
	who->nratings = 0;
	store_held_clear(&who->held);
}

int store_identity_add(struct store_identity *who, const char *id, const char *name, const char *handle,
		       const char *game, double rating, double rd, int64_t matches)
{
	struct store_rating *grown, *r;

	if (!who->id[0]) {
		snprintf(who->id, sizeof(who->id), "%s", id ? id : "");
		snprintf(who->name, sizeof(who->name), "%s", name ? name : "");
		snprintf(who->handle, sizeof(who->handle), "%s", handle ? handle : "");
	}
	if (!game)
		return 0;
	grown = realloc(who->ratings, (who->nratings + 1) * sizeof(*grown));
	if (!grown)
		return -ENOMEM;
	who->ratings = grown;
	r = &grown[who->nratings++];
	snprintf(r->game, sizeof(r->game), "%s", game);
	r->rating = rating;
	r->rd = rd;
	r->matches = matches;
	return 0;
}

/* One read of STORE_IDENTITY_SQL or STORE_RATINGS_SQL on SQLite connection `db`. */
static int sqlite_identity(sqlite3 *db, const char *sql, const char *arg, struct store_identity *who)
{
	sqlite3_stmt *s = NULL;
	int rc, err = 0;

	/* prepared at each read: a hello's lookup is rare beside its cost to the loop it no longer has */
	if (sqlite3_prepare_v2(db, sql, -1, &s, NULL) != SQLITE_OK ||
	    sqlite3_bind_text(s, 1, arg, -1, SQLITE_STATIC) != SQLITE_OK) {
		util_log(LOG_ERROR, "store: identity read: %s", sqlite3_errmsg(db));
		(void)sqlite3_finalize(s);
		return -EIO;
	}
	while (!err && (rc = sqlite3_step(s)) == SQLITE_ROW)
		err = store_identity_add(
			who, (const char *)sqlite3_column_text(s, 0), (const char *)sqlite3_column_text(s, 1),
			(const char *)sqlite3_column_text(s, 2), (const char *)sqlite3_column_text(s, 3),
			sqlite3_column_double(s, 4), sqlite3_column_double(s, 5), sqlite3_column_int64(s, 6));
	if (!err && rc != SQLITE_DONE) {
		if (rc != SQLITE_INTERRUPT) /* a cancelled read, or the store closing: nobody waits */
			util_log(LOG_ERROR, "store: identity read: %s", sqlite3_errmsg(db));
		err = -EIO;
	}
	(void)sqlite3_finalize(s);
	return err ? err : who->id[0] ? 0 : STORE_E_NOT_FOUND;
}

int store_player_read(struct store *st, const char *token_hash, struct store_identity *who)
{
	int err;

	memset(who, 0, sizeof(*who));
	if (!st)
		return -EIO;
	err = st->pg    ? store_pg_player_read(st, token_hash, who)
	      : st->ldb ? sqlite_identity(st->ldb, STORE_IDENTITY_SQL("?1"), token_hash, who)
			: -EIO;
	if (err)
		store_identity_finish(who);
	return err;
}

/*
 * Tests only ($QUINTETO_TEST_HELLO_HOLD, docs/HOSTING.md): a hello's read, done, makes `<file>.read` and is
 * answered once the file is gone, so that a test can change the database between a read and its answer
 * (hello_lookup.test.mjs). Not set: nothing is waited for.
 */
static void test_hold(void)
{
	const char *path = getenv("QUINTETO_TEST_HELLO_HOLD");
	char done[4096];
	FILE *f;

	if (!path || access(path, F_OK))
		return;
	util_log(LOG_WARN, "QUINTETO_TEST_HELLO_HOLD: a hello's read waits for %s to go (tests only)", path);
	snprintf(done, sizeof(done), "%s.read", path);
	if ((f = fopen(done, "w")))
		fclose(f);
	while (!access(path, F_OK))
		usleep(10000);
}

int64_t store_lookup_now(void)
{
	return (int64_t)(util_mono_ns() / 1000000);
}

void store_lookup_init(struct store *st)
{
	const char *ms = getenv("QUINTETO_TEST_HELLO_READ_MS"); /* tests that pause the database */

	st->lookup_ms = STORE_LOOKUP_MS;
	if (ms) {
		st->lookup_ms = strtoll(ms, NULL, 10);
		util_log(LOG_WARN,
			 "QUINTETO_TEST_HELLO_READ_MS is set: a hello's read waits %lld ms (tests only)",
			 (long long)st->lookup_ms);
	}
}

int64_t store_lookup_deadline_ms(const struct store *st)
{
	return st ? st->lookup_ms : STORE_LOOKUP_MS;
}

int store_lookup_busy_cb(void *arg, int count)
{
	struct store_lane *ln = arg;

	if (ln->stop || !ln->deadline_at || store_lookup_now() >= ln->deadline_at)
		return 0; /* SQLITE_BUSY: the read fails, -EIO */
	sqlite3_sleep(count < 10 ? 1 : 10);
	return 1;
}

/* The seats held elsewhere are a cluster's (a lease: PostgreSQL only); SQLite never reads them. */
void store_lookup_run(struct store_lane *ln, struct store_req *r)
{
	bool by_id = r->kind == RJOB_RATINGS;
	int64_t late;

	ln->deadline_at = r->queued_ms + ln->st->lookup_ms;
	late = store_lookup_now() - ln->deadline_at;
	if (ln->stop) { /* cancelled since it was taken: nobody waits for it */
		r->err = STORE_E_CLOSED;
	} else if (late >= 0) { /* its deadline passed in the queue: not run (the database is slow) */
		r->err = -EIO;
		if (!ln->late_said) /* the first of a backlog: once, not once a read */
			util_log(LOG_WARN, "store: identity reads wait longer than %lld ms: answered unread",
				 (long long)ln->st->lookup_ms);
		ln->late_said = true;
	} else {
		const char *sql = by_id ? STORE_RATINGS_SQL("?1") : STORE_IDENTITY_SQL("?1");

		ln->late_said = false;
		if (ln->st->pg)
			r->err = store_pg_identity(ln, r->kind, r->a, &r->who);
		else if (r->kind == RJOB_HELD)
			r->err = 0;
		else
			r->err = sqlite_identity(ln->db, sql, r->a, &r->who);
	}
	ln->deadline_at = 0;
	if (r->kind == RJOB_HELD)
		snprintf(r->who.id, sizeof(r->who.id), "%s", r->a);
	if (r->err)
		store_identity_finish(&r->who);
	if (r->kind == RJOB_IDENTITY && !ln->stop)
		test_hold();
}

static struct store_req *load(struct store *st, enum rjob_kind kind, const char *arg, store_identity_cb cb,
			      void *ctx)
{
	struct store_req *r = calloc(1, sizeof(*r));

	if (!r || !(r->a = strdup(arg))) {
		free(r);
		return NULL;
	}
	r->kind = kind;
	r->icb = cb;
	r->ctx = ctx;
	if (store_read_submit(st, r)) {
		store_req_free(r);
		return NULL;
	}
	return r;
}

struct store_req *store_player_load(struct store *st, const char *token_hash, store_identity_cb cb, void *ctx)
{
	return load(st, RJOB_IDENTITY, token_hash, cb, ctx);
}

struct store_req *store_ratings_load(struct store *st, const char *player_id, store_identity_cb cb, void *ctx)
{
	return load(st, RJOB_RATINGS, player_id, cb, ctx);
}

struct store_req *store_held_load(struct store *st, const char *player_id, store_identity_cb cb, void *ctx)
{
	return load(st, RJOB_HELD, player_id, cb, ctx);
}
