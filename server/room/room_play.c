/*
 * room_play.c: what changes a room: taking and leaving seats, bots, the
 * start of the match, actions and events (resignation, forfeit), chat, the
 * end of the match and its archive record, autoroll. Each public function
 * returns 0, a negative errno, or a (negative) ROOM_E_* code with the room
 * untouched.
 *
 * Every change is journalled before anything is sent: the frames the room
 * queues in the same loop turn are held by the connections until the
 * turn's journal batch has committed (see net/session_int.h).
 */
#include "room/room_int.h"

#include <assert.h>
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "bots.h"
#include "room/room_text.h"
#include "store/store.h"
#include "base/util.h"

static struct rules_action legal_buf[RULES_MAX_LEGAL]; /* loop thread only */

static int free_seat(const struct room *r)
{
	int i;

	for (i = 0; i < r->game->seats; i++)
		if (!r->seats[i].taken)
			return i;
	return -1;
}

static int seats_taken(const struct room *r)
{
	int i, n = 0;

	for (i = 0; i < r->game->seats; i++)
		n += r->seats[i].taken;
	return n;
}

/* The seat to fill (seat -1: the first free one), or a ROOM_E_* code. */
static int seat_check(const struct room *r, int seat, int *out)
{
	if (seat >= r->game->seats || seat < -1)
		return ROOM_E_BAD_SEAT;
	if (r->status == ROOM_FINISHED)
		return ROOM_E_GAME_OVER;
	if (seat >= 0 && r->seats[seat].taken)
		return ROOM_E_SEAT_TAKEN; /* also once started: every seat is held then */
	if (r->status != ROOM_WAITING)
		return ROOM_E_ROOM_FULL;
	*out = seat >= 0 ? seat : free_seat(r);
	assert(*out >= 0); /* a waiting room has a free seat */
	return 0;
}

static void room_start(struct room *r)
{
	const char *seeds[RULES_MAX_SEATS];
	uint8_t match_seed[RULES_SEED_SIZE];
	int i;

	assert(r->status == ROOM_WAITING && seats_taken(r) == r->game->seats);
	for (i = 0; i < r->game->seats; i++)
		seeds[i] = r->seats[i].has_seed ? r->seats[i].client_seed : NULL;
	rules_match_seed(r->server_seed, seeds, r->game->seats, match_seed);
	if (rules_match_start(&r->match, r->game, match_seed, &r->gopt))
		util_log(LOG_ERROR, "room %s: options rejected at the start", r->id); /* checked at create */
	r->status = ROOM_PLAYING;
	if (!r->restoring || !r->started_at) /* a restore knows it from the journal */
		r->started_at = util_now_ms();
	r->host->metrics->matches_started++;
	if (!r->restoring)
		store_live_started(r->host->store, r->id, r->started_at);
	room_clock_start(r, r->started_at);
	room_absence_sync(r, r->started_at);
}

void room_start_if_full(struct room *r)
{
	if (r->status == ROOM_WAITING && free_seat(r) < 0)
		room_start(r);
}

void room_seat_fill(struct room *r, int seat, struct player *p, const char *client_seed,
		    const struct bot_strategy *strategy)
{
	struct room_seat *st = &r->seats[seat];

	memset(st, 0, sizeof(*st));
	st->taken = true;
	st->player = p;
	st->bot = !p;
	if (!p) {
		st->strategy = strategy ? strategy : &bot_random;
		snprintf(st->bot_name, sizeof(st->bot_name), "%c%s bot %d",
			 toupper((unsigned char)*st->strategy->level), st->strategy->level + 1, seat + 1);
	}
	if (client_seed) {
		st->has_seed = true;
		snprintf(st->client_seed, sizeof(st->client_seed), "%s", client_seed);
	}
}

