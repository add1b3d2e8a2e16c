/*
 * net.c: libwebsockets on our uv loop (see net.h). Close codes: 1009 past
 * the frame limit, 1003 for binary frames, 1007 (lws' UTF-8 validation) for
 * bad text, 1008 for a message begun and not finished in time. The vhost
 * is created explicitly so that a port already taken, or an address that is
 * not ours, fails the start instead of leaving a context that listens
 * nowhere.
 *
 * Connection cap: every accepted connection (HTTP or WebSocket) is counted
 * from lws' WSI_CREATE to its WSI_DESTROY. At n->max_conns, which stays
 * below RLIMIT_NOFILE, a new connection is closed as soon as it is accepted
 * (after a best-effort 503): accept() itself must never fail with EMFILE, for
 * then the listening socket stays readable and lws spins on it.
 */
#include "net/net_int.h"

#include <arpa/inet.h>
#include <assert.h>
#include <errno.h>
#include <libwebsockets.h>
#include <limits.h>
#include <netdb.h>
#include <openssl/err.h>
#include <openssl/ssl.h>
#include <strings.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>

#include "wire.h"
#include "cluster/cluster.h"
#include "store/store.h"

#define RX_CHUNK 2048 /* lws receive buffer per connection; bigger messages arrive in pieces */

/* RFC 6455's registry: 1012 "Service Restart" (lws has no name for it) */
#define NET_CLOSE_RESTART 1012

/* net_notice(): our own callback reason, with a struct notice as `in` */
#define NET_CALLBACK_NOTICE (LWS_CALLBACK_USER + 1)
/* net_drop_held() */
#define NET_CALLBACK_DROP_HELD (LWS_CALLBACK_USER + 2)
struct notice {
	int err;
	const char *message;
};

/* What lws keeps per connection: one pointer each way (style.md). */
struct pss {
	struct session *s;        /* WebSocket connections */
	struct http_req *h;       /* HTTP API requests */
	int raw_status;           /* not_http(): the answer owed, 0 until the request is seen */
	struct webfiles_resp web; /* a static file being sent (webfiles.c) */
	bool rx_timer;            /* the timer runs for a message begun and not finished (after hello) */
	uint64_t hello_ns;        /* mono ns: when its hello began to wait for its read (s->hello set) */
};

struct addr_count {
	char addr[64];
	int n;
};

/*
 * One X-Forwarded-For item (between commas, blanks trimmed) as an address in
 * its canonical text (an IPv4-mapped IPv6 address as IPv4), so that one client
 * is one key of the per-address tallies however a proxy spells it. Accepted:
 * what nginx ($proxy_add_x_forwarded_for) and HAProxy (option forwardfor)
 * send, a bare IPv4 or IPv6 address; and, from proxies that add a port, the
 * forms of RFC 7239's node: IPv4:PORT, [IPv6] and [IPv6]:PORT (the port is
 * dropped). Anything else (a name, "unknown", control bytes) is not an
 * address: false.
 */
static bool xff_item(const char *a, const char *b, char *out, size_t len)
{
	char text[INET6_ADDRSTRLEN + 8];
	unsigned char bin[16];
	const char *colon = memchr(a, ':', (size_t)(b - a));

	if (b - a >= (ptrdiff_t)sizeof(text) || b == a)
		return false;
	if (*a == '[') { /* [IPv6] or [IPv6]:PORT */
		const char *close = memchr(a, ']', (size_t)(b - a));

		if (!close || (close + 1 < b && (close[1] != ':' || close + 2 == b ||
						 strspn(close + 2, "0123456789") < (size_t)(b - close - 2))))
			return false;
		a++;
		b = close;
	} else if (colon && !memchr(colon + 1, ':', (size_t)(b - colon - 1))) { /* IPv4:PORT */
		if (colon + 1 == b || strspn(colon + 1, "0123456789") < (size_t)(b - colon - 1))
			return false;
		b = colon;
	}
	memcpy(text, a, (size_t)(b - a));
	text[b - a] = '\0';
	if (inet_pton(AF_INET, text, bin) == 1)
		return inet_ntop(AF_INET, bin, out, (socklen_t)len) != NULL;
	if (inet_pton(AF_INET6, text, bin) != 1)
		return false;
	if (IN6_IS_ADDR_V4MAPPED((const struct in6_addr *)bin))
		return inet_ntop(AF_INET, bin + 12, out, (socklen_t)len) != NULL;
	return inet_ntop(AF_INET6, bin, out, (socklen_t)len) != NULL;
}

/*
 * The client's address: the peer's, or, when the peer is a trusted proxy,
 * the rightmost address of X-Forwarded-For that is not itself a trusted
 * proxy (the ones left of it could be anything the client wrote). An item
 * that is not an address (xff_item) ends the walk: what is left of it cannot
 * be believed, so the last trusted hop stands (the peer, when it is the
 * rightmost). Read while the request's headers are still there (filter and
 * ESTABLISHED).
 */
static void client_addr(struct net *n, struct lws *wsi, char *out, size_t len)
{
	char xff[1024], item[INET6_ADDRSTRLEN];
	char *end;
	int xlen;

	lws_get_peer_simple(wsi, out, len);
	if (!n->cfg->n_proxies || !config_is_trusted_proxy(n->cfg, out))
		return;
	xlen = lws_hdr_copy(wsi, xff, sizeof(xff), WSI_TOKEN_X_FORWARDED_FOR);
	if (xlen <= 0)
		return;
	end = xff + xlen;
	while (end > xff) {
		char *start = end, *a, *b;

		while (start > xff && start[-1] != ',')
			start--;
		for (a = start; a < end && (*a == ' ' || *a == '\t'); a++)
			;
		for (b = end; b > a && (b[-1] == ' ' || b[-1] == '\t'); b--)
			;
		if (!xff_item(a, b, item, sizeof(item)))
			return;
		snprintf(out, len, "%s", item);
		if (!config_is_trusted_proxy(n->cfg, item))
			return;
		end = start > xff ? start - 1 : xff;
	}
}

static int filter_connection(struct net *n, struct lws *wsi)
{
	char uri[64], addr[64];

	if (lws_hdr_copy(wsi, uri, sizeof(uri), WSI_TOKEN_GET_URI) < 0 || strcmp(uri, "/ws"))
		return 1; /* WebSockets only at /ws */
	client_addr(n, wsi, addr, sizeof(addr));
	if (tally_get(&n->addrs, addr) >= (size_t)n->cfg->max_conns_per_addr) {
		static struct util_log_limit rl;

		util_log_limited(&rl, LOG_WARN, "net: refusing %s: %d connections already", addr,
				 n->cfg->max_conns_per_addr);
		return 1;
	}
	return 0;
}

/*
 * The cap: the open-file limit (already raised to the hard limit by main.c)
 * less the descriptors the rest of the process needs (the database, its WAL
 * and shared-memory files, the listening socket, libuv's and lws' pipes,
 * the log): 64, or a quarter of a small limit. --max-conns can only lower it.
 */
static int conn_cap(const struct config *cfg)
{
	struct rlimit rl;
	long limit = INT_MAX, cap;

	if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < (rlim_t)INT_MAX)
		limit = (long)rl.rlim_cur;
	cap = limit - (limit >= 256 ? 64 : limit / 4);
	if (cap < 1)
		cap = 1;
	if (cfg->max_conns > cap)
		util_log(LOG_WARN, "net: --max-conns %d is above what the open-file limit %ld allows: %ld",
			 cfg->max_conns, limit, cap);
	else if (cfg->max_conns > 0)
		cap = cfg->max_conns;
	return (int)cap;
}

