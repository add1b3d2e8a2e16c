/*
 * dblock.h: one database, one server. A server holds an exclusive flock(2)
 * on a lock file beside its database ("<db>.lock") for as long as it runs;
 * a second server on the same database finds it held and does not start,
 * naming the holder (the lock file says which process, on which addresses,
 * since when). The kernel drops the lock when the process ends, SIGKILL
 * included, so a lock file left behind never blocks a start. The
 * command-line tools only read the database and take no lock.
 *
 * Must not: touch the database itself (SQLite's own locks are separate).
 */
#ifndef QUINTETO_DBLOCK_H
#define QUINTETO_DBLOCK_H

#include <stddef.h>

struct config;

/* The lock held: its descriptor, or -1. */
struct dblock {
	int fd;
};

/*
 * Takes the lock of cfg->db_path and writes who holds it. 0; -EBUSY when
 * another process holds it (its description in why); another negative errno
 * when the lock file cannot be made (the reason in why). *l is set on success.
 */
int dblock_take(struct dblock *l, const struct config *cfg, char *why, size_t whylen);

/* Lets the lock go; safe on a lock never taken (fd -1). */
void dblock_release(struct dblock *l);

#endif
