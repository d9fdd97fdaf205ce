/*
 * Docker-API network answers made from podman's libpod ones; contracts in
 * netcompat.h (why: podman 4.3.1's own compat handlers strip the isolate
 * option from the networks it keeps in memory).
 */
#include "monitor/exchange/netcompat.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/xmalloc.h"
#include "monitor/exchange/listfilter.h"
#include "policy/json.h"
#include "policy/policy.h"

static cJSON *
add(cJSON *obj, const char *key, cJSON *v)
{
	if (!cJSON_AddItemToObject(obj, key, json_checked(v)))
		xoom();
	return v;
}

static cJSON *
str(const char *s)
{
	return json_checked(cJSON_CreateString(s));
}

/* A string member of obj, or "" when absent or not a string. */
static const char *
sget(const cJSON *obj, const char *key)
{
	const cJSON *v = json_get(obj, key);

	return cJSON_IsString(v) ? v->valuestring : "";
}

/* A copy of object obj without member drop (NULL: none), or {} */
static cJSON *
object_copy(const cJSON *obj, const char *drop)
{
	const cJSON *e;
	cJSON *out = json_checked(cJSON_CreateObject());

	if (!cJSON_IsObject(obj))
		return out;
	for (e = obj->child; e != NULL; e = e->next)
		if (drop == NULL || strcmp(e->string, drop) != 0)
			add(out, e->string, cJSON_Duplicate(e, 1));
	return out;
}

/* "<addr>/<prefix>" of a compat endpoint, or "" without an address. */
static cJSON *
cidr(const cJSON *ep, const char *addr_key, const char *len_key)
{
	const char *a = sget(ep, addr_key);
	const cJSON *n = json_get(ep, len_key);
	char buf[128];

	if (a[0] == '\0')
		return str("");
	/* a number is its lexeme (json_parse keeps it as sent) */
	snprintf(buf, sizeof(buf), "%s/%.8s", a, json_is_number(n) &&
	    (n->type & 0xff) == cJSON_Raw ? n->valuestring : "0");
	return str(buf);
}

/* The Containers map of network name from the compat container list. */
static cJSON *
containers_of(const char *name, const cJSON *ctrs)
{
	cJSON *out = json_checked(cJSON_CreateObject()), *r;
	const cJSON *c, *ep, *names;
	const char *n;

	for (c = cJSON_IsArray(ctrs) ? ctrs->child : NULL; c != NULL;
	    c = c->next) {
		ep = json_get(json_get(json_get(c, "NetworkSettings"), "Networks"),
		    name);
		if (!cJSON_IsObject(ep) || sget(c, "Id")[0] == '\0')
			continue;
		names = json_get(c, "Names");
		n = cJSON_IsArray(names) && cJSON_IsString(names->child) ?
		    names->child->valuestring : "";
		r = json_checked(cJSON_CreateObject());
		add(r, "Name", str(n[0] == '/' ? n + 1 : n));
		add(r, "EndpointID", str(sget(ep, "EndpointID")));
		add(r, "MacAddress", str(sget(ep, "MacAddress")));
		add(r, "IPv4Address", cidr(ep, "IPAddress", "IPPrefixLen"));
		add(r, "IPv6Address", cidr(ep, "GlobalIPv6Address",
		    "GlobalIPv6PrefixLen"));
		add(out, sget(c, "Id"), r);
	}
	return out;
}

