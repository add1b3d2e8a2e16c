/*
 * cluster.c: this node's connections to Redis on the server's own loop
 * (hiredis's libuv adapter; docs/SCALING.md, "The directory and the lobby").
 * Two connections: one for commands, one SUBSCRIBEd to the events channel.
 * Once both are up the node registers (a key with PX node_lease_ms, renewed
 * every third of it), announces the rooms it hosts and its summaries, and
 * reloads its mirror of the others (cluster_mirror.c).
 *
 * Each connection's first command is AUTH (redis_user, redis_password), or
 * PING when no password is set: nothing else (SUBSCRIBE included) is sent
 * until it is answered OK. An error answer (WRONGPASS, NOAUTH, a password
 * sent to a Redis without one, NOPERM) is a configuration error: logged
 * once until the node is up again, /readyz unready meanwhile
 * (cluster_redis_refused), and tried again on the usual back-off.
 *
 * Nothing waits for Redis: a command is sent and its answer handled when it
 * comes; the mirror answers every question meanwhile. When Redis goes (an
 * error, a closed connection, no answer to a renewal within a lease, no
 * connection within CLUSTER_CONNECT_MS) both connections are dropped and
 * tried again with a back-off from 100 ms to 2 s; the mirror stays as it
 * was (stale) until the next reload. The Redis host is resolved with
 * uv_getaddrinfo (on libuv's thread pool) because hiredis 0.14 would
 * resolve it with a blocking getaddrinfo on the loop.
 *
 * hiredis frees a context by itself after its connect callback reports a
 * failure and after its disconnect callback: those only forget the
 * pointer. Everything else drops connections from the retry timer's
 * callback (cluster_fail), never from inside one of hiredis's callbacks,
 * whose context hiredis may still use when the callback returns.
 */
#include "cluster/cluster_int.h"

#include <errno.h>
#include <hiredis/adapters/libuv.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/conf.h"
#include "base/metrics.h"

static void begin(struct cluster *c);

static void handle_closed_cb(uv_handle_t *h)
{
	struct cluster *c = h->data;

	c->handles--;
}

int cluster_new(uv_loop_t *loop, const struct config *cfg, struct metrics *m, struct cluster **out)
{
	struct cluster *c;

	*out = NULL;
	if (!cfg->node[0])
		return 0;
	c = calloc(1, sizeof(*c));
	if (!c)
		return -ENOMEM;
	c->loop = loop;
	c->cfg = cfg;
	c->m = m;
	snprintf(c->self, sizeof(c->self), "%.32s", cfg->node); /* conf.c checked: 1..32 */
	snprintf(c->reg, sizeof(c->reg), "{\"node\":\"%s\",\"port\":%d,\"started_ms\":%lld}", c->self,
		 cfg->port, (long long)util_now_ms());
	cluster_mirror_init(c);
	/* uv_timer_init cannot fail on a valid loop: the handles are counted as open from here */
	uv_timer_init(loop, &c->retry);
	uv_timer_init(loop, &c->tick);
	uv_timer_init(loop, &c->pub_timer);
	c->retry.data = c->tick.data = c->pub_timer.data = c->resolve.data = c;
	c->handles = 3;
	*out = c;
	return 0;
}

const char *cluster_node(const struct cluster *c)
{
	return c ? c->self : NULL;
}

bool cluster_redis_up(const struct cluster *c)
{
	return !c || c->state == CLUSTER_UP;
}

const char *cluster_redis_refused(const struct cluster *c)
{
	return c && c->refused ? c->refused_why : NULL;
}

void cluster_on_change(struct cluster *c, void (*cb)(void *ctx), void *ctx)
{
	if (!c)
		return;
	c->change_cb = cb;
	c->change_ctx = ctx;
}

void cluster_changed(struct cluster *c)
{
	if (c->change_cb)
		c->change_cb(c->change_ctx);
}

/* --- commands ------------------------------------------------------------------------------------ */

