/*
 * quinteto.c: Quinteto (protocol/games/quinteto/README.md). Phase 1: the arranger sets the
 * killing circle, the hunters roll off (several seats act at once, re-rolls
 * among the tied), then turns of a roll and a plan go clockwise; a landing
 * captures only when every stone in the room is the lander's victim's, and a
 * hunter left with no stone is eliminated at once (the circle closes; the
 * arranger re-arranges after the turn while three or more live). Phase 2:
 * the arranger places two stones on a free home and duels the survivor,
 * with kills on a 5 and Quinteto on 5+5. `max_turns` ends a match drawn.
 * Victims are derived from the circle, never stored.
 * Invariants: the 18 stones are each somewhere (a room, a limbo, the circle,
 * the reserve or out); apply checks the action against the legal list before
 * changing anything, and plan legality is decided by applying each step to a
 * copy of the state, so what is listed is exactly what applies. Pure: no
 * I/O, no allocation.
 */
#include <string.h>

#include "rules.h"

#define HOME(side) ((uint8_t)(5 * (side) + 2))
#define STEP_MAX   16 /* single steps one die allows at once: 2 stones x 3, 2 kills, spare */

static const char *const quinteto_roles[] = { "hunter", "hunter", "hunter", "hunter", "hunter", "arranger" };

/* One step of a plan, as the args of an action carry it. */
struct step {
	int16_t op, die, stone, n;
};

static bool on_ring(uint8_t loc)
{
	return loc < QUINTETO_ROOMS;
}

/* A hunter lives while a stone of its is on the ring or in limbo. */
static bool hunter_alive(const struct quinteto_state *s, int h)
{
	return s->loc[3 * h] <= QUINTETO_LIMBO || s->loc[3 * h + 1] <= QUINTETO_LIMBO;
}

static int living_count(const struct quinteto_state *s)
{
	int n = 0;

	for (int h = 0; h < QUINTETO_HUNTERS; h++)
		n += hunter_alive(s, h);
	return n;
}

static int first_living(const struct quinteto_state *s)
{
	for (int h = 0; h < QUINTETO_HUNTERS; h++)
		if (hunter_alive(s, h))
			return h;
	return QUINTETO_NONE;
}

/* The next living hunter clockwise after seat `c` (which may be dead). */
static uint8_t next_living(const struct quinteto_state *s, int c)
{
	for (int j = 1; j <= QUINTETO_HUNTERS; j++) {
		int h = (c + j) % QUINTETO_HUNTERS;

		if (hunter_alive(s, h))
			return (uint8_t)h;
	}
	return QUINTETO_NONE;
}

/* The seat `seat` hunts, or QUINTETO_NONE (quinteto.h). */
uint8_t quinteto_victim(const struct quinteto_state *s, int seat)
{
	if (s->survivor != QUINTETO_NONE) {
		if (seat == QUINTETO_ARRANGER)
			return s->survivor;
		return seat == s->survivor ? QUINTETO_ARRANGER : QUINTETO_NONE;
	}
	if (seat == QUINTETO_ARRANGER || !s->arranged || !hunter_alive(s, seat))
		return QUINTETO_NONE;
	for (int i = 0; i < QUINTETO_HUNTERS; i++) {
		if (s->circle[i] != seat)
			continue;
		for (int j = 1; j < QUINTETO_HUNTERS; j++) {
			uint8_t v = s->circle[(i + j) % QUINTETO_HUNTERS];

			if (v != QUINTETO_NONE)
				return v;
		}
	}
	return QUINTETO_NONE;
}

/* The home a stone of `seat` exits to. */
static uint8_t home_of(const struct quinteto_state *s, int seat)
{
	return seat == QUINTETO_ARRANGER ? s->home : HOME(seat);
}

/* Outcome lists; `o` may be NULL while legality is being worked out. */
static void note_captured(struct quinteto_outcome *o, int stone)
{
	if (o && o->ncaptured < sizeof(o->captured))
		o->captured[o->ncaptured++] = (uint8_t)stone;
}

static void note_phase(struct quinteto_state *s, struct quinteto_outcome *o, uint8_t phase)
{
	s->phase = phase;
	if (o)
		o->phase = phase;
}

