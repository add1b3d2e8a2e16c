/*
 * handlers_account.c: the account messages (PROTOCOL.md "Accounts and
 * ratings", docs/ACCOUNTS.md): claim, sign_in, sign_out, account, password,
 * end_session and delete_account. Each is a small chain of steps off the
 * loop: a password hash or check on the hashing pool (base/pwhash.h), then
 * a job of the store's writer (store.h, accounts), and the reply once that
 * committed. One request at a time per connection, held in an `acct_op`
 * that the connection points at; when the connection closes, its hash is
 * taken out of the queue (or answered to nobody) and the store's answer is
 * dropped, so a client that went costs nothing more.
 *
 * Before anything is hashed, the limits (lobby_limits.c) are asked: an
 * attempt past them is `rate_limited` and costs nothing. A wrong password
 * and an unknown handle take the same path to the same answer: an unknown
 * handle is checked against the pool's dummy hash.
 */
#include "net/handlers_int.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/pwhash.h"
#include "cluster/cluster.h"
#include "room/room.h"
#include "store/store.h"
#include "base/util.h"

#define WRONG_CREDENTIALS "wrong handle or password"
#define SEATS_HELD        "leave or finish your waiting and playing rooms first"
#define SESSIONS_MAX      20 /* an account's sessions; the least recently seen ends past it */

enum acct_step { STEP_HASH, STEP_VERIFY, STEP_STORE };

struct acct_op {
	struct handlers *h;
	struct session *s; /* NULL once the connection closed: the answer goes to nobody */
	int type;          /* enum wire_type of the request */
	json_t *id;        /* the request's id (a copy), NULL if none */
	struct pwhash_job *job;
	struct store_acct *a; /* the store request being built or sent */
	char token[64];       /* sign_in: the new session's token (only its hash is stored) */
	char password[520];   /* sign_in: the one to check; password: the new one, hashed once the old checked
			       */
	char old[520];        /* password: the current one; delete_account: the one given (checked, wiped) */
	bool in_store;        /* a store job is out: its callback frees the op */
	bool reserved;        /* a failed check reserved (reserve()), not yet given back nor kept */
};

/* --- small helpers ---------------------------------------------------------- */

static void op_free(struct acct_op *op)
{
	if (op->s)
		op->s->acct = NULL;
	json_decref(op->id);
	store_acct_free(op->a);
	memset(op->password, 0, sizeof(op->password));
	memset(op->old, 0, sizeof(op->old));
	free(op);
}

/* The op's failed check is reserved on its handle (sign_in, password, delete_account) until settled. */
static void reserve(struct acct_op *op)
{
	lobby_account_failed(op->h->lobby, op->s->addr, op->a->key);
	op->reserved = true;
}

/* Nothing was checked (or it matched): the failure reserved, if any, goes back, once. */
static void unreserve(struct acct_op *op)
{
	if (op->reserved && op->s)
		lobby_account_unfailed(op->h->lobby, op->s->addr, op->a->key);
	op->reserved = false;
}

static void reply_error(struct acct_op *op, int code, const char *message)
{
	if (op->s)
		session_send_error(op->s, code, message, op->id);
}

/* 8..128 printable characters (the contract's rule for a new password). */
static bool password_valid(const char *pw)
{
	size_t chars = 0;

	for (const char *c = pw; *c; c++)
		chars += ((unsigned char)*c & 0xC0) != 0x80;
	return chars >= 8 && wire_text_valid(pw, 128);
}

static void copy(char *dst, size_t n, const char *src)
{
	snprintf(dst, n, "%s", src ? src : "");
}

