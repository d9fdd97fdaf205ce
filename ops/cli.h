/*
 * The command line (ops/cli.c; cli.md §1-§2): the subcommands, their
 * flags and environment, filled into a struct cg_config (monitor/config.h).
 */
#ifndef CG_OPS_CLI_H
#define CG_OPS_CLI_H

#include "monitor/config.h"

/*
 * Parse argv and the CONTAINER_GATEWAY_* environment (cli.md §1-§2):
 * flags win, empty variables are unset, only variables of the subcommand
 * are read; --run-dir, --pid-file and extra roots are made absolute
 * against the cwd, not resolved. On a usage problem writes
 * "container-gateway: usage: <why>" (one line) to stderr and returns 2;
 * else fills cfg (defaults, then flags and environment; version and help
 * take neither) and returns 0. The strings in cfg are malloc'd: the
 * caller frees them with cli_free(); on 2 nothing is left allocated.
 * cfg's previous content is overwritten, not freed.
 */
int cli_parse(int argc, char **argv, struct cg_config *cfg);

/* Free the strings of a cfg filled by cli_parse() and zero it (the leak
 * check of make check-asan, doc/reliability.md). */
void cli_free(struct cg_config *cfg);

/*
 * Print usage to stdout: the synopsis of every subcommand (topic NULL:
 * help, --help, -h), or one subcommand's usage with its flags (topic
 * "serve", "stop", "status" or "version": `help serve`, `serve --help`).
 */
void cli_usage(const char *topic);

#endif
