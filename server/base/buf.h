/*
 * buf.h: reference-counted outbound frames. A room serialises its state once
 * and every recipient's write queue holds a reference to the same bytes.
 * Each buffer keeps LWS_PRE bytes of headroom before the payload, as
 * lws_write() requires. Single-threaded: only the loop thread touches them.
 */
#ifndef QUINTETO_BUF_H
#define QUINTETO_BUF_H

#include <jansson.h>
#include <stddef.h>

struct buf {
	unsigned refs;
	int cls;             /* the pool's size class of the allocation; -1: not pooled (buf.c) */
	size_t size;         /* the allocation's bytes, header included */
	size_t len;          /* payload bytes */
	unsigned char *data; /* payload, LWS_PRE bytes after the allocation start */
	struct buf *next;    /* on a free list of the pool (buf.c); unused while referenced */
};

/* Serialises `j` (compact) into a new buffer with one reference; NULL on ENOMEM. */
struct buf *buf_from_json(const json_t *j);
/*
 * Like buf_from_json() for an object, and sets *at to the offset in the
 * payload of the value of member `key` (SIZE_MAX if it has none). NULL if
 * `obj` is not an object or on ENOMEM.
 */
struct buf *buf_from_json_mark(const json_t *obj, const char *key, size_t *at);
/*
 * A new buffer: b's payload with the `drop` bytes at offset `at` replaced by
 * the compact encoding of `insert`; NULL on ENOMEM or a range outside b.
 */
struct buf *buf_splice(const struct buf *b, size_t at, size_t drop, const json_t *insert);
/* The same with `n` bytes at `p` already encoded (`p` must not point into b). */
struct buf *buf_splice_bytes(const struct buf *b, size_t at, size_t drop, const void *p, size_t n);
/* A new buffer holding a copy of `len` bytes. */
struct buf *buf_from_bytes(const void *p, size_t len);
/* Takes another reference. */
struct buf *buf_ref(struct buf *b);
/* Drops a reference; frees at zero. buf_unref(NULL) does nothing. */
void buf_unref(struct buf *b);
/* Buffers alive now (for metrics and leak tests); those kept by the pool are not. */
extern long buf_live;

/*
 * The pool of freed buffers that buf_alloc() takes from instead of malloc:
 * BUF_POOL_CLASSES size classes, eight per doubling of the allocation from
 * 256 B to 64 KiB (a buffer carries at most an eighth of slack: rooms keep
 * their recent frames for long), bigger ones
 * malloc'd and freed as before. At most BUF_POOL_MAX_BYTES of freed buffers
 * are kept in all, whatever came before (a flood of frames that all end at
 * once frees the rest).
 */
#define BUF_POOL_CLASSES   65
#define BUF_POOL_MAX_BYTES (1u << 20)
/* Bytes of freed buffers the pool keeps now, and how many buffers. */
extern size_t buf_pool_bytes;
extern long buf_pool_count;
/* The allocation size of class `cls` (0 .. BUF_POOL_CLASSES - 1). */
size_t buf_pool_class_size(int cls);
/* The smallest class whose allocation holds `n` bytes; -1 above the largest. */
int buf_pool_class(size_t n);
/* Frees every buffer the pool keeps (at shutdown, and for leak tests). */
void buf_pool_trim(void);

#endif
