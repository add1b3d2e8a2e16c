/*
 * replay.h: re-plays an archived match (the JSON of GET /api/matches/{id})
 * through the rules core, for `quinteto verify` and `quinteto replay`.
 */
#ifndef QUINTETO_CLI_REPLAY_H
#define QUINTETO_CLI_REPLAY_H

#include <jansson.h>
#include <stddef.h>

#include "wire.h"

/* Expected outcomes of replay_run(); system failures are negative errno. */
enum replay_error {
	REPLAY_OK = 0,
	REPLAY_E_MISMATCH = 1, /* the archive does not match what the rules core computes */
	REPLAY_E_FORMAT = 2,   /* the archive is not an archive (missing field, bad hex...) */
};

/* One re-applied action, as the rules core computed it. */
struct replay_step {
	size_t index;               /* 0-based position in `actions` */
	uint32_t ply;               /* ply the action was accepted at */
	int seat;
	const char *role;
	const char *name;           /* the seat's archived name, or NULL */
	const json_t *action;       /* the archived action (borrowed) */
	const json_t *outcome;      /* the recomputed outcome (borrowed, valid during the call) */
};

typedef void (*replay_step_cb)(const struct replay_step *step, void *data);

/* What a replay found. */
struct replay_report {
	const char *id;             /* the match id, borrowed from the archive */
	const char *game;           /* the game id, borrowed from the archive */
	size_t actions;             /* actions re-applied */
	struct rules_result result; /* the result the replay reached */
	const char *how;            /* "" or " by resignation" / " by forfeit" (not an action) */
	char why[1024];             /* the first mismatch or format error */
};

/*
 * Re-plays `archive` (borrowed): checks the commit, derives the match seed,
 * applies every action in order, compares every ply, outcome and the result.
 * Calls `cb` (may be NULL) after each action. Returns REPLAY_OK,
 * REPLAY_E_MISMATCH or REPLAY_E_FORMAT (reason in rep->why), or -ENOMEM.
 */
int replay_run(const json_t *archive, replay_step_cb cb, void *data, struct replay_report *rep);

/* Reads and parses FILE, or stdin for "-". New reference; NULL with a reason in why. */
json_t *replay_archive_load(const char *path, char *why, size_t whylen);

#endif
