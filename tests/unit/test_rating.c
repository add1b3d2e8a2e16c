/*
 * test_rating.c: Glicko-2 (server/rating/rating.c) and the standing of a
 * finished match (rules_standing(), protocol/rules/game.c and Quinteto's own).
 *
 * The ratings: Glickman's worked example through rating_period(); a
 * two-player match through rating_apply() equal, bit for bit, to the paper's
 * period with weight 1; symmetric cases; the six-seat treatment against
 * numbers worked by hand (below; docs/RATINGS.md shows the same steps);
 * idle growth of the deviation and its cap; the same inputs twice giving the
 * same bits. The standings: Quinteto matches of the real rules core played
 * at random to their end (some with resignations, one by the arranger),
 * checked against the eliminations the match itself reported in its
 * outcomes; the default for the two-seat games, a resignation, a draw and a
 * match not over.
 *
 * Hand work for the six-seat case (six new players, 1500/350/0.06, places 0
 * to 5 in seat order; every pair weighted w = 1/5):
 *   phi = 350 / 173.7178 = 2.014732; g(phi) = 1 / sqrt(1 + 3 phi^2 / pi^2)
 *       = 1 / sqrt(2.233838) = 0.669074; every E = 0.5 (equal ratings).
 *   v = 1 / (5 * w * g^2 * 0.25) = 4 / g^2 = 8.935475 for every seat.
 *   Seat k scores 1 against the 5 - k behind it and 0 against the k ahead:
 *   sum w g (s - E) = 0.2 * g * ((5 - k) * 0.5 - k * 0.5) = 0.2 g (2.5 - k),
 *   so delta = v * that = 2.989226, 1.793536, 0.597845 and their negatives.
 *   The volatility barely moves (sigma' = 0.0599997 for the winner), so
 *   phi* = sqrt(phi^2 + sigma'^2) = 2.015655 and
 *   phi' = 1 / sqrt(1 / phi*^2 + 1 / v) = 1.671210 (rd' = 290.319);
 *   mu' = phi'^2 * 0.2 g (2.5 - k) = 0.934337, 0.560602, 0.186867, ...
 *   r' = 1500 + 173.7178 mu' = 1662.311, 1597.387, 1532.462, 1467.538,
 *   1402.613, 1337.689. The winner gains exactly what the winner of one
 *   two-player game between two new players gains: the weights make a
 *   six-seat match count as one game, not five.
 */
#include <errno.h>
#include <math.h>
#include <string.h>

#include "match_fixture.h"
#include "rating/rating.h"
#include "tap.h"

#define NEAR(a, b, eps) (fabs((a) - (b)) <= (eps))

/* n ratings equal field by field, the doubles bit for bit (struct padding aside). */
static bool same(const struct rating *a, const struct rating *b, int n)
{
	for (int i = 0; i < n; i++)
		if (memcmp(&a[i].rating, &b[i].rating, 3 * sizeof(double)) != 0 ||
		    a[i].matches != b[i].matches || a[i].last_at != b[i].last_at)
			return false;
	return true;
}

static void test_paper_example(void)
{
	const struct rating p = { 1500, 200, 0.06, 0, 0 };
	const struct rating opp[3] = { { 1400, 30, 0.06, 0, 0 },
				       { 1550, 100, 0.06, 0, 0 },
				       { 1700, 300, 0.06, 0, 0 } };
	const double score[3] = { 1, 0, 0 }, weight[3] = { 1, 1, 1 };
	struct rating r;

	rating_period(&p, 3, opp, score, weight, 0.5, &r);
	printf("# paper: %.6f / %.6f / %.8f\n", r.rating, r.rd, r.vol);
	/* the paper's own figures (it rounds mu' to -0.2069 before scaling: 1464.06) */
	CHECK(NEAR(r.rating, 1464.06, 0.01));
	CHECK(NEAR(r.rd, 151.52, 0.005));
	CHECK(NEAR(r.vol, 0.05999, 0.00001));
	/* the same steps without the paper's rounding (an independent implementation's) */
	CHECK(NEAR(r.rating, 1464.0506705393, 1e-9));
	CHECK(NEAR(r.rd, 151.5165241239, 1e-9));
	CHECK(NEAR(r.vol, 0.0599959842865, 1e-12));
	/* no match: only the deviation grows, by one period of the volatility */
	rating_period(&p, 0, NULL, NULL, NULL, 0.5, &r);
	CHECK(r.rating == 1500 && r.vol == 0.06);
	CHECK(NEAR(r.rd, sqrt(200.0 * 200.0 + 0.06 * 173.7178 * 0.06 * 173.7178), 1e-9));
}

