/*
 * bench_store.c: how long a journal write waits to commit while the archive
 * is being read hard. An archive of MATCHES finished matches is written
 * first; then READERS list requests (GET /api/matches?limit=100, the heaviest
 * read) are kept in flight, each answered one re-issued at once, while every
 * 10 ms the "game" journals an action and archives a small match, as a room
 * does. Measured: enqueue -> archive-save callback (both store versions:
 * the save runs after the journal write, so it bounds the write's delay) and,
 * with the batched store (-DNEW_STORE), store_journal_flush -> commit callback.
 * Built twice by tests/bench/store_bench.sh: with the store before issue 5
 * (one queue, one thread for reads and writes) and with this tree's.
 * Usage: bench_store DB_PATH MIGRATIONS_DIR READERS TICKS [MATCHES]
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "store/store.h"
#include "base/util.h"

#define MAXS 100000

static uv_loop_t loop;
static struct store *st;
static int readers_on, reads_done, saves_pending, ticks_left;
static double save_ms[MAXS], commit_ms[MAXS];
static int nsave, ncommit;
static uint64_t t_flush[MAXS]; /* by batch seq */

static double now_ms(void)
{
	return (double)util_mono_ns() / 1e6;
}

static char *dupf(const char *fmt, int n)
{
	char buf[128];

	snprintf(buf, sizeof(buf), fmt, n);
	return strdup(buf);
}

/* A finished match of `nactions` actions, as a room hands it to the archive. */
static struct store_match *match_new(int n, int nactions)
{
	struct store_match *m = calloc(1, sizeof(*m));
	int i;

	m->id = dupf("m%08d", n);
	m->game = strdup("ur");
	m->options = strdup("{}");
	m->commit = strdup("6a09e667f3bcc908b2fb1366ea957d3e3adec17512775099da2f590b0667322a");
	m->server_seed = strdup("bb67ae8584caa73b3c6ef372fe94f82ba54ff53a5f1d36f1510e527fade682d1");
	m->client_seeds = strdup("[\"\",\"\"]");
	m->result = strdup("{\"winner\":0,\"reason\":\"race\"}");
	m->started_at = 1;
	m->ended_at = 2;
	m->nseats = 2;
	m->seats = calloc(2, sizeof(*m->seats));
	for (i = 0; i < 2; i++) {
		m->seats[i].seat = i;
		m->seats[i].role = strdup(i ? "dark" : "light");
		m->seats[i].name = dupf("player %d", i);
		m->seats[i].player_id = dupf("p%d", n % 50 + i);
		m->seats[i].client_seed = strdup("");
	}
	m->actions = calloc((size_t)nactions, sizeof(*m->actions));
	for (m->nactions = 0; m->nactions < (size_t)nactions; m->nactions++) {
		m->actions[m->nactions].ply = (int)m->nactions;
		m->actions[m->nactions].action = strdup("{\"roll\":true}");
		m->actions[m->nactions].outcome = strdup("{\"dice\":[true,false,true,false],\"value\":2}");
	}
	return m;
}

static void fill_cb(void *ctx, int ok)
{
	saves_pending--;
}

static void save_cb(void *ctx, int ok)
{
	double *t0 = ctx;

	if (nsave < MAXS)
		save_ms[nsave++] = now_ms() - *t0;
	free(t0);
	saves_pending--;
}

#ifdef NEW_STORE
static void commit_cb(void *ctx, uint64_t seq, int err)
{
	if (!err && seq < MAXS && ncommit < MAXS)
		commit_ms[ncommit++] = now_ms() - (double)t_flush[seq] / 1e6;
}
#endif

static void read_cb(void *ctx, int status, char *body, size_t len)
{
	free(body);
	reads_done++;
	if (readers_on)
		store_match_list(st, NULL, NULL, 0, 100, read_cb, NULL);
}

static void tick_cb(uv_timer_t *t)
{
	static int n = 1000000;
	double *t0 = malloc(sizeof(*t0));

	*t0 = now_ms();
	store_live_action(st, "room", n - 1000000, 0, "{\"roll\":true}", "{\"value\":2}", 1, false);
#ifdef NEW_STORE
	{
		uint64_t seq = 0;

		t_flush[0] = util_mono_ns();
		seq = store_journal_flush(st);
		if (seq < MAXS)
			t_flush[seq] = t_flush[0];
	}
#endif
	saves_pending++;
	store_match_save(st, match_new(n++, 4), save_cb, t0);
	if (--ticks_left <= 0) {
		uv_timer_stop(t);
		readers_on = 0;
	}
}

static int cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static void report(const char *what, double *v, int n)
{
	if (!n) {
		printf("%-34s no samples\n", what);
		return;
	}
	qsort(v, (size_t)n, sizeof(*v), cmp);
	printf("%-34s n=%d p50=%.1f p90=%.1f p99=%.1f max=%.1f ms\n", what, n, v[n / 2], v[n * 9 / 10],
	       v[n * 99 / 100], v[n - 1]);
}

static void run_until_idle(bool ticking)
{
	while (saves_pending > 0 || readers_on || (ticking && ticks_left > 0))
		uv_run(&loop, UV_RUN_ONCE);
}

int main(int argc, char **argv)
{
	int readers, matches, i;
	uv_timer_t tick;
	double t0, elapsed;

	if (argc < 5) {
		fprintf(stderr, "usage: %s DB_PATH MIGRATIONS_DIR READERS TICKS [MATCHES]\n", argv[0]);
		return 2;
	}
	readers = atoi(argv[3]);
	ticks_left = atoi(argv[4]);
	matches = argc > 5 ? atoi(argv[5]) : 2000;
	uv_loop_init(&loop);
	if (store_open(&loop, argv[1], argv[2], &st) || store_start(st))
		return 1;
#ifdef NEW_STORE
	store_on_commit(st, commit_cb, NULL);
#endif
#ifdef NEW_STORE
	store_live_room(st, "room", "ur", "{}", "00", NULL, 1); /* no creator: 0005 added the argument */
#else
	store_live_room(st, "room", "ur", "{}", "00", 1);
#endif
#ifdef NEW_STORE
	t_flush[1] = util_mono_ns();
	(void)store_journal_flush(st); /* seq 1; the archive saves below queue behind it */
#endif
	for (i = 0; i < matches; i++) {
		saves_pending++;
		store_match_save(st, match_new(i, 40), fill_cb, NULL);
	}
	run_until_idle(false);
	readers_on = readers > 0;
	for (i = 0; i < readers; i++)
		store_match_list(st, NULL, NULL, 0, 100, read_cb, NULL);
	uv_timer_init(&loop, &tick);
	uv_timer_start(&tick, tick_cb, 10, 10);
	t0 = now_ms();
	run_until_idle(true);
	elapsed = now_ms() - t0;
	printf("readers=%d archive=%d matches ticks=%d elapsed=%.0f ms reads=%d (%.0f/s)\n", readers, matches,
	       nsave, elapsed, reads_done, reads_done / (elapsed / 1000));
	report("journal write -> archive save done", save_ms, nsave);
#ifdef NEW_STORE
	report("journal flush -> commit callback", commit_ms, ncommit);
#endif
	uv_close((uv_handle_t *)&tick, NULL);
	store_close(st);
	uv_run(&loop, UV_RUN_DEFAULT);
	return uv_loop_close(&loop) ? 1 : 0;
}
