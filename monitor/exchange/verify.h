/*
 * FORWARD verification and the policy replay (monitor/exchange/verify.c;
 * privsep.md §9).
 */
#ifndef CG_MONITOR_EXCHANGE_VERIFY_H
#define CG_MONITOR_EXCHANGE_VERIFY_H

#include "ipc/proto.h"

#include "monitor/gateway.h"

/*
 * Verify a FORWARD m from c's child (privsep.md §9.1 and its 2026-12-01
 * amendment): method, canonical target classified by the monitor's own
 * route tables, path and query refs answered owned in this request, and
 * the header list, which the policy's header rules must give back
 * unchanged (policy/headers.h). On success the monitor's own view is set
 * (c->fw: method, target, log_path, action, op, hijack, no_head_timeout,
 * is_head, is_safe, client_close, body_kind, synced, ...; c->api,
 * c->body_len), *fh holds
 * the list (its values point into m) and 0 is returned; otherwise -1
 * after conn_violation().
 */
/*
 * The fwd_op of a request that route_classify() matched to row rt (NULL:
 * none) with method (NUL-terminated, as forwarded). Table-driven (verify.c)
 * on the row's family and action, which are the route tables' own names
 * (policy/routes.c, routes.md §6), and on the method where a stage
 * checked it. Returns FOP_NONE for every other row. Pure; that the
 * stages decide exactly as their former string compares on the action,
 * method and target did is tests/test_fwdop.c, over every row of the
 * table.
 */
struct cg_route;
enum fwd_op fwd_op_of(const struct cg_route *rt, const char *method);

struct cg_fwd_headers;
int verify_forward(struct conn *c, const struct ipc_msg *m,
    struct cg_fwd_headers *fh);
/*
 * on_forward() is over: the route verify_forward kept for a replay within
 * it (c->fw.fwd_route) is released; a replay after this routes again.
 */
void verify_route_free(struct conn *c);

/*
 * Replay the whole policy on c's FORWARD (privsep.md §9.2): it must allow
 * c->fw.method/c->fw.target with c->json and reproduce target and body
 * byte for byte (policy.md §0.6). Facts: refs answered owned in this request; bind
 * paths resolved afresh (at most IPC_PATH_QUERIES_MAX). Returns 0, or -1
 * after conn_violation() (c->dead set).
 */
int verify_replay(struct conn *c);

#endif
