/*
 * quinteto_render.c: a Quinteto view (protocol/games/quinteto/README.md) as text.
 * The ring is the pentagon's five sides, a line each, clockwise (room 24 is
 * next to room 0): side s's rooms 5s..5s+4 (home 5s+2 in the middle), each
 * showing its stones by their seats ("2,4": one of hunter 2's, one of hunter
 * 4's; 5 is the arranger), and beside them the hunter of that side: its
 * marker's slot on the killing circle, whom it hunts, where each of its
 * stones is by id (as plans name them). Above: phase, turns, dice, the
 * circle, the roll-off while it runs, the duellists.
 */
#include <string.h>

#include "render.h"

static const char *where_of(const json_t *stones, size_t k)
{
	return json_string_value(json_object_get(json_array_get(stones, k), "where"));
}

static bool quinteto_check(const json_t *view, char *why, size_t whylen)
{
	static const struct cli_view_key keys[] = {
		{ "phase", JSON_STRING, 0, false },  { "dice", JSON_ARRAY, 2, true },
		{ "circle", JSON_ARRAY, 5, false },  { "stones", JSON_ARRAY, 18, false },
		{ "victim", JSON_ARRAY, 6, false },  { "rolloff", JSON_ARRAY, 5, true },
		{ "turns", JSON_INTEGER, 0, false }, { NULL, JSON_NULL, 0, false },
	};
	const json_t *stones = json_object_get(view, "stones");

	if (!cli_view_keys(view, keys, why, whylen))
		return false;
	if (!cli_dice_valid(json_object_get(view, "dice")))
		return cli_bad(why, whylen, "\"dice\" is not two dice 1..6");
	if (!cli_array_in(json_object_get(view, "circle"), 0, 4, true) ||
	    !cli_array_in(json_object_get(view, "victim"), 0, 5, true) ||
	    (!json_is_null(json_object_get(view, "rolloff")) &&
	     !cli_array_in(json_object_get(view, "rolloff"), 1, 6, true)))
		return cli_bad(why, whylen,
			       "\"circle\", \"victim\" or \"rolloff\" holds a value out of range");
	for (size_t k = 0; k < 18; k++) {
		const char *w = where_of(stones, k);
		bool room = w && strcmp(w, "room") == 0;

		if (!cli_int_in(json_object_get(json_array_get(stones, k), "seat"), 0, 5) || !w ||
		    (room ? !cli_int_in(json_object_get(json_array_get(stones, k), "room"), 0, 24)
			  : strcmp(w, "limbo") && strcmp(w, "marker") && strcmp(w, "reserve") &&
				     strcmp(w, "out")))
			return cli_bad(why, whylen, "stones[%zu] is not {seat 0..5, where, room 0..24}", k);
	}
	return true;
}

/* Seat `seat`'s columns after the bar: name, marker slot, victim, its stones on the ring and in limbo. */
static void seat_line(FILE *out, const json_t *view, const json_t *seats, int seat)
{
	const json_t *stones = json_object_get(view, "stones");
	const json_t *victim = json_array_get(json_object_get(view, "victim"), (size_t)seat);
	char slot[4] = "-", hunts[4] = "-";
	bool any = false;

	for (size_t i = 0; i < 5; i++) {
		if (cli_int_in(json_array_get(json_object_get(view, "circle"), i), seat, seat))
			snprintf(slot, sizeof(slot), "%zu", i + 1);
	}
	if (json_is_integer(victim))
		snprintf(hunts, sizeof(hunts), "%d", (int)json_integer_value(victim));
	fprintf(out, "| %d %-16.16s %4s %5s", seat, cli_seat_name(seats, seat), slot, hunts);
	for (size_t k = 3 * (size_t)seat; k < 3 * (size_t)seat + 3; k++) {
		if (strcmp(where_of(stones, k), "room") == 0)
			fprintf(out, " %zu@%lld", k,
				(long long)json_integer_value(
					json_object_get(json_array_get(stones, k), "room")));
		else if (strcmp(where_of(stones, k), "limbo") == 0)
			fprintf(out, " %zu@limbo", k);
		else
			continue;
		any = true;
	}
	if (!any && seat < 5 && strcmp(where_of(stones, 3 * (size_t)seat + 2), "out") == 0)
		fprintf(out, " eliminated"); /* its marker retired with it */
	else if (!any && seat == 5 && strcmp(where_of(stones, 15), "reserve") == 0)
		fprintf(out, " 15 16 in reserve, to be placed for the duel");
	fprintf(out, "\n");
}

