/*
 * server.c: the process (see server.h). Every module's state lives in one
 * struct server here; modules get pointers to the parts they use, never the
 * whole. A uv_prepare_t ends each loop turn (journal flush, then the
 * sessions' gate); a uv_check_t reaps closed sessions outside lws callbacks.
 * SIGINT/SIGTERM stop cleanly: new connections are refused and every
 * WebSocket is closed with 1012 once its held frames are out (the journal
 * commits them meanwhile); when all have closed, or after
 * --shutdown-timeout, lws is destroyed, every handle closed, the store thread
 * writes what it holds, then the loop is closed. A second signal stops at once.
 */
#include "server.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "config.h"
#include "cluster/cluster.h"
#include "net/net.h"
#include "lobby/lobby.h"
#include "store/store.h"
#include "base/pwhash.h"
#include "base/buf.h"
#include "base/metrics.h"
#include "base/util.h"
#include "wire.h"

struct server {
	uv_loop_t loop;
	const struct config *cfg;
	struct store *store;
	struct metrics metrics;
	struct lobby *lobby;
	struct net *net;
	struct cluster *cluster; /* NULL: a single server (docs/SCALING.md) */
	struct pwhash *pwhash;   /* the accounts' password hashing (docs/ACCOUNTS.md) */
	struct dblock dblock;    /* held for the process's life: one database, one server */
	uv_prepare_t turn;
	uv_check_t reaper;
	uv_timer_t housekeeping;
	uv_timer_t drain_timer;
	uint64_t drain_deadline; /* uv_now() past which the drain ends however many are connected */
	bool drain_last;         /* past it: held frames dropped, a moment for the close frames */
	uv_signal_t sigint, sigterm;
	bool stopping, draining;
	bool told_failing;    /* the clients were told the database cannot be written */
	uint64_t turn_cpu_ns; /* the loop thread's CPU time at the last turn's end (metrics loop_turn) */
	/* at the last turn's end: the time, libuv's idle time (its waits for I/O), and the messages in and
	 * frames out counted so far (metrics turn_busy, turn_in, turn_out) */
	uint64_t turn_end_ns, turn_idle_ns, turn_msgs_in, turn_msgs_out;
};

/*
 * The loop turn ends: its journal writes join the open batch (flushed now, or
 * when the batch in flight commits), and its frames wait for that batch.
 */
/* Whether the rules module the web client loads (/wasm/rules.wasm) is there to serve. */
static bool wasm_present(const struct config *cfg)
{
	char path[sizeof(cfg->wasm_dir) + 16];

	snprintf(path, sizeof(path), "%s/rules.wasm", cfg->wasm_dir);
	return access(path, R_OK) == 0;
}

/*
 * What one loop turn carried, for the tail's sake: its wall time from the end
 * of the wait for I/O (libuv's idle time, UV_METRICS_IDLE_TIME, taken out of
 * the time since the last turn's end) to this end, and the messages it read
 * and the frames it queued. Turns that did nothing (a timer that found
 * nothing to do) are counted too: the histograms' low buckets.
 */
static void turn_observe(struct server *srv)
{
	struct metrics *m = &srv->metrics;
	uint64_t now = util_mono_ns(), idle = uv_metrics_idle_time(&srv->loop), wall, waited, busy;

	if (srv->turn_end_ns) {
		wall = now - srv->turn_end_ns;
		waited = idle - srv->turn_idle_ns;
		busy = wall > waited ? wall - waited : 0;
		metrics_observe(&m->turn_busy, busy);
		metrics_window_put(&m->turn_busy_max, (double)busy / 1e9, now);
		metrics_count(&m->turn_in, m->messages_in - srv->turn_msgs_in);
		metrics_count(&m->turn_out, m->messages_out - srv->turn_msgs_out);
		metrics_window_put(&m->turn_in_max, (double)(m->messages_in - srv->turn_msgs_in), now);
	}
	srv->turn_end_ns = now;
	srv->turn_idle_ns = idle;
	srv->turn_msgs_in = m->messages_in;
	srv->turn_msgs_out = m->messages_out;
}

