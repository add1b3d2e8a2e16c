/*
 * rating.c: Glicko-2 (Glickman, "Example of the Glicko-2 system") and its
 * use for a match of up to six seats (rating.h, docs/RATINGS.md).
 *
 * Must not: allocate, read a clock, or depend on anything but its inputs:
 * the server's live update and `quinteto ratings rebuild` link this one
 * object and must write the same doubles. The build compiles it with
 * -ffp-contract=off so that no compiler fuses a multiply and an add here and
 * not there; the order of every sum is fixed (seat order).
 */
#include <errno.h>
#include <math.h>
#include <string.h>

#include "rating.h"

#define SCALE    173.7178 /* the paper's Glicko <-> Glicko-2 factor */
#define EPSILON  1e-6     /* the volatility iteration's convergence tolerance */
#define MAX_ITER 200      /* the paper converges in about ten: a bound, never reached in practice */

/* The paper's g(phi). */
static double g_of(double phi)
{
	return 1.0 / sqrt(1.0 + 3.0 * phi * phi / (M_PI * M_PI));
}

/* The paper's E(mu, mu_j, phi_j). */
static double expect(double mu, double mu_j, double g_j)
{
	return 1.0 / (1.0 + exp(-g_j * (mu - mu_j)));
}

/* The paper's f(x) for the volatility (step 5.1). */
static double vol_f(double x, double delta, double phi, double v, double a, double tau)
{
	double ex = exp(x), d = phi * phi + v + ex;

	return ex * (delta * delta - phi * phi - v - ex) / (2.0 * d * d) - (x - a) / (tau * tau);
}

/* Step 5: the new volatility sigma' by the Illinois algorithm. */
static double volatility(double sigma, double phi, double v, double delta, double tau)
{
	double a = log(sigma * sigma), A = a, B, C, fA, fB, fC;
	int k = 1, iter = 0;

	if (delta * delta > phi * phi + v) {
		B = log(delta * delta - phi * phi - v);
	} else {
		while (vol_f(a - k * tau, delta, phi, v, a, tau) < 0 && k < MAX_ITER)
			k++;
		B = a - k * tau;
	}
	fA = vol_f(A, delta, phi, v, a, tau);
	fB = vol_f(B, delta, phi, v, a, tau);
	while (fabs(B - A) > EPSILON && iter++ < MAX_ITER) {
		C = A + (A - B) * fA / (fB - fA);
		fC = vol_f(C, delta, phi, v, a, tau);
		/* <= rather than <: with fC exactly 0 the bracket still closes (the paper's 2022 text) */
		if (fC * fB <= 0) {
			A = B;
			fA = fB;
		} else {
			fA = fA / 2.0;
		}
		B = C;
		fB = fC;
	}
	return exp(A / 2.0);
}

/* One rating period; see rating.h. */
void rating_period(const struct rating *p, int m, const struct rating opp[], const double score[],
		   const double weight[], double tau, struct rating *out)
{
	double mu = (p->rating - 1500.0) / SCALE, phi = p->rd / SCALE, sigma = p->vol;
	double v_inv = 0.0, improve = 0.0, v, delta, sigma2, phi_star, phi2;
	struct rating r = *p;

	if (m <= 0) {
		r.rd = sqrt(phi * phi + sigma * sigma) * SCALE;
		*out = r;
		return;
	}
	for (int j = 0; j < m; j++) {
		double g = g_of(opp[j].rd / SCALE);
		double e = expect(mu, (opp[j].rating - 1500.0) / SCALE, g);

		v_inv += weight[j] * g * g * e * (1.0 - e);
		improve += weight[j] * g * (score[j] - e);
	}
	v = 1.0 / v_inv;
	delta = v * improve;
	sigma2 = volatility(sigma, phi, v, delta, tau);
	phi_star = sqrt(phi * phi + sigma2 * sigma2);
	phi2 = 1.0 / sqrt(1.0 / (phi_star * phi_star) + 1.0 / v);
	r.rating = (mu + phi2 * phi2 * improve) * SCALE + 1500.0;
	r.rd = phi2 * SCALE;
	r.vol = sigma2;
	*out = r;
}

/* The deviation after the idle periods from p->last_at to `at` (rating.h), capped at RATING_RD_MAX. */
static double idle_rd(const struct rating *p, int64_t at)
{
	double phi = p->rd / SCALE, phi_max = RATING_RD_MAX / SCALE, periods;

	if (p->last_at <= 0 || at <= p->last_at || p->rd >= RATING_RD_MAX)
		return p->rd;
	periods = (double)((at - p->last_at) / RATING_IDLE_PERIOD_MS);
	phi = sqrt(phi * phi + periods * p->vol * p->vol);
	return phi < phi_max ? phi * SCALE : RATING_RD_MAX;
}

/* A match of n seats as n rating periods of pairwise results; see rating.h. */
int rating_apply(int n, const struct rating before[], const uint8_t place[], int64_t at,
		 struct rating after[])
{
	struct rating aged[RATING_MAX_SEATS], next[RATING_MAX_SEATS], opp[RATING_MAX_SEATS - 1];
	double score[RATING_MAX_SEATS - 1], weight[RATING_MAX_SEATS - 1];

	if (n < 2 || n > RATING_MAX_SEATS)
		return -EINVAL;
	for (int i = 0; i < n; i++) {
		aged[i] = before[i];
		aged[i].rd = idle_rd(&before[i], at);
	}
	for (int i = 0; i < n; i++) {
		int m = 0;

		for (int j = 0; j < n; j++) {
			if (j == i)
				continue;
			opp[m] = aged[j];
			score[m] = place[i] < place[j] ? 1.0 : place[i] == place[j] ? 0.5 : 0.0;
			weight[m] = 1.0 / (double)(n - 1);
			m++;
		}
		rating_period(&aged[i], m, opp, score, weight, RATING_TAU, &next[i]);
		next[i].matches = before[i].matches + 1;
		next[i].last_at = at;
	}
	memcpy(after, next, (size_t)n * sizeof(next[0]));
	return 0;
}
