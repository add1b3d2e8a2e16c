/*
 * wire.h: JSON <-> C for the wire protocol, version 1 revision 2
 * (protocol/PROTOCOL.md).
 *
 * Decodes every client message into a typed struct with the protocol's error
 * codes, and builds every server message as a jansson value. This is the only
 * place where jansson meets the rules core: each game has a codec
 * (struct wire_game) for its view, actions, outcomes, results and options.
 *
 * Must not: do I/O, know about lws/libuv/SQLite, or keep global mutable state.
 * Ownership follows jansson: functions named *_new return a new reference.
 */
#ifndef QUINTETO_WIRE_H
#define QUINTETO_WIRE_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../rules/rules.h"

struct json_out;  /* json_out.h */
struct text_game; /* text.h */

#define WIRE_PROTOCOL        "quinteto.v1"
#define WIRE_NAME_MAX        24  /* characters */
#define WIRE_CHAT_MAX        500 /* characters */
#define WIRE_CLIENT_SEED_MAX 64  /* characters */
#define WIRE_ID_MAX          64  /* bytes of an `id` */
#define WIRE_ROOM_ID_MAX     32  /* bytes of a room id */

/*
 * The wire codecs' codes, in their band -1100..-1199 (docs/ARCHITECTURE.md,
 * "Errors"), which are also the protocol's `error.code`s: wire_error_code()
 * gives the wire string, wire_strerror() a sentence for a person. The values
 * are ours; only the strings travel.
 */
enum wire_error {
	WIRE_OK = 0,
	WIRE_E_BAD_JSON = -1100,
	WIRE_E_BAD_MESSAGE = -1101,
	WIRE_E_HELLO_REQUIRED = -1102,
	WIRE_E_UNKNOWN_ROOM = -1103,
	WIRE_E_UNKNOWN_GAME = -1104,
	WIRE_E_BAD_OPTIONS = -1105,
	WIRE_E_ROOM_FULL = -1106,
	WIRE_E_SEAT_TAKEN = -1107,
	WIRE_E_ALREADY_SEATED = -1108,
	WIRE_E_NOT_IN_ROOM = -1109,
	WIRE_E_NOT_YOUR_TURN = -1110,
	WIRE_E_ILLEGAL_ACTION = -1111,
	WIRE_E_STALE_PLY = -1112,
	WIRE_E_GAME_OVER = -1113,
	WIRE_E_RATE_LIMITED = -1114,
	WIRE_E_TOO_LARGE = -1115,
	WIRE_E_INTERNAL = -1116,
	WIRE_E_UNAVAILABLE = -1117,
	WIRE_E_TOO_MANY_ROOMS = -1118,
	WIRE_E_CHAT_RATE_LIMITED = -1119,
	WIRE_E_REMATCH_UNAVAILABLE = -1120,
	/* accounts and rated rooms (PROTOCOL.md "Accounts and ratings") */
	WIRE_E_BAD_HANDLE = -1121,
	WIRE_E_HANDLE_TAKEN = -1122,
	WIRE_E_BAD_PASSWORD = -1123,
	WIRE_E_WRONG_CREDENTIALS = -1124,
	WIRE_E_ALREADY_CLAIMED = -1125,
	WIRE_E_NOT_SIGNED_IN = -1126,
	WIRE_E_UNKNOWN_SESSION = -1127,
	WIRE_E_SIGNUPS_DISABLED = -1128,
	WIRE_E_SEATS_HELD = -1129,
	WIRE_E_ACCOUNT_REQUIRED = -1130,
	WIRE_E_RATED_ROOM = -1131,
	WIRE_E_BUSY = -1132,
	WIRE_E_END_ = -1133, /* one past the last code: for (e = WIRE_E_BAD_JSON; e > WIRE_E_END_; e--) */
};

/* How many WIRE_E_* codes there are (a table with one entry per code). */
#define WIRE_E_COUNT (WIRE_E_BAD_JSON - WIRE_E_END_)

