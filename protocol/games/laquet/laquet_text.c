/*
 * laquet_text.c: Laquet's JSON straight to bytes (text.h), the same bytes as
 * laquet_wire.c's jansson codec dumped compact (tests/unit/text_codecs.c
 * checks it), and a view read back into a match for the browser's preview.
 * The view shows the whole position (men per route, men off, the throw being
 * played, the dice handed over), so a playing match is rebuilt exactly; only
 * a finished match's winner and reason may be hidden (README.md, "Read back
 * from a view"). Pure C: built into the WebAssembly rules module too.
 */
#include <string.h>

#include "text.h"

/* [v0, v1, ...]: the n byte values v[0..n). */
static void values(struct jw *w, const uint8_t *v, int n)
{
	jw_arr(w);
	for (int i = 0; i < n; i++)
		jw_int(w, v[i]);
	jw_arr_end(w);
}

/* {"white":white,"black":black}. */
static void colours(struct jw *w, int white, int black)
{
	jw_obj(w);
	jw_key(w, "white");
	jw_int(w, white);
	jw_key(w, "black");
	jw_int(w, black);
	jw_obj_end(w);
}

/* {dice, points, off, handed}: points index 0 = route 1. */
static void laquet_view(struct jw *w, const struct rules_match *m)
{
	const struct laquet_state *s = &m->s.laquet;

	jw_obj(w);
	jw_key(w, "dice");
	if (!s->over && s->phase == LAQUET_PHASE_PLAN)
		values(w, s->dice, LAQUET_DICE);
	else
		jw_null(w);
	jw_key(w, "points");
	jw_arr(w);
	for (int r = 1; r <= LAQUET_POINTS; r++)
		colours(w, s->men[0][r], s->men[1][r]);
	jw_arr_end(w);
	jw_key(w, "off");
	colours(w, s->men[0][LAQUET_OFF], s->men[1][LAQUET_OFF]);
	jw_key(w, "handed");
	values(w, s->handed, s->phase == LAQUET_PHASE_BONUS ? s->nhanded : 0);
	jw_obj_end(w);
}

/* {"plan"|"bonus":[{from, die}...]}. */
static void steps(struct jw *w, const char *key, const struct rules_action *a)
{
	jw_obj(w);
	jw_key(w, key);
	jw_arr(w);
	for (int k = 0; k < a->arg[0]; k++) {
		jw_obj(w);
		jw_key(w, "from");
		jw_int(w, a->arg[1 + 2 * k]);
		jw_key(w, "die");
		jw_int(w, a->arg[2 + 2 * k]);
		jw_obj_end(w);
	}
	jw_arr_end(w);
	jw_obj_end(w);
}

static void laquet_action(struct jw *w, const struct rules_action *a)
{
	switch (a->kind) {
	case LAQUET_ACT_ROLL:
		jw_obj(w);
		jw_key(w, "roll");
		jw_bool(w, true);
		jw_obj_end(w);
		return;
	case LAQUET_ACT_PLAN:
		steps(w, "plan", a);
		return;
	case LAQUET_ACT_BONUS:
		steps(w, "bonus", a);
		return;
	}
	w->full = true; /* an unknown kind: as the jansson codec's NULL */
}

/* [{from, to, die}...]: to is 19 for a man borne off, die the value moved. */
static void moves(struct jw *w, const struct laquet_outcome *u)
{
	jw_arr(w);
	for (int k = 0; k < u->nmoves; k++) {
		jw_obj(w);
		jw_key(w, "from");
		jw_int(w, u->moves[k].from);
		jw_key(w, "to");
		jw_int(w, u->moves[k].to);
		jw_key(w, "die");
		jw_int(w, u->moves[k].die);
		jw_obj_end(w);
	}
	jw_arr_end(w);
}

/* Roll: {dice, passed, handed, bonus}; plan and bonus: {moves, borne_off, handed, bonus, won}. */
static void laquet_outcome(struct jw *w, const struct rules_match *m, const struct rules_action *a,
			   const union rules_outcome *o)
{
	const struct laquet_outcome *u = &o->laquet;

	(void)m;
	jw_obj(w);
	if (a->kind == LAQUET_ACT_ROLL) {
		jw_key(w, "dice");
		values(w, u->dice, LAQUET_DICE);
		jw_key(w, "passed");
		jw_bool(w, u->passed);
	} else {
		jw_key(w, "moves");
		moves(w, u);
		jw_key(w, "borne_off");
		jw_int(w, u->borne_off);
	}
	jw_key(w, "handed");
	values(w, u->handed, u->nhanded);
	jw_key(w, "bonus");
	jw_bool(w, u->bonus);
	if (a->kind != LAQUET_ACT_ROLL) {
		jw_key(w, "won");
		jw_bool(w, u->won);
	}
	jw_obj_end(w);
}

static void laquet_result(struct jw *w, const struct rules_result *r)
{
	static const char *const reasons[] = {
		[RULES_REASON_RACE] = "race",
		[RULES_REASON_RESIGN] = "resign",
		[RULES_REASON_FORFEIT] = "forfeit",
	};

	text_result(w, r, reasons, sizeof(reasons) / sizeof(reasons[0]), false);
}

/* {"white":w,"black":b} of object token t into men[0][r], men[1][r]; 0, or -1. */
static int read_colours(struct laquet_state *s, int r, const char *text, const struct jr_tok *tok, int t)
{
	long long white, black;

	if (t < 0 || tok[t].type != JR_OBJ || tok[t].n != 2 ||
	    jr_int(tok, jr_get(text, tok, t, "white"), 0, LAQUET_MEN, &white) ||
	    jr_int(tok, jr_get(text, tok, t, "black"), 0, LAQUET_MEN, &black))
		return -1;
	s->men[0][r] = (uint8_t)white;
	s->men[1][r] = (uint8_t)black;
	return 0;
}