/* n = 2 through rating_apply() is the paper's period with weight 1, bit for bit, for both sides. */
static void test_two_player_is_the_paper(void)
{
	const struct rating before[2] = { { 1500, 200, 0.06, 4, 0 }, { 1400, 30, 0.06, 9, 0 } };
	const uint8_t place[2] = { 0, 1 };
	const double one = 1, win = 1, loss = 0;
	struct rating after[2], want0, want1;

	REQUIRE(rating_apply(2, before, place, 1700000000000LL, after) == 0);
	rating_period(&before[0], 1, &before[1], &win, &one, RATING_TAU, &want0);
	rating_period(&before[1], 1, &before[0], &loss, &one, RATING_TAU, &want1);
	CHECK(memcmp(&after[0].rating, &want0.rating, 3 * sizeof(double)) == 0);
	CHECK(memcmp(&after[1].rating, &want1.rating, 3 * sizeof(double)) == 0);
	CHECK_EQ(after[0].matches, 5);
	CHECK_EQ(after[1].matches, 10);
	CHECK(after[0].last_at == 1700000000000LL && after[1].last_at == 1700000000000LL);
	/* the figures of an independent implementation */
	CHECK(NEAR(after[0].rating, 1563.5641943063, 1e-8) && NEAR(after[0].rd, 175.4026559386, 1e-8));
	CHECK(NEAR(after[1].rating, 1398.1435582337, 1e-8) && NEAR(after[1].rd, 31.6702152812, 1e-8));
}

static void test_symmetric(void)
{
	struct rating two[2] = { RATING_INIT, RATING_INIT }, after[2];
	const uint8_t draw[2] = { 0, 0 }, win[2] = { 1, 0 };

	REQUIRE(rating_apply(2, two, draw, 1, after) == 0);
	CHECK(after[0].rating == 1500.0 && after[1].rating == 1500.0); /* a draw of equals moves nothing */
	CHECK(after[0].rd < 350.0 && after[0].rd == after[1].rd);      /* but both are better known */
	CHECK(after[0].vol == after[1].vol);
	REQUIRE(rating_apply(2, two, win, 1, after) == 0);
	CHECK(after[1].rating > 1500.0 && after[0].rating < 1500.0);
	CHECK(NEAR(after[1].rating - 1500.0, 1500.0 - after[0].rating, 1e-9));
	CHECK(after[0].rd == after[1].rd);
	/* six equals all tied: nobody moves either */
	{
		struct rating six[6], out[6];
		const uint8_t tied[6] = { 0 };

		for (int i = 0; i < 6; i++)
			six[i] = RATING_INIT;
		REQUIRE(rating_apply(6, six, tied, 1, out) == 0);
		for (int i = 0; i < 6; i++)
			CHECK(out[i].rating == 1500.0 && out[i].rd == out[0].rd);
	}
}

