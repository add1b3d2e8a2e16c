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
 * A room counts as waiting against its creator and address from its
 * creation until it leaves the waiting state or goes, and as live against
 * the player and the address that opened it (a create, or the rematch
 * acceptance that opened it) until it goes, finished rooms still listed
 * included: one address can never hold more than max_live_rooms_per_addr of
 * the max_rooms (conf.c checks it is fewer). Rooms restored at start-up
 * count in the total only (the address they came from is not journalled).
 *
 * Paces: each address's rooms opened and new identities are metered by a
 * generic cell rate (one "theoretical arrival time" per meter): N at once,
 * then one every 1/rate. In memory only: a restart starts them afresh.
 */
#include "lobby/lobby_int.h"

#include <stdlib.h>
#include <string.h>

#include "store/store.h"

/* One address's meters: when each is back to its full burst (Unix microseconds). */
struct lobby_pace {
	char key[64];
	int64_t rooms_tat, players_tat;
	int64_t tries_tat, fails_tat; /* accounts: claims and sign-ins, failed password checks */
};

/* How many handle keys the failed-check meters remember; past it, the oldest meter goes. */
#define LOBBY_HANDLE_PACES 10000

void lobby_limits_finish(struct lobby *l)
{
	struct lobby_pace *pc;
	size_t pos = 0;

	tally_finish(&l->by_addr);
	tally_finish(&l->live_by_addr);
	tally_finish(&l->live_by_player);
	while ((pc = hmap_next(&l->paces, &pos)))
		free(pc);
	hmap_finish(&l->paces);
	pos = 0;
	while ((pc = hmap_next(&l->handle_paces, &pos)))
		free(pc);
	hmap_finish(&l->handle_paces);
}

/* The pace of `addr` in `map`, created (full) when asked to; NULL if none (or out of memory). */
static struct lobby_pace *pace_in(struct hmap *map, const char *addr, bool create)
{
	struct lobby_pace *pc;
	char k[64];

	snprintf(k, sizeof(k), "%s", addr);
	if ((pc = hmap_get(map, k)) || !create)
		return pc;
	if (!(pc = calloc(1, sizeof(*pc))))
		return NULL;
	memcpy(pc->key, k, sizeof(k));
	if (hmap_put(map, pc->key, pc)) {
		free(pc);
		return NULL;
	}
	return pc;
}

static struct lobby_pace *pace_of(struct lobby *l, const char *addr, bool create)
{
	return pace_in(&l->paces, addr, create);
}

/* Microseconds between two cells at `per_hour` an hour. */
static int64_t cell_us(int per_hour)
{
	return (int64_t)3600 * 1000000 / per_hour;
}

/* Whether one more cell conforms to the meter `tat` (burst cells at once, per_hour an hour). */
static bool pace_allows(const int64_t *tat, int per_hour, int burst)
{
	int64_t now = util_now_ms() * 1000;

	return !tat || *tat - now <= cell_us(per_hour) * (burst - 1);
}

/* Takes one cell of the meter `tat`. */
static void pace_take(int64_t *tat, int per_hour)
{
	int64_t now = util_now_ms() * 1000;

	*tat = (*tat > now ? *tat : now) + cell_us(per_hour);
}

/* Whether one more cell conforms to `tat` (burst at once, then one every every_s); else *wait_s set. */
static bool pace_allows_s(const int64_t *tat, int every_s, int burst, int *wait_s)
{
	int64_t now = util_now_ms() * 1000, cell = (int64_t)every_s * 1000000;
	int64_t over = tat ? *tat - now - cell * (burst - 1) : 0;

	if (over <= 0)
		return true;
	*wait_s = (int)((over + 999999) / 1000000);
	return false;
}

static void pace_take_s(int64_t *tat, int every_s)
{
	int64_t now = util_now_ms() * 1000;

	*tat = (*tat > now ? *tat : now) + (int64_t)every_s * 1000000;
}

