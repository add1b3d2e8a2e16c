/*
 * server_msg.c: builds every server-to-client message as a jansson value.
 *
 * Each builder returns a new reference or NULL when an allocation fails;
 * nothing here reads clocks or rooms: the caller passes every value in. A
 * direct reply copies the request's `id` (deep copy, so the reply shares
 * nothing with the request's tree). A `_take` argument is owned by the
 * builder on every path, failure included.
 *
 * Invariant: the shapes built here are exactly those of protocol/schema/
 * (additionalProperties: false): tests/unit/test_wire_builders.c builds the
 * cases of tests/golden/server/ and schema_golden.test.mjs validates the same
 * files against the schemas; the integration tests validate every frame.
 */
#include <errno.h>
#include <string.h>

#include "wire.h"

/* {type, id?} with `type` set; NULL on allocation failure. */
static json_t *reply_new(const char *type, const json_t *id)
{
	json_t *o = json_pack("{s:s}", "type", type);

	if (o && id && json_object_set_new(o, "id", json_deep_copy(id)) != 0) {
		json_decref(o);
		return NULL;
	}
	return o;
}

/* Adds the members of `take` (an object, or NULL for a failed build) to `o`. */
static json_t *reply_finish(json_t *o, json_t *take)
{
	if (!o || !take || json_object_update(o, take) != 0) {
		json_decref(o);
		o = NULL;
	}
	json_decref(take);
	return o;
}

/* {type:"error", code, message, id?}; an unknown `err` is sent as "internal". */
json_t *wire_error_new(int err, const char *message, const json_t *id)
{
	const char *code = wire_error_code(err);

	if (!code)
		code = wire_error_code(WIRE_E_INTERNAL);
	return reply_finish(reply_new("error", id),
			    json_pack("{s:s, s:s}", "code", code, "message", message ? message : code));
}

/* {type:"welcome", player, name, token, rooms, seats}; strings are copied. */
json_t *wire_welcome_new(const char *player, const char *name, const char *token,
			 const struct wire_seat_ref *seats, size_t nseats, const json_t *id)
{
	json_t *rooms = json_array(), *list = json_array();
	size_t i;

	for (i = 0; rooms && list && i < nseats; i++) {
		if (json_array_append_new(rooms, json_string(seats[i].room)) != 0 ||
		    json_array_append_new(list, json_pack("{s:s, s:i, s:s}", "room", seats[i].room, "seat",
							  seats[i].seat, "role", seats[i].role)) != 0)
			break;
	}
	if (i < nseats) {
		json_decref(rooms);
		json_decref(list);
		rooms = list = NULL;
	}
	return reply_finish(reply_new("welcome", id),
			    json_pack("{s:s, s:s, s:s, s:o, s:o}", "player", player, "name", name, "token",
				      token, "rooms", rooms, "seats", list));
}

/* See wire.h. */
int wire_welcome_add_account(json_t *welcome, const char *handle)
{
	return json_object_set_new(welcome, "account", json_pack("{s:s}", "handle", handle)) ? -ENOMEM : 0;
}

/* See wire.h. */
int wire_welcome_add_elsewhere(json_t *welcome, const struct wire_elsewhere *e, size_t n)
{
	json_t *list = json_array();
	size_t i;

	for (i = 0; list && i < n; i++)
		if (json_array_append_new(list, json_pack("{s:s, s:i, s:s, s:s}", "room", e[i].room, "seat",
							  e[i].seat, "role", e[i].role, "node", e[i].node))) {
			json_decref(list);
			return -ENOMEM;
		}
	return json_object_set_new(welcome, "elsewhere", list) ? -ENOMEM : 0;
}

static json_t *sessions_new(const struct wire_session *s, size_t n)
{
	json_t *a = json_array();
	size_t i;

	for (i = 0; a && i < n; i++)
		if (json_array_append_new(a, json_pack("{s:s, s:s, s:I, s:I, s:b}", "id", s[i].id, "device",
						       s[i].device, "created_at", (json_int_t)s[i].created_at,
						       "seen_at", (json_int_t)s[i].seen_at, "current",
						       s[i].current))) {
			json_decref(a);
			return NULL;
		}
	return a;
}

