/*
 * replay.c: re-plays an archived match through the rules core and checks it.
 *
 * The archive is decoded by wire_archive_decode() and re-derived by
 * wire_archive_replay(): commit, match seed, options, every action and event
 * at its ply (a resignation is replayed where the archive records it, never
 * guessed from the result), every outcome and the result. This file turns
 * the steps into what `quinteto replay` prints and reads archives from files.
 *
 * Must not: read any field of the archive itself (the codec does), or stop at
 * anything but the first mismatch.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "replay.h"

#define ARCHIVE_MAX (64u << 20) /* refuse archives over 64 MiB */

struct run {
	const struct wire_archive *a;
	replay_step_cb cb;
	void *data;
	struct replay_report *rep;
};

/* The archived seat entry of `seat` (seats may be listed in any order). */
static const struct wire_archive_seat *seat_find(const struct wire_archive *a, int seat)
{
	for (int i = 0; i < a->nseats; i++)
		if (a->seats[i].seat == seat)
			return &a->seats[i];
	return NULL;
}

static void step_cb(const struct wire_archive_step *s, void *data)
{
	struct run *r = data;
	const struct wire_archive_seat *seat = seat_find(r->a, s->seat);
	struct replay_step step = {
		.ply = (uint32_t)s->ply,
		.seat = s->seat,
		.role = s->match->game->roles[s->seat],
		.name = seat ? seat->name : NULL,
		.event = s->kind ? wire_event_kind_name(s->kind) : NULL,
		.action = s->action,
		.outcome = s->outcome,
	};

	if (s->kind)
		r->rep->events++;
	else
		r->rep->actions++;
	if (r->cb)
		r->cb(&step, r->data);
}

/* Re-plays and checks an archive; see replay.h. */
int replay_run(const json_t *archive, replay_step_cb cb, void *data, struct replay_report *rep)
{
	struct wire_archive a;
	struct run r = { &a, cb, data, rep };
	int err;

	memset(rep, 0, sizeof(*rep));
	if (wire_archive_decode(archive, &a, rep->why, sizeof(rep->why)) != WIRE_OK)
		return CLI_E_FORMAT;
	rep->id = a.id;
	rep->game = a.game;
	err = wire_archive_replay(&a, step_cb, &r, &rep->result, rep->why, sizeof(rep->why));
	if (err == 0 && rep->result.over) {
		rep->result_json = wire_game_find(a.game)->result_encode(&rep->result);
		if (!rep->result_json)
			err = -ENOMEM;
	}
	wire_archive_finish(&a);
	if (err == -ENOMEM)
		return err;
	return err ? CLI_E_MISMATCH : 0; /* a WIRE_E_* code: the archive and the rules disagree */
}

/* Releases the result JSON. */
void replay_report_finish(struct replay_report *rep)
{
	json_decref(rep->result_json);
	rep->result_json = NULL;
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