/* "bad_json", ...: the protocol's string for a WIRE_E_* code; NULL for any other value. */
const char *wire_error_code(int err);

/* A sentence for a person about a WIRE_E_* code; "unknown wire error" for any other value. */
const char *wire_strerror(int err);

/*
 * The place of a WIRE_E_* code in a table of WIRE_E_COUNT entries (0 for
 * WIRE_E_BAD_JSON, in enum order); -ERANGE for any other value.
 */
int wire_error_index(int err);

/* Client message types. */
enum wire_type {
	WIRE_HELLO = 1,
	WIRE_ROOMS,
	WIRE_CREATE,
	WIRE_JOIN,
	WIRE_WATCH,
	WIRE_LEAVE,
	WIRE_ADD_BOT,
	WIRE_ACT,
	WIRE_RESIGN,
	WIRE_CHAT,
	WIRE_MUTE,
	WIRE_REMATCH,
	WIRE_CLAIM,
	WIRE_SIGN_IN,
	WIRE_SIGN_OUT,
	WIRE_ACCOUNT,
	WIRE_PASSWORD,
	WIRE_END_SESSION,
	WIRE_DELETE_ACCOUNT,
};

/*
 * A decoded client message. String and JSON fields borrow from `root`, which
 * the struct owns until wire_msg_finish(). Absent optional fields are NULL
 * (strings, json) or flagged by has_* (integers).
 */
struct wire_msg {
	int type;          /* enum wire_type, 0 if unknown */
	json_t *root;      /* owned */
	json_t *id;        /* borrowed; NULL if absent or invalid */
	const char *name;  /* hello */
	const char *token; /* hello, optional */
	const char *game;  /* create */
	json_t *options;   /* create, optional (an object, checked later) */
	const char *room;  /* join, watch, leave, add_bot, act, resign, chat */
	bool has_seat;     /* join, add_bot */
	int64_t seat;
	const char *client_seed; /* join, optional */
	const char *level;       /* add_bot, optional; default "random" */
	int64_t ply;             /* act */
	json_t *action;          /* act; borrowed */
	const char *text;        /* chat */
	json_t *since_map;       /* hello, optional: {room id: ply}; borrowed, values checked */
	bool has_since;          /* watch */
	int64_t since;
	/* booleans: 0 absent, 1 false, 2 true */
	int spectators; /* mute, optional */
	int muted;      /* mute */
	int accept;     /* rematch, optional (absent: true) */
	int rated;      /* create, optional (absent: false): a rated room (PROTOCOL.md, Rated rooms) */
	/* accounts: claim, sign_in (handle, password, device), password (old_password, new_password),
	   end_session (session), delete_account (password); checked by the server, not here */
	const char *handle, *password, *device, *old_password, *new_password, *session;
	/*
	 * An `act` read by wire_msg_scan_act(): no tree (root, action and id NULL);
	 * the action's and a string id's bytes borrow from the frame, `room` from
	 * room_buf. wire_msg_id() builds the id when it must be echoed.
	 */
	const char *action_raw; /* the action's JSON text (an object), action_len bytes */
	size_t action_len;
	int id_kind; /* enum wire_id_kind: the scanned id, until wire_msg_id() */
	int64_t id_int;
	const char *id_str;
	size_t id_len;
	bool id_owned; /* `id` was built by wire_msg_id(): wire_msg_finish() releases it */
	char room_buf[WIRE_ROOM_ID_MAX + 1];
};

enum wire_id_kind { WIRE_ID_NONE = 0, WIRE_ID_INTEGER, WIRE_ID_STRING };

/*
 * Decodes one inbound text frame. Returns WIRE_OK, or WIRE_E_BAD_JSON /
 * WIRE_E_BAD_MESSAGE with a human-readable reason in why[0..whylen). On
 * failure `m` still owns whatever was parsed (m->id is set when the frame had
 * a valid id, so the error can echo it): always call wire_msg_finish().
 */
