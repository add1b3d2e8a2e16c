/*
 * state_out.h: the room's `state` frame written straight to bytes. Building a
 * jansson tree for every state and freeing it again was over half of what the
 * server spent per action (docs/BENCHMARKS.md, "Issue 6, fourth pass: state frames without a tree"): the
 * shell of the frame (its keys, seats, clocks, rematch offer, spectators,
 * commit, revealed seeds) is written here directly, `options` is spliced in as
 * bytes the room keeps while they do not change, and only the game's own parts
 * (view, last action and outcome, result) still go through its codec's trees.
 * The bytes are exactly json_dumps(wire_state_new(w), JSON_COMPACT):
 * tests/unit/server/test_state_out.c compares them over random playouts of
 * every game with random seats, clocks, options and offers.
 */
#ifndef QUINTETO_STATE_OUT_H
#define QUINTETO_STATE_OUT_H

#include <stddef.h>

#include "json_out.h"
#include "wire.h"

/*
 * Appends the `state` of `w` as spectators see it ("legal":[]) to `o`, and
 * sets *legal_at to the offset of that "[]" in `o`. `options` (`options_len`
 * bytes) is the compact encoding of the room's options with defaults filled
 * in, as state_out_options() writes it. 0, or -ENOMEM (out of memory, or a
 * codec that could not build its part).
 */
int state_out(struct json_out *o, const struct wire_room *w, const char *options, size_t options_len,
	      size_t *legal_at);

/* Appends the `options` value of `w`'s state to `o`; 0 or -ENOMEM (as state_out()). */
int state_out_options(struct json_out *o, const struct wire_room *w);

#endif
