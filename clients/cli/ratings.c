/*
 * ratings.c: `quinteto ratings rebuild [--check]` (ratings.h).
 *
 * The archive is the one truth: the ratings are what rating_apply() gives
 * when every rated match (matches.rated = 1) is applied in rated_seq order,
 * each from its standing as the rules core computes it at the end of a
 * replay of its seeds, actions and events (wire_archive_replay(): a match
 * that does not reach its recorded result is an error, named, and nothing is
 * written). Every player's state is kept in memory from RATING_INIT, also a
 * deleted account's (its rows are not written, but its matches count for its
 * opponents exactly as they did live); only accounts get rows.
 *
 * All is read in one transaction and written in the same one, so it never
 * erases a rating it did not recompute. SQLite: a read transaction (one
 * snapshot of the archive) that the first write upgrades; a rated match that
 * the running server committed meanwhile makes SQLite refuse it
 * (SQLITE_BUSY_SNAPSHOT) and the whole rebuild is done again from the new
 * snapshot. PostgreSQL (--postgres, a cluster's database): the rebuild first
 * locks rating_clock's row, which every node's rated match updates first, so
 * no rated match commits until the rebuild has; --check reads one
 * REPEATABLE READ snapshot. The same queries serve both (struct rows).
 *
 * Must not: compute a rating any other way than rating_apply(), or read a
 * match other than through the archive codec.
 */
#include "ratings.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "rating/rating.h"
#include "store/archive_read.h"
#include "wire.h"

#define BUSY_MS 5000
#define TRIES   10 /* snapshots tried when the server keeps rating matches under our feet */

/* A player's rating in one game, as the rebuild has it so far. */
struct entry {
	char *player;     /* owned */
	const char *game; /* the registry's id */
	struct rating r;  /* now */
	bool account;     /* player_id is in `accounts`: it gets rows */
	size_t old;       /* rows_sort()'s scratch: the place before sorting */
};

/* The rating after one rated match: a row of rating_history. */
struct hist {
	size_t entry; /* index into entries */
	int64_t rated_seq, match_seq, at;
	double rating, rd, vol;
};

struct rebuild {
	sqlite3 *db; /* the database: SQLite's, */
	PGconn *pg;  /* or PostgreSQL's (--postgres); the other NULL */
	struct archive_db ad;
	struct entry *entries;
	size_t nentries, capentries;
	size_t *index; /* open addressing: entry + 1, 0 for a free slot */
	size_t capindex;
	struct hist *hist;
	size_t nhist, caphist;
	size_t nmatches;
};

/* --- the players' ratings in memory -------------------------------------------- */

static size_t key_hash(const char *player, const char *game)
{
	size_t h = 1469598103934665603ULL;

	for (const char *p = player; *p; p++)
		h = (h ^ (unsigned char)*p) * 1099511628211ULL;
	for (const char *p = game; *p; p++)
		h = (h ^ (unsigned char)*p) * 1099511628211ULL;
	return h;
}

/* Doubles the index (load kept at most one half); 0 or -ENOMEM. */
static int index_grow(struct rebuild *b)
{
	size_t cap = b->capindex ? 2 * b->capindex : 1024, *idx = calloc(cap, sizeof(*idx));

	if (!idx)
		return -ENOMEM;
	for (size_t i = 0; i < b->nentries; i++) {
		size_t k = key_hash(b->entries[i].player, b->entries[i].game) & (cap - 1);

		while (idx[k])
			k = (k + 1) & (cap - 1);
		idx[k] = i + 1;
	}
	free(b->index);
	b->index = idx;
	b->capindex = cap;
	return 0;
}

/* The entry of (player, game), added at RATING_INIT when new; NULL on ENOMEM. */
static struct entry *entry_get(struct rebuild *b, const char *player, const char *game)
{
	size_t k;
	struct entry *e;

	if (2 * (b->nentries + 1) > b->capindex && index_grow(b))
		return NULL;
	for (k = key_hash(player, game) & (b->capindex - 1); b->index[k]; k = (k + 1) & (b->capindex - 1)) {
		e = &b->entries[b->index[k] - 1];
		if (e->game == game && strcmp(e->player, player) == 0)
			return e;
	}
	if (b->nentries == b->capentries) {
		size_t cap = b->capentries ? 2 * b->capentries : 256;
		struct entry *bigger = realloc(b->entries, cap * sizeof(*bigger));

		if (!bigger)
			return NULL;
		b->entries = bigger;
		b->capentries = cap;
	}
	e = &b->entries[b->nentries];
	if (!(e->player = strdup(player)))
		return NULL;
	e->game = game;
	e->r = RATING_INIT;
	e->account = false;
	b->index[k] = ++b->nentries;
	return e;
}

