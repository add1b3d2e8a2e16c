/*
 * room.c: a room's life (creation, restore, destruction), its members and
 * its frames. The server seed is drawn and committed at creation (protocol.md,
 * Randomness). Every change is serialised once: the spectators' frame and
 * one frame per seat to act (with its `legal`), shared by all the
 * recipients' write queues through host->send. A seat's legal list is kept
 * with its bytes (struct room_seat_legal) and what stays legal is copied,
 * not encoded again. Nothing here calls the code
 * that changes a match (room_play.c); that code calls this.
 *
 * Invariants: the cached frames are NULL or match the current state; a
 * member is in both its room's list and its follower's list, or in neither.
 */
#include "room/room_int.h"

#include <assert.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bots.h"
#include "room/state_out.h"
#include "store/store.h"
#include "base/util.h"

static struct rules_action legal_buf[RULES_MAX_LEGAL]; /* loop thread only */

static void summary_clear(struct room *r)
{
	free(r->summary);
	r->summary = NULL;
}

static void cache_clear(struct room *r)
{
	int i;

	summary_clear(r);
	buf_unref(r->cache_all);
	r->cache_all = NULL;
	for (i = 0; i < RULES_MAX_SEATS; i++) {
		buf_unref(r->cache_seat[i]);
		r->cache_seat[i] = NULL;
		r->seat_legal[i].valid = false; /* its bytes stay for the next change to reuse */
	}
}

static void seat_legal_free(struct room *r)
{
	int i;

	for (i = 0; i < RULES_MAX_SEATS; i++) {
		free(r->seat_legal[i].actions);
		free(r->seat_legal[i].spans);
		free(r->seat_legal[i].text);
	}
	memset(r->seat_legal, 0, sizeof(r->seat_legal));
}

/* The game's compact form of {"roll":true}, decoded once per room (autoroll compares with it). */
static bool decode_roll(const struct wire_game *codec, struct rules_action *out)
{
	json_t *j = json_pack("{s:b}", "roll", 1);
	bool ok;

	memset(out, 0, sizeof(*out));
	ok = j && !codec->action_decode(j, out);
	json_decref(j);
	return ok;
}

/* A room in the waiting state with its preview match. 0, ROOM_E_BAD_OPTIONS, -EIO or -ENOMEM. */
static int room_alloc(const struct room_host *host, const struct rules_game *g, const struct wire_game *codec,
		      const struct wire_room_options *ropt, const struct rules_options *gopt,
		      struct room **out)
{
	static const uint8_t zero_seed[RULES_SEED_SIZE];
	struct room *r = calloc(1, sizeof(*r));
	int err;

	if (!r)
		return -ENOMEM;
	r->host = host;
	r->game = g;
	r->codec = codec;
	r->ropt = *ropt;
	r->gopt = *gopt;
	r->has_roll = decode_roll(codec, &r->roll);
	if (rules_match_start(&r->match, g, zero_seed, gopt)) { /* the preview checks the options */
		free(r);
		return ROOM_E_BAD_OPTIONS;
	}
	err = util_seed_random(&r->bot_rng, sizeof(r->bot_rng), "bot_rng");
	if (err) {
		free(r);
		return err;
	}
	r->bot_rng |= 1;
	/* protocol.md: greedy where the game has it, else random; room_new() refused a level the game
	 * lacks, a restore of one this build lacks plays random */
	r->stand_in_strategy = bot_find(g->id, *ropt->stand_in_level ? ropt->stand_in_level : "greedy");
	if (!r->stand_in_strategy)
		r->stand_in_strategy = &bot_random;
	r->created_at = r->idle_since = util_now_ms();
	*out = r;
	return 0;
}

static void room_closed_cb(uv_handle_t *h);

/* The commit and the timer, once the seed is known. 0 or a libuv error (then r is freed). */
static int room_arm(struct room *r)
{
	uint8_t commit[RULES_SHA256_SIZE];
	int err;

	rules_sha256(r->server_seed, sizeof(r->server_seed), commit);
	wire_hex_encode(commit, sizeof(commit), r->commit);
	wire_hex_encode(r->server_seed, sizeof(r->server_seed), r->server_seed_hex);
	err = uv_timer_init(r->host->loop, &r->bot_timer);
	if (err) {
		free(r);
		return err;
	}
	r->bot_timer.data = r;
	err = uv_timer_init(r->host->loop, &r->clock_timer);
	if (err) { /* the bot timer is open: it frees the room once closed */
		r->open_handles = 1;
		r->dead = true;
		uv_close((uv_handle_t *)&r->bot_timer, room_closed_cb);
		return err;
	}
	r->clock_timer.data = r;
	r->open_handles = 2;
	return 0;
}

