/*
 * text.c: the JSON writer and reader of text.h, the text codecs' registry and
 * the result every game writes alike. Pure C (it is built into the
 * WebAssembly rules module too): no I/O, no allocation, no mutable globals.
 */
#include <string.h>

#include "text.h"

/* --- writer ------------------------------------------------------------- */

void jw_init(struct jw *w, char *buf, size_t cap)
{
	memset(w, 0, sizeof(*w));
	w->buf = buf;
	w->cap = cap;
	if (cap)
		buf[0] = '\0';
}

static void put(struct jw *w, const char *s, size_t n)
{
	char *d;

	if (w->full || n >= w->cap - w->len) { /* keep a byte for the NUL */
		w->full = true;
		return;
	}
	/* a local destination: stores through w->buf would make the compiler reload w each byte */
	d = w->buf + w->len;
	for (size_t i = 0; i < n;
	     i++) /* mostly a byte or a short key: no call (the module's memcpy is a byte loop) */
		d[i] = s[i];
	d[n] = '\0';
	w->len += n;
}

static void putc_(struct jw *w, char c)
{
	put(w, &c, 1);
}

/* Before a value: the comma between array items; nothing after a key. */
static void value_begin(struct jw *w)
{
	if (w->after_key) {
		w->after_key = false;
		return;
	}
	if (w->depth > 0) {
		if (w->count[w->depth - 1])
			putc_(w, ',');
		w->count[w->depth - 1] = 1;
	}
}

static void open_(struct jw *w, char c)
{
	value_begin(w);
	putc_(w, c);
	if (w->depth >= JW_MAX_DEPTH) {
		w->full = true; /* deeper than any codec writes: refuse rather than corrupt */
		return;
	}
	w->count[w->depth++] = 0;
}

static void close_(struct jw *w, char c)
{
	putc_(w, c);
	if (w->depth > 0)
		w->depth--;
}

void jw_obj(struct jw *w)
{
	open_(w, '{');
}

void jw_obj_end(struct jw *w)
{
	close_(w, '}');
}

void jw_arr(struct jw *w)
{
	open_(w, '[');
}

void jw_arr_end(struct jw *w)
{
	close_(w, ']');
}

/*
 * A string's body in quotes. The bytes that need no escape go out in runs, one
 * put() each: keys and most values are plain ASCII, and a put() a byte made a
 * key cost ~220 instructions (a Quinteto view writes ~50 of them).
 */
static void str_body(struct jw *w, const char *s)
{
	static const char hex[] = "0123456789abcdef";

	putc_(w, '"');
	for (;;) {
		const char *run = s;
		unsigned char c;

		while ((unsigned char)*s >= 0x20 && *s != '"' && *s != '\\')
			s++;
		if (s > run)
			put(w, run, (size_t)(s - run));
		c = (unsigned char)*s;
		if (!c)
			break;
		s++;
		switch (c) {
		case '"':
			put(w, "\\\"", 2);
			break;
		case '\\':
			put(w, "\\\\", 2);
			break;
		case '\b':
			put(w, "\\b", 2);
			break;
		case '\f':
			put(w, "\\f", 2);
			break;
		case '\n':
			put(w, "\\n", 2);
			break;
		case '\r':
			put(w, "\\r", 2);
			break;
		case '\t':
			put(w, "\\t", 2);
			break;
		default: {
			char esc[6] = { '\\', 'u', '0', '0', hex[c >> 4], hex[c & 15] };

			put(w, esc, sizeof(esc));
		}
		}
	}
	putc_(w, '"');
}

void jw_key(struct jw *w, const char *k)
{
	value_begin(w);
	str_body(w, k);
	putc_(w, ':');
	w->after_key = true;
}

