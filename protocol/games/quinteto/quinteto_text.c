/*
 * quinteto_text.c: Quinteto's JSON straight to bytes (text.h), the same bytes
 * as quinteto_wire.c's jansson codec dumped compact (tests/unit/
 * test_text_codecs.c checks it), and a view read back into a match for the
 * browser's preview. The view shows every stone, the circle, the roll-off
 * values, the dice and the turn count; what it leaves out (the arranger's
 * home once its stones have left it, the hunter who plays after a
 * re-arrangement, the roll-off's contenders after a tie, a pending
 * re-arrangement, why an ended match ended) is set to its most likely value
 * (README.md, "Read back from a view"). Pure C: built into the WebAssembly
 * rules module too.
 */
#include <string.h>

#include "text.h"

static const char *const phase_names[] = {
	[QUINTETO_PHASE_ARRANGE] = "arrange", [QUINTETO_PHASE_ROLLOFF] = "rolloff",
	[QUINTETO_PHASE_HUNT] = "hunt",       [QUINTETO_PHASE_PLACE] = "place",
	[QUINTETO_PHASE_DUEL] = "duel",       [QUINTETO_PHASE_OVER] = "over",
};

/* Where a stone off the ring is, by enum quinteto_where. */
static const char *const where_names[] = {
	[QUINTETO_LIMBO] = "limbo",
	[QUINTETO_MARKER] = "marker",
	[QUINTETO_RESERVE] = "reserve",
	[QUINTETO_OUT] = "out",
};

#define NPHASES (int)(sizeof(phase_names) / sizeof(phase_names[0]))

/* --- writers ---------------------------------------------------------------- */

/* A seat (or stone) number, or null for QUINTETO_NONE. */
static void seat_or_null(struct jw *w, uint8_t v)
{
	if (v == QUINTETO_NONE)
		jw_null(w);
	else
		jw_int(w, v);
}

static void ids(struct jw *w, const uint8_t *id, int n)
{
	jw_arr(w);
	for (int i = 0; i < n; i++)
		jw_int(w, id[i]);
	jw_arr_end(w);
}

/* Every bit of `mask` (seats 0..7), as integers. */
static void mask(struct jw *w, uint8_t bits)
{
	jw_arr(w);
	for (int s = 0; s < 8; s++)
		if (bits & (1u << s))
			jw_int(w, s);
	jw_arr_end(w);
}

static void dice(struct jw *w, const uint8_t d[2])
{
	jw_arr(w);
	jw_int(w, d[0]);
	jw_int(w, d[1]);
	jw_arr_end(w);
}

/* {seat, where, room?}. */
static void stone(struct jw *w, const struct quinteto_state *s, int k)
{
	uint8_t loc = s->loc[k];

	jw_obj(w);
	jw_key(w, "seat");
	jw_int(w, k / 3);
	jw_key(w, "where");
	if (loc < QUINTETO_ROOMS) {
		jw_str(w, "room");
		jw_key(w, "room");
		jw_int(w, loc);
	} else if (loc < sizeof(where_names) / sizeof(where_names[0])) {
		jw_str(w, where_names[loc]);
	} else {
		w->full = true; /* no such place: jansson's pack fails on the NULL string */
	}
	jw_obj_end(w);
}

/* {phase, dice, circle, stones, victim, rolloff, turns} (README.md "View"). */
static void quinteto_view(struct jw *w, const struct rules_match *m)
{
	const struct quinteto_state *s = &m->s.quinteto;

	jw_obj(w);
	jw_key(w, "phase");
	if (s->phase < NPHASES)
		jw_str(w, phase_names[s->phase]);
	else
		w->full = true;
	jw_key(w, "dice");
	if (s->rolled)
		dice(w, s->dice);
	else
		jw_null(w);
	jw_key(w, "circle");
	jw_arr(w);
	for (int i = 0; i < QUINTETO_HUNTERS; i++)
		seat_or_null(w, s->circle[i]);
	jw_arr_end(w);
	jw_key(w, "stones");
	jw_arr(w);
	for (int k = 0; k < QUINTETO_STONES; k++)
		stone(w, s, k);
	jw_arr_end(w);
	jw_key(w, "victim");
	jw_arr(w);
	for (int seat = 0; seat < RULES_MAX_SEATS; seat++)
		seat_or_null(w, quinteto_victim(s, seat));
	jw_arr_end(w);
	jw_key(w, "rolloff");
	jw_arr(w);
	for (int h = 0; h < QUINTETO_HUNTERS; h++) {
		if (s->rolloff[h])
			jw_int(w, s->rolloff[h]);
		else
			jw_null(w);
	}
	jw_arr_end(w);
	jw_key(w, "turns");
	jw_int(w, s->turns);
	jw_obj_end(w);
}

