/*
 * net_int.h: the network module's inside, included only by the files of server/net/
 * (and the module's own unit tests): struct net and the private headers of
 * its parts, the sessions (session_int.h), the HTTP API (http_int.h) and the
 * message handlers (handlers_int.h). Other modules see net.h alone.
 */
#ifndef QUINTETO_NET_INT_H
#define QUINTETO_NET_INT_H

#include "net/net.h"
#include "net/handlers_int.h"
#include "net/http_int.h"
#include "net/session_int.h"
#include "net/webfiles_int.h"
#include "base/conf.h"
#include "base/util.h"

#include <uv.h>

struct lws_context;
struct lws_vhost;

struct net {
	struct lws_context *lws;
	const struct config *cfg;
	struct sessions *sessions; /* &own.sessions, and so on: the parts net.c's callbacks use */
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
	struct webfiles *web; /* the web client's files (one reference; SIGHUP swaps in a new set) */
	uv_signal_t sighup;   /* reloads the TLS certificate and the web client's files */
	bool sighup_on;
	uv_timer_t lag_timer; /* every 100 ms: how late it runs is the loop's lag */
	uint64_t lag_due_ns;
	bool lag_on;
	uv_timer_t ka_timer; /* the keep-alive sweep (session_keepalive.c) */
	uint64_t ka_last_ns; /* when it last ran */
	bool ka_on;
	bool draining; /* net_drain(): new connections are refused */
	uv_loop_t *loop;
	struct {
		struct sessions sessions;
		struct handlers handlers;
		struct http http;
	} own; /* the module's parts, allocated with it by net_new() */
};

/*
 * Loads cfg->tls_cert and cfg->tls_key again (SIGHUP): new connections get
 * the new certificate, open ones keep theirs. A pair that does not load
 * changes nothing. 0, or NET_E_TLS_RELOAD with the reason logged.
 */
int net_reload_tls(struct net *n);

/*
 * Reads cfg->web_dir and cfg->wasm_dir again (SIGHUP): new requests get the
 * new files, answers under way finish with the old ones. A set that does not
 * load (past the bounds, out of memory) changes nothing. 0 or a negative errno.
 */
int net_reload_web(struct net *n);

#endif
