/*
 * loadgen_report.c: the load generator's measurements outside the protocol:
 * the server's CPU time (utime + stime of the whole process, every thread
 * included, from /proc/PID/stat, in clock ticks) and memory (VmRSS and VmHWM
 * from /proc/PID/status), the time both processes' threads spent runnable but
 * waiting for a CPU (/proc/PID/task/TID/schedstat: on a shared machine this
 * says whether the figures were limited by other load), our own CPU time
 * (getrusage), and the report: one
 * human-readable block and, on request, one JSON line with the same figures.
 * Per-action figures divide by the client actions the server accepted in the
 * measured window; per-ply figures by every action the server accepted, its
 * own autorolls included (without autoroll the two are the same).
 */
#include "loadgen.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>
#include <uv.h>

static double proc_cpu_s(pid_t pid)
{
	char path[64], buf[1024], *p;
	unsigned long long ut, st;
	FILE *f;
	size_t n;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	f = fopen(path, "r");
	if (!f)
		return -1;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	p = strrchr(buf, ')'); /* the command name may hold spaces and parentheses */
	if (!p)
		return -1;
	/* after ")": state(3) ppid pgrp session tty tpgid flags minflt cminflt majflt cmajflt utime(14)
	 * stime(15) */
	if (sscanf(p + 1, " %*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %llu %llu", &ut, &st) != 2)
		return -1;
	return (double)(ut + st) / (double)sysconf(_SC_CLK_TCK);
}

/*
 * CPU seconds of the threads of `pid` named `comm` (the server names its
 * journal writer "q-journal"); -1 if unknown.
 */
static double proc_thread_cpu_s(pid_t pid, const char *comm)
{
	char path[300], buf[1024], *open_p, *close_p;
	unsigned long long ut, st;
	double sum = 0;
	bool found = false;
	struct dirent *e;
	DIR *d;

	snprintf(path, sizeof(path), "/proc/%d/task", (int)pid);
	if (!(d = opendir(path)))
		return -1;
	while ((e = readdir(d))) {
		FILE *f;
		size_t n;

		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "/proc/%d/task/%s/stat", (int)pid, e->d_name);
		if (!(f = fopen(path, "r")))
			continue; /* the thread ended meanwhile */
		n = fread(buf, 1, sizeof(buf) - 1, f);
		fclose(f);
		buf[n] = '\0';
		open_p = strchr(buf, '(');
		close_p = strrchr(buf, ')');
		if (!open_p || !close_p || close_p < open_p)
			continue;
		*close_p = '\0';
		if (strcmp(open_p + 1, comm))
			continue;
		if (sscanf(close_p + 1, " %*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %llu %llu", &ut, &st) ==
		    2) {
			sum += (double)(ut + st) / (double)sysconf(_SC_CLK_TCK);
			found = true;
		}
	}
	closedir(d);
	return found ? sum : -1;
}

static void proc_mem_kb(pid_t pid, long *rss, long *hwm)
{
	char path[64], line[256];
	FILE *f;

	*rss = *hwm = -1;
	snprintf(path, sizeof(path), "/proc/%d/status", (int)pid);
	f = fopen(path, "r");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		if (!strncmp(line, "VmRSS:", 6))
			*rss = strtol(line + 6, NULL, 10);
		else if (!strncmp(line, "VmHWM:", 6))
			*hwm = strtol(line + 6, NULL, 10);
	}
	fclose(f);
}

/* Run-queue wait of every thread of `pid` (0: ourselves), in seconds; -1 if unknown. */
static double proc_wait_s(pid_t pid)
{
	char path[300];
	unsigned long long run, wait, sum = 0;
	struct dirent *e;
	DIR *d;

	if (pid)
		snprintf(path, sizeof(path), "/proc/%d/task", (int)pid);
	else
		snprintf(path, sizeof(path), "/proc/self/task");
	if (!(d = opendir(path)))
		return -1;
	while ((e = readdir(d))) {
		FILE *f;

		if (e->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "/proc/%d/task/%s/schedstat", pid ? (int)pid : (int)getpid(),
			 e->d_name);
		if (!(f = fopen(path, "r")))
			continue; /* the thread ended meanwhile */
		if (fscanf(f, "%llu %llu", &run, &wait) == 2)
			sum += wait;
		fclose(f);
	}
	closedir(d);
	return (double)sum / 1e9;
}

void lg_sample_take(struct lg_sample *s, pid_t pid)
{
	struct rusage ru;

	s->t_ns = uv_hrtime();
	getrusage(RUSAGE_SELF, &ru);
	s->self_cpu_s = (double)ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 + (double)ru.ru_stime.tv_sec +
			ru.ru_stime.tv_usec / 1e6;
	s->server_cpu_s = s->server_wait_s = s->server_journal_cpu_s = -1;
	s->server_rss_kb = s->server_hwm_kb = -1;
	s->self_wait_s = proc_wait_s(0);
	if (pid > 0) {
		s->server_cpu_s = proc_cpu_s(pid);
		s->server_journal_cpu_s = proc_thread_cpu_s(pid, "q-journal");
		s->server_wait_s = proc_wait_s(pid);
		proc_mem_kb(pid, &s->server_rss_kb, &s->server_hwm_kb);
	}
}

