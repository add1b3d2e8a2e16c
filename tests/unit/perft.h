/*
 * perft.h: the perft count of the rules tests and the reader of their pinned
 * counts in tests/perft/<game>.txt. One helper for every game: a depth-first
 * count of the action sequences of a given length, over every seat to act
 * (Quinteto's simultaneous arrangement included), applying each action
 * through the rules core so that a refused legal action shows as a wrong
 * count. It knows no game; a test that pins hand-set positions passes its
 * own line reader.
 */
#ifndef QUINTETO_TEST_PERFT_H
#define QUINTETO_TEST_PERFT_H

#include <stddef.h>
#include <stdint.h>

#include "rules.h"

enum {
	PERFT_BULK = 1, /* at depth 1 count the legal list without applying it (Super 1 al 5's long runs) */
};

/* One line of a perft file, as a line reader sets it up. */
struct perft_case {
	struct rules_match m; /* the position counted from */
	int depth;
	unsigned long long want;
};

/*
 * Reads one line of a perft file into *c: returns 1 if it is a case, 0 if the
 * line is to be skipped (not a case), a negative code if it is a case that
 * cannot be set up (the run stops there).
 */
typedef int (*perft_line_cb)(const char *line, const struct rules_game *game, struct perft_case *c);

/*
 * The number of action sequences of exactly `depth` actions from `m`
 * (borrowed, untouched); 0 below a refused action. `flags`: PERFT_BULK or 0.
 */
uint64_t perft_count(const struct rules_match *m, int depth, unsigned flags);

/* Reads a seed of RULES_SEED_SIZE bytes from `hex` (2 * RULES_SEED_SIZE hex digits). */
void perft_seed_parse(const char *hex, uint8_t seed[RULES_SEED_SIZE]);

/*
 * The common line reader: "<seed hex> <depth> <count>", a match of `game`
 * started from that seed. Returns as perft_line_cb does.
 */
int perft_seed_line(const char *line, const struct rules_game *game, struct perft_case *c);

/*
 * Counts every case of the perft file at `path` ('#' lines are comments;
 * `reader` reads the others, perft_seed_line if NULL) and compares it with its
 * pinned count, printing a TAP comment for each mismatch. Returns the number
 * of cases read and sets *mismatches; -errno if the file cannot be read, or
 * the reader's negative code for a case it could not set up.
 */
int perft_file_run(const char *path, const struct rules_game *game, perft_line_cb reader, unsigned flags,
		   int *mismatches);

#endif
