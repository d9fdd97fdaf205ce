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
 * is complete (sr: what it got, for CHILD_READY): send CHILD_READY, wait
 * for CONN_START (which brings the client socket) and serve that one
 * connection (privsep.md §8). Never returns: exits 0 after BYE or when
 * the monitor closes the socket, 1 on a protocol error.
 */
void child_run(const struct sandbox_result *sr) __attribute__((noreturn));

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

#define CHILD_IPC_FD	3	/* = CG_CHILD_IPC_FD of seccomp/filter.h */
#define CHILD_NOFILE	8	/* RLIMIT_NOFILE, privsep.md §4 step 1 */
#define CHILD_EXE_FD	4	/* the binary, during the exec only */

/*
 * argv[0] the zygote is executed with (and so every request parser forked
 * from it shows); argv[1] is the chroot directory, or "-" when not
 * running as root (monitor/zygote.c).
 */
#define CHILD_ARGV0	"container-gateway-request-parser"

#endif
