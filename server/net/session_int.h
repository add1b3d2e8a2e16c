/*
 * session_int.h (private to server/net/): one WebSocket connection: its bounded write queue of shared
 * frames, its rate limit and its close, and the gate that keeps frames from
 * leaving before what they show is durable.
 *
 * Durable before broadcast (Redis' append-only file, before it replies):
 * every frame queued during a loop turn is held until the journal batch that
 * the turn flushed has committed (and every batch before it, since batches
 * commit in order). A turn that journalled nothing releases its frames as
 * soon as the batches before it have committed. The server ends each turn
 * with sessions_turn_end(batch) and reports commits with
 * sessions_committed(); held frames leave in the order they were queued,
 * at once when they are released into an empty queue and the socket takes
 * them, else from lws' WRITEABLE callback.
 *
 * Knows no rooms or handlers: those call in; the lobby's subscription is a
 * link the lobby keeps (lobby_sub) and net_send_cb() is how it sends. A session belongs to the
 * loop thread; it is freed only from sessions_reap(), never inside an lws
 * callback.
 */
#ifndef QUINTETO_SESSION_INT_H
#define QUINTETO_SESSION_INT_H

#include <stdbool.h>
#include <stdint.h>

#include "base/buf.h"
#include "base/conf.h"
#include "base/metrics.h"
#include "lobby/lobby.h"
#include "net/net.h"

struct lws;
struct player;
struct member;
struct sessions;
struct acct_op;
struct hello_op;

enum session_close {
	SESSION_OPEN = 0,
	SESSION_CLOSE_REQUESTED, /* close with close_code once the queue is written */
	SESSION_CLOSE_SENT,      /* our close frame is out; ignore everything else */
};

/* A queued frame and the journal batch it waits for. */
struct session_frame {
	struct buf *b;
	uint64_t batch; /* released once this batch committed; SESSION_THIS_TURN until the turn ends */
};

#define SESSION_THIS_TURN   UINT64_MAX
#define SESSION_WRITE_BURST 16 /* frames written for one connection at a time */

struct session {
	struct sessions *ss;
	struct lws *wsi;        /* NULL once lws has closed it */
	struct player *player;  /* NULL until hello */
	struct member *members; /* rooms followed (room.h); the handlers keep it */
	char addr[64];
	/* bounded write queue of shared frames; the first `qready` are released */
	struct session_frame *q;
	unsigned qhead, qlen, qcap, qready;
	size_t qbytes;
	/* reassembly of fragmented inbound messages (net.c) */
	char *rx;
	size_t rxlen, rxcap;
	/*
	 * The metrics reply_released and reply_write (issue 24): rx_ns is a message's arrival while it
	 * is handled (net.c), taken by the first frame then queued, its reply; reply_ns is that arrival
	 * while the reply is in the queue (0: none followed; one at a time, so that a queue slot stays
	 * 16 bytes), reply_pos the reply's position counted as qgone is, frames ever gone from the
	 * queue's head (written or dropped).
	 */
	uint64_t rx_ns, reply_ns, reply_pos, qgone;
	/* token bucket (protocol.md: 20/s sustained, bursts of 40) */
	double tokens;
	uint64_t refill_ns;
	unsigned strikes;           /* consecutive rate-limited messages */
	struct lobby_sub lobby_sub; /* written by lobby_subscribe() and lobby_unsubscribe() only */
	int close_state;
	int close_code;
	const char
		*close_reason; /* session_close()'s: a string literal, so not copied (56 bytes a session) */
	bool dead;
	bool in_turn, waiting;
	/* keep-alive (session_keepalive.c); these three sit in padding before the next pointer */
	bool ka_heard;                         /* a frame or a pong came since the sweep's last visit */
	bool ka_ping;                          /* a ping is owed: the next WRITEABLE writes it */
	uint8_t ka_silent;                     /* the sweep's visits in a row that found ka_heard false */
	struct session *turn_next;             /* in ss->turn: queued frames this turn */
	struct session *wait_prev, *wait_next; /* in ss->waiting: holds frames for a batch */
	struct session *reap_next;
	struct session *ka_prev, *ka_next; /* in ss->ka_cursor's ring: every open connection, swept in turn */
	uint64_t id;
	/* accounts: the hash of the token it said hello with (its session's), and its account request
	 * in flight (handlers_account.c; one at a time) */
	char token_hash[65];
	struct acct_op *acct;
	/* its hello waiting for the store's read of its token (handlers_hello.c): the connection is not
	 * read meanwhile; NULL: none */
	struct hello_op *hello;
	/* chat's own token bucket (cfg->chat_burst lines at once, cfg->chat_per_min sustained) */
	double chat_tokens;
	uint64_t chat_refill_ns;
};

#define SESSIONS_BATCH_RING 256

/* Every connection of the server, and the gate's view of the journal. */
struct sessions {
	const struct config *cfg;
	struct metrics *metrics;
	long count; /* open connections */
	uint64_t next_id;
	bool stopping;                          /* nothing is written while lws tears connections down */
	uint64_t flushed, committed;            /* the last journal batch flushed, and committed */
	uint64_t flush_ns[SESSIONS_BATCH_RING]; /* when batch seq was flushed, by seq % ring */
	struct session *turn;                   /* sessions that were sent frames this turn */
	struct session *waiting;                /* sessions holding frames for a batch */
	struct session *dead;                   /* closed, to be freed by sessions_reap() */
	struct session *ka_cursor;              /* the next connection the keep-alive sweep visits */
	double ka_credit;                       /* visits owed by the sweep, carried between ticks */
};