int room_join(struct room *r, struct player *p, int seat, const char *client_seed, int *seat_out)
{
	int err, held = room_seat_of(r, p);

	if (held >= 0 && (seat < 0 || seat == held) && room_reclaim(r, held)) {
		*seat_out = held; /* protocol.md: a join of one's own seat takes it back from a stand-in */
		return 0;
	}
	if (held >= 0)
		return ROOM_E_ALREADY_SEATED;
	err = seat_check(r, seat, &seat);
	if (err)
		return err;
	if (player_add_room(p, r))
		return -ENOMEM;
	room_seat_fill(r, seat, p, client_seed, NULL);
	store_live_seat(r->host->store, r->id, seat, player_id(p), client_seed, NULL);
	*seat_out = seat;
	room_start_if_full(r);
	return 0;
}

int room_add_bot(struct room *r, const struct player *by, int seat, const struct bot_strategy *strategy,
		 int *seat_out)
{
	int err;

	if (room_seat_of(r, by) < 0 && (!*r->creator || strcmp(r->creator, player_id(by))))
		return ROOM_E_NOT_IN_ROOM;
	err = seat_check(r, seat, &seat);
	if (err)
		return err;
	room_seat_fill(r, seat, NULL, NULL, strategy);
	store_live_seat(r->host->store, r->id, seat, NULL, NULL, r->seats[seat].strategy->level);
	*seat_out = seat;
	room_start_if_full(r);
	return 0;
}

int room_leave(struct room *r, struct player *p, bool *changed)
{
	int seat = room_seat_of(r, p);

	*changed = false;
	if (seat < 0)
		return ROOM_E_NOT_IN_ROOM;
	if (r->status == ROOM_WAITING) { /* before the start the seat is freed */
		memset(&r->seats[seat], 0, sizeof(r->seats[seat]));
		player_del_room(p, r);
		store_live_seat_free(r->host->store, r->id, seat);
		*changed = true;
	} /* during a match it stays held for reconnection */
	return 0;
}

/* --- the log and the archive -------------------------------------------- */

static struct room_entry *log_push(struct room *r)
{
	if (r->nlog == r->caplog) {
		size_t cap = r->caplog ? r->caplog * 2 : 64;
		struct room_entry *p = realloc(r->log, cap * sizeof(*p));

		if (!p)
			return NULL;
		r->log = p;
		r->caplog = cap;
	}
	memset(&r->log[r->nlog], 0, sizeof(r->log[r->nlog]));
	return &r->log[r->nlog];
}

static struct store_match *archive_record(struct room *r);

void room_log_release(struct room *r)
{
	store_texts_free(r->texts); /* the entries' texts, unless the archive record took them */
	r->texts = NULL;
	free(r->log);
	r->log = NULL;
	r->nlog = r->caplog = 0;
}

/*
 * What an archive write carries to its callback: the latency is from the
 * match's end; a rated match's record, whose new ratings the writer filled in
 * (the record is the store's, alive until the callback returns).
 */
struct archive_wait {
	const struct room_host *host;
	uint64_t start_ns;
	const struct store_match *match;
};

static void archived_cb(void *ctx, int err)
{
	struct archive_wait *w = ctx;
	struct metrics *m = w->host->metrics;

	metrics_observe(&m->archive, util_mono_ns() - w->start_ns);
	if (!err)
		m->archive_ok++;
	else
		m->archive_failed++;
	/* committed: the players may now be shown their new ratings */
	if (!err && w->match->rated && w->host->rated)
		w->host->rated(w->host->ctx, w->match);
	free(w);
}

void room_finish(struct room *r, int64_t ended_at)
{
	struct archive_wait *w;
	struct store_match *m;

	r->status = ROOM_FINISHED;
	r->ended_at = ended_at;
	r->host->metrics->matches_finished++;
	uv_timer_stop(&r->bot_timer);
	uv_timer_stop(&r->clock_timer);
	m = archive_record(r);
	w = m ? malloc(sizeof(*w)) : NULL;
	if (!w) {
		util_log(LOG_ERROR, "room %s: out of memory building the archive record", r->id);
		r->host->metrics->archive_failed++;
		store_match_free(m);
		return;
	}
	*w = (struct archive_wait){ r->host, util_mono_ns(), m };
	if (r->rated) {
		uint8_t place[RULES_MAX_SEATS];

		rules_standing(&r->match, place);
		m->rated = true;
		memcpy(m->place, place, sizeof(m->place));
	}
	store_match_save(r->host->store, m, archived_cb, w);
	room_log_release(r);
}

