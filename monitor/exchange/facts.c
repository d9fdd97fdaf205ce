/*
 * Ownership questions (routes.md §9.2-§9.4, privsep.md §7.2): the child's
 * FACT_QUERY checked, the monitor's own inspect, its verdict, the answer.
 */
#include "monitor/gateway.h"
#include "monitor/exchange/backend.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/xmalloc.h"
#include "monitor/conn.h"
#include "monitor/exchange/exchange.h"
#include "monitor/exchange/facts.h"
#include "monitor/exchange/ocache.h"
#include "policy/imageref.h"
#include "policy/json.h"
#include "policy/query.h"
#include "policy/routes.h"

/* Inspect paths per kind (routes.md §9.2); NULL where none exists. */
static const struct {
	const char *compat;
	const char *libpod;
} inspect_paths[] = {
	[CG_FACT_CONTAINER] = { "/containers/%s/json", "/libpod/containers/%s/json" },
	[CG_FACT_POD] = { NULL, "/libpod/pods/%s/json" },
	[CG_FACT_VOLUME] = { "/volumes/%s", "/libpod/volumes/%s/json" },
	[CG_FACT_NETWORK] = { "/networks/%s", "/libpod/networks/%s/json" },
	[CG_FACT_IMAGE] = { "/images/%s/json", "/libpod/images/%s/json" },
	[CG_FACT_EXEC] = { "/exec/%s/json", "/libpod/exec/%s/json" },
};

char *
facts_inspect_request(enum cg_fact_kind kind, enum cg_api api,
    const char *prefix, const char *ref, size_t *len)
{
	const char *fmt = api == CG_API_LIBPOD || inspect_paths[kind].compat == NULL ?
	    inspect_paths[kind].libpod : inspect_paths[kind].compat;
	char *path, *req;
	int n;

	if (asprintf(&path, fmt, ref) < 0)
		xoom();
	/* kept alive: the connection may serve the next inspect */
	n = asprintf(&req, "GET %s%s HTTP/1.1\r\nHost: docker\r\n\r\n",
	    prefix, path);
	free(path);
	if (n < 0)
		xoom();
	*len = (size_t)n;
	return req;
}

static int
podman_backend(const struct conn *c)
{
	return c->gw->lis[c->lis].backend_kind == CG_PODMAN;
}

char *
facts_network_request(const struct conn *c, const char *name, size_t *len)
{
	return podman_backend(c) ?
	    facts_inspect_request(CG_FACT_NETWORK, CG_API_LIBPOD,
	    CG_LIBPOD_PREFIX, name, len) :
	    facts_inspect_request(CG_FACT_NETWORK, CG_API_COMPAT, c->q_prefix,
	    name, len);
}

enum cg_api
facts_network_api(const struct conn *c)
{
	return podman_backend(c) ? CG_API_LIBPOD : CG_API_COMPAT;
}

char *
facts_label_query(const char *root, const char *extra)
{
	struct cg_refusal r;
	struct cg_query *q;
	char *esc, *json, *enc;

	q = query_parse(extra, strlen(extra), &r);
	if (q == NULL)		/* our own constant: a broken invariant */
		abort();
	esc = cg_json_escape(root, strlen(root));
	if (asprintf(&json, "{\"label\":[\"%s=%s\"]}", CG_LABEL_KEY, esc) < 0)
		xoom();
	query_append(q, "filters", json);
	enc = query_encode(q, NULL);
	free(esc);
	free(json);
	query_free(q);
	return enc;
}

