/*
 * room_play.c: what changes a room: taking and leaving seats, bots, the
 * start of the match, actions, resignation, chat, the end of the match and
 * its archive record, autoroll, and housekeeping. Each public function
 * returns 0 or a WIRE_E_* code with the room untouched; callers broadcast
 * with room_changed() after a success.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "server.h"
#include "store.h"

static struct rules_action legal_buf[RULES_MAX_LEGAL]; /* loop thread only */

static int free_seat(const struct room *r)
{
	int i;

	for (i = 0; i < r->game->seats; i++)
		if (!r->seats[i].taken)
			return i;
	return -1;
}

static int seat_check(const struct room *r, int seat, int *out)
{
	if (r->status == ROOM_FINISHED)
		return WIRE_E_GAME_OVER;
	if (r->status != ROOM_WAITING)
		return WIRE_E_ROOM_FULL;
	if (seat >= 0) {
		if (r->seats[seat].taken)
			return WIRE_E_SEAT_TAKEN;
		*out = seat;
		return 0;
	}
	*out = free_seat(r);
	return *out < 0 ? WIRE_E_ROOM_FULL : 0;
}

static void room_start(struct room *r)
{
	const char *seeds[RULES_MAX_SEATS];
	uint8_t match_seed[RULES_SEED_SIZE];
	int i;

	for (i = 0; i < r->game->seats; i++)
		seeds[i] = r->seats[i].has_seed ? r->seats[i].client_seed : NULL;
	rules_match_seed(r->server_seed, seeds, r->game->seats, match_seed);
	if (rules_match_start(&r->match, r->game, match_seed, &r->gopt))
		util_log(LOG_ERROR, "room %s: options rejected at the start", r->id); /* checked at create */
	r->status = ROOM_PLAYING;
	r->started_at = util_now_ms();
	r->srv->metrics.matches_started++;
	if (!r->restoring)
		store_live_started(r->srv->store, r->id, r->started_at);
}

static void start_if_full(struct room *r)
{
	if (free_seat(r) < 0)
		room_start(r);
}

int room_join(struct room *r, struct player *p, int seat, const char *client_seed, int *seat_out)
{
	struct room_seat *st;
	int err;

	if (room_seat_of(r, p) >= 0)
		return WIRE_E_ALREADY_SEATED;
	err = seat_check(r, seat, &seat);
	if (err)
		return err;
	st = &r->seats[seat];
	memset(st, 0, sizeof(*st));
	st->taken = true;
	st->player = p;
	if (client_seed) {
		st->has_seed = true;
		snprintf(st->client_seed, sizeof(st->client_seed), "%s", client_seed);
	}
	lobby_player_add_room(p, r);
	store_live_seat(r->srv->store, r->id, seat, p->id, client_seed);
	*seat_out = seat;
	start_if_full(r);
	return 0;
}

int room_add_bot(struct room *r, int seat, int *seat_out)
{
	struct room_seat *st;
	int err = seat_check(r, seat, &seat);

	if (err)
		return err;
	st = &r->seats[seat];
	memset(st, 0, sizeof(*st));
	st->taken = true;
	st->bot = true;
	snprintf(st->bot_name, sizeof(st->bot_name), "Random bot %d", seat + 1);
	store_live_seat(r->srv->store, r->id, seat, NULL, NULL);
	*seat_out = seat;
	start_if_full(r);
	return 0;
}

int room_leave(struct room *r, struct player *p, bool *changed)
{
	int seat = room_seat_of(r, p);

	*changed = false;
	if (seat < 0)
		return WIRE_E_NOT_IN_ROOM;
	if (r->status == ROOM_WAITING) { /* before the start the seat is freed */
		memset(&r->seats[seat], 0, sizeof(r->seats[seat]));
		lobby_player_del_room(p, r);
		store_live_seat_free(r->srv->store, r->id, seat);
		*changed = true;
	} /* during a match it stays held for reconnection */
	return 0;
}


static struct store_match *archive_record(struct room *r)
{
	struct store_match *m = calloc(1, sizeof(*m));
	struct rules_result res;
	json_t *seeds = json_array();
	int i;

