/*
 * player.h: a player identity (created by a first `hello`, resumed by its
 * token) and the rooms where it holds a seat. The lobby owns players and
 * finds them by token hash or id; rooms point at the players in their seats.
 * A player never points back into a session: `nsessions` is all the rooms
 * need to say whether a seat is connected.
 */
#ifndef QUINTETO_PLAYER_H
#define QUINTETO_PLAYER_H

#include <stdbool.h>
#include <stdint.h>

#include "wire.h"

struct room;

struct player {
	char id[16];
	char token_hash[65]; /* hex SHA-256 of the token; the token itself is never stored */
	char name[WIRE_NAME_MAX * 4 + 1];
	int nsessions;       /* connections that said hello with this identity */
	struct room **rooms; /* rooms where this player holds a seat, in no order */
	int nrooms, caprooms;
	int nwaiting;         /* rooms it created that wait for players (lobby_limits.c) */
	int64_t seen_ms;      /* last hello or close of one of its connections (Unix ms) */
	uint64_t saved_batch; /* the journal batch holding its last save (lobby_player_save) */
};

/* Remembers that `p` holds a seat in `r` (once). 0 or -ENOMEM (then nothing changed). */
int player_add_room(struct player *p, struct room *r);

/* Forgets `r` from p's rooms; a room it does not hold is ignored. */
void player_del_room(struct player *p, struct room *r);

/* True when at least one connection of this player is open. */
bool player_connected(const struct player *p);

#endif
