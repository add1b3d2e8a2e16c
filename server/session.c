/*
 * session.c: one WebSocket connection: its bounded write queue of shared
 * frames, the rate limit, and the dispatch of decoded client messages to
 * small handlers (a table by message type). A handler either replies
 * directly or leaves the reply to the room's broadcast. Client input never
 * aborts anything: every refusal is an `error` frame with the protocol's code
 * and leaves all state as it was.
 */
#include <errno.h>
#include <libwebsockets.h>
#include <stdlib.h>
#include <string.h>

#include "server.h"
#include "store.h"

struct session *session_new(struct server *srv, struct lws *wsi)
{
	struct session *s = calloc(1, sizeof(*s));

	if (!s)
		return NULL;
	s->srv = srv;
	s->wsi = wsi;
	s->id = ++srv->next_session_id;
	s->tokens = srv->cfg.rate_burst;
	s->refill_ns = util_mono_ns();
	lws_get_peer_simple(wsi, s->addr, sizeof(s->addr));
	srv->nsessions++;
	srv->metrics.ws_opened++;
	return s;
}

/* lws has closed the connection: detach from everything, reap later. */
void session_closed(struct session *s)
{
	struct server *srv = s->srv;
	struct player *p = s->player;

	s->wsi = NULL;
	lobby_unsubscribe(srv, s);
	while (s->members)
		room_member_del(s->members->r, s);
	if (p) {
		struct session **pp;
		int i;

		for (pp = &p->sessions; *pp; pp = &(*pp)->player_next)
			if (*pp == s) {
				*pp = s->player_next;
				break;
			}
		if (--p->nsessions == 0 && !srv->stopping)
			for (i = 0; i < p->nrooms; i++)
				room_connected_changed(p->rooms[i]);
		s->player = NULL;
	}
	srv->nsessions--;
	srv->metrics.ws_closed++;
	s->dead = true;
	s->reap_next = srv->dead_sessions;
	srv->dead_sessions = s;
}

void session_free(struct session *s)
{
	if (!s)
		return;
	while (s->qlen) {
		buf_unref(s->q[s->qhead]);
		s->qhead = (s->qhead + 1) % s->qcap;
		s->qlen--;
	}
	free(s->q);
	free(s->rx);
	free(s);
}

static void queue_clear(struct session *s)
{
	while (s->qlen) {
		buf_unref(s->q[s->qhead]);
		s->qhead = (s->qhead + 1) % s->qcap;
		s->qlen--;
	}
	s->qbytes = 0;
}

void session_close(struct session *s, int code, const char *reason)
{
	if (s->dead || s->close_state)
		return;
	s->close_state = SESSION_CLOSE_REQUESTED;
	s->close_code = code;
	snprintf(s->close_reason, sizeof(s->close_reason), "%s", reason);
	net_want_write(s);
}

static int queue_grow(struct session *s)
{
	unsigned cap = s->qcap ? s->qcap * 2 : 8, i;
	struct buf **q = malloc(cap * sizeof(*q));

	if (!q)
		return -ENOMEM;
	for (i = 0; i < s->qlen; i++)
		q[i] = s->q[(s->qhead + i) % s->qcap];
	free(s->q);
	s->q = q;
	s->qcap = cap;
	s->qhead = 0;
	return 0;
}

/* Queues a reference to `b`; a session that cannot keep up is dropped. */
void session_send(struct session *s, struct buf *b)
{
	struct server *srv = s->srv;

	if (s->dead || s->close_state || !b || srv->stopping)
		return; /* nothing is written while lws tears connections down */
	if (s->qlen >= srv->cfg.max_queue_msgs || s->qbytes + b->len > srv->cfg.max_queue_bytes) {
		util_log(LOG_WARN, "session %llu (%s): write queue full, dropping the connection",
			 (unsigned long long)s->id, s->addr);
		srv->metrics.slow_dropped++;
		queue_clear(s);
		session_close(s, LWS_CLOSE_STATUS_POLICY_VIOLATION, "too slow: write queue full");
		return;
	}
	if (s->qlen == s->qcap && queue_grow(s)) {
		session_close(s, LWS_CLOSE_STATUS_UNEXPECTED_CONDITION, "out of memory");
		return;
	}
	s->q[(s->qhead + s->qlen) % s->qcap] = buf_ref(b);
	s->qlen++;
	s->qbytes += b->len;
	srv->metrics.messages_out++;
	if (s->qlen == 1)
		net_want_write(s);
}

