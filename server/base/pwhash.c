/*
 * pwhash.c: the password-hashing pool (pwhash.h). Jobs wait in one FIFO
 * under a mutex; worker threads take them, run libsodium, and put them on a
 * done list that a uv_async_t hands back to the loop. The loop thread owns a
 * job until it is queued and again once it is done; `cancelled` is the
 * loop's alone (a job running when it is cancelled comes back and is freed
 * unanswered). Passwords are copied into the job and wiped with
 * sodium_memzero() as soon as the hash has run.
 */
#include "base/pwhash.h"

#include <errno.h>
#include <pthread.h>
#include <sodium.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"

#define PWHASH_PASSWORD_MAX 512 /* bytes: the wire's own cap on a password field */

struct pwhash_job {
	struct pwhash_job *next, *prev; /* in the queue, then in the done list (next only) */
	struct pwhash *ph;
	bool verify, queued, cancelled, match;
	int err;
	char password[PWHASH_PASSWORD_MAX + 1];
	char hash[PWHASH_STR_SIZE];
	pwhash_cb done;
	void *ctx;
};

struct pwhash {
	uv_loop_t *loop;
	uv_async_t async;
	uv_mutex_t lock;
	uv_cond_t cond;
	pthread_t *threads;
	unsigned nthreads;
	bool quit;                      /* under lock */
	struct pwhash_job *head, *tail; /* the queue (lock) */
	struct pwhash_job *done_head;   /* finished, for the loop (lock) */
	size_t depth, queue_max;        /* depth under lock */
	_Atomic uint64_t ndone;
	unsigned long long ops;
	size_t mem;
	char dummy[PWHASH_STR_SIZE];
};

static int sodium_once(void)
{
	return sodium_init() < 0 ? -EIO : 0; /* 1 (already) is fine: it may be called again */
}

int pwhash_str(const char *password, unsigned long long ops, size_t mem_kib, char out[PWHASH_STR_SIZE])
{
	if (sodium_once())
		return -EIO;
	return crypto_pwhash_str(out, password, strlen(password), ops, mem_kib * 1024) ? -EIO : 0;
}

static void run(struct pwhash *ph, struct pwhash_job *j)
{
	size_t len = strlen(j->password);

	if (!j->verify) {
		j->err = crypto_pwhash_str(j->hash, j->password, len, ph->ops, ph->mem) ? -EIO : 0;
	} else {
		/* the dummy never matches, but costs what a real check costs */
		bool dummy = !*j->hash;
		int r = crypto_pwhash_str_verify(dummy ? ph->dummy : j->hash, j->password, len);

		j->match = !dummy && r == 0;
	}
	sodium_memzero(j->password, sizeof(j->password));
	atomic_fetch_add(&ph->ndone, 1);
}

static void *worker(void *arg)
{
	struct pwhash *ph = arg;
	struct pwhash_job *j;

	(void)pthread_setname_np(pthread_self(), "q-pwhash");
	for (;;) {
		uv_mutex_lock(&ph->lock);
		while (!ph->head && !ph->quit)
			uv_cond_wait(&ph->cond, &ph->lock);
		if (ph->quit) {
			uv_mutex_unlock(&ph->lock);
			return NULL;
		}
		j = ph->head;
		ph->head = j->next;
		if (ph->head)
			ph->head->prev = NULL;
		else
			ph->tail = NULL;
		j->queued = false;
		ph->depth--;
		uv_mutex_unlock(&ph->lock);
		run(ph, j);
		uv_mutex_lock(&ph->lock);
		j->next = ph->done_head;
		ph->done_head = j;
		uv_mutex_unlock(&ph->lock);
		(void)uv_async_send(&ph->async);
	}
}

static void async_cb(uv_async_t *a)
{
	struct pwhash *ph = a->data;
	struct pwhash_job *j, *next, *rev = NULL;

	uv_mutex_lock(&ph->lock);
	j = ph->done_head;
	ph->done_head = NULL;
	uv_mutex_unlock(&ph->lock);
	for (; j; j = next) { /* oldest first */
		next = j->next;
		j->next = rev;
		rev = j;
	}
	for (j = rev; j; j = next) {
		next = j->next;
		if (!j->cancelled)
			j->done(j->ctx, j->err, j->verify ? NULL : j->hash, j->match);
		sodium_memzero(j->hash, sizeof(j->hash));
		free(j);
	}
}

int pwhash_new(uv_loop_t *loop, unsigned threads, size_t queue_max, unsigned long long ops, size_t mem_kib,
	       struct pwhash **out)
{
	struct pwhash *ph;
	unsigned i;
	int err;