/* The header lines: phase, turns and dice; the circle; the roll-off or the duellists when they matter. */
static void status_lines(FILE *out, const json_t *view, const json_t *seats)
{
	const char *phase = json_string_value(json_object_get(view, "phase"));
	const json_t *dice = json_object_get(view, "dice"), *x;
	const json_t *rival = json_array_get(json_object_get(view, "victim"), 5);
	size_t i;

	fprintf(out, "phase %s, %lld turns played, ", phase,
		(long long)json_integer_value(json_object_get(view, "turns")));
	cli_dice_print(out, dice);
	fprintf(out, "%s\ncircle (slots 1..5):",
		strcmp(phase, "over") == 0 && json_is_array(dice) ? ": a Quinteto" : "");
	json_array_foreach(json_object_get(view, "circle"), i, x)
	{
		fprintf(out, json_is_null(x) ? " -" : " %lld", (long long)json_integer_value(x));
	}
	fprintf(out, "%s\n", json_is_null(rival) ? "; each marker hunts the next one clockwise" : "");
	if (strcmp(phase, "rolloff") == 0) {
		fprintf(out, "roll-off:");
		json_array_foreach(json_object_get(view, "rolloff"), i, x)
		{
			fprintf(out, json_is_null(x) ? " %zu:-" : " %zu:%lld", i,
				(long long)json_integer_value(x));
		}
		fprintf(out, "\n");
	}
	if ((strcmp(phase, "place") == 0 || strcmp(phase, "duel") == 0) && cli_int_in(rival, 0, 4))
		fprintf(out, "duel: the arranger 5 (%s) against hunter %lld (%s)\n", cli_seat_name(seats, 5),
			(long long)json_integer_value(rival),
			cli_seat_name(seats, json_integer_value(rival)));
}

static void quinteto_draw(FILE *out, const json_t *view, const json_t *seats)
{
	const json_t *stones = json_object_get(view, "stones"), *st;
	char rooms[25][40] = { { 0 } }; /* each room's stones as seat digits, "2,4" */
	size_t k;

	json_array_foreach(stones, k, st)
	{
		if (strcmp(where_of(stones, k), "room") == 0) {
			char *cell = rooms[json_integer_value(json_object_get(st, "room"))];

			snprintf(cell + strlen(cell), 3, "%s%d", cell[0] ? "," : "",
				 (int)json_integer_value(json_object_get(st, "seat")));
		}
	}
	status_lines(out, view, seats);
	fprintf(out, "%-13s%6s%6s%6s%6s%6s %-20s %4s %5s stones\n", "side rooms", "+0", "+1", "home", "+3",
		"+4", "| seat", "slot", "hunts");
	for (int side = 0; side < 5; side++) {
		fprintf(out, "%-4d %2d..%-2d  ", side, 5 * side, 5 * side + 4);
		for (int r = 5 * side; r < 5 * side + 5; r++)
			fprintf(out, " %5s", rooms[r][0] ? rooms[r] : ".");
		fprintf(out, " ");
		seat_line(out, view, seats, side);
	}
	fprintf(out, "%-43s ", "arranger");
	seat_line(out, view, seats, 5);
}

const struct cli_render cli_render_quinteto = { .game = "quinteto",
						.check = quinteto_check,
						.draw = quinteto_draw };
