/*
 * handlers.c: one small handler per client message type, looked up in a
 * table (see handlers_int.h). Handlers validate what the codec could not (rooms
 * exist, the sender said hello), call into the lobby and the room, and send
 * the direct reply before the room's broadcast, so a client sees `joined`
 * before the `state` it explains. Outcomes become protocol codes here only.
 */
#include "net/handlers_int.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "bots.h"
#include "cluster/cluster.h"
#include "room/room.h"
#include "store/store.h"
#include "base/util.h"

typedef void handler_fn(struct handlers *h, struct session *s, struct wire_msg *m, bool allowed);

/* ROOM_E_* (at ROOM_AT(code): the band counts down from ROOM_E_ROOM_FULL) -> the protocol's code; the
 * message is room_strerror()'s, written for the player; a negative errno -> internal. */
#define ROOM_AT(code) (ROOM_E_ROOM_FULL - (code))
static const int room_errors[] = {
	[ROOM_AT(ROOM_E_ROOM_FULL)] = WIRE_E_ROOM_FULL,
	[ROOM_AT(ROOM_E_SEAT_TAKEN)] = WIRE_E_SEAT_TAKEN,
	[ROOM_AT(ROOM_E_BAD_SEAT)] = WIRE_E_BAD_MESSAGE,
	[ROOM_AT(ROOM_E_ALREADY_SEATED)] = WIRE_E_ALREADY_SEATED,
	[ROOM_AT(ROOM_E_NOT_IN_ROOM)] = WIRE_E_NOT_IN_ROOM,
	[ROOM_AT(ROOM_E_NOT_STARTED)] = WIRE_E_NOT_YOUR_TURN,
	[ROOM_AT(ROOM_E_GAME_OVER)] = WIRE_E_GAME_OVER,
	[ROOM_AT(ROOM_E_STALE_PLY)] = WIRE_E_STALE_PLY,
	[ROOM_AT(ROOM_E_NOT_YOUR_TURN)] = WIRE_E_NOT_YOUR_TURN,
	[ROOM_AT(ROOM_E_ILLEGAL)] = WIRE_E_ILLEGAL_ACTION,
	[ROOM_AT(ROOM_E_BAD_OPTIONS)] = WIRE_E_BAD_OPTIONS,
	[ROOM_AT(ROOM_E_NO_REMATCH)] = WIRE_E_REMATCH_UNAVAILABLE,
};

/* LOBBY_E_* -> the protocol's code (the lobby gives the sentence); anything else -> internal. */
static int lobby_wire_code(int err)
{
	switch (err) {
	case LOBBY_E_TOO_MANY_ROOMS:
	case LOBBY_E_TOO_MANY_BOT_ROOMS:
		return WIRE_E_TOO_MANY_ROOMS;
	case LOBBY_E_TOO_MANY_PLAYERS:
		return WIRE_E_RATE_LIMITED;
	default:
		return WIRE_E_INTERNAL;
	}
}

static void send_room_error(struct session *s, int err, const json_t *id)
{
	int k = ROOM_AT(err);

	if (k >= 0 && k < (int)(sizeof(room_errors) / sizeof(room_errors[0])) && room_errors[k]) {
		session_send_error(s, room_errors[k], room_strerror(err), id);
		return;
	}
	util_log_conn(LOG_ERROR, s->id, "session %llu: %s", (unsigned long long)s->id, room_strerror(err));
	session_send_error(s, WIRE_E_INTERNAL, "the server could not do that: try again", id);
}

/*
 * While journal batches fail (and are retried), requests that would change a
 * room, or create a player, are refused before anything changes: what a client is told must be
 * what a restart would bring back. Chat is refused too (see on_chat).
 */
static bool journal_refuses(struct handlers *h, struct session *s, struct wire_msg *m)
{
	if (!store_journal_failing(h->store))
		return false;
	h->metrics->journal_refused++;
	session_send_refusal(s, WIRE_E_UNAVAILABLE,
			     "the server cannot save to its database right now; try again shortly",
			     wire_msg_id(m));
	return true;
}