static void turn_end_cb(uv_prepare_t *p)
{
	struct server *srv = p->data;
	uint64_t flushed = store_journal_turn(srv->store), cpu;

	net_turn_end(srv->net, flushed, store_journal_needed(srv->store));
	cpu = util_thread_cpu_ns(); /* the turn's CPU: this end to the next, the wait for I/O between costs
				       none */
	if (srv->turn_cpu_ns && cpu >= srv->turn_cpu_ns)
		metrics_observe(&srv->metrics.loop_turn, cpu - srv->turn_cpu_ns);
	srv->turn_cpu_ns = cpu;
	turn_observe(srv);
}

/*
 * Cluster mode: this node's lease was taken over (or could not be renewed in
 * time), or its writer was fenced: another node owns its rooms, or may at any
 * moment. It stops at once: no frame held for a write is sent, nothing is
 * flushed, no atexit handler runs; systemd or the cluster script starts it
 * again, empty, with a new epoch (docs/SCALING.md, docs/OPERATIONS.md).
 */
static void fenced_exit(const struct server *srv, const char *why)
{
	util_log(LOG_ERROR, "node %s: %s; stopping at once, writing nothing more (exit status %d)",
		 srv->cfg->node, why, SERVER_EXIT_FENCED);
	_exit(SERVER_EXIT_FENCED);
}

static void lease_cb(void *ctx, enum store_lease_event ev, const char *node)
{
	struct server *srv = ctx;

	if (ev == STORE_LEASE_LOST)
		fenced_exit(srv, "its lease is lost");
	else if (!srv->stopping)
		(void)lobby_adopt(srv->lobby, node); /* logged there; what could be read is restored */
}

static void committed_cb(void *ctx, uint64_t batch, int err)
{
	struct server *srv = ctx;

	if (err == STORE_E_FENCED) /* before anything a client could see */
		fenced_exit(srv, "its journal was fenced: another node took its rooms over");
	net_committed(srv->net, batch, err);
	if (err && !srv->told_failing) { /* their held states wait: say why, once */
		srv->told_failing = true;
		util_log(LOG_ERROR,
			 "journal: the database cannot be written (%s); play pauses, changes are refused "
			 "until it can",
			 store_failure_text(err));
		net_notice(
			srv->net, WIRE_E_UNAVAILABLE,
			"the server cannot save to its database right now: play pauses and resumes by itself "
			"when it can");
	} else if (!err && srv->told_failing) {
		srv->told_failing = false;
		util_log(LOG_INFO, "journal: the database takes writes again; play resumes");
	}
}

static void reaper_cb(uv_check_t *c)
{
	struct server *srv = c->data;

	net_reap(srv->net);
}

static void housekeeping_cb(uv_timer_t *t)
{
	struct server *srv = t->data;

	lobby_housekeep(srv->lobby, util_now_ms());
	lobby_forfeit_abandoned(srv->lobby, util_now_ms());
	lobby_players_housekeep(srv->lobby, util_now_ms());
}

static void stop(struct server *srv)
{
	if (srv->stopping)
		return;
	srv->stopping = true;
	util_log(LOG_INFO, "shutting down");
	uv_close((uv_handle_t *)&srv->sigint, NULL);
	uv_close((uv_handle_t *)&srv->sigterm, NULL);
	uv_close((uv_handle_t *)&srv->housekeeping, NULL);
	uv_close((uv_handle_t *)&srv->drain_timer, NULL);
	uv_close((uv_handle_t *)&srv->turn, NULL);
	net_stop(srv->net); /* closes every connection; they are freed later */
	if (srv->lobby)
		lobby_close(srv->lobby);
	cluster_stop(srv->cluster); /* after the rooms: closing at shutdown is not leaving the directory */
	/*
	 * The last turn's writes are flushed here, as a turn's end does, and not by store_close():
	 * the connections must know the batch before its commit is delivered (net_committed).
	 */
	/* no password hash after this: every one queued or running is answered now */
	pwhash_free(srv->pwhash);
	srv->pwhash = NULL;
	net_set_pwhash(srv->net, NULL);
	net_turn_end(srv->net, store_journal_flush(srv->store), store_journal_needed(srv->store));
	store_close(srv->store); /* writes everything queued and delivers the commits */
	srv->store = NULL;
}

