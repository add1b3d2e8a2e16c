/*
 * store.c: SQLite archive on a thread of its own (see store.h).
 *
 * Jobs are queued by the loop thread under a mutex and run in order by the
 * store thread on its own connection; their completions are queued back and
 * delivered on the loop by a uv_async_t. A match is written in one
 * transaction; a failed write is retried, then logged whole as JSON so it is
 * never silently lost. WAL mode with synchronous=NORMAL.
 */
#include "store.h"

#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <jansson.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "config.h"
#include "util.h"

#define QUINTETO_STORE_VERSION QUINTETO_VERSION

enum job_kind { JOB_EXEC, JOB_MATCH_SAVE, JOB_MATCH_GET, JOB_MATCH_LIST };

#define EXEC_PARAMS 8

/* One bound parameter of a JOB_EXEC statement: text (s != NULL or null) or integer. */
struct param {
	bool is_int, is_null;
	int64_t i;
	char *s;
};

struct store_req {
	enum job_kind kind;
	struct store_req *next;
	bool cancelled;
	/* inputs */
	char *a, *b, *c;             /* player: id, token_hash, name; get: id; list: game, player */
	int64_t before;
	int limit;
	struct store_match *match;
	const char *sql;              /* JOB_EXEC: a static statement */
	struct param p[EXEC_PARAMS];
	int np;
	/* outputs */
	int status;
	char *body;
	size_t len;
	store_read_cb read_cb;
	void (*save_cb)(void *ctx, int ok);
	void *ctx;
};

struct store {
	sqlite3 *db;
	uv_loop_t *loop;
	uv_thread_t thread;
	uv_mutex_t lock;
	uv_cond_t cond;
	uv_async_t async;
	struct store_req *head, *tail;  /* to do */
	struct store_req *done;         /* done, for the loop */
	size_t depth;
	bool quit;
	bool started;
};

static char *dup_or_null(const char *s)
{
	return s ? strdup(s) : NULL;
}

void store_match_free(struct store_match *m)
{
	int i;
	size_t k;

	if (!m)
		return;
	free(m->id), free(m->game), free(m->options), free(m->commit);
	free(m->server_seed), free(m->client_seeds), free(m->result);
	for (i = 0; i < m->nseats; i++) {
		free(m->seats[i].role), free(m->seats[i].name);
		free(m->seats[i].player_id), free(m->seats[i].client_seed);
	}
	free(m->seats);
	for (k = 0; k < m->nactions; k++)
		free(m->actions[k].action), free(m->actions[k].outcome);
	free(m->actions);
	free(m);
}

static void req_free(struct store_req *r)
{
	int i;

	for (i = 0; i < r->np; i++)
		free(r->p[i].s);
	free(r->a), free(r->b), free(r->c), free(r->body);
	store_match_free(r->match);
	free(r);
}

/* --- start-up: folder, pragmas, migrations ------------------------------ */

static int mkdir_parent(const char *path)
{
	char dir[4096];
	char *p;

	if (snprintf(dir, sizeof(dir), "%s", path) >= (int)sizeof(dir))
		return -ENAMETOOLONG;
	p = strrchr(dir, '/');
	if (!p || p == dir)
		return 0;
	*p = '\0';
	for (p = dir + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(dir, 0755) && errno != EEXIST)
			return -errno;
		*p = '/';
	}
	if (mkdir(dir, 0755) && errno != EEXIST)
		return -errno;
	return 0;
}

static int exec_sql(sqlite3 *db, const char *sql, const char *what)
{
	char *err = NULL;

	if (sqlite3_exec(db, sql, NULL, NULL, &err) != SQLITE_OK) {
		util_log(LOG_ERROR, "store: %s: %s", what, err ? err : sqlite3_errmsg(db));
		sqlite3_free(err);
		return -EIO;
	}
	return 0;
}

