/*
 * room.h: one room hosts one match. Seats fill while `waiting`; the match
 * starts by itself when every seat is taken. Every change goes through the
 * rules core, is journalled through the store, and is sent to the room's
 * members as one shared frame per audience (spectators, each seat to act).
 *
 * Dependencies point down only: the room knows players (player.h), the
 * store, the rules core and the codec. It never calls the sessions or the
 * lobby above it: frames leave through `room_host.send(who, frame)` and a
 * changed summary is reported through `room_host.changed(ctx)`; both are
 * callbacks the host (the lobby) installs.
 *
 * This header is the room module's whole face: `struct room` and `struct
 * member` are opaque, read by other modules through the accessors below
 * (room_id(), room_game(), room_status(), ...); the room's own files share
 * room/room_int.h, which nothing outside server/room/ includes (but the
 * room's own unit tests).
 *
 * The room's log holds what made the match, in order: accepted actions and
 * events (a resignation, a forfeit). Invariants, checked with assert():
 * r->match.ply == r->nactions == the number of actions in the log (until the
 * match is finished: its log then moves to the archive record, and a finished
 * room keeps only what its spectators see, its state); an entry's
 * `ply` is the number of actions before it; a seat is `taken` exactly when it
 * has a player or a bot; a waiting room has at least one free seat.
 *
 * Errors (docs/ARCHITECTURE.md): 0, a negative errno for a system failure,
 * or a ROOM_E_* code, negative in the room's band -1300..-1399 (the request
 * is refused and the room is untouched); room_strerror() names them in the
 * words the player is sent, and the handlers map them to the protocol's codes.
 */
#ifndef QUINTETO_ROOM_H
#define QUINTETO_ROOM_H

#include <stdbool.h>
#include <stdint.h>
#include <uv.h>

#include "base/buf.h"
#include "base/conf.h"
#include "base/metrics.h"
#include "player/player.h"
#include "wire.h"

struct store;
struct store_match;
struct bot_strategy;
struct room_bots; /* the bot workers (room_bots.c) */
struct room;      /* opaque: read through the accessors below */
struct member;    /* a follower's membership of a room, opaque (room_member_*) */

/* The room's refusals: the band -1300..-1399 (docs/ARCHITECTURE.md, Errors). */
enum room_error {
	ROOM_E_ROOM_FULL = -1300,      /* no free seat, or the match has started */
	ROOM_E_SEAT_TAKEN = -1301,     /* the seat asked for is held */
	ROOM_E_BAD_SEAT = -1302,       /* the game has no such seat */
	ROOM_E_ALREADY_SEATED = -1303, /* the player holds a seat here already */
	ROOM_E_NOT_IN_ROOM = -1304,    /* the player holds no seat (or may not add a bot) */
	ROOM_E_NOT_STARTED = -1305,    /* the match has not started */
	ROOM_E_GAME_OVER = -1306,      /* the match is over, or the seat is out of play */
	ROOM_E_STALE_PLY = -1307,      /* `ply` is not one the seat may act at */
	ROOM_E_NOT_YOUR_TURN = -1308,  /* the seat is not to act */
	ROOM_E_ILLEGAL = -1309,        /* not an action of this game, or not legal now */
	ROOM_E_BAD_OPTIONS = -1310,    /* the rules core refused the options */
	ROOM_E_NO_REMATCH = -1311,     /* not finished, already rematched, or no offer to decline */
};

/* What a ROOM_E_* code means, for people and logs (an errno: strerror's text; else "unknown"). */
const char *room_strerror(int code);

enum room_status { ROOM_WAITING, ROOM_PLAYING, ROOM_FINISHED };

#define ROOM_MUTE_SPECTATORS (1u << 7)

enum room_rematch {
	ROOM_REMATCH_NONE,
	ROOM_REMATCH_OFFERED,
	ROOM_REMATCH_DECLINED,
	ROOM_REMATCH_EXPIRED,
	ROOM_REMATCH_ACCEPTED
};

