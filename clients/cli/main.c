/*
 * main.c: the `quinteto` command-line tool. One table of commands, each a
 * small handler; the work itself is in replay.c, db.c (the server's database,
 * read with the HTTP API's own queries), render*.c and the archive codec
 * (protocol/wire/archive*.c).
 *
 *   quinteto --version                      prints "quinteto <version>"
 *   quinteto help                           lists the commands
 *   quinteto matches [--game G] [--player NAME] [--result R] [--limit N] [--before C]
 *   quinteto export ID                      the archived match as JSON
 *   quinteto verify ID... | --all | --file FILE | -
 *   quinteto replay ID | --file FILE | -    every ply as a line
 *   quinteto show ID|--file FILE [--ply N]  the position as text
 *   quinteto backup OUT                     an online copy of the database
 *   quinteto ratings rebuild [--check]      the ratings again from the archive (ratings.c)
 *   quinteto account reset-password HANDLE  a new password from stdin (account.c; it writes)
 *
 * Every command takes `--db PATH` (anywhere on the line; default the
 * server's, var/quinteto.db) and reads the database only, never writing to it
 * (the backup writes OUT), but for `ratings rebuild` without --check: it
 * rewrites the derived tables `ratings` and `rating_history` in one
 * transaction (docs/RATINGS.md), the archive itself untouched. An argument with a '/' or a '.' cannot be a
 * match id, so it is read as a file, as `quinteto verify match.json` always was. Exit statuses: 0 success, 1
 * an archive does not verify, 2 usage, input or database errors (an unknown id included). Every command
 * returns 0 or a negative code (cli.h); exit_status() alone turns it into the exit status.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "arena.h"
#include "account.h"
#include "cli.h"
#include "config.h"
#include "db.h"
#include "ratings.h"
#include "render.h"
#include "replay.h"

#define EXIT_MISMATCH 1
#define EXIT_USAGE    2

/* The exit status of a command's outcome (0 or a negative code): the one place codes become statuses. */
static int exit_status(int err)
{
	if (!err)
		return EXIT_SUCCESS;
	return err == CLI_E_MISMATCH ? EXIT_MISMATCH : EXIT_USAGE;
}

const char *cli_strerror(int code)
{
	switch (code) {
	case CLI_E_USAGE:
		return "usage error";
	case CLI_E_MISMATCH:
		return "the archive does not verify";
	case CLI_E_FORMAT:
		return "not a valid archive";
	case CLI_E_INPUT:
		return "the archive could not be read";
	case CLI_E_OUTPUT:
		return "the answer could not be written";
	default:
		return store_strerror(code); /* STORE_E_* and errno */
	}
}

static const char *db_path = CLI_DB_DEFAULT;

struct command {
	const char *name;
	const char *args;
	const char *help;
	int (*run)(int argc, char **argv);
};

static int cmd_help(int argc, char **argv);
static int cmd_version(int argc, char **argv);
static int cmd_matches(int argc, char **argv);
static int cmd_export(int argc, char **argv);
static int cmd_verify(int argc, char **argv);
static int cmd_replay(int argc, char **argv);
static int cmd_show(int argc, char **argv);
static int cmd_account(int argc, char **argv);
static int cmd_backup(int argc, char **argv);
static int cmd_steps(int argc, char **argv);
static int cmd_ratings(int argc, char **argv);

