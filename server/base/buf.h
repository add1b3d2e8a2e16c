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
	size_t len;          /* payload bytes */
	unsigned char *data; /* payload, LWS_PRE bytes after the allocation start */
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
/* Buffers alive now (for metrics and leak tests). */
extern long buf_live;

#endif
