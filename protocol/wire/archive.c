/*
 * archive.c: the archived match (protocol.md, GET /api/matches/{id}) as one
 * codec: encode for the store, decode and verify for the command-line tools,
 * so the archive's shape is written down in exactly one place.
 *
 * A match is seeds + options + actions and events merged by ply: an event at
 * ply p (the number of actions accepted before it) comes after action p-1 and
 * before action p. Verifying re-derives everything through the rules core and
 * trusts nothing the archive says until it has been recomputed.
 *
 * Must not: do I/O, or keep state between calls. Invariants: decode borrows
 * every string and JSON value from its input and owns only the two arrays;
 * a failed decode leaves nothing to free; every mismatch message starts with
 * "ply N:" naming the first ply that disagrees.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "wire.h"
#include "wire_games.h"

#define bad(why, whylen, ...) wire_fail(WIRE_E_BAD_MESSAGE, why, whylen, __VA_ARGS__)

/* --- Encode */

static json_t *seats_encode(const struct wire_archive *a)
{
	json_t *list = json_array();

	for (int i = 0; list && i < a->nseats; i++) {
		const struct wire_archive_seat *s = &a->seats[i];

		if (json_array_append_new(list, json_pack("{s:i, s:s, s:s, s:b}", "seat", s->seat, "role",
							  s->role, "name", s->name, "bot", s->bot))) {
			json_decref(list);
			return NULL;
		}
	}
	return list;
}

static json_t *client_seeds_encode(const struct wire_archive *a)
{
	json_t *list = json_array();

	for (int i = 0; list && i < a->nseats; i++) {
		const char *cs = a->client_seeds[i] ? a->client_seeds[i] : "";

		if (json_array_append_new(list, json_string(cs))) {
			json_decref(list);
			return NULL;
		}
	}
	return list;
}

/* One record of `actions`; see wire.h. */
json_t *wire_archive_action_new(const struct wire_archive_action *x)
{
	json_t *rec = json_pack("{s:i, s:i, s:O, s:O, s:I}", "ply", x->ply, "seat", x->seat, "action",
				x->action, "outcome", x->outcome, "at", (json_int_t)x->at);

	if (rec && x->stand_in && json_object_set_new(rec, "stand_in", json_true())) {
		json_decref(rec);
		rec = NULL;
	}
	return rec;
}

static json_t *actions_encode(const struct wire_archive *a)
{
	json_t *list = json_array();

	for (size_t i = 0; list && i < a->nactions; i++) {
		if (json_array_append_new(list, wire_archive_action_new(&a->actions[i]))) {
			json_decref(list);
			return NULL;
		}
	}
	return list;
}

/* NULL also for an event kind with no wire name: never archive what cannot be read back. */
static json_t *events_encode(const struct wire_archive *a)
{
	json_t *list = json_array();

	for (size_t i = 0; list && i < a->nevents; i++) {
		const struct wire_archive_event *e = &a->events[i];
		const char *kind = wire_event_kind_name(e->kind);

		if (!kind ||
		    json_array_append_new(list, json_pack("{s:i, s:i, s:s, s:I}", "ply", e->ply, "seat",
							  e->seat, "kind", kind, "at", (json_int_t)e->at))) {
			json_decref(list);
			return NULL;
		}
	}
	return list;
}

/* The archive in protocol.md's field order; see wire.h. */
json_t *wire_archive_encode(const struct wire_archive *a)
{
	json_t *options = a->options ? json_incref(a->options) : json_object();
	json_t *result = a->result ? json_incref(a->result) : json_null();

	json_t *o =
		json_pack("{s:s, s:s, s:o, s:I, s:I, s:o, s:s, s:s, s:o, s:o, s:o, s:o}", "id", a->id, "game",
			  a->game, "options", options, "started_at", (json_int_t)a->started_at, "ended_at",
			  (json_int_t)a->ended_at, "seats", seats_encode(a), "commit", a->commit,
			  "server_seed", a->server_seed, "client_seeds", client_seeds_encode(a), "actions",
			  actions_encode(a), "events", events_encode(a), "result", result);

	/* only a rated match says so: a casual archive's bytes are those written before issue 26 */
	if (o && a->rated && json_object_set_new(o, "rated", json_true())) {
		json_decref(o);
		return NULL;
	}
	return o;
}

