/*
 * test_room_bots.c: the bot workers (server/room/room_bots.c) without a room:
 * a job's answer comes back to the loop (and, its room gone, is dropped and
 * counted); the time limit stops a search that would run on; the waiting
 * queue is bounded (-EAGAIN past ROOM_BOTS_QUEUE); a cancelled job stops
 * its search at once instead of at its deadline; shutdown with a search
 * running and a full queue stops it, joins the workers and frees every job
 * (ASan/LSan: nothing leaks, nothing is touched after).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "room/room_int.h"
#include "tap.h"

static uv_loop_t loop;
static struct metrics metrics;
static atomic_int entered;

static void nap_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	nanosleep(&ts, NULL);
}

/* A search that never finishes by itself: it runs until its stop callback says so. */
static int endless_choose(const struct rules_match *m, int seat, struct bot_ctx *ctx,
			  struct rules_action *out)
{
	atomic_fetch_add(&entered, 1);
	while (!ctx->stop || !ctx->stop(ctx->stop_arg))
		nap_ms(1);
	return rules_legal_actions(m, seat, out, 1) > 0 ? 0 : -ENOENT;
}

static const struct bot_strategy endless = { NULL, "endless", endless_choose };

static struct room_bot_job *job_new(void)
{
	static const uint8_t seed[RULES_SEED_SIZE] = { 1 };
	struct room_bot_job *j = calloc(1, sizeof(*j));

	if (!j)
		abort();
	if (rules_match_start(&j->match, rules_game_find("ur"), seed, NULL))
		abort();
	j->strategy = &endless;
	j->ctx.rng = 7;
	return j; /* room NULL: a job whose room is gone */
}

static struct room_bots *pool_new(int move_ms)
{
	static struct config cfg;
	struct room_bots *b;

	memset(&cfg, 0, sizeof(cfg));
	cfg.bot_threads = 1;
	cfg.bot_move_ms = move_ms;
	if (room_bots_new(&loop, &cfg, &metrics, &b))
		abort();
	return b;
}

static void pool_end(struct room_bots *b)
{
	room_bots_stop(b);
	uv_run(&loop, UV_RUN_DEFAULT); /* the async handle's close */
	room_bots_free(b);
}

static void alive_cb(uv_timer_t *t)
{
	(void)t;
}

/* The time limit stops the search; the answer comes back to the loop and, without a room, is dropped. */
static void test_answer_dropped(void)
{
	struct room_bots *b = pool_new(20);
	size_t queued, running;
	int i;

	uv_timer_t alive; /* the pool's async handle is unreferenced: something must keep the loop alive */

	memset(&metrics, 0, sizeof(metrics));
	REQUIRE(uv_timer_init(&loop, &alive) == 0);
	REQUIRE(uv_timer_start(&alive, alive_cb, 600000, 0) == 0);
	CHECK_EQ(room_bots_submit(b, job_new()), 0);
	for (i = 0; i < 5000 && metrics.bot_stale == 0; i++) {
		nap_ms(2);
		uv_run(&loop, UV_RUN_NOWAIT);
	}
	uv_close((uv_handle_t *)&alive, NULL);
	CHECK_EQ(metrics.bot_jobs, 1);
	CHECK_EQ(metrics.bot_stale, 1);
	CHECK_EQ(metrics.bot_think.count, 1);
	CHECK(metrics.bot_think.sum_s >= 0.020); /* it ran until its deadline, not less */
	room_bots_counts(b, &queued, &running);
	CHECK_EQ(queued + running, 0);
	pool_end(b);
}

/* One search runs on; the queue takes ROOM_BOTS_QUEUE more and refuses the next; shutdown frees them all. */
static void test_bound_and_shutdown(void)
{
	struct room_bots *b = pool_new(600000);
	struct room_bot_job *extra = job_new();
	size_t queued, running;
	int i, refused = 0;

	memset(&metrics, 0, sizeof(metrics));
	atomic_store(&entered, 0);
	REQUIRE(room_bots_submit(b, job_new()) == 0);
	for (i = 0; i < 5000 && !atomic_load(&entered); i++)
		nap_ms(1);
	REQUIRE(atomic_load(&entered) == 1);
	for (i = 0; i < ROOM_BOTS_QUEUE; i++) {
		struct room_bot_job *j = job_new();

		if (room_bots_submit(b, j)) {
			free(j);
			refused++;
		}
	}
	CHECK_EQ(refused, 0);
	CHECK_EQ(room_bots_submit(b, extra), -EAGAIN); /* full: the caller keeps it */
	free(extra);
	room_bots_counts(b, &queued, &running);
	CHECK_EQ(queued, ROOM_BOTS_QUEUE);
	CHECK_EQ(running, 1);
	pool_end(b); /* the endless search stops, the worker is joined, 1,025 jobs are freed */
	CHECK_EQ(atomic_load(&entered), 1); /* none of the waiting jobs was started at shutdown */
	CHECK_EQ(metrics.bot_jobs, 1 + ROOM_BOTS_QUEUE);
}

/* A cancelled job (its room's position moved) stops its search long before its deadline of ten minutes. */
static void test_cancel(void)
{
	struct room_bots *b = pool_new(600000);
	struct room_bot_job *j = job_new();
	uv_timer_t alive;
	int i;

	memset(&metrics, 0, sizeof(metrics));
	atomic_store(&entered, 0);
	REQUIRE(uv_timer_init(&loop, &alive) == 0);
	REQUIRE(uv_timer_start(&alive, alive_cb, 600000, 0) == 0);
	REQUIRE(room_bots_submit(b, j) == 0);
	for (i = 0; i < 5000 && !atomic_load(&entered); i++)
		nap_ms(1);
	REQUIRE(atomic_load(&entered) == 1);
	atomic_store(&j->cancel, true); /* what room_bot_cancel() does on the loop; the pool frees j after */
	for (i = 0; i < 5000 && metrics.bot_stale == 0; i++) {
		nap_ms(2);
		uv_run(&loop, UV_RUN_NOWAIT);
	}
	uv_close((uv_handle_t *)&alive, NULL);
	CHECK_EQ(metrics.bot_stale, 1); /* answered (and dropped: no room) within seconds, not ten minutes */
	CHECK(metrics.bot_think.sum_s < 60);
	pool_end(b);
}

int main(void)
{
	if (uv_loop_init(&loop))
		return 1;
	TEST(test_answer_dropped);
	TEST(test_bound_and_shutdown);
	TEST(test_cancel);
	CHECK_EQ(uv_loop_close(&loop), 0);
	return tap_done();
}
