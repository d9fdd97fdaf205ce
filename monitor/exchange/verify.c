/*
 * What the monitor checks in a FORWARD before anything reaches the
 * backend (privsep.md §9): the request as the monitor classifies it
 * itself (method, canonical target, body kind, owned references,
 * headers), then the whole policy replayed on it, which must reproduce
 * it byte for byte. The monitor compares with what it knows, never with
 * what it is told.
 */
#include "monitor/gateway.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/xmalloc.h"
#include "monitor/conn.h"
#include "monitor/exchange/audit.h"
#include "monitor/exchange/createbody.h"
#include "monitor/exchange/evfilter.h"
#include "monitor/exchange/exchange.h"
#include "monitor/exchange/listfilter.h"
#include "monitor/exchange/ocache.h"
#include "monitor/exchange/pathres.h"
#include "monitor/exchange/verify.h"
#include "monitor/log.h"
#include "policy/headers.h"
#include "policy/query.h"
#include "policy/routes.h"

/* The policy context of c's connection, without facts (the child's too). */
static void
policy_ctx(const struct conn *c, struct cg_policy_ctx *ctx)
{
	const struct listener *l = &c->gw->lis[c->lis];

	ctx->root = c->gw->root;
	ctx->socket_kind = l->socket_kind;
	ctx->backend_kind = l->backend_kind;
	ctx->egress = c->gw->cfg->egress;
	ctx->proxy_available = l->proxy_available;
	ctx->proxy = l->proxy;
	ctx->noproxy = l->noproxy;
	ctx->backend_timeout_ms = c->gw->backend_timeout_ms;
	ctx->commit_needs_body = l->commit_needs_body;
	ctx->backend_rootless = l->backend_rootless;
}

/*
 * The owned answer of this request's facts of kind whose id (when the
 * route rewrites to the id) or ref as asked (when it does not) equals
 * s[0..len), or NULL.
 */
static const struct fact *
owned_fact(const struct conn *c, uint8_t kind, int by_id, const char *s,
    size_t len)
{
	const char *v;
	unsigned i;

	for (i = 0; i < c->fq.nfacts; i++) {
		v = by_id ? c->fq.facts[i].id : c->fq.facts[i].ref;
		if (c->fq.facts[i].kind == kind && strlen(v) == len &&
		    memcmp(v, s, len) == 0)
			return c->fq.facts + i;	/* read only */
	}
	return NULL;
}

static int
owned_id(const struct conn *c, uint8_t kind, int by_id, const char *s,
    size_t len)
{
	return owned_fact(c, kind, by_id, s, len) != NULL;
}

/*
 * The query refs of a routed FORWARD (privsep.md §9.1 item 4, routes.md
 * §9.5) must be values this monitor answered owned in this request: ids
 * for commit `container` and stats `containers`/`namesOrIDs`, the refs as
 * asked for bulk image remove `images`. Returns 0 or -1 (violation).
 */
static int
verify_query_refs(struct conn *c, const struct cg_request *req)
{
	const char *key = NULL;
	uint8_t kind = CG_FACT_CONTAINER;
	int by_id = 1;
	size_t i;

	if (strcmp(req->action, "commit") == 0) {
		key = "container";
	} else if (strcmp(req->action, "stats-all") == 0) {
		if (strcmp(req->family, "pods") == 0) {
			key = "namesOrIDs";
			kind = CG_FACT_POD;
		} else {
			key = "containers";
		}
	} else if (strcmp(req->action, "remove-bulk") == 0) {
		key = "images";
		kind = CG_FACT_IMAGE;
		by_id = 0;
	}
	if (key == NULL || req->query == NULL)
		return 0;
	for (i = 0; i < req->query->n; i++) {
		const char *v = req->query->v[i].value;

		if (strcmp(req->query->v[i].key, key) == 0 &&
		    !owned_id(c, kind, by_id, v, strlen(v)))
			return conn_violation(c, "FORWARD query %s: %s was not "
			    "answered owned", key, v);
	}
	return 0;
}

/*
 * The header list of m (privsep.md §9.2 amendment): the policy's own
 * rules (policy/headers.c) run on it must give it back unchanged. The
 * JSON body length is the list's Content-Length (the replay later
 * reproduces the body itself). Returns 0 with *fh set, or -1 after a
 * violation.
 */
