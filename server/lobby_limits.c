/*
 * lobby_limits.c: what keeps one client from filling the server with rooms
 * (protocol.md, too_many_rooms): waiting rooms per creator and per address,
 * live rooms in all, and matches of bots only; and the end of matches that
 * nobody comes back to (a forfeit of each absent seat, as a resignation is
 * recorded). Waiting rooms nobody follows already expire (room_expired).
 *
 * Identities: one that holds no seat and has no connection leaves memory a
 * while after it was last seen (it is looked up again when it says hello);
 * the database forgets one that holds no seat, created no live room and
 * played no archived match once it is --player-ttl-s old (store.h).
 *
 * A room counts against its creator and address from its creation until it
 * leaves the waiting state or goes; rooms restored at start-up count in the
 * total only (the address they came from is not journalled).
 */
#include "lobby.h"

#include <stdlib.h>
#include <string.h>

#include "store.h"

void lobby_limits_finish(struct lobby *l)
{
	tally_finish(&l->by_addr);
}

const char *lobby_room_refused(struct lobby *l, const struct player *p, const char *addr)
{
	if (l->rooms.len >= (size_t)l->cfg->max_rooms)
		return "the server has as many rooms as it can hold: try again later";
	if (p->nwaiting >= l->cfg->max_rooms_per_player)
		return "you have too many rooms waiting for players: start or leave one first";
	if (tally_get(&l->by_addr, addr) >= (size_t)l->cfg->max_rooms_per_addr)
		return "too many rooms wait for players from your address: start or leave one first";
	return NULL;
}

const char *lobby_room_cap_refused(struct lobby *l)
{
	if (l->rooms.len >= (size_t)l->cfg->max_rooms)
		return "the server has as many rooms as it can hold: try again later";
	return NULL;
}

static int free_seats(const struct room *r, bool *human)
{
	int i, n = 0;

	*human = false;
	for (i = 0; i < r->game->seats; i++) {
		n += !r->seats[i].taken;
		*human |= r->seats[i].player != NULL;
	}
	return n;
}

const char *lobby_bot_room_refused(struct lobby *l, const struct room *r)
{
	bool human;

	if (r->status != ROOM_WAITING || free_seats(r, &human) != 1 || human)
		return NULL;
	if (l->bot_rooms >= l->cfg->max_bot_rooms)
		return "the server runs as many matches of bots only as it allows: seat a player, or try "
		       "later";
	return NULL;
}

void lobby_room_counted(struct lobby *l, struct room *r, struct player *p, const char *addr)
{
	if (r->counted || r->status != ROOM_WAITING)
		return;
	r->counted = true;
	snprintf(r->creator_addr, sizeof(r->creator_addr), "%s", addr);
	p->nwaiting++;
	(void)tally_add(&l->by_addr, addr, +1); /* out of memory: that room goes uncounted */
}

void lobby_room_update(struct lobby *l, struct room *r, bool gone)
{
	bool human;

	if (r->counted && (gone || r->status != ROOM_WAITING)) {
		struct player *p = hmap_get(&l->players_by_id, r->creator);

		r->counted = false;
		if (p && p->nwaiting > 0)
			p->nwaiting--;
		(void)tally_add(&l->by_addr, r->creator_addr, -1);
	}
	if (!gone && !r->bot_only && r->status != ROOM_WAITING) {
		free_seats(r, &human);
		if (!human) {
			r->bot_only = true;
			l->bot_rooms++;
		}
	}
	if (gone && r->bot_only) {
		r->bot_only = false;
		l->bot_rooms--;
	}
}

/* Forfeits every absent human seat of `r` (none is connected): the match ends through the rules core. */
static void forfeit_absent(struct room *r, int64_t now)
{
	int i;

	for (i = 0; i < r->game->seats && r->status == ROOM_PLAYING; i++)
		if (r->seats[i].player && !player_connected(r->seats[i].player) &&
		    room_event(r, i, RULES_EVENT_FORFEIT, now) < 0)
			util_log(LOG_ERROR, "room %s: the forfeit of seat %d failed", r->id, i);
	util_log(LOG_INFO, "room %s: abandoned by its players; forfeited", r->id);
	room_changed(r);
}

void lobby_forfeit_abandoned(struct lobby *l, int64_t now)
{
	int64_t limit = (int64_t)l->cfg->abandon_timeout_s * 1000;
	struct room *r;
	size_t pos = 0;

	if (store_journal_failing(l->store))
		return; /* a forfeit must be journalled like any event: wait for the database */
	while ((r = hmap_next(&l->rooms, &pos))) {
		bool human;

		free_seats(r, &human);
		if (r->status != ROOM_PLAYING || !human || room_human_connected(r))
			continue;
		if (!r->absent_since) {
			r->absent_since = now;
			continue;
		}
		if (now - r->absent_since >= limit)
			forfeit_absent(r, now);
	}
}

/* An idle identity stays in memory this long at most (it is read again at its next hello). */
#define PLAYER_EVICT_MS 60000

void lobby_players_housekeep(struct lobby *l, int64_t now)
{
	int64_t ttl = (int64_t)l->cfg->player_ttl_s * 1000;
	int64_t evict = ttl < PLAYER_EVICT_MS ? ttl : PLAYER_EVICT_MS;
	int64_t every = ttl / 2 < 5000 ? 5000 : ttl / 2 > 3600000 ? 3600000 : ttl / 2;
	struct player *p;
	size_t pos = 0;

	if (store_journal_failing(l->store))
		return; /* what an evicted identity last wrote might not be in the database yet */
	while ((p = hmap_next(&l->players_by_id, &pos))) {
		if (p->nsessions || p->nrooms || p->nwaiting || now - p->seen_ms < evict)
			continue;
		hmap_del(&l->players, p->token_hash);
		hmap_del(&l->players_by_id, p->id);
		free(p->rooms);
		free(p);
	}
	if (now - l->players_expired_ms >= every) {
		l->players_expired_ms = now;
		store_players_expire(l->store, now - ttl);
	}
}
