/*
 * loadgen.c: quinteto-load, a load generator for the game server. It opens
 * libwebsockets client connections on a libuv loop it owns (lws' foreign
 * loop, as the server does), forms R rooms of one game (one connection of
 * each room creates it, every seat is joined by its own connection, W more
 * connections watch it), and plays: each seat picks an action at random from
 * the `legal` array of the `state` it receives and sends it with that state's
 * `ply`, either at once (closed loop) or through one queue that releases
 * actions at a fixed offered rate across all rooms. A finished match is left
 * and a new room is formed by the same connections. Idle connections only say
 * hello. Connections come from several source addresses 127.0.0.x so the
 * server's per-address limit need not be raised.
 *
 * What it measures, in a window after the warm-up: accepted actions/s, the
 * time from writing an `act` to receiving the first `state` that shows it (a
 * later ply whose `last.seat` is the acting seat) on the same connection (an
 * HDR-style histogram), the errors by code (stale_ply always printed: it must
 * be 0), and CPU per action of the server (every thread) and of this process
 * (loadgen_report.c).
 *
 * Bounds: it talks only to 127.0.0.0/8, and every run ends by itself after
 * setup (capped by --setup-timeout), --warmup and --duration.
 *
 * Cost: it must stay far cheaper per action than the server. Watchers' frames
 * are counted, never parsed; seats read `state` with a scanner (jscan.c) and
 * splice the chosen legal action's bytes into `act`, jansson only for the rare
 * other messages. Unlike the server (house rule: write only from WRITEABLE),
 * it writes a frame at once when its queue is empty (conn_write_now).
 */
#include <arpa/inet.h>
#include <errno.h>
#include <getopt.h>
#include <jansson.h>
#include <libwebsockets.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <uv.h>

#include "jscan.h"
#include "loadgen.h"
#include "rules.h"
#include "wire.h"

#define PROTO     "quinteto.v1"
#define MAX_ADDRS 254

/* One frame waiting to be written, with lws' headroom in front. */
struct msg {
	struct msg *next;
	size_t len;
	bool act;            /* stamp the connection's send time when written */
	unsigned char buf[]; /* LWS_PRE + len */
};

enum conn_kind { CONN_SEAT, CONN_WATCH, CONN_IDLE };
enum conn_phase { PH_WAIT, PH_CONNECTING, PH_OPEN, PH_READY, PH_DEAD };

struct room;

struct conn {
	struct lws *wsi;
	struct room *room;   /* NULL for idle connections */
	int seat;            /* seat this connection plays; -1 watchers and idle */
	uint8_t kind, phase; /* enum conn_kind, enum conn_phase */
	const char *src;     /* source address */
	struct msg *qhead, *qtail;
	char *rx; /* a message arriving in fragments */
	size_t rxlen, rxcap;
	int pending_ply; /* ply of our act in flight; -1 none */
	uint32_t pending_id;
	uint64_t sent_ns; /* when that act was written */
	int acted_ply;    /* the last ply we acted (or queued an act) at */
	/* rate mode: the act waiting for its turn in the global queue */
	char *q_action; /* its JSON text */
	size_t q_alen;
	int q_ply;
	unsigned q_gen;
	struct conn *q_next;
	bool queued;
};

struct room {
	char id[64];  /* the server's room id; "" while being created */
	unsigned gen; /* bumped at every new room: drops acts queued for the old one */
	struct conn **seats, **watchers;
	int nready;   /* connections of the room that got `welcome` */
	int last_ply; /* seen by seat 0's connection */
	bool formed, restarting;
};

enum lg_phase { LG_SETUP, LG_WARMUP, LG_MEASURE, LG_DONE };

static const char *const error_names[] = {
	"stale_ply", "not_your_turn", "illegal_action", "rate_limited",
	"game_over", "room_full",     "other",          "closed",
};
#define NERR (int)(sizeof(error_names) / sizeof(error_names[0]))

static struct {
	struct lg_opts o;
	const struct rules_game *game;
	bool game_autoroll; /* the game has the option */
	uv_loop_t loop;
	uv_timer_t tick, pace;
	uv_process_t hook[2]; /* --window-cmd at the window's start and end */
	struct lws_context *ctx;
	char addrs[MAX_ADDRS][24];
	char addr_range[48];
	struct conn *conns;
	int nconns, next_connect, connecting, open, failed, idle_ready;
	struct room *rooms;
	int rooms_formed;
	enum lg_phase phase;
	uint64_t phase_end;
	struct lg_counts c, c0;
	struct lg_sample pre, s0;
	struct hist *lat;
	uint64_t errors[NERR];
	uint32_t next_id;
	uint64_t rng;
	struct conn *rq_head, *rq_tail; /* rate mode: seats with an act waiting */
	double credit;
	uint64_t credit_t;
	bool stopping;
	int exit_code;
} g;

