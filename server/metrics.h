/*
 * metrics.h: counters and one latency histogram, rendered as Prometheus text
 * for GET /metrics. Plain integers updated on the loop thread; no locking.
 */
#ifndef QUINTETO_METRICS_H
#define QUINTETO_METRICS_H

#include <stddef.h>
#include <stdint.h>

#define METRICS_BUCKETS 10

struct metrics {
	uint64_t ws_opened, ws_closed, http_requests;
	uint64_t messages_in, messages_out, bytes_out;
	uint64_t errors[32];       /* by enum wire_error */
	uint64_t actions, bot_actions, matches_started, matches_finished;
	uint64_t archive_ok, archive_failed, players_created;
	uint64_t slow_dropped, rate_limited, closed_too_large, closed_binary;
	uint64_t broadcast_le[METRICS_BUCKETS]; /* act received -> state queued, by bucket */
	uint64_t broadcast_count;
	double broadcast_sum_s;
};

struct server;

/* Records one move-to-broadcast latency. */
void metrics_observe_broadcast(struct metrics *m, uint64_t ns);

/* Renders every metric as Prometheus text; malloc'd, caller frees. NULL on ENOMEM. */
char *metrics_render(struct server *srv, size_t *len);

#endif
