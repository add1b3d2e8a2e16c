/*
 * test_store_lease.c: node leases (store_lease.c) against a real PostgreSQL
 * (tests/lib/with-pg.sh gives its conninfo in QUINTETO_TEST_PG), several
 * stores in one process on one libuv loop, as several nodes would be: a take
 * gives a new epoch; renewals keep a watched lease alive; a node that stops
 * renewing is adopted by exactly one of two survivors, its rooms moved in the
 * same transaction and loaded by store_load_live() there; the dead node's
 * writer is fenced (STORE_E_FENCED, nothing written); a node whose lease is
 * taken by another holder of its name, or whose renewals hang, is told LOST.
 * Usage: with-pg.sh test_store_lease MIGRATIONS_DIR
 */
#include <errno.h>
#include <libpq-fe.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "store/store.h"
#include "tap.h"

/* A short lease, so that the test takes seconds; long enough for a loaded machine's renewals. */
#define LEASE_MS 1500

static uv_loop_t loop;
static const char *migrations, *conninfo;
static PGconn *db; /* the test's own look at the tables */

/* What one node was told. */
struct node {
	const char *name;
	struct store *st;
	int lost, adopted;
	char adopted_node[64];
	int commits, fenced; /* journal batches committed, and failed STORE_E_FENCED */
	int other_err;
};

static void lease_cb(void *ctx, enum store_lease_event ev, const char *node)
{
	struct node *n = ctx;

	if (ev == STORE_LEASE_LOST) {
		n->lost++;
		return;
	}
	n->adopted++;
	snprintf(n->adopted_node, sizeof(n->adopted_node), "%s", node);
}

static void commit_cb(void *ctx, uint64_t seq, int err)
{
	struct node *n = ctx;

	(void)seq;
	if (!err)
		n->commits++;
	else if (err == STORE_E_FENCED)
		n->fenced++;
	else
		n->other_err = err;
}

static void tick_cb(uv_timer_t *t)
{
	(void)t;
}

/* Runs the loop until *flag reaches `want` or `ms` pass (a 10 ms timer keeps it turning). */
static bool run_until(const int *flag, int want, int ms)
{
	uv_timer_t t;
	uint64_t end = uv_now(&loop) + (uint64_t)ms;

	uv_timer_init(&loop, &t);
	uv_timer_start(&t, tick_cb, 10, 10);
	while (*flag < want && uv_now(&loop) < end)
		uv_run(&loop, UV_RUN_ONCE);
	uv_close((uv_handle_t *)&t, NULL);
	uv_run(&loop, UV_RUN_NOWAIT);
	return *flag >= want;
}

static void run_for(int ms)
{
	int never = 0;

	(void)run_until(&never, 1, ms);
}

static bool node_open(struct node *n, const char *name, bool take)
{
	memset(n, 0, sizeof(*n));
	n->name = name;
	if (store_open_pg(&loop, conninfo, migrations, &n->st))
		return false;
	store_on_commit(n->st, commit_cb, n);
	return !take || store_lease_take(n->st, name, LEASE_MS) == 0;
}

static void node_close(struct node *n)
{
	store_close(n->st);
	n->st = NULL;
	/* its handles' close callbacks (the other stores' handles keep the loop alive: no UV_RUN_DEFAULT) */
	for (int i = 0; i < 3; i++)
		uv_run(&loop, UV_RUN_NOWAIT);
}

/* The first column of the first row of `sql` with one text parameter, or "" (static buffer). */
static const char *sql1(const char *sql, const char *param)
{
	static char out[128];
	PGresult *res = PQexecParams(db, sql, param ? 1 : 0, NULL, &param, NULL, NULL, 0);

	out[0] = '\0';
	if (PQresultStatus(res) == PGRES_TUPLES_OK && PQntuples(res) > 0)
		snprintf(out, sizeof(out), "%s", PQgetvalue(res, 0, 0));
	else if (PQresultStatus(res) != PGRES_TUPLES_OK)
		printf("# %s: %s", sql, PQresultErrorMessage(res));
	PQclear(res);
	return out;
}

static long long epoch_of(const char *node)
{
	return atoll(sql1("SELECT epoch FROM node_leases WHERE node = $1", node));
}

static void exec(const char *sql)
{
	PGresult *res = PQexec(db, sql);

	if (PQresultStatus(res) != PGRES_COMMAND_OK && PQresultStatus(res) != PGRES_TUPLES_OK)
		printf("# %s: %s", sql, PQresultErrorMessage(res));
	PQclear(res);
}

/* A room journalled and committed by node n. */
static bool journal_room(struct node *n, const char *id)
{
	int before = n->commits;

	store_live_room(n->st, id, "ur", "{}", "00", NULL, 1000);
	if (!store_journal_flush(n->st))
		return false;
	return run_until(&n->commits, before + 1, 10000);
}

/* store_load_live's rooms, by id, comma-separated. */
struct loaded {
	char ids[256];
};