static uint64_t rng_next(void)
{
	g.rng ^= g.rng << 13;
	g.rng ^= g.rng >> 7;
	g.rng ^= g.rng << 17;
	return g.rng;
}

/* ---- writing ---- */

/*
 * Writes at once when nothing is queued and the socket takes it: a frame this
 * small always fits, and asking lws for a WRITEABLE callback first costs two
 * epoll_ctl calls (POLLOUT on, then off) and a loop turn per frame, the bulk
 * of the generator's cost per action. lws buffers a partial write itself.
 */
static bool conn_write_now(struct conn *c, const char *text, size_t len, bool act)
{
	unsigned char buf[LWS_PRE + 1400];

	if (g.o.queued_writes || c->qhead || len > sizeof(buf) - LWS_PRE || lws_send_pipe_choked(c->wsi))
		return false;
	memcpy(buf + LWS_PRE, text, len);
	if (act)
		c->sent_ns = uv_hrtime();
	if (lws_write(c->wsi, buf + LWS_PRE, len, LWS_WRITE_TEXT) < (int)len)
		lws_set_timeout(c->wsi, PENDING_TIMEOUT_KILLED_BY_PARENT, LWS_TO_KILL_ASYNC);
	return true;
}

static void conn_send(struct conn *c, const char *text, size_t len, bool act)
{
	struct msg *m;

	if (c->phase < PH_OPEN || c->phase == PH_DEAD || !c->wsi)
		return;
	if (conn_write_now(c, text, len, act))
		return;
	m = malloc(sizeof(*m) + LWS_PRE + len);
	if (!m)
		return;
	m->next = NULL;
	m->len = len;
	m->act = act;
	memcpy(m->buf + LWS_PRE, text, len);
	if (c->qtail)
		c->qtail->next = m;
	else
		c->qhead = m;
	c->qtail = m;
	lws_callback_on_writable(c->wsi);
}

