/*
 * stdlib.h for the WebAssembly build (protocol/wasm/): abs() only (the
 * Quinteto bots' ring distance), in protocol/wasm/libc.c.
 */
#ifndef QUINTETO_WASM_STDLIB_H
#define QUINTETO_WASM_STDLIB_H

int abs(int x);

#endif
