/*
 * test_session.c: the write queue's journal gate (durable before broadcast),
 * the string map, and the keep-alive sweep's ring. Sessions here have no lws
 * connection: the gate only decides what may be written, which is what these
 * tests read (qready); the sweep only counts silent visits.
 */
#include <stdlib.h>
#include <string.h>

#include "net/session_int.h"
#include "tap.h"
#include "base/util.h"

static struct config cfg;
static struct metrics metrics;
static struct sessions ss;

static struct session *fake_session(void)
{
	struct session *s = calloc(1, sizeof(*s));

	s->ss = &ss;
	return s;
}

static struct buf *frame(const char *text)
{
	return buf_from_bytes(text, strlen(text));
}

static void send_text(struct session *s, const char *text)
{
	struct buf *b = frame(text);

	session_send(s, b);
	buf_unref(b);
}

static const char *at(struct session *s, unsigned i)
{
	return (const char *)s->q[(s->qhead + i) % s->qcap].b->data;
}

static void free_session(struct session *s)
{
	s->dead = true;
	s->reap_next = ss.dead;
	ss.dead = s;
}

static void test_gate(void)
{
	struct session *a = fake_session(), *b = fake_session();

	sessions_init(&ss, &cfg, &metrics);
	send_text(a, "joined");
	CHECK_EQ(a->qready, 0);       /* nothing leaves during the turn */
	sessions_turn_end(&ss, 1, 1); /* the turn journalled: batch 1 */
	CHECK_EQ(a->qready, 0);
	CHECK_EQ(sessions_held(&ss), 1);
	send_text(a, "error"); /* next turn: no journal write, but batch 1 is pending */
	send_text(b, "rooms");
	sessions_turn_end(&ss, 0, 1);
	CHECK_EQ(a->qready, 0);
	CHECK_EQ(b->qready, 0);         /* it may show what batch 1 holds */
	sessions_committed(&ss, 1, -5); /* failed: retried, still held */
	CHECK_EQ(a->qready, 0);
	send_text(a, "state");
	sessions_turn_end(&ss, 2, 2);
	sessions_committed(&ss, 1, 0);
	CHECK_EQ(a->qready, 2); /* batch 1's frames, in order; batch 2's stays */
	CHECK(!strcmp(at(a, 0), "joined") && !strcmp(at(a, 1), "error") && !strcmp(at(a, 2), "state"));
	CHECK_EQ(b->qready, 1);
	sessions_committed(&ss, 2, 0);
	CHECK_EQ(a->qready, 3);
	CHECK_EQ(sessions_held(&ss), 0);
	send_text(b, "chat"); /* nothing pending: out at the turn's end */
	sessions_turn_end(&ss, 0, 2);
	CHECK_EQ(b->qready, 2);
	CHECK(!ss.waiting);
	session_closed(a); /* off every list while held frames remain */
	send_text(b, "later");
	sessions_turn_end(&ss, 3, 3);
	session_closed(b);
	CHECK(!ss.waiting && !ss.turn);
	sessions_reap(&ss);
}

/* A turn whose flush was deferred behind a batch in flight waits for the open batch, not the one in flight.
 */
static void test_deferred_gate(void)
{
	struct session *a = fake_session();

	sessions_init(&ss, &cfg, &metrics);
	send_text(a, "one");
	sessions_turn_end(&ss, 1, 1); /* batch 1 in flight */
	send_text(a, "two");
	sessions_turn_end(&ss, 0, 2); /* journalled into the open batch 2, not flushed yet */
	sessions_committed(&ss, 1, 0);
	CHECK_EQ(a->qready, 1); /* "two" shows a write of batch 2: still held */
	CHECK(!strcmp(at(a, 0), "one"));
	sessions_turn_end(&ss, 2, 2); /* the next turn flushes batch 2 */
	CHECK_EQ(a->qready, 1);
	sessions_committed(&ss, 2, 0);
	CHECK_EQ(a->qready, 2);
	CHECK_EQ(sessions_held(&ss), 0);
	session_closed(a);
	sessions_reap(&ss);
}

/*
 * The reply followed for the metrics (reply_released): the first frame queued while a message is handled,
 * one at a time, moved with the held frames by a notice, forgotten when the held frames are dropped.
 */
