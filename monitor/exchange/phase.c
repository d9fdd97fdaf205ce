/*
 * The monitor-side named-resource phase (policy.md §5, §11; privsep.md
 * §9.1 item 7): the networks and volumes a create names, and the name of a
 * volume create, are taken from the forwarded body itself, checked with
 * the monitor's own inspects, and missing volumes pre-created; only then
 * is the request forwarded. The project's own network (projnet.c) is
 * created here when the create names it and it is missing; on a podman
 * backend every network a container joins (create, connect) must be
 * isolated from other projects' networks (spec amendment of 2026-12-07).
 */
#include "monitor/gateway.h"
#include "monitor/exchange/backend.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/xmalloc.h"
#include "monitor/conn.h"
#include "monitor/evloop.h"
#include "monitor/exchange/answer.h"
#include "monitor/exchange/createbody.h"
#include "monitor/exchange/exchange.h"
#include "monitor/exchange/facts.h"
#include "monitor/exchange/image.h"
#include "monitor/exchange/imgdest.h"
#include "monitor/exchange/phase.h"
#include "monitor/exchange/projnet.h"
#include "monitor/exchange/publish.h"
#include "monitor/exchange/startcheck.h"
#include "monitor/log.h"
#include "monitor/pins.h"
#include "policy/body.h"
#include "policy/json.h"

static void phase_next(struct conn *c);

/* The name the phase is at: networks in stage 0, volumes in stages 1-2. */
#define PH_NAME(c)	((c)->ph.names[(c)->ph.kind == 0 ? 0 : 1][(c)->ph.i])

/* What c->ph.step says the running internal exchange is. */
enum {
	PH_INSPECT = 0,		/* a named network's or volume's inspect */
	PH_VOL_CREATE,		/* a missing volume's pre-create */
	PH_VOL_RECHECK,		/* its inspect after a 409 */
	PH_VOL_NAME,		/* volume create: the name check (§11) */
	PH_NET_CREATE,		/* the project network's create */
	PH_NET_RECHECK,		/* its inspect after a 409 or a wait */
	PH_NET_WAIT,		/* no exchange: another connection creates it */
	PH_RELOAD_CREATE,	/* podman re-reads its network files: a */
	PH_RELOAD_REMOVE,	/* throwaway network made and removed */
};

static void
phase_start_reload(struct conn *c, int remove)
{
	char *req;
	size_t len;

	req = projnet_reload_request(c, remove, &len);
	c->ph.step = remove ? PH_RELOAD_REMOVE : PH_RELOAD_CREATE;
	if (backend_internal(c, req, len, 0) < 0)
		backend_refuse_transport(c, 0);
}

static void
phase_start_inspect(struct conn *c)
{
	char *req;
	size_t len;

	req = c->ph.kind == 0 ? facts_network_request(c, PH_NAME(c), &len) :
	    facts_inspect_request(CG_FACT_VOLUME, (enum cg_api)c->api,
	    c->q_prefix, PH_NAME(c), &len);
	c->ph.step = PH_INSPECT;
	if (backend_internal(c, req, len, 1) < 0)
		backend_refuse_transport(c, 0);
}

/* The project network, missing at the inspect: create it, or wait while
 * another connection of this gateway does. */
static void
phase_start_netcreate(struct conn *c)
{
	char *req;
	size_t len;

	if (!projnet_lock(c)) {
		c->ph.step = PH_NET_WAIT;
		return;
	}
	req = projnet_create_request(c, projnet_answered(c), &len);
	c->ph.step = PH_NET_CREATE;
	if (backend_internal(c, req, len, 0) < 0) {
		projnet_unlock(c);
		backend_refuse_transport(c, 0);
	}
}

static void
phase_start_netrecheck(struct conn *c)
{
	char *req;
	size_t len;

	req = facts_network_request(c, projnet_answered(c), &len);
	c->ph.step = PH_NET_RECHECK;
	if (backend_internal(c, req, len, 1) < 0)
		backend_refuse_transport(c, 0);
}

void
phase_wake(struct gateway *gw)
{
	struct conn *c;

	for (c = TAILQ_FIRST(&gw->conns); c != NULL; c = TAILQ_NEXT(c, entry))
		if (!c->dead && c->rs == RS_PHASE && c->ph.step == PH_NET_WAIT &&
		    gw->pn_holder == NULL) {
			phase_start_netrecheck(c);
			mark_dirty(gw, c);
		}
}

