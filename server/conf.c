/*
 * conf.c: command-line parsing for quinteto-server. Defaults follow
 * protocol.md (16 KiB frames, 20 msg/s with bursts of 40, 256 connections per
 * address). The web client and migrations default to the source tree the
 * binary was built from when it is there, else to the installed copies.
 */
#include "conf.h"

#include <getopt.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "config.h"
#include "util.h"

static void usage(FILE *f)
{
	fprintf(f, "usage: quinteto-server [options]\n"
		   "  --listen HOST:PORT     the one address to listen on (default 127.0.0.1:8080);\n"
		   "                         [IPv6]:PORT for IPv6, a host name is resolved\n"
		   "  --db PATH              SQLite database (default var/quinteto.db)\n"
		   "  --web DIR              web client to serve (default: the source tree's\n"
		   "                         clients/web, else the installed copy)\n"
		   "  --migrations DIR       SQL migrations (default: alike)\n"
		   "  --bot-delay-ms N       how long a bot waits before acting (default 400)\n"
		   "  --max-frame BYTES      inbound message limit (default 16384)\n"
		   "  --rate N               messages per second per connection (default 20)\n"
		   "  --burst N              burst allowance (default 40)\n"
		   "  --max-conns-per-addr N (default 256)\n"
		   "  --max-conns N          open connections in all, HTTP and WebSocket; more are\n"
		   "                         refused (default: the open-file limit less a reserve)\n"
		   "  --max-rooms N          live rooms in all (default 2000)\n"
		   "  --max-rooms-per-player N  waiting rooms one player created (default 10)\n"
		   "  --max-rooms-per-addr N waiting rooms created from one address (default 100)\n"
		   "  --max-bot-rooms N      live rooms with bots in every seat (default 100)\n"
		   "  --lobby-list-max N     rooms in a `rooms` list, the newest (default 100)\n"
		   "  --abandon-timeout-s N  a match with no human connected this long is\n"
		   "                         forfeited by its absent seats (default 3600)\n"
		   "  --hello-timeout-s N    WebSockets silent this long before hello are closed\n"
		   "                         (default 10)\n"
		   "  --ping-interval-s N    WebSocket keep-alive ping (default 30)\n"
		   "  --max-queue-bytes N    a connection's write queue; one frame may exceed it\n"
		   "                         (default 1048576)\n"
		   "  --player-ttl-s N       identities with no seat and no archived match are\n"
		   "                         deleted this long after their last hello (default 86400)\n"
		   "  --http-body-mem BYTES  HTTP answers held until read, in all; an eighth of it\n"
		   "                         per address; past it 503 (default 67108864)\n"
		   "  --log-level LEVEL      error, warn, info or debug (default info)\n"
		   "  --help, --version\n");
}

void config_defaults(struct config *c)
{
	memset(c, 0, sizeof(*c));
	snprintf(c->host, sizeof(c->host), "127.0.0.1");
	c->port = 8080;
	snprintf(c->db_path, sizeof(c->db_path), "var/quinteto.db");
	if (access(QUINTETO_SOURCE_WEB "/index.html", R_OK) == 0)
		snprintf(c->web_dir, sizeof(c->web_dir), "%s", QUINTETO_SOURCE_WEB);
	else
		snprintf(c->web_dir, sizeof(c->web_dir), "%s", QUINTETO_INSTALLED_WEB);
	if (access(QUINTETO_SOURCE_MIGRATIONS, R_OK) == 0)
		snprintf(c->migrations_dir, sizeof(c->migrations_dir), "%s", QUINTETO_SOURCE_MIGRATIONS);
	else
		snprintf(c->migrations_dir, sizeof(c->migrations_dir), "%s", QUINTETO_INSTALLED_MIGRATIONS);
	c->bot_delay_ms = 400;
	c->max_frame = 16384;
	c->rate_per_s = 20;
	c->rate_burst = 40;
	c->rate_strikes = 40;
	c->max_conns_per_addr = 256;
	c->max_queue_bytes = 1u << 20;
	c->max_queue_msgs = 512;
	c->finished_room_ttl_s = 600;
	c->idle_room_ttl_s = 1800;
	c->max_rooms = 2000;
	c->max_rooms_per_player = 10;
	c->max_rooms_per_addr = 100;
	c->max_bot_rooms = 100;
	c->lobby_list_max = 100;
	c->abandon_timeout_s = 3600;
	c->hello_timeout_s = 10;
	c->ping_interval_s = 30;
	c->player_ttl_s = 86400;
	c->http_body_mem = 64u << 20;
	c->log_level = LOG_INFO;
}

