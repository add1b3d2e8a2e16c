/*
 * http.c: the HTTP API (see http_int.h). One struct http_req per request, owned
 * by the connection's per-session data and freed in http_closed(); a store
 * read in flight is cancelled there, so its callback never sees a freed
 * request, and the reader never computes an answer nobody waits for.
 */
#include "net/http_int.h"

#include <errno.h>
#include <libwebsockets.h>
#include <stdlib.h>
#include <string.h>

#include "bots.h"
#include "base/pwhash.h"
#include "config.h"
#include "cluster/cluster.h"
#include "room/room.h"
#include "store/store.h"

#define HTTP_CHUNK 16384

struct http_req {
	struct http *api;
	struct lws *wsi;
	struct store_req *pending; /* store read in flight */
	char *body;
	size_t len, sent;
	int status;
	const char *ctype;
	bool ready, headers_sent;
	bool head;                             /* HEAD: headers only */
	char *location;                        /* a redirect's target, or NULL */
	uint64_t needs;                        /* the journal batch the answer waits for (held) */
	char addr[64];                         /* the client's address, for the budgets */
	bool reading;                          /* counted in api->reads until answered or closed */
	bool by_addr;                          /* and in api->reads_by_addr (not a trusted proxy's own) */
	bool paused;                           /* rx paused while the answer is not ready (watch) */
	int hup_fd;                            /* the socket in api->hup_fd's set, or -1 */
	int retry_after;                       /* seconds, for a Retry-After header; 0: none */
	size_t charged;                        /* body bytes counted in the budget (body_release) */
	struct http_req *held_next, **held_pp; /* in api->held while held */
};

static void held_unlink(struct http_req *h)
{
	if (!h->held_pp)
		return;
	*h->held_pp = h->held_next;
	if (h->held_next)
		h->held_next->held_pp = h->held_pp;
	h->held_pp = NULL;
}

/*
 * The budget for answers held in memory until the client reads them (clients
 * that ask for a large archive and never read it must not hold the server's
 * memory): at most cfg->http_body_mem in all and an eighth of it per address.
 * Small answers (errors, redirects) are not counted; an answer into an
 * empty budget always goes.
 */
#define BODY_SMALL 1024

static bool body_charge(struct http_req *h, size_t len)
{
	struct http *api = h->api;
	size_t cap = api->cfg->http_body_mem, mine;

	if (len <= BODY_SMALL)
		return true;
	mine = tally_get(&api->body_by_addr, h->addr);
	/* one answer alone is always let through, however large: it is the piling up that is refused */
	if ((api->body_bytes && api->body_bytes + len > cap) || (mine && mine + len > cap / 8) ||
	    tally_add(&api->body_by_addr, h->addr, (long long)len)) {
		api->metrics->http_busy++;
		return false;
	}
	api->body_bytes += len;
	h->charged = len;
	return true;
}

static void body_release(struct http_req *h)
{
	if (!h->charged)
		return;
	h->api->body_bytes -= h->charged;
	(void)tally_add(&h->api->body_by_addr, h->addr, -(long long)h->charged);
	h->charged = 0;
}

/*
 * The archive reader's queue is bounded: at most cfg->archive_reads reads
 * waiting or running in all and cfg->archive_reads_per_addr from one
 * address. A request past it is answered 503 busy at once, before anything
 * is queued or read: a flood costs the reader nothing and waits behind
 * nobody, and other addresses keep their share. A read leaves the count
 * when it is answered or its connection closes (which drops it unrun).
 */
#define READ_RETRY_AFTER_S 2

/*
 * Whether h's address is counted by itself: the client a trusted proxy names is,
 * the proxy's own (a request without a usable X-Forwarded-For) is every client's.
 */
static bool read_by_addr(const struct http_req *h)
{
	return !h->api->cfg->n_proxies || !config_is_trusted_proxy(h->api->cfg, h->addr);
}

static bool read_room(const struct http_req *h)
{
	const struct http *api = h->api;

	return api->reads < (size_t)api->cfg->archive_reads &&
	       (!read_by_addr(h) ||
		tally_get(&api->reads_by_addr, h->addr) < (size_t)api->cfg->archive_reads_per_addr);
}

static bool read_admit(struct http_req *h)
{
	struct http *api = h->api;

	if (!read_room(h)) {
		hangups_reap(
			&api->hup); /* the flood's hang-ups not seen yet this turn give their places first */
		if (!read_room(h))
			return false;
	}
	if (read_by_addr(h)) {
		if (tally_add(&api->reads_by_addr, h->addr, 1))
			return false;
		h->by_addr = true;
	}
	api->reads++;
	h->reading = true;
	return true;
}