/*
 * The project network's create (PH_NET_CREATE) or inspect after it
 * (PH_NET_RECHECK) answered status with body: go on once it is the
 * project's (and isolated), else refuse.
 */
static void
netcreate_done(struct conn *c, int status, char *body, size_t body_len)
{
	char id[CG_ID_MAX + 1];
	const char *name = projnet_answered(c);
	enum cg_fact_result v;

	if (c->ph.step == PH_NET_CREATE) {
		projnet_unlock(c);
		/*
		 * podman 4.3.1 lists the host's interfaces to pick a subnet
		 * and answers 500 "route ip+net: no such network interface"
		 * when a bridge goes away meanwhile (another network removed
		 * at the same moment: libs.sh saw it beside other suites).
		 * Nothing was created: try again, a few times.
		 */
		if (status == 500 && body != NULL && c->ph.pn_tries < 3 &&
		    memmem(body, body_len, "no such network interface", 25)) {
			c->ph.pn_tries++;
			free(body);
			log_msg(LOG_INFO, "project-network", "creating network "
			    "%s met podman's interface race; trying again", name);
			phase_start_netcreate(c);
			return;
		}
		free(body);
		if (status >= 200 && status <= 299) {
			log_msg(LOG_INFO, "project-network", "created network %s, "
			    "this project's own", name);
			c->ph.pn = 0;
			phase_next(c);
		} else if (status == 409) {
			log_msg(LOG_INFO, "project-network", "network %s was "
			    "created concurrently; re-checking its ownership",
			    name);
			phase_start_netrecheck(c);
		} else {
			log_msg(LOG_WARNING, "project-network", "creating "
			    "network %s returned %d; refusing the request",
			    name, status);
			backend_refuse(c, "network", "the project's network %s "
			    "could not be created", name);
		}
		return;
	}
	v = facts_verdict(CG_FACT_NETWORK, facts_network_api(c), status, body,
	    body_len, c->gw->root, id);
	if (status == 404 && v == CG_NOT_OWNED) {
		free(body);	/* gone again (a prune): create it */
		phase_start_netcreate(c);
		return;
	}
	if (v == CG_OWNED && (!projnet_measured_podman(c) ||
	    !projnet_unisolated(body, body_len))) {
		free(body);
		c->ph.pn = 0;
		phase_next(c);
		return;
	}
	free(body);
	backend_refuse(c, "network", "network %s is not a network of this "
	    "project", name);
}

static void
phase_start_precreate(struct conn *c)
{
	const char *name = PH_NAME(c);
	char *body, *req, *ename, *eroot;
	size_t len;
	int n;

	ename = cg_json_escape(name, strlen(name));
	eroot = cg_json_escape(c->gw->root, strlen(c->gw->root));
	n = asprintf(&body, "{\"Name\":\"%s\",\"Labels\":{\"%s\":\"%s\"}}", ename,
	    CG_LABEL_KEY, eroot);
	free(ename);
	free(eroot);
	if (n < 0)
		xoom();
	n = asprintf(&req, "POST %s%s/volumes/create HTTP/1.1\r\nHost: docker\r\n"
	    "Content-Type: application/json\r\nContent-Length: %zu\r\n"
	    "\r\n%s", c->q_prefix,
	    c->api == IPC_API_LIBPOD ? "/libpod" : "", strlen(body), body);
	free(body);
	if (n < 0)
		xoom();
	len = (size_t)n;
	c->ph.step = PH_VOL_CREATE;
	if (backend_internal(c, req, len, 0) < 0)
		backend_refuse_transport(c, 0);
}

/*
 * The inspect of the network PH_NAME(c) answered status with body
 * (body_len bytes; freed here): it must be owned by the project (§5.1)
 * and, on podman, isolated; a missing project network is created once
 * all are checked. Goes on to the next name, or refuses.
 */
