/*
 * store_lease.c: node leases in PostgreSQL's node_leases (docs/SCALING.md,
 * "Node leases and the fence"). store_lease_take() runs once at start-up, on
 * the writer's connection before store_start(): it upserts the node's row
 * with a new epoch (the fence the writer checks in every transaction). Then
 * store_lease_watch() keeps a connection of its own in libpq's non-blocking
 * mode on the loop (PQconnectPoll, PQsocket under a uv_poll_t): every
 * lease_ms / 3 a tick renews the lease, looks for a node dead a whole lease
 * past its expiry and adopts it in one transaction.
 *
 * It never waits on the network: a query in flight has a deadline, past which
 * the connection is dropped and made again at a later tick. A renewal that
 * finds the epoch changed is STORE_LEASE_LOST. So is no renewal that
 * succeeded for LEASE_STALE leases: a node cut off from PostgreSQL while the
 * others reach it has been adopted by then, and its players must leave it for
 * the adopter (its writes are fenced whatever happens: the fence, not this,
 * is what keeps a room to one writer); PostgreSQL away for less (a restart)
 * only pauses play. After an outage of PostgreSQL itself every lease has
 * expired: a node adopts others only once its own renewals have run unbroken
 * for a whole lease, which gives every live node the time to renew first.
 * PostgreSQL's clock is the only one compared with expires_at; the loop's
 * monotonic clock measures only our own renewals' age. Loop thread only.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "store/store_pg_int.h"

/*
 * Leases without a renewal that succeeded before LOST: three, so that
 * PostgreSQL away for 5 s with the default lease of 3 s (its restart, a
 * failover) pauses play instead of stopping every node; by then an adoption
 * was possible for a lease already (docs/SCALING.md).
 */
#define LEASE_STALE 3

/* What the watcher's connection is doing. */
enum lease_phase {
	LP_DOWN,       /* no connection: one is started at the next tick */
	LP_CONNECTING, /* PQconnectPoll until it says OK */
	LP_IDLE,       /* connected, nothing in flight */
	LP_RENEW,      /* the renewal in flight */
	LP_FIND,       /* the search for a dead node in flight */
	LP_ADOPT,      /* the adoption's transaction in flight */
	LP_CHECK,      /* after an adoption whose outcome was lost: did it commit? */
};

struct store_lease {
	struct store *st;
	uv_loop_t *loop;
	char *conninfo;
	int lease_ms;
	store_lease_cb cb;
	void *ctx;
	PGconn *c;
	uv_poll_t *poll; /* on PQsocket(c); its own allocation, freed in its close callback */
	int poll_fd;
	uv_timer_t tick;
	bool ticking;
	enum lease_phase phase;
	int64_t deadline;   /* mono ms: the connection or the query in flight is given up past it */
	int64_t sent_at;    /* mono ms: the renewal in flight was sent */
	int64_t renewed_at; /* mono ms: the last renewal that succeeded was sent (the lease runs from later)
			     */
	int64_t chain_at;   /* mono ms: the first of the renewals since which none came a lease late */
	char adopting[64];  /* the dead node of the adoption in flight, or whose outcome is in doubt */
	bool doubt;         /* an adoption was sent and its answer lost: LP_CHECK asks */
	bool won;           /* the adoption's lease UPDATE returned its row (or LP_CHECK found it ours) */
	bool failed;        /* the query in flight answered an error (its last result, NULL, still to come) */
	bool said_down;     /* the watcher logged that it cannot reach PostgreSQL (once an outage) */
	bool over;          /* LOST was reported: nothing more */
};

static int64_t mono_ms(void)
{
	return (int64_t)(util_mono_ns() / 1000000);
}

/* --- the synchronous take ------------------------------------------------ */

