/*
 * dice.c: the match seed and the dice stream of protocol.md ("Randomness").
 * match_seed = SHA-256(server_seed || cs0 || 0x00 || ... || csN || 0x00);
 * block k of the stream = SHA-256(match_seed || k as 8 bytes big-endian), and
 * the stream is the blocks' bytes in order, one byte at a time. Anyone holding
 * the seeds can recompute every throw, so this file must never change what it
 * produces. Pure: no I/O, no allocation, no clocks.
 */
#include <string.h>

#include "rules.h"

/* Derives the match seed; client_seeds[i] == NULL counts as "". */
void rules_match_seed(const uint8_t server_seed[RULES_SEED_SIZE], const char *const *client_seeds, int n,
		      uint8_t out[RULES_SEED_SIZE])
{
	static const uint8_t zero = 0;
	struct rules_sha256 c;

	rules_sha256_init(&c);
	rules_sha256_update(&c, server_seed, RULES_SEED_SIZE);
	for (int i = 0; i < n; i++) {
		const char *cs = client_seeds ? client_seeds[i] : NULL;

		if (cs)
			rules_sha256_update(&c, cs, strlen(cs));
		rules_sha256_update(&c, &zero, 1);
	}
	rules_sha256_final(&c, out);
}

/* Starts the stream of `seed` at byte 0 (block 0 is made on first use). */
void rules_dice_init(struct rules_dice *d, const uint8_t seed[RULES_SEED_SIZE])
{
	memset(d, 0, sizeof(*d));
	memcpy(d->seed, seed, RULES_SEED_SIZE);
	d->pos = RULES_SHA256_SIZE;
}

static void dice_refill(struct rules_dice *d)
{
	uint8_t msg[RULES_SEED_SIZE + 8];

	memcpy(msg, d->seed, RULES_SEED_SIZE);
	for (int i = 0; i < 8; i++)
		msg[RULES_SEED_SIZE + i] = (uint8_t)(d->block >> (56 - 8 * i));
	rules_sha256(msg, sizeof(msg), d->buf);
	d->block++;
	d->pos = 0;
}

/* Consumes and returns the next byte of the stream. */
uint8_t rules_dice_byte(struct rules_dice *d)
{
	if (d->pos >= RULES_SHA256_SIZE)
		dice_refill(d);
	d->used++;
	return d->buf[d->pos++];
}

/* A six-sided die: bytes >= 252 are skipped so that every face is 42/252. */
int rules_dice_d6(struct rules_dice *d)
{
	uint8_t b;

	do
		b = rules_dice_byte(d);
	while (b >= 252);
	return b % 6 + 1;
}

/* A tetrahedral die from one byte: true (marked corner up) when odd. */
bool rules_dice_tetra(struct rules_dice *d)
{
	return rules_dice_byte(d) & 1;
}