static void read_release(struct http_req *h)
{
	if (!h->reading)
		return;
	h->reading = false;
	h->api->reads--;
	if (h->by_addr)
		(void)tally_add(&h->api->reads_by_addr, h->addr, -1);
	h->by_addr = false;
}

/*
 * While its answer is not ready (a store read, or a journal batch to commit)
 * a connection is paused. lws 4.1 does not read a connection in the middle
 * of a transaction, yet leaves POLLIN on: once the client hung up, its EOF
 * (level-triggered) woke the loop at once, every turn, until the answer
 * came (a loop at 100% of a core while any read waited). Paused, lws does
 * not poll it; our own epoll set, watched by the loop, wakes only on a hang-up
 * (EPOLLRDHUP): the client's read is dropped then, and the connection closed.
 */
static void watch(struct http_req *h)
{
	if (h->paused)
		return;
	h->paused = true;
	(void)lws_rx_flow_control(h->wsi, 0);
	h->hup_fd = hangups_watch(&h->api->hup, lws_get_socket_fd(h->wsi), h);
}

/* Ends watch(); resume: lws reads the connection again (not when it closes). */
static void unwatch(struct http_req *h, bool resume)
{
	if (!h->paused)
		return;
	h->paused = false;
	hangups_unwatch(&h->api->hup, h->hup_fd);
	h->hup_fd = -1;
	if (resume)
		(void)lws_rx_flow_control(h->wsi, 1);
}

/* The client of a paused request hung up: its read is dropped, the connection closed (http_closed). */
static void hung_up(void *item)
{
	struct http_req *h = item;

	unwatch(h, false);
	if (store_req_cancel(h->pending))
		h->api->metrics->archive_reads_dropped++;
	h->pending = NULL;
	read_release(h);
	lws_set_timeout(h->wsi, PENDING_TIMEOUT_USER_OK, LWS_TO_KILL_ASYNC);
}

int http_start(struct http *api, uv_loop_t *loop)
{
	return hangups_start(&api->hup, loop,
			     hung_up); /* no request is freed there: hung_up() closes later */
}

void http_stop(struct http *api)
{
	hangups_stop(&api->hup);
}

void http_init(struct http *api, const struct config *cfg)
{
	api->cfg = cfg;
	api->body_bytes = 0;
	api->reads = 0;
	hangups_init(&api->hup);
	tally_init(&api->body_by_addr);
	tally_init(&api->reads_by_addr);
}

void http_finish(struct http *api)
{
	tally_finish(&api->body_by_addr);
	tally_finish(&api->reads_by_addr);
}

static void respond(struct http_req *h, int status, const char *ctype, char *body_take, size_t len)
{
	static const char busy[] =
		"{\"error\":\"busy\",\"code\":\"busy\",\"message\":\"the server holds too many unread "
		"answers: try again shortly\"}";

	read_release(h); /* every answer ends the request's read, if it had one */
	if (!body_charge(h, len)) {
		free(body_take);
		body_take = strdup(busy);
		len = body_take ? sizeof(busy) - 1 : 0;
		status = 503;
		ctype = "application/json";
	}
	h->status = status;
	h->ctype = ctype;
	h->body = body_take;
	h->len = len;
	if (h->needs > h->api->sessions->committed) { /* shows what the journal does not have yet */
		h->held_next = h->api->held;
		if (h->held_next)
			h->held_next->held_pp = &h->held_next;
		h->held_pp = &h->api->held;
		h->api->held = h;
		return;
	}
	unwatch(h, true);
	h->ready = true;
	lws_callback_on_writable(h->wsi);
}

void http_committed(struct http *api)
{
	struct http_req *h, *next;

	for (h = api->held; h; h = next) {
		next = h->held_next;
		if (h->needs > api->sessions->committed)
			continue;
		held_unlink(h);
		unwatch(h, true);
		h->ready = true;
		lws_callback_on_writable(h->wsi);
	}
}

static void respond_json(struct http_req *h, int status, json_t *j_take)
{
	char *body = j_take ? json_dumps(j_take, JSON_COMPACT) : NULL;

	json_decref(j_take);
	if (!body) {
		body = strdup("{\"error\":\"internal\",\"code\":\"internal\",\"message\":\"out of memory\"}");
		status = 500;
	}
	respond(h, status, "application/json", body, body ? strlen(body) : 0);
}