static int
verify_headers(struct conn *c, const struct ipc_msg *m,
    const struct cg_request *req, struct cg_fwd_headers *fh)
{
	struct http_field in[IPC_FORWARD_HDRS_MAX];
	const struct http_field *cl;
	struct cg_refusal r;
	uint64_t json_len = 0;
	size_t i, n = m->u.forward.nheaders;

	for (i = 0; i < n; i++) {
		in[i].name = m->u.forward.headers[i].name.p;
		in[i].name_len = m->u.forward.headers[i].name.len;
		in[i].value = m->u.forward.headers[i].value.p;
		in[i].value_len = m->u.forward.headers[i].value.len;
	}
	cl = http_find_field(in, n, "Content-Length");
	if ((req->body_kind == CG_BODY_JSON ||
	    req->body_kind == CG_BODY_JSON_OPTIONAL) && cl != NULL &&
	    (http_content_length(cl->value, cl->value_len, &json_len) < 0 ||
	    json_len > HTTP_BODY_JSON_MAX))
		return conn_violation(c, "FORWARD Content-Length is not a JSON "
		    "body length of at most 8 MiB");
	if (policy_forward_headers(req, json_len, in, n, fh, &r) < 0)
		return conn_violation(c, "FORWARD headers refused by the policy "
		    "(%s: %s)", r.code, r.detail);
	if (!policy_headers_equal(in, n, fh))
		return conn_violation(c, "FORWARD headers are not the list the "
		    "policy forwards");
	return 0;
}

/*
 * The path ref of a routed FORWARD is an id answered owned (item 4); *f
 * gets that answer (the ref as asked, the id), NULL when the route has
 * no policed path ref; *ref_off and *ref_len its place in target (0 and
 * 0 without one).
 */
static int
verify_path_ref(struct conn *c, const struct cg_request *req,
    const char *target, size_t target_len, const struct fact **f,
    size_t *ref_off, size_t *ref_len)
{
	const char *seg = target + 1;
	size_t i, j, start;

	*f = NULL;
	*ref_off = *ref_len = 0;
	if (req->path_ref_kind < 0 || !(req->path_ref_rewrite ||
	    req->path_ref_kind == CG_FACT_EXEC ||
	    req->path_ref_kind == CG_FACT_IMAGE ||
	    req->path_ref_kind == CG_FACT_VOLUME))
		return 0;
	for (i = 0; i < req->path_ref_seg && seg != NULL; i++) {
		seg = strchr(seg, '/');
		if (seg != NULL)
			seg++;
	}
	start = seg != NULL ? (size_t)(seg - target) : 0;
	/* the ref spans path_ref_nseg segments */
	for (j = start, i = 0; seg != NULL && j < target_len &&
	    target[j] != '?'; j++)
		if (target[j] == '/' && ++i == req->path_ref_nseg)
			break;
	if (seg != NULL && (*f = owned_fact(c, (uint8_t)req->path_ref_kind,
	    req->path_ref_rewrite, seg, j - start)) == NULL)
		audit_aimed(c, req, seg, j - start);	/* its record names it */
	if (seg == NULL || *f == NULL)
		return conn_violation(c, "FORWARD names a %s the monitor did not "
		    "answer owned", req->path_ref_kind == CG_FACT_EXEC ?
		    "exec session" : "resource");
	*ref_off = start;
	*ref_len = j - start;
	/* a full id whose kept ownership the answer may end (ocache.c) */
	if (ocache_kind(req->path_ref_kind) && ocache_full_id(seg, j - start)) {
		c->fw.oc_kind = req->path_ref_kind;
		memcpy(c->fw.oc_id, seg, 64);
		c->fw.oc_id[64] = '\0';
	}
	return 0;
}

/*
 * The rows of fwd_op_of(): a route row's family (NULL: any) and action,
 * the methods (RM_*) for which it is the op. An action alone where the
 * stages compared only it; the family where they told routes apart by
 * the target ("/pods/", "/containers/create", ...: in a verified target
 * those strings can only be the route's own literal segments, since a
 * version prefix has no '/', the query encodes it, and a path ref of
 * these routes is an owned id); the method where a stage checked it
 * (startcheck's POST).
 */
