/*
 * util.c: hash map (open addressing, linear probing, tombstones), secure
 * random bytes (getrandom via libuv), identifiers, JSON text for the journal,
 * clocks, logging.
 * Nothing here knows about rooms, sessions or lws.
 */
#include "util.h"

#include "json_out.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <uv.h>

static const char TOMBSTONE[] = "";

int util_log_level = LOG_INFO;

static uint64_t hash_str(const char *s)
{
	uint64_t h = 1469598103934665603ull; /* FNV-1a */

	while (*s) {
		h ^= (unsigned char)*s++;
		h *= 1099511628211ull;
	}
	return h;
}

void hmap_init(struct hmap *m)
{
	memset(m, 0, sizeof(*m));
}

void hmap_finish(struct hmap *m)
{
	free(m->slots);
	hmap_init(m);
}

static struct hmap_entry *find_slot(const struct hmap *m, const char *key)
{
	size_t i, mask;

	if (!m->cap)
		return NULL;
	mask = m->cap - 1;
	for (i = hash_str(key) & mask;; i = (i + 1) & mask) {
		struct hmap_entry *e = &m->slots[i];

		if (!e->key)
			return NULL;
		if (e->key != TOMBSTONE && !strcmp(e->key, key))
			return e;
	}
}

static int grow(struct hmap *m)
{
	size_t cap = m->cap ? m->cap * 2 : 16, i;
	struct hmap_entry *old = m->slots, *slots;
	size_t oldcap = m->cap;

	if (m->len * 2 < m->cap)
		cap = m->cap; /* mostly tombstones: rehash in place size */
	slots = calloc(cap, sizeof(*slots));
	if (!slots)
		return -ENOMEM;
	m->slots = slots;
	m->cap = cap;
	m->len = m->used = 0;
	for (i = 0; i < oldcap; i++)
		if (old[i].key && old[i].key != TOMBSTONE)
			hmap_put(m, old[i].key, old[i].value);
	free(old);
	return 0;
}

void *hmap_get(const struct hmap *m, const char *key)
{
	struct hmap_entry *e = find_slot(m, key);

	return e ? e->value : NULL;
}

int hmap_put(struct hmap *m, const char *key, void *value)
{
	struct hmap_entry *e = find_slot(m, key);
	size_t i, mask;

	if (e) {
		e->key = key;
		e->value = value;
		return 0;
	}
	if ((m->used + 1) * 4 >= m->cap * 3) {
		int r = grow(m);

		if (r)
			return r;
	}
	mask = m->cap - 1;
	for (i = hash_str(key) & mask; m->slots[i].key && m->slots[i].key != TOMBSTONE; i = (i + 1) & mask)
		;
	if (!m->slots[i].key)
		m->used++;
	m->slots[i].key = key;
	m->slots[i].value = value;
	m->len++;
	return 0;
}

void *hmap_del(struct hmap *m, const char *key)
{
	struct hmap_entry *e = find_slot(m, key);
	void *v;

	if (!e)
		return NULL;
	v = e->value;
	e->key = TOMBSTONE;
	e->value = NULL;
	m->len--;
	return v;
}

void *hmap_next(const struct hmap *m, size_t *pos)
{
	while (*pos < m->cap) {
		struct hmap_entry *e = &m->slots[(*pos)++];

		if (e->key && e->key != TOMBSTONE)
			return e->value;
	}
	return NULL;
}

int util_random(void *buf, size_t n)
{
	return uv_random(NULL, NULL, buf, n, 0, NULL);
}

int util_random_id(const char *prefix, size_t n, char *out)
{
	static const char alphabet[] = "abcdefghijkmnpqrstuvwxyz23456789";
	uint8_t raw[64];
	size_t i, plen = strlen(prefix);
	int r;

	if (n > sizeof(raw))
		return -EINVAL;
	r = util_random(raw, n);
	if (r)
		return r;
	memcpy(out, prefix, plen);
	for (i = 0; i < n; i++)
		out[plen + i] = alphabet[raw[i] & 31];
	out[plen + n] = '\0';
	return 0;
}

char *util_json_text(json_t *j)
{
	/* a scratch buffer per thread, and an exact copy: rooms keep these texts for their whole match */
	static _Thread_local struct json_out o;
	char *s = NULL;

	o.len = 0;
	if (j && !json_out_value(&o, j, JSON_OUT_SORT_KEYS) && (s = malloc(o.len + 1)))
		memcpy(s, o.p, o.len + 1);
	json_decref(j);
	return s;
}

int64_t util_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

uint64_t util_mono_ns(void)
{
	return uv_hrtime();
}

void util_log(int level, const char *fmt, ...)
{
	static const char *const names[] = { "error", "warn", "info", "debug" };
	char line[1024];
	va_list ap;

	if (level > util_log_level)
		return;
	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	fprintf(stderr, "quinteto-server %s: %s\n", names[level], line);
	fflush(stderr);
}
