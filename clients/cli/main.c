/*
 * main.c: the `quinteto` command-line tool. One table of commands, each a
 * small handler; the work itself is in replay.c and the archive codec
 * (protocol/wire/archive*.c).
 *
 *   quinteto --version        prints "quinteto <version>"
 *   quinteto help             lists the commands
 *   quinteto verify FILE|-    checks an archived match (exit 0 verified, 1 mismatch, 2 unusable input)
 *   quinteto replay FILE|-    prints every ply of an archived match as text
 *
 * Must not: talk to a server (archives come from a file or stdin, e.g. piped
 * from `curl .../api/matches/ID`). Exit statuses: 0 success, 1 the archive
 * does not verify, 2 usage or input errors.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "replay.h"

#define EXIT_MISMATCH 1
#define EXIT_USAGE    2

struct command {
	const char *name;
	const char *args;
	const char *help;
	int (*run)(int argc, char **argv);
};

static int cmd_help(int argc, char **argv);
static int cmd_version(int argc, char **argv);
static int cmd_verify(int argc, char **argv);
static int cmd_replay(int argc, char **argv);

static const struct command commands[] = {
	{ "help", "", "list the commands", cmd_help },
	{ "--version", "", "print the version", cmd_version },
	{ "verify", "FILE|-", "check an archived match: commit, dice, every outcome and the result",
	  cmd_verify },
	{ "replay", "FILE|-", "print every ply of an archived match (re-played through the rules)",
	  cmd_replay },
};

#define COMMAND_COUNT (sizeof(commands) / sizeof(commands[0]))

static int cmd_help(int argc, char **argv)
{
	size_t i;

	(void)argc;
	(void)argv;
	printf("usage: quinteto COMMAND [ARGS]\n\ncommands:\n");
	for (i = 0; i < COMMAND_COUNT; i++)
		printf("  %-10s %-7s %s\n", commands[i].name, commands[i].args, commands[i].help);
	printf("\nAn archived match is the JSON of GET /api/matches/{id}; \"-\" reads it from stdin.\n");
	return EXIT_SUCCESS;
}

static int cmd_version(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	printf("quinteto %s\n", QUINTETO_VERSION);
	return EXIT_SUCCESS;
}

/* Loads argv[1]'s archive, or says why not. */
static json_t *archive_arg(int argc, char **argv)
{
	char why[512];
	json_t *j;

	if (argc != 2) {
		fprintf(stderr, "usage: quinteto %s FILE|-\n", argv[0]);
		return NULL;
	}
	j = replay_archive_load(argv[1], why, sizeof(why));
	if (!j)
		fprintf(stderr, "quinteto %s: %s\n", argv[0], why);
	return j;
}

/* Prints a failed replay; returns the exit status for it. */
static int replay_failed(const char *cmd, int err, const struct replay_report *rep)
{
	if (err == REPLAY_E_MISMATCH) {
		printf("MISMATCH: %s match %s: %s\n", rep->game ? rep->game : "?", rep->id ? rep->id : "?",
		       rep->why);
		return EXIT_MISMATCH;
	}
	if (err == REPLAY_E_FORMAT)
		fprintf(stderr, "quinteto %s: not a valid archive: %s\n", cmd, rep->why);
	else
		fprintf(stderr, "quinteto %s: out of memory\n", cmd);
	return EXIT_USAGE;
}

/* "no result (unfinished)" or the result as the game encodes it. */
static void result_print(const struct replay_report *rep)
{
	char *text = rep->result_json ? json_dumps(rep->result_json, JSON_COMPACT | JSON_SORT_KEYS) : NULL;

	if (!rep->result.over)
		printf("no result (unfinished)");
	else
		printf("result %s", text ? text : "?");
	free(text);
}

/* Replays the archive named by argv; prints `label` and the result on success. */
static int run_archive(int argc, char **argv, replay_step_cb step, const char *label)
{
	static struct replay_report rep; /* 1 KiB of `why`: not on the stack */
	json_t *archive = archive_arg(argc, argv);
	int err;

	if (!archive)
		return EXIT_USAGE;
	err = replay_run(archive, step, NULL, &rep);
	if (err == REPLAY_OK) {
		printf("%s: %s match %s, %zu actions, %zu events, ", label, rep.game, rep.id, rep.actions,
		       rep.events);
		result_print(&rep);
		printf("\n");
	} else
		err = replay_failed(argv[0], err, &rep);
	replay_report_finish(&rep);
	json_decref(archive); /* after printing: rep borrows from it */
	return err;
}

static int cmd_verify(int argc, char **argv)
{
	return run_archive(argc, argv, NULL, "verified");
}

/* One line per step: an action with its recomputed outcome, or an event. */
static void step_print_cb(const struct replay_step *s, void *data)
{
	char *a, *o;

	(void)data;
	if (s->event) {
		printf("ply %4u  seat %d %-8s %-16s event %s\n", s->ply, s->seat, s->role,
		       s->name ? s->name : "-", s->event);
		return;
	}
	a = json_dumps(s->action, JSON_COMPACT | JSON_SORT_KEYS);
	o = json_dumps(s->outcome, JSON_COMPACT | JSON_SORT_KEYS);
	printf("ply %4u  seat %d %-8s %-16s %-20s -> %s\n", s->ply, s->seat, s->role, s->name ? s->name : "-",
	       a ? a : "?", o ? o : "?");
	free(a);
	free(o);
}

static int cmd_replay(int argc, char **argv)
{
	return run_archive(argc, argv, step_print_cb, "end");
}

/* Dispatches argv[1] to its command; see the file comment for exit statuses. */
int main(int argc, char **argv)
{
	size_t i;

	if (argc < 2) {
		cmd_help(0, NULL);
		return EXIT_USAGE;
	}
	for (i = 0; i < COMMAND_COUNT; i++) {
		if (strcmp(argv[1], commands[i].name) == 0)
			return commands[i].run(argc - 1, argv + 1);
	}
	if (strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "--help") == 0)
		return cmd_help(0, NULL);
	fprintf(stderr, "quinteto: unknown command \"%s\" (try: quinteto help)\n", argv[1]);
	return EXIT_USAGE;
}