static const struct {
	const char *family;
	const char *action;
	unsigned methods;
	enum fwd_op op;
} fwd_ops[] = {
	{ "containers", "create", RM_ANY, FOP_CONTAINER_CREATE },
	{ "pods", "create", RM_ANY, FOP_POD_CREATE },
	{ "volumes", "create", RM_ANY, FOP_VOLUME_CREATE },
	{ NULL, "connect", RM_ANY, FOP_CONNECT },
	{ NULL, "build", RM_ANY, FOP_BUILD },
	{ NULL, "archive-put", RM_ANY, FOP_ARCHIVE_PUT },
	{ NULL, "load", RM_ANY, FOP_LOAD },
	{ "pods", "start", RM_POST, FOP_POD_START },
	{ NULL, "start", RM_POST, FOP_START },
	{ "pods", "restart", RM_POST, FOP_POD_RESTART },
	{ NULL, "restart", RM_POST, FOP_RESTART },
	{ NULL, "init", RM_POST, FOP_INIT },
	{ NULL, "attach", RM_POST, FOP_ATTACH },
	{ NULL, "update", RM_POST, FOP_UPDATE },
	{ NULL, "commit", RM_POST, FOP_COMMIT },
	{ "containers", "changes", RM_GET, FOP_CHANGES },
	{ "containers", "export", RM_GET, FOP_EXPORT },
	{ NULL, "remove", RM_ANY, FOP_REMOVE },
	{ NULL, "prune", RM_ANY, FOP_PRUNE },
	{ NULL, "list", RM_ANY, FOP_LIST },
	{ NULL, "inspect", RM_ANY, FOP_INSPECT },
	{ NULL, "system-df", RM_ANY, FOP_SYSTEM_DF },
	{ NULL, "build-prune", RM_ANY, FOP_BUILD_PRUNE },
	{ NULL, "system-prune", RM_ANY, FOP_SYSTEM_PRUNE },
	{ NULL, "events", RM_ANY, FOP_EVENTS },
};

enum fwd_op
fwd_op_of(const struct cg_route *rt, const char *method)
{
	static const char *const names[] = { "GET", "HEAD", "POST", "PUT",
	    "DELETE" };
	unsigned rm = 0;
	size_t i;

	if (rt == NULL)
		return FOP_NONE;
	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (strcmp(method, names[i]) == 0)
			rm = 1u << i;	/* RM_GET ... RM_DELETE */
	for (i = 0; i < sizeof(fwd_ops) / sizeof(fwd_ops[0]); i++)
		if (strcmp(rt->action, fwd_ops[i].action) == 0 &&
		    (fwd_ops[i].family == NULL ||
		    strcmp(rt->family, fwd_ops[i].family) == 0) &&
		    (fwd_ops[i].methods & rm) != 0)
			return fwd_ops[i].op;
	return FOP_NONE;
}

int
verify_forward(struct conn *c, const struct ipc_msg *m,
    struct cg_fwd_headers *fh)
{
	static const char *const methods[] = { "GET", "HEAD", "POST", "PUT",
	    "DELETE" };
	struct cg_policy_ctx ctx = { 0 };
	const struct fact *f = NULL;
	struct cg_request req;
	struct cg_refusal r;
	char *canon, *target;
	size_t canon_len, i, tlen = m->u.forward.target.len, plen;
	size_t ref_off = 0, ref_len = 0;
	int ok_method = 0, rc = 0;