static void
network_inspected(struct conn *c, int status, char *body, size_t body_len)
{
	char id[CG_ID_MAX + 1];
	const char *name = PH_NAME(c);
	enum cg_fact_result v;

	v = facts_verdict(CG_FACT_NETWORK, facts_network_api(c), status,
	    body, body_len, c->gw->root, id);
	/* isolated from other projects' networks (podman: its
	 * libpod answer says so; dockerd isolates every bridge) */
	if (v == CG_OWNED && projnet_measured_podman(c) &&
	    projnet_unisolated(body, body_len)) {
		free(body);
		/*
		 * podman may hold it stripped (monitor/exchange/netcompat.h): a
		 * network file written makes it read them all again
		 */
		if (!c->ph.reloaded) {
			log_msg(LOG_INFO, "project-network", "podman holds "
			    "network %s without isolation; having it read "
			    "its network files again", name);
			c->ph.reloaded = 1;
			phase_start_reload(c, 0);
			return;
		}
		backend_refuse(c, "network", "network %s is not "
		    "isolated from other projects' networks (remove it "
		    "and create it again through the gateway, which "
		    "isolates it)", name);
		return;
	}
	free(body);
	if (status == 404 && projnet_answered(c) != NULL &&
	    strcmp(projnet_answered(c), name) == 0) {
		c->ph.pn = 1;	/* created once all are checked */
		c->ph.i++;
		phase_next(c);
	} else if (v == CG_UNEXPECTED)
		backend_refuse(c, "backend-unreachable", "unexpected "
		    "network inspect response");
	else if (v != CG_OWNED)
		backend_refuse(c, "network", "network %s is not a network "
		    "of this project", name);
	else {
		c->ph.i++;
		phase_next(c);
	}
}

/*
 * The pre-create of the volume PH_NAME(c) answered status with body
 * (body_len bytes; freed here): an owned new volume goes on to the next
 * name; one created concurrently (409) or not shown owned is inspected
 * again (PH_VOL_RECHECK); any other failure refuses the request.
 */
static void
volume_precreated(struct conn *c, int status, char *body, size_t body_len)
{
	char id[CG_ID_MAX + 1];
	const char *name = PH_NAME(c);
	enum cg_fact_result v;

	if (status == 409) {
		log_msg(LOG_INFO, "volume-precreate", "volume %s was created "
		    "concurrently; re-checking its ownership", name);
	} else if (status < 200 || status > 299) {
		log_msg(LOG_WARNING, "volume-precreate", "pre-creating volume "
		    "%s returned %d; refusing the request", name, status);
		free(body);
		backend_refuse(c, "bind-mount", "volume %s could not be "
		    "prepared", name);
		return;
	} else {
		v = facts_verdict(CG_FACT_VOLUME, CG_API_COMPAT, status,
		    body, body_len, c->gw->root, id);
		if (v == CG_OWNED) {
			free(body);
			log_msg(LOG_INFO, "volume-precreate", "pre-created "
			    "volume %s for this project", name);
			c->ph.i++;
			phase_next(c);
			return;
		}
	}
	free(body);
	/* re-inspect: must be owned now */
	phase_start_inspect(c);
	c->ph.step = PH_VOL_RECHECK;
}

/* An inspect or pre-create of the networks-and-volumes steps finished. */
static void
named_done(struct conn *c, int ok, int timeout)
{
	char id[CG_ID_MAX + 1], *body = NULL;
	size_t body_len;
	int status;
	const char *name = PH_NAME(c);
	enum cg_fact_result v;

	if (backend_internal_done(c, ok, &status, &body, &body_len) < 0) {
		if (c->ph.step == PH_NET_CREATE)
			projnet_unlock(c);
		backend_refuse_transport(c, timeout);
		return;
	}
	if (c->ph.step == PH_NET_CREATE || c->ph.step == PH_NET_RECHECK) {
		netcreate_done(c, status, body, body_len);
		return;
	}
	if (c->ph.step == PH_RELOAD_CREATE || c->ph.step == PH_RELOAD_REMOVE) {
		free(body);
		if (c->ph.step == PH_RELOAD_CREATE && status >= 200 && status <= 299)
			phase_start_reload(c, 1);
		else		/* re-read (a 409: another connection's): look again */
			phase_start_inspect(c);
		return;
	}
	if (c->ph.kind == 0) {		/* network: must be owned (§5.1) */
		network_inspected(c, status, body, body_len);
		return;
	}
	if (c->ph.step == PH_INSPECT) {	/* volume inspect (§5.2) */
		v = facts_verdict(CG_FACT_VOLUME, (enum cg_api)c->api, status,
		    body, body_len, c->gw->root, id);
		free(body);
		if (v == CG_OWNED || status == 404) {
			/* missing ones are created once all are checked (F9) */
			c->ph.missing[c->ph.i] = status == 404;
			c->ph.i++;
			phase_next(c);
		} else if (v == CG_NOT_OWNED) {
			backend_refuse(c, "bind-mount", "volume %s is not a volume "
			    "of this project", name);
		} else {
			backend_refuse(c, "backend-unreachable", "unexpected "
			    "volume inspect response");
		}
		return;
	}
	if (c->ph.step == PH_VOL_CREATE) {	/* pre-create answer */
		volume_precreated(c, status, body, body_len);
		return;
	}
	v = facts_verdict(CG_FACT_VOLUME, (enum cg_api)c->api, status, body,
	    body_len, c->gw->root, id);
	free(body);
	if (v != CG_OWNED) {
		backend_refuse(c, "bind-mount", "volume %s is not a volume of "
		    "this project", name);
		return;
	}
	c->ph.i++;
	phase_next(c);
}

