/*
 * room_bots.c: the bot workers. Every bot's move (every level) is chosen on
 * one of a few worker threads, never on the event loop: the room hands the
 * pool a job (a copy of the match, the seat, the strategy, a random stream and
 * the room's ply and generation), a worker runs bot_choose() on it with its
 * own search arena and a deadline on CLOCK_MONOTONIC (bot_move_ms), and the
 * answer comes back to the loop through a uv_async_t, where the room applies
 * it as the seat's action (room_bot_answer) unless it went stale.
 *
 * What the threads share is the two queues (waiting jobs, done jobs) under one
 * mutex, and an atomic stop flag; nothing else. A worker touches only its job's
 * own fields (match, seat, strategy, ctx, answer); job->room is the loop's
 * alone: a room that closes while its job is out detaches it (job->room =
 * NULL), and the answer is then dropped and counted. The waiting queue is
 * bounded (ROOM_BOTS_QUEUE): a room whose job does not fit retries later.
 * Shutdown (room_bots_stop) stops the searches, joins the workers and frees
 * every job; each arena is allocated once when its worker starts.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "room/room_int.h"
#include "base/util.h"
#include "bots.h"

/* How much lower a worker's priority is than the loop's (nice steps). */
#define ROOM_BOTS_NICE 10

struct room_bots {
	uv_loop_t *loop;
	uv_async_t async; /* a worker finished a job: the loop collects `done` */
	struct metrics *metrics;
	int move_ms;
	uint32_t budget;
	pthread_mutex_t mu;
	pthread_cond_t wake;
	struct room_bot_job *head, *tail; /* waiting, oldest first */
	struct room_bot_job *done;        /* answered, any order */
	size_t queued, running;
	atomic_bool stop; /* shutting down: searches stop, workers exit */
	bool threads_on, async_on;
	int nthreads, started;
	pthread_t *threads;
};

int room_bots_threads(int setting)
{
	long cores;

	if (setting > 0)
		return setting;
	cores = sysconf(_SC_NPROCESSORS_ONLN);
	return cores > 1 ? (int)(cores - 1) : 1;
}

/* The search's stop callback: past the job's deadline, the job cancelled (its answer would be stale), or the
 * pool stopping. */
static bool stop_cb(void *arg)
{
	const struct room_bot_job *j = arg;

	return atomic_load_explicit(j->stop, memory_order_relaxed) ||
	       atomic_load_explicit(&j->cancel, memory_order_relaxed) || util_mono_ns() >= j->deadline_ns;
}

static void think(struct room_bots *b, struct room_bot_job *j, void *arena)
{
	uint64_t t0 = util_mono_ns();

	j->stop = &b->stop;
	j->deadline_ns = t0 + (uint64_t)b->move_ms * 1000000u;
	j->ctx.budget = b->budget;
	j->ctx.stop = stop_cb;
	j->ctx.stop_arg = j;
	j->ctx.arena = arena;
	j->ctx.arena_size = arena ? BOT_ARENA_SIZE : 0;
	j->err = bot_choose(j->strategy, &j->match, j->seat, &j->ctx, &j->action);
	j->ctx.stop = NULL; /* nothing of the worker's outlives the job's return */
	j->ctx.stop_arg = NULL;
	j->ctx.arena = NULL;
	j->think_ns = util_mono_ns() - t0;
}

/*
 * A worker yields to the loop: its thread's nice value is ROOM_BOTS_NICE above
 * the process's (Linux keeps one per thread), so on a busy machine the loop
 * and the store's threads get a core before a search does. Best effort.
 */
static void lower_priority(void)
{
	pid_t tid = (pid_t)syscall(SYS_gettid);
	int nice_now;

	errno = 0;
	nice_now = getpriority(PRIO_PROCESS, (id_t)tid);
	if (nice_now == -1 && errno)
		return;
	if (setpriority(PRIO_PROCESS, (id_t)tid,
			nice_now + ROOM_BOTS_NICE > 19 ? 19 : nice_now + ROOM_BOTS_NICE))
		util_log(LOG_DEBUG, "bot worker: its priority stays the loop's: %s", strerror(errno));
}

static void *worker_main(void *arg)
{
	struct room_bots *b = arg;
	/* the worker's search memory for its life; without it a strategy uses its fixed scratch */
	void *arena = malloc(BOT_ARENA_SIZE);
	struct room_bot_job *j;

	(void)pthread_setname_np(pthread_self(), "q-bot"); /* for top, perf and the load generator */
	lower_priority();
	if (!arena)
		util_log(LOG_WARN, "bot worker: no search arena (%zu bytes); bots think with less",
			 BOT_ARENA_SIZE);
	pthread_mutex_lock(&b->mu);
	for (;;) {
		while (!b->head && !atomic_load(&b->stop))
			pthread_cond_wait(&b->wake, &b->mu);
		if (atomic_load(&b->stop))
			break;
		j = b->head;
		b->head = j->next;
		if (!b->head)
			b->tail = NULL;
		b->queued--;
		b->running++;
		pthread_mutex_unlock(&b->mu);
		think(b, j, arena);
		pthread_mutex_lock(&b->mu);
		b->running--;
		j->next = b->done;
		b->done = j;
		uv_async_send(&b->async);
	}
	pthread_mutex_unlock(&b->mu);
	free(arena);
	return NULL;
}