int lobby_account_refused(struct lobby *l, const char *addr, const char *key, bool try, int *retry_s)
{
	const struct config *c = l->cfg;
	struct lobby_pace *pc = pace_of(l, addr, false),
			  *hk = key ? pace_in(&l->handle_paces, key, false) : NULL;
	int wait = 0;

	if ((try && !pace_allows_s(pc ? &pc->tries_tat : NULL, c->account_try_addr_s,
				   c->account_tries_per_addr, &wait)) ||
	    !pace_allows_s(pc ? &pc->fails_tat : NULL, c->sign_in_fail_addr_s, c->sign_in_fails_per_addr,
			   &wait) ||
	    !pace_allows_s(hk ? &hk->fails_tat : NULL, c->sign_in_fail_handle_s, c->sign_in_fails_per_handle,
			   &wait)) {
		*retry_s = wait;
		return LOBBY_E_TOO_MANY_PLAYERS;
	}
	return 0;
}

void lobby_account_tried(struct lobby *l, const char *addr)
{
	struct lobby_pace *pc = pace_of(l, addr, true);

	if (pc)
		pace_take_s(&pc->tries_tat, l->cfg->account_try_addr_s);
}

/* Room for one more handle key: the meter that is full again soonest (the oldest) goes. */
static void handle_paces_trim(struct lobby *l)
{
	struct lobby_pace *pc, *oldest = NULL;
	size_t pos = 0;

	if (l->handle_paces.len < LOBBY_HANDLE_PACES)
		return;
	while ((pc = hmap_next(&l->handle_paces, &pos)))
		if (!oldest || pc->fails_tat < oldest->fails_tat)
			oldest = pc;
	hmap_del(&l->handle_paces, oldest->key);
	free(oldest);
}

void lobby_account_failed(struct lobby *l, const char *addr, const char *key)
{
	struct lobby_pace *pc = pace_of(l, addr, true), *hk;

	if (pc)
		pace_take_s(&pc->fails_tat, l->cfg->sign_in_fail_addr_s);
	if (!key)
		return;
	if (!hmap_get(&l->handle_paces, key))
		handle_paces_trim(l);
	if ((hk = pace_in(&l->handle_paces, key, true)))
		pace_take_s(&hk->fails_tat, l->cfg->sign_in_fail_handle_s);
}

void lobby_account_unfailed(struct lobby *l, const char *addr, const char *key)
{
	struct lobby_pace *pc = pace_of(l, addr, false),
			  *hk = key ? pace_in(&l->handle_paces, key, false) : NULL;

	/* a take never starts before now, so a meter given back can be full but never fuller */
	if (pc)
		pc->fails_tat -= (int64_t)l->cfg->sign_in_fail_addr_s * 1000000;
	if (hk)
		hk->fails_tat -= (int64_t)l->cfg->sign_in_fail_handle_s * 1000000;
}

/* A refusal: its sentence in *why, its code returned. */
static int refuse(const char **why, int code, const char *sentence)
{
	*why = sentence;
	return code;
}

int lobby_room_open_refused(struct lobby *l, const struct player *p, const char *addr, const char **why)
{
	const struct config *c = l->cfg;
	struct lobby_pace *pc = pace_of(l, addr, false);

	if (l->rooms.len >= (size_t)c->max_rooms)
		return refuse(why, LOBBY_E_TOO_MANY_ROOMS,
			      "the server has as many rooms as it can hold: try again later");
	if (tally_get(&l->live_by_player, player_id(p)) >= (size_t)c->max_live_rooms_per_player) {
		l->metrics->refused_rooms_player++;
		return refuse(
			why, LOBBY_E_TOO_MANY_ROOMS,
			"you have too many rooms open (waiting, playing or just finished): wait until one "
			"closes");
	}
	if (tally_get(&l->live_by_addr, addr) >= (size_t)c->max_live_rooms_per_addr) {
		l->metrics->refused_rooms_addr++;
		return refuse(
			why, LOBBY_E_TOO_MANY_ROOMS,
			"too many rooms are open (waiting, playing or just finished) from your address: wait "
			"until one closes");
	}
	if (!pace_allows(pc ? &pc->rooms_tat : NULL, c->max_matches_per_addr_hour,
			 c->max_matches_per_addr_hour)) {
		l->metrics->refused_rooms_hour++;
		return refuse(why, LOBBY_E_TOO_MANY_ROOMS,
			      "your address opened as many rooms as it may in an hour: try again later");
	}
	return 0;
}

