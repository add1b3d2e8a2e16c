/*
 * lobby_restore.c: start-up, before the store thread runs: player identities
 * first, then every journalled room rebuilt through the rules core (see
 * room_restore.c) as store_load_live() reads it: the room, its seats, its
 * actions and events merged by ply. A room whose journal does not replay is
 * left out of memory with its journal kept for inspection; the others
 * resume play. No SQL here: the store reads, this file decides.
 */
#include "lobby/lobby_int.h"

#include <errno.h>
#include <string.h>
#include <stdlib.h>

#include "cluster/cluster.h"
#include "store/store.h"

/* The room being rebuilt. */
struct replay {
	struct lobby *l;
	struct room *r; /* NULL when the store's record was unusable */
	int64_t started_at;
	/* an adoption (lobby_adopt): */
	bool skip;           /* the room is in memory already: none of its journal is applied */
	struct hmap adopted; /* the rooms it brought, by id (borrowed) */
};

static int load_player(void *ctx, const char *id, const char *token_hash, const char *name)
{
	struct lobby *l = ((struct replay *)ctx)->l;
	struct store_identity who;
	struct player *p = lobby_player_add(l, id, token_hash, name);

	if (!p)
		return -ENOMEM;
	/*
	 * An account's identity (its token hash `claimed:<id>`, which the read finds as a guest's): its
	 * handle and its ratings, so that its seats show them again (a guest has neither). Read
	 * synchronously: this runs at start-up, before the loop serves anyone, and in a cluster's
	 * adoption, whose whole load is synchronous (lobby_adopt); a hello's read never is
	 * (store_player_load). A read that fails leaves it a guest until its next sign-in or hello.
	 */
	if (!strncmp(token_hash, "claimed:", 8) && !store_player_read(l->store, token_hash, &who)) {
		if (*who.handle)
			player_set_handle(p, who.handle);
		lobby_player_ratings_set(p, who.ratings, who.nratings);
		store_identity_finish(&who);
	}
	return 0;
}

static int load_room(void *ctx, const char *id, const char *game, const char *options,
		     const char *server_seed, const char *creator_id, int64_t created_at, int64_t started_at)
{
	struct replay *rp = ctx;

	rp->r = NULL;
	rp->started_at = started_at;
	return room_restore(&rp->l->host, id, game, options, server_seed, creator_id, created_at, started_at,
			    &rp->r);
}

static int load_seat(void *ctx, int seat, const char *player_id, const char *client_seed,
		     const char *bot_level)
{
	struct replay *rp = ctx;
	struct player *p = NULL;

	if (player_id && !(p = hmap_get(&rp->l->players_by_id, player_id)))
		return -EINVAL;
	return room_restore_seat(rp->r, seat, p, client_seed, bot_level);
}

static int load_action(void *ctx, int ply, int seat, const char *action, const char *outcome, int64_t at,
		       bool stand_in)
{
	return room_restore_action(((struct replay *)ctx)->r, ply, seat, action, outcome, at, stand_in);
}

static int load_event(void *ctx, int ply, int seat, int kind, int64_t at)
{
	return room_restore_event(((struct replay *)ctx)->r, ply, seat, kind, at);
}

static void load_rated(void *ctx)
{
	struct replay *rp = ctx;

	if (rp->r) /* still restoring: nothing is journalled again */
		room_set_rated(rp->r);
}

static void load_room_end(void *ctx, int err)
{
	struct replay *rp = ctx;
	struct room *r = rp->r;

	rp->r = NULL;
	if (!err && r && !hmap_put(&rp->l->rooms, room_id(r), r)) {
		room_restore_finish(r, rp->started_at);
		/* nobody is connected yet: an abandoned match counts from its last activity */
		room_set_absent_since(r, room_last_at(r));
		lobby_room_update(rp->l, r, false);
		rp->l->order_stale = true;
		cluster_room_hosted(rp->l->cluster, room_id(r));
		return;
	}
	util_log(LOG_ERROR, "restore: room %s does not replay (%d); its journal is kept for inspection",
		 r ? room_id(r) : "?", err);
	if (r)
		room_destroy(r); /* still restoring: the journal is kept */
}

static const struct store_live_ops ops = {
	load_player, load_room, load_seat, load_action, load_event, load_room_end, load_rated,
};

/* An archived room's seat holder may be known already (a seat in a live room). */
static int load_player_once(void *ctx, const char *id, const char *token_hash, const char *name)
{
	return hmap_get(&((struct replay *)ctx)->l->players_by_id, id)
		       ? 0
		       : load_player(ctx, id, token_hash, name);
}

/*
 * A room's journalled mutes and rematch offer: a live room restored already,
 * or a finished one just rebuilt from its archived match (rp->r), which
 * lingers again for what is left of its time.
 */