/*
 * What the host keeps in each room for its own books (the lobby's counts and
 * its list of rooms due a spectator count): the room never reads or writes
 * it, and starts it zeroed. Reached through room_host_data().
 */
struct room_host_data {
	char creator_addr[64];        /* where its opener connected from (its creator's, or a rematch's) */
	char opener[16];              /* the player who opened it, in the live counts */
	bool counted;                 /* a waiting room in its creator's and address's counts */
	bool live_counted;            /* in its opener's and address's live rooms */
	bool bot_only;                /* started with a bot in every seat: counted in the host's bot rooms */
	bool spectators_listed;       /* in the host's list of rooms to flush */
	struct room *spectators_next; /* in that list */
};

/* What a room needs from the server around it; one per server, owned by the host. */
struct room_host {
	uv_loop_t *loop;
	struct store *store;
	const struct config *cfg;
	struct metrics *metrics;
	bool stopping;                              /* shutting down: keep the journal of open rooms */
	void (*send)(void *who, struct buf *frame); /* queue a frame to a member (a reference is taken) */
	void (*changed)(void *ctx);                 /* a room's summary changed */
	void *ctx;                                  /* for changed() */
	/*
	 * The spectator count of `r` changed: call room_spectators_flush(r) soon
	 * (coalesced with the room's other comings and goings; ctx as changed()'s).
	 * NULL: every change is sent at once.
	 */
	void (*spectators)(void *ctx, struct room *r);
	/* the bot workers (room_bots_new()); NULL: bots choose on the loop (the room's unit tests) */
	struct room_bots *bots;
	/*
	 * A rated match was archived and its ratings applied (committed): m's
	 * seats, game and new figures (m->after), borrowed for the call. NULL:
	 * nobody is told (ctx as changed()'s).
	 */
	void (*rated)(void *ctx, const struct store_match *m);
};

/* --- life (room.c) ------------------------------------------------------- */

/*
 * Creates a room with id `id` (unique: the caller checks) for `creator` (a
 * player id, borrowed) and journals it. 0, ROOM_E_BAD_OPTIONS, -EIO (no
 * secure random bytes) or -ENOMEM.
 */
int room_new(const struct room_host *host, const char *id, const char *creator, const struct rules_game *g,
	     const struct wire_game *codec, const struct wire_room_options *ropt,
	     const struct rules_options *gopt, struct room **out);

/*
 * Re-creates a journalled room (start-up) in the restoring state: nothing is
 * journalled until room_restore_finish(). started_at: the journalled start
 * (0: not started), from which the clocks start when the seats fill. 0 or
 * -EINVAL for a record that makes no sense.
 */
int room_restore(const struct room_host *host, const char *id, const char *game, const char *options,
		 const char *seed_hex, const char *creator, int64_t created_at, int64_t started_at,
		 struct room **out);

/*
 * Takes the room out of play: members detached, seats forgotten by their
 * players, the journal dropped if the match was neither over nor being
 * restored (and the host not stopping). Frees it once its timer has closed.
 * The caller removes it from its registry first.
 */
void room_destroy(struct room *r);

/* True once a finished room, or a waiting room nobody follows, has outlived its time. */
bool room_expired(const struct room *r, int64_t now);

/*
 * As room_destroy(), but whatever the store holds of the room (its journal,
 * its mutes and rematch offer) stays there, as for a room still restoring.
 */
void room_destroy_kept(struct room *r);

/* --- reading a room (room.c): what other modules may know of it ----------- */

/* The room's id (borrowed, for the room's life). */
const char *room_id(const struct room *r);

/* The game and its codec. */
const struct rules_game *room_game(const struct room *r);
const struct wire_game *room_codec(const struct room *r);

/* The options it was created with: the room's and the game's (borrowed). */
const struct wire_room_options *room_wire_options(const struct room *r);
const struct rules_options *room_rules_options(const struct room *r);

/* Waiting, playing or finished. */
enum room_status room_status(const struct room *r);

