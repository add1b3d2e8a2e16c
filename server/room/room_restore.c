/*
 * room_restore.c: a room rebuilt from the live journal at start-up. The
 * store reads the journal (store_load_live) and calls these, in order: the
 * room, its seats, then its actions and events merged by ply. Every action
 * is replayed through the rules core and must give its recorded outcome; a
 * room that does not replay is dropped from memory with its journal kept for
 * inspection. Nothing is journalled while r->restoring is set.
 */
#include "room/room_int.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "bots.h"
#include "base/util.h"

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

int room_restore_archived(struct room *r, int64_t started_at, int64_t ended_at)
{
	struct rules_result res;

	rules_result(&r->match, &res);
	if (!r->restoring || r->status != ROOM_PLAYING || !res.over)
		return -EINVAL;
	r->started_at = started_at ? started_at : r->nlog ? r->log[0].at : r->created_at;
	r->restoring = false;
	r->status = ROOM_FINISHED;
	r->ended_at = ended_at;
	uv_timer_stop(&r->bot_timer);
	uv_timer_stop(&r->clock_timer);
	room_log_release(r); /* a finished room keeps its state only; the archive has the rest */
	return 0;
}

/* The rematch offer of a journalled JSON text; false when it makes no sense for `r`. */
static bool offer_parse(const struct room *r, const json_t *o, struct room_rematch_saved *out,
			const char **room)
{
	static const char *const names[] = { NULL, "offered", "declined", "expired", "accepted" };
	const char *status = json_string_value(json_object_get(o, "status"));
	json_t *by = json_object_get(o, "by"), *accepted = json_object_get(o, "accepted");
	json_t *expires = json_object_get(o, "expires_at"), *id = json_object_get(o, "room");
	int k;

	memset(out, 0, sizeof(*out));
	for (k = 1; k < (int)(sizeof(names) / sizeof(names[0])); k++)
		if (status && !strcmp(status, names[k]))
			out->status = (enum room_rematch)k;
	if (!out->status || !json_is_integer(by) || !json_is_integer(accepted) || !json_is_integer(expires) ||
	    (id && !json_is_null(id) && (!json_is_string(id) || json_string_length(id) > WIRE_ROOM_ID_MAX)))
		return false;
	out->by = (int)json_integer_value(by);
	out->accepted = (unsigned)json_integer_value(accepted) & ((1u << r->game->seats) - 1);
	out->expires_at = json_integer_value(expires);
	*room = json_string_value(id);
	return out->by >= 0 && out->by < r->game->seats && (out->status != ROOM_REMATCH_ACCEPTED || *room);
}

int room_restore_after(struct room *r, const char *mutes, const char *rematch)
{
	json_t *m = json_loads(mutes, 0, NULL), *o = rematch ? json_loads(rematch, 0, NULL) : NULL;
	struct room_rematch_saved offer;
	const char *room = NULL;
	int i, err = -EINVAL;

	if (!json_is_array(m) || (rematch && (!json_is_object(o) || r->status != ROOM_FINISHED ||
					      !offer_parse(r, o, &offer, &room))))
		goto done;
	for (i = 0; i < r->game->seats; i++)
		r->mutes[i] = (unsigned)json_integer_value(json_array_get(m, (size_t)i)) &
			      (ROOM_MUTE_SPECTATORS | ((1u << r->game->seats) - 1));
	if (rematch) {
		if (offer.status == ROOM_REMATCH_OFFERED && offer.expires_at <= util_now_ms()) {
			offer.status = ROOM_REMATCH_EXPIRED; /* it lapsed while the server was away */
			offer.accepted = 0;
		}
		r->restoring = true;          /* no journal write: this is what the journal says */
		room_rematch_undo(r, &offer); /* sets it, and its expiry timer when open */
		r->restoring = false;
		if (room)
			snprintf(r->rematch_room, sizeof(r->rematch_room), "%s", room);
	}
	r->after_journalled = true;
	err = 0;
done:
	json_decref(m);
	json_decref(o);
	return err;
}
