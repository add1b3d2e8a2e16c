/*
 * fuzz_wire.c: the codec must survive any bytes a client can send.
 *
 * LLVMFuzzerTestOneInput() decodes one frame with wire_msg_decode() and, when
 * it is a message, runs the action and options decoders of EVERY registered
 * codec (wire_games[]) on it, demanding that decode and encode agree; any
 * JSON object is also read as an archive (wire_archive_decode) and, when it
 * decodes, verified. A game added to the registry is fuzzed with no edit.
 * Built with clang -fsanitize=fuzzer it is a libFuzzer
 * target (-Dfuzz=true). Otherwise main() below is a deterministic mutation
 * run for the test suite: every golden input, then N mutants of them (bit
 * flips, truncations, splices, byte insertions) under the sanitizers of the
 * build. It prints TAP.
 *
 * Every frame is also read by the `act` fast path (wire_msg_scan_act): when
 * it takes one, the definition must decode it with the same fields and the
 * same action (tests/unit/test_wire_scan.c compares the two in more ways).
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "wire.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* An action decoded by `g` encodes back to the same JSON. */
static void action_round_trip(const struct wire_game *g, const json_t *action)
{
	struct rules_action a;
	json_t *back;

	if (g->action_decode(action, &a) != WIRE_OK)
		return;
	back = g->action_encode(&a);
	if (!back || !json_equal(back, action))
		abort(); /* decode and encode must agree */
	json_decref(back);
}

/* Options `g` accepts encode to options it accepts again, with the same values. */
static void options_round_trip(const struct wire_game *g, const json_t *options)
{
	struct wire_room_options ro, ro2;
	struct rules_options go, go2;
	char why[160];
	json_t *back;

	if (wire_options_decode(g, options, &ro, &go, why, sizeof(why)) != WIRE_OK)
		return;
	back = wire_options_encode(g, &ro, &go, false);
	if (!back || wire_options_decode(g, back, &ro2, &go2, why, sizeof(why)) != WIRE_OK ||
	    ro.autoroll != ro2.autoroll || memcmp(&go, &go2, sizeof(go)) != 0)
		abort();
	json_decref(back);
}

/* Any object read as an archive: decode checks, and a decoded one verifies or says why. */
static void archive_try(const json_t *j)
{
	struct wire_archive a;
	char why[256];

	if (wire_archive_decode(j, &a, why, sizeof(why)) != WIRE_OK)
		return;
	if (wire_archive_verify(&a, why, sizeof(why)) > 0 && strncmp(why, "ply ", 4) != 0)
		abort(); /* every mismatch names its ply */
	wire_archive_finish(&a);
}

/* The fast path takes only what wire_msg_decode() decoded (err, slow) with the same fields. */
static void scan_agrees(const uint8_t *data, size_t size, int err, const struct wire_msg *slow)
{
	struct wire_msg fast;
	json_t *action;
	const json_t *id;

	if (!wire_msg_scan_act((const char *)data, size, &fast))
		return;
	action = json_loadb(fast.action_raw, fast.action_len, JSON_REJECT_DUPLICATES, NULL);
	id = wire_msg_id(&fast);
	if (err || slow->type != WIRE_ACT || strcmp(fast.room, slow->room) != 0 || fast.ply != slow->ply ||
	    (id ? !slow->id || !json_equal(id, slow->id) : slow->id != NULL) || !action ||
	    !json_equal(action, slow->action))
		abort();
	json_decref(action);
	wire_msg_finish(&fast);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct wire_msg m;
	char why[160];
	int err = wire_msg_decode((const char *)data, size, &m, why, sizeof(why));

	scan_agrees(data, size, err, &m);
	for (int i = 0; !err && wire_games[i]; i++) {
		if (m.type == WIRE_ACT)
			action_round_trip(wire_games[i], m.action);
		if (m.type == WIRE_CREATE)
			options_round_trip(wire_games[i], m.options);
	}
	if (json_is_object(m.root))
		archive_try(m.root);
	wire_msg_finish(&m);
	return 0;
}

#ifndef QUINTETO_LIBFUZZER

