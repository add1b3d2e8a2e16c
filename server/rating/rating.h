/*
 * rating.h: Glicko-2 ratings per game (docs/RATINGS.md). Pure C: no I/O, no
 * allocation, no clock; the same inputs give the same doubles on every run
 * of one build, so the server (which applies a rated match when it is
 * archived) and `quinteto ratings rebuild` (which replays every rated match
 * of the archive in rated_seq order), linking the same object, write
 * identical numbers.
 *
 * Every rated match is a rating period of its own. A match of n seats
 * (2..RATING_MAX_SEATS) is turned into pairwise results from its standing
 * (rules_standing(): 0 first, equal places tied): each seat scores 1, 0.5 or
 * 0 against each other seat for a better, equal or worse place, each pair
 * weighted 1 / (n - 1), so a six-seat match moves a rating about as much as
 * one two-player game, and n = 2 is exactly Glickman's paper. Time without
 * play widens the deviation: one empty rating period per full
 * RATING_IDLE_PERIOD_MS from the player's last rated match (last_at) to this
 * one's end (the archive's own timestamps, never the clock), up to
 * RATING_RD_MAX.
 */
#ifndef QUINTETO_RATING_H
#define QUINTETO_RATING_H

#include <stdbool.h>
#include <stdint.h>

#define RATING_MAX_SEATS 6

/* A player's rating in one game, on the Glicko scale (a new one: RATING_INIT). */
struct rating {
	double rating;   /* 1500 for a new player */
	double rd;       /* rating deviation, 350 for a new player */
	double vol;      /* volatility sigma, 0.06 for a new player */
	int32_t matches; /* rated matches counted */
	int64_t last_at; /* Unix ms: ended_at of the last one; 0 before any */
};

#define RATING_INIT ((struct rating){ 1500.0, 350.0, 0.06, 0, 0 })

/* A rating whose rd is above this is provisional (shown with a "?", listed after the others). */
#define RATING_PROVISIONAL_RD 110.0

/* One empty rating period per this much time without a rated match (a week, in Unix ms). */
#define RATING_IDLE_PERIOD_MS (7LL * 24 * 60 * 60 * 1000)

/* Idle time never widens a deviation beyond a new player's. */
#define RATING_RD_MAX 350.0

/*
 * Applies one rated match that ended at `at` (Unix ms) to the ratings of its
 * n seats: before[i] is seat i's rating before it, place[i] its standing (0
 * best; seats with equal places drew); writes after[i] (after may be before:
 * every after[] is computed from the before[] of all seats first). Each
 * seat's deviation first grows for its idle periods (see above), then the
 * seat plays one rating period against the other n - 1 as they were (grown
 * too) before the match; after[i].matches is one more, after[i].last_at is
 * `at`. n outside 2..RATING_MAX_SEATS: returns -EINVAL and writes nothing;
 * else 0.
 */
int rating_apply(int n, const struct rating before[], const uint8_t place[], int64_t at,
		 struct rating after[]);

/*
 * One Glicko-2 rating period of the paper (Glickman, "Example of the Glicko-2
 * system"), exposed for its worked example: player p against m opponents
 * opp[j] with scores score[j] (1 win, 0.5 draw, 0 loss) each weighted
 * weight[j] (1 in the paper; both the variance v and the improvement delta
 * sum w * ...); tau the system constant; the volatility by the paper's
 * Illinois iteration to 1e-6. m == 0: only the deviation grows (by one
 * period of p's volatility, with no cap). Writes rating, rd and vol of *out
 * (out may be p); matches and last_at are copied from p.
 */
void rating_period(const struct rating *p, int m, const struct rating opp[], const double score[],
		   const double weight[], double tau, struct rating *out);

/* The system constant tau the server uses (docs/RATINGS.md). */
#define RATING_TAU 0.5

#endif