static const struct command commands[] = {
	{ "help", "", "list the commands", cmd_help },
	{ "--version", "", "print the version", cmd_version },
	{ "matches", "[--game G] [--player NAME] [--result R] [--limit N] [--before C]",
	  "list archived matches, newest first (a player's name whatever its case and accents)",
	  cmd_matches },
	{ "export", "ID", "print an archived match as JSON", cmd_export },
	{ "verify", "ID... | --all | --file FILE | -",
	  "check archived matches: commit, dice, every outcome and the result", cmd_verify },
	{ "replay", "ID | --file FILE | -",
	  "print every ply of an archived match (re-played through the rules)", cmd_replay },
	{ "show", "ID | --file FILE | - [--ply N]", "show the position at ply N (default: the end) as text",
	  cmd_show },
	{ "backup", "OUT", "copy the database to OUT, safely while the server runs", cmd_backup },
	{ "account", "reset-password HANDLE [--postgres CONNINFO] < PASSWORD",
	  "set an account's password (one line of stdin) and end its sessions", cmd_account },
	{ "arena",
	  "--game G --seats L0,L1[,...] [--matches N] [--threads K] [--budget N] [--ms N] [--seed S]",
	  "play bot-only matches through the rules core and print win rates with 95% intervals", cli_arena },
	{ "steps", "ID | --file FILE | -",
	  "print every step of the replay as JSON (the steps the HTTP API serves a page at a time)",
	  cmd_steps },
	{ "ratings", "rebuild [--check]",
	  "derive the ratings again from the archive and rewrite them (--check: compare, write nothing)",
	  cmd_ratings },
};

#define COMMAND_COUNT (sizeof(commands) / sizeof(commands[0]))

static int cmd_help(int argc, char **argv)
{
	size_t i;

	(void)argc;
	(void)argv;
	printf("usage: quinteto [--db PATH] COMMAND [ARGS]\n\ncommands:\n");
	for (i = 0; i < COMMAND_COUNT; i++)
		printf("  %-9s %s\n  %-9s   %s\n", commands[i].name, commands[i].args, "", commands[i].help);
	printf("\n--db PATH is the server's database (default %s). An archived match is the JSON of\n"
	       "GET /api/matches/{id}; --file reads one from a file, \"-\" from stdin.\n",
	       CLI_DB_DEFAULT);
	return 0;
}

static int cmd_version(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	printf("quinteto %s\n", QUINTETO_VERSION);
	return 0;
}

/* --- the archive's source: the database or a file ---------------------------- */

/* Opens the database; 0, or its code after saying why. */
static int db_open(struct archive_db *d, const char *cmd)
{
	char why[512];
	int err = cli_db_open(db_path, d, why, sizeof(why));

	if (err)
		fprintf(stderr, "quinteto %s: %s\n", cmd, why);
	return err;
}

/* Match `id` from the open database; NULL after saying why. */
static json_t *archive_by_id(struct archive_db *d, const char *cmd, const char *id)
{
	struct json_out out = { 0 };
	int err = archive_db_get(d, id, &out);
	json_t *j = out.p ? json_loadb(out.p, out.len, 0, NULL) : NULL;

	json_out_free(&out);
	if (!err && j)
		return j;
	fprintf(stderr, "quinteto %s: %s: %s%s%s\n", cmd, id,
		json_string_value(json_object_get(j, "message")), d->err[0] ? ": " : "", d->err);
	json_decref(j);
	return NULL;
}

/* Match ids are [A-Za-z0-9_-]: an argument with a '/' or a '.' can only be a file (match.json, ./m). */
static bool is_path(const char *arg)
{
	return strcmp(arg, "-") == 0 || strpbrk(arg, "/.") != NULL;
}

/*
 * An archive named on the command line: ID (from --db), --file FILE, "-", or
 * a path as is_path() tells one. NULL after saying why.
 */
static json_t *archive_arg(const char *cmd, const char *flag, const char *value)
{
	struct archive_db d;
	char why[512];
	json_t *j;

	if (flag && !value) {
		fprintf(stderr, "usage: quinteto %s --file FILE\n", cmd);
		return NULL;
	}
	if (flag || is_path(value)) {
		j = replay_archive_load(value, why, sizeof(why));
		if (!j)
			fprintf(stderr, "quinteto %s: %s\n", cmd, why);
		return j;
	}
	if (db_open(&d, cmd))
		return NULL;
	j = archive_by_id(&d, cmd, value);
	cli_db_close(&d);
	return j;
}