/* Hunter `h` has no stone left (or resigned): its stones and marker leave; the circle closes. */
static void eliminate(struct quinteto_state *s, int h, struct quinteto_outcome *o)
{
	for (int k = 3 * h; k < 3 * h + 3; k++)
		s->loc[k] = QUINTETO_OUT;
	for (int i = 0; i < QUINTETO_HUNTERS; i++)
		if (s->circle[i] == h)
			s->circle[i] = QUINTETO_NONE;
	if (s->phase == QUINTETO_PHASE_ROLLOFF)
		s->rolloff[h] = 0; /* it no longer contends; after the roll-off the values stay visible */
	s->contenders &= (uint8_t) ~(1u << h);
	s->eliminated = 1;
	if (s->ngone < QUINTETO_HUNTERS)
		s->gone[s->ngone++] = (uint8_t)h; /* the standing's order (quinteto_standing) */
	if (o && o->neliminated < QUINTETO_HUNTERS)
		o->eliminated[o->neliminated++] = (uint8_t)h;
}

/* D7: a stone of `stone`'s owner lands in `room`; captures when every other stone there is the victim's. */
static void land(struct quinteto_state *s, int stone, uint8_t room, struct quinteto_outcome *o)
{
	uint8_t victim = quinteto_victim(s, stone / 3);
	bool any = false, all_victim = true;

	for (int k = 0; k < QUINTETO_STONES; k++) {
		if (k == stone || s->loc[k] != room)
			continue;
		any = true;
		all_victim &= k / 3 == victim;
	}
	s->loc[stone] = room;
	if (!any || !all_victim || victim == QUINTETO_NONE)
		return;
	for (int k = 3 * victim; k < 3 * victim + 2; k++) {
		if (s->loc[k] == room) {
			s->loc[k] = QUINTETO_OUT;
			note_captured(o, k);
		}
	}
	if (victim != QUINTETO_ARRANGER && s->survivor == QUINTETO_NONE && !hunter_alive(s, victim))
		eliminate(s, victim, o);
}

/* Applies one step already known to be valid. */
static void step_apply(struct quinteto_state *s, int seat, const struct step *st, struct quinteto_outcome *o)
{
	uint8_t from = s->loc[st->stone];

	switch (st->op) {
	case QUINTETO_OP_MOVE:
		land(s, st->stone, (uint8_t)((from + QUINTETO_ROOMS + st->n) % QUINTETO_ROOMS), o);
		break;
	case QUINTETO_OP_ENTER:
		s->loc[st->stone] = QUINTETO_LIMBO;
		break;
	case QUINTETO_OP_EXIT:
		land(s, st->stone, home_of(s, seat), o);
		break;
	case QUINTETO_OP_KILL:
		s->loc[st->stone] = QUINTETO_OUT;
		if (o)
			o->killed[o->nkilled++] = (uint8_t)st->stone;
		break;
	}
}

/* The seat's two movable stones: 3s, 3s+1 (the arranger: 15, 16). */
static int own_stone(int seat, int j)
{
	return 3 * seat + j;
}

static int push_step(struct step *out, int n, int op, int die, int stone, int steps)
{
	out[n] = (struct step){ (int16_t)op, (int16_t)die, (int16_t)stone, (int16_t)steps };
	return n + 1;
}

/* Every single step die `die` (showing v) allows `seat` in `s`. */
static int die_steps(const struct quinteto_state *s, int seat, int die, int v, struct step *out)
{
	int n = 0;

	for (int j = 0; j < 2; j++) {
		int k = own_stone(seat, j);

		if (on_ring(s->loc[k])) {
			n = push_step(out, n, QUINTETO_OP_MOVE, die, k, v);
			n = push_step(out, n, QUINTETO_OP_MOVE, die, k, -v);
			if (v == 6)
				n = push_step(out, n, QUINTETO_OP_ENTER, die, k, 0);
		} else if (s->loc[k] == QUINTETO_LIMBO) {
			n = push_step(out, n, QUINTETO_OP_EXIT, die, k, 0);
		}
	}
	if (s->phase == QUINTETO_PHASE_DUEL && v == 5) {
		uint8_t opp = quinteto_victim(s, seat);

		for (int j = 0; j < 2; j++)
			if (on_ring(s->loc[own_stone(opp, j)]))
				n = push_step(out, n, QUINTETO_OP_KILL, die, own_stone(opp, j), 0);
	}
	return n;
}

