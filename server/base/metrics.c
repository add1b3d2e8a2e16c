/*
 * metrics.c: Prometheus text exposition of the server's counters and gauges.
 * Rendering is O(metrics), not O(rooms) or O(connections): gauges are kept as
 * counts by the modules that own them.
 */
#include "base/metrics.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "wire.h"

static const double bucket_s[METRICS_BUCKETS] = {
	0.00005, 0.0001, 0.00025, 0.0005, 0.001, 0.002, 0.005, 0.01, 0.05, 0.25, 1, 5,
};
/* The same bounds in nanoseconds: an observation is a few integer comparisons (one a frame, written). */
static const uint64_t bucket_ns[METRICS_BUCKETS] = {
	50000,   100000,   250000,   500000,    1000000,    2000000,
	5000000, 10000000, 50000000, 250000000, 1000000000, 5000000000,
};

void metrics_observe(struct metrics_hist *h, uint64_t ns)
{
	int i = 0;

	while (i < METRICS_BUCKETS && ns > bucket_ns[i])
		i++;
	if (i < METRICS_BUCKETS)
		h->in[i]++; /* the first bucket it fits; render_histogram() sums them up */
	h->count++;
	h->sum_s += (double)ns / 1e9;
}

void metrics_count(struct metrics_count_hist *h, uint64_t n)
{
	int i = 0;

	while (i < METRICS_COUNT_BUCKETS && n > (uint64_t)1 << i)
		i++;
	if (i < METRICS_COUNT_BUCKETS)
		h->in[i]++;
	h->count++;
	h->sum += n;
}

void metrics_window_put(struct metrics_window_max *w, double v, uint64_t now_ns)
{
	uint64_t slot = now_ns / METRICS_LAG_SLOT_NS + 1;
	int i = (int)(slot % METRICS_LAG_SLOTS);

	if (w->slot[i] != slot) { /* a slot a minute old, or never used: starts over */
		w->slot[i] = slot;
		w->max[i] = 0;
	}
	if (v > w->max[i])
		w->max[i] = v;
}

double metrics_window_get(const struct metrics_window_max *w, uint64_t now_ns)
{
	uint64_t slot = now_ns / METRICS_LAG_SLOT_NS + 1;
	double max = 0;
	int i;

	for (i = 0; i < METRICS_LAG_SLOTS; i++)
		if (w->slot[i] && w->slot[i] + METRICS_LAG_SLOTS > slot && w->max[i] > max)
			max = w->max[i];
	return max;
}

void metrics_lag(struct metrics *m, uint64_t late_ns, uint64_t now_ns)
{
	uint64_t slot = now_ns / METRICS_LAG_SLOT_NS + 1;
	int i = (int)(slot % METRICS_LAG_SLOTS);
	double s = (double)late_ns / 1e9;

	metrics_observe(&m->loop_lag, late_ns);
	if (m->lag_slot[i] != slot) { /* a slot a minute old, or never used: starts over */
		m->lag_slot[i] = slot;
		m->lag_max_s[i] = 0;
	}
	if (s > m->lag_max_s[i])
		m->lag_max_s[i] = s;
}

double metrics_lag_max(const struct metrics *m, uint64_t now_ns)
{
	uint64_t slot = now_ns / METRICS_LAG_SLOT_NS + 1;
	double max = 0;
	int i;

	for (i = 0; i < METRICS_LAG_SLOTS; i++)
		if (m->lag_slot[i] && m->lag_slot[i] + METRICS_LAG_SLOTS > slot && m->lag_max_s[i] > max)
			max = m->lag_max_s[i];
	return max;
}

struct out {
	char *p;
	size_t len, cap;
	int failed;
};

