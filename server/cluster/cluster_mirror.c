/*
 * cluster_mirror.c: what this node knows of the others, and the room
 * directory (docs/SCALING.md, "The directory and the lobby"). Every question
 * the server asks (who hosts this room, is that node alive, what does its
 * lobby hold) is answered from here, never by waiting for Redis.
 *
 * The mirror is kept current by the events channel and reloaded whole after
 * each (re)connect: the set of nodes, their registrations and summaries, then
 * the directory in HSCAN pages. A reload's reads and the channel's events
 * race (an event may overtake the read of a value older than it), so the
 * events that arrive while a reload runs are applied at once and also
 * logged, and the log is applied again on top of what the reload read: each
 * event sets a value, so the last one is what stays, whichever came first.
 * Every renewal tick refreshes the nodes the same way (not the directory),
 * so a node whose registration expired is seen dead within a third of a
 * lease.
 *
 * Bounded whatever Redis holds: CLUSTER_MAX_NODES nodes, cluster_dir_cap()
 * directory entries per node, CLUSTER_SUMMARY_MAX bytes of summaries per
 * node, CLUSTER_LOG_MAX events logged per reload; names and room ids that
 * are not ours in shape are ignored.
 */
#include "cluster/cluster_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/conf.h"

/* The scripts that change the directory and say so on the channel in one step, so that the channel's
 * order is the hash's. "gone" deletes only the entry that still names the node that lets it go. */
static const char script_host[] =
	"redis.call('HSET', KEYS[1], ARGV[1], ARGV[2]) "
	"redis.call('PUBLISH', ARGV[3], 'h ' .. ARGV[1] .. ' ' .. ARGV[2]) return 1";
static const char script_gone[] =
	"if redis.call('HGET', KEYS[1], ARGV[1]) == ARGV[2] then "
	"redis.call('HDEL', KEYS[1], ARGV[1]) "
	"redis.call('PUBLISH', ARGV[3], 'g ' .. ARGV[1] .. ' ' .. ARGV[2]) return 1 end "
	"return 0";

void cluster_mirror_init(struct cluster *c)
{
	hmap_init(&c->nodes);
	hmap_init(&c->dir);
	hmap_init(&c->rdir);
	hmap_init(&c->own);
}

static void dir_clear(struct hmap *m)
{
	struct dir_entry *e;
	size_t pos = 0;

	while ((e = hmap_next(m, &pos)))
		free(e);
	hmap_finish(m);
	hmap_init(m);
}

void cluster_mirror_finish(struct cluster *c)
{
	struct cnode *n;
	char *id;
	size_t pos = 0;

	cluster_reload_abandon(c);
	dir_clear(&c->dir);
	while ((n = hmap_next(&c->nodes, &pos))) {
		free(n->lobby);
		free(n);
	}
	hmap_finish(&c->nodes);
	pos = 0;
	while ((id = hmap_next(&c->own, &pos)))
		free(id);
	hmap_finish(&c->own);
	hmap_finish(&c->rdir);
}

bool cluster_name_ok(const char *s, size_t n)
{
	size_t i;

	if (!n || n > CLUSTER_NAME_MAX)
		return false;
	for (i = 0; i < n; i++)
		if (!((s[i] >= 'a' && s[i] <= 'z') || (s[i] >= '0' && s[i] <= '9') || s[i] == '-'))
			return false;
	return true;
}

bool cluster_room_ok(const char *s, size_t n)
{
	size_t i;

	if (!n || n > CLUSTER_ROOM_MAX)
		return false;
	for (i = 0; i < n; i++)
		if (!((s[i] >= 'a' && s[i] <= 'z') || (s[i] >= 'A' && s[i] <= 'Z') ||
		      (s[i] >= '0' && s[i] <= '9') || s[i] == '-' || s[i] == '_'))
			return false;
	return true;
}

size_t cluster_dir_cap(const struct cluster *c)
{
	return (size_t)c->cfg->max_rooms * 2 + 100;
}

/* The node called `name` (n bytes, checked), made when `make` and there is room for one more. */
static struct cnode *node_get(struct cluster *c, const char *name, size_t n, bool make)
{
	char key[CLUSTER_NAME_MAX + 1];
	struct cnode *node;

