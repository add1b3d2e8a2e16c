/*
 * cluster.h: this node's share of a cluster (docs/SCALING.md), through Redis
 * on the server's own loop (hiredis's libuv adapter): the node's
 * registration with a lease, the room directory (which node hosts which
 * room) and the lobby's summaries of every node.
 *
 * Nothing here waits for Redis: every answer comes from a local mirror that
 * pub/sub keeps current, so play goes on while Redis is away (the mirror goes
 * stale, and heals when Redis is back). Loop thread only. A NULL cluster
 * (a single server: the setting `node` is empty) is valid everywhere: it hosts
 * every room and knows no other node.
 */
#ifndef QUINTETO_CLUSTER_H
#define QUINTETO_CLUSTER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <uv.h>

struct cluster;
struct config;
struct metrics;

/*
 * cfg->node empty: *out NULL and 0 (a single server). Else 0 or -ENOMEM. Nothing connects yet; the
 * pointers are borrowed for the cluster's life. Loop thread only, as everything here.
 */
int cluster_new(uv_loop_t *loop, const struct config *cfg, struct metrics *m, struct cluster **out);

/* Connects to Redis and registers the node (then keeps trying in the background). 0 or a negative errno. */
int cluster_start(struct cluster *c);

/*
 * Unregisters the node (best effort: a clean stop leaves no lease to expire) and closes its handles; the
 * loop must run on (at most CLUSTER_STOP_MS, 500 ms, while Redis answers the last commands). The directory
 * keeps our rooms: they are the node's that restarts with our name, or the survivor's that adopts them.
 */
void cluster_stop(struct cluster *c);

/* After cluster_stop() and the loop's last turn; NULL does nothing. */
void cluster_free(struct cluster *c);

/* This node's name; NULL for a single server. */
const char *cluster_node(const struct cluster *c);

/* --- the room directory -------------------------------------------------- */

/* This node hosts `room` from now on (created, restored at start-up, or adopted). */
void cluster_room_hosted(struct cluster *c, const char *room);

/* This node no longer hosts `room` (closed). */
void cluster_room_gone(struct cluster *c, const char *room);

/*
 * The node that hosts `room` as the mirror knows it: this node's own name for
 * its own rooms, another's, or NULL (no node hosts it as far as we know).
 */
const char *cluster_room_node(const struct cluster *c, const char *room);

/* Whether `node` holds a live registration (this node: always). */
bool cluster_node_alive(const struct cluster *c, const char *node);

/* Whether Redis answers now (for /readyz and /metrics). A NULL cluster: true. */
bool cluster_redis_up(const struct cluster *c);

/*
 * Why Redis refuses this node (its credentials: redis_password, redis_user; or the user's ACL), as Redis
 * answered, never the password; NULL while it does not (up, or merely away). For /readyz: a node refused
 * is not ready. A NULL cluster: NULL.
 */
const char *cluster_redis_refused(const struct cluster *c);

/* Rooms in the directory as the mirror knows it (ours and the others'), and the live nodes (us included):
 * for /metrics. 0 for a NULL cluster. */
size_t cluster_directory_size(const struct cluster *c);
size_t cluster_nodes_alive(const struct cluster *c);

/* --- the merged lobby ---------------------------------------------------- */

/*
 * This node's rooms, as the JSON array of room summaries that the lobby's
 * `rooms` message holds (protocol.md: its newest lobby_list_max rooms), and
 * `total`, the count of all its live rooms, to publish (copied); the cluster
 * throttles (at most one publication a second, the last one wins, nothing
 * sent when it did not change). Over 1 MiB, an empty list is published
 * with the total.
 */
void cluster_lobby_publish(struct cluster *c, const char *rooms_json, size_t len, size_t total);

/*
 * Each other live node's last published summaries (a JSON array's text, NUL-terminated, as that node
 * sent it: the caller checks what it uses), its total, and the text's generation (a number that changes
 * whenever that node's text does, never 0: what the caller parsed can be kept until it changes), in no
 * particular order.
 */
typedef void (*cluster_rooms_cb)(void *ctx, const char *node, const char *rooms_json, size_t len,
				 size_t total, uint64_t gen);
void cluster_lobby_foreach(const struct cluster *c, cluster_rooms_cb cb, void *ctx);

/* Called (loop thread) when another node's summaries changed, or a node came or went. */
void cluster_on_change(struct cluster *c, void (*cb)(void *ctx), void *ctx);

/* --- sessions ended (docs/ACCOUNTS.md) --------------------------------------- */

/* The most token hashes one message carries (an account keeps at most 20 sessions). */
#define CLUSTER_SESSIONS_MAX 20

/*
 * This node committed the end of these sessions (their token hashes, 64 hex digits; borrowed): every
 * other node is told at once, on the events channel, and signs out its connections of them with `reason`
 * (a value of signed_out.json). Best effort: with Redis away nothing is sent (the nodes' periodic check
 * finds them). A NULL cluster does nothing.
 */
void cluster_sessions_ended(struct cluster *c, const char *reason, char (*hashes)[65], size_t n);

/* Called (loop thread) with what another node said it ended: a known reason, 1..CLUSTER_SESSIONS_MAX hashes.
 */
typedef void (*cluster_sessions_cb)(void *ctx, const char *reason, char (*hashes)[65], size_t n);
void cluster_on_sessions_ended(struct cluster *c, cluster_sessions_cb cb, void *ctx);

#endif