/* HOST:PORT, with an IPv6 literal in brackets ([::1]:8080); the host is kept without them. */
static int parse_listen(struct config *c, const char *arg)
{
	const char *colon = strrchr(arg, ':'), *host = arg;
	size_t hostlen;
	char *end;
	long port;

	if (!colon || colon == arg)
		return -1;
	hostlen = (size_t)(colon - arg);
	if (*arg == '[') { /* an IPv6 literal */
		if (colon[-1] != ']' || hostlen < 3)
			return -1;
		host++;
		hostlen -= 2;
	}
	if (hostlen >= sizeof(c->host))
		return -1;
	port = strtol(colon + 1, &end, 10);
	if (!colon[1] || *end || port < 0 || port > 65535)
		return -1;
	memcpy(c->host, host, hostlen);
	c->host[hostlen] = '\0';
	c->port = (int)port;
	return 0;
}

static int parse_long(const char *arg, long min, long max, long *out)
{
	char *end;
	long v = strtol(arg, &end, 10);

	if (!*arg || *end || v < min || v > max)
		return -1;
	*out = v;
	return 0;
}

static int parse_level(const char *arg)
{
	static const char *const names[] = { "error", "warn", "info", "debug" };
	int i;

	for (i = 0; i < 4; i++)
		if (!strcmp(arg, names[i]))
			return i;
	return -1;
}

/* Option ids past the one-letter ones. */
enum {
	OPT_MAX_ROOMS = 1000,
	OPT_ROOMS_PER_PLAYER,
	OPT_ROOMS_PER_ADDR,
	OPT_BOT_ROOMS,
	OPT_LOBBY_LIST_MAX,
	OPT_ABANDON,
	OPT_HELLO_TIMEOUT,
	OPT_PING,
	OPT_QUEUE_BYTES,
	OPT_PLAYER_TTL,
	OPT_HTTP_BODY_MEM,
};

/* The abuse limits (see conf.h), each an integer in its range. */
static int limit_option(struct config *c, int opt, const char *arg)
{
	static const struct {
		int opt;
		size_t off;
		long min, max;
	} limits[] = {
		{ OPT_MAX_ROOMS, offsetof(struct config, max_rooms), 1, 10000000 },
		{ OPT_ROOMS_PER_PLAYER, offsetof(struct config, max_rooms_per_player), 1, 1000000 },
		{ OPT_ROOMS_PER_ADDR, offsetof(struct config, max_rooms_per_addr), 1, 10000000 },
		{ OPT_BOT_ROOMS, offsetof(struct config, max_bot_rooms), 0, 10000000 },
		{ OPT_LOBBY_LIST_MAX, offsetof(struct config, lobby_list_max), 1, 10000 },
		{ OPT_ABANDON, offsetof(struct config, abandon_timeout_s), 1, 100000000 },
		{ OPT_HELLO_TIMEOUT, offsetof(struct config, hello_timeout_s), 1, 3600 },
		{ OPT_PING, offsetof(struct config, ping_interval_s), 1, 3600 },
		{ OPT_PLAYER_TTL, offsetof(struct config, player_ttl_s), 1, 1000000000 },
	};
	long v;
	size_t i;

	for (i = 0; i < sizeof(limits) / sizeof(limits[0]); i++)
		if (limits[i].opt == opt) {
			if (parse_long(arg, limits[i].min, limits[i].max, &v))
				return -1;
			*(int *)(void *)((char *)c + limits[i].off) = (int)v;
			return 0;
		}
	return -1;
}

