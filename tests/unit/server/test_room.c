/*
 * test_room.c: the room's lifecycle and rules of play, against the real
 * store (a temporary SQLite file) and the test-only game of duo.h: seats and
 * their errors, add_bot's permission, the ply exception for seats acting at
 * once, events in the log, and the room untouched by every refusal; an act
 * given as text (room_act_text, the scanned frame's path) does exactly what
 * the same act given as a tree does. And over random Quinteto matches (six
 * seats, roll-offs, ~70 plans): each seat's frame as the room caches it (its
 * legal bytes reused from the seat's last list) equals the frame built the
 * general way, byte for byte, and the seat's legal table (room_seat_legal)
 * names exactly its actions and their bytes.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "config.h"
#include "duo.h"
#include "json_out.h"
#include "bots.h"
#include "room/room_int.h" /* the room's own test: it checks its invariants */
#include "store/store.h"
#include "tap.h"
#include "base/util.h"

static uv_loop_t loop;
static struct store *store;
static struct config cfg;
static struct metrics metrics;
static int frames_sent, changes;

static void send_cb(void *who, struct buf *b)
{
	frames_sent++;
}
static void changed_cb(void *ctx)
{
	changes++;
}

static struct room_host host = { &loop,      NULL, &cfg, &metrics, false, send_cb,
				 changed_cb, NULL, NULL, NULL,     NULL };
static struct player *alice, *bob, *carol;
static struct player *six[RULES_MAX_SEATS];

static struct room *duo_room(const char *id, const struct player *creator)
{
	struct wire_room_options ropt = { 0 };
	struct rules_options gopt = { 0 };
	struct room *r = NULL;

	if (room_new(&host, id, player_id(creator), &duo_game, &duo_codec, &ropt, &gopt, &r))
		return NULL;
	return r;
}

static json_t *pick(int n)
{
	return json_pack("{s:i}", "pick", n);
}

/* room_act with a fresh action; checks that a refusal left the match as it was. */
static int act(struct room *r, struct player *p, int64_t ply, int n)
{
	struct rules_match before = r->match;
	size_t nlog = r->nlog;
	json_t *a = pick(n);
	int err = room_act(r, p, ply, a);

	json_decref(a);
	if (err) {
		CHECK(!memcmp(&before, &r->match, sizeof(before)));
		CHECK_EQ(r->nlog, nlog);
	}
	CHECK_EQ(r->match.ply, r->nactions);
	return err;
}

static void test_seats(void)
{
	struct room *r = duo_room("seats", alice);
	int seat = -1;

	REQUIRE(r);
	CHECK_EQ(room_join(r, alice, 2, NULL, &seat), ROOM_E_BAD_SEAT);
	CHECK_EQ(room_join(r, alice, 1, "s", &seat), 0);
	CHECK_EQ(seat, 1);
	CHECK_EQ(room_join(r, alice, 0, NULL, &seat), ROOM_E_ALREADY_SEATED);
	CHECK_EQ(room_join(r, bob, 1, NULL, &seat), ROOM_E_SEAT_TAKEN);
	CHECK_EQ(room_add_bot(r, carol, -1, &bot_random, &seat),
		 ROOM_E_NOT_IN_ROOM); /* neither creator nor seated */
	CHECK_EQ(r->status, ROOM_WAITING);
	CHECK_EQ(room_join(r, bob, -1, NULL, &seat), 0);
	CHECK_EQ(seat, 0);
	CHECK_EQ(r->status, ROOM_PLAYING);
	CHECK_EQ(room_join(r, carol, -1, NULL, &seat), ROOM_E_ROOM_FULL);
	CHECK_EQ(room_join(r, carol, 0, NULL, &seat), ROOM_E_SEAT_TAKEN);
	room_destroy(r);
}

static void test_add_bot_permission(void)
{
	struct room *r = duo_room("bots", alice);
	int seat = -1;

	REQUIRE(r);
	CHECK_EQ(room_add_bot(r, bob, 0, &bot_random, &seat), ROOM_E_NOT_IN_ROOM);
	CHECK(!r->seats[0].taken);
	CHECK_EQ(room_add_bot(r, alice, 0, &bot_random, &seat), 0); /* the creator, not seated */
	CHECK(r->seats[0].bot);
	CHECK_EQ(room_join(r, bob, 1, NULL, &seat), 0);
	room_destroy(r);
	r = duo_room("bots2", alice);
	REQUIRE(r);
	CHECK_EQ(room_join(r, bob, 1, NULL, &seat), 0);
	CHECK_EQ(room_add_bot(r, bob, -1, &bot_random, &seat), 0); /* a seated player */
	CHECK_EQ(seat, 0);
	room_destroy(r);
}

