/*
 * The rewrites after a create is allowed (policy.md §6): the project
 * label (§6.1-6.2; pod create too, create.c; volume and network create,
 * resources.c), loopback HostIp for published ports that name none, and
 * egress injection of the proxy variables (§6.3). Contracts in body_int.h.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "base/xmalloc.h"
#include "policy/body_int.h"
#include "policy/json.h"

/* §6: obj[member][KEY] = ROOT; member created when absent or null if
 * create, else only set when member is an object. */
void
rewrite_label(const struct cg_policy_ctx *ctx, cJSON *obj, const char *member,
    int create)
{
	cJSON *labels = json_get(obj, member);

	if (!cJSON_IsObject(labels)) {
		if (!create || (labels != NULL && !cJSON_IsNull(labels)))
			return;
		labels = xj_object();
		set_member(obj, member, labels);
	}
	set_member(labels, CG_LABEL_KEY, xj_string(ctx->root));
}

void
rewrite_host_ips_libpod(cJSON *body)
{
	cJSON *pm = json_get(body, "portmappings"), *e, *ip;

	if (!cJSON_IsArray(pm))
		return;
	for (e = pm->child; e != NULL; e = e->next) {
		if (!cJSON_IsObject(e))
			continue;
		ip = json_get(e, "host_ip");
		if (ip == NULL || cJSON_IsNull(ip) ||
		    (cJSON_IsString(ip) && ip->valuestring[0] == '\0'))
			set_member(e, "host_ip", xj_string("127.0.0.1"));
	}
}

/* ---- §6.3 egress injection ---- */

/* §6.3: the variables egress injection owns. */
static int
proxy_name(const char *entry, size_t n)
{
	static const char *const names[] = {
		"HTTP_PROXY", "HTTPS_PROXY", "NO_PROXY",
	};
	size_t i;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (strlen(names[i]) == n) {
			size_t k;

			for (k = 0; k < n; k++)
				if (cg_lower((unsigned char)entry[k]) !=
				    cg_lower((unsigned char)names[i][k]))
					break;
			if (k == n)
				return 1;
		}
	return 0;
}

/* Drop "NAME=..." entries of an env list whose name is a proxy name. */
static void
drop_proxy_entries(cJSON *list)
{
	cJSON *e, *next;

	if (!cJSON_IsArray(list))
		return;
	for (e = list->child; e != NULL; e = next) {
		next = e->next;
		if (cJSON_IsString(e) &&
		    proxy_name(e->valuestring, strcspn(e->valuestring, "=")))
			cJSON_Delete(cJSON_DetachItemViaPointer(list, e));
	}
}

int
egress_active(const struct cg_policy_ctx *ctx)
{
	return ctx->egress != CG_EGRESS_OFF && ctx->proxy_available &&
	    ctx->proxy != NULL && ctx->noproxy != NULL;
}

static const char *const proxy_vars[] = {
	"HTTP_PROXY", "HTTPS_PROXY", "NO_PROXY",
	"http_proxy", "https_proxy", "no_proxy",
};

static const char *
proxy_value(const struct cg_policy_ctx *ctx, size_t i)
{
	return i % 3 == 2 ? ctx->noproxy : ctx->proxy;
}

/* §6.3 compat: Env and EnvMerge. */
static void
egress_compat(const struct cg_policy_ctx *ctx, cJSON *body)
{
	cJSON *env = json_get(body, "Env");
	size_t i, len;
	char *s;

	if (!cJSON_IsArray(env)) {
		env = xj_array();
		set_member(body, "Env", env);
	}
	drop_proxy_entries(env);
	for (i = 0; i < sizeof(proxy_vars) / sizeof(proxy_vars[0]); i++) {
		len = strlen(proxy_vars[i]) + strlen(proxy_value(ctx, i)) + 2;
		s = xmalloc(len);
		snprintf(s, len, "%s=%s", proxy_vars[i], proxy_value(ctx, i));
		cJSON_AddItemToArray(env, xj_string(s));
		free(s);
	}
	drop_proxy_entries(json_get(body, "EnvMerge"));
}

/* §6.3 libpod: env, envmerge, httpproxy. */
void
egress_libpod(const struct cg_policy_ctx *ctx, cJSON *body)
{
	cJSON *env = json_get(body, "env"), *m, *next;
	size_t i;

	if (!cJSON_IsObject(env)) {
		env = xj_object();
		set_member(body, "env", env);
	}
	for (m = env->child; m != NULL; m = next) {
		next = m->next;
		if (proxy_name(m->string, strlen(m->string)))
			cJSON_Delete(cJSON_DetachItemViaPointer(env, m));
	}
	for (i = 0; i < sizeof(proxy_vars) / sizeof(proxy_vars[0]); i++)
		if (!cJSON_AddItemToObject(env, proxy_vars[i],
		    xj_string(proxy_value(ctx, i))))
			xoom();
	drop_proxy_entries(json_get(body, "envmerge"));
	set_member(body, "httpproxy", xj_false());
}

/* ---- §6.1 compat ---- */

/* §6.1 rewrites. */
void
rewrite_compat(const struct cg_policy_ctx *ctx, cJSON *body)
{
	cJSON *hc, *pb, *p, *b, *ip, *mounts, *m, *vl;

	rewrite_label(ctx, body, "Labels", 1);
	hc = json_get(body, "HostConfig");
	if (!cJSON_IsObject(hc)) {
		hc = xj_object();
		set_member(body, "HostConfig", hc);
	}
	pb = json_get(hc, "PortBindings");
	if (cJSON_IsObject(pb))
		for (p = pb->child; p != NULL; p = p->next) {
			if (!cJSON_IsArray(p))
				continue;
			for (b = p->child; b != NULL; b = b->next) {
				ip = json_get(b, "HostIp");
				if (ip == NULL || cJSON_IsNull(ip) ||
				    (cJSON_IsString(ip) &&
				    ip->valuestring[0] == '\0'))
					set_member(b, "HostIp",
					    xj_string("127.0.0.1"));
			}
		}
	mounts = json_get(hc, "Mounts");
	if (cJSON_IsArray(mounts))
		for (m = mounts->child; m != NULL; m = m->next) {
			vl = json_get(json_get(m, "VolumeOptions"), "Labels");
			if (json_get(vl, CG_LABEL_KEY) != NULL)
				set_member(vl, CG_LABEL_KEY,
				    xj_string(ctx->root));
		}
	if (egress_active(ctx))
		egress_compat(ctx, body);
}
