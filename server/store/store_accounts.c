/*
 * store_accounts.c: accounts and their sessions (store.h, "accounts";
 * PROTOCOL.md "Accounts and ratings"). Each request is a job of the writer
 * thread, so it runs after every journal write queued before it (a claim
 * comes after the save of the guest it claims) and never on the loop. A
 * change is one transaction: committed before the loop hears of it, or
 * rolled back whole (err != 0, nothing changed). On PostgreSQL the jobs use a
 * blocking connection of their own, made when the first job comes, so the
 * journal's non-blocking connection and its ledger are left alone.
 *
 * The SQL is written once for both backends: parameters are `$N`, numbered in
 * the order they first appear (SQLite numbers named parameters that way, so
 * binding by index gives the same meaning); integers are bound as integers on
 * SQLite and as their decimal text on PostgreSQL. The statements are prepared
 * per job: account changes are rare, and a prepared set would be a second copy
 * of every statement per backend.
 *
 * Must not: keep a transaction open past a job, or hold a password (only its
 * hash ever comes here).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store/store_int.h"
#include "store/store_pg_int.h"
#include "base/util.h"

#define APARAMS 8

/* One parameter: text, or an integer when s is NULL. */
struct aparam {
	const char *s;
	int64_t i;
};

#define T(x)                     \
	(struct aparam)          \
	{                        \
		.s = (x), .i = 0 \
	}
#define I(x)                        \
	(struct aparam)             \
	{                           \
		.s = NULL, .i = (x) \
	}

/* A row's columns as text (NULL for SQL NULL). */
typedef int row_fn(void *ctx, int ncols, const char *const *cols);

/* The job's connection: SQLite's writer connection, or PostgreSQL's own. */
struct aconn {
	sqlite3 *db;
	PGconn *pg;
	const char *node; /* cluster mode: this node's name; "" otherwise */
};

static int sqlite_run(sqlite3 *db, const char *sql, int n, const struct aparam *p, row_fn *fn, void *ctx,
		      int64_t *changes)
{
	sqlite3_stmt *s;
	const char *cols[8];
	int rc, k, err = 0;

	if (sqlite3_prepare_v2(db, sql, -1, &s, NULL) != SQLITE_OK) {
		util_log(LOG_ERROR, "store: accounts: %s", sqlite3_errmsg(db));
		return -EIO;
	}
	for (k = 0; k < n; k++)
		if ((p[k].s ? sqlite3_bind_text(s, k + 1, p[k].s, -1, SQLITE_STATIC)
			    : sqlite3_bind_int64(s, k + 1, p[k].i)) != SQLITE_OK) {
			(void)sqlite3_finalize(s);
			return -EIO;
		}
	*changes = 0;
	while ((rc = sqlite3_step(s)) == SQLITE_ROW) {
		int nc = sqlite3_column_count(s) > 8 ? 8 : sqlite3_column_count(s);

		for (k = 0; k < nc; k++)
			cols[k] = (const char *)sqlite3_column_text(s, k);
		++*changes;
		if (fn && !err)
			err = fn(ctx, nc, cols);
	}
	if (rc == SQLITE_DONE) {
		if (sqlite3_column_count(s) == 0)
			*changes = sqlite3_changes(db);
	} else if (rc == SQLITE_CONSTRAINT) {
		int ext = sqlite3_extended_errcode(db);

		err = ext == SQLITE_CONSTRAINT_FOREIGNKEY ? STORE_E_NOT_FOUND : STORE_E_TAKEN;
	} else {
		util_log(LOG_ERROR, "store: accounts: %s", sqlite3_errmsg(db));
		err = store_rc_errno(rc);
	}
	(void)sqlite3_finalize(s);
	return err;
}

