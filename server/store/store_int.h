/*
 * store_int.h: what the parts of the store share (not for the rest of the
 * server). store.c runs the threads and queues; store_migrate.c opens the
 * database and applies migrations; store_journal.c batches and writes the live
 * journal and loads it at start-up; store_archive.c saves and reads matches.
 *
 * Threads: the loop thread owns `open`, `cb`, `failing`, `depth` and every
 * request until it is queued; the writer thread owns `db` and the writer
 * statements after store_start(); each reader thread owns its lane's `db`
 * and statements. The queues and the done list are guarded by their mutexes.
 */
#ifndef QUINTETO_STORE_INT_H
#define QUINTETO_STORE_INT_H

#include <libpq-fe.h>
#include <sqlite3.h>

#include "store/archive_read.h"
#include "store/store.h"

/* A completion on its way back to the loop thread (embedded in its job). */
enum note_type { NOTE_BATCH_FAIL, NOTE_BATCH_DONE, NOTE_MATCH_DONE, NOTE_READ_DONE, NOTE_ACCOUNT_DONE };
struct note {
	struct note *next;
	enum note_type type;
};

/* One statement of the journal; JOP_* index the prepared statements. */
enum jop_kind {
	JOP_PLAYER,
	JOP_ROOM,
	JOP_SEAT,
	JOP_SEAT_FREE,
	JOP_ACTION,
	JOP_STARTED,
	JOP_EVENT,
	JOP_DROP,
	JOP_PLAYERS_EXPIRE,
	JOP_AFTER,
	JOP_AFTER_DROP,
	JOP_ROOM_RATED,
	JOP_AFTER_RATED,
	JOP_SESSION_SEEN,
	JOP_MAX
};

#define JOP_PARAMS 7

/* The live log's sweep (store_journal.c), run by the writer at the end of a batch. */
enum log_stmt { LOG_ENDS, LOG_COPY, LOG_CUT, LOG_MAX };

/*
 * A bound parameter: an integer, SQL NULL, or text kept in its batch's text
 * arena (`len` bytes at `off`, NUL-terminated; an offset, as the arena moves
 * when it grows).
 */
struct param {
	bool is_int, is_null;
	int64_t i;
	size_t off, len;
};

struct jop {
	enum jop_kind kind;
	int np;
	bool skip; /* PostgreSQL: refused for its own sake, left out of the batch's next attempts */
	bool solo; /* PostgreSQL: an action written by a statement of its own, not with its neighbours */
	struct param p[JOP_PARAMS];
};

enum wjob_kind { WJOB_BATCH, WJOB_MATCH, WJOB_ACCOUNT };

/*
 * A job of the writer thread: one journal batch or one archive save. A batch
 * is two arrays that only grow (its statements and their texts), so the loop
 * fills it without an allocation per write once they are large enough; a
 * committed batch is kept as the store's spare and filled again. The archive
 * saves queued while it was open are written in its transaction, after its
 * statements, and answered with its commit; an archive save queued while no
 * batch is open is a job of its own, in a transaction of its own.
 */
struct wjob {
	struct wjob *next;
	enum wjob_kind kind;
	uint64_t seq;                        /* batch */
	struct jop *ops;                     /* batch: its statements, in order */
	size_t nops, ops_cap;                /* batch */
	char *text;                          /* batch: its statements' texts */
	size_t text_len, text_cap;           /* batch */
	size_t nactions;                     /* batch: of its nops, the rows it appends to live_log */
	struct wjob *matches, *matches_tail; /* batch: archive saves in its transaction (WJOB_MATCH jobs) */
	size_t nmatches;                     /* batch */
	struct store_match *match;           /* archive save */
	struct store_acct *acct;             /* account job (store_accounts.c) */
	bool given_up;                       /* archive save in a batch: refused for its own sake, left out */
	void (*save_cb)(void *ctx, int err);
	void *ctx;
	uint64_t txn; /* PostgreSQL: its transaction's row in store_ledger (0: not tried yet) */
	int err;      /* 0 or a negative errno: the outcome, for the done note */
	int fail_err; /* the first failure, for the fail note; written once, before it is posted */
	struct note fail_note, done_note;
};

/* RJOB_IDENTITY, RJOB_RATINGS and RJOB_HELD are the lookup thread's (store_players.c: RJOB_LOOKUP()), the
 * others the archive's */