static void respond_error(struct http_req *h, int status, const char *code, const char *message)
{
	respond_json(h, status,
		     json_pack("{s:s, s:s, s:s}", "error", code, "code", code, "message", message));
}

/* The archive reader's queue is full (read_admit): 503 busy with Retry-After, nothing queued. */
static void respond_read_busy(struct http_req *h)
{
	static const char busy[] =
		"{\"error\":\"busy\",\"code\":\"busy\",\"message\":\"too many archive reads are "
		"waiting: try again shortly\"}";
	char *body = strdup(busy);

	h->api->metrics->http_reads_refused++;
	h->retry_after = READ_RETRY_AFTER_S;
	respond(h, 503, "application/json", body, body ? sizeof(busy) - 1 : 0);
}

/*
 * The HTTP status of an archive read's outcome (store.h): the
 * one place the store's codes become statuses.
 */
static int store_status(int err)
{
	switch (err) {
	case 0:
		return 200;
	case STORE_E_NOT_FOUND:
		return 404;
	case STORE_E_BAD_REQUEST:
		return 400;
	case STORE_E_CLOSED: /* the server stopped before the read ran */
		return 503;
	default: /* the database failed, or a match does not verify */
		return 500;
	}
}

static void store_done_cb(void *ctx, int err, char *body, size_t len)
{
	struct http_req *h = ctx;

	h->pending = NULL;
	if (!body) {
		respond_error(h, 500, "internal", "the archive could not be read");
		return;
	}
	respond(h, store_status(err), "application/json", body, len);
}

static void healthz(struct http *api, struct http_req *h)
{
	respond_json(h, 200,
		     json_pack("{s:s, s:s, s:I, s:I, s:I}", "status", "ok", "version", QUINTETO_VERSION,
			       "uptime_ms", (json_int_t)(util_now_ms() - api->started_ms), "connections",
			       (json_int_t)api->sessions->count, "rooms",
			       (json_int_t)lobby_rooms_count(api->lobby)));
}

/* A game's bot levels (bot_level_at()) as a JSON array; NULL when out of memory. */
static json_t *game_levels(const char *game_id)
{
	const struct bot_strategy *b;
	json_t *list = json_array();

	for (int i = 0; list && (b = bot_level_at(game_id, i)); i++)
		if (json_array_append_new(list, json_string(b->level))) {
			json_decref(list);
			list = NULL;
		}
	return list;
}

/*
 * GET /api/games: the ids of the games this server hosts, in the registry's
 * order (the web client's list), and each game's bot levels (the levels the
 * client offers for add_bot and stand_in_level).
 */
static void games_list(struct http_req *h)
{
	json_t *ids = json_array(), *levels = json_object();
	int i;

	for (i = 0; ids && levels && rules_games[i]; i++) {
		/* json_object_set_new() takes the list on every path, NULL included */
		if (json_object_set_new(levels, rules_games[i]->id, game_levels(rules_games[i]->id)) ||
		    json_array_append_new(ids, json_string(rules_games[i]->id))) {
			json_decref(ids);
			ids = NULL;
		}
	}
	if (!ids || !levels) {
		json_decref(ids);
		json_decref(levels);
		respond_error(h, 500, "internal", "out of memory");
		return;
	}
	respond_json(h, 200, json_pack("{s:o, s:o}", "games", ids, "levels", levels));
}

/* Live rooms by game and status: one pass over the rooms at each scrape (microseconds for thousands). */
static int count_rooms(struct http *api, struct metrics_rooms *out)
{
	const struct room *r;
	size_t pos = 0;
	int n = 0, i;

	for (i = 0; rules_games[i] && n < METRICS_MAX_GAMES; i++)
		out[n++] = (struct metrics_rooms){ .game = rules_games[i]->id };
	while ((r = lobby_room_next(api->lobby, &pos)))
		for (i = 0; i < n; i++)
			if (room_game(r) == rules_games[i] && (unsigned)room_status(r) < 3)
				out[i].by_status[room_status(r)]++;
	return n;
}

/*
 * Ready to take changes: the database is open with its migrations applied
 * (the server does not start otherwise), journal writes commit, and the
 * server is not stopping. Else 503 with the reasons, for a load balancer.
 */
