/*
 * test_text_codecs.c: every game's text codec (protocol/text/text.h, the pure
 * C writers the WebAssembly rules module speaks) writes exactly the bytes of
 * its jansson codec dumped compact, over random complete matches of every
 * game: the view after every step, each legal action of every seat to act,
 * every outcome and the result (with resignations and forfeits at random
 * plies). And a view read back (view_read, the live room's preview) rebuilds
 * a match that writes the same view, has the same seats to act and the same
 * legal list for each. Then the writer and reader themselves: a full buffer,
 * escapes, and text that is not JSON.
 */
#include <jansson.h>
#include <string.h>

#include "tap.h"
#include "text.h"
#include "wire.h"

#define MATCHES   150 /* per game */
#define MAX_PLIES 3000
#define TEXT_CAP  (64 * 1024)
#define TOKENS    8192

static char want_buf[TEXT_CAP], got_buf[TEXT_CAP];
static struct jr_tok toks[TOKENS];
static struct rules_action legal[RULES_MAX_LEGAL], legal2[RULES_MAX_LEGAL];
static int failures_shown;

static uint32_t lcg(uint32_t *s)
{
	*s = *s * 1664525u + 1013904223u;
	return *s >> 8;
}

/* Compares the writer's bytes with jansson's dump of `j` (stolen); true when equal. */
static bool same(const char *what, json_t *j, const struct jw *w)
{
	char *d = j ? json_dumps(j, JSON_COMPACT | JSON_ENCODE_ANY) : NULL;
	bool ok = d && !w->full && strlen(d) == w->len && memcmp(d, w->buf, w->len) == 0;

	if (!ok && failures_shown++ < 10)
		printf("# %s:\n#   jansson %s\n#   text    %.*s%s\n", what, d ? d : "(NULL)", (int)w->len,
		       w->buf, w->full ? " (full)" : "");
	free(d);
	json_decref(j);
	return ok;
}

/* The view of m read back into a fresh match: the same view, to_act and legal lists. */
static bool view_round_trip(const struct text_game *tg, const struct rules_match *m)
{
	static struct rules_match m2;
	uint8_t seed[RULES_SEED_SIZE] = { 7 }, act[RULES_MAX_SEATS], act2[RULES_MAX_SEATS];
	struct jw w, w2;
	int nact = rules_to_act(m, act), legal_tok = -1, n, view_tok, nt;
	size_t vlen;
	bool ok = true;

	/* The text the browser has: {"view":...,"legal":[...]} */
	jw_init(&w, want_buf, sizeof(want_buf));
	jw_obj(&w);
	jw_key(&w, "view");
	tg->view(&w, m);
	vlen = w.len;
	jw_key(&w, "legal");
	jw_arr(&w);
	n = nact ? rules_legal_actions(m, act[0], legal, RULES_MAX_LEGAL) : 0;
	for (int i = 0; i < n; i++)
		tg->action(&w, &legal[i]);
	jw_arr_end(&w);
	jw_obj_end(&w);
	nt = jr_parse(want_buf, w.len, toks, TOKENS);
	if (nt < 0)
		return false;
	view_tok = jr_get(want_buf, toks, 0, "view");
	legal_tok = nact ? jr_get(want_buf, toks, 0, "legal") : -1;
	if (rules_match_start(&m2, m->game, seed, &m->options) != 0)
		return false;
	m2.ply = m->ply;
	if (tg->view_read(&m2, want_buf, toks, view_tok, legal_tok, act, nact) != 0) {
		if (failures_shown++ < 10)
			printf("# view_read refused %.*s\n", (int)(vlen - 8), want_buf + 8);
		return false;
	}
	jw_init(&w2, got_buf, sizeof(got_buf));
	tg->view(&w2, &m2);
	if (w2.len != vlen - 8 || memcmp(got_buf, want_buf + 8, w2.len) != 0) {
		if (failures_shown++ < 10)
			printf("# view read back:\n#   was %.*s\n#   now %s\n", (int)(vlen - 8), want_buf + 8,
			       got_buf);
		return false;
	}
	if (rules_to_act(&m2, act2) != nact || memcmp(act, act2, (size_t)nact) != 0) {
		if (failures_shown++ < 10)
			printf("# to_act differs after view_read of %s\n", got_buf);
		return false;
	}
	for (int k = 0; ok && k < nact; k++) {
		int n1 = rules_legal_actions(m, act[k], legal, RULES_MAX_LEGAL);
		int n2 = rules_legal_actions(&m2, act[k], legal2, RULES_MAX_LEGAL);

		ok = n1 == n2 && memcmp(legal, legal2, sizeof(legal[0]) * (size_t)n1) == 0;
		if (!ok && failures_shown++ < 10)
			printf("# seat %d: %d legal actions, %d after view_read of %s\n", act[k], n1, n2,
			       got_buf);
	}
	return ok;
}

static bool result_same(const struct wire_game *wg, const struct text_game *tg, const struct rules_match *m)
{
	struct rules_result r;
	struct jw w;

	rules_result(m, &r);
	jw_init(&w, got_buf, sizeof(got_buf));
	tg->result(&w, &r);
	return same("result", wg->result_encode(&r), &w);
}

