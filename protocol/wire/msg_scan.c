/*
 * msg_scan.c: the hot message read without a tree. wire_msg_scan_act()
 * recognises an `act` frame in its common shape with one pass over the bytes
 * (no allocation, nothing kept between calls); wire_legal_split() and
 * wire_legal_find() turn the action's bytes into a struct rules_action by
 * finding them among the compact encodings of a legal list (the server does
 * the same with the spans each seat's frame keeps: room_legal_find()).
 *
 * wire_msg_decode() (msg.c, jansson) and each codec's action_decode() stay the
 * definition. The scanner accepts a strict subset of JSON: only what jansson
 * parses, with JSON_REJECT_DUPLICATES, into the very tree that msg.c then
 * accepts with the same fields. Whatever it is not sure of (an escape, a
 * byte outside printable ASCII, a duplicate or unknown key, a real number, a
 * long integer, deep nesting, ...) makes it say "not mine", and the caller
 * takes the definition's path, which gives today's answers and errors. So it
 * never produces an error of its own. tests/unit/test_wire_scan.c and
 * tests/fuzz/fuzz_wire.c compare the two paths field for field.
 *
 * A legal entry maps bytes to an action without a tree and without looking
 * at the match: bytes that equal encode(a) decode to a (the codecs' round
 * trip, tested for every legal action of random playouts), so whatever the
 * state is, the action found is the one the definition would decode; the
 * rules core still judges whether it is legal now.
 */
#include <errno.h>
#include <string.h>

#include "wire.h"

#define SCAN_DEPTH    4  /* the action's nesting: object, array, object, array */
#define SCAN_KEYS     16 /* keys of one object inside the action */
#define SCAN_DIGITS   15 /* an integer's digits: far from json_int_t's limits */
#define SCAN_ROOM_MIN 1

struct scan {
	const char *p, *end;
};

/* JSON's four whitespace bytes, exactly those jansson skips. */
static void ws(struct scan *s)
{
	while (s->p < s->end && (*s->p == ' ' || *s->p == '\t' || *s->p == '\n' || *s->p == '\r'))
		s->p++;
}

/* A string of printable ASCII without escapes; *v, *n: its bytes. false: not one. */
static bool plain_string(struct scan *s, const char **v, size_t *n)
{
	const char *q;

	if (s->p >= s->end || *s->p != '"')
		return false;
	for (q = s->p + 1; q < s->end && *q != '"'; q++)
		if ((unsigned char)*q < 0x20 || (unsigned char)*q > 0x7e || *q == '\\')
			return false; /* escapes, controls and UTF-8 are the definition's */
	if (q >= s->end)
		return false;
	*v = s->p + 1;
	*n = (size_t)(q - s->p - 1);
	s->p = q + 1;
	return true;
}

/* After a scalar: the next byte must end it (so "12a", "1.5", "1e3", "01", "truex" are not mine). */
static bool delimited(const struct scan *s)
{
	char c;

	if (s->p >= s->end)
		return true; /* the caller decides whether the frame may end here */
	c = *s->p;
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == ',' || c == '}' || c == ']';
}

/* -?(0|[1-9][0-9]{0,14}) delimited; *out its value. */
static bool integer(struct scan *s, bool neg_ok, int64_t *out)
{
	int64_t v = 0;
	bool neg = false;
	int digits = 0;

	if (s->p < s->end && *s->p == '-' && neg_ok) {
		neg = true;
		s->p++;
	}
	if (s->p >= s->end || *s->p < '0' || *s->p > '9')
		return false;
	if (*s->p == '0') {
		s->p++;
	} else {
		while (s->p < s->end && *s->p >= '0' && *s->p <= '9' && digits < SCAN_DIGITS) {
			v = v * 10 + (*s->p++ - '0');
			digits++;
		}
	}
	if (!delimited(s))
		return false;
	*out = neg ? -v : v;
	return true;
}

static bool literal(struct scan *s, const char *word, size_t n)
{
	if ((size_t)(s->end - s->p) < n || memcmp(s->p, word, n) != 0)
		return false;
	s->p += n;
	return delimited(s);
}

static bool value(struct scan *s, int depth);

