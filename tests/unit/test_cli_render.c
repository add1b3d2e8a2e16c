/*
 * test_cli_render.c: the text boards of `quinteto show` (clients/cli/render*.c).
 * argv[1] is the built tool, argv[2] tests/golden. Every file of
 * tests/golden/show/, named <archive case>.ply<N>.txt, is the exact output of
 * `quinteto show --file tests/golden/archive/<case>/archive.json --ply N`: one
 * test per game runs them (adding a case needs no code) and fails on the
 * first line that differs. The renderers are also linked here and given
 * views that are not as the wire documentation says (a key missing, a wrong
 * type, a value out of range, no view, an unknown game): each must print the
 * fallback line naming what is wrong, then the view's JSON, and never crash
 * (this runs under the sanitizers of the test build).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "../../clients/cli/render.h"
#include "golden.h"
#include "tap.h"
#include "wire.h"

static const char *cli, *golden;

/* --- the golden boards, through the tool --------------------------------------- */

/* Reads a whole stream into a new string; NULL on failure. */
static char *slurp(FILE *f)
{
	char *text = NULL, buf[4096];
	size_t len = 0, n;
	FILE *m = open_memstream(&text, &len);

	while (m && (n = fread(buf, 1, sizeof(buf), f)) > 0)
		fwrite(buf, 1, n, m);
	if (m)
		fclose(m);
	return text;
}

/* Where two texts first differ, as a TAP comment: the line number and both lines. */
static void first_difference(const char *want, const char *got)
{
	size_t i = 0, start = 0;
	int line = 1;

	for (; want[i] && want[i] == got[i]; i++) {
		if (want[i] == '\n')
			start = i + 1, line++;
	}
	printf("# line %d\n# expected: %.*s\n#      got: %.*s\n", line, (int)strcspn(want + start, "\n"),
	       want + start, (int)strcspn(got + start, "\n"), got + start);
}

static const char *want_game;
static int cases;

/* One golden file: runs the tool if the archive is of want_game; compares byte for byte. */
static void show_case(const char *path, const char *name)
{
	char archive[1200], cmd[2600], casename[256];
	const char *ply = strstr(name, ".ply");
	json_t *a;
	FILE *f, *p;
	char *want, *got;

	if (!ply || strcmp(name + strlen(name) - 4, ".txt") != 0)
		return; /* the folder's README */
	snprintf(casename, sizeof(casename), "%.*s", (int)(ply - name), name);
	snprintf(archive, sizeof(archive), "%s/archive/%s/archive.json", golden, casename);
	a = json_load_file(archive, 0, NULL);
	if (!a || strcmp(json_string_value(json_object_get(a, "game")), want_game) != 0) {
		CHECK(a != NULL);
		json_decref(a);
		return;
	}
	json_decref(a);
	snprintf(cmd, sizeof(cmd), "'%s' show --file '%s' --ply %d 2>&1", cli, archive, atoi(ply + 4));
	f = fopen(path, "r");
	p = popen(cmd, "r");
	REQUIRE(f && p);
	want = slurp(f);
	got = slurp(p);
	fclose(f);
	CHECK_EQ(pclose(p), 0);
	REQUIRE(want && got);
	if (strcmp(want, got) != 0) {
		printf("# %s differs from `quinteto show`:\n", name);
		first_difference(want, got);
		CHECK(!"the board is drawn as the golden file says");
	}
	cases++;
	free(want);
	free(got);
}

/* Every golden board of `game`; at least `min` of them must exist. */
static void show_game(const char *game, int min)
{
	want_game = game;
	cases = 0;
	golden_each(golden, "show", show_case);
	printf("# %d %s boards\n", cases, game);
	CHECK(cases >= min);
}

static void test_show_ur(void)
{
	show_game("ur", 2);
}

static void test_show_quinteto(void)
{
	show_game("quinteto", 6);
}

static void test_show_laquet(void)
{
	show_game("laquet", 4);
}

static void test_show_super15(void)
{
	show_game("super15", 4);
}

/* --- views that cannot be drawn, through the renderers ------------------------ */

/* The text cli_render_view() prints for `view` (borrowed); a new string. */
static char *render(const char *game, const json_t *view, const json_t *seats)
{
	char *text = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&text, &len);

	if (!m)
		return NULL;
	cli_render_view(m, game, view, seats);
	fclose(m);
	return text;
}

/* The view of `game`'s golden archive `name` after its last step (a new reference). */
static json_t *last_view(const char *name)
{
	char dir[512], why[1024];
	struct wire_archive a;
	json_t *j, *steps, *view = NULL;

	snprintf(dir, sizeof(dir), "%s/archive/%s", golden, name);
	j = golden_load(dir, "archive.json");
	if (j && wire_archive_decode(j, &a, why, sizeof(why)) == WIRE_OK) {
		steps = wire_archive_steps_new(&a, why, sizeof(why));
		view = json_incref(
			json_object_get(json_array_get(steps, json_array_size(steps) - 1), "view"));
		json_decref(steps);
		wire_archive_finish(&a);
	}
	json_decref(j);
	return view;
}

