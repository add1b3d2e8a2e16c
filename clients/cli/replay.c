/*
 * replay.c: re-plays an archived match through the rules core and checks it.
 *
 * An archive is {id, game, options, started_at, ended_at, seats, commit,
 * server_seed, client_seeds, actions:[{ply, seat, action, outcome, at}],
 * result}. Checking it needs nothing from the server: commit must be
 * SHA-256(server_seed), the match seed is derived from server_seed and the
 * client seeds exactly as protocol/PROTOCOL.md says, and every recorded
 * outcome must equal (as JSON) what the rules core computes when the recorded
 * action is applied for the recorded seat. Resignations and forfeits are not
 * actions, so a result that the actions alone do not reach is accepted when a
 * resignation or forfeit of some seat produces exactly that result.
 *
 * Must not: trust any field of the archive before checking it, or stop at
 * anything but the first mismatch.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "replay.h"

#define ARCHIVE_MAX (64u << 20) /* refuse archives over 64 MiB */

/* What a replay works on, once the archive's envelope is checked. */
struct replay {
	const json_t *archive;
	const struct rules_game *game;
	const struct wire_game *codec;
	struct rules_match match;
	struct replay_report *rep;
};

__attribute__((format(printf, 3, 4)))
static int report(struct replay_report *rep, int err, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(rep->why, sizeof(rep->why), fmt, ap);
	va_end(ap);
	return err;
}

/* Compact JSON of `j` (NULL: a note that nothing valid was expected); caller frees. */
static char *json_text(const json_t *j)
{
	return j ? json_dumps(j, JSON_COMPACT | JSON_SORT_KEYS | JSON_ENCODE_ANY)
		 : strdup("(nothing: not an action of this game)");
}

/* "ply N: what: archive has A (expected), replay gives B (got)". */
static int mismatch(struct replay_report *rep, long ply, const char *what, const json_t *want,
		    const json_t *got)
{
	char *w = json_text(want), *g = json_text(got);
	int err = report(rep, REPLAY_E_MISMATCH, "ply %ld: %s: archive has %s, replay gives %s", ply, what,
			 w ? w : "?", g ? g : "?");

	free(w);
	free(g);
	return err;
}

static const char *rules_error_text(int err)
{
	switch (err) {
	case RULES_E_NOT_TO_ACT:
		return "not that seat's turn";
	case RULES_E_GAME_OVER:
		return "the match is already over";
	case RULES_E_BAD_SEAT:
		return "no such seat";
	default:
		return "not a legal action";
	}
}

/* Checks the commit and derives the match seed into `seed`. */
static int seed_derive(struct replay *r, uint8_t seed[RULES_SEED_SIZE])
{
	const char *commit = json_string_value(json_object_get(r->archive, "commit"));
	const char *ss = json_string_value(json_object_get(r->archive, "server_seed"));
	const json_t *cs = json_object_get(r->archive, "client_seeds");
	const char *seeds[RULES_MAX_SEATS] = { NULL };
	uint8_t server_seed[RULES_SEED_SIZE], digest[RULES_SHA256_SIZE];
	char hex[2 * RULES_SHA256_SIZE + 1];
	size_t i;

	if (!commit || !wire_hex_decode(ss, server_seed, sizeof(server_seed)))
		return report(r->rep, REPLAY_E_FORMAT,
			      "commit and server_seed (64 hex digits) are required");
	rules_sha256(server_seed, sizeof(server_seed), digest);
	wire_hex_encode(digest, sizeof(digest), hex);
	if (strcasecmp(hex, commit) != 0)
		return report(r->rep, REPLAY_E_MISMATCH,
			      "commit: archive has %s, sha256(server_seed) is %s", commit, hex);
	if (!json_is_array(cs) || json_array_size(cs) != r->game->seats)
		return report(r->rep, REPLAY_E_FORMAT, "client_seeds must be an array of %d strings",
			      r->game->seats);
	for (i = 0; i < r->game->seats; i++) {
		seeds[i] = json_string_value(json_array_get(cs, i));
		if (!seeds[i])
			return report(r->rep, REPLAY_E_FORMAT, "client_seeds[%zu] must be a string", i);
	}
	rules_match_seed(server_seed, seeds, r->game->seats, seed);
	return REPLAY_OK;
}

