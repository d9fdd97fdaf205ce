/* Project root, run directory, pid file and backends (cli.md §4-§8). */
#ifndef CG_RUNDIR_H
#define CG_RUNDIR_H

#include "monitor/gateway.h"

/*
 * Resolve ROOT (cli.md §4), the run directory (§5.1, created and checked
 * per §5.3), socket path lengths (§5.4), bind and excluded roots
 * (policy.md §4.4), the sandbox directory, and probe the pid lock (§7
 * step 4). Returns 0, 2 after printing a refusal, or 3 when another
 * instance holds the lock (exit 0 silently).
 */
int rundir_prepare(struct gateway *gw);

/* Take the pid lock and write the pid (cli.md §6). 0, 1, or 3 (lost race). */
int rundir_take_pid(struct gateway *gw);

/* Unlink the pid file, then close the lock descriptor (cli.md §9.3). */
void rundir_release_pid(struct gateway *gw);

/*
 * Discover the backends and map sockets (cli.md §8). Returns 0; 3 when
 * there is nothing to serve (WARNING logged); 2 on a refused explicit
 * socket (message printed).
 */
int rundir_discover(struct gateway *gw);

#endif
