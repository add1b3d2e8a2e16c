/*
 * conf.c: the configuration of quinteto-server, one table. Each row is one
 * setting: its name (the JSON key; the flag is --name with '-' for '_'; the
 * environment variable QUINTETO_NAME), its type, range, default and help.
 * Adding a setting is one row plus its field in struct config. The same
 * parsers read every source, so a value means the same from a file, the
 * environment or a flag; --help and --check-config are printed from the
 * table. Defaults follow protocol.md (16 KiB frames, 20 msg/s with bursts of
 * 40, 256 connections per address). The web client and migrations default to
 * the source tree the binary was built from when it is there, else to the
 * installed copies (meson's datadir).
 */
#include "base/conf.h"

#include <arpa/inet.h>
#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <jansson.h>
#include <netdb.h>
#include <openssl/err.h>
#include <openssl/ssl.h>
#include <openssl/x509.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include "config.h"
#include "base/util.h"

extern char **environ;

enum conf_type {
	T_STR,     /* text, may be empty */
	T_PATH,    /* text, not empty */
	T_FILE,    /* a readable regular file, or empty */
	T_SECRET,  /* text, printed as "(set)" */
	T_INT,     /* int in [min, max] */
	T_UINT,    /* unsigned in [min, max] */
	T_SIZE,    /* size_t in [min, max] */
	T_NUM,     /* double in [min, max] */
	T_LEVEL,   /* error, warn, info, debug */
	T_FORMAT,  /* text, json */
	T_BOOL,    /* true or false -> int 1 or 0 */
	T_LISTEN,  /* HOST:PORT[,HOST:PORT...] */
	T_ADDR,    /* one HOST:PORT, or empty */
	T_ORIGINS, /* scheme://host[:port][,...] */
	T_CIDRS,   /* ADDRESS[/BITS][,...] */
};

struct setting {
	const char *name;
	enum conf_type type;
	size_t off, size;
	double min, max;
	const char *def; /* as the text a flag would give; NULL: computed (config_defaults) */
	const char *help;
};

#define F(field) offsetof(struct config, field), sizeof(((struct config *)0)->field)