/* While draining: stops once every WebSocket has closed, or at the deadline. */
static void drain_tick_cb(uv_timer_t *t)
{
	struct server *srv = t->data;

	if (net_connections(srv->net) > 0 && uv_now(&srv->loop) < srv->drain_deadline)
		return;
	if (net_connections(srv->net) > 0 && !srv->drain_last) {
		/* what is still held waits for a journal that cannot write: never shown, it goes, and the
		 * close frames (1012) go out in the next moment instead of the connections being cut */
		util_log(LOG_WARN, "shutdown: %ld connections still open after %d s; closing them",
			 net_connections(srv->net), srv->cfg->shutdown_timeout_s);
		srv->drain_last = true;
		srv->drain_deadline = uv_now(&srv->loop) + 500;
		net_drop_held(srv->net);
		return;
	}
	stop(srv);
}

static void signal_cb(uv_signal_t *h, int signum)
{
	struct server *srv = h->data;

	if (srv->draining || srv->cfg->shutdown_timeout_s <= 0 ||
	    uv_timer_start(&srv->drain_timer, drain_tick_cb, 20, 20)) {
		stop(srv);
		return;
	}
	srv->draining = true;
	srv->drain_deadline = uv_now(&srv->loop) + (uint64_t)srv->cfg->shutdown_timeout_s * 1000;
	util_log(LOG_INFO, "%s: stopping; telling %ld connections the server restarts (1012), %d s at most",
		 signum == SIGINT ? "SIGINT" : "SIGTERM", net_connections(srv->net),
		 srv->cfg->shutdown_timeout_s);
	net_drain(srv->net); /* /readyz says "stopping" from now on */
}

static int handles_init(struct server *srv)
{
	int err = uv_prepare_init(&srv->loop, &srv->turn) || uv_check_init(&srv->loop, &srv->reaper) ||
		  uv_timer_init(&srv->loop, &srv->housekeeping) ||
		  uv_timer_init(&srv->loop, &srv->drain_timer) || uv_signal_init(&srv->loop, &srv->sigint) ||
		  uv_signal_init(&srv->loop, &srv->sigterm);

	if (err)
		return -EIO;
	srv->turn.data = srv->reaper.data = srv->housekeeping.data = srv->drain_timer.data = srv;
	srv->sigint.data = srv->sigterm.data = srv;
	uv_unref((uv_handle_t *)&srv->turn);
	uv_unref((uv_handle_t *)&srv->reaper);
	/* These fail only on a misused handle; a server without its turn end or signals must not run. */
	err = uv_prepare_start(&srv->turn, turn_end_cb);
	if (!err)
		err = uv_check_start(&srv->reaper, reaper_cb);
	if (!err)
		err = uv_timer_start(&srv->housekeeping, housekeeping_cb, 5000, 5000);
	if (!err)
		err = uv_signal_start(&srv->sigint, signal_cb, SIGINT);
	if (!err)
		err = uv_signal_start(&srv->sigterm, signal_cb, SIGTERM);
	if (err) {
		util_log(LOG_ERROR, "server: cannot start its loop handles: %s", uv_strerror(err));
		return err;
	}
	return 0;
}

/* Runs the loop until every handle has closed, then frees what is left. 0 or UV_EBUSY (handles left open). */
static int drain(struct server *srv)
{
	int err;

	uv_run(&srv->loop, UV_RUN_DEFAULT);
	uv_close((uv_handle_t *)&srv->reaper, NULL);
	uv_run(&srv->loop, UV_RUN_DEFAULT);
	net_free(srv->net); /* the connections closed last, then the module */
	srv->net = NULL;
	lobby_free(srv->lobby);
	srv->lobby = NULL;
	cluster_free(srv->cluster); /* last: the lobby and the handlers no longer ask it */
	srv->cluster = NULL;
	buf_pool_trim(); /* every frame is freed by now: the pool's are the last */
	err = uv_loop_close(&srv->loop);
	if (err)
		util_log(LOG_WARN, "loop closed with handles open: %s", uv_strerror(err));
	return err;
}

/*
 * The modules, wired, without the store: the port is taken before the
 * database is opened (store_attach). 0 or a negative errno.
 */
static int modules_init(struct server *srv)
{
	int err;

	err = lobby_new(&srv->loop, NULL, srv->cfg, &srv->metrics, net_send_cb, &srv->lobby);
	if (err)
		return err;
	/* a node of a cluster (docs/SCALING.md); NULL for a single server. Connects at cluster_start(). */
	err = cluster_new(&srv->loop, srv->cfg, &srv->metrics, &srv->cluster);
	if (err)
		return err;
	lobby_set_cluster(srv->lobby, srv->cluster); /* before the restore: restored rooms are announced */
	srv->net = net_new(srv->cfg, srv->lobby, &srv->metrics);
	if (!srv->net)
		return -ENOMEM;
	return handles_init(srv);
}

