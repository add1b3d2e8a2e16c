/*
 * bot.c: the `random` bot. When a bot seat is to act, the room's timer fires
 * after the configured delay and the bot plays a uniformly random legal
 * action through the same path as a human (room_apply). The bot's choices
 * come from its own generator, not the dice stream: they are recorded as
 * actions, so replays never need it.
 */
#include "server.h"

static struct rules_action legal_buf[RULES_MAX_LEGAL]; /* loop thread only */

static uint64_t next_random(uint64_t *s)
{
	uint64_t x = *s; /* xorshift64* */

	x ^= x >> 12;
	x ^= x << 25;
	x ^= x >> 27;
	*s = x;
	return x * 2685821657736338717ull;
}

static int bot_to_act(struct room *r)
{
	uint8_t to_act[RULES_MAX_SEATS];
	int i, n;

	if (r->status != ROOM_PLAYING || r->dead)
		return -1;
	n = rules_to_act(&r->match, to_act);
	for (i = 0; i < n; i++)
		if (r->seats[to_act[i]].bot)
			return to_act[i];
	return -1;
}

/* Starts the room's bot timer if a bot is to act and it is not running. */
void bot_schedule(struct room *r)
{
	if (bot_to_act(r) < 0 || uv_is_active((uv_handle_t *)&r->bot_timer))
		return;
	/* At least 1 ms: a 0 ms timer re-armed from its own callback runs again in
	 * the same loop pass, so a bot-vs-bot match would never yield to I/O. */
	uv_timer_start(&r->bot_timer, bot_play_cb,
		       r->srv->cfg.bot_delay_ms > 0 ? (uint64_t)r->srv->cfg.bot_delay_ms : 1, 0);
}

void bot_play_cb(uv_timer_t *t)
{
	struct room *r = t->data;
	int seat = bot_to_act(r), n;

	if (seat < 0)
		return;
	n = rules_legal_actions(&r->match, seat, legal_buf, RULES_MAX_LEGAL);
	if (n <= 0)
		return;
	if (room_apply(r, seat, &legal_buf[next_random(&r->bot_rng) % (uint64_t)n], util_now_ms())) {
		util_log(LOG_ERROR, "room %s: bot action refused by the rules core", r->id);
		return;
	}
	r->srv->metrics.bot_actions++;
	room_changed(r);
}
