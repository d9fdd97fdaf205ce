/*
 * The policy driver (routes.md §5): policy_route() runs everything that
 * needs only the request head (path, version, route, query policy);
 * policy_finish() runs the body policy, the ownership checks with their
 * rewrites (routes.md §9) and builds the canonical target and body.
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
#include "policy/query.h"
#include "policy/querykeys.h"
#include "policy/routes.h"

#define DEFAULT_BACKEND_TIMEOUT	60000	/* ms (http.md §10) */

/* ---- commit and import changes (policy.md §13.2) -------------------- */

static int
label_token_char(unsigned char c)
{
	return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') ||
	    (c >= '0' && c <= '9') || c == '.' || c == '_' || c == '/' ||
	    c == ':' || c == '@' || c == '-';
}

static int
blank(char c)
{
	return c == ' ' || c == '\t';
}

/* Check one key=value token s[0..len) of a LABEL change. */
static int
label_token(const char *s, size_t len, struct cg_refusal *r)
{
	const char *eq = memchr(s, '=', len);
	size_t i, klen;
	char key[sizeof(CG_LABEL_KEY)];

	if (eq == NULL || eq == s || eq == s + len - 1)
		goto bad;
	for (i = 0; i < len; i++)
		if (s + i != eq && !label_token_char((unsigned char)s[i]))
			goto bad;
	klen = (size_t)(eq - s);
	if (klen == strlen(CG_LABEL_KEY)) {
		memcpy(key, s, klen);
		key[klen] = '\0';
		if (ascii_caseeq(key, CG_LABEL_KEY))
			return cg_refuse(r, "commit-label",
			    "the project label cannot be set by a change");
	}
	return 0;
bad:
	return cg_refuse(r, "commit-label",
	    "only plain key=value LABEL changes are accepted");
}

/* One line s[0..len) of a changes value. */
static int
change_line(const char *s, size_t len, struct cg_refusal *r)
{
	size_t i = 0, start, ntok = 0;

	while (i < len && blank(s[i]))
		i++;
	start = i;
	while (i < len && !blank(s[i]))
		i++;
	if (i - start != 5 || strncasecmp(s + start, "LABEL", 5) != 0)
		return 0;
	for (;;) {
		while (i < len && blank(s[i]))
			i++;
		if (i == len)
			break;
		start = i;
		while (i < len && !blank(s[i]))
			i++;
		if (label_token(s + start, i - start, r) == -1)
			return -1;
		ntok++;
	}
	if (ntok == 0)
		return cg_refuse(r, "commit-label",
		    "only plain key=value LABEL changes are accepted");
	return 0;
}

/* policy.md §13.2 on one changes value. */
static int
change_value(const char *v, struct cg_refusal *r)
{
	size_t len = strlen(v), i, start = 0, end;

	for (i = 0; i < len; i++)
		if (v[i] == '\\' && (i + 1 == len || v[i + 1] == '\r' ||
		    v[i + 1] == '\n'))
			return cg_refuse(r, "commit-label",
			    "line continuations in changes are refused");
	while (start <= len) {
		const char *lf = memchr(v + start, '\n', len - start);

		end = lf ? (size_t)(lf - v) : len;
		i = end;
		if (i > start && v[i - 1] == '\r')
			i--;
		if (change_line(v + start, i - start, r) == -1)
			return -1;
		start = end + 1;
	}
	return 0;
}

static int
changes_policy(const struct cg_query *q, struct cg_refusal *r)
{
	size_t i;

	for (i = 0; i < q->n; i++)
		if (strcmp(q->v[i].key, "changes") == 0 &&
		    change_value(q->v[i].value, r) == -1)
			return -1;
	return 0;
}

/* ---- route query policies (routes.md §5 step 6) --------------------- */

static int
nonempty(const char *v)
{
	return v != NULL && v[0] != '\0';
}

static int
qp_commit(struct cg_request *req, struct cg_refusal *r)
{
	if (!nonempty(query_get(req->query, "container")))
		return cg_refuse(r, "malformed", "commit needs a container");
	return changes_policy(req->query, r);
}

/* §10.2.1: compat images/create is a pull or an import, by query. */
static int
qp_images_create(struct cg_request *req, struct cg_refusal *r)
{
	const char *img = query_get(req->query, "fromImage");
	const char *src = query_get(req->query, "fromSrc");
	char q[260];

	if (nonempty(img) == nonempty(src))
		return cg_refuse(r, "malformed", "images/create needs exactly "
		    "one of fromImage and fromSrc");
	if (nonempty(src)) {
		if (strcmp(src, "-") != 0)
			return cg_refuse(r, "denied-query", "fromSrc=%s makes "
			    "the daemon fetch a URL and is refused",
			    cg_quote(src, strlen(src), q));
		req->action = "import";
		req->body_kind = CG_BODY_STREAM;
		req->no_head_timeout = 1;
	}
	return changes_policy(req->query, r);
}

