/*
 * store.h: the SQLite archive. Opening (pragmas, migrations, loading player
 * identities) is synchronous at start-up; after that every statement runs on
 * the store's own thread with its own connection, so the event loop never
 * waits on the disk. Results come back on the loop through a uv_async_t.
 */
#ifndef QUINTETO_STORE_H
#define QUINTETO_STORE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <uv.h>

struct store;
struct store_req;

struct store_seat {
	int seat;
	char *role, *name, *player_id, *client_seed; /* player_id NULL for bots */
	bool bot;
};

struct store_action {
	int ply, seat;
	int64_t at;
	char *action, *outcome; /* compact JSON */
};

/* A finished match, ready for the archive; store_save_match() takes it. */
struct store_match {
	char *id, *game, *options, *commit, *server_seed, *client_seeds, *result; /* JSON where it is JSON */
	int64_t started_at, ended_at;
	struct store_seat *seats;
	int nseats;
	struct store_action *actions;
	size_t nactions;
};

/* Frees a match record and everything it owns; NULL does nothing. */
void store_match_free(struct store_match *m);

/*
 * Opens (creating) the database at `path`, creating its folder, applies the
 * migrations in `migrations_dir` in order, each in a transaction, and starts
 * the store thread. Returns 0 or a negative errno / -EIO with the reason logged.
 */
int store_open(uv_loop_t *loop, const char *path, const char *migrations_dir, struct store **out);

/* Starts the store thread; jobs queued before it run then. 0 or a libuv error. */
int store_start(struct store *st);

/* Writes everything queued, stops the thread, closes the database. */
void store_close(struct store *st);

/* Jobs not yet done (a gauge). */
size_t store_queue_depth(const struct store *st);

/* Records a player identity or its new name (async, fire and forget). */
void store_player_save(struct store *st, const char *id, const char *token_hash, const char *name);

/*
 * The live journal (async): rooms not yet archived, their seats and accepted
 * actions, so a restart resumes every room and seat. Archiving a match drops
 * its journal in the same transaction.
 */
void store_live_room(struct store *st, const char *id, const char *game, const char *options,
		     const char *server_seed, int64_t created_at);
void store_live_seat(struct store *st, const char *room, int seat, const char *player_id,
		     const char *client_seed);
void store_live_seat_free(struct store *st, const char *room, int seat);
void store_live_action(struct store *st, const char *room, int ply, int seat, const char *action,
		       const char *outcome, int64_t at);
void store_live_started(struct store *st, const char *room, int64_t started_at);
void store_live_resign(struct store *st, const char *room, int seat, int reason, int64_t at);
void store_live_drop(struct store *st, const char *room);

/*
 * Runs a query synchronously, only before store_start(), with at most one text argument;
 * row() gets every row's columns as text (NULL for SQL NULL); non-zero stops.
 */
int store_query(struct store *st, const char *sql, const char *arg,
		int (*row)(void *ctx, int ncols, const char *const *cols), void *ctx);

/* Archives a finished match in one transaction (async). Takes `m` on every path. */
void store_match_save(struct store *st, struct store_match *m, void (*done)(void *ctx, int ok),
		      void *ctx);

/*
 * Read callbacks get an HTTP status (200, 404, 500) and a JSON body they take
 * ownership of (malloc'd, NUL-terminated). Not called after store_req_cancel().
 */
typedef void (*store_read_cb)(void *ctx, int status, char *body, size_t len);

/* GET /api/matches/{id}. */
struct store_req *store_match_get(struct store *st, const char *id, store_read_cb cb, void *ctx);

/* GET /api/matches; game/player may be NULL; before 0 = from the newest. */
struct store_req *store_match_list(struct store *st, const char *game, const char *player,
				   int64_t before, int limit, store_read_cb cb, void *ctx);

/* The request's callback will not be called; the store frees it. */
void store_req_cancel(struct store_req *req);

#endif
