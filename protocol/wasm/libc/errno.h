/*
 * errno.h for the WebAssembly build (protocol/wasm/): the codes the bots
 * return (protocol/bots/bots.h), with Linux's values.
 */
#ifndef QUINTETO_WASM_ERRNO_H
#define QUINTETO_WASM_ERRNO_H

#define ENOENT 2
#define ENOSPC 28

#endif