	if (!m)
		return NULL;
	rules_result(&r->match, &res);
	m->id = strdup(r->id);
	m->game = strdup(r->game->id);
	m->options = room_json_text(wire_options_encode(r->codec, &r->ropt, &r->gopt, false));
	m->commit = strdup(r->commit);
	m->server_seed = strdup(r->server_seed_hex);
	for (i = 0; i < r->game->seats; i++)
		json_array_append_new(seeds, json_string(r->seats[i].has_seed ? r->seats[i].client_seed : ""));
	m->client_seeds = room_json_text(seeds);
	m->result = room_json_text(r->codec->result_encode(&res));
	m->started_at = r->started_at;
	m->ended_at = r->ended_at;
	m->seats = calloc((size_t)r->game->seats, sizeof(*m->seats));
	m->actions = calloc(r->nlog ? r->nlog : 1, sizeof(*m->actions));
	if (!m->seats || !m->actions) {
		store_match_free(m);
		return NULL;
	}
	m->nseats = r->game->seats;
	for (i = 0; i < m->nseats; i++) {
		const struct room_seat *st = &r->seats[i];

		m->seats[i].seat = i;
		m->seats[i].role = strdup(r->game->roles[i]);
		m->seats[i].name = strdup(st->player ? st->player->name : st->bot_name);
		m->seats[i].bot = st->bot;
		m->seats[i].player_id = st->player ? strdup(st->player->id) : NULL;
		m->seats[i].client_seed = strdup(st->has_seed ? st->client_seed : "");
	}
	for (m->nactions = 0; m->nactions < r->nlog; m->nactions++) {
		struct store_action *a = &m->actions[m->nactions];

		a->ply = (int)m->nactions;
		a->seat = r->log[m->nactions].seat;
		a->at = r->log[m->nactions].at;
		a->action = strdup(r->log[m->nactions].action);
		a->outcome = strdup(r->log[m->nactions].outcome);
	}
	return m;
}

static void archived_cb(void *ctx, int ok)
{
	struct server *srv = ctx;

	if (ok)
		srv->metrics.archive_ok++;
	else
		srv->metrics.archive_failed++;
}

/* The match is over: archive it (ended_at: when it ended). */
static void room_finish(struct room *r, int64_t ended_at)
{
	struct store_match *m;

	r->status = ROOM_FINISHED;
	r->ended_at = ended_at;
	r->srv->metrics.matches_finished++;
	uv_timer_stop(&r->bot_timer);
	m = archive_record(r);
	if (!m) {
		util_log(LOG_ERROR, "room %s: out of memory building the archive record", r->id);
		r->srv->metrics.archive_failed++;
		return;
	}
	store_match_save(r->srv->store, m, archived_cb, r->srv);
}

static int log_append(struct room *r, int seat, const struct rules_action *a,
		      const union rules_outcome *o, int64_t at)
{
	struct room_log *e;

	if (r->nlog == r->caplog) {
		size_t cap = r->caplog ? r->caplog * 2 : 64;
		struct room_log *p = realloc(r->log, cap * sizeof(*p));

		if (!p)
			return -ENOMEM;
		r->log = p;
		r->caplog = cap;
	}
	e = &r->log[r->nlog];
	e->seat = seat;
	e->at = at;
	e->action = room_json_text(r->codec->action_encode(a));
	e->outcome = room_json_text(r->codec->outcome_encode(&r->match, a, o));
	if (!e->action || !e->outcome) {
		free(e->action);
		free(e->outcome);
		return -ENOMEM;
	}
	r->nlog++;
	return 0;
}

/*
 * Applies an action through the rules core and records it, accepted at `at`
 * (Unix ms). 0 or a RULES_E_* code. While restoring, a finished match is not
 * archived here: the restore does it once it knows the real times.
 */
