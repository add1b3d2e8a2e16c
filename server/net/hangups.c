/*
 * hangups.c: an epoll set of paused sockets, watched by the loop for their
 * hang-ups (hangups.h).
 */
#include "net/hangups.h"

#include <errno.h>
#include <stdint.h>
#include <sys/epoll.h>
#include <unistd.h>

void hangups_init(struct hangups *w)
{
	w->fd = -1;
	w->on = false;
	w->gone = NULL;
}

void hangups_reap(struct hangups *w)
{
	struct epoll_event ev[64];
	int n, i;

	do {
		n = w->fd >= 0 ? epoll_wait(w->fd, ev, 64, 0) : 0;
		for (i = 0; i < n; i++)
			w->gone(ev[i].data.ptr);
	} while (n == 64);
}

static void poll_cb(uv_poll_t *p, int status, int events)
{
	(void)status, (void)events;
	hangups_reap(p->data);
}

int hangups_start(struct hangups *w, uv_loop_t *loop, void (*gone)(void *item))
{
	int err;

	w->gone = gone;
	w->fd = epoll_create1(EPOLL_CLOEXEC);
	if (w->fd < 0)
		return -errno;
	err = uv_poll_init(loop, &w->poll, w->fd);
	if (err) {
		close(w->fd);
		w->fd = -1;
		return err;
	}
	w->poll.data = w;
	w->on = true;
	err = uv_poll_start(&w->poll, UV_READABLE, poll_cb);
	if (err)
		hangups_stop(w);
	return err;
}

int hangups_watch(struct hangups *w, int fd, void *item)
{
	struct epoll_event ev = { .events = EPOLLRDHUP, .data.ptr = item };

	return w->fd >= 0 && fd >= 0 && !epoll_ctl(w->fd, EPOLL_CTL_ADD, fd, &ev) ? fd : -1;
}

void hangups_unwatch(struct hangups *w, int fd)
{
	if (fd >= 0 && w->fd >= 0)
		(void)epoll_ctl(w->fd, EPOLL_CTL_DEL, fd, NULL);
}

static void closed_cb(uv_handle_t *h)
{
	close((int)(intptr_t)h->data);
}

void hangups_stop(struct hangups *w)
{
	if (!w->on)
		return;
	w->on = false;
	w->poll.data = (void *)(intptr_t)w->fd; /* closed once the handle is */
	w->fd = -1;                             /* watches that end later leave it alone */
	uv_close((uv_handle_t *)&w->poll, closed_cb);
}
