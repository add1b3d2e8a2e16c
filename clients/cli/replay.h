/*
 * replay.h: re-plays an archived match (the JSON of GET /api/matches/{id})
 * for `quinteto verify` and `quinteto replay`. The archive is read only
 * through wire_archive_decode() and checked only through
 * wire_archive_replay() (protocol/wire), so the tools and the server agree on
 * one archive format; this file adds reading the file and naming the seats.
 */
#ifndef QUINTETO_CLI_REPLAY_H
#define QUINTETO_CLI_REPLAY_H

#include <jansson.h>
#include <stddef.h>

#include "cli.h"
#include "wire.h"

/* One re-applied action or event, as the rules core computed it. */
struct replay_step {
	uint32_t ply; /* ply the action was accepted at, or the event's ply */
	int seat;
	const char *role;
	const char *name;      /* the seat's archived name, or NULL */
	const char *event;     /* "resign" / "forfeit" for an event; NULL for an action */
	const json_t *action;  /* the archived action (borrowed); NULL for an event */
	const json_t *outcome; /* the recomputed outcome (borrowed, valid during the call) */
};

typedef void (*replay_step_cb)(const struct replay_step *step, void *data);

/* What a replay found. */
struct replay_report {
	const char *id;             /* the match id, borrowed from the archive */
	const char *game;           /* the game id, borrowed from the archive */
	size_t actions;             /* actions re-applied */
	size_t events;              /* events re-applied */
	struct rules_result result; /* the result the replay reached */
	json_t *result_json;        /* that result as the game encodes it (owned), or NULL */
	char why[1024];             /* the first mismatch ("ply N: ...") or format error */
};

/*
 * Re-plays `archive` (borrowed): decodes it (CLI_E_FORMAT when it is not
 * an archive), then checks the commit, the seeds, every action and event at
 * its ply, every outcome and the result (CLI_E_MISMATCH naming the first
 * ply that disagrees). Calls `cb` (may be NULL) after each step. 0, those,
 * or -ENOMEM on allocation failure. Always call replay_report_finish()
 * afterwards.
 */
int replay_run(const json_t *archive, replay_step_cb cb, void *data, struct replay_report *rep);

/* Releases what `rep` owns. */
void replay_report_finish(struct replay_report *rep);

/* Reads and parses FILE, or stdin for "-". New reference; NULL with a reason in why. */
json_t *replay_archive_load(const char *path, char *why, size_t whylen);

#endif