enum rjob_kind {
	RJOB_GET,
	RJOB_LIST,
	RJOB_REPLAY,
	RJOB_PLAYER,
	RJOB_LEADERBOARD,
	RJOB_IDENTITY,
	RJOB_RATINGS,
	RJOB_HELD
};
#define RJOB_LOOKUP(k) ((k) == RJOB_IDENTITY || (k) == RJOB_RATINGS || (k) == RJOB_HELD)

/* A read (the public struct store_req). */
struct store_req {
	struct store_req *next;
	enum rjob_kind kind;
	bool cancelled;  /* loop thread only */
	char *a, *b, *c; /* get, replay: id; player: name; list: game, player, result */
	int64_t before;
	int limit;
	int err; /* outputs: the outcome (store_read_cb) */
	char *body;
	size_t len;
	store_read_cb cb;
	store_identity_cb icb;     /* RJOB_LOOKUP() kinds: their callback (cb unused) */
	struct store_identity who; /* their answer */
	void *ctx;
	struct note note;
	struct store *st;        /* set when queued, for store_req_cancel() */
	struct store_lane *lane; /* the reader it is queued on (store_read_submit) */
	int64_t queued_ms;       /* mono ms when queued: a lookup's deadline counts from it */
};

/*
 * The store's readers, each a thread with its own read-only connection,
 * statements and queue: lists and player records on one, whole matches and
 * replays (whose cost grows with the match) on the other, so that the cheap
 * reads never wait behind the long ones; and the identities that say hello
 * (store_player_load) on a third, so that a hello never waits behind an
 * archive read. The first STORE_LANE_LOOKUP lanes are the archive's.
 */
enum store_lane_id { STORE_LANE_LIGHT, STORE_LANE_HEAVY, STORE_LANE_LOOKUP, STORE_LANES };

struct store_lane {
	struct store *st;
	const char *name;     /* the thread's name */
	sqlite3 *db;          /* read-only */
	PGconn *pg;           /* PostgreSQL: its own connection (NULL while it cannot connect) */
	int64_t pg_retry_at;  /* PostgreSQL, the lookup lane: mono ms, no new connection before */
	bool ar_ready;        /* PostgreSQL: `ar` is set up on `pg` */
	struct archive_db ar; /* its statements (and its replay snapshots) */
	uv_thread_t thread;
	uv_mutex_t lock;
	uv_cond_t cond;
	struct store_req *head, *tail; /* its queue (lock) */
	struct store_req *cur;         /* the read it runs (lock) */
	_Atomic bool stop;             /* cur is cancelled, or the store closes: its query stops */
	bool quit;                     /* under lock */
	int64_t deadline_at;           /* lookup lane: its read's end, mono ms (its thread's; 0: none) */
	bool late_said;                /* lookup lane: it logged a read answered unrun, past its deadline */
};

/* Writer statements, prepared once after the migrations. */
enum wstmt {
	WS_BEGIN,
	WS_COMMIT,
	WS_ROLLBACK,
	WS_MATCH,
	WS_MATCH_SEAT,
	WS_MATCH_ACTION,
	WS_MATCH_EVENT,
	WS_DROP,
	WS_RATING_GET,
	WS_RATING_PUT,
	WS_RATING_HISTORY,
	WS_RATED_SEQ,
	WS_MAX
};

struct store_pg; /* store_pg.c: the PostgreSQL backend's connections and writer state */

/*
 * The store. The backend is SQLite when `pg` is NULL, PostgreSQL otherwise:
 * everything on the loop side (batches, group commit, notes, callbacks,
 * queues, threads) is shared; only what talks to the database is not, and
 * it dispatches on `pg` at those few points (the writer's jobs, the readers'
 * connections, the start-up loads, the identity lookup, opening and closing).
 */