/* Prints a failed replay (err from replay_run()); returns err. */
static int replay_failed(const char *cmd, int err, const struct replay_report *rep)
{
	if (err == CLI_E_MISMATCH)
		printf("MISMATCH: %s match %s: %s\n", rep->game ? rep->game : "?", rep->id ? rep->id : "?",
		       rep->why);
	else if (err == CLI_E_FORMAT)
		fprintf(stderr, "quinteto %s: not a valid archive: %s\n", cmd, rep->why);
	else
		fprintf(stderr, "quinteto %s: out of memory\n", cmd);
	return err;
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

/*
 * Replays `archive` (taken; NULL: it could not be had, the reason printed); prints `label` and the
 * result on success. 0 or a code.
 */
static int run_archive(const char *cmd, json_t *archive, replay_step_cb step, const char *label)
{
	static struct replay_report rep; /* 1 KiB of `why`: not on the stack */
	int err;

	if (!archive)
		return CLI_E_INPUT;
	err = replay_run(archive, step, NULL, &rep);
	if (!err) {
		printf("%s: %s match %s, %zu actions, %zu events, ", label, rep.game, rep.id, rep.actions,
		       rep.events);
		result_print(&rep);
		printf("\n");
	} else
		err = replay_failed(cmd, err, &rep);
	replay_report_finish(&rep);
	json_decref(archive); /* after printing: rep borrows from it */
	return err;
}

/* The single archive of `replay` and `show`: ID, --file FILE or -, plus `--ply N` for show. */
static json_t *one_archive(int argc, char **argv, long *ply)
{
	const char *flag = NULL, *value = NULL;
	bool bad = false;
	char *end;

	for (int i = 1; i < argc && !bad; i++) {
		if (ply && strcmp(argv[i], "--ply") == 0 && i + 1 < argc) {
			*ply = strtol(argv[++i], &end, 10);
			bad = *end || *ply < 0;
		} else if (strcmp(argv[i], "--file") == 0 && i + 1 < argc && !value) {
			flag = argv[i];
			value = argv[++i];
		} else if (!value && (argv[i][0] != '-' || strcmp(argv[i], "-") == 0))
			value = argv[i];
		else
			bad = true;
	}
	if (bad || !value) {
		fprintf(stderr, "usage: quinteto %s ID | --file FILE | -%s\n", argv[0],
			ply ? " [--ply N]" : "");
		return NULL;
	}
	return archive_arg(argv[0], flag, value);
}

/* --- verify ------------------------------------------------------------------ */

struct verify_all {
	struct archive_db *d;
	size_t checked, failed, unreadable;
};

/* Verifies one archive; prints the "verified" line only when `quiet` is false. */
static int verify_one(const char *cmd, json_t *archive, bool quiet)
{
	static struct replay_report rep;
	int err;

	if (!quiet)
		return run_archive(cmd, archive, NULL, "verified");
	if (!archive)
		return CLI_E_INPUT;
	err = replay_run(archive, NULL, NULL, &rep);
	err = !err ? 0 : replay_failed(cmd, err, &rep);
	replay_report_finish(&rep);
	json_decref(archive);
	return err;
}

static int verify_all_cb(const char *id, void *data)
{
	struct verify_all *v = data;
	json_t *j = archive_by_id(v->d, "verify", id);
	int err = verify_one("verify", j, true);

	v->checked++;
	if (err == CLI_E_MISMATCH)
		v->failed++;
	else if (err)
		v->unreadable++;
	return 0;
}

/* --all: every archived match; one line per failure, then the count. */
static int verify_everything(void)
{
	struct archive_db d;
	struct verify_all v = { &d, 0, 0, 0 };
	char why[512];
	int r;

	if ((r = db_open(&d, "verify")))
		return r;
	r = cli_db_each_id(&d, verify_all_cb, &v, why, sizeof(why));
	cli_db_close(&d);
	if (r) {
		fprintf(stderr, "quinteto verify: %s\n", why);
		return r;
	}
	printf("verified %zu of %zu matches in %s: %zu do not verify, %zu unreadable\n",
	       v.checked - v.failed - v.unreadable, v.checked, db_path, v.failed, v.unreadable);
	return v.unreadable ? CLI_E_INPUT : v.failed ? CLI_E_MISMATCH : 0;
}

static int cmd_verify(int argc, char **argv)
{
	struct archive_db d;
	bool opened = false;
	int worst = 0, err, i;

	if (argc == 2 && strcmp(argv[1], "--all") == 0)
		return verify_everything();
	if ((argc == 3 && strcmp(argv[1], "--file") == 0) || (argc == 2 && is_path(argv[1])))
		return verify_one("verify", archive_arg("verify", argc == 3 ? argv[1] : NULL, argv[argc - 1]),
				  false);
	for (i = 1; i < argc && argv[i][0] != '-';)
		i++;
	if (argc < 2 || i < argc) {
		fprintf(stderr, "usage: quinteto verify ID... | --all | --file FILE | -\n");
		return CLI_E_USAGE;
	}
	for (i = 1; i < argc; i++) {
		json_t *j;

		if (is_path(argv[i]))
			j = archive_arg("verify", NULL, argv[i]);
		else if (!opened && (err = db_open(&d, "verify")))
			return err;
		else {
			opened = true;
			j = archive_by_id(&d, "verify", argv[i]);
		}
		err = verify_one("verify", j, false);
		worst = exit_status(err) > exit_status(worst) ? err : worst;
	}
	if (opened)
		cli_db_close(&d);
	return worst;
}

/* --- replay, show ---------------------------------------------------------- */

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
	return run_archive(argv[0], one_archive(argc, argv, NULL), step_print_cb, "end");
}

