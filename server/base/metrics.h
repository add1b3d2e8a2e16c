/*
 * metrics.h: counters and latency histograms, rendered as Prometheus text
 * for GET /metrics. Plain integers updated on the loop thread; no locking.
 * Gauges belong to the modules that own what they count: the caller passes
 * them in at render time, so this module depends on none of them.
 */
#ifndef QUINTETO_METRICS_H
#define QUINTETO_METRICS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define METRICS_BUCKETS     12
#define METRICS_LAG_SLOTS   6              /* the lag maximum's window: 6 slots... */
#define METRICS_LAG_SLOT_NS 10000000000ull /* ...of 10 s */

struct metrics_hist {
	uint64_t in[METRICS_BUCKETS]; /* observations over the bound before and at or under this one */
	uint64_t count;
	double sum_s;
};

/* A histogram of counts (how many frames one loop turn handled): bounds 1, 2, 4 .. 2048. */
#define METRICS_COUNT_BUCKETS 12
struct metrics_count_hist {
	uint64_t in[METRICS_COUNT_BUCKETS]; /* as metrics_hist's */
	uint64_t count, sum;
};

/* The largest value seen in each 10-s slot of the last minute (a ring, as the lag maximum's). */
struct metrics_window_max {
	double max[METRICS_LAG_SLOTS];
	uint64_t slot[METRICS_LAG_SLOTS];
};

struct metrics {
	uint64_t ws_opened, ws_closed, http_requests;
	uint64_t messages_in, messages_out, bytes_out;
	uint64_t errors[48]; /* by wire_error_index() of a WIRE_E_* code */
	uint64_t actions, bot_actions, matches_started, matches_finished;
	uint64_t archive_ok, archive_failed, players_created;
	uint64_t slow_dropped, rate_limited, closed_too_large, closed_binary;
	uint64_t http_busy;            /* HTTP answers refused 503: the body budget was spent */
	uint64_t closed_no_hello;      /* WebSockets closed 1008 for saying no hello in time */
	uint64_t journal_refused;      /* requests refused while the journal was failing */
	uint64_t refused_cap;          /* connections closed at accept: the connection cap was reached */
	uint64_t refused_addr;         /* the same: the per-address cap (HTTP and WebSocket) */
	struct metrics_hist broadcast; /* act received -> state queued for every member */
	struct metrics_hist commit;    /* journal batch flushed -> committed (what held frames wait) */

	uint64_t refused_origin;                 /* WebSocket upgrades refused for their Origin (403) */
	uint64_t refused_token;                  /* /metrics requests without the token (401) */
	uint64_t tls_reloads, tls_reload_failed; /* SIGHUP certificate reloads */
	struct metrics_hist archive;             /* match finished -> its archive write done */
	struct metrics_hist loop_lag;            /* how late the loop ran a periodic timer (net.c) */
	uint64_t refused_metrics_from;           /* /metrics refused 403: the client not in metrics_from */
	/* the worst lag of each 10-s slot of the last minute, a ring: a scrape reads it, never resets it */
	double lag_max_s[METRICS_LAG_SLOTS];
	uint64_t lag_slot[METRICS_LAG_SLOTS]; /* which slot each holds: monotonic time / 10 s, plus 1 */

	/* per-address and per-player limits (lobby_limits.c): refusals by limit */
	uint64_t refused_rooms_player; /* too_many_rooms: the player's live rooms */
	uint64_t refused_rooms_addr;   /* too_many_rooms: the address's live rooms */
	uint64_t refused_rooms_hour;   /* too_many_rooms: the address's rooms per hour */
	uint64_t refused_players_addr; /* rate_limited: the address's new identities */
	/* accounts (handlers_account.c; docs/ACCOUNTS.md) */
	uint64_t acct_sign_in_ok, acct_sign_in_wrong, acct_sign_in_limited; /* sign_in answers by result */
	uint64_t acct_claims;                                               /* accounts claimed */
	uint64_t acct_busy;           /* requests refused busy: the hashing queue was full */
	uint64_t acct_sessions_ended; /* sessions ended: sign_out, end_session, password, delete, the 21st */
	/* connections signed out for a session ended elsewhere: found by the periodic check, told by a node
	 */
	uint64_t acct_revoked_check, acct_revoked_cluster;