/* [A-Za-z0-9][A-Za-z0-9_.:@-]{0,254} (routes.md §9.3). */
static int
valid_id(const char *s)
{
	size_t i, n = strlen(s);

	if (n == 0 || n > 255)
		return 0;
	for (i = 0; i < n; i++) {
		char ch = s[i];
		int alnum = (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
		    (ch >= '0' && ch <= '9');

		if (!alnum && (i == 0 || strchr("_.:@-", ch) == NULL))
			return 0;
	}
	return 1;
}

/*
 * The key-collision rules of policy.md §0.2 on an inspect body (routes.md
 * §9.2: "a body that violates them counts as unexpected"). Identical keys
 * are refused in every object; fold-equal keys only in the struct-typed
 * objects whose members are read here (the top level and Config), since
 * the nested objects of an inspect answer include maps (labels,
 * annotations, ports, networks...) whose keys are exact.
 */
static int
has_duplicate(const cJSON *node)
{
	const cJSON *ch;
	const char *a, *b;

	if (cJSON_IsObject(node) && json_find_collision(node, 0, &a, &b))
		return 1;
	for (ch = node->child; ch != NULL; ch = ch->next)
		if ((cJSON_IsObject(ch) || cJSON_IsArray(ch)) && has_duplicate(ch))
			return 1;
	return 0;
}

/* A label map key spelled like KEY but not exactly KEY (policy.md §0.2). */
static int
has_key_variant(const cJSON *labels)
{
	const cJSON *ch;

	for (ch = labels->child; ch != NULL; ch = ch->next)
		if (ch->string != NULL && strcmp(ch->string, CG_LABEL_KEY) != 0 &&
		    json_fold_eq(ch->string, CG_LABEL_KEY))
			return 1;
	return 0;
}

enum cg_fact_result
facts_verdict(enum cg_fact_kind kind, enum cg_api api, int status,
    const char *body, size_t body_len, const char *root,
    char id_out[CG_ID_MAX + 1])
{
	const char *labels_key, *id_key, *ka, *kb;
	const cJSON *labels, *id, *val, *cfg;
	enum cg_fact_result res = CG_NOT_OWNED;
	char err[128];
	cJSON *tree;

	if (status == 404)
		return CG_NOT_OWNED;
	if (status < 200 || status > 299)
		return CG_UNEXPECTED;
	tree = json_parse(body, body_len, err, sizeof(err));
	if (tree == NULL || !cJSON_IsObject(tree) || has_duplicate(tree) ||
	    json_find_collision(tree, 1, &ka, &kb) ||
	    json_find_collision(json_get(tree, "Config"), 1, &ka, &kb)) {
		cJSON_Delete(tree);
		return CG_UNEXPECTED;
	}
	switch (kind) {
	case CG_FACT_VOLUME:
		id_key = "Name";
		labels_key = "Labels";
		break;
	case CG_FACT_NETWORK:
		id_key = api == CG_API_LIBPOD ? "id" : "Id";
		labels_key = api == CG_API_LIBPOD ? "labels" : "Labels";
		break;
	case CG_FACT_EXEC:
		id_key = "ContainerID";
		labels_key = NULL;
		break;
	default:
		id_key = "Id";
		labels_key = "Labels";
		break;
	}
	id = json_get(tree, id_key);
	if (!cJSON_IsString(id) || !valid_id(id->valuestring)) {
		cJSON_Delete(tree);
		return CG_UNEXPECTED;
	}
	if (labels_key == NULL) {	/* exec: the container is checked next */
		snprintf(id_out, CG_ID_MAX + 1, "%s", id->valuestring);
		cJSON_Delete(tree);
		return CG_OWNED;
	}
	labels = NULL;
	if (kind == CG_FACT_CONTAINER || kind == CG_FACT_IMAGE) {
		cfg = json_get(tree, "Config");
		if (cJSON_IsObject(cfg))
			labels = json_get(cfg, "Labels");
		if (kind == CG_FACT_IMAGE && !cJSON_IsObject(labels))
			labels = json_get(tree, "Labels");
	} else {
		labels = json_get(tree, labels_key);
	}
	if (cJSON_IsObject(labels)) {
		if (has_key_variant(labels)) {
			cJSON_Delete(tree);
			return CG_UNEXPECTED;
		}
		val = json_get(labels, CG_LABEL_KEY);
		if (cJSON_IsString(val) && strcmp(val->valuestring, root) == 0) {
			snprintf(id_out, CG_ID_MAX + 1, "%s", id->valuestring);
			res = CG_OWNED;
		}
	}
	cJSON_Delete(tree);
	return res;
}

/* ---------------------------------------------------------------- questions */

void
facts_answer(struct conn *c, uint8_t result, const char *id)
{
	struct ipc_msg m = { .type = IPC_FACT_ANSWER, .req = c->req };

	m.u.fact_answer.qid = c->fq.qid;
	m.u.fact_answer.result = result;
	m.u.fact_answer.id = ipc_cstr(result == IPC_FACT_OWNED ? id : "");
	if (result == IPC_FACT_OWNED && c->fq.nfacts < CG_FACTS_MAX) {
		if (c->fq.nfacts == c->fq.facts_cap) {
			c->fq.facts_cap = c->fq.facts_cap == 0 ? 4 : 2 * c->fq.facts_cap;
			if (c->fq.facts_cap > CG_FACTS_MAX)
				c->fq.facts_cap = CG_FACTS_MAX;
			c->fq.facts = xrealloc(c->fq.facts, c->fq.facts_cap *
			    sizeof(*c->fq.facts));
		}
		c->fq.facts[c->fq.nfacts].kind = c->fq.q_kind;
		snprintf(c->fq.facts[c->fq.nfacts].id, sizeof(c->fq.facts[0].id), "%.255s",
		    c->fq.q_kind == CG_FACT_EXEC ? c->fq.q_ref : id);
		snprintf(c->fq.facts[c->fq.nfacts].ref, sizeof(c->fq.facts[0].ref), "%s",
		    c->fq.q_ref);
		c->fq.nfacts++;
	}
	c->q_stage = FS_NONE;
	c->rs = RS_IDLE;
	conn_send(c, &m);
}

static void
start_fact(struct conn *c, enum cg_fact_kind kind, const char *ref)
{
	char *req;
	size_t len;

	/*
	 * Known for good: no inspect (routes.md §9.3, ocache.c). An exec's
	 * container is looked up every time: the exec inspect is made anyway,
	 * and the conformance kit (ex-inspect-own) wants the container's.
	 */
	int kept = c->q_stage == FS_EXEC_CONTAINER ? -1 :
	    ocache_get(c->gw, kind, ref);

	if (kept >= 0) {
		facts_answer(c, kept == CG_OWNED ? IPC_FACT_OWNED :
		    IPC_FACT_NOT_OWNED, ref);
		return;
	}
	/* networks on podman: never its compat inspect (monitor/exchange/netcompat.h) */
	req = kind == CG_FACT_NETWORK ? facts_network_request(c, ref, &len) :
	    facts_inspect_request(kind, (enum cg_api)c->fq.q_api, c->q_prefix,
	    ref, &len);
	if (backend_internal(c, req, len, 1) < 0) {
		conn_close_backend(c);
		facts_answer(c, IPC_FACT_UNREACHABLE, NULL);
	}
}

/*
 * Project-first resolution of id-shaped refs (spec README, amendments of
 * 2026-12-07): podman 4.3.1 and dockerd 20.10 resolve a name before an id
 * prefix (measured: isolation.sh i_short_id_names), so another project's
 * container named after this project's short id took that id away. When
 * a ref made of 12 to 63 lower-case hex digits inspects as a resource
 * that is not the project's, the monitor lists the project's resources of
 * that kind (label filter) and answers owned, with the full id, when
 * exactly one id starts with the ref; the forwarded request then names
 * the full id, which both daemons match before any name.
 */
static int
id_shaped(const char *ref)
{
	size_t n = strlen(ref);

	return n >= 12 && n < 64 &&
	    ref[strspn(ref, "0123456789abcdef")] == '\0';
}

static int
prefix_kind(int kind)
{
	return kind == CG_FACT_CONTAINER || kind == CG_FACT_POD ||
	    kind == CG_FACT_NETWORK;
}

/* The list request of the project's resources of c's question kind. */
static char *
own_list_request(const struct conn *c, size_t *len)
{
	static const char *const paths[][2] = {
		[CG_FACT_CONTAINER] = { "/containers/json",
		    "/libpod/containers/json" },
		[CG_FACT_POD] = { "/libpod/pods/json", "/libpod/pods/json" },
		[CG_FACT_NETWORK] = { "/networks", "/libpod/networks/json" },
	};
	struct cg_query *q = query_new();
	char *filters, *enc, *req, *entry;
	cJSON *f = json_checked(cJSON_CreateObject());
	cJSON *l = json_checked(cJSON_CreateArray());
	int n, lib;

	if (asprintf(&entry, "%s=%s", CG_LABEL_KEY, c->gw->root) < 0)
		xoom();
	cJSON_AddItemToArray(l, json_checked(cJSON_CreateString(entry)));
	cJSON_AddItemToObject(f, "label", l);
	filters = json_serialize(f, NULL);
	cJSON_Delete(f);
	free(entry);
	if (c->fq.q_kind == CG_FACT_CONTAINER)
		query_append(q, "all", "true");
	query_append(q, "filters", filters);
	enc = query_encode(q, NULL);
	query_free(q);
	free(filters);
	/* networks on podman: never its compat list (monitor/exchange/netcompat.h) */
	lib = c->fq.q_api == IPC_API_LIBPOD || (c->fq.q_kind == CG_FACT_NETWORK &&
	    facts_network_api(c) == CG_API_LIBPOD);
	n = asprintf(&req, "GET %s%s?%s HTTP/1.1\r\nHost: docker\r\n\r\n",
	    c->fq.q_api != IPC_API_LIBPOD && lib ? CG_LIBPOD_PREFIX : c->q_prefix,
	    paths[c->fq.q_kind][lib], enc);
	free(enc);
	if (n < 0)
		xoom();
	*len = (size_t)n;
	return req;
}

/*
 * The one entry of the list answer body[0..len) whose id starts with ref
 * and whose labels carry KEY=root, into id_out: CG_OWNED, or CG_NOT_OWNED
 * (none, or more than one: the daemon would call the prefix ambiguous),
 * or CG_UNEXPECTED (not a list of objects).
 */
static enum cg_fact_result
own_prefix(const char *body, size_t len, const char *ref, const char *root,
    char id_out[CG_ID_MAX + 1])
{
	const cJSON *e, *id, *labels, *v;
	char err[128];
	cJSON *tree = json_parse(body, len, err, sizeof(err));
	size_t rlen = strlen(ref);
	int found = 0;

	if (!cJSON_IsArray(tree)) {
		cJSON_Delete(tree);
		return CG_UNEXPECTED;
	}
	cJSON_ArrayForEach(e, tree) {
		id = json_get(e, "Id");
		if (id == NULL)
			id = json_get(e, "id");
		labels = json_get(e, "Labels");
		if (labels == NULL)
			labels = json_get(e, "labels");
		v = json_get(labels, CG_LABEL_KEY);
		if (!cJSON_IsString(id) || !valid_id(id->valuestring) ||
		    strncmp(id->valuestring, ref, rlen) != 0 ||
		    !cJSON_IsString(v) || strcmp(v->valuestring, root) != 0)
			continue;
		if (found++ == 0)
			snprintf(id_out, CG_ID_MAX + 1, "%s", id->valuestring);
	}
	cJSON_Delete(tree);
	return found == 1 ? CG_OWNED : CG_NOT_OWNED;
}

/* The list of the project's resources for FS_OWN_PREFIX answered. */
static void
own_prefix_done(struct conn *c, int status, const char *body,
    size_t body_len)
{
	char id[CG_ID_MAX + 1];
	enum cg_fact_result v = status >= 200 && status < 300 ?
	    own_prefix(body, body_len, c->fq.q_ref, c->gw->root, id) :
	    CG_UNEXPECTED;

	if (v == CG_OWNED)
		ocache_put(c->gw, c->fq.q_kind, id, v);
	/* nothing of the project's: the first inspect's answer stands */
	facts_answer(c, (uint8_t)(v == CG_UNEXPECTED ? CG_UNEXPECTED : v), id);
}

int
facts_internal_answer(struct conn *c, int ok, int timeout, int *status,
    char **body, size_t *body_len)
{
	if (backend_internal_done(c, ok, status, body, body_len) < 0) {
		conn_close_backend(c);
		facts_answer(c, timeout ? IPC_FACT_TIMEOUT : IPC_FACT_UNREACHABLE,
		    NULL);
		return -1;
	}
	return 0;
}

void
facts_done(struct conn *c, int ok, int timeout)
{
	char id[CG_ID_MAX + 1], *body = NULL;
	size_t body_len;
	int status;
	enum cg_fact_result v;
	enum cg_fact_kind kind = c->q_stage == FS_EXEC_CONTAINER ?
	    CG_FACT_CONTAINER : (enum cg_fact_kind)c->fq.q_kind;

	if (facts_internal_answer(c, ok, timeout, &status, &body, &body_len) < 0)
		return;
	if (c->q_stage == FS_OWN_PREFIX) {
		own_prefix_done(c, status, body, body_len);
		free(body);
		return;
	}
	v = facts_verdict(kind, kind == CG_FACT_NETWORK ? facts_network_api(c) :
	    (enum cg_api)c->fq.q_api, status, body, body_len, c->gw->root, id);
	free(body);
	if (v == CG_NOT_OWNED && status >= 200 && status < 300 &&
	    c->q_stage == FS_INSPECT && prefix_kind(c->fq.q_kind) &&
	    id_shaped(c->fq.q_ref)) {
		char *req;
		size_t len;

		c->q_stage = FS_OWN_PREFIX;
		req = own_list_request(c, &len);
		if (backend_internal(c, req, len, 1) < 0) {
			conn_close_backend(c);
			facts_answer(c, IPC_FACT_UNREACHABLE, NULL);
		}
		return;
	}
	/* a 2xx verdict about a full id holds for good (ocache.c) */
	if (status >= 200 && status < 300) {
		const char *ref = c->q_stage == FS_EXEC_CONTAINER ?
		    c->fq.q_exec_container : c->fq.q_ref;

		if (v == CG_OWNED)
			ocache_put(c->gw, kind, id, v);
		else if (v == CG_NOT_OWNED)
			ocache_put(c->gw, kind, ref, v);
	}
	if (v == CG_OWNED && c->q_stage == FS_INSPECT && c->fq.q_kind == CG_FACT_EXEC) {
		/* the exec's container must be owned (routes.md §9.4) */
		snprintf(c->fq.q_exec_container, sizeof(c->fq.q_exec_container), "%s", id);
		c->q_stage = FS_EXEC_CONTAINER;
		start_fact(c, CG_FACT_CONTAINER, c->fq.q_exec_container);
		return;
	}
	facts_answer(c, (uint8_t)v, id);
}

/*
 * A ref the monitor splices into an inspect path: one segment (images:
 * one or more, routes.md §10.1) of bytes 0x21-0x7e without '%', '?',
 * '#', '\\', and no empty, "." or ".." segment (image_ref_path_safe).
 */
static int
ref_is_path_safe(const struct ipc_str *ref, int multi)
{
	if (!multi && memchr(ref->p, '/', ref->len) != NULL)
		return 0;
	return image_ref_path_safe(ref->p, ref->len);
}

/* 1 when ref is a pod id this request's answers called owned. */
static int
answered_pod(const struct conn *c, const struct ipc_str *ref)
{
	unsigned i;

	for (i = 0; i < c->fq.nfacts; i++)
		if (c->fq.facts[i].kind == CG_FACT_POD &&
		    strlen(c->fq.facts[i].id) == ref->len &&
		    memcmp(c->fq.facts[i].id, ref->p, ref->len) == 0)
			return 1;
	return 0;
}

int
facts_on_query(struct conn *c, const struct ipc_msg *m)
{
	const struct ipc_str *pfx = &m->u.fact_query.prefix, *ref = &m->u.fact_query.ref;
	unsigned vmaj, vmin;

	if (++c->fq.nfact_q > IPC_FACT_QUERIES_MAX)
		return conn_violation(c, "more than %d FACT_QUERY", IPC_FACT_QUERIES_MAX);
	if (m->u.fact_query.kind == CG_FACT_POD && m->u.fact_query.api != IPC_API_LIBPOD)
		return conn_violation(c, "pod question on the compat API");
	if (!ref_is_path_safe(ref, m->u.fact_query.kind == CG_FACT_IMAGE))
		return conn_violation(c, "FACT_QUERY ref is not a valid path segment");
	/* podman would open a transport's host path on the lookup itself
	 * (red team s8); an honest child refused the request before */
	if (image_ref_transport_n(ref->p, ref->len))
		return conn_violation(c, "FACT_QUERY ref names an image transport");
	/*
	 * the prefix is "" or a canonical version segment (routes.md §3): it
	 * is spliced into the inspect request head, so no CR, LF or space
	 */
	if (pfx->len > 0 && (pfx->len < 2 || pfx->p[0] != '/' ||
	    route_version(pfx->p + 1, pfx->len - 1, &vmaj, &vmin) == 0))
		return conn_violation(c, "FACT_QUERY prefix is not a version prefix");
	/* which network stands for the default: the project's, or in a pod
	 * answered owned in this request, perhaps the pod's */
	if (m->u.fact_query.kind == CG_FACT_PROJNET &&
	    (ref->len != strlen(CG_PROJNET_REF) ||
	    memcmp(ref->p, CG_PROJNET_REF, ref->len) != 0) &&
	    !answered_pod(c, ref))
		return conn_violation(c, "project-network question about "
		    "another ref");
	c->fq.qid = m->u.fact_query.qid;
	c->fq.q_kind = m->u.fact_query.kind;
	c->fq.q_api = m->u.fact_query.api;
	memcpy(c->q_prefix, pfx->p, pfx->len);
	c->q_prefix[pfx->len] = '\0';
	memcpy(c->fq.q_ref, ref->p, ref->len);
	c->fq.q_ref[ref->len] = '\0';
	c->rs = RS_FACT;
	if (c->fq.q_kind == CG_FACT_PROJNET)
		return FACTS_PROJNET;	/* projnet.c's question (dispatch.c) */
	c->q_stage = FS_INSPECT;
	start_fact(c, (enum cg_fact_kind)c->fq.q_kind, c->fq.q_ref);
	return 0;
}

void
facts_reset(struct conn *c)
{
	c->fq.nfacts = c->fq.nfact_q = 0;
}

void
facts_free(struct conn *c)
{
	free(c->fq.facts);
	c->fq.facts = NULL;
	c->fq.facts_cap = 0;
	c->fq.nfacts = 0;
}