static int hist_add(struct rebuild *b, const struct hist *h)
{
	if (b->nhist == b->caphist) {
		size_t cap = b->caphist ? 2 * b->caphist : 1024;
		struct hist *bigger = realloc(b->hist, cap * sizeof(*bigger));

		if (!bigger)
			return -ENOMEM;
		b->hist = bigger;
		b->caphist = cap;
	}
	b->hist[b->nhist++] = *h;
	return 0;
}

/* Forgets everything computed (a new snapshot starts from nothing). */
static void rebuild_clear(struct rebuild *b)
{
	for (size_t i = 0; i < b->nentries; i++)
		free(b->entries[i].player);
	free(b->entries);
	free(b->index);
	free(b->hist);
	b->entries = NULL, b->index = NULL, b->hist = NULL;
	b->nentries = b->capentries = b->capindex = b->nhist = b->caphist = b->nmatches = 0;
}

/* --- rows: one query's answer, from either database ------------------------------ */

/*
 * A query without parameters run on SQLite (stepped) or PostgreSQL (the whole
 * answer at once, text values): the same loop reads both.
 */
struct rows {
	sqlite3_stmt *s;
	PGresult *r;
	int row, n, rc;
};

/* Runs `lite` on SQLite or `pg` on PostgreSQL; 0, or -EIO after saying why. */
static int rows_open(struct rebuild *b, struct rows *x, const char *lite, const char *pg)
{
	memset(x, 0, sizeof(*x));
	x->row = -1;
	if (b->pg) {
		x->r = PQexec(b->pg, pg);
		if (PQresultStatus(x->r) == PGRES_TUPLES_OK) {
			x->n = PQntuples(x->r);
			return 0;
		}
		fprintf(stderr, "quinteto ratings: %s", PQresultErrorMessage(x->r));
		PQclear(x->r);
		x->r = NULL;
		return -EIO;
	}
	if (sqlite3_prepare_v2(b->db, lite, -1, &x->s, NULL) == SQLITE_OK)
		return 0;
	fprintf(stderr, "quinteto ratings: %s\n", sqlite3_errmsg(b->db));
	return -EIO;
}

static bool rows_next(struct rows *x)
{
	if (!x->s)
		return x->r && ++x->row < x->n;
	x->rc = sqlite3_step(x->s);
	return x->rc == SQLITE_ROW;
}

/* Column c of the current row: text (NULL for NULL), integer, double (PostgreSQL's shortest exact text). */
static const char *col_text(const struct rows *x, int c)
{
	if (x->s)
		return (const char *)sqlite3_column_text(x->s, c);
	return PQgetisnull(x->r, x->row, c) ? NULL : PQgetvalue(x->r, x->row, c);
}

static int64_t col_int(const struct rows *x, int c)
{
	return x->s ? sqlite3_column_int64(x->s, c) : strtoll(PQgetvalue(x->r, x->row, c), NULL, 10);
}

static double col_double(const struct rows *x, int c)
{
	return x->s ? sqlite3_column_double(x->s, c) : strtod(PQgetvalue(x->r, x->row, c), NULL);
}

/* Frees the answer; 0, or -EIO after saying why when SQLite failed in a step. */
static int rows_close(struct rebuild *b, struct rows *x)
{
	int err = 0;

	if (x->s && x->rc != SQLITE_OK && x->rc != SQLITE_ROW && x->rc != SQLITE_DONE) {
		fprintf(stderr, "quinteto ratings: %s\n", sqlite3_errmsg(b->db));
		err = -EIO;
	}
	sqlite3_finalize(x->s);
	PQclear(x->r);
	memset(x, 0, sizeof(*x));
	return err;
}

/* Runs a statement without an answer; 0, or the SQLite code / -EIO (PostgreSQL), said unless `quiet`. */
static int db_exec(struct rebuild *b, const char *sql, bool quiet)
{
	PGresult *r;
	int rc;

	if (!b->pg) {
		rc = sqlite3_exec(b->db, sql, NULL, NULL, NULL);
		if (rc != SQLITE_OK && !quiet)
			fprintf(stderr, "quinteto ratings: %s: %s\n", sql, sqlite3_errmsg(b->db));
		return rc;
	}
	r = PQexec(b->pg, sql);
	rc = PQresultStatus(r) == PGRES_COMMAND_OK || PQresultStatus(r) == PGRES_TUPLES_OK ? 0 : -EIO;
	if (rc && !quiet)
		fprintf(stderr, "quinteto ratings: %s: %s", sql, PQresultErrorMessage(r));
	PQclear(r);
	return rc;
}

/* --- one rated match ------------------------------------------------------------ */

static void last_cb(const struct wire_archive_step *s, void *data)
{
	*(struct rules_match *)data = *s->match;
}

/*
 * Replays match `id` (through the codec, as `quinteto verify` does) and
 * writes its standing; 0, or CLI_E_INPUT after naming the match.
 */
