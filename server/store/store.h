/*
 * store.h: the server's durable store: player identities, the live journal
 * and the match archive, on SQLite (store_open()) or PostgreSQL
 * (store_open_pg(): docs/SCALING.md, "The store"), the same contract on both.
 * All SQL of the server lives behind this header. What follows says SQLite;
 * PostgreSQL's writer, readers and lookup have connections of their own the
 * same way.
 *
 * Opening (pragmas, migrations) and the start-up loads are synchronous, before
 * store_start(). After that the event loop never waits on the disk: journal
 * writes and archive saves run in order on a writer thread with its own
 * connection; archive reads run on two reader threads, each with its own
 * read-only connection (WAL lets them read while the writer writes), so a
 * flood of reads never delays a journal commit: lists and player records on
 * one, whole matches and replays on the other, so that a long replay never
 * delays a list. Results come back on the loop thread.
 *
 * Errors (docs/ARCHITECTURE.md): 0, a negative errno for a system or
 * database failure, or a STORE_E_* code, negative in the store's band
 * -1200..-1299, for an expected outcome (store_strerror() names them). The
 * store answers with codes, never HTTP statuses: net/http.c chooses those.
 */
#ifndef QUINTETO_STORE_H
#define QUINTETO_STORE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <uv.h>

#include "rating/rating.h"

struct store;
struct store_req;

/* The store's own outcomes: the band -1200..-1299. */
enum store_error {
	STORE_E_CLOSED = -1200, /* the store is closed or closing: a request not queued, or a read not run */
	STORE_E_NOT_FOUND = -1201,   /* no such archived match, player or identity */
	STORE_E_BAD_REQUEST = -1202, /* a read that cannot be answered as asked (the reason in its answer) */
	STORE_E_UNVERIFIED = -1203,  /* an archived match does not verify: its replay disagrees with it */
	STORE_E_NOT_QUINTETO =
		-1204,           /* the database is not one of this version (not migrated, or not ours) */
	STORE_E_FENCED = -1205,  /* cluster: this node's lease was taken over; it must never write again */
	STORE_E_TAKEN = -1206,   /* accounts: another account has this handle key */
	STORE_E_STALE = -1207,   /* accounts: the account changed (its password) since it was read */
	STORE_E_CLAIMED = -1208, /* accounts: a claim of an identity that is an account already */
	/* accounts: the requester's session was ended (elsewhere) meanwhile */
	STORE_E_SIGNED_OUT = -1209,
};

/* What a code means, for people and logs: a STORE_E_*, or an errno (strerror's text). */
const char *store_strerror(int code);

struct store_seat {
	int seat;
	char *role, *name, *player_id, *client_seed; /* player_id NULL for bots */
	bool bot;
	bool abandoned; /* the player left it to a stand-in or the clock and never came back */
};

struct store_action {
	int ply, seat;
	int64_t at;
	char *action, *outcome; /* compact JSON */
	bool stand_in;          /* a stand-in made it, not the seat's player */
};

/* A resignation or forfeit: `kind` is an enum rules_event_kind (1 resign, 2 forfeit). */
struct store_event {
	int ply, seat, kind; /* ply: the number of actions before it */
	int64_t at;
};

/*
 * Texts kept in blocks, a chain of them newest first, instead of an
 * allocation each: a room's log keeps its actions' texts this way (one block
 * in a while instead of two allocations an action) and hands the whole chain
 * to its archive record. Blocks double up to 64 KiB; a text never moves.
 */
struct store_texts {
	struct store_texts *next;
	size_t used, cap;
	char data[];
};

/* A NUL-terminated copy of the `n` bytes at `p` in *t (a block added when full); NULL if out of memory. */
char *store_texts_add(struct store_texts **t, const char *p, size_t n);
/* Frees the chain; NULL does nothing. */
void store_texts_free(struct store_texts *t);