/* The table (docs/HOSTING.md's table is this one, in this order). */
static const struct setting settings[] = {
	{ "listen", T_LISTEN, F(listen), 0, 0, "127.0.0.1:8080",
	  "addresses to serve on, HOST:PORT, comma-separated; [IPv6]:PORT; a host name is resolved" },
	{ "metrics_listen", T_ADDR, F(metrics_listen), 0, 0, "",
	  "a separate HOST:PORT that serves only /metrics and /healthz; then the others do not serve "
	  "/metrics" },
	{ "metrics_token", T_SECRET, F(metrics_token), 0, 0, "",
	  "when set, /metrics answers 401 without \"Authorization: Bearer TOKEN\"" },
	{ "metrics_from", T_CIDRS, F(metrics_from), 0, 0, "127.0.0.0/8,::1",
	  "client addresses (ADDRESS[/BITS], comma-separated) the listeners serve /metrics without "
	  "metrics_token; 0.0.0.0/0,::/0: anyone" },
	{ "db", T_PATH, F(db_path), 0, 0, "var/quinteto.db", "the SQLite database, created with its folder" },
	{ "store", T_STR, F(store), 0, 0, "sqlite",
	  "where the server keeps its players, journal and archive: sqlite (db) or postgres (postgres)" },
	{ "postgres", T_SECRET, F(postgres), 0, 0, "",
	  "with store postgres: the libpq conninfo of the database (\"host=... dbname=... user=...\")" },
	{ "node", T_STR, F(node), 0, 0, "",
	  "cluster mode: this node's name ([a-z0-9-], 1..32 characters), unique in the cluster; needs store "
	  "postgres and redis; empty: a single server" },
	{ "redis", T_ADDR, F(redis), 0, 0, "", "cluster mode: the Redis HOST:PORT nodes share" },
	{ "redis_user", T_STR, F(redis_user), 0, 0, "",
	  "cluster mode: the Redis ACL user the node signs in as (AUTH USER PASSWORD); empty: the default "
	  "user" },
	{ "redis_password", T_SECRET, F(redis_password), 0, 0, "",
	  "cluster mode: the password sent with AUTH first on each connection to Redis (requirepass, or "
	  "redis_user's); empty: no AUTH" },
	{ "node_lease_ms", T_INT, F(node_lease_ms), 500, 600000, "3000",
	  "cluster mode: a node's lease, renewed every third of it; a lease expired this long is taken as "
	  "dead and its rooms are adopted, ms" },
	{ "web", T_PATH, F(web_dir), 0, 0, NULL, "the web client to serve" },
	{ "wasm", T_PATH, F(wasm_dir), 0, 0, NULL,
	  "the folder of rules.wasm, the games' rules the web client runs (served as /wasm/)" },
	{ "migrations", T_PATH, F(migrations_dir), 0, 0, NULL, "the SQL migrations, applied at start" },
	{ "tls_cert", T_FILE, F(tls_cert), 0, 0, "",
	  "PEM certificate (chain); with tls_key every listener speaks only TLS; reloaded on SIGHUP" },
	{ "tls_key", T_FILE, F(tls_key), 0, 0, "", "PEM private key of tls_cert" },
	{ "allowed_origins", T_ORIGINS, F(origins), 0, 0, "",
	  "Origins allowed to open the WebSocket, comma-separated (https://example.org); empty: the Host's "
	  "own" },
	{ "trusted_proxies", T_CIDRS, F(proxies), 0, 0, "",
	  "peers (ADDRESS or ADDRESS/BITS, comma-separated) whose X-Forwarded-For names the client" },
	{ "bot_delay_ms", T_INT, F(bot_delay_ms), 0, 600000, "400",
	  "how long a bot waits, once its turn comes, before it is asked for its move" },
	{ "bot_threads", T_INT, F(bot_threads), 0, 256, "0",
	  "bot worker threads that think for the bots, off the event loop; 0: one fewer than the cores, at "
	  "least one" },
	{ "bot_move_ms", T_INT, F(bot_move_ms), 1, 600000, "200",
	  "the most time a bot thinks about one move, ms (a search stops and plays its best so far)" },
	{ "bot_budget", T_INT, F(bot_budget), 0, 1000000000, "0",
	  "the most work a bot spends on one move, in its level's own units (playouts, nodes); 0: the "
	  "level's default" },
	{ "max_frame", T_SIZE, F(max_frame), 256, 16 << 20, "16384",
	  "inbound message limit, bytes; larger ones close the connection (1009)" },
	{ "rate", T_NUM, F(rate_per_s), 1, 1000000, "20", "messages per second per connection" },
	{ "burst", T_NUM, F(rate_burst), 1, 1000000, "40", "burst allowance of the rate" },
	{ "rate_strikes", T_UINT, F(rate_strikes), 1, 1000000, "40",
	  "rate-limited messages in a row before the connection is closed" },
	{ "max_conns_per_addr", T_INT, F(max_conns_per_addr), 1, 1000000, "256",
	  "WebSocket connections from one client address" },
	{ "max_conns", T_INT, F(max_conns), 0, 100000000, "0",
	  "open connections in all, HTTP and WebSocket; 0: the open-file limit less 64" },
	{ "max_queue_bytes", T_SIZE, F(max_queue_bytes), 1024, 1 << 30, "1048576",
	  "a connection's write queue, bytes; a client past it is dropped as slow" },
	{ "max_queue_msgs", T_UINT, F(max_queue_msgs), 8, 1000000, "512",
	  "a connection's write queue, frames" },
	{ "finished_room_ttl_s", T_INT, F(finished_room_ttl_s), 0, 86400 * 365, "600",
	  "finished rooms stay listed this long, seconds" },
	{ "idle_room_ttl_s", T_INT, F(idle_room_ttl_s), 1, 86400 * 365, "1800",
	  "waiting rooms nobody follows are closed after this, seconds" },
	{ "max_rooms", T_INT, F(max_rooms), 1, 10000000, "2000",
	  "live rooms in all; past it `create` is answered too_many_rooms" },
	{ "max_rooms_per_player", T_INT, F(max_rooms_per_player), 1, 1000000, "10",
	  "rooms a player created that still wait for players (too_many_rooms past it)" },
	{ "max_rooms_per_addr", T_INT, F(max_rooms_per_addr), 1, 10000000, "100",
	  "the same for every player connected from one address" },
	{ "max_live_rooms_per_player", T_INT, F(max_live_rooms_per_player), 1, 10000000, "50",
	  "rooms a player opened (a create, or the rematch acceptance that opened one) that are waiting, "
	  "playing, or finished and still listed (too_many_rooms past it)" },
	{ "max_live_rooms_per_addr", T_INT, F(max_live_rooms_per_addr), 0, 10000000, "0",
	  "the same for every player of one address; under max_rooms, so that one address never fills "
	  "the server; 0: a tenth of max_rooms" },
	{ "max_matches_per_addr_hour", T_INT, F(max_matches_per_addr_hour), 1, 1000000, "600",
	  "rooms (so matches, and archive writes) opened from one address: that many at once, then one "
	  "every 3600/N s (too_many_rooms past it)" },
	{ "max_new_players_per_addr_hour", T_INT, F(max_new_players_per_addr_hour), 1, 1000000, "1200",
	  "new identities (a hello without a known token) from one address, per hour, after a burst of "
	  "new_players_burst (rate_limited past it)" },
	{ "new_players_burst", T_INT, F(new_players_burst), 1, 1000000, "200",
	  "new identities from one address at once" },
	{ "max_bot_rooms", T_INT, F(max_bot_rooms), 0, 10000000, "100",
	  "live rooms with a bot in every seat; the add_bot that would start one more: too_many_rooms" },
	{ "lobby_list_max", T_INT, F(lobby_list_max), 1, 10000, "100",
	  "the rooms list (and GET /api/rooms) holds the newest N rooms and a total" },
	{ "abandon_timeout_s", T_INT, F(abandon_timeout_s), 1, 100000000, "3600",
	  "a started match no seated human has been connected to for this long ends: each absent seat "
	  "forfeits, seconds" },
	{ "idle_limit_ms", T_INT, F(idle_limit_ms), 0, 86400000, "300000",
	  "in a room without a clock, a seat to act that has not acted for this long gets a stand-in until "
	  "its player acts, joins or reconnects; a room may set a shorter idle_after_ms; 0: none unless the "
	  "room sets one, ms" },
	{ "stand_in_min_ms", T_INT, F(stand_in_min_ms), 0, 86400000, "5000",
	  "the least stand_in_after_ms (but 0, never) and idle_after_ms a new room may ask for; lower it "
	  "only for tests, ms" },
	{ "hello_timeout_s", T_INT, F(hello_timeout_s), 1, 3600, "10",
	  "a WebSocket that has not said hello by then is closed (1008), and after hello one that began a "
	  "message and has not finished it, seconds" },
	{ "ping_interval_s", T_INT, F(ping_interval_s), 1, 3600, "30",
	  "an idle WebSocket is pinged this often; one that does not answer is closed, seconds" },
	{ "player_ttl_s", T_INT, F(player_ttl_s), 1, 1000000000, "86400",
	  "an identity with no seat, no live room and no archived match is deleted this long after its "
	  "last hello, seconds" },
	{ "http_body_mem", T_SIZE, F(http_body_mem), 65536, 1099511627776.0, "67108864",
	  "HTTP answers held in memory until their clients read them, bytes in all (an eighth per "
	  "address); past it 503 busy" },
	{ "archive_reads", T_INT, F(archive_reads), 1, 1000000, "64",
	  "archive requests (/api/matches..., /api/players/...) waiting for or in the reader at once, "
	  "in all; past it 503 busy" },
	{ "archive_reads_per_addr", T_INT, F(archive_reads_per_addr), 1, 1000000, "8",
	  "the same from one client address" },
	{ "chat_rate", T_NUM, F(chat_per_min), 1, 1000000000, "30",
	  "chat lines per minute per connection, beside rate; over it: chat_rate_limited" },
	{ "chat_burst", T_NUM, F(chat_burst), 1, 1000000000, "5", "chat lines at once" },
	{ "rematch_timeout", T_INT, F(rematch_timeout_s), 1, 86400, "60",
	  "seconds a rematch offer waits for every seat to accept" },
	{ "shutdown_timeout", T_INT, F(shutdown_timeout_s), 0, 3600, "10",
	  "on SIGTERM or SIGINT: seconds clients get to be told (close 1012) and the journal to be written "
	  "before the exit; 0: at once" },
	/* accounts (docs/ACCOUNTS.md) */
	{ "signups", T_BOOL, F(signups), 0, 0, "true",
	  "whether guests may claim accounts; false: claim is refused (signups_disabled), signing in still "
	  "works" },
	{ "pwhash_ops", T_INT, F(pwhash_ops), 2, 64, "2",
	  "Argon2id passes of a password hash (libsodium's opslimit; at least 2)" },
	{ "pwhash_mem_kib", T_INT, F(pwhash_mem_kib), 19456, 4194304, "65536",
	  "Argon2id memory of a password hash, KiB (libsodium's memlimit; at least 19456)" },
	{ "pwhash_threads", T_INT, F(pwhash_threads), 1, 64, "2",
	  "threads that hash passwords, off the event loop (each hash holds pwhash_mem_kib while it runs)" },
	{ "pwhash_queue", T_INT, F(pwhash_queue), 1, 100000, "32",
	  "password hashes waiting for a thread, in all; past it claim, sign_in, password and "
	  "delete_account are answered busy" },
	{ "sign_in_fails_per_addr", T_INT, F(sign_in_fails_per_addr), 1, 1000000, "10",
	  "failed password checks from one address at once; then one every sign_in_fail_addr_s "
	  "(rate_limited past it, nothing hashed)" },
	{ "sign_in_fail_addr_s", T_INT, F(sign_in_fail_addr_s), 1, 86400, "30",
	  "seconds that give one address back one failed password check" },
	{ "sign_in_fails_per_handle", T_INT, F(sign_in_fails_per_handle), 1, 1000000, "5",
	  "failed password checks on one handle at once, from anywhere; then one every "
	  "sign_in_fail_handle_s" },
	{ "sign_in_fail_handle_s", T_INT, F(sign_in_fail_handle_s), 1, 86400, "60",
	  "seconds that give one handle back one failed password check" },
	{ "account_tries_per_addr", T_INT, F(account_tries_per_addr), 1, 1000000, "20",
	  "claims and sign-ins (each costs a hash) from one address at once; then one every "
	  "account_try_addr_s (rate_limited past it)" },
	{ "account_try_addr_s", T_INT, F(account_try_addr_s), 1, 86400, "10",
	  "seconds that give one address back one claim or sign-in" },
	{ "session_check_s", T_INT, F(session_check_s), 1, 86400, "10",
	  "seconds between two checks that the sessions of the open account connections still exist (a "
	  "connection whose session was ended elsewhere is signed out)" },
	{ "log_level", T_LEVEL, F(log_level), 0, 0, "info", "error, warn, info or debug" },
	{ "log_format", T_FORMAT, F(log_format), 0, 0, "text", "text, or json (one object a line)" },
};

