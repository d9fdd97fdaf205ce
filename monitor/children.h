/*
 * Request parsers and checkers the monitor no longer follows, until they
 * are reaped (monitor/children.c; serve.c's reap() logs their end).
 */
#ifndef CG_MONITOR_CHILDREN_H
#define CG_MONITOR_CHILDREN_H

#include <stdint.h>
#include <sys/types.h>

#include "monitor/gateway.h"

/*
 * A request parser (pid, of connection conn) the monitor no longer
 * follows: reaped now if it has exited, else SIGKILLed first when
 * kill_it, and left to serve.c's reap() (which logs its end) with a
 * SIGKILL after one second. Only for a pid that is still the monitor's
 * unreaped child.
 */
void forget_child(struct gateway *gw, pid_t pid, uint64_t conn, int kill_it);

/*
 * Log how request parser pid of connection conn ended, from its wait
 * status st (privsep.md §10, cli.md §14.2 child-exit): DEBUG for exit 0
 * or when expected (a graceful exit told it to go), else ERROR "request
 * parser for connection <id> (pid <pid>) died: <SIGNAME | exit status N>".
 */
void log_child_exit(unsigned long long conn, pid_t pid, int st, int expected);

#endif