/* A finished match, ready for the archive; store_match_save() takes it. */
struct store_match {
	char *id, *game, *options, *commit, *server_seed, *client_seeds, *result; /* JSON where it is JSON */
	int64_t started_at, ended_at;
	struct store_seat *seats;
	int nseats;
	struct store_action *actions;
	size_t nactions;
	struct store_event *events; /* in order: by ply, then as they happened */
	size_t nevents;
	struct store_texts *texts; /* if set, every action's texts are in it (not freed one by one) */
	/*
	 * A rated match (PROTOCOL.md, Rated rooms): the transaction that archives
	 * it also applies it to its seats' ratings (rating_apply() on the rows of
	 * `ratings` it reads there, RATING_INIT for none), writes `ratings` and
	 * `rating_history`, and numbers it (matches.rated_seq: the last + 1).
	 * Every seat must have a player_id. place[]: rules_standing() of its end.
	 */
	bool rated;
	uint8_t place[RATING_MAX_SEATS];
	/* written by the writer when it committed (the done callback reads them): each seat's new rating */
	struct rating after[RATING_MAX_SEATS];
	int64_t rated_seq;
};

/* Frees a match record and everything it owns; NULL does nothing. */
void store_match_free(struct store_match *m);

/*
 * Opens (creating) the database at `path`, creating its folder, applies the
 * migrations in `migrations_dir` in order, each in a transaction, and opens
 * the read-only connection. Threads start with store_start(). Returns 0 or a
 * negative errno (-EIO for a database failure) with the reason logged.
 */
int store_open(uv_loop_t *loop, const char *path, const char *migrations_dir, struct store **out);

/*
 * The same store on PostgreSQL (the setting store "postgres"; docs/SCALING.md):
 * `conninfo` is libpq's, the migrations are the .sql files of `migrations_dir`/postgres,
 * applied in order, each in a transaction, under an advisory lock (nodes
 * starting together migrate once). Every function of this header behaves as
 * with SQLite: the same contract (frames held until their batch commits, group
 * commit, retry with back-off while the database fails or is away, -EIO for
 * a database that cannot be reached), the same codes, the same JSON. 0 or a
 * negative errno with the reason logged.
 */
int store_open_pg(uv_loop_t *loop, const char *conninfo, const char *migrations_dir, struct store **out);

/* Starts the writer and the reader threads; work queued before runs then. 0 or a negative errno. */
int store_start(struct store *st);

/*
 * Flushes the open journal batch, writes everything queued (a failing batch
 * is tried once more, then logged as lost), answers the reads still queued,
 * stops the threads and closes the database. Callbacks run inside it.
 * NULL does nothing.
 */
void store_close(struct store *st);

/* Writer jobs, journal batches and reads not yet answered (a gauge). */
size_t store_queue_depth(const struct store *st);

/* --- the live journal ---------------------------------------------------- */

/*
 * Journal writes are queued into the open batch (loop thread, no I/O) and
 * written by store_journal_flush(): everything between two flushes is one
 * transaction. Statements are prepared once for the life of the store.
 * Rooms not yet archived, their seats, accepted actions and events, so a
 * restart resumes every room and seat; archiving a match drops its journal
 * in the same transaction. Strings are copied; NULL is SQL NULL.
 */
void store_player_save(struct store *st, const char *id, const char *token_hash, const char *name);
/* An account's session said hello at `now`: its seen_at (the sessions list; the 21st ends the least seen). */
void store_session_seen(struct store *st, const char *token_hash, int64_t now);
/*
 * Journals the deletion of identities not seen since `before` (Unix ms) that
 * hold no seat, created no live room and played no archived match.
 */
void store_players_expire(struct store *st, int64_t before);
/* creator_id: the player who created the room (r2: it may add bots without a seat); NULL: none */
void store_live_room(struct store *st, const char *id, const char *game, const char *options,
		     const char *server_seed, const char *creator_id, int64_t created_at);