#define N_SETTINGS (sizeof(settings) / sizeof(settings[0]))
_Static_assert(N_SETTINGS <= CONF_MAX_SETTINGS, "raise CONF_MAX_SETTINGS");

/* Variables of the development tools and tests, not settings: never an error. */
static const char *const env_ignored[] = {
	"QUINTETO_CONFIG",    "QUINTETO_SERVER", "QUINTETO_CLI", "QUINTETO_SOURCE",
	"QUINTETO_ARTIFACTS", "QUINTETO_KILLS",  NULL,
};
static const char *const env_ignored_prefix = "QUINTETO_TEST_";

static const char *const level_names[] = { "error", "warn", "info", "debug", NULL };
static const char *const format_names[] = { "text", "json", NULL };
static const char *const bool_names[] = { "false", "true", NULL };
static const char *const source_names[] = { "default", "file", "env", "flag" };

/* ------------------------------------------------------------------------------------------ */
/* Names */

static void flag_name(const struct setting *s, char *out, size_t len)
{
	size_t i;

	for (i = 0; s->name[i] && i + 1 < len; i++)
		out[i] = s->name[i] == '_' ? '-' : s->name[i];
	out[i] = '\0';
}

static void env_name(const struct setting *s, char *out, size_t len)
{
	size_t i, p = (size_t)snprintf(out, len, "QUINTETO_");

	for (i = 0; s->name[i] && p + 1 < len; i++)
		out[p++] = (char)toupper((unsigned char)s->name[i]);
	out[p] = '\0';
}

static const struct setting *find_setting(const char *name)
{
	size_t i;

	for (i = 0; i < N_SETTINGS; i++)
		if (!strcmp(settings[i].name, name))
			return &settings[i];
	return NULL;
}

/* ------------------------------------------------------------------------------------------ */
/* Parsers: text -> field. On error they write why into err and return CONF_E_INVALID. */

static int parse_addr(const char *arg, struct conf_addr *a, char *err, size_t errlen)
{
	const char *colon = strrchr(arg, ':'), *host = arg;
	struct addrinfo hints, *res = NULL;
	size_t hostlen;
	char *end;
	long port;
	int gai;

	if (!colon || colon == arg) {
		snprintf(err, errlen, "\"%s\" is not HOST:PORT", arg);
		return CONF_E_INVALID;
	}
	hostlen = (size_t)(colon - arg);
	if (*arg == '[') { /* an IPv6 literal */
		if (colon[-1] != ']' || hostlen < 3) {
			snprintf(err, errlen, "\"%s\" is not [IPv6]:PORT", arg);
			return CONF_E_INVALID;
		}
		host++;
		hostlen -= 2;
	}
	errno = 0;
	port = strtol(colon + 1, &end, 10);
	if (!colon[1] || *end || errno || port < 0 || port > 65535) {
		snprintf(err, errlen, "\"%s\": the port must be 0 to 65535", arg);
		return CONF_E_INVALID;
	}
	if (hostlen >= sizeof(a->host)) {
		snprintf(err, errlen, "\"%s\": the host is too long", arg);
		return CONF_E_INVALID;
	}
	memcpy(a->host, host, hostlen);
	a->host[hostlen] = '\0';
	a->port = (int)port;
	memset(&hints, 0, sizeof(hints));
	hints.ai_socktype = SOCK_STREAM;
	hints.ai_flags = AI_PASSIVE;
	gai = getaddrinfo(a->host, NULL, &hints, &res);
	if (gai || !res) {
		snprintf(err, errlen, "\"%s\": cannot resolve %s: %s", arg, a->host, gai_strerror(gai));
		return CONF_E_INVALID;
	}
	freeaddrinfo(res);
	return 0;
}

