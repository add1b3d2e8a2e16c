/*
 * test_conf.c: the parts of the configuration the integration tests reach
 * only through a few addresses: trusted-proxy matching (prefix boundaries in
 * the middle of a byte, /0, IPv6, IPv4 peers seen as ::ffff:a.b.c.d, what
 * is not an address), list parsing (spaces, empty items, the cap), and that
 * the defaults, a flag and the derived host/port agree; the secrets
 * (redis_password) read from the environment and from a file, and never
 * printed: not by --check-config, not by the warnings about where they are.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/conf.h"
#include "tap.h"

/* Parses `args` (a flag and its value at a time) over the defaults; the parse's result. */
static int parse(struct config *c, const char *flag, const char *value)
{
	char *argv[] = { "quinteto-server", (char *)flag, (char *)value, NULL };

	config_defaults(c);
	return config_parse(c, flag ? 3 : 1, argv);
}

static void test_proxy_prefixes(void)
{
	static struct config c;

	REQUIRE(parse(&c, "--trusted-proxies", "10.9.0.0/12, 192.168.1.7 ,fd00::/8,,2001:db8::1") == 0);
	CHECK_EQ(c.n_proxies, 4);
	CHECK(config_is_trusted_proxy(&c, "10.0.0.1")); /* 10.0.0.0 to 10.15.255.255 */
	CHECK(config_is_trusted_proxy(&c, "10.15.255.255"));
	CHECK(!config_is_trusted_proxy(&c, "10.16.0.0"));
	CHECK(!config_is_trusted_proxy(&c, "11.0.0.1"));
	CHECK(config_is_trusted_proxy(&c, "192.168.1.7"));
	CHECK(!config_is_trusted_proxy(&c, "192.168.1.8"));
	CHECK(config_is_trusted_proxy(&c, "::ffff:192.168.1.7")); /* an IPv4 peer on an IPv6 socket */
	CHECK(config_is_trusted_proxy(&c, "fd12:3456::1"));
	CHECK(!config_is_trusted_proxy(&c, "fe00::1"));
	CHECK(config_is_trusted_proxy(&c, "2001:db8::1"));
	CHECK(!config_is_trusted_proxy(&c, "2001:db8::2"));
	CHECK(!config_is_trusted_proxy(&c, "not an address"));
	CHECK(!config_is_trusted_proxy(&c, ""));
}

static void test_proxy_all_and_none(void)
{
	static struct config c;

	REQUIRE(parse(&c, "--trusted-proxies", "0.0.0.0/0") == 0);
	CHECK(config_is_trusted_proxy(&c, "203.0.113.9"));
	CHECK(!config_is_trusted_proxy(&c, "::1")); /* /0 of IPv4 is not IPv6 */
	REQUIRE(parse(&c, NULL, NULL) == 0);
	CHECK_EQ(c.n_proxies, 0);
	CHECK(!config_is_trusted_proxy(&c, "127.0.0.1"));
}

static void test_lists(void)
{
	static struct config c;

	CHECK(parse(&c, "--trusted-proxies", "10.0.0.0/8/1") == CONF_E_INVALID);
	CHECK(parse(&c, "--trusted-proxies",
		    "1.2.3.4,1.2.3.4,1.2.3.4,1.2.3.4,1.2.3.4,1.2.3.4,1.2.3.4,1.2.3.4,"
		    "1.2.3.4,1.2.3.4,1.2.3.4,1.2.3.4,1.2.3.4,1.2.3.4,1.2.3.4,1.2.3.4,"
		    "1.2.3.4") == CONF_E_INVALID); /* 17: over the cap */
	REQUIRE(parse(&c, "--allowed-origins", " https://a.example , http://b.example:8080") == 0);
	CHECK_EQ(c.n_origins, 2);
	CHECK(!strcmp(c.origins[0], "https://a.example"));
	CHECK(!strcmp(c.origins[1], "http://b.example:8080"));
	CHECK(parse(&c, "--allowed-origins", "https://a.example/path") == CONF_E_INVALID);
	REQUIRE(parse(&c, "--listen", "127.0.0.1:0, [::1]:8081") == 0);
	CHECK_EQ(c.n_listen, 2);
	CHECK(!strcmp(c.host, "127.0.0.1"));
	CHECK_EQ(c.port, 0);
	CHECK(!strcmp(c.listen[1].host, "::1"));
	CHECK_EQ(c.listen[1].port, 8081);
	CHECK(parse(&c, "--listen", " , ") == CONF_E_INVALID);
}

static void test_defaults(void)
{
	static struct config c;

	REQUIRE(parse(&c, NULL, NULL) == 0);
	CHECK(!strcmp(c.host, "127.0.0.1"));
	CHECK_EQ(c.port, 8080);
	CHECK_EQ(c.max_frame, 16384);
	CHECK_EQ((long long)c.rate_per_s, 20);
	CHECK_EQ((long long)c.rate_burst, 40);
	CHECK_EQ(c.max_conns_per_addr, 256);
	CHECK_EQ(c.bot_delay_ms, 400);
	CHECK_EQ(c.bot_threads, 0); /* one fewer than the cores (room_bots_threads) */
	CHECK_EQ(c.bot_move_ms, 200);
	CHECK_EQ(c.bot_budget, 0);
	CHECK_EQ(c.source[0], CONF_DEFAULT);
	REQUIRE(parse(&c, "--max-frame", "300") == 0);
	CHECK_EQ(c.max_frame, 300);
}

