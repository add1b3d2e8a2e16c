/*
 * text.h: the wire's JSON as bytes, in pure C (issue 21). A writer (jw_*)
 * that appends compact JSON to a caller's buffer, a reader (jr_*) that
 * tokenizes JSON text into a caller's array, and each game's text codec
 * (struct text_game: view, action, outcome and result written straight to
 * bytes, and a view read back into a match).
 *
 * The writers produce exactly the bytes json_dumps(JSON_COMPACT) gives for
 * the jansson codec's tree (protocol/games/<id>/<id>_wire.c); the unit test
 * text_codecs checks it byte for byte over thousands of random playouts of
 * every game. Like the rules core this compiles for WebAssembly
 * (protocol/wasm/): standard library only (string.h, stdint.h, stdbool.h,
 * stddef.h), no I/O, no allocation, no global mutable state.
 */
#ifndef QUINTETO_TEXT_H
#define QUINTETO_TEXT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "rules.h"

/*
 * The text module's codes, negative in its band -1900..-1999
 * (docs/ARCHITECTURE.md, "Errors"); text_strerror() names each.
 */
enum text_error {
	TEXT_OK = 0,
	TEXT_E_NOT_JSON = -1900, /* jr_parse: the text is not one JSON value (or nests too deep) */
	TEXT_E_TOKENS = -1901,   /* jr_parse: more tokens than the caller's array holds */
	TEXT_E_ABSENT = -1902,   /* jr_int, jr_bool: no such value, or not of that type or range */
	TEXT_E_BAD_VIEW = -1903, /* view_read: not a view this game writes */
	TEXT_E_END_ = -1904,
};

/* A sentence for a person about a TEXT_E_* code; "unknown text error" for any other value. */
const char *text_strerror(int err);

/* jr_get() and jr_item() when there is no such token (an index, not an error). */
#define JR_NO_TOKEN (-1)

/* --- writer ------------------------------------------------------------- */

#define JW_MAX_DEPTH 32

/*
 * A writer over buf[0..cap). Appends never write past cap: once something
 * does not fit, `full` is set and every later append is dropped (check
 * `full` once at the end). `len` counts what was written; a NUL is kept
 * after it when there is room.
 */
struct jw {
	char *buf;
	size_t len, cap;
	bool full;
	int depth;                   /* open objects and arrays */
	uint8_t count[JW_MAX_DEPTH]; /* values written at each depth (saturates at 2) */
	bool after_key;              /* a key was written; its value comes next */
};

void jw_init(struct jw *w, char *buf, size_t cap);
void jw_obj(struct jw *w);                /* { */
void jw_obj_end(struct jw *w);            /* } */
void jw_arr(struct jw *w);                /* [ */
void jw_arr_end(struct jw *w);            /* ] */
void jw_key(struct jw *w, const char *k); /* "k": (inside an object; then exactly one value) */
void jw_int(struct jw *w, long long v);
void jw_bool(struct jw *w, bool v);
void jw_null(struct jw *w);
void jw_str(struct jw *w, const char *s); /* escaped as jansson escapes (UTF-8 kept, no \/) */
/* Already-written JSON text (a whole value) inserted as the next value. */
void jw_raw(struct jw *w, const char *text, size_t len);

/* --- reader ------------------------------------------------------------- */

enum jr_type { JR_NONE = 0, JR_OBJ, JR_ARR, JR_STR, JR_INT, JR_TRUE, JR_FALSE, JR_NULL, JR_REAL };

/*
 * One token: a value, or an object's key (a JR_STR whose value follows it).
 * start..end are byte offsets of the token in the text (a string's without
 * its quotes); `n` is an object's number of keys or an array's number of
 * items; `next` is the index of the token after this value's whole subtree
 * (so a key's value is at k + 1 and the next key at tok[k + 1].next).
 */
