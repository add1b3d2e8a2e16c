/*
 * msg.c: decodes one inbound text frame into a struct wire_msg.
 *
 * The frame is parsed once with jansson (duplicate keys rejected; \u0000 in a
 * string is rejected by default, JSON_ALLOW_NUL being off; any top-level
 * value is accepted so that a non-object is bad_message, not bad_json);
 * the envelope (`id`, `type`) is checked first so that an error can echo the
 * id, then the fields of the message's type are checked against a table, one
 * row per field. Text that jansson cannot parse is bad_json; valid JSON that
 * is not an object, or an object that breaks the message table, is
 * bad_message. Unknown top-level fields are ignored.
 *
 * Must not: look at rooms, games or players (the server answers unknown_room,
 * unknown_game, bad_options itself), allocate anything but the parsed tree, or
 * keep state between calls. Invariant: every pointer in a decoded message
 * borrows from m->root, which the message owns until wire_msg_finish().
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "wire.h"
#include "wire_games.h"

#define TOKEN_MAX 128 /* bytes of a hello.token */
#define LEVEL_MAX 32  /* characters of an add_bot.level */

/* How a field is checked and where it is stored. */
enum field_kind {
	FIELD_TEXT,   /* printable text, 1..max characters -> const char * */
	FIELD_BYTES,  /* any string, min..max bytes -> const char * */
	FIELD_ANY,    /* any JSON value -> json_t * */
	FIELD_OBJECT, /* a JSON object -> json_t * */
	FIELD_SEAT,   /* integer 0..RULES_MAX_SEATS-1 -> has_seat, seat */
	FIELD_PLY,    /* integer >= 0 -> ply */
	FIELD_SINCE,  /* integer >= 0 -> has_since, since */
	FIELD_PLIES,  /* an object of room id -> integer >= 0 -> json_t * */
	FIELD_BOOL,   /* true/false -> int: 1 false, 2 true (0 stays: absent) */
};

struct field {
	const char *key;
	enum field_kind kind;
	bool required;
	size_t min;    /* FIELD_BYTES: bytes */
	size_t max;    /* FIELD_TEXT: characters; FIELD_BYTES: bytes */
	size_t offset; /* of the member of struct wire_msg */
};

#define F(key, kind, req, min, max, member)                                 \
	{                                                                   \
		key, kind, req, min, max, offsetof(struct wire_msg, member) \
	}
#define ROOM F("room", FIELD_BYTES, true, 1, WIRE_ROOM_ID_MAX, room)

static const struct field hello_fields[] = {
	F("name", FIELD_TEXT, true, 0, WIRE_NAME_MAX, name),
	F("token", FIELD_BYTES, false, 0, TOKEN_MAX, token),
	F("since", FIELD_PLIES, false, 0, 0, since_map),
	{ NULL, 0, false, 0, 0, 0 },
};
static const struct field create_fields[] = {
	F("game", FIELD_BYTES, true, 0, SIZE_MAX, game),
	F("options", FIELD_ANY, false, 0, 0, options),
	F("rated", FIELD_BOOL, false, 0, 0, rated),
	{ NULL, 0, false, 0, 0, 0 },
};
static const struct field join_fields[] = {
	ROOM,
	F("seat", FIELD_SEAT, false, 0, 0, seat),
	F("client_seed", FIELD_TEXT, false, 0, WIRE_CLIENT_SEED_MAX, client_seed),
	{ NULL, 0, false, 0, 0, 0 },
};
static const struct field room_fields[] = {
	ROOM,
	{ NULL, 0, false, 0, 0, 0 },
};
static const struct field seen_fields[] = {
	/* a room and the last ply seen */
	ROOM,
	F("since", FIELD_SINCE, false, 0, 0, since),
	{ NULL, 0, false, 0, 0, 0 },
};
static const struct field add_bot_fields[] = {
	ROOM,
	F("seat", FIELD_SEAT, false, 0, 0, seat),
	F("level", FIELD_TEXT, false, 0, LEVEL_MAX, level),
	{ NULL, 0, false, 0, 0, 0 },
};
static const struct field act_fields[] = {
	ROOM,
	F("ply", FIELD_PLY, true, 0, 0, ply),
	F("action", FIELD_OBJECT, true, 0, 0, action),
	{ NULL, 0, false, 0, 0, 0 },
};
static const struct field chat_fields[] = {
	ROOM,
	F("text", FIELD_TEXT, true, 0, WIRE_CHAT_MAX, text),
	{ NULL, 0, false, 0, 0, 0 },
};
static const struct field mute_fields[] = {
	ROOM,
	F("seat", FIELD_SEAT, false, 0, 0, seat),
	F("spectators", FIELD_BOOL, false, 0, 0, spectators),
	F("muted", FIELD_BOOL, true, 0, 0, muted),
	{ NULL, 0, false, 0, 0, 0 },
};
static const struct field rematch_fields[] = {
	ROOM,
	F("accept", FIELD_BOOL, false, 0, 0, accept),
	{ NULL, 0, false, 0, 0, 0 },
};
/* Accounts: lengths in bytes only (a password of 128 characters of 4 bytes each fits); the server judges
 * handles and passwords itself, to answer bad_handle, bad_password or wrong_credentials. */
