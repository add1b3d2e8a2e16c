/*
 * laquet_wire.c: JSON <-> C for Laquet, as protocol/games/laquet/README.md
 * documents it and protocol/games/laquet/schema/ checks it. Decoding is strict: an
 * action is exactly one of {"roll":true}, {"plan":[1 or 2 steps]} or
 * {"bonus":[0..2 steps]}, each step exactly {"from":1..18,"die":0|1}; anything
 * else is WIRE_E_ILLEGAL_ACTION. Encoders are deterministic (fixed keys,
 * arrays in a fixed order) so archived outcomes compare as JSON on replay.
 * No global mutable state; encoders return new references, or NULL when
 * jansson cannot allocate.
 */
#include <stddef.h>
#include <string.h>

#include "text.h"
#include "wire_games.h"

/* A JSON array of the n byte values v[0..n). */
static json_t *values_new(const uint8_t *v, int n)
{
	json_t *arr = json_array();

	for (int i = 0; arr && i < n; i++) {
		if (json_array_append_new(arr, json_integer(v[i]))) {
			json_decref(arr);
			return NULL;
		}
	}
	return arr;
}

/* [{white, black} x 18], index 0 = route 1. */
static json_t *points_new(const struct laquet_state *s)
{
	json_t *arr = json_array();

	for (int r = 1; arr && r <= LAQUET_POINTS; r++) {
		if (json_array_append_new(
			    arr, json_pack("{s:i,s:i}", "white", s->men[0][r], "black", s->men[1][r]))) {
			json_decref(arr);
			return NULL;
		}
	}
	return arr;
}

/* {dice, points, off, handed}. */
static json_t *laquet_view(const struct rules_match *m)
{
	const struct laquet_state *s = &m->s.laquet;
	bool rolled = !s->over && s->phase == LAQUET_PHASE_PLAN;

	return json_pack("{s:o,s:o,s:{s:i,s:i},s:o}", "dice",
			 rolled ? values_new(s->dice, LAQUET_DICE) : json_null(), "points", points_new(s),
			 "off", "white", s->men[0][LAQUET_OFF], "black", s->men[1][LAQUET_OFF], "handed",
			 values_new(s->handed, s->phase == LAQUET_PHASE_BONUS ? s->nhanded : 0));
}

/* The steps of a plan or bonus: [{from, die}...]. */
static json_t *steps_new(const struct rules_action *a)
{
	json_t *arr = json_array();

	for (int k = 0; arr && k < a->arg[0]; k++) {
		if (json_array_append_new(arr, json_pack("{s:i,s:i}", "from", a->arg[1 + 2 * k], "die",
							 a->arg[2 + 2 * k]))) {
			json_decref(arr);
			return NULL;
		}
	}
	return arr;
}

/* The JSON form of one action; NULL for an unknown kind. */
static json_t *laquet_action_encode(const struct rules_action *a)
{
	switch (a->kind) {
	case LAQUET_ACT_ROLL:
		return json_pack("{s:b}", "roll", 1);
	case LAQUET_ACT_PLAN:
		return json_pack("{s:o}", "plan", steps_new(a));
	case LAQUET_ACT_BONUS:
		return json_pack("{s:o}", "bonus", steps_new(a));
	}
	return NULL;
}

/* An integer (not a real, not a boolean) in lo..hi; WIRE_E_ILLEGAL_ACTION otherwise. */
static int int_in(const json_t *v, int lo, int hi)
{
	json_int_t i;

	if (!json_is_integer(v))
		return WIRE_E_ILLEGAL_ACTION;
	i = json_integer_value(v);
	return i >= lo && i <= hi ? (int)i : WIRE_E_ILLEGAL_ACTION;
}

/* Decodes a step list of lo..2 steps into `out`; 0, or WIRE_E_ILLEGAL_ACTION if it is not exactly that shape.
 */
