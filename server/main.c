/*
 * main.c: configuration and the loop, nothing else. We own the uv loop and
 * hand it to lws. SIGINT/SIGTERM stop cleanly: lws is destroyed, every handle
 * closed, the store thread writes what it holds, then the loop is closed.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "config.h"
#include "server.h"
#include "store.h"

static void reaper_cb(uv_check_t *c)
{
	struct server *srv = c->data;

	while (srv->dead_sessions) {
		struct session *s = srv->dead_sessions;

		srv->dead_sessions = s->reap_next;
		session_free(s);
	}
}

static void housekeeping_cb(uv_timer_t *t)
{
	struct server *srv = t->data;
	int64_t now = util_now_ms();
	struct room *r;
	size_t pos = 0;

	while ((r = hmap_next(&srv->rooms, &pos)))
		room_housekeep(r, now); /* may delete r: hmap_del only tombstones, iteration stays valid */
}

/*
 * Ends each loop turn by handing its journal writes to the store as one
 * batch. Stand-in until the durable-broadcast gate (server core) replaces it.
 */
static uv_prepare_t journal_flush;

static void journal_flush_cb(uv_prepare_t *p)
{
	struct server *srv = p->data;

	(void)store_journal_flush(srv->store);
}

static void stop(struct server *srv)
{
	if (srv->stopping)
		return;
	srv->stopping = true;
	util_log(LOG_INFO, "shutting down");
	uv_signal_stop(&srv->sigint);
	uv_signal_stop(&srv->sigterm);
	net_stop(srv); /* closes every connection; sessions are reaped later */
	uv_timer_stop(&srv->housekeeping);
	uv_close((uv_handle_t *)&srv->housekeeping, NULL);
	uv_close((uv_handle_t *)&srv->sigint, NULL);
	uv_close((uv_handle_t *)&srv->sigterm, NULL);
	uv_close((uv_handle_t *)&journal_flush, NULL);
	lobby_close_rooms(srv);
	store_close(srv->store); /* writes everything queued, delivers what is pending */
	srv->store = NULL;
}

static void signal_cb(uv_signal_t *h, int signum)
{
	stop(h->data);
}

/* One descriptor per connection: take every descriptor the hard limit allows. */
static void raise_fd_limit(void)
{
	struct rlimit rl;

	if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < rl.rlim_max) {
		rl.rlim_cur = rl.rlim_max;
		if (setrlimit(RLIMIT_NOFILE, &rl))
			util_log(LOG_WARN, "cannot raise the open file limit: %s", strerror(errno));
	}
}

static void handles_init(struct server *srv)
{
	uv_check_init(srv->loop, &srv->reaper);
	srv->reaper.data = srv;
	uv_check_start(&srv->reaper, reaper_cb);
	uv_unref((uv_handle_t *)&srv->reaper);
	uv_timer_init(srv->loop, &srv->housekeeping);
	srv->housekeeping.data = srv;
	uv_timer_start(&srv->housekeeping, housekeeping_cb, 5000, 5000);
	uv_signal_init(srv->loop, &srv->sigint);
	uv_signal_init(srv->loop, &srv->sigterm);
	srv->sigint.data = srv->sigterm.data = srv;
	uv_signal_start(&srv->sigint, signal_cb, SIGINT);
	uv_signal_start(&srv->sigterm, signal_cb, SIGTERM);
	uv_prepare_init(srv->loop, &journal_flush);
	journal_flush.data = srv;
	uv_prepare_start(&journal_flush, journal_flush_cb);
}

int main(int argc, char **argv)
{
	static struct server srv;
	static uv_loop_t loop;
	int r;

	config_defaults(&srv.cfg);
	r = config_parse(&srv.cfg, argc, argv);
	if (r)
		return r > 0 ? 0 : 2;
	signal(SIGPIPE, SIG_IGN);
	raise_fd_limit();
	uv_loop_init(&loop);
	srv.loop = &loop;
	srv.started_ms = util_now_ms();
	if (store_open(&loop, srv.cfg.db_path, srv.cfg.migrations_dir, &srv.store))
		return 1;
	if (lobby_init(&srv)) {
		util_log(LOG_ERROR, "cannot load players from %s", srv.cfg.db_path);
		return 1;
	}
	if (lobby_restore(&srv) || store_start(srv.store)) {
		util_log(LOG_ERROR, "cannot resume the rooms journalled in %s", srv.cfg.db_path);
		return 1;
	}
	handles_init(&srv);
	if (net_start(&srv)) {
		stop(&srv);
		uv_run(&loop, UV_RUN_DEFAULT);
		uv_loop_close(&loop);
		return 1;
	}
	util_log(LOG_INFO, "quinteto-server %s, database %s, web %s", QUINTETO_VERSION, srv.cfg.db_path,
		 srv.cfg.web_dir);
	printf("listening on http://%s:%d\n", srv.cfg.host, srv.cfg.port);
	fflush(stdout);
	uv_run(&loop, UV_RUN_DEFAULT);
	uv_close((uv_handle_t *)&srv.reaper, NULL);
	uv_run(&loop, UV_RUN_DEFAULT);
	reaper_cb(&srv.reaper);
	lobby_finish(&srv);
	r = uv_loop_close(&loop);
	if (r)
		util_log(LOG_WARN, "loop closed with handles open: %s", uv_strerror(r));
	util_log(LOG_INFO, "stopped");
	return 0;
}