/* The answer to a command whose result only matters when it is an error (a full Redis, a bad script). */
static void check_cb(redisAsyncContext *ac, void *reply, void *priv)
{
	struct cluster *c = priv;
	redisReply *r = reply;

	if (r && r->type == REDIS_REPLY_ERROR)
		util_log_limited(&c->log_limit, LOG_WARN, "redis: a command failed: %s", r->str);
}

bool cluster_send(struct cluster *c, redisCallbackFn *fn, int argc, const char **argv, const size_t *lens)
{
	if (c->state != CLUSTER_UP || !c->cmd)
		return false;
	return redisAsyncCommandArgv(c->cmd, fn ? fn : check_cb, c, argc, argv, lens) == REDIS_OK;
}

/* Sends a command of NUL-terminated words. */
static bool send_words(struct cluster *c, redisCallbackFn *fn, int argc, const char **argv)
{
	size_t lens[8];
	int i;

	for (i = 0; i < argc && i < 8; i++)
		lens[i] = strlen(argv[i]);
	return cluster_send(c, fn, argc, argv, lens);
}

/* --- connecting, failing, retrying ---------------------------------------------------------------- */

/* Drops both connections now (never from inside a hiredis callback of theirs: see the file's comment). */
static void drop(struct cluster *c)
{
	redisAsyncContext *a = c->cmd, *b = c->sub;

	c->cmd = c->sub = NULL;
	c->cmd_ready = c->subscribed = false;
	c->renew_sent_ms = 0;
	cluster_reload_abandon(c);
	if (a)
		redisAsyncFree(a);
	if (b)
		redisAsyncFree(b);
}

static void retry_cb(uv_timer_t *t)
{
	begin(t->data);
}

/* The failure's second half, out of hiredis's callbacks: drop, then try again after the back-off. */
static void teardown_cb(uv_timer_t *t)
{
	struct cluster *c = t->data;

	drop(c);
	if (c->state != CLUSTER_WAITING)
		return;
	c->backoff_ms = c->backoff_ms ? c->backoff_ms * 2 : CLUSTER_BACKOFF_MIN_MS;
	if (c->backoff_ms > CLUSTER_BACKOFF_MAX_MS)
		c->backoff_ms = CLUSTER_BACKOFF_MAX_MS;
	uv_timer_start(&c->retry, retry_cb, (uint64_t)c->backoff_ms, 0);
}

/* cluster_fail(), logged or not (quiet: the caller said why). */
static void fail(struct cluster *c, const char *why, bool quiet)
{
	if (c->state == CLUSTER_IDLE || c->state == CLUSTER_STOPPING || c->state == CLUSTER_WAITING)
		return;
	if (!quiet && c->state == CLUSTER_UP)
		util_log(LOG_WARN,
			 "redis %s:%d: %s; the directory and the lobby of the other nodes are served as last "
			 "known until it is back",
			 c->cfg->redis.host, c->cfg->redis.port, why);
	else if (!quiet)
		util_log_limited(&c->log_limit, LOG_WARN, "redis %s:%d: %s; trying again", c->cfg->redis.host,
				 c->cfg->redis.port, why);
	c->state = CLUSTER_WAITING;
	cluster_reload_abandon(c);
	uv_timer_start(&c->retry, teardown_cb, 0, 0);
}

void cluster_fail(struct cluster *c, const char *why)
{
	fail(c, why, false);
}

/* What to do about Redis' answer `text` to our credentials (or to a command they do not allow). */
static const char *refusal_hint(const struct cluster *c, const char *text)
{
	if (!strncmp(text, "NOAUTH", 6))
		return "Redis wants a password: set redis_password";
	if (strstr(text, "without any password configured"))
		return "redis_password is set but this Redis has none (requirepass) and no such user: set it "
		       "there, or unset redis_password";
	if (!strncmp(text, "NOPERM", 6))
		return "redis_user's ACL lacks what a node needs (docs/SCALING.md lists it)";
	return c->cfg->redis_user[0] ? "redis_user and redis_password do not match an enabled ACL user"
				     : "redis_password is not the password of Redis' default user";
}

