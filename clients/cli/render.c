/*
 * render.c: the registry of text renderers (see render.h) and the fallback
 * for a game that has none yet: its view as indented JSON.
 */
#include <stdlib.h>
#include <string.h>

#include "render.h"

const struct cli_render *const cli_renders[] = {
	&cli_render_ur,
	NULL,
};

void cli_render_view(FILE *out, const char *game, const json_t *view, const json_t *seats)
{
	char *text;

	for (const struct cli_render *const *r = cli_renders; *r; r++) {
		if (strcmp((*r)->game, game) == 0) {
			(*r)->draw(out, view, seats);
			return;
		}
	}
	text = json_dumps(view, JSON_INDENT(2) | JSON_SORT_KEYS);
	fprintf(out, "%s\n", text ? text : "(out of memory)");
	free(text);
}