void session_send_json(struct session *s, json_t *j)
{
	struct buf *b;

	if (!j)
		return;
	b = buf_from_json(j);
	json_decref(j);
	if (b)
		session_send(s, b);
	buf_unref(b);
}

void session_send_error(struct session *s, int err, const char *message, const json_t *id)
{
	if (err > 0 && err < WIRE_E_COUNT_)
		s->srv->metrics.errors[err]++;
	session_send_json(s, wire_error_new(err, message, id));
}

/* lws 4.1 reserves 4 for a close frame ("LWS_WRITE_CLOSE is handled by
 * lws_close_reason()") and still writes it as one. */
#define WRITE_CLOSE ((enum lws_write_protocol)4)

/*
 * Sends our close frame with its status code. lws 4.1 drops the code set by
 * lws_close_reason() when the close starts from a WRITEABLE callback (the
 * peer sees 1006), so the frame is written here and lws finishes the close
 * handshake when the peer answers, or kills the connection after 5 s.
 */
static int send_close(struct session *s)
{
	unsigned char buf[LWS_PRE + 2 + sizeof(s->close_reason)], *p = buf + LWS_PRE;
	size_t n = strlen(s->close_reason);

	p[0] = (unsigned char)(s->close_code >> 8);
	p[1] = (unsigned char)(s->close_code & 0xff);
	memcpy(p + 2, s->close_reason, n);
	if (lws_write(s->wsi, p, 2 + n, WRITE_CLOSE) < 0)
		return -1;
	s->close_state = SESSION_CLOSE_SENT;
	lws_set_timeout(s->wsi, PENDING_TIMEOUT_CLOSE_ACK, 5);
	return 0;
}

/* One frame per WRITEABLE callback (lws rule); -1 closes the connection. */
int session_writeable(struct session *s)
{
	struct buf *b;

	if (s->close_state == SESSION_CLOSE_SENT)
		return 0; /* waiting for the peer's close; lws' timeout ends it otherwise */
	if (s->close_state && !s->qlen)
		return send_close(s);
	if (!s->qlen)
		return 0;
	b = s->q[s->qhead];
	if (lws_write(s->wsi, b->data, b->len, LWS_WRITE_TEXT) < (int)b->len)
		return -1;
	s->srv->metrics.bytes_out += b->len;
	s->qhead = (s->qhead + 1) % s->qcap;
	s->qlen--;
	s->qbytes -= b->len;
	buf_unref(b);
	if (s->qlen || s->close_state)
		lws_callback_on_writable(s->wsi);
	return 0;
}

/* --- rate limit ---------------------------------------------------------- */

static bool rate_take(struct session *s)
{
	const struct config *c = &s->srv->cfg;
	uint64_t now = util_mono_ns();

	s->tokens += (double)(now - s->refill_ns) / 1e9 * c->rate_per_s;
	if (s->tokens > c->rate_burst)
		s->tokens = c->rate_burst;
	s->refill_ns = now;
	if (s->tokens >= 1) {
		s->tokens -= 1;
		s->strikes = 0;
		return true;
	}
	return false;
}

void session_rate_refuse(struct session *s, const json_t *id)
{
	s->srv->metrics.rate_limited++;
	session_send_error(s, WIRE_E_RATE_LIMITED, "too many messages: slow down", id);
	if (++s->strikes >= s->srv->cfg.rate_strikes)
		session_close(s, LWS_CLOSE_STATUS_POLICY_VIOLATION, "rate limit exceeded");
}

void session_receive(struct session *s, const char *data, size_t len)
{
	struct wire_msg m;
	char why[160] = "";
	int r;
	bool allowed;

	if (s->dead || s->close_state)
		return;
	s->srv->metrics.messages_in++;
	allowed = rate_take(s);
	r = wire_msg_decode(data, len, &m, why, sizeof(why));
	if (r) {
		if (allowed)
			session_send_error(s, r, why, m.id);
		else
			session_rate_refuse(s, m.id);
		wire_msg_finish(&m);
		return;
	}
	if (!allowed && m.type != WIRE_ACT) {
		session_rate_refuse(s, m.id);
		wire_msg_finish(&m);
		return;
	}
	session_dispatch(s, &m, allowed);
	wire_msg_finish(&m);
}