/*
 * A room this node does not host, in a cluster (docs/SCALING.md, "Routing"):
 * the directory names another live node: `moved` (the client reconnects to
 * that node and asks again); a node that is not alive (its rooms are being
 * adopted): `unavailable`, retry. True when answered so. A single server
 * knows no other node and never says either.
 */
static bool send_moved(struct handlers *h, struct session *s, struct wire_msg *m)
{
	struct cluster *c = lobby_cluster(h->lobby);
	const char *node = cluster_room_node(c, m->room);
	const json_t *id;
	json_t *j;

	if (!node || !strcmp(node, cluster_node(c)))
		return false; /* nobody else hosts it (ours, as the directory says, but closed: unknown) */
	if (!cluster_node_alive(c, node)) {
		session_send_error(
			s, WIRE_E_UNAVAILABLE,
			"the node that hosts this room is being replaced: try again in a few seconds",
			wire_msg_id(m));
		return true;
	}
	id = wire_msg_id(m);
	j = json_pack("{s:s, s:s, s:s}", "type", "moved", "room", m->room, "node", node);
	if (j && id && json_object_set(j, "id", (json_t *)id)) {
		json_decref(j);
		j = NULL;
	}
	if (!j) {
		session_send_error(s, WIRE_E_INTERNAL, "out of memory", id);
		return true;
	}
	session_send_json(s, j);
	return true;
}

static struct room *find_room(struct handlers *h, struct session *s, struct wire_msg *m)
{
	struct room *r = lobby_room_find(h->lobby, m->room);

	if (!r && !send_moved(h, s, m))
		session_send_error(s, WIRE_E_UNKNOWN_ROOM, "no such room", wire_msg_id(m));
	return r;
}

/* Follows `r` as `s`: 0, or -ENOMEM (and an error sent). */
static int follow(struct session *s, struct room *r, struct wire_msg *m)
{
	int err = room_member_add(r, &s->members, s, s->player);

	if (err) /* the id is built (a scanned act's) only when an answer echoes it */
		session_send_error(s, WIRE_E_INTERNAL, "out of memory", wire_msg_id(m));
	return err;
}

/* The hex SHA-256 of a token: how a connection remembers which session it speaks for. */
void handlers_token_hash(const char *token, char out[65])
{
	uint8_t d[RULES_SHA256_SIZE];

	rules_sha256(token, strlen(token), d);
	wire_hex_encode(d, sizeof(d), out);
}

/*
 * welcome.elsewhere (PROTOCOL.md, "Several nodes"): of the seats the store
 * read, those in rooms this node does not host, with the node that hosts
 * each as the directory knows it (the one `moved` would name), else as the
 * store does (live_rooms.node). A node that is dead, its rooms not adopted
 * yet, is named all the same: the room exists, and a message for it is
 * answered `unavailable` until a survivor adopts it, then `moved` there.
 * Only a node of a cluster says it; 0 or -ENOMEM.
 */
static int add_elsewhere(struct handlers *h, json_t *welcome, const struct store_held_list *held)
{
	struct cluster *c = lobby_cluster(h->lobby);
	struct wire_elsewhere e[STORE_HELD_MAX];
	size_t i, n = 0;

	if (!c || !held || !held->read)
		return 0;
	for (i = 0; i < held->n && n < STORE_HELD_MAX; i++) {
		const struct store_held *x = &held->rows[i];
		const struct rules_game *g = rules_game_find(x->game);
		const char *node = cluster_room_node(c, x->room);

		if (!node)
			node = x->node;
		if (lobby_room_find(h->lobby, x->room) || !strcmp(node, cluster_node(c)) || !g ||
		    x->seat >= g->seats)
			continue; /* here (its seat is in `seats`), or a game this build does not host */
		e[n++] = (struct wire_elsewhere){ x->room, x->seat, g->roles[x->seat], node };
	}
	return wire_welcome_add_elsewhere(welcome, e, n);
}