/*
 * Redis refused us (`text`, its answer): a configuration error, not an outage. Logged once until the node
 * is up again, never with the password (a Redis answer that held it is not shown); /readyz says it from
 * here on; then dropped and tried again on the back-off like any failure.
 */
static void refuse(struct cluster *c, const char *text)
{
	const char *pw = c->cfg->redis_password;

	if (pw[0] && strstr(text, pw))
		text = "(an answer that quoted the password: not shown)";
	if (!c->refused)
		util_log(
			LOG_ERROR,
			"redis %s:%d refused node %s (%s%s%s): \"%s\": %s; the node is not ready until it is "
			"accepted, and tries again (at most %d ms apart)",
			c->cfg->redis.host, c->cfg->redis.port, c->self,
			c->cfg->redis_user[0] ? "redis_user " : "",
			c->cfg->redis_user[0] ? c->cfg->redis_user : "the default user",
			pw[0] ? " with redis_password" : ", no redis_password", text, refusal_hint(c, text),
			CLUSTER_BACKOFF_MAX_MS);
	c->refused = true;
	snprintf(c->refused_why, sizeof(c->refused_why), "\"%s\": %s", text, refusal_hint(c, text));
	fail(c, "refused", true);
}

static void forget(struct cluster *c, const redisAsyncContext *ac)
{
	if (ac == c->cmd)
		c->cmd = NULL;
	else if (ac == c->sub)
		c->sub = NULL;
}

static void stopped_maybe(struct cluster *c)
{
	if (c->state == CLUSTER_STOPPING && !c->cmd && !c->sub && !uv_is_closing((uv_handle_t *)&c->retry)) {
		uv_timer_stop(&c->retry);
		uv_close((uv_handle_t *)&c->retry, handle_closed_cb);
	}
}

static void disconnect_cb(const redisAsyncContext *ac, int status)
{
	struct cluster *c = ac->data;

	if (ac != c->cmd && ac != c->sub)
		return; /* one we dropped */
	forget(c, ac);
	if (c->state == CLUSTER_STOPPING)
		stopped_maybe(c);
	else if (status != REDIS_OK && c->state == CLUSTER_CONNECTING &&
		 (!strncmp(ac->errstr, "NOAUTH", 6) || !strncmp(ac->errstr, "NOPERM", 6)))
		refuse(c, ac->errstr); /* the SUBSCRIBE itself refused: hiredis closes on such an answer */
	else
		cluster_fail(c, status == REDIS_OK ? "the connection closed" : ac->errstr);
}

static void renew_cb(redisAsyncContext *ac, void *reply, void *priv)
{
	struct cluster *c = priv;
	redisReply *r = reply;

	if (!r || c->state != CLUSTER_UP)
		return;
	c->renew_sent_ms = 0;
	if (r->type == REDIS_REPLY_ERROR)
		util_log_limited(&c->log_limit, LOG_WARN, "redis: the node's lease was not renewed: %s",
				 r->str);
}

/* Our registration, again: the lease's key with its expiry, and our name in the set of nodes. */
static void renew(struct cluster *c)
{
	char key[64], px[24];
	const char *set[] = { "SET", key, c->reg, "PX", px },
		   *add[] = { "SADD", CLUSTER_PREFIX "nodes", c->self };

	snprintf(key, sizeof(key), CLUSTER_PREFIX "node:%s", c->self);
	snprintf(px, sizeof(px), "%d", c->cfg->node_lease_ms);
	if (send_words(c, renew_cb, 5, set) && !c->renew_sent_ms)
		c->renew_sent_ms = util_now_ms();
	send_words(c, NULL, 3, add);
}

static void publish_now(struct cluster *c, bool again);

