/*
 * laquet.c: Laquet (protocol/games/laquet/README.md). A turn is: maybe a bonus (the dice the
 * opponent's plan left unused, played or declined before rolling), a roll
 * (an action whose dice come from the match's stream), then one plan of one
 * or two single-die steps. Both colours run the same track of route indexes
 * 1..18, so a point is blocked for a seat exactly when the other seat has a
 * man on it; men are never hit. Positions are read as bit masks of the
 * routes each seat occupies, which keeps the step test a few instructions
 * (the benchmark plays tens of thousands of matches a second). When a roll
 * leaves nothing to play the core hands both dice over by itself.
 * Invariants: each seat has 15 men on routes 1..19; no route 1..18 holds men
 * of both seats; apply checks the action as the legal list would (same
 * shape, same steps, same maximum and larger-die rule) before changing
 * anything. Pure: no I/O, no allocation.
 */
#include <string.h>

#include "rules.h"

#define LOW_MASK 0x1ffeu /* routes 1..12: a man there forbids bearing off */

static const char *const laquet_roles[] = { "white", "black" };

/* Routes 1..18 where `seat` has men, as bits 1..18. */
static uint32_t men_mask(const struct laquet_state *s, int seat)
{
	uint32_t m = 0;

	for (int r = 1; r <= LAQUET_POINTS; r++)
		m |= (uint32_t)(s->men[seat][r] != 0) << r;
	return m;
}

static int lowest(uint32_t own)
{
	return __builtin_ctz(own);
}

/*
 * The routes from which die `d` moves a man, given the routes the mover
 * (`own`) and the opponent (`opp`) hold: it may land on any point the
 * opponent does not hold; past route 18 only when every man on the board is
 * in quadrant III, exactly on the rail, or further with the farthest man.
 * Bit arithmetic: bit r of opp >> d is the route r + d.
 */
static uint32_t steps_from(uint32_t own, uint32_t opp, int d)
{
	uint32_t m = own & ~(opp >> d) & ((1u << (LAQUET_OFF - d)) - 1u);

	if (own && !(own & LOW_MASK)) {
		int far = lowest(own);

		m |= own & (1u << (LAQUET_OFF - d));
		if (far + d > LAQUET_OFF)
			m |= 1u << far;
	}
	return m;
}

static bool step_ok(uint32_t own, uint32_t opp, int from, int d)
{
	return steps_from(own, opp, d) >> from & 1u;
}

/* `own` after one man of `men[from]` went to `to` (the rail sets no bit). */
static uint32_t mask_after(uint32_t own, const uint8_t men[LAQUET_OFF + 1], int from, int to)
{
	if (men[from] == 1)
		own &= ~(1u << from);
	if (to <= LAQUET_POINTS)
		own |= 1u << to;
	return own;
}

static void push(struct rules_action *out, int cap, int *n, uint8_t kind, int ns, int f1, int d1, int f2,
		 int d2)
{
	if (*n < cap) {
		struct rules_action *a = &out[*n];

		memset(a, 0, sizeof(*a));
		a->kind = kind;
		a->arg[0] = (int16_t)ns;
		a->arg[1] = (int16_t)f1;
		a->arg[2] = (int16_t)d1;
		a->arg[3] = (int16_t)f2;
		a->arg[4] = (int16_t)d2;
	}
	(*n)++;
}

/* True if some single die of vals[0..n) moves a man of `seat`. */
static bool any_step(const struct laquet_state *s, int seat, const uint8_t *vals, int n)
{
	uint32_t own = men_mask(s, seat), opp = men_mask(s, seat ^ 1);

	for (int i = 0; i < n; i++)
		if (steps_from(own, opp, vals[i]))
			return true;
	return false;
}

/*
 * Appends (writing while *n < cap) every two-step sequence of `seat` with
 * die indexes i then 1 - i of vals[2], in the order die, first route,
 * second route; with `first_only` it stops at the first one. Returns true
 * if there is at least one.
 */
static bool two_steps(const struct laquet_state *s, int seat, const uint8_t vals[2], uint8_t kind,
		      struct rules_action *out, int cap, int *n, bool first_only)
{
	const uint8_t *men = s->men[seat];
	uint32_t own = men_mask(s, seat), opp = men_mask(s, seat ^ 1);
	bool found = false;

