/*
 * handlers_hello.c: `hello`, the first message of a connection. A token
 * whose identity is in memory is answered at once. One that is not (an
 * identity idle since the start or evicted, or an account's session, whose
 * tokens the store alone knows) is read on the store's lookup thread,
 * identity and ratings together (store_player_load), and its answer
 * completes the hello on the loop: the loop never waits on the database for
 * a hello. On a node of a cluster the same read also finds the seats the
 * identity holds on other nodes (the welcome's `elsewhere`), and a token
 * whose identity is in memory has those seats read the same way, within the
 * same caps, before its welcome (past the caps it is welcomed at once
 * without them: never refused for them).
 *
 * While the read is out the connection is not read (lws rx flow control):
 * the messages sent behind the hello stay in the socket (or in lws' buffer)
 * in their order and are handled, none refused, once the welcome is queued;
 * this costs no memory of ours and TCP pushes back on a client that sends on
 * (a queue of messages would need a bound, and a refusal past it). A paused
 * connection's hang-up is seen on an epoll set of our own (EPOLLRDHUP, as
 * http.c does for its paused requests): its read is cancelled and the
 * connection closed. A connection that closes otherwise has its read
 * cancelled (handlers_hello_closed): its answer is never delivered, so
 * nothing is done for a connection that is gone; the answer also checks the
 * connection's id against the one that asked. A session ended while its
 * hello's read is out (handlers_sign_out_tokens: here, or another node's
 * word) marks the op: whatever the read found, the hello is answered as for
 * an unknown token, a new guest, as a hello after the end would be.
 *
 * Bounded: HELLO_LOOKUPS reads out in all (past it `busy`: the server is at
 * a limit of work) and HELLO_LOOKUPS_PER_ADDR from one address (past it
 * `rate_limited`, no strike: the sender's own address). A store that cannot
 * read (PostgreSQL away, no answer in time) answers `unavailable`, the
 * connection open: nothing is made, the client says hello again later.
 */
#include "net/handlers_int.h"

#include <assert.h>
#include <errno.h>
#include <libwebsockets.h>
#include <stdlib.h>
#include <string.h>

#include "player/player.h"
#include "store/store.h"
#include "wire.h"

#define CANNOT_READ "the server cannot read its database right now; try again shortly"

struct hello_op {
	struct handlers *h;
	struct session *s;     /* the op ends before its connection closes (handlers_hello_closed) */
	uint64_t sid;          /* s->id when it asked: the answer checks it */
	struct store_req *req; /* the read; NULL once answered */
	json_t *root;          /* the hello's tree: name, token, id and since borrow from it */
	const char *name, *token;
	json_t *id, *since;
	char hash[65]; /* the token's */
	bool counted;  /* in hellos_by_addr */
	bool held;     /* its identity was in memory: only its seats on other nodes are read */
	bool revoked;  /* its session ended while the read was out: answered as an unknown token */
	int fd;        /* its socket in the hang-up set, or -1 */
};

/*
 * The hello of `s`, its player known: `p` found by `token` (in memory or
 * read), or NULL: a new identity (absent or unknown token). As before the
 * read went off the loop: a new identity is refused while the journal fails
 * or past its address's allowance. `held`: the seats on other nodes read
 * with it (a cluster's; NULL: not read).
 */
static void hello_finish(struct handlers *h, struct session *s, struct player *p, const char *token,
			 const char *name, const json_t *id, json_t *since,
			 const struct store_held_list *held)
{
	static const struct store_held_list none = { .read = true };
	char out[80], old_name[PLAYER_NAME_SIZE];
	const char *refused;
	bool created = !p;

	if (!p && store_journal_failing(h->store)) { /* a new player must be saved before its welcome */
		h->metrics->journal_refused++;
		session_send_refusal(s, WIRE_E_UNAVAILABLE,
				     "the server cannot save to its database right now; try again shortly",
				     id);
		return;
	}
	if (!p && lobby_player_refused(h->lobby, s->addr, &refused)) {
		/* not session_rate_refuse(): no strike, the connection may still say hello with a token */
		session_send_error(s, WIRE_E_RATE_LIMITED, refused, id);
		return;
	}
	snprintf(old_name, sizeof(old_name), "%s", p ? player_name(p) : "");
	if (lobby_player_hello(h->lobby, p, token, name, out, sizeof(out), &p)) {
		session_send_error(s, WIRE_E_INTERNAL, "could not create a player", id);
		return;
	}
	if (created) {
		lobby_player_counted(h->lobby, s->addr);
		held = &none; /* a new identity holds no seat anywhere */
	}
	if (handlers_attach(h, s, p, out, id, since, *old_name && strcmp(old_name, player_name(p)), held))
		session_send_error(s, WIRE_E_INTERNAL, "out of memory", id);
}