static int open_db(const char *path, sqlite3 **out)
{
	sqlite3 *db = NULL;

	if (sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX,
			    NULL) != SQLITE_OK) {
		util_log(LOG_ERROR, "store: cannot open %s: %s", path, db ? sqlite3_errmsg(db) : "no memory");
		sqlite3_close(db);
		return -EIO;
	}
	sqlite3_busy_timeout(db, 5000);
	if (exec_sql(db, "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL; PRAGMA foreign_keys=ON;",
		     "pragmas")) {
		sqlite3_close(db);
		return -EIO;
	}
	*out = db;
	return 0;
}

static int cmp_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static bool migration_applied(sqlite3 *db, long version)
{
	sqlite3_stmt *st;
	bool found = false;

	if (sqlite3_prepare_v2(db, "SELECT 1 FROM schema_migrations WHERE version = ?", -1, &st, NULL))
		return false;
	sqlite3_bind_int64(st, 1, version);
	found = sqlite3_step(st) == SQLITE_ROW;
	sqlite3_finalize(st);
	return found;
}

static char *read_file(const char *path)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL;
	long n;

	if (!f)
		return NULL;
	if (fseek(f, 0, SEEK_END) == 0 && (n = ftell(f)) >= 0 && fseek(f, 0, SEEK_SET) == 0) {
		buf = malloc((size_t)n + 1);
		if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) {
			free(buf);
			buf = NULL;
		} else if (buf) {
			buf[n] = '\0';
		}
	}
	fclose(f);
	return buf;
}

static int apply_migration(sqlite3 *db, const char *dir, const char *name)
{
	char path[4096 + 256], *sql, *end;
	long version = strtol(name, &end, 10);
	sqlite3_stmt *st;
	int r = -EIO;

	if (end == name || *end != '_' || migration_applied(db, version))
		return 0;
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	sql = read_file(path);
	if (!sql) {
		util_log(LOG_ERROR, "store: cannot read migration %s", path);
		return -EIO;
	}
	if (exec_sql(db, "BEGIN IMMEDIATE", "begin migration"))
		goto err_sql;
	if (exec_sql(db, sql, name))
		goto err_rollback;
	if (sqlite3_prepare_v2(db, "INSERT INTO schema_migrations(version, name, applied_at) VALUES (?, ?, ?)",
			       -1, &st, NULL))
		goto err_rollback;
	sqlite3_bind_int64(st, 1, version);
	sqlite3_bind_text(st, 2, name, -1, SQLITE_TRANSIENT);
	sqlite3_bind_int64(st, 3, util_now_ms());
	r = sqlite3_step(st) == SQLITE_DONE ? 0 : -EIO;
	sqlite3_finalize(st);
	if (r || exec_sql(db, "COMMIT", "commit migration"))
		goto err_rollback;
	util_log(LOG_INFO, "store: applied migration %s", name);
	free(sql);
	return 0;
err_rollback:
	exec_sql(db, "ROLLBACK", "rollback migration");
err_sql:
	free(sql);
	return -EIO;
}

static int migrate(sqlite3 *db, const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	char *names[1024];
	size_t n = 0, i;
	int r = 0;

	if (!d) {
		util_log(LOG_ERROR, "store: cannot open migrations folder %s: %s", dir, strerror(errno));
		return -errno;
	}
	while ((e = readdir(d)) && n < 1024) {
		size_t len = strlen(e->d_name);

		if (len > 4 && !strcmp(e->d_name + len - 4, ".sql") && e->d_name[0] >= '0' &&
		    e->d_name[0] <= '9')
			names[n++] = strdup(e->d_name);
	}
	closedir(d);
	qsort(names, n, sizeof(names[0]), cmp_names);
	if (exec_sql(db, "CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, "
			 "name TEXT NOT NULL, applied_at INTEGER NOT NULL)", "schema_migrations"))
		r = -EIO;
	for (i = 0; i < n; i++) {
		if (!r && names[i])
			r = apply_migration(db, dir, names[i]);
		free(names[i]);
	}
	return r;
}

/* --- the thread --------------------------------------------------------- */