/*
 * A node of a cluster says which and whether its Redis answers. Redis away
 * does not make it unready: play goes on, only the other nodes' rooms may be
 * stale (docs/SCALING.md); it says so, for whoever looks. Redis refusing the
 * node's credentials does (readyz: a configuration error, redis_refused).
 */
static json_t *readyz_cluster(struct http *api, json_t *j)
{
	struct cluster *c = lobby_cluster(api->lobby);
	bool up = cluster_redis_up(c);

	if (j && c &&
	    json_object_set_new(
		    j, "cluster",
		    json_pack(
			    "{s:s, s:s, s:s}", "node", cluster_node(c), "redis", up ? "up" : "down",
			    "message",
			    up ? "Redis answers"
			    : cluster_redis_refused(c)
				    ? "Redis refuses this node (see reasons): it takes no new players until "
				      "its credentials are accepted"
				    : "Redis does not answer: rooms in play go on; the directory and the "
				      "other nodes' rooms are as last known, and heal when it is back"))) {
		json_decref(j);
		return NULL;
	}
	return j;
}

static void readyz(struct http *api, struct http_req *h)
{
	json_t *reasons = json_array();
	char why[400];
	int err = store_failure(api->store);
	size_t n;

	if (err) {
		snprintf(why, sizeof(why), "database writes fail: %s; they are retried, changes are refused",
			 store_failure_text(err));
		(void)json_array_append_new(
			reasons, json_pack("{s:s, s:s}", "code", "storage_unavailable", "message", why));
	}
	if (api->stopping)
		(void)json_array_append_new(reasons, json_pack("{s:s, s:s}", "code", "stopping", "message",
							       "the server is stopping"));
	if (cluster_redis_refused(lobby_cluster(api->lobby))) {
		snprintf(why, sizeof(why), "Redis refuses this node: %s",
			 cluster_redis_refused(lobby_cluster(api->lobby)));
		(void)json_array_append_new(reasons,
					    json_pack("{s:s, s:s}", "code", "redis_refused", "message", why));
	}
	if (!reasons) {
		respond_error(h, 500, "internal", "out of memory");
		return;
	}
	n = json_array_size(reasons);
	respond_json(h, n ? 503 : 200,
		     readyz_cluster(api, json_pack("{s:s, s:o}", "status", n ? "unavailable" : "ok",
						   "reasons", reasons)));
}

static void metrics(struct http *api, struct http_req *h)
{
	struct metrics_rooms rooms[METRICS_MAX_GAMES];
	int n_games = count_rooms(api, rooms);
	struct metrics_gauges g = {
		.rooms_by_game = rooms,
		.n_games = n_games,
		.connections = api->sessions->count,
		.frames_alive = buf_live,
		.frames_held = sessions_held(api->sessions),
		.rooms = lobby_rooms_count(api->lobby),
		.players = lobby_players_count(api->lobby),
		.store_queue = store_queue_depth(api->store),
		.uptime_s = (double)(util_now_ms() - api->started_ms) / 1000.0,
		.journal_failing = store_journal_failing(api->store),
		.checkpoints = { store_checkpoints(api->store, false), store_checkpoints(api->store, true) },
		.now_ns = util_mono_ns(),
		.archive_reads = api->reads,
		.hello_reads = api->hellos ? *api->hellos : 0,
		.pwhash_queue = pwhash_depth(api->pwhash),
		.pwhash_done = pwhash_done(api->pwhash),
	};
	size_t len = 0;
	char *text;

	lobby_bot_counts(api->lobby, &g.bot_queued, &g.bot_running);
	if (lobby_cluster(api->lobby)) {
		struct cluster *c = lobby_cluster(api->lobby);

		g.cluster = true;
		g.redis_up = cluster_redis_up(c);
		g.directory = cluster_directory_size(c);
		g.nodes_alive = cluster_nodes_alive(c);
	}
	text = metrics_render(api->metrics, &g, &len);

	if (!text) {
		respond_error(h, 500, "internal", "out of memory");
		return;
	}
	respond(h, 200, "text/plain; version=0.0.4", text, len);
}

/* Copies the value of query argument `name` ("game=") into out; false if absent. */
static bool arg(struct lws *wsi, const char *name, char *out, int outlen)
{
	char buf[256];
	const char *v = lws_get_urlarg_by_name(wsi, name, buf, sizeof(buf));

	if (!v) {
		*out = '\0';
		return false;
	}
	snprintf(out, (size_t)outlen, "%s", v); /* lws returns a pointer past "name=" in buf */
	return true;
}

