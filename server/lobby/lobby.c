/*
 * lobby.c: player identities and the room registry. A player is found by the
 * SHA-256 of its token (the token itself is never kept); identities are
 * saved through the store thread and read back by token hash when they say
 * hello (those holding a journalled seat at start-up), so a token outlives a
 * restart: the hello's read runs on the store's lookup thread, with the
 * identity's ratings, and its answer makes the player here
 * (lobby_player_loaded); nothing here waits on the database. The room list
 * (lobby_list.c) is pushed to the connections that asked for it, at most
 * once a second, serialised once for all.
 *
 * Invariants: every room in `rooms` is live (not dead); a player is in both
 * maps or in neither.
 */
#include "lobby/lobby_int.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cluster/cluster.h"
#include "store/store.h"

static void changed_cb(void *ctx)
{
	lobby_changed(ctx);
}

/* Sends every due room its state: one frame per room for all the spectators that came and went. */
static void spectators_cb(uv_timer_t *t)
{
	struct lobby *l = t->data;
	struct room *r;

	l->spectators_sent_ms = util_now_ms();
	while ((r = l->spectators_due)) {
		l->spectators_due = room_host_data(r)->spectators_next;
		room_host_data(r)->spectators_next = NULL;
		room_host_data(r)->spectators_listed = false;
		room_spectators_flush(r);
	}
}

static void spectators_due_cb(void *ctx, struct room *r)
{
	struct lobby *l = ctx;
	struct room_host_data *hd = room_host_data(r);
	int64_t wait;

	if (hd->spectators_listed || l->host.stopping)
		return;
	hd->spectators_listed = true;
	hd->spectators_next = l->spectators_due;
	l->spectators_due = r;
	if (uv_is_active((uv_handle_t *)&l->spectators_timer))
		return;
	wait = LOBBY_SPECTATORS_MS - (util_now_ms() - l->spectators_sent_ms);
	if (uv_timer_start(&l->spectators_timer, spectators_cb, wait > 0 ? (uint64_t)wait : 0, 0)) {
		util_log(LOG_ERROR, "lobby: the spectators timer cannot start");
		spectators_cb(&l->spectators_timer); /* send them now rather than never */
	}
}

/* Takes `r` out of the list of rooms due a spectator count (it is going). */
static void spectators_unlist(struct lobby *l, struct room *r)
{
	struct room_host_data *hd = room_host_data(r);
	struct room **pp;

	if (!hd->spectators_listed)
		return;
	for (pp = &l->spectators_due; *pp; pp = &room_host_data(*pp)->spectators_next)
		if (*pp == r) {
			*pp = hd->spectators_next;
			break;
		}
	hd->spectators_listed = false;
}

static void rated_cb(void *ctx, const struct store_match *m);

int lobby_new(uv_loop_t *loop, struct store *store, const struct config *cfg, struct metrics *metrics,
	      void (*send)(void *who, struct buf *frame), struct lobby **out)
{
	struct lobby *l = calloc(1, sizeof(*l));
	int err;

	*out = l;
	if (!l)
		return -ENOMEM;
	l->store = store;
	l->cfg = cfg;
	l->metrics = metrics;
	l->host = (struct room_host){ .loop = loop,
				      .store = store,
				      .cfg = cfg,
				      .metrics = metrics,
				      .send = send,
				      .changed = changed_cb,
				      .ctx = l,
				      .spectators = spectators_due_cb,
				      .rated = rated_cb };
	hmap_init(&l->rooms);
	hmap_init(&l->players);
	hmap_init(&l->players_by_id);
	tally_init(&l->by_addr);
	tally_init(&l->live_by_addr);
	tally_init(&l->live_by_player);
	hmap_init(&l->paces);
	hmap_init(&l->handle_paces);
	hmap_init(&l->rnodes);
	l->order_stale = true;
	err = uv_timer_init(loop, &l->timer);
	if (err)
		return err;
	l->timer.data = l;
	err = uv_timer_init(loop, &l->spectators_timer);
	if (err)
		return err;
	l->spectators_timer.data = l;
	return room_bots_new(loop, cfg, metrics, &l->host.bots);
}

struct player *lobby_player_add(struct lobby *l, const char *id, const char *token_hash, const char *name)
{
	struct player *p = player_new(id, token_hash, name);

	if (!p)
		return NULL;
	if (hmap_put(&l->players, player_token_hash(p), p) || hmap_put(&l->players_by_id, player_id(p), p)) {
		hmap_del(&l->players, player_token_hash(p));
		player_free(p);
		return NULL;
	}
	return p;
}

