/*
 * The project's own network (spec amendment of 2026-12-07, "Projects do
 * not share a network"; doc/privsep.md "The project's own network"). A
 * create that asks for the daemon's default network is rewritten by the
 * policy onto the network this file names (the child asks CG_FACT_PROJNET);
 * the named-resource phase creates it when it is missing, labelled with
 * the project and as its default network, isolated from every other
 * project's network.
 *
 * Its name is "cg-<directory>-<16 hex>", derived from ROOT, unless
 * another project holds a network of that name (network names are global
 * to a daemon): the project's network is then the one that carries its
 * labels, found by a labelled list, or, when there is none yet, the name
 * with a suffix chosen at random at start-up. A network is joined only
 * when it carries the project's label (the phase checks it, as for any
 * named network).
 */
#include "monitor/gateway.h"
#include "monitor/exchange/backend.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>
#include <unistd.h>

#include "base/xmalloc.h"
#include "monitor/conn.h"
#include "monitor/exchange/exchange.h"
#include "monitor/exchange/facts.h"
#include "monitor/exchange/projnet.h"
#include "monitor/log.h"
#include "policy/json.h"

#define LIBPOD_PREFIX	CG_LIBPOD_PREFIX

void
projnet_init(struct gateway *gw)
{
	unsigned char b[4];
	unsigned v;

	if (getrandom(b, sizeof(b), 0) != (ssize_t)sizeof(b)) {
		v = (unsigned)getpid() ^ (unsigned)time(NULL);
		memcpy(b, &v, sizeof(b));
	}
	snprintf(gw->pn_salt, sizeof(gw->pn_salt), "%02x%02x%02x%02x", b[0],
	    b[1], b[2], b[3]);
}