/*
 * publish.h: a create that publishes every exposed port is forwarded with
 * explicit 127.0.0.1 bindings of the ports its image exposes (as the image
 * step read them: c->im.exposed; none for a missing image, which the
 * daemon refuses) and of its own. 0, or -1 after a refusal.
 */
static int
publish_apply(struct conn *c)
{
	char *out, detail[200];
	size_t out_len;

	c->ph.pub_all = 0;
	createbody_parsed(c);
	if (publish_all_rewrite((enum cg_api)c->api, c->json,
	    (size_t)c->body_len, c->im.exposed, &out, &out_len, detail) < 0) {
		backend_refuse(c, "publish-all", "%s", detail);
		return -1;
	}
	backend_set_json(c, out, out_len);
	log_msg(LOG_DEBUG, "publish-all", "exposed ports published on "
	    "127.0.0.1 (conn %llu)", (unsigned long long)c->id);
	return 0;
}

/*
 * Next step of the phase: every named network, then every named volume is
 * inspected; only when all passed are the missing project network and
 * volumes created, so a create refused for one volume creates none
 * (tool.md guarantee 3; the spec's step order of policy.md §5.2 would
 * leave earlier ones behind). Then the bindings of a publish-all create
 * (publish_apply).
 */
static void
phase_next(struct conn *c)
{
	for (; c->ph.kind < 3; c->ph.kind++, c->ph.i = 0) {
		if (c->ph.kind < 2 && c->ph.i < c->ph.n[c->ph.kind]) {
			phase_start_inspect(c);
			return;
		}
		if (c->ph.kind == 2 && c->ph.pn) {
			phase_start_netcreate(c);
			return;
		}
		if (c->ph.kind == 2) {
			/* every name passed: pin the bind sources before
			   anything is created (pins.c) */
			if (c->ph.create != 0 && !c->ph.pinned) {
				c->ph.pinned = 1;
				if (pins_create(c, c->ph.create == 2) < 0)
					return;
			}
			while (c->ph.i < c->ph.n[1] && !c->ph.missing[c->ph.i])
				c->ph.i++;
			if (c->ph.i < c->ph.n[1]) {
				phase_start_precreate(c);
				return;
			}
		}
	}
	if (c->ph.pub_all && publish_apply(c) < 0)
		return;
	conn_free_phase_tree(c);
	backend_forward(c);
}

/*
 * The phase outlives the body's tree (its inspects and pre-creates wait for
 * the backend): the names it checks, c->ph.names (pointing into tree), are
 * copied into one block, c->ph.names_mem, and the caller frees the tree at
 * once, so that no connection keeps a parse tree across the event loop
 * (doc/reliability.md "Memory bounds": the tree of an 8 MiB body can take 300
 * MB; the monitor makes one at a time).
 */
