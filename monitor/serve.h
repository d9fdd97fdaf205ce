/* The serve subcommand (cli.md §7). */
#ifndef CG_SERVE_H
#define CG_SERVE_H

#include "monitor/gateway.h"

/*
 * Run the serve subcommand for cfg (cli.md §7) until SIGTERM/SIGINT, the
 * idle timeout or a poll() failure. With cfg->daemon the original process
 * returns once the daemon is ready (or failed). Returns the exit code of
 * cli.md §3: 0 normal exit, second instance or no backend; 1 runtime
 * failure (sandbox self-test, bind, poll); 2 refused configuration
 * (message on stderr).
 */
int serve_main(struct cg_config *cfg);

#endif
