/*
 * quinteto_wire.c: JSON <-> C for Quinteto, as protocol/games/quinteto/README.md
 * documents it and protocol/games/quinteto/schema/ checks it. Decoding is strict:
 * an action must be exactly one of the shapes (the right keys, the right
 * JSON types, in range) and a plan or an arrangement that could never be
 * legal (a stone twice, a die used twice, the sum beside another step, a
 * hunter named twice) is refused here too; everything else is
 * WIRE_E_ILLEGAL_ACTION. Whether a well-formed action is legal now is the
 * rules core's business. Encoders are deterministic (fixed keys, arrays in a
 * fixed order) so archived outcomes compare as JSON on replay. No global
 * mutable state; encoders return new references, or NULL when jansson
 * cannot allocate.
 */
#include <stddef.h>
#include <string.h>

#include "text.h"
#include "wire_games.h"

static const char *const phase_names[] = {
	[QUINTETO_PHASE_ARRANGE] = "arrange", [QUINTETO_PHASE_ROLLOFF] = "rolloff",
	[QUINTETO_PHASE_HUNT] = "hunt",       [QUINTETO_PHASE_PLACE] = "place",
	[QUINTETO_PHASE_DUEL] = "duel",       [QUINTETO_PHASE_OVER] = "over",
};

/* A seat (or stone) number, or null for QUINTETO_NONE. */
static json_t *seat_or_null(uint8_t v)
{
	return v == QUINTETO_NONE ? json_null() : json_integer(v);
}

/* Appends every bit of `mask` (seats 0..7) or the first n bytes of `ids`, as integers. */
static json_t *ids_new(const uint8_t *ids, int n)
{
	json_t *arr = json_array();

	for (int i = 0; arr && i < n; i++) {
		if (json_array_append_new(arr, json_integer(ids[i]))) {
			json_decref(arr);
			return NULL;
		}
	}
	return arr;
}

static json_t *mask_new(uint8_t mask)
{
	uint8_t ids[8];
	int n = 0;

	for (int s = 0; s < 8; s++)
		if (mask & (1u << s))
			ids[n++] = (uint8_t)s;
	return ids_new(ids, n);
}

static json_t *stone_new(const struct quinteto_state *s, int k)
{
	static const char *const where[] = {
		[QUINTETO_LIMBO] = "limbo",
		[QUINTETO_MARKER] = "marker",
		[QUINTETO_RESERVE] = "reserve",
		[QUINTETO_OUT] = "out",
	};
	uint8_t loc = s->loc[k];

	if (loc < QUINTETO_ROOMS)
		return json_pack("{s:i,s:s,s:i}", "seat", k / 3, "where", "room", "room", loc);
	return json_pack("{s:i,s:s}", "seat", k / 3, "where", where[loc]);
}

/* Arrays of n items made by `item(s, i)`; NULL if any fails. */
static json_t *array_of(const struct quinteto_state *s, int n,
			json_t *(*item)(const struct quinteto_state *, int))
{
	json_t *arr = json_array();

	for (int i = 0; arr && i < n; i++) {
		if (json_array_append_new(arr, item(s, i))) {
			json_decref(arr);
			return NULL;
		}
	}
	return arr;
}

static json_t *circle_item(const struct quinteto_state *s, int i)
{
	return seat_or_null(s->circle[i]);
}

static json_t *rolloff_item(const struct quinteto_state *s, int i)
{
	return s->rolloff[i] ? json_integer(s->rolloff[i]) : json_null();
}

static json_t *victim_item(const struct quinteto_state *s, int seat)
{
	return seat_or_null(quinteto_victim(s, seat));
}

/* {phase, dice, circle, stones, victim, rolloff, turns} (protocol/games/quinteto/README.md "On the wire"). */
static json_t *quinteto_view(const struct rules_match *m)
{
	const struct quinteto_state *s = &m->s.quinteto;
	json_t *dice = s->rolled ? json_pack("[ii]", s->dice[0], s->dice[1]) : json_null();

	return json_pack("{s:s,s:o,s:o,s:o,s:o,s:o,s:i}", "phase", phase_names[s->phase], "dice", dice,
			 "circle", array_of(s, QUINTETO_HUNTERS, circle_item), "stones",
			 array_of(s, QUINTETO_STONES, stone_new), "victim",
			 array_of(s, RULES_MAX_SEATS, victim_item), "rolloff",
			 array_of(s, QUINTETO_HUNTERS, rolloff_item), "turns", (json_int_t)s->turns);
}