static void
keep_names(struct conn *c)
{
	size_t k, i, len = 0;
	char *p;

	for (k = 0; k < 2; k++)
		for (i = 0; i < c->ph.n[k]; i++)
			len += strlen(c->ph.names[k][i]) + 1;
	p = c->ph.names_mem = xmalloc(len + 1);
	for (k = 0; k < 2; k++)
		for (i = 0; i < c->ph.n[k]; i++) {
			len = strlen(c->ph.names[k][i]) + 1;
			memcpy(p, c->ph.names[k][i], len);
			c->ph.names[k][i] = p;
			p += len;
		}
}

/* Version prefix of the target (the first segment if it is v<digit>...). */
static void
target_prefix(const struct conn *c, char out[33])
{
	size_t n = 1;

	out[0] = '\0';
	if (c->fw.target_len < 3 || c->fw.target[1] != 'v' || c->fw.target[2] < '0' ||
	    c->fw.target[2] > '9')
		return;
	while (n < c->fw.target_len && c->fw.target[n] != '/' && c->fw.target[n] != '?')
		n++;
	if (n > 32)
		return;
	memcpy(out, c->fw.target, n);
	out[n] = '\0';
}

/* A tag, build, commit or import: the names it moves (imgdest.c), then
 * phase_resume(). */
static void
phase_names(struct conn *c)
{
	if (imgdest_start(c) == 0)
		phase_resume(c);
}

void
phase_start(struct conn *c)
{
	/* the phase's state starts empty before the replay (dispatch.c
	   start_phase), which leaves its tree of the body in c->cb */
	target_prefix(c, c->q_prefix);
	/* routes the monitor answers or pre-checks itself (answer.c) */
	if (answer_start(c))
		return;
	/* starts, copies into a container being started, and walks of a
	 * container's root file system (startcheck.c) */
	if (startcheck_lock(c) || startcheck_start(c) || startcheck_walk(c))
		return;
	phase_names(c);
}

void
phase_reset(struct conn *c)
{
	c->ph.n[0] = c->ph.n[1] = 0;
	c->ph.create = 0;
	c->ph.pinned = 0;
	memset(c->ph.missing, 0, sizeof(c->ph.missing));
	c->ph.i = 0;
	c->ph.kind = 0;
	c->ph.pn = 0;
	c->ph.reloaded = 0;
	c->ph.pn_tries = 0;
}

void
phase_free(struct conn *c)
{
	free(c->ph.names_mem);
	c->ph.names_mem = NULL;
	c->ph.n[0] = c->ph.n[1] = 0;
	c->ph.pub_all = 0;
}

/*
 * The networks-and-volumes state of c before its steps: create (1 a
 * container's, 2 a pod's, 0 neither), no names; then the names known
 * without a body: a build's project network, and for join (a connect
 * on podman) the network of the path.
 */
static void
phase_init(struct conn *c, int create, int join)
{
	char *seg, *end;

	phase_reset(c);
	c->ph.create = create;
	/* a build's RUN steps on the project network (build_project_network):
	 * inspected, created when missing, like a create's */
	if (c->fw.op == FOP_BUILD && projnet_answered(c) != NULL) {
		c->ph.names[0][0] = projnet_answered(c);
		c->ph.n[0] = 1;
		keep_names(c);
	}
	if (join && c->fw.ref_len > 0) {
		/* the verified target: "<prefix>[/libpod]/networks/<id>/connect" */
		seg = c->fw.target + c->fw.ref_off;
		end = seg + c->fw.ref_len;
		if (*end == '/') {
			*end = '\0';
			c->ph.names[0][0] = seg;
			c->ph.n[0] = 1;
			keep_names(c);
			*end = '/';
		}
	}
}

/*
 * A volume create's name check (policy.md §11): takes the parsed body
 * tree. With a non-empty Name, deletes tree, sends the volume's inspect
 * (answered in the name check's step) and returns 1; else returns 0 and
 * tree is the caller's still.
 */
static int
volume_name_check(struct conn *c, cJSON *tree)
{
	const cJSON *name;
	char *req;
	size_t len;

	name = json_get(tree, "Name");
	if (!cJSON_IsString(name) || name->valuestring[0] == '\0')
		return 0;
	c->ph.names[1][0] = name->valuestring;
	c->ph.n[1] = 1;
	c->ph.kind = 1;
	keep_names(c);
	cJSON_Delete(tree);
	c->rs = RS_PHASE;
	c->ph.step = 3;	/* name check only */
	req = facts_inspect_request(CG_FACT_VOLUME, (enum cg_api)c->api,
	    c->q_prefix, c->ph.names[1][0], &len);
	if (backend_internal(c, req, len, 1) < 0)
		backend_refuse_transport(c, 0);
	return 1;
}