int wire_msg_decode(const char *buf, size_t len, struct wire_msg *m, char *why, size_t whylen);

/* Releases what `m` owns; safe on a zeroed or failed message. */
void wire_msg_finish(struct wire_msg *m);

/*
 * The fast path for the hot message (msg_scan.c): true when buf[0..len) is an
 * `act` frame in its common shape (plain ASCII strings without escapes, small
 * integers, known keys once each, a shallow action object), decoded into `m`
 * without a tree and exactly as wire_msg_decode() would decode it; false
 * otherwise, `m` zeroed: the caller then asks wire_msg_decode(), which is the
 * definition and gives every error. Allocates nothing; `m` borrows from buf.
 */
bool wire_msg_scan_act(const char *buf, size_t len, struct wire_msg *m);

/* wire_msg_scan_act(), else wire_msg_decode(): what the server reads a frame with. */
int wire_msg_read(const char *buf, size_t len, struct wire_msg *m, char *why, size_t whylen);

/*
 * m->id, built first from a scanned id (kept in `m`, released by
 * wire_msg_finish()); NULL if the frame had none (or, scanned, on ENOMEM).
 */
const json_t *wire_msg_id(struct wire_msg *m);

/*
 * One of a seat's legal actions and where its compact JSON sits in the text
 * of the `legal` list its `state` frame carried: bytes that equal encode(a)
 * are a (the codecs' round trip), read without a tree.
 */
struct wire_legal_entry {
	struct rules_action a;
	uint32_t off, len; /* of its encoding, from the list's '[' */
};

/*
 * Splits the compact list `[e0,...]` at list[0..len) (len: the bytes
 * available; the list may end before) whose elements encode a[0..n), in that
 * order, into out[0..n). 0, or -EINVAL when the text is not n values.
 */
int wire_legal_split(const char *list, size_t len, const struct rules_action *a, int n,
		     struct wire_legal_entry *out);

/* The index of the entry of e[0..n) whose text (at base + off) is bytes[0..len); -1 if none. */
int wire_legal_find(const struct wire_legal_entry *e, int n, const char *base, const char *bytes, size_t len);

/* Room options that the server (not the rules core) acts on. */
struct wire_room_options {
	bool autoroll;
	/* `clock` (every game): none (all 0), per_action_ms, or bank_ms + increment_ms (Fischer). */
	int32_t clock_per_action_ms;
	int32_t clock_bank_ms;
	int32_t clock_increment_ms;
	/* `stand_in_after_ms` (every game): stand_in_set false means the default; 0 disables. */
	bool stand_in_set;
	int32_t stand_in_after_ms;
	/* `stand_in_level` (every game): a bot level; "" means the server's default for the game. */
	char stand_in_level[16];
	/* `idle_after_ms` (every game): idle_set false means the server's idle limit; 0: none. */
	bool idle_set;
	int32_t idle_after_ms;
};

#define WIRE_CLOCK_MIN_MS              100      /* the shortest clock allowance */
#define WIRE_CLOCK_MAX_MS              86400000 /* a day */
#define WIRE_STAND_IN_AFTER_DEFAULT_MS 30000
#define WIRE_STAND_IN_AFTER_MAX_MS     86400000
#define WIRE_STAND_IN_AFTER_MIN_MS     5000 /* a new room's least grace period but 0 (never) */
#define WIRE_IDLE_AFTER_MAX_MS         86400000

/* The grace period before a stand-in plays for an absent seat; 0: never. */
int32_t wire_stand_in_after_ms(const struct wire_room_options *o);

/*
 * One option key of one game (protocol.md (r2): options are per game). The
 * value lives in struct wire_room_options (`room`) or struct rules_options
 * at `offset`: a bool for WIRE_OPT_BOOL, an int32_t for WIRE_OPT_INT, where
 * 0 means "the game's default" (`def`) as rules_options says. Integers are
 * checked against min..max; booleans default to false.
 */