static void job_exec(struct store *st, struct store_req *j)
{
	sqlite3_stmt *s;
	int i;

	if (sqlite3_prepare_v2(st->db, j->sql, -1, &s, NULL)) {
		util_log(LOG_ERROR, "store: %s: %s", j->sql, sqlite3_errmsg(st->db));
		return;
	}
	for (i = 0; i < j->np; i++) {
		if (j->p[i].is_int)
			sqlite3_bind_int64(s, i + 1, j->p[i].i);
		else if (!j->p[i].is_null)
			sqlite3_bind_text(s, i + 1, j->p[i].s, -1, SQLITE_STATIC);
	}
	if (sqlite3_step(s) != SQLITE_DONE)
		util_log(LOG_ERROR, "store: %s: %s", j->sql, sqlite3_errmsg(st->db));
	else
		j->status = 200;
	sqlite3_finalize(s);
}

/* --- match jobs --------------------------------------------------------- */

static int bind_step(sqlite3 *db, const char *sql, const char *const *texts, int ntexts,
		     const int64_t *ints, int nints)
{
	sqlite3_stmt *s;
	int i, rc;

	if (sqlite3_prepare_v2(db, sql, -1, &s, NULL))
		return -EIO;
	for (i = 0; i < ntexts; i++)
		sqlite3_bind_text(s, i + 1, texts[i], -1, SQLITE_STATIC);
	for (i = 0; i < nints; i++)
		sqlite3_bind_int64(s, ntexts + i + 1, ints[i]);
	rc = sqlite3_step(s);
	sqlite3_finalize(s);
	return rc == SQLITE_DONE ? 0 : -EIO;
}

static int insert_match(sqlite3 *db, const struct store_match *m, int64_t *seq)
{
	const char *t[] = {m->id, m->game, m->options, m->commit, m->server_seed, m->client_seeds,
			   m->result, QUINTETO_STORE_VERSION};
	int64_t n[] = {m->started_at, m->ended_at};

	if (bind_step(db,
		      "INSERT INTO matches(id, game, options, commit_hex, server_seed, client_seeds, "
		      "result, server_version, started_at, ended_at) VALUES (?1,?2,?3,?4,?5,?6,?7,?8,?9,?10)",
		      t, 8, n, 2))
		return -EIO;
	*seq = sqlite3_last_insert_rowid(db);
	return 0;
}

static int insert_seats(sqlite3 *db, const struct store_match *m, int64_t seq)
{
	sqlite3_stmt *s;
	int i, r = 0;

	if (sqlite3_prepare_v2(db, "INSERT INTO match_seats(match_seq, seat, role, name, bot, player_id, "
				   "client_seed) VALUES (?1,?2,?3,?4,?5,?6,?7)", -1, &s, NULL))
		return -EIO;
	for (i = 0; i < m->nseats && !r; i++) {
		const struct store_seat *st = &m->seats[i];

		sqlite3_bind_int64(s, 1, seq);
		sqlite3_bind_int(s, 2, st->seat);
		sqlite3_bind_text(s, 3, st->role, -1, SQLITE_STATIC);
		sqlite3_bind_text(s, 4, st->name, -1, SQLITE_STATIC);
		sqlite3_bind_int(s, 5, st->bot);
		sqlite3_bind_text(s, 6, st->player_id, -1, SQLITE_STATIC);
		sqlite3_bind_text(s, 7, st->client_seed ? st->client_seed : "", -1, SQLITE_STATIC);
		r = sqlite3_step(s) == SQLITE_DONE ? 0 : -EIO;
		sqlite3_reset(s);
	}
	sqlite3_finalize(s);
	return r;
}

static int insert_actions(sqlite3 *db, const struct store_match *m, int64_t seq)
{
	sqlite3_stmt *s;
	size_t i;
	int r = 0;

	if (sqlite3_prepare_v2(db, "INSERT INTO match_actions(match_seq, ply, seat, action, outcome, at) "
				   "VALUES (?1,?2,?3,?4,?5,?6)", -1, &s, NULL))
		return -EIO;
	for (i = 0; i < m->nactions && !r; i++) {
		const struct store_action *a = &m->actions[i];

		sqlite3_bind_int64(s, 1, seq);
		sqlite3_bind_int(s, 2, a->ply);
		sqlite3_bind_int(s, 3, a->seat);
		sqlite3_bind_text(s, 4, a->action, -1, SQLITE_STATIC);
		sqlite3_bind_text(s, 5, a->outcome, -1, SQLITE_STATIC);
		sqlite3_bind_int64(s, 6, a->at);
		r = sqlite3_step(s) == SQLITE_DONE ? 0 : -EIO;
		sqlite3_reset(s);
	}
	sqlite3_finalize(s);
	return r;
}

