/*
 * jscan.c: the state scanner of jscan.h. A cursor walks the bytes; skip()
 * consumes one JSON value of any kind (depth-limited), string() one string
 * without decoding it. The scanner validates structure enough never to
 * misplace a field (keys are matched only at the top level, strings are
 * skipped escape-aware), not the whole grammar: the server's frames are
 * valid JSON, and the test compares the scan with jansson on real frames.
 */
#include "jscan.h"

#include <string.h>

#define MAX_DEPTH 64

struct cur {
	const char *p, *end;
};

static void ws(struct cur *c)
{
	while (c->p < c->end && (*c->p == ' ' || *c->p == '\n' || *c->p == '\r' || *c->p == '\t'))
		c->p++;
}

/* A string at the cursor: its raw contents in *s; *escaped when it held a backslash. */
/* The bytes that end a number or a literal (strchr would also match NUL). */
static bool delim(char ch)
{
	return ch == ',' || ch == ']' || ch == '}' || ch == ' ' || ch == '\n' || ch == '\r' || ch == '\t';
}

static int string(struct cur *c, struct jscan_span *s, bool *escaped)
{
	const char *start;

	*escaped = false;
	if (c->p >= c->end || *c->p != '"')
		return -1;
	start = ++c->p;
	while (c->p < c->end && *c->p != '"') {
		if (*c->p == '\\') {
			if (c->end - c->p < 2)
				return -1;
			*escaped = true;
			c->p++;
		}
		c->p++;
	}
	if (c->p >= c->end)
		return -1;
	s->p = start;
	s->n = (size_t)(c->p - start);
	c->p++;
	return 0;
}

static int skip(struct cur *c, int depth);

/* An object or array body after its opening bracket, up to and past `close`. */
static int skip_container(struct cur *c, char close, int depth)
{
	struct jscan_span s;
	bool esc;

	ws(c);
	if (c->p < c->end && *c->p == close)
		return c->p++, 0;
	for (;;) {
		ws(c);
		if (close == '}') {
			if (string(c, &s, &esc))
				return -1;
			ws(c);
			if (c->p >= c->end || *c->p++ != ':')
				return -1;
		}
		if (skip(c, depth + 1))
			return -1;
		ws(c);
		if (c->p >= c->end)
			return -1;
		if (*c->p == close)
			return c->p++, 0;
		if (*c->p++ != ',')
			return -1;
	}
}

static int skip(struct cur *c, int depth)
{
	struct jscan_span s;
	bool esc;

	ws(c);
	if (c->p >= c->end || depth > MAX_DEPTH)
		return -1;
	switch (*c->p) {
	case '"':
		return string(c, &s, &esc);
	case '{':
		c->p++;
		return skip_container(c, '}', depth);
	case '[':
		c->p++;
		return skip_container(c, ']', depth);
	default: /* number, true, false, null: up to the next delimiter */
		s.p = c->p;
		while (c->p < c->end && !delim(*c->p))
			c->p++;
		return c->p > s.p ? 0 : -1;
	}
}

static int legal_scan(struct cur *c, struct jscan_state *out)
{
	ws(c);
	if (c->p >= c->end || *c->p++ != '[')
		return -1;
	out->has_legal = true;
	ws(c);
	if (c->p < c->end && *c->p == ']')
		return c->p++, 0;
	for (;;) {
		const char *start;

		if (out->nlegal == JSCAN_MAX_LEGAL)
			return -1;
		ws(c);
		start = c->p;
		if (skip(c, 1))
			return -1;
		out->legal[out->nlegal].p = start;
		out->legal[out->nlegal++].n = (size_t)(c->p - start);
		ws(c);
		if (c->p >= c->end)
			return -1;
		if (*c->p == ']')
			return c->p++, 0;
		if (*c->p++ != ',')
			return -1;
	}
}

static int ply_scan(struct cur *c, long long *out)
{
	long long v = 0;
	const char *start;

	ws(c);
	start = c->p;
	while (c->p < c->end && *c->p >= '0' && *c->p <= '9' && v < 1000000000000LL)
		v = v * 10 + (*c->p++ - '0');
	if (c->p == start || (c->p < c->end && !delim(*c->p)))
		return -1;
	*out = v;
	return 0;
}

/*
 * `last`: null, or an object whose `seat` is read (the seat whose action the
 * state shows) and whose other members are skipped.
 */
static int last_scan(struct cur *c, int *seat)
{
	struct jscan_span key;
	long long v;
	bool esc;

	*seat = -1;
	if (c->p >= c->end)
		return -1;
	if (*c->p != '{')
		return skip(c, 1); /* null */
	c->p++;
	ws(c);
	if (c->p < c->end && *c->p == '}')
		return c->p++, 0;
	for (;;) {
		ws(c);
		if (string(c, &key, &esc))
			return -1;
		ws(c);
		if (c->p >= c->end || *c->p++ != ':')
			return -1;
		ws(c);
		if (!esc && jscan_eq(key, "seat")) {
			if (ply_scan(c, &v) || v > 255)
				return -1;
			*seat = (int)v;
		} else if (skip(c, 2)) {
			return -1;
		}
		ws(c);
		if (c->p >= c->end)
			return -1;
		if (*c->p == '}')
			return c->p++, 0;
		if (*c->p++ != ',')
			return -1;
	}
}

/* One top-level member: the fields we want are read, the others skipped. */
static int member(struct cur *c, struct jscan_state *out)
{
	struct jscan_span key, *dst = NULL;
	bool esc;

	if (string(c, &key, &esc) || esc)
		return -1;
	ws(c);
	if (c->p >= c->end || *c->p++ != ':')
		return -1;
	ws(c);
	if (jscan_eq(key, "ply"))
		return ply_scan(c, &out->ply);
	if (jscan_eq(key, "legal"))
		return legal_scan(c, out);
	if (jscan_eq(key, "last"))
		return last_scan(c, &out->last_seat);
	if (jscan_eq(key, "type"))
		dst = &out->type;
	else if (jscan_eq(key, "room"))
		dst = &out->room;
	else if (jscan_eq(key, "status"))
		dst = &out->status;
	if (!dst)
		return skip(c, 1);
	return string(c, dst, &esc) || esc ? -1 : 0;
}

int jscan_state(const char *buf, size_t len, struct jscan_state *out)
{
	struct cur c = { buf, buf + len };

	memset(out, 0, offsetof(struct jscan_state, legal));
	out->ply = -1;
	out->last_seat = -1;
	ws(&c);
	if (c.p >= c.end || *c.p++ != '{')
		return -1;
	ws(&c);
	if (c.p < c.end && *c.p == '}')
		return 0;
	for (;;) {
		ws(&c);
		if (member(&c, out))
			return -1;
		ws(&c);
		if (c.p >= c.end)
			return -1;
		if (*c.p == '}')
			break;
		if (*c.p++ != ',')
			return -1;
	}
	c.p++;
	ws(&c);
	return c.p == c.end ? 0 : -1;
}

bool jscan_eq(struct jscan_span s, const char *lit)
{
	size_t n = strlen(lit);

	return s.n == n && !memcmp(s.p, lit, n);
}