static int pg_run(PGconn *c, const char *sql, int n, const struct aparam *p, row_fn *fn, void *ctx,
		  int64_t *changes)
{
	char nums[APARAMS][24];
	const char *vals[APARAMS];
	PGresult *res;
	ExecStatusType st;
	int k, err = 0;

	for (k = 0; k < n; k++) {
		if (!p[k].s)
			snprintf(nums[k], sizeof(nums[k]), "%" PRId64, p[k].i);
		vals[k] = p[k].s ? p[k].s : nums[k];
	}
	res = PQexecParams(c, sql, n, NULL, vals, NULL, NULL, 0);
	st = PQresultStatus(res);
	*changes = 0;
	if (st == PGRES_TUPLES_OK) {
		int r, nc = PQnfields(res) > 8 ? 8 : PQnfields(res);
		const char *cols[8];

		*changes = PQntuples(res);
		for (r = 0; r < PQntuples(res) && !err; r++) {
			for (k = 0; k < nc; k++)
				cols[k] = PQgetisnull(res, r, k) ? NULL : PQgetvalue(res, r, k);
			if (fn)
				err = fn(ctx, nc, cols);
		}
	} else if (st == PGRES_COMMAND_OK) {
		*changes = strtoll(PQcmdTuples(res), NULL, 10);
	} else {
		const char *state = PQresultErrorField(res, PG_DIAG_SQLSTATE);

		if (state && !strcmp(state, "23505"))
			err = STORE_E_TAKEN;
		else if (state && !strcmp(state, "23503"))
			err = STORE_E_NOT_FOUND;
		else {
			util_log(LOG_ERROR, "store: accounts: %s",
				 res ? PQresultErrorMessage(res) : PQerrorMessage(c));
			err = store_pg_errno(res);
		}
	}
	PQclear(res);
	return err;
}

static int run(struct aconn *c, const char *sql, int n, const struct aparam *p, row_fn *fn, void *ctx,
	       int64_t *changes)
{
	int64_t ignored;

	if (!changes)
		changes = &ignored;
	return c->pg ? pg_run(c->pg, sql, n, p, fn, ctx, changes)
		     : sqlite_run(c->db, sql, n, p, fn, ctx, changes);
}

static int exec0(struct aconn *c, const char *sql)
{
	return run(c, sql, 0, NULL, NULL, NULL, NULL);
}

/* --- rows into the request ---------------------------------------------- */

static int64_t num(const char *s)
{
	return s ? strtoll(s, NULL, 10) : 0;
}

static void copy(char *dst, size_t n, const char *s)
{
	snprintf(dst, n, "%s", s ? s : "");
}

/* player_id, handle, pw_hash, created_at, name */
static int account_row(void *ctx, int nc, const char *const *c)
{
	struct store_acct *a = ctx;

	if (nc < 5)
		return -EIO;
	copy(a->player_id, sizeof(a->player_id), c[0]);
	copy(a->handle, sizeof(a->handle), c[1]);
	copy(a->pw_hash, sizeof(a->pw_hash), c[2]);
	a->created_at = num(c[3]);
	copy(a->name, sizeof(a->name), c[4]);
	return 0;
}

/* id, token_hash, device, created_at, seen_at */
static int session_row(void *ctx, int nc, const char *const *c)
{
	struct store_acct *a = ctx;
	struct store_session *s, *grown;

	if (nc < 5)
		return -EIO;
	grown = realloc(a->sessions, (a->nsessions + 1) * sizeof(*grown));
	if (!grown)
		return -ENOMEM;
	a->sessions = grown;
	s = &grown[a->nsessions++];
	copy(s->id, sizeof(s->id), c[0]);
	copy(s->token_hash, sizeof(s->token_hash), c[1]);
	copy(s->device, sizeof(s->device), c[2]);
	s->created_at = num(c[3]);
	s->seen_at = num(c[4]);
	return 0;
}

/* game, rating, rd, matches */
static int rating_row(void *ctx, int nc, const char *const *c)
{
	struct store_acct *a = ctx;
	struct store_rating *r, *grown;

	if (nc < 4)
		return -EIO;
	grown = realloc(a->ratings, (a->nratings + 1) * sizeof(*grown));
	if (!grown)
		return -ENOMEM;
	a->ratings = grown;
	r = &grown[a->nratings++];
	copy(r->game, sizeof(r->game), c[0]);
	r->rating = c[1] ? strtod(c[1], NULL) : 0;
	r->rd = c[2] ? strtod(c[2], NULL) : 0;
	r->matches = num(c[3]);
	return 0;
}

/* room, seat, game, node (STORE_HELD_SQL) */
static int held_row(void *ctx, int nc, const char *const *c)
{
	struct store_acct *a = ctx;

	return nc < 4 ? -EIO : store_held_add(&a->held, c[0], c[1], c[2], c[3]);
}