static void conn_sendf(struct conn *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void conn_sendf(struct conn *c, const char *fmt, ...)
{
	char buf[512];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (n > 0 && (size_t)n < sizeof(buf))
		conn_send(c, buf, (size_t)n, false);
}

static int conn_writeable(struct conn *c)
{
	struct msg *m = c->qhead;

	if (!m)
		return 0;
	if (m->act)
		c->sent_ns = uv_hrtime();
	if (lws_write(c->wsi, m->buf + LWS_PRE, m->len, LWS_WRITE_TEXT) < (int)m->len)
		return -1;
	c->qhead = m->next;
	if (!c->qhead)
		c->qtail = NULL;
	free(m);
	if (c->qhead)
		lws_callback_on_writable(c->wsi);
	return 0;
}

static void conn_drop_queue(struct conn *c)
{
	while (c->qhead) {
		struct msg *m = c->qhead;

		c->qhead = m->next;
		free(m);
	}
	c->qtail = NULL;
	free(c->rx);
	c->rx = NULL;
	c->rxlen = c->rxcap = 0;
}

/* ---- acting ---- */

/* `action` is the JSON text of one element of `legal`, sent as it came. */
static void act_send(struct conn *c, const char *action, size_t alen, int ply)
{
	char buf[1280];
	int n;

	if (alen > 1024)
		return;
	c->pending_id = ++g.next_id;
	n = snprintf(buf, sizeof(buf),
		     "{\"type\":\"act\",\"id\":%u,\"room\":\"%s\",\"ply\":%d,\"action\":%.*s}", c->pending_id,
		     c->room->id, ply, (int)alen, action);
	if (n <= 0 || (size_t)n >= sizeof(buf))
		return;
	c->pending_ply = ply;
	c->acted_ply = ply;
	g.c.acts_sent++;
	conn_send(c, buf, (size_t)n, true);
}

/* Rate mode: the act a queued seat will send, from the state at `ply`. */
static int act_requeue(struct conn *c, const char *action, size_t alen, int ply)
{
	char *p = realloc(c->q_action, alen ? alen : 1);

	if (!p)
		return -ENOMEM;
	memcpy(p, action, alen);
	c->q_action = p;
	c->q_alen = alen;
	c->q_ply = ply;
	c->acted_ply = ply;
	return 0;
}

/* Rate mode: the seat waits in one FIFO shared by every room (pace_cb drains it). */
static void act_queue(struct conn *c, const char *action, size_t alen, int ply)
{
	if (act_requeue(c, action, alen, ply))
		return;
	c->q_gen = c->room->gen;
	c->queued = true;
	c->q_next = NULL;
	if (g.rq_tail)
		g.rq_tail->q_next = c;
	else
		g.rq_head = c;
	g.rq_tail = c;
}

static void pace_cb(uv_timer_t *t)
{
	uint64_t now = uv_hrtime();
	double cap = g.o.rate * 0.005 > 1 ? g.o.rate * 0.005 : 1; /* at most 5 ms of credit: no bursts */

	g.credit += g.o.rate * (double)(now - g.credit_t) / 1e9;
	g.credit_t = now;
	while (g.credit >= 1 && g.rq_head) {
		struct conn *c = g.rq_head;

		g.rq_head = c->q_next;
		if (!g.rq_head)
			g.rq_tail = NULL;
		c->queued = false;
		if (!g.stopping && c->phase == PH_READY && c->q_gen == c->room->gen && c->q_ply >= 0) {
			act_send(c, c->q_action, c->q_alen, c->q_ply);
			g.credit -= 1;
		}
		free(c->q_action);
		c->q_action = NULL;
	}
	if (g.credit > cap)
		g.credit = cap;
}

/* ---- rooms ---- */

static int room_size(void)
{
	return g.game->seats + g.o.watchers;
}

static struct conn *room_member(struct room *r, int i)
{
	return i < g.game->seats ? r->seats[i] : r->watchers[i - g.game->seats];
}

static void room_create(struct room *r)
{
	r->id[0] = '\0';
	if (g.game_autoroll)
		conn_sendf(r->seats[0], "{\"type\":\"create\",\"game\":\"%s\",\"options\":{\"autoroll\":%s}}",
			   g.o.game, g.o.autoroll ? "true" : "false");
	else
		conn_sendf(r->seats[0], "{\"type\":\"create\",\"game\":\"%s\"}", g.o.game);
}

static void room_created(struct room *r, const char *id)
{
	int i;

	snprintf(r->id, sizeof(r->id), "%s", id);
	r->gen++;
	r->last_ply = 0;
	r->restarting = false;
	for (i = 0; i < g.game->seats; i++) {
		r->seats[i]->pending_ply = r->seats[i]->acted_ply = -1;
		conn_sendf(r->seats[i], "{\"type\":\"join\",\"room\":\"%s\",\"seat\":%d}", r->id, i);
	}
	for (i = 0; i < g.o.watchers; i++)
		conn_sendf(r->watchers[i], "{\"type\":\"watch\",\"room\":\"%s\"}", r->id);
}

/* The match is over: everyone leaves and seat 0 creates the next room. */
static void room_restart(struct room *r)
{
	int i;

	r->restarting = true;
	g.c.matches++;
	for (i = 0; i < room_size(); i++)
		conn_sendf(room_member(r, i), "{\"type\":\"leave\",\"room\":\"%s\"}", r->id);
	if (!g.stopping)
		room_create(r);
}

/* ---- receiving ---- */

/*
 * A seat acts on the newest state that gives it a choice, once per ply, and
 * never while its previous act is unanswered. In a roll-off every seat is to
 * act at once, so the states of other seats' rolls arrive while a seat's own
 * roll is on its way, still listing it: answering them sent a second roll
 * that the server refused as stale (protocol.md: an older ply is accepted only
 * while every action since was another seat's). So an act is answered by the
 * first state that shows it (`last.seat` is this seat, at a later ply) or by
 * its error, not by any later ply; and an act still waiting in the rate queue
 * takes the newest state's choice instead of the one it was queued with.
 */
static void on_state(struct conn *c, const struct jscan_state *st)
{
	struct room *r = c->room;
	int ply = (int)st->ply, k;

	if (st->ply < 0 || !jscan_eq(st->room, r->id))
		return; /* a state of the room we left */
	if (c->pending_ply >= 0 && ply > c->pending_ply && st->last_seat == c->seat) {
		if (g.phase == LG_MEASURE)
			hist_record(g.lat, uv_hrtime() - c->sent_ns);
		g.c.acts_accepted++;
		c->pending_ply = -1;
	}
	if (c->seat == 0 && ply > r->last_ply) {
		g.c.plies += (uint64_t)(ply - r->last_ply);
		r->last_ply = ply;
	}
	if (jscan_eq(st->status, "finished")) {
		if (c->seat == 0 && !r->restarting)
			room_restart(r);
		return;
	}
	if (!jscan_eq(st->status, "playing"))
		return;
	if (!r->formed) {
		r->formed = true;
		g.rooms_formed++;
	}
	if (c->queued && ply > c->q_ply) { /* a newer state: the queued act follows it, or is dropped */
		if (!st->nlegal) {
			c->q_ply = -1; /* pace_cb drops it */
		} else {
			k = (int)(rng_next() % (uint64_t)st->nlegal);
			act_requeue(c, st->legal[k].p, st->legal[k].n, ply);
		}
		return;
	}
	if (!st->nlegal || g.stopping || c->pending_ply >= 0 || c->queued || ply <= c->acted_ply)
		return;
	k = (int)(rng_next() % (uint64_t)st->nlegal);
	if (g.o.rate > 0)
		act_queue(c, st->legal[k].p, st->legal[k].n, ply);
	else
		act_send(c, st->legal[k].p, st->legal[k].n, ply);
}

/*
 * The slow path for a state the scanner refused (an unusual frame, or more
 * than JSCAN_MAX_LEGAL legal actions): the same fields from jansson's tree,
 * the action chosen here and dumped into `act`.
 */
static void on_state_json(struct conn *c, json_t *j, struct jscan_state *st, char *act, size_t cap)
{
	json_t *legal = json_object_get(j, "legal"), *room = json_object_get(j, "room");
	json_t *status = json_object_get(j, "status"), *ply = json_object_get(j, "ply");
	json_t *seat = json_object_get(json_object_get(j, "last"), "seat");
	size_t n = json_array_size(legal), len;

	memset(st, 0, offsetof(struct jscan_state, legal));
	st->last_seat = json_is_integer(seat) ? (int)json_integer_value(seat) : -1;
	if (!json_is_string(room) || !json_is_string(status) || !json_is_integer(ply))
		return;
	st->room = (struct jscan_span){ json_string_value(room), json_string_length(room) };
	st->status = (struct jscan_span){ json_string_value(status), json_string_length(status) };
	st->ply = json_integer_value(ply);
	if (n && (len = json_dumpb(json_array_get(legal, rng_next() % n), act, cap, JSON_COMPACT)) &&
	    len < cap) {
		st->legal[0] = (struct jscan_span){ act, len };
		st->nlegal = 1;
	}
	on_state(c, st);
}

static void on_error(struct conn *c, json_t *j)
{
	const char *code = json_string_value(json_object_get(j, "code"));
	json_t *id = json_object_get(j, "id");
	int i;

	for (i = 0; i < NERR - 2; i++)
		if (code && !strcmp(code, error_names[i]))
			break;
	g.errors[i]++;
	if (c->pending_ply >= 0 && json_is_integer(id) && (uint32_t)json_integer_value(id) == c->pending_id) {
		g.c.acts_refused++;
		c->pending_ply = -1; /* the next state lets the seat act again */
	}
}

static void conn_ready(struct conn *c)
{
	c->phase = PH_READY;
	if (c->kind == CONN_IDLE) {
		g.idle_ready++;
		return;
	}
	if (++c->room->nready == room_size())
		room_create(c->room);
}

static void on_frame(struct conn *c, const char *data, size_t len)
{
	static struct jscan_state st; /* one thread; too big for the stack of every call */
	static char act[1024];        /* st may point into it after the call (it is static too) */
	json_t *j, *room;
	const char *type;

	g.c.frames_in++;
	g.c.bytes_in += len;
	if (c->phase == PH_OPEN) { /* the first frame answers hello: `welcome` */
		conn_ready(c);
		return;
	}
	if (c->kind != CONN_SEAT)
		return; /* watchers and idle connections only count */
	if (!jscan_state(data, len, &st) && jscan_eq(st.type, "state")) {
		on_state(c, &st); /* the fast path: most frames a seat receives */
		return;
	}
	j = json_loadb(data, len, 0, NULL);
	type = json_string_value(json_object_get(j, "type"));
	if (!type)
		;
	else if (!strcmp(type, "state"))
		on_state_json(c, j, &st, act, sizeof(act));
	else if (!strcmp(type, "error"))
		on_error(c, j);
	else if (!strcmp(type, "created") && c->seat == 0 && (room = json_object_get(j, "room")) &&
		 json_is_string(json_object_get(room, "id")))
		room_created(c->room, json_string_value(json_object_get(room, "id")));
	json_decref(j);
}

static int on_receive(struct conn *c, struct lws *wsi, const char *in, size_t len)
{
	bool final = lws_is_final_fragment(wsi) && !lws_remaining_packet_payload(wsi);

	if (final && !c->rxlen) {
		on_frame(c, in, len);
		return 0;
	}
	if (c->rxlen + len > c->rxcap) {
		size_t cap = c->rxcap ? c->rxcap : 4096;
		char *p;

		while (cap < c->rxlen + len)
			cap *= 2;
		if (!(p = realloc(c->rx, cap)))
			return -1;
		c->rx = p;
		c->rxcap = cap;
	}
	memcpy(c->rx + c->rxlen, in, len);
	c->rxlen += len;
	if (final) {
		on_frame(c, c->rx, c->rxlen);
		c->rxlen = 0;
	}
	return 0;
}

/* ---- connections ---- */

static void connect_more(void);

static void conn_gone(struct conn *c, bool failed)
{
	if (c->phase == PH_CONNECTING)
		g.connecting--;
	if (failed)
		g.failed++;
	else if (c->phase >= PH_OPEN && c->phase != PH_DEAD)
		g.open--;
	if (!g.stopping && !failed)
		g.errors[NERR - 1]++; /* the server closed a connection during the run */
	c->phase = PH_DEAD;
	c->wsi = NULL;
	conn_drop_queue(c);
	if (!g.stopping)
		connect_more();
}

static int callback(struct lws *wsi, enum lws_callback_reasons reason, void *user, void *in, size_t len)
{
	struct conn *c = lws_get_opaque_user_data(wsi);

	if (!c)
		return lws_callback_http_dummy(wsi, reason, user, in, len);
	switch (reason) {
	case LWS_CALLBACK_CLIENT_CONNECTION_ERROR:
		if (!g.stopping && g.failed < 5)
			fprintf(stderr, "quinteto-load: connection from %s failed: %s\n", c->src,
				in ? (const char *)in : "?");
		conn_gone(c, true);
		return 0;
	case LWS_CALLBACK_CLIENT_ESTABLISHED:
		g.connecting--;
		g.open++;
		c->phase = PH_OPEN;
		conn_send(c, "{\"type\":\"hello\",\"name\":\"load\"}", 30, false);
		connect_more();
		return 0;
	case LWS_CALLBACK_CLIENT_RECEIVE:
		return on_receive(c, wsi, in, len);
	case LWS_CALLBACK_CLIENT_WRITEABLE:
		return conn_writeable(c);
	case LWS_CALLBACK_CLIENT_CLOSED:
		conn_gone(c, false);
		return 0;
	default:
		return lws_callback_http_dummy(wsi, reason, user, in, len);
	}
}

static struct lws_protocols protocols[] = {
	{ PROTO, callback, 0, 4096, 0, NULL, 0 },
	{ NULL, NULL, 0, 0, 0, NULL, 0 },
};

/*
 * No keep-alive of the generator's own: without a policy lws 4.1 pings each
 * client connection after 300 s and hangs up at 310 s (one sorted timer per
 * connection), which cut every idle run longer than five minutes short.
 */
static const lws_retry_bo_t no_keepalive = { .secs_since_valid_ping = 0, .secs_since_valid_hangup = 0 };

static void conn_connect(struct conn *c)
{
	struct lws_client_connect_info ci;

	memset(&ci, 0, sizeof(ci));
	ci.context = g.ctx;
	ci.address = g.o.host;
	ci.port = g.o.port;
	ci.path = "/ws";
	ci.host = g.o.host;
	ci.origin = g.o.host;
	ci.protocol = PROTO;
	ci.local_protocol_name = PROTO;
	ci.iface = c->src; /* bind the source address: the server limits connections per address */
	ci.opaque_user_data = c;
	ci.pwsi = &c->wsi;
	ci.retry_and_idle_policy = &no_keepalive;
	c->phase = PH_CONNECTING;
	g.connecting++;
	if (!lws_client_connect_via_info(&ci) && c->phase == PH_CONNECTING)
		conn_gone(c, true);
}

/* Keeps at most --connect-burst handshakes in flight, so the listen backlog never overflows. */
static void connect_more(void)
{
	while (!g.stopping && g.connecting < g.o.connect_burst && g.next_connect < g.nconns)
		conn_connect(&g.conns[g.next_connect++]);
}

/* Seat connections first (room by room), then watchers, then idle ones. */
static int conns_alloc(void)
{
	int seats = g.game->seats, i, k = 0, r;

	g.nconns = g.o.rooms * room_size() + g.o.idle;
	g.conns = calloc((size_t)g.nconns, sizeof(*g.conns));
	g.rooms = calloc((size_t)g.o.rooms, sizeof(*g.rooms));
	if (!g.conns || !g.rooms)
		return -ENOMEM;
	for (r = 0; r < g.o.rooms; r++) {
		struct room *rm = &g.rooms[r];

		rm->seats = calloc((size_t)seats, sizeof(*rm->seats));
		rm->watchers = calloc((size_t)g.o.watchers + 1, sizeof(*rm->watchers));
		if (!rm->seats || !rm->watchers)
			return -ENOMEM;
		for (i = 0; i < room_size(); i++, k++) {
			struct conn *c = &g.conns[k];

			c->room = rm;
			c->kind = i < seats ? CONN_SEAT : CONN_WATCH;
			c->seat = i < seats ? i : -1;
			if (i < seats)
				rm->seats[i] = c;
			else
				rm->watchers[i - seats] = c;
		}
	}
	for (; k < g.nconns; k++) {
		g.conns[k].kind = CONN_IDLE;
		g.conns[k].seat = -1;
	}
	for (k = 0; k < g.nconns; k++)
		g.conns[k].src = g.addrs[k % g.o.addrs];
	return 0;
}

static void conns_free(void)
{
	int i;

	for (i = 0; i < g.nconns; i++) {
		conn_drop_queue(&g.conns[i]);
		free(g.conns[i].q_action);
	}
	for (i = 0; i < g.o.rooms; i++) {
		free(g.rooms[i].seats);
		free(g.rooms[i].watchers);
	}
	free(g.conns);
	free(g.rooms);
}

/* ---- the run: setup, warm-up, measured window, stop ---- */

/* Every connection has been tried, and every room is playing or cannot form. */
static bool setup_done(void)
{
	int r, i, dead;

	if (g.next_connect < g.nconns || g.connecting)
		return false;
	for (r = 0; r < g.o.rooms; r++) {
		for (i = 0, dead = 0; i < room_size(); i++)
			dead |= room_member(&g.rooms[r], i)->phase == PH_DEAD;
		if (!g.rooms[r].formed && !dead)
			return false;
	}
	for (i = g.nconns - g.o.idle; i < g.nconns; i++)
		if (g.conns[i].phase == PH_OPEN)
			return false;
	return true;
}

static void hook_exit_cb(uv_process_t *p, int64_t status, int sig)
{
	if (status || sig)
		fprintf(stderr, "quinteto-load: --window-cmd exited %lld (signal %d)\n", (long long)status,
			sig);
	uv_close((uv_handle_t *)p, NULL);
}

/* --window-cmd CMD: CMD start / CMD end, run beside the load (never waited for on the loop), so that
 * whoever started the server can take counters of its own (the store's commits, Redis' commands, other
 * processes' CPU) over the same window as ours. The end's run keeps the loop, hence this process, alive
 * until it is done. */
static void window_hook(int which)
{
	static char start[] = "start", end[] = "end";
	char *args[3];
	uv_process_options_t po;
	int rc;

	if (!g.o.window_cmd)
		return;
	args[0] = (char *)g.o.window_cmd;
	args[1] = which ? end : start;
	args[2] = NULL;
	memset(&po, 0, sizeof(po));
	po.file = g.o.window_cmd;
	po.args = args;
	po.exit_cb = hook_exit_cb;
	rc = uv_spawn(&g.loop, &g.hook[which], &po);
	if (rc) {
		fprintf(stderr, "quinteto-load: --window-cmd %s: %s\n", g.o.window_cmd, uv_strerror(rc));
		uv_close((uv_handle_t *)&g.hook[which], NULL);
	}
}

static void run_stop(void)
{
	struct lg_result res;
	struct lg_sample s1;

	lg_sample_take(&s1, g.o.server_pid);
	window_hook(1);
	memset(&res, 0, sizeof(res));
	res.o = &g.o;
	res.c0 = g.c0;
	res.c1 = g.c;
	res.pre = g.pre;
	res.s0 = g.s0;
	res.s1 = s1;
	res.lat = g.lat;
	res.conns_open = g.open;
	res.conns_failed = g.failed;
	res.rooms_formed = g.rooms_formed;
	memcpy(res.errors_by_code, g.errors, sizeof(g.errors));
	res.error_names = error_names;
	res.nerror_names = NERR;
	res.source_addrs = g.addr_range;
	lg_report_print(&res);
	/* nothing measured, or the server dropped connections: not a run to quote */
	if ((g.o.rooms && !(g.c.acts_accepted - g.c0.acts_accepted)) || g.errors[NERR - 1]) {
		fprintf(stderr, "quinteto-load: %s\n",
			g.errors[NERR - 1] ? "the server closed connections" : "no action was accepted");
		g.exit_code = 1;
	}
	g.phase = LG_DONE;
	g.stopping = true;
	uv_timer_stop(&g.tick);
	uv_close((uv_handle_t *)&g.tick, NULL);
	if (g.o.rate > 0) {
		uv_timer_stop(&g.pace);
		uv_close((uv_handle_t *)&g.pace, NULL);
	}
	lws_context_destroy(g.ctx); /* closes every connection; the loop then runs dry */
	g.ctx = NULL;
}

static void tick_cb(uv_timer_t *t)
{
	uint64_t now = uv_hrtime();

	switch (g.phase) {
	case LG_SETUP:
		if (!setup_done() && now < g.phase_end)
			return;
		if (!setup_done())
			fprintf(stderr, "quinteto-load: setup timed out; %d of %d rooms playing\n",
				g.rooms_formed, g.o.rooms);
		g.phase = LG_WARMUP;
		g.phase_end = now + (uint64_t)(g.o.warmup * 1e9);
		return;
	case LG_WARMUP:
		if (now < g.phase_end)
			return;
		g.c0 = g.c;
		lg_sample_take(&g.s0, g.o.server_pid);
		window_hook(0);
		g.phase = LG_MEASURE;
		g.phase_end = now + (uint64_t)(g.o.duration * 1e9);
		return;
	case LG_MEASURE:
		if (now >= g.phase_end)
			run_stop();
		return;
	case LG_DONE:
		return;
	}
}

/* ---- command line ---- */

static void usage(FILE *f)
{
	fprintf(f,
		"usage: quinteto-load --port PORT [options]\n"
		"  --host ADDR          server address in 127.0.0.0/8 (default 127.0.0.1)\n"
		"  --port PORT          server port (required)\n"
		"  --game ID            game to play (default ur; any of the registry)\n"
		"  --rooms R            rooms (default 200)\n"
		"  --watchers W         watchers per room (default 0)\n"
		"  --idle N             extra connections that only say hello (default 0)\n"
		"  --rate A             offered actions/s across all rooms (default 0: closed loop)\n"
		"  --warmup S           seconds played before measuring (default 2)\n"
		"  --duration S         measured seconds (default 10)\n"
		"  --setup-timeout S    longest wait for the rooms to form (default 30)\n"
		"  --addrs N            source addresses 127.0.0.1..127.0.0.N (default: 200 connections "
		"each)\n"
		"  --addr-first B       first source address 127.0.0.B (default 1; another generator "
		"process\n"
		"                       against the same server takes addresses after this one's)\n"
		"  --connect-burst N    handshakes in flight at once (default 64)\n"
		"  --no-autoroll        create rooms without the autoroll option\n"
		"  --server-pid PID     report the server's CPU per action and memory from /proc\n"
		"  --seed N             seed of the action choices (default 1)\n"
		"  --window-cmd CMD     run CMD start / CMD end (a program, no shell) as the window starts "
		"and ends\n"
		"  --json               also print one JSON line\n"
		"  --queued-writes      write every frame from lws' WRITEABLE callback (slower; to compare)\n"
		"exit status: 0 after a run; 1 when no action was accepted or the server closed connections\n"
		"(the report is printed all the same); 2 for bad options or setup failures\n");
}

static int parse_num(const char *s, double lo, double hi, double *out)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(s, &end);
	if (errno || end == s || *end || v < lo || v > hi)
		return -1;
	*out = v;
	return 0;
}

