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
 * All is read in one read transaction (one snapshot of the archive); the
 * rebuild then writes in that same transaction, so a rated match that the
 * running server commits meanwhile makes SQLite refuse the write
 * (SQLITE_BUSY_SNAPSHOT) and the whole rebuild is done again from the new
 * snapshot: it never erases a rating it did not recompute.
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
	sqlite3 *db;
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
	sqlite3_stmt *s = NULL;
	int n = 0, rc = sqlite3_prepare_v2(b->db,
					   "SELECT seat, player_id FROM match_seats WHERE match_seq = ? "
					   "ORDER BY seat",
					   -1, &s, NULL);

	if (rc == SQLITE_OK)
		rc = sqlite3_bind_int64(s, 1, seq);
	while (rc == SQLITE_OK && (rc = sqlite3_step(s)) == SQLITE_ROW) {
		const char *p = (const char *)sqlite3_column_text(s, 1);

		if (n >= RATING_MAX_SEATS || sqlite3_column_int(s, 0) != n || !p) {
			fprintf(stderr, "quinteto ratings: rated match %s: seat %d %s\n", id,
				sqlite3_column_int(s, 0),
				p ? "is not in seat order" : "has no player (a bot cannot be rated)");
			rc = CLI_E_INPUT;
			break;
		}
		if (!(ids[n++] = strdup(p)))
			rc = -ENOMEM;
		else
			rc = SQLITE_OK;
	}
	if (rc != SQLITE_DONE && rc != CLI_E_INPUT && rc != -ENOMEM) {
		fprintf(stderr, "quinteto ratings: reading the seats of %s: %s\n", id, sqlite3_errmsg(b->db));
		rc = -EIO;
	}
	sqlite3_finalize(s);
	if (rc != SQLITE_DONE) {
		while (n > 0)
			free(ids[--n]);
		return rc;
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
	char *ids[RATING_MAX_SEATS];
	struct rating before[RATING_MAX_SEATS], after[RATING_MAX_SEATS];
	struct entry *e[RATING_MAX_SEATS];
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
		if (!(e[i] = entry_get(b, ids[i], game->id)))
			err = -ENOMEM;
		else
			before[i] = e[i]->r;
	}
	if (!err)
		err = rating_apply(n, before, place, at, after);
	for (int i = 0; !err && i < n; i++) {
		struct hist h = {
			(size_t)(e[i] - b->entries), rseq, seq, at, after[i].rating, after[i].rd, after[i].vol
		};

		e[i]->r = after[i];
		err = hist_add(b, &h);
	}
	for (int i = 0; i < n; i++)
		free(ids[i]);
	b->nmatches++;
	return err;
}