/* Ends the match if the rules core says it is over (not while restoring: the restore knows the times). */
static void finish_if_over(struct room *r, int64_t at)
{
	struct rules_result res;

	rules_result(&r->match, &res);
	if (res.over && !r->restoring)
		room_finish(r, at);
}

int room_apply(struct room *r, int seat, const struct rules_action *a, int64_t at)
{
	return room_apply_by(r, seat, a, at, false);
}

/*
 * The entry's action and outcome texts, written without a tree into a scratch
 * buffer and kept in the room's text blocks: no allocation per action.
 */
static int entry_texts(struct room *r, struct room_entry *e, const struct rules_action *a,
		       const union rules_outcome *o)
{
	static struct json_out t; /* grows, never shrinks; loop thread only */
	size_t at;

	t.len = 0;
	if (room_action_text(&t, r->codec, a))
		return -ENOMEM;
	at = t.len + 1; /* past the action's NUL */
	if (json_out_bytes(&t, "", 1) || room_outcome_text(&t, r->codec, &r->match, a, o) ||
	    !(e->action = store_texts_add(&r->texts, t.p, at - 1)) ||
	    !(e->outcome = store_texts_add(&r->texts, t.p + at, t.len - at)))
		return -ENOMEM; /* a text already kept stays unused in its block until the log goes */
	return 0;
}

/* The seats in to_act of `m` as a mask (bit s: seat s). */
static unsigned to_act_mask(const struct room *r, const struct rules_match *m)
{
	unsigned mask = 0;
	int s;

	for (s = 0; s < r->game->seats; s++)
		if (rules_seat_to_act(m, s))
			mask |= 1u << s;
	return mask;
}

int room_apply_by(struct room *r, int seat, const struct rules_action *a, int64_t at, bool stand_in)
{
	struct rules_match before = r->match;
	union rules_outcome o;
	struct room_entry *e = log_push(r);

	assert(r->match.ply == r->nactions);
	if (!e)
		return -ENOMEM;
	if (rules_apply(&r->match, seat, a, &o))
		return ROOM_E_ILLEGAL;
	if (entry_texts(r, e, a, &o)) {
		r->match = before; /* nothing is half-recorded */
		return -ENOMEM;
	}
	e->ply = (int)r->nactions;
	e->seat = seat;
	e->at = at;
	e->stand_in = stand_in;
	e->to_act = to_act_mask(r, &before);
	r->nlog++;
	r->nactions++;
	room_bot_cancel(
		r); /* a bot thinking for another seat (a roll-off) thinks about a position that is gone */
	assert(r->match.ply == r->nactions);
	if (!r->restoring)
		store_live_action(r->host->store, r->id, e->ply, seat, e->action, e->outcome, at, stand_in);
	r->has_last = true;
	r->last_seat = seat;
	r->last_action = *a;
	r->last_outcome = o;
	r->host->metrics->actions++;
	room_clock_acted(r, seat, at);
	finish_if_over(r, at);
	room_clock_sync(r, at);
	return 0;
}

int room_event(struct room *r, int seat, int kind, int64_t at)
{
	union rules_outcome o;
	struct room_entry *e = log_push(r);

	if (!e)
		return -ENOMEM;
	if (rules_event(&r->match, seat, kind, &o))
		return ROOM_E_GAME_OVER; /* over, or the seat is out of play already */
	r->bot_gen++;                    /* a bot thinking now thinks about a position that is gone */
	room_bot_cancel(r);
	e->kind = kind;
	e->ply = (int)r->nactions;
	e->seat = seat;
	e->at = at;
	r->nlog++;
	if (!r->restoring)
		store_live_event(r->host->store, r->id, e->ply, seat, kind, at);
	finish_if_over(r, at);
	room_clock_sync(r, at);
	return 0;
}

int room_forfeit(struct room *r, int seat, int64_t at)
{
	int err = room_event(r, seat, RULES_EVENT_FORFEIT, at);

	return err == ROOM_E_GAME_OVER ? 0 : err;
}

