/*
 * quinteto.h: Quinteto as the project's rules decisions (protocol/games/quinteto/README.md)
 * play it: a ring of 25 rooms (homes 2, 7, 12, 17, 22), five limbo cells, a
 * killing circle of five slots, five hunters (seats 0..4) and the arranger
 * (seat 5); phase 1 (arrange, roll-off, the hunt) and phase 2 (place, the
 * duel, kills with a 5, Quinteto on 5+5), and `max_turns`.
 * State and outcome are fixed-size values of bytes only (no pointers, no
 * padding), so memcmp compares them and memcpy copies them.
 */
#ifndef QUINTETO_QUINTETO_H
#define QUINTETO_QUINTETO_H

#include <stdint.h>

#define QUINTETO_HUNTERS           5
#define QUINTETO_ARRANGER          5  /* the arranger's seat */
#define QUINTETO_STONES            18 /* seat s owns 3s, 3s+1, 3s+2 */
#define QUINTETO_ROOMS             25
#define QUINTETO_NONE              0xff /* an empty slot, no seat, no room */
#define QUINTETO_DIE_SUM           2    /* a step's die index for the sum of both dice */
#define QUINTETO_MAX_TURNS_DEFAULT 2000

/* Where a stone is (struct quinteto_state.loc): a room 0..24 or one of these. */
enum quinteto_where {
	QUINTETO_LIMBO = 25,   /* in its owner's limbo cell */
	QUINTETO_MARKER = 26,  /* a hunter's marker (stone 3s+2); the circle says in which slot */
	QUINTETO_RESERVE = 27, /* an arranger stone not (yet) placed; stone 17 for good */
	QUINTETO_OUT = 28,     /* captured, killed, or retired with its eliminated owner */
};

/* Action kinds (struct rules_action.kind). */
enum quinteto_kind {
	QUINTETO_ACT_ARRANGE = 1, /* arg[0] = k living hunters, arg[1..k] their seats in slot order */
	QUINTETO_ACT_ROLL = 2,    /* {"roll":true}: the roll-off's one die or a turn's two */
	QUINTETO_ACT_PLACE = 3,   /* arg[0] = side 0..4 */
	QUINTETO_ACT_PLAN = 4,    /* arg[0] = steps (1 or 2), step j at arg[1+4j..4+4j] */
};

/*
 * A plan's step, four args: op, die (0, 1 or QUINTETO_DIE_SUM), stone (the
 * kill's target for a kill), n (the signed steps of a move, else 0).
 */
enum quinteto_op {
	QUINTETO_OP_MOVE = 1,  /* a ring stone moves n = ±v (±(d1+d2) with the sum) */
	QUINTETO_OP_ENTER = 2, /* a ring stone goes into limbo, die showing 6 */
	QUINTETO_OP_EXIT = 3,  /* a limbo stone lands on its owner's home */
	QUINTETO_OP_KILL = 4,  /* phase 2, die showing 5: an opponent ring stone leaves */
};
#define QUINTETO_STEP_ARGS 4

/* Who must act, and how. */
enum quinteto_phase {
	QUINTETO_PHASE_ARRANGE = 0, /* the arranger sets the circle (at the start, after eliminations) */
	QUINTETO_PHASE_ROLLOFF = 1, /* the contenders roll one die each, in any order */
	QUINTETO_PHASE_HUNT = 2,    /* phase 1 turns: roll, then a plan */
	QUINTETO_PHASE_PLACE = 3,   /* the arranger chooses the duel's home */
	QUINTETO_PHASE_DUEL = 4,    /* phase 2 turns: roll, then a plan */
	QUINTETO_PHASE_OVER = 5,
};

struct quinteto_state {
	uint8_t loc[QUINTETO_STONES];      /* room 0..24 or enum quinteto_where */
	uint8_t circle[QUINTETO_HUNTERS];  /* slot 1..5 at index 0..4: a hunter's seat or QUINTETO_NONE */
	uint8_t rolloff[QUINTETO_HUNTERS]; /* each hunter's roll-off value, 0 = none */
	uint8_t contenders;                /* bit per hunter still in the roll-off */
	uint8_t phase;                     /* enum quinteto_phase */
	uint8_t turn;                      /* the seat to play (hunt, duel), next to play (arrange) */
	uint8_t rolled;                    /* the seat on turn has rolled: a plan is due */
	uint8_t dice[2];                   /* the turn's roll, valid while `rolled` (and a Quinteto) */
	uint8_t arranged;                  /* the circle has been set once */
	uint8_t eliminated;                /* someone was eliminated during the current turn */
	uint8_t home;                      /* the arranger's home room, QUINTETO_NONE before `place` */
	uint8_t survivor;                  /* phase 2's hunter, QUINTETO_NONE before */
	uint8_t over;                      /* the match has ended */
	uint8_t draw;                      /* it ended without a winner */
	int8_t winner;                     /* seat, -1 while playing or on a draw */
	uint8_t reason;                    /* enum rules_reason */
	uint8_t gone[QUINTETO_HUNTERS];    /* hunters eliminated (resigned, forfeited), in order */
	uint8_t ngone;                     /* entries of gone[]; keeps `turns` aligned, no padding */
	uint32_t turns;                    /* completed hunt and duel turns */
};

/*
 * What an accepted action (or an event) did. Ids are stones, seats are
 * seats; lists hold `n*` entries. `phase` is the phase after the action when
 * it changed, else QUINTETO_NONE.
 */
struct quinteto_outcome {
	uint8_t kind;      /* the action's kind, 0 for an event */
	uint8_t dice[2];   /* a turn's roll; a roll-off roll in dice[0], dice[1] = 0 */
	uint8_t rolloff;   /* the roll was a roll-off roll */
	uint8_t tied;      /* roll-off: bit per hunter that must roll again */
	uint8_t starts;    /* roll-off decided: the hunter who starts, else QUINTETO_NONE */
	uint8_t quinteto;  /* the roll was 5 and 5 in the duel: the roller won */
	uint8_t ncaptured; /* stones captured by landing, in order */
	uint8_t captured[4];
	uint8_t nkilled; /* stones removed by a kill step (0 or 1) */
	uint8_t killed[1];
	uint8_t neliminated; /* hunters eliminated, in order */
	uint8_t eliminated[QUINTETO_HUNTERS];
	uint8_t phase; /* the new phase, QUINTETO_NONE when unchanged */
	uint8_t over;  /* the action (or event) ended the match */
};

/*
 * The seat that `seat` hunts in `s`, or QUINTETO_NONE: in phase 1 the next
 * marker clockwise on the circle (none for the arranger, an eliminated
 * hunter, before the first arrangement, or a hunter alone on the circle);
 * from `place` on, the arranger and the survivor hunt each other.
 */
uint8_t quinteto_victim(const struct quinteto_state *s, int seat);

struct rules_game;
/* The Quinteto rules (id "quinteto"; seats 0..4 hunter, seat 5 arranger). */
extern const struct rules_game rules_game_quinteto;

#endif