/*
 * (r3) `welcome.mutes`: the player's chat mutes in the rooms of `rooms` (this
 * node's), one entry for each room where its seat mutes a seat or the
 * spectators, in the order of `rooms`; rooms without a mute are left out.
 * 0 or -ENOMEM.
 */
static int add_mutes(json_t *welcome, struct player *p)
{
	struct wire_mutes *m = malloc(((size_t)player_nrooms(p) + 1) * sizeof(*m));
	size_t n = 0;
	int i, err;

	if (!m)
		return -ENOMEM;
	for (i = 0; i < player_nrooms(p); i++) {
		const struct room *r = player_room(p, i);
		int seat = room_seat_of(r, p);
		unsigned mutes = seat >= 0 ? room_mutes(r, seat) : 0;

		if (mutes)
			m[n++] = (struct wire_mutes){ room_id(r), mutes & ~ROOM_MUTE_SPECTATORS,
						      (mutes & ROOM_MUTE_SPECTATORS) != 0 };
	}
	err = wire_welcome_add_mutes(welcome, m, n);
	free(m);
	return err;
}

int handlers_attach(struct handlers *h, struct session *s, struct player *p, const char *token,
		    const json_t *id, json_t *since_map, bool renamed, const struct store_held_list *held)
{
	struct wire_seat_ref *refs;
	json_t *welcome;
	int i, opened;

	refs = malloc(((size_t)player_nrooms(p) + 1) * sizeof(*refs));
	if (!refs)
		return -ENOMEM;
	s->player = p;
	handlers_token_hash(token, s->token_hash);
	opened = player_session_opened(p);
	for (i = 0; i < player_nrooms(p); i++) {
		int seat = room_seat_of(player_room(p, i), p);

		refs[i] =
			(struct wire_seat_ref){ room_id(player_room(p, i)), seat,
						seat >= 0 ? room_game(player_room(p, i))->roles[seat] : "" };
	}
	welcome = wire_welcome_new(player_id(p), player_name(p), token, refs, (size_t)player_nrooms(p), id);
	if (welcome && ((player_handle(p) && wire_welcome_add_account(welcome, player_handle(p))) ||
			add_mutes(welcome, p) || add_elsewhere(h, welcome, held))) {
		json_decref(welcome);
		welcome = NULL;
	}
	session_send_json(s, welcome);
	free(refs);
	for (i = 0; i < player_nrooms(p); i++) {
		struct room *r = player_room(p, i);
		json_t *since = json_object_get(since_map, room_id(r));

		if (room_member_add(r, &s->members, s, p))
			continue;
		if (since)
			room_send_missed(r, s, json_integer_value(since));
		if (opened == 1 || renamed)
			room_connected_changed(r); /* everyone sees the seat back, or its new name */
		else
			session_send(s, room_state_for(r, p));
	}
	return 0;
}

void handlers_detach(struct handlers *h, struct session *s)
{
	struct player *p = s->player;
	int i;

	while (s->members)
		room_member_del(room_member_room(s->members), &s->members);
	if (!p)
		return;
	s->player = NULL;
	s->token_hash[0] = '\0';
	if (player_session_closed(p, util_now_ms()) == 0 && !lobby_stopping(h->lobby)) {
		for (i = 0; i < player_nrooms(p); i++)
			room_connected_changed(player_room(p, i));
		lobby_player_release(h->lobby, p); /* p may be gone now */
	}
}

static void on_rooms(struct handlers *h, struct session *s, struct wire_msg *m, bool allowed)
{
	struct buf *b = lobby_rooms_frame(h->lobby, m->id);

	if (!b) {
		session_send_error(s, WIRE_E_INTERNAL, "out of memory", m->id);
		return;
	}
	lobby_subscribe(h->lobby, &s->lobby_sub, s);
	session_send(s, b);
	buf_unref(b);
}