int room_new(const struct room_host *host, const char *id, const char *creator, const struct rules_game *g,
	     const struct wire_game *codec, const struct wire_room_options *ropt,
	     const struct rules_options *gopt, struct room **out)
{
	struct room *r;
	char *opts;
	int err;

	if (*ropt->stand_in_level && !bot_find(g->id, ropt->stand_in_level))
		return ROOM_E_BAD_OPTIONS; /* a stand-in level this game lacks */
	err = room_alloc(host, g, codec, ropt, gopt, &r);
	if (err)
		return err;
	snprintf(r->id, sizeof(r->id), "%s", id);
	snprintf(r->creator, sizeof(r->creator), "%s", creator ? creator : "");
	err = util_seed_random(r->server_seed, sizeof(r->server_seed), "server_seed");
	if (err) {
		free(r);
		return err;
	}
	err = room_arm(r);
	if (err)
		return err;
	opts = util_json_text(wire_options_encode(codec, ropt, gopt, false));
	store_live_room(host->store, r->id, g->id, opts ? opts : "{}", r->server_seed_hex,
			*r->creator ? r->creator : NULL, r->created_at);
	free(opts);
	*out = r;
	return 0;
}

int room_restore(const struct room_host *host, const char *id, const char *game, const char *options,
		 const char *seed_hex, const char *creator, int64_t created_at, int64_t started_at,
		 struct room **out)
{
	const struct rules_game *g = rules_game_find(game);
	const struct wire_game *codec = wire_game_find(game);
	struct wire_room_options ropt;
	struct rules_options gopt;
	json_t *opts = json_loads(options, 0, NULL);
	struct room *r = NULL;
	char why[160];

	if (g && codec && opts && strlen(id) <= WIRE_ROOM_ID_MAX &&
	    !wire_options_decode(codec, opts, &ropt, &gopt, why, sizeof(why)))
		room_alloc(host, g, codec, &ropt, &gopt, &r);
	json_decref(opts);
	if (!r)
		return -EINVAL;
	snprintf(r->id, sizeof(r->id), "%s", id);
	r->created_at = created_at;
	r->started_at = started_at; /* the clocks start from the journalled start */
	snprintf(r->creator, sizeof(r->creator), "%s", creator ? creator : "");
	r->restoring = true; /* no journal writes, no archive, until room_restore_finish() */
	if (wire_hex_decode(seed_hex, r->server_seed, sizeof(r->server_seed))) {
		free(r);
		return -EINVAL;
	}
	if (room_arm(r))
		return -ENOMEM;
	*out = r;
	return 0;
}

/* Forgets the recent states (a finished room keeps only its current one). */
static void recent_clear(struct room *r)
{
	int i;

	for (i = 0; i < ROOM_RECENT; i++) {
		buf_unref(r->recent[i]);
		r->recent[i] = NULL;
	}
}

static void room_free(struct room *r)
{
	cache_clear(r);
	seat_legal_free(r);
	recent_clear(r);
	room_log_release(r);
	free(r->options_state);
	free(r);
}

static void room_closed_cb(uv_handle_t *h)
{
	struct room *r = h->data;

	if (--r->open_handles == 0)
		room_free(r);
}

void room_destroy(struct room *r)
{
	int i;

	if (r->dead)
		return;
	r->dead = true;
	if (r->bot_job) { /* a worker thinks for it: its answer will find no room */
		room_bot_cancel(r);
		r->bot_job->room = NULL;
		r->bot_job = NULL;
	}
	while (r->members)
		room_member_del(r, r->members->list);
	for (i = 0; i < r->game->seats; i++)
		if (r->seats[i].player)
			player_del_room(r->seats[i].player, r);
	if (r->status != ROOM_FINISHED && !r->host->stopping && !r->restoring)
		store_live_drop(r->host->store, r->id); /* abandoned; a finished one is archived */
	if (r->after_journalled && !r->host->stopping && !r->restoring)
		store_live_after_drop(r->host->store, r->id); /* its mutes and rematch offer go with it */
	uv_close((uv_handle_t *)&r->bot_timer, room_closed_cb);
	uv_close((uv_handle_t *)&r->clock_timer, room_closed_cb);
}

