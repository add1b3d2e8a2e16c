/*
 * test_playout.c: random complete matches of EVERY registered game
 * (rules_games[]) through the generic rules_* interface; a game added to the
 * registry is played here with no edit. A fixed LCG picks the acting seat and
 * its action among the legal ones, and in some matches a seat in play resigns
 * or forfeits at a random ply. After every step the generic invariants hold:
 * the seats to act are distinct, in range and in play, and none once over;
 * every other seat has no legal action; the legal list is non-empty, has no
 * duplicates, its true count does not depend on `cap`, and every entry applies
 * on a copy (ply + 1); actions not in the list and other seats are refused
 * with the match untouched; an event does not change ply and a seat cannot be
 * taken out twice. Every match ends, and replaying seed + actions + events
 * gives byte-identical states. Games may add their own invariants in
 * game_checks[] (Ur: seven pieces each, sorted, in 0..24; Laquet: fifteen
 * men each, never two colours on a point; Super 1 al 5: the board agrees with
 * the pieces, points only grow and add up).
 */
#include <string.h>

#include "match_fixture.h"
#include "rules.h"
#include "tap.h"

#define MATCHES    3000 /* per game */
#define MAX_PLIES  20000
#define MAX_EVENTS RULES_MAX_SEATS

static void seed_of(int i, uint8_t seed[RULES_SEED_SIZE])
{
	memset(seed, 0, RULES_SEED_SIZE);
	for (int k = 0; k < 4; k++)
		seed[k] = (uint8_t)(i >> (8 * k));
	seed[31] = 0x5a;
}

/* FNV-1a of the match bytes: replays compare states without storing them. */
static uint64_t match_hash(const struct rules_match *m)
{
	const uint8_t *p = (const uint8_t *)m;
	uint64_t h = 1469598103934665603ULL;

	for (size_t i = 0; i < sizeof(*m); i++)
		h = (h ^ p[i]) * 1099511628211ULL;
	return h;
}

/* --- Game-specific invariants, optional. */

static bool ur_state_ok(const struct rules_match *m)
{
	const struct ur_state *s = &m->s.ur;
	int off[2] = { 0, 0 };

	for (int seat = 0; seat < 2; seat++)
		for (int i = 0; i < UR_PIECES; i++) {
			if (s->pos[seat][i] > UR_OFF)
				return false;
			if (i > 0 && s->pos[seat][i - 1] > s->pos[seat][i])
				return false;
			off[seat] += s->pos[seat][i] == UR_OFF;
		}
	if (s->turn > 1 || s->phase > UR_PHASE_BONUS || s->value > 5)
		return false;
	/* Over exactly when someone is home or a seat is out (an event). */
	if (s->over != (off[0] == UR_PIECES || off[1] == UR_PIECES || m->out != 0))
		return false;
	return !(off[0] == UR_PIECES && off[1] == UR_PIECES);
}

/* Quinteto: 18 stones accounted for, the circle and the victims, who acts (quinteto.h). */
static bool quinteto_stones_ok(const struct quinteto_state *s, unsigned living)
{
	for (int k = 0; k < QUINTETO_STONES; k++) {
		uint8_t loc = s->loc[k];
		int seat = k / 3;

		if (loc > QUINTETO_OUT)
			return false;
		if (seat < QUINTETO_HUNTERS && k % 3 == 2) {
			bool kept = (living & (1u << seat)) || seat == s->survivor;

			if (loc != (kept ? QUINTETO_MARKER : QUINTETO_OUT))
				return false;
		} else if (seat < QUINTETO_HUNTERS) {
			if (loc == QUINTETO_MARKER || loc == QUINTETO_RESERVE)
				return false;
		} else if (k == 17 || s->home == QUINTETO_NONE) {
			if (loc != QUINTETO_RESERVE)
				return false;
		} else if (loc == QUINTETO_MARKER || loc == QUINTETO_RESERVE) {
			return false;
		}
	}
	return true;
}