/* The file comment's hand-worked case, and one with mixed ratings and a tie (independent figures). */
static void test_six_seats_by_hand(void)
{
	static const double hand[6] = { 1662.311, 1597.387, 1532.462, 1467.538, 1402.613, 1337.689 };
	static const double mixed_r[6] = { 1600.8179015405, 1493.5139117496, 1472.4439144726,
					   1700.6633985454, 1458.7885914711, 1569.7406551492 };
	static const double mixed_rd[6] = { 79.2105556430, 260.6412601659, 115.8741748719,
					    60.3751983839, 182.1211228899, 88.4802852063 };
	const struct rating mixed[6] = { { 1620, 80, 0.06, 0, 0 },   { 1500, 350, 0.06, 0, 0 },
					 { 1450, 120, 0.059, 0, 0 }, { 1710, 60, 0.061, 0, 0 },
					 { 1390, 200, 0.06, 0, 0 },  { 1550, 90, 0.06, 0, 0 } };
	const uint8_t order[6] = { 0, 1, 2, 3, 4, 5 }, quinteto[6] = { 5, 3, 1, 4, 1, 0 };
	struct rating six[6], out[6], two[2] = { RATING_INIT, RATING_INIT }, duel[2];
	const uint8_t win[2] = { 0, 1 };

	for (int i = 0; i < 6; i++)
		six[i] = RATING_INIT;
	REQUIRE(rating_apply(6, six, order, 1, out) == 0);
	for (int i = 0; i < 6; i++) {
		printf("# seat %d: %.4f / %.4f / %.8f\n", i, out[i].rating, out[i].rd, out[i].vol);
		CHECK(NEAR(out[i].rating, hand[i], 0.001));
		CHECK(NEAR(out[i].rd, 290.319, 0.001));
	}
	/* first of six new players gains what the winner of one game between two new players gains */
	REQUIRE(rating_apply(2, two, win, 1, duel) == 0);
	CHECK(NEAR(out[0].rating, duel[0].rating, 1e-6) && NEAR(out[0].rd, duel[0].rd, 1e-6));
	/* mixed ratings, seat 5 first, seats 2 and 4 tied second (docs/RATINGS.md's second case) */
	REQUIRE(rating_apply(6, mixed, quinteto, 1, out) == 0);
	for (int i = 0; i < 6; i++) {
		CHECK(NEAR(out[i].rating, mixed_r[i], 1e-8));
		CHECK(NEAR(out[i].rd, mixed_rd[i], 1e-8));
	}
}

static void test_idle_growth(void)
{
	const int64_t t = 1700000000000LL, week = RATING_IDLE_PERIOD_MS;
	const uint8_t place[2] = { 0, 1 };
	struct rating p[2] = { { 1600, 50, 0.06, 30, t }, { 1500, 80, 0.06, 30, t } }, grown[2], a[2], b[2];
	double s = 0.06 * 173.7178;

	/* 52 full weeks and 3 days idle: 52 empty periods before the match, for both seats */
	REQUIRE(rating_apply(2, p, place, t + 52 * week + 3 * 86400000LL, a) == 0);
	memcpy(grown, p, sizeof(p));
	grown[0].rd = sqrt((50 / 173.7178) * (50 / 173.7178) + 52 * 0.06 * 0.06) * 173.7178;
	grown[1].rd = sqrt((80 / 173.7178) * (80 / 173.7178) + 52 * 0.06 * 0.06) * 173.7178;
	printf("# a year idle: rd 50 -> %.4f before the match (%.4f by the Glicko scale)\n", grown[0].rd,
	       sqrt(50.0 * 50 + 52 * s * s));
	grown[0].last_at = grown[1].last_at = 0;
	REQUIRE(rating_apply(2, grown, place, t + 52 * week + 3 * 86400000LL, b) == 0);
	CHECK(same(a, b, 2));
	CHECK(a[0].rd > 50.0);
	/* less than a week: no growth at all */
	REQUIRE(rating_apply(2, p, place, t + week - 1, a) == 0);
	memcpy(grown, p, sizeof(p));
	grown[0].last_at = grown[1].last_at = 0;
	REQUIRE(rating_apply(2, grown, place, t + week - 1, b) == 0);
	CHECK(same(a, b, 2));
	/* thirty years: capped at a new player's 350 */
	REQUIRE(rating_apply(2, p, place, t + 30 * 52 * week, a) == 0);
	grown[0].rd = grown[1].rd = RATING_RD_MAX;
	REQUIRE(rating_apply(2, grown, place, t + 30 * 52 * week, b) == 0);
	CHECK(same(a, b, 2));
	/* time running backwards (another node's clock): no growth, no harm */
	REQUIRE(rating_apply(2, p, place, t - 5 * week, a) == 0);
	grown[0].rd = 50, grown[1].rd = 80;
	REQUIRE(rating_apply(2, grown, place, t - 5 * week, b) == 0);
	CHECK(same(a, b, 2));
}