/*
 * A rated room (PROTOCOL.md, Rated rooms): every seat an account's, no bots,
 * the match's result applied to the seats' ratings when it is archived.
 * room_set_rated(): makes a new room (before anyone sits) or a restored one
 * rated, and journals it (not while restoring: the journal said so).
 */
bool room_rated(const struct room *r);
void room_set_rated(struct room *r);

/*
 * A seated player's rating changed (a rated match elsewhere committed): the
 * summary and the state are built again when next asked for, showing it.
 */
void room_seats_restyled(struct room *r);

/* The player id of its creator; "" when unknown (a restore of an old journal). */
const char *room_creator(const struct room *r);

/* Unix ms the room was created. */
int64_t room_created_at(const struct room *r);

/*
 * Unix ms of its last change: the last entry of its log, else its start,
 * else its creation.
 */
int64_t room_last_at(const struct room *r);

/* Since when (Unix ms) no human seat of a playing room has a connection; 0: someone has. */
int64_t room_absent_since(const struct room *r);
void room_set_absent_since(struct room *r, int64_t at);

/* Whether `seat` (a seat of the game) is held by a player or a bot. */
bool room_seat_taken(const struct room *r, int seat);

/* The player holding `seat`; NULL for a bot or a free seat. */
struct player *room_seat_player(const struct room *r, int seat);

/* The strategy of the bot holding `seat`; NULL for a player or a free seat. */
const struct bot_strategy *room_seat_bot(const struct room *r, int seat);

/* The chat mutes of `seat`: bit s hides seat s's lines from it, ROOM_MUTE_SPECTATORS the spectators'. */
unsigned room_mutes(const struct room *r, int seat);

/* The host's own fields of `r` (struct room_host_data). */
struct room_host_data *room_host_data(struct room *r);

/* --- members (room.c) ---------------------------------------------------- */

/*
 * Makes `who` (with identity `p`) a member of `r`, linked into the member
 * list `*list` that the follower owns. Already a member: 0. 0 or -ENOMEM.
 */
int room_member_add(struct room *r, struct member **list, void *who, struct player *p);

/* Removes the follower whose list is `*list` from `r`; not a member: nothing. */
void room_member_del(struct room *r, struct member **list);

/* True when the follower with list `list` follows `r`. */
bool room_is_member(const struct room *r, const struct member *list);

/*
 * The members of `r` in turn: room_members() the first, room_member_next()
 * the one after `m` (NULL: no more); who, identity, list (as
 * room_member_add() took them) and room of a membership.
 */
struct member *room_members(const struct room *r);
struct member *room_member_next(const struct member *m);
void *room_member_who(const struct member *m);
struct player *room_member_player(const struct member *m);
struct member **room_member_list(const struct member *m);
struct room *room_member_room(const struct member *m);

/* The seat `p` holds in `r`, or -1 for none, as the protocol's seat -1 (p may be NULL). */
int room_seat_of(const struct room *r, const struct player *p);

/* --- frames (room.c) ----------------------------------------------------- */

/* The room summary (new reference; NULL on ENOMEM). */
json_t *room_summary(const struct room *r);

/* room_summary() as compact text, cached until the room changes (borrowed; NULL on ENOMEM). */
const char *room_summary_text(struct room *r, size_t *len);

/* True when some human seat of `r` has a connection. */
bool room_human_connected(const struct room *r);

/* The current `state` frame as `p` (NULL: a spectator) should see it; borrowed, NULL on ENOMEM. */
struct buf *room_state_for(struct room *r, const struct player *p);

/*
 * A follower `who` (identity `p`) that last saw ply `since` of `r` comes
 * back: sends it, in order, the spectators' states of the plies it missed
 * before the current one, when the room still keeps every one of them
 * (protocol.md, Reconnecting); otherwise nothing. The caller then sends the
 * current state. since < 0: nothing.
 */
void room_send_missed(struct room *r, void *who, int64_t since);

