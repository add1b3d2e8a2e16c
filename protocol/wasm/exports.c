/*
 * exports.c: what the WebAssembly rules module offers a page, a Web Worker or
 * Node (clients/web/rules-core.js wraps it): one working match, an I/O buffer
 * and the rules interface with the wire's JSON as text (protocol/text/), so
 * that what crosses the boundary is the same JSON the server sends, written
 * by the same C.
 *
 * The caller owns copies of matches: a struct rules_match is a plain value
 * (rules.h), so a snapshot is its bytes at qw_match(), and loading one back
 * is writing them there. Text goes in and out through qw_io(): a function
 * that writes text returns its length (the text is at qw_io(), NUL after
 * it), a negative code otherwise: a RULES_E_* code, or one of this file's
 * band -1800..-1899 below.
 *
 * Must not: allocate or do I/O (nothing is imported); this file is built
 * only into the module.
 */
#include <string.h>

#include "bots.h"
#include "rules.h"
#include "text.h"

enum qw_error {
	QW_E_NOT_LEGAL = -1800, /* no legal action of the seat is this text */
	QW_E_TOO_LARGE = -1801, /* the text does not fit the I/O buffer */
	QW_E_NO_GAME = -1802,   /* no such game, or it has no text codec */
	QW_E_BAD_VIEW = -1803,  /* a view this game does not write, or one whose legal list differs */
	QW_E_BAD_INDEX = -1804, /* not an index into the seat's legal list */
};

#define IO_SIZE (1 << 20)
#define TOKENS  (1 << 15)

static char io[IO_SIZE];
static char scratch[4096];
static struct rules_match slot;
static struct rules_action legal[RULES_MAX_LEGAL];
static struct jr_tok toks[TOKENS];
/*
 * The search memory of qw_bot()'s levels (struct bot_ctx.arena): in BSS, so
 * not in the module's file (build.sh's --initial-memory makes room for it).
 * tests/unit/text_trace.c gives its native bots the same size, so that both
 * sides search alike.
 */
#define ARENA_SIZE ((size_t)4 << 20)
static _Alignas(16) unsigned char arena[ARENA_SIZE];
static struct bot_ctx last; /* the last qw_bot() call's context: its estimate and work */

char *qw_io(void)
{
	return io;
}

int qw_io_size(void)
{
	return IO_SIZE;
}

struct rules_match *qw_match(void)
{
	return &slot;
}

int qw_match_size(void)
{
	return (int)sizeof(slot);
}

int qw_game_count(void)
{
	int n = 0;

	while (rules_games[n])
		n++;
	return n;
}

/* Game i's id (a C string), or NULL. */
const char *qw_game_id(int i)
{
	return i >= 0 && i < qw_game_count() ? rules_games[i]->id : NULL;
}

int qw_game_seats(int i)
{
	return i >= 0 && i < qw_game_count() ? rules_games[i]->seats : 0;
}

/* SHA-256 of io[0..len), written to io[0..32); 32. */
int qw_sha256(int len)
{
	uint8_t d[RULES_SHA256_SIZE];

	if (len < 0 || len > IO_SIZE)
		return QW_E_TOO_LARGE;
	rules_sha256((const uint8_t *)io, (size_t)len, d);
	memcpy(io, d, sizeof(d));
	return (int)sizeof(d);
}

static const struct text_game *codec(void)
{
	return slot.game ? text_game_find(slot.game->id) : NULL;
}

/* Starts game i in the working match from the seed in io[0..32) and max_turns (0: the game's own). */
int qw_start(int i, int max_turns)
{
	struct rules_options o = { .max_turns = max_turns };
	uint8_t seed[RULES_SEED_SIZE];

	if (i < 0 || i >= qw_game_count() || !text_game_find(rules_games[i]->id))
		return QW_E_NO_GAME;
	memcpy(seed, io, sizeof(seed));
	return rules_match_start(&slot, rules_games[i], seed, &o);
}

/* Replaces the rest of the working match's dice stream by the stream of the seed in io[0..32). */
void qw_reseed(void)
{
	uint8_t seed[RULES_SEED_SIZE];

	memcpy(seed, io, sizeof(seed));
	rules_dice_init(&slot.dice, seed);
}

int qw_ply(void)
{
	return (int)slot.ply;
}

/* The seats to act, one bit per seat. */
int qw_to_act(void)
{
	uint8_t act[RULES_MAX_SEATS];
	int n = rules_to_act(&slot, act), bits = 0;

	for (int k = 0; k < n; k++)
		bits |= 1 << act[k];
	return bits;
}

/* The seats out of play, one bit per seat. */
int qw_out(void)
{
	return slot.out;
}

