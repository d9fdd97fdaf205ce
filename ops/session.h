/*
 * Sessions of a project's gateway (ops/session.c): each agent session
 * that starts the gateway registers (serve --session ID), each that ends
 * leaves (stop --session ID), and the gateway stops with the last one.
 */
#ifndef CG_MONITOR_SESSION_H
#define CG_MONITOR_SESSION_H

#include "monitor/gateway.h"

/*
 * serve --session ID [--session-pid PID]: create <run-dir>/sessions (0700,
 * checked as a run-directory component) and write the session's file
 * <run-dir>/sessions/ID ("<pid> <start time>\n" of PID from
 * /proc/PID/stat, "0 0\n" without one), under an exclusive flock of the
 * sessions directory. Call after the run directory is made, before the
 * pid lock is probed. Returns 0, or RD_REFUSED after a refusal on stderr.
 */
int session_join(const struct gateway *gw);

/*
 * stop --session ID: under an exclusive flock of <run-dir>/sessions,
 * remove ID's file and the files of sessions whose process is gone (its
 * pid is free or runs another process: another start time), and count the
 * others. Returns that count (>= 0) with *lock_fd holding the lock (the
 * caller keeps it until the gateway is stopped, then closes it; -1 when
 * there is no sessions directory), or -1 after a refusal on stderr.
 */
int session_leave(const struct gateway *gw, int *lock_fd);

#endif
