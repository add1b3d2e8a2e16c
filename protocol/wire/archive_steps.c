/*
 * archive_steps.c: an archived match step by step (GET /api/matches/{id}/replay,
 * `quinteto show`): the `view`, `to_act` and `last` a `state` showed at the
 * start and after every action and event, recomputed through the rules core
 * from the seeds, actions and events by wire_archive_replay(), so nothing of
 * it is ever stored.
 *
 * Must not: do I/O, or build a step from anything the replay has not
 * re-derived (the archive must verify first: a mismatch gives no steps).
 * `last` follows the live room: an event leaves it at the latest action.
 */
#include <errno.h>
#include <stdlib.h>

#include "wire.h"

struct steps {
	const struct wire_game *codec;
	json_t *list; /* the steps so far; NULL once an allocation failed */
	json_t *last; /* the latest action's `last`, or null */
};

static json_t *to_act_new(const struct rules_match *m)
{
	uint8_t seats[RULES_MAX_SEATS];
	int n = rules_to_act(m, seats);
	json_t *arr = json_array();

	for (int i = 0; arr && i < n; i++) {
		if (json_array_append_new(arr, json_integer(seats[i]))) {
			json_decref(arr);
			return NULL;
		}
	}
	return arr;
}

/* A step's `event`: {seat, kind}; new reference, NULL on ENOMEM. */
json_t *wire_archive_event_new(int seat, int kind)
{
	return json_pack("{s:i, s:s}", "seat", seat, "kind", wire_event_kind_name(kind));
}

/* One step as the replay shows it; see wire.h. */
json_t *wire_archive_step_new(const struct rules_match *m, json_t *event_take, const json_t *last)
{
	const struct wire_game *codec = wire_game_find(m->game->id);

	return json_pack("{s:I, s:o, s:o, s:o, s:O}", "ply", (json_int_t)m->ply, "event",
			 event_take ? event_take : json_null(), "view", codec->view(m), "to_act",
			 to_act_new(m), "last", last ? last : json_null());
}

/* Appends {ply, event, view, to_act, last}; event is {seat, kind} or null. */
static void step_add(struct steps *s, const struct rules_match *m, json_t *event_take)
{
	json_t *step;

	if (!s->list) {
		json_decref(event_take);
		return;
	}
	step = wire_archive_step_new(m, event_take, s->last);
	if (!step || json_array_append_new(s->list, step)) {
		json_decref(s->list);
		s->list = NULL;
	}
}

/* The latest action's `last`: {seat, action, outcome}; new reference, NULL on ENOMEM. */
json_t *wire_archive_last_new(int seat, const json_t *action, const json_t *outcome)
{
	return json_pack("{s:i, s:O, s:O}", "seat", seat, "action", action, "outcome", outcome);
}

static void step_cb(const struct wire_archive_step *st, void *data)
{
	struct steps *s = data;
	json_t *last;

	if (st->kind) {
		step_add(s, st->match, wire_archive_event_new(st->seat, st->kind));
		return;
	}
	last = wire_archive_last_new(st->seat, st->action, st->outcome);
	json_decref(s->last);
	s->last = last ? last : json_null();
	if (!last && s->list) {
		json_decref(s->list);
		s->list = NULL;
	}
	step_add(s, st->match, NULL);
}

/* The position before the first action, from the seeds and options (once the replay checked them). */
static int start_new(const struct wire_archive *a, const struct wire_game *codec, struct rules_match *m)
{
	uint8_t server_seed[RULES_SEED_SIZE], seed[RULES_SEED_SIZE];
	struct rules_options ro;

	if (wire_hex_decode(a->server_seed, server_seed, sizeof(server_seed)) ||
	    wire_options_decode(codec, a->options, NULL, &ro, NULL, 0))
		return WIRE_E_BAD_MESSAGE;
	rules_match_seed(server_seed, a->client_seeds, a->nseats, seed);
	return rules_match_start(m, rules_game_find(a->game), seed, &ro) ? WIRE_E_BAD_MESSAGE : 0;
}

/* The steps of a verified replay; see wire.h. */
json_t *wire_archive_steps_new(const struct wire_archive *a, char *why, size_t whylen)
{
	struct steps s = { .codec = wire_game_find(a->game), .list = json_array(), .last = json_null() };
	struct rules_match m;
	json_t *steps;
	int err = s.list ? wire_archive_replay(a, step_cb, &s, NULL, why, whylen) : -ENOMEM;

	json_decref(s.last);
	if (!err && !s.list)
		err = -ENOMEM;
	if (!err)
		err = start_new(a, s.codec, &m);
	if (err) {
		json_decref(s.list);
		return NULL;
	}
	steps = s.list;
	s.list = json_array();
	s.last = json_null();
	step_add(&s, &m, NULL); /* s.list = [start] */
	if (!s.list || json_array_extend(s.list, steps)) {
		json_decref(s.list);
		s.list = NULL;
	}
	json_decref(steps);
	return s.list;
}
