/*
 * hangups.h: hang-ups of connections whose reading is paused (lws rx flow
 * control). lws no longer polls a paused connection, so a client that goes
 * away would go unseen until its answer; an epoll set of our own, watched by
 * the loop, wakes only on EPOLLRDHUP and calls `gone` for each watched item
 * whose client hung up (`gone` ends the watch, then has the connection
 * closed). Used by http.c (requests waiting for an archive read) and
 * handlers_hello.c (hellos waiting for their identity's read).
 */
#ifndef QUINTETO_HANGUPS_H
#define QUINTETO_HANGUPS_H

#include <stdbool.h>
#include <uv.h>

struct hangups {
	int fd;         /* the epoll set, or -1 (not started, stopped, or it could not be made) */
	uv_poll_t poll; /* the loop watches fd */
	bool on;
	void (*gone)(void *item);
};

/* Not watching yet (fd -1): watch() then watches nothing, which is allowed. */
void hangups_init(struct hangups *w);

/* Makes the set and watches it on `loop`: 0 or a negative errno / libuv error. */
int hangups_start(struct hangups *w, uv_loop_t *loop, void (*gone)(void *item));

/* Watches socket `fd` for `item`: returns fd, or -1 when it is not watched (no set, or epoll refused). */
int hangups_watch(struct hangups *w, int fd, void *item);

/* Ends the watch of `fd` (a value hangups_watch() returned; -1 does nothing). */
void hangups_unwatch(struct hangups *w, int fd);

/* Every hang-up seen so far, now (the loop does it when the set wakes): `gone` for each, 64 at a time. */
void hangups_reap(struct hangups *w);

/* At shutdown: the set is closed once its handle is; a second call does nothing. */
void hangups_stop(struct hangups *w);

#endif
