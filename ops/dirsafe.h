/*
 * One directory the gateway trusts (ops/dirsafe.c; cli.md §5.3), and the
 * results the start-up steps share (ops/rundir.c, ops/session.c,
 * ops/discover.c). Below both the run directory and the sessions: each
 * checks its directories here, neither calls the other for it.
 */
#ifndef CG_DIRSAFE_H
#define CG_DIRSAFE_H

/*
 * Results of the rundir_* functions (serve_main maps RD_BUSY to exit 0,
 * RD_REFUSED is exit 2). rundir_discover() returns RD_BUSY (as the
 * literal 3) for "no backend", which is not about the lock.
 */
#define RD_OK		0	/* located (and created/checked) */
#define RD_REFUSED	2	/* a refusal was printed on stderr (exit 2) */
#define RD_BUSY		3	/* another instance holds the pid lock */
#define RD_NO_ROOT	4	/* read-only: the project root does not exist */
#define RD_NO_RUNDIR	5	/* read-only: a run-directory component is missing */

/*
 * Print "container-gateway: <fmt...>" and a newline on stderr: a start-up
 * refusal (cli.md §5.3). Returns RD_REFUSED (exit 2).
 */
int rd_refuse(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/*
 * Check one directory component at path (cli.md §5.3: not a symlink, a
 * directory, owned by the effective uid, not group- or world-writable);
 * create it (0700) when create and missing; label names it in refusals.
 * Returns 0, RD_NO_RUNDIR when missing (read-only), RD_REFUSED after a
 * refusal on stderr.
 */
int rundir_component(const char *path, const char *label, int create);

#endif
