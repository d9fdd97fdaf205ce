/*
 * The policy driver (routes.md §5): policy_route() runs everything that
 * needs only the request head (path, version, route, query policy);
 * policy_finish() runs the body policy, the ownership checks with their
 * rewrites (routes.md §9, ownership.c) and builds the canonical target and
 * body. The route query policies are in query_policy.c.
 *
 * The forwarded target is always rebuilt from parsed values: the client's
 * path (already validated as canonical) with owned refs replaced by
 * segment position, plus the re-encoded query.
 */
#include "policy/policy.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/xmalloc.h"
#include "policy/body.h"
#include "policy/json.h"
#include "policy/imageref.h"
#include "policy/ownership.h"
#include "policy/query.h"
#include "policy/querykeys.h"
#include "policy/routes.h"

/* ---- stage 1 -------------------------------------------------------- */

static void
fill_route(struct cg_request *req, const struct route_match *m,
    const char *path, size_t plen)
{
	const struct cg_route *rt = m->route;

	req->path = xstrndup(path, plen);
	req->path_len = plen;
	memcpy(req->prefix, path, m->prefix_len);	/* < sizeof(prefix) */
	req->prefix[m->prefix_len] = '\0';
	req->api = m->api;
	req->route = rt;
	req->action = rt->action;
	req->family = rt->family;
	req->body_kind = rt->body;
	req->hijack = (rt->flags & RF_HIJACK) != 0;
	req->no_head_timeout = (rt->flags & RF_NHT) != 0;
	req->path_ref_kind = m->ref_kind;
	req->path_ref_seg = m->ref_seg;
	req->path_ref_nseg = m->ref_nseg;
	req->path_ref_rewrite = (rt->flags & RF_REWRITE) != 0;
}

static int
route_stage(const struct cg_policy_ctx *ctx, const char *method,
    const char *target, size_t target_len, int grpc, struct cg_request *req,
    struct cg_refusal *r)
{
	const char *qmark = memchr(target, '?', target_len);
	const char *path = target;
	size_t plen = qmark ? (size_t)(qmark - target) : target_len;
	struct route_match m;
	char *decoded = NULL;
	int rc;

	if (strlen(method) >= sizeof(req->method))
		return cg_refuse(r, "unknown-endpoint",
		    "the method is not available through the gateway");
	memcpy(req->method, method, strlen(method) + 1);
	/* §2 amended: %2F inside an image name is decoded once */
	if (!route_path_valid(target, plen) &&
	    route_decode_image_name(ctx->socket_kind, method, target, plen,
	    &decoded, &plen) != 1)
		return cg_refuse_hint(r, "malformed", memchr(target, '%', plen) ?
		    "percent-encoded paths are refused (routes.md §2), but for "
		    "%2F inside an image name" : "", "path is not normalised");
	if (decoded != NULL)
		path = decoded;
	req->query = query_parse(qmark ? qmark + 1 : "",
	    qmark ? target_len - (size_t)(qmark - target) - 1 : 0, r);
	rc = req->query == NULL ? -1 : route_classify(ctx->socket_kind, method,
	    path, plen, grpc, &m, r);
	if (rc == 0)
		fill_route(req, &m, path, plen);
	free(decoded);
	if (rc == -1)
		return -1;
	if (route_query_keys(req->route, req->query, r) == -1)
		return -1;
	/* amended §4.4: keys outside the route's allow-list are not forwarded */
	req->query_dropped = query_drop_unknown(req->route, req->api,
	    req->query);
	if (query_policy(ctx, req, r) == -1)
		return -1;
	/* before any lookup of the named-resource phase (red team s8) */
	return request_check_transports(req->path, req->path_len, req->route,
	    req->api, req->query, r);
}

int
policy_route(const struct cg_policy_ctx *ctx, const char *method,
    const char *target, size_t target_len, int grpc, struct cg_request *req,
    struct cg_refusal *r)
{
	memset(req, 0, sizeof(*req));
	req->path_ref_kind = -1;
	if (route_stage(ctx, method, target, target_len, grpc, req, r) == 0)
		return 0;
	policy_request_free(req);
	return -1;
}

/* ---- targets -------------------------------------------------------- */

static char *
make_target(const char *path, size_t plen, const struct cg_query *q,
    size_t *len)
{
	size_t qlen = 0;
	char *enc = NULL, *t;

	if (q != NULL && q->n > 0)
		enc = query_encode(q, &qlen);
	t = xmalloc(plen + (enc ? qlen + 1 : 0) + 1);
	memcpy(t, path, plen);
	if (enc != NULL) {
		t[plen] = '?';
		memcpy(t + plen + 1, enc, qlen);
		plen += qlen + 1;
	}
	t[plen] = '\0';
	free(enc);
	if (len != NULL)
		*len = plen;
	return t;
}

char *
policy_route_target(const struct cg_request *req, size_t *len)
{
	return make_target(req->path, req->path_len, req->query, len);
}

void
policy_request_free(struct cg_request *req)
{
	free(req->path);
	query_free(req->query);
	free(req->query_dropped);
	free(req->body_dropped);
	free(req->target);
	free(req->body);
	cJSON_Delete(req->tree);
	memset(req, 0, sizeof(*req));
	req->path_ref_kind = -1;
}

/* ---- empty bodies (http.md §4.1) ------------------------------------ */

static size_t
skip_ws(const char *s, size_t i, size_t len)
{
	while (i < len && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' ||
	    s[i] == '\r'))
		i++;
	return i;
}