/*
 * Strictly: the value of query argument `name` ("game=") into out[outlen].
 * The count found, 1 or 0 (absent), or -EINVAL when it does not fit or is
 * given twice (a value cut short or a second one ignored would answer a
 * different question).
 */
static int arg_strict(struct lws *wsi, const char *name, char *out, size_t outlen)
{
	static char frag[4096];
	size_t nl = strlen(name);
	int idx, len, found = 0;

	*out = '\0';
	for (idx = 0; (len = lws_hdr_fragment_length(wsi, WSI_TOKEN_HTTP_URI_ARGS, idx)) > 0; idx++) {
		if ((size_t)len >= sizeof(frag) ||
		    lws_hdr_copy_fragment(wsi, frag, sizeof(frag), WSI_TOKEN_HTTP_URI_ARGS, idx) < 0)
			return -EINVAL;
		if (strncmp(frag, name, nl))
			continue;
		if (found || strlen(frag + nl) >= outlen)
			return -EINVAL;
		snprintf(out, outlen, "%s", frag + nl);
		found = 1;
	}
	return found;
}

/* A positive decimal of at most `digits` digits, no sign, no leading zero, nothing after. */
static bool parse_count(const char *s, size_t digits, long long *out)
{
	size_t n = strlen(s);

	if (!n || n > digits || *s == '0' || strspn(s, "0123456789") != n)
		return false;
	*out = strtoll(s, NULL, 10);
	return true;
}

static bool valid_token(const char *s)
{
	size_t n = strlen(s);

	if (!n || n > WIRE_ROOM_ID_MAX)
		return false;
	for (; *s; s++)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || (*s >= '0' && *s <= '9') ||
		      *s == '_' || *s == '-'))
			return false;
	return true;
}

/* Answers 400 with `message`; -EINVAL for the caller to return. */
static int bad_request(struct http_req *h, const char *message)
{
	respond_error(h, 400, "bad_request", message);
	return -EINVAL;
}

/* The list's query (PROTOCOL.md: GET /api/matches) into q, its strings in the buffers; 0, or -EINVAL after a
 * 400. */
static int match_query(struct lws *wsi, struct http_req *h, struct archive_query *q, char *game, char *player,
		       char *result)
{
	char before[32] = "", limit[16] = "";
	long long lim = 20, bef = 0;
	int b, l;

	if (arg_strict(wsi, "game=", game, 64) < 0)
		return bad_request(h, "game must be one of this server's games, given once");
	if (arg_strict(wsi, "player=", player, 128) < 0)
		return bad_request(h,
				   "player must be a player's name (1..24 printable characters), given once");
	if (arg_strict(wsi, "result=", result, 64) < 0)
		return bad_request(h, "result must be draw, won, lost or a result's reason, given once");
	b = arg_strict(wsi, "before=", before, sizeof(before));
	if (b < 0 || (b && *before && !parse_count(before, 19, &bef)))
		return bad_request(h, "before must be a cursor from `next`");
	l = arg_strict(wsi, "limit=", limit, sizeof(limit));
	if (l < 0 || (l && *limit && (!parse_count(limit, 3, &lim) || lim > ARCHIVE_LIMIT_MAX)))
		return bad_request(h, "limit must be 1..100");
	if (*game && !rules_game_find(game)) /* the registry says which games this server has */
		return bad_request(h, "game must be one of this server's games");
	if (*player && !wire_text_valid(player, WIRE_NAME_MAX))
		return bad_request(h, "player must be a player's name (1..24 printable characters)");
	if (*result && !archive_result_valid(result))
		return bad_request(h, "result must be draw, won, lost or a result's reason");
	if (*result && (!strcmp(result, "won") || !strcmp(result, "lost")) && !*player)
		return bad_request(h, "result=won and result=lost need a player");
	q->game = *game ? game : NULL;
	q->player = *player ? player : NULL;
	q->result = *result ? result : NULL;
	q->before = bef;
	q->limit = (int)lim;
	return 0;
}

static void match_list(struct http *api, struct lws *wsi, struct http_req *h)
{
	char game[64] = "", player[128] = "", result[64] = "";
	struct archive_query q;

	if (match_query(wsi, h, &q, game, player, result))
		return;
	h->pending = store_match_find(api->store, &q, store_done_cb, h);
	if (!h->pending)
		respond_error(h, 500, "internal", "out of memory");
}