#define MAX_SEEDS 512
#define MAX_LEN   8192

static char *seeds[MAX_SEEDS];
static size_t seed_len[MAX_SEEDS];
static int nseeds;

/* Loads dir/<case>/<file> of every case as a seed (the first MAX_LEN bytes). */
static void load_dir(const char *path, const char *name)
{
	DIR *d = opendir(path);
	struct dirent *e;

	while (d && (e = readdir(d)) && nseeds < MAX_SEEDS) {
		char file[1024];
		FILE *f;

		if (e->d_name[0] == '.')
			continue;
		snprintf(file, sizeof(file), "%s/%s/%s", path, e->d_name, name);
		f = fopen(file, "rb");
		if (!f)
			continue;
		seeds[nseeds] = malloc(MAX_LEN);
		seed_len[nseeds] = fread(seeds[nseeds], 1, MAX_LEN, f);
		fclose(f);
		nseeds++;
	}
	if (d)
		closedir(d);
}

static uint64_t next(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

static size_t mutate(uint8_t *buf, size_t len, uint64_t *rng)
{
	static const char tokens[] = "{}[]\":,\\0e-\x80\xff"; /* JSON syntax, and bytes that are not UTF-8 */
	int k, rounds = 1 + (int)(next(rng) % 4);

	for (k = 0; k < rounds; k++) {
		size_t pos = len ? next(rng) % len : 0;

		switch (next(rng) % 5) {
		case 0:
			if (len)
				buf[pos] ^= (uint8_t)(1u << (next(rng) % 8));
			break;
		case 1:
			len = pos;
			break;
		case 2:
			if (len)
				buf[pos] = (uint8_t)next(rng);
			break;
		case 3:
			if (len < MAX_LEN - 1) {
				memmove(buf + pos + 1, buf + pos, len - pos);
				buf[pos] = (uint8_t)tokens[next(rng) % (sizeof(tokens) - 1)];
				len++;
			}
			break;
		case 4: { /* splice another seed's tail */
			int o = (int)(next(rng) % (uint64_t)nseeds);
			size_t from = seed_len[o] ? next(rng) % seed_len[o] : 0, n = seed_len[o] - from;

			if (pos + n > MAX_LEN)
				n = MAX_LEN - pos;
			memcpy(buf + pos, seeds[o] + from, n);
			len = pos + n;
			break;
		}
		}
	}
	return len;
}

int main(int argc, char **argv)
{
	long iterations = argc > 2 ? atol(argv[2]) : 200000, i;
	uint8_t buf[MAX_LEN];
	uint64_t rng = 0x9e3779b97f4a7c15ull;
	char path[1024];
	int s;

	if (argc < 2) {
		fprintf(stderr, "usage: %s GOLDEN_DIR [ITERATIONS]\n", argv[0]);
		return 2;
	}
	snprintf(path, sizeof(path), "%s/valid", argv[1]);
	load_dir(path, "input.json");
	snprintf(path, sizeof(path), "%s/invalid", argv[1]);
	load_dir(path, "input.json");
	snprintf(path, sizeof(path), "%s/options", argv[1]);
	load_dir(path, "input.json");
	snprintf(path, sizeof(path), "%s/archive", argv[1]);
	load_dir(path, "archive.json");
	for (s = 0; s < nseeds; s++)
		LLVMFuzzerTestOneInput((const uint8_t *)seeds[s], seed_len[s]);
	printf("%s 1 - every golden input decodes without a fault (%d inputs)\n",
	       nseeds > 40 ? "ok" : "not ok", nseeds);
	for (i = 0; i < iterations; i++) {
		int o = (int)(next(&rng) % (uint64_t)nseeds);
		size_t len;

		memcpy(buf, seeds[o], seed_len[o]);
		len = mutate(buf, seed_len[o], &rng);
		LLVMFuzzerTestOneInput(buf, len);
	}
	printf("ok 2 - %ld mutated frames decode without a fault\n1..2\n", iterations);
	for (s = 0; s < nseeds; s++)
		free(seeds[s]);
	return 0;
}

#endif