/*
 * protocol.md: `ply` must be the current ply, or an older one when every
 * action accepted since was another seat's (seats acting at once need not
 * resend) and (r3) the sender was in to_act at that ply together with other
 * seats (the to_act the ply's own action was accepted in); a seat's own
 * second send, or an older ply where it was to act alone or not at all, is
 * stale.
 */
static bool ply_acceptable(const struct room *r, int seat, int64_t ply)
{
	size_t i;

	if (ply == (int64_t)r->nactions)
		return true;
	if (ply < 0 || ply > (int64_t)r->nactions)
		return false;
	for (i = r->nlog; i-- > 0 && r->log[i].ply >= ply;) {
		const struct room_entry *e = &r->log[i];

		if (e->kind)
			continue;
		if (e->seat == seat)
			return false;
		if (e->ply == ply) /* the action accepted at that ply: who was to act then */
			return (e->to_act >> seat & 1) && (e->to_act & ~(1u << seat));
	}
	return false; /* the log does not reach back to that ply */
}

/*
 * The action `text` names for `seat`: one of the legal actions its frame
 * carries (their entries exist only while that frame is cached), else the
 * codec's decode of the parsed text. 0, ROOM_E_ILLEGAL or -ENOMEM.
 */
static int action_of_text(const struct room *r, int seat, const char *text, size_t len,
			  struct rules_action *a)
{
	int i = room_legal_find(r, seat, text, len), err;
	json_t *j;

	if (i >= 0) {
		*a = r->seat_legal[seat].actions[i];
		return 0;
	}
	j = json_loadb(text, len, JSON_REJECT_DUPLICATES, NULL);
	if (!j)
		return -ENOMEM; /* the scanner passed only text jansson parses */
	err = r->codec->action_decode(j, a) ? ROOM_E_ILLEGAL : 0;
	json_decref(j);
	return err;
}

/* room_act() and room_act_text(): the action is `action` (a tree) or text[0..len). */
static int act(struct room *r, struct player *p, int64_t ply, const json_t *action, const char *text,
	       size_t len)
{
	struct rules_action a;
	int seat = room_seat_of(r, p), err;

	if (seat < 0)
		return ROOM_E_NOT_IN_ROOM;
	if (r->status == ROOM_FINISHED)
		return ROOM_E_GAME_OVER;
	if (r->status == ROOM_WAITING)
		return ROOM_E_NOT_STARTED;
	if (!ply_acceptable(r, seat, ply))
		return ROOM_E_STALE_PLY;
	if (!rules_seat_to_act(&r->match, seat))
		return ROOM_E_NOT_YOUR_TURN;
	memset(&a, 0, sizeof(a));
	if (!text && r->codec->action_decode(action, &a))
		return ROOM_E_ILLEGAL;
	if (text && (err = action_of_text(r, seat, text, len, &a)))
		return err;
	err = room_apply(r, seat, &a, util_now_ms());
	if (err)
		return err;
	room_reclaim(r, seat); /* the player is back: its own action ends the stand-in */
	room_changed(r);
	return 0;
}

int room_act(struct room *r, struct player *p, int64_t ply, const json_t *action)
{
	return act(r, p, ply, action, NULL, 0);
}

int room_act_text(struct room *r, struct player *p, int64_t ply, const char *action, size_t len)
{
	return act(r, p, ply, NULL, action, len);
}

int room_resign(struct room *r, struct player *p, int *seat_out)
{
	int seat = room_seat_of(r, p);

	if (seat < 0)
		return ROOM_E_NOT_IN_ROOM;
	if (r->status == ROOM_FINISHED)
		return ROOM_E_GAME_OVER;
	if (r->status == ROOM_WAITING)
		return ROOM_E_NOT_STARTED;
	*seat_out = seat;
	return room_event(r, seat, RULES_EVENT_RESIGN, util_now_ms());
}