/* Splits a comma-separated list, calling fn on each trimmed, non-empty item. */
static int each_item(const char *arg, int (*fn)(void *ctx, const char *item, char *err, size_t errlen),
		     void *ctx, char *err, size_t errlen)
{
	char item[512];

	while (*arg) {
		const char *comma = strchr(arg, ','), *e = comma ? comma : arg + strlen(arg);
		size_t len;

		while (arg < e && isspace((unsigned char)*arg))
			arg++;
		len = (size_t)(e - arg);
		while (len && isspace((unsigned char)arg[len - 1]))
			len--;
		if (len >= sizeof(item)) {
			snprintf(err, errlen, "an item is too long");
			return CONF_E_INVALID;
		}
		if (len) {
			memcpy(item, arg, len);
			item[len] = '\0';
			if (fn(ctx, item, err, errlen))
				return CONF_E_INVALID;
		}
		arg = comma ? comma + 1 : e;
	}
	return 0;
}

static int add_listen(void *ctx, const char *item, char *err, size_t errlen)
{
	struct config *c = ctx;

	if (c->n_listen >= CONF_MAX_LISTEN) {
		snprintf(err, errlen, "at most %d addresses", CONF_MAX_LISTEN);
		return CONF_E_INVALID;
	}
	if (parse_addr(item, &c->listen[c->n_listen], err, errlen))
		return CONF_E_INVALID;
	c->n_listen++;
	return 0;
}

static int add_origin(void *ctx, const char *item, char *err, size_t errlen)
{
	struct config *c = ctx;
	const char *host = strstr(item, "://");

	if (c->n_origins >= CONF_MAX_ORIGINS) {
		snprintf(err, errlen, "at most %d origins", CONF_MAX_ORIGINS);
		return CONF_E_INVALID;
	}
	if (!host || host == item || !host[3] || strchr(host + 3, '/') ||
	    strlen(item) >= sizeof(c->origins[0])) {
		snprintf(err, errlen, "\"%s\" is not an origin (scheme://host[:port], no path)", item);
		return CONF_E_INVALID;
	}
	snprintf(c->origins[c->n_origins++], sizeof(c->origins[0]), "%s", item);
	return 0;
}

static int parse_cidr(const char *item, struct conf_cidr *r)
{
	char addr[INET6_ADDRSTRLEN + 1];
	const char *slash = strchr(item, '/');
	size_t len = slash ? (size_t)(slash - item) : strlen(item);
	int maxbits;
	char *end;
	long bits;

	if (len >= sizeof(addr))
		return CONF_E_INVALID;
	memcpy(addr, item, len);
	addr[len] = '\0';
	memset(r, 0, sizeof(*r));
	if (inet_pton(AF_INET, addr, r->addr) == 1)
		r->family = AF_INET, maxbits = 32;
	else if (inet_pton(AF_INET6, addr, r->addr) == 1)
		r->family = AF_INET6, maxbits = 128;
	else
		return CONF_E_INVALID;
	r->bits = maxbits;
	if (slash) {
		errno = 0;
		bits = strtol(slash + 1, &end, 10);
		if (!slash[1] || *end || errno || bits < 0 || bits > maxbits)
			return CONF_E_INVALID;
		r->bits = (int)bits;
	}
	return 0;
}

/* A T_CIDRS setting's list: its entries (the field) and their count. */
struct cidr_list {
	struct conf_cidr *r;
	int *n;
};

static struct cidr_list cidr_list(const struct setting *s, struct config *c)
{
	return (struct cidr_list){ (struct conf_cidr *)((char *)c + s->off),
				   s->off == offsetof(struct config, proxies) ? &c->n_proxies
									      : &c->n_metrics_from };
}

static int add_cidr(void *ctx, const char *item, char *err, size_t errlen)
{
	struct cidr_list *l = ctx;

	if (*l->n >= CONF_MAX_PROXIES) {
		snprintf(err, errlen, "at most %d addresses", CONF_MAX_PROXIES);
		return CONF_E_INVALID;
	}
	if (parse_cidr(item, &l->r[*l->n])) {
		snprintf(err, errlen, "\"%s\" is not an address or ADDRESS/BITS", item);
		return CONF_E_INVALID;
	}
	(*l->n)++;
	return 0;
}

static int parse_number(const struct setting *s, const char *arg, double *out, char *err, size_t errlen)
{
	bool integral = s->type != T_NUM;
	char *end;
	double v;

	errno = 0;
	v = integral ? (double)strtoll(arg, &end, 10) : strtod(arg, &end);
	if (!*arg || *end || errno || isspace((unsigned char)*arg)) {
		snprintf(err, errlen, "\"%s\" is not %s", arg, integral ? "an integer" : "a number");
		return CONF_E_INVALID;
	}
	if (v < s->min || v > s->max) {
		snprintf(err, errlen, "%s is out of range (%.15g to %.15g)", arg, s->min, s->max);
		return CONF_E_INVALID;
	}
	*out = v;
	return 0;
}

static int parse_name(const char *const *names, const char *arg, char *err, size_t errlen)
{
	int i;

	for (i = 0; names[i]; i++)
		if (!strcmp(arg, names[i]))
			return i;
	snprintf(err, errlen, "\"%s\" is not one of", arg);
	for (i = 0; names[i]; i++)
		snprintf(err + strlen(err), errlen - strlen(err), " %s", names[i]);
	return CONF_E_INVALID;
}

static int parse_value(const struct setting *s, struct config *c, const char *arg, char *err, size_t errlen)
{
	void *field = (char *)c + s->off;
	struct stat st;
	double v;
	int i;

	switch (s->type) {
	case T_PATH:
		if (!*arg) {
			snprintf(err, errlen, "must not be empty");
			return CONF_E_INVALID;
		}
		/* fall through */
	case T_STR:
	case T_SECRET:
	case T_FILE:
		if (strlen(arg) >= s->size) {
			snprintf(err, errlen, "too long (at most %zu bytes)", s->size - 1);
			return CONF_E_INVALID;
		}
		if (s->type == T_FILE && *arg) {
			FILE *f = fopen(arg, "r");

			if (!f || fstat(fileno(f), &st) || !S_ISREG(st.st_mode)) {
				snprintf(err, errlen, "cannot read \"%s\": %s", arg,
					 f ? "not a file" : strerror(errno));
				if (f)
					fclose(f);
				return CONF_E_INVALID;
			}
			fclose(f);
		}
		memcpy(field, arg, strlen(arg) + 1);
		return 0;
	case T_INT:
	case T_UINT:
	case T_SIZE:
	case T_NUM:
		if (parse_number(s, arg, &v, err, errlen))
			return CONF_E_INVALID;
		if (s->type == T_INT)
			*(int *)field = (int)v;
		else if (s->type == T_UINT)
			*(unsigned *)field = (unsigned)v;
		else if (s->type == T_SIZE)
			*(size_t *)field = (size_t)v;
		else
			*(double *)field = v;
		return 0;
	case T_LEVEL:
	case T_FORMAT:
	case T_BOOL:
		i = parse_name(s->type == T_LEVEL  ? level_names
			       : s->type == T_BOOL ? bool_names
						   : format_names,
			       arg, err, errlen);
		if (i < 0)
			return CONF_E_INVALID;
		*(int *)field = i;
		return 0;
	case T_LISTEN:
		c->n_listen = 0;
		if (each_item(arg, add_listen, c, err, errlen))
			return CONF_E_INVALID;
		if (!c->n_listen) {
			snprintf(err, errlen, "needs at least one HOST:PORT");
			return CONF_E_INVALID;
		}
		return 0;
	case T_ADDR:
		memset(field, 0, sizeof(struct conf_addr));
		return *arg ? parse_addr(arg, field, err, errlen) : 0;
	case T_ORIGINS:
		c->n_origins = 0;
		return each_item(arg, add_origin, c, err, errlen);
	case T_CIDRS: {
		struct cidr_list l = cidr_list(s, c);

		*l.n = 0;
		return each_item(arg, add_cidr, &l, err, errlen);
	}
	}
	return CONF_E_INVALID;
}

