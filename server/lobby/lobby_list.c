/*
 * lobby_list.c: the room list that `rooms` and GET /api/rooms show, capped
 * at the newest cfg->lobby_list_max live rooms so that it always fits a
 * connection's write queue however many rooms there are, with `total`
 * saying how many there are in all.
 *
 * Cheap to ask for, however often: the rooms' order is sorted again only
 * when a room comes or goes, each room serialises its summary once per
 * change of that room (room_summary_text), and the joined text is rebuilt
 * only when some room changed since. A `watch` changes one room's watcher
 * count: one summary, one join. Pushes to subscribers (lobby.c) are
 * throttled and skipped when the frame is the one pushed last.
 *
 * In cluster mode (docs/SCALING.md) the list is the merged lobby: this
 * node's rooms and the other live nodes' published summaries, newest first,
 * still lobby_list_max at most, `total` the sum of every live node's. The
 * others' summaries are read (and checked: an array of objects each with a
 * room id and created_at, at most lobby_list_max of them per node) once per
 * change of theirs, not per request; this node's own list is what it
 * publishes. A single server's list is built exactly as before.
 */
#include "lobby/lobby_int.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cluster/cluster.h"

static int cmp_newest(const void *a, const void *b)
{
	const struct room *ra = *(struct room *const *)a, *rb = *(struct room *const *)b;

	int64_t ta = room_created_at(ra), tb = room_created_at(rb);

	return ta < tb ? 1 : ta > tb ? -1 : strcmp(room_id(ra), room_id(rb));
}

static int order_build(struct lobby *l)
{
	struct room *r;
	size_t pos = 0;

	if (!l->order_stale && l->norder == l->rooms.len)
		return 0;
	if (l->caporder < l->rooms.len + 1) {
		size_t cap = l->rooms.len * 2 + 16;
		struct room **o = realloc(l->order, cap * sizeof(*o));

		if (!o)
			return -ENOMEM;
		l->order = o;
		l->caporder = cap;
	}
	l->norder = 0;
	while ((r = hmap_next(&l->rooms, &pos)))
		l->order[l->norder++] = r;
	qsort(l->order, l->norder, sizeof(*l->order), cmp_newest);
	l->order_stale = false;
	l->text_stale = true;
	return 0;
}

static int text_put(struct lobby *l, const char *p, size_t n)
{
	if (!l->text || l->textlen + n + 1 > l->textcap) {
		size_t cap = (l->textlen + n + 1) * 2;
		char *t = realloc(l->text, cap);

		if (!t)
			return -ENOMEM;
		l->text = t;
		l->textcap = cap;
	}
	memcpy(l->text + l->textlen, p, n);
	l->textlen += n;
	l->text[l->textlen] = '\0';
	return 0;
}

/* The joined "[...]" of the newest rooms' summaries, rebuilt when stale. 0 or -ENOMEM. */
static int text_build(struct lobby *l)
{
	size_t i, n, len;
	const char *sum;

	if (order_build(l))
		return -ENOMEM;
	if (l->text && !l->text_stale)
		return 0;
	l->textlen = 0;
	if (text_put(l, "[", 1))
		return -ENOMEM;
	n = l->norder < (size_t)l->cfg->lobby_list_max ? l->norder : (size_t)l->cfg->lobby_list_max;
	for (i = 0; i < n; i++) {
		if (!(sum = room_summary_text(l->order[i], &len)) || (i && text_put(l, ",", 1)) ||
		    text_put(l, sum, len))
			goto fail;
	}
	if (text_put(l, "]", 1))
		goto fail;
	l->text_stale = false;
	l->text_gen++;
	return 0;
fail:
	free(l->text);
	l->text = NULL;
	l->textlen = l->textcap = 0;
	return -ENOMEM;
}

/* One other node's parsed summaries (kept until that node publishes new ones or goes). */
struct lobby_rnode {
	char name[40];
	uint64_t gen; /* the cluster's generation of the text these were parsed from (0: none yet) */
	struct lobby_remote *rooms;
	size_t n, total;
	bool seen; /* listed by the last walk */
};

static void rnode_clear(struct lobby_rnode *rn)
{
	size_t i;

	for (i = 0; i < rn->n; i++) {
		free(rn->rooms[i].text);
		free((char *)rn->rooms[i].id);
	}
	free(rn->rooms);
	rn->rooms = NULL;
	rn->n = 0;
}

void lobby_list_finish(struct lobby *l)
{
	struct lobby_rnode *rn;
	size_t pos = 0;

	while ((rn = hmap_next(&l->rnodes, &pos))) {
		rnode_clear(rn);
		free(rn);
	}
	hmap_finish(&l->rnodes);
	free(l->remote);
	l->remote = NULL;
	free(l->mtext);
	l->mtext = NULL;
}