/*
 * Two seats to act at ply 0: the second may send the ply it saw; nobody's own
 * resend is accepted, nor (r3) an older ply at which the sender was not to act.
 */
static void test_ply_exception(void)
{
	struct room *r = duo_room("plies", alice);
	int seat;

	REQUIRE(r);
	REQUIRE(!room_join(r, alice, 0, NULL, &seat) && !room_join(r, bob, 1, NULL, &seat));
	CHECK_EQ(act(r, alice, 0, 1), 0);
	CHECK_EQ(act(r, alice, 0, 1), ROOM_E_STALE_PLY);     /* her own second click */
	CHECK_EQ(act(r, alice, 1, 1), ROOM_E_NOT_YOUR_TURN); /* the current ply, but she picked */
	CHECK_EQ(act(r, bob, 0, 2), 0);                      /* older: only seat 0 acted since */
	CHECK_EQ(r->match.ply, 2);                           /* round 2: both to act again */
	CHECK_EQ(act(r, bob, 0, 2), ROOM_E_STALE_PLY);       /* he acted since ply 0 */
	CHECK_EQ(act(r, bob, 1, 2), ROOM_E_STALE_PLY);       /* and at ply 1 itself */
	/* (r3) only Bob's pick since ply 1, but at ply 1 only he was to act */
	CHECK_EQ(act(r, alice, 1, 0), ROOM_E_STALE_PLY);
	CHECK_EQ(act(r, alice, 2, 0), 0);
	CHECK_EQ(act(r, bob, 5, 0), ROOM_E_STALE_PLY); /* a future ply */
	CHECK_EQ(act(r, bob, -1, 0), ROOM_E_STALE_PLY);
	CHECK_EQ(act(r, bob, 2, 7), ROOM_E_ILLEGAL); /* not an action of this game */
	CHECK_EQ(act(r, carol, 3, 0), ROOM_E_NOT_IN_ROOM);
	CHECK_EQ(act(r, bob, 2, 0), 0);
	CHECK_EQ(r->nactions, 4);
	CHECK_EQ(r->log[1].seat, 1);
	CHECK_EQ(r->log[1].ply, 1);
	CHECK_EQ(r->log[0].to_act, 3u); /* both were to act at ply 0 */
	CHECK_EQ(r->log[1].to_act, 2u); /* Bob alone at ply 1 */
	room_destroy(r);
}

static void test_resign_event(void)
{
	struct room *r = duo_room("resign", alice);
	int seat = -1;

	REQUIRE(r);
	REQUIRE(!room_join(r, alice, 0, NULL, &seat) && !room_join(r, bob, 1, NULL, &seat));
	CHECK_EQ(act(r, alice, 0, 2), 0);
	CHECK_EQ(room_resign(r, carol, &seat), ROOM_E_NOT_IN_ROOM);
	CHECK_EQ(room_resign(r, bob, &seat), 0);
	CHECK_EQ(seat, 1);
	CHECK_EQ(r->match.ply, 1); /* ply unchanged by the event */
	CHECK_EQ(r->status, ROOM_FINISHED);
	/* the resignation ended the match: the log (action, event) went to the archive record */
	CHECK_EQ(r->nlog, 0);
	CHECK(!r->log);
	CHECK_EQ(r->nactions, 1);
	CHECK_EQ(room_resign(r, bob, &seat), ROOM_E_GAME_OVER);
	CHECK_EQ(room_resign(r, alice, &seat), ROOM_E_GAME_OVER);
	CHECK_EQ(act(r, alice, 1, 0), ROOM_E_GAME_OVER);
	room_destroy(r);
}

static void test_members(void)
{
	struct room *r = duo_room("members", alice);
	struct member *list_a = NULL, *list_b = NULL;
	int seat;

	REQUIRE(r);
	CHECK_EQ(room_member_add(r, &list_a, &list_a, alice), 0);
	CHECK_EQ(room_member_add(r, &list_a, &list_a, alice), 0); /* once */
	CHECK_EQ(room_member_add(r, &list_b, &list_b, NULL), 0);
	CHECK_EQ(r->nmembers, 2);
	frames_sent = 0;
	CHECK_EQ(room_join(r, alice, 0, NULL, &seat), 0);
	room_changed(r);
	CHECK_EQ(frames_sent, 2);
	room_member_del(r, &list_b);
	CHECK_EQ(r->nmembers, 1);
	CHECK(!list_b);
	room_destroy(r); /* detaches the rest */
	CHECK(!list_a);
	CHECK_EQ(player_nrooms(alice), 0);
}