struct store {
	uv_loop_t *loop;
	struct store_pg *pg; /* NULL: SQLite */
	/* cluster mode (store_lease_take): set before store_start(), read by the writer; epoch 0: no lease */
	char node[64];
	int64_t epoch;
	/* store_lease.c's watcher (loop thread); NULL: no lease taken */
	struct store_lease *lease;
	sqlite3 *db;  /* the writer's */
	sqlite3 *ldb; /* the loop thread's, for start-up's identity reads (read-only; store_players.c) */
	sqlite3_stmt *jstmt[JOP_MAX];
	sqlite3_stmt *wstmt[WS_MAX];
	sqlite3_stmt *lstmt[LOG_MAX];  /* the writer's: the log's sweep */
	int64_t log_keep;              /* the writer's: rows the log keeps before its old end is swept */
	int64_t log_copied, log_swept; /* the writer's: the last batch's sweep, until it commits */
	struct store_lane lanes[STORE_LANES];
	int64_t lookup_ms; /* a hello's read's deadline from when it is queued (store_lookup_init) */
	uv_thread_t writer;
	uv_mutex_t wlock, dlock;
	uv_cond_t wcond;
	uv_async_t async;
	struct wjob *whead, *wtail; /* writer queue (wlock) */
	struct note *dhead, *dtail; /* done, for the loop (dlock) */
	bool wquit;                 /* under wlock */
	bool started, closing;
	/* loop thread */
	struct wjob *open;  /* the batch being filled, NULL when empty */
	struct wjob *spare; /* a committed batch, emptied, its arrays kept for the next */
	uint64_t last_seq;
	/* the last batch that committed (store_journal_committed) */
	uint64_t committed_seq;
	unsigned batches_out; /* flushed, their done note not delivered yet */
	store_commit_cb cb;
	void *cb_ctx;
	bool failing;
	int fail_err; /* while failing: the first failure's code */
	size_t depth;
	/* checkpoints (store_ckpt.c): the checkpointer thread owns ck_db; ck_poked is the writer's */
	sqlite3 *ck_db;
	uv_thread_t ck_thread;
	uv_mutex_t ck_lock;
	uv_cond_t ck_cond;
	bool ck_want, ck_quit; /* under ck_lock */
	bool ck_started;
	int ck_poked;                     /* the WAL's size when the checkpointer was last woken */
	_Atomic unsigned long ck_runs[2]; /* checkpoints made: [0] by the checkpointer, [1] by the writer */
};

/* First wait before a failed batch or archive save is tried again; it doubles up to a second. */
#define STORE_RETRY_FIRST_MS 5

#define CONTAINER(ptr, type, field) ((type *)(void *)((char *)(ptr)-offsetof(type, field)))

/* store.c: what store_open() and store_open_pg() share: the mutexes, conditions and async handle */
int store_sync_init(struct store *st);
/* Writer thread: whether store_close() has begun (the writer's last tries). */
bool store_writer_quitting(struct store *st);

/* store_ckpt.c */
int store_ckpt_open(struct store *st, const char *path);
int store_ckpt_start(struct store *st);
void store_ckpt_close(struct store *st);

/* store.c */
void store_note_post(struct store *st, struct note *n);
void store_wjob_submit(struct store *st, struct wjob *first, struct wjob *last);
/* Writer thread: puts the jobs first..last (linked) at the head of its queue (already counted in depth). */
void store_wjob_push_front(struct store *st, struct wjob *first, struct wjob *last);
int store_read_submit(struct store *st, struct store_req *r);
bool store_wait_retry(struct store *st, unsigned *delay_ms);
int store_rc_errno(int rc);
int store_exec(sqlite3 *db, const char *sql, const char *what);
void store_wjob_free(struct wjob *j);
/* Loop thread: an empty batch (the spare if there is one), NULL if out of memory; and its return. */
struct wjob *store_batch_new(struct store *st);
void store_batch_recycle(struct store *st, struct wjob *b);
void store_req_free(struct store_req *r);

/* store_migrate.c */
int store_db_open(const char *path, bool readonly, sqlite3 **out);
int store_migrate(sqlite3 *db, const char *dir);
/* The migration files of `dir` (NNNN_*.sql) in name order, each malloc'd, at most `max`; 0 or a negative
 * errno. */
int store_migrations_list(const char *dir, char **names, size_t max, size_t *n);
/* A whole file, NUL-terminated and malloc'd; NULL if it cannot be read. */
char *store_file_read(const char *path);

/* store_journal.c */
int store_journal_prepare(struct store *st);
void store_journal_finalize(struct store *st);
void store_journal_run(struct store *st, struct wjob *j);
/*
 * Steps a write and resets it: SQLITE_OK, or SQLite's own result code (a
 * positive SQLITE_*, not an error of ours: the writer tells a refused row
 * from a failing disk by it, and store_rc_errno() turns it into an errno).
 */