/* Both connections are up and subscribed: register, announce, publish, reload. */
static void up(struct cluster *c)
{
	char msg[48];
	const char *pub[] = { "PUBLISH", CLUSTER_EVENTS, msg };

	uv_timer_stop(&c->retry);
	c->state = CLUSTER_UP;
	c->backoff_ms = 0;
	if (c->refused)
		util_log(LOG_INFO, "redis %s:%d: node %s's credentials are accepted now", c->cfg->redis.host,
			 c->cfg->redis.port, c->self);
	c->refused = false;
	if (c->ever_up) {
		c->m->redis_reconnects++;
		util_log(LOG_INFO, "redis %s:%d: back; node %s registers again and reloads its mirror",
			 c->cfg->redis.host, c->cfg->redis.port, c->self);
	} else {
		util_log(LOG_INFO, "redis %s:%d: node %s registered", c->cfg->redis.host, c->cfg->redis.port,
			 c->self);
	}
	c->ever_up = true;
	renew(c);
	snprintf(msg, sizeof(msg), "u %s", c->self);
	send_words(c, NULL, 3, pub);
	cluster_claim_own(c, true);
	publish_now(c, true);
	cluster_reload(c, true);
}

static void sub_cb(redisAsyncContext *ac, void *reply, void *priv)
{
	struct cluster *c = ac->data;
	redisReply *r = reply, *kind;

	if (!r || ac != c->sub || r->type != REDIS_REPLY_ARRAY || r->elements != 3)
		return;
	kind = r->element[0];
	if (kind->type != REDIS_REPLY_STRING)
		return;
	if (!strcmp(kind->str, "subscribe")) {
		c->subscribed = true;
		if (c->state == CLUSTER_CONNECTING && c->cmd_ready)
			up(c);
	} else if (!strcmp(kind->str, "message") && r->element[2]->type == REDIS_REPLY_STRING) {
		cluster_event(c, r->element[2]->str, r->element[2]->len);
	}
}

/* The answer to a connection's first command, AUTH or PING: only then does anything else go out on it. */
static void hello_cb(redisAsyncContext *ac, void *reply, void *priv)
{
	struct cluster *c = ac->data;
	redisReply *r = reply;

	(void)priv;
	if (!r || (ac != c->cmd && ac != c->sub) || c->state != CLUSTER_CONNECTING)
		return;
	if (r->type == REDIS_REPLY_ERROR) {
		refuse(c, r->str);
		return;
	}
	if (ac == c->sub) {
		if (redisAsyncCommand(c->sub, sub_cb, NULL, "SUBSCRIBE %s", CLUSTER_EVENTS) != REDIS_OK)
			cluster_fail(c, "cannot subscribe");
		return;
	}
	c->cmd_ready = true;
	if (c->subscribed)
		up(c);
}

/* AUTH [user] password when a password is set, else PING (which a Redis that wants one answers NOAUTH). */
static int send_hello(struct cluster *c, redisAsyncContext *ac)
{
	const char *argv[3] = { "AUTH" };
	size_t lens[3] = { 4 };
	int n = 1;

	if (!c->cfg->redis_password[0])
		return redisAsyncCommand(ac, hello_cb, NULL, "PING");
	if (c->cfg->redis_user[0]) {
		argv[n] = c->cfg->redis_user;
		lens[n++] = strlen(c->cfg->redis_user);
	}
	argv[n] = c->cfg->redis_password;
	lens[n++] = strlen(c->cfg->redis_password);
	return redisAsyncCommandArgv(ac, hello_cb, NULL, n, argv, lens);
}

static void connect_cb(const redisAsyncContext *ac, int status)
{
	struct cluster *c = ac->data;

	if (ac != c->cmd && ac != c->sub)
		return;
	if (status != REDIS_OK) { /* hiredis frees it after this callback */
		forget(c, ac);
		cluster_fail(c, ac->errstr[0] ? ac->errstr : "cannot connect");
		return;
	}
	if (send_hello(c, ac == c->cmd ? c->cmd : c->sub) != REDIS_OK)
		cluster_fail(c, "cannot send AUTH");
}