static uint64_t rng = 0x9e3779b97f4a7c15ull;

static unsigned rnd(unsigned n)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (unsigned)(rng % n);
}

static struct room *quinteto_room(const char *id, bool autoroll)
{
	const struct wire_game *codec = wire_game_find("quinteto");
	json_t *o = json_pack("{s:b}", "autoroll", autoroll);
	struct wire_room_options ropt;
	struct rules_options gopt;
	struct room *r = NULL;
	char why[160];
	int i, seat, err = -1;

	if (codec && o && !wire_options_decode(codec, o, &ropt, &gopt, why, sizeof(why)))
		err = room_new(&host, id, player_id(six[0]), rules_game_find("quinteto"), codec, &ropt, &gopt,
			       &r);
	json_decref(o);
	for (i = 0; !err && i < r->game->seats; i++)
		err = room_join(r, six[i], i, NULL, &seat);
	return err ? NULL : r;
}

/* Every seat's frame and legal table against the general build; false at the first difference. */
static bool frames_agree(struct room *r)
{
	static struct rules_action legal[RULES_MAX_LEGAL];
	struct json_out one = { 0 };
	bool ok = true;
	int seat, i;

	for (seat = 0; ok && seat < r->game->seats; seat++) {
		struct buf *got = room_state_for(r, six[seat]), *want = room_seat_frame_plain(r, seat);
		const struct room_seat_legal *sl = room_seat_legal(r, seat);
		int k;

		if (!want) {
			ok = got == r->cache_all && !sl;
			continue;
		}
		ok = got && got->len == want->len && !memcmp(got->data, want->data, want->len) && sl;
		buf_unref(want);
		k = rules_legal_actions(&r->match, seat, legal, RULES_MAX_LEGAL);
		ok = ok && sl->n == k && !memcmp(sl->actions, legal, (size_t)k * sizeof(*legal));
		for (i = 0; ok && i < k; i++) { /* each span holds that action's bytes */
			one.len = 0;
			ok = !wire_action_out(&one, r->codec, &sl->actions[i]) &&
			     sl->spans[i].len == one.len && sl->spans[i].off + one.len <= got->len &&
			     !memcmp(got->data + sl->spans[i].off, one.p, one.len);
		}
		if (!ok)
			printf("# seat %d differs at ply %d\n", seat, (int)r->match.ply);
	}
	json_out_free(&one);
	return ok;
}

/* Plays random Quinteto matches through room_act, comparing the frames after every change. */
static void test_quinteto_frames_cached(void)
{
	static struct rules_action legal[RULES_MAX_LEGAL];
	struct member *watchers[4] = { NULL };
	int match, step, checked = 0, reused = 0;

	for (match = 0; match < 12; match++) {
		char id[16];
		struct room *r;

		snprintf(id, sizeof(id), "qf%d", match);
		r = quinteto_room(id, match % 2); /* without autoroll: roll-offs with every hunter to act */
		REQUIRE(r);
		for (step = 0; step < 500 && r->status == ROOM_PLAYING; step++) {
			uint8_t to_act[RULES_MAX_SEATS];
			int n = rules_to_act(&r->match, to_act), seat, k, err;
			json_t *a;

			if (!frames_agree(r)) {
				CHECK(false);
				break;
			}
			checked++;
			if (rnd(4) ==
			    0) { /* a spectator comes or goes: the same lists in a frame of another length */
				int w = (int)rnd(4);

				if (watchers[w]) {
					room_member_del(r, &watchers[w]);
				} else {
					REQUIRE(!room_member_add(r, &watchers[w], &watchers[w], NULL));
					room_spectators_changed(r);
				}
				reused++;
				continue;
			}
			REQUIRE(n > 0);
			seat = to_act[rnd((unsigned)n)];
			k = rules_legal_actions(&r->match, seat, legal, RULES_MAX_LEGAL);
			REQUIRE(k > 0);
			a = r->codec->action_encode(&legal[rnd((unsigned)k)]);
			err = room_act(r, six[seat], (int64_t)r->match.ply, a);
			json_decref(a);
			CHECK_EQ(err, 0);
		}
		CHECK(frames_agree(r));
		room_destroy(r);
		CHECK(!watchers[0] && !watchers[1] && !watchers[2] && !watchers[3]);
	}
	CHECK(checked > 1000 && reused > 100);
}