void room_chat(struct room *r, int seat, const char *name, const char *text)
{
	json_t *j = wire_chat_new(r->id, seat, name, text, util_now_ms());
	struct buf *b = j ? buf_from_json(j) : NULL;
	struct member *m, *next;
	unsigned from = seat >= 0 ? 1u << seat : ROOM_MUTE_SPECTATORS;

	json_decref(j);
	for (m = r->members; b && m; m = next) {
		int to = room_seat_of(r, m->player);

		next = m->room_next;
		if (to < 0 || !(r->mutes[to] & from))
			r->host->send(m->who, b);
	}
	buf_unref(b);
}

static const char *const rematch_names[] = { NULL, "offered", "declined", "expired", "accepted" };

void room_after_journal(struct room *r)
{
	json_t *levels = json_array(), *mutes = json_array(), *offer = NULL;
	char *lv, *mu, *re = NULL;
	int i, bad = !levels || !mutes;

	if (r->restoring) {
		json_decref(levels);
		json_decref(mutes);
		return;
	}
	for (i = 0; !bad && i < r->game->seats; i++)
		bad = json_array_append_new(levels, r->seats[i].bot ? json_string(r->seats[i].strategy->level)
								    : json_null()) ||
		      json_array_append_new(mutes, json_integer(r->mutes[i]));
	if (!bad && r->rematch)
		bad = !(offer = json_pack("{s:s, s:i, s:I, s:I, s:s?}", "status", rematch_names[r->rematch],
					  "by", r->rematch_by, "accepted", (json_int_t)r->rematch_accepted,
					  "expires_at", (json_int_t)r->rematch_expires_at, "room",
					  *r->rematch_room ? r->rematch_room : NULL));
	lv = bad ? NULL : util_json_text(json_incref(levels));
	mu = bad ? NULL : util_json_text(json_incref(mutes));
	re = offer ? util_json_text(offer) : NULL;
	json_decref(levels);
	json_decref(mutes);
	if (lv && mu && (!r->rematch || re)) {
		store_live_after(r->host->store, r->id, r->created_at, *r->creator ? r->creator : NULL, lv,
				 mu, re);
		if (r->rated) /* the row was written whole, its flag at the default */
			store_live_after_rated(r->host->store, r->id);
		r->after_journalled = true;
	} else {
		util_log(LOG_ERROR, "room %s: out of memory: a journal write is lost (mutes, rematch)",
			 r->id);
	}
	free(lv);
	free(mu);
	free(re);
}

int room_mute(struct room *r, int seat, int target_seat, bool spectators, bool on)
{
	unsigned bit;

	if (!spectators && (target_seat < 0 || target_seat >= r->game->seats || target_seat == seat))
		return ROOM_E_BAD_SEAT;
	bit = spectators ? ROOM_MUTE_SPECTATORS : 1u << target_seat;
	if (on)
		r->mutes[seat] |= bit;
	else
		r->mutes[seat] &= ~bit;
	room_after_journal(r); /* before the reply that shows it leaves (the turn's batch) */
	return 0;
}

/* --- rematch -------------------------------------------------------------- */

static void rematch_expire_cb(uv_timer_t *t)
{
	struct room *r = t->data;

	if (r->dead || r->rematch != ROOM_REMATCH_OFFERED)
		return;
	r->rematch = ROOM_REMATCH_EXPIRED;
	r->rematch_accepted = 0;
	room_after_journal(r);
	room_changed(r);
}

/* Every seat that is not a bot's, as a mask. */
static unsigned human_seats(const struct room *r)
{
	unsigned mask = 0;
	int i;

	for (i = 0; i < r->game->seats; i++)
		if (!r->seats[i].bot)
			mask |= 1u << i;
	return mask;
}

