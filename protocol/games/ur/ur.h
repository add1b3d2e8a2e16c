/*
 * ur.h: the Royal Game of Ur as the project's rules decisions (protocol/games/ur/README.md)
 * play it (route D1, tetrahedral dice, entry on 1 or 5, capture by cell and direction, safe
 * rosettes and M1, rosette bonus, bearing off from square 23 with a 4).
 * State and outcome are fixed-size values of bytes only (no pointers, no
 * padding), so memcmp compares them and memcpy copies them.
 */
#ifndef QUINTETO_UR_H
#define QUINTETO_UR_H

#include <stdint.h>

#define UR_PIECES  7
#define UR_SQUARES 23 /* route squares 1..23 */
#define UR_HOME    0  /* route index of a piece not yet entered */
#define UR_OFF     24 /* route index of a piece borne off */
#define UR_EXIT    23 /* the exit square (M1) */
#define UR_DICE    3

/* Action kinds (struct rules_action.kind). */
enum ur_kind {
	UR_ACT_ROLL = 1,     /* {"roll":true} */
	UR_ACT_ENTER = 2,    /* {"enter":arg[0]}, arg[0] = 1 or 5 */
	UR_ACT_MOVE = 3,     /* {"move":arg[0]}, arg[0] = from square 1..22 */
	UR_ACT_BEAR_OFF = 4, /* {"bear_off":true}: every piece on square 23 leaves */
	UR_ACT_SKIP = 5,     /* {"skip":true}: declines the rosette bonus */
};

/* What the seat to act must do next. */
enum ur_phase {
	UR_PHASE_ROLL = 0,  /* throw the dice */
	UR_PHASE_MOVE = 1,  /* use the throw in `value` */
	UR_PHASE_BONUS = 2, /* rosette bonus: enter on 1 or skip */
};

struct ur_state {
	uint8_t pos[2][UR_PIECES]; /* route indexes 0..24 per seat, ascending */
	uint8_t turn;              /* seat whose turn it is (0 = Light) */
	uint8_t phase;             /* enum ur_phase */
	uint8_t dice[UR_DICE];     /* latest throw, 1 = marked, in stream order */
	uint8_t value;             /* latest throw's value 0..5 */
	uint8_t has_throw;         /* 0 before the first throw of the match */
	uint8_t again;             /* the latest throw earned another throw */
	uint8_t over;              /* the match has ended */
	int8_t winner;             /* seat, -1 while playing */
	uint8_t reason;            /* enum rules_reason */
};

/*
 * What an accepted action did. Roll: dice, value, lost (no legal action, so
 * the core passed the turn or kept it for the extra throw by itself), again.
 * Enter/move: captured pieces and the opponent squares they stood on, bonus
 * now pending. Bear off: how many left, whether that won the match.
 */
struct ur_outcome {
	uint8_t kind;                     /* the action's kind, 0 for an event (resign, forfeit) */
	uint8_t dice[UR_DICE];            /* roll: 1 = marked */
	uint8_t value;                    /* roll: 0..5 */
	uint8_t lost;                     /* roll: the throw could not be used */
	uint8_t again;                    /* roll: it earned another throw */
	uint8_t captured;                 /* enter/move: opponent pieces sent to 0 */
	uint8_t captured_from[UR_PIECES]; /* their squares, in the opponent's route */
	uint8_t bonus;                    /* enter/move: a rosette bonus is pending */
	uint8_t borne_off;                /* bear off: pieces that left */
	uint8_t won;                      /* the action won the match */
};

struct rules_game;
/* The Ur rules (id "ur"; seat 0 light, seat 1 dark). */
extern const struct rules_game rules_game_ur;

#endif