/* bot_level: a bot's add_bot level (player_id NULL); NULL for a human */
void store_live_seat(struct store *st, const char *room, int seat, const char *player_id,
		     const char *client_seed, const char *bot_level);
void store_live_seat_free(struct store *st, const char *room, int seat);
void store_live_action(struct store *st, const char *room, int ply, int seat, const char *action,
		       const char *outcome, int64_t at, bool stand_in);
void store_live_started(struct store *st, const char *room, int64_t started_at);
/* A resignation or forfeit at `ply` (the room's action count); kind: enum rules_event_kind. */
void store_live_event(struct store *st, const char *room, int ply, int seat, int kind, int64_t at);
void store_live_drop(struct store *st, const char *room);

/*
 * What a room's seated players set beside the match (migration 0011): one
 * row per room, written whole at each change, kept past the archiving of the
 * match until store_live_after_drop() (the room goes). bot_levels and mutes:
 * JSON arrays in seat order; rematch: JSON {status, by, accepted, expires_at,
 * room}, or NULL for none.
 */
void store_live_after(struct store *st, const char *room, int64_t created_at, const char *creator_id,
		      const char *bot_levels, const char *mutes, const char *rematch);
void store_live_after_drop(struct store *st, const char *room);

/*
 * A rated room (PROTOCOL.md, Rated rooms): store_live_rated() marks its
 * live_rooms row (queued after store_live_room()), store_live_after_rated()
 * its live_after row (after each store_live_after(), which writes the row
 * whole). A restart restores the flag (store_live_ops.on_rated).
 */
void store_live_rated(struct store *st, const char *room);
void store_live_after_rated(struct store *st, const char *room);

/*
 * Closes the open batch and hands it to the writer thread (one wake-up).
 * Returns its seq (1, 2, ...), 0 if it was empty (nothing is queued then).
 */
uint64_t store_journal_flush(struct store *st);

/*
 * The end of a loop turn: group commit. Flushes the open batch when no
 * batch is in flight and returns its seq; otherwise returns 0 and the open
 * batch keeps gathering the writes of the turns to come until the batch in
 * flight commits (its completion wakes the loop, whose next turn sends
 * them). One transaction in flight at a time: the writer never queues many
 * small transactions behind a slow one, each batch takes everything that
 * waited for it, and a write waits for at most one commit before its own.
 */
uint64_t store_journal_turn(struct store *st);

/*
 * Called on the loop thread when batch `seq` committed (err 0) or failed
 * (err < 0, once per failing batch: it is kept whole and retried with
 * back-off until it commits, then err 0 follows; if the store closes first,
 * it is logged as lost and no further call comes). Batches commit in seq
 * order; a later one waits behind a failing one. err < 0 is -ENOSPC (disk
 * full), -EROFS, -EBUSY, -ENOMEM or -EIO.
 */
typedef void (*store_commit_cb)(void *ctx, uint64_t seq, int err);
void store_on_commit(struct store *st, store_commit_cb cb, void *ctx);

/* True from a batch's failure until it commits. */
bool store_journal_failing(const struct store *st);
/*
 * WAL checkpoints made so far by the checkpointer thread (false) or by the
 * writer itself, to let the WAL start over (true). Any thread.
 */
unsigned long store_checkpoints(const struct store *st, bool by_writer);

/*
 * While the journal fails: why, as store_commit_cb's err (-ENOSPC, -EROFS,
 * -EBUSY, -ENOMEM or -EIO); 0 otherwise. For /readyz and the log.
 */
int store_failure(const struct store *st);

/* What a store_failure() code means, for people ("the disk is full"). */
const char *store_failure_text(int err);

/*
 * The batch that must commit for every journal write queued so far to be
 * durable: the open batch's seq-to-be if it has writes, else the last one
 * flushed (0: none yet). Loop thread.
 */
uint64_t store_journal_needed(const struct store *st);

