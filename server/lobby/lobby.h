/*
 * lobby.h: the lobby's face (server/lobby/): the registry of live rooms and
 * known players, the room list pushed to the connections that asked for it,
 * the room and identity limits, and the start-up restore of rooms and players
 * from the store. struct lobby is opaque (lobby_int.h).
 *
 * The lobby hosts the rooms: it gives each the `room_host` whose send()
 * (the callback the server hands to lobby_new(), net_send_cb) queues frames
 * on connections and whose changed() marks the room list stale. That
 * callback is the only way a room reaches up here, and the send callback the
 * only way the lobby reaches a connection. The lobby calls rooms, players and
 * the store; nothing below calls it.
 */
#ifndef QUINTETO_LOBBY_H
#define QUINTETO_LOBBY_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <uv.h>

struct buf;
struct cluster;
struct config;
struct lobby;
struct metrics;
struct player;
struct room;
struct rules_game;
struct rules_options;
struct store;
struct store_identity;
struct store_rating;
struct wire_game;
struct wire_room_options;

/* The lobby's own refusals (docs/ARCHITECTURE.md, "Errors"); net/handlers.c turns them into protocol codes.
 */
enum lobby_error {
	LOBBY_E_TOO_MANY_ROOMS = -1400,     /* a cap on rooms (all, waiting, open, per hour) is reached */
	LOBBY_E_TOO_MANY_BOT_ROOMS = -1401, /* a match of bots only would pass the server's cap on them */
	LOBBY_E_TOO_MANY_PLAYERS = -1402,   /* the address made as many new identities as it may for now */
};

/* A sentence for a LOBBY_E_* code ("unknown lobby error" for any other). */
const char *lobby_strerror(int code);

/* A subscriber's link in the lobby's list of `rooms` subscribers (lobby_subscribe). */
struct lobby_sub {
	void *who; /* the subscriber, send()'s first argument */
	struct lobby_sub *prev, *next;
	bool on;
};

/*
 * An empty lobby on `loop` in *out; the pointers are borrowed for its life,
 * `send` queues a frame on a subscriber or room member (net_send_cb). 0, or
 * -ENOMEM (*out NULL), or a libuv error (*out set all the same: lobby_close()
 * and lobby_free() it as usual).
 */
int lobby_new(uv_loop_t *loop, struct store *store, const struct config *cfg, struct metrics *metrics,
	      void (*send)(void *who, struct buf *frame), struct lobby **out);

/* The store the lobby and its rooms journal to (borrowed; before lobby_restore()). */
void lobby_set_store(struct lobby *l, struct store *store);

/*
 * Cluster mode (docs/SCALING.md): the node's share of the cluster (borrowed;
 * before lobby_restore(), NULL for a single server). From then on every room
 * created or restored is announced in the directory and every room that
 * closes leaves it, this node's summaries are published, and the room list
 * (`rooms`, GET /api/rooms) is the merged lobby: ours and the other live
 * nodes' rooms, the newest lobby_list_max of them, `total` of all.
 * lobby_cluster(): that pointer, NULL for a single server.
 */
void lobby_set_cluster(struct lobby *l, struct cluster *c);
struct cluster *lobby_cluster(const struct lobby *l);

/*
 * Loads the player identities that hold a journalled seat, then every journalled room (start-up, before
 * store_start()). A room whose journal does not replay is left out with its
 * journal kept. 0 or -EIO.
 */
int lobby_restore(struct lobby *l);

/*
 * Cluster mode: this node adopted dead node `node`'s rooms (store_lease_watch's
 * STORE_LEASE_ADOPTED; the store moved them to this node). Loads them through
 * store_load_live() as lobby_restore() does, skipping the rooms in memory
 * already, with the identities of their seats not known yet, their mutes
 * and rematch offers, and the dead node's finished rooms that linger (rebuilt
 * from the archive); their players resume by token. A room that does not
 * replay is left out with its journal kept. 0 or -EIO (what could be read is
 * restored all the same).
 */
int lobby_adopt(struct lobby *l, const char *node);

/* Shutting down: closes every room (keeping the journal of unfinished ones), the timer, and stops the bot
 * workers. */
void lobby_close(struct lobby *l);

/* Frees players, maps and the lobby; only once the loop has run every close callback (NULL: nothing). */
void lobby_free(struct lobby *l);

/* Shutting down (lobby_close() was called): rooms keep their journal, players stay. */
bool lobby_stopping(const struct lobby *l);

/* Live rooms, and player identities in memory. */
size_t lobby_rooms_count(const struct lobby *l);
size_t lobby_players_count(const struct lobby *l);

