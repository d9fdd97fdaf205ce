/*
 * The monitor's side of pinned bind sources (monitor/pins.c; the pinner
 * is monitor/pinner.c, the design doc/privsep.md "The pinner").
 */
#ifndef CG_MONITOR_PINS_H
#define CG_MONITOR_PINS_H

#include <stdio.h>
#include <sys/types.h>

#include "monitor/gateway.h"

/* Bind sources one create may pin; more are refused (bind-mount). */
#define PINS_PER_CREATE	64

/*
 * Start the pinner (start-up, once the lock is held and the start
 * logged, before the zygote and confine_caps(): it needs root's
 * capabilities, and a fork made early keeps fewer of the monitor's
 * pages). Not root: no pinner, bind sources are
 * checked at create only (tool.md residual), INFO line. Root: the pinner
 * is started and its READY awaited (5 s); when it cannot set itself up,
 * a WARNING says why and every create that binds a host path is refused
 * (fail closed). Returns 0; -1 only on allocation failure paths that
 * exit through xoom().
 */
int pins_init(struct gateway *gw);

/*
 * The named-resource phase of c's container or pod create (phase.c),
 * once its networks and volumes passed and before any volume is
 * pre-created: each bind source of c->json (body_bind_sources) is pinned
 * and rewritten to its pin, c->json re-serialised and c->head's
 * Content-Length set. Returns 0 (forward; nothing to pin is 0 too), or
 * -1 after backend_refuse(): pins off on a root gateway, a source that
 * is missing (where the daemon would not create it) or is a symlink now,
 * or the pinner failing. Pins made for c are undone on refusal.
 */
int pins_create(struct conn *c, int pod_create);

/*
 * c's forwarded request got its final head with status (monitor/
 * relay.c), or was refused (status 0), or its outcome is unknown (-1:
 * the exchange ended without a head): a create's pins are kept (2xx,
 * unknown; the sweep decides later) or removed (anything else). A 2xx
 * container or pod remove or prune schedules a sweep within a second.
 */
void pins_settle(struct conn *c, int status);

/*
 * Sweeps (start-up, every minute while pins exist, soon after a remove):
 * the pins under the key directory that no container of the project
 * uses any more (compat list, all, with the project's label, on every
 * backend, a task of monitor/task.c) and that no create in flight holds
 * are unmounted and removed. pins_tick starts a due sweep at now
 * (monotonic ms) and returns the ms until it wants to run again.
 */
int pins_tick(struct gateway *gw, long long now);

/*
 * When the idle event loop must wake for the pins (serve.c quiet_wait):
 * the next due sweep (monotonic ms), -1 for none, -2 while a sweep runs.
 * Without it an idle monitor slept through the sweep a remove asked for
 * (after_check.sh a_pins_lifecycle: "docker rm unpins within 5 s").
 */
long long pins_wake_at(const struct gateway *gw);

/*
 * 1 when pid was the pinner (reaped, status st kept), else 0. A dead
 * pinner stops the gateway like a dead zygote (pins_dead).
 */
int pins_reaped(struct gateway *gw, pid_t pid, int st);
/* 1 when the pinner of a root gateway has ended; *st its wait status. */
int pins_dead(const struct gateway *gw, int *st);

/* "on", or "off: <why>", for the record and status (buf sz bytes). */
void pins_state(const struct gateway *gw, char *buf, size_t sz);

/* Graceful exit: close the pinner's socket, reap it (1 s), free. */
void pins_stop(struct gateway *gw);

#endif