/* Victims follow the circle: one cycle through every living hunter (phase 1), or the duellists. */
static bool quinteto_victims_ok(const struct quinteto_state *s, unsigned living, int nliving)
{
	int h = -1, steps = 0;

	if (s->survivor != QUINTETO_NONE)
		return quinteto_victim(s, QUINTETO_ARRANGER) == s->survivor &&
		       quinteto_victim(s, s->survivor) == QUINTETO_ARRANGER;
	if (quinteto_victim(s, QUINTETO_ARRANGER) != QUINTETO_NONE)
		return false;
	for (int i = 0; i < QUINTETO_HUNTERS; i++) {
		uint8_t c = s->circle[i];

		if (!s->arranged ? c != QUINTETO_NONE : c != QUINTETO_NONE && !(living & (1u << c)))
			return false;
		if (c != QUINTETO_NONE)
			h = c;
	}
	if (!s->arranged || nliving < 2)
		return true;
	do {
		h = quinteto_victim(s, h);
		if (h == QUINTETO_NONE || !(living & (1u << h)))
			return false;
	} while (++steps < nliving);
	return quinteto_victim(s, h) != h && steps == nliving;
}

static bool quinteto_state_ok(const struct rules_match *m)
{
	const struct quinteto_state *s = &m->s.quinteto;
	uint8_t seats[RULES_MAX_SEATS];
	unsigned living = 0;
	int nliving = 0, n = rules_to_act(m, seats);

	for (int h = 0; h < QUINTETO_HUNTERS; h++) {
		if (s->loc[3 * h] <= QUINTETO_LIMBO || s->loc[3 * h + 1] <= QUINTETO_LIMBO) {
			living |= 1u << h;
			nliving++;
		} else if (!(m->out & (1u << h)) && h != s->survivor) {
			return false; /* an eliminated hunter is out of play */
		}
	}
	if (!quinteto_stones_ok(s, living) || !quinteto_victims_ok(s, living, nliving))
		return false;
	if (s->over != (s->phase == QUINTETO_PHASE_OVER) || (s->survivor != QUINTETO_NONE) != (nliving <= 1))
		return false;
	switch (s->phase) {
	case QUINTETO_PHASE_ARRANGE:
	case QUINTETO_PHASE_PLACE:
		return n == 1 && seats[0] == QUINTETO_ARRANGER;
	case QUINTETO_PHASE_ROLLOFF:
	case QUINTETO_PHASE_HUNT:
		for (int i = 0; i < n; i++)
			if (!(living & (1u << seats[i])))
				return false;
		return n >= 1 && (s->phase == QUINTETO_PHASE_ROLLOFF || n == 1);
	case QUINTETO_PHASE_DUEL:
		return n == 1 && (seats[0] == QUINTETO_ARRANGER || seats[0] == s->survivor);
	}
	return n == 0;
}

/* Laquet: 15 men a side, never both colours on one point, dice and handed dice only in their phases. */
static bool laquet_state_ok(const struct rules_match *m)
{
	const struct laquet_state *s = &m->s.laquet;

	for (int seat = 0; seat < 2; seat++) {
		int n = 0;

		for (int r = 1; r <= LAQUET_OFF; r++)
			n += s->men[seat][r];
		if (n != LAQUET_MEN || s->men[seat][0] != 0)
			return false;
	}
	for (int r = 1; r <= LAQUET_POINTS; r++)
		if (s->men[0][r] && s->men[1][r])
			return false;
	if (s->turn > 1 || s->phase > LAQUET_PHASE_BONUS || s->nhanded > LAQUET_DICE)
		return false;
	if ((s->phase == LAQUET_PHASE_PLAN) != (s->dice[0] != 0) ||
	    (s->phase == LAQUET_PHASE_BONUS) != (s->nhanded != 0))
		return false;
	return s->over ==
	       (s->men[0][LAQUET_OFF] == LAQUET_MEN || s->men[1][LAQUET_OFF] == LAQUET_MEN || m->out != 0);
}

/*
 * Super 1 al 5: board[], count[] and sets[] agree with pieces[] (no piece
 * twice, none on a forbidden square), values never change, a piece with 10
 * points is Super, the points of all pieces (captured ones keep theirs) are
 * what the captures brought (value + points of each captured piece), and no
 * piece's points ever go down from one ply to the next.
 */