/*
 * The replay's page (PROTOCOL.md): from = a step (0, the default, or a count
 * without a leading zero), limit = 1.. steps, more than ARCHIVE_STEPS_MAX
 * asks for a full page; 0, or -EINVAL after a 400.
 */
static int replay_page(struct lws *wsi, struct http_req *h, size_t *from, size_t *limit)
{
	char f[32] = "", l[16] = "";
	long long v = 0;
	int n = arg_strict(wsi, "from=", f, sizeof(f));

	if (n < 0 || (n && strcmp(f, "0") && !parse_count(f, 12, &v)))
		return bad_request(h, "from must be a step of the match (0, 1, 2...), given once");
	*from = (size_t)v;
	v = ARCHIVE_STEPS_MAX;
	n = arg_strict(wsi, "limit=", l, sizeof(l));
	if (n < 0 || (n && !parse_count(l, 9, &v)))
		return bad_request(h, "limit must be a number of steps (1, 2...), given once");
	*limit = v > ARCHIVE_STEPS_MAX ? ARCHIVE_STEPS_MAX : (size_t)v;
	return 0;
}

/* /api/matches/{id} and /api/matches/{id}/replay; `rest` is what follows "/api/matches/". */
static void match_get(struct http *api, struct lws *wsi, struct http_req *h, const char *rest)
{
	size_t from = 0, limit = 0;
	char id[WIRE_ROOM_ID_MAX + 1];
	const char *slash = strchr(rest, '/');
	size_t n = slash ? (size_t)(slash - rest) : strlen(rest);

	if (n > WIRE_ROOM_ID_MAX || (slash && strcmp(slash, "/replay") != 0)) {
		respond_error(h, 404, "not_found",
			      slash ? "no such endpoint" : "no archived match has this id");
		return;
	}
	memcpy(id, rest, n);
	id[n] = '\0';
	if (!valid_token(id)) {
		respond_error(h, 404, "not_found", "no archived match has this id");
		return;
	}
	if (slash && replay_page(wsi, h, &from, &limit))
		return;
	h->pending = slash ? store_match_replay(api->store, id, from, limit, store_done_cb, h)
			   : store_match_get(api->store, id, store_done_cb, h);
	if (!h->pending)
		respond_error(h, 500, "internal", "out of memory");
}

/*
 * /api/players/{name}: the name as the URI decodes it. A name that cannot be
 * one is 400, as the list's ?player= answers it; none, or a deeper path, is 404.
 */
static void player_get(struct http *api, struct http_req *h, const char *name)
{
	if (!*name || strchr(name, '/')) {
		respond_error(h, 404, "not_found", "no such endpoint");
		return;
	}
	if (!wire_text_valid(name, WIRE_NAME_MAX)) {
		bad_request(h, "player must be a player's name (1..24 printable characters)");
		return;
	}
	h->pending = store_player_get(api->store, name, store_done_cb, h);
	if (!h->pending)
		respond_error(h, 500, "internal", "out of memory");
}

/* /api/leaderboard?game=G&limit=N (PROTOCOL.md, Accounts and ratings): game required, limit 1..200. */
static void leaderboard(struct http *api, struct lws *wsi, struct http_req *h)
{
	char game[64] = "", limit[16] = "";
	long long lim = 50;
	int l;

	if (arg_strict(wsi, "game=", game, sizeof(game)) != 1 || !rules_game_find(game)) {
		bad_request(h, "game must be one of this server's games, given once");
		return;
	}
	l = arg_strict(wsi, "limit=", limit, sizeof(limit));
	if (l < 0 || (l && (!parse_count(limit, 3, &lim) || lim > ARCHIVE_BOARD_MAX))) {
		bad_request(h, "limit must be 1..200, given once");
		return;
	}
	h->pending = store_leaderboard(api->store, game, (int)lim, store_done_cb, h);
	if (!h->pending)
		respond_error(h, 500, "internal", "out of memory");
}

/* Appends `s` percent-encoded (all but [A-Za-z0-9_.~-]) to out[*n..cap). */
static void pct_append(char *out, size_t cap, size_t *n, const char *s)
{
	for (; *s && *n + 4 < cap; s++) {
		unsigned char c = (unsigned char)*s;

		if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
		    strchr("_.~-", c))
			out[(*n)++] = (char)c;
		else
			*n += (size_t)snprintf(out + *n, cap - *n, "%%%02X", c);
	}
	out[*n] = '\0';
}

