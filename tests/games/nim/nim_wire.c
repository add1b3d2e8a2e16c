/*
 * nim_wire.c: Nim's codec. view {heap, turn}; the action {"take": 1..3}
 * (anything else is WIRE_E_ILLEGAL_ACTION); outcome {taken, left, won};
 * result {winner, reason} through the shared wire_result_pack(); no options
 * but those every game has. New references, NULL when jansson cannot
 * allocate.
 */
#include <string.h>

#include "nim.h"
#include "wire_games.h"

static struct nim_state state_of(const struct rules_match *m)
{
	struct nim_state s;

	memcpy(&s, &m->s, sizeof(s));
	return s;
}

static json_t *nim_view(const struct rules_match *m)
{
	struct nim_state s = state_of(m);

	return json_pack("{s:i,s:i}", "heap", s.heap, "turn", s.turn);
}

static json_t *nim_action_encode(const struct rules_action *a)
{
	return a->kind == NIM_ACT_TAKE ? json_pack("{s:i}", "take", a->arg[0]) : NULL;
}

static int nim_action_decode(const json_t *j, struct rules_action *out)
{
	const json_t *v = json_object_get(j, "take");

	memset(out, 0, sizeof(*out));
	if (!json_is_object(j) || json_object_size(j) != 1 || !json_is_integer(v) ||
	    json_integer_value(v) < 1 || json_integer_value(v) > NIM_TAKE_MAX)
		return WIRE_E_ILLEGAL_ACTION;
	out->kind = NIM_ACT_TAKE;
	out->arg[0] = (int16_t)json_integer_value(v);
	return WIRE_OK;
}

static json_t *nim_outcome_encode(const struct rules_match *m, const struct rules_action *a,
				  const union rules_outcome *o)
{
	struct nim_outcome u;

	(void)m;
	(void)a;
	memcpy(&u, o, sizeof(u));
	return json_pack("{s:i,s:i,s:b}", "taken", u.taken, "left", u.left, "won", u.won);
}

static json_t *nim_result_encode(const struct rules_result *r)
{
	static const char *const reasons[] = {
		[RULES_REASON_LAST_PIECE] = "last_stone",
		[RULES_REASON_RESIGN] = "resign",
		[RULES_REASON_FORFEIT] = "forfeit",
	};

	return wire_result_pack(r, reasons, WIRE_COUNT(reasons), false);
}

static const struct wire_option nim_options[] = {
	WIRE_OPTIONS_END,
};

/* Nim's codec, registered by nim_server.c. */
const struct wire_game wire_game_nim = {
	.id = "nim",
	.view = nim_view,
	.action_encode = nim_action_encode,
	.action_decode = nim_action_decode,
	.outcome_encode = nim_outcome_encode,
	.result_encode = nim_result_encode,
	.options = nim_options,
};