/* Dice values 1..6 of array token t (lo..hi of them) into v; their number, or -1. */
static int read_values(const struct jr_tok *tok, int t, int lo, int hi, uint8_t *v)
{
	long long d;

	if (t < 0 || tok[t].type != JR_ARR || tok[t].n < lo || tok[t].n > hi)
		return -1;
	for (int i = 0; i < tok[t].n; i++) {
		if (jr_int(tok, jr_item(tok, t, i), 1, 6, &d))
			return -1;
		v[i] = (uint8_t)d;
	}
	return tok[t].n;
}

/*
 * The men of the view's `points` and `off` into s; 0, or -1 unless each seat
 * has its fifteen men and no point holds both colours (the core's invariants).
 */
static int read_men(struct laquet_state *s, const char *text, const struct jr_tok *tok, int view)
{
	int p = jr_get(text, tok, view, "points");
	int total[2] = { 0, 0 };

	if (p < 0 || tok[p].type != JR_ARR || tok[p].n != LAQUET_POINTS ||
	    read_colours(s, LAQUET_OFF, text, tok, jr_get(text, tok, view, "off")))
		return -1;
	for (int r = 1; r <= LAQUET_POINTS; r++) {
		if (read_colours(s, r, text, tok, jr_item(tok, p, r - 1)) || (s->men[0][r] && s->men[1][r]))
			return -1;
	}
	for (int r = 1; r <= LAQUET_OFF; r++) {
		total[0] += s->men[0][r];
		total[1] += s->men[1][r];
	}
	return total[0] == LAQUET_MEN && total[1] == LAQUET_MEN ? 0 : -1;
}

/* Pips seat still has to travel: a man on route r is 19 - r from the rail. */
static int pips(const struct laquet_state *s, int seat)
{
	int n = 0;

	for (int r = 1; r <= LAQUET_POINTS; r++)
		n += s->men[seat][r] * (LAQUET_OFF - r);
	return n;
}

/*
 * A finished match. Fifteen men off: that seat won the race (and was the
 * last to act). Otherwise someone resigned or forfeited and the view does
 * not say who: the seat further from home (more pips; White on a tie) is
 * taken to have resigned, and is marked out of play.
 */
static void read_end(struct rules_match *m)
{
	struct laquet_state *s = &m->s.laquet;
	int loser;

	s->over = 1;
	for (int seat = 0; seat < 2; seat++) {
		if (s->men[seat][LAQUET_OFF] == LAQUET_MEN) {
			s->winner = (int8_t)seat;
			s->reason = RULES_REASON_RACE;
			s->turn = (uint8_t)seat;
			return;
		}
	}
	loser = pips(s, 1) > pips(s, 0) ? 1 : 0;
	s->winner = (int8_t)(loser ^ 1);
	s->reason = RULES_REASON_RESIGN;
	s->turn = (uint8_t)loser;
	m->out = (uint8_t)(1u << loser);
}

/*
 * The view shows everything a playing match holds: the men, the throw being
 * played (`dice`, phase PLAN) and the dice handed over (`handed` not empty,
 * phase BONUS); neither: phase ROLL. Whose turn it is comes from to_act, and
 * none to act means the match is over. The legal list is not needed.
 */
static int laquet_view_read(struct rules_match *m, const char *text, const struct jr_tok *tok, int view,
			    int legal, const uint8_t *to_act, int nto_act)
{
	struct laquet_state *s = &m->s.laquet;
	int d = jr_get(text, tok, view, "dice"), nhanded;
	uint8_t handed[LAQUET_DICE];

	(void)legal;
	memset(s, 0, sizeof(*s));
	s->winner = -1;
	m->out = 0;
	if (view < 0 || tok[view].type != JR_OBJ || tok[view].n != 4 || d < 0 || nto_act < 0 || nto_act > 1 ||
	    (nto_act == 1 && to_act[0] > 1) || read_men(s, text, tok, view))
		return -1;
	nhanded = read_values(tok, jr_get(text, tok, view, "handed"), 0, LAQUET_DICE, handed);
	if (nhanded < 0)
		return -1;
	if (tok[d].type != JR_NULL) {
		if (read_values(tok, d, LAQUET_DICE, LAQUET_DICE, s->dice) < 0 || nhanded > 0)
			return -1;
		s->phase = LAQUET_PHASE_PLAN;
	} else if (nhanded > 0) {
		memcpy(s->handed, handed, (size_t)nhanded);
		s->nhanded = (uint8_t)nhanded;
		s->phase = LAQUET_PHASE_BONUS;
	}
	if (nto_act == 1) {
		/* A seat with fifteen men off would have ended the match. */
		if (s->men[0][LAQUET_OFF] == LAQUET_MEN || s->men[1][LAQUET_OFF] == LAQUET_MEN)
			return -1;
		s->turn = to_act[0];
		return 0;
	}
	if (s->phase != LAQUET_PHASE_ROLL)
		return -1; /* a finished match shows no dice */
	read_end(m);
	return 0;
}

const struct text_game text_game_laquet = {
	.id = "laquet",
	.view = laquet_view,
	.action = laquet_action,
	.outcome = laquet_outcome,
	.result = laquet_result,
	.view_read = laquet_view_read,
};
