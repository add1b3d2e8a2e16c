/*
 * net.c: libwebsockets on our uv loop. One vhost, one port: static files of
 * the web client under "/", the JSON API, /healthz and /metrics through a
 * callback mount, and the protocol's WebSocket at /ws (subprotocol
 * "quinteto.v1", or none). This file only moves bytes and maps lws events to
 * sessions; it knows nothing of rooms. Close codes: 1009 past the frame
 * limit, 1003 for binary frames, 1007 (lws' UTF-8 validation) for bad text.
 */
#include "net.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define RX_CHUNK 2048 /* lws receive buffer per connection; bigger messages arrive in pieces */

struct addr_count {
	char addr[64];
	int n;
};

static int addr_get(struct server *srv, const char *addr)
{
	struct addr_count *a = hmap_get(&srv->addrs, addr);

	return a ? a->n : 0;
}

static void addr_adjust(struct server *srv, const char *addr, int delta)
{
	struct addr_count *a = hmap_get(&srv->addrs, addr);

	if (!a) {
		if (delta < 0 || !(a = calloc(1, sizeof(*a))))
			return;
		snprintf(a->addr, sizeof(a->addr), "%s", addr);
		if (hmap_put(&srv->addrs, a->addr, a)) {
			free(a);
			return;
		}
	}
	a->n += delta;
	if (a->n <= 0) {
		hmap_del(&srv->addrs, a->addr);
		free(a);
	}
}

static int filter_connection(struct server *srv, struct lws *wsi)
{
	char uri[64], addr[64];

	if (lws_hdr_copy(wsi, uri, sizeof(uri), WSI_TOKEN_GET_URI) < 0 || strcmp(uri, "/ws"))
		return 1; /* WebSockets only at /ws */
	lws_get_peer_simple(wsi, addr, sizeof(addr));
	if (addr_get(srv, addr) >= srv->cfg.max_conns_per_addr) {
		util_log(LOG_WARN, "net: refusing %s: %d connections already", addr,
			 srv->cfg.max_conns_per_addr);
		return 1;
	}
	return 0;
}

static int close_with(struct lws *wsi, enum lws_close_status code, const char *reason)
{
	lws_close_reason(wsi, code, (unsigned char *)reason, strlen(reason));
	return -1;
}

static int append_rx(struct session *s, const void *in, size_t len)
{
	if (s->rxlen + len > s->rxcap) {
		size_t cap = s->rxcap ? s->rxcap : 4096;
		char *p;

		while (cap < s->rxlen + len)
			cap *= 2;
		p = realloc(s->rx, cap);
		if (!p)
			return -ENOMEM;
		s->rx = p;
		s->rxcap = cap;
	}
	memcpy(s->rx + s->rxlen, in, len);
	s->rxlen += len;
	return 0;
}

static int on_receive(struct server *srv, struct lws *wsi, struct session *s, void *in, size_t len)
{
	bool final = lws_is_final_fragment(wsi) && !lws_remaining_packet_payload(wsi);

	if (lws_frame_is_binary(wsi)) {
		srv->metrics.closed_binary++;
		return close_with(wsi, LWS_CLOSE_STATUS_UNACCEPTABLE_OPCODE, "binary frames are not accepted");
	}
	if (s->rxlen + len + lws_remaining_packet_payload(wsi) > srv->cfg.max_frame) {
		srv->metrics.closed_too_large++;
		return close_with(wsi, LWS_CLOSE_STATUS_MESSAGE_TOO_LARGE, "message too large");
	}
	if (final && !s->rxlen) {
		session_receive(s, in, len);
	} else {
		if (append_rx(s, in, len))
			return close_with(wsi, LWS_CLOSE_STATUS_UNEXPECTED_CONDITION, "out of memory");
		if (final) {
			session_receive(s, s->rx, s->rxlen);
			s->rxlen = 0;
			if (s->rxcap > 4096) { /* keep idle connections small */
				free(s->rx);
				s->rx = NULL;
				s->rxcap = 0;
			}
		}
	}
	return s->close_state ? (lws_callback_on_writable(wsi), 0) : 0;
}

static int on_ws(struct server *srv, struct lws *wsi, enum lws_callback_reasons reason,
		 struct pss *pss, void *in, size_t len)
{
	switch (reason) {
	case LWS_CALLBACK_ESTABLISHED:
		pss->s = session_new(srv, wsi);
		if (!pss->s)
			return -1;
		addr_adjust(srv, pss->s->addr, +1);
		return 0;
	case LWS_CALLBACK_RECEIVE:
		return pss->s ? on_receive(srv, wsi, pss->s, in, len) : -1;
	case LWS_CALLBACK_SERVER_WRITEABLE:
		return pss->s ? session_writeable(pss->s) : -1;
	case LWS_CALLBACK_CLOSED:
		if (pss->s) {
			addr_adjust(srv, pss->s->addr, -1);
			session_closed(pss->s);
			pss->s = NULL;
		}
		return 0;
	default:
		return 0;
	}
}

