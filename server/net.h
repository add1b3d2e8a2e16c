/*
 * net.h: libwebsockets on our uv loop. One vhost bound to exactly the
 * configured address: the web client's static files under "/", the JSON API,
 * /healthz and /metrics through a callback mount (http.h), and the
 * protocol's WebSocket at /ws. This layer only moves bytes: it maps lws
 * events to sessions and hands complete messages to the handlers.
 */
#ifndef QUINTETO_NET_H
#define QUINTETO_NET_H

#include "conf.h"
#include "handlers.h"
#include "http.h"
#include "session.h"
#include "util.h"

struct lws_context;

struct net {
	struct lws_context *lws;
	const struct config *cfg;
	struct sessions *sessions;
	struct handlers *handlers;
	struct http *http;
	struct metrics *metrics;
	struct hmap addrs;         /* peer address -> open WebSocket count */
	struct hmap conn_addrs;    /* peer address -> open connections, HTTP and WebSocket */
	bool stopped;              /* net_stop() freed the counts; late WSI_DESTROYs touch nothing */
	int port;                  /* the port bound (cfg->port, or the one the OS chose for 0) */
	int conns;                 /* accepted connections not yet destroyed, HTTP and WebSocket */
	int max_conns;             /* past it new ones are closed at accept: below RLIMIT_NOFILE */
	uint64_t refused_unlogged; /* refusals since the last log line about them */
	int64_t refusal_logged_ms; /* monotonic time of that line */
};

/*
 * Creates the lws context on `loop` and binds exactly cfg->host:cfg->port
 * (an IPv4 or IPv6 literal as given, a host name resolved first). Nothing is
 * accepted before the loop runs. 0, or a negative errno with the reason
 * logged (-EADDRINUSE: the port is taken or the address is not ours).
 */
int net_start(struct net *n, void *loop, const struct config *cfg, struct sessions *ss, struct handlers *h,
	      struct http *http, struct metrics *metrics);

/* Closes every connection and the context (their callbacks run now). */
void net_stop(struct net *n);

#endif
