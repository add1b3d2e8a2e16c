/*
 * test_cluster.c: the cluster module (server/cluster/) against a real Redis
 * (tests/lib/with-redis.sh starts one: QUINTETO_TEST_REDIS, its password
 * QUINTETO_TEST_REDIS_PASSWORD, and QUINTETO_TEST_REDIS_CTL to stop, start,
 * pause and resume it). Nodes `b` and
 * `c` live in this process on one loop, as two servers would on two; node
 * `a` is this program again in a child process (--child), so that it can be
 * SIGKILLed and its lease left to expire.
 *
 * What is checked is what the server relies on: registration with a lease
 * and its expiry, the directory (rooms come and go, a flood is bounded), the
 * summaries (published, throttled, last wins, a dead node's leave, garbage
 * ignored), Redis stopped and started empty (the mirror answers meanwhile
 * and heals: the node registers again, announces its rooms, forgets in Redis
 * a room it closed meanwhile), Redis hung (the renewal's watchdog), a clean
 * stop (gone at once), a node whose password Redis refuses (never up, never
 * registered, the reason kept without the password), a single server's NULL
 * cluster, and the sessions a node ended told to the others (bounded,
 * garbage ignored).
 */
#include <hiredis/hiredis.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include <uv.h>

#include "config.h"
#include "base/conf.h"
#include "base/metrics.h"
#include "base/util.h"
#include "cluster/cluster.h"
#include "lobby/lobby.h"
#include "room/room.h"
#include "store/store.h"
#include "tap.h"
#include "wire.h"

#define LEASE_MS 900

static uv_loop_t loop;
static uv_timer_t waker;
static char redis_host[64] = "127.0.0.1";
static int redis_port;
static const char *redis_ctl;
static const char *redis_pass = ""; /* the default user's (requirepass); empty: none */

static struct config cfg_b, cfg_c;
static struct metrics m_b, m_c;
static struct cluster *b, *c;
static int changes_c; /* cluster_on_change calls on c */

static void waker_cb(uv_timer_t *t)
{
}

/* Runs the loop until pred(arg) holds or `ms` have passed; whether it holds. */
static bool run_until(bool (*pred)(const void *), const void *arg, int ms)
{
	uint64_t end;

	uv_update_time(&loop);
	end = uv_now(&loop) + (uint64_t)ms;
	while (!pred(arg)) {
		if (uv_now(&loop) >= end)
			return false;
		uv_run(&loop, UV_RUN_ONCE);
	}
	return true;
}

/* Runs the loop for `ms`. */
static bool never(const void *arg)
{
	return false;
}

static void run_for(int ms)
{
	run_until(never, NULL, ms);
}

static void config_for(struct config *cfg, const char *node)
{
	config_defaults(cfg);
	snprintf(cfg->node, sizeof(cfg->node), "%s", node);
	snprintf(cfg->redis.host, sizeof(cfg->redis.host), "%s", redis_host);
	cfg->redis.port = redis_port;
	snprintf(cfg->redis_password, sizeof(cfg->redis_password), "%s", redis_pass);
	cfg->node_lease_ms = LEASE_MS;
	cfg->max_rooms = 10; /* the directory keeps 2 * 10 + 100 rooms of one node */
	cfg->port = 4242;
}

/* A command to Redis from the test itself (blocking: the test is no server). The reply or NULL. */
static redisReply *redis(const char *fmt, ...)
{
	redisContext *rc = redisConnect(redis_host, redis_port);
	redisReply *r = NULL;
	va_list ap;

	if (!rc || rc->err) {
		redisFree(rc);
		return NULL;
	}
	if (redis_pass[0]) {
		r = redisCommand(rc, "AUTH %s", redis_pass);
		freeReplyObject(r);
		r = NULL;
	}
	va_start(ap, fmt);
	r = redisvCommand(rc, fmt, ap);
	va_end(ap);
	redisFree(rc);
	return r;
}

/* The string value of a command's reply, in out (empty: none or not a string). */
static void redis_str(char *out, size_t n, const char *fmt, const char *arg)
{
	redisReply *r = redis(fmt, arg);

	snprintf(out, n, "%s", r && r->type == REDIS_REPLY_STRING ? r->str : "");
	freeReplyObject(r);
}

