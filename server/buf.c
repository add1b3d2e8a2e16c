/*
 * buf.c: reference-counted frames with lws headroom (see buf.h).
 */
#include "buf.h"

#include <libwebsockets.h>
#include <stdlib.h>
#include <string.h>

long buf_live;

static struct buf *buf_alloc(size_t len)
{
	struct buf *b = malloc(sizeof(*b) + LWS_PRE + len + 1);

	if (!b)
		return NULL;
	b->refs = 1;
	b->len = len;
	b->data = (unsigned char *)(b + 1) + LWS_PRE;
	buf_live++;
	return b;
}

struct buf *buf_from_json(const json_t *j)
{
	size_t len = json_dumpb(j, NULL, 0, JSON_COMPACT);
	struct buf *b;

	if (!len)
		return NULL;
	b = buf_alloc(len);
	if (!b)
		return NULL;
	if (json_dumpb(j, (char *)b->data, len, JSON_COMPACT) != len) {
		buf_unref(b);
		return NULL;
	}
	b->data[len] = '\0';
	return b;
}

struct buf *buf_from_bytes(const void *p, size_t len)
{
	struct buf *b = buf_alloc(len);

	if (!b)
		return NULL;
	memcpy(b->data, p, len);
	b->data[len] = '\0';
	return b;
}

struct buf *buf_ref(struct buf *b)
{
	b->refs++;
	return b;
}

void buf_unref(struct buf *b)
{
	if (b && !--b->refs) {
		buf_live--;
		free(b);
	}
}
