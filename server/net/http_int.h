/*
 * http_int.h (private to server/net/): the read-only HTTP API of protocol.md: GET /api/rooms,
 * GET /api/matches (filters, newest first, cursor), GET /api/matches/{id},
 * GET /healthz, GET /readyz and GET /metrics. Archive reads run on the store's reader
 * thread and the response is written when they come back, so the loop never
 * waits on disk. A request whose connection closes first cancels its read.
 * GET /api/rooms shows memory, so like a WebSocket frame (session_int.h) its
 * answer is held until the journal batch that has what it shows commits.
 * http_request() and http_writeable() return 0, or NET_E_CLOSE when the
 * connection must close (net.c answers lws with -1 then).
 */
#ifndef QUINTETO_HTTP_INT_H
#define QUINTETO_HTTP_INT_H

#include <stdint.h>
#include <uv.h>

#include "lobby/lobby.h"
#include "base/metrics.h"
#include "net/hangups.h"
#include "net/session_int.h"
#include "base/util.h"

struct lws;
struct store;
struct http_req;

/* What the API reads. Borrowed for the server's life. */
struct http {
	struct lobby *lobby;
	struct store *store;
	struct pwhash *pwhash; /* for /metrics' hashing gauges; NULL: none */
	struct metrics *metrics;
	struct sessions *sessions;
	const size_t *hellos; /* the handlers' hellos waiting for the store (for /metrics) */
	int64_t started_ms;
	struct http_req *held; /* answers waiting for a journal batch (http_committed) */
	bool stopping;         /* SIGTERM: /readyz says so while connections close */
	const struct config *cfg;
	size_t body_bytes;          /* answer bodies held until their clients read them */
	struct tally body_by_addr;  /* the same by client address */
	size_t reads;               /* archive reads queued or running (cfg->archive_reads) */
	struct tally reads_by_addr; /* the same by client address (cfg->archive_reads_per_addr) */
	struct hangups hup;         /* the paused connections, watched for their hang-ups */
};

/* Prepares the body and read budgets (after the struct is filled); http_finish() frees it. */
void http_init(struct http *api, const struct config *cfg);
void http_finish(struct http *api);

/*
 * Watches, on `loop`, the connections whose answer is not ready for a hang-up
 * (their read is dropped then). 0 or a negative errno. http_stop() closes the
 * handle (at shutdown; a second call does nothing).
 */
int http_start(struct http *api, uv_loop_t *loop);
void http_stop(struct http *api);

/*
 * A request arrived (LWS_CALLBACK_HTTP) for `uri` from the client `addr` (net.c's
 * client address: behind a trusted proxy, the one it names), by which the
 * per-address budgets count; *req gets its state.
 */
int http_request(struct http *h, struct lws *wsi, struct http_req **req, const char *uri, const char *addr);

/* The connection can take more of the response. */
int http_writeable(struct http *h, struct lws *wsi, struct http_req **req);

/* Journal batches up to sessions->committed have committed: held answers go out. */
void http_committed(struct http *h);

/* The connection closed, or the response is complete: frees *req (NULL does nothing). */
void http_closed(struct http_req **req);

#endif