static long long redis_int(const char *fmt, const char *arg)
{
	redisReply *r = redis(fmt, arg);
	long long v = r && r->type == REDIS_REPLY_INTEGER ? r->integer : -999;

	freeReplyObject(r);
	return v;
}

/* Whether a (maybe NULL) name is `want`. */
static bool same(const char *name, const char *want)
{
	return name && !strcmp(name, want);
}

static void ctl(const char *what)
{
	char cmd[512];

	snprintf(cmd, sizeof(cmd), "%s %s", redis_ctl, what);
	if (system(cmd))
		printf("# %s failed\n", cmd);
}

/* --- predicates ---------------------------------------------------------------------------------- */

static bool both_up(const void *arg)
{
	return cluster_redis_up(b) && cluster_redis_up(c);
}

static bool both_down(const void *arg)
{
	return !cluster_redis_up(b) && !cluster_redis_up(c);
}

struct where {
	const struct cluster *at;
	const char *room, *node; /* node NULL: no node hosts it */
};

static bool room_is(const void *arg)
{
	const struct where *w = arg;
	const char *n = cluster_room_node(w->at, w->room);

	return w->node ? n && !strcmp(n, w->node) : !n;
}

struct alive {
	const struct cluster *at;
	const char *node;
	bool want;
};

static bool alive_is(const void *arg)
{
	const struct alive *a = arg;

	return cluster_node_alive(a->at, a->node) == a->want;
}

/* What cluster_lobby_foreach shows of one node. */
struct seen {
	const char *node;
	char text[4096];
	size_t total;
	int count;
};

static void seen_cb(void *ctx, const char *node, const char *json, size_t len, size_t total, uint64_t gen)
{
	struct seen *s = ctx;

	if (strcmp(node, s->node))
		return;
	s->count++;
	snprintf(s->text, sizeof(s->text), "%.*s", (int)len, json);
	s->total = total;
}

static struct seen seen_of(const struct cluster *at, const char *node)
{
	struct seen s = { .node = node };

	cluster_lobby_foreach(at, seen_cb, &s);
	return s;
}

struct lobby_want {
	const struct cluster *at;
	const char *node, *text; /* text NULL: the node lists nothing */
};

static bool lobby_is(const void *arg)
{
	const struct lobby_want *w = arg;
	struct seen s = seen_of(w->at, w->node);

	return w->text ? s.count == 1 && !strcmp(s.text, w->text) : s.count == 0;
}

static void change_cb(void *ctx)
{
	(*(int *)ctx)++;
}

/* --- the child: node `a` ------------------------------------------------------------------------- */

static int child_main(void)
{
	struct config cfg;
	struct metrics m = { 0 };
	struct cluster *a;
	const char *sum = "[{\"id\":\"ra\",\"created_at\":7}]";

	uv_loop_init(&loop);
	config_for(&cfg, "a");
	if (cluster_new(&loop, &cfg, &m, &a) || cluster_start(a))
		return 1;
	cluster_room_hosted(a, "ra");
	cluster_lobby_publish(a, sum, strlen(sum), 1);
	uv_run(&loop, UV_RUN_DEFAULT); /* until SIGKILL */
	return 0;
}

/* --- the tests ----------------------------------------------------------------------------------- */

static void test_single_server(void)
{
	struct config cfg;
	struct cluster *none = (struct cluster *)1;

	config_defaults(&cfg);
	CHECK_EQ(cluster_new(&loop, &cfg, &m_b, &none), 0);
	CHECK(none == NULL);
	CHECK_EQ(cluster_start(NULL), 0);
	CHECK(cluster_node(NULL) == NULL);
	CHECK(cluster_redis_up(NULL));
	CHECK(cluster_room_node(NULL, "x") == NULL);
	CHECK(!cluster_node_alive(NULL, "a"));
	cluster_room_hosted(NULL, "x");
	cluster_room_gone(NULL, "x");
	cluster_lobby_publish(NULL, "[]", 2, 0);
	cluster_stop(NULL);
	cluster_free(NULL);
}