void
phase_resume(struct conn *c)
{
	char err[128], *image = NULL;
	cJSON *tree = NULL;
	const char *ref;
	int default_infra = 0, rc;
	int pod = c->fw.op == FOP_POD_CREATE;
	int ctr = c->fw.op == FOP_CONTAINER_CREATE;
	int vol = c->fw.op == FOP_VOLUME_CREATE;
	/* a container joins the path's network: isolated too (podman) */
	int join = c->fw.op == FOP_CONNECT &&
	    c->gw->lis[c->lis].backend_kind == CG_PODMAN;

	phase_init(c, ctr ? 1 : pod ? 2 : 0, join);
	if ((ctr || pod || vol) && c->json != NULL) {
		/* the one parse the later stages read (createbody.h) */
		tree = createbody_read(c, ctr || pod, pod, err, sizeof(err));
		if (tree == NULL) {
			conn_violation(c, "forwarded JSON body does not parse");
			c->dead = 1;
			return;
		}
	}
	/* publish.h: every exposed port as an explicit loopback binding */
	if (tree != NULL && ctr)
		c->ph.pub_all = publish_all_wanted((enum cg_api)c->api, tree);
	if (tree != NULL && (ctr || pod)) {
		if (body_named_resources((enum cg_api)c->api,
		    c->gw->lis[c->lis].backend_kind, pod, tree, c->ph.names[0],
		    &c->ph.n[0], c->ph.names[1], &c->ph.n[1], 64) < 0) {
			cJSON_Delete(tree);
			c->ph.n[0] = c->ph.n[1] = 0;
			backend_refuse(c, "bind-mount", "too many named volumes "
			    "or networks");
			return;
		}
		keep_names(c);
		ref = body_create_image((enum cg_api)c->api, pod, tree,
		    &default_infra);
		image = ref != NULL ? xstrdup(ref) : NULL;
	} else if (tree != NULL && vol) {
		/* volume create name check (policy.md §11) */
		if (volume_name_check(c, tree))
			return;
	}
	if (tree != NULL)
		cJSON_Delete(tree);
	c->rs = RS_PHASE;
	/* the image first: a refused create pre-creates no volume */
	if (ctr || pod) {
		rc = image_step_start(c, image, default_infra, pod);
		free(image);
		if (rc != 0)
			return;
	}
	phase_next(c);
}

/* Volume create name check answer (policy.md §11). */
static void
volume_name_done(struct conn *c, int ok, int timeout)
{
	char id[CG_ID_MAX + 1], *body = NULL;
	size_t body_len;
	int status;
	enum cg_fact_result v;
	const char *name = c->ph.names[1][0];

	if (backend_internal_done(c, ok, &status, &body, &body_len) < 0) {
		backend_refuse_transport(c, timeout);
		return;
	}
	v = facts_verdict(CG_FACT_VOLUME, (enum cg_api)c->api, status, body,
	    body_len, c->gw->root, id);
	free(body);
	if (status != 404 && v == CG_NOT_OWNED) {
		backend_refuse(c, "volume-driver", "volume %s exists and is not a "
		    "volume of this project", name);
		return;
	}
	if (v == CG_UNEXPECTED && status != 404) {
		backend_refuse(c, "backend-unreachable", "unexpected volume "
		    "inspect response");
		return;
	}
	conn_free_phase_tree(c);
	backend_forward(c);
}

void
phase_done(struct conn *c, int ok, int timeout)
{
	if (c->ans.kind != 0)
		answer_done(c, ok, timeout);
	else if (c->im.step != 0) {
		if (image_step_done(c, ok, timeout))
			phase_next(c);		/* the image passed */
	} else if (c->sc != NULL) {
		if (startcheck_done(c, ok, timeout))
			phase_names(c);		/* a walk passed */
	}
	else if (c->dn_step != 0) {
		if (imgdest_done(c, ok, timeout))
			phase_resume(c);	/* every name passed */
	} else if (c->ph.step == 3)
		volume_name_done(c, ok, timeout);
	else
		named_done(c, ok, timeout);
}