/* `view` with the value at `path` ("stones/3/room": object keys and array indexes) replaced (taken). */
static json_t *patched(const json_t *view, const char *path, json_t *value)
{
	json_t *copy = json_deep_copy(view), *at = copy;
	char buf[128], *key, *next;

	snprintf(buf, sizeof(buf), "%s", path);
	for (key = buf; (next = strchr(key, '/')); key = next + 1) {
		*next = '\0';
		at = json_is_array(at) ? json_array_get(at, (size_t)atoi(key)) : json_object_get(at, key);
	}
	if (json_is_array(at) && !value)
		json_array_remove(at, (size_t)atoi(key));
	else if (json_is_array(at))
		json_array_set_new(at, (size_t)atoi(key), value);
	else if (!value)
		json_object_del(at, key);
	else
		json_object_set_new(at, key, value);
	return copy;
}

/* Renders `view` (taken): the fallback must name `reason`, then give the JSON. */
static void expect_fallback(const char *game, json_t *view, const char *reason)
{
	char head[128], *out = render(game, view, NULL);

	snprintf(head, sizeof(head), "(cannot draw this %s view: ", game);
	CHECK(out && strstr(out, head) == out);
	CHECK(out && strstr(out, reason) && strstr(out, reason) < strchr(out, '\n'));
	CHECK(out && strstr(out, "The view as JSON:)\n") && strchr(out, '\n')[1] != '\0');
	if (!out || strstr(out, head) != out || !strstr(out, reason))
		printf("# %s, expected \"%s\": %.200s\n", game, reason, out ? out : "(NULL)");
	free(out);
	json_decref(view);
}

/* A game's last golden view: drawn as it is; each documented key missing or of another type is refused. */
static json_t *keys_refused(const char *game, const char *archive, const char *const *keys)
{
	json_t *view = last_view(archive);
	char *out = render(game, view, NULL), reason[64];

	CHECK(view && out && out[0] != '(');
	free(out);
	for (size_t i = 0; view && keys[i]; i++) {
		snprintf(reason, sizeof(reason), "\"%s\" is missing", keys[i]);
		expect_fallback(game, patched(view, keys[i], NULL), reason);
		snprintf(reason, sizeof(reason), "\"%s\" is not ", keys[i]);
		expect_fallback(game, patched(view, keys[i], json_real(0.5)), reason);
	}
	return view;
}

static void test_malformed_ur(void)
{
	static const char *const keys[] = { "pieces", "dice", "value", "bonus", "again", NULL };
	json_t *v = keys_refused("ur", "ok_race_with_empty_events", keys);

	REQUIRE(v);
	expect_fallback("ur", patched(v, "pieces/0/3", json_integer(25)), "pieces[0] is not 7 route indexes");
	expect_fallback("ur", patched(v, "pieces/1", json_array()), "pieces[1] is not 7 route indexes");
	expect_fallback("ur", patched(v, "dice", json_pack("[b]", 1)), "\"dice\" is not an array of 3");
	json_decref(v);
}

static void test_malformed_quinteto(void)
{
	static const char *const keys[] = { "phase",  "dice",    "circle", "stones",
					    "victim", "rolloff", "turns",  NULL };
	json_t *v = keys_refused("quinteto", "ok_quinteto_duel_survivor_wins", keys);
	char *out;

	REQUIRE(v);
	expect_fallback("quinteto", patched(v, "stones/6/room", json_integer(25)),
			"stones[6] is not"); /* @12 */
	expect_fallback("quinteto",
			patched(v, "stones/3", json_pack("{s:i, s:s}", "seat", 1, "where", "room")),
			"stones[3] is not");
	expect_fallback("quinteto", patched(v, "stones/4/where", json_string("nowhere")), "stones[4] is not");
	expect_fallback("quinteto", patched(v, "stones/0/seat", json_integer(6)), "stones[0] is not");
	expect_fallback("quinteto", patched(v, "stones/5", json_string("x")), "stones[5] is not");
	expect_fallback("quinteto", patched(v, "stones/17", NULL), "\"stones\" is not an array of 18");
	expect_fallback("quinteto", patched(v, "circle/0", json_integer(5)), "\"circle\", \"victim\" or");
	expect_fallback("quinteto", patched(v, "victim/5", json_integer(-1)), "\"circle\", \"victim\" or");
	expect_fallback("quinteto", patched(v, "rolloff/2", json_integer(0)), "\"circle\", \"victim\" or");
	expect_fallback("quinteto", patched(v, "dice", json_pack("[ii]", 7, 1)), "\"dice\" is not two dice");
	/* the final view of a Quinteto keeps its [5,5] */
	json_t *q = patched(v, "dice", json_pack("[ii]", 5, 5));

	out = render("quinteto", q, NULL);
	CHECK(out && strstr(out, "phase over, 87 turns played, dice 5 5: a Quinteto\n") == out);
	free(out);
	json_decref(q);
	json_decref(v);
}

