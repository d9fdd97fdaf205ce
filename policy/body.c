/*
 * Body policy dispatch (policy.md §1-§13) and the named-resource
 * extraction for the monitor phase (§5).
 */
#include "policy/body.h"

#include <stdint.h>
#include <string.h>

#include "base/xmalloc.h"

#include "policy/body_int.h"
#include "policy/json.h"
#include "policy/query.h"
#include "policy/schema.h"

/*
 * 1 when req is on the resource family fam ("containers", "volumes", ...):
 * actions are shared between families ("create").
 */
static int
family_is(const struct cg_request *req, const char *fam)
{
	return req->family != NULL && strcmp(req->family, fam) == 0;
}

static int
action_is(const struct cg_request *req, const char *action)
{
	return req->action != NULL && strcmp(req->action, action) == 0;
}

int
body_policy(const struct cg_policy_ctx *ctx, struct cg_request *req,
    cJSON **tree, struct cg_refusal *r)
{
	cJSON *body = *tree;

	/* §3 step 2 */
	if (!cJSON_IsObject(body))
		return cg_refuse(r, "malformed",
		    "request body must be a JSON object");
	if (action_is(req, "create")) {
		if (family_is(req, "containers"))
			return req->api == CG_API_COMPAT ?
			    create_compat(ctx, req, body, r) :
			    create_libpod(ctx, req, body, r);
		if (family_is(req, "pods"))
			return pod_create(ctx, req, body, r);
		if (family_is(req, "volumes"))
			return volume_create(ctx, req, body, r);
		if (family_is(req, "networks"))
			return network_create(ctx, req, body, r);
	} else if (action_is(req, "exec-create")) {
		return exec_create(ctx, req, body, r);
	} else if (action_is(req, "exec-start")) {
		lenient_small_body(req, body, &sc_exec_start);
		return schema_check(&sc_exec_start, body, r);
	} else if (action_is(req, "exec-remove")) {
		lenient_small_body(req, body, &sc_exec_remove);
		return schema_check(&sc_exec_remove, body, r);
	} else if (action_is(req, "update")) {
		return update_policy(ctx, req, body, r);
	} else if (action_is(req, "connect")) {
		return network_connect(ctx, req, body, 0, r);
	} else if (action_is(req, "disconnect")) {
		return network_connect(ctx, req, body, 1, r);
	} else if (action_is(req, "commit")) {
		return commit_policy(ctx, req, body, r);
	}
	/* No policy of its own: the common rules (§0.2). */
	return schema_check(NULL, body, r);
}

/* ---- §5 named networks and volumes ---- */

/*
 * A volume name taken from a Binds entry is the text before the first ':'
 * of a string in the tree, so no NUL-terminated pointer into the tree
 * exists for it. The copy is kept on the entry's own node, in the key
 * slot that array elements do not use, so that it lives exactly as long
 * as the tree (the monitor keeps the tree for the whole asynchronous
 * phase, across other connections' requests) and is freed by
 * cJSON_Delete. Serialisation ignores keys of array elements.
 */
static const char *
bind_name(const cJSON *entry, size_t len)
{
	cJSON *e = (cJSON *)(uintptr_t)entry;	/* heap node, never const */
	char *copy;

	if (e->string != NULL && strlen(e->string) == len &&
	    memcmp(e->string, e->valuestring, len) == 0)
		return e->string;
	if ((copy = cJSON_malloc(len + 1)) == NULL)
		xoom();
	memcpy(copy, e->valuestring, len);
	copy[len] = '\0';
	if (e->string != NULL && !(e->type & cJSON_StringIsConst))
		cJSON_free(e->string);
	e->type &= ~cJSON_StringIsConst;
	e->string = copy;
	return copy;
}

struct names {
	const char **v;
	size_t n, max;
	int over;
};

static void
add_name(struct names *ns, const char *name)
{
	size_t i;

	for (i = 0; i < ns->n; i++)
		if (strcmp(ns->v[i], name) == 0)
			return;
	if (ns->n == ns->max) {
		ns->over = 1;
		return;
	}
	ns->v[ns->n++] = name;
}