static void room_remove(struct lobby *l, struct room *r)
{
	/* shutting down is not closing: the room stays journalled, and in the directory for whoever
	 * hosts it next (this node restarted, or the one that adopts it) */
	if (!l->host.stopping)
		cluster_room_gone(l->cluster, room_id(r));
	hmap_del(&l->rooms, room_id(r));
	spectators_unlist(l, r);
	l->order_stale = true;
	lobby_room_update(l, r, true);
	room_destroy(r); /* freed once its timer handle has closed */
	lobby_changed(l);
}

void lobby_close(struct lobby *l)
{
	struct room *r;
	size_t pos = 0;

	l->host.stopping = true;
	uv_timer_stop(&l->timer);
	uv_close((uv_handle_t *)&l->timer, NULL);
	uv_timer_stop(&l->spectators_timer);
	uv_close((uv_handle_t *)&l->spectators_timer, NULL);
	while ((r = hmap_next(&l->rooms, &pos)))
		room_remove(l, r);    /* hmap_del only tombstones: the iteration stays valid */
	room_bots_stop(l->host.bots); /* after the rooms: every job out is detached */
}

void lobby_set_store(struct lobby *l, struct store *store)
{
	l->store = l->host.store = store;
}

/* Another node's summaries changed, or a node came or went: the merged list is pushed again. */
static void cluster_changed_cb(void *ctx)
{
	struct lobby *l = ctx;

	l->remote_stale = true;
	lobby_changed(l);
}

void lobby_set_cluster(struct lobby *l, struct cluster *c)
{
	l->cluster = c;
	l->remote_stale = true;
	cluster_on_change(c, cluster_changed_cb, l);
	if (c)
		lobby_changed(l); /* our first summaries, even with no room */
}

struct cluster *lobby_cluster(const struct lobby *l)
{
	return l->cluster;
}

bool lobby_stopping(const struct lobby *l)
{
	return l->host.stopping;
}

size_t lobby_rooms_count(const struct lobby *l)
{
	return l->rooms.len;
}

size_t lobby_players_count(const struct lobby *l)
{
	return l->players.len;
}

void lobby_bot_counts(struct lobby *l, size_t *queued, size_t *running)
{
	room_bots_counts(l->host.bots, queued, running);
}

struct room *lobby_room_next(struct lobby *l, size_t *pos)
{
	return hmap_next(&l->rooms, pos);
}

void lobby_free(struct lobby *l)
{
	struct player *p;
	size_t pos = 0;

	if (!l)
		return;
	while ((p = hmap_next(&l->players_by_id, &pos)))
		player_free(p);
	json_decref(l->cache);
	l->cache = NULL;
	buf_unref(l->pushed);
	l->pushed = NULL;
	free(l->order);
	free(l->text);
	lobby_list_finish(l);
	lobby_limits_finish(l);
	room_bots_free(l->host.bots);
	hmap_finish(&l->rooms);
	hmap_finish(&l->players);
	hmap_finish(&l->players_by_id);
	free(l);
}

static void token_hash(const char *token, char out[65])
{
	uint8_t h[RULES_SHA256_SIZE];

	rules_sha256(token, strlen(token), h);
	wire_hex_encode(h, sizeof(h), out);
}

struct player *lobby_player_by_id(struct lobby *l, const char *id)
{
	return hmap_get(&l->players_by_id, id);
}

struct player *lobby_player_find(struct lobby *l, const char *token_hash)
{
	return hmap_get(&l->players, token_hash);
}

void lobby_player_ratings_set(struct player *p, const struct store_rating *r, size_t n)
{
	/* a game this build no longer hosts has no seat to show it: skipped */
	for (size_t i = 0; i < n; i++)
		if (rules_game_find(r[i].game))
			(void)player_set_rating(p, r[i].game, r[i].rating, r[i].rd);
}

struct player *lobby_player_loaded(struct lobby *l, const char *token_hash, const struct store_identity *who)
{
	struct player *p = hmap_get(&l->players, token_hash);

	if (p) /* another hello with this token was answered first: the one in memory, and its figures */
		return p;
	p = hmap_get(&l->players_by_id, who->id);
	if (p && player_deleting(p) && !player_handle(p)) /* deleted since the read: the token is nobody's */
		return NULL;
	if (*who->handle)
		return lobby_player_account(l, who->id, who->name, who->handle, who->ratings, who->nratings);
	/* read as a guest, claimed here since: the guest's token became the account's first session, so
	 * it speaks for the account, as a hello read now would find */
	if (p && player_handle(p))
		return p;
	if (p) /* a guest in memory under another token: none */
		return NULL;
	p = lobby_player_add(l, who->id, token_hash, who->name);
	if (p)
		lobby_player_ratings_set(p, who->ratings, who->nratings);
	return p;
}

