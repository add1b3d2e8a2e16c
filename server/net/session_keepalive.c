/*
 * session_keepalive.c: the WebSocket keep-alive as one sweep on the loop
 * (see session_int.h).
 *
 * Why not lws' own: lws 4.1 keeps a timer per connection in one sorted list
 * and every pong resets it, walking the list (lws_dll2_add_sorted): a ping
 * round over n idle connections costs O(n^2), whole seconds of a core at
 * 10,000. Here every open session sits on one ring and a cursor walks it, a
 * slice per tick, so a round costs O(n), spread evenly over the interval.
 *
 * A visit: a session that heard something since the last visit is fine (its
 * count of silent visits goes back to 0). Otherwise the count grows; at
 * SESSION_KA_VISITS silent visits (nothing for a whole interval, between one
 * and one and a half of them) it is pinged; at twice that (the ping had at
 * least an interval to be answered: silent for two to two and a half
 * intervals) the connection is dropped without a close frame, as lws' own
 * keep-alive did: a peer that answers no ping is presumed gone, and a close
 * handshake would only wait for it.
 *
 * New sessions join the ring just behind the cursor, so they are visited
 * last in the round under way; a session leaving moves the cursor on if it
 * was the next one.
 */
#include "net/net_int.h"

#include <libwebsockets.h>

void session_ka_link(struct session *s)
{
	struct sessions *ss = s->ss;
	struct session *next = ss->ka_cursor;

	s->ka_heard = true; /* the upgrade itself */
	if (!next) {
		s->ka_prev = s->ka_next = s;
		ss->ka_cursor = s;
		return;
	}
	s->ka_next = next;
	s->ka_prev = next->ka_prev;
	next->ka_prev->ka_next = s;
	next->ka_prev = s;
}

void session_ka_unlink(struct session *s)
{
	struct sessions *ss = s->ss;

	if (!s->ka_next)
		return;
	if (ss->ka_cursor == s)
		ss->ka_cursor = s->ka_next == s ? NULL : s->ka_next;
	s->ka_prev->ka_next = s->ka_next;
	s->ka_next->ka_prev = s->ka_prev;
	s->ka_prev = s->ka_next = NULL;
}

static void visit(struct session *s)
{
	if (s->ka_heard) {
		s->ka_heard = false;
		s->ka_silent = 0;
		return;
	}
	if (s->ka_silent < UINT8_MAX)
		s->ka_silent++;
	if (!s->wsi)
		return;
	if (s->ka_silent >= 2 * SESSION_KA_VISITS) {
		/* as lws' validity timeout did: closed at once, no close handshake with a silent peer */
		util_log_conn(LOG_DEBUG, s->id, "net: no pong in time, dropping the connection");
		lws_set_timeout(s->wsi, PENDING_TIMEOUT_KILLED_BY_PARENT, LWS_TO_KILL_ASYNC);
	} else if (s->ka_silent == SESSION_KA_VISITS && !s->close_state && !s->ka_ping) {
		s->ka_ping = true;
		/*
		 * Nothing queued and nothing left in lws' buffer: written now, as
		 * session.c writes a frame released into an empty queue (asking
		 * for WRITEABLE costs two epoll_ctl to turn POLLOUT on and two to
		 * turn it off, most of a ping's cost). Else behind the queue.
		 */
		if (s->qlen || lws_partial_buffered(s->wsi))
			lws_callback_on_writable(s->wsi);
		else if (session_ka_writeable(s)) /* lost: closed through lws, as in the callback */
			lws_set_timeout(s->wsi, PENDING_TIMEOUT_KILLED_BY_PARENT, LWS_TO_KILL_ASYNC);
	}
}

unsigned sessions_ka_tick(struct sessions *ss, uint64_t elapsed_ns, uint64_t max_ns)
{
	double round_ns = (double)ss->cfg->ping_interval_s * 1e9 / SESSION_KA_VISITS;
	unsigned n = 0;

	if (ss->stopping || !ss->ka_cursor) {
		ss->ka_credit = 0;
		return 0;
	}
	/*
	 * A late tick (a stalled loop, a starved process) does not catch up:
	 * the pongs that came meanwhile are still unread in the sockets, and
	 * visiting everyone at once would count that against them and ping in
	 * a burst. A stall only makes the keep-alive later, never stricter.
	 */
	if (elapsed_ns > max_ns)
		elapsed_ns = max_ns;
	ss->ka_credit += (double)ss->count * (double)elapsed_ns / round_ns;
	if (ss->ka_credit > (double)ss->count)
		ss->ka_credit = (double)ss->count;
	while (ss->ka_credit >= 1 && ss->ka_cursor) {
		struct session *s = ss->ka_cursor;

		ss->ka_cursor = s->ka_next;
		ss->ka_credit -= 1;
		visit(s);
		n++;
	}
	return n;
}

int session_ka_writeable(struct session *s)
{
	unsigned char buf[LWS_PRE + 1]; /* lws writes the frame's header into the headroom */

	if (!s->ka_ping)
		return 0;
	s->ka_ping = false;
	if (s->close_state)
		return 0;
	/* one byte, not none: lws 4.1 gives no RECEIVE_PONG callback for a pong with an empty payload */
	buf[LWS_PRE] = 'k';
	return lws_write(s->wsi, buf + LWS_PRE, 1, LWS_WRITE_PING) < 0 ? NET_E_CLOSE : 0;
}
