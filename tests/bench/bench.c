/*
 * bench.c: micro-benchmarks of the paths every action takes, run as
 * `build/tests/bench/quinteto-bench [rounds] [act]` (`act`: the act rows alone). Each measurement is repeated
 * `rounds` times (default 7) and the median is printed with the spread, since
 * these machines are small and noisy. Results go to docs/BENCHMARKS.md.
 *
 * Every measurement runs for every registered game (rules_games[] and its
 * codec), so a game added to the registry is measured with no edit:
 *   rules: random playouts through rules_legal_actions + rules_apply, per
 *          action and as whole matches a second
 *   state: wire_state_new + compact serialisation of a mid-game state,
 *          the work the server does once per change (not per recipient)
 *   legal: the per-seat `legal` frame on top of it
 *   change: what a change costs the room (Ur mid-game: the spectators'
 *           frame and one seat's frame with its `legal`), the way the server
 *           did it before (json_dumpb for the size, then again to write, for
 *           each frame) and the way server/buf.c does it (one dump, the seat's
 *           frame spliced); and, as an upper bound of what keeping the members
 *           that do not change within a match (type, room, game, commit,
 *           options) as ready bytes could save, the same without them
 *   decode: an `act` frame carrying one of the mid-game position's legal
 *           actions read as the server reads it (wire_msg_read: the scanner,
 *           and the action found among the seat's legal texts, split once
 *           per change as the room does), and by the definition
 *           (wire_msg_decode + the codec's action decode of the tree)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "base/buf.h"
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

/* One random legal action of a random seat to act; false when none can act. */
static bool random_step(struct rules_match *m, uint64_t *s)
{
	uint8_t to_act[RULES_MAX_SEATS];
	int k = rules_to_act(m, to_act), seat, n;

	if (k <= 0)
		return false;
	seat = to_act[lcg(s) % (uint64_t)k];
	n = rules_legal_actions(m, seat, legal, RULES_MAX_LEGAL);
	if (n <= 0 || n > RULES_MAX_LEGAL)
		return false;
	return rules_apply(m, seat, &legal[lcg(s) % (uint64_t)n], NULL) == 0;
}

/* Plays `matches` random matches of `g`; returns the actions applied. */
static uint64_t playouts(const struct rules_game *g, int matches, uint64_t seed)
{
	uint64_t actions = 0, s = seed;
	int i;

	for (i = 0; i < matches; i++) {
		struct rules_match m;
		uint8_t ms[RULES_SEED_SIZE] = { 0 };

		memcpy(ms, &i, sizeof(i));
		rules_match_start(&m, g, ms, NULL);
		while (random_step(&m, &s))
			actions++;
	}
	return actions;
}

/* A mid-game match of `g`: up to 60 random actions from a fixed seed, stopping before the end. */
static void midgame(const struct rules_game *g, struct rules_match *m)
{
	uint8_t ms[RULES_SEED_SIZE] = { 7 };
	struct rules_match next;
	uint64_t s = 1;

	rules_match_start(m, g, ms, NULL);
	for (int i = 0; i < 60; i++) {
		struct rules_result r;

		next = *m;
		if (!random_step(&next, &s))
			break;
		rules_result(&next, &r);
		if (r.over)
			break;
		*m = next;
	}
}

static void fill_room(struct wire_room *w, const struct rules_match *m, const struct wire_room_options *ro)
{
	memset(w, 0, sizeof(*w));
	w->id = "bench00001";
	w->game = m->game;
	w->codec = wire_game_find(m->game->id);
	w->status = "playing";
	w->match = m;
	for (int i = 0; i < m->game->seats; i++) {
		w->seats[i].name = i ? "Random bot" : "Ana";
		w->seats[i].bot = i != 0 ? "random" : NULL;
		w->seats[i].connected = true;
	}
	w->room_options = ro;
	w->commit = "6d45f6ddb308c49948cfe7bdc853bc22ca3aa1e7999f0cf78b91986f170ad90e";
}

