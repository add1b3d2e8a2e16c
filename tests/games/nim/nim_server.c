/*
 * nim_server.c: a test-only main, the server with one more game. It registers
 * Nim (rules, codec, bots) in the registries, then runs exactly what
 * server/main.c runs, from the server library as the build made it: no file
 * of server/ is compiled again or edited. `nim-server verify FILE` checks an
 * archived match (the JSON of GET /api/matches/{id}) through the archive
 * verifier instead, as `quinteto verify` would for a game it knows: exit 0
 * and "verified", or 1 and why.
 */
#include <signal.h>
#include <stdio.h>
#include <string.h>

#include "base/conf.h"
#include "bots.h"
#include "nim.h"
#include "server.h"
#include "wire.h"

static int verify_file(const char *path)
{
	struct wire_archive a;
	json_error_t jerr;
	char why[256] = "";
	json_t *j = json_load_file(path, JSON_REJECT_DUPLICATES, &jerr);
	int err;

	if (!j) {
		fprintf(stderr, "nim-server verify: %s: %s\n", path, jerr.text);
		return 1;
	}
	err = wire_archive_decode(j, &a, why, sizeof(why)); /* `a` borrows strings from `j` */
	if (err) {
		json_decref(j);
		fprintf(stderr, "nim-server verify: not an archive: %s\n", why);
		return 1;
	}
	err = wire_archive_verify(&a, why, sizeof(why));
	wire_archive_finish(&a);
	json_decref(j);
	if (err) {
		fprintf(stderr, "nim-server verify: %s\n", why);
		return 1;
	}
	printf("verified\n");
	return 0;
}

int main(int argc, char **argv)
{
	static struct config cfg;
	int r;

	rules_game_register(&rules_game_nim);
	wire_game_register(&wire_game_nim);
	bot_game_register(&bot_game_nim);
	if (argc == 3 && strcmp(argv[1], "verify") == 0)
		return verify_file(argv[2]);
	config_defaults(&cfg);
	r = config_parse(&cfg, argc, argv);
	if (r)
		return r > 0 ? 0 : 2;
	signal(SIGPIPE, SIG_IGN);
	return server_run(&cfg);
}