/* The account message of `a` (after VIEW or a change) to connection `s`, with `id` (NULL: a push). */
static void account_to(struct session *s, const struct store_acct *a, const json_t *id)
{
	struct wire_session ws[64];
	struct wire_rating wr[32];
	struct wire_account wa = { a->handle, a->player_id, a->name, a->created_at, ws, 0, wr, 0 };
	size_t i;

	for (i = 0; i < a->nsessions && i < 64; i++)
		ws[wa.nsessions++] =
			(struct wire_session){ a->sessions[i].id, a->sessions[i].device,
					       a->sessions[i].created_at, a->sessions[i].seen_at,
					       !strcmp(a->sessions[i].token_hash, s->token_hash) };
	for (i = 0; i < a->nratings && i < 32; i++)
		wr[wa.nratings++] = (struct wire_rating){ a->ratings[i].game, a->ratings[i].rating,
							  a->ratings[i].rd, a->ratings[i].matches };
	session_send_json(s, wire_account_new(&wa, id));
}

/* The account message of `a` (after VIEW or a change), to the op's connection. */
static void send_account(struct acct_op *op, const struct store_acct *a)
{
	if (op->s)
		account_to(op->s, a, op->id);
}

/*
 * Issue 26 (rated rooms): the account view read after a rated match's
 * ratings committed, pushed as `account` without id to every connection
 * speaking for that identity now (none left: nothing is sent).
 */
static void rated_viewed(void *ctx, struct store_acct *a)
{
	struct handlers *h = ctx;
	struct session *first = h->sessions ? h->sessions->ka_cursor : NULL, *t = first;

	if (!a->err && t)
		do {
			if (t->player && !t->dead && !t->close_state &&
			    !strcmp(player_id(t->player), a->player_id))
				account_to(t, a, NULL);
			t = t->ka_next;
		} while (t && t != first);
	store_acct_free(a);
}

void handlers_rated_push(void *ctx, struct player *p)
{
	struct handlers *h = ctx;
	struct store_acct *a;

	/* nobody connected: nothing is queued (it sees its figures when it asks or signs in) */
	if (!player_handle(p) || !player_connected(p) || !h->store || !(a = store_acct_new(STORE_ACCT_VIEW)))
		return;
	copy(a->player_id, sizeof(a->player_id), player_id(p));
	a->cb = rated_viewed;
	a->ctx = h;
	store_acct_submit(h->store, a);
}

size_t handlers_sign_out_tokens(struct handlers *h, struct session *except, char (*hashes)[65], size_t n,
				const char *reason)
{
	struct session *t, *first;
	size_t i, out = 0;

	if (!n || !(first = h->sessions ? h->sessions->ka_cursor : NULL))
		return 0;
	t = first;
	do {
		struct session *next = t->ka_next;

		if (t != except && !t->player && !t->dead && !t->close_state)
			(void)handlers_hello_revoke(t, hashes, n); /* its read may have found the session */
		else if (t != except && t->player && !t->dead && !t->close_state)
			for (i = 0; i < n; i++)
				if (!strcmp(t->token_hash, hashes[i])) {
					session_send_json(t, wire_signed_out_new(reason, NULL));
					/* a request it had in flight no longer speaks for the account; its
					 * check will not be seen, so the failure reserved for it goes back */
					if (t->acct)
						unreserve(t->acct);
					handlers_account_closed(h, t);
					handlers_detach(h, t);
					out++;
					break;
				}
		t = next;
	} while (t && t != first);
	return out;
}

/*
 * The sessions this node ended (their token hashes; committed): counted, their connections here (but
 * `except`) signed out, and the other nodes told, which sign out theirs (docs/ACCOUNTS.md).
 */
static void sign_out_sessions(struct handlers *h, struct session *except, char (*ended)[65], size_t n,
			      const char *reason)
{
	if (!n)
		return;
	h->metrics->acct_sessions_ended += n;
	cluster_sessions_ended(lobby_cluster(h->lobby), reason, ended, n);
	(void)handlers_sign_out_tokens(h, except, ended, n, reason);
}

/* The op's connection is signed out (its own request ended its session). */
static void sign_out_self(struct acct_op *op, const char *reason)
{
	if (!op->s)
		return;
	session_send_json(op->s, wire_signed_out_new(reason, op->id));
	handlers_detach(op->h, op->s);
}

/* The token hashes `a` ended include the op's connection's own. */
static bool ended_self(const struct acct_op *op, const struct store_acct *a)
{
	for (size_t i = 0; op->s && i < a->nended; i++)
		if (!strcmp(a->ended[i], op->s->token_hash))
			return true;
	return false;
}

