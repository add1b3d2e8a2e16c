/*
 * store_pg_int.h: what the PostgreSQL backend's files share (store_pg.c: the
 * connections, the writer and the lookup; store_pg_load.c: migrations and the
 * start-up loads). Not for the rest of the store, which sees store_int.h's
 * store_pg_* functions only.
 *
 * Every connection is one thread's: the writer's `w` (also the start-up
 * loads', before store_start()), each reader lane's own (the lookup
 * lane's for the hellos' identity reads), and the loop thread's `l` for the
 * identity reads of start-up and adoption. Each waits on the network with a
 * deadline (libpq's non-blocking mode and poll()), or, where it blocks in
 * libpq (connecting at open, the synchronous loads, the readers), within the
 * TCP keep-alives and tcp_user_timeout every connection is given, so a
 * network that hangs never hangs a thread for good.
 */
#ifndef QUINTETO_STORE_PG_INT_H
#define QUINTETO_STORE_PG_INT_H

#include <libpq-fe.h>
#include <stdatomic.h>

#include "store/store_int.h"

/* A writer's transaction (journal batch, archive save) gets this long, from BEGIN to COMMIT's answer. */
#define STORE_PG_TXN_MS 10000
/* The loop thread's identity read at start-up and adoption, connecting included (store_player_read). */
#define STORE_PG_LOOKUP_MS 1000
/* A hello's identity read on the lookup thread, connecting included: STORE_LOOKUP_MS from its queueing. */
/* After a failed lookup connection, lookups answer -EIO at once for this long instead of trying again. */
#define STORE_PG_LOOKUP_PAUSE_MS 1000

struct store_pg {
	char *conninfo;
	char boot[33]; /* hex, random: this store's rows in store_ledger */
	PGconn *w;     /* the writer's; NULL while PostgreSQL cannot be reached */
	bool w_ready;  /* w is non-blocking with the writer's statements prepared */
	bool w_said;   /* the writer logged that it cannot connect (once an outage) */
	bool gone;     /* closing, and the last connection failed: no further tries */
	uint64_t txn;  /* the writer's transactions so far (store_ledger.seq) */
	void *sent;    /* the writer's: what the attempt in flight sent, in order (store_pg.c) */
	size_t sent_cap;
	char *arr; /* the writer's: the array literals of a group of actions (store_pg.c) */
	size_t arr_cap;
	PGconn *l;               /* the loop thread's identity reads (start-up, adoption) */
	PGconn *acct;            /* the writer's account jobs (store_accounts.c), blocking; NULL: none yet */
	int64_t l_retry_at;      /* mono ms: no lookup connection before */
	_Atomic bool lanes_said; /* a reader logged that its archive reads are not set up (two threads) */
};

/*
 * Test hook (tests/unit/test_store.c): the writer treats the answer to its
 * next this-many COMMITs as lost, closing the connection after reading it, as
 * a network that breaks at that moment would; the retry finds the
 * transaction in store_ledger. 0 in production.
 */
extern _Atomic int store_pg_test_lose_commits;
/* The writer's deadline for a transaction: STORE_PG_TXN_MS; tests shorten it. */
extern _Atomic int store_pg_txn_ms;

/* Milliseconds of a monotonic clock. */
int64_t store_pg_now(void);

/*
 * A blocking connection to `conninfo` with the store's defaults (connect and
 * keep-alive timeouts; the conninfo's own settings win). NULL when it cannot
 * be made, the reason logged unless `quiet`.
 */
PGconn *store_pg_connect(const char *conninfo, bool quiet);

/*
 * Runs `sql` (parameters as text, NULL for SQL NULL) on a blocking
 * connection: the result if it succeeded (the caller clears it), NULL with
 * the reason logged (`what`) otherwise.
 */
PGresult *store_pg_query(PGconn *c, const char *what, const char *sql, int n, const char *const *vals);

/* A negative errno for a failed result's SQLSTATE (-ENOSPC for disk_full, ...), -EIO by default. */
int store_pg_errno(const PGresult *res);

#endif
