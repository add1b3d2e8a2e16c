/*
 * room.c: one room hosts one match. Seats fill while `waiting`; the match
 * starts by itself when every seat is taken, from the match seed of
 * protocol.md (server_seed committed at creation, client seeds added at the
 * start). Every change is serialised once: the spectators' frame and one
 * frame per seat to act (with its `legal`), shared by all the recipients'
 * write queues. Actions go through the rules core only. A finished match is
 * handed to the store (its own thread) whole.
 *
 * Invariants: r->match.ply == r->nlog while playing or finished; the cached
 * frames are NULL or match the current state.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "server.h"
#include "store.h"

static struct rules_action legal_buf[RULES_MAX_LEGAL]; /* loop thread only */

static void cache_clear(struct room *r)
{
	int i;

	buf_unref(r->cache_all);
	r->cache_all = NULL;
	for (i = 0; i < RULES_MAX_SEATS; i++) {
		buf_unref(r->cache_seat[i]);
		r->cache_seat[i] = NULL;
	}
}

/* The game's compact form of {"roll":true}, decoded once per room (autoroll compares with it). */
static bool decode_roll(const struct wire_game *codec, struct rules_action *out)
{
	json_t *j = json_pack("{s:b}", "roll", 1);
	bool ok;

	memset(out, 0, sizeof(*out));
	ok = j && !codec->action_decode(j, out);
	json_decref(j);
	return ok;
}

static struct room *room_alloc(struct server *srv, const struct rules_game *g,
			       const struct wire_game *codec, const struct wire_room_options *ropt,
			       const struct rules_options *gopt)
{
	static const uint8_t zero_seed[RULES_SEED_SIZE];
	struct room *r = calloc(1, sizeof(*r));

	if (!r)
		return NULL;
	r->srv = srv;
	r->game = g;
	r->codec = codec;
	r->ropt = *ropt;
	r->gopt = *gopt;
	r->has_roll = decode_roll(codec, &r->roll);
	if (rules_match_start(&r->match, g, zero_seed, gopt) || /* the preview */
	    util_random(&r->bot_rng, sizeof(r->bot_rng))) {
		free(r);
		return NULL;
	}
	r->bot_rng |= 1;
	r->created_at = r->idle_since = util_now_ms();
	return r;
}

/* Publishes the room: commit, registry, timer. 0 or -ENOMEM (then r is freed). */
static int room_register(struct room *r)
{
	uint8_t commit[RULES_SHA256_SIZE];

	if (hmap_put(&r->srv->rooms, r->id, r)) {
		free(r);
		return -ENOMEM;
	}
	rules_sha256(r->server_seed, sizeof(r->server_seed), commit);
	wire_hex_encode(commit, sizeof(commit), r->commit);
	wire_hex_encode(r->server_seed, sizeof(r->server_seed), r->server_seed_hex);
	uv_timer_init(r->srv->loop, &r->bot_timer);
	r->bot_timer.data = r;
	return 0;
}

/* Compact JSON with sorted keys (journal and archive text); takes `j`. Never NULL but on ENOMEM. */
char *room_json_text(json_t *j)
{
	char *s = j ? json_dumps(j, JSON_COMPACT | JSON_SORT_KEYS) : NULL;

	json_decref(j);
	return s ? s : strdup("null");
}

int room_new(struct server *srv, const struct rules_game *g, const struct wire_game *codec,
	     const struct wire_room_options *ropt, const struct rules_options *gopt, struct room **out)
{
	struct room *r = room_alloc(srv, g, codec, ropt, gopt);
	char *opts;
	int err;

	if (!r)
		return WIRE_E_BAD_OPTIONS;
	do {
		err = util_random_id("", 10, r->id);
	} while (!err && hmap_get(&srv->rooms, r->id));
	if (err || util_random(r->server_seed, sizeof(r->server_seed))) {
		free(r);
		return -EIO;
	}
	err = room_register(r);
	if (err)
		return err;
	opts = room_json_text(wire_options_encode(codec, ropt, gopt, false));
	store_live_room(srv->store, r->id, g->id, opts ? opts : "{}", r->server_seed_hex, r->created_at);
	free(opts);
	*out = r;
	return 0;
}

/* Re-creates a journalled room (start-up). 0, or -EINVAL for a record that makes no sense. */
int room_restore(struct server *srv, const char *id, const char *game, const char *options,
		 const char *seed_hex, int64_t created_at, struct room **out)
{
	const struct rules_game *g = rules_game_find(game);
	const struct wire_game *codec = wire_game_find(game);
	struct wire_room_options ropt;
	struct rules_options gopt;
	json_t *opts = json_loads(options, 0, NULL);
	struct room *r = NULL;
	char why[160];

	if (g && codec && opts && strlen(id) <= WIRE_ROOM_ID_MAX &&
	    !wire_options_decode(codec, opts, &ropt, &gopt, why, sizeof(why)))
		r = room_alloc(srv, g, codec, &ropt, &gopt);
	json_decref(opts);
	if (!r)
		return -EINVAL;
	snprintf(r->id, sizeof(r->id), "%s", id);
	r->created_at = created_at;
	if (!wire_hex_decode(seed_hex, r->server_seed, sizeof(r->server_seed))) {
		free(r);
		return -EINVAL;
	}
	if (room_register(r))
		return -ENOMEM;
	*out = r;
	return 0;
}

static void room_closed_cb(uv_handle_t *h)
{
	room_free(h->data);
}

/* Frees what the room owns; called once its timer handle has closed. */
void room_free(struct room *r)
{
	size_t i;

	if (!r)
		return;
	cache_clear(r);
	for (i = 0; i < r->nlog; i++) {
		free(r->log[i].action);
		free(r->log[i].outcome);
	}
	free(r->log);
	free(r);
}