/* ------------------------------------------------------------------------------------------ */
/* Printing a value back as text (--check-config) */

static void print_addr(const struct conf_addr *a, char *out, size_t len)
{
	bool v6 = strchr(a->host, ':') != NULL;

	snprintf(out, len, "%s%s%s:%d", v6 ? "[" : "", a->host, v6 ? "]" : "", a->port);
}

static void print_value(const struct setting *s, const struct config *c, char *out, size_t len)
{
	const void *field = (const char *)c + s->off;
	size_t used;
	int i;

	*out = '\0';
	switch (s->type) {
	case T_STR:
	case T_PATH:
	case T_FILE:
		snprintf(out, len, "%s", (const char *)field);
		return;
	case T_SECRET:
		snprintf(out, len, "%s", *(const char *)field ? "(set)" : "");
		return;
	case T_INT:
		snprintf(out, len, "%d", *(const int *)field);
		return;
	case T_UINT:
		snprintf(out, len, "%u", *(const unsigned *)field);
		return;
	case T_SIZE:
		snprintf(out, len, "%zu", *(const size_t *)field);
		return;
	case T_NUM:
		snprintf(out, len, "%g", *(const double *)field);
		return;
	case T_LEVEL:
		snprintf(out, len, "%s", level_names[*(const int *)field]);
		return;
	case T_FORMAT:
		snprintf(out, len, "%s", format_names[*(const int *)field]);
		return;
	case T_BOOL:
		snprintf(out, len, "%s", bool_names[*(const int *)field ? 1 : 0]);
		return;
	case T_ADDR:
		if (((const struct conf_addr *)field)->host[0])
			print_addr(field, out, len);
		return;
	case T_LISTEN:
		for (i = 0; i < c->n_listen; i++) {
			if (i)
				snprintf(out + strlen(out), len - strlen(out), ",");
			used = strlen(out);
			print_addr(&c->listen[i], out + used, len - used);
		}
		return;
	case T_ORIGINS:
		for (i = 0; i < c->n_origins; i++) {
			used = strlen(out);
			snprintf(out + used, len - used, "%s%s", i ? "," : "", c->origins[i]);
		}
		return;
	case T_CIDRS: {
		const struct conf_cidr *r = field;
		int n = s->off == offsetof(struct config, proxies) ? c->n_proxies : c->n_metrics_from;

		for (i = 0; i < n; i++) {
			char a[INET6_ADDRSTRLEN];

			inet_ntop(r[i].family, r[i].addr, a, sizeof(a));
			used = strlen(out);
			snprintf(out + used, len - used, "%s%s/%d", i ? "," : "", a, r[i].bits);
		}
		return;
	}
	}
}

/* ------------------------------------------------------------------------------------------ */

static void usage(FILE *f)
{
	char flag[64], env[80], line[160];
	size_t i;

	fprintf(f,
		"usage: quinteto-server [options]\n"
		"Every setting comes from, in rising precedence: its default, the JSON file given by\n"
		"--config PATH (or $QUINTETO_CONFIG), the variable QUINTETO_<NAME>, the flag --<name>.\n\n");
	for (i = 0; i < N_SETTINGS; i++) {
		const struct setting *s = &settings[i];

		flag_name(s, flag, sizeof(flag));
		env_name(s, env, sizeof(env));
		snprintf(line, sizeof(line), "--%s VALUE", flag);
		fprintf(f, "  %-28s %s\n  %-28s default: %s; %s\n", line, s->help, "",
			s->def ? (*s->def ? s->def : "none")
			       : "the source tree's copy, else the installed one",
			env);
	}
	fprintf(f, "  %-28s %s\n  %-28s %s\n  %-28s %s\n", "--config PATH", "the JSON configuration file",
		"--check-config",
		"print the effective configuration and where each value came from; exit 0, or 2",
		"--help, --version", "");
}

void config_defaults(struct config *c)
{
	char err[256];
	size_t i;

	memset(c, 0, sizeof(*c));
	for (i = 0; i < N_SETTINGS; i++)
		if (settings[i].def && parse_value(&settings[i], c, settings[i].def, err, sizeof(err)))
			abort(); /* a default that does not parse is a bug in the table */
	if (access(QUINTETO_SOURCE_WEB "/index.html", R_OK) == 0)
		snprintf(c->web_dir, sizeof(c->web_dir), "%s", QUINTETO_SOURCE_WEB);
	else
		snprintf(c->web_dir, sizeof(c->web_dir), "%s", QUINTETO_INSTALLED_WEB);
	if (access(QUINTETO_BUILD_WASM "/rules.wasm", R_OK) == 0)
		snprintf(c->wasm_dir, sizeof(c->wasm_dir), "%s", QUINTETO_BUILD_WASM);
	else
		snprintf(c->wasm_dir, sizeof(c->wasm_dir), "%s", QUINTETO_INSTALLED_WASM);
	if (access(QUINTETO_SOURCE_MIGRATIONS, R_OK) == 0)
		snprintf(c->migrations_dir, sizeof(c->migrations_dir), "%s", QUINTETO_SOURCE_MIGRATIONS);
	else
		snprintf(c->migrations_dir, sizeof(c->migrations_dir), "%s", QUINTETO_INSTALLED_MIGRATIONS);
	snprintf(c->host, sizeof(c->host), "%s", c->listen[0].host);
	c->port = c->listen[0].port;
}

