/*
 * test_conf.c: the parts of the configuration the integration tests reach
 * only through a few addresses: trusted-proxy matching (prefix boundaries in
 * the middle of a byte, /0, IPv6, IPv4 peers seen as ::ffff:a.b.c.d, what
 * is not an address), list parsing (spaces, empty items, the cap), and that
 * the defaults, a flag and the derived host/port agree.
 */
#include <stdlib.h>
#include <string.h>

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

int main(void)
{
	clearenv(); /* a QUINTETO_* variable of the caller's would be read */
	TEST(test_proxy_prefixes);
	TEST(test_proxy_all_and_none);
	TEST(test_lists);
	TEST(test_defaults);
	return tap_done();
}