/* A rated match's figures, read again (rated_cb on PostgreSQL): its player, if still here. */
struct reread {
	struct lobby *l;
	char id[16];
};

static void reread_cb(void *ctx, int err, const struct store_identity *who)
{
	struct reread *rr = ctx;
	struct lobby *l = rr->l;
	struct player *p = lobby_stopping(l) ? NULL : hmap_get(&l->players_by_id, rr->id);

	if (err && err != STORE_E_CLOSED) /* its seats show the figures before until the next load */
		util_log(LOG_WARN, "player %s: its new ratings could not be read (%s)", rr->id,
			 store_strerror(err));
	if (p && !err) {
		lobby_player_ratings_set(p, who->ratings, who->nratings);
		for (int k = 0; k < player_nrooms(p); k++) /* its other seats show the new figure */
			room_seats_restyled(player_room(p, k));
		if (l->rated_hook)
			l->rated_hook(l->rated_ctx, p);
		lobby_changed(l);
	}
	free(rr);
}

/* PostgreSQL: an earlier try had committed, its answer lost: what it wrote is read off the loop. */
static void ratings_reread(struct lobby *l, struct player *p)
{
	struct reread *rr = calloc(1, sizeof(*rr));

	if (rr) {
		rr->l = l;
		snprintf(rr->id, sizeof(rr->id), "%s", player_id(p));
	}
	if (!rr || !store_ratings_load(l->store, rr->id, reread_cb, rr)) {
		util_log(LOG_WARN, "player %s: its new ratings could not be read", player_id(p));
		free(rr);
	}
}

/* The room's rated match was archived (committed): its players' new figures, kept and told. */
static void rated_cb(void *ctx, const struct store_match *m)
{
	struct lobby *l = ctx;

	for (int i = 0; i < m->nseats; i++) {
		struct player *p =
			m->seats[i].player_id ? hmap_get(&l->players_by_id, m->seats[i].player_id) : NULL;

		if (!p) /* evicted since (it had no seat left): loaded with its rows when it comes back */
			continue;
		if (!m->rated_seq) { /* PostgreSQL: the figures are read again; told when they come */
			ratings_reread(l, p);
			continue;
		}
		(void)player_set_rating(p, m->game, m->after[i].rating, m->after[i].rd);
		for (int k = 0; k < player_nrooms(p); k++) /* its other seats show the new figure */
			room_seats_restyled(player_room(p, k));
		if (l->rated_hook)
			l->rated_hook(l->rated_ctx, p);
	}
	lobby_changed(l); /* the open rooms' summaries with it */
}

void lobby_set_rated_hook(struct lobby *l, void (*hook)(void *ctx, struct player *p), void *ctx)
{
	l->rated_hook = hook;
	l->rated_ctx = ctx;
}

static void claimed_key(const char *id, char out[65])
{
	snprintf(out, 65, "claimed:%s", id);
}

void lobby_player_claimed(struct lobby *l, struct player *p)
{
	char key[65];

	claimed_key(player_id(p), key);
	hmap_del(&l->players, player_token_hash(p));
	player_set_token_hash(p, key);
	if (hmap_put(&l->players, player_token_hash(p), p)) {
		/* out of memory: keep the maps' invariant (in both or neither) by forgetting it now; its
		 * connections and seats still hold it, so only its lookup by id is lost */
		hmap_del(&l->players_by_id, player_id(p));
	}
}

struct player *lobby_player_account(struct lobby *l, const char *id, const char *name, const char *handle,
				    const struct store_rating *ratings, size_t nratings)
{
	struct player *p = hmap_get(&l->players_by_id, id);
	char key[65];

	if (!p) {
		claimed_key(id, key);
		p = lobby_player_add(l, id, key, name);
		if (p) /* loaded now: its seats show the ratings the store read with it */
			lobby_player_ratings_set(p, ratings, nratings);
	}
	if (p && !player_deleting(p)) /* a deleted account's handle never comes back from a stale answer */
		player_set_handle(p, handle);
	return p;
}

