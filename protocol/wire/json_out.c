/*
 * json_out.c: compact JSON from jansson trees (see json_out.h).
 *
 * The rules that make the bytes jansson's own: no space anywhere; members in
 * the object's insertion order, or sorted by memcmp over the key bytes with the
 * shorter key first on a tie; integers in decimal; in strings `"` and `\` and
 * the control characters below 0x20 are escaped (\b \f \n \r \t by name, the
 * others as \u00XX with upper-case hex), '/' and everything from 0x7f up are
 * written as they are; a string that is not well-formed UTF-8 (overlong forms,
 * surrogates, past U+10FFFF) fails the whole call.
 */
#include "json_out.h"

#include <stdint.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* Members sorted on the stack up to this many; larger objects allocate. */
#define SORT_ON_STACK 32

int json_out_grow(struct json_out *o, size_t n)
{
	size_t cap = o->cap ? o->cap : 256;
	char *p;

	while (cap - o->len <= n) { /* keep one byte for the NUL */
		if (cap > SIZE_MAX / 2)
			return -ENOMEM;
		cap *= 2;
	}
	p = realloc(o->p, cap);
	if (!p)
		return -ENOMEM;
	o->p = p;
	o->cap = cap;
	return 0;
}

/*
 * Length of the well-formed UTF-8 sequence at s (at most `left` bytes) that
 * starts with a byte >= 0x80, or 0 if it is not one.
 */
static size_t utf8_len(const unsigned char *s, size_t left)
{
	unsigned c = s[0];
	uint32_t cp;
	size_t n, i;

	if (c < 0xc2 || c > 0xf4)
		return 0;
	n = c < 0xe0 ? 2 : c < 0xf0 ? 3 : 4;
	if (left < n)
		return 0;
	cp = c & (0x7f >> n);
	for (i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (s[i] & 0x3f);
	}
	if ((n == 3 && cp < 0x800) || (n == 4 && cp < 0x10000) || cp > 0x10ffff ||
	    (cp >= 0xd800 && cp <= 0xdfff))
		return 0;
	return n;
}

/* What a byte below 0x80 needs: 0 nothing, else the escape's second character or 'u'. */
static const char escape_of[128] = {
	['\b'] = 'b', ['\f'] = 'f', ['\n'] = 'n', ['\r'] = 'r', ['\t'] = 't', ['"'] = '"',  ['\\'] = '\\',
	[0x00] = 'u', [0x01] = 'u', [0x02] = 'u', [0x03] = 'u', [0x04] = 'u', [0x05] = 'u', [0x06] = 'u',
	[0x07] = 'u', [0x0b] = 'u', [0x0e] = 'u', [0x0f] = 'u', [0x10] = 'u', [0x11] = 'u', [0x12] = 'u',
	[0x13] = 'u', [0x14] = 'u', [0x15] = 'u', [0x16] = 'u', [0x17] = 'u', [0x18] = 'u', [0x19] = 'u',
	[0x1a] = 'u', [0x1b] = 'u', [0x1c] = 'u', [0x1d] = 'u', [0x1e] = 'u', [0x1f] = 'u',
};

int json_out_string(struct json_out *o, const char *str, size_t n)
{
	static const char hex[] = "0123456789ABCDEF";
	const unsigned char *s = (const unsigned char *)str, *run = s, *end = s + n;

	/* worst case: every byte six, plus the quotes; one check for the common case */
	if (o->cap - o->len <= n + 2 && json_out_grow(o, n + 2))
		return -ENOMEM;
	o->p[o->len++] = '"';
	while (s < end) {
		unsigned char c = *s;

		if (c >= 0x80) {
			size_t k = utf8_len(s, (size_t)(end - s));

			if (!k)
				return -EINVAL; /* not UTF-8 */
			s += k;
			continue;
		}
		if (!escape_of[c]) {
			s++;
			continue;
		}
		if (json_out_bytes(o, run, (size_t)(s - run)))
			return -ENOMEM;
		if (escape_of[c] == 'u') {
			char u[6] = { '\\', 'u', '0', '0', hex[c >> 4], hex[c & 15] };

			if (json_out_bytes(o, u, 6))
				return -ENOMEM;
		} else {
			char e[2] = { '\\', escape_of[c] };

			if (json_out_bytes(o, e, 2))
				return -ENOMEM;
		}
		run = ++s;
	}
	if (json_out_bytes(o, run, (size_t)(s - run)))
		return -ENOMEM;
	return json_out_bytes(o, "\"", 1);
}