/*
 * /matches?game=&player=&result= and /replay/<id>?ply=N, the addresses people share, answered 302 to the
 * web client's routes (#/matches..., #/replay/<id>?ply=N), which the page reads. Only the known
 * parameters are carried over, re-encoded.
 */
static void page_redirect(struct lws *wsi, struct http_req *h, const char *uri)
{
	static const char *const keys[] = { "game", "player", "result" };
	char target[512], value[128], key[16];
	size_t n;
	bool replay = !strncmp(uri, "/replay/", 8);

	if (replay && !valid_token(uri + 8)) {
		respond_error(h, 404, "not_found", "no archived match has this id");
		return;
	}
	n = (size_t)snprintf(target, sizeof(target), "/#/%s%s", replay ? "replay/" : "matches",
			     replay ? uri + 8 : "");
	for (size_t k = 0; k < (replay ? 1 : 3); k++) {
		snprintf(key, sizeof(key), "%s=", replay ? "ply" : keys[k]);
		if (!arg(wsi, key, value, sizeof(value)) || !*value ||
		    (replay && strspn(value, "0123456789") != strlen(value)))
			continue;
		n += (size_t)snprintf(target + n, sizeof(target) - n, "%c%s", strchr(target, '?') ? '&' : '?',
				      key);
		pct_append(target, sizeof(target), &n, value);
	}
	h->location = strdup(target);
	if (!h->location) {
		respond_error(h, 500, "internal", "out of memory");
		return;
	}
	respond_json(h, 302, json_pack("{s:s}", "location", target));
}

/*
 * /players/{handle} and /leaderboard?game=G, issue 26's addresses to share:
 * 302 to the web client's #/players/{handle} and #/leaderboard?game=G (the
 * handle and a known game re-encoded; anything else left out).
 */
static void account_redirect(struct lws *wsi, struct http_req *h, const char *uri)
{
	char target[512], game[64];
	size_t n;

	if (!strncmp(uri, "/players/", 9)) {
		if (!uri[9] || strchr(uri + 9, '/') || !wire_text_valid(uri + 9, WIRE_NAME_MAX)) {
			respond_error(h, 404, "not_found", "no such player page");
			return;
		}
		n = (size_t)snprintf(target, sizeof(target), "/#/players/");
		pct_append(target, sizeof(target), &n, uri + 9);
	} else {
		n = (size_t)snprintf(target, sizeof(target), "/#/leaderboard");
		if (arg(wsi, "game=", game, sizeof(game)) && rules_game_find(game))
			n += (size_t)snprintf(target + n, sizeof(target) - n, "?game=%s", game);
	}
	h->location = strdup(target);
	if (!h->location) {
		respond_error(h, 500, "internal", "out of memory");
		return;
	}
	respond_json(h, 302, json_pack("{s:s}", "location", target));
}

static void route(struct http *api, struct lws *wsi, struct http_req *h, const char *uri)
{
	if (!strcmp(uri, "/healthz")) {
		healthz(api, h);
		return;
	}
	if (!strcmp(uri, "/readyz")) {
		readyz(api, h);
		return;
	}
	if (!strcmp(uri, "/metrics")) {
		metrics(api, h);
		return;
	}
	if (!strcmp(uri, "/matches") || !strcmp(uri, "/matches/") || !strncmp(uri, "/replay/", 8)) {
		page_redirect(wsi, h, uri);
		return;
	}
	if (!strncmp(uri, "/players/", 9) || !strcmp(uri, "/leaderboard") || !strcmp(uri, "/leaderboard/")) {
		account_redirect(wsi, h, uri);
		return;
	}
	if (!strcmp(uri, "/api/games")) {
		games_list(h);
		return;
	}
	if (!strcmp(uri, "/api/rooms")) {
		size_t len = 0;
		char *body = lobby_rooms_body(api->lobby, &len);

		h->needs = store_journal_needed(api->store);
		if (!body)
			respond_error(h, 500, "internal", "out of memory");
		else
			respond(h, 200, "application/json", body, len);
		return;
	}
	if ((!strncmp(uri, "/api/matches", 12) || !strncmp(uri, "/api/players/", 13) ||
	     !strcmp(uri, "/api/leaderboard")) &&
	    !read_admit(h)) {
		respond_read_busy(h); /* the archive's endpoints all read on the reader threads */
		return;
	}
	if (!strcmp(uri, "/api/matches") || !strcmp(uri, "/api/matches/")) {
		match_list(api, wsi, h);
		return;
	}
	if (!strncmp(uri, "/api/matches/", 13)) {
		match_get(api, wsi, h, uri + 13);
		return;
	}
	if (!strncmp(uri, "/api/players/", 13)) {
		player_get(api, h, uri + 13);
		return;
	}
	if (!strcmp(uri, "/api/leaderboard")) {
		leaderboard(api, wsi, h);
		return;
	}
	respond_error(h, 404, "not_found", "no such endpoint");
}