/* A new op for `s`'s request, or NULL with the error sent (one at a time; out of memory). */
static struct acct_op *op_new(struct handlers *h, struct session *s, struct wire_msg *m,
			      enum store_acct_kind kind)
{
	struct acct_op *op;

	if (s->acct) {
		session_send_error(s, WIRE_E_BUSY, "one account request at a time: wait for the answer",
				   wire_msg_id(m));
		return NULL;
	}
	op = calloc(1, sizeof(*op));
	if (!op || !(op->a = store_acct_new(kind))) {
		free(op);
		session_send_error(s, WIRE_E_INTERNAL, "out of memory", wire_msg_id(m));
		return NULL;
	}
	op->h = h;
	op->s = s;
	op->type = m->type;
	op->id = m->id ? json_deep_copy(m->id) : NULL;
	s->acct = op;
	return op;
}

/* The store job's answer: `done` runs for a connection still there. */
static void store_cb(void *ctx, struct store_acct *a);

static void store_send(struct acct_op *op)
{
	op->in_store = true;
	op->a->cb = store_cb;
	op->a->ctx = op;
	store_acct_submit(op->h->store, op->a);
}

/* A refusal for a database that cannot be written: nothing changed. */
static bool store_refuses(struct handlers *h, struct session *s, struct wire_msg *m)
{
	if (h->pwhash && h->store && !store_journal_failing(h->store))
		return false;
	session_send_refusal(s, WIRE_E_UNAVAILABLE,
			     "the server cannot save to its database right now; try again shortly",
			     wire_msg_id(m));
	return true;
}

static bool limited(struct handlers *h, struct session *s, struct wire_msg *m, const char *key, bool try)
{
	char why[160];
	int wait = 0;

	if (!lobby_account_refused(h->lobby, s->addr, key, try, &wait))
		return false;
	if (m->type == WIRE_SIGN_IN)
		h->metrics->acct_sign_in_limited++;
	snprintf(why, sizeof(why), "too many attempts: try again in %d s", wait);
	session_send_error(s, WIRE_E_RATE_LIMITED, why, wire_msg_id(m));
	return true;
}

static void hash_cb(void *ctx, int err, const char *hash, bool match);

/* Queues the op's hash (password) or check (password against hash; NULL: the dummy). False: busy. */
static bool hash_send(struct acct_op *op, const char *password, bool verify, const char *hash)
{
	if (!op->h->pwhash) /* shutting down */
		op->job = NULL;
	else
		op->job = verify ? pwhash_verify(op->h->pwhash, password, hash, hash_cb, op)
				 : pwhash_hash(op->h->pwhash, password, hash_cb, op);
	if (op->job)
		return true;
	unreserve(op); /* nothing checked */
	op->h->metrics->acct_busy++;
	reply_error(op, WIRE_E_BUSY, "the server is busy checking passwords: try again in a moment");
	op_free(op);
	return false;
}

/* A session's public id and a sign-in's new token. */
static int new_session(struct acct_op *op, bool token)
{
	uint8_t raw[24];
	int err = util_random_id("s", 10, op->a->session_id);

	if (!err && token && !(err = util_random(raw, sizeof(raw)))) {
		wire_hex_encode(raw, sizeof(raw), op->token);
		handlers_token_hash(op->token, op->a->token_hash);
	}
	return err;
}

/* --- claim -------------------------------------------------------------------- */

