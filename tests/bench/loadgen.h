/*
 * loadgen.h: what the load generator's parts share. loadgen.c drives the
 * connections (libwebsockets clients on our own libuv loop) and counts;
 * loadgen_report.c samples the server's and our own CPU and memory and prints
 * the figures. All counters are touched by the loop thread only.
 */
#ifndef QUINTETO_LOADGEN_H
#define QUINTETO_LOADGEN_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "hist.h"

/* The command line, after defaults. */
struct lg_opts {
	char host[64];
	int port;
	const char *game;
	int rooms, watchers, idle;
	double rate; /* offered actions/s across all rooms; 0: closed loop */
	double warmup, duration, setup_timeout;
	int addrs;         /* source addresses 127.0.0.<addr_first>.. (<addrs> of them); 0: auto */
	int addr_first;    /* the first source address's last byte (default 1) */
	int connect_burst; /* connections in progress at once */
	bool autoroll;
	bool json;
	bool queued_writes;     /* every frame through lws' WRITEABLE callback (to compare) */
	pid_t server_pid;       /* 0: no server figures */
	const char *window_cmd; /* run as `CMD start` and `CMD end` at the window's edges; NULL: none */
	uint64_t seed;
};

/* Counters: a snapshot at the start and at the end of the measured window. */
struct lg_counts {
	uint64_t acts_sent, acts_accepted, acts_refused;
	uint64_t plies;   /* ply advances seen by the rooms, the server's autorolls included */
	uint64_t matches; /* matches seen finished */
	uint64_t frames_in, bytes_in;
};

/* CPU and memory at one instant. */
struct lg_sample {
	uint64_t t_ns;                     /* uv_hrtime() */
	double self_cpu_s;                 /* our user+system time */
	double server_cpu_s;               /* the server's, every thread (/proc/PID/stat); -1 if unknown */
	double server_journal_cpu_s;       /* its journal writer thread ("q-journal"); -1 if unknown */
	long server_rss_kb, server_hwm_kb; /* VmRSS, VmHWM; -1 if unknown */
	double server_wait_s, self_wait_s; /* time runnable but waiting for a CPU, every thread
					      (/proc/PID/task/TID/schedstat); -1 if unknown */
};

/* What the report prints. */
struct lg_result {
	const struct lg_opts *o;
	struct lg_counts c0, c1;
	struct lg_sample pre; /* before the first connection */
	struct lg_sample s0, s1;
	const struct hist *lat; /* act -> state with a later ply, measured window only */
	int conns_open, conns_failed, rooms_formed;
	uint64_t errors_by_code[8]; /* see lg_error_names */
	const char *const *error_names;
	int nerror_names;
	const char *source_addrs; /* "127.0.0.1-127.0.0.4" */
};

/* Fills `s` now; server figures only when pid > 0. */
void lg_sample_take(struct lg_sample *s, pid_t pid);

/* Prints the human block to stdout and, with o->json, one JSON line after it. */
void lg_report_print(const struct lg_result *r);

#endif