/* Whether cluster `arg` holds a refusal. */
static bool refused(const void *arg)
{
	return cluster_redis_refused(arg) != NULL;
}

/*
 * Redis refuses the node's credentials: a wrong password (WRONGPASS), none (NOAUTH): it is never up, never
 * registers, keeps Redis' reason without the password, and goes on trying (no crash, no giving up).
 */
static void test_refused(void)
{
	static struct config cfg;
	static struct metrics m;
	const char *pw[] = { "not-the-password-x9", "" }, *want[] = { "WRONGPASS", "NOAUTH" };
	struct cluster *x;
	int i;

	if (!redis_pass[0]) {
		printf("# SKIP test_refused: this Redis has no password\n");
		return;
	}
	for (i = 0; i < 2; i++) {
		config_for(&cfg, "x");
		snprintf(cfg.redis_password, sizeof(cfg.redis_password), "%s", pw[i]);
		REQUIRE(cluster_new(&loop, &cfg, &m, &x) == 0 && x);
		CHECK(cluster_redis_refused(x) == NULL);
		CHECK_EQ(cluster_start(x), 0);
		CHECK(run_until(refused, x, 3000));
		run_for(500); /* tried again on the back-off meanwhile: still refused, still not up */
		CHECK(!cluster_redis_up(x));
		CHECK(cluster_redis_refused(x) && strstr(cluster_redis_refused(x), want[i]));
		CHECK(!pw[i][0] || !strstr(cluster_redis_refused(x), pw[i]));
		CHECK_EQ(redis_int("EXISTS quinteto:node:%s", "x"), 0);
		CHECK_EQ(redis_int("SISMEMBER quinteto:nodes %s", "x"), 0);
		cluster_stop(x);
		run_for(100);
		cluster_free(x);
	}
}

static void test_register(void)
{
	char v[256];
	long long ttl;

	REQUIRE(cluster_new(&loop, &cfg_b, &m_b, &b) == 0 && b);
	REQUIRE(cluster_new(&loop, &cfg_c, &m_c, &c) == 0 && c);
	cluster_on_change(c, change_cb, &changes_c);
	CHECK(!strcmp(cluster_node(b), "b"));
	CHECK(!cluster_redis_up(b));   /* not started */
	cluster_room_hosted(b, "rb1"); /* before the start, as a restored room: announced once up */
	CHECK_EQ(cluster_start(b), 0);
	CHECK_EQ(cluster_start(c), 0);
	REQUIRE(run_until(both_up, NULL, 5000));
	run_for(200);
	redis_str(v, sizeof(v), "GET quinteto:node:%s", "b");
	CHECK(strstr(v, "\"node\":\"b\"") && strstr(v, "\"port\":4242") && strstr(v, "\"started_ms\":"));
	ttl = redis_int("PTTL quinteto:node:%s", "b");
	CHECK(ttl > 0 && ttl <= LEASE_MS);
	CHECK_EQ(redis_int("SISMEMBER quinteto:nodes %s", "c"), 1);
	CHECK(cluster_node_alive(c, "b") && cluster_node_alive(b, "c") && cluster_node_alive(b, "b"));
	CHECK(!cluster_node_alive(c, "nobody"));
	CHECK_EQ(cluster_nodes_alive(c), 2);
	/* renewed: a lease later, still there */
	run_for(LEASE_MS + 300);
	CHECK(redis_int("PTTL quinteto:node:%s", "b") > 0);
	CHECK(cluster_node_alive(c, "b"));
}

