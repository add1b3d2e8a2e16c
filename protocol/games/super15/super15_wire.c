/*
 * super15_wire.c: JSON <-> C for Super 1 al 5, as protocol/games/super15/README.md
 * documents it and protocol/games/super15/schema/ checks it. Squares travel as
 * names ("a1" .. "h10"). Decoding is strict: an action is exactly
 * {"from":square,"to":square} with two well-formed square names, anything
 * else is WIRE_E_ILLEGAL_ACTION (whether the move is legal is the rules
 * core's business). Encoders are deterministic (fixed keys, pieces by id) so
 * archived outcomes compare as JSON on replay. No global mutable state;
 * encoders return new references, or NULL when jansson cannot allocate.
 */
#include <stddef.h>
#include <string.h>

#include "text.h"
#include "wire_games.h"

/* The square a name denotes (a..h then 1..10, no leading zero, nothing else); WIRE_E_ILLEGAL_ACTION
 * otherwise. */
static int square_parse(const json_t *v)
{
	const char *s = json_string_value(v);
	size_t len;
	int file, rank;

	if (!s)
		return WIRE_E_ILLEGAL_ACTION;
	len = json_string_length(v);
	if (len < 2 || len > 3 || s[0] < 'a' || s[0] > 'h' || s[1] < '1' || s[1] > '9')
		return WIRE_E_ILLEGAL_ACTION;
	file = s[0] - 'a';
	rank = s[1] - '0';
	if (len == 3) {
		if (s[1] != '1' || s[2] != '0')
			return WIRE_E_ILLEGAL_ACTION;
		rank = 10;
	}
	return (rank - 1) * SUPER15_FILES + file;
}

static json_t *piece_new(const struct super15_state *s, int id)
{
	const struct super15_piece *p = &s->pieces[id];
	char buf[4];

	return json_pack("{s:i,s:i,s:s,s:i,s:i,s:b}", "id", id, "seat", id >= SUPER15_SIDE, "square",
			 super15_square_name(p->square, buf), "value", p->value, "points", p->points, "super",
			 p->super);
}

/* {pieces:[{id, seat, square, value, points, super}] by id, captured ones left out, quiet}. */
static json_t *super15_view(const struct rules_match *m)
{
	const struct super15_state *s = &m->s.super15;
	json_t *pieces = json_array();

	for (int id = 0; pieces && id < SUPER15_PIECES; id++) {
		if (s->pieces[id].square == SUPER15_NONE)
			continue;
		if (json_array_append_new(pieces, piece_new(s, id))) {
			json_decref(pieces);
			return NULL;
		}
	}
	return json_pack("{s:o,s:i}", "pieces", pieces, "quiet", s->quiet);
}

/* {"from":..,"to":..}; NULL for an unknown kind or a square off the board. */
static json_t *super15_action_encode(const struct rules_action *a)
{
	char from[4], to[4];

	if (a->kind != SUPER15_ACT_MOVE || a->arg[0] < 0 || a->arg[0] >= SUPER15_SQUARES || a->arg[1] < 0 ||
	    a->arg[1] >= SUPER15_SQUARES)
		return NULL;
	return json_pack("{s:s,s:s}", "from", super15_square_name(a->arg[0], from), "to",
			 super15_square_name(a->arg[1], to));
}

/* Exactly the keys "from" and "to", each a square name; WIRE_E_ILLEGAL_ACTION otherwise. */
static int super15_action_decode(const json_t *j, struct rules_action *out)
{
	int from, to;

	memset(out, 0, sizeof(*out));
	if (!json_is_object(j) || json_object_size(j) != 2)
		return WIRE_E_ILLEGAL_ACTION;
	from = square_parse(json_object_get(j, "from"));
	to = square_parse(json_object_get(j, "to"));
	if (from < 0 || to < 0)
		return WIRE_E_ILLEGAL_ACTION;
	out->kind = SUPER15_ACT_MOVE;
	out->arg[0] = (int16_t)from;
	out->arg[1] = (int16_t)to;
	return WIRE_OK;
}

/*
 * {piece, captured:[{id, square, value, points, super}], gained, promoted}:
 * the captured pieces nearest first, as they were when taken (`m` is the
 * match after the move; a captured piece keeps its value, points and flag).
 */
static json_t *super15_outcome_encode(const struct rules_match *m, const struct rules_action *a,
				      const union rules_outcome *o)
{
	const struct super15_outcome *u = &o->super15;
	const struct super15_state *s = &m->s.super15;
	json_t *captured = json_array();

	(void)a;
	for (int i = 0; captured && i < u->captured && i < SUPER15_MAX_CAPTURE; i++) {
		const struct super15_piece *p = &s->pieces[u->captured_id[i]];
		char buf[4];

		if (json_array_append_new(
			    captured, json_pack("{s:i,s:s,s:i,s:i,s:b}", "id", u->captured_id[i], "square",
						super15_square_name(u->captured_sq[i], buf), "value",
						p->value, "points", p->points, "super", p->super))) {
			json_decref(captured);
			return NULL;
		}
	}
	return json_pack("{s:i,s:o,s:i,s:b}", "piece", u->piece, "captured", captured, "gained", u->gained,
			 "promoted", u->promoted);
}

/* {winner: seat|null, draw, reason}; null while playing; NULL for a reason the game never gives. */
static json_t *super15_result_encode(const struct rules_result *r)
{
	static const char *const reasons[] = {
		[RULES_REASON_LAST_PIECE] = "last_piece",     [RULES_REASON_NO_MOVES] = "no_moves",
		[RULES_REASON_ADJUDICATION] = "adjudication", [RULES_REASON_RESIGN] = "resign",
		[RULES_REASON_FORFEIT] = "forfeit",
	};

	return wire_result_pack(r, reasons, WIRE_COUNT(reasons), true); /* a draw: winner<0 (super15.c) */
}

/* protocol.md (r2): Super 1 al 5 has no options. */
static const struct wire_option super15_options[] = {
	WIRE_OPTIONS_END,
};

/* The Super 1 al 5 codec, registered by games.c. */
const struct wire_game wire_game_super15 = {
	.id = "super15",
	.view = super15_view,
	.action_encode = super15_action_encode,
	.action_decode = super15_action_decode,
	.outcome_encode = super15_outcome_encode,
	.result_encode = super15_result_encode,
	.options = super15_options,
	.text = &text_game_super15,
};