enum wire_option_type { WIRE_OPT_BOOL = 1, WIRE_OPT_INT = 2 };
struct wire_option {
	const char *key;
	uint8_t type;     /* enum wire_option_type */
	bool room;        /* stored in wire_room_options, else in rules_options */
	size_t offset;    /* of the field in that struct */
	int32_t min, max; /* WIRE_OPT_INT: accepted range */
	int32_t def;      /* WIRE_OPT_INT: the default written by state.options */
};

/*
 * A game's codec. `view` encodes the game-specific `view` of the match (a
 * preview match started from a zero seed before the real start). `action_decode`
 * returns 0 or WIRE_E_ILLEGAL_ACTION for anything that is not exactly one of
 * the game's action shapes (extra keys included). `options` is the game's
 * table of option keys, ended by a NULL key; every other key is bad_options.
 */
struct wire_game {
	const char *id;
	json_t *(*view)(const struct rules_match *m);
	json_t *(*action_encode)(const struct rules_action *a);
	int (*action_decode)(const json_t *j, struct rules_action *out);
	/* `m` is the match after the action. */
	json_t *(*outcome_encode)(const struct rules_match *m, const struct rules_action *a,
				  const union rules_outcome *o);
	json_t *(*result_encode)(const struct rules_result *r);
	const struct wire_option *options;
	/*
	 * The game's text codec (protocol/text/text.h: view, action, outcome and
	 * result written straight to bytes, the same bytes as the trees above
	 * dumped compact), or NULL: then frames are written from the trees.
	 * The trees stay the definition; text_codecs and test_wire_writers hold
	 * the two equal byte for byte. It is there for speed: a state frame is
	 * written at every change of every room.
	 */
	const struct text_game *text;
};

/*
 * The game's parts of a frame written to bytes: with the game's text codec
 * when it has one, else its tree written and freed. 0, -ENOMEM (or a failed codec), or
 * -EINVAL (a string not UTF-8). wire_legal_out() writes the array of `n`
 * actions, as wire_legal_new() builds it.
 */
int wire_view_out(struct json_out *o, const struct wire_game *g, const struct rules_match *m);
int wire_action_out(struct json_out *o, const struct wire_game *g, const struct rules_action *a);
int wire_outcome_out(struct json_out *o, const struct wire_game *g, const struct rules_match *m,
		     const struct rules_action *a, const union rules_outcome *oc);
int wire_result_out(struct json_out *o, const struct wire_game *g, const struct rules_result *r);
int wire_legal_out(struct json_out *o, const struct wire_game *g, const struct rules_action *a, int n);

/* The codec for game `id`; NULL if unknown. */
const struct wire_game *wire_game_find(const char *id);

/*
 * The registry, NULL-terminated: one codec per rules_games[] entry, in its
 * order (the built-in ones from the list of games, then the registered ones).
 */
extern const struct wire_game *wire_games[RULES_MAX_GAMES + 1];

/*
 * Adds codec `g` (borrowed, static) after the built-in ones, for a game a
 * program registers with rules_game_register() (same id); from main() only.
 * An id already taken or a full registry is the caller's bug: an assertion.
 */
void wire_game_register(const struct wire_game *g);

/*
 * Decodes `create.options` (NULL: defaults) into room and rules options with
 * the table of game `g`. A key not in the table (another game's included), a
 * wrong type or a value out of range: WIRE_E_BAD_OPTIONS with a reason in
 * why, and the outputs untouched. Either output may be NULL.
 */
int wire_options_decode(const struct wire_game *g, const json_t *options, struct wire_room_options *room,
			struct rules_options *rules, char *why, size_t whylen);