/* An object inside the action: plain keys, none twice, at most SCAN_KEYS. */
static bool object(struct scan *s, int depth)
{
	const char *key[SCAN_KEYS];
	size_t keylen[SCAN_KEYS];
	int n = 0, i;

	s->p++; /* '{' */
	ws(s);
	if (s->p < s->end && *s->p == '}') {
		s->p++;
		return true;
	}
	for (;;) {
		if (n == SCAN_KEYS || !plain_string(s, &key[n], &keylen[n]))
			return false;
		for (i = 0; i < n; i++)
			if (keylen[i] == keylen[n] && memcmp(key[i], key[n], keylen[n]) == 0)
				return false; /* a duplicate: jansson refuses it */
		n++;
		ws(s);
		if (s->p >= s->end || *s->p++ != ':')
			return false;
		ws(s);
		if (!value(s, depth + 1))
			return false;
		ws(s);
		if (s->p >= s->end)
			return false;
		if (*s->p == '}') {
			s->p++;
			return true;
		}
		if (*s->p++ != ',')
			return false;
		ws(s);
	}
}

static bool array(struct scan *s, int depth)
{
	s->p++; /* '[' */
	ws(s);
	if (s->p < s->end && *s->p == ']') {
		s->p++;
		return true;
	}
	for (;;) {
		if (!value(s, depth + 1))
			return false;
		ws(s);
		if (s->p >= s->end)
			return false;
		if (*s->p == ']') {
			s->p++;
			return true;
		}
		if (*s->p++ != ',')
			return false;
		ws(s);
	}
}

/* One value of the action at nesting `depth` (the action itself is 1). */
static bool value(struct scan *s, int depth)
{
	const char *v;
	size_t n;
	int64_t i;

	if (s->p >= s->end || depth > SCAN_DEPTH)
		return false;
	switch (*s->p) {
	case '{':
		return object(s, depth);
	case '[':
		return array(s, depth);
	case '"':
		return plain_string(s, &v, &n);
	case 't':
		return literal(s, "true", 4);
	case 'f':
		return literal(s, "false", 5);
	case 'n':
		return literal(s, "null", 4);
	default:
		return integer(s, true, &i);
	}
}

enum { KEY_TYPE = 1, KEY_ROOM = 2, KEY_PLY = 4, KEY_ACTION = 8, KEY_ID = 16 };

