/*
 * The request parser (privsep.md §2, §4, §8): one sandboxed child per
 * client connection. It parses HTTP and JSON, runs the policy, asks the
 * monitor for facts, and relays the response the monitor reads from the
 * backend.
 */
#ifndef CG_CHILD_H
#define CG_CHILD_H

/*
 * Run a child on its IPC socket (already moved to CHILD_IPC_FD; every
 * other descriptor but 0-2 closed by the caller, privsep.md §4 step 0).
 * Enters the sandbox (chroot_dir: see sandbox_enter), sends CHILD_READY,
 * or SANDBOX_FAILED with the failed step and errno, waits for CONN_START
 * (which brings the client socket) and serves that one connection
 * (privsep.md §8). Never returns: exits 0 after BYE or when the monitor
 * closes the socket, 1 on a sandbox failure or a protocol error.
 */
void child_main(const char *chroot_dir) __attribute__((noreturn));

#define CHILD_IPC_FD	3
#define CHILD_EXE_FD	4	/* the binary, during the exec only */

/*
 * argv[0] a request parser is executed with; argv[1] is the chroot
 * directory, or "-" when not running as root (monitor/serve.c).
 */
#define CHILD_ARGV0	"container-gateway-request-parser"

#endif