	/* the archive's read queue (http.c) */
	uint64_t http_reads_refused;    /* archive requests refused 503: the reader's queue was full */
	uint64_t archive_reads_dropped; /* archive reads not computed: their client hung up first */
	/* hellos whose token the store reads (handlers_hello.c): sent to the store, refused past the
	   caps (busy or rate_limited), answered unavailable (the store could not read), dropped (the
	   connection closed first) */
	uint64_t hello_reads, hello_reads_refused, hello_reads_failed, hello_reads_dropped;
	uint64_t hello_reads_expired; /* dropped by the hello's own bound (net.c), answered as failed */

	/* the bot workers (room_bots.c) */
	uint64_t bot_jobs;       /* moves handed to a worker */
	uint64_t bot_stale;      /* answers dropped: the room ended or closed, or its position moved on */
	uint64_t bot_queue_full; /* moves not handed over (the queue was full): asked again later */
	struct metrics_hist bot_think; /* a worker's time on one move */
	/* the loop thread's CPU time in one turn of the loop (server.c): what it did between two waits,
	 * whatever the machine's load (the lag above also counts time the thread waited for a core) */
	struct metrics_hist loop_turn;

	/*
	 * Where an action's time goes on the server's side (issue 24): a loop turn's wall time between
	 * the end of its wait for I/O and its end (server.c, libuv's idle time taken out), what it
	 * handled, and an action's reply's time in its connection's queue (session.c).
	 */
	struct metrics_hist turn_busy;           /* wall time of a loop turn's work */
	struct metrics_count_hist turn_in;       /* WebSocket messages received in one turn */
	struct metrics_count_hist turn_out;      /* frames queued in one turn (every recipient counted) */
	struct metrics_window_max turn_in_max;   /* the largest turn of the last minute, in messages */
	struct metrics_window_max turn_busy_max; /* and in wall seconds */
	/* a message received -> the first frame queued while it was handled (an act's own state), on that
	 * connection: released by its journal batch's commit, and written to the socket */
	struct metrics_hist reply_released;
	struct metrics_hist reply_write;

	/* cluster mode (server/cluster/): connections to Redis made again after a loss, publications of
	 * this node's summaries */
	uint64_t redis_reconnects, redis_publications;
};

#define METRICS_MAX_GAMES 16

/* Live rooms of one game in each status (waiting, playing, finished). */
struct metrics_rooms {
	const char *game;
	size_t by_status[3];
};

/* What the owners of the counted things report at render time. */
struct metrics_gauges {
	long connections, frames_alive, frames_held;
	size_t rooms, players, store_queue;
	double uptime_s;
	int journal_failing;
	unsigned long
		checkpoints[2]; /* WAL checkpoints by the checkpoint thread, by the writer (store_ckpt.c) */
	const struct metrics_rooms *rooms_by_game; /* NULL, or n_games entries */
	int n_games;
	uint64_t now_ns;      /* util_mono_ns() at the scrape: the lag maximum's window ends there */
	size_t archive_reads; /* archive reads queued or running (http.c) */
	size_t hello_reads;   /* hellos waiting for the store's read of their token (handlers_hello.c) */
	size_t bot_queued, bot_running; /* bot moves waiting for a worker, being thought about */
	/* cluster mode only (cluster set): whether Redis answers, rooms in the directory, live nodes */
	bool cluster, redis_up;
	size_t directory, nodes_alive;
	size_t pwhash_queue;  /* password hashes waiting for a thread */
	uint64_t pwhash_done; /* password hashes and checks done */
};

/* Records one latency of `ns` nanoseconds. */
void metrics_observe(struct metrics_hist *h, uint64_t ns);

/* Records one count (frames of a turn). */
void metrics_count(struct metrics_count_hist *h, uint64_t n);

/* Records `v` seen at `now_ns` in the window maximum. */
void metrics_window_put(struct metrics_window_max *w, double v, uint64_t now_ns);

/* The largest value of the last METRICS_LAG_SLOTS slots up to `now_ns` (50 to 60 s). */
double metrics_window_get(const struct metrics_window_max *w, uint64_t now_ns);

/*
 * Records one event-loop lag of `late_ns` seen at `now_ns` (monotonic): in the
 * histogram, and in the slot of now_ns for the windowed maximum.
 */
void metrics_lag(struct metrics *m, uint64_t late_ns, uint64_t now_ns);

/* The worst lag recorded in the last METRICS_LAG_SLOTS slots up to `now_ns` (50 to 60 s), seconds. */
double metrics_lag_max(const struct metrics *m, uint64_t now_ns);

/* Renders every metric as Prometheus text; malloc'd, caller frees. NULL on ENOMEM. */
char *metrics_render(const struct metrics *m, const struct metrics_gauges *g, size_t *len);

#endif
