/*
 * session.c: one WebSocket connection: its bounded write queue of shared
 * frames, the gate that holds them until the journal has what they show
 * (see session_int.h), the rate limit and the close handshake. Released frames
 * are written at once when the socket takes them (write_ready() says why).
 *
 * Invariants: qready <= qlen; the released frames are the oldest; a session
 * is in ss->waiting when it holds frames (qready < qlen) past a turn's end,
 * and in ss->turn when it was sent frames this turn; frames of one connection leave in the order they were
 * queued.
 */
#include "net/net_int.h"

#include <assert.h>
#include <errno.h>
#include <libwebsockets.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "wire.h"

void sessions_init(struct sessions *ss, const struct config *cfg, struct metrics *metrics)
{
	memset(ss, 0, sizeof(*ss));
	ss->cfg = cfg;
	ss->metrics = metrics;
}

static void want_write(struct session *s)
{
	if (s->wsi)
		lws_callback_on_writable(s->wsi);
}

static int write_ready(struct session *s, bool writable);

static void wait_link(struct session *s, bool on)
{
	struct sessions *ss = s->ss;

	if (on == s->waiting)
		return;
	s->waiting = on;
	if (on) {
		s->wait_prev = NULL;
		s->wait_next = ss->waiting;
		if (ss->waiting)
			ss->waiting->wait_prev = s;
		ss->waiting = s;
		return;
	}
	if (s->wait_prev)
		s->wait_prev->wait_next = s->wait_next;
	else
		ss->waiting = s->wait_next;
	if (s->wait_next)
		s->wait_next->wait_prev = s->wait_prev;
}

static struct session_frame *frame_at(struct session *s, unsigned i)
{
	return &s->q[(s->qhead + i) % s->qcap];
}

/* Releases the held frames whose batch has committed; keeps the waiting list right. */
static void release(struct session *s)
{
	unsigned before = s->qready;

	while (s->qready < s->qlen && frame_at(s, s->qready)->batch <= s->ss->committed)
		s->qready++;
	if (s->reply_ns && s->reply_pos >= s->qgone + before && s->reply_pos < s->qgone + s->qready)
		metrics_observe(&s->ss->metrics->reply_released, util_mono_ns() - s->reply_ns);
	wait_link(s, s->qready < s->qlen);
	if (before || !s->qready || !s->wsi)
		return;
	/* a write error closes the connection through lws, as one in the callback would */
	if (write_ready(s, false) < 0)
		lws_set_timeout(s->wsi, PENDING_TIMEOUT_KILLED_BY_PARENT, LWS_TO_KILL_ASYNC);
	else if (s->qready || (s->close_state && !s->qlen))
		want_write(s);
}

void sessions_turn_end(struct sessions *ss, uint64_t flushed, uint64_t needed)
{
	uint64_t gate = needed; /* this turn's batch, or the last one before it */
	struct session *s, *next;
	unsigned i;

	if (flushed) {
		assert(flushed > ss->flushed);
		ss->flushed = flushed;
		ss->flush_ns[flushed % SESSIONS_BATCH_RING] = util_mono_ns();
	}
	assert(gate >= ss->flushed && gate <= ss->flushed + 1); /* at most the open batch */
	for (s = ss->turn; s; s = next) {
		next = s->turn_next;
		s->in_turn = false;
		s->turn_next = NULL;
		for (i = s->qready; i < s->qlen; i++)
			if (frame_at(s, i)->batch == SESSION_THIS_TURN)
				frame_at(s, i)->batch = gate;
		release(s);
	}
	ss->turn = NULL;
}

void sessions_committed(struct sessions *ss, uint64_t batch, int err)
{
	struct session *s, *next;

	if (err || batch <= ss->committed)
		return; /* a failed batch is retried by the store; its frames stay held */
	assert(batch <= ss->flushed);
	metrics_observe(&ss->metrics->commit, util_mono_ns() - ss->flush_ns[batch % SESSIONS_BATCH_RING]);
	ss->committed = batch;
	for (s = ss->waiting; s; s = next) {
		next = s->wait_next;
		release(s);
	}
}