static void test_malformed_laquet(void)
{
	static const char *const keys[] = { "dice", "points", "off", "handed", NULL };
	json_t *v = keys_refused("laquet", "ok_laquet_race", keys);

	REQUIRE(v);
	expect_fallback("laquet", patched(v, "points/0/white", json_integer(-1)), "points[0] is not");
	expect_fallback("laquet", patched(v, "points/17", json_object()), "points[17] is not");
	expect_fallback("laquet", patched(v, "points/5", json_pack("{s:i, s:i}", "white", 1, "black", 2)),
			"points[5] is not");
	expect_fallback("laquet", patched(v, "points/3", NULL), "\"points\" is not an array of 18");
	expect_fallback("laquet", patched(v, "off/black", json_integer(16)), "\"off\" is not");
	expect_fallback("laquet", patched(v, "handed", json_pack("[s]", "x")),
			"\"handed\" is not an array of dice");
	expect_fallback("laquet", patched(v, "handed", json_pack("[in]", 3)),
			"\"handed\" is not an array of dice");
	expect_fallback("laquet", patched(v, "dice", json_pack("[ii]", 0, 3)), "\"dice\" is not two dice");
	json_decref(v);
}

static void test_malformed_super15(void)
{
	static const char *const keys[] = { "pieces", "quiet", NULL };
	static const char *const squares[] = { "i1", "a0", "a01", "a11", "A1", "b", "a100", "" };
	json_t *v = keys_refused("super15", "ok_super15_adjudication", keys);

	REQUIRE(v);
	for (size_t i = 0; i < sizeof(squares) / sizeof(squares[0]); i++)
		expect_fallback("super15", patched(v, "pieces/0/square", json_string(squares[i])),
				"pieces[0] is not");
	expect_fallback("super15", patched(v, "pieces/1/square", json_integer(3)), "pieces[1] is not");
	expect_fallback("super15", patched(v, "pieces/0/value", json_integer(6)), "pieces[0] is not");
	expect_fallback("super15", patched(v, "pieces/0/super", json_integer(1)), "pieces[0] is not");
	expect_fallback("super15", patched(v, "pieces/0/seat", json_integer(2)), "pieces[0] is not");
	expect_fallback("super15", patched(v, "pieces/0/points", json_string("2")), "pieces[0] is not");
	expect_fallback("super15", patched(v, "pieces/2", json_null()), "pieces[2] is not");
	json_decref(v);
}

/* No view, a view of another kind, an unknown game, a seat list that is not one. */
static void test_no_board(void)
{
	static const char *const games[] = { "ur", "quinteto", "laquet", "super15" };
	json_t *odd[] = { json_null(), json_array(), json_string("x"), json_integer(3) };
	json_t *seats = json_pack("[{s:i}, s]", "name", 7, "x");
	char *out;

	for (size_t g = 0; g < 4; g++) {
		out = render(games[g], NULL, NULL);
		CHECK(out && strstr(out, "it is not an object") && strstr(out, "\n(no view)\n"));
		free(out);
		for (size_t i = 0; i < 4; i++)
			expect_fallback(games[g], json_incref(odd[i]), "it is not an object");
	}
	out = render("chess", odd[1], NULL);
	CHECK(out && strcmp(out, "(no text board for the game \"chess\"; the view as JSON:)\n[]\n") == 0);
	free(out);
	/* names that are no names draw as "-" */
	json_t *v = last_view("ok_laquet_race");

	out = render("laquet", v, seats);
	CHECK(out && strstr(out, "\nW white -    ") && strstr(out, "\nB black -    "));
	free(out);
	json_decref(v);
	json_decref(seats);
	for (size_t i = 0; i < 4; i++)
		json_decref(odd[i]);
}

int main(int argc, char **argv)
{
	if (argc < 3) {
		printf("Bail out! usage: test_cli_render QUINTETO GOLDEN_DIR\n");
		return 1;
	}
	cli = argv[1];
	golden = argv[2];
	TEST(test_show_ur);
	TEST(test_show_quinteto);
	TEST(test_show_laquet);
	TEST(test_show_super15);
	TEST(test_malformed_ur);
	TEST(test_malformed_quinteto);
	TEST(test_malformed_laquet);
	TEST(test_malformed_super15);
	TEST(test_no_board);
	return tap_done();
}
