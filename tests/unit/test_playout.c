/*
 * test_playout.c: random complete matches of Ur through the generic rules_*
 * interface. A fixed LCG picks among the legal actions; after every action
 * the invariants of the state are checked (seven pieces each, 0..24, sorted,
 * one seat to act, a non-empty legal list without duplicates whose every
 * action applies, non-legal actions refused with the match untouched), every
 * match must end, and replaying seed + actions must give the same bytes.
 */
#include <string.h>

#include "rules.h"
#include "tap.h"

#define MATCHES 5000
#define MAX_PLIES 4000

struct lcg {
	uint64_t x;
};

static uint32_t lcg_next(struct lcg *g)
{
	g->x = g->x * 6364136223846793005ULL + 1442695040888963407ULL;
	return (uint32_t)(g->x >> 33);
}

static void seed_of(int i, uint8_t seed[RULES_SEED_SIZE])
{
	memset(seed, 0, RULES_SEED_SIZE);
	for (int k = 0; k < 4; k++)
		seed[k] = (uint8_t)(i >> (8 * k));
	seed[31] = 0x5a;
}

static int state_ok(const struct rules_match *m)
{
	const struct ur_state *s = &m->s.ur;
	int off[2] = { 0, 0 };

	for (int seat = 0; seat < 2; seat++)
		for (int i = 0; i < UR_PIECES; i++) {
			if (s->pos[seat][i] > UR_OFF)
				return 0;
			if (i > 0 && s->pos[seat][i - 1] > s->pos[seat][i])
				return 0;
			off[seat] += s->pos[seat][i] == UR_OFF;
		}
	if (s->turn > 1 || s->phase > UR_PHASE_BONUS || s->value > 5)
		return 0;
	/* Over exactly when someone is home, or by resignation (not used here). */
	if (s->over != (off[0] == UR_PIECES || off[1] == UR_PIECES))
		return 0;
	return !(off[0] == UR_PIECES && off[1] == UR_PIECES);
}

static bool in_list(const struct rules_action *l, int n, const struct rules_action *a)
{
	for (int i = 0; i < n; i++)
		if (rules_action_equal(&l[i], a))
			return true;
	return false;
}

/* The seat to act, its legal list (distinct), every action applies on a copy. */
static int check_legal(const struct rules_match *m, struct rules_action *l, int *seat)
{
	uint8_t seats[RULES_MAX_SEATS];
	int n;

	if (rules_to_act(m, seats) != 1)
		return -1;
	*seat = seats[0];
	if (rules_legal_actions(m, *seat ^ 1, l, RULES_MAX_LEGAL) != 0)
		return -1;
	n = rules_legal_actions(m, *seat, l, RULES_MAX_LEGAL);
	if (n <= 0)
		return -1;
	for (int i = 0; i < n; i++) {
		struct rules_match copy = *m;

		if (in_list(l, i, &l[i]) || rules_apply(&copy, *seat, &l[i], NULL) != 0)
			return -1;
		if (copy.ply != m->ply + 1)
			return -1;
	}
	return n;
}

static struct rules_action random_action(struct lcg *g)
{
	static const int16_t args[] = { -1, 0, 1, 2, 3, 4, 5, 6, 12, 19, 22, 23, 24 };
	struct rules_action a;

	memset(&a, 0, sizeof(a));
	a.kind = (uint8_t)(lcg_next(g) % 7);
	a.arg[0] = args[lcg_next(g) % (sizeof(args) / sizeof(args[0]))];
	if (lcg_next(g) % 16 == 0)
		a.arg[1 + lcg_next(g) % 3] = 1;
	return a;
}

/* Non-legal actions (and the wrong seat) are refused; the match is untouched. */
static int check_refusals(struct rules_match *m, const struct rules_action *l, int n, int seat,
			  struct lcg *g, int samples)
{
	struct rules_match before;

	memcpy(&before, m, sizeof(before));

	for (int k = 0; k < samples; k++) {
		struct rules_action a = random_action(g);
		int err = rules_apply(m, seat, &a, NULL);

		if (in_list(l, n, &a)) {
			memcpy(m, &before, sizeof(*m));
			continue;
		}
		if (err != RULES_E_ILLEGAL)
			return 0;
		if (rules_apply(m, seat ^ 1, &l[0], NULL) != RULES_E_NOT_TO_ACT)
			return 0;
	}
	return memcmp(m, &before, sizeof(*m)) == 0;
}

struct record {
	int plies;
	uint8_t seats[MAX_PLIES];
	struct rules_action actions[MAX_PLIES];
	struct rules_match states[MAX_PLIES];
};

static struct record rec;

/* Plays match `i` to the end; returns 0 on success, the failing ply + 1 otherwise. */
static int play(int i, int samples)
{
	struct rules_action l[RULES_MAX_LEGAL];
	struct rules_match m;
	uint8_t seed[RULES_SEED_SIZE];
	struct lcg g = { (uint64_t)i * 2654435761u + 1 };
	struct rules_result r;

	seed_of(i, seed);
	if (rules_match_start(&m, &rules_game_ur, seed, NULL) != 0)
		return 1;
	for (rec.plies = 0; rec.plies < MAX_PLIES; rec.plies++) {
		int seat, n;

		rules_result(&m, &r);
		if (r.over)
			break;
		n = check_legal(&m, l, &seat);
		if (n < 0 || !check_refusals(&m, l, n, seat, &g, samples))
			return rec.plies + 1;
		rec.seats[rec.plies] = (uint8_t)seat;
		rec.actions[rec.plies] = l[lcg_next(&g) % (uint32_t)n];
		if (rules_apply(&m, seat, &rec.actions[rec.plies], NULL) != 0 || !state_ok(&m))
			return rec.plies + 1;
		memcpy(&rec.states[rec.plies], &m, sizeof(m));
	}
	rules_result(&m, &r);
	if (!r.over || r.reason != RULES_REASON_RACE || m.ply != (uint32_t)rec.plies)
		return rec.plies + 1;
	return 0;
}

/* Replays the recorded actions from the same seed: byte-identical states. */
static bool replay(int i)
{
	struct rules_match m;
	uint8_t seed[RULES_SEED_SIZE];

	seed_of(i, seed);
	rules_match_start(&m, &rules_game_ur, seed, NULL);
	for (int p = 0; p < rec.plies; p++) {
		if (rules_apply(&m, rec.seats[p], &rec.actions[p], NULL) != 0)
			return false;
		if (memcmp(&m, &rec.states[p], sizeof(m)) != 0)
			return false;
	}
	return true;
}

static void test_playouts(void)
{
	long total = 0;
	int wins[2] = { 0, 0 }, longest = 0;

	for (int i = 0; i < MATCHES; i++) {
		int err = play(i, i % 100 == 0 ? 64 : 4);

		if (err) {
			printf("# match %d failed at ply %d\n", i, err - 1);
			CHECK(err == 0);
			return;
		}
		CHECK(replay(i));
		total += rec.plies;
		wins[rec.states[rec.plies - 1].s.ur.winner]++;
		if (rec.plies > longest)
			longest = rec.plies;
	}
	printf("# %d matches, %ld plies, longest %d, light %d dark %d\n", MATCHES, total, longest,
	       wins[0], wins[1]);
	/* Both colours win a fair share of random matches. */
	CHECK(wins[0] > MATCHES / 4 && wins[1] > MATCHES / 4);
}

/* Different seeds give different throws; the same seed the same match. */
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
	TEST(test_playouts);
	TEST(test_seeds_differ);
	return tap_done();
}
