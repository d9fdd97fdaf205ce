/*
 * Seccomp allow-lists as data tables, loaded with libseccomp
 * (privsep.md §4 step 6; chrony's table style).
 */
#ifndef CG_SECCOMP_FILTER_H
#define CG_SECCOMP_FILTER_H

#include <fcntl.h>
#include <stdio.h>

#include <linux/filter.h>

/* The descriptor a request parser holds its IPC socket on (unpriv/child.h). */
#define CG_CHILD_IPC_FD	3

/*
 * The nice value a request parser gives itself for its exit (doc/privsep.md
 * "Scaling"): setpriority(PRIO_PROCESS, 0, CG_EXIT_NICE) is allowed with
 * exactly these arguments (raising one's own nice value needs no privilege).
 */
#define CG_EXIT_NICE	19

/*
 * Write the request parser's allow-list (what a child forked from the
 * zygote may do: the zygote's filter and the final filter together) as
 * libseccomp PFC text to f (the golden-file test, tests/golden/child.pfc).
 * f must have a descriptor (fileno); it is flushed first. Returns 0,
 * -EINVAL (f NULL), -EBADF (no descriptor, e.g. a memory stream) or a
 * negative errno from libseccomp.
 */
int cg_seccomp_export_child(FILE *f);

/*
 * Write the final filter itself (cg_seccomp_final_prog) as PFC text to f
 * (tests/golden/final.pfc). Same errors as cg_seccomp_export_child().
 */
int cg_seccomp_export_final(FILE *f);

/*
 * Load the zygote's filter on the calling process (privsep.md, amended:
 * children forked from a pre-sandboxed template): the child filter with
 * tgkill towards the caller, plus clone(CLONE_PARENT | SIGCHLD) only,
 * dup3(fd, CG_CHILD_IPC_FD, 0),
 * prlimit64(0, RLIMIT_NPROC, ...), prctl(PR_SET_PDEATHSIG, SIGKILL),
 * prctl(PR_SET_NAME), getppid and seccomp(SECCOMP_SET_MODE_FILTER, 0, ...)
 * (seccomp/filter.c zygote_extra). Irreversible. Returns 0 or a negative
 * errno.
 */
int cg_seccomp_load_zygote(void);

/*
 * Compile the final filter of a request parser forked from the zygote
 * (privsep.md §4 step 6). Stacked on the zygote's filter, it kills the
 * zygote's extra calls and tgkill, so that the child keeps the request
 * parser's allow-list (cg_seccomp_export_child): only the syscalls of
 * step 6, with argument limits: mmap/mprotect never with PROT_EXEC, fcntl
 * F_GETFL F_GETFD F_SETFD only, madvise with the advice malloc uses only;
 * fstat and newfstatat fail with EACCES instead of killing (style.md
 * §10); no tgkill at all (the child's pid is not known when the program
 * is compiled, and tgkill(any) would let a child signal its siblings:
 * abort() dies of SIGSYS instead of SIGABRT); bad architecture
 * KILL_PROCESS. Compiled into
 * a BPF program; prog->filter is malloc'd (the caller frees it; it is
 * never freed in the zygote, which keeps it for every child). Uses a
 * memfd, so call it before the zygote's own filter. Returns 0 or a
 * negative errno.
 */
int cg_seccomp_final_prog(struct sock_fprog *prog);

/*
 * Install prog on the calling thread with seccomp(SECCOMP_SET_MODE_FILTER)
 * (needs PR_SET_NO_NEW_PRIVS). Stacks on top of any filter already loaded.
 * Returns 0 or a negative errno.
 */
int cg_seccomp_load_prog(const struct sock_fprog *prog);

/*
 * Write the zygote's filter (tgkill shown with pid 0) as PFC text to f
 * (tests/golden/zygote.pfc). Same errors as cg_seccomp_export_child().
 */
int cg_seccomp_export_zygote(FILE *f);

/* ---------------------------------------------------------------- monitor */

/*
 * cg_seccomp_load_monitor() flag: allow the daemon's log reopen on SIGHUP
 * (openat with exactly CG_LOG_OPEN_FLAGS, dup2 onto 1 and 2). Set only
 * when Landlock keeps file creation inside the run directory
 * (monitor/confine.c); seccomp cannot check the path.
 */
#define CG_MONITOR_LOG_REOPEN	0x1u

/* The flags ops/daemon.c opens the log file with (cli.md §10). */
#define CG_LOG_OPEN_FLAGS	(O_WRONLY | O_CREAT | O_APPEND | O_NOFOLLOW | \
	O_CLOEXEC | O_NONBLOCK)

/*
 * Load the monitor's allow-list on the calling process (doc/privsep.md "The
 * monitor's confinement"; seccomp/monitor.c lists each call and why): default
 * action SCMP_ACT_TRAP (the caller installs the SIGSYS handler first),
 * other architectures killed; flags 0 or CG_MONITOR_LOG_REOPEN. Needs
 * PR_SET_NO_NEW_PRIVS (or CAP_SYS_ADMIN). Irreversible. Returns 0 or a
 * negative errno from libseccomp.
 */
int cg_seccomp_load_monitor(unsigned flags);

/*
 * Write the monitor's filter (tgkill shown with pid 0) for flags as PFC
 * text to f (tests/golden/monitor.pfc with CG_MONITOR_LOG_REOPEN). Same
 * errors as cg_seccomp_export_child().
 */
int cg_seccomp_export_monitor(FILE *f, unsigned flags);

/* ---------------------------------------------------------------- pinner */

/*
 * The open flags the pinner uses (monitor/pinner.c), each allowed exactly:
 * a directory on the way and the source itself, without following a
 * symlink (O_PATH: no read or write access); a file mount point (new,
 * empty); its key directory for LIST. And open_tree()'s flags: a clone
 * of the opened source with its submounts (as an rbind).
 */
#define CG_PIN_OPEN_WALK	(O_PATH | O_NOFOLLOW | O_DIRECTORY | O_CLOEXEC)
#define CG_PIN_OPEN_LAST	(O_PATH | O_NOFOLLOW | O_CLOEXEC)
#define CG_PIN_OPEN_MKFILE	(O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | \
	O_CLOEXEC)
#define CG_PIN_OPEN_LIST	(O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
#define CG_PIN_OPEN_TREE	(1u /* OPEN_TREE_CLONE */ | O_CLOEXEC | \
	0x1000u /* AT_EMPTY_PATH */ | 0x8000u /* AT_RECURSIVE */)

/*
 * Load the pinner's allow-list (seccomp/pinner.c lists each call and
 * why): default action and other architectures KILL_PROCESS. Needs
 * PR_SET_NO_NEW_PRIVS. Irreversible. Returns 0 or a negative errno.
 */
int cg_seccomp_load_pinner(void);

/*
 * Write the pinner's filter as PFC text to f (tests/golden/pinner.pfc).
 * Same errors as cg_seccomp_export_child().
 */
int cg_seccomp_export_pinner(FILE *f);

#endif