static int match_standing(struct rebuild *b, const char *id, const struct rules_game **game,
			  uint8_t place[RULES_MAX_SEATS])
{
	static char why[1024];
	static struct rules_match last; /* a few KiB: not on the stack */
	struct json_out out = { 0 };
	struct wire_archive a;
	struct rules_result res;
	json_t *j;
	int err;

	err = archive_db_get(&b->ad, id, &out);
	j = !err && out.p ? json_loadb(out.p, out.len, 0, NULL) : NULL;
	json_out_free(&out);
	if (!j) {
		fprintf(stderr, "quinteto ratings: rated match %s cannot be read%s%s\n", id,
			b->ad.err[0] ? ": " : "", b->ad.err);
		return err == -ENOMEM ? -ENOMEM : CLI_E_INPUT;
	}
	err = wire_archive_decode(j, &a, why, sizeof(why));
	if (err == WIRE_OK) {
		memset(&last, 0, sizeof(last));
		err = wire_archive_replay(&a, last_cb, &last, &res, why, sizeof(why));
		*game = rules_game_find(a.game);
		wire_archive_finish(&a);
	}
	json_decref(j);
	if (err == -ENOMEM)
		return err;
	if (err || !res.over || !last.game) {
		fprintf(stderr,
			"quinteto ratings: rated match %s does not replay to its recorded result: %s\n", id,
			err ? why : "the match is not over");
		return CLI_E_INPUT;
	}
	rules_standing(&last, place);
	return 0;
}

/* Match `seq`'s seats' player ids, in seat order, into ids[] (owned copies); their count or a code. */
static int match_players(struct rebuild *b, int64_t seq, const char *id, char *ids[RATING_MAX_SEATS])
{
	char sql[128];
	struct rows x;
	int n = 0, err;

	snprintf(sql, sizeof(sql),
		 "SELECT seat, player_id FROM match_seats WHERE match_seq = %lld ORDER BY seat",
		 (long long)seq);
	if ((err = rows_open(b, &x, sql, sql)))
		return err;
	while (!err && rows_next(&x)) {
		const char *p = col_text(&x, 1);

		if (n >= RATING_MAX_SEATS || col_int(&x, 0) != n || !p) {
			fprintf(stderr, "quinteto ratings: rated match %s: seat %lld %s\n", id,
				(long long)col_int(&x, 0),
				p ? "is not in seat order" : "has no player (a bot cannot be rated)");
			err = CLI_E_INPUT;
		} else if (!(ids[n++] = strdup(p)))
			err = -ENOMEM;
	}
	if (rows_close(b, &x) && !err)
		err = -EIO;
	if (err) {
		while (n > 0)
			free(ids[--n]);
		return err;
	}
	return n;
}

/*
 * Applies rated match `seq` (`id`, rated_seq `rseq`, ended at `at`) to the
 * ratings in memory. Seats are applied in seat order: a player holding two
 * seats of one match (if a room ever lets it) ends with the later seat's
 * figures, as the live update writes them.
 */
static int match_apply(struct rebuild *b, int64_t seq, const char *id, int64_t rseq, int64_t at)
{
	const struct rules_game *game = NULL;
	uint8_t place[RULES_MAX_SEATS];
	char *ids[RATING_MAX_SEATS] = { NULL };
	struct rating before[RATING_MAX_SEATS], after[RATING_MAX_SEATS];
	size_t e[RATING_MAX_SEATS]; /* indexes: entry_get() may move the entries */
	int err = match_standing(b, id, &game, place), n;

	if (err)
		return err;
	if ((n = match_players(b, seq, id, ids)) < 0)
		return n;
	if (n != game->seats || n < 2) {
		fprintf(stderr, "quinteto ratings: rated match %s: %d seats listed for %s's %d\n", id, n,
			game->id, game->seats);
		err = CLI_E_INPUT;
	}
	for (int i = 0; !err && i < n; i++) {
		const struct entry *x = ids[i] ? entry_get(b, ids[i], game->id) : NULL;

		if (!x)
			err = -ENOMEM;
		else
			e[i] = (size_t)(x - b->entries), before[i] = x->r;
	}
	if (!err)
		err = rating_apply(n, before, place, at, after);
	for (int i = 0; !err && i < n; i++) {
		struct hist h = { e[i], rseq, seq, at, after[i].rating, after[i].rd, after[i].vol };

		b->entries[e[i]].r = after[i];
		err = hist_add(b, &h);
	}
	for (int i = 0; i < n; i++)
		free(ids[i]);
	b->nmatches++;
	return err;
}