static int done(const struct jw *w)
{
	return w->full ? QW_E_TOO_LARGE : (int)w->len;
}

int qw_view(void)
{
	const struct text_game *tg = codec();
	struct jw w;

	if (!tg)
		return QW_E_NO_GAME;
	jw_init(&w, io, sizeof(io));
	tg->view(&w, &slot);
	return done(&w);
}

int qw_result(void)
{
	const struct text_game *tg = codec();
	struct rules_result r;
	struct jw w;

	if (!tg)
		return QW_E_NO_GAME;
	rules_result(&slot, &r);
	jw_init(&w, io, sizeof(io));
	tg->result(&w, &r);
	return done(&w);
}

/* The legal actions of `seat` as a JSON array (empty when it is not to act). */
int qw_legal(int seat)
{
	const struct text_game *tg = codec();
	int n = rules_legal_actions(&slot, seat, legal, RULES_MAX_LEGAL);
	struct jw w;

	if (!tg)
		return QW_E_NO_GAME;
	jw_init(&w, io, sizeof(io));
	jw_arr(&w);
	for (int i = 0; i < n; i++)
		tg->action(&w, &legal[i]);
	jw_arr_end(&w);
	return done(&w);
}

/* Applies legal[i] (of the list the last call computed for `seat`) and writes its outcome. */
static int apply(const struct text_game *tg, int seat, int i)
{
	union rules_outcome out;
	struct rules_action a = legal[i];
	struct jw w;
	int err = rules_apply(&slot, seat, &a, &out);

	if (err)
		return err;
	jw_init(&w, io, sizeof(io));
	tg->outcome(&w, &slot, &a, &out);
	return done(&w);
}

/*
 * Applies for `seat` the legal action whose JSON text is exactly io[0..len)
 * (as the server writes it: the wire's key order) and writes its outcome.
 * QW_E_NOT_LEGAL when none is: the caller may then compare the parsed JSON
 * with qw_legal()'s list itself and use qw_apply_index().
 */
int qw_apply_text(int seat, int len)
{
	const struct text_game *tg = codec();
	int n;

	if (!tg)
		return QW_E_NO_GAME;
	if (len < 0 || len >= (int)sizeof(scratch))
		return QW_E_NOT_LEGAL;
	n = rules_legal_actions(&slot, seat, legal, RULES_MAX_LEGAL);
	for (int i = 0; i < n; i++) {
		struct jw w;

		jw_init(&w, scratch, sizeof(scratch));
		tg->action(&w, &legal[i]);
		if (!w.full && (int)w.len == len && memcmp(scratch, io, (size_t)len) == 0)
			return apply(tg, seat, i);
	}
	if (n == 0) /* say why: not to act, over, out of play */
		return rules_apply(&slot, seat, &(struct rules_action){ .kind = 0 }, NULL);
	return QW_E_NOT_LEGAL;
}

/* Applies the i-th legal action of `seat` (qw_legal()'s order) and writes its outcome. */
int qw_apply_index(int seat, int i)
{
	const struct text_game *tg = codec();
	int n;

	if (!tg)
		return QW_E_NO_GAME;
	n = rules_legal_actions(&slot, seat, legal, RULES_MAX_LEGAL);
	if (i < 0 || i >= n)
		return QW_E_BAD_INDEX;
	return apply(tg, seat, i);
}

/* An event (enum rules_event_kind) for `seat`: 0 or a RULES_E_* code. */
int qw_event(int seat, int kind)
{
	return rules_event(&slot, seat, kind, NULL);
}

/* The bot levels of the working match's game, comma-separated, as text. */
int qw_bot_levels(void)
{
	if (!slot.game)
		return QW_E_NO_GAME;
	bot_levels(slot.game->id, io, sizeof(io));
	return (int)strlen(io);
}

/*
 * What the bot of level io[0..len) (a name from qw_bot_levels()) would play
 * for `seat` in the working match, drawing its chances from its own stream
 * (rng_hi:rng_lo, not zero) within `budget` units of work (0: the level's
 * default), searching in this module's arena: the index of that action in
 * qw_legal()'s list, or a negative code (QW_E_NO_GAME: no such level;
 * RULES_E_NOT_TO_ACT). The match is not changed; the bot sees it as
 * bot_choose() shows it (its own dice). Its estimate of each seat's chance
 * and the work it did are then qw_bot_estimate()'s and qw_bot_spent()'s.
 */