int room_rematch(struct room *r, int seat, bool accept, bool *complete)
{
	*complete = false;
	if (r->status != ROOM_FINISHED || r->rematch == ROOM_REMATCH_ACCEPTED)
		return ROOM_E_NO_REMATCH;
	if (!accept) {
		if (r->rematch != ROOM_REMATCH_OFFERED)
			return ROOM_E_NO_REMATCH;
		r->rematch = ROOM_REMATCH_DECLINED;
		r->rematch_accepted = 0;
		uv_timer_stop(&r->bot_timer);
		room_after_journal(r);
		return 0;
	}
	if (r->rematch != ROOM_REMATCH_OFFERED) { /* a new offer (also after a decline or expiry) */
		r->rematch = ROOM_REMATCH_OFFERED;
		r->rematch_by = seat;
		r->rematch_accepted = ~human_seats(r) & ((1u << r->game->seats) - 1);
		r->rematch_expires_at = util_now_ms() + (int64_t)r->host->cfg->rematch_timeout_s * 1000;
		if (uv_timer_start(&r->bot_timer, rematch_expire_cb,
				   (uint64_t)r->host->cfg->rematch_timeout_s * 1000, 0))
			util_log(LOG_ERROR, "room %s: the rematch timer cannot start", r->id);
	}
	r->rematch_accepted |= 1u << seat;
	*complete = r->rematch_accepted == (1u << r->game->seats) - 1;
	room_after_journal(r);
	return 0;
}

void room_rematch_opened(struct room *r, const char *id)
{
	r->rematch = ROOM_REMATCH_ACCEPTED;
	snprintf(r->rematch_room, sizeof(r->rematch_room), "%s", id);
	uv_timer_stop(&r->bot_timer);
	room_after_journal(r);
}

void room_rematch_save(const struct room *r, struct room_rematch_saved *out)
{
	*out = (struct room_rematch_saved){ r->rematch, r->rematch_by, r->rematch_accepted,
					    r->rematch_expires_at };
}

void room_rematch_undo(struct room *r, const struct room_rematch_saved *saved)
{
	bool was_open = r->rematch == ROOM_REMATCH_OFFERED;

	r->rematch = saved->status;
	r->rematch_by = saved->by;
	r->rematch_accepted = saved->accepted;
	r->rematch_expires_at = saved->expires_at;
	if (r->rematch != ROOM_REMATCH_OFFERED)
		uv_timer_stop(&r->bot_timer); /* the offer this request made never was */
	else if (!was_open) {
		int64_t left = saved->expires_at - util_now_ms();

		if (uv_timer_start(&r->bot_timer, rematch_expire_cb, left > 0 ? (uint64_t)left : 0, 0))
			util_log(LOG_ERROR, "room %s: the rematch timer cannot start", r->id);
	}
	room_after_journal(r); /* this turn's batch may hold the state being undone */
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
		k = rules_legal_actions(&r->match, seat, legal_buf, 2); /* 2: enough to see "only one" */
		if (room_autorolls(r, legal_buf, k) &&
		    !room_apply_by(r, seat, &legal_buf[0], util_now_ms(), r->seats[seat].stand_in))
			return true;
	}
	return false;
}

/* --- bots ---------------------------------------------------------------- */

static int bot_to_act(const struct room *r)
{
	uint8_t to_act[RULES_MAX_SEATS];
	int i, n;

	if (r->status != ROOM_PLAYING || r->dead)
		return -1;
	n = rules_to_act(&r->match, to_act);
	for (i = 0; i < n; i++)
		if (r->seats[to_act[i]].bot || r->seats[to_act[i]].stand_in)
			return to_act[i];
	return -1;
}

static void bot_play_cb(uv_timer_t *t);

/* Starts the room's bot timer if a bot is to act, it is not running and no worker thinks for the room. */
static void bot_schedule(struct room *r, int delay_ms)
{
	if (r->bot_job || bot_to_act(r) < 0 || uv_is_active((uv_handle_t *)&r->bot_timer))
		return;
	/* At least 1 ms: a 0 ms timer re-armed from its own callback runs again in
	 * the same loop pass, so a bot-vs-bot match would never yield to I/O. */
	if (uv_timer_start(&r->bot_timer, bot_play_cb, delay_ms > 0 ? (uint64_t)delay_ms : 1, 0))
		util_log(LOG_ERROR, "room %s: the bot timer cannot start (the room is closing)", r->id);
}

/* How soon a room whose bot could not be asked (queue full, journal failing) asks again, ms. */
#define BOT_RETRY_MS 100

