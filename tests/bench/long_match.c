/*
 * long_match.c: the longest archived matches the options allow, for the
 * benchmarks of issue 19 (docs/BENCHMARKS.md, "Issue 19: long replays").
 * Plays Quinteto matches of six seats through the rules core, the seats
 * avoiding every capture, kill, elimination and Quinteto (search(): the
 * dice are the seed's whatever the choices, so a careful table can look
 * ahead), so the match runs to `max_turns` and ends drawn, as six careful
 * players can make it; then archives each into a fresh database
 * migrated by the server's own runner, with the columns the server's writer
 * fills (store_archive.c): a real server_seed and its commit, the match seed
 * from the client seeds, every action and outcome as the wire codec encodes
 * them, and the result. `quinteto verify --db DB --all` checks them.
 *
 * Usage: quinteto-long-match DB MIGRATIONS MAX_TURNS [MATCHES]
 * Prints each match's id and plies. Not a test.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rules.h"
#include "store/store_int.h"
#include "base/util.h"
#include "wire.h"

#define MAX_PLIES 250000 /* max_turns 100000 is about 200,006 plies */

static sqlite3 *db;

static void check(int rc, const char *what)
{
	if (rc != SQLITE_OK && rc != SQLITE_DONE) {
		fprintf(stderr, "%s: %s\n", what, sqlite3_errmsg(db));
		exit(1);
	}
}

static sqlite3_stmt *prepare(const char *sql)
{
	sqlite3_stmt *s;

	check(sqlite3_prepare_v2(db, sql, -1, &s, NULL), sql);
	return s;
}

static void done(sqlite3_stmt *s, const char *what)
{
	check(sqlite3_step(s), what);
	sqlite3_reset(s);
}

static uint64_t rng = 0x2545f4914f6cdd1dull;

static uint32_t rnd(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (uint32_t)(rng >> 11);
}

/* An action that captures, kills, eliminates or rolls a Quinteto: what careful players avoid. */
static bool harmful(const union rules_outcome *o)
{
	return o->quinteto.ncaptured || o->quinteto.nkilled || o->quinteto.neliminated ||
	       o->quinteto.quinteto;
}

/* A decision: the match before it, and the next of its legal actions (in a fixed shuffled order) to try. */
struct frame {
	struct rules_match m;
	int next;
};

static struct frame *frames;
static struct rules_action *chosen;

/* The legal actions of the seat to act at `f`, shuffled by the ply (the same order every time). */
static int candidates(const struct frame *f, int ply, struct rules_action *legal, int *seat)
{
	uint8_t to_act[RULES_MAX_SEATS];
	uint64_t r = 0x9e3779b97f4a7c15ull * (uint64_t)(ply + 1);
	int n;

	rules_to_act(&f->m, to_act);
	*seat = to_act[0];
	n = rules_legal_actions(&f->m, *seat, legal, RULES_MAX_LEGAL);
	for (int i = n - 1; i > 0; i--) {
		int j;
		struct rules_action t = legal[i];

		r ^= r << 13, r ^= r >> 7, r ^= r << 17;
		j = (int)(r % (uint64_t)(i + 1));
		legal[i] = legal[j];
		legal[j] = t;
	}
	return n;
}

/*
 * Plays from `start` to the end or `cap` plies, into chosen[] (seats in seats[]): a depth-first search
 * that takes the first harmless action and backs up when a position offers none (the dice are the
 * seed's, whatever the choices, so the future is known), up to BACKTRACK tries before it gives in and
 * plays a harmful one where it stands. Returns the plies played.
 */
#define BACKTRACK 20000
static int search(const struct rules_match *start, int cap, uint8_t *seats)
{
	static struct rules_action legal[RULES_MAX_LEGAL];
	uint8_t to_act[RULES_MAX_SEATS];
	int ply = 0, tries = 0, seat, furthest = 0;

	frames[0].m = *start;
	frames[0].next = 0;
	while (ply < cap && rules_to_act(&frames[ply].m, to_act) > 0) {
		struct frame *f = &frames[ply];
		int n = candidates(f, ply, legal, &seat), pick = -1;
		union rules_outcome o;

		for (; f->next < n && pick < 0; f->next++) {
			struct rules_match copy = f->m;

			if (rules_apply(&copy, seat, &legal[f->next], &o) == 0 && !harmful(&o))
				pick = f->next;
		}
		if (pick < 0 && ply > 0 && tries < BACKTRACK) {
			tries++;
			ply--; /* try this position's next action */
			continue;
		}
		if (pick < 0) /* give in: any action here */
			pick = 0;
		chosen[ply] = legal[pick];
		seats[ply] = (uint8_t)seat;
		frames[ply + 1].m = f->m;
		rules_apply(&frames[ply + 1].m, seat, &legal[pick], &o);
		frames[ply + 1].next = 0;
		if (++ply > furthest) {
			furthest = ply;
			tries = 0;
		}
	}
	return ply;
}