static int on_room(void *ctx, const char *id, const char *game, const char *options, const char *server_seed,
		   const char *creator_id, int64_t created_at, int64_t started_at)
{
	struct loaded *l = ctx;

	(void)game, (void)options, (void)server_seed, (void)creator_id, (void)created_at, (void)started_at;
	snprintf(l->ids + strlen(l->ids), sizeof(l->ids) - strlen(l->ids), "%s%s", l->ids[0] ? "," : "", id);
	return 0;
}

static void on_room_end(void *ctx, int err)
{
	(void)ctx, (void)err;
}

static const struct store_live_ops load_ops = { NULL, on_room, NULL, NULL, NULL, on_room_end, NULL };

/* --- the tests ------------------------------------------------------------------- */

static void take_gives_new_epochs(void)
{
	struct node a, a2;

	REQUIRE(node_open(&a, "t-a", true));
	CHECK_EQ(epoch_of("t-a"), 1);
	CHECK(!strcmp(sql1("SELECT expires_at > now() FROM node_leases WHERE node = $1", "t-a"), "t"));
	/* the same name again (a restart): the next epoch, whoever held it */
	REQUIRE(node_open(&a2, "t-a", true));
	CHECK_EQ(epoch_of("t-a"), 2);
	node_close(&a2);
	node_close(&a);
	exec("DELETE FROM node_leases"); /* closed, it would be adopted in the next test */
}