/* The figures both outputs print, computed once. */
struct figures {
	double secs, acts_s, plies_s, sent_s;
	double srv_us, srv_pct, self_us, self_pct;
	double srv_us_ply, self_us_ply;
	double journal_us; /* the server's journal writer thread, per client action; -1 unknown */
	double srv_wait_pct, self_wait_pct; /* of the window, waiting for a CPU; -1 unknown */
	double p[5];                        /* p50 p90 p99 p99.9 max, in ms */
	double mean_ms;
	double kib_per_conn; /* server RSS growth since before connecting, per open connection; -1 unknown */
};

static void figures_compute(const struct lg_result *r, struct figures *f)
{
	static const double ps[5] = { 50, 90, 99, 99.9, 100 };
	uint64_t acts = r->c1.acts_accepted - r->c0.acts_accepted, plies = r->c1.plies - r->c0.plies;
	double per = acts ? 1e6 / (double)acts : 0, per_ply = plies ? 1e6 / (double)plies : 0;
	int i;

	f->secs = (double)(r->s1.t_ns - r->s0.t_ns) / 1e9;
	f->acts_s = (double)acts / f->secs;
	f->plies_s = (double)(r->c1.plies - r->c0.plies) / f->secs;
	f->sent_s = (double)(r->c1.acts_sent - r->c0.acts_sent) / f->secs;
	f->self_us = (r->s1.self_cpu_s - r->s0.self_cpu_s) * per;
	f->self_pct = (r->s1.self_cpu_s - r->s0.self_cpu_s) / f->secs * 100;
	f->self_us_ply = (r->s1.self_cpu_s - r->s0.self_cpu_s) * per_ply;
	f->srv_us = f->srv_pct = f->srv_us_ply = f->srv_wait_pct = f->self_wait_pct = -1;
	if (r->s0.self_wait_s >= 0 && r->s1.self_wait_s >= 0)
		f->self_wait_pct = (r->s1.self_wait_s - r->s0.self_wait_s) / f->secs * 100;
	if (r->s0.server_wait_s >= 0 && r->s1.server_wait_s >= 0)
		f->srv_wait_pct = (r->s1.server_wait_s - r->s0.server_wait_s) / f->secs * 100;
	if (r->s0.server_cpu_s >= 0 && r->s1.server_cpu_s >= 0) {
		f->srv_us = (r->s1.server_cpu_s - r->s0.server_cpu_s) * per;
		f->srv_us_ply = (r->s1.server_cpu_s - r->s0.server_cpu_s) * per_ply;
		f->srv_pct = (r->s1.server_cpu_s - r->s0.server_cpu_s) / f->secs * 100;
	}
	f->journal_us = -1;
	if (r->s0.server_journal_cpu_s >= 0 && r->s1.server_journal_cpu_s >= 0)
		f->journal_us = (r->s1.server_journal_cpu_s - r->s0.server_journal_cpu_s) * per;
	for (i = 0; i < 5; i++)
		f->p[i] = (double)hist_percentile(r->lat, ps[i]) / 1e6;
	f->mean_ms = r->lat->count ? (double)r->lat->sum / (double)r->lat->count / 1e6 : 0;
	f->kib_per_conn = -1;
	/* only meaningful when connections are all there is: rooms and matches hold memory too */
	if (!r->o->rooms && r->pre.server_rss_kb >= 0 && r->s1.server_rss_kb >= 0 && r->conns_open > 0)
		f->kib_per_conn = (double)(r->s1.server_rss_kb - r->pre.server_rss_kb) / r->conns_open;
}

static void print_play(const struct lg_result *r, const struct figures *f);

static void print_human(const struct lg_result *r, const struct figures *f)
{
	const struct lg_opts *o = r->o;
	int i;

	printf("quinteto-load: %s, %d rooms x (seats + %d watchers), %d idle; %d connections open, %d failed;"
	       " sources %s\n",
	       o->game, o->rooms, o->watchers, o->idle, r->conns_open, r->conns_failed, r->source_addrs);
	if (!o->rooms)
		printf("mode: idle connections only\n");
	else if (o->rate > 0)
		printf("mode: fixed rate, offered %.0f actions/s, sent %.0f/s (%.1f%% of offered)\n", o->rate,
		       f->sent_s, f->sent_s / o->rate * 100);
	else
		printf("mode: closed loop (each seat acts when its state arrives)\n");
	printf("window: %.2f s after %.1f s warm-up; rooms formed %d; autoroll %s\n", f->secs, o->warmup,
	       r->rooms_formed, o->autoroll ? "on" : "off");
	if (o->rooms)
		print_play(r, f);
	else if (f->srv_pct >= 0)
		printf("server pid %d: %.2f%% of a core; RSS %ld KiB, HWM %ld KiB\n", (int)o->server_pid,
		       f->srv_pct, r->s1.server_rss_kb, r->s1.server_hwm_kb);
	if (f->kib_per_conn >= 0)
		printf("server RSS %ld KiB before connecting: %.2f KiB more per open connection\n",
		       r->pre.server_rss_kb, f->kib_per_conn);
	if (f->srv_wait_pct >= 0)
		printf("waiting for a CPU while runnable (other load on the machine): server %.1f%%,"
		       " generator %.1f%% of the window\n",
		       f->srv_wait_pct, f->self_wait_pct);
	else
		printf("waiting for a CPU while runnable (other load on the machine): generator %.1f%% of the"
		       " window\n",
		       f->self_wait_pct);
	for (i = 0; i < r->nerror_names; i++) /* stale_ply even at 0: the generator must draw none */
		if (r->errors_by_code[i] || !strcmp(r->error_names[i], "stale_ply"))
			printf("errors %s: %llu\n", r->error_names[i],
			       (unsigned long long)r->errors_by_code[i]);
}