long sessions_held(const struct sessions *ss)
{
	const struct session *s;
	long n = 0;

	for (s = ss->waiting; s; s = s->wait_next)
		n += s->qlen - s->qready;
	return n;
}

void sessions_reap(struct sessions *ss)
{
	while (ss->dead) {
		struct session *s = ss->dead;

		ss->dead = s->reap_next;
		while (s->qlen) {
			buf_unref(s->q[s->qhead].b);
			s->qhead = (s->qhead + 1) % s->qcap;
			s->qlen--;
		}
		free(s->q);
		free(s->rx);
		free(s);
	}
}

struct session *session_new(struct sessions *ss, struct lws *wsi)
{
	struct session *s = calloc(1, sizeof(*s));

	if (!s)
		return NULL;
	s->ss = ss;
	s->wsi = wsi;
	s->id = ++ss->next_id;
	s->tokens = ss->cfg->rate_burst;
	s->refill_ns = util_mono_ns();
	lws_get_peer_simple(wsi, s->addr, sizeof(s->addr));
	session_ka_link(s);
	ss->count++;
	ss->metrics->ws_opened++;
	return s;
}

static void turn_unlink(struct session *s)
{
	struct session **pp;

	if (!s->in_turn)
		return;
	for (pp = &s->ss->turn; *pp; pp = &(*pp)->turn_next)
		if (*pp == s) {
			*pp = s->turn_next;
			break;
		}
	s->in_turn = false;
}

void session_closed(struct session *s)
{
	struct sessions *ss = s->ss;

	assert(!s->members && !s->lobby_sub.on && !s->player); /* the handlers detached it */
	s->wsi = NULL;
	turn_unlink(s);
	wait_link(s, false);
	session_ka_unlink(s);
	ss->count--;
	ss->metrics->ws_closed++;
	s->dead = true;
	s->reap_next = ss->dead;
	ss->dead = s;
}

static void queue_clear(struct session *s)
{
	while (s->qlen) {
		buf_unref(s->q[s->qhead].b);
		s->qhead = (s->qhead + 1) % s->qcap;
		s->qlen--;
		s->qgone++;
	}
	s->reply_ns = 0;
	s->qready = 0;
	s->qbytes = 0;
	wait_link(s, false);
}

void session_close(struct session *s, int code, const char *reason)
{
	if (s->dead || s->close_state)
		return;
	s->close_state = SESSION_CLOSE_REQUESTED;
	s->close_code = code;
	s->close_reason = reason;
	if (s->qready == s->qlen)
		want_write(s); /* else the last released frame asks */
}

static int queue_grow(struct session *s)
{
	unsigned cap = s->qcap ? s->qcap * 2 : 8, i;
	struct session_frame *q = malloc(cap * sizeof(*q));

	if (!q)
		return -ENOMEM;
	for (i = 0; i < s->qlen; i++)
		q[i] = *frame_at(s, i);
	free(s->q);
	s->q = q;
	s->qcap = cap;
	s->qhead = 0;
	return 0;
}

/* Queues `b` waiting for journal batch `batch` (SESSION_THIS_TURN: the turn's, known at its end). */
static void enqueue(struct session *s, struct buf *b, uint64_t batch)
{
	struct sessions *ss = s->ss;

	if (s->dead || s->close_state || !b || ss->stopping)
		return;
	/* One frame into an empty queue is never "too slow", however large (a long room list). */
	if (s->qlen &&
	    (s->qlen >= ss->cfg->max_queue_msgs || s->qbytes + b->len > ss->cfg->max_queue_bytes)) {
		static struct util_log_limit rl;

		util_log_limited(&rl, LOG_WARN,
				 "session %llu (%s): write queue full, dropping the connection",
				 (unsigned long long)s->id, s->addr);
		ss->metrics->slow_dropped++;
		queue_clear(s);
		session_close(s, LWS_CLOSE_STATUS_POLICY_VIOLATION, "too slow: write queue full");
		return;
	}
	if (s->qlen == s->qcap && queue_grow(s)) {
		session_close(s, LWS_CLOSE_STATUS_UNEXPECTED_CONDITION, "out of memory");
		return;
	}
	*frame_at(s, s->qlen) = (struct session_frame){ buf_ref(b), batch };
	if (s->rx_ns && !s->reply_ns) { /* the reply to the message being handled: followed */
		s->reply_ns = s->rx_ns;
		s->reply_pos = s->qgone + s->qlen;
	}
	s->rx_ns = 0; /* its first frame only */
	s->qlen++;
	s->qbytes += b->len;
	ss->metrics->messages_out++;
	if (!s->in_turn) { /* tagged with its batch when the turn ends */
		s->in_turn = true;
		s->turn_next = ss->turn;
		ss->turn = s;
	}
}