static int cmp_remote(const void *a, const void *b)
{
	const struct lobby_remote *ra = *(struct lobby_remote *const *)a,
				  *rb = *(struct lobby_remote *const *)b;

	return ra->created_at < rb->created_at   ? 1
	       : ra->created_at > rb->created_at ? -1
						 : strcmp(ra->id, rb->id);
}

/* One room of another node's summaries, kept if it is a summary in shape. */
static void remote_add(struct lobby_rnode *rn, json_t *sum)
{
	json_t *id = json_object_get(sum, "id"), *at = json_object_get(sum, "created_at");
	struct lobby_remote *e = &rn->rooms[rn->n];

	if (!json_is_object(sum) || !json_is_string(id) || !json_is_integer(at) ||
	    json_string_length(id) > WIRE_ROOM_ID_MAX)
		return;
	e->created_at = json_integer_value(at);
	e->text = json_dumps(sum, JSON_COMPACT | JSON_PRESERVE_ORDER); /* as its node wrote it */
	e->id = e->text ? strdup(json_string_value(id)) : NULL;
	if (!e->id) {
		free(e->text);
		return;
	}
	e->len = strlen(e->text);
	rn->n++;
}

/* Parses a node's new summaries: its first lobby_list_max elements that are summaries in shape. */
static void rnode_parse(struct lobby *l, struct lobby_rnode *rn, const char *json, size_t len)
{
	static struct util_log_limit garbage; /* a node, or whoever writes to Redis, publishing junk */
	json_t *arr = json_loadb(json, len, JSON_REJECT_DUPLICATES, NULL);
	size_t i, max = (size_t)l->cfg->lobby_list_max,
		  n = json_array_size(arr) < max ? json_array_size(arr) : max; /* 0 for anything else */

	rnode_clear(rn);
	if (!arr)
		util_log_limited(&garbage, LOG_WARN,
				 "lobby: node %s published summaries that are not a JSON array", rn->name);
	rn->rooms = n ? malloc(n * sizeof(*rn->rooms)) : NULL;
	for (i = 0; rn->rooms && i < n; i++)
		remote_add(rn, json_array_get(arr, i));
	json_decref(arr);
}

static void remote_node_cb(void *ctx, const char *node, const char *rooms_json, size_t len, size_t total,
			   uint64_t gen)
{
	struct lobby *l = ctx;
	struct lobby_rnode *rn = hmap_get(&l->rnodes, node);

	if (!rn) {
		if (!(rn = calloc(1, sizeof(*rn))))
			return;
		snprintf(rn->name, sizeof(rn->name), "%s", node);
		if (hmap_put(&l->rnodes, rn->name, rn)) {
			free(rn);
			return;
		}
	}
	rn->seen = true;
	rn->total = total;
	if (rn->gen != gen) { /* only a node whose summaries changed is parsed again */
		rnode_parse(l, rn, rooms_json, len);
		rn->gen = gen;
	}
}

/*
 * The other live nodes' rooms, newest first, after a change of theirs: each node's parsed once per
 * publication of its own; a room of ours (adopted from a node not yet seen dead) or listed twice (an
 * adoption between two publications) once.
 */
static void remote_build(struct lobby *l)
{
	struct lobby_rnode *rn;
	size_t pos = 0, i, n = 0, k = 0;

	if (!l->remote_stale)
		return;
	while ((rn = hmap_next(&l->rnodes, &pos)))
		rn->seen = false;
	cluster_lobby_foreach(l->cluster, remote_node_cb, l);
	l->remote_total = 0;
	pos = 0;
	while ((rn = hmap_next(&l->rnodes, &pos))) {
		if (!rn->seen) { /* dead or gone */
			hmap_del(&l->rnodes, rn->name);
			rnode_clear(rn);
			free(rn);
			continue;
		}
		l->remote_total += rn->total;
		n += rn->n;
	}
	free(l->remote);
	l->remote = n ? malloc(n * sizeof(*l->remote)) : NULL;
	pos = 0;
	while (l->remote && (rn = hmap_next(&l->rnodes, &pos)))
		for (i = 0; i < rn->n; i++)
			if (!hmap_get(&l->rooms, rn->rooms[i].id))
				l->remote[k++] = &rn->rooms[i];
	if (k > 1)
		qsort(l->remote, k, sizeof(*l->remote), cmp_remote);
	for (n = k, k = 0, i = 0; i < n; i++)
		if (!k || strcmp(l->remote[k - 1]->id, l->remote[i]->id))
			l->remote[k++] = l->remote[i];
	l->nremote = k;
	l->remote_stale = false;
	l->mtext_gen = 0; /* merge again */
}