static int set_from(struct config *c, const struct setting *s, enum conf_source src, const char *where,
		    const char *arg)
{
	char err[512];

	if (parse_value(s, c, arg, err, sizeof(err))) {
		fprintf(stderr, "quinteto-server: bad value for %s (from %s): %s\n", s->name, where, err);
		return CONF_E_INVALID;
	}
	c->source[s - settings] = (unsigned char)src;
	return 0;
}

/* A JSON value as the text a flag would give, or -1 when its type does not fit the setting. */
static int json_text(const struct setting *s, json_t *v, char *out, size_t len, const char **want)
{
	size_t i, used = 0;
	json_t *e;

	switch (s->type) {
	case T_INT:
	case T_UINT:
	case T_SIZE:
	case T_NUM:
		*want = "a number";
		if (json_is_integer(v))
			snprintf(out, len, "%" JSON_INTEGER_FORMAT, json_integer_value(v));
		else if (json_is_real(v))
			snprintf(out, len, "%.17g", json_real_value(v));
		else
			return CONF_E_INVALID;
		return 0;
	case T_BOOL:
		*want = "true or false";
		if (!json_is_boolean(v))
			return CONF_E_INVALID;
		snprintf(out, len, "%s", json_is_true(v) ? "true" : "false");
		return 0;
	case T_LISTEN:
	case T_ORIGINS:
	case T_CIDRS:
		*want = "a string or an array of strings";
		if (json_is_array(v)) {
			*out = '\0';
			json_array_foreach(v, i, e)
			{
				if (!json_is_string(e) || strchr(json_string_value(e), ','))
					return CONF_E_INVALID;
				snprintf(out + used, len - used, "%s%s", i ? "," : "", json_string_value(e));
				used = strlen(out);
			}
			return 0;
		}
		/* fall through */
	default:
		if (*want == NULL)
			*want = "a string";
		if (!json_is_string(v) || strlen(json_string_value(v)) >= len)
			return CONF_E_INVALID;
		snprintf(out, len, "%s", json_string_value(v));
		return 0;
	}
}

static int read_file(struct config *c, const char *path)
{
	static char text[8192];
	json_error_t jerr;
	const char *key, *want;
	char where[4200];
	json_t *root, *v;
	int r = 0;

	root = json_load_file(path, JSON_REJECT_DUPLICATES, &jerr);
	if (!root) {
		fprintf(stderr, "quinteto-server: config file %s: line %d: %s\n", path, jerr.line, jerr.text);
		return CONF_E_INVALID;
	}
	if (!json_is_object(root)) {
		fprintf(stderr, "quinteto-server: config file %s: not a JSON object\n", path);
		json_decref(root);
		return CONF_E_INVALID;
	}
	json_object_foreach(root, key, v)
	{
		const struct setting *s = find_setting(key);

		snprintf(where, sizeof(where), "config file %s", path);
		if (!s) {
			fprintf(stderr, "quinteto-server: %s: unknown setting \"%s\"\n", where, key);
			r = -1;
			break;
		}
		want = NULL;
		if (json_text(s, v, text, sizeof(text), &want)) {
			fprintf(stderr, "quinteto-server: bad value for %s (from %s): expected %s\n", key,
				where, want);
			r = -1;
			break;
		}
		if (set_from(c, s, CONF_FILE, where, text)) {
			r = -1;
			break;
		}
	}
	json_decref(root);
	return r;
}

static int read_env(struct config *c)
{
	char name[128], env[128];
	char **e;
	size_t i;

	for (e = environ; e && *e; e++) { /* environ is NULL after clearenv() */
		const char *eq = strchr(*e, '='), *const * ign;
		const struct setting *s = NULL;
		size_t len;

		if (strncmp(*e, "QUINTETO_", 9) || !eq)
			continue;
		len = (size_t)(eq - *e);
		if (len >= sizeof(name))
			len = sizeof(name) - 1;
		memcpy(name, *e, len);
		name[len] = '\0';
		for (ign = env_ignored; *ign && strcmp(*ign, name); ign++)
			;
		if (*ign || !strncmp(name, env_ignored_prefix, strlen(env_ignored_prefix)))
			continue;
		for (i = 0; i < N_SETTINGS && !s; i++) {
			env_name(&settings[i], env, sizeof(env));
			if (!strcmp(env, name))
				s = &settings[i];
		}
		if (!s) {
			fprintf(stderr, "quinteto-server: environment: unknown variable %s\n", name);
			return CONF_E_INVALID;
		}
		if (set_from(c, s, CONF_ENV, name, eq + 1))
			return CONF_E_INVALID;
	}
	return 0;
}

/* A setting's option value is OPT_SETTING + its row: never a character getopt returns itself ('?' is 63,
 * which the 64th setting would be otherwise). */
enum { OPT_SETTING = 256, OPT_CONFIG = 1000, OPT_CHECK, OPT_HELP, OPT_VERSION };
_Static_assert(OPT_SETTING + CONF_MAX_SETTINGS <= OPT_CONFIG, "setting options below the others");

static void build_options(struct option *opts, char (*flags)[64])
{
	size_t i;

	for (i = 0; i < N_SETTINGS; i++) {
		flag_name(&settings[i], flags[i], sizeof(flags[i]));
		opts[i] = (struct option){ flags[i], required_argument, NULL, OPT_SETTING + (int)i };
	}
	opts[i++] = (struct option){ "config", required_argument, NULL, OPT_CONFIG };
	opts[i++] = (struct option){ "check-config", no_argument, NULL, OPT_CHECK };
	opts[i++] = (struct option){ "help", no_argument, NULL, OPT_HELP };
	opts[i++] = (struct option){ "version", no_argument, NULL, OPT_VERSION };
	opts[i] = (struct option){ NULL, 0, NULL, 0 };
}

/* An encrypted key is refused instead of asking for its passphrase on a terminal. */
static int no_passphrase_cb(char *buf, int size, int rwflag, void *u)
{
	(void)buf, (void)size, (void)rwflag, (void)u;
	return 0;
}

