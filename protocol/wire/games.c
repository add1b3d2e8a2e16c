/*
 * games.c: the registry of game codecs, room options and the check for
 * printable text (the error codes are in error.c).
 *
 * The registry is a constant, NULL-terminated table of the codecs each game's
 * folder defines (wire_games.h), derived from the one list of games
 * (protocol/games/meson.build). Options
 * are per game: each codec has a table of its keys (struct wire_option), and
 * one decoder and one encoder here read every table; a key another game owns
 * is as unknown as any other. Event kinds have their wire names here.
 *
 * Must not: keep mutable global state, or write its outputs on failure
 * (options are decoded into locals and copied out only when all keys pass).
 */
#include <assert.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "wire.h"
#include "wire_games.h"

/* Every codec built in, in the order of rules_games[] (the same list), then the registered ones. */
#define GAME_ENTRY(id) &wire_game_##id,
const struct wire_game *wire_games[RULES_MAX_GAMES + 1] = { GAME_LIST(GAME_ENTRY) NULL };
#undef GAME_ENTRY

/* Appends `g` to wire_games[]; see wire.h (called from main() only). */
void wire_game_register(const struct wire_game *g)
{
	int n = 0;

	assert(g && g->id && !wire_game_find(g->id));
	while (wire_games[n])
		n++;
	assert(n < RULES_MAX_GAMES);
	wire_games[n] = g;
}

/* The codec of game `id` (borrowed, static); NULL if unknown or `id` is NULL. */
const struct wire_game *wire_game_find(const char *id)
{
	size_t i;

	if (!id)
		return NULL;
	for (i = 0; wire_games[i]; i++) {
		if (strcmp(wire_games[i]->id, id) == 0)
			return wire_games[i];
	}
	return NULL;
}

int wire_fail(int err, char *why, size_t whylen, const char *fmt, ...)
{
	va_list ap;

	if (why && whylen) {
		va_start(ap, fmt);
		vsnprintf(why, whylen, fmt, ap);
		va_end(ap);
	}
	return err;
}

#define bad_options(why, whylen, ...) wire_fail(WIRE_E_BAD_OPTIONS, why, whylen, __VA_ARGS__)

static const struct wire_option *option_find(const struct wire_game *g, const char *key)
{
	const struct wire_option *o;

	for (o = g && g->options ? g->options : NULL; o && o->key; o++)
		if (strcmp(o->key, key) == 0)
			return o;
	return NULL;
}

/* The field of option `o` in `room` or `rules`. */
static void *option_field(const struct wire_option *o, struct wire_room_options *room,
			  struct rules_options *rules)
{
	return (char *)(o->room ? (void *)room : (void *)rules) + o->offset;
}

/* Checks one value against its table row and stores it; 0 or WIRE_E_BAD_OPTIONS. */
static int option_set(const struct wire_option *o, const json_t *v, struct wire_room_options *room,
		      struct rules_options *rules, char *why, size_t whylen)
{
	json_int_t i;

	if (o->type == WIRE_OPT_BOOL) {
		if (!json_is_boolean(v))
			return bad_options(why, whylen, "options.%s must be a boolean", o->key);
		*(bool *)option_field(o, room, rules) = json_is_true(v);
		return WIRE_OK;
	}
	if (!json_is_integer(v))
		return bad_options(why, whylen, "options.%s must be an integer", o->key);
	i = json_integer_value(v);
	if (i < o->min || i > o->max)
		return bad_options(why, whylen, "options.%s must be %ld..%ld", o->key, (long)o->min,
				   (long)o->max);
	*(int32_t *)option_field(o, room, rules) = (int32_t)i;
	return WIRE_OK;
}

/* --- the options every game has (protocol.md: clock, stand_in_after_ms, stand_in_level, idle_after_ms) ---
 */

int32_t wire_stand_in_after_ms(const struct wire_room_options *o)
{
	return o->stand_in_set ? o->stand_in_after_ms : WIRE_STAND_IN_AFTER_DEFAULT_MS;
}