	for (i = 0; i < 5; i++)
		if (m->u.forward.method.len == strlen(methods[i]) &&
		    memcmp(m->u.forward.method.p, methods[i],
		    m->u.forward.method.len) == 0)
			ok_method = 1;
	if (!ok_method)
		return conn_violation(c, "FORWARD method is not allowed");
	policy_ctx(c, &ctx);
	memcpy(c->fw.method, m->u.forward.method.p, m->u.forward.method.len);
	c->fw.method[m->u.forward.method.len] = '\0';
	target = xstrndup(m->u.forward.target.p, tlen);
	memset(&req, 0, sizeof(req));
	c->fw.oc_kind = -1;
	if (policy_route(&ctx, c->fw.method, target, tlen, 0, &req, &r) < 0) {
		free(target);
		return conn_violation(c, "FORWARD target refused by the route "
		    "tables (%s: %s)", r.code, r.detail);
	}
	canon = policy_route_target(&req, &canon_len);
	if (canon_len != tlen || memcmp(canon, target, canon_len) != 0)
		rc = conn_violation(c, "FORWARD target is not canonical");
	free(canon);
	if (rc == 0)
		rc = verify_path_ref(c, &req, target, tlen, &f, &ref_off,
		    &ref_len);
	/* policed query refs (item 4): commit, stats, bulk image remove */
	if (rc == 0)
		rc = verify_query_refs(c, &req);
	if (rc == 0)
		rc = verify_headers(c, m, &req, fh);
	if (rc == 0) {
		/* everything else the monitor derives (privsep.md §1 note) */
		free(c->fw.target);
		free(c->fw.log_path);
		c->fw.target = target;
		c->fw.target_len = tlen;
		c->fw.ref_off = ref_off;
		c->fw.ref_len = ref_len;
		for (plen = 0; plen < tlen && target[plen] != '?'; plen++)
			;
		c->fw.log_path = xstrndup(target, plen > 8192 ? 8192 : plen);
		target = NULL;
		c->api = (uint8_t)req.api;
		snprintf(c->fw.action, sizeof(c->fw.action), "%s", req.action);
		c->fw.op = fwd_op_of(req.route, c->fw.method);
		c->fw.hijack = req.hijack;
		c->fw.no_head_timeout = req.no_head_timeout;
		c->fw.lf_kind = listfilter_kind(req.route);
		/* the events stream is filtered to the project (evfilter.h) */
		evfilter_free(c->fw.ef);
		c->fw.ef = c->fw.op == FOP_EVENTS ?
		    evfilter_new(c->gw->lis[c->lis].backend_kind, c->gw->root,
		    query_get(req.query, "filters")) : NULL;
		/* answered by the monitor itself, never forwarded (answer.c) */
		c->fw.answer = req.route != NULL && (req.route->flags & RF_ANSWER);
		c->fw.lf_api = req.api;
		c->fw.is_head = strcmp(c->fw.method, "HEAD") == 0;
		c->fw.is_safe = c->fw.is_head || strcmp(c->fw.method, "GET") == 0;
		c->fw.client_close = fh->close;
		c->body_len = fh->chunked ? 0 : fh->length;
		if (req.body_kind == CG_BODY_STREAM)
			c->fw.body_kind = fh->chunked ? FB_CHUNKED : FB_LENGTH;
		else if (req.body_kind != CG_BODY_NONE && fh->length > 0)
			c->fw.body_kind = FB_JSON;
		else
			c->fw.body_kind = FB_NONE;
		c->fw.synced = policy_exchange_synced(&req, fh);
		audit_route(c, &req, f != NULL ? f->ref : NULL,
		    f != NULL ? f->id : NULL);
		/* the replay's stage 1, if it runs before on_forward() ends */
		policy_request_free(&c->fw.fwd_route);
		c->fw.fwd_route = req;
	} else {
		policy_request_free(&req);
	}
	free(target);
	return rc;
}

/*
 * Facts for the replay (privsep.md §9.2): a ref equal to an id or ref the
 * monitor answered owned in this request is owned with that id. Anything
 * else is a fact the honest child never needs (its FORWARD carries only
 * answered refs), so it is refused here rather than looked up again.
 */
static enum cg_fact_result
replay_owned(void *arg, enum cg_fact_kind kind, enum cg_api api,
    const char *prefix, const char *ref, char id_out[CG_ID_MAX + 1])
{
	struct conn *c = arg;
	unsigned i;

	(void)api;
	(void)prefix;
	for (i = 0; i < c->fq.nfacts; i++) {
		if (c->fq.facts[i].kind != (uint8_t)kind)
			continue;
		if (strcmp(c->fq.facts[i].id, ref) == 0 ||
		    strcmp(c->fq.facts[i].ref, ref) == 0) {
			snprintf(id_out, CG_ID_MAX + 1, "%s", c->fq.facts[i].id);
			return CG_OWNED;
		}
	}
	c->replay_unknown_fact = 1;
	return CG_NOT_OWNED;
}

/* Paths are resolved afresh: the monitor's own resolution is cheap. */
static enum cg_path_verdict
replay_resolve(void *arg, const char *path, char out[CG_PATH_MAX + 1])
{
	struct conn *c = arg;

	/* the child could ask no more than this either (privsep.md §6.6) */
	if (++c->replay_paths > IPC_PATH_QUERIES_MAX)
		return CG_PATH_UNRESOLVABLE;
	return pathres_resolve(c->gw, path, out);
}