static void test_reply_followed(void)
{
	struct session *a = fake_session();

	sessions_init(&ss, &cfg, &metrics);
	memset(&metrics, 0, sizeof(metrics));
	send_text(a, "before");    /* not a reply: no message is being handled */
	a->rx_ns = util_mono_ns(); /* what net.c does while a message is handled */
	send_text(a, "reply");
	send_text(a, "more"); /* the same message's second frame: not followed */
	CHECK(!a->rx_ns && a->reply_ns && a->reply_pos == 1);
	a->rx_ns = util_mono_ns(); /* a second message while the first reply waits: not followed */
	send_text(a, "reply2");
	CHECK(a->reply_pos == 1);
	sessions_turn_end(&ss, 1, 1);
	session_send_notice(a, 17, "notice"); /* goes ahead of the held frames, the reply among them */
	CHECK(a->reply_pos == 2 && !strcmp(at(a, 2), "reply"));
	CHECK_EQ(metrics.reply_released.count, 0);
	sessions_committed(&ss, 1, 0);
	CHECK_EQ(metrics.reply_released.count, 1);
	a->rx_ns = util_mono_ns();
	send_text(a, "reply3"); /* the first reply is still queued (not written): not followed */
	CHECK(a->reply_pos == 2);
	a->reply_ns = 0; /* as if written */
	a->rx_ns = util_mono_ns();
	send_text(a, "reply4");
	CHECK(a->reply_ns && a->reply_pos == a->qgone + a->qlen - 1);
	sessions_turn_end(&ss, 2, 2);
	session_drop_held(a); /* the reply goes with the held frames */
	CHECK(!a->reply_ns);
	sessions_committed(&ss, 2, 0);
	CHECK_EQ(metrics.reply_released.count, 1);
	session_closed(a);
	sessions_reap(&ss);
}

/* A refusal that shows no room state waits for the frames before it, not for the journal. */
static void test_refusal(void)
{
	struct session *a = fake_session(), *b = fake_session();

	sessions_init(&ss, &cfg, &metrics);
	send_text(a, "state");
	sessions_turn_end(&ss, 1, 1); /* batch 1 pending (failing, say) */
	session_send_refusal(a, 17, "try again", NULL);
	session_send_refusal(b, 17, "try again", NULL);
	send_text(b, "rooms"); /* a normal frame after it still waits for batch 1 */
	sessions_turn_end(&ss, 0, 1);
	CHECK_EQ(a->qready, 0); /* behind a's held state */
	CHECK_EQ(b->qready, 1); /* b had nothing held: out now */
	sessions_committed(&ss, 1, 0);
	CHECK_EQ(a->qready, 2);
	CHECK_EQ(b->qready, 2);
	session_closed(a);
	session_closed(b);
	sessions_reap(&ss);
}

static void test_queue_bound(void)
{
	struct session *a = fake_session();
	int i;

	sessions_init(&ss, &cfg, &metrics);
	for (i = 0; i < (int)cfg.max_queue_msgs + 1; i++)
		send_text(a, "x");
	CHECK(a->close_state == SESSION_CLOSE_REQUESTED); /* a client that cannot keep up is dropped */
	CHECK_EQ(a->qlen, 0);
	CHECK_EQ(metrics.slow_dropped, 1);
	sessions_turn_end(&ss, 0, 0);
	free_session(a);
	sessions_reap(&ss);
}

static void test_hmap(void)
{
	struct hmap m;
	char keys[300][8];
	int i, n = 0;
	size_t pos = 0;
	void *v;

	hmap_init(&m);
	for (i = 0; i < 300; i++) {
		snprintf(keys[i], sizeof(keys[i]), "k%d", i);
		CHECK_EQ(hmap_put(&m, keys[i], keys[i]), 0);
	}
	for (i = 0; i < 300; i += 2)
		CHECK(hmap_del(&m, keys[i]) == keys[i]);
	CHECK(!hmap_get(&m, "k0") && hmap_get(&m, "k1") == keys[1]);
	CHECK_EQ(m.len, 150);
	while ((v = hmap_next(&m, &pos))) {
		CHECK(atoi((const char *)v + 1) % 2 == 1); /* only the odd keys are left */
		n++;
	}
	CHECK_EQ(n, 150);
	hmap_finish(&m);
}

