/*
 * The gateway policy as pure functions over a parsed request (no I/O):
 * routing and query policy (routes.md), body policy (policy.md),
 * ownership checks and rewrites. Facts the policy needs (ownership,
 * bind-source resolution) come from the caller through struct cg_facts:
 * in the child they are IPC questions to the monitor (privsep.md §7.2).
 */
#ifndef CG_POLICY_H
#define CG_POLICY_H

#include <stddef.h>

#include "base/gwerror.h"
#include "policy/types.h"

/*
 * Stage 1, before the body is read: path validation, version prefix and
 * API selection, grpc and denied families, route lookup, global and
 * policed query keys, route query policy (routes.md §2-§8, §10, §11;
 * policy.md §10, §13.2). method is NUL-terminated; target[0..target_len)
 * is the origin-form request target; grpc is http_request.grpc.
 * Returns 0 with req filled (release with policy_request_free), or -1
 * with *r set (400 malformed, 403 unknown-endpoint, denied-endpoint,
 * denied-query, denied-build-parameter and the other query-policy codes);
 * on -1 req is already released. Pure: asks no facts.
 */
int policy_route(const struct cg_policy_ctx *ctx, const char *method,
    const char *target, size_t target_len, int grpc, struct cg_request *req,
    struct cg_refusal *r);

/*
 * Stage 2 on a routed req: body policy for JSON routes (body[0..body_len):
 * the decoded body, possibly empty; ignored for other kinds; re-serialised
 * per policy.md §0.6), then ownership checks of path and query refs with
 * rewriting (routes.md §9; at most CG_REFS_MAX questions), then the
 * forwarded target (<= CG_TARGET_MAX bytes). Asks ctx->facts. Returns 0
 * with req->target (and req->body for a non-empty JSON body) set, or -1
 * with *r set (body and query policy codes, 413, 431, 404 not-found, 502 /
 * 504 for failed questions). req->query may be rewritten either way; the
 * caller releases req with policy_request_free in both cases.
 */
int policy_finish(const struct cg_policy_ctx *ctx, struct cg_request *req,
    const char *body, size_t body_len, struct cg_refusal *r);

/*
 * The canonical target of a routed request before ownership rewriting:
 * path as sent plus "?" and the re-encoded (policy-rewritten) query when
 * non-empty. Returns a malloc'd NUL-terminated string (the caller frees
 * it), its length in *len (len may be NULL). The monitor uses it to check
 * that a FORWARD target is canonical (privsep.md §9.1 item 2).
 */
char *policy_route_target(const struct cg_request *req, size_t *len);

/*
 * Release everything policy_route/policy_finish allocated in req and reset
 * it (path_ref_kind -1); safe to call twice.
 */
void policy_request_free(struct cg_request *req);

/*
 * 1 when body[0..len) is acceptable on a route of kind "none" (http.md
 * §4.1): empty, JSON whitespace only, or a single {} (whitespace allowed
 * inside) or null surrounded by JSON whitespace; else 0.
 */
int policy_empty_body_ok(const char *body, size_t len);

/*
 * http.md §4.1 as amended 2026-12-01: 1 when a body sent on req's route of
 * kind none is read (at most 8 MiB) and discarded, never forwarded: every none
 * route except start (B20: its body is refused unless policy_empty_body_ok)
 * and except hijack routes, whose bytes before the upgrade belong to the
 * stream. 0 otherwise (also for routes of another kind).
 */
int policy_none_body_discarded(const struct cg_request *req);

#endif