/* --- Decode */

/* An integer member `key` of `o` in lo..hi into *out; 0 or WIRE_E_BAD_MESSAGE. */
static int int_get(const json_t *o, const char *key, int64_t lo, int64_t hi, int64_t *out)
{
	const json_t *v = json_object_get(o, key);

	if (!json_is_integer(v) || json_integer_value(v) < lo || json_integer_value(v) > hi)
		return WIRE_E_BAD_MESSAGE;
	*out = json_integer_value(v);
	return 0;
}

static int seats_decode(const json_t *j, const struct rules_game *g, struct wire_archive *a, char *why,
			size_t whylen)
{
	const json_t *seats = json_object_get(j, "seats"), *s;
	unsigned seen = 0;
	int64_t seat;
	size_t i;

	if (!json_is_array(seats) || json_array_size(seats) != g->seats)
		return bad(why, whylen, "seats must be an array of %d seats", g->seats);
	json_array_foreach(seats, i, s)
	{
		struct wire_archive_seat *out = &a->seats[i];

		if (int_get(s, "seat", 0, g->seats - 1, &seat) || (seen & (1u << seat)))
			return bad(why, whylen, "seats[%zu].seat must be a distinct seat 0..%d", i,
				   g->seats - 1);
		seen |= 1u << seat;
		out->seat = (int)seat;
		out->role = json_string_value(json_object_get(s, "role"));
		out->name = json_string_value(json_object_get(s, "name"));
		out->bot = json_is_true(json_object_get(s, "bot"));
		if (!out->role || !out->name || !json_is_boolean(json_object_get(s, "bot")))
			return bad(why, whylen, "seats[%zu]: role, name (strings) and bot are required", i);
	}
	a->nseats = g->seats;
	return WIRE_OK;
}

static int seeds_decode(const json_t *j, const struct rules_game *g, struct wire_archive *a, char *why,
			size_t whylen)
{
	const json_t *cs = json_object_get(j, "client_seeds");
	uint8_t bytes[RULES_SEED_SIZE];

	a->commit = json_string_value(json_object_get(j, "commit"));
	a->server_seed = json_string_value(json_object_get(j, "server_seed"));
	if (wire_hex_decode(a->commit, bytes, sizeof(bytes)) ||
	    wire_hex_decode(a->server_seed, bytes, sizeof(bytes)))
		return bad(why, whylen, "commit and server_seed must be 64 hex digits");
	if (!json_is_array(cs) || json_array_size(cs) != g->seats)
		return bad(why, whylen, "client_seeds must be an array of %d strings", g->seats);
	for (size_t i = 0; i < g->seats; i++) {
		a->client_seeds[i] = json_string_value(json_array_get(cs, i));
		if (!a->client_seeds[i])
			return bad(why, whylen, "client_seeds[%zu] must be a string", i);
	}
	return WIRE_OK;
}

static int actions_decode(const json_t *list, const struct rules_game *g, struct wire_archive *a, char *why,
			  size_t whylen)
{
	const json_t *rec;
	int64_t ply, seat, at;
	size_t i;

	if (!json_is_array(list))
		return bad(why, whylen, "actions must be an array");
	a->actions = calloc(json_array_size(list) + 1, sizeof(*a->actions));
	if (!a->actions)
		return bad(why, whylen, "out of memory");
	json_array_foreach(list, i, rec)
	{
		struct wire_archive_action *x = &a->actions[i];

		if (int_get(rec, "ply", 0, INT32_MAX, &ply) || int_get(rec, "seat", 0, g->seats - 1, &seat) ||
		    int_get(rec, "at", 0, INT64_MAX, &at) ||
		    !json_is_object(json_object_get(rec, "action")) || !json_object_get(rec, "outcome"))
			return bad(why, whylen,
				   "actions[%zu]: ply, seat (0..%d), action, outcome and at are required", i,
				   g->seats - 1);
		if (json_object_get(rec, "stand_in") && !json_is_boolean(json_object_get(rec, "stand_in")))
			return bad(why, whylen, "actions[%zu]: stand_in must be a boolean", i);
		*x = (struct wire_archive_action){ (int)ply,
						   (int)seat,
						   at,
						   json_object_get(rec, "action"),
						   json_object_get(rec, "outcome"),
						   json_is_true(json_object_get(rec, "stand_in")) };
	}
	a->nactions = json_array_size(list);
	return WIRE_OK;
}