static int str_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Marks the entries that are accounts (player_id in `accounts`); 0 or a code (said). */
static int accounts_mark(struct rebuild *b)
{
	struct rows x;
	char **ids = NULL;
	size_t n = 0, cap = 0;
	int err = rows_open(b, &x, "SELECT player_id FROM accounts", "SELECT player_id FROM accounts");

	while (!err && rows_next(&x)) {
		if (n == cap) {
			size_t more = cap ? 2 * cap : 256;
			char **bigger = realloc(ids, more * sizeof(*ids));

			if (!bigger) {
				err = -ENOMEM;
				break;
			}
			ids = bigger;
			cap = more;
		}
		if (!(ids[n] = strdup(col_text(&x, 0))))
			err = -ENOMEM;
		else
			n++;
	}
	err = rows_close(b, &x) && !err ? -EIO : err;
	if (!err && n)
		qsort(ids, n, sizeof(*ids), str_cmp);
	for (size_t i = 0; !err && n && i < b->nentries; i++)
		b->entries[i].account = bsearch(&b->entries[i].player, ids, n, sizeof(*ids), str_cmp) != NULL;
	while (n > 0)
		free(ids[--n]);
	free(ids);
	return err;
}

/* Every rated match in rated_seq order, then who is an account; 0 or a code (said). */
static int rebuild_compute(struct rebuild *b)
{
	static const char sql[] = "SELECT seq, id, rated_seq, ended_at FROM matches WHERE rated = 1 "
				  "ORDER BY rated_seq, seq";
	struct rows x;
	int64_t prev = 0;
	int err = rows_open(b, &x, sql, sql);

	while (!err && rows_next(&x)) {
		const char *id = col_text(&x, 1);

		if (!col_text(&x, 2) || col_int(&x, 2) == prev) {
			fprintf(stderr, "quinteto ratings: rated match %s has %s rated_seq\n", id,
				col_text(&x, 2) ? "a repeated" : "no");
			err = CLI_E_INPUT;
			break;
		}
		prev = col_int(&x, 2);
		err = match_apply(b, col_int(&x, 0), id, prev, col_int(&x, 3));
	}
	err = rows_close(b, &x) && !err ? -EIO : err;
	return err ? err : accounts_mark(b);
}

/* --- the rows: sorted as the tables' primary keys -------------------------------- */

static const struct rebuild *sorting;

static int entry_cmp(const void *pa, const void *pb)
{
	const struct entry *a = pa, *b = pb;
	int c = strcmp(a->player, b->player);

	return c ? c : strcmp(a->game, b->game);
}

static int hist_cmp(const void *pa, const void *pb)
{
	const struct hist *a = pa, *b = pb;
	int c = entry_cmp(&sorting->entries[a->entry], &sorting->entries[b->entry]);

	return c ? c : (a->rated_seq > b->rated_seq) - (a->rated_seq < b->rated_seq);
}

/*
 * Sorts the history by (player, game, rated_seq), then the entries by (player,
 * game): SQLite's BINARY order of the primary keys, so the tables read in key
 * order compare row by row. The history's entry indexes follow the entries.
 */
static int rows_sort(struct rebuild *b)
{
	size_t *where = malloc((b->nentries + 1) * sizeof(*where));

	if (!where)
		return -ENOMEM;
	sorting = b;
	if (b->nhist) /* none: no array at all, and qsort wants one */
		qsort(b->hist, b->nhist, sizeof(*b->hist), hist_cmp);
	for (size_t i = 0; i < b->nentries; i++)
		b->entries[i].old = i;
	if (b->nentries)
		qsort(b->entries, b->nentries, sizeof(*b->entries), entry_cmp);
	for (size_t i = 0; i < b->nentries; i++)
		where[b->entries[i].old] = i;
	for (size_t i = 0; i < b->nhist; i++)
		b->hist[i].entry = where[b->hist[i].entry];
	free(where);
	free(b->index); /* its slots named the old places */
	b->index = NULL;
	b->capindex = 0;
	return 0;
}

/* --- check: compare with the stored tables --------------------------------------- */

static bool same_double(double a, double b)
{
	return memcmp(&a, &b, sizeof(a)) == 0;
}

/* A row of `ratings`, stored or computed (the strings borrowed from the answer or the entries). */
struct rating_row {
	const char *player, *game;
	double rating, rd, vol;
	long long matches, last_at;
};

/* A row of `rating_history`, stored or computed. */
struct hist_row {
	const char *player, *game;
	long long rated_seq, match_seq;
	double rating, rd, vol;
	long long at;
};

union check_row {
	struct rating_row rating;
	struct hist_row hist;
};

/*
 * One table --check compares: its stored rows read in key order, walked beside
 * the computed ones sorted alike (rows_sort()). Only accounts have rows, so a
 * computed row of another player is passed over.
 */
struct check_table {
	const char *name;
	const char *lite, *pg; /* the stored rows in key order, on SQLite and on PostgreSQL */
	size_t (*count)(const struct rebuild *b); /* computed rows, accounts' or not */
	/* computed row i into *row; false when it is no account's */
	bool (*computed)(const struct rebuild *b, size_t i, union check_row *row);
	void (*stored)(const struct rows *x, union check_row *row); /* the current row of the answer */
	int (*key_cmp)(const union check_row *a, const union check_row *b);
	/* every other column equal, the doubles bit for bit */
	bool (*same)(const union check_row *a, const union check_row *b);
	void (*print)(const char *what, const union check_row *row);
};