#define SECRET_MAX 512
static const struct field credentials_fields[] = {
	F("handle", FIELD_BYTES, true, 0, 80, handle),
	F("password", FIELD_BYTES, true, 0, SECRET_MAX, password),
	F("device", FIELD_TEXT, false, 0, 64, device),
	{ NULL, 0, false, 0, 0, 0 },
};
static const struct field password_fields[] = {
	F("old", FIELD_BYTES, true, 0, SECRET_MAX, old_password),
	F("new", FIELD_BYTES, true, 0, SECRET_MAX, new_password),
	{ NULL, 0, false, 0, 0, 0 },
};
static const struct field end_session_fields[] = {
	F("session", FIELD_BYTES, true, 1, 32, session),
	{ NULL, 0, false, 0, 0, 0 },
};
static const struct field delete_account_fields[] = {
	F("password", FIELD_BYTES, true, 0, SECRET_MAX, password),
	{ NULL, 0, false, 0, 0, 0 },
};
static const struct field no_fields[] = {
	{ NULL, 0, false, 0, 0, 0 },
};

/* One row per enum wire_type, in enum order from WIRE_HELLO. */
static const struct {
	const char *name;
	const struct field *fields;
} msg_types[] = {
	{ "hello", hello_fields },
	{ "rooms", no_fields },
	{ "create", create_fields },
	{ "join", join_fields },
	{ "watch", seen_fields },
	{ "leave", room_fields },
	{ "add_bot", add_bot_fields },
	{ "act", act_fields },
	{ "resign", room_fields },
	{ "chat", chat_fields },
	{ "mute", mute_fields },
	{ "rematch", rematch_fields },
	{ "claim", credentials_fields },
	{ "sign_in", credentials_fields },
	{ "sign_out", no_fields },
	{ "account", no_fields },
	{ "password", password_fields },
	{ "end_session", end_session_fields },
	{ "delete_account", delete_account_fields },
};

#define MSG_TYPE_COUNT (sizeof(msg_types) / sizeof(msg_types[0]))

#define fail wire_fail

/* An id is a string of at most WIRE_ID_MAX bytes or an integer (whose decimal
 * text is at most 20 bytes, so always short enough). */
static bool id_valid(const json_t *id)
{
	if (json_is_string(id))
		return json_string_length(id) <= WIRE_ID_MAX;
	return json_is_integer(id);
}

static int field_string(const json_t *v, const struct field *f, const char *type, struct wire_msg *m,
			char *why, size_t whylen)
{
	size_t len;

	if (!json_is_string(v))
		return fail(WIRE_E_BAD_MESSAGE, why, whylen, "%s.%s must be a string", type, f->key);
	len = json_string_length(v);
	if (f->kind == FIELD_TEXT && !wire_text_valid(json_string_value(v), f->max))
		return fail(WIRE_E_BAD_MESSAGE, why, whylen, "%s.%s must be 1..%zu printable characters",
			    type, f->key, f->max);
	if (f->kind == FIELD_BYTES && (len < f->min || len > f->max))
		return fail(WIRE_E_BAD_MESSAGE, why, whylen, "%s.%s must be %zu..%zu bytes", type, f->key,
			    f->min, f->max);
	*(const char **)((char *)m + f->offset) = json_string_value(v);
	return WIRE_OK;
}

static int field_integer(const json_t *v, const struct field *f, const char *type, struct wire_msg *m,
			 char *why, size_t whylen)
{
	json_int_t n;

	if (!json_is_integer(v))
		return fail(WIRE_E_BAD_MESSAGE, why, whylen, "%s.%s must be an integer", type, f->key);
	n = json_integer_value(v);
	if (f->kind == FIELD_SEAT) {
		if (n < 0 || n >= RULES_MAX_SEATS)
			return fail(WIRE_E_BAD_MESSAGE, why, whylen, "%s.%s must be 0..%d", type, f->key,
				    RULES_MAX_SEATS - 1);
		m->has_seat = true;
		m->seat = n;
		return WIRE_OK;
	}
	if (n < 0)
		return fail(WIRE_E_BAD_MESSAGE, why, whylen, "%s.%s must be >= 0", type, f->key);
	if (f->kind == FIELD_SINCE) {
		m->has_since = true;
		m->since = n;
		return WIRE_OK;
	}
	m->ply = n;
	return WIRE_OK;
}

