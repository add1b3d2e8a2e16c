/*
 * laquet_render.c: a Laquet view (protocol/games/laquet/README.md) as text: the
 * board seen from White's side as the browser draws it, the top row t1..t12
 * and the bottom row b1..b12 left to right with the bar between the halves,
 * each point named, with its route index (the `from` of a plan's step) and
 * its men ("W3": three white men, "B14"); quadrant IV (b1..b6) is out of play.
 * Laquet has no hitting, so no men on the bar; men borne off (route 19) are
 * counted per colour, with the dice and the dice handed over for a bonus.
 *
 *   point   t1  t2  t3  t4  t5  t6 |  t7  t8  t9 t10 t11 t12
 *   route   18  17  16  15  14  13 |  12  11  10   9   8   7
 *   men     W1   .   .   .   .   . |   .   .   .   .   .  B1
 */
#include "render.h"

#define LAQUET_ROUTE 18
#define LAQUET_MEN   15

/* A point's men: "W3", "B14" or "." (empty). */
static void men(char *cell, size_t len, const json_t *point)
{
	json_int_t w = json_integer_value(json_object_get(point, "white"));
	json_int_t b = json_integer_value(json_object_get(point, "black"));

	if (w || b)
		snprintf(cell, len, "%c%lld", w ? 'W' : 'B', (long long)(w ? w : b));
	else
		snprintf(cell, len, ".");
}

static bool laquet_check(const json_t *view, char *why, size_t whylen)
{
	static const struct cli_view_key keys[] = {
		{ "dice", JSON_ARRAY, 2, true },  { "points", JSON_ARRAY, LAQUET_ROUTE, false },
		{ "off", JSON_OBJECT, 0, false }, { "handed", JSON_ARRAY, 0, false },
		{ NULL, JSON_NULL, 0, false },
	};
	const json_t *p, *off = json_object_get(view, "off");
	size_t i;

	if (!cli_view_keys(view, keys, why, whylen))
		return false;
	if (!cli_dice_valid(json_object_get(view, "dice")))
		return cli_bad(why, whylen, "\"dice\" is not two dice 1..6");
	json_array_foreach(json_object_get(view, "points"), i, p)
	{
		if (!cli_int_in(json_object_get(p, "white"), 0, LAQUET_MEN) ||
		    !cli_int_in(json_object_get(p, "black"), 0, LAQUET_MEN) ||
		    (json_integer_value(json_object_get(p, "white")) &&
		     json_integer_value(json_object_get(p, "black"))))
			return cli_bad(why, whylen,
				       "points[%zu] is not {white, black} of 0..%d men, one colour", i,
				       LAQUET_MEN);
	}
	if (!cli_int_in(json_object_get(off, "white"), 0, LAQUET_MEN) ||
	    !cli_int_in(json_object_get(off, "black"), 0, LAQUET_MEN))
		return cli_bad(why, whylen, "\"off\" is not {white, black} of 0..%d men", LAQUET_MEN);
	if (!cli_array_in(json_object_get(view, "handed"), 1, 6, false))
		return cli_bad(why, whylen, "\"handed\" is not an array of dice 1..6");
	return true;
}

/* One line of a row of 12 points: their names, route indexes or men. */
enum line { LINE_POINT, LINE_ROUTE, LINE_MEN };

static void row(FILE *out, const json_t *points, bool top, enum line what)
{
	static const char *const labels[] = { "point", "route", "men" };

	fprintf(out, "%-6s", labels[what]);
	for (int c = 1; c <= 12; c++) {
		int route = top ? LAQUET_ROUTE + 1 - c : c > 6 ? c - 6 : 0; /* 0: quadrant IV */
		char cell[8] = "-";

		if (what == LINE_POINT)
			snprintf(cell, sizeof(cell), "%c%d", top ? 't' : 'b', c);
		else if (route && what == LINE_ROUTE)
			snprintf(cell, sizeof(cell), "%d", route);
		else if (route)
			men(cell, sizeof(cell), json_array_get(points, (size_t)route - 1));
		fprintf(out, "%s%4s", c == 7 ? " |" : "", cell);
	}
	fprintf(out, "\n");
}

static void laquet_draw(FILE *out, const json_t *view, const json_t *seats)
{
	static const char *const colours[] = { "white", "black" };
	const json_t *points = json_object_get(view, "points"), *handed = json_object_get(view, "handed"), *p;
	size_t i;

	row(out, points, true, LINE_POINT);
	row(out, points, true, LINE_ROUTE);
	row(out, points, true, LINE_MEN);
	row(out, points, false, LINE_MEN);
	row(out, points, false, LINE_ROUTE);
	row(out, points, false, LINE_POINT);
	for (int k = 0; k < 2; k++) {
		json_int_t on = 0;

		json_array_foreach(points, i, p)
		{
			on += json_integer_value(json_object_get(p, colours[k]));
		}
		fprintf(out, "%c %-5s %-16.16s %2lld on the board, %2lld off\n", k ? 'B' : 'W', colours[k],
			cli_seat_name(seats, k), (long long)on,
			(long long)json_integer_value(
				json_object_get(json_object_get(view, "off"), colours[k])));
	}
	cli_dice_print(out, json_object_get(view, "dice"));
	if (json_array_size(handed))
		fprintf(out, "; handed over for a bonus:");
	json_array_foreach(handed, i, p)
	{
		fprintf(out, " %lld", (long long)json_integer_value(p));
	}
	fprintf(out, "\n");
}

const struct cli_render cli_render_laquet = { .game = "laquet", .check = laquet_check, .draw = laquet_draw };