static int key_cmp(const char *p1, const char *g1, const char *p2, const char *g2)
{
	int c = strcmp(p1, p2);

	return c ? c : strcmp(g1, g2);
}

static size_t rating_count(const struct rebuild *b)
{
	return b->nentries;
}

static bool rating_computed(const struct rebuild *b, size_t i, union check_row *row)
{
	const struct entry *e = &b->entries[i];

	row->rating = (struct rating_row){ e->player, e->game,      e->r.rating, e->r.rd,
					   e->r.vol,  e->r.matches, e->r.last_at };
	return e->account;
}

static void rating_stored(const struct rows *x, union check_row *row)
{
	row->rating =
		(struct rating_row){ col_text(x, 0),   col_text(x, 1), col_double(x, 2), col_double(x, 3),
				     col_double(x, 4), col_int(x, 5),  col_int(x, 6) };
}

static int rating_key_cmp(const union check_row *a, const union check_row *b)
{
	return key_cmp(a->rating.player, a->rating.game, b->rating.player, b->rating.game);
}

static bool rating_same(const union check_row *a, const union check_row *b)
{
	const struct rating_row *x = &a->rating, *y = &b->rating;

	return same_double(x->rating, y->rating) && same_double(x->rd, y->rd) &&
	       same_double(x->vol, y->vol) && x->matches == y->matches && x->last_at == y->last_at;
}

static void rating_print(const char *what, const union check_row *row)
{
	const struct rating_row *x = &row->rating;

	printf("  %s: player %s game %s rating %.17g rd %.17g vol %.17g matches %lld last_at %lld\n", what,
	       x->player, x->game, x->rating, x->rd, x->vol, x->matches, x->last_at);
}

static const struct check_table ratings_table = {
	"ratings",
	"SELECT player_id, game, rating, rd, vol, matches, last_at FROM ratings ORDER BY player_id, game",
	"SELECT player_id, game, rating, rd, vol, matches, last_at FROM ratings "
	"ORDER BY player_id COLLATE \"C\", game COLLATE \"C\"",
	rating_count,
	rating_computed,
	rating_stored,
	rating_key_cmp,
	rating_same,
	rating_print,
};

static size_t hist_count(const struct rebuild *b)
{
	return b->nhist;
}

static bool hist_computed(const struct rebuild *b, size_t i, union check_row *row)
{
	const struct hist *h = &b->hist[i];
	const struct entry *e = &b->entries[h->entry];

	row->hist = (struct hist_row){ e->player, e->game, h->rated_seq, h->match_seq,
				       h->rating, h->rd,   h->vol,       h->at };
	return e->account;
}

static void hist_stored(const struct rows *x, union check_row *row)
{
	row->hist = (struct hist_row){ col_text(x, 0),   col_text(x, 1),   col_int(x, 2),    col_int(x, 3),
				       col_double(x, 4), col_double(x, 5), col_double(x, 6), col_int(x, 7) };
}

static int hist_key_cmp(const union check_row *a, const union check_row *b)
{
	const struct hist_row *x = &a->hist, *y = &b->hist;
	int c = key_cmp(x->player, x->game, y->player, y->game);

	return c ? c : (x->rated_seq > y->rated_seq) - (x->rated_seq < y->rated_seq);
}

static bool hist_same(const union check_row *a, const union check_row *b)
{
	const struct hist_row *x = &a->hist, *y = &b->hist;

	return x->match_seq == y->match_seq && x->at == y->at && same_double(x->rating, y->rating) &&
	       same_double(x->rd, y->rd) && same_double(x->vol, y->vol);
}

static void hist_print(const char *what, const union check_row *row)
{
	const struct hist_row *x = &row->hist;

	printf("  %s: player %s game %s rated_seq %lld match_seq %lld rating %.17g rd %.17g vol %.17g at "
	       "%lld\n",
	       what, x->player, x->game, x->rated_seq, x->match_seq, x->rating, x->rd, x->vol, x->at);
}

static const struct check_table history_table = {
	"rating_history",
	"SELECT player_id, game, rated_seq, match_seq, rating, rd, vol, at FROM rating_history "
	"ORDER BY player_id, game, rated_seq",
	"SELECT player_id, game, rated_seq, match_seq, rating, rd, vol, at FROM rating_history "
	"ORDER BY player_id COLLATE \"C\", game COLLATE \"C\", rated_seq",
	hist_count,
	hist_computed,
	hist_stored,
	hist_key_cmp,
	hist_same,
	hist_print,
};

/* The next computed row that is an account's, from *i on, into *row; false past the last. */
static bool computed_next(const struct rebuild *b, const struct check_table *t, size_t *i,
			  union check_row *row)
{
	for (; *i < t->count(b); ++*i) {
		if (t->computed(b, *i, row))
			return true;
	}
	return false;
}

/* The difference report: order < 0, a stored row the archive does not give; > 0, a computed row not stored.
 */
