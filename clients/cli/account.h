/*
 * account.h: `quinteto account reset-password HANDLE [--postgres CONNINFO]`
 * (docs/HOSTING.md, "Accounts"): a host resets a forgotten password.
 */
#ifndef QUINTETO_CLI_ACCOUNT_H
#define QUINTETO_CLI_ACCOUNT_H

/*
 * argv[0] is "account". Reads the new password from stdin (one line, not
 * echoed on a terminal), hashes it as the server does (Argon2id with
 * QUINTETO_PWHASH_OPS / QUINTETO_PWHASH_MEM_KIB, else the server's defaults),
 * sets it and ends every session of the account, on the SQLite database at
 * db_path or on PostgreSQL with --postgres. 0, STORE_E_NOT_FOUND (no such
 * handle), CLI_E_USAGE, or another negative code, said on stderr.
 */
int cli_account(int argc, char **argv, const char *db_path);

#endif