static int loopback_only(const char *host)
{
	struct in_addr a;

	return inet_pton(AF_INET, host, &a) == 1 && (ntohl(a.s_addr) >> 24) == 127 ? 0 : -1;
}

static int opt_set(int ch, const char *arg)
{
	struct lg_opts *o = &g.o;
	double v = 0;

	switch (ch) {
	case 'H':
		snprintf(o->host, sizeof(o->host), "%s", arg);
		return loopback_only(o->host);
	case 'g':
		o->game = arg;
		return 0;
	case 'A':
		o->autoroll = false;
		return 0;
	case 'j':
		o->json = true;
		return 0;
	case 'q':
		o->queued_writes = true;
		return 0;
	case 'X':
		o->window_cmd = arg;
		return 0;
	}
	if (parse_num(arg, 0, 1e9, &v))
		return -1;
	switch (ch) {
	case 'p':
		o->port = (int)v;
		return v >= 1 && v <= 65535 ? 0 : -1;
	case 'r':
		o->rooms = (int)v;
		return 0;
	case 'w':
		o->watchers = (int)v;
		return 0;
	case 'i':
		o->idle = (int)v;
		return 0;
	case 'R':
		o->rate = v;
		return 0;
	case 'W':
		o->warmup = v;
		return v <= 3600 ? 0 : -1;
	case 'd':
		o->duration = v;
		return v > 0 && v <= 3600 ? 0 : -1;
	case 'T':
		o->setup_timeout = v;
		return v <= 3600 ? 0 : -1;
	case 'a':
		o->addrs = (int)v;
		return v >= 1 && v <= MAX_ADDRS ? 0 : -1;
	case 'F':
		o->addr_first = (int)v;
		return v >= 1 && v <= MAX_ADDRS ? 0 : -1;
	case 'b':
		o->connect_burst = (int)v;
		return v >= 1 ? 0 : -1;
	case 'P':
		o->server_pid = (pid_t)v;
		return v >= 1 ? 0 : -1;
	case 's':
		o->seed = (uint64_t)v;
		return 0;
	}
	return -1;
}