void session_send(struct session *s, struct buf *b)
{
	enqueue(s, b, SESSION_THIS_TURN);
}

void net_send_cb(void *who, struct buf *frame)
{
	session_send(who, frame);
}

void session_send_json(struct session *s, json_t *j)
{
	struct buf *b;

	if (!j)
		return;
	b = buf_from_json(j);
	json_decref(j);
	session_send(s, b);
	buf_unref(b);
}

void session_send_error(struct session *s, int err, const char *message, const json_t *id)
{
	if (wire_error_index(err) >= 0)
		s->ss->metrics->errors[wire_error_index(err)]++;
	session_send_json(s, wire_error_new(err, message, id));
}

void session_send_refusal(struct session *s, int err, const char *message, const json_t *id)
{
	json_t *j = wire_error_new(err, message, id);
	struct buf *b = j ? buf_from_json(j) : NULL;

	json_decref(j);
	if (wire_error_index(err) >= 0)
		s->ss->metrics->errors[wire_error_index(err)]++;
	if (b)
		enqueue(s, b, 0); /* batch 0 has always committed: only the order holds it */
	buf_unref(b);
}

void session_drop_held(struct session *s)
{
	if (s->reply_ns && s->reply_pos >= s->qgone + s->qready)
		s->reply_ns = 0; /* the reply followed goes with them */
	while (s->qlen > s->qready) {
		struct session_frame *f = frame_at(s, s->qlen - 1);

		s->qbytes -= f->b->len;
		buf_unref(f->b);
		s->qlen--;
	}
	wait_link(s, false);
	if (s->close_state && !s->qlen)
		want_write(s);
}

void session_send_notice(struct session *s, int err, const char *message)
{
	struct sessions *ss = s->ss;
	json_t *j;
	struct buf *b;
	unsigned i;

	if (s->dead || s->close_state || ss->stopping || s->qlen >= ss->cfg->max_queue_msgs)
		return; /* a queue that full gets no notice: the connection is about to be dropped anyway */
	if (s->qlen == s->qcap && queue_grow(s))
		return;
	j = wire_error_new(err, message, NULL);
	b = j ? buf_from_json(j) : NULL;
	json_decref(j);
	if (!b)
		return;
	for (i = s->qlen; i > s->qready; i--) /* the held frames move back one place */
		*frame_at(s, i) = *frame_at(s, i - 1);
	if (s->reply_ns && s->reply_pos >= s->qgone + s->qready)
		s->reply_pos++; /* and so does the reply followed, if it is one of them */
	*frame_at(s, s->qready) = (struct session_frame){ b, 0 }; /* takes our reference */
	s->qlen++;
	s->qready++;
	s->qbytes += b->len;
	ss->metrics->messages_out++;
	if (wire_error_index(err) >= 0)
		ss->metrics->errors[wire_error_index(err)]++;
	want_write(s);
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
	unsigned char buf[LWS_PRE + 2 + SESSION_CLOSE_REASON_MAX], *p = buf + LWS_PRE;
	size_t n = s->close_reason ? strnlen(s->close_reason, SESSION_CLOSE_REASON_MAX) : 0;

	p[0] = (unsigned char)(s->close_code >> 8);
	p[1] = (unsigned char)(s->close_code & 0xff);
	if (n)
		memcpy(p + 2, s->close_reason, n);
	if (lws_write(s->wsi, p, 2 + n, WRITE_CLOSE) < 0)
		return NET_E_CLOSE;
	s->close_state = SESSION_CLOSE_SENT;
	lws_set_timeout(s->wsi, PENDING_TIMEOUT_CLOSE_ACK, 5);
	return 0;
}