static void check_report(const struct check_table *t, int order, const union check_row *stored,
			 const union check_row *computed)
{
	printf("DIFFERENT: %s: the first row that differs\n", t->name);
	if (order <= 0)
		t->print("stored  ", stored);
	else
		printf("  stored  : no such row\n");
	if (order >= 0)
		t->print("computed", computed);
	else
		printf("  computed: no such row\n");
}

/* A stored table against the computed rows (accounts only); 0, CLI_E_MISMATCH (the first difference said) or
 * -EIO. */
static int check_table(struct rebuild *b, const struct check_table *t)
{
	union check_row stored, computed;
	struct rows x;
	size_t i = 0;
	int order, err = rows_open(b, &x, t->lite, t->pg);

	while (!err && rows_next(&x)) {
		t->stored(&x, &stored);
		order = computed_next(b, t, &i, &computed) ? t->key_cmp(&stored, &computed) : -1;
		if (order || !t->same(&stored, &computed)) {
			check_report(t, order, &stored, &computed); /* before the answer's strings go */
			rows_close(b, &x);
			return CLI_E_MISMATCH;
		}
		i++;
	}
	if (rows_close(b, &x) || err)
		return -EIO;
	if (!computed_next(b, t, &i, &computed))
		return 0;
	check_report(t, 1, NULL, &computed);
	return CLI_E_MISMATCH;
}

/* --- rebuild: rewrite the tables --------------------------------------------------- */

/* Rewrites both tables inside the open transaction; an SQLite code (SQLITE_DONE on success). */
static int rows_write_lite(struct rebuild *b)
{
	sqlite3_stmt *r = NULL, *h = NULL;
	int rc = sqlite3_exec(b->db, "DELETE FROM rating_history; DELETE FROM ratings;", NULL, NULL, NULL);

	if (rc == SQLITE_OK)
		rc = sqlite3_prepare_v2(
			b->db,
			"INSERT INTO ratings(player_id, game, rating, rd, vol, matches, last_at) "
			"VALUES (?, ?, ?, ?, ?, ?, ?)",
			-1, &r, NULL);
	if (rc == SQLITE_OK)
		rc = sqlite3_prepare_v2(
			b->db,
			"INSERT OR REPLACE INTO rating_history(player_id, game, rated_seq, match_seq, "
			"rating, rd, vol, at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
			-1, &h, NULL);
	rc = rc == SQLITE_OK ? SQLITE_DONE : rc;
	for (size_t i = 0; rc == SQLITE_DONE && i < b->nentries; i++) {
		const struct entry *e = &b->entries[i];

		if (!e->account)
			continue;
		sqlite3_reset(r);
		sqlite3_bind_text(r, 1, e->player, -1, SQLITE_STATIC);
		sqlite3_bind_text(r, 2, e->game, -1, SQLITE_STATIC);
		sqlite3_bind_double(r, 3, e->r.rating);
		sqlite3_bind_double(r, 4, e->r.rd);
		sqlite3_bind_double(r, 5, e->r.vol);
		sqlite3_bind_int64(r, 6, e->r.matches);
		sqlite3_bind_int64(r, 7, e->r.last_at);
		rc = sqlite3_step(r);
	}
	for (size_t i = 0; rc == SQLITE_DONE && i < b->nhist; i++) {
		const struct hist *x = &b->hist[i];
		const struct entry *e = &b->entries[x->entry];

		if (!e->account)
			continue;
		sqlite3_reset(h);
		sqlite3_bind_text(h, 1, e->player, -1, SQLITE_STATIC);
		sqlite3_bind_text(h, 2, e->game, -1, SQLITE_STATIC);
		sqlite3_bind_int64(h, 3, x->rated_seq);
		sqlite3_bind_int64(h, 4, x->match_seq);
		sqlite3_bind_double(h, 5, x->rating);
		sqlite3_bind_double(h, 6, x->rd);
		sqlite3_bind_double(h, 7, x->vol);
		sqlite3_bind_int64(h, 8, x->at);
		rc = sqlite3_step(h);
	}
	sqlite3_finalize(r);
	sqlite3_finalize(h);
	return rc;
}

/* One INSERT on PostgreSQL with text parameters; 0 or -EIO (said). */
static int pg_insert(struct rebuild *b, const char *sql, int n, const char *const *v)
{
	PGresult *r = PQexecParams(b->pg, sql, n, NULL, v, NULL, NULL, 0);
	int err = PQresultStatus(r) == PGRES_COMMAND_OK ? 0 : -EIO;

	if (err)
		fprintf(stderr, "quinteto ratings: writing the ratings: %s", PQresultErrorMessage(r));
	PQclear(r);
	return err;
}

/*
 * The same rewrite on PostgreSQL: doubles sent as "%.17g", which reads back as
 * the very same double (and PostgreSQL prints them shortest-exact).
 */