void handlers_claim(struct handlers *h, struct session *s, struct wire_msg *m, bool allowed)
{
	char key[HANDLE_SIZE];
	const char *why;
	struct acct_op *op;

	if (player_handle(s->player)) {
		session_send_error(s, WIRE_E_ALREADY_CLAIMED, "this identity is an account already", m->id);
		return;
	}
	if (!h->cfg->signups) {
		session_send_error(s, WIRE_E_SIGNUPS_DISABLED, "this server takes no new accounts", m->id);
		return;
	}
	if ((why = handle_check(m->handle, key))) {
		session_send_error(s, WIRE_E_BAD_HANDLE, why, m->id);
		return;
	}
	if (!password_valid(m->password)) {
		session_send_error(s, WIRE_E_BAD_PASSWORD, "a password is 8 to 128 printable characters",
				   m->id);
		return;
	}
	if (store_refuses(h, s, m) || limited(h, s, m, NULL, true) ||
	    !(op = op_new(h, s, m, STORE_ACCT_CLAIM)))
		return;
	lobby_account_tried(h->lobby, s->addr);
	copy(op->a->player_id, sizeof(op->a->player_id), player_id(s->player));
	copy(op->a->name, sizeof(op->a->name), player_name(s->player));
	copy(op->a->handle, sizeof(op->a->handle), m->handle);
	copy(op->a->key, sizeof(op->a->key), key);
	copy(op->a->token_hash, sizeof(op->a->token_hash), s->token_hash);
	copy(op->a->device, sizeof(op->a->device), m->device);
	op->a->now = util_now_ms(); /* the account's and its first session's created_at (was 0) */
	if (new_session(op, false)) {
		reply_error(op, WIRE_E_INTERNAL, "no random source");
		op_free(op);
		return;
	}
	(void)hash_send(op, m->password, false, NULL);
}

static void claim_done(struct acct_op *op, struct store_acct *a)
{
	struct player *p = op->s->player;

	if (a->err == STORE_E_TAKEN) {
		reply_error(op, WIRE_E_HANDLE_TAKEN, "another account has that handle (or one too like it)");
		return;
	}
	if (a->err == STORE_E_CLAIMED) { /* another tab of this guest claimed it a moment ago */
		reply_error(op, WIRE_E_ALREADY_CLAIMED, "this identity is an account already");
		return;
	}
	if (!p || strcmp(player_id(p), a->player_id)) /* the connection signed in elsewhere meanwhile */
		return;
	op->h->metrics->acct_claims++;
	player_set_handle(p, a->handle);
	lobby_player_claimed(op->h->lobby, p);
	send_account(op, a);
}

/* --- sign_in ------------------------------------------------------------------- */

void handlers_sign_in(struct handlers *h, struct session *s, struct wire_msg *m, bool allowed)
{
	char key[HANDLE_SIZE];
	struct acct_op *op;

	if (store_refuses(h, s, m))
		return;
	if (handle_check(m->handle, key)) { /* no account can have it: the same answer as any miss */
		h->metrics->acct_sign_in_wrong++;
		session_send_error(s, WIRE_E_WRONG_CREDENTIALS, WRONG_CREDENTIALS, m->id);
		return;
	}
	if (limited(h, s, m, key, true) || !(op = op_new(h, s, m, STORE_ACCT_FIND)))
		return;
	lobby_account_tried(h->lobby, s->addr);
	copy(op->a->key, sizeof(op->a->key), key);
	reserve(op); /* given back if the password matches */
	copy(op->a->device, sizeof(op->a->device), m->device);
	copy(op->password, sizeof(op->password), m->password);
	store_send(op);
}

static void sign_in_found(struct acct_op *op, struct store_acct *a)
{
	bool found = !a->err;

	if (a->err && a->err != STORE_E_NOT_FOUND) {
		unreserve(op); /* nothing checked */
		reply_error(op, WIRE_E_UNAVAILABLE,
			    "the server cannot read its database right now; try again");
		op_free(op);
		return;
	}
	op->in_store = false;
	if (!hash_send(op, op->password, true, found ? a->pw_hash : NULL))
		return;
	memset(op->password, 0, sizeof(op->password));
}

static void sign_in_checked(struct acct_op *op, bool match)
{
	struct store_acct *a = op->a;

	if (!match) { /* the failure reserved when it was accepted stands */
		op->reserved = false;
		op->h->metrics->acct_sign_in_wrong++;
		reply_error(op, WIRE_E_WRONG_CREDENTIALS, WRONG_CREDENTIALS);
		op_free(op);
		return;
	}
	unreserve(op);
	a->kind = STORE_ACCT_SIGN_IN;
	a->now = util_now_ms();
	a->max_sessions = SESSIONS_MAX;
	if (new_session(op, true)) {
		reply_error(op, WIRE_E_INTERNAL, "no random source");
		op_free(op);
		return;
	}
	store_send(op);
}