/* Opens (and migrates) the database and hands it to the modules; nothing is read from the journal yet. */
static int store_attach(struct server *srv)
{
	const struct config *cfg = srv->cfg;

	if (!strcmp(cfg->store, "postgres")
		    ? store_open_pg(&srv->loop, cfg->postgres, cfg->migrations_dir, &srv->store)
		    : store_open(&srv->loop, cfg->db_path, cfg->migrations_dir, &srv->store))
		return -EIO;
	lobby_set_store(srv->lobby, srv->store);
	net_set_store(srv->net, srv->store);
	/* sodium_init() and the dummy hash (one hash's time: tens of ms) */
	if (pwhash_new(&srv->loop, (unsigned)cfg->pwhash_threads, (size_t)cfg->pwhash_queue,
		       (unsigned long long)cfg->pwhash_ops, (size_t)cfg->pwhash_mem_kib, &srv->pwhash)) {
		util_log(LOG_ERROR, "accounts: cannot start the password hashing (libsodium)");
		return -EIO;
	}
	net_set_pwhash(srv->net, srv->pwhash);
	store_on_commit(srv->store, committed_cb, srv);
	return 0;
}

int server_run(const struct config *cfg)
{
	static struct server srv; /* large; one per process */
	int err;

	char why[1400];

	srv.cfg = cfg;
	/* Before anything else: a second server on this database must not listen, migrate or restore.
	 * PostgreSQL is shared by the nodes of a cluster: there, node leases keep each room to one node. */
	srv.dblock.fd = -1;
	err = strcmp(cfg->store, "sqlite") ? 0 : dblock_take(&srv.dblock, cfg, why, sizeof(why));
	if (err) {
		util_log(LOG_ERROR, "%s: %s; one database, one server: not starting", cfg->db_path, why);
		return err;
	}
	err = uv_loop_init(&srv.loop);
	if (err) {
		dblock_release(&srv.dblock);
		return err;
	}
	/* the loop's time waiting for I/O, for each turn's busy time (turn_observe); an old libuv without it
	 * counts the wait as busy, which the metric's help cannot say: log it */
	if (uv_loop_configure(&srv.loop, UV_METRICS_IDLE_TIME))
		util_log(LOG_WARN,
			 "libuv cannot measure its idle time: quinteto_event_loop_turn_busy_seconds "
			 "counts the waits too");
	err = modules_init(&srv);
	/* The port first: a server that cannot listen must not open, migrate or restore a database
	 * that another server may be using. Nothing reaches the handlers before the loop runs. */
	if (!err)
		err = net_start(srv.net, &srv.loop);
	if (!err)
		err = store_attach(&srv);
	/* a node's lease before its rooms are read: from now on a node that takes this name again fences
	 * this one, and this one loads only its own rooms (docs/SCALING.md) */
	if (!err && cfg->node[0] && (err = store_lease_take(srv.store, cfg->node, cfg->node_lease_ms)))
		util_log(LOG_ERROR, "node %s: cannot take its lease: %s", cfg->node, store_strerror(err));
	if (!err && (err = lobby_restore(srv.lobby)))
		util_log(LOG_ERROR, "cannot resume the rooms journalled in %s", cfg->db_path);
	if (!err && store_start(srv.store))
		err = -EIO;
	if (!err) /* after the restore: the node registers with the rooms it hosts */
		err = cluster_start(srv.cluster);
	if (!err && cfg->node[0])
		store_lease_watch(srv.store, lease_cb, &srv);
	if (err) {
		stop(&srv);
		drain(&srv);
		dblock_release(&srv.dblock);
		return err < 0 ? err : -EIO;
	}
	util_log(LOG_INFO, "quinteto-server %s, database %s, web %s", QUINTETO_VERSION, cfg->db_path,
		 cfg->web_dir);
	if (!wasm_present(cfg))
		util_log(LOG_WARN,
			 "no %s/rules.wasm: the web client's replays, analysis board and move previews need "
			 "it "
			 "(build with clang and lld installed, or set wasm)",
			 cfg->wasm_dir);
	net_print_listening(srv.net);
	err = drain(&srv);
	dblock_release(&srv.dblock); /* after the database is closed */
	util_log(LOG_INFO, "stopped");
	return err;
}