static void test_directory(void)
{
	struct where w = { c, "rb1", "b" };
	char v[64];
	int i;

	CHECK(run_until(room_is, &w, 2000)); /* announced at the start */
	CHECK(same(cluster_room_node(b, "rb1"), "b"));
	redis_str(v, sizeof(v), "HGET quinteto:rooms %s", "rb1");
	CHECK(!strcmp(v, "b"));
	cluster_room_hosted(c, "rc1");
	w = (struct where){ b, "rc1", "c" };
	CHECK(run_until(room_is, &w, 2000));
	cluster_room_gone(c, "rc1");
	w.node = NULL;
	CHECK(run_until(room_is, &w, 2000));
	CHECK_EQ(redis_int("HEXISTS quinteto:rooms %s", "rc1"), 0);
	/* a room that another node closes is not taken from the node that hosts it now */
	freeReplyObject(redis("PUBLISH quinteto:events %s", "g rb1 c"));
	freeReplyObject(redis("HSET quinteto:rooms rx %s", "x"));
	freeReplyObject(redis("PUBLISH quinteto:events %s", "h rx x"));
	w = (struct where){ c, "rx", "x" };
	CHECK(run_until(room_is, &w, 2000));
	CHECK(same(cluster_room_node(c, "rb1"), "b"));
	CHECK(!cluster_node_alive(c, "x")); /* in the directory, never registered: `unavailable` */
	/* garbage on the channel changes nothing */
	freeReplyObject(redis("PUBLISH quinteto:events %s", "h"));
	freeReplyObject(redis("PUBLISH quinteto:events %s", "h bad/room x"));
	freeReplyObject(redis("PUBLISH quinteto:events %s", "h ok BAD"));
	freeReplyObject(redis("PUBLISH quinteto:events %s", "u Nope"));
	freeReplyObject(redis("PUBLISH quinteto:events %s", "zzz"));
	/* a flood of rooms for one node is bounded: 2 * max_rooms + 100 */
	for (i = 0; i < 200; i++) {
		char msg[64];

		snprintf(msg, sizeof(msg), "h fl%d x", i);
		freeReplyObject(redis("PUBLISH quinteto:events %s", msg));
	}
	w = (struct where){ c, "fl118", "x" }; /* rx and 119 of them */
	CHECK(run_until(room_is, &w, 3000));
	run_for(100);
	CHECK(cluster_room_node(c, "fl119") == NULL && cluster_room_node(c, "fl199") == NULL);
	CHECK(cluster_directory_size(c) <= 2 * 10 + 100 + 5);
	CHECK(cluster_room_node(c, "bad/room") == NULL && cluster_room_node(c, "ok") == NULL);
	CHECK(!cluster_node_alive(c, "Nope"));
	/* our own room, claimed by another node: ours again at the next tick */
	cluster_room_hosted(b, "rb2");
	run_for(200);
	freeReplyObject(redis("HSET quinteto:rooms rb2 %s", "y"));
	freeReplyObject(redis("PUBLISH quinteto:events %s", "h rb2 y"));
	run_for(LEASE_MS);
	redis_str(v, sizeof(v), "HGET quinteto:rooms %s", "rb2");
	CHECK(!strcmp(v, "b"));
	w = (struct where){ c, "rb2", "b" };
	CHECK(run_until(room_is, &w, 2000));
}

static void test_lobby(void)
{
	const char *one = "[{\"id\":\"rb1\",\"created_at\":5}]", *two = "[{\"id\":\"rb1\",\"created_at\":6}]",
		   *three = "[{\"id\":\"rb1\",\"created_at\":7}]";
	struct lobby_want w = { c, "b", one };
	uint64_t pubs;
	int before = changes_c;
	char v[256];

	cluster_lobby_publish(b, one, strlen(one), 3);
	CHECK(run_until(lobby_is, &w, 3000));
	CHECK_EQ(seen_of(c, "b").total, 3);
	CHECK(changes_c > before);
	redis_str(v, sizeof(v), "GET quinteto:lobby:%s", "b");
	CHECK(!strcmp(v, "3\n[{\"id\":\"rb1\",\"created_at\":5}]"));
	/* throttled: two more within the second, one publication, the last one */
	pubs = m_b.redis_publications;
	cluster_lobby_publish(b, two, strlen(two), 3);
	cluster_lobby_publish(b, three, strlen(three), 4);
	run_for(300);
	CHECK(lobby_is(&w)); /* not yet */
	w.text = three;
	CHECK(run_until(lobby_is, &w, 3000));
	CHECK_EQ(seen_of(c, "b").total, 4);
	CHECK_EQ(m_b.redis_publications, pubs + 1);
	/* the same again: nothing sent */
	run_for(1100);
	cluster_lobby_publish(b, three, strlen(three), 4);
	run_for(300);
	CHECK_EQ(m_b.redis_publications, pubs + 1);
	/* garbage under b's name is not taken */
	freeReplyObject(redis("PUBLISH quinteto:events %s", "l b not-a-payload"));
	freeReplyObject(redis("PUBLISH quinteto:events %s", "l b 12\n{\"an\":\"object\"}"));
	run_for(200);
	CHECK(lobby_is(&w));
	/* b does not list itself */
	CHECK_EQ(seen_of(b, "b").count, 0);
}