/* One step of a plan action: args op, die, stone, n. */
static void step(struct jw *w, const int16_t *p)
{
	jw_obj(w);
	jw_key(w, "die");
	if (p[1] == QUINTETO_DIE_SUM)
		jw_str(w, "sum");
	else
		jw_int(w, p[1]);
	switch (p[0]) {
	case QUINTETO_OP_MOVE:
		jw_key(w, "stone");
		jw_int(w, p[2]);
		jw_key(w, "steps");
		jw_int(w, p[3]);
		break;
	case QUINTETO_OP_ENTER:
	case QUINTETO_OP_EXIT:
		jw_key(w, "stone");
		jw_int(w, p[2]);
		jw_key(w, p[0] == QUINTETO_OP_ENTER ? "enter" : "exit");
		jw_bool(w, true);
		break;
	case QUINTETO_OP_KILL:
		jw_key(w, "kill");
		jw_int(w, p[2]);
		break;
	default:
		w->full = true; /* an unknown op: as the jansson codec's NULL */
	}
	jw_obj_end(w);
}

static void quinteto_action(struct jw *w, const struct rules_action *a)
{
	jw_obj(w);
	switch (a->kind) {
	case QUINTETO_ACT_ROLL:
		jw_key(w, "roll");
		jw_bool(w, true);
		break;
	case QUINTETO_ACT_PLACE:
		jw_key(w, "place");
		jw_int(w, a->arg[0]);
		break;
	case QUINTETO_ACT_ARRANGE:
		jw_key(w, "arrange");
		jw_arr(w);
		for (int i = 0; i < a->arg[0] && i < QUINTETO_HUNTERS; i++)
			jw_int(w, a->arg[1 + i]);
		jw_arr_end(w);
		break;
	case QUINTETO_ACT_PLAN:
		jw_key(w, "plan");
		jw_arr(w);
		for (int j = 0; j < a->arg[0] && j < 2; j++)
			step(w, &a->arg[1 + QUINTETO_STEP_ARGS * j]);
		jw_arr_end(w);
		break;
	default:
		w->full = true; /* an unknown kind: as the jansson codec's NULL */
	}
	jw_obj_end(w);
}

/* {dice, rolloff, tied, starts, captured, killed, eliminated, phase, quinteto, over} (README.md "Outcome").
 */
static void quinteto_outcome(struct jw *w, const struct rules_match *m, const struct rules_action *a,
			     const union rules_outcome *o)
{
	const struct quinteto_outcome *q = &o->quinteto;
	bool roll = a->kind == QUINTETO_ACT_ROLL;

	(void)m;
	jw_obj(w);
	jw_key(w, "dice");
	if (roll && !q->rolloff)
		dice(w, q->dice);
	else
		jw_null(w);
	jw_key(w, "rolloff");
	if (roll && q->rolloff)
		jw_int(w, q->dice[0]);
	else
		jw_null(w);
	jw_key(w, "tied");
	mask(w, q->tied);
	jw_key(w, "starts");
	seat_or_null(w, q->starts);
	jw_key(w, "captured");
	ids(w, q->captured, q->ncaptured);
	jw_key(w, "killed");
	ids(w, q->killed, q->nkilled);
	jw_key(w, "eliminated");
	ids(w, q->eliminated, q->neliminated);
	jw_key(w, "phase");
	if (q->phase < NPHASES)
		jw_str(w, phase_names[q->phase]);
	else
		jw_null(w); /* QUINTETO_NONE: unchanged */
	jw_key(w, "quinteto");
	jw_bool(w, q->quinteto);
	jw_key(w, "over");
	jw_bool(w, q->over);
	jw_obj_end(w);
}