void room_destroy_kept(struct room *r)
{
	r->restoring = true; /* room_destroy() leaves the store alone */
	room_destroy(r);
}

bool room_expired(const struct room *r, int64_t now)
{
	const struct config *c = r->host->cfg;

	if (r->status == ROOM_FINISHED)
		return now - r->ended_at > (int64_t)c->finished_room_ttl_s * 1000;
	return r->status == ROOM_WAITING && !r->nmembers &&
	       now - r->idle_since > (int64_t)c->idle_room_ttl_s * 1000;
}

/* --- reading a room ------------------------------------------------------ */

const char *room_strerror(int code)
{
	static const char *const text[] = {
		[-1300 - ROOM_E_ROOM_FULL] = "every seat is taken or the match has started",
		[-1300 - ROOM_E_SEAT_TAKEN] = "that seat is taken",
		[-1300 - ROOM_E_BAD_SEAT] = "this game has no such seat",
		[-1300 - ROOM_E_ALREADY_SEATED] = "you already hold a seat in this room",
		[-1300 - ROOM_E_NOT_IN_ROOM] = "you hold no seat in this room",
		[-1300 - ROOM_E_NOT_STARTED] = "the match has not started",
		[-1300 - ROOM_E_GAME_OVER] = "the match is over, or your seat is out of play",
		[-1300 - ROOM_E_STALE_PLY] = "ply is not the room's current ply",
		[-1300 - ROOM_E_NOT_YOUR_TURN] = "it is not your turn",
		[-1300 - ROOM_E_ILLEGAL] = "not one of your legal actions now",
		[-1300 - ROOM_E_BAD_OPTIONS] = "options out of range for this game",
		[-1300 - ROOM_E_NO_REMATCH] = "no rematch: not over, rematched, or no offer",
	};
	int k = -1300 - code;

	if (k >= 0 && k < (int)(sizeof(text) / sizeof(text[0])) && text[k])
		return text[k];
	return code < 0 && code > -1000 ? strerror(-code) : "unknown error";
}

const char *room_id(const struct room *r)
{
	return r->id;
}

const struct rules_game *room_game(const struct room *r)
{
	return r->game;
}

const struct wire_game *room_codec(const struct room *r)
{
	return r->codec;
}

const struct wire_room_options *room_wire_options(const struct room *r)
{
	return &r->ropt;
}

const struct rules_options *room_rules_options(const struct room *r)
{
	return &r->gopt;
}

enum room_status room_status(const struct room *r)
{
	return r->status;
}

bool room_rated(const struct room *r)
{
	return r->rated;
}

void room_set_rated(struct room *r)
{
	if (r->rated)
		return;
	r->rated = true;
	cache_clear(r); /* its summary and state say so now */
	if (!r->restoring)
		store_live_rated(r->host->store, r->id);
}

void room_seats_restyled(struct room *r)
{
	cache_clear(r);
}

const char *room_creator(const struct room *r)
{
	return r->creator;
}

int64_t room_created_at(const struct room *r)
{
	return r->created_at;
}

int64_t room_last_at(const struct room *r)
{
	return r->nlog ? r->log[r->nlog - 1].at : r->started_at ? r->started_at : r->created_at;
}

int64_t room_absent_since(const struct room *r)
{
	return r->absent_since;
}

void room_set_absent_since(struct room *r, int64_t at)
{
	r->absent_since = at;
}

bool room_seat_taken(const struct room *r, int seat)
{
	return r->seats[seat].taken;
}

struct player *room_seat_player(const struct room *r, int seat)
{
	return r->seats[seat].player;
}

const struct bot_strategy *room_seat_bot(const struct room *r, int seat)
{
	return r->seats[seat].bot ? r->seats[seat].strategy : NULL;
}