static bool super15_state_ok(const struct rules_match *m)
{
	static const uint8_t values[16] = { 5, 4, 3, 2, 2, 3, 4, 5, 1, 2, 3, 1, 1, 3, 2, 1 };
	static uint8_t last_points[SUPER15_PIECES];
	static uint32_t last_ply;
	const struct super15_state *s = &m->s.super15;
	struct super15_state copy = *s;
	bool taken[SUPER15_SQUARES] = { false };
	int points = 0, brought = 0;

	super15_state_sync(&copy);
	if (memcmp(&copy, s, sizeof(copy)) != 0 || s->turn > 1 || s->quiet > SUPER15_QUIET_MAX)
		return false;
	for (int id = 0; id < SUPER15_PIECES; id++) {
		const struct super15_piece *p = &s->pieces[id];

		if (p->value != values[id % 16] || (p->points >= SUPER15_SUPER_POINTS && !p->super))
			return false;
		if (p->square == 35 || p->square == 36 || p->square == 43 ||
		    p->square == 44) /* d5 e5 d6 e6 */
			return false;
		if (m->ply == last_ply + 1 && p->points < last_points[id])
			return false;
		if (p->square != SUPER15_NONE && (p->square >= SUPER15_SQUARES || taken[p->square]))
			return false; /* off the board, or a second piece on a square */
		if (p->square != SUPER15_NONE)
			taken[p->square] = true;
		last_points[id] = p->points;
		points += p->points;
		if (p->square == SUPER15_NONE)
			brought += p->value + p->points;
	}
	last_ply = m->ply;
	/* Still playing: both seats keep two pieces or more, and neither is out. */
	if (!s->over && (s->count[0] <= 1 || s->count[1] <= 1 || m->out != 0))
		return false;
	return points == brought;
}

static const struct {
	const char *id;
	bool (*state_ok)(const struct rules_match *m);
} game_checks[] = {
	{ "ur", ur_state_ok },
	{ "quinteto", quinteto_state_ok },
	{ "laquet", laquet_state_ok },
	{ "super15", super15_state_ok },
};

/* Games played fewer than MATCHES times here: every step checks hundreds of actions. */
static const struct {
	const char *id;
	int matches;
} game_fewer[] = {
	{ "quinteto", 300 }, /* test_quinteto.c plays thousands more with its invariants */
	{ "super15", 300 },  /* ~70 moves a ply, ~375 plies; test_super15.c plays thousands more */
};

static int game_matches(const struct rules_game *g)
{
	for (size_t i = 0; i < sizeof(game_fewer) / sizeof(game_fewer[0]); i++)
		if (strcmp(game_fewer[i].id, g->id) == 0)
			return game_fewer[i].matches;
	return MATCHES;
}

static bool game_state_ok(const struct rules_match *m)
{
	for (size_t i = 0; i < sizeof(game_checks) / sizeof(game_checks[0]); i++)
		if (strcmp(game_checks[i].id, m->game->id) == 0)
			return game_checks[i].state_ok(m);
	return true;
}

/* --- Generic invariants. */

static bool in_list(const struct rules_action *l, int n, const struct rules_action *a)
{
	for (int i = 0; i < n; i++)
		if (rules_action_equal(&l[i], a))
			return true;
	return false;
}

/* to_act: distinct seats in play; none once over; the others have no legal action. */
static int check_to_act(const struct rules_match *m, uint8_t seats[RULES_MAX_SEATS])
{
	static struct rules_action l[RULES_MAX_LEGAL];
	struct rules_result r;
	unsigned mask = 0;
	int n = rules_to_act(m, seats);

	rules_result(m, &r);
	if (n < 0 || n > m->game->seats || (r.over != (n == 0)))
		return -1;
	for (int i = 0; i < n; i++) {
		if (seats[i] >= m->game->seats || (mask & (1u << seats[i])) ||
		    !rules_seat_in_play(m, seats[i]))
			return -1;
		mask |= 1u << seats[i];
	}
	for (int s = 0; s < m->game->seats; s++)
		if (!(mask & (1u << s)) && rules_legal_actions(m, s, l, RULES_MAX_LEGAL) != 0)
			return -1;
	return n;
}

/* The legal list of `seat`: non-empty, distinct, cap-independent count, each applies. */
static int check_legal(const struct rules_match *m, int seat, struct rules_action *l)
{
	struct rules_action one;
	int n = rules_legal_actions(m, seat, l, RULES_MAX_LEGAL);

	if (n <= 0 || n > RULES_MAX_LEGAL || rules_legal_actions(m, seat, &one, 1) != n ||
	    rules_legal_actions(m, seat, NULL, 0) != n || !rules_action_equal(&one, &l[0]))
		return -1;
	for (int i = 0; i < n; i++) {
		struct rules_match copy = *m;

		if (in_list(l, i, &l[i]) || rules_apply(&copy, seat, &l[i], NULL) != 0 ||
		    copy.ply != m->ply + 1)
			return -1;
	}
	return n;
}