int store_lease_take(struct store *st, const char *node, int lease_ms)
{
	struct store_lease *ls;
	const char *vals[2];
	char ms[24];
	PGresult *res;
	PGconn *c = store_pg_conn(st);

	if (!st->pg)
		return -ENOTSUP;
	if (!c || st->started || strlen(node) >= sizeof(st->node) || lease_ms < 3)
		return -EINVAL;
	snprintf(ms, sizeof(ms), "%d", lease_ms);
	vals[0] = node, vals[1] = ms;
	/* one statement, one transaction: the row's next epoch whoever held it; adopted_by cleared, as the
	 * node starts empty of whatever was adopted from it */
	res = store_pg_query(c, "the node's lease",
			     "INSERT INTO node_leases(node, epoch, expires_at, adopted_by) "
			     "VALUES ($1, 1, now() + $2::bigint * interval '1 millisecond', NULL) "
			     "ON CONFLICT (node) DO UPDATE SET epoch = node_leases.epoch + 1, "
			     "expires_at = EXCLUDED.expires_at, adopted_by = NULL RETURNING epoch",
			     2, vals);
	if (!res)
		return -EIO;
	if (PQntuples(res) != 1) {
		PQclear(res);
		return -EIO;
	}
	if (!(ls = calloc(1, sizeof(*ls))) || !(ls->conninfo = strdup(st->pg->conninfo))) {
		free(ls);
		PQclear(res);
		return -ENOMEM;
	}
	store_lease_close(st); /* taken twice (a test): the last one counts */
	snprintf(st->node, sizeof(st->node), "%s", node);
	st->epoch = strtoll(PQgetvalue(res, 0, 0), NULL, 10);
	PQclear(res);
	ls->st = st;
	ls->loop = st->loop;
	ls->lease_ms = lease_ms;
	ls->poll_fd = -1;
	ls->renewed_at = ls->chain_at = mono_ms(); /* the row was set just now */
	st->lease = ls;
	util_log(LOG_INFO, "lease: node %s holds epoch %" PRId64 " (lease %d ms)", node, st->epoch, lease_ms);
	return 0;
}

/* --- the connection ------------------------------------------------------ */

static void poll_closed_cb(uv_handle_t *h)
{
	free(h);
}

static void poll_stop(struct store_lease *ls)
{
	if (ls->poll) {
		uv_close((uv_handle_t *)ls->poll, poll_closed_cb);
		ls->poll = NULL;
	}
	ls->poll_fd = -1;
}

/* The connection goes (broken, hung or closing); a query in flight had no answer. */
static void conn_drop(struct store_lease *ls, const char *why)
{
	if (why && !ls->said_down)
		util_log(LOG_WARN, "lease: its connection to PostgreSQL: %s (tried again at the next tick)",
			 why);
	if (why)
		ls->said_down = true;
	if (ls->phase == LP_ADOPT)
		ls->doubt = true; /* its COMMIT may have gone through: asked once connected again */
	poll_stop(ls);
	PQfinish(ls->c);
	ls->c = NULL;
	ls->phase = LP_DOWN;
}

static void poll_cb(uv_poll_t *h, int status, int events);

/* Watches the connection's socket for `events`; it may change while connecting. 0 or -1. */
static int poll_on(struct store_lease *ls, int events)
{
	int fd = PQsocket(ls->c);

	if (fd < 0)
		return -1;
	if (fd != ls->poll_fd) {
		poll_stop(ls);
		if (!(ls->poll = malloc(sizeof(*ls->poll))))
			return -1;
		if (uv_poll_init(ls->loop, ls->poll, fd)) {
			free(ls->poll);
			ls->poll = NULL;
			return -1;
		}
		ls->poll->data = ls;
		ls->poll_fd = fd;
	}
	return uv_poll_start(ls->poll, events, poll_cb) ? -1 : 0;
}

static void conn_start(struct store_lease *ls)
{
	const char *keys[] = { "dbname", "application_name", NULL };
	const char *vals[] = { ls->conninfo, "quinteto-lease", NULL };

	/* the conninfo may be a URI or key=value pairs: expand_dbname reads either (its own settings win) */
	ls->c = PQconnectStartParams(keys, vals, 1);
	if (!ls->c || PQstatus(ls->c) == CONNECTION_BAD) {
		conn_drop(ls, ls->c ? PQerrorMessage(ls->c) : "out of memory");
		return;
	}
	ls->phase = LP_CONNECTING;
	ls->deadline = mono_ms() + ls->lease_ms;
	if (poll_on(ls, UV_WRITABLE)) /* libpq's first step waits for the socket to be writable */
		conn_drop(ls, "cannot watch its socket");
}

static void send_renewal(struct store_lease *ls);
static void on_result(struct store_lease *ls, PGresult *res);

