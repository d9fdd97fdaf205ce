/*
 * The named-resource phase (monitor/exchange/phase.c; policy.md §5, §11):
 * its start, its steps' ends, and the steps that run outside phase.c
 * going back to it.
 */
#ifndef CG_MONITOR_EXCHANGE_PHASE_H
#define CG_MONITOR_EXCHANGE_PHASE_H

#include "monitor/gateway.h"

/*
 * Start the monitor-side named-resource phase of c's verified, replayed
 * FORWARD (policy.md §5, §11; privsep.md §9.1 item 7), its inputs taken
 * from c->json: network and volume inspects, volume pre-creates, the
 * volume-create name check; then the forward itself (backend_forward).
 * Refusals go to the child as VERDICT (backend_refuse). Sets c->rs to
 * RS_PHASE while an inspect runs; c->dead after a violation (a body that
 * does not parse).
 */
void phase_start(struct conn *c);

/*
 * The internal exchange of c's phase ended: ok = a complete response was
 * read, timeout = the backend deadline passed. Goes on to the next step.
 */
void phase_done(struct conn *c, int ok, int timeout);

/*
 * Go on with c's phase after a step that ran outside phase.c (the image
 * step): the next network or volume, or the forward.
 */
void phase_continue(struct conn *c);

/*
 * The phase of c after its destination image names passed (imgdest.c):
 * the project network, named networks and volumes, the image step, then
 * the forward. Called by phase_start() and imgdest_done().
 */
void phase_resume(struct conn *c);

#endif
