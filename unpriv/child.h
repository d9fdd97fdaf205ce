/*
 * The request parser (privsep.md §2, §4, §8): one sandboxed child per
 * client connection. It parses HTTP and JSON, runs the policy, asks the
 * monitor for facts and hands it the request to forward; the monitor
 * writes the response (privsep.md §1 amendment).
 */
#ifndef CG_CHILD_H
#define CG_CHILD_H

struct sandbox_result;

/*
 * Serve as a request parser on CHILD_IPC_FD, in a process whose sandbox
 * is complete (sr: what it got, for CHILD_READY): send CHILD_READY when
 * sr->report_ready, wait for CONN_START (which brings the client socket)
 * and serve that one connection (privsep.md §8). buf (IPC_MSG_MAX + 1
 * bytes) is the IPC receive buffer it takes over: the zygote's, inherited
 * by the fork (doc/privsep.md "Where the children come from"). Never returns: exits 0 after BYE or when the
 * monitor closes the socket, 1 on a protocol error.
 */
void child_run(const struct sandbox_result *sr, unsigned char *buf)
    __attribute__((noreturn));

/*
 * child_run() in two steps (the hostile-child harness,
 * tests/helpers/hostile_gateway.c, looks at the client between them):
 * child_await_conn sends CHILD_READY when sr->report_ready (sr: what the
 * sandbox got) and waits for CONN_START (or CHECK_START: the process
 * becomes a checker, unpriv/checker.h) into *m, decoded from buf
 * (IPC_MSG_MAX + 1 bytes, which must outlive *m); m->fd is the client
 * socket (the body pipe). Returns 0, or -1 when the monitor is gone or
 * sent anything else (a received descriptor is closed). child_serve
 * serves the connection of that CONN_START and never
 * returns, like child_run; it copies what it keeps of *m, then takes buf
 * over as its own receive buffer.
 */
struct ipc_msg;
int child_await_conn(const struct sandbox_result *sr, unsigned char *buf,
    struct ipc_msg *m);
void child_serve(const struct ipc_msg *m, unsigned char *buf)
    __attribute__((noreturn));

/*
 * The zygote (unpriv/zygote.c), started by the monitor as
 * CHILD_ARGV0 <chroot dir | -> with its control socket on CHILD_IPC_FD:
 * sandboxes itself once (sandbox_enter_zygote), reports CHILD_READY (or
 * SANDBOX_FAILED), then forks one request parser per ZYGOTE_SPAWN
 * (clone(CLONE_PARENT): the monitor's child), each of which finishes its
 * sandbox (sandbox_finish_child) before child_run(). Exits 0 when the
 * monitor closes the socket, 1 on a protocol error. Never returns.
 */
void zygote_main(const char *chroot_dir) __attribute__((noreturn));

#include "unpriv/layout.h"	/* CHILD_IPC_FD, CHILD_ARGV0, ... */

#endif
