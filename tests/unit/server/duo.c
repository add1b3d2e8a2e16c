/*
 * duo.c: the test-only game of duo.h, its rules and its codec. Its state is
 * two bytes kept in the match's state union.
 */
#include "duo.h"

#include <string.h>

#define DUO_ROUNDS 3

struct duo {
	uint8_t round;  /* 0..DUO_ROUNDS; DUO_ROUNDS = over */
	uint8_t picked; /* bit per seat that picked this round */
	uint8_t sum[2];
};

static struct duo *st(struct rules_match *m)
{
	return (struct duo *)(void *)&m->s;
}
static const struct duo *cst(const struct rules_match *m)
{
	return (const struct duo *)(const void *)&m->s;
}

static int duo_start(struct rules_match *m)
{
	memset(st(m), 0, sizeof(struct duo));
	return 0;
}

static bool over(const struct rules_match *m)
{
	return cst(m)->round >= DUO_ROUNDS || m->out;
}

static int duo_to_act(const struct rules_match *m, uint8_t out[RULES_MAX_SEATS])
{
	int n = 0, i;

	for (i = 0; i < 2 && !over(m); i++)
		if (!(cst(m)->picked & (1u << i)))
			out[n++] = (uint8_t)i;
	return n;
}

static int duo_legal(const struct rules_match *m, int seat, struct rules_action *out, int cap)
{
	int i;

	for (i = 0; i < 3 && i < cap; i++) {
		memset(&out[i], 0, sizeof(out[i]));
		out[i].kind = 1;
		out[i].arg[0] = (int16_t)i;
	}
	return 3;
}

static int duo_apply(struct rules_match *m, int seat, const struct rules_action *a, union rules_outcome *o)
{
	struct duo *d = st(m);

	if (a->kind != 1 || a->arg[0] < 0 || a->arg[0] > 2)
		return RULES_E_ILLEGAL;
	d->picked |= (uint8_t)(1u << seat);
	d->sum[seat] = (uint8_t)(d->sum[seat] + a->arg[0]);
	if (d->picked == 3) {
		d->picked = 0;
		d->round++;
	}
	return 0;
}

static int duo_event(struct rules_match *m, int seat, int kind, union rules_outcome *o)
{
	return 0; /* the seat is out (the wrapper set the bit): the match is over */
}

static void duo_result(const struct rules_match *m, struct rules_result *out)
{
	const struct duo *d = cst(m);

	if (!over(m))
		return;
	out->over = true;
	if (m->out) {
		out->winner = (int8_t)(m->out & 1 ? 1 : 0);
		out->reason = RULES_REASON_RESIGN;
	} else {
		out->draw = d->sum[0] == d->sum[1];
		out->winner = (int8_t)(out->draw ? -1 : d->sum[0] > d->sum[1] ? 0 : 1);
	}
}

static const char *const roles[] = { "left", "right" };

const struct rules_game duo_game = {
	"duo",      "Duo",     2,         roles,     false,      duo_start,
	duo_to_act, duo_legal, duo_apply, duo_event, duo_result, NULL,
};

static json_t *duo_view(const struct rules_match *m)
{
	return json_pack("{s:i}", "round", cst(m)->round);
}

static json_t *duo_action_encode(const struct rules_action *a)
{
	return json_pack("{s:i}", "pick", a->arg[0]);
}

static int duo_action_decode(const json_t *j, struct rules_action *out)
{
	json_t *v = json_object_get(j, "pick");

	if (!json_is_integer(v) || json_object_size(j) != 1 || json_integer_value(v) < 0 ||
	    json_integer_value(v) > 2)
		return WIRE_E_BAD_MESSAGE;
	memset(out, 0, sizeof(*out));
	out->kind = 1;
	out->arg[0] = (int16_t)json_integer_value(v);
	return 0;
}

static json_t *duo_outcome_encode(const struct rules_match *m, const struct rules_action *a,
				  const union rules_outcome *o)
{
	return json_null();
}

static json_t *duo_result_encode(const struct rules_result *r)
{
	return json_pack("{s:b}", "over", r->over);
}

static const struct wire_option duo_options[] = { { NULL, 0, false, 0, 0, 0, 0 } };

const struct wire_game duo_codec = {
	.id = "duo",
	.view = duo_view,
	.action_encode = duo_action_encode,
	.action_decode = duo_action_decode,
	.outcome_encode = duo_outcome_encode,
	.result_encode = duo_result_encode,
	.options = duo_options,
};
