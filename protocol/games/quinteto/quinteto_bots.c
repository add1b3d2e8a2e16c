/*
 * quinteto_bots.c: the `greedy` level of Quinteto. A hunter (and the
 * arranger in the duel) tries every legal plan on a copy of the match and
 * keeps the best by a fixed score: captures, kills and eliminations first, a
 * win above all, then shelter (its stones out of its hunter's reach: in limbo,
 * or in a room with another player's stone) and threat (its stones within
 * reach of its victim's lone stones). The arranger sets the chain that keeps
 * every hunter farthest from its victim, and places its stones on the home
 * farthest from the survivor. Ties go to the seat's random stream.
 * Must not: allocate (thread-local scratch) or look at the dice
 * stream: a choice depends on the visible position only.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "bots.h"

#define FAR 24 /* farther than any ring distance (12 at most on 25 rooms) */

static BOT_THREAD_LOCAL struct rules_action legal_buf[RULES_MAX_LEGAL];

static int ring_dist(int a, int b)
{
	int d = abs(a - b) % QUINTETO_ROOMS;

	return d < QUINTETO_ROOMS - d ? d : QUINTETO_ROOMS - d;
}

/* The room n steps clockwise (n < 0: counter-clockwise) of room r. */
static int ring_add(int r, int n)
{
	return ((r + n) % QUINTETO_ROOMS + QUINTETO_ROOMS) % QUINTETO_ROOMS;
}

/*
 * True if room `room` holds stones of `seat` only (a landing of its hunter
 * there captures), not counting the stones of the seats in `gone` (a bit per
 * seat: those that move before the hunter does, whose shelter may leave).
 */
static bool lone_but(const struct quinteto_state *s, int seat, int room, unsigned gone)
{
	for (int k = 0; k < QUINTETO_STONES; k++)
		if (s->loc[k] == room && k / 3 != seat && !(gone >> (k / 3) & 1))
			return false;
	return true;
}

/* The seat that hunts `seat`, or QUINTETO_NONE. */
static int hunter_of(const struct quinteto_state *s, int seat)
{
	for (int h = 0; h < RULES_MAX_SEATS; h++)
		if (h != seat && quinteto_victim(s, h) == seat)
			return h;
	return QUINTETO_NONE;
}

/*
 * What one turn of seat `x` can do to seat `y` (x's victim), worked out per
 * roll from the rules' plan structure (README "Turn"): a stone on the ring
 * moves the sum either way; each die moves one stone either way, or exits a
 * limbo stone onto x's home, or (the duel, a 5) kills a ring stone of y; one
 * die alone only when no plan uses both. A landing captures the stones of a
 * room holding y's stones only.
 */
struct attack {
	int nring, ring[2], stone[2]; /* x's stones on the ring: rooms, ids */
	int nlimbo, home;             /* x's stones in limbo, the room their exit lands on */
	bool kills;                   /* the duel: a die showing 5 may kill */
	int gain[QUINTETO_ROOMS];     /* y's stones a landing there captures (0: none, or not y's alone) */
	int left_gain[2];             /* ... in x's ring stone j's room, once that stone has left it */
	int yring, ylimbo;            /* y's stones on the ring, in limbo */
};

static void attack_init(const struct quinteto_state *s, int x, int y, unsigned gone, struct attack *at)
{
	memset(at, 0, sizeof(*at));
	at->home = x == QUINTETO_ARRANGER ? s->home : 5 * x + 2;
	at->kills = s->phase == QUINTETO_PHASE_DUEL;
	for (int j = 0; j < 2; j++) {
		int px = s->loc[3 * x + j], py = s->loc[3 * y + j];

		if (px < QUINTETO_ROOMS) {
			at->stone[at->nring] = 3 * x + j;
			at->ring[at->nring++] = px;
		} else if (px == QUINTETO_LIMBO)
			at->nlimbo++;
		if (py < QUINTETO_ROOMS) {
			at->yring++;
			if (lone_but(s, y, py, gone))
				at->gain[py]++;
		} else if (py == QUINTETO_LIMBO) {
			at->ylimbo++;
		}
	}
	for (int j = 0; j < at->nring; j++) {
		int room = at->ring[j], ys = 0;
		bool only_y = true;

		for (int k = 0; k < QUINTETO_STONES; k++) {
			if (s->loc[k] != room || k == at->stone[j])
				continue;
			ys += k / 3 == y;
			only_y &= k / 3 == y || (gone >> (k / 3) & 1);
		}
		at->left_gain[j] = only_y ? ys : 0;
	}
}

