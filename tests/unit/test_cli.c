/*
 * test_cli.c: `quinteto verify` and `quinteto replay` (argv[1] is the built
 * tool) on archive files of a real Ur match in which Light resigns at ply 40.
 * The tool must verify it with the event replayed at its ply, print the event
 * in the replay, and exit 1 with a message naming the ply for each tampering
 * with the event (its seat, its ply, removing it); 2 for what is no archive.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "match_fixture.h"
#include "tap.h"

static const char *cli;
static char dir[] = "/tmp/quinteto-cli-XXXXXX";

/* Runs `quinteto ARGS` on `j` written to a file; returns the exit status, output in out. */
static int run(const char *cmd, const json_t *j, char *out, size_t outlen)
{
	char path[256], line[1024];
	size_t n = 0;
	FILE *p;
	int st;

	snprintf(path, sizeof(path), "%s/archive.json", dir);
	if (json_dump_file(j, path, JSON_COMPACT) != 0)
		return -1;
	snprintf(line, sizeof(line), "'%s' %s '%s' 2>&1", cli, cmd, path);
	p = popen(line, "r");
	if (!p)
		return -1;
	out[0] = '\0';
	while (n + 1 < outlen && fgets(out + n, (int)(outlen - n), p))
		n += strlen(out + n);
	while (fgets(line, sizeof(line), p))
		; /* drain */
	st = pclose(p);
	unlink(path);
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static json_t *archive(void)
{
	return fixture_archive("ur", 11, 40, 0);
}

static void test_verify_resigned(void)
{
	static char out[1 << 16];
	json_t *j = archive();

	REQUIRE(j);
	CHECK_EQ(run("verify", j, out, sizeof(out)), 0);
	CHECK(strstr(out, "verified: ur match fixture1, 40 actions, 1 events, "
			  "result {\"reason\":\"resign\",\"winner\":1}") == out);
	printf("# %s", out);
	CHECK_EQ(run("replay", j, out, sizeof(out)), 0);
	CHECK(strstr(out, "ply   40  seat 0 light    Ana              event resign\n") != NULL);
	CHECK(strstr(out, "ply   39  seat ") != NULL);
	CHECK(strstr(out, "ply   39  seat ") < strstr(out, "event resign"));
	json_decref(j);
}

/* Tampers with a copy; the tool must exit 1 naming `ply`. */
static void expect_mismatch(const char *what, const char *key, json_t *value, const char *ply)
{
	static char out[1 << 16];
	json_t *j = archive(), *ev;

	if (!j)
		return;
	ev = json_array_get(json_object_get(j, "events"), 0);
	if (key)
		json_object_set_new(ev, key, value);
	else
		json_array_clear(json_object_get(j, "events"));
	CHECK_EQ(run("verify", j, out, sizeof(out)), 1);
	CHECK(strstr(out, "MISMATCH: ur match fixture1: ") == out);
	CHECK(strstr(out, ply) != NULL);
	printf("# %s: %s", what, out);
	json_decref(j);
}

static void test_tampered_event(void)
{
	expect_mismatch("seat", "seat", json_integer(1), ": ply 40: result");
	expect_mismatch("ply", "ply", json_integer(12), ": ply 12: seat ");
	expect_mismatch("removed", NULL, NULL, ": ply 40: result");
}

static void test_not_an_archive(void)
{
	static char out[4096];
	json_t *j = json_pack("{s:s}", "hello", "world");

	CHECK_EQ(run("verify", j, out, sizeof(out)), 2);
	CHECK(strstr(out, "not a valid archive") != NULL);
	json_decref(j);
	j = archive();
	REQUIRE(j);
	json_object_set_new(json_array_get(json_object_get(j, "events"), 0), "kind", json_string("quit"));
	CHECK_EQ(run("verify", j, out, sizeof(out)), 2);
	CHECK(strstr(out, "events[0]") != NULL);
	json_decref(j);
}

int main(int argc, char **argv)
{
	if (argc < 2 || !mkdtemp(dir)) {
		printf("Bail out! usage: test_cli QUINTETO (and a writable /tmp)\n");
		return 1;
	}
	cli = argv[1];
	TEST(test_verify_resigned);
	TEST(test_tampered_event);
	TEST(test_not_an_archive);
	rmdir(dir);
	return tap_done();
}