int
policy_empty_body_ok(const char *body, size_t len)
{
	size_t i = skip_ws(body, 0, len);

	if (i == len)
		return 1;
	if (body[i] == '{') {
		i = skip_ws(body, i + 1, len);
		if (i == len || body[i] != '}')
			return 0;
		i++;
	} else if (len - i >= 4 && memcmp(body + i, "null", 4) == 0)
		i += 4;
	else
		return 0;
	return skip_ws(body, i, len) == len;
}

int
policy_none_body_discarded(const struct cg_request *req)
{
	return req->body_kind == CG_BODY_NONE && !req->hijack &&
	    strcmp(req->action, "start") != 0;
}

/* ---- stage 2: body -------------------------------------------------- */

static int
is_connect(const struct cg_request *req)
{
	return strcmp(req->family, "networks") == 0 &&
	    (strcmp(req->action, "connect") == 0 ||
	    strcmp(req->action, "disconnect") == 0);
}

/*
 * The leniency rule (doc/leniency.md): the small bodies whose JSON null the
 * daemons' Go decoders read as no body at all.
 */
static int
null_is_no_body(const struct cg_request *req)
{
	static const char *const small[] = {
		"exec-start", "exec-remove", "connect", "disconnect", "commit",
		NULL
	};

	return query_key_in(req->action, small, 0);
}

/*
 * http.md §4.2 and policy.md §0: parse, police and re-serialise a JSON
 * body into req->body (NULL for an empty json-optional body).
 */
/* A body of no bytes (http.md §4.1) into req->body, or a refusal. */
static int
empty_body(const struct cg_policy_ctx *ctx, struct cg_request *req,
    struct cg_refusal *r)
{
	/* what the backend needs (u_commit; ctx field's comment) */
	if (ctx->commit_needs_body && req->api == CG_API_COMPAT &&
	    strcmp(req->action, "commit") == 0) {
		req->body = xstrdup("{}");
		req->body_len = 2;
		return 0;
	}
	if (req->body_kind == CG_BODY_JSON_OPTIONAL)
		return 0;
	return cg_refuse(r, "malformed", "request body must be a JSON object");
}

static int
body_stage(const struct cg_policy_ctx *ctx, struct cg_request *req,
    const char *body, size_t body_len, struct cg_refusal *r)
{
	char err[200];
	cJSON *tree;
	int rc;

	if (body_len == 0)
		return empty_body(ctx, req, r);
	if (body_len > JSON_MAX_TEXT)
		return cg_refuse(r, "too-large", "request body exceeds 8 MiB");
	if ((tree = json_parse(body, body_len, err, sizeof(err))) == NULL)
		return cg_refuse(r, "malformed", "invalid JSON body: %s", err);
	if (cJSON_IsNull(tree) && null_is_no_body(req)) {
		/*
		 * No body to the daemons' decoders. Commit keeps its empty-body
		 * rule; the others are forwarded as {}, which their policies
		 * replay to: podman 4.3.1 answers a null exec start with a 500
		 * (nil pointer) and an empty one with a 400 (EOF).
		 */
		cJSON_Delete(tree);
		if (strcmp(req->action, "commit") == 0)
			return empty_body(ctx, req, r);
		tree = json_checked(cJSON_CreateObject());
	}
	rc = body_policy(ctx, req, &tree, r);
	if (rc == 0)
		req->body = json_serialize(tree, &req->body_len);
	if (rc == 0 && req->keep_tree) {
		req->tree = tree;	/* the caller's (struct cg_request) */
		tree = NULL;
	}
	cJSON_Delete(tree);
	return rc;
}

static int
finish_stage(const struct cg_policy_ctx *ctx, struct cg_request *req,
    const char *body, size_t body_len, char **path, size_t *plen,
    struct cg_refusal *r)
{
	struct asker a = { ctx, req, 0 };
	int json = req->body_kind == CG_BODY_JSON ||
	    req->body_kind == CG_BODY_JSON_OPTIONAL;
	int path_first = is_connect(req);

	/* policy.md §12.3: the path network is checked before Container. */
	if (path_first && check_path_ref(&a, path, plen, r) == -1)
		return -1;
	if (json && body_stage(ctx, req, body, body_len, r) == -1)
		return -1;
	if (!path_first && check_path_ref(&a, path, plen, r) == -1)
		return -1;
	if (check_query_refs(&a, req->query, r) == -1)
		return -1;
	if (strcmp(req->family, "build") == 0 && strcmp(req->action, "build") == 0 &&
	    build_project_network(ctx, req, r) == -1)
		return -1;
	return force_policy(req, r);
}

int
policy_finish(const struct cg_policy_ctx *ctx, struct cg_request *req,
    const char *body, size_t body_len, struct cg_refusal *r)
{
	size_t plen = req->path_len;
	char *path = xstrndup(req->path, req->path_len);
	int rc;

	free(req->target);
	free(req->body);
	free(req->body_dropped);
	cJSON_Delete(req->tree);
	req->tree = NULL;
	req->target = req->body = req->body_dropped = NULL;
	req->target_len = req->body_len = req->body_dropped_len = 0;
	rc = finish_stage(ctx, req, body, body_len, &path, &plen, r);
	if (rc == 0) {
		req->target = make_target(path, plen, req->query,
		    &req->target_len);
		if (req->target_len > CG_TARGET_MAX)
			rc = cg_refuse(r, "header-too-large",
			    "request head exceeds 64 KiB");
		/*
		 * The body as forwarded, with what the policy adds (the
		 * project label, proxy variables, defaults), obeys the same
		 * 8 MiB as the client's (http.md §4.2): else the monitor,
		 * which takes no larger one, would find the child in breach
		 * and the client would get no answer.
		 */
		else if (req->body_len > JSON_MAX_TEXT)
			rc = cg_refuse(r, "too-large", "request body exceeds "
			    "8 MiB");
	}
	free(path);
	return rc;
}