	if (!cluster_name_ok(name, n))
		return NULL;
	memcpy(key, name, n);
	key[n] = '\0';
	if (!strcmp(key, c->self))
		return NULL;
	node = hmap_get(&c->nodes, key);
	if (node || !make)
		return node;
	if (c->nnodes >= CLUSTER_MAX_NODES) {
		util_log_limited(&c->log_limit, LOG_WARN, "cluster: more than %d nodes; %s is ignored",
				 CLUSTER_MAX_NODES, key);
		return NULL;
	}
	node = calloc(1, sizeof(*node));
	if (!node)
		return NULL;
	memcpy(node->name, key, n + 1);
	if (hmap_put(&c->nodes, node->name, node)) {
		free(node);
		return NULL;
	}
	c->nnodes++;
	return node;
}

/* `room` is `node`'s in the map `m` (the directory, or `rdir` with r set). */
static void dir_put(struct cluster *c, struct hmap *m, bool r, const char *room, size_t n, struct cnode *node)
{
	char key[CLUSTER_ROOM_MAX + 1];
	struct dir_entry *e;
	size_t *count = r ? &node->r_nrooms : &node->nrooms;

	memcpy(key, room, n);
	key[n] = '\0';
	e = hmap_get(m, key);
	if (e && e->node == node)
		return;
	if (*count >= cluster_dir_cap(c)) {
		util_log_limited(&c->log_limit, LOG_WARN,
				 "cluster: node %s names more than %zu rooms; %s is ignored", node->name,
				 cluster_dir_cap(c), key);
		return;
	}
	if (e) {
		(*(r ? &e->node->r_nrooms : &e->node->nrooms))--;
	} else {
		e = malloc(sizeof(*e));
		if (!e)
			return;
		memcpy(e->room, key, n + 1);
		if (hmap_put(m, e->room, e)) {
			free(e);
			return;
		}
	}
	e->node = node;
	(*count)++;
}

/* `room` leaves the directory if it names `node` (any node: NULL). */
static void dir_del(struct hmap *m, bool r, const char *room, size_t n, const struct cnode *node)
{
	char key[CLUSTER_ROOM_MAX + 1];
	struct dir_entry *e;

	memcpy(key, room, n);
	key[n] = '\0';
	e = hmap_get(m, key);
	if (!e || (node && e->node != node))
		return;
	hmap_del(m, key);
	(*(r ? &e->node->r_nrooms : &e->node->nrooms))--;
	free(e);
}

/* Parses "TOTAL\n[...]" (a node's summaries as published): its total and its array's place. */
static bool summary_parse(const char *p, size_t len, size_t *total, const char **arr, size_t *arrlen)
{
	size_t i, t = 0;

	if (len > CLUSTER_SUMMARY_MAX)
		return false;
	for (i = 0; i < len && i < 10 && p[i] >= '0' && p[i] <= '9'; i++)
		t = t * 10 + (size_t)(p[i] - '0');
	if (!i || i >= len || p[i] != '\n' || len - i < 3 || p[i + 1] != '[' || p[len - 1] != ']')
		return false;
	*total = t > CLUSTER_TOTAL_MAX ? CLUSTER_TOTAL_MAX : t;
	*arr = p + i + 1;
	*arrlen = len - i - 1;
	return true;
}

/* A copy of the array's text, NUL-terminated; NULL on ENOMEM. */
static char *text_dup(const char *p, size_t n)
{
	char *s = malloc(n + 1);

	if (s) {
		memcpy(s, p, n);
		s[n] = '\0';
	}
	return s;
}

/* Splits "WORD REST" at the first space: the word's length, 0 if there is none. */
static size_t word(const char *p, size_t len)
{
	size_t i;

	for (i = 0; i < len && p[i] != ' '; i++)
		;
	return i < len ? i : 0;
}

static bool is_self(const struct cluster *c, const char *name, size_t n)
{
	return n == strlen(c->self) && !memcmp(name, c->self, n);
}

