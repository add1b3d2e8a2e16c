/*
 * lobby_restore.c: start-up, before the store thread runs: player identities
 * first, then every journalled room rebuilt through the rules core (see
 * room_restore.c). A room whose journal does not replay is left out of
 * memory with its journal kept for inspection; the others resume play.
 */
#include "lobby.h"

#include <errno.h>
#include <stdlib.h>

#include "store.h"

static int player_row(void *ctx, int n, const char *const *c)
{
	struct lobby *l = ctx;
	struct player *p;

	if (!c[0] || !c[1] || !c[2] || !(p = calloc(1, sizeof(*p))))
		return -ENOMEM;
	snprintf(p->id, sizeof(p->id), "%s", c[0]);
	snprintf(p->token_hash, sizeof(p->token_hash), "%s", c[1]);
	snprintf(p->name, sizeof(p->name), "%s", c[2]);
	if (hmap_put(&l->players, p->token_hash, p) || hmap_put(&l->players_by_id, p->id, p)) {
		hmap_del(&l->players, p->token_hash);
		free(p);
		return -ENOMEM;
	}
	return 0;
}

struct replay {
	struct lobby *l;
	struct room *r;
};

static int seat_row(void *ctx, int n, const char *const *c)
{
	struct replay *rp = ctx;
	struct player *p = NULL;

	if (c[1] && !(p = hmap_get(&rp->l->players_by_id, c[1])))
		return -EINVAL;
	return room_restore_seat(rp->r, atoi(c[0]), p, c[2]);
}

static int action_row(void *ctx, int n, const char *const *c)
{
	struct replay *rp = ctx;

	return room_restore_action(rp->r, atoi(c[0]), atoi(c[1]), c[2], c[3], strtoll(c[4], NULL, 10));
}

static int room_row(void *ctx, int n, const char *const *c)
{
	struct lobby *l = ctx;
	struct replay rp = {l, NULL};

	if (!c[0] || !c[1] || !c[2] || !c[3] || !c[4] ||
	    room_restore(&l->host, c[0], c[1], c[2], c[3], strtoll(c[4], NULL, 10), &rp.r)) {
		util_log(LOG_ERROR, "restore: room %s: unusable journal record, kept for inspection",
			 c[0] ? c[0] : "?");
		return 0;
	}
	if (store_query(l->store, "SELECT seat, player_id, client_seed FROM live_seats WHERE room_id = ?1 "
				  "ORDER BY seat", rp.r->id, seat_row, &rp) ||
	    store_query(l->store, "SELECT ply, seat, action, outcome, at FROM live_actions "
				  "WHERE room_id = ?1 ORDER BY ply", rp.r->id, action_row, &rp) ||
	    (c[6] && room_restore_event(rp.r, (int)rp.r->nactions, atoi(c[6]),
					c[7] && atoi(c[7]) == RULES_REASON_FORFEIT ? RULES_EVENT_FORFEIT
										   : RULES_EVENT_RESIGN,
					c[8] ? strtoll(c[8], NULL, 10) : 0)) ||
	    hmap_put(&l->rooms, rp.r->id, rp.r)) {
		util_log(LOG_ERROR, "restore: room %s does not replay; its journal is kept for inspection",
			 rp.r->id);
		room_destroy(rp.r); /* still restoring: the journal is kept */
		return 0;
	}
	room_restore_finish(rp.r, c[5] ? strtoll(c[5], NULL, 10) : 0);
	return 0;
}

int lobby_restore(struct lobby *l)
{
	int err = store_query(l->store, "SELECT id, token_hash, name FROM players", NULL, player_row, l);

	if (!err)
		err = store_query(l->store, "SELECT id, game, options, server_seed, created_at, started_at, "
					    "resigned_seat, resign_reason, ended_at FROM live_rooms "
					    "ORDER BY created_at", NULL, room_row, l);
	if (!err && l->rooms.len)
		util_log(LOG_INFO, "restore: %zu room(s) resumed from the journal", l->rooms.len);
	return err ? -EIO : 0;
}
