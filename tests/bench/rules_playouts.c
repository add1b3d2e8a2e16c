/*
 * rules_playouts.c: random playouts of one game through the rules core and
 * nothing else, for counting instructions per action under callgrind (a
 * count does not move with the machine's load; docs/BENCHMARKS.md, issue 24):
 *   valgrind --tool=callgrind build-release/tests/bench/rules-playouts super15 50
 * then the total instructions over the actions printed. Plays as bench.c
 * does (a random seat among those to act, a random legal action, match
 * seeds 0, 1, 2, ...) and prints the actions applied; with a third argument
 * `digest`, also a digest (FNV-1a) of every legal list, outcome and result,
 * so that two builds can be shown to play the same matches (hashing costs
 * more instructions than the rules: leave it out when counting).
 * Deterministic; not a test.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rules.h"

static struct rules_action legal[RULES_MAX_LEGAL];

static uint64_t lcg(uint64_t *s)
{
	*s = *s * 6364136223846793005ull + 1442695040888963407ull;
	return *s >> 33;
}

static uint64_t fnv(uint64_t h, const void *p, size_t n)
{
	const unsigned char *c = p;

	for (size_t i = 0; i < n; i++)
		h = (h ^ c[i]) * 1099511628211ull;
	return h;
}

int main(int argc, char **argv)
{
	const struct rules_game *g = rules_game_find(argc > 1 ? argv[1] : "super15");
	int matches = argc > 2 ? atoi(argv[2]) : 50;
	bool with_digest = argc > 3 && strcmp(argv[3], "digest") == 0;
	uint64_t s = 1, actions = 0, digest = 14695981039346656037ull;

	if (!g || matches < 1) {
		fprintf(stderr, "usage: rules-playouts GAME [MATCHES [digest]]\n");
		return 2;
	}
	for (int i = 0; i < matches; i++) {
		uint8_t seed[RULES_SEED_SIZE] = { 0 }, to_act[RULES_MAX_SEATS];
		struct rules_match m;
		struct rules_result r;
		int k;

		memcpy(seed, &i, sizeof(i));
		rules_match_start(&m, g, seed, NULL);
		while ((k = rules_to_act(&m, to_act)) > 0) {
			int seat = to_act[lcg(&s) % (uint64_t)k];
			int n = rules_legal_actions(&m, seat, legal, RULES_MAX_LEGAL);
			union rules_outcome o;

			if (n <= 0 || n > RULES_MAX_LEGAL ||
			    rules_apply(&m, seat, &legal[lcg(&s) % (uint64_t)n], &o))
				return 1;
			if (with_digest)
				digest = fnv(fnv(digest, legal, (size_t)n * sizeof(legal[0])), &o, sizeof(o));
			actions++;
		}
		rules_result(&m, &r);
		digest = fnv(digest, &r, sizeof(r));
	}
	printf("%s: %d matches, %llu actions", g->id, matches, (unsigned long long)actions);
	if (with_digest)
		printf(", digest %016llx", (unsigned long long)digest);
	printf("\n");
	return 0;
}
