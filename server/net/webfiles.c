/*
 * webfiles.c: the web client's files from memory (see webfiles_int.h).
 * Loading reads each file once, with its size checked against the set's
 * bounds before it is read; serving never touches the disk. A name is served
 * only if the scan found it: a regular file (or a link to one) whose real path
 * lies inside its folder, with a known type, under no hidden folder. The
 * headers are the ones lws' file mount wrote (so the security headers of the
 * vhost come with them) plus Content-Encoding and Vary; the ETag is strong
 * (a hash of the file, one per encoding), so an upgrade that changes a file
 * changes its tag whatever the file's dates say.
 */
#include "net/webfiles_int.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <libwebsockets.h>
#include <limits.h>
#include <openssl/evp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include "base/util.h"

#define URL_MAX     512   /* the longest path served, "/" included */
#define CHUNK       16384 /* bytes per writeable callback */
#define HEADERS_MAX 2048  /* the security headers are about 500 of them */
#define INM_MAX     1024  /* an If-None-Match longer than this is ignored (a 200 then) */
#define AE_MAX      256   /* likewise an Accept-Encoding (identity then) */

/* Revalidated by ETag after a short while (the names have no hash, so an upgrade must show soon). */
static const char cc_web[] = "must-revalidate, private, max-age=30";
static const char cc_wasm[] = "must-revalidate, private, max-age=300";

struct webfile {
	struct webfile *next;
	const char *ctype;
	const char *cache_control;
	unsigned char *body, *gz; /* gz: NULL when gzip does not make it at least a tenth smaller */
	size_t len, gzlen;
	char etag[24];    /* "<16 hex digits>", quotes included */
	char etag_gz[28]; /* "<16 hex digits>-gz" */
	char path[];      /* the URL path, "/app.js": the key of by_path */
};

struct webfiles {
	int refs;
	size_t n, bytes, gz_bytes;
	struct webfile *files;
	struct hmap by_path;
};

static const struct {
	const char *ext, *ctype;
} types[] = {
	{ ".html", "text/html; charset=utf-8" },
	{ ".js", "text/javascript; charset=utf-8" },
	{ ".mjs", "text/javascript; charset=utf-8" },
	{ ".css", "text/css; charset=utf-8" },
	{ ".json", "application/json" },
	{ ".svg", "image/svg+xml" },
	{ ".png", "image/png" },
	{ ".ico", "image/x-icon" },
	{ ".webp", "image/webp" },
	{ ".woff2", "font/woff2" },
	{ ".txt", "text/plain; charset=utf-8" },
	{ ".wasm", "application/wasm" },
};

static const char *type_of(const char *name)
{
	const char *dot = strrchr(name, '.');
	size_t i;

	for (i = 0; dot && i < sizeof(types) / sizeof(types[0]); i++)
		if (!strcasecmp(dot, types[i].ext))
			return types[i].ctype;
	return NULL;
}

static void file_free(struct webfile *f)
{
	if (!f)
		return;
	free(f->body);
	free(f->gz);
	free(f);
}

void webfiles_unref(struct webfiles *set)
{
	struct webfile *f, *next;

	if (!set || --set->refs > 0)
		return;
	for (f = set->files; f; f = next) {
		next = f->next;
		file_free(f);
	}
	hmap_finish(&set->by_path);
	free(set);
}

void webfiles_sizes(const struct webfiles *set, size_t *files, size_t *bytes, size_t *gz_bytes)
{
	*files = set ? set->n : 0;
	*bytes = set ? set->bytes : 0;
	*gz_bytes = set ? set->gz_bytes : 0;
}

/* The gzip form of f->body into f->gz, when it is at least a tenth smaller (else f->gz stays NULL). */
static int compress_file(struct webfile *f)
{
	z_stream z;
	size_t cap;
	int r;

	memset(&z, 0, sizeof(z));
	/* 15 + 16: a gzip wrapper (RFC 1952) with the largest window; the header's time stays 0 */
	if (deflateInit2(&z, Z_BEST_COMPRESSION, Z_DEFLATED, 15 + 16, 9, Z_DEFAULT_STRATEGY) != Z_OK)
		return -ENOMEM;
	cap = deflateBound(&z, (uLong)f->len);
	f->gz = malloc(cap ? cap : 1);
	if (!f->gz) {
		deflateEnd(&z);
		return -ENOMEM;
	}
	z.next_in = f->body;
	z.avail_in = (uInt)f->len; /* at most WEBFILES_MAX_BYTES */
	z.next_out = f->gz;
	z.avail_out = (uInt)cap;
	r = deflate(&z, Z_FINISH);
	f->gzlen = z.total_out;
	deflateEnd(&z);
	if (r != Z_STREAM_END || f->gzlen >= f->len - f->len / 10) {
		free(f->gz);
		f->gz = NULL;
		f->gzlen = 0;
		return r == Z_STREAM_END ? 0 : -ENOMEM;
	}
	return 0;
}

