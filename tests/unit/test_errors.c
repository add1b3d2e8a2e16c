/*
 * test_errors.c: the protocol layer's codes follow the one convention
 * (docs/ARCHITECTURE.md, "Errors"): every RULES_E_* and WIRE_E_* is negative,
 * in its module's band, distinct, and named by its strerror; the WIRE_E_*
 * codes still travel as the same strings (the values changed when they moved
 * into their band; the wire must not).
 */
#include <errno.h>
#include <string.h>

#include "rules.h"
#include "tap.h"
#include "wire.h"

/* The protocol's error strings, in the order the codes were numbered 1..20 before the bands. */
static const struct {
	int code;
	const char *wire;
} wire_codes[] = {
	{ WIRE_E_BAD_JSON, "bad_json" },
	{ WIRE_E_BAD_MESSAGE, "bad_message" },
	{ WIRE_E_HELLO_REQUIRED, "hello_required" },
	{ WIRE_E_UNKNOWN_ROOM, "unknown_room" },
	{ WIRE_E_UNKNOWN_GAME, "unknown_game" },
	{ WIRE_E_BAD_OPTIONS, "bad_options" },
	{ WIRE_E_ROOM_FULL, "room_full" },
	{ WIRE_E_SEAT_TAKEN, "seat_taken" },
	{ WIRE_E_ALREADY_SEATED, "already_seated" },
	{ WIRE_E_NOT_IN_ROOM, "not_in_room" },
	{ WIRE_E_NOT_YOUR_TURN, "not_your_turn" },
	{ WIRE_E_ILLEGAL_ACTION, "illegal_action" },
	{ WIRE_E_STALE_PLY, "stale_ply" },
	{ WIRE_E_GAME_OVER, "game_over" },
	{ WIRE_E_RATE_LIMITED, "rate_limited" },
	{ WIRE_E_TOO_LARGE, "too_large" },
	{ WIRE_E_INTERNAL, "internal" },
	{ WIRE_E_UNAVAILABLE, "unavailable" },
	{ WIRE_E_TOO_MANY_ROOMS, "too_many_rooms" },
	{ WIRE_E_CHAT_RATE_LIMITED, "chat_rate_limited" },
	{ WIRE_E_REMATCH_UNAVAILABLE, "rematch_unavailable" },
	{ WIRE_E_BAD_HANDLE, "bad_handle" },
	{ WIRE_E_HANDLE_TAKEN, "handle_taken" },
	{ WIRE_E_BAD_PASSWORD, "bad_password" },
	{ WIRE_E_WRONG_CREDENTIALS, "wrong_credentials" },
	{ WIRE_E_ALREADY_CLAIMED, "already_claimed" },
	{ WIRE_E_NOT_SIGNED_IN, "not_signed_in" },
	{ WIRE_E_UNKNOWN_SESSION, "unknown_session" },
	{ WIRE_E_SIGNUPS_DISABLED, "signups_disabled" },
	{ WIRE_E_SEATS_HELD, "seats_held" },
	{ WIRE_E_ACCOUNT_REQUIRED, "account_required" },
	{ WIRE_E_RATED_ROOM, "rated_room" },
	{ WIRE_E_BUSY, "busy" },
};
#define NWIRE (sizeof(wire_codes) / sizeof(wire_codes[0]))

static const int rules_codes[] = {
	RULES_E_ILLEGAL,     RULES_E_NOT_TO_ACT, RULES_E_GAME_OVER,
	RULES_E_BAD_OPTIONS, RULES_E_BAD_SEAT,   RULES_E_OUT_OF_PLAY,
};
#define NRULES (sizeof(rules_codes) / sizeof(rules_codes[0]))

/* Every value of list[0..n) differs from every other. */
static int distinct(const int *list, size_t n)
{
	for (size_t i = 0; i < n; i++)
		for (size_t j = i + 1; j < n; j++)
			if (list[i] == list[j])
				return 0;
	return 1;
}

static void test_rules_band(void)
{
	CHECK_EQ(NRULES, RULES_E_ILLEGAL - RULES_E_END_); /* this list names every code */
	CHECK(distinct(rules_codes, NRULES));
	for (size_t i = 0; i < NRULES; i++) {
		int e = rules_codes[i];

		CHECK(e <= -1000 && e >= -1099);
		CHECK(strcmp(rules_strerror(e), "unknown rules error") != 0 && *rules_strerror(e));
		for (size_t j = 0; j < i; j++)
			CHECK(strcmp(rules_strerror(e), rules_strerror(rules_codes[j])) != 0);
	}
	CHECK(strcmp(rules_strerror(0), "unknown rules error") == 0);
	CHECK(strcmp(rules_strerror(RULES_E_END_), "unknown rules error") == 0);
	CHECK(strcmp(rules_strerror(-ENOMEM), "unknown rules error") == 0);
}

static void test_wire_band(void)
{
	int codes[NWIRE];

	CHECK_EQ(NWIRE, WIRE_E_COUNT); /* this list names every code */
	for (size_t i = 0; i < NWIRE; i++) {
		int e = codes[i] = wire_codes[i].code;

		CHECK(e <= -1100 && e >= -1199);
		CHECK_EQ(wire_error_index(e), i);
		CHECK(strcmp(wire_strerror(e), "unknown wire error") != 0 && *wire_strerror(e));
		for (size_t j = 0; j < i; j++)
			CHECK(strcmp(wire_strerror(e), wire_strerror(wire_codes[j].code)) != 0);
	}
	CHECK(distinct(codes, NWIRE));
	CHECK(wire_error_index(WIRE_OK) < 0 && wire_error_index(WIRE_E_END_) < 0 && wire_error_index(-1) < 0);
	CHECK(strcmp(wire_strerror(WIRE_OK), "unknown wire error") == 0);
	CHECK(strcmp(wire_strerror(RULES_E_ILLEGAL), "unknown wire error") == 0);
}

/* The strings on the wire are those of before the bands, code for code. */
static void test_wire_strings_unchanged(void)
{
	for (size_t i = 0; i < NWIRE; i++) {
		const char *got = wire_error_code(wire_codes[i].code);

		CHECK(got && strcmp(got, wire_codes[i].wire) == 0);
		if (!got || strcmp(got, wire_codes[i].wire) != 0)
			printf("# code %d: %s, want %s\n", wire_codes[i].code, got ? got : "(null)",
			       wire_codes[i].wire);
	}
	for (int e = 1; e <= 21; e++) /* the old positive values mean nothing now */
		CHECK(wire_error_code(e) == NULL);
	CHECK(wire_error_code(WIRE_OK) == NULL && wire_error_code(WIRE_E_END_) == NULL);
	CHECK(wire_error_code(RULES_E_ILLEGAL) == NULL && wire_error_code(-ENOMEM) == NULL);
}

static void test_bands_apart(void)
{
	/* No rules code is a wire code, and neither is an errno. */
	for (size_t i = 0; i < NRULES; i++) {
		CHECK(wire_error_index(rules_codes[i]) < 0);
		CHECK(-rules_codes[i] > 133); /* beyond every Linux errno (EHWPOISON is 133) */
	}
	CHECK(-WIRE_E_BAD_JSON > 133);
}

int main(void)
{
	TEST(test_rules_band);
	TEST(test_wire_band);
	TEST(test_wire_strings_unchanged);
	TEST(test_bands_apart);
	return tap_done();
}