/*
 * What a new room's options must meet beyond wire_options_decode(), which
 * also reads the options of journalled rooms and archived matches (made
 * under older limits): `stand_in_after_ms` 0 or at least stand_in_min_ms;
 * `idle_after_ms` at least stand_in_min_ms and, when idle_max_ms > 0 (the
 * server's idle limit), at most that (0, none, is then refused too), and
 * never with a clock (the clock limits each turn). 0 or WIRE_E_BAD_OPTIONS
 * with a reason in why.
 */
int wire_options_check_new(const struct wire_room_options *r, int32_t stand_in_min_ms, int32_t idle_max_ms,
			   char *why, size_t whylen);

/*
 * Encodes options back with the table of `g`. with_defaults: every key of the
 * game, defaults filled in (`state.options`); otherwise only the keys that
 * differ from the defaults (the room summary, the journal, the archive).
 * NULL pointers mean defaults. New reference; NULL on allocation failure.
 */
json_t *wire_options_encode(const struct wire_game *g, const struct wire_room_options *room,
			    const struct rules_options *rules, bool with_defaults);

/* "resign", "forfeit" for enum rules_event_kind; NULL otherwise. */
const char *wire_event_kind_name(int kind);

/* The enum rules_event_kind of "resign" / "forfeit"; 0 if unknown or NULL. */
int wire_event_kind_parse(const char *s);

/* --- Server messages. Each returns a new reference, NULL on allocation failure. */

/*
 * Accounts (PROTOCOL.md "Accounts and ratings"). wire_welcome_add_account():
 * adds `account: {handle}` to a welcome built by wire_welcome_new() (an
 * account's; a guest's welcome has none); 0 or -ENOMEM (welcome unchanged).
 */
int wire_welcome_add_account(json_t *welcome, const char *handle);

/* A seat held in a room another node hosts (PROTOCOL.md, "Several nodes"); the strings are borrowed. */
struct wire_elsewhere {
	const char *room;
	int seat;
	const char *role, *node;
};

/*
 * Adds `elsewhere: [{room, seat, role, node}]` (in the order given; an empty
 * array when n is 0) to a welcome built by wire_welcome_new(): a node of a
 * cluster's. 0 or -ENOMEM (welcome unchanged).
 */
int wire_welcome_add_elsewhere(json_t *welcome, const struct wire_elsewhere *e, size_t n);

/* One room's chat mutes of the player (PROTOCOL.md, `mute`); the room is borrowed. */
struct wire_mutes {
	const char *room;
	unsigned seats_mask; /* bit s: seat s is muted */
	bool spectators;
};

/*
 * (r3) Adds `mutes: [{room, seats, spectators}]` (the shape `muted` has; in
 * the order given; an empty array when n is 0) to a welcome built by
 * wire_welcome_new(). 0 or -ENOMEM (welcome unchanged).
 */
int wire_welcome_add_mutes(json_t *welcome, const struct wire_mutes *m, size_t n);

/* One session of an account, as the `account` message lists it. */
struct wire_session {
	const char *id, *device;
	int64_t created_at, seen_at; /* Unix ms */
	bool current;                /* the connection asking is this session's */
};

/* One game's rating of an account (the `ratings` table's row, unrounded). */
struct wire_rating {
	const char *game;
	double rating, rd;
	int64_t matches;
};

/* What the `account` message shows; the strings are borrowed. */
struct wire_account {
	const char *handle, *player, *name;
	int64_t created_at;
	const struct wire_session *sessions;
	size_t nsessions;
	const struct wire_rating *ratings;
	size_t nratings;
};

/* {type:"account", handle, player, name, created_at, sessions, ratings, id?}: rating and rd rounded,
 * provisional when rd > 110 (WIRE_PROVISIONAL_RD). */
#define WIRE_PROVISIONAL_RD 110.0
json_t *wire_account_new(const struct wire_account *a, const json_t *id);

/* {type:"signed_out", reason, id?}: reason "signed_out", "ended", "password" or "deleted". */
json_t *wire_signed_out_new(const char *reason, const json_t *id);

