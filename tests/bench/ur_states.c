/*
 * ur_states.c: the size of the Royal Game of Ur's state space as this server
 * plays it (protocol/games/ur/README.md, "Perfect play?"), and what value
 * iteration over it would cost. A position is each seat's seven pieces as a
 * multiset of route indexes 0..24 (stacking is allowed), where no cell that
 * is not safe holds pieces of both colours travelling the same way (the one
 * landing would have captured the other). The count is a formula: 14 route
 * indexes either colour may use freely and 11 squares (M2, M3, M5, M6, M7 going
 * up; M8, M7, M6, M5, M3, M2 going down) that only one colour at a time may
 * occupy. `--check` compares the formula with a brute-force count over the
 * route table for 1..3 pieces a side (exit status 1 on a mismatch: a unit
 * test). Without it, it prints the count for 7 pieces, the bytes a table
 * would need and the rate of value-iteration backups on this machine (each
 * backup: the four throws, every legal action through the rules core, and a
 * rank of each resulting position), timed with the clock (a benchmark).
 */
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "rules.h"

#define INDEXES   25 /* route indexes 0..24 */
#define EXCLUSIVE 11 /* squares one colour at a time */

/* n choose k, exact in 64 bits for the sizes here. */
static uint64_t choose(int n, int k)
{
	uint64_t r = 1;

	if (k < 0 || k > n)
		return 0;
	for (int i = 1; i <= k; i++)
		r = r * (uint64_t)(n - k + i) / (uint64_t)i;
	return r;
}

/* Multisets of `pieces` over `cells` cells: C(pieces + cells - 1, pieces). */
static uint64_t multisets(int pieces, int cells)
{
	return cells == 0 ? pieces == 0 : choose(pieces + cells - 1, pieces);
}

/* One colour's multisets that occupy exactly a given `a` of the exclusive squares (and any free ones). */
static uint64_t side_with(int pieces, int a)
{
	int free = INDEXES - EXCLUSIVE;

	return pieces < a
		       ? 0
		       : multisets(pieces - a, free + a); /* one piece on each of the a, the rest anywhere */
}

/* Positions with `pieces` a side: both colours, never both on one exclusive square. */
static uint64_t positions(int pieces)
{
	uint64_t n = 0;

	for (int a = 0; a <= EXCLUSIVE; a++)
		for (int b = 0; a + b <= EXCLUSIVE; b++)
			n += choose(EXCLUSIVE, a) * choose(EXCLUSIVE - a, b) * side_with(pieces, a) *
			     side_with(pieces, b);
	return n;
}

/* The README's route D1 as cell names (column letter, row digit) for Light; Dark swaps L and K. */
static const char *const route[24] = {
	"",   "L4", "L3", "L2", "L1", "M1", "M2", "M3", "M4", "M5", "M6", "M7",
	"K7", "K8", "M8", "L8", "L7", "M7", "M6", "M5", "M4", "M3", "M2", "M1"
};

/* Whether pieces of both colours on squares t (Light) and u (Dark) would have captured one another. */
static bool clash(int t, int u)
{
	const char *a, *b;
	char bc;
	bool safe;

	if (t < 1 || t > 23 || u < 1 || u > 23)
		return false;
	a = route[t];
	b = route[u];
	bc = b[0] == 'L' ? 'K' : b[0] == 'K' ? 'L' : 'M';
	safe = strcmp(a, "L1") == 0 || strcmp(a, "K1") == 0 || strcmp(a, "M4") == 0 || strcmp(a, "L7") == 0 ||
	       strcmp(a, "K7") == 0 || strcmp(a, "M1") == 0;

	if (t < 1 || t > 23 || u < 1 || u > 23)
		return false;
	return a[0] == bc && a[1] == b[1] && !safe && (t >= 14) == (u >= 14);
}

/* Every multiset of `pieces` indexes (ascending) into list; returns how many. */
static int enumerate(int pieces, uint8_t list[][3])
{
	int n = 0, i;
	uint8_t p[3] = { 0 };

	for (;;) {
		memcpy(list[n++], p, sizeof(p));
		i = pieces - 1;
		while (i >= 0 && p[i] == INDEXES - 1)
			i--;
		if (i < 0)
			return n;
		p[i]++;
		for (int j = i + 1; j < pieces; j++)
			p[j] = p[i];
	}
}