/* Bot moves waiting for a worker thread and being thought about, now (for /metrics). */
void lobby_bot_counts(struct lobby *l, size_t *queued, size_t *running);

/* The live room after position *pos (start at 0), or NULL after the last; any order. */
struct room *lobby_room_next(struct lobby *l, size_t *pos);

/*
 * Identities by token (docs/ARCHITECTURE.md, "No disk on the loop"). lobby_player_find():
 * the identity whose token hash this is, if it is in memory (nothing is
 * read). One that is not (idle since the start, or evicted; or an account's
 * session, whose tokens the store alone knows) is read off the loop by the
 * caller (store_player_load(), identity and ratings together), and its answer
 * given to lobby_player_loaded(): the identity in memory if another hello
 * with this token (or a sign-in of the account) made it meanwhile, so there
 * is one object per identity; else one made from `who`, its ratings kept.
 * A read older than what happened here since answers as a read now would:
 * a guest claimed meanwhile is the account (its token is the first
 * session). NULL: none to resume (a guest that is in memory under another
 * token, an account deleted meanwhile, or out of memory: the hello then
 * makes a new one).
 */
struct player *lobby_player_find(struct lobby *l, const char *token_hash);
struct player *lobby_player_loaded(struct lobby *l, const char *token_hash, const struct store_identity *who);

/* The identity with public id `id` if it is in memory, else NULL (nothing is loaded). */
struct player *lobby_player_by_id(struct lobby *l, const char *id);

/*
 * Issue 26's ratings. An identity's ratings come with it from the store (a
 * hello's read, a sign-in's answer, the start-up load), for the seats it
 * holds to show them; a guest has none. lobby_set_rated_hook(): hook(ctx, p)
 * runs for each player of a rated match once its new ratings are committed
 * and kept in p (the server pushes them to p's connections); on PostgreSQL,
 * after an archive whose commit answer was lost, once they are read again
 * (off the loop).
 */
void lobby_set_rated_hook(struct lobby *l, void (*hook)(void *ctx, struct player *p), void *ctx);

/*
 * Resumes `p` (found by `token`: lobby_player_find() or lobby_player_loaded()),
 * renaming it to `name`, or creates a player (p NULL: an unknown or absent
 * token), into *out. Writes the player's token into token_out (at least 49
 * bytes). 0, -EINVAL (token_out too small), -ENOMEM, or the random source's
 * negative errno.
 */
int lobby_player_hello(struct lobby *l, struct player *p, const char *token, const char *name,
		       char *token_out, size_t token_out_size, struct player **out);

/*
 * Accounts (docs/ACCOUNTS.md). lobby_player_claimed(): `p` became an account
 * (its handle is set): it is keyed by `claimed:<id>` from now on, its tokens
 * being its sessions' (found through the store). lobby_player_account(): the
 * account's identity, in memory or made from what the store read (handle
 * set; its `nratings` ratings, read in the same transaction, kept when it is
 * made: a sign-in's store answer; an identity deleted here keeps no
 * handle); NULL on ENOMEM.
 */
void lobby_player_claimed(struct lobby *l, struct player *p);
struct player *lobby_player_account(struct lobby *l, const char *id, const char *name, const char *handle,
				    const struct store_rating *ratings, size_t nratings);

/*
 * The attempts that cost a password hash (lobby_limits.c), metered per
 * address and per handle key with the lobby's paces: claims and sign-ins
 * from an address (cfg->account_tries_per_addr, then one every
 * account_try_addr_s), failed checks from an address and on a handle key
 * (sign_in_fails_per_addr / _handle). lobby_account_refused(): 0, or
 * LOBBY_E_TOO_MANY_PLAYERS with the seconds until the next is allowed in
 * *retry_s (key NULL: the address only; try: count it as a claim or
 * sign-in). lobby_account_tried() takes a try, lobby_account_failed() a
 * failure: taken when a check is accepted, before it is queued, so that
 * the checks in flight never go past the limit; lobby_account_unfailed()
 * gives it back (the password matched, or nothing was checked). The table
 * of handle keys is bounded: the one with the oldest meter goes first.
 */
int lobby_account_refused(struct lobby *l, const char *addr, const char *key, bool try, int *retry_s);
void lobby_account_tried(struct lobby *l, const char *addr);
void lobby_account_failed(struct lobby *l, const char *addr, const char *key);
void lobby_account_unfailed(struct lobby *l, const char *addr, const char *key);

/* Creates and registers a room for `creator`. 0, ROOM_E_BAD_OPTIONS or a negative errno. */
int lobby_room_create(struct lobby *l, const struct player *creator, const struct rules_game *g,
		      const struct wire_game *codec, const struct wire_room_options *ropt,
		      const struct rules_options *gopt, struct room **out);