static int callback(struct lws *wsi, enum lws_callback_reasons reason, void *user, void *in, size_t len)
{
	struct server *srv = lws_context_user(lws_get_context(wsi));
	struct pss *pss = user;

	/* lws calls some reasons (a keep-alive connection timing out: CLOSED_HTTP) on
	 * connections that never got per-session data: nothing of ours to touch. */
	if (!pss && reason != LWS_CALLBACK_FILTER_PROTOCOL_CONNECTION)
		return lws_callback_http_dummy(wsi, reason, user, in, len);
	switch (reason) {
	case LWS_CALLBACK_FILTER_PROTOCOL_CONNECTION:
		return filter_connection(srv, wsi);
	case LWS_CALLBACK_ESTABLISHED:
	case LWS_CALLBACK_RECEIVE:
	case LWS_CALLBACK_SERVER_WRITEABLE:
	case LWS_CALLBACK_CLOSED:
		return on_ws(srv, wsi, reason, pss, in, len);
	case LWS_CALLBACK_HTTP:
		return http_request(srv, wsi, pss, in);
	case LWS_CALLBACK_WS_PEER_INITIATED_CLOSE:
		/* the peer answers our close frame: close now instead of echoing a second one */
		return pss->s && pss->s->close_state == SESSION_CLOSE_SENT ? -1 : 0;
	case LWS_CALLBACK_HTTP_BODY:
		return 0; /* the API is read-only: a body is read and dropped */
	case LWS_CALLBACK_HTTP_BODY_COMPLETION:
		lws_callback_on_writable(wsi); /* now the 405 can go out */
		return 0;
	case LWS_CALLBACK_HTTP_WRITEABLE:
		return http_writeable(srv, wsi, pss);
	case LWS_CALLBACK_CLOSED_HTTP:
		http_closed(srv, pss);
		break;
	default:
		break;
	}
	return lws_callback_http_dummy(wsi, reason, user, in, len);
}

static struct lws_protocols protocols[] = {
	{WIRE_PROTOCOL, callback, sizeof(struct pss), RX_CHUNK, 0, NULL, 0},
	{NULL, NULL, 0, 0, 0, NULL, 0},
};

static const struct lws_protocol_vhost_options mime_svg = {NULL, NULL, ".svg", "image/svg+xml"};
static const struct lws_protocol_vhost_options mime_mjs = {&mime_svg, NULL, ".mjs", "text/javascript"};
static const struct lws_protocol_vhost_options mime_js = {&mime_mjs, NULL, ".js", "text/javascript"};
static const struct lws_protocol_vhost_options mime_json = {&mime_js, NULL, ".json", "application/json"};
static const struct lws_protocol_vhost_options mime_png = {&mime_json, NULL, ".png", "image/png"};

static struct lws_http_mount mount_metrics = {
	.mountpoint = "/metrics", .origin_protocol = LWSMPRO_CALLBACK, .protocol = WIRE_PROTOCOL,
	.mountpoint_len = 8,
};
static struct lws_http_mount mount_healthz = {
	.mount_next = &mount_metrics, .mountpoint = "/healthz", .origin_protocol = LWSMPRO_CALLBACK,
	.protocol = WIRE_PROTOCOL, .mountpoint_len = 8,
};
static struct lws_http_mount mount_api = {
	.mount_next = &mount_healthz, .mountpoint = "/api", .origin_protocol = LWSMPRO_CALLBACK,
	.protocol = WIRE_PROTOCOL, .mountpoint_len = 4,
};
static struct lws_http_mount mount_web = {
	.mount_next = &mount_api, .mountpoint = "/", .def = "index.html",
	.origin_protocol = LWSMPRO_FILE, .mountpoint_len = 1, .extra_mimetypes = &mime_png,
	.cache_max_age = 0, .cache_reusable = 0,
};

static void lws_log_cb(int level, const char *line)
{
	size_t n = strlen(line);

	while (n && (line[n - 1] == '\n' || line[n - 1] == '\r'))
		n--;
	util_log(level == LLL_ERR ? LOG_ERROR : LOG_WARN, "lws: %.*s", (int)n, line);
}

int net_start(struct server *srv)
{
	struct lws_context_creation_info info;
	void *foreign_loops[1] = {srv->loop};

	lws_set_log_level(LLL_ERR | (srv->cfg.log_level >= LOG_DEBUG ? LLL_WARN : 0), lws_log_cb);
	memset(&info, 0, sizeof(info));
	info.port = srv->cfg.port;
	info.iface = srv->cfg.host;
	info.protocols = protocols;
	mount_web.origin = srv->cfg.web_dir;
	info.mounts = &mount_web;
	info.options = LWS_SERVER_OPTION_LIBUV | LWS_SERVER_OPTION_VALIDATE_UTF8 |
		       LWS_SERVER_OPTION_HTTP_HEADERS_SECURITY_BEST_PRACTICES_ENFORCE; /* CSP, nosniff... */
	info.foreign_loops = foreign_loops;
	info.user = srv;
	info.timeout_secs = 30;
	info.ka_time = 60;
	info.ka_probes = 3;
	info.ka_interval = 10;
	srv->lws = lws_create_context(&info);
	if (!srv->lws) {
		util_log(LOG_ERROR, "net: cannot listen on %s:%d", srv->cfg.host, srv->cfg.port);
		return -EADDRINUSE;
	}
	return 0;
}

void net_stop(struct server *srv)
{
	if (srv->lws) {
		lws_context_destroy(srv->lws);
		srv->lws = NULL;
	}
}

void net_want_write(struct session *s)
{
	if (s->wsi)
		lws_callback_on_writable(s->wsi);
}