static json_t *ratings_new(const struct wire_rating *r, size_t n)
{
	json_t *o = json_object();
	size_t i;

	for (i = 0; o && i < n; i++) {
		json_t *g = json_pack("{s:I, s:I, s:b, s:I}", "rating", (json_int_t)(r[i].rating + 0.5), "rd",
				      (json_int_t)(r[i].rd + 0.5), "provisional",
				      r[i].rd > WIRE_PROVISIONAL_RD, "matches", (json_int_t)r[i].matches);

		if (json_object_set_new(o, r[i].game, g)) {
			json_decref(o);
			return NULL;
		}
	}
	return o;
}

/* See wire.h. */
json_t *wire_account_new(const struct wire_account *a, const json_t *id)
{
	return reply_finish(reply_new("account", id),
			    json_pack("{s:s, s:s, s:s, s:I, s:o, s:o}", "handle", a->handle, "player",
				      a->player, "name", a->name, "created_at", (json_int_t)a->created_at,
				      "sessions", sessions_new(a->sessions, a->nsessions), "ratings",
				      ratings_new(a->ratings, a->nratings)));
}

/* See wire.h. */
json_t *wire_signed_out_new(const char *reason, const json_t *id)
{
	return reply_finish(reply_new("signed_out", id), json_pack("{s:s}", "reason", reason));
}

/* {type:"resigned", room, seat}. */
json_t *wire_resigned_new(const char *room, int seat, const json_t *id)
{
	return reply_finish(reply_new("resigned", id), json_pack("{s:s, s:i}", "room", room, "seat", seat));
}

/* {type:"created", room:<summary>}; takes `summary_take`. */
json_t *wire_created_new(json_t *summary_take, const json_t *id)
{
	return reply_finish(reply_new("created", id), json_pack("{s:o}", "room", summary_take));
}

/* {type:"joined", room, seat, role}. */
json_t *wire_joined_new(const char *room, int seat, const char *role, const json_t *id)
{
	return reply_finish(reply_new("joined", id),
			    json_pack("{s:s, s:i, s:s}", "room", room, "seat", seat, "role", role));
}

/* {type:"watching", room}. */
json_t *wire_watching_new(const char *room, const json_t *id)
{
	return reply_finish(reply_new("watching", id), json_pack("{s:s}", "room", room));
}

/* {type:"left", room}. */
json_t *wire_left_new(const char *room, const json_t *id)
{
	return reply_finish(reply_new("left", id), json_pack("{s:s}", "room", room));
}

/* {type:"bot_added", room, seat, level}. */
json_t *wire_bot_added_new(const char *room, int seat, const char *level, const json_t *id)
{
	return reply_finish(reply_new("bot_added", id),
			    json_pack("{s:s, s:i, s:s}", "room", room, "seat", seat, "level", level));
}

/* {type:"rooms", rooms:[summaries]}; takes `summaries_take` (an array). */
json_t *wire_rooms_new(json_t *summaries_take, const json_t *id)
{
	return reply_finish(reply_new("rooms", id), json_pack("{s:o}", "rooms", summaries_take));
}

/* {type:"muted", room, seats, spectators}. */
/* {room, seats, spectators}: one room's mutes, as `muted` and `welcome.mutes` show them. NULL on failure. */
static json_t *mutes_new(const char *room, unsigned seats_mask, bool spectators)
{
	json_t *seats = json_array();
	int i;

	for (i = 0; seats && i < RULES_MAX_SEATS; i++)
		if ((seats_mask >> i & 1) && json_array_append_new(seats, json_integer(i))) {
			json_decref(seats);
			seats = NULL;
		}
	return json_pack("{s:s, s:o, s:b}", "room", room, "seats", seats, "spectators", spectators);
}

json_t *wire_muted_new(const char *room, unsigned seats_mask, bool spectators, const json_t *id)
{
	return reply_finish(reply_new("muted", id), mutes_new(room, seats_mask, spectators));
}

/* See wire.h. */
int wire_welcome_add_mutes(json_t *welcome, const struct wire_mutes *m, size_t n)
{
	json_t *list = json_array();
	size_t i;

	for (i = 0; list && i < n; i++)
		if (json_array_append_new(list, mutes_new(m[i].room, m[i].seats_mask, m[i].spectators))) {
			json_decref(list);
			return -ENOMEM;
		}
	return json_object_set_new(welcome, "mutes", list) ? -ENOMEM : 0;
}

