/*
 * player.c: the rooms a player holds a seat in, kept as a small unordered
 * array (a player holds few seats; removal swaps the last entry in).
 */
#include "player/player.h"

#include <errno.h>
#include <stdlib.h>

int player_add_room(struct player *p, struct room *r)
{
	int i;

	for (i = 0; i < p->nrooms; i++)
		if (p->rooms[i] == r)
			return 0;
	if (p->nrooms == p->caprooms) {
		int cap = p->caprooms ? p->caprooms * 2 : 4;
		struct room **rooms = realloc(p->rooms, (size_t)cap * sizeof(*rooms));

		if (!rooms)
			return -ENOMEM;
		p->rooms = rooms;
		p->caprooms = cap;
	}
	p->rooms[p->nrooms++] = r;
	return 0;
}

void player_del_room(struct player *p, struct room *r)
{
	int i;

	for (i = 0; i < p->nrooms; i++)
		if (p->rooms[i] == r) {
			p->rooms[i] = p->rooms[--p->nrooms];
			return;
		}
}

bool player_connected(const struct player *p)
{
	return p && p->nsessions > 0;
}