/* The rooms a step with die v by x's subject j (0, 1: ring stones; 2: a limbo stone) lands on: 1 or 2. */
static int step_rooms(const struct attack *at, int j, int v, int room[2])
{
	if (j == 2) {
		room[0] = at->home;
		return at->home < QUINTETO_ROOMS;
	}
	room[0] = ring_add(at->ring[j], v);
	room[1] = ring_add(at->ring[j], -v);
	return 2;
}

/* y's stones captured by a landing in `room`, once x's subject `left` (-1: none) has left its room. */
static int landing_gain(const struct attack *at, int room, int left)
{
	if (left >= 0 && left < 2 && room == at->ring[left])
		return at->left_gain[left];
	return at->gain[room];
}

/* The most stones of y that x removes with the roll (a, b): 0, 1 or 2 (all of y's ring stones). */
static int attack_roll(const struct attack *at, int a, int b)
{
	int subj[3], nsubj = 0, best = 0, pairs = 0;

	for (int j = 0; j < at->nring; j++)
		subj[nsubj++] = j;
	if (at->nlimbo)
		subj[nsubj++] = 2;
	for (int j = 0; j < at->nring; j++) { /* the sum */
		int r1 = ring_add(at->ring[j], a + b), r2 = ring_add(at->ring[j], -(a + b));
		int g = at->gain[r1] > at->gain[r2] ? at->gain[r1] : at->gain[r2];

		best = g > best ? g : best;
	}
	for (int o = 0; o < 2; o++) { /* die v1 first, then v2 */
		int v1 = o ? b : a, v2 = o ? a : b;

		for (int i = 0; i < nsubj; i++) {
			int rooms1[2], n1 = step_rooms(at, subj[i], v1, rooms1);

			for (int x1 = 0; x1 < n1; x1++) {
				int g1 = at->gain[rooms1[x1]];

				for (int k = 0; k < nsubj; k++) {
					int rooms2[2], n2;

					if (k == i)
						continue;
					n2 = step_rooms(at, subj[k], v2, rooms2);
					pairs++;
					for (int x2 = 0; x2 < n2; x2++) {
						/* a room x's first stone landed on holds x's stone now: no
						 * capture there */
						int g2 = rooms2[x2] == rooms1[x1]
								 ? 0
								 : landing_gain(at, rooms2[x2], subj[i]);

						best = g1 + g2 > best ? g1 + g2 : best;
					}
				}
				if (at->kills && v2 == 5 &&
				    at->yring > 0) { /* a move, then a kill with the other die */
					pairs++;
					best = g1 + 1 > best ? g1 + 1 : best;
				}
			}
		}
		if (at->kills && v1 == 5 && v2 == 5 && at->yring > 0) {
			pairs++;
			best = best > 2 ? best : 2;
		}
	}
	if (at->nring == 0 && pairs == 0) /* no plan uses both dice: one die alone */
		for (int i = 0; i < nsubj; i++)
			for (int o = 0; o < 2; o++) {
				int rooms[2], n = step_rooms(at, subj[i], o ? b : a, rooms);

				for (int x = 0; x < n; x++)
					best = at->gain[rooms[x]] > best ? at->gain[rooms[x]] : best;
			}
	return best < at->yring ? best : at->yring;
}

/*
 * Over the 36 rolls of one turn of `x` against its victim `y`: the rolls
 * with which x captures at least one stone (*hit) and those with which it
 * removes every stone y has (*all: y eliminated, or loses the duel).
 */
static void attack_odds(const struct quinteto_state *s, int x, int y, unsigned gone, int *hit, int *all)
{
	struct attack at;

	*hit = *all = 0;
	if (x == QUINTETO_NONE || y == QUINTETO_NONE)
		return;
	attack_init(s, x, y, gone, &at);
	if (at.yring == 0)
		return;
	for (int a = 1; a <= 6; a++)
		for (int b = 1; b <= 6; b++) {
			int r = attack_roll(&at, a, b);

			*hit += r > 0;
			*all += r > 0 && r == at.yring && at.ylimbo == 0;
		}
}

