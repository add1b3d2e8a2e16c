/*
 * text_trace.c: random matches of every game through the rules core and the
 * text codecs, natively, reduced to one FNV-1a digest per game; the Node test
 * rules_wasm.test.mjs plays the same matches through the WebAssembly module
 * (clients/web/rules-core.js) and must get the same digests: the same views,
 * seats to act, legal lists, outcomes, events and results, byte for byte.
 *
 * Usage: text_trace MATCHES. Prints "<game> <matches> <steps> <digest>" per game.
 * The matches (both sides must agree on every detail): match i's seed is 32
 * zero bytes with i in bytes 0..3 little-endian and 0x33 in byte 31; the LCG
 * s = s * 1664525 + 1013904223 (mod 2^32), starting at i + 1, drawn as s >> 8;
 * a step draws the seat among the seats to act, then one draw: 0 mod 300 makes
 * that seat resign, else the next draw picks the legal action. At most 4,000
 * steps a match. Digested per step: the view, the to_act bits as decimal
 * text, the chosen seat's legal list, at every eighth step (0, 8, ...) what
 * each of the game's bot levels (bot_levels() order) would play there from
 * the stream 1 + step (the index
 * in that list as decimal text, then, when the level estimates, each seat's
 * estimate as the decimal text of its float's bits: the estimate crosses the
 * module's boundary unchanged), the outcome (or "resign"), and at the end
 * the result. The bots search in an arena of the module's size (exports.c).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bots.h"
#include "text.h"

#define MAX_STEPS 4000

static char buf[1 << 20];
static struct rules_action legal[RULES_MAX_LEGAL];
static _Alignas(16) unsigned char arena[(size_t)4 << 20]; /* exports.c's ARENA_SIZE */

static uint32_t fnv(uint32_t h, const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		h = (h ^ (uint8_t)s[i]) * 16777619u;
	return h;
}

static uint32_t draw(uint32_t *s)
{
	*s = *s * 1664525u + 1013904223u;
	return *s >> 8;
}

/* What each bot level of the game would play for `seat` (n legal actions in legal[]), digested. */
static uint32_t bots_digest(uint32_t h, const struct rules_match *m, int seat, uint64_t rng0, int n)
{
	const struct bot_strategy *b;
	char num[16];

	for (int l = 0; (b = bot_level_at(m->game->id, l)); l++) {
		struct rules_action a;
		struct bot_ctx ctx = { .rng = rng0,
				       .budget = 64, /* a small budget: a search is slow, not different */
				       .arena = arena,
				       .arena_size = sizeof(arena) };
		int i = -1;

		if (bot_choose(b, m, seat, &ctx, &a) == 0)
			for (i = 0; i < n && memcmp(&legal[i], &a, sizeof(a)) != 0; i++)
				;
		h = fnv(h, num, (size_t)snprintf(num, sizeof(num), "%d", i));
		for (int k = 0; i >= 0 && ctx.has_estimate && k < m->game->seats; k++) {
			uint32_t bits;

			memcpy(&bits, &ctx.estimate[k], sizeof(bits));
			h = fnv(h, num, (size_t)snprintf(num, sizeof(num), "%u", (unsigned)bits));
		}
	}
	return h;
}

int main(int argc, char **argv)
{
	int matches = argc > 1 ? atoi(argv[1]) : 100;

	for (int gi = 0; rules_games[gi]; gi++) {
		const struct rules_game *g = rules_games[gi];
		const struct text_game *tg = text_game_find(g->id);
		uint32_t h = 2166136261u;
		long steps = 0;

		if (!tg)
			continue;
		for (int i = 0; i < matches; i++) {
			static struct rules_match m;
			uint8_t seed[RULES_SEED_SIZE] = { 0 }, act[RULES_MAX_SEATS];
			uint32_t s = (uint32_t)i + 1;
			struct rules_result r;
			union rules_outcome out;
			struct jw w;
			char bits[8];

			memcpy(seed, &i, 4);
			seed[31] = 0x33;
			if (rules_match_start(&m, g, seed, NULL))
				return 2;
			for (int k = 0; k < MAX_STEPS; k++) {
				int nact = rules_to_act(&m, act), seat, n, b = 0;

				jw_init(&w, buf, sizeof(buf));
				tg->view(&w, &m);
				h = fnv(h, buf, w.len);
				for (int j = 0; j < nact; j++)
					b |= 1 << act[j];
				h = fnv(h, bits, (size_t)snprintf(bits, sizeof(bits), "%d", b));
				if (!nact)
					break;
				steps++;
				seat = act[draw(&s) % (uint32_t)nact];
				n = rules_legal_actions(&m, seat, legal, RULES_MAX_LEGAL);
				jw_init(&w, buf, sizeof(buf));
				jw_arr(&w);
				for (int j = 0; j < n; j++)
					tg->action(&w, &legal[j]);
				jw_arr_end(&w);
				h = fnv(h, buf, w.len);
				if (k % 8 ==
				    0) /* the bots think long (greedy tries every action): a step in eight */
					h = bots_digest(h, &m, seat, (uint64_t)k + 1, n);
				if (draw(&s) % 300 == 0) {
					if (rules_event(&m, seat, RULES_EVENT_RESIGN, NULL))
						return 2;
					h = fnv(h, "resign", 6);
					continue;
				}
				struct rules_action a = legal[draw(&s) % (uint32_t)n];

				if (rules_apply(&m, seat, &a, &out))
					return 2;
				jw_init(&w, buf, sizeof(buf));
				tg->outcome(&w, &m, &a, &out);
				h = fnv(h, buf, w.len);
			}
			rules_result(&m, &r);
			jw_init(&w, buf, sizeof(buf));
			tg->result(&w, &r);
			h = fnv(h, buf, w.len);
		}
		printf("%s %d %ld %08x\n", g->id, matches, steps, h);
	}
	return 0;
}