/* Where a setting's value came from, as the other messages say it: "--tls-key", "QUINTETO_TLS_KEY"... */
static void source_text(const struct config *c, const struct setting *s, char *out, size_t len)
{
	char name[64];

	switch (c->source[s - settings]) {
	case CONF_FLAG:
		flag_name(s, name, sizeof(name));
		snprintf(out, len, "--%s", name);
		return;
	case CONF_ENV:
		env_name(s, out, len);
		return;
	case CONF_FILE:
		snprintf(out, len, "config file %s", c->config_path);
		return;
	default:
		snprintf(out, len, "default");
	}
}

/* OpenSSL's reason for the first failure (the root cause), and an empty error queue. */
static const char *ssl_reason(void)
{
	unsigned long e = ERR_peek_error();
	const char *why = e ? ERR_reason_error_string(e) : NULL;

	ERR_clear_error();
	return why ? why : "unknown reason";
}

/*
 * The TLS pair as the listener will load it: a PEM certificate chain, a PEM
 * private key that needs no passphrase, and the key of that certificate.
 * Checked here so that --check-config catches it and the start fails naming
 * the setting, not later in lws with a misleading message. 0 or -1 (printed).
 */
static int tls_pair_check(const struct config *c)
{
	SSL_CTX *cert = SSL_CTX_new(TLS_server_method()), *key = SSL_CTX_new(TLS_server_method());
	const char *bad = NULL, *why = "out of memory";
	int r = -1;

	if (!cert || !key) {
		bad = "tls_cert";
		goto out;
	}
	SSL_CTX_set_default_passwd_cb(key, no_passphrase_cb);
	if (SSL_CTX_use_certificate_chain_file(cert, c->tls_cert) != 1) {
		bad = "tls_cert";
		why = ssl_reason();
		goto out;
	}
	if (SSL_CTX_use_PrivateKey_file(key, c->tls_key, SSL_FILETYPE_PEM) != 1) {
		bad = "tls_key";
		why = ssl_reason();
		goto out;
	}
	if (X509_check_private_key(SSL_CTX_get0_certificate(cert), SSL_CTX_get0_privatekey(key)) != 1) {
		(void)ssl_reason();
		bad = "tls_key";
		why = "it is not the key of the certificate in tls_cert";
		goto out;
	}
	r = 0;
out:
	if (bad) {
		char from[4200];

		source_text(c, find_setting(bad), from, sizeof(from));
		fprintf(stderr, "quinteto-server: bad value for %s (from %s): %s: %s\n", bad, from,
			!strcmp(bad, "tls_cert") ? "not a usable PEM certificate"
						 : "not a usable PEM private key",
			why);
	}
	SSL_CTX_free(cert);
	SSL_CTX_free(key);
	return r;
}

/* Checks that need several settings at once, after every source. */
static int cross_check(const struct config *c)
{
	int i;

	if (!c->tls_cert[0] != !c->tls_key[0]) {
		fprintf(stderr,
			"quinteto-server: bad value for %s (from %s): TLS needs both tls_cert and tls_key\n",
			c->tls_cert[0] ? "tls_key" : "tls_cert",
			source_names[c->source[(c->tls_cert[0] ? find_setting("tls_cert")
							       : find_setting("tls_key")) -
					       settings]]);
		return CONF_E_INVALID;
	}
	if (c->tls_cert[0] && tls_pair_check(c))
		return CONF_E_INVALID;
	if (strcmp(c->store, "sqlite") && strcmp(c->store, "postgres")) {
		fprintf(stderr,
			"quinteto-server: bad value for store (from %s): \"%s\" is neither sqlite nor "
			"postgres\n",
			source_names[c->source[find_setting("store") - settings]], c->store);
		return CONF_E_INVALID;
	}
	if (!strcmp(c->store, "postgres") && !c->postgres[0]) {
		fprintf(stderr,
			"quinteto-server: bad value for postgres: store postgres needs its conninfo\n");
		return CONF_E_INVALID;
	}
	if (c->node[0]) {
		size_t k, n = strlen(c->node);

		for (k = 0; k < n; k++)
			if (!((c->node[k] >= 'a' && c->node[k] <= 'z') ||
			      (c->node[k] >= '0' && c->node[k] <= '9') || c->node[k] == '-'))
				break;
		if (n > 32 || k < n) {
			fprintf(stderr,
				"quinteto-server: bad value for node (from %s): \"%s\": 1 to 32 of a-z, 0-9 "
				"and -\n",
				source_names[c->source[find_setting("node") - settings]], c->node);
			return CONF_E_INVALID;
		}
		if (strcmp(c->store, "postgres") || !c->redis.port) {
			fprintf(stderr,
				"quinteto-server: bad value for node: a cluster node needs store postgres "
				"and redis\n");
			return CONF_E_INVALID;
		}
	}
	if (c->redis_user[0] && !c->redis_password[0]) {
		fprintf(stderr,
			"quinteto-server: bad value for redis_user (from %s): an ACL user needs "
			"redis_password\n",
			source_names[c->source[find_setting("redis_user") - settings]]);
		return CONF_E_INVALID;
	}
	if (c->max_rooms > 1 && c->max_live_rooms_per_addr >= c->max_rooms) {
		fprintf(stderr,
			"quinteto-server: bad value for max_live_rooms_per_addr (from %s): %d is not under "
			"max_rooms (%d): one address could fill the server\n",
			source_names[c->source[find_setting("max_live_rooms_per_addr") - settings]],
			c->max_live_rooms_per_addr, c->max_rooms);
		return CONF_E_INVALID;
	}
	for (i = 0; i < c->n_listen; i++)
		if (c->metrics_listen.host[0] && c->metrics_listen.port &&
		    c->metrics_listen.port == c->listen[i].port &&
		    !strcmp(c->metrics_listen.host, c->listen[i].host)) {
			fprintf(stderr,
				"quinteto-server: bad value for metrics_listen: it is also in listen\n");
			return CONF_E_INVALID;
		}
	return 0;
}

/*
 * One warning line when `path`, which holds a secret (`what`), may be read by
 * other users than the server's: by others, or by a group that is not the
 * server's own (root:quinteto mode 0640, as docs/HOSTING.md installs the TLS
 * key, is quiet).
 */
static void warn_readable(const char *what, const char *path)
{
	struct stat st;
	unsigned mode;

	if (stat(path, &st))
		return;
	mode = (unsigned)(st.st_mode & 07777);
	if (st.st_mode & S_IROTH)
		util_log(
			LOG_WARN,
			"conf: %s %s holds a secret and every user may read it (mode %04o): chmod 600 %s (or "
			"640 with the group the server runs as)",
			what, path, mode, path);
	else if ((st.st_mode & S_IRGRP) && st.st_gid != getegid())
		util_log(LOG_WARN,
			 "conf: %s %s holds a secret and its group %u, not the server's, may read it (mode "
			 "%04o): chmod 600 %s, or give it the group the server runs as",
			 what, path, (unsigned)st.st_gid, mode, path);
}