void
projnet_name(const char *root, char out[PROJNET_NAME_MAX + 1])
{
	const char *base = strrchr(root, '/');
	uint64_t h = 0xcbf29ce484222325ULL;	/* FNV-1a, 64 bits */
	char dir[33];
	size_t i, n = 0;

	for (i = 0; root[i] != '\0'; i++) {
		h ^= (unsigned char)root[i];
		h *= 0x100000001b3ULL;
	}
	base = base != NULL ? base + 1 : root;
	for (i = 0; base[i] != '\0' && n < sizeof(dir) - 1; i++) {
		char ch = base[i];

		dir[n++] = (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
		    (ch >= '0' && ch <= '9') || ch == '_' || ch == '.' ||
		    ch == '-' ? ch : '-';
	}
	dir[n] = '\0';
	snprintf(out, PROJNET_NAME_MAX + 1, "cg-%s-%016llx",
	    n > 0 ? dir : "project", (unsigned long long)h);
}

static int
podman_backend(const struct conn *c)
{
	return c->gw->lis[c->lis].backend_kind == CG_PODMAN;
}

int
projnet_measured_podman(const struct conn *c)
{
	return podman_backend(c) &&
	    c->gw->lis[c->lis].backend_ident == BACKEND_LIBPOD;
}

/* ------------------------------------------------------------ the question */

static void
answer_name(struct conn *c, const char *name)
{
	log_msg(LOG_DEBUG, "project-network", "conn=%llu the project network "
	    "is %s", (unsigned long long)c->id, name);
	facts_answer(c, IPC_FACT_OWNED, name);
}

void
projnet_fact_start(struct conn *c)
{
	char name[PROJNET_NAME_MAX + 1], *req;
	size_t len;

	if (c->q_stage != FS_PN_POD && strcmp(c->fq.q_ref, CG_PROJNET_REF) != 0) {
		/* a pod's: does its infra container share the network? */
		c->q_stage = FS_PN_POD;
		req = facts_inspect_request(CG_FACT_POD, CG_API_LIBPOD,
		    LIBPOD_PREFIX, c->fq.q_ref, &len);
		if (backend_internal(c, req, len, 1) < 0) {
			conn_close_backend(c);
			facts_answer(c, IPC_FACT_UNREACHABLE, NULL);
		}
		return;
	}
	projnet_name(c->gw->root, name);
	c->q_stage = FS_PN_INSPECT;
	req = facts_network_request(c, name, &len);
	if (backend_internal(c, req, len, 1) < 0) {
		conn_close_backend(c);
		facts_answer(c, IPC_FACT_UNREACHABLE, NULL);
	}
}

/* The project's networks, labelled as its default one: list them. */
static void
start_list(struct conn *c)
{
	char *q, *req;
	int n;

	q = facts_label_query(c->gw->root, "");
	n = asprintf(&req, "GET %s%s?%s HTTP/1.1\r\nHost: docker\r\n\r\n",
	    podman_backend(c) ? LIBPOD_PREFIX : c->q_prefix,
	    podman_backend(c) ? "/libpod/networks/json" : "/networks", q);
	free(q);
	if (n < 0)
		xoom();
	c->q_stage = FS_PN_LIST;
	if (backend_internal(c, req, (size_t)n, 1) < 0) {
		conn_close_backend(c);
		facts_answer(c, IPC_FACT_UNREACHABLE, NULL);
	}
}

/*
 * The name of the first (in byte order) network of a list answer that
 * carries both labels, copied to out; 0 when one was found, -1 when none,
 * -2 when the answer is no JSON array.
 */
static int
pick_labelled(const struct conn *c, const char *body, size_t len,
    char out[PROJNET_NAME_MAX + 1])
{
	int lib = podman_backend(c), found = -1;
	const cJSON *e, *labels, *v, *name;
	char err[128];
	cJSON *tree = json_parse(body, len, err, sizeof(err));

	if (tree == NULL || !cJSON_IsArray(tree)) {
		cJSON_Delete(tree);
		return -2;
	}
	for (e = tree->child; e != NULL; e = e->next) {
		labels = json_get(e, lib ? "labels" : "Labels");
		name = json_get(e, lib ? "name" : "Name");
		v = json_get(labels, CG_LABEL_KEY);
		if (!cJSON_IsString(v) || strcmp(v->valuestring, c->gw->root) != 0)
			continue;
		v = json_get(labels, PROJNET_LABEL);
		if (!cJSON_IsString(v) || strcmp(v->valuestring, "default") != 0 ||
		    !cJSON_IsString(name) || name->valuestring[0] == '\0' ||
		    strlen(name->valuestring) > PROJNET_NAME_MAX ||
		    strpbrk(name->valuestring, "/?#%\\ \r\n") != NULL)
			continue;
		if (found == 0 && strcmp(name->valuestring, out) >= 0)
			continue;
		snprintf(out, PROJNET_NAME_MAX + 1, "%s", name->valuestring);
		found = 0;
	}
	cJSON_Delete(tree);
	return found;
}

/*
 * A libpod pod inspect answer: 1 when the pod is the project's and its
 * infra container shares its network namespace (InfraContainerID set,
 * "net" among SharedNamespaces), 0 when it is the project's without that,
 * -2 when it is not the project's, -1 when unexpected.
 */
static int
pod_shares_net(const struct conn *c, int status, const char *body, size_t len)
{
	char id[CG_ID_MAX + 1], err[128];
	const cJSON *ns, *e, *infra;
	cJSON *tree;
	int net = 0;

	switch (facts_verdict(CG_FACT_POD, CG_API_LIBPOD, status, body, len,
	    c->gw->root, id)) {
	case CG_OWNED:
		break;
	case CG_NOT_OWNED:
		return -2;
	default:
		return -1;
	}
	if ((tree = json_parse(body, len, err, sizeof(err))) == NULL)
		return -1;
	infra = json_get(tree, "InfraContainerID");
	ns = json_get(tree, "SharedNamespaces");
	for (e = cJSON_IsArray(ns) ? ns->child : NULL; e != NULL; e = e->next)
		if (cJSON_IsString(e) && strcmp(e->valuestring, "net") == 0)
			net = 1;
	net = net && cJSON_IsString(infra) && infra->valuestring[0] != '\0';
	cJSON_Delete(tree);
	return net;
}

void
projnet_fact_done(struct conn *c, int ok, int timeout)
{
	char name[PROJNET_NAME_MAX + 1], id[CG_ID_MAX + 1], *body = NULL;
	size_t body_len;
	int status, rc;
	enum cg_fact_result v;

	if (facts_internal_answer(c, ok, timeout, &status, &body, &body_len) < 0)
		return;
	projnet_name(c->gw->root, name);
	if (c->q_stage == FS_PN_POD) {
		rc = pod_shares_net(c, status, body, body_len);
		free(body);
		if (rc == 1)
			answer_name(c, CG_PROJNET_POD);
		else if (rc == 0)
			projnet_fact_start(c);	/* the project's network */
		else
			facts_answer(c, rc == -2 ? IPC_FACT_NOT_OWNED :
			    IPC_FACT_UNEXPECTED, NULL);
		return;
	}
	if (c->q_stage == FS_PN_INSPECT) {
		v = facts_verdict(CG_FACT_NETWORK, facts_network_api(c), status,
		    body, body_len, c->gw->root, id);
		free(body);
		if (status == 404 || v == CG_OWNED) {
			answer_name(c, name);	/* missing: the phase creates it */
		} else if (status >= 500 || v == CG_UNEXPECTED) {
			facts_answer(c, IPC_FACT_UNEXPECTED, NULL);
		} else {
			/* another project's, or ambiguous (dockerd: 400) */
			log_msg(c->gw->pn_warned ? LOG_DEBUG : LOG_WARNING,
			    "project-network", "network %s is not this "
			    "project's; looking for the project's network by "
			    "its labels", name);
			c->gw->pn_warned = 1;
			start_list(c);
		}
		return;
	}
	if (status < 200 || status > 299) {
		free(body);
		facts_answer(c, IPC_FACT_UNEXPECTED, NULL);
		return;
	}
	rc = pick_labelled(c, body, body_len, name);
	free(body);
	if (rc == -2) {
		facts_answer(c, IPC_FACT_UNEXPECTED, NULL);
		return;
	}
	if (rc < 0) {
		projnet_name(c->gw->root, name);
		snprintf(name + strlen(name), sizeof(name) - strlen(name), "-%s",
		    c->gw->pn_salt);
	}
	answer_name(c, name);
}

const char *
projnet_answered(const struct conn *c)
{
	unsigned i;

	for (i = 0; i < c->fq.nfacts; i++)
		if (c->fq.facts[i].kind == CG_FACT_PROJNET)
			return c->fq.facts[i].id;
	return NULL;
}

/* ------------------------------------------------------------ the phase */

char *
projnet_create_request(const struct conn *c, const char *name, size_t *len)
{
	char *body, *req, *ename, *eroot;
	int lib = podman_backend(c), n;

	ename = cg_json_escape(name, strlen(name));
	eroot = cg_json_escape(c->gw->root, strlen(c->gw->root));
	/*
	 * podman: isolate (netavark and CNI drop traffic between two isolated
	 * bridges), DNS as its CLI and compat API enable it; the libpod API
	 * answers 409 for a taken name. dockerd: its bridges are isolated
	 * from each other by its own rules (DOCKER-ISOLATION-STAGE-1/2);
	 * CheckDuplicate makes a taken name a 409 (not atomic: concurrent
	 * creates are serialised by projnet_lock).
	 */
	n = lib ? asprintf(&body, "{\"name\":\"%s\",\"driver\":\"bridge\","
	    "\"labels\":{\"%s\":\"%s\",\"%s\":\"default\"},"
	    "\"options\":{\"isolate\":\"true\"},\"dns_enabled\":true}", ename,
	    CG_LABEL_KEY, eroot, PROJNET_LABEL) :
	    asprintf(&body, "{\"Name\":\"%s\",\"CheckDuplicate\":true,"
	    "\"Driver\":\"bridge\",\"Labels\":{\"%s\":\"%s\",\"%s\":"
	    "\"default\"}}", ename, CG_LABEL_KEY, eroot, PROJNET_LABEL);
	free(ename);
	free(eroot);
	if (n < 0)
		xoom();
	n = asprintf(&req, "POST %s%s HTTP/1.1\r\nHost: docker\r\n"
	    "Content-Type: application/json\r\nContent-Length: %zu\r\n\r\n%s",
	    lib ? LIBPOD_PREFIX : c->q_prefix,
	    lib ? "/libpod/networks/create" : "/networks/create", strlen(body),
	    body);
	free(body);
	if (n < 0)
		xoom();
	*len = (size_t)n;
	return req;
}

char *
projnet_reload_request(const struct conn *c, int remove, size_t *len)
{
	char *req, *eroot;
	int n;

	if (remove) {
		n = asprintf(&req, "DELETE " LIBPOD_PREFIX "/libpod/networks/"
		    "cg-reload-%s HTTP/1.1\r\nHost: docker\r\n\r\n",
		    c->gw->pn_salt);
	} else {
		eroot = cg_json_escape(c->gw->root, strlen(c->gw->root));
		n = asprintf(&req, "POST " LIBPOD_PREFIX "/libpod/networks/create "
		    "HTTP/1.1\r\nHost: docker\r\nContent-Type: application/json"
		    "\r\nContent-Length: %zu\r\n\r\n{\"name\":\"cg-reload-%s\","
		    "\"labels\":{\"%s\":\"%s\"}}", strlen("{\"name\":\"cg-reload-"
		    "\",\"labels\":{\"\":\"\"}}") + strlen(c->gw->pn_salt) +
		    strlen(CG_LABEL_KEY) + strlen(eroot), c->gw->pn_salt,
		    CG_LABEL_KEY, eroot);
		free(eroot);
	}
	if (n < 0)
		xoom();
	*len = (size_t)n;
	return req;
}

int
projnet_unisolated(const char *body, size_t len)
{
	char err[128];
	cJSON *tree = json_parse(body, len, err, sizeof(err));
	const cJSON *v, *driver;
	int open = 0;

	if (tree == NULL)
		return 1;
	driver = json_get(tree, "driver");
	v = json_get(json_get(tree, "options"), "isolate");
	if (cJSON_IsString(driver) && strcmp(driver->valuestring, "bridge") == 0 &&
	    !cJSON_IsTrue(json_get(tree, "internal")) &&
	    !(cJSON_IsString(v) && strcmp(v->valuestring, "true") == 0))
		open = 1;
	cJSON_Delete(tree);
	return open;
}

int
projnet_lock(struct conn *c)
{
	if (c->gw->pn_holder != NULL && c->gw->pn_holder != c)
		return 0;
	c->gw->pn_holder = c;
	return 1;
}

void
projnet_unlock(struct conn *c)
{
	if (c->gw->pn_holder != c)
		return;
	c->gw->pn_holder = NULL;
	c->gw->pn_wake = 1;
}
