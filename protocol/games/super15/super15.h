/*
 * super15.h: Super 1 al 5 as the project's rules decisions (protocol/games/super15/README.md)
 * play it: an 8x10 board with four forbidden squares (D1), sixteen valued
 * pieces a side (D2), queen-line moves up to the value (D3), points as the
 * captured value plus its points (D4), the Super's line capture (D5) and the
 * adjudication after quiet plies (D6). No dice.
 * State and outcome are fixed-size values of bytes only (no pointers, no
 * padding), so memcmp compares them and memcpy copies them.
 */
#ifndef QUINTETO_SUPER15_H
#define QUINTETO_SUPER15_H

#include <stdint.h>

#define SUPER15_FILES        8
#define SUPER15_RANKS        10
#define SUPER15_SQUARES      80 /* square = rank index * 8 + file index: a1 = 0, h1 = 7, a10 = 72 */
#define SUPER15_PIECES       32 /* ids 0..15 Light, 16..31 Dark (the game's README, "View") */
#define SUPER15_SIDE         16
#define SUPER15_NONE         0xff /* an empty board square; the square of a captured piece */
#define SUPER15_SUPER_POINTS 10   /* points that make a piece Super */
#define SUPER15_QUIET_SMALL  20   /* D6: quiet plies that end a match of few, equal pieces */
#define SUPER15_SMALL        3    /* D6: "at most three pieces each" */
#define SUPER15_QUIET_MAX    100  /* D6: quiet plies that end any match */
#define SUPER15_MAX_CAPTURE  9    /* a line holds at most nine squares besides the mover's */

/* Action kinds (struct rules_action.kind). */
enum super15_kind {
	SUPER15_ACT_MOVE = 1, /* {"from":sq,"to":sq}: arg[0] = from, arg[1] = to (square indexes) */
};

struct super15_piece {
	uint8_t square; /* 0..79, SUPER15_NONE once captured */
	uint8_t value;  /* 1..5, fixed */
	uint8_t points; /* what it has captured (D4); at most 84, the value of every piece */
	uint8_t super;  /* 1 once Super (permanent) */
};

/*
 * pieces[] says everything; board[], count[] and sets[] are kept from it so
 * the legal list is fast (super15_state_sync() rebuilds them).
 */
struct super15_state {
	uint64_t sets[2][6][2]; /* per seat, per group (0: Supers, v: ordinary pieces of value v), the squares
				 * as bits: square (file f, rank r) is bit r * 9 + f (super15.c says
				 * why), [0] bits 0..63, [1] bits 64..89 */
	struct super15_piece pieces[SUPER15_PIECES]; /* by id; captured pieces keep their value and points */
	uint8_t board[SUPER15_SQUARES];              /* piece id, or SUPER15_NONE */
	uint8_t count[2];                            /* pieces on the board per seat */
	uint8_t turn;                                /* seat to move (0 = Light) */
	uint8_t quiet;                               /* plies since the last capture, or the start */
	uint8_t over;                                /* the match has ended */
	uint8_t draw;                                /* ended in a draw (adjudication, equal totals) */
	int8_t winner;                               /* seat, -1 while playing or on a draw */
	uint8_t reason;                              /* enum rules_reason */
};

/*
 * What an accepted move did: the piece moved, the pieces it captured (ids
 * and the squares they stood on, nearest first), the points it gained, and
 * whether it became Super with this move. Events leave it zeroed.
 */
struct super15_outcome {
	uint8_t piece;                            /* the moved piece's id */
	uint8_t captured;                         /* how many it captured */
	uint8_t captured_id[SUPER15_MAX_CAPTURE]; /* their ids, nearest first */
	uint8_t captured_sq[SUPER15_MAX_CAPTURE]; /* the squares they stood on */
	uint8_t gained;                           /* points gained */
	uint8_t promoted;                         /* became Super with this move */
};

/*
 * Rebuilds board[], count[] and sets[] from pieces[] (a position set by hand,
 * in tests). Pure; `s` is the caller's.
 */
void super15_state_sync(struct super15_state *s);

/* "a1" .. "h10" for square 0..79, written into buf (4 bytes); returns buf. The codecs' square names. */
const char *super15_square_name(int sq, char buf[4]);

/* The points `seat` still has on the board (the adjudication's count, README D6). */
int super15_points_on_board(const struct super15_state *s, int seat);

/* Ends the match: `winner` a seat, or -1 for a draw; `reason` an enum rules_reason. */
void super15_match_end(struct super15_state *s, int winner, int reason);

struct rules_game;
/* The Super 1 al 5 rules (id "super15"; seat 0 light, seat 1 dark). */
extern const struct rules_game rules_game_super15;

#endif
