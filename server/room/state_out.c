/*
 * state_out.c: the `state` frame without a tree; see state_out.h. The member
 * order and every value's form follow wire_state_new() (protocol/wire/
 * server_msg.c), which stays the definition: its json_pack() formats say
 * where null stands for a missing string (`s?`), and a test holds the two
 * equal byte for byte.
 */
#include "room/state_out.h"

#include <errno.h>
#include <string.h>

#include "rules.h"

/* Appends a literal. */
#define LIT(o, s) json_out_bytes((o), (s), sizeof(s) - 1)

static int str(struct json_out *o, const char *s)
{
	return json_out_string(o, s, strlen(s));
}

static int str_or_null(struct json_out *o, const char *s)
{
	return s ? str(o, s) : LIT(o, "null");
}

static int str_or_false(struct json_out *o, const char *s)
{
	return s ? str(o, s) : LIT(o, "false");
}

static int boolean(struct json_out *o, bool b)
{
	return b ? LIT(o, "true") : LIT(o, "false");
}

/* Appends a codec's tree and frees it; non-zero if the codec failed (NULL) or memory ran out. */
static int tree(struct json_out *o, json_t *j)
{
	int r = json_out_value(o, j, 0);

	json_decref(j);
	return r;
}

/* {"seat":i,"role":..,"name":..|null,"bot":"<level>"|false[,"handle":..,"rating":n[,"provisional":true]],
 *  "connected":b,"stand_in":b[,"clock":{..}]} */
static int seat_out(struct json_out *o, const struct wire_room *w, int i)
{
	const struct wire_seat *s = &w->seats[i];

	if (LIT(o, "{\"seat\":") || json_out_int(o, i) || LIT(o, ",\"role\":") || str(o, w->game->roles[i]) ||
	    LIT(o, ",\"name\":") || str_or_null(o, s->name) || LIT(o, ",\"bot\":") ||
	    str_or_false(o, s->bot) ||
	    (s->handle &&
	     (LIT(o, ",\"handle\":") || str(o, s->handle) || LIT(o, ",\"rating\":") ||
	      json_out_int(o, s->rating) || (s->provisional && LIT(o, ",\"provisional\":true")))) ||
	    LIT(o, ",\"connected\":") || boolean(o, s->connected) || LIT(o, ",\"stand_in\":") ||
	    boolean(o, s->stand_in))
		return -ENOMEM;
	if (s->has_clock &&
	    (LIT(o, ",\"clock\":{\"remaining_ms\":") || json_out_int(o, s->clock_ms) ||
	     LIT(o, ",\"running_since\":") ||
	     (s->clock_since ? json_out_int(o, s->clock_since) : LIT(o, "null")) || LIT(o, "}")))
		return -ENOMEM;
	return LIT(o, "}");
}

static int seats_out(struct json_out *o, const struct wire_room *w)
{
	int i;

	if (LIT(o, "["))
		return -ENOMEM;
	for (i = 0; i < w->game->seats; i++)
		if ((i && LIT(o, ",")) || seat_out(o, w, i))
			return -ENOMEM;
	return LIT(o, "]");
}

static int to_act_out(struct json_out *o, const struct wire_room *w)
{
	uint8_t seats[RULES_MAX_SEATS];
	int i, n = 0;

	if (strcmp(w->status, "playing") == 0)
		n = rules_to_act(w->match, seats);
	if (LIT(o, "["))
		return -ENOMEM;
	for (i = 0; i < n; i++)
		if ((i && LIT(o, ",")) || json_out_int(o, seats[i]))
			return -ENOMEM;
	return LIT(o, "]");
}

static int last_out(struct json_out *o, const struct wire_room *w)
{
	if (!w->has_last)
		return LIT(o, "null");
	return LIT(o, "{\"seat\":") || json_out_int(o, w->last_seat) || LIT(o, ",\"action\":") ||
			       wire_action_out(o, w->codec, &w->last_action) || LIT(o, ",\"outcome\":") ||
			       wire_outcome_out(o, w->codec, w->match, &w->last_action, &w->last_outcome) ||
			       LIT(o, "}")
		       ? -ENOMEM
		       : 0;
}

static int result_out(struct json_out *o, const struct wire_room *w)
{
	struct rules_result res;

	rules_result(w->match, &res);
	return res.over ? wire_result_out(o, w->codec, &res) : LIT(o, "null");
}

static int rematch_out(struct json_out *o, const struct wire_room *w)
{
	int i, n = 0;

	if (!w->rematch_status)
		return LIT(o, "null");
	if (LIT(o, "{\"status\":") || str(o, w->rematch_status) || LIT(o, ",\"by\":") ||
	    json_out_int(o, w->rematch_by) || LIT(o, ",\"accepted\":["))
		return -ENOMEM;
	for (i = 0; i < w->game->seats; i++)
		if ((w->rematch_accepted >> i & 1) && ((n++ && LIT(o, ",")) || json_out_int(o, i)))
			return -ENOMEM;
	return LIT(o, "],\"expires_at\":") || json_out_int(o, w->rematch_expires_at) ||
			       LIT(o, ",\"room\":") || str_or_null(o, w->rematch_room) || LIT(o, "}")
		       ? -ENOMEM
		       : 0;
}

/* ,"client_seeds":[..],"server_seed":.. once the match is over. */
static int reveal_out(struct json_out *o, const struct wire_room *w)
{
	int i;

	if (!w->server_seed)
		return 0;
	if (LIT(o, ",\"client_seeds\":["))
		return -ENOMEM;
	for (i = 0; i < w->game->seats; i++)
		if ((i && LIT(o, ",")) || str(o, w->client_seeds[i] ? w->client_seeds[i] : ""))
			return -ENOMEM;
	return LIT(o, "],\"server_seed\":") || str(o, w->server_seed) ? -ENOMEM : 0;
}

int state_out_options(struct json_out *o, const struct wire_room *w)
{
	return tree(o, wire_options_encode(w->codec, w->room_options,
					   w->rules_options ? w->rules_options : &w->match->options, true))
		       ? -ENOMEM
		       : 0;
}

int state_out(struct json_out *o, const struct wire_room *w, const char *options, size_t options_len,
	      size_t *legal_at)
{
	if (LIT(o, "{\"type\":\"state\",\"room\":") || str(o, w->id) || LIT(o, ",\"game\":") ||
	    str(o, w->game->id) || LIT(o, ",\"status\":") || str(o, w->status) || LIT(o, ",\"ply\":") ||
	    json_out_int(o, w->match->ply) || LIT(o, ",\"seats\":") || seats_out(o, w) ||
	    LIT(o, ",\"to_act\":") || to_act_out(o, w) || LIT(o, ",\"view\":") ||
	    wire_view_out(o, w->codec, w->match) || LIT(o, ",\"legal\":"))
		return -ENOMEM;
	*legal_at = o->len;
	return LIT(o, "[],\"last\":") || last_out(o, w) || LIT(o, ",\"result\":") || result_out(o, w) ||
			       LIT(o, ",\"commit\":") || str_or_null(o, w->commit) ||
			       LIT(o, ",\"spectators\":") || json_out_int(o, w->spectators) ||
			       LIT(o, ",\"rematch\":") || rematch_out(o, w) || LIT(o, ",\"options\":") ||
			       json_out_bytes(o, options, options_len) ||
			       (w->rated && LIT(o, ",\"rated\":true")) || reveal_out(o, w) || LIT(o, "}")
		       ? -ENOMEM
		       : 0;
}