/* The seat's "role (name)" for the header lines. */
static void seat_print(const json_t *seats, json_int_t seat)
{
	const json_t *s = json_array_get(seats, (size_t)seat);

	printf("seat %lld %s (%s)", (long long)seat, json_string_value(json_object_get(s, "role")),
	       json_string_value(json_object_get(s, "name")));
}

/* The step shown for ply N: the last one at that ply (events recorded there included). */
static const json_t *step_at(const json_t *steps, long ply)
{
	const json_t *found = json_array_get(steps, 0), *s;
	size_t i;

	json_array_foreach(steps, i, s)
	{
		if (json_integer_value(json_object_get(s, "ply")) > ply)
			break;
		found = s;
	}
	return found;
}

static void show_step(const struct wire_archive *ar, const json_t *seats, const json_t *step)
{
	const char *game = ar->game, *id = ar->id;
	json_int_t total = (json_int_t)ar->nactions, ply = json_integer_value(json_object_get(step, "ply"));
	const json_t *last = json_object_get(step, "last"), *event = json_object_get(step, "event"), *x;
	char *a = json_is_object(last) ? json_dumps(json_object_get(last, "action"), JSON_COMPACT) : NULL;
	size_t i;

	printf("%s match %s, ply %lld of %lld\n", game, id,
	       (long long)json_integer_value(json_object_get(step, "ply")), (long long)total);
	if (json_is_object(event)) {
		printf("event: ");
		seat_print(seats, json_integer_value(json_object_get(event, "seat")));
		printf(" %s\n", json_string_value(json_object_get(event, "kind")));
	}
	if (a) {
		printf("last: ");
		seat_print(seats, json_integer_value(json_object_get(last, "seat")));
		printf(" played %s%s\n", a,
		       ply > 0 && (size_t)ply <= ar->nactions && ar->actions[ply - 1].stand_in
			       ? " (by a stand-in)"
			       : "");
	}
	free(a);
	printf("to act:");
	json_array_foreach(json_object_get(step, "to_act"), i, x)
	{
		printf(i ? ", " : " ");
		seat_print(seats, json_integer_value(x));
	}
	printf("%s\n", json_array_size(json_object_get(step, "to_act")) ? "" : " nobody (the match is over)");
	cli_render_view(stdout, game, json_object_get(step, "view"), seats);
}

/*
 * The archive named on the command line, decoded into *a, and its steps
 * (wire_archive_steps_new) into *steps; for `quinteto steps` and `show`.
 * 0 when both are there (the caller frees *j, *a and *steps), else a code,
 * with what went wrong printed and nothing left to free.
 */
