/*
 * server.h: the server's shared types: the server itself, sessions (one per
 * WebSocket), players (identities behind tokens), rooms (one match each) and
 * the memberships that link sessions to the rooms they follow.
 *
 * Everything here lives on the one loop thread; only store.c runs work on a
 * thread of its own and talks back through a uv_async_t. Nothing is freed
 * inside its own callback: sessions and rooms are marked dead and reaped from
 * a uv_check_t; uv handles are freed in their close callbacks.
 */
#ifndef QUINTETO_SERVER_H
#define QUINTETO_SERVER_H

#include <stdbool.h>
#include <stdint.h>
#include <uv.h>

#include "buf.h"
#include "conf.h"
#include "metrics.h"
#include "util.h"
#include "wire.h"

struct lws;
struct lws_context;
struct store;
struct room;
struct session;

/* A session following a room (seated or watching). */
struct member {
	struct session *s;
	struct room *r;
	struct member *room_prev, *room_next; /* in r->members */
	struct member *sess_next;             /* in s->members */
};

/* An identity: created by a first `hello`, resumed by its token. */
struct player {
	char id[16];
	char token_hash[65];  /* hex SHA-256 of the token; the token itself is never stored */
	char name[WIRE_NAME_MAX * 4 + 1];
	struct session *sessions; /* linked by session->player_next */
	int nsessions;
	struct room **rooms;  /* rooms where this player holds a seat */
	int nrooms, caprooms;
};

enum session_close {
	SESSION_OPEN = 0,
	SESSION_CLOSE_REQUESTED, /* close with close_code at the next WRITEABLE */
	SESSION_CLOSE_SENT,      /* our close frame is out; ignore everything else */
};

struct session {
	struct server *srv;
	struct lws *wsi;          /* NULL once lws has closed it */
	struct player *player;    /* NULL until hello */
	struct session *player_next;
	struct member *members;
	char addr[64];
	/* bounded write queue of shared frames */
	struct buf **q;
	unsigned qhead, qlen, qcap;
	size_t qbytes;
	/* reassembly of fragmented inbound messages */
	char *rx;
	size_t rxlen, rxcap;
	bool rx_overflow;
	/* token bucket (protocol.md: 20/s sustained, bursts of 40) */
	double tokens;
	uint64_t refill_ns;
	unsigned strikes;         /* consecutive rate-limited messages */
	/* lobby subscription */
	bool lobby_sub;
	struct session *lobby_prev, *lobby_next;
	int close_state;
	int close_code;
	char close_reason[64];
	bool dead;
	struct session *reap_next;
	uint64_t id;
};

enum room_status { ROOM_WAITING, ROOM_PLAYING, ROOM_FINISHED };

struct room_seat {
	bool taken;
	bool bot;
	struct player *player;    /* NULL for bots and free seats */
	char bot_name[32];
	bool has_seed;
	char client_seed[WIRE_CLIENT_SEED_MAX * 4 + 1];
};

/* One accepted action, kept for the archive. */
struct room_log {
	int seat;
	int64_t at;
	char *action;   /* compact JSON */
	char *outcome;  /* compact JSON */
};

struct room {
	struct server *srv;
	char id[WIRE_ROOM_ID_MAX + 1];
	const struct rules_game *game;
	const struct wire_game *codec;
	struct wire_room_options ropt;
	struct rules_options gopt;
	bool has_roll;                /* the game has {"roll":true}; `roll` is its compact form */
	struct rules_action roll;
	enum room_status status;
	uint8_t server_seed[32];
	char commit[65];
	char server_seed_hex[65];
	struct room_seat seats[RULES_MAX_SEATS];
	struct rules_match match; /* preview (zero seed) until the start */
	struct member *members;
	int nmembers;
	bool has_last;
	int last_seat;
	struct rules_action last_action;
	union rules_outcome last_outcome;
	struct room_log *log;
	size_t nlog, caplog;
	int64_t created_at, started_at, ended_at, idle_since;
	uv_timer_t bot_timer;
	uint64_t bot_rng;
	struct buf *cache_all;                    /* state for spectators; NULL = stale */
	struct buf *cache_seat[RULES_MAX_SEATS];  /* state with `legal` for a seat to act */
	bool restoring;                           /* replaying the journal: do not journal */
	bool dead;
	struct room *reap_next;
};