static int load_after(void *ctx, const char *id, bool archived, int64_t ended_at, const char *mutes,
		      const char *rematch, int err)
{
	struct replay *rp = ctx;
	struct lobby *l = rp->l;
	struct room *r = archived ? rp->r : lobby_room_find(l, id);

	rp->r = NULL;
	if (archived && r && !err && util_now_ms() - ended_at > (int64_t)l->cfg->finished_room_ttl_s * 1000) {
		room_destroy(r); /* its time is over: it goes, as it would have */
		store_live_after_drop(l->store, id);
		return 0;
	}
	if (archived && (err || !r || room_restore_archived(r, rp->started_at, ended_at))) {
		util_log(LOG_ERROR, "restore: finished room %s does not replay from the archive (%d)", id,
			 err);
		if (r)
			room_destroy(r); /* still restoring: its row is kept */
		return 0;
	}
	if (!r) {
		util_log(LOG_WARN, "restore: room %s has mutes or a rematch offer but is not live", id);
		return 0;
	}
	if (archived && hmap_put(&l->rooms, room_id(r), r)) {
		room_destroy_kept(r); /* keep its row */
		return -ENOMEM;
	}
	if (room_restore_after(r, mutes, rematch))
		util_log(LOG_ERROR, "restore: room %s: its mutes or rematch offer do not make sense", id);
	if (archived) {
		lobby_room_update(l, r, false);
		l->order_stale = true;
		cluster_room_hosted(l->cluster, room_id(r));
	}
	return 0;
}

static const struct store_after_ops after_ops = {
	{ load_player_once, load_room, load_seat, load_action, load_event, NULL, load_rated },
	load_after,
};

int lobby_restore(struct lobby *l)
{
	struct replay rp = { l, NULL, 0, false, { 0 } };
	int err = store_load_players(l->store, &ops, &rp);

	if (!err)
		err = store_load_live(l->store, &ops, &rp);
	if (!err)
		err = store_load_after(l->store, &after_ops, &rp);
	if (!err && l->rooms.len)
		util_log(LOG_INFO, "restore: %zu room(s) resumed from the journal", l->rooms.len);
	return err ? -EIO : 0;
}

/*
 * An adoption (lobby_adopt): the store loads every room of this node, those
 * in memory already (this node's own) included; they are skipped whole, so
 * that only the newly owned ones are rebuilt.
 */
static int adopt_room(void *ctx, const char *id, const char *game, const char *options,
		      const char *server_seed, const char *creator_id, int64_t created_at, int64_t started_at)
{
	struct replay *rp = ctx;

	rp->r = NULL;
	rp->skip = lobby_room_find(rp->l, id) != NULL;
	if (rp->skip)
		return 1;
	return load_room(ctx, id, game, options, server_seed, creator_id, created_at, started_at);
}

static void adopt_room_end(void *ctx, int err)
{
	struct replay *rp = ctx;
	struct room *r = rp->r;
	size_t n = rp->l->rooms.len;

	if (rp->skip) {
		rp->skip = false;
		return;
	}
	load_room_end(ctx, err);
	/* r is in memory now, or was destroyed (it does not replay, or no memory): tell by the count */
	if (r && rp->l->rooms.len > n && hmap_put(&rp->adopted, room_id(r), r))
		util_log(LOG_WARN, "adopt: room %s: out of memory (its mutes and rematch offer not restored)",
			 room_id(r));
}

/*
 * The mutes and rematch offers of the adopted rooms, and the dead node's
 * finished rooms that linger (rebuilt from the archive, as at a start-up);
 * never those of a room in memory already (this node's own: its state in
 * memory is newer than any row).
 */
static int adopt_after(void *ctx, const char *id, bool archived, int64_t ended_at, const char *mutes,
		       const char *rematch, int err)
{
	struct replay *rp = ctx;
	bool mine = archived ? rp->skip : !hmap_get(&rp->adopted, id);

	rp->skip = false;
	if (mine) {
		rp->r = NULL; /* adopt_room() rebuilt nothing */
		return 0;
	}
	return load_after(ctx, id, archived, ended_at, mutes, rematch, err);
}

static const struct store_live_ops adopt_ops = {
	load_player_once, adopt_room, load_seat, load_action, load_event, adopt_room_end, load_rated,
};

static const struct store_after_ops adopt_after_ops = {
	{ load_player_once, adopt_room, load_seat, load_action, load_event, NULL, load_rated },
	adopt_after,
};

int lobby_adopt(struct lobby *l, const char *node)
{
	struct replay rp = { l, NULL, 0, false, { 0 } };
	size_t before = l->rooms.len;
	int err;

	hmap_init(&rp.adopted);
	err = store_load_players(l->store, &adopt_ops, &rp);
	if (!err)
		err = store_load_live(l->store, &adopt_ops, &rp);
	if (!err)
		err = store_load_after(l->store, &adopt_after_ops, &rp);
	hmap_finish(&rp.adopted);
	if (l->rooms.len != before) {
		util_log(LOG_INFO, "adopt: %zu room(s) of node %s resumed here from the journal",
			 l->rooms.len - before, node);
		lobby_changed(l);
	}
	if (err)
		util_log(LOG_ERROR, "adopt: node %s's rooms could not all be read from the journal (%d)",
			 node, err);
	return err ? -EIO : 0;
}