/* {type:"error", code, message, id?}; `id` is borrowed and may be NULL. */
json_t *wire_error_new(int err, const char *message, const json_t *id);

/* A seat a player holds: the room, the seat index and its role. */
struct wire_seat_ref {
	const char *room;
	int seat;
	const char *role;
};

/*
 * {type:"welcome", player, name, token, rooms:[...], seats:[{room, seat, role}]}.
 * `rooms` is derived from `seats` (a player holds at most one seat a room),
 * in the same order.
 */
json_t *wire_welcome_new(const char *player, const char *name, const char *token,
			 const struct wire_seat_ref *seats, size_t nseats, const json_t *id);

/* {type:"resigned", room, seat, id?}: the direct reply to `resign`. */
json_t *wire_resigned_new(const char *room, int seat, const json_t *id);

/* {type:"created", room:<room summary>} and the like. */
json_t *wire_created_new(json_t *summary_take, const json_t *id);
json_t *wire_joined_new(const char *room, int seat, const char *role, const json_t *id);
json_t *wire_watching_new(const char *room, const json_t *id);
json_t *wire_left_new(const char *room, const json_t *id);
/* {type:"bot_added", room, seat, level}: the reply to `add_bot`; (r3) `level` the bot's. */
json_t *wire_bot_added_new(const char *room, int seat, const char *level, const json_t *id);
json_t *wire_rooms_new(json_t *summaries_take, const json_t *id);
/* {type:"muted", room, seats:[the seats muted], spectators, id?}: the reply to `mute`. */
json_t *wire_muted_new(const char *room, unsigned seats_mask, bool spectators, const json_t *id);
/* {type:"rematch", room, new_room, seat, role}: pushed to each seat's player when the rematch opens. */
json_t *wire_rematch_new(const char *room, const char *new_room, int seat, const char *role);
/* {type:"chat", room, seat|null (seat < 0), name, text, at}. */
json_t *wire_chat_new(const char *room, int seat, const char *name, const char *text, int64_t at);

/* One seat as the room shows it; name NULL for a free seat. */
struct wire_seat {
	const char *name;
	const char *bot; /* a bot's level ("random", "greedy", "strong", a game's own); NULL: not a bot */
	bool connected;
	bool stand_in;       /* a bot plays for the seat's absent player */
	bool has_clock;      /* the room has a clock: `clock` below is sent */
	int64_t clock_ms;    /* remaining at clock_since (or now, when stopped) */
	int64_t clock_since; /* Unix ms the clock started running; 0: stopped */
	/* an account's seat (PROTOCOL.md, Accounts and ratings); handle NULL: a guest's or a bot's */
	const char *handle;
	int32_t rating;   /* its rating in the room's game, rounded */
	bool provisional; /* its rd is above RATING_PROVISIONAL_RD */
};

/* Everything a room's `state` and summary are built from. */
struct wire_room {
	const char *id;
	const struct rules_game *game;
	const struct wire_game *codec;
	const char *status;              /* "waiting" | "playing" | "finished" */
	const struct rules_match *match; /* the live match, or the preview */
	struct wire_seat seats[RULES_MAX_SEATS];
	int watchers; /* for the summary */
	const struct wire_room_options *room_options;
	const struct rules_options *rules_options; /* NULL: the match's own */
	bool has_last;
	int last_seat;
	struct rules_action last_action;
	union rules_outcome last_outcome;
	const char *commit;                        /* hex SHA-256(server_seed) */
	const char *server_seed;                   /* hex, only once finished; else NULL */
	const char *client_seeds[RULES_MAX_SEATS]; /* only once finished */
	int64_t created_at;                        /* Unix ms, for the summary */
	int spectators;                            /* followers without a seat, for `state` */
	/* the rematch offer of a finished room (`state.rematch`); rematch_status NULL: none */
	const char *rematch_status; /* "offered" | "declined" | "expired" | "accepted" */
	int rematch_by;
	unsigned rematch_accepted; /* a mask of seats */
	int64_t rematch_expires_at;
	const char *rematch_room; /* once accepted */
	bool rated;               /* a rated room: `rated: true` (absent otherwise) */
};