/* Every rated match in rated_seq order, then who is an account; 0 or a code (said). */
static int rebuild_compute(struct rebuild *b)
{
	sqlite3_stmt *s = NULL, *acc = NULL;
	int64_t prev = 0;
	int err = 0,
	    rc = sqlite3_prepare_v2(b->db,
				    "SELECT seq, id, rated_seq, ended_at FROM matches WHERE rated = 1 "
				    "ORDER BY rated_seq, seq",
				    -1, &s, NULL);

	while (rc == SQLITE_OK && !err && (rc = sqlite3_step(s)) == SQLITE_ROW) {
		const char *id = (const char *)sqlite3_column_text(s, 1);

		rc = SQLITE_OK;
		if (sqlite3_column_type(s, 2) == SQLITE_NULL || sqlite3_column_int64(s, 2) == prev) {
			fprintf(stderr, "quinteto ratings: rated match %s has %s rated_seq\n", id,
				sqlite3_column_type(s, 2) == SQLITE_NULL ? "no" : "a repeated");
			err = CLI_E_INPUT;
			break;
		}
		prev = sqlite3_column_int64(s, 2);
		err = match_apply(b, sqlite3_column_int64(s, 0), id, prev, sqlite3_column_int64(s, 3));
	}
	if (!err && rc != SQLITE_DONE) {
		fprintf(stderr, "quinteto ratings: reading the rated matches: %s\n", sqlite3_errmsg(b->db));
		err = -EIO;
	}
	sqlite3_finalize(s);
	rc = err ? SQLITE_OK
		 : sqlite3_prepare_v2(b->db, "SELECT 1 FROM accounts WHERE player_id = ?", -1, &acc, NULL);
	for (size_t i = 0; !err && rc == SQLITE_OK && i < b->nentries; i++) {
		sqlite3_reset(acc);
		rc = sqlite3_bind_text(acc, 1, b->entries[i].player, -1, SQLITE_STATIC);
		if (rc == SQLITE_OK && (rc = sqlite3_step(acc)) == SQLITE_ROW)
			b->entries[i].account = true;
		if (rc == SQLITE_ROW || rc == SQLITE_DONE)
			rc = SQLITE_OK;
	}
	if (!err && rc != SQLITE_OK) {
		fprintf(stderr, "quinteto ratings: reading the accounts: %s\n", sqlite3_errmsg(b->db));
		err = -EIO;
	}
	sqlite3_finalize(acc);
	return err;
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

/* Prints one stored or computed row of `ratings` for the difference report. */
static void rating_row_print(const char *what, const char *player, const char *game, double r, double rd,
			     double vol, long long matches, long long last_at)
{
	printf("  %s: player %s game %s rating %.17g rd %.17g vol %.17g matches %lld last_at %lld\n", what,
	       player, game, r, rd, vol, matches, last_at);
}

/* The stored `ratings` against the computed (accounts only); 0, CLI_E_MISMATCH (said) or -EIO. */
static int check_ratings(struct rebuild *b)
{
	sqlite3_stmt *s = NULL;
	size_t i = 0;
	int rc = sqlite3_prepare_v2(b->db,
				    "SELECT player_id, game, rating, rd, vol, matches, last_at FROM ratings "
				    "ORDER BY player_id, game",
				    -1, &s, NULL);

	while (rc == SQLITE_OK && (rc = sqlite3_step(s)) == SQLITE_ROW) {
		const char *p = (const char *)sqlite3_column_text(s, 0),
			   *g = (const char *)sqlite3_column_text(s, 1);
		double r = sqlite3_column_double(s, 2), rd = sqlite3_column_double(s, 3),
		       vol = sqlite3_column_double(s, 4);
		long long n = sqlite3_column_int64(s, 5), at = sqlite3_column_int64(s, 6);
		const struct entry *e;
		int c;

		while (i < b->nentries && !b->entries[i].account)
			i++;
		e = i < b->nentries ? &b->entries[i] : NULL;
		c = e ? strcmp(p, e->player) : -1;
		c = c ? c : strcmp(g, e->game);
		if (c || !same_double(r, e->r.rating) || !same_double(rd, e->r.rd) ||
		    !same_double(vol, e->r.vol) || n != e->r.matches || at != e->r.last_at) {
			/* c < 0: a stored row the archive does not give; c > 0: a computed row not stored */
			printf("DIFFERENT: ratings: the first row that differs\n");
			if (c <= 0)
				rating_row_print("stored  ", p, g, r, rd, vol, n, at);
			else
				printf("  stored  : no such row\n");
			if (c >= 0)
				rating_row_print("computed", e->player, e->game, e->r.rating, e->r.rd,
						 e->r.vol, e->r.matches, e->r.last_at);
			else
				printf("  computed: no such row\n");
			sqlite3_finalize(s);
			return CLI_E_MISMATCH;
		}
		i++;
		rc = SQLITE_OK;
	}
	sqlite3_finalize(s);
	if (rc != SQLITE_DONE) {
		fprintf(stderr, "quinteto ratings: reading ratings: %s\n", sqlite3_errmsg(b->db));
		return -EIO;
	}
	while (i < b->nentries && !b->entries[i].account)
		i++;
	if (i < b->nentries) {
		const struct entry *e = &b->entries[i];

		printf("DIFFERENT: ratings: the first row that differs\n  stored  : no such row\n");
		rating_row_print("computed", e->player, e->game, e->r.rating, e->r.rd, e->r.vol, e->r.matches,
				 e->r.last_at);
		return CLI_E_MISMATCH;
	}
	return 0;
}

static void hist_row_print(const char *what, const char *player, const char *game, long long rseq,
			   long long mseq, double r, double rd, double vol, long long at)
{
	printf("  %s: player %s game %s rated_seq %lld match_seq %lld rating %.17g rd %.17g vol %.17g at "
	       "%lld\n",
	       what, player, game, rseq, mseq, r, rd, vol, at);
}

/* The stored `rating_history` against the computed (accounts only); as check_ratings(). */
static int check_history(struct rebuild *b)
{
	sqlite3_stmt *s = NULL;
	size_t i = 0;
	int rc = sqlite3_prepare_v2(b->db,
				    "SELECT player_id, game, rated_seq, match_seq, rating, rd, vol, at "
				    "FROM rating_history ORDER BY player_id, game, rated_seq",
				    -1, &s, NULL);

	while (rc == SQLITE_OK && (rc = sqlite3_step(s)) == SQLITE_ROW) {
		const char *p = (const char *)sqlite3_column_text(s, 0),
			   *g = (const char *)sqlite3_column_text(s, 1);
		long long rseq = sqlite3_column_int64(s, 2), mseq = sqlite3_column_int64(s, 3),
			  at = sqlite3_column_int64(s, 7);
		double r = sqlite3_column_double(s, 4), rd = sqlite3_column_double(s, 5),
		       vol = sqlite3_column_double(s, 6);
		const struct hist *h;
		const struct entry *e = NULL;
		int c = -1;

		while (i < b->nhist && !b->entries[b->hist[i].entry].account)
			i++;
		h = i < b->nhist ? &b->hist[i] : NULL;
		if (h) {
			e = &b->entries[h->entry];
			c = strcmp(p, e->player);
			c = c ? c : strcmp(g, e->game);
			c = c ? c : (rseq > h->rated_seq) - (rseq < h->rated_seq);
		}
		if (c || mseq != h->match_seq || at != h->at || !same_double(r, h->rating) ||
		    !same_double(rd, h->rd) || !same_double(vol, h->vol)) {
			printf("DIFFERENT: rating_history: the first row that differs\n");
			if (c <= 0)
				hist_row_print("stored  ", p, g, rseq, mseq, r, rd, vol, at);
			else
				printf("  stored  : no such row\n");
			if (c >= 0)
				hist_row_print("computed", e->player, e->game, (long long)h->rated_seq,
					       (long long)h->match_seq, h->rating, h->rd, h->vol,
					       (long long)h->at);
			else
				printf("  computed: no such row\n");
			sqlite3_finalize(s);
			return CLI_E_MISMATCH;
		}
		i++;
		rc = SQLITE_OK;
	}
	sqlite3_finalize(s);
	if (rc != SQLITE_DONE) {
		fprintf(stderr, "quinteto ratings: reading rating_history: %s\n", sqlite3_errmsg(b->db));
		return -EIO;
	}
	while (i < b->nhist && !b->entries[b->hist[i].entry].account)
		i++;
	if (i < b->nhist) {
		const struct hist *h = &b->hist[i];
		const struct entry *e = &b->entries[h->entry];

		printf("DIFFERENT: rating_history: the first row that differs\n  stored  : no such row\n");
		hist_row_print("computed", e->player, e->game, (long long)h->rated_seq,
			       (long long)h->match_seq, h->rating, h->rd, h->vol, (long long)h->at);
		return CLI_E_MISMATCH;
	}
	return 0;
}

/* --- rebuild: rewrite the tables --------------------------------------------------- */

/* Rewrites both tables inside the open transaction; an SQLite code (SQLITE_DONE on success). */
static int rows_write(struct rebuild *b)
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

/* --- the command ------------------------------------------------------------------ */

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
		sqlite3_close(b->db);
		b->db = NULL;
		return -EIO;
	}
	if (archive_db_init(&b->ad, b->db) ||
	    sqlite3_exec(b->db,
			 "SELECT rated, rated_seq FROM matches LIMIT 0; SELECT 1 FROM ratings, "
			 "rating_history, accounts LIMIT 0",
			 NULL, NULL, NULL) != SQLITE_OK) {
		fprintf(stderr,
			"quinteto ratings: %s: not a Quinteto database of this version (%s); start the "
			"server "
			"once to migrate it\n",
			path, b->ad.err[0] ? b->ad.err : sqlite3_errmsg(b->db));
		archive_db_finish(&b->ad);
		sqlite3_close(b->db);
		b->db = NULL;
		return STORE_E_NOT_QUINTETO;
	}
	return 0;
}