/* COMMIT; if it fails and SQLite left the transaction open, roll it back. */
static int commit_or_rollback(sqlite3 *db, const char *what)
{
	if (!exec_sql(db, "COMMIT", what))
		return 0;
	if (!sqlite3_get_autocommit(db))
		exec_sql(db, "ROLLBACK", what);
	return -EIO;
}

static int save_once(sqlite3 *db, const struct store_match *m)
{
	int64_t seq;

	if (exec_sql(db, "BEGIN IMMEDIATE", "begin match"))
		return -EIO;
	if (insert_match(db, m, &seq) || insert_seats(db, m, seq) || insert_actions(db, m, seq) ||
	    bind_step(db, "DELETE FROM live_rooms WHERE id = ?1", (const char *const *)&m->id, 1, NULL, 0)) {
		util_log(LOG_ERROR, "store: match %s: %s", m->id, sqlite3_errmsg(db));
		exec_sql(db, "ROLLBACK", "rollback match");
		return -EIO;
	}
	return commit_or_rollback(db, "commit match");
}

static void job_match_save(struct store *st, struct store_req *j)
{
	int attempt;

	for (attempt = 0; attempt < 3; attempt++) {
		if (!save_once(st->db, j->match)) {
			j->status = 200;
			return;
		}
		usleep(50000u << attempt);
	}
	j->status = 500;
	util_log(LOG_ERROR, "store: match %s could not be archived; its record follows so it is not lost",
		 j->match->id);
	fprintf(stderr, "quinteto-server unarchived-match: {\"id\":\"%s\",\"game\":\"%s\",\"server_seed\":\"%s\","
		"\"client_seeds\":%s,\"result\":%s,\"actions\":%zu}\n",
		j->match->id, j->match->game, j->match->server_seed, j->match->client_seeds,
		j->match->result, j->match->nactions);
}

static json_t *load_json(const unsigned char *text)
{
	json_t *j = text ? json_loads((const char *)text, JSON_DECODE_ANY, NULL) : NULL;

	return j ? j : json_null();
}

static json_t *seats_json(sqlite3 *db, int64_t seq)
{
	sqlite3_stmt *s;
	json_t *arr = json_array();

	if (sqlite3_prepare_v2(db, "SELECT seat, role, name, bot FROM match_seats WHERE match_seq = ? "
				   "ORDER BY seat", -1, &s, NULL))
		return arr;
	sqlite3_bind_int64(s, 1, seq);
	while (sqlite3_step(s) == SQLITE_ROW)
		json_array_append_new(arr, json_pack("{s:i, s:s, s:s, s:b}", "seat", sqlite3_column_int(s, 0),
						     "role", (const char *)sqlite3_column_text(s, 1), "name",
						     (const char *)sqlite3_column_text(s, 2), "bot",
						     sqlite3_column_int(s, 3)));
	sqlite3_finalize(s);
	return arr;
}

static json_t *actions_json(sqlite3 *db, int64_t seq)
{
	sqlite3_stmt *s;
	json_t *arr = json_array();

	if (sqlite3_prepare_v2(db, "SELECT ply, seat, action, outcome, at FROM match_actions "
				   "WHERE match_seq = ? ORDER BY ply", -1, &s, NULL))
		return arr;
	sqlite3_bind_int64(s, 1, seq);
	while (sqlite3_step(s) == SQLITE_ROW)
		json_array_append_new(arr, json_pack("{s:i, s:i, s:o, s:o, s:I}", "ply", sqlite3_column_int(s, 0),
						     "seat", sqlite3_column_int(s, 1), "action",
						     load_json(sqlite3_column_text(s, 2)), "outcome",
						     load_json(sqlite3_column_text(s, 3)), "at",
						     (json_int_t)sqlite3_column_int64(s, 4)));
	sqlite3_finalize(s);
	return arr;
}