/* One step of a plan action: args op, die, stone, n. */
static json_t *step_encode(const int16_t *p)
{
	json_t *die = p[1] == QUINTETO_DIE_SUM ? json_string("sum") : json_integer(p[1]);

	switch (p[0]) {
	case QUINTETO_OP_MOVE:
		return json_pack("{s:o,s:i,s:i}", "die", die, "stone", p[2], "steps", p[3]);
	case QUINTETO_OP_ENTER:
		return json_pack("{s:o,s:i,s:b}", "die", die, "stone", p[2], "enter", 1);
	case QUINTETO_OP_EXIT:
		return json_pack("{s:o,s:i,s:b}", "die", die, "stone", p[2], "exit", 1);
	case QUINTETO_OP_KILL:
		return json_pack("{s:o,s:i}", "die", die, "kill", p[2]);
	}
	json_decref(die);
	return NULL;
}

/* The JSON form of one action; NULL for an unknown kind. */
static json_t *quinteto_action_encode(const struct rules_action *a)
{
	json_t *arr;

	switch (a->kind) {
	case QUINTETO_ACT_ROLL:
		return json_pack("{s:b}", "roll", 1);
	case QUINTETO_ACT_PLACE:
		return json_pack("{s:i}", "place", a->arg[0]);
	case QUINTETO_ACT_ARRANGE:
		arr = json_array();
		for (int i = 0; arr && i < a->arg[0] && i < QUINTETO_HUNTERS; i++) {
			if (json_array_append_new(arr, json_integer(a->arg[1 + i]))) {
				json_decref(arr);
				return NULL;
			}
		}
		return arr ? json_pack("{s:o}", "arrange", arr) : NULL;
	case QUINTETO_ACT_PLAN:
		arr = json_array();
		for (int j = 0; arr && j < a->arg[0] && j < 2; j++) {
			if (json_array_append_new(arr, step_encode(&a->arg[1 + QUINTETO_STEP_ARGS * j]))) {
				json_decref(arr);
				return NULL;
			}
		}
		return arr ? json_pack("{s:o}", "plan", arr) : NULL;
	}
	return NULL;
}

/* An integer (not a real, not a boolean) in lo..hi; `bad` otherwise. */
static int int_in(const json_t *v, int lo, int hi, int bad)
{
	json_int_t i;

	if (!json_is_integer(v))
		return bad;
	i = json_integer_value(v);
	return i >= lo && i <= hi ? (int)i : bad;
}

#define BAD 1000 /* no argument of this codec is ever this value */

/* {"arrange":[seats]}: 1..5 distinct hunters. */
static int arrange_decode(const json_t *v, struct rules_action *out)
{
	unsigned seen = 0;
	size_t n = json_array_size(v);

	if (!json_is_array(v) || n < 1 || n > QUINTETO_HUNTERS)
		return WIRE_E_ILLEGAL_ACTION;
	out->kind = QUINTETO_ACT_ARRANGE;
	out->arg[0] = (int16_t)n;
	for (size_t i = 0; i < n; i++) {
		int h = int_in(json_array_get(v, i), 0, QUINTETO_HUNTERS - 1, BAD);

		if (h == BAD || (seen & (1u << h)))
			return WIRE_E_ILLEGAL_ACTION;
		seen |= 1u << h;
		out->arg[1 + i] = (int16_t)h;
	}
	return WIRE_OK;
}

/* One step object into p[0..3] (op, die, stone, n); 0, or WIRE_E_ILLEGAL_ACTION if it is no step shape. */
static int step_decode(const json_t *j, int16_t *p)
{
	json_t *die = json_object_get(j, "die"), *stone = json_object_get(j, "stone");
	json_t *steps = json_object_get(j, "steps"), *kill = json_object_get(j, "kill");
	json_t *enter = json_object_get(j, "enter"), *exit_ = json_object_get(j, "exit");
	bool sum = json_is_string(die) && strcmp(json_string_value(die), "sum") == 0;
	int d = sum ? QUINTETO_DIE_SUM : int_in(die, 0, 1, BAD), keys = stone ? 3 : 2;
	int n = 0, k = int_in(stone ? stone : kill, 0, QUINTETO_STONES - 1, BAD);

	if (!json_is_object(j) || d == BAD || k == BAD || (stone && kill) ||
	    json_object_size(j) != (size_t)keys)
		return WIRE_E_ILLEGAL_ACTION;
	if (kill && !sum) {
		p[0] = QUINTETO_OP_KILL;
	} else if (steps && stone) {
		int max = sum ? 12 : 6, min = sum ? 2 : 1;

		n = int_in(steps, -max, max, BAD);
		if (n == BAD || (n > -min && n < min))
			return WIRE_E_ILLEGAL_ACTION;
		p[0] = QUINTETO_OP_MOVE;
	} else if (enter && stone && json_is_true(enter) && !sum) {
		p[0] = QUINTETO_OP_ENTER;
	} else if (exit_ && stone && json_is_true(exit_) && !sum) {
		p[0] = QUINTETO_OP_EXIT;
	} else {
		return WIRE_E_ILLEGAL_ACTION;
	}
	p[1] = (int16_t)d;
	p[2] = (int16_t)k;
	p[3] = (int16_t)n;
	return WIRE_OK;
}

