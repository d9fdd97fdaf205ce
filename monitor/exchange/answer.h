/*
 * Routes the monitor answers itself, and its own refusals
 * (monitor/exchange/answer.c; doc/answers.md).
 */
#ifndef CG_MONITOR_EXCHANGE_ANSWER_H
#define CG_MONITOR_EXCHANGE_ANSWER_H

#include "monitor/gateway.h"

/*
 * Called by phase_start() for c's verified, replayed FORWARD before the
 * named-resource phase. Routes the monitor answers itself (RF_ANSWER:
 * system df, build prune; routes.md §7.2 as amended) are never forwarded:
 * the answer is computed from the monitor's own internal requests and
 * written by it (relay_answer). A libpod system prune is forwarded only
 * after a pod list shows no pod that is not the project's (routes.md §8.2 as
 * amended; doc/filters.md). Returns 1 when it took c over (c->rs is then
 * RS_PHASE while an internal request runs, RS_RESPONSE or RS_WAIT_DONE after),
 * 0 when the ordinary phase applies.
 */
int answer_start(struct conn *c);

/*
 * Refuse c's request with a response the monitor writes itself (code,
 * its specific hint, the detail from fmt): VERDICT forwarding to the
 * child, then the error body; the connection ends after it (http.md
 * §5.4). For refusals whose hint the code's generic one would not carry.
 */
void answer_refuse(struct conn *c, const char *code, const char *hint,
    const char *fmt, ...) __attribute__((format(printf, 4, 5)));

/*
 * Answer c's attach (a hijack route) with a switched stream that ends at
 * once, logged as the refusal code/detail: the docker CLI prints no body
 * of a refused attach ("unable to upgrade to tcp, received 403"), but it
 * goes on to the start, whose refusal it prints (startcheck.c).
 */
void answer_empty_stream(struct conn *c, const char *code,
    const char *detail);

/*
 * The internal exchange of c's answer ended (ok: a complete response;
 * timeout: the deadline passed): the next request, the computed answer,
 * the forward, or a refusal. Called by phase_done() while c->ans.kind is
 * set.
 */
void answer_done(struct conn *c, int ok, int timeout);

#endif
