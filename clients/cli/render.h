/*
 * render.h: a position as text for `quinteto show`, one renderer per game.
 * A renderer draws a `view` (the JSON a `state` carries, as
 * GET /api/matches/{id}/replay recomputes it), the way the browser's board
 * modules draw the same view, so it needs nothing but the game's wire
 * documentation. A game without one is shown as its view's JSON.
 *
 * Adding a game: a render_<game>.c defining its struct cli_render, and one
 * line in cli_renders[] (render.c).
 */
#ifndef QUINTETO_CLI_RENDER_H
#define QUINTETO_CLI_RENDER_H

#include <jansson.h>
#include <stdio.h>

struct cli_render {
	const char *game; /* the game id */
	/* Draws `view` (borrowed); `seats` is the archive's seat list, for names. */
	void (*draw)(FILE *out, const json_t *view, const json_t *seats);
};

/* The registry: NULL-terminated. */
extern const struct cli_render *const cli_renders[];

/* Draws `view` with game's renderer, or as indented JSON when it has none. */
void cli_render_view(FILE *out, const char *game, const json_t *view, const json_t *seats);

/* The Royal Game of Ur (render_ur.c). */
extern const struct cli_render cli_render_ur;

#endif