static void quinteto_result(struct jw *w, const struct rules_result *r)
{
	static const char *const reasons[] = {
		[RULES_REASON_DUEL] = "duel",           [RULES_REASON_QUINTETO] = "quinteto",
		[RULES_REASON_MAX_TURNS] = "max_turns", [RULES_REASON_RESIGN] = "resign",
		[RULES_REASON_FORFEIT] = "forfeit",
	};

	text_result(w, r, reasons, sizeof(reasons) / sizeof(reasons[0]), true);
}

/* --- reading a view back ------------------------------------------------------ */

/* A seat (or stone, or die) in lo..hi, or null (QUINTETO_NONE) into *out: 0, or -1. */
static int read_or_null(const struct jr_tok *tok, int t, int lo, int hi, uint8_t *out)
{
	long long v;

	if (t >= 0 && tok[t].type == JR_NULL) {
		*out = QUINTETO_NONE;
		return 0;
	}
	if (jr_int(tok, t, lo, hi, &v))
		return -1;
	*out = (uint8_t)v;
	return 0;
}

/* Array token `arr` of exactly n items, each in lo..hi or null, into out[0..n). */
static int read_list(const struct jr_tok *tok, int arr, int n, int lo, int hi, uint8_t *out)
{
	int t;

	if (arr < 0 || tok[arr].type != JR_ARR || tok[arr].n != n)
		return -1;
	t = arr + 1;
	for (int i = 0; i < n; i++, t = tok[t].next)
		if (read_or_null(tok, t, lo, hi, &out[i]))
			return -1;
	return 0;
}

/* One {seat, where, room?} of stone k into s->loc[k]. */
static int read_stone(const char *text, const struct jr_tok *tok, int obj, int k, struct quinteto_state *s)
{
	int where = jr_get(text, tok, obj, "where"), room = jr_get(text, tok, obj, "room");
	long long v;

	if (jr_int(tok, jr_get(text, tok, obj, "seat"), k / 3, k / 3, &v))
		return -1;
	if (jr_streq(text, tok, where, "room")) {
		if (tok[obj].n != 3 || jr_int(tok, room, 0, QUINTETO_ROOMS - 1, &v))
			return -1;
		s->loc[k] = (uint8_t)v;
		return 0;
	}
	for (int loc = QUINTETO_LIMBO; loc <= QUINTETO_OUT; loc++) {
		if (jr_streq(text, tok, where, where_names[loc])) {
			s->loc[k] = (uint8_t)loc;
			return tok[obj].n == 2 ? 0 : -1;
		}
	}
	return -1;
}

static int read_stones(const char *text, const struct jr_tok *tok, int arr, struct quinteto_state *s)
{
	int t;

	if (arr < 0 || tok[arr].type != JR_ARR || tok[arr].n != QUINTETO_STONES)
		return -1;
	t = arr + 1;
	for (int k = 0; k < QUINTETO_STONES; k++, t = tok[t].next)
		if (read_stone(text, tok, t, k, s))
			return -1;
	return 0;
}

static bool alive(const struct quinteto_state *s, int h)
{
	return s->loc[3 * h] <= QUINTETO_LIMBO || s->loc[3 * h + 1] <= QUINTETO_LIMBO;
}

/* The first living hunter at or after seat c (mod 5), with c itself excluded when `after`. */
static uint8_t living_from(const struct quinteto_state *s, int c, bool after)
{
	for (int j = after ? 1 : 0; j <= QUINTETO_HUNTERS; j++)
		if (alive(s, (c + j) % QUINTETO_HUNTERS))
			return (uint8_t)((c + j) % QUINTETO_HUNTERS);
	return QUINTETO_NONE;
}