	*out = NULL;
	if (sodium_once())
		return -EIO;
	ph = calloc(1, sizeof(*ph));
	if (!ph)
		return -ENOMEM;
	ph->loop = loop;
	ph->queue_max = queue_max ? queue_max : 1;
	ph->ops = ops < PWHASH_OPS_MIN ? PWHASH_OPS_MIN : ops;
	ph->mem = (mem_kib < PWHASH_MEM_MIN_KIB ? PWHASH_MEM_MIN_KIB : mem_kib) * 1024;
	/* the dummy: a random password's hash with the very parameters of every real one */
	{
		unsigned char raw[24];
		char pw[49];

		randombytes_buf(raw, sizeof(raw));
		sodium_bin2hex(pw, sizeof(pw), raw, sizeof(raw));
		if (crypto_pwhash_str(ph->dummy, pw, strlen(pw), ph->ops, ph->mem)) {
			free(ph);
			return -ENOMEM;
		}
	}
	if (uv_mutex_init(&ph->lock)) {
		free(ph);
		return -ENOMEM;
	}
	if (uv_cond_init(&ph->cond) || (err = uv_async_init(loop, &ph->async, async_cb))) {
		util_log(LOG_ERROR, "pwhash: cannot set up its loop handle");
		uv_mutex_destroy(&ph->lock);
		free(ph);
		return -ENOMEM;
	}
	ph->async.data = ph;
	uv_unref((uv_handle_t *)&ph->async); /* the pool alone never keeps the loop running */
	ph->threads = calloc(threads ? threads : 1, sizeof(*ph->threads));
	for (i = 0; ph->threads && i < (threads ? threads : 1); i++) {
		if (pthread_create(&ph->threads[i], NULL, worker, ph))
			break;
		ph->nthreads++;
	}
	*out = ph;
	if (!ph->nthreads) {
		pwhash_free(ph);
		*out = NULL;
		return -EAGAIN;
	}
	return 0;
}

static void async_closed_cb(uv_handle_t *h)
{
	free(h->data);
}

void pwhash_free(struct pwhash *ph)
{
	struct pwhash_job *j;
	unsigned i;

	if (!ph)
		return;
	uv_mutex_lock(&ph->lock);
	ph->quit = true;
	uv_mutex_unlock(&ph->lock);
	uv_cond_broadcast(&ph->cond);
	for (i = 0; i < ph->nthreads; i++)
		(void)pthread_join(ph->threads[i], NULL);
	free(ph->threads);
	async_cb(&ph->async);    /* the finished ones answered as usual */
	while ((j = ph->head)) { /* never run: answered -ECANCELED, so that every job has an end */
		ph->head = j->next;
		sodium_memzero(j->password, sizeof(j->password));
		if (!j->cancelled)
			j->done(j->ctx, -ECANCELED, NULL, false);
		free(j);
	}
	uv_cond_destroy(&ph->cond);
	uv_mutex_destroy(&ph->lock);
	sodium_memzero(ph->dummy, sizeof(ph->dummy));
	uv_close((uv_handle_t *)&ph->async, async_closed_cb); /* ph is freed there */
}

static struct pwhash_job *submit(struct pwhash *ph, bool verify, const char *password, const char *hash,
				 pwhash_cb done, void *ctx)
{
	struct pwhash_job *j;

	if (strlen(password) > PWHASH_PASSWORD_MAX || (hash && strlen(hash) >= PWHASH_STR_SIZE))
		return NULL;
	uv_mutex_lock(&ph->lock);
	if (ph->depth >= ph->queue_max) {
		uv_mutex_unlock(&ph->lock);
		return NULL;
	}
	uv_mutex_unlock(&ph->lock);
	j = calloc(1, sizeof(*j));
	if (!j)
		return NULL;
	j->ph = ph;
	j->verify = verify;
	j->done = done;
	j->ctx = ctx;
	strcpy(j->password, password);
	if (hash)
		strcpy(j->hash, hash);
	uv_mutex_lock(&ph->lock);
	j->queued = true;
	j->prev = ph->tail;
	if (ph->tail)
		ph->tail->next = j;
	else
		ph->head = j;
	ph->tail = j;
	ph->depth++;
	uv_mutex_unlock(&ph->lock);
	uv_cond_signal(&ph->cond);
	return j;
}

struct pwhash_job *pwhash_hash(struct pwhash *ph, const char *password, pwhash_cb done, void *ctx)
{
	return submit(ph, false, password, NULL, done, ctx);
}

struct pwhash_job *pwhash_verify(struct pwhash *ph, const char *password, const char *hash, pwhash_cb done,
				 void *ctx)
{
	return submit(ph, true, password, hash, done, ctx);
}

void pwhash_cancel(struct pwhash_job *j)
{
	struct pwhash *ph;

	if (!j)
		return;
	ph = j->ph;
	uv_mutex_lock(&ph->lock);
	if (j->queued) { /* never taken: out of the queue, freed now */
		if (j->prev)
			j->prev->next = j->next;
		else
			ph->head = j->next;
		if (j->next)
			j->next->prev = j->prev;
		else
			ph->tail = j->prev;
		ph->depth--;
		uv_mutex_unlock(&ph->lock);
		sodium_memzero(j->password, sizeof(j->password));
		free(j);
		return;
	}
	j->cancelled = true; /* running or done: async_cb frees it unanswered */
	uv_mutex_unlock(&ph->lock);
}

size_t pwhash_depth(const struct pwhash *ph)
{
	size_t d;

	if (!ph)
		return 0;
	uv_mutex_lock((uv_mutex_t *)&ph->lock);
	d = ph->depth;
	uv_mutex_unlock((uv_mutex_t *)&ph->lock);
	return d;
}

uint64_t pwhash_done(const struct pwhash *ph)
{
	return ph ? atomic_load(&ph->ndone) : 0;
}
