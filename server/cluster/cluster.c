/*
 * cluster.c: PLACEHOLDER until the Redis side lands (docs/SCALING.md): a
 * single server's answers. cluster_new() refuses a node name.
 */
#include <errno.h>

#include "cluster/cluster.h"
#include "base/conf.h"
#include "base/util.h"

int cluster_new(uv_loop_t *loop, const struct config *cfg, struct metrics *m, struct cluster **out)
{
	*out = NULL;
	if (!cfg->node[0])
		return 0;
	util_log(LOG_ERROR, "node %s: this build has no cluster mode yet", cfg->node);
	return -ENOTSUP;
}

int cluster_start(struct cluster *c)
{
	return c ? -ENOTSUP : 0;
}

void cluster_stop(struct cluster *c)
{
}

void cluster_free(struct cluster *c)
{
}

const char *cluster_node(const struct cluster *c)
{
	return NULL;
}

void cluster_room_hosted(struct cluster *c, const char *room)
{
}

void cluster_room_gone(struct cluster *c, const char *room)
{
}

const char *cluster_room_node(const struct cluster *c, const char *room)
{
	return NULL;
}

bool cluster_node_alive(const struct cluster *c, const char *node)
{
	return false;
}

bool cluster_redis_up(const struct cluster *c)
{
	return true;
}

void cluster_lobby_publish(struct cluster *c, const char *rooms_json, size_t len)
{
}

void cluster_lobby_foreach(const struct cluster *c, cluster_rooms_cb cb, void *ctx)
{
}

void cluster_on_change(struct cluster *c, void (*cb)(void *ctx), void *ctx)
{
}
