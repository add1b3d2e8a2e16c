/*
 * archive_rows.c: an archived match's JSON into the database's rows for the C
 * tests (archive_rows.h). The statements are built as text (sqlite3_mprintf
 * quotes every string) so that one caller can run them on SQLite and another
 * on PostgreSQL; only the seq of the match just inserted and the name key are
 * said differently in the two dialects.
 */
#include "archive_rows.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store/name_fold.h"

/* The seq of the match inserted last, and a seat's name key, in the database's own words. */
#define LAST_SEQ(o) ((o)->postgres ? "(SELECT max(seq) FROM matches)" : "last_insert_rowid_seq()")
#define NAME_KEY(o) ((o)->postgres ? "lower" : "quinteto_fold")

/* Runs `q` (freed here) unless an earlier statement failed; the first failure. */
static int run(const struct archive_rows *o, int rc, char *q)
{
	rc = rc ? rc : q ? o->exec(o->ctx, q) : -1;
	sqlite3_free(q);
	return rc;
}

static int insert_match(const json_t *j, const struct archive_rows *o)
{
	char *opt = json_dumps(json_object_get(j, "options"), JSON_COMPACT),
	     *seeds = json_dumps(json_object_get(j, "client_seeds"), JSON_COMPACT),
	     *res = json_dumps(json_object_get(j, "result"), JSON_COMPACT | JSON_ENCODE_ANY);
	char rseq[16] = "NULL";
	int rc;

	if (o->rated_seq > 0)
		snprintf(rseq, sizeof(rseq), "%d", o->rated_seq);
	rc = run(o, 0,
		 sqlite3_mprintf(
			 "INSERT INTO matches(id, game, options, commit_hex, server_seed, client_seeds, "
			 "result, server_version, started_at, ended_at, plies, rated, rated_seq) VALUES "
			 "(%Q,%Q,%Q,%Q,%Q,%Q,%Q,'test',%lld,%lld,%d,%d,%s)",
			 json_string_value(json_object_get(j, "id")),
			 json_string_value(json_object_get(j, "game")), opt,
			 json_string_value(json_object_get(j, "commit")),
			 json_string_value(json_object_get(j, "server_seed")), seeds, res,
			 (long long)json_integer_value(json_object_get(j, "started_at")),
			 (long long)json_integer_value(json_object_get(j, "ended_at")),
			 (int)json_array_size(json_object_get(j, "actions")), o->rated_seq > 0, rseq));
	free(opt), free(seeds), free(res);
	return rc;
}

static int insert_seats(const json_t *j, const struct archive_rows *o)
{
	const char *name;
	json_t *x;
	size_t i;
	int rc = 0;

	json_array_foreach(json_object_get(j, "seats"), i, x)
	{
		name = o->players ? o->players[i] : json_string_value(json_object_get(x, "name"));
		rc = run(o, rc,
			 sqlite3_mprintf(
				 "INSERT INTO match_seats(match_seq, seat, role, name, bot, player_id, "
				 "client_seed, name_key) VALUES (%s, %d, %Q, %Q, %d, %Q, '', %s(%Q))",
				 LAST_SEQ(o), (int)json_integer_value(json_object_get(x, "seat")),
				 json_string_value(json_object_get(x, "role")), name,
				 !o->players && json_is_true(json_object_get(x, "bot")),
				 o->players ? name : NULL, NAME_KEY(o), name));
	}
	return rc;
}