/* The last batch that committed (0: none yet); every write of a batch up to it is durable. Loop thread. */
uint64_t store_journal_committed(const struct store *st);

/* --- start-up restore (synchronous, before store_start) ------------------- */

struct store_live_ops {
	int (*on_player)(void *ctx, const char *id, const char *token_hash, const char *name);
	int (*on_room)(void *ctx, const char *id, const char *game, const char *options,
		       const char *server_seed, const char *creator_id /* NULL: unknown */,
		       int64_t created_at, int64_t started_at /* 0: not started */);
	int (*on_seat)(void *ctx, int seat, const char *player_id /* NULL: bot */,
		       const char *client_seed /* NULL */,
		       const char *bot_level /* NULL: human, or random */);
	int (*on_action)(void *ctx, int ply, int seat, const char *action, const char *outcome, int64_t at,
			 bool stand_in);
	/* merged with actions by ply: an event at ply p comes after action p-1 and before action p */
	int (*on_event)(void *ctx, int ply, int seat, int kind, int64_t at);
	/* once per on_room() call, whatever it returned; err != 0: a callback refused (its value), the
	   room's journal is kept */
	void (*on_room_end)(void *ctx, int err);
	/* optional: right after an on_room() that returned 0, when the room is rated (live_rooms.rated,
	   or for an archived room of store_load_after(), the match's or live_after's rated) */
	void (*on_rated)(void *ctx);
};

/* Every player identity through ops->on_player; a non-zero return stops and is returned. 0 or -EIO. */
int store_load_players(struct store *st, const struct store_live_ops *ops, void *ctx);

/*
 * Every live room, oldest first: room, its seats by seat, its actions and
 * events merged by ply, room_end. A refusing callback skips the rest of that
 * room only. 0, or -EIO when the database cannot be read.
 */
int store_load_live(struct store *st, const struct store_live_ops *ops, void *ctx);

/*
 * Start-up, after store_load_live(): every room with a live_after row, as
 * ops->on_after(). A room still in the journal was restored by
 * store_load_live() already (archived false). A room whose match is archived
 * and no longer in the journal (a finished room that lingers) is rebuilt
 * first from the archive through ops->live: player (the identities of its
 * seats not known yet: the callback skips known ones), room, seat (with the
 * bot levels of the row), its actions and events merged by ply; room_end is
 * not called: ops->on_after() (archived true, the match's ended_at) ends it,
 * also when a live callback refused (err). A row whose room is in neither
 * comes with archived false too. 0 or -EIO.
 */
struct store_after_ops {
	struct store_live_ops live;
	int (*on_after)(void *ctx, const char *room, bool archived, int64_t ended_at, const char *mutes,
			const char *rematch, int err);
};
int store_load_after(struct store *st, const struct store_after_ops *ops, void *ctx);

/* --- the archive --------------------------------------------------------- */

/*
 * Archives a finished match in one transaction on the writer thread, after
 * every journal write queued before it, and drops its journal. Takes `m` on
 * every path. done(ctx, err) runs on the loop (also when it could not be
 * queued): err 0 (archived), STORE_E_CLOSED or a negative errno.
 */
void store_match_save(struct store *st, struct store_match *m, void (*done)(void *ctx, int err), void *ctx);

/*
 * Read callbacks get the read's outcome, as the archive_db_* functions answer
 * it (archive_read.h: 0, STORE_E_NOT_FOUND, STORE_E_BAD_REQUEST,
 * STORE_E_UNVERIFIED, a negative errno; STORE_E_CLOSED when the store closed
 * before the read ran: shutdown abandons the queue) and its JSON body, the
 * answer or an error {error, code, message}, which they take ownership of
 * (malloc'd, NUL-terminated; NULL when out of memory).
 */
typedef void (*store_read_cb)(void *ctx, int err, char *body, size_t len);