static void on_create(struct handlers *h, struct session *s, struct wire_msg *m, bool allowed)
{
	const struct rules_game *g = rules_game_find(m->game);
	const struct wire_game *codec = wire_game_find(m->game);
	struct wire_room_options ropt;
	struct rules_options gopt;
	struct room *r;
	char why[160] = "";
	int err;

	if (!g || !codec) {
		session_send_error(s, WIRE_E_UNKNOWN_GAME,
				   "unknown game, or not available on this server yet", m->id);
		return;
	}
	const char *refused;

	if (journal_refuses(h, s, m))
		return;
	err = wire_options_decode(codec, m->options, &ropt, &gopt, why, sizeof(why));
	if (!err) /* a new room's limits (stand-in minimum, idle limit), beside the stored options' ranges */
		err = wire_options_check_new(&ropt, h->cfg->stand_in_min_ms, h->cfg->idle_limit_ms, why,
					     sizeof(why));
	if (err) {
		session_send_error(s, err, why, m->id);
		return;
	}
	if (player_deleting(s->player)) {
		session_send_error(s, WIRE_E_SEATS_HELD, "this account is being deleted", m->id);
		return;
	}
	if (m->rated == 2 && !player_handle(s->player)) {
		session_send_error(s, WIRE_E_ACCOUNT_REQUIRED,
				   "a rated room is for accounts: claim your identity (or sign in) first",
				   m->id);
		return;
	}
	if ((err = lobby_room_refused(h->lobby, s->player, s->addr, &refused))) {
		session_send_error(s, lobby_wire_code(err), refused, m->id);
		return;
	}
	err = lobby_room_create(h->lobby, s->player, g, codec, &ropt, &gopt, &r);
	if (err) {
		send_room_error(s, err, m->id);
		return;
	}
	if (m->rated == 2) /* journalled in the batch that journals the room: both or neither */
		room_set_rated(r);
	lobby_room_counted(h->lobby, r, s->player, s->addr);
	session_send_json(s, wire_created_new(room_summary(r), m->id));
}

static void on_join(struct handlers *h, struct session *s, struct wire_msg *m, bool allowed)
{
	struct room *r = find_room(h, s, m);
	int seat, err;

	if (!r || journal_refuses(h, s, m))
		return;
	if (m->has_seat && (m->seat < 0 || m->seat >= room_game(r)->seats)) {
		send_room_error(s, ROOM_E_BAD_SEAT, m->id);
		return;
	}
	if (player_deleting(s->player)) {
		session_send_error(s, WIRE_E_SEATS_HELD, "this account is being deleted", m->id);
		return;
	}
	/* a seated player coming back keeps its seat whatever it is now (it was an account when it sat) */
	if (room_rated(r) && !player_handle(s->player) && room_seat_of(r, s->player) < 0) {
		session_send_error(s, WIRE_E_ACCOUNT_REQUIRED,
				   "a rated room is for accounts: claim your identity (or sign in) first",
				   m->id);
		return;
	}
	err = room_join(r, s->player, m->has_seat ? (int)m->seat : -1, m->client_seed, &seat);
	if (err) {
		send_room_error(s, err, m->id);
		return;
	}
	(void)follow(s, r, m);
	lobby_room_update(h->lobby, r, false);
	/* the seat needs its identity in the database even if it was forgotten as idle meanwhile */
	lobby_player_save(h->lobby, s->player);
	session_send_json(s, wire_joined_new(room_id(r), seat, room_game(r)->roles[seat], m->id));
	room_changed(r);
}

static void on_watch(struct handlers *h, struct session *s, struct wire_msg *m, bool allowed)
{
	struct room *r = find_room(h, s, m);
	bool was = r && room_is_member(r, s->members);

	if (!r || follow(s, r, m))
		return;
	session_send_json(s, wire_watching_new(room_id(r), m->id));
	if (m->has_since)
		room_send_missed(r, s, m->since);
	if (!was && room_seat_of(r, s->player) < 0) {
		/* this one gets the state now, the others with the new count soon (coalesced: room.h) */
		room_spectators_changed(r);
		room_send_current(r, s->members);
		return;
	}
	session_send(s, room_state_for(r, s->player));
	lobby_changed(h->lobby);
}

