/*
 * test_text_super15.c: what tests/unit/test_text_codecs.c does not hold for
 * Super 1 al 5's view_read (protocol/games/super15/super15_text.c). It refuses
 * every view the game never writes (a forbidden or taken square, a bad name,
 * a seat or value its id does not have, ids out of order, 10 points without
 * Super, quiet past 100, a key more or less, bad seats to act); and the
 * result of a finished match, which the view does not carry, comes back as
 * the rules core gave it for every match ended by the rules or by a
 * resignation of the seat to move (random matches), with adjudications and
 * draws by hand.
 */
#include <string.h>

#include "tap.h"
#include "text.h"

#define TOKENS 2048

static struct jr_tok toks[TOKENS];
static char view_buf[8192], edit_buf[8192];

static uint32_t lcg(uint32_t *s)
{
	*s = *s * 1664525u + 1013904223u;
	return *s >> 8;
}

/* A fresh Super 1 al 5 match at ply `ply`, as the browser starts one. */
static void match_new(struct rules_match *m, uint32_t ply)
{
	uint8_t seed[RULES_SEED_SIZE] = { 0 };

	memset(m, 0, sizeof(*m));
	if (rules_match_start(m, rules_game_find("super15"), seed, NULL) != 0)
		abort();
	m->ply = ply;
}

/* view_read of the view `json` into a fresh match at `ply`: its return value. */
static int read_view(const char *json, uint32_t ply, const uint8_t *act, int nact, struct rules_match *m)
{
	int n = jr_parse(json, strlen(json), toks, TOKENS);

	if (n < 0)
		return -2;
	match_new(m, ply);
	return text_game_super15.view_read(m, json, toks, 0, -1, act, nact);
}

/* The view of `m` written into view_buf. */
static const char *view_of(const struct rules_match *m)
{
	struct jw w;

	jw_init(&w, view_buf, sizeof(view_buf));
	text_game_super15.view(&w, m);
	return w.full ? "" : view_buf;
}

/* `text` with the first `from` replaced by `to`, in edit_buf ("" if `from` is not there). */
static const char *edit(const char *text, const char *from, const char *to)
{
	const char *at = strstr(text, from);
	size_t head;

	if (!at)
		return "";
	head = (size_t)(at - text);
	memcpy(edit_buf, text, head);
	strcpy(edit_buf + head, to);
	strcat(edit_buf, at + strlen(from));
	return edit_buf;
}

static void view_read_refuses(void)
{
	static const char *const bad[][2] = {
		{ "\"square\":\"a1\"", "\"square\":\"d5\"" },       /* forbidden (D1) */
		{ "\"square\":\"a1\"", "\"square\":\"b1\"" },       /* b1 holds id 1 */
		{ "\"square\":\"a1\"", "\"square\":\"i1\"" },       /* no file i */
		{ "\"square\":\"a1\"", "\"square\":\"a01\"" },      /* a leading zero */
		{ "\"square\":\"a1\"", "\"square\":\"a11\"" },      /* no rank 11 */
		{ "\"square\":\"a1\"", "\"square\":\"a\\u0031\"" }, /* escaped */
		{ "\"square\":\"a1\"", "\"square\":1" },            /* not a name */
		{ "{\"id\":0,\"seat\":0", "{\"id\":0,\"seat\":1" }, /* id 0 is Light's */
		{ "{\"id\":1,", "{\"id\":0," },                     /* ids not ascending */
		{ "{\"id\":0,", "{\"id\":32," },                    /* no id 32 */
		{ "\"value\":5", "\"value\":4" },                   /* id 0 is a 5 */
		{ "\"points\":0,\"super\":false",
		  "\"points\":10,\"super\":false" }, /* 10 points make a Super */
		{ "\"points\":0", "\"points\":-1" },
		{ "\"super\":false", "\"super\":0" },
		{ "{\"id\":0,", "{" },                              /* a key less */
		{ "\"super\":false}", "\"super\":false,\"x\":1}" }, /* a key more */
		{ "\"quiet\":0", "\"quiet\":101" },                 /* the match ends at 100 */
		{ "\"quiet\":0", "\"quiet\":0,\"turn\":0" },
		{ "\"pieces\":[", "\"pieces\":{\"a\":1},\"x\":[" },
	};
	struct rules_match m, back;
	const uint8_t light = 0, seat2 = 2, both[2] = { 0, 1 };
	char start[8192];

	match_new(&m, 0);
	strcpy(start, view_of(&m));
	REQUIRE(start[0] == '{');
	CHECK_EQ(read_view(start, 0, &light, 1, &back), 0);
	CHECK(strcmp(view_of(&back), start) == 0);
	/* 10 points and Super, a piece moved, a quiet count: a view the game writes. */
	CHECK_EQ(read_view(edit(start, "\"points\":0,\"super\":false", "\"points\":10,\"super\":true"), 0,
			   &light, 1, &back),
		 0);
	CHECK_EQ(read_view(edit(start, "\"square\":\"a1\"", "\"square\":\"a5\""), 0, &light, 1, &back), 0);
	CHECK_EQ(read_view(edit(start, "\"quiet\":0", "\"quiet\":100"), 0, &light, 1, &back), 0);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		const char *v = edit(start, bad[i][0], bad[i][1]);
		int err;

		CHECK(v[0] == '{');
		err = read_view(v, 0, &light, 1, &back);
		if (err != -1)
			printf("# accepted (%d): %s -> %s\n", err, bad[i][0], bad[i][1]);
		CHECK_EQ(err, -1);
	}
	CHECK_EQ(read_view(start, 0, &seat2, 1, &back), -1);
	CHECK_EQ(read_view(start, 0, both, 2, &back), -1);
}