static int apply_option(struct config *c, int opt, const char *arg)
{
	long v;

	switch (opt) {
	case 'l':
		return parse_listen(c, arg);
	case 'd':
		return snprintf(c->db_path, sizeof(c->db_path), "%s", arg) >= (int)sizeof(c->db_path) ? -1
												      : 0;
	case 'w':
		return snprintf(c->web_dir, sizeof(c->web_dir), "%s", arg) >= (int)sizeof(c->web_dir) ? -1
												      : 0;
	case 'm':
		return snprintf(c->migrations_dir, sizeof(c->migrations_dir), "%s", arg) >=
				       (int)sizeof(c->migrations_dir)
			       ? -1
			       : 0;
	case 'b':
		if (parse_long(arg, 0, 600000, &v))
			return -1;
		c->bot_delay_ms = (int)v;
		return 0;
	case 'f':
		if (parse_long(arg, 256, 16 << 20, &v))
			return -1;
		c->max_frame = (size_t)v;
		return 0;
	case 'r':
		if (parse_long(arg, 1, 1000000, &v))
			return -1;
		c->rate_per_s = (double)v;
		return 0;
	case 'u':
		if (parse_long(arg, 1, 1000000, &v))
			return -1;
		c->rate_burst = (double)v;
		return 0;
	case 'a':
		if (parse_long(arg, 1, 1000000, &v))
			return -1;
		c->max_conns_per_addr = (int)v;
		return 0;
	case 'n':
		if (parse_long(arg, 1, 100000000, &v))
			return -1;
		c->max_conns = (int)v;
		return 0;
	case OPT_MAX_ROOMS:
	case OPT_ROOMS_PER_PLAYER:
	case OPT_ROOMS_PER_ADDR:
	case OPT_BOT_ROOMS:
	case OPT_LOBBY_LIST_MAX:
	case OPT_ABANDON:
	case OPT_HELLO_TIMEOUT:
	case OPT_PING:
	case OPT_PLAYER_TTL:
		return limit_option(c, opt, arg);
	case OPT_QUEUE_BYTES:
		if (parse_long(arg, 1024, 1L << 30, &v))
			return -1;
		c->max_queue_bytes = (size_t)v;
		return 0;
	case OPT_HTTP_BODY_MEM:
		if (parse_long(arg, 65536, 1L << 40, &v))
			return -1;
		c->http_body_mem = (size_t)v;
		return 0;
	case 'v':
		c->log_level = parse_level(arg);
		return c->log_level < 0 ? -1 : 0;
	}
	return -1;
}

int config_parse(struct config *c, int argc, char **argv)
{
	static const struct option opts[] = {
		{ "listen", required_argument, NULL, 'l' },
		{ "db", required_argument, NULL, 'd' },
		{ "web", required_argument, NULL, 'w' },
		{ "migrations", required_argument, NULL, 'm' },
		{ "bot-delay-ms", required_argument, NULL, 'b' },
		{ "max-frame", required_argument, NULL, 'f' },
		{ "rate", required_argument, NULL, 'r' },
		{ "burst", required_argument, NULL, 'u' },
		{ "max-conns-per-addr", required_argument, NULL, 'a' },
		{ "max-conns", required_argument, NULL, 'n' },
		{ "log-level", required_argument, NULL, 'v' },
		{ "max-rooms", required_argument, NULL, OPT_MAX_ROOMS },
		{ "max-rooms-per-player", required_argument, NULL, OPT_ROOMS_PER_PLAYER },
		{ "max-rooms-per-addr", required_argument, NULL, OPT_ROOMS_PER_ADDR },
		{ "max-bot-rooms", required_argument, NULL, OPT_BOT_ROOMS },
		{ "lobby-list-max", required_argument, NULL, OPT_LOBBY_LIST_MAX },
		{ "abandon-timeout-s", required_argument, NULL, OPT_ABANDON },
		{ "hello-timeout-s", required_argument, NULL, OPT_HELLO_TIMEOUT },
		{ "ping-interval-s", required_argument, NULL, OPT_PING },
		{ "max-queue-bytes", required_argument, NULL, OPT_QUEUE_BYTES },
		{ "player-ttl-s", required_argument, NULL, OPT_PLAYER_TTL },
		{ "http-body-mem", required_argument, NULL, OPT_HTTP_BODY_MEM },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	int opt;

	optind = 1;
	while ((opt = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		if (opt == 'h') {
			usage(stdout);
			return 1;
		}
		if (opt == 'V') {
			printf("quinteto-server %s\n", QUINTETO_VERSION);
			return 1;
		}
		if (opt == '?' || apply_option(c, opt, optarg)) {
			if (opt != '?')
				fprintf(stderr, "quinteto-server: bad option value: %s\n", optarg);
			usage(stderr);
			return -1;
		}
	}
	if (optind < argc) {
		fprintf(stderr, "quinteto-server: unexpected argument: %s\n", argv[optind]);
		usage(stderr);
		return -1;
	}
	util_log_level = c->log_level;
	return 0;
}