/* The action's text: the compact form (one of the seat frame's legal texts when legal) or a variant. */
static void pick_text(char *out, size_t cap, int n, int variant)
{
	if (variant == 0)
		snprintf(out, cap, "{\"pick\":%d}", n);
	else if (variant == 1)
		snprintf(out, cap, "{ \"pick\": %d }", n); /* the same action, another text: the tree's way */
	else
		snprintf(out, cap, "{\"pick\":%d,\"x\":1}", n);
}

/* Two rooms played in lockstep, one given trees, one texts: the same answers and the same matches. */
static void test_act_text(void)
{
	struct room *tree = duo_room("tree", alice), *text = duo_room("text", alice);
	struct player *who[2] = { alice, bob };
	uint64_t lcg = 12345;
	int seat, hits = 0, steps;

	REQUIRE(tree && text);
	REQUIRE(!room_join(tree, alice, 0, NULL, &seat) && !room_join(tree, bob, 1, NULL, &seat));
	REQUIRE(!room_join(text, alice, 0, NULL, &seat) && !room_join(text, bob, 1, NULL, &seat));
	text->match = tree->match; /* the same seed: the two matches stay byte for byte alike */
	for (steps = 0; steps < 200 && tree->status == ROOM_PLAYING; steps++) {
		struct player *p = who[(lcg >> 33) % 2];
		int n = (int)((lcg >> 20) % 5) - 1, variant = (int)((lcg >> 40) % 4) % 3,
		    s = room_seat_of(text, p);
		int64_t ply = (int64_t)tree->nactions - (int64_t)((lcg >> 50) % 4 == 0);
		char t[64];
		json_t *a;
		int e1, e2;

		lcg = lcg * 6364136223846793005ull + 1442695040888963407ull;
		pick_text(t, sizeof(t), n, variant);
		a = json_loads(t, JSON_REJECT_DUPLICATES, NULL); /* what the definition would hand room_act */
		(void)room_state_for(text, p); /* the frames (and their legal texts) a member would be sent */
		hits += room_legal_find(text, s, t, strlen(t)) >= 0;
		e1 = room_act(tree, p, ply, a);
		e2 = room_act_text(text, p, ply, t, strlen(t));
		json_decref(a);
		CHECK_EQ(e1, e2);
		CHECK(!memcmp(&tree->match, &text->match, sizeof(tree->match)));
		CHECK_EQ(tree->nlog, text->nlog);
	}
	CHECK_EQ(tree->status, ROOM_FINISHED);
	CHECK(hits > 0);
	room_destroy(tree);
	room_destroy(text);
}

int main(void)
{
	char dir[] = "/tmp/quinteto-test-room-XXXXXX", path[64];

	if (!mkdtemp(dir))
		return 1;
	snprintf(path, sizeof(path), "%s/q.db", dir);
	config_defaults(&cfg);
	alice = player_new("palice", "", "Alice");
	bob = player_new("pbob", "", "Bob");
	carol = player_new("pcarol", "", "Carol");
	if (!alice || !bob || !carol)
		return 1;
	for (int i = 0; i < RULES_MAX_SEATS; i++) {
		char pid[8], name[8];

		snprintf(pid, sizeof(pid), "p%d", i);
		snprintf(name, sizeof(name), "P%d", i);
		if (!(six[i] = player_new(pid, "", name)))
			return 1;
	}
	uv_loop_init(&loop);
	if (store_open(&loop, path, QUINTETO_SOURCE_MIGRATIONS, &store) || store_start(store))
		return 1;
	host.store = store;
	TEST(test_seats);
	TEST(test_add_bot_permission);
	TEST(test_ply_exception);
	TEST(test_resign_event);
	TEST(test_members);
	TEST(test_quinteto_frames_cached);
	TEST(test_act_text);
	store_close(store);
	uv_run(&loop, UV_RUN_DEFAULT);
	uv_loop_close(&loop);
	player_free(alice);
	player_free(bob);
	player_free(carol);
	for (int i = 0; i < RULES_MAX_SEATS; i++)
		player_free(six[i]);
	unlink(path);
	rmdir(dir);
	return tap_done();
}
