/*
 * cluster_int.h (private to server/cluster/): struct cluster and what its two
 * files share. cluster.c owns the connections to Redis (connect, back-off,
 * the lease, the publications, stop); cluster_mirror.c owns the mirror of
 * the others (nodes, directory, summaries), the channel's events and the
 * reload after each (re)connect.
 *
 * What Redis holds (every key under CLUSTER_PREFIX, docs/SCALING.md):
 *   node:NAME   the registration, {"node","port","started_ms"}, PX node_lease_ms, renewed every third
 *   nodes       a set of the names that registered (forgotten once dead and hosting nothing)
 *   rooms       a hash room -> node: the directory
 *   lobby:NAME  NAME's summaries: "TOTAL\n[summary,...]" (its newest lobby_list_max rooms, `total` all)
 *   events      the channel: "h ROOM NODE" (hosted), "g ROOM NODE" (gone), "u NODE" (registered),
 *               "d NODE" (unregistered), "l NODE TOTAL\n[...]" (new summaries), "s NODE REASON
 *               HASH..." (sessions NODE ended: their token hashes, at most CLUSTER_SESSIONS_MAX)
 */
#ifndef QUINTETO_CLUSTER_INT_H
#define QUINTETO_CLUSTER_INT_H

#include <hiredis/async.h>
#include <hiredis/hiredis.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <uv.h>

#include "cluster/cluster.h"
#include "base/util.h"

#define CLUSTER_PREFIX         "quinteto:"
#define CLUSTER_EVENTS         CLUSTER_PREFIX "events"
#define CLUSTER_NAME_MAX       32 /* bytes of a node's name (conf.c checks ours) */
#define CLUSTER_ROOM_MAX       32 /* bytes of a room id (WIRE_ROOM_ID_MAX) */
#define CLUSTER_MAX_NODES      64
#define CLUSTER_SUMMARY_MAX    (1u << 20) /* bytes of one node's summaries, ours or a peer's */
#define CLUSTER_TOTAL_MAX      100000000  /* a peer's `total` past this is not believed */
#define CLUSTER_LOG_MAX        4096       /* events kept while a reload runs (past it: reload again) */
#define CLUSTER_SCAN_COUNT     "500" /* HSCAN's COUNT: each reply of the directory's reload stays small */
#define CLUSTER_BACKOFF_MIN_MS 100
#define CLUSTER_BACKOFF_MAX_MS 2000
#define CLUSTER_CONNECT_MS     2000 /* a connection not subscribed by then is given up and tried again */
#define CLUSTER_PUBLISH_MS     1000 /* at most one publication of our summaries a second */
#define CLUSTER_STOP_MS        500  /* a clean stop waits this long at most for Redis's answers */

/* Another node as the mirror knows it. Never freed before cluster_free(): the directory points here. */
struct cnode {
	char name[CLUSTER_NAME_MAX + 1];
	bool alive;    /* its registration was there at the last look (or it said so since) */
	char *lobby;   /* its last summaries, a JSON array's text (malloc'd), or NULL */
	size_t len;    /* of lobby */
	size_t total;  /* its live rooms in all */
	uint64_t gen;  /* changes with `lobby` (cluster_lobby_foreach) */
	size_t nrooms; /* directory entries naming it (capped: cluster_dir_cap()) */
	/* what the reload under way found (cluster_mirror.c) */
	bool r_listed, r_alive;
	bool r_got; /* its summaries were read (r_lobby, NULL: none there) */
	char *r_lobby;
	size_t r_len, r_total, r_nrooms;
};

/* A directory entry: `room` is hosted by `node` (never us: our rooms are in `own`). */
struct dir_entry {
	struct cnode *node;
	char room[CLUSTER_ROOM_MAX + 1];
};

enum cluster_state {
	CLUSTER_IDLE,       /* not started, or stopped */
	CLUSTER_WAITING,    /* the back-off timer runs; next: resolve */
	CLUSTER_RESOLVING,  /* uv_getaddrinfo of the Redis host */
	CLUSTER_CONNECTING, /* both connections connecting, then SUBSCRIBE */
	CLUSTER_UP,         /* subscribed and registered: Redis answers */
	CLUSTER_STOPPING,   /* cluster_stop(): the last commands are out, closing */
};