/* Finds the game, decodes the options and starts the match. */
static int match_start(struct replay *r)
{
	const char *game = json_string_value(json_object_get(r->archive, "game"));
	const json_t *options = json_object_get(r->archive, "options");
	struct rules_options ro;
	uint8_t seed[RULES_SEED_SIZE];
	char why[256];
	int err;

	r->rep->id = json_string_value(json_object_get(r->archive, "id"));
	r->rep->game = game;
	r->game = rules_game_find(game);
	r->codec = wire_game_find(game);
	if (!r->rep->id || !r->game || !r->codec)
		return report(r->rep, REPLAY_E_FORMAT, "id must be a string and game a known game");
	if (json_is_null(options))
		options = NULL;
	if (wire_options_decode(r->codec, options, NULL, &ro, why, sizeof(why)) != 0)
		return report(r->rep, REPLAY_E_FORMAT, "%s", why);
	err = seed_derive(r, seed);
	if (err)
		return err;
	if (rules_match_start(&r->match, r->game, seed, &ro) != 0)
		return report(r->rep, REPLAY_E_FORMAT, "the rules core refuses these options");
	return REPLAY_OK;
}

/* The archived name of `seat`, or NULL. */
static const char *seat_name(const struct replay *r, int seat)
{
	const json_t *seats = json_object_get(r->archive, "seats");
	size_t i;
	const json_t *s;

	json_array_foreach(seats, i, s) {
		if (json_integer_value(json_object_get(s, "seat")) == seat)
			return json_string_value(json_object_get(s, "name"));
	}
	return NULL;
}

/* "ply N: seat S may not play A here (why)". */
static int refused(struct replay_report *rep, long ply, int seat, const json_t *action, int err)
{
	char *text = json_text(action);

	err = report(rep, REPLAY_E_MISMATCH, "ply %ld: seat %d may not play %s here (%s)", ply, seat,
		     text ? text : "?", rules_error_text(err));
	free(text);
	return err;
}

/* Applies actions[i]; checks its ply and its outcome. */
static int step_apply(struct replay *r, size_t i, const json_t *rec, replay_step_cb cb, void *data)
{
	const json_t *ply = json_object_get(rec, "ply"), *seat = json_object_get(rec, "seat");
	const json_t *action = json_object_get(rec, "action");
	long at = (long)r->match.ply;
	struct replay_step step;
	struct rules_action a;
	union rules_outcome out;
	json_t *got;
	int err;

	if (!json_is_integer(ply) || !json_is_integer(seat) || !json_is_object(action))
		return report(r->rep, REPLAY_E_FORMAT, "actions[%zu]: ply, seat, action are required", i);
	if (json_integer_value(ply) != at)
		return report(r->rep, REPLAY_E_MISMATCH, "ply %ld: actions[%zu] records ply %" JSON_INTEGER_FORMAT,
			      at, i, json_integer_value(ply));
	if (json_integer_value(seat) < 0 || json_integer_value(seat) >= r->game->seats)
		return report(r->rep, REPLAY_E_FORMAT, "actions[%zu]: seat out of range", i);
	if (r->codec->action_decode(action, &a) != 0)
		return mismatch(r->rep, at, "action", NULL, action);
	err = rules_apply(&r->match, (int)json_integer_value(seat), &a, &out);
	if (err)
		return refused(r->rep, at, (int)json_integer_value(seat), action, err);
	got = r->codec->outcome_encode(&r->match, &a, &out);
	if (!got)
		return -ENOMEM;
	if (!json_equal(got, json_object_get(rec, "outcome"))) {
		err = mismatch(r->rep, at, "outcome", json_object_get(rec, "outcome"), got);
		json_decref(got);
		return err;
	}
	step = (struct replay_step){ i, (uint32_t)at, (int)json_integer_value(seat),
				     r->game->roles[json_integer_value(seat)],
				     seat_name(r, (int)json_integer_value(seat)), action, got };
	if (cb)
		cb(&step, data);
	json_decref(got);
	return REPLAY_OK;
}

