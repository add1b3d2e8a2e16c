/*
 * util.c: hash map (open addressing, linear probing, tombstones), secure
 * random bytes (getrandom via libuv), identifiers, JSON text for the journal,
 * clocks, logging.
 * Nothing here knows about rooms, sessions or lws.
 */
#include "base/util.h"

#include "json_out.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <uv.h>

static const char TOMBSTONE[] = "";

int util_log_level = LOG_INFO;
int util_log_format = UTIL_LOG_TEXT;

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

struct tally_entry {
	char key[64];
	size_t n;
};

void tally_init(struct tally *t)
{
	hmap_init(&t->map);
}

void tally_finish(struct tally *t)
{
	struct tally_entry *e;
	size_t pos = 0;

	while ((e = hmap_next(&t->map, &pos)))
		free(e);
	hmap_finish(&t->map);
}

size_t tally_get(const struct tally *t, const char *key)
{
	char k[64];
	const struct tally_entry *e;

	snprintf(k, sizeof(k), "%s", key);
	e = hmap_get(&t->map, k);
	return e ? e->n : 0;
}

int tally_add(struct tally *t, const char *key, long long delta)
{
	struct tally_entry *e;
	char k[64];

	snprintf(k, sizeof(k), "%s", key);
	e = hmap_get(&t->map, k);
	if (!e) {
		if (delta <= 0)
			return 0;
		if (!(e = calloc(1, sizeof(*e))))
			return -ENOMEM;
		memcpy(e->key, k, sizeof(k));
		if (hmap_put(&t->map, e->key, e)) {
			free(e);
			return -ENOMEM;
		}
	}
	if (delta >= 0) {
		e->n += (size_t)delta;
	} else if ((size_t)-delta < e->n) {
		e->n -= (size_t)-delta;
	} else {
		hmap_del(&t->map, e->key);
		free(e);
	}
	return 0;
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

int util_seed_random(void *buf, size_t n, const char *what)
{
	static bool warned;
	const char *fixed = getenv("QUINTETO_TEST_SEED");
	uint64_t x = 1469598103934665603ULL; /* FNV-1a of the value and `what`, then splitmix64 */
	const char *p;
	size_t i;

	if (!fixed)
		return util_random(buf, n);
	if (!warned)
		util_log(LOG_WARN, "QUINTETO_TEST_SEED is set: match seeds are predictable (for tests only)");
	warned = true;
	for (p = fixed; *p; p++)
		x = (x ^ (uint8_t)*p) * 1099511628211ULL;
	for (p = what; *p; p++)
		x = (x ^ (uint8_t)*p) * 1099511628211ULL;
	for (i = 0; i < n; i++) {
		uint64_t z = (x += 0x9e3779b97f4a7c15ULL);

		z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
		z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
		((uint8_t *)buf)[i] = (uint8_t)(z ^ (z >> 31));
	}
	return 0;
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

uint64_t util_thread_cpu_ns(void)
{
	struct timespec ts;

	if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts))
		return 0;
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* Length of the valid UTF-8 sequence at p (1 to 4), or 0 (overlong, surrogate, truncated...). */
static int utf8_len(const unsigned char *p)
{
	int n = p[0] >= 0xf0 && p[0] <= 0xf4 ? 4 : p[0] >= 0xe0 ? 3 : p[0] >= 0xc2 && p[0] < 0xe0 ? 2 : 0;
	int i;

	for (i = 1; i < n; i++)
		if ((p[i] & 0xc0) != 0x80)
			return 0;
	if ((n == 3 && p[0] == 0xe0 && p[1] < 0xa0) || (n == 3 && p[0] == 0xed && p[1] >= 0xa0) ||
	    (n == 4 && p[0] == 0xf0 && p[1] < 0x90) || (n == 4 && p[0] == 0xf4 && p[1] >= 0x90))
		return 0;
	return n;
}

/*
 * Escaping of a logged line, whatever its source (a peer's text reaches the
 * log through many paths, so every line goes through here): control bytes
 * (C0, DEL and the C1 controls U+0080..U+009F, which a terminal may obey) and
 * bytes that are not UTF-8 never reach the log as they are. In JSON: quotes
 * and backslashes escaped, controls as \u00XX, bad bytes as U+FFFD (a line
 * always parses). In text: a backslash doubled, controls and bad bytes as
 * \xNN (a C1 control as \u00XX), so the line shows what was there.
 */
static void log_escape(const char *in, char *out, size_t len, int json)
{
	size_t o = 0;

	for (; *in && o + 7 < len; in++) {
		const unsigned char *p = (const unsigned char *)in;
		int n = *p >= 0x80 ? utf8_len(p) : 1;
		bool control = n == 1 && (*p < 0x20 || *p == 0x7f);

		if ((!n || control) && !json) {
			o += (size_t)snprintf(out + o, len - o, "\\x%02x", *p);
		} else if (!n) {
			o += (size_t)snprintf(out + o, len - o, "\\ufffd");
		} else if (control) {
			o += (size_t)snprintf(out + o, len - o, "\\u%04x", *p);
		} else if (n == 2 && p[0] == 0xc2 && p[1] < 0xa0) { /* a C1 control */
			o += (size_t)snprintf(out + o, len - o, "\\u%04x", p[1]);
			in++;
		} else if (n > 1) {
			memcpy(out + o, in, (size_t)n);
			o += (size_t)n;
			in += n - 1;
		} else {
			if (*p == '\\' || (json && *p == '"'))
				out[o++] = '\\';
			out[o++] = (char)*p;
		}
	}
	out[o] = '\0';
}

static void log_line(int level, uint64_t conn, const char *fmt, va_list ap)
{
	static const char *const names[] = { "error", "warn", "info", "debug" };
	char line[1024], esc[6 * sizeof(line)], when[40], cid[32] = "";
	struct timespec ts;
	struct tm tm;

	vsnprintf(line, sizeof(line), fmt, ap);
	clock_gettime(CLOCK_REALTIME, &ts);
	gmtime_r(&ts.tv_sec, &tm);
	strftime(when, sizeof(when), "%Y-%m-%dT%H:%M:%S", &tm);
	snprintf(when + strlen(when), sizeof(when) - strlen(when), ".%03ldZ", ts.tv_nsec / 1000000);
	log_escape(line, esc, sizeof(esc), util_log_format == UTIL_LOG_JSON);
	if (util_log_format == UTIL_LOG_JSON) {
		if (conn)
			snprintf(cid, sizeof(cid), ",\"conn\":%llu", (unsigned long long)conn);
		fprintf(stderr, "{\"time\":\"%s\",\"level\":\"%s\"%s,\"msg\":\"%s\"}\n", when, names[level],
			cid, esc);
	} else {
		if (conn)
			snprintf(cid, sizeof(cid), " conn=%llu", (unsigned long long)conn);
		fprintf(stderr, "%s quinteto-server %s%s: %s\n", when, names[level], cid, esc);
	}
	fflush(stderr);
}

void util_log(int level, const char *fmt, ...)
{
	va_list ap;

	if (level > util_log_level)
		return;
	va_start(ap, fmt);
	log_line(level, 0, fmt, ap);
	va_end(ap);
}

void util_log_conn(int level, uint64_t conn, const char *fmt, ...)
{
	va_list ap;

	if (level > util_log_level)
		return;
	va_start(ap, fmt);
	log_line(level, conn, fmt, ap);
	va_end(ap);
}

void util_log_limited(struct util_log_limit *rl, int level, const char *fmt, ...)
{
	char line[1024];
	uint64_t now = util_mono_ns();
	va_list ap;

	if (level > util_log_level)
		return;
	if (rl->last_ns && now - rl->last_ns < 1000000000u) {
		rl->suppressed++;
		return;
	}
	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	if (rl->suppressed)
		util_log(level, "%s (and %llu more like it in the last second)", line,
			 (unsigned long long)rl->suppressed);
	else
		util_log(level, "%s", line);
	rl->last_ns = now;
	rl->suppressed = 0;
}