static redisAsyncContext *open_ctx(struct cluster *c, const char *ip)
{
	redisAsyncContext *ac = redisAsyncConnect(ip, c->cfg->redis.port);

	if (!ac)
		return NULL;
	if (ac->err) {
		util_log_limited(&c->log_limit, LOG_WARN, "redis %s:%d: %s", ip, c->cfg->redis.port,
				 ac->errstr);
		redisAsyncFree(ac);
		return NULL;
	}
	ac->data = c;
	if (redisLibuvAttach(ac, c->loop) != REDIS_OK) {
		redisAsyncFree(ac);
		return NULL;
	}
	redisAsyncSetConnectCallback(ac, connect_cb);
	redisAsyncSetDisconnectCallback(ac, disconnect_cb);
	return ac;
}

static void deadline_cb(uv_timer_t *t)
{
	cluster_fail(t->data, "no connection within 2 s");
}

static void resolved_cb(uv_getaddrinfo_t *req, int status, struct addrinfo *res)
{
	struct cluster *c = req->data;
	char ip[64] = "";

	c->resolving = false;
	if (!status && res)
		uv_ip_name(res->ai_addr, ip, sizeof(ip));
	uv_freeaddrinfo(res);
	if (c->state != CLUSTER_RESOLVING)
		return; /* stopped meanwhile */
	c->state = CLUSTER_CONNECTING;
	if (!ip[0]) {
		cluster_fail(c, status ? uv_strerror(status) : "the host has no address");
		return;
	}
	c->cmd = open_ctx(c, ip);
	c->sub = c->cmd ? open_ctx(c, ip) : NULL;
	if (!c->sub) {
		cluster_fail(c, "cannot open a connection");
		return;
	}
	uv_timer_start(&c->retry, deadline_cb, CLUSTER_CONNECT_MS, 0);
}

static void begin(struct cluster *c)
{
	struct addrinfo hints = { .ai_family = AF_UNSPEC, .ai_socktype = SOCK_STREAM };
	char port[16];
	int err;

	if (c->state != CLUSTER_WAITING)
		return;
	snprintf(port, sizeof(port), "%d", c->cfg->redis.port);
	c->state = CLUSTER_RESOLVING;
	err = uv_getaddrinfo(c->loop, &c->resolve, resolved_cb, c->cfg->redis.host, port, &hints);
	if (err) {
		c->state = CLUSTER_CONNECTING; /* so that cluster_fail() takes it */
		cluster_fail(c, uv_strerror(err));
		return;
	}
	c->resolving = true;
}

static void tick_cb(uv_timer_t *t)
{
	struct cluster *c = t->data;

	if (c->state != CLUSTER_UP)
		return;
	if (c->renew_sent_ms && util_now_ms() - c->renew_sent_ms > c->cfg->node_lease_ms) {
		cluster_fail(c, "no answer to the lease's renewal within a lease");
		return;
	}
	renew(c);
	if (c->contested)
		cluster_claim_own(c, false);
	cluster_reload(c, false);
}

int cluster_start(struct cluster *c)
{
	uint64_t every;

	if (!c)
		return 0;
	if (c->state != CLUSTER_IDLE)
		return -EALREADY;
	every = (uint64_t)c->cfg->node_lease_ms / 3;
	c->state = CLUSTER_WAITING;
	uv_timer_start(&c->tick, tick_cb, every, every);
	begin(c);
	return 0;
}

/* --- our summaries -------------------------------------------------------------------------------- */

/* Publishes the pending summaries if they differ from the last (again: also the last, Redis is new). */
static void publish_now(struct cluster *c, bool again)
{
	char key[64], *msg;
	size_t hdr, lens[3];
	const char *set[3], *pub[3];

	if (c->state != CLUSTER_UP)
		return;
	if (c->pending && c->published && c->pending_len == c->published_len &&
	    !memcmp(c->pending, c->published, c->pending_len)) {
		free(c->pending);
		c->pending = NULL;
	}
	if (!c->pending && !(again && c->published))
		return;
	if (c->pending) {
		free(c->published);
		c->published = c->pending;
		c->published_len = c->pending_len;
		c->pending = NULL;
	}
	snprintf(key, sizeof(key), CLUSTER_PREFIX "lobby:%s", c->self);
	hdr = 3 + strlen(c->self);
	msg = malloc(hdr + c->published_len);
	if (!msg)
		return;
	sprintf(msg, "l %s ", c->self);
	memcpy(msg + hdr, c->published, c->published_len);
	set[0] = "SET", set[1] = key, set[2] = c->published;
	lens[0] = 3, lens[1] = strlen(key), lens[2] = c->published_len;
	cluster_send(c, NULL, 3, set, lens);
	pub[0] = "PUBLISH", pub[1] = CLUSTER_EVENTS, pub[2] = msg;
	lens[0] = 7, lens[1] = strlen(CLUSTER_EVENTS), lens[2] = hdr + c->published_len;
	if (cluster_send(c, NULL, 3, pub, lens))
		c->m->redis_publications++;
	free(msg);
	c->published_ms = util_now_ms();
}

