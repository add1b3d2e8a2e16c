/*
 * cli.h: the `quinteto` command's own error codes (docs/ARCHITECTURE.md,
 * Errors: the band -1700..-1799). Its functions return 0 or a negative code:
 * one of these, a STORE_E_* of the archive reads, or a negative errno; main.c
 * turns the outcome of a command into an exit status in one function.
 */
#ifndef QUINTETO_CLI_H
#define QUINTETO_CLI_H

enum cli_error {
	CLI_E_USAGE = -1700,    /* the command line is not one the tool takes */
	CLI_E_MISMATCH = -1701, /* an archive does not match what the rules core computes */
	CLI_E_FORMAT = -1702,   /* an archive is not an archive (a missing field, bad hex...) */
	CLI_E_INPUT =
		-1703, /* an archive could not be had (unknown id, unreadable file); the reason printed */
	CLI_E_OUTPUT = -1704, /* the answer could not be written */
};

/* What a code means: a CLI_E_*, a STORE_E_*, or an errno (strerror's text). */
const char *cli_strerror(int code);

#endif