/*
 * The room's `state` as spectators see it (legal: []), with `options` (every
 * key of the game, defaults filled in). To give a seat its legal actions,
 * copy it shallowly and set "legal" with wire_legal_new().
 */
json_t *wire_state_new(const struct wire_room *r);

/* The JSON array of `n` actions. */
json_t *wire_legal_new(const struct wire_game *g, const struct rules_action *a, int n);

/* A room summary: {id, game, status, seats:[{seat, role, name, bot}], watchers, options, ply, created_at}. */
json_t *wire_room_summary_new(const struct wire_room *r);

/* --- The archived match (protocol.md: GET /api/matches/{id}). */

struct wire_archive_seat {
	int seat;
	const char *role, *name; /* borrowed; never NULL (encode fails on NULL) */
	bool bot;
};

/* One accepted action; `action` and `outcome` are borrowed. */
struct wire_archive_action {
	int ply, seat;
	int64_t at;
	json_t *action, *outcome;
	bool stand_in; /* made by a stand-in (or the server on a timeout), not the seat's player */
};

/* One event (enum rules_event_kind) at `ply` = actions accepted before it. */
struct wire_archive_event {
	int ply, seat, kind;
	int64_t at;
};

struct wire_archive {
	const char *id, *game, *commit, *server_seed; /* borrowed */
	json_t *options, *result;                     /* borrowed */
	int64_t started_at, ended_at;
	struct wire_archive_seat seats[RULES_MAX_SEATS];
	int nseats;
	const char *client_seeds[RULES_MAX_SEATS]; /* "" for none */
	struct wire_archive_action *actions;       /* owned array (decode) */
	size_t nactions;
	struct wire_archive_event *events; /* owned array (decode) */
	size_t nevents;
	bool rated; /* a rated match: `rated: true` after `result` (absent in a casual one) */
};

/*
 * The archive as JSON, in the field order of protocol.md. `options` NULL is
 * written as {}, `result` NULL as null; `client_seeds` has nseats entries
 * (NULL written as ""). New reference; NULL on allocation failure or an
 * unknown event kind.
 */
json_t *wire_archive_encode(const struct wire_archive *a);

/* One record of the archive's `actions` (stand_in written only when true); NULL on ENOMEM. */
json_t *wire_archive_action_new(const struct wire_archive_action *x);

/*
 * Reads archive `j` into `out` (overwritten): every field checked for type
 * and range (the game known, seats in range, plies in order), nothing replayed
 * yet. Strings and JSON values borrow from `j`; the actions and events arrays
 * are allocated. Returns WIRE_OK, or WIRE_E_BAD_MESSAGE with a reason in why
 * (then nothing is left to free). An archive without `events` (written before
 * revision 2) reads as one with none.
 */
int wire_archive_decode(const json_t *j, struct wire_archive *out, char *why, size_t whylen);

/* Frees the arrays wire_archive_decode() allocated; safe on a zeroed archive. */
void wire_archive_finish(struct wire_archive *a);

/*
 * Re-derives the match: commit = SHA-256(server_seed), the match seed from
 * the client seeds, the options through the game's table and rules core,
 * then every action and event merged by ply (an event at ply p after action
 * p-1, before action p) through the rules core, every outcome compared as
 * JSON, and the result. Returns 0, or WIRE_E_BAD_MESSAGE with `why` naming
 * the first ply that disagrees ("ply 12: ..."), or -ENOMEM.
 */
int wire_archive_verify(const struct wire_archive *a, char *why, size_t whylen);