/*
 * A re-arrangement is due: the hunter who just played is, most likely, the
 * one who captured the eliminated, i.e. whose marker stands just before the
 * gap its victim left in the circle (an arrangement fills slots 1..k, so a
 * gap with a marker after it is this turn's; with none, the gap is after the
 * last marker). The next living hunter after it, in seat order, plays next.
 */
static uint8_t turn_after_elimination(const struct quinteto_state *s)
{
	int last = -1;

	for (int i = 0; i < QUINTETO_HUNTERS; i++) {
		if (s->circle[i] == QUINTETO_NONE)
			continue;
		if (last >= 0 && i > last + 1)
			return living_from(s, s->circle[last], true); /* a gap between markers */
		last = i;
	}
	return last < 0 ? 0 : living_from(s, s->circle[last], true);
}

/*
 * A hunter left during the hunt turn now being played (a resignation while
 * another hunter is on turn) and the turn's end will re-arrange. Seen when
 * the circle has a gap (a re-arrangement fills slots 1..k, leaving none),
 * three or more live, and a hunter that had come through the roll-off (its
 * value stays) is out: one who left in the roll-off, the other cause of a
 * gap, has none, and any earlier elimination has been re-arranged since.
 * A gap in the last slot does not show: then none is assumed.
 */
static bool rearrangement_due(const struct quinteto_state *s)
{
	bool gap = false, rolled_out = false;
	int living = 0;

	for (int i = 0; i < QUINTETO_HUNTERS; i++) {
		gap |= i > 0 && s->circle[i] != QUINTETO_NONE && s->circle[i - 1] == QUINTETO_NONE;
		rolled_out |= s->loc[3 * i + 2] == QUINTETO_OUT && s->rolloff[i];
		living += alive(s, i);
	}
	return s->phase == QUINTETO_PHASE_HUNT && living >= 3 && gap && rolled_out;
}

static int ring_distance(int a, int b)
{
	int d = (a - b + QUINTETO_ROOMS) % QUINTETO_ROOMS;

	return d < QUINTETO_ROOMS - d ? d : QUINTETO_ROOMS - d;
}

/*
 * The arranger's home, once placed: both its stones started there, so the
 * home nearest them in all (a home one of them stands on first on a tie).
 * Right in about half of the duel's positions under random play (README.md).
 */
static uint8_t guess_home(const struct quinteto_state *s)
{
	int best = 2, cost = 4 * QUINTETO_ROOMS;

	for (int side = 0; side < QUINTETO_HUNTERS; side++) {
		int home = 5 * side + 2, c = 1;

		for (int k = 15; k <= 16; k++) {
			if (s->loc[k] < QUINTETO_ROOMS)
				c += 2 * ring_distance(s->loc[k], home);
			if (s->loc[k] == home)
				c--;
		}
		if (c < cost)
			cost = c, best = home;
	}
	return (uint8_t)best;
}

/* Tokens a (of text ta) and b (of tb) hold the same JSON value: the same tokens in the same order. */
static bool same_value(const char *ta, const struct jr_tok *a, int i, const char *tb, const struct jr_tok *b,
		       int j)
{
	if (a[i].next - i != b[j].next - j)
		return false;
	for (int n = a[i].next - i; n > 0; n--, i++, j++) {
		if (a[i].type != b[j].type || a[i].n != b[j].n || a[i].i != b[j].i ||
		    a[i].escaped != b[j].escaped)
			return false;
		if (a[i].type == JR_STR &&
		    (a[i].end - a[i].start != b[j].end - b[j].start ||
		     memcmp(ta + a[i].start, tb + b[j].start, (size_t)(a[i].end - a[i].start)) != 0))
			return false;
	}
	return true;
}

#define LEGAL_CAP 64 /* a duel's plans stay under 60 (README.md "Actions") */

