/*
 * archive_verify.c: re-derives an archived match through the rules core
 * (quinteto verify, quinteto replay, and anything else that must trust an
 * archive only after checking it).
 *
 * Order of the checks: the game, commit = SHA-256(server_seed), the options
 * (the game's table, then the rules core), the match seed from the seeds,
 * then actions and events merged by ply (an event at ply p after action p-1,
 * before action p), every recomputed outcome compared as JSON with the
 * recorded one, and last the result. The first disagreement stops the replay
 * and is reported as "ply N: ...", N being the ply the match had reached.
 *
 * Must not: do I/O, or accept anything it has not recomputed (a resignation
 * is applied where the archive records it, never guessed from the result).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "wire.h"
#include "wire_games.h"

#define mismatch_fail(r, ...) wire_fail(WIRE_E_BAD_MESSAGE, (r)->why, (r)->whylen, __VA_ARGS__)

/* wire_archive_replay()'s walk over an archive held in memory. */
struct replay {
	struct wire_replay w;
	const struct wire_archive *a;
	wire_archive_step_cb cb;
	void *data;
};

/* Compact sorted JSON of `j`, or a note; caller frees (NULL on ENOMEM). */
static char *json_text(const json_t *j)
{
	char *t = j ? json_dumps(j, JSON_COMPACT | JSON_SORT_KEYS | JSON_ENCODE_ANY) : NULL;

	if (!t) {
		const char *note = j ? "?" : "(nothing)";

		t = malloc(strlen(note) + 1);
		if (t)
			strcpy(t, note);
	}
	return t;
}

/* "ply N: what: archive has A, replay gives B". */
static int mismatch(struct wire_replay *r, unsigned ply, const char *what, const json_t *want,
		    const json_t *got)
{
	char *w = json_text(want), *g = json_text(got);
	int err = mismatch_fail(r, "ply %u: %s: archive has %s, replay gives %s", ply, what, w ? w : "?",
				g ? g : "?");

	free(w);
	free(g);
	return err;
}

/* Checks the head and starts the match from the seeds and options; see wire.h. */
int wire_replay_start(struct wire_replay *r, const struct wire_archive *a, char *why, size_t whylen)
{
	uint8_t server_seed[RULES_SEED_SIZE], commit[RULES_SHA256_SIZE], digest[RULES_SHA256_SIZE];
	uint8_t seed[RULES_SEED_SIZE];
	struct rules_options ro;
	char reason[200];

	memset(r, 0, sizeof(*r));
	r->why = why;
	r->whylen = whylen;
	if (why && whylen)
		why[0] = '\0';
	r->game = rules_game_find(a->game);
	r->codec = wire_game_find(a->game);
	if (!r->game || !r->codec || a->nseats != r->game->seats)
		return mismatch_fail(r, "ply 0: game: not a known game with %d seats", a->nseats);
	if (wire_hex_decode(a->server_seed, server_seed, sizeof(server_seed)) ||
	    wire_hex_decode(a->commit, commit, sizeof(commit)))
		return mismatch_fail(r, "ply 0: commit and server_seed must be 64 hex digits");
	rules_sha256(server_seed, sizeof(server_seed), digest);
	if (memcmp(digest, commit, sizeof(digest)) != 0)
		return mismatch_fail(r, "ply 0: commit: archive has %s, but it is not sha256(server_seed)",
				     a->commit);
	if (wire_options_decode(r->codec, a->options, NULL, &ro, reason, sizeof(reason)))
		return mismatch_fail(r, "ply 0: %s", reason);
	rules_match_seed(server_seed, a->client_seeds, a->nseats, seed);
	if (rules_match_start(&r->match, r->game, seed, &ro) != 0)
		return mismatch_fail(r, "ply 0: options: the rules core refuses them");
	return 0;
}

/* Applies event `e` (events[i]) at the current ply; see wire.h. */
int wire_replay_event(struct wire_replay *r, const struct wire_archive_event *e, size_t i)
{
	int err;

	if (e->ply != (int)r->match.ply)
		return mismatch_fail(r, "ply %u: events[%zu] records ply %d, out of order",
				     (unsigned)r->match.ply, i, e->ply);
	err = rules_event(&r->match, e->seat, e->kind, NULL);
	if (err)
		return mismatch_fail(r, "ply %u: events[%zu]: seat %d cannot %s here (%s)",
				     (unsigned)r->match.ply, i, e->seat,
				     wire_event_kind_name(e->kind) ? wire_event_kind_name(e->kind) : "?",
				     rules_strerror(err));
	return 0;
}