int lobby_room_refused(struct lobby *l, const struct player *p, const char *addr, const char **why)
{
	if (l->rooms.len >= (size_t)l->cfg->max_rooms)
		return refuse(why, LOBBY_E_TOO_MANY_ROOMS,
			      "the server has as many rooms as it can hold: try again later");
	if (player_waiting(p) >= l->cfg->max_rooms_per_player)
		return refuse(why, LOBBY_E_TOO_MANY_ROOMS,
			      "you have too many rooms waiting for players: start or leave one first");
	if (tally_get(&l->by_addr, addr) >= (size_t)l->cfg->max_rooms_per_addr)
		return refuse(why, LOBBY_E_TOO_MANY_ROOMS,
			      "too many rooms wait for players from your address: start or leave one first");
	return lobby_room_open_refused(l, p, addr, why);
}

int lobby_player_refused(struct lobby *l, const char *addr, const char **why)
{
	struct lobby_pace *pc = pace_of(l, addr, false);

	if (pace_allows(pc ? &pc->players_tat : NULL, l->cfg->max_new_players_per_addr_hour,
			l->cfg->new_players_burst))
		return 0;
	l->metrics->refused_players_addr++;
	return refuse(
		why, LOBBY_E_TOO_MANY_PLAYERS,
		"too many new players from your address: say hello with your token, or try again later");
}

void lobby_player_counted(struct lobby *l, const char *addr)
{
	struct lobby_pace *pc = pace_of(l, addr, true);

	if (pc) /* out of memory: that one goes unmetered */
		pace_take(&pc->players_tat, l->cfg->max_new_players_per_addr_hour);
}

static int free_seats(const struct room *r, bool *human)
{
	int i, n = 0;

	*human = false;
	for (i = 0; i < room_game(r)->seats; i++) {
		n += !room_seat_taken(r, i);
		*human |= room_seat_player(r, i) != NULL;
	}
	return n;
}

int lobby_bot_room_refused(struct lobby *l, const struct room *r, const char **why)
{
	bool human;

	if (room_status(r) != ROOM_WAITING || free_seats(r, &human) != 1 || human)
		return 0;
	if (l->bot_rooms >= l->cfg->max_bot_rooms)
		return refuse(
			why, LOBBY_E_TOO_MANY_BOT_ROOMS,
			"the server runs as many matches of bots only as it allows: seat a player, or try "
			"later");
	return 0;
}

void lobby_room_counted(struct lobby *l, struct room *r, struct player *p, const char *addr)
{
	struct room_host_data *hd = room_host_data(r);
	struct lobby_pace *pc;

	if (hd->live_counted)
		return;
	snprintf(hd->creator_addr, sizeof(hd->creator_addr), "%s", addr);
	snprintf(hd->opener, sizeof(hd->opener), "%s", player_id(p));
	/* out of memory: that room goes uncounted */
	hd->live_counted = !tally_add(&l->live_by_addr, addr, +1);
	if (hd->live_counted && tally_add(&l->live_by_player, player_id(p), +1)) {
		(void)tally_add(&l->live_by_addr, addr, -1);
		hd->live_counted = false;
	}
	if ((pc = pace_of(l, addr, true)))
		pace_take(&pc->rooms_tat, l->cfg->max_matches_per_addr_hour);
	if (hd->counted || room_status(r) != ROOM_WAITING)
		return;
	hd->counted = true;
	player_waiting_add(p, +1);
	(void)tally_add(&l->by_addr, addr, +1);
}