/* m's legal list for `seat` is the array token `legal` of `text`, action by action. */
static bool legal_is(const struct rules_match *m, int seat, const char *text, const struct jr_tok *tok,
		     int legal)
{
	struct rules_action acts[LEGAL_CAP];
	struct jr_tok mine[32];
	char buf[256];
	int n = rules_legal_actions(m, seat, acts, LEGAL_CAP), t = legal + 1;
	struct jw w;

	if (n > LEGAL_CAP || n != tok[legal].n)
		return false;
	for (int i = 0; i < n; i++, t = tok[t].next) {
		jw_init(&w, buf, sizeof(buf));
		quinteto_action(&w, &acts[i]);
		if (w.full || jr_parse(buf, w.len, mine, 32) < 0 || !same_value(buf, mine, 0, text, tok, t))
			return false;
	}
	return true;
}

/*
 * The arranger to act in the duel: where its stone leaves limbo decides what
 * that landing captures, hence which kills a plan still has; so its legal
 * list can tell its home. The guess stays unless another home matches.
 */
static void home_from_legal(struct rules_match *m, const char *text, const struct jr_tok *tok, int legal)
{
	struct quinteto_state *s = &m->s.quinteto;
	uint8_t guess = s->home;

	if (legal < 0 || tok[legal].type != JR_ARR || legal_is(m, QUINTETO_ARRANGER, text, tok, legal))
		return;
	for (int side = 0; side < QUINTETO_HUNTERS; side++) {
		s->home = (uint8_t)(5 * side + 2);
		if (s->home != guess && legal_is(m, QUINTETO_ARRANGER, text, tok, legal))
			return;
	}
	s->home = guess;
}

/* The match is over: why, as far as the view tells (its `result` says for sure). */
static void guess_end(struct quinteto_state *s, int32_t max_turns)
{
	uint8_t sv = s->survivor;

	s->over = 1;
	s->winner = -1;
	s->draw = 1;
	s->reason = RULES_REASON_RESIGN;
	if (sv != QUINTETO_NONE && s->loc[15] == QUINTETO_OUT && s->loc[16] == QUINTETO_OUT)
		s->winner = (int8_t)sv, s->reason = RULES_REASON_DUEL;
	else if (sv != QUINTETO_NONE && s->loc[3 * sv] == QUINTETO_OUT && s->loc[3 * sv + 1] == QUINTETO_OUT)
		s->winner = QUINTETO_ARRANGER, s->reason = RULES_REASON_DUEL;
	else if (sv != QUINTETO_NONE && s->rolled && s->dice[0] == 5 && s->dice[1] == 5)
		s->winner = QUINTETO_ARRANGER, s->reason = RULES_REASON_QUINTETO;
	else if (s->turns >= (uint32_t)max_turns)
		s->reason = RULES_REASON_MAX_TURNS;
	else if (sv != QUINTETO_NONE)
		s->winner = QUINTETO_ARRANGER; /* the survivor resigned (or the arranger did: either) */
	s->draw = s->winner < 0;
	if (s->winner >= 0)
		s->turn = (uint8_t)s->winner;
}

/* Whose turn it is (hunt, duel), or who is next after a re-arrangement; the rest as the rules leave it. */
static void read_turn(struct quinteto_state *s, const uint8_t *to_act, int nto_act)
{
	switch (s->phase) {
	case QUINTETO_PHASE_HUNT:
	case QUINTETO_PHASE_DUEL:
		s->turn = nto_act > 0 ? to_act[0] : 0;
		break;
	case QUINTETO_PHASE_ARRANGE:
		s->turn = s->arranged ? turn_after_elimination(s) : living_from(s, 0, false);
		break;
	case QUINTETO_PHASE_PLACE:
		s->turn = s->survivor; /* it played last, most likely capturing the last victim */
		break;
	default:
		s->turn = 0;
	}
	if (s->turn == QUINTETO_NONE)
		s->turn = 0;
}

