/*
 * util.h: small helpers the server modules share: a string-keyed hash map,
 * secure random bytes, identifiers, clocks and logging.
 *
 * The hash map stores borrowed keys (the value owns its key's memory) and
 * never allocates per lookup. Logging writes one line to stderr.
 */
#ifndef QUINTETO_UTIL_H
#define QUINTETO_UTIL_H

#include <jansson.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

struct hmap_entry {
	const char *key; /* borrowed from the value; NULL = empty; TOMBSTONE = deleted */
	void *value;
};

struct hmap {
	struct hmap_entry *slots;
	size_t cap;  /* power of two */
	size_t len;  /* live entries */
	size_t used; /* live + tombstones */
};

/* Initialises an empty map; no allocation until the first insert. */
void hmap_init(struct hmap *m);
/* Frees the slot array (not the values). */
void hmap_finish(struct hmap *m);
/* Value for key, or NULL. */
void *hmap_get(const struct hmap *m, const char *key);
/* Inserts or replaces; `key` must live as long as the entry. 0 or -ENOMEM. */
int hmap_put(struct hmap *m, const char *key, void *value);
/* Removes key if present; returns its value or NULL. */
void *hmap_del(struct hmap *m, const char *key);
/* Iteration: start with *pos = 0; returns NULL at the end. */
void *hmap_next(const struct hmap *m, size_t *pos);

/*
 * A tally: counts by a short text key (a client address), over an hmap; a key
 * whose count falls to 0 is forgotten. For the per-address caps.
 */
struct tally {
	struct hmap map;
};

void tally_init(struct tally *t);
/* Frees every entry. */
void tally_finish(struct tally *t);
/* The count of `key` (at most 63 bytes; longer keys are cut), 0 if none. */
size_t tally_get(const struct tally *t, const char *key);
/* Adds `delta` (a removal is floored at 0). 0, or -ENOMEM with nothing changed. */
int tally_add(struct tally *t, const char *key, long long delta);

/* Fills buf with n bytes from the OS's secure source. 0 or -errno. */
int util_random(void *buf, size_t n);
/*
 * Random bytes for a match's server seed or bot stream (what: "server_seed", "bot_rng"): util_random(),
 * except under the test-only $QUINTETO_TEST_SEED, when they are a fixed function of its value and `what`
 * (tests/integration/wire_sessions.test.mjs replays whole matches against a recording). 0 or -errno.
 */
int util_seed_random(void *buf, size_t n, const char *what);
/* A random identifier: prefix + n base32 characters, into out (size >= strlen(prefix)+n+1). */
int util_random_id(const char *prefix, size_t n, char *out);
/*
 * Compact JSON text with sorted keys (journal and archive); takes `j`. NULL:
 * out of memory, here or in building `j` (a constructor's NULL passed on).
 */
char *util_json_text(json_t *j_take);
/* Wall clock, Unix milliseconds. */
int64_t util_now_ms(void);
/* Monotonic clock, nanoseconds. */
uint64_t util_mono_ns(void);
/* CPU time the calling thread has used, nanoseconds (0 if the clock cannot be read). */
uint64_t util_thread_cpu_ns(void);

enum { LOG_ERROR, LOG_WARN, LOG_INFO, LOG_DEBUG };
enum { UTIL_LOG_TEXT, UTIL_LOG_JSON };
extern int util_log_level;
extern int util_log_format;
/*
 * Logs one line to stderr: "TIME quinteto-server LEVEL: message" (UTC,
 * milliseconds), or with UTIL_LOG_JSON {"time","level","msg"} on one line.
 */
void util_log(int level, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* The same, about one connection: "conn=ID" in text, "conn": ID in JSON. */
void util_log_conn(int level, uint64_t conn, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/*
 * A line that may repeat without end (a flood's refusals, a library's error on
 * every loop turn): logged at most once a second per limiter, the next line
 * saying how many were left out meanwhile. A limiter starts zeroed.
 */
struct util_log_limit {
	uint64_t last_ns;
	uint64_t suppressed;
};
void util_log_limited(struct util_log_limit *rl, int level, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

#endif
