/*
 * bench.c: micro-benchmarks of the paths every action takes, run as
 * `build/tests/bench/quinteto-bench [rounds]`. Each measurement is repeated
 * `rounds` times (default 7) and the median is printed with the spread, since
 * these machines are small and noisy. Results go to docs/BENCHMARKS.md.
 *
 *   rules: random Ur playouts through rules_legal_actions + rules_apply
 *   state: wire_state_new + compact serialisation of a mid-game Ur state,
 *          the work the server does once per change (not per recipient)
 *   legal: the per-seat `legal` frame on top of it
 *   decode: wire_msg_decode + action decode of a typical `act` frame
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "wire.h"

static struct rules_action legal[RULES_MAX_LEGAL];

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static uint64_t lcg(uint64_t *s)
{
	*s = *s * 6364136223846793005ull + 1442695040888963407ull;
	return *s >> 33;
}

/* Plays `matches` random Ur matches; returns the actions applied. */
static uint64_t playouts(int matches, uint64_t seed)
{
	const struct rules_game *g = rules_game_find("ur");
	uint64_t actions = 0, s = seed;
	int i;

	for (i = 0; i < matches; i++) {
		struct rules_match m;
		uint8_t ms[RULES_SEED_SIZE] = {0}, to_act[RULES_MAX_SEATS];
		struct rules_result res;

		memcpy(ms, &i, sizeof(i));
		rules_match_start(&m, g, ms, NULL);
		for (rules_result(&m, &res); !res.over; rules_result(&m, &res)) {
			int seat, n;

			rules_to_act(&m, to_act);
			seat = to_act[0];
			n = rules_legal_actions(&m, seat, legal, RULES_MAX_LEGAL);
			rules_apply(&m, seat, &legal[lcg(&s) % (uint64_t)n], NULL);
			actions++;
		}
	}
	return actions;
}

/* A mid-game match: 60 random actions from a fixed seed. */
static void midgame(struct rules_match *m)
{
	uint8_t ms[RULES_SEED_SIZE] = {7}, to_act[RULES_MAX_SEATS];
	uint64_t s = 1;
	int i;

	rules_match_start(m, rules_game_find("ur"), ms, NULL);
	for (i = 0; i < 60; i++) {
		int n;

		rules_to_act(m, to_act);
		n = rules_legal_actions(m, to_act[0], legal, RULES_MAX_LEGAL);
		rules_apply(m, to_act[0], &legal[lcg(&s) % (uint64_t)n], NULL);
	}
}

static void fill_room(struct wire_room *w, const struct rules_match *m, const struct wire_room_options *ro)
{
	memset(w, 0, sizeof(*w));
	w->id = "bench00001";
	w->game = m->game;
	w->codec = wire_game_find("ur");
	w->status = "playing";
	w->match = m;
	w->seats[0].name = "Ana";
	w->seats[0].connected = true;
	w->seats[1].name = "Random bot 2";
	w->seats[1].bot = w->seats[1].connected = true;
	w->room_options = ro;
	w->commit = "6d45f6ddb308c49948cfe7bdc853bc22ca3aa1e7999f0cf78b91986f170ad90e";
}

static size_t state_frames(const struct rules_match *m, int iters, int with_legal)
{
	struct wire_room_options ro = {0};
	struct wire_room w;
	char buf[8192];
	size_t total = 0;
	int i;

	fill_room(&w, m, &ro);
	for (i = 0; i < iters; i++) {
		json_t *st = wire_state_new(&w);

		if (with_legal) {
			uint8_t to_act[RULES_MAX_SEATS];
			int n;

			rules_to_act(m, to_act);
			n = rules_legal_actions(m, to_act[0], legal, RULES_MAX_LEGAL);
			json_object_set_new(st, "legal", wire_legal_new(w.codec, legal, n));
		}
		total += json_dumpb(st, buf, sizeof(buf), JSON_COMPACT);
		json_decref(st);
	}
	return total;
}

static int decode_acts(int iters)
{
	static const char frame[] = "{\"type\":\"act\",\"id\":17,\"room\":\"bench00001\",\"ply\":60,"
				    "\"action\":{\"move\":5}}";
	const struct wire_game *codec = wire_game_find("ur");
	int i, ok = 0;

	for (i = 0; i < iters; i++) {
		struct wire_msg msg;
		struct rules_action a;
		char why[128];

		memset(&a, 0, sizeof(a));
		if (!wire_msg_decode(frame, sizeof(frame) - 1, &msg, why, sizeof(why)) &&
		    !codec->action_decode(msg.action, &a))
			ok++;
		wire_msg_finish(&msg);
	}
	return ok;
}

struct sample {
	double per_op_ns[64];
};

static void report(const char *name, const char *unit, double *v, int rounds)
{
	qsort(v, (size_t)rounds, sizeof(*v), cmp_double);
	printf("%-34s median %10.1f %s   (min %.1f, max %.1f, %d rounds)\n", name, v[rounds / 2], unit, v[0],
	       v[rounds - 1], rounds);
}

int main(int argc, char **argv)
{
	int rounds = argc > 1 ? atoi(argv[1]) : 7, r;
	double apply_ns[64], state_ns[64], legal_ns[64], decode_ns[64];
	struct rules_match mid;

	if (rounds < 1 || rounds > 64)
		rounds = 7;
	midgame(&mid);
	for (r = 0; r < rounds; r++) {
		double t0 = now_s();
		uint64_t n = playouts(300, (uint64_t)r + 1);

		apply_ns[r] = (now_s() - t0) * 1e9 / (double)n;
		t0 = now_s();
		state_frames(&mid, 20000, 0);
		state_ns[r] = (now_s() - t0) * 1e9 / 20000;
		t0 = now_s();
		state_frames(&mid, 20000, 1);
		legal_ns[r] = (now_s() - t0) * 1e9 / 20000;
		t0 = now_s();
		decode_acts(50000);
		decode_ns[r] = (now_s() - t0) * 1e9 / 50000;
	}
	report("ur: legal + apply per action", "ns", apply_ns, rounds);
	report("state frame (encode + serialise)", "ns", state_ns, rounds);
	report("state frame with legal", "ns", legal_ns, rounds);
	report("act frame decode", "ns", decode_ns, rounds);
	return 0;
}