/* An action of random bytes-ish shape: kinds 0..15, small and RULES_ARG_NONE args. */
static struct rules_action random_action(struct fixture_lcg *g)
{
	static const int16_t args[] = { RULES_ARG_NONE, 0, 1, 2, 3, 4, 5, 6, 12, 19, 22, 23, 24, 99 };
	struct rules_action a;

	memset(&a, 0, sizeof(a));
	a.kind = (uint8_t)(fixture_next(g) % 16);
	for (int k = 0; k < 3; k++)
		a.arg[k] = args[fixture_next(g) % (sizeof(args) / sizeof(args[0]))];
	if (fixture_next(g) % 4 == 0)
		memset(&a.arg[1], 0, sizeof(a.arg) - sizeof(a.arg[0]));
	return a;
}

/* Non-legal actions, and any action from a seat not to act, are refused untouched. */
static bool check_refusals(struct rules_match *m, const struct rules_action *l, int n, int seat,
			   unsigned to_act_mask, struct fixture_lcg *g, int samples)
{
	struct rules_match before;

	memcpy(&before, m, sizeof(before));
	for (int k = 0; k < samples; k++) {
		struct rules_action a = random_action(g);

		if (!in_list(l, n, &a) && rules_apply(m, seat, &a, NULL) != RULES_E_ILLEGAL)
			return false;
		if (in_list(l, n, &a))
			memcpy(m, &before, sizeof(*m));
	}
	for (int s = 0; s < m->game->seats; s++)
		if (!(to_act_mask & (1u << s)) && rules_apply(m, s, &l[0], NULL) != RULES_E_NOT_TO_ACT)
			return false;
	return rules_apply(m, m->game->seats, &l[0], NULL) == RULES_E_BAD_SEAT &&
	       memcmp(m, &before, sizeof(*m)) == 0;
}

/* --- Recording and replaying. */

struct step {
	uint8_t seat;
	uint8_t event; /* 0: action; else enum rules_event_kind */
	struct rules_action action;
	uint64_t hash; /* of the match after the step */
};

static struct step rec[MAX_PLIES + MAX_EVENTS];
static int nrec;

/* An event for a random seat in play; checks ply, the out mask and a second try. */
static bool try_event(struct rules_match *m, struct fixture_lcg *g)
{
	int seat = (int)(fixture_next(g) % m->game->seats), kind = 1 + (int)(fixture_next(g) % 2);
	uint32_t ply = m->ply;
	struct rules_match before = *m;
	int err = rules_event(m, seat, kind, NULL);

	if (!rules_seat_in_play(&before, seat))
		return err == RULES_E_OUT_OF_PLAY && memcmp(m, &before, sizeof(*m)) == 0;
	if (err != 0 || m->ply != ply || rules_seat_in_play(m, seat))
		return false;
	err = rules_event(m, seat, kind, NULL);
	if (err != RULES_E_OUT_OF_PLAY && err != RULES_E_GAME_OVER)
		return false;
	rec[nrec++] = (struct step){ (uint8_t)seat, (uint8_t)kind, { 0 }, match_hash(m) };
	return true;
}

/* One action step: checks, then a random legal action of a random seat to act. */
static bool action_step(struct rules_match *m, struct fixture_lcg *g, int samples)
{
	static struct rules_action l[RULES_MAX_LEGAL];
	uint8_t seats[RULES_MAX_SEATS];
	unsigned mask = 0;
	int n = check_to_act(m, seats), seat, k;

	if (n <= 0)
		return false;
	for (int i = 0; i < n; i++)
		mask |= 1u << seats[i];
	seat = seats[fixture_next(g) % (uint32_t)n];
	k = check_legal(m, seat, l);
	if (k <= 0 || !check_refusals(m, l, k, seat, mask, g, samples))
		return false;
	rec[nrec] = (struct step){ (uint8_t)seat, 0, l[fixture_next(g) % (uint32_t)k], 0 };
	if (rules_apply(m, seat, &rec[nrec].action, NULL) != 0 || !game_state_ok(m))
		return false;
	rec[nrec++].hash = match_hash(m);
	return true;
}

