/* Project root, run directory, pid file and backends (cli.md §4-§8). */
#ifndef CG_RUNDIR_H
#define CG_RUNDIR_H

#include <sys/types.h>

#include "monitor/gateway.h"

/* Results of rundir_locate() and rundir_prepare() besides 0 and 2. */
#define RD_OK		0	/* located (and created/checked) */
#define RD_REFUSED	2	/* a refusal was printed on stderr (exit 2) */
#define RD_BUSY		3	/* another instance holds the pid lock */
#define RD_NO_ROOT	4	/* read-only: the project root does not exist */
#define RD_NO_RUNDIR	5	/* read-only: a run-directory component is missing */

/*
 * Locate and check the run directory (cli.md §4.1-§4.2, §5.1, §5.3, §5.4).
 * Takes gw with gw->cfg set. Fills gw->root, gw->run_dir (absolute, as
 * used for the sockets and in messages), gw->run_dir_resolved, the two
 * listener paths and gw->pid_file.
 * create != 0 (serve): refuses a missing ROOT, a non-repository, a bad
 *   worktree id and a socket path over 103 bytes (§5.4, before anything
 *   is created), then creates the missing components one at a time.
 * create == 0 (stop, status): creates nothing; returns RD_NO_ROOT when ROOT
 *   is missing, RD_NO_RUNDIR when a component is missing (never served).
 * Every existing component must pass §5.3; a failure prints the exact
 * refusal on stderr and returns RD_REFUSED.
 */
int rundir_locate(struct gateway *gw, int create);

/*
 * serve steps 2-4 (cli.md §7): rundir_locate(gw, 1), extra bind roots
 * (§4.4), excluded roots (policy.md §4.4), the sandbox directory, and a
 * probe of the pid lock. Returns 0, RD_REFUSED after printing a refusal,
 * or RD_BUSY when another instance holds the lock (exit 0 silently).
 */
int rundir_prepare(struct gateway *gw);

/*
 * Take the pid lock and write the pid (cli.md §6): opens gw->pid_file
 * O_RDWR|O_CREAT|O_NOFOLLOW|O_CLOEXEC 0600 without O_TRUNC, flock
 * LOCK_EX|LOCK_NB, checks the locked inode is still the one at the path,
 * truncates, writes "<pid>\n", fsyncs; keeps the descriptor in gw->pid_fd.
 * Returns 0; RD_BUSY when the lock is held by another process (INFO
 * lock-lost logged); 1 on an I/O failure; RD_REFUSED for a pid file that
 * is a symlink, not a regular file or not owned by the effective uid.
 */
int rundir_take_pid(struct gateway *gw);

/* Unlink the pid file, then close the lock descriptor (cli.md §9.3). */
void rundir_release_pid(struct gateway *gw);

/*
 * Parse pid file content (cli.md §6): 1-10 ASCII digits, value > 1,
 * optionally followed by one "\n". Returns the pid, or -1 when invalid.
 * The value may exceed the pid_t range; callers must check before kill().
 */
long long rundir_parse_pid(const char *buf, size_t len);

/*
 * Discover the backends and map sockets (cli.md §8). Returns 0; RD_BUSY
 * when there is nothing to serve (WARNING no-backend logged); RD_REFUSED
 * on a refused explicit socket (message printed).
 */
int rundir_discover(struct gateway *gw);

#endif
