/*
 * player.c: a player identity and the rooms it holds a seat in, kept as a
 * small unordered array (a player holds few seats; removal swaps the last
 * entry in). Only this file writes a struct player.
 */
#include "player/player.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct player {
	char id[16];
	char token_hash[65]; /* hex SHA-256 of the token; the token itself is never stored */
	char name[PLAYER_NAME_SIZE];
	char handle[PLAYER_HANDLE_SIZE]; /* "" for a guest */
	bool deleting;                   /* its account's deletion is out (player_set_deleting) */
	struct {
		char game[16]; /* "" : a free entry */
		double rating, rd;
	} ratings[RULES_MAX_GAMES]; /* an account's known ratings (player_rating) */
	int nsessions;              /* connections that said hello with this identity */
	struct room **rooms;        /* rooms where this player holds a seat, in no order */
	int nrooms, caprooms;
	int nwaiting;         /* rooms it created that wait for players (lobby_limits.c) */
	int64_t seen_ms;      /* last hello or close of one of its connections (Unix ms) */
	uint64_t saved_batch; /* the journal batch holding its last save (lobby_player_save) */
};

struct player *player_new(const char *id, const char *token_hash, const char *name)
{
	struct player *p = calloc(1, sizeof(*p));

	if (!p)
		return NULL;
	snprintf(p->id, sizeof(p->id), "%s", id);
	snprintf(p->token_hash, sizeof(p->token_hash), "%s", token_hash);
	snprintf(p->name, sizeof(p->name), "%s", name);
	return p;
}

void player_free(struct player *p)
{
	if (!p)
		return;
	free(p->rooms);
	free(p);
}

const char *player_id(const struct player *p)
{
	return p->id;
}

const char *player_token_hash(const struct player *p)
{
	return p->token_hash;
}

const char *player_name(const struct player *p)
{
	return p->name;
}

bool player_rating(const struct player *p, const char *game, double *rating, double *rd)
{
	for (int i = 0; i < RULES_MAX_GAMES && p->ratings[i].game[0]; i++)
		if (!strcmp(p->ratings[i].game, game)) {
			*rating = p->ratings[i].rating;
			*rd = p->ratings[i].rd;
			return true;
		}
	return false;
}

int player_set_rating(struct player *p, const char *game, double rating, double rd)
{
	int i;

	for (i = 0; i < RULES_MAX_GAMES && p->ratings[i].game[0]; i++)
		if (!strcmp(p->ratings[i].game, game))
			break;
	if (i == RULES_MAX_GAMES || strlen(game) >= sizeof(p->ratings[i].game))
		return -ENOSPC;
	snprintf(p->ratings[i].game, sizeof(p->ratings[i].game), "%s", game);
	p->ratings[i].rating = rating;
	p->ratings[i].rd = rd;
	return 0;
}

const char *player_handle(const struct player *p)
{
	return p->handle[0] ? p->handle : NULL;
}

void player_set_handle(struct player *p, const char *handle)
{
	snprintf(p->handle, sizeof(p->handle), "%s", handle ? handle : "");
}

void player_set_token_hash(struct player *p, const char *token_hash)
{
	snprintf(p->token_hash, sizeof(p->token_hash), "%s", token_hash);
}

bool player_deleting(const struct player *p)
{
	return p->deleting;
}

void player_set_deleting(struct player *p, bool deleting)
{
	p->deleting = deleting;
}

void player_rename(struct player *p, const char *name, int64_t now)
{
	snprintf(p->name, sizeof(p->name), "%s", name);
	p->seen_ms = now;
}

int player_add_room(struct player *p, struct room *r)
{
	int i;

	for (i = 0; i < p->nrooms; i++)
		if (p->rooms[i] == r)
			return 0;
	if (p->nrooms == p->caprooms) {
		int cap = p->caprooms ? p->caprooms * 2 : 4;
		struct room **rooms = realloc(p->rooms, (size_t)cap * sizeof(*rooms));

		if (!rooms)
			return -ENOMEM;
		p->rooms = rooms;
		p->caprooms = cap;
	}
	p->rooms[p->nrooms++] = r;
	return 0;
}

void player_del_room(struct player *p, struct room *r)
{
	int i;

	for (i = 0; i < p->nrooms; i++)
		if (p->rooms[i] == r) {
			p->rooms[i] = p->rooms[--p->nrooms];
			return;
		}
}

int player_nrooms(const struct player *p)
{
	return p->nrooms;
}

struct room *player_room(const struct player *p, int i)
{
	return p->rooms[i];
}

bool player_connected(const struct player *p)
{
	return p && p->nsessions > 0;
}

int player_session_opened(struct player *p)
{
	return ++p->nsessions;
}

int player_session_closed(struct player *p, int64_t now)
{
	p->seen_ms = now;
	return --p->nsessions;
}

int player_waiting(const struct player *p)
{
	return p->nwaiting;
}

void player_waiting_add(struct player *p, int delta)
{
	p->nwaiting = p->nwaiting + delta > 0 ? p->nwaiting + delta : 0;
}

uint64_t player_saved_batch(const struct player *p)
{
	return p->saved_batch;
}

void player_set_saved_batch(struct player *p, uint64_t batch)
{
	p->saved_batch = batch;
}