static void on_leave(struct handlers *h, struct session *s, struct wire_msg *m, bool allowed)
{
	struct room *r = find_room(h, s, m);
	bool member, changed;
	int err;

	if (!r)
		return;
	member = room_is_member(r, s->members);
	err = room_leave(r, s->player, &changed);
	if (err && !member) {
		session_send_error(s, WIRE_E_NOT_IN_ROOM, "you are not in this room", m->id);
		return;
	}
	room_member_del(r, &s->members);
	session_send_json(s, wire_left_new(room_id(r), m->id));
	if (changed)
		room_changed(r);
	else
		lobby_changed(h->lobby);
}

static void on_add_bot(struct handlers *h, struct session *s, struct wire_msg *m, bool allowed)
{
	struct room *r = find_room(h, s, m);
	const struct bot_strategy *strategy;
	int seat, err;

	if (!r || journal_refuses(h, s, m))
		return;
	if (m->has_seat && (m->seat < 0 || m->seat >= room_game(r)->seats)) {
		send_room_error(s, ROOM_E_BAD_SEAT, m->id);
		return;
	}
	if (room_rated(r)) {
		session_send_error(s, WIRE_E_RATED_ROOM, "bots play casual rooms only: they have no rating",
				   m->id);
		return;
	}
	if (!(strategy = bot_find(room_game(r)->id, m->level ? m->level : BOT_LEVEL_DEFAULT))) {
		char levels[128], text[192];

		bot_levels(room_game(r)->id, levels, sizeof(levels));
		snprintf(text, sizeof(text), "unknown bot level (%s has: %s)", room_game(r)->id, levels);
		session_send_error(s, WIRE_E_BAD_MESSAGE, text, m->id);
		return;
	}
	if (room_seat_of(r, s->player) >= 0 || !strcmp(room_creator(r), player_id(s->player))) {
		const char *refused;

		if ((err = lobby_bot_room_refused(h->lobby, r, &refused))) {
			session_send_error(s, lobby_wire_code(err), refused, m->id);
			return;
		}
	}
	err = room_add_bot(r, s->player, m->has_seat ? (int)m->seat : -1, strategy, &seat);
	if (!err)
		lobby_room_update(h->lobby, r, false);
	if (err == ROOM_E_NOT_IN_ROOM) {
		session_send_error(s, WIRE_E_NOT_IN_ROOM,
				   "only the room's creator or a seated player may add bots", m->id);
		return;
	}
	if (err) {
		send_room_error(s, err, m->id);
		return;
	}
	session_send_json(s, wire_bot_added_new(room_id(r), seat, strategy->level, m->id));
	room_changed(r);
}

static void on_act(struct handlers *h, struct session *s, struct wire_msg *m, bool allowed)
{
	uint64_t t0 = util_mono_ns();
	struct room *r = find_room(h, s, m);
	int err;

	if (!r || journal_refuses(h, s, m))
		return;
	if (room_seat_of(r, s->player) >= 0 && follow(s, r, m))
		return; /* a seated player who left still sees what it does */
	/* a scanned act carries its action as text: no tree unless it is not one of the seat's legal texts */
	err = m->action ? room_act(r, s->player, m->ply, m->action)
			: room_act_text(r, s->player, m->ply, m->action_raw, m->action_len);
	if (!err) {
		if (allowed)
			session_rate_refund(s); /* accepted acts are not rate limited */
		metrics_observe(&h->metrics->broadcast, util_mono_ns() - t0);
		return;
	}
	if (!allowed) {
		session_rate_refuse(s, wire_msg_id(m));
		return;
	}
	send_room_error(s, err, wire_msg_id(m));
}

static void on_resign(struct handlers *h, struct session *s, struct wire_msg *m, bool allowed)
{
	struct room *r = find_room(h, s, m);
	int seat, err;

	if (!r || journal_refuses(h, s, m))
		return;
	if (room_seat_of(r, s->player) >= 0 && follow(s, r, m))
		return;
	err = room_resign(r, s->player, &seat);
	if (err) {
		send_room_error(s, err, m->id);
		return;
	}
	session_send_json(s, wire_resigned_new(room_id(r), seat, m->id));
	room_changed(r);
}