static int opts_parse(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "host", required_argument, NULL, 'H' },
		{ "port", required_argument, NULL, 'p' },
		{ "game", required_argument, NULL, 'g' },
		{ "rooms", required_argument, NULL, 'r' },
		{ "watchers", required_argument, NULL, 'w' },
		{ "idle", required_argument, NULL, 'i' },
		{ "rate", required_argument, NULL, 'R' },
		{ "warmup", required_argument, NULL, 'W' },
		{ "duration", required_argument, NULL, 'd' },
		{ "setup-timeout", required_argument, NULL, 'T' },
		{ "addrs", required_argument, NULL, 'a' },
		{ "addr-first", required_argument, NULL, 'F' },
		{ "connect-burst", required_argument, NULL, 'b' },
		{ "no-autoroll", no_argument, NULL, 'A' },
		{ "server-pid", required_argument, NULL, 'P' },
		{ "seed", required_argument, NULL, 's' },
		{ "window-cmd", required_argument, NULL, 'X' },
		{ "json", no_argument, NULL, 'j' },
		{ "queued-writes", no_argument, NULL, 'q' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct lg_opts *o = &g.o;
	int ch;

	snprintf(o->host, sizeof(o->host), "127.0.0.1");
	o->addr_first = 1;
	o->game = "ur";
	o->rooms = 200;
	o->warmup = 2;
	o->duration = 10;
	o->setup_timeout = 30;
	o->connect_burst = 64;
	o->autoroll = true;
	o->seed = 1;
	while ((ch = getopt_long(argc, argv, "", longopts, NULL)) != -1) {
		if (ch == 'h') {
			usage(stdout);
			exit(0);
		}
		if (ch == '?' || opt_set(ch, optarg)) {
			if (ch != '?')
				fprintf(stderr, "quinteto-load: bad option value: %s\n", optarg);
			usage(stderr);
			return -1;
		}
	}
	if (optind < argc || !o->port) {
		usage(stderr);
		return -1;
	}
	return 0;
}

