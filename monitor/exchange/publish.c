/*
 * PublishAllPorts and publish_image_ports as explicit loopback bindings
 * (publish.h; policy.md rule 20 as amended on 2026-12-07).
 */
#include "monitor/exchange/publish.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/xmalloc.h"
#include "policy/json.h"

#define PORTS_MAX	1024	/* exposed ports of one create */

struct port {
	unsigned n;
	char proto[5];		/* tcp, udp, sctp */
};

struct ports {
	struct port v[PORTS_MAX];
	size_t n;
};

static cJSON *
parse(const char *s, size_t len)
{
	char err[100];

	return s != NULL ? json_parse(s, len, err, sizeof(err)) : NULL;
}

/* The publish-all member of a create body, exactly true, or NULL. */
static const cJSON *
publish_member(enum cg_api api, const cJSON *tree)
{
	const cJSON *m = api == CG_API_COMPAT ?
	    json_get(json_get(tree, "HostConfig"), "PublishAllPorts") :
	    json_get(tree, "publish_image_ports");

	return cJSON_IsTrue(m) ? m : NULL;
}

int
publish_all_wanted(enum cg_api api, const cJSON *tree)
{
	return cJSON_IsObject(tree) && publish_member(api, tree) != NULL;
}

/* "N" or "N/proto" (s[0..len)) into *p; 0, or -1 for another form. */
static int
port_parse(const char *s, size_t len, const char *dflt, struct port *p)
{
	size_t i = 0;
	unsigned long n = 0;
	const char *proto = dflt;
	size_t plen = strlen(dflt);

	if (len == 0 || s[0] < '1' || s[0] > '9')
		return -1;
	for (; i < len && s[i] >= '0' && s[i] <= '9' && i < 5; i++)
		n = n * 10 + (unsigned long)(s[i] - '0');
	if (n < 1 || n > 65535)
		return -1;
	if (i < len) {
		if (s[i] != '/')
			return -1;
		proto = s + i + 1;
		plen = len - i - 1;
	}
	if (!((plen == 3 && (memcmp(proto, "tcp", 3) == 0 ||
	    memcmp(proto, "udp", 3) == 0)) ||
	    (plen == 4 && memcmp(proto, "sctp", 4) == 0)))
		return -1;
	p->n = (unsigned)n;
	memcpy(p->proto, proto, plen);
	p->proto[plen] = '\0';
	return 0;
}

static int
ports_has(const struct ports *ps, const struct port *p)
{
	size_t i;

	for (i = 0; i < ps->n; i++)
		if (ps->v[i].n == p->n && strcmp(ps->v[i].proto, p->proto) == 0)
			return 1;
	return 0;
}

/* Add the keys of the ExposedPorts-shaped object obj; -1 for an odd one. */
static int
add_keys(struct ports *ps, const cJSON *obj, char detail[200])
{
	const cJSON *m;
	struct port p;

	for (m = cJSON_IsObject(obj) ? obj->child : NULL; m != NULL;
	    m = m->next) {
		if (port_parse(m->string, strlen(m->string), "tcp", &p) < 0) {
			snprintf(detail, 200, "exposed port %.40s cannot be "
			    "published on 127.0.0.1; publish ports explicitly",
			    m->string);
			return -1;
		}
		if (!ports_has(ps, &p) && ps->n < PORTS_MAX)
			ps->v[ps->n++] = p;
	}
	return 0;
}

/* libpod expose {"80":"tcp", "53":"tcp,udp"}. */
static int
add_expose(struct ports *ps, const cJSON *obj, char detail[200])
{
	const cJSON *m;
	const char *v;
	char key[16];
	size_t t;
	struct port p;

	for (m = cJSON_IsObject(obj) ? obj->child : NULL; m != NULL;
	    m = m->next) {
		v = cJSON_IsString(m) && m->valuestring[0] != '\0' ?
		    m->valuestring : "tcp";
		for (;;) {
			t = strcspn(v, ",");
			if (strlen(m->string) > 5 || t > 4 ||
			    snprintf(key, sizeof(key), "%s/%.*s", m->string,
			    (int)t, v) < 0 ||
			    port_parse(key, strlen(key), "tcp", &p) < 0) {
				snprintf(detail, 200, "exposed port %.40s cannot "
				    "be published on 127.0.0.1; publish ports "
				    "explicitly", m->string);
				return -1;
			}
			if (!ports_has(ps, &p) && ps->n < PORTS_MAX)
				ps->v[ps->n++] = p;
			if (v[t] == '\0')
				break;
			v += t + 1;
		}
	}
	return 0;
}

/* compat: the ports PortBindings already binds (keys, any form kept out). */
static void
bound_compat(struct ports *b, const cJSON *pb)
{
	const cJSON *m;
	struct port p;

	for (m = cJSON_IsObject(pb) ? pb->child : NULL; m != NULL; m = m->next)
		if (port_parse(m->string, strlen(m->string), "tcp", &p) == 0 &&
		    b->n < PORTS_MAX)
			b->v[b->n++] = p;
}

/* The value of a number node (a json_parse lexeme or a double); 0: none. */
static int
num_value(const cJSON *v, double *out)
{
	if (cJSON_IsRaw(v) && json_is_number(v)) {
		*out = strtod(v->valuestring, NULL);
		return 1;
	}
	if (cJSON_IsNumber(v)) {
		*out = v->valuedouble;
		return 1;
	}
	return 0;
}