int lobby_player_hello(struct lobby *l, struct player *p, const char *token, const char *name,
		       char *token_out, size_t token_out_size, struct player **out)
{
	uint8_t raw[24];
	char hash[65], id[16];
	int err;

	*out = NULL;
	if (p) {
		snprintf(token_out, token_out_size, "%s", token);
		player_rename(p, name, util_now_ms());
		lobby_player_save(l, p); /* its name, and when it was seen */
		if (player_handle(p)) {  /* an account: this token is one of its sessions */
			token_hash(token, hash);
			store_session_seen(l->store, hash, util_now_ms());
		}
		*out = p;
		return 0;
	}
	if (token_out_size < 49)
		return -EINVAL;
	err = util_random(raw, sizeof(raw));
	if (!err)
		err = util_random_id("p", 12, id);
	if (err)
		return err;
	wire_hex_encode(raw, sizeof(raw), token_out);
	token_hash(token_out, hash);
	p = lobby_player_add(l, id, hash, name);
	if (!p)
		return -ENOMEM;
	l->metrics->players_created++;
	player_rename(p, name, util_now_ms()); /* seen now */
	lobby_player_save(l, p);
	*out = p;
	return 0;
}

const char *lobby_strerror(int code)
{
	switch (code) {
	case LOBBY_E_TOO_MANY_ROOMS:
		return "too many rooms";
	case LOBBY_E_TOO_MANY_BOT_ROOMS:
		return "too many matches of bots only";
	case LOBBY_E_TOO_MANY_PLAYERS:
		return "too many new identities from this address";
	default:
		return "unknown lobby error";
	}
}

int lobby_room_create(struct lobby *l, const struct player *creator, const struct rules_game *g,
		      const struct wire_game *codec, const struct wire_room_options *ropt,
		      const struct rules_options *gopt, struct room **out)
{
	char id[WIRE_ROOM_ID_MAX + 1];
	struct room *r;
	int err;

	do {
		err = util_random_id("", 10, id);
	} while (!err && hmap_get(&l->rooms, id));
	if (err)
		return err;
	err = room_new(&l->host, id, player_id(creator), g, codec, ropt, gopt, &r);
	if (err)
		return err;
	if (hmap_put(&l->rooms, room_id(r), r)) {
		room_destroy(r); /* drops the journal it just wrote */
		return -ENOMEM;
	}
	l->order_stale = true;
	cluster_room_hosted(l->cluster, room_id(r));
	lobby_changed(l);
	*out = r;
	return 0;
}

void lobby_room_discard(struct lobby *l, struct room *r)
{
	room_remove(l, r);
}

struct room *lobby_room_find(struct lobby *l, const char *id)
{
	return hmap_get(&l->rooms, id);
}

void lobby_housekeep(struct lobby *l, int64_t now)
{
	struct room *r;
	size_t pos = 0;

	while ((r = hmap_next(&l->rooms, &pos)))
		if (room_expired(r, now))
			room_remove(l, r);
}

void lobby_subscribe(struct lobby *l, struct lobby_sub *sub, void *who)
{
	if (sub->on)
		return;
	sub->on = true;
	sub->who = who;
	sub->prev = NULL;
	sub->next = l->subs;
	if (l->subs)
		l->subs->prev = sub;
	l->subs = sub;
}

void lobby_unsubscribe(struct lobby *l, struct lobby_sub *sub)
{
	if (!sub->on)
		return;
	if (sub->prev)
		sub->prev->next = sub->next;
	else
		l->subs = sub->next;
	if (sub->next)
		sub->next->prev = sub->prev;
	sub->on = false;
}

static void push_cb(uv_timer_t *t)
{
	struct lobby *l = t->data;
	struct lobby_sub *s, *next;
	struct buf *b;

	l->dirty = false;
	l->pushed_ms = util_now_ms();
	lobby_publish(l); /* to the other nodes, whether anyone here listens or not */
	if (!l->subs)
		return;
	b = lobby_rooms_frame(l, NULL);
	if (b && l->pushed && b->len == l->pushed->len && !memcmp(b->data, l->pushed->data, b->len)) {
		buf_unref(b); /* nothing they see changed (a change and its undoing within the period) */
		return;
	}
	buf_unref(l->pushed);
	l->pushed = b ? buf_ref(b) : NULL;
	for (s = l->subs; b && s; s = next) {
		next = s->next;
		l->host.send(s->who, b);
	}
	buf_unref(b);
}

void lobby_changed(struct lobby *l)
{
	int64_t wait;

	l->text_stale = true;
	if (l->dirty || l->host.stopping)
		return;
	l->dirty = true;
	wait = 1000 - (util_now_ms() - l->pushed_ms);
	if (uv_timer_start(&l->timer, push_cb, wait > 0 ? (uint64_t)wait : 0, 0)) {
		util_log(LOG_ERROR, "lobby: the push timer cannot start");
		l->dirty = false; /* the next change tries again */
	}
}
