/*
 * net.h: libwebsockets on our uv loop. One vhost bound to exactly the
 * configured address: the web client's static files under "/", the JSON API,
 * /healthz and /metrics through a callback mount (http.h), and the
 * protocol's WebSocket at /ws. This layer only moves bytes: it maps lws
 * events to sessions and hands complete messages to the handlers.
 */
#ifndef QUINTETO_NET_H
#define QUINTETO_NET_H

#include "base/conf.h"
#include "net/handlers.h"
#include "net/http.h"
#include "net/session.h"
#include "base/util.h"

#include <uv.h>

struct lws_context;
struct lws_vhost;

struct net {
	struct lws_context *lws;
	const struct config *cfg;
	struct sessions *sessions;
	struct handlers *handlers;
	struct http *http;
	struct metrics *metrics;
	struct tally addrs;        /* client address -> open WebSocket count */
	struct hmap conn_addrs;    /* peer address -> open connections, HTTP and WebSocket */
	bool stopped;              /* net_stop() freed the counts; late WSI_DESTROYs touch nothing */
	int port;                  /* the port bound (cfg->port, or the one the OS chose for 0) */
	int conns;                 /* accepted connections not yet destroyed, HTTP and WebSocket */
	int max_conns;             /* past it new ones are closed at accept: below RLIMIT_NOFILE */
	uint64_t refused_unlogged; /* refusals since the last log line about them */
	int64_t refusal_logged_ms; /* monotonic time of that line */

	struct lws_vhost *vhosts[CONF_MAX_LISTEN]; /* one per cfg->listen address */
	int ports[CONF_MAX_LISTEN];                /* the port each bound */
	int n_vhosts;
	struct lws_vhost *metrics_vh; /* cfg->metrics_listen: /metrics and /healthz only */
	int metrics_port;
	void *ssl_ctx[CONF_MAX_LISTEN]; /* each TLS vhost's OpenSSL SSL_CTX, for net_reload_tls */
	int n_ssl_ctx;
	uv_signal_t sighup; /* reloads the TLS certificate */
	bool sighup_on;
	uv_timer_t lag_timer; /* every 100 ms: how late it runs is the loop's lag */
	uint64_t lag_due_ns;
	bool lag_on;
	bool draining; /* net_drain(): new connections are refused */
};

/*
 * Creates the lws context on `loop` and binds exactly cfg->host:cfg->port
 * (an IPv4 or IPv6 literal as given, a host name resolved first). Nothing is
 * accepted before the loop runs. 0, or a negative errno with the reason
 * logged (-EADDRINUSE: the port is taken or the address is not ours).
 */
int net_start(struct net *n, void *loop, const struct config *cfg, struct sessions *ss, struct handlers *h,
	      struct http *http, struct metrics *metrics);

/* Prints "listening on http(s)://HOST:PORT" for each listener (the tests wait for it). */
void net_print_listening(const struct net *n);

/*
 * Loads cfg->tls_cert and cfg->tls_key again (SIGHUP): new connections get
 * the new certificate, open ones keep theirs. A pair that does not load
 * changes nothing. 0, or -1 with the reason logged.
 */
int net_reload_tls(struct net *n);

/*
 * The start of a graceful stop: new connections are refused (a 503, as at the
 * cap) and every WebSocket is closed with 1012 ("service restart") once the
 * frames it holds have been written. The loop goes on until net_stop().
 */
void net_drain(struct net *n);
/* Sends every open WebSocket an `error` without id (session_send_notice()): err, message. */
void net_notice(struct net *n, int err, const char *message);
/* The end of the drain's grace: every WebSocket drops its held frames (session_drop_held()). */
void net_drop_held(struct net *n);
/* Closes every connection and the context (their callbacks run now). */
void net_stop(struct net *n);

#endif
