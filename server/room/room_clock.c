/*
 * room_clock.c: a room's clocks and absent seats (protocol.md, Clocks and
 * absent players), on one uv timer per room armed for the next thing due:
 * a clock running out, or a stand-in taking over an absent seat. Nothing
 * polls.
 *
 * Clocks: with `per_action_ms` each action of a seat has that allowance;
 * with `bank_ms` (+ `increment_ms`, Fischer) a seat's bank runs while it is
 * to act and gets the increment after each of its actions. A seat's clock
 * runs exactly while the match is being played and the seat is to act (bots
 * have none). Times come from the log entries (live: now; restore: the
 * journalled times), so a restore re-derives each bank from the journal; a
 * clock running at the restart restarts with what it had when it started
 * running (the downtime and the time spent on that action are not charged).
 *
 * A clock that runs out: the seat forfeits (an event), except where the
 * game's bots name a move for it (bot_timeout_action(): the game's own hook
 * for a seat that must move), an action marked as a stand-in's.
 *
 * Absent seats: a seated player with no connection is absent from that
 * moment (state: connected:false); `stand_in_after_ms` later (0: never) a
 * bot of the room's `stand_in_level` plays for it until the player takes the
 * seat back (room_reclaim()): by acting, by a join, or by reconnecting.
 *
 * Idle seats: in a room without a clock, a human seat that has been to act
 * for the room's idle limit (room_idle_limit_ms()) without acting, connected
 * or not, is treated as absent: a stand-in plays for it the same way. Its
 * idle time starts when it becomes to act (or comes back), ends when it
 * acts, and restarts at a restore (the downtime is not charged).
 */
#include "room/room_int.h"

#include <stdlib.h>

#include "bots.h"
#include "base/util.h"

bool room_has_clock(const struct room *r)
{
	return r->ropt.clock_per_action_ms > 0 || r->ropt.clock_bank_ms > 0;
}

int64_t room_idle_limit_ms(const struct room *r)
{
	if (room_has_clock(r))
		return 0;
	return r->ropt.idle_set ? r->ropt.idle_after_ms : r->host->cfg->idle_limit_ms;
}

static int64_t allowance(const struct room *r)
{
	return r->ropt.clock_per_action_ms > 0 ? r->ropt.clock_per_action_ms : r->ropt.clock_bank_ms;
}

void room_clock_start(struct room *r, int64_t at)
{
	int i;

	for (i = 0; i < RULES_MAX_SEATS; i++) {
		r->clock_left[i] = room_has_clock(r) ? allowance(r) : 0;
		r->clock_since[i] = 0;
	}
	room_clock_sync(r, at);
}

/* Stops seat's running clock at `at`; `acted`: it stopped by the seat's own action. */
static void clock_stop(struct room *r, int seat, int64_t at, bool acted)
{
	int64_t used = at - r->clock_since[seat];

	if (!r->clock_since[seat])
		return;
	r->clock_since[seat] = 0;
	if (r->ropt.clock_per_action_ms > 0) {
		r->clock_left[seat] = r->ropt.clock_per_action_ms; /* the next action has its own */
		return;
	}
	r->clock_left[seat] -= used > 0 ? used : 0;
	if (r->clock_left[seat] < 0)
		r->clock_left[seat] = 0;
	if (acted)
		r->clock_left[seat] += r->ropt.clock_increment_ms;
}

void room_clock_acted(struct room *r, int seat, int64_t at)
{
	r->seats[seat].idle_since = 0; /* room_clock_sync() starts it again if the seat is still to act */
	if (room_has_clock(r))
		clock_stop(r, seat, at, true);
}

/* The idle times: running for each human seat to act that no stand-in plays, stopped for the others. */
static void idle_sync(struct room *r, const uint8_t *to_act, int n, int64_t at)
{
	bool waits[RULES_MAX_SEATS] = { false };
	int i;

	for (i = 0; i < n; i++)
		waits[to_act[i]] = r->seats[to_act[i]].player && !r->seats[to_act[i]].stand_in;
	for (i = 0; i < r->game->seats; i++)
		if (!waits[i])
			r->seats[i].idle_since = 0;
		else if (!r->seats[i].idle_since)
			r->seats[i].idle_since = at ? at : 1;
}

void room_clock_sync(struct room *r, int64_t at)
{
	uint8_t to_act[RULES_MAX_SEATS];
	bool runs[RULES_MAX_SEATS] = { false };
	int i, n = 0;

	if (r->status == ROOM_PLAYING)
		n = rules_to_act(&r->match, to_act);
	idle_sync(r, to_act, n, at);
	if (!room_has_clock(r)) {
		room_timer_arm(r);
		return;
	}
	for (i = 0; i < n; i++)
		runs[to_act[i]] = !r->seats[to_act[i]].bot;
	for (i = 0; i < r->game->seats; i++) {
		if (!runs[i])
			clock_stop(r, i, at, false);
		else if (!r->clock_since[i])
			r->clock_since[i] = at ? at : 1;
	}
	room_timer_arm(r);
}

void room_clock_restored(struct room *r, int64_t now)
{
	int i;

	for (i = 0; i < r->game->seats; i++)
		if (r->seats[i].idle_since)
			r->seats[i].idle_since = now; /* as a clock: the downtime is not charged */
	for (i = 0; room_has_clock(r) && i < r->game->seats; i++)
		if (r->clock_since[i]) { /* what it had when it started running */
			if (r->ropt.clock_per_action_ms > 0)
				r->clock_left[i] = r->ropt.clock_per_action_ms;
			r->clock_since[i] = now;
		}
	room_absence_sync(r, now);
}

