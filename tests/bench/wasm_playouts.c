/*
 * wasm_playouts.c: the same random playouts built natively and into a
 * WebAssembly module of their own (tests/bench/meson.build), so that
 * wasm_bench.mjs can set the module's speed against the native build's on
 * this machine: per action, rules_legal_actions + rules_apply ("rules"), and
 * the same with the view and the outcome written as text after every action,
 * what a replay's derivation does ("text").
 *
 * Natively: wasm-playouts-native ROUNDS prints, per game with a text codec,
 * "<game> rules <median ns/action> text <median ns/action>".
 */
#include <stdint.h>
#include <string.h>

#include "text.h"

/* The module's exports (wasm_bench.mjs calls them). */
uint32_t bench_playouts(int gi, int matches, int with_text);
int bench_game_count(void);
int bench_has_text(int gi);

static struct rules_action legal[RULES_MAX_LEGAL];
static char buf[1 << 16];

/* Plays `matches` random matches of game gi; returns the actions applied. */
uint32_t bench_playouts(int gi, int matches, int with_text)
{
	const struct rules_game *g = rules_games[gi];
	const struct text_game *tg = text_game_find(g->id);
	uint32_t actions = 0, s = 12345;

	for (int i = 0; i < matches; i++) {
		static struct rules_match m;
		uint8_t seed[RULES_SEED_SIZE] = { 0 }, act[RULES_MAX_SEATS];
		union rules_outcome out;
		struct jw w;
		int nact, n, seat;

		memcpy(seed, &i, sizeof(i));
		rules_match_start(&m, g, seed, NULL);
		while ((nact = rules_to_act(&m, act)) > 0) {
			s = s * 1664525u + 1013904223u;
			seat = act[(s >> 8) % (uint32_t)nact];
			n = rules_legal_actions(&m, seat, legal, RULES_MAX_LEGAL);
			s = s * 1664525u + 1013904223u;
			if (n <= 0 || rules_apply(&m, seat, &legal[(s >> 8) % (uint32_t)n], &out))
				break;
			actions++;
			if (with_text && tg) {
				jw_init(&w, buf, sizeof(buf));
				tg->outcome(&w, &m, &legal[(s >> 8) % (uint32_t)n], &out);
				jw_init(&w, buf, sizeof(buf));
				tg->view(&w, &m);
			}
		}
	}
	return actions;
}

int bench_game_count(void)
{
	int n = 0;

	while (rules_games[n])
		n++;
	return n;
}

int bench_has_text(int gi)
{
	return text_game_find(rules_games[gi]->id) != NULL;
}

#ifndef __wasm__
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
	int rounds = argc > 1 ? atoi(argv[1]) : 7;
	double ns[2][64];

	if (rounds < 1 || rounds > 64)
		rounds = 7;
	for (int gi = 0; rules_games[gi]; gi++) {
		if (!bench_has_text(gi))
			continue;
		for (int t = 0; t < 2; t++) {
			for (int r = 0; r < rounds; r++) {
				double t0 = now_s();
				uint32_t n = bench_playouts(gi, 200, t);

				ns[t][r] = (now_s() - t0) * 1e9 / (n ? n : 1);
			}
			qsort(ns[t], (size_t)rounds, sizeof(double), cmp);
		}
		printf("%s rules %.1f text %.1f\n", rules_games[gi]->id, ns[0][rounds / 2],
		       ns[1][rounds / 2]);
	}
	return 0;
}
#endif
