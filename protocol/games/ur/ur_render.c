/*
 * ur_render.c: an Ur view (protocol/games/ur/README.md) as text: for each colour,
 * the pieces waiting at home, how many stand on each square of its own route
 * (1..23; squares 5..12 are the shared middle row), the pieces borne off, and
 * the latest throw.
 *
 *   light Ana       home 3 | . . . . 1 . . 2 . . . . . . . . . . . . . . . | off 1
 */
#include "render.h"

#define UR_ROUTE 23

static void track(FILE *out, const json_t *pieces, const char *role, const char *name)
{
	int count[UR_ROUTE + 2] = { 0 };
	size_t i;
	json_t *p;

	json_array_foreach(pieces, i, p)
	{
		json_int_t at = json_integer_value(p);

		if (at >= 0 && at <= UR_ROUTE + 1)
			count[at]++;
	}
	fprintf(out, "%-5s %-16.16s home %d |", role, name, count[0]);
	for (int s = 1; s <= UR_ROUTE; s++) {
		if (count[s])
			fprintf(out, " %d", count[s]);
		else
			fprintf(out, " .");
	}
	fprintf(out, " | off %d\n", count[UR_ROUTE + 1]);
}

static bool ur_check(const json_t *view, char *why, size_t whylen)
{
	static const struct cli_view_key keys[] = {
		{ "pieces", JSON_ARRAY, 2, false }, { "dice", JSON_ARRAY, 3, true },
		{ "value", JSON_INTEGER, 0, true }, { "bonus", JSON_TRUE, 0, false },
		{ "again", JSON_TRUE, 0, false },   { NULL, JSON_NULL, 0, false },
	};
	if (!cli_view_keys(view, keys, why, whylen))
		return false;
	for (size_t k = 0; k < 2; k++) {
		const json_t *route = json_array_get(json_object_get(view, "pieces"), k);

		if (json_array_size(route) != 7 || !cli_array_in(route, 0, UR_ROUTE + 1, false))
			return cli_bad(why, whylen, "pieces[%zu] is not 7 route indexes 0..%d", k,
				       UR_ROUTE + 1);
	}
	return true;
}

static void ur_draw(FILE *out, const json_t *view, const json_t *seats)
{
	static const char *const roles[] = { "light", "dark" };
	const json_t *pieces = json_object_get(view, "pieces"), *dice = json_object_get(view, "dice");
	size_t i;
	json_t *d;

	fprintf(out, "%-29s |", "square (last digit)");
	for (int s = 1; s <= UR_ROUTE; s++)
		fprintf(out, " %d", s % 10);
	fprintf(out, " |\n");
	for (int k = 0; k < 2; k++)
		track(out, json_array_get(pieces, (size_t)k), roles[k], cli_seat_name(seats, k));
	if (json_is_array(dice)) {
		fprintf(out, "throw: ");
		json_array_foreach(dice, i, d)
		{
			fprintf(out, "%s", json_is_true(d) ? "*" : "o");
		}
		fprintf(out, " = %lld%s%s\n", (long long)json_integer_value(json_object_get(view, "value")),
			json_is_true(json_object_get(view, "again")) ? ", throws again" : "",
			json_is_true(json_object_get(view, "bonus")) ? ", rosette bonus pending" : "");
	} else
		fprintf(out, "throw: none yet\n");
}

const struct cli_render cli_render_ur = { .game = "ur", .check = ur_check, .draw = ur_draw };