/* Removes the room from the server and frees it once its handle is closed. */
void room_destroy(struct room *r)
{
	int i;

	if (r->dead)
		return;
	r->dead = true;
	while (r->members)
		room_member_del(r, r->members->s);
	for (i = 0; i < r->game->seats; i++)
		if (r->seats[i].player)
			lobby_player_del_room(r->seats[i].player, r);
	if (r->status != ROOM_FINISHED && !r->srv->stopping && !r->restoring)
		store_live_drop(r->srv->store, r->id); /* abandoned; a finished one is archived */
	hmap_del(&r->srv->rooms, r->id);
	uv_close((uv_handle_t *)&r->bot_timer, room_closed_cb);
	lobby_changed(r->srv);
}

/* --- members ------------------------------------------------------------- */

bool room_is_member(struct room *r, struct session *s)
{
	struct member *m;

	for (m = s->members; m; m = m->sess_next)
		if (m->r == r)
			return true;
	return false;
}

bool room_member_add(struct room *r, struct session *s)
{
	struct member *m;

	if (room_is_member(r, s) || !(m = calloc(1, sizeof(*m))))
		return false;
	m->s = s;
	m->r = r;
	m->room_next = r->members;
	if (r->members)
		r->members->room_prev = m;
	r->members = m;
	m->sess_next = s->members;
	s->members = m;
	r->nmembers++;
	return true;
}

void room_member_del(struct room *r, struct session *s)
{
	struct member **pp, *m = NULL;

	for (pp = &s->members; *pp; pp = &(*pp)->sess_next)
		if ((*pp)->r == r) {
			m = *pp;
			*pp = m->sess_next;
			break;
		}
	if (!m)
		return;
	if (m->room_prev)
		m->room_prev->room_next = m->room_next;
	else
		r->members = m->room_next;
	if (m->room_next)
		m->room_next->room_prev = m->room_prev;
	r->nmembers--;
	if (!r->nmembers)
		r->idle_since = util_now_ms();
	free(m);
	lobby_changed(r->srv); /* the summary's watchers */
}

int room_seat_of(struct room *r, struct player *p)
{
	int i;

	if (!p)
		return -1;
	for (i = 0; i < r->game->seats; i++)
		if (r->seats[i].player == p)
			return i;
	return -1;
}

/* --- state --------------------------------------------------------------- */

static const char *status_name(enum room_status s)
{
	return s == ROOM_WAITING ? "waiting" : s == ROOM_PLAYING ? "playing" : "finished";
}

static void wire_room_fill(struct room *r, struct wire_room *w)
{
	int i;

	memset(w, 0, sizeof(*w));
	w->id = r->id;
	w->game = r->game;
	w->codec = r->codec;
	w->status = status_name(r->status);
	w->match = &r->match;
	for (i = 0; i < r->game->seats; i++) {
		const struct room_seat *st = &r->seats[i];

		w->seats[i].name = st->player ? st->player->name : st->bot ? st->bot_name : NULL;
		w->seats[i].bot = st->bot;
		w->seats[i].connected = st->bot || (st->player && st->player->nsessions > 0);
	}
	w->room_options = &r->ropt;
	w->has_last = r->has_last;
	w->last_seat = r->last_seat;
	w->last_action = r->last_action;
	w->last_outcome = r->last_outcome;
	w->commit = r->commit;
	w->created_at = r->created_at;
	if (r->status == ROOM_FINISHED) {
		w->server_seed = r->server_seed_hex;
		for (i = 0; i < r->game->seats; i++)
			w->client_seeds[i] = r->seats[i].has_seed ? r->seats[i].client_seed : "";
	}
}

json_t *room_summary(struct room *r)
{
	struct wire_room w;
	struct member *m;

	wire_room_fill(r, &w);
	for (m = r->members; m; m = m->room_next)
		if (room_seat_of(r, m->s->player) < 0)
			w.watchers++;
	return wire_room_summary_new(&w);
}

/* Builds the shared frames of the current state if they are not cached. */
static void cache_build(struct room *r)
{
	struct wire_room w;
	uint8_t to_act[RULES_MAX_SEATS];
	json_t *st;
	int i, n = 0;

	if (r->cache_all)
		return;
	wire_room_fill(r, &w);
	st = wire_state_new(&w);
	if (!st)
		return;
	r->cache_all = buf_from_json(st);
	if (r->status == ROOM_PLAYING)
		n = rules_to_act(&r->match, to_act);
	for (i = 0; i < n; i++) {
		int seat = to_act[i], k;

		if (!r->seats[seat].player)
			continue; /* bots read the rules core directly */
		k = rules_legal_actions(&r->match, seat, legal_buf, RULES_MAX_LEGAL);
		if (room_autorolls(r, legal_buf, k))
			continue; /* the server rolls for it at once: nothing to choose */
		json_object_set_new(st, "legal", wire_legal_new(r->codec, legal_buf, k));
		r->cache_seat[seat] = buf_from_json(st);
	}
	json_decref(st);
}

static struct buf *frame_for(struct room *r, struct session *s)
{
	int seat = room_seat_of(r, s->player);

	if (seat >= 0 && r->cache_seat[seat])
		return r->cache_seat[seat];
	return r->cache_all;
}

void room_send_state(struct room *r, struct session *s)
{
	cache_build(r);
	session_send(s, frame_for(r, s));
}

void room_broadcast(struct room *r)
{
	struct member *m, *next;

	cache_clear(r);
	cache_build(r);
	for (m = r->members; m; m = next) {
		next = m->room_next; /* a send may drop a slow session, not its membership */
		session_send(m->s, frame_for(r, m->s));
	}
}

void room_connected_changed(struct room *r)
{
	room_broadcast(r);
	lobby_changed(r->srv);
}