/* a token hash */
static int ended_row(void *ctx, int nc, const char *const *c)
{
	struct store_acct *a = ctx;
	char(*grown)[65];

	if (nc < 1)
		return -EIO;
	grown = realloc(a->ended, (a->nended + 1) * sizeof(*grown));
	if (!grown)
		return -ENOMEM;
	a->ended = grown;
	copy(a->ended[a->nended++], sizeof(a->ended[0]), c[0]);
	return 0;
}

/* --- the jobs --------------------------------------------------------------- */

#define ACCOUNT_COLS                                                                                    \
	"SELECT a.player_id, a.handle, a.pw_hash, a.created_at, p.name FROM accounts a JOIN players p " \
	"ON p.id = a.player_id "

/* The account row, its sessions and its ratings (VIEW, and the answer to every change but DELETE). */
static int view(struct aconn *c, struct store_acct *a)
{
	struct aparam p[] = { T(a->player_id) };
	char keep[16];
	int64_t rows = 0;
	int err;

	free(a->sessions);
	free(a->ratings);
	a->sessions = NULL;
	a->ratings = NULL;
	a->nsessions = a->nratings = 0;
	memcpy(keep, a->player_id, sizeof(keep));
	err = run(c, ACCOUNT_COLS "WHERE a.player_id = $1", 1, p, account_row, a, &rows);
	memcpy(a->player_id, keep, sizeof(keep));
	if (!err && !rows)
		err = STORE_E_NOT_FOUND;
	if (!err)
		err = run(c,
			  "SELECT id, token_hash, device, created_at, seen_at FROM sessions WHERE player_id "
			  "= $1 "
			  "ORDER BY seen_at DESC, created_at DESC, id",
			  1, p, session_row, a, NULL);
	if (!err)
		err = run(c,
			  "SELECT game, rating, rd, matches FROM ratings WHERE player_id = $1 ORDER BY game",
			  1, p, rating_row, a, NULL);
	return err;
}

static int session_insert(struct aconn *c, struct store_acct *a, bool check_hash)
{
	struct aparam p[] = { T(a->session_id), T(a->player_id), T(a->token_hash),
			      T(a->device),     I(a->now),       T(a->pw_hash) };
	int64_t rows = 0;
	int err;

	if (!check_hash)
		return run(c,
			   "INSERT INTO sessions(id, player_id, token_hash, device, created_at, seen_at) "
			   "VALUES ($1, $2, $3, $4, $5, $5)",
			   5, p, NULL, NULL, NULL);
	/* signing in: only while the password it was checked against is still the account's */
	err = run(c,
		  "INSERT INTO sessions(id, player_id, token_hash, device, created_at, seen_at) "
		  "SELECT CAST($1 AS TEXT), CAST($2 AS TEXT), CAST($3 AS TEXT), CAST($4 AS TEXT), "
		  "CAST($5 AS BIGINT), CAST($5 AS BIGINT) "
		  "WHERE EXISTS (SELECT 1 FROM accounts WHERE player_id = $2 AND pw_hash = $6)",
		  6, p, NULL, NULL, &rows);
	return !err && !rows ? STORE_E_STALE : err;
}

static int claim(struct aconn *c, struct store_acct *a)
{
	struct aparam pl[] = { T(a->player_id), T(a->name), I(a->now) };
	struct aparam ac[] = { T(a->player_id), T(a->handle), T(a->key), T(a->pw_hash), I(a->now) };
	int64_t rows = 0;
	int err;

	/* the guest's row, in case its save is still in a batch not written: the batch's upsert then
	 * changes only its name and seen_at, never the token hash set here */
	err = run(c,
		  "INSERT INTO players(id, token_hash, name, created_at, seen_at) "
		  "VALUES ($1, 'claimed:' || $1, $2, $3, $3) "
		  "ON CONFLICT (id) DO UPDATE SET token_hash = excluded.token_hash",
		  3, pl, NULL, NULL, NULL);
	/* two claims of one guest at once (two tabs): the second is already_claimed, not a taken
	 * handle. After the upsert, whose row lock makes a second claim on PostgreSQL wait for the
	 * first to commit, so that this read (a statement of its own, READ COMMITTED) sees it */
	if (!err)
		err = run(c, "SELECT 1 FROM accounts WHERE player_id = $1", 1, pl, NULL, NULL, &rows);
	if (!err && rows)
		return STORE_E_CLAIMED;
	if (!err)
		err = run(c,
			  "INSERT INTO accounts(player_id, handle, handle_key, pw_hash, created_at, "
			  "pw_changed_at) "
			  "VALUES ($1, $2, $3, $4, $5, $5)",
			  5, ac, NULL, NULL, NULL);
	if (!err)
		err = session_insert(c, a, false);
	return err;
}

