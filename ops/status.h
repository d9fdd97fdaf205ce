/* stop and status (cli.md §11, §12). */
#ifndef CG_STATUS_H
#define CG_STATUS_H

#include "monitor/config.h"

/*
 * `stop` (cli.md §11): locate the run directory read-only, inspect the
 * pid file, check the lock holder looks like a gateway, SIGTERM it and
 * wait up to 5 s for the lock. Returns the exit code: 0 stopped or nothing
 * to stop, 1 could not stop, 2 unsafe run directory or pid file.
 */
int stop_main(struct cg_config *cfg);

/*
 * `status` (cli.md §12): prints one JSON line on stdout. Returns 0
 * running, 3 not running, 2 after a run-directory refusal on stderr.
 */
int status_main(struct cg_config *cfg);

#endif