static void rebuild_close(struct rebuild *b)
{
	rebuild_clear(b);
	archive_db_finish(&b->ad);
	sqlite3_close(b->db);
}

/* One attempt on one snapshot: compute, then compare or write. 0, a code, or 1: try again. */
static int rebuild_once(struct rebuild *b, bool check)
{
	size_t accounts = 0, rows = 0;
	int err, rc;

	rebuild_clear(b);
	if (sqlite3_exec(b->db, "BEGIN", NULL, NULL, NULL) != SQLITE_OK) {
		fprintf(stderr, "quinteto ratings: BEGIN: %s\n", sqlite3_errmsg(b->db));
		return -EIO;
	}
	err = rebuild_compute(b);
	err = err ? err : rows_sort(b);
	for (size_t i = 0; i < b->nentries; i++)
		accounts += b->entries[i].account;
	for (size_t i = 0; i < b->nhist; i++)
		rows += b->entries[b->hist[i].entry].account;
	if (!err && check) {
		err = check_ratings(b);
		err = err ? err : check_history(b);
		if (!err)
			printf("identical: %zu ratings and %zu history rows are what %zu rated matches "
			       "give\n",
			       accounts, rows, b->nmatches);
	} else if (!err) {
		rc = rows_write(b);
		if (rc == SQLITE_DONE)
			rc = sqlite3_exec(b->db, "COMMIT", NULL, NULL, NULL);
		if (rc == SQLITE_OK) {
			printf("rebuilt: %zu ratings and %zu history rows from %zu rated matches\n", accounts,
			       rows, b->nmatches);
			return 0;
		}
		sqlite3_exec(b->db, "ROLLBACK", NULL, NULL, NULL);
		if ((rc & 0xff) == SQLITE_BUSY || (rc & 0xff) == SQLITE_LOCKED)
			return 1; /* the server wrote since our snapshot: again, on the new one */
		fprintf(stderr, "quinteto ratings: writing the ratings: %s (nothing changed)\n",
			sqlite3_errstr(rc));
		return -EIO;
	}
	sqlite3_exec(b->db, "ROLLBACK", NULL, NULL, NULL);
	return err;
}

int cli_ratings(int argc, char **argv, const char *db_path)
{
	struct rebuild b;
	bool check = argc == 3 && strcmp(argv[2], "--check") == 0;
	int err = 1;

	if (argc < 2 || argc > 3 || strcmp(argv[1], "rebuild") != 0 || (argc == 3 && !check)) {
		fprintf(stderr, "usage: quinteto [--db PATH] ratings rebuild [--check]\n");
		return CLI_E_USAGE;
	}
	if ((err = rebuild_open(&b, db_path, check)))
		return err;
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
