/*
 * lobby_int.h: the lobby's inside, included only by the lobby's own files: struct
 * lobby and the functions its files share. Other modules see lobby.h alone.
 */
#ifndef QUINTETO_LOBBY_INT_H
#define QUINTETO_LOBBY_INT_H

#include <stdbool.h>
#include <stdint.h>
#include <uv.h>

#include "lobby/lobby.h"
#include "room/room.h"
#include "base/util.h"

struct lobby {
	struct room_host host; /* handed to every room */
	struct store *store;
	const struct config *cfg;
	struct metrics *metrics;
	struct hmap rooms;                               /* id -> live room */
	struct hmap players;                             /* token_hash -> player */
	struct hmap players_by_id;                       /* id -> player */
	void (*rated_hook)(void *ctx, struct player *p); /* lobby_set_rated_hook() */
	void *rated_ctx;
	struct lobby_sub *subs; /* connections that asked for `rooms` */
	bool dirty;             /* a push is scheduled */
	json_t *cache;          /* the rooms array; NULL = rebuild */
	int64_t pushed_ms;
	uv_timer_t timer; /* throttles pushes to one a second */
	/* the capped list as text (lobby_list.c): rooms newest first, and their joined summaries */
	struct room **order;
	size_t norder, caporder;
	bool order_stale; /* a room came or went: sort again */
	char *text;       /* "[summary,...]" of the newest cfg->lobby_list_max rooms */
	size_t textlen, textcap;
	bool text_stale;    /* a room's summary changed since `text` was joined */
	struct buf *pushed; /* the last frame pushed to subscribers */

	/* cluster mode (lobby_list.c): the other live nodes' summaries, merged with ours into `mtext` */
	struct cluster *cluster;      /* NULL: a single server */
	struct hmap rnodes;           /* node name -> struct lobby_rnode: each one's parsed summaries */
	struct lobby_remote **remote; /* their rooms, newest first (in rnodes) */
	size_t nremote, remote_total; /* how many listed; their live rooms in all */
	bool remote_stale;            /* a node's summaries changed, or a node came or went */
	char *mtext;                  /* "[summary,...]": the newest lobby_list_max of ours and theirs */
	size_t mtextlen, mtextcap;
	uint64_t text_gen, mtext_gen; /* `text` rebuilt this many times; the one `mtext` was merged from */
	struct tally by_addr;         /* address -> waiting rooms created from it (lobby_limits.c) */
	long bot_rooms;               /* live rooms with a bot in every seat */
	int64_t players_expired_ms;   /* when the database last forgot idle identities */

	/* open rooms by opener and address, and each address's paces (lobby_limits.c) */
	struct tally live_by_addr;   /* address -> live rooms opened from it */
	struct tally live_by_player; /* player id -> live rooms it opened */
	struct hmap paces;           /* address -> struct lobby_pace */
	struct hmap handle_paces;    /* accounts: handle key -> struct lobby_pace (its fails_tat only) */

	/* rooms whose spectator count their members have not seen yet, sent at most every
	   LOBBY_SPECTATORS_MS per room (lobby.c) */
	struct room *spectators_due;
	uv_timer_t spectators_timer;
	int64_t spectators_sent_ms;
};

/* A room another node lists (lobby_list.c): its summary's text as we send it. */
struct lobby_remote {
	int64_t created_at;
	const char *id; /* inside `text`'s JSON: the room's id, for the order's ties (malloc'd) */
	char *text;     /* its summary, compact JSON (malloc'd) */
	size_t len;
};

/* A room's members see spectators come and go at most this often (a flood of watch/leave). */
#define LOBBY_SPECTATORS_MS 250

/*
 * Registers a player identity (a new one, or one loaded from the store at
 * start-up); the strings are copied. The player or NULL (out of memory).
 * Journals nothing: the caller does when the identity is new.
 */
struct player *lobby_player_add(struct lobby *l, const char *id, const char *token_hash, const char *name);

/* Keeps the `n` ratings `r` (a store's answer) in p; games this build does not host are skipped. */
void lobby_player_ratings_set(struct player *p, const struct store_rating *r, size_t n);

/* Cluster mode: hands this node's own list (and count) to the cluster to publish (throttled there). */
void lobby_publish(struct lobby *l);

/* Frees the merged lobby's parts (lobby_free). */
void lobby_list_finish(struct lobby *l);

/* Frees the limits' counts (lobby_free). */
void lobby_limits_finish(struct lobby *l);

/*
 * Every live room's summary, newest first: a new reference to a cached array
 * that callers must not modify. Rebuilt at most once per change.
 */
json_t *lobby_rooms_json(struct lobby *l);

#endif