static int sign_in(struct aconn *c, struct store_acct *a)
{
	struct aparam p[] = { T(a->player_id) };
	char sql[320];
	int err = session_insert(c, a, true);

	if (err)
		return err;
	/* the least recently seen sessions past the most an account keeps end */
	snprintf(sql, sizeof(sql),
		 "DELETE FROM sessions WHERE player_id = $1 AND id NOT IN (SELECT id FROM sessions "
		 "WHERE player_id = $1 ORDER BY seen_at DESC, created_at DESC, id LIMIT %d) RETURNING "
		 "token_hash",
		 a->max_sessions > 0 ? a->max_sessions : 20);
	return run(c, sql, 1, p, ended_row, a, NULL);
}

/* Cluster mode: the seats the account holds on other nodes, for the sign-in's welcome. */
static int held(struct aconn *c, struct store_acct *a)
{
	struct aparam p[] = { T(a->player_id), T(c->node) };
	int err;

	store_held_clear(&a->held);
	if (!*c->node)
		return 0;
	err = run(c, STORE_HELD_SQL, 2, p, held_row, a, NULL);
	a->held.read = !err;
	return err;
}

static int end_sessions(struct aconn *c, struct store_acct *a)
{
	struct aparam p[] = { T(a->player_id), T(*a->session_id ? a->session_id : a->token_hash) };
	int64_t rows = 0;
	int err = run(c,
		      *a->session_id
			      ? "DELETE FROM sessions WHERE player_id = $1 AND id = $2 RETURNING token_hash"
			      : "DELETE FROM sessions WHERE player_id = $1 AND token_hash = $2 RETURNING "
				"token_hash",
		      2, p, ended_row, a, &rows);

	return !err && !rows ? STORE_E_NOT_FOUND : err;
}

static int password(struct aconn *c, struct store_acct *a)
{
	struct aparam up[] = { T(a->pw_hash), I(a->now), T(a->player_id) };
	struct aparam del[] = { T(a->player_id), T(a->token_hash) };
	int64_t rows = 0;
	int err = run(c, "UPDATE accounts SET pw_hash = $1, pw_changed_at = $2 WHERE player_id = $3", 3, up,
		      NULL, NULL, &rows);

	if (!err && !rows)
		err = STORE_E_NOT_FOUND;
	if (!err)
		err = run(
			c,
			"DELETE FROM sessions WHERE player_id = $1 AND token_hash <> $2 RETURNING token_hash",
			2, del, ended_row, a, NULL);
	return err;
}

static int delete_account(struct aconn *c, struct store_acct *a)
{
	static const char *const sql[] = {
		"DELETE FROM ratings WHERE player_id = $1",
		"DELETE FROM rating_history WHERE player_id = $1",
		/* the archive keeps the matches, under a name that is nobody's */
		"UPDATE match_seats SET name = '(deleted)', name_key = '(deleted)' WHERE player_id = $1",
		"UPDATE players SET name = '(deleted)' WHERE id = $1",
	};
	struct aparam p[] = { T(a->player_id) };
	int64_t rows = 0;
	/* a seat in a live room of any node (the loop checked its own node's only): STORE_E_TAKEN, nothing
	 * done */
	int err = run(c, "SELECT 1 FROM live_seats WHERE player_id = $1 LIMIT 1", 1, p, NULL, NULL, &rows);

	if (!err && rows)
		return STORE_E_TAKEN;
	err = run(c, "DELETE FROM sessions WHERE player_id = $1 RETURNING token_hash", 1, p, ended_row, a,
		  NULL);
	for (size_t k = 0; !err && k < sizeof(sql) / sizeof(sql[0]); k++)
		err = run(c, sql[k], 1, p, NULL, NULL, NULL);
	if (!err)
		err = run(c, "DELETE FROM accounts WHERE player_id = $1", 1, p, NULL, NULL, &rows);
	return !err && !rows ? STORE_E_NOT_FOUND : err;
}

