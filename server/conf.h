/*
 * conf.h: the server's configuration, from the command line (a config file
 * comes later). Every limit the protocol names has its default here.
 */
#ifndef QUINTETO_CONF_H
#define QUINTETO_CONF_H

#include <stddef.h>

struct config {
	char host[128];
	int port;
	char db_path[4096];
	char web_dir[4096];
	char migrations_dir[4096];
	int bot_delay_ms;      /* a bot acts this long after its turn comes */
	size_t max_frame;      /* inbound message limit, bytes (close 1009 past it) */
	double rate_per_s;     /* sustained inbound messages per second */
	double rate_burst;     /* bucket size */
	unsigned rate_strikes; /* rate-limited messages in a row before closing */
	int max_conns_per_addr;
	int max_conns; /* open connections, HTTP and WebSocket; 0: the open-file limit less a reserve (net.c)
			*/
	size_t max_queue_bytes;  /* per-session write queue, bytes */
	unsigned max_queue_msgs; /* per-session write queue, frames */
	int finished_room_ttl_s; /* finished rooms stay listed this long */
	int idle_room_ttl_s;     /* waiting rooms nobody follows are closed after this */
	int rematch_timeout_s;   /* a rematch offer nobody completes lapses after this */
	double chat_per_min;     /* chat lines per minute per connection, sustained (beside rate_per_s) */
	double chat_burst;       /* chat's bucket size */
	int log_level;
};

/* Defaults (see conf.c for the values). */
void config_defaults(struct config *c);

/*
 * Parses argv into c (after config_defaults). Returns 0 to run, 1 when it
 * printed --help or --version (exit 0), -1 after printing an error (exit 2).
 */
int config_parse(struct config *c, int argc, char **argv);

#endif
