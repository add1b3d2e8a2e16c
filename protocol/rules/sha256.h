/*
 * sha256.h: SHA-256 (FIPS 180-4) in plain C, for the dice stream and the
 * match seed. Incremental (init/update/final) or one-shot. The context is a
 * fixed-size value the caller owns; nothing is allocated and no state is
 * global, so any number of hashes may run at once.
 */
#ifndef QUINTETO_SHA256_H
#define QUINTETO_SHA256_H

#include <stddef.h>
#include <stdint.h>

#define RULES_SHA256_SIZE  32
#define RULES_SHA256_BLOCK 64

struct rules_sha256 {
	uint32_t h[8];                   /* chaining value */
	uint64_t len;                    /* bytes hashed so far */
	uint8_t buf[RULES_SHA256_BLOCK]; /* pending partial block */
	size_t fill;                     /* bytes pending in buf */
};

/* Starts a new hash in `c` (caller-owned; any previous content is lost). */
void rules_sha256_init(struct rules_sha256 *c);

/* Hashes `len` bytes at `data` (borrowed; may be NULL when len is 0). */
void rules_sha256_update(struct rules_sha256 *c, const void *data, size_t len);

/* Writes the digest to `out`; `c` must be initialised again before reuse. */
void rules_sha256_final(struct rules_sha256 *c, uint8_t out[RULES_SHA256_SIZE]);

/* One-shot: out = SHA-256(data[0..len)). */
void rules_sha256(const void *data, size_t len, uint8_t out[RULES_SHA256_SIZE]);

#endif