static int insert_plies(const json_t *j, const struct archive_rows *o)
{
	json_t *x;
	size_t i;
	int rc = 0;

	json_array_foreach(json_object_get(j, "actions"), i, x)
	{
		char *a = json_dumps(json_object_get(x, "action"), JSON_COMPACT),
		     *out = json_dumps(json_object_get(x, "outcome"), JSON_COMPACT);

		rc = run(o, rc,
			 sqlite3_mprintf(
				 "INSERT INTO match_actions(match_seq, ply, seat, action, outcome, at) "
				 "VALUES (%s, %d, %d, %Q, %Q, %lld)",
				 LAST_SEQ(o), (int)json_integer_value(json_object_get(x, "ply")),
				 (int)json_integer_value(json_object_get(x, "seat")), a, out,
				 (long long)json_integer_value(json_object_get(x, "at"))));
		free(a), free(out);
	}
	json_array_foreach(json_object_get(j, "events"), i, x)
	{
		rc = run(o, rc,
			 sqlite3_mprintf(
				 "INSERT INTO match_events(match_seq, ply, seat, kind, at) VALUES (%s, "
				 "%d, %d, %Q, %lld)",
				 LAST_SEQ(o), (int)json_integer_value(json_object_get(x, "ply")),
				 (int)json_integer_value(json_object_get(x, "seat")),
				 json_string_value(json_object_get(x, "kind")),
				 (long long)json_integer_value(json_object_get(x, "at"))));
	}
	return rc;
}

int archive_rows_insert(const json_t *j, const struct archive_rows *o)
{
	int rc = insert_match(j, o);

	rc = rc ? rc : insert_seats(j, o);
	return rc ? rc : insert_plies(j, o);
}

int archive_rows_sqlite_exec(void *ctx, const char *sql)
{
	sqlite3 *db = ctx;
	int rc = sqlite3_exec(db, sql, NULL, NULL, NULL);

	if (rc != SQLITE_OK)
		printf("# sql: %.200s: %s\n", sql, sqlite3_errmsg(db));
	return rc;
}

/* The seq of the match inserted last: the rows of its children point at it. */
static void seq_fn(sqlite3_context *ctx, int n, sqlite3_value **v)
{
	(void)n;
	(void)v;
	sqlite3_result_int64(ctx, sqlite3_last_insert_rowid(sqlite3_context_db_handle(ctx)));
}

static int sql_file(const struct dirent *d)
{
	size_t n = strlen(d->d_name);

	return n > 4 && strcmp(d->d_name + n - 4, ".sql") == 0;
}

/* The whole file `path` as a string (freed by the caller); NULL if it cannot be read. */
static char *slurp(const char *path)
{
	FILE *f = fopen(path, "rb");
	char *text = NULL;
	long n;

	if (f && fseek(f, 0, SEEK_END) == 0 && (n = ftell(f)) >= 0 && fseek(f, 0, SEEK_SET) == 0 &&
	    (text = calloc(1, (size_t)n + 1)) && fread(text, 1, (size_t)n, f) != (size_t)n)
		free(text), text = NULL;
	if (f)
		fclose(f);
	return text;
}

static int migrate(sqlite3 *db, const char *migrations)
{
	struct dirent **list;
	char path[512], *text;
	int count, err = 0;

	count = scandir(migrations, &list, sql_file, alphasort);
	if (count <= 0)
		return -1;
	for (int k = 0; k < count; k++) {
		snprintf(path, sizeof(path), "%s/%s", migrations, list[k]->d_name);
		text = err ? NULL : slurp(path);
		if (!err && (!text || archive_rows_sqlite_exec(db, text) != SQLITE_OK)) {
			printf("# %s: cannot apply\n", path);
			err = -1;
		}
		free(text);
		free(list[k]);
	}
	free(list);
	return err;
}

int archive_rows_sqlite_open(const char *path, const char *migrations, sqlite3 **db)
{
	int rc = sqlite3_open(path, db);

	rc = rc ? rc
		: sqlite3_create_function(*db, "last_insert_rowid_seq", 0, SQLITE_UTF8, NULL, seq_fn, NULL,
					  NULL);
	rc = rc ? rc : name_fold_register(*db); /* migration 0012 and the seats' name_key */
	rc = rc ? rc : archive_rows_sqlite_exec(*db, "PRAGMA synchronous=OFF"); /* a test's scratch file */
	rc = rc ? rc : migrate(*db, migrations);
	if (rc) {
		printf("# %s: %s\n", path, sqlite3_errmsg(*db));
		sqlite3_close(*db);
		*db = NULL;
		return -1;
	}
	return 0;
}