/* A seated player's connections came or went: every member sees it, the lobby too. */
void room_connected_changed(struct room *r);

/* --- play (room_play.c) -------------------------------------------------- */

/*
 * Seats `p` (seat -1: the first free one) with an optional client seed;
 * starts the match when the last seat fills. 0 or ROOM_E_ALREADY_SEATED,
 * ROOM_E_BAD_SEAT, ROOM_E_SEAT_TAKEN, ROOM_E_ROOM_FULL, ROOM_E_GAME_OVER.
 * The caller sends its reply, then room_changed().
 */
int room_join(struct room *r, struct player *p, int seat, const char *client_seed, int *seat_out);

/*
 * Seats a bot playing `strategy` (one of the room's game, bot_find()) for
 * `by` (who must be the creator or seated here: ROOM_E_NOT_IN_ROOM
 * otherwise). Other errors as room_join().
 */
int room_add_bot(struct room *r, const struct player *by, int seat, const struct bot_strategy *strategy,
		 int *seat_out);

/* Frees p's seat before the start (*changed = true); during a match it is held. 0 or ROOM_E_NOT_IN_ROOM. */
int room_leave(struct room *r, struct player *p, bool *changed);

/*
 * Plays `action` (the client's JSON) for p's seat at `ply` (protocol.md: the
 * current ply, or an older one when every action since was another seat's
 * and the action is legal now). Broadcasts on success. 0, -ENOMEM or
 * ROOM_E_NOT_IN_ROOM, ROOM_E_GAME_OVER, ROOM_E_NOT_STARTED, ROOM_E_STALE_PLY,
 * ROOM_E_NOT_YOUR_TURN, ROOM_E_ILLEGAL.
 */
int room_act(struct room *r, struct player *p, int64_t ply, const json_t *action);

/*
 * As room_act() with the action as JSON text (an object that jansson parses
 * without error: wire_msg_scan_act() checked it): text equal to one of the
 * seat's legal actions in its last `state` frame is that action; any other
 * is parsed and decoded by the codec as room_act() does. -ENOMEM too.
 */
int room_act_text(struct room *r, struct player *p, int64_t ply, const char *action, size_t len);

/*
 * Resigns p's seat: an event in the log. *seat_out gets the seat. The caller
 * sends its reply, then room_changed(). 0, -ENOMEM or ROOM_E_NOT_IN_ROOM,
 * ROOM_E_NOT_STARTED, ROOM_E_GAME_OVER (over, or the seat is out of play).
 */
int room_resign(struct room *r, struct player *p, int *seat_out);

/*
 * Forfeits `seat` (its player is gone): an event in the log at `at`, which
 * may end the match. The caller then calls room_changed(). 0 (also when
 * there is nothing to forfeit: the match is over, or the seat out of play
 * already) or -ENOMEM.
 */
int room_forfeit(struct room *r, int seat, int64_t at);

/* After any change: broadcast, play autorolls, wake the bots, tell the host. */
void room_changed(struct room *r);

/* Sends a chat line to every member (seat -1: a spectator) but the seats that muted its sender. */
void room_chat(struct room *r, int seat, const char *name, const char *text);

/*
 * Seat `seat` mutes (on) or unmutes chat from `target`: a seat, or
 * ROOM_MUTE_SPECTATORS. 0, ROOM_E_BAD_SEAT (its own seat, or one the game lacks).
 */
int room_mute(struct room *r, int seat, int target_seat, bool spectators, bool on);

/*
 * Seat `seat` offers or accepts (accept) or declines a rematch of the
 * finished room. *complete is set when every human seat has accepted: the
 * caller opens the new room and calls room_rematch_opened(). 0 or
 * ROOM_E_NO_REMATCH. The caller then calls room_changed().
 */
int room_rematch(struct room *r, int seat, bool accept, bool *complete);

/* The rematch of `r` opened as room `id`. */
void room_rematch_opened(struct room *r, const char *id);