static int rows_write_pg(struct rebuild *b)
{
	char d[3][32], n[4][24];
	int err = db_exec(b, "DELETE FROM rating_history", false);

	err = err ? err : db_exec(b, "DELETE FROM ratings", false);
	for (size_t i = 0; !err && i < b->nentries; i++) {
		const struct entry *e = &b->entries[i];
		const char *v[7] = { e->player, e->game, d[0], d[1], d[2], n[0], n[1] };

		if (!e->account)
			continue;
		snprintf(d[0], sizeof(d[0]), "%.17g", e->r.rating);
		snprintf(d[1], sizeof(d[1]), "%.17g", e->r.rd);
		snprintf(d[2], sizeof(d[2]), "%.17g", e->r.vol);
		snprintf(n[0], sizeof(n[0]), "%lld", (long long)e->r.matches);
		snprintf(n[1], sizeof(n[1]), "%lld", (long long)e->r.last_at);
		err = pg_insert(b,
				"INSERT INTO ratings(player_id, game, rating, rd, vol, matches, last_at) "
				"VALUES ($1, $2, $3, $4, $5, $6, $7)",
				7, v);
	}
	for (size_t i = 0; !err && i < b->nhist; i++) {
		const struct hist *x = &b->hist[i];
		const struct entry *e = &b->entries[x->entry];
		const char *v[8] = { e->player, e->game, n[0], n[1], d[0], d[1], d[2], n[2] };

		if (!e->account)
			continue;
		snprintf(n[0], sizeof(n[0]), "%lld", (long long)x->rated_seq);
		snprintf(n[1], sizeof(n[1]), "%lld", (long long)x->match_seq);
		snprintf(n[2], sizeof(n[2]), "%lld", (long long)x->at);
		snprintf(d[0], sizeof(d[0]), "%.17g", x->rating);
		snprintf(d[1], sizeof(d[1]), "%.17g", x->rd);
		snprintf(d[2], sizeof(d[2]), "%.17g", x->vol);
		err = pg_insert(
			b,
			"INSERT INTO rating_history(player_id, game, rated_seq, match_seq, rating, rd, vol, "
			"at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8) ON CONFLICT (player_id, game, "
			"rated_seq) DO UPDATE SET match_seq = EXCLUDED.match_seq, rating = "
			"EXCLUDED.rating, rd = EXCLUDED.rd, vol = EXCLUDED.vol, at = EXCLUDED.at",
			8, v);
	}
	return err;
}

/* --- the command ------------------------------------------------------------------ */

/* The schema this command needs (0013 / postgres 0003); 0, or STORE_E_NOT_QUINTETO after saying why. */
static int schema_check(struct rebuild *b, const char *where)
{
	static const char *const sql[] = { "SELECT rated, rated_seq FROM matches LIMIT 0",
					   "SELECT player_id FROM ratings LIMIT 0",
					   "SELECT player_id FROM rating_history LIMIT 0",
					   "SELECT player_id FROM accounts LIMIT 0" };
	int err = b->ad.err[0] ? -EIO : 0;

	for (size_t k = 0; !err && k < sizeof(sql) / sizeof(sql[0]); k++)
		err = db_exec(b, sql[k], true);
	if (!err)
		return 0;
	fprintf(stderr,
		"quinteto ratings: %s: not a Quinteto database of this version (%s); start the server once "
		"to "
		"migrate it\n",
		where,
		b->ad.err[0] ? b->ad.err
		: b->pg      ? PQerrorMessage(b->pg)
			     : sqlite3_errmsg(b->db));
	return STORE_E_NOT_QUINTETO;
}

/* Opens PostgreSQL at `conninfo` with the archive reads; 0 or a code (said). */
static int rebuild_open_pg(struct rebuild *b, const char *conninfo)
{
	memset(b, 0, sizeof(*b));
	b->pg = PQconnectdb(conninfo);
	if (PQstatus(b->pg) != CONNECTION_OK) {
		fprintf(stderr, "quinteto ratings: PostgreSQL: %s", PQerrorMessage(b->pg));
		PQfinish(b->pg);
		b->pg = NULL;
		return -EIO;
	}
	if (archive_db_init_pg(&b->ad, b->pg) && !b->ad.err[0])
		snprintf(b->ad.err, sizeof(b->ad.err), "the archive reads cannot be prepared");
	return schema_check(b, "PostgreSQL");
}

/* Opens the database (read-only for --check) with the archive reads; 0 or a code (said). */
static int rebuild_open(struct rebuild *b, const char *path, bool check)
{
	int rc;

	memset(b, 0, sizeof(*b));
	if (access(path, R_OK) != 0) {
		fprintf(stderr, "quinteto ratings: %s: no database there (see --db)\n", path);
		return -ENOENT;
	}
	rc = sqlite3_open_v2(path, &b->db, check ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE, NULL);
	if (rc == SQLITE_OK)
		rc = sqlite3_busy_timeout(b->db, BUSY_MS);
	if (rc == SQLITE_OK && !check && sqlite3_db_readonly(b->db, "main") == 1)
		rc = SQLITE_READONLY;
	if (rc != SQLITE_OK) {
		fprintf(stderr, "quinteto ratings: %s: %s\n", path, sqlite3_errstr(rc));
		return -EIO;
	}
	if (archive_db_init(&b->ad, b->db) && !b->ad.err[0])
		snprintf(b->ad.err, sizeof(b->ad.err), "the archive reads cannot be prepared");
	return schema_check(b, path);
}

