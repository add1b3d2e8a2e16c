/*
 * laquet_report.c: the figures of protocol/games/laquet/README.md, from random Laquet
 * matches played through the rules core (`build/tests/bench/laquet-report
 * [matches]`, default 100,000). Each seat picks uniformly among its legal
 * actions, as the playout test and the benchmark do. It counts match length
 * (actions, turns), how often a roll passes, how often a plan leaves a die
 * that is handed over, how often the opponent can use it and does, the
 * longest run of turns in a row in which nothing moved, who wins, and the
 * CPU time it took (clock()). Not a test: it asserts nothing; the invariants
 * are in tests/unit.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "rules.h"

#define MAX_PLIES 100000

static struct rules_action legal[RULES_MAX_LEGAL];

static uint64_t lcg(uint64_t *s)
{
	*s = *s * 6364136223846793005ull + 1442695040888963407ull;
	return *s >> 33;
}

static int cmp_int(const void *a, const void *b)
{
	return *(const int *)a - *(const int *)b;
}

struct tally {
	long turns, rolls, passes, pass_bonus, plans, one_step, one_step_bonus;
	long bonus_offered, bonus_taken, bonus_dice, bonus_dice_used;
	long wins[2], legal_sum, legal_n;
	int legal_max, pass_run_max, stuck_over_5;
};

/* Plays one match; returns its actions, or -1 if it did not end within MAX_PLIES. */
static int play(int i, uint64_t *s, struct tally *t, int *turns_out)
{
	struct rules_match m;
	uint8_t seed[RULES_SEED_SIZE] = { 0 }, who[RULES_MAX_SEATS];
	int plies = 0, turns = 0, run = 0;
	struct rules_result r;

	memcpy(seed, &i, sizeof(i));
	seed[31] = 0x1a;
	rules_match_start(&m, &rules_game_laquet, seed, NULL);
	while (rules_to_act(&m, who) > 0 && plies < MAX_PLIES) {
		int n = rules_legal_actions(&m, who[0], legal, RULES_MAX_LEGAL);
		const struct rules_action *a = &legal[lcg(s) % (uint64_t)n];
		union rules_outcome o;

		t->legal_sum += n;
		t->legal_n++;
		t->legal_max = n > t->legal_max ? n : t->legal_max;
		if (a->kind == LAQUET_ACT_BONUS) {
			t->bonus_offered++;
			t->bonus_dice += m.s.laquet.nhanded;
			t->bonus_taken += a->arg[0] > 0;
			t->bonus_dice_used += a->arg[0];
			run = a->arg[0] > 0 ? 0 : run;
		}
		rules_apply(&m, who[0], a, &o);
		plies++;
		if (a->kind == LAQUET_ACT_ROLL) {
			turns++;
			t->rolls++;
			if (o.laquet.passed) {
				t->passes++;
				t->pass_bonus += o.laquet.bonus;
				run++;
				t->pass_run_max = run > t->pass_run_max ? run : t->pass_run_max;
				t->stuck_over_5 += run == 6;
			}
		} else if (a->kind == LAQUET_ACT_PLAN) {
			run = 0;
			t->plans++;
			if (a->arg[0] == 1 && !o.laquet.won) {
				t->one_step++;
				t->one_step_bonus += o.laquet.bonus;
			}
		}
	}
	rules_result(&m, &r);
	if (!r.over)
		return -1;
	t->wins[r.winner]++;
	t->turns += turns;
	*turns_out = turns;
	return plies;
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 100000, unfinished = 0;
	int *len = calloc((size_t)n, sizeof(int)), *turns = calloc((size_t)n, sizeof(int));
	struct tally t;
	uint64_t s = 12345;
	double sum = 0, cpu;
	clock_t t0 = clock();

	if (!len || !turns || n <= 0) {
		free(len);
		free(turns);
		return 2;
	}
	memset(&t, 0, sizeof(t));
	for (int i = 0; i < n; i++) {
		len[i] = play(i, &s, &t, &turns[i]);
		unfinished += len[i] < 0;
		sum += len[i];
	}
	cpu = (double)(clock() - t0) / CLOCKS_PER_SEC;
	qsort(len, (size_t)n, sizeof(int), cmp_int);
	qsort(turns, (size_t)n, sizeof(int), cmp_int);
	printf("matches %d, unfinished %d, %.0f matches per CPU second (with this program's counting)\n", n,
	       unfinished, n / cpu);
	printf("actions per match: mean %.1f, min %d, median %d, p99 %d, max %d\n", sum / n, len[0],
	       len[n / 2], len[n - n / 100 - 1], len[n - 1]);
	printf("turns (rolls) per match: mean %.1f, min %d, median %d, p99 %d, max %d\n", (double)t.turns / n,
	       turns[0], turns[n / 2], turns[n - n / 100 - 1], turns[n - 1]);
	printf("wins: white %ld (%.1f%%), black %ld\n", t.wins[0], 100.0 * t.wins[0] / n, t.wins[1]);
	printf("rolls that pass (nothing to play): %ld of %ld (%.2f%%); the opponent could use the dice in "
	       "%ld\n",
	       t.passes, t.rolls, 100.0 * t.passes / t.rolls, t.pass_bonus);
	printf("plans of one step (a die handed over): %ld of %ld (%.2f%%); the opponent could use it in "
	       "%ld\n",
	       t.one_step, t.plans, 100.0 * t.one_step / t.plans, t.one_step_bonus);
	printf("dice handed over per match: %.2f; bonus offered per match %.2f, taken (not []) %.1f%% of the "
	       "time\n",
	       (2.0 * t.passes + t.one_step) / n, (double)t.bonus_offered / n,
	       t.bonus_offered ? 100.0 * t.bonus_taken / t.bonus_offered : 0.0);
	printf("longest run of passes in a row: %d; runs reaching 6: %d\n", t.pass_run_max, t.stuck_over_5);
	printf("legal actions per decision: mean %.1f, max %d\n", (double)t.legal_sum / t.legal_n,
	       t.legal_max);
	free(len);
	free(turns);
	return 0;
}