void lobby_room_update(struct lobby *l, struct room *r, bool gone)
{
	struct room_host_data *hd = room_host_data(r);
	bool human;

	if (gone && hd->live_counted) {
		hd->live_counted = false;
		(void)tally_add(&l->live_by_addr, hd->creator_addr, -1);
		(void)tally_add(&l->live_by_player, hd->opener, -1);
	}
	if (hd->counted && (gone || room_status(r) != ROOM_WAITING)) {
		struct player *p = hmap_get(&l->players_by_id, room_creator(r));

		hd->counted = false;
		if (p)
			player_waiting_add(p, -1);
		(void)tally_add(&l->by_addr, hd->creator_addr, -1);
	}
	if (!gone && !hd->bot_only && room_status(r) != ROOM_WAITING) {
		free_seats(r, &human);
		if (!human) {
			hd->bot_only = true;
			l->bot_rooms++;
		}
	}
	if (gone && hd->bot_only) {
		hd->bot_only = false;
		l->bot_rooms--;
	}
}

/* Forfeits every absent human seat of `r` (none is connected): the match ends through the rules core. */
static void forfeit_absent(struct room *r, int64_t now)
{
	int i;

	for (i = 0; i < room_game(r)->seats && room_status(r) == ROOM_PLAYING; i++)
		if (room_seat_player(r, i) && !player_connected(room_seat_player(r, i)) &&
		    room_forfeit(r, i, now) < 0)
			util_log(LOG_ERROR, "room %s: the forfeit of seat %d failed", room_id(r), i);
	util_log(LOG_INFO, "room %s: abandoned by its players; forfeited", room_id(r));
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
		if (room_status(r) != ROOM_PLAYING || !human || room_human_connected(r))
			continue;
		if (!room_absent_since(r)) {
			room_set_absent_since(r, now);
			continue;
		}
		if (now - room_absent_since(r) >= limit)
			forfeit_absent(r, now);
	}
}

/* Whether `p` may leave memory: nothing holds it and the database has its last save. */
static bool player_evictable(struct lobby *l, const struct player *p)
{
	return !player_connected(p) && !player_nrooms(p) && !player_waiting(p) && !l->host.stopping &&
	       player_saved_batch(p) <= store_journal_committed(l->store);
}

static void player_evict(struct lobby *l, struct player *p)
{
	hmap_del(&l->players, player_token_hash(p));
	hmap_del(&l->players_by_id, player_id(p));
	player_free(p);
}

void lobby_player_save(struct lobby *l, struct player *p)
{
	store_player_save(l->store, player_id(p), player_token_hash(p), player_name(p));
	player_set_saved_batch(p, store_journal_needed(l->store));
}

void lobby_player_release(struct lobby *l, struct player *p)
{
	if (player_evictable(l, p))
		player_evict(l, p);
}

void lobby_players_housekeep(struct lobby *l, int64_t now)
{
	int64_t ttl = (int64_t)l->cfg->player_ttl_s * 1000;
	int64_t every = ttl / 2 < 5000 ? 5000 : ttl / 2 > 3600000 ? 3600000 : ttl / 2;
	struct lobby_pace *pc;
	struct player *p;
	size_t pos = 0;

	while ((p = hmap_next(&l->players_by_id, &pos)))
		if (player_evictable(l, p))
			player_evict(l, p);
	pos = 0;
	while ((pc = hmap_next(&l->paces, &pos)))
		if (pc->rooms_tat <= now * 1000 && pc->players_tat <= now * 1000 &&
		    pc->tries_tat <= now * 1000 && pc->fails_tat <= now * 1000) { /* full again */
			hmap_del(&l->paces, pc->key);
			free(pc);
		}
	pos = 0;
	while ((pc = hmap_next(&l->handle_paces, &pos)))
		if (pc->fails_tat <= now * 1000) {
			hmap_del(&l->handle_paces, pc->key);
			free(pc);
		}
	if (now - l->players_expired_ms >= every && !store_journal_failing(l->store)) {
		l->players_expired_ms = now;
		store_players_expire(l->store, now - ttl);
	}
}