/* What a node's cluster_on_sessions_ended callback got: calls, hashes in all, the last reason and hash. */
struct ended {
	int calls;
	size_t hashes;
	char reason[16], last[65];
};
static struct ended ended_b, ended_c;

static void ended_cb(void *ctx, const char *reason, char (*hashes)[65], size_t n)
{
	struct ended *e = ctx;

	e->calls++;
	e->hashes += n;
	snprintf(e->reason, sizeof(e->reason), "%s", reason);
	snprintf(e->last, sizeof(e->last), "%s", hashes[n - 1]);
}

static bool ended_hashes_is(const void *arg)
{
	return ended_c.hashes == *(const size_t *)arg;
}

/* Sessions ended (docs/ACCOUNTS.md): told to the other nodes, 20 hashes a message; what is not in the
 * shape a node writes is ignored whole; a node does not hear its own. */
static void test_sessions(void)
{
	char hashes[25][65], msg[2048];
	size_t want = 25, len;
	int i;

	cluster_on_sessions_ended(b, ended_cb, &ended_b);
	cluster_on_sessions_ended(c, ended_cb, &ended_c);
	for (i = 0; i < 25; i++)
		snprintf(hashes[i], sizeof(hashes[i]), "%064x", i);
	cluster_sessions_ended(b, "password", hashes, 25);
	CHECK(run_until(ended_hashes_is, &want, 3000));
	CHECK_EQ(ended_c.calls, 2); /* 20, then 5 */
	CHECK(!strcmp(ended_c.reason, "password") && !strcmp(ended_c.last, hashes[24]));
	cluster_sessions_ended(b, "revoked", hashes, 1); /* no node's word: not sent */
	/* garbage: an unknown reason, a hash not ours, 21 hashes, a node's name not ours, nothing */
	snprintf(msg, sizeof(msg), "s x nope %s", hashes[0]);
	freeReplyObject(redis("PUBLISH quinteto:events %s", msg));
	snprintf(msg, sizeof(msg), "s x ended %s %.63sG", hashes[0], hashes[1]);
	freeReplyObject(redis("PUBLISH quinteto:events %s", msg));
	len = (size_t)snprintf(msg, sizeof(msg), "s x ended");
	for (i = 0; i < 21; i++)
		len += (size_t)snprintf(msg + len, sizeof(msg) - len, " %s", hashes[i]);
	freeReplyObject(redis("PUBLISH quinteto:events %s", msg));
	snprintf(msg, sizeof(msg), "s X ended %s", hashes[0]);
	freeReplyObject(redis("PUBLISH quinteto:events %s", msg));
	freeReplyObject(redis("PUBLISH quinteto:events %s", "s x ended"));
	/* and then one that is right: the only one taken */
	snprintf(msg, sizeof(msg), "s x deleted %s", hashes[3]);
	freeReplyObject(redis("PUBLISH quinteto:events %s", msg));
	want = 26;
	CHECK(run_until(ended_hashes_is, &want, 3000));
	run_for(200);
	CHECK_EQ(ended_c.calls, 3);
	CHECK_EQ(ended_c.hashes, 26);
	CHECK(!strcmp(ended_c.reason, "deleted") && !strcmp(ended_c.last, hashes[3]));
	CHECK_EQ(ended_b.calls, 1); /* the right one only: its own 25 are its echo */
	CHECK_EQ(ended_b.hashes, 1);
}

