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
 */
#include "lobby/lobby_int.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

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
	return 0;
fail:
	free(l->text);
	l->text = NULL;
	l->textlen = l->textcap = 0;
	return -ENOMEM;
}

/* prefix + the joined list + ",\"total\":N}" into a new malloc'd text. */
static char *wrap(struct lobby *l, const char *prefix, size_t *len)
{
	char tail[48];
	size_t np = strlen(prefix), nt;
	char *out;

	if (text_build(l))
		return NULL;
	nt = (size_t)snprintf(tail, sizeof(tail), ",\"total\":%zu}", l->rooms.len);
	out = malloc(np + l->textlen + nt + 1);
	if (!out)
		return NULL;
	memcpy(out, prefix, np);
	memcpy(out + np, l->text, l->textlen);
	memcpy(out + np + l->textlen, tail, nt + 1);
	*len = np + l->textlen + nt;
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