static void pub_cb(uv_timer_t *t)
{
	publish_now(t->data, false);
}

void cluster_lobby_publish(struct cluster *c, const char *rooms_json, size_t len, size_t total)
{
	char head[24];
	size_t n;
	char *p;
	int64_t wait;

	if (!c || c->state == CLUSTER_STOPPING)
		return;
	if (len >
	    CLUSTER_SUMMARY_MAX - sizeof(head)) { /* lobby_list_max set very high: list none, count all */
		util_log_limited(
			&c->log_limit, LOG_WARN,
			"cluster: this node's summaries (%zu bytes) are over %u: the other nodes list "
			"none of its rooms (lower lobby_list_max)",
			len, CLUSTER_SUMMARY_MAX);
		rooms_json = "[]";
		len = 2;
	}
	n = (size_t)snprintf(head, sizeof(head), "%zu\n", total);
	p = malloc(n + len + 1);
	if (!p)
		return;
	memcpy(p, head, n);
	memcpy(p + n, rooms_json, len);
	p[n + len] = '\0';
	free(c->pending); /* the last one wins */
	c->pending = p;
	c->pending_len = n + len;
	if (uv_is_active((uv_handle_t *)&c->pub_timer))
		return;
	wait = CLUSTER_PUBLISH_MS - (util_now_ms() - c->published_ms);
	if (wait <= 0)
		publish_now(c, false);
	else
		uv_timer_start(&c->pub_timer, pub_cb, (uint64_t)wait, 0);
}

/* --- stopping -------------------------------------------------------------------------------------- */

static void stop_deadline_cb(uv_timer_t *t)
{
	struct cluster *c = t->data;

	drop(c);
	stopped_maybe(c);
}

void cluster_stop(struct cluster *c)
{
	char key[64], lkey[64], msg[48];
	const char *del[] = { "DEL", key, lkey }, *pub[] = { "PUBLISH", CLUSTER_EVENTS, msg };
	bool was_up;

	if (!c || c->state == CLUSTER_STOPPING)
		return;
	was_up = c->state == CLUSTER_UP;
	if (was_up) { /* a clean stop leaves no lease to expire and no summaries to list */
		snprintf(key, sizeof(key), CLUSTER_PREFIX "node:%s", c->self);
		snprintf(lkey, sizeof(lkey), CLUSTER_PREFIX "lobby:%s", c->self);
		snprintf(msg, sizeof(msg), "d %s", c->self);
		send_words(c, NULL, 3, del);
		send_words(c, NULL, 3, pub);
	}
	c->state = CLUSTER_STOPPING;
	cluster_reload_abandon(c);
	if (c->resolving)
		uv_cancel((uv_req_t *)&c->resolve);
	uv_timer_stop(&c->tick);
	uv_close((uv_handle_t *)&c->tick, handle_closed_cb);
	uv_timer_stop(&c->pub_timer);
	uv_close((uv_handle_t *)&c->pub_timer, handle_closed_cb);
	if (was_up && c->cmd) {
		redisAsyncContext *s = c->sub;

		c->sub = NULL;
		if (s)
			redisAsyncFree(s);
		redisAsyncDisconnect(c->cmd); /* once the answers are in; a Redis that hangs gets 500 ms */
		uv_timer_start(&c->retry, stop_deadline_cb, CLUSTER_STOP_MS, 0);
		return;
	}
	uv_timer_stop(&c->retry);
	drop(c);
	stopped_maybe(c);
}

