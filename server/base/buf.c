/*
 * buf.c: reference-counted frames with lws headroom (see buf.h).
 *
 * Every frame is serialised exactly once, by json_out.c (jansson's compact
 * output at a fraction of json_dumps' cost) into a scratch buffer that grows
 * to the largest frame seen and is reused, then the bytes are
 * copied once into a buffer of their exact size (queues may hold a frame for
 * long; it must not carry slack). buf_from_json_mark() dumps a top-level
 * object member by member so that the offset of one member's value is known
 * without searching the text, and buf_splice() builds a variant of a frame
 * with that value replaced, without re-encoding the rest: this is how a seat's
 * frame gets its `legal` (room.c). The bytes are exactly those jansson's
 * json_dumps(JSON_COMPACT) would produce for the same tree: compact output of
 * a value does not depend on where it sits (tests/unit/server/test_buf.c
 * compares them byte for byte over random match states). The scratch buffer makes
 * this file loop-thread only, as the buffers themselves are.
 *
 * A room encodes one or two frames per action and frees as many once every
 * queue has written them: a malloc and a free each. Freed buffers go to a
 * pool of size classes instead (buf.h), so a steady stream of frames reuses
 * the same few dozen allocations. The pool is bounded in bytes: it never keeps
 * more than BUF_POOL_MAX_BYTES, so a burst (10,000 rooms' frames freed at
 * once, a flood of slow connections dropped) returns the rest to malloc.
 */
#include "base/buf.h"

#include "json_out.h"

#include <libwebsockets.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#ifdef __SANITIZE_ADDRESS__
/* A pooled buffer's bytes past its header are poisoned: a use after the last buf_unref() still fails
 * under ASan, as it did when the buffer went back to free(). */
#include <sanitizer/asan_interface.h>
#define POOL_POISON(b, size)   ASAN_POISON_MEMORY_REGION((b) + 1, (size) - sizeof(struct buf))
#define POOL_UNPOISON(b, size) ASAN_UNPOISON_MEMORY_REGION((b) + 1, (size) - sizeof(struct buf))
#else
#define POOL_POISON(b, size)   ((void)(b), (void)(size))
#define POOL_UNPOISON(b, size) ((void)(b), (void)(size))
#endif

long buf_live;
size_t buf_pool_bytes;
long buf_pool_count;

/* Classes: eight per doubling, 256 B (class 0) to 64 KiB (class 64), each 2^k * (8 + i) / 8. */
#define POOL_MIN_SHIFT 8

static struct buf *pool[BUF_POOL_CLASSES]; /* free lists by class; loop thread only */

static inline size_t class_size(int cls)
{
	return ((size_t)1 << (POOL_MIN_SHIFT + cls / 8)) * (size_t)(8 + cls % 8) / 8;
}

/* 2^k < n <= 2^(k+1) for n > 256: k from the highest bit of n - 1, then which eighth of the doubling. */
static inline int class_of(size_t n)
{
	int k, cls;

	if (n <= (size_t)1 << POOL_MIN_SHIFT)
		return 0;
	k = (int)(sizeof(unsigned long long) * 8) - 1 - __builtin_clzll((unsigned long long)(n - 1));
	cls = (k - POOL_MIN_SHIFT) * 8 + (int)((n - 1 - ((size_t)1 << k)) >> (k - 3)) + 1;
	return cls < BUF_POOL_CLASSES ? cls : -1;
}

size_t buf_pool_class_size(int cls)
{
	return class_size(cls);
}

int buf_pool_class(size_t n)
{
	return class_of(n);
}

void buf_pool_trim(void)
{
	int i;

	for (i = 0; i < BUF_POOL_CLASSES; i++)
		while (pool[i]) {
			struct buf *b = pool[i];

			pool[i] = b->next;
			POOL_UNPOISON(b, b->size);
			free(b);
		}
	buf_pool_bytes = 0;
	buf_pool_count = 0;
}

/* The dump target: grows, never shrinks; `len` is reset for each frame. */
static struct json_out scratch;

static struct buf *buf_alloc(size_t len)
{
	size_t need = sizeof(struct buf) + LWS_PRE + len + 1;
	int cls = class_of(need);
	struct buf *b;

	size_t size = cls >= 0 ? class_size(cls) : need;

	if (cls >= 0 && pool[cls]) {
		b = pool[cls];
		POOL_UNPOISON(b, size);
		pool[cls] = b->next;
		buf_pool_bytes -= size;
		buf_pool_count--;
	} else {
		b = malloc(size);
		if (!b)
			return NULL;
	}
	b->refs = 1;
	b->cls = cls;
	b->size = size;
	b->next = NULL;
	b->len = len;
	b->data = (unsigned char *)(b + 1) + LWS_PRE;
	b->data[len] = '\0';
	buf_live++;
	return b;
}

/* Appends the compact encoding of any value; 0 or -1. */
static int scratch_dump(const json_t *j)
{
	return json_out_value(&scratch, j, 0);
}

/* Appends `"key":`. */
static int scratch_key(const char *key)
{
	int err = json_out_string(&scratch, key, strlen(key));

	return err ? err : json_out_bytes(&scratch, ":", 1);
}

struct buf *buf_from_json(const json_t *j)
{
	scratch.len = 0;
	if (!json_is_object(j) && !json_is_array(j))
		return NULL; /* what json_dumps(j, JSON_COMPACT) refuses */
	if (scratch_dump(j) || !scratch.len)
		return NULL;
	return buf_from_bytes(scratch.p, scratch.len);
}

struct buf *buf_from_json_mark(const json_t *obj, const char *key, size_t *at)
{
	const char *k;
	json_t *v;
	bool first = true;

	*at = SIZE_MAX;
	if (!json_is_object(obj))
		return NULL;
	scratch.len = 0;
	if (json_out_bytes(&scratch, "{", 1))
		return NULL;
	json_object_foreach((json_t *)obj, k, v)
	{
		if ((!first && json_out_bytes(&scratch, ",", 1)) || scratch_key(k))
			return NULL;
		first = false;
		if (strcmp(k, key) == 0)
			*at = scratch.len;
		if (scratch_dump(v))
			return NULL;
	}
	if (json_out_bytes(&scratch, "}", 1))
		return NULL;
	return buf_from_bytes(scratch.p, scratch.len);
}

struct buf *buf_splice(const struct buf *b, size_t at, size_t drop, const json_t *insert)
{
	scratch.len = 0;
	if (scratch_dump(insert))
		return NULL;
	return buf_splice_bytes(b, at, drop, scratch.p, scratch.len);
}

struct buf *buf_splice_bytes(const struct buf *b, size_t at, size_t drop, const void *p, size_t n)
{
	struct buf *out;
	size_t tail;

	if (at > b->len || drop > b->len - at)
		return NULL;
	tail = b->len - at - drop;
	out = buf_alloc(at + n + tail);
	if (!out)
		return NULL;
	memcpy(out->data, b->data, at);
	memcpy(out->data + at, p, n);
	memcpy(out->data + at + n, b->data + at + drop, tail);
	return out;
}

struct buf *buf_from_bytes(const void *p, size_t len)
{
	struct buf *b = buf_alloc(len);

	if (!b)
		return NULL;
	memcpy(b->data, p, len);
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
		if (b->cls < 0 || buf_pool_bytes + b->size > BUF_POOL_MAX_BYTES) {
			free(b);
			return;
		}
		b->next = pool[b->cls];
		pool[b->cls] = b;
		buf_pool_bytes += b->size;
		buf_pool_count++;
		POOL_POISON(b, b->size);
	}
}