/* view_read of m's view (over) gives m's result and out-of-play seats; false (and says so) if not. */
static bool result_back(const struct rules_match *m)
{
	struct rules_match back;
	struct rules_result want, got;
	char view[8192];

	strcpy(view, view_of(m));
	if (read_view(view, m->ply, NULL, 0, &back) != 0)
		return false;
	rules_result(m, &want);
	rules_result(&back, &got);
	if (memcmp(&want, &got, sizeof(want)) == 0 && m->out == back.out)
		return true;
	printf("# ply %u: reason %d winner %d out %d, read back reason %d winner %d out %d\n", m->ply,
	       want.reason, want.winner, m->out, got.reason, got.winner, back.out);
	return false;
}

/*
 * Random matches, one in three resigned by the seat to move at a random ply:
 * every end the rules core reaches (last piece, adjudication) and every such
 * resignation is read back with its result exactly.
 */
static void finished_matches_read_back(void)
{
	int ok = 0, ends[RULES_REASON_ADJUDICATION + 1] = { 0 };
	static struct rules_action legal[RULES_MAX_LEGAL];

	for (uint32_t i = 0; i < 60; i++) {
		struct rules_match m;
		uint32_t rs = i * 2654435761u + 5, resign_at = lcg(&rs) % 3 == 0 ? lcg(&rs) % 400 : ~0u;
		uint8_t act[RULES_MAX_SEATS];
		struct rules_result r;

		match_new(&m, 0);
		while (rules_to_act(&m, act) > 0) {
			int n = rules_legal_actions(&m, act[0], legal, RULES_MAX_LEGAL);

			if (m.ply == resign_at) {
				rules_event(&m, act[0], RULES_EVENT_RESIGN, NULL);
				break;
			}
			if (n <= 0 || rules_apply(&m, act[0], &legal[lcg(&rs) % (uint32_t)n], NULL) != 0)
				break;
		}
		rules_result(&m, &r);
		ends[r.reason]++;
		ok += r.over && result_back(&m);
	}
	printf("# ends: last_piece %d, adjudication %d, resign %d\n", ends[RULES_REASON_LAST_PIECE],
	       ends[RULES_REASON_ADJUDICATION], ends[RULES_REASON_RESIGN]);
	CHECK(ends[RULES_REASON_LAST_PIECE] > 0 && ends[RULES_REASON_ADJUDICATION] > 0 &&
	      ends[RULES_REASON_RESIGN] > 0);
	CHECK_EQ(ok, 60);
}

/* Two pieces a side, Light's a Super with 12 points, Dark's with `dark` points; quiet `q`. */
static const char *endgame(int dark, int q, bool third)
{
	static char buf[512];
	char tail[128] = "";

	if (third)
		strcpy(tail,
		       ",{\"id\":18,\"seat\":1,\"square\":\"c10\",\"value\":3,\"points\":0,\"super\":false}");
	snprintf(buf, sizeof(buf),
		 "{\"pieces\":[{\"id\":0,\"seat\":0,\"square\":\"a1\",\"value\":5,\"points\":12,\"super\":"
		 "true},"
		 "{\"id\":1,\"seat\":0,\"square\":\"b1\",\"value\":4,\"points\":0,\"super\":false},"
		 "{\"id\":16,\"seat\":1,\"square\":\"a10\",\"value\":5,\"points\":%d,\"super\":%s},"
		 "{\"id\":17,\"seat\":1,\"square\":\"b10\",\"value\":4,\"points\":0,\"super\":false}%s],"
		 "\"quiet\":%d}",
		 dark, dark >= 10 ? "true" : "false", tail, q);
	return buf;
}

/* Adjudications by hand, with a draw, and what is not one. */
static void finished_by_hand(void)
{
	struct rules_match m;
	struct rules_result r;

	CHECK_EQ(read_view(endgame(3, 20, false), 41, NULL, 0, &m), 0); /* 2 v 2, 20 quiet plies */
	rules_result(&m, &r);
	CHECK(r.over && !r.draw && r.winner == 0 && r.reason == RULES_REASON_ADJUDICATION);
	CHECK_EQ(read_view(endgame(12, 20, false), 41, NULL, 0, &m), 0); /* equal points */
	rules_result(&m, &r);
	CHECK(r.over && r.draw && r.winner == -1 && r.reason == RULES_REASON_ADJUDICATION);
	CHECK_EQ(read_view(endgame(15, 100, true), 40, NULL, 0, &m), 0); /* 100 in any case */
	rules_result(&m, &r);
	CHECK(r.over && r.winner == 1 && r.reason == RULES_REASON_ADJUDICATION);
	/* 2 v 3 after 20: no adjudication, so an event: Light (to move at ply 40) resigned. */
	CHECK_EQ(read_view(endgame(3, 20, true), 40, NULL, 0, &m), 0);
	rules_result(&m, &r);
	CHECK(r.over && r.winner == 1 && r.reason == RULES_REASON_RESIGN && m.out == 1);
	/* Still playing: nothing ended, Dark to move as to_act says. */
	{
		const uint8_t dark = 1;
		uint8_t act[RULES_MAX_SEATS];

		CHECK_EQ(read_view(endgame(3, 20, true), 41, &dark, 1, &m), 0);
		rules_result(&m, &r);
		CHECK(!r.over && m.out == 0);
		CHECK(rules_to_act(&m, act) == 1 && act[0] == 1);
	}
}

int main(void)
{
	TEST(view_read_refuses);
	TEST(finished_matches_read_back);
	TEST(finished_by_hand);
	return tap_done();
}