static int steps_decode(const json_t *arr, int lo, struct rules_action *out)
{
	size_t n = json_array_size(arr);

	if (!json_is_array(arr) || n < (size_t)lo || n > LAQUET_MAX_STEP)
		return WIRE_E_ILLEGAL_ACTION;
	out->arg[0] = (int16_t)n;
	for (size_t k = 0; k < n; k++) {
		const json_t *st = json_array_get(arr, k);
		int from = int_in(json_object_get(st, "from"), 1, LAQUET_POINTS);
		int die = int_in(json_object_get(st, "die"), 0, LAQUET_DICE - 1);

		if (!json_is_object(st) || json_object_size(st) != 2 || from < 0 || die < 0)
			return WIRE_E_ILLEGAL_ACTION;
		out->arg[1 + 2 * k] = (int16_t)from;
		out->arg[2 + 2 * k] = (int16_t)die;
	}
	return WIRE_OK;
}

/* Decodes exactly one action shape; WIRE_E_ILLEGAL_ACTION otherwise. */
static int laquet_action_decode(const json_t *j, struct rules_action *out)
{
	const char *key;
	json_t *v;

	memset(out, 0, sizeof(*out));
	if (!json_is_object(j) || json_object_size(j) != 1)
		return WIRE_E_ILLEGAL_ACTION;
	json_object_foreach((json_t *)j, key, v)
	{
		if (strcmp(key, "roll") == 0 && json_is_true(v))
			out->kind = LAQUET_ACT_ROLL;
		else if (strcmp(key, "plan") == 0 && !steps_decode(v, 1, out))
			out->kind = LAQUET_ACT_PLAN;
		else if (strcmp(key, "bonus") == 0 && !steps_decode(v, 0, out))
			out->kind = LAQUET_ACT_BONUS;
	}
	if (out->kind == 0) {
		memset(out, 0, sizeof(*out));
		return WIRE_E_ILLEGAL_ACTION;
	}
	return WIRE_OK;
}

/* [{from, to, die}...]: to is 19 for a man borne off, die the value moved. */
static json_t *moves_new(const struct laquet_outcome *o)
{
	json_t *arr = json_array();

	for (int k = 0; arr && k < o->nmoves; k++) {
		const struct laquet_move *mv = &o->moves[k];

		if (json_array_append_new(arr, json_pack("{s:i,s:i,s:i}", "from", mv->from, "to", mv->to,
							 "die", mv->die))) {
			json_decref(arr);
			return NULL;
		}
	}
	return arr;
}

/*
 * Roll: {dice, passed, handed, bonus}. Plan and bonus: {moves, borne_off,
 * handed, bonus, won}.
 */
static json_t *laquet_outcome_encode(const struct rules_match *m, const struct rules_action *a,
				     const union rules_outcome *o)
{
	const struct laquet_outcome *u = &o->laquet;

	(void)m;
	if (a->kind == LAQUET_ACT_ROLL)
		return json_pack("{s:o,s:b,s:o,s:b}", "dice", values_new(u->dice, LAQUET_DICE), "passed",
				 u->passed, "handed", values_new(u->handed, u->nhanded), "bonus", u->bonus);
	return json_pack("{s:o,s:i,s:o,s:b,s:b}", "moves", moves_new(u), "borne_off", u->borne_off, "handed",
			 values_new(u->handed, u->nhanded), "bonus", u->bonus, "won", u->won);
}

/* {winner, reason}; null while playing; NULL for a reason Laquet never gives. */
static json_t *laquet_result_encode(const struct rules_result *r)
{
	static const char *const reasons[] = {
		[RULES_REASON_RACE] = "race",
		[RULES_REASON_RESIGN] = "resign",
		[RULES_REASON_FORFEIT] = "forfeit",
	};

	return wire_result_pack(r, reasons, WIRE_COUNT(reasons), false);
}

/* protocol.md (r2): Laquet has `autoroll` only. */
static const struct wire_option laquet_options[] = {
	WIRE_OPTION_AUTOROLL,
	WIRE_OPTIONS_END,
};

/* The Laquet codec, registered by games.c. */
const struct wire_game wire_game_laquet = {
	.id = "laquet",
	.view = laquet_view,
	.action_encode = laquet_action_encode,
	.action_decode = laquet_action_decode,
	.outcome_encode = laquet_outcome_encode,
	.result_encode = laquet_result_encode,
	.options = laquet_options,
	.text = &text_game_laquet,
};
