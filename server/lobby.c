/*
 * lobby.c: player identities and the room list. A player is found by the
 * SHA-256 of its token (the token itself is never kept); identities are
 * loaded from the archive at start-up and saved through the store thread, so
 * a token outlives a restart. The room list is pushed to the connections
 * that asked for it, at most once a second, serialised once for all.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "server.h"
#include "store.h"

static struct player *player_add(struct server *srv, const char *id, const char *token_hash,
				 const char *name)
{
	struct player *p = calloc(1, sizeof(*p));

	if (!p)
		return NULL;
	snprintf(p->id, sizeof(p->id), "%s", id);
	snprintf(p->token_hash, sizeof(p->token_hash), "%s", token_hash);
	snprintf(p->name, sizeof(p->name), "%s", name);
	if (hmap_put(&srv->players, p->token_hash, p) || hmap_put(&srv->players_by_id, p->id, p)) {
		hmap_del(&srv->players, p->token_hash);
		free(p);
		return NULL;
	}
	return p;
}

/* What store_load_live() is replaying: the room being rebuilt and its journalled times. */
struct restore_ctx {
	struct server *srv;
	struct room *room;         /* NULL when the store's record was unusable */
	int64_t started_at, ended_at;
};

static int load_player(void *ctx, const char *id, const char *token_hash, const char *name)
{
	struct restore_ctx *c = ctx;

	return player_add(c->srv, id, token_hash, name) ? 0 : -ENOMEM;
}

static const struct store_live_ops restore_ops;

static void lobby_push_cb(uv_timer_t *t);

int lobby_init(struct server *srv)
{
	hmap_init(&srv->rooms);
	hmap_init(&srv->players);
	hmap_init(&srv->players_by_id);
	hmap_init(&srv->addrs);
	uv_timer_init(srv->loop, &srv->lobby_timer);
	srv->lobby_timer.data = srv;
	struct restore_ctx c = {.srv = srv};

	return store_load_players(srv->store, &restore_ops, &c);
}

/* Closes every room (their handles close on the next loop turn). */
void lobby_close_rooms(struct server *srv)
{
	struct room *r;
	size_t pos = 0;

	uv_timer_stop(&srv->lobby_timer);
	uv_close((uv_handle_t *)&srv->lobby_timer, NULL);
	while ((r = hmap_next(&srv->rooms, &pos)))
		room_destroy(r); /* frees once its timer handle has closed */
}

/* Frees players and maps; only once the loop has stopped and every session is gone. */
void lobby_finish(struct server *srv)
{
	struct player *p;
	void *a;
	size_t pos = 0;

	while ((p = hmap_next(&srv->players_by_id, &pos))) {
		free(p->rooms);
		free(p);
	}
	pos = 0;
	while ((a = hmap_next(&srv->addrs, &pos)))
		free(a);
	json_decref(srv->lobby_cache);
	srv->lobby_cache = NULL;
	hmap_finish(&srv->rooms);
	hmap_finish(&srv->players);
	hmap_finish(&srv->players_by_id);
	hmap_finish(&srv->addrs);
}

static void token_hash(const char *token, char out[65])
{
	uint8_t h[RULES_SHA256_SIZE];

	rules_sha256(token, strlen(token), h);
	wire_hex_encode(h, sizeof(h), out);
}

/* The player holding `token`, or NULL. */
struct player *lobby_player_by_token(struct server *srv, const char *token)
{
	char hash[65];

	token_hash(token, hash);
	return hmap_get(&srv->players, hash);
}

/*
 * Resumes the player whose token this is, or creates one (unknown or absent
 * token). Writes the player's token into token_out. NULL on failure.
 */
struct player *lobby_player_hello(struct server *srv, const char *token, const char *name,
				  char *token_out, size_t token_out_size)
{
	uint8_t raw[24];
	char hash[65], id[16];
	struct player *p = NULL;

	if (token) {
		token_hash(token, hash);
		p = hmap_get(&srv->players, hash);
	}
	if (p) {
		snprintf(token_out, token_out_size, "%s", token);
		if (strcmp(p->name, name)) {
			snprintf(p->name, sizeof(p->name), "%s", name);
			store_player_save(srv->store, p->id, p->token_hash, p->name);
		}
		return p;
	}
	if (util_random(raw, sizeof(raw)) || util_random_id("p", 12, id) || token_out_size < 49)
		return NULL;
	wire_hex_encode(raw, sizeof(raw), token_out);
	token_hash(token_out, hash);
	p = player_add(srv, id, hash, name);
	if (!p)
		return NULL;
	srv->metrics.players_created++;
	store_player_save(srv->store, p->id, p->token_hash, p->name);
	return p;
}

void lobby_player_add_room(struct player *p, struct room *r)
{
	int i;

	for (i = 0; i < p->nrooms; i++)
		if (p->rooms[i] == r)
			return;
	if (p->nrooms == p->caprooms) {
		int cap = p->caprooms ? p->caprooms * 2 : 4;
		struct room **rooms = realloc(p->rooms, (size_t)cap * sizeof(*rooms));

		if (!rooms)
			return;
		p->rooms = rooms;
		p->caprooms = cap;
	}
	p->rooms[p->nrooms++] = r;
}

void lobby_player_del_room(struct player *p, struct room *r)
{
	int i;

	for (i = 0; i < p->nrooms; i++)
		if (p->rooms[i] == r) {
			p->rooms[i] = p->rooms[--p->nrooms];
			return;
		}
}

static json_t *rooms_build(struct server *srv);

static int cmp_newest(const void *a, const void *b)
{
	const struct room *ra = *(struct room *const *)a, *rb = *(struct room *const *)b;

	return ra->created_at < rb->created_at ? 1 : ra->created_at > rb->created_at ? -1 : strcmp(ra->id, rb->id);
}

