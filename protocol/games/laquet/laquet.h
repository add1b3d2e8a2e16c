/*
 * laquet.h: Laquet as the project's rules decisions (protocol/games/laquet/README.md) play
 * it: one shared counter-clockwise track of route indexes 1..18 over three
 * quadrants (19 is off the board), the asymmetric setup, no landing on a
 * point the opponent holds (men are never hit), doubles not doubled, the
 * maximum use of the dice and the larger-die rule (D2), the dice a plan does
 * not use handed to the opponent before its roll (D3), and bearing off from
 * routes 13..18. State and outcome are fixed-size values of bytes only (no
 * pointers, no padding), so memcmp compares them and memcpy copies them.
 */
#ifndef QUINTETO_LAQUET_H
#define QUINTETO_LAQUET_H

#include <stdint.h>

#define LAQUET_MEN      15
#define LAQUET_POINTS   18 /* route indexes 1..18 on the board */
#define LAQUET_OFF      19 /* route index of a man borne off (the rail) */
#define LAQUET_HOME_LO  13 /* quadrant III, the bearing-off quadrant: 13..18 */
#define LAQUET_DICE     2
#define LAQUET_MAX_STEP 2 /* a plan or a bonus moves at most two dice */

/*
 * Action kinds (struct rules_action.kind). A plan or bonus is arg[0] = the
 * number of steps (0..2), then per step its `from` route and its `die` index:
 * arg[1], arg[2] for the first step, arg[3], arg[4] for the second. Unused
 * slots stay 0.
 */
enum laquet_kind {
	LAQUET_ACT_ROLL = 1,  /* {"roll":true} */
	LAQUET_ACT_PLAN = 2,  /* {"plan":[steps]}: 1 or 2 steps, die indexes `dice` */
	LAQUET_ACT_BONUS = 3, /* {"bonus":[steps]}: 0..2 steps, die indexes `handed` */
};

/* What the seat to act must do next. */
enum laquet_phase {
	LAQUET_PHASE_ROLL = 0,  /* throw the two dice */
	LAQUET_PHASE_PLAN = 1,  /* play the throw in `dice` */
	LAQUET_PHASE_BONUS = 2, /* play or decline the handed dice, then roll */
};

struct laquet_state {
	uint8_t men[2][LAQUET_OFF + 1]; /* men of each seat per route 1..18, [19] borne off, [0] unused */
	uint8_t turn;                   /* seat whose turn it is (0 = White) */
	uint8_t phase;                  /* enum laquet_phase */
	uint8_t dice[LAQUET_DICE];      /* the throw being played (phase PLAN), else 0 */
	uint8_t handed[LAQUET_DICE];    /* the dice handed to `turn` (phase BONUS), in die order */
	uint8_t nhanded;                /* how many of handed[] (0 outside phase BONUS) */
	uint8_t over;                   /* the match has ended */
	int8_t winner;                  /* seat, -1 while playing */
	uint8_t reason;                 /* enum rules_reason */
};

/* One die move as it happened: `to` is 19 for a man borne off. */
struct laquet_move {
	uint8_t from, to, die; /* die: the value moved */
};

/*
 * What an accepted action did. Roll: the dice, and `passed` when nothing
 * could be played (the core handed both dice over by itself). Plan and
 * bonus: the moves, men borne off, and whether that won the match. Roll and
 * plan: the dice handed to the opponent (`handed`), and `bonus` when the
 * opponent is now offered them (at least one is playable).
 */
struct laquet_outcome {
	uint8_t kind;                              /* the action's kind, 0 for an event */
	uint8_t dice[LAQUET_DICE];                 /* roll: the throw */
	uint8_t passed;                            /* roll: nothing could be played */
	uint8_t nmoves;                            /* plan, bonus: moves made */
	struct laquet_move moves[LAQUET_MAX_STEP]; /* plan, bonus: in order */
	uint8_t borne_off;                         /* plan, bonus: men that left */
	uint8_t handed[LAQUET_DICE];               /* roll, plan: dice handed over, in die order */
	uint8_t nhanded;                           /* how many of handed[] */
	uint8_t bonus;                             /* roll, plan: the opponent may now play them */
	uint8_t won;                               /* plan, bonus: the action won the match */
};

struct rules_game;
/* The Laquet rules (id "laquet"; seat 0 white, seat 1 black). */
extern const struct rules_game rules_game_laquet;

#endif
