/*
 * The running instance's settings record and the second serve's report
 * (usability.sh u_cli).
 */
#ifndef CG_INSTANCE_H
#define CG_INSTANCE_H

#include <stdio.h>

#include "monitor/gateway.h"

#define INSTANCE_RECORD_MAX	16384	/* bytes; the record is a few hundred */

/*
 * Record the effective serve flags of the gateway holding the lock in
 * <run-dir>/container-gateway.flags (0600, O_NOFOLLOW; one "--flag=value"
 * line each: backend set, the backend sockets in use, egress settings, the
 * resolved extra bind roots, timeouts, log settings, max connections).
 * Call once the backends are known. Best effort: a failure only loses the
 * second serve's warning.
 */
void instance_record(const struct gateway *gw);

/*
 * Read the record of the instance of gw's run directory into buf (bufsz
 * bytes, NUL-terminated): a regular file of the effective uid, opened
 * O_NOFOLLOW. Returns 0, or -1 when there is none. Besides the flags it
 * holds "sandbox=full" or "sandbox=degraded" and one "backend=PATH" line
 * per backend socket in use (status reads them).
 */
int instance_read_record(const struct gateway *gw, char *buf, size_t bufsz);

/*
 * The value of the nth (from 0) line "key=value" of a record rec, copied
 * to out (outsz bytes). Returns 0, or -1 when there is no such line.
 */
int instance_recorded(const char *rec, const char *key, int nth, char *out,
    size_t outsz);

/*
 * Status members from the running gateway's record (it must be owned by
 * the effective uid): `, "advisories": [...]` (advisory_status_json), to
 * f. A missing record gives an empty list.
 */
void instance_status(const struct gateway *gw, FILE *f);

/*
 * The backends' runtimes were asked after start-up: append
 * "advisories=final" and the advisory lines as they stand now to the
 * record (status uses the last such block). Only when gw->record_append
 * (the confined monitor may open it with the log reopen's flags); else
 * the record keeps what was known at start-up.
 */
void instance_record_advisories(const struct gateway *gw);

/* Remove the record (graceful exit, before the pid file). */
void instance_forget(const struct gateway *gw);

/*
 * A second serve found the lock held (cli.md §7 step 4): print
 * "container-gateway: already running (pid N)" on stdout, then, when the
 * record exists, one stderr line "container-gateway: warning: the running
 * gateway has other flags than these: --flag=theirs (not mine), ...; run
 * container-gateway stop first to start it with yours" listing every flag
 * this serve was given (flag or environment) whose value differs.
 */
void instance_report(const struct gateway *gw);

/*
 * Parse pid file content (cli.md §6): 1-10 ASCII digits, value > 1,
 * optionally followed by one "\n". Returns the pid, or -1 when invalid.
 * The value may exceed the pid_t range; callers must check before kill().
 */
long long instance_parse_pid(const char *buf, size_t len);

/* What instance_served_by() found. */
enum instance_proof {
	PROOF_NONE,	/* no socket of the run directory could be asked */
	PROOF_OTHER,	/* a socket of the run directory is another pid's */
	PROOF_UNSEEN,	/* served from outside this pid namespace */
	PROOF_SERVED,	/* pid serves the run directory's sockets */
};

/*
 * Is pid the gateway of gw's run directory? A pid file and its lock prove
 * nothing by themselves: whoever can write the run directory (a container
 * binding the project, in the default layout) can put any gateway's pid in
 * a new pid file and hold its lock (red-team rt10 F3). What it cannot forge
 * is who listens on the run directory's sockets: each of podman.sock and
 * docker.sock that is a socket of the effective uid (opened O_PATH |
 * O_NOFOLLOW, so a symlink to another project's socket never counts) is
 * connected to through that descriptor, and SO_PEERCRED names the process
 * that called listen() on it; measured: the monitor, the pid it writes in
 * the pid file, in the foreground and with --daemon. Returns PROOF_SERVED
 * when at least one socket is pid's and none is another's, PROOF_OTHER with
 * the other pid in *other (may be NULL), PROOF_UNSEEN when the listener is
 * outside this process's pid namespace (the kernel reports pid 0: a status
 * run inside an agent's sandbox, tool.md), else PROOF_NONE (no socket yet:
 * a start between taking the lock and binding, cli.md §7 steps 6-11).
 */
enum instance_proof instance_served_by(const struct gateway *gw, long long pid,
    long long *other);

#endif