/* The rolls (of 36) with which one turn of `from` captures a stone of `to`, its victim (0 if none). */
static int reach(const struct quinteto_state *s, int from, int to)
{
	int hit, all;

	attack_odds(s, from, to, 0, &hit, &all);
	return hit;
}

/* The position after a plan, from `seat`'s side. */
static long plan_score(const struct rules_match *after, int seat, const struct quinteto_outcome *o)
{
	const struct quinteto_state *s = &after->s.quinteto;
	struct rules_result r;
	long score = 0;

	rules_result(after, &r);
	if (r.over && !r.draw)
		return r.winner == seat ? 1000000 : -1000000;
	score += 1000 * (o->ncaptured + o->nkilled) + 3000 * o->neliminated;
	score -= 10 * reach(s, hunter_of(s, seat), seat);  /* 0..360 */
	score += reach(s, seat, quinteto_victim(s, seat)); /* 0..36 */
	return score;
}

/* Keeps `cand` as *best when it scores higher, or ties and wins a fair draw (reservoir of ties). */
static void keep(long score, const struct rules_action *cand, long *best, int *ties, uint64_t *rng,
		 struct rules_action *out)
{
	if (*ties > 0 && score < *best)
		return;
	if (*ties == 0 || score > *best) {
		*best = score;
		*ties = 0;
	}
	if (bot_rng_next(rng) % (uint64_t)++ * ties == 0)
		*out = *cand;
}

static void plan_pick(const struct rules_match *m, int seat, int n, uint64_t *rng, struct rules_action *out)
{
	long best = 0;
	int ties = 0;

	for (int i = 0; i < n; i++) {
		struct rules_match after;
		union rules_outcome o;

		memcpy(&after, m, sizeof(after));
		if (rules_apply(&after, seat, &legal_buf[i], &o) != 0)
			continue;
		keep(plan_score(&after, seat, &o.quinteto), &legal_buf[i], &best, &ties, rng, out);
	}
}

/* The nearest ring distance between a stone of `a` and one of `b`; FAR when either has none. */
static int seats_apart(const struct quinteto_state *s, int a, int b)
{
	int d = FAR;

	for (int i = 0; i < 2; i++)
		for (int j = 0; j < 2; j++)
			if (s->loc[3 * a + i] < QUINTETO_ROOMS && s->loc[3 * b + j] < QUINTETO_ROOMS)
				if (ring_dist(s->loc[3 * a + i], s->loc[3 * b + j]) < d)
					d = ring_dist(s->loc[3 * a + i], s->loc[3 * b + j]);
	return d;
}

/* A chain that keeps hunters apart: the arrangement with the largest hunter-to-victim distances. */
static void arrange_pick(const struct rules_match *m, int n, uint64_t *rng, struct rules_action *out)
{
	const struct quinteto_state *s = &m->s.quinteto;
	long best = 0;
	int ties = 0;

	for (int i = 0; i < n; i++) {
		const struct rules_action *a = &legal_buf[i];
		int k = a->arg[0], sum = 0, worst = FAR;

		for (int j = 0; j < k; j++) {
			int d = seats_apart(s, a->arg[1 + j], a->arg[1 + (j + 1) % k]);

			sum += d;
			worst = d < worst ? d : worst;
		}
		keep(100L * worst + sum, a, &best, &ties, rng, out);
	}
}

/* The duel's home farthest from the survivor's stones (its limbo stones come back on its home). */
static void place_pick(const struct rules_match *m, int n, uint64_t *rng, struct rules_action *out)
{
	const struct quinteto_state *s = &m->s.quinteto;
	int sv = s->survivor;
	long best = 0;
	int ties = 0;

	for (int i = 0; i < n; i++) {
		int home = 5 * legal_buf[i].arg[0] + 2, d = FAR;

		for (int j = 0; j < 2; j++) {
			int at = s->loc[3 * sv + j] == QUINTETO_LIMBO ? 5 * sv + 2 : s->loc[3 * sv + j];

			if (at < QUINTETO_ROOMS && ring_dist(at, home) < d)
				d = ring_dist(at, home);
		}
		keep(d, &legal_buf[i], &best, &ties, rng, out);
	}
}