void cluster_free(struct cluster *c)
{
	if (!c)
		return;
	if (c->handles || c->cmd || c->sub)
		util_log(LOG_ERROR, "cluster: freed with %d handles and a connection open", c->handles);
	cluster_mirror_finish(c);
	free(c->pending);
	free(c->published);
	free(c);
}

/* --- sessions ended ---------------------------------------------------------------------------------- */

/* The reasons a node may give (signed_out.json's, but "revoked": that one is no node's word). */
static const char *const session_reasons[] = { "signed_out", "ended", "password", "deleted" };

static const char *known_reason(const char *p, size_t n)
{
	for (size_t i = 0; i < sizeof(session_reasons) / sizeof(session_reasons[0]); i++)
		if (strlen(session_reasons[i]) == n && !memcmp(p, session_reasons[i], n))
			return session_reasons[i];
	return NULL;
}

void cluster_sessions_ended(struct cluster *c, const char *reason, char (*hashes)[65], size_t n)
{
	/* "s " NODE " " REASON, then " " and 64 hex digits a hash */
	char msg[2 + CLUSTER_NAME_MAX + 1 + 16 + CLUSTER_SESSIONS_MAX * 65 + 1];
	const char *pub[] = { "PUBLISH", CLUSTER_EVENTS, msg };
	size_t lens[3], k = 0, len;

	if (!c || c->state != CLUSTER_UP || !known_reason(reason, strlen(reason)))
		return;
	while (k < n) {
		len = (size_t)snprintf(msg, sizeof(msg), "s %s %s", c->self, reason);
		for (size_t i = 0; i < CLUSTER_SESSIONS_MAX && k < n; i++, k++)
			len += (size_t)snprintf(msg + len, sizeof(msg) - len, " %.64s", hashes[k]);
		lens[0] = 7, lens[1] = strlen(CLUSTER_EVENTS), lens[2] = len;
		(void)cluster_send(c, NULL, 3, pub, lens); /* lost with Redis: the check finds them */
	}
}

void cluster_on_sessions_ended(struct cluster *c, cluster_sessions_cb cb, void *ctx)
{
	if (!c)
		return;
	c->sessions_cb = cb;
	c->sessions_ctx = ctx;
}

/* The next space-separated word of p[*at..len): its start, its length in *n (0: none). */
static const char *next_word(const char *p, size_t len, size_t *at, size_t *n)
{
	size_t b = *at;

	while (b < len && p[b] == ' ')
		b++;
	*at = b;
	while (*at < len && p[*at] != ' ')
		++*at;
	*n = *at - b;
	return p + b;
}

void cluster_sessions_event(struct cluster *c, const char *p, size_t len)
{
	char hashes[CLUSTER_SESSIONS_MAX][65];
	size_t at = 0, n, nh = 0;
	const char *w = next_word(p, len, &at, &n), *reason;

	if (!n || !cluster_name_ok(w, n) || (n == strlen(c->self) && !memcmp(w, c->self, n)))
		return; /* ours: our own connections were signed out when we ended them */
	w = next_word(p, len, &at, &n);
	if (!(reason = known_reason(w, n)))
		return;
	for (w = next_word(p, len, &at, &n); n; w = next_word(p, len, &at, &n)) {
		size_t hex = 0;

		while (hex < n && ((w[hex] >= '0' && w[hex] <= '9') || (w[hex] >= 'a' && w[hex] <= 'f')))
			hex++;
		if (n != 64 || hex != 64 || nh == CLUSTER_SESSIONS_MAX)
			return; /* not what a node writes: all of it ignored */
		memcpy(hashes[nh], w, 64);
		hashes[nh++][64] = '\0';
	}
	if (nh && c->sessions_cb)
		c->sessions_cb(c->sessions_ctx, reason, hashes, nh);
}