static void test_deterministic(void)
{
	struct rating in[6] = { { 1620, 80, 0.06, 3, 1 },   { 1500, 350, 0.06, 0, 0 },
				{ 1450, 120, 0.059, 7, 2 }, { 1710, 60, 0.061, 1, 3 },
				{ 1390, 200, 0.06, 2, 4 },  { 1550, 90, 0.06, 5, 5 } };
	const uint8_t place[6] = { 5, 3, 1, 4, 1, 0 };
	struct rating a[6], b[6], c[6];

	memset(a, 0, sizeof(a)), memset(b, 0xff, sizeof(b)); /* every field must be written */
	REQUIRE(rating_apply(6, in, place, 1000000000, a) == 0);
	REQUIRE(rating_apply(6, in, place, 1000000000, b) == 0);
	CHECK(same(a, b, 6));
	memcpy(c, in, sizeof(in));
	REQUIRE(rating_apply(6, c, place, 1000000000, c) == 0); /* in place */
	CHECK(same(a, c, 6));
	/* n out of range: -EINVAL, nothing written */
	memcpy(c, a, sizeof(a));
	CHECK_EQ(rating_apply(1, in, place, 1, c), -EINVAL);
	CHECK_EQ(rating_apply(7, in, place, 1, c), -EINVAL);
	CHECK(same(c, a, 6));
}

/* --- standings ---------------------------------------------------------------- */

/*
 * The standing a finished Quinteto must have, from what the match reported
 * (the eliminated seats of each outcome, in order) and its result, worked out
 * differently from quinteto_standing(): groups from best to worst, a place
 * being the number of seats in the groups before.
 */
static void quinteto_expected(const struct rules_result *r, const uint8_t *gone, int ngone,
			      bool arranger_left, uint8_t place[6])
{
	int group[6], ngroups = 0, ahead = 0;
	bool placed[6] = { false };

	for (int s = 0; s < 6; s++)
		group[s] = -1;
	if (!r->draw && r->winner >= 0) {
		group[r->winner] = ngroups++;
		placed[r->winner] = true;
	}
	for (int i = 0; i < ngone; i++)
		placed[gone[i]] = true;
	if (arranger_left)
		placed[5] = true;
	for (int s = 0; s < 6; s++)
		if (!placed[s])
			group[s] = ngroups; /* in play at the end */
	ngroups++;
	for (int i = ngone - 1; i >= 0; i--)
		group[gone[i]] = ngroups++;
	if (arranger_left)
		group[5] = ngroups++;
	for (int gi = 0; gi < ngroups; gi++) {
		int n = 0;

		for (int s = 0; s < 6; s++)
			if (group[s] == gi)
				place[s] = (uint8_t)ahead, n++;
		ahead += n;
	}
}

/*
 * Plays a Quinteto at random to its end (seed `salt`); a hunter or the
 * arranger resigns at ply `resign_at` when it still can. Checks the
 * standing; returns the result's reason.
 */
static int quinteto_playout(uint32_t salt, int resign_at, int resign_seat, int max_turns)
{
	const struct rules_game *g = rules_game_find("quinteto");
	struct rules_options opt = { max_turns };
	struct fixture_lcg lcg = { salt };
	uint8_t seed[RULES_SEED_SIZE] = { 0 }, gone[5], place[6], want[6];
	struct rules_match m;
	struct rules_result r;
	union rules_outcome o;
	struct rules_action a;
	bool arranger_left = false;
	int ngone = 0, seat;

	seed[0] = (uint8_t)salt, seed[1] = (uint8_t)(salt >> 8);
	if (rules_match_start(&m, g, seed, &opt) != 0)
		return -1;
	for (int ply = 0; ply < 20000; ply++) {
		if (ply == resign_at && rules_event(&m, resign_seat, RULES_EVENT_RESIGN, &o) == 0) {
			arranger_left = resign_seat == 5 && m.s.quinteto.survivor == QUINTETO_NONE;
			for (int i = 0; i < o.quinteto.neliminated; i++)
				gone[ngone++] = o.quinteto.eliminated[i];
		}
		rules_standing(&m, place);
		if (fixture_pick(&m, &lcg, &seat, &a) != 0)
			break;
		for (int s = 0; s < 6; s++)
			CHECK_EQ(place[s], 0); /* not over: everybody 0 */
		if (rules_apply(&m, seat, &a, &o) != 0)
			return -1;
		for (int i = 0; i < o.quinteto.neliminated; i++)
			gone[ngone++] = o.quinteto.eliminated[i];
	}
	rules_result(&m, &r);
	CHECK(r.over);
	rules_standing(&m, place);
	quinteto_expected(&r, gone, ngone, arranger_left, want);
	if (arranger_left)
		CHECK(r.draw && place[5] == 5); /* alone at the bottom */
	CHECK(memcmp(place, want, sizeof(want)) == 0);
	if (memcmp(place, want, sizeof(want)) != 0 || salt < 3)
		printf("# salt %u reason %d winner %d: %d %d %d %d %d %d (want %d %d %d %d %d %d)\n", salt,
		       r.reason, r.winner, place[0], place[1], place[2], place[3], place[4], place[5],
		       want[0], want[1], want[2], want[3], want[4], want[5]);
	return r.reason;
}