/* The per-address tallies: counts go up and down, a key at 0 is forgotten, a removal is floored at 0. */
static void test_tally(void)
{
	struct tally t;

	tally_init(&t);
	CHECK_EQ(tally_get(&t, "10.0.0.1"), 0);
	CHECK_EQ(tally_add(&t, "10.0.0.1", 3), 0);
	CHECK_EQ(tally_add(&t, "::1", 1), 0);
	CHECK_EQ(tally_add(&t, "10.0.0.1", -1), 0);
	CHECK_EQ(tally_get(&t, "10.0.0.1"), 2);
	CHECK_EQ(tally_get(&t, "::1"), 1);
	CHECK_EQ(tally_add(&t, "::1", -5), 0); /* more than it had: gone, not negative */
	CHECK_EQ(tally_get(&t, "::1"), 0);
	CHECK_EQ(t.map.len, 1);
	CHECK_EQ(tally_add(&t, "10.0.0.9", -1), 0); /* never seen: nothing */
	CHECK_EQ(t.map.len, 1);
	CHECK_EQ(tally_add(&t, "10.0.0.1", -2), 0);
	CHECK_EQ(t.map.len, 0);
	CHECK_EQ(tally_add(&t, "10.0.0.1", 1 << 20), 0); /* bytes, for the HTTP body budget */
	CHECK_EQ(tally_get(&t, "10.0.0.1"), 1 << 20);
	tally_finish(&t); /* frees what is left (the leak check would see it) */
}

/*
 * The keep-alive sweep's ring (session_keepalive.c): a full round visits each
 * connection once, never twice, whatever leaves or joins meanwhile; a late
 * tick does not catch up. Sessions without lws only count their silent visits.
 */
#define KA_N 10

static void test_keepalive_ring(void)
{
	uint64_t round = (uint64_t)cfg.ping_interval_s * 1000000000ull / SESSION_KA_VISITS;
	struct session *s[KA_N], *late, *newcomer;
	int i;

	memset(&ss, 0, sizeof(ss));
	ss.cfg = &cfg;
	ss.metrics = &metrics;
	for (i = 0; i < KA_N; i++) {
		s[i] = fake_session();
		session_ka_link(s[i]);
		ss.count++;
		CHECK(s[i]->ka_heard); /* the upgrade counts as life */
	}
	CHECK_EQ(sessions_ka_tick(&ss, round, round), KA_N);
	for (i = 0; i < KA_N; i++)
		CHECK(!s[i]->ka_heard && s[i]->ka_silent == 0);
	/* a round in ten ticks: each once */
	for (i = 0; i < 10; i++)
		(void)sessions_ka_tick(&ss, round / 10, round);
	for (i = 0; i < KA_N; i++)
		CHECK_EQ(s[i]->ka_silent, 1);
	/* half a round; then the next to be visited leaves, one joins (behind the cursor: last in the
	 * round), and the rest of the round visits each of the others once, then the newcomer */
	CHECK_EQ(sessions_ka_tick(&ss, round / 2, round), KA_N / 2);
	late = ss.ka_cursor;
	CHECK(late == s[KA_N / 2]);
	session_ka_unlink(late);
	CHECK(ss.ka_cursor == s[KA_N / 2 + 1] && late->ka_next == NULL);
	newcomer = fake_session();
	session_ka_link(newcomer);                                 /* count stays KA_N: one left, one came */
	CHECK_EQ(sessions_ka_tick(&ss, round * 4 / 10, round), 4); /* s[6..9] */
	CHECK(ss.ka_cursor == s[0]);
	s[0]->ka_heard = true;                                /* a frame came: it starts over */
	CHECK_EQ(sessions_ka_tick(&ss, round / 2, round), 5); /* s[0..4] */
	CHECK(ss.ka_cursor == newcomer && newcomer->ka_heard);
	CHECK_EQ(sessions_ka_tick(&ss, round / 10, round), 1);
	CHECK(!newcomer->ka_heard && newcomer->ka_silent == 0);
	for (i = 0; i < KA_N; i++)
		if (s[i] != late)
			CHECK_EQ(s[i]->ka_silent, i == 0 ? 0 : i < KA_N / 2 ? 3 : 2);
	CHECK_EQ(late->ka_silent, 1);
	free(late);
	s[KA_N / 2] = newcomer;
	/* a tick ten rounds late counts as max_ns: half a round, not ten (nor one whole) */
	i = (int)sessions_ka_tick(&ss, 10 * round, round / 2);
	CHECK(i >= KA_N / 2 - 1 && i <= KA_N / 2);
	for (i = 0; i < KA_N; i++) {
		session_ka_unlink(s[i]);
		free(s[i]);
	}
	CHECK(ss.ka_cursor == NULL);
	CHECK_EQ(sessions_ka_tick(&ss, round, round), 0);
}

int main(void)
{
	config_defaults(&cfg);
	TEST(test_gate);
	TEST(test_deferred_gate);
	TEST(test_refusal);
	TEST(test_reply_followed);
	TEST(test_queue_bound);
	TEST(test_hmap);
	TEST(test_tally);
	TEST(test_keepalive_ring);
	return tap_done() || buf_live != 0;
}
