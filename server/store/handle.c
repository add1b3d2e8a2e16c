/*
 * handle.c: an account's handle checked and keyed (store.h, "handle.c"). Each code
 * point is judged alone: ASCII letters, digits, `_` and `-` pass; any other
 * code point passes only when name_fold() turns it into exactly one ASCII
 * letter (a Latin letter with an accent). A look-alike from another script
 * folds to itself (not ASCII), a combining mark to nothing, a ligature to two
 * letters: all refused. The UTF-8 is read strictly (no overlong forms, no
 * surrogates), since a key must never be reached by two spellings the rules
 * did not mean.
 */
#include "store/store.h"

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "store/name_fold.h"

/* The code point at s (strict UTF-8) and its length in bytes; 0 for a byte sequence that is not one. */
static size_t utf8_next(const unsigned char *s, uint32_t *cp)
{
	size_t n, i;
	uint32_t c;

	if (s[0] < 0x80) {
		*cp = s[0];
		return 1;
	}
	if ((s[0] & 0xE0) == 0xC0) {
		n = 2;
		c = s[0] & 0x1F;
	} else if ((s[0] & 0xF0) == 0xE0) {
		n = 3;
		c = s[0] & 0x0F;
	} else if ((s[0] & 0xF8) == 0xF0) {
		n = 4;
		c = s[0] & 0x07;
	} else {
		return 0;
	}
	for (i = 1; i < n; i++) {
		if ((s[i] & 0xC0) != 0x80)
			return 0;
		c = c << 6 | (s[i] & 0x3F);
	}
	if ((n == 2 && c < 0x80) || (n == 3 && c < 0x800) || (n == 4 && (c < 0x10000 || c > 0x10FFFF)) ||
	    (c >= 0xD800 && c <= 0xDFFF))
		return 0;
	*cp = c;
	return n;
}

static bool ascii_letter(int c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

/*
 * One code point of `n` bytes at `s`: its folded ASCII character into *out,
 * and whether it is a letter. False when it may not be in a handle.
 */
static bool judge(const char *s, size_t n, uint32_t cp, char *out, bool *letter)
{
	char folded[8];

	if (cp < 0x80) {
		*letter = ascii_letter((int)cp);
		if (!*letter && !(cp >= '0' && cp <= '9') && cp != '_' && cp != '-')
			return false;
		*out = (char)(*letter && cp <= 'Z' ? cp + ('a' - 'A') : cp);
		return true;
	}
	if (name_fold(s, n, folded) != 1 || !ascii_letter(folded[0]))
		return false;
	*letter = true;
	*out = folded[0];
	return true;
}

const char *handle_check(const char *handle, char key[HANDLE_SIZE])
{
	const unsigned char *s = (const unsigned char *)handle;
	size_t chars = 0, k = 0, n;
	uint32_t cp;

	if (!handle)
		return "a handle is 3 to 20 characters";
	while (*s) {
		char c;
		bool letter;

		n = utf8_next(s, &cp);
		if (!n)
			return "a handle must be UTF-8 text";
		if (++chars > HANDLE_MAX_CHARS)
			return "a handle is 3 to 20 characters";
		if (!judge((const char *)s, n, cp, &c, &letter))
			return "a handle has only letters (Latin, accents allowed), digits, _ and -";
		if (chars == 1 && !letter)
			return "a handle starts with a letter";
		key[k++] = c == '0' ? 'o' : c == '1' ? 'l' : c == '-' ? '_' : c;
		s += n;
	}
	key[k] = '\0';
	if (chars < HANDLE_MIN_CHARS)
		return "a handle is 3 to 20 characters";
	return NULL;
}