/* One libpod network n in podman 4.3.1's compat shape; NULL: unexpected. */
static cJSON *
convert(const cJSON *n, const cJSON *ctrs)
{
	const cJSON *sub, *ipamo = json_get(n, "ipam_options");
	cJSON *o, *ipam, *cfg, *s;
	const char *name = sget(n, "name"), *drv = sget(ipamo, "driver");

	if (name[0] == '\0' || sget(n, "id")[0] == '\0')
		return NULL;
	o = json_checked(cJSON_CreateObject());
	add(o, "Name", str(name));
	add(o, "Id", str(sget(n, "id")));
	add(o, "Created", str(sget(n, "created")));
	add(o, "Scope", str("local"));
	add(o, "Driver", str(sget(n, "driver")));
	add(o, "EnableIPv6", cJSON_CreateBool(cJSON_IsTrue(json_get(n,
	    "ipv6_enabled"))));
	ipam = add(o, "IPAM", cJSON_CreateObject());
	add(ipam, "Driver", str(strcmp(drv, "host-local") == 0 ? "default" : drv));
	add(ipam, "Options", object_copy(ipamo, NULL));
	cfg = add(ipam, "Config", cJSON_CreateArray());
	sub = json_get(n, "subnets");
	for (sub = cJSON_IsArray(sub) ? sub->child : NULL; sub != NULL;
	    sub = sub->next) {
		s = json_checked(cJSON_CreateObject());
		add(s, "Subnet", str(sget(sub, "subnet")));
		if (sget(sub, "gateway")[0] != '\0')
			add(s, "Gateway", str(sget(sub, "gateway")));
		if (!cJSON_AddItemToArray(cfg, s))
			xoom();
	}
	add(o, "Internal", cJSON_CreateBool(cJSON_IsTrue(json_get(n, "internal"))));
	add(o, "Attachable", cJSON_CreateFalse());
	add(o, "Ingress", cJSON_CreateFalse());
	add(add(o, "ConfigFrom", cJSON_CreateObject()), "Network", str(""));
	add(o, "ConfigOnly", cJSON_CreateFalse());
	add(o, "Containers", containers_of(name, ctrs));
	add(o, "Options", object_copy(json_get(n, "options"), "isolate"));
	add(o, "Labels", object_copy(json_get(n, "labels"), NULL));
	return o;
}

int
netcompat_answer(const char *nets, size_t nets_len, int one,
    const char *ctrs, size_t ctrs_len, const char *root, char **out,
    size_t *out_len)
{
	char *fn = NULL, *fc = NULL, *wrap = NULL;
	size_t fnl, fcl;
	cJSON *ntree = NULL, *ctree = NULL, *res = NULL, *o;
	const cJSON *e;
	int rc = -1;

	/* the project's elements only, shapes checked (listfilter.c) */
	if (listfilter_apply(LF_CONTAINERS, CG_API_COMPAT, CG_PODMAN, root, ctrs,
	    ctrs_len, &fc, &fcl) != 0)
		return -1;
	if (one) {	/* one network: a list of one, filtered like a list */
		wrap = xmalloc(nets_len + 3);
		wrap[0] = '[';
		memcpy(wrap + 1, nets, nets_len);
		wrap[nets_len + 1] = ']';
		wrap[nets_len + 2] = '\0';
		nets = wrap;
		nets_len += 2;
	}
	if (listfilter_apply(LF_NETWORKS, CG_API_LIBPOD, CG_PODMAN, root, nets,
	    nets_len, &fn, &fnl) != 0)
		goto done;
	ntree = json_parse(fn, fnl, NULL, 0);
	ctree = json_parse(fc, fcl, NULL, 0);
	if (!cJSON_IsArray(ntree) || ctree == NULL)
		goto done;
	if (one && ntree->child == NULL) {
		rc = -2;
		goto done;
	}
	res = json_checked(cJSON_CreateArray());
	for (e = ntree->child; e != NULL; e = e->next) {
		if ((o = convert(e, ctree)) == NULL)
			goto done;
		if (!cJSON_AddItemToArray(res, o))
			xoom();
	}
	*out = json_serialize(one ? res->child : res, out_len);
	rc = 0;
done:
	cJSON_Delete(res);
	cJSON_Delete(ntree);
	cJSON_Delete(ctree);
	free(fn);
	free(fc);
	free(wrap);
	return rc;
}
