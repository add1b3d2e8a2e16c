/*
 * ratings.h: `quinteto ratings rebuild [--check]` (docs/RATINGS.md, "The
 * rebuild"): the ratings derived again from the archive alone. Every rated
 * match is replayed through the archive codec and the rules core, in
 * rated_seq order, and applied with the server's own rating_apply(); then
 * either the tables `ratings` and `rating_history` are rewritten in one
 * transaction (the one command of the tool that writes to the database), or,
 * with --check, compared with them bit for bit and nothing is written.
 */
#ifndef QUINTETO_CLI_RATINGS_H
#define QUINTETO_CLI_RATINGS_H

/*
 * The `ratings` command (argv[0] "ratings") on the database at `db_path`:
 * 0 done (or, with --check, identical), CLI_E_MISMATCH (--check found a
 * difference, the first one printed), CLI_E_USAGE, CLI_E_INPUT (a rated
 * match that does not replay to its recorded result, named), or a store or
 * errno code (the database), each after saying why.
 */
int cli_ratings(int argc, char **argv, const char *db_path);

#endif