static void set_body(struct store_req *j, int status, json_t *body)
{
	j->status = status;
	j->body = body ? json_dumps(body, JSON_COMPACT) : NULL;
	j->len = j->body ? strlen(j->body) : 0;
	json_decref(body);
	if (!j->body)
		j->status = 500;
}

static void job_match_get(struct store *st, struct store_req *j)
{
	sqlite3_stmt *s;
	int64_t seq;
	json_t *m;

	if (sqlite3_prepare_v2(st->db, "SELECT seq, id, game, options, started_at, ended_at, commit_hex, "
				       "server_seed, client_seeds, result FROM matches WHERE id = ?", -1, &s, NULL)) {
		set_body(j, 500, json_pack("{s:s, s:s}", "error", "internal", "message", sqlite3_errmsg(st->db)));
		return;
	}
	sqlite3_bind_text(s, 1, j->a, -1, SQLITE_STATIC);
	if (sqlite3_step(s) != SQLITE_ROW) {
		sqlite3_finalize(s);
		set_body(j, 404, json_pack("{s:s, s:s}", "error", "not_found", "message", "no archived match has this id"));
		return;
	}
	seq = sqlite3_column_int64(s, 0);
	m = json_pack("{s:s, s:s, s:o, s:I, s:I, s:s, s:s, s:o, s:o}", "id",
		      (const char *)sqlite3_column_text(s, 1), "game", (const char *)sqlite3_column_text(s, 2),
		      "options", load_json(sqlite3_column_text(s, 3)), "started_at",
		      (json_int_t)sqlite3_column_int64(s, 4), "ended_at", (json_int_t)sqlite3_column_int64(s, 5),
		      "commit", (const char *)sqlite3_column_text(s, 6), "server_seed",
		      (const char *)sqlite3_column_text(s, 7), "client_seeds", load_json(sqlite3_column_text(s, 8)),
		      "result", load_json(sqlite3_column_text(s, 9)));
	sqlite3_finalize(s);
	if (m) {
		json_object_set_new(m, "seats", seats_json(st->db, seq));
		json_object_set_new(m, "actions", actions_json(st->db, seq));
		/* (r2) archive.json requires events; this store keeps none yet (issue 5: the
		 * match_events table and wire_archive_encode replace this function). */
		json_object_set_new(m, "events", json_array());
	}
	set_body(j, m ? 200 : 500, m);
}

static void job_match_list(struct store *st, struct store_req *j)
{
	sqlite3_stmt *s;
	json_t *list = json_array(), *next = json_null();
	int n = 0;

	if (sqlite3_prepare_v2(st->db,
			       "SELECT seq, id, game, started_at, ended_at, result FROM matches WHERE "
			       "(?1 IS NULL OR game = ?1) AND (?2 IS NULL OR seq IN (SELECT match_seq FROM "
			       "match_seats WHERE player_id = ?2)) AND (?3 = 0 OR seq < ?3) "
			       "ORDER BY seq DESC LIMIT ?4", -1, &s, NULL)) {
		json_decref(list);
		set_body(j, 500, json_pack("{s:s, s:s}", "error", "internal", "message", sqlite3_errmsg(st->db)));
		return;
	}
	sqlite3_bind_text(s, 1, j->a, -1, SQLITE_STATIC);
	sqlite3_bind_text(s, 2, j->b, -1, SQLITE_STATIC);
	sqlite3_bind_int64(s, 3, j->before);
	sqlite3_bind_int(s, 4, j->limit + 1);
	while (sqlite3_step(s) == SQLITE_ROW) {
		int64_t seq = sqlite3_column_int64(s, 0);
		char cursor[32];

		if (++n > j->limit) {
			break;
		}
		snprintf(cursor, sizeof(cursor), "%lld", (long long)seq);
		json_decref(next);
		next = json_string(cursor);
		json_array_append_new(list, json_pack("{s:s, s:s, s:I, s:I, s:o, s:o}", "id",
						      (const char *)sqlite3_column_text(s, 1), "game",
						      (const char *)sqlite3_column_text(s, 2), "started_at",
						      (json_int_t)sqlite3_column_int64(s, 3), "ended_at",
						      (json_int_t)sqlite3_column_int64(s, 4), "seats",
						      seats_json(st->db, seq), "result",
						      load_json(sqlite3_column_text(s, 5))));
	}
	sqlite3_finalize(s);
	if (n <= j->limit) { /* no more rows: no cursor */
		json_decref(next);
		next = json_null();
	}
	set_body(j, 200, json_pack("{s:o, s:o}", "matches", list, "next", next));
}

