/*
 * conf.h: the server's configuration. Every setting is one row of the table
 * in conf.c (name, type, range, default, help); the JSON key of the
 * configuration file, the environment variable and the flag are derived from
 * the name. Sources in rising precedence: the defaults, the file
 * (--config PATH or $QUINTETO_CONFIG), QUINTETO_* variables, flags.
 */
#ifndef QUINTETO_CONF_H
#define QUINTETO_CONF_H

#include <stdbool.h>
#include <stddef.h>

#define CONF_MAX_LISTEN   8
#define CONF_MAX_ORIGINS  16
#define CONF_MAX_PROXIES  16
#define CONF_MAX_SETTINGS 96

struct conf_addr {
	char host[128]; /* without the brackets of an IPv6 literal */
	int port;
};

/* A trusted proxy: an address and a prefix length (a single address is /32 or /128). */
struct conf_cidr {
	int family; /* AF_INET or AF_INET6 */
	unsigned char addr[16];
	int bits;
};

enum conf_source { CONF_DEFAULT, CONF_FILE, CONF_ENV, CONF_FLAG };

struct config {
	char host[128]; /* the first listen address (listen[0]), kept for the code that knows one */
	int port;
	struct conf_addr listen[CONF_MAX_LISTEN]; /* every address the server answers on */
	int n_listen;
	struct conf_addr metrics_listen; /* port 0 and empty host: none; else /metrics only there */
	char metrics_token[256];         /* non-empty: /metrics wants "Authorization: Bearer <token>" */
	char db_path[4096];
	char web_dir[4096];
	char wasm_dir[4096]; /* rules.wasm's folder, served as /wasm/ */
	char migrations_dir[4096];
	char tls_cert[4096]; /* PEM certificate chain; with tls_key, the listeners speak TLS only */
	char tls_key[4096];
	char origins[CONF_MAX_ORIGINS][256]; /* allowed WebSocket Origins; none: the Host's own */
	int n_origins;
	struct conf_cidr proxies[CONF_MAX_PROXIES]; /* peers whose X-Forwarded-For is believed */
	int n_proxies;
	struct conf_cidr metrics_from[CONF_MAX_PROXIES]; /* clients the main listeners serve /metrics */
	int n_metrics_from;
	int bot_delay_ms;  /* a bot acts this long after its turn comes */
	int bot_threads;   /* bot worker threads; 0: one fewer than the cores, at least one */
	int bot_move_ms;   /* the most a bot thinks about one move (its search's stop deadline) */
	int bot_budget;    /* the most work per move in the level's units (bot_ctx.budget); 0: its default */
	size_t max_frame;  /* inbound message limit, bytes (close 1009 past it) */
	double rate_per_s; /* sustained inbound messages per second */
	double rate_burst; /* bucket size */
	unsigned rate_strikes; /* rate-limited messages in a row before closing */
	int max_conns_per_addr;
	int max_conns; /* open connections, HTTP and WebSocket; 0: the open-file limit less a reserve (net.c)
			*/
	size_t max_queue_bytes;  /* per-session write queue, bytes */
	unsigned max_queue_msgs; /* per-session write queue, frames */
	int finished_room_ttl_s; /* finished rooms stay listed this long */
	int idle_room_ttl_s;     /* waiting rooms nobody follows are closed after this */
	int shutdown_timeout_s;  /* SIGTERM: how long connections get to close (1012) before the exit */

	/* limits against floods and abandoned rooms (lobby_limits.c, net.c) */
	int max_rooms;            /* live rooms in all; `create` past it: too_many_rooms */
	int max_rooms_per_player; /* waiting rooms a player created that have not started */
	int max_rooms_per_addr;   /* the same, for every player of one address */
	int max_bot_rooms;        /* live rooms whose every seat is a bot */
	int lobby_list_max;       /* the `rooms` list holds at most this many rooms (the newest) */
	int abandon_timeout_s;    /* a started match with no human connected this long: forfeit */
	int idle_limit_ms;        /* a seat to act this long without acting: stand-in (no clock); 0: none */
	int stand_in_min_ms;      /* the least stand_in_after_ms / idle_after_ms a new room may set */
	int hello_timeout_s;      /* a WebSocket that says no hello this long is closed */
	int ping_interval_s;      /* silent this long: pinged; silent another interval: dropped */
	size_t http_body_mem;     /* HTTP answer bodies held unread, in all (an eighth per address) */
	int player_ttl_s;      /* identities with no seat and no archived match, unseen this long: deleted */
	int rematch_timeout_s; /* a rematch offer nobody completes lapses after this */
	double chat_per_min;   /* chat lines per minute per connection, sustained (beside rate_per_s) */
	double chat_burst;     /* chat's bucket size */

