/*
 * quinteto_playouts.c: the Quinteto playout report of protocol/games/quinteto/README.md, run as
 * `build/tests/bench/quinteto-playouts [matches] [max_turns]`. Plays random
 * matches the way bench.c does (a uniformly random seat among those to act,
 * a uniformly random legal action), from match seeds 0, 1, 2, ..., and prints
 * the distribution of match length in actions and in turns, phase 1's length,
 * and how each match ended (a duel, a Quinteto, max_turns). Deterministic:
 * the same arguments print the same report. Not a test; nothing is asserted.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rules.h"

#define MAX_MATCHES 1000000

static struct rules_action legal[RULES_MAX_LEGAL];
static uint32_t actions_of[MAX_MATCHES], turns_of[MAX_MATCHES], phase1_of[MAX_MATCHES];

static uint64_t lcg(uint64_t *s)
{
	*s = *s * 6364136223846793005ull + 1442695040888963407ull;
	return *s >> 33;
}

static int cmp_u32(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return x < y ? -1 : x > y;
}

/* min, percentiles, max and mean of v[0..n) (sorted here). */
static void distribution(const char *name, uint32_t *v, int n)
{
	static const int pct[] = { 10, 25, 50, 75, 90, 99 };
	double sum = 0;

	qsort(v, (size_t)n, sizeof(*v), cmp_u32);
	for (int i = 0; i < n; i++)
		sum += v[i];
	printf("| %s | %u |", name, v[0]);
	for (size_t k = 0; k < sizeof(pct) / sizeof(pct[0]); k++)
		printf(" %u |", v[(size_t)n * (size_t)pct[k] / 100]);
	printf(" %u | %.1f |\n", v[n - 1], sum / n);
}

/* Plays match `i`; returns its result, lengths in *actions, *turns and *phase1 (turns before `place`). */
static struct rules_result play(int i, const struct rules_options *opt, uint64_t *s, uint32_t *actions,
				uint32_t *turns, uint32_t *phase1)
{
	uint8_t seed[RULES_SEED_SIZE] = { 0 }, to_act[RULES_MAX_SEATS];
	struct rules_match m;
	struct rules_result r;
	int k;

	memcpy(seed, &i, sizeof(i));
	rules_match_start(&m, &rules_game_quinteto, seed, opt);
	*phase1 = 0;
	while ((k = rules_to_act(&m, to_act)) > 0) {
		int seat = to_act[lcg(s) % (uint64_t)k];
		int n = rules_legal_actions(&m, seat, legal, RULES_MAX_LEGAL);

		if (n <= 0 || n > RULES_MAX_LEGAL ||
		    rules_apply(&m, seat, &legal[lcg(s) % (uint64_t)n], NULL))
			abort();
		if (!*phase1 && m.s.quinteto.survivor != QUINTETO_NONE)
			*phase1 = m.s.quinteto.turns;
	}
	*actions = m.ply;
	*turns = m.s.quinteto.turns;
	rules_result(&m, &r);
	return r;
}

int main(int argc, char **argv)
{
	int matches = argc > 1 ? atoi(argv[1]) : 100000;
	struct rules_options opt = { .max_turns = argc > 2 ? atoi(argv[2]) : 0 };
	int reasons[16] = { 0 }, survivor_wins = 0, arranger_wins = 0, nphase1 = 0;
	uint64_t s = 1;

	if (matches < 1 || matches > MAX_MATCHES)
		return 2;
	for (int i = 0; i < matches; i++) {
		uint32_t p1;
		struct rules_result r = play(i, &opt, &s, &actions_of[i], &turns_of[i], &p1);

		reasons[r.reason]++;
		arranger_wins += !r.draw && r.winner == QUINTETO_ARRANGER;
		survivor_wins += !r.draw && r.winner >= 0 && r.winner < QUINTETO_ARRANGER;
		if (p1)
			phase1_of[nphase1++] = p1;
	}
	printf("%d random matches, max_turns %d\n\n", matches, opt.max_turns ? opt.max_turns : 2000);
	printf("| length | min | p10 | p25 | median | p75 | p90 | p99 | max | mean |\n");
	printf("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |\n");
	distribution("actions (plies)", actions_of, matches);
	distribution("turns", turns_of, matches);
	if (nphase1)
		distribution("turns in phase 1", phase1_of, nphase1);
	printf("\n| ended by | matches | share |\n| --- | --- | --- |\n");
	printf("| duel (all stones removed) | %d | %.2f%% |\n", reasons[RULES_REASON_DUEL],
	       100.0 * reasons[RULES_REASON_DUEL] / matches);
	printf("| Quinteto (5 and 5 in the duel) | %d | %.2f%% |\n", reasons[RULES_REASON_QUINTETO],
	       100.0 * reasons[RULES_REASON_QUINTETO] / matches);
	printf("| max_turns (a draw) | %d | %.2f%% |\n", reasons[RULES_REASON_MAX_TURNS],
	       100.0 * reasons[RULES_REASON_MAX_TURNS] / matches);
	printf("\nwinners: arranger %d (%.1f%%), survivor %d (%.1f%%)\n", arranger_wins,
	       100.0 * arranger_wins / matches, survivor_wins, 100.0 * survivor_wins / matches);
	return 0;
}