int store_step_done(sqlite3 *db, sqlite3_stmt *s, const char *what);
/*
 * Steps `actions` (ply, seat, action, outcome, at, stand_in) and `events`
 * (ply, seat, kind, at), both bound and ordered by ply, merging them by ply
 * into ops->action and ops->event; *err gets a refusing callback's value.
 * 0 or -EIO (then they are reset by the caller either way).
 */
int store_plies_load(sqlite3_stmt *actions, sqlite3_stmt *events, const struct store_live_ops *ops, void *ctx,
		     int *err);

/* store_archive.c */
int store_archive_prepare(struct store *st);
void store_archive_finalize(struct store *st);
void store_archive_run(struct store *st, struct wjob *j);
/*
 * Writer thread, inside batch b's transaction: writes its archive saves not
 * given up yet. SQLITE_OK, or the failing code: a failure of the database
 * fails the batch (retried whole); a save refused for its own sake is given
 * up (its err set, its record logged) and *redo set: the caller rolls back
 * and writes the batch again at once, without it.
 */
int store_archive_batch(struct store *st, struct wjob *b, bool *redo);
/*
 * Writer thread, batch b having failed: its archive saves not given up leave
 * it for jobs of their own, first in the queue (right after b, as they were
 * before they went into batches), so that the batch is retried alone and a
 * disk too full for an archive does not hold the frames of the batch's turns
 * (disk_faults). False if it had none.
 */
bool store_archive_unbatch(struct store *st, struct wjob *b);
/* Writer thread: batch b is given up at close: its archive saves are logged as not archived. */
void store_archive_lost(struct wjob *b);
/* Logs a match not archived (its identity and seeds as one JSON line), so an operator can find it. */
void store_archive_log_record(const struct store_match *m);
void store_read_run(struct store_lane *ln, struct store_req *r);

/* store_lease.c: the lease watcher's handles closed and its memory freed (store_close); NULL-safe. */
void store_lease_close(struct store *st);

/* store_players.c: the loop thread's own read-only connection (start-up). 0 or -EIO; close: NULL-safe. */
int store_players_open(struct store *st, const char *path);
void store_players_close(struct store *st);

/*
 * store_pg.c, store_pg_load.c: the PostgreSQL backend (docs/SCALING.md).
 * Writer thread: runs job j (a journal batch or an archive save) until it
 * commits, is fenced, or the store closes, as store_journal_run() and
 * store_archive_run() do on SQLite.
 */
void store_pg_run(struct store *st, struct wjob *j);
/* Reader thread: the lane's connection and archive reads ready (reconnecting); 0 or -EIO. */
int store_pg_lane_ready(struct store_lane *ln);
/* store_close(): every connection closed, the backend's state freed. */
void store_pg_close(struct store *st);
int store_pg_load_players(struct store *st, const struct store_live_ops *ops, void *ctx);
int store_pg_load_live(struct store *st, const struct store_live_ops *ops, void *ctx);
int store_pg_load_after(struct store *st, const struct store_after_ops *ops, void *ctx);
/*
 * The identity read's query (both backends; `p` is the parameter's
 * spelling): the token of an account's session first, then a guest's token,
 * with the account's handle ('' for a guest), and a row per rating of the
 * identity (game NULL for none): id, name, handle, game, rating, rd, matches.
 * STORE_RATINGS_SQL: the same columns for the identity with id `p`.
 */
#define STORE_IDENTITY_SQL(p)                                                                              \
	"WITH who(id, name, handle) AS (SELECT p.id, p.name, COALESCE(a.handle, '') FROM sessions s "      \
	"JOIN players p ON p.id = s.player_id LEFT JOIN accounts a ON a.player_id = p.id "                 \
	"WHERE s.token_hash = " p " UNION ALL SELECT p.id, p.name, COALESCE(a.handle, '') FROM players p " \
	"LEFT JOIN accounts a ON a.player_id = p.id WHERE p.token_hash = " p " LIMIT 1) "                  \
	"SELECT who.id, who.name, who.handle, r.game, r.rating, r.rd, r.matches FROM who "                 \
	"LEFT JOIN ratings r ON r.player_id = who.id ORDER BY r.game"