/* The op is over: its counts, its watch and its pause go; `resume`: lws reads the connection again. */
static void op_end(struct hello_op *op, bool resume)
{
	struct handlers *h = op->h;
	struct session *s = op->s;

	h->hellos--;
	if (op->counted)
		(void)tally_add(&h->hellos_by_addr, s->addr, -1);
	hangups_unwatch(&h->hup, op->fd);
	s->hello = NULL;
	if (resume && s->wsi && !s->dead && !s->ss->stopping)
		(void)lws_rx_flow_control(s->wsi, 1); /* what waited behind the hello is read now */
	json_decref(op->root);
	free(op);
}

static void loaded_cb(void *ctx, int err, const struct store_identity *who);

/*
 * The seats elsewhere of an identity that was in memory: its welcome, with
 * them when they were read (a failed read leaves them out: the identity is
 * known, and it plays here all the same). True when the identity left
 * memory meanwhile (nothing held it): read whole, as any token not in
 * memory, the op going on (its answer finds it, committed before it left).
 */
static bool held_done(struct handlers *h, struct hello_op *op, int err, const struct store_identity *who)
{
	struct player *p = lobby_player_find(h->lobby, op->hash);

	if (p) {
		hello_finish(h, op->s, p, op->token, op->name, op->id, op->since, err ? NULL : &who->held);
		return false;
	}
	op->held = false;
	if ((op->req = store_player_load(h->store, op->hash, loaded_cb, op)))
		return true;
	h->metrics->hello_reads_failed++;
	session_send_refusal(op->s, WIRE_E_UNAVAILABLE, CANNOT_READ, op->id);
	return false;
}

static void loaded_cb(void *ctx, int err, const struct store_identity *who)
{
	struct hello_op *op = ctx;
	struct handlers *h = op->h;
	struct session *s = op->s;

	op->req = NULL;
	/* a read is cancelled when its connection closes, and a cancelled read is never answered
	 * (store_req_cancel): this is the connection that asked, still there */
	assert(s->hello == op && s->id == op->sid);
	if (s->dead || s->close_state || lobby_stopping(h->lobby)) {
		op_end(op, false);
		return;
	}
	if (op->held) { /* held_done() true: read again, whole, the op going on */
		if (held_done(h, op, err, who))
			return;
	} else if (err && err != STORE_E_NOT_FOUND && !op->revoked) { /* nothing made: it says hello again */
		h->metrics->hello_reads_failed++;
		session_send_refusal(s, WIRE_E_UNAVAILABLE, CANNOT_READ, op->id);
	} else if (err || op->revoked) { /* an unknown token, or its session ended meanwhile: a new guest */
		hello_finish(h, s, NULL, op->token, op->name, op->id, op->since, NULL);
	} else {
		hello_finish(h, s, lobby_player_loaded(h->lobby, op->hash, who), op->token, op->name, op->id,
			     op->since, &who->held);
	}
	op_end(op, true); /* after the welcome: what waited behind the hello is answered after it */
}

/* Pauses `s` while its read is out, and watches its socket for a hang-up. */
static void pause_conn(struct handlers *h, struct hello_op *op)
{
	(void)lws_rx_flow_control(op->s->wsi, 0); /* takes effect before lws parses the next byte */
	op->fd = hangups_watch(&h->hup, lws_get_socket_fd(op->s->wsi), op);
}

/* The read `op` asked for is out: the op is counted and its connection paused until the answer. */
static void op_begin(struct handlers *h, struct session *s, struct wire_msg *m, const char *hash,
		     struct hello_op *op)
{
	op->h = h;
	op->s = s;
	op->sid = s->id;
	op->root = json_incref(m->root);
	op->name = m->name;
	op->token = m->token;
	op->id = m->id;
	op->since = m->since_map;
	op->fd = -1;
	snprintf(op->hash, sizeof(op->hash), "%s", hash);
	h->hellos++;
	h->metrics->hello_reads++;
	op->counted = !tally_add(&h->hellos_by_addr, s->addr, 1); /* out of memory: counted in all only */
	s->hello = op;
	pause_conn(h, op);
}

/* Whether another read may start now for the address of `s` (the caps). */
static bool lookup_room(struct handlers *h, struct session *s)
{
	return h->hellos < HELLO_LOOKUPS && tally_get(&h->hellos_by_addr, s->addr) < HELLO_LOOKUPS_PER_ADDR;
}

