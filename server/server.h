/*
 * server.h: the server process as a whole: it owns the uv loop, the store
 * and every module's state, wires them together (the rooms' host, the
 * handlers, the HTTP API, the network layer) and ends each loop turn by
 * flushing the journal and releasing what is durable. main.c only parses the
 * configuration and calls server_run().
 *
 * Start-up order matters: the store is opened and migrated, then the address
 * is bound (a taken port stops here, before the journal's live rooms are
 * read), then the rooms are restored, then the store thread starts.
 */
#ifndef QUINTETO_SERVER_H
#define QUINTETO_SERVER_H

#include "base/conf.h"

/*
 * Runs the server until SIGINT/SIGTERM. 0 after a clean stop; a negative code
 * when it could not start (the database locked by another server, the port
 * taken, the journal unreadable: the reason logged) or the loop closed with
 * handles open. main.c turns it into the exit status.
 */
int server_run(const struct config *cfg);

/*
 * Cluster mode: the exit status of a node that lost its lease or whose
 * writer was fenced (docs/OPERATIONS.md). It leaves at once, from inside
 * server_run(), writing nothing more: another node owns its rooms.
 */
#define SERVER_EXIT_FENCED 3

#endif
