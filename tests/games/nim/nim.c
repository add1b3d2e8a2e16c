/*
 * nim.c: Nim's rules (see nim.h), pure C over the rules interface. The game
 * is not in the list of games, so union rules_state has no member for it:
 * its state is copied in and out of m->s with memcpy (it fits, checked at
 * compile time), as is its outcome. Every function that fails leaves the
 * match untouched.
 */
#include <string.h>

#include "nim.h"
#include "rules.h"

_Static_assert(sizeof(struct nim_state) <= sizeof(union rules_state), "Nim's state fits the match");
_Static_assert(sizeof(struct nim_outcome) <= sizeof(union rules_outcome), "Nim's outcome fits");

static const char *const roles[] = { "white", "black" };

static struct nim_state get(const struct rules_match *m)
{
	struct nim_state s;

	memcpy(&s, &m->s, sizeof(s));
	return s;
}

static void put(struct rules_match *m, const struct nim_state *s)
{
	memcpy(&m->s, s, sizeof(*s));
}

static int nim_start(struct rules_match *m)
{
	struct nim_state s = { .heap = NIM_HEAP, .winner = -1 };

	if (m->options.max_turns != 0)
		return RULES_E_BAD_OPTIONS;
	put(m, &s);
	return RULES_OK;
}

static int nim_to_act(const struct rules_match *m, uint8_t out[RULES_MAX_SEATS])
{
	out[0] = get(m).turn;
	return 1;
}

static int nim_legal(const struct rules_match *m, int seat, struct rules_action *out, int cap)
{
	struct nim_state s = get(m);
	int n = 0;

	(void)seat;
	for (int k = 1; k <= NIM_TAKE_MAX && k <= s.heap; k++, n++) {
		if (n < cap) {
			memset(&out[n], 0, sizeof(out[n]));
			out[n].kind = NIM_ACT_TAKE;
			out[n].arg[0] = (int16_t)k;
		}
	}
	return n;
}

static int nim_apply(struct rules_match *m, int seat, const struct rules_action *a, union rules_outcome *o)
{
	struct rules_action legal[NIM_TAKE_MAX];
	struct nim_state s = get(m);
	struct nim_outcome out = { 0 };
	int n = nim_legal(m, seat, legal, NIM_TAKE_MAX), i;

	for (i = 0; i < n && !rules_action_equal(&legal[i], a); i++)
		;
	if (i == n)
		return RULES_E_ILLEGAL;
	s.heap = (uint8_t)(s.heap - a->arg[0]);
	out.taken = (uint8_t)a->arg[0];
	out.left = s.heap;
	if (s.heap == 0) {
		s.over = 1;
		s.winner = (int8_t)seat;
		s.reason = RULES_REASON_LAST_PIECE;
		out.won = true;
	} else {
		s.turn = (uint8_t)(1 - seat);
	}
	put(m, &s);
	memcpy(o, &out, sizeof(out));
	return RULES_OK;
}

/* A resignation or forfeit: the other seat wins. */
static int nim_event(struct rules_match *m, int seat, int kind, union rules_outcome *o)
{
	struct nim_state s = get(m);

	(void)o;
	s.over = 1;
	s.winner = (int8_t)(1 - seat);
	s.reason = kind == RULES_EVENT_RESIGN ? RULES_REASON_RESIGN : RULES_REASON_FORFEIT;
	put(m, &s);
	return RULES_OK;
}

static void nim_result(const struct rules_match *m, struct rules_result *out)
{
	struct nim_state s = get(m);

	out->over = s.over;
	out->winner = s.over ? s.winner : -1;
	out->reason = s.over ? s.reason : RULES_REASON_NONE;
}

/* Nim's rules, registered by nim_server.c. */
const struct rules_game rules_game_nim = {
	.id = "nim",
	.name = "Nim",
	.seats = 2,
	.roles = roles,
	.dice = false,
	.start = nim_start,
	.to_act = nim_to_act,
	.legal = nim_legal,
	.apply = nim_apply,
	.event = nim_event,
	.result = nim_result,
};