/* Publishing WARNINGs come from the replay, the monitor's own view. */
static void
replay_warn(void *arg, const char *msg)
{
	struct conn *c = arg;

	log_msg(LOG_WARNING, "publish-warning", "%s (conn %llu)", msg,
	    (unsigned long long)c->id);
}

int
verify_replay(struct conn *c)
{
	struct cg_facts facts = { replay_owned, replay_resolve, replay_warn, c };
	struct cg_policy_ctx ctx = { 0 };
	struct cg_request req;
	struct cg_refusal r;
	int rc = 0, routed = 0;

	policy_ctx(c, &ctx);
	ctx.facts = &facts;
	c->replay_unknown_fact = 0;
	c->replay_paths = 0;
	createbody_begin(c);
	if (c->json != NULL)
		createbody_parsed(c);	/* policy_finish's body stage */
	/*
	 * Stage 1 (policy_route) asks no facts and reads nothing but ctx,
	 * which is fixed at start-up, and c->fw.method and c->fw.target, which
	 * verify_forward routed: its result there is this one. It is taken
	 * when the replay runs within the same on_forward() (no JSON body to
	 * wait for, no wait for memory); otherwise it was released there,
	 * since a parsed copy of a target of up to CG_TARGET_MAX bytes kept
	 * through a body read is memory the budget (budget.c) does not
	 * count, and the route is computed again here.
	 */
	if (c->fw.fwd_route.route != NULL) {
		req = c->fw.fwd_route;
		memset(&c->fw.fwd_route, 0, sizeof(c->fw.fwd_route));
		c->fw.fwd_route.path_ref_kind = -1;
	} else {
		routed = policy_route(&ctx, c->fw.method, c->fw.target, c->fw.target_len,
		    0, &req, &r);
	}
	req.keep_tree = routed == 0 && createbody_wants_tree(c);
	if (routed < 0 || policy_finish(&ctx, &req, c->json,
	    c->json != NULL ? (size_t)c->body_len : 0, &r) < 0) {
		rc = conn_replay_refused(c, r.code, "the policy refuses the "
		    "forwarded request (%s: %s)%s", r.code, r.detail,
		    c->replay_unknown_fact ? " with a reference the monitor did "
		    "not answer owned" : "");
	} else if (req.target_len != c->fw.target_len ||
	    memcmp(req.target, c->fw.target, c->fw.target_len) != 0) {
		rc = conn_replay_refused(c, NULL, "the policy rewrites the "
		    "forwarded target");
	} else if ((req.body != NULL ? req.body_len : 0) !=
	    (c->json != NULL ? c->body_len : 0) || (req.body != NULL &&
	    memcmp(req.body, c->json, req.body_len) != 0)) {
		rc = conn_replay_refused(c, NULL, "the policy rewrites the "
		    "forwarded body");
	} else if (req.tree != NULL) {
		/* a tree of c->json's very bytes: the phase reads it */
		createbody_take_tree(c, req.tree);
		req.tree = NULL;
	}
	policy_request_free(&req);
	if (rc < 0)
		c->dead = 1;
	return rc;
}

void
verify_route_free(struct conn *c)
{
	policy_request_free(&c->fw.fwd_route);
}

void
verify_init(struct conn *c)
{
	c->fw.oc_kind = -1;
}

void
verify_detach(struct conn *g, struct conn *c)
{
	memcpy(g->fw.method, c->fw.method, sizeof(g->fw.method));
	g->fw.log_path = c->fw.log_path;
	g->fw.target = c->fw.target;
	g->fw.target_len = c->fw.target_len;
	g->fw.is_head = c->fw.is_head;
	c->fw.log_path = NULL;
	c->fw.target = NULL;
}

void
verify_end(struct conn *c)
{
	evfilter_free(c->fw.ef);
	c->fw.ef = NULL;
	c->fw.body_kind = FB_NONE;
}

void
verify_free(struct conn *c)
{
	policy_request_free(&c->fw.fwd_route);
	free(c->fw.target);
	free(c->fw.log_path);
	evfilter_free(c->fw.ef);
	c->fw.target = c->fw.log_path = NULL;
	c->fw.ef = NULL;
}
