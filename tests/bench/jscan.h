/*
 * jscan.h: a scanner for the one message the load generator reads at full
 * rate, `state`, without building a tree: it walks the top-level object once,
 * skipping every value it does not need (nested objects, strings with
 * escapes), and reports the spans of the fields the generator uses. Strings
 * it returns must hold no escape (the server's room ids, types and statuses
 * never do); anything unexpected makes the scan fail, and the caller then
 * falls back to jansson. It never reads past `len` and never allocates.
 */
#ifndef QUINTETO_JSCAN_H
#define QUINTETO_JSCAN_H

#include <stdbool.h>
#include <stddef.h>

#define JSCAN_MAX_LEGAL 256

struct jscan_span {
	const char *p;
	size_t n;
};

struct jscan_state {
	struct jscan_span type, room, status; /* string contents, without quotes; n = 0 when absent */
	long long ply;                        /* -1 when absent */
	int last_seat;                        /* `last.seat`; -1 when `last` is null or absent */
	bool has_legal;
	int nlegal;                               /* elements of `legal` */
	struct jscan_span legal[JSCAN_MAX_LEGAL]; /* each element's JSON text */
};

/*
 * Scans the object in buf[0..len). 0 on success; -1 when it is not a JSON
 * object as the scanner knows it, a wanted field is not of the expected type,
 * or `legal` has more than JSCAN_MAX_LEGAL elements (use a full parser then).
 */
int jscan_state(const char *buf, size_t len, struct jscan_state *out);

/* True when span `s` equals the NUL-terminated `lit`. */
bool jscan_eq(struct jscan_span s, const char *lit);

#endif