/* One step of PQconnectPoll. */
static void conn_step(struct store_lease *ls)
{
	/* libpq may close its socket and open another (the next address, a retry without SSL) whose
	 * descriptor has the same number: a new poll handle each step, never a stale registration */
	poll_stop(ls);
	switch (PQconnectPoll(ls->c)) {
	case PGRES_POLLING_READING:
		if (poll_on(ls, UV_READABLE))
			conn_drop(ls, "cannot watch its socket");
		return;
	case PGRES_POLLING_WRITING:
		if (poll_on(ls, UV_WRITABLE))
			conn_drop(ls, "cannot watch its socket");
		return;
	case PGRES_POLLING_OK:
		if (PQsetnonblocking(ls->c, 1) || poll_on(ls, UV_READABLE)) {
			conn_drop(ls, "cannot make it non-blocking");
			return;
		}
		if (ls->said_down)
			util_log(LOG_INFO, "lease: connected to PostgreSQL again");
		ls->said_down = false;
		ls->phase = LP_IDLE;
		send_renewal(ls); /* at once: the last renewal may be old by now */
		return;
	default:
		conn_drop(ls, PQerrorMessage(ls->c));
	}
}

/* Sends what libpq holds, and reads: PQflush's 1 means the socket must become writable first. */
static void query_sent(struct store_lease *ls, int ok, enum lease_phase phase)
{
	int f;

	if (!ok) {
		conn_drop(ls, PQerrorMessage(ls->c));
		return;
	}
	ls->phase = phase;
	/* half a lease: a hung query is dropped and the next tick's renewal still has time to succeed */
	ls->deadline = mono_ms() + ls->lease_ms / 2;
	f = PQflush(ls->c);
	if (f < 0 || poll_on(ls, f ? UV_READABLE | UV_WRITABLE : UV_READABLE))
		conn_drop(ls, "cannot send its query");
}

/* Reads what came; each whole result of the query in flight goes to on_result(), NULL ending it. */
static void conn_read(struct store_lease *ls)
{
	PGresult *res;

	if (!PQconsumeInput(ls->c)) {
		conn_drop(ls, PQerrorMessage(ls->c));
		return;
	}
	while (ls->c && ls->phase > LP_IDLE && !PQisBusy(ls->c)) {
		res = PQgetResult(ls->c);
		on_result(ls, res); /* may drop the connection, report, or send the next query */
		PQclear(res);
		if (!res)
			break;
	}
}

static void poll_cb(uv_poll_t *h, int status, int events)
{
	struct store_lease *ls = h->data;
	int f;

	if (status < 0) {
		conn_drop(ls, uv_strerror(status));
		return;
	}
	if (ls->phase == LP_CONNECTING) {
		conn_step(ls);
		return;
	}
	if ((events & UV_WRITABLE) && ls->c) {
		f = PQflush(ls->c);
		if (f < 0 || poll_on(ls, f ? UV_READABLE | UV_WRITABLE : UV_READABLE)) {
			conn_drop(ls, "cannot send its query");
			return;
		}
	}
	if ((events & UV_READABLE) && ls->c)
		conn_read(ls);
}

/* --- the queries --------------------------------------------------------- */

static void send_renewal(struct store_lease *ls)
{
	char ep[24], ms[24];
	const char *v[3] = { ls->st->node, ep, ms };

	snprintf(ep, sizeof(ep), "%" PRId64, ls->st->epoch);
	snprintf(ms, sizeof(ms), "%d", ls->lease_ms);
	ls->sent_at = mono_ms();
	query_sent(ls,
		   PQsendQueryParams(ls->c,
				     "UPDATE node_leases SET expires_at = now() + $3::bigint * interval "
				     "'1 millisecond' WHERE node = $1 AND epoch = $2::bigint",
				     3, NULL, v, NULL, NULL, 0),
		   LP_RENEW);
}

/* A node whose lease expired a whole lease ago and that nobody adopted yet (the oldest first). */
static void send_find(struct store_lease *ls)
{
	char ms[24];
	const char *v[2] = { ls->st->node, ms };

	snprintf(ms, sizeof(ms), "%d", ls->lease_ms);
	query_sent(
		ls,
		PQsendQueryParams(ls->c,
				  "SELECT node FROM node_leases WHERE node <> $1 AND adopted_by IS NULL AND "
				  "expires_at < now() - $2::bigint * interval '1 millisecond' "
				  "ORDER BY expires_at LIMIT 1",
				  2, NULL, v, NULL, NULL, 0),
		LP_FIND);
}