/*
 * Takes a room that lobby_room_create() just made, and that nobody was told
 * about, back out: its seats are freed and its journal dropped.
 */
void lobby_room_discard(struct lobby *l, struct room *r);

/* The live room with this id, or NULL. */
struct room *lobby_room_find(struct lobby *l, const char *id);

/* Closes the rooms that have outlived their time. */
void lobby_housekeep(struct lobby *l, int64_t now);

/*
 * Pushes the room list to `who` (through the lobby's send callback) whenever
 * it changes, until unsubscribed. `sub` is the subscriber's link, kept in
 * the subscriber (zeroed before first use) and written only by these two.
 */
void lobby_subscribe(struct lobby *l, struct lobby_sub *sub, void *who);
void lobby_unsubscribe(struct lobby *l, struct lobby_sub *sub);

/* The room list changed: push it within a second (throttled). */
void lobby_changed(struct lobby *l);

/*
 * The room list as protocol.md caps it: the newest cfg->lobby_list_max live
 * rooms and `total`, the count of all (in cluster mode, of every live node). A `rooms` frame (id borrowed,
 * may be NULL), or GET /api/rooms' body (malloc'd, *len set). Each room's summary is serialised once per
 * change of that room (room.h's summary cache), so a request costs a copy of the joined text, not a rebuild;
 * NULL on ENOMEM.
 */
struct buf *lobby_rooms_frame(struct lobby *l, const json_t *id);
char *lobby_rooms_body(struct lobby *l, size_t *len);

/*
 * Room limits (lobby_limits.c), each 0 (allowed) or a LOBBY_E_* code with a
 * sentence for the player in *why (static text; the refusal is counted in
 * the metrics).
 * lobby_room_refused(): may `p` from `addr` create a room? 0 or
 * LOBBY_E_TOO_MANY_ROOMS.
 * lobby_room_open_refused(): may `p` from `addr` open a room that starts at
 * once (the rematch it accepts)? The limits of lobby_room_refused() but the
 * waiting rooms'. 0 or LOBBY_E_TOO_MANY_ROOMS.
 * lobby_bot_room_refused(): may a bot fill the last free seat of `r` (which
 * would start a match of bots only)? 0 or LOBBY_E_TOO_MANY_BOT_ROOMS.
 * lobby_room_counted(): `p` from `addr` opened `r` (a create or a rematch):
 * it counts as live against both until it goes, as waiting while it waits,
 * and against the address's rooms per hour.
 * lobby_room_update(): after a seat filled or a room went: a room that left
 * the waiting state stops counting as waiting, a room that went stops
 * counting as live, a started bot-only room counts.
 */
int lobby_room_refused(struct lobby *l, const struct player *p, const char *addr, const char **why);
int lobby_room_open_refused(struct lobby *l, const struct player *p, const char *addr, const char **why);
int lobby_bot_room_refused(struct lobby *l, const struct room *r, const char **why);
void lobby_room_counted(struct lobby *l, struct room *r, struct player *p, const char *addr);

/*
 * New identities (lobby_limits.c). lobby_player_refused(): may a hello from
 * `addr` make a new identity? 0, or LOBBY_E_TOO_MANY_PLAYERS with a sentence
 * in *why (counted in the metrics). lobby_player_counted(): it made one.
 */
int lobby_player_refused(struct lobby *l, const char *addr, const char **why);
void lobby_player_counted(struct lobby *l, const char *addr);

/*
 * Journals p's identity (its name, and when it was seen) and remembers the
 * batch that holds it: an identity leaves memory only once that batch has
 * committed, so its next hello finds it in the database.
 */
void lobby_player_save(struct lobby *l, struct player *p);

/*
 * `p` lost its last connection: it leaves memory now when nothing holds it
 * (no seat, no waiting room, its last save committed); else the
 * housekeeping takes it later. `p` may be freed: the caller forgets it.
 */
void lobby_player_release(struct lobby *l, struct player *p);
void lobby_room_update(struct lobby *l, struct room *r, bool gone);

/*
 * Identities with no connection, seat or waiting room leave memory once their
 * last save has committed (looked up again at their next hello); so do the
 * per-address paces that are spent no more. Now and then the database is
 * told to forget the identities past cfg->player_ttl_s (store_players_expire).
 */
void lobby_players_housekeep(struct lobby *l, int64_t now);

/* Ends, by forfeit of its absent seats, every match no human has followed for cfg->abandon_timeout_s. */
void lobby_forfeit_abandoned(struct lobby *l, int64_t now);

#endif