unsigned room_mutes(const struct room *r, int seat)
{
	return r->mutes[seat];
}

struct room_host_data *room_host_data(struct room *r)
{
	return &r->host_data;
}

/* --- members ------------------------------------------------------------- */

static struct member *member_find(const struct room *r, const struct member *list)
{
	for (; list; list = list->who_next)
		if (list->r == r)
			return (struct member *)list;
	return NULL;
}

bool room_is_member(const struct room *r, const struct member *list)
{
	return member_find(r, list) != NULL;
}

int room_member_add(struct room *r, struct member **list, void *who, struct player *p)
{
	struct member *m;

	if (member_find(r, *list))
		return 0;
	m = calloc(1, sizeof(*m));
	if (!m)
		return -ENOMEM;
	m->who = who;
	m->player = p;
	m->r = r;
	m->list = list;
	m->room_next = r->members;
	if (r->members)
		r->members->room_prev = m;
	r->members = m;
	m->who_next = *list;
	*list = m;
	r->nmembers++;
	summary_clear(r); /* its watchers */
	return 0;
}

void room_member_del(struct room *r, struct member **list)
{
	struct member **pp, *m = NULL;
	bool spectator;

	for (pp = list; *pp; pp = &(*pp)->who_next)
		if ((*pp)->r == r) {
			m = *pp;
			*pp = m->who_next;
			break;
		}
	if (!m)
		return;
	spectator = room_seat_of(r, m->player) < 0;
	if (m->room_prev)
		m->room_prev->room_next = m->room_next;
	else
		r->members = m->room_next;
	if (m->room_next)
		m->room_next->room_prev = m->room_prev;
	r->nmembers--;
	assert(r->nmembers >= 0);
	if (!r->nmembers)
		r->idle_since = util_now_ms();
	free(m);
	summary_clear(r);
	if (spectator && !r->dead)
		room_spectators_changed(r); /* state.spectators; the summary's watchers */
	else
		r->host->changed(r->host->ctx); /* the summary's watchers */
}

struct member *room_members(const struct room *r)
{
	return r->members;
}

struct member *room_member_next(const struct member *m)
{
	return m->room_next;
}

void *room_member_who(const struct member *m)
{
	return m->who;
}

struct player *room_member_player(const struct member *m)
{
	return m->player;
}

struct member **room_member_list(const struct member *m)
{
	return m->list;
}

struct room *room_member_room(const struct member *m)
{
	return m->r;
}

int room_seat_of(const struct room *r, const struct player *p)
{
	int i;

	if (!p)
		return -1;
	for (i = 0; i < r->game->seats; i++)
		if (r->seats[i].player == p)
			return i;
	return -1;
}

/* --- frames -------------------------------------------------------------- */

static const char *status_name(enum room_status s)
{
	return s == ROOM_WAITING ? "waiting" : s == ROOM_PLAYING ? "playing" : "finished";
}

/* Followers without a seat in the room (one per connection). */
static int room_spectators(const struct room *r)
{
	const struct member *m;
	int n = 0;

	for (m = r->members; m; m = m->room_next)
		if (room_seat_of(r, m->player) < 0)
			n++;
	return n;
}

