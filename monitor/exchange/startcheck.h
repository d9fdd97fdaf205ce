/*
 * A start checked before it is forwarded (monitor/exchange/startcheck.c).
 */
#ifndef CG_MONITOR_EXCHANGE_STARTCHECK_H
#define CG_MONITOR_EXCHANGE_STARTCHECK_H

#include "monitor/gateway.h"

/*
 * Called by phase_start() for c's verified FORWARD: a container start,
 * restart or libpod init, or a pod start or restart, is checked before
 * it is forwarded (startcheck.c: mounts at or below /dev, /proc, /sys;
 * on a podman with the podman-workdir advisory the working directory
 * inside the root file system, restart policies, a stop before a
 * restart). Returns 1 when it took c over (refused or forwarded later),
 * 0 otherwise.
 */
int startcheck_start(struct conn *c);

/*
 * The internal exchange of c's check ended (phase_done). Returns 1 when
 * a walk's check passed (phase.c goes on with the request's names, then
 * forwards it), 0 otherwise (a start goes on, is forwarded or refused
 * here; a walk was refused).
 */
int startcheck_done(struct conn *c, int ok, int timeout);

/*
 * Called by phase_start() for c's verified FORWARD: a commit, diff
 * (changes) or export of a container, which the daemon walks on the host
 * (advisory podman-rootfs-walk, startcheck.c "walks"): refused while a
 * start of or a copy into the container is in flight, and while it has
 * processes (a commit then only in a pod: the policy sends it with
 * pause=true); otherwise its starts and copies into it are refused until
 * the walk ends. Returns 1 when it
 * took c over (the inspect runs: startcheck_done; or refused), 0 when c
 * is no such request.
 */
int startcheck_walk(struct conn *c);

/*
 * An archive upload (docker cp into a container) on a podman with the
 * podman-workdir or podman-volume-chown advisory: refused (1, the refusal
 * written) while a start or a walk (startcheck_walk) of that container is
 * in flight, else held until it ends (0).
 */
int startcheck_lock(struct conn *c);

#endif
