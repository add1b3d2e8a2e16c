/*
 * game.c: the registry of built-in games and the generic rules_* entry
 * points. The wrappers check what every game shares (seat range, match over,
 * seat to act) before calling the game, so a game's own functions only see
 * well-formed calls. Invariant kept here: a call that fails leaves the match
 * byte-identical; ply counts accepted actions only. Pure: no I/O, no
 * allocation.
 */
#include <assert.h>
#include <string.h>

#include "rules.h"

/*
 * Every game built in, in the order of protocol/games/meson.build's list,
 * then the ones registered at start-up; NULL after the last.
 */
#define GAME_ENTRY(id) &rules_game_##id,
const struct rules_game *rules_games[RULES_MAX_GAMES + 1] = { GAME_LIST(GAME_ENTRY) NULL };
#undef GAME_ENTRY

/* Appends `g` to rules_games[]; see rules.h (called from main() only). */
void rules_game_register(const struct rules_game *g)
{
	int n = 0;

	assert(g && g->id && !rules_game_find(g->id));
	while (rules_games[n])
		n++;
	assert(n < RULES_MAX_GAMES);
	rules_games[n] = g;
}

/* Finds a built-in game by id; NULL if unknown (or id is NULL). */
const struct rules_game *rules_game_find(const char *id)
{
	if (!id)
		return NULL;
	for (int i = 0; rules_games[i]; i++)
		if (strcmp(rules_games[i]->id, id) == 0)
			return rules_games[i];
	return NULL;
}

/* Starts a match: zeroes `m` (padding included, so memcmp compares states). */
int rules_match_start(struct rules_match *m, const struct rules_game *g, const uint8_t seed[RULES_SEED_SIZE],
		      const struct rules_options *opt)
{
	memset(m, 0, sizeof(*m));
	m->game = g;
	rules_dice_init(&m->dice, seed);
	if (opt)
		m->options = *opt;
	return g->start(m);
}

/* Seats to act now; 0 once the match is over. */
int rules_to_act(const struct rules_match *m, uint8_t out[RULES_MAX_SEATS])
{
	struct rules_result r;

	rules_result(m, &r);
	if (r.over)
		return 0;
	return m->game->to_act(m, out);
}

/* True if `seat` is among the seats to act. */
bool rules_seat_to_act(const struct rules_match *m, int seat)
{
	uint8_t seats[RULES_MAX_SEATS];
	int n = rules_to_act(m, seats);

	for (int i = 0; i < n; i++)
		if (seats[i] == seat)
			return true;
	return false;
}

/* The true count of `seat`'s legal actions, the first `cap` written; 0 when not to act. */
int rules_legal_actions(const struct rules_match *m, int seat, struct rules_action *out, int cap)
{
	if (seat < 0 || seat >= m->game->seats || !rules_seat_to_act(m, seat))
		return 0;
	return m->game->legal(m, seat, out, cap < 0 ? 0 : cap);
}

/* A seat of the game whose bit in m->out is clear. */
bool rules_seat_in_play(const struct rules_match *m, int seat)
{
	return seat >= 0 && seat < m->game->seats && !(m->out & (1u << seat));
}

static int check_seat(const struct rules_match *m, int seat)
{
	struct rules_result r;

	if (seat < 0 || seat >= m->game->seats)
		return RULES_E_BAD_SEAT;
	rules_result(m, &r);
	if (r.over)
		return RULES_E_GAME_OVER;
	return RULES_OK;
}

/* Applies one action after the shared checks; ply++ on success. */
int rules_apply(struct rules_match *m, int seat, const struct rules_action *a, union rules_outcome *outcome)
{
	union rules_outcome scratch;
	int err = check_seat(m, seat);

	if (err)
		return err;
	if (!rules_seat_to_act(m, seat))
		return RULES_E_NOT_TO_ACT;
	if (!outcome)
		outcome = &scratch;
	memset(outcome, 0, sizeof(*outcome));
	err = m->game->apply(m, seat, a, outcome);
	if (err)
		return err;
	m->ply++;
	return RULES_OK;
}

/*
 * Takes `seat` out of play, then lets the game decide what follows. The bit
 * is set before the hook so the game sees who is left; a refusing hook has
 * left the rest untouched, so clearing the bit restores the match.
 */
int rules_event(struct rules_match *m, int seat, int kind, union rules_outcome *outcome)
{
	union rules_outcome scratch;
	int err = check_seat(m, seat);

	if (err)
		return err;
	if (!rules_seat_in_play(m, seat))
		return RULES_E_OUT_OF_PLAY;
	if (kind != RULES_EVENT_RESIGN && kind != RULES_EVENT_FORFEIT)
		return RULES_E_ILLEGAL;
	if (!outcome)
		outcome = &scratch;
	memset(outcome, 0, sizeof(*outcome));
	m->out |= (uint8_t)(1u << seat);
	err = m->game->event(m, seat, kind, outcome);
	if (err)
		m->out &= (uint8_t) ~(1u << seat);
	return err;
}

/* Reads the result; over=false while playing. */
void rules_result(const struct rules_match *m, struct rules_result *out)
{
	memset(out, 0, sizeof(*out));
	out->winner = -1;
	m->game->result(m, out);
}

/*
 * The standing of a finished match; see rules.h. The default (a game without
 * its own): the winner first and every other seat tied behind it, all tied
 * on a draw (or while the match is not over, so a caller's mistake rates
 * nobody up or down).
 */
void rules_standing(const struct rules_match *m, uint8_t place[RULES_MAX_SEATS])
{
	struct rules_result r;

	memset(place, 0, RULES_MAX_SEATS);
	rules_result(m, &r);
	if (!r.over)
		return;
	if (m->game->standing) {
		m->game->standing(m, place);
		return;
	}
	if (r.draw || r.winner < 0)
		return;
	for (int seat = 0; seat < m->game->seats && seat < RULES_MAX_SEATS; seat++)
		place[seat] = seat == r.winner ? 0 : 1;
}

/* Actions are equal exactly when their bytes are (they are built zeroed). */
bool rules_action_equal(const struct rules_action *a, const struct rules_action *b)
{
	return memcmp(a, b, sizeof(*a)) == 0;
}