struct server {
	uv_loop_t *loop;
	struct lws_context *lws;
	struct config cfg;
	struct store *store;
	struct hmap rooms;           /* id -> room */
	struct hmap players;         /* token_hash -> player */
	struct hmap players_by_id;   /* id -> player */
	struct hmap addrs;           /* address -> struct addr_count */
	struct session *lobby_subs;
	bool lobby_dirty;
	json_t *lobby_cache;         /* the rooms array; NULL = rebuild */
	int64_t lobby_pushed_ms;
	uv_timer_t lobby_timer;
	uv_timer_t housekeeping;
	uv_check_t reaper;
	uv_signal_t sigint, sigterm;
	struct session *dead_sessions;
	struct room *dead_rooms;
	long nsessions;
	uint64_t next_session_id;
	int64_t started_ms;
	bool stopping;
	struct metrics metrics;
};

/* session.c */
struct session *session_new(struct server *srv, struct lws *wsi);
void session_closed(struct session *s);
void session_send(struct session *s, struct buf *b);
void session_send_json(struct session *s, json_t *j_take);
void session_send_error(struct session *s, int err, const char *message, const json_t *id);
void session_close(struct session *s, int code, const char *reason);
void session_receive(struct session *s, const char *data, size_t len);
int session_writeable(struct session *s);
void session_free(struct session *s);
void session_rate_refuse(struct session *s, const json_t *id);

/* handlers.c */
void session_dispatch(struct session *s, struct wire_msg *m, bool allowed);

/* lobby.c */
int lobby_init(struct server *srv);
void lobby_close_rooms(struct server *srv);
void lobby_finish(struct server *srv);
struct player *lobby_player_hello(struct server *srv, const char *token, const char *name,
				  char *token_out, size_t token_out_size);
struct player *lobby_player_by_token(struct server *srv, const char *token);
void lobby_subscribe(struct server *srv, struct session *s);
void lobby_unsubscribe(struct server *srv, struct session *s);
void lobby_changed(struct server *srv);
json_t *lobby_rooms_json(struct server *srv);
void lobby_player_add_room(struct player *p, struct room *r);
void lobby_player_del_room(struct player *p, struct room *r);

/* room.c */
int room_new(struct server *srv, const struct rules_game *g, const struct wire_game *codec,
	     const struct wire_room_options *ropt, const struct rules_options *gopt,
	     struct room **out);
void room_free(struct room *r);
int room_restore(struct server *srv, const char *id, const char *game, const char *options,
		 const char *seed_hex, int64_t created_at, struct room **out);
int room_restore_seat(struct room *r, int seat, const char *player_id, const char *client_seed);
int room_restore_action(struct room *r, int ply, int seat, const char *action, const char *outcome,
			int64_t at);
int room_restore_event(struct room *r, int ply, int seat, int kind);
int lobby_restore(struct server *srv);
void room_destroy(struct room *r);
int room_apply(struct room *r, int seat, const struct rules_action *a, int64_t at);
void room_restore_finish(struct room *r, int64_t started_at, int64_t ended_at);
json_t *room_summary(struct room *r);
bool room_member_add(struct room *r, struct session *s);
void room_member_del(struct room *r, struct session *s);
bool room_is_member(struct room *r, struct session *s);
int room_seat_of(struct room *r, struct player *p);
void room_broadcast(struct room *r);
void room_send_state(struct room *r, struct session *s);
int room_join(struct room *r, struct player *p, int seat, const char *client_seed, int *seat_out);
int room_add_bot(struct room *r, int seat, int *seat_out);
int room_leave(struct room *r, struct player *p, bool *changed);
int room_act(struct room *r, struct player *p, int64_t ply, const json_t *action, const char **why);
int room_resign(struct room *r, struct player *p, const char **why);
void room_changed(struct room *r);
char *room_json_text(json_t *j_take);
bool room_autorolls(const struct room *r, const struct rules_action *legal, int n);
void room_chat(struct room *r, int seat, const char *name, const char *text);
void room_connected_changed(struct room *r);
void room_housekeep(struct room *r, int64_t now);

/* bot.c */
void bot_schedule(struct room *r);
void bot_play_cb(uv_timer_t *t);

/* net.c */
int net_start(struct server *srv);
void net_stop(struct server *srv);
void net_want_write(struct session *s);

#endif