static int
qp_images_pull(struct cg_request *req, struct cg_refusal *r)
{
	if (!nonempty(query_get(req->query, "reference")))
		return cg_refuse(r, "malformed", "images/pull needs a reference");
	if (nonempty(query_get(req->query, "authfile")))
		return cg_refuse(r, "denied-query", "authfile names a file on "
		    "the daemon's host and is refused");
	return 0;
}

static int
qp_images_import(struct cg_request *req, struct cg_refusal *r)
{
	const char *url = query_get(req->query, "url");
	char q[260];

	if (nonempty(url))
		return cg_refuse(r, "denied-query", "url=%s makes the daemon "
		    "fetch a URL and is refused", cg_quote(url, strlen(url), q));
	return changes_policy(req->query, r);
}

/* §9.5: stats of named containers / pods only. */
static int
qp_stats(struct cg_request *req, const char *key, const char *what,
    struct cg_refusal *r)
{
	const char *all = query_get(req->query, "all");

	if (query_count(req->query, key) == 0 ||
	    (all != NULL && !query_value_empty(all)))
		return cg_refuse_hint(r, "denied-query", CG_HINT_IN_DETAIL,
		    "stats of all %s is not "
		    "available; name the %s", what, what);
	return 0;
}

static int
qp_images_remove(struct cg_request *req, struct cg_refusal *r)
{
	const char *all = query_get(req->query, "all");

	if (query_count(req->query, "images") == 0)
		return cg_refuse(r, "denied-query", "images is required");
	if (all != NULL && !query_value_empty(all))
		return cg_refuse(r, "denied-query", "removing all images is "
		    "not available through the gateway");
	return 0;
}

static int
query_policy(const struct cg_policy_ctx *ctx, struct cg_request *req,
    struct cg_refusal *r)
{
	switch (req->route->qpolicy) {
	case QP_FILTERS:
	case QP_IMAGE_PRUNE:
		return filters_apply(ctx, req->route, req->query, r);
	case QP_SYSTEM_PRUNE:
		return filters_system_prune(ctx, req->route, req->query, r);
	case QP_COMMIT:
		return qp_commit(req, r);
	case QP_IMAGES_CREATE:
		return qp_images_create(req, r);
	case QP_IMAGES_PULL:
		return qp_images_pull(req, r);
	case QP_IMAGES_IMPORT:
		return qp_images_import(req, r);
	case QP_CONTAINER_STATS:
		return qp_stats(req, "containers", "containers", r);
	case QP_POD_STATS:
		return qp_stats(req, "namesOrIDs", "pods", r);
	case QP_IMAGES_REMOVE:
		return qp_images_remove(req, r);
	case QP_BUILD:
		return build_query_policy(ctx, req->api, req->query, r);
	case QP_IMAGE_REMOVE:	/* force: after ownership (force_policy) */
	case QP_NONE:
	case QP_COUNT:
	default:
		return 0;
	}
}

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
	size_t plen = qmark ? (size_t)(qmark - target) : target_len;
	struct route_match m;

	if (strlen(method) >= sizeof(req->method))
		return cg_refuse(r, "unknown-endpoint",
		    "the method is not available through the gateway");
	memcpy(req->method, method, strlen(method) + 1);
	if (!route_path_valid(target, plen))
		return cg_refuse_hint(r, "malformed", memchr(target, '%', plen) ?
		    "percent-encoded paths are refused (routes.md §2): name an "
		    "image by its id, or without a '/' (podman --remote sends "
		    "localhost/x as localhost%2Fx)" : "",
		    "path is not normalised");
	req->query = query_parse(qmark ? qmark + 1 : "",
	    qmark ? target_len - plen - 1 : 0, r);
	if (req->query == NULL)
		return -1;
	if (route_classify(ctx->socket_kind, method, target, plen, grpc, &m,
	    r) == -1)
		return -1;
	fill_route(req, &m, target, plen);
	if (route_query_keys(req->route, req->query, r) == -1)
		return -1;
	/* amended §4.4: keys outside the route's allow-list are not forwarded */
	req->query_dropped = query_drop_unknown(req->route, req->api,
	    req->query);
	return query_policy(ctx, req, r);
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
	free(req->target);
	free(req->body);
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

/* ---- stage 2: ownership (routes.md §9) ------------------------------ */

