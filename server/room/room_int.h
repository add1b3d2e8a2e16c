/*
 * room_int.h: what the room's own files share (room.c, room_play.c,
 * room_clock.c, room_restore.c) and nothing else of the server sees: the
 * room, its seats, log and members as structs, and the steps of a change
 * (apply, event, finish, clocks) that the public functions of room.h are
 * made of. Other modules read a room through room.h's accessors; the
 * room's own unit tests (tests/unit/server/test_room.c, test_restore.c)
 * include this header to check its invariants.
 *
 * Invariants: see room.h.
 */
#ifndef QUINTETO_ROOM_INT_H
#define QUINTETO_ROOM_INT_H

#include <pthread.h>
#include <stdatomic.h>

#include "room/room.h"
#include "bots.h"

/* How many recent plies' states a playing room keeps for reconnecting clients (`since`). */
#define ROOM_RECENT 16

/* A follower of a room (a connection, seated or watching). */
struct member {
	void *who;             /* the follower, opaque to the room; host->send's first argument */
	struct player *player; /* the follower's identity (its seat, if any) */
	struct room *r;
	struct member **list;                 /* head of the follower's own list of memberships */
	struct member *room_prev, *room_next; /* in r->members */
	struct member *who_next;              /* in *list */
	uint64_t seen_spectators; /* the room's spectators_epoch its last state showed, if sent alone */
};

struct room_seat {
	bool taken;
	bool bot;
	struct player *player;               /* NULL for bots and free seats */
	const struct bot_strategy *strategy; /* a bot's level; NULL for humans */
	char bot_name[32];
	bool has_seed;
	char client_seed[WIRE_CLIENT_SEED_MAX * 4 + 1];
	bool stand_in;  /* a bot of the room's stand-in level plays for the absent player */
	bool abandoned; /* the player left the seat to a stand-in (or the clock) and has not come back */
	int64_t absent_since; /* Unix ms the player's last connection went; 0: connected (or a bot) */
	int64_t idle_since;   /* Unix ms it became to act without acting since (idle limit); 0: not */
};

/* One entry of the match's log: an action (kind 0) or an event. */
struct room_entry {
	int kind; /* 0: action; else enum rules_event_kind */
	int ply;  /* actions accepted before this entry (an action's own ply) */
	int seat;
	int64_t at;      /* Unix ms */
	char *action;    /* compact JSON; NULL for an event */
	char *outcome;   /* compact JSON; NULL for an event */
	bool stand_in;   /* an action a stand-in (not the seat's player) made */
	unsigned to_act; /* an action's: the seats in to_act when it was accepted (bit s: seat s) */
};

/* One legal action's encoding in its seat's frame: bytes [off, off + len) of cache_seat[seat]->data. */
struct room_legal_span {
	uint32_t off, len;
};

/*
 * A seat's legal actions at the room's current state, and where each one's
 * encoding sits in the seat's frame (so that an incoming action's bytes can be
 * matched against the list without decoding it). Built with the seat's frame
 * (cache_build) and cleared with it; the next change reuses the bytes of the
 * actions that stay legal instead of encoding them again. The arrays grow to
 * the longest list the seat has had and stay until the room is freed, so a
 * warm room allocates nothing per change.
 */
struct room_seat_legal {
	bool valid;                    /* the current state's: n, actions, spans, at and text hold */
	int n;                         /* legal actions (the seat's frame has them all in its `legal`) */
	int cap;                       /* of actions and spans */
	struct rules_action *actions;  /* [n], in the order of the frame's `legal` */
	struct room_legal_span *spans; /* [n], offsets in cache_seat[seat]->data */
	size_t at;                     /* offset of `legal`'s '[' in that frame */
	char *text;                    /* `legal` as written, "[...]": text_len bytes (text_cap allocated) */
	size_t text_len, text_cap;
};