int room_apply(struct room *r, int seat, const struct rules_action *a, int64_t at)
{
	struct rules_match before = r->match;
	union rules_outcome o;
	struct rules_result res;
	int err;

	err = rules_apply(&r->match, seat, a, &o);
	if (err)
		return err;
	if (log_append(r, seat, a, &o, at)) {
		r->match = before; /* nothing is half-recorded */
		return -ENOMEM;
	}
	if (!r->restoring)
		store_live_action(r->srv->store, r->id, (int)r->nlog - 1, seat, r->log[r->nlog - 1].action,
				  r->log[r->nlog - 1].outcome, r->log[r->nlog - 1].at);
	r->has_last = true;
	r->last_seat = seat;
	r->last_action = *a;
	r->last_outcome = o;
	r->srv->metrics.actions++;
	rules_result(&r->match, &res);
	if (res.over && !r->restoring)
		room_finish(r, at);
	return 0;
}

int room_act(struct room *r, struct player *p, int64_t ply, const json_t *action, const char **why)
{
	struct rules_action a;
	int seat = room_seat_of(r, p), err;

	if (seat < 0)
		return *why = "you hold no seat in this room", WIRE_E_NOT_IN_ROOM;
	if (r->status == ROOM_FINISHED)
		return *why = "the match is over", WIRE_E_GAME_OVER;
	if (r->status == ROOM_WAITING)
		return *why = "the match has not started", WIRE_E_NOT_YOUR_TURN;
	if (ply != (int64_t)r->match.ply)
		return *why = "ply is not the room's current ply", WIRE_E_STALE_PLY;
	if (!rules_seat_to_act(&r->match, seat))
		return *why = "it is not your turn", WIRE_E_NOT_YOUR_TURN;
	memset(&a, 0, sizeof(a));
	if (r->codec->action_decode(action, &a))
		return *why = "not an action of this game", WIRE_E_ILLEGAL_ACTION;
	err = room_apply(r, seat, &a, util_now_ms());
	if (err == -ENOMEM)
		return *why = "out of memory", WIRE_E_INTERNAL;
	if (err)
		return *why = "not one of your legal actions now", WIRE_E_ILLEGAL_ACTION;
	room_changed(r);
	return 0;
}

int room_resign(struct room *r, struct player *p, const char **why)
{
	union rules_outcome o;
	struct rules_result res;
	int seat = room_seat_of(r, p);
	int64_t now;

	if (seat < 0)
		return *why = "you hold no seat in this room", WIRE_E_NOT_IN_ROOM;
	if (r->status == ROOM_FINISHED)
		return *why = "the match is over", WIRE_E_GAME_OVER;
	if (r->status == ROOM_WAITING)
		return *why = "the match has not started: use leave", WIRE_E_BAD_MESSAGE;
	if (rules_event(&r->match, seat, RULES_EVENT_RESIGN, &o))
		return *why = "cannot resign now", WIRE_E_GAME_OVER;
	now = util_now_ms();
	store_live_event(r->srv->store, r->id, (int)r->nlog, seat, RULES_EVENT_RESIGN, now); /* at the room's ply */
	rules_result(&r->match, &res);
	if (res.over)
		room_finish(r, now);
	room_changed(r);
	return 0;
}

void room_chat(struct room *r, int seat, const char *name, const char *text)
{
	json_t *j = wire_chat_new(r->id, seat, name, text, util_now_ms());
	struct buf *b = j ? buf_from_json(j) : NULL;
	struct member *m, *next;

	json_decref(j);
	for (m = r->members; b && m; m = next) {
		next = m->room_next;
		session_send(m->s, b);
	}
	buf_unref(b);
}

/* True when autoroll will play `legal` (a lone {"roll":true}) for a human seat. */
bool room_autorolls(const struct room *r, const struct rules_action *legal, int n)
{
	return r->ropt.autoroll && r->has_roll && n == 1 && rules_action_equal(&legal[0], &r->roll);
}