/* `events`; absent (an archive from before revision 2) reads as none. */
static int events_decode(const json_t *list, const struct rules_game *g, struct wire_archive *a, char *why,
			 size_t whylen)
{
	const json_t *rec;
	int64_t ply, seat, at;
	size_t i;
	int kind;

	if (list && !json_is_array(list))
		return bad(why, whylen, "events must be an array");
	a->events = calloc(json_array_size(list) + 1, sizeof(*a->events));
	if (!a->events)
		return bad(why, whylen, "out of memory");
	json_array_foreach(list, i, rec)
	{
		kind = wire_event_kind_parse(json_string_value(json_object_get(rec, "kind")));
		if (int_get(rec, "ply", 0, INT32_MAX, &ply) || int_get(rec, "seat", 0, g->seats - 1, &seat) ||
		    int_get(rec, "at", 0, INT64_MAX, &at) || !kind)
			return bad(
				why, whylen,
				"events[%zu]: ply, seat (0..%d), kind (resign|forfeit) and at are required",
				i, g->seats - 1);
		a->events[i] = (struct wire_archive_event){ (int)ply, (int)seat, kind, at };
	}
	a->nevents = json_array_size(list);
	return WIRE_OK;
}

/* The envelope: id, game, options, times, result. */
static int head_decode(const json_t *j, struct wire_archive *a, const struct rules_game **g, char *why,
		       size_t whylen)
{
	const struct wire_game *codec;
	char reason[200];

	a->id = json_string_value(json_object_get(j, "id"));
	a->game = json_string_value(json_object_get(j, "game"));
	*g = rules_game_find(a->game);
	codec = wire_game_find(a->game);
	if (!a->id || !*a->id || strlen(a->id) > WIRE_ROOM_ID_MAX)
		return bad(why, whylen, "id must be a room id (1..%d bytes)", WIRE_ROOM_ID_MAX);
	if (!*g || !codec)
		return bad(why, whylen, "game must be a game this build knows");
	a->options = json_object_get(j, "options");
	if (json_is_null(a->options))
		a->options = NULL;
	if (wire_options_decode(codec, a->options, NULL, NULL, reason, sizeof(reason)))
		return bad(why, whylen, "%s", reason);
	if (int_get(j, "started_at", 0, INT64_MAX, &a->started_at) ||
	    int_get(j, "ended_at", 0, INT64_MAX, &a->ended_at))
		return bad(why, whylen, "started_at and ended_at must be Unix milliseconds");
	a->result = json_object_get(j, "result");
	if (!json_is_object(a->result) && !json_is_null(a->result))
		return bad(why, whylen, "result must be an object or null");
	if (json_is_null(a->result))
		a->result = NULL;
	if (json_object_get(j, "rated") && !json_is_true(json_object_get(j, "rated")))
		return bad(why, whylen, "rated must be true when present");
	a->rated = json_is_true(json_object_get(j, "rated"));
	return WIRE_OK;
}

/* Reads an archive; see wire.h. */
int wire_archive_decode(const json_t *j, struct wire_archive *out, char *why, size_t whylen)
{
	const struct rules_game *g = NULL;
	int err;

	memset(out, 0, sizeof(*out));
	if (!json_is_object(j))
		return bad(why, whylen, "an archive must be a JSON object");
	err = head_decode(j, out, &g, why, whylen);
	if (!err)
		err = seats_decode(j, g, out, why, whylen);
	if (!err)
		err = seeds_decode(j, g, out, why, whylen);
	if (!err)
		err = actions_decode(json_object_get(j, "actions"), g, out, why, whylen);
	if (!err)
		err = events_decode(json_object_get(j, "events"), g, out, why, whylen);
	if (err)
		wire_archive_finish(out);
	return err;
}

/* Frees the arrays; the borrowed fields are left as they are. */
void wire_archive_finish(struct wire_archive *a)
{
	if (!a)
		return;
	free(a->actions);
	free(a->events);
	a->actions = NULL;
	a->events = NULL;
	a->nactions = a->nevents = 0;
}
