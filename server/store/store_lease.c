/*
 * store_lease.c: PLACEHOLDER until node leases land (docs/SCALING.md).
 */
#include <errno.h>

#include "store/store_int.h"

int store_lease_take(struct store *st, const char *node, int lease_ms)
{
	return -ENOTSUP;
}

void store_lease_watch(struct store *st, store_lease_cb cb, void *ctx)
{
}
