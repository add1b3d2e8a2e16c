/*
 * game_common.c: what every game's codec shares beyond the options decoder in
 * games.c: the result object. A game names its reasons in a table indexed by
 * enum rules_reason and says whether its result carries `draw`; the packing
 * (null while playing, the key order, winner null in a draw) is here once.
 * No state; returns new references.
 */
#include "wire_games.h"

/* See wire_games.h. */
json_t *wire_result_pack(const struct rules_result *r, const char *const *reasons, size_t nreasons,
			 bool with_draw)
{
	if (!r->over)
		return json_null();
	if (r->reason >= nreasons || !reasons[r->reason])
		return NULL;
	if (!with_draw)
		return json_pack("{s:i,s:s}", "winner", r->winner, "reason", reasons[r->reason]);
	return json_pack("{s:o,s:b,s:s}", "winner",
			 r->draw || r->winner < 0 ? json_null() : json_integer(r->winner), "draw", r->draw,
			 "reason", reasons[r->reason]);
}
