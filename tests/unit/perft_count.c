/*
 * perft_count.c: perft_count() of perft.h, apart from the file reading of
 * perft.c because it needs nothing but the rules core: the same function
 * counts in the C rules tests and inside the WebAssembly build of the rules
 * core (tests/unit/wasm_perft.c), so the two are compared on the same counts.
 */
#include "perft.h"

uint64_t perft_count(const struct rules_match *m, int depth, unsigned flags)
{
	struct rules_action l[RULES_MAX_LEGAL];
	uint8_t seats[RULES_MAX_SEATS];
	uint64_t total = 0;
	int k;

	if (depth == 0)
		return 1;
	k = rules_to_act(m, seats);
	for (int si = 0; si < k; si++) {
		int n = rules_legal_actions(m, seats[si], l, RULES_MAX_LEGAL);

		if (depth == 1 && (flags & PERFT_BULK)) {
			total += (uint64_t)n;
			continue;
		}
		for (int i = 0; i < n; i++) {
			struct rules_match child = *m;

			if (rules_apply(&child, seats[si], &l[i], NULL) != 0)
				return 0;
			total += perft_count(&child, depth - 1, flags);
		}
	}
	return total;
}
