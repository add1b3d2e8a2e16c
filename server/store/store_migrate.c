/*
 * store_migrate.c: opening the database and applying migrations/NNNN_*.sql.
 *
 * Each migration runs in its own transaction and is recorded in
 * schema_migrations in that transaction, so a crash leaves it applied or not
 * at all. Foreign keys are off while migrations run (SQLite cannot switch
 * them inside a transaction, and a table rebuild must not cascade deletes
 * into its children); PRAGMA foreign_key_check must find nothing before a
 * migration commits. Runs only at start-up, on the loop thread.
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "store/store_int.h"
#include "store/name_fold.h"
#include "base/util.h"

#define MAX_MIGRATIONS 1024

static int mkdir_parent(const char *path)
{
	char dir[4096];
	char *p;

	if (snprintf(dir, sizeof(dir), "%s", path) >= (int)sizeof(dir))
		return -ENAMETOOLONG;
	p = strrchr(dir, '/');
	if (!p || p == dir)
		return 0;
	*p = '\0';
	for (p = dir + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(dir, 0755) && errno != EEXIST)
			return -errno;
		*p = '/';
	}
	if (mkdir(dir, 0755) && errno != EEXIST)
		return -errno;
	return 0;
}

/*
 * Opens `path` (creating it and its folder unless `readonly`) in WAL mode, with
 * the SQL function quinteto_fold() (name_fold.h: migration 0012 calls it).
 * 0, -errno or -EIO.
 */
int store_db_open(const char *path, bool readonly, sqlite3 **out)
{
	int flags = SQLITE_OPEN_NOMUTEX |
		    (readonly ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE);
	sqlite3 *db = NULL;
	int r;

	if (!readonly && (r = mkdir_parent(path))) {
		util_log(LOG_ERROR, "store: cannot create the folder of %s: %s", path, strerror(-r));
		return r;
	}
	if (sqlite3_open_v2(path, &db, flags, NULL) != SQLITE_OK) {
		util_log(LOG_ERROR, "store: cannot open %s: %s", path, db ? sqlite3_errmsg(db) : "no memory");
		sqlite3_close(db);
		return db ? -EIO : -ENOMEM;
	}
	/* SQLite opens a file it may not write read-only without a word: every write would fail later */
	if (!readonly && sqlite3_db_readonly(db, "main") == 1) {
		util_log(
			LOG_ERROR,
			"store: %s is read-only (its permissions, an immutable attribute or a read-only file "
			"system): the server cannot save anything and does not start",
			path);
		sqlite3_close(db);
		return -EROFS;
	}
	/*
	 * The reader never waits long for the writer: WAL readers do not block.
	 * The writer keeps the live journal's pages in its cache (a miss is a
	 * pread per action under load). Checkpoints are not the writer's: once
	 * the store starts, a thread of its own makes them (store_ckpt.c).
	 */
	if (sqlite3_busy_timeout(db, 5000) != SQLITE_OK || name_fold_register(db) != SQLITE_OK ||
	    store_exec(
		    db,
		    readonly ? "PRAGMA foreign_keys=ON;"
			     : "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL; PRAGMA foreign_keys=ON; "
			       "PRAGMA cache_size=-32768;",
		    "pragmas")) {
		sqlite3_close(db);
		return -EIO;
	}
	*out = db;
	return 0;
}

static int cmp_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Whether migration `version` was applied (*applied); 0 or -EIO. */
static int migration_applied(sqlite3 *db, long version, bool *applied)
{
	sqlite3_stmt *s;
	int rc;

	*applied = false;
	if (sqlite3_prepare_v2(db, "SELECT 1 FROM schema_migrations WHERE version = ?", -1, &s, NULL) !=
	    SQLITE_OK)
		return -EIO;
	rc = sqlite3_bind_int64(s, 1, version);
	if (rc == SQLITE_OK)
		rc = sqlite3_step(s);
	(void)sqlite3_finalize(s);
	*applied = rc == SQLITE_ROW;
	return rc == SQLITE_ROW || rc == SQLITE_DONE ? 0 : -EIO;
}