/* One line a second at most, however fast refusals come (a flood must not flood the log too). */
static void log_refusal(struct net *n)
{
	int64_t now = (int64_t)(util_mono_ns() / 1000000);

	n->refused_unlogged++;
	if (n->refusal_logged_ms && now - n->refusal_logged_ms < 1000)
		return;
	util_log(LOG_WARN,
		 "net: refusing new connections: %d open, at the cap (--max-conns %d); %llu refused since "
		 "the last such line",
		 n->conns, n->max_conns, (unsigned long long)n->refused_unlogged);
	n->refusal_logged_ms = now;
	n->refused_unlogged = 0;
}

/* The peer of an accepted socket as text (an IPv4-mapped IPv6 address as IPv4); "" if unknown. */
static void peer_of(int fd, char *out, size_t len)
{
	struct sockaddr_storage ss = { 0 };
	socklen_t sl = sizeof(ss);
	const struct sockaddr_in6 *s6 = (const struct sockaddr_in6 *)&ss;

	*out = '\0';
	if (getpeername(fd, (struct sockaddr *)&ss, &sl))
		return;
	if (ss.ss_family == AF_INET)
		inet_ntop(AF_INET, &((const struct sockaddr_in *)&ss)->sin_addr, out, (socklen_t)len);
	else if (ss.ss_family == AF_INET6 && IN6_IS_ADDR_V4MAPPED(&s6->sin6_addr))
		inet_ntop(AF_INET, &s6->sin6_addr.s6_addr[12], out, (socklen_t)len);
	else if (ss.ss_family == AF_INET6)
		inet_ntop(AF_INET6, &s6->sin6_addr, out, (socklen_t)len);
}

/* At the cap, in all or for this address: a 503 if the socket takes it now (never waited for), then lws
 * closes fd. */
static int admit(struct net *n, int fd)
{
	static const char busy[] = "HTTP/1.1 503 Service Unavailable\r\nConnection: close\r\n"
				   "Content-Length: 0\r\nRetry-After: 5\r\n\r\n";
	static struct util_log_limit rl;
	struct addr_count *a;
	char addr[64];

	if (n->draining) { /* stopping: the next server will take it */
		(void)send(fd, busy, sizeof(busy) - 1, MSG_DONTWAIT | MSG_NOSIGNAL);
		return 1;
	}
	if (n->conns >= n->max_conns) {
		n->metrics->refused_cap++;
		(void)send(fd, busy, sizeof(busy) - 1, MSG_DONTWAIT | MSG_NOSIGNAL); /* refused either way */
		log_refusal(n);
		return 1;
	}
	peer_of(fd, addr, sizeof(addr));
	/* behind a trusted proxy every client has the proxy's address: those are counted by client, at the
	 * upgrade */
	if (*addr && n->cfg->n_proxies && config_is_trusted_proxy(n->cfg, addr))
		return 0;
	a = *addr ? hmap_get(&n->conn_addrs, addr) : NULL;
	if (!a || a->n < n->cfg->max_conns_per_addr)
		return 0;
	n->metrics->refused_addr++;
	(void)send(fd, busy, sizeof(busy) - 1, MSG_DONTWAIT | MSG_NOSIGNAL);
	util_log_limited(&rl, LOG_WARN,
			 "net: refusing a connection from %s: %d open already (--max-conns-per-addr)", addr,
			 a->n);
	return 1;
}

/* Counts an accepted connection against its address; the count rides on the wsi until WSI_DESTROY. */
static void conn_addr_add(struct net *n, struct lws *wsi)
{
	struct addr_count *a;
	char addr[64];

	peer_of(lws_get_socket_fd(wsi), addr, sizeof(addr));
	if (!*addr)
		return;
	if (!(a = hmap_get(&n->conn_addrs, addr))) {
		if (!(a = calloc(1, sizeof(*a))))
			return;
		snprintf(a->addr, sizeof(a->addr), "%s", addr);
		if (hmap_put(&n->conn_addrs, a->addr, a)) {
			free(a);
			return;
		}
	}
	a->n++;
	lws_set_opaque_user_data(wsi, a);
}

static void conn_addr_del(struct net *n, struct lws *wsi)
{
	struct addr_count *a = n->stopped ? NULL : lws_get_opaque_user_data(wsi);

	if (!a)
		return;
	lws_set_opaque_user_data(wsi, NULL);
	if (--a->n <= 0) {
		hmap_del(&n->conn_addrs, a->addr);
		free(a);
	}
}

/*
 * lws sends WSI_CREATE only for accepted connections (the listener has none);
 * the listener's WSI_DESTROY comes at shutdown, hence the floor at 0.
 */
static void count_conns(struct net *n, struct lws *wsi, enum lws_callback_reasons reason)
{
	if (reason == LWS_CALLBACK_WSI_CREATE) {
		n->conns++;
	} else if (reason == LWS_CALLBACK_SERVER_NEW_CLIENT_INSTANTIATED) {
		conn_addr_add(n, wsi); /* its socket is known from here on */
	} else if (reason == LWS_CALLBACK_WSI_DESTROY) {
		if (n->conns > 0)
			n->conns--;
		conn_addr_del(n, wsi);
	}
}

/* The 405 body of a method other than GET and HEAD (filter_http, not_http). */
static const char not_allowed[] = "{\"error\":\"method_not_allowed\",\"code\":\"method_not_allowed\","
				  "\"message\":\"read-only: use GET or HEAD\"}";

/*
 * Every HTTP request, before lws serves a static file: the web client is
 * read-only, so any other method than GET and HEAD is answered 405 with a
 * JSON body (lws would serve the file to a POST) and the connection closed.
 * The API's own mounts answer their 405 themselves (http.c).
 */
static int filter_http(struct lws *wsi)
{
	uint8_t buf[LWS_PRE + 1536], *start = buf + LWS_PRE, *p = start, *end = buf + sizeof(buf) - 1;

	if (lws_hdr_total_length(wsi, WSI_TOKEN_GET_URI) > 0 ||
	    lws_hdr_total_length(wsi, WSI_TOKEN_HEAD_URI) > 0)
		return 0;
	if (lws_add_http_common_headers(wsi, HTTP_STATUS_METHOD_NOT_ALLOWED, "application/json",
					sizeof(not_allowed) - 1, &p, end) ||
	    lws_add_http_header_by_name(
		    wsi, (const unsigned char *)"allow:", (const unsigned char *)"GET, HEAD", 9, &p, end) ||
	    lws_add_http_header_by_name(
		    wsi, (const unsigned char *)"connection:", (const unsigned char *)"close", 5, &p, end) ||
	    lws_finalize_http_header(wsi, &p, end) || (size_t)(end - p) < sizeof(not_allowed))
		return 1;
	memcpy(p, not_allowed, sizeof(not_allowed) - 1);
	p += sizeof(not_allowed) - 1;
	(void)lws_write(wsi, start, (size_t)(p - start), LWS_WRITE_HTTP_HEADERS); /* closed either way */
	return 1; /* refused: lws closes the connection */
}

