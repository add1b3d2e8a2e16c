/*
 * room_restore.c: a room rebuilt from the live journal at start-up. The
 * store reads the journal (store_load_live) and calls these, in order: the
 * room, its seats, then its actions and events merged by ply. Every action
 * is replayed through the rules core and must give its recorded outcome; a
 * room that does not replay is dropped from memory with its journal kept for
 * inspection. Nothing is journalled while r->restoring is set.
 */
#include "room.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "bots/bots.h"
#include "util.h"

int room_restore_seat(struct room *r, int seat, struct player *p, const char *client_seed,
		      const char *bot_level)
{
	const struct bot_strategy *strategy = NULL;

	if (seat < 0 || seat >= r->game->seats || r->seats[seat].taken || r->status != ROOM_WAITING)
		return -EINVAL;
	if (p && player_add_room(p, r))
		return -ENOMEM;
	if (!p && !(strategy = bot_find(r->game->id, bot_level ? bot_level : BOT_LEVEL_DEFAULT)))
		util_log(LOG_WARN,
			 "room %s: seat %d's bot level \"%s\" is not in this build; it plays random", r->id,
			 seat, bot_level);
	room_seat_fill(r, seat, p, client_seed, strategy);
	room_start_if_full(r);
	return 0;
}

int room_restore_action(struct room *r, int ply, int seat, const char *action, const char *outcome,
			int64_t at, bool stand_in)
{
	json_t *j = json_loads(action, 0, NULL);
	struct rules_action a;
	int err = -EINVAL;

	memset(&a, 0, sizeof(a));
	if (j && r->status == ROOM_PLAYING && ply == (int)r->nactions && !r->codec->action_decode(j, &a))
		err = room_apply_by(r, seat, &a, at, stand_in) ? -EINVAL : 0;
	json_decref(j);
	if (err)
		return err;
	if (strcmp(r->log[r->nlog - 1].outcome, outcome)) {
		util_log(LOG_ERROR, "room %s: ply %d replays to %s, the journal has %s", r->id, ply,
			 r->log[r->nlog - 1].outcome, outcome);
		return -EINVAL;
	}
	return 0;
}

int room_restore_event(struct room *r, int ply, int seat, int kind, int64_t at)
{
	if (r->status != ROOM_PLAYING || ply != (int)r->nactions || seat < 0 || seat >= r->game->seats ||
	    !wire_event_kind_name(kind))
		return -EINVAL;
	return room_event(r, seat, kind, at) ? -EINVAL : 0;
}

/* When the match ended: the last entry's time, else now. */
static int64_t last_time(const struct room *r)
{
	return r->nlog ? r->log[r->nlog - 1].at : util_now_ms();
}

void room_restore_finish(struct room *r, int64_t started_at)
{
	struct rules_result res;

	if (r->status != ROOM_WAITING)
		r->started_at = started_at ? started_at : r->nlog ? r->log[0].at : r->created_at;
	r->restoring = false;
	rules_result(&r->match, &res);
	if (r->status == ROOM_PLAYING && res.over) {
		room_finish(r, last_time(r)); /* over but not archived: archive it now */
		return;
	}
	if (r->status == ROOM_PLAYING)
		room_clock_restored(r, util_now_ms());
	room_resume(r);
}
