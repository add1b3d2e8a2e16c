/*
 * nim_bots.c: Nim's `perfect` level: it leaves a multiple of four stones when
 * it can (heap % 4), else takes one. Pure: reads the match only.
 */
#include <errno.h>
#include <string.h>

#include "bots.h"
#include "nim.h"

static int perfect_choose(const struct rules_match *m, int seat, struct bot_ctx *ctx,
			  struct rules_action *out)
{
	struct nim_state s;
	int k;

	(void)ctx;
	if (!rules_seat_to_act(m, seat))
		return -ENOENT;
	memcpy(&s, &m->s, sizeof(s));
	k = s.heap % (NIM_TAKE_MAX + 1);
	memset(out, 0, sizeof(*out));
	out->kind = NIM_ACT_TAKE;
	out->arg[0] = (int16_t)(k ? k : 1);
	return 0;
}

static const struct bot_strategy perfect = { "nim", "perfect", perfect_choose };
static const struct bot_strategy *const levels[] = { &perfect, NULL };

/* Nim's bots, registered by nim_server.c. */
const struct bot_game bot_game_nim = { .game = "nim", .levels = levels };