/*
 * The requester's session is still there (docs/ACCOUNTS.md): a change or a read that acts for a connection
 * whose session was ended meanwhile (another node, the command line) does nothing. PostgreSQL holds the
 * row FOR KEY SHARE, so an end (a DELETE) committing on another node waits for this transaction, or this
 * one sees it gone; the journal's UPDATE of its seen_at (FOR NO KEY UPDATE, from any node's batch) does
 * not conflict with it, where FOR SHARE would and could deadlock with a batch that waits on this change.
 */
static int requester_alive(struct aconn *c, const struct store_acct *a)
{
	struct aparam p[] = { T(a->token_hash), T(a->player_id) };
	int64_t rows = 0;
	int err = run(c,
		      c->pg ? "SELECT 1 FROM sessions WHERE token_hash = $1 AND player_id = $2 FOR KEY SHARE"
			    : "SELECT 1 FROM sessions WHERE token_hash = $1 AND player_id = $2",
		      2, p, NULL, NULL, &rows);

	return !err && !rows ? STORE_E_SIGNED_OUT : err;
}

/* Whether `a` acts for its requester's session (store.h: STORE_ACCT_CHECK's comment). */
static bool for_requester(const struct store_acct *a)
{
	switch (a->kind) {
	case STORE_ACCT_VIEW:
	case STORE_ACCT_PASSWORD:
	case STORE_ACCT_DELETE:
		return a->token_hash[0] != '\0';
	case STORE_ACCT_END: /* sign_out: its own session, gone or not, ends */
		return a->session_id[0] != '\0' && a->token_hash[0] != '\0';
	default:
		return false;
	}
}

/* CHECK: which of the token hashes are no session; one statement, the hashes as a JSON array. */
static int check_sessions(struct aconn *c, struct store_acct *a)
{
	struct aparam p[1];
	char *json = malloc(a->ncheck * 67 + 3), *w = json;
	int err;

	if (!json)
		return -ENOMEM;
	*w++ = '[';
	for (size_t k = 0; k < a->ncheck; k++) {
		size_t n = 0;

		while (n < 64 && ((a->check[k][n] >= '0' && a->check[k][n] <= '9') ||
				  (a->check[k][n] >= 'a' && a->check[k][n] <= 'f')))
			n++;
		if (n != 64 || a->check[k][64]) /* only our own hex hashes: nothing to quote */
			continue;
		w += sprintf(w, "%s\"%s\"", w > json + 1 ? "," : "", a->check[k]);
	}
	*w++ = ']';
	*w = '\0';
	p[0] = T(json);
	err = run(c,
		  c->pg ? "SELECT value FROM json_array_elements_text(CAST($1 AS JSON)) AS h(value) "
			  "WHERE NOT EXISTS (SELECT 1 FROM sessions WHERE token_hash = h.value)"
			: "SELECT value FROM json_each($1) "
			  "WHERE NOT EXISTS (SELECT 1 FROM sessions WHERE token_hash = value)",
		  1, p, ended_row, a, NULL);
	free(json);
	return err;
}

static int job(struct aconn *c, struct store_acct *a)
{
	struct aparam key[] = { T(a->key) };
	int64_t rows = 0;
	int err;

	if (for_requester(a) && (err = requester_alive(c, a)))
		return err;
	switch (a->kind) {
	case STORE_ACCT_CHECK:
		return check_sessions(c, a);
	case STORE_ACCT_FIND:
		err = run(c, ACCOUNT_COLS "WHERE a.handle_key = $1", 1, key, account_row, a, &rows);
		return !err && !rows ? STORE_E_NOT_FOUND : err;
	case STORE_ACCT_VIEW:
		return view(c, a);
	case STORE_ACCT_CLAIM:
		err = claim(c, a);
		break;
	case STORE_ACCT_SIGN_IN:
		err = sign_in(c, a);
		break;
	case STORE_ACCT_END:
		err = end_sessions(c, a);
		break;
	case STORE_ACCT_PASSWORD:
		err = password(c, a);
		break;
	case STORE_ACCT_DELETE:
		return delete_account(c, a);
	default:
		return -EINVAL;
	}
	if (!err)
		err = view(c, a);
	return !err && a->kind == STORE_ACCT_SIGN_IN ? held(c, a) : err;
}