/* Names for "no such <kind>" (routes.md §9.3) and the inspect kind. */
static const char *const kind_names[] = {
	[CG_FACT_CONTAINER] = "container", [CG_FACT_POD] = "pod",
	[CG_FACT_VOLUME] = "volume", [CG_FACT_NETWORK] = "network",
	[CG_FACT_IMAGE] = "image", [CG_FACT_EXEC] = "exec session",
};
static const char *const inspect_names[] = {
	[CG_FACT_CONTAINER] = "container", [CG_FACT_POD] = "pod",
	[CG_FACT_VOLUME] = "volume", [CG_FACT_NETWORK] = "network",
	[CG_FACT_IMAGE] = "image", [CG_FACT_EXEC] = "exec",
};

static const char *
backend_name(const struct cg_policy_ctx *ctx)
{
	return ctx->backend_kind == CG_DOCKER ? "docker" : "podman";
}

/*
 * The id grammar of routes.md §9.3. Checked again here because the id is
 * spliced into the forwarded path: it must not carry '/', '?' or '%'.
 */
static int
id_valid(const char *id)
{
	size_t i;
	unsigned char c;

	for (i = 0; id[i] != '\0'; i++) {
		c = (unsigned char)id[i];
		if (!((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') ||
		    (c >= '0' && c <= '9') || (i > 0 && (c == '_' ||
		    c == '.' || c == ':' || c == '@' || c == '-'))))
			return 0;
	}
	return i > 0 && i <= CG_ID_MAX;
}

/* Questions asked in one policy_finish() (bounded by CG_REFS_MAX). */
struct asker {
	const struct cg_policy_ctx *ctx;
	const struct cg_request *req;
	size_t asked;
};

static enum cg_fact_result
ask_facts(struct asker *a, int kind, const char *ref, char *id)
{
	const struct cg_facts *f = a->ctx->facts;

	id[0] = '\0';
	if (ref[0] == '\0')
		return CG_NOT_OWNED;	/* nothing to inspect, nothing owned */
	if (f == NULL || f->owned == NULL)
		return CG_UNREACHABLE;	/* fail closed */
	return f->owned(f->arg, (enum cg_fact_kind)kind, a->req->api,
	    a->req->prefix, ref, id);
}

/*
 * An image named for tag, untag or remove that is missing or not the
 * project's (routes.md §9.3, decision 9). Images are shared and listed
 * anyway, so the answer says why and what to do (issue 10 item 6); the
 * code stays not-found. Returns -1.
 */
static int
image_not_owned(const struct cg_request *req, const char *ref,
    struct cg_refusal *r)
{
	char q[260];

	cg_quote(ref, strlen(ref), q);
	cg_refuse(r, "not-found", "no such image: %s in this project: only "
	    "images built or committed through this gateway can be tagged or "
	    "removed (images are shared between projects)", q);
	if (strcmp(req->action, "tag") == 0)
		cg_hint(r, "to name it, build your own from it: echo 'FROM %s' | "
		    "DOCKER_BUILDKIT=0 docker build -t NEWNAME -", q);
	else
		cg_hint(r, "leave shared images in place; remove the images you "
		    "built here");
	return -1;
}

/*
 * Is ref (bytes as sent) of kind owned? On 0 the resolved id is in id
 * (CG_ID_MAX + 1 bytes); else *r is the verdict of routes.md §9.3.
 */
static int
check_ref(struct asker *a, int kind, const char *ref, char *id,
    struct cg_refusal *r)
{
	char q[260];

	if (++a->asked > CG_REFS_MAX)
		return cg_refuse(r, "denied-query", "more than %d references "
		    "in one request", CG_REFS_MAX);
	switch (ask_facts(a, kind, ref, id)) {
	case CG_OWNED:
		id[CG_ID_MAX] = '\0';
		if (id_valid(id))
			return 0;
		break;
	case CG_NOT_OWNED:
		if (kind == CG_FACT_IMAGE)
			return image_not_owned(a->req, ref, r);
		return cg_refuse(r, "not-found", "no such %s: %s",
		    kind_names[kind], cg_quote(ref, strlen(ref), q));
	case CG_UNREACHABLE:
		return cg_refuse(r, "backend-unreachable",
		    "the %s backend is unreachable", backend_name(a->ctx));
	case CG_TIMEOUT:
		return cg_refuse_timeout(r, backend_name(a->ctx),
		    a->ctx->backend_timeout_ms ? a->ctx->backend_timeout_ms :
		    DEFAULT_BACKEND_TIMEOUT);
	case CG_UNEXPECTED:
	default:
		break;
	}
	return cg_refuse(r, "backend-unreachable", "unexpected %s inspect "
	    "response", inspect_names[kind]);
}

/*
 * Bytes [*start, *end) of path spanned by segments seg .. seg + nseg - 1
 * (segment 0 is the first after the leading '/'). -1 if path is shorter.
 */
static int
seg_span(const char *path, size_t len, size_t seg, size_t nseg,
    size_t *start, size_t *end)
{
	size_t i, k = 0, s = 1;

	if (nseg == 0)
		return -1;
	for (i = 1; i <= len; i++) {
		if (i < len && path[i] != '/')
			continue;
		if (k == seg)
			*start = s;
		if (k == seg + nseg - 1) {
			*end = i;
			return 0;
		}
		k++;
		s = i + 1;
	}
	return -1;
}

/*
 * §9.2, §9.6: check the path ref; when owned and ->id, *path becomes a new
 * string with the ref's segments replaced by the id (by position).
 */
static int
check_path_ref(struct asker *a, char **path, size_t *plen,
    struct cg_refusal *r)
{
	const struct cg_request *req = a->req;
	size_t start = 0, end = 0, idlen;
	char *ref, *np, id[CG_ID_MAX + 1];
	int rc;

	if (req->path_ref_kind < 0 || req->path_ref_nseg == 0)
		return 0;
	if (seg_span(*path, *plen, req->path_ref_seg, req->path_ref_nseg,
	    &start, &end) == -1 || end <= start)
		return cg_refuse(r, "backend-unreachable",
		    "unexpected %s reference position",
		    inspect_names[req->path_ref_kind]);
	ref = xstrndup(*path + start, end - start);
	rc = check_ref(a, req->path_ref_kind, ref, id, r);
	free(ref);
	if (rc == -1 || !req->path_ref_rewrite ||
	    req->path_ref_kind == CG_FACT_EXEC)
		return rc;
	idlen = strlen(id);
	np = xmalloc(*plen - (end - start) + idlen + 1);
	memcpy(np, *path, start);
	memcpy(np + start, id, idlen);
	memcpy(np + start + idlen, *path + end, *plen - end + 1);
	free(*path);
	*path = np;
	*plen = *plen - (end - start) + idlen;
	return 0;
}

/* §9.5: refs named by the route's query key, rewritten in place if ->id. */
static int
check_query_refs(struct asker *a, struct cg_query *q, struct cg_refusal *r)
{
	const struct route_qspec *qs = route_qspec(a->req->route->qpolicy);
	char id[CG_ID_MAX + 1];
	size_t i;

	if (qs->ref_key == NULL)
		return 0;
	for (i = 0; i < q->n; i++) {
		if (strcmp(q->v[i].key, qs->ref_key) != 0)
			continue;
		if (check_ref(a, qs->ref_kind, q->v[i].value, id, r) == -1)
			return -1;
		if (qs->ref_rewrite)
			query_set_at(q, i, id);
	}
	return 0;
}

/*
 * Hardening beyond routes.md §10.3: a truthy force on image remove (both
 * APIs), libpod bulk remove and untag makes podman remove every container
 * that uses the image, other projects' too. Checked after the ownership
 * checks, so another project's image still answers 404 (as without force).
 */
static int
force_policy(const struct cg_request *req, struct cg_refusal *r)
{
	const char *force;

	if (req->route->qpolicy != QP_IMAGE_REMOVE &&
	    req->route->qpolicy != QP_IMAGES_REMOVE)
		return 0;
	force = query_get(req->query, "force");
	if (force != NULL && !query_value_empty(force))
		return cg_refuse(r, "denied-query", "force removes containers "
		    "of other projects and is refused");
	return 0;
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
 * http.md §4.2 and policy.md §0: parse, police and re-serialise a JSON
 * body into req->body (NULL for an empty json-optional body).
 */
static int
body_stage(const struct cg_policy_ctx *ctx, struct cg_request *req,
    const char *body, size_t body_len, struct cg_refusal *r)
{
	char err[200];
	cJSON *tree;
	int rc;

	if (body_len == 0) {
		/* what the backend needs (issue 10 item 3; ctx field's comment) */
		if (ctx->commit_needs_body && req->api == CG_API_COMPAT &&
		    strcmp(req->action, "commit") == 0) {
			req->body = xstrdup("{}");
			req->body_len = 2;
			return 0;
		}
		if (req->body_kind == CG_BODY_JSON_OPTIONAL)
			return 0;
		return cg_refuse(r, "malformed",
		    "request body must be a JSON object");
	}
	if (body_len > JSON_MAX_TEXT)
		return cg_refuse(r, "too-large", "request body exceeds 8 MiB");
	if ((tree = json_parse(body, body_len, err, sizeof(err))) == NULL)
		return cg_refuse(r, "malformed", "invalid JSON body: %s", err);
	rc = body_policy(ctx, req, &tree, r);
	if (rc == 0)
		req->body = json_serialize(tree, &req->body_len);
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
	req->target = req->body = NULL;
	req->target_len = req->body_len = 0;
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
		 * and the client would get no answer (issue 11).
		 */
		else if (req->body_len > JSON_MAX_TEXT)
			rc = cg_refuse(r, "too-large", "request body exceeds "
			    "8 MiB");
	}
	free(path);
	return rc;
}
