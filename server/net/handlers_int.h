/*
 * handlers_int.h (private to server/net/): what a connection's messages do. Decodes each inbound frame,
 * applies the rate limit, and runs one small handler per message type (a
 * table), which calls the lobby and the rooms and sends the direct reply.
 * This is the one place where the modules' outcomes (ROOM_E_*, WIRE_E_*,
 * negative errno) become the protocol's error codes. Every refusal is an
 * `error` frame and changes nothing.
 *
 * Calls down into session, lobby, room and player; nothing calls it but the
 * network layer.
 */
#ifndef QUINTETO_HANDLERS_INT_H
#define QUINTETO_HANDLERS_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <uv.h>

#include "base/util.h"
#include "lobby/lobby.h"
#include "net/hangups.h"
#include "net/session_int.h"

struct store;
struct pwhash;
struct wire_msg;

/* The periodic check of the sessions (handlers_revoke.c). */
struct handlers_check {
	uv_timer_t timer;
	bool on;            /* the timer is initialised and not closed */
	bool out;           /* a chunk is with the store */
	bool stopping;      /* the server stops: answers go nowhere */
	char (*hashes)[65]; /* the check under way: the token hashes gathered (sorted, each once) */
	size_t n, next;     /* of hashes; the first not sent yet */
};

struct handlers {
	struct lobby *lobby;
	struct store *store;
	struct metrics *metrics;
	const struct config *cfg;
	struct pwhash *pwhash; /* the password-hashing pool (accounts); NULL: accounts answer unavailable */
	struct sessions *sessions; /* every connection (a rated match's push goes to its players') */
	struct handlers_check check;
	/* hellos waiting for the store's read of their token (handlers_hello.c), in all and by address */
	size_t hellos;
	struct tally hellos_by_addr;
	struct hangups hup; /* their sockets, watched for hang-ups */
};

/*
 * Issue 26: lobby_set_rated_hook()'s hook (ctx: the handlers): p's new
 * ratings, committed, pushed to its connections as `account` without id.
 */
void handlers_rated_push(void *ctx, struct player *p);

/*
 * The connection speaks for `p` from now on (hello, sign_in): its token
 * (whose hash it keeps), the `welcome` (with `account` for an account; on a
 * node of a cluster, with `elsewhere`, made of `held` when it was read: the
 * seats in rooms this node does not host, each with the node the directory
 * names, else the store's), and the states of p's rooms, as after hello. 0
 * or -ENOMEM (nothing sent). `held` is borrowed; NULL: not read.
 * handlers_detach(): back to before hello (its rooms unfollowed, its player
 * told the connection went).
 */
struct store_held_list;
int handlers_attach(struct handlers *h, struct session *s, struct player *p, const char *token,
		    const json_t *id, json_t *since_map, bool renamed, const struct store_held_list *held);
void handlers_detach(struct handlers *h, struct session *s);
void handlers_token_hash(const char *token, char out[65]);

/* The account messages (handlers_account.c), and a closing connection's account request dropped. */
void handlers_claim(struct handlers *h, struct session *s, struct wire_msg *m, bool allowed);
void handlers_sign_in(struct handlers *h, struct session *s, struct wire_msg *m, bool allowed);
void handlers_sign_out(struct handlers *h, struct session *s, struct wire_msg *m, bool allowed);
void handlers_account(struct handlers *h, struct session *s, struct wire_msg *m, bool allowed);
void handlers_password(struct handlers *h, struct session *s, struct wire_msg *m, bool allowed);
void handlers_end_session(struct handlers *h, struct session *s, struct wire_msg *m, bool allowed);
void handlers_delete_account(struct handlers *h, struct session *s, struct wire_msg *m, bool allowed);
void handlers_account_closed(struct handlers *h, struct session *s);

/*
 * Every connection (but `except`, may be NULL) speaking for one of the sessions of these token hashes
 * (borrowed) gets `signed_out` without id, with `reason` (a value of signed_out.json), and is back to
 * before hello; its account request in flight is dropped. Returns how many. A hello of one of them whose
 * read is out is answered as for an unknown token (handlers_hello_revoke; not counted). Counts nothing and
 * tells no other node: the caller does (handlers_account.c, for the ends it committed).
 */
size_t handlers_sign_out_tokens(struct handlers *h, struct session *except, char (*hashes)[65], size_t n,
				const char *reason);

/*
 * The periodic check (handlers_revoke.c, docs/ACCOUNTS.md): starts its timer (every cfg->session_check_s)
 * on `loop`; 0 or a libuv error. _stop(): no new check, answers go nowhere (at net_stop); _finish(): frees
 * what is left (at net_free). handlers_sessions_ended_cb() is cluster_on_sessions_ended()'s callback
 * (ctx: the handlers): another node ended these sessions.
 */
int handlers_check_start(struct handlers *h, uv_loop_t *loop);
void handlers_check_stop(struct handlers *h);
void handlers_check_finish(struct handlers *h);
void handlers_sessions_ended_cb(void *ctx, const char *reason, char (*hashes)[65], size_t n);

/*
 * hello (handlers_hello.c). A token not in memory is read off the loop
 * (store_player_load, identity and ratings together): meanwhile the
 * connection is not read (lws rx flow control), so the messages behind its
 * hello wait in order, in the socket, and its hang-up is watched for on an
 * epoll set of our own. At most HELLO_LOOKUPS reads wait in all (one more:
 * `busy`) and HELLO_LOOKUPS_PER_ADDR from one address (`rate_limited`).
 * handlers_hello_closed(): the connection closed: its read is dropped.
 * handlers_hello_expired(): the read outlived its bound (net.c's timer): it
 * is dropped and the hello answered as for a read that failed (`unavailable`,
 * the connection read again; a cluster's read of the seats elsewhere: the
 * welcome without them), s->hello NULL after unless another read began.
 * handlers_hello_start() / _stop(): the hang-up watch on `loop` (0 or a
 * negative errno); stop at shutdown, a second call doing nothing.
 */
#define HELLO_LOOKUPS          256
#define HELLO_LOOKUPS_PER_ADDR 32
void handlers_hello(struct handlers *h, struct session *s, struct wire_msg *m, bool allowed);
void handlers_hello_closed(struct handlers *h, struct session *s);
void handlers_hello_expired(struct handlers *h, struct session *s);
/*
 * The session of `s`'s waiting hello (its token's hash) is one of these (borrowed), ended while its read
 * was out: the read's answer is taken as the token's being unknown (a new guest), whatever the store read
 * before the end. False: `s` has no hello waiting, or another token.
 */
bool handlers_hello_revoke(struct session *s, char (*hashes)[65], size_t n);
int handlers_hello_start(struct handlers *h, uv_loop_t *loop);
void handlers_hello_stop(struct handlers *h);

/* One complete inbound text message of `s`. */
void handlers_receive(struct handlers *h, struct session *s, const char *data, size_t len);

/* lws closed `s`: it leaves the lobby, its rooms and its player, then is reaped. */
void handlers_closed(struct handlers *h, struct session *s);

#endif