static void test_expiry_child(void)
{
	pid_t pid = fork();
	struct alive al = { c, "a", true };
	struct where w = { c, "ra", "a" };
	struct lobby_want lw = { c, "a", "[{\"id\":\"ra\",\"created_at\":7}]" };
	int before;

	REQUIRE(pid >= 0);
	if (pid == 0) {
		execl("/proc/self/exe", "test_cluster", "--child", (char *)NULL);
		_exit(127);
	}
	CHECK(run_until(alive_is, &al, 5000));
	CHECK(run_until(room_is, &w, 3000));
	CHECK(run_until(lobby_is, &lw, 3000));
	CHECK_EQ(cluster_nodes_alive(c), 3);
	before = changes_c;
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
	/* its lease expires (900 ms) and the next refresh sees it (every 300 ms) */
	al.want = false;
	CHECK(run_until(alive_is, &al, 3000));
	CHECK(changes_c > before);
	lw.text = NULL; /* its summaries leave the merged lobby */
	CHECK(lobby_is(&lw));
	CHECK(room_is(&w)); /* its room stays its own, for `unavailable` until adopted */
	/* adopted: c hosts it now */
	cluster_room_hosted(c, "ra");
	CHECK(same(cluster_room_node(c, "ra"), "c"));
	w = (struct where){ b, "ra", "c" };
	CHECK(run_until(room_is, &w, 2000));
}

static void test_redis_away(void)
{
	struct where w = { c, "rb1", "b" };
	struct lobby_want lw = { c, "b", "[{\"id\":\"rb1\",\"created_at\":7}]" };
	const char *four = "[{\"id\":\"rb3\",\"created_at\":8}]";
	char v[64];
	uint64_t rb = m_b.redis_reconnects;

	ctl("stop");
	CHECK(run_until(both_down, NULL, 3000));
	/* the mirror answers, stale */
	CHECK(room_is(&w));
	CHECK(lobby_is(&lw));
	CHECK(cluster_node_alive(c, "b"));
	/* changes while Redis is away: they reach Redis when it is back */
	cluster_room_gone(b, "rb1");
	cluster_room_hosted(b, "rb3");
	cluster_lobby_publish(b, four, strlen(four), 1);
	run_for(500); /* a few failed attempts: the back-off */
	ctl("start");
	CHECK(run_until(both_up, NULL, 5000));
	CHECK(m_b.redis_reconnects > rb);
	w = (struct where){ c, "rb3", "b" };
	CHECK(run_until(room_is, &w, 3000));
	w.room = "rb1";
	w.node = NULL;
	CHECK(run_until(room_is, &w, 3000));
	lw.text = four;
	CHECK(run_until(lobby_is, &lw, 3000));
	CHECK(cluster_node_alive(c, "b"));
	CHECK(redis_int("PTTL quinteto:node:%s", "b") > 0);
	redis_str(v, sizeof(v), "HGET quinteto:rooms %s", "rb3");
	CHECK(!strcmp(v, "b"));
	redis_str(v, sizeof(v), "HGET quinteto:rooms %s", "ra");
	CHECK(!strcmp(v, "c"));
	/* a room Redis says is b's, which b does not host: b lets it go at its next reload */
	freeReplyObject(redis("HSET quinteto:rooms stale1 %s", "b"));
	freeReplyObject(redis("CLIENT KILL TYPE %s", "pubsub")); /* both reconnect and reload */
	run_for(300);
	CHECK(run_until(both_up, NULL, 5000));
	run_for(300);
	CHECK_EQ(redis_int("HEXISTS quinteto:rooms %s", "stale1"), 0);
}

static void test_redis_hangs(void)
{
	struct where w = { c, "rb3", "b" };

	ctl("pause");
	/* no answer to a renewal within a lease: given up, tried again */
	CHECK(run_until(both_down, NULL, 4000));
	CHECK(room_is(&w));
	ctl("resume");
	CHECK(run_until(both_up, NULL, 5000));
	CHECK(run_until(room_is, &w, 3000));
}