static void on_chat(struct handlers *h, struct session *s, struct wire_msg *m, bool allowed)
{
	struct room *r = find_room(h, s, m);
	int seat;

	if (!r)
		return;
	seat = room_seat_of(r, s->player);
	if (seat < 0 && !room_is_member(r, s->members)) {
		session_send_error(s, WIRE_E_NOT_IN_ROOM, "watch or join the room to chat", m->id);
		return;
	}
	/* Chat is not journalled, but its frames would queue behind the held ones of every member: a
	   chatter could fill their queues during an outage and get them dropped as slow readers. */
	if (journal_refuses(h, s, m))
		return;
	if (!session_chat_take(s)) {
		session_send_error(s, WIRE_E_CHAT_RATE_LIMITED, "you are chatting too fast; wait a little",
				   m->id);
		return;
	}
	room_chat(r, seat, player_name(s->player), m->text);
}

static void on_mute(struct handlers *h, struct session *s, struct wire_msg *m, bool allowed)
{
	struct room *r = find_room(h, s, m);
	int seat;

	if (!r || journal_refuses(h, s, m)) /* a mute is journalled: it must outlive a restart */
		return;
	seat = room_seat_of(r, s->player);
	if (seat < 0) {
		session_send_error(s, WIRE_E_NOT_IN_ROOM, "only the room's seated players mute", m->id);
		return;
	}
	if (room_mute(r, seat, m->has_seat ? (int)m->seat : -1, m->spectators == 2, m->muted == 2)) {
		session_send_error(s, WIRE_E_BAD_MESSAGE, "mute another seat of this game, or the spectators",
				   m->id);
		return;
	}
	session_send_json(s, wire_muted_new(room_id(r), room_mutes(r, seat) & ~ROOM_MUTE_SPECTATORS,
					    room_mutes(r, seat) & ROOM_MUTE_SPECTATORS, m->id));
}

/*
 * Opens the rematch of `old`: its game and options, new seeds, the same
 * people and bots in the same seats. All or nothing: on failure no room is
 * left (nor a seat in one) and the caller puts the offer back.
 */
static int rematch_open(struct handlers *h, struct session *s, struct room *old)
{
	struct room *r;
	struct member *mb;
	int i, seat, err;

	err = lobby_room_create(h->lobby, s->player, room_game(old), room_codec(old), room_wire_options(old),
				room_rules_options(old), &r);
	if (err)
		return err;
	if (room_rated(old)) { /* PROTOCOL.md: a rematch of a rated room is rated; its seats are accounts */
		bool accounts = true;

		for (i = 0; i < room_game(old)->seats; i++)
			accounts = accounts && room_seat_player(old, i) &&
				   player_handle(room_seat_player(old, i));
		if (accounts) /* one deleted since plays the rematch casual, as a guest must */
			room_set_rated(r);
	}
	for (i = 0; i < room_game(old)->seats && !err; i++) {
		const struct bot_strategy *bot = room_seat_bot(old, i);

		err = bot ? room_add_bot(r, s->player, i, bot, &seat)
			  : room_join(r, room_seat_player(old, i), i, NULL, &seat);
	}
	if (err) {
		/* nobody was told of it; its journal goes in the same batch */
		lobby_room_discard(h->lobby, r);
		return err;
	}
	lobby_room_counted(h->lobby, r, s->player, s->addr); /* against the one who opened it */
	room_rematch_opened(old, room_id(r));
	for (mb = room_members(old); mb; mb = room_member_next(mb)) {
		int k = room_seat_of(old, room_member_player(mb));

		if (k < 0 ||
		    room_member_add(r, room_member_list(mb), room_member_who(mb), room_member_player(mb)))
			continue;
		session_send_json(room_member_who(mb),
				  wire_rematch_new(room_id(old), room_id(r), k, room_game(old)->roles[k]));
	}
	room_changed(r);
	return 0;
}