struct room {
	const struct room_host *host;
	char id[WIRE_ROOM_ID_MAX + 1];
	char creator[16]; /* player id of the room's creator ("" after a restore of an old journal) */
	const struct rules_game *game;
	const struct wire_game *codec;
	struct wire_room_options ropt;
	struct rules_options gopt;
	bool has_roll; /* the game has {"roll":true}; `roll` is its compact form */
	struct rules_action roll;
	enum room_status status;
	uint8_t server_seed[32];
	char commit[65];
	char server_seed_hex[65];
	struct room_seat seats[RULES_MAX_SEATS];
	struct rules_match match; /* preview (zero seed) until the start */
	struct member *members;
	int nmembers;
	bool has_last;
	int last_seat;
	struct rules_action last_action;
	union rules_outcome last_outcome;
	struct room_entry *log;
	size_t nlog, caplog, nactions;
	struct store_texts
		*texts; /* the log's action and outcome texts (room_text.h), moved to the archive */
	int64_t created_at, started_at, ended_at, idle_since;
	uv_timer_t bot_timer;
	uint64_t bot_rng;
	struct room_bot_job *bot_job; /* the bot's move being thought on a worker; NULL: none */
	uint32_t bot_gen; /* one more at each change a bot's answer must not outlive: an event, a reclaim */
	/* clocks (room_clock.c): each seat's time left at clock_since (0: stopped) */
	int64_t clock_left[RULES_MAX_SEATS];
	int64_t clock_since[RULES_MAX_SEATS];
	uv_timer_t clock_timer; /* the next clock expiry or stand-in due; one per room */
	int open_handles;       /* timers not yet closed (the room is freed at 0) */
	const struct bot_strategy *stand_in_strategy;
	struct buf *cache_all;                              /* state for spectators; NULL = stale */
	struct buf *cache_seat[RULES_MAX_SEATS];            /* state with `legal` for a seat to act */
	struct room_seat_legal seat_legal[RULES_MAX_SEATS]; /* what cache_seat[i]'s `legal` holds */
	size_t cache_legal_at;                              /* offset of `legal`'s "[]" in cache_all */
	char *options_state; /* `state.options` as bytes (the options never change); NULL: not yet */
	size_t options_state_len;
	bool rated;     /* a rated room (room_set_rated) */
	bool restoring; /* replaying the journal: do not journal */
	bool dead;
	char *summary; /* room_summary() as compact text, for the lobby list; NULL = stale */
	size_t summary_len;
	int64_t absent_since;            /* no human seat connected since (Unix ms); 0: someone is */
	struct room_host_data host_data; /* the host's, never read here (room_host_data()) */
	/* the spectators' frame last sent at each recent ply, for catching up (protocol.md, Reconnecting) */
	struct buf *recent[ROOM_RECENT];
	int64_t recent_ply[ROOM_RECENT];
	/* chat mutes, per seat: bit s hides seat s's lines from it, ROOM_MUTE_SPECTATORS the spectators' */
	unsigned mutes[RULES_MAX_SEATS];
	/* the rematch offer of a finished room (protocol.md, Rematch); expiry runs on bot_timer */
	enum room_rematch rematch;
	int rematch_by;
	unsigned rematch_accepted; /* a mask of seats; bots accept by themselves */
	int64_t rematch_expires_at;
	char rematch_room[WIRE_ROOM_ID_MAX + 1]; /* once accepted */
	bool after_journalled;     /* its mutes or rematch offer are in the journal (store_live_after) */
	uint64_t spectators_epoch; /* one more at each coming or going of a spectator */
	bool spectators_due;       /* the members have not seen the spectator count yet */
};

/* --- between the room's own files (room_play.c) ---------------------------- */

/* Sends the state to every member (the state changed). */
void room_broadcast(struct room *r);

/*
 * The legal actions of `seat` in the frame it is sent now, and their bytes'
 * places in that frame (the frames are built if they are not): NULL when the
 * seat gets no frame of its own (not to act, nothing to choose, a bot).
 */
const struct room_seat_legal *room_seat_legal(struct room *r, int seat);

/*
 * The index in seat_legal[seat].actions of the legal action whose bytes in the
 * seat's cached frame are text[0..len) (the compact encoding the frame sent);
 * -1 if none, or if the seat's frame is not cached (nothing is built here).
 */
int room_legal_find(const struct room *r, int seat, const char *text, size_t len);

/*
 * The frame of a seat to act built the general way, its whole `legal` encoded
 * again (wire_legal_out) and nothing reused: the definition the cached frame
 * (room_state_for) must equal byte for byte; the unit test compares them. A
 * new reference, or NULL when the seat gets no frame of its own.
 */
struct buf *room_seat_frame_plain(struct room *r, int seat);

/* True when autoroll plays `legal` (a lone {"roll":true}) for a human seat. */
bool room_autorolls(const struct room *r, const struct rules_action *legal, int n);

/* Applies an action through the rules core and logs (and journals) it at `at`. 0, -ENOMEM or ROOM_E_ILLEGAL.
 */
int room_apply(struct room *r, int seat, const struct rules_action *a, int64_t at);

/* Applies an event (a resignation, a forfeit) and logs (and journals) it. 0, -ENOMEM or ROOM_E_GAME_OVER. */
int room_event(struct room *r, int seat, int kind, int64_t at);

/*
 * Seats `p` (NULL: a bot playing `strategy`) with its client seed (NULL:
 * none) in `seat`, which the caller checked.
 */