/* Appends a plan of `nsteps` steps to out[] (written only below `cap`); returns the new count. */
static int push_plan(struct rules_action *out, int n, int cap, int nsteps, const struct step *a,
		     const struct step *b)
{
	const struct step *steps[2] = { a, b };

	if (n < cap) {
		struct rules_action *x = &out[n];

		memset(x, 0, sizeof(*x));
		x->kind = QUINTETO_ACT_PLAN;
		x->arg[0] = (int16_t)nsteps;
		for (int j = 0; j < nsteps; j++) {
			x->arg[1 + 4 * j] = steps[j]->op;
			x->arg[2 + 4 * j] = steps[j]->die;
			x->arg[3 + 4 * j] = steps[j]->stone;
			x->arg[4 + 4 * j] = steps[j]->n;
		}
	}
	return n + 1;
}

/* Plans using both dice: sums, then pairs in both orders and both die assignments. */
static int both_dice_plans(const struct quinteto_state *s, int seat, struct rules_action *out, int cap)
{
	int sum = s->dice[0] + s->dice[1], n = 0;
	struct step first[STEP_MAX], second[STEP_MAX];

	for (int j = 0; j < 2; j++) {
		int k = own_stone(seat, j);

		if (!on_ring(s->loc[k]))
			continue;
		for (int dir = 1; dir >= -1; dir -= 2) {
			struct step st = { QUINTETO_OP_MOVE, QUINTETO_DIE_SUM, (int16_t)k,
					   (int16_t)(dir * sum) };

			n = push_plan(out, n, cap, 1, &st, NULL);
		}
	}
	for (int die = 0; die < 2; die++) {
		int n1 = die_steps(s, seat, die, s->dice[die], first), n2 = 0;

		/*
		 * A first step changes only its own stone and what it captures or
		 * kills, so the second die's steps of the other stone are the same
		 * after it; only the duel's kill targets need the step applied.
		 */
		if (s->phase != QUINTETO_PHASE_DUEL)
			n2 = die_steps(s, seat, 1 - die, s->dice[1 - die], second);
		for (int i = 0; i < n1; i++) {
			if (s->phase == QUINTETO_PHASE_DUEL) {
				struct quinteto_state after = *s;

				step_apply(&after, seat, &first[i], NULL);
				n2 = die_steps(&after, seat, 1 - die, s->dice[1 - die], second);
			}
			for (int j = 0; j < n2; j++)
				if (second[j].stone != first[i].stone)
					n = push_plan(out, n, cap, 2, &first[i], &second[j]);
		}
	}
	return n;
}

/*
 * protocol/games/quinteto/README.md phase 1, 3: plans using both dice; a lone enter; and
 * only where no plan uses both dice, a single step with either die.
 */
static int plans(const struct quinteto_state *s, int seat, struct rules_action *out, int cap)
{
	struct step one[STEP_MAX];
	int n = both_dice_plans(s, seat, out, cap), both = n;

	for (int die = 0; die < 2; die++) {
		int k = die_steps(s, seat, die, s->dice[die], one);

		for (int i = 0; i < k; i++)
			if (one[i].op == QUINTETO_OP_ENTER || both == 0)
				n = push_plan(out, n, cap, 1, &one[i], NULL);
	}
	return n;
}

/* Every order of the living hunters (120 with five); Heap's algorithm. */
static int arrangements(const struct quinteto_state *s, struct rules_action *out, int cap)
{
	int16_t seats[QUINTETO_HUNTERS], c[QUINTETO_HUNTERS] = { 0 };
	int k = 0, n = 0, i = 1;

	for (int h = 0; h < QUINTETO_HUNTERS; h++)
		if (hunter_alive(s, h))
			seats[k++] = (int16_t)h;
	for (;;) {
		if (n < cap) {
			memset(&out[n], 0, sizeof(out[n]));
			out[n].kind = QUINTETO_ACT_ARRANGE;
			out[n].arg[0] = (int16_t)k;
			memcpy(&out[n].arg[1], seats, (size_t)k * sizeof(seats[0]));
		}
		n++;
		while (i < k && c[i] >= i) {
			c[i] = 0;
			i++;
		}
		if (i >= k)
			return n;
		int16_t t = seats[i % 2 ? c[i] : 0];
		seats[i % 2 ? c[i] : 0] = seats[i];
		seats[i] = t;
		c[i]++;
		i = 1;
	}
}

