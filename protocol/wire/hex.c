/*
 * hex.c: lowercase hex for seeds, commits and tokens, shared by the server
 * and the command-line tools (the protocol writes every seed in hex).
 */
#include "wire.h"

#include <string.h>

void wire_hex_encode(const uint8_t *in, size_t n, char *out)
{
	static const char digits[] = "0123456789abcdef";
	size_t i;

	for (i = 0; i < n; i++) {
		out[2 * i] = digits[in[i] >> 4];
		out[2 * i + 1] = digits[in[i] & 15];
	}
	out[2 * n] = '\0';
}

/* The value of hex digit `c`, or WIRE_E_BAD_MESSAGE. */
static int digit(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return WIRE_E_BAD_MESSAGE;
}

/* See wire.h. */
int wire_hex_decode(const char *s, uint8_t *out, size_t n)
{
	size_t i;

	if (!s || strlen(s) != 2 * n)
		return WIRE_E_BAD_MESSAGE;
	for (i = 0; i < n; i++) {
		int hi = digit(s[2 * i]), lo = digit(s[2 * i + 1]);

		if (hi < 0 || lo < 0)
			return WIRE_E_BAD_MESSAGE;
		out[i] = (uint8_t)(hi << 4 | lo);
	}
	return 0;
}
