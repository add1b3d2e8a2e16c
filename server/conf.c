/*
 * conf.c: command-line parsing for quinteto-server. Defaults follow
 * protocol.md (16 KiB frames, 20 msg/s with bursts of 40, 256 connections per
 * address). The web client and migrations default to the source tree the
 * binary was built from when it is there, else to the installed copies.
 */
#include "conf.h"

#include <getopt.h>
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
		   "  --chat-rate N          chat lines per minute per connection (default 30)\n"
		   "  --chat-burst N         chat lines at once (default 5)\n"
		   "  --rematch-timeout S    seconds a rematch offer stays open (default 60)\n"
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
	c->rematch_timeout_s = 60;
	c->chat_per_min = 30;
	c->chat_burst = 5;
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
	case 'c':
		if (parse_long(arg, 1, 1000000000, &v))
			return -1;
		c->chat_per_min = (double)v;
		return 0;
	case 'C':
		if (parse_long(arg, 1, 1000000000, &v))
			return -1;
		c->chat_burst = (double)v;
		return 0;
	case 't':
		if (parse_long(arg, 1, 86400, &v))
			return -1;
		c->rematch_timeout_s = (int)v;
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
		{ "rematch-timeout", required_argument, NULL, 't' },
		{ "chat-rate", required_argument, NULL, 'c' },
		{ "chat-burst", required_argument, NULL, 'C' },
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