static void wire_room_fill(const struct room *r, struct wire_room *w)
{
	int i;

	memset(w, 0, sizeof(*w));
	w->id = r->id;
	w->game = r->game;
	w->codec = r->codec;
	w->status = status_name(r->status);
	w->match = &r->match;
	for (i = 0; i < r->game->seats; i++) {
		const struct room_seat *st = &r->seats[i];

		w->seats[i].name = st->player ? player_name(st->player) : st->bot ? st->bot_name : NULL;
		w->seats[i].bot = st->bot ? st->strategy->level : NULL;
		w->seats[i].connected = st->bot || player_connected(st->player);
		w->seats[i].stand_in = st->stand_in;
		w->seats[i].has_clock = room_has_clock(r) && r->status != ROOM_WAITING;
		w->seats[i].clock_ms = r->clock_left[i];
		w->seats[i].clock_since = r->clock_since[i];
		if (st->player && player_handle(st->player)) { /* an account's seat shows its rating */
			double rating = RATING_INIT.rating, rd = RATING_INIT.rd;

			(void)player_rating(st->player, r->game->id, &rating, &rd);
			w->seats[i].handle = player_handle(st->player);
			w->seats[i].rating = (int32_t)lround(rating);
			w->seats[i].provisional = rd > RATING_PROVISIONAL_RD;
		}
	}
	w->rated = r->rated;
	w->room_options = &r->ropt;
	w->rules_options = &r->gopt;
	w->has_last = r->has_last;
	w->last_seat = r->last_seat;
	w->last_action = r->last_action;
	w->last_outcome = r->last_outcome;
	w->commit = r->commit;
	w->created_at = r->created_at;
	w->spectators = room_spectators(r);
	if (r->rematch) {
		static const char *const names[] = { NULL, "offered", "declined", "expired", "accepted" };

		w->rematch_status = names[r->rematch];
		w->rematch_by = r->rematch_by;
		w->rematch_accepted = r->rematch_accepted;
		w->rematch_expires_at = r->rematch_expires_at;
		w->rematch_room = *r->rematch_room ? r->rematch_room : NULL;
	}
	if (r->status == ROOM_FINISHED) {
		w->server_seed = r->server_seed_hex;
		for (i = 0; i < r->game->seats; i++)
			w->client_seeds[i] = r->seats[i].has_seed ? r->seats[i].client_seed : "";
	}
}

json_t *room_summary(const struct room *r)
{
	struct wire_room w;

	wire_room_fill(r, &w);
	w.watchers = w.spectators;
	return wire_room_summary_new(&w);
}

const char *room_summary_text(struct room *r, size_t *len)
{
	if (!r->summary) {
		r->summary = util_json_text(room_summary(r));
		r->summary_len = r->summary ? strlen(r->summary) : 0;
	}
	*len = r->summary_len;
	return r->summary;
}

bool room_human_connected(const struct room *r)
{
	int i;

	for (i = 0; i < r->game->seats; i++)
		if (player_connected(r->seats[i].player))
			return true;
	return false;
}

bool room_autorolls(const struct room *r, const struct rules_action *legal, int n)
{
	return r->ropt.autoroll && r->has_roll && n == 1 && rules_action_equal(&legal[0], &r->roll);
}

/* Grows a seat's arrays to hold n actions and `len` bytes of text. 0 or -ENOMEM. */
static int seat_legal_reserve(struct room_seat_legal *sl, int n, size_t len)
{
	if (n > sl->cap) {
		int cap = n < 16 ? 16 : n > RULES_MAX_LEGAL / 2 ? RULES_MAX_LEGAL : 2 * n;
		struct rules_action *a = realloc(sl->actions, (size_t)cap * sizeof(*a));
		struct room_legal_span *sp;

		if (!a)
			return -ENOMEM;
		sl->actions = a;
		sp = realloc(sl->spans, (size_t)cap * sizeof(*sp));
		if (!sp)
			return -ENOMEM;
		sl->spans = sp;
		sl->cap = cap;
	}
	if (len > sl->text_cap) { /* doubled: the lists' lengths wander, one realloc each would follow them */
		size_t cap = len < 256 ? 256 : 2 * len;
		char *t = realloc(sl->text, cap);

		if (!t)
			return -ENOMEM;
		sl->text = t;
		sl->text_cap = cap;
	}
	return 0;
}

/*
 * The previous list's actions by value, to find an action that stays legal:
 * open addressing over indices into it (loop thread only). Quinteto's actions
 * cost ~1,600 instructions each to write (a plan list of ~70, ~100k). Much of
 * a list survives a re-broadcast (a spectator, a connection: the list is
 * equal and spliced whole), a roll-off and the arranger's next choice; a new
 * turn's plans rarely do (other dice), so legal_write() stops looking when
 * the first 8 actions were all new.
 */
#define LEGAL_HASH_SLOTS (2 * RULES_MAX_LEGAL)
static int16_t legal_hash[LEGAL_HASH_SLOTS];

static unsigned action_hash(const struct rules_action *a)
{
	uint64_t w[3] = { 0, 0, 0 };

	memcpy(w, a, sizeof(*a) < sizeof(w) ? sizeof(*a) : sizeof(w));
	return (unsigned)(((w[0] * 0x9e3779b97f4a7c15ull) ^ (w[1] * 0xc2b2ae3d27d4eb4full) ^ w[2]) >> 40);
}