void jw_int(struct jw *w, long long v)
{
	char tmp[24];
	int n = (int)sizeof(tmp);
	unsigned long long u = v < 0 ? 0ULL - (unsigned long long)v : (unsigned long long)v;

	do {
		tmp[--n] = (char)('0' + u % 10);
		u /= 10;
	} while (u);
	if (v < 0)
		tmp[--n] = '-';
	value_begin(w);
	put(w, tmp + n, sizeof(tmp) - (size_t)n);
}

void jw_bool(struct jw *w, bool v)
{
	value_begin(w);
	if (v)
		put(w, "true", 4);
	else
		put(w, "false", 5);
}

void jw_null(struct jw *w)
{
	value_begin(w);
	put(w, "null", 4);
}

void jw_str(struct jw *w, const char *s)
{
	value_begin(w);
	str_body(w, s);
}

void jw_raw(struct jw *w, const char *text, size_t len)
{
	value_begin(w);
	put(w, text, len);
}

/* --- reader ------------------------------------------------------------- */

struct jr {
	const char *s;
	size_t len, at;
	struct jr_tok *tok;
	int cap, n;
	int err; /* TEXT_E_NOT_JSON or TEXT_E_TOKENS */
};

static void ws(struct jr *p)
{
	while (p->at < p->len &&
	       (p->s[p->at] == ' ' || p->s[p->at] == '\t' || p->s[p->at] == '\n' || p->s[p->at] == '\r'))
		p->at++;
}

static int tok_new(struct jr *p, int type)
{
	struct jr_tok *t;

	if (p->n >= p->cap) {
		p->err = TEXT_E_TOKENS;
		return JR_NO_TOKEN;
	}
	t = &p->tok[p->n];
	memset(t, 0, sizeof(*t));
	t->type = (uint8_t)type;
	t->start = (int32_t)p->at;
	return p->n++;
}

static int hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return JR_NO_TOKEN;
}

static int string_(struct jr *p)
{
	int k = tok_new(p, JR_STR);

	if (k < 0)
		return JR_NO_TOKEN;
	p->at++; /* the opening quote */
	p->tok[k].start = (int32_t)p->at;
	while (p->at < p->len) {
		unsigned char c = (unsigned char)p->s[p->at];

		if (c == '"') {
			p->tok[k].end = (int32_t)p->at;
			p->at++;
			p->tok[k].next = p->n;
			return k;
		}
		if (c < 0x20)
			break;
		if (c == '\\') {
			p->tok[k].escaped = true;
			if (++p->at >= p->len)
				break;
			c = (unsigned char)p->s[p->at];
			if (c == 'u') {
				if (p->at + 4 >= p->len || hexval(p->s[p->at + 1]) < 0 ||
				    hexval(p->s[p->at + 2]) < 0 || hexval(p->s[p->at + 3]) < 0 ||
				    hexval(p->s[p->at + 4]) < 0)
					break;
				p->at += 4;
			} else if (!memchr("\"\\/bfnrt", c, 8)) {
				break;
			}
		}
		p->at++;
	}
	p->err = TEXT_E_NOT_JSON;
	return JR_NO_TOKEN;
}