/* The view's scalar keys: phase, dice, turns. */
static int read_top(struct quinteto_state *s, const char *text, const struct jr_tok *tok, int view)
{
	int d = jr_get(text, tok, view, "dice"), p = jr_get(text, tok, view, "phase");
	long long v;

	if (d < 0)
		return -1;
	s->phase = QUINTETO_NONE;
	for (int i = 0; i < NPHASES; i++)
		if (jr_streq(text, tok, p, phase_names[i]))
			s->phase = (uint8_t)i;
	if (s->phase == QUINTETO_NONE || jr_int(tok, jr_get(text, tok, view, "turns"), 0, UINT32_MAX, &v))
		return -1;
	s->turns = (uint32_t)v;
	s->rolled = tok[d].type == JR_ARR;
	if (s->rolled)
		return read_list(tok, d, 2, 1, 6, s->dice);
	return tok[d].type == JR_NULL ? 0 : -1;
}

/*
 * The view shows the stones, the circle, the roll-off values, the dice and
 * the turn count; the survivor is the arranger's victim; whose turn it is
 * comes from to_act. The rest is derived, or guessed (README.md, "Read back
 * from a view"); the rebuilt victims must be the view's.
 */
static int quinteto_view_read(struct rules_match *m, const char *text, const struct jr_tok *tok, int view,
			      int legal, const uint8_t *to_act, int nto_act)
{
	struct quinteto_state *s = &m->s.quinteto;
	uint8_t victim[RULES_MAX_SEATS], roll[QUINTETO_HUNTERS];
	int32_t max = m->options.max_turns ? m->options.max_turns : QUINTETO_MAX_TURNS_DEFAULT;

	memset(s, 0, sizeof(*s));
	if (read_top(s, text, tok, view) ||
	    read_list(tok, jr_get(text, tok, view, "circle"), QUINTETO_HUNTERS, 0, QUINTETO_HUNTERS - 1,
		      s->circle) ||
	    read_stones(text, tok, jr_get(text, tok, view, "stones"), s) ||
	    read_list(tok, jr_get(text, tok, view, "victim"), RULES_MAX_SEATS, 0, QUINTETO_ARRANGER,
		      victim) ||
	    read_list(tok, jr_get(text, tok, view, "rolloff"), QUINTETO_HUNTERS, 1, 6, roll))
		return -1;
	m->out = 0;
	for (int h = 0; h < QUINTETO_HUNTERS; h++) {
		s->rolloff[h] = roll[h] == QUINTETO_NONE ? 0 : roll[h];
		if (s->circle[h] != QUINTETO_NONE)
			s->arranged = 1;
		if (s->loc[3 * h + 2] == QUINTETO_OUT)
			m->out |= (uint8_t)(1u << h); /* eliminated: out of play */
		else if (s->phase == QUINTETO_PHASE_ROLLOFF && alive(s, h))
			s->contenders |= (uint8_t)(1u << h); /* as in the first round */
	}
	s->survivor = victim[QUINTETO_ARRANGER];
	if (s->survivor == QUINTETO_ARRANGER)
		return -1;
	s->home = QUINTETO_NONE;
	if (s->survivor != QUINTETO_NONE && s->phase != QUINTETO_PHASE_PLACE &&
	    (s->loc[15] != QUINTETO_RESERVE || s->loc[16] != QUINTETO_RESERVE))
		s->home = guess_home(s);
	s->winner = -1;
	s->eliminated = rearrangement_due(s);
	read_turn(s, to_act, nto_act);
	if (s->phase == QUINTETO_PHASE_OVER)
		guess_end(s, max);
	if (s->phase == QUINTETO_PHASE_DUEL && s->home != QUINTETO_NONE && nto_act > 0 &&
	    to_act[0] == QUINTETO_ARRANGER)
		home_from_legal(m, text, tok, legal);
	for (int seat = 0; seat < RULES_MAX_SEATS; seat++)
		if (quinteto_victim(s, seat) != victim[seat])
			return -1;
	return 0;
}

const struct text_game text_game_quinteto = {
	.id = "quinteto",
	.view = quinteto_view,
	.action = quinteto_action,
	.outcome = quinteto_outcome,
	.result = quinteto_result,
	.view_read = quinteto_view_read,
};