	for (int i = 0; i < 2; i++) {
		for (uint32_t b = steps_from(own, opp, vals[i]); b; b &= b - 1) {
			int f = lowest(b);
			uint32_t own2 = mask_after(own, men, f, f + vals[i]);
			uint32_t c = steps_from(own2, opp, vals[1 - i]);

			if (c && first_only)
				return true;
			found |= c != 0;
			for (; c; c &= c - 1)
				push(out, cap, n, kind, 2, f, i, lowest(c), 1 - i);
		}
	}
	return found;
}

/* The die indexes (a bit set) a one-step plan may use: D2, the larger die when it can be played. */
static unsigned single_dice(const struct laquet_state *s, int seat)
{
	unsigned can = 0;

	for (int i = 0; i < 2; i++)
		can |= (unsigned)any_step(s, seat, &s->dice[i], 1) << i;
	if (can == 3 && s->dice[0] != s->dice[1])
		can = s->dice[0] > s->dice[1] ? 1u : 2u;
	return can;
}

/* Appends the one-step sequences of `seat` with the die indexes in `dice` (a bit set) of vals[]. */
static void one_steps(const struct laquet_state *s, int seat, const uint8_t *vals, unsigned dice,
		      uint8_t kind, struct rules_action *out, int cap, int *n)
{
	uint32_t own = men_mask(s, seat), opp = men_mask(s, seat ^ 1);

	for (int i = 0; i < 2; i++) {
		if (!(dice >> i & 1u))
			continue;
		for (uint32_t b = steps_from(own, opp, vals[i]); b; b &= b - 1)
			push(out, cap, n, kind, 1, lowest(b), i, 0, 0);
	}
}

/* The legal list of `seat` now: the true count, the first `cap` written. */
static int state_legal(const struct laquet_state *s, int seat, struct rules_action *out, int cap)
{
	int n = 0;

	if (s->over || seat != s->turn)
		return 0;
	switch (s->phase) {
	case LAQUET_PHASE_ROLL:
		push(out, cap, &n, LAQUET_ACT_ROLL, 0, 0, 0, 0, 0);
		break;
	case LAQUET_PHASE_PLAN:
		/* D2: both dice whenever some plan uses both. */
		if (!two_steps(s, seat, s->dice, LAQUET_ACT_PLAN, out, cap, &n, false))
			one_steps(s, seat, s->dice, single_dice(s, seat), LAQUET_ACT_PLAN, out, cap, &n);
		break;
	case LAQUET_PHASE_BONUS:
		/* D3: any subset of the handed dice, in any order, or none. */
		push(out, cap, &n, LAQUET_ACT_BONUS, 0, 0, 0, 0, 0);
		one_steps(s, seat, s->handed, (1u << s->nhanded) - 1, LAQUET_ACT_BONUS, out, cap, &n);
		if (s->nhanded == 2)
			two_steps(s, seat, s->handed, LAQUET_ACT_BONUS, out, cap, &n, false);
		break;
	}
	return n;
}

/*
 * True if `a` is in the legal list of `seat`, decided without building the
 * list: the bytes of the form (step count, die indexes in range and
 * distinct, unused slots 0), each step legal after the ones before it, and
 * for a one-step plan, no two-step plan and the die D2 allows.
 */