/* With autoroll, plays {"roll":true} for a human seat whose only legal action it is. */
static bool autoroll_step(struct room *r)
{
	uint8_t to_act[RULES_MAX_SEATS];
	int i, n;

	if (!r->ropt.autoroll || r->status != ROOM_PLAYING)
		return false;
	n = rules_to_act(&r->match, to_act);
	for (i = 0; i < n; i++) {
		int seat = to_act[i], k;

		if (!r->seats[seat].player)
			continue;
		k = rules_legal_actions(&r->match, seat, legal_buf, 2);
		if (room_autorolls(r, legal_buf, k) && !room_apply(r, seat, &legal_buf[0], util_now_ms()))
			return true;
	}
	return false;
}

/* After any change: broadcast it, play autorolls (each broadcast too), wake the bots. */
void room_changed(struct room *r)
{
	do
		room_broadcast(r);
	while (autoroll_step(r));
	lobby_changed(r->srv);
	bot_schedule(r);
}

void room_housekeep(struct room *r, int64_t now)
{
	const struct config *c = &r->srv->cfg;

	if (r->status == ROOM_FINISHED && now - r->ended_at > (int64_t)c->finished_room_ttl_s * 1000)
		room_destroy(r);
	else if (r->status == ROOM_WAITING && !r->nmembers &&
		 now - r->idle_since > (int64_t)c->idle_room_ttl_s * 1000)
		room_destroy(r);
}

/* --- restart ------------------------------------------------------------- */

/* Puts a journalled seat back (start-up). 0 or -EINVAL. */
int room_restore_seat(struct room *r, int seat, const char *player_id, const char *client_seed)
{
	struct room_seat *st;
	struct player *p = NULL;

	if (seat < 0 || seat >= r->game->seats || r->seats[seat].taken)
		return -EINVAL;
	if (player_id && !(p = hmap_get(&r->srv->players_by_id, player_id)))
		return -EINVAL;
	st = &r->seats[seat];
	st->taken = true;
	st->player = p;
	st->bot = !p;
	if (!p)
		snprintf(st->bot_name, sizeof(st->bot_name), "Random bot %d", seat + 1);
	if (client_seed) {
		st->has_seed = true;
		snprintf(st->client_seed, sizeof(st->client_seed), "%s", client_seed);
	}
	if (p)
		lobby_player_add_room(p, r);
	start_if_full(r);
	return 0;
}

/*
 * Re-applies a journalled action through the rules core (start-up) and checks
 * that it gives the recorded outcome. 0 or -EINVAL.
 */
int room_restore_action(struct room *r, int ply, int seat, const char *action, const char *outcome,
			int64_t at)
{
	json_t *j = json_loads(action, 0, NULL);
	struct rules_action a;
	int err = -EINVAL;

	memset(&a, 0, sizeof(a));
	if (j && r->status == ROOM_PLAYING && ply == (int)r->nlog && !r->codec->action_decode(j, &a))
		err = room_apply(r, seat, &a, at) ? -EINVAL : 0;
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

/*
 * Re-applies a journalled event (enum rules_event_kind) at its ply (start-up):
 * it comes after the actions before it. 0 or -EINVAL.
 */
int room_restore_event(struct room *r, int ply, int seat, int kind)
{
	union rules_outcome o;

	if (r->status != ROOM_PLAYING || ply != (int)r->nlog || rules_event(&r->match, seat, kind, &o))
		return -EINVAL;
	return 0;
}

/*
 * Ends a restore (r->restoring is still set): the journalled start time, then
 * either the archive (the match was over but not archived; ended_at: the
 * time of the event that ended it, 0 if none) or play resumes: autorolls due,
 * bots woken.
 */
void room_restore_finish(struct room *r, int64_t started_at, int64_t ended_at)
{
	struct rules_result res;

	if (r->status != ROOM_WAITING)
		r->started_at = started_at ? started_at : r->nlog ? r->log[0].at : r->created_at;
	r->restoring = false;
	rules_result(&r->match, &res);
	if (r->status == ROOM_PLAYING && res.over) {
		room_finish(r, ended_at ? ended_at : r->nlog ? r->log[r->nlog - 1].at : util_now_ms());
		return;
	}
	while (autoroll_step(r))
		;
	bot_schedule(r);
}
