/*
 * net.h: the network module's face (server/net/): libwebsockets on our uv
 * loop, one vhost bound to exactly each configured address: the web client's
 * static files under "/", the JSON API, /healthz and /metrics, and the
 * protocol's WebSocket at /ws; the connections (sessions, with the gate that
 * holds their frames until the journal has what they show), the HTTP API and
 * the message handlers. Everything else of the module is private
 * (net_int.h). The server (server.c) creates it, ends each loop turn through
 * it and stops it; the lobby and the rooms reach a connection only through
 * net_send_cb(), which the server installs in them.
 */
#ifndef QUINTETO_NET_H
#define QUINTETO_NET_H

#include <stdint.h>
#include <uv.h>

struct buf;
struct config;
struct lobby;
struct metrics;
struct net;
struct store;

/* The module's own failures (docs/ARCHITECTURE.md, "Errors"); anything else is a negative errno. */
enum net_error {
	NET_E_TLS_RELOAD = -1500, /* the TLS certificate and key did not load: the served ones stay */
	NET_E_CLOSE = -1501,      /* the connection must close (what an lws callback answers with -1) */
};

/* A sentence for a NET_E_* code ("unknown net error" for any other). */
const char *net_strerror(int code);

/*
 * The module for `cfg`, over the lobby and metrics (all borrowed for its
 * life); it listens on nothing yet. NULL: out of memory. net_free() frees it.
 */
struct net *net_new(const struct config *cfg, struct lobby *lobby, struct metrics *metrics);

/* The store the API and the handlers read and write (borrowed; set before the loop runs). */
void net_set_store(struct net *n, struct store *store);

/* The password-hashing pool the account messages use (borrowed; NULL: they answer unavailable). */
struct pwhash;
void net_set_pwhash(struct net *n, struct pwhash *ph);

/*
 * Watches hang-ups of the paused HTTP connections on `loop`, creates the lws
 * context on it and binds exactly every cfg->listen address (an IPv4 or IPv6
 * literal as given, a host name resolved first). Nothing is accepted before
 * the loop runs. 0, or a negative errno with the reason logged (-EADDRINUSE:
 * the port is taken or the address is not ours).
 */
int net_start(struct net *n, uv_loop_t *loop);

/* Prints "listening on http(s)://HOST:PORT" for each listener (the tests wait for it). */
void net_print_listening(const struct net *n);

/*
 * Ends a loop turn: `flushed` is the batch store_journal_turn() handed to the
 * writer (0: none), `needed` the batch every journal write so far is in. The
 * frames queued this turn wait for `needed` (session_int.h). NULL: nothing.
 */
void net_turn_end(struct net *n, uint64_t flushed, uint64_t needed);

/*
 * Journal batch `batch` committed (err 0: held frames and GET /api/rooms
 * answers go out) or failed (err < 0: they stay held).
 */
void net_committed(struct net *n, uint64_t batch, int err);

/* Frees the connections closed so far (from a uv_check_t: never inside an lws callback). */
void net_reap(struct net *n);

/* Open WebSocket connections. */
long net_connections(const struct net *n);

/*
 * The start of a graceful stop: /readyz says "stopping", new connections are
 * refused (a 503, as at the cap) and every WebSocket is closed with 1012
 * ("service restart") once the frames it holds have been written. The loop
 * goes on until net_stop().
 */
void net_drain(struct net *n);
/* Sends every open WebSocket an `error` without id, ahead of its held frames: err (WIRE_E_*), message. */
void net_notice(struct net *n, int err, const char *message);
/* The end of the drain's grace: every WebSocket drops its held frames. */
void net_drop_held(struct net *n);
/*
 * Closes every connection and the context (their callbacks run now) and the
 * module's handles; nothing is written any more. NULL: nothing.
 */
void net_stop(struct net *n);
/* After net_stop() and once the loop has run every close callback: frees it all (NULL: nothing). */
void net_free(struct net *n);

/*
 * Queues a reference to `frame` on the connection `who` (a room member's or
 * a lobby subscriber's `who`): the send callback the server installs in the
 * lobby and, through it, in the rooms.
 */
void net_send_cb(void *who, struct buf *frame);

#endif