/* "h ROOM NODE" / "g ROOM NODE": the directory changed. */
static void event_room(struct cluster *c, bool hosted, const char *p, size_t len)
{
	size_t rn = word(p, len);
	const char *node = p + rn + 1;
	size_t nn = len - rn - 1;
	struct cnode *n;

	if (!rn || !cluster_room_ok(p, rn) || !cluster_name_ok(node, nn) || is_self(c, node, nn))
		return; /* ours are in `own`: what the channel says of them is our own echo */
	n = node_get(c, node, nn, hosted);
	if (!n)
		return;
	if (!hosted) {
		dir_del(&c->dir, false, p, rn, n);
		return;
	}
	dir_put(c, &c->dir, false, p, rn, n);
	{
		char key[CLUSTER_ROOM_MAX + 1];

		memcpy(key, p, rn);
		key[rn] = '\0';
		if (hmap_get(&c->own, key))
			c->contested = true; /* another node claims a room we host: ours again at the tick */
	}
}

/* "l NODE TOTAL\n[...]": a node's new summaries. */
static bool event_lobby(struct cluster *c, const char *p, size_t len)
{
	size_t nn = word(p, len), total, alen;
	const char *arr;
	struct cnode *n;
	char *copy;

	if (!nn || is_self(c, p, nn) || !summary_parse(p + nn + 1, len - nn - 1, &total, &arr, &alen))
		return false;
	n = node_get(c, p, nn, true);
	if (!n || !(copy = text_dup(arr, alen)))
		return false;
	free(n->lobby);
	n->lobby = copy;
	n->len = alen;
	n->total = total;
	n->gen = ++c->lobby_gen;
	return n->alive;
}

/* Applies one event; whether the lobby's view of the other nodes changed. */
static bool apply(struct cluster *c, const char *msg, size_t len)
{
	struct cnode *n;
	bool was;

	if (len < 3 || msg[1] != ' ')
		return false;
	switch (msg[0]) {
	case 'h':
	case 'g':
		event_room(c, msg[0] == 'h', msg + 2, len - 2);
		return false;
	case 'l':
		return event_lobby(c, msg + 2, len - 2);
	case 'u':
	case 'd':
		n = node_get(c, msg + 2, len - 2, msg[0] == 'u');
		if (!n)
			return false;
		was = n->alive;
		n->alive = msg[0] == 'u';
		return was != n->alive;
	default:
		return false;
	}
}

void cluster_event(struct cluster *c, const char *msg, size_t len)
{
	if (len > 2 && msg[0] == 's' &&
	    msg[1] == ' ') { /* sessions ended: nothing of the mirror, never replayed */
		cluster_sessions_event(c, msg + 2, len - 2);
		return;
	}
	if (c->refreshing && !c->log_overflow) { /* applied again on top of the reload's reads */
		char *copy = NULL;

		if (!c->log)
			c->log = malloc(CLUSTER_LOG_MAX * sizeof(*c->log));
		if (c->log && c->nlog < CLUSTER_LOG_MAX)
			copy = text_dup(msg, len);
		if (copy)
			c->log[c->nlog++] = copy;
		else
			c->log_overflow = true; /* the reload is done again after this one */
	}
	if (apply(c, msg, len))
		cluster_changed(c);
}

/* --- our rooms ------------------------------------------------------------------------------------ */

/* Tells Redis that we host `room` (the hash and the channel, in one script). */
static void claim(struct cluster *c, const char *room)
{
	const char *argv[] = {
		"EVAL", script_host, "1", CLUSTER_PREFIX "rooms", room, c->self, CLUSTER_EVENTS
	};
	size_t lens[7];
	int i;

	for (i = 0; i < 7; i++)
		lens[i] = strlen(argv[i]);
	cluster_send(c, NULL, 7, argv, lens);
}

/* Lets `room` go in Redis, if the directory still names `node` for it. */
static void let_go(struct cluster *c, const char *room, const char *node)
{
	const char *argv[] = { "EVAL", script_gone, "1", CLUSTER_PREFIX "rooms", room, node, CLUSTER_EVENTS };
	size_t lens[7];
	int i;

	for (i = 0; i < 7; i++)
		lens[i] = strlen(argv[i]);
	cluster_send(c, NULL, 7, argv, lens);
}