/* Plays match `i` of `g` to the end; 0 on success, else the failing ply + 1. */
static int play(const struct rules_game *game, int i, int samples)
{
	uint8_t seed[RULES_SEED_SIZE], seats[RULES_MAX_SEATS];
	struct fixture_lcg g = { (uint64_t)i * 2654435761u + 1 };
	int event_at = i % 5 == 0 ? (int)(fixture_next(&g) % 120) : -1;
	struct rules_match m;

	seed_of(i, seed);
	nrec = 0;
	if (rules_match_start(&m, game, seed, NULL) != 0)
		return 1;
	while (m.ply < MAX_PLIES && check_to_act(&m, seats) > 0) {
		if ((int)m.ply == event_at) {
			event_at = -1;
			if (!try_event(&m, &g))
				return (int)m.ply + 1;
			continue;
		}
		if (!action_step(&m, &g, samples))
			return (int)m.ply + 1;
	}
	return check_to_act(&m, seats) == 0 ? 0 : (int)m.ply + 1;
}

/* Replays the recorded steps from the same seed: the same bytes after each. */
static bool replay(const struct rules_game *game, int i)
{
	uint8_t seed[RULES_SEED_SIZE];
	struct rules_match m;

	seed_of(i, seed);
	rules_match_start(&m, game, seed, NULL);
	for (int p = 0; p < nrec; p++) {
		int err = rec[p].event ? rules_event(&m, rec[p].seat, rec[p].event, NULL)
				       : rules_apply(&m, rec[p].seat, &rec[p].action, NULL);

		if (err != 0 || match_hash(&m) != rec[p].hash)
			return false;
	}
	return true;
}

static void test_playouts_every_game(void)
{
	int games = 0;

	for (int k = 0; rules_games[k]; k++, games++) {
		const struct rules_game *game = rules_games[k];
		long steps = 0;
		int with_event = 0, matches = game_matches(game);

		for (int i = 0; i < matches; i++) {
			int err = play(game, i, i % 100 == 0 ? 64 : 4);

			if (err) {
				printf("# %s: match %d failed at ply %d\n", game->id, i, err - 1);
				CHECK(err == 0);
				return;
			}
			CHECK(replay(game, i));
			steps += nrec;
			for (int p = 0; p < nrec; p++)
				with_event += rec[p].event != 0;
		}
		printf("# %s: %d matches, %ld steps, %d with an event\n", game->id, matches, steps,
		       with_event);
		CHECK(with_event > matches / 10); /* the event path is exercised */
	}
	CHECK(games >= 1);
}

/* Ur: both colours win a fair share of random matches without events. */
static void test_ur_fair(void)
{
	int wins[2] = { 0, 0 };

	for (int i = 1; i < 2000; i += 5) {
		uint8_t seed[RULES_SEED_SIZE];
		struct rules_match m;
		struct rules_result r;

		REQUIRE(play(&rules_game_ur, i, 1) == 0);
		seed_of(i, seed);
		rules_match_start(&m, &rules_game_ur, seed, NULL);
		for (int p = 0; p < nrec; p++)
			REQUIRE(rules_apply(&m, rec[p].seat, &rec[p].action, NULL) == 0);
		rules_result(&m, &r);
		REQUIRE(r.over && r.reason == RULES_REASON_RACE);
		wins[r.winner]++;
	}
	printf("# ur: light %d dark %d\n", wins[0], wins[1]);
	CHECK(wins[0] > 400 / 4 && wins[1] > 400 / 4);
}

/* Ur: different seeds give different throws; the same seed the same match. */
static void test_seeds_differ(void)
{
	struct rules_match a, b;
	uint8_t s1[RULES_SEED_SIZE] = { 1 }, s2[RULES_SEED_SIZE] = { 2 };
	struct rules_action roll;
	int differ = 0;

	memset(&roll, 0, sizeof(roll));
	roll.kind = UR_ACT_ROLL;
	rules_match_start(&a, &rules_game_ur, s1, NULL);
	rules_match_start(&b, &rules_game_ur, s2, NULL);
	for (int k = 0; k < 40; k++) {
		a.s.ur.phase = b.s.ur.phase = UR_PHASE_ROLL;
		a.s.ur.turn = b.s.ur.turn = 0;
		REQUIRE(rules_apply(&a, 0, &roll, NULL) == 0);
		REQUIRE(rules_apply(&b, 0, &roll, NULL) == 0);
		differ += memcmp(a.s.ur.dice, b.s.ur.dice, UR_DICE) != 0;
	}
	CHECK(differ > 10);
}

int main(void)
{
	TEST(test_playouts_every_game);
	TEST(test_ur_fair);
	TEST(test_seeds_differ);
	return tap_done();
}