/*
 * The same re-derivation one action or event at a time, for a reader that
 * streams a long match from its database rather than holding all of it
 * (server/archive_read.c). Start, then apply the actions and events merged by
 * ply (an event at ply p after action p-1, before action p), then check the
 * result. Each call returns 0, or WIRE_E_BAD_MESSAGE with `why` naming the
 * ply ("ply N: ..."), or -ENOMEM. `match` may be copied and restored (a
 * fixed-size struct): a snapshot of the replay.
 */
struct wire_replay {
	const struct rules_game *game;
	const struct wire_game *codec;
	struct rules_match match;
	char *why; /* borrowed, whylen bytes */
	size_t whylen;
};

/* Checks `a`'s game, seats, commit and options (not its actions or events) and starts the match. */
int wire_replay_start(struct wire_replay *r, const struct wire_archive *a, char *why, size_t whylen);

/* Applies `x` (actions[i], i for messages); *outcome (may be NULL): the recomputed outcome, new ref. */
int wire_replay_action(struct wire_replay *r, const struct wire_archive_action *x, size_t i,
		       json_t **outcome);

/* Applies `e` (events[i]), which must be recorded at the match's current ply. */
int wire_replay_event(struct wire_replay *r, const struct wire_archive_event *e, size_t i);

/* Compares the result reached with `archived` (NULL: none), written to `res`. */
int wire_replay_result(struct wire_replay *r, const json_t *archived, struct rules_result *res);

/* One replayed step: an action (kind 0) or an event, as the rules core computed it. */
struct wire_archive_step {
	int ply; /* the action's ply, or the event's */
	int seat;
	int kind;              /* 0 for an action, else enum rules_event_kind */
	const json_t *action;  /* the archived action (borrowed); NULL for an event */
	const json_t *outcome; /* the recomputed outcome (valid during the call); NULL for an event */
	const struct rules_match *match; /* the match after the step */
};

typedef void (*wire_archive_step_cb)(const struct wire_archive_step *step, void *data);

/*
 * wire_archive_verify() with a callback after every step (`cb` may be NULL)
 * and the result reached written to `result` (may be NULL). Same returns.
 */
int wire_archive_replay(const struct wire_archive *a, wire_archive_step_cb cb, void *data,
			struct rules_result *result, char *why, size_t whylen);

/*
 * The match step by step (GET /api/matches/{id}/replay): replays `a` like
 * wire_archive_verify() and returns the array of steps, the start first, then
 * one after every action and event in order, each {ply, event: {seat, kind} or
 * null, view, to_act, last} as a `state` showed them. New reference; NULL
 * when the archive does not verify (the reason in why, "ply N: ...") or on
 * allocation failure (why empty).
 */
json_t *wire_archive_steps_new(const struct wire_archive *a, char *why, size_t whylen);

/*
 * One step of wire_archive_steps_new() after the match reached `m`:
 * {ply, event, view, to_act, last}; `event_take` (owned on every path) NULL
 * for null, `last` (borrowed) NULL for null. New reference; NULL on ENOMEM.
 */
json_t *wire_archive_step_new(const struct rules_match *m, json_t *event_take, const json_t *last);

/* A step's `last` {seat, action, outcome} and `event` {seat, kind}; new references, NULL on ENOMEM. */
json_t *wire_archive_last_new(int seat, const json_t *action, const json_t *outcome);
json_t *wire_archive_event_new(int seat, int kind);

/* Checks that `s` is 1..max characters of printable UTF-8 (no control chars). */
bool wire_text_valid(const char *s, size_t max_chars);

/* Lowercase hex of in[0..n) into out (2n+1 bytes, NUL-terminated). */
void wire_hex_encode(const uint8_t *in, size_t n, char *out);

/*
 * Decodes exactly 2n hex digits (either case) into out[0..n). Returns 0, or
 * WIRE_E_BAD_MESSAGE for anything else (out[] then partly written).
 */
int wire_hex_decode(const char *s, uint8_t *out, size_t n);

#endif