void cluster_claim_own(struct cluster *c, bool all)
{
	const char *id;
	size_t pos = 0;

	c->contested = false;
	while ((id = hmap_next(&c->own, &pos))) {
		if (!all && !hmap_get(&c->dir, id))
			continue;
		dir_del(&c->dir, false, id, strlen(id), NULL);
		claim(c, id);
	}
}

void cluster_room_hosted(struct cluster *c, const char *room)
{
	size_t n = room ? strlen(room) : 0;
	char *id;

	if (!c || !room || !cluster_room_ok(room, n) || hmap_get(&c->own, room))
		return;
	id = text_dup(room, n);
	if (!id || hmap_put(&c->own, id, id)) {
		free(id);
		util_log(LOG_ERROR, "cluster: out of memory: room %s is not in the directory", room);
		return;
	}
	dir_del(&c->dir, false, room, n, NULL); /* adopted: whoever hosted it before does no more */
	claim(c, id);                           /* when Redis is away, the next connection announces it */
}

void cluster_room_gone(struct cluster *c, const char *room)
{
	char *id;

	if (!c || !room || !(id = hmap_del(&c->own, room)))
		return;
	let_go(c, id, c->self); /* when Redis is away, the next reload finds it ours and not hosted */
	free(id);
}

const char *cluster_room_node(const struct cluster *c, const char *room)
{
	const struct dir_entry *e;

	if (!c || !room)
		return NULL;
	if (hmap_get(&c->own, room))
		return c->self;
	e = hmap_get(&c->dir, room);
	return e ? e->node->name : NULL;
}

bool cluster_node_alive(const struct cluster *c, const char *node)
{
	const struct cnode *n;

	if (!c || !node)
		return false;
	if (!strcmp(node, c->self))
		return true;
	n = hmap_get(&c->nodes, node);
	return n && n->alive;
}

void cluster_lobby_foreach(const struct cluster *c, cluster_rooms_cb cb, void *ctx)
{
	const struct cnode *n;
	size_t pos = 0;

	if (!c)
		return;
	while ((n = hmap_next(&c->nodes, &pos)))
		if (n->alive && n->lobby)
			cb(ctx, n->name, n->lobby, n->len, n->total, n->gen);
}

size_t cluster_directory_size(const struct cluster *c)
{
	return c ? c->dir.len + c->own.len : 0;
}

size_t cluster_nodes_alive(const struct cluster *c)
{
	const struct cnode *n;
	size_t pos = 0, k = 1;

	if (!c)
		return 0;
	while ((n = hmap_next(&c->nodes, &pos)))
		k += n->alive;
	return k;
}

/* --- the reload ----------------------------------------------------------------------------------- */

void cluster_reload_abandon(struct cluster *c)
{
	struct cnode *n;
	size_t i, pos = 0;

	c->refreshing = false;
	while ((n = hmap_next(&c->nodes, &pos))) {
		free(n->r_lobby);
		n->r_lobby = NULL;
		n->r_listed = n->r_alive = n->r_got = false;
		n->r_len = n->r_total = n->r_nrooms = 0;
	}
	dir_clear(&c->rdir);
	for (i = 0; i < c->nlog; i++)
		free(c->log[i]);
	free(c->log);
	c->log = NULL;
	c->nlog = 0;
	c->log_overflow = false;
	c->nbatch = 0;
}

/* Whether a reply of the reload may be used: the reload it belongs to still runs. */
static bool reload_live(struct cluster *c, const redisReply *r)
{
	if (!r || !c->refreshing || c->state != CLUSTER_UP)
		return false;
	if (r->type == REDIS_REPLY_ERROR) {
		cluster_fail(c, r->str);
		return false;
	}
	return true;
}

/* An MGET of the batch's keys answered as asked: an array of one value a node of the batch. */
static bool mget_answer(struct cluster *c, const redisReply *r)
{
	if (!reload_live(c, r))
		return false;
	if (r->type != REDIS_REPLY_ARRAY || r->elements != c->nbatch) {
		cluster_fail(c, "MGET answered something else");
		return false;
	}
	return true;
}

/* The nodes that went: forgotten once nothing names them (a cluster whose node names change must not
 * fill CLUSTER_MAX_NODES with the dead). */
