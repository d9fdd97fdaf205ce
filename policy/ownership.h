/*
 * Ownership checks of stage 2 (routes.md §9), for policy_finish(): the
 * path ref and the query refs of a routed request, asked about through
 * ctx->facts and rewritten to the resolved id where the route says so.
 */
#ifndef CG_POLICY_OWNERSHIP_H
#define CG_POLICY_OWNERSHIP_H

#include <stddef.h>

#include "base/gwerror.h"
#include "policy/types.h"
#include "policy/query.h"

/* Questions asked in one policy_finish() (bounded by CG_REFS_MAX). */
struct asker {
	const struct cg_policy_ctx *ctx;
	const struct cg_request *req;
	size_t asked;
};

/*
 * §9.2, §9.6: check the path ref of a->req (path_ref_kind, _seg, _nseg) in
 * *path[0..*plen); none: 0. When owned and the route rewrites it (->id,
 * not an exec), *path is replaced by a new malloc'd string with the ref's
 * segments replaced by the id (by position; the old one freed) and *plen
 * by its length. Returns 0, or -1 with *r set: 404 not-found, 502
 * backend-unreachable, 504 backend-timeout, 403 denied-query past
 * CG_REFS_MAX questions.
 */
int check_path_ref(struct asker *a, char **path, size_t *plen,
    struct cg_refusal *r);

/*
 * §9.5: each value of the route's ref query key (route_qspec ref_key) in
 * q, checked in order and replaced in place by the id when the qspec
 * rewrites. Returns 0, or -1 with *r set as check_path_ref().
 */
int check_query_refs(struct asker *a, struct cg_query *q,
    struct cg_refusal *r);

#endif
