/*
 * wasm_perft.c: perft_count() inside the WebAssembly build of the rules core
 * (protocol/wasm/), for tests/unit/rules_wasm.test.mjs, which compares its
 * counts with the pinned ones of tests/perft/<game>.txt that the C rules
 * tests check. Freestanding: the caller writes the seed into wasm_seed[].
 */
#include "perft.h"

unsigned char wasm_seed[RULES_SEED_SIZE];

/* The perft count of `depth` actions from the start of game `id` (a C string in memory) from wasm_seed[]. */
uint64_t wasm_perft(const char *id, int depth)
{
	const struct rules_game *g = rules_game_find(id);
	static struct rules_match m;

	if (!g || rules_match_start(&m, g, wasm_seed, NULL) < 0)
		return 0;
	return perft_count(&m, depth, PERFT_BULK);
}

/* Scratch memory of `n` bytes for the caller's strings (one at a time). */
char *wasm_scratch(int n)
{
	static char buf[64];

	return n > 0 && n <= (int)sizeof(buf) ? buf : 0;
}
