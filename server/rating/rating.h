/*
 * rating.h: Glicko-2 ratings per game (docs/RATINGS.md). Pure C: no I/O, no
 * allocation, no clock; the same inputs give the same doubles on every run,
 * so the server (which applies a rated match when it is archived) and
 * `quinteto ratings rebuild` (which replays every rated match of the archive
 * in rated_seq order) write identical numbers.
 *
 * A match of n seats (2..RATING_MAX_SEATS) is turned into pairwise results
 * from its standing (rules_standing(): 0 first, equal places tied) and each
 * player's rating is updated as one Glicko-2 rating period against the n - 1
 * others (docs/RATINGS.md says how the six-seat Quinteto is weighted).
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

/*
 * Applies one rated match that ended at `at` (Unix ms) to the ratings of its
 * n seats: before[i] is seat i's rating before it, place[i] its standing (0
 * best; seats with equal places drew); writes after[i] (after may be before).
 * n outside 2..RATING_MAX_SEATS: returns -EINVAL and writes nothing; else 0.
 */
int rating_apply(int n, const struct rating before[], const uint8_t place[], int64_t at,
		 struct rating after[]);

/*
 * One Glicko-2 rating period of the paper (Glickman, "Example of the Glicko-2
 * system"), exposed for its worked example: player p against m opponents
 * opp[j] with scores score[j] (1 win, 0.5 draw, 0 loss) each weighted
 * weight[j] (1 in the paper); tau the system constant. m == 0: only the
 * deviation grows. Writes rating, rd and vol of *out; matches and last_at are
 * copied from p.
 */
void rating_period(const struct rating *p, int m, const struct rating opp[], const double score[],
		   const double weight[], double tau, struct rating *out);

/* The system constant tau the server uses (docs/RATINGS.md). */
#define RATING_TAU 0.5

#endif
