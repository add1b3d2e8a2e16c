/*
 * dblock.c: the database's lock file (declared in store.h). The file is opened
 * close-on-exec and locked without waiting; the holder's description is
 * written only once the lock is ours, so what a refused server reads is
 * the live holder's (or, for a moment while it starts, empty).
 */
#include "store/store.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/file.h>
#include <time.h>
#include <unistd.h>

#include "base/conf.h"

#define HOLDER_MAX 1024

/* Reads the holder's description (one line, control characters dropped) into why. */
static void read_holder(int fd, const char *path, char *why, size_t whylen)
{
	char text[HOLDER_MAX], line[HOLDER_MAX];
	ssize_t n = pread(fd, text, sizeof(text) - 1, 0);
	size_t i, k = 0;

	for (i = 0; n > 0 && i < (size_t)n && k + 2 < sizeof(line); i++) {
		unsigned char ch = (unsigned char)text[i];

		if (ch == '\n')
			line[k++] = ';', line[k++] = ' ';
		else if (ch >= 0x20 && ch != 0x7f)
			line[k++] = (char)ch;
	}
	while (k && (line[k - 1] == ' ' || line[k - 1] == ';'))
		k--;
	line[k] = '\0';
	snprintf(why, whylen, "the database is in use by another quinteto-server (%s; lock file %s)",
		 k ? line : "starting", path);
}

/* The holder's description: pid, addresses, start time (UTC). */
static int write_holder(int fd, const struct config *cfg)
{
	char text[HOLDER_MAX], when[32];
	time_t now = time(NULL);
	struct tm tm;
	size_t n;
	int i;

	if (!gmtime_r(&now, &tm) || !strftime(when, sizeof(when), "%Y-%m-%dT%H:%M:%SZ", &tm))
		snprintf(when, sizeof(when), "%lld", (long long)now);
	n = (size_t)snprintf(text, sizeof(text), "pid %ld\nlisten", (long)getpid());
	for (i = 0; i < cfg->n_listen && n < sizeof(text); i++)
		n += (size_t)snprintf(text + n, sizeof(text) - n, "%s%s:%d", i ? "," : " ",
				      cfg->listen[i].host, cfg->listen[i].port);
	if (n < sizeof(text))
		n += (size_t)snprintf(text + n, sizeof(text) - n, "\nsince %s\n", when);
	if (n >= sizeof(text))
		n = sizeof(text) - 1;
	if (ftruncate(fd, 0) || pwrite(fd, text, n, 0) != (ssize_t)n)
		return -errno;
	return 0;
}

int dblock_take(struct dblock *l, const struct config *cfg, char *why, size_t whylen)
{
	char path[sizeof(cfg->db_path) + 8];
	int fd, err;

	l->fd = -1;
	if ((size_t)snprintf(path, sizeof(path), "%s.lock", cfg->db_path) >= sizeof(path)) {
		snprintf(why, whylen, "the database's path is too long for its lock file");
		return -ENAMETOOLONG;
	}
	fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0644);
	if (fd < 0) {
		err = -errno;
		snprintf(why, whylen,
			 "cannot open the lock file %s: %s (the database's folder must be writable)", path,
			 strerror(errno));
		return err;
	}
	if (flock(fd, LOCK_EX | LOCK_NB)) {
		err = errno == EWOULDBLOCK ? -EBUSY : -errno;
		if (err == -EBUSY)
			read_holder(fd, path, why, whylen);
		else
			snprintf(why, whylen, "cannot lock %s: %s", path, strerror(-err));
		close(fd);
		return err;
	}
	/* ours: a description that cannot be written only makes a refused server's message vaguer */
	(void)write_holder(fd, cfg);
	l->fd = fd;
	return 0;
}

void dblock_release(struct dblock *l)
{
	if (l->fd < 0)
		return;
	(void)close(l->fd); /* closing the last descriptor drops the flock */
	l->fd = -1;
}