/*
 * The adoption, one transaction in one round trip (a multi-statement query
 * is one transaction). The lease row's UPDATE takes its row lock: a second
 * survivor's waits, then finds adopted_by set and updates nothing; the dead
 * node's writer, whose fence holds the row FOR SHARE, either committed before
 * (its rooms are then seen by the next statement, which takes a snapshot of
 * its own) or finds the new epoch and is fenced. Rooms move (live_rooms, and
 * live_after: finished rooms that linger with their rematch offer) only if
 * this node's UPDATE won. lock_timeout: a lock held by a frozen writer does not
 * hang the adoption, which is tried again at a later tick.
 */
static void send_adopt(struct store_lease *ls)
{
	const char *dead = ls->adopting; /* found by send_find() */
	char *me = PQescapeLiteral(ls->c, ls->st->node, strlen(ls->st->node));
	char *d = PQescapeLiteral(ls->c, dead, strlen(dead));
	char *sql = NULL;
	int ok = 0;

	if (me && d &&
	    asprintf(&sql,
		     "BEGIN; SET LOCAL lock_timeout = %d; "
		     "UPDATE node_leases SET epoch = epoch + 1, adopted_by = %s WHERE node = %s AND "
		     "adopted_by IS NULL AND expires_at < now() - %d * interval '1 millisecond' RETURNING "
		     "epoch; "
		     "UPDATE live_rooms SET node = %s WHERE node = %s AND EXISTS (SELECT 1 FROM node_leases "
		     "WHERE node = %s AND adopted_by = %s); "
		     "UPDATE live_after SET node = %s WHERE node = %s AND EXISTS (SELECT 1 FROM node_leases "
		     "WHERE node = %s AND adopted_by = %s); COMMIT",
		     ls->lease_ms / 3, me, d, ls->lease_ms, me, d, d, me, me, d, d, me) > 0) {
		ok = PQsendQuery(ls->c, sql);
	} else {
		sql = NULL;
	}
	free(sql);
	PQfreemem(me);
	PQfreemem(d);
	query_sent(ls, ok, LP_ADOPT);
}

/* After an adoption whose answer was lost: did this node win it? */
static void send_check(struct store_lease *ls)
{
	const char *v[2] = { ls->adopting, ls->st->node };

	query_sent(ls,
		   PQsendQueryParams(ls->c, "SELECT 1 FROM node_leases WHERE node = $1 AND adopted_by = $2",
				     2, NULL, v, NULL, NULL, 0),
		   LP_CHECK);
}

/* LOST: said once, then the watcher stops; the callback ends the process (or the test looks). */
static void lost(struct store_lease *ls, const char *why)
{
	ls->over = true;
	util_log(LOG_ERROR, "lease: node %s (epoch %" PRId64 ") lost its lease: %s", ls->st->node,
		 ls->st->epoch, why);
	if (ls->ticking)
		uv_timer_stop(&ls->tick);
	conn_drop(ls, NULL);
	if (ls->cb)
		ls->cb(ls->ctx, STORE_LEASE_LOST, ls->st->node);
}

static void adopted(struct store_lease *ls)
{
	char dead[64];

	snprintf(dead, sizeof(dead), "%s", ls->adopting);
	ls->adopting[0] = '\0';
	ls->doubt = false;
	util_log(LOG_WARN, "lease: node %s adopted dead node %s's rooms", ls->st->node, dead);
	if (ls->cb)
		ls->cb(ls->ctx, STORE_LEASE_ADOPTED, dead);
}