/* {"plan":[step, step?]}: the sum alone; two steps use both dice and two stones. */
static int plan_decode(const json_t *v, struct rules_action *out)
{
	size_t n = json_array_size(v);
	int16_t *a = &out->arg[1], *b = &out->arg[1 + QUINTETO_STEP_ARGS];

	if (!json_is_array(v) || n < 1 || n > 2)
		return WIRE_E_ILLEGAL_ACTION;
	out->kind = QUINTETO_ACT_PLAN;
	out->arg[0] = (int16_t)n;
	if (step_decode(json_array_get(v, 0), a))
		return WIRE_E_ILLEGAL_ACTION;
	if (n == 1)
		return WIRE_OK;
	if (step_decode(json_array_get(v, 1), b) || a[1] == QUINTETO_DIE_SUM || b[1] == QUINTETO_DIE_SUM ||
	    a[1] == b[1] || a[2] == b[2])
		return WIRE_E_ILLEGAL_ACTION;
	return WIRE_OK;
}

/* Decodes exactly one action shape; WIRE_E_ILLEGAL_ACTION otherwise (and `out` zeroed). */
static int quinteto_action_decode(const json_t *j, struct rules_action *out)
{
	const char *key;
	json_t *v;
	int err = WIRE_E_ILLEGAL_ACTION, side;

	memset(out, 0, sizeof(*out));
	if (!json_is_object(j) || json_object_size(j) != 1)
		return WIRE_E_ILLEGAL_ACTION;
	json_object_foreach((json_t *)j, key, v)
	{
		if (strcmp(key, "roll") == 0 && json_is_true(v)) {
			out->kind = QUINTETO_ACT_ROLL;
			err = WIRE_OK;
		} else if (strcmp(key, "place") == 0 && (side = int_in(v, 0, 4, BAD)) != BAD) {
			out->kind = QUINTETO_ACT_PLACE;
			out->arg[0] = (int16_t)side;
			err = WIRE_OK;
		} else if (strcmp(key, "arrange") == 0) {
			err = arrange_decode(v, out);
		} else if (strcmp(key, "plan") == 0) {
			err = plan_decode(v, out);
		}
	}
	if (err)
		memset(out, 0, sizeof(*out));
	return err;
}

/*
 * Every action: {dice, rolloff, tied, starts, captured, killed, eliminated,
 * phase, quinteto, over} (protocol/games/quinteto/README.md "Outcome").
 */
static json_t *quinteto_outcome_encode(const struct rules_match *m, const struct rules_action *a,
				       const union rules_outcome *o)
{
	const struct quinteto_outcome *q = &o->quinteto;
	bool roll = a->kind == QUINTETO_ACT_ROLL;
	json_t *dice = roll && !q->rolloff ? json_pack("[ii]", q->dice[0], q->dice[1]) : json_null();
	json_t *phase = q->phase == QUINTETO_NONE || q->phase > QUINTETO_PHASE_OVER
				? json_null()
				: json_string(phase_names[q->phase]);

	(void)m;
	return json_pack("{s:o,s:o,s:o,s:o,s:o,s:o,s:o,s:o,s:b,s:b}", "dice", dice, "rolloff",
			 roll && q->rolloff ? json_integer(q->dice[0]) : json_null(), "tied",
			 mask_new(q->tied), "starts", seat_or_null(q->starts), "captured",
			 ids_new(q->captured, q->ncaptured), "killed", ids_new(q->killed, q->nkilled),
			 "eliminated", ids_new(q->eliminated, q->neliminated), "phase", phase, "quinteto",
			 q->quinteto, "over", q->over);
}

/* {winner, draw, reason}; null while playing; NULL for a reason Quinteto never gives. */
static json_t *quinteto_result_encode(const struct rules_result *r)
{
	static const char *const reasons[] = {
		[RULES_REASON_DUEL] = "duel",           [RULES_REASON_QUINTETO] = "quinteto",
		[RULES_REASON_MAX_TURNS] = "max_turns", [RULES_REASON_RESIGN] = "resign",
		[RULES_REASON_FORFEIT] = "forfeit",
	};

	return wire_result_pack(r, reasons, WIRE_COUNT(reasons), true); /* a draw: winner<0 (quinteto.c) */
}

/* protocol.md (r2): `autoroll` and `max_turns` (10..100000, default 2000). */
static const struct wire_option quinteto_options[] = {
	WIRE_OPTION_AUTOROLL,
	WIRE_OPTION_MAX_TURNS(10, 100000, QUINTETO_MAX_TURNS_DEFAULT),
	WIRE_OPTIONS_END,
};

/* The Quinteto codec, registered by games.c. */
const struct wire_game wire_game_quinteto = {
	.id = "quinteto",
	.view = quinteto_view,
	.action_encode = quinteto_action_encode,
	.action_decode = quinteto_action_decode,
	.outcome_encode = quinteto_outcome_encode,
	.result_encode = quinteto_result_encode,
	.options = quinteto_options,
	.text = &text_game_quinteto,
};