static int number_(struct jr *p)
{
	int k = tok_new(p, JR_INT);
	bool neg = false, real = false;
	unsigned long long u = 0;
	size_t digits = 0;

	if (k < 0)
		return JR_NO_TOKEN;
	if (p->s[p->at] == '-') {
		neg = true;
		p->at++;
	}
	if (p->at < p->len && p->s[p->at] == '0') {
		p->at++;
		digits = 1;
	} else {
		while (p->at < p->len && p->s[p->at] >= '0' && p->s[p->at] <= '9') {
			unsigned d = (unsigned)(p->s[p->at] - '0');

			if (u > (9223372036854775808ULL - d) / 10)
				real = true; /* too large for long long: refused below */
			else
				u = u * 10 + d;
			p->at++;
			digits++;
		}
	}
	if (!digits || real || (!neg && u > 9223372036854775807ULL)) {
		p->err = TEXT_E_NOT_JSON;
		return JR_NO_TOKEN;
	}
	if (p->at < p->len && p->s[p->at] == '.') {
		real = true;
		p->at++;
		if (p->at >= p->len || p->s[p->at] < '0' || p->s[p->at] > '9')
			goto bad;
		while (p->at < p->len && p->s[p->at] >= '0' && p->s[p->at] <= '9')
			p->at++;
	}
	if (p->at < p->len && (p->s[p->at] == 'e' || p->s[p->at] == 'E')) {
		real = true;
		p->at++;
		if (p->at < p->len && (p->s[p->at] == '+' || p->s[p->at] == '-'))
			p->at++;
		if (p->at >= p->len || p->s[p->at] < '0' || p->s[p->at] > '9')
			goto bad;
		while (p->at < p->len && p->s[p->at] >= '0' && p->s[p->at] <= '9')
			p->at++;
	}
	p->tok[k].type = real ? JR_REAL : JR_INT;
	p->tok[k].i = neg ? (long long)(0ULL - u) : (long long)u;
	p->tok[k].end = (int32_t)p->at;
	p->tok[k].next = p->n;
	return k;
bad:
	p->err = TEXT_E_NOT_JSON;
	return JR_NO_TOKEN;
}

static int word(struct jr *p, const char *w, int type)
{
	size_t n = strlen(w);
	int k;

	if (p->len - p->at < n || memcmp(p->s + p->at, w, n) != 0) {
		p->err = TEXT_E_NOT_JSON;
		return JR_NO_TOKEN;
	}
	k = tok_new(p, type);
	if (k < 0)
		return JR_NO_TOKEN;
	p->at += n;
	p->tok[k].end = (int32_t)p->at;
	p->tok[k].next = p->n;
	return k;
}

static int value_(struct jr *p, int depth);

static int container(struct jr *p, int depth, bool obj)
{
	int k = tok_new(p, obj ? JR_OBJ : JR_ARR);
	char close = obj ? '}' : ']';

	if (k < 0)
		return JR_NO_TOKEN;
	if (depth >= JW_MAX_DEPTH) {
		p->err = TEXT_E_NOT_JSON;
		return JR_NO_TOKEN;
	}
	p->at++;
	ws(p);
	if (p->at < p->len && p->s[p->at] == close) {
		p->at++;
		goto done;
	}
	for (;;) {
		ws(p);
		if (obj) {
			if (p->at >= p->len || p->s[p->at] != '"' || string_(p) < 0)
				goto bad;
			ws(p);
			if (p->at >= p->len || p->s[p->at] != ':')
				goto bad;
			p->at++;
			ws(p);
		}
		if (value_(p, depth + 1) < 0)
			return JR_NO_TOKEN;
		p->tok[k].n++;
		ws(p);
		if (p->at < p->len && p->s[p->at] == ',') {
			p->at++;
			continue;
		}
		if (p->at < p->len && p->s[p->at] == close) {
			p->at++;
			break;
		}
		goto bad;
	}
done:
	p->tok[k].end = (int32_t)p->at;
	p->tok[k].next = p->n;
	return k;
bad:
	if (!p->err)
		p->err = TEXT_E_NOT_JSON;
	return JR_NO_TOKEN;
}

static int value_(struct jr *p, int depth)
{
	if (p->at >= p->len) {
		p->err = TEXT_E_NOT_JSON;
		return JR_NO_TOKEN;
	}
	switch (p->s[p->at]) {
	case '{':
		return container(p, depth, true);
	case '[':
		return container(p, depth, false);
	case '"':
		return string_(p);
	case 't':
		return word(p, "true", JR_TRUE);
	case 'f':
		return word(p, "false", JR_FALSE);
	case 'n':
		return word(p, "null", JR_NULL);
	default:
		if (p->s[p->at] == '-' || (p->s[p->at] >= '0' && p->s[p->at] <= '9'))
			return number_(p);
	}
	p->err = TEXT_E_NOT_JSON;
	return JR_NO_TOKEN;
}