static void rebuild_close(struct rebuild *b)
{
	rebuild_clear(b);
	archive_db_finish(&b->ad);
	sqlite3_close(b->db);
	PQfinish(b->pg);
}

/*
 * The transaction of one attempt. SQLite: a read transaction that the
 * rebuild's first write upgrades (refused if the server wrote since).
 * PostgreSQL: --check reads one snapshot; the rebuild first locks the row of
 * rating_clock that every rated match's transaction updates first, so none
 * commits until the rebuild has (and one under way is waited for).
 */
static int rebuild_begin(struct rebuild *b, bool check)
{
	if (!b->pg)
		return db_exec(b, "BEGIN", false) ? -EIO : 0;
	if (check)
		return db_exec(b, "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY", false);
	if (db_exec(b, "BEGIN", false))
		return -EIO;
	return db_exec(b, "SELECT n FROM rating_clock WHERE one = 1 FOR UPDATE", false);
}

/* Writes and commits; 0, 1 (SQLite: the server wrote since the snapshot: try again) or a code (said). */
static int rebuild_commit(struct rebuild *b)
{
	int rc;

	if (b->pg) {
		rc = rows_write_pg(b);
		return rc ? rc : db_exec(b, "COMMIT", false);
	}
	rc = rows_write_lite(b);
	if (rc == SQLITE_DONE)
		rc = sqlite3_exec(b->db, "COMMIT", NULL, NULL, NULL);
	if (rc == SQLITE_OK)
		return 0;
	if ((rc & 0xff) == SQLITE_BUSY || (rc & 0xff) == SQLITE_LOCKED)
		return 1;
	fprintf(stderr, "quinteto ratings: writing the ratings: %s (nothing changed)\n", sqlite3_errstr(rc));
	return -EIO;
}

/* One attempt on one snapshot: compute, then compare or write. 0, a code, or 1: try again. */
static int rebuild_once(struct rebuild *b, bool check)
{
	size_t accounts = 0, rows = 0;
	int err;

	rebuild_clear(b);
	if ((err = rebuild_begin(b, check))) {
		db_exec(b, "ROLLBACK", true);
		return err;
	}
	err = rebuild_compute(b);
	err = err ? err : rows_sort(b);
	for (size_t i = 0; i < b->nentries; i++)
		accounts += b->entries[i].account;
	for (size_t i = 0; i < b->nhist; i++)
		rows += b->entries[b->hist[i].entry].account;
	if (!err && check) {
		err = check_table(b, &ratings_table);
		err = err ? err : check_table(b, &history_table);
		if (!err)
			printf("identical: %zu ratings and %zu history rows are what %zu rated matches "
			       "give\n",
			       accounts, rows, b->nmatches);
	} else if (!err && !(err = rebuild_commit(b))) {
		printf("rebuilt: %zu ratings and %zu history rows from %zu rated matches\n", accounts, rows,
		       b->nmatches);
		return 0;
	}
	db_exec(b, "ROLLBACK", true);
	return err;
}

int cli_ratings(int argc, char **argv, const char *db_path)
{
	struct rebuild b;
	const char *conninfo = NULL;
	bool check = false, bad = argc < 2 || strcmp(argv[1], "rebuild") != 0;
	int err = 1;

	for (int i = 2; i < argc && !bad; i++) {
		if (strcmp(argv[i], "--check") == 0 && !check)
			check = true;
		else if (strcmp(argv[i], "--postgres") == 0 && i + 1 < argc && !conninfo)
			conninfo = argv[++i];
		else
			bad = true;
	}
	if (bad) {
		fprintf(stderr,
			"usage: quinteto [--db PATH] ratings rebuild [--check] [--postgres CONNINFO]\n");
		return CLI_E_USAGE;
	}
	if ((err = conninfo ? rebuild_open_pg(&b, conninfo) : rebuild_open(&b, db_path, check))) {
		rebuild_close(&b);
		return err;
	}
	err = 1;
	for (int tries = 0; err == 1 && tries < TRIES; tries++) {
		if (tries)
			usleep(100000u * (unsigned)tries);
		err = rebuild_once(&b, check);
	}
	if (err == 1) {
		fprintf(stderr,
			"quinteto ratings: the server kept rating matches during %d tries: nothing "
			"changed; run it again\n",
			TRIES);
		err = -EBUSY;
	}
	rebuild_close(&b);
	return err;
}