static int archive_steps(int argc, char **argv, const char *cmd, long *ply, json_t **j,
			 struct wire_archive *a, json_t **steps)
{
	static char why[1024];

	if (!(*j = one_archive(argc, argv, ply)))
		return CLI_E_INPUT;
	if (wire_archive_decode(*j, a, why, sizeof(why)) != WIRE_OK) {
		fprintf(stderr, "quinteto %s: not a valid archive: %s\n", cmd, why);
		json_decref(*j);
		return CLI_E_FORMAT;
	}
	if ((*steps = wire_archive_steps_new(a, why, sizeof(why))))
		return 0;
	if (why[0])
		printf("MISMATCH: %s match %s: %s\n", a->game, a->id, why);
	else
		fprintf(stderr, "quinteto %s: out of memory\n", cmd);
	wire_archive_finish(a);
	json_decref(*j);
	return why[0] ? CLI_E_MISMATCH : -ENOMEM;
}

/* Every step of the replay (wire_archive_steps_new) as one JSON array, a line. */
static int cmd_steps(int argc, char **argv)
{
	json_t *j, *steps;
	struct wire_archive a;
	int err = archive_steps(argc, argv, "steps", NULL, &j, &a, &steps);

	if (err)
		return err;
	if (json_dumpf(steps, stdout, JSON_COMPACT) || putchar('\n') == EOF) {
		fprintf(stderr, "quinteto steps: cannot write the steps\n");
		err = CLI_E_OUTPUT;
	}
	json_decref(steps);
	wire_archive_finish(&a);
	json_decref(j);
	return err;
}

static int cmd_show(int argc, char **argv)
{
	long ply = -1;
	json_t *j, *steps;
	struct wire_archive a;
	int err = archive_steps(argc, argv, "show", &ply, &j, &a, &steps);

	if (err)
		return err;
	if (ply > (long)a.nactions) {
		fprintf(stderr, "quinteto show: match %s has %zu plies\n", a.id, a.nactions);
		err = CLI_E_USAGE;
	} else
		show_step(&a, json_object_get(j, "seats"), step_at(steps, ply < 0 ? (long)a.nactions : ply));
	json_decref(steps);
	wire_archive_finish(&a);
	json_decref(j);
	return err;
}

/* --- matches, export, backup ---------------------------------------------- */

/* One list entry as a line: id, game, end time (UTC), length, seats, result. */
static void match_line(const json_t *m)
{
	time_t at = (time_t)(json_integer_value(json_object_get(m, "ended_at")) / 1000);
	char when[32], *result = json_dumps(json_object_get(m, "result"), JSON_COMPACT | JSON_SORT_KEYS);
	struct tm tm;
	const json_t *s;
	size_t i;

	strftime(when, sizeof(when), "%Y-%m-%d %H:%M", gmtime_r(&at, &tm));
	printf("%-12s %-9s %s  %5lld  ", json_string_value(json_object_get(m, "id")),
	       json_string_value(json_object_get(m, "game")), when,
	       (long long)json_integer_value(json_object_get(m, "plies")));
	json_array_foreach(json_object_get(m, "seats"), i, s)
	{
		printf("%s%s", i ? ", " : "", json_string_value(json_object_get(s, "name")));
	}
	printf("  %s\n", result ? result : "?");
	free(result);
}

/* Fills `q` from the options of `matches`; 0 or CLI_E_USAGE. */
static int matches_args(int argc, char **argv, struct archive_query *q)
{
	char *end;

	for (int i = 1; i < argc; i += 2) {
		const char *v = i + 1 < argc ? argv[i + 1] : NULL;

		if (!v)
			return CLI_E_USAGE;
		if (!strcmp(argv[i], "--game"))
			q->game = v;
		else if (!strcmp(argv[i], "--player"))
			q->player = v;
		else if (!strcmp(argv[i], "--result") && archive_result_valid(v))
			q->result = v;
		else if (!strcmp(argv[i], "--limit") && (q->limit = (int)strtol(v, &end, 10), !*end) &&
			 q->limit >= 1 && q->limit <= ARCHIVE_LIMIT_MAX)
			continue;
		else if (!strcmp(argv[i], "--before") && (q->before = strtoll(v, &end, 10), !*end) &&
			 q->before > 0)
			continue;
		else
			return CLI_E_USAGE;
	}
	return 0;
}