static void test_quinteto_standing(void)
{
	int reasons[16] = { 0 }, r;

	for (uint32_t salt = 0; salt < 24; salt++) {
		/* every third: a hunter resigns early; some matches are cut short by max_turns */
		r = quinteto_playout(salt, salt % 3 == 1 ? 6 + (int)salt : -1, (int)(salt % 5),
				     salt % 4 == 3 ? 12 : 0);
		REQUIRE(r >= 0 && r < 16);
		reasons[r]++;
	}
	printf("# reasons: duel %d, quinteto %d, max_turns %d, resign %d\n", reasons[RULES_REASON_DUEL],
	       reasons[RULES_REASON_QUINTETO], reasons[RULES_REASON_MAX_TURNS], reasons[RULES_REASON_RESIGN]);
	CHECK(reasons[RULES_REASON_DUEL] + reasons[RULES_REASON_QUINTETO] > 0);
	CHECK(reasons[RULES_REASON_MAX_TURNS] > 0);
}

/* The arranger resigns in phase 1: no winner; the living hunters tie first, the arranger is last. */
static void test_quinteto_arranger_resigns(void)
{
	CHECK_EQ(quinteto_playout(7, 3, 5, 0), RULES_REASON_RESIGN);
	CHECK_EQ(quinteto_playout(8, 40, 5, 0), RULES_REASON_RESIGN);
}

/* Plays game `id` at random (resigning seat 0 at `resign_at`, < 0 never) and returns the standing. */
static struct rules_result two_seat(const char *id, uint32_t salt, int resign_at, uint8_t place[6])
{
	struct fixture_lcg lcg = { salt };
	uint8_t seed[RULES_SEED_SIZE] = { (uint8_t)salt };
	struct rules_match m;
	struct rules_result r = { 0 };
	struct rules_action a;
	int seat;

	if (rules_match_start(&m, rules_game_find(id), seed, NULL) != 0)
		return r;
	for (int ply = 0; ply < 20000; ply++) {
		if (ply == resign_at)
			rules_event(&m, 0, RULES_EVENT_RESIGN, NULL);
		if (fixture_pick(&m, &lcg, &seat, &a) != 0 || rules_apply(&m, seat, &a, NULL) != 0)
			break;
	}
	rules_result(&m, &r);
	rules_standing(&m, place);
	return r;
}

static void test_default_standing(void)
{
	static const char *const games[] = { "ur", "laquet", "super15" };
	uint8_t place[6];
	struct rules_match m;
	uint8_t seed[RULES_SEED_SIZE] = { 0 };

	for (int k = 0; k < 3; k++) {
		for (uint32_t salt = 1; salt < 4; salt++) {
			struct rules_result r = two_seat(games[k], salt, -1, place);

			CHECK(r.over);
			if (r.draw)
				CHECK(place[0] == 0 && place[1] == 0);
			else
				CHECK(place[r.winner] == 0 && place[1 - r.winner] == 1);
		}
		/* seat 0 resigns at ply 6: seat 1 first */
		{
			struct rules_result r = two_seat(games[k], 9, 6, place);

			CHECK(r.over && r.winner == 1 && r.reason == RULES_REASON_RESIGN);
			CHECK(place[0] == 1 && place[1] == 0);
		}
		/* not over: everybody 0 */
		REQUIRE(rules_match_start(&m, rules_game_find(games[k]), seed, NULL) == 0);
		memset(place, 7, sizeof(place));
		rules_standing(&m, place);
		CHECK(place[0] == 0 && place[1] == 0);
	}
}

int main(void)
{
	TEST(test_paper_example);
	TEST(test_two_player_is_the_paper);
	TEST(test_symmetric);
	TEST(test_six_seats_by_hand);
	TEST(test_idle_growth);
	TEST(test_deterministic);
	TEST(test_quinteto_standing);
	TEST(test_quinteto_arranger_resigns);
	TEST(test_default_standing);
	return tap_done();
}