/* Plays the bot's action `a` for `seat` on the loop, as a player's: logged, journalled, broadcast. */
static void bot_act(struct room *r, int seat, const struct rules_action *a)
{
	if (room_apply_by(r, seat, a, util_now_ms(), r->seats[seat].stand_in)) {
		util_log(LOG_ERROR, "room %s: bot action refused by the rules core", r->id);
		return;
	}
	r->host->metrics->bot_actions++;
	room_changed(r);
}

/*
 * Without bot workers (the room's unit tests): chooses on the loop. The
 * server always has them (room_host.bots).
 */
static void bot_choose_here(struct room *r, int seat, const struct bot_strategy *strategy)
{
	struct bot_ctx ctx = { .rng = r->bot_rng, .budget = (uint32_t)r->host->cfg->bot_budget };
	struct rules_action a;
	int err = bot_choose(strategy, &r->match, seat, &ctx, &a);

	r->bot_rng = ctx.rng;
	if (!err)
		bot_act(r, seat, &a);
}

static void bot_play_cb(uv_timer_t *t)
{
	struct room *r = t->data;
	const struct bot_strategy *strategy;
	struct room_bot_job *j;
	int seat = bot_to_act(r);

	if (seat < 0 || r->bot_job)
		return;
	if (store_journal_failing(r->host->store)) { /* no move that could not be saved */
		bot_schedule(r, 500);
		return;
	}
	strategy = r->seats[seat].bot ? r->seats[seat].strategy : r->stand_in_strategy;
	if (!r->host->bots) {
		bot_choose_here(r, seat, strategy);
		return;
	}
	j = malloc(sizeof(*j));
	if (!j) {
		bot_schedule(r, BOT_RETRY_MS);
		return;
	}
	memset(j, 0, sizeof(*j));
	j->room = r;
	j->ply = r->nactions;
	j->gen = r->bot_gen;
	j->seat = seat;
	j->strategy = strategy;
	memcpy(&j->match, &r->match, sizeof(j->match));
	/* each move its own stream, drawn from the room's (xorshift64* wants it non-zero) */
	j->ctx.rng = bot_rng_next(&r->bot_rng) | 1;
	if (room_bots_submit(r->host->bots, j)) { /* full: not lost, asked again soon */
		free(j);
		r->host->metrics->bot_queue_full++;
		bot_schedule(r, BOT_RETRY_MS);
		return;
	}
	r->bot_job = j;
}

void room_bot_cancel(struct room *r)
{
	if (r->bot_job)
		atomic_store_explicit(&r->bot_job->cancel, true, memory_order_relaxed);
}

/* Whether a bot's answer still answers the room's position: same ply, no event or reclaim since. */
static bool bot_answer_current(const struct room *r, const struct room_bot_job *j)
{
	const struct room_seat *st = &r->seats[j->seat];

	uint8_t to_act[RULES_MAX_SEATS];
	int i, n;

	if (r->status != ROOM_PLAYING || r->dead || r->nactions != j->ply || r->bot_gen != j->gen ||
	    !(st->bot || st->stand_in))
		return false;
	n = rules_to_act(&r->match, to_act);
	for (i = 0; i < n; i++)
		if (to_act[i] == j->seat)
			return true;
	return false;
}

void room_bot_answer(struct room *r, const struct room_bot_job *j)
{
	if (!bot_answer_current(r, j)) {
		r->host->metrics->bot_stale++;
		bot_schedule(r, 1); /* another bot may be to act now */
		return;
	}
	if (store_journal_failing(r->host->store)) {
		bot_schedule(r, 500);
		return;
	}
	if (j->err) /* the seat has no move: nothing to play */
		return;
	bot_act(r, j->seat, &j->action);
}

bool room_reclaim(struct room *r, int seat)
{
	struct room_seat *st = &r->seats[seat];

	if (!st->stand_in || r->status != ROOM_PLAYING)
		return false;
	st->stand_in = false;
	st->abandoned = false;
	r->bot_gen++; /* the stand-in's thinking, if any, is no longer the seat's */
	room_bot_cancel(r);
	room_clock_sync(r, util_now_ms()); /* its idle time starts again now if it is to act */
	return true;
}

