/*
 * account.c: `quinteto account reset-password` (account.h). The one command
 * that writes an account: it opens the database read-write for this alone
 * (SQLite waits up to 5 s for the server's write lock; the server may run),
 * and goes through the store's own statement (store_acct_reset_password), so
 * the table's rules live in one place. It prints nothing secret: neither the
 * password nor its hash.
 *
 * The command cannot reach a running server's memory: the server finds the
 * sessions gone at its next periodic check (session_check_s, docs/ACCOUNTS.md)
 * and signs their connections out then; a hello with an ended token starts a
 * new guest.
 */
#include "account.h"

#include <errno.h>
#include <libpq-fe.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <unistd.h>

#include "base/pwhash.h"
#include "base/util.h"
#include "cli.h"
#include "store/store.h"
#include "wire.h"

/* One line of stdin into buf (without its newline), not echoed on a terminal. 0 or -EIO. */
static int read_secret(char *buf, size_t size)
{
	struct termios old, quiet;
	bool tty = isatty(STDIN_FILENO) && !tcgetattr(STDIN_FILENO, &old);
	size_t n;
	int err = 0;

	if (tty) {
		quiet = old;
		quiet.c_lflag &= ~(tcflag_t)ECHO;
		(void)tcsetattr(STDIN_FILENO, TCSAFLUSH, &quiet);
		fprintf(stderr, "new password: ");
	}
	if (!fgets(buf, (int)size, stdin))
		err = -EIO;
	if (tty) {
		(void)tcsetattr(STDIN_FILENO, TCSAFLUSH, &old);
		fprintf(stderr, "\n");
	}
	n = err ? 0 : strcspn(buf, "\r\n");
	buf[n] = '\0';
	return err;
}

static long env_num(const char *name, long def)
{
	const char *v = getenv(name);

	return v && *v ? strtol(v, NULL, 10) : def;
}

/* The reset on SQLite's file or PostgreSQL; 0 or a code, said. */
static int reset(const char *db_path, const char *conninfo, const char *key, const char *hash, int *ended)
{
	sqlite3 *db = NULL;
	PGconn *pg = NULL;
	int err;

	if (conninfo) {
		pg = PQconnectdb(conninfo);
		if (PQstatus(pg) != CONNECTION_OK) {
			fprintf(stderr, "quinteto account: PostgreSQL: %s", PQerrorMessage(pg));
			PQfinish(pg);
			return -EIO;
		}
	} else if (access(db_path, F_OK) ||
		   sqlite3_open_v2(db_path, &db, SQLITE_OPEN_READWRITE, NULL) != SQLITE_OK) {
		fprintf(stderr, "quinteto account: cannot open %s for writing\n", db_path);
		sqlite3_close(db);
		return -ENOENT;
	} else {
		(void)sqlite3_busy_timeout(db, 5000);
		(void)sqlite3_exec(db, "PRAGMA foreign_keys=ON", NULL, NULL, NULL);
	}
	err = store_acct_reset_password(db, pg, key, hash, util_now_ms(), ended);
	sqlite3_close(db);
	PQfinish(pg);
	return err;
}

int cli_account(int argc, char **argv, const char *db_path)
{
	const char *handle = NULL, *conninfo = NULL, *why;
	char key[HANDLE_SIZE], pw[1024], hash[PWHASH_STR_SIZE];
	int i, err, ended = 0;

	for (i = 2; i < argc; i++) {
		if (!strcmp(argv[i], "--postgres") && i + 1 < argc)
			conninfo = argv[++i];
		else if (!handle && argv[i][0] != '-')
			handle = argv[i];
		else
			break;
	}
	if (argc < 3 || strcmp(argv[1], "reset-password") || !handle || i < argc) {
		fprintf(stderr,
			"usage: quinteto [--db PATH] account reset-password HANDLE [--postgres CONNINFO]"
			" < new-password\n");
		return CLI_E_USAGE;
	}
	if ((why = handle_check(handle, key))) {
		fprintf(stderr, "quinteto account: no account has that handle (%s)\n", why);
		return STORE_E_NOT_FOUND;
	}
	if (read_secret(pw, sizeof(pw)) || !wire_text_valid(pw, 128) || strlen(pw) < 8) {
		memset(pw, 0, sizeof(pw));
		fprintf(stderr, "quinteto account: the new password must be one line of 8 to 128 printable "
				"characters\n");
		return CLI_E_USAGE;
	}
	err = pwhash_str(pw, (unsigned long long)env_num("QUINTETO_PWHASH_OPS", 2),
			 (size_t)env_num("QUINTETO_PWHASH_MEM_KIB", 65536), hash);
	memset(pw, 0, sizeof(pw));
	if (!err)
		err = reset(db_path, conninfo, key, hash, &ended);
	memset(hash, 0, sizeof(hash));
	if (err == STORE_E_NOT_FOUND)
		fprintf(stderr, "quinteto account: no account has the handle %s\n", handle);
	else if (err)
		fprintf(stderr, "quinteto account: the password was not changed: %s\n", store_strerror(err));
	else
		printf("the password of %s is reset; %d session%s ended\n", handle, ended,
		       ended == 1 ? "" : "s");
	return err;
}
