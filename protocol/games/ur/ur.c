/*
 * ur.c: the Royal Game of Ur (protocol/games/ur/README.md). A turn is a throw (an action
 * whose dice come from the match's stream), then at most one action with its
 * value, then maybe a rosette bonus entry. Squares are per-seat route
 * indexes; captures compare CELLS (Dark's square t is Light's with the outer
 * rows L and K swapped) and directions (up on 1..13, down from 14). Unusable
 * throws are lost by the core itself, keeping the turn on a 4 or 5.
 * Invariants: each seat's pos[] is sorted ascending with values 0..24; apply
 * checks the action against the legal list before changing anything. Pure:
 * no I/O, no allocation.
 */
#include <assert.h>
#include <string.h>

#include "rules.h"

#define UR_MAX_LEGAL 16 /* enter + 7 moves + bear off, with room to spare */

enum { COL_L = 0, COL_M = 1, COL_K = 2 };
#define CELL(col, row) ((uint8_t)((col)*8 + (row)-1))

/* Light's route D1: square -> cell (index 0 unused), four squares a row. */
/* clang-format off */
static const uint8_t light_cells[UR_SQUARES + 1] = {
	0,
	CELL(COL_L, 4), CELL(COL_L, 3), CELL(COL_L, 2), CELL(COL_L, 1), /* 1..4 */
	CELL(COL_M, 1), CELL(COL_M, 2), CELL(COL_M, 3), CELL(COL_M, 4), /* 5..8 */
	CELL(COL_M, 5), CELL(COL_M, 6), CELL(COL_M, 7), CELL(COL_K, 7), /* 9..12 */
	CELL(COL_K, 8), CELL(COL_M, 8), CELL(COL_L, 8), CELL(COL_L, 7), /* 13..16 */
	CELL(COL_M, 7), CELL(COL_M, 6), CELL(COL_M, 5), CELL(COL_M, 4), /* 17..20 */
	CELL(COL_M, 3), CELL(COL_M, 2), CELL(COL_M, 1),                 /* 21..23 */
};
/* clang-format on */

static const char *const ur_roles[] = { "light", "dark" };

/* The cell of `seat`'s square `sq` (1..23). */
static uint8_t square_cell(int seat, int sq)
{
	uint8_t c = light_cells[sq];
	int col = c / 8;

	if (seat == 1 && col != COL_M)
		c = (uint8_t)((COL_L + COL_K - col) * 8 + c % 8);
	return c;
}

static bool cell_rosette(uint8_t c)
{
	return c == CELL(COL_L, 1) || c == CELL(COL_K, 1) || c == CELL(COL_M, 4) || c == CELL(COL_L, 7) ||
	       c == CELL(COL_K, 7);
}

/* D4: rosettes and M1 are safe. */
static bool cell_safe(uint8_t c)
{
	return cell_rosette(c) || c == CELL(COL_M, 1);
}

/* true = travelling down (flipped); squares 14..23. */
static bool square_down(int sq)
{
	return sq >= 14;
}

static void pieces_sort(uint8_t p[UR_PIECES])
{
	for (int i = 1; i < UR_PIECES; i++) {
		uint8_t v = p[i];
		int j = i;

		for (; j > 0 && p[j - 1] > v; j--)
			p[j] = p[j - 1];
		p[j] = v;
	}
}

static int pieces_count(const uint8_t p[UR_PIECES], uint8_t at)
{
	int n = 0;

	for (int i = 0; i < UR_PIECES; i++)
		n += p[i] == at;
	return n;
}

/* Moves one piece of `seat` from `from` to `to` (one must be there). */
static void piece_move(struct ur_state *s, int seat, uint8_t from, uint8_t to)
{
	for (int i = 0; i < UR_PIECES; i++) {
		if (s->pos[seat][i] == from) {
			s->pos[seat][i] = to;
			pieces_sort(s->pos[seat]);
			return;
		}
	}
	assert(0 && "no piece on the square");
}

static void action_push(struct rules_action *out, int *n, uint8_t kind, int16_t arg)
{
	memset(&out[*n], 0, sizeof(out[*n]));
	out[*n].kind = kind;
	out[*n].arg[0] = arg;
	(*n)++;
}

