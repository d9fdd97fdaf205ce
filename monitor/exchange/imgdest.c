/*
 * Destination names (policy/imgdest.h; red team rt10 F1): before a tag,
 * build, commit or import is forwarded, the monitor inspects each image
 * name the request would create or move, with the request's own API and
 * version prefix (the daemon resolves the name the same way: podman's
 * compat API normalises short names to Docker Hub, its libpod API to
 * localhost/). A name that does not exist (404) passes; one that is this
 * project's image (its project label is ours, facts_verdict) passes, so
 * that a rebuild under the project's own tag keeps working; any other
 * image, another project's or unlabelled (pulled, podman's), is refused:
 * the tag would move a name other projects' creates and builds resolve.
 * Like every phase check, it is a check at one instant: a name another
 * project creates between the inspect and the daemon's write is moved.
 */
#include "monitor/gateway.h"
#include "monitor/exchange/backend.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "monitor/exchange/exchange.h"
#include "monitor/exchange/facts.h"
#include "monitor/exchange/imgdest.h"
#include "monitor/log.h"

static void
ask(struct conn *c)
{
	char *req;
	size_t len;

	req = facts_inspect_request(CG_FACT_IMAGE, (enum cg_api)c->api,
	    c->q_prefix, c->dn.name[c->dn_i], &len);
	c->dn_step = 1;
	c->rs = RS_PHASE;
	if (backend_internal(c, req, len, 1) < 0)
		backend_refuse_transport(c, 0);
}

int
imgdest_start(struct conn *c)
{
	const char *qs = strchr(c->fw.target, '?');
	struct cg_refusal r;

	image_dests_free(&c->dn);
	c->dn_i = 0;
	c->dn_step = 0;
	if (image_dests_parse(c->fw.action, qs != NULL ? qs + 1 : "",
	    qs != NULL ? strlen(qs + 1) : 0, &c->dn, &r) < 0) {
		backend_refuse_r(c, &r);
		return -1;
	}
	if (c->dn.n == 0)
		return 0;
	ask(c);
	return 1;
}

int
imgdest_done(struct conn *c, int ok, int timeout)
{
	char id[CG_ID_MAX + 1], *body = NULL;
	const char *name = c->dn.name[c->dn_i];
	size_t body_len;
	int status;
	enum cg_fact_result v;

	if (backend_internal_done(c, ok, &status, &body, &body_len) < 0) {
		backend_refuse_transport(c, timeout);
		return 0;
	}
	v = facts_verdict(CG_FACT_IMAGE, (enum cg_api)c->api, status, body,
	    body_len, c->gw->root, id);
	free(body);
	if (status != 404 && v == CG_UNEXPECTED) {
		backend_refuse(c, "backend-unreachable", "unexpected image "
		    "inspect response");
		return 0;
	}
	if (status != 404 && v != CG_OWNED) {
		struct cg_refusal r;

		cg_refuse_hint(&r, c->dn.code, "choose a name of this "
		    "project's own, or one no image has yet", "%s=%s names an "
		    "image that is not this project's (pulled, or another "
		    "project's)", c->dn.key[c->dn_i], name);
		backend_refuse_r(c, &r);
		return 0;
	}
	if (++c->dn_i < c->dn.n) {
		ask(c);
		return 0;
	}
	log_msg(LOG_DEBUG, "image-dest", "%zu image name(s) free or the "
	    "project's (conn %llu)", c->dn.n, (unsigned long long)c->id);
	image_dests_free(&c->dn);
	c->dn_step = 0;
	return 1;
}
