/* Project root, run directory, pid file and backends (cli.md §4-§8). */
#ifndef CG_RUNDIR_H
#define CG_RUNDIR_H

#include <stdint.h>
#include <sys/types.h>

#include "monitor/gateway.h"
#include "ops/dirsafe.h"	/* RD_* results, rundir_component */

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
 * serve steps 2-4 (cli.md §7): ROOT, run directory and socket lengths
 * (as rundir_locate(gw, 1)), then the extra bind roots (§4 item 4:
 * realpath, must be directories; fills gw->bind_roots and
 * gw->bind_roots_text), then the run-directory chain created and checked,
 * the excluded roots (policy.md §4.4), the sandbox directory (euid 0:
 * <run-dir>/.sandbox, root-owned, not writable) and a probe of the pid
 * lock (retried for 200 ms). Returns 0, RD_REFUSED after printing a
 * refusal on stderr, or RD_BUSY when another instance holds the lock
 * (exit 0 silently).
 */
int rundir_prepare(struct gateway *gw);

/*
 * Free what rundir_prepare allocated (gw->bind_roots, gw->excluded) and
 * zero their counts; safe after a failed or no rundir_prepare (the leak check
 * of make check-asan, doc/reliability.md).
 */
void rundir_free(struct gateway *gw);

/*
 * Take the pid lock and write the pid (cli.md §6): opens gw->pid_file
 * O_RDWR|O_CREAT|O_NOFOLLOW|O_CLOEXEC|O_NONBLOCK 0600 without O_TRUNC,
 * flock LOCK_EX|LOCK_NB (retried for 200 ms), checks the locked inode is
 * still the one at the path (up to 5 attempts), sets mode 0600, truncates,
 * writes "<pid>\n", fsyncs; keeps the descriptor in gw->pid_fd. Returns 0;
 * RD_BUSY when another process holds the lock (INFO lock-lost logged); 1
 * on an I/O failure or a path that keeps changing (message on stderr);
 * RD_REFUSED for a pid file that is a symlink, not a regular file or not
 * owned by the effective uid.
 */
int rundir_take_pid(struct gateway *gw);

/*
 * Unlink the pid file, then close the lock descriptor (cli.md §9.3); no-op
 * when gw->pid_fd < 0.
 */
void rundir_release_pid(struct gateway *gw);


/*
 * The backend advisories at start-up (after rundir_discover; monitor/
 * advisory.c): for each backend that said it is podman or dockerd (its
 * GET /_ping's Server field), its version from there, the advisories
 * that apply in gw->lis[].ver/.advisories, an INFO line and a WARNING per
 * advisory. The runtime's version comes from GET /version, which podman
 * 4.3.1 answers in about a second: with cfg->require_patched it is asked
 * now (up to 5 s), else after start-up (rundir_advisories_async) and the
 * runtime's row counts as applying until then. Another backend gets no
 * advisory (INFO). Returns 0; 1 when cfg->require_patched is set and an
 * advisory applies or a backend is neither podman nor dockerd, after
 * printing "container-gateway: refusing to serve
 * (--require-patched-backend): ..." on stderr (serve then exits 1).
 */
int rundir_advisories(struct gateway *gw);

/*
 * Ask the backends whose runtime is not known yet GET /version in the
 * event loop (monitor/task.c); when answered (or not, within
 * --backend-timeout), their runtime's advisory is logged once and the
 * record appended (instance_record_advisories). Call before the loop.
 */
void rundir_advisories_async(struct gateway *gw);

/*
 * The loop's turn for a backend whose answer another gateway is asking
 * (ops/vershare.h, VS_WAIT): looks at the shared file every 500 ms; once
 * its lock is free, the answer read is taken as the listener's own, or,
 * when there is none (the asker failed), or after twice --backend-timeout
 * and 5 s of waiting, the backend is asked. Returns the ms until its next
 * look (60000 when none waits). rundir_version_wake_at: that look's time
 * (monotonic ms), -1 when none waits (serve.c quiet_wait).
 */
int rundir_version_tick(struct gateway *gw, long long now);
long long rundir_version_wake_at(void);

/*
 * Discover the backends (cli.md §8.1: explicit sockets, else
 * $XDG_RUNTIME_DIR/podman/podman.sock, /run/podman/podman.sock, a unix://
 * DOCKER_HOST, /var/run/docker.sock; never the gateway's own sockets) and
 * map them to the listeners (§8.2: podman.sock only with podman,
 * docker.sock to docker, else to podman). Returns 0; RD_BUSY (3) when
 * there is nothing to serve (WARNING no-backend logged); RD_REFUSED on a
 * refused explicit socket (message printed on stderr).
 */
int rundir_discover(struct gateway *gw);

#endif