/* Indexes the n previous actions in a table of `mask` + 1 slots. */
static void legal_hash_build(const struct rules_action *a, int n, unsigned mask)
{
	int i;

	memset(legal_hash, 0xff, (mask + 1) * sizeof(legal_hash[0]));
	for (i = 0; i < n; i++) {
		unsigned h = action_hash(&a[i]) & mask;

		while (legal_hash[h] >= 0)
			h = (h + 1) & mask;
		legal_hash[h] = (int16_t)i;
	}
}

static int legal_hash_find(const struct rules_action *old, const struct rules_action *a, unsigned mask)
{
	unsigned h = action_hash(a) & mask;

	for (; legal_hash[h] >= 0; h = (h + 1) & mask)
		if (rules_action_equal(&old[legal_hash[h]], a))
			return legal_hash[h];
	return -1;
}

/*
 * Writes `legal` for the k actions a[] into *out: "[" the actions "]", each
 * action's bytes copied from the seat's previous list when it was there (an
 * action's encoding depends on the action alone), else encoded. starts[i] and
 * lens[i]: where action i's bytes went in *out. The same bytes as
 * wire_legal_out(out, codec, a, k) (room_seat_frame_plain() is that).
 */
static int legal_write(struct room *r, const struct room_seat_legal *prev, const struct rules_action *a,
		       int k, struct json_out *out, struct room_legal_span *pos)
{
	static const struct room_seat_legal none;
	unsigned mask = 0;
	int i, j, hint = 0;
	bool hashed = false;

	if (prev->n > 0) {
		while (mask + 1 < 2 * (unsigned)prev->n)
			mask = 2 * mask + 1;
	}
	if (json_out_bytes(out, "[", 1))
		return -ENOMEM;
	for (i = 0; i < k; i++) {
		size_t start;

		if (i && json_out_bytes(out, ",", 1))
			return -ENOMEM;
		start = out->len;
		j = -1;
		if (i == 8 && hint == 0)
			prev = &none; /* nothing of the first 8 was there: a new turn's list, encode it all */
		if (prev->n > 0) {    /* the lists come in the rules core's order: try the next one first */
			if (hint < prev->n && rules_action_equal(&prev->actions[hint], &a[i])) {
				j = hint;
			} else {
				if (!hashed) {
					legal_hash_build(prev->actions, prev->n, mask);
					hashed = true;
				}
				j = legal_hash_find(prev->actions, &a[i], mask);
			}
		}
		if (j >= 0) {
			const struct room_legal_span *sp = &prev->spans[j];

			if (json_out_bytes(out, prev->text + (sp->off - prev->at), sp->len))
				return -ENOMEM;
			hint = j + 1;
		} else if (wire_action_out(out, r->codec, &a[i])) {
			return -ENOMEM;
		}
		pos[i].off = (uint32_t)start;
		pos[i].len = (uint32_t)(out->len - start);
	}
	return json_out_bytes(out, "]", 1);
}

/*
 * The frame of a seat to act: the spectators' frame with its `legal` value
 * (`[]` at offset `at`) replaced by the seat's actions, the rest not encoded
 * again; the seat's legal list (r->seat_legal[seat]) records them and their
 * bytes' places. NULL when it has nothing to choose.
 */
static struct buf *seat_frame(struct room *r, const struct buf *all, size_t at, int seat)
{
	static struct json_out legal;                       /* grows, never shrinks; loop thread only */
	static struct room_legal_span pos[RULES_MAX_LEGAL]; /* offsets in `legal` */
	struct room_seat_legal *sl = &r->seat_legal[seat];
	int k = rules_legal_actions(&r->match, seat, legal_buf, RULES_MAX_LEGAL), i;
	struct buf *b;