/* The PostgreSQL connection of the account jobs, (re)made as needed; NULL: it cannot be reached. */
static PGconn *pg_conn(struct store *st)
{
	struct store_pg *pg = st->pg;

	if (pg->acct && PQstatus(pg->acct) != CONNECTION_OK) {
		PQfinish(pg->acct);
		pg->acct = NULL;
	}
	if (!pg->acct)
		pg->acct = store_pg_connect(pg->conninfo, false);
	return pg->acct;
}

void store_acct_run(struct store *st, struct wjob *j)
{
	struct store_acct *a = j->acct;
	struct aconn c = { .db = st->db, .pg = NULL, .node = st->node };
	int err;

	if (st->pg && !(c.pg = pg_conn(st))) {
		a->err = -EIO;
		return;
	}
	/* a read in a transaction too: the account row, its sessions and its ratings agree; a change takes
	 * SQLite's write lock first, so its check of the requester's session sees what another process (the
	 * command line) committed before it, never a snapshot it cannot write on */
	err = exec0(&c, st->pg || a->kind == STORE_ACCT_VIEW || a->kind == STORE_ACCT_FIND ||
					a->kind == STORE_ACCT_CHECK
				? "BEGIN"
				: "BEGIN IMMEDIATE");
	if (!err)
		err = job(&c, a);
	if (!err)
		err = exec0(&c, "COMMIT");
	if (err) {
		(void)exec0(&c, "ROLLBACK"); /* SQLite may have rolled back by itself already */
		if (st->pg && c.pg && PQstatus(c.pg) != CONNECTION_OK) {
			PQfinish(st->pg->acct);
			st->pg->acct = NULL;
		}
		a->nended = 0; /* nothing it read of a change rolled back ended */
	}
	a->err = err;
}

/* --- the loop's side ---------------------------------------------------------- */

struct store_acct *store_acct_new(enum store_acct_kind kind)
{
	struct store_acct *a = calloc(1, sizeof(*a));

	if (a)
		a->kind = kind;
	return a;
}

void store_acct_free(struct store_acct *a)
{
	if (!a)
		return;
	free(a->sessions);
	free(a->ratings);
	free(a->ended);
	free(a->check);
	store_held_clear(&a->held);
	free(a);
}

void store_acct_submit(struct store *st, struct store_acct *a)
{
	struct wjob *j = st && !st->closing ? calloc(1, sizeof(*j)) : NULL;

	if (!j) {
		a->err = st && !st->closing ? -ENOMEM : STORE_E_CLOSED;
		a->cb(a->ctx, a);
		return;
	}
	j->kind = WJOB_ACCOUNT;
	j->acct = a;
	j->done_note.type = NOTE_ACCOUNT_DONE;
	/* behind every journal write queued so far: the batch open now goes first */
	(void)store_journal_flush(st);
	store_wjob_submit(st, j, j);
}

int store_acct_reset_password(void *db, void *pg, const char *key, const char *pw_hash, int64_t now,
			      int *ended)
{
	struct aconn c = { .db = db, .pg = pg };
	struct store_acct *a = store_acct_new(STORE_ACCT_FIND);
	struct aparam kp[] = { T(key) };
	int64_t rows = 0;
	int err;

	*ended = 0;
	if (!a)
		return -ENOMEM;
	err = exec0(&c,
		    pg ? "BEGIN" : "BEGIN IMMEDIATE"); /* SQLite: the write lock first, not at the UPDATE */
	if (!err)
		err = run(&c, ACCOUNT_COLS "WHERE a.handle_key = $1", 1, kp, account_row, a, &rows);
	if (!err && !rows)
		err = STORE_E_NOT_FOUND;
	if (!err) {
		snprintf(a->pw_hash, sizeof(a->pw_hash), "%s", pw_hash);
		a->now = now;
		snprintf(a->token_hash, sizeof(a->token_hash), "%s", "-"); /* no session is kept */
		err = password(&c, a);
	}
	if (!err)
		err = exec0(&c, "COMMIT");
	if (err)
		(void)exec0(&c, "ROLLBACK");
	*ended = err ? 0 : (int)a->nended;
	store_acct_free(a);
	return err;
}