static int cmd_matches(int argc, char **argv)
{
	struct archive_query q = { .limit = 20 };
	struct archive_db d;
	json_t *body = NULL, *m;
	size_t i;
	int err;

	if (matches_args(argc, argv, &q)) {
		fprintf(stderr, "usage: quinteto matches %s\n", commands[2].args);
		return CLI_E_USAGE;
	}
	if ((err = db_open(&d, "matches")))
		return err;
	err = archive_db_list(&d, &q, &body);
	if (!err) {
		json_array_foreach(json_object_get(body, "matches"), i, m)
		{
			match_line(m);
		}
		if (json_is_string(json_object_get(body, "next")))
			printf("more: --before %s\n", json_string_value(json_object_get(body, "next")));
	} else
		fprintf(stderr, "quinteto matches: %s%s%s\n",
			json_string_value(json_object_get(body, "message")), d.err[0] ? ": " : "", d.err);
	json_decref(body);
	cli_db_close(&d);
	return err;
}

static int cmd_export(int argc, char **argv)
{
	json_t *j;

	if (argc != 2 || argv[1][0] == '-') {
		fprintf(stderr, "usage: quinteto export ID\n");
		return CLI_E_USAGE;
	}
	j = archive_arg("export", NULL, argv[1]);
	if (!j)
		return CLI_E_INPUT;
	if (json_dumpf(j, stdout, JSON_COMPACT) != 0 || printf("\n") < 0) {
		json_decref(j);
		return CLI_E_OUTPUT;
	}
	json_decref(j);
	return 0;
}

static int cmd_account(int argc, char **argv)
{
	return cli_account(argc, argv, db_path);
}

static int cmd_backup(int argc, char **argv)
{
	char why[512];
	int err;

	if (argc != 2) {
		fprintf(stderr, "usage: quinteto [--db PATH] backup OUT\n");
		return CLI_E_USAGE;
	}
	if ((err = cli_db_backup(db_path, argv[1], why, sizeof(why)))) {
		fprintf(stderr, "quinteto backup: %s\n", why);
		return err;
	}
	printf("backed up %s to %s\n", db_path, argv[1]);
	return 0;
}

static int cmd_ratings(int argc, char **argv)
{
	return cli_ratings(argc, argv, db_path);
}

/* Takes `--db PATH` (or --db=PATH) out of argv wherever it is; 0, or CLI_E_USAGE when PATH is missing. */
static int db_option(int *argc, char **argv)
{
	int i, o;

	for (i = 1, o = 1; i < *argc; i++) {
		if (strcmp(argv[i], "--db") == 0) {
			if (i + 1 >= *argc)
				return CLI_E_USAGE;
			db_path = argv[++i];
		} else if (strncmp(argv[i], "--db=", 5) == 0)
			db_path = argv[i] + 5;
		else
			argv[o++] = argv[i];
	}
	*argc = o;
	argv[o] = NULL;
	return 0;
}

/* Dispatches argv[1] to its command; see the file comment for exit statuses. */
int main(int argc, char **argv)
{
	size_t i;

	if (db_option(&argc, argv) || argc < 2) {
		cmd_help(0, NULL);
		return exit_status(CLI_E_USAGE);
	}
	for (i = 0; i < COMMAND_COUNT; i++) {
		if (strcmp(argv[1], commands[i].name) == 0)
			return exit_status(commands[i].run(argc - 1, argv + 1));
	}
	if (strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "--help") == 0)
		return exit_status(cmd_help(0, NULL));
	fprintf(stderr, "quinteto: unknown command \"%s\" (try: quinteto help)\n", argv[1]);
	return exit_status(CLI_E_USAGE);
}
