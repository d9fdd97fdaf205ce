/*
 * Image names the request moves, inspected before it is forwarded
 * (monitor/exchange/imgdest.c; policy/imgdest.h).
 */
#ifndef CG_MONITOR_EXCHANGE_IMGDEST_H
#define CG_MONITOR_EXCHANGE_IMGDEST_H

#include "monitor/gateway.h"

/*
 * Called by phase_start() for c's verified, replayed FORWARD: when its
 * route moves image names (policy/imgdest.h), inspect each with the
 * request's API. Returns 1 when it took c over (c->rs RS_PHASE, then
 * imgdest_done, then the forward or a refusal), -1 when c was refused,
 * 0 when the request moves no name.
 */
int imgdest_start(struct conn *c);

/*
 * The internal inspect of c's destination name ended (ok, timeout as for
 * phase_done): the next name's inspect, or a refusal. Returns 1 when every
 * name passed (the caller, phase_done, resumes the phase: phase_resume),
 * 0 otherwise.
 */
int imgdest_done(struct conn *c, int ok, int timeout);

#endif