int http_request(struct http *api, struct lws *wsi, struct http_req **req, const char *in, const char *addr)
{
	char uri[512];
	struct http_req *h;

	api->metrics->http_requests++;
	h = calloc(1, sizeof(*h));
	if (!h)
		return NET_E_CLOSE;
	h->api = api;
	h->wsi = wsi;
	h->hup_fd = -1;
	*req = h;
	snprintf(h->addr, sizeof(h->addr), "%s", addr);
	h->head = lws_hdr_total_length(wsi, WSI_TOKEN_HEAD_URI) > 0;
	if (!h->head && lws_hdr_total_length(wsi, WSI_TOKEN_GET_URI) <= 0) {
		respond_error(h, 405, "method_not_allowed", "the API is read-only: use GET");
		return 0;
	}
	if (lws_hdr_copy(wsi, uri, sizeof(uri), h->head ? WSI_TOKEN_HEAD_URI : WSI_TOKEN_GET_URI) < 0) {
		respond_error(h, 414, "uri_too_long", "request URI too long");
		return 0;
	}
	route(api, wsi, h, uri);
	if (!h->ready)
		watch(h);
	return 0;
}

static int write_headers(struct lws *wsi, struct http_req *h)
{
	uint8_t buf[LWS_PRE + 1024], *start = buf + LWS_PRE, *p = start, *end = buf + sizeof(buf) - 1;
	char retry[16];

	snprintf(retry, sizeof(retry), "%d", h->retry_after);

	if (lws_add_http_common_headers(wsi, (unsigned)h->status, h->ctype, h->len, &p, end) ||
	    (h->location && lws_add_http_header_by_name(wsi, (const unsigned char *)"location:",
							(const unsigned char *)h->location,
							(int)strlen(h->location), &p, end)) ||
	    lws_add_http_header_by_name(wsi, (const unsigned char *)"cache-control:",
					(const unsigned char *)"no-store", 8, &p, end) ||
	    (h->retry_after &&
	     lws_add_http_header_by_name(wsi, (const unsigned char *)"retry-after:",
					 (const unsigned char *)retry, (int)strlen(retry), &p, end)) ||
	    lws_finalize_write_http_header(wsi, start, &p, end))
		return NET_E_CLOSE;
	h->headers_sent = true;
	return 0;
}

int http_writeable(struct http *api, struct lws *wsi, struct http_req **req)
{
	static uint8_t chunk[LWS_PRE + HTTP_CHUNK];
	struct http_req *h = *req;
	size_t n;
	bool final;

	if (!h || !h->ready)
		return 0;
	if (!h->headers_sent) {
		if (write_headers(wsi, h))
			return NET_E_CLOSE;
		if (h->head) { /* the headers say it all */
			http_closed(req);
			return lws_http_transaction_completed(wsi) ? NET_E_CLOSE : 0;
		}
		lws_callback_on_writable(wsi);
		return 0;
	}
	n = h->len - h->sent < HTTP_CHUNK ? h->len - h->sent : HTTP_CHUNK;
	final = h->sent + n == h->len;
	memcpy(chunk + LWS_PRE, h->body + h->sent, n);
	if (lws_write(wsi, chunk + LWS_PRE, n, final ? LWS_WRITE_HTTP_FINAL : LWS_WRITE_HTTP) < (int)n)
		return NET_E_CLOSE;
	h->sent += n;
	if (!final) {
		lws_callback_on_writable(wsi);
		return 0;
	}
	http_closed(req);
	return lws_http_transaction_completed(wsi) ? NET_E_CLOSE : 0;
}

void http_closed(struct http_req **req)
{
	struct http_req *h = *req;

	if (!h)
		return;
	if (store_req_cancel(h->pending)) /* the client hung up: its read is not computed (further) */
		h->api->metrics->archive_reads_dropped++;
	read_release(h);
	unwatch(h, false);
	held_unlink(h);
	body_release(h);
	free(h->location);
	free(h->body);
	free(h);
	*req = NULL;
}
