/*
 * player.h: the player module's face (server/player/): a player identity
 * (created by a first `hello`, resumed by its token) and the rooms where it
 * holds a seat. The lobby owns players (player_new, player_free) and finds
 * them by token hash or id; rooms point at the players in their seats. struct
 * player is opaque: other modules read it through the accessors below and
 * change it only through the functions named for each change. A player never
 * points back into a connection: the count of its open connections is all
 * the rooms need to say whether a seat is connected.
 */
#ifndef QUINTETO_PLAYER_H
#define QUINTETO_PLAYER_H

#include <stdbool.h>
#include <stdint.h>

#include "wire.h"

struct player;
struct room;

/* Room for a player's name: WIRE_NAME_MAX characters of up to 4 bytes of UTF-8, and the NUL. */
#define PLAYER_NAME_SIZE (WIRE_NAME_MAX * 4 + 1)

/*
 * A new identity (the strings are copied: id up to 15 bytes, token_hash the
 * hex SHA-256 of its token, name up to PLAYER_NAME_SIZE - 1 bytes), no
 * connection, no room. NULL: out of memory. player_free() frees it (NULL:
 * nothing).
 */
struct player *player_new(const char *id, const char *token_hash, const char *name);
void player_free(struct player *p);

/* Room for an account's handle (PROTOCOL.md "Accounts and ratings": 3..20 characters) and its NUL. */
#define PLAYER_HANDLE_SIZE (20 * 4 + 1)

/*
 * The account's handle when this identity is an account (claimed, or signed
 * in to), NULL for a guest; borrowed from p. player_set_handle(): it became an
 * account (handle copied, cut at PLAYER_HANDLE_SIZE - 1 bytes) or, with NULL,
 * stopped being one (deleted).
 */
const char *player_handle(const struct player *p);
void player_set_handle(struct player *p, const char *handle);

/*
 * An account whose deletion is out (its password checked, the store not yet
 * answered): it must take no new seat meanwhile (join, create and rematch
 * refuse it with seats_held), or the deleted account would play on.
 */
bool player_deleting(const struct player *p);
void player_set_deleting(struct player *p, bool deleting);

/*
 * An account's rating in one game as the server last knew it (issue 26): read
 * from the store at start-up, then the figures of each rated match it played,
 * once committed. player_rating(): false when none is known (a new account:
 * the rating's defaults apply). player_set_rating(): keeps it (game: a game id
 * of the registry; -ENOSPC past RULES_MAX_GAMES games, which the registry
 * cannot have).
 */
bool player_rating(const struct player *p, const char *game, double *rating, double *rd);
int player_set_rating(struct player *p, const char *game, double rating, double rd);

/*
 * A claimed account's identity is no longer reached by a token of its own
 * (its tokens are its sessions'): the lobby keys it by `claimed:<id>` instead
 * (the value players.token_hash gets), which no token hashes to. Copied.
 */
void player_set_token_hash(struct player *p, const char *token_hash);

/* Its id, the hex SHA-256 of its token (the token itself is never kept) and its name; borrowed from p. */
const char *player_id(const struct player *p);
const char *player_token_hash(const struct player *p);
const char *player_name(const struct player *p);

/* Takes `name` (copied; cut at PLAYER_NAME_SIZE - 1 bytes) and `now` (Unix ms) as last seen: a resumed hello.
 */
void player_rename(struct player *p, const char *name, int64_t now);

/* Remembers that `p` holds a seat in `r` (once). 0 or -ENOMEM (then nothing changed). */
int player_add_room(struct player *p, struct room *r);

/* Forgets `r` from p's rooms; a room it does not hold is ignored. */
void player_del_room(struct player *p, struct room *r);

/* The rooms where it holds a seat, in no order: player_room(p, i) for i in [0, player_nrooms(p)). */
int player_nrooms(const struct player *p);
struct room *player_room(const struct player *p, int i);

/* True when at least one connection of this player is open. */
bool player_connected(const struct player *p);

/*
 * A connection said hello with this identity; the connections open now.
 * player_session_closed(): one of them closed at `now` (Unix ms, last seen);
 * the connections still open.
 */
int player_session_opened(struct player *p);
int player_session_closed(struct player *p, int64_t now);

/*
 * The lobby's books on the player: the rooms it created that wait for
 * players (player_waiting_add(): +1 or -1, never below 0), and the journal
 * batch holding its last save.
 */
int player_waiting(const struct player *p);
void player_waiting_add(struct player *p, int delta);
uint64_t player_saved_batch(const struct player *p);
void player_set_saved_batch(struct player *p, uint64_t batch);

#endif