/* An integer member `key` of `obj` in lo..hi into *out; 0 or WIRE_E_BAD_OPTIONS. */
static int clock_ms(const json_t *obj, const char *key, int32_t lo, int32_t hi, int32_t *out, char *why,
		    size_t whylen)
{
	const json_t *v = json_object_get(obj, key);

	if (!json_is_integer(v) || json_integer_value(v) < lo || json_integer_value(v) > hi)
		return bad_options(why, whylen, "options.clock.%s must be an integer %ld..%ld", key, (long)lo,
				   (long)hi);
	*out = (int32_t)json_integer_value(v);
	return WIRE_OK;
}

/* options.clock: null, {"per_action_ms":N} or {"bank_ms":N[,"increment_ms":M]}. */
static int clock_set(const json_t *v, struct wire_room_options *r, char *why, size_t whylen)
{
	size_t n = json_is_object(v) ? json_object_size(v) : 0;

	r->clock_per_action_ms = r->clock_bank_ms = r->clock_increment_ms = 0;
	if (json_is_null(v))
		return WIRE_OK;
	if (n == 1 && json_object_get(v, "per_action_ms"))
		return clock_ms(v, "per_action_ms", WIRE_CLOCK_MIN_MS, WIRE_CLOCK_MAX_MS,
				&r->clock_per_action_ms, why, whylen);
	if (json_is_object(v) && json_object_get(v, "bank_ms") &&
	    n == 1 + (json_object_get(v, "increment_ms") != NULL)) {
		if (clock_ms(v, "bank_ms", WIRE_CLOCK_MIN_MS, WIRE_CLOCK_MAX_MS, &r->clock_bank_ms, why,
			     whylen))
			return WIRE_E_BAD_OPTIONS;
		if (n == 2 &&
		    clock_ms(v, "increment_ms", 0, WIRE_CLOCK_MAX_MS, &r->clock_increment_ms, why, whylen))
			return WIRE_E_BAD_OPTIONS;
		return WIRE_OK;
	}
	return bad_options(
		why, whylen,
		"options.clock must be null, {\"per_action_ms\":N} or {\"bank_ms\":N,\"increment_ms\":M}");
}

/* A level name: 1..15 lowercase letters, digits or '_' (the server checks the game has it). */
static bool level_ok(const char *s)
{
	size_t i, n = strlen(s);

	for (i = 0; i < n; i++)
		if (!((s[i] >= 'a' && s[i] <= 'z') || (s[i] >= '0' && s[i] <= '9') || s[i] == '_'))
			return false;
	return n >= 1 && n < sizeof(((struct wire_room_options *)0)->stand_in_level);
}

/* A duration option: null (*out 0) or an integer 0..max, ms. */
static int ms_option(const json_t *v, const char *key, long max, int32_t *out, char *why, size_t whylen)
{
	*out = 0;
	if (json_is_null(v))
		return WIRE_OK;
	if (!json_is_integer(v) || json_integer_value(v) < 0 || json_integer_value(v) > max)
		return bad_options(why, whylen, "options.%s must be null or 0..%ld", key, max);
	*out = (int32_t)json_integer_value(v);
	return WIRE_OK;
}

/* A key every game has into `r`: WIRE_OK, WIRE_E_BAD_OPTIONS, or -ENOENT when `key` is not one. */
static int shared_option_set(const char *key, const json_t *v, struct wire_room_options *r, char *why,
			     size_t whylen)
{
	if (strcmp(key, "clock") == 0)
		return clock_set(v, r, why, whylen);
	if (strcmp(key, "stand_in_after_ms") == 0) {
		r->stand_in_set = true;
		return ms_option(v, key, WIRE_STAND_IN_AFTER_MAX_MS, &r->stand_in_after_ms, why, whylen);
	}
	if (strcmp(key, "idle_after_ms") == 0) {
		r->idle_set = !json_is_null(v); /* null: the server's idle limit */
		return ms_option(v, key, WIRE_IDLE_AFTER_MAX_MS, &r->idle_after_ms, why, whylen);
	}
	if (strcmp(key, "stand_in_level") == 0) {
		if (!json_is_string(v) || !level_ok(json_string_value(v)))
			return bad_options(why, whylen, "options.stand_in_level must be a bot level");
		snprintf(r->stand_in_level, sizeof(r->stand_in_level), "%s", json_string_value(v));
		return WIRE_OK;
	}
	return -ENOENT;
}