/* A side whose home holds no stone on the ring (limbo does not count). */
static bool home_free(const struct quinteto_state *s, int side)
{
	for (int k = 0; k < QUINTETO_STONES; k++)
		if (s->loc[k] == HOME(side))
			return false;
	return true;
}

static int one_action(struct rules_action *out, int n, int cap, uint8_t kind, int arg)
{
	if (n < cap) {
		memset(&out[n], 0, sizeof(out[n]));
		out[n].kind = kind;
		out[n].arg[0] = (int16_t)arg;
	}
	return n + 1;
}

/* True if `seat` is among the seats to act (the wrapper checks too; apply relies on it). */
static bool seat_acts(const struct quinteto_state *s, int seat)
{
	switch (s->phase) {
	case QUINTETO_PHASE_ARRANGE:
	case QUINTETO_PHASE_PLACE:
		return seat == QUINTETO_ARRANGER;
	case QUINTETO_PHASE_ROLLOFF:
		return seat < QUINTETO_HUNTERS && (s->contenders & (1u << seat)) && !s->rolloff[seat];
	case QUINTETO_PHASE_HUNT:
	case QUINTETO_PHASE_DUEL:
		return seat == s->turn;
	}
	return false;
}

/* The full legal list of `seat`: the true count, the first `cap` written. */
static int state_legal(const struct quinteto_state *s, int seat, struct rules_action *out, int cap)
{
	int n = 0;

	if (!seat_acts(s, seat))
		return 0;
	switch (s->phase) {
	case QUINTETO_PHASE_ARRANGE:
		return arrangements(s, out, cap);
	case QUINTETO_PHASE_ROLLOFF:
		return one_action(out, 0, cap, QUINTETO_ACT_ROLL, 0);
	case QUINTETO_PHASE_PLACE:
		for (int side = 0; side < QUINTETO_HUNTERS; side++)
			if (home_free(s, side))
				n = one_action(out, n, cap, QUINTETO_ACT_PLACE, side);
		return n;
	default:
		return s->rolled ? plans(s, seat, out, cap) : one_action(out, 0, cap, QUINTETO_ACT_ROLL, 0);
	}
}

/* --- Turn and phase changes. */

static void match_end(struct quinteto_state *s, struct quinteto_outcome *o, int winner, uint8_t reason)
{
	s->over = 1;
	s->draw = winner < 0;
	s->winner = (int8_t)winner;
	s->reason = reason;
	note_phase(s, o, QUINTETO_PHASE_OVER);
	if (o)
		o->over = 1;
}

/* Phase 1 is over: the one hunter left duels the arranger after `place`. */
static void phase1_end(struct quinteto_state *s, struct quinteto_outcome *o)
{
	s->survivor = (uint8_t)first_living(s);
	s->rolled = 0;
	s->dice[0] = s->dice[1] = 0;
	s->contenders = 0;
	s->eliminated = 0;
	note_phase(s, o, QUINTETO_PHASE_PLACE);
}

/*
 * Phase 1, between turns (`from` just played or left): the survivor, else a
 * re-arrangement after an elimination while three or more live (D8), else the
 * next living hunter clockwise.
 */
static void hunt_next(struct quinteto_state *s, int from, struct quinteto_outcome *o)
{
	int living = living_count(s);

	s->rolled = 0;
	s->dice[0] = s->dice[1] = 0;
	if (living == 1) {
		phase1_end(s, o);
		return;
	}
	s->turn = next_living(s, from);
	if (s->eliminated && living >= 3)
		note_phase(s, o, QUINTETO_PHASE_ARRANGE);
	s->eliminated = 0;
}

