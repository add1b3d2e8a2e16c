/*
 * name_fold.c: folding a player's name for the archive's player filter (see
 * name_fold.h). Decodes UTF-8 by hand (no locale, no allocation) and looks
 * each code point of the folded blocks up in a sorted table (binary search).
 *
 * Must not: make a key longer than the name, or fold differently for the
 * stored names and the query (one function serves both).
 */
#include "store/name_fold.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

struct fold_row {
	uint16_t from; /* the code point folded */
	uint16_t to;   /* what it folds to when that is not ASCII (below U+0800), else 0 */
	char ascii[3]; /* what it folds to in ASCII (1 or 2 letters), else "" */
};

#include "store/name_fold_table.h"

static int row_cmp(const void *key, const void *row)
{
	uint32_t cp = *(const uint32_t *)key, from = ((const struct fold_row *)row)->from;

	return cp < from ? -1 : cp > from;
}

/* A combining mark, dropped: U+0300..U+036F, U+1AB0..U+1AFF, U+1DC0..U+1DFF, U+20D0..U+20FF, U+FE20..U+FE2F.
 */
static int combining(uint32_t cp)
{
	return (cp >= 0x300 && cp <= 0x36F) || (cp >= 0x1AB0 && cp <= 0x1AFF) ||
	       (cp >= 0x1DC0 && cp <= 0x1DFF) || (cp >= 0x20D0 && cp <= 0x20FF) ||
	       (cp >= 0xFE20 && cp <= 0xFE2F);
}

/* The code point at s (n bytes left) into *cp; its length in bytes, 0 if s holds no UTF-8 sequence. */
static size_t utf8_decode(const unsigned char *s, size_t n, uint32_t *cp)
{
	size_t len = 0;
	uint32_t v;

	if (s[0] < 0x80)
		len = 1;
	else if ((s[0] & 0xE0) == 0xC0)
		len = 2;
	else if ((s[0] & 0xF0) == 0xE0)
		len = 3;
	else if ((s[0] & 0xF8) == 0xF0)
		len = 4;

	if (!len || len > n)
		return 0;
	v = len == 1 ? s[0] : s[0] & (0x7F >> len);
	for (size_t i = 1; i < len; i++) {
		if ((s[i] & 0xC0) != 0x80)
			return 0;
		v = v << 6 | (s[i] & 0x3F);
	}
	*cp = v;
	return len;
}

/* Writes code point cp (below U+0800) as UTF-8 at out; its length. */
static size_t utf8_small(uint32_t cp, char *out)
{
	if (cp < 0x80) {
		out[0] = (char)cp;
		return 1;
	}
	out[0] = (char)(0xC0 | cp >> 6);
	out[1] = (char)(0x80 | (cp & 0x3F));
	return 2;
}

/* Code point cp (len bytes at src) folded into out; the bytes written (at most len). */
static size_t fold_one(uint32_t cp, const char *src, size_t len, char *out)
{
	const struct fold_row *r;

	if (cp >= 'A' && cp <= 'Z')
		return utf8_small(cp + 32, out);
	if (combining(cp))
		return 0;
	if (cp >= 0x391 && cp <= 0x3A9 && cp != 0x3A2)
		return utf8_small(cp + 32, out); /* Greek capitals without accents */
	if (cp >= 0x410 && cp <= 0x42F)
		return utf8_small(cp + 32, out); /* Cyrillic А..Я */
	if (cp >= 0x400 && cp <= 0x40F)
		return utf8_small(cp + 80, out); /* Cyrillic Ѐ..Џ */
	r = bsearch(&cp, fold_rows, sizeof(fold_rows) / sizeof(fold_rows[0]), sizeof(fold_rows[0]), row_cmp);
	if (r && r->ascii[0]) {
		size_t n = strlen(r->ascii);

		memcpy(out, r->ascii, n);
		return n;
	}
	if (r)
		return utf8_small(r->to, out);
	memcpy(out, src, len);
	return len;
}

size_t name_fold(const char *name, size_t len, char *out)
{
	const unsigned char *s = (const unsigned char *)name;
	size_t i = 0, o = 0;

	while (i < len) {
		uint32_t cp;
		size_t n = utf8_decode(s + i, len - i, &cp);

		if (!n) { /* not UTF-8: the byte as it is */
			out[o++] = name[i++];
			continue;
		}
		o += fold_one(cp, name + i, n, out + o);
		i += n;
	}
	out[o] = '\0';
	return o;
}

static void fold_sql(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
	const char *text = (const char *)sqlite3_value_text(argv[0]);
	int len = sqlite3_value_bytes(argv[0]);
	char *out;

	(void)argc;
	if (!text) {
		sqlite3_result_null(ctx);
		return;
	}
	out = sqlite3_malloc(len + 1);
	if (!out) {
		sqlite3_result_error_nomem(ctx);
		return;
	}
	len = (int)name_fold(text, (size_t)len, out);
	sqlite3_result_text(ctx, out, len, sqlite3_free);
}

int name_fold_register(sqlite3 *db)
{
	return sqlite3_create_function(db, "quinteto_fold", 1,
				       SQLITE_UTF8 | SQLITE_DETERMINISTIC | SQLITE_INNOCUOUS, NULL, fold_sql,
				       NULL, NULL);
}
