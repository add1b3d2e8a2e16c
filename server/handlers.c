/*
 * handlers.c: one small handler per client message type, looked up in a
 * table. Handlers validate what the codec could not (rooms exist, seats are
 * in range, the sender said hello), call into lobby/room, and send the direct
 * reply. The room then broadcasts `state` itself. Every refusal is an
 * `error` with the protocol's code and changes nothing.
 */
#include <stdlib.h>
#include <string.h>

#include "server.h"

typedef void handler_fn(struct session *s, struct wire_msg *m, bool allowed);

static struct room *find_room(struct session *s, const struct wire_msg *m)
{
	struct room *r = hmap_get(&s->srv->rooms, m->room);

	if (!r || r->dead) {
		session_send_error(s, WIRE_E_UNKNOWN_ROOM, "no such room", m->id);
		return NULL;
	}
	return r;
}

static void on_hello(struct session *s, struct wire_msg *m, bool allowed)
{
	struct player *p;
	char token[80], old_name[sizeof(p->name)];
	struct wire_seat_ref *refs;
	int i;
	bool renamed;

	if (s->player)
		return session_send_error(s, WIRE_E_BAD_MESSAGE, "hello was already said on this connection", m->id);
	p = m->token ? lobby_player_by_token(s->srv, m->token) : NULL;
	snprintf(old_name, sizeof(old_name), "%s", p ? p->name : "");
	p = lobby_player_hello(s->srv, m->token, m->name, token, sizeof(token));
	if (!p)
		return session_send_error(s, WIRE_E_INTERNAL, "could not create a player", m->id);
	refs = malloc(((size_t)p->nrooms + 1) * sizeof(*refs));
	if (!refs)
		return session_send_error(s, WIRE_E_INTERNAL, "out of memory", m->id);
	renamed = *old_name && strcmp(old_name, p->name);
	s->player = p;
	s->player_next = p->sessions;
	p->sessions = s;
	p->nsessions++;
	for (i = 0; i < p->nrooms; i++) {
		int seat = room_seat_of(p->rooms[i], p);

		refs[i] = (struct wire_seat_ref){ p->rooms[i]->id, seat,
						  seat >= 0 ? p->rooms[i]->game->roles[seat] : "" };
	}
	session_send_json(s, wire_welcome_new(p->id, p->name, token, refs, (size_t)p->nrooms, m->id));
	free(refs);
	for (i = 0; i < p->nrooms; i++) {
		struct room *r = p->rooms[i];

		room_member_add(r, s);
		if (p->nsessions == 1 || renamed)
			room_connected_changed(r); /* everyone sees the seat back, or its new name */
		else
			room_send_state(r, s);
	}
}

static void on_rooms(struct session *s, struct wire_msg *m, bool allowed)
{
	lobby_subscribe(s->srv, s);
	session_send_json(s, wire_rooms_new(lobby_rooms_json(s->srv), m->id));
}

static void on_create(struct session *s, struct wire_msg *m, bool allowed)
{
	const struct rules_game *g = rules_game_find(m->game);
	const struct wire_game *codec = wire_game_find(m->game);
	struct wire_room_options ropt;
	struct rules_options gopt;
	struct room *r;
	char why[160] = "";
	int err;

	if (!g || !codec)
		return session_send_error(s, WIRE_E_UNKNOWN_GAME,
					  "unknown game, or not available on this server yet", m->id);
	err = wire_options_decode(codec, m->options, &ropt, &gopt, why, sizeof(why));
	if (err)
		return session_send_error(s, err, why, m->id);
	err = room_new(s->srv, g, codec, &ropt, &gopt, &r);
	if (err)
		return session_send_error(s, err > 0 ? err : WIRE_E_INTERNAL,
					  err == WIRE_E_BAD_OPTIONS ? "options out of range" : "could not create the room",
					  m->id);
	session_send_json(s, wire_created_new(room_summary(r), m->id));
	lobby_changed(s->srv);
}

static bool seat_in_range(struct session *s, const struct wire_msg *m, const struct room *r)
{
	if (m->has_seat && (m->seat < 0 || m->seat >= r->game->seats)) {
		session_send_error(s, WIRE_E_BAD_MESSAGE, "seat out of range for this game", m->id);
		return false;
	}
	return true;
}

static void on_join(struct session *s, struct wire_msg *m, bool allowed)
{
	struct room *r = find_room(s, m);
	int seat, err;

	if (!r || !seat_in_range(s, m, r))
		return;
	err = room_join(r, s->player, m->has_seat ? (int)m->seat : -1, m->client_seed, &seat);
	if (err) {
		static const char *const why[WIRE_E_COUNT_] = {
			[WIRE_E_ROOM_FULL] = "every seat is taken or the match has started",
			[WIRE_E_SEAT_TAKEN] = "that seat is taken",
			[WIRE_E_ALREADY_SEATED] = "you already hold a seat in this room",
			[WIRE_E_GAME_OVER] = "the match is over",
		};
		return session_send_error(s, err, why[err] ? why[err] : "cannot join", m->id);
	}
	room_member_add(r, s);
	session_send_json(s, wire_joined_new(r->id, seat, r->game->roles[seat], m->id));
	room_changed(r);
}

