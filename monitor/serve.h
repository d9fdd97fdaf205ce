/* The serve subcommand (cli.md §7). */
#ifndef CG_SERVE_H
#define CG_SERVE_H

#include "monitor/gateway.h"

/*
 * Run the gateway until a signal or the idle timeout. Returns the exit
 * code of cli.md §3 (0 normal / second instance / no backend, 1 runtime
 * failure, 2 refused configuration).
 */
int serve_main(struct cg_config *cfg);

#endif
