/*
 * error.c: the rules core's codes (enum rules_error, the band -1000..-1099)
 * as sentences for a person.
 *
 * Must not: keep mutable state, or include anything but the C standard
 * library and the core's own headers (it is part of the pure rules core).
 */
#include "rules.h"

/* In enum rules_error order, from RULES_E_ILLEGAL. */
static const char *const texts[] = {
	"not a legal action",
	"not that seat's turn",
	"the match is already over",
	"options out of range for this game",
	"no such seat",
	"the seat is already out of play",
};

_Static_assert(sizeof(texts) / sizeof(texts[0]) == RULES_E_ILLEGAL - RULES_E_END_,
	       "one text per rules error code");

/* See rules.h. */
const char *rules_strerror(int err)
{
	if (err > RULES_E_ILLEGAL || err <= RULES_E_END_)
		return "unknown rules error";
	return texts[RULES_E_ILLEGAL - err];
}