static int greedy_choose(const struct rules_match *m, int seat, struct bot_ctx *ctx, struct rules_action *out)
{
	uint64_t *rng = &ctx->rng;
	int n = rules_legal_actions(m, seat, legal_buf, RULES_MAX_LEGAL);

	if (n <= 0 || n > RULES_MAX_LEGAL)
		return -ENOENT;
	*out = legal_buf[0];
	if (n == 1)
		return 0;
	switch (legal_buf[0].kind) {
	case QUINTETO_ACT_ARRANGE:
		arrange_pick(m, n, rng, out);
		break;
	case QUINTETO_ACT_PLACE:
		place_pick(m, n, rng, out);
		break;
	case QUINTETO_ACT_PLAN:
		plan_pick(m, seat, n, rng, out);
		break;
	}
	return 0;
}

/* Quinteto's `greedy` level (bots.h). */
const struct bot_strategy bot_quinteto_greedy = { "quinteto", "greedy", greedy_choose };

/*
 * protocol.md (Clocks): the arrangement the server plays for an arranger
 * whose clock ran out while it must arrange: the current chain kept (the
 * living hunters in circle order), or the living hunters in seat order
 * before the first arrangement. -ENOENT when the arranger is not to arrange.
 */
static int keep_chain(const struct rules_match *m, int seat, struct rules_action *out)
{
	const struct quinteto_state *s = &m->s.quinteto;
	int n = rules_legal_actions(m, seat, legal_buf, RULES_MAX_LEGAL), i, k = 0;
	uint8_t living = 0;

	if (n <= 0 || legal_buf[0].kind != QUINTETO_ACT_ARRANGE)
		return -ENOENT;
	for (i = 1; i <= legal_buf[0].arg[0]; i++) /* every arrangement names exactly the living hunters */
		living |= (uint8_t)(1u << legal_buf[0].arg[i]);
	memset(out, 0, sizeof(*out));
	out->kind = QUINTETO_ACT_ARRANGE;
	for (i = 0; s->arranged && i < QUINTETO_HUNTERS; i++)
		if (s->circle[i] < QUINTETO_HUNTERS && (living >> s->circle[i] & 1)) {
			out->arg[++k] = s->circle[i];
			living &= (uint8_t) ~(1u << s->circle[i]);
		}
	for (i = 0; i < QUINTETO_HUNTERS; i++) /* seat order: the first time, or anyone not on the circle */
		if (living >> i & 1)
			out->arg[++k] = (int16_t)i;
	out->arg[0] = (int16_t)k;
	for (i = 0; i < n; i++)
		if (rules_action_equal(&legal_buf[i], out))
			return 0;
	*out = legal_buf[0]; /* cannot happen: every order of the living hunters is legal */
	return 0;
}

/*
 * --- `strong`: every legal action weighed by what the next turns can do to
 * it, exactly over the 36 rolls (attack_odds), and by what lasts longer: a
 * stone in limbo (never captured), a stone sheltered with another player's,
 * the stones left. A hunter keeps its stones out of its hunter's landings and
 * one stone in limbo where it can; the arranger weighs every chain by how
 * exposed it leaves each hunter to its new hunter (the hunters thin out one
 * another quickly, and the survivor comes out weak), places its stones where
 * the survivor's next turn cannot reach them, and duels by the same weighing
 * with kills and the 1-in-36 Quinteto counted.
 * The work unit is one seat's next turn weighed over its 36 rolls in one
 * candidate position (budget: the most of them per move).
 */
#define STRONG_BUDGET 4096 /* more than any move needs (120 chains x 5 hunters): a full search */
#define BIG           1000000L
#define ROLLS         36

/* The stones `seat` has on the ring, in limbo. */
static void stones_of(const struct quinteto_state *s, int seat, int *ring, int *limbo)
{
	*ring = *limbo = 0;
	for (int j = 0; j < 2; j++) {
		*ring += s->loc[3 * seat + j] < QUINTETO_ROOMS;
		*limbo += s->loc[3 * seat + j] == QUINTETO_LIMBO;
	}
}

/*
 * In the hunt, the hunters other than `seat` who play before `foe` does (a
 * bit per seat): their stones may have left a room by the time `foe` lands.
 */