/* The strong tags of f: the first 8 bytes of the SHA-256 of its content, in hex. */
static int tag_file(struct webfile *f)
{
	unsigned char md[EVP_MAX_MD_SIZE];
	unsigned int mdlen = 0;
	char hex[17];
	int i;

	if (!EVP_Digest(f->body, f->len, md, &mdlen, EVP_sha256(), NULL) || mdlen < 8)
		return -ENOMEM;
	for (i = 0; i < 8; i++)
		snprintf(hex + 2 * i, 3, "%02x", md[i]);
	snprintf(f->etag, sizeof(f->etag), "\"%s\"", hex);
	snprintf(f->etag_gz, sizeof(f->etag_gz), "\"%s-gz\"", hex);
	return 0;
}

/* All of fd's `len` bytes into a new buffer; NULL with errno (EIO if the file changed size). */
static unsigned char *read_all(int fd, size_t len)
{
	unsigned char *buf = malloc(len ? len : 1);
	size_t got = 0;

	while (buf && got < len) {
		ssize_t n = read(fd, buf + got, len - got);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			free(buf);
			errno = n ? errno : EIO;
			return NULL;
		}
		got += (size_t)n;
	}
	return buf;
}

struct scan {
	struct webfiles *set;
	char root[PATH_MAX]; /* the real path of the folder being scanned */
	const char *cache_control;
};

/* Whether `real` is the folder's root or below it. */
static bool inside(const struct scan *sc, const char *real)
{
	size_t n = strlen(sc->root);

	return !strncmp(real, sc->root, n) && (real[n] == '/' || real[n] == '\0');
}

/* One regular file of `size` bytes at `path`, served as `url`. 0, a skip, or a negative errno. */
static int add_file(struct scan *sc, const char *path, const char *url, const char *ctype, size_t size)
{
	struct webfiles *set = sc->set;
	struct webfile *f;
	size_t ulen = strlen(url);
	int fd, err;

	if (hmap_get(&set->by_path, url))
		return 0; /* /wasm/ first: the folder of the rules module wins over a web/wasm/ */
	if (set->n >= WEBFILES_MAX_FILES || size > WEBFILES_MAX_BYTES - set->bytes) {
		util_log(LOG_ERROR,
			 "web: more than %d files or %u MiB in the web client's folders (at %s): is `web` "
			 "the client's folder?",
			 WEBFILES_MAX_FILES, WEBFILES_MAX_BYTES >> 20, path);
		return -EFBIG;
	}
	f = calloc(1, sizeof(*f) + ulen + 1);
	if (!f)
		return -ENOMEM;
	memcpy(f->path, url, ulen + 1);
	f->ctype = ctype;
	f->cache_control = sc->cache_control;
	f->len = size;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	f->body = fd < 0 ? NULL : read_all(fd, size);
	err = f->body ? 0 : -errno;
	if (fd >= 0)
		close(fd);
	if (err) {
		util_log(LOG_WARN, "web: cannot read %s: %s; not served", path, strerror(-err));
		file_free(f);
		return 0;
	}
	if ((err = compress_file(f)) || (err = tag_file(f)) || (err = hmap_put(&set->by_path, f->path, f))) {
		file_free(f);
		return err;
	}
	f->next = set->files;
	set->files = f;
	set->n++;
	set->bytes += f->len;
	set->gz_bytes += f->gz ? f->gzlen : f->len;
	return 0;
}

static int scan_dir(struct scan *sc, const char *dir, const char *url, int depth);

/* One entry of a folder: a file, a folder to scan, or something skipped. */
static int scan_entry(struct scan *sc, const char *dir, const char *url, const char *name, int depth)
{
	char path[PATH_MAX], child[URL_MAX + 1], real[PATH_MAX];
	const char *ctype;
	struct stat st;

	if (name[0] == '.') /* ., .., and hidden files (.git, editors' swap files) */
		return 0;
	if ((size_t)snprintf(path, sizeof(path), "%s/%s", dir, name) >= sizeof(path) ||
	    (size_t)snprintf(child, sizeof(child), "%s/%s", url, name) >= sizeof(child))
		return 0; /* a name too long to be asked for */
	if (stat(path, &st) || !realpath(path, real) || !inside(sc, real))
		return 0; /* a dangling link, or one that leads out of the folder */
	if (S_ISDIR(st.st_mode)) {
		if (depth >= WEBFILES_MAX_DEPTH) {
			util_log(LOG_ERROR, "web: %s is more than %d folders deep (a link loop?)", path,
				 WEBFILES_MAX_DEPTH);
			return -EFBIG;
		}
		return scan_dir(sc, path, child, depth + 1);
	}
	if (!S_ISREG(st.st_mode) || !(ctype = type_of(name)))
		return 0; /* what the client does not load: not served */
	return add_file(sc, path, child, ctype, (size_t)st.st_size);
}

