/*
 * room_text.h: the texts a room's log keeps of each action, its action and
 * its outcome, as compact JSON with every object's keys sorted: the bytes
 * util_json_text() makes of the codec's trees, which the journal and the
 * archive hold and a restore compares. Written without a tree: the codec's
 * byte writer (wire_action_out(), wire_outcome_out(), which write keys in
 * the tree's order), then its keys sorted by room_text_sort(); the tree stays
 * the definition and the path for what the sort declines.
 * tests/unit/server/test_room_text.c holds both equal to the tree's text.
 */
#ifndef QUINTETO_ROOM_TEXT_H
#define QUINTETO_ROOM_TEXT_H

#include "json_out.h"
#include "rules.h"
#include "wire.h"

/*
 * Appends compact JSON `in` (`n` bytes, no white space, as json_out writes)
 * to `o` with each object's members sorted by key as JSON_OUT_SORT_KEYS sorts
 * them. 0, -ENOMEM, or -EINVAL: not such JSON, or a key with an escape, an
 * object of over 32 members or nesting over 32 deep (o is then as it was).
 */
int room_text_sort(struct json_out *o, const char *in, size_t n);

/* An action's and an outcome's text, appended to `o` (NUL-terminated). 0 or -ENOMEM (or a failed codec). */
int room_action_text(struct json_out *o, const struct wire_game *g, const struct rules_action *a);
int room_outcome_text(struct json_out *o, const struct wire_game *g, const struct rules_match *m,
		      const struct rules_action *a, const union rules_outcome *oc);

#endif
