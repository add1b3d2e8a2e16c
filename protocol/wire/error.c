/*
 * error.c: the wire codecs' codes (enum wire_error, the band -1100..-1199)
 * as the protocol's strings and as sentences.
 *
 * The strings are the protocol's `error.code`s (protocol/PROTOCOL.md,
 * error.json): they travel, the numbers never do. One table, in enum order,
 * holds both, so a code cannot have one without the other.
 *
 * Must not: keep mutable state.
 */
#include <errno.h>

#include "wire.h"

/* In enum wire_error order, from WIRE_E_BAD_JSON. */
static const struct {
	const char *code; /* the wire string */
	const char *text; /* for a person */
} errors[] = {
	{ "bad_json", "the frame is not JSON" },
	{ "bad_message", "the message is malformed" },
	{ "hello_required", "the connection has not said hello" },
	{ "unknown_room", "no such room" },
	{ "unknown_game", "no such game" },
	{ "bad_options", "options unknown or out of range for this game" },
	{ "room_full", "every seat is taken or the match has started" },
	{ "seat_taken", "that seat is taken" },
	{ "already_seated", "already seated in this room" },
	{ "not_in_room", "not in this room" },
	{ "not_your_turn", "not this seat's turn" },
	{ "illegal_action", "not a legal action" },
	{ "stale_ply", "not the room's current ply" },
	{ "game_over", "the match is over" },
	{ "rate_limited", "too many messages" },
	{ "too_large", "the message is too large" },
	{ "internal", "internal error" },
	{ "unavailable", "the server is unavailable" },
	{ "too_many_rooms", "too many rooms" },
	{ "chat_rate_limited", "chatting too fast" },
	{ "rematch_unavailable", "no rematch available" },
	{ "bad_handle", "not a valid handle" },
	{ "handle_taken", "another account has that handle" },
	{ "bad_password", "a password is 8..128 printable characters" },
	{ "wrong_credentials", "wrong handle or password" },
	{ "already_claimed", "this identity is an account already" },
	{ "not_signed_in", "not signed in to an account" },
	{ "unknown_session", "no such session of this account" },
	{ "signups_disabled", "this server takes no new accounts" },
	{ "seats_held", "the account holds a seat in a room that is waiting or playing" },
	{ "account_required", "rated rooms are for accounts" },
	{ "rated_room", "bots play casual rooms only" },
	{ "busy", "the server is busy: try again in a moment" },
};

_Static_assert(sizeof(errors) / sizeof(errors[0]) == WIRE_E_COUNT, "one string per wire error code");

/* See wire.h. */
int wire_error_index(int err)
{
	if (err > WIRE_E_BAD_JSON || err <= WIRE_E_END_)
		return -ERANGE;
	return WIRE_E_BAD_JSON - err;
}

/* The wire string of error `err`; NULL for WIRE_OK or any value outside the band. */
const char *wire_error_code(int err)
{
	int i = wire_error_index(err);

	return i < 0 ? NULL : errors[i].code;
}

/* See wire.h. */
const char *wire_strerror(int err)
{
	int i = wire_error_index(err);

	return i < 0 ? "unknown wire error" : errors[i].text;
}
