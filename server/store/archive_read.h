/*
 * archive_read.h: reading the match archive out of SQLite or PostgreSQL, for
 * the server's reader threads (the HTTP API) and the `quinteto` command alike,
 * so they answer with the same queries and the same JSON, byte for byte
 * whichever database holds the archive. Archives are read only
 * through the archive codec (wire_archive_encode, wire_replay_*, the steps of
 * wire_archive_steps_new); a match and a replay's page are written as bytes,
 * their memory the answer's and not the match's.
 *
 * Must not: write, or know about threads, libuv or HTTP (the store answers
 * codes; net/http.c and the `quinteto` command choose their own answer). One
 * struct archive_db belongs to one thread with its own connection. Every
 * answer is a code (store.h: 0, STORE_E_NOT_FOUND, STORE_E_BAD_REQUEST,
 * STORE_E_UNVERIFIED, or -EIO / -ENOMEM with the reason in `err`) and a JSON
 * body: the answer, or for a failure an error {error, code, message} whose
 * message says what is wrong for a person.
 */
#ifndef QUINTETO_ARCHIVE_READ_H
#define QUINTETO_ARCHIVE_READ_H

#include <jansson.h>
#include <libpq-fe.h>
#include <sqlite3.h>
#include <stdbool.h>
#include <stdint.h>

#include "json_out.h"
#include "store/store.h"

/* AR_SCHEMA is never run: preparing it refuses a database older than the reads (archive_read.c). */
enum archive_stmt {
	AR_GET,
	AR_SEATS,
	AR_PAGE_SEATS,
	AR_ACTIONS,
	AR_EVENTS,
	AR_PLAYER,
	AR_PLAYER_SPAN,
	AR_SCHEMA,
	AR_ACCOUNT,       /* issue 26: an account by its handle's key */
	AR_ACCOUNT_GAMES, /* AR_PLAYER over an identity's seats, not a name's */
	AR_ACCOUNT_SPAN,
	AR_RATINGS,
	AR_HISTORY,
	AR_RECENT,
	AR_BOARD,
	AR_MAX
};

#define ARCHIVE_LIST_SHAPES 20 /* game x player x 5 kinds of result filter */

#define ARCHIVE_REPLAY_CACHE 8 /* long matches whose replay snapshots are kept (archive_read.c) */

struct archive_replay;

/* A connection's archive statements, set up by archive_db_init(). */
struct archive_db {
	sqlite3 *db; /* borrowed; NULL for PostgreSQL */
	PGconn *pg;  /* borrowed; NULL for SQLite */
	sqlite3_stmt *stmt[AR_MAX];
	sqlite3_stmt *list[ARCHIVE_LIST_SHAPES]; /* prepared on first use, one per filter shape */
	struct archive_replay *replays[ARCHIVE_REPLAY_CACHE]; /* owned; NULL for a free place */
	uint64_t tick;                                        /* counts replay reads, for the cache's order */
	char err[256]; /* what failed last (-EIO, -ENOMEM, STORE_E_UNVERIFIED), for the caller's log */
};

/* Prepares the statements on `db` (borrowed), `d` overwritten; 0 or -EIO with the reason in d->err. */
int archive_db_init(struct archive_db *d, sqlite3 *db);

/*
 * The same reads on a PostgreSQL connection (`pg` borrowed, blocking, the
 * thread's own): every archive_db_* below answers as on SQLite, byte for
 * byte. 0 or -EIO with the reason in d->err.
 */
int archive_db_init_pg(struct archive_db *d, PGconn *pg);

/* Finalizes the statements; safe on a zeroed or half-initialized one. */
void archive_db_finish(struct archive_db *d);

/*
 * The archived match `id` (protocol.md) as bytes in `out` (emptied first; the
 * caller frees it), written a row at a time: memory is the body's; 0,
 * STORE_E_NOT_FOUND, -EIO or -ENOMEM (an error body then). On a failure to
 * write even the error, out->p NULL.
 */
int archive_db_get(struct archive_db *d, const char *id, struct json_out *out);

/* {matches:[...], next}; 0, STORE_E_BAD_REQUEST (a `result` that needs `player`), -EIO or -ENOMEM. */
int archive_db_list(struct archive_db *d, const struct archive_query *q, json_t **out);

/*
 * A page of the replay of match `id` as bytes in `out` (as archive_db_get):
 * {id, game, options, seats, result, plies, total, from, next, steps}, steps
 * [from, from + limit) of what wire_archive_steps_new() gives (limit 0 or
 * past ARCHIVE_STEPS_MAX: ARCHIVE_STEPS_MAX). The match is verified whole
 * before a page is shown (then its snapshots are cached, see archive_read.c)
 * and the page's steps again; 0, STORE_E_BAD_REQUEST (from past the last
 * step), STORE_E_NOT_FOUND, STORE_E_UNVERIFIED (it does not verify: the
 * reason in d->err), -EIO or -ENOMEM.
 */
int archive_db_replay(struct archive_db *d, const char *id, size_t from, size_t limit, struct json_out *out);

/*
 * {name, matches, first_at, last_at, games:{game:{matches, won, lost, drawn}}}; 0, STORE_E_NOT_FOUND, -EIO
 * or -ENOMEM.
 */
int archive_db_player(struct archive_db *d, const char *name, json_t **out);

/*
 * GET /api/leaderboard (PROTOCOL.md, Accounts and ratings): {game, players:
 * [{rank, handle, name, rating, rd, provisional, matches}]}, the accounts with
 * a rated match of `game` by rating, the provisional ones after the others,
 * at most `limit` (1..ARCHIVE_BOARD_MAX); 0, -EIO or -ENOMEM.
 */
int archive_db_leaderboard(struct archive_db *d, const char *game, int limit, json_t **out);

#endif
