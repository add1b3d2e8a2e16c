/*
 * bench_journal.c: what the live journal costs its writer thread per action,
 * without the network. ROOMS rooms (two seats each, started) play at once; each
 * loop turn journals BATCH actions of rooms picked at random and flushes them
 * as one batch, and the next turn waits for its commit, as the server does
 * (one batch in flight). A room that reaches PLIES actions is archived (with its
 * actions, which drops its live journal in the same transaction) and a new room
 * takes its place, so finished rooms' rows are deleted as in play.
 * Reported: the writer thread's and the checkpoint thread's CPU per action (from
 * /proc/self/task/T/schedstat, nanoseconds), how often the writer and the loop
 * went to sleep per commit (voluntary context switches, /proc/self/task/T/status:
 * the hand-off's wake-ups), flush -> commit latency, the WAL's and the
 * database's size at the end.
 * Usage: bench_journal DB_PATH MIGRATIONS_DIR [ROOMS [BATCH [ACTIONS [PLIES]]]]
 *   defaults: 2000 rooms, 25 actions a batch, 200,000 actions, 120 plies a match.
 *   DB_PATH "postgres:CONNINFO": the PostgreSQL store instead (store_open_pg();
 *   the database should be empty; no checkpointer, no file sizes).
 * Under callgrind (--separate-threads=yes) the writer thread's instructions per
 * action are the difference of two runs over the difference of their actions.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "store/store.h"
#include "base/util.h"

static uv_loop_t loop;
static struct store *st;
static int nrooms, batch, plies_per_match;
static long actions_left, actions_done, committed_batches;
static int *room_ply, *room_gen;
static bool waiting;
static uint64_t t_flush;
static double *lat_ms;
static long nlat, lat_cap;
static int saves_pending;

static void room_name(char *buf, size_t n, int room)
{
	snprintf(buf, n, "r%05d-%06d", room, room_gen[room]);
}

static void room_new(int room)
{
	char id[32];

	room_name(id, sizeof(id), room);
	store_live_room(st, id, "ur", "{\"autoroll\":false}",
			"bb67ae8584caa73b3c6ef372fe94f82ba54ff53a5f1d36f1510e527fade682d1", NULL, 1);
	store_live_seat(st, id, 0, NULL, NULL, "random");
	store_live_seat(st, id, 1, NULL, NULL, "random");
	store_live_started(st, id, 2);
	room_ply[room] = 0;
}

static void save_cb(void *ctx, int err)
{
	(void)ctx;
	if (err)
		fprintf(stderr, "bench_journal: an archive save failed\n");
	saves_pending--;
}

static char *dup_s(const char *s)
{
	return strdup(s);
}

/* Archives room `room` (its PLIES actions) and puts a new room in its place. */
static void room_finish(int room)
{
	struct store_match *m = calloc(1, sizeof(*m));
	char id[32];
	int i;

	room_name(id, sizeof(id), room);
	m->id = dup_s(id);
	m->game = dup_s("ur");
	m->options = dup_s("{}");
	m->commit = dup_s("6a09e667f3bcc908b2fb1366ea957d3e3adec17512775099da2f590b0667322a");
	m->server_seed = dup_s("bb67ae8584caa73b3c6ef372fe94f82ba54ff53a5f1d36f1510e527fade682d1");
	m->client_seeds = dup_s("[\"\",\"\"]");
	m->result = dup_s("{\"winner\":0,\"reason\":\"race\"}");
	m->started_at = 2;
	m->ended_at = 3;
	m->nseats = 2;
	m->seats = calloc(2, sizeof(*m->seats));
	for (i = 0; i < 2; i++) {
		m->seats[i].seat = i;
		m->seats[i].role = dup_s(i ? "dark" : "light");
		m->seats[i].name = dup_s(i ? "Bot 2" : "Bot 1");
		m->seats[i].bot = true;
		m->seats[i].client_seed = dup_s("");
	}
	m->actions = calloc((size_t)room_ply[room], sizeof(*m->actions));
	for (m->nactions = 0; m->nactions < (size_t)room_ply[room]; m->nactions++) {
		struct store_action *a = &m->actions[m->nactions];

		a->ply = (int)m->nactions;
		a->seat = a->ply & 1;
		a->at = 1000 + a->ply;
		a->action = dup_s(a->ply & 1 ? "{\"move\":12}" : "{\"roll\":true}");
		a->outcome = dup_s("{\"dice\":[true,false,true,false],\"value\":2}");
	}
	saves_pending++;
	store_match_save(st, m, save_cb, NULL);
	room_gen[room]++;
	room_new(room);
}