/* ---- setup ---- */

static int game_setup(void)
{
	const struct wire_game *w = wire_game_find(g.o.game);
	const struct wire_option *opt;
	int i;

	g.game = rules_game_find(g.o.game);
	if (!g.game || !w) {
		fprintf(stderr, "quinteto-load: unknown game %s; the registry has:", g.o.game);
		for (i = 0; rules_games[i]; i++)
			fprintf(stderr, " %s", rules_games[i]->id);
		fprintf(stderr, "\n");
		return -1;
	}
	for (opt = w->options; opt && opt->key; opt++)
		if (!strcmp(opt->key, "autoroll"))
			g.game_autoroll = true;
	return 0;
}

/* Source addresses and the descriptor limit for every connection. */
static int addrs_setup(void)
{
	struct rlimit rl;
	int total = g.o.rooms * room_size() + g.o.idle, i;

	int room_for = MAX_ADDRS - g.o.addr_first + 1; /* addresses up to 127.0.0.254 */

	if (!g.o.addrs)
		g.o.addrs = total / 200 + 1 > room_for ? room_for : total / 200 + 1;
	if (g.o.addrs > room_for) {
		fprintf(stderr,
			"quinteto-load: --addr-first %d leaves room for %d source addresses, not %d\n",
			g.o.addr_first, room_for, g.o.addrs);
		return -1;
	}
	for (i = 0; i < g.o.addrs; i++)
		snprintf(g.addrs[i], sizeof(g.addrs[i]), "127.0.0.%d", g.o.addr_first + i);
	snprintf(g.addr_range, sizeof(g.addr_range), "127.0.0.%d-127.0.0.%d", g.o.addr_first,
		 g.o.addr_first + g.o.addrs - 1);
	if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < rl.rlim_max) {
		rl.rlim_cur = rl.rlim_max;
		setrlimit(RLIMIT_NOFILE, &rl);
	}
	if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && (rlim_t)total + 64 > rl.rlim_cur) {
		fprintf(stderr,
			"quinteto-load: %d connections need more descriptors than RLIMIT_NOFILE (%llu)\n",
			total, (unsigned long long)rl.rlim_cur);
		return -1;
	}
	return 0;
}

