/*
 * string.h for the WebAssembly build of the rules core (protocol/wasm/): the
 * only C library functions the rules core calls (tests/unit/check_purity.sh
 * holds it to them), implemented in protocol/wasm/libc.c. Freestanding: no
 * Emscripten, no WASI, nothing imported.
 */
#ifndef QUINTETO_WASM_STRING_H
#define QUINTETO_WASM_STRING_H

#include <stddef.h>

void *memcpy(void *restrict d, const void *restrict s, size_t n);
void *memmove(void *d, const void *s, size_t n);
void *memset(void *d, int c, size_t n);
int memcmp(const void *a, const void *b, size_t n);
size_t strlen(const char *s);
int strcmp(const char *a, const char *b);
void *memchr(const void *s, int c, size_t n);

#endif