static void test_clean_stop(void)
{
	struct alive al = { c, "b", false };

	cluster_stop(b);
	CHECK(!cluster_redis_up(b));
	CHECK(run_until(alive_is, &al, 1000)); /* at once: not a lease later */
	CHECK_EQ(redis_int("EXISTS quinteto:node:%s", "b"), 0);
	CHECK_EQ(redis_int("EXISTS quinteto:lobby:%s", "b"), 0);
	CHECK(same(cluster_room_node(c, "rb3"), "b")); /* its rooms wait for it, or an adopter */
	cluster_stop(c);
	run_for(700);
	cluster_free(b);
	cluster_free(c);
	b = c = NULL;
}

struct two {
	const struct cluster *x, *y;
};

static bool two_up(const void *arg)
{
	const struct two *t = arg;

	return cluster_redis_up(t->x) && cluster_redis_up(t->y);
}

struct body_want {
	struct lobby *l;
	const char *has, *lacks;
};

static bool body_is(const void *arg)
{
	const struct body_want *w = arg;
	size_t len;
	char *body = lobby_rooms_body(w->l, &len);
	bool ok = body && (!w->has || strstr(body, w->has)) && (!w->lacks || !strstr(body, w->lacks));

	free(body);
	return ok;
}

/* The place of `what` in `text`, or -1. */
static long at(const char *text, const char *what)
{
	const char *p = strstr(text, what);

	return p ? (long)(p - text) : -1;
}

/*
 * The lobby's side, through the server library with a real (SQLite) store:
 * its rooms are announced and let go, its list is published, and its list is
 * the merged lobby: ours and another node's, newest first, capped, `total`
 * of all, what is not a summary left out, a dead node's rooms gone.
 */