static int lws_setup(void)
{
	struct lws_context_creation_info info;
	void *foreign_loops[1] = { &g.loop };

	lws_set_log_level(LLL_ERR, NULL);
	memset(&info, 0, sizeof(info));
	info.port = CONTEXT_PORT_NO_LISTEN;
	info.protocols = protocols;
	info.options = LWS_SERVER_OPTION_LIBUV;
	info.foreign_loops = foreign_loops;
	info.fd_limit_per_thread = (unsigned)g.nconns + 64;
	info.timeout_secs = 20;
	g.ctx = lws_create_context(&info);
	return g.ctx ? 0 : -1;
}

int main(int argc, char **argv)
{
	if (opts_parse(argc, argv) || game_setup() || addrs_setup())
		return 2;
	g.rng = g.o.seed * 0x9e3779b97f4a7c15ull + 1;
	g.lat = malloc(sizeof(*g.lat));
	if (!g.lat || conns_alloc()) {
		fprintf(stderr, "quinteto-load: out of memory\n");
		return 2;
	}
	hist_init(g.lat);
	uv_loop_init(&g.loop);
	if (lws_setup()) {
		fprintf(stderr, "quinteto-load: cannot create the lws context\n");
		return 2;
	}
	uv_timer_init(&g.loop, &g.tick);
	g.phase = LG_SETUP;
	g.phase_end = uv_hrtime() + (uint64_t)(g.o.setup_timeout * 1e9);
	uv_timer_start(&g.tick, tick_cb, 10, 10);
	if (g.o.rate > 0) {
		uv_timer_init(&g.loop, &g.pace);
		g.credit_t = uv_hrtime();
		uv_timer_start(&g.pace, pace_cb, 1, 1);
	}
	lg_sample_take(&g.pre, g.o.server_pid);
	connect_more();
	uv_run(&g.loop, UV_RUN_DEFAULT);
	if (g.ctx)
		lws_context_destroy(g.ctx);
	uv_run(&g.loop, UV_RUN_DEFAULT);
	if (uv_loop_close(&g.loop))
		fprintf(stderr, "quinteto-load: loop closed with handles open\n");
	conns_free();
	free(g.lat);
	return g.exit_code;
}