static unsigned movers_before(const struct quinteto_state *s, int seat, int foe)
{
	unsigned gone = 0;

	if (s->phase != QUINTETO_PHASE_HUNT || foe >= QUINTETO_HUNTERS)
		return 0;
	for (int t = s->turn, j = 0; t != foe && j < QUINTETO_HUNTERS; t = (t + 1) % QUINTETO_HUNTERS, j++)
		if (t != seat)
			gone |= 1u << t;
	return gone;
}

/*
 * How well `seat` stands, from its side: its stones (one held in limbo while
 * another stays on the ring is safe for good), what its hunter's next turn
 * takes with how many of the 36 rolls (all of them: out of the match), and a
 * little for its own threat on its victim. *units counts the turns weighed.
 */
static long standing(const struct quinteto_state *s, int seat, uint32_t *units)
{
	int ring, limbo, hit, all, vhit, vall;
	int foe = seat == QUINTETO_ARRANGER || seat == s->survivor ? quinteto_victim(s, seat)
								   : hunter_of(s, seat);
	long score;

	stones_of(s, seat, &ring, &limbo);
	if (ring + limbo == 0)
		return -BIG;
	score = 4000L * (ring + limbo) + (limbo == 1 && ring == 1 ? 1500 : 0);
	attack_odds(s, foe, seat, movers_before(s, seat, foe), &hit, &all);
	attack_odds(s, seat, quinteto_victim(s, seat), 0, &vhit, &vall);
	*units += 2;
	if (s->phase == QUINTETO_PHASE_DUEL) {
		/* the foe's roll of 5 and 5 wins it the match outright */
		return score - (24000L * (all + 1) + 3000L * (hit - all)) / ROLLS +
		       (6000L * vall + 800L * vhit) / ROLLS;
	}
	return score - (12000L * all + 3000L * (hit - all)) / ROLLS + 50L * vhit / ROLLS;
}

/* A hunter's or duellist's candidate after its plan (or the arranger's after `place`). */
static long strong_after(const struct rules_match *after, int seat, const struct quinteto_outcome *o,
			 uint32_t *units)
{
	const struct quinteto_state *s = &after->s.quinteto;
	struct rules_result r;
	long score;

	rules_result(after, &r);
	if (r.over)
		return r.draw ? 0 : r.winner == seat ? BIG : -BIG;
	if (seat < QUINTETO_HUNTERS && s->survivor == seat && s->phase == QUINTETO_PHASE_PLACE)
		return BIG / 2; /* phase 1 won */
	score = standing(s, seat, units);
	if (s->phase == QUINTETO_PHASE_DUEL || s->phase == QUINTETO_PHASE_PLACE) {
		int opp = quinteto_victim(s, seat), ring, limbo;

		if (opp != QUINTETO_NONE) {
			stones_of(s, opp, &ring, &limbo);
			score -= 4000L * (ring + limbo);
		}
	} else {
		score += 600L * o->ncaptured + 1500L * o->neliminated; /* the field thins out */
	}
	return score;
}

/*
 * The arranger's chain: the hunters' standing summed from the arranger's
 * side (each hunter's exposure to the hunter the chain gives it counts for
 * the arranger: captures thin the field and weaken the survivor).
 */
static long chain_score(const struct rules_match *m, const struct rules_action *a, uint32_t *units)
{
	struct rules_match after;
	const struct quinteto_state *s = &after.s.quinteto;
	long score = 0;

	memcpy(&after, m, sizeof(after));
	if (rules_apply(&after, QUINTETO_ARRANGER, a, NULL) != 0)
		return -BIG;
	for (int j = 0; j < a->arg[0]; j++) {
		int h = a->arg[1 + j], hit, all;

		attack_odds(s, hunter_of(s, h), h, 0, &hit, &all);
		score += 3L * all + hit;
		(*units)++;
	}
	return score;
}

/*
 * Each seat's chance to win as the strong bot sees it: in phase 1 the
 * arranger wins most matches (STRONG_ARRANGER_SHARE, measured), the rest
 * shared among the living hunters by their stones and safety; in the duel, by
 * the two sides' standing.
 */
#define ARRANGER_SHARE 0.80f

static float clamp01(float x)
{
	return x < 0.02f ? 0.02f : x > 0.98f ? 0.98f : x;
}