static void sqlite_has_no_lease(void)
{
	char dir[] = "/tmp/quinteto-lease-XXXXXX", path[64];
	struct store *st = NULL;

	REQUIRE(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/q.db", dir);
	REQUIRE(store_open(&loop, path, migrations, &st) == 0);
	CHECK_EQ(store_lease_take(st, "x", LEASE_MS), -ENOTSUP);
	store_close(st);
	uv_run(&loop, UV_RUN_DEFAULT);
	unlink(path);
	(void)rmdir(dir);
}

/*
 * Three nodes: a journals a room then stops renewing (not watched: as dead as
 * a SIGKILLed node, its store still open); b and c watch. Exactly one of them
 * adopts a, its room moved to it in the same transaction; a's next batch is
 * fenced and writes nothing; b and c keep renewing all the while.
 */
static void one_adopter_of_two_and_the_fence(void)
{
	struct node a, b, c, *win, *other;
	struct loaded got = { "" };
	int adopted = 0;

	REQUIRE(node_open(&a, "t-dead", true) && store_start(a.st) == 0);
	store_live_after(a.st, "room-of-a", 1000, NULL, "[null,null]", "[0,0]", NULL);
	REQUIRE(journal_room(&a, "room-of-a"));
	CHECK(!strcmp(sql1("SELECT node FROM live_rooms WHERE id = $1", "room-of-a"), "t-dead"));
	CHECK(!strcmp(sql1("SELECT node FROM live_after WHERE room_id = $1", "room-of-a"), "t-dead"));
	REQUIRE(node_open(&b, "t-b", true) && store_start(b.st) == 0);
	REQUIRE(node_open(&c, "t-c", true) && store_start(c.st) == 0);
	store_lease_watch(b.st, lease_cb, &b);
	store_lease_watch(c.st, lease_cb, &c);
	/* a's lease expires after LEASE_MS and is adoptable a lease later: a few ticks more at most */
	for (int i = 0; i < 100 && !(b.adopted + c.adopted); i++)
		run_for(100);
	adopted = b.adopted + c.adopted;
	REQUIRE(adopted >= 1);
	run_for(LEASE_MS); /* a few more ticks: the other one must not adopt it too */
	CHECK_EQ(b.adopted + c.adopted, 1);
	win = b.adopted ? &b : &c;
	other = b.adopted ? &c : &b;
	CHECK(!strcmp(win->adopted_node, "t-dead"));
	CHECK_EQ(other->adopted, 0);
	CHECK_EQ(b.lost + c.lost, 0);
	CHECK(!strcmp(sql1("SELECT adopted_by FROM node_leases WHERE node = $1", "t-dead"), win->name));
	CHECK_EQ(epoch_of("t-dead"), 2);
	CHECK(!strcmp(sql1("SELECT node FROM live_rooms WHERE id = $1", "room-of-a"), win->name));
	CHECK(!strcmp(sql1("SELECT node FROM live_after WHERE room_id = $1", "room-of-a"), win->name));
	/* the survivor's store loads it now (the lobby's adoption does this) */
	CHECK_EQ(store_load_live(win->st, &load_ops, &got), 0);
	CHECK(!strcmp(got.ids, "room-of-a"));
	/* the fence: the dead node's writer is refused, never retried, and nothing of its batch is written */
	store_live_room(a.st, "late-room-of-a", "ur", "{}", "00", NULL, 2000);
	REQUIRE(store_journal_flush(a.st));
	CHECK(run_until(&a.fenced, 1, 10000));
	CHECK_EQ(a.other_err, 0);
	CHECK(!strcmp(sql1("SELECT count(*) FROM live_rooms WHERE id = $1", "late-room-of-a"), "0"));
	/* the survivors renewed all along */
	CHECK(!strcmp(sql1("SELECT expires_at > now() FROM node_leases WHERE node = $1", "t-b"), "t"));
	CHECK(!strcmp(sql1("SELECT expires_at > now() FROM node_leases WHERE node = $1", "t-c"), "t"));
	node_close(&c);
	node_close(&b);
	node_close(&a);
	exec("DELETE FROM node_leases");
}

/* Another holder of the name (a restart while the old process still runs) takes the lease: LOST. */
static void lost_when_taken_over(void)
{
	struct node b, b2;

	REQUIRE(node_open(&b, "t-lost", true) && store_start(b.st) == 0);
	store_lease_watch(b.st, lease_cb, &b);
	run_for(LEASE_MS / 2);
	CHECK_EQ(b.lost, 0);
	REQUIRE(node_open(&b2, "t-lost", true));
	CHECK(run_until(&b.lost, 1, 10 * LEASE_MS));
	CHECK_EQ(b.lost, 1);
	CHECK_EQ(b.adopted, 0);
	node_close(&b2);
	node_close(&b);
	exec("DELETE FROM node_leases");
}

/* Renewals that hang (the row locked by another transaction) are dropped; after a lease without one: LOST. */
static void lost_when_renewals_hang(void)
{
	struct node n;

	REQUIRE(node_open(&n, "t-hang", true) && store_start(n.st) == 0);
	store_lease_watch(n.st, lease_cb, &n);
	run_for(LEASE_MS / 2);
	CHECK_EQ(n.lost, 0);
	exec("BEGIN");
	exec("SELECT * FROM node_leases WHERE node = 't-hang' FOR UPDATE");
	CHECK(run_until(&n.lost, 1, 10 * LEASE_MS));
	exec("ROLLBACK");
	node_close(&n);
	exec("DELETE FROM node_leases");
}

/*
 * After PostgreSQL was away from a node for longer than two leases, every
 * lease it sees has expired: it adopts none before its own renewals have run
 * unbroken for a lease (the others may be back and renewing too). Here node
 * o's renewals hang on its row, locked by the test, while dead node x's lease
 * runs out; once o renews again, x is not adopted at once, then it is.
 */
static void no_adoption_right_after_an_outage(void)
{
	struct node o, x;
	PGconn *lock = PQconnectdb(conninfo);
	PGresult *res;
	char first[64];

	REQUIRE(PQstatus(lock) == CONNECTION_OK);
	REQUIRE(node_open(&o, "t-o", true) && store_start(o.st) == 0);
	res = PQexec(lock, "BEGIN; SELECT * FROM node_leases WHERE node = 't-o' FOR UPDATE");
	PQclear(res);
	store_lease_watch(o.st, lease_cb, &o);
	REQUIRE(node_open(&x, "t-x", true));
	snprintf(first, sizeof(first), "%s",
		 sql1("SELECT expires_at FROM node_leases WHERE node = $1", "t-o"));
	run_for(LEASE_MS * 22 / 10); /* x is adoptable after 2 leases; o has not renewed since before */
	CHECK_EQ(o.lost + o.adopted, 0);
	res = PQexec(lock, "ROLLBACK");
	PQclear(res);
	/* o's renewal goes through: its lease runs again */
	for (int i = 0;
	     i < 100 && !strcmp(sql1("SELECT expires_at FROM node_leases WHERE node = $1", "t-o"), first);
	     i++)
		run_for(10);
	run_for(LEASE_MS / 3);
	CHECK_EQ(o.adopted, 0); /* not yet: o's renewals have not run a lease unbroken */
	CHECK(run_until(&o.adopted, 1, 10 * LEASE_MS));
	CHECK(!strcmp(o.adopted_node, "t-x"));
	CHECK_EQ(o.lost, 0);
	PQfinish(lock);
	node_close(&x);
	node_close(&o);
	exec("DELETE FROM node_leases");
}

int main(int argc, char **argv)
{
	if (argc < 2 || !(conninfo = getenv("QUINTETO_TEST_PG"))) {
		fprintf(stderr, "usage: with-pg.sh test_store_lease MIGRATIONS_DIR\n");
		return 2;
	}
	migrations = argv[1];
	uv_loop_init(&loop);
	db = PQconnectdb(conninfo);
	if (PQstatus(db) != CONNECTION_OK) {
		fprintf(stderr, "test_store_lease: %s", PQerrorMessage(db));
		return 1;
	}
	TEST(sqlite_has_no_lease);
	TEST(take_gives_new_epochs);
	TEST(one_adopter_of_two_and_the_fence);
	TEST(lost_when_taken_over);
	TEST(lost_when_renewals_hang);
	TEST(no_adoption_right_after_an_outage);
	PQfinish(db);
	uv_loop_close(&loop);
	return tap_done();
}
