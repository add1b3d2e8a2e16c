/*
 * nim.h: Nim, a throwaway two-seat game that only tests play. It walks
 * docs/ADDING-A-GAME.md: a folder with its rules, codec and bots, registered
 * at start-up by its own main (nim_server.c) instead of the list of games,
 * so the server library is linked as it is built. One heap of NIM_HEAP
 * stones; a turn takes 1..NIM_TAKE_MAX of them; who takes the last stone
 * wins. No dice, no options.
 */
#ifndef QUINTETO_NIM_H
#define QUINTETO_NIM_H

#include <stdbool.h>
#include <stdint.h>

#define NIM_HEAP     11
#define NIM_TAKE_MAX 3

enum nim_action_kind { NIM_ACT_TAKE = 1 }; /* arg[0]: stones taken */

struct nim_state {
	uint8_t heap;   /* stones left */
	uint8_t turn;   /* the seat to act */
	uint8_t over;   /* the match has a result */
	uint8_t reason; /* enum rules_reason, once over */
	int8_t winner;  /* seat, or -1 */
};

struct nim_outcome {
	uint8_t taken; /* stones this action took */
	uint8_t left;  /* stones left after it */
	bool won;      /* it took the last stone */
};

struct rules_game;
struct wire_game;
struct bot_game;
extern const struct rules_game rules_game_nim; /* nim.c */
extern const struct wire_game wire_game_nim;   /* nim_wire.c */
extern const struct bot_game bot_game_nim;     /* nim_bots.c */

#endif