/* {type:"rematch", room, new_room, seat, role}; pushed, never a direct reply. */
json_t *wire_rematch_new(const char *room, const char *new_room, int seat, const char *role)
{
	return json_pack("{s:s, s:s, s:s, s:i, s:s}", "type", "rematch", "room", room, "new_room", new_room,
			 "seat", seat, "role", role);
}

/* `state.rematch`: null, or the offer. New reference. */
static json_t *rematch_state_new(const struct wire_room *r)
{
	json_t *acc;
	int i;

	if (!r->rematch_status)
		return json_null();
	acc = json_array();
	for (i = 0; acc && i < r->game->seats; i++)
		if ((r->rematch_accepted >> i & 1) && json_array_append_new(acc, json_integer(i))) {
			json_decref(acc);
			return NULL;
		}
	return json_pack("{s:s, s:i, s:o, s:I, s:s?}", "status", r->rematch_status, "by", r->rematch_by,
			 "accepted", acc, "expires_at", (json_int_t)r->rematch_expires_at, "room",
			 r->rematch_room);
}

/* {type:"chat", room, seat|null, name, text, at}; never a direct reply (no id). */
json_t *wire_chat_new(const char *room, int seat, const char *name, const char *text, int64_t at)
{
	return json_pack("{s:s, s:s, s:o, s:s, s:s, s:I}", "type", "chat", "room", room, "seat",
			 seat < 0 ? json_null() : json_integer(seat), "name", name, "text", text, "at",
			 (json_int_t)at);
}

/* The JSON array of `n` actions encoded by `g`. New reference. */
json_t *wire_legal_new(const struct wire_game *g, const struct rules_action *a, int n)
{
	json_t *list = json_array();
	int i;

	for (i = 0; list && i < n; i++) {
		if (json_array_append_new(list, g->action_encode(&a[i])) != 0) {
			json_decref(list);
			list = NULL;
		}
	}
	return list;
}

/* {remaining_ms, running_since|null}: the seat's time left when its clock started (or now). */
static json_t *clock_new(const struct wire_seat *s)
{
	return json_pack("{s:I, s:o}", "remaining_ms", (json_int_t)s->clock_ms, "running_since",
			 s->clock_since ? json_integer(s->clock_since) : json_null());
}

/* An account's seat: handle, rating and, while its rd is high, provisional: true. 0 or -ENOMEM. */
static int account_add(json_t *seat, const struct wire_seat *s)
{
	return json_object_set_new(seat, "handle", json_string(s->handle)) ||
			       json_object_set_new(seat, "rating", json_integer(s->rating)) ||
			       (s->provisional && json_object_set_new(seat, "provisional", json_true()))
		       ? -ENOMEM
		       : 0;
}

/* A seat's `bot`: (r3) in a state (`connected`) its level or false; in a room summary true or false. */
static json_t *bot_new(const struct wire_seat *s, bool connected)
{
	return connected && s->bot ? json_string(s->bot) : json_boolean(s->bot != NULL);
}

/* [{seat, role, name|null, bot[, handle, rating, provisional?][, connected, stand_in, clock?]}]. */
static json_t *seats_new(const struct wire_room *r, bool connected)
{
	json_t *list = json_array(), *seat;
	int i;

	for (i = 0; list && i < r->game->seats; i++) {
		seat = json_pack("{s:i, s:s, s:s?, s:o}", "seat", i, "role", r->game->roles[i], "name",
				 r->seats[i].name, "bot", bot_new(&r->seats[i], connected));
		if (seat && r->seats[i].handle && account_add(seat, &r->seats[i])) {
			json_decref(seat);
			seat = NULL;
		}
		if (seat && connected &&
		    (json_object_set_new(seat, "connected", json_boolean(r->seats[i].connected)) != 0 ||
		     json_object_set_new(seat, "stand_in", json_boolean(r->seats[i].stand_in)) != 0 ||
		     (r->seats[i].has_clock &&
		      json_object_set_new(seat, "clock", clock_new(&r->seats[i])) != 0))) {
			json_decref(seat);
			seat = NULL;
		}
		if (json_array_append_new(list, seat) != 0) {
			json_decref(list);
			list = NULL;
		}
	}
	return list;
}