static void sign_in_done(struct acct_op *op, struct store_acct *a)
{
	struct handlers *h = op->h;
	struct player *p;

	if (a->err == STORE_E_STALE || a->err == STORE_E_NOT_FOUND) { /* changed or deleted meanwhile */
		h->metrics->acct_sign_in_wrong++;
		reply_error(op, WIRE_E_WRONG_CREDENTIALS, WRONG_CREDENTIALS);
		return;
	}
	h->metrics->acct_sign_in_ok++;
	sign_out_sessions(h, op->s, a->ended, a->nended, "ended");
	/* its ratings were read in the sign-in's own transaction: nothing more is read here */
	p = lobby_player_account(h->lobby, a->player_id, a->name, a->handle, a->ratings, a->nratings);
	if (!p) {
		reply_error(op, WIRE_E_INTERNAL, "out of memory");
		return;
	}
	handlers_detach(h, op->s);
	if (handlers_attach(h, op->s, p, op->token, op->id, NULL, false, &a->held)) {
		reply_error(op, WIRE_E_INTERNAL, "out of memory");
		return;
	}
	send_account(op, a);
}

/* --- sign_out, account, end_session -------------------------------------------- */

/* An op for a request that needs an account; NULL with not_signed_in (or another refusal) sent. */
static struct acct_op *account_op(struct handlers *h, struct session *s, struct wire_msg *m,
				  enum store_acct_kind kind)
{
	struct acct_op *op;

	if (!player_handle(s->player)) {
		session_send_error(s, WIRE_E_NOT_SIGNED_IN, "sign in (or claim an account) first",
				   wire_msg_id(m));
		return NULL;
	}
	if (store_refuses(h, s, m) || !(op = op_new(h, s, m, kind)))
		return NULL;
	copy(op->a->player_id, sizeof(op->a->player_id), player_id(s->player));
	copy(op->a->token_hash, sizeof(op->a->token_hash), s->token_hash);
	handle_check(player_handle(s->player), op->a->key);
	op->a->now = util_now_ms();
	return op;
}

void handlers_sign_out(struct handlers *h, struct session *s, struct wire_msg *m, bool allowed)
{
	struct acct_op *op = account_op(h, s, m, STORE_ACCT_END);

	if (op)
		store_send(op);
}

void handlers_account(struct handlers *h, struct session *s, struct wire_msg *m, bool allowed)
{
	struct acct_op *op = account_op(h, s, m, STORE_ACCT_VIEW);

	if (op)
		store_send(op);
}

void handlers_end_session(struct handlers *h, struct session *s, struct wire_msg *m, bool allowed)
{
	struct acct_op *op = account_op(h, s, m, STORE_ACCT_END);

	if (!op)
		return;
	copy(op->a->session_id, sizeof(op->a->session_id), m->session);
	store_send(op);
}

static void end_done(struct acct_op *op, struct store_acct *a)
{
	bool self = ended_self(op, a);

	if (a->err == STORE_E_NOT_FOUND && op->type == WIRE_END_SESSION) {
		reply_error(op, WIRE_E_UNKNOWN_SESSION, "no such session of this account");
		return;
	}
	/* sign_out: a session already gone (ended elsewhere a moment ago) is signed out all the same */
	sign_out_sessions(op->h, op->s, a->ended, a->nended,
			  op->type == WIRE_SIGN_OUT ? "signed_out" : "ended");
	if (op->type == WIRE_SIGN_OUT || self) {
		sign_out_self(op, op->type == WIRE_SIGN_OUT ? "signed_out" : "ended");
		return;
	}
	send_account(op, a);
}

/* --- password, delete_account (the current password checked first) ------------- */

/*
 * password and delete_account: an account request metered on its handle; the password it gives to check
 * (`current`) and, for password, the new one kept; then the account's hash is read off the loop, to check
 * `current` against.
 */
