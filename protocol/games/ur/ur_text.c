/*
 * ur_text.c: the Royal Game of Ur's JSON straight to bytes (text.h), the same
 * bytes as ur_wire.c's jansson codec dumped compact (tests/unit/text_codecs.c
 * checks it), and a view read back into a match for the browser's preview.
 * Pure C: built into the WebAssembly rules module too.
 */
#include <string.h>

#include "text.h"

static void pieces(struct jw *w, const uint8_t p[UR_PIECES])
{
	jw_arr(w);
	for (int i = 0; i < UR_PIECES; i++)
		jw_int(w, p[i]);
	jw_arr_end(w);
}

static void dice(struct jw *w, const uint8_t d[UR_DICE])
{
	jw_arr(w);
	for (int i = 0; i < UR_DICE; i++)
		jw_bool(w, d[i]);
	jw_arr_end(w);
}

/* {dice, value, pieces:[[light],[dark]], bonus, again}. */
static void ur_view(struct jw *w, const struct rules_match *m)
{
	const struct ur_state *s = &m->s.ur;

	jw_obj(w);
	jw_key(w, "dice");
	if (s->has_throw)
		dice(w, s->dice);
	else
		jw_null(w);
	jw_key(w, "value");
	if (s->has_throw)
		jw_int(w, s->value);
	else
		jw_null(w);
	jw_key(w, "pieces");
	jw_arr(w);
	pieces(w, s->pos[0]);
	pieces(w, s->pos[1]);
	jw_arr_end(w);
	jw_key(w, "bonus");
	jw_bool(w, !s->over && s->phase == UR_PHASE_BONUS);
	jw_key(w, "again");
	jw_bool(w, s->again);
	jw_obj_end(w);
}

static void flag(struct jw *w, const char *key)
{
	jw_obj(w);
	jw_key(w, key);
	jw_bool(w, true);
	jw_obj_end(w);
}

static void number(struct jw *w, const char *key, int v)
{
	jw_obj(w);
	jw_key(w, key);
	jw_int(w, v);
	jw_obj_end(w);
}

static void ur_action(struct jw *w, const struct rules_action *a)
{
	switch (a->kind) {
	case UR_ACT_ROLL:
		flag(w, "roll");
		return;
	case UR_ACT_ENTER:
		number(w, "enter", a->arg[0]);
		return;
	case UR_ACT_MOVE:
		number(w, "move", a->arg[0]);
		return;
	case UR_ACT_BEAR_OFF:
		flag(w, "bear_off");
		return;
	case UR_ACT_SKIP:
		flag(w, "skip");
		return;
	}
	w->full = true; /* an unknown kind: as the jansson codec's NULL */
}

/* Roll: {dice, value, lost, again}; any other action: {captured, bonus, borne_off, won}. */
static void ur_outcome(struct jw *w, const struct rules_match *m, const struct rules_action *a,
		       const union rules_outcome *o)
{
	const struct ur_outcome *u = &o->ur;

	(void)m;
	jw_obj(w);
	if (a->kind == UR_ACT_ROLL) {
		jw_key(w, "dice");
		dice(w, u->dice);
		jw_key(w, "value");
		jw_int(w, u->value);
		jw_key(w, "lost");
		jw_bool(w, u->lost);
		jw_key(w, "again");
		jw_bool(w, u->again);
	} else {
		jw_key(w, "captured");
		jw_arr(w);
		for (int i = 0; i < u->captured; i++)
			jw_int(w, u->captured_from[i]);
		jw_arr_end(w);
		jw_key(w, "bonus");
		jw_bool(w, u->bonus);
		jw_key(w, "borne_off");
		jw_int(w, u->borne_off);
		jw_key(w, "won");
		jw_bool(w, u->won);
	}
	jw_obj_end(w);
}

static void ur_result(struct jw *w, const struct rules_result *r)
{
	static const char *const reasons[] = {
		[RULES_REASON_RACE] = "race",
		[RULES_REASON_RESIGN] = "resign",
		[RULES_REASON_FORFEIT] = "forfeit",
	};

	text_result(w, r, reasons, sizeof(reasons) / sizeof(reasons[0]), false);
}

static int read_pieces(const char *text, const struct jr_tok *tok, int arr, uint8_t out[UR_PIECES])
{
	long long v;

	if (arr < 0 || tok[arr].type != JR_ARR || tok[arr].n != UR_PIECES)
		return TEXT_E_BAD_VIEW;
	for (int i = 0; i < UR_PIECES; i++) {
		if (jr_int(tok, jr_item(tok, arr, i), UR_HOME, UR_OFF, &v))
			return TEXT_E_BAD_VIEW;
		out[i] = (uint8_t)v;
		if (i > 0 && out[i] < out[i - 1])
			return TEXT_E_BAD_VIEW; /* the rules core keeps them ascending */
	}
	(void)text;
	return 0;
}

/*
 * The view shows the pieces, the latest throw and the bonus; whose turn it is
 * comes from to_act, and whether the throw is still to be used from the legal
 * list (a roll in it: not).
 */
static int ur_view_read(struct rules_match *m, const char *text, const struct jr_tok *tok, int view,
			int legal, const uint8_t *to_act, int nto_act)
{
	struct ur_state *s = &m->s.ur;
	int d = jr_get(text, tok, view, "dice"), p = jr_get(text, tok, view, "pieces");
	long long v = 0;
	bool b, bonus, again;

	if (jr_bool(tok, jr_get(text, tok, view, "bonus"), &bonus) ||
	    jr_bool(tok, jr_get(text, tok, view, "again"), &again) || p < 0 || tok[p].type != JR_ARR ||
	    tok[p].n != 2 || read_pieces(text, tok, jr_item(tok, p, 0), s->pos[0]) ||
	    read_pieces(text, tok, jr_item(tok, p, 1), s->pos[1]))
		return TEXT_E_BAD_VIEW;
	s->has_throw = d >= 0 && tok[d].type == JR_ARR;
	if (s->has_throw) {
		if (tok[d].n != UR_DICE || jr_int(tok, jr_get(text, tok, view, "value"), 0, 5, &v))
			return TEXT_E_BAD_VIEW;
		for (int i = 0; i < UR_DICE; i++) {
			if (jr_bool(tok, jr_item(tok, d, i), &b))
				return TEXT_E_BAD_VIEW;
			s->dice[i] = b;
		}
	}
	s->value = (uint8_t)v;
	s->again = again;
	s->over = nto_act == 0;
	s->winner = -1;
	s->turn = nto_act > 0 ? to_act[0] : 0;
	if (bonus)
		s->phase = UR_PHASE_BONUS;
	else if (legal >= 0 && tok[legal].type == JR_ARR && tok[legal].n > 0 &&
		 jr_get(text, tok, jr_item(tok, legal, 0), "roll") < 0)
		s->phase = UR_PHASE_MOVE;
	else
		s->phase = UR_PHASE_ROLL;
	return 0;
}

const struct text_game text_game_ur = {
	.id = "ur",
	.view = ur_view,
	.action = ur_action,
	.outcome = ur_outcome,
	.result = ur_result,
	.view_read = ur_view_read,
};