static void forget_dead(struct cluster *c)
{
	const char *argv[3] = { "SREM", CLUSTER_PREFIX "nodes", NULL };
	size_t lens[3] = { 4, strlen(CLUSTER_PREFIX "nodes"), 0 };
	struct cnode *n;
	size_t pos = 0;

	while ((n = hmap_next(&c->nodes, &pos))) {
		if (n->alive || n->nrooms)
			continue;
		if (n->r_listed) { /* a node that registers again SADDs itself at each renewal */
			argv[2] = n->name;
			lens[2] = strlen(n->name);
			cluster_send(c, NULL, 3, argv, lens);
		}
		hmap_del(&c->nodes, n->name);
		c->nnodes--;
		free(n->lobby);
		free(n->r_lobby);
		free(n);
	}
}

/* The reload's reads are in: they become the mirror, the log is applied on top. */
static void reload_finish(struct cluster *c)
{
	struct cnode *n;
	size_t i, pos = 0;
	bool changed = false, full = c->full, again = c->log_overflow;

	while ((n = hmap_next(&c->nodes, &pos))) {
		bool alive = n->r_listed && n->r_alive;

		changed |= alive != n->alive;
		n->alive = alive;
		if (n->r_got) {
			changed |= alive;
			free(n->lobby);
			n->lobby = n->r_lobby;
			n->len = n->r_len;
			n->total = n->r_total;
			n->gen = ++c->lobby_gen;
			n->r_lobby = NULL;
		}
		if (full)
			n->nrooms = n->r_nrooms;
	}
	if (full) {
		struct hmap old = c->dir;

		c->dir = c->rdir;
		hmap_init(&c->rdir);
		c->rdir = old; /* freed by the abandon below */
	}
	for (i = 0; i < c->nlog; i++)
		changed |= apply(c, c->log[i], strlen(c->log[i]));
	if (full) {
		forget_dead(c);
		changed = true; /* the lobby's view was rebuilt */
	}
	cluster_reload_abandon(c); /* frees what the reload held; `refreshing` ends */
	if (full && c->contested)
		cluster_claim_own(c, false);
	if (changed)
		cluster_changed(c);
	if (again || c->again) {
		c->again = false;
		cluster_reload(c, true);
	}
}

static void scan_cb(redisAsyncContext *ac, void *reply, void *priv);

static void scan(struct cluster *c, const char *cursor, size_t len)
{
	const char *argv[] = { "HSCAN", CLUSTER_PREFIX "rooms", cursor, "COUNT", CLUSTER_SCAN_COUNT };
	size_t lens[] = { 5, strlen(argv[1]), len, 5, strlen(CLUSTER_SCAN_COUNT) };

	if (!cluster_send(c, scan_cb, 5, argv, lens))
		cluster_reload_abandon(c);
}

/* One field of the directory as the scan read it. */
static void scanned(struct cluster *c, const redisReply *room, const redisReply *node)
{
	struct cnode *n;
	char key[CLUSTER_ROOM_MAX + 1];

	if (room->type != REDIS_REPLY_STRING || node->type != REDIS_REPLY_STRING ||
	    !cluster_room_ok(room->str, room->len) || !cluster_name_ok(node->str, node->len))
		return;
	memcpy(key, room->str, room->len);
	key[room->len] = '\0';
	if (is_self(c, node->str, node->len)) {
		if (!hmap_get(&c->own, key))
			let_go(c, key, c->self); /* closed while Redis was away, or before a restart */
		return;
	}
	if (hmap_get(&c->own, key))
		c->contested = true;
	if ((n = node_get(c, node->str, node->len, true)))
		dir_put(c, &c->rdir, true, room->str, room->len, n);
}

static void scan_cb(redisAsyncContext *ac, void *reply, void *priv)
{
	struct cluster *c = priv;
	redisReply *r = reply, *fields;
	size_t i;

	if (!reload_live(c, r))
		return;
	if (r->type != REDIS_REPLY_ARRAY || r->elements != 2 || r->element[0]->type != REDIS_REPLY_STRING ||
	    r->element[1]->type != REDIS_REPLY_ARRAY) {
		cluster_fail(c, "HSCAN answered something else");
		return;
	}
	fields = r->element[1];
	for (i = 0; i + 1 < fields->elements; i += 2)
		scanned(c, fields->element[i], fields->element[i + 1]);
	if (r->element[0]->len == 1 && r->element[0]->str[0] == '0')
		reload_finish(c);
	else
		scan(c, r->element[0]->str, r->element[0]->len);
}