static int scan_dir(struct scan *sc, const char *dir, const char *url, int depth)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int err = 0;

	if (!d) {
		util_log(LOG_WARN, "web: cannot open %s: %s; nothing served from it", dir, strerror(errno));
		return 0;
	}
	while (!err && (e = readdir(d)))
		err = scan_entry(sc, dir, url, e->d_name, depth);
	closedir(d);
	return err;
}

/* Adds the files of `dir` to sc->set under the URL prefix `url` ("" or "/wasm"). */
static int scan_root(struct scan *sc, const char *dir, const char *url, const char *cache_control)
{
	if (!dir[0])
		return 0;
	if (!realpath(dir, sc->root)) {
		util_log(LOG_WARN, "web: cannot open %s: %s; nothing served from it", dir, strerror(errno));
		return 0;
	}
	sc->cache_control = cache_control;
	return scan_dir(sc, sc->root, url, 0);
}

int webfiles_load(const char *web_dir, const char *wasm_dir, struct webfiles **out)
{
	struct scan sc = { 0 };
	int err;

	*out = NULL;
	sc.set = calloc(1, sizeof(*sc.set));
	if (!sc.set)
		return -ENOMEM;
	sc.set->refs = 1;
	hmap_init(&sc.set->by_path);
	err = scan_root(&sc, wasm_dir, "/wasm", cc_wasm);
	if (!err)
		err = scan_root(&sc, web_dir, "", cc_web);
	if (err) {
		if (err == -ENOMEM)
			util_log(LOG_ERROR, "web: out of memory reading the web client's files");
		webfiles_unref(sc.set);
		return err;
	}
	*out = sc.set;
	return 0;
}

/* Whether a q-value (RFC 9110 12.4.2) in `a`..`b`, as in ";q=0.000", is zero. */
static bool q_zero(const char *a, const char *b)
{
	const char *q;

	for (q = a; q + 1 < b; q++)
		if ((q[0] == 'q' || q[0] == 'Q') && q[1] == '=')
			break;
	if (q + 1 >= b)
		return false; /* no q: 1 */
	for (q += 2; q < b && *q == ' '; q++)
		;
	if (q >= b || *q != '0')
		return false;
	for (q++; q < b && (*q == '.' || *q == '0'); q++)
		;
	return q >= b || *q == ' ' || *q == ';';
}

/*
 * The next element of a comma-separated header list, from *s: its bounds
 * *a..*b with the blanks around it trimmed; *s moves past it. False at the
 * list's end.
 */
static bool list_item(const char **s, const char **a, const char **b)
{
	const char *end;

	if (!**s)
		return false;
	end = strchr(*s, ',');
	end = end ? end : *s + strlen(*s);
	for (*a = *s; *a < end && (**a == ' ' || **a == '\t'); (*a)++)
		;
	for (*b = end; *b > *a && ((*b)[-1] == ' ' || (*b)[-1] == '\t'); (*b)--)
		;
	*s = *end ? end + 1 : end;
	return true;
}

/* Whether Accept-Encoding takes gzip: named (or x-gzip) with a q above 0, or "*" so and gzip not refused. */
static bool accepts_gzip(struct lws *wsi)
{
	char ae[AE_MAX];
	const char *s = ae, *tok, *end, *tend;
	int gzip = -1, star = -1; /* -1 unnamed, 0 refused, 1 accepted */

	if (lws_hdr_copy(wsi, ae, sizeof(ae), WSI_TOKEN_HTTP_ACCEPT_ENCODING) <= 0)
		return false;
	while (list_item(&s, &tok, &end)) {
		for (tend = tok; tend < end && *tend != ';' && *tend != ' ' && *tend != '\t'; tend++)
			;
		if ((tend - tok == 4 && !strncasecmp(tok, "gzip", 4)) ||
		    (tend - tok == 6 && !strncasecmp(tok, "x-gzip", 6)))
			gzip = !q_zero(tend, end);
		else if (tend - tok == 1 && *tok == '*')
			star = !q_zero(tend, end);
	}
	return gzip >= 0 ? gzip == 1 : star == 1;
}

