/*
 * perft.c: the perft helper of perft.h, shared by the rules tests of every
 * game. Pure counting over the rules interface; it prints only TAP comments
 * ("# ...") so that the test's own TAP lines stay the verdict.
 */
#include "perft.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

void perft_seed_parse(const char *hex, uint8_t seed[RULES_SEED_SIZE])
{
	for (int i = 0; i < RULES_SEED_SIZE; i++) {
		unsigned v = 0;

		sscanf(hex + 2 * i, "%2x", &v);
		seed[i] = (uint8_t)v;
	}
}

int perft_seed_line(const char *line, const struct rules_game *game, struct perft_case *c)
{
	uint8_t seed[RULES_SEED_SIZE];
	char hex[2 * RULES_SEED_SIZE + 1];
	int rc;

	if (sscanf(line, "%64s %d %llu", hex, &c->depth, &c->want) != 3)
		return 0;
	perft_seed_parse(hex, seed);
	rc = rules_match_start(&c->m, game, seed, NULL);
	return rc < 0 ? rc : 1;
}

int perft_file_run(const char *path, const struct rules_game *game, perft_line_cb reader, unsigned flags,
		   int *mismatches)
{
	FILE *f = fopen(path, "r");
	char line[256];
	int cases = 0, rc = 0;

	*mismatches = 0;
	if (!f)
		return -errno;
	while (rc >= 0 && fgets(line, sizeof(line), f)) {
		struct perft_case c;
		uint64_t got;

		if (line[0] == '#')
			continue;
		rc = (reader ? reader : perft_seed_line)(line, game, &c);
		if (rc <= 0)
			continue;
		got = perft_count(&c.m, c.depth, flags);
		if (got != c.want) {
			printf("# perft %.*s: %llu, want %llu\n", (int)strcspn(line, "\n"), line,
			       (unsigned long long)got, c.want);
			(*mismatches)++;
		}
		cases++;
	}
	fclose(f);
	return rc < 0 ? rc : cases;
}