/* After the nodes (and their summaries): the directory, or the end of a tick's refresh. */
static void nodes_done(struct cluster *c)
{
	if (c->full)
		scan(c, "0", 1);
	else
		reload_finish(c);
}

static void lobbies_cb(redisAsyncContext *ac, void *reply, void *priv)
{
	struct cluster *c = priv;
	redisReply *r = reply;
	size_t i, total, alen;
	const char *arr;

	if (!mget_answer(c, r))
		return;
	for (i = 0; i < c->nbatch; i++) {
		struct cnode *n = c->batch[i];
		const redisReply *v = r->element[i];

		n->r_got = true;
		if (v->type == REDIS_REPLY_STRING && summary_parse(v->str, v->len, &total, &arr, &alen) &&
		    (n->r_lobby = text_dup(arr, alen))) {
			n->r_len = alen;
			n->r_total = total;
		}
	}
	nodes_done(c);
}

/* MGET of PREFIX KIND:NAME for every node of the batch, answered to `fn`. */
static bool mget(struct cluster *c, const char *kind, redisCallbackFn *fn)
{
	const char *argv[CLUSTER_MAX_NODES + 1];
	size_t lens[CLUSTER_MAX_NODES + 1], i;
	char keys[CLUSTER_MAX_NODES][CLUSTER_NAME_MAX + 24];

	argv[0] = "MGET";
	lens[0] = 4;
	for (i = 0; i < c->nbatch; i++) {
		lens[i + 1] = (size_t)snprintf(keys[i], sizeof(keys[i]), CLUSTER_PREFIX "%s:%s", kind,
					       c->batch[i]->name);
		argv[i + 1] = keys[i];
	}
	return cluster_send(c, fn, (int)c->nbatch + 1, argv, lens);
}

static void regs_cb(redisAsyncContext *ac, void *reply, void *priv)
{
	struct cluster *c = priv;
	redisReply *r = reply;
	size_t i, k = 0;

	if (!mget_answer(c, r))
		return;
	for (i = 0; i < c->nbatch; i++) {
		struct cnode *n = c->batch[i];

		n->r_alive = r->element[i]->type == REDIS_REPLY_STRING;
		/* summaries to read: every live node's on a full reload, a node's that comes alive on a tick
		 */
		if (n->r_alive && (c->full || !n->alive || !n->lobby))
			c->batch[k++] = n;
	}
	c->nbatch = k;
	if (!k)
		nodes_done(c);
	else if (!mget(c, "lobby", lobbies_cb))
		cluster_reload_abandon(c);
}

static void members_cb(redisAsyncContext *ac, void *reply, void *priv)
{
	struct cluster *c = priv;
	redisReply *r = reply;
	size_t i;

	if (!reload_live(c, r))
		return;
	if (r->type != REDIS_REPLY_ARRAY) {
		cluster_fail(c, "SMEMBERS answered something else");
		return;
	}
	c->nbatch = 0;
	for (i = 0; i < r->elements && c->nbatch < CLUSTER_MAX_NODES; i++) {
		const redisReply *v = r->element[i];
		struct cnode *n;

		if (v->type == REDIS_REPLY_STRING && (n = node_get(c, v->str, v->len, true)) &&
		    !n->r_listed) {
			n->r_listed = true;
			c->batch[c->nbatch++] = n;
		}
	}
	if (!c->nbatch)
		nodes_done(c);
	else if (!mget(c, "node", regs_cb))
		cluster_reload_abandon(c);
}

void cluster_reload(struct cluster *c, bool full)
{
	const char *argv[] = { "SMEMBERS", CLUSTER_PREFIX "nodes" };
	size_t lens[] = { 8, strlen(argv[1]) };

	if (c->refreshing) {
		c->again |= full && !c->full;
		return;
	}
	cluster_reload_abandon(c);
	c->refreshing = true;
	c->full = full;
	if (!cluster_send(c, members_cb, 2, argv, lens))
		cluster_reload_abandon(c);
}