#define STORE_RATINGS_SQL(p)                                                                             \
	"SELECT p.id, p.name, COALESCE(a.handle, ''), r.game, r.rating, r.rd, r.matches FROM players p " \
	"LEFT JOIN accounts a ON a.player_id = p.id LEFT JOIN ratings r ON r.player_id = p.id "          \
	"WHERE p.id = " p " ORDER BY r.game"

/*
 * The seats identity $1 holds in live rooms journalled by a node other than
 * $2 (cluster mode: store.h's struct store_held): room, seat, game, node,
 * the newest rooms first. live_seats_player finds the identity's seats.
 */
#define STORE_HELD_STR_(x) #x
#define STORE_HELD_STR(x)  STORE_HELD_STR_(x)
#define STORE_HELD_SQL                                                                                      \
	"SELECT s.room_id, s.seat, r.game, r.node FROM live_seats s JOIN live_rooms r ON r.id = s.room_id " \
	"WHERE s.player_id = $1 AND r.node <> $2 ORDER BY r.created_at DESC, r.id LIMIT " STORE_HELD_STR(   \
		STORE_HELD_MAX)

/*
 * A lookup lane's read (store_player_load and the other RJOB_LOOKUP() kinds)
 * gets this long from when it is queued, its wait behind the reads before it
 * included, connecting and SQLite's busy waits too: a read queued longer is
 * answered -EIO unrun, a read that runs past it is stopped (-EIO). A
 * database that answers slowly or not at all makes the hellos behind it
 * `unavailable` within about this long, not this long each in turn.
 */
#define STORE_LOOKUP_MS 5000

/*
 * store_players.c: the lookup lane runs the RJOB_LOOKUP() kinds (reader
 * thread), unless cancelled (ln->stop) or queued past st->lookup_ms.
 * store_lookup_init(): st->lookup_ms, STORE_LOOKUP_MS or
 * $QUINTETO_TEST_HELLO_READ_MS (tests). store_lookup_busy_cb(): the lookup
 * lane's SQLite busy handler, which waits no longer than its read's deadline
 * (`arg` is the lane). store_lookup_now(): mono ms. store_identity_add(): one
 * row of those queries into *who (the first fills id, name and handle; a row
 * with a game adds a rating); 0 or -ENOMEM. store_held_add(): one row of
 * STORE_HELD_SQL (columns as text) into *l; 0, -EIO (a row not of its shape)
 * or -ENOMEM. store_held_clear() empties *l.
 */
void store_lookup_init(struct store *st);
void store_lookup_run(struct store_lane *ln, struct store_req *r);
int store_lookup_busy_cb(void *arg, int count);
int64_t store_lookup_now(void);
int store_identity_add(struct store_identity *who, const char *id, const char *name, const char *handle,
		       const char *game, double rating, double rd, int64_t matches);
int store_held_add(struct store_held_list *l, const char *room, const char *seat, const char *game,
		   const char *node);
void store_held_clear(struct store_held_list *l);
/*
 * store_pg.c: the same reads on PostgreSQL. store_pg_identity(): on the
 * lookup lane's connection, the read of `kind` (RJOB_RATINGS:
 * STORE_RATINGS_SQL by id; RJOB_IDENTITY: STORE_IDENTITY_SQL by token hash,
 * then in cluster mode STORE_HELD_SQL for the identity found; RJOB_HELD:
 * STORE_HELD_SQL alone for the id `arg`), all within one deadline;
 * store_pg_player_read(): on the loop thread's (start-up and adoption). 0,
 * STORE_E_NOT_FOUND, -ENOMEM or -EIO (RJOB_IDENTITY: not for its seats, whose
 * failure leaves who->held unread).
 */
int store_pg_identity(struct store_lane *ln, enum rjob_kind kind, const char *arg,
		      struct store_identity *who);
int store_pg_player_read(struct store *st, const char *token_hash, struct store_identity *who);

/* store_accounts.c: the writer runs an account job */
void store_acct_run(struct store *st, struct wjob *j);
/* The writer's connection before store_start() (the loads run on it); NULL if it is not connected. */
PGconn *store_pg_conn(struct store *st);
/* Applies migrations/postgres in order under an advisory lock, each in a transaction. 0 or -EIO. */
int store_pg_migrate(PGconn *c, const char *dir);

#endif