/*
 * GET /api/matches/{id} and GET /api/matches (game/player may be NULL; before
 * 0 = from the newest). They run on a reader thread. The returned handle is
 * valid until the callback runs or store_req_cancel(); NULL when the request
 * could not be queued (out of memory, store closed): cb is never called then.
 */
struct store_req *store_match_get(struct store *st, const char *id, store_read_cb cb, void *ctx);
struct store_req *store_match_list(struct store *st, const char *game, const char *player, int64_t before,
				   int limit, store_read_cb cb, void *ctx);

/*
 * GET /api/matches with every filter (struct archive_query, below;
 * its strings are copied), GET /api/matches/{id}/replay (the steps, recomputed
 * on a reader thread) and GET /api/players/{name}. Same handles and
 * callbacks as above.
 */
/* What GET /api/matches filters by; NULL or 0 for "any". */
struct archive_query {
	const char *game;
	const char *player; /* a name the player played under */
	const char *result; /* "draw", "won" / "lost" (with player), or a result reason */
	int64_t before;     /* the cursor: list matches archived before it */
	int limit;          /* 1..100 */
};

#define ARCHIVE_LIMIT_MAX 100
#define ARCHIVE_STEPS_MAX 200 /* steps in a page of a replay */
#define ARCHIVE_BOARD_MAX 200 /* players in a page of the leaderboard */

/* Checks a `result` filter: "draw", "won", "lost" or a reason (1..24 of [a-z_]). */
bool archive_result_valid(const char *result);

struct store_req *store_match_find(struct store *st, const struct archive_query *q, store_read_cb cb,
				   void *ctx);
/* The replay's page: steps [from, from + limit) (archive_db_replay, archive_read.h). */
struct store_req *store_match_replay(struct store *st, const char *id, size_t from, size_t limit,
				     store_read_cb cb, void *ctx);
struct store_req *store_player_get(struct store *st, const char *name, store_read_cb cb, void *ctx);
/* GET /api/leaderboard: game one of the registry's, limit 1..ARCHIVE_BOARD_MAX (else NULL). */
struct store_req *store_leaderboard(struct store *st, const char *game, int limit, store_read_cb cb,
				    void *ctx);

/*
 * The request's callback will not be called; the store frees it. A read
 * still queued leaves the queue unrun; a running one has its query stopped.
 * True in those two cases (the read is dropped), false when it had been
 * answered already or req is NULL.
 */
bool store_req_cancel(struct store_req *req);

/*
 * handle.c: an account's handle (PROTOCOL.md "Accounts and ratings",
 * docs/ACCOUNTS.md): the rules a handle must follow and the key two handles
 * are compared by. A handle is 3..20 characters: ASCII letters and digits,
 * `_`, `-`, and the Latin letters with accents that name_fold() folds to one
 * ASCII letter (`á`, `ñ`, `ç`, `ø`); the first is a letter. Everything else is
 * refused, so a handle can only look like another when their keys are equal:
 * other scripts (Cyrillic `а`, Greek `ο`), fullwidth forms, spaces, symbols,
 * invisible and combining characters. The key is the handle folded
 * (name_fold: lower case, no accents) with `0` read as `o`, `1` as `l` and
 * `-` as `_`.
 *
 * Must not: allocate or depend on the locale.
 */
#define HANDLE_MIN_CHARS 3
#define HANDLE_MAX_CHARS 20
/* Bytes of a handle (and of its key, never longer) with its NUL: 20 characters of at most 3 bytes. */
#define HANDLE_SIZE (HANDLE_MAX_CHARS * 3 + 1)

/*
 * Checks the NUL-terminated `handle` and writes its key into `key` (room for
 * HANDLE_SIZE bytes). NULL when it is a handle; otherwise a sentence saying
 * which rule it breaks (static text, for the `bad_handle` message), `key`
 * then unspecified.
 */
const char *handle_check(const char *handle, char key[HANDLE_SIZE]);

