/*
 * handlers_int.h (private to server/net/): what a connection's messages do. Decodes each inbound frame,
 * applies the rate limit, and runs one small handler per message type (a
 * table), which calls the lobby and the rooms and sends the direct reply.
 * This is the one place where the modules' outcomes (ROOM_E_*, WIRE_E_*,
 * negative errno) become the protocol's error codes. Every refusal is an
 * `error` frame and changes nothing.
 *
 * Calls down into session, lobby, room and player; nothing calls it but the
 * network layer.
 */
#ifndef QUINTETO_HANDLERS_INT_H
#define QUINTETO_HANDLERS_INT_H

#include <stddef.h>

#include "lobby/lobby.h"
#include "net/session_int.h"

struct store;

struct handlers {
	struct lobby *lobby;
	struct store *store;
	struct metrics *metrics;
	const struct config *cfg;
};

/* One complete inbound text message of `s`. */
void handlers_receive(struct handlers *h, struct session *s, const char *data, size_t len);

/* lws closed `s`: it leaves the lobby, its rooms and its player, then is reaped. */
void handlers_closed(struct handlers *h, struct session *s);

#endif