/* The seats to act while playing, [] otherwise. */
static json_t *to_act_new(const struct wire_room *r)
{
	uint8_t seats[RULES_MAX_SEATS];
	json_t *list = json_array();
	int i, n = 0;

	if (strcmp(r->status, "playing") == 0)
		n = rules_to_act(r->match, seats);
	for (i = 0; list && i < n; i++) {
		if (json_array_append_new(list, json_integer(seats[i])) != 0) {
			json_decref(list);
			list = NULL;
		}
	}
	return list;
}

/* {seat, action, outcome} of the last accepted action, or null. */
static json_t *last_new(const struct wire_room *r)
{
	if (!r->has_last)
		return json_null();
	return json_pack("{s:i, s:o, s:o}", "seat", r->last_seat, "action",
			 r->codec->action_encode(&r->last_action), "outcome",
			 r->codec->outcome_encode(r->match, &r->last_action, &r->last_outcome));
}

static json_t *result_new(const struct wire_room *r)
{
	struct rules_result res;

	rules_result(r->match, &res);
	return res.over ? r->codec->result_encode(&res) : json_null();
}

/* Adds server_seed and client_seeds ("" for a seat that sent none) to `o`; 0 or -ENOMEM. */
static int reveal_add(json_t *o, const struct wire_room *r)
{
	json_t *seeds = json_array();
	int i;

	for (i = 0; seeds && i < r->game->seats; i++) {
		const char *cs = r->client_seeds[i] ? r->client_seeds[i] : "";

		if (json_array_append_new(seeds, json_string(cs)) != 0) {
			json_decref(seeds);
			seeds = NULL;
		}
	}
	if (!seeds)
		return -ENOMEM;
	if (json_object_set_new(o, "client_seeds", seeds) != 0)
		return -ENOMEM;
	return json_object_set_new(o, "server_seed", json_string(r->server_seed)) ? -ENOMEM : 0;
}

/* The room's `state` with legal: []; see wire.h. New reference. */
json_t *wire_state_new(const struct wire_room *r)
{
	json_t *o;

	o = json_pack("{s:s, s:s, s:s, s:s, s:I, s:o, s:o, s:o, s:[], s:o, s:o, s:s?}", "type", "state",
		      "room", r->id, "game", r->game->id, "status", r->status, "ply",
		      (json_int_t)r->match->ply, "seats", seats_new(r, true), "to_act", to_act_new(r), "view",
		      r->codec->view(r->match), "legal", "last", last_new(r), "result", result_new(r),
		      "commit", r->commit);
	if (o && (json_object_set_new(o, "spectators", json_integer(r->spectators)) ||
		  json_object_set_new(o, "rematch", rematch_state_new(r)))) {
		json_decref(o);
		return NULL;
	}
	if (o &&
	    json_object_set_new(o, "options",
				wire_options_encode(r->codec, r->room_options,
						    r->rules_options ? r->rules_options : &r->match->options,
						    true)) != 0) {
		json_decref(o);
		return NULL;
	}
	if (o && r->rated && json_object_set_new(o, "rated", json_true()) != 0) {
		json_decref(o);
		return NULL;
	}
	if (o && r->server_seed && reveal_add(o, r) != 0) {
		json_decref(o);
		return NULL;
	}
	return o;
}

/* The summary of a casual room. New reference. */
static json_t *summary_new(const struct wire_room *r)
{
	return json_pack("{s:s, s:s, s:s, s:o, s:i, s:o, s:I, s:I}", "id", r->id, "game", r->game->id,
			 "status", r->status, "seats", seats_new(r, false), "watchers", r->watchers,
			 "options",
			 wire_options_encode(r->codec, r->room_options,
					     r->rules_options ? r->rules_options : &r->match->options, false),
			 "ply", (json_int_t)r->match->ply, "created_at", (json_int_t)r->created_at);
}

/* {id, game, status, seats, watchers, options, ply, created_at[, rated]}. New reference. */
json_t *wire_room_summary_new(const struct wire_room *r)
{
	json_t *o = summary_new(r);

	if (o && r->rated && json_object_set_new(o, "rated", json_true()) != 0) {
		json_decref(o);
		return NULL;
	}
	return o;
}