/* On the loop: every answered job goes to its room (or is dropped: the room closed). */
static void answered_cb(uv_async_t *a)
{
	struct room_bots *b = a->data;
	struct room_bot_job *j, *next;

	pthread_mutex_lock(&b->mu);
	j = b->done;
	b->done = NULL;
	pthread_mutex_unlock(&b->mu);
	for (; j; j = next) {
		next = j->next;
		metrics_observe(&b->metrics->bot_think, j->think_ns);
		if (j->room) {
			j->room->bot_job = NULL;
			room_bot_answer(j->room, j); /* counts a stale answer itself */
		} else {
			b->metrics->bot_stale++;
		}
		free(j);
	}
}

int room_bots_new(uv_loop_t *loop, const struct config *cfg, struct metrics *metrics, struct room_bots **out)
{
	struct room_bots *b = calloc(1, sizeof(*b));
	int i, err;

	*out = b;
	if (!b)
		return -ENOMEM;
	b->loop = loop;
	b->metrics = metrics;
	b->move_ms = cfg->bot_move_ms > 0 ? cfg->bot_move_ms : 200;
	b->budget = cfg->bot_budget > 0 ? (uint32_t)cfg->bot_budget : 0;
	b->nthreads = room_bots_threads(cfg->bot_threads);
	atomic_init(&b->stop, false);
	b->threads = calloc((size_t)b->nthreads, sizeof(*b->threads));
	if (!b->threads || pthread_mutex_init(&b->mu, NULL))
		return -ENOMEM; /* room_bots_free() frees what there is */
	if (pthread_cond_init(&b->wake, NULL)) {
		pthread_mutex_destroy(&b->mu);
		return -ENOMEM;
	}
	b->threads_on = true;
	err = uv_async_init(loop, &b->async, answered_cb);
	if (err)
		return err;
	b->async.data = b;
	b->async_on = true;
	uv_unref((uv_handle_t *)&b->async); /* bots alone never keep the loop running */
	for (i = 0; i < b->nthreads; i++) {
		err = pthread_create(&b->threads[i], NULL, worker_main, b);
		if (err) {
			util_log(LOG_ERROR, "bot workers: cannot start thread %d of %d: %s", i + 1,
				 b->nthreads, strerror(err));
			return -err;
		}
		b->started++;
	}
	util_log(LOG_INFO, "bots think on %d worker thread%s, %d ms a move at most", b->nthreads,
		 b->nthreads == 1 ? "" : "s", b->move_ms);
	return 0;
}

int room_bots_submit(struct room_bots *b, struct room_bot_job *j)
{
	pthread_mutex_lock(&b->mu);
	if (atomic_load(&b->stop) || b->queued >= ROOM_BOTS_QUEUE) {
		pthread_mutex_unlock(&b->mu);
		return -EAGAIN;
	}
	j->next = NULL;
	if (b->tail)
		b->tail->next = j;
	else
		b->head = j;
	b->tail = j;
	b->queued++;
	pthread_cond_signal(&b->wake);
	pthread_mutex_unlock(&b->mu);
	b->metrics->bot_jobs++;
	return 0;
}

void room_bots_counts(struct room_bots *b, size_t *queued, size_t *running)
{
	*queued = *running = 0;
	if (!b || !b->threads_on)
		return;
	pthread_mutex_lock(&b->mu);
	*queued = b->queued;
	*running = b->running;
	pthread_mutex_unlock(&b->mu);
}

static void free_list(struct room_bot_job *j)
{
	struct room_bot_job *next;

	for (; j; j = next) {
		next = j->next;
		if (j->room)
			j->room->bot_job = NULL;
		free(j);
	}
}

void room_bots_stop(struct room_bots *b)
{
	int i;

	if (!b || !b->threads_on)
		return;
	pthread_mutex_lock(&b->mu);
	atomic_store(&b->stop, true);
	pthread_cond_broadcast(&b->wake);
	pthread_mutex_unlock(&b->mu);
	for (i = 0; i < b->started; i++)
		pthread_join(b->threads[i], NULL);
	b->started = 0;
	free_list(b->head); /* never taken up */
	b->head = b->tail = NULL;
	b->queued = 0;
	free_list(b->done); /* answered after the loop's last look */
	b->done = NULL;
	if (b->async_on) {
		uv_close((uv_handle_t *)&b->async, NULL);
		b->async_on = false;
	}
}

void room_bots_free(struct room_bots *b)
{
	if (!b)
		return;
	room_bots_stop(b);
	if (b->threads_on) {
		pthread_cond_destroy(&b->wake);
		pthread_mutex_destroy(&b->mu);
	}
	free(b->threads);
	free(b);
}