/*
 * What lws' HTTP parser hands over as a raw socket instead of answering it
 * (server.c and parsers.c of lws 4.1): CONNECT, and with
 * LWS_SERVER_OPTION_FALLBACK_TO_APPLY_LISTEN_ACCEPT_CONFIG a request whose
 * method it does not know (TRACE, PROPFIND, or not HTTP at all), which it
 * would otherwise answer with an HTML 403. RAW_RX brings the request's first
 * bytes: a method-like word is 405, anything else 400, both in JSON, then
 * the connection closes (lws shuts it down gracefully, so the answer is read).
 */
static int not_http(struct lws *wsi, struct pss *pss, enum lws_callback_reasons reason, const char *in,
		    size_t len)
{
	static const char *const fmt =
		"HTTP/1.1 %s\r\ncontent-type: application/json\r\ncontent-length: %zu\r\n%s"
		"connection: close\r\ncache-control: no-store\r\n\r\n%s";
	static const char bad[] =
		"{\"error\":\"bad_request\",\"code\":\"bad_request\",\"message\":\"not an HTTP request\"}";
	unsigned char buf[LWS_PRE + 512];
	size_t i = 0;
	int n;

	switch (reason) {
	case LWS_CALLBACK_RAW_ADOPT: /* at most a few seconds for the request's first bytes and the answer */
		lws_set_timeout(wsi, PENDING_TIMEOUT_USER_OK, 5);
		return 0;
	case LWS_CALLBACK_RAW_RX:
		if (!pss || pss->raw_status || !in)
			return 0; /* the rest of the request: read and dropped */
		while (i < len && in[i] >= 'A' && in[i] <= 'Z')
			i++;
		pss->raw_status = i && i < len && in[i] == ' ' ? 405 : 400;
		lws_callback_on_writable(wsi);
		return 0;
	case LWS_CALLBACK_RAW_WRITEABLE:
		if (!pss || !pss->raw_status)
			return 0;
		n = pss->raw_status == 405 ? snprintf((char *)buf + LWS_PRE, sizeof(buf) - LWS_PRE, fmt,
						      "405 Method Not Allowed", sizeof(not_allowed) - 1,
						      "allow: GET, HEAD\r\n", not_allowed)
					   : snprintf((char *)buf + LWS_PRE, sizeof(buf) - LWS_PRE, fmt,
						      "400 Bad Request", sizeof(bad) - 1, "", bad);
		(void)lws_write(wsi, buf + LWS_PRE, (size_t)n, LWS_WRITE_RAW); /* closed either way */
		return -1;
	default:
		return 0;
	}
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

/*
 * A message begun after hello must be finished within hello_timeout_s: a
 * client that sends part of a frame, or a first fragment, and then nothing
 * would otherwise hold the connection until the keep-alive gives up. Before
 * hello the hello timer bounds it already (and is not moved).
 */
static void rx_timer_update(struct net *n, struct lws *wsi, struct pss *pss)
{
	bool pending = pss->s->rxlen > 0;

	if (pending && !pss->rx_timer && pss->s->player) {
		lws_set_timer_usecs(wsi, (lws_usec_t)n->cfg->hello_timeout_s * LWS_US_PER_SEC);
		pss->rx_timer = true;
	} else if (!pending && pss->rx_timer) {
		lws_set_timer_usecs(wsi, LWS_SET_TIMER_USEC_CANCEL);
		pss->rx_timer = false;
	}
}

/*
 * A hello that waits for its read (s->hello) is answered by the read within
 * its deadline, counted from when it was queued (store_lookup_deadline_ms);
 * the timer is the bound should the read not answer: twice that after the
 * hello, it drops the read and answers as for a read that fails
 * (`unavailable`, the connection open), and the connection has
 * hello_timeout_s for another hello. `start`: the wait begins; else the
 * timer fired.
 */
static void hello_wait(struct net *n, struct lws *wsi, struct pss *pss, bool start)
{
	uint64_t now = util_mono_ns(),
		 bound = 2 * (uint64_t)store_lookup_deadline_ms(n->handlers->store) * 1000000u;

	if (start)
		pss->hello_ns = now;
	if (now - pss->hello_ns < bound) { /* early: the hello's own timer set before the wait began */
		lws_set_timer_usecs(wsi, (lws_usec_t)((bound - (now - pss->hello_ns)) / 1000u + 1));
		return;
	}
	handlers_hello_expired(n->handlers, pss->s);
	if (pss->s->hello && !pss->s->close_state) /* its identity left memory: read whole, a new wait */
		hello_wait(n, wsi, pss, true);
	else
		lws_set_timer_usecs(wsi, (lws_usec_t)n->cfg->hello_timeout_s * LWS_US_PER_SEC);
}

static int on_receive(struct net *n, struct lws *wsi, struct session *s, void *in, size_t len)
{
	bool final = lws_is_final_fragment(wsi) && !lws_remaining_packet_payload(wsi);

	if (lws_frame_is_binary(wsi)) {
		n->metrics->closed_binary++;
		return close_with(wsi, LWS_CLOSE_STATUS_UNACCEPTABLE_OPCODE,
				  "binary frames are not accepted");
	}
	if (s->rxlen + len + lws_remaining_packet_payload(wsi) > n->cfg->max_frame) {
		n->metrics->closed_too_large++;
		return close_with(wsi, LWS_CLOSE_STATUS_MESSAGE_TOO_LARGE, "message too large");
	}
	if (final) /* the first frame queued on this connection while it is handled is its reply */
		s->rx_ns = util_mono_ns();
	if (final && !s->rxlen) {
		handlers_receive(n->handlers, s, in, len);
	} else {
		if (append_rx(s, in, len))
			return close_with(wsi, LWS_CLOSE_STATUS_UNEXPECTED_CONDITION, "out of memory");
		if (final) {
			handlers_receive(n->handlers, s, s->rx, s->rxlen);
			s->rxlen = 0;
			if (s->rxcap > 4096) { /* keep idle connections small */
				free(s->rx);
				s->rx = NULL;
				s->rxcap = 0;
			}
		}
	}
	s->rx_ns = 0; /* a message answered by nothing lends its time to no later frame */
	return s->close_state ? (lws_callback_on_writable(wsi), 0) : 0;
}

static int on_ws(struct net *n, struct lws *wsi, enum lws_callback_reasons reason, struct pss *pss, void *in,
		 size_t len)
{
	switch (reason) {
	case LWS_CALLBACK_ESTABLISHED:
		pss->s = session_new(n->sessions, wsi);
		if (!pss->s)
			return -1;
		if (n->cfg->n_proxies)
			client_addr(n, wsi, pss->s->addr, sizeof(pss->s->addr));
		(void)tally_add(&n->addrs, pss->s->addr, +1); /* out of memory: uncounted */
		util_log_conn(LOG_DEBUG, pss->s->id, "net: WebSocket from %s", pss->s->addr);
		/* a connection that never says hello must not hold a descriptor for long */
		lws_set_timer_usecs(wsi, (lws_usec_t)n->cfg->hello_timeout_s * LWS_US_PER_SEC);
		return 0;
	case LWS_CALLBACK_TIMER:
		if (pss->s && pss->s->hello && !pss->s->close_state) {
			hello_wait(n, wsi, pss, false); /* its hello was said and waits for the store */
		} else if (pss->s && !pss->s->player && !pss->s->close_state) {
			n->metrics->closed_no_hello++;
			session_close(pss->s, LWS_CLOSE_STATUS_POLICY_VIOLATION, "no hello in time");
		} else if (pss->s && pss->rx_timer && !pss->s->close_state) {
			pss->rx_timer = false;
			session_close(pss->s, LWS_CLOSE_STATUS_POLICY_VIOLATION,
				      "message not finished in time");
		}
		return 0;
	case LWS_CALLBACK_RECEIVE: {
		bool waited;
		int r;

		if (!pss->s)
			return -1;
		session_heard(pss->s);
		/* no message is read while a hello waits (rx flow control): a wait seen now is a new one */
		waited = pss->s->hello != NULL;
		r = on_receive(n, wsi, pss->s, in, len);

		if (!r && !waited && pss->s->hello && !pss->s->close_state)
			hello_wait(n, wsi, pss, true);
		if (!r)
			rx_timer_update(n, wsi, pss);
		return r;
	}
	case LWS_CALLBACK_RECEIVE_PONG: /* the keep-alive's ping answered (or an unasked pong: alive too) */
		if (pss->s)
			session_heard(pss->s);
		return 0;
	case LWS_CALLBACK_SERVER_WRITEABLE: /* lws closes on -1 */
		return pss->s && !session_ka_writeable(pss->s) && !session_writeable(pss->s) ? 0 : -1;
	case LWS_CALLBACK_USER: /* net_drain() */
		if (pss->s)
			session_close(pss->s, NET_CLOSE_RESTART, "server restarting");
		return 0;
	case LWS_CALLBACK_CLOSED:
		if (pss->s) {
			util_log_conn(LOG_DEBUG, pss->s->id, "net: closed");
			(void)tally_add(&n->addrs, pss->s->addr, -1);
			handlers_closed(n->handlers, pss->s);
			pss->s = NULL;
		}
		return 0;
	default:
		return 0;
	}
}

/*
 * An HTTP answer written at once, with a JSON body {"error", "code", "message"} and
 * one more header if hdr ("name:") is not NULL: a refused upgrade or /metrics
 * request. The caller completes the transaction.
 */
static int refuse(struct lws *wsi, unsigned status, const char *code, const char *message, const char *hdr,
		  const char *value)
{
	unsigned char head[LWS_PRE + 1024], *start = head + LWS_PRE, *p = start,
					    *end = head + sizeof(head) - 1;
	unsigned char body[LWS_PRE + 512];
	int len = snprintf((char *)body + LWS_PRE, sizeof(body) - LWS_PRE,
			   "{\"error\":\"%s\",\"code\":\"%s\",\"message\":\"%s\"}", code, code, message);

	assert(len > 0 && (size_t)len < sizeof(body) - LWS_PRE); /* our own short constants */

	if (lws_add_http_common_headers(wsi, status, "application/json", (lws_filepos_t)len, &p, end) ||
	    (hdr && lws_add_http_header_by_name(wsi, (const unsigned char *)hdr, (const unsigned char *)value,
						(int)strlen(value), &p, end)) ||
	    lws_finalize_write_http_header(wsi, start, &p, end))
		return -1;
	if (lws_write(wsi, body + LWS_PRE, (size_t)len, LWS_WRITE_HTTP_FINAL) != len)
		return -1;
	return 1;
}

/*
 * A WebSocket's Origin: none (not a browser), the server's own (its host and
 * port are the Host header's), or one of cfg->origins.
 */
static bool origin_allowed(struct net *n, struct lws *wsi)
{
	char origin[256], host[256];
	const char *o;
	int i;

	if (lws_hdr_total_length(wsi, WSI_TOKEN_ORIGIN) <= 0)
		return true;
	if (lws_hdr_copy(wsi, origin, sizeof(origin), WSI_TOKEN_ORIGIN) < 0)
		return false;
	o = strstr(origin, "://");
	if (o && lws_hdr_copy(wsi, host, sizeof(host), WSI_TOKEN_HOST) > 0 && !strcasecmp(o + 3, host))
		return true;
	for (i = 0; i < n->cfg->n_origins; i++)
		if (!strcasecmp(origin, n->cfg->origins[i]))
			return true;
	return false;
}

/*
 * Before lws answers 101: RFC 6455 4.4 wants a version other than 13 refused
 * with 426 and the version we speak (lws 4.1 takes any version as 13).
 */
static int confirm_upgrade(struct net *n, struct lws *wsi)
{
	char version[8] = "";

	if (n->metrics_vh && lws_get_vhost(wsi) == n->metrics_vh)
		return refuse(wsi, 404, "not_found", "this address serves only /metrics and /healthz", NULL,
			      NULL);
	if (lws_hdr_copy(wsi, version, sizeof(version), WSI_TOKEN_VERSION) < 0 || strcmp(version, "13"))
		return refuse(wsi, 426, "upgrade_required", "Sec-WebSocket-Version must be 13",
			      "sec-websocket-version:", "13");
	if (!origin_allowed(n, wsi)) {
		n->metrics->refused_origin++;
		return refuse(wsi, 403, "origin_not_allowed", "this Origin may not open the WebSocket", NULL,
			      NULL);
	}
	return 0;
}

/* Whether the client (client_addr: behind a trusted proxy, the one it names) is in metrics_from. */
static bool metrics_client_allowed(struct net *n, struct lws *wsi)
{
	char addr[64];

	client_addr(n, wsi, addr, sizeof(addr));
	return config_metrics_from(n->cfg, addr);
}

/* Constant-time comparison of the Authorization header with "Bearer <token>". */
static bool bearer_ok(struct net *n, struct lws *wsi)
{
	char got[512], want[300];
	size_t i, wl;
	int gl = lws_hdr_copy(wsi, got, sizeof(got), WSI_TOKEN_HTTP_AUTHORIZATION);
	unsigned char diff = 0;

	snprintf(want, sizeof(want), "Bearer %s", n->cfg->metrics_token);
	wl = strlen(want);
	if (gl < 0 || (size_t)gl != wl)
		return false;
	for (i = 0; i < wl; i++)
		diff |= (unsigned char)(got[i] ^ want[i]);
	return diff == 0;
}

/*
 * Which HTTP requests reach http.c: with metrics_listen, /metrics is served
 * only there and that address serves nothing else but /healthz; with
 * metrics_token, /metrics wants the token; without it, the listeners serve
 * /metrics only to the client addresses of metrics_from (loopback by
 * default), the client being the one a trusted proxy names, not the proxy.
 * 0 to go on, 1 answered, -1 close.
 */
static int http_gate(struct net *n, struct lws *wsi)
{
	char uri[64] = "";
	bool on_metrics = n->metrics_vh && lws_get_vhost(wsi) == n->metrics_vh, is_metrics;

	if (lws_hdr_copy(wsi, uri, sizeof(uri), WSI_TOKEN_GET_URI) < 0)
		lws_hdr_copy(wsi, uri, sizeof(uri), WSI_TOKEN_HEAD_URI);
	is_metrics = !strcmp(uri, "/metrics");
	if (on_metrics ? !is_metrics && strcmp(uri, "/healthz") : is_metrics && n->metrics_vh)
		return refuse(wsi, 404, "not_found", "no such endpoint here", NULL, NULL);
	if (is_metrics && n->cfg->metrics_token[0] && !bearer_ok(n, wsi)) {
		n->metrics->refused_token++;
		return refuse(wsi, 401, "unauthorized", "/metrics wants Authorization: Bearer <token>",
			      "www-authenticate:", "Bearer realm=\"metrics\"");
	}
	if (is_metrics && !on_metrics && !n->cfg->metrics_token[0] && !metrics_client_allowed(n, wsi)) {
		n->metrics->refused_metrics_from++;
		return refuse(wsi, 403, "forbidden",
			      "/metrics is served here only to the addresses of metrics_from, or with "
			      "metrics_token",
			      NULL, NULL);
	}
	return 0;
}

static bool on_web_mount(struct lws *wsi);

static int callback(struct lws *wsi, enum lws_callback_reasons reason, void *user, void *in, size_t len)
{
	struct net *n = lws_context_user(lws_get_context(wsi));
	struct pss *pss = user;

	if (reason == LWS_CALLBACK_FILTER_NETWORK_CONNECTION) /* `user` is lws' filter data, not ours */
		return admit(n, (int)(intptr_t)in);
	if (reason == LWS_CALLBACK_HTTP_CONFIRM_UPGRADE)
		return confirm_upgrade(n, wsi);
	if (reason == LWS_CALLBACK_OPENSSL_LOAD_EXTRA_SERVER_VERIFY_CERTS) { /* user: the vhost's SSL_CTX */
		if (n->n_ssl_ctx < CONF_MAX_LISTEN)
			n->ssl_ctx[n->n_ssl_ctx++] = user;
		return 0;
	}
	if (reason == LWS_CALLBACK_FILTER_HTTP_CONNECTION)
		return filter_http(wsi);
	if (reason == LWS_CALLBACK_RAW_ADOPT || reason == LWS_CALLBACK_RAW_RX ||
	    reason == LWS_CALLBACK_RAW_WRITEABLE)
		return not_http(wsi, pss, reason, in, len);
	count_conns(n, wsi, reason);
	/* lws calls some reasons (a keep-alive connection timing out: CLOSED_HTTP) on
	 * connections that never got per-session data: nothing of ours to touch. */
	if (!pss && reason != LWS_CALLBACK_FILTER_PROTOCOL_CONNECTION)
		return lws_callback_http_dummy(wsi, reason, user, in, len);
	if ((int)reason == NET_CALLBACK_NOTICE) { /* not one of lws' reasons: outside the switch */
		if (pss->s)
			session_send_notice(pss->s, ((const struct notice *)in)->err,
					    ((const struct notice *)in)->message);
		return 0;
	}
	if ((int)reason == NET_CALLBACK_DROP_HELD) {
		if (pss->s)
			session_drop_held(pss->s);
		return 0;
	}
	switch (reason) {
	case LWS_CALLBACK_FILTER_PROTOCOL_CONNECTION:
		return filter_connection(n, wsi);
	case LWS_CALLBACK_ESTABLISHED:
	case LWS_CALLBACK_RECEIVE:
	case LWS_CALLBACK_RECEIVE_PONG:
	case LWS_CALLBACK_SERVER_WRITEABLE:
	case LWS_CALLBACK_CLOSED:
	case LWS_CALLBACK_USER:
	case LWS_CALLBACK_TIMER:
		return on_ws(n, wsi, reason, pss, in, len);
	case LWS_CALLBACK_HTTP: {
		if (on_web_mount(wsi)) { /* a file, or (1) no such file: the API's 404, as before */
			int w = webfiles_request(n->web, wsi, &pss->web);

			if (w <= 0)
				return w;
		}
		int g = http_gate(n, wsi);

		if (g)
			return g < 0 || lws_http_transaction_completed(wsi) ? -1 : 0;
		char addr[64];

		client_addr(n, wsi, addr, sizeof(addr)); /* behind a trusted proxy, the client it names */
		return http_request(n->http, wsi, &pss->h, in, addr) ? -1 : 0; /* lws closes on -1 */
	}
	case LWS_CALLBACK_WS_PEER_INITIATED_CLOSE:
		/* the peer answers our close frame: close now instead of echoing a second one */
		return pss->s && pss->s->close_state == SESSION_CLOSE_SENT ? -1 : 0;
	case LWS_CALLBACK_HTTP_BODY:
		return 0; /* the API is read-only: a body is read and dropped */
	case LWS_CALLBACK_HTTP_BODY_COMPLETION:
		lws_callback_on_writable(wsi); /* now the 405 can go out */
		return 0;
	case LWS_CALLBACK_HTTP_WRITEABLE:
		if (pss->web.set)
			return webfiles_writeable(wsi, &pss->web);
		return http_writeable(n->http, wsi, &pss->h) ? -1 : 0;
	case LWS_CALLBACK_CLOSED_HTTP:
	case LWS_CALLBACK_HTTP_DROP_PROTOCOL: /* pss is freed next: let go of what it holds */
		http_closed(&pss->h);
		webfiles_resp_end(&pss->web);
		break;
	default:
		break;
	}
	return lws_callback_http_dummy(wsi, reason, user, in, len);
}

/*
 * The web mount's requests are bound to a protocol of their own name (with the
 * same callback and data), which is how LWS_CALLBACK_HTTP tells them from the
 * API's: lws hands both a URI, with a different prefix taken off.
 */
#define WEB_PROTOCOL "quinteto-web-files"

static struct lws_protocols protocols[] = {
	{ WIRE_PROTOCOL, callback, sizeof(struct pss), RX_CHUNK, 0, NULL, 0 },
	{ WEB_PROTOCOL, callback, sizeof(struct pss), 0, 0, NULL, 0 },
	{ NULL, NULL, 0, 0, 0, NULL, 0 },
};

static bool on_web_mount(struct lws *wsi)
{
	const struct lws_protocols *p = lws_get_protocol(wsi);

	return p && p->name && !strcmp(p->name, WEB_PROTOCOL);
}

/*
 * The security headers of every answer: lws 4.1's "best practices" set
 * (LWS_SERVER_OPTION_HTTP_HEADERS_SECURITY_BEST_PRACTICES_ENFORCE), whose
 * fixed CSP would refuse to compile the rules module (Chromium needs
 * 'wasm-unsafe-eval' for WebAssembly, which allows compiling WebAssembly and
 * nothing else: no eval of JavaScript), so the same set written here with that
 * one source added, and without X-XSS-Protection: browsers have dropped the
 * filter it steered (the CSP is the protection), and its 33 bytes on each of
 * the first load's 35 answers counted against its budget (first_load).
 * Strict-Transport-Security is added on TLS listeners.
 */
static const struct lws_protocol_vhost_options hdr_referrer = { NULL, NULL,
								"referrer-policy:", "no-referrer" };
static const struct lws_protocol_vhost_options hdr_frame = { &hdr_referrer, NULL,
							     "x-frame-options:", "deny" };
static const struct lws_protocol_vhost_options hdr_nosniff = { &hdr_frame, NULL,
							       "x-content-type-options:", "nosniff" };
static const struct lws_protocol_vhost_options hdr_csp = {
	&hdr_nosniff, NULL, "content-security-policy:",
	"default-src 'none'; img-src 'self' data: ; script-src 'self' 'wasm-unsafe-eval'; font-src 'self'; "
	"style-src 'self'; connect-src 'self' ws: wss:; frame-ancestors 'none'; base-uri 'none';form-action "
	"'self';"
};
static const struct lws_protocol_vhost_options hdr_hsts = { &hdr_csp, NULL, "strict-transport-security:",
							    "max-age=15768000 ; includeSubDomains" };

static struct lws_http_mount mount_metrics = {
	.mountpoint = "/metrics",
	.origin_protocol = LWSMPRO_CALLBACK,
	.protocol = WIRE_PROTOCOL,
	.mountpoint_len = 8,
};
static struct lws_http_mount mount_readyz = {
	.mount_next = &mount_metrics,
	.mountpoint = "/readyz",
	.origin_protocol = LWSMPRO_CALLBACK,
	.protocol = WIRE_PROTOCOL,
	.mountpoint_len = 7,
};
static struct lws_http_mount mount_healthz = {
	.mount_next = &mount_readyz,
	.mountpoint = "/healthz",
	.origin_protocol = LWSMPRO_CALLBACK,
	.protocol = WIRE_PROTOCOL,
	.mountpoint_len = 8,
};
/* /matches and /replay/<id>: the archive's pages, redirected to the web client's routes (http.c) */
static struct lws_http_mount mount_matches = {
	.mount_next = &mount_healthz,
	.mountpoint = "/matches",
	.origin_protocol = LWSMPRO_CALLBACK,
	.protocol = WIRE_PROTOCOL,
	.mountpoint_len = 8,
};
static struct lws_http_mount mount_replay = {
	.mount_next = &mount_matches,
	.mountpoint = "/replay",
	.origin_protocol = LWSMPRO_CALLBACK,
	.protocol = WIRE_PROTOCOL,
	.mountpoint_len = 7,
};
static struct lws_http_mount mount_api = {
	.mount_next = &mount_replay,
	.mountpoint = "/api",
	.origin_protocol = LWSMPRO_CALLBACK,
	.protocol = WIRE_PROTOCOL,
	.mountpoint_len = 4,
};
/*
 * Everything else: the web client's files and the rules module
 * (/wasm/rules.wasm), from memory (webfiles.c: gzip, strong ETags, the
 * caching lws' file mount gave them); a name that is no file gets the API's
 * JSON 404. Debian's lws has no HTTP compression of its own
 * (LWS_WITH_HTTP_STREAM_COMPRESSION and LWS_WITH_ZIP_FOPS are off).
 */
static struct lws_http_mount mount_web = {
	.mount_next = &mount_api,
	.mountpoint = "/",
	.origin_protocol = LWSMPRO_CALLBACK,
	.protocol = WEB_PROTOCOL,
	.mountpoint_len = 1,
};

static void lws_log_cb(int level, const char *line)
{
	size_t n = strlen(line);

	while (n && (line[n - 1] == '\n' || line[n - 1] == '\r'))
		n--;
	static struct util_log_limit rl; /* lws may repeat an error on every loop turn */

	util_log_limited(&rl, level == LLL_ERR ? LOG_ERROR : LOG_WARN, "lws: %.*s", (int)n, line);
}

/*
 * The address to bind, as lws wants it: a numeric IPv4 or IPv6 address.
 * A literal is kept as given; a host name (localhost) is resolved to its
 * first address. *v4 tells whether IPv6 must be switched off, without which
 * lws listens on the IPv6 wildcard whatever iface says.
 */
static int bind_address(const char *host, char *out, size_t outlen, bool *v4)
{
	struct addrinfo hints, *res = NULL;
	const void *addr;
	int err;

	memset(&hints, 0, sizeof(hints));
	hints.ai_socktype = SOCK_STREAM;
	hints.ai_flags = AI_PASSIVE;
	err = getaddrinfo(host, NULL, &hints, &res);
	if (err || !res) {
		util_log(LOG_ERROR, "net: cannot resolve %s: %s", host, gai_strerror(err));
		return -EADDRNOTAVAIL;
	}
	*v4 = res->ai_family == AF_INET;
	addr = *v4 ? (const void *)&((struct sockaddr_in *)res->ai_addr)->sin_addr
		   : (const void *)&((struct sockaddr_in6 *)res->ai_addr)->sin6_addr;
	err = inet_ntop(res->ai_family, addr, out, (socklen_t)outlen) ? 0 : -errno;
	freeaddrinfo(res);
	return err;
}

#define LAG_PERIOD_MS 100

static void lag_cb(uv_timer_t *t)
{
	struct net *n = t->data;
	uint64_t now = util_mono_ns(), late = now > n->lag_due_ns ? now - n->lag_due_ns : 0;

	metrics_lag(n->metrics, late, now);
	n->lag_due_ns = now + LAG_PERIOD_MS * 1000000ull;
}

/*
 * The keep-alive sweep's tick: a tenth of a second, so each tick visits a
 * small slice (20,000 connections at the default 30 s: 133 a tick).
 */
#define KA_PERIOD_MS 100

static void ka_cb(uv_timer_t *t)
{
	struct net *n = t->data;
	uint64_t now = util_mono_ns();

	(void)sessions_ka_tick(n->sessions, now - n->ka_last_ns, 2 * KA_PERIOD_MS * 1000000ull);
	n->ka_last_ns = now;
}

static void sighup_cb(uv_signal_t *h, int signum)
{
	net_reload_tls(h->data);
	net_reload_web(h->data);
}

/* Reads the web client's files into a new set; 0 and *out, or a negative errno with the reason logged. */
static int load_web(const struct config *cfg, struct webfiles **out, const char *when)
{
	size_t files, bytes, gz;
	int err = webfiles_load(cfg->web_dir, cfg->wasm_dir, out);

	if (err)
		return err;
	webfiles_sizes(*out, &files, &bytes, &gz);
	util_log(LOG_INFO, "net: %sthe web client: %zu files, %zu bytes, %zu gzipped, from %s and %s", when,
		 files, bytes, gz, cfg->web_dir, cfg->wasm_dir);
	return 0;
}

int net_reload_web(struct net *n)
{
	struct webfiles *set;
	int err = load_web(n->cfg, &set, "SIGHUP: reloaded ");

	if (err) {
		util_log(LOG_ERROR, "net: SIGHUP: keeping the web client's files served until now");
		return err;
	}
	webfiles_unref(n->web);
	n->web = set;
	return 0;
}

/* The monitoring address (metrics_listen): everything goes to the callback, which serves two paths. */
static struct lws_http_mount mount_monitor = {
	.mountpoint = "/",
	.origin_protocol = LWSMPRO_CALLBACK,
	.protocol = WIRE_PROTOCOL,
	.mountpoint_len = 1,
};

/*
 * lws' own keep-alive off: in 4.1 it is a timer per WebSocket in one sorted
 * list, reset by each pong with a walk of the list, O(n^2) per ping round.
 * The sweep of session_keepalive.c does the same job in O(n). A policy with
 * no hang-up time is what turns it off (_lws_validity_confirmed_role() then
 * sets no timer): NULL would mean lws' default one, ping at 300 s. In 4.1 the
 * policy's other use, the back-off table, is for client connections only; the
 * HTTP timeouts (timeout_secs, keep-alive idle) do not read it.
 */
static const lws_retry_bo_t idle_policy = { .secs_since_valid_ping = 0, .secs_since_valid_hangup = 0 };

static void info_fill(struct net *n, struct lws_context_creation_info *info, void **loops, const char *iface,
		      bool v4)
{
	memset(info, 0, sizeof(*info));
	info->port = n->cfg->port;
	info->iface = iface;
	info->protocols = protocols;
	info->mounts = &mount_web;
	info->options =
		LWS_SERVER_OPTION_LIBUV | LWS_SERVER_OPTION_VALIDATE_UTF8 | LWS_SERVER_OPTION_EXPLICIT_VHOSTS;
	info->headers = n->cfg->tls_cert[0] ? &hdr_hsts : &hdr_csp; /* CSP, nosniff...: see hdr_csp */
	if (v4)
		info->options |= LWS_SERVER_OPTION_DISABLE_IPV6;
	/* an unknown method goes to not_http() instead of lws' HTML 403; not with TLS, where the same
	 * option would also take plain HTTP on the TLS port */
	if (!n->cfg->tls_cert[0])
		info->options |= LWS_SERVER_OPTION_FALLBACK_TO_APPLY_LISTEN_ACCEPT_CONFIG;
	info->foreign_loops = loops;
	info->user = n;
	info->timeout_secs = 30;
	info->ka_time = 60;
	info->ka_probes = 3;
	info->ka_interval = 10;
	info->retry_and_idle_policy = &idle_policy;
	if (n->cfg->tls_cert[0]) { /* every connection on a TLS listener is TLS: https:// and wss:// */
		info->options |= LWS_SERVER_OPTION_DO_SSL_GLOBAL_INIT;
		info->ssl_cert_filepath = n->cfg->tls_cert;
		info->ssl_private_key_filepath = n->cfg->tls_key;
		/* HTTP/1.1 only: lws would offer h2, where a WebSocket (RFC 8441) reaches the callbacks
		 * with other headers (:path, not the GET URI) than the ones the filters read */
		info->alpn = "http/1.1";
	}
}

/* Creates one listening vhost for `a`; NULL with the reason logged. */
static struct lws_vhost *listen_on(struct net *n, struct lws_context_creation_info *info,
				   const struct conf_addr *a, const char *name, bool monitor, int *port)
{
	char iface[INET6_ADDRSTRLEN];
	struct lws_vhost *vh;
	bool v4 = false;

	if (bind_address(a->host, iface, sizeof(iface), &v4))
		return NULL;
	info->iface = iface;
	info->port = a->port;
	info->vhost_name = name;
	info->options &= ~LWS_SERVER_OPTION_DISABLE_IPV6;
	if (v4)
		info->options |= LWS_SERVER_OPTION_DISABLE_IPV6;
	vh = lws_create_vhost(n->lws, info);
	*port = vh ? lws_get_vhost_listen_port(vh) : -1;
	if (*port <= 0) {
		util_log(LOG_ERROR,
			 "net: cannot listen on %s port %d (taken, or not an address of this machine)%s",
			 iface, a->port, monitor ? " for metrics_listen" : "");
		return NULL;
	}
	return vh;
}

struct net *net_new(const struct config *cfg, struct lobby *lobby, struct metrics *metrics)
{
	struct net *n = calloc(1, sizeof(*n));

	if (!n)
		return NULL;
	n->cfg = cfg;
	n->metrics = metrics;
	n->sessions = &n->own.sessions;
	n->handlers = &n->own.handlers;
	n->http = &n->own.http;
	sessions_init(n->sessions, cfg, metrics);
	*n->handlers =
		(struct handlers){ .lobby = lobby, .metrics = metrics, .cfg = cfg, .sessions = n->sessions };
	lobby_set_rated_hook(lobby, handlers_rated_push, n->handlers);
	/* sessions another node ended: their connections here are signed out at once */
	cluster_on_sessions_ended(lobby_cluster(lobby), handlers_sessions_ended_cb, n->handlers);
	*n->http = (struct http){ .lobby = lobby,
				  .metrics = metrics,
				  .sessions = n->sessions,
				  .hellos = &n->handlers->hellos,
				  .started_ms = util_now_ms() };
	hangups_init(&n->handlers->hup);
	tally_init(&n->handlers->hellos_by_addr);
	http_init(n->http, cfg);
	tally_init(&n->addrs);
	hmap_init(&n->conn_addrs);
	return n;
}

void net_set_store(struct net *n, struct store *store)
{
	n->handlers->store = n->http->store = store;
}

void net_set_pwhash(struct net *n, struct pwhash *ph)
{
	n->handlers->pwhash = n->http->pwhash = ph;
}

int net_start(struct net *n, uv_loop_t *loop)
{
	static char names[CONF_MAX_LISTEN][24];
	const struct config *cfg = n->cfg;
	struct lws_context_creation_info info;
	void *foreign_loops[1] = { loop };
	int i, err;

	n->loop = loop;
	err = http_start(n->http, loop);
	if (err) {
		util_log(LOG_ERROR, "server: cannot watch HTTP connections for hang-ups: %s",
			 uv_strerror(err));
		return err;
	}
	err = handlers_hello_start(n->handlers, loop);
	if (err) {
		util_log(LOG_ERROR, "server: cannot watch WebSockets for hang-ups: %s", uv_strerror(err));
		return err;
	}
	err = load_web(cfg, &n->web, "");
	if (err)
		return err;
	n->max_conns = conn_cap(cfg);
	util_log(LOG_INFO, "net: at most %d connections at once", n->max_conns);
	lws_set_log_level(LLL_ERR | (cfg->log_level >= LOG_DEBUG ? LLL_WARN : 0), lws_log_cb);
	info_fill(n, &info, foreign_loops, NULL, false);
	n->lws = lws_create_context(&info);
	if (!n->lws) {
		util_log(LOG_ERROR, "net: cannot start libwebsockets");
		return -ENOMEM;
	}
	for (i = 0; i < cfg->n_listen; i++) {
		snprintf(names[i], sizeof(names[i]), "listen%d", i);
		n->vhosts[i] = listen_on(n, &info, &cfg->listen[i], names[i], false, &n->ports[i]);
		if (!n->vhosts[i])
			return -EADDRINUSE;
		n->n_vhosts++;
	}
	n->port = n->ports[0];
	if (cfg->tls_cert[0] && n->n_ssl_ctx != n->n_vhosts)
		util_log(LOG_WARN,
			 "net: TLS contexts seen for %d of %d listeners: SIGHUP cannot reload the others",
			 n->n_ssl_ctx, n->n_vhosts);
	if (cfg->metrics_listen.host[0]) {
		info.mounts = &mount_monitor;
		info.ssl_cert_filepath = info.ssl_private_key_filepath =
			NULL; /* plain HTTP: a local scraper */
		n->metrics_vh = listen_on(n, &info, &cfg->metrics_listen, "metrics", true, &n->metrics_port);
		if (!n->metrics_vh)
			return -EADDRINUSE;
	}
	if (!uv_timer_init(loop, &n->lag_timer)) {
		n->lag_timer.data = n;
		n->lag_due_ns = util_mono_ns() + LAG_PERIOD_MS * 1000000ull;
		uv_timer_start(&n->lag_timer, lag_cb, LAG_PERIOD_MS, LAG_PERIOD_MS);
		uv_unref((uv_handle_t *)&n->lag_timer);
		n->lag_on = true;
	}
	err = uv_timer_init(loop, &n->ka_timer);
	if (err) {
		util_log(LOG_ERROR, "net: cannot start the keep-alive timer: %s", uv_strerror(err));
		return err;
	}
	n->ka_timer.data = n;
	n->ka_last_ns = util_mono_ns();
	uv_timer_start(&n->ka_timer, ka_cb, KA_PERIOD_MS, KA_PERIOD_MS);
	uv_unref((uv_handle_t *)&n->ka_timer);
	n->ka_on = true;
	err = handlers_check_start(n->handlers, loop); /* sessions ended elsewhere (docs/ACCOUNTS.md) */
	if (err) {
		util_log(LOG_ERROR, "net: cannot start the sessions' check: %s", uv_strerror(err));
		return err;
	}
	if (!uv_signal_init(loop, &n->sighup)) { /* always: SIGHUP's default action would end the server */
		n->sighup.data = n;
		uv_signal_start(&n->sighup, sighup_cb, SIGHUP);
		uv_unref((uv_handle_t *)&n->sighup);
		n->sighup_on = true;
	}
	return 0;
}

void net_print_listening(const struct net *n)
{
	const char *scheme = n->cfg->tls_cert[0] ? "https" : "http";
	int i;

	for (i = 0; i < n->n_vhosts; i++) {
		const char *host = n->cfg->listen[i].host;
		bool v6 = strchr(host, ':') != NULL;

		printf("listening on %s://%s%s%s:%d\n", scheme, v6 ? "[" : "", host, v6 ? "]" : "",
		       n->ports[i]);
	}
	if (n->metrics_vh)
		printf("metrics on http://%s%s%s:%d/metrics\n",
		       strchr(n->cfg->metrics_listen.host, ':') ? "[" : "", n->cfg->metrics_listen.host,
		       strchr(n->cfg->metrics_listen.host, ':') ? "]" : "", n->metrics_port);
	fflush(stdout);
}

/* Loads the pair into ctx; 0 or NET_E_TLS_RELOAD. */
static int load_pair(SSL_CTX *ctx, const char *cert, const char *key)
{
	return SSL_CTX_use_certificate_chain_file(ctx, cert) == 1 &&
			       SSL_CTX_use_PrivateKey_file(ctx, key, SSL_FILETYPE_PEM) == 1 &&
			       SSL_CTX_check_private_key(ctx) == 1
		       ? 0
		       : NET_E_TLS_RELOAD;
}

int net_reload_tls(struct net *n)
{
	SSL_CTX *probe;
	char why[256] = "";
	int i, err = 0;

	if (!n->cfg->tls_cert[0]) {
		util_log(LOG_INFO, "net: SIGHUP: no TLS certificate to reload");
		return 0;
	}
	if (!n->n_ssl_ctx)
		return NET_E_TLS_RELOAD;
	/* the pair is tried on a scratch context first: a bad pair must leave the served one alone */
	probe = SSL_CTX_new(TLS_server_method());
	if (!probe || load_pair(probe, n->cfg->tls_cert, n->cfg->tls_key)) {
		ERR_error_string_n(ERR_get_error(), why, sizeof(why));
		util_log(LOG_ERROR, "net: SIGHUP: cannot load %s and %s, keeping the current certificate: %s",
			 n->cfg->tls_cert, n->cfg->tls_key, why);
		SSL_CTX_free(probe);
		ERR_clear_error();
		n->metrics->tls_reload_failed++;
		return NET_E_TLS_RELOAD;
	}
	SSL_CTX_free(probe);
	for (i = 0; i < n->n_ssl_ctx; i++)
		if (load_pair(n->ssl_ctx[i], n->cfg->tls_cert, n->cfg->tls_key))
			err = NET_E_TLS_RELOAD;
	ERR_clear_error();
	if (err) {
		n->metrics->tls_reload_failed++;
		util_log(LOG_ERROR, "net: SIGHUP: the certificate could not be loaded into every listener");
		return NET_E_TLS_RELOAD;
	}
	n->metrics->tls_reloads++;
	util_log(LOG_INFO, "net: SIGHUP: reloaded the certificate %s", n->cfg->tls_cert);
	return 0;
}

/* Runs `reason` with `arg` for every WebSocket of every listener. */
static void each_ws(struct net *n, int reason, void *arg)
{
	int i;

	if (!n->lws)
		return;
	for (i = 0; i < n->n_vhosts;
	     i++) /* each vhost's own copy of the protocol: the one its connections use */
		(void)lws_callback_all_protocol_vhost_args(
			n->vhosts[i], lws_vhost_name_to_protocol(n->vhosts[i], WIRE_PROTOCOL),
			(enum lws_callback_reasons)reason, arg, 0); /* 0 always */
}

void net_drain(struct net *n)
{
	if (n->draining)
		return;
	n->draining = n->http->stopping = true;
	each_ws(n, LWS_CALLBACK_USER, NULL);
}

void net_notice(struct net *n, int err, const char *message)
{
	struct notice no = { err, message };

	each_ws(n, NET_CALLBACK_NOTICE, &no);
}

void net_drop_held(struct net *n)
{
	each_ws(n, NET_CALLBACK_DROP_HELD, NULL);
}

void net_stop(struct net *n)
{
	struct addr_count *a;
	size_t pos = 0;

	if (!n)
		return;
	n->sessions->stopping = true; /* nothing is written while lws tears connections down */
	if (n->lag_on) {
		uv_close((uv_handle_t *)&n->lag_timer, NULL);
		n->lag_on = false;
	}
	if (n->ka_on) {
		uv_close((uv_handle_t *)&n->ka_timer, NULL);
		n->ka_on = false;
	}
	handlers_check_stop(n->handlers);
	if (n->sighup_on) {
		uv_close((uv_handle_t *)&n->sighup, NULL);
		n->sighup_on = false;
	}
	if (n->lws) {
		lws_context_destroy(n->lws);
		n->stopped = true; /* with a foreign loop, some connections are destroyed later */
		n->lws = NULL;
	}
	tally_finish(&n->addrs);
	while ((a = hmap_next(&n->conn_addrs, &pos)))
		free(a);
	hmap_finish(&n->conn_addrs);
	http_stop(n->http);
	handlers_hello_stop(n->handlers);
}

void net_free(struct net *n)
{
	if (!n)
		return;
	sessions_reap(n->sessions);
	handlers_check_finish(n->handlers);
	http_finish(n->http);
	tally_finish(&n->handlers->hellos_by_addr);
	webfiles_unref(n->web);
	free(n);
}

void net_turn_end(struct net *n, uint64_t flushed, uint64_t needed)
{
	if (n)
		sessions_turn_end(n->sessions, flushed, needed);
}

void net_committed(struct net *n, uint64_t batch, int err)
{
	sessions_committed(n->sessions, batch, err);
	if (!err)
		http_committed(n->http);
}

void net_reap(struct net *n)
{
	sessions_reap(n->sessions);
}

long net_connections(const struct net *n)
{
	return n->sessions->count;
}

const char *net_strerror(int code)
{
	switch (code) {
	case NET_E_TLS_RELOAD:
		return "the TLS certificate and key did not load";
	case NET_E_CLOSE:
		return "the connection must close";
	default:
		return "unknown net error";
	}
}
