/*
 * The unprivileged processes' layout, which the monitor (monitor/zygote.c)
 * sets up and the zygote, the request parsers and the checkers
 * (unpriv/) rely on: their descriptors, their descriptor limit and the
 * argv[0] they are executed with. Constants only, so that a file needing
 * the IPC descriptor does not include another's functions for it.
 */
#ifndef CG_UNPRIV_LAYOUT_H
#define CG_UNPRIV_LAYOUT_H

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
