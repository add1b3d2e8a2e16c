/*
 * pwhash.h: passwords hashed and verified with Argon2id (libsodium's
 * crypto_pwhash_str and crypto_pwhash_str_verify, whose comparison takes
 * constant time) on a small pool of threads of its own, never on the event
 * loop: each costs tens of milliseconds and `mem` of memory (docs/ACCOUNTS.md).
 * The queue is bounded: past `queue_max` waiting jobs a new one is refused
 * (the client hears `busy`), so the memory and CPU a stranger can make the
 * server spend are bounded in all. A job whose requester went away is taken
 * out of the queue unrun (pwhash_cancel).
 *
 * An unknown handle is verified against a dummy hash made at start with the
 * same parameters (pwhash_verify with hash NULL), so the answer takes as long
 * as a wrong password's.
 */
#ifndef QUINTETO_PWHASH_H
#define QUINTETO_PWHASH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <uv.h>

#define PWHASH_STR_SIZE 128 /* crypto_pwhash_STRBYTES */
/* Floors below which a host's settings are raised: libsodium's INTERACTIVE is 2 and 64 MiB. */
#define PWHASH_OPS_MIN     2
#define PWHASH_MEM_MIN_KIB (19 * 1024) /* OWASP's least for Argon2id with 2 passes */

struct pwhash;
struct pwhash_job;

/*
 * done(ctx, err, hash, match): err 0, -ENOMEM, or -EIO (libsodium refused: out
 * of memory for the hash's `mem`); `hash` the new hash (pwhash_hash(), NUL-terminated,
 * borrowed for the call), `match` whether the password matched (pwhash_verify()).
 * Runs on the loop; never for a cancelled job.
 */
typedef void (*pwhash_cb)(void *ctx, int err, const char *hash, bool match);

/*
 * sodium_init() (once), then the pool: `threads` threads, at most `queue_max`
 * jobs waiting, hashes with `ops` passes over `mem_kib` KiB; the dummy hash is
 * made here (a few tens of ms at start). 0 or a negative errno.
 */
int pwhash_new(uv_loop_t *loop, unsigned threads, size_t queue_max, unsigned long long ops, size_t mem_kib,
	       struct pwhash **out);

/*
 * Stops the threads (the job each runs finishes and is answered), answers the
 * queued ones -ECANCELED (inside this call), and frees the pool once the loop
 * has closed its handle; NULL: nothing.
 */
void pwhash_free(struct pwhash *ph);

/*
 * Queues a hash of `password` (copied, wiped after use) or a verification of it
 * against `hash` (NULL: the dummy, which never matches). The job, or NULL
 * when the queue is full (busy) or out of memory: done is never called then.
 */
struct pwhash_job *pwhash_hash(struct pwhash *ph, const char *password, pwhash_cb done, void *ctx);
struct pwhash_job *pwhash_verify(struct pwhash *ph, const char *password, const char *hash, pwhash_cb done,
				 void *ctx);

/* Its done will not be called: a queued job leaves the queue unrun, a running one is answered to nobody. */
void pwhash_cancel(struct pwhash_job *job);

/* Jobs waiting now (a gauge), and hashes and verifications done so far. */
size_t pwhash_depth(const struct pwhash *ph);
uint64_t pwhash_done(const struct pwhash *ph);

/*
 * The same hash synchronously, for the command line (reset-password): 0 or
 * -EIO; `out` PWHASH_STR_SIZE bytes. sodium_init() is called if needed.
 */
int pwhash_str(const char *password, unsigned long long ops, size_t mem_kib, char out[PWHASH_STR_SIZE]);

#endif