/* A network name of §3.3.4: the rules' own classes (network_class()). */
static int
named_network(const char *v, int mode, enum cg_kind backend)
{
	return network_class(v, mode, backend) == CG_NET_NAMED;
}

static void
endpoint_names(struct names *nets, const cJSON *map, enum cg_kind backend)
{
	const cJSON *e;

	if (!cJSON_IsObject(map))
		return;
	for (e = map->child; e != NULL; e = e->next)
		if (named_network(e->string, 0, backend))
			add_name(nets, e->string);
}

static void
compat_volumes(struct names *vols, const cJSON *hc)
{
	const cJSON *m, *e;
	const char *s, *colon;
	size_t len;

	for (m = cJSON_IsObject(hc) ? hc->child : NULL; m != NULL;
	    m = m->next) {
		if (strcmp(m->string, "Binds") == 0 && cJSON_IsArray(m)) {
			for (e = m->child; e != NULL; e = e->next) {
				if (!cJSON_IsString(e))
					continue;
				s = e->valuestring;
				colon = strchr(s, ':');
				len = colon ? (size_t)(colon - s) : strlen(s);
				if (s[0] == '/' || !is_resource_name(s, len))
					continue;
				add_name(vols, bind_name(e, len));
			}
		} else if (strcmp(m->string, "Mounts") == 0 &&
		    cJSON_IsArray(m)) {
			for (e = m->child; e != NULL; e = e->next) {
				const cJSON *t = json_get(e, "Type");
				const cJSON *src = json_get(e, "Source");

				if (cJSON_IsString(t) &&
				    ascii_caseeq(t->valuestring, "volume") &&
				    cJSON_IsString(src) &&
				    is_resource_name(src->valuestring,
				    strlen(src->valuestring)))
					add_name(vols, src->valuestring);
			}
		}
	}
}

int
body_named_resources(enum cg_api api, enum cg_kind backend_kind,
    int pod_create, const cJSON *tree, const char **networks,
    size_t *nnetworks, const char **volumes, size_t *nvolumes, size_t max)
{
	struct names nets = { networks, 0, max, 0 };
	struct names vols = { volumes, 0, max, 0 };
	const cJSON *hc, *v, *e;

	*nnetworks = *nvolumes = 0;
	if (!cJSON_IsObject(tree))
		return 0;
	if (api == CG_API_COMPAT && !pod_create) {
		hc = json_get(tree, "HostConfig");
		v = json_get(hc, "NetworkMode");
		if (cJSON_IsString(v) && named_network(v->valuestring, 1,
		    backend_kind))
			add_name(&nets, v->valuestring);
		endpoint_names(&nets, json_get(json_get(tree,
		    "NetworkingConfig"), "EndpointsConfig"), backend_kind);
		compat_volumes(&vols, hc);
	} else {
		endpoint_names(&nets, json_get(tree, "Networks"), backend_kind);
		v = json_get(tree, "volumes");
		if (cJSON_IsArray(v))
			for (e = v->child; e != NULL; e = e->next) {
				const cJSON *n = json_get(e, "Name");

				if (cJSON_IsString(n) &&
				    is_resource_name(n->valuestring,
				    strlen(n->valuestring)))
					add_name(&vols, n->valuestring);
			}
	}
	*nnetworks = nets.n;
	*nvolumes = vols.n;
	return nets.over || vols.over ? -1 : 0;
}

const char *
body_create_image(enum cg_api api, int pod_create, const cJSON *tree,
    int *default_infra)
{
	const cJSON *v;

	*default_infra = 0;
	if (!cJSON_IsObject(tree))
		return NULL;
	if (pod_create) {
		v = json_get(tree, "infra_image");
		if (cJSON_IsString(v) && v->valuestring[0] != '\0')
			return v->valuestring;
		*default_infra = !json_truthy(json_get(tree, "no_infra"));
		return NULL;
	}
	v = json_get(tree, api == CG_API_COMPAT ? "Image" : "image");
	return cJSON_IsString(v) && v->valuestring[0] != '\0' ?
	    v->valuestring : NULL;
}