static uint8_t sides[3000][3];

/* Brute force: every pair of multisets with no clashing pair of pieces. */
static uint64_t positions_brute(int pieces)
{
	int n = enumerate(pieces, sides);
	uint64_t count = 0;
	bool table[INDEXES][INDEXES];

	for (int t = 0; t < INDEXES; t++)
		for (int u = 0; u < INDEXES; u++)
			table[t][u] = clash(t, u);
	for (int x = 0; x < n; x++) {
		for (int y = 0; y < n; y++) {
			bool ok = true;

			for (int i = 0; i < pieces && ok; i++)
				for (int j = 0; j < pieces && ok; j++)
					ok = !table[sides[x][i]][sides[y][j]];
			count += ok;
		}
	}
	return count;
}

/* The rank of a sorted multiset of 7 indexes 0..24 (combinatorial number system on p[i] + i). */
static uint64_t side_rank(const uint8_t p[7])
{
	uint64_t r = 0;

	for (int i = 0; i < 7; i++)
		r += choose(p[i] + i, i + 1);
	return r;
}

/* Backups per second: positions met in random play, each backed up over its four throws as value iteration
 * would. */
static double backup_rate(uint64_t *sink)
{
	static const uint8_t values[4] = { 0, 1, 4, 5 };
	uint8_t seed[RULES_SEED_SIZE] = { 3 }, who[RULES_MAX_SEATS];
	struct rules_match m;
	struct timespec t0, t1;
	uint64_t rng = 88172645463325252ull, backups = 0;

	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (int match = 0; match < 200; match++) {
		seed[1] = (uint8_t)match;
		rules_match_start(&m, &rules_game_ur, seed, NULL);
		while (rules_to_act(&m, who) > 0) {
			struct rules_action all[16];
			int n;

			if (m.s.ur.phase == UR_PHASE_ROLL) {
				for (int v = 0; v < 4; v++) {
					struct rules_match c = m;
					int k;

					c.s.ur.value = values[v];
					c.s.ur.phase = UR_PHASE_MOVE;
					k = rules_legal_actions(&c, who[0], all, 16);
					for (int i = 0; i < k; i++) {
						struct rules_match d = c;

						rules_apply(&d, who[0], &all[i], NULL);
						*sink += side_rank(d.s.ur.pos[0]) ^ side_rank(d.s.ur.pos[1]);
					}
				}
				backups++;
			}
			n = rules_legal_actions(&m, who[0], all, 16);
			rng ^= rng << 13, rng ^= rng >> 7, rng ^= rng << 17;
			rules_apply(&m, who[0], &all[rng % (uint64_t)n], NULL);
		}
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	return (double)backups / ((double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9);
}

int main(int argc, char **argv)
{
	uint64_t sink = 0, n = positions(7);
	double rate, sweep;

	if (argc > 1 && strcmp(argv[1], "--check") == 0) {
		int bad = 0;

		for (int p = 1; p <= 3; p++) {
			uint64_t f = positions(p), b = positions_brute(p);

			printf("%sok %d - %d piece(s) a side: formula %llu, brute force %llu\n",
			       f == b ? "" : "not ", p, p, (unsigned long long)f, (unsigned long long)b);
			bad += f != b;
		}
		printf("1..3\n");
		return bad ? 1 : 0;
	}
	printf("one colour's placements (multisets of 7 over 25 indexes): %llu\n",
	       (unsigned long long)multisets(7, INDEXES));
	printf("positions (both colours, no shared exposed square): %llu\n", (unsigned long long)n);
	printf("positions waiting for a throw (x2 for whose turn): %llu\n", (unsigned long long)(2 * n));
	printf("table at 1 byte a position: %.1f TB; at 4 bytes (a float): %.1f TB\n", 2.0 * (double)n / 1e12,
	       8.0 * (double)n / 1e12);
	rate = backup_rate(&sink);
	sweep = 2.0 * (double)n / rate;
	printf("backups per second, one core: %.0f (sink %llu)\n", rate, (unsigned long long)(sink & 1));
	printf("one sweep over every position: %.0f s = %.1f days; value iteration needs tens of sweeps\n",
	       sweep, sweep / 86400.0);
	return 0;
}