struct jr_tok {
	uint8_t type; /* enum jr_type */
	bool escaped; /* a string with backslash escapes (jr_streq compares raw bytes: false) */
	int32_t start, end;
	int32_t n;
	int32_t next;
	long long i; /* JR_INT's value */
};

/*
 * Tokenizes one JSON value (whitespace around it allowed, nothing after it)
 * from text[0..len) into tok[0..cap). Returns the number of tokens, or -1 for
 * text that is not JSON (or nests past JW_MAX_DEPTH, or an integer out of
 * long long's range: TEXT_E_NOT_JSON), TEXT_E_TOKENS when cap tokens are not
 * enough.
 */
int jr_parse(const char *text, size_t len, struct jr_tok *tok, int cap);

/* The value of key `k` in object token `obj`: its index, or JR_NO_TOKEN. */
int jr_get(const char *text, const struct jr_tok *tok, int obj, const char *k);

/* Item `i` of array token `arr`: its index, or JR_NO_TOKEN. */
int jr_item(const struct jr_tok *tok, int arr, int i);

/* True if token t is a string (or key) equal to s (no escapes in it). */
bool jr_streq(const char *text, const struct jr_tok *tok, int t, const char *s);

/*
 * Integer token t in lo..hi into *out: 0, or TEXT_E_ABSENT (t < 0, not an
 * integer, out of range).
 */
int jr_int(const struct jr_tok *tok, int t, long long lo, long long hi, long long *out);

/* Boolean token t into *out: 0, or TEXT_E_ABSENT. */
int jr_bool(const struct jr_tok *tok, int t, bool *out);

/* --- each game's text codec ---------------------------------------------- */

/*
 * A game's JSON in bytes. Each writer appends one value to `w` and writes the
 * same bytes as the jansson codec's function of the same name (wire.h,
 * struct wire_game) dumped compact.
 *
 * `view_read` is the inverse of `view`, for a client that has only what a
 * `state` message shows (the live room's local preview in the browser): `m`
 * was started for this game (rules_match_start with any seed and the room's
 * options) and has m->ply set; view_read overwrites the game's state (and
 * m->out, where the view shows who is out of play) from the view token
 * `view` of `text`, the seats to act to_act[0..nto_act) and, when it is not
 * -1, the token `legal` of the legal actions the first seat to act was sent
 * (what tells phases apart that a view shows alike). 0, or TEXT_E_BAD_VIEW
 * when the view is not one this game writes (m is then unspecified). What a view does not
 * show (a hidden counter) is set to its most likely value; the caller checks
 * the rebuilt match's legal list against the one it was sent and trusts the
 * match only if they are equal.
 */
struct text_game {
	const char *id;
	void (*view)(struct jw *w, const struct rules_match *m);
	void (*action)(struct jw *w, const struct rules_action *a);
	/* `m` is the match after the action. */
	void (*outcome)(struct jw *w, const struct rules_match *m, const struct rules_action *a,
			const union rules_outcome *o);
	void (*result)(struct jw *w, const struct rules_result *r);
	int (*view_read)(struct rules_match *m, const char *text, const struct jr_tok *tok, int view,
			 int legal, const uint8_t *to_act, int nto_act);
};

/* Each game's, `text_game_<id>` in protocol/games/<id>/<id>_text.c. */
#define TEXT_GAME_DECLARE(id) extern const struct text_game text_game_##id;
GAME_LIST(TEXT_GAME_DECLARE)
#undef TEXT_GAME_DECLARE

/* The text codec of game `id` (built-in games only); NULL if none. */
const struct text_game *text_game_find(const char *id);

/*
 * The common result writer: null while playing (r->over false); otherwise
 * {"winner":seat,"reason":reasons[r->reason]}, or with_draw
 * {"winner":seat|null,"draw":bool,"reason":...}: the same keys in the same
 * order as wire_result_pack().
 */
void text_result(struct jw *w, const struct rules_result *r, const char *const *reasons, size_t nreasons,
		 bool with_draw);

#endif