/* {room id: ply}: every key a room id's length, every value an integer >= 0. */
static int field_plies(json_t *v, const struct field *f, const char *type, struct wire_msg *m, char *why,
		       size_t whylen)
{
	const char *key;
	json_t *ply;

	if (!json_is_object(v))
		return fail(WIRE_E_BAD_MESSAGE, why, whylen, "%s.%s must be an object", type, f->key);
	json_object_foreach(v, key, ply)
	{
		size_t len = strlen(key);

		if (len < 1 || len > WIRE_ROOM_ID_MAX)
			return fail(WIRE_E_BAD_MESSAGE, why, whylen,
				    "%s.%s keys must be room ids of 1..%d bytes", type, f->key,
				    WIRE_ROOM_ID_MAX);
		if (!json_is_integer(ply) || json_integer_value(ply) < 0)
			return fail(WIRE_E_BAD_MESSAGE, why, whylen, "%s.%s values must be integers >= 0",
				    type, f->key);
	}
	*(json_t **)((char *)m + f->offset) = v;
	return WIRE_OK;
}

static int field_decode(const struct field *f, const char *type, struct wire_msg *m, char *why, size_t whylen)
{
	json_t *v = json_object_get(m->root, f->key);

	if (!v) {
		if (f->required)
			return fail(WIRE_E_BAD_MESSAGE, why, whylen, "%s.%s is required", type, f->key);
		return WIRE_OK;
	}
	switch (f->kind) {
	case FIELD_TEXT:
	case FIELD_BYTES:
		return field_string(v, f, type, m, why, whylen);
	case FIELD_SEAT:
	case FIELD_PLY:
	case FIELD_SINCE:
		return field_integer(v, f, type, m, why, whylen);
	case FIELD_PLIES:
		return field_plies(v, f, type, m, why, whylen);
	case FIELD_BOOL:
		if (!json_is_boolean(v))
			return fail(WIRE_E_BAD_MESSAGE, why, whylen, "%s.%s must be a boolean", type, f->key);
		*(int *)((char *)m + f->offset) = json_is_true(v) ? 2 : 1;
		return WIRE_OK;
	case FIELD_OBJECT:
		if (!json_is_object(v))
			return fail(WIRE_E_BAD_MESSAGE, why, whylen, "%s.%s must be an object", type, f->key);
		/* fall through */
	case FIELD_ANY:
		*(json_t **)((char *)m + f->offset) = v;
		return WIRE_OK;
	}
	return fail(WIRE_E_INTERNAL, why, whylen, "unknown field kind");
}

/* Checks `id` and `type`; sets m->id and m->type. */
static int envelope_decode(struct wire_msg *m, char *why, size_t whylen)
{
	json_t *id = json_object_get(m->root, "id");
	json_t *type = json_object_get(m->root, "type");
	const char *name;
	size_t i;

	if (id && !id_valid(id))
		return fail(WIRE_E_BAD_MESSAGE, why, whylen,
			    "id must be a string of at most %d bytes or an integer", WIRE_ID_MAX);
	m->id = id;
	if (!type)
		return fail(WIRE_E_BAD_MESSAGE, why, whylen, "type is required");
	if (!json_is_string(type))
		return fail(WIRE_E_BAD_MESSAGE, why, whylen, "type must be a string");
	name = json_string_value(type);
	for (i = 0; i < MSG_TYPE_COUNT; i++) {
		if (strcmp(name, msg_types[i].name) == 0) {
			m->type = WIRE_HELLO + (int)i;
			return WIRE_OK;
		}
	}
	return fail(WIRE_E_BAD_MESSAGE, why, whylen, "unknown type \"%.32s\"", name);
}

/* Decodes one frame; see wire.h. `m` is overwritten. */
int wire_msg_decode(const char *buf, size_t len, struct wire_msg *m, char *why, size_t whylen)
{
	const struct field *f;
	json_error_t jerr;
	int err;

	memset(m, 0, sizeof(*m));
	if (why && whylen)
		why[0] = '\0';
	m->root = json_loadb(buf, len, JSON_REJECT_DUPLICATES | JSON_DECODE_ANY, &jerr);
	if (!m->root)
		return fail(WIRE_E_BAD_JSON, why, whylen, "not JSON: %s at %d:%d", jerr.text, jerr.line,
			    jerr.column);
	if (!json_is_object(m->root))
		return fail(WIRE_E_BAD_MESSAGE, why, whylen, "a message must be a JSON object");
	err = envelope_decode(m, why, whylen);
	if (err)
		return err;
	for (f = msg_types[m->type - WIRE_HELLO].fields; f->key; f++) {
		err = field_decode(f, msg_types[m->type - WIRE_HELLO].name, m, why, whylen);
		if (err)
			return err;
	}
	if (m->type == WIRE_MUTE && m->has_seat == (m->spectators == 2))
		return fail(WIRE_E_BAD_MESSAGE, why, whylen,
			    "mute needs exactly one of seat and spectators:true");
	return WIRE_OK;
}

/* Releases the parsed tree; every borrowed pointer in `m` dies with it. */
void wire_msg_finish(struct wire_msg *m)
{
	if (!m)
		return;
	if (m->id_owned)
		json_decref(m->id);
	json_decref(m->root);
	memset(m, 0, sizeof(*m));
}