/* Applies action `x` (actions[i]), checks its ply and its outcome; see wire.h. */
int wire_replay_action(struct wire_replay *r, const struct wire_archive_action *x, size_t i, json_t **outcome)
{
	unsigned ply = (unsigned)r->match.ply;
	struct rules_action act;
	union rules_outcome out;
	json_t *got;
	int err;

	if (x->ply < 0 || (unsigned)x->ply != ply)
		return mismatch_fail(r, "ply %u: actions[%zu] records ply %d", ply, i, x->ply);
	if (r->codec->action_decode(x->action, &act) != 0)
		return mismatch(r, ply, "action (not an action of this game)", x->action, NULL);
	err = rules_apply(&r->match, x->seat, &act, &out);
	if (err) {
		char *text = json_text(x->action);

		err = mismatch_fail(r, "ply %u: seat %d may not play %s here (%s)", ply, x->seat,
				    text ? text : "?", rules_strerror(err));
		free(text);
		return err;
	}
	got = r->codec->outcome_encode(&r->match, &act, &out);
	if (!got)
		return -ENOMEM;
	err = json_equal(got, x->outcome) ? 0 : mismatch(r, ply, "outcome", x->outcome, got);
	if (!err && outcome)
		*outcome = got;
	else
		json_decref(got);
	return err;
}

/* The result the replay reached against the archived one; see wire.h. */
int wire_replay_result(struct wire_replay *r, const json_t *archived, struct rules_result *res)
{
	json_t *got;
	int err;

	rules_result(&r->match, res);
	got = res->over ? r->codec->result_encode(res) : json_null();
	if (!got)
		return -ENOMEM;
	err = json_equal(got, archived ? archived : json_null())
		      ? 0
		      : mismatch(r, (unsigned)r->match.ply, "result", archived ? archived : json_null(), got);
	json_decref(got);
	return err;
}

static void step_report(struct replay *r, int ply, int seat, int kind, const json_t *action,
			const json_t *outcome)
{
	struct wire_archive_step s = { ply, seat, kind, action, outcome, &r->w.match };

	if (r->cb)
		r->cb(&s, r->data);
}

/* Actions and events merged by ply; see the file comment. */
static int steps_run(struct replay *r)
{
	const struct wire_archive *a = r->a;
	size_t i = 0, e = 0;
	json_t *got;
	int err;

	for (;;) {
		for (; e < a->nevents && a->events[e].ply <= (int)r->w.match.ply; e++) {
			err = wire_replay_event(&r->w, &a->events[e], e);
			if (err)
				return err;
			step_report(r, a->events[e].ply, a->events[e].seat, a->events[e].kind, NULL, NULL);
		}
		if (i == a->nactions)
			break;
		got = NULL;
		err = wire_replay_action(&r->w, &a->actions[i], i, &got);
		if (err)
			return err;
		step_report(r, a->actions[i].ply, a->actions[i].seat, 0, a->actions[i].action, got);
		json_decref(got);
		i++;
	}
	if (e < a->nevents)
		return mismatch_fail(&r->w, "ply %u: events[%zu] records ply %d, after the last action",
				     (unsigned)r->w.match.ply, e, a->events[e].ply);
	return 0;
}

/* Re-derives the match with a callback per step; see wire.h. */
int wire_archive_replay(const struct wire_archive *a, wire_archive_step_cb cb, void *data,
			struct rules_result *result, char *why, size_t whylen)
{
	struct replay r = { .a = a, .cb = cb, .data = data };
	struct rules_result res = { .winner = -1 };
	int err = wire_replay_start(&r.w, a, why, whylen);

	if (!err)
		err = steps_run(&r);
	if (!err)
		err = wire_replay_result(&r.w, a->result, &res);
	if (!err && result)
		*result = res;
	return err;
}

/* Re-derives the match; see wire.h. */
int wire_archive_verify(const struct wire_archive *a, char *why, size_t whylen)
{
	return wire_archive_replay(a, NULL, NULL, NULL, why, whylen);
}
