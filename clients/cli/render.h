/*
 * render.h: a position as text for `quinteto show`, one renderer per game.
 * A renderer draws a `view` (the JSON a `state` carries, as
 * GET /api/matches/{id}/replay recomputes it), the way the browser's board
 * modules draw the same view, so it needs nothing but the game's wire
 * documentation. Boards are plain ASCII: a terminal without UTF-8 shows them.
 * A view that is not as the documentation says (a key missing, a wrong type, a
 * value out of range) is never drawn: check() says what is wrong and the view
 * is shown as JSON after that reason, as is the view of a game without a
 * renderer.
 *
 * A game's renderer is `cli_render_<id>` in its folder
 * (protocol/games/<id>/<id>_render.c); cli_renders[] is derived from the one
 * list of games (protocol/games/meson.build).
 */
#ifndef QUINTETO_CLI_RENDER_H
#define QUINTETO_CLI_RENDER_H

#include <jansson.h>
#include <stdbool.h>
#include <stdio.h>

#include "game_list.h"

struct cli_render {
	const char *game; /* the game id */
	/* True when draw() can draw `view` (borrowed); else false with the reason in why. */
	bool (*check)(const json_t *view, char *why, size_t whylen);
	/* Draws a checked `view`; `seats` is the archive's seat list, for names. */
	void (*draw)(FILE *out, const json_t *view, const json_t *seats);
};

/* The registry: every game's renderer, in the list's order, NULL-terminated. */
extern const struct cli_render *const cli_renders[];

/*
 * Draws `view` (borrowed) with game's renderer; when the game has none or the
 * view fails its check, prints a line in parentheses saying so, then the view
 * as indented JSON.
 */
void cli_render_view(FILE *out, const char *game, const json_t *view, const json_t *seats);

/* --- helpers the renderers share -------------------------------------------- */

/* One key a view must hold, for cli_view_keys(). */
struct cli_view_key {
	const char *name; /* NULL ends a table */
	json_type type;   /* JSON_TRUE stands for either boolean */
	size_t size;      /* an array's exact length; 0: any */
	bool nullable;    /* null is accepted too */
};

/* True when `view` is an object holding every key of `keys` as described; else false with why. */
bool cli_view_keys(const json_t *view, const struct cli_view_key *keys, char *why, size_t whylen);

/* Writes the printf-style reason into why; returns false, for a check's `return cli_bad(...)`. */
bool cli_bad(char *why, size_t whylen, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* True when `j` is an integer in lo..hi. */
bool cli_int_in(const json_t *j, json_int_t lo, json_int_t hi);

/* True when `a` is an array whose every element is an integer in lo..hi (or null, when `nulls`). */
bool cli_array_in(const json_t *a, json_int_t lo, json_int_t hi, bool nulls);

/* The archived name of seat `seat` in `seats` (borrowed), or "-". */
const char *cli_seat_name(const json_t *seats, json_int_t seat);

/* True when `dice` is null or two integers 1..6. */
bool cli_dice_valid(const json_t *dice);

/* Two dice [d1, d2] as "dice 4 6", or "no dice" for null. */
void cli_dice_print(FILE *out, const json_t *dice);

/* Each game's renderer, one per entry of the list of games. */
#define CLI_RENDER_DECLARE(id) extern const struct cli_render cli_render_##id;
GAME_LIST(CLI_RENDER_DECLARE)
#undef CLI_RENDER_DECLARE

#endif