/* config_parse(argc, argv) over the defaults with stdout and stderr in `out` (what it printed); its result.
 */
static int parse_printed(struct config *c, int argc, char **argv, char *out, size_t n)
{
	char path[] = "/tmp/quinteto-conf-XXXXXX";
	int fd = mkstemp(path), o1 = dup(1), o2 = dup(2), r;
	ssize_t len;

	fflush(stdout);
	fflush(stderr);
	dup2(fd, 1);
	dup2(fd, 2);
	config_defaults(c);
	r = config_parse(c, argc, argv);
	fflush(stdout);
	fflush(stderr);
	dup2(o1, 1);
	dup2(o2, 2);
	close(o1);
	close(o2);
	lseek(fd, 0, SEEK_SET);
	len = read(fd, out, n - 1);
	out[len > 0 ? len : 0] = '\0';
	close(fd);
	unlink(path);
	return r;
}

static void test_secret_env(void)
{
	static struct config c;
	static char out[65536];
	char *check[] = { "quinteto-server", "--check-config", NULL }, *run[] = { "quinteto-server", NULL };

	setenv("QUINTETO_REDIS_PASSWORD", "pw-from-env-7Qx", 1);
	setenv("QUINTETO_REDIS_USER", "quinteto", 1);
	REQUIRE(parse_printed(&c, 1, run, out, sizeof(out)) == 0);
	CHECK(!strcmp(c.redis_password, "pw-from-env-7Qx"));
	CHECK(!strcmp(c.redis_user, "quinteto"));
	CHECK(strstr(out, "pw-from-env") == NULL); /* nothing printed about it: the environment is the way */
	CHECK(parse_printed(&c, 2, check, out, sizeof(out)) == CONF_E_DONE);
	CHECK(strstr(out, "redis_password") && strstr(out, "(set)"));
	CHECK(strstr(out, "quinteto ") != NULL); /* the user is no secret */
	CHECK(strstr(out, "pw-from-env") == NULL);
	unsetenv("QUINTETO_REDIS_PASSWORD");
	/* a user without a password is refused, naming the setting */
	CHECK(parse_printed(&c, 1, run, out, sizeof(out)) == CONF_E_INVALID);
	CHECK(strstr(out, "redis_user") && strstr(out, "redis_password"));
	unsetenv("QUINTETO_REDIS_USER");
}

static void test_secret_file_and_flag(void)
{
	static struct config c;
	static char out[65536];
	char path[] = "/tmp/quinteto-conf-file-XXXXXX";
	char *check[] = { "quinteto-server", "--config", path, "--check-config", NULL };
	char *flag[] = { "quinteto-server", "--redis-password", "pw-on-the-flag-3Rz", NULL };
	int fd = mkstemp(path);
	const char *json = "{\"redis_password\": \"pw-in-the-file-9Kd\", \"redis_user\": \"node-user\"}";

	REQUIRE(fd >= 0 && write(fd, json, strlen(json)) == (ssize_t)strlen(json));
	close(fd);
	chmod(path, 0644); /* readable by every user: warned about, the password not shown */
	CHECK(parse_printed(&c, 4, check, out, sizeof(out)) == CONF_E_DONE);
	CHECK(!strcmp(c.redis_password, "pw-in-the-file-9Kd"));
	CHECK(!strcmp(c.redis_user, "node-user"));
	CHECK(strstr(out, "holds a secret") && strstr(out, "(redis_password)"));
	CHECK(strstr(out, "(set)") != NULL);
	CHECK(strstr(out, "pw-in-the-file") == NULL);
	chmod(path, 0600); /* as it should be: quiet */
	CHECK(parse_printed(&c, 4, check, out, sizeof(out)) == CONF_E_DONE);
	CHECK(strstr(out, "holds a secret") == NULL);
	unlink(path);
	/* on the command line it works, with a warning that every user sees it, which does not repeat it */
	REQUIRE(parse_printed(&c, 3, flag, out, sizeof(out)) == 0);
	CHECK(!strcmp(c.redis_password, "pw-on-the-flag-3Rz"));
	CHECK(strstr(out, "--redis-password shows the password") && strstr(out, "QUINTETO_REDIS_PASSWORD"));
	CHECK(strstr(out, "pw-on-the-flag") == NULL);
}

int main(void)
{
	clearenv(); /* a QUINTETO_* variable of the caller's would be read */
	TEST(test_proxy_prefixes);
	TEST(test_proxy_all_and_none);
	TEST(test_lists);
	TEST(test_defaults);
	TEST(test_secret_env);
	TEST(test_secret_file_and_flag);
	return tap_done();
}
