/*
 * super15_render.c: a Super 1 al 5 view (protocol/games/super15/README.md) as text:
 * the 8x10 board with rank 10 at the top, files a..h and ranks labelled as
 * the wire names squares (an action's "b1" is read off the edges). A piece is
 * its side's letter and its value ("L3" Light, "D5" Dark), a Super marked
 * "*"; "##" are the forbidden squares d5 e5 d6 e6. Below, for each side: its
 * pieces on the board, its points and the pieces that hold points, then the
 * quiet plies the adjudication counts.
 *
 *          a   b   c   d   e   f   g   h
 *    10   D5  D4  D3  D2  D2  D3  D4  D5   10
 *     6    .   .   .  ##  ##   .   .   .    6
 */
#include <string.h>

#include "render.h"

#define S15_FILES 8
#define S15_RANKS 10

/* The index (rank-1)*8 + file of a square name "a1".."h10", or -1. */
static int square_index(const char *sq)
{
	size_t n = sq ? strlen(sq) : 0;
	int file, rank;

	if (n < 2 || n > 3 || sq[0] < 'a' || sq[0] > 'h' || sq[1] < '1' || sq[1] > '9')
		return -1;
	file = sq[0] - 'a';
	rank = sq[1] - '0';
	if (n == 3 && (rank != 1 || sq[2] != '0'))
		return -1;
	if (n == 3)
		rank = 10;
	return (rank - 1) * S15_FILES + file;
}

static bool forbidden(int file, int rank)
{
	return (file == 3 || file == 4) && (rank == 5 || rank == 6);
}

static bool super15_check(const json_t *view, char *why, size_t whylen)
{
	static const struct cli_view_key keys[] = {
		{ "pieces", JSON_ARRAY, 0, false },
		{ "quiet", JSON_INTEGER, 0, false },
		{ NULL, JSON_NULL, 0, false },
	};
	const json_t *p;
	size_t i;

	if (!cli_view_keys(view, keys, why, whylen))
		return false;
	json_array_foreach(json_object_get(view, "pieces"), i, p)
	{
		if (!cli_int_in(json_object_get(p, "seat"), 0, 1) ||
		    square_index(json_string_value(json_object_get(p, "square"))) < 0 ||
		    !cli_int_in(json_object_get(p, "value"), 1, 5) ||
		    !cli_int_in(json_object_get(p, "points"), 0, 10000) ||
		    !json_is_boolean(json_object_get(p, "super")))
			return cli_bad(
				why, whylen,
				"pieces[%zu] is not {seat 0..1, square a1..h10, value 1..5, points, super}",
				i);
	}
	return true;
}

/* A piece as its board cell: "L3", "D5*". */
static void piece(char *cell, size_t len, const json_t *p)
{
	snprintf(cell, len, "%c%lld%s", json_integer_value(json_object_get(p, "seat")) ? 'D' : 'L',
		 (long long)json_integer_value(json_object_get(p, "value")),
		 json_is_true(json_object_get(p, "super")) ? "*" : "");
}

static void files_line(FILE *out)
{
	fprintf(out, "   ");
	for (int f = 0; f < S15_FILES; f++)
		fprintf(out, "%4c", 'a' + f);
	fprintf(out, "\n");
}

/* Side `seat`'s line: its pieces, its points, and where the pieces with points stand. */
static void side_line(FILE *out, const json_t *pieces, const json_t *seats, int seat)
{
	json_int_t count = 0, points = 0;
	const json_t *p;
	bool first = true;
	char cell[8];
	size_t i;

	json_array_foreach(pieces, i, p)
	{
		count += json_integer_value(json_object_get(p, "seat")) == seat;
		points += json_integer_value(json_object_get(p, "seat")) == seat
				  ? json_integer_value(json_object_get(p, "points"))
				  : 0;
	}
	fprintf(out, "%c %-5s %-16.16s %2lld pieces, %3lld points", seat ? 'D' : 'L', seat ? "dark" : "light",
		cli_seat_name(seats, seat), (long long)count, (long long)points);
	json_array_foreach(pieces, i, p)
	{
		if (json_integer_value(json_object_get(p, "seat")) != seat ||
		    !json_integer_value(json_object_get(p, "points")))
			continue;
		piece(cell, sizeof(cell), p);
		fprintf(out, "%s %s %s=%lld", first ? ":" : ",",
			json_string_value(json_object_get(p, "square")), cell,
			(long long)json_integer_value(json_object_get(p, "points")));
		first = false;
	}
	fprintf(out, "\n");
}

static void super15_draw(FILE *out, const json_t *view, const json_t *seats)
{
	const json_t *board[S15_RANKS * S15_FILES] = { NULL }, *pieces = json_object_get(view, "pieces"), *p;
	char cell[8];
	size_t i;

	json_array_foreach(pieces, i, p)
	{
		board[square_index(json_string_value(json_object_get(p, "square")))] = p;
	}
	files_line(out);
	for (int rank = S15_RANKS; rank >= 1; rank--) {
		fprintf(out, "%2d ", rank);
		for (int f = 0; f < S15_FILES; f++) {
			p = board[(rank - 1) * S15_FILES + f];
			if (p)
				piece(cell, sizeof(cell), p);
			else
				snprintf(cell, sizeof(cell), "%s", forbidden(f, rank) ? "##" : ".");
			fprintf(out, "%4s", cell);
		}
		fprintf(out, "  %2d\n", rank);
	}
	files_line(out);
	side_line(out, pieces, seats, 0);
	side_line(out, pieces, seats, 1);
	fprintf(out,
		"L3: a Light piece of value 3, D a Dark one, * a Super, ## forbidden; quiet %lld (plies "
		"since "
		"the last capture)\n",
		(long long)json_integer_value(json_object_get(view, "quiet")));
}

const struct cli_render cli_render_super15 = { .game = "super15",
					       .check = super15_check,
					       .draw = super15_draw };