/* Prepares the set (no allocation). `cfg` and `metrics` are borrowed for its life. */
void sessions_init(struct sessions *ss, const struct config *cfg, struct metrics *metrics);

/* Frees the sessions closed so far (from a uv_check_t, or at shutdown). */
void sessions_reap(struct sessions *ss);

/*
 * Ends a loop turn: `flushed` is the batch store_journal_turn() handed to the
 * writer (0: none), `needed` the batch every journal write so far is in
 * (store_journal_needed(): the open batch when the flush was deferred behind
 * a batch in flight). Tags this turn's frames with `needed` and releases what
 * may go out already.
 */
void sessions_turn_end(struct sessions *ss, uint64_t flushed, uint64_t needed);

/* Journal batch `batch` committed (err 0) or failed (err < 0: held frames stay held). */
void sessions_committed(struct sessions *ss, uint64_t batch, int err);

/* Frames held for a batch not yet committed, on every connection (a gauge). */
long sessions_held(const struct sessions *ss);

/* A new connection for `wsi`; NULL on ENOMEM. */
struct session *session_new(struct sessions *ss, struct lws *wsi);

/*
 * lws has closed the connection: the session is taken off the gate's lists
 * and reaped later. The caller has detached it from rooms, lobby and player.
 */
void session_closed(struct session *s);

/*
 * Queues a reference to `b` (held until the turn's batch commits). A session
 * that cannot keep up is closed; b NULL, a closing or dead session: nothing.
 */
void session_send(struct session *s, struct buf *b);

/* Serialises `j_take` (taken, may be NULL) and queues it. */
void session_send_json(struct session *s, json_t *j_take);

/* Queues an `error` frame: a WIRE_E_* code, a message, the request's id (borrowed, may be NULL). */
void session_send_error(struct session *s, int err, const char *message, const json_t *id);

/*
 * session_send_error() for a refusal that shows nothing of any room (the
 * journal is failing): it waits for the frames queued before it on this
 * connection, not for the journal, so a client hears "try again" while the
 * batches before it are still being retried.
 */
void session_send_refusal(struct session *s, int err, const char *message, const json_t *id);

/*
 * Queues an `error` without id ahead of the frames held for the journal,
 * behind those already released: a notice that shows nothing of any room
 * (the database cannot be written), which must not wait for the very commit
 * it is about. Nothing when the queue is full or the session closing.
 */
void session_send_notice(struct session *s, int err, const char *message);
/*
 * Drops the frames still held for the journal (never shown, and perhaps never
 * saved): at the end of a stop's grace, so that a requested close goes out.
 */
void session_drop_held(struct session *s);
/*
 * Closes with `code` once every queued frame is written. `reason` is kept,
 * not copied: a string that outlives the session (every caller's is a
 * literal), at most SESSION_CLOSE_REASON_MAX bytes of it sent.
 */
void session_close(struct session *s, int code, const char *reason);
#define SESSION_CLOSE_REASON_MAX 63

/*
 * lws' WRITEABLE callback: writes released frames while the socket takes
 * them (at most SESSION_WRITE_BURST). 0, or NET_E_CLOSE to close the connection.
 * Frames released into an empty queue are written at once if the socket is
 * writable, without waiting for this callback (session.c says why).
 */
int session_writeable(struct session *s);

/*
 * Keep-alive (session_keepalive.c), instead of lws' per-connection ping
 * timers (which cost O(n) each in lws 4.1's sorted timer list): one sweep on
 * the loop visits every open connection SESSION_KA_VISITS times per
 * ping_interval_s, a slice each tick. A connection that received nothing (no
 * frame, no pong) for a whole interval is pinged; one still silent an
 * interval after that is dropped. Any frame or pong counts as life.
 */
#define SESSION_KA_VISITS 2

/* A frame or a pong arrived: the connection is alive. */
static inline void session_heard(struct session *s)
{
	s->ka_heard = true;
}

/* Puts a new session on the sweep's ring (from session_new()) or takes it off (session_closed()). */
void session_ka_link(struct session *s);
void session_ka_unlink(struct session *s);

/*
 * One tick of the sweep, `elapsed_ns` after the last (counted as `max_ns`
 * at most: a late tick does not catch up): visits its share of the
 * connections (count * elapsed / (ping_interval_s / SESSION_KA_VISITS),
 * never more than count), pinging or dropping the silent ones. Returns how
 * many it visited.
 */
unsigned sessions_ka_tick(struct sessions *ss, uint64_t elapsed_ns, uint64_t max_ns);

/*
 * From lws' WRITEABLE callback, before session_writeable(): writes the ping
 * the sweep asked for, if any (not once the close has begun). 0, or
 * NET_E_CLOSE when lws failed to write.
 */
int session_ka_writeable(struct session *s);

/* Takes one token from the rate limiter; false when over the limit. */
bool session_rate_take(struct session *s);

/* Takes one token from the chat limiter; false when the connection chats too fast. */
bool session_chat_take(struct session *s);

/* Gives back a token (an accepted act is not rate limited). */
void session_rate_refund(struct session *s);

/* Answers `rate_limited`, closing a connection that stays over the limit. */
void session_rate_refuse(struct session *s, const json_t *id);

#endif