struct cluster {
	uv_loop_t *loop;
	const struct config *cfg;
	struct metrics *m;
	char self[CLUSTER_NAME_MAX + 1];
	char reg[192]; /* our registration's value */
	enum cluster_state state;
	redisAsyncContext *cmd, *sub; /* commands; the subscription (NULL: none) */
	bool cmd_ready;               /* the command connection answered its AUTH (or PING) */
	bool subscribed;
	bool refused;          /* Redis refused our credentials since we were last up (logged once) */
	char refused_why[320]; /* what it answered, for /readyz (never the password) */
	int backoff_ms;
	bool ever_up;
	uv_getaddrinfo_t resolve;
	bool resolving;        /* a uv_getaddrinfo is out (its callback frees nothing of ours) */
	uv_timer_t retry;      /* the back-off; while connecting, the deadline */
	uv_timer_t tick;       /* renewal and the nodes' refresh, every node_lease_ms / 3 */
	uv_timer_t pub_timer;  /* the throttled publication */
	int handles;           /* of those three, not closed yet */
	int64_t renew_sent_ms; /* when the unanswered renewal went out; 0: none out */

	/* the mirror (cluster_mirror.c) */
	struct hmap nodes; /* name -> struct cnode, other nodes only */
	size_t nnodes;
	struct hmap dir; /* room -> struct dir_entry, other nodes' rooms */
	struct hmap own; /* room -> its id (malloc'd): the rooms we host */
	bool contested;  /* another node claims one of ours: re-claim on the tick */
	/* a reload: the nodes' refresh, then (full) the directory's scan; events meanwhile are logged */
	bool refreshing, full;
	bool again; /* a full reload was asked for while one ran, or the log overflowed */
	struct cnode *batch[CLUSTER_MAX_NODES]; /* the nodes of the refresh's MGETs, in their order */
	size_t nbatch;
	struct hmap rdir; /* what the scan found: room -> struct dir_entry */
	char **log;       /* events received while the reload ran (malloc'd texts) */
	size_t nlog;
	bool log_overflow;

	/* our summaries: the pending (latest) payload, and what was published last */
	char *pending;
	size_t pending_len;
	char *published;
	size_t published_len;
	int64_t published_ms;

	uint64_t lobby_gen; /* the last generation given to a node's summaries */
	void (*change_cb)(void *ctx);
	void *change_ctx;
	cluster_sessions_cb sessions_cb; /* another node ended sessions (cluster_on_sessions_ended) */
	void *sessions_ctx;
	struct util_log_limit log_limit;
};

/* --- cluster.c, for the mirror ------------------------------------------------------------------- */

/* Sends a command on the command connection when Redis is up (argv counted); false: not sent. */
bool cluster_send(struct cluster *c, redisCallbackFn *fn, int argc, const char **argv, const size_t *lens);

/* Redis failed us (an error reply where none may be, a reply of the wrong shape): drop it and reconnect. */
void cluster_fail(struct cluster *c, const char *why);

/* Tells the lobby (cluster_on_change) that another node's summaries changed or a node came or went. */
void cluster_changed(struct cluster *c);

/* "s NODE REASON HASH..." from the channel (the text after "s "): another node ended sessions. */
void cluster_sessions_event(struct cluster *c, const char *p, size_t len);

/* --- cluster_mirror.c ---------------------------------------------------------------------------- */

void cluster_mirror_init(struct cluster *c);
void cluster_mirror_finish(struct cluster *c);

/* One message of the channel (its text, not NUL-terminated). */
void cluster_event(struct cluster *c, const char *msg, size_t len);

/* Reloads the mirror: the nodes and their summaries, then (full) the directory. */
void cluster_reload(struct cluster *c, bool full);

/* The connection went: a reload under way is abandoned (its replies will not come). */
void cluster_reload_abandon(struct cluster *c);

/* Announces every room we host (after a (re)connect) and re-claims those another node claims. */
void cluster_claim_own(struct cluster *c, bool all);

/* The most directory entries kept for one other node (a flood must not grow the mirror without end). */
size_t cluster_dir_cap(const struct cluster *c);

/* Whether `s` (n bytes) is a node's name / a room's id as we write them. */
bool cluster_name_ok(const char *s, size_t n);
bool cluster_room_ok(const char *s, size_t n);

#endif
