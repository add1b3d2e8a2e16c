/* net.h: see server.h (net_*) and http.c (http_*). */
#ifndef QUINTETO_NET_H
#define QUINTETO_NET_H

#include <libwebsockets.h>

#include "server.h"

/* What lws keeps per connection: one pointer each way (style.md). */
struct pss {
	struct session *s;        /* WebSocket connections */
	struct http_req *h;       /* HTTP API requests */
};

/* http.c: the JSON API, /healthz and /metrics. Return values are lws callback returns. */
int http_request(struct server *srv, struct lws *wsi, struct pss *pss, const char *uri);
int http_writeable(struct server *srv, struct lws *wsi, struct pss *pss);
void http_closed(struct server *srv, struct pss *pss);

#endif