/* --- seats held on other nodes (store_players.c) ------------------------------ */

/*
 * Cluster mode (a store with a node's lease: store_lease_take()): the seats
 * an identity holds in live rooms that other nodes journal (live_seats of
 * the live_rooms rows whose node is set and is not this store's), the
 * newest rooms first, at most STORE_HELD_MAX (a player's seats are not
 * otherwise capped: the lobby caps only the rooms it opens, 50 by default).
 * `node` is the room's live_rooms.node: the node that journals it, the
 * adopter once a dead node's rooms were adopted. PROTOCOL.md's
 * `welcome.elsewhere` is made of them.
 */
#define STORE_HELD_MAX 50

struct store_held {
	char room[33], game[32], node[33];
	int seat;
};

struct store_held_list {
	struct store_held *rows; /* malloc'd, the store's; NULL when none */
	size_t n;
	bool read; /* they were read (cluster mode, and the read answered); else n is 0 */
};

/* --- accounts (store_accounts.c; PROTOCOL.md "Accounts and ratings") ------ */

/*
 * Every account change and read is one job of the writer thread (its own
 * transaction on SQLite, its own blocking connection on PostgreSQL), queued
 * behind the journal writes before it, answered on the loop: a change is
 * committed before its callback runs, or not made at all (err != 0). The
 * loop thread never waits on it.
 */
enum store_acct_kind {
	STORE_ACCT_CLAIM,    /* player_id, name, handle, key, pw_hash, token_hash, session_id, device, now */
	STORE_ACCT_FIND,     /* key -> the account row (player_id, handle, name, pw_hash, created_at) */
	STORE_ACCT_VIEW,     /* player_id -> the account row, sessions, ratings */
	STORE_ACCT_SIGN_IN,  /* player_id, pw_hash (as read: else STORE_E_STALE), token_hash, session_id,
				device,  now, max_sessions -> ended (the oldest sessions past max_sessions) */
	STORE_ACCT_END,      /* player_id, session_id, or all but token_hash (session_id "") -> ended */
	STORE_ACCT_PASSWORD, /* player_id, pw_hash (new), token_hash (kept), now -> ended (every other
				session) */
	STORE_ACCT_DELETE,   /* player_id -> ended (every session); archived seats renamed (deleted) */
	STORE_ACCT_CHECK,    /* check[0..ncheck) (token hashes, at most STORE_CHECK_MAX) -> ended: those of
				them that are no session (any more) */
};

/*
 * END (of a session_id), PASSWORD, DELETE and VIEW with a token_hash act for the connection of that
 * session: each first checks, in its transaction, that the session is still there (holding its row on
 * PostgreSQL); when it is not, nothing changes and err is STORE_E_SIGNED_OUT. END without a session_id
 * (sign_out: the requester's own) answers STORE_E_NOT_FOUND for a session gone, as before. An empty
 * token_hash (the rated push's VIEW) checks nothing. CHECK looks up only 64 lowercase hex digits.
 */
#define STORE_CHECK_MAX 256

#define STORE_HANDLE_SIZE  64  /* a handle and its key: 20 characters of up to 3 bytes, NUL */
#define STORE_PW_HASH_SIZE 128 /* crypto_pwhash_STRBYTES */
#define STORE_DEVICE_SIZE  260 /* 64 characters of up to 4 bytes, NUL */

struct store_session {
	char id[16], token_hash[65], device[STORE_DEVICE_SIZE];
	int64_t created_at, seen_at;
};

struct store_rating {
	char game[32];
	double rating, rd;
	int64_t matches;
};

