/*
 * handlers_revoke.c: sessions ended elsewhere reach the connections that
 * speak for them (docs/ACCOUNTS.md, "Sessions ended elsewhere"). Two ways:
 *
 * - The periodic check: every session_check_s seconds the token hashes of
 *   this node's open account connections (one per connection, sorted and
 *   told apart once) are asked of the store, STORE_CHECK_MAX at a time, one
 *   job after the other on its writer thread, never on the loop; every
 *   connection whose session is no longer there gets `signed_out`
 *   ("revoked") and is back to before hello. It catches what nothing told
 *   this node: the command line's password reset, another node's change
 *   while Redis was away.
 * - The cluster's word (cluster.h, cluster_on_sessions_ended): another node
 *   committed the end of sessions and published their token hashes; the
 *   matching connections here are signed out at once, with that node's reason.
 *
 * Must not: act on a hash gathered before the answer came without looking
 * at the connection again (it may have signed in anew meanwhile: only a
 * connection whose token hash is still one the store no longer has goes).
 */
#include "net/handlers_int.h"

#include <stdlib.h>
#include <string.h>

#include "cluster/cluster.h"
#include "player/player.h"
#include "store/store.h"

static int hash_cmp(const void *a, const void *b)
{
	return strcmp(a, b);
}

/* The token hashes of the open account connections, sorted, each once; *n set. NULL: none (or ENOMEM). */
static char (*gather(struct handlers *h, size_t *n))[65]
{
	struct session *first = h->sessions ? h->sessions->ka_cursor : NULL, *t = first;
	char(*v)[65] = NULL;
	size_t cap = 0, k, u;

	*n = 0;
	if (!t)
		return NULL;
	do {
		if (t->player && !t->dead && !t->close_state && player_handle(t->player)) {
			if (*n == cap) {
				char(*grown)[65] = realloc(v, (cap = cap ? cap * 2 : 64) * sizeof(*v));

				if (!grown) {
					free(v);
					*n = 0;
					return NULL;
				}
				v = grown;
			}
			memcpy(v[(*n)++], t->token_hash, sizeof(v[0]));
		}
		t = t->ka_next;
	} while (t && t != first);
	if (!*n) {
		free(v);
		return NULL;
	}
	qsort(v, *n, sizeof(v[0]), hash_cmp);
	for (k = 1, u = 1; k < *n; k++)
		if (strcmp(v[k], v[u - 1]))
			memcpy(v[u++], v[k], sizeof(v[0]));
	*n = u;
	return v;
}

static void check_next(struct handlers *h);

/* A chunk's answer: the connections of the sessions gone are signed out; then the next chunk. */
static void checked_cb(void *ctx, struct store_acct *a)
{
	struct handlers *h = ctx;
	int err = a->err;

	h->check.out = false;
	if (!err && !h->check.stopping)
		h->metrics->acct_revoked_check +=
			handlers_sign_out_tokens(h, NULL, a->ended, a->nended, "revoked");
	store_acct_free(a);
	if (err) /* the store failed: the next period tries again */
		h->check.next = h->check.n;
	check_next(h);
}

/* Sends the next chunk of the gathered hashes; after the last one's answer, the check is over. */
static void check_next(struct handlers *h)
{
	struct handlers_check *c = &h->check;
	size_t k = c->n - c->next < STORE_CHECK_MAX ? c->n - c->next : STORE_CHECK_MAX;
	struct store_acct *a = NULL;

	if (k && !c->stopping && h->store && (a = store_acct_new(STORE_ACCT_CHECK)) &&
	    (a->check = malloc(k * sizeof(*a->check)))) {
		memcpy(a->check, c->hashes[c->next], k * sizeof(*a->check));
		a->ncheck = k;
		c->next += k;
		a->cb = checked_cb;
		a->ctx = h;
		c->out = true;
		store_acct_submit(h->store, a); /* its callback may run now (a closing store) */
		return;
	}
	store_acct_free(a); /* out of memory: the next period tries again */
	free(c->hashes);
	c->hashes = NULL;
	c->n = c->next = 0;
}

static void check_cb(uv_timer_t *t)
{
	struct handlers *h = t->data;
	struct handlers_check *c = &h->check;

	if (c->out || c->hashes || !h->store) /* the last check still runs (a slow store): this one waits */
		return;
	c->hashes = gather(h, &c->n);
	c->next = 0;
	check_next(h);
}

int handlers_check_start(struct handlers *h, uv_loop_t *loop)
{
	uint64_t every = (uint64_t)h->cfg->session_check_s * 1000;
	int err = uv_timer_init(loop, &h->check.timer);

	if (err)
		return err;
	h->check.timer.data = h;
	h->check.on = true;
	uv_timer_start(&h->check.timer, check_cb, every, every);
	uv_unref((uv_handle_t *)&h->check.timer);
	return 0;
}

void handlers_check_stop(struct handlers *h)
{
	/* a chunk out is answered (by store_close at the latest) and goes nowhere */
	h->check.stopping = true;
	if (h->check.on) {
		uv_close((uv_handle_t *)&h->check.timer, NULL);
		h->check.on = false;
	}
	if (!h->check.out) {
		free(h->check.hashes);
		h->check.hashes = NULL;
	}
}

void handlers_check_finish(struct handlers *h)
{
	free(h->check.hashes);
	h->check.hashes = NULL;
}

void handlers_sessions_ended_cb(void *ctx, const char *reason, char (*hashes)[65], size_t n)
{
	struct handlers *h = ctx;

	if (!h->check.stopping)
		h->metrics->acct_revoked_cluster += handlers_sign_out_tokens(h, NULL, hashes, n, reason);
}