/* Does resigning or forfeiting some seat give exactly the archived result? */
static bool result_by_resignation(struct replay *r, const json_t *want)
{
	static const uint8_t kinds[] = { RULES_EVENT_RESIGN, RULES_EVENT_FORFEIT };
	struct rules_match m;
	struct rules_result res;
	json_t *got;
	bool same;

	for (size_t k = 0; k < sizeof(kinds); k++) {
		for (int seat = 0; seat < r->game->seats; seat++) {
			m = r->match;
			if (rules_event(&m, seat, kinds[k], NULL) != 0)
				continue;
			rules_result(&m, &res);
			got = r->codec->result_encode(&res);
			same = got && json_equal(got, want);
			json_decref(got);
			if (same) {
				r->rep->result = res;
				r->rep->how = k == 0 ? " by resignation" : " by forfeit";
				return true;
			}
		}
	}
	return false;
}

/* Compares the archived result with the one the actions reached. */
static int result_check(struct replay *r)
{
	const json_t *want = json_object_get(r->archive, "result");
	json_t *got;
	int err = REPLAY_OK;

	rules_result(&r->match, &r->rep->result);
	if (!r->rep->result.over) {
		if (!want || json_is_null(want) || result_by_resignation(r, want))
			return REPLAY_OK;
		return mismatch(r->rep, (long)r->match.ply, "result", want, json_null());
	}
	got = r->codec->result_encode(&r->rep->result);
	if (!got)
		return -ENOMEM;
	if (!json_equal(got, want))
		err = mismatch(r->rep, (long)r->match.ply, "result", want, got);
	json_decref(got);
	return err;
}

/* Re-plays and checks an archive; see replay.h. */
int replay_run(const json_t *archive, replay_step_cb cb, void *data, struct replay_report *rep)
{
	struct replay r = { .archive = archive, .rep = rep };
	const json_t *actions = json_object_get(archive, "actions"), *rec;
	size_t i;
	int err;

	memset(rep, 0, sizeof(*rep));
	rep->how = "";
	if (!json_is_object(archive) || !json_is_array(actions))
		return report(rep, REPLAY_E_FORMAT, "not an archived match (no actions array)");
	err = match_start(&r);
	if (err)
		return err;
	json_array_foreach(actions, i, rec) {
		err = step_apply(&r, i, rec, cb, data);
		if (err)
			return err;
		rep->actions++;
	}
	return result_check(&r);
}

/* Reads all of `f` into a NUL-terminated buffer; caller frees. */
static char *stream_read(FILE *f, size_t *len)
{
	size_t cap = 65536, n = 0, got;
	char *buf = malloc(cap), *bigger;

	while (buf && (got = fread(buf + n, 1, cap - n - 1, f)) > 0) {
		n += got;
		if (n + 1 < cap)
			continue;
		bigger = cap < ARCHIVE_MAX ? realloc(buf, cap * 2) : NULL;
		if (!bigger) {
			free(buf);
			return NULL;
		}
		buf = bigger;
		cap *= 2;
	}
	if (buf && ferror(f)) {
		free(buf);
		return NULL;
	}
	if (buf)
		buf[n] = '\0';
	*len = n;
	return buf;
}

/* Reads and parses an archive from `path` or stdin ("-"); see replay.h. */
json_t *replay_archive_load(const char *path, char *why, size_t whylen)
{
	FILE *f = strcmp(path, "-") == 0 ? stdin : fopen(path, "rb");
	json_error_t jerr;
	json_t *j = NULL;
	size_t len = 0;
	char *buf;

	if (!f) {
		snprintf(why, whylen, "%s: %s", path, strerror(errno));
		return NULL;
	}
	buf = stream_read(f, &len);
	if (f != stdin)
		fclose(f);
	if (!buf) {
		snprintf(why, whylen, "%s: cannot read (I/O error, out of memory or over 64 MiB)", path);
		return NULL;
	}
	j = json_loadb(buf, len, JSON_REJECT_DUPLICATES, &jerr);
	if (!j)
		snprintf(why, whylen, "%s:%d:%d: %s", path, jerr.line, jerr.column, jerr.text);
	free(buf);
	return j;
}