int qw_bot(int len, int seat, uint32_t rng_lo, uint32_t rng_hi, uint32_t budget)
{
	const struct bot_strategy *b;
	struct rules_action a;
	char level[32];
	int n;

	memset(&last, 0, sizeof(last));
	if (!slot.game || len <= 0 || len >= (int)sizeof(level))
		return QW_E_NO_GAME;
	memcpy(level, io, (size_t)len);
	level[len] = '\0';
	if (!(b = bot_find(slot.game->id, level)))
		return QW_E_NO_GAME;
	last.rng = (uint64_t)rng_hi << 32 | rng_lo;
	last.budget = budget;
	last.arena = arena;
	last.arena_size = sizeof(arena);
	if (bot_choose(b, &slot, seat, &last, &a) != 0) {
		last.has_estimate = false;
		return RULES_E_NOT_TO_ACT;
	}
	n = rules_legal_actions(&slot, seat, legal, RULES_MAX_LEGAL);
	for (int i = 0; i < n; i++)
		if (memcmp(&legal[i], &a, sizeof(a)) == 0)
			return i;
	return RULES_E_ILLEGAL;
}

/*
 * The last qw_bot() answer's estimate of `seat`'s chance to win, 0..1 (the
 * strategy's own float, unchanged), or -1 when that level gives none, the
 * call failed, or the game has no such seat.
 */
float qw_bot_estimate(int seat)
{
	if (!last.has_estimate || !slot.game || seat < 0 || seat >= slot.game->seats)
		return -1.0f;
	return last.estimate[seat];
}

/* The work the last qw_bot() answer did, in its level's budget units (0 after a failure). */
int qw_bot_spent(void)
{
	return (int)last.spent;
}

/*
 * The working match rebuilt from what a `state` message shows, io[0..len) =
 * {"view":...,"to_act":[...],"legal":[...] or null,"ply":N}, for game i with
 * max_turns: 0, or QW_E_BAD_VIEW when the game cannot read that view, or
 * when `legal` is given and the rebuilt match's legal list for the first seat
 * to act is not exactly it (then nothing of the rebuilt match is trusted).
 */
int qw_from_view(int i, int max_turns, int len)
{
	static const uint8_t zero[RULES_SEED_SIZE];
	struct rules_options o = { .max_turns = max_turns };
	uint8_t act[RULES_MAX_SEATS], got[RULES_MAX_SEATS];
	const struct text_game *tg;
	int nt, view, ta, lg, ply, nact, n;
	long long v;

	if (i < 0 || i >= qw_game_count() || !(tg = text_game_find(rules_games[i]->id)) || !tg->view_read)
		return QW_E_NO_GAME;
	if (len < 0 || len > IO_SIZE || (nt = jr_parse(io, (size_t)len, toks, TOKENS)) < 0)
		return QW_E_BAD_VIEW;
	view = jr_get(io, toks, 0, "view");
	ta = jr_get(io, toks, 0, "to_act");
	lg = jr_get(io, toks, 0, "legal");
	ply = jr_get(io, toks, 0, "ply");
	if (view < 0 || ta < 0 || toks[ta].type != JR_ARR || toks[ta].n > RULES_MAX_SEATS ||
	    jr_int(toks, ply, 0, 0x7fffffff, &v))
		return QW_E_BAD_VIEW;
	nact = toks[ta].n;
	for (int k = 0; k < nact; k++) {
		long long s;

		if (jr_int(toks, jr_item(toks, ta, k), 0, rules_games[i]->seats - 1, &s))
			return QW_E_BAD_VIEW;
		act[k] = (uint8_t)s;
	}
	if (lg >= 0 && toks[lg].type != JR_ARR)
		lg = -1;
	if (rules_match_start(&slot, rules_games[i], zero, &o) != 0)
		return QW_E_BAD_VIEW;
	slot.ply = (uint32_t)v;
	if (tg->view_read(&slot, io, toks, view, lg, act, nact) != 0)
		return QW_E_BAD_VIEW;
	if (rules_to_act(&slot, got) != nact || memcmp(got, act, (size_t)nact) != 0)
		return QW_E_BAD_VIEW;
	if (lg < 0 || nact == 0)
		return 0;
	n = rules_legal_actions(&slot, act[0], legal, RULES_MAX_LEGAL);
	if (n != toks[lg].n)
		return QW_E_BAD_VIEW;
	for (int k = 0, t = lg + 1; k < n; k++, t = toks[t].next) {
		struct jw w;

		jw_init(&w, scratch, sizeof(scratch));
		tg->action(&w, &legal[k]);
		if (w.full || (int)w.len != toks[t].end - toks[t].start ||
		    memcmp(scratch, io + toks[t].start, w.len) != 0)
			return QW_E_BAD_VIEW;
	}
	return 0;
}
