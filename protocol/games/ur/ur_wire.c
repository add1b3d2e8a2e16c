/*
 * ur_wire.c: JSON <-> C for the Royal Game of Ur, as protocol/games/ur/README.md
 * documents it and protocol/games/ur/schema/ checks it. Decoding is strict: an
 * action must be exactly one of the six shapes (one key, the right JSON type,
 * in range), anything else is WIRE_E_ILLEGAL_ACTION. Encoders are
 * deterministic (fixed keys, arrays in a fixed order) so archived outcomes
 * compare as JSON on replay. No global mutable state; encoders return new
 * references, or NULL when jansson cannot allocate.
 */
#include <stddef.h>
#include <string.h>

#include "text.h"
#include "wire_games.h"

static json_t *pieces_new(const uint8_t p[UR_PIECES])
{
	return json_pack("[iiiiiii]", p[0], p[1], p[2], p[3], p[4], p[5], p[6]);
}

static json_t *dice_new(const uint8_t d[UR_DICE])
{
	return json_pack("[bbb]", d[0], d[1], d[2]);
}

/* {dice, value, pieces:[[light],[dark]], bonus, again}. */
static json_t *ur_view(const struct rules_match *m)
{
	const struct ur_state *s = &m->s.ur;
	json_t *dice = s->has_throw ? dice_new(s->dice) : json_null();
	json_t *value = s->has_throw ? json_integer(s->value) : json_null();

	return json_pack("{s:o,s:o,s:[oo],s:b,s:b}", "dice", dice, "value", value, "pieces",
			 pieces_new(s->pos[0]), pieces_new(s->pos[1]), "bonus",
			 !s->over && s->phase == UR_PHASE_BONUS, "again", s->again);
}

/* The JSON form of one action; NULL for an unknown kind. */
static json_t *ur_action_encode(const struct rules_action *a)
{
	switch (a->kind) {
	case UR_ACT_ROLL:
		return json_pack("{s:b}", "roll", 1);
	case UR_ACT_ENTER:
		return json_pack("{s:i}", "enter", a->arg[0]);
	case UR_ACT_MOVE:
		return json_pack("{s:i}", "move", a->arg[0]);
	case UR_ACT_BEAR_OFF:
		return json_pack("{s:b}", "bear_off", 1);
	case UR_ACT_SKIP:
		return json_pack("{s:b}", "skip", 1);
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

/* Decodes exactly one action shape; WIRE_E_ILLEGAL_ACTION otherwise. */
static int ur_action_decode(const json_t *j, struct rules_action *out)
{
	const char *key;
	json_t *v;
	int arg = 0;

	memset(out, 0, sizeof(*out));
	if (!json_is_object(j) || json_object_size(j) != 1)
		return WIRE_E_ILLEGAL_ACTION;
	json_object_foreach((json_t *)j, key, v)
	{
		if (strcmp(key, "roll") == 0 && json_is_true(v))
			out->kind = UR_ACT_ROLL;
		else if (strcmp(key, "bear_off") == 0 && json_is_true(v))
			out->kind = UR_ACT_BEAR_OFF;
		else if (strcmp(key, "skip") == 0 && json_is_true(v))
			out->kind = UR_ACT_SKIP;
		else if (strcmp(key, "enter") == 0 && ((arg = int_in(v, 1, 5)) == 1 || arg == 5))
			out->kind = UR_ACT_ENTER;
		else if (strcmp(key, "move") == 0 && (arg = int_in(v, 1, UR_EXIT - 1)) > 0)
			out->kind = UR_ACT_MOVE;
	}
	if (out->kind == 0)
		return WIRE_E_ILLEGAL_ACTION;
	if (out->kind == UR_ACT_ENTER || out->kind == UR_ACT_MOVE)
		out->arg[0] = (int16_t)arg;
	return WIRE_OK;
}

static json_t *captured_new(const struct ur_outcome *o)
{
	json_t *arr = json_array();

	for (int i = 0; arr && i < o->captured; i++) {
		if (json_array_append_new(arr, json_integer(o->captured_from[i]))) {
			json_decref(arr);
			return NULL;
		}
	}
	return arr;
}

/*
 * Roll: {dice, value, lost, again}. Every other action (enter, move, bear
 * off, skip): {captured:[opponent squares], bonus, borne_off, won}.
 */
static json_t *ur_outcome_encode(const struct rules_match *m, const struct rules_action *a,
				 const union rules_outcome *o)
{
	const struct ur_outcome *u = &o->ur;

	(void)m;
	if (a->kind == UR_ACT_ROLL)
		return json_pack("{s:o,s:i,s:b,s:b}", "dice", dice_new(u->dice), "value", u->value, "lost",
				 u->lost, "again", u->again);
	return json_pack("{s:o,s:b,s:i,s:b}", "captured", captured_new(u), "bonus", u->bonus, "borne_off",
			 u->borne_off, "won", u->won);
}

/* {winner, reason}; null while playing; NULL for a reason Ur never gives. */
static json_t *ur_result_encode(const struct rules_result *r)
{
	static const char *const reasons[] = {
		[RULES_REASON_RACE] = "race",
		[RULES_REASON_RESIGN] = "resign",
		[RULES_REASON_FORFEIT] = "forfeit",
	};

	return wire_result_pack(r, reasons, WIRE_COUNT(reasons), false);
}

/* protocol.md (r2): Ur has `autoroll` only. */
static const struct wire_option ur_options[] = {
	WIRE_OPTION_AUTOROLL,
	WIRE_OPTIONS_END,
};

/* The Ur codec, registered by games.c. */
const struct wire_game wire_game_ur = {
	.id = "ur",
	.view = ur_view,
	.action_encode = ur_action_encode,
	.action_decode = ur_action_decode,
	.outcome_encode = ur_outcome_encode,
	.result_encode = ur_result_encode,
	.options = ur_options,
	.text = &text_game_ur,
};
