/*
 * store_ckpt.c: WAL checkpoints off the writer's path.
 *
 * With SQLite's automatic checkpoints the writer copies the WAL back into the
 * database file itself, every 1,000 frames, right after a commit: the journal
 * batches waiting behind it wait for a copy of 4 MB and two fsyncs, which was
 * most of the server's p99 (docs/BENCHMARKS.md). Here the writer's connection
 * has no automatic checkpoint; a WAL hook (run on the writer thread after each
 * commit, with the WAL's size in frames) wakes a checkpointer thread, with a
 * connection of its own, every CKPT_EVERY new frames. Its checkpoints are
 * PASSIVE: they copy what was committed when they began, and commits go on
 * meanwhile. That alone never lets the WAL start over while commits keep
 * coming (it restarts only when every frame has been copied when a write
 * begins), so once the WAL passes CKPT_RESET frames the writer runs one PASSIVE
 * checkpoint itself between two batches: little is left to copy by then, no
 * commit can slip in, and the next batch writes the WAL from its start again.
 * At the store's close SQLite checkpoints what is left, as before.
 */
#include <pthread.h>

#include "store/store_int.h"
#include "base/util.h"

/* New WAL frames (pages) between two background checkpoints: SQLite's own default period. */
#define CKPT_EVERY 1000
/* WAL size, in frames, past which the writer checkpoints itself so that the WAL starts over (16 MiB). */
#define CKPT_RESET 4000

static void ckpt_thread(void *arg)
{
	struct store *st = arg;

	(void)pthread_setname_np(pthread_self(), "q-checkpoint");
	for (;;) {
		int log = 0, done = 0, rc;

		uv_mutex_lock(&st->ck_lock);
		while (!st->ck_want && !st->ck_quit)
			uv_cond_wait(&st->ck_cond, &st->ck_lock);
		st->ck_want = false;
		if (st->ck_quit) {
			uv_mutex_unlock(&st->ck_lock);
			break;
		}
		uv_mutex_unlock(&st->ck_lock);
		rc = sqlite3_wal_checkpoint_v2(st->ck_db, NULL, SQLITE_CHECKPOINT_PASSIVE, &log, &done);
		if (rc != SQLITE_OK && rc != SQLITE_BUSY)
			util_log(LOG_WARN, "store: checkpoint: %s", sqlite3_errmsg(st->ck_db));
		else if (rc == SQLITE_OK)
			st->ck_runs[0]++;
	}
}

/* Writer thread, after each commit: `frames` is the WAL's size. */
static int wal_hook(void *arg, sqlite3 *db, const char *name, int frames)
{
	struct store *st = arg;

	(void)name;
	if (frames < st->ck_poked) /* the WAL started over */
		st->ck_poked = 0;
	if (frames >= CKPT_RESET) {
		int log = 0, done = 0;
		/* BUSY while the checkpointer runs: the next commit tries again */
		int rc = sqlite3_wal_checkpoint_v2(db, NULL, SQLITE_CHECKPOINT_PASSIVE, &log, &done);

		if (rc != SQLITE_OK && rc != SQLITE_BUSY)
			util_log(LOG_WARN, "store: checkpoint: %s", sqlite3_errmsg(db));
		else if (rc == SQLITE_OK)
			st->ck_runs[1]++;
		st->ck_poked = 0;
		return SQLITE_OK;
	}
	if (frames - st->ck_poked >= CKPT_EVERY) {
		st->ck_poked = frames;
		uv_mutex_lock(&st->ck_lock);
		st->ck_want = true;
		uv_cond_signal(&st->ck_cond);
		uv_mutex_unlock(&st->ck_lock);
	}
	return SQLITE_OK;
}

unsigned long store_checkpoints(const struct store *st, bool by_writer)
{
	return st ? st->ck_runs[by_writer] : 0;
}

int store_ckpt_open(struct store *st, const char *path)
{
	int r = store_db_open(path, false, &st->ck_db);

	/* a checkpoint copies WAL frames through a buffer of its own: no page cache to keep */
	if (!r && (r = store_exec(st->ck_db, "PRAGMA cache_size=16", "pragmas")))
		sqlite3_close(st->ck_db);
	if (r)
		return r;
	if ((r = uv_mutex_init(&st->ck_lock))) {
		sqlite3_close(st->ck_db);
		return r;
	}
	if ((r = uv_cond_init(&st->ck_cond))) {
		uv_mutex_destroy(&st->ck_lock);
		sqlite3_close(st->ck_db);
		return r;
	}
	return 0;
}

int store_ckpt_start(struct store *st)
{
	int r = uv_thread_create(&st->ck_thread, ckpt_thread, st);

	if (r)
		return r;
	/* replaces SQLite's automatic checkpoints on the writer's connection */
	sqlite3_wal_hook(st->db, wal_hook, st);
	st->ck_started = true;
	return 0;
}

void store_ckpt_close(struct store *st)
{
	if (st->ck_started) {
		uv_mutex_lock(&st->ck_lock);
		st->ck_quit = true;
		uv_cond_signal(&st->ck_cond);
		uv_mutex_unlock(&st->ck_lock);
		if (uv_thread_join(&st->ck_thread))
			util_log(LOG_ERROR, "store: cannot join its checkpoint thread");
		st->ck_started = false;
	}
	if (sqlite3_close(st->ck_db) != SQLITE_OK)
		util_log(LOG_ERROR, "store: the checkpoint connection did not close cleanly");
	st->ck_db = NULL;
	uv_cond_destroy(&st->ck_cond);
	uv_mutex_destroy(&st->ck_lock);
}