static size_t state_frames(const struct rules_match *m, int iters, int with_legal)
{
	struct wire_room_options ro = { 0 };
	struct wire_room w;
	static char buf[1 << 18];
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

enum change_mode { CHANGE_TWICE, CHANGE_SPLICE, CHANGE_NO_CONSTANTS };

/* The old buf_from_json(): one dump for the size, one to write. */
static size_t dump_twice(const json_t *j)
{
	size_t len = json_dumpb(j, NULL, 0, JSON_COMPACT);
	char *p = malloc(len + 1);

	len = json_dumpb(j, p, len, JSON_COMPACT);
	free(p);
	return len;
}

/* One change's frames (spectators + the first seat to act), built as `mode` says. */
static size_t change_frames(const struct rules_match *m, int iters, enum change_mode mode)
{
	static const char *const constants[] = { "type", "room", "game", "commit", "options" };
	struct wire_room_options ro = { 0 };
	uint8_t to_act[RULES_MAX_SEATS];
	struct wire_room w;
	size_t total = 0, at;
	int i, n;

	fill_room(&w, m, &ro);
	rules_to_act(m, to_act);
	for (i = 0; i < iters; i++) {
		json_t *st = wire_state_new(&w), *l;
		struct buf *all, *seat;

		n = rules_legal_actions(m, to_act[0], legal, RULES_MAX_LEGAL);
		l = wire_legal_new(w.codec, legal, n);
		if (mode == CHANGE_TWICE) {
			total += dump_twice(st);
			json_object_set_new(st, "legal", l);
			total += dump_twice(st);
			json_decref(st);
			continue;
		}
		for (size_t k = 0; mode == CHANGE_NO_CONSTANTS && k < 5; k++)
			json_object_del(st, constants[k]);
		all = buf_from_json_mark(st, "legal", &at);
		seat = buf_splice(all, at, 2, l);
		total += all->len + seat->len;
		buf_unref(all);
		buf_unref(seat);
		json_decref(l);
		json_decref(st);
	}
	return total;
}

/* The `act` frame of the first legal action of the seat to act in `m`; caller frees. */
static char *act_frame(const struct rules_match *m, const struct wire_game *codec)
{
	uint8_t to_act[RULES_MAX_SEATS];
	json_t *f;
	char *text;

	if (rules_to_act(m, to_act) <= 0 || rules_legal_actions(m, to_act[0], legal, RULES_MAX_LEGAL) <= 0)
		return NULL;
	f = json_pack("{s:s, s:i, s:s, s:i, s:o}", "type", "act", "id", 17, "room", "bench00001", "ply",
		      (int)m->ply, "action", codec->action_encode(&legal[0]));
	text = f ? json_dumps(f, JSON_COMPACT) : NULL;
	json_decref(f);
	return text;
}

/* The seat to act's legal list as its frame carries it, split as the room splits it: 0 or -1. */
static struct wire_legal_entry entries[RULES_MAX_LEGAL];
static char legal_text[1 << 17];
static int nentries;

static int legal_split(const struct rules_match *m, const struct wire_game *codec)
{
	uint8_t to_act[RULES_MAX_SEATS];
	json_t *list;
	size_t len;

	if (rules_to_act(m, to_act) <= 0 ||
	    (nentries = rules_legal_actions(m, to_act[0], legal, RULES_MAX_LEGAL)) <= 0)
		return -1;
	list = wire_legal_new(codec, legal, nentries);
	len = list ? json_dumpb(list, legal_text, sizeof(legal_text), JSON_COMPACT) : 0;
	json_decref(list);
	return len && len < sizeof(legal_text) ? wire_legal_split(legal_text, len, legal, nentries, entries)
					       : -1;
}

/* `server`: as handlers.c and room_act_text() read it; else the definition's tree. */
static int decode_acts(const char *frame, const struct wire_game *codec, int iters, bool server)
{
	size_t len = strlen(frame);
	int i, ok = 0;

	for (i = 0; i < iters; i++) {
		struct wire_msg msg;
		struct rules_action a;
		char why[128];
		int k;

		memset(&a, 0, sizeof(a));
		if (server ? wire_msg_read(frame, len, &msg, why, sizeof(why))
			   : wire_msg_decode(frame, len, &msg, why, sizeof(why))) {
			wire_msg_finish(&msg);
			continue;
		}
		if (msg.action_raw && (k = wire_legal_find(entries, nentries, legal_text, msg.action_raw,
							   msg.action_len)) >= 0) {
			a = entries[k].a;
			ok++;
		} else if (msg.action && !codec->action_decode(msg.action, &a)) {
			ok++;
		}
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
	printf("%-44s median %10.1f %s   (min %.1f, max %.1f, %d rounds)\n", name, v[rounds / 2], unit, v[0],
	       v[rounds - 1], rounds);
}

static bool only_act; /* `quinteto-bench N act`: the act rows alone */

static void bench_rest(const struct rules_game *g, const struct rules_match *mid, int r, double *apply_ns,
		       double *matches_s, double *state_ns, double *legal_ns, double change_ns[3][64]);
static void report_rest(const struct rules_game *g, int rounds, double *apply_ns, double *matches_s,
			double *state_ns, double *legal_ns, double change_ns[3][64]);

/* Every measurement for game `g`, `rounds` times. */
static void bench_game(const struct rules_game *g, int rounds)
{
	const struct wire_game *codec = wire_game_find(g->id);
	double apply_ns[64], matches_s[64], state_ns[64], legal_ns[64], decode_ns[2][64], change_ns[3][64];
	struct rules_match mid;
	char name[64], *frame;

	midgame(g, &mid);
	frame = codec ? act_frame(&mid, codec) : NULL;
	if (!frame || legal_split(&mid, codec) || decode_acts(frame, codec, 1, true) != 1) {
		printf("%s: no codec or no legal action mid-game; skipped\n", g->id);
		return;
	}
	for (int r = 0; r < rounds; r++) {
		double t0;

		for (int k = 0; k < 2; k++) { /* the server's path and the definition, in turns */
			int d = (k + r) % 2;

			t0 = now_s();
			decode_acts(frame, codec, 50000, d == 0);
			decode_ns[d][r] = (now_s() - t0) * 1e9 / 50000;
		}
		if (!only_act)
			bench_rest(g, &mid, r, apply_ns, matches_s, state_ns, legal_ns, change_ns);
	}
	if (!only_act)
		report_rest(g, rounds, apply_ns, matches_s, state_ns, legal_ns, change_ns);
	snprintf(name, sizeof(name), "%s: act frame decode", g->id);
	report(name, "ns", decode_ns[0], rounds);
	snprintf(name, sizeof(name), "%s: act frame decode, definition", g->id);
	report(name, "ns", decode_ns[1], rounds);
	free(frame);
}

/* One round of every measurement but the act rows. */
static void bench_rest(const struct rules_game *g, const struct rules_match *mid, int r, double *apply_ns,
		       double *matches_s, double *state_ns, double *legal_ns, double change_ns[3][64])
{
	{
		double t0 = now_s();
		uint64_t n = playouts(g, 300, (uint64_t)r + 1);

		double dt = now_s() - t0;

		apply_ns[r] = dt * 1e9 / (double)(n ? n : 1);
		matches_s[r] = 300 / dt;
		t0 = now_s();
		state_frames(mid, 20000, 0);
		state_ns[r] = (now_s() - t0) * 1e9 / 20000;
		t0 = now_s();
		state_frames(mid, 20000, 1);
		legal_ns[r] = (now_s() - t0) * 1e9 / 20000;
		for (int c = 0; c < 3; c++) {
			t0 = now_s();
			change_frames(mid, 20000, (enum change_mode)c);
			change_ns[c][r] = (now_s() - t0) * 1e9 / 20000;
		}
	}
}

static void report_rest(const struct rules_game *g, int rounds, double *apply_ns, double *matches_s,
			double *state_ns, double *legal_ns, double change_ns[3][64])
{
	char name[64];

	snprintf(name, sizeof(name), "%s: legal + apply per action", g->id);
	report(name, "ns", apply_ns, rounds);
	snprintf(name, sizeof(name), "%s: random matches a second", g->id);
	report(name, "/s", matches_s, rounds);
	snprintf(name, sizeof(name), "%s: state frame (encode + serialise)", g->id);
	report(name, "ns", state_ns, rounds);
	snprintf(name, sizeof(name), "%s: state frame with legal", g->id);
	report(name, "ns", legal_ns, rounds);
	snprintf(name, sizeof(name), "%s: change, each frame dumped twice", g->id);
	report(name, "ns", change_ns[CHANGE_TWICE], rounds);
	snprintf(name, sizeof(name), "%s: change, one dump + splice", g->id);
	report(name, "ns", change_ns[CHANGE_SPLICE], rounds);
	snprintf(name, sizeof(name), "%s: change, same without constants", g->id);
	report(name, "ns", change_ns[CHANGE_NO_CONSTANTS], rounds);
}

int main(int argc, char **argv)
{
	int rounds = argc > 1 ? atoi(argv[1]) : 7;

	if (rounds < 1 || rounds > 64)
		rounds = 7;
	only_act = argc > 2 && strcmp(argv[2], "act") == 0;
	for (int i = 0; rules_games[i]; i++)
		bench_game(rules_games[i], rounds);
	return 0;
}
