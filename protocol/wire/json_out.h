/*
 * json_out.h: a compact JSON writer over jansson trees, byte for byte what
 * json_dumps(j, JSON_COMPACT | JSON_ENCODE_ANY [| JSON_SORT_KEYS]) returns, at
 * a fraction of its cost. jansson formats every integer with snprintf, hands
 * every fragment to a callback and keeps a hash set of the containers it is
 * in (to detect cycles, which a tree built by this program never has); a
 * state frame is mostly small integers and short keys, so that overhead was
 * most of what a frame cost. Same output, same refusals: a string that is not
 * valid UTF-8 makes the call fail, as it makes jansson's. Reals, which no
 * frame carries, go through jansson itself. Checked against jansson over
 * random trees and any bytes jansson parses (tests/unit/server/test_json_out.c).
 */
#ifndef QUINTETO_JSON_OUT_H
#define QUINTETO_JSON_OUT_H

#include <errno.h>
#include <jansson.h>
#include <stddef.h>
#include <string.h>

/* A growing byte buffer: `len` bytes at `p` (NUL-terminated when len < cap). */
struct json_out {
	char *p;
	size_t len, cap;
};

/* Object members in key order (memcmp, shorter first), as JSON_SORT_KEYS. */
#define JSON_OUT_SORT_KEYS 1

/* Makes room for `n` more bytes and the NUL; 0 or -ENOMEM. */
int json_out_grow(struct json_out *o, size_t n);

/* Appends `n` bytes; 0 or -ENOMEM. Inline: a frame is made of hundreds of short pieces. */
static inline int json_out_bytes(struct json_out *o, const void *p, size_t n)
{
	if (o->cap - o->len <= n && json_out_grow(o, n))
		return -ENOMEM;
	memcpy(o->p + o->len, p, n);
	o->len += n;
	o->p[o->len] = '\0';
	return 0;
}
/* Appends an integer as jansson writes it; 0 or -ENOMEM. */
int json_out_int(struct json_out *o, json_int_t v);
/* Appends a JSON string of `n` bytes of UTF-8; 0, -ENOMEM, or -EINVAL (not UTF-8). */
int json_out_string(struct json_out *o, const char *s, size_t n);
/* Appends the compact encoding of any value; 0, -ENOMEM, or -EINVAL (a string not UTF-8, j NULL). */
int json_out_value(struct json_out *o, const json_t *j, int flags);
/* Frees the buffer and empties it. */
void json_out_free(struct json_out *o);

#endif