/* libpod: 1 when a portmappings entry covers p. */
static int
covered_libpod(const cJSON *pms, const struct port *p)
{
	const cJSON *e, *cp, *rg, *pr;
	double lo, n;
	char protos[32];

	if (!cJSON_IsArray(pms))
		return 0;
	cJSON_ArrayForEach(e, pms) {
		cp = json_get(e, "container_port");
		rg = json_get(e, "range");
		pr = json_get(e, "protocol");
		if (!num_value(cp, &lo))
			continue;
		if (!num_value(rg, &n) || n < 1)
			n = 1;
		snprintf(protos, sizeof(protos), ",%s,", cJSON_IsString(pr) &&
		    pr->valuestring[0] != '\0' ? pr->valuestring : "tcp");
		if (p->n >= lo && p->n < lo + n) {
			char want[8];

			snprintf(want, sizeof(want), ",%s,", p->proto);
			if (strstr(protos, want) != NULL)
				return 1;
		}
	}
	return 0;
}

static void
rewrite_compat(cJSON *tree, const struct ports *ps)
{
	cJSON *hc = json_get(tree, "HostConfig"), *pb, *ep, *list, *b;
	const cJSON *mode = json_get(hc, "NetworkMode");
	struct ports bound = { .n = 0 };
	char key[16];
	size_t i;

	cJSON_DeleteItemFromObjectCaseSensitive(hc, "PublishAllPorts");
	if (cJSON_IsString(mode) && strcmp(mode->valuestring, "none") == 0)
		return;
	pb = json_get(hc, "PortBindings");
	if (!cJSON_IsObject(pb)) {
		cJSON_DeleteItemFromObjectCaseSensitive(hc, "PortBindings");
		pb = json_checked(cJSON_AddObjectToObject(hc, "PortBindings"));
	}
	ep = json_get(tree, "ExposedPorts");
	if (!cJSON_IsObject(ep)) {
		cJSON_DeleteItemFromObjectCaseSensitive(tree, "ExposedPorts");
		ep = json_checked(cJSON_AddObjectToObject(tree, "ExposedPorts"));
	}
	bound_compat(&bound, pb);
	for (i = 0; i < ps->n; i++) {
		if (ports_has(&bound, &ps->v[i]))
			continue;
		snprintf(key, sizeof(key), "%u/%s", ps->v[i].n, ps->v[i].proto);
		list = json_checked(cJSON_AddArrayToObject(pb, key));
		b = json_checked(cJSON_CreateObject());
		json_checked(cJSON_AddStringToObject(b, "HostIp", "127.0.0.1"));
		json_checked(cJSON_AddStringToObject(b, "HostPort", ""));
		cJSON_AddItemToArray(list, b);
		if (json_get(ep, key) == NULL)
			json_checked(cJSON_AddObjectToObject(ep, key));
	}
}

static void
rewrite_libpod(cJSON *tree, const struct ports *ps)
{
	const cJSON *mode = json_get(json_get(tree, "netns"), "nsmode");
	cJSON *pms, *e;
	char num[8];
	size_t i;

	cJSON_DeleteItemFromObjectCaseSensitive(tree, "publish_image_ports");
	if (cJSON_IsString(mode) && strcmp(mode->valuestring, "none") == 0)
		return;
	pms = json_get(tree, "portmappings");
	if (!cJSON_IsArray(pms)) {
		cJSON_DeleteItemFromObjectCaseSensitive(tree, "portmappings");
		pms = json_checked(cJSON_AddArrayToObject(tree, "portmappings"));
	}
	for (i = 0; i < ps->n; i++) {
		if (covered_libpod(pms, &ps->v[i]))
			continue;
		e = json_checked(cJSON_CreateObject());
		snprintf(num, sizeof(num), "%u", ps->v[i].n);
		cJSON_AddItemToObject(e, "container_port", json_new_number(num));
		json_checked(cJSON_AddStringToObject(e, "protocol",
		    ps->v[i].proto));
		json_checked(cJSON_AddStringToObject(e, "host_ip", "127.0.0.1"));
		cJSON_AddItemToArray(pms, e);
	}
}

int
publish_all_rewrite(enum cg_api api, const char *json, size_t len,
    const cJSON *image_ports, char **out, size_t *outlen, char detail[200])
{
	struct ports *ps = xcalloc(1, sizeof(*ps));
	cJSON *tree = parse(json, len);
	int rc = -1;

	if (!cJSON_IsObject(tree)) {
		snprintf(detail, 200, "the create body does not parse");
		goto out;
	}
	if (publish_member(api, tree) != NULL) {
		if (add_keys(ps, image_ports, detail) < 0)
			goto out;
		if ((api == CG_API_COMPAT ? add_keys(ps, json_get(tree,
		    "ExposedPorts"), detail) : add_expose(ps, json_get(tree,
		    "expose"), detail)) < 0)
			goto out;
		if (api == CG_API_COMPAT)
			rewrite_compat(tree, ps);
		else
			rewrite_libpod(tree, ps);
	}
	*out = json_serialize(tree, outlen);
	rc = 0;
out:
	cJSON_Delete(tree);
	free(ps);
	return rc;
}