	/* per-player and per-address limits (lobby_limits.c): one address never fills the server */
	int max_live_rooms_per_player;     /* rooms a player opened that are live (finished, still listed) */
	int max_live_rooms_per_addr;       /* the same for one address; under max_rooms (0 given: a tenth) */
	int max_matches_per_addr_hour;     /* rooms opened from one address: a burst of N, then N an hour */
	int max_new_players_per_addr_hour; /* new identities from one address, per hour after the burst */
	int new_players_burst;             /* new identities from one address at once */

	/* accounts (docs/ACCOUNTS.md) */
	int signups;                    /* 1: guests may claim accounts; 0: claim is refused */
	int pwhash_ops, pwhash_mem_kib; /* Argon2id's passes and memory (KiB) */
	int pwhash_threads, pwhash_queue;
	int sign_in_fails_per_addr, sign_in_fail_addr_s;     /* failed checks: a burst, then one every s */
	int sign_in_fails_per_handle, sign_in_fail_handle_s; /* the same per handle key */
	int account_tries_per_addr, account_try_addr_s;      /* claims and sign-ins from one address */
	int session_check_s; /* the open account connections' sessions are checked this often (seconds) */

	int log_level;
	int log_format;                          /* UTIL_LOG_TEXT or UTIL_LOG_JSON */
	char config_path[4096];                  /* the file read, or empty */
	unsigned char source[CONF_MAX_SETTINGS]; /* enum conf_source, by row of the table */

	/* cluster mode (docs/SCALING.md); node empty: a single server (the default) */
	char store[16];           /* "sqlite" (db_path) or "postgres" (postgres) */
	char postgres[1024];      /* libpq conninfo of the shared database */
	char node[64];            /* this node's name in the cluster ([a-z0-9-], 1..32); empty: no cluster */
	struct conf_addr redis;   /* the cluster's Redis; needed with node */
	char redis_user[128];     /* Redis ACL user for AUTH; empty: the default user */
	char redis_password[512]; /* sent with AUTH first on every connection; empty: no AUTH */
	int node_lease_ms;        /* a node's lease (renewed every third of it); expired this long: adopted */

	/* the archive reader's queue (http.c): past either, 503 busy */
	int archive_reads;          /* archive reads queued or running, in all */
	int archive_reads_per_addr; /* the same from one client address */
};

/* Defaults (see conf.c for the values). */
void config_defaults(struct config *c);

/* The settings' own codes (docs/ARCHITECTURE.md, "Errors"). */
enum conf_error {
	CONF_E_INVALID =
		-1600, /* a setting, flag or file is wrong; the reason, naming its source, was printed */
	CONF_E_DONE = -1601, /* --help, --version or --check-config's report was printed: nothing to run */
};

/* A sentence for a CONF_E_* code ("unknown conf error" for any other). */
const char *conf_strerror(int code);

/*
 * Reads the file, the environment and argv into c (after config_defaults).
 * Returns 0 to run, CONF_E_DONE when it printed --help, --version or
 * --check-config's report, CONF_E_INVALID after printing an error naming the
 * setting and its source (main.c's exit_status() says what the process
 * returns for each).
 */
int config_parse(struct config *c, int argc, char **argv);

/* Whether the peer address `addr` (text) is one of the trusted proxies. */
bool config_is_trusted_proxy(const struct config *c, const char *addr);

/* Whether the client address `addr` (text) is in metrics_from: may have /metrics without the token. */
bool config_metrics_from(const struct config *c, const char *addr);

#endif