/*
 * At start-up: the files that hold a secret (the TLS key; the configuration
 * file when metrics_token or redis_password comes from it) readable by others
 * than their owner, and a secret on the command line, which every user sees
 * in ps. Never the secret itself.
 */
static void warn_secrets(const struct config *c)
{
	static const char *const named[][2] = { { "metrics_token", "token" },
						{ "redis_password", "password" } };
	size_t i;

	if (c->tls_key[0])
		warn_readable("tls_key", c->tls_key);
	for (i = 0; i < sizeof(named) / sizeof(named[0]); i++) {
		const struct setting *s = find_setting(named[i][0]);
		char what[64], env[64], flag[64];

		if (!*((const char *)c + s->off))
			continue;
		if (c->source[s - settings] == CONF_FILE) {
			snprintf(what, sizeof(what), "the configuration file (%s)", s->name);
			warn_readable(what, c->config_path);
		} else if (c->source[s - settings] == CONF_FLAG) {
			env_name(s, env, sizeof(env));
			flag_name(s, flag, sizeof(flag));
			util_log(
				LOG_WARN,
				"conf: --%s shows the %s to every user of this machine (ps): set %s or %s in "
				"a configuration file of mode 600",
				flag, named[i][1], env, s->name);
		}
	}
}

static void print_config(const struct config *c)
{
	char value[4200];
	size_t i;

	printf("# quinteto-server %s: the effective configuration%s%s\n", QUINTETO_VERSION,
	       c->config_path[0] ? ", file " : "", c->config_path);
	for (i = 0; i < N_SETTINGS; i++) {
		print_value(&settings[i], c, value, sizeof(value));
		printf("%-20s = %-40s # %s\n", settings[i].name, value, source_names[c->source[i]]);
	}
}

int config_parse(struct config *c, int argc, char **argv)
{
	static struct option opts[N_SETTINGS + 5];
	static char flags[N_SETTINGS][64];
	const char *path = getenv("QUINTETO_CONFIG");
	bool check = false;
	int opt;

	build_options(opts, flags);
	/* First pass: what decides the rest (--config, --check-config, --help, --version). */
	optind = 0; /* 0: GNU getopt starts over (this function scans argv twice) */
	opterr = 0;
	while ((opt = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		if (opt == OPT_HELP || opt == 'h') {
			usage(stdout);
			return CONF_E_DONE;
		}
		if (opt == OPT_VERSION) {
			printf("quinteto-server %s\n", QUINTETO_VERSION);
			return CONF_E_DONE;
		}
		if (opt == OPT_CONFIG)
			path = optarg;
		if (opt == OPT_CHECK)
			check = true;
	}
	if (path && *path) {
		if (strlen(path) >= sizeof(c->config_path)) {
			fprintf(stderr, "quinteto-server: config file name too long\n");
			return CONF_E_INVALID;
		}
		snprintf(c->config_path, sizeof(c->config_path), "%s", path);
		if (read_file(c, path))
			return CONF_E_INVALID;
	}
	if (read_env(c))
		return CONF_E_INVALID;
	/* Second pass: the flags, which win. */
	optind = 0; /* 0: GNU getopt starts over (this function scans argv twice) */
	opterr = 1;
	while ((opt = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		char where[80];

		if (opt >= OPT_CONFIG)
			continue;
		if (opt < OPT_SETTING || (size_t)(opt - OPT_SETTING) >= N_SETTINGS) {
			usage(stderr);
			return CONF_E_INVALID;
		}
		opt -= OPT_SETTING;
		snprintf(where, sizeof(where), "--%s", flags[opt]);
		if (set_from(c, &settings[opt], CONF_FLAG, where, optarg))
			return CONF_E_INVALID;
	}
	if (optind < argc) {
		fprintf(stderr, "quinteto-server: unexpected argument: %s\n", argv[optind]);
		usage(stderr);
		return CONF_E_INVALID;
	}
	if (!c->max_live_rooms_per_addr) /* a tenth of the rooms in all, so one address never has them all */
		c->max_live_rooms_per_addr = c->max_rooms >= 20 ? c->max_rooms / 10 : 1;
	if (cross_check(c))
		return CONF_E_INVALID;
	snprintf(c->host, sizeof(c->host), "%s", c->listen[0].host);
	c->port = c->listen[0].port;
	util_log_level = c->log_level;
	util_log_format = c->log_format;
	warn_secrets(c);
	if (check) {
		print_config(c);
		return CONF_E_DONE;
	}
	return 0;
}

static bool cidr_match(const struct conf_cidr *r, int family, const unsigned char *a)
{
	int full = r->bits / 8, rest = r->bits % 8;

	if (r->family != family || memcmp(r->addr, a, (size_t)full))
		return false;
	return !rest || ((r->addr[full] ^ a[full]) & (0xff << (8 - rest))) == 0;
}

/* Whether `addr` (text) is in the list; an IPv4 peer seen through an IPv6 socket (::ffff:a.b.c.d) as IPv4. */
static bool cidrs_match(const struct conf_cidr *list, int n, const char *addr)
{
	unsigned char a[16];
	int i, family;

	if (inet_pton(AF_INET, addr, a) == 1)
		family = AF_INET;
	else if (inet_pton(AF_INET6, addr, a) == 1)
		family = AF_INET6;
	else
		return false;
	if (family == AF_INET6 && !memcmp(a, "\0\0\0\0\0\0\0\0\0\0\xff\xff", 12)) {
		memmove(a, a + 12, 4);
		family = AF_INET;
	}
	for (i = 0; i < n; i++)
		if (cidr_match(&list[i], family, a))
			return true;
	return false;
}

bool config_is_trusted_proxy(const struct config *c, const char *addr)
{
	return cidrs_match(c->proxies, c->n_proxies, addr);
}

bool config_metrics_from(const struct config *c, const char *addr)
{
	return cidrs_match(c->metrics_from, c->n_metrics_from, addr);
}

const char *conf_strerror(int code)
{
	switch (code) {
	case CONF_E_INVALID:
		return "invalid settings";
	case CONF_E_DONE:
		return "answered on the command line (help, version or the settings check): nothing to run";
	default:
		return "unknown conf error";
	}
}