struct store_acct {
	enum store_acct_kind kind;
	/* in (and out: FIND and VIEW fill the account row) */
	char player_id[16], name[100], handle[STORE_HANDLE_SIZE], key[STORE_HANDLE_SIZE];
	char pw_hash[STORE_PW_HASH_SIZE], token_hash[65], session_id[16], device[STORE_DEVICE_SIZE];
	int64_t now, created_at;
	int max_sessions;
	char (*check)[65]; /* CHECK: the token hashes to look up (malloc'd; freed with the request) */
	size_t ncheck;
	/* out: 0, STORE_E_NOT_FOUND, STORE_E_TAKEN, STORE_E_STALE, STORE_E_CLAIMED, STORE_E_SIGNED_OUT,
	 * STORE_E_CLOSED or a negative errno */
	int err;
	struct store_session *sessions; /* VIEW, and after every change but DELETE: newest seen first */
	size_t nsessions;
	struct store_rating *ratings; /* VIEW, CLAIM, SIGN_IN: by game */
	size_t nratings;
	char (*ended)[65]; /* the token hashes of the sessions a change ended */
	size_t nended;
	struct store_held_list held; /* SIGN_IN in cluster mode: the seats held on other nodes */
	void (*cb)(void *ctx, struct store_acct *a); /* on the loop; the callee then owns `a` */
	void *ctx;
};

/* A zeroed request; NULL on ENOMEM. store_acct_free() frees it and its outputs (NULL: nothing). */
struct store_acct *store_acct_new(enum store_acct_kind kind);
void store_acct_free(struct store_acct *a);

/*
 * Queues `a` (taken) behind every journal write queued so far (the open
 * batch is flushed first). a->cb runs on the loop with a->err set, also when
 * it could not be queued (STORE_E_CLOSED).
 */
void store_acct_submit(struct store *st, struct store_acct *a);

/* --- identities by token (store_players.c) ------------------------------------- */

/*
 * An identity as the store knows it: its id, name and handle ("" for a
 * guest), and its ratings (an account's; a guest has none), read together in
 * one statement, so they agree; in cluster mode, also the seats it holds on
 * other nodes (a second statement of the same read).
 */
struct store_identity {
	char id[16], name[100], handle[STORE_HANDLE_SIZE];
	struct store_rating *ratings; /* by game; NULL when none (malloc'd, the store's) */
	size_t nratings;
	struct store_held_list held; /* store_player_load(), store_held_load(): not read elsewhere */
};

/* The answer of a load: err 0 (who filled), STORE_E_NOT_FOUND, STORE_E_CLOSED or -EIO; who is borrowed. */
typedef void (*store_identity_cb)(void *ctx, int err, const struct store_identity *who);

/*
 * The identity whose session or guest token has this hash (sessions first,
 * then players.token_hash), with its ratings: store_player_load(); the
 * identity `player_id` with its ratings: store_ratings_load() (a rated
 * match's figures read again). Both run on the store's lookup thread (its
 * own read-only connection on SQLite, its own connection on PostgreSQL) and
 * answer on the loop, -EIO past store_lookup_deadline_ms() from when they
 * were queued (a slow database: the reads queued behind a slow one are
 * answered unrun, not each given the whole deadline in turn); one written
 * in a batch not yet committed is not found. The handle is a store_req, as
 * the archive reads': valid until cb runs or store_req_cancel() (after which
 * cb never runs); NULL when it could not be queued (out of memory, store
 * closed): cb is not called then.
 */
struct store_req *store_player_load(struct store *st, const char *token_hash, store_identity_cb cb,
				    void *ctx);
struct store_req *store_ratings_load(struct store *st, const char *player_id, store_identity_cb cb,
				     void *ctx);
/* Those reads' deadline, ms from when they are queued (STORE_LOOKUP_MS or a test's); st may be NULL. */
int64_t store_lookup_deadline_ms(const struct store *st);

/*
 * Cluster mode: store_player_load() also reads the seats the identity holds
 * on other nodes (who->held; not read, held.read false, when that second
 * statement fails: the identity is still answered). store_held_load() reads
 * only them, for the identity `player_id` (who->id), on the same thread
 * with the same deadline: err 0 (who->held filled) or -EIO. Outside cluster
 * mode neither reads them (held.read false, err 0).
 */