static void run_job(struct store *st, struct store_req *j)
{
	switch (j->kind) {
	case JOB_EXEC: job_exec(st, j); break;
	case JOB_MATCH_SAVE: job_match_save(st, j); break;
	case JOB_MATCH_GET: job_match_get(st, j); break;
	case JOB_MATCH_LIST: job_match_list(st, j); break;
	}
}

/* Takes every queued job; consecutive small writes share one transaction. */
static void run_batch(struct store *st, struct store_req *list)
{
	while (list) {
		struct store_req *j = list;
		bool txn = j->kind == JOB_EXEC && j->next && j->next->kind == JOB_EXEC;

		struct store_req *first = list, *end;

		if (txn)
			exec_sql(st->db, "BEGIN IMMEDIATE", "begin batch");
		do {
			j = list;
			list = j->next;
			run_job(st, j);
		} while (txn && list && list->kind == JOB_EXEC);
		end = list;
		if (txn && commit_or_rollback(st->db, "commit batch")) {
			util_log(LOG_ERROR, "store: a batch of journal writes was lost: %s", sqlite3_errmsg(st->db));
			for (j = first; j != end; j = j->next)
				j->status = 500;
		}
		for (j = first; j != end;) {
			struct store_req *n = j->next;

			uv_mutex_lock(&st->lock);
			j->next = st->done;
			st->done = j;
			uv_mutex_unlock(&st->lock);
			j = n;
		}
	}
	uv_async_send(&st->async);
}

static void store_thread(void *arg)
{
	struct store *st = arg;

	uv_mutex_lock(&st->lock);
	for (;;) {
		struct store_req *list;

		while (!st->head && !st->quit)
			uv_cond_wait(&st->cond, &st->lock);
		if (!st->head)
			break;
		list = st->head;
		st->head = st->tail = NULL;
		uv_mutex_unlock(&st->lock);
		run_batch(st, list);
		uv_mutex_lock(&st->lock);
	}
	uv_mutex_unlock(&st->lock);
}

static void deliver(struct store_req *j)
{
	if (!j->cancelled && j->read_cb) {
		char *body = j->body;

		j->body = NULL;
		j->read_cb(j->ctx, j->status, body, j->len);
	} else if (j->save_cb) {
		j->save_cb(j->ctx, j->status == 200);
	}
	req_free(j);
}

static void async_cb(uv_async_t *a)
{
	struct store *st = a->data;
	struct store_req *list, *rev = NULL;

	uv_mutex_lock(&st->lock);
	list = st->done;
	st->done = NULL;
	uv_mutex_unlock(&st->lock);
	while (list) { /* restore submission order */
		struct store_req *n = list->next;

		list->next = rev;
		rev = list;
		list = n;
	}
	while (rev) {
		struct store_req *n = rev->next;

		st->depth--;
		deliver(rev);
		rev = n;
	}
}

static void submit(struct store *st, struct store_req *j)
{
	if (!st) { /* closed: only during shutdown, after the last write */
		util_log(LOG_WARN, "store: closed, dropping a late job");
		req_free(j);
		return;
	}
	j->next = NULL;
	st->depth++;
	uv_mutex_lock(&st->lock);
	if (st->tail)
		st->tail->next = j;
	else
		st->head = j;
	st->tail = j;
	uv_cond_signal(&st->cond);
	uv_mutex_unlock(&st->lock);
}