static void on_watch(struct session *s, struct wire_msg *m, bool allowed)
{
	struct room *r = find_room(s, m);

	if (!r)
		return;
	room_member_add(r, s);
	session_send_json(s, wire_watching_new(r->id, m->id));
	room_send_state(r, s);
	lobby_changed(s->srv);
}

static void on_leave(struct session *s, struct wire_msg *m, bool allowed)
{
	struct room *r = find_room(s, m);
	bool member, changed;
	int err;

	if (!r)
		return;
	member = room_is_member(r, s);
	err = room_leave(r, s->player, &changed);
	if (err && !member)
		return session_send_error(s, WIRE_E_NOT_IN_ROOM, "you are not in this room", m->id);
	room_member_del(r, s);
	session_send_json(s, wire_left_new(r->id, m->id));
	if (changed)
		room_changed(r);
	else
		lobby_changed(s->srv);
}

static void on_add_bot(struct session *s, struct wire_msg *m, bool allowed)
{
	struct room *r = find_room(s, m);
	int seat, err;

	if (!r || !seat_in_range(s, m, r))
		return;
	if (m->level && strcmp(m->level, "random"))
		return session_send_error(s, WIRE_E_BAD_MESSAGE, "unknown bot level (this server has: random)",
					  m->id);
	err = room_add_bot(r, m->has_seat ? (int)m->seat : -1, &seat);
	if (err)
		return session_send_error(s, err, err == WIRE_E_SEAT_TAKEN ? "that seat is taken"
					  : "no free seat, or the match has started", m->id);
	session_send_json(s, wire_bot_added_new(r->id, seat, m->id));
	room_changed(r);
}

static void on_act(struct session *s, struct wire_msg *m, bool allowed)
{
	uint64_t t0 = util_mono_ns();
	struct room *r = find_room(s, m);
	const char *why = NULL;
	int err;

	if (!r)
		return;
	if (room_seat_of(r, s->player) >= 0)
		room_member_add(r, s); /* a seated player who left still sees what it does */
	err = room_act(r, s->player, m->ply, m->action, &why);
	if (!err) {
		if (allowed)
			s->tokens += 1; /* accepted acts are not rate limited */
		metrics_observe_broadcast(&s->srv->metrics, util_mono_ns() - t0);
		return;
	}
	if (!allowed)
		return session_rate_refuse(s, m->id);
	session_send_error(s, err, why, m->id);
}

static void on_resign(struct session *s, struct wire_msg *m, bool allowed)
{
	struct room *r = find_room(s, m);
	const char *why = NULL;
	int err;

	if (!r)
		return;
	if (room_seat_of(r, s->player) >= 0)
		room_member_add(r, s); /* the reply is the room's next state */
	err = room_resign(r, s->player, &why);
	if (err)
		session_send_error(s, err, why, m->id);
}

static void on_chat(struct session *s, struct wire_msg *m, bool allowed)
{
	struct room *r = find_room(s, m);
	int seat;

	if (!r)
		return;
	seat = room_seat_of(r, s->player);
	if (seat < 0 && !room_is_member(r, s))
		return session_send_error(s, WIRE_E_NOT_IN_ROOM, "watch or join the room to chat", m->id);
	room_chat(r, seat, s->player->name, m->text);
}

static handler_fn *const handlers[] = {
	[WIRE_HELLO] = on_hello,   [WIRE_ROOMS] = on_rooms,     [WIRE_CREATE] = on_create,
	[WIRE_JOIN] = on_join,     [WIRE_WATCH] = on_watch,     [WIRE_LEAVE] = on_leave,
	[WIRE_ADD_BOT] = on_add_bot, [WIRE_ACT] = on_act,       [WIRE_RESIGN] = on_resign,
	[WIRE_CHAT] = on_chat,
};

/* Runs the handler for a decoded message; `allowed` is the rate limiter's verdict. */
void session_dispatch(struct session *s, struct wire_msg *m, bool allowed)
{
	if (m->type <= 0 || m->type >= (int)(sizeof(handlers) / sizeof(handlers[0])) || !handlers[m->type])
		return session_send_error(s, WIRE_E_BAD_MESSAGE, "unknown message type", m->id);
	if (!s->player && m->type != WIRE_HELLO)
		return session_send_error(s, WIRE_E_HELLO_REQUIRED, "say hello first", m->id);
	handlers[m->type](s, m, allowed);
}