/*
 * Every live room's summary, newest first: a new reference to a cached array
 * that callers must not modify. Rebuilt at most once per lobby change, so a
 * client asking for `rooms` often costs a reference, not O(rooms).
 */
json_t *lobby_rooms_json(struct server *srv)
{
	if (!srv->lobby_cache)
		srv->lobby_cache = rooms_build(srv);
	return srv->lobby_cache ? json_incref(srv->lobby_cache) : json_array();
}

static json_t *rooms_build(struct server *srv)
{
	struct room **list = malloc((srv->rooms.len + 1) * sizeof(*list));
	json_t *arr = json_array();
	struct room *r;
	size_t pos = 0, n = 0, i;

	if (!list || !arr) {
		free(list);
		return arr;
	}
	while ((r = hmap_next(&srv->rooms, &pos)))
		if (!r->dead)
			list[n++] = r;
	qsort(list, n, sizeof(*list), cmp_newest);
	for (i = 0; i < n; i++)
		json_array_append_new(arr, room_summary(list[i]));
	free(list);
	return arr;
}

void lobby_subscribe(struct server *srv, struct session *s)
{
	if (s->lobby_sub)
		return;
	s->lobby_sub = true;
	s->lobby_prev = NULL;
	s->lobby_next = srv->lobby_subs;
	if (srv->lobby_subs)
		srv->lobby_subs->lobby_prev = s;
	srv->lobby_subs = s;
}

void lobby_unsubscribe(struct server *srv, struct session *s)
{
	if (!s->lobby_sub)
		return;
	if (s->lobby_prev)
		s->lobby_prev->lobby_next = s->lobby_next;
	else
		srv->lobby_subs = s->lobby_next;
	if (s->lobby_next)
		s->lobby_next->lobby_prev = s->lobby_prev;
	s->lobby_sub = false;
}

static void lobby_push_cb(uv_timer_t *t)
{
	struct server *srv = t->data;
	struct session *s, *next;
	json_t *j;
	struct buf *b;

	srv->lobby_dirty = false;
	srv->lobby_pushed_ms = util_now_ms();
	if (!srv->lobby_subs)
		return;
	j = wire_rooms_new(lobby_rooms_json(srv), NULL);
	b = j ? buf_from_json(j) : NULL;
	json_decref(j);
	for (s = srv->lobby_subs; b && s; s = next) {
		next = s->lobby_next;
		session_send(s, b);
	}
	buf_unref(b);
}

/* The lobby changed: push it within a second (throttled). */
void lobby_changed(struct server *srv)
{
	int64_t wait;

	json_decref(srv->lobby_cache); /* stale now */
	srv->lobby_cache = NULL;
	if (srv->lobby_dirty || srv->stopping)
		return;
	srv->lobby_dirty = true;
	wait = 1000 - (util_now_ms() - srv->lobby_pushed_ms);
	uv_timer_start(&srv->lobby_timer, lobby_push_cb, wait > 0 ? (uint64_t)wait : 0, 0);
}

/* --- restart: the live journal -------------------------------------------- */

static int restore_room(void *ctx, const char *id, const char *game, const char *options,
			const char *server_seed, int64_t created_at, int64_t started_at)
{
	struct restore_ctx *c = ctx;
	struct room *r;

	c->room = NULL;
	c->started_at = started_at;
	c->ended_at = 0;
	if (!id || !game || !options || !server_seed ||
	    room_restore(c->srv, id, game, options, server_seed, created_at, &r)) {
		util_log(LOG_ERROR, "restore: room %s: unusable journal record, kept for inspection", id ? id : "?");
		return -EINVAL;
	}
	r->restoring = true; /* no journal writes, no archive, until room_restore_finish() */
	c->room = r;
	return 0;
}

static int restore_seat(void *ctx, int seat, const char *player_id, const char *client_seed)
{
	return room_restore_seat(((struct restore_ctx *)ctx)->room, seat, player_id, client_seed);
}

static int restore_action(void *ctx, int ply, int seat, const char *action, const char *outcome, int64_t at)
{
	if (!action || !outcome)
		return -EINVAL;
	return room_restore_action(((struct restore_ctx *)ctx)->room, ply, seat, action, outcome, at);
}

static int restore_event(void *ctx, int ply, int seat, int kind, int64_t at)
{
	struct restore_ctx *c = ctx;
	int r = room_restore_event(c->room, ply, seat, kind);

	if (!r)
		c->ended_at = at; /* if it ended the match, it ended then */
	return r;
}

static void restore_room_end(void *ctx, int err)
{
	struct restore_ctx *c = ctx;

	if (!c->room)
		return; /* refused by restore_room(), already logged */
	if (err) {
		util_log(LOG_ERROR, "restore: room %s does not replay; its journal is kept for inspection",
			 c->room->id);
		room_destroy(c->room); /* still restoring: the journal is kept */
	} else {
		room_restore_finish(c->room, c->started_at, c->ended_at);
	}
	c->room = NULL;
}

static const struct store_live_ops restore_ops = {
	.player = load_player,
	.room = restore_room,
	.seat = restore_seat,
	.action = restore_action,
	.event = restore_event,
	.room_end = restore_room_end,
};

/* Rebuilds every journalled room (start-up, before store_start()). 0 or -EIO. */
int lobby_restore(struct server *srv)
{
	struct restore_ctx c = {.srv = srv};
	int r = store_load_live(srv->store, &restore_ops, &c);

	if (!r && srv->rooms.len)
		util_log(LOG_INFO, "restore: %zu room(s) resumed from the journal", srv->rooms.len);
	return r;
}