/* One random match; returns false at its first difference. */
static bool play(const struct rules_game *g, const struct wire_game *wg, const struct text_game *tg,
		 uint32_t rs)
{
	static struct rules_match m;
	uint8_t seed[RULES_SEED_SIZE] = { 0 }, act[RULES_MAX_SEATS];
	union rules_outcome out;
	struct jw w;

	memcpy(seed, &rs, sizeof(rs));
	if (rules_match_start(&m, g, seed, NULL) != 0)
		return false;
	for (int step = 0; step < MAX_PLIES; step++) {
		int nact = rules_to_act(&m, act), seat, n;

		jw_init(&w, got_buf, sizeof(got_buf));
		tg->view(&w, &m);
		if (!same("view", wg->view(&m), &w) || !result_same(wg, tg, &m) || !view_round_trip(tg, &m))
			return false;
		if (nact == 0)
			return true;
		for (int k = 0; k < nact; k++) {
			n = rules_legal_actions(&m, act[k], legal, RULES_MAX_LEGAL);
			for (int i = 0; i < n; i++) {
				jw_init(&w, got_buf, sizeof(got_buf));
				tg->action(&w, &legal[i]);
				if (!same("action", wg->action_encode(&legal[i]), &w))
					return false;
			}
		}
		seat = act[lcg(&rs) % (uint32_t)nact];
		if (lcg(&rs) % 400 == 0) {
			if (rules_event(&m, seat, lcg(&rs) % 2 ? RULES_EVENT_RESIGN : RULES_EVENT_FORFEIT,
					&out) != 0)
				return false;
			continue;
		}
		n = rules_legal_actions(&m, seat, legal, RULES_MAX_LEGAL);
		struct rules_action a = legal[lcg(&rs) % (uint32_t)n];

		if (rules_apply(&m, seat, &a, &out) != 0)
			return false;
		jw_init(&w, got_buf, sizeof(got_buf));
		tg->outcome(&w, &m, &a, &out);
		if (!same("outcome", wg->outcome_encode(&m, &a, &out), &w))
			return false;
	}
	return true; /* a match longer than MAX_PLIES: compared as far as it went */
}

static void game_test(const char *id)
{
	const struct rules_game *g = rules_game_find(id);
	const struct wire_game *wg = wire_game_find(id);
	const struct text_game *tg = text_game_find(id);
	int ok = 0;

	REQUIRE(g && wg);
	if (!tg) { /* issue 21 in progress: the game's text codec is being written */
		printf("# %s has no text codec yet: not compared\n", id);
		return;
	}
	for (int i = 0; i < MATCHES; i++)
		ok += play(g, wg, tg, (uint32_t)i * 2654435761u + 1);
	CHECK_EQ(ok, MATCHES);
}

#define GAME_TEST(id)                     \
	static void text_codec_##id(void) \
	{                                 \
		game_test(#id);           \
	}
GAME_LIST(GAME_TEST)
#undef GAME_TEST

static void writer_full_and_escapes(void)
{
	char small[8];
	struct jw w;

	jw_init(&w, small, sizeof(small));
	jw_arr(&w);
	jw_int(&w, 1234);
	jw_int(&w, 5678); /* "[1234,5678" does not fit in 7 bytes + NUL */
	jw_arr_end(&w);
	CHECK(w.full);
	CHECK(w.len < sizeof(small));
	CHECK(small[w.len] == '\0');

	jw_init(&w, got_buf, sizeof(got_buf));
	jw_obj(&w);
	jw_key(&w, "a\"b");
	jw_str(&w, "tab\there/\x01\xc3\xa9");
	jw_key(&w, "n");
	jw_int(&w, -9223372036854775807LL - 1);
	jw_key(&w, "e");
	jw_arr(&w);
	jw_arr_end(&w);
	jw_obj_end(&w);
	CHECK(!w.full);
	json_t *j = json_pack("{s:s,s:I,s:[]}", "a\"b", "tab\there/\x01\xc3\xa9", "n",
			      (json_int_t)(-9223372036854775807LL - 1), "e");
	CHECK(same("escapes", j, &w));
}

static void reader_refuses(void)
{
	static const char *const bad[] = {
		"",
		"{",
		"[1,]",
		"{\"a\"1}",
		"01",
		"1.",
		"tru",
		"\"\\x\"",
		"[1] 2",
		"{\"a\":}",
		"-",
		"\"a\nb\"",
		"99999999999999999999",
		"[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]"
	};
	const char *ok = " {\"a\":[1,-2,true,false,null,\"x\\u00e9\"],\"b\":{},\"c\":1.5e3} ";
	int n;
	long long v;
	bool b;

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		n = jr_parse(bad[i], strlen(bad[i]), toks, TOKENS);
		if (n >= 0)
			printf("# accepted: %s\n", bad[i]);
		CHECK(n < 0);
	}
	n = jr_parse(ok, strlen(ok), toks, TOKENS);
	CHECK_EQ(n, 13);
	CHECK_EQ(jr_parse(ok, strlen(ok), toks, 3), -2);
	CHECK_EQ(jr_parse(ok, strlen(ok), toks, TOKENS), 13);
	int a = jr_get(ok, toks, 0, "a");
	CHECK(a > 0 && toks[a].n == 6);
	CHECK(jr_int(toks, jr_item(toks, a, 1), -5, 5, &v) == 0 && v == -2);
	CHECK(jr_int(toks, jr_item(toks, a, 1), 0, 5, &v) == -1);
	CHECK(jr_bool(toks, jr_item(toks, a, 2), &b) == 0 && b);
	CHECK(jr_item(toks, a, 6) == -1);
	CHECK(toks[jr_get(ok, toks, 0, "b")].type == JR_OBJ);
	CHECK(toks[jr_get(ok, toks, 0, "c")].type == JR_REAL);
	CHECK(jr_get(ok, toks, 0, "d") == -1);
}

int main(void)
{
#define GAME_RUN(id) TEST(text_codec_##id);
	GAME_LIST(GAME_RUN)
#undef GAME_RUN
	TEST(writer_full_and_escapes);
	TEST(reader_refuses);
	return tap_done();
}
