/*
 * arena.c: `quinteto arena`, bot-only matches through the rules core (no
 * server, no database), to measure one bot level against another.
 *
 *   quinteto arena --game G --seats L0,L1[,...] [--matches N] [--threads K]
 *                  [--budget N] [--ms N] [--seed S] [--max-plies N]
 *
 * --seats names one level per seat (the game's seats in order). Levels are
 * alternated over the matches so that no level keeps a seat's advantage: in a
 * two-seat game the two swap every other match; in a game with several seats
 * of one role (Quinteto's five hunters), the levels of those seats rotate
 * one place per match. Match i's seed and every bot's own random stream are
 * derived from --seed and i, so a run with --budget (and no --ms) gives the
 * same table on any number of threads and on any machine.
 *
 * Each line of the table is one entry of --seats: its level, role, matches,
 * wins, draws, losses, score (draws count half) with a 95% Wilson interval,
 * the game's milestone where it has one (Quinteto: the hunter reached the
 * duel), and the move time's median, p99 and maximum. With two entries it
 * ends with the Elo difference of the first over the second and its 95%
 * interval (from the score's).
 */
#include "arena.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "bots.h"
#include "cli.h"
#include "rules.h"

#define ARENA_MAX_THREADS 64
#define ARENA_MAX_MATCHES 1000000

struct arena {
	const struct rules_game *game;
	const struct bot_game *bots; /* the game's hooks (milestone), may be NULL */
	const struct bot_strategy *entry[RULES_MAX_SEATS];
	int entries;
	long matches;
	uint32_t budget;
	long ms; /* per-move time limit, 0: none */
	uint64_t seed;
	long max_plies;
	atomic_long next;
	struct arena_match *results;
	int threads;
};

/* One match's facts, written by the thread that played it. */
struct arena_match {
	int8_t entry_of[RULES_MAX_SEATS]; /* the entry that played each seat */
	struct rules_result result;
	bool unfinished;   /* stopped at --max-plies: counted as a draw */
	uint8_t milestone; /* bit per seat that reached the game's milestone */
	int moves[RULES_MAX_SEATS];
	/* each entry's move times (µs), for the percentiles */
	uint32_t us_max[RULES_MAX_SEATS];
	double us_sum[RULES_MAX_SEATS];
	uint32_t *times[RULES_MAX_SEATS]; /* every move's time, owned */
	int ntimes[RULES_MAX_SEATS], captimes[RULES_MAX_SEATS];
	int err;
};