static int mtext_put(struct lobby *l, const char *p, size_t n)
{
	if (!l->mtext || l->mtextlen + n + 1 > l->mtextcap) {
		size_t cap = (l->mtextlen + n + 1) * 2;
		char *t = realloc(l->mtext, cap);

		if (!t)
			return -ENOMEM;
		l->mtext = t;
		l->mtextcap = cap;
	}
	memcpy(l->mtext + l->mtextlen, p, n);
	l->mtextlen += n;
	l->mtext[l->mtextlen] = '\0';
	return 0;
}

/* Our newest rooms (text_build's order) and the others', merged newest first into `mtext`. 0 or -ENOMEM. */
static int merge_build(struct lobby *l)
{
	size_t i = 0, j = 0, k, n, max = (size_t)l->cfg->lobby_list_max, len;
	const char *sum;

	if (l->mtext && l->mtext_gen == l->text_gen)
		return 0;
	l->mtextlen = 0;
	if (mtext_put(l, "[", 1))
		goto fail;
	n = l->norder < max ? l->norder : max;
	for (k = 0; k < max && (i < n || j < l->nremote); k++) {
		bool ours = j == l->nremote ||
			    (i < n && (room_created_at(l->order[i]) > l->remote[j]->created_at ||
				       (room_created_at(l->order[i]) == l->remote[j]->created_at &&
					strcmp(room_id(l->order[i]), l->remote[j]->id) < 0)));

		if (ours) {
			if (!(sum = room_summary_text(l->order[i++], &len)))
				goto fail;
		} else {
			sum = l->remote[j]->text;
			len = l->remote[j++]->len;
		}
		if ((k && mtext_put(l, ",", 1)) || mtext_put(l, sum, len))
			goto fail;
	}
	if (mtext_put(l, "]", 1))
		goto fail;
	l->mtext_gen = l->text_gen;
	return 0;
fail:
	free(l->mtext);
	l->mtext = NULL;
	l->mtextlen = l->mtextcap = 0;
	return -ENOMEM;
}

void lobby_publish(struct lobby *l)
{
	if (l->cluster && !text_build(l))
		cluster_lobby_publish(l->cluster, l->text, l->textlen, l->rooms.len);
}

/* prefix + the joined list + ",\"total\":N}" into a new malloc'd text. */
static char *wrap(struct lobby *l, const char *prefix, size_t *len)
{
	char tail[48];
	size_t np = strlen(prefix), nt, total = l->rooms.len;
	const char *text;
	size_t textlen;
	char *out;

	if (text_build(l))
		return NULL;
	text = l->text;
	textlen = l->textlen;
	if (l->cluster) {
		remote_build(l);
		if (l->nremote || l->remote_total) { /* else exactly a single server's list */
			if (merge_build(l))
				return NULL;
			text = l->mtext;
			textlen = l->mtextlen;
			total += l->remote_total;
		}
	}
	nt = (size_t)snprintf(tail, sizeof(tail), ",\"total\":%zu}", total);
	out = malloc(np + textlen + nt + 1);
	if (!out)
		return NULL;
	memcpy(out, prefix, np);
	memcpy(out + np, text, textlen);
	memcpy(out + np + textlen, tail, nt + 1);
	*len = np + textlen + nt;
	return out;
}

struct buf *lobby_rooms_frame(struct lobby *l, const json_t *id)
{
	char *idtext = id ? json_dumps(id, JSON_COMPACT | JSON_ENCODE_ANY) : NULL, *prefix, *text;
	struct buf *b = NULL;
	size_t len;

	if (id && !idtext)
		return NULL;
	prefix = malloc(48 + (idtext ? strlen(idtext) : 0));
	if (prefix) {
		sprintf(prefix, "{\"type\":\"rooms\",%s%s%s\"rooms\":", idtext ? "\"id\":" : "",
			idtext ? idtext : "", idtext ? "," : "");
		text = wrap(l, prefix, &len);
		b = text ? buf_from_bytes(text, len) : NULL;
		free(text);
	}
	free(prefix);
	free(idtext);
	return b;
}

char *lobby_rooms_body(struct lobby *l, size_t *len)
{
	return wrap(l, "{\"rooms\":", len);
}

json_t *lobby_rooms_json(struct lobby *l)
{
	size_t len;
	char *body = lobby_rooms_body(l, &len);
	json_t *j = body ? json_loadb(body, len, 0, NULL) : NULL, *rooms;

	free(body);
	rooms = json_incref(json_object_get(j, "rooms"));
	json_decref(j);
	return rooms ? rooms : json_array();
}
