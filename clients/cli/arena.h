/*
 * arena.h: `quinteto arena`, bot-only matches through the rules core with a
 * table of win rates (arena.c says what it prints).
 */
#ifndef QUINTETO_CLI_ARENA_H
#define QUINTETO_CLI_ARENA_H

/* The command: argv[0] is "arena". 0, or a CLI_E_* / negative errno. */
int cli_arena(int argc, char **argv);

#endif