int store_open(uv_loop_t *loop, const char *path, const char *migrations_dir, struct store **out)
{
	struct store *st = calloc(1, sizeof(*st));
	int r;

	if (!st)
		return -ENOMEM;
	r = mkdir_parent(path);
	if (r) {
		util_log(LOG_ERROR, "store: cannot create the folder of %s: %s", path, strerror(-r));
		goto err_free;
	}
	r = open_db(path, &st->db);
	if (r)
		goto err_free;
	r = migrate(st->db, migrations_dir);
	if (r)
		goto err_db;
	st->loop = loop;
	uv_mutex_init(&st->lock);
	uv_cond_init(&st->cond);
	uv_async_init(loop, &st->async, async_cb);
	st->async.data = st;
	*out = st;
	return 0;
err_db:
	sqlite3_close(st->db);
err_free:
	free(st);
	return r;
}

int store_start(struct store *st)
{
	int r = uv_thread_create(&st->thread, store_thread, st);

	if (r) {
		util_log(LOG_ERROR, "store: cannot start its thread: %s", uv_strerror(r));
		return r;
	}
	st->started = true;
	return 0;
}

static void async_closed_cb(uv_handle_t *h)
{
	struct store *st = h->data;

	uv_mutex_destroy(&st->lock);
	uv_cond_destroy(&st->cond);
	free(st);
}

void store_close(struct store *st)
{
	if (!st)
		return;
	uv_mutex_lock(&st->lock);
	st->quit = true;
	uv_cond_signal(&st->cond);
	uv_mutex_unlock(&st->lock);
	if (st->started)
		uv_thread_join(&st->thread);
	else
		store_thread(st); /* never started: write what was queued now */
	async_cb(&st->async); /* deliver what finished */
	sqlite3_close(st->db);
	uv_close((uv_handle_t *)&st->async, async_closed_cb);
}

size_t store_queue_depth(const struct store *st)
{
	return st ? st->depth : 0;
}

static struct store_req *req_new(enum job_kind kind)
{
	struct store_req *j = calloc(1, sizeof(*j));

	if (j)
		j->kind = kind;
	return j;
}

/* Queues `sql` with params described by `fmt` ('s' text or NULL, 'i' int64). */
static void exec_async(struct store *st, const char *sql, const char *fmt, ...)
{
	struct store_req *j = req_new(JOB_EXEC);
	va_list ap;
	int i;

	if (!j) {
		util_log(LOG_ERROR, "store: out of memory queueing %s", sql);
		return;
	}
	j->sql = sql;
	va_start(ap, fmt);
	for (i = 0; fmt[i] && i < EXEC_PARAMS; i++, j->np++) {
		if (fmt[i] == 'i') {
			j->p[i].is_int = true;
			j->p[i].i = va_arg(ap, int64_t);
		} else {
			const char *v = va_arg(ap, const char *);

			j->p[i].is_null = !v;
			if (v && !(j->p[i].s = strdup(v))) {
				va_end(ap);
				req_free(j);
				return;
			}
		}
	}
	va_end(ap);
	submit(st, j);
}

void store_player_save(struct store *st, const char *id, const char *token_hash, const char *name)
{
	exec_async(st,
		   "INSERT INTO players(id, token_hash, name, created_at) VALUES (?1, ?2, ?3, ?4) "
		   "ON CONFLICT(id) DO UPDATE SET name = excluded.name",
		   "sssi", id, token_hash, name, util_now_ms());
}

void store_live_room(struct store *st, const char *id, const char *game, const char *options,
		     const char *server_seed, int64_t created_at)
{
	exec_async(st, "INSERT OR REPLACE INTO live_rooms(id, game, options, server_seed, created_at) "
		       "VALUES (?1, ?2, ?3, ?4, ?5)", "ssssi", id, game, options, server_seed, created_at);
}

