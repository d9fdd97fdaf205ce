/*
 * The named-resource phase (monitor/exchange/phase.c; policy.md §5, §11):
 * its start and its steps' ends. The steps that run outside phase.c
 * (answer.c, startcheck.c, imgdest.c, image.c) are started and ended from
 * here and never call back into it: one that passed says so in its return
 * value, and phase.c goes on.
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
 * does not parse). The caller emptied the phase's state before the
 * replay (conn_free_phase_tree), which leaves its tree of a create's body
 * in c->cb for the phase to read (createbody.h).
 */
void phase_start(struct conn *c);

/*
 * The internal exchange of c's phase ended: ok = a complete response was
 * read, timeout = the backend deadline passed. Goes on to the next step.
 */
void phase_done(struct conn *c, int ok, int timeout);

/*
 * The phase of c after its destination image names passed (imgdest.c):
 * the project network, named networks and volumes, the image step, then
 * the forward. Called by phase_start(), and by phase_done() once
 * imgdest_done() says every name passed.
 */
void phase_resume(struct conn *c);

/*
 * Start c's phase afresh (phase_resume, before its names are read): no
 * names, no create, no pins, no missing volume, the first network, no
 * project network to create, no reload, no create tries. Its step is set
 * by each step before it is read; what the phase holds is released by
 * phase_free() (conn_free_phase_tree, before the replay: dispatch.c
 * start_phase) before this.
 */
void phase_reset(struct conn *c);

#endif