/* A room's rematch offer as it stands, to put back when its completion could not open the new room. */
struct room_rematch_saved {
	enum room_rematch status;
	int by;
	unsigned accepted;
	int64_t expires_at;
};
void room_rematch_save(const struct room *r, struct room_rematch_saved *out);

/* Puts the offer back as room_rematch_save() saw it (its expiry timer too); nothing is sent. */
void room_rematch_undo(struct room *r, const struct room_rematch_saved *saved);

/*
 * A follower without a seat came or went: every member sees the new count,
 * at once without host->spectators, else at room_spectators_flush() (or with
 * the room's next state, whichever comes first). The next room_state_for()
 * has the new count.
 */
void room_spectators_changed(struct room *r);

/* Sends the state to every member that has not seen the spectator count yet. */
void room_spectators_flush(struct room *r);

/*
 * Sends the follower whose list is `list` (a new spectator) the current state
 * at once: the first state it sees is the room's state now, and the
 * coalesced one of room_spectators_flush() skips it unless the count changed
 * again meanwhile.
 */
void room_send_current(struct room *r, const struct member *list);

/* --- restore (room_restore.c): the callbacks of the store's journal reading */

/*
 * Puts a journalled seat back (p NULL: a bot of `bot_level`, NULL meaning
 * random; a level this build lacks plays random). 0 or -EINVAL.
 */
int room_restore_seat(struct room *r, int seat, struct player *p, const char *client_seed,
		      const char *bot_level);

/* Re-applies a journalled action and checks its recorded outcome. 0 or -EINVAL. */
int room_restore_action(struct room *r, int ply, int seat, const char *action, const char *outcome,
			int64_t at, bool stand_in);

/* Re-applies a journalled event at its ply. 0 or -EINVAL. */
int room_restore_event(struct room *r, int ply, int seat, int kind, int64_t at);

/*
 * Ends a restore: the journalled start time, then the archive (the match was
 * over but not archived) or play resumes (autorolls due, bots woken).
 */
void room_restore_finish(struct room *r, int64_t started_at);

/*
 * Ends the restore of a room rebuilt from its archived match (it lingers
 * finished, with mutes or a rematch offer): finished at `ended_at`, nothing
 * archived again. 0 or -EINVAL (the replay did not end the match).
 */
int room_restore_archived(struct room *r, int64_t started_at, int64_t ended_at);

/*
 * Puts back the journalled mutes and rematch offer (store_live_after's JSON
 * texts; rematch NULL: none) of a restored room. An offer that expired
 * meanwhile shows as expired; one still open expires in the time it had
 * left. 0 or -EINVAL (then nothing is changed).
 */
int room_restore_after(struct room *r, const char *mutes, const char *rematch);

/* --- the bot workers (room_bots.c) ---------------------------------------- */

/*
 * The number of bot worker threads for the `bot_threads` setting: itself when
 * positive, else one fewer than the cores online, at least one.
 */
int room_bots_threads(int setting);

/*
 * Starts the bot workers on `loop` (cfg's bot_threads, bot_move_ms and
 * bot_budget; metrics borrowed for the pool's life): each thread allocates its
 * search arena (BOT_ARENA_SIZE) once. *out is set even on failure (free it
 * with room_bots_free() after room_bots_stop()). 0, -ENOMEM, or a negative
 * errno/libuv code.
 */
int room_bots_new(uv_loop_t *loop, const struct config *cfg, struct metrics *metrics, struct room_bots **out);

/*
 * Shutdown, on the loop, after every room is destroyed: searches stop, the
 * workers are joined, jobs left are freed and the async handle is closed (the
 * loop must run once more before room_bots_free()). Idempotent; NULL: nothing.
 */
void room_bots_stop(struct room_bots *b);

/* Frees the pool (stopped first if it was not). NULL: nothing. */
void room_bots_free(struct room_bots *b);

/* Jobs waiting for a worker and jobs being thought about, now (for /metrics). NULL: 0 and 0. */
void room_bots_counts(struct room_bots *b, size_t *queued, size_t *running);

#endif
