/*
 * webfiles_int.h (private to server/net/): the web client's static files,
 * served from memory. webfiles_load() reads cfg->web_dir (under "/") and
 * cfg->wasm_dir (under "/wasm/") once, gzips every file that gzip shrinks
 * and keeps both forms with a strong ETag each; a request then costs a
 * hash lookup and memcpy()s of at most one chunk per writeable callback,
 * whatever the client sends: no disk, no compression, no allocation.
 * Only names found by the scan are served, so no path reaches outside the
 * two folders. A set is reference-counted: each response in flight holds
 * the set it reads, so SIGHUP can swap in a new one at any time.
 */
#ifndef QUINTETO_WEBFILES_INT_H
#define QUINTETO_WEBFILES_INT_H

#include <stdbool.h>
#include <stddef.h>

struct lws;
struct webfiles;

/* The bounds of a set: more files or bytes than this in the two folders is a start-up error. */
#define WEBFILES_MAX_FILES 1024
#define WEBFILES_MAX_BYTES (32u << 20) /* the files as they are; their gzipped copies come on top */
#define WEBFILES_MAX_DEPTH 8           /* folders within folders */

/* One response's progress; zeroed is idle (lws' per-connection data is zeroed). */
struct webfiles_resp {
	struct webfiles *set;      /* a reference, held until webfiles_resp_end() */
	const unsigned char *body; /* inside set */
	size_t len, sent;
};

/*
 * Reads and compresses the files of web_dir and wasm_dir (a folder that
 * cannot be opened is served as empty, with a warning). 0 and *out (one
 * reference), or a negative errno with the reason logged: -EFBIG past the
 * bounds above, -ENOMEM.
 */
int webfiles_load(const char *web_dir, const char *wasm_dir, struct webfiles **out);

/* Drops a reference; the last frees the set. NULL does nothing. */
void webfiles_unref(struct webfiles *set);

/* Files and bytes of a set (the files as they are, and gzipped where it helps), for the log. */
void webfiles_sizes(const struct webfiles *set, size_t *files, size_t *bytes, size_t *gz_bytes);

/*
 * LWS_CALLBACK_HTTP for a GET or HEAD of the web mount: answers 200 (gzip
 * when the client accepts it and it helps, identity otherwise) or 304 from
 * `set`, taking a reference into *r while a body is to be written. 0
 * answered (go on with webfiles_writeable), 1 no such file (the caller
 * answers), -1 the connection must close.
 */
int webfiles_request(struct webfiles *set, struct lws *wsi, struct webfiles_resp *r);

/* LWS_CALLBACK_HTTP_WRITEABLE: the next chunk; 0, or -1 to close. Ends the transaction after the last. */
int webfiles_writeable(struct lws *wsi, struct webfiles_resp *r);

/* The response is over (finished, or its connection closed): drops its reference. Idempotent. */
void webfiles_resp_end(struct webfiles_resp *r);

#endif