/* The roll-off once every contender has rolled: the highest starts, the tied roll again. */
static void rolloff_settle(struct quinteto_state *s, struct quinteto_outcome *o)
{
	int best = 0, tied = s->contenders;

	if (tied & (tied - 1)) {
		for (int h = 0; h < QUINTETO_HUNTERS; h++) {
			if (!(s->contenders & (1u << h)))
				continue;
			if (!s->rolloff[h])
				return; /* a contender has not rolled yet */
			if (s->rolloff[h] > best)
				best = s->rolloff[h], tied = 0;
			if (s->rolloff[h] == best)
				tied |= 1 << h;
		}
	}
	if (tied & (tied - 1)) {
		s->contenders = (uint8_t)tied;
		for (int h = 0; h < QUINTETO_HUNTERS; h++)
			if (tied & (1 << h))
				s->rolloff[h] = 0;
		if (o)
			o->tied = (uint8_t)tied;
		return;
	}
	for (int h = 0; h < QUINTETO_HUNTERS; h++) {
		if (tied == 1 << h) {
			s->turn = (uint8_t)h;
			s->contenders = 0;
			if (o)
				o->starts = (uint8_t)h;
			note_phase(s, o, QUINTETO_PHASE_HUNT);
		}
	}
}

/* A turn's plan is complete: count the turn, then the duel's end, max_turns, the next turn. */
static void turn_end(struct rules_match *m, int seat, struct quinteto_outcome *o)
{
	struct quinteto_state *s = &m->s.quinteto;
	int32_t max = m->options.max_turns ? m->options.max_turns : QUINTETO_MAX_TURNS_DEFAULT;

	s->turns++;
	s->rolled = 0;
	s->dice[0] = s->dice[1] = 0;
	if (s->phase == QUINTETO_PHASE_DUEL) {
		uint8_t opp = quinteto_victim(s, seat);

		if (s->loc[own_stone(opp, 0)] > QUINTETO_LIMBO &&
		    s->loc[own_stone(opp, 1)] > QUINTETO_LIMBO) {
			match_end(s, o, seat, RULES_REASON_DUEL);
			return;
		}
	}
	if (s->phase == QUINTETO_PHASE_DUEL)
		s->turn = quinteto_victim(s, seat);
	else
		hunt_next(s, seat, o);
	if (s->turns >= (uint32_t)max)
		match_end(s, o, -1, RULES_REASON_MAX_TURNS);
}

/* --- Action handlers (the action is in the legal list). */

static void act_arrange(struct rules_match *m, int seat, const struct rules_action *a,
			struct quinteto_outcome *o)
{
	struct quinteto_state *s = &m->s.quinteto;
	bool first = !s->arranged;

	(void)seat;
	memset(s->circle, QUINTETO_NONE, sizeof(s->circle));
	for (int i = 0; i < a->arg[0] && i < QUINTETO_HUNTERS; i++)
		s->circle[i] = (uint8_t)a->arg[1 + i];
	s->arranged = 1;
	if (first) {
		s->contenders = 0;
		for (int h = 0; h < QUINTETO_HUNTERS; h++)
			if (hunter_alive(s, h))
				s->contenders |= (uint8_t)(1u << h);
		note_phase(s, o, QUINTETO_PHASE_ROLLOFF);
	} else {
		note_phase(s, o, QUINTETO_PHASE_HUNT);
	}
}

static void act_roll(struct rules_match *m, int seat, const struct rules_action *a,
		     struct quinteto_outcome *o)
{
	struct quinteto_state *s = &m->s.quinteto;

	(void)a;
	if (s->phase == QUINTETO_PHASE_ROLLOFF) {
		s->rolloff[seat] = (uint8_t)rules_dice_d6(&m->dice);
		o->dice[0] = s->rolloff[seat];
		o->rolloff = 1;
		rolloff_settle(s, o);
		return;
	}
	s->dice[0] = (uint8_t)rules_dice_d6(&m->dice);
	s->dice[1] = (uint8_t)rules_dice_d6(&m->dice);
	s->rolled = 1;
	memcpy(o->dice, s->dice, sizeof(o->dice));
	if (s->phase == QUINTETO_PHASE_DUEL && s->dice[0] == 5 && s->dice[1] == 5) {
		o->quinteto = 1;
		match_end(s, o, seat, RULES_REASON_QUINTETO);
	}
}

static void act_place(struct rules_match *m, int seat, const struct rules_action *a,
		      struct quinteto_outcome *o)
{
	struct quinteto_state *s = &m->s.quinteto;

	(void)seat;
	s->home = HOME(a->arg[0]);
	s->loc[own_stone(QUINTETO_ARRANGER, 0)] = s->home;
	s->loc[own_stone(QUINTETO_ARRANGER, 1)] = s->home;
	s->turn = QUINTETO_ARRANGER;
	s->rolled = 0;
	note_phase(s, o, QUINTETO_PHASE_DUEL);
}