int json_out_int(struct json_out *o, json_int_t v)
{
	char d[24], *p = d + sizeof(d);
	/* the magnitude as unsigned: -INT64_MIN does not fit in the signed type */
	unsigned long long u = v < 0 ? 0ULL - (unsigned long long)v : (unsigned long long)v;

	do
		*--p = (char)('0' + u % 10);
	while (u /= 10);
	if (v < 0)
		*--p = '-';
	return json_out_bytes(o, p, (size_t)(d + sizeof(d) - p));
}

/* Reals: jansson's own formatting (precision, ".0", exponent forms). */
static int out_real(struct json_out *o, const json_t *j)
{
	char *s = json_dumps(j, JSON_COMPACT | JSON_ENCODE_ANY);
	int err = s ? json_out_bytes(o, s, strlen(s)) : -ENOMEM;

	free(s);
	return err;
}

struct member {
	const char *key;
	size_t len;
	const json_t *value;
};

static int member_cmp(const struct member *a, const struct member *b)
{
	int r = memcmp(a->key, b->key, a->len < b->len ? a->len : b->len);

	return r ? r : (a->len > b->len) - (a->len < b->len);
}

static int out_member(struct json_out *o, const struct member *m, int flags, int first)
{
	int err = !first ? json_out_bytes(o, ",", 1) : 0;

	if (!err)
		err = json_out_string(o, m->key, m->len);
	if (!err)
		err = json_out_bytes(o, ":", 1);
	return err ? err : json_out_value(o, m->value, flags);
}

static int out_sorted(struct json_out *o, const json_t *j, int flags)
{
	struct member stack[SORT_ON_STACK], *m = stack;
	size_t n = json_object_size(j), i = 0, k;
	void *it;
	int err = 0;

	if (n > SORT_ON_STACK && !(m = malloc(n * sizeof(*m))))
		return -ENOMEM;
	for (it = json_object_iter((json_t *)j); it && i < n; it = json_object_iter_next((json_t *)j, it)) {
		struct member x = { json_object_iter_key(it), json_object_iter_key_len(it),
				    json_object_iter_value(it) };

		/* insertion sort: objects on the wire have a handful of members */
		for (k = i; k > 0 && member_cmp(&m[k - 1], &x) > 0; k--)
			m[k] = m[k - 1];
		m[k] = x;
		i++;
	}
	for (k = 0; k < i && !err; k++)
		err = out_member(o, &m[k], flags, k == 0);
	if (m != stack)
		free(m);
	return err;
}

int json_out_value(struct json_out *o, const json_t *j, int flags)
{
	size_t i, n;
	void *it;
	int err;

	if (!j)
		return -EINVAL;
	switch (json_typeof(j)) {
	case JSON_NULL:
		return json_out_bytes(o, "null", 4);
	case JSON_TRUE:
		return json_out_bytes(o, "true", 4);
	case JSON_FALSE:
		return json_out_bytes(o, "false", 5);
	case JSON_INTEGER:
		return json_out_int(o, json_integer_value(j));
	case JSON_REAL:
		return out_real(o, j);
	case JSON_STRING:
		return json_out_string(o, json_string_value(j), json_string_length(j));
	case JSON_ARRAY:
		n = json_array_size(j);
		if (json_out_bytes(o, "[", 1))
			return -ENOMEM;
		for (i = 0; i < n; i++) {
			if (i && json_out_bytes(o, ",", 1))
				return -ENOMEM;
			if ((err = json_out_value(o, json_array_get(j, i), flags)))
				return err;
		}
		return json_out_bytes(o, "]", 1);
	case JSON_OBJECT:
		if (json_out_bytes(o, "{", 1))
			return -ENOMEM;
		if (flags & JSON_OUT_SORT_KEYS) {
			if ((err = out_sorted(o, j, flags)))
				return err;
		} else {
			int first = 1;

			for (it = json_object_iter((json_t *)j); it;
			     it = json_object_iter_next((json_t *)j, it)) {
				struct member m = { json_object_iter_key(it), json_object_iter_key_len(it),
						    json_object_iter_value(it) };

				if ((err = out_member(o, &m, flags, first)))
					return err;
				first = 0;
			}
		}
		return json_out_bytes(o, "}", 1);
	}
	return -EINVAL;
}

void json_out_free(struct json_out *o)
{
	free(o->p);
	o->p = NULL;
	o->len = o->cap = 0;
}