/* The actions a throw of `v` allows `seat` (D2); each distinct one once. */
static int throw_actions(const struct ur_state *s, int seat, int v, struct rules_action *out)
{
	const uint8_t *p = s->pos[seat];
	int n = 0;

	if ((v == 1 || v == 5) && p[0] == UR_HOME)
		action_push(out, &n, UR_ACT_ENTER, (int16_t)v);
	for (int i = 0; v >= 1 && i < UR_PIECES; i++) {
		if (p[i] < 1 || p[i] + v > UR_EXIT || (i > 0 && p[i - 1] == p[i]))
			continue;
		action_push(out, &n, UR_ACT_MOVE, p[i]);
	}
	if (v == 4 && pieces_count(p, UR_EXIT) > 0)
		action_push(out, &n, UR_ACT_BEAR_OFF, 0);
	return n;
}

/* The full legal list of `seat` in the current phase. */
static int state_legal(const struct ur_state *s, int seat, struct rules_action *out)
{
	int n = 0;

	if (s->over || seat != s->turn)
		return 0;
	switch (s->phase) {
	case UR_PHASE_ROLL:
		action_push(out, &n, UR_ACT_ROLL, 0);
		return n;
	case UR_PHASE_MOVE:
		return throw_actions(s, seat, s->value, out);
	case UR_PHASE_BONUS:
		action_push(out, &n, UR_ACT_ENTER, 1);
		action_push(out, &n, UR_ACT_SKIP, 0);
		return n;
	}
	return 0;
}

/* The turn's last step: throw again after a 4 or 5, else hand over. */
static void turn_end(struct ur_state *s)
{
	s->phase = UR_PHASE_ROLL;
	if (!s->again)
		s->turn ^= 1;
}

/* Sends back every opponent piece on the landing cell going the same way. */
static void square_land(struct ur_state *s, int seat, int sq, struct ur_outcome *o)
{
	uint8_t c = square_cell(seat, sq);
	uint8_t *opp = s->pos[seat ^ 1];

	if (cell_safe(c))
		return;
	for (int i = 0; i < UR_PIECES; i++) {
		int t = opp[i];

		if (t < 1 || t > UR_EXIT || square_cell(seat ^ 1, t) != c ||
		    square_down(t) != square_down(sq))
			continue;
		o->captured_from[o->captured++] = (uint8_t)t;
		opp[i] = UR_HOME;
	}
	pieces_sort(opp);
}

/* After an enter or move: offer the bonus (D5) or end the turn. */
static void piece_arrive(struct ur_state *s, int seat, uint8_t from, uint8_t to, struct ur_outcome *o)
{
	bool bonus_step = s->phase == UR_PHASE_BONUS;

	piece_move(s, seat, from, to);
	square_land(s, seat, to, o);
	if (!bonus_step && cell_rosette(square_cell(seat, to)) && s->pos[seat][0] == UR_HOME) {
		s->phase = UR_PHASE_BONUS;
		o->bonus = 1;
		return;
	}
	turn_end(s);
}

/* Value of a throw by marked corners up: 0 -> 4, 1 -> 0, 2 -> 1, 3 -> 5. */
static uint8_t throw_value(int marked)
{
	static const uint8_t values[UR_DICE + 1] = { 4, 0, 1, 5 };

	return values[marked];
}

static void act_roll(struct rules_match *m, int seat, const struct rules_action *a, struct ur_outcome *o)
{
	struct ur_state *s = &m->s.ur;
	struct rules_action tmp[UR_MAX_LEGAL];
	int marked = 0;

	(void)a;

	for (int i = 0; i < UR_DICE; i++) {
		s->dice[i] = rules_dice_tetra(&m->dice);
		marked += s->dice[i];
	}
	s->value = throw_value(marked);
	s->has_throw = 1;
	s->again = s->value >= 4;
	memcpy(o->dice, s->dice, sizeof(o->dice));
	o->value = s->value;
	o->again = s->again;
	if (throw_actions(s, seat, s->value, tmp) == 0) {
		o->lost = 1;
		turn_end(s);
		return;
	}
	s->phase = UR_PHASE_MOVE;
}

static void act_enter(struct rules_match *m, int seat, const struct rules_action *a, struct ur_outcome *o)
{
	piece_arrive(&m->s.ur, seat, UR_HOME, (uint8_t)a->arg[0], o);
}

static void act_move(struct rules_match *m, int seat, const struct rules_action *a, struct ur_outcome *o)
{
	struct ur_state *s = &m->s.ur;
	uint8_t from = (uint8_t)a->arg[0];

	piece_arrive(s, seat, from, (uint8_t)(from + s->value), o);
}