char *store_file_read(const char *path)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL;
	long n;

	if (!f)
		return NULL;
	if (fseek(f, 0, SEEK_END) == 0 && (n = ftell(f)) >= 0 && fseek(f, 0, SEEK_SET) == 0) {
		buf = malloc((size_t)n + 1);
		if (buf && fread(buf, 1, (size_t)n, f) != (size_t)n) {
			free(buf);
			buf = NULL;
		} else if (buf) {
			buf[n] = '\0';
		}
	}
	fclose(f);
	return buf;
}

static int fk_violation_cb(void *ctx, int n, char **cols, char **names)
{
	util_log(LOG_ERROR, "store: migration %s leaves a dangling reference in %s", (const char *)ctx,
		 n > 0 && cols[0] ? cols[0] : "?");
	return 1;
}

static int record_migration(sqlite3 *db, long version, const char *name)
{
	sqlite3_stmt *s;
	int r = -EIO;

	if (sqlite3_prepare_v2(db,
			       "INSERT INTO schema_migrations(version, name, applied_at) VALUES (?, ?, ?)",
			       -1, &s, NULL) != SQLITE_OK)
		return -EIO;
	if (sqlite3_bind_int64(s, 1, version) == SQLITE_OK &&
	    sqlite3_bind_text(s, 2, name, -1, SQLITE_TRANSIENT) == SQLITE_OK &&
	    sqlite3_bind_int64(s, 3, util_now_ms()) == SQLITE_OK && sqlite3_step(s) == SQLITE_DONE)
		r = 0;
	(void)sqlite3_finalize(s);
	return r;
}

static int apply_migration(sqlite3 *db, const char *dir, const char *name)
{
	char path[4096 + 256], *sql, *end;
	long version = strtol(name, &end, 10);
	bool applied;
	int r;

	if (end == name || *end != '_')
		return 0;
	r = migration_applied(db, version, &applied);
	if (r || applied)
		return r;
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	sql = store_file_read(path);
	if (!sql) {
		util_log(LOG_ERROR, "store: cannot read migration %s", path);
		return -EIO;
	}
	if (store_exec(db, "BEGIN IMMEDIATE", "begin migration"))
		goto err_sql;
	if (store_exec(db, sql, name) || record_migration(db, version, name))
		goto err_rollback;
	if (sqlite3_exec(db, "PRAGMA foreign_key_check", fk_violation_cb, (void *)name, NULL) != SQLITE_OK)
		goto err_rollback;
	if (store_exec(db, "COMMIT", "commit migration"))
		goto err_rollback;
	util_log(LOG_INFO, "store: applied migration %s", name);
	free(sql);
	return 0;
err_rollback:
	store_exec(db, "ROLLBACK", "rollback migration");
err_sql:
	free(sql);
	return -EIO;
}

int store_migrations_list(const char *dir, char **names, size_t max, size_t *n)
{
	DIR *d = opendir(dir);
	struct dirent *e;

	*n = 0;
	if (!d) {
		int r = -errno;

		util_log(LOG_ERROR, "store: cannot open migrations folder %s: %s", dir, strerror(-r));
		return r;
	}
	while ((e = readdir(d))) {
		size_t len = strlen(e->d_name);

		if (len <= 4 || strcmp(e->d_name + len - 4, ".sql") || e->d_name[0] < '0' ||
		    e->d_name[0] > '9')
			continue;
		if (*n == max || !(names[*n] = strdup(e->d_name))) {
			closedir(d);
			return -ENOMEM;
		}
		(*n)++;
	}
	closedir(d);
	qsort(names, *n, sizeof(names[0]), cmp_names);
	return 0;
}

/* Applies every migration of `dir` not yet recorded, in name order. 0, -errno or -EIO. */
int store_migrate(sqlite3 *db, const char *dir)
{
	char *names[MAX_MIGRATIONS];
	size_t n = 0, i;
	int r = store_migrations_list(dir, names, MAX_MIGRATIONS, &n);

	if (!r && store_exec(db,
			     "CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, "
			     "name TEXT NOT NULL, applied_at INTEGER NOT NULL)",
			     "schema_migrations"))
		r = -EIO;
	if (!r && store_exec(db, "PRAGMA foreign_keys=OFF", "migrations"))
		r = -EIO;
	for (i = 0; i < n; i++) {
		if (!r)
			r = apply_migration(db, dir, names[i]);
		free(names[i]);
	}
	if (store_exec(db, "PRAGMA foreign_keys=ON", "migrations"))
		r = r ? r : -EIO;
	return r;
}