/* The lines of a run with rooms: throughput, latency, CPU per action. */
static void print_play(const struct lg_result *r, const struct figures *f)
{
	const struct lg_opts *o = r->o;

	printf("accepted actions/s: %.0f from the clients; %.0f plies/s with the server's autorolls"
	       " (matches finished %llu; refused %llu)\n",
	       f->acts_s, f->plies_s, (unsigned long long)(r->c1.matches - r->c0.matches),
	       (unsigned long long)(r->c1.acts_refused - r->c0.acts_refused));
	printf("act -> the state showing it at the acting client (%llu samples): p50 %.3f ms, p90 %.3f,"
	       " p99 %.3f, p99.9 %.3f, max %.3f, mean %.3f\n",
	       (unsigned long long)r->lat->count, f->p[0], f->p[1], f->p[2], f->p[3], f->p[4], f->mean_ms);
	if (f->srv_us >= 0)
		printf("server pid %d: %.1f us CPU per client action, %.1f per ply (%.1f%% of a core, all"
		       " threads); RSS %ld KiB, HWM %ld KiB\n",
		       (int)o->server_pid, f->srv_us, f->srv_us_ply, f->srv_pct, r->s1.server_rss_kb,
		       r->s1.server_hwm_kb);
	if (f->journal_us >= 0)
		printf("server journal writer thread: %.2f us CPU per client action (the rest is the loop and"
		       " the reader)\n",
		       f->journal_us);
	printf("generator: %.1f us CPU per client action, %.1f per ply (%.1f%% of a core)\n", f->self_us,
	       f->self_us_ply, f->self_pct);
}

static void print_json(const struct lg_result *r, const struct figures *f)
{
	const struct lg_opts *o = r->o;
	int i;

	printf("{\"game\":\"%s\",\"rooms\":%d,\"watchers\":%d,\"idle\":%d,\"conns_open\":%d,"
	       "\"conns_failed\":%d,\"rooms_formed\":%d,\"mode\":\"%s\",\"offered\":%.0f,\"sent_per_s\":%.1f,"
	       "\"window_s\":%.3f,\"actions_per_s\":%.1f,\"plies_per_s\":%.1f,\"refused\":%llu,"
	       "\"latency_ms\":{\"samples\":%llu,\"p50\":%.4f,\"p90\":%.4f,\"p99\":%.4f,\"p999\":%.4f,"
	       "\"max\":%.4f,\"mean\":%.4f},",
	       o->game, o->rooms, o->watchers, o->idle, r->conns_open, r->conns_failed, r->rooms_formed,
	       o->rate > 0 ? "rate" : "closed", o->rate, f->sent_s, f->secs, f->acts_s, f->plies_s,
	       (unsigned long long)(r->c1.acts_refused - r->c0.acts_refused),
	       (unsigned long long)r->lat->count, f->p[0], f->p[1], f->p[2], f->p[3], f->p[4], f->mean_ms);
	if (f->srv_us >= 0)
		printf("\"server\":{\"pid\":%d,\"us_per_action\":%.2f,\"us_per_ply\":%.2f,\"cpu_pct\":%.1f,"
		       "\"rss_kib\":%ld,\"hwm_kib\":%ld,\"rss_before_kib\":%ld,\"kib_per_conn\":%.3f,"
		       "\"journal_us_per_action\":%.3f},",
		       (int)o->server_pid, f->srv_us, f->srv_us_ply, f->srv_pct, r->s1.server_rss_kb,
		       r->s1.server_hwm_kb, r->pre.server_rss_kb, f->kib_per_conn, f->journal_us);
	printf("\"generator\":{\"us_per_action\":%.2f,\"us_per_ply\":%.2f,\"cpu_pct\":%.1f,\"wait_pct\":%.1f}"
	       ","
	       "\"server_wait_pct\":%.1f,\"errors\":{",
	       f->self_us, f->self_us_ply, f->self_pct, f->self_wait_pct, f->srv_wait_pct);
	for (i = 0; i < r->nerror_names; i++)
		printf("%s\"%s\":%llu", i ? "," : "", r->error_names[i],
		       (unsigned long long)r->errors_by_code[i]);
	printf("}}\n");
}

void lg_report_print(const struct lg_result *r)
{
	struct figures f;

	figures_compute(r, &f);
	print_human(r, &f);
	if (r->o->json)
		print_json(r, &f);
	fflush(stdout);
}