static bool action_legal(const struct laquet_state *s, int seat, const struct rules_action *a)
{
	static const uint8_t want[] = { [LAQUET_PHASE_ROLL] = LAQUET_ACT_ROLL,
					[LAQUET_PHASE_PLAN] = LAQUET_ACT_PLAN,
					[LAQUET_PHASE_BONUS] = LAQUET_ACT_BONUS };
	const uint8_t *vals = a->kind == LAQUET_ACT_PLAN ? s->dice : s->handed;
	int ndice = a->kind == LAQUET_ACT_PLAN ? 2 : s->nhanded;
	int ns = a->arg[0], lo = a->kind == LAQUET_ACT_PLAN ? 1 : 0;
	uint32_t own, opp;

	if (s->over || seat != s->turn || s->phase > LAQUET_PHASE_BONUS || a->kind != want[s->phase] ||
	    a->pad != 0)
		return false;
	if (a->kind == LAQUET_ACT_ROLL)
		ns = 0, lo = 0, ndice = 0;
	if (ns < lo || ns > LAQUET_MAX_STEP || ns > ndice || (ns == 2 && a->arg[2] == a->arg[4]))
		return false;
	for (int k = 1 + 2 * ns; k < RULES_ACTION_ARGS; k++)
		if (a->arg[k] != 0)
			return false;
	if (a->kind == LAQUET_ACT_ROLL)
		return a->arg[0] == 0;
	own = men_mask(s, seat);
	opp = men_mask(s, seat ^ 1);
	for (int k = 0; k < ns; k++) {
		int from = a->arg[1 + 2 * k], die = a->arg[2 + 2 * k];

		if (from < 1 || from > LAQUET_POINTS || die < 0 || die >= ndice ||
		    !step_ok(own, opp, from, vals[die]))
			return false;
		/* A second step from the same route needs a second man there. */
		own = mask_after(own, s->men[seat], from, from + vals[die]);
	}
	if (a->kind == LAQUET_ACT_PLAN && ns == 1) {
		int n = 0;

		return !two_steps(s, seat, s->dice, LAQUET_ACT_PLAN, NULL, 0, &n, true) &&
		       (single_dice(s, seat) >> a->arg[2] & 1u);
	}
	return true;
}

/* Moves one man of `seat` by one step; returns the route it reached (19 = off). */
static int man_move(struct laquet_state *s, int seat, int from, int d)
{
	int to = from + d > LAQUET_POINTS ? LAQUET_OFF : from + d;

	s->men[seat][from]--;
	s->men[seat][to]++;
	return to;
}

/*
 * Hands the turn to `next` with the dice vals[0..n) the last plan left
 * unused (D3): the bonus phase when at least one of them moves a man of
 * `next`, else they are lost and `next` rolls.
 */
static void turn_to(struct laquet_state *s, int next, const uint8_t *vals, int n, struct laquet_outcome *o)
{
	s->turn = (uint8_t)next;
	s->dice[0] = s->dice[1] = 0;
	s->nhanded = 0;
	s->handed[0] = s->handed[1] = 0;
	memcpy(o->handed, vals, (size_t)n);
	o->nhanded = (uint8_t)n;
	if (n > 0 && any_step(s, next, vals, n)) {
		memcpy(s->handed, vals, (size_t)n);
		s->nhanded = (uint8_t)n;
		s->phase = LAQUET_PHASE_BONUS;
		o->bonus = 1;
		return;
	}
	s->phase = LAQUET_PHASE_ROLL;
}

static void act_roll(struct rules_match *m, int seat, const struct rules_action *a, struct laquet_outcome *o)
{
	struct laquet_state *s = &m->s.laquet;
	uint8_t d[LAQUET_DICE];

	(void)a;
	d[0] = (uint8_t)rules_dice_d6(&m->dice);
	d[1] = (uint8_t)rules_dice_d6(&m->dice);
	memcpy(o->dice, d, sizeof(d));
	if (!any_step(s, seat, d, LAQUET_DICE)) {
		/* Nothing to play: the core passes and both dice go over. */
		o->passed = 1;
		turn_to(s, seat ^ 1, d, LAQUET_DICE, o);
		return;
	}
	memcpy(s->dice, d, sizeof(d));
	s->phase = LAQUET_PHASE_PLAN;
}

/* Plays the steps of a plan or bonus; true if they bore off the fifteenth man. */
static bool steps_play(struct laquet_state *s, int seat, const struct rules_action *a, const uint8_t *vals,
		       struct laquet_outcome *o)
{
	for (int k = 0; k < a->arg[0]; k++) {
		int from = a->arg[1 + 2 * k], d = vals[a->arg[2 + 2 * k]];
		int to = man_move(s, seat, from, d);

		o->moves[k] = (struct laquet_move){ (uint8_t)from, (uint8_t)to, (uint8_t)d };
		o->borne_off += to == LAQUET_OFF;
	}
	o->nmoves = (uint8_t)a->arg[0];
	if (s->men[seat][LAQUET_OFF] < LAQUET_MEN)
		return false;
	s->over = 1;
	s->winner = (int8_t)seat;
	s->reason = RULES_REASON_RACE;
	s->phase = LAQUET_PHASE_ROLL;
	s->dice[0] = s->dice[1] = 0;
	s->nhanded = 0;
	s->handed[0] = s->handed[1] = 0;
	o->won = 1;
	return true;
}