static void secret_request(struct handlers *h, struct session *s, struct wire_msg *m, const char *current,
			   const char *new_password)
{
	struct acct_op *op = account_op(h, s, m, STORE_ACCT_VIEW);

	if (!op)
		return;
	if (limited(h, s, m, op->a->key, false)) {
		op_free(op);
		return;
	}
	reserve(op); /* as in sign_in */
	copy(op->old, sizeof(op->old), current);
	if (new_password)
		copy(op->password, sizeof(op->password), new_password);
	store_send(op);
}

void handlers_password(struct handlers *h, struct session *s, struct wire_msg *m, bool allowed)
{
	if (player_handle(s->player) && !password_valid(m->new_password)) {
		session_send_error(s, WIRE_E_BAD_PASSWORD, "a password is 8 to 128 printable characters",
				   m->id);
		return;
	}
	secret_request(h, s, m, m->old_password, m->new_password);
}

/* Whether p holds a seat in a room that is waiting or playing (delete_account's seats_held). */
static bool holds_open_seat(const struct player *p)
{
	for (int i = 0; i < player_nrooms(p); i++)
		if (room_status(player_room(p, i)) != ROOM_FINISHED)
			return true;
	return false;
}

void handlers_delete_account(struct handlers *h, struct session *s, struct wire_msg *m, bool allowed)
{
	if (player_handle(s->player) && holds_open_seat(s->player)) {
		session_send_error(s, WIRE_E_SEATS_HELD, SEATS_HELD, m->id);
		return;
	}
	secret_request(h, s, m, m->password, NULL);
}

/* The account read: check the password the request gave against its hash. */
static void secret_read(struct acct_op *op, struct store_acct *a)
{
	op->in_store = false;
	if (hash_send(op, op->old, true, a->pw_hash))
		memset(op->old, 0, sizeof(op->old));
}

static void secret_checked(struct acct_op *op, bool match)
{
	if (!match) { /* the failure reserved stands */
		op->reserved = false;
		reply_error(op, WIRE_E_WRONG_CREDENTIALS, WRONG_CREDENTIALS);
		op_free(op);
		return;
	}
	unreserve(op);
	if (op->type == WIRE_DELETE_ACCOUNT) {
		struct player *p = op->s->player;

		/* a seat taken while the password was checked: refused now, before anything is deleted */
		if (p && holds_open_seat(p)) {
			reply_error(op, WIRE_E_SEATS_HELD, SEATS_HELD);
			op_free(op);
			return;
		}
		if (p) /* join, create and rematch refuse it until the deletion is answered */
			player_set_deleting(p, true);
		op->a->kind = STORE_ACCT_DELETE;
		store_send(op);
		return;
	}
	(void)hash_send(op, op->password, false, NULL); /* the new one */
	memset(op->password, 0, sizeof(op->password));
}

static void password_done(struct acct_op *op, struct store_acct *a)
{
	if (a->err) {
		reply_error(op, WIRE_E_NOT_SIGNED_IN, "this account is gone");
		return;
	}
	sign_out_sessions(op->h, op->s, a->ended, a->nended, "password");
	send_account(op, a);
}

static void delete_done(struct acct_op *op, struct store_acct *a)
{
	struct player *p = lobby_player_by_id(op->h->lobby, a->player_id);

	if (a->err == STORE_E_TAKEN) { /* a seat in a room of another node: nothing was deleted */
		reply_error(op, WIRE_E_SEATS_HELD, SEATS_HELD);
		return;
	}

	sign_out_sessions(op->h, op->s, a->ended, a->nended, "deleted");
	if (p && !a->err) {
		/* the live identity is a guest nobody can reach: no token leads to it any more */
		player_set_handle(p, NULL);
		player_rename(p, "(deleted)", util_now_ms());
	}
	sign_out_self(op, "deleted");
}

/* --- the steps' answers ------------------------------------------------------------ */

