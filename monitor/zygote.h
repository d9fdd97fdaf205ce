/*
 * The zygote request parsers are forked from (monitor/zygote.c; privsep.md
 * as amended: children forked from a pre-sandboxed template). The event
 * loop's alone: the exchange never reads or asks the zygote.
 */
#ifndef CG_MONITOR_ZYGOTE_H
#define CG_MONITOR_ZYGOTE_H

#include "monitor/gateway.h"

/*
 * Start the zygote (privsep.md, amended: children forked from a
 * pre-sandboxed template): fork, keep only a control socket (fd 3) and
 * /dev/null on 0-2, fexecve gw->exe_fd as CHILD_ARGV0 with the sandbox
 * directory and an empty environment. The zygote sandboxes itself and
 * reports CHILD_READY on gw->zyg.fd (zygote_on_event). Returns 0 or -1
 * (socketpair or fork failed; logged).
 */
int zygote_start(struct gateway *gw);

/*
 * A new request parser: a socket pair, one end sent to the zygote with
 * ZYGOTE_SPAWN (it forks a child on it with CLONE_PARENT, so the child is
 * the monitor's), the other end in a new conn record linked into
 * gw->conns and, until the zygote reports its pid, into gw->zyg.pending.
 * Returns the record, or NULL (no zygote, its socket full or broken;
 * logged).
 */
struct conn *zygote_spawn(struct gateway *gw);

/*
 * Read the zygote's messages without blocking: CHILD_READY (ready),
 * SANDBOX_FAILED (its step in gw->sandbox_failure), ZYGOTE_SPAWNED (the
 * pid of the oldest pending spawn, or its fork errno: that record dies).
 * On end-of-file or a malformed message the zygote is stopped
 * (zygote_stop) and the pending records die; the event loop then stops
 * the gateway (the confined monitor cannot start another: monitor/confine.h).
 */
void zygote_on_event(struct gateway *gw);

/*
 * c (removed from gw->conns, still pending) ended before the zygote said
 * which pid it got: its descriptors are closed now, the record waits in
 * the queue for that answer, then zygote_on_event frees it and ends the
 * child (forget_child with a kill). zygote_stop frees it too.
 */
void zygote_orphan(struct gateway *gw, struct conn *c);

/* Kill and reap the zygote, close its socket, fail pending spawns. */
void zygote_stop(struct gateway *gw);

#endif