static void act_plan(struct rules_match *m, int seat, const struct rules_action *a, struct laquet_outcome *o)
{
	struct laquet_state *s = &m->s.laquet;
	uint8_t left[LAQUET_DICE];
	int nleft = 0;

	if (steps_play(s, seat, a, s->dice, o))
		return;
	/* D3: the die a one-step plan leaves is handed over. */
	if (a->arg[0] == 1)
		left[nleft++] = s->dice[1 - a->arg[2]];
	turn_to(s, seat ^ 1, left, nleft, o);
}

static void act_bonus(struct rules_match *m, int seat, const struct rules_action *a, struct laquet_outcome *o)
{
	struct laquet_state *s = &m->s.laquet;

	if (steps_play(s, seat, a, s->handed, o))
		return;
	/* Handed dice not played are lost; the seat now rolls. */
	s->nhanded = 0;
	s->handed[0] = s->handed[1] = 0;
	s->phase = LAQUET_PHASE_ROLL;
}

typedef void laquet_act_fn(struct rules_match *m, int seat, const struct rules_action *a,
			   struct laquet_outcome *o);

static laquet_act_fn *const laquet_handlers[] = {
	[LAQUET_ACT_ROLL] = act_roll,
	[LAQUET_ACT_PLAN] = act_plan,
	[LAQUET_ACT_BONUS] = act_bonus,
};

/* The setup: White 2 on 1, 3 on each of 2..5, 1 on 18; Black 14 on 6, 1 on 7. */
static int laquet_start(struct rules_match *m)
{
	struct laquet_state *s = &m->s.laquet;

	if (m->options.max_turns != 0)
		return RULES_E_BAD_OPTIONS;
	memset(s, 0, sizeof(*s));
	s->men[0][1] = 2;
	for (int r = 2; r <= 5; r++)
		s->men[0][r] = 3;
	s->men[0][18] = 1;
	s->men[1][6] = 14;
	s->men[1][7] = 1;
	s->winner = -1;
	return RULES_OK;
}

static int laquet_to_act(const struct rules_match *m, uint8_t out[RULES_MAX_SEATS])
{
	if (m->s.laquet.over)
		return 0;
	out[0] = m->s.laquet.turn;
	return 1;
}

/* The true count; the first `cap` are written (rules.h). */
static int laquet_legal(const struct rules_match *m, int seat, struct rules_action *out, int cap)
{
	return state_legal(&m->s.laquet, seat, out, cap);
}

/* Only a legal action gets to a handler; nothing changes before. */
static int laquet_apply(struct rules_match *m, int seat, const struct rules_action *a,
			union rules_outcome *outcome)
{
	if (!action_legal(&m->s.laquet, seat, a))
		return RULES_E_ILLEGAL;
	outcome->laquet.kind = a->kind;
	laquet_handlers[a->kind](m, seat, a, &outcome->laquet);
	return RULES_OK;
}

/* Two seats: whoever resigns or forfeits, the other seat wins. */
static int laquet_event(struct rules_match *m, int seat, int kind, union rules_outcome *outcome)
{
	struct laquet_state *s = &m->s.laquet;

	(void)outcome; /* zeroed by rules_event: kind 0 marks an event */
	s->over = 1;
	s->winner = (int8_t)(seat ^ 1);
	s->reason = kind == RULES_EVENT_FORFEIT ? RULES_REASON_FORFEIT : RULES_REASON_RESIGN;
	s->phase = LAQUET_PHASE_ROLL;
	s->dice[0] = s->dice[1] = 0;
	s->nhanded = 0;
	s->handed[0] = s->handed[1] = 0;
	return RULES_OK;
}

static void laquet_result(const struct rules_match *m, struct rules_result *out)
{
	const struct laquet_state *s = &m->s.laquet;

	out->over = s->over;
	out->draw = false;
	out->winner = s->over ? s->winner : -1;
	out->reason = s->over ? s->reason : RULES_REASON_NONE;
}

/* The Laquet rules for the registry. */
const struct rules_game rules_game_laquet = {
	.id = "laquet",
	.name = "Laquet",
	.seats = 2,
	.roles = laquet_roles,
	.dice = true,
	.start = laquet_start,
	.to_act = laquet_to_act,
	.legal = laquet_legal,
	.apply = laquet_apply,
	.event = laquet_event,
	.result = laquet_result,
};