/* D3: every piece on 23 leaves at once; seven off wins the race. */
static void act_bear_off(struct rules_match *m, int seat, const struct rules_action *a, struct ur_outcome *o)
{
	struct ur_state *s = &m->s.ur;
	uint8_t *p = s->pos[seat];

	(void)a;
	for (int i = 0; i < UR_PIECES; i++) {
		if (p[i] == UR_EXIT) {
			p[i] = UR_OFF;
			o->borne_off++;
		}
	}
	if (pieces_count(p, UR_OFF) == UR_PIECES) {
		s->over = 1;
		s->winner = (int8_t)seat;
		s->reason = RULES_REASON_RACE;
		s->phase = UR_PHASE_ROLL;
		o->won = 1;
		return;
	}
	turn_end(s);
}

static void act_skip(struct rules_match *m, int seat, const struct rules_action *a, struct ur_outcome *o)
{
	(void)seat, (void)a, (void)o;
	turn_end(&m->s.ur);
}

typedef void ur_act_fn(struct rules_match *m, int seat, const struct rules_action *a, struct ur_outcome *o);

static ur_act_fn *const ur_handlers[] = {
	[UR_ACT_ROLL] = act_roll,         [UR_ACT_ENTER] = act_enter, [UR_ACT_MOVE] = act_move,
	[UR_ACT_BEAR_OFF] = act_bear_off, [UR_ACT_SKIP] = act_skip,
};

static int ur_start(struct rules_match *m)
{
	struct ur_state *s = &m->s.ur;

	if (m->options.max_turns != 0)
		return RULES_E_BAD_OPTIONS;
	memset(s, 0, sizeof(*s));
	s->winner = -1;
	return RULES_OK;
}

static int ur_to_act(const struct rules_match *m, uint8_t out[RULES_MAX_SEATS])
{
	if (m->s.ur.over)
		return 0;
	out[0] = m->s.ur.turn;
	return 1;
}

/* The true count; the first `cap` are written (rules.h). */
static int ur_legal(const struct rules_match *m, int seat, struct rules_action *out, int cap)
{
	struct rules_action all[UR_MAX_LEGAL];
	int n = state_legal(&m->s.ur, seat, all);

	if (n > 0 && cap > 0)
		memcpy(out, all, (size_t)(n < cap ? n : cap) * sizeof(all[0]));
	return n;
}

/* Only an action in the legal list gets to a handler; nothing changes before. */
static int ur_apply(struct rules_match *m, int seat, const struct rules_action *a,
		    union rules_outcome *outcome)
{
	struct rules_action all[UR_MAX_LEGAL];
	int n = state_legal(&m->s.ur, seat, all);

	for (int i = 0; i < n; i++) {
		if (rules_action_equal(&all[i], a)) {
			outcome->ur.kind = a->kind;
			ur_handlers[a->kind](m, seat, a, &outcome->ur);
			return RULES_OK;
		}
	}
	return RULES_E_ILLEGAL;
}

/* Two seats: whoever resigns or forfeits, the other seat wins. */
static int ur_event(struct rules_match *m, int seat, int kind, union rules_outcome *outcome)
{
	struct ur_state *s = &m->s.ur;

	(void)outcome; /* zeroed by rules_event: kind 0 marks an event */
	s->over = 1;
	s->winner = (int8_t)(seat ^ 1);
	s->reason = kind == RULES_EVENT_FORFEIT ? RULES_REASON_FORFEIT : RULES_REASON_RESIGN;
	s->phase = UR_PHASE_ROLL;
	return RULES_OK;
}

static void ur_result(const struct rules_match *m, struct rules_result *out)
{
	const struct ur_state *s = &m->s.ur;

	out->over = s->over;
	out->draw = false;
	out->winner = s->over ? s->winner : -1;
	out->reason = s->over ? s->reason : RULES_REASON_NONE;
}

/* The Ur rules for the registry. */
const struct rules_game rules_game_ur = {
	.id = "ur",
	.name = "Royal Game of Ur",
	.seats = 2,
	.roles = ur_roles,
	.dice = true,
	.start = ur_start,
	.to_act = ur_to_act,
	.legal = ur_legal,
	.apply = ur_apply,
	.event = ur_event,
	.result = ur_result,
};