static int key_of(const char *k, size_t n)
{
	static const struct {
		const char *name;
		size_t len;
		int bit;
	} keys[] = {
		{ "type", 4, KEY_TYPE },     { "room", 4, KEY_ROOM }, { "ply", 3, KEY_PLY },
		{ "action", 6, KEY_ACTION }, { "id", 2, KEY_ID },
	};
	size_t i;

	for (i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
		if (n == keys[i].len && memcmp(k, keys[i].name, n) == 0)
			return keys[i].bit;
	return 0;
}

/* The id: an integer, or a plain string of at most WIRE_ID_MAX bytes (msg.c's id_valid). */
static bool member_id(struct scan *s, struct wire_msg *m)
{
	if (s->p < s->end && *s->p == '"') {
		if (!plain_string(s, &m->id_str, &m->id_len) || m->id_len > WIRE_ID_MAX)
			return false;
		m->id_kind = WIRE_ID_STRING;
		return true;
	}
	if (!integer(s, true, &m->id_int))
		return false;
	m->id_kind = WIRE_ID_INTEGER;
	return true;
}

/* One top-level member whose key is `bit`; false: not mine. */
static bool member(struct scan *s, int bit, struct wire_msg *m)
{
	const char *v;
	size_t n;

	switch (bit) {
	case KEY_TYPE:
		return plain_string(s, &v, &n) && n == 3 && memcmp(v, "act", 3) == 0;
	case KEY_ROOM:
		if (!plain_string(s, &v, &n) || n < SCAN_ROOM_MIN || n > WIRE_ROOM_ID_MAX)
			return false;
		memcpy(m->room_buf, v, n);
		m->room_buf[n] = '\0';
		return true;
	case KEY_PLY:
		return integer(s, false, &m->ply);
	case KEY_ACTION:
		if (s->p >= s->end || *s->p != '{')
			return false; /* not an object: bad_message, the definition's to say */
		m->action_raw = s->p;
		if (!value(s, 1))
			return false;
		m->action_len = (size_t)(s->p - m->action_raw);
		return true;
	case KEY_ID:
		return member_id(s, m);
	}
	return false;
}

static bool scan_act(struct scan *s, struct wire_msg *m)
{
	const char *k;
	size_t n;
	int seen = 0, bit;

	ws(s);
	if (s->p >= s->end || *s->p++ != '{')
		return false;
	for (;;) {
		ws(s);
		if (!plain_string(s, &k, &n) || !(bit = key_of(k, n)) || (seen & bit))
			return false; /* unknown or repeated: the definition decides */
		seen |= bit;
		ws(s);
		if (s->p >= s->end || *s->p++ != ':')
			return false;
		ws(s);
		if (!member(s, bit, m))
			return false;
		ws(s);
		if (s->p >= s->end)
			return false;
		if (*s->p == '}')
			break;
		if (*s->p++ != ',')
			return false;
	}
	s->p++;
	ws(s);
	return s->p == s->end && (seen | KEY_ID) == (KEY_TYPE | KEY_ROOM | KEY_PLY | KEY_ACTION | KEY_ID);
}

bool wire_msg_scan_act(const char *buf, size_t len, struct wire_msg *m)
{
	struct scan s = { buf, buf + len };

	memset(m, 0, sizeof(*m));
	if (!scan_act(&s, m)) {
		memset(m, 0, sizeof(*m));
		return false;
	}
	m->type = WIRE_ACT;
	m->room = m->room_buf;
	return true;
}

int wire_msg_read(const char *buf, size_t len, struct wire_msg *m, char *why, size_t whylen)
{
	if (wire_msg_scan_act(buf, len, m)) {
		if (why && whylen)
			why[0] = '\0';
		return WIRE_OK;
	}
	return wire_msg_decode(buf, len, m, why, whylen);
}

const json_t *wire_msg_id(struct wire_msg *m)
{
	if (m->id || !m->id_kind)
		return m->id;
	m->id = m->id_kind == WIRE_ID_INTEGER ? json_integer(m->id_int) : json_stringn(m->id_str, m->id_len);
	m->id_owned = m->id != NULL;
	return m->id;
}

/* --- legal tables ---------------------------------------------------------- */

/* Past the string that opens at p (escapes skipped); NULL if it does not end. */
static const char *string_end(const char *p, const char *end)
{
	for (p++; p < end && *p != '"'; p++)
		if (*p == '\\')
			p++;
	return p < end ? p + 1 : NULL;
}

/* Past the compact JSON value at p (one the codec wrote); NULL if it does not end. */
static const char *value_end(const char *p, const char *end)
{
	int depth = 0;

	if (p < end && *p == '"')
		return string_end(p, end);
	if (p < end && *p != '{' && *p != '[') {
		while (p < end && *p != ',' && *p != ']' && *p != '}')
			p++;
		return p; /* a scalar: up to what ends it */
	}
	while (p < end) {
		if (*p == '"') {
			p = string_end(p, end);
			if (!p)
				return NULL;
			continue;
		}
		if (*p == '{' || *p == '[')
			depth++;
		else if ((*p == '}' || *p == ']') && --depth == 0)
			return p + 1;
		p++;
	}
	return NULL;
}

/* The one value that starts at p and ends at e: not empty, and followed by ',' or, the last, ']'. */
static bool element_ok(const char *p, const char *e, const char *end, bool last)
{
	return e && e != p && e < end && (last ? *e == ']' : *e == ',');
}

int wire_legal_split(const char *list, size_t len, const struct rules_action *a, int n,
		     struct wire_legal_entry *out)
{
	const char *p = list + 1, *end = list + len, *e;
	int i;

	if (!len || list[0] != '[' || len > UINT32_MAX || n < 0)
		return -EINVAL;
	if (!n)
		return len >= 2 && list[1] == ']' ? 0 : -EINVAL;
	for (i = 0; i < n; i++) {
		e = value_end(p, end);
		if (!element_ok(p, e, end, i == n - 1))
			return -EINVAL;
		out[i].a = a[i];
		out[i].off = (uint32_t)(p - list);
		out[i].len = (uint32_t)(e - p);
		p = e + 1;
	}
	return 0;
}

int wire_legal_find(const struct wire_legal_entry *e, int n, const char *base, const char *bytes, size_t len)
{
	int i;

	for (i = 0; i < n; i++)
		if (e[i].len == len && memcmp(base + e[i].off, bytes, len) == 0)
			return i;
	return -1;
}