void room_seat_fill(struct room *r, int seat, struct player *p, const char *client_seed,
		    const struct bot_strategy *strategy);

/* Starts the match when no seat is free. */
void room_start_if_full(struct room *r);

/*
 * Marks the match over at `ended_at` and archives it: the log's texts move to
 * the archive record and the log is released (the room keeps its state).
 */
void room_finish(struct room *r, int64_t ended_at);

/* Frees the log and its texts; the room's counts (nactions) stay. */
void room_log_release(struct room *r);

/*
 * Journals what the seated players set beside the match, whole: every seat's
 * mutes and the rematch offer (store_live_after). Not while restoring.
 */
void room_after_journal(struct room *r);

/* Plays due autorolls and wakes the bots (after a change or a restore). */
void room_resume(struct room *r);

/*
 * As room_apply(), marking the action as a stand-in's (or the server's for
 * the seat) when `stand_in`.
 */
int room_apply_by(struct room *r, int seat, const struct rules_action *a, int64_t at, bool stand_in);

/*
 * The seat's player takes it back from a stand-in (join of one's own seat,
 * an action, or its reconnection). True when a stand-in held it.
 */
bool room_reclaim(struct room *r, int seat);

/* --- the bot workers (room_bots.c) ----------------------------------------- */

/* Jobs waiting for a worker, at most; a room whose job does not fit retries later. */
#define ROOM_BOTS_QUEUE 1024

/*
 * One bot move to think about, from the room (on the loop) to a worker and
 * back. A worker reads match, seat, strategy and ctx and writes ctx, err,
 * action and think_ns; `room` is the loop's alone (NULL once the room closed).
 */
struct room_bot_job {
	struct room_bot_job *next; /* in the pool's queue (under its mutex) */
	struct room *room;         /* the loop's: NULL when the room closed while the job was out */
	size_t ply;                /* the room's nactions when it asked */
	uint32_t gen;              /* the room's bot_gen when it asked */
	int seat;
	const struct bot_strategy *strategy;
	struct rules_match match; /* a copy: the position as it was asked */
	struct bot_ctx ctx;       /* rng in; the worker sets budget, stop, arena */
	const atomic_bool *stop;  /* the pool's stop flag (stop_cb) */
	atomic_bool cancel;       /* set on the loop once the answer cannot count: the search stops early */
	uint64_t deadline_ns;     /* util_mono_ns() past which the search stops */
	int err;                  /* bot_choose()'s answer */
	struct rules_action action;
	uint64_t think_ns; /* how long the worker thought */
};

/*
 * Queues `j` (the caller's malloc, owned by the pool from now on) for a
 * worker. 0, or -EAGAIN: the queue is full or the pool stopping (the caller
 * keeps `j`).
 */
int room_bots_submit(struct room_bots *b, struct room_bot_job *j);

/*
 * On the loop: the answer of the room's job `j` (borrowed: the pool frees it
 * after); the room plays it unless it went stale, which it counts.
 */
void room_bot_answer(struct room *r, const struct room_bot_job *j);

/*
 * On the loop: the room's position moved, or the room closes, while a worker
 * thinks for it: that answer will be dropped as stale, so the search stops
 * now instead of at its deadline (no work for a position that is gone).
 */
void room_bot_cancel(struct room *r);

/* --- clocks and absent seats (room_clock.c) -------------------------------- */

/* True when the room has a clock. */
bool room_has_clock(const struct room *r);

/*
 * The room's idle limit, ms (0: none): a human seat to act that has not acted
 * for this long gets a stand-in. Its `idle_after_ms`, else the server's
 * idle_limit_ms; none with a clock (the clock limits each turn).
 */
int64_t room_idle_limit_ms(const struct room *r);

/* At the start of the match: every seat's allowance, then room_clock_sync(). */
void room_clock_start(struct room *r, int64_t at);

/*
 * `seat` acted at `at`: its running clock stops (bank: minus the time used,
 * plus the increment) and its idle time ends.
 */
void room_clock_acted(struct room *r, int seat, int64_t at);

/*
 * After any change at `at`: the clocks of the seats to act run, the others
 * stop; the idle times of the seats to act start; the timer re-arms.
 */
void room_clock_sync(struct room *r, int64_t at);

/*
 * The seats' absence times follow their players' connections: a seat whose
 * player came back takes it back from its stand-in at once. The timer re-arms.
 */
void room_absence_sync(struct room *r, int64_t now);

/* After a restore: running clocks restart now (the downtime is not charged); the timer arms. */
void room_clock_restored(struct room *r, int64_t now);

/* Re-arms the room's timer for the next clock expiry or stand-in due (stops it if none). */
void room_timer_arm(struct room *r);

#endif