static uint64_t splitmix(uint64_t *x)
{
	uint64_t z = (*x += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static int64_t now_us(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

struct deadline {
	int64_t at; /* µs, CLOCK_MONOTONIC */
};

static bool past_deadline(void *arg)
{
	return now_us() >= ((struct deadline *)arg)->at;
}

/* Which entry plays each seat in match i (see the comment at the top). */
static void lineup(const struct arena *a, long i, int8_t entry_of[RULES_MAX_SEATS])
{
	const struct rules_game *g = a->game;
	int seats = g->seats;

	for (int s = 0; s < seats; s++)
		entry_of[s] = (int8_t)s;
	if (seats == 2) {
		if (i & 1)
			entry_of[0] = 1, entry_of[1] = 0;
		return;
	}
	for (int s = 0; s < seats; s++) { /* each group of seats with one role rotates by i */
		int group[RULES_MAX_SEATS] = { s }, n = 0;

		for (int t = 0; t < seats; t++)
			if (strcmp(g->roles[t], g->roles[s]) == 0)
				group[n++] = t;
		if (group[0] != s)
			continue; /* the group is handled from its first seat */
		for (int k = 0; k < n; k++)
			entry_of[group[k]] = (int8_t)group[(k + i) % n];
	}
}

static int time_push(struct arena_match *r, int e, uint32_t us)
{
	if (r->ntimes[e] == r->captimes[e]) {
		int cap = r->captimes[e] ? 2 * r->captimes[e] : 256;
		uint32_t *t = realloc(r->times[e], (size_t)cap * sizeof(*t));

		if (!t)
			return -ENOMEM;
		r->times[e] = t;
		r->captimes[e] = cap;
	}
	r->times[e][r->ntimes[e]++] = us;
	if (us > r->us_max[e])
		r->us_max[e] = us;
	r->us_sum[e] += us;
	return 0;
}

static void play_one(struct arena *a, long i, void *mem, size_t memsize, struct arena_match *r)
{
	struct rules_match m;
	uint8_t seed[RULES_SEED_SIZE];
	uint64_t x = a->seed * 0x100000001b3ull + (uint64_t)i, rng[RULES_MAX_SEATS];
	long plies = 0;

	lineup(a, i, r->entry_of);
	for (int k = 0; k < RULES_SEED_SIZE; k += 8) {
		uint64_t v = splitmix(&x);

		memcpy(seed + k, &v, 8);
	}
	for (int s = 0; s < a->game->seats; s++)
		rng[s] = splitmix(&x) | 1;
	if ((r->err = rules_match_start(&m, a->game, seed, NULL)))
		return;
	for (;;) {
		uint8_t to_act[RULES_MAX_SEATS];
		int n = rules_to_act(&m, to_act), seat, e;
		struct rules_action act;
		struct bot_ctx ctx;
		struct deadline dl;
		int64_t t0;

		if (n <= 0)
			break;
		if (plies++ >= a->max_plies) {
			r->unfinished = true;
			break;
		}
		seat = to_act[0]; /* several to act (a roll-off): any order is fair, take the first */
		e = r->entry_of[seat];
		memset(&ctx, 0, sizeof(ctx));
		ctx.rng = rng[seat];
		ctx.budget = a->budget;
		ctx.arena = mem;
		ctx.arena_size = memsize;
		t0 = now_us();
		if (a->ms > 0) {
			dl.at = t0 + a->ms * 1000;
			ctx.stop = past_deadline;
			ctx.stop_arg = &dl;
		}
		r->err = bot_choose(a->entry[e], &m, seat, &ctx, &act);
		if (!r->err && (r->err = time_push(r, e, (uint32_t)(now_us() - t0))) == 0)
			r->err = rules_apply(&m, seat, &act, NULL);
		rng[seat] = ctx.rng;
		if (r->err)
			return;
		r->moves[e]++;
	}
	rules_result(&m, &r->result);
	for (int s = 0; a->bots && a->bots->milestone && s < a->game->seats; s++)
		if (a->bots->milestone(&m, s))
			r->milestone |= (uint8_t)(1u << s);
}

static void *worker(void *arg)
{
	struct arena *a = arg;
	size_t memsize = BOT_ARENA_SIZE;
	void *mem = malloc(memsize);
	long i;

	if (!mem)
		memsize = 0;
	while ((i = atomic_fetch_add(&a->next, 1)) < a->matches)
		play_one(a, i, mem, memsize, &a->results[i]);
	free(mem);
	return NULL;
}

static int cmp_u32(const void *x, const void *y)
{
	uint32_t a = *(const uint32_t *)x, b = *(const uint32_t *)y;

	return a < b ? -1 : a > b;
}

/* The 95% Wilson interval of a proportion p over n trials. */
static void wilson(double p, double n, double *lo, double *hi)
{
	const double z = 1.959964;
	double d = 1 + z * z / n, c = p + z * z / (2 * n),
	       w = z * sqrt(p * (1 - p) / n + z * z / (4 * n * n));

	*lo = (c - w) / d;
	*hi = (c + w) / d;
}

static double elo(double score)
{
	if (score <= 0)
		return -INFINITY;
	if (score >= 1)
		return INFINITY;
	return -400 * log10(1 / score - 1);
}

static int parse_long(const char *s, long lo, long hi, long *out)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || end == s || *end || v < lo || v > hi)
		return -1;
	*out = v;
	return 0;
}

static int usage(const char *why)
{
	fprintf(stderr,
		"quinteto arena: %s\nusage: quinteto arena --game G --seats L0,L1[,...] [--matches N] "
		"[--threads K]\n"
		"                      [--budget N] [--ms N] [--seed S] [--max-plies N]\n",
		why);
	return CLI_E_USAGE;
}

/* Reads --seats: one level per seat of the game. */
static int parse_seats(struct arena *a, char *list)
{
	char *save = NULL;

	a->entries = 0;
	for (char *p = strtok_r(list, ",", &save); p; p = strtok_r(NULL, ",", &save)) {
		char levels[256];

		if (a->entries == RULES_MAX_SEATS)
			return usage("too many levels in --seats");
		if (!(a->entry[a->entries] = bot_find(a->game->id, p))) {
			fprintf(stderr, "quinteto arena: %s has no level \"%s\"", a->game->id, p);
			bot_levels(a->game->id, levels, sizeof(levels));
			fprintf(stderr, " (its levels: %s)\n", levels);
			return CLI_E_USAGE;
		}
		a->entries++;
	}
	if (a->entries != a->game->seats) {
		fprintf(stderr, "quinteto arena: --seats names %d levels; %s has %d seats (%s", a->entries,
			a->game->id, a->game->seats, a->game->roles[0]);
		for (int s = 1; s < a->game->seats; s++)
			fprintf(stderr, ", %s", a->game->roles[s]);
		fprintf(stderr, ")\n");
		return CLI_E_USAGE;
	}
	return 0;
}

/* Prints the table (see the comment at the top). */
static void report(const struct arena *a)
{
	printf("arena: %s, %ld matches, seed %" PRIu64 ", ", a->game->id, a->matches, a->seed);
	if (a->budget)
		printf("budget %" PRIu32 "%s", a->budget, a->ms ? "" : "\n");
	else
		printf("each level's default budget%s", a->ms ? "" : "\n");
	if (a->ms)
		printf(", at most %ld ms a move\n", a->ms);
	printf("%-5s %-10s %-9s %7s %6s %6s %6s %7s %17s %9s %8s %8s %8s\n", "entry", "level", "role",
	       "matches", "wins", "draws", "losses", "score", "95% interval",
	       a->bots && a->bots->milestone_name ? "milestone" : "", "p50 ms", "p99 ms", "max ms");
	for (int e = 0; e < a->entries; e++) {
		long wins = 0, draws = 0, losses = 0, seats = 0, ms = 0, n = 0, k = 0;
		uint32_t *all, mx = 0;
		double score, lo, hi;

		for (long i = 0; i < a->matches; i++)
			n += a->results[i].ntimes[e];
		all = malloc((size_t)(n ? n : 1) * sizeof(*all));
		for (long i = 0; i < a->matches; i++) {
			const struct arena_match *r = &a->results[i];

			for (int s = 0; s < a->game->seats; s++) {
				if (r->entry_of[s] != e)
					continue;
				seats++;
				if (r->unfinished || r->result.draw || r->result.winner < 0)
					draws++;
				else if (r->result.winner == s)
					wins++;
				else
					losses++;
				ms += r->milestone >> s & 1;
			}
			if (all && r->ntimes[e])
				memcpy(all + k, r->times[e], (size_t)r->ntimes[e] * sizeof(*all)),
					k += r->ntimes[e];
			if (r->us_max[e] > mx)
				mx = r->us_max[e];
		}
		score = seats ? (wins + 0.5 * draws) / (double)seats : 0;
		wilson(score, seats ? (double)seats : 1, &lo, &hi);
		if (all)
			qsort(all, (size_t)k, sizeof(*all), cmp_u32);
		printf("%-5d %-10s %-9s %7ld %6ld %6ld %6ld %6.1f%% [%5.1f%%, %5.1f%%]", e,
		       a->entry[e]->level, a->game->seats == 2 ? "both" : a->game->roles[e], seats, wins,
		       draws, losses, 100 * score, 100 * lo, 100 * hi);
		if (a->bots && a->bots->milestone_name)
			printf(" %8.1f%%", seats ? 100.0 * ms / seats : 0);
		else
			printf(" %9s", "");
		printf(" %8.2f %8.2f %8.2f\n", k ? all[k / 2] / 1000.0 : 0,
		       k ? all[(k * 99) / 100] / 1000.0 : 0, mx / 1000.0);
		free(all);
	}
	if (a->bots && a->bots->milestone_name)
		printf("milestone: %s\n", a->bots->milestone_name);
	if (a->entries == 2) {
		long w = 0, d = 0, n = 0;
		double s, lo, hi;

		for (long i = 0; i < a->matches; i++) {
			const struct arena_match *r = &a->results[i];
			int s0 = r->entry_of[0] == 0 ? 0 : 1; /* the seat entry 0 played */

			n++;
			if (r->unfinished || r->result.draw || r->result.winner < 0)
				d++;
			else if (r->result.winner == s0)
				w++;
		}
		s = (w + 0.5 * d) / (double)n;
		wilson(s, (double)n, &lo, &hi);
		printf("elo: %s over %s %+.0f [%+.0f, %+.0f] (95%%; draws count half)\n", a->entry[0]->level,
		       a->entry[1]->level, elo(s), elo(lo), elo(hi));
	}
}

int cli_arena(int argc, char **argv)
{
	struct arena a;
	char *seats = NULL;
	const char *game = NULL;
	long v;
	pthread_t th[ARENA_MAX_THREADS] = { 0 };
	int err = 0;

	memset(&a, 0, sizeof(a));
	a.matches = 400;
	a.seed = 1;
	a.max_plies = 200000;
	a.threads = 0;
	for (int i = 1; i < argc; i++) {
		const char *o = argv[i], *val = i + 1 < argc ? argv[i + 1] : NULL;

		if (!val)
			return usage("an option without its value");
		if (strcmp(o, "--game") == 0)
			game = val;
		else if (strcmp(o, "--seats") == 0)
			seats = argv[i + 1];
		else if (strcmp(o, "--matches") == 0 && !parse_long(val, 1, ARENA_MAX_MATCHES, &v))
			a.matches = v;
		else if (strcmp(o, "--threads") == 0 && !parse_long(val, 1, ARENA_MAX_THREADS, &v))
			a.threads = (int)v;
		else if (strcmp(o, "--budget") == 0 && !parse_long(val, 1, 100000000, &v))
			a.budget = (uint32_t)v;
		else if (strcmp(o, "--ms") == 0 && !parse_long(val, 1, 600000, &v))
			a.ms = v;
		else if (strcmp(o, "--seed") == 0 && !parse_long(val, 0, 0x7fffffffL, &v))
			a.seed = (uint64_t)v;
		else if (strcmp(o, "--max-plies") == 0 && !parse_long(val, 1, 100000000, &v))
			a.max_plies = v;
		else
			return usage("an unknown option or a value out of range");
		i++;
	}
	if (!game || !seats)
		return usage("--game and --seats are required");
	if (!(a.game = rules_game_find(game))) {
		fprintf(stderr, "quinteto arena: no game \"%s\"\n", game);
		return CLI_E_USAGE;
	}
	for (int i = 0; bot_games[i]; i++)
		if (strcmp(bot_games[i]->game, game) == 0)
			a.bots = bot_games[i];
	if ((err = parse_seats(&a, seats)))
		return err;
	if (!a.threads) {
		long c = sysconf(_SC_NPROCESSORS_ONLN);

		a.threads = c < 1 ? 1 : c > ARENA_MAX_THREADS ? ARENA_MAX_THREADS : (int)c;
	}
	if (!(a.results = calloc((size_t)a.matches, sizeof(*a.results))))
		return -ENOMEM;
	atomic_init(&a.next, 0);
	for (int t = 0; t < a.threads; t++)
		if (pthread_create(&th[t], NULL, worker, &a)) {
			a.threads = t;
			break;
		}
	if (!a.threads)
		worker(&a);
	for (int t = 0; t < a.threads; t++)
		pthread_join(th[t], NULL);
	for (long i = 0; i < a.matches && !err; i++)
		if (a.results[i].err) {
			int e = a.results[i].err;

			fprintf(stderr, "quinteto arena: match %ld: %s\n", i,
				e <= RULES_E_ILLEGAL && e > RULES_E_END_ ? rules_strerror(e) : strerror(-e));
			err = CLI_E_MISMATCH;
		}
	if (!err)
		report(&a);
	for (long i = 0; i < a.matches; i++)
		for (int e = 0; e < RULES_MAX_SEATS; e++)
			free(a.results[i].times[e]);
	free(a.results);
	return err;
}