/* The keys every game has into `obj` (with_defaults: all of them, defaults filled in); 0 or -ENOMEM. */
static int shared_options_put(json_t *obj, const struct wire_room_options *r, bool with_defaults)
{
	static const struct wire_room_options none = { .autoroll = false };
	json_t *clock = json_null();
	int32_t after;

	if (!r)
		r = &none;
	if (r->clock_per_action_ms)
		clock = json_pack("{s:i}", "per_action_ms", r->clock_per_action_ms);
	else if (r->clock_bank_ms)
		clock = json_pack("{s:i,s:i}", "bank_ms", r->clock_bank_ms, "increment_ms",
				  r->clock_increment_ms);
	if (!clock)
		return -ENOMEM;
	if ((with_defaults || !json_is_null(clock)) ? json_object_set_new(obj, "clock", clock)
						    : (json_decref(clock), 0))
		return -ENOMEM;
	after = wire_stand_in_after_ms(r);
	if ((with_defaults || after != WIRE_STAND_IN_AFTER_DEFAULT_MS) &&
	    json_object_set_new(obj, "stand_in_after_ms", json_integer(after)))
		return -ENOMEM;
	if ((with_defaults || *r->stand_in_level) &&
	    json_object_set_new(obj, "stand_in_level",
				*r->stand_in_level ? json_string(r->stand_in_level) : json_null()))
		return -ENOMEM;
	if ((with_defaults || r->idle_set) &&
	    json_object_set_new(obj, "idle_after_ms",
				r->idle_set ? json_integer(r->idle_after_ms) : json_null()))
		return -ENOMEM;
	return 0;
}

/* See wire.h: the limits of a new room, beside the ranges every stored record meets. */
int wire_options_check_new(const struct wire_room_options *r, int32_t stand_in_min_ms, int32_t idle_max_ms,
			   char *why, size_t whylen)
{
	int32_t after = wire_stand_in_after_ms(r);

	if (after > 0 && after < stand_in_min_ms)
		return bad_options(why, whylen,
				   "options.stand_in_after_ms must be 0 (never) or at least %ld: a network "
				   "blip must not hand a seat to a stand-in",
				   (long)stand_in_min_ms);
	if (!r->idle_set)
		return WIRE_OK;
	if (r->clock_per_action_ms || r->clock_bank_ms)
		return bad_options(
			why, whylen,
			"options.idle_after_ms cannot go with a clock: the clock limits each turn");
	if (idle_max_ms > 0 && (r->idle_after_ms < stand_in_min_ms || r->idle_after_ms > idle_max_ms))
		return bad_options(why, whylen,
				   "options.idle_after_ms must be null or %ld..%ld (this server's limit)",
				   (long)stand_in_min_ms, (long)idle_max_ms);
	if (r->idle_after_ms > 0 && r->idle_after_ms < stand_in_min_ms)
		return bad_options(why, whylen, "options.idle_after_ms must be null, 0 or at least %ld",
				   (long)stand_in_min_ms);
	return WIRE_OK;
}

/* Decodes create.options with the game's table; see wire.h. Outputs are written only on success. */
int wire_options_decode(const struct wire_game *g, const json_t *options, struct wire_room_options *room,
			struct rules_options *rules, char *why, size_t whylen)
{
	struct wire_room_options r = { .autoroll = false };
	const struct wire_option *opt;
	struct rules_options o;
	const char *key;
	json_t *value;
	int err;

	memset(&o, 0, sizeof(o));
	if (options && !json_is_object(options))
		return bad_options(why, whylen, "options must be an object");
	/* json_object_foreach takes a non-const object; it does not modify it. */
	json_object_foreach((json_t *)options, key, value)
	{
		err = shared_option_set(key, value, &r, why, whylen);
		if (err != -ENOENT) {
			if (err)
				return err;
			continue;
		}
		opt = option_find(g, key);
		if (!opt)
			return bad_options(why, whylen, "options.%.64s is not an option of %s", key,
					   g ? g->id : "this game");
		err = option_set(opt, value, &r, &o, why, whylen);
		if (err)
			return err;
	}
	if (room)
		*room = r;
	if (rules)
		*rules = o;
	return WIRE_OK;
}

