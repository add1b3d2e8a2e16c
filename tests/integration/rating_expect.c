/*
 * rating_expect.c: what a rated match must do to its players' ratings,
 * computed with the very C the server runs (rated.test.mjs compares the
 * server's figures with these). Reads an archived match (GET
 * /api/matches/{id}) on stdin, replays it through the rules core, takes
 * rules_standing() of its end and applies rating_apply() to the ratings
 * before it, given as argv[1]: a JSON array, one per seat, of
 * [rating, rd, vol, matches, last_at] or null (a player's first rated match:
 * RATING_INIT). Prints {"place":[...], "after":[[rating, rd, vol, matches,
 * last_at], ...]} with the doubles as %.17g (exact). Exit 0, or 2 with the
 * reason on stderr.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "rating/rating.h"
#include "rules.h"
#include "wire.h"

static struct rules_match last;

static void step_cb(const struct wire_archive_step *step, void *data)
{
	(void)data;
	last = *step->match;
}

int main(int argc, char **argv)
{
	struct rating before[RATING_MAX_SEATS], after[RATING_MAX_SEATS];
	uint8_t place[RULES_MAX_SEATS];
	struct wire_archive a;
	json_error_t jerr;
	json_t *arch, *bef;
	char why[256];
	int i, n;

	if (argc != 2) {
		fprintf(stderr, "usage: rating_expect BEFORE_JSON < archive.json\n");
		return 2;
	}
	arch = json_loadf(stdin, 0, &jerr);
	bef = json_loads(argv[1], 0, &jerr);
	if (!arch || !json_is_array(bef) || wire_archive_decode(arch, &a, why, sizeof(why))) {
		fprintf(stderr, "rating_expect: bad input\n");
		return 2;
	}
	if (wire_archive_replay(&a, step_cb, NULL, NULL, why, sizeof(why))) {
		fprintf(stderr, "rating_expect: the archive does not verify: %s\n", why);
		return 2;
	}
	n = a.nseats;
	if ((int)json_array_size(bef) != n) {
		fprintf(stderr, "rating_expect: %d seats, %zu ratings before\n", n, json_array_size(bef));
		return 2;
	}
	rules_standing(&last, place);
	for (i = 0; i < n; i++) {
		json_t *b = json_array_get(bef, (size_t)i);

		before[i] = RATING_INIT;
		if (json_is_array(b))
			before[i] = (struct rating){ json_number_value(json_array_get(b, 0)),
						     json_number_value(json_array_get(b, 1)),
						     json_number_value(json_array_get(b, 2)),
						     (int32_t)json_integer_value(json_array_get(b, 3)),
						     json_integer_value(json_array_get(b, 4)) };
	}
	if (rating_apply(n, before, place, a.ended_at, after)) {
		fprintf(stderr, "rating_expect: rating_apply refused %d seats\n", n);
		return 2;
	}
	printf("{\"place\":[");
	for (i = 0; i < n; i++)
		printf("%s%d", i ? "," : "", place[i]);
	printf("],\"after\":[");
	for (i = 0; i < n; i++)
		printf("%s[%.17g,%.17g,%.17g,%d,%lld]", i ? "," : "", after[i].rating, after[i].rd,
		       after[i].vol, (int)after[i].matches, (long long)after[i].last_at);
	printf("]}\n");
	wire_archive_finish(&a);
	json_decref(arch);
	json_decref(bef);
	return 0;
}