static void turn(void)
{
	int k;

	for (k = 0; k < batch && actions_left > 0; k++, actions_left--, actions_done++) {
		int room = rand() % nrooms, ply = room_ply[room]++;
		char id[32];

		room_name(id, sizeof(id), room);
		store_live_action(st, id, ply, ply & 1, ply & 1 ? "{\"move\":12}" : "{\"roll\":true}",
				  "{\"dice\":[true,false,true,false],\"value\":2}", 1000 + ply, false);
		if (room_ply[room] >= plies_per_match)
			room_finish(room);
	}
	t_flush = util_mono_ns();
	waiting = store_journal_flush(st) != 0;
}

static void commit_cb(void *ctx, uint64_t seq, int err)
{
	(void)ctx, (void)seq;
	if (err) {
		fprintf(stderr, "bench_journal: batch %llu failed (%d)\n", (unsigned long long)seq, err);
		return;
	}
	if (nlat < lat_cap)
		lat_ms[nlat++] = (double)(util_mono_ns() - t_flush) / 1e6;
	committed_batches++;
	waiting = false;
}

/* The /proc/self/task folder name of this process's thread named `comm` ("self" for the main thread). */
static bool thread_dir(const char *comm, char *out, size_t n)
{
	DIR *d = opendir("/proc/self/task");
	struct dirent *e;
	bool found = false;

	while (d && !found && (e = readdir(d))) {
		char path[300], name[64] = "";
		FILE *f;

		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "/proc/self/task/%s/comm", e->d_name);
		if ((f = fopen(path, "r"))) {
			if (!fgets(name, sizeof(name), f))
				name[0] = '\0';
			fclose(f);
		}
		name[strcspn(name, "\n")] = '\0';
		if (!strcmp(name, comm)) {
			snprintf(out, n, "/proc/self/task/%s", e->d_name);
			found = true;
		}
	}
	if (d)
		closedir(d);
	return found;
}

/* Nanoseconds on a CPU of this process's thread named `comm`, 0 if none. */
static unsigned long long thread_ns(const char *comm)
{
	char dir[300], path[340];
	unsigned long long ns = 0;
	FILE *f;

	if (!thread_dir(comm, dir, sizeof(dir)))
		return 0;
	snprintf(path, sizeof(path), "%s/schedstat", dir);
	if ((f = fopen(path, "r"))) {
		if (fscanf(f, "%llu", &ns) != 1)
			ns = 0;
		fclose(f);
	}
	return ns;
}

/*
 * Times the thread named `comm` went to sleep of itself (voluntary context
 * switches: a wait on its condition variable, its mutex, its epoll), 0 if none:
 * what the hand-off between the loop and the writer costs in wake-ups.
 */
static unsigned long long thread_sleeps(const char *comm)
{
	char dir[300], path[340], line[128];
	unsigned long long n = 0;
	FILE *f;

	if (!thread_dir(comm, dir, sizeof(dir)))
		return 0;
	snprintf(path, sizeof(path), "%s/status", dir);
	if ((f = fopen(path, "r"))) {
		while (fgets(line, sizeof(line), f))
			if (sscanf(line, "voluntary_ctxt_switches: %llu", &n) == 1)
				break;
		fclose(f);
	}
	return n;
}

static int cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static long long file_size(const char *path, const char *suffix)
{
	char p[4200];
	struct stat s;

	snprintf(p, sizeof(p), "%s%s", path, suffix);
	return stat(p, &s) ? 0 : (long long)s.st_size;
}

