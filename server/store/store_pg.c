/*
 * store_pg.c: PLACEHOLDER until the PostgreSQL backend lands (docs/SCALING.md).
 */
#include <errno.h>

#include "base/util.h"
#include "store/store_int.h"

int store_open_pg(uv_loop_t *loop, const char *conninfo, const char *migrations_dir, struct store **out)
{
	*out = NULL;
	util_log(LOG_ERROR, "this build has no PostgreSQL store yet");
	return -ENOTSUP;
}