/* Plays and archives match number k; prints its id and length. */
static void one(int k, int32_t max_turns, sqlite3_stmt *ins_match, sqlite3_stmt *ins_seat,
		sqlite3_stmt *ins_action)
{
	const struct rules_game *g = &rules_game_quinteto;
	const struct wire_game *c = wire_game_find(g->id);
	const char *seeds[RULES_MAX_SEATS] = { "", "", "", "", "", "" };
	struct rules_options ro = { .max_turns = max_turns };
	uint8_t server_seed[RULES_SEED_SIZE], commit[RULES_SHA256_SIZE], seed[RULES_SEED_SIZE];
	static uint8_t seats[MAX_PLIES];
	char seed_hex[2 * RULES_SEED_SIZE + 1], commit_hex[2 * RULES_SHA256_SIZE + 1], id[32];
	struct rules_match m;
	struct rules_result res;
	char *options, *result;
	int64_t seq, t0 = 1700000000000LL;
	int ply, plies;

	for (size_t i = 0; i < sizeof(server_seed); i++)
		server_seed[i] = (uint8_t)rnd();
	rules_sha256(server_seed, sizeof(server_seed), commit);
	wire_hex_encode(server_seed, sizeof(server_seed), seed_hex);
	wire_hex_encode(commit, sizeof(commit), commit_hex);
	rules_match_seed(server_seed, seeds, g->seats, seed);
	if (rules_match_start(&m, g, seed, &ro)) {
		fprintf(stderr, "max_turns %d: the rules core refuses it\n", max_turns);
		exit(1);
	}
	snprintf(id, sizeof(id), "long%d", k);
	check(sqlite3_exec(db, "BEGIN", NULL, NULL, NULL), "begin");
	options = util_json_text(wire_options_encode(c, NULL, &ro, false));
	sqlite3_bind_text(ins_match, 1, id, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(ins_match, 2, g->id, -1, SQLITE_STATIC);
	sqlite3_bind_text(ins_match, 3, options, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(ins_match, 4, commit_hex, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(ins_match, 5, seed_hex, -1, SQLITE_TRANSIENT);
	sqlite3_bind_int64(ins_match, 6, t0);
	done(ins_match, "insert match");
	seq = sqlite3_last_insert_rowid(db);
	free(options);
	for (int i = 0; i < g->seats; i++) {
		char name[16];

		snprintf(name, sizeof(name), "Careful %d", i + 1);
		sqlite3_bind_int64(ins_seat, 1, seq);
		sqlite3_bind_int(ins_seat, 2, i);
		sqlite3_bind_text(ins_seat, 3, g->roles[i], -1, SQLITE_STATIC);
		sqlite3_bind_text(ins_seat, 4, name, -1, SQLITE_TRANSIENT);
		done(ins_seat, "insert seat");
	}
	plies = search(&m, MAX_PLIES, seats);
	for (ply = 0; ply < plies; ply++) {
		struct rules_action a = chosen[ply];
		union rules_outcome o;
		char *at, *ot;

		if (rules_apply(&m, seats[ply], &a, &o))
			exit(1);
		at = util_json_text(c->action_encode(&a));
		ot = util_json_text(c->outcome_encode(&m, &a, &o));
		sqlite3_bind_int64(ins_action, 1, seq);
		sqlite3_bind_int(ins_action, 2, ply);
		sqlite3_bind_int(ins_action, 3, seats[ply]);
		sqlite3_bind_text(ins_action, 4, at, -1, SQLITE_TRANSIENT);
		sqlite3_bind_text(ins_action, 5, ot, -1, SQLITE_TRANSIENT);
		sqlite3_bind_int64(ins_action, 6, t0 + ply);
		done(ins_action, "insert action");
		free(at);
		free(ot);
	}
	rules_result(&m, &res);
	result = util_json_text(c->result_encode(&res));
	{
		sqlite3_stmt *u =
			prepare("UPDATE matches SET result = ?1, ended_at = ?2, plies = ?3 WHERE seq = ?4");

		sqlite3_bind_text(u, 1, result, -1, SQLITE_TRANSIENT);
		sqlite3_bind_int64(u, 2, t0 + ply);
		sqlite3_bind_int(u, 3, ply);
		sqlite3_bind_int64(u, 4, seq);
		done(u, "update match");
		sqlite3_finalize(u);
	}
	check(sqlite3_exec(db, "COMMIT", NULL, NULL, NULL), "commit");
	printf("%s %d plies, result %s\n", id, ply, result);
	free(result);
}

int main(int argc, char **argv)
{
	sqlite3_stmt *ins_match, *ins_seat, *ins_action;
	int32_t max_turns = argc > 3 ? (int32_t)atol(argv[3]) : 0;
	int n = argc > 4 ? atoi(argv[4]) : 1;

	if (argc < 4 || max_turns < 1 || n < 1) {
		fprintf(stderr, "usage: %s DB MIGRATIONS MAX_TURNS [MATCHES]\n", argv[0]);
		return 2;
	}
	frames = malloc((MAX_PLIES + 1) * sizeof(*frames));
	chosen = malloc(MAX_PLIES * sizeof(*chosen));
	if (!frames || !chosen)
		return 1;
	if (store_db_open(argv[1], false, &db) || store_migrate(db, argv[2])) {
		fprintf(stderr, "cannot open and migrate %s\n", argv[1]);
		return 1;
	}
	ins_match = prepare(
		"INSERT INTO matches(id, game, options, commit_hex, server_seed, client_seeds, result, "
		"server_version, started_at, ended_at, plies) VALUES "
		"(?1,?2,?3,?4,?5,'[\"\",\"\",\"\",\"\",\"\",\"\"]','null','0.1.0',?6,?6,0)");
	ins_seat =
		prepare("INSERT INTO match_seats(match_seq, seat, role, name, bot, player_id, client_seed, "
			"abandoned, name_key) VALUES (?1,?2,?3,?4,0,NULL,'',0,quinteto_fold(?4))");
	ins_action = prepare("INSERT INTO match_actions(match_seq, ply, seat, action, outcome, at, stand_in) "
			     "VALUES (?1,?2,?3,?4,?5,?6,0)");
	for (int k = 0; k < n; k++)
		one(k, max_turns, ins_match, ins_seat, ins_action);
	sqlite3_finalize(ins_match);
	sqlite3_finalize(ins_seat);
	sqlite3_finalize(ins_action);
	sqlite3_close(db);
	free(frames);
	free(chosen);
	return 0;
}