void room_resume(struct room *r)
{
	while (autoroll_step(r))
		;
	bot_schedule(r, r->host->cfg->bot_delay_ms);
}

void room_changed(struct room *r)
{
	do
		room_broadcast(r);
	while (autoroll_step(r));
	r->host->changed(r->host->ctx);
	bot_schedule(r, r->host->cfg->bot_delay_ms);
}

/* --- the archive record --------------------------------------------------- */

static json_t *seeds_json(const struct room *r)
{
	json_t *seeds = json_array();
	int i;

	for (i = 0; seeds && i < r->game->seats; i++)
		if (json_array_append_new(seeds,
					  json_string(r->seats[i].has_seed ? r->seats[i].client_seed : ""))) {
			json_decref(seeds);
			return NULL;
		}
	return seeds;
}

static int archive_seats(struct room *r, struct store_match *m)
{
	int i;

	m->seats = calloc((size_t)r->game->seats, sizeof(*m->seats));
	if (!m->seats)
		return -ENOMEM;
	m->nseats = r->game->seats;
	for (i = 0; i < m->nseats; i++) {
		const struct room_seat *st = &r->seats[i];

		m->seats[i].seat = i;
		m->seats[i].role = strdup(r->game->roles[i]);
		m->seats[i].name = strdup(st->player ? player_name(st->player) : st->bot_name);
		m->seats[i].bot = st->bot;
		m->seats[i].abandoned = st->abandoned;
		m->seats[i].player_id = st->player ? strdup(player_id(st->player)) : NULL;
		m->seats[i].client_seed = strdup(st->has_seed ? st->client_seed : "");
		if (!m->seats[i].role || !m->seats[i].name || !m->seats[i].client_seed ||
		    (st->player && !m->seats[i].player_id))
			return -ENOMEM;
	}
	return 0;
}

/*
 * The log as the archive keeps it: actions, and events in the order they
 * happened. The actions' texts move to the record (nothing is copied): the
 * room releases its log once the record is handed to the store.
 */
static int archive_log(struct room *r, struct store_match *m)
{
	size_t i;

	m->actions = calloc(r->nactions ? r->nactions : 1, sizeof(*m->actions));
	m->events = calloc(r->nlog - r->nactions + 1, sizeof(*m->events));
	if (!m->actions || !m->events)
		return -ENOMEM;
	for (i = 0; i < r->nlog; i++) { /* nothing below can fail: the record owns all or none */
		struct room_entry *e = &r->log[i];
		struct store_action *a;

		if (e->kind) {
			m->events[m->nevents++] = (struct store_event){ e->ply, e->seat, e->kind, e->at };
			continue;
		}
		a = &m->actions[m->nactions++];
		a->ply = e->ply;
		a->seat = e->seat;
		a->at = e->at;
		a->stand_in = e->stand_in;
		a->action = e->action;
		a->outcome = e->outcome;
		e->action = e->outcome = NULL;
	}
	m->texts = r->texts; /* the blocks the texts are in go with them */
	r->texts = NULL;
	assert(m->nactions == r->nactions && m->nactions + m->nevents == r->nlog);
	return 0;
}

static struct store_match *archive_record(struct room *r)
{
	struct store_match *m = calloc(1, sizeof(*m));
	struct rules_result res;

	if (!m)
		return NULL;
	rules_result(&r->match, &res);
	m->id = strdup(r->id);
	m->game = strdup(r->game->id);
	m->options = util_json_text(wire_options_encode(r->codec, &r->ropt, &r->gopt, false));
	m->commit = strdup(r->commit);
	m->server_seed = strdup(r->server_seed_hex);
	m->client_seeds = util_json_text(seeds_json(r));
	m->result = util_json_text(r->codec->result_encode(&res));
	m->started_at = r->started_at;
	m->ended_at = r->ended_at;
	if (!m->id || !m->game || !m->options || !m->commit || !m->server_seed || !m->client_seeds ||
	    !m->result || archive_seats(r, m) || archive_log(r, m)) {
		store_match_free(m);
		return NULL;
	}
	return m;
}