struct store_req *store_held_load(struct store *st, const char *player_id, store_identity_cb cb, void *ctx);

/*
 * store_player_load()'s read, synchronous on the calling thread: start-up
 * only (lobby_restore(), before the loop serves; and a cluster's adoption,
 * whose whole load is synchronous), on a connection of the loop thread's
 * own. 0 (*who filled; store_identity_finish() frees its ratings),
 * STORE_E_NOT_FOUND or -EIO.
 */
int store_player_read(struct store *st, const char *token_hash, struct store_identity *who);
void store_identity_finish(struct store_identity *who);

/*
 * For the command line (`quinteto account reset-password`): sets the
 * password hash of the account whose key is `key` and ends all its sessions,
 * in one transaction, synchronously on `db` (a read-write sqlite3 *) or, when
 * it is NULL, on `pg` (a PGconn *). 0, STORE_E_NOT_FOUND or a negative errno;
 * *ended set to the sessions ended.
 */
int store_acct_reset_password(void *db, void *pg, const char *key, const char *pw_hash, int64_t now,
			      int *ended);

/* --- cluster mode: node leases (PostgreSQL only; docs/SCALING.md) --------- */

/*
 * Takes node `node`'s lease in the table node_leases (synchronously, before
 * store_load_*() and store_start()): a new epoch, one more than the row's
 * last, whoever held it. From then on the store is this node's: rooms it
 * journals carry the node's name (live_rooms.node), store_load_live() loads
 * only the node's own rooms, and every transaction it writes (journal batch,
 * archive save) first checks, holding the lease row FOR SHARE, that the
 * row's epoch is still this one; when it is not, the write fails with
 * STORE_E_FENCED, is not retried, and store_commit_cb gets STORE_E_FENCED.
 * 0, -ENOTSUP (SQLite), or -EIO.
 */
int store_lease_take(struct store *st, const char *node, int lease_ms);

enum store_lease_event {
	STORE_LEASE_LOST,    /* this node's lease was taken over (or cannot be renewed in time): stop */
	STORE_LEASE_ADOPTED, /* this node took over dead node `node`'s rooms: store_load_live() loads them */
};
typedef void (*store_lease_cb)(void *ctx, enum store_lease_event ev, const char *node);

/*
 * After store_start(): renews the lease (every lease_ms / 3) and watches the
 * other nodes' leases; a lease expired for lease_ms is taken over by one
 * survivor (epoch + 1, its rooms' live_rooms.node set to the survivor, in one
 * transaction), which is then told STORE_LEASE_ADOPTED. Never waits on the
 * loop (libpq's non-blocking mode on a connection of its own).
 */
void store_lease_watch(struct store *st, store_lease_cb cb, void *ctx);

/*
 * One database, one server (dblock.c). A server holds an exclusive flock(2)
 * on a lock file beside its database ("<db>.lock") for as long as it runs;
 * a second server on the same database finds it held and does not start,
 * naming the holder (the lock file says which process, on which addresses,
 * since when). The kernel drops the lock when the process ends, SIGKILL
 * included, so a lock file left behind never blocks a start. The
 * command-line tools only read the database and take no lock. The lock
 * never touches the database itself (SQLite's own locks are separate).
 */
struct config;

/* The lock held: its descriptor, or -1. */
struct dblock {
	int fd;
};

/*
 * Takes the lock of cfg->db_path and writes who holds it. 0; -EBUSY when
 * another process holds it (its description in why); another negative errno
 * when the lock file cannot be made (the reason in why). *l is set on success.
 */
int dblock_take(struct dblock *l, const struct config *cfg, char *why, size_t whylen);

/* Lets the lock go; safe on a lock never taken (fd -1). */
void dblock_release(struct dblock *l);

#endif