/* One key of `o` into `obj`, or nothing when it is the default and !with_defaults. */
static int option_put(json_t *obj, const struct wire_option *o, const struct wire_room_options *room,
		      const struct rules_options *rules, bool with_defaults)
{
	const void *field = (const char *)(o->room ? (const void *)room : (const void *)rules) + o->offset;
	int32_t n;

	if (o->type == WIRE_OPT_BOOL) {
		bool b = (o->room ? room != NULL : rules != NULL) && *(const bool *)field;

		return b || with_defaults ? json_object_set_new(obj, o->key, json_boolean(b)) : 0;
	}
	n = (o->room ? room != NULL : rules != NULL) ? *(const int32_t *)field : 0;
	if (n == 0 && !with_defaults)
		return 0;
	return json_object_set_new(obj, o->key, json_integer(n ? n : o->def));
}

/* Encodes options with the game's table; see wire.h. New reference; NULL on allocation failure. */
json_t *wire_options_encode(const struct wire_game *g, const struct wire_room_options *room,
			    const struct rules_options *rules, bool with_defaults)
{
	const struct wire_option *opt;
	json_t *o = json_object();

	for (opt = g && g->options ? g->options : NULL; o && opt && opt->key; opt++) {
		if (option_put(o, opt, room, rules, with_defaults) != 0) {
			json_decref(o);
			return NULL;
		}
	}
	if (o && shared_options_put(o, room, with_defaults) != 0) {
		json_decref(o);
		return NULL;
	}
	return o;
}

static const char *const event_kinds[] = {
	[RULES_EVENT_RESIGN] = "resign",
	[RULES_EVENT_FORFEIT] = "forfeit",
};

#define EVENT_KINDS (int)(sizeof(event_kinds) / sizeof(event_kinds[0]))

/* The wire name of an event kind; NULL for an unknown one. */
const char *wire_event_kind_name(int kind)
{
	return kind > 0 && kind < EVENT_KINDS ? event_kinds[kind] : NULL;
}

/* The kind named `s`; 0 if none. */
int wire_event_kind_parse(const char *s)
{
	for (int k = 1; s && k < EVENT_KINDS; k++)
		if (event_kinds[k] && strcmp(event_kinds[k], s) == 0)
			return k;
	return 0;
}

/*
 * Decodes one UTF-8 sequence at s; returns its length (1..4) and the code
 * point in *cp, or 0 if it is malformed (overlong, surrogate, > U+10FFFF,
 * truncated).
 */
static size_t utf8_decode(const unsigned char *s, uint32_t *cp)
{
	size_t n, i;
	uint32_t c = s[0], min;

	if (c < 0x80) {
		*cp = c;
		return 1;
	}
	if (c >= 0xc2 && c <= 0xdf) {
		n = 2, c &= 0x1f, min = 0x80;
	} else if (c >= 0xe0 && c <= 0xef) {
		n = 3, c &= 0x0f, min = 0x800;
	} else if (c >= 0xf0 && c <= 0xf4) {
		n = 4, c &= 0x07, min = 0x10000;
	} else {
		return 0;
	}
	for (i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0; /* also catches the terminating NUL */
		c = (c << 6) | (s[i] & 0x3f);
	}
	if (c < min || c > 0x10ffff || (c >= 0xd800 && c <= 0xdfff))
		return 0;
	*cp = c;
	return n;
}

/*
 * True if `s` is valid UTF-8 of 1..max_chars code points, none of them a C0
 * control (U+0000..U+001F, so no newlines or tabs), DEL or a C1 control
 * (U+0080..U+009F). NULL is not valid.
 */
bool wire_text_valid(const char *s, size_t max_chars)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t chars = 0, n;
	uint32_t cp;

	if (!s)
		return false;
	while (*p) {
		n = utf8_decode(p, &cp);
		if (n == 0 || cp < 0x20 || (cp >= 0x7f && cp <= 0x9f))
			return false;
		if (++chars > max_chars)
			return false;
		p += n;
	}
	return chars >= 1;
}