	assert(k <= RULES_MAX_LEGAL);
	if (room_autorolls(r, legal_buf, k))
		return NULL; /* the server rolls for it at once: nothing to choose */
	legal.len = 0;
	if (sl->n == k && k > 0 && sl->text_len &&
	    !memcmp(sl->actions, legal_buf, (size_t)k * sizeof(*legal_buf))) {
		b = buf_splice_bytes(all, at, 2, sl->text, sl->text_len); /* the same list: the same bytes */
		if (!b)
			return NULL;
		for (i = 0; i < k; i++)
			sl->spans[i].off = (uint32_t)(sl->spans[i].off - sl->at + at);
		sl->at = at;
		sl->valid = true;
		return b;
	}
	if (legal_write(r, sl, legal_buf, k, &legal, pos) || seat_legal_reserve(sl, k, legal.len) ||
	    legal.len > UINT32_MAX - at)
		goto fail;
	b = buf_splice_bytes(all, at, 2, legal.p, legal.len);
	if (!b)
		goto fail;
	memcpy(sl->actions, legal_buf, (size_t)k * sizeof(*legal_buf));
	for (i = 0; i < k; i++)
		sl->spans[i] = (struct room_legal_span){ (uint32_t)(at + pos[i].off), pos[i].len };
	memcpy(sl->text, legal.p, legal.len);
	sl->text_len = legal.len;
	sl->n = k;
	sl->at = at;
	sl->valid = true;
	return b;
fail:
	sl->n = 0; /* the previous list may be half overwritten: forget it */
	sl->text_len = 0;
	return NULL;
}

/* Builds the shared frames of the current state if they are not cached. */
static void cache_build(struct room *r)
{
	static struct json_out out; /* grows, never shrinks; loop thread only */
	struct wire_room w;
	uint8_t to_act[RULES_MAX_SEATS];
	size_t at;
	int i, n = 0;

	if (r->cache_all)
		return;
	wire_room_fill(r, &w);
	out.len = 0;
	if (!r->options_state) {
		struct wire_room_options shown = r->ropt; /* what applies: the idle limit filled in */

		shown.idle_set = true;
		shown.idle_after_ms = (int32_t)room_idle_limit_ms(r);
		w.room_options = &shown;
		if (state_out_options(&out, &w))
			return;
		w.room_options = &r->ropt;
		r->options_state = malloc(out.len);
		if (!r->options_state)
			return;
		memcpy(r->options_state, out.p, out.len);
		r->options_state_len = out.len;
		out.len = 0;
	}
	if (state_out(&out, &w, r->options_state, r->options_state_len, &at))
		return;
	r->cache_all = buf_from_bytes(out.p, out.len);
	if (!r->cache_all)
		return;
	/* state_out() always writes "legal":[] for spectators */
	assert(at < r->cache_all->len && memcmp(r->cache_all->data + at, "[]", 2) == 0);
	r->cache_legal_at = at;
	if (r->status == ROOM_PLAYING)
		n = rules_to_act(&r->match, to_act);
	else if (r->status == ROOM_FINISHED)
		seat_legal_free(r); /* no list any more: a finished room lives on for a while without them */
	for (i = 0; i < n; i++)
		if (r->seats[to_act[i]].player) /* bots read the rules core directly */
			r->cache_seat[to_act[i]] = seat_frame(r, r->cache_all, at, to_act[i]);
}

const struct room_seat_legal *room_seat_legal(struct room *r, int seat)
{
	if (seat < 0 || seat >= r->game->seats)
		return NULL;
	cache_build(r);
	return r->cache_seat[seat] && r->seat_legal[seat].valid ? &r->seat_legal[seat] : NULL;
}

int room_legal_find(const struct room *r, int seat, const char *text, size_t len)
{
	const struct room_seat_legal *sl = &r->seat_legal[seat];
	const struct buf *frame = r->cache_seat[seat];
	int i;

	if (!frame || !sl->valid)
		return -1;
	for (i = 0; i < sl->n; i++)
		if (sl->spans[i].len == len && !memcmp(frame->data + sl->spans[i].off, text, len))
			return i;
	return -1;
}

struct buf *room_seat_frame_plain(struct room *r, int seat)
{
	struct json_out legal = { 0 };
	struct buf *b = NULL;
	int k;

	if (seat < 0 || seat >= r->game->seats || !r->seats[seat].player || r->status != ROOM_PLAYING ||
	    !rules_seat_to_act(&r->match, seat))
		return NULL;
	cache_build(r);
	if (!r->cache_all)
		return NULL;
	k = rules_legal_actions(&r->match, seat, legal_buf, RULES_MAX_LEGAL);
	if (!room_autorolls(r, legal_buf, k) && !wire_legal_out(&legal, r->codec, legal_buf, k))
		b = buf_splice_bytes(r->cache_all, r->cache_legal_at, 2, legal.p, legal.len);
	json_out_free(&legal);
	return b;
}

