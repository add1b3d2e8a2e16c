/* assert.h for the WebAssembly build of the rules core: a failed invariant traps. */
#ifndef QUINTETO_WASM_ASSERT_H
#define QUINTETO_WASM_ASSERT_H

#define assert(x) ((x) ? (void)0 : __builtin_trap())

#endif