static void strong_estimate(const struct rules_match *m, struct bot_ctx *ctx)
{
	const struct quinteto_state *s = &m->s.quinteto;
	struct rules_result r;
	uint32_t units = 0;

	memset(ctx->estimate, 0, sizeof(ctx->estimate));
	ctx->has_estimate = true;
	rules_result(m, &r);
	if (r.over) {
		for (int i = 0; i < RULES_MAX_SEATS; i++)
			ctx->estimate[i] = r.draw ? 1.0f / RULES_MAX_SEATS : (float)(r.winner == i);
		return;
	}
	if (s->survivor != QUINTETO_NONE) {
		int sv = s->survivor;
		long d = s->phase == QUINTETO_PHASE_DUEL
				 ? standing(s, sv, &units) - standing(s, QUINTETO_ARRANGER, &units)
				 : 0;
		float x = (float)d / 16000.0f, p = 0.5f + 0.5f * x / (1.0f + (x < 0 ? -x : x));

		if (s->phase == QUINTETO_PHASE_PLACE)
			p = 1.0f - ARRANGER_SHARE;
		ctx->estimate[sv] = clamp01(p);
		ctx->estimate[QUINTETO_ARRANGER] = 1.0f - ctx->estimate[sv];
		return;
	}
	{
		float w[QUINTETO_HUNTERS], sum = 0;

		for (int h = 0; h < QUINTETO_HUNTERS; h++) {
			int ring, limbo, hit, all;

			stones_of(s, h, &ring, &limbo);
			w[h] = 0;
			if (ring + limbo == 0)
				continue;
			attack_odds(s, hunter_of(s, h), h, 0, &hit, &all);
			w[h] = (float)((ring + limbo) * (ring + limbo) + (limbo == 1 && ring == 1)) *
			       (float)(2 * ROLLS - hit - all) / (float)(2 * ROLLS);
			sum += w[h];
		}
		ctx->estimate[QUINTETO_ARRANGER] = sum > 0 ? ARRANGER_SHARE : 1.0f;
		for (int h = 0; h < QUINTETO_HUNTERS && sum > 0; h++)
			ctx->estimate[h] = (1.0f - ARRANGER_SHARE) * w[h] / sum;
	}
}

static bool stopped(const struct bot_ctx *ctx)
{
	return ctx->stop && ctx->stop(ctx->stop_arg);
}

static int strong_choose(const struct rules_match *m, int seat, struct bot_ctx *ctx, struct rules_action *out)
{
	uint32_t budget = ctx->budget ? ctx->budget : STRONG_BUDGET, units = 0;
	int n = rules_legal_actions(m, seat, legal_buf, RULES_MAX_LEGAL), ties = 0;
	long best = 0;

	if (n <= 0 || n > RULES_MAX_LEGAL)
		return -ENOENT;
	*out = legal_buf[0];
	for (int i = 0; n > 1 && i < n && units < budget; i++) {
		struct rules_match after;
		union rules_outcome o;
		long score;

		if (i > 0 && stopped(ctx))
			break;
		if (legal_buf[i].kind == QUINTETO_ACT_ARRANGE) {
			score = chain_score(m, &legal_buf[i], &units);
		} else {
			memcpy(&after, m, sizeof(after));
			if (rules_apply(&after, seat, &legal_buf[i], &o) != 0)
				continue;
			score = strong_after(&after, seat, &o.quinteto, &units);
		}
		keep(score, &legal_buf[i], &best, &ties, &ctx->rng, out);
	}
	ctx->spent = units;
	strong_estimate(m, ctx);
	return 0;
}

/* Quinteto's `strong` level (bots.h). */
const struct bot_strategy bot_quinteto_strong = { "quinteto", "strong", strong_choose };

/* The arena's milestone: the hunter that came through phase 1 (the duel's survivor). */
static bool survived(const struct rules_match *m, int seat)
{
	return seat < QUINTETO_HUNTERS && m->s.quinteto.survivor == seat;
}

static const struct bot_strategy *const levels[] = { &bot_quinteto_greedy, &bot_quinteto_strong, NULL };

/*
 * Quinteto's bots (bots.h): `greedy` and `strong`; the arranger out of time
 * keeps its chain; the arena counts the hunters that reached the duel.
 */
const struct bot_game bot_game_quinteto = { .game = "quinteto",
					    .levels = levels,
					    .timeout_action = keep_chain,
					    .milestone_name = "survived phase 1 (reached the duel)",
					    .milestone = survived };