int jr_parse(const char *text, size_t len, struct jr_tok *tok, int cap)
{
	struct jr p = { .s = text, .len = len, .tok = tok, .cap = cap };

	ws(&p);
	if (value_(&p, 0) < 0)
		return p.err ? p.err : TEXT_E_NOT_JSON;
	ws(&p);
	return p.at == p.len ? p.n : TEXT_E_NOT_JSON;
}

int jr_get(const char *text, const struct jr_tok *tok, int obj, const char *k)
{
	int t, i;

	if (obj < 0 || tok[obj].type != JR_OBJ)
		return JR_NO_TOKEN;
	for (i = 0, t = obj + 1; i < tok[obj].n; i++, t = tok[t + 1].next)
		if (jr_streq(text, tok, t, k))
			return t + 1;
	return JR_NO_TOKEN;
}

int jr_item(const struct jr_tok *tok, int arr, int i)
{
	int t, k;

	if (arr < 0 || tok[arr].type != JR_ARR || i < 0 || i >= tok[arr].n)
		return JR_NO_TOKEN;
	for (k = 0, t = arr + 1; k < i; k++)
		t = tok[t].next;
	return t;
}

bool jr_streq(const char *text, const struct jr_tok *tok, int t, const char *s)
{
	size_t n = strlen(s);

	return t >= 0 && tok[t].type == JR_STR && !tok[t].escaped &&
	       (size_t)(tok[t].end - tok[t].start) == n && memcmp(text + tok[t].start, s, n) == 0;
}

int jr_int(const struct jr_tok *tok, int t, long long lo, long long hi, long long *out)
{
	if (t < 0 || tok[t].type != JR_INT || tok[t].i < lo || tok[t].i > hi)
		return TEXT_E_ABSENT;
	*out = tok[t].i;
	return 0;
}

int jr_bool(const struct jr_tok *tok, int t, bool *out)
{
	if (t < 0 || (tok[t].type != JR_TRUE && tok[t].type != JR_FALSE))
		return TEXT_E_ABSENT;
	*out = tok[t].type == JR_TRUE;
	return 0;
}

const char *text_strerror(int err)
{
	switch (err) {
	case TEXT_OK:
		return "no error";
	case TEXT_E_NOT_JSON:
		return "the text is not one JSON value";
	case TEXT_E_TOKENS:
		return "the JSON has more tokens than the reader may hold";
	case TEXT_E_ABSENT:
		return "a value is missing, or not of its type or range";
	case TEXT_E_BAD_VIEW:
		return "not a view this game writes";
	}
	return "unknown text error";
}

/* --- the codecs ----------------------------------------------------------- */

#define TEXT_GAME_ENTRY(id) &text_game_##id,
static const struct text_game *const text_games[] = { GAME_LIST(TEXT_GAME_ENTRY) NULL };
#undef TEXT_GAME_ENTRY

const struct text_game *text_game_find(const char *id)
{
	for (size_t i = 0; text_games[i]; i++)
		if (strcmp(text_games[i]->id, id) == 0)
			return text_games[i];
	return NULL;
}

void text_result(struct jw *w, const struct rules_result *r, const char *const *reasons, size_t nreasons,
		 bool with_draw)
{
	const char *why = r->over && r->reason < nreasons ? reasons[r->reason] : NULL;

	if (!r->over) {
		jw_null(w);
		return;
	}
	if (!why) {
		w->full = true; /* a reason this game never gives: as wire_result_pack's NULL */
		return;
	}
	jw_obj(w);
	jw_key(w, "winner");
	if (with_draw && (r->draw || r->winner < 0))
		jw_null(w);
	else
		jw_int(w, r->winner);
	if (with_draw) {
		jw_key(w, "draw");
		jw_bool(w, r->draw);
	}
	jw_key(w, "reason");
	jw_str(w, why);
	jw_obj_end(w);
}