static void on_rematch(struct handlers *h, struct session *s, struct wire_msg *m, bool allowed)
{
	struct room *r = find_room(h, s, m);
	struct room_rematch_saved saved;
	const char *refused;
	bool complete;
	int seat, err;

	if (!r || journal_refuses(h, s, m))
		return;
	seat = room_seat_of(r, s->player);
	if (seat < 0) {
		session_send_error(s, WIRE_E_NOT_IN_ROOM, "only the room's seated players rematch", m->id);
		return;
	}
	if (player_deleting(s->player)) {
		session_send_error(s, WIRE_E_SEATS_HELD, "this account is being deleted", m->id);
		return;
	}

	room_rematch_save(r, &saved);
	err = room_rematch(r, seat, m->accept != 1, &complete);
	if (!err && complete && (err = lobby_room_open_refused(h->lobby, s->player, s->addr, &refused))) {
		room_rematch_undo(r, &saved); /* as if this acceptance never came: nothing was sent */
		session_send_error(s, lobby_wire_code(err), refused, m->id);
		return;
	}
	if (!err && complete && (err = rematch_open(h, s, r)))
		room_rematch_undo(r, &saved);
	if (err) {
		send_room_error(s, err, m->id);
		return;
	}
	room_changed(r);
}

static handler_fn *const handlers[] = {
	[WIRE_HELLO] = handlers_hello,
	[WIRE_ROOMS] = on_rooms,
	[WIRE_CREATE] = on_create,
	[WIRE_JOIN] = on_join,
	[WIRE_WATCH] = on_watch,
	[WIRE_LEAVE] = on_leave,
	[WIRE_ADD_BOT] = on_add_bot,
	[WIRE_ACT] = on_act,
	[WIRE_RESIGN] = on_resign,
	[WIRE_CHAT] = on_chat,
	[WIRE_MUTE] = on_mute,
	[WIRE_REMATCH] = on_rematch,
	[WIRE_CLAIM] = handlers_claim,
	[WIRE_SIGN_IN] = handlers_sign_in,
	[WIRE_SIGN_OUT] = handlers_sign_out,
	[WIRE_ACCOUNT] = handlers_account,
	[WIRE_PASSWORD] = handlers_password,
	[WIRE_END_SESSION] = handlers_end_session,
	[WIRE_DELETE_ACCOUNT] = handlers_delete_account,
};

static void dispatch(struct handlers *h, struct session *s, struct wire_msg *m, bool allowed)
{
	if (m->type <= 0 || m->type >= (int)(sizeof(handlers) / sizeof(handlers[0])) || !handlers[m->type]) {
		session_send_error(s, WIRE_E_BAD_MESSAGE, "unknown message type", wire_msg_id(m));
		return;
	}
	if (!s->player && m->type != WIRE_HELLO) {
		session_send_error(s, WIRE_E_HELLO_REQUIRED, "say hello first", wire_msg_id(m));
		return;
	}
	handlers[m->type](h, s, m, allowed);
}

void handlers_receive(struct handlers *h, struct session *s, const char *data, size_t len)
{
	struct wire_msg m;
	char why[160] = "";
	int err;
	bool allowed;

	if (s->dead || s->close_state)
		return;
	h->metrics->messages_in++;
	allowed = session_rate_take(s);
	err = wire_msg_read(data, len, &m, why, sizeof(why)); /* an act without a tree when it can */
	if (err) {
		if (allowed)
			session_send_error(s, err, why, wire_msg_id(&m));
		else
			session_rate_refuse(s, wire_msg_id(&m));
	} else if (!allowed && m.type != WIRE_ACT) {
		session_rate_refuse(s, wire_msg_id(&m)); /* an act is judged after: accepted ones are free */
	} else {
		dispatch(h, s, &m, allowed);
	}
	wire_msg_finish(&m);
}

void handlers_closed(struct handlers *h, struct session *s)
{
	lobby_unsubscribe(h->lobby, &s->lobby_sub);
	handlers_account_closed(h, s); /* its account request, if any, answered to nobody */
	handlers_hello_closed(h, s);   /* its hello's read, if any, dropped */
	handlers_detach(h, s);
	session_closed(s);
}