void room_absence_sync(struct room *r, int64_t now)
{
	int i;

	for (i = 0; i < r->game->seats; i++) {
		struct room_seat *st = &r->seats[i];

		if (!st->player || player_connected(st->player)) {
			if (st->absent_since && room_reclaim(r, i))
				util_log(LOG_INFO, "room %s: seat %d's player is back: its stand-in stops",
					 r->id, i);
			st->absent_since = 0;
		} else if (!st->absent_since)
			st->absent_since = now;
	}
	room_timer_arm(r);
}

/* The seat whose stand-in is due first, and when (INT64_MAX: none). */
static int64_t stand_in_due(const struct room *r, int *seat)
{
	int64_t after = wire_stand_in_after_ms(&r->ropt), due = INT64_MAX;
	int i;

	*seat = -1;
	if (after <= 0 || r->status != ROOM_PLAYING)
		return due;
	for (i = 0; i < r->game->seats; i++) {
		const struct room_seat *st = &r->seats[i];

		if (st->player && st->absent_since && !st->stand_in && st->absent_since + after < due &&
		    !(r->match.out >> i & 1)) {
			due = st->absent_since + after;
			*seat = i;
		}
	}
	return due;
}

/* The seat whose idle time runs out first, and when (INT64_MAX: none). */
static int64_t idle_due(const struct room *r, int *seat)
{
	int64_t limit = room_idle_limit_ms(r), due = INT64_MAX;
	int i;

	*seat = -1;
	if (limit <= 0 || r->status != ROOM_PLAYING)
		return due;
	for (i = 0; i < r->game->seats; i++) {
		const struct room_seat *st = &r->seats[i];

		if (st->idle_since && !st->stand_in && st->idle_since + limit < due) {
			due = st->idle_since + limit;
			*seat = i;
		}
	}
	return due;
}

/* The seat whose clock runs out first, and when (INT64_MAX: none). */
static int64_t clock_due(const struct room *r, int *seat)
{
	int64_t due = INT64_MAX;
	int i;

	*seat = -1;
	if (!room_has_clock(r) || r->status != ROOM_PLAYING)
		return due;
	for (i = 0; i < r->game->seats; i++)
		if (r->clock_since[i] && r->clock_since[i] + r->clock_left[i] < due) {
			due = r->clock_since[i] + r->clock_left[i];
			*seat = i;
		}
	return due;
}

/* A seat's clock ran out at `now`: the server's action for it, or a forfeit. */
static void clock_expired(struct room *r, int seat, int64_t now)
{
	struct rules_action a;
	struct room_seat *st = &r->seats[seat];

	if (!bot_timeout_action(&r->match, seat, &a)) {
		if (room_apply_by(r, seat, &a, now, true))
			util_log(LOG_ERROR, "room %s: the timeout action was refused", r->id);
		return;
	}
	r->clock_left[seat] = 0;
	r->clock_since[seat] = now; /* stopped by the forfeit's sync with nothing left */
	if (st->player && !player_connected(st->player))
		st->abandoned = true; /* left, and its time ran out */
	if (room_event(r, seat, RULES_EVENT_FORFEIT, now)) {
		r->clock_since[seat] = 0; /* out of play already: its clock stops */
		util_log(LOG_ERROR, "room %s: seat %d's forfeit was refused", r->id, seat);
	}
}

static void timer_cb(uv_timer_t *t)
{
	struct room *r = t->data;
	int64_t now = util_now_ms();
	int cseat, sseat, iseat;
	int64_t cdue = clock_due(r, &cseat), sdue = stand_in_due(r, &sseat), idue = idle_due(r, &iseat);

	if (r->dead)
		return;
	if (cseat >= 0 && cdue <= now) {
		clock_expired(r, cseat, now);
	} else if (sseat >= 0 && sdue <= now) {
		r->seats[sseat].stand_in = true;
		r->seats[sseat].abandoned = true;
	} else if (iseat >= 0 && idue <= now) { /* idle: treated as absent */
		r->seats[iseat].stand_in = true;
		r->seats[iseat].abandoned = true;
		r->seats[iseat].idle_since = 0;
		util_log(LOG_INFO, "room %s: seat %d did not act within %lld ms: a stand-in plays for it",
			 r->id, iseat, (long long)room_idle_limit_ms(r));
	} else {
		room_timer_arm(r);
		return;
	}
	room_changed(r); /* broadcasts, wakes the stand-in, re-arms through the syncs */
	room_timer_arm(r);
}

void room_timer_arm(struct room *r)
{
	int cseat, sseat, iseat;
	int64_t due = clock_due(r, &cseat), sdue = stand_in_due(r, &sseat), idue = idle_due(r, &iseat), wait;

	if (r->restoring || r->dead || !r->clock_timer.data)
		return;
	if (sdue < due)
		due = sdue;
	if (idue < due)
		due = idue;
	if (due == INT64_MAX) {
		uv_timer_stop(&r->clock_timer);
		return;
	}
	wait = due - util_now_ms();
	if (uv_timer_start(&r->clock_timer, timer_cb, wait > 0 ? (uint64_t)wait : 1, 0))
		util_log(LOG_ERROR, "room %s: the clock timer cannot start (the room is closing)", r->id);
}