/* Whether If-None-Match names `etag` (weak comparison, RFC 9110 13.1.2), or is "*". */
static bool etag_matches(struct lws *wsi, const char *etag)
{
	char inm[INM_MAX];
	const char *s = inm, *a, *b;
	size_t elen = strlen(etag);

	if (lws_hdr_copy(wsi, inm, sizeof(inm), WSI_TOKEN_HTTP_IF_NONE_MATCH) <= 0)
		return false;
	while (list_item(&s, &a, &b)) {
		if (b - a == 1 && *a == '*')
			return true;
		if (b - a > 2 && a[0] == 'W' && a[1] == '/')
			a += 2;
		if ((size_t)(b - a) == elen && !memcmp(a, etag, elen))
			return true;
	}
	return false;
}

static int header(struct lws *wsi, const char *name, const char *value, unsigned char **p, unsigned char *end)
{
	return lws_add_http_header_by_name(wsi, (const unsigned char *)name, (const unsigned char *)value,
					   (int)strlen(value), p, end);
}

/* The file a request's path names ("/" and ".../" are their index.html), or NULL. */
static const struct webfile *lookup(const struct webfiles *set, struct lws *wsi, bool head)
{
	char uri[URL_MAX + 16];
	int n = lws_hdr_copy(wsi, uri, URL_MAX + 1, head ? WSI_TOKEN_HEAD_URI : WSI_TOKEN_GET_URI);

	if (n <= 0 || n > URL_MAX)
		return NULL;
	if (uri[n - 1] == '/')
		memcpy(uri + n, "index.html", sizeof("index.html"));
	return hmap_get(&set->by_path, uri);
}

int webfiles_request(struct webfiles *set, struct lws *wsi, struct webfiles_resp *r)
{
	unsigned char buf[LWS_PRE + HEADERS_MAX], *start = buf + LWS_PRE, *p = start,
						  *end = buf + sizeof(buf) - 1;
	bool head = lws_hdr_total_length(wsi, WSI_TOKEN_HEAD_URI) > 0;
	const struct webfile *f = set ? lookup(set, wsi, head) : NULL;
	bool gz;
	const char *etag;

	if (!f)
		return 1;
	gz = f->gz && accepts_gzip(wsi);
	etag = gz ? f->etag_gz : f->etag;
	if (etag_matches(wsi, etag)) { /* a 304 has no body, and so no length (RFC 9110 15.4.5) */
		if (lws_add_http_header_status(wsi, HTTP_STATUS_NOT_MODIFIED, &p, end) ||
		    header(wsi, "etag:", etag, &p, end) ||
		    header(wsi, "cache-control:", f->cache_control, &p, end) ||
		    (f->gz && header(wsi, "vary:", "Accept-Encoding", &p, end)) ||
		    lws_finalize_write_http_header(wsi, start, &p, end))
			return -1;
		return lws_http_transaction_completed(wsi) ? -1 : 0;
	}
	if (lws_add_http_common_headers(wsi, HTTP_STATUS_OK, f->ctype, gz ? f->gzlen : f->len, &p, end) ||
	    (gz && header(wsi, "content-encoding:", "gzip", &p, end)) ||
	    header(wsi, "etag:", etag, &p, end) || header(wsi, "cache-control:", f->cache_control, &p, end) ||
	    (f->gz && header(wsi, "vary:", "Accept-Encoding", &p, end)) ||
	    lws_finalize_write_http_header(wsi, start, &p, end))
		return -1;
	if (head || !f->len) /* the headers say it all */
		return lws_http_transaction_completed(wsi) ? -1 : 0;
	webfiles_resp_end(r);
	r->set = set;
	set->refs++;
	r->body = gz ? f->gz : f->body;
	r->len = gz ? f->gzlen : f->len;
	r->sent = 0;
	lws_callback_on_writable(wsi);
	return 0;
}

int webfiles_writeable(struct lws *wsi, struct webfiles_resp *r)
{
	static unsigned char
		chunk[LWS_PRE + CHUNK]; /* lws may write into the LWS_PRE bytes: never the set's */
	size_t n;
	bool final;

	if (!r->set)
		return 0;
	n = r->len - r->sent < CHUNK ? r->len - r->sent : CHUNK;
	final = r->sent + n == r->len;
	memcpy(chunk + LWS_PRE, r->body + r->sent, n);
	if (lws_write(wsi, chunk + LWS_PRE, n, final ? LWS_WRITE_HTTP_FINAL : LWS_WRITE_HTTP) < (int)n)
		return -1;
	r->sent += n;
	if (!final) {
		lws_callback_on_writable(wsi);
		return 0;
	}
	webfiles_resp_end(r);
	return lws_http_transaction_completed(wsi) ? -1 : 0;
}

void webfiles_resp_end(struct webfiles_resp *r)
{
	struct webfiles *set = r->set;

	r->set = NULL;
	r->body = NULL;
	r->len = r->sent = 0;
	webfiles_unref(set);
}