static void hash_cb(void *ctx, int err, const char *hash, bool match)
{
	struct acct_op *op = ctx;

	op->job = NULL;
	if (!op->s) {
		op_free(op);
		return;
	}
	if (err) {
		unreserve(op); /* nothing checked */
		reply_error(op, err == -ECANCELED ? WIRE_E_UNAVAILABLE : WIRE_E_INTERNAL,
			    err == -ECANCELED ? "the server is stopping"
					      : "the password could not be hashed");
		op_free(op);
		return;
	}
	if (hash) { /* a new hash: claim, or password's new one */
		copy(op->a->pw_hash, sizeof(op->a->pw_hash), hash);
		if (op->type == WIRE_PASSWORD)
			op->a->kind = STORE_ACCT_PASSWORD;
		store_send(op);
		return;
	}
	if (op->type == WIRE_SIGN_IN)
		sign_in_checked(op, match);
	else
		secret_checked(op, match);
}

static void store_cb(void *ctx, struct store_acct *a)
{
	struct acct_op *op = ctx;

	op->in_store = false;
	if (op->type == WIRE_DELETE_ACCOUNT && a->kind == STORE_ACCT_DELETE && a->err) {
		struct player *p = lobby_player_by_id(op->h->lobby, a->player_id);

		if (p) /* nothing was deleted: it may take seats again */
			player_set_deleting(p, false);
	}
	if (!op->s) { /* answered to nobody; what committed still takes effect on the other connections */
		if (!a->err && a->kind == STORE_ACCT_DELETE)
			delete_done(op, a);
		else if (!a->err && (a->kind == STORE_ACCT_PASSWORD || a->kind == STORE_ACCT_END))
			sign_out_sessions(op->h, NULL, a->ended, a->nended,
					  a->kind == STORE_ACCT_PASSWORD ? "password" : "ended");
		op_free(op);
		return;
	}
	if (a->err == STORE_E_SIGNED_OUT) { /* its session was ended elsewhere meanwhile: nothing changed */
		char gone[1][65];

		unreserve(op); /* nothing checked */
		/* its other connections here go too */
		memcpy(gone[0], op->s->token_hash, sizeof(gone[0]));
		(void)handlers_sign_out_tokens(op->h, op->s, gone, 1, "revoked");
		sign_out_self(op, "revoked");
		op_free(op);
		return;
	}
	if (a->kind == STORE_ACCT_FIND) {
		sign_in_found(op, a);
		return;
	}
	if (a->kind == STORE_ACCT_VIEW && (op->type == WIRE_PASSWORD || op->type == WIRE_DELETE_ACCOUNT)) {
		if (!a->err) {
			secret_read(op, a);
			return;
		}
		unreserve(op); /* nothing checked */
	}
	if (a->err && a->err != STORE_E_TAKEN && a->err != STORE_E_NOT_FOUND && a->err != STORE_E_STALE &&
	    a->err != STORE_E_CLAIMED) {
		reply_error(op, WIRE_E_UNAVAILABLE,
			    "the server cannot save to its database right now; nothing changed, try again");
	} else {
		switch (a->kind) {
		case STORE_ACCT_CLAIM:
			claim_done(op, a);
			break;
		case STORE_ACCT_SIGN_IN:
			sign_in_done(op, a);
			break;
		case STORE_ACCT_END:
			end_done(op, a);
			break;
		case STORE_ACCT_PASSWORD:
			password_done(op, a);
			break;
		case STORE_ACCT_DELETE:
			delete_done(op, a);
			break;
		default:
			if (a->err)
				reply_error(op, WIRE_E_NOT_SIGNED_IN, "this account is gone");
			else
				send_account(op, a);
		}
	}
	op_free(op);
}

void handlers_account_closed(struct handlers *h, struct session *s)
{
	struct acct_op *op = s->acct;

	if (!op)
		return;
	s->acct = NULL;
	op->s = NULL;
	op->reserved = false; /* a connection gone before its answer: the failure stands (ACCOUNTS.md) */
	if (op->job) {        /* waiting for (or in) a hash: out of the queue now */
		pwhash_cancel(op->job);
		op->job = NULL;
		if (!op->in_store)
			op_free(op);
	}
	/* a store job out frees it in store_cb */
}