static void act_plan(struct rules_match *m, int seat, const struct rules_action *a,
		     struct quinteto_outcome *o)
{
	struct quinteto_state *s = &m->s.quinteto;

	for (int j = 0; j < a->arg[0]; j++) {
		const int16_t *p = &a->arg[1 + 4 * j];
		struct step st = { p[0], p[1], p[2], p[3] };

		step_apply(s, seat, &st, o);
	}
	for (int i = 0; i < o->neliminated; i++)
		m->out |= (uint8_t)(1u << o->eliminated[i]);
	turn_end(m, seat, o);
}

typedef void quinteto_act_fn(struct rules_match *m, int seat, const struct rules_action *a,
			     struct quinteto_outcome *o);

static quinteto_act_fn *const quinteto_handlers[] = {
	[QUINTETO_ACT_ARRANGE] = act_arrange,
	[QUINTETO_ACT_ROLL] = act_roll,
	[QUINTETO_ACT_PLACE] = act_place,
	[QUINTETO_ACT_PLAN] = act_plan,
};

/* --- The interface. */

static int quinteto_start(struct rules_match *m)
{
	struct quinteto_state *s = &m->s.quinteto;
	int32_t max = m->options.max_turns;

	if (max != 0 && (max < 10 || max > 100000))
		return RULES_E_BAD_OPTIONS;
	memset(s, 0, sizeof(*s));
	for (int h = 0; h < QUINTETO_HUNTERS; h++) {
		s->loc[3 * h] = s->loc[3 * h + 1] = HOME(h);
		s->loc[3 * h + 2] = QUINTETO_MARKER;
	}
	for (int k = 15; k < QUINTETO_STONES; k++)
		s->loc[k] = QUINTETO_RESERVE;
	memset(s->circle, QUINTETO_NONE, sizeof(s->circle));
	s->phase = QUINTETO_PHASE_ARRANGE;
	s->home = QUINTETO_NONE;
	s->survivor = QUINTETO_NONE;
	s->winner = -1;
	return RULES_OK;
}

static int quinteto_to_act(const struct rules_match *m, uint8_t out[RULES_MAX_SEATS])
{
	const struct quinteto_state *s = &m->s.quinteto;
	int n = 0;

	for (int seat = 0; seat < RULES_MAX_SEATS; seat++)
		if (seat_acts(s, seat))
			out[n++] = (uint8_t)seat;
	return n;
}

/* The true count; the first `cap` are written (rules.h). */
static int quinteto_legal(const struct rules_match *m, int seat, struct rules_action *out, int cap)
{
	return state_legal(&m->s.quinteto, seat, out, cap);
}

/* Only an action in the legal list gets to a handler; nothing changes before. */
static int quinteto_apply(struct rules_match *m, int seat, const struct rules_action *a,
			  union rules_outcome *outcome)
{
	struct rules_action all[RULES_MAX_LEGAL];
	int n = state_legal(&m->s.quinteto, seat, all, RULES_MAX_LEGAL);

	for (int i = 0; i < n && i < RULES_MAX_LEGAL; i++) {
		if (rules_action_equal(&all[i], a)) {
			outcome->quinteto.kind = a->kind;
			outcome->quinteto.starts = QUINTETO_NONE;
			outcome->quinteto.phase = QUINTETO_NONE;
			quinteto_handlers[a->kind](m, seat, a, &outcome->quinteto);
			return RULES_OK;
		}
	}
	return RULES_E_ILLEGAL;
}

/*
 * A hunter resigns in phase 1 (protocol.md: eliminated at once, as if
 * captured). With one hunter left, phase 1 ends at once (a pending roll is
 * dropped). In the hunt, the resigner's own turn ends there; another hunter's
 * turn goes on and its end re-arranges (three or more left). Outside the hunt
 * there is no turn: the circle closes, nothing is re-arranged.
 */