struct buf *room_state_for(struct room *r, const struct player *p)
{
	int seat = room_seat_of(r, p);

	cache_build(r);
	if (seat >= 0 && r->cache_seat[seat])
		return r->cache_seat[seat];
	return r->cache_all;
}

/* True when a person holds a seat: someone who may come back and ask for what they missed. */
static bool has_person(const struct room *r)
{
	int i;

	for (i = 0; i < r->game->seats; i++)
		if (r->seats[i].player)
			return true;
	return false;
}

/*
 * Keeps the spectators' frame of the current ply (the latest one sent at that
 * ply) while playing. A room nobody follows and where only bots sit keeps
 * none: nobody could ask, and it would encode a frame per action for nobody.
 */
static void recent_keep(struct room *r)
{
	int64_t ply = (int64_t)r->match.ply;
	int k = (int)(ply % ROOM_RECENT);

	if (r->status != ROOM_PLAYING || (!r->members && !has_person(r))) {
		recent_clear(r);
		return;
	}
	cache_build(r);
	if (!r->cache_all || r->recent[k] == r->cache_all)
		return;
	buf_unref(r->recent[k]);
	r->recent[k] = buf_ref(r->cache_all);
	r->recent_ply[k] = ply;
}

void room_send_missed(struct room *r, void *who, int64_t since)
{
	int64_t ply = (int64_t)r->match.ply, k;

	if (since < 0 || since >= ply || r->status != ROOM_PLAYING || ply - since - 1 >= ROOM_RECENT)
		return; /* nothing missed but the current state, or not kept: the current state says all */
	for (k = since + 1; k < ply; k++)
		if (!r->recent[k % ROOM_RECENT] || r->recent_ply[k % ROOM_RECENT] != k)
			return;
	for (k = since + 1; k < ply; k++)
		r->host->send(who, r->recent[k % ROOM_RECENT]);
}

void room_broadcast(struct room *r)
{
	struct member *m, *next;

	r->spectators_due = false; /* this state has the count */
	cache_clear(r);
	recent_keep(r);
	for (m = r->members; m; m = next) {
		struct buf *b = room_state_for(r, m->player);

		next = m->room_next; /* a send may drop a slow connection, not its membership */
		if (b)
			r->host->send(m->who, b);
	}
}

void room_spectators_changed(struct room *r)
{
	if (r->dead)
		return;
	if (!r->host->spectators) {
		room_broadcast(r);
	} else {
		cache_clear(r); /* whoever is sent the state next sees the new count */
		r->spectators_epoch++;
		if (!r->spectators_due) {
			r->spectators_due = true;
			r->host->spectators(r->host->ctx, r);
		}
	}
	r->host->changed(r->host->ctx);
}

void room_spectators_flush(struct room *r)
{
	struct member *m, *next;

	if (!r->spectators_due || r->dead)
		return;
	r->spectators_due = false;
	recent_keep(r); /* the cache was cleared at the change: this builds the state with the count */
	for (m = r->members; m; m = next) {
		struct buf *b;

		next = m->room_next;
		if (m->seen_spectators == r->spectators_epoch)
			continue; /* a new spectator sent this very state already */
		if ((b = room_state_for(r, m->player)))
			r->host->send(m->who, b);
	}
}

void room_send_current(struct room *r, const struct member *list)
{
	struct member *m = member_find(r, list);
	struct buf *b;

	if (!r->host->spectators || !m || !(b = room_state_for(r, m->player)))
		return; /* without the host's coalescing, room_spectators_changed() sent it to every member */
	r->host->send(m->who, b);
	m->seen_spectators = r->spectators_epoch;
}

void room_connected_changed(struct room *r)
{
	bool someone = room_human_connected(r);

	if (someone)
		r->absent_since = 0;
	else if (!r->absent_since)
		r->absent_since = util_now_ms();
	room_absence_sync(r, util_now_ms());
	room_broadcast(r);
	r->host->changed(r->host->ctx);
}