int main(int argc, char **argv)
{
	unsigned long long w0, c0, w1, c1, ws0, ls0, ws1, ls1;
	char comm[64] = "";
	uint64_t t0, t1;
	long total;
	int i;

	if (argc < 3) {
		fprintf(stderr, "usage: %s DB_PATH MIGRATIONS_DIR [ROOMS [BATCH [ACTIONS [PLIES]]]]\n",
			argv[0]);
		return 2;
	}
	nrooms = argc > 3 ? atoi(argv[3]) : 2000;
	batch = argc > 4 ? atoi(argv[4]) : 25;
	total = actions_left = argc > 5 ? atol(argv[5]) : 200000;
	plies_per_match = argc > 6 ? atoi(argv[6]) : 120;
	if (nrooms < 1 || batch < 1 || total < 1 || plies_per_match < 1)
		return 2;
	srand(1);
	room_ply = calloc((size_t)nrooms, sizeof(*room_ply));
	room_gen = calloc((size_t)nrooms, sizeof(*room_gen));
	lat_cap = total / batch + 16;
	lat_ms = calloc((size_t)lat_cap, sizeof(*lat_ms));
	uv_loop_init(&loop);
	if ((strncmp(argv[1], "postgres:", 9) ? store_open(&loop, argv[1], argv[2], &st)
					      : store_open_pg(&loop, argv[1] + 9, argv[2], &st)) ||
	    store_start(st))
		return 1;
	store_on_commit(st, commit_cb, NULL);
	/* rooms start part-way through their matches, so that they do not all finish at once */
	for (i = 0; i < nrooms; i++)
		room_new(i);
	waiting = store_journal_flush(st) != 0;
	while (waiting)
		uv_run(&loop, UV_RUN_ONCE);
	for (i = 0; i < nrooms; i++) {
		int n = rand() % (plies_per_match < 200 ? plies_per_match : 200), p;
		char id[32];

		room_name(id, sizeof(id), i);
		for (p = 0; p < n; p++, room_ply[i]++)
			store_live_action(st, id, p, p & 1, "{\"roll\":true}", "{\"value\":2}", 1000 + p,
					  false);
	}
	waiting = store_journal_flush(st) != 0;
	while (waiting)
		uv_run(&loop, UV_RUN_ONCE);
	nlat = 0;
	committed_batches = 0;
	{ /* the main thread (the loop) by its own name */
		FILE *f = fopen("/proc/self/comm", "r");

		if (f) {
			if (!fgets(comm, sizeof(comm), f))
				comm[0] = '\0';
			fclose(f);
		}
		comm[strcspn(comm, "\n")] = '\0';
	}
	ws0 = thread_sleeps("q-journal");
	ls0 = thread_sleeps(comm);
	w0 = thread_ns("q-journal");
	c0 = thread_ns("q-checkpoint");
	t0 = util_mono_ns();
	while (actions_left > 0) {
		turn();
		while (waiting)
			uv_run(&loop, UV_RUN_ONCE);
	}
	while (saves_pending > 0)
		uv_run(&loop, UV_RUN_ONCE);
	t1 = util_mono_ns();
	w1 = thread_ns("q-journal");
	c1 = thread_ns("q-checkpoint");
	ws1 = thread_sleeps("q-journal");
	ls1 = thread_sleeps(comm);
	qsort(lat_ms, (size_t)nlat, sizeof(*lat_ms), cmp);
	printf("rooms=%d batch=%d actions=%ld plies/match=%d: %.0f actions/s, %ld commits\n", nrooms, batch,
	       actions_done, plies_per_match, actions_done / ((double)(t1 - t0) / 1e9), committed_batches);
	printf("writer %.2f us CPU per action, checkpointer %.2f us\n",
	       (double)(w1 - w0) / 1e3 / actions_done, (double)(c1 - c0) / 1e3 / actions_done);
	printf("sleeps per commit: writer %.2f, loop %.2f\n", (double)(ws1 - ws0) / (double)committed_batches,
	       (double)(ls1 - ls0) / (double)committed_batches);
	if (nlat)
		printf("flush -> commit ms: p50 %.3f p90 %.3f p99 %.3f max %.3f\n", lat_ms[nlat / 2],
		       lat_ms[nlat * 9 / 10], lat_ms[nlat * 99 / 100], lat_ms[nlat - 1]);
	store_close(st);
	uv_run(&loop, UV_RUN_DEFAULT);
	if (strncmp(argv[1], "postgres:", 9))
		printf("database %lld KiB, WAL %lld KiB (after close)\n", file_size(argv[1], "") / 1024,
		       file_size(argv[1], "-wal") / 1024);
	free(room_ply), free(room_gen), free(lat_ms);
	return uv_loop_close(&loop) ? 1 : 0;
}
