/*
 * render.c: the registry of text renderers (see render.h), the fallback for a
 * view that cannot be drawn (its JSON, after the reason), and the helpers the
 * renderers share: checking a view's keys, seat names, dice.
 */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "render.h"

#define GAME_ENTRY(id) &cli_render_##id,
const struct cli_render *const cli_renders[] = { GAME_LIST(GAME_ENTRY) NULL };
#undef GAME_ENTRY

void cli_render_view(FILE *out, const char *game, const json_t *view, const json_t *seats)
{
	const struct cli_render *const *r = cli_renders;
	char why[256], *text;

	while (*r && strcmp((*r)->game, game) != 0)
		r++;
	if (*r && (*r)->check(view, why, sizeof(why))) {
		(*r)->draw(out, view, seats);
		return;
	}
	if (*r)
		fprintf(out, "(cannot draw this %s view: %s; see protocol/games-%s.md. The view as JSON:)\n",
			game, why, game);
	else
		fprintf(out, "(no text board for the game \"%s\"; the view as JSON:)\n", game);
	text = view ? json_dumps(view, JSON_INDENT(2) | JSON_SORT_KEYS | JSON_ENCODE_ANY) : NULL;
	fprintf(out, "%s\n", text ? text : view ? "(out of memory)" : "(no view)");
	free(text);
}

bool cli_bad(char *why, size_t whylen, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, whylen, fmt, ap);
	va_end(ap);
	return false;
}

static const char *type_name(json_type t)
{
	switch (t) {
	case JSON_OBJECT:
		return "an object";
	case JSON_ARRAY:
		return "an array";
	case JSON_STRING:
		return "a string";
	case JSON_INTEGER:
		return "an integer";
	default:
		return "a boolean";
	}
}

bool cli_view_keys(const json_t *view, const struct cli_view_key *keys, char *why, size_t whylen)
{
	if (!json_is_object(view))
		return cli_bad(why, whylen, "it is not an object");
	for (const struct cli_view_key *k = keys; k->name; k++) {
		const json_t *v = json_object_get(view, k->name);

		if (!v)
			return cli_bad(why, whylen, "\"%s\" is missing", k->name);
		if (json_is_null(v) && k->nullable)
			continue;
		if ((json_is_false(v) ? JSON_TRUE : json_typeof(v)) != k->type ||
		    (k->size && json_array_size(v) != k->size)) {
			char size[32] = "";

			if (k->size)
				snprintf(size, sizeof(size), " of %zu", k->size);
			return cli_bad(why, whylen, "\"%s\" is not %s%s%s", k->name, type_name(k->type), size,
				       k->nullable ? " or null" : "");
		}
	}
	return true;
}

bool cli_int_in(const json_t *j, json_int_t lo, json_int_t hi)
{
	return json_is_integer(j) && json_integer_value(j) >= lo && json_integer_value(j) <= hi;
}

bool cli_array_in(const json_t *a, json_int_t lo, json_int_t hi, bool nulls)
{
	const json_t *x;
	size_t i;

	json_array_foreach(a, i, x)
	{
		if (!(nulls && json_is_null(x)) && !cli_int_in(x, lo, hi))
			return false;
	}
	return json_is_array(a);
}

const char *cli_seat_name(const json_t *seats, json_int_t seat)
{
	const char *name =
		seat < 0 ? NULL
			 : json_string_value(json_object_get(json_array_get(seats, (size_t)seat), "name"));

	return name ? name : "-";
}

bool cli_dice_valid(const json_t *dice)
{
	return json_is_null(dice) || (json_array_size(dice) == 2 && cli_array_in(dice, 1, 6, false));
}

void cli_dice_print(FILE *out, const json_t *dice)
{
	if (json_is_array(dice))
		fprintf(out, "dice %lld %lld", (long long)json_integer_value(json_array_get(dice, 0)),
			(long long)json_integer_value(json_array_get(dice, 1)));
	else
		fprintf(out, "no dice");
}