/*
 * A token whose identity `p` is in memory, on a node of a cluster: the seats
 * it holds on other nodes are read as a token not in memory is, within the
 * same caps, before its welcome (so that what it sends behind its hello is
 * still answered after the welcome, in order). Past the caps, or when the
 * read cannot be queued, the welcome goes at once without them: the
 * identity is known, and it plays here all the same.
 */
static void held_start(struct handlers *h, struct session *s, struct wire_msg *m, const char *hash,
		       struct player *p)
{
	struct hello_op *op = lookup_room(h, s) ? calloc(1, sizeof(*op)) : NULL;

	if (op && (op->req = store_held_load(h->store, player_id(p), loaded_cb, op))) {
		op->held = true;
		op_begin(h, s, m, hash, op);
		return;
	}
	free(op);
	hello_finish(h, s, p, m->token, m->name, m->id, m->since_map, NULL);
}

/* A token that is not in memory: its read goes to the store, within the caps. */
static void lookup_start(struct handlers *h, struct session *s, struct wire_msg *m, const char *hash)
{
	struct hello_op *op;

	if (h->hellos >= HELLO_LOOKUPS) {
		h->metrics->hello_reads_refused++;
		session_send_error(s, WIRE_E_BUSY,
				   "the server is busy reading identities: try again in a moment", m->id);
		return;
	}
	if (!lookup_room(h, s)) {
		h->metrics->hello_reads_refused++;
		session_send_error(
			s, WIRE_E_RATE_LIMITED,
			"too many hellos from this address wait for the database: try again in a moment",
			m->id);
		return;
	}
	if (!(op = calloc(1, sizeof(*op)))) {
		session_send_error(s, WIRE_E_INTERNAL, "out of memory", m->id);
		return;
	}
	op->req = store_player_load(h->store, hash, loaded_cb, op);
	if (!op->req) {
		free(op);
		h->metrics->hello_reads_failed++;
		session_send_refusal(s, WIRE_E_UNAVAILABLE, CANNOT_READ, m->id);
		return;
	}
	op_begin(h, s, m, hash, op);
}

void handlers_hello(struct handlers *h, struct session *s, struct wire_msg *m, bool allowed)
{
	char hash[65];
	struct player *p = NULL;

	if (s->player) {
		session_send_error(s, WIRE_E_BAD_MESSAGE, "hello was already said on this connection", m->id);
		return;
	}
	if (m->token) {
		handlers_token_hash(m->token, hash);
		p = lobby_player_find(h->lobby, hash);
		if (h->store && p && lobby_cluster(h->lobby)) {
			held_start(h, s, m, hash, p);
			return;
		}
		if (h->store && !p) {
			lookup_start(h, s, m, hash);
			return;
		}
	}
	hello_finish(h, s, p, m->token, m->name, m->id, m->since_map, NULL);
}

void handlers_hello_closed(struct handlers *h, struct session *s)
{
	struct hello_op *op = s->hello;

	if (!op)
		return;
	h->metrics->hello_reads_dropped++;
	(void)store_req_cancel(op->req); /* its callback will not run, whether it was read yet or not */
	op_end(op, false);
}

void handlers_hello_expired(struct handlers *h, struct session *s)
{
	struct hello_op *op = s->hello;

	if (!op)
		return;
	h->metrics->hello_reads_expired++;
	(void)store_req_cancel(op->req); /* its callback will not run, whether it was read yet or not */
	loaded_cb(op, -ETIMEDOUT, NULL); /* answered as a read that failed (who is not read then) */
}

bool handlers_hello_revoke(struct session *s, char (*hashes)[65], size_t n)
{
	struct hello_op *op = s->hello;

	for (size_t i = 0; op && i < n; i++)
		if (!strcmp(op->hash, hashes[i]))
			return op->revoked = true;
	return false;
}

/* A paused connection hung up: its read is dropped, the connection closed. */
static void hung_up(void *item)
{
	struct hello_op *op = item;
	struct session *s = op->s;

	handlers_hello_closed(op->h, s);
	/* closed at lws' next service (LWS_CALLBACK_CLOSED then finds no read) */
	lws_set_timeout(s->wsi, PENDING_TIMEOUT_USER_OK, LWS_TO_KILL_ASYNC);
}

int handlers_hello_start(struct handlers *h, uv_loop_t *loop)
{
	return hangups_start(&h->hup, loop, hung_up);
}

void handlers_hello_stop(struct handlers *h)
{
	hangups_stop(&h->hup);
}
