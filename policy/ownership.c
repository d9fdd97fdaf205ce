/*
 * The ownership checks of stage 2 (routes.md §9): the ref in the path and
 * the refs named by a query key are asked about through ctx->facts (at
 * most CG_REFS_MAX questions a request), refused when they are not the
 * project's (404 not-found, §9.3) or when the question fails (502, 504),
 * and replaced by the resolved id where the route says so (§9.5, §9.6).
 * Contracts in ownership.h.
 */
#include "policy/ownership.h"

#include <stdlib.h>
#include <string.h>

#include "base/xmalloc.h"
#include "policy/query.h"
#include "policy/routes.h"

#define DEFAULT_BACKEND_TIMEOUT	60000	/* ms (http.md §10) */

/* Names for "no such <kind>" (routes.md §9.3) and the inspect kind. */
static const char *const kind_names[] = {
	[CG_FACT_CONTAINER] = "container", [CG_FACT_POD] = "pod",
	[CG_FACT_VOLUME] = "volume", [CG_FACT_NETWORK] = "network",
	[CG_FACT_IMAGE] = "image", [CG_FACT_EXEC] = "exec session",
	[CG_FACT_PROJNET] = "network",
};
static const char *const inspect_names[] = {
	[CG_FACT_CONTAINER] = "container", [CG_FACT_POD] = "pod",
	[CG_FACT_VOLUME] = "volume", [CG_FACT_NETWORK] = "network",
	[CG_FACT_IMAGE] = "image", [CG_FACT_EXEC] = "exec",
	[CG_FACT_PROJNET] = "network",
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
 * anyway, so the answer says why and what to do (usability.sh u_images); the
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
int
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
int
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