static void test_lobby_merge(void)
{
	static struct config c1, c2;
	struct metrics mm1 = { 0 }, mm2 = { 0 };
	struct cluster *m1 = NULL, *m2 = NULL;
	struct two t;
	struct lobby *l = NULL;
	struct store *st = NULL;
	struct player *p;
	struct room *r1 = NULL, *r2 = NULL;
	struct wire_room_options ropt = { 0 };
	struct rules_options gopt = { 0 };
	char dir[] = "/tmp/quinteto-test-cluster-XXXXXX", path[96], tok[80], sum[512], id1[40], id2[40],
	     rm[160];
	long long now = (long long)util_now_ms();
	size_t len;
	char *body;

	REQUIRE(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/q.db", dir);
	config_for(&c1, "m1");
	config_for(&c2, "m2");
	c1.lobby_list_max = 4;
	REQUIRE(!cluster_new(&loop, &c1, &mm1, &m1) && !cluster_new(&loop, &c2, &mm2, &m2));
	REQUIRE(!store_open(&loop, path, QUINTETO_SOURCE_MIGRATIONS, &st) && !store_start(st));
	REQUIRE(!lobby_new(&loop, st, &c1, &mm1, NULL, &l));
	lobby_set_cluster(l, m1);
	REQUIRE(lobby_cluster(l) == m1);
	REQUIRE(!cluster_start(m1) && !cluster_start(m2));
	t = (struct two){ m1, m2 };
	REQUIRE(run_until(two_up, &t, 5000));
	REQUIRE(!lobby_player_hello(l, NULL, NULL, "Ann", tok, sizeof(tok), &p));
	REQUIRE(!lobby_room_create(l, p, rules_game_find("ur"), wire_game_find("ur"), &ropt, &gopt, &r1));
	REQUIRE(!lobby_room_create(l, p, rules_game_find("ur"), wire_game_find("ur"), &ropt, &gopt, &r2));
	snprintf(id1, sizeof(id1), "\"%s\"", room_id(r1));
	snprintf(id2, sizeof(id2), "\"%s\"", room_id(r2));
	{ /* announced: the other node finds them */
		struct where w = { m2, room_id(r1), "m1" };

		CHECK(run_until(room_is, &w, 3000));
	}
	/* m2 lists 5 things: the newest room of all, a number, no created_at, an old room, an older one */
	snprintf(sum, sizeof(sum),
		 "[{\"id\":\"zz1\",\"created_at\":%lld},7,{\"id\":\"bad\"},{\"id\":\"zz2\",\"created_at\":%"
		 "lld},"
		 "{\"id\":\"zz3\",\"created_at\":%lld}]",
		 now + 1000000, now - 1000000, now - 2000000);
	cluster_lobby_publish(m2, sum, strlen(sum), 7);
	{
		struct body_want bw = { l, "zz1", NULL };

		CHECK(run_until(body_is, &bw, 3000));
	}
	body = lobby_rooms_body(l, &len);
	REQUIRE(body);
	/* newest first: zz1, our two (the same ms or not: newest, then by id), zz2; zz3 past m2's first 4 */
	CHECK(at(body, "zz1") >= 0 && at(body, "zz1") < at(body, id1) && at(body, "zz1") < at(body, id2));
	CHECK(at(body, id1) >= 0 && at(body, id2) >= 0 && at(body, id1) < at(body, "zz2") &&
	      at(body, id2) < at(body, "zz2"));
	CHECK(at(body, "zz3") < 0 && at(body, "bad") < 0 && at(body, ",7,") < 0);
	CHECK(strstr(body, "\"total\":9}") != NULL); /* our 2 and m2's 7 */
	free(body);
	/* ours are published: m2 sees them, with our total */
	{
		struct seen s;
		int i;

		for (i = 0; i < 300 && (s = seen_of(m2, "m1")).total != 2; i++)
			run_for(10);
		CHECK_EQ(s.total, 2);
		CHECK(at(s.text, id1) >= 0 && at(s.text, id2) >= 0 && at(s.text, "zz1") < 0);
	}
	/* a room that closes leaves the directory */
	snprintf(rm, sizeof(rm), "%s", room_id(r1));
	lobby_room_discard(l, r1);
	{
		struct where w = { m2, rm, NULL };

		CHECK(run_until(room_is, &w, 3000));
	}
	/* m2 stops: its rooms leave our list, and the list is a single server's again */
	cluster_stop(m2);
	{
		struct body_want bw = { l, "\"total\":1}", "zz1" };

		CHECK(run_until(body_is, &bw, 3000));
	}
	lobby_close(l);
	store_close(st);
	cluster_stop(m1);
	run_for(700);
	lobby_free(l);
	cluster_free(m1);
	cluster_free(m2);
	snprintf(path, sizeof(path), "rm -rf %s", dir);
	if (system(path))
		printf("# %s failed\n", path);
}

int main(int argc, char **argv)
{
	const char *addr = getenv("QUINTETO_TEST_REDIS");
	const char *colon = addr ? strrchr(addr, ':') : NULL;

	redis_ctl = getenv("QUINTETO_TEST_REDIS_CTL");
	if (getenv("QUINTETO_TEST_REDIS_PASSWORD"))
		redis_pass = getenv("QUINTETO_TEST_REDIS_PASSWORD");
	if (!colon || !redis_ctl) {
		printf("1..0 # SKIP no Redis: run through tests/lib/with-redis.sh\n");
		return 0;
	}
	snprintf(redis_host, sizeof(redis_host), "%.*s", (int)(colon - addr), addr);
	redis_port = atoi(colon + 1);
	if (argc > 1 && !strcmp(argv[1], "--child"))
		return child_main();
	signal(SIGPIPE, SIG_IGN);
	uv_loop_init(&loop);
	uv_timer_init(&loop, &waker);
	uv_timer_start(&waker, waker_cb, 10, 10); /* run_until's loop turns */
	config_for(&cfg_b, "b");
	config_for(&cfg_c, "c");
	TEST(test_single_server);
	TEST(test_refused);
	TEST(test_register);
	if (b && c) {
		TEST(test_directory);
		TEST(test_lobby);
		TEST(test_sessions);
		TEST(test_expiry_child);
		TEST(test_redis_away);
		TEST(test_redis_hangs);
		TEST(test_clean_stop);
		TEST(test_lobby_merge);
	}
	uv_close((uv_handle_t *)&waker, NULL);
	uv_run(&loop, UV_RUN_DEFAULT);
	CHECK_EQ(uv_loop_close(&loop), 0);
	return tap_done();
}