static void hunter_leaves(struct quinteto_state *s, int h, struct quinteto_outcome *o)
{
	int living;

	eliminate(s, h, o);
	living = living_count(s);
	if (living == 1) {
		phase1_end(s, o);
		return;
	}
	switch (s->phase) {
	case QUINTETO_PHASE_ARRANGE:
		if (!hunter_alive(s, s->turn))
			s->turn = next_living(s, s->turn);
		if (s->arranged && living == 2)
			note_phase(s, o,
				   QUINTETO_PHASE_HUNT); /* two left hunt each other: nothing to arrange */
		s->eliminated = 0;
		break;
	case QUINTETO_PHASE_ROLLOFF:
		s->eliminated = 0;
		rolloff_settle(s, o);
		break;
	case QUINTETO_PHASE_HUNT:
		if (h == s->turn)
			hunt_next(s, h, o);
		break;
	}
}

/*
 * protocol.md `resign`: a hunter in phase 1 is eliminated at once; the
 * arranger in phase 1 ends the match with no winner; in phase 2 the other
 * duellist wins.
 */
static int quinteto_event(struct rules_match *m, int seat, int kind, union rules_outcome *outcome)
{
	struct quinteto_state *s = &m->s.quinteto;
	struct quinteto_outcome *o = &outcome->quinteto;
	uint8_t reason = kind == RULES_EVENT_FORFEIT ? RULES_REASON_FORFEIT : RULES_REASON_RESIGN;

	o->starts = QUINTETO_NONE;
	o->phase = QUINTETO_NONE;
	if (s->survivor != QUINTETO_NONE)
		match_end(s, o, seat == QUINTETO_ARRANGER ? s->survivor : QUINTETO_ARRANGER, reason);
	else if (seat == QUINTETO_ARRANGER)
		match_end(s, o, -1, reason);
	else
		hunter_leaves(s, seat, o);
	return RULES_OK;
}

static void quinteto_result(const struct rules_match *m, struct rules_result *out)
{
	const struct quinteto_state *s = &m->s.quinteto;

	out->over = s->over;
	out->draw = s->over && s->draw;
	out->winner = s->over ? s->winner : -1;
	out->reason = s->over ? s->reason : RULES_REASON_NONE;
}

/*
 * The standing of a finished match (rules.h; docs/RATINGS.md, "Standing"):
 * the winner first, then the other duellist, then the hunters in the reverse
 * order of their elimination (a hunter that resigned or forfeited was
 * eliminated when it left: gone[] has it there). On a draw everyone still in
 * play ties first: the two duellists, or in phase 1 (max_turns) the arranger
 * with the living hunters. An arranger that resigns or forfeits in phase 1
 * ends the match without a winner and is placed last, alone: leaving must
 * never rate better than playing on. A hunter out of play that gone[] does
 * not list (a position read back from a view) ties behind the listed ones.
 */
static void quinteto_standing(const struct rules_match *m, uint8_t place[RULES_MAX_SEATS])
{
	const struct quinteto_state *s = &m->s.quinteto;
	int score[RULES_MAX_SEATS]; /* higher is better */

	for (int seat = 0; seat < RULES_MAX_SEATS; seat++)
		score[seat] =
			seat < QUINTETO_HUNTERS && seat != s->survivor && !hunter_alive(s, seat) ? 0 : 10;
	for (int i = 0; i < s->ngone && i < QUINTETO_HUNTERS; i++)
		if (s->gone[i] != s->survivor && s->gone[i] < QUINTETO_HUNTERS)
			score[s->gone[i]] = 1 + i;
	if (s->survivor == QUINTETO_NONE && (m->out & (1u << QUINTETO_ARRANGER)))
		score[QUINTETO_ARRANGER] = -1;
	if (s->winner >= 0 && s->winner < RULES_MAX_SEATS)
		score[s->winner] = 20;
	for (int seat = 0; seat < RULES_MAX_SEATS; seat++) {
		place[seat] = 0;
		for (int other = 0; other < RULES_MAX_SEATS; other++)
			place[seat] += score[other] > score[seat];
	}
}

/* The Quinteto rules for the registry. */
const struct rules_game rules_game_quinteto = {
	.id = "quinteto",
	.name = "Quinteto",
	.seats = 6,
	.roles = quinteto_roles,
	.dice = true,
	.start = quinteto_start,
	.to_act = quinteto_to_act,
	.legal = quinteto_legal,
	.apply = quinteto_apply,
	.event = quinteto_event,
	.result = quinteto_result,
	.standing = quinteto_standing,
};