void store_live_seat(struct store *st, const char *room, int seat, const char *player_id,
		     const char *client_seed)
{
	exec_async(st, "INSERT OR REPLACE INTO live_seats(room_id, seat, player_id, client_seed) "
		       "VALUES (?1, ?2, ?3, ?4)", "siss", room, (int64_t)seat, player_id, client_seed);
}

void store_live_seat_free(struct store *st, const char *room, int seat)
{
	exec_async(st, "DELETE FROM live_seats WHERE room_id = ?1 AND seat = ?2", "si", room, (int64_t)seat);
}

void store_live_action(struct store *st, const char *room, int ply, int seat, const char *action,
		       const char *outcome, int64_t at)
{
	exec_async(st, "INSERT OR REPLACE INTO live_actions(room_id, ply, seat, action, outcome, at) "
		       "VALUES (?1, ?2, ?3, ?4, ?5, ?6)", "siissi", room, (int64_t)ply, (int64_t)seat, action,
		   outcome, at);
}

void store_live_started(struct store *st, const char *room, int64_t started_at)
{
	exec_async(st, "UPDATE live_rooms SET started_at = ?2 WHERE id = ?1", "si", room, started_at);
}

void store_live_resign(struct store *st, const char *room, int seat, int reason, int64_t at)
{
	exec_async(st, "UPDATE live_rooms SET resigned_seat = ?2, resign_reason = ?3, ended_at = ?4 "
		       "WHERE id = ?1", "siii", room, (int64_t)seat, (int64_t)reason, at);
}

void store_live_drop(struct store *st, const char *room)
{
	exec_async(st, "DELETE FROM live_rooms WHERE id = ?1", "s", room); /* cascades */
}

int store_query(struct store *st, const char *sql, const char *arg,
		int (*row)(void *ctx, int ncols, const char *const *cols), void *ctx)
{
	const char *cols[16];
	sqlite3_stmt *s;
	int r = 0, rc, n, i;

	if (sqlite3_prepare_v2(st->db, sql, -1, &s, NULL)) {
		util_log(LOG_ERROR, "store: %s: %s", sql, sqlite3_errmsg(st->db));
		return -EIO;
	}
	if (arg)
		sqlite3_bind_text(s, 1, arg, -1, SQLITE_STATIC);
	n = sqlite3_column_count(s) < 16 ? sqlite3_column_count(s) : 16;
	while (!r && (rc = sqlite3_step(s)) == SQLITE_ROW) {
		for (i = 0; i < n; i++)
			cols[i] = (const char *)sqlite3_column_text(s, i);
		r = row(ctx, n, cols);
	}
	sqlite3_finalize(s);
	return r ? r : (rc == SQLITE_DONE || rc == SQLITE_ROW) ? 0 : -EIO;
}

void store_match_save(struct store *st, struct store_match *m, void (*done)(void *ctx, int ok),
		      void *ctx)
{
	struct store_req *j = req_new(JOB_MATCH_SAVE);

	if (!j) {
		util_log(LOG_ERROR, "store: out of memory archiving match %s", m->id);
		store_match_free(m);
		if (done)
			done(ctx, 0);
		return;
	}
	j->match = m;
	j->save_cb = done;
	j->ctx = ctx;
	submit(st, j);
}

struct store_req *store_match_get(struct store *st, const char *id, store_read_cb cb, void *ctx)
{
	struct store_req *j = req_new(JOB_MATCH_GET);

	if (!j || !(j->a = strdup(id))) {
		free(j);
		return NULL;
	}
	j->read_cb = cb;
	j->ctx = ctx;
	submit(st, j);
	return j;
}

struct store_req *store_match_list(struct store *st, const char *game, const char *player,
				   int64_t before, int limit, store_read_cb cb, void *ctx)
{
	struct store_req *j = req_new(JOB_MATCH_LIST);

	if (!j)
		return NULL;
	j->a = dup_or_null(game);
	j->b = dup_or_null(player);
	j->before = before;
	j->limit = limit;
	j->read_cb = cb;
	j->ctx = ctx;
	submit(st, j);
	return j;
}

void store_req_cancel(struct store_req *req)
{
	if (req)
		req->cancelled = true;
}