/* One result of the query in flight (NULL: it is over); `ok` of each is checked here. */
static void on_result(struct store_lease *ls, PGresult *res)
{
	ExecStatusType s = res ? PQresultStatus(res) : PGRES_COMMAND_OK;
	enum lease_phase ph = ls->phase;

	if (res && s != PGRES_COMMAND_OK && s != PGRES_TUPLES_OK) {
		if (!ls->said_down)
			util_log(LOG_WARN, "lease: %s", PQresultErrorMessage(res));
		ls->said_down = true;
		if (ph == LP_ADOPT)
			ls->won = false; /* rolled back: nothing adopted */
		ls->failed = true;
		return; /* the rest of its results follow, then NULL */
	}
	if (res) {
		if (ph == LP_RENEW && !strcmp(PQcmdTuples(res), "0")) {
			lost(ls,
			     "its row has another epoch: another node or a restart of this one took it over");
			return;
		}
		if (ph == LP_RENEW) {
			if (ls->sent_at - ls->renewed_at > ls->lease_ms) /* its own lease may have run out */
				ls->chain_at = ls->sent_at;
			ls->renewed_at = ls->sent_at;
			ls->said_down = false;
		} else if (ph == LP_FIND && PQntuples(res) == 1)
			snprintf(ls->adopting, sizeof(ls->adopting), "%s", PQgetvalue(res, 0, 0));
		else if (ph == LP_ADOPT && s == PGRES_TUPLES_OK)
			ls->won = PQntuples(res) == 1;
		else if (ph == LP_CHECK)
			ls->won = PQntuples(res) == 1;
		return;
	}
	ls->phase = LP_IDLE; /* the query is over: what comes next */
	if (ls->failed) {    /* tried again at the next tick; a failed adoption or check changed nothing */
		ls->failed = false;
		if (ph == LP_ADOPT)
			ls->adopting[0] = '\0';
		return;
	}
	if (ph == LP_RENEW && ls->doubt && ls->adopting[0]) {
		send_check(ls);
	} else if (ph == LP_RENEW && ls->renewed_at - ls->chain_at >= ls->lease_ms) {
		send_find(ls);
	} else if (ph == LP_FIND && ls->adopting[0]) {
		ls->won = false;
		send_adopt(ls);
	} else if ((ph == LP_ADOPT || ph == LP_CHECK) && ls->won) {
		ls->won = false;
		adopted(ls);
	} else if (ph == LP_ADOPT || ph == LP_CHECK) {
		ls->adopting[0] = '\0',
		ls->doubt = false; /* another survivor won it, or the dead came back */
	}
}

/* --- the tick ------------------------------------------------------------ */

static void tick_cb(uv_timer_t *t)
{
	struct store_lease *ls = t->data;
	int64_t now = mono_ms();
	char why[128];

	if (ls->over)
		return;
	if (now - ls->renewed_at >= (int64_t)LEASE_STALE * ls->lease_ms) {
		snprintf(why, sizeof(why),
			 "no renewal succeeded for %" PRId64 " ms (PostgreSQL away or slow)",
			 now - ls->renewed_at);
		lost(ls, why);
		return;
	}
	if (ls->phase != LP_DOWN && ls->phase != LP_IDLE && now > ls->deadline)
		conn_drop(ls,
			  ls->phase == LP_CONNECTING ? "connecting took too long" : "a query took too long");
	if (ls->phase == LP_DOWN)
		conn_start(ls);
	else if (ls->phase == LP_IDLE)
		send_renewal(ls);
}

void store_lease_watch(struct store *st, store_lease_cb cb, void *ctx)
{
	struct store_lease *ls = st->lease;
	uint64_t every;

	if (!ls || ls->ticking)
		return;
	ls->cb = cb;
	ls->ctx = ctx;
	/* the restore between the take and now may have been long: the first renewal gets a whole lease
	 * (if another node adopted this one meanwhile, the renewal finds the epoch changed: LOST) */
	ls->renewed_at = ls->chain_at = mono_ms();
	every = (uint64_t)(ls->lease_ms / 3);
	if (uv_timer_init(ls->loop, &ls->tick)) {
		util_log(LOG_ERROR, "lease: cannot start its timer");
		return;
	}
	ls->tick.data = ls;
	ls->ticking = true;
	(void)uv_timer_start(&ls->tick, tick_cb, every, every);
	conn_start(ls);
}

static void lease_free(struct store_lease *ls)
{
	free(ls->conninfo);
	free(ls);
}

static void tick_closed_cb(uv_handle_t *h)
{
	lease_free(h->data);
}

void store_lease_close(struct store *st)
{
	struct store_lease *ls = st->lease;

	if (!ls)
		return;
	st->lease = NULL;
	ls->over = true;
	conn_drop(ls, NULL);
	if (ls->ticking)
		uv_close((uv_handle_t *)&ls->tick,
			 tick_closed_cb); /* freed once the loop lets the timer go */
	else
		lease_free(ls);
}