static void emit(struct out *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void emit(struct out *o, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (o->failed)
		return;
	for (;;) {
		va_start(ap, fmt);
		n = vsnprintf(o->p + o->len, o->cap - o->len, fmt, ap);
		va_end(ap);
		if (n < 0) {
			o->failed = 1;
			return;
		}
		if ((size_t)n < o->cap - o->len) {
			o->len += (size_t)n;
			return;
		}
		char *np = realloc(o->p, o->cap * 2 + (size_t)n);

		if (!np) {
			o->failed = 1;
			return;
		}
		o->p = np;
		o->cap = o->cap * 2 + (size_t)n;
	}
}

static void counter(struct out *o, const char *name, const char *help, uint64_t v)
{
	emit(o, "# HELP %s %s\n# TYPE %s counter\n%s %llu\n", name, help, name, name, (unsigned long long)v);
}

static void gauge(struct out *o, const char *name, const char *help, double v)
{
	emit(o, "# HELP %s %s\n# TYPE %s gauge\n%s %.17g\n", name, help, name, name, v);
}

_Static_assert(WIRE_E_COUNT <= sizeof(((struct metrics *)0)->errors) / sizeof(uint64_t),
	       "a counter per wire error code");

static void render_errors(struct out *o, const struct metrics *m)
{
	int i;

	emit(o, "# HELP quinteto_errors_total Error replies sent, by protocol code.\n"
		"# TYPE quinteto_errors_total counter\n");
	for (i = WIRE_E_BAD_JSON; i > WIRE_E_END_; i--)
		emit(o, "quinteto_errors_total{code=\"%s\"} %llu\n", wire_error_code(i),
		     (unsigned long long)m->errors[wire_error_index(i)]);
}

static void render_histogram(struct out *o, const char *name, const char *help, const struct metrics_hist *h)
{
	uint64_t le = 0;
	int i;

	emit(o, "# HELP %s %s\n# TYPE %s histogram\n", name, help, name);
	for (i = 0; i < METRICS_BUCKETS; i++) {
		le += h->in[i];
		emit(o, "%s_bucket{le=\"%g\"} %llu\n", name, bucket_s[i], (unsigned long long)le);
	}
	emit(o, "%s_bucket{le=\"+Inf\"} %llu\n%s_sum %.9f\n%s_count %llu\n", name,
	     (unsigned long long)h->count, name, h->sum_s, name, (unsigned long long)h->count);
}

static void render_counts(struct out *o, const char *name, const char *help,
			  const struct metrics_count_hist *h)
{
	uint64_t le = 0;
	int i;

	emit(o, "# HELP %s %s\n# TYPE %s histogram\n", name, help, name);
	for (i = 0; i < METRICS_COUNT_BUCKETS; i++) {
		le += h->in[i];
		emit(o, "%s_bucket{le=\"%llu\"} %llu\n", name, 1ull << i, (unsigned long long)le);
	}
	emit(o, "%s_bucket{le=\"+Inf\"} %llu\n%s_sum %llu\n%s_count %llu\n", name,
	     (unsigned long long)h->count, name, (unsigned long long)h->sum, name,
	     (unsigned long long)h->count);
}

/* Where an action's time goes on the server's side: the loop's turns and the frames' queues. */
static void render_turns(struct out *o, const struct metrics *m, uint64_t now_ns)
{
	render_histogram(o, "quinteto_event_loop_turn_busy_seconds",
			 "Wall time of one loop turn's work, from the end of its wait for I/O to its end "
			 "(waiting for a core included, unlike the turn's CPU time).",
			 &m->turn_busy);
	render_counts(o, "quinteto_event_loop_turn_messages", "WebSocket messages received in one loop turn.",
		      &m->turn_in);
	render_counts(o, "quinteto_event_loop_turn_frames_queued",
		      "Frames queued for connections in one loop turn (each recipient counted).",
		      &m->turn_out);
	gauge(o, "quinteto_event_loop_turn_messages_max",
	      "The most WebSocket messages one loop turn received, over the last minute.",
	      metrics_window_get(&m->turn_in_max, now_ns));
	gauge(o, "quinteto_event_loop_turn_busy_max_seconds",
	      "The longest loop turn's work (wall time), over the last minute.",
	      metrics_window_get(&m->turn_busy_max, now_ns));
	render_histogram(o, "quinteto_reply_released_seconds",
			 "From a WebSocket message's arrival to the first frame queued while it was handled "
			 "(an act's own state) released by its journal batch's commit.",
			 &m->reply_released);
	render_histogram(o, "quinteto_reply_write_seconds",
			 "From a WebSocket message's arrival to the first frame queued after it on that "
			 "connection written to its socket (an act's own state).",
			 &m->reply_write);
}

static void render_gauges(struct out *o, const struct metrics_gauges *g)
{
	gauge(o, "quinteto_connections", "Open WebSocket connections.", (double)g->connections);
	gauge(o, "quinteto_rooms", "Live rooms.", (double)g->rooms);
	gauge(o, "quinteto_players_known",
	      "Player identities in memory: connected, seated, or waiting for their save to commit.",
	      (double)g->players);
	gauge(o, "quinteto_frames_alive", "Outbound frames referenced by write queues.",
	      (double)g->frames_alive);
	gauge(o, "quinteto_frames_held", "Frames held until the journal commits.", (double)g->frames_held);
	gauge(o, "quinteto_store_queue", "Jobs waiting for the database thread.", (double)g->store_queue);
	gauge(o, "quinteto_archive_reads", "Archive reads queued or running (at most --archive-reads).",
	      (double)g->archive_reads);
	gauge(o, "quinteto_hello_reads_waiting", "Hellos waiting for the store's read of their token.",
	      (double)g->hello_reads);
	gauge(o, "quinteto_bot_jobs_queued", "Bot moves waiting for a worker thread.", (double)g->bot_queued);
	gauge(o, "quinteto_bot_jobs_running", "Bot moves being thought about on a worker thread.",
	      (double)g->bot_running);
	gauge(o, "quinteto_journal_failing", "1 while journal writes fail (and are retried).",
	      (double)g->journal_failing);
	gauge(o, "quinteto_uptime_seconds", "Seconds since start.", g->uptime_s);
	emit(o,
	     "# HELP quinteto_checkpoints_total WAL checkpoints: by the checkpoint thread, or by the writer "
	     "to "
	     "let the WAL start over.\n# TYPE quinteto_checkpoints_total counter\n"
	     "quinteto_checkpoints_total{by=\"checkpointer\"} %lu\nquinteto_checkpoints_total{by=\"writer\"} "
	     "%lu\n",
	     g->checkpoints[0], g->checkpoints[1]);
}

/* A node of a cluster (docs/SCALING.md): its Redis side. A single server has none of these. */
static void render_cluster(struct out *o, const struct metrics *m, const struct metrics_gauges *g)
{
	if (!g->cluster)
		return;
	gauge(o, "quinteto_redis_up",
	      "1 while Redis answers; 0: the directory and the other nodes' lobby are served as last known.",
	      g->redis_up ? 1 : 0);
	gauge(o, "quinteto_cluster_directory_rooms", "Rooms in the directory as this node's mirror knows it.",
	      (double)g->directory);
	gauge(o, "quinteto_cluster_nodes_alive", "Nodes with a live registration, this one included.",
	      (double)g->nodes_alive);
	counter(o, "quinteto_redis_reconnects_total", "Connections to Redis made again after one was lost.",
		m->redis_reconnects);
	counter(o, "quinteto_redis_publications_total", "Publications of this node's lobby summaries.",
		m->redis_publications);
}

static void render_rooms(struct out *o, const struct metrics_gauges *g)
{
	static const char *const status[3] = { "waiting", "playing", "finished" };
	int i, k;

	if (!g->rooms_by_game)
		return;
	emit(o, "# HELP quinteto_rooms_by_status Live rooms, by game and status.\n"
		"# TYPE quinteto_rooms_by_status gauge\n");
	for (i = 0; i < g->n_games; i++)
		for (k = 0; k < 3; k++)
			emit(o, "quinteto_rooms_by_status{game=\"%s\",status=\"%s\"} %zu\n",
			     g->rooms_by_game[i].game, status[k], g->rooms_by_game[i].by_status[k]);
}

char *metrics_render(const struct metrics *m, const struct metrics_gauges *g, size_t *len)
{
	struct out o = { malloc(4096), 0, 4096, 0 };

	if (!o.p)
		return NULL;
	render_gauges(&o, g);
	render_rooms(&o, g);
	render_cluster(&o, m, g);
	counter(&o, "quinteto_ws_opened_total", "WebSocket connections accepted.", m->ws_opened);
	counter(&o, "quinteto_ws_closed_total", "WebSocket connections closed.", m->ws_closed);
	counter(&o, "quinteto_http_requests_total", "HTTP API requests.", m->http_requests);
	counter(&o, "quinteto_messages_in_total", "Client messages received.", m->messages_in);
	counter(&o, "quinteto_messages_out_total", "Server messages queued.", m->messages_out);
	counter(&o, "quinteto_bytes_out_total", "Bytes of server messages written.", m->bytes_out);
	counter(&o, "quinteto_actions_total", "Actions accepted (humans and bots).", m->actions);
	counter(&o, "quinteto_bot_actions_total", "Actions played by bots.", m->bot_actions);
	counter(&o, "quinteto_bot_jobs_total", "Bot moves handed to a worker thread.", m->bot_jobs);
	counter(&o, "quinteto_bot_stale_total",
		"Bot answers dropped: the room ended or closed, or its position moved on while it thought.",
		m->bot_stale);
	counter(&o, "quinteto_bot_queue_full_total",
		"Bot moves not handed over (the workers' queue was full), asked again later.",
		m->bot_queue_full);
	counter(&o, "quinteto_matches_started_total", "Matches started.", m->matches_started);
	counter(&o, "quinteto_matches_finished_total", "Matches finished.", m->matches_finished);
	counter(&o, "quinteto_archive_writes_total", "Matches written to the archive.", m->archive_ok);
	counter(&o, "quinteto_archive_failures_total", "Archive writes that failed.", m->archive_failed);
	counter(&o, "quinteto_players_created_total", "New player identities.", m->players_created);
	counter(&o, "quinteto_slow_consumers_dropped_total", "Connections dropped for a full write queue.",
		m->slow_dropped);
	counter(&o, "quinteto_rate_limited_total", "Messages answered rate_limited.", m->rate_limited);
	counter(&o, "quinteto_closed_too_large_total", "Connections closed 1009.", m->closed_too_large);
	counter(&o, "quinteto_closed_binary_total", "Connections closed 1003.", m->closed_binary);
	counter(&o, "quinteto_http_busy_total", "HTTP answers refused 503 for the unread-body budget.",
		m->http_busy);
	counter(&o, "quinteto_http_reads_refused_total",
		"Archive requests refused 503 busy: the reader's queue was full (all, or for the address).",
		m->http_reads_refused);
	counter(&o, "quinteto_archive_reads_dropped_total",
		"Archive reads dropped unrun or stopped: their client hung up first.",
		m->archive_reads_dropped);
	counter(&o, "quinteto_closed_no_hello_total", "WebSockets closed for saying no hello in time.",
		m->closed_no_hello);
	render_errors(&o, m);
	emit(&o,
	     "# HELP quinteto_connections_refused_total Connections closed as soon as accepted, by reason.\n"
	     "# TYPE quinteto_connections_refused_total counter\n"
	     "quinteto_connections_refused_total{reason=\"cap\"} %llu\n"
	     "quinteto_connections_refused_total{reason=\"addr\"} %llu\n",
	     (unsigned long long)m->refused_cap, (unsigned long long)m->refused_addr);
	counter(&o, "quinteto_origin_refused_total", "WebSocket upgrades refused for their Origin (403).",
		m->refused_origin);
	counter(&o, "quinteto_metrics_unauthorized_total",
		"/metrics requests refused without the token (401).", m->refused_token);
	counter(&o, "quinteto_metrics_forbidden_total",
		"/metrics requests refused from an address not in metrics_from (403).",
		m->refused_metrics_from);
	counter(&o, "quinteto_tls_reloads_total", "Certificates reloaded on SIGHUP.", m->tls_reloads);
	counter(&o, "quinteto_tls_reload_failures_total", "SIGHUP reloads that kept the old certificate.",
		m->tls_reload_failed);
	counter(&o, "quinteto_journal_refused_total", "Requests refused while the journal was failing.",
		m->journal_refused);
	emit(&o,
	     "# HELP quinteto_limit_refused_total Requests refused by a per-player or per-address limit.\n"
	     "# TYPE quinteto_limit_refused_total counter\n"
	     "quinteto_limit_refused_total{limit=\"player_live_rooms\"} %llu\n"
	     "quinteto_limit_refused_total{limit=\"addr_live_rooms\"} %llu\n"
	     "quinteto_limit_refused_total{limit=\"addr_matches_hour\"} %llu\n"
	     "quinteto_limit_refused_total{limit=\"addr_new_players\"} %llu\n",
	     (unsigned long long)m->refused_rooms_player, (unsigned long long)m->refused_rooms_addr,
	     (unsigned long long)m->refused_rooms_hour, (unsigned long long)m->refused_players_addr);
	emit(&o,
	     "# HELP quinteto_sign_ins_total sign_in requests answered, by result.\n"
	     "# TYPE quinteto_sign_ins_total counter\n"
	     "quinteto_sign_ins_total{result=\"ok\"} %llu\n"
	     "quinteto_sign_ins_total{result=\"wrong\"} %llu\n"
	     "quinteto_sign_ins_total{result=\"limited\"} %llu\n",
	     (unsigned long long)m->acct_sign_in_ok, (unsigned long long)m->acct_sign_in_wrong,
	     (unsigned long long)m->acct_sign_in_limited);
	counter(&o, "quinteto_claims_total", "Guest identities claimed as accounts.", m->acct_claims);
	counter(&o, "quinteto_sessions_ended_total", "Account sessions ended (signed out, ended, replaced).",
		m->acct_sessions_ended);
	emit(&o,
	     "# HELP quinteto_sessions_revoked_total Connections signed out because their session was ended "
	     "elsewhere, by what found it: the periodic check or another node's word.\n"
	     "# TYPE quinteto_sessions_revoked_total counter\n"
	     "quinteto_sessions_revoked_total{by=\"check\"} %llu\n"
	     "quinteto_sessions_revoked_total{by=\"cluster\"} %llu\n",
	     (unsigned long long)m->acct_revoked_check, (unsigned long long)m->acct_revoked_cluster);
	counter(&o, "quinteto_pwhash_busy_total",
		"Account requests refused busy: the hashing queue was full.", m->acct_busy);
	counter(&o, "quinteto_hello_reads_total",
		"Hellos whose token was not in memory, sent to the store's lookup thread.", m->hello_reads);
	counter(&o, "quinteto_hello_reads_refused_total",
		"Hellos refused (busy, rate_limited) because too many token reads were waiting.",
		m->hello_reads_refused);
	counter(&o, "quinteto_hello_reads_failed_total",
		"Hellos answered unavailable: the store could not read their token.", m->hello_reads_failed);
	counter(&o, "quinteto_hello_reads_dropped_total",
		"Token reads dropped because their connection closed first.", m->hello_reads_dropped);
	counter(&o, "quinteto_hello_reads_expired_total",
		"Hello reads dropped by their hello's own bound: no answer in twice their deadline.",
		m->hello_reads_expired);
	counter(&o, "quinteto_pwhash_done_total", "Password hashes and checks done.", g->pwhash_done);
	gauge(&o, "quinteto_pwhash_queue", "Password hashes waiting for a hashing thread.",
	      (double)g->pwhash_queue);
	render_histogram(&o, "quinteto_move_broadcast_seconds",
			 "From an act's arrival to its state queued for every member.", &m->broadcast);
	render_histogram(&o, "quinteto_journal_commit_seconds",
			 "From a journal batch flushed to committed: what frames held for it wait.",
			 &m->commit);
	render_histogram(&o, "quinteto_archive_write_seconds",
			 "From a match's end to its archive write done (queue and transaction).",
			 &m->archive);
	render_histogram(&o, "quinteto_bot_think_seconds", "A bot worker's time on one move.", &m->bot_think);
	render_histogram(&o, "quinteto_event_loop_lag_seconds",
			 "How late the event loop ran a 100 ms timer: time it spent on other work.",
			 &m->loop_lag);
	render_histogram(&o, "quinteto_event_loop_turn_cpu_seconds",
			 "The event loop thread's CPU time in one turn of the loop (every callback it ran "
			 "between two waits for I/O), unlike the lag unaffected by the machine's other load.",
			 &m->loop_turn);
	gauge(&o, "quinteto_event_loop_lag_max_seconds",
	      "The worst event-loop lag of the last minute (six 10-s slots; a scrape resets nothing).",
	      metrics_lag_max(m, g->now_ns));
	render_turns(&o, m, g->now_ns);
	if (o.failed) {
		free(o.p);
		return NULL;
	}
	*len = o.len;
	return o.p;
}