/*
 * Writes the released frames, oldest first, while the socket takes them
 * without blocking, at most SESSION_WRITE_BURST of them (one connection must
 * not hold the loop). `writable`: lws said so (a WRITEABLE callback), so the
 * first frame needs no check. Returns how many went out, or NET_E_CLOSE when
 * lws failed to write (the connection is lost).
 *
 * Why not one frame per WRITEABLE callback: lws turns POLLOUT off before each
 * callback and on again when asked, and libuv makes each change two
 * epoll_ctl calls (a DEL and an ADD), 4 per frame, the bulk of the write
 * path's cost: a frame released into an empty, writable socket is written at
 * once instead, and a callback drains what the socket takes. lws keeps the
 * rest of a partial write itself and finishes it before our next callback.
 * Whether the socket takes more is lws_partial_buffered() (a flag: the last
 * write left bytes in lws' buffer), not lws_send_pipe_choked(), which asks
 * the kernel with a poll() per frame: a frame written into a socket that is
 * full at that moment is simply kept by lws as the rest of a partial write.
 */
static int write_ready(struct session *s, bool writable)
{
	int n;

	for (n = 0; s->qready && n < SESSION_WRITE_BURST; n++) {
		struct buf *b = s->q[s->qhead].b;

		if ((n || !writable) && lws_partial_buffered(s->wsi))
			break;
		if (lws_write(s->wsi, b->data, b->len, LWS_WRITE_TEXT) < (int)b->len)
			return NET_E_CLOSE;
		if (s->reply_ns && s->reply_pos == s->qgone) {
			metrics_observe(&s->ss->metrics->reply_write, util_mono_ns() - s->reply_ns);
			s->reply_ns = 0;
		}
		s->qgone++;
		s->ss->metrics->bytes_out += b->len;
		s->qhead = (s->qhead + 1) % s->qcap;
		s->qlen--;
		s->qready--;
		s->qbytes -= b->len;
		buf_unref(b);
	}
	return n;
}

int session_writeable(struct session *s)
{
	if (s->close_state == SESSION_CLOSE_SENT)
		return 0; /* waiting for the peer's close; lws' timeout ends it otherwise */
	if (s->close_state && !s->qlen)
		return send_close(s);
	if (!s->qready)
		return 0; /* what is queued is held for the journal */
	if (write_ready(s, true) < 0)
		return NET_E_CLOSE;
	if (s->qready || (s->close_state && !s->qlen))
		lws_callback_on_writable(s->wsi);
	return 0;
}

/* --- rate limit ---------------------------------------------------------- */

bool session_rate_take(struct session *s)
{
	const struct config *c = s->ss->cfg;
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

bool session_chat_take(struct session *s)
{
	const struct config *c = s->ss->cfg;
	uint64_t now = util_mono_ns();

	if (!s->chat_refill_ns)
		s->chat_tokens = c->chat_burst; /* a new connection starts with a full bucket */
	else
		s->chat_tokens += (double)(now - s->chat_refill_ns) / 60e9 * c->chat_per_min;
	if (s->chat_tokens > c->chat_burst)
		s->chat_tokens = c->chat_burst;
	s->chat_refill_ns = now;
	if (s->chat_tokens < 1)
		return false;
	s->chat_tokens -= 1;
	return true;
}

void session_rate_refund(struct session *s)
{
	s->tokens += 1;
}

void session_rate_refuse(struct session *s, const json_t *id)
{
	s->ss->metrics->rate_limited++;
	session_send_error(s, WIRE_E_RATE_LIMITED, "too many messages: slow down", id);
	if (++s->strikes >= s->ss->cfg->rate_strikes)
		session_close(s, LWS_CLOSE_STATUS_POLICY_VIOLATION, "rate limit exceeded");
}
